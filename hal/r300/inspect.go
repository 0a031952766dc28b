package r300

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"

	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/internal/texblock"
)

func init() { hal.RegisterInspector("r300", func() hal.Inspector { return NewInspector() }) }

// Inspector follows the R3xx register file through PM4 streams
// (hal.Inspector): type-0 register writes (canonical addresses, as the
// simulator stores them) and the PVS vector memory written through
// VAP_PVS_VECTOR_INDX_REG and VAP_PVS_VECTOR_DATA_REG. A type-3 packet
// whose OpcodeInfo.Draw is set is a draw.
type Inspector struct {
	regs     map[uint32]uint32
	pvs      [2048 * 4]uint32
	pvsN     int // highest PVS dword written + 1
	pvsIndex uint32
}

// NewInspector returns an inspector with every register zero.
func NewInspector() *Inspector { return &Inspector{regs: map[uint32]uint32{}} }

func (in *Inspector) reg(a uint32) uint32 { return in.regs[a] }

// Walk implements hal.Inspector: one command per packet (header and
// payload), with the decoder's lines (the decoder's own packet walk).
func (in *Inspector) Walk(buf []byte, base uint32, fn func(hal.Command) bool) {
	d := newDecoder(buf, base, false)
	for i := 0; i < len(d.words); {
		start := len(d.out)
		next := d.packet(i)
		if h := ParseHeader(d.words[i]); h.Type == 3 && h.Op == OpDrawIndx2 && next == i+2 && next < len(d.words) {
			// A 3D_DRAW_INDX_2 without inline indices takes them from
			// the INDX_BUFFER packet after it: the chip runs the two as
			// one command (sim/r300 indexBuffer), so they are one here
			// and a pause after the draw falls after both.
			if nh := ParseHeader(d.words[next]); nh.Type == 3 && nh.Op == OpIndxBuffer {
				next = d.packet(next)
			}
		}
		c := hal.Command{Offset: uint32(4 * i), Size: uint32(4 * (next - i)), Lines: d.out[start:len(d.out):len(d.out)]}
		h := ParseHeader(d.words[i])
		p := d.words[i+1 : min(next, i+1+h.Count)]
		switch h.Type {
		case 0:
			for k, v := range p {
				a := h.Reg
				if !h.OneReg {
					a += 4 * uint32(k)
				}
				in.write(Canonical(a), v)
			}
		case 3:
			if info, ok := LookupOpcode(h.Op); ok && info.Draw {
				c.Draw = hal.DrawBegin | hal.DrawEnd
			}
		}
		i = next
		if i >= len(d.words) && len(buf)%4 != 0 {
			c.Lines = append(c.Lines, fmt.Sprintf("%#08x  (%d trailing bytes)", base+uint32(len(buf)&^3), len(buf)%4))
		}
		if !fn(c) {
			return
		}
	}
	if len(d.words) == 0 && len(buf)%4 != 0 {
		fn(hal.Command{Lines: []string{fmt.Sprintf("%#08x  (%d trailing bytes)", base, len(buf)%4)}})
	}
}

// write stores a register and follows the PVS data port (sim/r300 write).
func (in *Inspector) write(a, v uint32) {
	in.regs[a] = v
	switch a {
	case VAP_PVS_VECTOR_INDX_REG:
		in.pvsIndex = (v & 0x7FF) * 4
	case VAP_PVS_VECTOR_DATA_REG, VAP_PVS_VECTOR_DATA_REG + 4:
		i := int(in.pvsIndex % uint32(len(in.pvs)))
		in.pvs[i] = v
		in.pvsN = max(in.pvsN, i+1)
		in.pvsIndex++
	}
}

// Registers implements hal.Inspector: every register written, decoded.
func (in *Inspector) Registers() []hal.RegisterValue {
	addrs := make([]uint32, 0, len(in.regs))
	for a := range in.regs {
		addrs = append(addrs, a)
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	out := make([]hal.RegisterValue, 0, len(addrs))
	for _, a := range addrs {
		v := in.regs[a]
		out = append(out, hal.RegisterValue{Name: RegName(a), Addr: a, Value: v, Text: FormatReg(a, v)})
	}
	return out
}

// Programs implements hal.Inspector: the fragment program the US
// registers hold (Program.Disassemble) and the PVS vector memory as
// written, four dwords per line (with PVS_BYPASS set the vertex unit
// passes vertices through and the memory is unused).
func (in *Inspector) Programs() []hal.Program {
	var out []hal.Program
	if in.regs[US_CONFIG] != 0 || in.regs[US_CODE_ADDR_0+12] != 0 {
		p := ReadProgram(in.reg)
		out = append(out, hal.Program{Name: "fragment program (US)", Lines: p.Disassemble()})
	}
	if in.pvsN > 0 {
		var lines []string
		if in.regs[VAP_CNTL_STATUS]>>8&1 != 0 {
			lines = append(lines, "; PVS_BYPASS is set: vertices pass the vertex unit untransformed")
		}
		for i := 0; i < in.pvsN; i += 4 {
			lines = append(lines, fmt.Sprintf("%4d:  %08x %08x %08x %08x", i/4, in.pvs[i], in.pvs[i+1], in.pvs[i+2], in.pvs[i+3]))
		}
		out = append(out, hal.Program{Name: "PVS vector memory (VAP_PVS_VECTOR_DATA_REG)", Lines: lines})
	}
	return out
}

// cbFormat is a colour-buffer format the simulator writes: bytes per
// pixel and the bits of components A, R, G, B from the top ([PROP] the
// ARGB order of the format names, as the driver's US_OUT_FMT selects).
type cbFormat struct {
	bpp  int
	argb [4]uint // bits of A, R, G, B
}

var cbFormats = map[uint32]cbFormat{
	3: {2, [4]uint{1, 5, 5, 5}}, 4: {2, [4]uint{0, 5, 6, 5}}, 6: {4, [4]uint{8, 8, 8, 8}},
	9: {1, [4]uint{0, 8, 0, 0}}, 15: {2, [4]uint{4, 4, 4, 4}},
}

// Surfaces implements hal.Inspector: colour buffer 0 (RB3D_COLOROFFSET0,
// RB3D_COLORPITCH0), the depth buffer (ZB_DEPTHOFFSET, ZB_DEPTHPITCH,
// ZB_FORMAT) with the stencil in the low byte of Z24S8, and the enabled
// texture units' level 0. The size is the scissor (SC_SCISSOR1,
// inclusive).
func (in *Inspector) Surfaces() []hal.Surface {
	var out []hal.Surface
	s1 := in.reg(SC_SCISSOR1)
	w, h := int(s1&0x1FFF)+1, int(s1>>13&0x1FFF)+1
	cp := in.reg(RB3D_COLORPITCH0)
	if f, ok := cbFormats[cp>>21&15]; ok && cp>>16&7 == 0 {
		base, pitch := in.reg(RB3D_COLOROFFSET0)&^31, int(cp&0x3FFE)
		out = append(out, hal.Surface{Kind: hal.SurfaceColor, Name: "colour buffer 0", Addr: base, Width: w, Height: h,
			Format: EnumColorFmt[cp>>21&15], Info: fmt.Sprintf("pitch %d pixels", pitch),
			Pixel: func(x, y int) (uint32, int, uint) { return base + uint32((y*pitch+x)*f.bpp), f.bpp, 0 },
			Mask:  uint32(uint64(1)<<(8*f.bpp) - 1),
			Color: func(v uint32) color.NRGBA {
				var c [4]uint8 // A, R, G, B
				shift := uint(0)
				for k := 3; k >= 0; k-- {
					n := f.argb[k]
					if n == 0 {
						continue
					}
					x := v >> shift & (1<<n - 1)
					c[k] = uint8(x * 255 / (1<<n - 1))
					shift += n
				}
				if f.argb[2] == 0 && f.argb[3] == 0 { // I8
					c[2], c[3] = c[1], c[1]
				}
				return color.NRGBA{c[1], c[2], c[3], 255}
			}})
	}
	zf, zp := in.reg(ZB_FORMAT)&15, in.reg(ZB_DEPTHPITCH)
	if pitch := int(zp & 0x3FFC); pitch > 0 && (zf == 0 || zf == 2) {
		base := in.reg(ZB_DEPTHOFFSET) &^ 31
		bpp, mask, shift := 2, uint32(0xFFFF), uint(0)
		if zf == 2 {
			bpp, mask, shift = 4, 0xFFFFFF, 8
		}
		zpix := func(s uint) func(x, y int) (uint32, int, uint) {
			return func(x, y int) (uint32, int, uint) { return base + uint32((y*pitch+x)*bpp), bpp, s }
		}
		out = append(out, hal.Surface{Kind: hal.SurfaceDepth, Name: "depth buffer", Addr: base, Width: w, Height: h,
			Format: EnumZFormat[zf], Info: fmt.Sprintf("pitch %d pixels", pitch), Pixel: zpix(shift), Mask: mask})
		if zf == 2 {
			out = append(out, hal.Surface{Kind: hal.SurfaceStencil, Name: "stencil (Z24S8 low byte)", Addr: base, Width: w, Height: h,
				Format: "S8", Info: fmt.Sprintf("pitch %d pixels", pitch), Pixel: zpix(0), Mask: 0xFF})
		}
	}
	en := in.reg(TX_ENABLE)
	for n := 0; n < 16; n++ {
		if en>>n&1 != 0 {
			if s, ok := in.texture(n); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// texture describes level 0 of texture unit n, decoded as sim/r300's
// texture unit reads it (components, then SEL_RED/GREEN/BLUE/ALPHA).
func (in *Inspector) texture(n int) (hal.Surface, bool) {
	o := 4 * uint32(n)
	f0, fm1, fm2, off := in.reg(TX_FORMAT0_0+o), in.reg(TX_FORMAT1_0+o), in.reg(TX_FORMAT2_0+o), in.reg(TX_OFFSET_0+o)
	f := &TexFormats[fm1&31]
	if !f.Simulated || off&0x1F != 0 {
		return hal.Surface{}, false
	}
	w, h := int(f0&0x7FF)+1, int(f0>>11&0x7FF)+1
	pitch := 0
	if f0>>31 != 0 {
		pitch = int(fm2&0x3FFF) + 1
	}
	lv := TexLayout(f, w, h, 1, pitch)[0]
	var sel [4]uint32
	for c, sh := range []uint{12, 15, 18, 9} {
		sel[c] = fm1 >> sh & 7
	}
	base := off &^ 0x1F
	s := hal.Surface{Kind: hal.SurfaceTexture, Name: fmt.Sprintf("texture unit %d", n), Addr: base, Width: w, Height: h,
		Format: f.Name, Info: fmt.Sprintf("level 0, pitch %d bytes", lv.Pitch)}
	s.Decode = func(read func(uint32, []byte) error) (*hal.Picture, error) {
		if lv.Size > 64<<20 {
			return nil, fmt.Errorf("texture: %d bytes", lv.Size)
		}
		mem := make([]byte, lv.Size+16)
		if err := read(base, mem[:lv.Size]); err != nil {
			return nil, fmt.Errorf("texture at %#08x: %w", base, err)
		}
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var comps [4]float32
				if f.BlockBytes > 0 {
					o := uint32(y/4)*lv.Pitch + uint32(x/4*f.BlockBytes)
					b := mem[o : o+uint32(f.BlockBytes)]
					i := (y%4)*4 + x%4
					var rgba [4]uint8
					switch f.Code {
					case TxFmtDXT1:
						rgba = texblock.S3TCColor(b[:8], i, true)
					case TxFmtDXT3:
						rgba = texblock.S3TCColor(b[8:16], i, false)
						rgba[3] = texblock.DXT3Alpha(b, i)
					default:
						rgba = texblock.S3TCColor(b[8:16], i, false)
						rgba[3] = texblock.DXT5Alpha(b, i)
					}
					for k := range comps {
						comps[k] = float32(rgba[k]) / 255
					}
				} else {
					comps = texComps(f, mem[uint32(y)*lv.Pitch+uint32(x*f.Bits/8):])
				}
				var c [4]uint8
				for k, sv := range sel {
					v := float32(0)
					switch {
					case sv < 4:
						v = comps[sv]
					case sv == 5:
						v = 1
					}
					c[k] = uint8(max(0, min(1, v))*255 + 0.5)
				}
				img.SetNRGBA(x, y, color.NRGBA{c[0], c[1], c[2], c[3]})
			}
		}
		return &hal.Picture{Image: img}, nil
	}
	return s, true
}

// texComps decodes one texel's components as unsigned normalised or float
// values (signed components and gamma, rarely used, are not applied).
func texComps(f *TexFormat, b []byte) [4]float32 {
	var out [4]float32
	var raw uint64
	switch {
	case f.Bits <= 8:
		raw = uint64(b[0])
	case f.Bits == 16:
		raw = uint64(binary.LittleEndian.Uint16(b))
	case f.Bits == 32:
		raw = uint64(binary.LittleEndian.Uint32(b))
	case f.Bits == 64:
		raw = binary.LittleEndian.Uint64(b)
	}
	for k, c := range f.Comps {
		if f.Bits == 128 {
			out[k] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:]))
			continue
		}
		v := uint32(raw >> c.Shift & (1<<c.Bits - 1))
		switch {
		case f.Float && c.Bits == 16:
			out[k] = halfFloat(v)
		case f.Float:
			out[k] = math.Float32frombits(v)
		default:
			out[k] = float32(float64(v) / float64(uint32(1)<<c.Bits-1))
		}
	}
	return out
}

// halfFloat converts an IEEE half to float32.
func halfFloat(h uint32) float32 {
	s := h >> 15 & 1
	e := h >> 10 & 31
	m := h & 1023
	switch {
	case e == 0:
		v := float32(m) / 1024 / 16384
		if s != 0 {
			v = -v
		}
		return v
	case e == 31:
		return math.Float32frombits(s<<31 | 0xFF<<23 | m<<13)
	}
	return math.Float32frombits(s<<31 | (e+112)<<23 | m<<13)
}
