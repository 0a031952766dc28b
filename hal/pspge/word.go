package pspge

import (
	"fmt"
	"math"
	"strings"

	"github.com/retrogl/retrogl/hal"
)

// F24 encodes a float32 as a GE float: the float32 bits shifted down by 8,
// truncating the mantissa toward zero (seed L8-12; pspsdk sendCommandf does
// the same). NaN payloads shorter than 8 bits become infinity.
func F24(f float32) uint32 { return math.Float32bits(f) >> 8 }

// FromF24 decodes a GE float.
func FromF24(v uint32) float32 { return math.Float32frombits(v << 8) }

// Word builds a command word.
func Word(op Op, arg uint32) uint32 { return uint32(op)<<24 | arg&0xFFFFFF }

// WordF builds a command word whose argument is a float24.
func WordF(op Op, f float32) uint32 { return Word(op, F24(f)) }

// Fields builds a command word from named field values; it panics on an
// unknown field name, which is a programming error in the driver.
func Fields(op Op, kv ...any) uint32 {
	c := Table[op]
	if c == nil {
		panic(fmt.Sprintf("pspge: undefined opcode %#02x", uint8(op)))
	}
	var arg uint32
	for i := 0; i+1 < len(kv); i += 2 {
		name := kv[i].(string)
		f, ok := c.Field(name)
		if !ok {
			panic(fmt.Sprintf("pspge: %s has no field %q", c.Name, name))
		}
		var v uint32
		switch x := kv[i+1].(type) {
		case int:
			v = uint32(x)
		case uint32:
			v = x
		case bool:
			if x {
				v = 1
			}
		case string:
			idx := -1
			for j, e := range f.Enum {
				if e == x {
					idx = j
				}
			}
			if idx < 0 {
				panic(fmt.Sprintf("pspge: %s.%s has no value %q", c.Name, name, x))
			}
			v = uint32(idx)
		default:
			panic(fmt.Sprintf("pspge: field value of type %T", x))
		}
		if f.Kind == Count {
			v--
		}
		arg |= f.Put(v)
	}
	return Word(op, arg)
}

// Vertex component formats of VTYPE (seed L101-138).
const (
	FmtNone  = 0
	Fmt8     = 1
	Fmt16    = 2
	FmtFloat = 3
)

// Vertex colour formats of VTYPE.
const (
	Color5650 = 4
	Color5551 = 5
	Color4444 = 6
	Color8888 = 7
)

// VType describes a vertex format.
type VType struct {
	TexCoord, Color, Normal, Pos, Weight, Index int
	Weights, Morphs                             int // counts, 1-8
	Through                                     bool
}

// Word encodes the VTYPE command.
func (v VType) Word() uint32 {
	w := uint32(v.TexCoord&3) | uint32(v.Color&7)<<2 | uint32(v.Normal&3)<<5 | uint32(v.Pos&3)<<7 |
		uint32(v.Weight&3)<<9 | uint32(v.Index&3)<<11
	if v.Weights > 0 {
		w |= uint32(v.Weights-1&7) << 14
	}
	if v.Morphs > 0 {
		w |= uint32(v.Morphs-1&7) << 18
	}
	if v.Through {
		w |= 1 << 23
	}
	return Word(VTYPE, w)
}

// ParseVType decodes a VTYPE argument.
func ParseVType(arg uint32) VType {
	return VType{
		TexCoord: int(arg & 3), Color: int(arg >> 2 & 7), Normal: int(arg >> 5 & 3), Pos: int(arg >> 7 & 3),
		Weight: int(arg >> 9 & 3), Index: int(arg >> 11 & 3),
		Weights: int(arg>>14&7) + 1, Morphs: int(arg>>18&7) + 1, Through: arg>>23&1 != 0,
	}
}

// Layout is the byte layout of one vertex of a VType, as PPSSPP's vertex
// decoder and the pspsdk documentation give it [OUT]: per morph target,
// weights, texture coordinates, colour, normal, position, each element
// aligned to its own component size; the vertex size is rounded up to the
// largest component size.
type Layout struct {
	Size                                    int // bytes per vertex, all morph targets
	MorphSize                               int // bytes per morph target
	WeightOff, TexOff, ColorOff, NormalOff  int
	PosOff                                  int
	WeightSize, TexSize, ColorSize, NrmSize int // component sizes
	PosSize                                 int
}

var numSize = [4]int{0, 1, 2, 4}

// Layout computes the vertex layout.
func (v VType) Layout() Layout {
	var l Layout
	off, maxAlign := 0, 1
	align := func(n int) {
		if n > maxAlign {
			maxAlign = n
		}
		off = (off + n - 1) / n * n
	}
	if v.Weight != FmtNone {
		l.WeightSize = numSize[v.Weight]
		align(l.WeightSize)
		l.WeightOff = off
		off += l.WeightSize * max(v.Weights, 1)
	}
	if v.TexCoord != FmtNone {
		l.TexSize = numSize[v.TexCoord]
		align(l.TexSize)
		l.TexOff = off
		off += 2 * l.TexSize
	}
	if v.Color != FmtNone {
		if v.Color == Color8888 {
			l.ColorSize = 4
		} else {
			l.ColorSize = 2
		}
		align(l.ColorSize)
		l.ColorOff = off
		off += l.ColorSize
	}
	if v.Normal != FmtNone {
		l.NrmSize = numSize[v.Normal]
		align(l.NrmSize)
		l.NormalOff = off
		off += 3 * l.NrmSize
	}
	if v.Pos != FmtNone {
		l.PosSize = numSize[v.Pos]
		align(l.PosSize)
		l.PosOff = off
		off += 3 * l.PosSize
	}
	off = (off + maxAlign - 1) / maxAlign * maxAlign
	l.MorphSize = off
	l.Size = off * max(v.Morphs, 1)
	return l
}

// Addr splits a 28-bit address into the BASE word and the low 24 bits for a
// BASE-relative command (guide §6 fact 6).
func Addr(addr uint32) (base uint32, low uint32) {
	return Word(BASE, addr>>8&0x0F0000), addr & 0xFFFFFF
}

// RGB packs an 8-bit colour into a colour register argument (R in bits 0-7).
func RGB(r, g, b uint8) uint32 { return uint32(r) | uint32(g)<<8 | uint32(b)<<16 }

// Decode returns the text of one command word: the name and its fields.
func Decode(w uint32) string {
	op := Op(w >> 24)
	arg := w & 0xFFFFFF
	c := Table[op]
	if c == nil {
		return fmt.Sprintf("OP_%02X %#06x (undefined)", uint8(op), arg)
	}
	var b strings.Builder
	b.WriteString(c.Name)
	for _, f := range c.Fields {
		v := f.Get(arg)
		b.WriteByte(' ')
		switch f.Kind {
		case Float24:
			fmt.Fprintf(&b, "%g", FromF24(v))
			continue
		}
		b.WriteString(f.Name)
		b.WriteByte('=')
		switch f.Kind {
		case Enum:
			if int(v) < len(f.Enum) {
				b.WriteString(f.Enum[v])
			} else {
				fmt.Fprintf(&b, "%d", v)
			}
		case Sint:
			bits := f.Hi - f.Lo + 1
			s := int32(v<<(32-bits)) >> (32 - bits)
			fmt.Fprintf(&b, "%d", s)
		case Hex:
			fmt.Fprintf(&b, "%#x", v)
		case Count:
			fmt.Fprintf(&b, "%d", v+1)
		default:
			fmt.Fprintf(&b, "%d", v)
		}
	}
	if op == SIGNAL {
		if name, ok := EnumSignal[arg>>16&0xFF]; ok {
			b.WriteString(" (" + name + ")")
		}
	}
	return b.String()
}

// Disassemble decodes a byte buffer of little-endian words starting at
// device address base: one line per word, "address  word  text".
func Disassemble(buf []byte, base uint32) []string {
	out := make([]string, 0, len(buf)/4)
	for i := 0; i+4 <= len(buf); i += 4 {
		w := uint32(buf[i]) | uint32(buf[i+1])<<8 | uint32(buf[i+2])<<16 | uint32(buf[i+3])<<24
		out = append(out, fmt.Sprintf("%#08x  %08x  %s", base+uint32(i), w, Decode(w)))
	}
	if len(buf)%4 != 0 {
		out = append(out, fmt.Sprintf("%#08x  (%d trailing bytes)", base+uint32(len(buf)&^3), len(buf)%4))
	}
	return out
}

func init() {
	hal.RegisterDecoder("pspge", Disassemble)
}
