package compare_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/examples/compare"
	"github.com/retrogl/retrogl/examples/internal/app"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// refDir holds the committed Mesa references and their traces; regenerate
// them with `go run ./tools/mesaref/regen` (needs Mesa), never from a test.
const refDir = "../../testdata/reference"

func loadPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err, "reference missing: run go run ./tools/mesaref/regen")
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img
}

// TestReferences compares every (example, backend) image with its Mesa
// reference and logs the figure for each pair (go test -v shows them). A
// pair whose backend lacks a feature the example needs is skipped, named;
// a backend that has them all must draw without a GL error and within its
// tolerance.
func TestReferences(t *testing.T) {
	for _, s := range scenes.All() {
		ref := loadPNG(t, filepath.Join(refDir, s.Name+".png"))
		for _, b := range backends.Names() {
			t.Run(s.Name+"/"+b, func(t *testing.T) {
				res := app.RenderScene(b, s, nil)
				require.NotNil(t, res.Image, "%s on %s: %v", s.Name, b, res.Err)
				tol := compare.For(b)
				got, err := compare.Images(res.Image, ref, tol.Threshold)
				require.NoError(t, err)
				if len(res.Missing) > 0 {
					t.Skipf("%s on %s: %v; not judged, %s", s.Name, b, got, app.MissingText(res.Missing))
				}
				require.NoError(t, res.Err, "the backend has every feature the scene needs")
				t.Logf("%s on %s: %v (limit %.2f%% over %d; %s)", s.Name, b, got, 100*tol.MaxBad, tol.Threshold, tol.Why)
				assert.True(t, got.Pass(tol), "%s on %s differs from Mesa: %v, limit %.2f%%", s.Name, b, got, 100*tol.MaxBad)
			})
		}
	}
}

// calls drops the comment lines of a trace.
func calls(tr string) string {
	var keep []string
	for _, l := range strings.Split(tr, "\n") {
		if !strings.HasPrefix(l, "#") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestTracesUpToDate checks that the committed traces (the references'
// source) are what the scenes record today.
func TestTracesUpToDate(t *testing.T) {
	b := backends.Names()[0]
	for _, s := range scenes.All() {
		var tr bytes.Buffer
		res := app.RenderScene(b, s, &tr)
		require.NotNil(t, res.Image, "%s: %v", s.Name, res.Err)
		want, err := os.ReadFile(filepath.Join(refDir, s.Name+".trace"))
		require.NoError(t, err)
		assert.True(t, calls(tr.String()) == calls(string(want)),
			"%s: the scene no longer records %s.trace: run go run ./tools/mesaref/regen", s.Name, s.Name)
	}
}

// TestReplayMatchesDirect plays every committed trace on every backend and
// checks that the image is the one the scene draws directly, pixel for
// pixel: a trace stands for the program that recorded it.
func TestReplayMatchesDirect(t *testing.T) {
	for _, s := range scenes.All() {
		f, err := os.Open(filepath.Join(refDir, s.Name+".trace"))
		require.NoError(t, err)
		tr, err := trace.Parse(f)
		f.Close()
		require.NoError(t, err)
		assert.Equal(t, s.Config, tr.Config(), s.Name)
		for _, b := range backends.Names() {
			direct := app.RenderScene(b, s, nil)
			require.NotNil(t, direct.Image)
			ctx, err := gles.NewContext(b, tr.Config())
			require.NoError(t, err)
			require.NoError(t, trace.NewPlayer(ctx).Play(tr), "%s on %s", s.Name, b)
			replayed := ctx.Image()
			_ = ctx.Err() // the same GL errors as the direct run
			require.NoError(t, ctx.Close())
			got, err := compare.Images(replayed, direct.Image, 0)
			require.NoError(t, err)
			assert.Zero(t, got.Bad, "%s on %s: replay differs from the direct run: %v", s.Name, b, got)
		}
	}
}
