package scenes

import (
	"math"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// Paletted draws three textures in OES_compressed_paletted_texture formats,
// the way handheld games stored art: left, 16x16 pixel art with a 16-colour
// RGB8 palette (PALETTE4_RGB8_OES) magnified with NEAREST; middle, a 64x64
// glow with a 256-entry RGBA8 palette (PALETTE8_RGBA8_OES) blended over a
// striped backdrop; right, a 32x32 checker with an RGB 565 palette and its
// whole mipmap chain in one upload (PALETTE8_R5_G6_B5_OES, level -5),
// receding in perspective so that several levels show.
func Paletted() Scene {
	return Scene{
		Name:   "paletted",
		Config: gles.Config{Width: width, Height: height, DepthBits: 16},
		Needs:  []driver.Feature{driver.FeatureTexture2D, driver.FeaturePalettedTextures, driver.FeatureBlend},
		Draw:   drawPaletted,
	}
}

// gem is 16x16 pixel art: a faceted gem outlined in black, as 4-bit
// palette indices (rows bottom to top, two texels a byte, first texel in
// the high nibble), after its 16-entry RGB8 palette.
func gem() []byte {
	palette := [16][3]byte{
		{20, 12, 40}, {0, 0, 0}, {40, 90, 200}, {80, 140, 240}, {150, 200, 255}, {240, 250, 255},
		{20, 50, 130}, {10, 30, 90}, {255, 220, 80}, {200, 150, 40}, {120, 80, 20}, {60, 200, 120},
		{30, 120, 70}, {220, 60, 90}, {140, 30, 60}, {255, 255, 255},
	}
	out := make([]byte, 0, 16*3+16*16/2)
	for _, c := range palette {
		out = append(out, c[:]...)
	}
	idx := make([]byte, 16*16)
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			dx, dy := math.Abs(float64(x)-7.5), math.Abs(float64(y)-7.5)
			d := dx + dy*1.2
			var c byte
			switch {
			case d > 8.5:
				c = 0 // background
			case d > 7.3:
				c = 1 // outline
			case y > 9:
				c = []byte{4, 3, 5, 3}[(x/2)%4] // upper facets catch the light
			case x < 8:
				c = 2 + byte((x+y)%2)*4
			default:
				c = 7 - byte((x+y)%2)
			}
			if x == 6 && y == 11 || x == 7 && y == 12 {
				c = 15 // sparkle
			}
			idx[y*16+x] = c
		}
	}
	for i := 0; i < len(idx); i += 2 {
		out = append(out, idx[i]<<4|idx[i+1])
	}
	return out
}

// glow is a 64x64 radial glow: a 256-entry RGBA8 palette running from
// transparent red through orange to opaque white, indexed by closeness to
// the centre with a ring.
func glow() []byte {
	out := make([]byte, 0, 256*4+64*64)
	for i := 0; i < 256; i++ {
		t := float64(i) / 255
		out = append(out, byte(255), byte(80+175*t), byte(40+215*t*t), byte(255*math.Min(1, 1.4*t)))
	}
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			d := math.Hypot(float64(x)-31.5, float64(y)-31.5) / 32
			v := math.Max(0, 1-d)
			v = math.Max(v*v, 0.8*math.Max(0, 1-math.Abs(d-0.7)*12)) // core and a ring
			out = append(out, byte(v*255+0.5))
		}
	}
	return out
}

// checkerMips is a 32x32 checker in 8-bit indices with a 256-entry RGB565
// palette (little-endian u16), followed by its five smaller levels; each
// level's checks are half as many as the level above's, in different
// colours, so the level in use can be seen.
func checkerMips() []byte {
	out := make([]byte, 0, 512+32*32*2)
	for i := 0; i < 256; i++ {
		// Entry 2*l+k: level l's light (k=0) or dark (k=1) check.
		l, k := i/2, i%2
		hue := float64(l) * 1.3
		r := 0.5 + 0.5*math.Cos(hue)
		g := 0.5 + 0.5*math.Cos(hue-2.1)
		b := 0.5 + 0.5*math.Cos(hue+2.1)
		if k == 1 {
			r, g, b = r*0.3, g*0.3, b*0.3
		}
		v := uint16(r*31+0.5)<<11 | uint16(g*63+0.5)<<5 | uint16(b*31+0.5)
		out = append(out, byte(v), byte(v>>8))
	}
	for l, n := 0, 32; n >= 1; l, n = l+1, n/2 {
		cell := max(n/8, 1)
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				out = append(out, byte(2*l+(x/cell+y/cell)%2))
			}
		}
	}
	return out
}

func drawPaletted(ctx trace.GL) error {
	ctx.Viewport(0, 0, width, height)
	ctx.ClearColor(0.16, 0.16, 0.2, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	ctx.MatrixMode(gles.PROJECTION)
	ctx.LoadIdentity()
	ctx.Orthof(0, width, 0, height, -1, 1)
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.LoadIdentity()

	tex := ctx.GenTextures(3)
	ctx.BindTexture(gles.TEXTURE_2D, tex[0])
	ctx.CompressedTexImage2D(gles.TEXTURE_2D, 0, gles.PALETTE4_RGB8_OES, 16, 16, 0, gem())
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
	ctx.BindTexture(gles.TEXTURE_2D, tex[1])
	ctx.CompressedTexImage2D(gles.TEXTURE_2D, 0, gles.PALETTE8_RGBA8_OES, 64, 64, 0, glow())
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
	ctx.BindTexture(gles.TEXTURE_2D, tex[2])
	ctx.CompressedTexImage2D(gles.TEXTURE_2D, -5, gles.PALETTE8_R5_G6_B5_OES, 32, 32, 0, checkerMips())
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR_MIPMAP_NEAREST))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))

	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	quad := func(x0, y0, x1, y1 float32) {
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{x0, y0, x1, y0, x1, y1, x0, y1})
		ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 1, 1, 0, 1})
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	}

	// Backdrop stripes behind the glow, untextured.
	for i := 0; i < 6; i++ {
		if i%2 == 0 {
			ctx.Color4f(0.25, 0.3, 0.45, 1)
		} else {
			ctx.Color4f(0.1, 0.12, 0.2, 1)
		}
		x := 112 + float32(i)*16
		quad(x, 64, x+16, 176)
	}

	ctx.Enable(gles.TEXTURE_2D)
	ctx.BindTexture(gles.TEXTURE_2D, tex[0])
	quad(8, 72, 104, 168)

	ctx.BindTexture(gles.TEXTURE_2D, tex[1])
	ctx.Enable(gles.BLEND)
	ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
	quad(112, 64, 208, 160)
	ctx.Disable(gles.BLEND)

	// The checker floor in its own perspective viewport on the right.
	ctx.Viewport(212, 24, 104, 192)
	perspective(ctx, 0.5, 1, 20, 104.0/192)
	ctx.Translatef(0, -1, -2)
	ctx.Rotatef(-70, 1, 0, 0)
	ctx.BindTexture(gles.TEXTURE_2D, tex[2])
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, 0, 0, 1, 0, 0, 1, 12, 0, -1, 12, 0})
	ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 2, 0, 2, 24, 0, 24})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)

	ctx.DeleteTextures(tex...)
	ctx.Finish()
	return ctx.Err()
}
