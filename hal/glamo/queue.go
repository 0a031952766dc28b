package glamo

import (
	"encoding/binary"
	"fmt"
)

// CmdKind is the kind of one command of the queue.
type CmdKind uint8

// The command kinds of the framing (see the package doc).
const (
	CmdNop   CmdKind = iota // [0000h, x]: nothing
	CmdWrite                // [reg, value]
	CmdBurst                // [8000h|reg, n, v0 .. vn-1]
	CmdPad                  // a single trailing 0000h word that evens the buffer
)

// Cmd is one parsed command. Offsets are in bytes from the start of the
// buffer.
type Cmd struct {
	Kind CmdKind
	Off  int    // the header word
	Reg  uint16 // first register written
	N    int    // number of 16-bit values
	Val  int    // offset of the first value word
	Next int    // offset of the next command
}

// FrameError is a malformed command: where, the word there and why.
type FrameError struct {
	Off    int
	Word   uint16
	Reason string
}

// Error implements error.
func (e *FrameError) Error() string {
	return fmt.Sprintf("offset %#x, word %#04x: %s", e.Off, e.Word, e.Reason)
}

// BurstBit marks a burst header.
const BurstBit = 0x8000

// Word16 reads the little-endian word at off.
func Word16(buf []byte, off int) uint16 { return binary.LittleEndian.Uint16(buf[off:]) }

// Parse reads the command at byte offset off of buf. It checks the framing
// and that every register written lies in the 3D block at an even address;
// whether the register exists is the caller's business (Lookup).
func Parse(buf []byte, off int) (Cmd, error) {
	n := len(buf) &^ 1
	if off+2 > n {
		return Cmd{}, &FrameError{Off: off, Reason: "no command here"}
	}
	h := Word16(buf, off)
	if off+2 == n {
		if h == 0 {
			return Cmd{Kind: CmdPad, Off: off, Next: off + 2}, nil
		}
		return Cmd{}, &FrameError{Off: off, Word: h, Reason: "truncated command: header without a value word"}
	}
	if h == 0 {
		return Cmd{Kind: CmdNop, Off: off, Val: off + 2, N: 1, Next: off + 4}, nil
	}
	reg := h &^ BurstBit
	if reg%2 != 0 {
		return Cmd{}, &FrameError{Off: off, Word: h, Reason: fmt.Sprintf("register address %#04x is odd", reg)}
	}
	if reg < BlockStart || reg >= BlockEnd {
		return Cmd{}, &FrameError{Off: off, Word: h, Reason: fmt.Sprintf("register %#04x outside the 3D block 1B00h-2EFFh", reg)}
	}
	if h&BurstBit == 0 {
		return Cmd{Kind: CmdWrite, Off: off, Reg: reg, N: 1, Val: off + 2, Next: off + 4}, nil
	}
	cnt := int(Word16(buf, off+2))
	if off+4+2*cnt > n {
		return Cmd{}, &FrameError{Off: off, Word: h, Reason: fmt.Sprintf("burst of %d words runs past the end of the buffer", cnt)}
	}
	if int(reg)+2*cnt > BlockEnd {
		return Cmd{}, &FrameError{Off: off, Word: h, Reason: fmt.Sprintf("burst of %d registers from %#04x runs past 2EFFh", cnt, reg)}
	}
	return Cmd{Kind: CmdBurst, Off: off, Reg: reg, N: cnt, Val: off + 4, Next: off + 4 + 2*cnt}, nil
}

// Builder builds a command buffer. Register writes name registers by
// address; the Set methods pack named fields from the table.
type Builder struct {
	words []uint16
}

// Reset empties the builder, keeping its storage.
func (b *Builder) Reset() { b.words = b.words[:0] }

// Len returns the number of words so far.
func (b *Builder) Len() int { return len(b.words) }

// Write16 writes one 16-bit register.
func (b *Builder) Write16(reg uint16, v uint16) { b.words = append(b.words, reg, v) }

// Write32 writes a 32-bit register: a burst of its low then high half, so
// the value latches as one (the latch rule of the package doc).
func (b *Builder) Write32(reg uint16, v uint32) {
	b.words = append(b.words, BurstBit|reg, 2, uint16(v), uint16(v>>16))
}

// Burst writes consecutive 16-bit registers from reg.
func (b *Builder) Burst(reg uint16, vals ...uint16) {
	if len(vals) == 0 {
		return
	}
	b.words = append(b.words, BurstBit|reg, uint16(len(vals)))
	b.words = append(b.words, vals...)
}

// Burst32 writes consecutive 32-bit registers from reg (matrices, lights).
func (b *Builder) Burst32(reg uint16, vals ...uint32) {
	if len(vals) == 0 {
		return
	}
	b.words = append(b.words, BurstBit|reg, uint16(2*len(vals)))
	for _, v := range vals {
		b.words = append(b.words, uint16(v), uint16(v>>16))
	}
}

// Nop appends a NOP.
func (b *Builder) Nop() { b.words = append(b.words, 0, 0) }

// Words returns the words so far (aliasing the builder's storage).
func (b *Builder) Words() []uint16 { return b.words }

// Bytes returns the buffer as little-endian bytes, padded to a multiple of
// four bytes with a single zero word when needed.
func (b *Builder) Bytes() []byte {
	n := len(b.words)
	if n%2 != 0 {
		n++
	}
	out := make([]byte, 2*n)
	for i, w := range b.words {
		binary.LittleEndian.PutUint16(out[2*i:], w)
	}
	return out
}

// Pack builds the value of a register from named fields: Pack("EGZCfg",
// "TEST", 3, "PITCH", 240). Values are ints, uint32s, bools or enum names.
// An unknown register, field or enum name panics: it is a programming error.
func Pack(reg string, kv ...any) uint32 {
	r := ByName(reg)
	var v uint32
	for i := 0; i+1 < len(kv); i += 2 {
		name := kv[i].(string)
		f := r.MustField(name)
		var x uint32
		switch t := kv[i+1].(type) {
		case int:
			x = uint32(t)
		case uint32:
			x = t
		case uint16:
			x = uint32(t)
		case uint8:
			x = uint32(t)
		case bool:
			if t {
				x = 1
			}
		case string:
			idx := -1
			for j, e := range f.Enum {
				if e == t {
					idx = j
					break
				}
			}
			if idx < 0 {
				panic(fmt.Sprintf("glamo: %s.%s has no value %q", reg, name, t))
			}
			x = uint32(idx)
		default:
			panic(fmt.Sprintf("glamo: field value of type %T", t))
		}
		if f.Kind == Addr2 {
			x >>= f.Lo // an Addr2 field takes the byte address
		}
		v |= f.Put(x)
	}
	return v
}

// Set writes a register (16 or 32 bits) with the value Pack builds.
func (b *Builder) Set(reg string, kv ...any) {
	b.SetValue(reg, Pack(reg, kv...))
}

// SetValue writes a whole register value by name.
func (b *Builder) SetValue(reg string, v uint32) {
	r := ByName(reg)
	if r.Wide {
		b.Write32(r.Addr, v)
	} else {
		b.Write16(r.Addr, uint16(v))
	}
}
