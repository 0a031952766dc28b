package unichrome

import (
	"encoding/binary"
	"fmt"
	"math"

	uc "github.com/retrogl/retrogl/hal/unichrome"
	"github.com/retrogl/retrogl/internal/texblock"
)

// texLevel is one mipmap level in memory.
type texLevel struct {
	base       uint32
	mem        []byte
	pitch      int
	w, h       int
	wlog, hlog uint
}

// texUnit is a texture as the sampler reads it (02h, SubType 00h/01h).
//
// Sampling decisions (guide §7 (g), each tested):
//   - A texel of level m is at base_m + t*pitch_m + s*bits/8; sub-byte
//     texels run LSB first unless 7Bh bit 14 inverts the order; DXT blocks
//     are 4x4 texels, a row of blocks per pitch.
//   - Colour channels widen by replicating their top bits, or by zero fill
//     with 7Bh bit 15; alpha always replicates. Missing alpha reads 255;
//     luminance gives RGB = L; intensity every channel; alpha-only formats
//     black RGB. Index formats read palette 0 (ARGB8888).
//   - Coordinates: u = s x width (nearest: texel floor(u); linear: u - 0.5
//     with an 8-bit fraction); wrap per axis: repeat (and "warp", read as a
//     misspelt wrap), clamp (and "single"), mirror, mirror-once. Border
//     colour (78h bits 20/21) replaces texels outside a clamped axis.
//   - LOD: rho = max(|ds/dx| W, |dt/dx| H, |ds/dy| W, |dt/dy| H) in texels
//     of level LVmin; lod = floor(32 log2 rho) in 1/32 steps, plus HTXnL0OS
//     (s5.5), minus 32 x the dS/dT divisor exponent (7Ah bits 23:20).
//     lod <= 0 magnifies (the magnification filters on level LVmin);
//     otherwise the mip filter picks level LVmin + lod/32 (nearest: rounded
//     half down; linear: two levels blended with a 5-bit fraction),
//     clamped to LVmax. "Constant LOD" takes lod = CLODd (7Ah bits 9:0).
//     Level 0 only (0000) always reads LVmin.
type texUnit struct {
	info             uc.TexFormatInfo
	zext, inv        bool
	lv               [uc.MaxTexLevels]texLevel
	lvmin, lvmax     int
	l0os             int
	dsdiv            int
	clod             int
	magS, minS       uint32
	magT, minT       uint32
	mip              uint32
	wrapS, wrapT     uint32
	borderS, borderT bool
	border           [4]int
	pal              *[256][4]uint8
	needLOD          bool
	abgr8888         bool // fast path: bytes R, G, B, A
	fastRepeat       bool // ABGR8888, repeat (or warp) on both axes
}

// Filter and mip codes (78h).
const (
	filtNearest = 0
	filtLinear  = 1
	mipLevel0   = 0
	mipNearest  = 1
	mipLinear   = 2
	mipConstant = 5
)

// Wrap codes (79h).
const (
	wrapSingle     = 0
	wrapClamp      = 1
	wrapRepeat     = 2
	wrapMirror     = 3
	wrapWarp       = 4
	wrapMirrorOnce = 7
)

func (e *Engine) compileTexture(n int, u *texUnit) error {
	r := &e.tex[n]
	code := uint8(r[uc.TexFormat] >> 16)
	info, ok := uc.TexFormatOf(code)
	if !ok {
		return fmt.Errorf("reserved texture format %#02x", code)
	}
	switch info.Kind {
	case uc.KindYUV:
		return fmt.Errorf("YUV texture %s is not simulated: the YUV-to-RGB coefficients A, B1, C1 are lost in the seed (L2896)", info.Name)
	case uc.KindBump:
		return fmt.Errorf("bump-map texture %s is reserved (L2708)", info.Name)
	}
	*u = texUnit{info: info, zext: r[uc.TexFormat]>>15&1 != 0, inv: r[uc.TexFormat]>>14&1 != 0, pal: &e.texPal}
	lod := r[uc.TexLOD]
	u.lvmin, u.lvmax = int(lod&0x3F), int(lod>>6&0x3F)
	if u.lvmax >= uc.MaxTexLevels || u.lvmin > u.lvmax {
		return fmt.Errorf("texture levels %d..%d outside 0..B", u.lvmin, u.lvmax)
	}
	u.abgr8888 = code == uc.TexABGR8888
	u.l0os = int(int32(lod>>12&0x3FF<<22) >> 22)
	fl := r[uc.TexFilter]
	u.magS, u.minS, u.magT, u.minT = fl>>13&7, fl>>10&7, fl>>7&7, fl>>4&7
	for _, f := range []uint32{u.magS, u.minS, u.magT, u.minT} {
		if f > filtLinear {
			return fmt.Errorf("texture filter %s is not simulated", uc.EnumFilter[f])
		}
	}
	u.mip = fl & 15
	switch u.mip {
	case mipLevel0, mipNearest, mipLinear, mipConstant:
	default:
		return fmt.Errorf("mip filter %s is not simulated", uc.EnumMip[u.mip])
	}
	if b := fl >> 20 & 15; b&12 != 0 {
		return fmt.Errorf("texture borders (78h bits 23:22) are not simulated")
	} else {
		u.borderS, u.borderT = b&1 != 0, b&2 != 0
	}
	tb, ta := r[uc.TexBorder], r[uc.TexTransAlpha]
	u.border = [4]int{int(tb >> 16 & 0xFF), int(tb >> 8 & 0xFF), int(tb & 0xFF), int(ta & 0xFF)}
	wm := r[uc.TexWrapMode]
	u.wrapS, u.wrapT = wm>>16&7, wm>>19&7
	for _, w := range []uint32{u.wrapS, u.wrapT} {
		if w == 5 || w == 6 {
			return fmt.Errorf("reserved wrap mode %03b", w)
		}
	}
	u.fastRepeat = u.abgr8888 && (u.wrapS == wrapRepeat || u.wrapS == wrapWarp) && (u.wrapT == wrapRepeat || u.wrapT == wrapWarp)
	if wm>>3&1 != 0 {
		return fmt.Errorf("pixel coordinates as texture coordinates (79h bit 3) are not simulated")
	}
	lc := r[uc.TexLODConst]
	u.dsdiv = int(lc >> 20 & 15)
	if u.dsdiv > 5 {
		return fmt.Errorf("reserved dS/dT divisor %d", u.dsdiv)
	}
	u.clod = int(lc & 0x3FF)
	u.needLOD = u.mip != mipLevel0 && u.mip != mipConstant || u.magS != u.minS || u.magT != u.minT
	for l := u.lvmin; l <= u.lvmax; l++ {
		lv := &u.lv[l]
		base := r[uc.TexBaseL0+l]&0xFFFFFF | (r[uc.TexBaseH012+l/3]>>(8*uint(l%3))&0xFF)<<24
		pr := r[uc.TexPitch0+l]
		pite := pr >> 20 & 15
		if l == 0 && pr>>19&1 != 0 {
			lv.pitch = int(pr & 0x3FFF)
		} else {
			if pite > 13 {
				return fmt.Errorf("level %d: reserved pitch exponent %d", l, pite)
			}
			lv.pitch = 1 << pite
		}
		wr, hr := r[uc.TexWidth05+l/6], r[uc.TexHeight05+l/6]
		lv.wlog, lv.hlog = uint(wr>>(4*uint(l%6))&15), uint(hr>>(4*uint(l%6))&15)
		if lv.wlog > 11 || lv.hlog > 11 {
			return fmt.Errorf("level %d: size 2^%d x 2^%d beyond 2048", l, lv.wlog, lv.hlog)
		}
		lv.w, lv.h = 1<<lv.wlog, 1<<lv.hlog
		rows, rowBytes := lv.h, (lv.w*info.Bits+7)/8
		switch info.Kind {
		case uc.KindDXT1, uc.KindDXT3, uc.KindDXT5:
			bs := 8
			if info.Kind != uc.KindDXT1 {
				bs = 16
			}
			rows, rowBytes = (lv.h+3)/4, (lv.w+3)/4*bs
		}
		size := uint64(lv.pitch)*uint64(rows-1) + uint64(rowBytes)
		mem, ok := e.mem.Slice(base, uint32(size))
		if !ok || size > 1<<30 {
			return fmt.Errorf("level %d at %#x+%d lies outside device memory", l, base, size)
		}
		lv.mem, lv.base = mem, base
	}
	return nil
}

// expand widens an n-bit value to 8 bits by replication or zero fill.
func expand(v uint32, n uint8, zero bool) int {
	switch {
	case n == 0:
		return 0
	case n >= 8:
		return int(v >> (n - 8) & 0xFF)
	case zero:
		return int(v << (8 - n) & 0xFF)
	}
	// Replicate the top bits until 8 are filled.
	out, have := v<<(8-n), n
	for have < 8 {
		out |= out >> have
		have *= 2
	}
	return int(out & 0xFF)
}

// subTexel reads an n-bit texel (n <= 8) of a row.
func (u *texUnit) subTexel(row []byte, x int, n int) uint32 {
	bit := x * n
	b := uint32(row[bit>>3])
	sh := bit & 7
	if u.inv {
		sh = 8 - n - sh
	}
	return b >> uint(sh) & (1<<uint(n) - 1)
}

// texel fetches texel (x, y) of level l as RGBA.
func (u *texUnit) texel(l, x, y int) [4]int {
	lv := &u.lv[l]
	f := &u.info
	switch f.Kind {
	case uc.KindRGBA:
		var v uint32
		off := y*lv.pitch + x*f.Bits/8
		if u.abgr8888 {
			p := lv.mem[off : off+4]
			return [4]int{int(p[0]), int(p[1]), int(p[2]), int(p[3])}
		}
		if f.Bits == 32 {
			v = binary.LittleEndian.Uint32(lv.mem[off:])
		} else {
			v = uint32(binary.LittleEndian.Uint16(lv.mem[off:]))
		}
		return u.rgba(v)
	case uc.KindDXT1, uc.KindDXT3, uc.KindDXT5:
		return u.dxt(lv, x, y)
	}
	row := lv.mem[y*lv.pitch:]
	var v uint32
	switch f.Bits {
	case 16:
		v = uint32(binary.LittleEndian.Uint16(row[2*x:]))
	case 8:
		v = uint32(row[x])
	default:
		v = u.subTexel(row, x, f.Bits)
	}
	switch f.Kind {
	case uc.KindIndex:
		p := u.pal[v&0xFF]
		return [4]int{int(p[0]), int(p[1]), int(p[2]), int(p[3])}
	case uc.KindIntensity:
		c, a := expand(v, f.R.Bits, u.zext), expand(v, f.A.Bits, false)
		return [4]int{c, c, c, a}
	case uc.KindLuminance:
		c := expand(v, f.R.Bits, u.zext)
		return [4]int{c, c, c, 255}
	case uc.KindAlpha:
		return [4]int{0, 0, 0, expand(v, f.A.Bits, false)}
	case uc.KindLumAlpha:
		c := expand(v>>f.R.Shift&(1<<f.R.Bits-1), f.R.Bits, u.zext)
		return [4]int{c, c, c, expand(v>>f.A.Shift&(1<<f.A.Bits-1), f.A.Bits, false)}
	}
	return [4]int{}
}

func (u *texUnit) rgba(v uint32) [4]int {
	f := &u.info
	ch := func(c uc.Chan, zero bool) int {
		return expand(v>>c.Shift&(1<<c.Bits-1), c.Bits, zero)
	}
	a := 255
	if f.A.Bits != 0 {
		a = ch(f.A, false)
	}
	return [4]int{ch(f.R, u.zext), ch(f.G, u.zext), ch(f.B, u.zext), a}
}

// dxt decodes texel (x, y) of an S3TC level: colour endpoints RGB565
// widened by replication, two-bit indices LSB first; DXT1 with c0 <= c1
// has a transparent-black fourth colour.
func (u *texUnit) dxt(lv *texLevel, x, y int) [4]int {
	bs := 16
	if u.info.Kind == uc.KindDXT1 {
		bs = 8
	}
	b := lv.mem[(y/4)*lv.pitch+(x/4)*bs:]
	px := (y%4)*4 + x%4
	var c [4]uint8
	switch u.info.Kind {
	case uc.KindDXT3:
		c = texblock.S3TCColor(b[8:16], px, false)
		c[3] = texblock.DXT3Alpha(b, px)
	case uc.KindDXT5:
		c = texblock.S3TCColor(b[8:16], px, false)
		c[3] = texblock.DXT5Alpha(b, px)
	default:
		c = texblock.S3TCColor(b[:8], px, true)
	}
	return [4]int{int(c[0]), int(c[1]), int(c[2]), int(c[3])}
}

// wrap maps texel index i of an axis of n texels; ok is false when a
// clamped axis with border colour falls outside.
func wrap(i, n int, mode uint32, border bool) (int, bool) {
	switch mode {
	case wrapRepeat, wrapWarp:
		return i & (n - 1), true
	case wrapMirror:
		m := i & (2*n - 1)
		if m >= n {
			m = 2*n - 1 - m
		}
		return m, true
	case wrapMirrorOnce:
		if i < 0 {
			i = -1 - i
		}
		return min(i, n-1), true
	}
	if border && (i < 0 || i >= n) {
		return 0, false
	}
	return min(max(i, 0), n-1), true
}

// fixCoord converts a normalised coordinate to texel units with 8
// fractional bits, clamped far outside any texture.
func fixCoord(s float64, size int, linear bool) int64 {
	u := float64(s * float64(size))
	if linear {
		u -= 0.5
	}
	u = math.Floor(u * 256)
	if !(u > -1<<40) {
		return -1 << 40
	}
	if u > 1<<40 {
		return 1 << 40
	}
	return int64(u)
}

// sampleLevel filters level l at (s, t) with the given per-axis filters.
func (u *texUnit) sampleLevel(l int, s, t float64, fs, ft uint32) [4]int {
	lv := &u.lv[l]
	if u.fastRepeat && fs == filtLinear && ft == filtLinear {
		return u.bilinearRepeat(lv, s, t)
	}
	us := fixCoord(s, lv.w, fs == filtLinear)
	vt := fixCoord(t, lv.h, ft == filtLinear)
	x0, y0 := int(us>>8), int(vt>>8)
	ax, ay := int(us&255), int(vt&255)
	if fs != filtLinear {
		ax = 0
	}
	if ft != filtLinear {
		ay = 0
	}
	c00 := u.fetch(l, x0, y0)
	if ax == 0 && ay == 0 {
		return c00
	}
	c10, c01, c11 := c00, c00, c00
	if ax != 0 {
		c10 = u.fetch(l, x0+1, y0)
	}
	if ay != 0 {
		c01 = u.fetch(l, x0, y0+1)
		if ax != 0 {
			c11 = u.fetch(l, x0+1, y0+1)
		} else {
			c11 = c01
		}
	} else {
		c11 = c10
	}
	var out [4]int
	for k := 0; k < 4; k++ {
		top := c00[k]*(256-ax) + c10[k]*ax
		bot := c01[k]*(256-ax) + c11[k]*ax
		out[k] = (top*(256-ay) + bot*ay + 32768) >> 16
	}
	return out
}

// bilinearRepeat is sampleLevel for ABGR8888 with repeat on both axes:
// the same arithmetic, with the wrap as a mask and the texels read
// directly.
func (u *texUnit) bilinearRepeat(lv *texLevel, s, t float64) [4]int {
	us := fixCoord(s, lv.w, true)
	vt := fixCoord(t, lv.h, true)
	ax, ay := int(us&255), int(vt&255)
	mx, my := lv.w-1, lv.h-1
	x0, y0 := int(us>>8)&mx, int(vt>>8)&my
	x1, y1 := (x0+1)&mx, (y0+1)&my
	r0, r1 := lv.mem[y0*lv.pitch:], lv.mem[y1*lv.pitch:]
	p00, p10 := r0[4*x0:4*x0+4], r0[4*x1:4*x1+4]
	p01, p11 := r1[4*x0:4*x0+4], r1[4*x1:4*x1+4]
	var out [4]int
	for k := 0; k < 4; k++ {
		top := int(p00[k])*(256-ax) + int(p10[k])*ax
		bot := int(p01[k])*(256-ax) + int(p11[k])*ax
		out[k] = (top*(256-ay) + bot*ay + 32768) >> 16
	}
	return out
}

// fetch reads texel (x, y) of level l after wrapping, or the border
// colour.
func (u *texUnit) fetch(l, x, y int) [4]int {
	lv := &u.lv[l]
	xi, okx := wrap(x, lv.w, u.wrapS, u.borderS)
	yi, oky := wrap(y, lv.h, u.wrapT, u.borderT)
	if !okx || !oky {
		return u.border
	}
	return u.texel(l, xi, yi)
}

// lodOf turns rho (texels per pixel at level LVmin) into the unit's LOD in
// 1/32 steps, with the offset and divisor applied.
func (u *texUnit) lodOf(rho float64) int {
	if u.mip == mipConstant {
		return u.clod
	}
	var l int
	if rho > 0 && !math.IsInf(rho, 1) && rho == rho {
		l = int(max(-1<<20, min(1<<20, math.Floor(math.Log2(rho)*32))))
	} else if rho > 0 {
		l = 1 << 20
	} else {
		l = -1 << 20
	}
	return l + u.l0os - 32*u.dsdiv
}

// sample filters the texture at (s, t) with LOD lod (1/32 steps).
func (u *texUnit) sample(s, t float64, lod int) [4]int {
	if lod <= 0 || u.mip == mipLevel0 {
		fs, ft := u.magS, u.magT
		if lod > 0 {
			fs, ft = u.minS, u.minT
		}
		return u.sampleLevel(u.lvmin, s, t, fs, ft)
	}
	switch u.mip {
	case mipNearest:
		l := min(u.lvmin+(lod+15)/32, u.lvmax)
		return u.sampleLevel(l, s, t, u.minS, u.minT)
	}
	l0 := u.lvmin + lod/32
	frac := lod & 31
	if l0 >= u.lvmax {
		return u.sampleLevel(u.lvmax, s, t, u.minS, u.minT)
	}
	a := u.sampleLevel(l0, s, t, u.minS, u.minT)
	if frac == 0 {
		return a
	}
	b := u.sampleLevel(l0+1, s, t, u.minS, u.minT)
	var out [4]int
	for k := 0; k < 4; k++ {
		out[k] = (a[k]*(32-frac) + b[k]*frac + 16) >> 5
	}
	return out
}

// baseSize is the size of level LVmin, for LOD.
func (u *texUnit) baseSize() (float64, float64) {
	lv := &u.lv[u.lvmin]
	return float64(lv.w), float64(lv.h)
}
