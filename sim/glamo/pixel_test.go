package glamo

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	hg "github.com/retrogl/retrogl/hal/glamo"
)

// Texel layouts (L3081-3174): each row is a raw texel and the 12-bit
// R, G, B, A the chip reads from it; 4096 is 1.0 and an n-bit v reads
// v*4096/(2^n-1) rounded.
func TestTexelFormats(t *testing.T) {
	tests := []struct {
		code uint8
		raw  uint32
		want [4]int32
	}{
		{0x61, 0xF800, [4]int32{4096, 0, 0, 4096}},     // RGB565 red
		{0x61, 0x07E0, [4]int32{0, 4096, 0, 4096}},     // RGB565 green
		{0x61, 0x0010, [4]int32{0, 0, 2114, 4096}},     // B 16/31
		{0x60, 0x7C00, [4]int32{4096, 0, 0, 4096}},     // RGB555 red, bit 15 unused
		{0x62, 0x8000, [4]int32{0, 0, 0, 4096}},        // ARGB1555 alpha only
		{0x63, 0xF0F0, [4]int32{0, 4096, 0, 4096}},     // ARGB4444 A, G
		{0xE3, 0xF00F, [4]int32{4096, 0, 0, 4096}},     // RGBA4444 R, A
		{0xE3, 0x0800, [4]int32{0, 2185, 0, 0}},        // G = 8/15
		{0xE2, 0x0001, [4]int32{0, 0, 0, 4096}},        // RGBA5551 A
		{0xE2, 0x07C0, [4]int32{0, 4096, 0, 0}},        // G in 10-6
		{0xE0, 0x001F, [4]int32{4096, 0, 0, 4096}},     // BGR555: R in the low bits
		{0xE1, 0xF800, [4]int32{0, 0, 4096, 4096}},     // BGR565: B in the high bits
		{0xE4, 0x801F, [4]int32{4096, 0, 0, 4096}},     // ABGR1555
		{0xE5, 0x1F00, [4]int32{0, 0, 4096, 273}},      // ABGR4444 B, A 1/15
		{0x33, 0x80, [4]int32{2056, 2056, 2056, 4096}}, // L8 128/255
		{0x43, 0x40, [4]int32{0, 0, 0, 1028}},          // A8: black, A 64/255
		{0x38, 0xFF00, [4]int32{0, 0, 0, 4096}},        // AL88: A in the high byte
		{0xB8, 0xFF00, [4]int32{4096, 4096, 4096, 0}},  // LA88: L in the high byte
		{0x35, 0xF0, [4]int32{0, 0, 0, 4096}},          // AL44
		{0xB5, 0xF0, [4]int32{4096, 4096, 4096, 0}},    // LA44
		{0x37, 0xC0, [4]int32{0, 0, 0, 4096}},          // AL26
		{0xB7, 0x03, [4]int32{0, 0, 0, 4096}},          // LA62
		{0x13, 0x55, [4]int32{1365, 1365, 1365, 1365}}, // I8 85/255
		{0x12, 0x0F, [4]int32{4096, 4096, 4096, 4096}}, // I4
		{0x32, 0x05, [4]int32{1365, 1365, 1365, 4096}}, // L4 5/15
		{0x42, 0x0A, [4]int32{0, 0, 0, 2731}},          // A4 10/15
		{0x50, 0xE0, [4]int32{4096, 0, 0, 4096}},       // RGB332
		{0x51, 0xC0, [4]int32{4096, 0, 0, 4096}},       // RGB233
		{0x52, 0x18, [4]int32{0, 4096, 0, 4096}},       // RGB323 G in 4-3
		{0x53, 0x80, [4]int32{0, 0, 0, 4096}},          // ARGB1232 A
		{0x54, 0x30, [4]int32{4096, 0, 0, 0}},          // ARGB2222 R
		{0xD0, 0xE0, [4]int32{0, 0, 4096, 4096}},       // BGR332
		{0xD3, 0x01, [4]int32{0, 0, 0, 4096}},          // RGBA1232 A in bit 0
		{0xD4, 0xC0, [4]int32{4096, 0, 0, 0}},          // RGBA2222 R at the top
		{0xD6, 0x03, [4]int32{4096, 0, 0, 0}},          // ABGR2222 R at the bottom
	}
	for _, tt := range tests {
		lut := formatLUT(tt.code)
		assert.Equalf(t, tt.want, lut[tt.raw], "format %#02x texel %#x", tt.code, tt.raw)
	}
	// Every implemented code decodes; paletted codes resolve to entry formats.
	for code := 0; code < 256; code++ {
		_, isTex := texLayouts[uint8(code)]
		entry, bits, isPal := paletteFormat(uint8(code))
		_, named := hg.TexFormatNames[uint8(code)]
		assert.Equalf(t, named, isTex || isPal, "code %#02x: table and simulator disagree", code)
		if isPal {
			assert.Contains(t, []uint8{4, 8}, bits)
			assert.Contains(t, texLayouts, entry)
		}
	}
	e, b, ok := paletteFormat(0x09)
	assert.Equal(t, [3]any{uint8(0x61), uint8(8), true}, [3]any{e, b, ok}, "Index8 with RGB565 (fact 17)")
	e, b, ok = paletteFormat(0x01)
	assert.Equal(t, [3]any{uint8(0x61), uint8(4), true}, [3]any{e, b, ok}, "Index4 with RGB565")
	e, _, _ = paletteFormat(0x8C)
	assert.Equal(t, uint8(0xE4), e, "Index8 with ABGR1555")
}

// TestFastLayouts checks the shift-and-table decoder against the full
// tables for every 16-bit value of every format.
func TestFastLayouts(t *testing.T) {
	for code, l := range texLayouts {
		f := newFastLayout(&l)
		lut := formatLUT(code)
		for v := range lut {
			if f.decode(uint32(v)) != lut[v] {
				t.Fatalf("format %#02x texel %#x: %v, want %v", code, v, f.decode(uint32(v)), lut[v])
			}
		}
	}
	for code, l := range colorLayouts {
		f := newFastLayout(&l)
		lut := dstLUT(code)
		for v := range lut {
			if f.decode(uint32(v)) != lut[v] {
				t.Fatalf("colour format %#02x pixel %#x differs", code, v)
			}
		}
	}
}

func TestWrapModes(t *testing.T) {
	tests := []struct {
		i, n int
		mode uint32
		want int
	}{
		{-1, 4, 1, 3}, {4, 4, 1, 0}, {9, 5, 1, 4}, {-6, 5, 1, 4}, // wrap, NPOT by modulo
		{4, 4, 2, 3}, {7, 4, 2, 0}, {8, 4, 2, 0}, {-1, 4, 2, 0}, {-5, 4, 2, 3}, // mirror
		{-3, 4, 3, 0}, {9, 4, 3, 3}, // clamp to edge
		{-1, 4, 0, -1}, {4, 4, 0, -1}, {2, 4, 0, 2}, // border
	}
	for _, tt := range tests {
		assert.Equalf(t, tt.want, wrap(tt.i, tt.n, tt.mode), "wrap(%d, %d, %d)", tt.i, tt.n, tt.mode)
		if tt.mode != 0 {
			a, b := wrap2(tt.i, tt.n, tt.mode)
			assert.Equal(t, [2]int{wrap(tt.i, tt.n, tt.mode), wrap(tt.i+1, tt.n, tt.mode)}, [2]int{a, b})
		}
	}
}

// TestColorFormats draws a full rectangle in each 16-bit target format
// and reads the literal pixel word (L2667-2708).
func TestColorFormats(t *testing.T) {
	tests := []struct {
		fmt  string
		argb uint32
		want uint16
	}{
		{"RGB565", 0xFFFF0000, 0xF800},
		{"RGB565", 0xFF00FF00, 0x07E0},
		{"RGB565", 0xFF0000FF, 0x001F},
		{"RGB555", 0xFFFFFFFF, 0x7FFF},
		{"ARGB1555", 0xFF00FF00, 0x83E0},
		{"ARGB1555", 0x00FF0000, 0x7C00},
		{"ARGB4444", 0x80FF0000, 0x8F00},
		{"ARGB4444", 0xFF0000FF, 0xF00F},
		{"BGR565", 0xFFFF0000, 0x001F},
		{"ABGR4444", 0xFF0000FF, 0xFF00},
		{"ABGR1555", 0xFF0000FF, 0xFC00},
		{"BGR555", 0xFF0000FF, 0x7C00},
	}
	for _, tt := range tests {
		r := newRig(t, 8, 8)
		var b hg.Builder
		r.base(&b, tt.fmt)
		rect(&b, 0, 0, 8, 8, 0.5, tt.argb)
		r.mustRun(&b)
		assert.Equalf(t, tt.want, r.px(3, 3), "%s %#08x", tt.fmt, tt.argb)
	}
}

// TestFillRule: two triangles sharing the diagonal of a square, drawn
// additively, cover each pixel of the square exactly once.
func TestFillRule(t *testing.T) {
	r := newRig(t, 16, 16)
	r.clearAll(0, 0, 0)
	var b hg.Builder
	r.base(&b, "RGB565")
	b.Set("EGBlend", "CEQ", "ADD", "SRC", "ONE", "DST", "ONE")
	b.Set("EGEn0", "BLEND", true)
	g := uint32(0xFF082000) // R 8/255 -> 1/31, G 32/255 -> 8/63
	tri(&b, [3][2]float32{{2.3, 1.7}, {13.1, 1.7}, {13.1, 12.6}}, [3]uint32{g, g, g})
	tri(&b, [3][2]float32{{2.3, 1.7}, {13.1, 12.6}, {2.3, 12.6}}, [3]uint32{g, g, g})
	r.mustRun(&b)
	counts := map[uint16]int{}
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			counts[r.px(x, y)]++
		}
	}
	// Pixel centres x+0.5 in [2.3, 13.1) and y+0.5 in [1.7, 12.6): 11 x 11.
	assert.Equal(t, map[uint16]int{0: 256 - 121, 0x0900: 121}, counts)
}

func TestROPTable(t *testing.T) {
	s, d := uint16(0xCC), uint16(0xAA) // P bits 1100, D bits 1010
	want := []uint16{0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF}
	for code := uint32(0); code < 16; code++ {
		got := rop(code, s, d) & 0xFF
		assert.Equalf(t, want[code], got, "ROP %04b", code)
	}
	// Fact 11: 1100 is P, 0110 is P^D, 0101 is ~D, 1010 is D, 0000 is 0.
	assert.Equal(t, s, rop(12, s, d))
	assert.Equal(t, s^d, rop(6, s, d))
	assert.Equal(t, ^d, rop(5, s, d))
	assert.Equal(t, d, rop(10, s, d))
}

func TestStencilOps(t *testing.T) {
	tests := []struct {
		op, s, ref, m, want uint32
	}{
		{0, 5, 9, 255, 5}, {1, 5, 9, 255, 0}, {2, 5, 9, 255, 9},
		{3, 255, 0, 255, 255}, {3, 14, 0, 15, 15}, {3, 15, 0, 15, 15}, // INCRSAT saturates at max
		{4, 0, 0, 255, 0}, {4, 3, 0, 255, 2}, // DECRSAT stops at 0
		{5, 0x0F, 0, 255, 0xF0}, {5, 1, 0, 1, 0}, // INVERT within the format's bits
		{6, 255, 0, 255, 0}, {6, 15, 0, 15, 0}, {7, 0, 0, 255, 255}, {7, 0, 0, 15, 15}, // INCR/DECR wrap
	}
	for _, tt := range tests {
		assert.Equalf(t, tt.want, stencilOp(tt.op, tt.s, tt.ref, tt.m), "%+v", tt)
	}
}

func TestBlendFactors(t *testing.T) {
	p := &pixState{bconst: [4]int32{1000, 2000, 3000, 4096}}
	s := [4]int32{1024, 2048, 3072, 1024}
	d := [4]int32{4096, 0, 2048, 3072}
	assert.Equal(t, [4]int32{1024, 1024, 1024, 4096}, p.blendFactor(10, true, s, d), "SRC_ALPHA_SAT: (f,f,f,1), f = min(As, 1-Ad)")
	assert.Equal(t, [4]int32{1000, 2000, 3000, 4096}, p.blendFactor(13, true, s, d), "source CONSTANT_COLOR is 01101")
	assert.Equal(t, [4]int32{1000, 2000, 3000, 4096}, p.blendFactor(11, false, s, d), "destination CONSTANT_COLOR is 1011 (fact 13)")
	assert.Equal(t, [4]int32{0, 0, 0, 0}, p.blendFactor(14, false, s, d), "destination 1110 is ONE_MINUS_CONSTANT_ALPHA")
	assert.Equal(t, [4]int32{3072, 3072, 3072, 3072}, p.blendFactor(5, true, s, d))
	// Equations (L2875-2880, fact 14): 101 is Cd*Fd - Cs*Fs; 010 is max.
	assert.Equal(t, int32(3072), blendEq(5, 1024, 4096, 4096, 4096))
	assert.Equal(t, int32(0), blendEq(1, 1024, 4096, 4096, 4096))
	assert.Equal(t, int32(4096), blendEq(2, 1024, 0, 4096, 0))
	assert.Equal(t, int32(1024), blendEq(3, 1024, 0, 4096, 0))
	// BOTH_SRC_ALPHA overrides the destination factor with 1 - As.
	p.csrc, p.cdst, p.ceq = 11, 0, 0
	out := p.blendPixel(s, d)
	assert.Equal(t, [4]int32{256 + 3072, 512, 768 + 1536, 256 + 2304}, out)
}

// TestDitherQuant pins the output quantiser: round to nearest without
// dither; with dither the Bayer threshold (2b+1)/32 of a step (P17).
func TestDitherQuant(t *testing.T) {
	assert.Equal(t, uint32(31), quant(4096, 5, 0, false))
	assert.Equal(t, uint32(0), quant(0, 5, 15, true))
	assert.Equal(t, uint32(31), quant(4096, 5, 15, true), "full scale never overflows")
	assert.Equal(t, uint32(16), quant(2048, 5, 0, false), "2048*31/4096 = 15.5 rounds up")
	assert.Equal(t, uint32(15), quant(2048, 5, 0, true), "15.5 + 1/32 truncates to 15")
	assert.Equal(t, uint32(16), quant(2048, 5, 8, true), "15.5 + 17/32 truncates to 16")
	assert.Equal(t, int32(10), bayer[0][3])
	for d := int32(0); d <= 16; d++ {
		for v := int32(0); v <= one; v += 97 {
			assert.Equal(t, uint8(quant(v, 6, d, d < 16)), qluts[6][d][v])
		}
	}
}

func TestCombiner(t *testing.T) {
	mk := func(mod, arg uint32) cunit {
		u, err := parseUnit(mod, arg, "test")
		require.NoError(t, err)
		return u
	}
	in := cinputs{dif: [4]int32{4096, 2048, 1024, 2048}, tex0: [4]int32{2048, 2048, 4096, 1024}}
	in.cur0, in.cur1 = in.dif, in.dif
	cb := &combiner{fact: [2][4]int32{{-4096, 4096, 0, 4096}}}
	// MUL(Tex0, Dif) -> Sat (fact 34 OPA 10, fact 31 selects).
	u := mk(hg.Pack("EGTXCBS0Mod", "C0WMSK", "OPA", "C0OMOD", "SAT"), hg.Pack("EGTXCBS0Arg", "ARG1", "TEX0", "ARG2", "DIF", "OPA", "MUL"))
	r0, _, ok0, ok1 := cb.eval(&u, &in, false)
	assert.True(t, ok0)
	assert.False(t, ok1)
	assert.Equal(t, [4]int32{2048, 1024, 1024, 512}, r0)
	// DP3 with bias+scale on both (GL DOT3): 4*((0.5-0.5)(1-0.5) + ...).
	u = mk(hg.Pack("EGTXCBS0Mod", "ARG1MOD", 0xC, "ARG2MOD", 0xC, "C0WMSK", "OPA", "C0OMOD", "SAT"),
		hg.Pack("EGTXCBS0Arg", "ARG1", "TEX0", "ARG2", "DIF", "OPA", "DP3"))
	r0, _, _, _ = cb.eval(&u, &in, false)
	// (2*0.5-1)(2*1-1) + (0)(0) + (1)(2*0.25-1) = -0.5 -> Sat 0
	assert.Equal(t, [4]int32{0, 0, 0, 0}, r0)
	// Input modifiers in order complement, bias, scale, negate: 1-X then
	// -0.5 then 2X then -X on 0.25 -> -(2*((1-0.25)-0.5)) = -0.5.
	assert.Equal(t, int32(-2048), modIn(1024, 0xF))
	// Output modifiers: bias then scale then clamp to [-8, 8).
	assert.Equal(t, int32(8*4096-1), modOut(5*4096, 6), "x8 clamps below 8")
	assert.Equal(t, int32(-4096), modOut(-4096, 0), "no Sat keeps negatives")
	assert.Equal(t, int32(1024), modOut(2048, 10), "D2")
	assert.Equal(t, int32(0), modOut(2048, 17), "bias -0.5 then Sat")
	// OPC ADD / SUB / CND_A / CMP (L3826-3834).
	args := hg.Pack("EGTXCBS0Arg", "ARG1", "TEX0", "ARG2", "ZERO", "ARG3", "DIF", "ARG4", "ZERO", "OPA", "MUL", "OPB", "MUL")
	one1 := hg.Pack("EGTXCBS0Mod", "ARG2MOD", "1-X", "ARG4MOD", "1-X", "C0WMSK", "OPC", "C0OMOD", "X")
	u = mk(one1, args|hg.Pack("EGTXCBS0Arg", "OPC", "SUB"))
	r0, _, _, _ = cb.eval(&u, &in, false)
	assert.Equal(t, [4]int32{-2048, 0, 3072, -1024}, r0, "Tex0 - Dif, unsaturated")
	u = mk(one1, args|hg.Pack("EGTXCBS0Arg", "OPC", "CND_A"))
	r0, _, _, _ = cb.eval(&u, &in, false)
	assert.Equal(t, in.dif, r0, "Acur0 = 0.5 >= 0.5 picks ARG3*ARG4")
	u = mk(hg.Pack("EGTXCBS0Mod", "C0WMSK", "OPC", "C0OMOD", "X"), hg.Pack("EGTXCBS0Arg", "ARG1", "FACT0", "ARG3", "TEX0", "ARG4", "DIF", "OPC", "CMP"))
	r0, _, _, _ = cb.eval(&u, &in, false)
	assert.Equal(t, [4]int32{4096, 2048, 4096, 1024}, r0, "CMP: per channel Arg1 >= 0 ? Arg3 : Arg4")
	// Factor registers: s.5/s.6/s.7 with 1.0 representable (P8).
	assert.Equal(t, [4]int32{4096, -4096, 0, 4096}, factorOf(hg.Factor(1, -1, 0, 1)))
	// Replicate: ARG with bit 5 takes alpha in the colour unit.
	u = mk(hg.Pack("EGTXCBS0Mod", "ARG2MOD", "1-X", "C0WMSK", "OPA", "C0OMOD", "SAT"), hg.Pack("EGTXCBS0Arg", "ARG1", "TEX0.A", "ARG2", "ZERO", "OPA", "MUL"))
	r0, _, _, _ = cb.eval(&u, &in, false)
	assert.Equal(t, [4]int32{1024, 1024, 1024, 1024}, r0)
}

func TestPixelFogFactor(t *testing.T) {
	p := &pixState{fogEnd: 8, fogInvD: 1.0 / 7, fogDn: 0.35}
	f := &frag{w: 1.0 / 4.5} // eye depth 4.5
	p.fogMode = 5
	assert.Equal(t, int32(2048), p.fogFactor(f), "linear: (8-4.5)/7 = 0.5")
	p.fogMode = 6
	// EXP: exp(-1.575) = 0.20701 -> 6.8: round(0.20701*63*256) = 3339 ->
	// 12 bits: round(3339*4096/16128) = 848.
	assert.Equal(t, int32(848), p.fogFactor(f))
	p.fogMode = 7
	// EXP2: exp(-2.480625) = 0.083683 -> 1350 -> 343.
	assert.Equal(t, int32(343), p.fogFactor(f))
	p.fogMode = 4
	f.spec[3] = 1234
	assert.Equal(t, int32(1234), p.fogFactor(f), "vertex fog takes the interpolated F")
}
