package pspge_test

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
)

// twoUnits binds texture a on unit 0 (MODULATE) and b on unit 1 (mode),
// with unit 1's coordinates equal to unit 0's.
func twoUnits(ctx *gles.Context, a, b rgba, mode gles.Enum) {
	ctx.ActiveTexture(gles.TEXTURE0)
	uniformTexture(ctx, a)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	ctx.ActiveTexture(gles.TEXTURE1)
	uniformTexture(ctx, b)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(mode))
	ctx.ActiveTexture(gles.TEXTURE0)
}

// TestFallbackTiles covers a 480x272 surface with one quad through the
// fallback: the registers are smaller than the surface, so the batch is
// drawn tile by tile, and every tile must give GL's colour.
func TestFallbackTiles(t *testing.T) {
	ctx, err := gles.NewContext("pspge", gles.Config{DepthBits: 16})
	require.NoError(t, err)
	t.Cleanup(func() { ctx.Close() })
	twoUnits(ctx, rgba{1, 0.5, 0.25, 1}, rgba{0.5, 0.5, 1, 1}, gles.MODULATE)
	ctx.Color4f(1, 1, 1, 1)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	img := ctx.Image()
	want := rgba{0.5, 0.25, 0.25, 1}
	for _, p := range [][2]int{{0, 0}, {255, 0}, {256, 0}, {479, 0}, {0, 271}, {300, 255}, {300, 256}, {479, 271}} {
		r, g, b, _ := img.At(p[0], p[1]).RGBA()
		near(t, want, color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}, 1, "pixel")
	}
	s := stats(ctx)
	assert.Equal(t, 1, s.Multipass.Batches)
	assert.Greater(t, s.Multipass.Tiles, 1)
}

// TestFallbackOverlapInOneDraw draws two overlapping quads in one draw
// with the depth test: the nearer first, then the farther. GL keeps the
// nearer one; the fallback draws them in separate batches (a register
// holds one colour per pixel).
func TestFallbackOverlapInOneDraw(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.Enable(gles.DEPTH_TEST)
	twoUnits(ctx, rgba{1, 1, 1, 1}, rgba{1, 1, 1, 1}, gles.MODULATE)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{
		-1, -1, -0.5, 0.5, -1, -0.5, 0.5, 0.5, -0.5, -1, -1, -0.5, 0.5, 0.5, -0.5, -1, 0.5, -0.5,
		-0.5, -0.5, 0.5, 1, -0.5, 0.5, 1, 1, 0.5, -0.5, -0.5, 0.5, 1, 1, 0.5, -0.5, 1, 0.5})
	red, green := []float32{1, 0, 0, 1}, []float32{0, 1, 0, 1}
	var cols []float32
	for i := 0; i < 6; i++ {
		cols = append(cols, red...)
	}
	for i := 0; i < 6; i++ {
		cols = append(cols, green...)
	}
	ctx.ColorPointer(4, gles.FLOAT, 0, cols)
	ctx.DrawArrays(gles.TRIANGLES, 0, 12)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{255, 0, 0, 255}, at(ctx, 32, 32), "overlap: the nearer, red")
	assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 56, 56), "green alone")
	assert.Equal(t, color.NRGBA{255, 0, 0, 255}, at(ctx, 8, 8), "red alone")
	assert.Equal(t, 2, stats(ctx).Multipass.Batches)
}

// TestFallbackStencilAndDepth: the composite applies the application's
// stencil test, operations and depth writes once: a two-unit quad draws
// only where the stencil is 1 and increments it there.
func TestFallbackStencilAndDepth(t *testing.T) {
	ctx, err := gles.NewContext("pspge", gles.Config{Width: 64, Height: 64, DepthBits: 16, StencilBits: 8})
	require.NoError(t, err)
	t.Cleanup(func() { ctx.Close() })
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	// Stencil 1 in the left half.
	ctx.Enable(gles.STENCIL_TEST)
	ctx.StencilFunc(gles.ALWAYS, 1, 0xFF)
	ctx.StencilOp(gles.KEEP, gles.KEEP, gles.REPLACE)
	ctx.ColorMask(false, false, false, false)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 0, -1, 0, 1, -1, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	ctx.ColorMask(true, true, true, true)
	ctx.StencilFunc(gles.EQUAL, 1, 0xFF)
	ctx.StencilOp(gles.KEEP, gles.KEEP, gles.INCR)
	ctx.Enable(gles.DEPTH_TEST)
	twoUnits(ctx, rgba{1, 1, 0, 1}, rgba{1, 0.5, 1, 1}, gles.MODULATE)
	ctx.Color4f(1, 1, 1, 1)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{255, 128, 0, 255}, at(ctx, 10, 30))
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 50, 30))
	rd := ctx.Driver().(driver.DepthStencilReader)
	s, err := rd.ReadStencil(10, 30)
	require.NoError(t, err)
	assert.Equal(t, 2, s, "incremented once")
	s, err = rd.ReadStencil(50, 30)
	require.NoError(t, err)
	assert.Equal(t, 0, s)
	d, err := rd.ReadDepth(10, 30)
	require.NoError(t, err)
	assert.InDelta(t, 0.5, d, 1.0/65535, "depth written once")
}

// TestFallbackPointsAndLines: points (sprites with COORD_REPLACE on one
// unit only) and wide lines through the fallback with EXP fog.
func TestFallbackPointsAndLines(t *testing.T) {
	t.Run("sprite", func(t *testing.T) {
		ctx := newCtx(t, driver.FormatRGBA8888)
		ctx.ActiveTexture(gles.TEXTURE0)
		// Left texels red, right green; replaced coordinates run 0..1
		// across the sprite.
		texture2x2(ctx, gles.RGBA, gles.RGBA, gles.UNSIGNED_BYTE, []uint8{255, 0, 0, 255, 0, 255, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255})
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
		ctx.Enable(gles.POINT_SPRITE_OES)
		ctx.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
		ctx.ActiveTexture(gles.TEXTURE1)
		// Unit 1 keeps the vertex's coordinates: texel (1, 0), half grey.
		texture2x2(ctx, gles.RGBA, gles.RGBA, gles.UNSIGNED_BYTE, []uint8{255, 255, 255, 255, 128, 128, 128, 255, 255, 255, 255, 255, 255, 255, 255, 255})
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
		ctx.MultiTexCoord4f(gles.TEXTURE1, 0.75, 0.25, 0, 1)
		ctx.PointSize(16)
		ctx.Color4f(1, 1, 1, 1)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0})
		ctx.DrawArrays(gles.POINTS, 0, 1)
		require.NoError(t, ctx.Err())
		assert.Equal(t, color.NRGBA{128, 0, 0, 255}, at(ctx, 27, 32))
		assert.Equal(t, color.NRGBA{0, 128, 0, 255}, at(ctx, 37, 32))
		assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 45, 32), "outside the 16-pixel sprite")
	})
	t.Run("wide line with EXP2 fog", func(t *testing.T) {
		ctx := newCtx(t, 0)
		fogScene(ctx, gles.EXP2)
		// exp(-(d*5)^2) = 0.5 for d = sqrt(ln 2)/5.
		ctx.Fogf(gles.FOG_DENSITY, 0.16651)
		ctx.LineWidth(3)
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-4, 0, -5, 4, 0, -5})
		ctx.DrawArrays(gles.LINES, 0, 2)
		require.NoError(t, ctx.Err())
		assert.InDelta(t, 128, int(at(ctx, 32, 32).R), 2)
		assert.InDelta(t, 128, int(at(ctx, 32, 31).R), 2, "3 pixels wide")
		assert.Equal(t, uint8(0), at(ctx, 32, 28).R)
	})
}

// TestFallbackDrawTexture draws OES_draw_texture with two units (once
// refused): each unit's crop rectangle gives its coordinates.
func TestFallbackDrawTexture(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	twoUnits(ctx, rgba{1, 0.5, 1, 1}, rgba{0.5, 1, 1, 1}, gles.MODULATE)
	for _, u := range []gles.Enum{gles.TEXTURE0, gles.TEXTURE1} {
		ctx.ActiveTexture(u)
		ctx.TexParameteriv(gles.TEXTURE_2D, gles.TEXTURE_CROP_RECT_OES, []int{0, 0, 2, 2})
	}
	ctx.Color4f(1, 1, 1, 1)
	ctx.DrawTexiOES(16, 16, 0, 32, 32)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{128, 128, 255, 255}, at(ctx, 30, 30))
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 10, 10))
}

// TestFallbackDot3 draws GL_COMBINE DOT3_RGB, which no GE pass computes:
// the software stage shades, the GE composites.
// 4*((1-.5)(.75-.5) + (.5-.5)(.5-.5) + (0-.5)(.25-.5)) = 1.
func TestFallbackDot3(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	uniformTexture(ctx, rgba{1, 0.5, 0, 1})
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.COMBINE))
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(gles.DOT3_RGB))
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC0_RGB, int(gles.TEXTURE))
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.PRIMARY_COLOR))
	ctx.Color4f(0.75, 0.5, 0.25, 1)
	quad(ctx, 0)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{255, 255, 255, 255}, at(ctx, 30, 30))
	// A weaker primary: 4*((.5)(.625-.5) + 0 + (-.5)(.5-.5)) = 0.25.
	ctx.Color4f(0.625, 0.5, 0.5, 1)
	quad(ctx, 0)
	require.NoError(t, ctx.Err())
	near(t, rgba{0.25, 0.25, 0.25}, at(ctx, 30, 30), 1, "dot3 0.25")
	assert.Equal(t, 2, stats(ctx).SoftwareDraws)
}

// TestFallback565Dither: the composite applies the dither of a 16-bit
// surface once, like a single pass does: a two-unit quad and a one-unit
// quad of the same colour give the same pixels.
func TestFallback565Dither(t *testing.T) {
	draw := func(two bool) []color.NRGBA {
		ctx := newCtx(t, driver.FormatRGB565)
		if two {
			twoUnits(ctx, rgba{0.6, 0.3, 0.8, 1}, rgba{1, 1, 1, 1}, gles.MODULATE)
		} else {
			uniformTexture(ctx, rgba{0.6, 0.3, 0.8, 1})
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
		}
		ctx.Color4f(1, 1, 1, 1)
		quad(ctx, 0)
		require.NoError(t, ctx.Err())
		var out []color.NRGBA
		for y := 10; y < 14; y++ {
			for x := 10; x < 14; x++ {
				out = append(out, at(ctx, x, y))
			}
		}
		return out
	}
	assert.Equal(t, draw(false), draw(true))
}
