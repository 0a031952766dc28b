package unichrome_test

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
)

// dot3 sets unit 0's environment to GL_COMBINE fn of the texture and the
// primary colour.
func dot3(ctx *gles.Context, fn gles.Enum) {
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.COMBINE))
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(fn))
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC0_RGB, int(gles.TEXTURE))
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.PRIMARY_COLOR))
}

// TestDot3 draws GL_COMBINE DOT3_RGB and DOT3_RGBA (once refused): the
// engine's stages have no dot product, so the shared fallback's software
// stage computes GL's 4*((T.r-.5)(P.r-.5) + (T.g-.5)(P.g-.5) +
// (T.b-.5)(P.b-.5)) and the engine composites it with the application's
// blending. Texel (1, .5, 0), primary (.75, .5, .25): 4*(.125 + 0 + .125)
// = 1; primary (.625, .5, .5): 0.25.
func TestDot3(t *testing.T) {
	white := make([]uint8, 4*4*4)
	for i := range white {
		white[i] = []uint8{255, 128, 0, 255}[i%4]
	}
	for _, tc := range []struct {
		name  string
		fn    gles.Enum
		prim  [4]float32
		blend bool
		want  color.NRGBA
	}{
		{"DOT3_RGB", gles.DOT3_RGB, [4]float32{0.75, 0.5, 0.25, 1}, false, color.NRGBA{255, 255, 255, 255}},
		{"DOT3_RGB weaker", gles.DOT3_RGB, [4]float32{0.625, 0.5, 0.5, 1}, false, color.NRGBA{64, 64, 64, 255}},
		// DOT3_RGBA puts 0.25 in alpha too: blended SRC_ALPHA,
		// ONE_MINUS_SRC_ALPHA over black, 0.25*0.25 = 0.0625.
		{"DOT3_RGBA blended by its alpha", gles.DOT3_RGBA, [4]float32{0.625, 0.5, 0.5, 1}, true, color.NRGBA{16, 16, 16, 255}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newCtx(t, gles.Config{})
			bindTexture(ctx, 0, 4, white, gles.NEAREST, gles.NEAREST)
			dot3(ctx, tc.fn)
			if tc.blend {
				ctx.Enable(gles.BLEND)
				ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
			}
			ctx.Color4f(tc.prim[0], tc.prim[1], tc.prim[2], tc.prim[3])
			texQuad(ctx, 0, 0, 1, 1, 0)
			require.NoError(t, ctx.Err())
			got := at(ctx, 30, 30)
			assert.InDelta(t, int(tc.want.R), int(got.R), 1, "%v", got)
			assert.InDelta(t, int(tc.want.G), int(got.G), 1, "%v", got)
			assert.InDelta(t, int(tc.want.B), int(got.B), 1, "%v", got)
		})
	}
}

// TestDot3DrawTextureAndPoints covers the fallback's other geometry: an
// OES_draw_texture rectangle and a point sprite with DOT3 on unit 0.
func TestDot3DrawTextureAndPoints(t *testing.T) {
	tex := make([]uint8, 4*4*4)
	for i := range tex {
		tex[i] = []uint8{255, 128, 0, 255}[i%4]
	}
	ctx := newCtx(t, gles.Config{})
	bindTexture(ctx, 0, 4, tex, gles.NEAREST, gles.NEAREST)
	dot3(ctx, gles.DOT3_RGB)
	ctx.TexParameteriv(gles.TEXTURE_2D, gles.TEXTURE_CROP_RECT_OES, []int{0, 0, 4, 4})
	ctx.Color4f(0.75, 0.5, 0.25, 1)
	ctx.DrawTexiOES(8, 8, 0, 16, 16)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{255, 255, 255, 255}, at(ctx, 12, 12))
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 30, 12))
	ctx.Enable(gles.POINT_SPRITE_OES)
	ctx.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
	ctx.PointSize(8)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0.5, 0.5})
	ctx.DrawArrays(gles.POINTS, 0, 1)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{255, 255, 255, 255}, at(ctx, 48, 48))
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 48, 56), "outside the 8-pixel sprite")
}
