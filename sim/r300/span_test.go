package r300

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// Memory map of the random scenes: two colour buffers, a depth buffer and
// two texture units' levels, each in its own 512 KB of VRAM.
const (
	rsSpan = 0x80000
	rsFB0  = VRAMBase
	rsFB1  = VRAMBase + rsSpan
	rsZB   = VRAMBase + 2*rsSpan
	rsTex0 = VRAMBase + 3*rsSpan // unit u at rsTex0 + u*rsSpan
	rsCmd  = GARTBase
)

// sceneGen draws random register states and primitives: every field from
// the values the simulator accepts most of the time, so that most draws
// run (a state the simulator rejects faults on both paths alike).
type sceneGen struct {
	r    *rand.Rand
	w, h int
	s    r3.Stream
	// mov is set while the program only moves values (movALU).
	mov bool
	// near is set for a draw whose attributes lie in (0, 1) at the
	// nearest constant depth: the Gouraud row path's runs then step
	// directly and pass LEQUAL whole (its write into the colour buffer).
	near bool
	// tex is set while the program is a modulated texture fetch
	// (texProgram), tunit the unit it samples.
	tex   bool
	tunit uint32
}

func (g *sceneGen) bit(pct int) uint32 {
	if g.r.IntN(100) < pct {
		return 1
	}
	return 0
}

func (g *sceneGen) pick(vs ...uint32) uint32 { return vs[g.r.IntN(len(vs))] }

// blendCode returns a valid blend factor code (dst: a valid DESTBLEND).
func (g *sceneGen) blendCode(dst bool) uint32 {
	for {
		c := uint32(g.r.IntN(47))
		if g.r.IntN(3) == 0 {
			c = g.pick(32, 33, 38, 39) // ZERO, ONE, SRC_ALPHA, 1-SRC_ALPHA
		}
		if blendFactor(c) < 0 || (dst && ((c >= 11 && c <= 13) || c == 42)) {
			continue
		}
		return c
	}
}

// fixed sets what every random scene shares: the vertex layout (position,
// two colours, two 4-component texture coordinates, all FLOAT_4, window
// coordinates with 1/W) and the PVS bypass.
func (g *sceneGen) fixed() {
	s := &g.s
	s.Reg(r3.RB3D_DSTCACHE_CTLSTAT, 0x0A)
	s.Reg(r3.VAP_CNTL_STATUS, 1<<8)
	s.Reg(r3.VAP_CLIP_CNTL, 1<<16)
	s.Reg(r3.VAP_VTE_CNTL, 0x300)
	s.Reg(r3.VAP_VF_MAX_VTX_INDX, 0xFFFFFF, 0)
	el := func(dst, last uint32) uint32 { return 3 | dst<<8 | last<<13 }
	s.Reg(r3.VAP_PROG_STREAM_CNTL_0, el(0, 0)|el(1, 0)<<16, el(2, 0)|el(3, 0)<<16, el(4, 1))
	s.Reg(r3.VAP_PROG_STREAM_CNTL_EXT, 0xF688F688, 0xF688F688, 0xF688)
	s.Reg(r3.VAP_OUT_VTX_FMT_0, 7, 4|4<<3)
	s.Reg(r3.VAP_VTX_SIZE, 20)
	s.Reg(r3.RS_COUNT, 8|2<<7)
}

// state writes a random pixel state.
func (g *sceneGen) state() {
	r, s := g.r, &g.s
	w, h := g.w, g.h
	// Geometry and scan conversion.
	s.Reg(r3.GB_TILE_CONFIG, 1|3<<1|1<<4|g.bit(50)<<16)
	s.Reg(r3.GB_ENABLE, g.bit(10)|g.bit(10)<<1|g.pick(0, 0, 0, 1, 2)<<16)
	s.Reg(r3.GB_SELECT, uint32(r.IntN(6))|g.bit(30)<<4)
	s.Reg(r3.GA_ROUND_MODE, g.pick(0, 1)|g.bit(30)<<4|g.bit(30)<<5)
	cc := uint32(0)
	for k := 0; k < 4; k++ {
		cc |= g.pick(2, 2, 2, 1, 0)<<(4*k) | g.pick(2, 2, 2, 1, 0)<<(4*k+2)
	}
	s.Reg(r3.GA_COLOR_CONTROL, cc|uint32(r.IntN(4))<<16)
	s.Reg(r3.GA_SOLID_RG, r.Uint32()&0x0FFF0FFF)
	s.Reg(r3.GA_SOLID_BA, r.Uint32()&0x0FFF0FFF)
	if g.bit(10) == 1 {
		s.Reg(r3.GA_POLY_MODE, 1|uint32(r.IntN(3))<<4|uint32(r.IntN(3))<<7)
	} else {
		s.Reg(r3.GA_POLY_MODE, 0)
	}
	s.Reg(r3.GA_POINT_SIZE, uint32(r.IntN(40))|uint32(r.IntN(40))<<16)
	s.Reg(r3.GA_LINE_CNTL, uint32(r.IntN(30))|uint32(r.IntN(4))<<16)
	s.Reg(r3.GA_LINE_STIPPLE_CFG, math.Float32bits(1.0/64)&^3|uint32(r.IntN(3)))
	s.Reg(r3.SU_CULL_MODE, uint32(r.IntN(8)))
	s.Reg(r3.SU_POLY_OFFSET_ENABLE, uint32(r.IntN(4)))
	s.Reg(r3.SU_POLY_OFFSET_FRONT_SCALE, f(float32(r.IntN(5))), f(float32(r.IntN(20))-5), f(1), f(2))
	s.Reg(r3.SU_DEPTH_SCALE, f(16777215), f(float32(r.IntN(3))*100))
	rule := uint32(0)
	for k := 0; k < 6; k++ {
		rule |= uint32(r.IntN(32)) << (5 * k)
	}
	s.Reg(r3.SC_EDGERULE, rule)
	x0, y0 := uint32(r.IntN(w/4)), uint32(r.IntN(h/4))
	x1, y1 := uint32(w-1-r.IntN(w/4)), uint32(h-1-r.IntN(h/4))
	if g.bit(50) == 1 {
		x0, y0, x1, y1 = 0, 0, uint32(w-1), uint32(h-1)
	}
	s.Reg(r3.SC_SCISSOR0, x0|y0<<13, x1|y1<<13)
	for i := 0; i < 4; i++ {
		s.Reg(r3.SC_CLIP_0_A+8*uint32(i), uint32(r.IntN(w))|uint32(r.IntN(h))<<13, uint32(r.IntN(w))|uint32(r.IntN(h))<<13)
	}
	if g.bit(70) == 1 {
		s.Reg(r3.SC_CLIP_RULE, 0xFFFF)
	} else {
		s.Reg(r3.SC_CLIP_RULE, r.Uint32()&0xFFFF)
	}
	s.Reg(r3.SC_SCREENDOOR, 0xFFFFFF)

	// RS: four interpolator pairs into temps 0-5.
	n := r.IntN(4)
	s.Reg(r3.RS_INST_COUNT, uint32(n))
	for i := 0; i < 4; i++ {
		ptr := uint32(r.IntN(5))
		ip := ptr | uint32(r.IntN(2))<<6 | g.pick(0, 0, 1, 2, 4, 5, 6, 8, 9, 10)<<9
		for c := 0; c < 4; c++ {
			sel := uint32(r.IntN(6))
			if sel < 4 && ptr+sel >= 8 {
				sel = 4
			}
			ip |= sel << (13 + 3*c)
		}
		s.Reg(r3.RS_IP_0+4*uint32(i), ip)
	}
	for j := 0; j <= n; j++ {
		s.Reg(r3.RS_INST_0+4*uint32(j), uint32(r.IntN(4))|g.bit(80)<<3|uint32(r.IntN(6))<<6|
			uint32(r.IntN(4))<<11|g.bit(80)<<14|uint32(r.IntN(6))<<17)
	}

	// US: a random program of one or two levels.
	g.program()

	// TX: two units.
	if g.tex {
		s.Reg(r3.TX_ENABLE, uint32(r.IntN(4))|1<<g.tunit)
	} else {
		s.Reg(r3.TX_ENABLE, uint32(r.IntN(4)))
	}
	for u := uint32(0); u < 2; u++ {
		g.texUnit(u)
	}

	// FG.
	s.Reg(r3.FG_FOG_BLEND, g.bit(20)|uint32(r.IntN(4))<<1)
	s.Reg(r3.FG_FOG_FACTOR, uint32(r.IntN(1024)), uint32(r.IntN(1024)), uint32(r.IntN(1024)), uint32(r.IntN(1024)))
	s.Reg(r3.GA_FOG_SCALE, f(r.Float32()*2-0.5), f(r.Float32()-0.5))
	s.Reg(r3.FG_ALPHA_FUNC, uint32(r.IntN(256))|uint32(r.IntN(8))<<8|g.bit(25)<<11|g.bit(20)<<20, g.bit(15))
	s.Reg(r3.US_W_FMT, g.pick(0, 1, 1, 1|4))

	// ZB.
	s.Reg(r3.ZB_CNTL, g.bit(25)|g.bit(60)<<1|g.bit(60)<<2|g.bit(30)<<4,
		r.Uint32()&0x07FFFFFF, uint32(r.IntN(256))|uint32(r.IntN(256))<<8|uint32(r.IntN(256))<<16)
	s.Reg(r3.ZB_FORMAT, g.pick(0, 2))
	s.Reg(r3.ZB_DEPTHOFFSET, rsZB, uint32(w))

	// RB3D.
	s.Reg(r3.RB3D_CCTL, 0)
	for b := uint32(0); b < 2; b++ {
		s.Reg(r3.RB3D_COLOROFFSET0+4*b, rsFB0+b*rsSpan)
		s.Reg(r3.RB3D_COLORPITCH0+4*b, uint32(w)|g.pick(6, 6, 6, 3, 4, 7, 7, 7, 9, 10, 10, 15)<<21)
	}
	outFmt := func() uint32 {
		return g.pick(0, 0, 0, 1, 5, 18, 21, 21) | uint32(r.IntN(256))<<8
	}
	if g.bit(30) == 1 {
		// Float output into a float buffer keeps every bit the program
		// computes.
		s.Reg(r3.RB3D_COLORPITCH0, uint32(w)|7<<21)
		s.Reg(r3.US_OUT_FMT_0, 0x1B00|21, 15, 15, 15)
	} else if g.bit(80) == 1 {
		s.Reg(r3.US_OUT_FMT_0, 0x1B00|g.pick(0, 0, 1, 5, 18, 21), 15, 15, 15)
	} else {
		s.Reg(r3.US_OUT_FMT_0, outFmt(), g.pick(15, 15, outFmt()), 15, 15)
	}
	bc := g.bit(50) | g.bit(30)<<1 | g.bit(80)<<2 | g.pick(0, 0, 0, 0, 1, 2, 3, 4, 5, 6)<<3 |
		uint32(r.IntN(8))<<12 | g.blendCode(false)<<16 | g.blendCode(true)<<24
	if g.bit(40) == 1 {
		bc = 1 | 1<<2 | g.pick(38, 5)<<16 | g.pick(39, 6)<<24 // SRC_ALPHA, INV_SRC_ALPHA (GL or D3D codes)
	}
	s.Reg(r3.RB3D_BLENDCNTL, bc, uint32(r.IntN(8))<<12|g.blendCode(false)<<16|g.blendCode(true)<<24)
	mask := uint32(15)
	if g.bit(20) == 1 {
		mask = uint32(r.IntN(16))
	}
	s.Reg(r3.RB3D_COLOR_CHANNEL_MASK, mask, r.Uint32())
	s.Reg(r3.RB3D_ROPCNTL, g.bit(15)<<2|uint32(r.IntN(16))<<8)
	s.Reg(r3.RB3D_DITHER_CTL, uint32(r.IntN(3))|uint32(r.IntN(3))<<2)
	if g.bit(40) == 1 || (g.mov && g.bit(60) == 1) || (g.tex && g.bit(80) == 1) {
		// The states a GL ES driver draws with most: one ARGB8888
		// target, written or blended, no fog, alpha test, ROP or mask,
		// the whole screen visible.
		s.Reg(r3.RB3D_COLORPITCH0, uint32(w)|6<<21)
		s.Reg(r3.US_OUT_FMT_0, 0x1B00, 15, 15, 15)
		s.Reg(r3.FG_FOG_BLEND, 0)
		s.Reg(r3.FG_ALPHA_FUNC, 0, 0)
		s.Reg(r3.RB3D_ROPCNTL, 0)
		s.Reg(r3.RB3D_COLOR_CHANNEL_MASK, 15)
		s.Reg(r3.RB3D_BLENDCNTL, g.pick(0, 0, 1|1<<2|38<<16|39<<24, 1|1<<2|5<<16|6<<24,
			1|g.bit(50)<<1|g.bit(80)<<2|uint32(r.IntN(8))<<12|g.blendCode(false)<<16|g.blendCode(true)<<24),
			uint32(r.IntN(8))<<12|g.blendCode(false)<<16|g.blendCode(true)<<24)
		s.Reg(r3.SC_CLIP_RULE, 0xFFFF)
		s.Reg(r3.ZB_CNTL, g.pick(0, 2, 6))
	}
}

// program writes a random fragment program: ALU instructions 0-7, TEX
// instructions 0-7, constants 0-3 and one or two levels over them.
func (g *sceneGen) program() {
	r, s := g.r, &g.s
	var ra, aa, ri, ai []uint32
	// Sometimes every instruction only moves a value, and no TEX
	// instruction samples: a Gouraud or flat program (gouraudPlan).
	mov := g.bit(25) == 1
	g.mov = mov
	g.tex = !mov && g.bit(40) == 1
	if g.tex {
		g.texProgram()
		return
	}
	for i := 0; i < 8; i++ {
		var a r3.ALUInst
		if mov {
			a = g.movALU()
		} else if g.bit(40) == 1 {
			// A modulate of two temps into output 0: the common shape.
			a = r3.ALUInst{
				RGB:   r3.Half{Src: [3]uint8{uint8(r.IntN(6)), uint8(r.IntN(6)), 0}, OMask: 7, Args: [3]r3.Arg{{Sel: 0}, {Sel: 4}, {Sel: r3.SelRGBZero}}},
				Alpha: r3.Half{Src: [3]uint8{uint8(r.IntN(6)), uint8(r.IntN(6)), 0}, OMask: 1, Args: [3]r3.Arg{{Sel: 9}, {Sel: 10}, {Sel: r3.SelAZero}}},
			}
		} else {
			a = randomALU(r)
			for _, h := range []*r3.Half{&a.RGB, &a.Alpha} {
				for k := range h.Src {
					if h.Src[k] >= r3.ConstBase {
						h.Src[k] = r3.ConstBase + uint8(r.IntN(4))
					} else {
						h.Src[k] %= 6
					}
				}
				h.Target %= 2
			}
		}
		w0, w1, w2, w3 := a.Encode()
		ra, aa, ri, ai = append(ra, w0), append(aa, w1), append(ri, w2), append(ai, w3)
	}
	s.Reg(r3.US_ALU_RGB_ADDR_0, ra...)
	s.Reg(r3.US_ALU_ALPHA_ADDR_0, aa...)
	s.Reg(r3.US_ALU_RGB_INST_0, ri...)
	s.Reg(r3.US_ALU_ALPHA_INST_0, ai...)
	var tex []uint32
	for i := 0; i < 8; i++ {
		op := r3.TexOp(g.pick(1, 1, 1, 0, 2, 3, 4))
		if mov {
			op = r3.TexNOP
		}
		tex = append(tex, r3.TexInst{Op: op, Src: uint8(r.IntN(6)), Dst: uint8(r.IntN(6)), Unit: uint8(r.IntN(2))}.Encode())
	}
	s.Reg(r3.US_TEX_INST_0, tex...)
	var k []uint32
	for i := 0; i < 16; i++ {
		k = append(k, r3.EncodeFP24(randomValue(r)))
	}
	s.Reg(r3.US_ALU_CONST_R_0, k...)
	nlevel := g.pick(0, 0, 1)
	s.Reg(r3.US_CONFIG, nlevel|g.bit(60)<<3, 0, 0)
	code := func() uint32 {
		return uint32(r.IntN(5)) | uint32(r.IntN(4))<<6 | uint32(r.IntN(6))<<12 | uint32(r.IntN(3))<<17 | 1<<22
	}
	s.Reg(r3.US_CODE_ADDR_0, 0, 0, code(), code())
}

// texProgram writes fill-tex-blend's program shape (fusedPlanOf): one
// level of a TEX instruction, then an ALU instruction multiplying the
// texel by a loaded value (sometimes a constant, swizzled or modified
// channels, or not a multiply, which the plan refuses) into output 0.
func (g *sceneGen) texProgram() {
	r, s := g.r, &g.s
	g.tunit = uint32(r.IntN(2))
	dst, src, other := uint8(r.IntN(6)), uint8(r.IntN(6)), uint8(r.IntN(6))
	if g.bit(50) == 1 {
		src = dst
	}
	if other == dst && g.bit(90) == 1 {
		other = (dst + 1) % 6
	}
	if g.bit(10) == 1 {
		other = r3.ConstBase + uint8(r.IntN(4))
	}
	srcs := [3]uint8{dst, other, 0}
	if g.bit(50) == 1 {
		srcs = [3]uint8{other, dst, 0}
	}
	a := r3.ALUInst{
		RGB: r3.Half{Src: srcs, Dst: uint8(r.IntN(6)), WMask: uint8(r.IntN(8)), OMask: 7, Clamp: g.bit(50) == 1,
			Args: [3]r3.Arg{{Sel: 0}, {Sel: 4}, {Sel: r3.SelRGBZero}}},
		Alpha: r3.Half{Src: srcs, Dst: uint8(r.IntN(6)), WMask: uint8(r.IntN(2)), OMask: 1, Clamp: g.bit(50) == 1,
			Args: [3]r3.Arg{{Sel: 9}, {Sel: 10}, {Sel: r3.SelAZero}}},
	}
	if g.bit(10) == 1 {
		a.RGB.Args[0].Sel = uint8(r.IntN(12))
	}
	if g.bit(5) == 1 {
		a.RGB.Args[1].Mod = 1
	}
	if g.bit(5) == 1 {
		a.Alpha.Args[2].Sel = uint8(r.IntN(16))
	}
	w0, w1, w2, w3 := a.Encode()
	s.Reg(r3.US_ALU_RGB_ADDR_0, w0)
	s.Reg(r3.US_ALU_ALPHA_ADDR_0, w1)
	s.Reg(r3.US_ALU_RGB_INST_0, w2)
	s.Reg(r3.US_ALU_ALPHA_INST_0, w3)
	s.Reg(r3.US_TEX_INST_0, r3.TexInst{Op: r3.TexLD, Src: src, Dst: dst, Unit: uint8(g.tunit)}.Encode())
	var k []uint32
	for i := 0; i < 16; i++ {
		k = append(k, r3.EncodeFP24(randomValue(r)))
	}
	s.Reg(r3.US_ALU_CONST_R_0, k...)
	s.Reg(r3.US_CONFIG, 1<<3, 0, 0)
	s.Reg(r3.US_CODE_ADDR_0, 0, 0, 0, 1<<22)
}

// movALU returns an instruction whose halves move one source (a temp,
// sometimes a constant) to a temp or the outputs: a MAD by the inline 1
// plus the inline 0.
func (g *sceneGen) movALU() r3.ALUInst {
	r := g.r
	src := func() uint8 {
		if g.bit(15) == 1 {
			return r3.ConstBase + uint8(r.IntN(4))
		}
		return uint8(r.IntN(6))
	}
	a := r3.ALUInst{
		RGB: r3.Half{Src: [3]uint8{src(), 0, 0}, Dst: uint8(r.IntN(6)), WMask: uint8(r.IntN(8)), OMask: uint8(g.pick(7, 7, 7, 0, uint32(r.IntN(8)))),
			Args: [3]r3.Arg{{Sel: uint8(g.pick(0, 0, 0, 1, 2, 3, 12, 23))}, {Sel: r3.SelRGBOne}, {Sel: r3.SelRGBZero}}},
		Alpha: r3.Half{Src: [3]uint8{src(), 0, 0}, Dst: uint8(r.IntN(6)), WMask: uint8(r.IntN(2)), OMask: uint8(g.pick(1, 1, 1, 0)),
			Args: [3]r3.Arg{{Sel: uint8(g.pick(9, 9, 9, 0, 1, 2))}, {Sel: r3.SelAOne}, {Sel: r3.SelAZero}}},
	}
	if g.bit(10) == 1 {
		a.RGB.Target, a.Alpha.Target = 1, 1
	}
	if g.bit(5) == 1 {
		// Not a move: the plan must refuse the program.
		a.RGB.Args[1].Sel = 0
	}
	return a
}

// texUnit writes random state for texture unit u.
func (g *sceneGen) texUnit(u uint32) {
	r, s := g.r, &g.s
	o := 4 * u
	var fmts []uint32
	for i := range r3.TexFormats {
		if r3.TexFormats[i].Simulated {
			fmts = append(fmts, uint32(i))
		}
	}
	format := fmts[r.IntN(len(fmts))]
	if g.bit(50) == 1 {
		format = r3.TxFmt8_8_8_8
	}
	mag, mn := g.pick(1, 2), g.pick(1, 2)
	if g.bit(50) == 1 {
		mn = mag
	}
	fused := g.tex && u == g.tunit && g.bit(80) == 1
	if fused {
		// fill-tex-blend's unit: 8_8_8_8, bilinear, REPEAT.
		format, mag, mn = r3.TxFmt8_8_8_8, 2, 2
	}
	wrap := func() uint32 {
		if g.bit(60) == 1 {
			return g.pick(0, 2)
		}
		return uint32(r.IntN(8))
	}
	filter := wrap() | wrap()<<3 | mag<<9 | mn<<11 | g.pick(0, 0, 1, 2)<<13 | uint32(r.IntN(3))<<17
	if fused {
		filter = mag<<9 | mn<<11 | uint32(r.IntN(3))<<17
	}
	s.Reg(r3.TX_FILTER0_0+o, filter)
	bias := uint32(0)
	if g.bit(30) == 1 {
		bias = uint32(r.IntN(512)) << 3
	}
	chroma := uint32(0)
	if g.bit(10) == 1 && !fused {
		chroma = uint32(r.IntN(3))
	}
	s.Reg(r3.TX_FILTER1_0+o, chroma|bias)
	lw, lh := 1<<r.IntN(6), 1<<r.IntN(6)
	if g.bit(20) == 1 && !fused {
		lw, lh = 1+r.IntN(40), 1+r.IntN(40)
	}
	levels := uint32(r.IntN(4))
	proj := g.bit(15)
	if fused {
		proj = 0
	}
	s.Reg(r3.TX_FORMAT0_0+o, uint32(lw-1)|uint32(lh-1)<<11|levels<<26|proj<<30)
	sel := g.pick(0x0008860C, 0x0008860C, r.Uint32()&(7<<9|7<<12|7<<15|7<<18))
	if fused {
		sel = 0x0008860C
	}
	for c := 9; c <= 18; c += 3 {
		if sel>>c&7 > 5 {
			sel &^= 7 << c
		}
	}
	sel = sel&^31 | format
	if g.bit(15) == 1 && !fused {
		sel |= uint32(r.IntN(16)) << 5
	}
	if !fused {
		sel |= g.bit(10) << 21
	}
	s.Reg(r3.TX_FORMAT1_0+o, sel)
	s.Reg(r3.TX_FORMAT2_0+o, 0)
	s.Reg(r3.TX_OFFSET_0+o, rsTex0+u*rsSpan)
	s.Reg(r3.TX_CHROMA_KEY_0+o, r.Uint32())
	s.Reg(r3.TX_BORDER_COLOR_0+o, r.Uint32())
}

// vertexValue is a random attribute value, sometimes outside [0, 1].
func (g *sceneGen) vertexValue() float32 {
	if g.near {
		return 0.05 + 0.9*g.r.Float32()
	}
	if g.bit(20) == 1 {
		return float32(g.pick(0, 1))
	}
	return g.r.Float32()*1.6 - 0.3
}

// draw writes one draw packet of random primitives. large makes every
// triangle cover most of the target.
func (g *sceneGen) draw(large bool) {
	r := g.r
	prim := r3.PrimType(g.pick(uint32(r3.PrimTriangles), uint32(r3.PrimTriangles), uint32(r3.PrimTriangleStrip),
		uint32(r3.PrimTriangleFan), uint32(r3.PrimLines), uint32(r3.PrimPoints), uint32(r3.PrimQuads)))
	n := 3 + r.IntN(10)
	if large {
		prim, n = r3.PrimTriangles, 3*(1+r.IntN(4))
	}
	g.near = g.mov && g.bit(40) == 1
	defer func() { g.near = false }()
	qUniform := g.bit(50) == 1 || (g.mov && g.bit(50) == 1) || g.near || (g.tex && g.bit(80) == 1)
	// Sometimes every vertex has the same Z: a constant depth, as the
	// Gouraud row path and the fused textured path test it.
	zConst := g.bit(30) == 1 || (g.mov && g.bit(50) == 1) || g.near || (g.tex && g.bit(60) == 1)
	zc := float32(0.25)
	if g.near {
		zc = 0
		// No depth buffer, or Z16 under LEQUAL with writes.
		g.s.Reg(r3.ZB_CNTL, g.pick(0, 6), 2) // LEQUAL
		g.s.Reg(r3.ZB_FORMAT, 0)
	}
	// Sometimes the vertices lie on a grid of 8 pixels with small
	// dyadic values, so that many pixels' loads lie on FP24's rounding
	// edges (as fill-tex-blend's do).
	grid := g.tex && g.bit(40) == 1
	var rowAttr uint32
	if grid {
		rowAttr = r.Uint32() & r.Uint32()
	}
	q := float32(1)
	if g.bit(30) == 1 {
		q = float32(g.pick(1, 2, 4)) / 2
	}
	p := []uint32{r3.VFCntl(prim, r3.WalkData, n, false)}
	// Sometimes every vertex carries the same attributes: a program that
	// runs once per primitive.
	var same []float32
	if g.bit(20) == 1 {
		for k := 0; k < 16; k++ {
			same = append(same, g.vertexValue())
		}
	}
	for i := 0; i < n; i++ {
		x := r.Float32()*float32(g.w+20) - 10
		y := r.Float32()*float32(g.h+20) - 10
		if large {
			x = []float32{-5, float32(g.w) + 5, r.Float32() * float32(g.w)}[i%3] + r.Float32()*4
			y = []float32{-3, r.Float32() * float32(g.h), float32(g.h) + 3}[i%3] + r.Float32()*4
		}
		if g.bit(15) == 1 { // on the sample grid: edge rules decide
			x, y = float32(math.Floor(float64(x)))+0.5, float32(math.Floor(float64(y)))
		}
		if grid {
			x, y = float32(8*r.IntN(g.w/8+1)), float32(8*r.IntN(g.h/8+1))
		}
		z := r.Float32()
		if g.bit(10) == 1 {
			z = r.Float32()*1.4 - 0.2
		}
		if zConst {
			z = zc
		}
		if !qUniform {
			q = 0.25 + r.Float32()*3
		}
		p = append(p, f(x), f(y), f(z), f(q))
		for k := 0; k < 16; k++ {
			v := g.vertexValue()
			if k >= 8 && g.bit(50) == 1 {
				v = r.Float32()*4 - 1 // texture coordinates
			}
			if grid {
				v = float32(r.IntN(9)) / 4
				if rowAttr>>k&1 != 0 {
					// An attribute affine in y alone: constant along
					// rows, its slope exactly zero.
					v = y/64 + 0x1p-20
				}
			}
			if same != nil {
				v = same[k]
			}
			p = append(p, f(v))
		}
	}
	g.s.Packet3(r3.OpDrawImmd2, p...)
}

// scene returns a stream of random states and draws.
func (g *sceneGen) scene(draws int, large bool) []byte {
	g.s.Reset()
	g.fixed()
	for d := 0; d < draws; d++ {
		if d == 0 || g.bit(50) == 1 {
			g.state()
		}
		g.draw(large)
	}
	return g.s.Bytes()
}

// rsMemory returns random initial contents of the colour, depth and
// texture memory.
func rsMemory(r *rand.Rand) map[uint32][]byte {
	m := map[uint32][]byte{}
	for _, a := range []uint32{rsFB0, rsFB1, rsZB, rsTex0, rsTex0 + rsSpan} {
		b := make([]byte, rsSpan)
		for i := 0; i < len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], r.Uint64())
		}
		m[a] = b
	}
	return m
}

// renderScene runs a stream on a fresh device with the given memory and
// returns the colour and depth memory, the counters and the error.
func renderScene(t *testing.T, cmd []byte, mem map[uint32][]byte, configure func(*Device)) (out []byte, stats Stats, zpass uint32, err error) {
	t.Helper()
	d := NewWith(Config{VRAMSize: 4 << 20, GARTSize: 1 << 20})
	defer d.Close()
	configure(d)
	for a, b := range mem {
		require.NoError(t, d.Write(a, b))
	}
	require.NoError(t, d.Write(rsCmd, cmd))
	fence, serr := d.Submit(hal.Buffer{Addr: rsCmd, Size: uint32(len(cmd))})
	require.NoError(t, serr)
	err = d.Wait(fence)
	for _, a := range []uint32{rsFB0, rsFB1, rsZB} {
		b := make([]byte, rsSpan)
		require.NoError(t, d.Read(a, b))
		out = append(out, b...)
	}
	return out, d.Engine.Stats, d.Engine.Reg(r3.ZB_ZPASS_DATA), err
}

// firstDiff describes the first differing byte of two renders.
func firstDiff(a, b []byte, w int) string {
	for i := range a {
		if a[i] != b[i] {
			buf := i / rsSpan
			o := i % rsSpan
			return fmt.Sprintf("buffer %d byte %#x (row %d for 4 bytes a pixel): %#02x, reference %#02x", buf, o, o/(4*w), a[i], b[i])
		}
	}
	return "none"
}

// TestSpanPathMatchesReference renders random scenes (random pixel
// states, fragment programs, textures, primitives and memory) through the
// span pipeline and through the per-quad reference path: every byte of
// the colour and depth buffers, the counters and the errors must agree.
func TestSpanPathMatchesReference(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	spanPathMatchesReference(t, n)
}

// TestSpanPathGoMatchesReference is TestSpanPathMatchesReference with the
// margin loop's Go bytes passes where TestSpanPathMatchesReference takes
// its AVX2 kernel.
func TestSpanPathGoMatchesReference(t *testing.T) {
	if !haveVec {
		t.Skip("no AVX2: TestSpanPathMatchesReference runs the Go passes")
	}
	defer func(old bool) { fusedVec = old }(fusedVec)
	fusedVec = false
	n := 200
	if testing.Short() {
		n = 60
	}
	spanPathMatchesReference(t, n)
}

// spanPathMatchesReference is TestSpanPathMatchesReference over n seeds.
func spanPathMatchesReference(t *testing.T, n int) {
	drawn, faulted := 0, 0
	gour, direct, out, fused, near, margin, alpha, exact := 0, 0, 0, 0, 0, 0, 0, 0
	gourHook = func() { gour++ }
	gourDirectHook = func() { direct++ }
	gourOutHook = func() { out++ }
	fusedHook = func() { fused++ }
	fusedNearHook = func() { near++ }
	fusedMarginHook = func() { margin++ }
	fusedAlphaHook = func() { alpha++ }
	fusedExactHook = func() { exact++ }
	defer func() {
		gourHook, gourDirectHook, gourOutHook, fusedHook, fusedNearHook = nil, nil, nil, nil, nil
		fusedMarginHook, fusedAlphaHook, fusedExactHook = nil, nil, nil
	}()
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 17))
		g := &sceneGen{r: r, w: 40, h: 32}
		cmd := g.scene(1+r.IntN(4), false)
		mem := rsMemory(r)
		if seed%3 == 0 {
			// An opaque texture: every fourth byte 255, the alpha of
			// 8_8_8_8 texels.
			for _, a := range []uint32{rsTex0, rsTex0 + rsSpan} {
				for i := 3; i < len(mem[a]); i += 4 {
					mem[a][i] = 255
				}
			}
		}
		want, wStats, wZ, wErr := renderScene(t, cmd, mem, func(d *Device) { d.Engine.reference = true; d.SetWorkers(1) })
		got, gStats, gZ, gErr := renderScene(t, cmd, mem, func(d *Device) { d.SetWorkers(1) })
		require.Equal(t, fmt.Sprint(wErr), fmt.Sprint(gErr), "seed %d: errors", seed)
		if !bytes.Equal(want, got) {
			t.Fatalf("seed %d: span path differs from the reference at %s", seed, firstDiff(got, want, g.w))
		}
		require.Equal(t, wStats, gStats, "seed %d: counters", seed)
		require.Equal(t, wZ, gZ, "seed %d: ZB_ZPASS_DATA", seed)
		if wErr == nil && wStats.Pixels > 0 {
			drawn++
		}
		if wErr != nil {
			faulted++
		}
	}
	require.Greater(t, drawn, n/3, "most random scenes must draw pixels")
	require.Greater(t, gour, n/20, "the Gouraud row path must shade some primitives")
	require.Positive(t, direct, "the row path's direct byte stepping must shade some runs")
	require.Positive(t, out, "the row path must write some runs straight into the colour buffer")
	require.Greater(t, fused, n/20, "the fused textured path must shade some primitives")
	require.Positive(t, margin, "the fused path's margin loop must shade some runs")
	require.Positive(t, alpha, "the margin loop must shade some runs of a constant alpha")
	if !testing.Short() {
		require.Positive(t, near, "some of the fused path's loads must take the reference's formula")
		require.Positive(t, exact, "some of the margin loop's pixels must take the reference's arithmetic")
	}
	t.Logf("%d of %d scenes drew pixels, %d faulted; %d primitives on the Gouraud row path, %d runs stepped directly, %d into the colour buffer; %d on the fused textured path, %d loads near an FP24 edge, %d runs on the margin loop (%d of a constant alpha), %d of their pixels exact",
		drawn, n, faulted, gour, direct, out, fused, near, margin, alpha, exact)
}

// TestWorkersByteForByte renders random scenes of large primitives (so
// that the scheduler shares bands among workers) with 1, 2, 3 and 8
// workers, on the span pipeline and on the reference path: the bytes, the
// counters and the errors must not depend on the number of workers.
func TestWorkersByteForByte(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 6
	}
	for seed := 0; seed < n; seed++ {
		for _, ref := range []bool{false, true} {
			r := rand.New(rand.NewPCG(uint64(seed), 23))
			g := &sceneGen{r: r, w: 160, h: 120}
			cmd := g.scene(2+r.IntN(3), true)
			mem := rsMemory(r)
			var want []byte
			var wStats Stats
			var wZ uint32
			var wErr error
			for _, workers := range []int{1, 2, 3, 8} {
				got, stats, z, err := renderScene(t, cmd, mem, func(d *Device) { d.Engine.reference = ref; d.SetWorkers(workers) })
				if workers == 1 {
					want, wStats, wZ, wErr = got, stats, z, err
					continue
				}
				require.Equal(t, fmt.Sprint(wErr), fmt.Sprint(err), "seed %d, %d workers: errors", seed, workers)
				if !bytes.Equal(want, got) {
					t.Fatalf("seed %d (reference %v): %d workers differ from one at %s", seed, ref, workers, firstDiff(got, want, g.w))
				}
				require.Equal(t, wStats, stats, "seed %d, %d workers: counters", seed, workers)
				require.Equal(t, wZ, z, "seed %d, %d workers: ZB_ZPASS_DATA", seed, workers)
			}
		}
	}
}
