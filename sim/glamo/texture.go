package glamo

import (
	"encoding/binary"
	"math"
	"sync"

	hg "github.com/retrogl/retrogl/hal/glamo"
)

// Pixel colours inside the pipeline are fixed point with 12 fraction bits:
// 4096 is 1.0 and an n-bit channel v means v/(2^n - 1) (P8), so both 0 and
// full scale are exact. Products round to nearest: (a*b + 2048) >> 12.
const one = 4096

// chanSpec is one channel of a packed texel or pixel: bits at shift.
type chanSpec struct{ shift, bits uint8 }

// layout describes a packed format: R, G, B, A channels (bits 0 = absent:
// R/G/B read 0... unless lum/intensity replicate L; A reads 1.0).
type layout struct {
	bpp  uint8
	ch   [4]chanSpec
	lum  bool // ch[0] is L, replicated to R, G, B; A from ch[3] or 1
	ints bool // ch[0] is I, replicated to R, G, B, A
}

func c(shift, bits uint8) chanSpec { return chanSpec{shift, bits} }

// texLayouts gives every implemented texel format its bits (L3081-3174;
// the seed writes layouts MSB first, some OCR-damaged: "RGB332 (RRRGGBB)"
// is R3 G3 B2). Paletted formats are resolved through their palette's
// 16-bit format. Alpha-only texels have black colour, as GL's ALPHA base
// format does.
var texLayouts = map[uint8]layout{
	0x12: {bpp: 4, ch: [4]chanSpec{c(0, 4)}, ints: true},
	0x13: {bpp: 8, ch: [4]chanSpec{c(0, 8)}, ints: true},
	0x32: {bpp: 4, ch: [4]chanSpec{c(0, 4)}, lum: true},
	0x33: {bpp: 8, ch: [4]chanSpec{c(0, 8)}, lum: true},
	0x35: {bpp: 8, ch: [4]chanSpec{c(0, 4), {}, {}, c(4, 4)}, lum: true},
	0x37: {bpp: 8, ch: [4]chanSpec{c(0, 6), {}, {}, c(6, 2)}, lum: true},
	0x38: {bpp: 16, ch: [4]chanSpec{c(0, 8), {}, {}, c(8, 8)}, lum: true},
	0xB5: {bpp: 8, ch: [4]chanSpec{c(4, 4), {}, {}, c(0, 4)}, lum: true},
	0xB7: {bpp: 8, ch: [4]chanSpec{c(2, 6), {}, {}, c(0, 2)}, lum: true},
	0xB8: {bpp: 16, ch: [4]chanSpec{c(8, 8), {}, {}, c(0, 8)}, lum: true},
	0x42: {bpp: 4, ch: [4]chanSpec{{}, {}, {}, c(0, 4)}},
	0x43: {bpp: 8, ch: [4]chanSpec{{}, {}, {}, c(0, 8)}},
	0x50: {bpp: 8, ch: [4]chanSpec{c(5, 3), c(2, 3), c(0, 2)}},
	0x51: {bpp: 8, ch: [4]chanSpec{c(6, 2), c(3, 3), c(0, 3)}},
	0x52: {bpp: 8, ch: [4]chanSpec{c(5, 3), c(3, 2), c(0, 3)}},
	0x53: {bpp: 8, ch: [4]chanSpec{c(5, 2), c(2, 3), c(0, 2), c(7, 1)}},
	0x54: {bpp: 8, ch: [4]chanSpec{c(4, 2), c(2, 2), c(0, 2), c(6, 2)}},
	0xD0: {bpp: 8, ch: [4]chanSpec{c(0, 2), c(2, 3), c(5, 3)}},
	0xD1: {bpp: 8, ch: [4]chanSpec{c(0, 3), c(3, 3), c(6, 2)}},
	0xD2: {bpp: 8, ch: [4]chanSpec{c(0, 3), c(3, 2), c(5, 3)}},
	0xD3: {bpp: 8, ch: [4]chanSpec{c(6, 2), c(3, 3), c(1, 2), c(0, 1)}},
	0xD4: {bpp: 8, ch: [4]chanSpec{c(6, 2), c(4, 2), c(2, 2), c(0, 2)}},
	0xD5: {bpp: 8, ch: [4]chanSpec{c(0, 2), c(2, 3), c(5, 2), c(7, 1)}},
	0xD6: {bpp: 8, ch: [4]chanSpec{c(0, 2), c(2, 2), c(4, 2), c(6, 2)}},
	0x60: {bpp: 16, ch: [4]chanSpec{c(10, 5), c(5, 5), c(0, 5)}},
	0x61: {bpp: 16, ch: [4]chanSpec{c(11, 5), c(5, 6), c(0, 5)}},
	0x62: {bpp: 16, ch: [4]chanSpec{c(10, 5), c(5, 5), c(0, 5), c(15, 1)}},
	0x63: {bpp: 16, ch: [4]chanSpec{c(8, 4), c(4, 4), c(0, 4), c(12, 4)}},
	0xE0: {bpp: 16, ch: [4]chanSpec{c(0, 5), c(5, 5), c(10, 5)}},
	0xE1: {bpp: 16, ch: [4]chanSpec{c(0, 5), c(5, 6), c(11, 5)}},
	0xE2: {bpp: 16, ch: [4]chanSpec{c(11, 5), c(6, 5), c(1, 5), c(0, 1)}},
	0xE3: {bpp: 16, ch: [4]chanSpec{c(12, 4), c(8, 4), c(4, 4), c(0, 4)}},
	0xE4: {bpp: 16, ch: [4]chanSpec{c(0, 5), c(5, 5), c(10, 5), c(15, 1)}},
	0xE5: {bpp: 16, ch: [4]chanSpec{c(0, 4), c(4, 4), c(8, 4), c(12, 4)}},
}

// paletteFormat returns the 16-bit format of a paletted format's entries
// and its index size: Index4 codes 00-03 and 80-85, Index8 codes 08-0B and
// 88-8D (P4: the Index8 meanings win over "Index to YUV").
func paletteFormat(f uint8) (entry uint8, bits uint8, ok bool) {
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

// expand returns v (n bits) in 12-bit fixed point.
func expand(v uint32, bits uint8) int32 {
	if bits == 0 {
		return 0
	}
	m := uint32(1)<<bits - 1
	return int32((v*one + m/2) / m)
}

// decodeLayout decodes a raw texel.
func decodeLayout(l *layout, raw uint32) [4]int32 {
	get := func(k int) (int32, bool) {
		s := l.ch[k]
		if s.bits == 0 {
			return 0, false
		}
		return expand(raw>>s.shift&(1<<s.bits-1), s.bits), true
	}
	var out [4]int32
	switch {
	case l.ints:
		v, _ := get(0)
		return [4]int32{v, v, v, v}
	case l.lum:
		v, _ := get(0)
		out = [4]int32{v, v, v, one}
	default:
		for k := 0; k < 3; k++ {
			out[k], _ = get(k)
		}
		out[3] = one
	}
	if a, ok := get(3); ok {
		out[3] = a
	}
	return out
}

// expandTab[n][v] is expand(v, n): the small tables fastLayout decodes
// with (a per-format table of every 16-bit texel would not fit the cache).
var expandTab [9][256]int32

func init() {
	for n := uint8(1); n <= 8; n++ {
		for v := 0; v < 1<<n; v++ {
			expandTab[n][v] = expand(uint32(v), n)
		}
	}
}

// fastLayout decodes a layout with shifts and expandTab.
type fastLayout struct {
	sh   [4]uint8
	mask [4]uint32
	tab  [4]*[256]int32
	on   [4]bool
	mode uint8 // 0 colour, 1 luminance, 2 intensity
}

func newFastLayout(l *layout) fastLayout {
	var f fastLayout
	for k, c := range l.ch {
		if c.bits != 0 {
			f.sh[k], f.mask[k], f.tab[k], f.on[k] = c.shift, 1<<c.bits-1, &expandTab[c.bits], true
		}
	}
	switch {
	case l.ints:
		f.mode = 2
	case l.lum:
		f.mode = 1
	}
	return f
}

func (f *fastLayout) get(k int, raw uint32) int32 { return f.tab[k][raw>>f.sh[k]&f.mask[k]] }

// decodeTo is decode writing through a pointer: Go passes arrays on the
// stack, and the texel path is the hottest in the simulator.
func (f *fastLayout) decodeTo(raw uint32, out *[4]int32) {
	switch f.mode {
	case 2:
		v := f.get(0, raw)
		*out = [4]int32{v, v, v, v}
		return
	case 1:
		v := f.get(0, raw)
		out[0], out[1], out[2], out[3] = v, v, v, one
	default:
		out[0], out[1], out[2], out[3] = 0, 0, 0, one
		for k := 0; k < 3; k++ {
			if f.on[k] {
				out[k] = f.get(k, raw)
			}
		}
	}
	if f.on[3] {
		out[3] = f.get(3, raw)
	}
}

// decode equals decodeLayout (a test checks every 16-bit value).
func (f *fastLayout) decode(raw uint32) [4]int32 {
	var out [4]int32
	switch f.mode {
	case 2:
		v := f.get(0, raw)
		return [4]int32{v, v, v, v}
	case 1:
		v := f.get(0, raw)
		out = [4]int32{v, v, v, one}
	default:
		for k := 0; k < 3; k++ {
			if f.on[k] {
				out[k] = f.get(k, raw)
			}
		}
		out[3] = one
	}
	if f.on[3] {
		out[3] = f.get(3, raw)
	}
	return out
}

// luts caches a decoded table per format code (read-only once built).
var (
	lutMu sync.Mutex
	luts  = map[uint8][][4]int32{}
)

func formatLUT(code uint8) [][4]int32 {
	lutMu.Lock()
	defer lutMu.Unlock()
	if t, ok := luts[code]; ok {
		return t
	}
	l := texLayouts[code]
	t := make([][4]int32, 1<<l.bpp)
	for i := range t {
		t[i] = decodeLayout(&l, uint32(i))
	}
	luts[code] = t
	return t
}

type texLevel struct {
	base, pitch uint32
	w, h        int
}

// texUnit is one texture unit's state derived from its registers.
type texUnit struct {
	on       bool
	code     uint8
	bpp      uint8
	lut      [][4]int32
	fl       fastLayout
	levels   []texLevel
	wrapU    uint32
	wrapV    uint32
	mag, min uint32
	bias     float64
	glRule   bool
	border   [4]int32
	needLOD  bool
	set      uint32 // coordinate set A-D feeding the unit (EGT0FROM/EGT1FROM)
	// colour key (texture transparency, 21A8h-21B0h)
	key      bool
	keyMode  uint32
	keyLo    [4]int32
	keyHi    [4]int32
	keyRatio int32
	pal      [256][4]int32
	paletted bool
	// lanes decodes a raw 8- or 16-bit texel to packed lanes for the span
	// pipeline's bilinear filter (nil for 4-bit texels).
	lanes      []uint64
	palLanes   [256]uint64
	vram       []byte
	w0, h0     int
	texScaleUV [2]float64
}

func color6565(v uint32) [4]int32 {
	a, r, g, b := hg.Split6565(v)
	return [4]int32{expand(r, 5), expand(g, 6), expand(b, 5), expand(a, 6)}
}

// buildTex reads texture unit u's registers (21A0h / 2200h).
func (e *Engine) buildTex(u int, vram []byte) error {
	t := &e.px.tex[u]
	b := hg.TexUnitBase(u)
	cfg, filt, size := e.reg(b), e.reg(b+4), e.reg(b+8)
	t.code = uint8(cfg >> 24)
	t.vram = vram
	name := []string{"EGTX0", "EGTX1"}[u]
	if cfg>>15&1 != 0 {
		return faultf("%sCfg: swizzled texture layout is enabled but never described by the seed", name)
	}
	entry, ibits, pal := paletteFormat(t.code)
	t.paletted = pal
	if pal {
		t.bpp = ibits
		lut := formatLUT(entry)
		for i := range t.pal {
			t.pal[i] = lut[e.pal[u][i]]
			t.palLanes[i] = packLanes(t.pal[i])
		}
		t.lanes = nil
		if ibits == 8 {
			t.lanes = t.palLanes[:]
		}
	} else {
		l, ok := texLayouts[t.code]
		if !ok {
			return faultf("%sCfg: texture format %#02x is reserved (L3081-3174)", name, t.code)
		}
		t.bpp = l.bpp
		t.lut = formatLUT(t.code)
		t.fl = newFastLayout(&l)
		t.lanes = nil
		if l.bpp >= 8 {
			t.lanes = formatLanes(t.code)
		}
	}
	t.wrapU, t.wrapV = cfg>>16&7, cfg>>19&7
	if t.wrapU > 3 || t.wrapV > 3 {
		return faultf("%sCfg: mapping mode %03b/%03b is reserved (L3183-3193)", name, t.wrapU, t.wrapV)
	}
	lv := int(cfg >> 8 & 15)
	if lv > 8 {
		return faultf("%sCfg: level count %d is reserved (L3206-3208)", name, lv)
	}
	t.mag, t.min = filt>>18&3, filt>>15&7
	if t.mag > 1 || t.min > 5 {
		return faultf("%sFilter: filter mode %02b/%03b is reserved (L3215-3228)", name, t.mag, t.min)
	}
	t.bias = hg.FixS4_5.Decode(filt >> 5 & 0x3FF)
	t.glRule = e.reg(0x2104)>>uint(u)&1 != 0
	t.w0, t.h0 = int(size>>12&0x1FF), int(size&0x1FF)
	if t.w0 == 0 || t.h0 == 0 || t.w0 > 256 || t.h0 > 256 {
		return faultf("%sSize: %dx%d is outside 1x1..256x256 (L29)", name, t.w0, t.h0)
	}
	if t.min < 2 {
		lv = 0 // non-mipmapped minification reads level 0 only
	}
	t.levels = t.levels[:0]
	for i := 0; i <= lv; i++ {
		pr := e.reg(b + 0x48 + 4*uint16(i/2))
		if i%2 == 1 {
			pr >>= 16
		}
		l := texLevel{
			base:  e.reg(b+0x18+4*uint16(i)) & 0x7FFFFE,
			pitch: (pr & 0xFF) << (pr >> 8 & 15),
			w:     max(1, t.w0>>uint(i)),
			h:     max(1, t.h0>>uint(i)),
		}
		end := uint64(l.base) + uint64(l.pitch)*uint64(l.h-1) + (uint64(l.w)*uint64(t.bpp)+7)/8
		if end > uint64(len(vram)) {
			return faultf("%s level %d (%dx%d at %#x, pitch %d) lies outside VRAM", name, i, l.w, l.h, l.base, l.pitch)
		}
		t.levels = append(t.levels, l)
	}
	t.border = color6565(e.reg(b + 0x14))
	t.needLOD = t.mag != t.min || t.min >= 2
	t.texScaleUV = [2]float64{float64(t.w0), float64(t.h0)}
	// Texture transparency (colour key): 2104h D28/D29 enable it; the mode
	// and ratio in 21A8h serve both units (L3234-3278).
	t.key = e.reg(0x2104)>>(28+uint(u))&1 != 0
	tr := e.reg(0x21A8)
	t.keyMode = tr >> 30 & 3
	t.keyRatio = int32(tr >> 24 & 31)
	t.keyHi = color6565(e.reg(b + 0xC))
	t.keyLo = color6565(e.reg(b + 0x10))
	t.on = true
	return nil
}

// texelTo reads texel (x, y) of level l (wrapped into range, or -1 for
// the border colour) into out.
func (t *texUnit) texelTo(l *texLevel, x, y int, out *[4]int32) {
	if x < 0 || y < 0 {
		*out = t.border
		return
	}
	row := l.base + uint32(y)*l.pitch
	switch t.bpp {
	case 16:
		t.fl.decodeTo(uint32(binary.LittleEndian.Uint16(t.vram[row+2*uint32(x):])), out)
		return
	case 8:
		v := t.vram[row+uint32(x)]
		if t.paletted {
			*out = t.pal[v]
		} else {
			t.fl.decodeTo(uint32(v), out)
		}
		return
	}
	v := t.vram[row+uint32(x>>1)]
	if x&1 == 0 {
		v >>= 4
	}
	v &= 15
	if t.paletted {
		*out = t.pal[v]
	} else {
		t.fl.decodeTo(uint32(v), out)
	}
}

// texel reads texel (x, y) of level l, already wrapped into range.
func (t *texUnit) texel(l *texLevel, x, y int) [4]int32 {
	row := l.base + uint32(y)*l.pitch
	switch t.bpp {
	case 16:
		v := binary.LittleEndian.Uint16(t.vram[row+2*uint32(x):])
		return t.fl.decode(uint32(v))
	case 8:
		v := t.vram[row+uint32(x)]
		if t.paletted {
			return t.pal[v]
		}
		return t.lut[v]
	}
	// 4 bits per texel: texel 0 in the high nibble (P14, the OES order).
	v := t.vram[row+uint32(x>>1)]
	if x&1 == 0 {
		v >>= 4
	}
	v &= 15
	if t.paletted {
		return t.pal[v]
	}
	return t.lut[v]
}

// wrap maps a texel coordinate into [0, n) per mapping mode (21A0h
// D[21:16]): border (-1 means "use the border colour"), wrap, mirror,
// clamp to edge. Non-power-of-two sizes wrap by modulo (L28).
func wrap(i, n int, mode uint32) int {
	switch mode {
	case 1:
		i %= n
		if i < 0 {
			i += n
		}
	case 2:
		p := 2 * n
		i %= p
		if i < 0 {
			i += p
		}
		if i >= n {
			i = p - 1 - i
		}
	case 3:
		i = max(0, min(n-1, i))
	default:
		if i < 0 || i >= n {
			return -1
		}
	}
	return i
}

// wrap2 wraps x and x+1 (the bilinear pair) without divisions when x lies
// within a period of the range, the common case.
func wrap2(x, n int, mode uint32) (int, int) {
	if mode == 1 && x >= -n && x < 2*n {
		if x < 0 {
			x += n
		} else if x >= n {
			x -= n
		}
		x1 := x + 1
		if x1 == n {
			x1 = 0
		}
		return x, x1
	}
	if mode == 3 {
		return max(0, min(n-1, x)), max(0, min(n-1, x+1))
	}
	return wrap(x, n, mode), wrap(x+1, n, mode)
}

func (t *texUnit) fetch(l *texLevel, x, y int) [4]int32 {
	x, y = wrap(x, l.w, t.wrapU), wrap(y, l.h, t.wrapV)
	if x < 0 || y < 0 {
		return t.border
	}
	return t.texel(l, x, y)
}

// texCoordFixed converts a normalised coordinate to texels with 8
// fraction bits (the sub-texel precision of the filter, a decision), with
// the coordinate clamped to +-2^20 texels.
func texCoordFixed(u float64, size int) int64 {
	v := u * float64(size) * 256
	if !(v > -0x1p28) {
		return -1 << 28
	}
	if v > 0x1p28 {
		return 1 << 28
	}
	return int64(math.Floor(v))
}

// sampleLevelTo filters level l at (u, v) into out: nearest takes the
// texel holding the point; linear blends the four texels around it with
// 8-bit weights.
func (t *texUnit) sampleLevelTo(l *texLevel, u, v float64, linear bool, out *[4]int32) {
	fu, fv := texCoordFixed(u, l.w), texCoordFixed(v, l.h)
	if !linear {
		t.texelTo(l, wrap(int(fu>>8), l.w, t.wrapU), wrap(int(fv>>8), l.h, t.wrapV), out)
		if wrap(int(fu>>8), l.w, t.wrapU) < 0 || wrap(int(fv>>8), l.h, t.wrapV) < 0 {
			*out = t.border
		}
		return
	}
	fu -= 128
	fv -= 128
	wu, wv := int64(fu&255), int64(fv&255)
	x0, x1 := wrap2(int(fu>>8), l.w, t.wrapU)
	y0, y1 := wrap2(int(fv>>8), l.h, t.wrapV)
	if t.bpp == 16 && t.fl.mode == 0 && x0 >= 0 && x1 >= 0 && y0 >= 0 && y1 >= 0 {
		t.bilinear16(l, x0, x1, y0, y1, wu, wv, out)
		return
	}
	var c00, c10, c01, c11 [4]int32
	t.texelTo(l, x0, y0, &c00)
	t.texelTo(l, x1, y0, &c10)
	t.texelTo(l, x0, y1, &c01)
	t.texelTo(l, x1, y1, &c11)
	if y0 < 0 {
		c00, c10 = t.border, t.border
	}
	if y1 < 0 {
		c01, c11 = t.border, t.border
	}
	w00 := (256 - wu) * (256 - wv)
	w10 := wu * (256 - wv)
	w01 := (256 - wu) * wv
	w11 := wu * wv
	for k := 0; k < 4; k++ {
		out[k] = int32((w00*int64(c00[k]) + w10*int64(c10[k]) + w01*int64(c01[k]) + w11*int64(c11[k]) + 32768) >> 16)
	}
}

// bilinear16 is the bilinear filter of a 16-bit colour format with all
// four texels inside the level: the same arithmetic as sampleLevelTo's
// general path, decoding channel by channel without temporaries.
func (t *texUnit) bilinear16(l *texLevel, x0, x1, y0, y1 int, wu, wv int64, out *[4]int32) {
	r0, r1 := l.base+uint32(y0)*l.pitch, l.base+uint32(y1)*l.pitch
	vr := t.vram
	v00 := uint32(binary.LittleEndian.Uint16(vr[r0+2*uint32(x0):]))
	v10 := uint32(binary.LittleEndian.Uint16(vr[r0+2*uint32(x1):]))
	v01 := uint32(binary.LittleEndian.Uint16(vr[r1+2*uint32(x0):]))
	v11 := uint32(binary.LittleEndian.Uint16(vr[r1+2*uint32(x1):]))
	w00 := (256 - wu) * (256 - wv)
	w10 := wu * (256 - wv)
	w01 := (256 - wu) * wv
	w11 := wu * wv
	f := &t.fl
	for k := 0; k < 4; k++ {
		if !f.on[k] {
			out[k] = 0
			if k == 3 {
				out[k] = one
			}
			continue
		}
		tab, sh, m := f.tab[k], f.sh[k], f.mask[k]
		out[k] = int32((w00*int64(tab[v00>>sh&m]) + w10*int64(tab[v10>>sh&m]) + w01*int64(tab[v01>>sh&m]) +
			w11*int64(tab[v11>>sh&m]) + 32768) >> 16)
	}
}

// sampleLevel is sampleLevelTo returning the colour.
func (t *texUnit) sampleLevel(l *texLevel, u, v float64, linear bool) [4]int32 {
	var out [4]int32
	t.sampleLevelTo(l, u, v, linear, &out)
	return out
}

// sampleTo is sample writing into out, with the fast path of a texture
// without LOD selection.
func (t *texUnit) sampleTo(u, v, lod float64, out *[4]int32) {
	if !t.needLOD {
		t.sampleLevelTo(&t.levels[0], u, v, t.mag == 1, out)
		return
	}
	*out = t.sample(u, v, lod)
}

// sample filters the texture at (u, v) with level of detail lod (log2 of
// the texel-to-pixel ratio, bias not yet added). Magnification holds when
// lod <= 0, or lod <= 0.5 with the OpenGL rule flag (2104h D0/D1, L2565).
func (t *texUnit) sample(u, v, lod float64) [4]int32 {
	if !t.needLOD {
		return t.sampleLevel(&t.levels[0], u, v, t.mag == 1)
	}
	lod += t.bias
	c := 0.0
	if t.glRule {
		c = 0.5
	}
	if lod <= c {
		return t.sampleLevel(&t.levels[0], u, v, t.mag == 1)
	}
	linear := t.min == 1 || t.min == 4 || t.min == 5
	n := len(t.levels) - 1
	if t.min < 2 || n == 0 {
		return t.sampleLevel(&t.levels[0], u, v, linear)
	}
	// The LOD is quantised to 1/32 (the s4.5 bias precision).
	lq := math.Floor(lod*32) / 32
	if t.min == 2 || t.min == 4 { // nearest mip level
		d := 0
		if lq > 0.5 {
			d = int(math.Ceil(lq+0.5)) - 1
		}
		return t.sampleLevel(&t.levels[min(d, n)], u, v, linear)
	}
	d := int(math.Floor(lq))
	if d >= n {
		return t.sampleLevel(&t.levels[n], u, v, linear)
	}
	f := int64((lq - float64(d)) * 32)
	a := t.sampleLevel(&t.levels[d], u, v, linear)
	b := t.sampleLevel(&t.levels[d+1], u, v, linear)
	var out [4]int32
	for k := 0; k < 4; k++ {
		out[k] = int32((int64(a[k])*(32-f) + int64(b[k])*f + 16) >> 5)
	}
	return out
}

// keyed reports whether a texel falls in the transparency range: every
// colour channel (texel mode) or the alpha (alpha mode) between the low
// and high thresholds, compared at the thresholds' 5/6-bit precision
// (L3257-3260, "this texel will be bypassed").
func (t *texUnit) keyed(c [4]int32) bool {
	in := func(k int) bool { return c[k] >= t.keyLo[k] && c[k] <= t.keyHi[k] }
	if t.keyMode == 2 {
		return in(3)
	}
	return in(0) && in(1) && in(2)
}

// keyCovered returns the share (0..256) of the filter footprint at (u, v)
// on level 0 whose texels are transparent: the texel under the point for
// nearest filtering, the bilinear weights of the keyed texels otherwise.
// The pixel is dropped when the share exceeds EGTXTRSHratio/32 (L3240).
func (t *texUnit) keyCovered(u, v float64) int64 {
	l := &t.levels[0]
	fu, fv := texCoordFixed(u, l.w), texCoordFixed(v, l.h)
	if t.mag == 0 && t.min != 1 {
		if t.keyed(t.fetch(l, int(fu>>8), int(fv>>8))) {
			return 256
		}
		return 0
	}
	fu -= 128
	fv -= 128
	x0, y0 := int(fu>>8), int(fv>>8)
	wu, wv := fu&255, fv&255
	var share int64
	w := [4]int64{(256 - wu) * (256 - wv), wu * (256 - wv), (256 - wu) * wv, wu * wv}
	for i, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
		if t.keyed(t.fetch(l, x0+d[0], y0+d[1])) {
			share += w[i]
		}
	}
	return share >> 8
}
