package glamo_test

import (
	"math/rand"
	"syscall"
	"testing"
	"time"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

// The standard scenes of DESIGN.md at the Glamo's natural size, 480x480.
const benchSize = 480

// quadScene sets up the eight full-screen quads of the fill scenes.
type quadScene struct {
	pos, col, tc []float32
}

func newQuads() *quadScene {
	s := &quadScene{}
	for q := 0; q < 8; q++ {
		z := 1 - 1.8*float32(q)/8
		corners := [][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}}
		for i, c := range corners {
			s.pos = append(s.pos, c[0], c[1], z)
			k := float32((i + q) % 3)
			s.col = append(s.col, 0.3+0.3*k, 0.9-0.3*k, 0.5, 0.8)
			s.tc = append(s.tc, (c[0] + 1), (c[1] + 1))
		}
	}
	return s
}

// benchTexture is the 256x256 texel (x, y, 255 if ((x>>4) xor (y>>4)) odd
// else 0, 200) texture.
func benchTexture() []byte {
	img := make([]byte, 256*256*4)
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			p := img[4*(y*256+x):]
			p[0], p[1], p[3] = uint8(x), uint8(y), 200
			if ((x>>4)^(y>>4))&1 == 1 {
				p[2] = 255
			}
		}
	}
	return img
}

type fillKind int

const (
	fillTexBlend fillKind = iota
	fillFlat
	fillGouraud
)

// setupFill prepares the GL state of a fill scene and returns a function
// that draws one frame.
func setupFill(ctx *gles.Context, kind fillKind) func() {
	s := newQuads()
	ctx.Viewport(0, 0, benchSize, benchSize)
	ctx.MatrixMode(gles.PROJECTION)
	ctx.LoadIdentity()
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.LoadIdentity()
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, s.pos)
	switch kind {
	case fillTexBlend:
		tex := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, tex[0])
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 256, 256, 0, gles.RGBA, gles.UNSIGNED_BYTE, benchTexture())
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_S, int(gles.REPEAT))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_T, int(gles.REPEAT))
		ctx.Enable(gles.TEXTURE_2D)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
		ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		ctx.TexCoordPointer(2, gles.FLOAT, 0, s.tc)
		ctx.Enable(gles.BLEND)
		ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
		fallthrough
	case fillGouraud:
		ctx.EnableClientState(gles.COLOR_ARRAY)
		ctx.ColorPointer(4, gles.FLOAT, 0, s.col)
		ctx.Enable(gles.DEPTH_TEST)
		ctx.DepthFunc(gles.LEQUAL)
	case fillFlat:
		ctx.Color4f(0.2, 0.6, 0.9, 1)
		ctx.Disable(gles.DITHER)
	}
	return func() {
		ctx.ClearColor(0.1, 0.1, 0.1, 1)
		ctx.ClearDepthf(1)
		ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
		ctx.DrawArrays(gles.TRIANGLES, 0, 48)
	}
}

// setupTiny prepares 10,000 Gouraud triangles of about one pixel each.
func setupTiny(ctx *gles.Context) func() {
	r := rand.New(rand.NewSource(1))
	var pos, col []float32
	px := 2.0 / benchSize
	for i := 0; i < 10000; i++ {
		x := float32(r.Float64()*1.9 - 0.95)
		y := float32(r.Float64()*1.9 - 0.95)
		pos = append(pos, x, y, 0, x+float32(1.5*px), y, 0, x, y+float32(1.5*px), 0)
		for k := 0; k < 3; k++ {
			col = append(col, r.Float32(), r.Float32(), r.Float32(), 1)
		}
	}
	ctx.Viewport(0, 0, benchSize, benchSize)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, pos)
	ctx.ColorPointer(4, gles.FLOAT, 0, col)
	return func() {
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.DrawArrays(gles.TRIANGLES, 0, 30000)
	}
}

func runBench(b *testing.B, setup func(ctx *gles.Context) func(), pixelsPerFrame, trisPerFrame float64) {
	ctx, err := gles.NewContext("glamo3365", gles.Config{Width: benchSize, Height: benchSize, DepthBits: 16})
	if err != nil {
		b.Fatal(err)
	}
	defer ctx.Close()
	frame := setup(ctx)
	frame()
	ctx.Finish()
	if err := ctx.Err(); err != nil {
		b.Fatal(err)
	}
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		frame()
		ctx.Finish()
	}
	b.StopTimer()
	// CPU time of the whole process per frame: on a loaded machine the
	// wall-clock figures understate the simulator; this one does not.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/frame")
	if err := ctx.Err(); err != nil {
		b.Fatal(err)
	}
	sec := b.Elapsed().Seconds()
	if pixelsPerFrame > 0 {
		mpx := pixelsPerFrame * float64(b.N) / sec
		b.ReportMetric(mpx/1e6, "Mpixels/s")
		b.ReportMetric(mpx/33e6, "x-datasheet-fill")
	}
	tps := trisPerFrame * float64(b.N) / sec
	b.ReportMetric(tps, "tris/s")
	if pixelsPerFrame == 0 {
		b.ReportMetric(tps/1e6, "x-datasheet-polys")
	}
}

// BenchmarkFillTexBlend is DESIGN.md's fill-tex-blend at 480x480.
func BenchmarkFillTexBlend(b *testing.B) {
	runBench(b, func(ctx *gles.Context) func() { return setupFill(ctx, fillTexBlend) }, 8*benchSize*benchSize, 16)
}

// BenchmarkFillFlat is fill-flat at 480x480.
func BenchmarkFillFlat(b *testing.B) {
	runBench(b, func(ctx *gles.Context) func() { return setupFill(ctx, fillFlat) }, 8*benchSize*benchSize, 16)
}

// BenchmarkFillGouraud is fill-gouraud at 480x480.
func BenchmarkFillGouraud(b *testing.B) {
	runBench(b, func(ctx *gles.Context) func() { return setupFill(ctx, fillGouraud) }, 8*benchSize*benchSize, 16)
}

// BenchmarkTinyTris is tiny-tris: 10,000 one-pixel Gouraud triangles.
func BenchmarkTinyTris(b *testing.B) {
	runBench(b, setupTiny, 0, 10000)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
