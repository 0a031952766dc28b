package pica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
)

// win2ndc maps window coordinates of a 32x32 surface to NDC.
func win2ndc(x, y float32) (float32, float32) { return x/16 - 1, y/16 - 1 }

func TestPointsLinesFlat(t *testing.T) {
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 32, Height: 32})
	require.NoError(t, err)
	defer ctx.Close()
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.Color4f(1, 1, 1, 1)
	// A size-1 point at the centre of pixel (3, 4) covers that pixel only.
	x, y := win2ndc(3.5, 4.5)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{x, y})
	ctx.DrawArrays(gles.POINTS, 0, 1)
	// A size-3 point covers 3x3 pixels around (20, 20).
	ctx.PointSize(3)
	x, y = win2ndc(20.5, 20.5)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{x, y})
	ctx.DrawArrays(gles.POINTS, 0, 1)
	ctx.PointSize(1)
	// A horizontal line from (2.5, 10.5) to (10.5, 10.5) covers x = 2..9.
	x0, y0 := win2ndc(2.5, 10.5)
	x1, y1 := win2ndc(10.5, 10.5)
	ctx.Color4f(0, 1, 0, 1)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{x0, y0, x1, y1})
	ctx.DrawArrays(gles.LINES, 0, 2)
	// A 3-wide vertical line strip at x = 25.5, drawn downwards from
	// y = 8.5 to 2.5: rows 3..8 (GL includes the first endpoint's pixel
	// and excludes the last; the emulation's fill rule agrees for
	// downward and rightward lines).
	ctx.LineWidth(3)
	x0, y0 = win2ndc(25.5, 8.5)
	x1, y1 = win2ndc(25.5, 2.5)
	ctx.Color4f(0, 0, 1, 1)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{x0, y0, x1, y1})
	ctx.DrawArrays(gles.LINE_STRIP, 0, 2)
	ctx.LineWidth(1)
	// A flat-shaded triangle takes the last vertex's colour.
	ctx.ShadeModel(gles.FLAT)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ax, ay := win2ndc(2, 16)
	bx, by := win2ndc(14, 16)
	cx, cy := win2ndc(2, 28)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{ax, ay, bx, by, cx, cy})
	ctx.ColorPointer(4, gles.FLOAT, 0, []float32{1, 0, 0, 1, 0, 1, 0, 1, 0.5, 0.5, 1, 1})
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.ShadeModel(gles.SMOOTH)
	img := ctx.Image()
	require.NoError(t, ctx.Err())

	white, black := [4]uint8{255, 255, 255, 255}, [4]uint8{0, 0, 0, 255}
	assert.Equal(t, white, pixel(img, 3, 4))
	for _, q := range [][2]int{{2, 4}, {4, 4}, {3, 3}, {3, 5}} {
		assert.Equal(t, black, pixel(img, q[0], q[1]), "around the point: %v", q)
	}
	n := 0
	for yy := 17; yy <= 23; yy++ {
		for xx := 17; xx <= 23; xx++ {
			if pixel(img, xx, yy) == white {
				n++
				assert.True(t, xx >= 19 && xx <= 21 && yy >= 19 && yy <= 21, "size-3 point at %d,%d", xx, yy)
			}
		}
	}
	assert.Equal(t, 9, n)
	green := [4]uint8{0, 255, 0, 255}
	for xx := 0; xx < 14; xx++ {
		want := black
		if xx >= 2 && xx <= 9 {
			want = green
		}
		assert.Equal(t, want, pixel(img, xx, 10), "line pixel %d", xx)
		assert.Equal(t, black, pixel(img, xx, 9))
		assert.Equal(t, black, pixel(img, xx, 11))
	}
	blue := [4]uint8{0, 0, 255, 255}
	for yy := 3; yy <= 8; yy++ {
		for xx := 23; xx < 28; xx++ {
			want := black
			if xx >= 24 && xx <= 26 {
				want = blue
			}
			assert.Equal(t, want, pixel(img, xx, yy), "wide line at %d,%d", xx, yy)
		}
	}
	assert.Equal(t, black, pixel(img, 25, 2))
	assert.Equal(t, black, pixel(img, 25, 9))
	flat := [4]uint8{128, 128, 255, 255}
	assert.Equal(t, flat, pixel(img, 3, 17))
	assert.Equal(t, flat, pixel(img, 10, 17))
	assert.Equal(t, flat, pixel(img, 3, 24))
}

func TestDrawTexture(t *testing.T) {
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 32, Height: 32})
	require.NoError(t, err)
	defer ctx.Close()
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	// An 8x8 texture whose texel (x, y) is (x*32, y*32, 0, 255).
	b := make([]byte, 8*8*4)
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			copy(b[4*(y*8+x):], []byte{byte(x * 32), byte(y * 32), 0, 255})
		}
	}
	tex := ctx.GenTextures(1)
	ctx.BindTexture(gles.TEXTURE_2D, tex[0])
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 8, 8, 0, gles.RGBA, gles.UNSIGNED_BYTE, b)
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
	ctx.TexParameteriv(gles.TEXTURE_2D, gles.TEXTURE_CROP_RECT_OES, []int{2, 4, 4, 4})
	ctx.Enable(gles.TEXTURE_2D)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
	// Crop (2,4)-(6,8) scaled to 8x8 pixels at (10, 12): pixel (10+i, 12+j)
	// shows texel (2 + i/2, 4 + j/2).
	ctx.DrawTexiOES(10, 12, 0, 8, 8)
	img := ctx.Image()
	require.NoError(t, ctx.Err())
	for j := 0; j < 8; j++ {
		for i := 0; i < 8; i++ {
			want := [4]uint8{byte((2 + i/2) * 32), byte((4 + j/2) * 32), 0, 255}
			assert.Equal(t, want, pixel(img, 10+i, 12+j), "pixel %d,%d", 10+i, 12+j)
		}
	}
	assert.Equal(t, [4]uint8{0, 0, 0, 255}, pixel(img, 9, 12))
	assert.Equal(t, [4]uint8{0, 0, 0, 255}, pixel(img, 10, 20))
}

func TestTwoSidedLighting(t *testing.T) {
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 32, Height: 16})
	require.NoError(t, err)
	defer ctx.Close()
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.Enable(gles.LIGHTING)
	ctx.Enable(gles.LIGHT0)
	ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{0, 0, 1, 0})
	ctx.LightModelf(gles.LIGHT_MODEL_TWO_SIDE, 1)
	ctx.Normal3f(0, 0, 1)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	// Left quad counter-clockwise (front), right quad clockwise (back).
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 0, -1, 0, 1, -1, 1, 0, -1, 0, 1, 1, 1, 1, -1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 4, 4)
	img := ctx.Image()
	require.NoError(t, ctx.Err())
	// Front: ambient 0.2*0.2 + diffuse 0.8 = 0.84 -> 214; back: the
	// negated normal faces away from the light, ambient only (0.04 -> 10).
	assert.Equal(t, [4]uint8{214, 214, 214, 255}, pixel(img, 8, 8))
	assert.Equal(t, [4]uint8{10, 10, 10, 255}, pixel(img, 24, 8))
	// One-sided lighting lights both alike.
	ctx.LightModelf(gles.LIGHT_MODEL_TWO_SIDE, 0)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 4, 4)
	img = ctx.Image()
	assert.Equal(t, [4]uint8{214, 214, 214, 255}, pixel(img, 24, 8))
}

// TestFarViewport: viewport offsets beyond VIEWPORT_XY's 10-bit range are
// folded into clip space.
func TestFarViewport(t *testing.T) {
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 1024, Height: 16})
	require.NoError(t, err)
	defer ctx.Close()
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.Viewport(800, 0, 16, 16)
	ctx.Color4f(1, 0, 0, 1)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	img := ctx.Image()
	require.NoError(t, ctx.Err())
	red, black := [4]uint8{255, 0, 0, 255}, [4]uint8{0, 0, 0, 255}
	assert.Equal(t, black, pixel(img, 799, 8))
	assert.Equal(t, red, pixel(img, 800, 8))
	assert.Equal(t, red, pixel(img, 815, 0))
	assert.Equal(t, black, pixel(img, 816, 8))
	assert.Equal(t, black, pixel(img, 800-512, 8), "no wrap-around to x-512")
}

// TestWorkerIndependence renders a frame of the textured standard scene
// through gles with 1 and with 4 workers (gles.Config.Workers reaches the
// simulator's scheduler through hal.Parallel): the bytes must not depend
// on it.
func TestWorkerIndependence(t *testing.T) {
	render := func(workers int) []byte {
		ctx, err := gles.NewContext("pica200", gles.Config{Width: 400, Height: 240, DepthBits: 24, Workers: workers})
		require.NoError(t, err)
		defer ctx.Close()
		ids := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, ids[0])
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 256, 256, 0, gles.RGBA, gles.UNSIGNED_BYTE, standardTexture())
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
		ctx.Enable(gles.TEXTURE_2D)
		ctx.Enable(gles.BLEND)
		ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
		ctx.Enable(gles.DEPTH_TEST)
		ctx.DepthFunc(gles.LEQUAL)
		ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
		for q := 0; q < 3; q++ {
			quad(ctx, 1-1.8*float32(q)/8, true)
		}
		img := ctx.Image()
		require.NoError(t, ctx.Err())
		return encodePNG(t, img)
	}
	assert.Equal(t, render(1), render(4))
}

func TestMatrixPalette(t *testing.T) {
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 32, Height: 32})
	require.NoError(t, err)
	defer ctx.Close()
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.MatrixMode(gles.MATRIX_PALETTE_OES)
	ctx.CurrentPaletteMatrixOES(0)
	ctx.LoadIdentity()
	ctx.Translatef(-0.5, 0, 0)
	ctx.CurrentPaletteMatrixOES(1)
	ctx.LoadIdentity()
	ctx.Translatef(0.5, 0, 0)
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.Enable(gles.MATRIX_PALETTE_OES)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.MATRIX_INDEX_ARRAY_OES)
	ctx.EnableClientState(gles.WEIGHT_ARRAY_OES)
	// A quad from x = -0.25 to 0.25: left vertices take matrix 0 (moved
	// left 0.5), right vertices half of each (not moved).
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-0.25, -0.5, 0.25, -0.5, 0.25, 0.5, -0.25, 0.5})
	ctx.MatrixIndexPointerOES(2, gles.UNSIGNED_BYTE, 0, []uint8{0, 0, 0, 1, 0, 1, 0, 0})
	ctx.WeightPointerOES(2, gles.FLOAT, 0, []float32{1, 0, 0.5, 0.5, 0.5, 0.5, 1, 0})
	ctx.Color4f(1, 1, 1, 1)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	img := ctx.Image()
	require.NoError(t, ctx.Err())
	// The quad spans x = -0.75 .. 0.25 in NDC: pixels 4..19.
	white, black := [4]uint8{255, 255, 255, 255}, [4]uint8{0, 0, 0, 255}
	assert.Equal(t, black, pixel(img, 3, 16))
	assert.Equal(t, white, pixel(img, 4, 16))
	assert.Equal(t, white, pixel(img, 19, 16))
	assert.Equal(t, black, pixel(img, 20, 16))
}
