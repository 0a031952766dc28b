package pica

import (
	"fmt"
	"strings"
)

// The shader instruction set. The seed has none (guide §3); every encoding
// here is an outside fact from 3dbrew's "GPU/Shader Instruction Set" page
// (instruction formats 1, 1i, 1u, 1c, 2, 3, 4, 5, 5i; the operand
// descriptor; register numbering), which nihstro and citra's interpreter
// implement the same way.
//
// Register numbering: a 7-bit source selects v0-v15 (0x00-0x0F), r0-r15
// (0x10-0x1F) or c0-c95 (0x20-0x7F); a 5-bit source reaches only v and r.
// A 5-bit destination selects o0-o15 (0x00-0x0F) or r0-r15 (0x10-0x1F).
// The address-register index (0 none, 1 a0.x, 2 a0.y, 3 aL) applies to the
// instruction's 7-bit source.

// Opcode is a 6-bit shader opcode.
type Opcode uint8

// The opcodes (3dbrew).
const (
	OpADD     Opcode = 0x00
	OpDP3     Opcode = 0x01
	OpDP4     Opcode = 0x02
	OpDPH     Opcode = 0x03
	OpDST     Opcode = 0x04
	OpEX2     Opcode = 0x05
	OpLG2     Opcode = 0x06
	OpLITP    Opcode = 0x07
	OpMUL     Opcode = 0x08
	OpSGE     Opcode = 0x09
	OpSLT     Opcode = 0x0A
	OpFLR     Opcode = 0x0B
	OpMAX     Opcode = 0x0C
	OpMIN     Opcode = 0x0D
	OpRCP     Opcode = 0x0E
	OpRSQ     Opcode = 0x0F
	OpMOVA    Opcode = 0x12
	OpMOV     Opcode = 0x13
	OpDPHI    Opcode = 0x18
	OpDSTI    Opcode = 0x19
	OpSGEI    Opcode = 0x1A
	OpSLTI    Opcode = 0x1B
	OpBREAK   Opcode = 0x20
	OpNOP     Opcode = 0x21
	OpEND     Opcode = 0x22
	OpBREAKC  Opcode = 0x23
	OpCALL    Opcode = 0x24
	OpCALLC   Opcode = 0x25
	OpCALLU   Opcode = 0x26
	OpIFU     Opcode = 0x27
	OpIFC     Opcode = 0x28
	OpLOOP    Opcode = 0x29
	OpEMIT    Opcode = 0x2A
	OpSETEMIT Opcode = 0x2B
	OpJMPC    Opcode = 0x2C
	OpJMPU    Opcode = 0x2D
	OpCMP     Opcode = 0x2E // 0x2E-0x2F
	OpMADI    Opcode = 0x30 // 0x30-0x37
	OpMAD     Opcode = 0x38 // 0x38-0x3F
)

// Format is an instruction encoding format.
type Format uint8

// The formats.
const (
	FmtInvalid Format = iota
	Fmt0              // no operands (NOP, END, BREAK, EMIT)
	Fmt1              // dst, src1 (7 bits, indexed), src2 (5 bits)
	Fmt1i             // dst, src1 (5 bits), src2 (7 bits, indexed)
	Fmt1u             // dst, src1 (7 bits, indexed)
	Fmt1c             // CMP: src1, cmpx, cmpy, src2
	Fmt2              // flow control on the condition flags
	Fmt3              // flow control on a bool or int uniform
	Fmt4              // SETEMIT
	Fmt5              // MAD: src1 5, src2 7 (indexed), src3 5
	Fmt5i             // MADI: src1 5, src2 5, src3 7 (indexed)
)

// OpInfo describes one opcode.
type OpInfo struct {
	Name   string
	Format Format
	// Srcs is the number of source operands read.
	Srcs int
}

// opTable gives every opcode's row; unlisted opcodes are invalid.
var opTable = func() [64]OpInfo {
	var t [64]OpInfo
	set := func(op Opcode, name string, f Format, srcs int) { t[op] = OpInfo{name, f, srcs} }
	set(OpADD, "add", Fmt1, 2)
	set(OpDP3, "dp3", Fmt1, 2)
	set(OpDP4, "dp4", Fmt1, 2)
	set(OpDPH, "dph", Fmt1, 2)
	set(OpDST, "dst", Fmt1, 2)
	set(OpEX2, "ex2", Fmt1u, 1)
	set(OpLG2, "lg2", Fmt1u, 1)
	set(OpLITP, "litp", Fmt1u, 1)
	set(OpMUL, "mul", Fmt1, 2)
	set(OpSGE, "sge", Fmt1, 2)
	set(OpSLT, "slt", Fmt1, 2)
	set(OpFLR, "flr", Fmt1u, 1)
	set(OpMAX, "max", Fmt1, 2)
	set(OpMIN, "min", Fmt1, 2)
	set(OpRCP, "rcp", Fmt1u, 1)
	set(OpRSQ, "rsq", Fmt1u, 1)
	set(OpMOVA, "mova", Fmt1u, 1)
	set(OpMOV, "mov", Fmt1u, 1)
	set(OpDPHI, "dphi", Fmt1i, 2)
	set(OpDSTI, "dsti", Fmt1i, 2)
	set(OpSGEI, "sgei", Fmt1i, 2)
	set(OpSLTI, "slti", Fmt1i, 2)
	set(OpBREAK, "break", Fmt0, 0)
	set(OpNOP, "nop", Fmt0, 0)
	set(OpEND, "end", Fmt0, 0)
	set(OpBREAKC, "breakc", Fmt2, 0)
	set(OpCALL, "call", Fmt2, 0)
	set(OpCALLC, "callc", Fmt2, 0)
	set(OpCALLU, "callu", Fmt3, 0)
	set(OpIFU, "ifu", Fmt3, 0)
	set(OpIFC, "ifc", Fmt2, 0)
	set(OpLOOP, "loop", Fmt3, 0)
	set(OpEMIT, "emit", Fmt0, 0)
	set(OpSETEMIT, "setemit", Fmt4, 0)
	set(OpJMPC, "jmpc", Fmt2, 0)
	set(OpJMPU, "jmpu", Fmt3, 0)
	for op := OpCMP; op <= OpCMP+1; op++ {
		set(op, "cmp", Fmt1c, 2)
	}
	for op := OpMADI; op < OpMAD; op++ {
		set(op, "madi", Fmt5i, 3)
	}
	for op := OpMAD; op <= 0x3F; op++ {
		set(op, "mad", Fmt5, 3)
	}
	return t
}()

// Info returns the opcode's row (Format is FmtInvalid for undefined
// opcodes).
func (op Opcode) Info() OpInfo { return opTable[op&0x3F] }

// Insn is a decoded instruction. Fields not used by the format are zero.
type Insn struct {
	Op               Opcode // MAD/MADI/CMP normalised to their base opcode
	Dst              uint8  // 5 bits
	Src1, Src2, Src3 uint8  // raw register numbers (7 or 5 bits)
	Idx              uint8  // address-register index for the 7-bit source
	Desc             uint8  // operand descriptor index (7 bits, 5 for MAD)
	CmpX, CmpY       uint8  // CMP operations
	// Flow control.
	Dest     uint16 // 12-bit word address
	Num      uint8
	RefX     bool
	RefY     bool
	CondOp   uint8 // 0 OR, 1 AND, 2 X, 3 Y
	Uniform  uint8 // bool (CALLU/IFU/JMPU) or int (LOOP) uniform
	VtxID    uint8 // SETEMIT
	PrimEmit bool
	Winding  bool
}

// DecodeInsn decodes one instruction word.
func DecodeInsn(w uint32) Insn {
	op := Opcode(w >> 26)
	in := Insn{Op: op}
	switch op.Info().Format {
	case Fmt1, Fmt1u:
		in.Dst, in.Idx = uint8(w>>21&0x1F), uint8(w>>19&3)
		in.Src1, in.Src2, in.Desc = uint8(w>>12&0x7F), uint8(w>>7&0x1F), uint8(w&0x7F)
	case Fmt1i:
		in.Dst, in.Idx = uint8(w>>21&0x1F), uint8(w>>19&3)
		in.Src1, in.Src2, in.Desc = uint8(w>>14&0x1F), uint8(w>>7&0x7F), uint8(w&0x7F)
	case Fmt1c:
		in.Op = OpCMP
		in.CmpX, in.CmpY, in.Idx = uint8(w>>24&7), uint8(w>>21&7), uint8(w>>19&3)
		in.Src1, in.Src2, in.Desc = uint8(w>>12&0x7F), uint8(w>>7&0x1F), uint8(w&0x7F)
	case Fmt2:
		in.RefX, in.RefY = w>>25&1 != 0, w>>24&1 != 0
		in.CondOp, in.Dest, in.Num = uint8(w>>22&3), uint16(w>>10&0xFFF), uint8(w)
	case Fmt3:
		in.Uniform, in.Dest, in.Num = uint8(w>>22&0xF), uint16(w>>10&0xFFF), uint8(w)
	case Fmt4:
		in.VtxID, in.PrimEmit, in.Winding = uint8(w>>24&3), w>>23&1 != 0, w>>22&1 != 0
	case Fmt5:
		in.Op = OpMAD
		in.Dst, in.Idx = uint8(w>>24&0x1F), uint8(w>>22&3)
		in.Src1, in.Src2, in.Src3, in.Desc = uint8(w>>17&0x1F), uint8(w>>10&0x7F), uint8(w>>5&0x1F), uint8(w&0x1F)
	case Fmt5i:
		in.Op = OpMADI
		in.Dst, in.Idx = uint8(w>>24&0x1F), uint8(w>>22&3)
		in.Src1, in.Src2, in.Src3, in.Desc = uint8(w>>17&0x1F), uint8(w>>12&0x1F), uint8(w>>5&0x7F), uint8(w&0x1F)
	}
	return in
}

// Encode encodes an instruction. Fields wider than their slots are
// truncated.
func (in Insn) Encode() uint32 {
	op := uint32(in.Op & 0x3F)
	switch in.Op.Info().Format {
	case Fmt1, Fmt1u:
		return op<<26 | uint32(in.Dst&0x1F)<<21 | uint32(in.Idx&3)<<19 | uint32(in.Src1&0x7F)<<12 |
			uint32(in.Src2&0x1F)<<7 | uint32(in.Desc&0x7F)
	case Fmt1i:
		return op<<26 | uint32(in.Dst&0x1F)<<21 | uint32(in.Idx&3)<<19 | uint32(in.Src1&0x1F)<<14 |
			uint32(in.Src2&0x7F)<<7 | uint32(in.Desc&0x7F)
	case Fmt1c:
		return uint32(OpCMP)>>1<<27 | uint32(in.CmpX&7)<<24 | uint32(in.CmpY&7)<<21 | uint32(in.Idx&3)<<19 |
			uint32(in.Src1&0x7F)<<12 | uint32(in.Src2&0x1F)<<7 | uint32(in.Desc&0x7F)
	case Fmt2:
		w := op<<26 | uint32(in.CondOp&3)<<22 | uint32(in.Dest&0xFFF)<<10 | uint32(in.Num)
		if in.RefX {
			w |= 1 << 25
		}
		if in.RefY {
			w |= 1 << 24
		}
		return w
	case Fmt3:
		return op<<26 | uint32(in.Uniform&0xF)<<22 | uint32(in.Dest&0xFFF)<<10 | uint32(in.Num)
	case Fmt4:
		w := op<<26 | uint32(in.VtxID&3)<<24
		if in.PrimEmit {
			w |= 1 << 23
		}
		if in.Winding {
			w |= 1 << 22
		}
		return w
	case Fmt5:
		return 7<<29 | uint32(in.Dst&0x1F)<<24 | uint32(in.Idx&3)<<22 | uint32(in.Src1&0x1F)<<17 |
			uint32(in.Src2&0x7F)<<10 | uint32(in.Src3&0x1F)<<5 | uint32(in.Desc&0x1F)
	case Fmt5i:
		return 6<<29 | uint32(in.Dst&0x1F)<<24 | uint32(in.Idx&3)<<22 | uint32(in.Src1&0x1F)<<17 |
			uint32(in.Src2&0x1F)<<12 | uint32(in.Src3&0x7F)<<5 | uint32(in.Desc&0x1F)
	}
	return op << 26
}

// OpDesc is an operand descriptor (3dbrew): destination mask in bits 0-3
// (bit 3 = x ... bit 0 = w), then per source a negate bit and an 8-bit
// selector (2 bits per component, x in the top pair): src1 negate bit 4,
// selector 5-12; src2 13, 14-21; src3 22, 23-30.
type OpDesc uint32

// DescIdentity is the descriptor "all components, no swizzle, no negation"
// for every source: mask xyzw, selectors xyzw (0x1B).
const DescIdentity OpDesc = 0xF | 0x1B<<5 | 0x1B<<14 | 0x1B<<23

// Mask returns the destination write mask (bit 3 = x).
func (d OpDesc) Mask() uint8 { return uint8(d & 0xF) }

// WritesComp reports whether component c (0 = x) is written.
func (d OpDesc) WritesComp(c int) bool { return d>>(3-uint(c))&1 != 0 }

// Negate reports whether source s (0-2) is negated.
func (d OpDesc) Negate(s int) bool { return d>>(4+9*uint(s))&1 != 0 }

// Selector returns the component source s reads for component c.
func (d OpDesc) Selector(s, c int) int {
	sel := uint32(d) >> (5 + 9*uint(s)) & 0xFF
	return int(sel >> (6 - 2*uint(c)) & 3)
}

// MakeDesc builds a descriptor from a mask string ("xyzw", "xy", ...) and
// per-source swizzles ("xyzw", "xxxx", ...) with negation flags. Shorter
// swizzles repeat their last component, as picasso does.
func MakeDesc(mask string, swz [3]string, neg [3]bool) (OpDesc, error) {
	var d OpDesc
	m, err := parseMask(mask)
	if err != nil {
		return 0, err
	}
	d = OpDesc(m)
	for s := 0; s < 3; s++ {
		sel, err := parseSwizzle(swz[s])
		if err != nil {
			return 0, err
		}
		d |= OpDesc(sel) << (5 + 9*uint(s))
		if neg[s] {
			d |= 1 << (4 + 9*uint(s))
		}
	}
	return d, nil
}

func compIndex(c byte) int {
	switch c {
	case 'x', 'r', 's':
		return 0
	case 'y', 'g', 't':
		return 1
	case 'z', 'b', 'p':
		return 2
	case 'w', 'a', 'q':
		return 3
	}
	return -1
}

func parseMask(s string) (uint8, error) {
	if s == "" {
		return 0xF, nil
	}
	var m uint8
	last := -1
	for i := 0; i < len(s); i++ {
		c := compIndex(s[i])
		if c < 0 || c <= last {
			return 0, fmt.Errorf("bad write mask %q", s)
		}
		last = c
		m |= 8 >> uint(c)
	}
	return m, nil
}

func parseSwizzle(s string) (uint8, error) {
	if s == "" {
		return 0x1B, nil
	}
	if len(s) > 4 {
		return 0, fmt.Errorf("bad swizzle %q", s)
	}
	var sel uint8
	for i := 0; i < 4; i++ {
		ch := s[min(i, len(s)-1)]
		c := compIndex(ch)
		if c < 0 {
			return 0, fmt.Errorf("bad swizzle %q", s)
		}
		sel |= uint8(c) << (6 - 2*uint(i))
	}
	return sel, nil
}

// MaskString renders a write mask ("xyzw", "xz", ...).
func MaskString(m uint8) string {
	var b strings.Builder
	for c := 0; c < 4; c++ {
		if m>>(3-uint(c))&1 != 0 {
			b.WriteByte("xyzw"[c])
		}
	}
	return b.String()
}

// SwizzleString renders source s's selector.
func (d OpDesc) SwizzleString(s int) string {
	var b [4]byte
	for c := 0; c < 4; c++ {
		b[c] = "xyzw"[d.Selector(s, c)]
	}
	return string(b[:])
}

// SrcName names a 7-bit source register number.
func SrcName(r uint8) string {
	switch {
	case r < 0x10:
		return fmt.Sprintf("v%d", r)
	case r < 0x20:
		return fmt.Sprintf("r%d", r-0x10)
	case r < 0x80:
		return fmt.Sprintf("c%d", r-0x20)
	}
	return fmt.Sprintf("?%#x", r)
}

// DstName names a destination register number.
func DstName(r uint8) string {
	if r < 0x10 {
		return fmt.Sprintf("o%d", r)
	}
	return fmt.Sprintf("r%d", r-0x10)
}

// CmpNames are the CMP operations (3dbrew): 0 EQ, 1 NE, 2 LT, 3 LE, 4 GT,
// 5 GE; 6 and 7 are undocumented (the simulator treats them as true, as
// citra does).
var CmpNames = []string{"eq", "ne", "lt", "le", "gt", "ge", "t6", "t7"}

// CondNames are the flow-control condition combinations.
var CondNames = []string{"or", "and", "x", "y"}

var idxNames = []string{"", "a0.x", "a0.y", "aL"}

// Disasm renders an instruction with its operand descriptor table in the
// picasso-like syntax the assembler (hal/pica/picasso) reads back.
func Disasm(w uint32, descs []uint32) string {
	in := DecodeInsn(w)
	info := in.Op.Info()
	if info.Format == FmtInvalid {
		return fmt.Sprintf(".word 0x%08x", w)
	}
	var d OpDesc
	if int(in.Desc) < len(descs) {
		d = OpDesc(descs[in.Desc])
	}
	src := func(s int, reg uint8, indexed bool) string {
		name := SrcName(reg)
		if indexed && in.Idx != 0 {
			name += "[" + idxNames[in.Idx] + "]"
		}
		if sw := d.SwizzleString(s); sw != "xyzw" {
			name += "." + sw
		}
		if d.Negate(s) {
			name = "-" + name
		}
		return name
	}
	dst := DstName(in.Dst)
	if m := d.Mask(); m != 0xF {
		dst += "." + MaskString(m)
	}
	cond := func() string {
		switch in.CondOp {
		case 2:
			return boolName("cmp.x", in.RefX)
		case 3:
			return boolName("cmp.y", in.RefY)
		}
		return fmt.Sprintf("%s %s %s", boolName("cmp.x", in.RefX), map[uint8]string{0: "||", 1: "&&"}[in.CondOp], boolName("cmp.y", in.RefY))
	}
	switch info.Format {
	case Fmt0:
		return info.Name
	case Fmt1:
		return fmt.Sprintf("%s %s, %s, %s", info.Name, dst, src(0, in.Src1, true), src(1, in.Src2, false))
	case Fmt1u:
		if in.Op == OpMOVA {
			return fmt.Sprintf("mova a0.%s, %s", MaskString(d.Mask()&0xC), src(0, in.Src1, true))
		}
		return fmt.Sprintf("%s %s, %s", info.Name, dst, src(0, in.Src1, true))
	case Fmt1i:
		return fmt.Sprintf("%s %s, %s, %s", info.Name, dst, src(0, in.Src1, false), src(1, in.Src2, true))
	case Fmt1c:
		return fmt.Sprintf("cmp %s, %s, %s, %s", src(0, in.Src1, true), CmpNames[in.CmpX], CmpNames[in.CmpY], src(1, in.Src2, false))
	case Fmt5:
		return fmt.Sprintf("mad %s, %s, %s, %s", dst, src(0, in.Src1, false), src(1, in.Src2, true), src(2, in.Src3, false))
	case Fmt5i:
		return fmt.Sprintf("madi %s, %s, %s, %s", dst, src(0, in.Src1, false), src(1, in.Src2, false), src(2, in.Src3, true))
	case Fmt2:
		switch in.Op {
		case OpBREAKC:
			return fmt.Sprintf("breakc %s", cond())
		case OpCALL:
			return fmt.Sprintf("call %#x, %d", in.Dest, in.Num)
		}
		return fmt.Sprintf("%s %s, %#x, %d", info.Name, cond(), in.Dest, in.Num)
	case Fmt3:
		switch in.Op {
		case OpLOOP:
			return fmt.Sprintf("loop i%d, %#x", in.Uniform&3, in.Dest)
		case OpJMPU:
			b := fmt.Sprintf("b%d", in.Uniform)
			if in.Num&1 != 0 {
				b = "!" + b
			}
			return fmt.Sprintf("jmpu %s, %#x", b, in.Dest)
		}
		return fmt.Sprintf("%s b%d, %#x, %d", info.Name, in.Uniform, in.Dest, in.Num)
	case Fmt4:
		s := fmt.Sprintf("setemit %d", in.VtxID)
		if in.PrimEmit {
			s += ", prim"
		}
		if in.Winding {
			s += ", inv"
		}
		return s
	}
	return info.Name
}

func boolName(n string, v bool) string {
	if v {
		return n
	}
	return "!" + n
}
