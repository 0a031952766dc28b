package pspge_test

import (
	"testing"

	"github.com/retrogl/retrogl/bench/benchtest"
)

// BenchmarkStandardScenes runs DESIGN.md's standard scenes (package bench:
// fill-tex-blend, fill-flat, fill-gouraud, tiny-tris) at the PSP's 480x272
// through the whole stack (gles, driver, simulated GE):
//
//	go test ./driver/pspge -run '^$' -bench StandardScenes -benchtime 20x
//
// Each reports pixels/s and triangles/s (the same figures as
// cmd/rglbench -backend pspge).
func BenchmarkStandardScenes(b *testing.B) { benchtest.Scenes(b, "pspge", 0) }
