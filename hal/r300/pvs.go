package r300

import (
	"fmt"
	"strings"
)

// The programmable vertex shader (PVS). The seed documents its control
// registers (VAP_PVS_CODE_CNTL_0/1, VAP_PVS_CONST_CNTL, the flow-control
// registers, the vector memory's index and data ports, L1967-2044) but not
// its instruction words; those are outside facts:
//
//   - [OUT] Mesa, src/gallium/drivers/r300/r300_reg.h ("PVS instructions":
//     the R300_PVS_DST_* and R300_PVS_SRC_* fields, the VE_* and ME_*
//     opcode numbers, the vector-memory map R300_PVS_CODE_START,
//     R300_PVS_CONST_START, R300_PVS_UCP_START) and
//     src/gallium/drivers/r300/compiler/r3xx_vertprog.c (how Mesa's encoder
//     fills the words: which operand each opcode reads, the MOV as an ADD
//     with zero, the LIT and POW operand layouts, the source-conflict rules);
//   - [OUT] Mesa radeon_code.h: R300_VS_MAX_FC_OPS 16, R300_VS_MAX_LOOP_DEPTH
//     1, R300_VS_MAX_TEMPS 32, VSF_MAX_INPUTS/OUTPUTS 32, and r300_vs.c's
//     256 instructions and 256 constants of an R300;
//   - [OUT] ATI's R200 PvsMicrocode.h enum PvsAddressMode (ABSOLUTE,
//     RELATIVE_A0, RELATIVE_FLI_0): the two address-mode bits of an operand
//     select absolute, A0-relative or loop-index-relative addressing.
//
// An instruction is four dwords: the opcode and destination word, then
// the three source operands A, B and C. The simulator (sim/r300) and the
// compiler back end (compiler/r300) meet here; tests pin the encodings to
// literal words.

// PVS vector-memory map, in octwords (one instruction or one vec4 each),
// as VAP_PVS_VECTOR_INDX_REG addresses it (L2041-2043, 11 bits) ([OUT]
// Mesa r300_reg.h).
const (
	PVSCodeStart  = 0    // R300_PVS_CODE_START
	PVSConstStart = 512  // R300_PVS_CONST_START
	PVSUCPStart   = 1024 // R300_PVS_UCP_START: user clip planes 0-5
	PVSMemOctets  = 2048 // OCTWORD_OFFSET is 11 bits (L2043)
)

// PVS limits of an R300 ([OUT] Mesa r300_vs.c, radeon_code.h).
const (
	PVSMaxInsts     = 256 // R300_MAX_PVS_CODE_LINES
	PVSMaxConsts    = 256 // R300_MAX_PVS_CONST_VECS
	PVSMaxTemps     = 32  // R300_VS_MAX_TEMPS
	PVSMaxInputs    = 32  // VSF_MAX_INPUTS; DST_VEC_LOC is 5 bits (L1917)
	PVSMaxOutputs   = 32  // VSF_MAX_OUTPUTS
	PVSMaxFlow      = 16  // R300_VS_MAX_FC_OPS; 16 FLOW_CNTL slots (L1988)
	PVSMaxLoopDepth = 1   // R300_VS_MAX_LOOP_DEPTH
	PVSMaxUCP       = 6   // UCP_ENA_0-5 (L1766-1771)
)

// PVSDstType is the destination register type, bits 11:8 of the opcode
// word ([OUT] R300_PVS_DST_REG_*).
type PVSDstType uint8

// The destination types. Only temporaries, A0 and outputs are used by
// Mesa's R300 encoder; the others are listed for the decoder.
const (
	PVSDstTemp     PVSDstType = 0
	PVSDstA0       PVSDstType = 1
	PVSDstOut      PVSDstType = 2
	PVSDstOutReplX PVSDstType = 3 // R500_PVS_DST_REG_OUT_REPL_X
	PVSDstAltTemp  PVSDstType = 4
	PVSDstInput    PVSDstType = 5
)

// PVSSrcType is an operand's register file, bits 1:0 ([OUT]
// R300_PVS_SRC_REG_*).
type PVSSrcType uint8

// The source register files.
const (
	PVSSrcTemp    PVSSrcType = 0
	PVSSrcInput   PVSSrcType = 1
	PVSSrcConst   PVSSrcType = 2
	PVSSrcAltTemp PVSSrcType = 3
)

// Address modes of operands and destinations: the two ADDR_MODE bits as
// mode1<<1 | mode0 ([OUT] R200 PvsAddressMode).
const (
	PVSAddrAbsolute = 0
	PVSAddrA0       = 1 // offset + A0[ADDR_SEL]
	PVSAddrLoop     = 2 // offset + the loop index register aL
)

// Swizzle selects of an operand component (R300_PVS_SRC_SELECT_*).
const (
	PVSSelX    = 0
	PVSSelY    = 1
	PVSSelZ    = 2
	PVSSelW    = 3
	PVSSelZero = 4
	PVSSelOne  = 5
)

// PVSOpInfo is one opcode's fact sheet.
type PVSOpInfo struct {
	// Name is Mesa's name (r300_reg.h), Mnemonic the disassembler's.
	Name, Mnemonic string
	// Srcs is the operands the opcode reads: bit 0 A, bit 1 B, bit 2 C.
	Srcs uint8
	// R500 marks opcodes Mesa lists as R500 additions; an R300 faults on
	// them.
	R500 bool
	// Simulated is false for opcodes whose semantics no public source
	// gives: sim/r300 faults on them, naming the opcode.
	Simulated bool
	// Doc states what the opcode computes and its special cases.
	Doc string
}

// PVSVectorOps are the vector-engine opcodes (MATH=0), indexed by opcode.
// Every result component is rounded once to IEEE float32 from its exact
// value (products of float32 values are exact in float64, sums of them
// are summed in float64 in component order), the rounding of
// compiler/ir's interpreter for float32 programs; NaN and infinities
// follow IEEE 754.
var PVSVectorOps = [...]PVSOpInfo{
	0:  {"VECTOR_NO_OP", "nop", 0, false, true, "writes nothing"},
	1:  {"VE_DOT_PRODUCT", "dp4", 3, false, true, "a.x·b.x + a.y·b.y + a.z·b.z + a.w·b.w, replicated (DP3 is DP4 with a zero w select)"},
	2:  {"VE_MULTIPLY", "mul", 3, false, true, "a·b"},
	3:  {"VE_ADD", "add", 3, false, true, "a + b (Mesa's MOV is ADD with a zero B)"},
	4:  {"VE_MULTIPLY_ADD", "mad", 7, false, true, "a·b + c, rounded once; the non-macro form cannot read three different temporaries"},
	5:  {"VE_DISTANCE_VECTOR", "dst", 3, false, true, "(1, a.y·b.y, a.z, b.w)"},
	6:  {"VE_FRACTION", "frc", 1, false, true, "a - floor(a)"},
	7:  {"VE_MAXIMUM", "max", 3, false, true, "the larger; a NaN operand gives NaN"},
	8:  {"VE_MINIMUM", "min", 3, false, true, "the smaller; a NaN operand gives NaN"},
	9:  {"VE_SET_GREATER_THAN_EQUAL", "sge", 3, false, true, "1 if a >= b else 0 (0 for NaN)"},
	10: {"VE_SET_LESS_THAN", "slt", 3, false, true, "1 if a < b else 0 (0 for NaN)"},
	11: {"VE_MULTIPLYX2_ADD", "m2xad", 7, false, true, "2·a·b + c, rounded once"},
	12: {"VE_MULTIPLY_CLAMP", "mulclamp", 7, false, false, "no public description"},
	13: {"VE_FLT2FIX_DX", "arl", 1, false, true, "A0 = floor(a) per written component (Mesa's ARL); NaN gives 0, values clamp to [-2^15, 2^15-1]"},
	14: {"VE_FLT2FIX_DX_RND", "arr", 1, false, true, "A0 = round(a), halves away from zero (Mesa's ARR); NaN gives 0, values clamp to [-2^15, 2^15-1]"},
	15: {"VE_PRED_SET_EQ_PUSH", "pred_seq_push", 3, true, false, ""},
	16: {"VE_PRED_SET_GT_PUSH", "pred_sgt_push", 3, true, false, ""},
	17: {"VE_PRED_SET_GTE_PUSH", "pred_sge_push", 3, true, false, ""},
	18: {"VE_PRED_SET_NEQ_PUSH", "pred_sne_push", 3, true, false, ""},
	19: {"VE_COND_WRITE_EQ", "cwr_eq", 3, true, false, ""},
	20: {"VE_COND_WRITE_GT", "cwr_gt", 3, true, false, ""},
	21: {"VE_COND_WRITE_GTE", "cwr_ge", 3, true, false, ""},
	22: {"VE_COND_WRITE_NEQ", "cwr_ne", 3, true, false, ""},
	23: {"VE_COND_MUX_EQ", "cmux_eq", 7, true, false, ""},
	24: {"VE_COND_MUX_GT", "cmux_gt", 7, true, false, ""},
	25: {"VE_COND_MUX_GTE", "cmux_ge", 7, true, false, ""},
	26: {"VE_SET_GREATER_THAN", "sgt", 3, true, false, ""},
	27: {"VE_SET_EQUAL", "seq", 3, true, false, ""},
	28: {"VE_SET_NOT_EQUAL", "sne", 3, true, false, ""},
}

// PVSMathOps are the math-engine opcodes (MATH=1), indexed by opcode. The
// math engine reads the w component of its operands ([OUT, derived] Mesa's
// LIT encoding, r3xx_vertprog.c ei_lit, places N·H, N·L and the exponent in
// the w lanes of A, B and C; its scalar operands are replicated, so any
// lane would do) and writes one value to every written component, except
// LIT, EXP and LOG. "DX" and "FF" variants differ only at zero: DX follows
// IEEE (1/0 = +Inf, log 0 = -Inf), FF returns the largest finite float
// instead, so that a later multiply by zero gives zero as fixed-function
// hardware did ([PROP]: Mesa selects FF with its ffmath option).
var PVSMathOps = [...]PVSOpInfo{
	0:  {"MATH_NO_OP", "mnop", 0, false, true, "writes nothing"},
	1:  {"ME_EXP_BASE2_DX", "expp", 1, false, true, "(2^floor(a), a - floor(a), 2^a, 1)"},
	2:  {"ME_LOG_BASE2_DX", "logp", 1, false, true, "(exponent of |a|, mantissa of |a| in [1, 2), log2|a|, 1); a = 0 gives (-Inf, 1, -Inf, 1)"},
	3:  {"ME_EXP_BASEE_FF", "exe", 1, false, true, "e^a"},
	4:  {"ME_LIGHT_COEFF_DX", "lit", 7, false, true, "(1, max(N·L, 0), N·L > 0 ? max(N·H, 0)^clamp(e, -128, 128) : 0, 1) with N·H = a.w, N·L = b.w, e = c.w; 0^0 = 1"},
	5:  {"ME_POWER_FUNC_FF", "pow", 5, false, true, "|a|^c as 2^(c·log2|a|), each step rounded to float32; x^0 = 1, 0^c = 0 for c > 0"},
	6:  {"ME_RECIP_DX", "rcp", 1, false, true, "1/a; 1/±0 = ±Inf"},
	7:  {"ME_RECIP_FF", "rcpff", 1, false, true, "1/a; 1/±0 = ±max float"},
	8:  {"ME_RECIP_SQRT_DX", "rsq", 1, false, true, "1/sqrt(|a|); rsq(0) = +Inf"},
	9:  {"ME_RECIP_SQRT_FF", "rsqff", 1, false, true, "1/sqrt(|a|); rsq(0) = +max float"},
	10: {"ME_MULTIPLY", "mmul", 3, false, true, "a·b"},
	11: {"ME_EXP_BASE2_FULL_DX", "ex2", 1, false, true, "2^a"},
	12: {"ME_LOG_BASE2_FULL_DX", "lg2", 1, false, true, "log2|a|; lg2(0) = -Inf"},
	13: {"ME_POWER_FUNC_FF_CLAMP_B", "powcb", 5, false, false, "no public description"},
	14: {"ME_POWER_FUNC_FF_CLAMP_B1", "powcb1", 5, false, false, "no public description"},
	15: {"ME_POWER_FUNC_FF_CLAMP_01", "powc01", 5, false, false, "no public description"},
	16: {"ME_SIN", "sin", 1, false, true, "sin(a), a in radians, rounded once from the exact value"},
	17: {"ME_COS", "cos", 1, false, true, "cos(a), rounded once from the exact value"},
	18: {"ME_LOG_BASE2_IEEE", "lg2ieee", 1, true, false, ""},
	19: {"ME_RECIP_IEEE", "rcpieee", 1, true, false, ""},
	20: {"ME_RECIP_SQRT_IEEE", "rsqieee", 1, true, false, ""},
	21: {"ME_PRED_SET_EQ", "mpred_seq", 1, true, false, ""},
	22: {"ME_PRED_SET_GT", "mpred_sgt", 1, true, false, ""},
	23: {"ME_PRED_SET_GTE", "mpred_sge", 1, true, false, ""},
	24: {"ME_PRED_SET_NEQ", "mpred_sne", 1, true, false, ""},
	25: {"ME_PRED_SET_CLR", "mpred_clr", 1, true, false, ""},
	26: {"ME_PRED_SET_INV", "mpred_inv", 1, true, false, ""},
	27: {"ME_PRED_SET_POP", "mpred_pop", 1, true, false, ""},
	28: {"ME_PRED_SET_RESTORE", "mpred_restore", 1, true, false, ""},
}

// PVSMacroOps are the macro opcodes (MACRO=1): two-clock forms that may read
// three different temporaries ([OUT] Mesa ei_mad).
var PVSMacroOps = [...]PVSOpInfo{
	0: {"PVS_MACRO_OP_2CLK_MADD", "mad2", 7, false, true, "a·b + c as VE_MULTIPLY_ADD, three temporaries allowed"},
	1: {"PVS_MACRO_OP_2CLK_M2X_ADD", "m2xad2", 7, false, true, "2·a·b + c as VE_MULTIPLYX2_ADD, three temporaries allowed"},
}

// The vector opcodes the compiler and the tests name.
const (
	VEDot4     = 1
	VEMul      = 2
	VEAdd      = 3
	VEMad      = 4
	VEDst      = 5
	VEFrc      = 6
	VEMax      = 7
	VEMin      = 8
	VESge      = 9
	VESlt      = 10
	VEM2xAdd   = 11
	VEFlt2Fix  = 13
	VEFlt2FixR = 14
)

// The math opcodes the compiler and the tests name.
const (
	MEExpDX    = 1
	MELogDX    = 2
	MEExpE     = 3
	MELit      = 4
	MEPow      = 5
	MERcpDX    = 6
	MERcpFF    = 7
	MERsqDX    = 8
	MERsqFF    = 9
	MEMul      = 10
	MEEx2      = 11
	MELg2      = 12
	MESin      = 16
	MECos      = 17
	MacroMad   = 0
	MacroM2Add = 1
)

// PVSDst is the opcode and destination word ([OUT] R300_PVS_DST_*):
// opcode 5:0, MATH 6, MACRO 7, REG_TYPE 11:8, ADDR_MODE_1 12, OFFSET 19:13,
// WE_X..W 23:20, VE_SAT 24, ME_SAT 25, PRED_ENABLE 26, PRED_SENSE 27,
// DUAL_MATH_OP 28, ADDR_SEL 30:29, ADDR_MODE_0 31.
type PVSDst struct {
	Op          uint8
	Math, Macro bool
	Type        PVSDstType
	AddrMode    uint8 // PVSAddr*: mode1<<1 | mode0
	Offset      uint8 // 7 bits
	WE          uint8 // x 1, y 2, z 4, w 8
	VESat       bool
	MESat       bool
	PredEnable  bool
	PredSense   bool
	DualMath    bool
	AddrSel     uint8
}

// PVSSrc is a source operand word ([OUT] R300_PVS_SRC_*): REG_TYPE 1:0,
// bit 2 spare, ABS_XYZW 3, ADDR_MODE_0 4, OFFSET 12:5, SWIZZLE_X..W 15:13,
// 18:16, 21:19, 24:22, NEG_X..W 28:25, ADDR_SEL 30:29, ADDR_MODE_1 31.
// Abs applies before negation: -|x|.
type PVSSrc struct {
	Type     PVSSrcType
	Spare    bool
	Abs      bool
	AddrMode uint8
	Offset   uint8
	Swz      [4]uint8
	Neg      uint8 // x 1, y 2, z 4, w 8
	AddrSel  uint8
}

// PVSInst is one instruction: the destination word and operands A, B, C.
type PVSInst struct {
	Dst PVSDst
	Src [3]PVSSrc
}

// Encode returns the destination word.
func (d PVSDst) Encode() uint32 {
	w := uint32(d.Op)&63 | uint32(d.Type)&15<<8 | uint32(d.AddrMode>>1&1)<<12 |
		uint32(d.Offset)&127<<13 | uint32(d.WE)&15<<20 | uint32(d.AddrSel)&3<<29 | uint32(d.AddrMode&1)<<31
	for _, f := range []struct {
		on  bool
		bit uint
	}{{d.Math, 6}, {d.Macro, 7}, {d.VESat, 24}, {d.MESat, 25}, {d.PredEnable, 26}, {d.PredSense, 27}, {d.DualMath, 28}} {
		if f.on {
			w |= 1 << f.bit
		}
	}
	return w
}

// DecodePVSDst splits a destination word.
func DecodePVSDst(w uint32) PVSDst {
	return PVSDst{
		Op: uint8(w & 63), Math: w>>6&1 != 0, Macro: w>>7&1 != 0, Type: PVSDstType(w >> 8 & 15),
		AddrMode: uint8(w>>12&1)<<1 | uint8(w>>31), Offset: uint8(w >> 13 & 127), WE: uint8(w >> 20 & 15),
		VESat: w>>24&1 != 0, MESat: w>>25&1 != 0, PredEnable: w>>26&1 != 0, PredSense: w>>27&1 != 0,
		DualMath: w>>28&1 != 0, AddrSel: uint8(w >> 29 & 3),
	}
}

// Encode returns the operand word.
func (s PVSSrc) Encode() uint32 {
	w := uint32(s.Type)&3 | uint32(s.AddrMode&1)<<4 | uint32(s.Offset)<<5 |
		uint32(s.Swz[0])&7<<13 | uint32(s.Swz[1])&7<<16 | uint32(s.Swz[2])&7<<19 | uint32(s.Swz[3])&7<<22 |
		uint32(s.Neg)&15<<25 | uint32(s.AddrSel)&3<<29 | uint32(s.AddrMode>>1&1)<<31
	if s.Spare {
		w |= 1 << 2
	}
	if s.Abs {
		w |= 1 << 3
	}
	return w
}

// DecodePVSSrc splits an operand word.
func DecodePVSSrc(w uint32) PVSSrc {
	return PVSSrc{
		Type: PVSSrcType(w & 3), Spare: w>>2&1 != 0, Abs: w>>3&1 != 0,
		AddrMode: uint8(w>>31)<<1 | uint8(w>>4&1), Offset: uint8(w >> 5),
		Swz: [4]uint8{uint8(w >> 13 & 7), uint8(w >> 16 & 7), uint8(w >> 19 & 7), uint8(w >> 22 & 7)},
		Neg: uint8(w >> 25 & 15), AddrSel: uint8(w >> 29 & 3),
	}
}

// Encode returns the instruction's four dwords.
func (in PVSInst) Encode() [4]uint32 {
	return [4]uint32{in.Dst.Encode(), in.Src[0].Encode(), in.Src[1].Encode(), in.Src[2].Encode()}
}

// DecodePVS splits an instruction's four dwords.
func DecodePVS(w [4]uint32) PVSInst {
	return PVSInst{Dst: DecodePVSDst(w[0]), Src: [3]PVSSrc{DecodePVSSrc(w[1]), DecodePVSSrc(w[2]), DecodePVSSrc(w[3])}}
}

// Info returns the instruction's opcode facts (a reserved opcode gets a
// sheet with Simulated false).
func (in *PVSInst) Info() *PVSOpInfo {
	d := in.Dst
	var tab []PVSOpInfo
	switch {
	case d.Macro:
		tab = PVSMacroOps[:]
	case d.Math:
		tab = PVSMathOps[:]
	default:
		tab = PVSVectorOps[:]
	}
	if int(d.Op) < len(tab) {
		return &tab[d.Op]
	}
	kind := "VE"
	if d.Math {
		kind = "ME"
	}
	if d.Macro {
		kind = "MACRO"
	}
	return &PVSOpInfo{Name: fmt.Sprintf("%s_%d", kind, d.Op), Mnemonic: fmt.Sprintf("op%d", d.Op), Srcs: 7}
}

// Swizzle and operand names of the disassembly.
const swzLetters = "xyzw01??"

// relName names an address register for a mode and select.
func relName(mode, sel uint8) string {
	switch mode {
	case PVSAddrA0:
		return "a0." + string("xyzw"[sel&3])
	case PVSAddrLoop:
		return "aL"
	}
	return "?"
}

// String returns the operand in assembly form: "r2", "-v0.xyz1",
// "|c[a0.x+4]|.w", "r1.x-y" (a '-' before each negated component when not
// all are).
func (s PVSSrc) String() string {
	file := [4]string{"r", "v", "c", "t"}[s.Type]
	var reg string
	if s.AddrMode != PVSAddrAbsolute {
		reg = fmt.Sprintf("%s[%s+%d]", file, relName(s.AddrMode, s.AddrSel), s.Offset)
	} else {
		reg = fmt.Sprintf("%s%d", file, s.Offset)
	}
	if s.Abs {
		reg = "|" + reg + "|"
	}
	var b strings.Builder
	if s.Neg == 15 {
		b.WriteByte('-')
	}
	b.WriteString(reg)
	if s.Swz != [4]uint8{0, 1, 2, 3} || (s.Neg != 0 && s.Neg != 15) {
		b.WriteByte('.')
		for c, sel := range s.Swz {
			if s.Neg != 15 && s.Neg>>c&1 != 0 {
				b.WriteByte('-')
			}
			b.WriteByte(swzLetters[sel&7])
		}
	}
	if s.Spare {
		b.WriteString("{spare}")
	}
	return b.String()
}

// String returns the destination in assembly form: "o0.xy", "a0.x",
// "r[a0.x+3]".
func (d PVSDst) String() string {
	file := map[PVSDstType]string{PVSDstTemp: "r", PVSDstA0: "a", PVSDstOut: "o", PVSDstOutReplX: "ox",
		PVSDstAltTemp: "t", PVSDstInput: "v"}[d.Type]
	if file == "" {
		file = fmt.Sprintf("dst%d:", d.Type)
	}
	var reg string
	if d.AddrMode != PVSAddrAbsolute {
		reg = fmt.Sprintf("%s[%s+%d]", file, relName(d.AddrMode, d.AddrSel), d.Offset)
	} else {
		reg = fmt.Sprintf("%s%d", file, d.Offset)
	}
	if d.WE != 15 {
		reg += "."
		for c := 0; c < 4; c++ {
			if d.WE>>c&1 != 0 {
				reg += string("xyzw"[c])
			}
		}
		if d.WE == 0 {
			reg += "_"
		}
	}
	return reg
}

// String returns the instruction in assembly form: the mnemonic (with
// ".sat" and R500 flags), the destination and the operands the opcode
// reads, e.g. "mad r0.xy, v0, c3.x, r1".
func (in PVSInst) String() string {
	info := in.Info()
	var b strings.Builder
	b.WriteString(info.Mnemonic)
	d := in.Dst
	if d.VESat || d.MESat {
		b.WriteString(".sat")
	}
	if d.PredEnable {
		b.WriteString(".pred")
		if d.PredSense {
			b.WriteString("+")
		}
	}
	if d.DualMath {
		b.WriteString(".dual")
	}
	b.WriteString(" " + d.String())
	for k := 0; k < 3; k++ {
		if info.Srcs>>k&1 != 0 {
			b.WriteString(", " + in.Src[k].String())
		}
	}
	return b.String()
}

// PVSFlowOp is VAP_PVS_FLOW_CNTL_OPC's 2-bit code per slot (L2009).
type PVSFlowOp uint8

// The flow-control operations.
const (
	PVSFlowNOP  PVSFlowOp = 0
	PVSFlowJump PVSFlowOp = 1
	PVSFlowLoop PVSFlowOp = 2
	PVSFlowJSR  PVSFlowOp = 3
)

// PVSFlow is one flow-control slot (L1988-2027): after instruction Act
// executes, JUMP goes to Target; LOOP runs instructions Rtn..Last Count
// times with the loop index starting at Init and stepping by Step; JSR
// runs the subroutine Target..Last and returns to Rtn.
type PVSFlow struct {
	Op           PVSFlowOp
	Act          uint8 // PVS_FC_ACT_ADRS
	TargetOrCnt  uint8 // PVS_FC_LOOP_CNT_JMP_INST: jump target or loop count
	Last         uint8 // PVS_FC_LAST_INST
	Rtn          uint8 // PVS_FC_RTN_INST
	Init         uint8 // PVS_FC_LOOP_INIT_VAL, unsigned
	Step         int8  // PVS_FC_LOOP_STEP_VAL, two's complement
	addrs, index uint32
}

// Addrs returns the slot's VAP_PVS_FLOW_CNTL_ADDRS word.
func (f PVSFlow) Addrs() uint32 {
	return uint32(f.Act) | uint32(f.TargetOrCnt)<<8 | uint32(f.Last)<<16 | uint32(f.Rtn)<<24
}

// LoopIndex returns the slot's VAP_PVS_FLOW_CNTL_LOOP_INDEX word.
func (f PVSFlow) LoopIndex() uint32 { return uint32(f.Init) | uint32(uint8(f.Step))<<8 }

// DecodePVSFlow reads slot k from the OPC, ADDRS and LOOP_INDEX words.
func DecodePVSFlow(k int, opc, addrs, index uint32) PVSFlow {
	return PVSFlow{Op: PVSFlowOp(opc >> (2 * uint(k)) & 3), Act: uint8(addrs), TargetOrCnt: uint8(addrs >> 8),
		Last: uint8(addrs >> 16), Rtn: uint8(addrs >> 24), Init: uint8(index), Step: int8(index >> 8), addrs: addrs, index: index}
}

// String describes the slot.
func (f PVSFlow) String() string {
	switch f.Op {
	case PVSFlowJump:
		return fmt.Sprintf("after %d jump to %d", f.Act, f.TargetOrCnt)
	case PVSFlowLoop:
		return fmt.Sprintf("after %d loop %d..%d %d times, aL from %d step %d", f.Act, f.Rtn, f.Last, f.TargetOrCnt, f.Init, f.Step)
	case PVSFlowJSR:
		return fmt.Sprintf("after %d call %d..%d, return to %d", f.Act, f.TargetOrCnt, f.Last, f.Rtn)
	}
	return "nop"
}

// PVSProgram is the vertex program state: the control registers and the
// vector memory.
type PVSProgram struct {
	CodeCntl0, CodeCntl1, ConstCntl uint32
	FlowOpc                         uint32
	FlowAddrs, FlowIndex            [PVSMaxFlow]uint32
	// Mem is the vector memory, four dwords per octword.
	Mem []uint32
}

// ReadPVSProgram gathers the vertex program from a register file and the
// vector memory (4·PVSMemOctets dwords).
func ReadPVSProgram(get func(addr uint32) uint32, mem []uint32) PVSProgram {
	p := PVSProgram{CodeCntl0: get(VAP_PVS_CODE_CNTL_0), CodeCntl1: get(VAP_PVS_CODE_CNTL_1),
		ConstCntl: get(VAP_PVS_CONST_CNTL), FlowOpc: get(VAP_PVS_FLOW_CNTL_OPC), Mem: mem}
	for k := 0; k < PVSMaxFlow; k++ {
		p.FlowAddrs[k] = get(VAP_PVS_FLOW_CNTL_ADDRS_0 + 4*uint32(k))
		p.FlowIndex[k] = get(VAP_PVS_FLOW_CNTL_LOOP_INDEX_0 + 4*uint32(k))
	}
	return p
}

// First, PosValid, Last and LastInput are the VAP_PVS_CODE_CNTL fields
// (L1973-1980).
func (p *PVSProgram) First() int { return int(p.CodeCntl0 & 0x3FF) }

// PosValid is PVS_XYZW_VALID_INST.
func (p *PVSProgram) PosValid() int { return int(p.CodeCntl0 >> 10 & 0x3FF) }

// Last is PVS_LAST_INST (inclusive).
func (p *PVSProgram) Last() int { return int(p.CodeCntl0 >> 20 & 0x3FF) }

// LastInput is PVS_LAST_VTX_SRC_INST.
func (p *PVSProgram) LastInput() int { return int(p.CodeCntl1 & 0x3FF) }

// ConstBase and MaxConst are VAP_PVS_CONST_CNTL's fields (L1985-1986).
func (p *PVSProgram) ConstBase() int { return int(p.ConstCntl & 0xFF) }

// MaxConst is PVS_MAX_CONST_ADDR.
func (p *PVSProgram) MaxConst() int { return int(p.ConstCntl >> 16 & 0xFF) }

// Inst returns instruction i from the code area (i modulo the code store).
func (p *PVSProgram) Inst(i int) PVSInst {
	o := 4 * (PVSCodeStart + i%PVSMaxInsts)
	var w [4]uint32
	if o+4 <= len(p.Mem) {
		copy(w[:], p.Mem[o:o+4])
	}
	return DecodePVS(w)
}

// Const returns constant register k as addressed by a program (the base
// offset added, modulo the constant store), as raw float32 bits.
func (p *PVSProgram) Const(k int) [4]uint32 {
	o := 4 * (PVSConstStart + (p.ConstBase()+k)%PVSMaxConsts)
	var w [4]uint32
	if o+4 <= len(p.Mem) {
		copy(w[:], p.Mem[o:o+4])
	}
	return w
}

// Flow returns flow-control slot k.
func (p *PVSProgram) Flow(k int) PVSFlow {
	return DecodePVSFlow(k, p.FlowOpc, p.FlowAddrs[k], p.FlowIndex[k])
}

// Disassemble prints the program as ";" comment lines: a header with the
// code and constant controls, the flow-control slots in use, the
// instructions FIRST..LAST and the constants they read by absolute
// address.
func (p *PVSProgram) Disassemble() []string {
	first, last := p.First(), p.Last()
	out := []string{fmt.Sprintf("; vertex program: instructions %d-%d, position final at %d, inputs last read at %d, constants from %d, max address %d",
		first, last, p.PosValid(), p.LastInput(), p.ConstBase(), p.MaxConst())}
	for k := 0; k < PVSMaxFlow; k++ {
		if f := p.Flow(k); f.Op != PVSFlowNOP {
			out = append(out, fmt.Sprintf(";   flow %d: %s", k, f))
		}
	}
	used := map[int]bool{}
	if last >= first && last-first < PVSMaxInsts {
		for i := first; i <= last; i++ {
			in := p.Inst(i)
			info := in.Info()
			for k := 0; k < 3; k++ {
				s := in.Src[k]
				if info.Srcs>>k&1 != 0 && s.Type == PVSSrcConst && s.AddrMode == PVSAddrAbsolute {
					used[int(s.Offset)] = true
				}
			}
			out = append(out, fmt.Sprintf(";   pvs %3d: %s", i, in))
		}
	}
	for k := 0; k < PVSMaxConsts; k++ {
		if used[k] {
			c := p.Const(k)
			out = append(out, fmt.Sprintf(";   c%d = (%s, %s, %s, %s)", k, f32(c[0]), f32(c[1]), f32(c[2]), f32(c[3])))
		}
	}
	return out
}

// PVSUpload appends a vector-memory upload: VAP_PVS_VECTOR_INDX_REG set to
// the first octword, then the dwords through VAP_PVS_VECTOR_DATA_REG with
// ONE_REG_WR, as Mesa's r300_emit_vs_state does ([OUT]; the seed's index
// register counts octwords, L2043, and the data port takes 32 bits per
// write, L2035). A packet carries at most MaxPacketDwords dwords, so long
// uploads are split.
func (s *Stream) PVSUpload(octword int, data []uint32) {
	s.Reg(VAP_PVS_VECTOR_INDX_REG, uint32(octword)&0x7FF)
	for len(data) > 0 {
		n := min(len(data), MaxPacketDwords)
		s.RegOne(VAP_PVS_VECTOR_DATA_REG, data[:n]...)
		data = data[n:]
	}
}
