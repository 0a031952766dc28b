// Package benchtest runs the standard scenes (package bench, DESIGN.md) as Go
// benchmarks, so that every driver package measures them the same way
// cmd/rglbench does: one context at the backend's natural size, one untimed
// frame, then timed frames reporting pixels/s and triangles/s.
package benchtest

import (
	"testing"

	"github.com/retrogl/retrogl/bench"
	"github.com/retrogl/retrogl/gles"
)

// Scenes runs every standard scene on backend as a sub-benchmark named after
// the scene. workers sets the simulator's shading goroutines (0: the
// device's default, GOMAXPROCS).
func Scenes(b *testing.B, backend string, workers int) {
	b.Helper()
	w, h := bench.NaturalSize(backend)
	for _, sc := range bench.Scenes() {
		b.Run(sc.Name, func(b *testing.B) {
			ctx, err := gles.NewContext(backend, gles.Config{Width: w, Height: h, DepthBits: 16, Workers: workers})
			if err != nil {
				b.Fatalf("%s: %v", backend, err)
			}
			defer ctx.Close()
			sc.Setup(ctx)
			sc.Frame(ctx)
			if err := ctx.Err(); err != nil {
				b.Fatalf("%s %s: first frame: %v", backend, sc.Name, err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				sc.Frame(ctx)
			}
			b.StopTimer()
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(sc.Pixels(w, h)*b.N)/sec, "pixels/s")
			b.ReportMetric(float64(sc.Triangles*b.N)/sec, "triangles/s")
		})
	}
}
