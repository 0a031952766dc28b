package r300

import (
	"encoding/binary"
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// texUnit is one texture unit decoded once per draw (L1280-1458).
type texUnit struct {
	used, enabled bool
	f             *r3.TexFormat
	levels        []r3.TexLevel
	mem           []byte // the texture's levels, from TXOFFSET on
	base          uint32 // TXOFFSET's address
	baseLevel     int    // MAX_MIP_LEVEL
	lastLevel     int    // NUM_LEVELS
	wrap          [2]uint32
	mag, min, mip uint32
	lodBias       float64
	sel           [4]uint32 // red, green, blue, alpha
	signed        [4]bool
	projected     bool
	gamma         bool
	chroma        uint32
	chromaKey     uint32
	border        [4]float32
	// fast8 is set for 8_8_8_8 textures without signed components, gamma
	// or chroma key: texels decode through unorm8.
	fast8 bool
	// wrapFast is set when both wrap modes are wrapFast's (bilinear8).
	wrapFast bool
	// selID is set when the swizzle is the identity (R, G, B, A from
	// components 0-3).
	selID bool
}

// unorm8 holds v/255 for every byte.
var unorm8 = func() (t [256]float32) {
	for i := range t {
		t[i] = float32(float64(i) / 255)
	}
	return
}()

func (e *Engine) prepareTX(s *drawState) error {
	en := e.reg(r3.TX_ENABLE)
	for _, lv := range s.us.levels {
		for _, t := range lv.tex {
			if t.Op != r3.TexNOP && t.Op != r3.TexKill {
				s.tex[t.Unit].used = true
			}
		}
	}
	for n := range s.tex {
		u := &s.tex[n]
		if !u.used {
			continue
		}
		u.enabled = en>>n&1 != 0
		if !u.enabled {
			continue
		}
		o := 4 * uint32(n)
		f0, f1, f2 := e.reg(r3.TX_FILTER0_0+o), e.reg(r3.TX_FILTER1_0+o), e.reg(r3.TX_FORMAT0_0+o)
		fm1, fm2, off := e.reg(r3.TX_FORMAT1_0+o), e.reg(r3.TX_FORMAT2_0+o), e.reg(r3.TX_OFFSET_0+o)
		u.f = &r3.TexFormats[fm1&31]
		if !u.f.Simulated {
			return faultf("TX_FORMAT1_%d: TXFORMAT %s is not simulated", n, u.f.Name)
		}
		if ct := fm1 >> 25 & 3; ct != 0 {
			return faultf("TX_FORMAT1_%d: TEX_COORD_TYPE %s (3D and cube maps) is not simulated", n, r3.EnumCoordType[min(ct, 2)])
		}
		if fm1>>22&7 != 0 {
			return faultf("TX_FORMAT1_%d: YUV conversion is not simulated", n)
		}
		if off&0x1F != 0 {
			return faultf("TX_OFFSET_%d: tiling and endian swapping (bits 4:0 = %#x) are not simulated", n, off&0x1F)
		}
		for c, sh := range []uint{12, 15, 18, 9} {
			u.sel[c] = fm1 >> sh & 7
			if u.sel[c] > 5 {
				return faultf("TX_FORMAT1_%d: channel select %d is reserved", n, u.sel[c])
			}
		}
		for c := 0; c < 4; c++ {
			u.signed[c] = fm1>>(5+uint(c))&1 != 0
		}
		u.gamma = fm1>>21&1 != 0
		u.selID = u.sel == [4]uint32{0, 1, 2, 3}
		w, h := int(f2&0x7FF)+1, int(f2>>11&0x7FF)+1
		u.lastLevel = int(f2 >> 26 & 15)
		if u.lastLevel > 11 {
			return faultf("TX_FORMAT0_%d: NUM_LEVELS %d exceeds 11", n, u.lastLevel)
		}
		u.projected = f2>>30&1 != 0
		pitch := 0
		if f2>>31 != 0 {
			pitch = int(fm2&0x3FFF) + 1
		}
		u.levels = r3.TexLayout(u.f, w, h, u.lastLevel+1, pitch)
		last := u.levels[len(u.levels)-1]
		size := last.Offset + last.Size
		base := off &^ 0x1F
		u.base = base
		var ok bool
		if u.mem, ok = e.mem.Slice(base, size); !ok {
			return faultf("texture %d (%#x+%#x bytes) lies outside memory", n, base, size)
		}
		u.wrap = [2]uint32{f0 & 7, f0 >> 3 & 7}
		u.mag, u.min, u.mip = f0>>9&3, f0>>11&3, f0>>13&3
		if u.mag == 0 || u.mag == 3 || u.min == 0 || u.min == 3 || u.mip == 3 {
			return faultf("TX_FILTER0_%d: filter %#x uses reserved values", n, f0)
		}
		if f0>>15&3 != 0 {
			return faultf("TX_FILTER0_%d: VOL_FILTER needs 3D textures, not simulated", n)
		}
		u.baseLevel = min(int(f0>>17&15), u.lastLevel)
		u.chroma = f1 & 3
		if u.chroma == 3 {
			return faultf("TX_FILTER1_%d: CHROMA_KEY_MODE 3 is reserved", n)
		}
		u.chromaKey = e.reg(r3.TX_CHROMA_KEY_0 + o)
		// LOD_BIAS is s4.5 in 12:3 (L1359).
		u.lodBias = float64(int32(f1<<19)>>22) / 32
		if f1>>2&1 != 0 || f1>>14&1 != 0 {
			return faultf("TX_FILTER1_%d: MPEG rounding and truncation are not simulated", n)
		}
		u.border = u.decodeBorder(e.reg(r3.TX_BORDER_COLOR_0 + o))
		u.fast8 = u.f.Code == r3.TxFmt8_8_8_8 && u.signed == [4]bool{} && !u.gamma && u.chroma == 0
		// Repeat of a power-of-two size at every level, or clamp: no
		// border texel, no division (bilinear8).
		u.wrapFast = true
		for c, n := range [2]int{w, h} {
			m := u.wrap[c]
			if !(m == 2 || m == 3 || (m == 0 && n&(n-1) == 0)) {
				u.wrapFast = false
			}
		}
	}
	return nil
}

// decodeBorder reads TX_BORDER_COLOR "in the texture's own format"
// (L1284); for compressed and wider formats [PROP] it reads as 8_8_8_8.
func (u *texUnit) decodeBorder(v uint32) [4]float32 {
	f := u.f
	if f.BlockBytes > 0 || f.Bits > 32 {
		f = &r3.TexFormats[r3.TxFmt8_8_8_8]
	}
	var b [16]byte
	binary.LittleEndian.PutUint32(b[:], v)
	comps, _ := u.decode(f, b[:])
	return u.swizzle(comps)
}

// decode converts one texel's bytes into components (absent ones 0).
func (u *texUnit) decode(f *r3.TexFormat, b []byte) ([4]float32, uint32) {
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
			out[k] = half(v)
		case f.Float:
			out[k] = math.Float32frombits(v)
		case u.signed[k]:
			sv := int32(v<<(32-c.Bits)) >> (32 - c.Bits)
			out[k] = float32(max(float64(sv)/float64(int32(1)<<(c.Bits-1)-1), -1))
		default:
			out[k] = float32(float64(v) / float64(uint32(1)<<c.Bits-1))
			if u.gamma && c.Bits <= 8 {
				out[k] = srgb(out[k])
			}
		}
	}
	return out, uint32(raw)
}

// srgb removes the sRGB gamma ([PROP] TX_FORMAT1.GAMMA, L1420 names no
// curve).
func srgb(x float32) float32 {
	v := float64(x)
	if v <= 0.04045 {
		return float32(v / 12.92)
	}
	return float32(exp2(2.4 * log2((v+0.055)/1.055)))
}

// swizzle applies SEL_RED/GREEN/BLUE/ALPHA (L1396-1419).
func (u *texUnit) swizzle(c [4]float32) [4]float32 {
	var out [4]float32
	for i, s := range u.sel {
		switch {
		case s < 4:
			out[i] = c[s]
		case s == 5:
			out[i] = 1
		}
	}
	return out
}

// texel returns texel (x, y) of level l as RGBA; border is set for texels
// outside the level, kill for a chroma-key match.
func (u *texUnit) texel(l, x, y int) ([4]float32, bool) {
	lv := &u.levels[l]
	f := u.f
	if u.fast8 {
		o := lv.Offset + uint32(y)*lv.Pitch + uint32(4*x)
		b := u.mem[o : o+4]
		c := [6]float32{unorm8[b[0]], unorm8[b[1]], unorm8[b[2]], unorm8[b[3]], 0, 1}
		return [4]float32{c[u.sel[0]], c[u.sel[1]], c[u.sel[2]], c[u.sel[3]]}, false
	}
	if f.BlockBytes > 0 {
		o := lv.Offset + uint32(y/4)*lv.Pitch + uint32(x/4*f.BlockBytes)
		c := dxtTexel(f.Code, u.mem[o:o+uint32(f.BlockBytes)], x%4, y%4)
		return u.swizzle(c), false
	}
	o := lv.Offset + uint32(y)*lv.Pitch + uint32(x*f.Bits/8)
	comps, raw := u.decode(f, u.mem[o:])
	kill := false
	if u.chroma != 0 && f.Bits <= 32 && raw == u.chromaKey&uint32(uint64(1)<<f.Bits-1) {
		if u.chroma == 1 {
			kill = true
		} else {
			return [4]float32{}, false
		}
	}
	return u.swizzle(comps), kill
}

// wrapIndex maps texel index i of a level of size n per the clamp mode;
// ok is false for a border texel (L1333-1340).
func wrapIndex(mode uint32, i, n int) (int, bool) {
	switch mode {
	case 0:
		if n&(n-1) == 0 {
			return i & (n - 1), true
		}
		i %= n
		if i < 0 {
			i += n
		}
		return i, true
	case 1:
		i %= 2 * n
		if i < 0 {
			i += 2 * n
		}
		if i >= n {
			i = 2*n - 1 - i
		}
		return i, true
	case 2, 3:
		return max(0, min(n-1, i)), true
	}
	return i, i >= 0 && i < n
}

// wrapCoord applies the coordinate part of a clamp mode: the mirror-once
// modes fold [-1, 0) onto [0, 1); the half-way-to-border modes clamp the
// coordinate to [0, 1].
func wrapCoord(mode uint32, s float64) float64 {
	if mode == 3 || mode == 5 || mode == 7 {
		s = math.Abs(s)
	}
	if mode == 4 || mode == 5 {
		s = max(0, min(1, s))
	}
	return s
}

// filter samples level l at (s, t) with point or linear filtering.
func (u *texUnit) filter(l int, s, t float64, linear bool) ([4]float32, bool) {
	lv := &u.levels[l]
	s, t = wrapCoord(u.wrap[0], s), wrapCoord(u.wrap[1], t)
	x, y := float64(s*float64(lv.Width)), float64(t*float64(lv.Height))
	if linear && u.fast8 && u.wrapFast {
		return u.bilinear8(lv, x, y), false
	}
	fetch := func(i, j int) ([4]float32, bool) {
		xi, okx := wrapIndex(u.wrap[0], i, lv.Width)
		yj, oky := wrapIndex(u.wrap[1], j, lv.Height)
		if !okx || !oky {
			return u.border, false
		}
		return u.texel(l, xi, yj)
	}
	if !linear {
		return fetch(int(math.Floor(clampIdx(x))), int(math.Floor(clampIdx(y))))
	}
	x, y = clampIdx(x-0.5), clampIdx(y-0.5)
	i0, j0 := math.Floor(x), math.Floor(y)
	a, b := x-i0, y-j0
	var out [4]float32
	kill := false
	w := [4]float64{float64((1 - a) * (1 - b)), float64(a * (1 - b)), float64((1 - a) * b), float64(a * b)}
	var acc [4]float64
	for k := 0; k < 4; k++ {
		c, kl := fetch(int(i0)+k&1, int(j0)+k>>1)
		kill = kill || kl
		for ch := 0; ch < 4; ch++ {
			acc[ch] += float64(w[k] * float64(c[ch]))
		}
	}
	for ch := range out {
		out[ch] = float32(acc[ch])
	}
	return out, kill
}

// bilinear8 is filter's linear path for an 8_8_8_8 texture (fast8) whose
// wrap modes never read the border (wrapFast: repeat, clamp to edge or
// clamp to the last texel, wrapIndex inline), with the same weights and
// the same order of sums.
func (u *texUnit) bilinear8(lv *r3.TexLevel, x, y float64) [4]float32 {
	x, y = clampIdx(x-0.5), clampIdx(y-0.5)
	i0, j0 := math.Floor(x), math.Floor(y)
	a, b := x-i0, y-j0
	w := [4]float64{float64((1 - a) * (1 - b)), float64(a * (1 - b)), float64((1 - a) * b), float64(a * b)}
	xs := [2]int{wrapFast(u.wrap[0], int(i0), lv.Width), wrapFast(u.wrap[0], int(i0)+1, lv.Width)}
	ys := [2]int{wrapFast(u.wrap[1], int(j0), lv.Height), wrapFast(u.wrap[1], int(j0)+1, lv.Height)}
	var acc [4]float64
	for k := 0; k < 4; k++ {
		o := lv.Offset + uint32(ys[k>>1])*lv.Pitch + uint32(4*xs[k&1])
		t := u.mem[o : o+4]
		c := [6]float32{unorm8[t[0]], unorm8[t[1]], unorm8[t[2]], unorm8[t[3]], 0, 1}
		for ch := 0; ch < 4; ch++ {
			acc[ch] += float64(w[k] * float64(c[u.sel[ch]]))
		}
	}
	return [4]float32{float32(acc[0]), float32(acc[1]), float32(acc[2]), float32(acc[3])}
}

// wrapFast is wrapIndex for the modes wrapFast allows: a power-of-two
// repeat (mode 0) or a clamp (modes 2, 3).
func wrapFast(mode uint32, i, n int) int {
	if mode == 0 {
		return i & (n - 1)
	}
	return max(0, min(n-1, i))
}

// clampIdx keeps texel coordinates within int range.
func clampIdx(x float64) float64 {
	if x != x {
		return 0
	}
	return max(-1<<30, min(1<<30, x))
}

// sample performs one TEX instruction for the quad. The LOD comes from the
// quad's (projected) coordinates: pixel 1 minus pixel 0 across, pixel 2
// minus pixel 0 down [PROP].
func (e *Engine) sample(s *drawState, q *quadState, unit int, op r3.TexOp, c *[4][4]float32) ([4][4]float32, error) {
	var res [4][4]float32
	u := &s.tex[unit]
	if !u.enabled {
		// L1295: a disabled map samples ARGB = (1, 0, 0, 0).
		for i := range res {
			res[i] = [4]float32{0, 0, 0, 1}
		}
		return res, nil
	}
	q.killed |= u.sampleQuad(op, c, &res)
	return res, nil
}

// lodMatters reports whether the level of detail can change what the unit
// samples: without mipmapping and with one filter for both, every LOD
// samples the base level the same way.
func (u *texUnit) lodMatters() bool { return u.mip != 0 || u.mag != u.min }

// sampleQuad samples an enabled unit at a quad's four coordinates into
// res and returns the pixels a chroma key kills.
func (u *texUnit) sampleQuad(op r3.TexOp, c *[4][4]float32, res *[4][4]float32) (killed uint8) {
	var st [4][2]float64
	var bias [4]float64
	for i := 0; i < 4; i++ {
		sv, tv := float64(c[i][0]), float64(c[i][1])
		if op == r3.TexProj || (op == r3.TexLD && u.projected) {
			q := float64(c[i][3])
			sv, tv = sv/q, tv/q
		}
		if op == r3.TexLODBias {
			bias[i] = float64(c[i][3])
		}
		st[i] = [2]float64{sv, tv}
	}
	base := &u.levels[u.baseLevel]
	w, h := float64(base.Width), float64(base.Height)
	dudx, dvdx := float64((st[1][0]-st[0][0])*w), float64((st[1][1]-st[0][1])*h)
	dudy, dvdy := float64((st[2][0]-st[0][0])*w), float64((st[2][1]-st[0][1])*h)
	rho2 := max(float64(dudx*dudx)+float64(dvdx*dvdx), float64(dudy*dudy)+float64(dvdy*dvdy))
	lod := math.Inf(-1)
	if u.lodMatters() && rho2 > 0 && !math.IsInf(rho2, 0) && rho2 == rho2 {
		lod = 0.5 * log2(rho2)
	}
	for i := 0; i < 4; i++ {
		l := lod + u.lodBias + bias[i]
		var col [4]float32
		var kill bool
		switch {
		case !(l > 0):
			col, kill = u.filter(u.baseLevel, st[i][0], st[i][1], u.mag == 2)
		case u.mip == 0:
			col, kill = u.filter(u.baseLevel, st[i][0], st[i][1], u.min == 2)
		case u.mip == 1:
			// GL's nearest level: ceil(lod + 1/2) - 1 above the base.
			d := 0
			if l > 0.5 {
				d = int(math.Ceil(min(l, 64)+0.5)) - 1
			}
			col, kill = u.filter(min(u.baseLevel+d, u.lastLevel), st[i][0], st[i][1], u.min == 2)
		default:
			l = min(l, 64)
			d := int(math.Floor(l))
			frac := l - float64(d)
			l0 := min(u.baseLevel+d, u.lastLevel)
			l1 := min(l0+1, u.lastLevel)
			c0, k0 := u.filter(l0, st[i][0], st[i][1], u.min == 2)
			if l1 == l0 || frac == 0 {
				col, kill = c0, k0
				break
			}
			c1, k1 := u.filter(l1, st[i][0], st[i][1], u.min == 2)
			for ch := range col {
				col[ch] = float32(float64(c0[ch]) + float64(frac*float64(c1[ch]-c0[ch])))
			}
			kill = k0 || k1
		}
		if kill {
			killed |= 1 << i
		}
		res[i] = col
	}
	return killed
}
