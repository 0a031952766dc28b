package pspge_test

import (
	"testing"

	"github.com/retrogl/retrogl/gles"
)

// The standard scenes of DESIGN.md ("The standard scenes") at the PSP's
// 480x272, through the whole stack (gles, driver, simulated GE). Run:
//
//	go test ./driver/pspge -run '^$' -bench . -benchtime 20x
//
// Each reports pixels/s (8 x 480 x 272 covered pixels per frame for the
// fill scenes) and triangles/s.

const benchW, benchH = 480, 272

func benchCtx(b *testing.B) *gles.Context {
	ctx, err := gles.NewContext("pspge", gles.Config{Width: benchW, Height: benchH, DepthBits: 16})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ctx.Close() })
	return ctx
}

// quads returns the 8 full-screen quads (two triangles each) at depths
// z = 1 - 1.8*q/8, with per-vertex colours of alpha 0.8 and texture
// coordinates 0..2.
func quads() (pos, col, tex []float32) {
	for q := 0; q < 8; q++ {
		z := 1 - 1.8*float32(q)/8
		corners := [][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}}
		for i, c := range corners {
			pos = append(pos, c[0], c[1], z)
			k := float32((i+q)%3) / 2
			col = append(col, k, 1-k, 0.5, 0.8)
			tex = append(tex, (c[0] + 1), (c[1] + 1))
		}
	}
	return
}

func checkerTexture() []uint8 {
	pix := make([]uint8, 256*256*4)
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			o := 4 * (y*256 + x)
			pix[o], pix[o+1], pix[o+3] = uint8(x), uint8(y), 200
			if ((x>>4)^(y>>4))&1 != 0 {
				pix[o+2] = 255
			}
		}
	}
	return pix
}

func runFill(b *testing.B, setup func(ctx *gles.Context)) {
	ctx := benchCtx(b)
	pos, col, tex := quads()
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, pos)
	ctx.ColorPointer(4, gles.FLOAT, 0, col)
	ctx.TexCoordPointer(2, gles.FLOAT, 0, tex)
	setup(ctx)
	frame := func() {
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
		ctx.DrawArrays(gles.TRIANGLES, 0, 48)
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
	b.StopTimer()
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(8*benchW*benchH*b.N)/s, "pixels/s")
	b.ReportMetric(float64(16*b.N)/s, "triangles/s")
}

// BenchmarkFillTexBlend is fill-tex-blend: bilinear 256x256 8888 texture,
// modulate, SRC_ALPHA/ONE_MINUS_SRC_ALPHA, depth LEQUAL.
func BenchmarkFillTexBlend(b *testing.B) {
	runFill(b, func(ctx *gles.Context) {
		ids := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, ids[0])
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 256, 256, 0, gles.RGBA, gles.UNSIGNED_BYTE, checkerTexture())
		ctx.Enable(gles.TEXTURE_2D)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
		ctx.EnableClientState(gles.COLOR_ARRAY)
		ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		ctx.Enable(gles.BLEND)
		ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
		ctx.Enable(gles.DEPTH_TEST)
		ctx.DepthFunc(gles.LEQUAL)
	})
}

// BenchmarkFillFlat is fill-flat: one flat colour, no texture, blending or
// depth test.
func BenchmarkFillFlat(b *testing.B) {
	runFill(b, func(ctx *gles.Context) {
		ctx.Color4f(0.2, 0.4, 0.6, 1)
		ctx.ShadeModel(gles.FLAT)
	})
}

// BenchmarkFillGouraud is fill-gouraud: per-vertex colours and the depth
// test.
func BenchmarkFillGouraud(b *testing.B) {
	runFill(b, func(ctx *gles.Context) {
		ctx.EnableClientState(gles.COLOR_ARRAY)
		ctx.Enable(gles.DEPTH_TEST)
		ctx.DepthFunc(gles.LEQUAL)
	})
}

// BenchmarkTinyTris is tiny-tris: 10,000 Gouraud triangles of about one
// pixel each.
func BenchmarkTinyTris(b *testing.B) {
	ctx := benchCtx(b)
	const n = 10000
	pos := make([]float32, 0, n*9)
	col := make([]float32, 0, n*12)
	for i := 0; i < n; i++ {
		x := float32(i%400) + 40
		y := float32(i/400)*8 + 20
		// A right triangle with 1.5-pixel legs, in window pixels mapped to
		// clip space.
		for _, d := range [][2]float32{{0, 0}, {1.5, 0}, {0, 1.5}} {
			pos = append(pos, (x+d[0])/benchW*2-1, (y+d[1])/benchH*2-1, 0)
		}
		col = append(col, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1)
	}
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, pos)
	ctx.ColorPointer(4, gles.FLOAT, 0, col)
	frame := func() {
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.DrawArrays(gles.TRIANGLES, 0, 3*n)
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
	b.StopTimer()
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "triangles/s")
}
