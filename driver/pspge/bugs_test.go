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

// Tests of rendering bugs of issue 17, each against the value GL ES 1.1
// gives.

// TestNoDestinationAlpha: the GE's alpha bits are the stencil, so a pspge
// surface has no alpha bitplanes and GL takes the destination alpha to be
// 1 (section 4.1.6): DST_ALPHA is 1, ONE_MINUS_DST_ALPHA 0 and
// SRC_ALPHA_SATURATE min(As, 1-Ad) = 0, whatever the stencil holds.
func TestNoDestinationAlpha(t *testing.T) {
	for _, tc := range []struct {
		name     string
		src, dst gles.Enum
		want     color.NRGBA
	}{
		{"DST_ALPHA, ZERO: the source", gles.DST_ALPHA, gles.ZERO, color.NRGBA{204, 102, 51, 255}},
		{"ONE_MINUS_DST_ALPHA, ONE: the destination", gles.ONE_MINUS_DST_ALPHA, gles.ONE, color.NRGBA{0, 0, 128, 255}},
		{"ZERO, DST_ALPHA: the destination", gles.ZERO, gles.DST_ALPHA, color.NRGBA{0, 0, 128, 255}},
		{"SRC_ALPHA_SATURATE, ONE: the destination", gles.SRC_ALPHA_SATURATE, gles.ONE, color.NRGBA{0, 0, 128, 255}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, err := gles.NewContext("pspge", gles.Config{Width: 64, Height: 64, StencilBits: 8})
			require.NoError(t, err)
			t.Cleanup(func() { ctx.Close() })
			assert.Equal(t, []int{0}, ctx.GetIntegerv(gles.ALPHA_BITS))
			ctx.ClearColor(0, 0, 0.5, 1)
			ctx.ClearStencil(0x40)
			ctx.Clear(gles.COLOR_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
			ctx.Enable(gles.BLEND)
			ctx.BlendFunc(tc.src, tc.dst)
			ctx.Color4f(0.8, 0.4, 0.2, 0.5)
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
			ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
			require.NoError(t, ctx.Err())
			assert.Equal(t, tc.want, at(ctx, 30, 30))
			s, err := ctx.Driver().(interface{ ReadStencil(x, y int) (int, error) }).ReadStencil(30, 30)
			require.NoError(t, err)
			assert.Equal(t, 0x40, s, "the stencil is untouched")
		})
	}
}

// TestBlendOffUnderLogicOp: with COLOR_LOGIC_OP enabled GL does no
// blending (section 4.1.8); COPY writes the source.
func TestBlendOffUnderLogicOp(t *testing.T) {
	ctx := newCtx(t, 0)
	ctx.ClearColor(0.4, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.Enable(gles.BLEND)
	ctx.BlendFunc(gles.ONE, gles.ONE)
	ctx.Enable(gles.COLOR_LOGIC_OP)
	ctx.LogicOp(gles.COPY)
	ctx.Color4f(0, 0.5, 0, 1)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{0, 128, 0, 255}, at(ctx, 30, 30))
}

// fogScene sets LINEAR fog from 0 to 10 in white, a perspective projection
// and a black current colour; geometry at eye depth 5 is half fogged.
func fogScene(ctx *gles.Context, mode gles.Enum) {
	ctx.MatrixMode(gles.PROJECTION)
	ctx.Frustumf(-1, 1, -1, 1, 1, 100)
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.Enable(gles.FOG)
	ctx.Fogf(gles.FOG_MODE, float32(mode))
	ctx.Fogf(gles.FOG_START, 0)
	ctx.Fogf(gles.FOG_END, 10)
	ctx.Fogf(gles.FOG_DENSITY, 0.13863) // EXP: exp(-0.13863*5) = 0.5
	ctx.Fogfv(gles.FOG_COLOR, []float32{1, 1, 1, 1})
	ctx.Color4f(0, 0, 0, 1)
}

// TestFogOnWidePointsAndLines: fog applies to every primitive (section
// 3.8); wide lines and points are drawn by the software path, and at eye
// depth 5 with LINEAR fog 0..10 are half fog colour.
func TestFogOnWidePointsAndLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		draw func(ctx *gles.Context)
	}{
		{"line width 4", func(ctx *gles.Context) {
			ctx.LineWidth(4)
			ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-4, 0, -5, 4, 0, -5})
			ctx.DrawArrays(gles.LINES, 0, 2)
		}},
		{"point size 6", func(ctx *gles.Context) {
			ctx.PointSize(6)
			ctx.VertexPointer(3, gles.FLOAT, 0, []float32{0, 0, -5})
			ctx.DrawArrays(gles.POINTS, 0, 1)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newCtx(t, 0)
			fogScene(ctx, gles.LINEAR)
			tc.draw(ctx)
			require.NoError(t, ctx.Err())
			p := at(ctx, 32, 32)
			assert.InDelta(t, 128, int(p.R), 2, "%v", p)
		})
	}
}

// TestExpFogEqualDepthAndAlphaTest: EXP fog applies once, to the fragments
// that pass: a fogged quad at the depth of an earlier fogged one fails LESS
// and leaves the earlier pixel fogged once (the old second pass, drawn
// with depth EQUAL, fogged it again), and an opaque fogged quad passes an
// alpha test of GREATER 0.5 (the old fog pass, alpha 1-f, was discarded by
// it).
func TestExpFogEqualDepthAndAlphaTest(t *testing.T) {
	quadAt := func(ctx *gles.Context) {
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-5, -5, -5, 5, -5, -5, 5, 5, -5, -5, 5, -5})
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	}
	ctx := newCtx(t, 0)
	fogScene(ctx, gles.EXP)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.Color4f(1, 0, 0, 1)
	quadAt(ctx)
	ctx.Color4f(0, 1, 0, 1)
	quadAt(ctx)
	require.NoError(t, ctx.Err())
	// Red fogged once by half white: (1, 0.5, 0.5).
	p := at(ctx, 32, 32)
	assert.Equal(t, uint8(255), p.R)
	assert.InDelta(t, 128, int(p.G), 1, "equal depth fails LESS: fogged once %v", p)

	ctx = newCtx(t, 0)
	fogScene(ctx, gles.EXP)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.Enable(gles.ALPHA_TEST)
	ctx.AlphaFunc(gles.GREATER, 0.5)
	quadAt(ctx)
	require.NoError(t, ctx.Err())
	assert.InDelta(t, 128, int(at(ctx, 32, 32).R), 1, "half fogged, alpha 1 passes")
}

// TestFlatShadingKeepsFogFactor: flat shading flattens colours only (GL ES
// 1.1 section 2.14.7); the fog factor still varies with depth. A flat
// black triangle strip recedes from eye depth 2 to 8 with EXP and EXP2
// fog: at window x the strip's eye distance is d = 16/(5 - 3u), u =
// (x + 1/2)/32 - 1. GL lets f be computed per vertex and interpolated like
// other data (section 3.8), perspective-correctly: f(2) + (d-2)/6 (f(8) -
// f(2)) along the strip.
func TestFlatShadingKeepsFogFactor(t *testing.T) {
	for _, mode := range []gles.Enum{gles.EXP, gles.EXP2} {
		ctx := newCtx(t, 0)
		fogScene(ctx, mode)
		ctx.Fogf(gles.FOG_DENSITY, 0.15)
		ctx.Enable(gles.DEPTH_TEST)
		ctx.ShadeModel(gles.FLAT)
		// x from -2 at z = -2 to 8 at z = -8: a plane seen from the side.
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-2, -2, -2, -2, 2, -2, 8, -8, -8, 8, 8, -8})
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		require.NoError(t, ctx.Err())
		f := func(z float64) float64 {
			if mode == gles.EXP {
				return math.Exp(-0.15 * z)
			}
			return math.Exp(-0.15 * 0.15 * z * z)
		}
		for _, x := range []int{1, 20, 40, 62} {
			u := (float64(x)+0.5)/32 - 1
			d := 16 / (5 - 3*u)
			fi := f(2) + (d-2)/6*(f(8)-f(2))
			p := at(ctx, x, 32)
			assert.InDelta(t, 255*(1-fi), float64(p.R), 3, "%v x %d (eye distance %.2f): %v", mode, x, d, p)
		}
	}
}

// TestPositionWPerspective: positions with w != 1 are divided after
// interpolation (GL ES 1.1 section 3.5), so texture coordinates stay
// perspective-correct: a quad whose right edge has w = 3 under an identity
// projection shows texel s = (t/3)/((1-t) + t/3) at fraction t of its
// width.
func TestPositionWPerspective(t *testing.T) {
	ctx := newCtx(t, 0)
	ctx.Enable(gles.TEXTURE_2D)
	ids := ctx.GenTextures(1)
	ctx.BindTexture(gles.TEXTURE_2D, ids[0])
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
	// Eight texels across: texel i has red 32*i.
	row := make([]uint8, 0, 8*4)
	for i := 0; i < 8; i++ {
		row = append(row, uint8(32*i), 0, 0, 255)
	}
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 8, 1, 0, gles.RGBA, gles.UNSIGNED_BYTE, row)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	ctx.VertexPointer(4, gles.FLOAT, 0, []float32{-1, -1, 0, 1, 3, -3, 0, 3, 3, 3, 0, 3, -1, 1, 0, 1})
	ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 1, 1, 0, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	for _, x := range []int{8, 24, 40, 56} {
		tt := (float64(x) + 0.5) / 64
		s := (tt / 3) / ((1 - tt) + tt/3)
		want := 32 * int(s*8)
		assert.Equal(t, want, int(at(ctx, x, 32).R), "x %d: s %.3f", x, s)
	}
}

// TestWideLineColumnsAndPerspective: an aliased wide line covers the
// columns of the 1-wide line (ES 1.1 section 3.4.2), which by the
// diamond-exit rule (3.4.1) are those whose centres lie in (xa - 1/2,
// xb - 1/2] going right, and (xb + 1/2, xa + 1/2] going left; its colour
// is interpolated perspective-correctly: f = ((1-t) fa/wa + t fb/wb) /
// ((1-t)/wa + t/wb) at the fragment centre's parameter t.
func TestWideLineColumnsAndPerspective(t *testing.T) {
	for _, tc := range []struct {
		name       string
		xa, xb     float32
		first, end int // covered columns first..end-1
	}{
		{"rightward", 10.6, 50.8, 10, 50},
		{"leftward", 50.8, 10.6, 11, 51},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newCtx(t, 0)
			ctx.LineWidth(3)
			ctx.EnableClientState(gles.COLOR_ARRAY)
			// Identity projection; clip (x, y) = window/32 - 1 times w,
			// with w = 1 at a and w = 4 at b.
			wa, wb := float32(1), float32(4)
			ndc := func(x float32) float32 { return x/32 - 1 }
			y := ndc(32.5)
			ctx.VertexPointer(4, gles.FLOAT, 0, []float32{ndc(tc.xa) * wa, y * wa, 0, wa, ndc(tc.xb) * wb, y * wb, 0, wb})
			ctx.ColorPointer(4, gles.FLOAT, 0, []float32{1, 0, 0, 1, 0, 0, 1, 1})
			ctx.DrawArrays(gles.LINES, 0, 2)
			require.NoError(t, ctx.Err())
			for x := 0; x < 64; x++ {
				p := at(ctx, x, 32)
				in := x >= tc.first && x < tc.end
				if !in {
					assert.Equal(t, color.NRGBA{0, 0, 0, 255}, p, "column %d is outside the line", x)
					continue
				}
				tt := (float64(x) + 0.5 - float64(tc.xa)) / float64(tc.xb-tc.xa)
				tt = math.Max(0, math.Min(1, tt))
				r := (1 - tt) / float64(wa) / ((1-tt)/float64(wa) + tt/float64(wb))
				assert.InDelta(t, 255*r, float64(p.R), 6, "column %d (t %.3f)", x, tt)
				assert.InDelta(t, 255*(1-r), float64(p.B), 6, "column %d (t %.3f)", x, tt)
				for _, yy := range []int{31, 33} {
					assert.Equal(t, p, at(ctx, x, yy), "column %d is three pixels tall", x)
				}
			}
			assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 30, 30))
			assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 30, 34))
		})
	}
}

// TestMirroredRepeatKeepsBaseFormat: a MIRRORED_REPEAT texture keeps its
// base format's environment rules (ES 1.1 table 3.15). Over black, under
// BlendFunc(SRC_ALPHA, ONE_MINUS_SRC_ALPHA), with the current colour
// (0.8, 0.4, 0.2, 0.5): an ALPHA texture (At = 128/255) under MODULATE
// gives Cf with alpha At·Af, so Cf·At·Af = (51.2, 25.6, 12.8); an RGB
// texture (100, 150, 200) and a LUMINANCE one (200) under REPLACE keep the
// fragment's alpha 0.5: (50, 75, 100) and (100, 100, 100). (The doubled
// copy used to widen every texture to RGBA: black for ALPHA, opaque for
// RGB and LUMINANCE.)
func TestMirroredRepeatKeepsBaseFormat(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format gles.Enum
		texel  []uint8
		env    gles.Enum
		want   [3]float64
	}{
		{"ALPHA, MODULATE", gles.ALPHA, []uint8{128}, gles.MODULATE, [3]float64{51.2, 25.6, 12.8}},
		{"RGB, REPLACE", gles.RGB, []uint8{100, 150, 200}, gles.REPLACE, [3]float64{50, 75, 100}},
		{"LUMINANCE, REPLACE", gles.LUMINANCE, []uint8{200}, gles.REPLACE, [3]float64{100, 100, 100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newCtx(t, 0)
			ids := ctx.GenTextures(1)
			ctx.BindTexture(gles.TEXTURE_2D, ids[0])
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_S, int(gles.MIRRORED_REPEAT))
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_T, int(gles.MIRRORED_REPEAT))
			ctx.PixelStorei(gles.UNPACK_ALIGNMENT, 1)
			var pix []uint8
			for i := 0; i < 4; i++ {
				pix = append(pix, tc.texel...)
			}
			ctx.TexImage2D(gles.TEXTURE_2D, 0, tc.format, 2, 2, 0, tc.format, gles.UNSIGNED_BYTE, pix)
			ctx.Enable(gles.TEXTURE_2D)
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(tc.env))
			ctx.Enable(gles.BLEND)
			ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
			ctx.Color4f(0.8, 0.4, 0.2, 0.5)
			quad(ctx, 0)
			require.NoError(t, ctx.Err())
			got := at(ctx, 30, 30)
			for i, v := range []uint8{got.R, got.G, got.B} {
				assert.InDelta(t, tc.want[i], float64(v), 1.5, "channel %d of %v", i, got)
			}
		})
	}
}

// TestColorPerspectiveCorrect: GL interpolates colours perspective-
// correctly (ES 1.1 section 3.5.1, equation 3.6: weights a_i/w_i over their
// sum). A triangle with window corners (0, 0) red, (64, 0) green and (0, 64)
// blue whose green corner has clip w 4 (the others 1) is checked at pixel
// centres against that formula; the GE's screen-linear colours would be
// up to 85 steps off, so the driver shades it on the CPU.
func TestColorPerspectiveCorrect(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.VertexPointer(4, gles.FLOAT, 0, []float32{-1, -1, 0, 1, 4, -4, 0, 4, -1, 1, 0, 1})
	ctx.ColorPointer(4, gles.FLOAT, 0, []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1})
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	require.NoError(t, ctx.Err())
	w := [3]float64{1, 4, 1}
	for _, p := range [][2]int{{32, 8}, {16, 16}, {44, 4}, {8, 40}, {24, 24}} {
		x, y := float64(p[0])+0.5, float64(p[1])+0.5
		a := [3]float64{1 - x/64 - y/64, x / 64, y / 64}
		sum := a[0]/w[0] + a[1]/w[1] + a[2]/w[2]
		got := at(ctx, p[0], p[1])
		for i, v := range []uint8{got.R, got.G, got.B} {
			want := 255 * a[i] / w[i] / sum
			assert.InDelta(t, want, float64(v), 1.5, "pixel %v channel %d: %v", p, i, got)
		}
	}
	assert.Equal(t, 1, stats(ctx).SoftwareDraws)
}

// TestLightingUnderLogicOp: a lit colour under a logic op is GL's colour
// rounded once (ES 1.1 section 2.12.1; conversion to fixed point rounds to
// nearest). Light 0's diffuse (0.21484375, 0.18359375, 0.01171875) on the
// default material (ambient 0.2, diffuse 0.8) under the default scene
// ambient 0.2, normal and light both +z: 0.04 + 0.8·d = (0.211875,
// 0.186875, 0.049375), that is (54.03, 47.65, 12.59) -> (54, 48, 13),
// XORed into a clear colour of 0x55. (The GE's truncating lighting gave
// 47 for green, and 47 XOR 0x55 is 0x7A where GL gives 0x65.)
func TestLightingUnderLogicOp(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.ClearColor(float32(0x55)/255, float32(0x55)/255, float32(0x55)/255, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.Enable(gles.LIGHTING)
	ctx.Enable(gles.LIGHT0)
	ctx.Lightfv(gles.LIGHT0, gles.DIFFUSE, []float32{0.21484375, 0.18359375, 0.01171875, 1})
	ctx.Enable(gles.COLOR_LOGIC_OP)
	ctx.LogicOp(gles.XOR)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{54 ^ 0x55, 48 ^ 0x55, 13 ^ 0x55, 255}, at(ctx, 30, 30))
}

// TestFogUnderLogicOp: EXP fog under a logic op is GL's fogged colour
// rounded once (ES 1.1 section 3.8: C = f·Cr + (1-f)·Cf). At eye distance 5
// with density 0.1, f = exp(-0.5) = 0.60653; the colour (0.9, 0.1, 0.33)
// and the fog colour (0.69140625, 0.1328125, 0.15625) give (0.81792,
// 0.11291, 0.26164), that is (208.57, 28.79, 66.72) -> (209, 29, 67),
// XORed into a clear colour of 0x55. (The register program, rounding after
// each pass, gave 208 and 66.)
func TestFogUnderLogicOp(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.ClearColor(float32(0x55)/255, float32(0x55)/255, float32(0x55)/255, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.MatrixMode(gles.PROJECTION)
	ctx.Orthof(-1, 1, -1, 1, 0, 10)
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.Enable(gles.FOG)
	ctx.Fogf(gles.FOG_MODE, float32(gles.EXP))
	ctx.Fogf(gles.FOG_DENSITY, 0.1)
	ctx.Fogfv(gles.FOG_COLOR, []float32{0.69140625, 0.1328125, 0.15625, 1})
	ctx.Enable(gles.COLOR_LOGIC_OP)
	ctx.LogicOp(gles.XOR)
	ctx.Color4f(0.9, 0.1, 0.33, 1)
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, -5, 1, -1, -5, 1, 1, -5, -1, 1, -5})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{209 ^ 0x55, 29 ^ 0x55, 67 ^ 0x55, 255}, at(ctx, 30, 30))
}

// TestAttenuationAboveOne: GL's distance attenuation 1/(k0 + k1·d +
// k2·d²) is not clamped (ES 1.1 section 2.12.1); the GE clamps it to 1. A
// quad at z = 0 under a light at (0, 0, 2) with constant attenuation 0.5
// and diffuse 0.25: every corner is at distance sqrt(6) with N.L =
// 2/sqrt(6) = 0.8165, so the default material (ambient 0.2, diffuse 0.8)
// gives 0.04 + 2·0.25·0.8·0.8165 = 0.3666, 93.5 of 255 (the GE's clamped
// factor gave 0.2033, 52).
func TestAttenuationAboveOne(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.MatrixMode(gles.PROJECTION)
	ctx.Orthof(-1, 1, -1, 1, -10, 10)
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.Enable(gles.LIGHTING)
	ctx.Enable(gles.LIGHT0)
	ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{0, 0, 2, 1})
	ctx.Lightfv(gles.LIGHT0, gles.DIFFUSE, []float32{0.25, 0.25, 0.25, 1})
	ctx.Lightf(gles.LIGHT0, gles.CONSTANT_ATTENUATION, 0.5)
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	got := at(ctx, 32, 32)
	for i, v := range []uint8{got.R, got.G, got.B} {
		assert.InDelta(t, 93.5, float64(v), 1.5, "channel %d of %v", i, got)
	}
}

// TestDot3RGBAAlphaScale: DOT3_RGBA puts the dot product in alpha too, and
// the alpha result is multiplied by ALPHA_SCALE, the RGB results by
// RGB_SCALE (ES 1.1 section 3.7.12). Primary colour 0.6 and texel 0.8 give
// 4·3·(0.1·0.3) = 0.36: with RGB_SCALE 2 the colour is 0.72 (183.6) and
// the alpha 0.36, so GREATER 0.5 rejects the fragment and GREATER 0.3
// keeps it. (Scaled by RGB_SCALE the alpha was 0.72.)
func TestDot3RGBAAlphaScale(t *testing.T) {
	for _, tc := range []struct {
		ref  float32
		want color.NRGBA
	}{
		{0.5, color.NRGBA{0, 0, 255, 255}},
		{0.3, color.NRGBA{184, 184, 184, 255}},
	} {
		ctx := newCtx(t, driver.FormatRGBA8888)
		ctx.ClearColor(0, 0, 1, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		texture2x2(ctx, gles.RGBA, gles.RGBA, gles.UNSIGNED_BYTE, []uint8{
			204, 204, 204, 255, 204, 204, 204, 255, 204, 204, 204, 255, 204, 204, 204, 255})
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.COMBINE))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(gles.DOT3_RGBA))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC0_RGB, int(gles.PRIMARY_COLOR))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.TEXTURE))
		ctx.TexEnvf(gles.TEXTURE_ENV, gles.RGB_SCALE, 2)
		ctx.Enable(gles.ALPHA_TEST)
		ctx.AlphaFunc(gles.GREATER, tc.ref)
		ctx.Color4f(0.6, 0.6, 0.6, 1)
		quad(ctx, 0)
		require.NoError(t, ctx.Err())
		got := at(ctx, 30, 30)
		assert.InDelta(t, float64(tc.want.R), float64(got.R), 1.5, "GREATER %v: %v", tc.ref, got)
		assert.InDelta(t, float64(tc.want.B), float64(got.B), 1.5, "GREATER %v: %v", tc.ref, got)
	}
}
