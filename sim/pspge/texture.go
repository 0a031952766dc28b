package pspge

import (
	"encoding/binary"
	"fmt"
	"math"

	ge "github.com/retrogl/retrogl/hal/pspge"
)

// Texture formats (TPSM, seed L726-738).
const (
	tex5650 = iota
	tex5551
	tex4444
	tex8888
	texCLUT4
	texCLUT8
	texCLUT16
	texCLUT32
	texDXT1
	texDXT3
	texDXT5
)

// texBits is the size of one texel in bits per TPSM (DXT: per texel of a
// 4x4 block).
var texBits = [11]int{16, 16, 16, 32, 4, 8, 16, 32, 4, 8, 8}

// texLevel is one mipmap level as the sampler reads it.
type texLevel struct {
	data   []byte
	addr   uint64 // device address of data
	w, h   int
	bufw   int
	pitch  int // bytes per row (linear) or per 8-row block band / 8 (swizzled)
	wrapU  int // (w-1) & 511
	wrapV  int
	clampU int // min(w, 512) - 1
	clampV int
	log2w  int
	log2h  int
}

// sampler is the texture state of one PRIM, decided once.
type sampler struct {
	format   int
	swizzle  bool
	levels   [8]texLevel
	maxLevel int
	// CLUT (CMODE, seed L743-751 and guide §2.8 [OUT]).
	clut       *[1024]byte
	clutFormat int
	clutShift  uint
	clutMask   uint32
	clutStart  uint32
	clutLimit  uint32 // 0xFF for 32-bit entries, 0x1FF for 16-bit
	sharedClut bool
	clampS     bool
	clampT     bool
	minLinear  bool
	magLinear  bool
	mipmap     bool // min filter uses mipmaps
	mipLinear  bool
	lodMode    uint32
	lodBias    int // 1/16 level
	lodSlope   float32
	fn         uint32
	rgba       bool
	double     bool
	tec        [3]int32
	// needLOD is set when the LOD decides anything (mipmaps, or min and
	// mag filters differ).
	needLOD bool
	fetch   func(s *sampler, l *texLevel, level, u, v int) uint32
	// linear8888 is set for unswizzled 8888 textures, read inline.
	linear8888 bool
	// spread, when set (GE.spreadLevel0, for one batch), holds level 0's
	// texels in spread's lanes, texel (u, v) at v<<log2w + u.
	spread []uint64
}

// setupSampler reads the texture registers. It faults (returns an error
// text) when a level lies outside memory or a size is out of range.
func (g *GE) setupSampler(s *sampler) string {
	*s = sampler{}
	s.format = int(g.regs[ge.TPSM] & 0xF)
	if s.format > texDXT5 {
		return fmt.Sprintf("TPSM format %d is reserved", s.format)
	}
	tmode := g.regs[ge.TMODE]
	s.swizzle = tmode&1 != 0
	s.sharedClut = tmode&0x100 == 0
	s.maxLevel = int(tmode >> 16 & 7)
	flt := g.regs[ge.TFLT]
	minF, magF := flt&7, flt>>8&7
	s.minLinear = minF&1 != 0
	s.magLinear = magF&1 != 0
	s.mipmap = minF&4 != 0
	s.mipLinear = minF&6 == 6
	if !s.mipmap {
		s.maxLevel = 0
	}
	s.needLOD = s.maxLevel > 0 || s.minLinear != s.magLinear
	wrap := g.regs[ge.TWRAP]
	s.clampS, s.clampT = wrap&1 != 0, wrap&0x100 != 0
	bias := g.regs[ge.TBIAS]
	s.lodMode = bias & 3
	s.lodBias = int(int8(bias >> 16))
	s.lodSlope = f24(g, ge.TSLOPE)
	tf := g.regs[ge.TFUNC]
	s.fn = tf & 7
	s.rgba = tf&0x100 != 0
	s.double = tf&0x10000 != 0
	tec := g.regs[ge.TEC]
	s.tec = [3]int32{int32(tec & 0xFF), int32(tec >> 8 & 0xFF), int32(tec >> 16 & 0xFF)}
	cm := g.regs[ge.CMODE]
	s.clut = &g.clut
	s.clutFormat = int(cm & 3)
	s.clutShift = uint(cm >> 2 & 0x1F)
	s.clutMask = cm >> 8 & 0xFF
	s.clutStart = (cm >> 16 & 0x1F) << 4
	s.clutLimit = 0x1FF
	if s.clutFormat == 3 {
		s.clutLimit = 0xFF
	}
	bits := texBits[s.format]
	for i := 0; i <= s.maxLevel; i++ {
		l := &s.levels[i]
		size := g.regs[ge.TSIZE0+ge.Op(i)]
		l.log2w, l.log2h = int(size&0xF), int(size>>8&0xF)
		if l.log2w > 9 || l.log2h > 9 {
			return fmt.Sprintf("TSIZE%d %dx%d exceeds 512 (guide §5.20)", i, 1<<l.log2w, 1<<l.log2h)
		}
		l.w, l.h = 1<<l.log2w, 1<<l.log2h
		l.wrapU, l.wrapV = (l.w-1)&511, (l.h-1)&511
		l.clampU, l.clampV = min(l.w, 512)-1, min(l.h, 512)-1
		tbw := g.regs[ge.TBW0+ge.Op(i)]
		l.bufw = int(tbw & 0xFFFF)
		addr := (tbw&0x0F0000)<<8 | g.regs[ge.TBP0+ge.Op(i)]&0xFFFFF0
		var n int
		switch {
		case s.format >= texDXT1:
			bs := 8
			if s.format != texDXT1 {
				bs = 16
			}
			n = (((l.h-1)>>2)*(l.bufw>>2) + (l.w-1)>>2 + 1) * bs
		case s.swizzle:
			l.pitch = l.bufw * bits / 8
			n = s.rowOffset(l, l.h-1) + s.colOffset(l.w-1) + max(bits/8, 1)
		default:
			l.pitch = l.bufw * bits / 8
			n = (l.h-1)*l.pitch + ((l.w-1)*bits)/8 + max(bits/8, 1)
		}
		b, ok := g.mem.Slice(addr, uint32(n))
		if !ok {
			return fmt.Sprintf("texture level %d at %#08x+%d outside memory", i, addr, n)
		}
		l.data, l.addr = b, uint64(addr)
	}
	s.fetch = fetchFuncs[s.format]
	if s.swizzle && s.format < texDXT1 {
		s.fetch = fetchSwizzled
	}
	s.linear8888 = s.format == tex8888 && !s.swizzle
	return ""
}

// rowOffset and colOffset address a swizzled texture: 16-byte by 8-row
// blocks stored row-major by block (guide §3 [OUT]).
func (s *sampler) rowOffset(l *texLevel, v int) int {
	return (v>>3)*(l.pitch>>4)*128 + (v&7)*16
}

func (s *sampler) colOffset(u int) int {
	b := u * texBits[s.format] >> 3
	return (b>>4)*128 + b&15
}

func rgba5650(v uint32) uint32 {
	r, g, b := v&31, v>>5&63, v>>11&31
	return (r<<3 | r>>2) | (g<<2|g>>4)<<8 | (b<<3|b>>2)<<16
}

func rgba5551(v uint32) uint32 {
	r, g, b := v&31, v>>5&31, v>>10&31
	return (r<<3 | r>>2) | (g<<3|g>>2)<<8 | (b<<3|b>>2)<<16 | (v>>15)*0xFF000000
}

func rgba4444(v uint32) uint32 {
	return (v&15)*0x11 | (v>>4&15)*0x1100 | (v>>8&15)*0x110000 | (v>>12&15)*0x11000000
}

// clutEntry looks up a CLUT entry (PPSSPP TransformClutIndex [OUT]):
// ((raw >> shift) & mask) | start, the start wrapped to the CLUT size; CLUT4
// and CLUT8 levels past 0 use their own palette unless TMODE shares it.
func (s *sampler) clutEntry(raw uint32, level int) uint32 {
	idx := (raw>>s.clutShift)&s.clutMask | s.clutStart&s.clutLimit
	if !s.sharedClut {
		switch s.format {
		case texCLUT4:
			idx += uint32(level) * 16
		case texCLUT8:
			idx += uint32(level&1) * 256
		}
	}
	if s.clutFormat == 3 {
		o := (idx & 0xFF) * 4
		return binary.LittleEndian.Uint32(s.clut[o:])
	}
	v := uint32(binary.LittleEndian.Uint16(s.clut[(idx&0x1FF)*2:]))
	switch s.clutFormat {
	case 0:
		return rgba5650(v) | 0xFF000000
	case 1:
		return rgba5551(v)
	}
	return rgba4444(v)
}

// decodeTexel turns the raw bytes at p into RGBA8 (R in the low byte).
func (s *sampler) decodeTexel(p []byte, u, level int) uint32 {
	switch s.format {
	case tex5650:
		return rgba5650(uint32(binary.LittleEndian.Uint16(p))) | 0xFF000000
	case tex5551:
		return rgba5551(uint32(binary.LittleEndian.Uint16(p)))
	case tex4444:
		return rgba4444(uint32(binary.LittleEndian.Uint16(p)))
	case tex8888:
		return binary.LittleEndian.Uint32(p)
	case texCLUT4:
		raw := uint32(p[0])
		if u&1 != 0 {
			raw >>= 4
		}
		return s.clutEntry(raw&15, level)
	case texCLUT8:
		return s.clutEntry(uint32(p[0]), level)
	case texCLUT16:
		return s.clutEntry(uint32(binary.LittleEndian.Uint16(p)), level)
	}
	return s.clutEntry(binary.LittleEndian.Uint32(p), level)
}

var fetchFuncs = [11]func(s *sampler, l *texLevel, level, u, v int) uint32{
	fetchLinear, fetchLinear, fetchLinear, fetch8888, fetchLinear, fetchLinear, fetchLinear, fetchLinear,
	fetchDXT, fetchDXT, fetchDXT,
}

func fetch8888(s *sampler, l *texLevel, level, u, v int) uint32 {
	return binary.LittleEndian.Uint32(l.data[v*l.pitch+u*4:])
}

func fetchLinear(s *sampler, l *texLevel, level, u, v int) uint32 {
	return s.decodeTexel(l.data[v*l.pitch+(u*texBits[s.format])>>3:], u, level)
}

func fetchSwizzled(s *sampler, l *texLevel, level, u, v int) uint32 {
	return s.decodeTexel(l.data[s.rowOffset(l, v)+s.colOffset(u):], u, level)
}

// fetchDXT decodes one texel of a PSP DXT block ([OUT] PPSSPP
// TextureDecoder: the colour block is u8 indices[4] (one byte per row, 2
// bits per texel from the low bits), then c0, c1 as RGB565 with red in the
// high bits, widened by shifting (no bit replication); the 2/3 mixes
// truncate. DXT3 adds 4 x u16 alpha rows (4 bits per texel, alpha = a<<4);
// DXT5 adds a 48-bit index field (u32 then u16) and the two alpha end
// points.
func fetchDXT(s *sampler, l *texLevel, level, u, v int) uint32 {
	bs := 16
	if s.format == texDXT1 {
		bs = 8
	}
	o := ((v>>2)*(l.bufw>>2) + u>>2) * bs
	b := l.data[o : o+bs]
	x, y := u&3, v&3
	alpha := uint32(255)
	if s.format != texDXT1 {
		alpha = 0
	}
	c := dxtColor(b, x, y, alpha)
	switch s.format {
	case texDXT3:
		row := uint32(binary.LittleEndian.Uint16(b[8+2*y:]))
		c |= (row >> (4 * uint(x)) & 15) << 28
	case texDXT5:
		bits := uint64(binary.LittleEndian.Uint32(b[8:])) | uint64(binary.LittleEndian.Uint16(b[12:]))<<32
		a0, a1 := uint32(b[14]), uint32(b[15])
		i := uint32(bits >> uint(12*y+3*x) & 7)
		var a uint32
		switch {
		case i == 0:
			a = a0
		case i == 1:
			a = a1
		case a0 > a1:
			a = dxt5Lerp(a0, a1, i-1, 7)
		case i == 6:
			a = 0
		case i == 7:
			a = 255
		default:
			a = dxt5Lerp(a0, a1, i-1, 5)
		}
		c |= a << 24
	}
	return c
}

// dxt5Lerp is PPSSPP's lerp8/lerp6: the end points weighted in 8.8 fixed
// point, each weight divided (truncating) by the step count, then the sum
// plus 31 shifted down.
func dxt5Lerp(a0, a1, n, steps uint32) uint32 {
	x := a0 * ((steps - n) << 8) / steps
	y := a1 * (n << 8) / steps
	return (x + y + 31) >> 8 & 0xFF
}

func dxtColor(b []byte, x, y int, alpha uint32) uint32 {
	c0 := uint32(binary.LittleEndian.Uint16(b[4:]))
	c1 := uint32(binary.LittleEndian.Uint16(b[6:]))
	idx := uint32(b[y]) >> (2 * uint(x)) & 3
	ch := func(c uint32) (r, g, b uint32) { return c >> 8 & 0xF8, c >> 3 & 0xFC, c << 3 & 0xF8 }
	r0, g0, b0 := ch(c0)
	r1, g1, b1 := ch(c1)
	mk := func(r, g, b, a uint32) uint32 { return r | g<<8 | b<<16 | a<<24 }
	switch {
	case idx == 0:
		return mk(r0, g0, b0, alpha)
	case idx == 1:
		return mk(r1, g1, b1, alpha)
	case c0 > c1:
		if idx == 2 {
			return mk((2*r0+r1)/3, (2*g0+g1)/3, (2*b0+b1)/3, alpha)
		}
		return mk((2*r1+r0)/3, (2*g1+g0)/3, (2*b1+b0)/3, alpha)
	case idx == 3:
		return 0
	}
	return mk((r0+r1)/2, (g0+g1)/2, (b0+b1)/2, alpha)
}

// coord converts a texture coordinate to 1/16 texel, truncating toward
// zero; out-of-range values read texel 0 ([OUT] PPSSPP Sampler TexelFixed).
func coord(st float32, size int) int {
	f := float32(float32(st*float32(size)) * 16)
	if f >= -2147483648 && f < 2147483648 {
		return int(int32(f))
	}
	return math.MinInt32
}

func (s *sampler) wrapU(l *texLevel, u int) int {
	if s.clampS {
		return min(max(u, 0), l.clampU)
	}
	return u & l.wrapU
}

func (s *sampler) wrapV(l *texLevel, v int) int {
	if s.clampT {
		return min(max(v, 0), l.clampV)
	}
	return v & l.wrapV
}

// nearest samples level lv at (s, t) in normalised coordinates.
func (s *sampler) nearest(lv int, st, tt float32) uint32 {
	l := &s.levels[lv]
	u := s.wrapU(l, coord(st, l.w)>>4)
	v := s.wrapV(l, coord(tt, l.h)>>4)
	return s.fetch(s, l, lv, u, v)
}

// bilinear samples level lv: the texel grid is offset by half a texel, the
// fraction has 4 bits; horizontal lerps truncate to 8 bits before the
// vertical one ([OUT] PPSSPP SampleLinearLevel).
func (s *sampler) bilinear(lv int, st, tt float32) uint32 {
	l := &s.levels[lv]
	bu := coord(st, l.w) - 8
	bv := coord(tt, l.h) - 8
	fu, fv := uint32(bu&15), uint32(bv&15)
	u0, u1 := s.wrapU(l, bu>>4), s.wrapU(l, bu>>4+1)
	v0, v1 := s.wrapV(l, bv>>4), s.wrapV(l, bv>>4+1)
	var tl, tr, bl, br uint32
	if s.linear8888 {
		r0, r1 := l.data[v0*l.pitch:], l.data[v1*l.pitch:]
		tl = binary.LittleEndian.Uint32(r0[u0*4:])
		tr = binary.LittleEndian.Uint32(r0[u1*4:])
		bl = binary.LittleEndian.Uint32(r1[u0*4:])
		br = binary.LittleEndian.Uint32(r1[u1*4:])
	} else {
		tl = s.fetch(s, l, lv, u0, v0)
		tr = s.fetch(s, l, lv, u1, v0)
		bl = s.fetch(s, l, lv, u0, v1)
		br = s.fetch(s, l, lv, u1, v1)
	}
	top := lerp4(tl, tr, fu)
	bot := lerp4(bl, br, fu)
	return lerp4(top, bot, fv)
}

// lerp4 is (a*(16-f) + b*f) >> 4 on each byte lane.
func lerp4(a, b, f uint32) uint32 {
	if f == 0 {
		return a
	}
	const m = 0x00FF00FF
	lo := ((a&m)*(16-f) + (b&m)*f) >> 4 & m
	hi := ((a>>8&m)*(16-f) + (b>>8&m)*f) >> 4 & m
	return lo | hi<<8
}

// texLog16 is log2 of a positive float with 4 fraction bits, read from the
// float's exponent and top mantissa bits ([OUT] PPSSPP TexLog2).
func texLog16(f float32) int {
	if !(f > 0) {
		return math.MinInt32 / 2
	}
	b := math.Float32bits(f)
	return int(b>>19&0xFFF) - 127*16
}

// sample returns the texel colour for (s, t) (normalised) with the level of
// detail computed from grad, the largest texel-space gradient per pixel
// along s or t in level-0 texels (auto mode), or invW for slope mode.
func (s *sampler) sample(st, tt, grad float32, q float32) uint32 {
	if !s.needLOD {
		if s.magLinear {
			return s.bilinear(0, st, tt)
		}
		return s.nearest(0, st, tt)
	}
	var detail int
	switch s.lodMode {
	case 0:
		detail = texLog16(grad)
	case 2:
		// Slope mode: the slope over q, one level up ([OUT] PPSSPP
		// CalculateSamplingParams).
		detail = 16 + texLog16(s.lodSlope) - texLog16(q)
	}
	detail += s.lodBias
	linear := s.magLinear
	if detail > 0 {
		linear = s.minLinear
	}
	level, frac := 0, 0
	if detail > 0 && s.maxLevel > 0 {
		l8 := min(detail, s.maxLevel*16)
		if !s.mipLinear {
			l8 += 8
		}
		level = l8 >> 4
		if s.mipLinear {
			frac = l8 & 15
		}
		level = min(level, s.maxLevel)
		if level == s.maxLevel {
			frac = 0
		}
	}
	get := s.nearest
	if linear {
		get = s.bilinear
	}
	c0 := get(level, st, tt)
	if frac == 0 {
		return c0
	}
	c1 := get(level+1, st, tt)
	return lerp4(c0, c1, uint32(frac))
}

// texFunc combines the fragment colour c with the texel (TFUNC, seed
// L773-785) with the GE's rounding ([OUT] PPSSPP GetTextureFunctionOutput):
// modulate (c+1)*t/256, decal and blend divide by 256 after a bias, replace
// and add are exact; doubling (bit 16) doubles the colour result.
func (s *sampler) texFunc(c [4]int32, tex uint32) [4]int32 {
	if s.fn == 0 && !s.double {
		// The common case, in unsigned shifts (every operand is >= 0).
		out := [4]int32{
			int32(uint32(c[0]+1) * (tex & 0xFF) >> 8),
			int32(uint32(c[1]+1) * (tex >> 8 & 0xFF) >> 8),
			int32(uint32(c[2]+1) * (tex >> 16 & 0xFF) >> 8),
			c[3],
		}
		if s.rgba {
			out[3] = int32(uint32(c[3]+1) * (tex >> 24) >> 8)
		}
		return out
	}
	t := [4]int32{int32(tex & 0xFF), int32(tex >> 8 & 0xFF), int32(tex >> 16 & 0xFF), int32(tex >> 24)}
	var out [4]int32
	out[3] = c[3]
	switch s.fn {
	case 0: // modulate
		for k := 0; k < 3; k++ {
			if s.double {
				out[k] = (c[k] + 1) * t[k] * 2 / 256
			} else {
				out[k] = (c[k] + 1) * t[k] / 256
			}
		}
		if s.rgba {
			out[3] = (c[3] + 1) * t[3] / 256
		}
	case 1: // decal
		if s.rgba {
			a, ia := t[3], 255-t[3]
			for k := 0; k < 3; k++ {
				v := (c[k]+1)*ia + (t[k]+1)*a
				if s.double {
					out[k] = v / 128
				} else {
					out[k] = v / 256
				}
			}
		} else {
			for k := 0; k < 3; k++ {
				out[k] = t[k]
				if s.double {
					out[k] *= 2
				}
			}
		}
	case 2: // blend
		for k := 0; k < 3; k++ {
			v := (255-t[k])*c[k] + t[k]*s.tec[k] + 255
			if s.double {
				out[k] = v / 128
			} else {
				out[k] = v / 256
			}
		}
		if s.rgba {
			out[3] = (c[3] + 1) * t[3] / 256
		}
	case 3: // replace
		for k := 0; k < 3; k++ {
			out[k] = t[k]
			if s.double {
				out[k] *= 2
			}
		}
		if s.rgba {
			out[3] = t[3]
		}
	default: // add (5-7 behave as add)
		for k := 0; k < 3; k++ {
			out[k] = c[k] + t[k]
			if s.double {
				out[k] *= 2
			}
		}
		if s.rgba {
			out[3] = (c[3] + 1) * t[3] / 256
		}
	}
	return out
}
