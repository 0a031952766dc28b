package pica

import (
	"encoding/binary"
	"math"
	"math/bits"

	p "github.com/retrogl/retrogl/hal/pica"
)

// The fused Gouraud path: a draw whose combiners output the primary
// colour unchanged (or one constant colour, as the driver's clears do),
// with no alpha test and no fog, copied into an RGBA8
// buffer under a full mask, with no depth work or a D16 or D24S8 depth
// buffer without the stencil test, shades a stepped chunk in two loops
// instead of the stages' four: the depth test and write of the whole
// chunk (depthRun; a triangle of one depth, the common case, tests every
// pixel against one interval), then the colours straight from the
// stepper's lanes into the colour buffer (colorLanes' arithmetic, stored
// as the buffer's bytes). A pixel near a colour rounding step is
// interpolated exactly and written again afterwards: the copy reads
// nothing, so the last write is what counts. The result is the staged
// path's, pixel for pixel: the stages before depth (the combiners, the
// alpha test, fog) do nothing in this state, and the colour stage writes
// exactly the pixels the depth stage passes.
// TestSpanPathMatchesReference draws such states (randomPixelState's
// fused shape).

// fusedPlan decides whether the draw takes the fused Gouraud path, and
// its depth form.
func (ps *pixelState) fusedPlan() {
	pl := &ps.span
	switch {
	case !pl.needZ:
		pl.zKind = zNone
	case !pl.zFast || ps.depthBuf == nil:
		pl.zKind = zOther
	case ps.depthFmt == p.DepthD16:
		pl.zKind = zD16
	case ps.depthFmt == p.DepthD24S8:
		pl.zKind = zD24S8
	default:
		pl.zKind = zOther
	}
	pl.konstOnly = !ps.tevPrimary && pl.replace && pl.repRGB < 0 && pl.repA < 0
	pl.gouraud = (ps.tevPrimary || pl.konstOnly) && ps.alphaTest&1 == 0 && ps.fogMode != 5 && pl.copyRGBA8 &&
		!pl.noColor && ps.color != nil && pl.zKind != zOther
}

// The depth forms of the fused path.
const (
	zNone  = iota // no depth test, write or stencil: every pixel passes
	zD16          // 16-bit depth
	zD24S8        // 24-bit depth in the low bytes of a 32-bit word
	zOther        // the stencil test, or another format: not fused
)

// fusedN is the longest chunk of the fused path: the lanes and the
// stepped depth start from exact values once per chunk (stepN), the
// depth runs and the stores go 64 pixels at a time.
const fusedN = stepN

// gouraudChunk shades the chunk of n pixels (at most fusedN) at (x0,
// row), every one live, on the fused path; it reports false (nothing
// done) when the chunk cannot be stepped in lanes.
func (st *stepper) gouraudChunk(ps *pixelState, pr *prim, sb *spanBuf, e, dx *[3]int64, n, x0, row int) bool {
	pl := &ps.span
	w, z := chunkWeights(pr, e)
	var x, d [4]int64
	var m [4]uint32
	f := pr.flat
	if pl.konstOnly {
		// The constant colour: four flat lanes.
		for k := range x {
			x[k] = int64(pl.konst[k]) << 32
		}
		f = 0xF
	} else {
		var qs [4]stepQ
		if !st.colorQ(pr, &w, &qs) {
			return false
		}
		x, d, m = colorSteps(pr, &qs)
		if !colorInRange(&x, &d, n) {
			return false
		}
	}
	// The lanes hold channels A and G in one word, B and R in the other
	// (agbr).
	x, d = [4]int64{x[3], x[1], x[2], x[0]}, [4]int64{d[3], d[1], d[2], d[0]}
	var l lanes
	if !l.setup(&x, &d, max(m[0], m[1], m[2], m[3]), f>>3&1|f&6|f&1<<3, n) {
		return false
	}
	var cd chunkDepth
	if !cd.setup(st, ps, pr, sb, e, dx, z, n, row) {
		return false
	}
	tabTried, tabOK := cd.tried, cd.tab // cd.zt holds the chunk's weights when tabOK
	base := (row&^7)*ps.width + mortonY[row&7]
	cb := ps.color[4*base:]
	for k, m := 0, 0; k < n; k += m {
		m = min(spanN-(x0+k)&7, n-k) // the second and later start a tile row
		ek := [3]int64{e[0] + int64(k)*dx[0], e[1] + int64(k)*dx[1], e[2] + int64(k)*dx[2]}
		all := pieceMask(m)
		pass := cd.piece(st, ps, pr, sb, &ek, dx, k, m, x0+k, row)
		if pass == 0 {
			l.w01 += uint64(m) * l.s01
			l.w23 += uint64(m) * l.s23
			continue
		}
		cols := pl.pxOff[x0+k : x0+k+m]
		bad := l.store(cb, cols, pass, pass == all, x0+k)
		bad &= pass
		if !tabTried && bits.OnesCount64(bad) >= 4 {
			// The tables' set-up (two integer divisions an edge) pays
			// for itself at about four pixels' three divisions.
			tabTried, tabOK = true, cd.zt.setup(&sb.wt, pr, e, dx, n)
		}
		for bad != 0 {
			i := bits.TrailingZeros64(bad)
			bad &= bad - 1
			var c [4]uint8
			if tabOK {
				w0, w1, w2 := cd.zt.weights(k + i)
				c = colorAt(pr, w0, w1, w2)
			} else {
				c = exactColor(pr, &ek, dx, i)
			}
			binary.LittleEndian.PutUint32(cb[4*cols[i]:], bits.ReverseBytes32(binary.LittleEndian.Uint32(c[:])))
		}
	}
	return true
}

// store writes the chunk's stepped colours into the RGBA8 buffer cb at
// the pixel offsets cols, where pass has the pixel's bit (full: every
// pixel), and returns the pixels to interpolate exactly (some may not
// pass); x0 is the first pixel's x. A whole tile row of 8 pixels (x0 + i
// a multiple of 8) lies at word offsets 0, 1, 4, 5, 16, 17, 20 and 21
// from its first (the tile's Morton order): it is written as four 64-bit
// words. The lanes are stepped from their value minus t (lanes.setup):
// a pixel whose fractions are all at most span then has the lanes'
// integer parts, and the margin test is one add per lane.
func (l *lanes) store(cb []byte, cols []int32, pass uint64, full bool, x0 int) uint64 {
	var bad uint64
	n := len(cols)
	i := 0
	if !full {
		for ; i < n; i++ {
			bad |= l.one(cb, cols[i], pass>>i&1 != 0) << i
		}
		return bad
	}
	for ; i < n && (x0+i)&7 != 0; i++ {
		bad |= l.one(cb, cols[i], true) << i
	}
	if i+8 <= n {
		if l.s01 == 0 && l.s23 == 0 && !l.bad() {
			// One colour, no pixel near a step: whole tile rows of it.
			fill(cb, cols[i:n], agbr(l.w01-l.tt, l.w23-l.tt))
		} else {
			bad |= l.tiles(cb, cols[i:n]) << i
		}
		i += (n - i) &^ 7
	}
	for ; i < n; i++ {
		bad |= l.one(cb, cols[i], true) << i
	}
	return bad
}

// agbr is the colour of lanes holding channels A and G (wAG) and B and
// R (wBR) as the bytes A, B, G, R of an RGBA8 pixel.
func agbr(wAG, wBR uint64) uint32 {
	x := wAG>>20&0x000000FF000000FF | wBR>>12&0x0000FF000000FF00
	return uint32(x | x>>16)
}

// tiles is store for the whole tile rows of pixels starting at cols[0]
// (a multiple of 8); it returns the pixels to interpolate exactly. The
// margin test is the carry into bit 20 of a lane: (u + c) ^ u.
//
// The loop is written for few live values (amd64 has 14 free registers;
// the earlier form kept about 20 and spilled on every row): the buffer
// window b, whose start steps 256 bytes a tile row and whose length
// counts the rows left, stands for a row index and an offset; a row's 88
// bytes are one array (one bounds check, constant indexes); a row's index
// is recomputed from b's length only when a pixel in it is near a step;
// the four stores are byte assignments (combined into one 64-bit store
// each) and agbr is written out, not called: the compiler's scheduler
// orders an inlined call's code after the loop's own (an inlined call's
// position, and PutUint64's inline mark, which has no uses, sort late),
// which kept all 16 lane values live until the stores at the end.
func (l *lanes) tiles(cb []byte, cols []int32) uint64 {
	const (
		hi  = 1<<20 | 1<<52      // the lanes' bit 20
		lo  = 0x000000FF000000FF // agbr's masks
		hi8 = 0x0000FF000000FF00
	)
	u01, u23, s01, s23, c := l.w01-l.tt, l.w23-l.tt, l.s01, l.s23, l.c
	var bad uint64
	rows := len(cols) / 8
	o := 4 * int(cols[0])
	b := cb[o : o+256*(rows-1)+88]
	for {
		t := (*[88]byte)(b)
		var g, x, y, w uint64
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		x = u01>>20&lo | u23>>12&hi8
		u01, u23 = u01+s01, u23+s23
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		y = u01>>20&lo | u23>>12&hi8
		u01, u23 = u01+s01, u23+s23
		w = uint64(uint32(x|x>>16)) | (y|y>>16)<<32
		t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24), byte(w>>32), byte(w>>40), byte(w>>48), byte(w>>56)
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		x = u01>>20&lo | u23>>12&hi8
		u01, u23 = u01+s01, u23+s23
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		y = u01>>20&lo | u23>>12&hi8
		u01, u23 = u01+s01, u23+s23
		w = uint64(uint32(x|x>>16)) | (y|y>>16)<<32
		t[16], t[17], t[18], t[19], t[20], t[21], t[22], t[23] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24), byte(w>>32), byte(w>>40), byte(w>>48), byte(w>>56)
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		x = u01>>20&lo | u23>>12&hi8
		u01, u23 = u01+s01, u23+s23
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		y = u01>>20&lo | u23>>12&hi8
		u01, u23 = u01+s01, u23+s23
		w = uint64(uint32(x|x>>16)) | (y|y>>16)<<32
		t[64], t[65], t[66], t[67], t[68], t[69], t[70], t[71] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24), byte(w>>32), byte(w>>40), byte(w>>48), byte(w>>56)
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		x = u01>>20&lo | u23>>12&hi8
		u01, u23 = u01+s01, u23+s23
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		y = u01>>20&lo | u23>>12&hi8
		u01, u23 = u01+s01, u23+s23
		w = uint64(uint32(x|x>>16)) | (y|y>>16)<<32
		t[80], t[81], t[82], t[83], t[84], t[85], t[86], t[87] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24), byte(w>>32), byte(w>>40), byte(w>>48), byte(w>>56)
		if g&hi != 0 {
			j := rows - 1 - (len(b)-88)/256
			bad |= tileBad(u01-8*s01, u23-8*s23, s01, s23, c) << (8 * j)
		}
		if len(b) < 256+88 {
			break
		}
		b = b[256:]
	}
	l.w01, l.w23 = u01+l.tt, u23+l.tt
	return bad
}

// tileBad returns which of the 8 pixels of a tile row whose first has
// the lanes u01, u23 are ones to interpolate exactly.
func tileBad(u01, u23, s01, s23, c uint64) uint64 {
	const hi = 1<<20 | 1<<52
	var bad uint64
	for k := 0; k < 8; k++ {
		g := (((u01 + c) ^ u01) | ((u23 + c) ^ u23)) & hi
		bad |= (g>>20 | g>>52) & 1 << k
		u01, u23 = u01+s01, u23+s23
	}
	return bad
}

// fill writes colour word c (the bytes A, B, G, R) to the whole tile rows
// of pixels starting at cols[0] (a multiple of 8).
func fill(cb []byte, cols []int32, c uint32) {
	cc := uint64(c) | uint64(c)<<32
	o := 4 * int(cols[0])
	for j := 0; j < len(cols)/8; j++ {
		t := cb[o : o+88 : o+88]
		o += 256
		binary.LittleEndian.PutUint64(t[0:8], cc)
		binary.LittleEndian.PutUint64(t[16:24], cc)
		binary.LittleEndian.PutUint64(t[64:72], cc)
		binary.LittleEndian.PutUint64(t[80:88], cc)
	}
}

// one writes the current pixel at offset o when put, steps, and
// returns 1 when the pixel is one to interpolate exactly.
func (l *lanes) one(cb []byte, o int32, put bool) uint64 {
	var bad uint64
	if l.bad() {
		bad = 1
	}
	if put {
		binary.LittleEndian.PutUint32(cb[4*int(o):], agbr(l.w01-l.tt, l.w23-l.tt))
	}
	l.next()
	return bad
}

// exactColor is the primary colour of the chunk's pixel i (edge values e
// at pixel 0, steps dx): interpolate's arithmetic for the colour alone.
func exactColor(pr *prim, e, dx *[3]int64, i int) [4]uint8 {
	ii := int64(i)
	area := pr.area
	return colorAt(pr, float64(e[0]+ii*dx[0])/area, float64(e[1]+ii*dx[1])/area, float64(e[2]+ii*dx[2])/area)
}

// colorAt is exactColor from the pixel's weights w0, w1, w2 (e/area).
func colorAt(pr *prim, w0, w1, w2 float64) [4]uint8 {
	v := &pr.v
	p0, p1, p2 := float64(w0*v[0].invW), float64(w1*v[1].invW), float64(w2*v[2].invW)
	q := p0 + p1 + p2
	norm := recip(q)
	p0, p1, p2 = p0*norm, p1*norm, p2*norm
	c := pr.color
	for k := 0; k < 4; k++ {
		if pr.flat>>k&1 == 0 {
			c[k] = q8Fast(float64(p0*float64(v[0].color[k])) + float64(p1*float64(v[1].color[k])) + float64(p2*float64(v[2].color[k])))
		}
	}
	return c
}

// recip is 1/q. The weights of a triangle whose 1/w are 1 (no
// perspective, the common case) sum to within a few units in the last
// place of 1, and the quotients of the 17 floats nearest 1 are
// tabulated (recipNear1: the same correctly rounded divisions, done
// once): a table load instead of a division.
func recip(q float64) float64 {
	b := int64(math.Float64bits(q)) - int64(math.Float64bits(1)) + 8
	if uint64(b) < uint64(len(recipNear1)) {
		return recipNear1[b]
	}
	return 1 / q
}

// recipNear1[b] is 1/q for the float q whose bits are 1.0's plus b - 8.
var recipNear1 = func() (t [17]float64) {
	for b := range t {
		t[b] = 1 / math.Float64frombits(math.Float64bits(1)+uint64(b)-8)
	}
	return t
}()

// depthRange returns the depth test of function fn against a fragment of
// depth z as an interval of stored values d, for d in [0, top] (top + 1
// a power of two): the test passes when (d - lo) & top <= span. ok is
// false when no stored value passes.
func depthRange(fn, z, top uint32) (lo, span uint32, ok bool) {
	switch fn {
	case 0: // never
		return 0, 0, false
	case 1: // always
		return 0, top, true
	case 2: // z == d
		return z, 0, true
	case 3: // z != d: d in [z+1, z-1], wrapping
		return z + 1, top - 1, true
	case 4: // z < d
		return z + 1, top - z - 1, z < top
	case 5: // z <= d
		return z, top - z, true
	case 6: // z > d
		return 0, z - 1, z > 0
	}
	return 0, z, true // z >= d
}

// pieceMask is the mask of a piece's m pixels (m <= 64).
func pieceMask(m int) uint64 {
	if m == 64 {
		return ^uint64(0)
	}
	return uint64(1)<<m - 1
}

// chunkDepth is a chunk's depth work, set up once for its pieces
// (setup) and run a piece at a time (piece): exact depths from the weight
// tables zt (tab, tried when the triangle has one depth), stepped depths
// (per: q steps past each piece), one depth through the run zr (zrOK
// false when no pixel can pass), or, with no depth work, every pixel.
// gouraudChunk and texChunk share it.
type chunkDepth struct {
	zt              zTab
	q               stepQ
	zr              depthRun
	per, tried, tab bool
	zrOK            bool
}

// setup sets the depth work up for the chunk of n pixels from the edge
// values e (z: chunkWeights' depth at its first pixel) on row, or
// reports false when its stepped depths are out of the stepping's range.
func (cd *chunkDepth) setup(st *stepper, ps *pixelState, pr *prim, sb *spanBuf, e, dx *[3]int64, z float64, n, row int) bool {
	zk := ps.span.zKind
	cd.per = zk != zNone && !pr.flatZ
	// A triangle of one depth on a quantisation step: every pixel's
	// exact depth, its weights from tables (wtab.go).
	cd.tried = cd.per && pr.v[0].z == pr.v[1].z && pr.v[1].z == pr.v[2].z
	cd.tab = cd.tried && cd.zt.setup(&sb.wt, pr, e, dx, n)
	if cd.per && !cd.tab && !st.zQ(pr, z, &cd.q) {
		return false
	}
	// A flat depth's run is set up once for the chunk's pieces.
	cd.zrOK = true
	if zk != zNone && pr.flatZ {
		cd.zr, cd.zrOK = ps.flatRun(ps.quantizeDepth(pr.depth), row)
	}
	return true
}

// piece tests and writes the depths of a chunk's piece of m pixels (the
// chunk's pixels from k, the row's from x) and returns the mask of those
// that pass. ek holds the edge values at the piece's first pixel.
func (cd *chunkDepth) piece(st *stepper, ps *pixelState, pr *prim, sb *spanBuf, ek, dx *[3]int64, k, m, x, row int) uint64 {
	switch {
	case cd.tab:
		cd.zt.fill(st, pr, sb.zq[:m], k)
		return ps.depthRunZ(&sb.zq, m, x, row)
	case cd.per:
		st.zStep(ps, pr, sb, &cd.q, ek, dx, m)
		cd.q.x0 += int64(m) * cd.q.dx
		return ps.depthRunZ(&sb.zq, m, x, row)
	case ps.span.zKind != zNone:
		if !cd.zrOK {
			return 0
		}
		return ps.runFlat(&cd.zr, m, x)
	}
	return pieceMask(m)
}

// depthRunFlat runs the depth test and write of the fused path's chunk
// of n pixels at (x0, row), every one at quantised depth z, and returns
// the pixels that pass (bit i for pixel i). The test is an interval of
// stored values (depthRange); a whole tile row of 8 pixels (x0 + i a
// multiple of 8) lies in pairs at pixel offsets 0, 4, 16 and 20 from its
// first, each pair one word of two depths: when all 8 pass, the four
// words are written at once.
func (ps *pixelState) depthRunFlat(z uint32, n, x0, row int) uint64 {
	zr, ok := ps.flatRun(z, row)
	if !ok {
		return 0
	}
	return ps.runFlat(&zr, n, x0)
}

// flatRun sets up depthRunFlat's run at quantised depth z on row: the
// same for every piece of a chunk (gouraudChunk sets it up once). ok is
// false when no pixel passes.
func (ps *pixelState) flatRun(z uint32, row int) (zr depthRun, ok bool) {
	dcm := ps.dcm
	test, write := dcm&1 != 0, dcm>>12&1 != 0 && ps.depthWrite
	top := uint32(1)<<ps.depthFmt.Bits() - 1
	lo, span := uint32(0), top
	ok = true
	if test {
		lo, span, ok = depthRange(dcm>>4&7, z, top)
	}
	if !ok {
		return zr, false
	}
	base := (row&^7)*ps.width + mortonY[row&7]
	zr = depthRun{lo: lo, span: span, top: top, z: z, write: write}
	if ps.span.zKind == zD16 {
		zr.zb = ps.depthBuf[2*base:]
	} else {
		zr.zb = ps.depthBuf[4*base:]
	}
	return zr, true
}

// runFlat is depthRunFlat's run of n pixels from x0 with zr from
// flatRun.
func (ps *pixelState) runFlat(zr *depthRun, n, x0 int) uint64 {
	pl := &ps.span
	cols := pl.pxOff[x0 : x0+n]
	head := min(n, (8-x0&7)&7)
	var pass uint64
	if head > 0 {
		pass = zr.pixels(cols[:head], pl.zKind)
	}
	i := head + (n-head)&^7
	if i > head {
		if pl.zKind == zD16 {
			pass |= zr.tiles16(cols[head:i]) << head
		} else {
			pass |= zr.tiles32(cols[head:i]) << head
		}
	}
	if i < n {
		pass |= zr.pixels(cols[i:], pl.zKind) << i
	}
	return pass
}

// depthRun is the state of a flat depth run: the interval of passing
// stored values, the depth, the write flag and the buffer from the row's
// first pixel.
type depthRun struct {
	lo, span, top, z uint32
	write            bool
	zb               []byte
}

// pixels tests and writes the pixels at cols one at a time.
func (zr *depthRun) pixels(cols []int32, kind int) uint64 {
	var pass uint64
	lo, span, top := zr.lo, zr.span, zr.top
	if kind == zD16 {
		for i, o := range cols {
			b := zr.zb[2*int(o):]
			if (uint32(binary.LittleEndian.Uint16(b))-lo)&top <= span {
				pass |= 1 << i
				if zr.write {
					binary.LittleEndian.PutUint16(b, uint16(zr.z))
				}
			}
		}
		return pass
	}
	for i, o := range cols {
		b := zr.zb[4*int(o):]
		old := binary.LittleEndian.Uint32(b)
		if (old-lo)&top <= span {
			pass |= 1 << i
			if zr.write {
				binary.LittleEndian.PutUint32(b, old&^0xFFFFFF|zr.z)
			}
		}
	}
	return pass
}

// tiles16 tests the 16-bit depths of the whole tile rows at cols (whose
// first starts a tile row), writes the depth of a tile row whose 8 pass
// (all at once), runs a tile row that does not pixel by pixel, and
// returns the pixels that pass.
//
// A tile row's 8 depths are four 32-bit words of two; two words make a
// 64-bit word of four 16-bit lanes, tested at once (SWAR): the lanes'
// v - lo mod 2^16 without borrows between lanes (Hacker's Delight's
// subtraction: each lane's top bit set before the subtraction, its true
// value put back by xor), then whether d + k, k = 2^16 - 1 - span, leaves
// the lane: the low 15 bits' sum carries into bit 15, and the lane
// overflows when two of d's bit 15, k's bit 15 and that carry are set
// (with k's known: d's or the carry when it is set, both when not). A
// value passes exactly when it does not overflow, (v - lo) & top <= span
// (lo taken mod 2^16: depthRange's z+1 may be 2^16).
func (zr *depthRun) tiles16(cols []int32) uint64 {
	const (
		h  = 0x8000800080008000 // the lanes' top bits
		lo = 0x7FFF7FFF7FFF7FFF
	)
	l := uint64(zr.lo&0xFFFF) * 0x0001000100010001
	lLow, lHigh := l&lo, ^l&h
	k := uint64(zr.top-zr.span) * 0x0001000100010001
	kLow, kTop := k&lo, k&h != 0
	zz := zr.z | zr.z<<16
	rows := len(cols) / 8
	o := 2 * int(cols[0])
	b := zr.zb[o : o+128*(rows-1)+44]
	var pass uint64
	for j := 0; ; j++ {
		t := (*[44]byte)(b)
		x := uint64(binary.LittleEndian.Uint32(t[0:4])) | uint64(binary.LittleEndian.Uint32(t[8:12]))<<32
		y := uint64(binary.LittleEndian.Uint32(t[32:36])) | uint64(binary.LittleEndian.Uint32(t[40:44]))<<32
		var f uint64
		if x == y && x == x>>16|x<<48 {
			// One stored value (a row an earlier flat triangle wrote):
			// its lane tested once, replicated.
			if (uint32(x)-zr.lo)&0xFFFF+zr.top-zr.span > 0xFFFF {
				f = h
			}
		} else {
			dx := ((x | h) - lLow) ^ (x&h ^ lHigh)
			dy := ((y | h) - lLow) ^ (y&h ^ lHigh)
			sx, sy := dx&lo+kLow, dy&lo+kLow
			if kTop {
				f = dx | sx | dy | sy
			} else {
				f = dx&sx | dy&sy
			}
		}
		if f&h != 0 {
			pass |= zr.pixels(cols[8*j:8*j+8], zD16) << (8 * j & 63)
		} else {
			pass |= 0xFF << (8 * j & 63) // j < 8
			if zr.write {
				binary.LittleEndian.PutUint32(t[0:4], zz)
				binary.LittleEndian.PutUint32(t[8:12], zz)
				binary.LittleEndian.PutUint32(t[32:36], zz)
				binary.LittleEndian.PutUint32(t[40:44], zz)
			}
		}
		if len(b) < 128+44 {
			return pass
		}
		b = b[128:]
	}
}

// tiles32 is tiles16 for 24-bit depths in 32-bit words (stencil in the
// top byte, kept): a pair is one 64-bit word.
func (zr *depthRun) tiles32(cols []int32) uint64 {
	var pass uint64
	lo, k := uint64(zr.lo), uint64(zr.top-zr.span)
	zz := uint64(zr.z) | uint64(zr.z)<<32
	o := 4 * int(cols[0])
	for j := 0; j < len(cols)/8; j++ {
		t := zr.zb[o : o+88 : o+88]
		o += 256
		a, b := binary.LittleEndian.Uint64(t[0:8]), binary.LittleEndian.Uint64(t[16:24])
		c, d := binary.LittleEndian.Uint64(t[64:72]), binary.LittleEndian.Uint64(t[80:88])
		const m = 0xFFFFFF
		f := ((a-lo)&m + k) | ((a>>32-lo)&m + k) | ((b-lo)&m + k) | ((b>>32-lo)&m + k) |
			((c-lo)&m + k) | ((c>>32-lo)&m + k) | ((d-lo)&m + k) | ((d>>32-lo)&m + k)
		if f > m {
			pass |= zr.pixels(cols[8*j:8*j+8], zD24S8) << (8 * j)
			continue
		}
		pass |= 0xFF << (8 * j)
		if zr.write {
			const dm = 0x00FFFFFF00FFFFFF
			binary.LittleEndian.PutUint64(t[0:8], a&^dm|zz)
			binary.LittleEndian.PutUint64(t[16:24], b&^dm|zz)
			binary.LittleEndian.PutUint64(t[64:72], c&^dm|zz)
			binary.LittleEndian.PutUint64(t[80:88], d&^dm|zz)
		}
	}
	return pass
}

// depthRunZ is depthRunFlat with pixel i at quantised depth zq[i]: each
// pixel tested on its own (cmpMask), a whole tile row of 8 pixels
// through constant offsets (z16, z32). A pixel that fails the test, or
// every pixel when the state does not write depth, has its stored value
// written back unchanged: the pixels are the worker's own, so that
// changes nothing.
func (ps *pixelState) depthRunZ(zq *[spanN]uint32, n, x0, row int) uint64 {
	pl := &ps.span
	dcm := ps.dcm
	mask := uint32(7) // the test off: always
	if dcm&1 != 0 {
		mask = cmpMask[dcm>>4&7]
	}
	var wm uint32 // the bits a passing pixel's write changes
	if dcm>>12&1 != 0 && ps.depthWrite {
		wm = 0xFFFFFF
	}
	base := (row&^7)*ps.width + mortonY[row&7]
	cols := pl.pxOff[x0 : x0+n]
	zs := zq[:len(cols)]
	var pass uint64
	if pl.zKind == zD16 {
		zb := ps.depthBuf[2*base:]
		for i := 0; i < len(cols); {
			if (x0+i)&7 != 0 || i+8 > len(cols) {
				o := 2 * int(cols[i])
				pass |= z16((*[2]byte)(zb[o:o+2]), zs[i], mask, wm) << i
				i++
				continue
			}
			o := 2 * int(cols[i])
			t := (*[44]byte)(zb[o : o+44])
			z := (*[8]uint32)(zs[i : i+8])
			if all16(t, z, mask, wm) {
				pass |= 0xFF << (i & 63)
				i += 8
				continue
			}
			p := z16((*[2]byte)(t[0:2]), z[0], mask, wm) | z16((*[2]byte)(t[2:4]), z[1], mask, wm)<<1 |
				z16((*[2]byte)(t[8:10]), z[2], mask, wm)<<2 | z16((*[2]byte)(t[10:12]), z[3], mask, wm)<<3 |
				z16((*[2]byte)(t[32:34]), z[4], mask, wm)<<4 | z16((*[2]byte)(t[34:36]), z[5], mask, wm)<<5 |
				z16((*[2]byte)(t[40:42]), z[6], mask, wm)<<6 | z16((*[2]byte)(t[42:44]), z[7], mask, wm)<<7
			pass |= p << i
			i += 8
		}
		return pass
	}
	zb := ps.depthBuf[4*base:]
	for i := 0; i < len(cols); {
		if (x0+i)&7 != 0 || i+8 > len(cols) {
			o := 4 * int(cols[i])
			pass |= z32((*[4]byte)(zb[o:o+4]), zs[i], mask, wm) << i
			i++
			continue
		}
		o := 4 * int(cols[i])
		t := (*[88]byte)(zb[o : o+88])
		z := (*[8]uint32)(zs[i : i+8])
		p := z32((*[4]byte)(t[0:4]), z[0], mask, wm) | z32((*[4]byte)(t[4:8]), z[1], mask, wm)<<1 |
			z32((*[4]byte)(t[16:20]), z[2], mask, wm)<<2 | z32((*[4]byte)(t[20:24]), z[3], mask, wm)<<3 |
			z32((*[4]byte)(t[64:68]), z[4], mask, wm)<<4 | z32((*[4]byte)(t[68:72]), z[5], mask, wm)<<5 |
			z32((*[4]byte)(t[80:84]), z[6], mask, wm)<<6 | z32((*[4]byte)(t[84:88]), z[7], mask, wm)<<7
		pass |= p << i
		i += 8
	}
	return pass
}

// all16 tests and writes a tile row of 16-bit depths at once when every
// one of its 8 pixels passes a test of ALWAYS, LEQUAL or GEQUAL (compare
// masks 7, 3 and 6) against the depths z, and reports whether it did;
// otherwise it changes nothing (the caller runs the pixels one by one).
// The row's depths are two 64-bit words of four 16-bit lanes in x order,
// as are the new ones; a lane's x >= y is the top bit of (x & ^y) |
// (^(x ^ y) & ((x | h) - (y & ^h))) (Hacker's Delight's comparison: the
// top bits set before the subtraction keep borrows in their lanes).
func all16(t *[44]byte, z *[8]uint32, mask, wm uint32) bool {
	const h = 0x8000800080008000
	if mask != 7 && mask != 3 && mask != 6 {
		return false
	}
	a := uint64(binary.LittleEndian.Uint32(t[0:4])) | uint64(binary.LittleEndian.Uint32(t[8:12]))<<32
	b := uint64(binary.LittleEndian.Uint32(t[32:36])) | uint64(binary.LittleEndian.Uint32(t[40:44]))<<32
	za := uint64(z[0]) | uint64(z[1])<<16 | uint64(z[2])<<32 | uint64(z[3])<<48
	zb := uint64(z[4]) | uint64(z[5])<<16 | uint64(z[6])<<32 | uint64(z[7])<<48
	ge := func(x, y uint64) uint64 { return (x&^y | ^(x^y)&((x|h)-(y&^h))) & h }
	switch mask {
	case 3: // z <= d
		if ge(a, za)&ge(b, zb) != h {
			return false
		}
	case 6: // z >= d
		if ge(za, a)&ge(zb, b) != h {
			return false
		}
	}
	if wm != 0 {
		binary.LittleEndian.PutUint32(t[0:4], uint32(za))
		binary.LittleEndian.PutUint32(t[8:12], uint32(za>>32))
		binary.LittleEndian.PutUint32(t[32:36], uint32(zb))
		binary.LittleEndian.PutUint32(t[40:44], uint32(zb>>32))
	}
	return true
}

// z16 tests the 16-bit depth at b against z (compare mask m) and writes
// z there when it passes and wm is set; it returns 1 when it passes.
func z16(b *[2]byte, z, m, wm uint32) uint64 {
	old := uint32(binary.LittleEndian.Uint16(b[:]))
	p := m >> (cmpIndex(z, old) & 31) & 1
	binary.LittleEndian.PutUint16(b[:], uint16(old^(old^z)&(wm&-p)))
	return uint64(p)
}

// z32 is z16 for a 24-bit depth in the low bytes of the 32-bit word at b
// (the stencil byte kept).
func z32(b *[4]byte, z, m, wm uint32) uint64 {
	w := binary.LittleEndian.Uint32(b[:])
	p := m >> (cmpIndex(z, w&0xFFFFFF) & 31) & 1
	binary.LittleEndian.PutUint32(b[:], w^(w&0xFFFFFF^z)&(wm&-p))
	return uint64(p)
}

// cmpMask[f] has bit cmpIndex(a, b) set when compare code f (cmpFunc)
// passes.
var cmpMask = [8]uint32{0: 0, 1: 7, 2: 2, 3: 5, 4: 1, 5: 3, 6: 4, 7: 6}

// cmpIndex is 0 when a < b, 1 when a == b, 2 when a > b.
func cmpIndex(a, b uint32) uint32 {
	var i uint32
	if a >= b {
		i++
	}
	if a > b {
		i++
	}
	return i
}

// The fused texture path: MODULATE of a bilinear RGBA8 repeat texture
// (unit 0 alone) by the primary colour, SRC_ALPHA blended into RGBA8
// under a full mask, no alpha test, no fog: after the depth stage, each
// live pixel is fetched, modulated, blended and written in one loop
// (texBlendSpan) instead of three stages through the span buffer. The
// arithmetic is the stages': fetchRepeatSpan's bilinear blend, the
// MODULATE case's div255 per channel (here in 16-bit lanes, no lane
// exceeding 255*255 + 255 + 1), colorStage's SRC_ALPHA lanes.

// texBlendPlan decides whether the draw takes the fused texture path.
func (ps *pixelState) texBlendPlan() {
	pl := &ps.span
	pl.texBlend = pl.modulate && pl.srcAlpha && pl.texInt[0] && ps.tex[0].mag != 0 && pl.texSet[0] == 0 &&
		!pl.texUsed[1] && !pl.texUsed[2] && ps.alphaTest&1 == 0 && ps.fogMode != 5 && pl.early && !pl.noColor
	ps.texFusedPlan()
}

// texBlendSpan fetches, modulates, blends and writes the chunk's live
// pixels (n at (x0, row)) on the fused texture path.
func (t *texUnit) texBlendSpan(ps *pixelState, sb *spanBuf, n, x0, row int) {
	pl := &ps.span
	xy := &sb.txy[0]
	mx, my := int32(t.width-1), int32(t.height-1)
	d := t.data
	colOff, rowOff := t.colOff, t.rowOff
	base := (row&^7)*ps.width + mortonY[row&7]
	cb := ps.color[4*base:]
	lv := sb.live[:n]
	cols := pl.pxOff[x0 : x0+n][:len(lv)]
	// The texel rows and vertical weights of the last y: a texture
	// coordinate constant along the row keeps them.
	var lastY, ra, rb int32
	var fy, iy uint64
	have := false
	for i := range lv {
		if !lv[i] {
			continue
		}
		x, y := xy[i][0], xy[i][1]
		if y != lastY || !have {
			lastY, have = y, true
			ra, rb = rowOff[y>>8&my], rowOff[(y>>8+1)&my]
			fy = uint64(uint8(y))
			iy = 256 - fy
		}
		ca, cc := colOff[x>>8&mx], colOff[(x>>8+1)&mx]
		o0, o1, o2, o3 := uint(4*(ra+ca)), uint(4*(ra+cc)), uint(4*(rb+ca)), uint(4*(rb+cc))
		t00 := spread16(binary.LittleEndian.Uint32(d[o0:]))
		t10 := spread16(binary.LittleEndian.Uint32(d[o1:]))
		t01 := spread16(binary.LittleEndian.Uint32(d[o2:]))
		t11 := spread16(binary.LittleEndian.Uint32(d[o3:]))
		fx := uint64(uint8(x))
		ix := 256 - fx
		top := t00*ix + t10*fx // lanes A, B, G, R: at most 255*256
		bot := t01*ix + t11*fx
		const m32 = 0x0000FFFF0000FFFF
		const half = 32768 | 32768<<32
		ag := ((top&m32)*iy + (bot&m32)*fy + half) >> 16 // A | G<<32
		br := ((top>>16&m32)*iy + (bot>>16&m32)*fy + half) >> 16
		// The texel's channels times the primary colour's (bytes R, G,
		// B, A) in 16-bit lanes A, B, G, R.
		const lane = 0xFF
		c := &sb.col[i]
		p := ag&lane*uint64(c[3]) | (br&lane*uint64(c[2]))<<16 | (ag>>32&lane*uint64(c[1]))<<32 | (br>>32&lane*uint64(c[0]))<<48
		// div255 in each lane: MODULATE's colour.
		s := (p + 0x0001000100010001 + p>>8&0x00FF00FF00FF00FF) >> 8 & 0x00FF00FF00FF00FF
		// SRC_ALPHA, ONE_MINUS_SRC_ALPHA with the pixel (colorStage).
		b := cb[4*int(cols[i]):]
		dv := spread16(binary.LittleEndian.Uint32(b))
		a := s & lane
		v := s*a + dv*(255-a)
		v = (v + 0x0001000100010001 + v>>8&0x00FF00FF00FF00FF) >> 8 & 0x00FF00FF00FF00FF
		v = (v | v>>8) & 0x0000FFFF0000FFFF
		binary.LittleEndian.PutUint32(b, uint32(v|v>>16))
	}
}
