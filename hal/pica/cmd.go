package pica

import (
	"encoding/binary"
	"fmt"
)

// Header is a command's second word (seed L42-L50): register ID in bits
// 0-15, byte-lane write mask in bits 16-19, extra-parameter count N in bits
// 20-27, consecutive mode in bit 31. A command is the parameter word, the
// header, N extra parameters and one pad word when N is odd (L12-L15).
type Header uint32

// MakeHeader builds a header.
func MakeHeader(id Reg, mask uint8, extra int, consecutive bool) Header {
	h := uint32(id) | uint32(mask&0xF)<<16 | uint32(extra&0xFF)<<20
	if consecutive {
		h |= 1 << 31
	}
	return Header(h)
}

// ID returns the first register written.
func (h Header) ID() Reg { return Reg(h & 0xFFFF) }

// Mask returns the byte-lane write mask (bit 0 = byte 0).
func (h Header) Mask() uint8 { return uint8(h >> 16 & 0xF) }

// Extra returns N, the number of parameters after the first.
func (h Header) Extra() int { return int(h >> 20 & 0xFF) }

// Consecutive reports whether parameter k goes to ID+k.
func (h Header) Consecutive() bool { return h>>31 != 0 }

// Words returns the command's size in 32-bit words, padding included.
func (h Header) Words() int {
	n := 2 + h.Extra()
	return n + n&1
}

// ByteMask expands the 4-bit mask to a 32-bit mask (L52-L60).
func ByteMask(m uint8) uint32 {
	var v uint32
	for i := 0; i < 4; i++ {
		if m>>i&1 != 0 {
			v |= 0xFF << (8 * i)
		}
	}
	return v
}

// Masked applies a masked write: new = (old &^ M) | (val & M).
func Masked(old, val uint32, mask uint8) uint32 {
	m := ByteMask(mask)
	return old&^m | val&m
}

// Target returns the register parameter k of a command writes to.
func (h Header) Target(k int) Reg {
	if h.Consecutive() {
		return h.ID() + Reg(k)
	}
	return h.ID()
}

// Writer builds a command buffer.
type Writer struct {
	words []uint32
}

// Len returns the number of words written.
func (w *Writer) Len() int { return len(w.words) }

// Words returns the words written so far (aliased).
func (w *Writer) Words() []uint32 { return w.words }

// Reset empties the writer, keeping its storage.
func (w *Writer) Reset() { w.words = w.words[:0] }

// Write emits one full write of v to id.
func (w *Writer) Write(id Reg, v uint32) { w.WriteMasked(id, 0xF, v) }

// WriteMasked emits a write of v to id through a byte mask.
func (w *Writer) WriteMasked(id Reg, mask uint8, v uint32) {
	w.words = append(w.words, v, uint32(MakeHeader(id, mask, 0, false)))
}

// Seq emits one consecutive command writing vals[k] to id+k, split into
// commands of at most 256 parameters.
func (w *Writer) Seq(id Reg, vals ...uint32) { w.multi(id, true, vals) }

// Rep emits commands that write every value of vals to the same register
// id (FIFO ports), at most 256 per command.
func (w *Writer) Rep(id Reg, vals ...uint32) { w.multi(id, false, vals) }

func (w *Writer) multi(id Reg, consecutive bool, vals []uint32) {
	for len(vals) > 0 {
		n := min(len(vals), 256)
		w.words = append(w.words, vals[0], uint32(MakeHeader(id, 0xF, n-1, consecutive)))
		w.words = append(w.words, vals[1:n]...)
		if (n-1)&1 != 0 {
			w.words = append(w.words, 0)
		}
		if consecutive {
			id += Reg(n)
		}
		vals = vals[n:]
	}
}

// Finalize emits the FINALIZE write that ends a buffer, padded so that the
// buffer is a multiple of 0x10 bytes (L36-L40: the hardware drops a
// trailing half unit, so FINALIZE must not sit in one).
func (w *Writer) Finalize() {
	if (len(w.words)+2)%4 != 0 {
		w.WriteMasked(0, 0, 0) // mask 0: a write that changes nothing
	}
	w.Write(FINALIZE, 0x12345678)
}

// Align pads the buffer to a multiple of 0x10 bytes with a mask-0 write
// (which changes nothing).
func (w *Writer) Align() {
	if len(w.words)%4 != 0 {
		w.WriteMasked(0, 0, 0)
	}
}

// Bytes returns the buffer as little-endian bytes.
func (w *Writer) Bytes() []byte {
	b := make([]byte, 4*len(w.words))
	for i, v := range w.words {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

// Write is one register write a buffer performs: offset of the command,
// index k of the parameter inside it, register and value.
type Write struct {
	Offset int // byte offset of the command
	Param  int // parameter index inside the command
	Header Header
	Reg    Reg
	Value  uint32
}

// Walk calls fn for every register write of buf in order until fn returns
// false or a command is truncated; it returns the number of bytes consumed
// and an error describing a truncated tail.
func Walk(buf []byte, fn func(w Write) bool) (int, error) {
	off := 0
	for off+8 <= len(buf) {
		p0 := binary.LittleEndian.Uint32(buf[off:])
		h := Header(binary.LittleEndian.Uint32(buf[off+4:]))
		size := 4 * h.Words()
		if off+size > len(buf) {
			return off, fmt.Errorf("command at %#x needs %d bytes, %d left", off, size, len(buf)-off)
		}
		for k := 0; k <= h.Extra(); k++ {
			v := p0
			if k > 0 {
				v = binary.LittleEndian.Uint32(buf[off+4+4*k:])
			}
			if !fn(Write{Offset: off, Param: k, Header: h, Reg: h.Target(k), Value: v}) {
				return off + size, nil
			}
		}
		off += size
	}
	if off != len(buf) {
		return off, fmt.Errorf("%d trailing bytes at %#x", len(buf)-off, off)
	}
	return off, nil
}

// Decode turns a command buffer into one text line per register write
// (plus one per pad word and a line for a truncated tail). Masked writes
// show the mask; registers IDs past 0x2FF are flagged. base is the device
// address of buf[0].
func Decode(buf []byte, base uint32) []string {
	var lines []string
	_, err := Walk(buf, func(w Write) bool {
		var at string
		if w.Param == 0 {
			at = fmt.Sprintf("%08x  %08x %08x", base+uint32(w.Offset), w.Value, uint32(w.Header))
		} else {
			at = fmt.Sprintf("%08x  %08x         ", base+uint32(w.Offset+4+4*w.Param), w.Value)
		}
		lines = append(lines, at+"  "+DescribeWrite(w.Reg, w.Header.Mask(), w.Value))
		if w.Param == w.Header.Extra() && w.Header.Extra()&1 != 0 {
			pad := w.Offset + 4*w.Header.Words() - 4
			lines = append(lines, fmt.Sprintf("%08x  %08x           pad", base+uint32(pad), binary.LittleEndian.Uint32(buf[pad:])))
		}
		return true
	})
	if err != nil {
		lines = append(lines, "error: "+err.Error())
	}
	return lines
}

// DescribeWrite renders one masked register write.
func DescribeWrite(id Reg, mask uint8, v uint32) string {
	if int(id) >= NumRegs {
		return fmt.Sprintf("INVALID_REG_%04X %#08x", uint16(id), v)
	}
	s := Describe(id, v)
	switch mask {
	case 0xF:
	case 0:
		s = "(mask 0: no effect) " + s
	default:
		s = fmt.Sprintf("(mask %#x) %s", mask, s)
	}
	return s
}
