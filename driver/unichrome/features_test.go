package unichrome_test

import (
	"bytes"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
)

// checker returns a size x size RGBA texture of 8x8 cells: red/white.
func checker(size int) []uint8 {
	b := make([]uint8, 4*size*size)
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			p := b[4*(y*size+x):]
			if (x/8+y/8)%2 == 0 {
				copy(p, []uint8{255, 0, 0, 255})
			} else {
				copy(p, []uint8{255, 255, 255, 128})
			}
		}
	}
	return b
}

func quad(ctx *gles.Context, z float32) {
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, z, 1, -1, z, 1, 1, z, -1, 1, z})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
}

func texQuad(ctx *gles.Context, s0, t0, s1, t1 float32, units ...int) {
	for _, u := range units {
		ctx.ClientActiveTexture(gles.TEXTURE0 + gles.Enum(u))
		ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{s0, t0, s1, t0, s1, t1, s0, t1})
	}
	quad(ctx, 0)
}

func bindTexture(ctx *gles.Context, unit int, size int, data []uint8, minf, magf gles.Enum) {
	ctx.ActiveTexture(gles.TEXTURE0 + gles.Enum(unit))
	ids := ctx.GenTextures(1)
	ctx.BindTexture(gles.TEXTURE_2D, ids[0])
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(minf))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(magf))
	if minf != gles.NEAREST && minf != gles.LINEAR {
		ctx.TexParameteri(gles.TEXTURE_2D, gles.GENERATE_MIPMAP, 1)
	}
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, size, size, 0, gles.RGBA, gles.UNSIGNED_BYTE, data)
	ctx.Enable(gles.TEXTURE_2D)
}

// featureScenes draws one feature group each on a 64x64 surface; each has
// a golden image and hand-checked pixels.
var featureScenes = []struct {
	name   string
	cfg    gles.Config
	draw   func(ctx *gles.Context)
	pixels map[[2]int]color.NRGBA
}{
	{"texture-modulate", gles.Config{}, func(ctx *gles.Context) {
		bindTexture(ctx, 0, 16, checker(16), gles.NEAREST, gles.NEAREST)
		ctx.Color4f(1, 0.5, 1, 1)
		texQuad(ctx, 0, 0, 1, 1, 0)
	}, map[[2]int]color.NRGBA{
		{2, 2}:   {255, 0, 0, 255},     // red cell, modulated by (1, .5, 1)
		{40, 2}:  {255, 128, 255, 128}, // white cell (cells are 32 pixels): G 255*128 -> 128, alpha 128
		{40, 40}: {255, 0, 0, 255},
	}},
	{"texture-bilinear-mipmap", gles.Config{}, func(ctx *gles.Context) {
		bindTexture(ctx, 0, 64, checker(64), gles.LINEAR_MIPMAP_LINEAR, gles.LINEAR)
		ctx.MatrixMode(gles.PROJECTION)
		ctx.Frustumf(-1, 1, -1, 1, 1, 10)
		ctx.MatrixMode(gles.MODELVIEW)
		ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 4, 0, 4, 8, 0, 8})
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, -1, 1, -1, -1, 1, 1, -9, -1, 1, -9})
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	}, nil},
	{"multitexture-combine", gles.Config{}, func(ctx *gles.Context) {
		bindTexture(ctx, 0, 16, checker(16), gles.NEAREST, gles.NEAREST)
		ramp := make([]uint8, 4*16*16)
		for i := 0; i < 256; i++ {
			v := uint8(i % 16 * 17)
			copy(ramp[4*i:], []uint8{0, v, 255 - v, 255})
		}
		bindTexture(ctx, 1, 16, ramp, gles.NEAREST, gles.NEAREST)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.COMBINE))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(gles.INTERPOLATE))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC0_RGB, int(gles.TEXTURE))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.PREVIOUS))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC2_RGB, int(gles.CONSTANT))
		ctx.TexEnvfv(gles.TEXTURE_ENV, gles.TEXTURE_ENV_COLOR, []float32{0.5, 0.5, 0.5, 0.5})
		ctx.Color4f(1, 1, 1, 1)
		texQuad(ctx, 0, 0, 1, 1, 0, 1)
	}, map[[2]int]color.NRGBA{
		// Stage 1: 0.5*tex1 + 0.5*red at texel (0, 0) = (0, 0, 255):
		// (128*(0-255) - 127)/255 + 255 = 127, B = 128*255/255 = 128.
		{1, 1}: {127, 0, 128, 255},
	}},
	{"blend-alpha", gles.Config{}, func(ctx *gles.Context) {
		ctx.Color4f(0, 0, 1, 1)
		quad(ctx, 0)
		ctx.Enable(gles.BLEND)
		ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
		ctx.Color4f(1, 0, 0, 0.25)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, -1, 1})
		ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	}, map[[2]int]color.NRGBA{
		// alpha q8(.25) = 64: R = (255*64+127)/255 = 64, B = (255*191+127)/255 = 191,
		// A = (64*64+127)/255 + (255*191+127)/255 = 16 + 191.
		{5, 5}:   {64, 0, 191, 207},
		{60, 60}: {0, 0, 255, 255},
	}},
	{"fog-linear", gles.Config{DepthBits: 16}, func(ctx *gles.Context) {
		ctx.Enable(gles.FOG)
		ctx.Fogf(gles.FOG_MODE, float32(gles.LINEAR))
		ctx.Fogf(gles.FOG_START, 1)
		ctx.Fogf(gles.FOG_END, 9)
		ctx.Fogfv(gles.FOG_COLOR, []float32{0.5, 0.5, 0.5, 1})
		ctx.MatrixMode(gles.PROJECTION)
		ctx.Frustumf(-1, 1, -1, 1, 1, 10)
		ctx.MatrixMode(gles.MODELVIEW)
		ctx.Color4f(1, 0, 0, 1)
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, -1, 1, -1, -1, 1, 1, -9, -1, 1, -9})
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	}, nil},
	{"stencil-alpha-test", gles.Config{StencilBits: 8}, func(ctx *gles.Context) {
		ctx.Enable(gles.STENCIL_TEST)
		ctx.StencilFunc(gles.ALWAYS, 1, 0xFF)
		ctx.StencilOp(gles.KEEP, gles.KEEP, gles.REPLACE)
		ctx.ColorMask(false, false, false, false)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-0.5, -0.5, 0.5, -0.5, 0, 0.5})
		ctx.DrawArrays(gles.TRIANGLES, 0, 3)
		ctx.ColorMask(true, true, true, true)
		ctx.StencilFunc(gles.NOTEQUAL, 1, 0xFF)
		ctx.StencilOp(gles.KEEP, gles.KEEP, gles.KEEP)
		ctx.Enable(gles.ALPHA_TEST)
		ctx.AlphaFunc(gles.GREATER, 0.5)
		ctx.EnableClientState(gles.COLOR_ARRAY)
		ctx.ColorPointer(4, gles.FLOAT, 0, []float32{0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0})
		quad(ctx, 0)
	}, map[[2]int]color.NRGBA{
		{32, 30}: {0, 0, 0, 255},   // inside the stencilled triangle
		{60, 32}: {0, 255, 0, 241}, // right: alpha 60.5/64 passes
		{3, 32}:  {0, 0, 0, 255},   // left: alpha 0 fails
	}},
	{"lines-points", gles.Config{}, func(ctx *gles.Context) {
		ctx.Color4f(1, 1, 0, 1)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-0.9, -0.9, 0.9, -0.5, -0.9, 0.9, -0.2, -0.2})
		ctx.DrawArrays(gles.LINE_STRIP, 0, 4)
		ctx.LineWidth(4)
		ctx.Color4f(0, 1, 1, 1)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0.1, 0.9, 0.9, 0.2})
		ctx.DrawArrays(gles.LINES, 0, 2)
		ctx.Color4f(1, 0, 1, 1)
		ctx.PointSize(1)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0.5, 0.5, 0.6, 0.5})
		ctx.DrawArrays(gles.POINTS, 0, 2)
		ctx.PointSize(7)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-0.5, 0.5})
		ctx.DrawArrays(gles.POINTS, 0, 1)
	}, map[[2]int]color.NRGBA{
		{48, 48}: {255, 0, 255, 255}, // the size-1 point at window (48, 48)
		{16, 48}: {255, 0, 255, 255}, // the 7-pixel point's centre
		{19, 51}: {255, 0, 255, 255}, // its corner: 13..19
		{20, 48}: {0, 0, 0, 255},
	}},
	{"point-sprite", gles.Config{}, func(ctx *gles.Context) {
		bindTexture(ctx, 0, 16, checker(16), gles.NEAREST, gles.NEAREST)
		ctx.Enable(gles.POINT_SPRITE_OES)
		ctx.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
		ctx.PointSize(32)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0})
		ctx.DrawArrays(gles.POINTS, 0, 1)
	}, map[[2]int]color.NRGBA{
		{16, 47}: {255, 0, 0, 255}, // top-left of the sprite: s = t = 0
		{40, 40}: {255, 255, 255, 128},
	}},
	{"lighting-clip-plane", gles.Config{DepthBits: 16}, func(ctx *gles.Context) {
		ctx.Enable(gles.LIGHTING)
		ctx.Enable(gles.LIGHT0)
		ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{0, 0, 1, 0})
		ctx.Lightfv(gles.LIGHT0, gles.DIFFUSE, []float32{1, 0.8, 0.2, 1})
		ctx.Enable(gles.CLIP_PLANE0)
		ctx.ClipPlanef(gles.CLIP_PLANE0, []float32{1, 1, 0, 0})
		ctx.EnableClientState(gles.NORMAL_ARRAY)
		ctx.NormalPointer(gles.FLOAT, 0, []float32{0, 0, 1, 0.7, 0, 0.7, 0, 0.7, 0.7, -0.7, 0, 0.7})
		quad(ctx, 0)
	}, nil},
	{"logicop-colormask-scissor", gles.Config{}, func(ctx *gles.Context) {
		ctx.Color4f(0.5, 0.5, 0.5, 1)
		quad(ctx, 0)
		ctx.Enable(gles.COLOR_LOGIC_OP)
		ctx.LogicOp(gles.XOR)
		ctx.ColorMask(true, false, true, true)
		ctx.Enable(gles.SCISSOR_TEST)
		ctx.Scissor(8, 8, 24, 48)
		ctx.Color4f(1, 1, 1, 1)
		quad(ctx, 0)
	}, map[[2]int]color.NRGBA{
		{10, 10}: {127, 128, 127, 0}, // 0x80 ^ 0xFF = 0x7F for R, B; G masked; A 0xFF ^ 0xFF
		{40, 10}: {128, 128, 128, 255},
	}},
	{"polygon-offset", gles.Config{DepthBits: 24}, func(ctx *gles.Context) {
		ctx.Enable(gles.DEPTH_TEST)
		ctx.Color4f(0, 0, 1, 1)
		quad(ctx, 0)
		ctx.Enable(gles.POLYGON_OFFSET_FILL)
		ctx.PolygonOffset(0, -2)
		ctx.Color4f(1, 0, 0, 1)
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, 0, 1, -1, 0, -1, 1, 0})
		ctx.DrawArrays(gles.TRIANGLES, 0, 3)
		ctx.Disable(gles.POLYGON_OFFSET_FILL)
		ctx.Color4f(0, 1, 0, 1)
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{1, 1, 0, -1, 1, 0, 1, -1, 0})
		ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	}, map[[2]int]color.NRGBA{
		{5, 5}:   {255, 0, 0, 255}, // pulled 2 units in front: passes LESS at the same z
		{60, 60}: {0, 0, 255, 255}, // no offset: fails LESS at the same z
	}},
	{"draw-texture", gles.Config{}, func(ctx *gles.Context) {
		bindTexture(ctx, 0, 16, checker(16), gles.NEAREST, gles.NEAREST)
		ctx.TexParameteriv(gles.TEXTURE_2D, gles.TEXTURE_CROP_RECT_OES, []int{0, 0, 16, 16})
		ctx.DrawTexiOES(8, 8, 0, 32, 32)
	}, map[[2]int]color.NRGBA{
		{9, 9}:   {255, 0, 0, 255},
		{24, 9}:  {255, 255, 255, 128},
		{50, 50}: {0, 0, 0, 255},
	}},
	{"flat-cull-twoside", gles.Config{}, func(ctx *gles.Context) {
		ctx.ShadeModel(gles.FLAT)
		ctx.Enable(gles.CULL_FACE)
		ctx.EnableClientState(gles.COLOR_ARRAY)
		ctx.ColorPointer(4, gles.FLOAT, 0, []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1})
		// A front (CCW) and a back (CW) triangle: the back one is culled.
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 0, -1, -1, 0, 0.1, 0.1, 0.1, 1, 1, 0.1})
		ctx.DrawArrays(gles.TRIANGLES, 0, 6)
	}, map[[2]int]color.NRGBA{
		{5, 5}:   {0, 0, 255, 255}, // flat: the last vertex's colour
		{60, 50}: {0, 0, 0, 255},   // culled
	}},
}

// TestFeatureScenes renders each feature group, compares the image and the
// decoded command stream with their goldens, and checks the hand-computed
// pixels.
func TestFeatureScenes(t *testing.T) {
	for _, sc := range featureScenes {
		var capture bytes.Buffer
		cfg := sc.cfg
		cfg.Capture = &capture
		ctx := newCtx(t, cfg)
		sc.draw(ctx)
		ctx.Finish()
		require.NoError(t, ctx.Err(), sc.name)
		goldenImage(t, sc.name+".png", ctx.Image())
		for xy, want := range sc.pixels {
			assert.Equal(t, want, at(ctx, xy[0], xy[1]), "%s: pixel %v", sc.name, xy)
		}
		require.NoError(t, ctx.Close())
		text := decodeCapture(t, capture.Bytes())
		assert.NotContains(t, text, "??", sc.name)
		golden(t, sc.name+".golden", text)
	}
}
