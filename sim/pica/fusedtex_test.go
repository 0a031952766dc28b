package pica

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	p "github.com/retrogl/retrogl/hal/pica"
)

// texShape rewrites the registers of a random pixel state so that it
// takes the fused textured chunk (fusedtex.go), but for the depth and
// stencil state, which stay random as in fusedShape: unit 0 alone
// enabled, an RGBA8 bilinear repeat texture of one level, stage 0
// MODULATE of texture 0 and the primary colour (in either order, the
// primary colour as source 0 or "previous"), the other stages passing,
// no alpha test, no fog, SRC_ALPHA blending into RGBA8 under a full
// mask. randomTriangle's half screen-aligned quads with one t along a
// row give the chunks a texel row constant along the row.
func texShape(r *rand.Rand, l *layout, w *p.Writer, dcm uint32) {
	pick := func(vs ...uint32) uint32 { return vs[r.IntN(len(vs))] }
	w.Write(p.COLORBUFFER_FORMAT, 0)
	w.Write(p.COLORBUFFER_WRITE, 0xF)
	w.Write(p.FRAGOP_ALPHA_TEST, 0)
	w.Write(p.TEXENV_UPDATE_BUFFER, uint32(r.IntN(256))<<8)
	w.Write(p.TEXUNIT_CONFIG, 1|1<<12)
	w.Write(p.TEXUNIT0_DIM, pick(8, 16, 32, 64)|pick(8, 16, 32, 64)<<16)
	w.Write(p.TEXUNIT0_PARAM, 1<<1|1<<2|2<<8|2<<12)
	w.Write(p.TEXUNIT0_LOD, 0)
	w.Write(p.TEXUNIT0_ADDR1, l.tex>>3)
	w.Write(p.TEXUNIT0_TYPE, 0)
	for s := 0; s < 6; s++ {
		src, fn := uint32(0x000F000F), uint32(0)
		if s == 0 {
			src = pick(3|0<<4, 0|3<<4, 15|3<<4) | pick(3|0<<4, 0|3<<4, 15|3<<4)<<16
			fn = 1 | 1<<16
		}
		w.Write(p.TexEnv(s, 0), src)
		w.Write(p.TexEnv(s, 1), 0)
		w.Write(p.TexEnv(s, 2), fn)
		w.Write(p.TexEnv(s, 4), 0)
	}
	fusedDepth(r, w, dcm)
	w.Write(p.COLOR_OPERATION, 0x00E40100)
	w.Write(p.BLEND_FUNC, 0x76760000)
}

// TestTexBenchSceneMatchesReference draws the fill-tex-blend scene
// (benchScene: its texel column lands on an integer every 25 pixels and
// its texel row on one every 15 rows, so the fused textured chunk's
// exact fallback runs for s alone, for t alone and with the colour from
// the lanes) through the reference and the fast path, with one and three
// workers, and compares every byte of the colour and depth buffers.
func TestTexBenchSceneMatchesReference(t *testing.T) {
	const w, h = 400, 240
	clear := bytes.Repeat([]byte{0xFF}, w*h*2) // depth 1.0
	render := func(reference bool, workers int) ([]byte, []byte) {
		d, cmd := benchScene(t, true)
		setReference(d, reference)
		d.SetWorkers(workers)
		a, err := d.Alloc(uint32(len(cmd)), 16, "fcram")
		require.NoError(t, err)
		require.NoError(t, d.Write(a.Addr, cmd))
		require.NoError(t, d.Write(VRAMBase+0x80000, clear))
		f, err := d.Submit(hal.Buffer{Addr: a.Addr, Size: uint32(len(cmd))})
		require.NoError(t, err)
		require.NoError(t, d.Wait(f))
		fb, z := make([]byte, w*h*4), make([]byte, w*h*2)
		require.NoError(t, d.Read(VRAMBase, fb))
		require.NoError(t, d.Read(VRAMBase+0x80000, z))
		return fb, z
	}
	fbRef, zRef := render(true, 1)
	for _, workers := range []int{1, 3} {
		fb, z := render(false, workers)
		require.True(t, bytes.Equal(fbRef, fb), "%d workers: colour buffer differs at byte %d", workers, firstDiff(fbRef, fb))
		require.True(t, bytes.Equal(zRef, z), "%d workers: depth buffer differs at byte %d", workers, firstDiff(zRef, z))
	}
}

// texChunkScene builds a scene of draw groups in texShape's state (the
// depth and stencil state random) whose triangles are halves of
// screen-aligned rectangles with a texture coordinate t that is constant
// along a row (sometimes constant on a texel row's middle), s affine in
// x and y over 0.2 to 6 texels a pixel either way, colours per vertex
// (some channels flat) and depths flat or sloped: the fused textured chunk's shapes, with
// blendCols and blend both taken. Memory as randomScene's.
func texChunkScene(r *rand.Rand, l *layout, groups int) (cmd []byte, mem map[uint32][]byte) {
	mem = sceneMemory(r, l, 1)
	var w p.Writer
	passShader(&w)
	w.Write(p.FRAMEBUFFER_DIM, uint32(l.w)|uint32(l.h-1)<<12|1<<24)
	for g := 0; g < groups; g++ {
		randomPixelState(r, l, &w)
		texShape(r, l, &w, uint32(r.IntN(2))|uint32(r.IntN(8))<<4|uint32(r.IntN(2))<<12)
		w.Write(p.PRIMITIVE_CONFIG, 0<<8|4)
		w.Write(p.RESTART_PRIMITIVE, 1)
		w.Write(p.FIXEDATTRIB_INDEX, 0xF)
		for q := 1 + r.IntN(3); q > 0; q-- {
			x0, y0 := r.Float32()*1.6-1.2, r.Float32()*1.6-1.2
			x1, y1 := x0+0.3+r.Float32()*1.2, y0+0.1+r.Float32()*1.2
			// s = s0 + sx·x + sy·y, t = t0 + ty·y: sx in texture widths
			// per clip unit (a clip unit is l.w/2 pixels).
			sx := (0.2 + 5.8*r.Float32()) * float32(l.w) / 2 / 64
			if r.IntN(2) == 0 {
				sx = -sx
			}
			s0, sy := r.Float32()*4-2, r.Float32()*2-1
			t0, ty := r.Float32()*4-2, r.Float32()*4-2
			if r.IntN(4) == 0 {
				t0, ty = (float32(r.IntN(64))+0.5)/64, 0
			}
			z := [4]float32{-r.Float32(), -r.Float32(), -r.Float32(), -r.Float32()}
			if r.IntN(2) == 0 {
				z[1], z[2], z[3] = z[0], z[0], z[0]
			}
			var col [4][4]float32
			for k := range col {
				col[k] = [4]float32{r.Float32(), r.Float32(), r.Float32(), r.Float32()}
			}
			for c := 0; c < 4; c++ {
				if r.IntN(3) == 0 { // a flat channel (the lanes' flat bits)
					for k := 1; k < 4; k++ {
						col[k][c] = col[0][c]
					}
				}
			}
			corners := [4][2]float32{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
			for _, k := range []int{0, 1, 2, 0, 2, 3} {
				x, y := corners[k][0], corners[k][1]
				attrs := [5][4]float32{{x, y, z[k], 1}, col[k], {s0 + sx*x + sy*y, t0 + ty*y, 0, 1}, {}, {}}
				for _, a := range attrs {
					pk := p.PackF24x4(p.ToF24(a[0]), p.ToF24(a[1]), p.ToF24(a[2]), p.ToF24(a[3]))
					w.Seq(p.FIXEDATTRIB_DATA0, pk[0], pk[1], pk[2])
				}
			}
		}
	}
	w.Finalize()
	return w.Bytes(), mem
}

// TestTexChunkMatchesReference renders texChunkScene's scenes through the
// fast span pipeline (one and three workers) and the per-pixel reference
// and compares every byte of the colour and depth buffers and the
// counters (a third of them on the wide target).
func TestTexChunkMatchesReference(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 40
	}
	seedsMatchReference(t, n, 7, 3, 4, texChunkScene)
}
