package pspge_test

import (
	"bytes"
	"image/color"
	"testing"

	gold "github.com/retrogl/retrogl/internal/golden"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/sim/pspge"
)

// golden compares got with testdata/pspge/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	gold.Text(t, gold.Path("pspge", name), got)
}

// decodeCapture renders the submissions of a capture as text, each with
// the words appended to it while it ran (hal.Appender extends).
func decodeCapture(t *testing.T, capture []byte) string {
	t.Helper()
	text, err := hal.Listing(bytes.NewReader(capture))
	require.NoError(t, err)
	return text
}

func TestTriangleGoldenStream(t *testing.T) {
	var capture bytes.Buffer
	s := scenes.Triangle()
	cfg := s.Config
	cfg.Capture = &capture
	ctx, err := gles.NewContext("pspge", cfg)
	require.NoError(t, err)
	require.NoError(t, s.Draw(ctx))
	img := ctx.Image()
	require.NoError(t, ctx.Close())
	golden(t, "triangle.golden", decodeCapture(t, capture.Bytes()))

	// The capture replays on a fresh simulator, with no driver, to the
	// same bytes: every read-back matches.
	dev := pspge.New()
	rep, err := hal.Replay(bytes.NewReader(capture.Bytes()), dev)
	require.NoError(t, err)
	require.NoError(t, dev.Close())
	assert.Empty(t, rep.Mismatches)
	assert.NotZero(t, rep.Reads)
	assert.Equal(t, 1, rep.Submits, "the scene flushes once, at Finish")

	// A damaged capture is a clear error, not a panic.
	_, err = hal.Replay(bytes.NewReader(capture.Bytes()[:capture.Len()/2]), pspge.New())
	assert.Error(t, err)
	assert.NotNil(t, img)
}

// newCtx returns a 64x64 context with identity matrices.
func newCtx(t *testing.T, format driver.PixelFormat) *gles.Context {
	t.Helper()
	ctx, err := gles.NewContext("pspge", gles.Config{Width: 64, Height: 64, Format: format, DepthBits: 16})
	require.NoError(t, err)
	t.Cleanup(func() { ctx.Close() })
	ctx.ClearColor(0, 0, 0, 1)
	ctx.ClearDepthf(1)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	return ctx
}

func at(ctx *gles.Context, x, y int) color.NRGBA {
	// GL window coordinates: y counts from the bottom.
	img := ctx.Image()
	return img.At(x, img.Bounds().Dy()-1-y).(color.NRGBA)
}

// TestGouraudPixels checks pixels of a triangle with red, green and blue
// corners at window (0,0), (64,0) and (0,64). At pixel (15, 15) the centre
// (15.5, 15.5) has weights 33/64, 15.5/64, 15.5/64: red 255*33/64 = 131.48
// and green = blue = 255*15.5/64 = 61.76, rounded to 131 and 62.
func TestGouraudPixels(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, -1, 1})
	ctx.ColorPointer(4, gles.UNSIGNED_BYTE, 0, []uint8{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255})
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{131, 62, 62, 255}, at(ctx, 15, 15))
	assert.Equal(t, color.NRGBA{251, 2, 2, 255}, at(ctx, 0, 0), "pixel (0,0) samples its centre: weights 63/64, 0.5/64, 0.5/64")
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 40, 40), "outside keeps the clear colour")
}

// TestDepthHidesCrossing draws a triangle at z = 0 and then a full-screen
// quad at z = 0.5 (behind) and another at z = -0.5 (in front) over the
// right half only.
func TestDepthHidesCrossing(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.Color4f(1, 0, 0, 1)
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, 0, 1, -1, 0, -1, 1, 0})
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.Color4f(0, 0, 1, 1)
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, 0.5, 1, -1, 0.5, 1, 1, 0.5, -1, 1, 0.5})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	ctx.Color4f(0, 1, 0, 1)
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{0, -1, -0.5, 1, -1, -0.5, 1, 1, -0.5, 0, 1, -0.5})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{255, 0, 0, 255}, at(ctx, 10, 10), "triangle in front of the far quad")
	assert.Equal(t, color.NRGBA{0, 0, 255, 255}, at(ctx, 20, 60), "far quad where the triangle is not")
	assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 40, 10), "near quad hides the triangle")
	d, err := ctx.Driver().(driver.DepthStencilReader).ReadDepth(10, 10)
	require.NoError(t, err)
	assert.Equal(t, float32(32768)/65535, d, "z = 0 is window depth 0.5: 65535*0.5 rounds to 32768")
}

// TestFramebufferFormats clears each format and reads back the widened
// colour: the GE truncates, then read-back replicates bits.
func TestFramebufferFormats(t *testing.T) {
	for _, tc := range []struct {
		f    driver.PixelFormat
		want color.NRGBA
	}{
		{driver.FormatRGBA8888, color.NRGBA{0x80, 0x40, 0xC0, 0xFF}},
		{driver.FormatRGB565, color.NRGBA{0x84, 0x41, 0xC6, 0xFF}},
		{driver.FormatRGBA5551, color.NRGBA{0x84, 0x42, 0xC6, 0xFF}},
		{driver.FormatRGBA4444, color.NRGBA{0x88, 0x44, 0xCC, 0xFF}},
	} {
		ctx, err := gles.NewContext("pspge", gles.Config{Width: 16, Height: 16, Format: tc.f})
		require.NoError(t, err)
		ctx.ClearColor(float32(0x80)/255, float32(0x40)/255, float32(0xC0)/255, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		assert.Equal(t, tc.want, at(ctx, 3, 3), "%v", tc.f)
		require.NoError(t, ctx.Close())
	}
}
