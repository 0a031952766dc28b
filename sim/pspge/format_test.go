package pspge

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	ge "github.com/retrogl/retrogl/hal/pspge"
)

// texCase draws a w x h texture 1:1 with a through-mode sprite (REPLACE,
// RGBA, nearest) and reads back the RGB of each pixel; a second draw
// blends FIX(0) + SRC_ALPHA over white to show each texel's alpha.
type texCase struct {
	name             string
	tpsm             uint32
	tmode            uint32
	cmode            uint32
	log2w, log2h     int
	tbw              int
	data, clut       []byte
	x, y             int
	rgb              uint32 // expected RGB of pixel (x, y)
	alpha            uint32
	clutBlocks       uint32
	extraWords       []uint32
	spriteW, spriteH int
}

func (tc texCase) run(t *testing.T) (uint32, uint32) {
	p := newPSP(t)
	p.init(3, 480, 272, 65535, 0)
	require.NoError(t, p.d.Write(autoTex, tc.data))
	if tc.clut != nil {
		require.NoError(t, p.d.Write(autoTex+0x8000, tc.clut))
		p.emit(ge.Word(ge.CBP, (autoTex+0x8000)&0xFFFFF0), ge.Word(ge.CBPH, (autoTex>>8)&0x0F0000),
			ge.Word(ge.CLOAD, tc.clutBlocks), ge.Word(ge.CMODE, tc.cmode))
	}
	p.emit(ge.Word(ge.TME, 1), ge.Word(ge.TPSM, tc.tpsm), ge.Word(ge.TMODE, tc.tmode), ge.Word(ge.TFLT, 0),
		ge.Word(ge.TFUNC, 3|0x100))
	p.emit(texImage(tc.log2w, tc.log2h, tc.tbw, autoTex)...)
	p.emit(tc.extraWords...)
	w, h := 1<<tc.log2w, 1<<tc.log2h
	sw, sh := w, h
	if tc.spriteW != 0 {
		sw, sh = tc.spriteW, tc.spriteH
	}
	vb := make([]byte, 20)
	binary.LittleEndian.PutUint16(vb[10:], uint16(w))
	binary.LittleEndian.PutUint16(vb[12:], uint16(h))
	binary.LittleEndian.PutUint16(vb[14:], uint16(sw))
	binary.LittleEndian.PutUint16(vb[16:], uint16(sh))
	vt := ge.VType{TexCoord: ge.Fmt16, Pos: ge.Fmt16, Through: true}
	draw := cat(p.vertices(vt, vb), []uint32{ge.Word(ge.PRIM, 6<<16|2)})
	p.fillWord(0, 512*16*4)
	p.emit(ge.Word(ge.ABE, 0))
	p.emit(draw...)
	p.run()
	rgb := p.word32(tc.x, tc.y) & 0xFFFFFF
	p.init(3, 480, 272, 65535, 0)
	p.fillWord(0xFFFFFFFF, 512*16*4)
	p.emit(ge.Word(ge.ABE, 1))
	p.emit(blendFunc(guAdd, guFix, guSrcAlpha, 0, 0)...)
	p.emit(draw...)
	p.run()
	return rgb, p.word32(tc.x, tc.y) & 0xFF
}

func le16(vs ...uint16) []byte {
	b := make([]byte, 2*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint16(b[2*i:], v)
	}
	return b
}

func le32(vs ...uint32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

// TestTextureFormatWords pins each TPSM and CLUT mode to literal texel
// words (R in the low bits, bit replication on widening; guide §3).
func TestTextureFormatWords(t *testing.T) {
	clut32 := make([]byte, 1024)
	for i := 0; i < 256; i++ {
		binary.LittleEndian.PutUint32(clut32[4*i:], 0xFF330000|uint32(255-i)<<8|uint32(i))
	}
	clut16 := le16(0, 0, 0x4321, 0x83E0)
	swz := make([]byte, 256)
	// Texel (5, 1) of an 8x8 swizzled 8888 texture (pitch 32 bytes): byte
	// column 20 is block 1, so ((1>>3)*2 + 1)*128 + 1*16 + 4 = 148.
	binary.LittleEndian.PutUint32(swz[148:], 0xAABBCCDD)
	dxt3 := append(le16(0, 0, 0xF800, 0), le16(0x000A, 0, 0, 0)...)
	dxt3 = append([]byte{0, 0, 0, 0}, dxt3[4:]...)
	for _, tc := range []texCase{
		{name: "5650 red", tpsm: 0, log2w: 2, tbw: 8, data: le16(0x001F, 0x07E0, 0x8410, 0), x: 0, rgb: 0x0000FF, alpha: 0xFF},
		{name: "5650 green", tpsm: 0, log2w: 2, tbw: 8, data: le16(0x001F, 0x07E0, 0x8410, 0), x: 1, rgb: 0x00FF00, alpha: 0xFF},
		{name: "5650 replicated", tpsm: 0, log2w: 2, tbw: 8, data: le16(0x001F, 0x07E0, 0x8410, 0), x: 2, rgb: 0x848284, alpha: 0xFF},
		{name: "5551 red opaque", tpsm: 1, log2w: 2, tbw: 8, data: le16(0x801F, 0x7C00, 0, 0), x: 0, rgb: 0x0000FF, alpha: 0xFF},
		{name: "5551 blue clear", tpsm: 1, log2w: 2, tbw: 8, data: le16(0x801F, 0x7C00, 0, 0), x: 1, rgb: 0xFF0000, alpha: 0},
		{name: "4444", tpsm: 2, log2w: 2, tbw: 8, data: le16(0xF00F, 0x1234, 0, 0), x: 1, rgb: 0x223344, alpha: 0x11},
		{name: "8888", tpsm: 3, log2w: 2, tbw: 4, data: le32(0, 0x11223344, 0, 0), x: 1, rgb: 0x223344, alpha: 0x11},
		{name: "CLUT4 low nibble first", tpsm: 4, log2w: 2, tbw: 32, data: []byte{0x21, 0x43}, clut: clut32, clutBlocks: 32,
			cmode: 3 | 0xFF<<8, x: 1, rgb: 0x33FD02, alpha: 0xFF},
		{name: "CLUT8 shift mask start", tpsm: 5, log2w: 2, tbw: 16, data: []byte{0xA5, 0, 0, 0}, clut: clut32, clutBlocks: 32,
			cmode: 3 | 4<<2 | 0x0F<<8 | 1<<16, x: 0, rgb: 0x33E51A, alpha: 0xFF},
		{name: "CLUT16 4444", tpsm: 6, log2w: 2, tbw: 8, data: le16(0x0102, 0, 0, 0), clut: clut16, clutBlocks: 1,
			cmode: 2 | 0xFF<<8, x: 0, rgb: 0x332211, alpha: 0x44},
		{name: "CLUT32 5551", tpsm: 7, log2w: 2, tbw: 4, data: le32(3, 0, 0, 0), clut: clut16, clutBlocks: 1,
			cmode: 1 | 0xFF<<8, x: 0, rgb: 0x00FF00, alpha: 0xFF},
		{name: "swizzled 8888", tpsm: 3, tmode: 1, log2w: 3, log2h: 3, tbw: 8, data: swz, x: 5, y: 1, rgb: 0xBBCCDD, alpha: 0xAA},
		{name: "DXT3 alpha nibble", tpsm: 9, log2w: 2, log2h: 2, tbw: 4, data: dxt3, x: 0, rgb: 0x0000F8, alpha: 0xA0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rgb, a := tc.run(t)
			assert.Equal(t, tc.rgb, rgb, "%#06x", rgb)
			assert.Equal(t, tc.alpha, a, "alpha %#02x", a)
		})
	}
}

// TestMipmapLOD minifies a 4x4 red level 0 with a 2x2 green level 1 onto
// 2x2 pixels (two texels per pixel: detail log2(2) = 1 level) and forces
// level 1 while magnifying with the constant LOD bias (TBIAS mode 1).
func TestMipmapLOD(t *testing.T) {
	red, green := make([]byte, 64), make([]byte, 64)
	for i := 0; i < 16; i++ {
		binary.LittleEndian.PutUint32(red[4*i:], 0xFF0000FF)
		binary.LittleEndian.PutUint32(green[4*i:], 0xFF00FF00)
	}
	lvl1 := append(texImage(1, 1, 4, autoTex+0x1000), ge.Word(ge.TFLT, 4))
	// The second level's data lives at autoTex+0x1000.
	tc := texCase{tpsm: 3, tmode: 1 << 16, log2w: 2, log2h: 2, tbw: 4, data: append(append(red, make([]byte, 0x1000-64)...), green...)}
	fix := func(ws []uint32) []uint32 {
		// texImage writes level 0's registers; rename them to level 1.
		out := []uint32{}
		for _, w := range ws {
			switch ge.Op(w >> 24) {
			case ge.TBP0:
				w = ge.Word(ge.TBP0+1, w)
			case ge.TBW0:
				w = ge.Word(ge.TBW0+1, w)
			case ge.TSIZE0:
				w = ge.Word(ge.TSIZE0+1, w)
			}
			out = append(out, w)
		}
		return out
	}
	tc.extraWords = fix(lvl1)
	tc.spriteW, tc.spriteH = 2, 2
	rgb, _ := tc.run(t)
	assert.Equal(t, uint32(0x00FF00), rgb, "minified by 2: level 1")
	tc.spriteW, tc.spriteH = 0, 0
	rgb, _ = tc.run(t)
	assert.Equal(t, uint32(0x0000FF), rgb, "1:1: level 0")
	tc.extraWords = append(fix(lvl1), ge.Word(ge.TBIAS, 1|16<<16))
	rgb, _ = tc.run(t)
	assert.Equal(t, uint32(0x00FF00), rgb, "constant LOD +1 level")
}

// TestLogicOpWords runs the 16 logic ops on source 0x5A3C0F over
// destination 0x33CC99 (8888, stencil byte kept).
func TestLogicOpWords(t *testing.T) {
	want := [16]uint32{0x000000, 0x120c09, 0x483006, 0x5a3c0f, 0x21c090, 0x33cc99, 0x69f096, 0x7bfc9f,
		0x840360, 0x960f69, 0xcc3366, 0xde3f6f, 0xa5c3f0, 0xb7cff9, 0xedf3f6, 0xffffff}
	for op := uint32(0); op < 16; op++ {
		p := newPSP(t)
		p.init(3, 480, 272, 65535, 0)
		p.fillWord(0x7733CC99, 512*8*4)
		p.emit(ge.Word(ge.LOE, 1), ge.Word(ge.LOP, op))
		p.emit(p.vertices(ge.VType{Color: ge.Color8888, Pos: ge.Fmt16, Through: true}, spriteVerts(0xFF5A3C0F, 4, 4))...)
		p.emit(ge.Word(ge.PRIM, 6<<16|2))
		p.run()
		assert.Equal(t, 0x77000000|want[op], p.word32(1, 1), "op %d (%s)", op, ge.EnumLogicOp[op])
	}
}

func spriteVerts(col uint32, w, h int) []byte {
	v := make([]byte, 24)
	binary.LittleEndian.PutUint32(v[12:], col)
	binary.LittleEndian.PutUint32(v, col)
	binary.LittleEndian.PutUint16(v[16:], uint16(w))
	binary.LittleEndian.PutUint16(v[18:], uint16(h))
	return v
}

// TestStencilOpsWords runs each SOP operation as zpass on the three
// stencil formats from a stored stencil of 0x80 (8888), 8 (4444) and 1
// (5551); ref 0x3C.
func TestStencilOpsWords(t *testing.T) {
	for _, tc := range []struct {
		psm        uint32
		fill       uint32
		op         uint32
		want, mask uint32
	}{
		{3, 0x80000000, 0, 0x80000000, 0xFF000000}, // KEEP
		{3, 0x80000000, 1, 0x00000000, 0xFF000000}, // ZERO
		{3, 0x80000000, 2, 0x3C000000, 0xFF000000}, // REPLACE
		{3, 0x80000000, 3, 0x7F000000, 0xFF000000}, // INVERT
		{3, 0x80000000, 4, 0x81000000, 0xFF000000}, // INCR
		{3, 0x80000000, 5, 0x7F000000, 0xFF000000}, // DECR
		{2, 0x80008000, 4, 0x9000, 0xF000},         // 4444 INCR: 0x88 + 0x10 -> nibble 9
		{2, 0x80008000, 5, 0x7000, 0xF000},         // 4444 DECR
		{2, 0x80008000, 2, 0x3000, 0xF000},         // 4444 REPLACE 0x3C -> nibble 3
		{1, 0x80008000, 5, 0x0000, 0x8000},         // 5551 DECR -> 0
		{1, 0x00000000, 4, 0x8000, 0x8000},         // 5551 INCR -> 0xFF
	} {
		p := newPSP(t)
		p.init(tc.psm, 480, 272, 65535, 0)
		p.fillWord(tc.fill, 512*8*4)
		p.emit(ge.Word(ge.STE, 1), ge.Word(ge.STST, 1|0x3C<<8|0xFF<<16), ge.Word(ge.SOP, tc.op<<16))
		p.emit(p.vertices(ge.VType{Color: ge.Color8888, Pos: ge.Fmt16, Through: true}, spriteVerts(0xFFFFFFFF, 4, 4))...)
		p.emit(ge.Word(ge.PRIM, 6<<16|2))
		p.run()
		var got uint32
		if tc.psm == 3 {
			got = p.word32(1, 1)
		} else {
			got = p.word16(1, 1)
		}
		assert.Equal(t, tc.want, got&tc.mask, "psm %d op %s: %#x", tc.psm, ge.EnumStencilOp[tc.op], got)
	}
}
