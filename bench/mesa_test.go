package bench

import (
	"image"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/examples/compare"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/internal/testenv"
	"github.com/retrogl/retrogl/tools/mesaref"
)

// TestMesaDrawsTheSameScenes checks that the Mesa benchmark program
// (tools/mesaref/bench.c, which rglbench -mesa times) draws each standard
// scene as the backends do: every backend's image of one frame is within
// its examples/compare tolerance of softpipe's, at the backend's natural
// size. A scene changed on one side only fails here.
func TestMesaDrawsTheSameScenes(t *testing.T) {
	names := make([]string, 0, len(Scenes()))
	for _, s := range Scenes() {
		names = append(names, s.Name)
	}
	require.Equal(t, names, mesaref.BenchScenes, "the Mesa program's scenes")
	testenv.Need(t, mesaref.Package, mesaref.Available())
	backends := driver.Names()
	if testing.Short() {
		backends = []string{"r300"}
	}
	refs := map[[3]any]*image.NRGBA{}
	for _, backend := range backends {
		w, h := NaturalSize(backend)
		for _, s := range Scenes() {
			ctx, err := gles.NewContext(backend, gles.Config{Width: w, Height: h, DepthBits: 16})
			require.NoError(t, err)
			if _, missing := s.Missing(ctx.Caps()); missing {
				ctx.Close()
				continue
			}
			s.Setup(ctx)
			s.Frame(ctx)
			got := ctx.Image()
			require.NoError(t, ctx.Err())
			ctx.Close()

			key := [3]any{s.Name, w, h}
			ref := refs[key]
			if ref == nil {
				run, err := mesaref.Bench(mesaref.Softpipe, s.Name, w, h, mesaref.BenchOptions{Frames: 1, Image: true})
				require.NoError(t, err, s.Name)
				ref = run.Image
				refs[key] = ref
			}
			tol := compare.For(backend)
			res, err := compare.Images(got, ref, tol.Threshold)
			require.NoError(t, err)
			require.True(t, res.Pass(tol), "%s %s: %v (tolerance %d, %.2f%%)", backend, s.Name, res, tol.Threshold, 100*tol.MaxBad)
			t.Logf("%s %s: %v", backend, s.Name, res)
		}
	}
}
