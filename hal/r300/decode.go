package r300

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/retrogl/retrogl/hal"
)

func init() {
	hal.RegisterDecoder("r300", Disassemble)
}

// Words converts little-endian bytes to dwords (a trailing partial dword is
// dropped).
func Words(buf []byte) []uint32 {
	w := make([]uint32, len(buf)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(buf[4*i:])
	}
	return w
}

// Disassemble decodes a PM4 stream at device address base: one line per
// dword, "address  word  text". It is the registered hal.Decoder.
func Disassemble(buf []byte, base uint32) []string {
	return decode(buf, base, false)
}

// Listing is Disassemble with the fragment program (see
// Program.Disassemble) and, when VAP_CNTL_STATUS.PVS_BYPASS is clear, the
// vertex program (PVSProgram.Disassemble) printed as ";" comment lines
// before every draw packet whose program changed since the previous draw.
// Golden files and the cmd tools use it.
func Listing(buf []byte, base uint32) []string {
	return decode(buf, base, true)
}

type decoder struct {
	out     []string
	base    uint32
	words   []uint32
	regs    map[uint32]uint32
	listing bool
	lastFP  []string
	lastVP  []string
	// pvs mirrors the PVS vector memory the stream writes through
	// VAP_PVS_VECTOR_INDX_REG and the data ports; pvsIdx is the next
	// dword.
	pvs    []uint32
	pvsIdx uint32
}

// newDecoder returns a decoder of buf at base with every register and the
// PVS memory zero.
func newDecoder(buf []byte, base uint32, listing bool) *decoder {
	return &decoder{base: base, words: Words(buf), regs: map[uint32]uint32{}, listing: listing, pvs: make([]uint32, 4*PVSMemOctets)}
}

func decode(buf []byte, base uint32, listing bool) []string {
	d := newDecoder(buf, base, listing)
	d.out = make([]string, 0, len(d.words)+1)
	for i := 0; i < len(d.words); {
		i = d.packet(i)
	}
	if len(buf)%4 != 0 {
		d.out = append(d.out, fmt.Sprintf("%#08x  (%d trailing bytes)", base+uint32(len(buf)&^3), len(buf)%4))
	}
	return d.out
}

func (d *decoder) line(i int, text string) {
	d.out = append(d.out, fmt.Sprintf("%#08x  %08x  %s", d.base+4*uint32(i), d.words[i], text))
}

// DecodeHeader returns the text of a packet header word alone (for fault
// messages).
func DecodeHeader(w uint32) string {
	h := ParseHeader(w)
	switch h.Type {
	case 0:
		s := fmt.Sprintf("PKT0 %s count=%d", RegName(h.Reg), h.Count)
		if h.OneReg {
			s += " one_reg"
		}
		if h.Reserved != 0 {
			s += fmt.Sprintf(" reserved=%#x", h.Reserved)
		}
		return s
	case 1:
		return "PKT1 (not used on R300)"
	case 2:
		return "PKT2 (filler)"
	}
	s := fmt.Sprintf("PKT3 %s count=%d", h.Op, h.Count)
	if h.Reserved != 0 {
		s += fmt.Sprintf(" reserved=%#x", h.Reserved)
	}
	return s
}

// packet decodes the packet at word i and returns the next packet's index.
func (d *decoder) packet(i int) int {
	w := d.words[i]
	h := ParseHeader(w)
	text := DecodeHeader(w)
	n := h.Count
	if h.Type == 1 || h.Type == 2 {
		d.line(i, text)
		return i + 1
	}
	left := len(d.words) - i - 1
	if n > left {
		text += fmt.Sprintf(" (truncated: %d dwords left)", left)
		n = left
	}
	if h.Type == 3 && d.listing && isDraw(h.Op) {
		d.vertexProgram()
		d.program()
	}
	d.line(i, text)
	p := d.words[i+1 : i+1+n]
	if h.Type == 0 {
		for k, v := range p {
			a := h.Reg
			if !h.OneReg {
				a += 4 * uint32(k)
			}
			d.regs[Canonical(a)] = v
			t := FormatReg(a, v)
			if a >= US_TEX_INST_0 && a < US_TEX_INST_0+4*MaxTEX {
				t += " ; " + DecodeTex(v).String()
			}
			switch a {
			case VAP_PVS_VECTOR_INDX_REG:
				d.pvsIdx = 4 * (v & 0x7FF)
			case VAP_PVS_VECTOR_DATA_REG, VAP_PVS_VECTOR_DATA_REG_128:
				t += " ; " + d.pvsWrite(v)
			}
			d.line(i+1+k, "  "+t)
		}
		return i + 1 + n
	}
	for k, t := range payload3(h.Op, p) {
		d.line(i+1+k, "  "+t)
	}
	return i + 1 + n
}

func isDraw(op Opcode) bool {
	switch op {
	case OpDrawVbuf, OpDrawImmd, OpDrawIndx, OpDrawVbuf2, OpDrawImmd2, OpDrawIndx2:
		return true
	}
	return false
}

// program emits the fragment program if it changed since the last draw.
func (d *decoder) program() {
	p := ReadProgram(func(a uint32) uint32 { return d.regs[a] })
	lines := p.Disassemble()
	same := len(lines) == len(d.lastFP)
	for k := 0; same && k < len(lines); k++ {
		same = lines[k] == d.lastFP[k]
	}
	if same {
		return
	}
	d.lastFP = lines
	d.out = append(d.out, lines...)
}

// pvsWrite stores a vector-memory dword and describes where it went: an
// instruction dword (the whole instruction once its last dword arrives), a
// constant component, a user clip plane component.
func (d *decoder) pvsWrite(v uint32) string {
	i := d.pvsIdx % uint32(len(d.pvs))
	d.pvs[i] = v
	d.pvsIdx = i + 1
	o, c := int(i/4), int(i%4)
	switch {
	case o < PVSConstStart:
		if c < 3 {
			return fmt.Sprintf("code %d dword %d", o, c)
		}
		var w [4]uint32
		copy(w[:], d.pvs[4*o:4*o+4])
		return fmt.Sprintf("code %d: %s", o, DecodePVS(w))
	case o < PVSConstStart+PVSMaxConsts:
		return fmt.Sprintf("const %d.%c = %s", o-PVSConstStart, "xyzw"[c], f32(v))
	case o >= PVSUCPStart && o < PVSUCPStart+PVSMaxUCP:
		return fmt.Sprintf("clip plane %d.%c = %s", o-PVSUCPStart, "xyzw"[c], f32(v))
	}
	return fmt.Sprintf("octword %d dword %d", o, c)
}

// vertexProgram emits the vertex program if the buffer turned the PVS on
// and the program's text changed since the last draw.
func (d *decoder) vertexProgram() {
	// A buffer that never sets VAP_CNTL_STATUS leaves the mode to an
	// earlier one: nothing is printed.
	st, ok := d.regs[VAP_CNTL_STATUS]
	if !ok || st>>8&1 != 0 {
		return
	}
	p := ReadPVSProgram(func(a uint32) uint32 { return d.regs[a] }, d.pvs)
	lines := p.Disassemble()
	if slicesEqual(lines, d.lastVP) {
		return
	}
	d.lastVP = lines
	d.out = append(d.out, lines...)
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func f32(v uint32) string { return fmt.Sprintf("%g", math.Float32frombits(v)) }

// payload3 returns one line per payload dword of a type-3 packet.
func payload3(op Opcode, p []uint32) []string {
	out := make([]string, len(p))
	for k := range out {
		out[k] = fmt.Sprintf("dword %d", k)
	}
	if len(p) == 0 {
		return out
	}
	vf := func(k int) {
		if k < len(p) {
			out[k] = FormatReg(VAP_VF_CNTL, p[k])
		}
	}
	data := func(from int) {
		vf(from)
		if from >= len(p) {
			return
		}
		c := p[from]
		switch PrimWalk(c >> 4 & 3) {
		case WalkData:
			for k := from + 1; k < len(p); k++ {
				out[k] = fmt.Sprintf("vertex data %d: %s", k-from-1, f32(p[k]))
			}
		case WalkIndices:
			for k := from + 1; k < len(p); k++ {
				if c>>11&1 != 0 {
					out[k] = fmt.Sprintf("index %d", p[k])
				} else {
					out[k] = fmt.Sprintf("indices %d, %d", p[k]&0xFFFF, p[k]>>16)
				}
			}
		}
	}
	switch op {
	case OpNOP:
		for k := range out {
			out[k] = fmt.Sprintf("nop payload %#x", p[k])
		}
	case OpDrawVbuf2, OpDrawImmd2, OpDrawIndx2:
		data(0)
	case OpDrawVbuf, OpDrawImmd, OpDrawIndx:
		out[0] = fmt.Sprintf("VTX_FMT %#x", p[0])
		data(1)
	case OpLoadVbpntr:
		out[0] = FormatReg(VAP_VTX_NUM_ARRAYS, p[0])
		for k := 1; k < len(p); k++ {
			out[k] = FormatReg(VAP_VTX_AOS_ATTR01+4*uint32(k-1), p[k])
		}
	case OpIndxBuffer:
		out[0] = fmt.Sprintf("INDX_BUFFER one_reg=%d skip=%d reg=%s", p[0]>>31, p[0]>>16&0x7FFF, RegName((p[0]&0x1FFF)<<2))
		if len(p) > 1 {
			out[1] = fmt.Sprintf("address %#x", p[1])
		}
		if len(p) > 2 {
			out[2] = fmt.Sprintf("dwords %d", p[2])
		}
	case OpClearHiz:
		names := []string{"start", "count", "value"}
		for k := 0; k < len(p) && k < 3; k++ {
			out[k] = fmt.Sprintf("%s %#x", names[k], p[k])
		}
	case OpSimFence:
		out[0] = fmt.Sprintf("address %#x", p[0])
		if len(p) > 1 {
			out[1] = fmt.Sprintf("value %#x", p[1])
		}
	}
	return out
}
