package glamo

import (
	"fmt"
	"strings"

	"github.com/retrogl/retrogl/hal"
)

// Chip is the backend name of the Glamo3365.
const Chip = "glamo3365"

func init() { hal.RegisterDecoder(Chip, Disassemble) }

// DescribeValue renders a register value as its non-zero fields; enum
// fields are always shown.
func DescribeValue(r *Register, v uint32) string {
	var b strings.Builder
	for _, f := range r.Fields {
		x := f.Get(v)
		if x == 0 && f.Kind != Enum {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.Name)
		b.WriteByte('=')
		b.WriteString(FormatField(f, x))
	}
	if rest := v &^ r.Defined(); rest != 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "reserved=%#x", rest)
	}
	return b.String()
}

// Decoder turns a command buffer into text, one line per word. It keeps the
// low halves of 32-bit registers written so far, so the line of a high-half
// write shows the whole latched value.
type Decoder struct {
	low map[uint16]uint16
}

// NewDecoder returns a decoder with no low halves known.
func NewDecoder() *Decoder { return &Decoder{low: map[uint16]uint16{}} }

// Write returns the text of a value word written to register address addr.
func (d *Decoder) Write(addr, v uint16) string {
	r, high, ok := Lookup(addr)
	if !ok {
		return fmt.Sprintf("%04XH = %#04x (reserved register)", addr, v)
	}
	if !r.Wide {
		return fmt.Sprintf("%s = %#04x %s", r.Name, v, DescribeValue(r, uint32(v)))
	}
	if !high {
		d.low[r.Addr] = v
		return fmt.Sprintf("%s.lo = %#04x", r.Name, v)
	}
	lo, known := d.low[r.Addr]
	val := uint32(v)<<16 | uint32(lo)
	s := fmt.Sprintf("%s = %#08x %s", r.Name, val, DescribeValue(r, val))
	if !known {
		s += " (low half not written in this buffer)"
	}
	return strings.TrimRight(s, " ")
}

// Lines decodes buf (device address base) into one line per 16-bit word:
// "address  word  text".
func (d *Decoder) Lines(buf []byte, base uint32) []string {
	out := make([]string, 0, len(buf)/2+1)
	line := func(off int, text string) {
		out = append(out, fmt.Sprintf("%#08x  %04x  %s", base+uint32(off), Word16(buf, off), text))
	}
	off := 0
	n := len(buf) &^ 1
	for off < n {
		c, err := Parse(buf, off)
		if err != nil {
			line(off, "?? "+err.(*FrameError).Reason)
			for o := off + 2; o < n; o += 2 {
				line(o, "(not parsed)")
			}
			off = n
			break
		}
		switch c.Kind {
		case CmdPad:
			line(off, "PAD")
		case CmdNop:
			line(off, "NOP")
			line(off+2, "NOP")
		case CmdWrite:
			line(off, "WRITE "+regHalfName(c.Reg))
			line(c.Val, d.Write(c.Reg, Word16(buf, c.Val)))
		case CmdBurst:
			line(off, fmt.Sprintf("BURST %s n=%d", regHalfName(c.Reg), c.N))
			line(off+2, fmt.Sprintf("count %d", c.N))
			for i := 0; i < c.N; i++ {
				line(c.Val+2*i, d.Write(c.Reg+2*uint16(i), Word16(buf, c.Val+2*i)))
			}
		}
		off = c.Next
	}
	if len(buf)%2 != 0 {
		out = append(out, fmt.Sprintf("%#08x  %02x    (trailing byte)", base+uint32(len(buf)-1), buf[len(buf)-1]))
	}
	return out
}

func regHalfName(addr uint16) string {
	r, high, ok := Lookup(addr)
	switch {
	case !ok:
		return fmt.Sprintf("%04XH (reserved)", addr)
	case !r.Wide:
		return r.Name
	case high:
		return r.Name + ".hi"
	}
	return r.Name + ".lo"
}

// Disassemble is the hal.Decoder of the Glamo3365.
func Disassemble(buf []byte, base uint32) []string { return NewDecoder().Lines(buf, base) }

// LineAt returns the decoder's text for the word at byte offset off of buf
// (without address and word), for fault messages.
func LineAt(buf []byte, off int) string {
	lines := NewDecoder().Lines(buf, 0)
	i := off / 2
	if i < 0 || i >= len(lines) {
		return ""
	}
	if parts := strings.SplitN(lines[i], "  ", 3); len(parts) == 3 {
		return parts[2]
	}
	return lines[i]
}
