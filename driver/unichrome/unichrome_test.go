package unichrome_test

import (
	"bytes"
	"image"
	"image/color"
	"testing"

	gold "github.com/retrogl/retrogl/internal/golden"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/bench"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/sim/unichrome"
)

func goldenPath(name string) string { return gold.Path("unichrome", name) }

// golden compares got with testdata/unichrome/name, or rewrites it with
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	gold.Text(t, goldenPath(name), got)
}

// goldenImage compares an image with testdata/unichrome/name exactly: the
// simulator is deterministic, so there is no tolerance.
func goldenImage(t *testing.T, name string, img image.Image) {
	t.Helper()
	gold.Image(t, goldenPath(name), img)
}

// decodeCapture renders the submissions of a capture as text.
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
	ctx, err := gles.NewContext("unichrome", cfg)
	require.NoError(t, err)
	require.NoError(t, s.Draw(ctx))
	img := ctx.Image()
	require.NoError(t, ctx.Close())
	text := decodeCapture(t, capture.Bytes())
	assert.NotContains(t, text, "??", "the decoder understands every dword the driver writes")
	golden(t, "triangle.golden", text)
	goldenImage(t, "triangle.png", img)

	// The capture replays on a fresh simulator, with no driver.
	dev := unichrome.New()
	rep, err := hal.Replay(bytes.NewReader(capture.Bytes()), dev)
	require.NoError(t, err)
	require.NoError(t, dev.Close())
	assert.Empty(t, rep.Mismatches)
	assert.NotZero(t, rep.Reads)
	assert.Equal(t, 1, rep.Submits, "the scene flushes once, at Finish")
}

// TestExampleScenes renders every example scene.
func TestExampleScenes(t *testing.T) {
	for _, s := range scenes.All() {
		ctx, err := gles.NewContext("unichrome", s.Config)
		require.NoError(t, err)
		require.NoError(t, s.Draw(ctx), s.Name)
		require.NoError(t, ctx.Err(), s.Name)
		require.NoError(t, ctx.Close())
	}
}

// newCtx returns a 64x64 context with identity matrices.
func newCtx(t *testing.T, cfg gles.Config) *gles.Context {
	t.Helper()
	if cfg.Width == 0 {
		cfg.Width, cfg.Height = 64, 64
	}
	ctx, err := gles.NewContext("unichrome", cfg)
	require.NoError(t, err)
	t.Cleanup(func() { ctx.Close() })
	ctx.ClearColor(0, 0, 0, 1)
	ctx.ClearDepthf(1)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	return ctx
}

func at(ctx *gles.Context, x, y int) color.NRGBA {
	img := ctx.Image()
	return img.At(x, img.Bounds().Dy()-1-y).(color.NRGBA)
}

// TestGouraudPixels: corners red, green, blue at window (0,0), (64,0),
// (0,64); at pixel (15, 15) the weights are 33/64, 15.5/64, 15.5/64: red
// 131.48 and green = blue = 61.76, rounded to 131 and 62.
func TestGouraudPixels(t *testing.T) {
	ctx := newCtx(t, gles.Config{})
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, -1, 1})
	ctx.ColorPointer(4, gles.UNSIGNED_BYTE, 0, []uint8{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255})
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{131, 62, 62, 255}, at(ctx, 15, 15))
	assert.Equal(t, color.NRGBA{251, 2, 2, 255}, at(ctx, 0, 0))
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 40, 40))
}

func TestDepthAndStencilReadBack(t *testing.T) {
	ctx := newCtx(t, gles.Config{DepthBits: 16, StencilBits: 8})
	assert.Equal(t, 24, ctx.Config().DepthBits, "stencil needs Z24S8")
	ctx.Enable(gles.DEPTH_TEST)
	ctx.Enable(gles.STENCIL_TEST)
	ctx.StencilFunc(gles.ALWAYS, 0x5A, 0xFF)
	ctx.StencilOp(gles.KEEP, gles.KEEP, gles.REPLACE)
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, 0, 1, -1, 0, -1, 1, 0})
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	require.NoError(t, ctx.Err())
	r := ctx.Driver().(driver.DepthStencilReader)
	d, err := r.ReadDepth(10, 10)
	require.NoError(t, err)
	assert.Equal(t, float32(0x800000)/0xFFFFFF, d, "window depth 0.5 stores floor(0.5 * 2^24)")
	s, err := r.ReadStencil(10, 10)
	require.NoError(t, err)
	assert.Equal(t, 0x5A, s)
	s, err = r.ReadStencil(60, 60)
	require.NoError(t, err)
	assert.Equal(t, 0, s)
}

// TestFramebufferFormats clears each format and reads back the widened
// colour: the engine truncates, read-back replicates bits.
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
		ctx, err := gles.NewContext("unichrome", gles.Config{Width: 16, Height: 16, Format: tc.f})
		require.NoError(t, err)
		ctx.ClearColor(float32(0x80)/255, float32(0x40)/255, float32(0xC0)/255, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		assert.Equal(t, tc.want, at(ctx, 3, 3), "%v", tc.f)
		require.NoError(t, ctx.Close())
	}
}

func TestCaps(t *testing.T) {
	drv, err := driver.Open("unichrome", driver.OpenOptions{})
	require.NoError(t, err)
	defer drv.Close()
	c := drv.Caps()
	assert.False(t, c.Has(driver.FeatureShaders))
	assert.Equal(t, "the UniChrome Pro II is a fixed-function chip (GL ES 1.1 only)", c.WhyMissing(driver.FeatureShaders))
	for _, f := range driver.AllFeatures() {
		if !c.Has(f) {
			assert.NotEqual(t, "", c.WhyMissing(f), "%v missing without reason", f)
		}
	}
	assert.Equal(t, 2048, c.Limits.MaxTextureSize)
	assert.Equal(t, 2, c.Limits.MaxTextureUnits)
	assert.True(t, c.HasExtension("GL_OES_stencil_wrap"))
	assert.NotEmpty(t, c.Emulated)
}

// TestWorkerCountIndependent renders the textured standard scene with one
// and with three shading workers: the images are byte for byte equal.
func TestWorkerCountIndependent(t *testing.T) {
	render := func(workers int) []byte {
		ctx, err := gles.NewContext("unichrome", gles.Config{Width: 200, Height: 150, DepthBits: 16, Workers: workers})
		require.NoError(t, err)
		defer ctx.Close()
		s, err := bench.Lookup("fill-tex-blend")
		require.NoError(t, err)
		s.Setup(ctx)
		s.Frame(ctx)
		require.NoError(t, ctx.Err())
		return ctx.Image().(*image.NRGBA).Pix
	}
	one := render(1)
	assert.Equal(t, one, render(3))
	assert.Equal(t, one, render(0))
}
