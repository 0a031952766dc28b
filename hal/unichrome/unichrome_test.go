package unichrome

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
)

func attr(name string) *Reg { return Named(SpaceAttr, name) }
func tex(name string) *Reg  { return Named(SpaceTex, name) }

// TestCheckableFacts pins encodings to the literal words of the guide's
// "checkable facts" (shared/notes/unichrome.md §8), never to values the
// package computes.
func TestCheckableFacts(t *testing.T) {
	tests := []struct {
		fact int
		name string
		got  uint32
		want uint32
	}{
		{1, "3D base", MMIOBase, 0x400},
		{1, "TransSet", RegTransSet, 0x43C},
		{1, "Hpara0", RegPara0, 0x440},
		{1, "HparaAF", RegParaLast - MMIOBase, 0x2FC},
		{2, "176 parameters", NumParams, 176},
		{2, "#109 at 1F4h", RegPara0 + 4*109 - MMIOBase, 0x1F4},
		{3, "tex1", TransSet(TypeTex, SubTex1, 0, 0), 0x01020000},
		{3, "general texture", TransSet(TypeTex, SubTexGeneral, 0, 0), 0xFE020000},
		{3, "stipple", TransSet(TypePalette, SubStipple, 0, 0), 0x14030000},
		{3, "byte lanes", TransSet(0x33, 0x44, 0x22, 0x11), 0x44332211},
		{4, "Z test LESS", attr("HZWTMD").Word("func", "LESS"), 0x15010000},
		{5, "CmdB header", CmdBWord(0, 0, 0), 0xEC000000},
		{5, "CmdB X|Y|Z|Cd", CmdBWord(MaskX|MaskY|MaskZ|MaskCd, 0, 0), 0xEC007400},
		{7, "X", MaskX, 0x4000}, {7, "Y", MaskY, 0x2000}, {7, "Z", MaskZ, 0x1000}, {7, "W", MaskW, 0x800},
		{7, "Cd", MaskCd, 0x400}, {7, "Cs", MaskCs, 0x200}, {7, "S", MaskS, 0x100}, {7, "T", MaskT, 0x80},
		{8, "full", CycleFull, 0x00}, {8, "AFP", CycleAFP, 0x40}, {8, "one", CycleOne, 0xC0},
		{9, "strip odd", uint32(StripOdd), 0x78}, {9, "strip even", uint32(StripEven), 0x1C},
		{9, "fan odd", uint32(FanOdd), 0x5C}, {9, "line strip", uint32(LineStripOdd), 0x60},
		{9, "a = previous c", Cycle(VPrevC, 0, 0), 0x30},
		{10, "CCW is back", CmdBWord(0, CmdBCCWBack, 0), 0xEC000040},
		{11, "3D busy", EngSt3DBusy, 1}, {11, "2D busy", EngSt2DBusy, 2},
		{11, "CMDQ empty", EngStCmdQEmpty, 0x20000}, {11, "RC busy", EngStRCBusy, 0x40000},
		{12, "H1 overflow", ErrH1Overflow, 0x10000000}, {12, "H3 count", ErrH3CountExceeded, 0x20000000},
		{13, "Z24S8", attr("HZWBType").Word("fmt", "Z24S8"), 0x12030000},
		{13, "Z16", attr("HZWBType").Word("fmt", "Z16"), 0x12000000},
		{13, "Z32", attr("HZWBType").Word("fmt", "Z32"), 0x12020000},
		{14, "GEQUAL", attr("HZWTMD").Build("func", "GEQUAL") >> 16, 6},
		{14, "ALWAYS", attr("HZWTMD").Build("func", "ALWAYS") >> 16, 7},
		{15, "INCRSAT", attr("HSTMD").Build("zpass", "INCRSAT"), 3},
		{15, "DECRSAT", attr("HSTMD").Build("zpass", "DECRSAT"), 4},
		{15, "INCR wrap", attr("HSTMD").Build("zpass", "INCR"), 6},
		{15, "INVERT", attr("HSTMD").Build("zpass", "INVERT"), 5},
		{15, "sfail", attr("HSTMD").Build("sfail", "REPLACE", "func", "LESS"), 0x10080},
		{16, "stencil ref/masks", attr("HSTREF").Word("ref", 0x80, "opmask", 0xFF, "wmask", 0x0F), 0x2380FF0F},
		{17, "alpha GEQUAL 0x80", attr("HATMD").Word("func", "GEQUAL", "ref", 0x80), 0x33000680},
		{19, "FCa min(Asrc,1-Adst) inverted", attr("HABLCsat").Build("fca_mod", "INV", "fca", "MIN_ASRC_INV_ADST"), 0x180},
		{20, "34h SRC_ALPHA", attr("HABLCsat").Word("ca", "SRC", "fca", "ASRC"), 0x34000020},
		{20, "35h ONE_MINUS_SRC_ALPHA", attr("HABLCop").Word("cb", "DST", "fcb_mod", "INV", "fcb", "ASRC"), 0x35000148},
		{21, "dst ARGB8888", attr("HDBFM").Word("fmt", "ARGB8888"), 0x42090000},
		{21, "dst RGB565", attr("HDBFM").Word("fmt", "RGB565"), 0x42010000},
		{21, "dst pitch [OUT]", attr("HDBFM").Word("fmt", "ARGB8888", "pitch", 2560), 0x42090A00},
		{22, "dst 010", attr("HDBFM").Build("fmt", "ARGB4444"), 0x20000},
		{25, "tex ABGR8888", tex("HTXnFM").Word("fmt", TexABGR8888), 0x7BB90000},
		{25, "tex RGB565", tex("HTXnFM").Word("fmt", TexRGB565), 0x7B890000},
		{25, "tex L8", tex("HTXnFM").Word("fmt", TexL8), 0x7B130000},
		{28, "PITE 1010", tex("HTXnL0Pit").Word("pite", 10), 0x2BA00000},
		{29, "LVmax/LVmin", tex("HTXnL0OS").Word("lvmax", 11, "lvmin", 0), 0x770002C0},
		{30, "high bytes", tex("HTXnL012BasH").Word("l0", 0x12, "l1", 0x34, "l2", 0x56), 0x20563412},
		{30, "level B high", tex("HTXnL9ABBasH").Word("lb", 0x7F), 0x237F0000},
		{31, "S/T repeat", tex("HTXnMPMD").Word("s", "REPEAT", "t", "REPEAT"), 0x79120000},
		{32, "all linear", tex("HTXnTB").Word("mag_s", "LINEAR", "min_s", "LINEAR", "mag_t", "LINEAR", "min_t", "LINEAR", "mip", "LINEAR"), 0x78002492},
		{32, "level 0 only", tex("HTXnTB").Build("mip", "LEVEL0"), 0},
		{33, "shift x1", tex("HTXnTBLCop").Build("cshift", "X1"), 0x1000},
		{33, "shift x2", tex("HTXnTBLCop").Build("cshift", "X2"), 0},
		{33, "shift x4", tex("HTXnTBLCop").Build("ashift", "X4"), 1},
		{34, "Ca zero", tex("HTXnTBLCsat").Build("ca", "ZERO"), 0},
		{34, "Cc tex_next", tex("HTXnTBLCsat").Build("cc", "TEX_NEXT"), 0xA},
		{34, "Cb x-0.5", tex("HTXnTBLCsat").Build("cb_mod", "X-0.5"), 0x1000},
		{34, "Ca = 1 (Mesa 0x10)", tex("HTXnTBLCsat").Build("ca_mod", "INV", "ca", "ZERO") >> 14, 0x10},
		{35, "texture Csat", tex("HTXnTBLCsat").Build("sat", true), 0x800000},
		{35, "blend no-clamp", attr("HABLCsat").Build("nosat", true), 0x10000},
		{36, "fog local Eq0", attr("HFogLF").Word("mode", "LOCAL", "eq", "EQ0"), 0x50000000},
		{38, "stipple offsets", attr("HSPXYOS").Word("xos", 31, "yos", 5), 0x7C01F005},
		{39, "pixel centre .5", attr("HPixGC").Word("center", "CENTER_HALF"), 0x7B000000},
		{39, "pixel centre .0", attr("HPixGC").Word("center", "CENTER_INT"), 0x7B800000},
		{40, "clip top/bottom", attr("HClipTB").Word("top", 10, "bottom", 20), 0x7000A014},
		{40, "clip 2047", attr("HClipLR").Word("left", 2047, "right", 2047), 0x717FF7FF},
		{0, "CmdA tri Gouraud", CmdAWord(PrimTri, ShadeGouraud, CycleFull), 0xEE021000},
		{0, "CmdA end [OUT]", CmdAWord(PrimTri, ShadeGouraud, CycleFull) | CmdAEnd, 0xEE121300},
		{0, "header 1 to 0x43C", H1(RegTransSet), 0xF000010F},
		{0, "header 2", Header2, 0xF210F110},
		{0, "enable Z test [OUT 00h]", attr("HEnable").Word("zt", true, "zw", true), 0x00003000},
		{0, "planemask [OUT]", attr("HFBBMSKL").Word("r", 0xFF, "g", 0xFF, "b", 0xFF), 0x43FFFFFF},
		{0, "ROP COPY [OUT]", attr("HROP").Word("rop", 12, "amask", 0xFF), 0x44000CFF},
		{0, "HTXNum two [OUT]", Named(SpaceTexGen, "HTXSMD").Word("txnum", "TWO"), 0x00000008},
	}
	for _, tc := range tests {
		assert.Equalf(t, tc.want, tc.got, "fact %d: %s: got %#x", tc.fact, tc.name, tc.got)
	}
}

func TestVertexLayout(t *testing.T) {
	all := uint32(MaskX | MaskY | MaskZ | MaskW | MaskCd | MaskCs | MaskS | MaskT)
	assert.Equal(t, []Comp{CompX, CompY, CompZ, CompW, CompCd, CompCs, CompS0, CompT0, CompS1, CompT1}, Layout(all, 2))
	assert.Len(t, Layout(all, 2), 10)
	assert.Equal(t, []Comp{CompX, CompY, CompZ, CompW, CompCd, CompCs, CompS0, CompT0}, Layout(all, 1))
	assert.Equal(t, []Comp{CompX, CompY, CompCd}, Layout(MaskX|MaskY|MaskCd, 2))
	assert.Equal(t, []Comp{CompZ, CompS0, CompS1}, Layout(MaskZ|MaskS, 2))
}

func TestTextureFormats(t *testing.T) {
	f, ok := TexFormatOf(0xCB) // RGBA16 011
	require.True(t, ok)
	assert.Equal(t, "RGBA4444", f.Name)
	assert.Equal(t, Chan{12, 4}, f.R) // fact 26: R in 15:12
	f, _ = TexFormatOf(0xCA)          // RGBA16 010
	assert.Equal(t, "RGBA5551", f.Name)
	assert.Equal(t, Chan{0, 1}, f.A) // fact 26: A in bit 0
	f, _ = TexFormatOf(0x15)         // AL88
	assert.Equal(t, Chan{8, 8}, f.A) // fact 27
	assert.Equal(t, Chan{0, 8}, f.R)
	assert.Equal(t, "ARGB1555", TexFormatName(0x8A)) // fact 22: texture 010 = 1555
	assert.Equal(t, "ARGB4444", TexFormatName(0x8B))
	assert.Equal(t, "ABGR8888", TexFormatName(0xB9))
	assert.Equal(t, "I8", TexFormatName(0x03))
	assert.Equal(t, "DXT1", TexFormatName(0x29))
	assert.Equal(t, "RSV_20", TexFormatName(0x20))
	assert.Equal(t, "T1", TexFormatName(0x08))
	d, ok := DstFormatOf(DstARGB4444)
	require.True(t, ok)
	assert.Equal(t, Chan{12, 4}, d.A) // fact 22: destination 010 = ARGB4444
	_, ok = DstFormatOf(0xC)
	assert.False(t, ok)
}

func TestTableIsConsistent(t *testing.T) {
	for s := Space(0); s < numSpaces; s++ {
		for sub, r := range Table[s] {
			if r == nil {
				continue
			}
			assert.Equal(t, uint8(sub), r.Sub)
			var used uint32
			for _, f := range r.Fields {
				assert.Zerof(t, used&f.Mask(), "%s: field %s overlaps", r.Name, f.Name)
				used |= f.Mask()
				assert.LessOrEqualf(t, f.Hi, uint8(23), "%s.%s beyond bit 23", r.Name, f.Name)
			}
		}
	}
	// Every per-level register exists for all twelve levels.
	for l := 0; l < MaxTexLevels; l++ {
		_, ok := Lookup(SpaceTex, uint8(TexBaseL0+l))
		assert.True(t, ok, "level %d base", l)
		_, ok = Lookup(SpaceTex, uint8(TexPitch0+l))
		assert.True(t, ok, "level %d pitch", l)
	}
}

func words(ws ...uint32) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

func f32(f float32) uint32 { return math.Float32bits(f) }

func TestDisassemble(t *testing.T) {
	buf := words(
		Header2, TransSet(TypeAttr, 0, 0, 0),
		attr("HZWTMD").Word("func", "LEQUAL"),
		attr("HDBFM").Word("fmt", "ABGR8888", "pitch", 2560),
		PadCC,
		H1(RegPara0), 0x23FF00FF, // a parameter through the FIFO window
		Header2, TransSet(TypeCmd, 0, 0, 0),
		CmdBWord(MaskX|MaskY|MaskCd, 0, 0),
		CmdAWord(PrimPoint, ShadeGouraud, CycleFull),
		f32(1.5), f32(2), 0xFF00FF00,
		CmdAWord(PrimPoint, ShadeGouraud, CycleFull)|CmdAEnd,
		CmdAWord(PrimPoint, ShadeGouraud, CycleFull)|CmdAEnd,
		Header2, TransSet(TypePalette, SubFogPalette, 0, 1), 0x04030201,
	)
	got := Disassemble(buf, 0x40000000)
	want := []string{
		"0x40000000  f210f110  HEADER2",
		"0x40000004  00010000  TRANSSET type=01(ATTR) sub=00 os=0 adr=0",
		"0x40000008  15030000  HZWTMD func=LEQUAL webias=0 znf=0",
		"0x4000000c  420b0a00  HDBFM expand=REPLICATE fmt=ABGR8888 loc=LOCAL pitch=2560",
		"0x40000010  cccccccc  PAD",
		"0x40000014  f0000110  HEADER1 -> Hpara0",
		"0x40000018  23ff00ff  HSTREF ref=255 opmask=0x0 wmask=0xff",
		"0x4000001c  f210f110  HEADER2",
		"0x40000020  00000000  TRANSSET type=00(CMD) sub=00 os=0 adr=0",
		"0x40000024  ec006400  HCmdB header=0x76 lprst=0 lastp=0 mask=X|Y|Cd bface=CW_IS_BACK second=FULL",
		"0x40000028  ee001000  HCmdA header=0x77 fire=0 prim=POINT eflag=0x0 shade=GOURAUD validn=0 plend=0 cycle=FULL (list start)",
		"0x4000002c  3fc00000  V0.X 1.5",
		"0x40000030  40000000  V0.Y 2",
		"0x40000034  ff00ff00  V0.Cd argb=0xff00ff00",
		"0x40000038  ee101300  HCmdA header=0x77 fire=1 prim=POINT eflag=0x0 shade=GOURAUD validn=1 plend=1 cycle=FULL (list end)",
		"0x4000003c  ee101300  HCmdA (repeated list end)",
		"0x40000040  f210f110  HEADER2",
		"0x40000044  10030001  TRANSSET type=03(PALETTE) sub=10 os=0 adr=1",
		"0x40000048  04030201  FOGPAL[4..7] 1,2,3,4",
	}
	assert.Equal(t, want, got)
	dec, err := hal.LookupDecoder("unichrome")
	require.NoError(t, err)
	assert.Equal(t, want, dec(buf, 0x40000000))
}

func TestWalkerErrors(t *testing.T) {
	tests := []struct {
		name   string
		ws     []uint32
		bit    uint32
		reason string
	}{
		{"no header", []uint32{0x12345678}, ErrUnexpectedHdr, "header was expected"},
		{"H1 overflow", []uint32{H1(RegTransSet), 0, 0x15000000}, ErrH1Overflow, "more than one data dword"},
		{"header 3", []uint32{Header3 | 1<<12}, ErrIllegalCommand, "header 3"},
		{"reserved type", []uint32{Header2, TransSet(0x05, 0, 0, 0)}, ErrIllegalCommand, "reserved transmission"},
		{"tex FFh", []uint32{Header2, TransSet(TypeTex, 0xFF, 0, 0)}, ErrIllegalCommand, "reserved transmission"},
		{"sub FFh", []uint32{Header2, TransSet(TypeAttr, 0, 0, 0), 0xFF000000}, ErrIllegalCommand, "FFh is prohibited"},
		{"undefined sub", []uint32{Header2, TransSet(TypeAttr, 0, 0, 0), 0x72000000}, ErrIllegalCommand, "undefined sub-address 72h"},
		{"CmdA first", []uint32{Header2, 0, CmdAWord(PrimTri, 4, 0)}, ErrIllegalCommand, "without a preceding Command B"},
		{"no XYZW", []uint32{Header2, 0, CmdBWord(MaskCd, 0, 0), CmdAWord(PrimTri, 4, 0)}, ErrIllegalCommand, "none of X, Y, Z, W"},
		{"junk in type 0", []uint32{Header2, 0, 0x12345678}, ErrIllegalCommand, "expected Command A or B"},
		{"palette overflow", []uint32{Header2, TransSet(TypePalette, SubStipple, 0, 31), 1, 2}, ErrIllegalCommand, "overflow"},
	}
	for _, tc := range tests {
		w := NewWalker()
		var last Token
		for _, x := range tc.ws {
			last = w.Next(x)
			if last.Kind == TokError {
				break
			}
		}
		require.Equal(t, TokError, last.Kind, tc.name)
		assert.Equal(t, tc.bit, last.ErrBit, tc.name)
		assert.Contains(t, last.Reason, tc.reason, tc.name)
	}
	// An open list at the end of the buffer is an error; a closed one not.
	w := NewWalker()
	for _, x := range []uint32{Header2, 0, CmdBWord(MaskX|MaskY, 0, 0), CmdAWord(PrimPoint, 4, 0), f32(1)} {
		w.Next(x)
	}
	tok, ok := w.End()
	assert.False(t, ok)
	assert.Contains(t, tok.Reason, "open vertex list")
	// Inside an open list a header pattern is vertex data (L2016).
	w = NewWalker()
	for _, x := range []uint32{Header2, 0, CmdBWord(MaskX|MaskY, 0, 0), CmdAWord(PrimPoint, 4, 0)} {
		w.Next(x)
	}
	tk := w.Next(Header2)
	assert.Equal(t, TokVertex, tk.Kind)
	assert.Equal(t, CompX, tk.Comp)
	tk = w.Next(0xCCCCCCCC)
	assert.Equal(t, TokVertex, tk.Kind)
	assert.True(t, tk.Last)
}

func TestWalkerTextureCount(t *testing.T) {
	w := NewWalker()
	for _, x := range []uint32{Header2, TransSet(TypeTex, SubTexGeneral, 0, 0), Named(SpaceTexGen, "HTXSMD").Word("txnum", "TWO")} {
		w.Next(x)
	}
	assert.Equal(t, 2, w.Textures)
	w.Reset()
	assert.Equal(t, 2, w.Textures, "HTXNum is a register and survives a CR reset")
	var comps []Comp
	for _, x := range []uint32{Header2, 0, CmdBWord(MaskX|MaskY|MaskS|MaskT, 0, 0), CmdAWord(PrimPoint, 4, 0), 1, 2, 3, 4, 5, 6} {
		if tk := w.Next(x); tk.Kind == TokVertex {
			comps = append(comps, tk.Comp)
		}
	}
	assert.Equal(t, []Comp{CompX, CompY, CompS0, CompT0, CompS1, CompT1}, comps)
}

func TestDecodeErrorsNeverPanic(t *testing.T) {
	lines := Disassemble([]byte{1, 2, 3, 4, 5}, 0)
	assert.Equal(t, "0x00000004  (1 trailing bytes)", lines[1])
	assert.True(t, strings.HasPrefix(lines[0], "0x00000000  04030201  ??"))
}

func FuzzDisassemble(f *testing.F) {
	f.Add(words(Header2, 0, CmdBWord(MaskX|MaskY, 0, 0x1C), CmdAWord(PrimTri, 4, 0x78), 1, 2, 3, 4, 5, 6, CmdAWord(PrimTri, 4, 0x78)|CmdAEnd))
	f.Add(words(Header2, TransSet(TypeAttr, 0, 0, 0), 0x15010000, H1(RegTransSet), 0x00020000, H1(0x500), 0x7B000000))
	f.Fuzz(func(t *testing.T, b []byte) {
		lines := Disassemble(b, 0x1000)
		if len(b) >= 4 && len(lines) < len(b)/4 {
			t.Fatalf("%d lines for %d dwords", len(lines), len(b)/4)
		}
	})
}
