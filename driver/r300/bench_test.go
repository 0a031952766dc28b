package r300_test

import (
	"math/rand"
	"testing"

	"github.com/retrogl/retrogl/bench"
	"github.com/retrogl/retrogl/bench/benchtest"
	"github.com/retrogl/retrogl/gles"
)

const benchW, benchH = 640, 480

// fillScene sets up DESIGN.md's standard full-screen quads.
type fillScene struct {
	tex, blend, depth, colors bool
}

func (f fillScene) setup(c *gles.Context) {
	c.Viewport(0, 0, benchW, benchH)
	c.MatrixMode(gles.PROJECTION)
	c.LoadIdentity()
	c.MatrixMode(gles.MODELVIEW)
	c.LoadIdentity()
	if f.tex {
		id := c.GenTextures(1)[0]
		c.BindTexture(gles.TEXTURE_2D, id)
		c.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 256, 256, 0, gles.RGBA, gles.UNSIGNED_BYTE, bench.Texture())
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
		c.Enable(gles.TEXTURE_2D)
		c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
		c.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		c.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 2, 0, 2, 2, 0, 2})
	}
	if f.blend {
		c.Enable(gles.BLEND)
		c.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
	}
	if f.depth {
		c.Enable(gles.DEPTH_TEST)
		c.DepthFunc(gles.LEQUAL)
	}
	c.EnableClientState(gles.VERTEX_ARRAY)
	if f.colors {
		c.EnableClientState(gles.COLOR_ARRAY)
		c.ColorPointer(4, gles.FLOAT, 0, []float32{1, 0, 0, 0.8, 0, 1, 0, 0.8, 0, 0, 1, 0.8, 1, 1, 1, 0.8})
	} else {
		c.Color4f(0.3, 0.6, 0.9, 1)
	}
}

func (f fillScene) frame(c *gles.Context) {
	c.ClearColor(0, 0, 0, 1)
	c.ClearDepthf(1)
	c.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	for q := 0; q < 8; q++ {
		z := 1 - 1.8*float32(q)/8
		c.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, z, 1, -1, z, 1, 1, z, -1, 1, z})
		c.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	}
	c.Finish()
}

func benchFill(b *testing.B, f fillScene) {
	c, err := gles.NewContext("r300", gles.Config{Width: benchW, Height: benchH, DepthBits: 24})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	f.setup(c)
	f.frame(c)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.frame(c)
	}
	b.StopTimer()
	if err := c.Err(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(8*benchW*benchH)*float64(b.N)/b.Elapsed().Seconds(), "pixels/s")
}

// BenchmarkFillTexBlend is DESIGN.md's fill-tex-blend scene at 640x480.
func BenchmarkFillTexBlend(b *testing.B) {
	benchFill(b, fillScene{tex: true, blend: true, depth: true, colors: true})
}

// BenchmarkFillFlat is fill-flat: one colour, no texture, blend or depth.
func BenchmarkFillFlat(b *testing.B) { benchFill(b, fillScene{}) }

// BenchmarkFillGouraud is fill-gouraud: per-vertex colours, depth test.
func BenchmarkFillGouraud(b *testing.B) { benchFill(b, fillScene{depth: true, colors: true}) }

// BenchmarkTinyTris draws 10,000 Gouraud triangles of about one pixel.
func BenchmarkTinyTris(b *testing.B) {
	c, err := gles.NewContext("r300", gles.Config{Width: benchW, Height: benchH})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	pixelOrtho(c, benchW, benchH)
	rng := rand.New(rand.NewSource(1))
	pos := make([]float32, 0, 3*2*10000)
	col := make([]float32, 0, 3*4*10000)
	for i := 0; i < 10000; i++ {
		x, y := rng.Float32()*(benchW-2), rng.Float32()*(benchH-2)
		pos = append(pos, x, y, x+1.5, y, x, y+1.5)
		for k := 0; k < 3; k++ {
			col = append(col, rng.Float32(), rng.Float32(), rng.Float32(), 1)
		}
	}
	c.EnableClientState(gles.VERTEX_ARRAY)
	c.EnableClientState(gles.COLOR_ARRAY)
	c.VertexPointer(2, gles.FLOAT, 0, pos)
	c.ColorPointer(4, gles.FLOAT, 0, col)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.DrawArrays(gles.TRIANGLES, 0, 30000)
		c.Finish()
	}
	b.StopTimer()
	b.ReportMetric(10000*float64(b.N)/b.Elapsed().Seconds(), "triangles/s")
}

// BenchmarkStandardScenes runs the standard scenes (DESIGN.md, package
// bench) at 640x480 with one shading worker, on the TCL backend and on the
// software vertex path, as rglbench measures them:
//
//	go test ./driver/r300 -run XXX -bench StandardScenes/r300/tiny-tris -benchmem
func BenchmarkStandardScenes(b *testing.B) {
	for _, backend := range []string{"r300", "r300-notcl"} {
		b.Run(backend, func(b *testing.B) { benchtest.Scenes(b, backend, 1) })
	}
}
