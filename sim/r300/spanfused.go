package r300

import (
	"encoding/binary"
	"math"
	mathbits "math/bits"
	"sync"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// The fused textured path: the span pipeline's shape for GL ES 1.1's
// modulated texture draw (fill-tex-blend). The program samples one
// 8_8_8_8 unit with REPEAT and bilinear filtering whose level of detail
// cannot matter (bilinearRepeat's state), multiplies each texel channel
// by an RS-loaded value or a constant (a MAD with C the inline 0: mulSpan)
// and outputs the four channels to one ARGB8888 target, written directly
// (outDirect8) or with GL's over blend (outOver8), with at most a depth
// test against a constant Z. Such a draw is shaded a row run at a time:
// the RS's loads are stepped along the run (fusedLoad), then one loop
// takes each pixel from its coordinates to its word (fusedTexRow), and
// gourWrite tests the depth and writes the words that pass. Every value
// is the reference's: the stepped loads by their error bound with the
// reference's formula near FP24's rounding edges, the rest by the span
// pipeline's own arithmetic in its order. Failing pixels are shaded and
// dropped: the program cannot kill, so that writes nothing the early
// depth test would not (drawState.earlyZ).

// fusedSrc is a value the fused path reads per pixel: the RS attribute
// loaded into it (attr >= 0), rounded to FP24, or the constant k.
type fusedSrc struct {
	attr int
	k    float32
}

// fusedPlan is a draw's fused shape (fusedPlanOf).
type fusedPlan struct {
	unit int
	// s and t are the coordinates the TEX instruction reads.
	s, t fusedSrc
	// For output channel c (3: alpha): texel channel c times col[c],
	// rounded to FP24. The instruction's clamp to [0, 1] (sat)
	// is left out: outByte clamps to [0, 1] itself (NaN to 0 too), so
	// the byte is the same with it or without.
	col  [4]fusedSrc
	over bool
	// id is the draw's (fastPipe.id); cache is set when the draw writes
	// none of its textures (fusedRowCols).
	id    uint64
	cache bool
}

// The loads of fusedLoads' mask: the texture coordinates (s, t) and the
// colour factors.
const (
	fusedCoords  uint8 = 0x03
	fusedColours uint8 = 0x3C
)

// fusedChunk is the longest run the fused path shades at once.
const fusedChunk = 1024

// fusedWork is a worker's scratch for the fused path: per run the loaded
// values (s, t, then the four colour factors), the words and the pixels
// near an FP24 rounding edge.
type fusedWork struct {
	v    [6][fusedChunk]float32
	tx   [4][fusedChunk]float32
	word [fusedChunk]uint32
	// pair holds word in pairs, as gourWrite takes a run's pixels.
	pair [fusedChunk / 2]uint64
	near [fusedChunk]uint16
	// mark[i] flags the loads of pixel i that take the reference's
	// formula, fix lists those pixels once each.
	mark [fusedChunk]uint8
	fix  [fusedChunk]uint16
	// constN[i] > 0 when v[i][:constN[i]] all hold the bits constK[i]
	// (a constant load filled by an earlier run).
	constN [6]int
	constK [6]uint32
	// The margin loop's texel columns (fusedColumns) and, per pixel, a
	// and its column pair.
	cols []fusedCol
	rows [fusedRowCache]fusedRowCols
	// rowNext counts the rows' entries filled.
	rowNext int
	ma      [fusedChunk]float64
	mi      [fusedChunk]uint32
}

// fusedHook, when set (by tests), is called for every primitive the
// fused path shades; fusedNearHook for every pixel whose load takes the
// reference's formula.
var fusedHook, fusedNearHook func()

// fusedMarginScale multiplies the stepped loads' margin; tests set it to
// zero to show the margin is needed.
var fusedMarginScale = 1.0

// fusedPlanOf returns the draw's fused plan, or nil when the program or
// the state has another shape.
func (s *drawState) fusedPlanOf(fp *fastPipe) *fusedPlan {
	if (fp.out != outOver8 && fp.out != outDirect8) || !fp.tex || len(s.cb.used) != 1 {
		return nil
	}
	// The GL ES drivers' ARGB8888 layout (bytes B, G, R, A), read when
	// blended: fusedTexRow's words and fusedOverWords.
	if s.cb.buf[s.cb.used[0]].slots != [4]int{2, 1, 0, 3} || (fp.out == outOver8 && !s.cb.read) {
		return nil
	}
	if s.zb.active && (s.zb.stencil || s.fg.depthFromUS) {
		return nil
	}
	var tex *r3.TexInst
	var alu *aluSpan
	for i := range fp.stages {
		st := &fp.stages[i]
		switch {
		case st.alu != nil:
			if alu != nil || tex == nil {
				return nil
			}
			alu = st.alu
		case st.tex.Op == r3.TexNOP:
		case st.tex.Op == r3.TexLD && tex == nil && alu == nil:
			tex = &st.tex
		default:
			return nil
		}
	}
	if tex == nil || alu == nil {
		return nil
	}
	u := &s.tex[tex.Unit]
	if !u.spanSampling() || u.mag != 2 || u.projected || !u.selID || u.wrap != [2]uint32{0, 0} {
		return nil
	}
	var loads [32][4]*rsLoad
	for i := range fp.loads {
		l := &fp.loads[i]
		loads[l.temp][l.comp] = l
	}
	src := func(l *rsLoad) fusedSrc {
		if l.attr < 0 {
			return fusedSrc{attr: -1, k: l.k}
		}
		return fusedSrc{attr: l.attr}
	}
	ls, lt := loads[tex.Src][0], loads[tex.Src][1]
	if ls == nil || lt == nil {
		return nil
	}
	g := &fusedPlan{unit: int(tex.Unit), s: src(ls), t: src(lt), over: fp.out == outOver8, id: fp.id, cache: !s.serial}
	a := &alu.op.a
	t := s.cb.used[0]
	if a.RGB.OMask != 7 || a.Alpha.OMask != 1 || int(a.RGB.Target) != t || int(a.Alpha.Target) != t ||
		a.RGB.Omod != 0 || a.Alpha.Omod != 0 || a.Alpha.DepthOut || len(fp.zeroOut) != 0 {
		return nil
	}
	for c := 0; c < 4; c++ {
		if !alu.mul[c] || alu.mod[0][c] != 0 || alu.mod[1][c] != 0 {
			return nil
		}
		x, y := alu.opd[0][c], alu.opd[1][c]
		if !(x.kind == opdTemp && x.reg == tex.Dst) {
			x, y = y, x
		}
		// The texel's own channel (the modulate's swizzle).
		if !(x.kind == opdTemp && x.reg == tex.Dst && int(x.comp) == c) {
			return nil
		}
		switch y.kind {
		case opdTemp:
			l := loads[y.reg][y.comp]
			if y.reg == tex.Dst || l == nil {
				return nil
			}
			g.col[c] = src(l)
		case opdConst:
			g.col[c] = fusedSrc{attr: -1, k: s.us.consts[y.reg][y.comp]}
		default:
			return nil
		}
	}
	return g
}

// fusedChan is one stepped load of a primitive: its vertex values, their
// largest magnitude, its slope per pixel and the bound of the slope's
// error (as gouraudRows computes them).
type fusedChan struct {
	v    [3]float64
	vmax float64
	d    float64
	errD float64
	// kind: 0 stepped, 1 the same at every pixel (k), 2 the same along
	// a row (every vertex value that is not zero has an edge function
	// constant along rows).
	kind int
	k    float32
}

// fusedChanOf returns the stepping of the load of an attribute with
// vertex values v over p, or ok false when a value is too large for its
// bounds.
func (s *drawState) fusedChanOf(p *prim, v []float64) (ch fusedChan, ok bool) {
	if v[0] == v[1] && v[1] == v[2] {
		return fusedChan{kind: 1, k: r3.RoundFP24(v[0])}, true
	}
	ch.v = [3]float64{v[0], v[1], v[2]}
	ch.kind = 2
	var sum, mag float64
	for k := 0; k < 3; k++ {
		if !(math.Abs(v[k]) < 1<<40) {
			return ch, false
		}
		ch.vmax = max(ch.vmax, math.Abs(v[k]))
		if v[k] != 0 && p.rf[k].a != 0 {
			ch.kind = 0
		}
		as := float64(p.rf[k].a * s.sub)
		sum += float64(as * v[k])
		mag += math.Abs(as * v[k])
	}
	ar := float64(p.area)
	ch.d = sum / ar
	ch.errD = (mag/ar + math.Abs(ch.d)) * 0x1p-50
	return ch, true
}

// fusedRows is the fused path's shadeSpans for the quad rows of p whose
// top row lies in [qy0, qy1): it reports false, touching nothing, when
// p is out of the path's range.
func (s *drawState) fusedRows(p *prim, w *worker, g *fusedPlan, vals []float64, qy0, qy1 int) bool {
	rz := &p.rz
	z := &s.zb
	if z.active && !(rz[0] == rz[1] && rz[1] == rz[2]) {
		return false
	}
	// prim.wpIsWl holds: the area is positive and below 2^51 and the
	// edge values are exact in float64.
	ar := float64(p.area)
	var chans [6]fusedChan
	for i, src := range [6]fusedSrc{g.s, g.t, g.col[0], g.col[1], g.col[2], g.col[3]} {
		if src.attr < 0 {
			chans[i] = fusedChan{kind: 1, k: src.k}
			continue
		}
		var ok bool
		if chans[i], ok = s.fusedChanOf(p, vals[3*src.attr:3*src.attr+3]); !ok {
			return false
		}
	}
	if w.span.fused == nil {
		w.span.fused = &fusedWork{}
	}
	fw := w.span.fused
	u := &s.tex[g.unit]
	buf := &s.cb.buf[s.cb.used[0]]
	zv, op, test, write := s.constZ(p)
	s.rowRuns(p, w, qy0, qy1, fusedChunk, func(x0, y, n int) {
		if !s.fusedMarginRun(p, &chans, g, u, buf, ar, x0, y, n, fw) {
			at := s.gourAt(p, ar, x0, y, n)
			s.fusedLoads(p, &chans, &at, ar, x0, y, n, fw, fusedColours, 0)
			s.fusedTexRow(g, u, buf, x0, y, n, fw)
		}
		w.pixels += n
		gourPack(fw.pair[:], fw.word[:n])
		w.zpass += s.gourWrite(buf, fw.pair[:(n+1)/2], n, x0, y, zv, op, test, write)
	})
	if fusedHook != nil {
		fusedHook()
	}
	return true
}

// fusedLoads fills fw.v[i][:n], for each load i in mask (bit i), with
// load i's FP24 values at the n pixels from (x0, y) (at is the run's
// gourAt). It reports in same the loads whose values it found the same
// at every pixel; of those in lazy it writes only the first.
//
// A stepped load is cut into segments whose values keep one sign and one
// binade [2^e, 2^(e+1)) of magnitude, where fp24 keeps the integer part
// of |v|·2^(16-e). A segment starts from the reference's own value r at
// its first pixel (spanLoad's sum of the linear weights times the vertex
// values) and steps |v|·2^(48-e) in 64-bit integers (fusedStepFix): the
// integer part of the step's 32.32 value is fp24's. The stepped value's
// distance from the reference's value R_i at pixel i is bounded by M:
// both r and R_i lie within errR of the exact affine value (the weights'
// divisions, the products and sums, all under 2^-50·Σ|w_k|·max|v|, Σ|w_k|
// peaking at the run's ends as the edge functions are affine), the slope
// within errD of the exact one (at most n times over the run), and the
// start's truncation and the step's rounding add a unit of 2^-32 and half
// a unit per pixel. A pixel whose 32.32 fraction lies within M of an
// integer (an FP24 rounding edge, and the binade's ends, both integers)
// takes the reference's formula; a pixel stepped out of the binade
// starts a new segment. TestFusedLoadsMatchReference puts pixels on the
// edges and fails with a zero margin.
func (s *drawState) fusedLoads(p *prim, chans *[6]fusedChan, at *gourRunAt, ar float64, x0, y, n int, fw *fusedWork, mask, lazy uint8) (same uint8) {
	half := s.sub / 2
	py := int64(y)*s.sub + half
	w0, wsum := at.w, at.wsum
	// With one or two loads, each fixes its own near pixels; with more,
	// a pixel near in several takes its weights once for them all.
	direct := mathbits.OnesCount8(mask) <= 2
	nf := 0
	for c := range chans {
		if mask>>c&1 == 0 {
			continue
		}
		ch := &chans[c]
		dst := fw.v[c][:n]
		bit := uint8(1) << c
		switch ch.kind {
		case 1, 2:
			k := ch.k
			if ch.kind == 2 {
				k = fp24(loadDot(&ch.v, &w0))
			}
			same |= bit
			if lazy&bit != 0 {
				dst[0] = k
				fw.constN[c] = 0
				continue
			}
			if kb := math.Float32bits(k); fw.constN[c] < n || fw.constK[c] != kb {
				fillF32(dst, k)
				fw.constN[c], fw.constK[c] = n, kb
			}
			continue
		}
		fw.constN[c] = 0
		mAbs := 2*wsum*ch.vmax*0x1p-50 + float64(n)*ch.errD
		nn := 0
		for i := 0; i < n; {
			r := loadDot(&ch.v, &w0)
			if i > 0 {
				// As for the near pixels below: only the weights of
				// edge functions that vary along the row and multiply
				// a non-zero vertex value.
				px := int64(x0+i)*s.sub + half
				w := w0
				for k, v := range ch.v {
					if v != 0 && p.rf[k].a != 0 {
						w[k] = float64(p.rf[k].eval(px, py)) / ar
					}
				}
				r = loadDot(&ch.v, &w)
			}
			dst[i] = fp24(r)
			av := math.Abs(r)
			if !(av >= 0x1p-60 && av < 0x1p60) {
				i++
				continue
			}
			e := int(math.Float64bits(av)>>52) - 1023
			sc := math.Ldexp(1, 48-e)
			dd := ch.d
			scale := float32(math.Ldexp(1, e-16))
			if r < 0 {
				dd, scale = -dd, -scale
			}
			df := dd * sc
			mu := mAbs*sc + float64(n) + 2
			if !(math.Abs(df) < 0x1p46 && mu < 0x1p28) {
				i++
				continue
			}
			v := int64(av * sc)
			d := int64(math.Round(df))
			m := uint32(mu * fusedMarginScale)
			if d == 0 && uint32(v)+m >= 2*m {
				// A load whose slope rounds to no step (the other
				// texture coordinate of a screen-aligned quad): every
				// pixel's value is the first's, as the stepping would
				// give it, none near an edge.
				if i == 0 {
					same |= bit
					if lazy&bit != 0 {
						break
					}
				}
				fillF32(dst[i+1:], float32(v>>32)*scale)
				break
			}
			i, nn = fusedStepFix(dst, &fw.near, nn, i+1, v+d, d, m, scale)
		}
		if direct {
			// The channel's near pixels at once (nearFix).
			s.nearFix(p, ch, ar, x0, y, w0, fw.near[:nn], dst)
			continue
		}
		for _, j := range fw.near[:nn] {
			if fw.mark[j] == 0 {
				fw.fix[nf] = j
				nf++
			}
			fw.mark[j] |= bit
		}
	}
	// The pixels near an edge, with the weights once for their loads. A
	// weight whose edge function is constant along rows (a == 0) is the
	// run's first pixel's: the same edge value, so the same quotient. A
	// weight only vertex values of zero multiply (in the pixel's near
	// loads) is left at the first pixel's too: any finite weight makes
	// that term a zero, which fp24 cannot tell from another. loadDot sums
	// all three terms, zero vertex values included: with finite weights
	// their terms change at most the sign of a zero sum, which fp24 makes
	// +0 (loadSpan leaves them out).
	var nz [6]uint8
	for c := range chans {
		for k, v := range chans[c].v {
			if v != 0 && p.rf[k].a != 0 {
				nz[c] |= 1 << k
			}
		}
	}
	for _, j := range fw.fix[:nf] {
		px := int64(x0+int(j))*s.sub + half
		var need uint8
		for m := fw.mark[j]; m != 0; m &= m - 1 {
			need |= nz[mathbits.TrailingZeros8(m)]
		}
		w := w0
		for k := range w {
			if need>>k&1 != 0 {
				w[k] = float64(p.rf[k].eval(px, py)) / ar
			}
		}
		for m := fw.mark[j]; m != 0; m &= m - 1 {
			if fusedNearHook != nil {
				fusedNearHook()
			}
			c := mathbits.TrailingZeros8(m)
			fw.v[c][j] = fp24(loadDot(&chans[c].v, &w))
		}
		fw.mark[j] = 0
	}
	return same
}

// nearFix sets dst[j] for each pixel j of near (from (x0, y)) to the
// reference's FP24 value of the load ch: the weights of the edge
// functions that vary along the row and multiply a vertex value that is
// not zero divided again, the others the run's first pixel's (w0), as
// fusedLoads' shared pass takes them.
func (s *drawState) nearFix(p *prim, ch *fusedChan, ar float64, x0, y int, w0 [3]float64, near []uint16, dst []float32) {
	half := s.sub / 2
	py := int64(y)*s.sub + half
	var need [3]bool
	for k, v := range ch.v {
		need[k] = v != 0 && p.rf[k].a != 0
	}
	for _, j := range near {
		if fusedNearHook != nil {
			fusedNearHook()
		}
		px := int64(x0+int(j))*s.sub + half
		w := w0
		for k := range w {
			if need[k] {
				w[k] = float64(p.rf[k].eval(px, py)) / ar
			}
		}
		dst[j] = fp24(loadDot(&ch.v, &w))
	}
}

// fusedStepFix is a segment's stepping from pixel i: v is |value|·2^(48-e)
// in 64-bit integers, stepped by d, so the value's fp24 is its integer
// part q times scale (±2^(e-16)) while q lies in [2^16, 2^17); a pixel
// whose fraction lies within m of an integer is listed in near (from nn).
// It returns the first pixel out of the binade (or len(dst)) and the new
// count of near pixels.
func fusedStepFix(dst []float32, near *[fusedChunk]uint16, nn, i int, v, d int64, m uint32, scale float32) (int, int) {
	for ; i < len(dst); i++ {
		q := v >> 32
		if uint64(q-1<<16) >= 1<<16 {
			return i, nn
		}
		near[nn&(fusedChunk-1)] = uint16(i)
		if uint32(v)+m < 2*m {
			nn++
		}
		dst[i] = float32(q) * scale
		v += d
	}
	return i, nn
}

// fillF32 sets every element of d to k.
func fillF32(d []float32, k float32) {
	for i := range d {
		d[i] = k
	}
}

// fusedTexRow shades the run's n pixels from (x0, y) into fw.word from
// the loads in fw.v: bilinearRepeat's fetch (its column and row parts
// kept while s and t repeat), the product per channel and its byte
// (fusedByte: outByte of mulSpan's value), and spanOver8's blend with the
// colour buffer's bytes or spanDirect8's bytes, in the buffer's slot
// order.
func (s *drawState) fusedTexRow(g *fusedPlan, u *texUnit, buf *cbBuffer, x0, y, n int, fw *fusedWork) {
	lv := &u.levels[u.baseLevel]
	wd, ht := float64(lv.Width), float64(lv.Height)
	mx, my := lv.Width-1, lv.Height-1
	mem, base, pitch := u.mem, lv.Offset, lv.Pitch
	sv, tv := fw.v[0][:n], fw.v[1][:n]
	c0, c1, c2, c3 := fw.v[2][:n], fw.v[3][:n], fw.v[4][:n], fw.v[5][:n]
	words := fw.word[:n]
	tv = tv[:len(sv)]
	c0, c1, c2, c3 = c0[:len(sv)], c1[:len(sv)], c2[:len(sv)], c3[:len(sv)]
	words = words[:len(sv)]
	tab := fusedByteTab()
	tx0, tx1, tx2, tx3 := fw.tx[0][:len(sv)], fw.tx[1][:len(sv)], fw.tx[2][:len(sv)], fw.tx[3][:len(sv)]
	nan := float32(math.NaN())
	cs, ct := nan, nan
	var a, a1, b, b1 float64
	var x0o, x1o, r0, r1 uint32
	adj := false
	for i, sc := range sv {
		if sc != cs {
			var xi int
			xi, a = texelAxis(sc, wd)
			cs, a1 = sc, 1-a
			x0o, x1o = uint32(4*(xi&mx)), uint32(4*((xi+1)&mx))
			adj = x1o == x0o+4
		}
		if t := tv[i]; t != ct {
			var yj int
			yj, b = texelAxis(t, ht)
			ct, b1 = t, 1-b
			r0, r1 = base+uint32(yj&my)*pitch, base+uint32((yj+1)&my)*pitch
		}
		// bilinearRepeat's sums start from 0: every weight and texel
		// value here is +0 or positive, so 0 + P is P.
		w0, w1, w2, w3 := float64(a1*b1), float64(a*b1), float64(a1*b), float64(a*b)
		var v0, v1, v2, v3 uint32
		if adj {
			// Two neighbouring texels of a row in one load.
			q0 := binary.LittleEndian.Uint64(mem[r0+x0o:])
			q1 := binary.LittleEndian.Uint64(mem[r1+x0o:])
			v0, v1, v2, v3 = uint32(q0), uint32(q0>>32), uint32(q1), uint32(q1>>32)
		} else {
			v0 = binary.LittleEndian.Uint32(mem[r0+x0o:])
			v1 = binary.LittleEndian.Uint32(mem[r0+x1o:])
			v2 = binary.LittleEndian.Uint32(mem[r1+x0o:])
			v3 = binary.LittleEndian.Uint32(mem[r1+x1o:])
		}
		t0 := fp24f(float32(float64(w0*unorm8d[uint8(v0)]) + float64(w1*unorm8d[uint8(v1)]) + float64(w2*unorm8d[uint8(v2)]) + float64(w3*unorm8d[uint8(v3)])))
		t1 := fp24f(float32(float64(w0*unorm8d[uint8(v0>>8)]) + float64(w1*unorm8d[uint8(v1>>8)]) + float64(w2*unorm8d[uint8(v2>>8)]) + float64(w3*unorm8d[uint8(v3>>8)])))
		t2 := fp24f(float32(float64(w0*unorm8d[uint8(v0>>16)]) + float64(w1*unorm8d[uint8(v1>>16)]) + float64(w2*unorm8d[uint8(v2>>16)]) + float64(w3*unorm8d[uint8(v3>>16)])))
		t3 := fp24f(float32(float64(w0*unorm8d[uint8(v0>>24)]) + float64(w1*unorm8d[uint8(v1>>24)]) + float64(w2*unorm8d[uint8(v2>>24)]) + float64(w3*unorm8d[uint8(v3>>24)])))
		tx0[i], tx1[i], tx2[i], tx3[i] = t0, t1, t2, t3
	}
	// The products and their bytes, in a loop of their own, into words
	// in the buffer's byte order.
	for i := range words {
		t0, t1, t2, t3 := tx0[i], tx1[i], tx2[i], tx3[i]
		p0, p1, p2, p3 := float64(t0)*float64(c0[i]), float64(t1)*float64(c1[i]), float64(t2)*float64(c2[i]), float64(t3)*float64(c3[i])
		o0, ok0 := fusedByteFast(p0)
		o1, ok1 := fusedByteFast(p1)
		o2, ok2 := fusedByteFast(p2)
		o3, ok3 := fusedByteFast(p3)
		if !(ok0 && ok1 && ok2 && ok3) {
			o0, o1, o2, o3 = fusedByte(tab, p0), fusedByte(tab, p1), fusedByte(tab, p2), fusedByte(tab, p3)
		}
		words[i] = o2 | o1<<8 | o0<<16 | o3<<24
	}
	if g.over {
		off := (y*buf.pitch + x0) * 4
		k := s.fusedOverKs(x0, y)
		fusedOverWords(words, buf.mem[off:off+4*len(words)], &k)
	}
}

// fusedOverWords is spanOver8's blend for the fused path: each source
// word of words (bytes B, G, R, A, as the buffer's) over the buffer's
// word at the same pixel of dst, in place, with k the four channels' K
// per x&3 (fusedOverKs). overByte's floor((8192·X + off)/(255·8192)),
// X = src·a + dst·(255 - a), is floor((X + K)/255) with K =
// floor(off/8192) (X is an integer, so the fraction of off/8192 cannot
// carry X + off/8192 past a multiple of 255), and for V = X + K that is
// (V + 1 + (V>>8))>>8 (fusedOverLane). The four channels take 16-bit
// lanes of one word: V is at most 255·255 + 247 (overOffset's largest K)
// and V + 1 + (V>>8) below 2^16, so no lane carries into the next.
// TestFusedOverLanes checks fusedOverLane on every input and these words
// on random pixels against overByte.
func fusedOverWords(words []uint32, dst []byte, k *[4]uint64) {
	const lo8 = 0x00FF_00FF_00FF_00FF
	const one = 0x0001_0001_0001_0001
	dst = dst[:4*len(words)]
	for i, w := range words {
		a := uint64(w >> 24)
		v := spread16(w)*a + spread16(binary.LittleEndian.Uint32(dst[4*i:]))*(255-a) + k[i&3]
		words[i] = pack16((v + one + (v>>8)&lo8) >> 8 & lo8)
	}
}

// spread16 puts the four bytes of w in the low bytes of four 16-bit
// lanes.
func spread16(w uint32) uint64 {
	x := uint64(w)
	x = (x | x<<16) & 0x0000_FFFF_0000_FFFF
	return (x | x<<8) & 0x00FF_00FF_00FF_00FF
}

// pack16 is spread16's inverse: the low bytes of the four lanes.
func pack16(x uint64) uint32 {
	x = (x | x>>8) & 0x0000_FFFF_0000_FFFF
	return uint32(x | x>>16)
}

// fusedOverKs is fusedOverWords' K per x&3 on the row run from (x0, y):
// spanOver8's offset for each byte of the B, G, R, A buffer divided by
// 8192, byte k's in lane k.
func (s *drawState) fusedOverKs(x0, y int) (k [4]uint64) {
	for xi := range k {
		d := (y&3)<<2 | (x0+xi)&3
		for c := 0; c < 4; c++ {
			k[xi] |= uint64(s.fusedOverOff(c, d)/8192) << (16 * c)
		}
	}
	return k
}

// fusedOverLane is fusedOverWords' arithmetic for one channel: src over
// dst with alpha a and overOffset off.
func fusedOverLane(src, a, dst, off uint32) uint32 {
	v := src*a + dst*(255-a) + off/8192
	return (v + 1 + v>>8) >> 8
}

// fusedByteTab holds, for k = 1..255, the least float64 p whose
// outByte(fp24(p)) is k or more, and -Inf and +Inf at 0 and 256.
var fusedByteTab = sync.OnceValue(func() *[257]float64 {
	t := new([257]float64)
	t[0], t[256] = math.Inf(-1), math.Inf(1)
	g := func(x float64) byte { return outByte(fp24(x)) }
	for k := 1; k < 256; k++ {
		// Binary search over the bit patterns of [0, 1]: for positive
		// floats they are ordered as the values.
		lo, hi := uint64(0), math.Float64bits(1)
		for lo < hi {
			mid := lo + (hi-lo)/2
			if int(g(math.Float64frombits(mid))) >= k {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		t[k] = math.Float64frombits(lo)
	}
	return t
})

// fusedByte is outByte(fp24(p)) (mulSpan's rounding, then the unorm-8
// conversion) for a finite p: the number of thresholds of tab at or
// below p. The candidate k = floor(255p + 1/2), clamped to [0, 255], is
// within one of it, as every threshold lies within 2^-9 of a byte above
// its half-byte point (k - 1/2)/255 (fp24 truncates by under 2^-16
// relative) and the candidate's float64 rounding is far smaller, so one
// comparison each way finds it (TestFusedByte). A product of two FP24
// values (the texel and the loaded colour) is exact in float64, so p is
// mulSpan's product itself.
func fusedByte(tab *[257]float64, p float64) uint32 {
	if k, ok := fusedByteFast(p); ok {
		return k
	}
	return fusedByteNear(tab, p)
}

// fusedByteFast is fusedByte away from the thresholds: k and true, or
// false when p lies within fusedFracMin of a byte above a half-byte
// point (or below 0, or is NaN). Every threshold lies less than
// fusedFracMin above its half-byte point (TestFusedFracMin), and u errs
// by far less: a fraction beyond it is past k's threshold and short of
// k+1's. From 255.5 up (p >= 1) the byte is 255, the fraction 1/2.
func fusedByteFast(p float64) (uint32, bool) {
	u := min(p*255+0.5, 255.5)
	k := int(u)
	return uint32(k), u >= 0 && u-float64(k) >= fusedFracMin
}

// fusedByteNear is fusedByte near a threshold (or out of [0, 1], or NaN).
//
//go:noinline
func fusedByteNear(tab *[257]float64, p float64) uint32 {
	u := p*255 + 0.5
	if !(u > 0) {
		u = 0
	}
	k := int(min(u, 255))
	k -= b2i(p < tab[k])
	k += b2i(p >= tab[k+1])
	return uint32(k)
}

// fusedFracMin bounds how far above its half-byte point (k - 1/2)/255, in
// bytes, a threshold of fusedByteTab lies (fp24 truncates by under
// 2^-16 relative: under 2^-9 of a byte).
const fusedFracMin = 1.0 / 256

// fusedOverOff is spanOver8's offset for byte k at dither position d.
func (s *drawState) fusedOverOff(k, d int) uint32 {
	return overOffset(s.cb.buf[s.cb.used[0]].modes[k], d)
}
