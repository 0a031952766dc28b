package pspge_test

import (
	"image/color"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
)

// rgba is a colour in [0, 1].
type rgba [4]float64

func (c rgba) f32() []float32 {
	return []float32{float32(c[0]), float32(c[1]), float32(c[2]), float32(c[3])}
}

func (c rgba) bytes() []uint8 {
	return []uint8{b8(c[0]), b8(c[1]), b8(c[2]), b8(c[3])}
}

func b8(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255)) }

// q rounds a colour to what 8-bit storage holds.
func (c rgba) q() rgba {
	var o rgba
	for k := range c {
		o[k] = float64(b8(c[k])) / 255
	}
	return o
}

func clamp1(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// uniformTexture binds a 2x2 RGBA texture of one colour on the active
// unit.
func uniformTexture(ctx *gles.Context, c rgba) {
	px := c.bytes()
	texture2x2(ctx, gles.RGBA, gles.RGBA, gles.UNSIGNED_BYTE, append(append(append(append([]uint8{}, px...), px...), px...), px...))
}

// near asserts a pixel is within d of want in every channel (alpha
// ignored: the GE keeps none).
func near(t *testing.T, want rgba, got color.NRGBA, d int, msg string) {
	t.Helper()
	w := want.bytes()
	g := []uint8{got.R, got.G, got.B}
	for k := 0; k < 3; k++ {
		assert.InDelta(t, int(w[k]), int(g[k]), float64(d), "%s: channel %d, want %v got %v", msg, k, w[:3], g)
	}
}

var (
	texC  = rgba{0.8, 0.4, 0.2, 0.6}
	primC = rgba{0.5, 0.9, 0.3, 0.7}
	envK  = rgba{0.25, 0.5, 0.75, 0.4}
)

// TestCombineFallback draws a quad whose one texture unit has a GL_COMBINE
// environment no TFUNC expresses, on the multi-pass fallback, and checks
// the colour against table 3.16 of the GL ES 1.1 specification computed
// here: args per source and operand, the function, the scale, the clamp.
func TestCombineFallback(t *testing.T) {
	T, P, K := texC.q(), primC.q(), envK.q()
	type arg struct {
		src, op gles.Enum
	}
	val := func(a arg, k int) float64 {
		var c rgba
		switch a.src {
		case gles.TEXTURE:
			c = T
		case gles.CONSTANT:
			c = K
		default:
			c = P
		}
		switch a.op {
		case gles.ONE_MINUS_SRC_COLOR:
			return 1 - c[k]
		case gles.SRC_ALPHA:
			return c[3]
		case gles.ONE_MINUS_SRC_ALPHA:
			return 1 - c[3]
		}
		return c[k]
	}
	fn := func(f gles.Enum, a [3]arg, k int) float64 {
		a0, a1, a2 := val(a[0], k), val(a[1], k), val(a[2], k)
		switch f {
		case gles.REPLACE:
			return a0
		case gles.MODULATE:
			return a0 * a1
		case gles.ADD:
			return a0 + a1
		case gles.ADD_SIGNED:
			return a0 + a1 - 0.5
		case gles.INTERPOLATE:
			return a0*a2 + a1*(1-a2)
		case gles.SUBTRACT:
			return a0 - a1
		}
		panic("function")
	}
	tex, prim, konst := gles.TEXTURE, gles.PRIMARY_COLOR, gles.CONSTANT
	col, inv, alpha, invA := gles.SRC_COLOR, gles.ONE_MINUS_SRC_COLOR, gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA
	for _, tc := range []struct {
		name  string
		f     gles.Enum
		args  [3]arg
		scale float32
		tol   int
	}{
		{"interpolate texture, constant by primary alpha", gles.INTERPOLATE, [3]arg{{tex, col}, {konst, col}, {prim, alpha}}, 1, 3},
		{"interpolate by the texture's colour", gles.INTERPOLATE, [3]arg{{prim, col}, {konst, col}, {tex, col}}, 1, 3},
		{"subtract", gles.SUBTRACT, [3]arg{{tex, col}, {prim, inv}, {konst, alpha}}, 1, 2},
		{"add signed", gles.ADD_SIGNED, [3]arg{{tex, col}, {prim, col}, {konst, alpha}}, 1, 3},
		{"add signed x2", gles.ADD_SIGNED, [3]arg{{tex, inv}, {prim, col}, {konst, alpha}}, 2, 5},
		{"modulate constant by inverted alpha, x4", gles.MODULATE, [3]arg{{konst, col}, {tex, invA}, {konst, alpha}}, 4, 8},
		{"replace the constant's alpha", gles.REPLACE, [3]arg{{konst, alpha}, {tex, col}, {konst, alpha}}, 1, 1},
		{"add inverted primary", gles.ADD, [3]arg{{prim, inv}, {tex, alpha}, {konst, alpha}}, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newCtx(t, driver.FormatRGBA8888)
			uniformTexture(ctx, texC)
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.COMBINE))
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(tc.f))
			srcs := []gles.Enum{gles.SRC0_RGB, gles.SRC1_RGB, gles.SRC2_RGB}
			ops := []gles.Enum{gles.OPERAND0_RGB, gles.OPERAND1_RGB, gles.OPERAND2_RGB}
			for i, a := range tc.args {
				ctx.TexEnvi(gles.TEXTURE_ENV, srcs[i], int(a.src))
				ctx.TexEnvi(gles.TEXTURE_ENV, ops[i], int(a.op))
			}
			ctx.TexEnvf(gles.TEXTURE_ENV, gles.RGB_SCALE, tc.scale)
			ctx.TexEnvfv(gles.TEXTURE_ENV, gles.TEXTURE_ENV_COLOR, envK.f32())
			ctx.Color4f(float32(primC[0]), float32(primC[1]), float32(primC[2]), float32(primC[3]))
			quad(ctx, 0)
			require.NoError(t, ctx.Err())
			var want rgba
			for k := 0; k < 3; k++ {
				want[k] = clamp1(fn(tc.f, tc.args, k) * float64(tc.scale))
			}
			near(t, want, at(ctx, 30, 30), tc.tol, tc.name)
			assert.Equal(t, 1, stats(ctx).Fallbacks)
		})
	}
}

// TestTwoUnitsWithBlending draws two texture units under blending (once
// refused): GL computes unit 0 MODULATE, unit 1 ADD, then blends the
// result over the background by its alpha, Cs*As + Cd*(1-As).
func TestTwoUnitsWithBlending(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.ClearColor(0.2, 0.2, 0.6, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.ActiveTexture(gles.TEXTURE0)
	uniformTexture(ctx, texC)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	ctx.ActiveTexture(gles.TEXTURE1)
	u1 := rgba{0.1, 0.05, 0.3, 0.5}
	uniformTexture(ctx, u1)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.ADD))
	ctx.ClientActiveTexture(gles.TEXTURE1)
	ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 1, 1, 0, 1})
	ctx.ClientActiveTexture(gles.TEXTURE0)
	ctx.Enable(gles.BLEND)
	ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
	ctx.Color4f(float32(primC[0]), float32(primC[1]), float32(primC[2]), float32(primC[3]))
	quad(ctx, 0)
	require.NoError(t, ctx.Err())
	T0, T1, P := texC.q(), u1.q(), primC.q()
	// Unit 0: C = P*T0, A = Pa*T0a; unit 1 (ADD on RGBA): C += T1, A *= T1a.
	var c rgba
	for k := 0; k < 3; k++ {
		c[k] = clamp1(P[k]*T0[k] + T1[k])
	}
	a := P[3] * T0[3] * T1[3]
	bg := rgba{0.2, 0.2, 0.6}
	var want rgba
	for k := 0; k < 3; k++ {
		want[k] = c[k]*a + bg[k]*(1-a)
	}
	near(t, want, at(ctx, 30, 30), 3, "blended two units")
	s := stats(ctx)
	assert.Equal(t, 1, s.Fallbacks)
	// Colour load and ADD, alpha load and multiply, the alpha merge (a
	// clear and eight bit planes), the composite.
	assert.Equal(t, 4+9+1, s.Multipass.Passes)
}

// TestAlphaTextureUnderAlphaTest checks an alpha texture on unit 1 under
// the alpha test (once refused): GL discards the fragments whose alpha
// Af*At fails, here the half of the quad where the texture's alpha is
// below the reference.
func TestAlphaTextureUnderAlphaTest(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.ActiveTexture(gles.TEXTURE0)
	uniformTexture(ctx, rgba{1, 1, 1, 1})
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	ctx.ActiveTexture(gles.TEXTURE1)
	// Left texels alpha 0.2, right 0.9.
	texture2x2(ctx, gles.ALPHA, gles.ALPHA, gles.UNSIGNED_BYTE, []uint8{51, 230, 51, 230})
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	ctx.ClientActiveTexture(gles.TEXTURE1)
	ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 1, 1, 0, 1})
	ctx.ClientActiveTexture(gles.TEXTURE0)
	ctx.Enable(gles.ALPHA_TEST)
	ctx.AlphaFunc(gles.GREATER, 0.5)
	ctx.Color4f(0, 1, 0, 1)
	quad(ctx, 0)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 10, 30), "alpha 0.2 fails")
	assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 50, 30), "alpha 0.9 passes")
}

// TestBlendModeUnit1NoDepthWrites checks unit 1 in BLEND mode without
// depth writes (both once refused): C = Cp(1-Ct) + Cc*Ct.
func TestBlendModeUnit1NoDepthWrites(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.DepthMask(false)
	ctx.ActiveTexture(gles.TEXTURE0)
	uniformTexture(ctx, texC)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
	ctx.ActiveTexture(gles.TEXTURE1)
	u1 := rgba{0.25, 0.5, 1, 1}
	uniformTexture(ctx, u1)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.BLEND))
	ctx.TexEnvfv(gles.TEXTURE_ENV, gles.TEXTURE_ENV_COLOR, envK.f32())
	ctx.ClientActiveTexture(gles.TEXTURE1)
	ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 1, 1, 0, 1})
	ctx.ClientActiveTexture(gles.TEXTURE0)
	quad(ctx, 0)
	require.NoError(t, ctx.Err())
	T0, T1, K := texC.q(), u1.q(), envK.q()
	var want rgba
	for k := 0; k < 3; k++ {
		want[k] = T0[k]*(1-T1[k]) + K[k]*T1[k]
	}
	near(t, want, at(ctx, 30, 30), 3, "BLEND on unit 1")
}
