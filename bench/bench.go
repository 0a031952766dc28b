// Package bench holds the standard benchmark scenes of DESIGN.md as GL
// calls, so every backend (and Mesa, through a trace) runs the same work:
//
//   - fill-tex-blend: per frame, clear colour and depth, then 8 full-screen
//     quads at z = 1 - 1.8q/8 (q = 0..7) with per-vertex colours of alpha
//     0.8, texture coordinates 0..2 (REPEAT) on a 256x256 RGBA texture whose
//     texel (x, y) is (x, y, 255 if ((x>>4) xor (y>>4)) is odd else 0, 200),
//     bilinear, MODULATE, blending SRC_ALPHA/ONE_MINUS_SRC_ALPHA, depth
//     test LEQUAL;
//   - fill-flat: the same quads in one flat colour, no texture, no blending,
//     no depth test;
//   - fill-gouraud: the same quads with per-vertex colours and the depth
//     test, no texture;
//   - tiny-tris: 10,000 Gouraud triangles of about one pixel each.
//
// Each backend renders at its chip's natural screen size (NaturalSize).
package bench

import (
	"fmt"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
)

// Scene is a benchmark scene.
type Scene struct {
	Name string
	// Needs lists the features the scene uses.
	Needs []driver.Feature
	// Setup prepares textures and state once; Frame draws one frame and
	// waits for it.
	Setup func(ctx *gles.Context)
	Frame func(ctx *gles.Context)
	// Pixels and Triangles return the work of one frame at w x h.
	Pixels    func(w, h int) int
	Triangles int
}

// NaturalSize returns the chip's natural screen size (DESIGN.md).
func NaturalSize(backend string) (w, h int) {
	switch backend {
	case "pspge":
		return 480, 272
	case "pica200":
		return 400, 240
	case "glamo3365":
		return 480, 480
	}
	return 640, 480
}

// Scenes returns the standard scenes in order.
func Scenes() []Scene {
	quadPixels := func(w, h int) int { return 8 * w * h }
	return []Scene{
		{Name: "fill-tex-blend", Setup: setupTexBlend, Frame: quads(true), Pixels: quadPixels, Triangles: 16,
			Needs: []driver.Feature{driver.FeatureTexture2D, driver.FeatureBlend}},
		{Name: "fill-flat", Setup: setupFlat, Frame: quads(false), Pixels: quadPixels, Triangles: 16},
		{Name: "fill-gouraud", Setup: setupGouraud, Frame: quads(true), Pixels: quadPixels, Triangles: 16},
		{Name: "tiny-tris", Setup: setupTiny, Frame: tinyFrame, Pixels: func(w, h int) int { return tinyCount }, Triangles: tinyCount},
	}
}

// Lookup returns the scene with the given name.
func Lookup(name string) (Scene, error) {
	for _, s := range Scenes() {
		if s.Name == name {
			return s, nil
		}
	}
	return Scene{}, fmt.Errorf("unknown benchmark scene %q", name)
}

// quadVerts holds the 8 quads as 4 vertices each (x, y, z), drawn as two
// triangles per quad through 16-bit indices.
var quadVerts, quadColors, quadUV = func() ([]float32, []float32, []float32) {
	var pos, col, uv []float32
	corners := [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
	colors := [4][3]float32{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}}
	for q := 0; q < 8; q++ {
		z := 1 - 1.8*float32(q)/8
		for k, c := range corners {
			pos = append(pos, c[0], c[1], z)
			col = append(col, colors[k][0], colors[k][1], colors[k][2], 0.8)
			uv = append(uv, (c[0] + 1), (c[1] + 1))
		}
	}
	return pos, col, uv
}()

var quadIndices = func() []uint16 {
	var ix []uint16
	for q := uint16(0); q < 8; q++ {
		b := 4 * q
		ix = append(ix, b, b+1, b+2, b, b+2, b+3)
	}
	return ix
}()

func common(ctx *gles.Context) {
	cfg := ctx.Config()
	ctx.Viewport(0, 0, cfg.Width, cfg.Height)
	ctx.MatrixMode(gles.PROJECTION)
	ctx.LoadIdentity()
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.LoadIdentity()
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, quadVerts)
	ctx.ClearColor(0, 0, 0, 1)
	ctx.ClearDepthf(1)
}

// Texture returns the 256x256 benchmark texture's RGBA bytes.
func Texture() []byte {
	tex := make([]byte, 256*256*4)
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			p := tex[(y*256+x)*4:]
			p[0], p[1], p[3] = byte(x), byte(y), 200
			if ((x>>4)^(y>>4))&1 == 1 {
				p[2] = 255
			}
		}
	}
	return tex
}

func setupTexBlend(ctx *gles.Context) {
	setupGouraud(ctx)
	t := ctx.GenTextures(1)
	ctx.BindTexture(gles.TEXTURE_2D, t[0])
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 256, 256, 0, gles.RGBA, gles.UNSIGNED_BYTE, Texture())
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_S, int(gles.REPEAT))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_T, int(gles.REPEAT))
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	ctx.Enable(gles.TEXTURE_2D)
	ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	ctx.TexCoordPointer(2, gles.FLOAT, 0, quadUV)
	ctx.Enable(gles.BLEND)
	ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
}

func setupFlat(ctx *gles.Context) {
	common(ctx)
	ctx.Color4f(0.2, 0.6, 0.9, 1)
}

func setupGouraud(ctx *gles.Context) {
	common(ctx)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.ColorPointer(4, gles.FLOAT, 0, quadColors)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.DepthFunc(gles.LEQUAL)
}

func quads(depth bool) func(ctx *gles.Context) {
	return func(ctx *gles.Context) {
		mask := gles.COLOR_BUFFER_BIT
		if depth {
			mask |= gles.DEPTH_BUFFER_BIT
		}
		ctx.Clear(mask)
		ctx.DrawElements(gles.TRIANGLES, len(quadIndices), gles.UNSIGNED_SHORT, quadIndices)
		ctx.Finish()
	}
}

const tinyCount = 10000

var tinyVerts, tinyColors []float32

// setupTiny lays out 10,000 triangles of half a pixel's area (legs of one
// pixel) on a grid across the viewport, with per-vertex colours.
func setupTiny(ctx *gles.Context) {
	common(ctx)
	cfg := ctx.Config()
	w, h := float32(cfg.Width), float32(cfg.Height)
	tinyVerts = tinyVerts[:0]
	tinyColors = tinyColors[:0]
	cols := 125
	for i := 0; i < tinyCount; i++ {
		gx, gy := float32(i%cols), float32(i/cols)
		// Pixel coordinates of the triangle's corner, then clip space.
		px := 4 + gx*(w-8)/float32(cols)
		py := 4 + gy*(h-8)/float32(tinyCount/cols)
		for _, d := range [3][2]float32{{0, 0}, {1.2, 0}, {0, 1.2}} {
			tinyVerts = append(tinyVerts, (px+d[0])/w*2-1, (py+d[1])/h*2-1, 0)
		}
		tinyColors = append(tinyColors, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1)
	}
	ctx.VertexPointer(3, gles.FLOAT, 0, tinyVerts)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.ColorPointer(4, gles.FLOAT, 0, tinyColors)
}

func tinyFrame(ctx *gles.Context) {
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3*tinyCount)
	ctx.Finish()
}

// Missing returns the first feature the scene needs that caps lacks.
func (s Scene) Missing(caps *driver.Caps) (driver.Feature, bool) {
	for _, f := range s.Needs {
		if !caps.Has(f) {
			return f, true
		}
	}
	return 0, false
}
