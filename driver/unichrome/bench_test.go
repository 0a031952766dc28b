package unichrome_test

import (
	"math"
	"testing"

	"github.com/retrogl/retrogl/bench/benchtest"
	"github.com/retrogl/retrogl/gles"
)

// BenchmarkStandardScenes runs the standard scenes (DESIGN.md) at the
// UniChrome's natural 640x480:
//
//	go test ./driver/unichrome -run XXX -bench StandardScenes -benchtime 5x
func BenchmarkStandardScenes(b *testing.B) { benchtest.Scenes(b, "unichrome", 0) }

// vertexHeavy builds a lit, fogged grid of n x n quads (two triangles
// each) with normals and colours, drawn with 16-bit indices: the work is
// in software T&L, the triangles are small.
func vertexHeavy(n int) (pos, nrm, col []float32, idx []uint16) {
	for y := 0; y <= n; y++ {
		for x := 0; x <= n; x++ {
			fx, fy := float32(x)/float32(n)*2-1, float32(y)/float32(n)*2-1
			z := float32(0.2 * math.Sin(float64(fx*4)) * math.Cos(float64(fy*4)))
			pos = append(pos, fx*0.9, fy*0.9, z-2)
			nrm = append(nrm, -fx*0.3, -fy*0.3, 1)
			col = append(col, float32(x)/float32(n), float32(y)/float32(n), 0.5, 1)
		}
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			i := uint16(y*(n+1) + x)
			j := i + uint16(n+1)
			idx = append(idx, i, i+1, j+1, i, j+1, j)
		}
	}
	return
}

// BenchmarkVertexHeavy measures software T&L throughput (vertices/s, each
// index counted) with two lights, fog and the perspective divide, at
// 640x480.
func BenchmarkVertexHeavy(b *testing.B) {
	const n = 100
	pos, nrm, col, idx := vertexHeavy(n)
	ctx, err := gles.NewContext("unichrome", gles.Config{Width: 640, Height: 480, DepthBits: 16})
	if err != nil {
		b.Fatal(err)
	}
	defer ctx.Close()
	ctx.MatrixMode(gles.PROJECTION)
	ctx.Frustumf(-1, 1, -0.75, 0.75, 1, 10)
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.Enable(gles.LIGHTING)
	ctx.Enable(gles.LIGHT0)
	ctx.Enable(gles.LIGHT1)
	ctx.Lightfv(gles.LIGHT1, gles.POSITION, []float32{1, 1, 0, 1})
	ctx.Enable(gles.COLOR_MATERIAL)
	ctx.Enable(gles.FOG)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.NORMAL_ARRAY)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, pos)
	ctx.NormalPointer(gles.FLOAT, 0, nrm)
	ctx.ColorPointer(4, gles.FLOAT, 0, col)
	frame := func() {
		ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
		ctx.DrawElements(gles.TRIANGLES, len(idx), gles.UNSIGNED_SHORT, idx)
		ctx.Finish()
	}
	frame()
	if err := ctx.Err(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		frame()
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(len(idx)*b.N)/sec, "vertices/s")
	b.ReportMetric(float64(len(idx)/3*b.N)/sec, "tris/s")
}
