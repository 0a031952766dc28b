package unichrome

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"

	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/internal/texblock"
)

func init() { hal.RegisterInspector("unichrome", func() hal.Inspector { return &Inspector{} }) }

// Inspector follows the 3D engine's register files through command lists
// (hal.Inspector), reading each buffer with a fresh Walker as the decoder
// does. The draw boundaries come from the walker's tokens: a Command A
// that opens a list (Token.ListStart) starts a primitive, one with HPLEND
// (Token.ListEnd) ends it.
type Inspector struct {
	regs    [numSpaces][2][256]uint32 // [space][texture file][sub-address]
	written [numSpaces][2][256]bool
	pal     [256]uint32 // texture palette, ARGB8888
	palSet  bool
	inList  bool
}

// Walk implements hal.Inspector: one command per dword, with the
// decoder's line.
func (in *Inspector) Walk(buf []byte, base uint32, fn func(hal.Command) bool) {
	w := NewWalker()
	for i := 0; i+4 <= len(buf); i += 4 {
		x := binary.LittleEndian.Uint32(buf[i:])
		t := w.Next(x)
		c := hal.Command{Offset: uint32(i), Size: 4,
			Lines: []string{fmt.Sprintf("%#08x  %08x  %s", base+uint32(i), x, Describe(t))}}
		c.Draw = in.apply(t)
		if i+8 > len(buf) {
			if len(buf)%4 != 0 {
				c.Lines = append(c.Lines, fmt.Sprintf("%#08x  (%d trailing bytes)", base+uint32(len(buf)&^3), len(buf)%4))
			} else if t, ok := w.End(); !ok {
				c.Lines = append(c.Lines, fmt.Sprintf("%#08x  (end)  ?? %s", base+uint32(len(buf)), t.Reason))
			}
		}
		if !fn(c) {
			return
		}
	}
	if len(buf) < 4 {
		c := hal.Command{}
		if len(buf)%4 != 0 {
			c.Lines = []string{fmt.Sprintf("%#08x  (%d trailing bytes)", base, len(buf)%4)}
		} else if t, ok := w.End(); !ok {
			c.Lines = []string{fmt.Sprintf("%#08x  (end)  ?? %s", base, t.Reason)}
		}
		if len(c.Lines) > 0 {
			fn(c)
		}
	}
}

// apply records a token's effect on the state and returns its draw marks.
func (in *Inspector) apply(t Token) hal.DrawMark {
	switch t.Kind {
	case TokParam:
		file := 0
		if t.Space == SpaceTex {
			file = int(t.SubType & 1)
		}
		sa := t.SubAddr
		if t.Space == SpaceAttr && sa == AttrEnableAlias {
			sa = AttrEnable
		}
		in.regs[t.Space][file][sa], in.written[t.Space][file][sa] = t.Data, true
	case TokPalette:
		if t.SubType == SubTexPalette && t.Index < len(in.pal) {
			in.pal[t.Index], in.palSet = t.Data, true
		}
	case TokCmdA:
		var m hal.DrawMark
		if t.ListStart && !in.inList {
			in.inList = true
			m |= hal.DrawBegin
		}
		if t.ListEnd && in.inList {
			in.inList = false
			m |= hal.DrawEnd
		}
		return m
	}
	return 0
}

// Registers implements hal.Inspector: the parameters written, by space
// (texture files as TEX0 and TEX1) and sub-address.
func (in *Inspector) Registers() []hal.RegisterValue {
	var out []hal.RegisterValue
	for s := SpaceAttr; s < SpacePalette; s++ {
		files := 1
		if s == SpaceTex {
			files = 2
		}
		for f := 0; f < files; f++ {
			for sub := 0; sub < 256; sub++ {
				if !in.written[s][f][sub] {
					continue
				}
				v := in.regs[s][f][sub]
				prefix := s.String()
				if s == SpaceTex {
					prefix = fmt.Sprintf("TEX%d", f)
				}
				name := fmt.Sprintf("%s %02Xh", prefix, sub)
				text := fmt.Sprintf("%#06x", v)
				if r := Table[s][sub]; r != nil {
					name = prefix + " " + r.Name
					text = r.Text(v)
				}
				out = append(out, hal.RegisterValue{Name: name, Addr: uint32(s)<<16 | uint32(f)<<8 | uint32(sub), Value: v, Text: text})
			}
		}
	}
	return out
}

// Programs implements hal.Inspector: the UniChrome has no shader programs.
func (in *Inspector) Programs() []hal.Program { return nil }

func (in *Inspector) attr(sub uint8) uint32 { return in.regs[SpaceAttr][0][sub] }

// chanValue widens a channel to 8 bits by bit replication.
func chanValue(v uint32, c Chan) uint8 {
	if c.Bits == 0 {
		return 0
	}
	x := v >> c.Shift & (1<<c.Bits - 1)
	if c.Bits >= 8 {
		return uint8(x >> (c.Bits - 8))
	}
	out, have := x<<(8-c.Bits), c.Bits
	for have < 8 {
		out |= out >> have
		have *= 2
	}
	return uint8(out)
}

// Surfaces implements hal.Inspector: the destination buffer (40h-42h),
// the Z/W buffer (10h-12h) with the stencil in the low byte of Z24S8, and
// the enabled textures' level 0; the size is the clip rectangle (70h, 71h:
// bottom and right exclusive).
func (in *Inspector) Surfaces() []hal.Surface {
	var out []hal.Surface
	tb, lr := in.attr(AttrClipTB), in.attr(AttrClipLR)
	w, h := int(lr&0x7FF), int(tb&0x7FF)
	if w <= 0 || h <= 0 {
		return nil
	}
	addr := func(lo, hi uint8) uint32 { return in.attr(lo)&0xFFFFFF | in.attr(hi)&0xFF<<24 }
	fm := in.attr(AttrDstFormat)
	code := uint8(fm >> 16 & 0xF)
	if f, ok := DstFormatOf(code); ok && code != DstYUY2 {
		base, pitch := addr(AttrDstBaseL, AttrDstBaseH), int(fm&0x3FFF)
		out = append(out, hal.Surface{Kind: hal.SurfaceColor, Name: "destination buffer", Addr: base, Width: w, Height: h,
			Format: EnumDstFormat[code], Info: fmt.Sprintf("pitch %d bytes", pitch),
			Pixel: func(x, y int) (uint32, int, uint) { return base + uint32(y*pitch+x*f.Bytes), f.Bytes, 0 },
			Mask:  uint32(uint64(1)<<(8*f.Bytes) - 1),
			Color: func(v uint32) color.NRGBA {
				return color.NRGBA{chanValue(v, f.R), chanValue(v, f.G), chanValue(v, f.B), 255}
			}})
	}
	zf := in.attr(AttrZFormat)
	zbase, zpitch := addr(AttrZBaseL, AttrZBaseH), int(zf&0x3FFF)
	bytes, mask, shift := 0, uint32(0), uint(0)
	switch zf >> 16 & 3 {
	case 0:
		bytes, mask = 2, 0xFFFF
	case 2:
		bytes, mask = 4, 0xFFFFFFFF
	case 3:
		bytes, mask, shift = 4, 0xFFFFFF, 8
	}
	if bytes > 0 && zpitch > 0 {
		name := "Z buffer"
		if zf>>23&1 != 0 {
			name = "W buffer"
		}
		zp := func(s uint) func(x, y int) (uint32, int, uint) {
			return func(x, y int) (uint32, int, uint) { return zbase + uint32(y*zpitch+x*bytes), bytes, s }
		}
		out = append(out, hal.Surface{Kind: hal.SurfaceDepth, Name: name, Addr: zbase, Width: w, Height: h,
			Format: EnumZFormat[zf>>16&3], Info: fmt.Sprintf("pitch %d bytes", zpitch), Pixel: zp(shift), Mask: mask})
		if zf>>16&3 == 3 {
			out = append(out, hal.Surface{Kind: hal.SurfaceStencil, Name: "stencil (Z24S8 low byte)", Addr: zbase, Width: w, Height: h,
				Format: "S8", Info: fmt.Sprintf("pitch %d bytes", zpitch), Pixel: zp(0), Mask: 0xFF})
		}
	}
	if in.attr(AttrEnable)>>6&1 != 0 { // HenTXMP
		// HTXNum + 1 textures (02h/FEh sub-address 00h bits 5:3), kept
		// across buffers as the register is.
		ntex := int(in.regs[SpaceTexGen][0][TexGenMode]>>3&7) + 1
		for n := 0; n < min(ntex, 2); n++ {
			if s, ok := in.texture(n); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// texture describes level 0 of texture n (its 02h register file), decoded
// as sim/unichrome's texture unit reads it.
func (in *Inspector) texture(n int) (hal.Surface, bool) {
	r := &in.regs[SpaceTex][n]
	code := uint8(r[TexFormat] >> 16)
	info, ok := TexFormatOf(code)
	if !ok || info.Kind == KindYUV || info.Kind == KindBump || info.Kind == KindInvalid {
		return hal.Surface{}, false
	}
	zext, inv := r[TexFormat]>>15&1 != 0, r[TexFormat]>>14&1 != 0
	base := r[TexBaseL0]&0xFFFFFF | (r[TexBaseH012]&0xFF)<<24
	pr := r[TexPitch0]
	pitch := 1 << (pr >> 20 & 15)
	if pr>>19&1 != 0 {
		pitch = int(pr & 0x3FFF)
	}
	wlog, hlog := r[TexWidth05]&15, r[TexHeight05]&15
	if wlog > 11 || hlog > 11 {
		return hal.Surface{}, false
	}
	w, h := 1<<wlog, 1<<hlog
	pal := in.pal
	s := hal.Surface{Kind: hal.SurfaceTexture, Name: fmt.Sprintf("texture %d", n), Addr: base, Width: w, Height: h,
		Format: info.Name, Info: fmt.Sprintf("level 0, pitch %d bytes", pitch)}
	if info.Kind == KindIndex {
		s.Info += ", palette as last loaded"
	}
	s.Decode = func(read func(uint32, []byte) error) (*hal.Picture, error) {
		rows, rowBytes := h, (w*info.Bits+7)/8
		switch info.Kind {
		case KindDXT1, KindDXT3, KindDXT5:
			bs := 8
			if info.Kind != KindDXT1 {
				bs = 16
			}
			rows, rowBytes = (h+3)/4, (w+3)/4*bs
		}
		size := pitch*(rows-1) + rowBytes
		if size <= 0 || size > 16<<20 {
			return nil, fmt.Errorf("texture: %d bytes", size)
		}
		mem := make([]byte, size)
		if err := read(base, mem); err != nil {
			return nil, fmt.Errorf("texture at %#08x: %w", base, err)
		}
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := texel(info, mem, pitch, x, y, zext, inv, &pal)
				img.SetNRGBA(x, y, color.NRGBA{c[0], c[1], c[2], c[3]})
			}
		}
		return &hal.Picture{Image: img}, nil
	}
	return s, true
}

// widen widens an n-bit value to 8 bits by replication, or by zero fill
// (7Bh bit 15 for colour channels).
func widen(v uint32, n uint8, zero bool) uint8 {
	if n == 0 {
		return 0
	}
	if zero && n < 8 {
		return uint8(v << (8 - n))
	}
	return chanValue(v, Chan{0, n})
}

// texel reads texel (x, y) of a level (sim/unichrome texel).
func texel(f TexFormatInfo, mem []byte, pitch, x, y int, zext, inv bool, pal *[256]uint32) [4]uint8 {
	switch f.Kind {
	case KindRGBA:
		off := y*pitch + x*f.Bits/8
		if f.Code == TexABGR8888 {
			return [4]uint8{mem[off], mem[off+1], mem[off+2], mem[off+3]}
		}
		var v uint32
		if f.Bits == 32 {
			v = binary.LittleEndian.Uint32(mem[off:])
		} else {
			v = uint32(binary.LittleEndian.Uint16(mem[off:]))
		}
		ch := func(c Chan, zero bool) uint8 { return widen(v>>c.Shift&(1<<c.Bits-1), c.Bits, zero) }
		a := uint8(255)
		if f.A.Bits != 0 {
			a = ch(f.A, false)
		}
		return [4]uint8{ch(f.R, zext), ch(f.G, zext), ch(f.B, zext), a}
	case KindDXT1, KindDXT3, KindDXT5:
		bs := 16
		if f.Kind == KindDXT1 {
			bs = 8
		}
		b := mem[(y/4)*pitch+(x/4)*bs:]
		px := (y%4)*4 + x%4
		switch f.Kind {
		case KindDXT3:
			c := texblock.S3TCColor(b[8:16], px, false)
			c[3] = texblock.DXT3Alpha(b, px)
			return c
		case KindDXT5:
			c := texblock.S3TCColor(b[8:16], px, false)
			c[3] = texblock.DXT5Alpha(b, px)
			return c
		}
		return texblock.S3TCColor(b[:8], px, true)
	}
	row := mem[y*pitch:]
	var v uint32
	switch f.Bits {
	case 16:
		v = uint32(binary.LittleEndian.Uint16(row[2*x:]))
	case 8:
		v = uint32(row[x])
	default:
		bit := x * f.Bits
		sh := bit & 7
		if inv {
			sh = 8 - f.Bits - sh
		}
		v = uint32(row[bit>>3]) >> uint(sh) & (1<<uint(f.Bits) - 1)
	}
	switch f.Kind {
	case KindIndex:
		p := pal[v&0xFF]
		return [4]uint8{uint8(p >> 16), uint8(p >> 8), uint8(p), uint8(p >> 24)}
	case KindIntensity:
		c, a := widen(v, f.R.Bits, zext), widen(v, f.A.Bits, false)
		return [4]uint8{c, c, c, a}
	case KindLuminance:
		c := widen(v, f.R.Bits, zext)
		return [4]uint8{c, c, c, 255}
	case KindAlpha:
		return [4]uint8{0, 0, 0, widen(v, f.A.Bits, false)}
	case KindLumAlpha:
		c := widen(v>>f.R.Shift&(1<<f.R.Bits-1), f.R.Bits, zext)
		return [4]uint8{c, c, c, widen(v>>f.A.Shift&(1<<f.A.Bits-1), f.A.Bits, false)}
	}
	return [4]uint8{}
}
