package glamo

import (
	"strings"
	"testing"

	gold "github.com/retrogl/retrogl/internal/golden"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckableFacts pins field encodings to the literal words of the
// guide's "checkable facts" (shared/notes/glamo3365.md §8); the expected
// values are written out by hand from the seed lines, never computed.
func TestCheckableFacts(t *testing.T) {
	tests := []struct {
		fact int
		got  uint32
		want uint32
	}{
		{1, Pack("EGPDTYPE", "TYPE", "TRIANGLES"), 0x08},
		{1, Pack("EGPDTYPE", "TYPE", "TRIANGLE_STRIP"), 0x09},
		{1, Pack("EGPDTYPE", "TYPE", "TRIANGLE_FAN"), 0x0A},
		{1, Pack("EGPDTYPE", "TYPE", "POINTS"), 0x00},
		{1, Pack("EGPDTYPE", "TYPE", "LINES"), 0x04},
		{1, Pack("EGPDTYPE", "TYPE", "LINE_STRIP"), 0x05},
		{2, Pack("EGZCfg", "TEST", "LESS"), 0x00010000},
		{2, Pack("EGZCfg", "TEST", "LEQUAL"), 0x00030000},
		{2, Pack("EGZCfg", "TEST", "GEQUAL"), 0x00060000},
		{2, Pack("EGZCfg", "TEST", "NEVER"), 0x00000000},
		{2, Pack("EGZCfg", "TEST", "ALWAYS"), 0x00070000},
		{3, Pack("EGAlpha", "TEST", "GREATER", "REF", 0x80), 0x00000480},
		{4, Pack("EGStCfg", "TEST", "EQUAL", "REF", 0x12, "MASK", 0xFF), 0x020012FF},
		{5, Pack("EGStOps", "FAIL", "INCRSAT"), 0x00300000},
		{5, Pack("EGStOps", "ZPASS", "INCR"), 0x00006000},
		{5, Pack("EGStOps", "ZFAIL", "INVERT"), 0x00050000},
		{6, Pack("EGStCfg", "FMT", "S8"), 0x30000000},
		{6, Pack("EGStOps", "WRMASK", 0xFF), 0xFF000000},
		{7, Pack("EGZCfg", "FMT", "Z16", "PITCH", 240), 0x000000F0},
		{8, Pack("EGDst0Cfg", "FMT", "RGB565"), 0x00110000},
		{8, Pack("EGDst0Cfg", "FMT", "ARGB4444"), 0x00130000},
		{8, Pack("EGDst0Cfg", "FMT", "ABGR4444"), 0x00530000},
		{9, Pack("EGDst0Cfg", "PITCH", 480), 0x000001E0},
		{9, Pack("EGDST0BAS", "BASE", 0x100000), 0x00100000},
		{11, Pack("EGDst0Cfg", "ROP", "COPY_PEN"), 0x0C000000},
		{11, Pack("EGDst0Cfg", "ROP", "XOR_PEN"), 0x06000000},
		{11, Pack("EGDst0Cfg", "ROP", "NOT"), 0x05000000},
		{11, Pack("EGDst0Cfg", "ROP", "NOP"), 0x0A000000},
		{11, Pack("EGDst0Cfg", "ROP", "BLACK"), 0x00000000},
		{12, Pack("EGBlend", "SRC", "SRC_ALPHA_SAT"), 0x000000A0},
		{13, Pack("EGBlend", "DST", "CONSTANT_COLOR"), 0x0000000B},
		{13, Pack("EGBlend", "SRC", "CONSTANT_COLOR"), 0x000000D0},
		{14, Pack("EGBlend", "CEQ", "REVSUB"), 0x05000000},
		{14, Pack("EGBlend", "CEQ", "MAX"), 0x02000000},
		{15, Color6565(1, 0, 0, 1), 0xFCF80000},
		{15, Color6565(0, 1, 0, 0), 0x0000FC00},
		{15, Color6565(0, 0, 1, 0), 0x000000F8},
		{16, Pack("EGTX0Cfg", "FMT", "RGB565"), 0x61000000},
		{16, Pack("EGTX0Cfg", "FMT", "RGBA4444"), 0xE3000000},
		{16, Pack("EGTX0Cfg", "FMT", "RGBA5551"), 0xE2000000},
		{16, Pack("EGTX0Cfg", "FMT", "L8"), 0x33000000},
		{16, Pack("EGTX0Cfg", "FMT", "A8"), 0x43000000},
		{16, Pack("EGTX0Cfg", "FMT", "AL88"), 0x38000000},
		{17, Pack("EGTX0Cfg", "FMT", "I8_RGB565"), 0x09000000},
		{17, Pack("EGTX0Cfg", "FMT", "I4_RGB565"), 0x01000000},
		{18, uint32(ByName("EGTX0Index5").Addr), 0x240A},
		{19, Pack("EGTX0Cfg", "UMAP", "CLAMP"), 0x00030000},
		{19, Pack("EGTX0Cfg", "UMAP", "WRAP"), 0x00010000},
		{19, Pack("EGTX0Cfg", "VMAP", "CLAMP"), 0x00180000},
		{20, Pack("EGTX0Filter", "MIN", "LINEAR_MIP_LINEAR"), 0x00028000},
		{20, Pack("EGTX0Filter", "MAG", "LINEAR"), 0x00040000},
		{21, Pack("EGTX0Filter", "LODBIAS", FixS4_5.Encode(-1)), 0x00007C00},
		{22, Pack("EGTX0Pitch0", "L0", 0x180), 0x00000180},
		{23, uint32(ByName("EGTX0L3BAS").Addr), 0x21C4},
		{23, uint32(ByName("EGTX1L0BAS").Addr), 0x2218},
		{24, uint32(ByName("MGVStrm3Ctl").Addr), 0x1F28},
		{24, uint32(ByName("MGVStrm3BAS").Addr), 0x1F2C},
		{24, Pack("MGVStrm3Ctl", "STRIDE", 12), 0x000C0000},
		{25, Pack("MGVStrm0Ctl", "TYPE", "FIXED"), 0x00000020},
		{25, Pack("MGVStrm0Ctl", "TYPE", "BYTE", "ARRAY", "NORMAL"), 0x00000031},
		{26, Pack("MGVStrmCfg", "IDX8", true), 0x00000004},
		{26, Pack("MGStrmIndexMDBAS", "BASE", 0x2000), 0x00002000},
		{27, uint32(ByName("EGFIRE").Addr), 0x2058},
		{28, Pack("EGSTATUSA", "IDLE", 1, "QIDLE", 1), 0x0003},
		{29, Pack("EGFogCfg", "MODE", "LINEAR"), 0x05000000},
		{29, Pack("EGFogCfg", "MODE", "EXP"), 0x06000000},
		{29, Pack("EGFogCfg", "MODE", "EXP2"), 0x07000000},
		{29, Pack("EGFogCfg", "MODE", "CONSTANT"), 0x00000000},
		{30, Pack("EGTXCBS0Mod", "ARG1MOD", "X-0.5"), 0x80000000},
		{30, Pack("EGTXCBS0Mod", "ARG1MOD", "2X"), 0x40000000},
		{30, Pack("EGTXCBS0Mod", "ARG1MOD", "NEG"), 0x20000000},
		{30, Pack("EGTXCBS0Mod", "ARG4MOD", "1-X"), 0x00010000},
		{31, Pack("EGTXCBS0Arg", "ARG1", "TEX0"), 0x0C000000},
		{31, Pack("EGTXCBS0Arg", "ARG2", "DIF"), 0x00030000},
		{31, Pack("EGTXCBS0Arg", "ARG3", "FACT0"), 0x00001200},
		{31, Pack("EGTXCBS0Arg", "ARG4", "TEX0.A"), 0x00000026},
		{32, Pack("EGTXCBS0Arg", "OPC", "CND_A"), 0x00400000},
		{33, Pack("EGTXCBS0Mod", "C0OMOD", "D2"), 0x00000A00},
		{33, Pack("EGTXCBS0Mod", "C1OMOD", "8X"), 0x00000006},
		{33, Pack("EGTXCBS0Mod", "C1OMOD", "SAT"), 0x00000001},
		{34, Pack("EGTXCBS0Arg", "OPA", "MUL"), 0x00000080},
		{34, Pack("EGTXCBS0Arg", "OPB", "DP3"), 0x00000000},
		{35, uint32(ByName("RGXL0Att2").Addr), 0x2C48},
		{35, uint32(ByName("RGXL3Att2").Addr), 0x2D68},
		{36, Pack("RGXLightType", "L0", "DIRECTIONAL"), 0x80000000},
		{36, Pack("RGXLightType", "L7", "SPOT"), 0x00010000},
		{37, Pack("RGPSetup", "SHADE", "GOURAUD"), 0x00002000},
		{37, Pack("RGPSetup", "SHADE", "FLAT_C"), 0x00001800},
		{38, Pack("RGPLine", "WIDTH", Fix9_4.Encode(1.5)), 0x00000018},
		{39, Pack("EGStippleCfg", "VDIR", true), 0x8000},
		{40, Pack("RGXLight", "L0", true, "L7", true), 0x00408000},
		{40, Pack("RGXLight", "LIGHTING", true), 0x02000000},
	}
	for _, tt := range tests {
		assert.Equalf(t, tt.want, tt.got, "fact %d: got %#08x", tt.fact, tt.got)
	}
}

func TestEnumsAndFormatting(t *testing.T) {
	f := ByName("EGPDTYPE").MustField("TYPE")
	assert.Equal(t, "RESERVED(1)", FormatField(f, 1), "EGPDTYPE 00001 is reserved (L2349)")
	assert.Equal(t, "256", FormatField(ByName("EGTX0Pitch0").MustField("L0"), 0x180), "0x80 << 1 bytes (fact 22)")
	assert.Equal(t, "-1", FormatField(ByName("EGTX0Filter").MustField("LODBIAS"), 0x3E0))
	assert.Equal(t, "1.5", FormatField(ByName("RGPLine").MustField("WIDTH"), 0x18))
	assert.Equal(t, "a63/r31/g0/b0", FormatField(ByName("EGBLCst").MustField("COLOR"), 0xFCF80000))
	assert.Equal(t, "ZT=1", DescribeValue(ByName("EGEn0"), 0x00080000))
	assert.Equal(t, "FMT=Z16 TEST=LEQUAL PITCH=240", DescribeValue(ByName("EGZCfg"), 0x000300F0))
}

func TestTableShape(t *testing.T) {
	// Every 32-bit register's halves and every 16-bit register resolve;
	// internal ports never do.
	for _, r := range Registers() {
		got, high, ok := Lookup(r.Addr)
		require.True(t, ok, r.Name)
		assert.Same(t, r, got)
		assert.False(t, high)
		if r.Wide {
			got, high, _ = Lookup(r.Addr + 2)
			assert.Same(t, r, got)
			assert.True(t, high)
		}
		assert.NotZero(t, r.Line, r.Name)
	}
	for _, r := range Internal() {
		assert.True(t, r.Internal)
	}
	assert.Len(t, Internal(), 83)
	// 8 lights x 24, 2 palettes x 256, 5 matrices.
	n := 0
	for _, r := range Registers() {
		if strings.HasPrefix(r.Name, "RGXL") && r.Addr >= 0x2C00 {
			n++
		}
	}
	assert.Equal(t, 192, n)
	_, _, ok := Lookup(0x23E2)
	assert.False(t, ok, "23E2h is reserved (EGPASEND is at 23E4h)")
}

func TestFormatsAtEdges(t *testing.T) {
	f24 := []struct {
		x    float64
		want uint32
	}{
		{1, 0x3F0000}, {-1, 0xBF0000}, {0.5, 0x3E0000}, {1.5, 0x3F8000}, {0, 0},
		{1e30, 0x7FFFFF}, {-1e30, 0xFFFFFF}, // saturate
		{0x1p-62, 0x010000}, {0x1p-63, 0}, // smallest normal; below flushes to zero
		{1 + 0x1p-17, 0x3F0000},           // tie rounds to even (down)
		{1 + 3*0x1p-17, 0x3F0002},         // tie rounds to even (up)
		{1 + 0x1p-17 + 0x1p-30, 0x3F0001}, // just above the tie
		{2 - 0x1p-18, 0x400000},           // mantissa carry into the exponent
		{-3.25, 0xC0A000},
	}
	for _, tt := range f24 {
		assert.Equalf(t, tt.want, F24(tt.x), "F24(%g)", tt.x)
	}
	assert.Equal(t, uint32(0), F24(nanValue()), "NaN converts to zero")
	assert.Equal(t, 1.5, FromF24(0x3F8000))
	assert.Equal(t, -3.25, FromF24(0xC0A000))
	assert.Equal(t, F24Max, FromF24(0x7FFFFF))
	assert.Equal(t, uint32(0xFC00), F18(1))
	assert.Equal(t, uint32(0x30000), F18(-2))
	assert.Equal(t, 1+0x1p-10, RoundF18(1+0x1p-10+0x1p-12))

	fix := []struct {
		f    Fixed
		x    float64
		want uint32
	}{
		{FixS9, -1, 0x3FF}, {FixS9, 600, 0x1FF}, {FixS9, -600, 0x200}, {FixS9, 479, 0x1DF},
		{Fix9_4, 1.5, 0x018}, {Fix9_4, -1, 0}, {FixS4_5, -1, 0x3E0}, {FixS4_5, 0.5, 0x010},
		{FixS4_5, 15.97, 0x1FF}, {FixS10, -513, 0x5FF},
	}
	for _, tt := range fix {
		assert.Equalf(t, tt.want, tt.f.Encode(tt.x), "%+v.Encode(%g)", tt.f, tt.x)
	}
	assert.Equal(t, -1.0, FixS4_5.Decode(0x3E0))

	assert.Equal(t, uint16(0xF800), ZF5Z11.Encode(0.5))
	assert.Equal(t, uint16(0xFC00), ZF5Z11.Encode(0.75))
	assert.Equal(t, uint16(0xFFFF), ZF5Z11.Encode(1))
	assert.Equal(t, uint16(0x8000), ZF1Z15.Encode(0.5))
	assert.Equal(t, uint16(0x4000), ZF1Z15.Encode(0.25))
	assert.Equal(t, uint16(0), ZF2Z14.Encode(-0.5))
	assert.Equal(t, 0.75, ZF5Z11.Decode(0xFC00))
	assert.Equal(t, uint16(0xFFFF), Z16(1))
	assert.Equal(t, uint16(0x8000), Z16(0.5))

	assert.Equal(t, uint32(0x7F7C7E7C), Factor(1, 1, 1, 1))
	assert.Equal(t, uint32(0x81840000), Factor(-1, 0, 0, -1))
	r, g, b, a := SplitFactor(0x81847E7C)
	assert.Equal(t, [4]int32{-31, 63, 31, -127}, [4]int32{r, g, b, a})
}

func nanValue() float64 {
	var z float64
	return z / z
}

func TestBuilderWords(t *testing.T) {
	var b Builder
	b.Write32(0x2100, 0x00080605)
	b.Write16(0x2058, 0)
	b.Burst(0x2400, 0xF800, 0x07E0)
	b.Nop()
	b.Write16(0x23E0, 0)
	assert.Equal(t, []uint16{0xA100, 2, 0x0605, 0x0008, 0x2058, 0, 0xA400, 2, 0xF800, 0x07E0, 0, 0, 0x23E0, 0}, b.Words())
	b.Reset()
	b.Burst32(0x26A0, 0x3F0000, 0x123456)
	assert.Equal(t, []uint16{0xA6A0, 4, 0, 0x3F, 0x3456, 0x12}, b.Words())
	b.Reset()
	b.Write16(0x2058, 1)
	b.words = append(b.words, 0x2058)
	assert.Equal(t, []byte{0x58, 0x20, 1, 0, 0x58, 0x20, 0, 0}, b.Bytes(), "padded with one zero word")
}

func TestParseFaults(t *testing.T) {
	le := func(ws ...uint16) []byte {
		out := make([]byte, 2*len(ws))
		for i, w := range ws {
			out[2*i], out[2*i+1] = byte(w), byte(w>>8)
		}
		return out
	}
	tests := []struct {
		buf  []byte
		want string
	}{
		{le(0x2101, 0), "register address 0x2101 is odd"},
		{le(0x1000, 0), "register 0x1000 outside the 3D block 1B00h-2EFFh"},
		{le(0x3000, 0), "register 0x3000 outside the 3D block 1B00h-2EFFh"},
		{le(0xA100, 4, 1, 2), "burst of 4 words runs past the end of the buffer"},
		{le(0xAEFC, 4, 1, 2, 3, 4), "burst of 4 registers from 0x2efc runs past 2EFFh"},
		{le(0x2058), "truncated command: header without a value word"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.buf, 0)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tt.want)
	}
	c, err := Parse(le(0), 0)
	require.NoError(t, err)
	assert.Equal(t, CmdPad, c.Kind)
}

func TestDecodeGolden(t *testing.T) {
	var b Builder
	b.Set("EGDst0Cfg", "ROP", "COPY_PEN", "FMT", "RGB565", "PITCH", 480)
	b.Set("EGDST0BAS", "BASE", 0x4000)
	b.Set("EGZCfg", "FMT", "Z16", "TEST", "LESS", "PITCH", 480)
	b.Set("EGEn0", "ZT", true, "ZW", true, "DITH", true)
	b.Burst32(ByName("RGXScaleX").Addr, F24(240), F24(240), F24(-240), F24(240))
	b.Set("EGTXCBS0Arg", "ARG1", "TEX0", "ARG2", "DIF", "OPA", "MUL", "OPC", "NOP")
	b.Set("EGTXCBS0Mod", "C0WMSK", "OPA", "C0OMOD", "SAT")
	b.Write16(Palette0, 0xF800)
	b.Write16(ByName("MGVStrm0Ctl").Addr+2, 0x000C) // a lone high half
	b.Set("EGPDTYPE", "TYPE", "TRIANGLE_STRIP")
	b.Set("MGBufCMSFire", "MODE", "BUFFER")
	b.Set("EGEND", "MODE", "WAIT_ALL")
	b.Nop()
	b.Write16(0x23E2, 0) // reserved
	b.Set("EGSRegA", "VALUE", 7)
	lines := Disassemble(b.Bytes(), 0x1000)
	golden(t, "hal_decode.golden", strings.Join(lines, "\n")+"\n")
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	gold.Text(t, gold.Path("glamo3365", name), got)
}

// FuzzDecode feeds arbitrary bytes to the parser and the decoder: neither
// may panic or loop, and every word gets exactly one line.
func FuzzDecode(f *testing.F) {
	var b Builder
	b.Set("EGEn0", "ZT", true)
	b.Burst(0x2400, 1, 2, 3)
	b.Nop()
	f.Add(b.Bytes())
	f.Add([]byte{0x00, 0xA1, 0xFF, 0xFF})
	f.Add([]byte{0x01})
	f.Fuzz(func(t *testing.T, buf []byte) {
		lines := Disassemble(buf, 0)
		if want := (len(buf) + 1) / 2; len(lines) != want {
			t.Fatalf("%d lines for %d bytes", len(lines), len(buf))
		}
		for off := 0; off+2 <= len(buf)&^1; {
			c, err := Parse(buf, off)
			if err != nil {
				break
			}
			if c.Next <= off {
				t.Fatalf("no progress at %d", off)
			}
			off = c.Next
		}
	})
}
