package mesaref_test

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/internal/testenv"
	"github.com/retrogl/retrogl/tools/mesaref"
)

// TestReplayMatchesReference replays a committed example trace on softpipe
// and checks it gives the committed reference image, byte for byte: the
// reference was made by the same replayer (tools/mesaref/regen).
func TestReplayMatchesReference(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	dir := filepath.Join("..", "..", "testdata", "reference")
	tr, err := os.ReadFile(filepath.Join(dir, "triangle.trace"))
	require.NoError(t, err)
	res, err := mesaref.Replay(tr, mesaref.Softpipe)
	require.NoError(t, err)
	f, err := os.Open(filepath.Join(dir, "triangle.png"))
	require.NoError(t, err)
	defer f.Close()
	ref, err := png.Decode(f)
	require.NoError(t, err)
	b := ref.Bounds()
	require.Equal(t, b, res.Image.Bounds())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, a := ref.At(x, y).RGBA()
			r2, g2, b2, a2 := res.Image.At(x, y).RGBA()
			require.Equal(t, [4]uint32{r, g, bb, a}, [4]uint32{r2, g2, b2, a2}, "pixel %d,%d", x, y)
		}
	}
}

// TestBadTrace: a file that is not a trace is an error naming the problem,
// not a crash or an image.
func TestBadTrace(t *testing.T) {
	testenv.Need(t, mesaref.Package, mesaref.Available())
	_, err := mesaref.Replay([]byte("not a trace\n"), mesaref.Softpipe)
	require.ErrorContains(t, err, "not a retrogl trace")
}

func TestReadPAMRejectsBadHeader(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.pam")
	require.NoError(t, os.WriteFile(p, []byte("P7\nWIDTH 0\nHEIGHT 3\nENDHDR\n"), 0o644))
	_, err := mesaref.ReadPAM(p)
	require.ErrorContains(t, err, "bad size")
}
