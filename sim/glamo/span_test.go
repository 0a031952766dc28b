package glamo

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	hg "github.com/retrogl/retrogl/hal/glamo"
	"github.com/retrogl/retrogl/sim/device"
)

// Memory map of the span-pipeline comparison: a 64x48 target.
const (
	cmpW, cmpH  = 64, 48
	cmpFB       = 0x10000
	cmpZ        = 0x20000
	cmpSt       = 0x30000
	cmpTex      = 0x40000 // unit u level i at cmpTex + u*0x20000 + i*0x2000
	cmpMemSize  = 0x80000
	cmpTexPitch = 128
)

// poke writes a register the way the queue does: both halves of a 32-bit
// register, low half first.
func poke(e *Engine, addr uint16, v uint32) {
	switch e.kind[(addr-hg.BlockStart)/2] {
	case kLow:
		_ = e.write(addr, uint16(v))
		_ = e.write(addr+2, uint16(v>>16))
	case k16:
		_ = e.write(addr, uint16(v))
	}
}

// randomPixelState returns register writes for a random pixel pipeline
// over the comparison's memory map: every field drawn from the values the
// simulator accepts (a state it rejects is redrawn by the caller).
func randomPixelState(r *rand.Rand) map[uint16]uint32 {
	bit := func(p int) uint32 { // a bit set with probability p/100
		if r.IntN(100) < p {
			return 1
		}
		return 0
	}
	pick := func(vs ...uint32) uint32 { return vs[r.IntN(len(vs))] }
	s := map[uint16]uint32{}
	ntex := uint32(r.IntN(3))
	en0 := r.Uint32()&^(7<<12) | ntex<<12 | bit(80)<<10
	en0 = en0&^(1<<9) | bit(30)<<9 // perspective correction
	en1 := r.Uint32() &^ (1 << 12)
	for _, b := range []uint{2, 3, 5, 11, 13, 14, 15, 16, 17, 19, 22, 23, 24, 28, 29} {
		en1 &^= 1 << b
		en1 |= bit(25) << b
	}
	en1 |= bit(70) << 17 // texture blend
	for _, b := range []uint{0, 1, 2, 3, 4, 5, 17, 19, 20, 22} {
		en0 &^= 1 << b
		en0 |= bit(40) << b
	}
	if bit(25) == 1 { // the plain pipeline of clears and untextured fills
		en0 &^= 1<<10 | 7<<12 | 1<<3 | 1<<4 | 1<<17 | 1<<2
		en1 &^= 1<<11 | 1<<15 | 1<<14 | 3<<28
	}
	s[0x2100], s[0x2104] = en0, en1
	s[0x2108] = r.Uint32()&(7<<16) | pick(0, 0, 0, 0, 0, 0, 0, 8, 9, 10, 11, 12, 13, 14, 15, 0x10)<<20 | cmpW
	s[0x210C] = r.Uint32()
	s[0x2110] = cmpZ
	s[0x2114] = r.Uint32()
	s[0x2120] = r.Uint32()&(15<<24) | pick(0x10, 0x11, 0x12, 0x13, 0x50, 0x51, 0x52, 0x53)<<16 | cmpW
	if bit(60) == 1 {
		s[0x2120] = s[0x2120]&^(15<<24) | 12<<24 // COPY
		en1 &^= 1 << 23                          // no colour write mask
		s[0x2104] = en1
	}
	s[0x2124], s[0x2128] = r.Uint32(), cmpFB
	s[0x2138] = r.Uint32()
	s[0x213C] = r.Uint32()&^(7<<24) | pick(0, 4, 5, 6, 7)<<24
	s[0x2140], s[0x2144], s[0x2148] = hg.F18(r.Float64()*2), hg.F18(r.Float64()*4), hg.F18(r.Float64()*3)
	s[0x2150] = r.Uint32()
	s[0x2154] = r.Uint32()&^0x3FF | cmpW/2
	s[0x2158] = cmpSt
	s[0x215C] = r.Uint32()&(1<<30|0x1FF<<12) | pick(0, 1, 2, 3, 5)<<24 | pick(0, 1, 2, 3, 5)<<27 |
		uint32(r.IntN(17))<<4 | uint32(r.IntN(15))
	if bit(50) == 1 {
		s[0x215C] = s[0x215C]&^(1<<30|7<<24|0x1FF) | 4<<4 | 5 // SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD
	}
	s[0x2160] = r.Uint32()
	s[0x216C] = uint32(r.IntN(17))<<4 | uint32(r.IntN(15))
	x0, y0 := uint32(r.IntN(8)), uint32(r.IntN(8))
	x1, y1 := uint32(cmpW-1-r.IntN(8)), uint32(cmpH-1-r.IntN(8))
	if bit(50) == 1 {
		x0, y0, x1, y1 = 0, 0, cmpW-1, cmpH-1
	}
	s[0x2164], s[0x2168] = y0<<16|y1, x0<<16|x1
	s[0x2330], s[0x2334] = r.Uint32(), r.Uint32()
	for st := uint16(0); st < 2; st++ {
		for _, base := range []uint16{0x2350, 0x2390} {
			a := base + 8*st
			mod := r.Uint32()&^(7<<13|7<<5) | uint32(r.IntN(6))<<13 | uint32(r.IntN(6))<<5
			for _, sh := range []uint{8, 0} {
				if mod>>(sh+1)&7 == 4 {
					mod &^= 1 << (sh + 3)
				}
			}
			arg := uint32(r.IntN(3))<<6 | uint32(r.IntN(3))<<14 | uint32(r.IntN(8))<<22
			for _, sh := range []uint{25, 16, 8, 0} {
				arg |= (pick(0x00, 0x01, 0x03, 0x04, 0x05, 0x06, 0x07, 0x12, 0x13) | bit(20)<<5) << sh
			}
			if bit(50) == 1 { // the MODULATE shape: Sat(Arg1 * Arg2) to C0
				mod = 1<<13 | 1<<8
				arg = pick(0x03, 0x06, 0x07, 0x12, 0x04)<<25 | pick(0x03, 0x06, 0x07, 0x13)<<16 | 2<<6
			}
			s[a], s[a+4] = mod, arg
		}
	}
	codes := []uint32{0x60, 0x61, 0x62, 0x63, 0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0x13, 0x33, 0x38, 0x43, 0x50,
		0x12, 0x42, 0x01, 0x09, 0x8C, 0x63, 0x61, 0xE3}
	for u := 0; u < 2; u++ {
		b := hg.TexUnitBase(u)
		lv := uint32(r.IntN(7))
		cfg := pick(codes...)<<24 | uint32(r.IntN(4))<<16 | uint32(r.IntN(4))<<19 | lv<<8
		if bit(50) == 1 {
			cfg = cfg&^(63<<16) | 1<<16 | 1<<19 // wrap both ways
		}
		if u == 0 {
			cfg |= uint32(r.IntN(2)) // blend stage count
		}
		s[b] = cfg
		s[b+4] = bit(70)<<18 | uint32(r.IntN(6))<<15 | r.Uint32()&(0x3FF<<5)
		w, h := uint32(1)<<r.IntN(7), uint32(1)<<r.IntN(7)
		if bit(20) == 1 {
			w, h = uint32(1+r.IntN(64)), uint32(1+r.IntN(64))
		}
		s[b+8] = w<<12 | h
		if u == 0 {
			s[b+8] |= r.Uint32() & 0xFF000000 // the transparency mode and ratio of both units
		}
		s[b+0xC], s[b+0x10], s[b+0x14] = r.Uint32(), r.Uint32(), r.Uint32()
		for i := uint16(0); i <= 8; i++ {
			s[b+0x18+4*i] = cmpTex + uint32(u)*0x20000 + uint32(i)*0x2000
		}
		for i := uint16(0); i < 5; i++ {
			s[b+0x48+4*i] = cmpTexPitch | cmpTexPitch<<16
		}
	}
	s[0x260C] = pick(1, 2, 3, 4)<<11 | bit(20)<<15 | bit(50)<<16 | bit(20)<<19 | bit(20)<<10 | bit(50)<<9
	s[0x2620], s[0x2624], s[0x2628] = hg.F24(r.Float64()*2-1), hg.F24(r.Float64()*0.01-0.005), hg.F24(r.Float64()*0.02-0.01)
	s[0x2050] = 3 | 3<<12 | uint32(r.IntN(4))<<10 | uint32(r.IntN(4))<<8
	if bit(20) == 1 {
		// fill-tex-blend's shape (pixState.texMod: one bilinear texture
		// times the diffuse colour, bilinearModulate), affine or not,
		// wrapped or clamped, blended or not, with or without Z and dither.
		s[0x2100] = 1<<10 | 1<<12 | bit(30)<<9 | bit(50)<<1 | bit(60)<<19 | bit(60)<<20 | bit(50)
		s[0x2104] = 1 << 17
		b := hg.TexUnitBase(0)
		s[b] = pick(0x63, 0x63, 0x60, 0x13, 0x50)<<24 | pick(1, 3)<<16 | pick(1, 3)<<19 | s[b]&(7<<8)
		s[b+4] = 1<<18 | 1<<15
		for _, a := range []uint16{0x2350, 0x2390} {
			s[a], s[a+4] = 1<<13|1<<8, pick(0x03, 0x06)<<25|0x06<<16|2<<6
			if s[a+4]>>25 == 0x06 {
				s[a+4] = s[a+4]&^(0x3F<<16) | 0x03<<16
			}
		}
	}
	if bit(15) == 1 {
		// fill-gouraud's shape (pixState.fill565: plain, COPY, RGB565 red
		// high or low, no blending), any depth function, with or without
		// Z test, Z write, a Z write mask and dither.
		s[0x2100] = bit(60) | bit(70)<<19 | bit(70)<<20
		s[0x2104] = bit(30)<<9 | bit(20)<<22
		s[0x210C] = pick(0xFFFF, 0xFFFF, r.Uint32()&0xFFFF)
		s[0x2108] = r.Uint32()&(7<<16) | cmpW
		s[0x2120] = 12<<24 | pick(0x11, 0x51, 0x11, 0x51, 0x10)<<16 | cmpW
	}
	return s
}

// randomVertex returns a window-space vertex inside (and a little around)
// the target.
func randomVertex(r *rand.Rand) vertex {
	var v vertex
	v.win = [4]float64{r.Float64()*(cmpW+16) - 8, r.Float64()*(cmpH+16) - 8, r.Float64()*1.2 - 0.1, 0.25 + r.Float64()*2}
	for f := 0; f < 2; f++ {
		for k := 0; k < 4; k++ {
			v.col[f][k], v.spec[f][k] = uint8(r.UintN(256)), uint8(r.UintN(256))
		}
	}
	for s := range v.tex {
		v.tex[s] = [2]float64{r.Float64()*5 - 2, r.Float64()*5 - 2}
	}
	return v
}

// renderCmp runs one state and triangle list on a fresh engine over mem
// (a copy is made) and returns the memory afterwards, or nil when the
// state is rejected.
func renderCmp(t *testing.T, mem []byte, state map[uint16]uint32, pal *[2][256]uint16, tris [][3]vertex, ref bool, workers int) []byte {
	m := device.NewMemory([]hal.Region{{Name: "vram", Base: 0, Size: cmpMemSize}})
	b, ok := m.Slice(0, cmpMemSize)
	require.True(t, ok)
	copy(b, mem)
	e := NewEngine()
	e.SetMemory(m)
	e.refPath, e.workers = ref, workers
	e.pal = *pal
	// Registers in address order, so that every run writes the same way.
	for a := hg.BlockStart; a < hg.BlockEnd; a += 2 {
		if v, ok := state[uint16(a)]; ok {
			poke(e, uint16(a), v)
		}
	}
	if e.prepare() != nil {
		return nil
	}
	for i := range tris {
		require.NoError(t, e.setupTri(&tris[i][0], &tris[i][1], &tris[i][2]))
	}
	e.flushJobs()
	return append([]byte(nil), b...)
}

// TestSpanPathMatchesReference draws random triangles in random pixel
// states over random memory through the span pipeline and through the
// per-pixel reference path (walkTriRef), with 1, 2, 3 and 8 workers:
// every byte of memory must agree.
func TestSpanPathMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 33))
	states := 400
	if testing.Short() {
		states = 100
	}
	mem := make([]byte, cmpMemSize)
	spanRuns := 0
	for n := 0; n < states; {
		state := randomPixelState(r)
		for i := range mem {
			mem[i] = uint8(r.UintN(256))
		}
		var pal [2][256]uint16
		for u := range pal {
			for i := range pal[u] {
				pal[u][i] = uint16(r.UintN(1 << 16))
			}
		}
		ntris := 1 + r.IntN(4)
		if n%2 == 1 {
			ntris = 10 + r.IntN(6) // enough area for the Scheduler to share bands
		}
		tris := make([][3]vertex, ntris)
		zShared := 0.1 + 0.8*r.Float64()
		for i := range tris {
			tris[i] = [3]vertex{randomVertex(r), randomVertex(r), randomVertex(r)}
			if r.IntN(3) == 0 { // one colour, as flat shading and clears give
				for k := 1; k < 3; k++ {
					tris[i][k].col, tris[i][k].spec = tris[i][0].col, tris[i][0].spec
				}
			}
			if r.IntN(4) == 0 {
				// An edge along a screen row with one texel row
				// coordinate: v does not change along the rows
				// (bilinearRow), as in a screen-aligned textured quad.
				tris[i][1].win[1] = tris[i][0].win[1]
				for s := range tris[i][1].tex {
					tris[i][1].tex[s][1] = tris[i][0].tex[s][1]
				}
			}
			if r.IntN(3) == 0 { // parallel to the screen: one depth (fill565)
				z := tris[i][0].win[2]
				if r.IntN(2) == 0 {
					// Depths at and beside the draw's shared one, so that
					// stored and new depths meet the test's edges.
					z = zShared + float64(r.IntN(3)-1)/65535
				}
				for k := 0; k < 3; k++ {
					tris[i][k].win[2] = z
				}
			}
		}
		want := renderCmp(t, mem, state, &pal, tris, true, 1)
		if want == nil {
			continue // a reserved combination: draw another state
		}
		n++
		for _, workers := range []int{1, 2, 3, 8} {
			got := renderCmp(t, mem, state, &pal, tris, false, workers)
			if !bytes.Equal(want, got) {
				for i := range want {
					if want[i] != got[i] {
						t.Fatalf("state %d (%d workers): first difference at %#x: %#02x, want %#02x\nstate %#x",
							n, workers, i, got[i], want[i], state)
					}
				}
			}
		}
		// Count the states the span pipeline really ran.
		e := NewEngine()
		e.SetMemory(device.NewMemory([]hal.Region{{Name: "vram", Base: 0, Size: cmpMemSize}}))
		for a, v := range state {
			poke(e, a, v)
		}
		if e.prepare() == nil && e.px.spanOK {
			spanRuns++
		}
	}
	require.Greater(t, spanRuns, states*3/4, "most random states must exercise the span pipeline")
}

// benchEngine returns an engine in the fill-tex-blend state: RGB565
// target with Z16 LEQUAL, one ARGB4444 256x256 texture, bilinear, wrapped,
// MODULATE, SRC_ALPHA/ONE_MINUS_SRC_ALPHA, dither.
func benchEngine(b testing.TB) *Engine {
	m := device.NewMemory([]hal.Region{{Name: "vram", Base: 0, Size: VRAMSize}})
	e := NewEngine()
	e.SetMemory(m)
	vr, _ := m.Slice(0, VRAMSize)
	x := uint32(1)
	for i := range vr {
		x = x*1664525 + 1013904223
		vr[i] = uint8(x >> 24)
	}
	s := map[uint16]uint32{
		0x2100: 1<<10 | 1<<12 | 1<<1 | 1<<19 | 1<<20 | 1, // texture, 1 unit, blend, ZT, ZW, dither
		0x2104: 1 << 17,                                  // texture blend
		0x2108: 3<<16 | 512,                              // LEQUAL, Z16, pitch
		0x2110: 0x200000,
		0x2120: 12<<24 | 0x11<<16 | 512, // COPY, RGB565
		0x2128: 0x100000,
		0x215C: 4<<4 | 5,
		0x2164: 479, 0x2168: 479,
		0x21A0: 0x63<<24 | 1<<16 | 1<<19,
		0x21A4: 1<<18 | 1<<15,
		0x21A8: 256<<12 | 256,
		0x21B8: 0x300000,
		0x21E8: 0x200 | 1<<8,
		0x2350: 1<<13 | 1<<8, 0x2354: 0x03<<25 | 0x06<<16 | 2<<6,
		0x2390: 1<<13 | 1<<8, 0x2394: 0x03<<25 | 0x06<<16 | 2<<6,
		0x260C: 2 << 11,
		0x2050: 3 | 3<<12,
	}
	for a := hg.BlockStart; a < hg.BlockEnd; a += 2 {
		if v, ok := s[uint16(a)]; ok {
			poke(e, uint16(a), v)
		}
	}
	require.NoError(b, e.prepare())
	require.True(b, e.px.spanOK && e.px.blendOver && e.px.tex[0].mag == 1)
	return e
}

// BenchmarkSpanStages times the span pipeline's stages on one chunk in
// the fill-tex-blend state, per pixel.
func BenchmarkSpanStages(b *testing.B) {
	e := benchEngine(b)
	var sb spanBuf
	for i := 0; i < spanChunk; i++ {
		sb.uv[0][i] = [2]float64{0.3 + float64(i)*2/480, 0.7}
		sb.z[i] = 0.5 - float64(i)/1000
		sb.col[i] = [4]int32{1000, 2000, 3000, 3277}
		sb.live[i] = true
	}
	b.Run("bilinear", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			e.px.tex[0].bilinearSpan(&sb, 0, spanChunk)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*spanChunk), "ns/pixel")
	})
	b.Run("modulate", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sb.modulate(&e.px.comb, spanChunk)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*spanChunk), "ns/pixel")
	})
	b.Run("output", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			e.outputSpan(&sb, &sb.out, spanChunk, 100, 100+i%300)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*spanChunk), "ns/pixel")
	})
	b.Run("shade", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			e.shadeSpan(&sb, spanChunk, 100, 100+i%300)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*spanChunk), "ns/pixel")
	})
}

// BenchmarkSpanFill draws full-screen quads (two triangles, 480x480) in
// the fill-tex-blend state with GOMAXPROCS workers: the span pipeline end
// to end, per pixel.
func BenchmarkSpanFill(b *testing.B) {
	e := benchEngine(b)
	e.workers = runtime.GOMAXPROCS(0)
	zb, _ := e.mem.Slice(0x200000, 480*1024)
	for i := range zb {
		zb[i] = 0xFF
	}
	corner := func(x, y, u, v float64, z float64) vertex {
		var c vertex
		c.win = [4]float64{x, y, z, 1}
		c.col[0] = [4]uint8{uint8(200 * x / 480), uint8(200 * y / 480), 90, 204}
		c.tex[0] = [2]float64{u, v}
		return c
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		z := 0.9 - float64(i%64)/100
		a, c1, c2, d := corner(0, 0, 0, 0, z), corner(480, 0, 2, 0, z), corner(480, 480, 2, 2, z), corner(0, 480, 0, 2, z)
		require.NoError(b, e.setupTri(&a, &c1, &c2))
		require.NoError(b, e.setupTri(&a, &c2, &d))
		e.flushJobs()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*480*480), "ns/pixel")
}

// TestDepthRange checks depthRange against compare for every function
// and a spread of depths.
func TestDepthRange(t *testing.T) {
	for f := uint32(0); f < 8; f++ {
		for _, z := range []int32{0, 1, 2, 100, 32767, 32768, 65534, 65535} {
			lo, span, inv := depthRange(f, z)
			for d := int64(0); d <= 0xFFFF; d++ {
				if got := uint32(d)-lo <= span != inv; got != compare(f, int64(z), d) {
					t.Fatalf("depthRange(%d, %d) at %d: %v", f, z, d, got)
				}
			}
		}
	}
}

// TestQuantTables checks quant5 and quant6 against the quantizer's
// arithmetic for every dither offset the quantizer produces.
func TestQuantTables(t *testing.T) {
	adds := []int32{2048}
	for d := int32(0); d < 16; d++ {
		adds = append(adds, d*256+128)
	}
	for _, add := range adds {
		q5, q6 := &quant5[quantIndex(add)], &quant6[quantIndex(add)]
		for v := range q5 {
			require.Equal(t, uint8((lut5p[v]*31+add)>>12), q5[v], "5-bit, add %d, v %d", add, v)
		}
		for v := range q6 {
			require.Equal(t, uint8((lut6p[v]*63+add)>>12), q6[v], "6-bit, add %d, v %d", add, v)
		}
	}
}

// TestStepCoord compares stepCoord's integer stepping with the float64
// stepping of walkTriRef (q(u + d), then fixCoord) over random
// coordinates, steps and sizes, with steps that land on rounding ties and
// chunks that cross binades.
func TestStepCoord(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	sizes := []int{1, 8, 64, 256, 1024, 2048, 3, 100, 640}
	fast := 0
	for it := 0; it < 200000; it++ {
		u := q(r.Float64() * 4)
		switch r.IntN(5) {
		case 0:
			u = q(r.NormFloat64() * 1000)
		case 1: // just above or below a power of two
			u = q(math.Ldexp(1+float64(r.IntN(64)-32)/65536, r.IntN(8)-4))
		case 2: // tiny or huge: the shifts at the ends of stepRun's exponents
			u = q(math.Ldexp(1+r.Float64(), r.IntN(130)-65))
		}
		var d float64
		switch r.IntN(5) {
		case 0:
			d = 0
		case 1: // a tie or near-tie against u's grid
			_, e := math.Frexp(u)
			d = q(math.Ldexp(float64(r.IntN(64))+0.5, e-17) * float64(1-2*r.IntN(2)))
		case 2: // a step on u's own scale
			_, e := math.Frexp(u)
			d = q(r.NormFloat64() * math.Ldexp(1, e-r.IntN(20)))
		default:
			d = q(r.NormFloat64() * math.Ldexp(1, -r.IntN(20)))
		}
		n := 1 + r.IntN(spanChunk)
		size := sizes[r.IntN(len(sizes))]
		var got [spanChunk]int32
		gotU := stepCoord(&got, n, u, d, size)
		uu, sw := u, float64(size)*256
		for i := 0; i < n; i++ {
			require.Equal(t, int32(fixCoord(uu*sw)-128), got[i], "u %v d %v size %d pixel %d", u, d, size, i)
			uu = q(uu + d)
			// Monotonic along the chunk, as texColumns assumes.
			if i > 0 && ((d > 0 && got[i] < got[i-1]) || (d < 0 && got[i] > got[i-1])) {
				t.Fatalf("u %v d %v size %d: pixel %d steps back", u, d, size, i)
			}
		}
		require.Equal(t, uu, gotU, "u %v d %v size %d n %d: the next chunk's coordinate", u, d, size, n)
		if d != 0 && math.Float64bits(u)>>63 == 0 && u != 0 {
			fast++
		}
	}
	require.Greater(t, fast, 50000, "the integer path's inputs are drawn")
}

// TestDepthMask checks depthMask's four-at-a-time test and mergeWords's
// write against compare, pixel by pixel, for every depth function over random
// chunks whose stored depths lie at, beside and far from the new one.
func TestDepthMask(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for it := 0; it < 50000; it++ {
		n := 1 + r.IntN(spanChunk)
		zn := uint16(r.UintN(1 << 16))
		switch r.IntN(4) {
		case 0:
			zn = 0
		case 1:
			zn = 0xFFFF
		}
		f, zw := uint32(r.IntN(8)), r.IntN(2) == 0
		zb := make([]byte, 2*n)
		for i := 0; i < n; i++ {
			d := uint16(r.UintN(1 << 16))
			if r.IntN(2) == 0 {
				d = zn + uint16(r.IntN(5)) - 2
			}
			binary.LittleEndian.PutUint16(zb[2*i:], d)
		}
		lo, span, inv := depthRange(f, int32(zn))
		got := append([]byte(nil), zb...)
		mask := depthMask(got, n, lo, lo+span)
		if inv {
			mask ^= pixelMask(n)
		}
		if zw {
			mergeWords(got, n, mask, pixelMask(n), uint64(zn)*lanes1, nil)
		}
		require.Zero(t, mask&^pixelMask(n), "n %d: bits beyond the chunk", n)
		for i := 0; i < n; i++ {
			d := binary.LittleEndian.Uint16(zb[2*i:])
			pass := compare(f, int64(zn), int64(d))
			require.Equal(t, pass, mask>>(uint(16*(i&3))+uint(i/4))&1 != 0, "f %d z %d d %d n %d pixel %d", f, zn, d, n, i)
			want := d
			if pass && zw {
				want = zn
			}
			require.Equal(t, want, binary.LittleEndian.Uint16(got[2*i:]), "f %d z %d d %d pixel %d: the stored depth", f, zn, d, i)
		}
	}
}

// TestFill565 compares fill565 over blocks of up to fillBlock pixels (the
// span test's 64-pixel target never has more than one chunk a row) with
// the quantizer's and compare's arithmetic, pixel by pixel: colours
// stepped across the tables' range, every depth function, with and
// without depth work, Z write and dither, red high or low.
func TestFill565(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for it := 0; it < 20000; it++ {
		n := 1 + r.IntN(fillBlock)
		if r.IntN(2) == 0 {
			n = fillBlock - r.IntN(8)
		}
		x0 := r.IntN(600)
		// A colour plane and step that stay inside 0..hi<<4 over n pixels.
		plane := func(hi int64) (int64, int64) {
			a, b := r.Int64N(hi<<4+1), r.Int64N(hi<<4+1)
			d := (b - a) / int64(max(n-1, 1))
			return a, d
		}
		a0, d0 := plane(31 * 256)
		a1, d1 := plane(63 * 256)
		a2, d2 := plane(31 * 256)
		var adds [4]int32
		for k := range adds {
			adds[k] = 2048
			if r.IntN(2) == 0 {
				adds[k] = int32(r.IntN(16))*256 + 128
			}
		}
		zn := uint16(r.UintN(1 << 16))
		f, zw, withZ, rHigh := uint32(r.IntN(8)), r.IntN(2) == 0, r.IntN(4) != 0, r.IntN(2) == 0
		cb, zb := make([]byte, 2*n), make([]byte, 2*n)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint16(cb[2*i:], uint16(r.UintN(1<<16)))
			d := uint16(r.UintN(1 << 16))
			if r.IntN(2) == 0 {
				d = zn + uint16(r.IntN(5)) - 2
			}
			binary.LittleEndian.PutUint16(zb[2*i:], d)
		}
		lo, span, inv := depthRange(f, int32(zn))
		gotC, gotZ := append([]byte(nil), cb...), append([]byte(nil), zb...)
		hi, low := a0, a2 // the planes of the pixel's high and low 5 bits
		dh, dl := d0, d2
		if !rHigh {
			hi, low, dh, dl = a2, a0, d2, d0
		}
		var zarg []byte
		if withZ {
			zarg = gotZ
		}
		count := fill565(gotC, zarg, n, x0, hi, a1, low, dh, d1, dl, &adds, zn, lo, lo+span, inv, zw)
		want := int64(0)
		wantC, wantZ := make([]uint16, n), make([]uint16, n)
		gotCw, gotZw := make([]uint16, n), make([]uint16, n)
		for i := 0; i < n; i++ {
			d := binary.LittleEndian.Uint16(zb[2*i:])
			wz, wc := d, binary.LittleEndian.Uint16(cb[2*i:])
			if !withZ || compare(f, int64(zn), int64(d)) {
				want++
				if withZ && zw {
					wz = zn
				}
				add := adds[(x0+i)&3]
				rr, gg, bb := c5((a0+int64(i)*d0)>>4), c6((a1+int64(i)*d1)>>4), c5((a2+int64(i)*d2)>>4)
				r5, g6, b5 := uint16((rr*31+add)>>12), uint16((gg*63+add)>>12), uint16((bb*31+add)>>12)
				wc = r5<<11 | g6<<5 | b5
				if !rHigh {
					wc = b5<<11 | g6<<5 | r5
				}
			}
			wantC[i], wantZ[i] = wc, wz
			gotCw[i], gotZw[i] = binary.LittleEndian.Uint16(gotC[2*i:]), binary.LittleEndian.Uint16(gotZ[2*i:])
		}
		require.Equal(t, wantC, gotCw, "n %d f %d: colours", n, f)
		require.Equal(t, wantZ, gotZw, "n %d f %d: depths", n, f)
		require.Equal(t, want, count, "n %d: pixels written", n)
	}
}

// TestRowOver565 compares rowOver565 with the path it replaces
// (bilinearModulate then outputSpan) on many random chunks in the
// fill-tex-blend state: random texels, colours, stored pixels and depths,
// coordinates stepping either way by less or more than a texel, wrapped
// and clamped: the rounding edges of the modulation, blend and dither are
// rare in the span test's few textured rows.
func TestRowOver565(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	e := benchEngine(t)
	require.True(t, e.px.rowOver565)
	vr := e.px.vram
	tx := &e.px.tex[0]
	for it := 0; it < 20000; it++ {
		if it%500 == 0 {
			for i := 0x100000; i < 0x320000; i++ {
				vr[i] = uint8(r.UintN(256))
			}
			tx.wrapU, tx.wrapV = uint32(1+2*r.IntN(2)), uint32(1+2*r.IntN(2))
		}
		var sb spanBuf
		n := 1 + r.IntN(spanChunk)
		x0, y := r.IntN(480-n), r.IntN(480)
		f := r.Int32N(256*300) - 256*20
		step := r.Int32N(600) - 300
		if r.IntN(10) == 0 { // more texel columns than texColumns takes, often
			step = r.Int32N(4000) - 2000
		}
		fv := r.Int32N(256*300) - 256*20
		for i := 0; i < n; i++ {
			sb.fu[i], sb.fv[i] = f+int32(i)*step, fv
			sb.col[i] = [4]int32{r.Int32N(4097), r.Int32N(4097), r.Int32N(4097), r.Int32N(4097)}
			sb.live[i] = true
		}
		sb.fixed, sb.vconst, sb.zconst = true, true, true
		sb.z[0] = r.Float64()
		// The chunk's colour and depth bytes, before and after each path.
		c := vr[0x100000+1024*y+2*x0 : 0x100000+1024*y+2*(x0+n)]
		z := vr[0x200000+1024*y+2*x0 : 0x200000+1024*y+2*(x0+n)]
		c0, z0 := append([]byte(nil), c...), append([]byte(nil), z...)
		want, got := sb, sb
		if !e.rowOver565(&got, n, x0, y) {
			require.Greater(t, int64(n)*int64(max(step, -step)), int64(250*256), "chunk %d: refused", it)
			require.Equal(t, c0, c, "chunk %d: refused, but wrote colours", it)
			require.Equal(t, z0, z, "chunk %d: refused, but wrote depths", it)
			continue
		}
		gotC, gotZ := append([]byte(nil), c...), append([]byte(nil), z...)
		copy(c, c0)
		copy(z, z0)
		want.vconst = false
		e.px.tex[0].bilinearModulate(&want, n)
		e.outputSpan(&want, &want.out, n, x0, y)
		require.Equal(t, c, gotC, "chunk %d: colours", it)
		require.Equal(t, z, gotZ, "chunk %d: depths", it)
		require.Equal(t, want.count, got.count, "chunk %d: pixels written", it)
	}
}
