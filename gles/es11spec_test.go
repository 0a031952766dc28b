package gles_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
)

// These tests pin rendering rules of the GL ES 1.1 specification on every
// backend (issue 17's wrong renderings, found by the differential tester
// tools/difftest): each draws through the public API and compares pixels
// with a value computed from the specification. specTol is the colour
// error every chip stays within (a 5-bit RGB565 step is 8.2, and ordered
// dithering adds up to one more step).

const specTol = 12

// onEvery runs f on a fresh context of every chip's backend.
func onEvery(t *testing.T, cfg gles.Config, f func(t *testing.T, ctx *gles.Context)) {
	for _, b := range backends.Names() {
		if strings.HasPrefix(b, "test-") { // the tests' own backends
			continue
		}
		t.Run(b, func(t *testing.T) {
			ctx, err := gles.NewContext(b, cfg)
			require.NoError(t, err)
			defer ctx.Close()
			f(t, ctx)
			require.NoError(t, ctx.Err())
		})
	}
}

// drawn checks that the draws so far raised no error. A backend that
// refuses the state (driver.Unsupported) is not judged: the test skips,
// naming the refusal (issue 17 part A makes every valid state render; the
// skip then turns into a judgement by itself).
func drawn(t *testing.T, ctx *gles.Context) {
	t.Helper()
	err := ctx.Err()
	var u *driver.Unsupported
	if errors.As(err, &u) {
		t.Skipf("not judged: %v", u)
	}
	require.NoError(t, err)
}

// pixel reads the colour at (x, y), y counted from the bottom as GL does.
func pixel(ctx *gles.Context, x, y int) [4]int {
	var p [4]byte
	ctx.ReadPixels(x, y, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, p[:])
	return [4]int{int(p[0]), int(p[1]), int(p[2]), int(p[3])}
}

func assertRGB(t *testing.T, want [3]int, got [4]int, msg string, args ...any) {
	t.Helper()
	for k := 0; k < 3; k++ {
		if math.Abs(float64(got[k]-want[k])) > specTol {
			assert.Fail(t, fmt.Sprintf(msg, args...), "got %v, want %v (±%d)", got[:3], want, specTol)
			return
		}
	}
}

func le16(v ...int16) []byte {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(x))
	}
	return b
}

// fullScreen enables a client vertex array holding a full-viewport
// triangle strip.
func fullScreen(ctx *gles.Context) {
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, -1, 1, 1, 1})
}

// TestNormalArrayConversion: BYTE and SHORT normals are mapped to [-1, 1]
// by (2c+1)/(2^b-1) (GL ES 1.1 section 2.8, table 2.7). A white
// directional light along +z on a white diffuse material gives
// N·L = (2c+1)/(2^b-1); taking c as it is saturates to white.
func TestNormalArrayConversion(t *testing.T) {
	tests := []struct {
		name string
		typ  gles.Enum
		data any
		want int // 255 * N.z
	}{
		{"byte 63", gles.BYTE, []int8{0, 0, 63, 0, 0, 63, 0, 0, 63, 0, 0, 63}, 127},          // (2*63+1)/255 = 0.498
		{"byte 31", gles.BYTE, []int8{0, 0, 31, 0, 0, 31, 0, 0, 31, 0, 0, 31}, 63},           // 63/255
		{"short 8191", gles.SHORT, le16(0, 0, 8191, 0, 0, 8191, 0, 0, 8191, 0, 0, 8191), 64}, // 16383/65535 = 0.25
		{"fixed 0.5", gles.FIXED, []int32{0, 0, 1 << 15, 0, 0, 1 << 15, 0, 0, 1 << 15, 0, 0, 1 << 15}, 128},
	}
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		for _, tc := range tests {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT)
			ctx.Enable(gles.LIGHTING)
			ctx.Enable(gles.LIGHT0)
			ctx.LightModelfv(gles.LIGHT_MODEL_AMBIENT, []float32{0, 0, 0, 1})
			ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{0, 0, 1, 0})
			ctx.Materialfv(gles.FRONT_AND_BACK, gles.AMBIENT_AND_DIFFUSE, []float32{1, 1, 1, 1})
			fullScreen(ctx)
			ctx.EnableClientState(gles.NORMAL_ARRAY)
			ctx.NormalPointer(tc.typ, 0, tc.data)
			ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
			assertRGB(t, [3]int{tc.want, tc.want, tc.want}, pixel(ctx, 8, 8), "%s", tc.name)
		}
	})
}

// quad draws a full-viewport quad at depth z in colour c.
func quad(ctx *gles.Context, z float32, c [4]float32) {
	ctx.DisableClientState(gles.COLOR_ARRAY)
	ctx.Color4f(c[0], c[1], c[2], c[3])
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, z, 1, -1, z, -1, 1, z, 1, 1, z})
	ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
}

// TestDepthTestWithoutDepthBuffer: on a surface without a depth buffer the
// depth test always passes (GL ES 1.1 section 4.1.6: "If there is no depth
// buffer, it is as if the depth test always passes").
// A stencil-only surface has no depth buffer either, even where the chip
// keeps stencil in a combined depth-stencil buffer.
func TestDepthTestWithoutDepthBuffer(t *testing.T) {
	for _, stencil := range []int{0, 8} {
		t.Run(fmt.Sprintf("stencil %d", stencil), func(t *testing.T) {
			depthTestWithoutDepthBuffer(t, stencil)
		})
	}
}

func depthTestWithoutDepthBuffer(t *testing.T, stencil int) {
	onEvery(t, gles.Config{Width: 16, Height: 16, StencilBits: stencil}, func(t *testing.T, ctx *gles.Context) {
		assert.Equal(t, []int{0}, ctx.GetIntegerv(gles.DEPTH_BITS))
		ctx.ClearColor(0, 0, 0, 1)
		ctx.ClearDepthf(0) // no depth buffer: nothing to clear, nothing to test against
		ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
		ctx.Enable(gles.DEPTH_TEST)
		for _, tc := range []struct {
			fn gles.Enum
			z  float32
			c  [4]float32
		}{
			{gles.LESS, 0.5, [4]float32{1, 0, 0, 1}},
			{gles.LESS, 0.9, [4]float32{0, 1, 0, 1}}, // farther: passes all the same
			{gles.NEVER, 0, [4]float32{0, 0, 1, 1}},
			{gles.EQUAL, -0.5, [4]float32{1, 1, 0, 1}},
		} {
			ctx.DepthFunc(tc.fn)
			quad(ctx, tc.z, tc.c)
			want := [3]int{int(255 * tc.c[0]), int(255 * tc.c[1]), int(255 * tc.c[2])}
			assertRGB(t, want, pixel(ctx, 8, 8), "DepthFunc %#x at z %v", tc.fn, tc.z)
		}
		if stencil == 0 {
			return
		}
		// The stencil buffer works all the same: mark the left half, then
		// draw where it is marked.
		ctx.Enable(gles.STENCIL_TEST)
		ctx.StencilFunc(gles.ALWAYS, 1, 0xFF)
		ctx.StencilOp(gles.KEEP, gles.KEEP, gles.REPLACE)
		ctx.ColorMask(false, false, false, false)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 0, -1, -1, 1, 0, 1})
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		ctx.ColorMask(true, true, true, true)
		ctx.StencilFunc(gles.EQUAL, 1, 0xFF)
		quad(ctx, 0, [4]float32{1, 0, 1, 1})
		assertRGB(t, [3]int{255, 0, 255}, pixel(ctx, 4, 8), "stencil 1")
		assertRGB(t, [3]int{255, 255, 0}, pixel(ctx, 12, 8), "stencil 0")
	})
}

// TestClearIgnoresPrimitiveState: Clear writes every pixel of the scissor
// box under the write masks, whatever the per-primitive state (ES 1.1
// section 4.2.3): culling both faces after a draw, or a user clip plane
// that removes every primitive, does not stop it.
func TestClearIgnoresPrimitiveState(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16, DepthBits: 16}, func(t *testing.T, ctx *gles.Context) {
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
		ctx.Enable(gles.CULL_FACE)
		ctx.CullFace(gles.FRONT_AND_BACK)
		quad(ctx, 0, [4]float32{0, 1, 0, 1})
		assertRGB(t, [3]int{0, 0, 0}, pixel(ctx, 8, 8), "both faces culled")
		ctx.ClearColor(1, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
		assertRGB(t, [3]int{255, 0, 0}, pixel(ctx, 8, 8), "cleared")
		ctx.CullFace(gles.FRONT)
		ctx.FrontFace(gles.CW)
		ctx.ClearColor(0, 0, 1, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		assertRGB(t, [3]int{0, 0, 255}, pixel(ctx, 8, 8), "cleared with front faces culled")
		ctx.Disable(gles.CULL_FACE)
		ctx.Enable(gles.CLIP_PLANE0)
		ctx.ClipPlanef(gles.CLIP_PLANE0, []float32{0, 0, 0, -1}) // -1 >= 0 nowhere
		quad(ctx, 0, [4]float32{0, 1, 0, 1})
		assertRGB(t, [3]int{0, 0, 255}, pixel(ctx, 8, 8), "everything clipped")
		ctx.ClearColor(1, 1, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		assertRGB(t, [3]int{255, 255, 0}, pixel(ctx, 8, 8), "cleared under the clip plane")
	})
}

// TestCullingSkipsPointsAndLines: culling discards polygons only (ES 1.1
// section 3.5.1); points and lines are drawn whatever CullFace says.
func TestCullingSkipsPointsAndLines(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		for _, face := range []gles.Enum{gles.FRONT_AND_BACK, gles.FRONT, gles.BACK} {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT)
			ctx.Enable(gles.CULL_FACE)
			ctx.CullFace(face)
			ctx.Color4f(1, 0, 0, 1)
			ctx.PointSize(4)
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-0.5, 0.5})
			ctx.DrawArrays(gles.POINTS, 0, 1)
			ctx.Color4f(0, 1, 0, 1)
			ctx.LineWidth(2)
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -0.5, 1, -0.5, 1, -0.45})
			ctx.DrawArrays(gles.LINE_STRIP, 0, 3)
			assertRGB(t, [3]int{255, 0, 0}, pixel(ctx, 4, 12), "point, CullFace %#x", face)
			assertRGB(t, [3]int{0, 255, 0}, pixel(ctx, 8, 4), "line, CullFace %#x", face)
		}
	})
}

// TestPolygonOffsetSkipsPointsAndLines: POLYGON_OFFSET_FILL offsets
// polygons only (ES 1.1 section 3.5.5): a line and a point at the depth of
// a quad drawn before stay behind it under LESS, however large the offset.
func TestPolygonOffsetSkipsPointsAndLines(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16, DepthBits: 16}, func(t *testing.T, ctx *gles.Context) {
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
		ctx.Enable(gles.DEPTH_TEST)
		quad(ctx, 0.25, [4]float32{0, 0, 1, 1})
		ctx.Enable(gles.POLYGON_OFFSET_FILL)
		ctx.PolygonOffset(-4, -64)
		ctx.Color4f(1, 0, 0, 1)
		ctx.PointSize(4)
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-0.5, 0.5, 0.25})
		ctx.DrawArrays(gles.POINTS, 0, 1)
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -0.5, 0.25, 1, -0.5, 0.25})
		ctx.LineWidth(2)
		ctx.DrawArrays(gles.LINES, 0, 2)
		assertRGB(t, [3]int{0, 0, 255}, pixel(ctx, 4, 12), "point")
		assertRGB(t, [3]int{0, 0, 255}, pixel(ctx, 8, 4), "line")
		// The same offset moves a polygon in front.
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{0, 0, 0.25, 1, 0, 0.25, 0, 1, 0.25, 1, 1, 0.25})
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		assertRGB(t, [3]int{255, 0, 0}, pixel(ctx, 12, 12), "offset quad")
	})
}

// TestFlatShadingKeepsFogSmooth: ShadeModel(FLAT) takes the provoking
// vertex's colour (ES 1.1 section 2.14.7), but fog is computed from each
// fragment's eye distance (section 3.8): a flat-shaded quad whose depth
// runs from 0 to 1 across the screen fogs smoothly. With an identity
// projection the eye distance |z_e| runs linearly from 0 at the left edge
// to 1 at the right; LINEAR fog from 0 to 1 gives f = 1 - c.
func TestFlatShadingKeepsFogSmooth(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16, DepthBits: 16}, func(t *testing.T, ctx *gles.Context) {
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
		ctx.ShadeModel(gles.FLAT)
		ctx.Enable(gles.FOG)
		ctx.Fogf(gles.FOG_MODE, float32(gles.LINEAR))
		ctx.Fogf(gles.FOG_START, 0)
		ctx.Fogf(gles.FOG_END, 1)
		ctx.Fogfv(gles.FOG_COLOR, []float32{0, 0, 1, 1})
		ctx.Color4f(1, 0, 0, 1)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, 0, 1, -1, -1, -1, 1, 0, 1, 1, -1})
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		for _, x := range []int{2, 8, 13} {
			c := (float64(x) + 0.5) / 16
			want := [3]int{int(math.Round(255 * (1 - c))), 0, int(math.Round(255 * c))}
			assertRGB(t, want, pixel(ctx, x, 8), "triangles, x %d", x)
		}
		// A line the same way, over black, through the centres of row 8.
		// (Wide lines are pspge's case, es11-psp's work.)
		ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, 1.0 / 16, 0, 1, 1.0 / 16, -1})
		ctx.DrawArrays(gles.LINES, 0, 2)
		for _, x := range []int{2, 13} {
			c := (float64(x) + 0.5) / 16
			want := [3]int{int(math.Round(255 * (1 - c))), 0, int(math.Round(255 * c))}
			assertRGB(t, want, pixel(ctx, x, 8), "line, x %d", x)
		}
	})
}

// twoSidedSetup lights with one white directional light along +z, a white
// diffuse material and no ambient, two-sided, and sets the current normal
// to +z: front faces (and points and lines) come out white, back faces,
// lit with the negated normal, black.
func twoSidedSetup(ctx *gles.Context) {
	ctx.ClearColor(0.5, 0.5, 0.5, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.Enable(gles.LIGHTING)
	ctx.Enable(gles.LIGHT0)
	ctx.LightModelfv(gles.LIGHT_MODEL_AMBIENT, []float32{0, 0, 0, 1})
	ctx.LightModelf(gles.LIGHT_MODEL_TWO_SIDE, 1)
	ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{0, 0, 1, 0})
	ctx.Materialfv(gles.FRONT_AND_BACK, gles.AMBIENT_AND_DIFFUSE, []float32{1, 1, 1, 1})
	ctx.Normal3f(0, 0, 1)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
}

// TestTwoSidedLightingPointsAndLines: points and lines have no facing;
// two-sided lighting lights them as front faces (ES 1.1 section 2.12.6).
func TestTwoSidedLightingPointsAndLines(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		twoSidedSetup(ctx)
		ctx.PointSize(4)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-0.5, 0.5})
		ctx.DrawArrays(gles.POINTS, 0, 1)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -7.0 / 16, 1, -7.0 / 16})
		ctx.DrawArrays(gles.LINES, 0, 2)
		assertRGB(t, [3]int{255, 255, 255}, pixel(ctx, 4, 12), "point")
		assertRGB(t, [3]int{255, 255, 255}, pixel(ctx, 8, 4), "line")
	})
}

// TestTwoSidedLightingKeepsOrder: with two-sided lighting, the triangles
// of one draw still reach the framebuffer in order (ES 1.1 section 2.0:
// primitives are drawn in the order given): of two triangles covering the
// viewport, one front-facing and one back-facing, the second is seen.
func TestTwoSidedLightingKeepsOrder(t *testing.T) {
	front := []float32{-1, -1, 3, -1, -1, 3} // counter-clockwise
	back := []float32{-1, -1, -1, 3, 3, -1}  // clockwise
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		for _, tc := range []struct {
			name  string
			verts []float32
			want  int
		}{
			{"back then front", append(append([]float32{}, back...), front...), 255},
			{"front then back", append(append([]float32{}, front...), back...), 0},
		} {
			twoSidedSetup(ctx)
			ctx.VertexPointer(2, gles.FLOAT, 0, tc.verts)
			ctx.DrawArrays(gles.TRIANGLES, 0, 6)
			assertRGB(t, [3]int{tc.want, tc.want, tc.want}, pixel(ctx, 7, 7), "%s", tc.name)
		}
	})
}

// TestPointAttenuationWithColorMaterial: the derived point size is
// size * sqrt(1/(a + b*d + c*d^2)) for the eye distance d (ES 1.1 section
// 3.3), whatever the lighting state: with attenuation (0, 0, 1) a size-8
// point at distance 2 is 4 pixels wide.
func TestPointAttenuationWithColorMaterial(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		for _, lit := range []bool{false, true} {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT)
			ctx.MatrixMode(gles.PROJECTION)
			ctx.LoadIdentity()
			ctx.Orthof(-1, 1, -1, 1, -10, 10)
			ctx.MatrixMode(gles.MODELVIEW)
			if lit {
				ctx.Enable(gles.LIGHTING)
				ctx.Enable(gles.COLOR_MATERIAL)
				ctx.LightModelfv(gles.LIGHT_MODEL_AMBIENT, []float32{1, 1, 1, 1})
			}
			ctx.Color4f(1, 1, 1, 1)
			ctx.PointSize(8)
			ctx.PointParameterfv(gles.POINT_DISTANCE_ATTENUATION, []float32{0, 0, 1})
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(3, gles.FLOAT, 0, []float32{1.0 / 16, 1.0 / 16, -2}) // centre of pixel (8, 8)
			ctx.DrawArrays(gles.POINTS, 0, 1)
			assertRGB(t, [3]int{255, 255, 255}, pixel(ctx, 7, 7), "inside, lit %v", lit)
			assertRGB(t, [3]int{0, 0, 0}, pixel(ctx, 5, 8), "outside a 4-pixel point, lit %v", lit)
		}
	})
}

// texQuad draws a full-viewport quad with texture coordinates (0, 0) to
// (s, t) on unit 0.
func texQuad(ctx *gles.Context, s, t float32) {
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, -1, 1, 1, 1})
	ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, s, 0, 0, t, s, t})
	ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
}

// bilinear1D is GL's LINEAR filter (ES 1.1 section 3.7.7) along one axis of
// a texture row: u = s*n, i0 = floor(u-1/2), alpha = frac(u-1/2), with
// REPEAT or CLAMP_TO_EDGE wrapping of the texel indices.
func bilinear1D(row []float64, s float64, repeat bool) float64 {
	n := len(row)
	u := s*float64(n) - 0.5
	i0 := int(math.Floor(u))
	a := u - math.Floor(u)
	at := func(i int) float64 {
		if repeat {
			return row[((i%n)+n)%n]
		}
		return row[min(max(i, 0), n-1)]
	}
	return (1-a)*at(i0) + a*at(i0+1)
}

// TestSmallTextures: textures with a side under 8 texels filter and
// mipmap as GL specifies, whatever tiling the chip needs: LINEAR
// magnification of a 2-texel row (REPEAT and CLAMP_TO_EDGE) matches the
// specification's filter, and each level of a 4x4 mipmapped texture is
// chosen at its level of detail.
func TestSmallTextures(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.Enable(gles.TEXTURE_2D)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
		tex := ctx.GenTextures(2)
		ctx.PixelStorei(gles.UNPACK_ALIGNMENT, 1)
		// A 2x2 texture: black left column, white right column.
		ctx.BindTexture(gles.TEXTURE_2D, tex[0])
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.LUMINANCE, 2, 2, 0, gles.LUMINANCE, gles.UNSIGNED_BYTE, []byte{0, 255, 0, 255})
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
		for _, wrap := range []gles.Enum{gles.REPEAT, gles.CLAMP_TO_EDGE} {
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_S, int(wrap))
			texQuad(ctx, 1, 1)
			for _, x := range []int{0, 3, 5, 8, 11, 15} {
				s := (float64(x) + 0.5) / 16
				v := int(math.Round(255 * bilinear1D([]float64{0, 1}, s, wrap == gles.REPEAT)))
				assertRGB(t, [3]int{v, v, v}, pixel(ctx, x, 8), "LINEAR, wrap %#x, x %d", wrap, x)
			}
		}
		// A 4x4 mipmapped texture: red level 0, green level 1, blue
		// level 2. Coordinates 0..4n over 16 pixels give a level of
		// detail of log2(n) (ES 1.1 section 3.7.7).
		ctx.BindTexture(gles.TEXTURE_2D, tex[1])
		for l, c := range [][3]byte{{255, 0, 0}, {0, 255, 0}, {0, 0, 255}} {
			n := 4 >> l
			data := make([]byte, 0, 3*n*n)
			for i := 0; i < n*n; i++ {
				data = append(data, c[0], c[1], c[2])
			}
			ctx.TexImage2D(gles.TEXTURE_2D, l, gles.RGB, n, n, 0, gles.RGB, gles.UNSIGNED_BYTE, data)
		}
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST_MIPMAP_NEAREST))
		for l, want := range [][3]int{{255, 0, 0}, {0, 255, 0}, {0, 0, 255}} {
			n := float32(int(4) << l)
			texQuad(ctx, n, n)
			assertRGB(t, want, pixel(ctx, 8, 8), "level %d", l)
		}
		// A point sprite over the 2x2 texture, NEAREST: s runs 0..1
		// across the point (ES 1.1 section 3.3), black then white.
		ctx.BindTexture(gles.TEXTURE_2D, tex[0])
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.Enable(gles.POINT_SPRITE_OES)
		ctx.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
		ctx.PointSize(8)
		ctx.DisableClientState(gles.TEXTURE_COORD_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0})
		ctx.DrawArrays(gles.POINTS, 0, 1)
		assertRGB(t, [3]int{0, 0, 0}, pixel(ctx, 5, 8), "sprite, left")
		assertRGB(t, [3]int{255, 255, 255}, pixel(ctx, 10, 8), "sprite, right")
	})
}

// TestCombineDot3Operands: GL_COMBINE's DOT3_RGB computes
// 4*((A0r-1/2)(A1r-1/2) + (A0g-1/2)(A1g-1/2) + (A0b-1/2)(A1b-1/2)) of the
// arguments after their operands (ES 1.1 section 3.7.12, tables 3.17 and
// 3.18): with both arguments at 0.75 after the operand it is 0.75.
func TestCombineDot3Operands(t *testing.T) {
	tests := []struct {
		name               string
		constant, primary  [4]float32
		operand0, operand1 gles.Enum
		combine            gles.Enum
		want               int
	}{
		{"1-src_color", [4]float32{0.25, 0.25, 0.25, 1}, [4]float32{0.75, 0.75, 0.75, 1}, gles.ONE_MINUS_SRC_COLOR, gles.SRC_COLOR, gles.DOT3_RGB, 191},
		{"src_alpha", [4]float32{0.25, 0.25, 0.25, 0.75}, [4]float32{0.75, 0.75, 0.75, 1}, gles.SRC_ALPHA, gles.SRC_COLOR, gles.DOT3_RGB, 191},
		{"1-src_alpha", [4]float32{0.75, 0.75, 0.75, 1}, [4]float32{0.5, 0.5, 0.5, 0.25}, gles.SRC_COLOR, gles.ONE_MINUS_SRC_ALPHA, gles.DOT3_RGBA, 191},
		// DOT3_RGBA puts the dot product in alpha too: blending with
		// SRC_ALPHA, ZERO shows 0.75 * 0.75.
		{"1-src_alpha, alpha", [4]float32{0.75, 0.75, 0.75, 1}, [4]float32{0.5, 0.5, 0.5, 0.25}, gles.SRC_COLOR, gles.ONE_MINUS_SRC_ALPHA, gles.DOT3_RGBA, 143},
	}
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		tex := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, tex[0])
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 1, 1, 0, gles.RGBA, gles.UNSIGNED_BYTE, []byte{255, 255, 255, 255})
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		ctx.Enable(gles.TEXTURE_2D)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.COMBINE))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC0_RGB, int(gles.CONSTANT))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.PRIMARY_COLOR))
		ctx.BlendFunc(gles.SRC_ALPHA, gles.ZERO)
		for _, tc := range tests {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT)
			if strings.HasSuffix(tc.name, "alpha") && tc.want != 191 {
				ctx.Enable(gles.BLEND)
			} else {
				ctx.Disable(gles.BLEND)
			}
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(tc.combine))
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.OPERAND0_RGB, int(tc.operand0))
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.OPERAND1_RGB, int(tc.operand1))
			ctx.TexEnvfv(gles.TEXTURE_ENV, gles.TEXTURE_ENV_COLOR, tc.constant[:])
			ctx.Color4f(tc.primary[0], tc.primary[1], tc.primary[2], tc.primary[3])
			texQuad(ctx, 1, 1)
			drawn(t, ctx)
			assertRGB(t, [3]int{tc.want, tc.want, tc.want}, pixel(ctx, 8, 8), "%s", tc.name)
		}
	})
}

// TestPointSpriteCoordinates: with COORD_REPLACE, a fragment at window x_f
// of a point at x_w of size w gets s = 1/2 + (x_f + 1/2 - x_w)/w (ES 1.1
// section 3.3, OES_point_sprite; t likewise, top to bottom), filtered like
// any texture coordinate. A size-8 sprite over a 2-texel ramp with LINEAR
// filtering and CLAMP_TO_EDGE gives the values below. (Mesa's softpipe
// samples 1/8 pixel to the left and draws each value 8 lower: a Mesa
// deviation, docs/differential.md.)
func TestPointSpriteCoordinates(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.PixelStorei(gles.UNPACK_ALIGNMENT, 1)
		tex := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, tex[0])
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.LUMINANCE, 2, 2, 0, gles.LUMINANCE, gles.UNSIGNED_BYTE, []byte{0, 255, 0, 255})
		for _, p := range []gles.Enum{gles.TEXTURE_MIN_FILTER, gles.TEXTURE_MAG_FILTER} {
			ctx.TexParameteri(gles.TEXTURE_2D, p, int(gles.LINEAR))
		}
		for _, p := range []gles.Enum{gles.TEXTURE_WRAP_S, gles.TEXTURE_WRAP_T} {
			ctx.TexParameteri(gles.TEXTURE_2D, p, int(gles.CLAMP_TO_EDGE))
		}
		ctx.Enable(gles.TEXTURE_2D)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
		ctx.Enable(gles.POINT_SPRITE_OES)
		ctx.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
		ctx.PointSize(8)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0}) // window (8, 8)
		ctx.DrawArrays(gles.POINTS, 0, 1)
		drawn(t, ctx)
		for x := 4; x < 12; x++ {
			s := 0.5 + (float64(x)+0.5-8)/8
			v := int(math.Round(255 * bilinear1D([]float64{0, 1}, s, false)))
			assertRGB(t, [3]int{v, v, v}, pixel(ctx, x, 8), "x %d", x)
		}
	})
}

// TestSpriteCoordinatesOnlyOnPoints: COORD_REPLACE replaces the texture
// coordinates of points only (ES 1.1 section 3.3): a triangle drawn while
// POINT_SPRITE is enabled keeps its own. (Mesa 22.3 replaces them too: a
// Mesa deviation that tools/mesaref works around.)
func TestSpriteCoordinatesOnlyOnPoints(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.PixelStorei(gles.UNPACK_ALIGNMENT, 1)
		tex := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, tex[0])
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.LUMINANCE, 2, 2, 0, gles.LUMINANCE, gles.UNSIGNED_BYTE, []byte{0, 255, 0, 255})
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
		ctx.Enable(gles.TEXTURE_2D)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
		ctx.Enable(gles.POINT_SPRITE_OES)
		ctx.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
		ctx.MultiTexCoord4f(gles.TEXTURE0, 0.75, 0.25, 0, 1) // the white texel
		fullScreen(ctx)
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		drawn(t, ctx)
		for _, x := range []int{1, 8, 14} {
			assertRGB(t, [3]int{255, 255, 255}, pixel(ctx, x, 8), "triangle, x %d", x)
		}
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -7.0 / 16, 1, -7.0 / 16}) // row 4
		ctx.DrawArrays(gles.LINES, 0, 2)
		drawn(t, ctx)
		for _, x := range []int{1, 8, 14} {
			assertRGB(t, [3]int{255, 255, 255}, pixel(ctx, x, 4), "line, x %d", x)
		}
	})
}

// TestProjectiveTextureCoordinates: texture coordinates are divided by q
// (ES 1.1 section 3.7.7: s/q, t/q). With q = 2 at every vertex, s = 1.4
// samples at 0.7 (texel 2 of 4). The division belongs to each fragment, after
// interpolation: a quad whose left edge has (s, q) = (0, 1) and right edge
// (2, 2) samples s' = 2u/(1+u) at u = (x+1/2)/16. Backends that list
// projective coordinates as divided per vertex (an approximation, like the
// interpolation PERSPECTIVE_CORRECTION_HINT allows) give u there instead.
func TestProjectiveTextureCoordinates(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		perVertex := false
		for _, e := range ctx.Caps().Emulated {
			perVertex = perVertex || strings.HasPrefix(e.Feature, "projective texture coordinates") && strings.Contains(e.How, "not per pixel")
		}
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.PixelStorei(gles.UNPACK_ALIGNMENT, 1)
		tex := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, tex[0])
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.LUMINANCE, 4, 1, 0, gles.LUMINANCE, gles.UNSIGNED_BYTE, []byte{0, 85, 170, 255})
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
		ctx.Enable(gles.TEXTURE_2D)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
		fullScreen(ctx)
		ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		ctx.TexCoordPointer(4, gles.FLOAT, 0, []float32{1.4, 0, 0, 2, 1.4, 0, 0, 2, 1.4, 1, 0, 2, 1.4, 1, 0, 2})
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		drawn(t, ctx)
		assertRGB(t, [3]int{170, 170, 170}, pixel(ctx, 8, 8), "s/q = 0.7, texel 2")

		// A two-texel ramp, LINEAR and clamped, across the quad.
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.LUMINANCE, 2, 2, 0, gles.LUMINANCE, gles.UNSIGNED_BYTE, []byte{0, 255, 0, 255})
		for _, p := range []gles.Enum{gles.TEXTURE_MIN_FILTER, gles.TEXTURE_MAG_FILTER} {
			ctx.TexParameteri(gles.TEXTURE_2D, p, int(gles.LINEAR))
		}
		for _, p := range []gles.Enum{gles.TEXTURE_WRAP_S, gles.TEXTURE_WRAP_T} {
			ctx.TexParameteri(gles.TEXTURE_2D, p, int(gles.CLAMP_TO_EDGE))
		}
		ctx.TexCoordPointer(4, gles.FLOAT, 0, []float32{0, 0, 0, 1, 2, 0, 0, 2, 0, 1, 0, 1, 2, 2, 0, 2})
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		drawn(t, ctx)
		for _, x := range []int{2, 8, 13} {
			u := (float64(x) + 0.5) / 16
			s := 2 * u / (1 + u)
			if perVertex {
				s = u
			}
			v := int(math.Round(255 * bilinear1D([]float64{0, 1}, s, false)))
			assertRGB(t, [3]int{v, v, v}, pixel(ctx, x, 8), "x %d (per vertex: %v)", x, perVertex)
		}
	})
}

// TestLightAttenuationWithColorMaterial: a positional light is attenuated
// by 1/(k0 + k1 d + k2 d^2) (ES 1.1 section 2.12.1) whatever the material
// source: a white light at the eye, LINEAR_ATTENUATION 1, lights a quad
// whose corners lie at distance sqrt(3) with N.L = 1/sqrt(3), so each
// corner, and the quad, gets 1/3 of the current (COLOR_MATERIAL) colour.
func TestLightAttenuationWithColorMaterial(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		for _, colorMaterial := range []bool{false, true} {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT)
			ctx.MatrixMode(gles.PROJECTION)
			ctx.LoadIdentity()
			ctx.Orthof(-1, 1, -1, 1, 0, 2)
			ctx.MatrixMode(gles.MODELVIEW)
			ctx.Enable(gles.LIGHTING)
			ctx.Enable(gles.LIGHT0)
			ctx.LightModelfv(gles.LIGHT_MODEL_AMBIENT, []float32{0, 0, 0, 1})
			ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{0, 0, 0, 1})
			ctx.Lightf(gles.LIGHT0, gles.CONSTANT_ATTENUATION, 0)
			ctx.Lightf(gles.LIGHT0, gles.LINEAR_ATTENUATION, 1)
			ctx.Materialfv(gles.FRONT_AND_BACK, gles.AMBIENT_AND_DIFFUSE, []float32{1, 1, 1, 1})
			if colorMaterial {
				ctx.Enable(gles.COLOR_MATERIAL)
			} else {
				ctx.Disable(gles.COLOR_MATERIAL)
			}
			ctx.Color4f(1, 1, 1, 1)
			ctx.Normal3f(0, 0, 1)
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1})
			ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
			drawn(t, ctx)
			assertRGB(t, [3]int{85, 85, 85}, pixel(ctx, 8, 8), "COLOR_MATERIAL %v", colorMaterial)
		}
	})
}

// TestPointClippedByCentre: a user clip plane keeps or drops a point whole
// by its vertex (ES 1.1 section 2.11: a point is clipped by its centre,
// then rasterised as a square). Plane x >= 0 on a 16x16 surface: a size-6
// point centred at window x 9 covers pixels 6-11, left of the plane too;
// one centred at window x 7 is dropped, also its pixels right of the plane.
// The view volume clips points by their centre too.
func TestPointClippedByCentre(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		ctx.ClipPlanef(gles.CLIP_PLANE0, []float32{1, 0, 0, 0})
		ctx.Enable(gles.CLIP_PLANE0)
		ctx.PointSize(6)
		ctx.Color4f(1, 1, 1, 1)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		for _, tc := range []struct {
			x      float32
			pixels map[int]int // pixel x (row 8) -> grey
		}{
			{0.125, map[int]int{5: 0, 6: 255, 7: 255, 9: 255, 11: 255, 12: 0}},
			{-0.125, map[int]int{4: 0, 6: 0, 8: 0, 9: 0, 10: 0}},
		} {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT)
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{tc.x, 0})
			ctx.DrawArrays(gles.POINTS, 0, 1)
			drawn(t, ctx)
			for x, v := range tc.pixels {
				assertRGB(t, [3]int{v, v, v}, pixel(ctx, x, 8), "centre %v, pixel x %d", tc.x, x)
			}
		}
		// Without the plane, a point centred left of the view volume
		// (window x -0.4) is dropped, also the pixels it would cover.
		ctx.Disable(gles.CLIP_PLANE0)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1.05, 0})
		ctx.DrawArrays(gles.POINTS, 0, 1)
		drawn(t, ctx)
		for _, x := range []int{0, 1, 2} {
			assertRGB(t, [3]int{0, 0, 0}, pixel(ctx, x, 8), "centre outside the volume, pixel x %d", x)
		}
	})
}

// TestAliasedPointSquare pins the square an aliased point covers (ES 1.1
// section 3.3): the derived size is size * sqrt(1/(a + b*d + c*d^2)) for
// d the eye-coordinate distance from the eye to the vertex (not |z_eye|),
// rounded to the nearest integer w; the square of side w is centred at
// (floor(x_w) + 1/2, floor(y_w) + 1/2) for odd w, (floor(x_w + 1/2),
// floor(y_w + 1/2)) for even w, and covers the pixels whose centres lie
// inside. Mesa departs from all three (docs/differential.md, tools/mesaref
// TestPointSizeDeviations); the ranges here are the formulas'. A 32x32
// surface with Orthof(-16, 16, -16, 16, -10, 10): window = eye + 16.
func TestAliasedPointSquare(t *testing.T) {
	cases := []struct {
		name   string
		pos    [3]float32
		size   float32
		atten  [3]float32
		x0, x1 int // covered columns on row yc
		y0, y1 int // covered rows on column xc
		xc, yc int
	}{
		// d = sqrt(3.25² + 0.25² + 4²) = 5.16: 20/5.16 = 3.88 -> 4
		// (|z| = 4 would give 5); x_w 19.25 -> centre 19: 17-20.
		{name: "attenuated by the eye distance", pos: [3]float32{3.25, 0.25, -4}, size: 20, atten: [3]float32{0, 0, 1},
			x0: 17, x1: 20, y0: 14, y1: 17, xc: 19, yc: 16},
		// 3.6 rounds to 4 (truncation would give 3): x_w 8.25 ->
		// centre 8: 6-9.
		{name: "size rounded to the nearest integer", pos: [3]float32{-7.75, 0.25, 0}, size: 3.6, atten: [3]float32{1, 0, 0},
			x0: 6, x1: 9, y0: 14, y1: 17, xc: 8, yc: 16},
		// odd 5 at x_w 8.8: centre 8.5, 6-10.
		{name: "odd size centred in its pixel", pos: [3]float32{-7.2, -7.2, 0}, size: 5, atten: [3]float32{1, 0, 0},
			x0: 6, x1: 10, y0: 6, y1: 10, xc: 8, yc: 8},
	}
	onEvery(t, gles.Config{Width: 32, Height: 32}, func(t *testing.T, ctx *gles.Context) {
		ctx.MatrixMode(gles.PROJECTION)
		ctx.Orthof(-16, 16, -16, 16, -10, 10)
		ctx.MatrixMode(gles.MODELVIEW)
		ctx.Color4f(1, 1, 1, 1)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		for _, tc := range cases {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT)
			ctx.PointSize(tc.size)
			ctx.PointParameterfv(gles.POINT_DISTANCE_ATTENUATION, tc.atten[:])
			ctx.VertexPointer(3, gles.FLOAT, 0, tc.pos[:])
			ctx.DrawArrays(gles.POINTS, 0, 1)
			drawn(t, ctx)
			for _, p := range []struct{ x, y, v int }{
				{tc.x0 - 1, tc.yc, 0}, {tc.x0, tc.yc, 255}, {tc.x1, tc.yc, 255}, {tc.x1 + 1, tc.yc, 0},
				{tc.xc, tc.y0 - 1, 0}, {tc.xc, tc.y0, 255}, {tc.xc, tc.y1, 255}, {tc.xc, tc.y1 + 1, 0},
			} {
				assertRGB(t, [3]int{p.v, p.v, p.v}, pixel(ctx, p.x, p.y), "%s: pixel (%d, %d)", tc.name, p.x, p.y)
			}
		}
	})
}

// TestSpotOnDirectionalLight: ES 1.1 section 2.12.1 applies the spot cone
// to every light, also to a directional one (position w = 0), whose unit
// vector P_pli V is the negated direction: spot = (P_pli V . s)^e when that
// is at least cos(cutoff), else 0. A light from +z (P_pli V = (0, 0, -1))
// on a quad facing it (n.VP = 1), default material (ambient 0.2, diffuse
// 0.8) and scene ambient 0.2: the colour is 0.04 + spot * 0.8.
func TestSpotOnDirectionalLight(t *testing.T) {
	s30, c30 := float32(math.Sin(math.Pi/6)), float32(math.Cos(math.Pi/6))
	cases := []struct {
		name string
		dir  []float32
		exp  float32
		spot float64
	}{
		{"inside the cone", []float32{0, 0, -1}, 0, 1},
		{"outside the cone", []float32{0, 1, 0}, 0, 0},
		{"30 degrees off axis, exponent 2", []float32{0, s30, -c30}, 2, 0.75},
	}
	onEvery(t, gles.Config{Width: 8, Height: 8}, func(t *testing.T, ctx *gles.Context) {
		ctx.Enable(gles.LIGHTING)
		ctx.Enable(gles.LIGHT0)
		ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{0, 0, 1, 0})
		ctx.Lightf(gles.LIGHT0, gles.SPOT_CUTOFF, 45)
		ctx.Normal3f(0, 0, 1)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, -1, 1, 1, 1})
		for _, tc := range cases {
			ctx.Lightfv(gles.LIGHT0, gles.SPOT_DIRECTION, tc.dir)
			ctx.Lightf(gles.LIGHT0, gles.SPOT_EXPONENT, tc.exp)
			ctx.ClearColor(0, 0, 1, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT)
			ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
			drawn(t, ctx)
			v := int(math.Round(255 * (0.04 + tc.spot*0.8)))
			assertRGB(t, [3]int{v, v, v}, pixel(ctx, 4, 4), "%s", tc.name)
		}
	})
}

// TestSpecularExponentZero: with a shininess of 0 the specular factor is
// (n.h)^0 = 1 wherever n.VP is positive (ES 1.1 section 2.12.1), also
// for a light with a spot cone (Mesa gives (n.VP)^(n.VP) there,
// docs/differential.md). A directional light 45 degrees off the normal,
// its spot cone around its own direction (spot factor 1), specular
// material and light 1, nothing else: white.
func TestSpecularExponentZero(t *testing.T) {
	onEvery(t, gles.Config{Width: 8, Height: 8}, func(t *testing.T, ctx *gles.Context) {
		s := float32(math.Sqrt(0.5))
		ctx.ClearColor(0, 0, 1, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.Enable(gles.LIGHTING)
		ctx.Enable(gles.LIGHT0)
		ctx.LightModelfv(gles.LIGHT_MODEL_AMBIENT, []float32{0, 0, 0, 1})
		ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{s, 0, s, 0})
		ctx.Lightfv(gles.LIGHT0, gles.SPOT_DIRECTION, []float32{-s, 0, -s})
		ctx.Lightf(gles.LIGHT0, gles.SPOT_CUTOFF, 90)
		ctx.Materialfv(gles.FRONT_AND_BACK, gles.AMBIENT_AND_DIFFUSE, []float32{0, 0, 0, 1})
		ctx.Materialfv(gles.FRONT_AND_BACK, gles.SPECULAR, []float32{1, 1, 1, 1})
		ctx.Materialf(gles.FRONT_AND_BACK, gles.SHININESS, 0)
		ctx.Normal3f(0, 0, 1)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, -1, 1, 1, 1})
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		drawn(t, ctx)
		assertRGB(t, [3]int{255, 255, 255}, pixel(ctx, 4, 4), "specular (n.h)^0")
	})
}

// TestSpecularExponentZeroBehindHalfway: with a shininess of 0 the
// specular term is (n⊙h)^0 = 1 also where n.h <= 0, as long as n.VP > 0
// (ES 1.1 section 2.12.1: f_i is 1 for n.VP > 0, and max(n.h, 0)^0 is 1).
// A directional light along (1, 0, 0.1), the infinite viewer (0, 0, 1),
// so h is about (0.67, 0, 0.74); the normal (0.3, 0, -1) has n.VP > 0 and
// n.h < 0. Specular material and light 1, nothing else: white (rgldiff
// seed 1148 on glamo3365, which gave 0 there).
func TestSpecularExponentZeroBehindHalfway(t *testing.T) {
	onEvery(t, gles.Config{Width: 8, Height: 8}, func(t *testing.T, ctx *gles.Context) {
		ctx.ClearColor(0, 0, 1, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.Enable(gles.LIGHTING)
		ctx.Enable(gles.LIGHT0)
		ctx.LightModelfv(gles.LIGHT_MODEL_AMBIENT, []float32{0, 0, 0, 1})
		ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{1, 0, 0.1, 0})
		ctx.Materialfv(gles.FRONT_AND_BACK, gles.AMBIENT_AND_DIFFUSE, []float32{0, 0, 0, 1})
		ctx.Materialfv(gles.FRONT_AND_BACK, gles.SPECULAR, []float32{1, 1, 1, 1})
		ctx.Materialf(gles.FRONT_AND_BACK, gles.SHININESS, 0)
		n := []float32{0.3, 0, -1}
		l := []float64{1, 0, 0.1}
		ln := math.Sqrt(l[0]*l[0] + l[2]*l[2])
		h := []float64{l[0] / ln, 0, l[2]/ln + 1}
		require.Greater(t, float64(n[0])*l[0]+float64(n[2])*l[2], 0.0, "n.VP")
		require.Less(t, float64(n[0])*h[0]+float64(n[2])*h[2], 0.0, "n.h")
		ctx.Normal3f(n[0], n[1], n[2])
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, -1, 1, 1, 1})
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		drawn(t, ctx)
		assertRGB(t, [3]int{255, 255, 255}, pixel(ctx, 4, 4), "specular max(n.h, 0)^0")
	})
}

// TestWideLineAttributes: the fragments of a wide line's column carry the
// colour of the thin line's fragment at its centre (ES 1.1 section 3.4:
// t = (p_r - p_a).(p_b - p_a) / |p_b - p_a|^2 for the centre p_r). A red
// ramp from 0 at window (4.5, 8.5) to 1 at (12.5, 9.5), width 3: the
// thin line's fragment in column 7 is (7, 8), t = 0.369, red 94, and the
// column is rows 7 to 9. (Mesa's softpipe takes t half a pixel further,
// 112: tools/mesaref TestSoftpipeWideLineShift.)
func TestWideLineAttributes(t *testing.T) {
	onEvery(t, gles.Config{Width: 32, Height: 32}, func(t *testing.T, ctx *gles.Context) {
		ndc := func(w float32) float32 { return (w - 16) / 16 }
		ctx.ClearColor(0, 0, 1, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.LineWidth(3)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{ndc(4.5), ndc(8.5), ndc(12.5), ndc(9.5)})
		ctx.EnableClientState(gles.COLOR_ARRAY)
		ctx.ColorPointer(4, gles.FLOAT, 0, []float32{0, 0, 0, 1, 1, 0, 0, 1})
		ctx.DrawArrays(gles.LINES, 0, 2)
		drawn(t, ctx)
		// p_r = (7.5, 8.5), p_a = (4.5, 8.5), p_b - p_a = (8, 1).
		pr, pa, d := [2]float64{7.5, 8.5}, [2]float64{4.5, 8.5}, [2]float64{8, 1}
		ta := ((pr[0]-pa[0])*d[0] + (pr[1]-pa[1])*d[1]) / (d[0]*d[0] + d[1]*d[1])
		red := int(math.Round(255 * ta))
		for y := 7; y <= 9; y++ {
			assertRGB(t, [3]int{red, 0, 0}, pixel(ctx, 7, y), "column 7, row %d", y)
		}
	})
}

// TestSpriteWithoutCoordReplace: with POINT_SPRITE_OES enabled and
// COORD_REPLACE_OES off, a point keeps its vertex's texture coordinates
// (OES_point_sprite; ES 1.1 section 3.3): a size-8 point with s = 0.75
// on a 2x1 NEAREST texture (red, green) is green all over, not red on its
// left half as sprite coordinates would make it (rgldiff seed 138 on
// glamo3365).
func TestSpriteWithoutCoordReplace(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		ctx.ClearColor(0, 0, 1, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGB, 2, 1, 0, gles.RGB, gles.UNSIGNED_BYTE, []byte{255, 0, 0, 0, 255, 0})
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
		ctx.Enable(gles.TEXTURE_2D)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
		ctx.Enable(gles.POINT_SPRITE_OES)
		ctx.MultiTexCoord4f(gles.TEXTURE0, 0.75, 0.5, 0, 1)
		ctx.PointSize(8)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0})
		ctx.DrawArrays(gles.POINTS, 0, 1)
		drawn(t, ctx)
		for _, x := range []int{5, 7, 8, 10} {
			assertRGB(t, [3]int{0, 255, 0}, pixel(ctx, x, 8), "pixel x %d", x)
		}
	})
}

// TestColorMaterialDisableKeepsColor: while COLOR_MATERIAL is enabled the
// ambient and diffuse material track the current colour (ES 1.1 section
// 2.12.3); disabling it leaves them at that colour. With no light on, a
// quad lit by the scene ambient 0.2 after Enable and Disable of
// COLOR_MATERIAL under a white current colour is 0.2·1 = 51, not 0.2 times
// the default ambient material 0.2 (10).
func TestColorMaterialDisableKeepsColor(t *testing.T) {
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.Enable(gles.LIGHTING)
		ctx.Color4f(1, 1, 1, 1)
		ctx.Enable(gles.COLOR_MATERIAL)
		ctx.Disable(gles.COLOR_MATERIAL)
		ctx.Color4f(0, 0, 0, 1)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, -1, 1, 1, 1})
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		drawn(t, ctx)
		assertRGB(t, [3]int{51, 51, 51}, pixel(ctx, 8, 8), "after Disable(COLOR_MATERIAL)")
		assert.Equal(t, []float32{1, 1, 1, 1}, ctx.GetMaterialfv(gles.FRONT, gles.AMBIENT))
	})
}

// TestCombineDot3RGBAScales: DOT3_RGBA puts its dot product in all four
// components, and GL ES 1.1 section 3.7.12 then scales "the RGB and ALPHA
// results" by RGB_SCALE and ALPHA_SCALE respectively, each clamped to
// [0, 1]. The arguments are 0.8 and 0.6 after the operand (204 and 153 of
// 255, exact in 8 bits), so the dot product is 4*3*(0.3*0.1) = 0.36. The
// first draw shows the RGB; the second, blending ZERO, SRC_ALPHA onto
// white, shows the alpha in the RGB of the read-back. Dithering is off.
// The tolerance is the chip's precision: a chip may round each of the
// three products to 8 bits (PICA200's integer TEV truncates each, [OUT]
// citra), up to 3/255 before the scale, then one step of the colour buffer
// (255/(2^bits-1)) on the write. Scaled by the other channel's scale, the
// values would be 92 away.
func TestCombineDot3RGBAScales(t *testing.T) {
	tests := []struct {
		name                 string
		rgbScale, alphaScale float32
		operand0             gles.Enum
	}{
		{"rgb 2, alpha 1", 2, 1, gles.SRC_COLOR},
		{"rgb 1, alpha 2", 1, 2, gles.SRC_COLOR},
		{"rgb 4, alpha 1", 4, 1, gles.SRC_COLOR},
		{"rgb 1, alpha 4", 1, 4, gles.SRC_COLOR},
		{"rgb 2, alpha 2", 2, 2, gles.SRC_COLOR},
		{"src_alpha, rgb 2, alpha 1", 2, 1, gles.SRC_ALPHA},
		{"src_alpha, rgb 1, alpha 2", 1, 2, gles.SRC_ALPHA},
	}
	dot := 4 * 3 * (0.8 - 0.5) * (0.6 - 0.5)
	onEvery(t, gles.Config{Width: 16, Height: 16}, func(t *testing.T, ctx *gles.Context) {
		step := 255 / float64(int(1)<<ctx.GetIntegerv(gles.RED_BITS)[0]-1)
		tex := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, tex[0])
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 1, 1, 0, gles.RGBA, gles.UNSIGNED_BYTE, []byte{255, 255, 255, 255})
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		ctx.Enable(gles.TEXTURE_2D)
		ctx.Disable(gles.DITHER)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.COMBINE))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(gles.DOT3_RGBA))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC0_RGB, int(gles.CONSTANT))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.PRIMARY_COLOR))
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.OPERAND1_RGB, int(gles.SRC_COLOR))
		ctx.Color4f(0.6, 0.6, 0.6, 1)
		ctx.BlendFunc(gles.ZERO, gles.SRC_ALPHA)
		for _, tc := range tests {
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.OPERAND0_RGB, int(tc.operand0))
			k := [4]float32{0.8, 0.8, 0.8, 1}
			if tc.operand0 == gles.SRC_ALPHA {
				k = [4]float32{0.2, 0.2, 0.2, 0.8}
			}
			ctx.TexEnvfv(gles.TEXTURE_ENV, gles.TEXTURE_ENV_COLOR, k[:])
			ctx.TexEnvf(gles.TEXTURE_ENV, gles.RGB_SCALE, tc.rgbScale)
			ctx.TexEnvf(gles.TEXTURE_ENV, gles.ALPHA_SCALE, tc.alphaScale)
			for _, blend := range []bool{false, true} {
				scale, what := float64(tc.rgbScale), "RGB"
				ctx.ClearColor(0, 0, 0, 1)
				ctx.Disable(gles.BLEND)
				if blend {
					scale, what = float64(tc.alphaScale), "alpha"
					ctx.ClearColor(1, 1, 1, 1)
					ctx.Enable(gles.BLEND)
				}
				ctx.Clear(gles.COLOR_BUFFER_BIT)
				texQuad(ctx, 1, 1)
				drawn(t, ctx)
				got := pixel(ctx, 8, 8)
				want, tol := 255*min(1, dot*scale), 3*scale+step
				for ch := 0; ch < 3; ch++ {
					assert.InDelta(t, want, float64(got[ch]), tol, "%s: %s channel %d of %v", tc.name, what, ch, got)
				}
			}
		}
	})
}
