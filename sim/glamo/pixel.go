package glamo

import (
	"encoding/binary"

	hg "github.com/retrogl/retrogl/hal/glamo"
)

// frag is one fragment entering the pixel pipeline.
type frag struct {
	x, y int
	z    float64 // window z in [0, 1] (before the offset)
	w    float64 // interpolated 1/w
	col  [4]int32
	spec [4]int32 // SR, SG, SB, fog factor
	uv   [2][2]float64
	lod  [2]float64
	// special is the coordinate for the AA-point, AA-line and stipple
	// textures (2138h), used when smode != 0.
	special [2]float64
	smode   uint8
	count   int64 // pixels written, summed into Stats
}

const (
	spNone = iota
	spAAPoint
	spAALine
	spLineStipple
)

// pixState is the per-fragment state derived from the registers.
type pixState struct {
	vram []byte

	// colour target (2120h-2128h)
	cfmt        uint32
	clay        layout
	dstLUT      [][4]int32
	dstFast     fastLayout
	cbase       uint32
	cpitch      uint32
	rop         uint32
	cmask       uint16
	cmaskOn     bool
	hasAlpha    bool
	dstAlphaDef int32

	// scissor (2164h/2168h), inclusive, clamped to the s9 range
	clipX0, clipY0, clipX1, clipY1 int

	shade uint32

	// textures and blend
	tex     [2]texUnit
	ntex    int
	texOn   bool
	persp   bool
	comb    combiner
	txbl    bool
	specAdd bool

	// fog (213Ch-2148h)
	fog                    bool
	fogMode                uint32
	fogZ                   bool
	fogCol                 [4]int32
	fogEnd, fogInvD, fogDn float64

	// alpha test
	atest bool
	afunc uint32
	aref  int32

	// stencil
	stOn                  bool
	stBits                uint32
	stFunc                uint32
	stRef, stMask, stWmsk uint32
	stFail, stZF, stZP    uint32
	stBase, stPitch       uint32

	// Z
	zt, zw    bool
	zfunc     uint32
	zfmt      uint32
	zbase     uint32
	zpitch    uint32
	zmask     uint16
	zmaskOn   bool
	offset    bool
	slope     float64
	res       float64
	zclamp    bool
	zclampVal float64
	zclampNeg bool

	// blend
	blend             bool
	blendOver         bool
	plain             bool             // no colour stage between setup and the output stage
	parallel          bool             // row bands may be walked by several workers
	spanOK            bool             // the span pipeline may shade triangles (span.go)
	buffersApart      bool             // the written buffers do not overlap
	needZ             bool             // a stage reads the fragment's Z
	dstLanes          *[1 << 16]uint64 // the colour format's pixels as lanes (span.go)
	dstAOr            uint64           // the alpha lane of a format without alpha
	outFast           bool             // outputSpan's common state (span.go)
	plainFast         bool             // plain, outFast and no blending: plainChunk (span.go)
	fill565           bool             // plainFast into RGB565 with no Z write mask: fill565
	texMod            bool             // one bilinear texture times the diffuse colour: bilinearModulate
	rowOver565        bool             // texMod of a 16-bit texture, outFast, blendOver into RGB565: rowOver565
	quant             [4]quantizer     // the colour quantizer of rows y&3 (span.go)
	sep               bool
	ceq, aeq          uint32
	csrc, cdst        uint32
	asrc, adst        uint32
	bconst            [4]int32
	dither, invDither bool
	needDst           bool
	stippleTx         int
	aaLineTx, aaPtTx  int
	aaLine, aaPoint   bool
	aaTest            bool
	lineStipple       bool
	polyStipple       bool
	stippleVdir       float64
	lineWidth         float64
	rcpHalf           float64
	lnRepeat          float64
	lastPixel         bool
	sprite            bool
	cull, cullCCW     bool
	fill, ccwFill     uint32
	twoSideFill       bool
	keyBlend          bool
	ptClip            [4]int
	ptClipOn          bool
}

// Colour formats of EGDST0CFM (L2667-2708): the 16bpp codes are the only
// ones not "Reserved for".
var colorLayouts = map[uint32]layout{
	0x10: {bpp: 16, ch: [4]chanSpec{c(10, 5), c(5, 5), c(0, 5)}},
	0x11: {bpp: 16, ch: [4]chanSpec{c(11, 5), c(5, 6), c(0, 5)}},
	0x12: {bpp: 16, ch: [4]chanSpec{c(10, 5), c(5, 5), c(0, 5), c(15, 1)}},
	0x13: {bpp: 16, ch: [4]chanSpec{c(8, 4), c(4, 4), c(0, 4), c(12, 4)}},
	0x50: {bpp: 16, ch: [4]chanSpec{c(0, 5), c(5, 5), c(10, 5)}},
	0x51: {bpp: 16, ch: [4]chanSpec{c(0, 5), c(5, 6), c(11, 5)}},
	0x52: {bpp: 16, ch: [4]chanSpec{c(0, 5), c(5, 5), c(10, 5), c(15, 1)}},
	0x53: {bpp: 16, ch: [4]chanSpec{c(0, 4), c(4, 4), c(8, 4), c(12, 4)}},
}

var dstLUTs = map[uint32][][4]int32{}

func dstLUT(f uint32) [][4]int32 {
	lutMu.Lock()
	defer lutMu.Unlock()
	if t, ok := dstLUTs[f]; ok {
		return t
	}
	l := colorLayouts[f]
	t := make([][4]int32, 1<<16)
	for i := range t {
		t[i] = decodeLayout(&l, uint32(i))
	}
	dstLUTs[f] = t
	return t
}

// buildPixel rebuilds the pixel state and validates every buffer the next
// primitives can touch.
func (e *Engine) buildPixel() error {
	p := &e.px
	vram := e.vramAll()
	if vram == nil {
		return faultf("the engine has no memory attached")
	}
	p.vram = vram
	en0, en1 := e.reg(0x2100), e.reg(0x2104)
	dst := e.reg(0x2120)
	p.cfmt = dst >> 16 & 0x7F
	l, ok := colorLayouts[p.cfmt]
	if !ok {
		return faultf("EGDST0CFM %#02x is reserved: only the 16bpp formats exist (L2667-2708)", p.cfmt)
	}
	p.clay = l
	p.hasAlpha = l.ch[3].bits != 0
	p.dstLUT = dstLUT(p.cfmt)
	p.dstFast = newFastLayout(&l)
	p.dstLanes = dstLanesOf(p.cfmt)
	p.rop = dst >> 24 & 15
	p.cpitch = (dst & 0x3FF) * 2
	p.cbase = e.reg(0x2128) & 0x7FFFFE
	p.cmaskOn = en1>>23&1 != 0
	p.cmask = uint16(e.reg(0x2124))
	bl := e.reg(0x215C)
	p.dstAlphaDef = int32(bl>>12&0x1FF) * 16 // 256 = 1.0 (a decision: 9 bits, L2882)
	if p.dstAlphaDef > one {
		p.dstAlphaDef = one
	}
	p.dstAOr = 0
	if !p.hasAlpha {
		p.dstAOr = uint64(p.dstAlphaDef) << 48
	}

	tb, lr := e.reg(0x2164), e.reg(0x2168)
	s9 := func(v uint32) int { return int(int32(v<<22) >> 22) }
	p.clipY0, p.clipY1 = max(0, s9(tb>>16)), s9(tb)
	p.clipX0, p.clipX1 = max(0, s9(lr>>16)), s9(lr)

	setup := e.reg(0x260C)
	p.shade = setup >> 11 & 7
	if p.shade == 0 || p.shade > 4 {
		return faultf("RGPSHMD %03b is reserved (L1325)", p.shade)
	}
	p.cull, p.cullCCW = setup>>15&1 != 0, setup>>16&1 != 0
	p.sprite = setup>>14&1 != 0
	p.lastPixel = setup>>28&1 != 0
	p.offset = setup>>19&1 != 0 || en1>>24&1 != 0
	p.zclamp = setup>>10&1 != 0
	p.zclampNeg = setup>>9&1 != 0
	for _, b := range []struct {
		bit  uint
		name string
	}{{31, "W normalization"}, {30, "copy Z to W"}, {26, "Z scaling"}, {25, "stereo single-frame mode"}} {
		if setup>>b.bit&1 != 0 {
			return faultf("RGPSetup: %s (D%d) is not modelled by the simulator", b.name, b.bit)
		}
	}
	if en1>>12&1 != 0 {
		return faultf("EGEn1: stereo (D12) is not modelled by the simulator")
	}
	p.slope, p.res = e.f24(0x2620), e.f24(0x2624)
	p.zclampVal = qadd(e.f24(0x2628), p.res)
	prim := e.reg(0x2050)
	p.fill, p.ccwFill = prim&3, prim>>12&3
	p.twoSideFill = e.reg(0x2600)>>14&1 != 0
	if p.fill == 0 || (p.twoSideFill && p.ccwFill == 0) {
		return faultf("EGFillMode 00 is reserved (L2300)")
	}

	// Textures.
	p.texOn = en0>>10&1 != 0
	p.ntex = int(en0 >> 12 & 7)
	if p.ntex > 2 {
		return faultf("EGTXNUM %d: the chip has two texture units (L24)", p.ntex)
	}
	if !p.texOn {
		p.ntex = 0
	}
	p.persp = en0>>9&1 != 0
	p.tex[0].on, p.tex[1].on = false, false
	stp := e.reg(0x2138)
	p.stippleTx, p.aaLineTx, p.aaPtTx = int(stp>>8&1), int(stp>>4&1), int(stp&1)
	p.stippleVdir = 1.0 / 32
	if stp>>15&1 != 0 {
		p.stippleVdir = -1.0 / 32 // the detail's polarity (L2753-2754)
	}
	p.aaLine, p.aaPoint = en0>>2&1 != 0, en1>>14&1 != 0
	p.aaTest = en1>>13&1 != 0
	p.lineStipple, p.polyStipple = en1>>11&1 != 0, en1>>15&1 != 0
	need := [2]bool{}
	for u := 0; u < p.ntex; u++ {
		need[u] = true
	}
	if p.aaLine {
		need[p.aaLineTx] = true
	}
	if p.aaPoint {
		need[p.aaPtTx] = true
	}
	if p.lineStipple || p.polyStipple {
		need[p.stippleTx] = true
	}
	for u := 0; u < 2; u++ {
		if need[u] {
			if err := e.buildTex(u, vram); err != nil {
				return err
			}
		}
	}
	p.tex[0].set = prim >> 10 & 3
	p.tex[1].set = prim >> 8 & 3
	p.txbl = en1>>17&1 != 0
	if p.ntex > 0 && p.txbl {
		if err := e.buildCombiner(); err != nil {
			return err
		}
	}
	p.keyBlend = false
	if (en1>>28&3) != 0 && e.reg(0x21A8)>>30&1 != 0 {
		p.keyBlend = true // transparency mode x1: tested on the blend output
	}
	p.specAdd = en0>>4&1 != 0

	// Fog (L2767-2793).
	p.fog = en0>>3&1 != 0
	fc := e.reg(0x213C)
	p.fogMode = fc >> 24 & 7
	if p.fog && p.fogMode != 0 && p.fogMode < 4 {
		return faultf("EGFOGMD %03b is reserved (L2773-2777)", p.fogMode)
	}
	p.fogZ = fc>>27&1 != 0
	p.fogCol = [4]int32{expand(fc>>19&31, 5), expand(fc>>10&63, 6), expand(fc>>3&31, 5), one}
	p.fogEnd, p.fogInvD, p.fogDn = hg.FromF18(e.reg(0x2140)), hg.FromF18(e.reg(0x2144)), hg.FromF18(e.reg(0x2148))

	// Alpha test (L2607-2628).
	at := e.reg(0x2114)
	p.atest = en0>>17&1 != 0
	p.afunc = at >> 8 & 7
	p.aref = int32(at&0xFF) >> 2

	// Stencil (L2796-2864).
	sc, so := e.reg(0x2150), e.reg(0x2154)
	p.stOn = en0>>22&1 != 0 && en0>>5&1 != 0
	p.stBits = []uint32{1, 2, 4, 8}[sc>>28&3]
	p.stFunc = sc >> 24 & 7
	m := uint32(1)<<p.stBits - 1
	p.stRef, p.stMask = sc>>8&0xFF&m, sc&0xFF&m
	p.stWmsk = m
	if en1>>10&1 != 0 {
		p.stWmsk = so >> 24 & m
	}
	p.stFail, p.stZF, p.stZP = so>>20&7, so>>16&7, so>>12&7
	p.stPitch = (so & 0x3FF) * 2
	p.stBase = e.reg(0x2158) & 0x7FFFFE

	// Z (L2571-2606).
	zc := e.reg(0x2108)
	p.zt, p.zw = en0>>19&1 != 0, en0>>20&1 != 0
	p.zfunc = zc >> 16 & 7
	p.zfmt = zc >> 20 & 0x7F
	switch {
	case p.zfmt == 0, p.zfmt>>2 == 2, p.zfmt>>2 == 3, p.zfmt == 0x10:
	default:
		if p.zt || p.zw {
			return faultf("EGZBUFFM %07b is reserved (L2575-2578)", p.zfmt)
		}
	}
	p.zpitch = (zc & 0x3FF) * 2
	p.zbase = e.reg(0x2110) & 0x7FFFFE
	p.zmaskOn = en1>>22&1 != 0
	p.zmask = uint16(e.reg(0x210C))

	// Blend (L2865-3057).
	p.blend = en0>>1&1 != 0
	p.sep = bl>>30&1 != 0
	p.ceq, p.aeq = bl>>24&7, bl>>27&7
	p.csrc, p.cdst = bl>>4&31, bl&15
	ab := e.reg(0x216C)
	p.asrc, p.adst = ab>>4&31, ab&15
	if !p.sep {
		p.aeq, p.asrc, p.adst = p.ceq, p.csrc, p.cdst
	}
	if p.blend {
		for _, eq := range []uint32{p.ceq, p.aeq} {
			if eq == 4 || eq > 5 {
				return faultf("EGBLEqMode %03b is reserved (L2875-2880)", eq)
			}
		}
		for _, s := range []uint32{p.csrc, p.asrc} {
			if s > 16 {
				return faultf("EGCBLSRC %05b is reserved (L2916)", s)
			}
		}
		for _, d := range []uint32{p.cdst, p.adst} {
			if d > 14 {
				return faultf("EGCBLDST %04b is reserved (L2949)", d)
			}
		}
	}
	p.bconst = color6565(e.reg(0x2160))
	p.dither, p.invDither = en0&1 != 0, en1>>9&1 != 0
	p.needDst = p.blend || (p.rop != 12) || p.cmaskOn
	p.blendOver = p.blend && !p.sep && p.ceq == 0 && p.csrc == 4 && p.cdst == 5
	p.plain = p.ntex == 0 && !p.keyBlend && !p.specAdd && !p.fog && !p.aaLine && !p.aaPoint &&
		!p.lineStipple && !p.polyStipple && !p.atest

	// Lines and points (L1364-1380).
	ln := e.reg(0x265C)
	p.lineWidth = hg.Fix9_4.Decode(ln & 0x1FFF)
	p.rcpHalf = e.f24(0x2668)
	p.lnRepeat = e.f24(0x2660)
	ptb, plr := e.reg(0x2654), e.reg(0x2658)
	s10 := func(v uint32) int { return int(int32(v<<21) >> 21) }
	p.ptClip = [4]int{s10(plr), s10(ptb), s10(plr >> 16), s10(ptb >> 16)} // left, top, right, bottom
	p.ptClipOn = p.ptClip != [4]int{}

	p.needZ = p.zt || p.zw || (p.fog && p.fogMode >= 5 && p.fogZ)
	p.parallel = e.parallelSafe()
	zOn := p.zt || p.zw
	p.outFast = p.spanOK && p.buffersApart && !p.stOn && !(zOn && p.zfmt != 0) && !(p.blend && !p.blendOver) &&
		p.rop == 12 && !p.cmaskOn && l.ch[0].bits == l.ch[2].bits
	p.plainFast = p.plain && p.outFast && !p.blend
	p.fill565 = p.plainFast && (p.cfmt == 0x11 || p.cfmt == 0x51) && (!p.zmaskOn || p.zmask == 0xFFFF)
	p.texMod = p.spanOK && p.texModState()
	p.rowOver565 = p.texMod && p.tex[0].bpp == 16 && p.outFast && p.blend && p.cfmt == 0x11
	p.quant = e.quantizers()
	// Buffers must lie in VRAM over the whole clip rectangle.
	if p.clipX1 >= p.clipX0 && p.clipY1 >= p.clipY0 {
		span := func(base, pitch uint32, bpp int, what string) error {
			end := uint64(base) + uint64(pitch)*uint64(p.clipY1) + uint64(bpp)*uint64(p.clipX1+1)
			if end > uint64(len(vram)) {
				return faultf("%s buffer at %#x (pitch %d) does not hold the clip rectangle %d,%d-%d,%d inside VRAM",
					what, base, pitch, p.clipX0, p.clipY0, p.clipX1, p.clipY1)
			}
			return nil
		}
		if err := span(p.cbase, p.cpitch, 2, "colour"); err != nil {
			return err
		}
		if p.zt || p.zw {
			if err := span(p.zbase, p.zpitch, 2, "Z"); err != nil {
				return err
			}
		}
		if p.stOn {
			if err := span(p.stBase, p.stPitch, 1, "stencil"); err != nil {
				return err
			}
		}
	}
	return nil
}

func (e *Engine) vramAll() []byte {
	if e.mem == nil {
		return nil
	}
	b, _ := e.mem.Slice(0, VRAMSize)
	if b == nil {
		for _, r := range e.mem.Regions() {
			b, _ = e.mem.Slice(r.Base, r.Size)
		}
	}
	return b
}

func compare(f uint32, a, b int64) bool {
	switch f {
	case 1:
		return a < b
	case 2:
		return a == b
	case 3:
		return a <= b
	case 4:
		return a > b
	case 5:
		return a != b
	case 6:
		return a >= b
	case 7:
		return true
	}
	return false
}

// stencilOp applies a stencil operation (L2829-2837) on n-bit values:
// INCRSAT/DECRSAT stop at the maximum and at 0 (Stmin, L265), INCR/DECR
// wrap.
func stencilOp(op, s, ref, m uint32) uint32 {
	switch op {
	case 1:
		return 0
	case 2:
		return ref
	case 3:
		if s < m {
			return s + 1
		}
		return s
	case 4:
		if s > 0 {
			return s - 1
		}
		return s
	case 5:
		return ^s & m
	case 6:
		return (s + 1) & m
	case 7:
		return (s - 1) & m
	}
	return s
}

// bayer is the 4x4 ordered-dither matrix (P17).
var bayer = [4][4]int32{{0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}}

// qluts[n][d] maps a saturated 12-bit channel (0..4096) to n bits with
// dither threshold d (0..15), or rounded to nearest for d = 16: the table
// form of quant, built once.
var qluts [9][17][]uint8

func init() {
	for bits := uint8(1); bits <= 8; bits++ {
		for d := int32(0); d <= 16; d++ {
			t := make([]uint8, one+1)
			for v := range t {
				t[v] = uint8(quant(int32(v), bits, d, d < 16))
			}
			qluts[bits][d] = t
		}
	}
}

// quant reduces a 12-bit channel to n bits: round to nearest, or with
// dither add the matrix threshold (2b+1)/32 of one step and truncate.
func quant(v int32, bits uint8, d int32, dither bool) uint32 {
	if bits == 0 {
		return 0
	}
	v = sat(v)
	m := int64(1)<<bits - 1
	t := int64(v) * m
	if dither {
		t += int64(d)*256 + 128
	} else {
		t += 2048
	}
	r := t >> 12
	if r > m {
		r = m
	}
	return uint32(r)
}

// blendFactor returns factor f for source s, destination d and constant k
// (L2888-2956); src tells the table (the destination table has no "both"
// modes and shifts the constants down by two).
func (p *pixState) blendFactor(f uint32, src bool, s, d [4]int32) [4]int32 {
	if !src && f >= 11 {
		f += 2
	}
	k := p.bconst
	switch f {
	case 0:
		return [4]int32{}
	case 1:
		return [4]int32{one, one, one, one}
	case 2:
		return s
	case 3:
		return [4]int32{one - s[0], one - s[1], one - s[2], one - s[3]}
	case 4, 11:
		return [4]int32{s[3], s[3], s[3], s[3]}
	case 5, 12:
		a := one - s[3]
		return [4]int32{a, a, a, a}
	case 6:
		return [4]int32{d[3], d[3], d[3], d[3]}
	case 7:
		a := one - d[3]
		return [4]int32{a, a, a, a}
	case 8:
		return d
	case 9:
		return [4]int32{one - d[0], one - d[1], one - d[2], one - d[3]}
	case 10:
		fm := min(s[3], one-d[3])
		return [4]int32{fm, fm, fm, one}
	case 13:
		return k
	case 14:
		return [4]int32{one - k[0], one - k[1], one - k[2], one - k[3]}
	case 15:
		return [4]int32{k[3], k[3], k[3], k[3]}
	case 16:
		a := one - k[3]
		return [4]int32{a, a, a, a}
	}
	return [4]int32{}
}

func blendEq(eq uint32, s, fs, d, fd int32) int32 {
	switch eq {
	case 1:
		return sat(mul12(s, fs) - mul12(d, fd))
	case 2:
		return max(s, d)
	case 3:
		return min(s, d)
	case 5:
		return sat(mul12(d, fd) - mul12(s, fs))
	}
	return sat(mul12(s, fs) + mul12(d, fd))
}

// blend combines source and destination (L327-383).
func (p *pixState) blendPixel(s, d [4]int32) [4]int32 {
	fs := p.blendFactor(p.csrc, true, s, d)
	fd := p.blendFactor(p.cdst, false, s, d)
	switch p.csrc {
	case 11: // BOTH_SRC_ALPHA
		a := one - s[3]
		fd = [4]int32{a, a, a, a}
	case 12: // BOTH_INV_SRC_ALPHA
		fd = [4]int32{s[3], s[3], s[3], s[3]}
	}
	var out [4]int32
	for k := 0; k < 3; k++ {
		out[k] = blendEq(p.ceq, s[k], fs[k], d[k], fd[k])
	}
	if p.sep {
		fsa := p.blendFactor(p.asrc, true, s, d)
		fda := p.blendFactor(p.adst, false, s, d)
		switch p.asrc {
		case 11:
			fda[3] = one - s[3]
		case 12:
			fda[3] = s[3]
		}
		out[3] = blendEq(p.aeq, s[3], fsa[3], d[3], fda[3])
	} else {
		out[3] = blendEq(p.ceq, s[3], fs[3], d[3], fd[3])
	}
	return out
}

// rop applies the raster operation (2120h D[27:24], L2631-2647): the code
// is the Windows R2 code minus one, so result bit = (ROP >> (2P + D)) & 1.
func rop(code uint32, s, d uint16) uint16 {
	var out uint16
	for _, t := range [4]struct {
		p, d uint16
	}{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
		if code>>(2*uint32(t.p)+uint32(t.d))&1 == 0 {
			continue
		}
		ps, ds := s, d
		if t.p == 0 {
			ps = ^s
		}
		if t.d == 0 {
			ds = ^d
		}
		out |= ps & ds
	}
	return out
}

// fogFactor returns the per-pixel fog factor (12-bit) for a fragment.
func (p *pixState) fogFactor(f *frag) int32 {
	if p.fogMode == 4 { // vertex fog: the interpolated F
		return f.spec[3]
	}
	var d float64
	if p.fogZ {
		d = f.z
	} else if f.w != 0 {
		d = q(1 / f.w) // "1/W" (L287-295): the eye depth
	}
	var v float64
	switch p.fogMode {
	case 5:
		v = float64(p.fogEnd-d) * p.fogInvD
	case 6:
		v = fexp2(-float64(p.fogDn*d) * log2e)
	case 7:
		t := float64(p.fogDn * d)
		v = fexp2(-float64(t*t) * log2e)
	default:
		return one
	}
	// Quantised to the 6.8 format the fog factor is interpolated in.
	fq := int32(clamp01(v)*63*256 + 0.5)
	return lut6_8[fq]
}

const log2e = 1.4426950408889634

// shade runs the pixel pipeline on one fragment.
func (e *Engine) shade(f *frag) {
	p := &e.px
	if p.plain {
		e.output(f, f.col)
		return
	}
	var tex [2][4]int32
	for u := 0; u < p.ntex; u++ {
		t := &p.tex[u]
		if t.key && !p.keyBlend {
			if t.keyCovered(f.uv[u][0], f.uv[u][1])*32 > int64(t.keyRatio)*256 {
				return
			}
		}
		t.sampleTo(f.uv[u][0], f.uv[u][1], f.lod[u], &tex[u])
	}
	col := f.col
	if p.ntex > 0 && p.txbl {
		p.comb.run(&f.col, &f.spec, &tex[0], &tex[1], &col)
	}
	if p.keyBlend {
		t := &p.tex[0]
		if !p.tex[0].key {
			t = &p.tex[1]
		}
		if t.keyed(col) {
			return
		}
	}
	if p.specAdd {
		for k := 0; k < 3; k++ {
			col[k] = sat(col[k] + f.spec[k])
		}
	}
	if p.fog {
		if p.fogMode == 0 {
			for k := 0; k < 3; k++ {
				col[k] = sat(col[k] + p.fogCol[k]) // constant fog (L285)
			}
		} else {
			ff := p.fogFactor(f)
			for k := 0; k < 3; k++ {
				col[k] = sat(mul12(ff, col[k]) + mul12(one-ff, p.fogCol[k]))
			}
		}
	}
	switch f.smode {
	case spAAPoint, spAALine:
		t := &p.tex[p.aaPtTx]
		if f.smode == spAALine {
			t = &p.tex[p.aaLineTx]
		}
		cov := t.sample(f.special[0], f.special[1], 0)[3]
		if p.aaTest && cov == 0 {
			return
		}
		col[3] = mul12(col[3], cov)
	case spLineStipple:
		if p.tex[p.stippleTx].sample(f.special[0], f.special[1], 0)[3] < one/2 {
			return
		}
	}
	if p.polyStipple && f.smode == spNone {
		u, v := float64(f.x)/32, float64(f.y)*p.stippleVdir
		if p.tex[p.stippleTx].sample(u, v, 0)[3] < one/2 {
			return
		}
	}
	if p.atest {
		a6 := int32((int64(sat(col[3]))*63 + 2048) >> 12) // A[7:2] only (L2628)
		if !compare(p.afunc, int64(a6), int64(p.aref)) {
			return
		}
	}
	e.output(f, col)
}

// output runs the tests and writes of the pixel engine: stencil, Z,
// blending, dither, ROP, write mask.
func (e *Engine) output(f *frag, col [4]int32) {
	p := &e.px
	vram := p.vram
	x, y := f.x, f.y
	// Stencil and Z.
	var sAddr uint32
	var sv uint32
	stPass := true
	if p.stOn {
		sAddr = p.stBase + uint32(y)*p.stPitch + uint32(x)
		sv = uint32(vram[sAddr]) & (1<<p.stBits - 1)
		stPass = compare(p.stFunc, int64(p.stRef&p.stMask), int64(sv&p.stMask))
		if !stPass {
			e.stencilWrite(sAddr, sv, p.stFail)
			return
		}
	}
	if p.zt || p.zw {
		zAddr := p.zbase + uint32(y)*p.zpitch + 2*uint32(x)
		zd := binary.LittleEndian.Uint16(vram[zAddr:])
		zn := p.zcode(f.z)
		if p.zt && !compare(p.zfunc, int64(zn), int64(zd)) {
			if p.stOn {
				e.stencilWrite(sAddr, sv, p.stZF)
			}
			return
		}
		if p.zw {
			if p.zmaskOn {
				zn = zn&p.zmask | zd&^p.zmask
			}
			binary.LittleEndian.PutUint16(vram[zAddr:], zn)
		}
	}
	if p.stOn {
		e.stencilWrite(sAddr, sv, p.stZP)
	}
	cAddr := p.cbase + uint32(y)*p.cpitch + 2*uint32(x)
	var dp uint16
	if p.needDst {
		dp = binary.LittleEndian.Uint16(vram[cAddr:])
	}
	for k := range col {
		col[k] = sat(col[k])
	}
	if p.blend {
		var d [4]int32
		p.dstFast.decodeTo(uint32(dp), &d)
		if !p.hasAlpha {
			d[3] = p.dstAlphaDef
		}
		if p.blendOver {
			// SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD: the same arithmetic as
			// blendPixel, without the table walk.
			a, ia := col[3], one-col[3]
			for k := 0; k < 4; k++ {
				col[k] = sat(mul12(col[k], a) + mul12(d[k], ia))
			}
		} else {
			col = p.blendPixel(col, d)
		}
	}
	var dth int32
	if p.dither {
		dth = bayer[y&3][x&3]
		if p.invDither {
			dth = 15 - dth
		}
	}
	// Quantise to the target's bits: the arithmetic form of quant (the
	// channels are saturated, and the largest dither offset, 3968, never
	// carries a full-scale value past the maximum).
	add := int32(2048)
	if p.dither {
		add = dth*256 + 128
	}
	var px uint16
	for k := 0; k < 4; k++ {
		ch := &p.clay.ch[k]
		if ch.bits != 0 {
			m := int32(1)<<ch.bits - 1
			px |= uint16((col[k]*m+add)>>12) << ch.shift
		}
	}
	if p.rop != 12 {
		px = rop(p.rop, px, dp)
	}
	if p.cmaskOn {
		px = px&p.cmask | dp&^p.cmask
	}
	binary.LittleEndian.PutUint16(vram[cAddr:], px)
	f.count++
}

func (e *Engine) stencilWrite(addr, s, op uint32) {
	p := &e.px
	m := uint32(1)<<p.stBits - 1
	n := stencilOp(op, s, p.stRef, m)
	n = n&p.stWmsk | s&^p.stWmsk
	old := uint32(p.vram[addr])
	p.vram[addr] = uint8(old&^m | n&m)
}

// zcode converts a window depth to the Z buffer format (P12).
func (p *pixState) zcode(z float64) uint16 {
	switch {
	case p.zfmt == 0:
		return hg.Z16(z)
	case p.zfmt>>2 == 2:
		return hg.ZF1Z15.Encode(z)
	case p.zfmt>>2 == 3:
		return hg.ZF2Z14.Encode(z)
	}
	return hg.ZF5Z11.Encode(z)
}

// lut5_8 and lut6_8 convert the setup engine's s5.8 and s6.8 colour values
// (a 5- or 6-bit level with 8 fraction bits, L1767-1864) to 12-bit fixed
// point.
var (
	lut5_8 [31*256 + 1]int32
	lut6_8 [63*256 + 1]int32
)

func init() {
	mk := func(t []int32, bits uint) {
		m := (1<<bits - 1) << 8
		for i := range t {
			t[i] = int32((int64(i)*one + int64(m)/2) / int64(m))
		}
	}
	mk(lut5_8[:], 5)
	mk(lut6_8[:], 6)
	for i := range lut5p {
		lut5p[i] = lut5_8[min(i, len(lut5_8)-1)]
	}
	for i := range lut6p {
		lut6p[i] = lut6_8[min(i, len(lut6_8)-1)]
	}
	initQuantTables()
}

// parallelSafe reports whether row bands of the clip rectangle touch
// disjoint memory: each written buffer's rows do not overlap (pitch at
// least the row), the buffers do not overlap each other, and no texture
// level in use overlaps a written buffer. It also sets p.spanOK: the span
// pipeline may run when no texture level overlaps a written buffer.
func (e *Engine) parallelSafe() bool {
	p := &e.px
	p.spanOK, p.buffersApart = false, false
	if p.clipX1 < p.clipX0 || p.clipY1 < p.clipY0 {
		return false
	}
	type span struct{ lo, hi uint64 }
	var written []span
	rowsOK := true
	add := func(base, pitch uint32, bpp int) {
		row := uint64(bpp) * uint64(p.clipX1+1)
		if uint64(pitch) < row {
			rowsOK = false
		}
		written = append(written, span{uint64(base), uint64(base) + uint64(pitch)*uint64(p.clipY1) + row})
	}
	add(p.cbase, p.cpitch, 2)
	if p.zt || p.zw {
		add(p.zbase, p.zpitch, 2)
	}
	if p.stOn {
		add(p.stBase, p.stPitch, 1)
	}
	overlap := func(a, b span) bool { return a.lo < b.hi && b.lo < a.hi }
	for u := range p.tex {
		t := &p.tex[u]
		if !t.on {
			continue
		}
		for _, l := range t.levels {
			s := span{uint64(l.base), uint64(l.base) + uint64(l.pitch)*uint64(l.h) + uint64(l.w)*2}
			for _, w := range written {
				if overlap(s, w) {
					return false
				}
			}
		}
	}
	p.spanOK = true
	p.buffersApart = true
	for i := range written {
		for j := i + 1; j < len(written); j++ {
			if overlap(written[i], written[j]) {
				p.buffersApart = false
			}
		}
	}
	return rowsOK && p.buffersApart
}

// texModState reports whether the fragment stages are one bilinear
// texture of level 0 (bilinearSpan's case) multiplied by the diffuse
// colour in colour and alpha (modulate's one-stage MUL of Cdif and Ctex0),
// with no colour key, specular sum, fog, stipple, anti-aliasing or alpha
// test after it.
func (p *pixState) texModState() bool {
	if p.ntex != 1 || !p.txbl || p.keyBlend || p.specAdd || p.fog || p.aaLine || p.aaPoint ||
		p.lineStipple || p.polyStipple || p.atest {
		return false
	}
	t := &p.tex[0]
	if t.key || t.needLOD || t.mag != 1 || t.lanes == nil || !spanAxisOK(t.levels[0].w, t.wrapU) || !spanAxisOK(t.levels[0].h, t.wrapV) {
		return false
	}
	cb := &p.comb
	if cb.stages != 1 || !cb.col[0].simple || !cb.alp[0].simple {
		return false
	}
	difTex := func(u *cunit) bool {
		a, b := u.arg[0]&31, u.arg[1]&31
		dif := func(s uint8) bool { return s == 0x01 || s == 0x03 || s == 0x05 }
		return (dif(a) && b == 0x06) || (a == 0x06 && dif(b))
	}
	return difTex(&cb.col[0]) && difTex(&cb.alp[0])
}
