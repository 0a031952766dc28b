package r300

import (
	"fmt"
	"strings"
)

// US limits (seed L1467, L1661-1667, L1717, L1736; guide §3.5).
const (
	MaxALU    = 64
	MaxTEX    = 32
	MaxLevels = 4
	MaxTemps  = 32
	MaxConsts = 32
	// ConstBase is the ALU source address of constant 0 (L1467: 32-63
	// are constants).
	ConstBase = 32
)

// TexOp is US_TEX_INST.INST (L1727).
type TexOp uint8

// The texture instructions.
const (
	TexNOP TexOp = iota
	TexLD
	TexKill
	TexProj
	TexLODBias
)

// TexInst is one texture instruction: `src | dst<<6 | unit<<11 | op<<15`
// (L1717-1728). The source is a plain temp (rgb = STR, a = Q or bias); the
// destination receives all four components; TEXKILL ignores Dst and Unit.
type TexInst struct {
	Op       TexOp
	Src, Dst uint8 // temps 0-31
	Unit     uint8 // 0-15
}

// Encode returns the US_TEX_INST word.
func (t TexInst) Encode() uint32 {
	return uint32(t.Src)&31 | uint32(t.Dst)&31<<6 | uint32(t.Unit)&15<<11 | uint32(t.Op)&7<<15
}

// DecodeTex splits a US_TEX_INST word.
func DecodeTex(w uint32) TexInst {
	return TexInst{Op: TexOp(w >> 15 & 7), Src: uint8(w & 31), Dst: uint8(w >> 6 & 31), Unit: uint8(w >> 11 & 15)}
}

// String returns the instruction in assembly form.
func (t TexInst) String() string {
	switch t.Op {
	case TexNOP:
		return "TEXNOP"
	case TexKill:
		return fmt.Sprintf("KIL r%d", t.Src)
	}
	name := [...]string{TexLD: "TEX", TexProj: "TXP", TexLODBias: "TXB"}
	if int(t.Op) >= len(name) {
		return fmt.Sprintf("TEXOP%d r%d, r%d, tex%d", t.Op, t.Dst, t.Src, t.Unit)
	}
	return fmt.Sprintf("%s r%d, r%d, tex%d", name[t.Op], t.Dst, t.Src, t.Unit)
}

// RGB ALU opcodes (L1650).
const (
	RGBMAD uint8 = 0
	RGBDP3 uint8 = 1
	RGBDP4 uint8 = 2
	RGBD2A uint8 = 3
	RGBMIN uint8 = 4
	RGBMAX uint8 = 5
	RGBCND uint8 = 7
	RGBCMP uint8 = 8
	RGBFRC uint8 = 9
	RGBSOP uint8 = 10
)

// Alpha ALU opcodes (L1552).
const (
	AlphaMAD uint8 = 0
	AlphaDP  uint8 = 1
	AlphaMIN uint8 = 2
	AlphaMAX uint8 = 3
	AlphaCND uint8 = 5
	AlphaCMP uint8 = 6
	AlphaFRC uint8 = 7
	AlphaEX2 uint8 = 8
	AlphaLN2 uint8 = 9
	AlphaRCP uint8 = 10
	AlphaRSQ uint8 = 11
)

// RGB operand selects (L1571-1646).
const (
	SelRGBSrc0    uint8 = 0 // src0.rgb; +4 per source; +1..3 = rrr, ggg, bbb
	SelRGBSrc0AAA uint8 = 12
	SelRGBSrcP    uint8 = 15 // srcp.rgb; 16-19 srcp.rrr, ggg, bbb, aaa
	SelRGBZero    uint8 = 20
	SelRGBOne     uint8 = 21
	SelRGBHalf    uint8 = 22
	SelRGBSrc0GBR uint8 = 23
	SelRGBSrc0BRG uint8 = 26
	SelRGBSrc0ABG uint8 = 29
)

// Alpha operand selects (L1481-1536; 18 is [RECON]).
const (
	SelASrc0R uint8 = 0 // src n component c = 3n+c for c in r, g, b
	SelASrc0A uint8 = 9 // src n .a = 9+n
	SelASrcPR uint8 = 12
	SelASrcPA uint8 = 15
	SelAZero  uint8 = 16
	SelAOne   uint8 = 17
	SelAHalf  uint8 = 18
)

// Arg is one ALU operand: select and modifier (0 none, 1 NEG, 2 ABS, 3 NAB).
type Arg struct {
	Sel, Mod uint8
}

// Half is one half (RGB or alpha) of an ALU instruction. Alpha halves use
// one-bit masks, DepthOut and StatWE; RGB halves use Nop.
type Half struct {
	Src          [3]uint8 // ADDR0-2: 0-31 temps, 32-63 constants
	Dst          uint8    // ADDRD
	WMask, OMask uint8
	Target       uint8
	DepthOut     bool  // alpha OMASK_W
	StatWE       uint8 // alpha STAT_WE
	Args         [3]Arg
	Srcp         uint8
	Op           uint8
	Omod         uint8
	Clamp        bool
	Nop          bool // RGB only: insert a NOP after this instruction
}

// ALUInst is one ALU instruction: four register words at index i.
type ALUInst struct {
	RGB, Alpha Half
}

func packInst(h *Half) uint32 {
	w := uint32(h.Args[0].Sel)&31 | uint32(h.Args[0].Mod)&3<<5 |
		uint32(h.Args[1].Sel)&31<<7 | uint32(h.Args[1].Mod)&3<<12 |
		uint32(h.Args[2].Sel)&31<<14 | uint32(h.Args[2].Mod)&3<<19 |
		uint32(h.Srcp)&3<<21 | uint32(h.Op)&15<<23 | uint32(h.Omod)&7<<27
	if h.Clamp {
		w |= 1 << 30
	}
	return w
}

func unpackInst(w uint32, h *Half) {
	h.Args[0] = Arg{uint8(w & 31), uint8(w >> 5 & 3)}
	h.Args[1] = Arg{uint8(w >> 7 & 31), uint8(w >> 12 & 3)}
	h.Args[2] = Arg{uint8(w >> 14 & 31), uint8(w >> 19 & 3)}
	h.Srcp = uint8(w >> 21 & 3)
	h.Op = uint8(w >> 23 & 15)
	h.Omod = uint8(w >> 27 & 7)
	h.Clamp = w>>30&1 != 0
}

func packAddr(h *Half) uint32 {
	return uint32(h.Src[0])&63 | uint32(h.Src[1])&63<<6 | uint32(h.Src[2])&63<<12 | uint32(h.Dst)&31<<18
}

// Encode returns the four register words: RGB_ADDR, ALPHA_ADDR, RGB_INST
// and ALPHA_INST (L1464-1659).
func (a *ALUInst) Encode() (rgbAddr, alphaAddr, rgbInst, alphaInst uint32) {
	rgbAddr = packAddr(&a.RGB) | uint32(a.RGB.WMask)&7<<23 | uint32(a.RGB.OMask)&7<<26 | uint32(a.RGB.Target)&3<<29
	alphaAddr = packAddr(&a.Alpha) | uint32(a.Alpha.WMask)&1<<23 | uint32(a.Alpha.OMask)&1<<24 |
		uint32(a.Alpha.Target)&3<<25 | uint32(a.Alpha.StatWE)&15<<28
	if a.Alpha.DepthOut {
		alphaAddr |= 1 << 27
	}
	rgbInst = packInst(&a.RGB)
	if a.RGB.Nop {
		rgbInst |= 1 << 31
	}
	alphaInst = packInst(&a.Alpha)
	return
}

// DecodeALU splits the four words of an ALU instruction.
func DecodeALU(rgbAddr, alphaAddr, rgbInst, alphaInst uint32) ALUInst {
	var a ALUInst
	for _, p := range []struct {
		h    *Half
		addr uint32
	}{{&a.RGB, rgbAddr}, {&a.Alpha, alphaAddr}} {
		p.h.Src = [3]uint8{uint8(p.addr & 63), uint8(p.addr >> 6 & 63), uint8(p.addr >> 12 & 63)}
		p.h.Dst = uint8(p.addr >> 18 & 31)
	}
	a.RGB.WMask = uint8(rgbAddr >> 23 & 7)
	a.RGB.OMask = uint8(rgbAddr >> 26 & 7)
	a.RGB.Target = uint8(rgbAddr >> 29 & 3)
	a.Alpha.WMask = uint8(alphaAddr >> 23 & 1)
	a.Alpha.OMask = uint8(alphaAddr >> 24 & 1)
	a.Alpha.Target = uint8(alphaAddr >> 25 & 3)
	a.Alpha.DepthOut = alphaAddr>>27&1 != 0
	a.Alpha.StatWE = uint8(alphaAddr >> 28 & 15)
	unpackInst(rgbInst, &a.RGB)
	a.RGB.Nop = rgbInst>>31 != 0
	unpackInst(alphaInst, &a.Alpha)
	return a
}

// RGBArgs and AlphaArgs are the number of operands (A, B, C) each opcode
// reads; -1 marks reserved opcodes.
var (
	RGBArgs   = [16]int{3, 2, 2, 3, 2, 2, -1, 3, 3, 1, 0, -1, -1, -1, -1, -1}
	AlphaArgs = [16]int{3, 0, 2, 2, -1, 3, 3, 1, 1, 1, 1, 1, -1, -1, -1, -1}
)

func srcName(a uint8) string {
	if a >= ConstBase {
		return fmt.Sprintf("c%d", a-ConstBase)
	}
	return fmt.Sprintf("r%d", a)
}

// RGBSelString names an RGB operand select given the instruction's
// sources (srcN.rgb from RGB ADDRn, srcN.a from ALPHA ADDRn, L1557).
func (a *ALUInst) RGBSelString(sel uint8) string {
	rgb, al := a.RGB.Src, a.Alpha.Src
	switch {
	case sel < 12:
		return srcName(rgb[sel/4]) + [4]string{".rgb", ".rrr", ".ggg", ".bbb"}[sel%4]
	case sel < 15:
		return srcName(al[sel-12]) + ".aaa"
	case sel < 20:
		return "srcp" + [5]string{".rgb", ".rrr", ".ggg", ".bbb", ".aaa"}[sel-15]
	case sel == 20:
		return "0.0"
	case sel == 21:
		return "1.0"
	case sel == 22:
		return "0.5"
	case sel < 26:
		return srcName(rgb[sel-23]) + ".gbr"
	case sel < 29:
		return srcName(rgb[sel-26]) + ".brg"
	}
	n := sel - 29
	if rgb[n] == al[n] {
		return srcName(rgb[n]) + ".abg"
	}
	return fmt.Sprintf("(%s.a,%s.bg)", srcName(al[n]), srcName(rgb[n]))
}

// AlphaSelString names an alpha operand select.
func (a *ALUInst) AlphaSelString(sel uint8) string {
	switch {
	case sel < 9:
		return srcName(a.RGB.Src[sel/3]) + [3]string{".r", ".g", ".b"}[sel%3]
	case sel < 12:
		return srcName(a.Alpha.Src[sel-9]) + ".a"
	case sel < 16:
		return "srcp" + [4]string{".r", ".g", ".b", ".a"}[sel-12]
	case sel == 16:
		return "0.0"
	case sel == 17:
		return "1.0"
	case sel == 18:
		return "0.5"
	}
	return fmt.Sprintf("sel%d?", sel)
}

func modString(s string, mod uint8) string {
	switch mod {
	case 1:
		return "-" + s
	case 2:
		return "|" + s + "|"
	case 3:
		return "-|" + s + "|"
	}
	return s
}

var maskNames = [8]string{"", "r", "g", "rg", "b", "rb", "gb", "rgb"}

func (a *ALUInst) half(rgb bool) string {
	h := &a.Alpha
	ops, nargs := EnumAlphaOp, AlphaArgs
	if rgb {
		h, ops, nargs = &a.RGB, EnumRGBOp, RGBArgs
	}
	var b strings.Builder
	op := fmt.Sprintf("OP%d", h.Op)
	if int(h.Op) < len(ops) && ops[h.Op] != "" {
		op = ops[h.Op]
	}
	b.WriteString(op)
	if h.Omod != 0 {
		if int(h.Omod) < len(EnumOmod) {
			b.WriteString(EnumOmod[h.Omod])
		} else {
			b.WriteString("*?")
		}
	}
	if h.Clamp {
		b.WriteString(".sat")
	}
	var dst []string
	if rgb {
		if h.WMask != 0 {
			dst = append(dst, fmt.Sprintf("r%d.%s", h.Dst, maskNames[h.WMask]))
		}
		if h.OMask != 0 {
			dst = append(dst, fmt.Sprintf("out%s.%s", EnumTarget[h.Target], maskNames[h.OMask]))
		}
	} else {
		if h.WMask != 0 {
			dst = append(dst, fmt.Sprintf("r%d.a", h.Dst))
		}
		if h.OMask != 0 {
			dst = append(dst, fmt.Sprintf("out%s.a", EnumTarget[h.Target]))
		}
		if h.DepthOut {
			dst = append(dst, "depth")
		}
	}
	if len(dst) == 0 {
		dst = []string{"_"}
	}
	b.WriteString(" " + strings.Join(dst, " "))
	n := nargs[h.Op&15]
	if !rgb && h.Op == AlphaDP && a.RGB.Op == RGBDP4 {
		n = 2 // DP4 takes its .a terms from the alpha half's A and B
	}
	usesP := false
	for i := 0; i < n; i++ {
		s := h.Args[i].Sel
		var name string
		if rgb {
			name = a.RGBSelString(s)
			usesP = usesP || (s >= 15 && s <= 19)
		} else {
			name = a.AlphaSelString(s)
			usesP = usesP || (s >= 12 && s <= 15)
		}
		sep := ", "
		if i == 0 {
			sep = " <- "
		}
		b.WriteString(sep + modString(name, h.Args[i].Mod))
	}
	if usesP {
		s0, s1 := srcName(h.Src[0]), srcName(h.Src[1])
		b.WriteString(" srcp=" + [4]string{"1-2*" + s0, s1 + "-" + s0, s1 + "+" + s0, "1-" + s0}[h.Srcp])
	}
	if rgb && h.Nop {
		b.WriteString(" +nop")
	}
	return b.String()
}

// String returns the instruction in assembly form, RGB half first:
// "MAD r1.rgb <- r0.rgb, 1.0, 0.0 ; MAD outA.a <- r0.a, 1.0, 0.0".
func (a *ALUInst) String() string { return a.half(true) + " ; " + a.half(false) }

// Program is the fragment program held in US registers.
type Program struct {
	Config, PixSize, CodeOffset uint32
	CodeAddr                    [4]uint32
	Tex                         [MaxTEX]uint32
	RGBAddr, AlphaAddr          [MaxALU]uint32
	RGBInst, AlphaInst          [MaxALU]uint32
	Const                       [MaxConsts][4]uint32
	OutFmt                      [4]uint32
	WFmt                        uint32
}

// ReadProgram gathers a program from a register file.
func ReadProgram(get func(addr uint32) uint32) Program {
	var p Program
	p.Config = get(US_CONFIG)
	p.PixSize = get(US_PIXSIZE)
	p.CodeOffset = get(US_CODE_OFFSET)
	for i := range p.CodeAddr {
		p.CodeAddr[i] = get(US_CODE_ADDR_0 + 4*uint32(i))
	}
	for i := range p.Tex {
		p.Tex[i] = get(US_TEX_INST_0 + 4*uint32(i))
	}
	for i := 0; i < MaxALU; i++ {
		o := 4 * uint32(i)
		p.RGBAddr[i], p.AlphaAddr[i] = get(US_ALU_RGB_ADDR_0+o), get(US_ALU_ALPHA_ADDR_0+o)
		p.RGBInst[i], p.AlphaInst[i] = get(US_ALU_RGB_INST_0+o), get(US_ALU_ALPHA_INST_0+o)
	}
	for i := range p.Const {
		for c := 0; c < 4; c++ {
			p.Const[i][c] = get(US_ALU_CONST_R_0 + 16*uint32(i) + 4*uint32(c))
		}
	}
	for i := range p.OutFmt {
		p.OutFmt[i] = get(US_OUT_FMT_0 + 4*uint32(i))
	}
	p.WFmt = get(US_W_FMT)
	return p
}

// Level is one indirection level's code ranges, resolved against
// US_CODE_OFFSET: ALU instructions [ALUStart, ALUEnd] and TEX instructions
// [TexStart, TexEnd] (inclusive; HasTex false when the level's TEX segment
// is skipped).
type Level struct {
	Index            int
	ALUStart, ALUEnd int
	TexStart, TexEnd int
	HasTex           bool
	RGBAOut, WOut    bool
}

// Levels returns the active levels in execution order (L1685: NLEVEL=n
// enables levels 3-n..3; FIRST_TEX gates the first level's TEX segment).
// Code addresses wrap modulo the store sizes, as the 6- and 5-bit sums do.
func (p *Program) Levels() []Level {
	n := int(p.Config & 7)
	if n > 3 {
		n = 3
	}
	firstTex := p.Config>>3&1 != 0
	aluOff := int(p.CodeOffset & 63)
	texOff := int(p.CodeOffset >> 13 & 31)
	var out []Level
	for l := 3 - n; l <= 3; l++ {
		w := p.CodeAddr[l]
		lv := Level{Index: l}
		lv.ALUStart = (int(w&63) + aluOff) % MaxALU
		lv.ALUEnd = lv.ALUStart + int(w>>6&63)
		lv.TexStart = (int(w>>12&31) + texOff) % MaxTEX
		lv.TexEnd = lv.TexStart + int(w>>17&31)
		lv.HasTex = l != 3-n || firstTex
		lv.RGBAOut = w>>22&1 != 0
		lv.WOut = w>>23&1 != 0
		out = append(out, lv)
	}
	return out
}

// ALU returns ALU instruction i.
func (p *Program) ALU(i int) ALUInst {
	i %= MaxALU
	return DecodeALU(p.RGBAddr[i], p.AlphaAddr[i], p.RGBInst[i], p.AlphaInst[i])
}

// Disassemble prints the program: a header, then per level its TEX and
// ALU instructions, then the constants the ALU code reads.
func (p *Program) Disassemble() []string {
	lv := p.Levels()
	out := []string{fmt.Sprintf("; fragment program: %d level(s), FIRST_TEX=%d, PIX_SIZE=%d, W_FMT=%s",
		len(lv), p.Config>>3&1, p.PixSize&31, fieldText(US_W_FMT, p.WFmt))}
	usedConst := map[int]bool{}
	for _, l := range lv {
		flags := ""
		if l.RGBAOut {
			flags += " rgba_out"
		}
		if l.WOut {
			flags += " w_out"
		}
		out = append(out, fmt.Sprintf("; level %d:%s", l.Index, flags))
		if l.HasTex {
			for i := l.TexStart; i <= l.TexEnd; i++ {
				out = append(out, fmt.Sprintf(";   tex %2d: %s", i%MaxTEX, DecodeTex(p.Tex[i%MaxTEX])))
			}
		}
		for i := l.ALUStart; i <= l.ALUEnd; i++ {
			a := p.ALU(i)
			for _, h := range []*Half{&a.RGB, &a.Alpha} {
				for _, s := range h.Src {
					if s >= ConstBase {
						usedConst[int(s-ConstBase)] = true
					}
				}
			}
			out = append(out, fmt.Sprintf(";   alu %2d: %s", i%MaxALU, a.String()))
		}
	}
	for k := 0; k < MaxConsts; k++ {
		if usedConst[k] {
			c := p.Const[k]
			out = append(out, fmt.Sprintf(";   c%d = (%g, %g, %g, %g)", k,
				DecodeFP24(c[0]), DecodeFP24(c[1]), DecodeFP24(c[2]), DecodeFP24(c[3])))
		}
	}
	for t, f := range p.OutFmt {
		if f&31 != 15 {
			out = append(out, "; "+FormatReg(US_OUT_FMT_0+4*uint32(t), f))
		}
	}
	return out
}

func fieldText(addr, v uint32) string {
	r, _, _ := Lookup(addr)
	return r.Fields[0].Format(v)
}
