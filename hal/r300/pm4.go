package r300

import (
	"encoding/binary"
	"fmt"
)

// The seed has no command processor (guide hazard 1). Packets follow the
// public Radeon PM4 layout [OUT]:
//
//	type 0: [31:30]=0 [29:16]=N-1 [15]=ONE_REG_WR [12:0]=reg>>2, then N
//	        dwords written to reg, reg+4, ... (or all to reg)
//	type 2: [31:30]=2, a one-dword filler
//	type 3: [31:30]=3 [29:16]=N-1 [15:8]=opcode, then N dwords
//
// Bits 14:13 of a type-0 header and 7:0 of a type-3 header are reserved
// and must be zero; type 1 is not used on R300.
const (
	// Type2 is the type-2 filler packet.
	Type2 = 0x80000000
	// MaxPacketDwords is the largest payload a header can announce.
	MaxPacketDwords = 1 << 14
	// OneRegWr is the type-0 ONE_REG_WR bit.
	OneRegWr = 1 << 15
)

// Opcode is a type-3 packet opcode.
type Opcode uint8

// The type-3 opcodes of R300 ([OUT] Mesa r300_reg.h, guide §1) and the
// simulator's fence.
const (
	OpNOP         Opcode = 0x10
	OpDrawVbuf    Opcode = 0x28 // older form: VTX_FMT, VF_CNTL
	OpDrawImmd    Opcode = 0x29 // older form: VTX_FMT, VF_CNTL, vertices
	OpDrawIndx    Opcode = 0x2A // older form: VTX_FMT, VF_CNTL, indices
	OpLoadVbpntr  Opcode = 0x2F
	OpClearZmask  Opcode = 0x32
	OpIndxBuffer  Opcode = 0x33
	OpDrawVbuf2   Opcode = 0x34
	OpDrawImmd2   Opcode = 0x35
	OpDrawIndx2   Opcode = 0x36
	OpClearHiz    Opcode = 0x37
	OpClearCmask  Opcode = 0x38
	OpSimFence    Opcode = 0xF0 // not R300: [addr, value] writes value at addr
	OpSimFenceLen        = 2
)

// OpcodeInfo describes a type-3 opcode.
type OpcodeInfo struct {
	Op   Opcode
	Name string
	// MinDwords is the smallest legal payload.
	MinDwords int
	Note      string
	// Draw is set for the packets that draw a primitive, the draw
	// boundaries a frame debugger steps by: the packet (with its payload)
	// starts and ends the primitive.
	Draw bool
}

// Opcodes lists every type-3 opcode the decoder and the simulator know.
var Opcodes = []OpcodeInfo{
	{OpNOP, "NOP", 1, "payload ignored (relocations)", false},
	{OpDrawVbuf, "3D_DRAW_VBUF", 2, "VTX_FMT, VF_CNTL", true},
	{OpDrawImmd, "3D_DRAW_IMMD", 2, "VTX_FMT, VF_CNTL, vertex dwords", true},
	{OpDrawIndx, "3D_DRAW_INDX", 2, "VTX_FMT, VF_CNTL, index dwords", true},
	{OpLoadVbpntr, "3D_LOAD_VBPNTR", 1, "VAP_VTX_NUM_ARRAYS then the AOS image (guide §1 derived)", false},
	{OpClearZmask, "3D_CLEAR_ZMASK", 1, "Z compression is not in the seed", false},
	{OpIndxBuffer, "INDX_BUFFER", 3, "1<<31 | skip<<16 | VAP_PORT_IDX0>>2, address, dwords", false},
	{OpDrawVbuf2, "3D_DRAW_VBUF_2", 1, "VF_CNTL", true},
	{OpDrawImmd2, "3D_DRAW_IMMD_2", 1, "VF_CNTL, vertex dwords", true},
	{OpDrawIndx2, "3D_DRAW_INDX_2", 1, "VF_CNTL, index dwords (or an INDX_BUFFER packet next)", true},
	{OpClearHiz, "3D_CLEAR_HIZ", 3, "start, count, value", false},
	{OpClearCmask, "3D_CLEAR_CMASK", 1, "colour compression is not in the seed", false},
	{OpSimFence, "SIM_FENCE", OpSimFenceLen, "simulator only: address, value", false},
}

var opcodeByOp = func() map[Opcode]*OpcodeInfo {
	m := map[Opcode]*OpcodeInfo{}
	for i := range Opcodes {
		if _, dup := m[Opcodes[i].Op]; dup {
			panic("r300: duplicate opcode " + Opcodes[i].Name)
		}
		m[Opcodes[i].Op] = &Opcodes[i]
	}
	return m
}()

// LookupOpcode returns the description of a type-3 opcode.
func LookupOpcode(op Opcode) (*OpcodeInfo, bool) {
	i, ok := opcodeByOp[op]
	return i, ok
}

// String returns the opcode's name or OP3_xx.
func (op Opcode) String() string {
	if i, ok := opcodeByOp[op]; ok {
		return i.Name
	}
	return fmt.Sprintf("OP3_%02X", uint8(op))
}

// Type0 returns a type-0 header writing n dwords starting at register reg.
func Type0(reg uint32, n int, oneReg bool) uint32 {
	h := uint32(n-1)<<16&0x3FFF0000 | reg>>2&0x1FFF
	if oneReg {
		h |= OneRegWr
	}
	return h
}

// Type3 returns a type-3 header with an n-dword payload.
func Type3(op Opcode, n int) uint32 {
	return 3<<30 | uint32(n-1)<<16&0x3FFF0000 | uint32(op)<<8
}

// Header is a parsed packet header.
type Header struct {
	Type int
	// Count is the payload length in dwords (type 0 and 3).
	Count int
	// Reg is the first register of a type-0 packet; OneReg its
	// ONE_REG_WR bit.
	Reg    uint32
	OneReg bool
	// Op is a type-3 opcode.
	Op Opcode
	// Reserved holds reserved header bits that are set.
	Reserved uint32
}

// ParseHeader splits a packet header.
func ParseHeader(w uint32) Header {
	h := Header{Type: int(w >> 30), Count: int(w>>16&0x3FFF) + 1}
	switch h.Type {
	case 0:
		h.Reg = (w & 0x1FFF) << 2
		h.OneReg = w&OneRegWr != 0
		h.Reserved = w & 0x6000
	case 2:
		h.Count = 0
	case 3:
		h.Op = Opcode(w >> 8)
		h.Reserved = w & 0xFF
	}
	return h
}

// Stream builds a PM4 command stream.
type Stream struct {
	Words []uint32
}

// Reg writes consecutive registers starting at addr (one type-0 packet).
func (s *Stream) Reg(addr uint32, vals ...uint32) {
	s.Words = append(s.Words, Type0(addr, len(vals), false))
	s.Words = append(s.Words, vals...)
}

// RegOne writes every value to the same register (ONE_REG_WR).
func (s *Stream) RegOne(addr uint32, vals ...uint32) {
	s.Words = append(s.Words, Type0(addr, len(vals), true))
	s.Words = append(s.Words, vals...)
}

// Packet3 appends a type-3 packet.
func (s *Stream) Packet3(op Opcode, payload ...uint32) {
	s.Words = append(s.Words, Type3(op, len(payload)))
	s.Words = append(s.Words, payload...)
}

// Fence appends the simulator's fence packet: value is written to addr
// when the command processor reaches it.
func (s *Stream) Fence(addr, value uint32) { s.Packet3(OpSimFence, addr, value) }

// Len returns the number of dwords so far.
func (s *Stream) Len() int { return len(s.Words) }

// Reset empties the stream, keeping its storage.
func (s *Stream) Reset() { s.Words = s.Words[:0] }

// Bytes returns the stream as little-endian bytes.
func (s *Stream) Bytes() []byte {
	b := make([]byte, 4*len(s.Words))
	for i, w := range s.Words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// VFCntl builds a VAP_VF_CNTL word (L2051-2064).
func VFCntl(prim PrimType, walk PrimWalk, n int, index32 bool) uint32 {
	v := uint32(prim)&15 | uint32(walk)<<4 | uint32(n)<<16
	if index32 {
		v |= 1 << 11
	}
	return v
}

// PrimType is VAP_VF_CNTL.PRIM_TYPE.
type PrimType uint8

// The primitive types (L2053).
const (
	PrimNone          PrimType = 0
	PrimPoints        PrimType = 1
	PrimLines         PrimType = 2
	PrimLineStrip     PrimType = 3
	PrimTriangles     PrimType = 4
	PrimTriangleFan   PrimType = 5
	PrimTriangleStrip PrimType = 6
	PrimTriWFlags     PrimType = 7
	PrimLineLoop      PrimType = 12
	PrimQuads         PrimType = 13
	PrimQuadStrip     PrimType = 14
	PrimPolygon       PrimType = 15
)

// PrimWalk is VAP_VF_CNTL.PRIM_WALK.
type PrimWalk uint8

// The walks; each draw opcode needs its own (guide §1 [PROP]).
const (
	WalkState   PrimWalk = 0
	WalkIndices PrimWalk = 1
	WalkList    PrimWalk = 2
	WalkData    PrimWalk = 3
)

// AOS describes one vertex array for 3D_LOAD_VBPNTR.
type AOS struct {
	// Count and Stride are in dwords; Addr is 4-byte aligned.
	Count, Stride int
	Addr          uint32
}

// LoadVbpntr returns the payload of a 3D_LOAD_VBPNTR packet for arrays:
// the count, then per pair of arrays the ATTR word and their addresses
// (the last address is dropped when the count is odd), which is exactly the
// register image from VAP_VTX_NUM_ARRAYS on (guide §1 derived).
func LoadVbpntr(arrays []AOS) []uint32 {
	p := []uint32{uint32(len(arrays))}
	for i := 0; i < len(arrays); i += 2 {
		a := arrays[i]
		attr := uint32(a.Count)&0x7F | uint32(a.Stride)&0x7F<<8
		if i+1 < len(arrays) {
			b := arrays[i+1]
			attr |= (uint32(b.Count)&0x7F | uint32(b.Stride)&0x7F<<8) << 16
		}
		p = append(p, attr, a.Addr)
		if i+1 < len(arrays) {
			p = append(p, arrays[i+1].Addr)
		}
	}
	return p
}

// IndxBuffer returns the payload of an INDX_BUFFER packet reading ndw
// dwords of indices at addr ([OUT] Mesa r300_emit_draw_elements).
func IndxBuffer(addr uint32, ndw int) []uint32 {
	return []uint32{1<<31 | VAP_PORT_IDX0>>2, addr, uint32(ndw)}
}
