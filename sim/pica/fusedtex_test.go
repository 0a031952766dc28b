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
	if r.IntN(2) == 0 { // a depth test of any function, and writes
		dcm = dcm&^0x70 | uint32(r.IntN(8))<<4 | 1 | 1<<12
		w.Write(p.DEPTHBUFFER_WRITE, 3)
	}
	w.Write(p.DEPTH_COLOR_MASK, dcm|0xF<<8)
	if r.IntN(2) == 0 { // D16 or D24S8, no stencil test
		w.Write(p.DEPTHBUFFER_FORMAT, uint32(r.IntN(2))*3)
		w.Write(p.STENCIL_TEST, 0)
	}
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
