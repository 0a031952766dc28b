package unichrome_test

import (
	"syscall"
	"testing"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/bench"
	"github.com/retrogl/retrogl/gles"
)

// benchScene runs a standard scene (DESIGN.md) at 640x480 on one worker
// and reports the CPU time of a frame besides the wall clock's pixels/s:
//
//	go test ./sim/unichrome -run XXX -bench Scene -benchtime 10x
func benchScene(b *testing.B, name string) {
	s, err := bench.Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	ctx, err := gles.NewContext("unichrome", gles.Config{Width: 640, Height: 480, DepthBits: 16, Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer ctx.Close()
	s.Setup(ctx)
	s.Frame(ctx)
	if err := ctx.Err(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	c0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		s.Frame(ctx)
	}
	cpu := cpuSeconds() - c0
	b.ReportMetric(float64(s.Pixels(640, 480)*b.N)/b.Elapsed().Seconds()/1e6, "Mpix/s")
	b.ReportMetric(1000*cpu/float64(b.N), "cpu-ms/op")
}

func BenchmarkSceneTexBlend(b *testing.B) { benchScene(b, "fill-tex-blend") }
func BenchmarkSceneFlat(b *testing.B)     { benchScene(b, "fill-flat") }
func BenchmarkSceneGouraud(b *testing.B)  { benchScene(b, "fill-gouraud") }
func BenchmarkSceneTiny(b *testing.B)     { benchScene(b, "tiny-tris") }

// cpuSeconds is the process's CPU time: on a loaded machine a steadier
// measure than the wall clock.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
