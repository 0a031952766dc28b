package pspge

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/retrogl/retrogl/hal"
)

// VRAMBase is the device address that FBP and ZBP offsets count from (the
// PSP's VRAM, guide §2 [OUT]).
const VRAMBase = 0x04000000

func init() { hal.RegisterInspector("pspge", func() hal.Inspector { return &Inspector{} }) }

// Inspector follows the GE's state through display lists (hal.Inspector):
// the 256 command registers, the matrices loaded through their data
// ports and the CLUT source of the last CLOAD. It reads a list as the
// decoder does, word after word: a branch (JUMP, CALL, a taken BJUMP) is
// not followed, so words a list skips still count as executed.
type Inspector struct {
	regs    [256]uint32
	written [256]bool
	mats    [5]matrix
	// The CLUT the last CLOAD loaded: its source and size. The inspector
	// reads those bytes when a surface is decoded, so a CLUT overwritten in
	// memory after its CLOAD shows its new contents.
	clutAddr, clutBytes uint32
}

type matrix struct {
	name       string
	sel, data  Op
	vals       []float32
	n          int
	everLoaded bool
}

func (in *Inspector) matrices() []matrix {
	if in.mats[0].name == "" {
		in.mats = [5]matrix{
			{name: "WORLD", sel: WMS, data: WORLD, vals: make([]float32, 12)},
			{name: "VIEW", sel: VMS, data: VIEW, vals: make([]float32, 12)},
			{name: "PROJ", sel: PMS, data: PROJ, vals: make([]float32, 16)},
			{name: "TMATRIX", sel: TMS, data: TMATRIX, vals: make([]float32, 12)},
			{name: "BONE", sel: BOFS, data: BONE, vals: make([]float32, 96)},
		}
	}
	return in.mats[:]
}

// Walk implements hal.Inspector: one command per word.
func (in *Inspector) Walk(buf []byte, base uint32, fn func(hal.Command) bool) {
	mats := in.matrices()
	for i := 0; i+4 <= len(buf); i += 4 {
		w := binary.LittleEndian.Uint32(buf[i:])
		op, arg := Op(w>>24), w&0xFFFFFF
		in.regs[op], in.written[op] = arg, true
		for k := range mats {
			m := &mats[k]
			switch op {
			case m.sel:
				m.n = int(arg & 0x7F)
			case m.data:
				if m.n < len(m.vals) {
					m.vals[m.n] = FromF24(arg)
				}
				m.n++
				m.everLoaded = true
			}
		}
		if op == CLOAD {
			in.clutAddr = (in.regs[CBPH]&0x0F0000)<<8 | in.regs[CBP]&0xFFFFF0
			in.clutBytes = (arg & 0x3F) * 32
		}
		c := hal.Command{Offset: uint32(i), Size: 4,
			Lines: []string{fmt.Sprintf("%#08x  %08x  %s", base+uint32(i), w, Decode(w))}}
		if t := Table[op]; t != nil && t.Draw {
			c.Draw = hal.DrawBegin | hal.DrawEnd
		}
		if !fn(c) {
			return
		}
	}
	if len(buf)%4 != 0 {
		fn(hal.Command{Offset: uint32(len(buf) &^ 3),
			Lines: []string{fmt.Sprintf("%#08x  (%d trailing bytes)", base+uint32(len(buf)&^3), len(buf)%4)}})
	}
}

// Registers implements hal.Inspector: every command word written, decoded,
// then each matrix loaded through its data port.
func (in *Inspector) Registers() []hal.RegisterValue {
	var out []hal.RegisterValue
	for op := 0; op < 256; op++ {
		if !in.written[op] {
			continue
		}
		w := uint32(op)<<24 | in.regs[op]
		out = append(out, hal.RegisterValue{Name: Op(op).String(), Addr: uint32(op), Value: in.regs[op], Text: Decode(w)})
	}
	for _, m := range in.matrices() {
		if !m.everLoaded {
			continue
		}
		var b strings.Builder
		for i, v := range m.vals {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%g", v)
		}
		out = append(out, hal.RegisterValue{Name: m.name + " matrix", Addr: uint32(m.data), Text: b.String()})
	}
	return out
}

// Programs implements hal.Inspector: the GE has no shader programs.
func (in *Inspector) Programs() []hal.Program { return nil }

// Framebuffer pixel formats (PSM) and their colour and stencil bits: the
// alpha bits of the framebuffer hold the stencil (guide §5 [OUT]).
var psmInfo = [4]struct {
	bytes        int
	color, stenc uint32
	shift        uint
}{
	{2, 0xFFFF, 0, 0},             // 5650
	{2, 0x7FFF, 0x8000, 15},       // 5551
	{2, 0x0FFF, 0xF000, 12},       // 4444
	{4, 0xFFFFFF, 0xFF000000, 24}, // 8888
}

// expand widens an n-bit channel to 8 bits by bit replication.
func expand(v uint32, bits uint) uint8 {
	v &= 1<<bits - 1
	return uint8(v<<(8-bits) | v>>(2*bits-8))
}

// pixelRGBA converts a framebuffer or texel colour of format psm (R in the
// low bits) to RGBA; 5650 has alpha 255.
func pixelRGBA(psm int, v uint32) color.NRGBA {
	switch psm {
	case 0:
		return color.NRGBA{expand(v, 5), expand(v>>5, 6), expand(v>>11, 5), 255}
	case 1:
		return color.NRGBA{expand(v, 5), expand(v>>5, 5), expand(v>>10, 5), uint8(v>>15&1) * 255}
	case 2:
		return color.NRGBA{uint8(v&15) * 17, uint8(v>>4&15) * 17, uint8(v>>8&15) * 17, uint8(v>>12&15) * 17}
	}
	return color.NRGBA{uint8(v), uint8(v >> 8), uint8(v >> 16), uint8(v >> 24)}
}

// height is the drawing area's height: REGION2 (inclusive), else SCISSOR2,
// else the PSP screen's 272 rows.
func (in *Inspector) height() int {
	switch {
	case in.written[REGION2]:
		return int(in.regs[REGION2]>>10&0x3FF) + 1
	case in.written[SCISSOR2]:
		return int(in.regs[SCISSOR2]>>10&0x3FF) + 1
	}
	return 272
}

// Surfaces implements hal.Inspector: the colour buffer (FBP, FBW, PSM), the
// stencil held in its alpha bits, the 16-bit depth buffer (ZBP, ZBW) and,
// with TME set, level 0 of the texture.
func (in *Inspector) Surfaces() []hal.Surface {
	var out []hal.Surface
	h := in.height()
	if stride := int(in.regs[FBW] & 0x7FC); stride > 0 {
		psm := int(in.regs[PSM] & 3)
		pi := psmInfo[psm]
		addr := VRAMBase + in.regs[FBP]&0x1FFFF0
		w := stride
		if in.written[REGION2] {
			w = min(stride, int(in.regs[REGION2]&0x3FF)+1)
		}
		pixel := func(x, y int) (uint32, int, uint) { return addr + uint32((y*stride+x)*pi.bytes), pi.bytes, 0 }
		out = append(out, hal.Surface{Kind: hal.SurfaceColor, Name: "colour buffer", Addr: addr, Width: w, Height: h,
			Format: EnumPixFormat[psm], Info: fmt.Sprintf("stride %d pixels; alpha bits hold the stencil", stride),
			Pixel: pixel, Mask: pi.color,
			Color: func(v uint32) color.NRGBA { c := pixelRGBA(psm, v); c.A = 255; return c }})
		if pi.stenc != 0 {
			spixel := func(x, y int) (uint32, int, uint) { a, n, _ := pixel(x, y); return a, n, pi.shift }
			out = append(out, hal.Surface{Kind: hal.SurfaceStencil, Name: "stencil (colour buffer alpha)", Addr: addr,
				Width: w, Height: h, Format: EnumPixFormat[psm], Pixel: spixel, Mask: pi.stenc >> pi.shift})
		}
		if zs := int(in.regs[ZBW] & 0x7FC); zs > 0 {
			zaddr := VRAMBase + in.regs[ZBP]&0x1FFFF0
			out = append(out, hal.Surface{Kind: hal.SurfaceDepth, Name: "depth buffer", Addr: zaddr,
				Width: min(w, zs), Height: h, Format: "Z16", Info: fmt.Sprintf("stride %d pixels", zs),
				Pixel: func(x, y int) (uint32, int, uint) { return zaddr + uint32((y*zs+x)*2), 2, 0 }, Mask: 0xFFFF})
		}
	}
	if in.regs[TME]&1 != 0 {
		if s, ok := in.texture(); ok {
			out = append(out, s)
		}
	}
	return out
}

// texBits is the size of a texel in bits per TPSM (DXT: per texel of a
// 4x4 block).
var texBits = [11]int{16, 16, 16, 32, 4, 8, 16, 32, 4, 8, 8}

// texture describes level 0 of the bound texture, decoded as sim/pspge's
// texture unit reads it (swizzling, CLUT lookup with CMODE's shift, mask
// and start, PSP DXT blocks).
func (in *Inspector) texture() (hal.Surface, bool) {
	format := int(in.regs[TPSM] & 0xF)
	if format >= len(texBits) {
		return hal.Surface{}, false
	}
	size := in.regs[TSIZE0]
	lw, lh := int(size&0xF), int(size>>8&0xF)
	if lw > 9 || lh > 9 {
		return hal.Surface{}, false
	}
	w, h := 1<<lw, 1<<lh
	tbw := in.regs[TBW0]
	bufw := int(tbw & 0xFFFF)
	addr := (tbw&0x0F0000)<<8 | in.regs[TBP0]&0xFFFFF0
	swizzle := in.regs[TMODE]&1 != 0 && format < 8
	bits := texBits[format]
	pitch := bufw * bits / 8
	var n int
	switch {
	case format >= 8:
		bs := 8
		if format != 8 {
			bs = 16
		}
		n = (((h-1)>>2)*(bufw>>2) + (w-1)>>2 + 1) * bs
	case swizzle:
		n = swzRow(pitch, h-1) + swzCol(bits, w-1) + max(bits/8, 1)
	default:
		n = (h-1)*pitch + ((w-1)*bits)/8 + max(bits/8, 1)
	}
	cm := in.regs[CMODE]
	clutAddr, clutBytes := in.clutAddr, in.clutBytes
	info := fmt.Sprintf("level 0, buffer width %d", bufw)
	if swizzle {
		info += ", swizzled"
	}
	if format >= 4 && format < 8 {
		info += fmt.Sprintf(", CLUT %s from %#08x (%d bytes)", EnumPixFormat[cm&3], clutAddr, clutBytes)
	}
	s := hal.Surface{Kind: hal.SurfaceTexture, Name: "texture", Addr: addr, Width: w, Height: h,
		Format: EnumTexFormat[format], Info: info}
	s.Decode = func(read func(uint32, []byte) error) (*hal.Picture, error) {
		if n <= 0 || n > 16<<20 {
			return nil, fmt.Errorf("texture: %d bytes", n)
		}
		data := make([]byte, n)
		if err := read(addr, data); err != nil {
			return nil, fmt.Errorf("texture at %#08x: %w", addr, err)
		}
		var clut [1024]byte
		if format >= 4 && format < 8 && clutBytes > 0 {
			if err := read(clutAddr, clut[:min(clutBytes, 1024)]); err != nil {
				return nil, fmt.Errorf("CLUT at %#08x: %w", clutAddr, err)
			}
		}
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for v := 0; v < h; v++ {
			for u := 0; u < w; u++ {
				var c uint32
				switch {
				case format >= 8:
					c = dxtTexel(format, data, bufw, u, v)
				case swizzle:
					c = texel(format, data[swzRow(pitch, v)+swzCol(bits, u):], u, cm, &clut)
				default:
					c = texel(format, data[v*pitch+(u*bits)>>3:], u, cm, &clut)
				}
				img.SetNRGBA(u, v, color.NRGBA{uint8(c), uint8(c >> 8), uint8(c >> 16), uint8(c >> 24)})
			}
		}
		return &hal.Picture{Image: img}, nil
	}
	return s, true
}

// swzRow and swzCol address a swizzled texture: 16-byte by 8-row blocks
// stored row-major by block (guide §3 [OUT]).
func swzRow(pitch, v int) int { return (v>>3)*(pitch>>4)*128 + (v&7)*16 }

func swzCol(bits, u int) int {
	b := u * bits >> 3
	return (b>>4)*128 + b&15
}

// rgba packs a colour with R in the low byte.
func rgba(c color.NRGBA) uint32 {
	return uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 | uint32(c.A)<<24
}

// texel decodes the texel whose bytes start at p (u selects the nibble of
// a CLUT4 byte).
func texel(format int, p []byte, u int, cmode uint32, clut *[1024]byte) uint32 {
	switch format {
	case 0, 1, 2:
		return rgba(pixelRGBA(format, uint32(binary.LittleEndian.Uint16(p))))
	case 3:
		return binary.LittleEndian.Uint32(p)
	}
	var raw uint32
	switch format {
	case 4:
		raw = uint32(p[0])
		if u&1 != 0 {
			raw >>= 4
		}
		raw &= 15
	case 5:
		raw = uint32(p[0])
	case 6:
		raw = uint32(binary.LittleEndian.Uint16(p))
	default:
		raw = binary.LittleEndian.Uint32(p)
	}
	// ((raw >> shift) & mask) | start, as sim/pspge and PPSSPP do [OUT].
	cf := int(cmode & 3)
	limit := uint32(0x1FF)
	if cf == 3 {
		limit = 0xFF
	}
	idx := (raw>>(cmode>>2&0x1F))&(cmode>>8&0xFF) | ((cmode>>16&0x1F)<<4)&limit
	if cf == 3 {
		return binary.LittleEndian.Uint32(clut[(idx&0xFF)*4:])
	}
	return rgba(pixelRGBA(cf, uint32(binary.LittleEndian.Uint16(clut[(idx&0x1FF)*2:]))))
}

// dxtTexel decodes texel (u, v) of a PSP DXT texture (the block layout of
// sim/pspge's fetchDXT, [OUT] PPSSPP TextureDecoder).
func dxtTexel(format int, data []byte, bufw, u, v int) uint32 {
	bs := 16
	if format == 8 {
		bs = 8
	}
	o := ((v>>2)*(bufw>>2) + u>>2) * bs
	if o+bs > len(data) {
		return 0
	}
	b := data[o : o+bs]
	x, y := u&3, v&3
	alpha := uint32(255)
	if format != 8 {
		alpha = 0
	}
	c0 := uint32(binary.LittleEndian.Uint16(b[4:]))
	c1 := uint32(binary.LittleEndian.Uint16(b[6:]))
	idx := uint32(b[y]) >> (2 * uint(x)) & 3
	ch := func(c uint32) (r, g, b uint32) { return c >> 8 & 0xF8, c >> 3 & 0xFC, c << 3 & 0xF8 }
	r0, g0, b0 := ch(c0)
	r1, g1, b1 := ch(c1)
	mk := func(r, g, b, a uint32) uint32 { return r | g<<8 | b<<16 | a<<24 }
	var c uint32
	switch {
	case idx == 0:
		c = mk(r0, g0, b0, alpha)
	case idx == 1:
		c = mk(r1, g1, b1, alpha)
	case c0 > c1 && idx == 2:
		c = mk((2*r0+r1)/3, (2*g0+g1)/3, (2*b0+b1)/3, alpha)
	case c0 > c1:
		c = mk((2*r1+r0)/3, (2*g1+g0)/3, (2*b1+b0)/3, alpha)
	case idx == 3:
		c = 0
	default:
		c = mk((r0+r1)/2, (g0+g1)/2, (b0+b1)/2, alpha)
	}
	switch format {
	case 9:
		row := uint32(binary.LittleEndian.Uint16(b[8+2*y:]))
		c |= (row >> (4 * uint(x)) & 15) << 28
	case 10:
		bits := uint64(binary.LittleEndian.Uint32(b[8:])) | uint64(binary.LittleEndian.Uint16(b[12:]))<<32
		a0, a1 := uint32(b[14]), uint32(b[15])
		i := uint32(bits >> uint(12*y+3*x) & 7)
		lerp := func(n, steps uint32) uint32 {
			return (a0*((steps-n)<<8)/steps + a1*(n<<8)/steps + 31) >> 8 & 0xFF
		}
		var a uint32
		switch {
		case i == 0:
			a = a0
		case i == 1:
			a = a1
		case a0 > a1:
			a = lerp(i-1, 7)
		case i == 6:
			a = 0
		case i == 7:
			a = 255
		default:
			a = lerp(i-1, 5)
		}
		c |= a << 24
	}
	return c
}
