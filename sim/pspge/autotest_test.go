package pspge

// Cases from pspautotests (github.com/hrydgard/pspautotests, tests/gpu):
// each .expected file holds what a real PSP-1000 drew. The tests below
// rebuild each case's GE state with hal/pspge words (the pspsdk calls the
// test makes, expanded by hand to the words sceGu* writes) and compare the
// framebuffer words with the numbers of the .expected file, quoted in the
// tables with the commit they come from.

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	ge "github.com/retrogl/retrogl/hal/pspge"
)

// psp is a simulated GE prepared as pspsdk's sceGuInit and the test's
// init() leave it.
type psp struct {
	t    *testing.T
	d    *Device
	list []uint32
	vtx  uint32 // next free vertex address
}

const (
	autoTex  = RAMBase + 0x40000
	autoVtx  = RAMBase + 0x80000
	autoList = RAMBase
)

func newPSP(t *testing.T) *psp {
	p := &psp{t: t, d: New(), vtx: autoVtx}
	t.Cleanup(func() { p.d.Close() })
	return p
}

func (p *psp) emit(ws ...uint32) { p.list = append(p.list, ws...) }

// init is the common part of the tests' init(): sceGuDrawBuffer(psm, 0,
// 512), sceGuDepthBuffer(0x88000, 512), sceGuOffset(2048-w/2, 2048-h/2),
// sceGuViewport(2048, 2048, w, h), sceGuDepthRange(near, far), scissor to
// the screen, identity matrices.
func (p *psp) init(psm uint32, vw, vh int, near, far int) {
	p.emit(ge.Word(ge.FBP, 0), ge.Word(ge.FBW, 512), ge.Word(ge.PSM, psm),
		ge.Word(ge.ZBP, 0x88000), ge.Word(ge.ZBW, 512),
		ge.Word(ge.OFFSETX, uint32(2048-vw/2)<<4), ge.Word(ge.OFFSETY, uint32(2048-vh/2)<<4),
		ge.WordF(ge.XSCALE, float32(vw/2)), ge.WordF(ge.YSCALE, -float32(vh/2)),
		ge.WordF(ge.XPOS, 2048), ge.WordF(ge.YPOS, 2048),
		ge.Word(ge.SCISSOR1, 0), ge.Word(ge.SCISSOR2, 479|271<<10), ge.Word(ge.REGION2, 479|271<<10),
		ge.Word(ge.SHADE, 1))
	// sceGuDepthRange: z = (near+far)/2, ZSCALE = z - near, ZPOS = z.
	z := (near + far) >> 1
	p.emit(ge.WordF(ge.ZSCALE, float32(z-near)), ge.WordF(ge.ZPOS, float32(z)),
		ge.Word(ge.NEARZ, uint32(min(near, far))), ge.Word(ge.FARZ, uint32(max(near, far))))
	for _, m := range []struct {
		sel, data ge.Op
		n         int
	}{{ge.WMS, ge.WORLD, 12}, {ge.VMS, ge.VIEW, 12}, {ge.PMS, ge.PROJ, 16}} {
		p.emit(ge.Word(m.sel, 0))
		for i := 0; i < m.n; i++ {
			v := float32(0)
			if (m.n == 12 && i%4 == 0 && i < 12) || (m.n == 16 && i%5 == 0) {
				v = 1
			}
			p.emit(ge.WordF(m.data, v))
		}
	}
}

// blendFunc is sceGuBlendFunc(op, src, dst, fixa, fixb).
func blendFunc(op, src, dst, fixa, fixb uint32) []uint32 {
	return []uint32{ge.Word(ge.ALPHA, src|dst<<4|op<<8), ge.Word(ge.SFIX, fixa&0xFFFFFF), ge.Word(ge.DFIX, fixb&0xFFFFFF)}
}

// texImage is sceGuTexImage(0, w, h, tbw, addr) plus TFLUSH.
func texImage(log2w, log2h, tbw int, addr uint32) []uint32 {
	return []uint32{ge.Word(ge.TBP0, addr&0xFFFFFF), ge.Word(ge.TBW0, uint32(tbw)|(addr>>8)&0x0F0000),
		ge.Word(ge.TSIZE0, uint32(log2w|log2h<<8)), ge.Word(ge.TFLUSH, 0)}
}

// vertices writes vertex data and returns the VTYPE/BASE/VADDR words.
func (p *psp) vertices(vt ge.VType, data []byte) []uint32 {
	require.NoError(p.t, p.d.Write(p.vtx, data))
	base, low := ge.Addr(p.vtx)
	p.vtx += uint32(len(data)+15) &^ 15
	return []uint32{vt.Word(), base, ge.Word(ge.VADDR, low)}
}

// run executes the list built so far (ended with FINISH/END) and clears it.
func (p *psp) run() {
	p.t.Helper()
	require.NoError(p.t, run(p.t, p.d, autoList, cat(p.list, finish(0))...))
	p.list = p.list[:0]
	p.vtx = autoVtx
}

// fill writes n bytes of value b (or a repeated word) at VRAM offset 0.
func (p *psp) fillWord(w uint32, bytes int) {
	b := make([]byte, bytes)
	for i := 0; i+4 <= bytes; i += 4 {
		binary.LittleEndian.PutUint32(b[i:], w)
	}
	require.NoError(p.t, p.d.Write(VRAMBase, b))
}

func (p *psp) word32(x, y int) uint32 {
	b := make([]byte, 4)
	require.NoError(p.t, p.d.Read(VRAMBase+uint32(y*512+x)*4, b))
	return binary.LittleEndian.Uint32(b)
}

func (p *psp) word16(x, y int) uint32 {
	b := make([]byte, 2)
	require.NoError(p.t, p.d.Read(VRAMBase+uint32(y*512+x)*2, b))
	return uint32(binary.LittleEndian.Uint16(b))
}

// colorF32 packs the tests' VertexColorF32 {u32 color; float x, y, z}.
func colorF32(vs ...[4]float32) []byte {
	b := make([]byte, 16*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[16*i:], math.Float32bits(v[0]))
		for k := 1; k < 4; k++ {
			binary.LittleEndian.PutUint32(b[16*i+4*k:], math.Float32bits(v[k]))
		}
	}
	return b
}

// vc is a VertexColorF32 with the colour's bits carried in a float slot.
func vc(c uint32, x, y, z float32) [4]float32 { return [4]float32{math.Float32frombits(c), x, y, z} }

var vtColorF32 = ge.VType{Color: ge.Color8888, Pos: ge.FmtFloat}

// ---- gpu/dither (dither.cpp, dither.expected @ d0472439) ----

type ditherCase struct {
	name         string
	matrix       [4]uint32
	psm          uint32
	xoff, yoff   int
	stencil      bool
	cmask        uint32
	logic, clear bool
	want         [4][4]uint32
}

func rowsOf(r0, r1, r2, r3 [4]uint32) [4][4]uint32 { return [4][4]uint32{r0, r1, r2, r3} }
func all4(v uint32) [4]uint32                      { return [4]uint32{v, v, v, v} }
func first(a, b uint32) [4]uint32                  { return [4]uint32{a, b, b, b} }
func last(a, b uint32) [4]uint32                   { return [4]uint32{a, a, a, b} }

var (
	zeroM     = [4]uint32{0, 0, 0, 0}
	tlF       = [4]uint32{0xF, 0, 0, 0}
	tl8       = [4]uint32{0x8, 0, 0, 0}
	tl7       = [4]uint32{0x7, 0, 0, 0}
	allM      = [4]uint32{0x3210, 0x7654, 0xBA98, 0xFEDC}
	overflowM = [4]uint32{0xFF3210, 0xFF7654, 0xFFBA98, 0xFFFEDC}

	all565  = rowsOf(first(0x1f91, 0x2791), all4(0x27b1), first(0x1750, 0x1f50), all4(0x1f70))
	all5551 = rowsOf(first(0x0fd1, 0x13d1), all4(0x13d1), first(0x0bb0, 0x0fb0), all4(0x0fb0))
	all4444 = rowsOf(first(0x01f8, 0x02f8), all4(0x02f8), all4(0x01e8), all4(0x01e8))
	all8888 = rowsOf([4]uint32{0x001ff088, 0x0020f189, 0x0021f28a, 0x0022f38b}, [4]uint32{0x0023f48c, 0x0024f58d, 0x0025f68e, 0x0026f78f},
		[4]uint32{0x0017e880, 0x0018e981, 0x0019ea82, 0x001aeb83}, [4]uint32{0x001bec84, 0x001ced85, 0x001dee86, 0x001eef87})
	off565 = rowsOf(all4(0x27b1), last(0x1f50, 0x1750), all4(0x1f70), last(0x2791, 0x1f91))
)

func flat(v uint32) [4][4]uint32 { return rowsOf(all4(v), all4(v), all4(v), all4(v)) }
func tl(a, b uint32) [4][4]uint32 {
	return rowsOf(first(a, b), all4(b), all4(b), all4(b))
}

var ditherCases = []ditherCase{
	{name: "Zero matrix 565", matrix: zeroM, psm: 0, want: flat(0x1f91)},
	{name: "Zero matrix 5551", matrix: zeroM, psm: 1, want: flat(0x0fd1)},
	{name: "Zero matrix 4444", matrix: zeroM, psm: 2, want: flat(0x01f8)},
	{name: "Top left -1 565", matrix: tlF, psm: 0, want: tl(0x1f70, 0x1f91)},
	{name: "Top left -1 5551", matrix: tlF, psm: 1, want: tl(0x0fb0, 0x0fd1)},
	{name: "Top left -1 4444", matrix: tlF, psm: 2, want: tl(0x01e8, 0x01f8)},
	{name: "Top left -8 565", matrix: tl8, psm: 0, want: tl(0x1750, 0x1f91)},
	{name: "Top left -8 5551", matrix: tl8, psm: 1, want: tl(0x0bb0, 0x0fd1)},
	{name: "Top left -8 4444", matrix: tl8, psm: 2, want: tl(0x01e8, 0x01f8)},
	{name: "Top left 7 565", matrix: tl7, psm: 0, want: tl(0x27b1, 0x1f91)},
	{name: "Top left 7 5551", matrix: tl7, psm: 1, want: tl(0x13d1, 0x0fd1)},
	{name: "Top left 7 4444", matrix: tl7, psm: 2, want: tl(0x02f8, 0x01f8)},
	{name: "All pattern 565", matrix: allM, psm: 0, want: all565},
	{name: "All pattern 5551", matrix: allM, psm: 1, want: all5551},
	{name: "All pattern 4444", matrix: allM, psm: 2, want: all4444},
	{name: "Offset +1/+1 565", matrix: allM, psm: 0, xoff: 1, yoff: 1, want: off565},
	{name: "Offset +1/+1 5551", matrix: allM, psm: 1, xoff: 1, yoff: 1,
		want: rowsOf(all4(0x13d1), last(0x0fb0, 0x0bb0), all4(0x0fb0), last(0x13d1, 0x0fd1))},
	{name: "Offset +1/+1 4444", matrix: allM, psm: 2, xoff: 1, yoff: 1,
		want: rowsOf(all4(0x02f8), all4(0x01e8), all4(0x01e8), last(0x02f8, 0x01f8))},
	{name: "Offset +476/+268 565", matrix: allM, psm: 0, xoff: 476, yoff: 268, want: all565},
	{name: "Offset +476/+268 5551", matrix: allM, psm: 1, xoff: 476, yoff: 268, want: all5551},
	{name: "Offset +476/+268 4444", matrix: allM, psm: 2, xoff: 476, yoff: 268, want: all4444},
	{name: "Offset +1/+1 + stencil 565", matrix: allM, psm: 0, xoff: 1, yoff: 1, stencil: true, want: off565},
	{name: "Offset +1/+1 + stencil 5551", matrix: allM, psm: 1, xoff: 1, yoff: 1, stencil: true,
		want: rowsOf(all4(0x93d1), last(0x8fb0, 0x8bb0), all4(0x8fb0), last(0x93d1, 0x8fd1))},
	{name: "Offset +1/+1 + stencil 4444", matrix: allM, psm: 2, xoff: 1, yoff: 1, stencil: true,
		want: rowsOf(all4(0xf2f8), all4(0xf1e8), all4(0xf1e8), last(0xf2f8, 0xf1f8))},
	{name: "Mask bits high 565", matrix: allM, psm: 0, cmask: 0xFF0F0F0F,
		want: rowsOf(first(0x1790, 0x2790), all4(0x2790), all4(0x1710), all4(0x1710))},
	{name: "Mask bits high 5551", matrix: allM, psm: 1, cmask: 0xFF0F0F0F,
		want: rowsOf(first(0x0bd0, 0x13d0), all4(0x13d0), all4(0x0b90), all4(0x0b90))},
	{name: "Mask bits high 4444", matrix: allM, psm: 2, cmask: 0xFF0F0F0F, want: all4444},
	{name: "Logic op 565", matrix: allM, psm: 0, logic: true,
		want: rowsOf(first(0x1711, 0x2711), all4(0x2731), all4(0x1750), all4(0x1770))},
	{name: "Logic op 5551", matrix: allM, psm: 1, logic: true,
		want: rowsOf(first(0x0751, 0x1351), all4(0x1351), first(0x0330, 0x0730), all4(0x0730))},
	{name: "Logic op 4444", matrix: allM, psm: 2, logic: true,
		want: rowsOf(first(0x7170, 0x7270), all4(0x7270), all4(0x7160), all4(0x7160))},
	{name: "All pattern 8888", matrix: allM, psm: 3, want: all8888},
	{name: "Bit overflow 565", matrix: overflowM, psm: 0, want: all565},
	{name: "Bit overflow 5551", matrix: overflowM, psm: 1, want: all5551},
	{name: "Bit overflow 4444", matrix: overflowM, psm: 2, want: all4444},
	{name: "Bit overflow 8888", matrix: overflowM, psm: 3, want: all8888},
	{name: "Clear mode 565", matrix: overflowM, psm: 0, clear: true, want: all565},
	{name: "Clear mode 5551", matrix: overflowM, psm: 1, clear: true,
		want: rowsOf(first(0x8fd1, 0x93d1), all4(0x93d1), first(0x8bb0, 0x8fb0), all4(0x8fb0))},
	{name: "Clear mode 4444", matrix: overflowM, psm: 2, clear: true,
		want: rowsOf(first(0xf1f8, 0xf2f8), all4(0xf2f8), all4(0xf1e8), all4(0xf1e8))},
	{name: "Clear mode 8888", matrix: allM, psm: 3, clear: true,
		want: rowsOf([4]uint32{0xff1ff088, 0xff20f189, 0xff21f28a, 0xff22f38b}, [4]uint32{0xff23f48c, 0xff24f58d, 0xff25f68e, 0xff26f78f},
			[4]uint32{0xff17e880, 0xff18e981, 0xff19ea82, 0xff1aeb83}, [4]uint32{0xff1bec84, 0xff1ced85, 0xff1dee86, 0xff1eef87})},
}

func TestAutotestDither(t *testing.T) {
	for _, tc := range ditherCases {
		t.Run(tc.name, func(t *testing.T) {
			p := newPSP(t)
			p.init(tc.psm, 480, 272, 65535, 0)
			fill := uint32(0)
			if tc.logic {
				fill = 0x77777777
			}
			p.fillWord(fill, 512*272*2)
			p.emit(ge.Word(ge.DTE, 1), ge.Word(ge.TME, 0), ge.Word(ge.ABE, 0))
			if tc.stencil {
				// sceGuStencilFunc(GU_ALWAYS, 0xF0, 0xFF), sceGuStencilOp(REPLACE x3).
				p.emit(ge.Word(ge.STE, 1), ge.Word(ge.STST, 1|0xF0<<8|0xFF<<16), ge.Word(ge.SOP, 2|2<<8|2<<16))
			}
			p.emit(ge.Word(ge.PMSKC, tc.cmask&0xFFFFFF), ge.Word(ge.PMSKA, tc.cmask>>24))
			if tc.logic {
				p.emit(ge.Word(ge.LOE, 1), ge.Word(ge.LOP, 1))
			}
			if tc.clear {
				p.emit(ge.Word(ge.CLEAR, 0xFFFF))
			} else {
				p.emit(ge.Word(ge.CLEAR, 0))
			}
			for i, m := range tc.matrix {
				p.emit(ge.Word(ge.DTH0+ge.Op(i), m))
			}
			// Through-mode fan, 8888 colour + s16 position (12 bytes).
			vb := make([]byte, 48)
			for i, xy := range [][2]int{{tc.xoff, tc.yoff}, {480, tc.yoff}, {480, 272}, {tc.xoff, 272}} {
				binary.LittleEndian.PutUint32(vb[12*i:], 0xFF1FF088)
				binary.LittleEndian.PutUint16(vb[12*i+4:], uint16(xy[0]))
				binary.LittleEndian.PutUint16(vb[12*i+6:], uint16(xy[1]))
			}
			p.emit(p.vertices(ge.VType{Color: ge.Color8888, Pos: ge.Fmt16, Through: true}, vb)...)
			p.emit(ge.Word(ge.PRIM, 5<<16|4))
			p.run()
			var got [4][4]uint32
			for y := 0; y < 4; y++ {
				for x := 0; x < 4; x++ {
					if tc.psm == 3 {
						got[y][x] = p.word32(tc.xoff+x, tc.yoff+y)
					} else {
						got[y][x] = p.word16(tc.xoff+x, tc.yoff+y)
					}
				}
			}
			require.Equal(t, tc.want, got)
		})
	}
}

// ---- gpu/commands/blend (blend.cpp, blend.expected @ 3315c498) ----

// Blend factor and op numbers of pspgu.h.
const (
	guSrcColor, guOneMinusSrcColor, guSrcAlpha, guOneMinusSrcAlpha, guDstAlpha, guOneMinusDstAlpha = 0, 1, 2, 3, 4, 5
	guDstColor, guOneMinusDstColor                                                                 = 0, 1
	guDblSrcA, guInvDblSrcA, guDblDstA, guInvDblDstA                                               = 6, 7, 8, 9
	guFix                                                                                          = 10
	guAdd, guSub, guRevSub, guMin, guMax, guAbs                                                    = 0, 1, 2, 3, 4, 5
)

var blendCases = []struct {
	name             string
	prev, c          uint32
	op, src, dst     uint32
	fixa, fixb, want uint32
}{
	{"One + Zero", 0x44444444, 0xEEDDCCBB, guAdd, guFix, guFix, 0xFFFFFFFF, 0, 0xaaddccbb},
	{"Zero + One", 0x44444444, 0xEEDDCCBB, guAdd, guFix, guFix, 0, 0xFFFFFFFF, 0xaa444444},
	{"Alpha + Inverse alpha", 0x44444444, 0xEEDDCCBB, guAdd, guSrcAlpha, guOneMinusSrcAlpha, 0x80808080, 0x80808080, 0xaad2c2b2},
	{"Double source alpha + Zero 1", 0x40404040, 0x80808080, guAdd, guDblSrcA, guFix, 0, 0, 0xaa808080},
	{"Double source alpha + Zero 2", 0x40404040, 0x80909090, guAdd, guDblSrcA, guFix, 0, 0, 0xaa909090},
	{"Double source alpha + Zero 3", 0x40404040, 0x90808080, guAdd, guDblSrcA, guFix, 0, 0, 0xaa909090},
	{"Inverse double source alpha + Zero 1", 0x40404040, 0x80808080, guAdd, guInvDblSrcA, guFix, 0, 0, 0xaa000000},
	{"Inverse double source alpha + Zero 2", 0x40404040, 0x80909090, guAdd, guInvDblSrcA, guFix, 0, 0, 0xaa000000},
	{"Inverse double source alpha + Zero 3", 0x40404040, 0x90808080, guAdd, guInvDblSrcA, guFix, 0, 0, 0xaa000000},
	{"Inverse double source alpha + Zero 4", 0x40404040, 0x40808080, guAdd, guInvDblSrcA, guFix, 0, 0, 0xaa3f3f3f},
	{"Double dest alpha + Zero 1", 0x40404040, 0x80808080, guAdd, guDblDstA, guFix, 0, 0, 0xaa404040},
	{"Double dest alpha + Zero 2", 0x90404040, 0x80808080, guAdd, guDblDstA, guFix, 0, 0, 0xaa909090},
	{"Double dest alpha + Zero 3", 0x40404040, 0x80909090, guAdd, guDblDstA, guFix, 0, 0, 0xaa484848},
	{"Dest color + Zero", 0x50404040, 0x90808080, guAdd, guDstColor, guFix, 0, 0, 0xaa202020},
	{"Inverse dest color + Zero", 0x50404040, 0x90808080, guAdd, guOneMinusDstColor, guFix, 0, 0, 0xaa606060},
	{"Src alpha + Zero", 0x50404040, 0x90808080, guAdd, guSrcAlpha, guFix, 0, 0, 0xaa484848},
	{"Inverse src alpha + Zero", 0x50404040, 0x90808080, guAdd, guOneMinusSrcAlpha, guFix, 0, 0, 0xaa373737},
	{"Dest alpha + Zero", 0x50404040, 0x90808080, guAdd, guDstAlpha, guFix, 0, 0, 0xaa282828},
	{"Inverse dest alpha + Zero", 0x50404040, 0x90808080, guAdd, guOneMinusDstAlpha, guFix, 0, 0, 0xaa585858},
	{"Double src alpha + Zero", 0x50404040, 0x90808080, guAdd, guDblSrcA, guFix, 0, 0, 0xaa909090},
	{"Inverse double src alpha + Zero", 0x50404040, 0x90808080, guAdd, guInvDblSrcA, guFix, 0, 0, 0xaa000000},
	{"Double dest alpha + Zero", 0x50404040, 0x90808080, guAdd, guDblDstA, guFix, 0, 0, 0xaa505050},
	{"Inverse double dest alpha + Zero", 0x50404040, 0x90808080, guAdd, guInvDblDstA, guFix, 0, 0, 0xaa2f2f2f},
	{"Fix + Zero", 0x50404040, 0x90808080, guAdd, guFix, guFix, 0x90808080, 0, 0xaa404040},
	{"Zero + Src color", 0x50404040, 0x90808080, guAdd, guFix, guSrcColor, 0, 0, 0xaa202020},
	{"Zero + Inverse dest color", 0x50404040, 0x90808080, guAdd, guFix, guOneMinusSrcColor, 0, 0, 0xaa202020},
	{"Zero + Src alpha", 0x50404040, 0x90808080, guAdd, guFix, guSrcAlpha, 0, 0, 0xaa242424},
	{"Zero + Inverse src alpha", 0x50404040, 0x90808080, guAdd, guFix, guOneMinusSrcAlpha, 0, 0, 0xaa1c1c1c},
	{"Zero + Dest alpha", 0x50404040, 0x90808080, guAdd, guFix, guDstAlpha, 0, 0, 0xaa141414},
	{"Zero + Inverse dest alpha", 0x50404040, 0x90808080, guAdd, guFix, guOneMinusDstAlpha, 0, 0, 0xaa2c2c2c},
	{"Zero + Double src alpha", 0x50404040, 0x90808080, guAdd, guFix, guDblSrcA, 0, 0, 0xaa484848},
	{"Zero + Inverse double src alpha", 0x50404040, 0x90808080, guAdd, guFix, guInvDblSrcA, 0, 0, 0xaa000000},
	{"Zero + Double dest alpha", 0x50404040, 0x90808080, guAdd, guFix, guDblDstA, 0, 0, 0xaa282828},
	{"Zero + Inverse double dest alpha", 0x50404040, 0x90808080, guAdd, guFix, guInvDblDstA, 0, 0, 0xaa181818},
	{"F0 + 0F", 0xFFFFFFFF, 0xFFFFFFFF, guAdd, guFix, guFix, 0xF0F0F0F0, 0x0F0F0F0F, 0xaaffffff},
	{"0F + F0", 0xFFFFFFFF, 0xFFFFFFFF, guAdd, guFix, guFix, 0x0F0F0F0F, 0xF0F0F0F0, 0xaaffffff},
	{"F0 - 0F", 0xFFFFFFFF, 0xFFFFFFFF, guSub, guFix, guFix, 0xF0F0F0F0, 0x0F0F0F0F, 0xaae1e1e1},
	{"0F - F0", 0xFFFFFFFF, 0xFFFFFFFF, guSub, guFix, guFix, 0x0F0F0F0F, 0xF0F0F0F0, 0xaa000000},
	{"Reverse F0 - 0F", 0xFFFFFFFF, 0xFFFFFFFF, guRevSub, guFix, guFix, 0xF0F0F0F0, 0x0F0F0F0F, 0xaa000000},
	{"Reverse 0F - F0", 0xFFFFFFFF, 0xFFFFFFFF, guRevSub, guFix, guFix, 0x0F0F0F0F, 0xF0F0F0F0, 0xaae1e1e1},
	{"Min 0F, F0", 0xF0F0F0F0, 0x0F0F0F0F, guMin, guFix, guFix, 0x80808080, 0x80808080, 0xaa0f0f0f},
	{"Min F0, 0F", 0x0F0F0F0F, 0xF0F0F0F0, guMin, guFix, guFix, 0x80808080, 0x80808080, 0xaa0f0f0f},
	{"Max 0F, F0", 0xF0F0F0F0, 0x0F0F0F0F, guMax, guFix, guFix, 0x80808080, 0x80808080, 0xaaf0f0f0},
	{"Max F0, 0F", 0x0F0F0F0F, 0xF0F0F0F0, guMax, guFix, guFix, 0x80808080, 0x80808080, 0xaaf0f0f0},
	{"Abs 0F - F0", 0xF0F0F0F0, 0x0F0F0F0F, guAbs, guFix, guFix, 0x80808080, 0x80808080, 0xaae1e1e1},
	{"Abs F0 - 0F", 0x0F0F0F0F, 0xF0F0F0F0, guAbs, guFix, guFix, 0x80808080, 0x80808080, 0xaae1e1e1},
}

func TestAutotestBlend(t *testing.T) {
	for _, tc := range blendCases {
		t.Run(tc.name, func(t *testing.T) {
			p := newPSP(t)
			p.init(3, 240, 136, 65535, 0)
			p.fillWord(tc.prev, 512*272*4)
			p.emit(ge.Word(ge.TME, 0), ge.Word(ge.ABE, 1))
			p.emit(blendFunc(tc.op, tc.src, tc.dst, tc.fixa, tc.fixb)...)
			p.emit(ge.Word(ge.STE, 1), ge.Word(ge.STST, 1|0xAA<<8|0xFF<<16), ge.Word(ge.SOP, 2|2<<8|2<<16))
			// GU_SPRITES, GU_COLOR_8888 | GU_VERTEX_32BITF | GU_TRANSFORM_2D.
			vt := vtColorF32
			vt.Through = true
			p.emit(p.vertices(vt, colorF32(vc(tc.c, -1, -1, 0), vc(tc.c, 1, 1, 0)))...)
			p.emit(ge.Word(ge.PRIM, 6<<16|2))
			p.run()
			require.Equal(t, tc.want, p.word32(0, 0), "%#08x", p.word32(0, 0))
		})
	}
}

// ---- gpu/commands/cull (cull.cpp @ 2fd36bdb, cull.expected @ ae18dd46) ----

// TestAutotestCull draws the test's 40x30 boxes: fans wound clockwise
// (top-left, top-right, bottom-right, bottom-left on the y-down screen) and
// counter-clockwise, and sprites, with BCE off/on and FFACE 0/1, in through
// and transform mode and in clear mode; the word at each box's top-left
// pixel is the drawn colour or the background.
func TestAutotestCull(t *testing.T) {
	const drawn, bg = 0x001f1fff, 0x003f3f3f
	type box struct {
		enable, face, cw uint32
	}
	boxes := []box{{0, 0, 1}, {0, 0, 0}, {1, 0, 1}, {1, 0, 0}, {1, 1, 1}, {1, 1, 0}, {1, 1, 2}, {1, 1, 3}}
	want := map[string][8]uint32{
		"Transform 2D": {drawn, drawn, bg, drawn, drawn, bg, drawn, drawn},
		"Transform 3D": {drawn, drawn, bg, drawn, drawn, bg, drawn, drawn},
		"Clear 2D":     {drawn, drawn, drawn, drawn, drawn, drawn, drawn, drawn},
		"Clear 3D":     {drawn, drawn, drawn, drawn, drawn, drawn, drawn, drawn},
	}
	p := newPSP(t)
	p.init(3, 480, 272, 65535, 0)
	p.fillWord(0x003F3F3F, 512*272*4)
	p.emit(ge.Word(ge.TME, 0), ge.Word(ge.ABE, 0))
	x, y := 10, 10
	for _, pass := range []struct {
		through bool
		clear   uint32
	}{{true, 0}, {false, 0}, {true, 0x101}, {false, 0x101}} {
		for _, b := range boxes {
			p.emit(ge.Word(ge.BCE, b.enable), ge.Word(ge.FFACE, b.face), ge.Word(ge.CLEAR, pass.clear))
			var pts [][2]int
			switch b.cw {
			case 0:
				pts = [][2]int{{x, y}, {x, y + 30}, {x + 40, y + 30}, {x + 40, y}}
			case 1:
				pts = [][2]int{{x, y}, {x + 40, y}, {x + 40, y + 30}, {x, y + 30}}
			case 2:
				pts = [][2]int{{x, y}, {x + 40, y + 30}}
			case 3:
				pts = [][2]int{{x, y + 30}, {x + 40, y}}
			}
			vb := make([]byte, 12*len(pts))
			for i, pt := range pts {
				binary.LittleEndian.PutUint32(vb[12*i:], 0xFF1F1FFF)
				px, py := int16(pt[0]), int16(pt[1])
				if !pass.through {
					// The test's norm16x/norm16y: pixels to s16 device units.
					px, py = int16(pt[0]*65536/480-32768), int16(32768-pt[1]*65536/272)
				}
				binary.LittleEndian.PutUint16(vb[12*i+4:], uint16(px))
				binary.LittleEndian.PutUint16(vb[12*i+6:], uint16(py))
			}
			p.emit(p.vertices(ge.VType{Color: ge.Color8888, Pos: ge.Fmt16, Through: pass.through}, vb)...)
			if b.cw&2 != 0 {
				p.emit(ge.Word(ge.PRIM, 6<<16|2))
			} else {
				p.emit(ge.Word(ge.PRIM, 5<<16|4))
			}
			p.emit(ge.Word(ge.CLEAR, 0))
			x += 55
			if x+40 >= 480 {
				x, y = 10, y+45
			}
		}
	}
	p.run()
	y = 10
	for _, name := range []string{"Transform 2D", "Transform 3D", "Clear 2D", "Clear 3D"} {
		for i := range boxes {
			t.Run(fmt.Sprintf("%s %d", name, i), func(t *testing.T) {
				require.Equal(t, want[name][i], p.word32(10+55*i, y))
			})
		}
		y += 45
	}
}
