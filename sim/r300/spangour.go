package r300

import (
	"encoding/binary"
	"math"
	"sync"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// The Gouraud row path: the span pipeline's fastest shape for a program
// that only moves what the RS loads to the output (a Gouraud-shaded or
// flat GL ES 1.1 draw without texture), written directly (outDirect8)
// with at most a depth test against a constant Z.
//
// There each output byte is outByte(fp24(V)) of an interpolated value V
// (or a constant), and fp24 then outByte is a monotone step function of
// V with 255 thresholds (gourThresholds). Along a row V is affine in x
// (the linear weights: wpIsWl), so the row steps V in 32.32 fixed point
// from the reference's own value at the row's first pixel and takes the
// byte from the thresholds; a pixel whose stepped value lies within the
// stepping's error bound of a threshold (gourMargin) takes the
// reference's float64 value instead (spanLoad's formula), so every byte
// is the reference's. TestGourRowMatchesReference holds the margin to
// account, and fails with a zero margin.

// gourPlan is what the Gouraud row path writes per output channel: the
// RS attribute whose FP24 value the program moves to it (attr >= 0), or
// the constant k.
type gourPlan struct {
	attr [4]int
	k    [4]float32
}

// gourChunk is the longest run the row path steps from one start: 1024,
// so a row of r300's 640-pixel screen is one run with one gourStart per
// channel (256 cost three). The margin grows by about a unit of 2^-32
// per pixel, so the window of pixels near a threshold stays far narrower
// than the thresholds' own 2^-16 spread; fill-gouraud took 10-15%
// less CPU time per frame than with 256 (rglbench, one worker; see
// docs/r300.md).
const gourChunk = 1024

// gourWork is a worker's scratch for the row path: the output words of
// a run, as words (for the loops that build them a channel at a time)
// and in pairs, pixel 2k in the low half of pair k and 2k+1 in the high
// (what gourWrite takes: two pixels a load and a store).
type gourWork struct {
	word [gourChunk]uint32
	pair [gourChunk / 2]uint64
	near [gourChunk]uint16 // the pixels near a threshold
}

// gourPack writes words into pairs.
func gourPack(pairs []uint64, words []uint32) {
	pairs = pairs[:(len(words)+1)/2]
	for k := range pairs {
		v := uint64(words[2*k])
		if 2*k+1 < len(words) {
			v |= uint64(words[2*k+1]) << 32
		}
		pairs[k] = v
	}
}

// gourSym is the symbolic value of a temp or output channel while
// gouraudPlan follows the program: an RS attribute or a constant.
type gourSym struct {
	attr int
	k    float32
	ok   bool
}

// gouraudPlan returns the draw's Gouraud plan, or nil when the program
// does anything but move loaded values (or constants) to the output, or
// the pixel stage is not outDirect8.
func (s *drawState) gouraudPlan(fp *fastPipe) *gourPlan {
	if fp.out != outDirect8 || fp.tex {
		return nil
	}
	if s.zb.active && (s.zb.stencil || s.fg.depthFromUS) {
		return nil
	}
	var temps [32][4]gourSym
	for _, l := range fp.loads {
		temps[l.temp][l.comp] = gourSym{attr: l.attr, k: l.k, ok: true}
	}
	t := s.cb.used[0]
	var out [4]gourSym
	inline := [3]float32{0, 1, 0.5}
	for i := range fp.stages {
		st := &fp.stages[i]
		if st.alu == nil {
			if st.tex.Op == r3.TexNOP {
				continue
			}
			return nil
		}
		as := st.alu
		a := &as.op.a
		if a.Alpha.DepthOut {
			return nil
		}
		var nv [4]gourSym
		for c := 0; c < 4; c++ {
			var written bool
			if c < 3 {
				written = (a.RGB.WMask|a.RGB.OMask)>>c&1 != 0
			} else {
				written = a.Alpha.WMask != 0 || a.Alpha.OMask != 0
			}
			if !written {
				continue
			}
			if !as.mov[c] {
				return nil
			}
			o := as.opd[0][c]
			switch o.kind {
			case opdTemp:
				nv[c] = temps[o.reg][o.comp]
				if !nv[c].ok {
					return nil
				}
			case opdConst:
				nv[c] = gourSym{attr: -1, k: fp24(float64(s.us.consts[o.reg][o.comp])), ok: true}
			case opdInline:
				nv[c] = gourSym{attr: -1, k: inline[o.reg], ok: true}
			default:
				return nil
			}
		}
		for c := 0; c < 3; c++ {
			if a.RGB.WMask>>c&1 != 0 {
				temps[a.RGB.Dst][c] = nv[c]
			}
			if a.RGB.OMask>>c&1 != 0 && int(a.RGB.Target) == t {
				out[c] = nv[c]
			}
		}
		if a.Alpha.WMask != 0 {
			temps[a.Alpha.Dst][3] = nv[3]
		}
		if a.Alpha.OMask != 0 && int(a.Alpha.Target) == t {
			out[3] = nv[3]
		}
	}
	for _, k := range fp.zeroOut {
		if k/4 == t {
			out[k%4] = gourSym{attr: -1, k: 0, ok: true}
		}
	}
	g := &gourPlan{}
	for c, o := range out {
		if !o.ok {
			return nil
		}
		g.attr[c], g.k[c] = o.attr, o.k
	}
	return g
}

// gourThresholds holds, for k = 1..255, the least value whose
// outByte(fp24(v)) is k or more, in 32.32 fixed point (rounded up), with
// sentinels far below and above at 0 and 256.
var gourThresholds = sync.OnceValue(func() *[257]int64 {
	t := new([257]int64)
	t[0], t[256] = -1<<62, 1<<62
	for k, p := range fusedByteTab()[1:256] {
		t[k+1] = int64(math.Ceil(p * (1 << 32)))
	}
	return t
})

// gourBucketMargin is the margin, in units of 2^-32, gourBuckets keeps
// clear of every threshold; a run whose margin is larger does without
// the buckets.
const gourBucketMargin = 1 << 14

// gourBuckets holds, per bucket of 2^20 units of a 32.32 value (index
// (v>>20)+1 clamped to [0, 4097]: below 0 and from 1 up at the ends), the
// byte every value of the bucket gives when no threshold lies within
// gourBucketMargin of the bucket, and gourUnsafe otherwise.
var gourBuckets = sync.OnceValue(func() *[4098]uint16 {
	t := new([4098]uint16)
	th := gourThresholds()
	t[0], t[4097] = 0, 255
	for b := int64(0); b < 4096; b++ {
		lo, hi := b<<20-gourBucketMargin, (b+1)<<20+gourBucketMargin
		k := 0
		for k < 255 && th[k+1] <= b<<20 {
			k++
		}
		t[b+1] = uint16(k)
		for j := 1; j < 256; j++ {
			if th[j] >= lo && th[j] <= hi {
				t[b+1] = gourUnsafe
			}
		}
	}
	return t
})

// gourUnsafe marks a bucket a threshold lies near.
const gourUnsafe = 0x100

// gourBucket is v's index in gourBuckets.
func gourBucket(v int64) int64 { return min(max(v>>20, -1), 4096) + 1 }

// gourHook, when set (by tests), is called for every primitive the row
// path shades.
var gourHook func()

// gourMarginScale multiplies the row path's margin; tests set it to zero
// to show the margin is needed.
var gourMarginScale int64 = 1

// gourChan is one stepped channel of a primitive: its vertex values, its
// slope per pixel and the bounds of the slope's error.
type gourChan struct {
	v    [3]float64
	d    float64 // dV/dx
	errD float64 // bound of |d - dV/dx|
	vmax float64
}

// gouraudRows is the Gouraud row path's shadeSpans: it shades the quad
// rows of p whose top row lies in [qy0, qy1) and reports true, or reports
// false without touching anything when p's values are out of the path's
// range (its caller then takes the span pipeline).
func (s *drawState) gouraudRows(p *prim, w *worker, g *gourPlan, vals []float64, qy0, qy1 int) bool {
	rz := &p.rz
	z := &s.zb
	if z.active && !(rz[0] == rz[1] && rz[1] == rz[2]) {
		return false
	}
	ar := float64(p.area)
	if !(math.Abs(ar) < 1<<52) || ar == 0 {
		return false
	}
	t := s.cb.used[0]
	buf := &s.cb.buf[t]
	sl := &buf.slots
	// Per byte position k: the constant part of the word, or the stepped
	// channel.
	var base uint32
	var chans [4]gourChan
	var shifts [4]uint
	nc := 0
	for k := 0; k < 4; k++ {
		c := sl[k] & 3
		sh := 8 * uint(k)
		j := g.attr[c]
		if j < 0 {
			base |= uint32(outByte(g.k[c])) << sh
			continue
		}
		v := vals[3*j : 3*j+3]
		if v[0] == v[1] && v[1] == v[2] {
			base |= uint32(outByte(r3.RoundFP24(v[0]))) << sh
			continue
		}
		ch := &chans[nc]
		ch.v = [3]float64{v[0], v[1], v[2]}
		var sum, mag float64
		for i := 0; i < 3; i++ {
			if !(math.Abs(v[i]) <= 256) {
				return false
			}
			ch.vmax = max(ch.vmax, math.Abs(v[i]))
			as := float64(p.rf[i].a * s.sub)
			sum += float64(as * v[i])
			mag += math.Abs(as * v[i])
		}
		ch.d = sum / ar
		ch.errD = (mag/math.Abs(ar) + math.Abs(ch.d)) * 0x1p-50
		if !(math.Abs(ch.d) < 1) {
			return false
		}
		shifts[nc] = sh
		nc++
	}
	if w.span.gour == nil {
		w.span.gour = &gourWork{}
	}
	gw := w.span.gour
	zv, op, test, write := s.constZ(p)
	s.rowRuns(p, w, qy0, qy1, gourChunk, func(x0, y, n int) {
		if nc == 0 {
			// A constant word (a clear's, or a flat draw's).
			pairs := gw.pair[:(n+1)/2]
			for k := range pairs {
				pairs[k] = uint64(base) | uint64(base)<<32
			}
		} else if nc == 3 {
			// When every pixel of the run passes the depth test
			// (fill-gouraud's nearer quads), the direct stepping
			// writes the colour buffer itself and the depth is
			// filled after: the same bytes as gourWrite's, with no
			// second pass over the colours.
			if out, zm, all := s.gourAllPass(buf, x0, y, n, zv, op, test, write); all {
				ok, wrote := s.gourRun3(p, &chans, ar, x0, y, &shifts, base, gw, n, out)
				if wrote {
					if zm != nil {
						gourFillZ16(zm, uint16(zv>>8))
					}
					if gourOutHook != nil {
						gourOutHook()
					}
					w.pixels += n
					w.zpass += uint32(n)
					return
				}
				if !ok {
					s.gourRunEach(p, &chans, ar, x0, y, &shifts, base, gw, n, nc)
				}
			} else if ok, _ := s.gourRun3(p, &chans, ar, x0, y, &shifts, base, gw, n, nil); !ok {
				s.gourRunEach(p, &chans, ar, x0, y, &shifts, base, gw, n, nc)
			}
		} else {
			s.gourRunEach(p, &chans, ar, x0, y, &shifts, base, gw, n, nc)
		}
		w.pixels += n
		w.zpass += s.gourWrite(buf, gw.pair[:(n+1)/2], n, x0, y, zv, op, test, write)
	})
	if gourHook != nil {
		gourHook()
	}
	return true
}

// constZ is the depth test of a primitive of one depth (the row paths'):
// its Z value in the buffer's units (when Z is active), the comparison,
// and whether it tests and writes.
func (s *drawState) constZ(p *prim) (zv uint32, op uint8, test, write bool) {
	z := &s.zb
	if z.active {
		zv = s.planeZ(p.rz[0], p.zoff)
	}
	return zv, zCmp[z.zFunc], z.zTest, z.zTest && z.zWrite
}

// rowRuns calls run for each run of at most chunk covered pixels of p's
// rows in the quad rows whose top row lies in [qy0, qy1), in order, and
// counts the quads the walk visits (those a run touches) in w.quads.
func (s *drawState) rowRuns(p *prim, w *worker, qy0, qy1, chunk int, run func(x0, y, n int)) {
	for qy := qy0; qy < qy1 && qy <= p.y1; qy += 2 {
		lo0, hi0 := rowSpan(p, s.sub, qy)
		lo1, hi1 := rowSpan(p, s.sub, qy+1)
		for r, span := range [2][2]int{{lo0, hi0}, {lo1, hi1}} {
			y := qy + r
			for x0 := span[0]; x0 <= span[1]; x0 += chunk {
				run(x0, y, min(chunk, span[1]-x0+1))
			}
		}
		w.quads += quadsTouched(lo0, hi0, lo1, hi1)
	}
}

// gourRunEach shades the run a channel at a time (gourRun) into
// gw.pair.
func (s *drawState) gourRunEach(p *prim, chans *[4]gourChan, ar float64, x0, y int, shifts *[4]uint, base uint32, gw *gourWork, n, nc int) {
	words := gw.word[:n]
	for i := range words {
		words[i] = base
	}
	for c := 0; c < nc; c++ {
		s.gourRun(p, &chans[c], ar, x0, y, shifts[c], gw, n)
	}
	gourPack(gw.pair[:], words)
}

// gourAllPass reports whether every pixel of the n at (x0, y) passes the
// depth test against zv, with no depth buffer or a 16-bit one under
// LEQUAL with writes (gourWriteZ16LE's state; other states report
// false), and returns the run's colour bytes and its depth bytes (nil
// with no depth buffer).
func (s *drawState) gourAllPass(buf *cbBuffer, x0, y, n int, zv uint32, op uint8, test, write bool) (dst, zm []byte, all bool) {
	off := (y*buf.pitch + x0) * 4
	dst = buf.mem[off : off+4*n]
	z := &s.zb
	if !z.active {
		return dst, nil, true
	}
	if z.z24 || !test || !write || op != cmpLE {
		return nil, nil, false
	}
	zo := (y*z.pitch + x0) * 2
	zm = z.mem[zo : zo+2*n]
	return dst, zm, gourZ16Pass(zm, zv)
}

// gourZ16Pass reports whether every 16-bit depth value of zm passes
// LEQUAL against zv (old >= zt = ceil(zv/256)), four at a time as
// gourWriteZ16LE's SWAR lanes.
func gourZ16Pass(zm []byte, zv uint32) bool {
	zt := (zv + 255) >> 8
	if zt > 0xFFFF {
		return len(zm) < 2
	}
	const lanes, hbits = 0x0001000100010001, 0x8000800080008000
	y := uint64(zt&0x7FFF) * lanes
	// Eight values an iteration, one test for both words: a lane passes
	// on x's top bit and d's when zt's top bit is set, on either when
	// clear (gourWriteZ16LE's argument).
	i := 0
	if zt&0x8000 != 0 {
		for ; i+16 <= len(zm); i += 16 {
			b := zm[i : i+16 : i+16]
			x, x2 := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
			if x&((x|hbits)-y)&x2&((x2|hbits)-y)&hbits != hbits {
				return false
			}
		}
	} else {
		for ; i+16 <= len(zm); i += 16 {
			b := zm[i : i+16 : i+16]
			x, x2 := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
			if (x|((x|hbits)-y))&(x2|((x2|hbits)-y))&hbits != hbits {
				return false
			}
		}
	}
	for ; i+2 <= len(zm); i += 2 {
		if uint32(binary.LittleEndian.Uint16(zm[i:i+2:i+2])) < zt {
			return false
		}
	}
	return true
}

// loadRef is spanLoad's value of an attribute with vertex values v at
// pixel (x, y), before its FP24 rounding: the linear weights times the
// vertex values, summed in spanLoad's order. The Gouraud row path and
// the fused textured path take it for their pixels near a rounding edge.
func (s *drawState) loadRef(p *prim, v *[3]float64, ar float64, x, y int) float64 {
	w := s.linearWeights(p, ar, x, y)
	return loadDot(v, &w)
}

// gourRunAt is what gourStart needs of a run that does not depend on the
// channel: the bound of Σ|w_k| over the run and the linear weights at its
// first pixel, computed once for the run's channels.
type gourRunAt struct {
	wsum float64
	w    [3]float64
}

// linearWeights is spanWeights' linear weights at pixel (x, y): each
// edge function over the area ar.
func (s *drawState) linearWeights(p *prim, ar float64, x, y int) [3]float64 {
	half := s.sub / 2
	px, py := int64(x)*s.sub+half, int64(y)*s.sub+half
	return [3]float64{
		float64(p.rf[0].eval(px, py)) / ar,
		float64(p.rf[1].eval(px, py)) / ar,
		float64(p.rf[2].eval(px, py)) / ar,
	}
}

// loadDot is loadRef's value of vertex values v from the weights w (in
// spanLoad's order, so the same float64).
func loadDot(v, w *[3]float64) float64 {
	return float64(w[0]*v[0]) + float64(w[1]*v[1]) + float64(w[2]*v[2])
}

// gourAt returns the run of n pixels from (x0, y)'s gourRunAt.
func (s *drawState) gourAt(p *prim, ar float64, x0, y, n int) gourRunAt {
	// The bound of Σ|w_k| over the run: the edge functions are affine,
	// so their magnitudes peak at the run's ends.
	half := s.sub / 2
	py := int64(y)*s.sub + half
	var wsum float64
	for k := 0; k < 3; k++ {
		f := &p.rf[k]
		ea := float64(f.eval(int64(x0)*s.sub+half, py))
		eb := float64(f.eval(int64(x0+n-1)*s.sub+half, py))
		wsum += max(math.Abs(ea), math.Abs(eb))
	}
	return gourRunAt{wsum: wsum / math.Abs(ar), w: s.linearWeights(p, ar, x0, y)}
}

// gourStart returns the stepping of channel ch over the n pixels of the
// run at (gourAt's): its 32.32 value at the first pixel, its step and the
// margin (gourMarginScale times the bound of the stepped value's distance
// from the reference's), or ok false when the run is out of the
// stepping's range.
func gourStart(ch *gourChan, at *gourRunAt, n int) (v, d, m int64, ok bool) {
	wsum := at.wsum
	r0 := loadDot(&ch.v, &at.w)
	// The stepped value's distance from the reference's, in units of
	// 2^-32: the truncations of the start and the step (under a unit
	// each, the step's n times), the reference's float64 rounding at the
	// start and at the pixel (under 2^-50·Σ|w_k|·max|v| each: four
	// roundings of 2^-53 relative), the slope's error n times, and a unit
	// for the thresholds' rounding up.
	errR := wsum * ch.vmax * 0x1p-50
	mf := 3 + 2*errR*0x1p32 + float64(n)*(1+ch.errD*0x1p32)
	if !(wsum < 1<<20) || !(mf < 1<<20) || !(math.Abs(r0) < 512) {
		return 0, 0, 0, false
	}
	return int64(r0 * 0x1p32), int64(ch.d * 0x1p32), int64(mf) * gourMarginScale, true
}

// gourByte is the byte of stepped value v from the thresholds, and -1
// (f) when v lies within m of a threshold of its byte. The candidate is
// round(v·255), one down when v lies below its threshold (the thresholds
// lie within 2^-16 above (k - 1/2)/255).
func gourByte(tab *[257]int64, v, m int64) (j, f int64) {
	k := (v*255 + 1<<31) >> 32
	k = min(max(k, 0), 255)
	k += (v - tab[k&255]) >> 63
	j = k & 255
	lo, hi := tab[j], tab[j+1]
	return j, ((v - lo - m) | (hi - v - m - 1)) >> 63
}

// gourDirectHook, when set (by tests), is called for every run the
// direct byte stepping (gourDirect) shades.
var gourDirectHook func()

// gourOutHook, when set (by tests), is called for every run gouraudRows
// writes straight into the colour buffer (every pixel passing the depth
// test).
var gourOutHook func()

// gourOffsets returns the least and the greatest of 255·t_k + 2^31 -
// k·2^32 over the thresholds t_k (k = 1..255): where the thresholds lie,
// in units of 2^-32 of a byte, from the half-byte points (k - 1/2)/255
// the byte's rounding of v·255 would put them at.
var gourOffsets = sync.OnceValues(func() (lo, hi int64) {
	th := gourThresholds()
	lo, hi = math.MaxInt64, math.MinInt64
	for k := int64(1); k < 256; k++ {
		o := 255*th[k] + 1<<31 - k<<32
		lo, hi = min(lo, o), max(hi, o)
	}
	return lo, hi
})

// gourDirect returns the direct byte stepping of a run of n pixels whose
// 32.32 value starts at v, steps by d and lies within m of the
// reference's, or ok false when a value of the run is out of its range.
//
// With u = 255·v + 2^31 and j = u>>32 the byte is j whenever t_j <= v-m
// and v+m < t_{j+1} (gourByte's test). Writing 255·t_k = k·2^32 +
// o_k - 2^31, the first is o_j + 255m <= u - j·2^32 and the second is
// u - j·2^32 < 2^32 + o_{j+1} - 255m, so a fraction f = u mod 2^32 with
// a <= f < a + w, a = max o + 255m and a + w = 2^32 + min o - 255m,
// gives its byte directly; any other f is near a threshold and takes the
// reference's value. gourDirect returns u - a (so the test is that its
// fraction is below w, and for such a value its integer part is j too)
// and its step e = 255·d, exactly 255 times v's own stepping; j lies in
// [0, 255] over the whole run when it does at the run's ends (u is
// affine in the pixel).
func gourDirect(v, d, m int64, n int) (u, e, w int64, ok bool) {
	lo, hi := gourOffsets()
	u, e = 255*v+1<<31, 255*d
	a := hi + 255*m
	w = 1<<32 + lo - 255*m - a
	end := u + int64(n-1)*e
	ok = w > 0 && a >= 0 && a+w <= 1<<32 && u >= 0 && u < 256<<32 && end >= 0 && end < 256<<32
	return u - a, e, w, ok
}

// gourDirect3 is gourRun3's loop on the direct byte stepping: it writes
// pairs (two pixels each) of the words of base with the bytes of u0, u1
// and u2 (gourDirect's) at s0, s1 and s2, stepped by e0, e1 and e2, up to
// the first pair with a pixel near a threshold (a fraction at w or above,
// w being gourDirect's, or less: a smaller w only sends more pixels to
// the reference), and returns that pair's index, or len(pairs) when there
// is none. A near pixel is rare (the thresholds leave about 0.2% of a
// byte's fractions near), so its caller builds that pair itself and calls
// again from the next: with no list of near pixels to keep, the loop's
// state stays in registers, and a pixel costs three compares (predicted
// branches) where the list's branch-free append cost a dozen instructions
// and spills.
//
// A pixel the loop writes is not near, so its u lies in [0, 256) give or
// take a fraction (gourDirect checks the run's ends) and u>>32 is its
// byte with no mask. The last pair's high half may lie past the run (an
// odd run): its word is never written to the colour buffer.
//
//go:noinline
func gourDirect3(pairs []uint64, u0, u1, u2, e0, e1, e2 int64, w uint32, base uint32, s0, s1, s2 uint) int {
	if s0 == 0 && s1 == 8 && s2 == 16 {
		// The common layout (B, G, R under a constant alpha), with fixed
		// shifts.
		for k := range pairs {
			if uint32(u0) >= w || uint32(u1) >= w || uint32(u2) >= w {
				return k
			}
			lo := base | uint32(u0>>32) | uint32(u1>>32)<<8 | uint32(u2>>32)<<16
			u0 += e0
			u1 += e1
			u2 += e2
			if uint32(u0) >= w || uint32(u1) >= w || uint32(u2) >= w {
				return k
			}
			hi := base | uint32(u0>>32) | uint32(u1>>32)<<8 | uint32(u2>>32)<<16
			pairs[k] = uint64(lo) | uint64(hi)<<32
			u0 += e0
			u1 += e1
			u2 += e2
		}
		return len(pairs)
	}
	s0, s1, s2 = s0&31, s1&31, s2&31
	for k := range pairs {
		if uint32(u0) >= w || uint32(u1) >= w || uint32(u2) >= w {
			return k
		}
		lo := base | uint32(u0>>32)<<s0 | uint32(u1>>32)<<s1 | uint32(u2>>32)<<s2
		u0 += e0
		u1 += e1
		u2 += e2
		if uint32(u0) >= w || uint32(u1) >= w || uint32(u2) >= w {
			return k
		}
		hi := base | uint32(u0>>32)<<s0 | uint32(u1>>32)<<s1 | uint32(u2>>32)<<s2
		pairs[k] = uint64(lo) | uint64(hi)<<32
		u0 += e0
		u1 += e1
		u2 += e2
	}
	return len(pairs)
}

// gourDirect3Out is gourDirect3's common-layout loop (B, G, R under a
// constant alpha) writing its pairs into out, the colour buffer's bytes
// (8 a pair), in place of the scratch: the run's colours then take no
// second pass (gouraudRows takes it when every pixel of the run passes the
// depth test). It returns the index of the first pair with a pixel near a
// threshold, or len(out)/8.
//
// The word's fourth byte (the constant alpha) rides in u2 above its byte:
// the caller adds it at 2^40, so u2>>32 is that byte times 256 plus u2's
// own byte (in [0, 255] for a pixel not near), and shifted by 16 it puts
// both in place; the fraction, all the compares look at, is unchanged.
// One register fewer keeps the loop's state out of the stack. It steps
// four pixels an iteration (one bounds check for their 16 bytes) and a
// last odd pair after.
//
//go:noinline
func gourDirect3Out(out []byte, u0, u1, u2, e0, e1, e2 int64, w uint32) int {
	np := len(out) / 8
	k := 0
	// Two pairs an iteration, one bounds check for both.
	for ; k+2 <= np; k += 2 {
		b := out[8*k : 8*k+16 : 8*k+16]
		if uint32(u0) >= w || uint32(u1) >= w || uint32(u2) >= w {
			return k
		}
		lo := uint32(u0>>32) | uint32(u1>>32)<<8 | uint32(u2>>32)<<16
		u0 += e0
		u1 += e1
		u2 += e2
		if uint32(u0) >= w || uint32(u1) >= w || uint32(u2) >= w {
			return k
		}
		hi := uint32(u0>>32) | uint32(u1>>32)<<8 | uint32(u2>>32)<<16
		binary.LittleEndian.PutUint64(b, uint64(lo)|uint64(hi)<<32)
		u0 += e0
		u1 += e1
		u2 += e2
		if uint32(u0) >= w || uint32(u1) >= w || uint32(u2) >= w {
			return k + 1
		}
		lo = uint32(u0>>32) | uint32(u1>>32)<<8 | uint32(u2>>32)<<16
		u0 += e0
		u1 += e1
		u2 += e2
		if uint32(u0) >= w || uint32(u1) >= w || uint32(u2) >= w {
			return k + 1
		}
		hi = uint32(u0>>32) | uint32(u1>>32)<<8 | uint32(u2>>32)<<16
		binary.LittleEndian.PutUint64(b[8:], uint64(lo)|uint64(hi)<<32)
		u0 += e0
		u1 += e1
		u2 += e2
	}
	if k < np {
		if uint32(u0) >= w || uint32(u1) >= w || uint32(u2) >= w {
			return k
		}
		lo := uint32(u0>>32) | uint32(u1>>32)<<8 | uint32(u2>>32)<<16
		u0 += e0
		u1 += e1
		u2 += e2
		if uint32(u0) >= w || uint32(u1) >= w || uint32(u2) >= w {
			return k
		}
		hi := uint32(u0>>32) | uint32(u1>>32)<<8 | uint32(u2>>32)<<16
		binary.LittleEndian.PutUint64(out[8*k:8*k+8:8*k+8], uint64(lo)|uint64(hi)<<32)
		k++
	}
	return k
}

// gourRun ors channel ch's bytes, shifted by sh, into the words of the n
// pixels from (x0, y).
func (s *drawState) gourRun(p *prim, ch *gourChan, ar float64, x0, y int, sh uint, gw *gourWork, n int) {
	words := gw.word[:n]
	at := s.gourAt(p, ar, x0, y, n)
	v, d, m, ok := gourStart(ch, &at, n)
	if !ok {
		for i := range words {
			words[i] |= uint32(outByte(fp24(s.loadRef(p, &ch.v, ar, x0+i, y)))) << sh
		}
		return
	}
	nn := 0
	near := &gw.near
	if u, e, w, ok := gourDirect(v, d, m, n); ok {
		if gourDirectHook != nil {
			gourDirectHook()
		}
		sh &= 31
		for i := range words {
			near[nn&(gourChunk-1)] = uint16(i)
			nn += 1 + int((int64(uint32(u))-w)>>63)
			words[i] |= uint32(uint8(u>>32)) << sh
			u += e
		}
	} else {
		tab := gourThresholds()
		for i := range words {
			j, f := gourByte(tab, v, m)
			near[nn&(gourChunk-1)] = uint16(i)
			nn -= int(f)
			words[i] |= uint32(j) << sh
			v += d
		}
	}
	for _, i := range near[:nn] {
		b := outByte(fp24(s.loadRef(p, &ch.v, ar, x0+int(i), y)))
		words[i] = words[i]&^(255<<sh) | uint32(b)<<sh
	}
}

// gourRun3 is gourRun for three stepped channels at once, writing whole
// words over base into gw.pair (not gw.word), or, given out (the run's
// bytes in the colour buffer, every pixel of which passes the depth
// test), on the direct stepping with the common layout, into out itself
// (wroteOut). It reports false, writing nothing, when a channel is out of
// the stepping's range.
func (s *drawState) gourRun3(p *prim, chans *[4]gourChan, ar float64, x0, y int, sh *[4]uint, base uint32, gw *gourWork, n int, out []byte) (ok, wroteOut bool) {
	// The run's edge functions once for the three channels.
	at := s.gourAt(p, ar, x0, y, n)
	v0, d0, m0, ok0 := gourStart(&chans[0], &at, n)
	v1, d1, m1, ok1 := gourStart(&chans[1], &at, n)
	v2, d2, m2, ok2 := gourStart(&chans[2], &at, n)
	if !ok0 || !ok1 || !ok2 {
		return false, false
	}
	words := gw.word[:n]
	tab := gourThresholds()
	// Masked, the shifts compile to single instructions (the byte
	// positions are 0, 8, 16 and 24).
	s0, s1, s2 := sh[0]&31, sh[1]&31, sh[2]&31
	nn := 0
	near := &gw.near
	// One margin for the three channels, so they share the test's bound.
	mm := max(m0, m1, m2)
	u0, e0, w, ok0 := gourDirect(v0, d0, mm, n)
	u1, e1, _, ok1 := gourDirect(v1, d1, mm, n)
	u2, e2, _, ok2 := gourDirect(v2, d2, mm, n)
	if ok0 && ok1 && ok2 {
		// Every value lies in [0, 1] give or take half a byte: the bytes
		// are the integer parts of the stepped u, away from the
		// thresholds.
		if gourDirectHook != nil {
			gourDirectHook()
		}
		// The pixel i's values are exactly u + i·e, the loop's sums. A w
		// of 2^32 or more (no fraction near) is taken as 2^32 - 1, which
		// only sends more pixels to the reference.
		wu := uint32(min(w, 1<<32-1))
		// word is pixel i's stepped word or, near a threshold, the
		// reference's.
		word := func(i int) uint32 {
			a0, a1, a2 := u0+int64(i)*e0, u1+int64(i)*e1, u2+int64(i)*e2
			if uint32(a0) >= wu || uint32(a1) >= wu || uint32(a2) >= wu {
				return s.gourRefWord(p, chans, ar, x0+i, y, sh, base)
			}
			return base | uint32(a0>>32)<<s0 | uint32(a1>>32)<<s1 | uint32(a2>>32)<<s2
		}
		if out != nil && s0 == 0 && s1 == 8 && s2 == 16 && base&0xFFFFFF == 0 {
			// Straight into the colour buffer: the pairs of the run's
			// even length, then an odd last pixel.
			np := n / 2
			for k := 0; k < np; k++ {
				i := int64(2 * k)
				k += gourDirect3Out(out[8*k:8*np], u0+i*e0, u1+i*e1, u2+i*e2+int64(base>>24)<<40, e0, e1, e2, wu)
				if k < np {
					binary.LittleEndian.PutUint64(out[8*k:8*k+8], uint64(word(2*k))|uint64(word(2*k+1))<<32)
				}
			}
			if n&1 != 0 {
				binary.LittleEndian.PutUint32(out[4*(n-1):4*n], word(n-1))
			}
			return true, true
		}
		np := (n + 1) / 2
		for k := 0; k < np; k++ {
			i := int64(2 * k)
			k += gourDirect3(gw.pair[k:np], u0+i*e0, u1+i*e1, u2+i*e2, e0, e1, e2, wu, base, s0, s1, s2)
			if k == np {
				break
			}
			// Pair k has a near pixel: each of its pixels in the run
			// takes its stepped word or, near, the reference's (the high
			// half of a last pair past the run is never written out).
			v := uint64(word(2 * k))
			if 2*k+1 < n {
				v |= uint64(word(2*k+1)) << 32
			}
			gw.pair[k] = v
		}
		return true, false
	} else if max(m0, m1, m2) <= gourBucketMargin {
		// Most values lie in a bucket no threshold comes near: their
		// bytes are the bucket's.
		bt := gourBuckets()
		for i := range words {
			e0, e1, e2 := bt[gourBucket(v0)], bt[gourBucket(v1)], bt[gourBucket(v2)]
			if (e0|e1|e2)&gourUnsafe == 0 {
				words[i] = base | uint32(e0)<<s0 | uint32(e1)<<s1 | uint32(e2)<<s2
			} else {
				j0, f0 := gourByte(tab, v0, m0)
				j1, f1 := gourByte(tab, v1, m1)
				j2, f2 := gourByte(tab, v2, m2)
				near[nn&(gourChunk-1)] = uint16(i)
				nn -= int(f0 | f1 | f2)
				words[i] = base | uint32(j0)<<s0 | uint32(j1)<<s1 | uint32(j2)<<s2
			}
			v0 += d0
			v1 += d1
			v2 += d2
		}
	} else {
		for i := range words {
			j0, f0 := gourByte(tab, v0, m0)
			j1, f1 := gourByte(tab, v1, m1)
			j2, f2 := gourByte(tab, v2, m2)
			near[nn&(gourChunk-1)] = uint16(i)
			nn -= int(f0 | f1 | f2)
			words[i] = base | uint32(j0)<<s0 | uint32(j1)<<s1 | uint32(j2)<<s2
			v0 += d0
			v1 += d1
			v2 += d2
		}
	}
	for _, i := range near[:nn] {
		words[i] = s.gourRefWord(p, chans, ar, x0+int(i), y, sh, base)
	}
	gourPack(gw.pair[:], words)
	return true, false
}

// gourRefWord is the reference's word at pixel (x, y) for gourRun3's
// three channels over base.
func (s *drawState) gourRefWord(p *prim, chans *[4]gourChan, ar float64, x, y int, sh *[4]uint, base uint32) uint32 {
	wt := s.linearWeights(p, ar, x, y)
	wd := base
	for c := 0; c < 3; c++ {
		wd |= uint32(outByte(fp24(loadDot(&chans[c].v, &wt)))) << (sh[c] & 31)
	}
	return wd
}

// gourWrite writes the n pixels of pairs (gourWork's) at (x0, y) for
// the pixels that pass the depth test against the constant zv (with Z
// active), and returns how many pass.
func (s *drawState) gourWrite(buf *cbBuffer, pairs []uint64, n, x0, y int, zv uint32, op uint8, test, write bool) uint32 {
	off := (y*buf.pitch + x0) * 4
	dst := buf.mem[off : off+4*n]
	z := &s.zb
	word := func(i int) uint32 { return uint32(pairs[i>>1] >> (32 * uint(i&1))) }
	if !z.active || !test || op == cmpAlways {
		// Every pixel passes (a clear's state, or no depth buffer).
		gourPut(dst, pairs)
		if z.active && write && z.z24 {
			zo := (y*z.pitch + x0) * 4
			zm := z.mem[zo : zo+4*n]
			for i := 0; i < n; i++ {
				zb := zm[4*i : 4*i+4 : 4*i+4]
				binary.LittleEndian.PutUint32(zb, zv<<8|binary.LittleEndian.Uint32(zb)&0xFF)
			}
		} else if z.active && write {
			zo := (y*z.pitch + x0) * 2
			gourFillZ16(z.mem[zo:zo+2*n], uint16(zv>>8))
		}
		return uint32(n)
	}
	cnt := uint32(0)
	if z.z24 {
		zo := (y*z.pitch + x0) * 4
		zm := z.mem[zo : zo+4*n]
		for i := 0; i < n; i++ {
			zb := zm[4*i : 4*i+4 : 4*i+4]
			old := binary.LittleEndian.Uint32(zb)
			if op == cmpLE {
				if zv > old>>8 {
					continue
				}
			} else if !cmp(op, zv, old>>8) {
				continue
			}
			if write {
				binary.LittleEndian.PutUint32(zb, zv<<8|old&0xFF)
			}
			binary.LittleEndian.PutUint32(dst[4*i:4*i+4], word(i))
			cnt++
		}
		return cnt
	}
	zo := (y*z.pitch + x0) * 2
	zm := z.mem[zo : zo+2*n]
	if write && op == cmpLE {
		return gourWriteZ16LE(dst, zm, pairs, zv)
	}
	for i := 0; i < n; i++ {
		zb := zm[2*i : 2*i+2 : 2*i+2]
		if !cmp(op, zv, uint32(binary.LittleEndian.Uint16(zb))<<8) {
			continue
		}
		if write {
			binary.LittleEndian.PutUint16(zb, uint16(zv>>8))
		}
		binary.LittleEndian.PutUint32(dst[4*i:4*i+4], word(i))
		cnt++
	}
	return cnt
}

// gourPut writes the pixels of pairs to dst (4 bytes a pixel, so the
// last pair's high half when dst holds an odd number).
func gourPut(dst []byte, pairs []uint64) {
	np := len(dst) / 8
	for k, v := range pairs[:np] {
		binary.LittleEndian.PutUint64(dst[8*k:8*k+8:8*k+8], v)
	}
	if len(dst)&4 != 0 {
		binary.LittleEndian.PutUint32(dst[8*np:8*np+4:8*np+4], uint32(pairs[np]))
	}
}

// gourFillZ16 fills a 16-bit depth run with z, four values a 64-bit word.
func gourFillZ16(zm []byte, z uint16) {
	q := uint64(z) * 0x0001000100010001
	i := 0
	for ; i+16 <= len(zm); i += 16 {
		b := zm[i : i+16 : i+16]
		binary.LittleEndian.PutUint64(b, q)
		binary.LittleEndian.PutUint64(b[8:], q)
	}
	for ; i+8 <= len(zm); i += 8 {
		binary.LittleEndian.PutUint64(zm[i:i+8:i+8], q)
	}
	for ; i+2 <= len(zm); i += 2 {
		binary.LittleEndian.PutUint16(zm[i:i+2:i+2], z)
	}
}

// gourWriteZ16LE is gourWrite's LEQUAL-with-writes loop on a 16-bit depth
// buffer: zv <= old<<8 is old >= zt = ceil(zv/256). Four depth values are
// tested as the 16-bit lanes of one 64-bit word x: with H the lanes' top
// bits and y the lanes of zt's low 15 bits, d = (x|H) - y borrows from no
// lane (each lane of x|H is at least 2^15, more than zt's low 15 bits),
// and d's top bit in a lane is set when x's low 15 bits are at least
// zt's; so x >= zt in a lane is x's top bit or d's when zt's top bit is
// clear (x's top bit set makes x larger) and both when it is set. A group
// of four that all pass (the common case: a nearer surface) takes one
// 64-bit depth store and its colours as two pairs; one that does not is
// tested pixel by pixel. (TestGourWriteZ16LE against cmp.)
func gourWriteZ16LE(dst, zm []byte, pairs []uint64, zv uint32) uint32 {
	n := len(zm) / 2
	zt := (zv + 255) >> 8
	nz := uint16(zv >> 8)
	zq := uint64(nz) * 0x0001000100010001
	const lanes, hbits = 0x0001000100010001, 0x8000800080008000
	y := uint64(zt&0x7FFF) * lanes
	// kh is H when zt's top bit is clear (a lane passes on x's top bit or
	// d's) and 0 when set (on both): a lane passes when (x|kh) & (d|kh)
	// & (x|d) has its top bit.
	kh := uint64(hbits)
	if zt&0x8000 != 0 {
		kh = 0
	}
	cnt := uint32(0)
	ng := 0
	if zt <= 0xFFFF {
		ng = n / 4
	}
	zg, pg, dg := zm[:8*ng], pairs[:2*ng], dst[:16*ng]
	for g := 0; g < ng; g++ {
		zb := zg[8*g : 8*g+8 : 8*g+8]
		x := binary.LittleEndian.Uint64(zb)
		d := (x | hbits) - y
		if (x|kh)&(d|kh)&(x|d)&hbits == hbits {
			binary.LittleEndian.PutUint64(zb, zq)
			c := dg[16*g : 16*g+16 : 16*g+16]
			p := pg[2*g : 2*g+2 : 2*g+2]
			binary.LittleEndian.PutUint64(c, p[0])
			binary.LittleEndian.PutUint64(c[8:], p[1])
			cnt += 4
			continue
		}
		for k := 4 * g; k < 4*g+4; k++ {
			if uint32(binary.LittleEndian.Uint16(zm[2*k:])) >= zt {
				binary.LittleEndian.PutUint16(zm[2*k:], nz)
				binary.LittleEndian.PutUint32(dst[4*k:], uint32(pairs[k>>1]>>(32*uint(k&1))))
				cnt++
			}
		}
	}
	for i := 4 * ng; i < n; i++ {
		if uint32(binary.LittleEndian.Uint16(zm[2*i:])) >= zt {
			binary.LittleEndian.PutUint16(zm[2*i:], nz)
			binary.LittleEndian.PutUint32(dst[4*i:], uint32(pairs[i>>1]>>(32*uint(i&1))))
			cnt++
		}
	}
	return cnt
}
