package pspge

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	ge "github.com/retrogl/retrogl/hal/pspge"
)

// Memory map of the span-pipeline comparison: a 128x96 drawing area at
// VRAM offset 0 (stride 128), the depth buffer after it, textures, CLUT
// and vertices in RAM.
const (
	cmpW, cmpH = 128, 96
	cmpZ       = 0x40000 // VRAM offset of the usual depth buffer
	cmpVRAM    = 0x80000 // VRAM bytes randomised and compared
	cmpTex     = RAMBase + 0x100000
	cmpTexSize = 0x80000 // 8 levels of 0x10000
	cmpClut    = RAMBase + 0x200000
	cmpVtx     = RAMBase + 0x300000
	cmpList    = RAMBase
)

// cmpCase is one random state: its display list and the memory it reads.
type cmpCase struct {
	vram, tex, clut, vtx []byte
	list                 []uint32
}

// randomCaseBiased draws a random GE state, memory and primitive list.
// Every field is drawn from the values the simulator accepts, plus a few
// it rejects (the two paths must fault alike), with the usual states more
// likely; sometimes the depth buffer or a texture overlaps the colour
// buffer, which the fast path must leave to the reference path. With rows
// set, every state has the fast texture state, a depth test that keeps
// some pixels of a chunk and not others (LESS, LEQUAL, GREATER or GEQUAL)
// and, in each primitive, t tied to the row: the paths taken only when
// t/w is the same along a row (tvConst), with chunks whose pixels partly
// fail the test.
func randomCaseBiased(r *rand.Rand, rows bool) *cmpCase {
	c := &cmpCase{vram: make([]byte, cmpVRAM), tex: make([]byte, cmpTexSize), clut: make([]byte, 1024)}
	for _, b := range [][]byte{c.vram, c.tex, c.clut} {
		for i := range b {
			b[i] = uint8(r.UintN(256))
		}
	}
	bit := func(p int) uint32 { // set with probability p/100
		if r.IntN(100) < p {
			return 1
		}
		return 0
	}
	pick := func(vs ...uint32) uint32 { return vs[r.IntN(len(vs))] }
	pickF := func(vs ...float32) float32 { return vs[r.IntN(len(vs))] }
	w := func(op ge.Op, arg uint32) { c.list = append(c.list, ge.Word(op, arg)) }
	wf := func(op ge.Op, f float32) { c.list = append(c.list, ge.WordF(op, f)) }

	// A plain state has no per-fragment operation but the depth and
	// stencil tests (target.simple, the packed path's direct writes); an
	// over state adds only the SRC_ALPHA, ONE_MINUS_SRC_ALPHA blend
	// (pipe.over). Both favour the 8888 colour buffer.
	kind := r.IntN(8)
	plain, over := kind < 2, kind == 2
	psm := uint32(r.IntN(4))
	if (plain || over) && bit(50) == 1 {
		psm = 3
	}
	w(ge.PSM, psm)
	w(ge.FBP, 0)
	w(ge.FBW, pick(cmpW, cmpW, cmpW+64))
	zbp := uint32(cmpZ)
	if bit(5) == 1 {
		zbp = pick(0, 0x100, 0x3F000) // overlapping the colour buffer
	}
	w(ge.ZBP, zbp)
	w(ge.ZBW, pick(cmpW, cmpW, cmpW, 64, 256))
	x0, y0 := uint32(r.IntN(8)), uint32(r.IntN(8))
	x1, y1 := uint32(cmpW-1-r.IntN(8)), uint32(cmpH-1-r.IntN(8))
	if bit(50) == 1 {
		x0, y0, x1, y1 = 0, 0, cmpW-1, cmpH-1
	}
	w(ge.SCISSOR1, x0|y0<<10)
	w(ge.SCISSOR2, x1|y1<<10)
	w(ge.REGION2, pick(cmpW-1|(cmpH-1)<<10, 1023|1023<<10, 100|80<<10))

	// Viewport: clip (-1..1) onto the drawing area, depth onto 0..65535.
	w(ge.OFFSETX, (2048-cmpW/2)<<4)
	w(ge.OFFSETY, (2048-cmpH/2)<<4)
	wf(ge.XSCALE, cmpW/2)
	wf(ge.YSCALE, -cmpH/2)
	wf(ge.XPOS, 2048)
	wf(ge.YPOS, 2048)
	wf(ge.ZSCALE, float32(pick(32767, 20000, 40000)))
	wf(ge.ZPOS, float32(pick(32768, 30000)))
	nz, fz := uint32(0), uint32(0xFFFF)
	if bit(25) == 1 {
		nz, fz = uint32(r.IntN(30000)), uint32(35000+r.IntN(30536))
	}
	w(ge.NEARZ, nz)
	w(ge.FARZ, fz)
	// Matrices: WORLD and VIEW identity, PROJ with w = 1 + k*z, so that
	// texture coordinates interpolate perspective-correctly and some
	// triangles cross the near plane.
	k := pickF(0, 0, 0.5, 0.25)
	for _, m := range []struct {
		sel, data ge.Op
		vals      []float32
	}{
		{ge.WMS, ge.WORLD, []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}},
		{ge.VMS, ge.VIEW, []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}},
		{ge.PMS, ge.PROJ, []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, k, 0, 0, 0, 1}},
	} {
		w(m.sel, 0)
		for _, v := range m.vals {
			wf(m.data, v)
		}
	}

	clearMode := bit(12) == 1
	if clearMode {
		w(ge.CLEAR, 1|uint32(r.IntN(8))<<8)
	} else {
		w(ge.CLEAR, 0)
	}
	off := func(p int) uint32 { // bit(p), or 0 in a plain or over state
		if v := bit(p); !plain && !over {
			return v
		}
		return 0
	}
	w(ge.SHADE, bit(80))
	w(ge.BCE, bit(20))
	w(ge.FFACE, bit(50))
	if rows {
		w(ge.ZTE, 1)
		w(ge.ZTST, uint32(4+r.IntN(4)))
	} else {
		w(ge.ZTE, bit(60))
		w(ge.ZTST, uint32(r.IntN(8)))
	}
	w(ge.ZMSK, bit(20))
	w(ge.ATE, off(20))
	w(ge.ATST, uint32(r.IntN(8))|uint32(r.IntN(256))<<8|pick(0xFF, 0xFF, 0xF0)<<16)
	w(ge.CTE, off(10))
	w(ge.CTST, uint32(r.IntN(4)))
	w(ge.CREF, r.Uint32()&0xFFFFFF)
	w(ge.CMSK, pick(0xFFFFFF, 0xF0F0F0, 0xFF))
	ste := bit(25)
	constStencil := bit(40) == 1
	if plain && bit(70) == 1 {
		ste, constStencil = 1, true
	}
	w(ge.STE, ste)
	w(ge.STST, uint32(r.IntN(8))|uint32(r.IntN(256))<<8|pick(0xFF, 0xFF, 0x0F)<<16)
	sop := uint32(r.IntN(6)) | uint32(r.IntN(6))<<8 | uint32(r.IntN(6))<<16
	if constStencil {
		w(ge.STST, 1|uint32(r.IntN(256))<<8|0xFF<<16) // constant stencil: ALWAYS, REPLACE
		sop = 2 << 16
	}
	w(ge.SOP, sop)
	abe := off(50)
	if over {
		abe = 1
	}
	w(ge.ABE, abe)
	alpha := uint32(r.IntN(11)) | uint32(r.IntN(11))<<4 | uint32(r.IntN(6))<<8
	if bit(50) == 1 || over {
		alpha = 2 | 3<<4 // SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD
	}
	w(ge.ALPHA, alpha)
	w(ge.SFIX, r.Uint32()&0xFFFFFF)
	w(ge.DFIX, r.Uint32()&0xFFFFFF)
	w(ge.LOE, off(10))
	w(ge.LOP, uint32(r.IntN(16)))
	w(ge.DTE, off(30))
	for i := 0; i < 4; i++ {
		w(ge.DTH0+ge.Op(i), r.Uint32()&0xFFFF)
	}
	if off(15) == 1 {
		w(ge.PMSKC, r.Uint32()&0xFFFFFF)
		w(ge.PMSKA, uint32(r.IntN(256)))
	} else {
		w(ge.PMSKC, 0)
		w(ge.PMSKA, 0)
	}
	w(ge.FGE, off(15))
	w(ge.FCOL, r.Uint32()&0xFFFFFF)
	wf(ge.FFAR, float32(pick(1, 2)))
	wf(ge.FDIST, pickF(1, 0.5))

	// Lighting, for the separate specular colour.
	lit := bit(15) == 1
	w(ge.LTE, b2u(lit))
	w(ge.LMODE, bit(70))
	w(ge.LTE0, 1)
	w(ge.LT0, 1) // directional, diffuse and specular
	for i, v := range []float32{0.3, 0.4, 0.85} {
		wf(ge.LXP0+ge.Op(i), v)
	}
	w(ge.ALC0, r.Uint32()&0xFFFFFF)
	w(ge.ALC0+1, r.Uint32()&0xFFFFFF)
	w(ge.ALC0+2, r.Uint32()&0xFFFFFF)
	w(ge.SMC, r.Uint32()&0xFFFFFF)
	w(ge.DMC, r.Uint32()&0xFFFFFF)
	w(ge.AMC, r.Uint32()&0xFFFFFF)
	w(ge.AMA, uint32(r.IntN(256)))
	w(ge.CMAT, uint32(r.IntN(8)))
	wf(ge.SPOW, float32(pick(1, 4, 20)))

	// Texture. A fast state is the span pipeline's specialised texture
	// path (bilinearRepeatModulate): one unswizzled 8888 level, bilinear,
	// repeating, MODULATE with an RGB or RGBA texture; in an over state
	// more often, for the fused texture-and-blend loop over the texture's
	// spread copy (spreadModulateOver).
	fast := bit(15) == 1 || over && bit(50) == 1 || rows
	tme := bit(60) == 1 || fast
	w(ge.TME, b2u(tme))
	tpsm := pick(3, 3, 3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10)
	if fast {
		tpsm = 3
	}
	w(ge.TPSM, tpsm)
	maxLevel := uint32(0)
	if bit(30) == 1 {
		maxLevel = uint32(r.IntN(8))
	}
	tmode := bit(20) | bit(20)<<8 | maxLevel<<16
	if fast {
		tmode = 0
	}
	w(ge.TMODE, tmode)
	flt := pick(0, 1, 4, 5, 6, 7) | pick(0, 1)<<8
	if bit(40) == 1 || fast {
		flt = 1 | 1<<8
	}
	w(ge.TFLT, flt)
	wrap := bit(30) | bit(30)<<8
	if fast {
		wrap = 0
	}
	w(ge.TWRAP, wrap)
	w(ge.TBIAS, uint32(r.IntN(4))|uint32(r.IntN(256))<<16)
	wf(ge.TSLOPE, pickF(0.5, 1, 2))
	fn := uint32(r.IntN(8)) | bit(50)<<8 | bit(20)<<16
	if bit(40) == 1 || fast {
		fn = 0 | bit(70)<<8 // MODULATE
	}
	w(ge.TFUNC, fn)
	w(ge.TEC, r.Uint32()&0xFFFFFF)
	w(ge.CMODE, uint32(r.IntN(4))|uint32(r.IntN(4))<<2|pick(0xFF, 0x0F, 0x7F)<<8|uint32(r.IntN(32))<<16)
	w(ge.CBP, cmpClut&0xFFFFF0)
	w(ge.CBPH, (cmpClut>>8)&0x0F0000)
	w(ge.CLOAD, uint32(1+r.IntN(32)))
	lw, lh := 1+r.IntN(6), 1+r.IntN(6)
	for i := 0; i < 8; i++ {
		tw, th := max(lw-i, 0), max(lh-i, 0)
		addr := uint32(cmpTex + 0x10000*i)
		if i == 0 && bit(4) == 1 {
			addr = VRAMBase + uint32(r.IntN(0x8000))&^15 // sampling the colour buffer
		}
		w(ge.TBP0+ge.Op(i), addr&0xFFFFF0)
		w(ge.TBW0+ge.Op(i), uint32(max(1<<tw, 16))+pick(0, 0, 16)|(addr>>8)&0x0F0000)
		w(ge.TSIZE0+ge.Op(i), uint32(tw)|uint32(th)<<8)
	}
	tmap := uint32(0)
	if bit(20) == 1 {
		tmap = 1 | 1<<8 // texture matrix from UV: q varies
		w(ge.TMS, 0)
		for _, v := range []float32{1.5, 0.25, 0.5, -0.25, 1, 0.25, 0, 0, 0, 0.1, 0.2, 1} {
			wf(ge.TMATRIX, v)
		}
	}
	w(ge.TMAP, tmap)
	wf(ge.USCALE, float32(pick(1, 2)))
	wf(ge.VSCALE, float32(pick(1, 3)))
	wf(ge.UOFFSET, pickF(0, 0.25))
	wf(ge.VOFFSET, 0)

	// Primitives.
	var vtx []byte
	nprims := 1 + r.IntN(4)
	for p := 0; p < nprims; p++ {
		through := bit(40) == 1
		vt := ge.VType{TexCoord: ge.FmtFloat, Color: ge.Color8888, Pos: ge.FmtFloat, Through: through}
		if lit {
			vt.Normal = ge.FmtFloat
		}
		if through {
			vt.Pos = ge.Fmt16
			if bit(50) == 1 {
				vt.TexCoord = ge.Fmt16
			}
		}
		ptype := pick(3, 3, 3, 4, 5, 6, 6, 0, 1, 2)
		count := 1 + r.IntN(9)
		if ptype == 6 {
			count = 2 * (1 + r.IntN(3))
		}
		l := vt.Layout()
		base := len(vtx)
		vtx = append(vtx, make([]byte, count*l.Size)...)
		flatCol := r.Uint32()
		// rowT ties the t coordinate to the row (through mode: t is the
		// vertex's y) or holds it constant (transformed), so that t/w is
		// the same along each row (triTexCoordsLive's tvConst).
		rowT, constT := bit(30) == 1 || rows, float32(r.Float64()*3-1)
		for i := 0; i < count; i++ {
			v := vtx[base+i*l.Size:]
			col := r.Uint32()
			if bit(30) == 1 {
				col = flatCol // one colour, as flat fills and clears give
			}
			binary.LittleEndian.PutUint32(v[l.ColorOff:], col)
			tu, tv := float32(r.Float64()*3-1), float32(r.Float64()*3-1)
			if through {
				if vt.TexCoord == ge.Fmt16 {
					binary.LittleEndian.PutUint16(v[l.TexOff:], uint16(r.IntN(200)))
					binary.LittleEndian.PutUint16(v[l.TexOff+2:], uint16(r.IntN(200)))
				} else {
					putF32(v[l.TexOff:], tu*64, tv*64)
				}
				big := 1 + r.IntN(3)
				py := int16(r.IntN(cmpH*big+40) - 20*big)
				binary.LittleEndian.PutUint16(v[l.PosOff:], uint16(int16(r.IntN(cmpW*big+40)-20*big)))
				binary.LittleEndian.PutUint16(v[l.PosOff+2:], uint16(py))
				binary.LittleEndian.PutUint16(v[l.PosOff+4:], uint16(r.IntN(65536)))
				if rowT {
					if vt.TexCoord == ge.Fmt16 {
						binary.LittleEndian.PutUint16(v[l.TexOff+2:], uint16(py))
					} else {
						putF32(v[l.TexOff+4:], float32(py))
					}
				}
				continue
			}
			if rowT {
				tv = constT
			}
			putF32(v[l.TexOff:], tu, tv)
			if lit {
				putF32(v[l.NormalOff:], float32(r.Float64()*2-1), float32(r.Float64()*2-1), float32(r.Float64()))
			}
			s := float32(pick(1, 2, 3))
			putF32(v[l.PosOff:], float32(r.Float64()*2.6-1.3)*s, float32(r.Float64()*2.6-1.3)*s, float32(r.Float64()*1.9-0.95))
		}
		addr := uint32(cmpVtx + base)
		b, low := ge.Addr(addr)
		c.list = append(c.list, vt.Word(), b, ge.Word(ge.VADDR, low), ge.Word(ge.PRIM, ptype<<16|uint32(count)))
		for len(vtx)%16 != 0 {
			vtx = append(vtx, 0)
		}
	}
	c.vtx = vtx
	c.list = append(c.list, ge.Word(ge.FINISH, 0), ge.Word(ge.END, 0))
	return c
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func putF32(b []byte, vs ...float32) {
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
}

// render runs a case on d and returns the VRAM it can write and the
// error the list ended with.
func (c *cmpCase) render(t *testing.T, d *Device) ([]byte, string) {
	t.Helper()
	require.NoError(t, d.Write(VRAMBase, c.vram))
	require.NoError(t, d.Write(cmpTex, c.tex))
	require.NoError(t, d.Write(cmpClut, c.clut))
	require.NoError(t, d.Write(cmpVtx, c.vtx))
	err := run(t, d, cmpList, c.list...)
	msg := ""
	if err != nil {
		msg = err.Error()
		require.NotContains(t, msg, "internal simulator error")
	}
	out := make([]byte, cmpVRAM)
	require.NoError(t, d.Read(VRAMBase, out))
	return out, msg
}

// TestSpanPathMatchesReference draws random primitives in random GE
// states over random memory through the per-pixel reference path and
// through the batched span pipeline with 1, 2, 3 and 8 workers: every
// byte of VRAM, and the fault if any, must agree.
func TestSpanPathMatchesReference(t *testing.T) {
	states := 800
	if testing.Short() {
		states = 100
	}
	compareCases(t, rand.New(rand.NewPCG(12, 2026)), states, false)
}

// TestSpanPathRowsMatchReference is TestSpanPathMatchesReference over
// randomCaseBiased's row states.
func TestSpanPathRowsMatchReference(t *testing.T) {
	states := 200
	if testing.Short() {
		states = 40
	}
	compareCases(t, rand.New(rand.NewPCG(7, 2026)), states, true)
}

// compareCases draws states random cases (randomCaseBiased with rows)
// through the reference path and the span pipeline with 1, 2, 3 and 8
// workers: every byte of VRAM, and the fault if any, must agree.
func compareCases(t *testing.T, r *rand.Rand, states int, rows bool) {
	ref := New()
	ref.GE.refPath = true
	t.Cleanup(func() { ref.Close() })
	workers := []int{1, 2, 3, 8}
	fast := make([]*Device, len(workers))
	for i, n := range workers {
		fast[i] = New()
		fast[i].SetWorkers(n)
		d := fast[i]
		t.Cleanup(func() { d.Close() })
	}
	faults := 0
	for n := 0; n < states; n++ {
		c := randomCaseBiased(r, rows)
		want, wantErr := c.render(t, ref)
		if wantErr != "" {
			faults++
		}
		for i, d := range fast {
			got, gotErr := c.render(t, d)
			require.Equal(t, wantErr, gotErr, "state %d, %d workers", n, workers[i])
			if !bytes.Equal(want, got) {
				for a := range want {
					if want[a] != got[a] {
						t.Fatalf("state %d (%d workers): first difference at VRAM %#x (pixel %d of a 4-byte row of %d): %#02x, want %#02x\nlist %s",
							n, workers[i], a, a/4%cmpW, cmpW, got[a], want[a], listText(c.list))
					}
				}
			}
		}
	}
	require.Less(t, faults, states/4, "most random states must draw")
	spans := fast[0].GE.spanDraws
	require.Greater(t, spans, states, "most draws must take the span pipeline")
	require.Zero(t, ref.GE.spanDraws)
}

func listText(ws []uint32) string {
	var b bytes.Buffer
	for _, w := range ws {
		fmt.Fprintf(&b, "\n%s", ge.Decode(w))
	}
	return b.String()
}

// TestDividerExact checks the reciprocal division against Go's / and %
// over random and edge-case numerators and divisors.
func TestDividerExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ds := []int64{1, 2, 3, 7, 255, 1 << 20, 1<<31 - 1, 1 << 40, 1<<52 + 1, 1<<62 + 3}
	for range 200 {
		ds = append(ds, 1+r.Int64N(1<<uint(1+r.IntN(50))))
	}
	for _, d := range ds {
		v := newDivider(d)
		ns := []int64{0, 1, -1, d, -d, d - 1, 1 - d, 2 * d, 1 << 52, -1 << 52, 1<<52 + 1, math.MaxInt64, math.MinInt64 + 1}
		for range 200 {
			ns = append(ns, r.Int64N(1<<uint(1+r.IntN(62)))*int64(1-2*r.IntN(2)))
		}
		for _, n := range ns {
			q, m := v.div(n)
			require.Equal(t, [2]int64{n / d, n % d}, [2]int64{q, m}, "%d / %d", n, d)
		}
	}
}

// TestZRange checks zRange against compare for every function and a
// spread of depths.
func TestZRange(t *testing.T) {
	ds := []int32{0, 1, 2, 100, 32767, 32768, 65534, 65535}
	for f := uint32(0); f < 8; f++ {
		for _, z := range ds {
			lo, span, inv := zRange(f, z)
			for d := int32(0); d <= 0xFFFF; d++ {
				got := uint32(d)-lo <= span != inv
				if got != compare(f, z, d) {
					t.Fatalf("zRange(%d, %d) at %d: %v", f, z, d, got)
				}
			}
		}
	}
}
