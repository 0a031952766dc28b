package mesaref

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/internal/testenv"
)

func TestParseBench(t *testing.T) {
	for _, tc := range []struct {
		out    string
		frames int
		cpu    time.Duration
		err    string
	}{
		{out: "llvmpipe (LLVM 15.0.6, 256 bits)\nframes 12 cpu 0.500000000 wall 0.250000000\n", frames: 12, cpu: 500 * time.Millisecond},
		{out: "softpipe\n", err: "want 2 lines"},
		{out: "softpipe\nframes x cpu 1 wall 1\n", err: "bad figures"},
		{out: "softpipe\nframes 0 cpu 1 wall 1\n", err: "bad figures"},
		{out: "softpipe\nframes 3 cpu 1 wall 0\n", err: "bad figures"},
	} {
		run, err := parseBench(tc.out)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, tc.out)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.frames, run.Frames)
		require.Equal(t, tc.cpu, run.CPU)
		require.Equal(t, 250*time.Millisecond, run.Wall)
		require.Equal(t, "llvmpipe (LLVM 15.0.6, 256 bits)", run.Renderer)
	}
}

// TestBenchRuns runs each scene for one frame on both renderers: the
// figures are counted and the renderer is the one asked for. (The images
// are compared with the backends' in package bench.)
func TestBenchRuns(t *testing.T) {
	testenv.Need(t, Package, Available())
	for _, r := range []Renderer{Softpipe, Llvmpipe} {
		for _, s := range BenchScenes {
			run, err := Bench(r, s, 32, 24, BenchOptions{Frames: 2, Image: true})
			require.NoError(t, err, "%s %s", r, s)
			require.Equal(t, 2, run.Frames)
			require.Contains(t, run.Renderer, string(r))
			require.Equal(t, 32, run.Image.Bounds().Dx())
			require.Equal(t, 24, run.Image.Bounds().Dy())
		}
	}
}

func TestBenchUnknownScene(t *testing.T) {
	testenv.Need(t, Package, Available())
	_, err := Bench(Softpipe, "no-such-scene", 32, 24, BenchOptions{Frames: 1})
	require.ErrorContains(t, err, "unknown scene no-such-scene")
}
