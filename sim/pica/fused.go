package pica

import (
	"encoding/binary"
	"math/bits"

	p "github.com/retrogl/retrogl/hal/pica"
)

// The fused Gouraud path: a draw whose combiners output the primary
// colour unchanged, with no alpha test and no fog, copied into an RGBA8
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
	pl.gouraud = false
	if !ps.tevPrimary || ps.alphaTest&1 != 0 || ps.fogMode == 5 || !pl.copyRGBA8 || pl.noColor || ps.color == nil {
		return
	}
	switch {
	case !pl.needZ:
		pl.zKind = zNone
	case !pl.zFast || ps.depthBuf == nil:
		return
	case ps.depthFmt == p.DepthD16:
		pl.zKind = zD16
	case ps.depthFmt == p.DepthD24S8:
		pl.zKind = zD24S8
	default:
		return
	}
	pl.gouraud = true
}

// The depth forms of the fused path.
const (
	zNone  = iota // no depth test, write or stencil: every pixel passes
	zD16          // 16-bit depth
	zD24S8        // 24-bit depth in the low bytes of a 32-bit word
)

// gouraudChunk shades the chunk of n pixels at (x0, row), every one live,
// on the fused path; it reports false (nothing done) when the chunk
// cannot be stepped in lanes.
func (st *stepper) gouraudChunk(ps *pixelState, pr *prim, sb *spanBuf, e, dx *[3]int64, n, x0, row int) bool {
	pl := &ps.span
	w, z := chunkWeights(pr, e)
	var qs [4]stepQ
	if !st.colorQ(pr, &w, &qs) {
		return false
	}
	x, d, m := colorSteps(pr, &qs)
	if !colorInRange(&x, &d, n) {
		return false
	}
	// The lanes hold channels A and G in one word, B and R in the other
	// (agbr).
	x, d = [4]int64{x[3], x[1], x[2], x[0]}, [4]int64{d[3], d[1], d[2], d[0]}
	f := pr.flat
	var l lanes
	if !l.setup(&x, &d, max(m[0], m[1], m[2], m[3]), f>>3&1|f&6|f&1<<3) {
		return false
	}
	all := uint64(1)<<n - 1 // n <= 64; a shift by 64 is 0
	if n == 64 {
		all = ^uint64(0)
	}
	pass := all
	if pl.zKind != zNone {
		if pr.flatZ {
			pass = ps.depthRunFlat(ps.quantizeDepth(pr.depth), n, x0, row)
		} else {
			var q stepQ
			if !st.zQ(pr, z, &q) {
				return false
			}
			st.zStep(ps, pr, sb, &q, e, dx, n)
			pass = ps.depthRunZ(&sb.zq, n, x0, row)
		}
	}
	if pass == 0 {
		return true
	}
	base := (row&^7)*ps.width + mortonY[row&7]
	cb := ps.color[4*base:]
	cols := pl.pxOff[x0 : x0+n]
	bad := l.store(cb, cols, pass, pass == all, x0)
	bad &= pass
	for bad != 0 {
		i := bits.TrailingZeros64(bad)
		bad &= bad - 1
		c := exactColor(pr, e, dx, i)
		binary.LittleEndian.PutUint32(cb[4*cols[i]:], bits.ReverseBytes32(binary.LittleEndian.Uint32(c[:])))
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
		bad |= l.tiles(cb, cols[i:n]) << i
		i += (n - i) &^ 7
	}
	for ; i < n; i++ {
		bad |= l.one(cb, cols[i], true) << i
	}
	return bad
}

// tiles is store for the whole tile rows of pixels starting at cols[0]
// (a multiple of 8); it returns the pixels to interpolate exactly. The
// margin test is the carry into bit 20 of a lane: (u + c) ^ u.
func (l *lanes) tiles(cb []byte, cols []int32) uint64 {
	const hi = 1<<20 | 1<<52
	u01, u23, s01, s23, c := l.w01-l.tt, l.w23-l.tt, l.s01, l.s23, l.c
	var bad uint64
	o := 4 * int(cols[0])
	for j := 0; j < len(cols)/8; j++ {
		t := cb[o : o+88 : o+88]
		v01, v23 := u01, u23
		g := ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		a := agbr(u01, u23)
		u01, u23 = u01+s01, u23+s23
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		binary.LittleEndian.PutUint64(t[0:8], uint64(a)|uint64(agbr(u01, u23))<<32)
		u01, u23 = u01+s01, u23+s23
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		a = agbr(u01, u23)
		u01, u23 = u01+s01, u23+s23
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		binary.LittleEndian.PutUint64(t[16:24], uint64(a)|uint64(agbr(u01, u23))<<32)
		u01, u23 = u01+s01, u23+s23
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		a = agbr(u01, u23)
		u01, u23 = u01+s01, u23+s23
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		binary.LittleEndian.PutUint64(t[64:72], uint64(a)|uint64(agbr(u01, u23))<<32)
		u01, u23 = u01+s01, u23+s23
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		a = agbr(u01, u23)
		u01, u23 = u01+s01, u23+s23
		g |= ((u01 + c) ^ u01) | ((u23 + c) ^ u23)
		binary.LittleEndian.PutUint64(t[80:88], uint64(a)|uint64(agbr(u01, u23))<<32)
		u01, u23 = u01+s01, u23+s23
		if g&hi != 0 {
			// Which of the eight: the lanes again from the tile's
			// first pixel.
			for k := 0; k < 8; k++ {
				if (((v01+c)^v01)|((v23+c)^v23))&hi != 0 {
					bad |= 1 << (8*j + k)
				}
				v01, v23 = v01+s01, v23+s23
			}
		}
		o += 256
	}
	l.w01, l.w23 = u01+l.tt, u23+l.tt
	return bad
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

// agbr is the colour of lanes holding channels A and G (wAG) and B and
// R (wBR) as the bytes A, B, G, R of an RGBA8 pixel.
func agbr(wAG, wBR uint64) uint32 {
	x := wAG>>20&0x000000FF000000FF | wBR>>12&0x0000FF000000FF00
	return uint32(x | x>>16)
}

// exactColor is the primary colour of the chunk's pixel i (edge values e
// at pixel 0, steps dx): interpolate's arithmetic for the colour alone.
func exactColor(pr *prim, e, dx *[3]int64, i int) [4]uint8 {
	v := &pr.v
	ii := int64(i)
	area := pr.area
	w0, w1, w2 := float64(e[0]+ii*dx[0])/area, float64(e[1]+ii*dx[1])/area, float64(e[2]+ii*dx[2])/area
	p0, p1, p2 := float64(w0*v[0].invW), float64(w1*v[1].invW), float64(w2*v[2].invW)
	q := p0 + p1 + p2
	norm := 1 / q
	p0, p1, p2 = p0*norm, p1*norm, p2*norm
	c := pr.color
	for k := 0; k < 4; k++ {
		if pr.flat>>k&1 == 0 {
			c[k] = q8Fast(float64(p0*float64(v[0].color[k])) + float64(p1*float64(v[1].color[k])) + float64(p2*float64(v[2].color[k])))
		}
	}
	return c
}

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

// depthRunFlat runs the depth test and write of the fused path's chunk
// of n pixels at (x0, row), every one at quantised depth z, and returns
// the pixels that pass (bit i for pixel i). The test is an interval of
// stored values (depthRange); a whole tile row of 8 pixels (x0 + i a
// multiple of 8) lies in pairs at pixel offsets 0, 4, 16 and 20 from its
// first, each pair one word of two depths: when all 8 pass, the four
// words are written at once.
func (ps *pixelState) depthRunFlat(z uint32, n, x0, row int) uint64 {
	pl := &ps.span
	dcm := ps.dcm
	test, write := dcm&1 != 0, dcm>>12&1 != 0 && ps.depthWrite
	top := uint32(1)<<ps.depthFmt.Bits() - 1
	lo, span, ok := uint32(0), top, true
	if test {
		lo, span, ok = depthRange(dcm>>4&7, z, top)
	}
	if !ok {
		return 0
	}
	base := (row&^7)*ps.width + mortonY[row&7]
	cols := pl.pxOff[x0 : x0+n]
	zr := depthRun{lo: lo, span: span, top: top, z: z, write: write}
	if pl.zKind == zD16 {
		zr.zb = ps.depthBuf[2*base:]
	} else {
		zr.zb = ps.depthBuf[4*base:]
	}
	var pass uint64
	i := 0
	head := min(n, (8-x0&7)&7)
	pass = zr.pixels(cols[:head], pl.zKind)
	i = head
	for ; i+8 <= n; i += 8 {
		var p uint64
		if pl.zKind == zD16 {
			p = zr.tile16(int(cols[i]))
		} else {
			p = zr.tile32(int(cols[i]))
		}
		if p == 0 {
			p = zr.pixels(cols[i:i+8], pl.zKind)
		}
		pass |= p << i
	}
	return pass | zr.pixels(cols[i:], pl.zKind)<<i
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

// tile16 tests the 16-bit depths of the tile row at pixel offset o and
// writes them when all 8 pass (and returns 0xFF), or returns 0 (nothing
// written). A value v passes when (v - lo) & top + top - span does not
// reach bit 16.
func (zr *depthRun) tile16(o int) uint64 {
	t := zr.zb[2*o : 2*o+44 : 2*o+44]
	a, b := binary.LittleEndian.Uint32(t[0:4]), binary.LittleEndian.Uint32(t[8:12])
	c, d := binary.LittleEndian.Uint32(t[32:36]), binary.LittleEndian.Uint32(t[40:44])
	lo, k := zr.lo, zr.top-zr.span
	const m = 0xFFFF
	f := ((a-lo)&m + k) | ((a>>16-lo)&m + k) | ((b-lo)&m + k) | ((b>>16-lo)&m + k) |
		((c-lo)&m + k) | ((c>>16-lo)&m + k) | ((d-lo)&m + k) | ((d>>16-lo)&m + k)
	if f > m {
		return 0
	}
	if zr.write {
		zz := zr.z | zr.z<<16
		binary.LittleEndian.PutUint32(t[0:4], zz)
		binary.LittleEndian.PutUint32(t[8:12], zz)
		binary.LittleEndian.PutUint32(t[32:36], zz)
		binary.LittleEndian.PutUint32(t[40:44], zz)
	}
	return 0xFF
}

// tile32 is tile16 for 24-bit depths in 32-bit words (stencil in the
// top byte, kept): a pair is one 64-bit word.
func (zr *depthRun) tile32(o int) uint64 {
	t := zr.zb[4*o : 4*o+88 : 4*o+88]
	a, b := binary.LittleEndian.Uint64(t[0:8]), binary.LittleEndian.Uint64(t[16:24])
	c, d := binary.LittleEndian.Uint64(t[64:72]), binary.LittleEndian.Uint64(t[80:88])
	lo, k := uint64(zr.lo), uint64(zr.top-zr.span)
	const m = 0xFFFFFF
	f := ((a-lo)&m + k) | ((a>>32-lo)&m + k) | ((b-lo)&m + k) | ((b>>32-lo)&m + k) |
		((c-lo)&m + k) | ((c>>32-lo)&m + k) | ((d-lo)&m + k) | ((d>>32-lo)&m + k)
	if f > m {
		return 0
	}
	if zr.write {
		const dm = 0x00FFFFFF00FFFFFF
		zz := uint64(zr.z) | uint64(zr.z)<<32
		binary.LittleEndian.PutUint64(t[0:8], a&^dm|zz)
		binary.LittleEndian.PutUint64(t[16:24], b&^dm|zz)
		binary.LittleEndian.PutUint64(t[64:72], c&^dm|zz)
		binary.LittleEndian.PutUint64(t[80:88], d&^dm|zz)
	}
	return 0xFF
}

// depthRunZ is depthRunFlat with pixel i at quantised depth zq[i].
func (ps *pixelState) depthRunZ(zq *[spanN]uint32, n, x0, row int) uint64 {
	pl := &ps.span
	dcm := ps.dcm
	test, fn, write := dcm&1 != 0, dcm>>4&7, dcm>>12&1 != 0 && ps.depthWrite
	base := (row&^7)*ps.width + mortonY[row&7]
	cols := pl.pxOff[x0 : x0+n]
	zs := zq[:len(cols)]
	var pass uint64
	switch ps.span.zKind {
	case zD16:
		zb := ps.depthBuf[2*base:]
		for i, o := range cols {
			b := zb[2*o : 2*o+2]
			z := zs[i]
			if test && !cmpFunc(fn, z, uint32(binary.LittleEndian.Uint16(b))) {
				continue
			}
			pass |= 1 << i
			if write {
				binary.LittleEndian.PutUint16(b, uint16(z))
			}
		}
	default: // zD24S8
		zb := ps.depthBuf[4*base:]
		for i, o := range cols {
			b := zb[4*o : 4*o+4]
			z := zs[i]
			old := binary.LittleEndian.Uint32(b)
			if test && !cmpFunc(fn, z, old&0xFFFFFF) {
				continue
			}
			pass |= 1 << i
			if write {
				binary.LittleEndian.PutUint32(b, old&^0xFFFFFF|z)
			}
		}
	}
	return pass
}
