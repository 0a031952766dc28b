package r300

import (
	"encoding/binary"
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// The fused path's margin loop: a run of the fused shape (fusedPlanOf)
// whose t is the same at every pixel (a screen-aligned quad's rows) takes
// each pixel's bytes from an approximation of the exact value they round,
// and the reference's arithmetic only where the approximation lies near
// a byte's threshold.
//
// The reference takes channel c's byte as fusedByte(p), p = T·C, from the
// texel T = fp24f(float32(B)) (B the bilinear sum of unorm8 texels in
// float64) and the colour load C = fp24(R) (R spanLoad's sum); fusedByte
// counts the thresholds of fusedByteTab at or below p. Write V for the
// exact bilinear value of the reference's weights (products of a, 1-a, b
// and 1-b, each exact from the pixel's FP24 s and t). Then:
//   - T = V·(1+τ) with τ in [-2^-16 - 2^-22, 2^-22]: unorm8's float32
//     texels (2^-24 relative), the float64 products and sums (a few
//     2^-53), the float32 rounding (2^-24) and fp24f's truncation of 16
//     mantissa bits (under 2^-16, toward zero);
//   - C = R·(1-ρ) with ρ in [0, 2^-16) (fp24's truncation; a value fp24
//     flushes to zero is below 2^-62, too small to matter), and R within
//     the run's bound E of the loop's value c (fusedColourOf).
//
// The loop computes u = S·c + 1/2, S = c0 + a·(c1 - c0) ≈ 255·V from the
// texel columns of the run's row pair (fusedCol). The texel column is
// floor(x) for x = s·width - 1/2 and a its fraction, both from X, the
// integer part of (x + 64)·2^24 computed in float64: s·width·2^24 is
// exact (width is a power of two) and so is the sum, unless s·width is
// below 2^-7 (x near -1/2, far from an integer), where its rounding and
// the integer part move X by under one, a by under 2^-24, and floor(x)
// not at all. S is then within 255·2^-24 + 2^-40 of 255·V (a few
// roundings of values up to 255); the colours are at most 2 in
// magnitude (GL ES 1.1's lie in [0, 1]), so S's error moves u by under
// 2^-15. With L = u - 1/2, the reference's 255·p + 1/2 lies in
// [u - |L|·(2^-15 + 2^-21) - A, u + |L|·2^-21 + A], A = 256·E + 2^-15 +
// 2^-20.
//
// A threshold k lies θ_k in [0, θmax] above its half-byte point: the
// byte is k where 255·p + 1/2 lies in [k + θ_k, k + 1 + θ_(k+1)), 0
// below 1 + θ_1 and 255 from 255 + θ_255. So for u in [0, 256) with
// k = floor(u) (L below k + 1/2) and a fraction u - k in
// [fusedMarginLo + k·2^-15, fusedMarginHi), the byte is k:
// fusedMarginLo exceeds θmax + 2^-16 + 255.5·2^-21 + A, so that the
// window's low edge exceeds θmax + (k + 1/2)·(2^-15 + 2^-21) + A, and
// fusedMarginHi is below 1 - 255.5·2^-21 - A, for A up to fusedMarginA
// (TestFusedMarginBounds). A pixel with any channel outside (about 0.6%
// of each channel's values, and a u below 0 or from 256 up, which GL ES
// 1.1's clamped colours never give) takes the reference's arithmetic
// whole (exact).

// fusedMarginLo (plus k·2^-15 for byte k) and fusedMarginHi bound the
// fraction of u the loop decides alone, and fusedMarginA the error of
// its colours and sums (A above) it admits.
const (
	fusedMarginLo = 1.0 / 400
	fusedMarginHi = 1 - 1.0/2048
	fusedMarginA  = 0x1p-14
)

// fusedMarginLoScale multiplies fusedMarginLo in the loop and
// fusedMarginSlope is the shift of k that makes the window's k·2^-15
// (17); tests set them to zero and 64 (no slope) to show the margin is
// needed.
var (
	fusedMarginLoScale = 1.0
	fusedMarginSlope   = uint(17)
)

// fusedMarginHook, when set (by tests), is called for every run the
// margin loop shades, fusedAlphaHook for every run it shades with a
// constant alpha byte, fusedExactHook for every pixel it
// hands to the reference's arithmetic.
var fusedMarginHook, fusedAlphaHook, fusedExactHook func()

// fusedCol is one texel column of a row pair: per channel, the
// column's vertical blend of raw bytes (1-b)·top + b·bottom, so that
// 255·V = c0 + a·(c1 - c0) for the pixel's columns c0 and c1.
type fusedCol [4]float64

// fusedColour is a colour load along a run, scaled by 2^32: the value
// at the run's first pixel and the step per pixel.
type fusedColour struct {
	c, d float64
}

// fusedMarginRun loads s and t for the run of n pixels from (x0, y)
// (fusedLoads) and, when t is the same at every pixel and the run is in
// the margin loop's range, shades it into fw.word (words for gourWrite)
// and reports true. When it reports false, the colour loads are still to
// be loaded and the run shaded by fusedTexRow.
func (s *drawState) fusedMarginRun(p *prim, chans *[6]fusedChan, g *fusedPlan, u *texUnit, buf *cbBuffer, ar float64, x0, y, n int, fw *fusedWork) (ok bool) {
	at := s.gourAt(p, ar, x0, y, n)
	same := s.fusedLoads(p, chans, &at, ar, x0, y, n, fw, fusedCoords, 2)
	sv, tv := fw.v[0][:n], fw.v[1][:n]
	t := tv[0]
	if same&2 != 0 {
		// t was loaded once; fusedTexRow needs it at every pixel.
		defer func() {
			if !ok {
				fillF32(tv, t)
			}
		}()
	} else {
		for _, v := range tv {
			if math.Float32bits(v) != math.Float32bits(t) {
				return false
			}
		}
	}
	lv := &u.levels[u.baseLevel]
	wd := float64(lv.Width)
	// The texel columns the run reads: from its ends' s (the loads are
	// monotonic up to their rounding, and the loop checks each pixel's
	// column against the range), one more on each side.
	xa, xb := float64(float64(sv[0])*wd)-0.5, float64(float64(sv[n-1])*wd)-0.5
	if !(xa > -1<<29 && xa < 1<<29 && xb > -1<<29 && xb < 1<<29) {
		return false
	}
	ja, jb := int(math.Floor(min(xa, xb)))-1, int(math.Floor(max(xa, xb)))+1
	// A pixel's columns are xi and xi+1 for xi in ja .. jb.
	cnt := jb - ja + 1
	if cnt > 2*n+8 {
		// More texel columns than pixels: fusedTexRow's direct fetch is
		// cheaper.
		return false
	}
	var colours [4]fusedColour
	for c := range colours {
		var cok bool
		if colours[c], cok = fusedColourOf(&chans[2+c], &at, n); !cok {
			return false
		}
	}
	var cols []fusedCol
	var alpha int
	switch {
	case g.cache && lv.Width <= fusedRowWidth:
		cols, alpha = s.rowCols(fw, g.id, g.unit, t)
		ja, cnt = math.MinInt32, math.MaxInt
	case cnt+1 >= lv.Width:
		// Every column: any pixel's is in the cache.
		fw.cols, alpha = s.fusedColumns(u, lv, fw.cols, t, 0, lv.Width)
		cols = fw.cols
		ja, cnt = math.MinInt32, math.MaxInt
	default:
		fw.cols, alpha = s.fusedColumns(u, lv, fw.cols, t, ja, cnt+1)
		cols = fw.cols
	}
	if alpha >= 0 && chans[5].kind != 0 {
		// Every texel the run reads has this alpha, so every bilinear
		// sum of them rounds to unorm8's value (its float64 error is far
		// below float32's half unit), and the colour load is the same at
		// every pixel.
		k := float64(colours[3].c) * 0x1p-32
		alpha = int(fusedByte(fusedByteTab(), float64(fp24f(unorm8[alpha]))*k))
	} else {
		alpha = -1
	}
	var k [4]uint64
	var dst []byte
	if g.over {
		off := (y*buf.pitch + x0) * 4
		dst = buf.mem[off : off+4*n]
		k = s.fusedOverKs(x0, y)
	}
	m := &fusedMarginRow{
		s: s, p: p, u: u, chans: chans, ar: ar, x0: x0, y: y, t: t,
	}
	m.loop(fw, cols, sv, wd, ja, cnt, &colours, alpha, dst, &k)
	if fusedMarginHook != nil {
		fusedMarginHook()
	}
	return true
}

// fusedColourOf returns the loop's stepping of colour load ch over the
// run at at: exact when the load is the same along the row, else the
// reference's unrounded value at the first pixel and its slope, which
// stay within the run's error bound E of R (A within fusedMarginA, or ok
// false; ok false too for a colour beyond 2 in magnitude).
func fusedColourOf(ch *fusedChan, at *gourRunAt, n int) (fusedColour, bool) {
	switch ch.kind {
	case 1, 2:
		k := ch.k
		if ch.kind == 2 {
			k = fp24(loadDot(&ch.v, &at.w))
		}
		return fusedColour{c: float64(k) * 0x1p32}, math.Abs(float64(k)) <= 2
	}
	if !(ch.vmax <= 2) {
		return fusedColour{}, false
	}
	// R at pixel i and the first pixel's value lie within errR of the
	// exact affine values, the slope within errD of the exact slope (n
	// times over the run), and the loop's sums round by under 2^-52 of
	// their magnitude (at most 2·vmax) at each of the n steps.
	errR := at.wsum * ch.vmax * 0x1p-50
	e := 2*errR + float64(n)*(ch.errD+ch.vmax*0x1p-51)
	if !(256*e+0x1p-15+0x1p-20 <= fusedMarginA) {
		return fusedColour{}, false
	}
	return fusedColour{c: loadDot(&ch.v, &at.w) * 0x1p32, d: ch.d * 0x1p32}, true
}

// fusedRowWidth is the widest texture level whose row pairs' columns the
// margin loop keeps (fusedRowCols), fusedRowCache how many it keeps.
const (
	fusedRowWidth = 1024
	fusedRowCache = 32
)

// fusedRowCols is a row pair's columns kept for the rest of the draw: a
// draw that does not write its textures (drawState.serial clear: the
// scheduler's contract) cannot change them while it is shaded, so the
// columns of a (draw, unit, t) are the same for every primitive of the
// draw that reads them. The scheduler hands a worker a band's
// primitives in turn, BandRows rows each, so a primitive's rows find
// those of the primitives before it in the band.
type fusedRowCols struct {
	id    uint64
	unit  int
	t     uint32
	alpha int
	cols  []fusedCol
}

// rowCols returns the kept columns and alpha (fusedColumns') of draw
// id's unit at t, filling them in place of the oldest kept when they are
// not kept.
func (s *drawState) rowCols(fw *fusedWork, id uint64, unit int, t float32) ([]fusedCol, int) {
	tb := math.Float32bits(t)
	for i := range fw.rows {
		e := &fw.rows[i]
		if e.id == id && e.unit == unit && e.t == tb {
			return e.cols, e.alpha
		}
	}
	e := &fw.rows[fw.rowNext%fusedRowCache]
	fw.rowNext++
	u := &s.tex[unit]
	lv := &u.levels[u.baseLevel]
	e.id, e.unit, e.t = id, unit, tb
	e.cols, e.alpha = s.fusedColumns(u, lv, e.cols, t, 0, lv.Width)
	return e.cols, e.alpha
}

// fusedColumns returns cols (grown if need be) cut to the level's width,
// holding the texel columns ja .. ja+cnt-1 (wrapped) of the row pair
// that t reads (bilinearRepeat's rows and b): top + b·(bottom - top)
// per channel, within 2^-44 of (1-b)·top + b·bottom. It also returns
// the alpha byte of those texels when they all have the same, else -1.
func (s *drawState) fusedColumns(u *texUnit, lv *r3.TexLevel, cols []fusedCol, t float32, ja, cnt int) (_ []fusedCol, alpha int) {
	if cap(cols) < lv.Width {
		cols = make([]fusedCol, lv.Width)
	}
	cols = cols[:lv.Width]
	yj, b := texelAxis(t, float64(lv.Height))
	mx, my := lv.Width-1, lv.Height-1
	r0 := lv.Offset + uint32(yj&my)*lv.Pitch
	r1 := lv.Offset + uint32((yj+1)&my)*lv.Pitch
	top, bot := u.mem[r0:], u.mem[r1:]
	and, or := ^uint32(0), uint32(0)
	for j := ja; j < ja+cnt; j++ {
		o := 4 * (j & mx)
		v0 := binary.LittleEndian.Uint32(top[o:])
		v1 := binary.LittleEndian.Uint32(bot[o:])
		and &= v0 & v1
		or |= v0 | v1
		e := &cols[j&mx]
		e[0] = float64(v0&255) + b*float64(int32(v1&255)-int32(v0&255))
		e[1] = float64(v0>>8&255) + b*float64(int32(v1>>8&255)-int32(v0>>8&255))
		e[2] = float64(v0>>16&255) + b*float64(int32(v1>>16&255)-int32(v0>>16&255))
		e[3] = float64(v0>>24) + b*float64(int32(v1>>24)-int32(v0>>24))
	}
	if and>>24 != or>>24 {
		return cols, -1
	}
	return cols, int(and >> 24)
}

// fusedMarginRow is what the margin loop's exact pixels need.
type fusedMarginRow struct {
	s     *drawState
	p     *prim
	u     *texUnit
	chans *[6]fusedChan
	ar    float64
	x0, y int
	t     float32
}

// loop is the margin loop over the run's pixels (s values sv), in
// passes: each pixel's column pair and a (fusedColsOf; cols holds the
// unwrapped columns ja .. ja+cnt-1); per channel u·2^32 from the columns
// and the colours, its byte where the fraction allows, the pixel listed
// otherwise (marginBytesVec where the CPU has AVX2, else fusedBytesGo;
// alpha is the alpha byte when it is the same at every pixel, else
// negative); exact's bytes for the listed pixels; the over blend with
// dst (in the kernel, or fusedOverWords) or the bytes alone (dst nil),
// into fw.word.
func (m *fusedMarginRow) loop(fw *fusedWork, cols []fusedCol, sv []float32, wd float64, ja, cnt int, cl *[4]fusedColour, alpha int, dst []byte, k *[4]uint64) {
	n := min(len(sv), fusedChunk)
	sv = sv[:n]
	words := fw.word[:n]
	if alpha >= 0 && fusedAlphaHook != nil {
		fusedAlphaHook()
	}
	fusedColsOf(fw, cols, sv, wd*0x1p24, ja, cnt)
	if haveVec && fusedVec {
		// The kernel blends; its listed pixels are blended one by one.
		nf := fusedBytesVec(fw, cols, words, cl, alpha, dst, k)
		for _, i := range fw.fix[:nf] {
			words[i] = m.exact(int(i), sv[i])
			if dst != nil {
				kk := [4]uint64{k[i&3]}
				fusedOverWords(words[i:i+1], dst[4*int(i):], &kk)
			}
		}
		return
	}
	nf := fusedBytesGo(fw, cols, words, cl, alpha)
	for _, i := range fw.fix[:nf] {
		words[i] = m.exact(int(i), sv[i])
	}
	if dst != nil {
		fusedOverWords(words, dst, k)
	}
}

// exact returns pixel i's source word (bytes B, G, R, A, as the
// buffer's) by the
// reference's arithmetic: the texel from bilinear8Fast (fusedTexRow's
// sums), the colour loads' FP24 values from loadRef, fusedByte of the
// products.
//
//go:noinline
func (m *fusedMarginRow) exact(i int, sc float32) uint32 {
	if fusedExactHook != nil {
		fusedExactHook()
	}
	u := m.u
	lv := &u.levels[u.baseLevel]
	tx := u.bilinear8Fast(lv, float64(float64(sc)*float64(lv.Width)), float64(float64(m.t)*float64(lv.Height)))
	tab := fusedByteTab()
	w := m.s.linearWeights(m.p, m.ar, m.x0+i, m.y)
	var out uint32
	for c := range 4 {
		ch := &m.chans[2+c]
		k := ch.k
		switch ch.kind {
		case 0:
			k = fp24(loadDot(&ch.v, &w))
		case 2:
			k = fp24(m.s.loadRef(m.p, &ch.v, m.ar, m.x0, m.y))
		}
		out |= fusedByte(tab, float64(fp24f(tx[c]))*float64(k)) << (8 * [4]uint32{2, 1, 0, 3}[c])
	}
	return out
}

// fusedWindow32 returns the window's edges for byte 0 in units of 2^-32
// and the slope's shift: for byte k the low edge is lo + k<<slope
// (k·2^-15), and a fraction f (32 bits) lies inside when f - lo_k <
// hi - lo_k as uint32 (fusedOutside).
func fusedWindow32() (lo, hi uint32, slope uint) {
	return uint32(fusedMarginLo * fusedMarginLoScale * 0x1p32), uint32(fusedMarginHi * 0x1p32), fusedMarginSlope
}

// fusedOutside reports, in bit 63, whether z's fraction (its low 32 bits)
// lies outside its byte's window (fusedWindow32's; the byte, z's next
// bits, taken as if in range: a byte out of range is caught by the
// passes' own test).
func fusedOutside(z int64, lo, hi uint32, slope uint) uint64 {
	lk := lo + uint32(z>>32)<<slope
	return uint64(uint32(z)-lk) + (1<<63 - uint64(hi-lk))
}

// fusedVec selects marginBytesVec where the CPU has it (haveVec); tests
// clear it to run the Go passes.
var fusedVec = true

// fusedBytesVec is fusedBytesGo, then fusedOverWords with dst and k when dst is not
// nil, through marginBytesVec: the same approximation, its
// u·2^32 rounded to nearest where the Go passes truncate, which moves a
// fraction by 2^-32, far inside the window's slack (TestFusedMarginBounds
// leaves more than 10^-4 each side).
func fusedBytesVec(fw *fusedWork, cols []fusedCol, words []uint32, cl *[4]fusedColour, alpha int, dst []byte, k *[4]uint64) int {
	n := min(len(words), fusedChunk)
	if n == 0 {
		return 0
	}
	cd := [8]float64{cl[0].c, cl[1].c, cl[2].c, cl[3].c, cl[0].d, cl[1].d, cl[2].d, cl[3].d}
	chk, amask, aor := [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}, ^uint32(0), uint32(0)
	if alpha >= 0 {
		chk[3], amask, aor = 0, 0x00FFFFFF, uint32(alpha)<<24
		cd[3], cd[7] = 0, 0
	}
	var d *byte
	if dst != nil {
		d = &dst[:4*n][0]
	}
	lo, hi, slope := fusedWindow32()
	return marginBytesVec(&cols[0], &fw.ma[0], &fw.mi[0], &words[0], n, &cd, uint64(lo), uint64(hi)-1, uint64(slope), &chk, amask, aor, &fw.fix[0], d, k)
}

// fusedColsOf sets fw.ma and fw.mi, each pixel's a and column pair, for
// the pixels of s values sv: X, the integer part of (x + 64)·2^24 for x
// = s·width - 1/2 (module comment; wd24 is width·2^24), gives the column
// floor(x) and a. A pixel whose X is out of [2^24, 2^53) (x below -63,
// beyond 2^29, or NaN, whatever integer the conversion makes of it) or
// whose column is not among the cached (the unwrapped columns ja ..
// ja+cnt-1) gets a NaN a, which the bytes passes list.
func fusedColsOf(fw *fusedWork, cols []fusedCol, sv []float32, wd24 float64, ja, cnt int) {
	mx := len(cols) - 1
	ma, mi := fw.ma[:len(sv)], fw.mi[:len(sv)]
	nan := math.NaN()
	for i, sc := range sv {
		X := int64(float64(float64(sc)*wd24) + fusedColOff)
		xi := int(X>>24) - 64
		a := float64(X&(1<<24-1)) * 0x1p-24
		if !(uint64(X)-1<<24 < 1<<53 && uint(xi-ja) < uint(cnt)) {
			a, xi = nan, 0
		}
		ma[i] = a
		mi[i] = uint32(xi&mx) | uint32((xi+1)&mx)<<16
	}
}

// fusedColOff is (64 - 1/2)·2^24, X's offset.
const fusedColOff = (64 - 0.5) * 0x1p24

// fusedBytesGo is the margin loop's bytes pass: for each pixel i of
// words (fw.ma and fw.mi its a and columns, fusedColsOf), u·2^32 per
// channel with the colours stepped from cl, and the word of the four
// bytes (B, G, R, A) where every channel's fraction lies inside the
// window; the others are listed in fw.fix, whose length it returns. With
// alpha >= 0 the alpha byte is alpha at every pixel and its channel is
// not tested.
func fusedBytesGo(fw *fusedWork, cols []fusedCol, words []uint32, cl *[4]fusedColour, alpha int) int {
	lo, hi, slope := fusedWindow32()
	ma, mi := fw.ma[:len(words)], fw.mi[:len(words)]
	c0, c1, c2, c3 := cl[0].c, cl[1].c, cl[2].c, cl[3].c
	d0, d1, d2, d3 := cl[0].d, cl[1].d, cl[2].d, cl[3].d
	// The alpha channel's word bits and tests, kept or dropped.
	am, tm, aor := uint32(0xFF000000), ^uint64(0), uint32(0)
	if alpha >= 0 {
		am, tm, aor = 0, 0, uint32(alpha)<<24
		c3, d3 = 0, 0
	}
	fix := &fw.fix
	nf := 0
	for i := range words {
		j := mi[i]
		e0, e1 := &cols[j&0xFFFF], &cols[j>>16]
		a := ma[i]
		// Each channel's value is folded into the word and the tests as
		// soon as it is made (fewer live registers).
		z := int64((e0[0]+a*(e1[0]-e0[0]))*c0 + 0x1p31)
		w, k, f := uint32(z>>32)<<16|aor, z, fusedOutside(z, lo, hi, slope)
		z = int64((e0[1]+a*(e1[1]-e0[1]))*c1 + 0x1p31)
		w, k, f = w|uint32(z>>32)<<8, k|z, f|fusedOutside(z, lo, hi, slope)
		z = int64((e0[2]+a*(e1[2]-e0[2]))*c2 + 0x1p31)
		w, k, f = w|uint32(z>>32), k|z, f|fusedOutside(z, lo, hi, slope)
		z = int64((e0[3]+a*(e1[3]-e0[3]))*c3 + 0x1p31)
		w, k, f = w|uint32(z>>32)<<24&am, k|int64(uint64(z)&tm), f|fusedOutside(z, lo, hi, slope)&tm
		c0, c1, c2, c3 = c0+d0, c1+d1, c2+d2, c3+d3
		bad := uint64(k>>32)>>8 | f>>63
		words[i] = w
		fix[nf&(fusedChunk-1)] = uint16(i)
		nf += int((bad | -bad) >> 63)
	}
	return nf
}
