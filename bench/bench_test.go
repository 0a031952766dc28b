package bench

import (
	"testing"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
)

// BenchmarkScenes runs every standard scene on every backend at its natural
// size, reporting pixels/s and triangles/s:
//
//	go test ./bench -bench . -benchtime 20x
func BenchmarkScenes(b *testing.B) {
	for _, backend := range driver.Names() {
		for _, s := range Scenes() {
			b.Run(backend+"/"+s.Name, func(b *testing.B) {
				w, h := NaturalSize(backend)
				ctx, err := gles.NewContext(backend, gles.Config{Width: w, Height: h, DepthBits: 16})
				if err != nil {
					b.Fatal(err)
				}
				defer ctx.Close()
				if f, missing := s.Missing(ctx.Caps()); missing {
					b.Skipf("%s lacks %v", backend, f)
				}
				s.Setup(ctx)
				s.Frame(ctx)
				if err := ctx.Err(); err != nil {
					b.Skipf("%s: %v", backend, err)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					s.Frame(ctx)
				}
				sec := b.Elapsed().Seconds()
				b.ReportMetric(float64(s.Pixels(w, h)*b.N)/sec, "pixels/s")
				b.ReportMetric(float64(s.Triangles*b.N)/sec, "tris/s")
			})
		}
	}
}

// TestScenesRender runs one frame of each scene on each backend that has
// the features, checking no GL error is raised.
func TestScenesRender(t *testing.T) {
	for _, backend := range driver.Names() {
		for _, s := range Scenes() {
			ctx, err := gles.NewContext(backend, gles.Config{Width: 64, Height: 48, DepthBits: 16})
			if err != nil {
				t.Fatal(err)
			}
			if _, missing := s.Missing(ctx.Caps()); !missing {
				s.Setup(ctx)
				s.Frame(ctx)
				if err := ctx.Err(); err != nil {
					t.Errorf("%s/%s: %v", backend, s.Name, err)
				}
			}
			ctx.Close()
		}
	}
}
