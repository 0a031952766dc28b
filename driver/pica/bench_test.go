package pica_test

import (
	"testing"

	"github.com/retrogl/retrogl/gles"
	picasim "github.com/retrogl/retrogl/sim/pica"
)

// The standard scenes of DESIGN.md at the 3DS top screen's 400x240:
// fill-tex-blend, fill-gouraud and fill-flat, 8 full-screen quads per frame.
// Run with: go test ./driver/pica/ -run XXX -bench . -benchtime 20x

func standardTexture() []byte {
	b := make([]byte, 256*256*4)
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			o := 4 * (y*256 + x)
			b[o], b[o+1] = byte(x), byte(y)
			if ((x>>4)^(y>>4))&1 != 0 {
				b[o+2] = 255
			}
			b[o+3] = 200
		}
	}
	return b
}

func benchScene(b *testing.B, tex, blend, depth, gouraud bool) {
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 400, Height: 240, DepthBits: 24})
	if err != nil {
		b.Fatal(err)
	}
	defer ctx.Close()
	if tex {
		ids := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, ids[0])
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 256, 256, 0, gles.RGBA, gles.UNSIGNED_BYTE, standardTexture())
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
		ctx.Enable(gles.TEXTURE_2D)
	}
	if blend {
		ctx.Enable(gles.BLEND)
		ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
	}
	if depth {
		ctx.Enable(gles.DEPTH_TEST)
		ctx.DepthFunc(gles.LEQUAL)
	}
	dev := ctx.Backend().Device().(*picasim.Device)
	frame := func() {
		ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
		for q := 0; q < 8; q++ {
			z := 1 - 1.8*float32(q)/8
			if gouraud {
				quad(ctx, z, tex)
			} else {
				ctx.DisableClientState(gles.COLOR_ARRAY)
				ctx.Color4f(0.2, 0.6, 0.9, 1)
				ctx.EnableClientState(gles.VERTEX_ARRAY)
				ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, z, 1, -1, z, 1, 1, z, -1, 1, z})
				ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
			}
		}
		ctx.Finish()
	}
	frame()
	if err := ctx.Err(); err != nil {
		b.Fatal(err)
	}
	v0, p0 := dev.GPU.Vertices, dev.GPU.Pixels
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		frame()
	}
	b.StopTimer()
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(8*400*240*b.N)/sec, "pixels/s")
	b.ReportMetric(float64(dev.GPU.Vertices-v0)/sec, "vertices/s")
	b.ReportMetric(float64(dev.GPU.Pixels-p0)/float64(b.N), "shaded-px/frame")
}

func BenchmarkFillTexBlend(b *testing.B) { benchScene(b, true, true, true, true) }
func BenchmarkFillGouraud(b *testing.B)  { benchScene(b, false, false, true, true) }
func BenchmarkFillFlat(b *testing.B)     { benchScene(b, false, false, false, false) }

// BenchmarkTinyTris draws 10,000 one-pixel Gouraud triangles per frame:
// the vertex path (CPU packing, shader unit, setup) dominates.
func BenchmarkTinyTris(b *testing.B) {
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 400, Height: 240})
	if err != nil {
		b.Fatal(err)
	}
	defer ctx.Close()
	const n = 10000
	pos := make([]float32, 0, n*6)
	col := make([]float32, 0, n*12)
	for i := 0; i < n; i++ {
		x := -1 + 2*float32(i%400)/400
		y := -1 + 2*float32(i/400)/240
		pos = append(pos, x, y, x+2.0/400, y, x, y+2.0/240)
		col = append(col, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1)
	}
	dev := ctx.Backend().Device().(*picasim.Device)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, pos)
	ctx.ColorPointer(4, gles.FLOAT, 0, col)
	v0 := dev.GPU.Vertices
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ctx.DrawArrays(gles.TRIANGLES, 0, 3*n)
		ctx.Finish()
	}
	b.StopTimer()
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(n*b.N)/sec, "triangles/s")
	b.ReportMetric(float64(dev.GPU.Vertices-v0)/sec, "vertices/s")
}
