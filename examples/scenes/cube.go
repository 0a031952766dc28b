package scenes

import (
	"bytes"
	_ "embed"
	"fmt"
	"image/png"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// cratePNG is the cube's texture (testdata/gen_crate.go draws it).
//
//go:embed testdata/crate.png
var cratePNG []byte

// Cube is a textured, lit cube turned towards the viewer: one directional
// light, a 128x128 texture decoded from a PNG file with a mipmap chain built
// on the CPU, and trilinear filtering (LINEAR_MIPMAP_LINEAR) so the faces
// that turn away blend two mipmap levels.
func Cube() Scene {
	return Scene{
		Name:   "cube",
		Config: gles.Config{Width: width, Height: height, DepthBits: 16},
		Needs:  []driver.Feature{driver.FeatureTexture2D, driver.FeatureLighting},
		Draw:   drawCube,
	}
}

func drawCube(ctx trace.GL) error {
	img, err := png.Decode(bytes.NewReader(cratePNG))
	if err != nil {
		return fmt.Errorf("cube: decode crate.png: %w", err)
	}

	ctx.Viewport(0, 0, width, height)
	ctx.ClearColor(0.12, 0.14, 0.2, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.Enable(gles.CULL_FACE)
	ctx.Hint(gles.PERSPECTIVE_CORRECTION_HINT, gles.NICEST)
	perspective(ctx, 0.5, 1, 20, float32(width)/height)

	// The light is given with an identity modelview, so it stays fixed
	// relative to the viewer: a directional light from the upper left.
	ctx.Enable(gles.LIGHTING)
	ctx.Enable(gles.LIGHT0)
	ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{-0.5, 0.8, 1, 0})
	ctx.Lightfv(gles.LIGHT0, gles.DIFFUSE, []float32{1, 0.95, 0.9, 1})
	ctx.Lightfv(gles.LIGHT0, gles.AMBIENT, []float32{0.25, 0.25, 0.3, 1})
	ctx.Materialfv(gles.FRONT_AND_BACK, gles.AMBIENT_AND_DIFFUSE, []float32{1, 1, 1, 1})

	// The texture: level 0 from the PNG, then each level the 2x2 box
	// average of the one above, down to 1x1.
	tex := ctx.GenTextures(1)
	ctx.BindTexture(gles.TEXTURE_2D, tex[0])
	ctx.PixelStorei(gles.UNPACK_ALIGNMENT, 1) // RGB rows of small levels are not 4-byte multiples
	w, h, pix := glRows(img, false)
	for level := 0; ; level++ {
		ctx.TexImage2D(gles.TEXTURE_2D, level, gles.RGB, w, h, 0, gles.RGB, gles.UNSIGNED_BYTE, pix)
		if w == 1 && h == 1 {
			break
		}
		w, h, pix = halve(pix, w, h, 3)
	}
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR_MIPMAP_LINEAR))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	ctx.Enable(gles.TEXTURE_2D)

	// The cube, turned so that three faces show at different slants.
	ctx.Translatef(0, 0, -5.5)
	ctx.Rotatef(28, 1, 0, 0)
	ctx.Rotatef(-38, 0, 1, 0)
	c := newCube(func(int) [4]float32 { return [4]float32{1, 1, 1, 1} })
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.NORMAL_ARRAY)
	ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, c.pos)
	ctx.NormalPointer(gles.FLOAT, 0, c.normal)
	ctx.TexCoordPointer(2, gles.FLOAT, 0, c.tex)
	ctx.DrawElements(gles.TRIANGLES, len(c.index), gles.UNSIGNED_SHORT, c.index)

	ctx.DeleteTextures(tex...)
	ctx.Finish()
	return ctx.Err()
}
