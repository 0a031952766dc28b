package pspge_test

import (
	"testing"

	"github.com/retrogl/retrogl/bench"
	"github.com/retrogl/retrogl/gles"
)

// BenchmarkStandardScenes runs DESIGN.md's standard scenes (package bench:
// fill-tex-blend, fill-flat, fill-gouraud, tiny-tris) at the PSP's 480x272
// through the whole stack (gles, driver, simulated GE):
//
//	go test ./driver/pspge -run '^$' -bench StandardScenes -benchtime 20x
//
// Each reports pixels/s and triangles/s (the same figures as
// cmd/rglbench -backend pspge).
func BenchmarkStandardScenes(b *testing.B) {
	w, h := bench.NaturalSize("pspge")
	for _, sc := range bench.Scenes() {
		b.Run(sc.Name, func(b *testing.B) {
			ctx, err := gles.NewContext("pspge", gles.Config{Width: w, Height: h, DepthBits: 16})
			if err != nil {
				b.Fatal(err)
			}
			defer ctx.Close()
			sc.Setup(ctx)
			sc.Frame(ctx)
			if err := ctx.Err(); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				sc.Frame(ctx)
			}
			b.StopTimer()
			s := b.Elapsed().Seconds()
			b.ReportMetric(float64(sc.Pixels(w, h)*b.N)/s, "pixels/s")
			b.ReportMetric(float64(sc.Triangles*b.N)/s, "triangles/s")
		})
	}
}
