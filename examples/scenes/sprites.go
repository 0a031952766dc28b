package scenes

import (
	"math"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// Sprites is a particle fountain: 240 point sprites (OES_point_sprite with
// COORD_REPLACE) whose sizes come from a point size array
// (OES_point_size_array), each textured with a soft round blob and blended
// additively (SRC_ALPHA, ONE) with depth writes off, as particle systems
// are drawn. Positions follow a fixed formula, so every run is the same.
func Sprites() Scene {
	return Scene{
		Name:   "sprites",
		Config: gles.Config{Width: width, Height: height, DepthBits: 16},
		Needs: []driver.Feature{driver.FeaturePoints, driver.FeaturePointSize, driver.FeaturePointSprite,
			driver.FeaturePointSizeArray, driver.FeatureTexture2D, driver.FeatureBlend},
		Draw: drawSprites,
	}
}

// blob returns a 32x32 luminance-alpha texture: white, with alpha falling
// smoothly from the centre to zero at the edge.
func blob() []byte {
	const n = 32
	pix := make([]byte, 0, 2*n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			d := math.Hypot(float64(x)+0.5-n/2, float64(y)+0.5-n/2) / (n / 2)
			a := math.Max(0, 1-d)
			pix = append(pix, 255, byte(a*a*255+0.5))
		}
	}
	return pix
}

// particles returns positions, colours and sizes of the fountain: particle
// i left the nozzle at a time and angle given by i, and flies a parabola.
func particles(n int) (pos, col, size []float32) {
	for i := 0; i < n; i++ {
		age := float64(i%60) / 60                // 0 (just out) .. 1 (about to fade)
		turn := float64(i) * 2.39996             // golden angle: an even spray
		speed := 1.0 + 0.35*float64((i*7)%11)/10 // some fly farther
		r := 1.6 * speed * age
		x, z := r*math.Cos(turn), r*math.Sin(turn)
		y := -1.2 + 5.2*speed*age - 4.9*age*age*speed
		pos = append(pos, float32(x), float32(y), float32(z))
		fade := float32(1 - age)
		col = append(col, 0.4+0.6*fade, 0.5+0.3*float32(math.Sin(turn)), 1-0.5*fade, 0.25+0.7*fade)
		size = append(size, float32(6+22*(1-age)*(0.6+0.4*math.Cos(turn*3))))
	}
	return pos, col, size
}

func drawSprites(ctx trace.GL) error {
	ctx.Viewport(0, 0, width, height)
	ctx.ClearColor(0.02, 0.02, 0.06, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	perspective(ctx, 0.5, 1, 30, float32(width)/height)
	ctx.Translatef(0, -0.6, -4.2)
	ctx.Rotatef(15, 1, 0, 0)

	tex := ctx.GenTextures(1)
	ctx.BindTexture(gles.TEXTURE_2D, tex[0])
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.LUMINANCE_ALPHA, 32, 32, 0, gles.LUMINANCE_ALPHA, gles.UNSIGNED_BYTE, blob())
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	ctx.Enable(gles.TEXTURE_2D)

	// Sprites: texture coordinates replaced across each point.
	ctx.Enable(gles.POINT_SPRITE_OES)
	ctx.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
	ctx.Enable(gles.BLEND)
	ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.DepthMask(false)

	pos, col, size := particles(240)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.EnableClientState(gles.POINT_SIZE_ARRAY_OES)
	ctx.VertexPointer(3, gles.FLOAT, 0, pos)
	ctx.ColorPointer(4, gles.FLOAT, 0, col)
	ctx.PointSizePointerOES(gles.FLOAT, 0, size)
	ctx.DrawArrays(gles.POINTS, 0, len(pos)/3)

	ctx.DisableClientState(gles.POINT_SIZE_ARRAY_OES)
	ctx.DepthMask(true)
	ctx.DeleteTextures(tex...)
	ctx.Finish()
	return ctx.Err()
}
