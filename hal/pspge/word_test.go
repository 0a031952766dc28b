package pspge

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The words below are the guide's checkable facts (shared/notes/pspge.md
// §6), written as literals: they must never be computed by this package.

func TestFloat24Facts(t *testing.T) {
	for _, tc := range []struct {
		f    float32
		want uint32
	}{
		{1.0, 0x3F8000},
		{-1.0, 0xBF8000},
		{240.0, 0x437000},
		{-136.0, 0xC30800},
		{2048.0, 0x450000},
		{1.0 / 3, 0x3EAAAA}, // truncated, not ..AB
		{0.1, 0x3DCCCC},
		{float32(math.Inf(1)), 0x7F8000},
	} {
		assert.Equal(t, tc.want, F24(tc.f), "F24(%v)", tc.f)
	}
	assert.Equal(t, float32(0.099998474), FromF24(0x3DCCCC))
	neg0 := FromF24(0x800000)
	assert.True(t, neg0 == 0 && math.Signbit(float64(neg0)), "0x800000 is -0")
	assert.Equal(t, uint32(0x7F8000), F24(math.Float32frombits(0x7F800001)), "short NaN payload becomes +Inf")
}

func TestWordFacts(t *testing.T) {
	base, low := Addr(0x08812340)
	for _, tc := range []struct {
		name      string
		got, want uint32
	}{
		{"XSCALE 480", WordF(XSCALE, 240), 0x42437000},
		{"YSCALE 272", WordF(YSCALE, -136), 0x43C30800},
		{"OFFSETX", Word(OFFSETX, (2048-240)<<4), 0x4C007100},
		{"OFFSETY", Word(OFFSETY, (2048-136)<<4), 0x4D007780},
		{"BASE for 0x08812340", base, 0x10080000},
		{"VADDR for 0x08812340", Word(VADDR, low), 0x01812340},
		{"PRIM tris 3", Fields(PRIM, "type", "TRIANGLES", "count", 3), 0x04030003},
		{"PRIM sprites 2", Fields(PRIM, "type", "SPRITES", "count", 2), 0x04060002},
		{"VTYPE uvf 8888 posf", VType{TexCoord: FmtFloat, Color: Color8888, Pos: FmtFloat}.Word(), 0x1200019F},
		{"VTYPE 8888 s16 through", VType{Color: Color8888, Pos: Fmt16, Through: true}.Word(), 0x1280011C},
		{"TSIZE0 256x128", Fields(TSIZE0, "w", 8, "h", 7), 0xB8000708},
		{"TFLT", Fields(TFLT, "min", "NEAREST_MIPMAP_LINEAR", "mag", "LINEAR"), 0xC6000106},
		{"ALPHA src alpha", Fields(ALPHA, "src", "SRC_ALPHA", "dst", "ONE_MINUS_SRC_ALPHA", "op", "ADD"), 0xDF000032},
		{"ALPHA fix fix", Fields(ALPHA, "src", "FIX", "dst", "FIX"), 0xDF0000AA},
		{"ATST greater 0x80", Fields(ATST, "func", "GREATER", "ref", 0x80, "mask", 0xFF), 0xDBFF8006},
		{"SOP zpass replace", Fields(SOP, "sfail", "KEEP", "zfail", "KEEP", "zpass", "REPLACE"), 0xDD020000},
		{"ZMSK", Word(ZMSK, 1), 0xE7000001},
		{"PMSKC green", Fields(PMSKC, "g", 0xFF), 0xE800FF00},
		{"SCISSOR2", Fields(SCISSOR2, "x", 479, "y", 271), 0xD5043DDF},
		{"TRXSIZE 480x272", Fields(TRXSIZE, "w", 480, "h", 272), 0xEE043DDF},
		{"CLEAR all", Fields(CLEAR, "enable", true, "color", true, "stencil", true, "depth", true), 0xD3000701},
	} {
		assert.Equal(t, tc.want, tc.got, "%s: got %#08x", tc.name, tc.got)
	}
}

func TestDitherRowFact(t *testing.T) {
	// DTH row 0x1D0C = -4, 0, -3, 1 (cell 0 in the low nibble, signed).
	assert.Equal(t, "DTH0 c0=-4 c1=0 c2=-3 c3=1", Decode(0xE2001D0C))
}

func TestLayoutFacts(t *testing.T) {
	for _, tc := range []struct {
		vt             VType
		size, nrm, pos int
	}{
		{VType{TexCoord: FmtFloat, Color: Color8888, Pos: FmtFloat}, 24, 0, 12},
		{VType{Color: Color8888, Pos: Fmt16, Through: true}, 12, 0, 4},
		{VType{Normal: Fmt8, Pos: FmtFloat}, 16, 0, 4},
	} {
		l := tc.vt.Layout()
		assert.Equal(t, tc.size, l.Size, "%+v size", tc.vt)
		assert.Equal(t, tc.pos, l.PosOff, "%+v position offset", tc.vt)
		assert.Equal(t, tc.nrm, l.NormalOff, "%+v normal offset", tc.vt)
	}
	// Morph targets repeat the whole layout.
	assert.Equal(t, 3*16, VType{Color: Color8888, Pos: FmtFloat, Morphs: 3}.Layout().Size)
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		w    uint32
		want string
	}{
		{0x04030003, "PRIM count=3 type=TRIANGLES"},
		{0x42437000, "XSCALE 240"},
		{0x1200019F, "VTYPE tc=FLOAT color=8888 normal=NONE pos=FLOAT weight=NONE index=NONE weights=1 morphs=1 through=0"},
		{0xDF000032, "ALPHA src=SRC_ALPHA dst=ONE_MINUS_SRC_ALPHA op=ADD"},
		{0x0F001234, "FINISH arg=0x1234"},
		{0x0E100020, "SIGNAL arg=0x20 behaviour=0x10 (JUMP)"},
		{0x03000000, "OP_03 0x000000 (undefined)"},
		{0xC8F00001, "TBIAS mode=CONST bias=-16"},
	} {
		assert.Equal(t, tc.want, Decode(tc.w), "%#08x", tc.w)
	}
	lines := Disassemble([]byte{3, 0, 3, 4, 0, 0, 0, 0x0C, 1}, 0x08000000)
	require.Len(t, lines, 3)
	assert.Equal(t, "0x08000000  04030003  PRIM count=3 type=TRIANGLES", lines[0])
	assert.Equal(t, "0x08000004  0c000000  END", lines[1])
	assert.Contains(t, lines[2], "1 trailing bytes")
}

// TestTable checks the command table against the seed's shape: every field
// fits in the 24-bit argument, enum fields have a name for every value of
// their width, and no two fields of a command overlap.
func TestTable(t *testing.T) {
	n := 0
	for op, c := range Table {
		if c == nil {
			continue
		}
		n++
		assert.Equal(t, Op(op), c.Op)
		assert.NotZero(t, c.Line, "%s has no seed line", c.Name)
		var used uint32
		for _, f := range c.Fields {
			assert.LessOrEqual(t, f.Lo, f.Hi, "%s.%s", c.Name, f.Name)
			assert.Less(t, f.Hi, uint8(24), "%s.%s", c.Name, f.Name)
			m := f.Put(^uint32(0))
			assert.Zero(t, used&m, "%s.%s overlaps", c.Name, f.Name)
			used |= m
			if f.Kind == Enum {
				assert.Len(t, f.Enum, 1<<(f.Hi-f.Lo+1), "%s.%s enum size", c.Name, f.Name)
			}
		}
	}
	// The seed lists 223 commands (opcodes 0x00-0xEE minus the gaps).
	assert.Equal(t, 223, n)
	assert.Equal(t, "PRIM", PRIM.String())
	assert.Equal(t, "OP_FF", Op(0xFF).String())
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{3, 0, 3, 4, 0, 0, 0, 0x0C})
	f.Add([]byte{0x32, 0, 0, 0xDF, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, b []byte) {
		lines := Disassemble(b, 0x08000000)
		if len(lines) != (len(b)+3)/4 {
			t.Fatalf("%d bytes gave %d lines", len(b), len(lines))
		}
		for i := 0; i+4 <= len(b); i += 4 {
			w := binary.LittleEndian.Uint32(b[i:])
			if !strings.Contains(lines[i/4], Decode(w)) {
				t.Fatalf("line %d does not hold the decoded word", i/4)
			}
		}
	})
}
