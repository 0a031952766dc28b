package pica

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/internal/texblock"
)

func init() { hal.RegisterInspector(Chip, func() hal.Inspector { return &Inspector{} }) }

// Inspector follows the PICA200's register file through command buffers
// (hal.Inspector): masked register writes, and the vertex-shader unit's
// code, operand descriptors and float uniforms loaded through their data
// ports (VSH_CODETRANSFER_*, VSH_OPDESCS_*, VSH_FLOATUNIFORM_*), as
// sim/pica's shader unit keeps them. A draw is a non-zero write to a
// register whose RegInfo.Draw is set. Immediate-mode vertices
// (FIXEDATTRIB_INDEX 0xF) are not marked as draws: no driver here emits
// them.
type Inspector struct {
	regs    [NumRegs]uint32
	written [NumRegs]bool

	code       [4096]uint32
	codeN      int // highest code index written + 1
	codeIdx    int
	descs      [128]uint32
	descIdx    int
	floats     [96][4]float32
	floatSet   [96]bool
	floatBuf   []uint32
	codeLoaded bool
}

// Walk implements hal.Inspector: one command per 8-byte header and its
// extra parameters (with the padding word), as Decode prints them.
func (in *Inspector) Walk(buf []byte, base uint32, fn func(hal.Command) bool) {
	var cur *hal.Command
	stopped := false
	flush := func() bool {
		if cur == nil {
			return true
		}
		c := *cur
		cur = nil
		if !fn(c) {
			stopped = true
			return false
		}
		return true
	}
	consumed, err := Walk(buf, func(w Write) bool {
		if w.Param == 0 {
			if !flush() {
				return false
			}
			cur = &hal.Command{Offset: uint32(w.Offset), Size: uint32(4 * w.Header.Words())}
		}
		var at string
		if w.Param == 0 {
			at = fmt.Sprintf("%08x  %08x %08x", base+uint32(w.Offset), w.Value, uint32(w.Header))
		} else {
			at = fmt.Sprintf("%08x  %08x         ", base+uint32(w.Offset+4+4*w.Param), w.Value)
		}
		cur.Lines = append(cur.Lines, at+"  "+DescribeWrite(w.Reg, w.Header.Mask(), w.Value))
		if w.Param == w.Header.Extra() && w.Header.Extra()&1 != 0 {
			pad := w.Offset + 4*w.Header.Words() - 4
			cur.Lines = append(cur.Lines, fmt.Sprintf("%08x  %08x           pad", base+uint32(pad), binary.LittleEndian.Uint32(buf[pad:])))
		}
		if in.write(w.Reg, w.Header.Mask(), w.Value) {
			cur.Draw = hal.DrawBegin | hal.DrawEnd
		}
		return true
	})
	if stopped || !flush() {
		return
	}
	if err != nil {
		fn(hal.Command{Offset: uint32(consumed), Size: uint32(len(buf) - consumed), Lines: []string{"error: " + err.Error()}})
	}
}

// write applies one masked register write; it reports a draw.
func (in *Inspector) write(id Reg, mask uint8, v uint32) bool {
	if int(id) >= NumRegs || mask == 0 {
		return false
	}
	nv := Masked(in.regs[id], v, mask)
	in.regs[id], in.written[id] = nv, true
	if id >= VSH_BASE && id < VSH_BASE+0x30 {
		in.shaderWrite(id-VSH_BASE, nv)
	}
	ri := Info(id)
	return ri != nil && ri.Draw && nv != 0
}

// shaderWrite follows the vertex-shader unit's data ports (sim/pica
// shaderWrite).
func (in *Inspector) shaderWrite(off Reg, v uint32) {
	switch {
	case off == ShFloatIndex:
		in.floatBuf = in.floatBuf[:0]
	case off >= ShFloatData0 && off < ShFloatData0+ShFloatDataCount:
		in.floatBuf = append(in.floatBuf, v)
		idxReg := &in.regs[VSH_BASE+ShFloatIndex]
		f32 := *idxReg>>31 != 0
		need := 3
		if f32 {
			need = 4
		}
		if len(in.floatBuf) < need {
			return
		}
		var vec [4]float32
		b := in.floatBuf
		if f32 {
			for c := 0; c < 4; c++ {
				vec[3-c] = F24ToFloat(ToF24(math.Float32frombits(b[c])))
			}
		} else {
			vals := UnpackF24x4([3]uint32{b[0], b[1], b[2]})
			for c := range vec {
				vec[c] = F24ToFloat(vals[c])
			}
		}
		in.floatBuf = b[:0]
		i := *idxReg & 0xFF
		if i < uint32(len(in.floats)) {
			in.floats[i], in.floatSet[i] = vec, true
		}
		*idxReg = *idxReg&^0xFF | (i+1)&0xFF
	case off == ShCodeIndex:
		in.codeIdx = int(v & 0xFFF)
	case off >= ShCodeData0 && off < ShCodeData0+ShCodeDataCount:
		if in.codeIdx < len(in.code) {
			in.code[in.codeIdx] = v
			in.codeN = max(in.codeN, in.codeIdx+1)
			in.codeLoaded = true
		}
		in.codeIdx++
	case off == ShOpdescIndex:
		in.descIdx = int(v & 0xFFF)
	case off >= ShOpdescData0 && off < ShOpdescData0+ShOpdescDataCount:
		if in.descIdx < len(in.descs) {
			in.descs[in.descIdx] = v
		}
		in.descIdx++
	}
}

// Registers implements hal.Inspector: every register written, decoded.
func (in *Inspector) Registers() []hal.RegisterValue {
	var out []hal.RegisterValue
	for id := Reg(0); id < NumRegs; id++ {
		if in.written[id] {
			out = append(out, hal.RegisterValue{Name: id.Name(), Addr: uint32(id), Value: in.regs[id], Text: Describe(id, in.regs[id])})
		}
	}
	return out
}

// Programs implements hal.Inspector: the vertex shader as loaded (every
// code word up to the highest one written, with the entry point marked),
// then its float uniforms.
func (in *Inspector) Programs() []hal.Program {
	if !in.codeLoaded {
		return nil
	}
	entry := int(in.regs[VSH_ENTRYPOINT] & 0xFFFF)
	var lines []string
	for i := 0; i < in.codeN; i++ {
		mark := "  "
		if i == entry {
			mark = "->"
		}
		lines = append(lines, fmt.Sprintf("%s %03x  %08x  %s", mark, i, in.code[i], Disasm(in.code[i], in.descs[:])))
	}
	prog := []hal.Program{{Name: "vertex shader", Lines: lines}}
	var u []string
	for i, set := range in.floatSet {
		if set {
			v := in.floats[i]
			u = append(u, fmt.Sprintf("c%d = (%g, %g, %g, %g)", i, v[0], v[1], v[2], v[3]))
		}
	}
	if len(u) > 0 {
		prog = append(prog, hal.Program{Name: "vertex shader float uniforms", Lines: u})
	}
	return prog
}

// Surfaces implements hal.Inspector: the colour buffer (COLORBUFFER_LOC,
// _FORMAT, FRAMEBUFFER_DIM), the depth buffer (DEPTHBUFFER_LOC, _FORMAT),
// the stencil in the top byte of D24S8, and the enabled texture units'
// level 0. Images are 8x8-tiled (tile.go); rows are shown in memory
// order, which is the image's top row first.
func (in *Inspector) Surfaces() []hal.Surface {
	var out []hal.Surface
	dim := in.regs[FRAMEBUFFER_DIM]
	w, h := int(dim&0x7FF), int(dim>>12&0x3FF)+1
	if w == 0 || w%8 != 0 || h%8 != 0 {
		return nil
	}
	pixel := func(addr uint32, bpp int, shift uint) func(x, y int) (uint32, int, uint) {
		return func(x, y int) (uint32, int, uint) { return addr + uint32(TileOffset(x, y, w)*bpp), bpp, shift }
	}
	cf := ColorFormat(in.regs[COLORBUFFER_FORMAT] >> 16 & 7)
	if bpp := cf.BytesPerPixel(); bpp > 0 {
		addr := (in.regs[COLORBUFFER_LOC] & 0x0FFFFFFF) << 3
		out = append(out, hal.Surface{Kind: hal.SurfaceColor, Name: "colour buffer", Addr: addr, Width: w, Height: h,
			Format: EnumColorFormat[cf], Info: "8x8 tiles", Pixel: pixel(addr, bpp, 0), Mask: uint32(1<<(8*bpp) - 1),
			Color: func(v uint32) color.NRGBA {
				var b [4]byte
				binary.LittleEndian.PutUint32(b[:], v)
				c := DecodeColor(cf, b[:])
				return color.NRGBA{c[0], c[1], c[2], 255}
			}})
	}
	df := DepthFormat(in.regs[DEPTHBUFFER_FORMAT] & 3)
	if bpp := df.BytesPerPixel(); bpp > 0 {
		addr := (in.regs[DEPTHBUFFER_LOC] & 0x0FFFFFFF) << 3
		out = append(out, hal.Surface{Kind: hal.SurfaceDepth, Name: "depth buffer", Addr: addr, Width: w, Height: h,
			Format: EnumDepthFormat[df], Info: "8x8 tiles", Pixel: pixel(addr, bpp, 0), Mask: uint32(1)<<df.Bits() - 1})
		if df == DepthD24S8 {
			out = append(out, hal.Surface{Kind: hal.SurfaceStencil, Name: "stencil (D24S8 top byte)", Addr: addr, Width: w, Height: h,
				Format: "S8", Info: "8x8 tiles", Pixel: pixel(addr, 4, 24), Mask: 0xFF})
		}
	}
	en := in.regs[TEXUNIT_CONFIG] & 7
	for u := 0; u < 3; u++ {
		if en>>uint(u)&1 != 0 {
			if s, ok := in.texture(u); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

var (
	texDimRegs  = [3]Reg{TEXUNIT0_DIM, TEXUNIT1_DIM, TEXUNIT2_DIM}
	texAddrRegs = [3]Reg{TEXUNIT0_ADDR1, TEXUNIT1_ADDR, TEXUNIT2_ADDR}
	texTypeRegs = [3]Reg{TEXUNIT0_TYPE, TEXUNIT1_TYPE, TEXUNIT2_TYPE}
)

// texture describes level 0 of texture unit u, decoded as sim/pica's
// texture unit reads it.
func (in *Inspector) texture(u int) (hal.Surface, bool) {
	dim := in.regs[texDimRegs[u]]
	h, w := int(dim&0x7FF), int(dim>>16&0x7FF)
	f := TexFormat(in.regs[texTypeRegs[u]] & 0xF)
	bits := f.BitsPerTexel()
	if bits == 0 || w < 8 || h < 8 || w%8 != 0 || h%8 != 0 {
		return hal.Surface{}, false
	}
	addr := (in.regs[texAddrRegs[u]] & 0x0FFFFFFF) << 3
	s := hal.Surface{Kind: hal.SurfaceTexture, Name: fmt.Sprintf("texture unit %d", u), Addr: addr, Width: w, Height: h,
		Format: EnumTexFormat[f], Info: "level 0, 8x8 tiles"}
	s.Decode = func(read func(uint32, []byte) error) (*hal.Picture, error) {
		data := make([]byte, LevelBytes(w, h, 0, bits))
		if err := read(addr, data); err != nil {
			return nil, fmt.Errorf("texture at %#08x: %w", addr, err)
		}
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := texelAt(f, data, w, x, y)
				img.SetNRGBA(x, y, color.NRGBA{c[0], c[1], c[2], c[3]})
			}
		}
		return &hal.Picture{Image: img}, nil
	}
	return s, true
}

// texelAt decodes the texel at (x, memory row) of a tiled texture.
func texelAt(f TexFormat, d []byte, width, x, row int) [4]uint8 {
	i := TileOffset(x, row, width)
	switch f {
	case TexRGBA8:
		b := d[4*i:]
		return [4]uint8{b[3], b[2], b[1], b[0]}
	case TexRGB8:
		b := d[3*i:]
		return [4]uint8{b[2], b[1], b[0], 255}
	case TexRGBA5551:
		return DecodeColor(ColorRGB5A1, d[2*i:])
	case TexRGB565:
		return DecodeColor(ColorRGB565, d[2*i:])
	case TexRGBA4:
		return DecodeColor(ColorRGBA4, d[2*i:])
	case TexIA8:
		return [4]uint8{d[2*i+1], d[2*i+1], d[2*i+1], d[2*i]}
	case TexHILO8:
		return [4]uint8{d[2*i+1], d[2*i], 0, 255}
	case TexI8:
		return [4]uint8{d[i], d[i], d[i], 255}
	case TexA8:
		return [4]uint8{0, 0, 0, d[i]}
	case TexIA4:
		iv, a := Expand4(uint16(d[i]>>4)), Expand4(uint16(d[i]&15))
		return [4]uint8{iv, iv, iv, a}
	case TexI4, TexA4:
		v := Expand4(uint16(d[i/2] >> (4 * uint(i&1)) & 15))
		if f == TexA4 {
			return [4]uint8{0, 0, 0, v}
		}
		return [4]uint8{v, v, v, 255}
	case TexETC1, TexETC1A4:
		// Four 4x4 blocks per tile in the order (0,0), (1,0), (0,1),
		// (1,1); ETC1A4 puts an 8-byte alpha block first (sim/pica
		// etcTexel, [OUT] citra).
		tile := (row/8)*(width/8) + x/8
		sub := (x%8)/4 + 2*((row%8)/4)
		bsize := 8
		if f == TexETC1A4 {
			bsize = 16
		}
		b := d[(tile*4+sub)*bsize:][:bsize]
		bx, by := x%4, row%4
		alpha := uint8(255)
		if f == TexETC1A4 {
			alpha = Expand4(uint16(binary.LittleEndian.Uint64(b) >> (4 * uint(bx*4+by)) & 15))
			b = b[8:]
		}
		c := texblock.ETC1(binary.LittleEndian.Uint64(b), bx, by)
		c[3] = alpha
		return c
	}
	return [4]uint8{}
}
