package main

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/examples/compare"
	"github.com/retrogl/retrogl/examples/internal/app"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/internal/testenv"
	"github.com/retrogl/retrogl/tools/mesaref"
	"github.com/retrogl/retrogl/trace"
)

var update = flag.Bool("update", false, "rewrite golden files")

const golden = "../../testdata/r300/es2-shaders.png"

// TestRender renders the scene on r300 and compares it with the golden
// image bit for bit (the pipeline is deterministic).
func TestRender(t *testing.T) {
	img, err := Render("r300", 160, 120)
	require.NoError(t, err)
	if *update {
		require.NoError(t, app.WritePNG(golden, img))
	}
	f, err := os.Open(golden)
	require.NoError(t, err)
	defer f.Close()
	want, err := png.Decode(f)
	require.NoError(t, err)
	b := want.Bounds()
	require.Equal(t, img.Bounds(), b)
	diff := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := want.At(x, y).RGBA()
			r2, g2, b2, a2 := img.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				diff++
			}
		}
	}
	assert.Zero(t, diff, "pixels differ from %s (go test ./examples/shaders -update)", golden)
	// The cube covers the middle, the clear colour the corner.
	assert.NotEqual(t, img.At(0, 0), img.At(80, 60))
}

func TestNoES2Backend(t *testing.T) {
	_, err := Render("pspge", 32, 24)
	assert.ErrorContains(t, err, "GL ES 2.0")
}

// TestTrace records the scene's GL calls with -trace's recorder and plays
// the trace on a fresh r300 context: the same image, bit for bit.
func TestTrace(t *testing.T) {
	var rec bytes.Buffer
	img, err := RenderWith("r300", 160, 120, app.Options{Trace: &rec})
	require.NoError(t, err)
	tr, err := trace.Parse(bytes.NewReader(rec.Bytes()))
	require.NoError(t, err)
	assert.True(t, tr.ES2, "the Surface line says ES2")
	ctx, err := gles.NewContext("r300", tr.Config())
	require.NoError(t, err)
	defer ctx.Close()
	require.NoError(t, trace.NewPlayer(ctx).Play(tr))
	require.NoError(t, ctx.Err())
	got := ctx.Image()
	require.Equal(t, img.Bounds(), got.Bounds())
	for y := 0; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			r1, g1, b1, _ := img.At(x, y).RGBA()
			r2, g2, b2, _ := got.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				t.Fatalf("pixel (%d, %d): recorded %v, replayed %v", x, y, img.At(x, y), got.At(x, y))
			}
		}
	}
}

// TestTraceOnMesa plays the scene's ES 2.0 trace on Mesa softpipe
// (tools/mesaref: the GL 2.0 calls of a compatibility context, the GLSL ES
// 1.00 shaders as they are): the image is r300's within the R3xx tolerance
// of examples/compare, with no GL error and no shader error.
func TestTraceOnMesa(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	var rec bytes.Buffer
	img, err := RenderWith("r300", 160, 120, app.Options{Trace: &rec})
	require.NoError(t, err)
	res, err := mesaref.Replay(rec.Bytes(), mesaref.Softpipe)
	require.NoError(t, err)
	tol := compare.For("r300")
	got, err := compare.Images(img, res.Image, tol.Threshold)
	require.NoError(t, err)
	assert.True(t, got.Pass(tol), "r300 against Mesa: %s (at most %.1f%% bad)", got, 100*tol.MaxBad)
	assert.Equal(t, 160*120, got.Total)
}
