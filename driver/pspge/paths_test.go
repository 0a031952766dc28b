package pspge_test

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
)

// litQuad draws a quad facing +z lit by a directional light from +z with
// diffuse (0.5, 0.5, 0.5) on a white material (ambient 0).
func litQuad(ctx *gles.Context, extraLights int) {
	ctx.Enable(gles.LIGHTING)
	ctx.LightModelfv(gles.LIGHT_MODEL_AMBIENT, []float32{0, 0, 0, 1})
	ctx.Materialfv(gles.FRONT_AND_BACK, gles.AMBIENT, []float32{0, 0, 0, 1})
	ctx.Materialfv(gles.FRONT_AND_BACK, gles.DIFFUSE, []float32{1, 1, 1, 1})
	ctx.Enable(gles.LIGHT0)
	ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{0, 0, 1, 0})
	ctx.Lightfv(gles.LIGHT0, gles.DIFFUSE, []float32{0.5, 0.5, 0.5, 1})
	ctx.Lightfv(gles.LIGHT0, gles.SPECULAR, []float32{0, 0, 0, 1})
	for i := 1; i <= extraLights; i++ {
		l := gles.LIGHT0 + gles.Enum(i)
		ctx.Enable(l)
		ctx.Lightfv(l, gles.DIFFUSE, []float32{0, 0, 0, 1})
		ctx.Lightfv(l, gles.SPECULAR, []float32{0, 0, 0, 1})
	}
	ctx.Normal3f(0, 0, 1)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
}

// TestLightingPaths lights the same quad on the GE (one light) and in
// software T&L (five lights, four black): both give GL's 0.5 diffuse.
func TestLightingPaths(t *testing.T) {
	hw := newCtx(t, driver.FormatRGBA8888)
	litQuad(hw, 0)
	require.NoError(t, hw.Err())
	sw := newCtx(t, driver.FormatRGBA8888)
	litQuad(sw, 4)
	require.NoError(t, sw.Err())
	// GE: diffuse 128 x material 255 as ((2*128+1)*(2*255+1))>>10 = 128,
	// times N.L = 1.
	assert.Equal(t, color.NRGBA{128, 128, 128, 255}, at(hw, 30, 30))
	assert.Equal(t, color.NRGBA{128, 128, 128, 255}, at(sw, 30, 30))
	assert.Equal(t, 1, stats(hw).HWDraws)
	assert.Equal(t, 1, stats(sw).SWDraws)
}

// TestFogLinear fogs a quad at eye depth 5 between start 0 and end 10:
// f = 0.5, half fog colour.
func TestFogLinear(t *testing.T) {
	for _, sw := range []bool{false, true} {
		ctx := newCtx(t, driver.FormatRGBA8888)
		ctx.MatrixMode(gles.PROJECTION)
		ctx.Frustumf(-1, 1, -1, 1, 1, 100)
		ctx.MatrixMode(gles.MODELVIEW)
		ctx.Enable(gles.FOG)
		ctx.Fogf(gles.FOG_MODE, float32(gles.LINEAR))
		ctx.Fogf(gles.FOG_START, 0)
		ctx.Fogf(gles.FOG_END, 10)
		ctx.Fogfv(gles.FOG_COLOR, []float32{1, 1, 1, 1})
		ctx.Color4f(0, 0, 0, 1)
		if sw {
			ctx.Enable(gles.CLIP_PLANE0)
			ctx.ClipPlanef(gles.CLIP_PLANE0, []float32{0, 0, -1, 100})
		}
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-5, -5, -5, 5, -5, -5, 5, 5, -5, -5, 5, -5})
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
		require.NoError(t, ctx.Err())
		// f = 0.5 -> 127 (truncated 127.5); fog blend (0*127 + 255*128 + 255)/256 = 128.
		p := at(ctx, 32, 32)
		assert.InDelta(t, 128, int(p.R), 1, "sw=%v %v", sw, p)
		if sw {
			assert.Equal(t, 1, stats(ctx).SWDraws)
		} else {
			assert.Equal(t, 1, stats(ctx).HWDraws)
		}
	}
}

// TestFogExpPass checks EXP fog through the fallback: f = exp(-d*z) at eye
// depth 5 with density 0.1386 is 0.5, applied in a register (the primary
// colour loaded, the fog colour lerped by 1-f) before the composite; with
// blending the composite blends the fogged colour.
func TestFogExpPass(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.MatrixMode(gles.PROJECTION)
	ctx.Frustumf(-1, 1, -1, 1, 1, 100)
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.Enable(gles.FOG)
	ctx.Fogf(gles.FOG_MODE, float32(gles.EXP))
	ctx.Fogf(gles.FOG_DENSITY, 0.13863)
	ctx.Fogfv(gles.FOG_COLOR, []float32{1, 1, 1, 1})
	ctx.Color4f(0, 0, 0, 1)
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-5, -5, -5, 5, -5, -5, 5, 5, -5, -5, 5, -5})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	assert.InDelta(t, 128, int(at(ctx, 32, 32).R), 1)
	assert.Equal(t, 3, stats(ctx).Passes)
	assert.Equal(t, 1, stats(ctx).Fallbacks)
	// Blended ONE, ONE over itself (LEQUAL lets the same depth pass): 2 x 128.
	ctx.DepthFunc(gles.LEQUAL)
	ctx.Enable(gles.BLEND)
	ctx.BlendFunc(gles.ONE, gles.ONE)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	assert.InDelta(t, 255, int(at(ctx, 32, 32).R), 1)
	assert.Equal(t, 2, stats(ctx).Fallbacks)
}

// TestPointsAndLines draws native points and lines (size/width 1), a line
// loop, a wide line and a point sprite.
func TestPointsAndLines(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.Color4f(1, 0, 0, 1)
	// Pixel centres of a 64x64 viewport: x = -1 + (2x+1)/64.
	px := func(i int) float32 { return -1 + float32(2*i+1)/64 }
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{px(5), px(5)})
	ctx.DrawArrays(gles.POINTS, 0, 1)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{255, 0, 0, 255}, at(ctx, 5, 5))
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 6, 5))

	ctx.Color4f(0, 1, 0, 1)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{px(10), px(20), px(30), px(20), px(30), px(40)})
	ctx.DrawArrays(gles.LINE_LOOP, 0, 3)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 20, 20), "first segment")
	assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 30, 30), "second segment")
	assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 20, 30), "closing segment")

	ctx.Color4f(0, 0, 1, 1)
	ctx.LineWidth(5)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{px(40), px(50), px(60), px(50)})
	ctx.DrawArrays(gles.LINES, 0, 2)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{0, 0, 255, 255}, at(ctx, 45, 52), "wide line covers y±2")
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 45, 54))

	ctx.PointSize(8)
	ctx.Color4f(1, 1, 0, 1)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0})
	ctx.DrawArrays(gles.POINTS, 0, 1)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{255, 255, 0, 255}, at(ctx, 28, 28))
	assert.Equal(t, color.NRGBA{255, 255, 0, 255}, at(ctx, 35, 35))
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 36, 36))
}

// TestPointSpriteAndDrawTexture checks COORD_REPLACE texture coordinates
// (t = 0 at the top) and OES_draw_texture's crop rectangle.
func TestPointSpriteAndDrawTexture(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	texture2x2(ctx, gles.RGBA, gles.RGBA, gles.UNSIGNED_BYTE,
		[]uint8{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255})
	ctx.Enable(gles.POINT_SPRITE_OES)
	ctx.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
	ctx.PointSize(16)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0})
	ctx.DrawArrays(gles.POINTS, 0, 1)
	require.NoError(t, ctx.Err())
	// Window rows 24..39: the top half (t < 0.5) reads texture row 0.
	assert.Equal(t, color.NRGBA{255, 0, 0, 255}, at(ctx, 26, 37), "top left: texel (0,0)")
	assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 37, 37), "top right: texel (1,0)")
	assert.Equal(t, color.NRGBA{0, 0, 255, 255}, at(ctx, 26, 26), "bottom left: texel (0,1)")

	ctx.Disable(gles.POINT_SPRITE_OES)
	ctx.TexParameteriv(gles.TEXTURE_2D, gles.TEXTURE_CROP_RECT_OES, []int{1, 0, 1, 2})
	ctx.DrawTexiOES(0, 0, 0, 8, 8)
	require.NoError(t, ctx.Err())
	// Crop column 1: bottom half green (row 0), top half white (row 1).
	assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 3, 1))
	assert.Equal(t, color.NRGBA{255, 255, 255, 255}, at(ctx, 3, 6))
}

// TestMultitextureModulate modulates unit 0 (white/grey) by unit 1 (red)
// through the fallback: unit 0 loaded into a register, multiplied by the
// unit-1 texel (DST_COLOR x texel), composited.
func TestMultitextureModulate(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.ActiveTexture(gles.TEXTURE0)
	texture2x2(ctx, gles.RGB, gles.RGB, gles.UNSIGNED_BYTE, []uint8{255, 255, 255, 128, 128, 128, 255, 255, 255, 255, 255, 255})
	ctx.ActiveTexture(gles.TEXTURE1)
	texture2x2(ctx, gles.RGB, gles.RGB, gles.UNSIGNED_BYTE, []uint8{255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0})
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	ctx.ClientActiveTexture(gles.TEXTURE1)
	ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 1, 1, 0, 1})
	ctx.ClientActiveTexture(gles.TEXTURE0)
	quad(ctx, 0)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{255, 0, 0, 255}, at(ctx, 10, 10))
	// 128 x 255: ((2*255+1)(2*128+1))>>10 = 128.
	assert.Equal(t, color.NRGBA{128, 0, 0, 255}, at(ctx, 50, 10))
	assert.Equal(t, 3, stats(ctx).Passes)
}

// TestPolygonOffset pulls a coplanar second quad in front with units only
// (a ZPOS bias on the hardware path) and with a factor (software path).
func TestPolygonOffset(t *testing.T) {
	for _, factor := range []float32{0, 1} {
		ctx := newCtx(t, driver.FormatRGBA8888)
		ctx.Enable(gles.DEPTH_TEST)
		ctx.Color4f(1, 0, 0, 1)
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, 0, 1, -1, 0.5, 1, 1, 0.5, -1, 1, 0})
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
		ctx.Enable(gles.POLYGON_OFFSET_FILL)
		ctx.PolygonOffset(-factor, -4)
		ctx.Color4f(0, 1, 0, 1)
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
		require.NoError(t, ctx.Err())
		assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 40, 20), "factor %v", factor)
	}
}

// TestBoundingBoxRegion draws inside BBOX regions: a box off screen skips
// its draw on the GE, a box on screen keeps it.
func TestBoundingBoxRegion(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.Color4f(1, 1, 1, 1)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.BeginBoundingBoxPSP(5, 5, 0, 6, 6, 0)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	ctx.EndBoundingBoxPSP()
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 20, 20), "off-screen box: skipped")
	ctx.Color4f(0, 1, 0, 1)
	ctx.BeginBoundingBoxPSP(-0.5, -0.5, 0, 0.5, 0.5, 0)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	ctx.EndBoundingBoxPSP()
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 20, 20), "visible box: drawn")
	ctx.EndBoundingBoxPSP()
	assert.Error(t, ctx.Err(), "End without Begin")
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError())
	ctx.BeginBoundingBoxPSP(1, 0, 0, 0, 0, 0)
	assert.Equal(t, gles.INVALID_VALUE, ctx.GetError())
}

// TestBezierPatch draws a flat 4x4 Bezier patch covering the viewport.
func TestBezierPatch(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	var pts []float32
	for j := 0; j < 4; j++ {
		for i := 0; i < 4; i++ {
			pts = append(pts, -1+2*float32(i)/3, -1+2*float32(j)/3, 0)
		}
	}
	ctx.Color4f(1, 0, 1, 1)
	ctx.VertexPointer(3, gles.FLOAT, 0, pts)
	ctx.DrawBezierPSP(gles.TRIANGLES, 4, 4, 4, 4)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{255, 0, 255, 255}, at(ctx, 5, 5))
	assert.Equal(t, color.NRGBA{255, 0, 255, 255}, at(ctx, 60, 60))
	ctx.DrawBezierPSP(gles.TRIANGLES, 5, 4, 4, 4)
	assert.Equal(t, gles.INVALID_VALUE, ctx.GetError())
	assert.Error(t, ctx.Err())
	ctx.DrawSplinePSP(gles.LINES, 4, 4, 2, 2, gles.SPLINE_OPEN_OPEN_PSP, gles.SPLINE_OPEN_OPEN_PSP)
	require.NoError(t, ctx.Err())
}

// TestRunningListAppends checks that draws between flushes extend one
// running display list (the stall address) instead of submitting new ones,
// and that CopyTexImage2D reads the colour buffer with a block transfer.
func TestRunningListAppends(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	for i := 0; i < 5; i++ {
		ctx.Color4f(float32(i)/5, 0, 0, 1)
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
		ctx.Flush()
	}
	require.NoError(t, ctx.Err())
	s := stats(ctx)
	assert.Equal(t, 1, s.Lists, "one list started at the first flush")
	assert.Equal(t, 4, s.Appends, "extended by each later flush")
	ids := ctx.GenTextures(1)
	ctx.BindTexture(gles.TEXTURE_2D, ids[0])
	ctx.CopyTexImage2D(gles.TEXTURE_2D, 0, gles.RGB, 0, 0, 16, 16, 0)
	require.NoError(t, ctx.Err())
	assert.Equal(t, 1, stats(ctx).Transfers)
}

// TestMaskedClear clears only green and the stencil bits under a write
// mask (a plain sprite with PMSKC/PMSKA, since clear mode ignores masks).
func TestMaskedClear(t *testing.T) {
	ctx, err := gles.NewContext("pspge", gles.Config{Width: 16, Height: 16, StencilBits: 8})
	require.NoError(t, err)
	defer ctx.Close()
	ctx.ClearColor(1, 0, 1, 1)
	ctx.ClearStencil(0xFF)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	ctx.ColorMask(false, true, false, true)
	ctx.StencilMask(0x0F)
	ctx.ClearColor(0, 1, 0, 1)
	ctx.ClearStencil(0x00)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{255, 255, 255, 255}, at(ctx, 4, 4))
	s, err := ctx.Driver().(driver.DepthStencilReader).ReadStencil(4, 4)
	require.NoError(t, err)
	assert.Equal(t, 0xF0, s)
}
