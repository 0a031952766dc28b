package unichrome

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// full draws a triangle covering pixel (5, 5) with colour c at depth z.
func full(s *sb, z float32, c uint32) *sb {
	return s.list(cmdB(), triA(), cat(vtx(0, 0, z, c), vtx(64, 0, z, c), vtx(0, 64, z, c))...)
}

func TestDepthTest(t *testing.T) {
	for _, tc := range []struct {
		fn     string
		z      float32
		drawn  bool
		stored uint32
	}{
		{"LESS", 0.25, true, 0x400000},
		{"LESS", 0.5, false, 0x800000},
		{"LEQUAL", 0.5, true, 0x800000},
		{"GREATER", 0.75, true, 0xC00000},
		{"NEVER", 0.25, false, 0x800000},
		{"ALWAYS", 0.75, true, 0xC00000},
		{"LESS", 1.5, false, 0x800000}, // Z >= 1 saturates to 0xFFFFFF
	} {
		d := newDev(t)
		clear(t, d, [4]uint8{}, 0x800000, 0)
		s := surfaceSetup("zt", true, "zw", true).attr(a("HZWTMD", "func", tc.fn))
		mustRun(t, d, full(s, tc.z, 0xFFFFFFFF))
		assert.Equal(t, tc.drawn, pixel(t, d, 5, 5)[0] == 255, "%s %g", tc.fn, tc.z)
		z, _ := zs(t, d, 5, 5)
		assert.Equal(t, tc.stored, z, "%s %g", tc.fn, tc.z)
	}
	// Z write without the Z test writes unconditionally; 1.0 reads 0xFFFFFF.
	d := newDev(t)
	clear(t, d, [4]uint8{}, 0, 0)
	mustRun(t, d, full(surfaceSetup("zw", true), 1.0, 0xFFFFFFFF))
	z, _ := zs(t, d, 5, 5)
	assert.Equal(t, uint32(0xFFFFFF), z)
}

func TestStencil(t *testing.T) {
	for _, tc := range []struct {
		op    string
		start uint8
		want  uint8
	}{
		{"KEEP", 7, 7}, {"ZERO", 7, 0}, {"REPLACE", 7, 0x42},
		{"INCRSAT", 254, 255}, {"INCRSAT", 255, 255}, {"DECRSAT", 1, 0}, {"DECRSAT", 0, 0},
		{"INVERT", 0x0F, 0xF0}, {"INCR", 255, 0}, {"DECR", 0, 255},
	} {
		d := newDev(t)
		clear(t, d, [4]uint8{}, 0, tc.start)
		s := surfaceSetup("st", true).attr(
			a("HSTREF", "ref", 0x42, "opmask", 0xFF, "wmask", 0xFF),
			a("HSTMD", "func", "ALWAYS", "zpass", tc.op))
		mustRun(t, d, full(s, 0, 0xFFFFFFFF))
		_, st := zs(t, d, 5, 5)
		assert.Equal(t, tc.want, st, "%s from %d", tc.op, tc.start)
	}
	// The test compares (REF & OPMSK) with (S & OPMSK); failing runs sfail;
	// the write mask protects bits; Z fail runs zfail.
	for _, tc := range []struct {
		name     string
		fn       string
		ref, opm int
		start    uint8
		zfunc    string
		drawn    bool
		want     uint8
	}{
		{"pass masked equal", "EQUAL", 0x13, 0x0F, 0x23, "ALWAYS", true, 0x2C}, // zpass INVERT under wmask 0x0F
		{"fail", "EQUAL", 0x13, 0xFF, 0x23, "ALWAYS", false, 0x20},             // sfail ZERO under wmask: 0x23 &^ 0x0F
		{"ref less", "LESS", 0x10, 0xFF, 0x20, "ALWAYS", true, 0x2F},           // 0x10 < 0x20
		{"z fail", "ALWAYS", 0, 0xFF, 0x23, "NEVER", false, 0x22},              // zfail DECRSAT: 0x23 -> 0x22
	} {
		d := newDev(t)
		clear(t, d, [4]uint8{}, 0, tc.start)
		s := surfaceSetup("st", true, "zt", true).attr(
			a("HSTREF", "ref", tc.ref, "opmask", tc.opm, "wmask", 0x0F),
			a("HSTMD", "func", tc.fn, "sfail", "ZERO", "zfail", "DECRSAT", "zpass", "INVERT"),
			a("HZWTMD", "func", tc.zfunc))
		mustRun(t, d, full(s, 0, 0xFFFFFFFF))
		_, st := zs(t, d, 5, 5)
		assert.Equal(t, tc.want, st, tc.name)
		assert.Equal(t, tc.drawn, pixel(t, d, 5, 5)[0] == 255, tc.name)
	}
}

func TestAlphaTest(t *testing.T) {
	for _, tc := range []struct {
		alpha uint32
		drawn bool
	}{{0x7F, false}, {0x80, true}, {0xFF, true}} {
		d := newDev(t)
		clear(t, d, [4]uint8{}, 0, 0)
		s := surfaceSetup("at", true).attr(0x33000680) // fact 17: GEQUAL 0x80
		mustRun(t, d, full(s, 0, tc.alpha<<24|0xFF0000))
		assert.Equal(t, tc.drawn, pixel(t, d, 5, 5)[0] == 255, "alpha %#x", tc.alpha)
	}
}

func blendOver(t *testing.T, dst [4]uint8, src uint32, words ...uint32) [4]uint8 {
	d := newDev(t)
	clear(t, d, dst, 0, 0)
	s := surfaceSetup("abl", true).attr(words...)
	mustRun(t, d, full(s, 0, src))
	return pixel(t, d, 5, 5)
}

func TestBlend(t *testing.T) {
	srcAlpha := []uint32{
		0x34000020, 0x35000148, // fact 20: SRC_ALPHA, ONE_MINUS_SRC_ALPHA
		a("HABLAsat", "aa", "ASRC", "faa", "ASRC"), a("HABLAop", "ab", "ADST", "fab_mod", "INV", "fab", "ASRC"),
	}
	// src (200, 100, 0, 128) over dst (0, 0, 255, 255):
	// R = (200*128 + 127)/255 = 100; G = (100*128 + 127)/255 = 50;
	// B = 0 + (255*127 + 127)/255 = 127; A = (128*128 + 127)/255 +
	// (255*127 + 127)/255 = 64 + 127 = 191.
	assert.Equal(t, [4]uint8{100, 50, 127, 191}, blendOver(t, [4]uint8{0, 0, 255, 255}, 0x80C86400, srcAlpha...))
	// ONE, ZERO: the FFh factor bypasses the multiply (fact 18).
	one := []uint32{
		a("HABLCsat", "ca", "SRC", "fca_mod", "INV", "fca", "CONST"), a("HABLCop", "cb", "DST", "fcb", "CONST"),
		a("HABLAsat", "aa", "ASRC", "faa_mod", "INV", "faa", "ZERO"), a("HABLAop", "ab", "ADST", "fab", "ZERO"),
		a("HABLRFCa"), a("HABLRFCb"),
	}
	assert.Equal(t, [4]uint8{0x12, 0x34, 0x56, 0x9A}, blendOver(t, [4]uint8{1, 2, 3, 4}, 0x9A123456, one...))
	// Subtract dst - src with clamping (34h bit 16 = 0) and wrapping (1).
	sub := func(nosat bool) []uint32 {
		return []uint32{
			a("HABLCsat", "nosat", nosat, "ca", "SRC", "fca_mod", "INV", "fca", "CONST"),
			a("HABLCop", "op", "SUB", "cb", "DST", "fcb_mod", "INV", "fcb", "CONST"),
			a("HABLAsat", "nosat", nosat, "aa", "ASRC", "faa_mod", "INV", "faa", "ZERO"),
			a("HABLAop", "op", "SUB", "ab", "ADST", "fab_mod", "INV", "fab", "ZERO"),
			a("HABLRFCa"), a("HABLRFCb"),
		}
	}
	assert.Equal(t, [4]uint8{0x10, 0, 0, 0}, blendOver(t, [4]uint8{0x10, 0x40, 0, 0xFF}, 0x80203000, sub(false)...))
	assert.Equal(t, [4]uint8{0x10, 0xF0, 0x00, 0x81}, blendOver(t, [4]uint8{0x10, 0x40, 0, 0xFF}, 0x80203000, sub(true)...))
	// MAX(src, dst) with ONE/ZERO factors; the constant colour factor.
	mx := []uint32{
		a("HABLCsat", "ca", "MAX", "fca_mod", "INV", "fca", "CONST"), a("HABLCop", "cb", "DST", "fcb", "CONST"),
		a("HABLAsat", "aa", "MAX", "faa_mod", "INV", "faa", "ZERO"), a("HABLAop", "ab", "ADST", "fab", "ZERO"),
		a("HABLRFCa"), a("HABLRFCb"),
	}
	assert.Equal(t, [4]uint8{0x40, 0x34, 0x56, 0xFF}, blendOver(t, [4]uint8{0x40, 0x20, 0, 0xFF}, 0x9A123456|0x00003400, mx...))
	konst := []uint32{
		a("HABLCsat", "ca", "SRC", "fca", "CONST"), a("HABLCop", "cb", "DST", "fcb", "CONST"),
		a("HABLRFCa", "r", 0xFF, "g", 0x80, "b", 0), a("HABLRFCb"),
		a("HABLAsat", "aa", "ASRC", "faa_mod", "INV", "faa", "ZERO"), a("HABLAop", "ab", "ADST", "fab", "ZERO"),
	}
	// R bypassed (FFh), G = (0x34*0x80 + 127)/255 = 26, B = 0.
	assert.Equal(t, [4]uint8{0x12, 26, 0, 0x9A}, blendOver(t, [4]uint8{9, 9, 9, 9}, 0x9A123456, konst...))
}

func TestFogLocal(t *testing.T) {
	for _, tc := range []struct {
		f, eq uint32
		want  uint8
	}{
		{255, 0, 200}, {0, 0, 10}, {128, 0, (128*200 + 127*10 + 127) / 255}, {128, 1, (127*200 + 128*10 + 127) / 255},
	} {
		d := newDev(t)
		clear(t, d, [4]uint8{}, 0, 0)
		s := surfaceSetup("fog", true).attr(a("HFogLF", "mode", "LOCAL", "eq", tc.eq), a("HFogCL", "r", 10))
		cs := tc.f << 24
		s.list(uc.CmdBWord(maskXYZC|uc.MaskCs, 0, 0), triA(),
			fl(0), fl(0), fl(0), 0xFFC80000, cs, fl(64), fl(0), fl(0), 0xFFC80000, cs, fl(0), fl(64), fl(0), 0xFFC80000, cs)
		mustRun(t, d, s)
		assert.Equal(t, tc.want, pixel(t, d, 5, 5)[0], "f=%d eq=%d", tc.f, tc.eq)
	}
}

func TestFogLinearAndTable(t *testing.T) {
	var pal [256]uint8
	for i := range pal {
		pal[i] = uint8(255 - i)
	}
	// Linear in Z: start 0, end 1 (0xFFFFFFFF/2^32), 1/(end-start) = 1.0
	// (M = 0, E = 127); at Z = 0.25: f = (0.99999999977 - 0.25) -> 191.
	f, err := compileFog(&[256]uint32{
		uc.AttrFogMode: 0x12, uc.AttrFogEndL: 0xFFFFFF, uc.AttrFogDensity: 0xFF | 0x7F<<13 | 0x00<<8,
		uc.AttrFogOOdE: 127,
	}, &pal)
	require.NoError(t, err)
	assert.Equal(t, 191, f.factor(0, 0.25, 0))
	assert.Equal(t, 255, f.factor(0, 0, 0))
	// Exponential from the table: density 1.0 ("[8].5" exponent 127) at
	// w = 1/W = 2: entry floor(32 x 2) = 64.
	f, err = compileFog(&[256]uint32{uc.AttrFogMode: 0x04, uc.AttrFogDensity: 127 << 13}, &pal)
	require.NoError(t, err)
	assert.Equal(t, 255-64, f.factor(0, 0, 0.5))
	f, err = compileFog(&[256]uint32{uc.AttrFogMode: 0x05, uc.AttrFogDensity: 127 << 13}, &pal)
	require.NoError(t, err)
	assert.Equal(t, 255-128, f.factor(0, 0, 0.5), "exp2: (d c)^2 = 4 -> entry 128")
	_, err = compileFog(&[256]uint32{uc.AttrFogMode: 0x03}, &pal)
	assert.ErrorContains(t, err, "reserved fog mode")
}

// TestDestinationFormats writes a colour into each destination format and
// reads the raw pixel; reads expand per 42h bits 22:20 (fact 23).
func TestDestinationFormats(t *testing.T) {
	for _, tc := range []struct {
		fmt  string
		want uint32
	}{
		{"RGB565", 0xF0>>3<<11 | 0x84>>2<<5 | 0x18>>3},
		{"BGR565", 0x18>>3<<11 | 0x84>>2<<5 | 0xF0>>3},
		{"ARGB4444", 0x80>>4<<12 | 0xF<<8 | 0x8<<4 | 0x1},
		{"ARGB1555", 1<<15 | 0x1E<<10 | 0x10<<5 | 0x3},
		{"ABGR1555", 1<<15 | 0x3<<10 | 0x10<<5 | 0x1E},
		{"RGB555", 0x1E<<10 | 0x10<<5 | 0x3},
		{"ARGB8888", 0x80F08418},
		{"ABGR8888", 0x801884F0},
		{"ARGB0888", 0x00F08418},
	} {
		d := newDev(t)
		require.NoError(t, d.Write(colBase, make([]byte, 64)))
		s := (&sb{}).attr(
			a("HEnable", "cw", true, "aw", true),
			a("HDBBasL", "addr", colBase&0xFFFFFF), a("HDBBasH", "addr", colBase>>24),
			a("HDBFM", "fmt", tc.fmt, "pitch", 64),
			a("HFBBMSKL", "r", 0xFF, "g", 0xFF, "b", 0xFF), a("HROP", "rop", 12, "amask", 0xFF),
			a("HClipTB", "top", 0, "bottom", 1), a("HClipLR", "left", 0, "right", 1))
		s.list(cmdB(), uc.CmdAWord(uc.PrimPoint, uc.ShadeGouraud, uc.CycleFull), vtx(0.5, 0.5, 0, 0x80F08418)...)
		mustRun(t, d, s)
		var b [4]byte
		require.NoError(t, d.Read(colBase, b[:]))
		got := binary.LittleEndian.Uint32(b[:])
		if info, _ := uc.DstFormatOf(uint8(uc.Named(uc.SpaceAttr, "HDBFM").Build("fmt", tc.fmt) >> 16)); info.Bytes == 2 {
			got &= 0xFFFF
		}
		assert.Equal(t, tc.want, got, tc.fmt)
	}
	// Fact 23: R5 = 10101 reads 10101101 replicated, 10101000 zero-filled.
	info, _ := uc.DstFormatOf(uc.DstRGB565)
	v := uint32(0x15<<11 | 0x2B<<5 | 0x01)
	assert.Equal(t, [4]int{0xAD, 0xAE, 0x08, 255}, unpack(&info, v, 0))
	assert.Equal(t, [4]int{0xA8, 0xAC, 0x08, 255}, unpack(&info, v, 2))
	// 001: G5..G1 replicated as 5 bits: 10101 -> 10101101.
	assert.Equal(t, [4]int{0xAD, 0xAD, 0x08, 255}, unpack(&info, v, 1), "ignore G0")
	// 100: R4..R0 G0 R4 R3 = 101011 10; B = 00001 1 00.
	assert.Equal(t, [4]int{0xAE, 0xAE, 0x0C, 255}, unpack(&info, v, 4), "666: G0 appended to R and B")
}

// TestDither: 4x4 Bayer before truncation at 16 bpp; off at 32 bpp.
func TestDither(t *testing.T) {
	d := newDev(t)
	require.NoError(t, d.Write(colBase, make([]byte, 64)))
	s := (&sb{}).attr(
		a("HEnable", "cw", true, "dt", true),
		a("HDBBasL", "addr", colBase&0xFFFFFF), a("HDBBasH", "addr", colBase>>24),
		a("HDBFM", "fmt", "RGB565", "pitch", 64),
		a("HFBBMSKL", "r", 0xFF, "g", 0xFF, "b", 0xFF), a("HROP", "rop", 12),
		a("HClipTB", "top", 0, "bottom", 4), a("HClipLR", "left", 0, "right", 4))
	// Red 0x84: at (0,0) Bayer 0 -> 0x84>>3 = 16; at (1,0) Bayer 8 adds
	// 8*8/16 = 4 -> 0x88>>3 = 17.
	s.list(cmdB(), triA(), cat(vtx(0, 0, 0, 0xFF840000), vtx(8, 0, 0, 0xFF840000), vtx(0, 8, 0, 0xFF840000))...)
	mustRun(t, d, s)
	var b [4]byte
	require.NoError(t, d.Read(colBase, b[:]))
	assert.Equal(t, uint16(16<<11), binary.LittleEndian.Uint16(b[0:]))
	assert.Equal(t, uint16(17<<11), binary.LittleEndian.Uint16(b[2:]))
}

// TestYUY2: the pair dword is {avg(B0,B1), R1, avg(G0,G1), R0} (fact 24).
func TestYUY2(t *testing.T) {
	d := newDev(t)
	require.NoError(t, d.Write(colBase, make([]byte, 64)))
	s := (&sb{}).attr(
		a("HEnable", "cw", true),
		a("HDBBasL", "addr", colBase&0xFFFFFF), a("HDBBasH", "addr", colBase>>24),
		a("HDBFM", "fmt", "YUY2", "pitch", 64),
		a("HClipTB", "top", 0, "bottom", 1), a("HClipLR", "left", 0, "right", 2))
	pt := uc.CmdAWord(uc.PrimPoint, uc.ShadeGouraud, uc.CycleFull)
	s.list(cmdB(), pt, cat(vtx(0.5, 0.5, 0, 0xFF102030), vtx(1.5, 0.5, 0, 0xFF405061))...)
	mustRun(t, d, s)
	var b [4]byte
	require.NoError(t, d.Read(colBase, b[:]))
	// Pixels are written one at a time, each reading its partner back
	// (Y -> R, U -> G, V -> B). The even pixel (0x10,0x20,0x30) lands on a
	// zero pair: {avg(0x30,0), 0, avg(0x20,0), 0x10} = 0x18001010. The odd
	// (0x40,0x50,0x61) then pairs with (0x10,0x10,0x18): {avg(0x18,0x61),
	// 0x40, avg(0x10,0x50), 0x10} = 0x3D403010.
	assert.Equal(t, uint32(0x3D403010), binary.LittleEndian.Uint32(b[:]))
	// Fact 24 with both pixels known.
	assert.Equal(t, uint32(0x49403810), packYUY2([4]int{0x10, 0x20, 0x30, 0}, [4]int{0x40, 0x50, 0x61, 0}))
}

// TestROPAndMasks: XOR (ROP2 6) and plane masks.
func TestROPAndMasks(t *testing.T) {
	d := newDev(t)
	clear(t, d, [4]uint8{0xFF, 0x0F, 0xAA, 0x55}, 0, 0)
	s := surfaceSetup().attr(a("HROP", "rop", 6, "amask", 0x0F), a("HFBBMSKL", "r", 0xFF, "g", 0xF0, "b", 0))
	mustRun(t, d, full(s, 0, 0xFFF0F0F0))
	// R: 0xF0^0xFF = 0x0F; G: (0xF0^0x0F)&0xF0 | 0x0F&0x0F = 0xFF; B kept;
	// A: (0xFF^0x55)&0x0F | 0x55&0xF0 = 0x5A.
	assert.Equal(t, [4]uint8{0x0F, 0xFF, 0xAA, 0x5A}, pixel(t, d, 5, 5))
	// Colour write off leaves the pixel; alpha write off keeps alpha.
	d = newDev(t)
	clear(t, d, [4]uint8{1, 2, 3, 4}, 0, 0)
	mustRun(t, d, full((&sb{}).put(surfaceSetup().w...).attr(a("HEnable")), 0, 0xFFFFFFFF))
	assert.Equal(t, [4]uint8{1, 2, 3, 4}, pixel(t, d, 5, 5))
	d = newDev(t)
	clear(t, d, [4]uint8{1, 2, 3, 4}, 0, 0)
	mustRun(t, d, full((&sb{}).put(surfaceSetup().w...).attr(a("HEnable", "cw", true)), 0, 0xFFFFFFFF))
	assert.Equal(t, [4]uint8{255, 255, 255, 4}, pixel(t, d, 5, 5))
}

// TestZBias: SEZbias = max(Zdx, Zdy)*scale + bias moves the tested Z; the
// written Z is biased only with HZBiasedWB.
func TestZBias(t *testing.T) {
	for _, wb := range []bool{false, true} {
		d := newDev(t)
		clear(t, d, [4]uint8{}, 0x800000, 0)
		// Bias +2^24 in 2^-32 units = 1/256 = 0x10000 in Z24 units.
		s := surfaceSetup("zt", true, "zw", true).attr(
			a("HZWTMD", "func", "GREATER"), a("HZBiasL", "bias", 0), a("HZBiasH", "bias_h", 1),
			a("HZWBType", "fmt", "Z24S8", "pitch", zPitch, "biasedwb", wb))
		mustRun(t, d, full(s, 0.5, 0xFFFFFFFF))
		assert.Equal(t, uint8(255), pixel(t, d, 5, 5)[0], "biased 0.5 > 0.5")
		z, _ := zs(t, d, 5, 5)
		if wb {
			assert.Equal(t, uint32(0x810000), z)
		} else {
			assert.Equal(t, uint32(0x800000), z)
		}
	}
}

func TestWBufferEncoding(t *testing.T) {
	for _, tc := range []struct {
		fmt  uint32
		bias int
		W    float64
		want uint32
	}{
		{0, 0, 1, 2048},               // w = 1: denormal with bias 0: 2048/4096 x 2
		{0, 8, 1, 8 << 12},            // w = 1 = 2^0: exponent 8, mantissa 0
		{0, 8, 1.0 / 3, 9<<12 | 2048}, // w = 3 = 1.5 x 2^1
		{0, 8, 1e-9, 15<<12 | 4095},   // saturates
		{0, 8, 0, 0},                  // W = 0 reads w = 0
		{2, 0, 0.5, 0x40000000},       // float32 2.0
		{3, 16, 1, 16 << 19},          // [5].19
	} {
		d := &depthBuf{fmt: tc.fmt, wbias: tc.bias}
		assert.Equal(t, tc.want, d.wValue(tc.W), "fmt %d bias %d W %g", tc.fmt, tc.bias, tc.W)
	}
	// Larger w encodes larger.
	d := &depthBuf{fmt: 0, wbias: 4}
	prev := uint32(0)
	for w := 0.01; w < 100; w *= 1.3 {
		v := d.wValue(1 / w)
		assert.GreaterOrEqual(t, v, prev)
		prev = v
	}
}

// TestWBuffer draws with a float32 W buffer: w = 1/W is stored and tested.
func TestWBuffer(t *testing.T) {
	d := newDev(t)
	clear(t, d, [4]uint8{}, 0, 0)
	s := surfaceSetup("zt", true, "zw", true).attr(
		a("HZWBType", "wbuf", true, "fmt", "Z32", "pitch", zPitch), a("HZWTMD", "func", "LESS"))
	wtri := func(W float32, c uint32) []uint32 {
		var out []uint32
		for _, p := range [][2]float32{{0, 0}, {64, 0}, {0, 64}} {
			out = append(out, fl(p[0]), fl(p[1]), fl(0), fl(W), c)
		}
		return out
	}
	mask := uint32(uc.MaskX | uc.MaskY | uc.MaskZ | uc.MaskW | uc.MaskCd)
	s.attr(a("HZWTMD", "func", "ALWAYS"))
	s.list(uc.CmdBWord(mask, 0, 0), triA(), wtri(0.25, 0xFFFF0000)...) // w = 4
	s.attr(a("HZWTMD", "func", "LESS"))
	s.list(uc.CmdBWord(mask, 0, 0), triA(), wtri(0.5, 0xFF00FF00)...)   // w = 2: nearer, passes
	s.list(uc.CmdBWord(mask, 0, 0), triA(), wtri(0.125, 0xFF0000FF)...) // w = 8: fails
	mustRun(t, d, s)
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, pixel(t, d, 5, 5))
	var b [4]byte
	require.NoError(t, d.Read(zBase+5*zPitch+5*4, b[:]))
	assert.Equal(t, uint32(0x40000000), binary.LittleEndian.Uint32(b[:]), "float32 2.0")
}
