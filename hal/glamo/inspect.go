package glamo

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"

	"github.com/retrogl/retrogl/hal"
)

func init() { hal.RegisterInspector(Chip, func() hal.Inspector { return NewInspector() }) }

// Inspector follows the 3D engine's registers through command buffers
// (hal.Inspector). The draw boundaries come from the register table's
// Effect column: an immediate primitive starts at the first write with
// EffFire (EGFIRE, one vertex) and ends at one with EffEnd or EffParserEnd
// (EGEND, EGPASEND); a write with EffModeFire (MGBufCMSFire) draws a whole
// vertex list by itself.
type Inspector struct {
	// regs holds the 16-bit halves by (address - BlockStart) / 2, as
	// written; a wide register's value is its two halves.
	regs    [(BlockEnd - BlockStart) / 2]uint16
	written [(BlockEnd - BlockStart) / 2]bool
	inPrim  bool
}

// NewInspector returns an inspector with every register zero.
func NewInspector() *Inspector { return &Inspector{} }

func (in *Inspector) set(addr, v uint16) {
	i := (addr - BlockStart) / 2
	in.regs[i], in.written[i] = v, true
}

// Reg returns the value of the register whose low half is at addr (both
// halves for a wide register).
func (in *Inspector) Reg(addr uint16) uint32 {
	i := (addr - BlockStart) / 2
	v := uint32(in.regs[i])
	if r, _, ok := Lookup(addr); ok && r.Wide && int(i)+1 < len(in.regs) {
		v |= uint32(in.regs[i+1]) << 16
	}
	return v
}

// Walk implements hal.Inspector: one command per queue frame (a write, a
// burst, a NOP or the pad word), with the decoder's lines.
func (in *Inspector) Walk(buf []byte, base uint32, fn func(hal.Command) bool) {
	dec := NewDecoder()
	line := func(off int, text string) string {
		return fmt.Sprintf("%#08x  %04x  %s", base+uint32(off), Word16(buf, off), text)
	}
	n := len(buf) &^ 1
	off := 0
	for off < n {
		c, err := Parse(buf, off)
		if err != nil {
			lines := []string{line(off, "?? "+err.(*FrameError).Reason)}
			for o := off + 2; o < n; o += 2 {
				lines = append(lines, line(o, "(not parsed)"))
			}
			if len(buf)%2 != 0 {
				lines = append(lines, fmt.Sprintf("%#08x  %02x    (trailing byte)", base+uint32(len(buf)-1), buf[len(buf)-1]))
			}
			fn(hal.Command{Offset: uint32(off), Size: uint32(len(buf) - off), Lines: lines})
			return
		}
		cmd := hal.Command{Offset: uint32(off), Size: uint32(c.Next - off)}
		switch c.Kind {
		case CmdPad:
			cmd.Lines = []string{line(off, "PAD")}
		case CmdNop:
			cmd.Lines = []string{line(off, "NOP"), line(off+2, "NOP")}
		case CmdWrite:
			v := Word16(buf, c.Val)
			cmd.Lines = []string{line(off, "WRITE "+regHalfName(c.Reg)), line(c.Val, dec.Write(c.Reg, v))}
			cmd.Draw = in.write(c.Reg, v)
		case CmdBurst:
			cmd.Lines = []string{line(off, fmt.Sprintf("BURST %s n=%d", regHalfName(c.Reg), c.N)), line(off+2, fmt.Sprintf("count %d", c.N))}
			for i := 0; i < c.N; i++ {
				reg, v := c.Reg+2*uint16(i), Word16(buf, c.Val+2*i)
				cmd.Lines = append(cmd.Lines, line(c.Val+2*i, dec.Write(reg, v)))
				cmd.Draw |= in.write(reg, v)
			}
		}
		off = c.Next
		if off >= n && len(buf)%2 != 0 {
			cmd.Lines = append(cmd.Lines, fmt.Sprintf("%#08x  %02x    (trailing byte)", base+uint32(len(buf)-1), buf[len(buf)-1]))
		}
		if !fn(cmd) {
			return
		}
	}
	if n == 0 && len(buf)%2 != 0 {
		fn(hal.Command{Lines: []string{fmt.Sprintf("%#08x  %02x    (trailing byte)", base+uint32(len(buf)-1), buf[len(buf)-1])}})
	}
}

// write applies one 16-bit register write and returns its draw marks.
func (in *Inspector) write(addr, v uint16) hal.DrawMark {
	in.set(addr, v)
	r, _, ok := Lookup(addr)
	if !ok {
		return 0
	}
	switch r.Effect {
	case EffModeFire:
		// A list fire draws the whole list at once (sim/glamo modeFire).
		in.inPrim = false
		return hal.DrawBegin | hal.DrawEnd
	case EffFire:
		if !in.inPrim {
			in.inPrim = true
			return hal.DrawBegin
		}
	case EffEnd, EffParserEnd:
		if in.inPrim {
			in.inPrim = false
			return hal.DrawEnd
		}
	}
	return 0
}

// Registers implements hal.Inspector: every register written, decoded
// (palette entries are left out: they show in the texture they colour).
func (in *Inspector) Registers() []hal.RegisterValue {
	var out []hal.RegisterValue
	for _, r := range Registers() {
		if r.Effect == EffPalette0 || r.Effect == EffPalette1 {
			continue
		}
		i := (r.Addr - BlockStart) / 2
		if !in.written[i] && !(r.Wide && in.written[i+1]) {
			continue
		}
		v := in.Reg(r.Addr)
		out = append(out, hal.RegisterValue{Name: r.Name, Addr: uint32(r.Addr), Value: v, Text: DescribeValue(r, v)})
	}
	return out
}

// Programs implements hal.Inspector: the Glamo has no shader programs.
func (in *Inspector) Programs() []hal.Program { return nil }

// Chan is one channel of a pixel or texel layout: Bits bits at Shift.
type Chan struct{ Shift, Bits uint8 }

// TexelLayout is the bit layout of a texture format (EGTXnFM) or a colour
// buffer format (EGDST0CFM): R, G, B, A channels (an absent channel has 0
// bits); Lum formats hold L in channel 0 (replicated to R, G, B), Int
// formats I (replicated to R, G, B, A).
type TexelLayout struct {
	Bits     int
	Ch       [4]Chan
	Lum, Int bool
}

func ch(shift, bits uint8) Chan { return Chan{shift, bits} }

// TexelLayouts gives every implemented texel format its bits (L3081-3174,
// the seed writing layouts MSB first, some damaged: "RGB332 (RRRGGBB)" is
// R3 G3 B2). Paletted formats are resolved through PaletteFormat. The same
// table as sim/glamo's (a test there checks that they agree).
var TexelLayouts = map[uint8]TexelLayout{
	0x12: {Bits: 4, Ch: [4]Chan{ch(0, 4)}, Int: true},
	0x13: {Bits: 8, Ch: [4]Chan{ch(0, 8)}, Int: true},
	0x32: {Bits: 4, Ch: [4]Chan{ch(0, 4)}, Lum: true},
	0x33: {Bits: 8, Ch: [4]Chan{ch(0, 8)}, Lum: true},
	0x35: {Bits: 8, Ch: [4]Chan{ch(0, 4), {}, {}, ch(4, 4)}, Lum: true},
	0x37: {Bits: 8, Ch: [4]Chan{ch(0, 6), {}, {}, ch(6, 2)}, Lum: true},
	0x38: {Bits: 16, Ch: [4]Chan{ch(0, 8), {}, {}, ch(8, 8)}, Lum: true},
	0xB5: {Bits: 8, Ch: [4]Chan{ch(4, 4), {}, {}, ch(0, 4)}, Lum: true},
	0xB7: {Bits: 8, Ch: [4]Chan{ch(2, 6), {}, {}, ch(0, 2)}, Lum: true},
	0xB8: {Bits: 16, Ch: [4]Chan{ch(8, 8), {}, {}, ch(0, 8)}, Lum: true},
	0x42: {Bits: 4, Ch: [4]Chan{{}, {}, {}, ch(0, 4)}},
	0x43: {Bits: 8, Ch: [4]Chan{{}, {}, {}, ch(0, 8)}},
	0x50: {Bits: 8, Ch: [4]Chan{ch(5, 3), ch(2, 3), ch(0, 2)}},
	0x51: {Bits: 8, Ch: [4]Chan{ch(6, 2), ch(3, 3), ch(0, 3)}},
	0x52: {Bits: 8, Ch: [4]Chan{ch(5, 3), ch(3, 2), ch(0, 3)}},
	0x53: {Bits: 8, Ch: [4]Chan{ch(5, 2), ch(2, 3), ch(0, 2), ch(7, 1)}},
	0x54: {Bits: 8, Ch: [4]Chan{ch(4, 2), ch(2, 2), ch(0, 2), ch(6, 2)}},
	0xD0: {Bits: 8, Ch: [4]Chan{ch(0, 2), ch(2, 3), ch(5, 3)}},
	0xD1: {Bits: 8, Ch: [4]Chan{ch(0, 3), ch(3, 3), ch(6, 2)}},
	0xD2: {Bits: 8, Ch: [4]Chan{ch(0, 3), ch(3, 2), ch(5, 3)}},
	0xD3: {Bits: 8, Ch: [4]Chan{ch(6, 2), ch(3, 3), ch(1, 2), ch(0, 1)}},
	0xD4: {Bits: 8, Ch: [4]Chan{ch(6, 2), ch(4, 2), ch(2, 2), ch(0, 2)}},
	0xD5: {Bits: 8, Ch: [4]Chan{ch(0, 2), ch(2, 3), ch(5, 2), ch(7, 1)}},
	0xD6: {Bits: 8, Ch: [4]Chan{ch(0, 2), ch(2, 2), ch(4, 2), ch(6, 2)}},
	0x60: {Bits: 16, Ch: [4]Chan{ch(10, 5), ch(5, 5), ch(0, 5)}},
	0x61: {Bits: 16, Ch: [4]Chan{ch(11, 5), ch(5, 6), ch(0, 5)}},
	0x62: {Bits: 16, Ch: [4]Chan{ch(10, 5), ch(5, 5), ch(0, 5), ch(15, 1)}},
	0x63: {Bits: 16, Ch: [4]Chan{ch(8, 4), ch(4, 4), ch(0, 4), ch(12, 4)}},
	0xE0: {Bits: 16, Ch: [4]Chan{ch(0, 5), ch(5, 5), ch(10, 5)}},
	0xE1: {Bits: 16, Ch: [4]Chan{ch(0, 5), ch(5, 6), ch(11, 5)}},
	0xE2: {Bits: 16, Ch: [4]Chan{ch(11, 5), ch(6, 5), ch(1, 5), ch(0, 1)}},
	0xE3: {Bits: 16, Ch: [4]Chan{ch(12, 4), ch(8, 4), ch(4, 4), ch(0, 4)}},
	0xE4: {Bits: 16, Ch: [4]Chan{ch(0, 5), ch(5, 5), ch(10, 5), ch(15, 1)}},
	0xE5: {Bits: 16, Ch: [4]Chan{ch(0, 4), ch(4, 4), ch(8, 4), ch(12, 4)}},
}

// ColorLayouts gives the colour-buffer formats (EGDST0CFM, L2667-2708)
// their bits; only 16-bit formats exist.
var ColorLayouts = map[uint32]TexelLayout{
	0x10: {Bits: 16, Ch: [4]Chan{ch(10, 5), ch(5, 5), ch(0, 5)}},
	0x11: {Bits: 16, Ch: [4]Chan{ch(11, 5), ch(5, 6), ch(0, 5)}},
	0x12: {Bits: 16, Ch: [4]Chan{ch(10, 5), ch(5, 5), ch(0, 5), ch(15, 1)}},
	0x13: {Bits: 16, Ch: [4]Chan{ch(8, 4), ch(4, 4), ch(0, 4), ch(12, 4)}},
	0x50: {Bits: 16, Ch: [4]Chan{ch(0, 5), ch(5, 5), ch(10, 5)}},
	0x51: {Bits: 16, Ch: [4]Chan{ch(0, 5), ch(5, 6), ch(11, 5)}},
	0x52: {Bits: 16, Ch: [4]Chan{ch(0, 5), ch(5, 5), ch(10, 5), ch(15, 1)}},
	0x53: {Bits: 16, Ch: [4]Chan{ch(0, 4), ch(4, 4), ch(8, 4), ch(12, 4)}},
}

// PaletteFormat returns the 16-bit format of a paletted format's entries
// and its index size in bits: Index4 codes 00-03 and 80-85, Index8 codes
// 08-0B and 88-8D (P4).
func PaletteFormat(f uint8) (entry uint8, bits int, ok bool) {
	sub := f & 7
	bits = 4
	if f&8 != 0 {
		bits = 8
	}
	if f&0x70 != 0 {
		return 0, 0, false
	}
	if f&0x80 == 0 {
		if sub > 3 {
			return 0, 0, false
		}
		return 0x60 + sub, bits, true
	}
	if sub > 5 {
		return 0, 0, false
	}
	return 0xE0 + sub, bits, true
}

// Decode converts a raw texel or pixel to 8-bit RGBA (channels widened by
// rounding, v * 255 / (2^bits - 1); an absent alpha is opaque).
func (l TexelLayout) Decode(raw uint32) color.NRGBA {
	get := func(k int) (uint8, bool) {
		c := l.Ch[k]
		if c.Bits == 0 {
			return 0, false
		}
		m := uint32(1)<<c.Bits - 1
		return uint8((raw>>c.Shift&m*255 + m/2) / m), true
	}
	var out [4]uint8
	switch {
	case l.Int:
		v, _ := get(0)
		return color.NRGBA{v, v, v, v}
	case l.Lum:
		v, _ := get(0)
		out = [4]uint8{v, v, v, 255}
	default:
		for k := 0; k < 3; k++ {
			out[k], _ = get(k)
		}
		out[3] = 255
	}
	if a, ok := get(3); ok {
		out[3] = a
	}
	return color.NRGBA{out[0], out[1], out[2], out[3]}
}

// Surfaces implements hal.Inspector: the colour buffer (EGDST0BAS,
// EGDst0Cfg), the Z buffer (EGZBAS, EGZCfg), the stencil buffer (EGStBAS,
// EGStCfg, EGStOps: a byte per pixel of which the low 1-8 bits count) and
// the enabled texture units' level 0. The drawing area is the scissor
// (EGCLLR, EGCLTB), as in the simulator.
func (in *Inspector) Surfaces() []hal.Surface {
	var out []hal.Surface
	s9 := func(v uint32) int { return int(int32(v<<22) >> 22) }
	w, h := s9(in.Reg(0x2168))+1, s9(in.Reg(0x2164))+1
	if w <= 0 || h <= 0 {
		return nil
	}
	dst := in.Reg(0x2120)
	if l, ok := ColorLayouts[dst>>16&0x7F]; ok {
		base, pitch := in.Reg(0x2128)&0x7FFFFE, (dst&0x3FF)*2
		out = append(out, hal.Surface{Kind: hal.SurfaceColor, Name: "colour buffer", Addr: base, Width: w, Height: h,
			Format: enums["cfmt"][dst>>16&0x7F], Info: fmt.Sprintf("pitch %d bytes", pitch),
			Pixel: func(x, y int) (uint32, int, uint) { return base + uint32(y)*pitch + 2*uint32(x), 2, 0 },
			Mask:  0xFFFF, Color: func(v uint32) color.NRGBA { c := l.Decode(v); c.A = 255; return c }})
	}
	zc := in.Reg(0x2108)
	if pitch := (zc & 0x3FF) * 2; pitch > 0 {
		base := in.Reg(0x2110) & 0x7FFFFE
		name := enums["zfmt"][zc>>20&0x7F]
		if name == "" {
			name = fmt.Sprintf("RESERVED(%d)", zc>>20&0x7F)
		}
		out = append(out, hal.Surface{Kind: hal.SurfaceDepth, Name: "Z buffer", Addr: base, Width: w, Height: h,
			Format: name, Info: fmt.Sprintf("pitch %d bytes; the stored 16-bit word", pitch),
			Pixel: func(x, y int) (uint32, int, uint) { return base + uint32(y)*pitch + 2*uint32(x), 2, 0 }, Mask: 0xFFFF})
	}
	sc, so := in.Reg(0x2150), in.Reg(0x2154)
	if pitch := (so & 0x3FF) * 2; pitch > 0 {
		base := in.Reg(0x2158) & 0x7FFFFE
		bits := []uint32{1, 2, 4, 8}[sc>>28&3]
		out = append(out, hal.Surface{Kind: hal.SurfaceStencil, Name: "stencil buffer", Addr: base, Width: w, Height: h,
			Format: fmt.Sprintf("S%d", bits), Info: fmt.Sprintf("pitch %d bytes, one byte per pixel", pitch),
			Pixel: func(x, y int) (uint32, int, uint) { return base + uint32(y)*pitch + uint32(x), 1, 0 }, Mask: 1<<bits - 1})
	}
	en0 := in.Reg(0x2100)
	if en0>>10&1 != 0 {
		for u := 0; u < int(min(en0>>12&7, 2)); u++ {
			if s, ok := in.texture(u); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// texture describes level 0 of texture unit u (21A0h / 2200h), decoded
// with its palette when the format is indexed.
func (in *Inspector) texture(u int) (hal.Surface, bool) {
	b := TexUnitBase(u)
	cfg, size := in.Reg(b), in.Reg(b+8)
	code := uint8(cfg >> 24)
	w, h := int(size>>12&0x1FF), int(size&0x1FF)
	if w == 0 || h == 0 {
		return hal.Surface{}, false
	}
	base := in.Reg(b+0x18) & 0x7FFFFE
	pr := in.Reg(b + 0x48)
	pitch := (pr & 0xFF) << (pr >> 8 & 15)
	entry, ibits, paletted := PaletteFormat(code)
	lay, ok := TexelLayouts[code]
	bits := lay.Bits
	if paletted {
		lay, ok, bits = TexelLayouts[entry], true, ibits
	}
	if !ok {
		return hal.Surface{}, false
	}
	name := TexFormatNames[code]
	var pal [256]color.NRGBA
	if paletted {
		pbase := uint16(Palette0)
		if u == 1 {
			pbase = Palette1
		}
		for i := range pal {
			pal[i] = lay.Decode(uint32(in.regs[(pbase+2*uint16(i)-BlockStart)/2]))
		}
	}
	s := hal.Surface{Kind: hal.SurfaceTexture, Name: fmt.Sprintf("texture unit %d", u), Addr: base, Width: w, Height: h,
		Format: name, Info: fmt.Sprintf("level 0, pitch %d bytes", pitch)}
	if paletted {
		s.Info += ", palette as last written"
	}
	s.Decode = func(read func(uint32, []byte) error) (*hal.Picture, error) {
		n := uint64(pitch)*uint64(h-1) + (uint64(w)*uint64(bits)+7)/8
		if n > 16<<20 {
			return nil, fmt.Errorf("texture: %d bytes", n)
		}
		data := make([]byte, n)
		if err := read(base, data); err != nil {
			return nil, fmt.Errorf("texture at %#08x: %w", base, err)
		}
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			row := data[uint32(y)*pitch:]
			for x := 0; x < w; x++ {
				var raw uint32
				switch bits {
				case 16:
					raw = uint32(binary.LittleEndian.Uint16(row[2*x:]))
				case 8:
					raw = uint32(row[x])
				default: // 4 bits: texel 0 in the high nibble (P14)
					raw = uint32(row[x>>1])
					if x&1 == 0 {
						raw >>= 4
					}
					raw &= 15
				}
				if paletted {
					img.SetNRGBA(x, y, pal[raw&0xFF])
				} else {
					img.SetNRGBA(x, y, lay.Decode(raw))
				}
			}
		}
		return &hal.Picture{Image: img}, nil
	}
	return s, true
}
