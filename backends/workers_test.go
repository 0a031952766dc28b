package backends_test

import (
	"image"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/bench"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
)

// TestWorkersSameBytes renders, on every backend, the standard benchmark
// scenes (two frames each, at the chip's natural size) and every example
// scene with 1, 2, 3 and 8 workers sharing the pixel work
// (gles.Config.Workers, the device's hal.Parallel): every pixel must be
// the same.
func TestWorkersSameBytes(t *testing.T) {
	for _, backend := range backends.Names() {
		if strings.HasPrefix(backend, "test-") {
			continue
		}
		t.Run(backend, func(t *testing.T) { workersSameBytes(t, backend) })
	}
}

func workersSameBytes(t *testing.T, backend string) {
	type run struct {
		name string
		cfg  gles.Config
		draw func(ctx *gles.Context)
	}
	var runs []run
	w, h := bench.NaturalSize(backend)
	for _, sc := range bench.Scenes() {
		runs = append(runs, run{"bench/" + sc.Name, gles.Config{Width: w, Height: h, DepthBits: 16}, func(ctx *gles.Context) {
			sc.Setup(ctx)
			sc.Frame(ctx)
			sc.Frame(ctx)
		}})
	}
	for _, sc := range scenes.All() {
		runs = append(runs, run{sc.Name, sc.Config, func(ctx *gles.Context) { _ = sc.Draw(ctx) }})
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			var want *image.NRGBA
			for _, workers := range []int{1, 2, 3, 8} {
				cfg := r.cfg
				cfg.Workers = workers
				ctx, err := gles.NewContext(backend, cfg)
				require.NoError(t, err)
				r.draw(ctx)
				ctx.Finish()
				img, ok := ctx.Image().(*image.NRGBA)
				require.True(t, ok)
				ctx.Close()
				if want == nil {
					want = img
					continue
				}
				require.Equal(t, want.Pix, img.Pix, "%d workers", workers)
			}
		})
	}
}
