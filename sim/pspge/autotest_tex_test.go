package pspge

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	ge "github.com/retrogl/retrogl/hal/pspge"
)

// ---- gpu/texfunc (shared.cpp, modulate.cpp, blend.cpp @ 528e6e6e) ----

// texFuncCase is one testTexFunc call: a 1x1 8888 texture of colour texc,
// a transform-mode sprite of colour c over pixel (0,0), TFUNC fn with RGBA
// or RGB, doubling, and the "alpha to RGB" variants that blend FIX(0) +
// SRC_ALPHA over a white buffer so the colour shows the fragment alpha.
type texFuncCase struct {
	name    string
	fn      uint32
	texc, c uint32
	env     uint32
	double  bool
	alpha   int // -1 disable (RGB), 0 normal, 1 to RGB, 2 disable to RGB
	want    uint32
}

func runTexFunc(t *testing.T, p *psp, tc texFuncCase) uint32 {
	p.list = p.list[:0]
	p.init(3, 480, 272, 65535, 0)
	p.emit(ge.Word(ge.TME, 1), ge.Word(ge.TFLT, 0), ge.Word(ge.TPSM, 3), ge.Word(ge.TMODE, 0),
		ge.WordF(ge.USCALE, 1), ge.WordF(ge.VSCALE, 1), ge.WordF(ge.UOFFSET, 0), ge.WordF(ge.VOFFSET, 0))
	clear := uint32(0x44444444)
	rgba := uint32(0x100)
	switch tc.alpha {
	case 1, 2:
		clear = 0xFFFFFFFF
		p.emit(ge.Word(ge.ABE, 1))
		p.emit(blendFunc(guAdd, guFix, guSrcAlpha, 0, 0)...)
		if tc.alpha == 2 {
			rgba = 0
		}
	case -1:
		p.emit(ge.Word(ge.ABE, 0))
		rgba = 0
	default:
		p.emit(ge.Word(ge.ABE, 0))
	}
	dbl := uint32(0)
	if tc.double {
		dbl = 0x10000
	}
	p.emit(ge.Word(ge.TFUNC, tc.fn|rgba|dbl), ge.Word(ge.TEC, tc.env&0xFFFFFF))
	texel := make([]byte, 64)
	for i := 0; i < 16; i++ {
		binary.LittleEndian.PutUint32(texel[4*i:], tc.texc)
	}
	require.NoError(t, p.d.Write(autoTex, texel))
	p.emit(texImage(0, 0, 1, autoTex)...)
	row := make([]byte, 512*4)
	for i := 0; i < 512; i++ {
		binary.LittleEndian.PutUint32(row[4*i:], clear)
	}
	require.NoError(t, p.d.Write(VRAMBase, row))
	p.emit(p.vertices(vtColorF32, colorF32(vc(tc.c, -1, -1, 0), vc(tc.c, -0.5, 1, 0)))...)
	p.emit(ge.Word(ge.PRIM, 6<<16|2))
	p.run()
	return p.word32(0, 0)
}

// modulateRounding is the R (= G) byte of COLOR=447fRRGG for each line
// "0x7F * 0x%02X" (i = 0..255) of modulate.expected's Rounding section.
const modulateRounding = "00000101020203030404050506060707080809090a0a0b0b0c0c0d0d0e0e0f0f10101111121213131414151516161717181819191a1a1b1b1c1c1d1d1e1e1f1f20202121222223232424252526262727282829292a2a2b2b2c2c2d2d2e2e2f2f30303131323233333434353536363737383839393a3a3b3b3c3c3d3d3e3e3f3f40404141424243434444454546464747484849494a4a4b4b4c4c4d4d4e4e4f4f50505151525253535454555556565757585859595a5a5b5b5c5c5d5d5e5e5f5f60606161626263636464656566666767686869696a6a6b6b6c6c6d6d6e6e6f6f70707171727273737474757576767777787879797a7a7b7b7c7c7d7d7e7e7f7f"

// blendPrimRounding is the R (= G) byte of COLOR=447fRRGG for the lines
// "Prim: 0x5F * 0x%02X + Zero" (i = 0x00..0xEB) of texfunc/blend.expected
// (the part of the file quoted here).
const blendPrimRounding = "000101020203030404050506060707080809090a0a0b0b0c0c0d0d0e0e0f0f10101111121213131414151516161717181819191a1a1b1b1c1c1d1d1e1e1f1f20202121222223232424252526262727282829292a2a2b2b2c2c2d2d2e2e2f2f30303131323233333434353536363737383839393a3a3b3b3c3c3d3d3e3e3f3f4040404141424243434444454546464747484849494a4a4b4b4c4c4d4d4e4e4f4f50505151525253535454555556565757585859595a5a5b5b5c5c5d5d5e5e5f5f60606161626263636464656566666767686869696a6a6b6b6c6c6d6d6e6e6f6f707071717272737374747575"

func texFuncCases() []texFuncCase {
	const mod, blend = 0, 2
	cs := []texFuncCase{
		{"modulate One * One", mod, 0xFFFFFFFF, 0xFFFFFFFF, 0, false, 0, 0x44ffffff},
		{"modulate One * Zero", mod, 0xFFFFFFFF, 0, 0, false, 0, 0x44000000},
		{"modulate Zero * One", mod, 0, 0xFFFFFFFF, 0, false, 0, 0x44000000},
		{"modulate Half * Half", mod, 0x7F7F7F7F, 0x7F7F7F7F, 0, false, 0, 0x443f3f3f},
		{"modulate 7F + 3F", mod, 0x7F7F7F7F, 0x3F3F3F3F, 0, false, 0, 0x441f1f1f},
		{"modulate 7F + 3F (RGB)", mod, 0x7F7F7F7F, 0x3F3F3F3F, 0, false, -1, 0x441f1f1f},
		{"modulate Half x2 * Half", mod, 0x7F7F7F7F, 0x7F7F7F7F, 0, true, 0, 0x447f7f7f},
		{"modulate One x2 * Half", mod, 0xFFFFFFFF, 0x7F7F7F7F, 0, true, 0, 0x44ffffff},
		{"modulate Half x2 * One", mod, 0x7F7F7F7F, 0xFFFFFFFF, 0, true, 0, 0x44fefefe},
		{"modulate Quarter x2 * Half", mod, 0x3F3F3F3F, 0x7F7F7F7F, 0, true, 0, 0x443f3f3f},
		{"modulate Half * Half (alpha)", mod, 0x7F000000, 0x7F000000, 0, false, 1, 0xff3f3f3f},
		{"modulate Half x2 * Half (alpha)", mod, 0x7F000000, 0x7F000000, 0, true, 1, 0xff3f3f3f},
		{"modulate RGB func only", mod, 0x7F7F7F7F, 0x7F7F7F7F, 0, false, 2, 0xff7f7f7f},
		{"modulate RGB func only + double", mod, 0x7F7F7F7F, 0x7F7F7F7F, 0, true, 2, 0xff7f7f7f},
		{"blend One + One", blend, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, false, 0, 0x44ffffff},
		{"blend One + Zero", blend, 0xFFFFFFFF, 0, 0xFFFFFFFF, false, 0, 0x44ffffff},
		{"blend Zero + One", blend, 0, 0xFFFFFFFF, 0xFFFFFFFF, false, 0, 0x44ffffff},
		{"blend Half + Half", blend, 0x7F7F7F7F, 0x7F7F7F7F, 0xFFFFFFFF, false, 0, 0x44bfbfbf},
		{"blend 7F + 3F", blend, 0x7F7F7F7F, 0x3F3F3F3F, 0xFFFFFFFF, false, 0, 0x449f9f9f},
		{"blend 7F + 3F (RGB)", blend, 0x7F7F7F7F, 0x3F3F3F3F, 0xFFFFFFFF, false, -1, 0x449f9f9f},
		{"blend One + Zero, half env", blend, 0xFFFFFFFF, 0, 0x7F7F7F7F, false, 0, 0x447f7f7f},
		{"blend Zero + One, half env", blend, 0, 0xFFFFFFFF, 0x7F7F7F7F, false, 0, 0x44ffffff},
		{"blend Half x2 + Half", blend, 0x7F7F7F7F, 0x7F7F7F7F, 0x5F5F5F5F, true, 0, 0x44dfdfdf},
		{"blend One x2 + Half", blend, 0xFFFFFFFF, 0x7F7F7F7F, 0x5F5F5F5F, true, 0, 0x44bfbfbf},
		{"blend Half x2 + One", blend, 0x7F7F7F7F, 0xFFFFFFFF, 0x5F5F5F5F, true, 0, 0x44ffffff},
		{"blend Quarter x2 + Half", blend, 0x3F3F3F3F, 0x7F7F7F7F, 0x5F5F5F5F, true, 0, 0x44efefef},
		{"blend Half + Half (alpha)", blend, 0x7F000000, 0x7F000000, 0x5F5F5F5F, false, 1, 0xff3f3f3f},
		{"blend Half x2 + Half (alpha)", blend, 0x7F000000, 0x7F000000, 0x5F5F5F5F, true, 1, 0xff3f3f3f},
		{"blend RGB func only", blend, 0xFF7F3F7F, 0x3FFF7F7F, 0x5F5F5F5F, false, 2, 0xff3f3f3f},
		{"blend RGB func only + double", blend, 0xFF7F3F7F, 0x3FFF7F7F, 0x5F5F5F5F, true, 2, 0xff3f3f3f},
	}
	m, _ := hex.DecodeString(modulateRounding)
	for i, v := range m {
		texc := uint32(i)<<24 | 0xFF<<16 | uint32(i)<<8 | uint32(i)
		cs = append(cs, texFuncCase{fmt.Sprintf("modulate 0x7F * 0x%02X", i), mod, texc, 0x7F7F7F7F, 0, false, 0,
			0x447f0000 | uint32(v)<<8 | uint32(v)})
	}
	b, _ := hex.DecodeString(blendPrimRounding)
	for i, v := range b {
		primc := uint32(0x5F)<<24 | 0xFF<<16 | uint32(i)<<8 | uint32(i)
		cs = append(cs, texFuncCase{fmt.Sprintf("blend Prim: 0x5F * 0x%02X", i), blend, 0x00808080, primc, 0, false, 0,
			0x447f0000 | uint32(v)<<8 | uint32(v)})
	}
	return cs
}

func TestAutotestTexFunc(t *testing.T) {
	p := newPSP(t)
	for _, tc := range texFuncCases() {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			require.Equal(t, tc.want, runTexFunc(t, p, tc))
		})
	}
}

// ---- gpu/texcolors (dxt1.cpp @ 40317c54, dxt1.expected @ 41a465eb;
// dxt5.cpp @ 40317c54, dxt5.expected @ 9bfb912b) ----

// dxtBlock is one PSP DXT colour block: u8 lines[4], u16 color1, u16 color2.
func dxtBlock(c1, c2 uint16, lines [4]byte) []byte {
	b := make([]byte, 8)
	copy(b, lines[:])
	binary.LittleEndian.PutUint16(b[4:], c1)
	binary.LittleEndian.PutUint16(b[6:], c2)
	return b
}

// drawDXT draws the tests' 2x2 through-mode sprite (u16 UV, s16 position)
// with an 8x8 DXT texture at autoTex, REPLACE/RGBA, clamped, nearest; with
// exposeAlpha it blends FIX(0) + SRC_ALPHA over a 0xFF buffer so the RGB
// shows the texel alpha. It returns the RGB of pixel (0,0).
func drawDXT(t *testing.T, p *psp, format uint32, exposeAlpha bool) uint32 {
	p.list = p.list[:0]
	p.init(3, 480, 272, 65535, 65500)
	fill := uint32(0)
	if exposeAlpha {
		fill = 0xFFFFFFFF
	}
	p.fillWord(fill, 512*4)
	p.emit(ge.Word(ge.SCISSOR2, 7|7<<10), ge.Word(ge.DTE, 0), ge.Word(ge.TME, 1), ge.Word(ge.TPSM, format), ge.Word(ge.TMODE, 0),
		ge.Word(ge.TWRAP, 0x101), ge.Word(ge.TFUNC, 3|0x100), ge.WordF(ge.TSLOPE, 2), ge.Word(ge.TFLT, 0))
	p.emit(texImage(3, 3, 8, autoTex)...)
	if exposeAlpha {
		p.emit(ge.Word(ge.ABE, 1))
		p.emit(blendFunc(guAdd, guFix, guSrcAlpha, 0, 0xFFFFFF)...)
	} else {
		p.emit(ge.Word(ge.ABE, 0))
	}
	vb := make([]byte, 20)
	binary.LittleEndian.PutUint16(vb[10:], 2)
	binary.LittleEndian.PutUint16(vb[12:], 2)
	binary.LittleEndian.PutUint16(vb[14:], 2)
	binary.LittleEndian.PutUint16(vb[16:], 2)
	p.emit(p.vertices(ge.VType{TexCoord: ge.Fmt16, Pos: ge.Fmt16, Through: true}, vb)...)
	p.emit(ge.Word(ge.PRIM, 6<<16|2))
	p.run()
	return p.word32(0, 0) & 0xFFFFFF
}

var dxt1Cases = []struct {
	name         string
	c1, c2       uint16
	line         byte
	color, alpha uint32
}{
	{"White 0", 0xFFFF, 0xFFFF, 0, 0xf8fcf8, 0xffffff},
	{"White 1", 0xFFFF, 0xFFFF, 0x55, 0xf8fcf8, 0xffffff},
	{"White 2", 0xFFFF, 0xFFFF, 0xAA, 0xf8fcf8, 0xffffff},
	{"White 3", 0xFFFF, 0xFFFF, 0xFF, 0x000000, 0x000000},
	{"First greater 0", 0xFFE3, 0x8410, 0, 0x18fcf8, 0xffffff},
	{"First greater 1", 0xFFE3, 0x8410, 0x55, 0x808080, 0xffffff},
	{"First greater 2", 0xFFE3, 0x8410, 0xAA, 0x3ad2d0, 0xffffff},
	{"First greater 3", 0xFFE3, 0x8410, 0xFF, 0x5da9a8, 0xffffff},
	{"First lesser 0", 0x8410, 0xF85F, 0, 0x808080, 0xffffff},
	{"First lesser 1", 0x8410, 0xF85F, 0x55, 0xf808f8, 0xffffff},
	{"First lesser 2", 0x8410, 0xF85F, 0xAA, 0xbc44bc, 0xffffff},
	{"First lesser 3", 0x8410, 0xF85F, 0xFF, 0x000000, 0x000000},
	{"Color mix 2", 0x7890, 0x1234, 0xAA, 0x8a2155, 0xffffff},
	{"Color mix 3", 0x7890, 0x1234, 0xFF, 0x953232, 0xffffff},
}

func TestAutotestDXT1(t *testing.T) {
	p := newPSP(t)
	cases := dxt1Cases
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			var img []byte
			for i := 0; i < 4; i++ {
				img = append(img, dxtBlock(tc.c1, tc.c2, [4]byte{tc.line, tc.line, tc.line, tc.line})...)
			}
			require.NoError(t, p.d.Write(autoTex, img))
			require.Equal(t, [2]uint32{tc.color, tc.alpha}, [2]uint32{drawDXT(t, p, texDXT1, false), drawDXT(t, p, texDXT1, true)})
		})
	}
	t.Run("Top left pixel only", func(t *testing.T) {
		p.t = t
		var img []byte
		for i := 0; i < 4; i++ {
			img = append(img, dxtBlock(0x7777, 0x1356, [4]byte{2, 0, 0, 0})...)
		}
		require.NoError(t, p.d.Write(autoTex, img))
		require.Equal(t, [2]uint32{0xb5c050, 0xffffff}, [2]uint32{drawDXT(t, p, texDXT1, false), drawDXT(t, p, texDXT1, true)})
	})
}

// dxt5Image is one fillTexture image of dxt5.cpp and the expected colour
// and alpha bytes for alpha-index variants 0..7.
type dxt5Image struct {
	name   string
	c1, c2 uint16
	line   byte
	a1, a2 byte
	color  uint32
	alphas [8]byte
}

var dxt5Images = []dxt5Image{
	{"White 0", 0xFFFF, 0xFFFF, 0, 0x55, 0xFF, 0xf8fcf8, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"White 1", 0xFFFF, 0xFFFF, 0x55, 0x55, 0xFF, 0xf8fcf8, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"White 2", 0xFFFF, 0xFFFF, 0xAA, 0x55, 0xFF, 0xf8fcf8, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"White 3", 0xFFFF, 0xFFFF, 0xFF, 0x55, 0xFF, 0x000000, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"First greater 0", 0xFFE3, 0x8410, 0, 0x55, 0xFF, 0x18fcf8, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"First greater 1", 0xFFE3, 0x8410, 0x55, 0x55, 0xFF, 0x808080, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"First greater 2", 0xFFE3, 0x8410, 0xAA, 0x55, 0xFF, 0x3ad2d0, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"First greater 3", 0xFFE3, 0x8410, 0xFF, 0x55, 0xFF, 0x5da9a8, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"First lesser 0", 0x8410, 0xF85F, 0, 0x55, 0xFF, 0x808080, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"First lesser 1", 0x8410, 0xF85F, 0x55, 0x55, 0xFF, 0xf808f8, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"First lesser 2", 0x8410, 0xF85F, 0xAA, 0x55, 0xFF, 0xbc44bc, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"First lesser 3", 0x8410, 0xF85F, 0xFF, 0x55, 0xFF, 0x000000, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"Color mix 2", 0x7890, 0x1234, 0xAA, 0x55, 0xFF, 0x8a2155, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"Color mix 3", 0x7890, 0x1234, 0xFF, 0x55, 0xFF, 0x953232, [8]byte{0x55, 0xff, 0x77, 0x99, 0xbb, 0xdd, 0x00, 0xff}},
	{"Alpha greater", 0x7890, 0x1234, 0xAA, 0xFF, 0x00, 0x8a2155, [8]byte{0xff, 0x00, 0xda, 0xb6, 0x91, 0x6d, 0x48, 0x24}},
	{"Alpha equal", 0x7890, 0x1234, 0xAA, 0x00, 0xFF, 0x8a2155, [8]byte{0x00, 0xff, 0x33, 0x66, 0x99, 0xcc, 0x00, 0xff}},
	{"Alpha 01", 0x7890, 0x1234, 0xAA, 0xFF, 0x01, 0x8a2155, [8]byte{0xff, 0x01, 0xda, 0xb6, 0x92, 0x6d, 0x49, 0x25}},
	{"Alpha 02", 0x7890, 0x1234, 0xAA, 0xFF, 0x02, 0x8a2155, [8]byte{0xff, 0x02, 0xda, 0xb6, 0x92, 0x6e, 0x4a, 0x26}},
	{"Alpha 03", 0x7890, 0x1234, 0xAA, 0xFF, 0x03, 0x8a2155, [8]byte{0xff, 0x03, 0xdb, 0xb7, 0x93, 0x6f, 0x4b, 0x27}},
	{"Alpha 04", 0x7890, 0x1234, 0xAA, 0xFF, 0x04, 0x8a2155, [8]byte{0xff, 0x04, 0xdb, 0xb7, 0x93, 0x6f, 0x4b, 0x27}},
	{"Alpha 05", 0x7890, 0x1234, 0xAA, 0xFF, 0x05, 0x8a2155, [8]byte{0xff, 0x05, 0xdb, 0xb7, 0x93, 0x70, 0x4c, 0x28}},
	{"Alpha 06", 0x7890, 0x1234, 0xAA, 0xFF, 0x06, 0x8a2155, [8]byte{0xff, 0x06, 0xdb, 0xb7, 0x94, 0x70, 0x4d, 0x29}},
	{"Alpha 07", 0x7890, 0x1234, 0xAA, 0xFF, 0x07, 0x8a2155, [8]byte{0xff, 0x07, 0xdb, 0xb8, 0x94, 0x71, 0x4d, 0x2a}},
	{"Alpha 08", 0x7890, 0x1234, 0xAA, 0xFF, 0x08, 0x8a2155, [8]byte{0xff, 0x08, 0xdb, 0xb8, 0x95, 0x71, 0x4e, 0x2b}},
	{"Alpha 09", 0x7890, 0x1234, 0xAA, 0xFF, 0x09, 0x8a2155, [8]byte{0xff, 0x09, 0xdb, 0xb8, 0x95, 0x72, 0x4f, 0x2c}},
	{"Alpha 0a", 0x7890, 0x1234, 0xAA, 0xFF, 0x0a, 0x8a2155, [8]byte{0xff, 0x0a, 0xdc, 0xb9, 0x96, 0x73, 0x50, 0x2d}},
	{"Alpha 0b", 0x7890, 0x1234, 0xAA, 0xFF, 0x0b, 0x8a2155, [8]byte{0xff, 0x0b, 0xdc, 0xb9, 0x96, 0x73, 0x50, 0x2d}},
	{"Alpha 0c", 0x7890, 0x1234, 0xAA, 0xFF, 0x0c, 0x8a2155, [8]byte{0xff, 0x0c, 0xdc, 0xb9, 0x96, 0x74, 0x51, 0x2e}},
	{"Alpha 0d", 0x7890, 0x1234, 0xAA, 0xFF, 0x0d, 0x8a2155, [8]byte{0xff, 0x0d, 0xdc, 0xb9, 0x97, 0x74, 0x52, 0x2f}},
	{"Alpha 0e", 0x7890, 0x1234, 0xAA, 0xFF, 0x0e, 0x8a2155, [8]byte{0xff, 0x0e, 0xdc, 0xba, 0x97, 0x75, 0x52, 0x30}},
	{"Alpha 0f", 0x7890, 0x1234, 0xAA, 0xFF, 0x0f, 0x8a2155, [8]byte{0xff, 0x0f, 0xdc, 0xba, 0x98, 0x75, 0x53, 0x31}},
	{"Alpha 10", 0x7890, 0x1234, 0xAA, 0xFF, 0x10, 0x8a2155, [8]byte{0xff, 0x10, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32}},
}

// dxt5Block builds the DXT5 block of fillTexture for alpha variant a: all
// sixteen 3-bit indices equal a, packed as dxt5.cpp does (alphadata1 =
// (u16)alpha32, alphadata2 = alpha32 with the rows beyond 32 bits cut).
func dxt5Block(im dxt5Image, a uint32) []byte {
	a12 := a | a<<3 | a<<6 | a<<9
	a32 := a12 | a12<<12 | a12<<24
	b := dxtBlock(im.c1, im.c2, [4]byte{im.line, im.line, im.line, im.line})
	b = binary.LittleEndian.AppendUint32(b, a32)
	b = binary.LittleEndian.AppendUint16(b, uint16(a32))
	return append(b, im.a1, im.a2)
}

func TestAutotestDXT5(t *testing.T) {
	p := newPSP(t)
	for _, im := range dxt5Images {
		for a := uint32(0); a < 8; a++ {
			t.Run(fmt.Sprintf("%s (alpha=%d)", im.name, a), func(t *testing.T) {
				p.t = t
				var img []byte
				for i := 0; i < 4; i++ {
					img = append(img, dxt5Block(im, a)...)
				}
				require.NoError(t, p.d.Write(autoTex, img))
				al := uint32(im.alphas[a])
				require.Equal(t, [2]uint32{im.color, al * 0x010101}, [2]uint32{drawDXT(t, p, texDXT5, false), drawDXT(t, p, texDXT5, true)})
			})
		}
	}
	// Top left pixel only: alpha1 0xE1, alpha2 0x59, index field = variant.
	tlAlphas := [8]uint32{0xe1, 0x59, 0xcd, 0xba, 0xa6, 0x93, 0x7f, 0x6c}
	for a := uint32(0); a < 8; a++ {
		t.Run(fmt.Sprintf("Top left pixel only (alpha=%d)", a), func(t *testing.T) {
			p.t = t
			var img []byte
			for i := 0; i < 4; i++ {
				b := dxtBlock(0x7777, 0x1356, [4]byte{2, 0, 0, 0})
				b = binary.LittleEndian.AppendUint32(b, a)
				b = binary.LittleEndian.AppendUint16(b, 0)
				img = append(img, append(b, 0xE1, 0x59)...)
			}
			require.NoError(t, p.d.Write(autoTex, img))
			require.Equal(t, [2]uint32{0xb5c050, tlAlphas[a] * 0x010101}, [2]uint32{drawDXT(t, p, texDXT5, false), drawDXT(t, p, texDXT5, true)})
		})
	}
}
