package r300

import (
	"encoding/binary"
	mathbits "math/bits"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// The span pipeline: the fast path of the pixel half. A primitive's quad
// row is cut into spans of up to spanQuads covered quads; each stage runs
// over a whole span before the next: the RS's interpolation, the fragment
// program's instructions (spanus.go), the texture fetches, then the pixel
// pipeline. The stages and their specialisations are chosen once per draw
// (fastPipe); the arithmetic of every pixel is the per-quad reference
// path's (scanRows), in the same order, so the two write the same bytes.
// Engine.reference selects the reference path; span_test.go compares the
// two over random states, primitives and memory.

// spanWork is a worker's scratch state for the span pipeline, in
// structure-of-arrays form: pixel p of a span is pixel p%4 of its quad
// p/4.
type spanWork struct {
	// The span's quads: positions, coverage and killed pixels.
	nq        int
	qy        int
	qx        [spanQuads]int
	cov, kill [spanQuads]uint8
	// mask is the pixels still in flight in the pixel stage; packed
	// their output bytes in place.
	mask   [spanQuads]uint8
	packed [4][spanPix]uint32

	// The RS's barycentric weights, linear and perspective-correct, and
	// the per-pixel inputs of the pixel pipeline.
	ev        [3][spanPix]int64
	wl, wp    [3]spanArr64
	z, w, fog spanArr64
	attr      spanArr64
	// wpl is the perspective-correct weights: &wp, or &wl when they are
	// the same; zConst is set when Z is the same at every pixel.
	wpl    *[3]spanArr64
	zConst bool
	// wFinite is set when the weights wpl points to are finite (the
	// linear weights of a primitive of non-zero area: loadSpan).
	wFinite bool

	// The fragment program's registers and scratch.
	temps  [32][4]spanArr
	konst  [32][4]spanArr
	inline [3]spanArr // 0, 1, 0.5
	srcp   [4]spanArr
	args   [3][4]spanArr
	res    [4]spanArr
	sop    spanArr
	dot    spanArr64
	ar     spanArr64
	out    [4][4]spanArr
	depth  spanArr

	// kPipe is the id of the pipeline whose constants konst holds and
	// whose ALU instructions' operands opds resolves.
	kPipe uint64
	opds  []resolved

	// gour is the Gouraud row path's scratch (spangour.go).
	gour *gourWork
	// fused is the fused textured path's (spanfused.go).
	fused *fusedWork
}

func newSpanWork() *spanWork {
	sw := &spanWork{}
	for p := range sw.inline[1] {
		sw.inline[1][p], sw.inline[2][p] = 1, 0.5
	}
	return sw
}

// spanStage is one instruction of the fragment program on spans.
type spanStage struct {
	tex r3.TexInst
	alu *aluSpan // nil for a TEX instruction
}

// rsLoad is one value the RS loads into the temps: attribute attr, rounded
// to FP24, or the constant k when attr < 0.
type rsLoad struct {
	attr       int
	k          float32
	temp, comp int
}

// fastPipe is a draw's state compiled for the span pipeline.
type fastPipe struct {
	// id tells pipelines apart for the workers' constant arrays (a
	// pointer could be reused by a later pipeline).
	id     uint64
	stages []spanStage
	// konst lists the constant register channels the program reads.
	konst []operand
	// loads is what the RS writes into the temps the program can read,
	// after its writes in order (the last write of a channel wins), the
	// temps it does not write being zero.
	loads []rsLoad
	// zeroOut lists the output channels (target*4 + channel) of used
	// targets the program may leave unwritten; they start at zero.
	zeroOut []int
	// tex is set when the program samples (helper pixels matter).
	tex bool
	// out is the pixel stage (spanpix.go).
	out int
	// earlyZ is set when a pixel that fails the depth test can be
	// dropped before the program runs (spanEarlyZ).
	earlyZ bool
	// gour is set when the Gouraud row path can shade the draw
	// (gouraudPlan).
	gour *gourPlan
	// fused is set when the fused textured path can shade the draw
	// (fusedPlanOf, spanfused.go).
	fused *fusedPlan
	// overOffs[k][d] is toUnorm's offset for byte k at dither position
	// d ((y&3)<<2 | x&3) in overByte's units (outOver8).
	overOffs [4][16]uint32
}

// fastPipeline compiles the draw's state for the span pipeline, or returns
// nil when the per-quad path must shade it.
func (s *drawState) fastPipeline(id uint64) *fastPipe {
	u := s.us
	fp := &fastPipe{id: id, tex: u.tex, out: s.outStage()}
	fp.earlyZ = s.earlyZ()
	seenK := map[operand]bool{}
	written := map[int]bool{}
	nALU := 0
	for li := range u.levels {
		lv := &u.levels[li]
		for _, t := range lv.tex {
			fp.stages = append(fp.stages, spanStage{tex: t})
		}
		for ai := range lv.alu {
			as := newALUSpan(&lv.alu[ai])
			as.slot = nALU
			nALU++
			fp.stages = append(fp.stages, spanStage{alu: as})
			var reads []operand
			for k := range as.opd {
				reads = append(reads, as.opd[k][:]...)
			}
			for c := range as.srcpIn {
				reads = append(reads, as.srcpIn[c][:]...)
			}
			for _, o := range reads {
				if o.kind == opdConst && !seenK[o] {
					seenK[o] = true
					fp.konst = append(fp.konst, o)
				}
			}
			for _, h := range [2]*r3.Half{&as.op.a.RGB, &as.op.a.Alpha} {
				for c := 0; c < 4; c++ {
					if h.OMask>>c&1 != 0 {
						if h == &as.op.a.Alpha {
							written[int(h.Target)*4+3] = true
						} else if c < 3 {
							written[int(h.Target)*4+c] = true
						}
					}
				}
			}
		}
	}
	for _, t := range s.cb.used {
		for c := 0; c < 4; c++ {
			if !written[t*4+c] {
				fp.zeroOut = append(fp.zeroOut, t*4+c)
			}
		}
	}
	// The RS load plan (rsState.load).
	var slot [32][4]int
	for t := range slot {
		slot[t] = [4]int{-1, -1, -1, -1}
	}
	for _, w := range s.rs.writes {
		if w.temp < u.ntemps {
			slot[w.temp] = w.src
		}
	}
	for t := 0; t < u.ntemps; t++ {
		for c, src := range slot[t] {
			switch src {
			case -1:
				fp.loads = append(fp.loads, rsLoad{attr: -1, k: 0, temp: t, comp: c})
			case -2:
				fp.loads = append(fp.loads, rsLoad{attr: -1, k: 1, temp: t, comp: c})
			default:
				fp.loads = append(fp.loads, rsLoad{attr: src, temp: t, comp: c})
			}
		}
	}
	fp.gour = s.gouraudPlan(fp)
	fp.fused = s.fusedPlanOf(fp)
	if fp.out == outOver8 {
		buf := &s.cb.buf[s.cb.used[0]]
		for k, mode := range buf.modes {
			for d := range fp.overOffs[k] {
				fp.overOffs[k][d] = overOffset(mode, d)
			}
		}
	}
	return fp
}

// shadeSpans is the span pipeline's scanRows: it shades the quads of p
// whose top row lies in [qy0, qy1).
func (e *Engine) shadeSpans(s *drawState, fp *fastPipe, p *prim, w *worker, vals []float64, qy0, qy1 int) error {
	if w.span == nil {
		w.span = newSpanWork()
	}
	sw := w.span
	if sw.kPipe != fp.id {
		for _, o := range fp.konst {
			k := s.us.consts[o.reg][o.comp]
			arr := &sw.konst[o.reg][o.comp]
			for i := range arr {
				arr[i] = k
			}
		}
		sw.resolve(fp)
		sw.kPipe = fp.id
	}
	constUS := !fp.tex && p.constIn
	var cKill bool
	if constUS {
		// Every pixel loads the same temps: the program runs once (on
		// the vertex values, as scanRows does) and its outputs serve the
		// whole primitive.
		for _, l := range fp.loads {
			v := l.k
			if l.attr >= 0 {
				v = r3.RoundFP24(vals[3*l.attr])
			}
			sw.temps[l.temp][l.comp][0] = v
		}
		sw.kill[0] = 0
		e.runSpanUS(s, fp, sw, 1)
		cKill = sw.kill[0]&1 != 0
		for _, t := range s.cb.used {
			for c := 0; c < 4; c++ {
				o := &sw.out[t][c]
				for i := 1; i < spanPix; i++ {
					o[i] = o[0]
				}
			}
		}
		if s.fg.depthFromUS {
			for i := 1; i < spanPix; i++ {
				sw.depth[i] = sw.depth[0]
			}
		}
	}
	attrs := !constUS || (s.fg.fog && s.fogSel < 4)
	spans := p.spans
	allVisible := s.clipRule == 0xFFFF
	if constUS && !cKill && spans && allVisible && fp.out == outDirect8 && !s.zb.active {
		s.fillRows(p, w, qy0, qy1)
		return nil
	}
	if fp.gour != nil && spans && allVisible && (constUS || (!p.flat && p.wpIsWl)) &&
		s.gouraudRows(p, w, fp.gour, vals, qy0, qy1) {
		return nil
	}
	if fp.fused != nil && spans && allVisible && !p.flat && p.wpIsWl && s.fusedRows(p, w, fp.fused, vals, qy0, qy1) {
		return nil
	}
	qx0 := p.x0 &^ 1
	for qy := qy0; qy < qy1 && qy <= p.y1; qy += 2 {
		lo0, hi0, lo1, hi1 := qx0, p.x1, qx0, p.x1
		qxs, qxe := qx0, p.x1
		if spans {
			lo0, hi0 = rowSpan(p, s.sub, qy)
			lo1, hi1 = rowSpan(p, s.sub, qy+1)
			// The quads either run touches (an empty run is lo > hi).
			switch {
			case lo0 > hi0 && lo1 > hi1:
				continue
			case lo0 > hi0:
				qxs, qxe = lo1&^1, hi1
			case lo1 > hi1:
				qxs, qxe = lo0&^1, hi0
			default:
				qxs, qxe = min(lo0, lo1)&^1, max(hi0, hi1)
			}
		}
		sw.qy, sw.nq = qy, 0
		for qx := qxs; qx <= qxe; qx += 2 {
			var cov uint8
			if spans && allVisible {
				// The runs are inside the bounding box already.
				cov = inRun(qx, lo0, hi0) | inRun(qx+1, lo0, hi0)<<1 | inRun(qx, lo1, hi1)<<2 | inRun(qx+1, lo1, hi1)<<3
			} else {
				for i := 0; i < 4; i++ {
					x, y := qx+i&1, qy+i>>1
					if x < p.x0 || x > p.x1 || y < p.y0 || y > p.y1 {
						continue
					}
					if spans {
						lo, hi := lo0, hi0
						if i >= 2 {
							lo, hi = lo1, hi1
						}
						if x < lo || x > hi {
							continue
						}
					} else if !p.inside(x, y, s.sub) {
						continue
					}
					if allVisible || s.clipVisible(x, y) {
						cov |= 1 << i
					}
				}
			}
			if cov == 0 {
				continue
			}
			sw.qx[sw.nq], sw.cov[sw.nq] = qx, cov
			sw.nq++
			if sw.nq == spanQuads {
				if err := e.shadeSpan(s, fp, p, w, vals, constUS, cKill, attrs); err != nil {
					return err
				}
				sw.nq = 0
			}
		}
		if sw.nq > 0 {
			if err := e.shadeSpan(s, fp, p, w, vals, constUS, cKill, attrs); err != nil {
				return err
			}
		}
	}
	return nil
}

// shadeSpan runs the span's quads through interpolation, the program and
// the pixel pipeline.
func (e *Engine) shadeSpan(s *drawState, fp *fastPipe, p *prim, w *worker, vals []float64, constUS, cKill, attrs bool) error {
	sw := w.span
	nq := sw.nq
	n := 4 * nq
	w.quads += nq
	s.spanWeights(p, sw, vals, attrs)
	if fp.earlyZ && !constUS {
		if w.ezSkip > 0 {
			w.ezSkip--
		} else if !s.spanEarlyZ(p, sw, w) {
			// Nothing failed: test again only every few spans (the
			// result is the same either way; only the time differs).
			w.ezSkip = 3
		}
		nq, n = sw.nq, 4*sw.nq
		if nq == 0 {
			return nil
		}
	}
	if constUS {
		k := uint8(0)
		if cKill {
			k = 15
		}
		for i := range sw.kill[:nq] {
			sw.kill[i] = k
		}
	} else {
		s.spanLoad(fp, sw, vals, n)
		clear(sw.kill[:nq])
		e.runSpanUS(s, fp, sw, n)
	}
	return e.spanPixels(s, fp, p, w)
}

// spanWeights computes, for every pixel of the span, what interpolate
// computes: the linear weights (when an attribute, a sloped Z or W needs
// them), the perspective-correct weights (with attrs), Z and W, and the
// fog source attribute. The edge values are the reference's int64 edge
// functions, stepped from each quad's first pixel (the same values: the
// sums wrap alike).
func (s *drawState) spanWeights(p *prim, sw *spanWork, vals []float64, attrs bool) {
	nq := sw.nq
	n := 4 * nq
	half := s.sub / 2
	needW := s.fg.fog && s.fogSel == 4
	rz, rq := &p.rz, &p.rq
	zConst := rz[0] == rz[1] && rz[1] == rz[2]
	needWL := attrs || !zConst || needW
	sw.wpl, sw.wFinite = &sw.wp, false
	if p.flat {
		for k := 0; k < 3; k++ {
			v := 0.0
			if k == 0 {
				v = 1
			}
			for i := range n {
				sw.wl[k][i], sw.wp[k][i] = v, v
			}
		}
	} else if needWL {
		ar := float64(p.area)
		py := int64(sw.qy)*s.sub + half
		for k := 0; k < 3; k++ {
			f := &p.rf[k]
			dx, dy := f.a*s.sub, f.b*s.sub
			base := f.b*py + f.c + f.a*half
			ev := &sw.ev[k]
			wl := &sw.wl[k]
			for j := 0; j < nq; j++ {
				e0 := f.a*(int64(sw.qx[j])*s.sub) + base
				e := ev[4*j : 4*j+4 : 4*j+4]
				e[0], e[1], e[2], e[3] = e0, e0+dx, e0+dy, e0+dx+dy
				l := wl[4*j : 4*j+4 : 4*j+4]
				l[0], l[1], l[2], l[3] = float64(e[0])/ar, float64(e[1])/ar, float64(e[2])/ar, float64(e[3])/ar
			}
		}
		if attrs && p.wpIsWl {
			// Equal power-of-two 1/W and exact edge sums: every t[k]/sum
			// is ev[k]/area exactly (prim.wpIsWl).
			sw.wpl, sw.wFinite = &sw.wl, p.area != 0
		} else if attrs {
			e0, e1, e2 := sw.ev[0][:n], sw.ev[1][:n], sw.ev[2][:n]
			for i := range e0 {
				t0 := float64(float64(e0[i]) * rq[0])
				t1 := float64(float64(e1[i]) * rq[1])
				t2 := float64(float64(e2[i]) * rq[2])
				sum := 0 + t0 + t1 + t2
				if sum != 0 {
					sw.wp[0][i], sw.wp[1][i], sw.wp[2][i] = t0/sum, t1/sum, t2/sum
				} else {
					sw.wp[0][i], sw.wp[1][i], sw.wp[2][i] = sw.wl[0][i], sw.wl[1][i], sw.wl[2][i]
				}
			}
		}
	}
	sw.zConst = zConst
	if zConst {
		for i := range n {
			sw.z[i] = rz[0]
		}
	} else {
		w0, w1, w2 := sw.wl[0][:n], sw.wl[1][:n], sw.wl[2][:n]
		for i := range w0 {
			sw.z[i] = float64(w0[i]*rz[0]) + float64(w1[i]*rz[1]) + float64(w2[i]*rz[2])
		}
	}
	if needW {
		w0, w1, w2 := sw.wl[0][:n], sw.wl[1][:n], sw.wl[2][:n]
		for i := range w0 {
			iw := float64(w0[i]*rq[0]) + float64(w1[i]*rq[1]) + float64(w2[i]*rq[2])
			sw.w[i] = 1 / iw
		}
	}
	if s.fg.fog && s.fogSel < 4 {
		s.spanAttr(p, sw, vals, s.rs.fog, n)
		copy(sw.fog[:n], sw.attr[:n])
	}
}

// spanAttr interpolates attribute j over the span's pixels into sw.attr.
func (s *drawState) spanAttr(p *prim, sw *spanWork, vals []float64, j, n int) {
	v := vals[3*j : 3*j+3]
	a := sw.attr[:n]
	if v[0] == v[1] && v[1] == v[2] {
		// A value equal at every vertex is a plane with no slope: exact,
		// whatever the weights' rounding.
		for i := range a {
			a[i] = v[0]
		}
		return
	}
	wp := sw.wpl
	w0, w1, w2 := wp[0][:n], wp[1][:n], wp[2][:n]
	for i := range a {
		a[i] = float64(w0[i]*v[0]) + float64(w1[i]*v[1]) + float64(w2[i]*v[2])
	}
}

// spanLoad is the RS's load of the temps for every pixel of the span.
func (s *drawState) spanLoad(fp *fastPipe, sw *spanWork, vals []float64, n int) {
	for _, l := range fp.loads {
		t := sw.temps[l.temp][l.comp][:n]
		if l.attr < 0 {
			for i := range t {
				t[i] = l.k
			}
			continue
		}
		v := vals[3*l.attr : 3*l.attr+3]
		if v[0] == v[1] && v[1] == v[2] {
			k := r3.RoundFP24(v[0])
			for i := range t {
				t[i] = k
			}
			continue
		}
		loadSpan(t, sw.wpl, v, sw.wFinite)
	}
}

// runSpanUS runs the fragment program over the span's first n pixels:
// per level its TEX instructions, then its ALU instructions.
func (e *Engine) runSpanUS(s *drawState, fp *fastPipe, sw *spanWork, n int) {
	for _, k := range fp.zeroOut {
		clear(sw.out[k/4][k%4][:n])
	}
	clear(sw.depth[:n])
	for i := range fp.stages {
		st := &fp.stages[i]
		if st.alu != nil {
			st.alu.run(sw, n)
			continue
		}
		s.texSpan(sw, st.tex, n)
	}
}

// texSpan performs a TEX instruction over the span's quads.
func (s *drawState) texSpan(sw *spanWork, t r3.TexInst, n int) {
	src := &sw.temps[t.Src]
	switch t.Op {
	case r3.TexNOP:
		return
	case r3.TexKill:
		// L1727: kill if any component is negative.
		for p := 0; p < n; p++ {
			if src[0][p] < 0 || src[1][p] < 0 || src[2][p] < 0 || src[3][p] < 0 {
				sw.kill[p/4] |= 1 << (p % 4)
			}
		}
		return
	}
	dst := &sw.temps[t.Dst]
	u := &s.tex[t.Unit]
	if u.spanSampling() {
		u.sampleSpan(t.Op, src, dst, n)
		return
	}
	if !u.enabled {
		// L1295: a disabled map samples ARGB = (1, 0, 0, 0).
		for c, v := range [4]float32{0, 0, 0, 1} {
			d := dst[c][:n]
			for p := range d {
				d[p] = v
			}
		}
		return
	}
	for q := 0; q*4 < n; q++ {
		var c, res [4][4]float32
		for i := 0; i < 4; i++ {
			p := 4*q + i
			c[i] = [4]float32{src[0][p], src[1][p], src[2][p], src[3][p]}
		}
		sw.kill[q] |= u.sampleQuad(t.Op, &c, &res)
		for i := 0; i < 4; i++ {
			p := 4*q + i
			for ch := 0; ch < 4; ch++ {
				dst[ch][p] = fp24(float64(res[i][ch]))
			}
		}
	}
}

// fillRows shades the quad rows of a primitive of one colour written
// directly, without a depth or stencil test (outDirect8 with a constant
// program): each row's run of covered pixels gets the same four bytes, and
// the counters count the quads and pixels the quad walk would.
func (s *drawState) fillRows(p *prim, w *worker, qy0, qy1 int) {
	t := s.cb.used[0]
	buf := &s.cb.buf[t]
	sl := &buf.slots
	o := &w.span.out[t]
	kb := [4]byte{outByte(o[0][0]), outByte(o[1][0]), outByte(o[2][0]), outByte(o[3][0])}
	pat := [4]byte{kb[sl[0]&3], kb[sl[1]&3], kb[sl[2]&3], kb[sl[3]&3]}
	for qy := qy0; qy < qy1 && qy <= p.y1; qy += 2 {
		lo0, hi0 := rowSpan(p, s.sub, qy)
		lo1, hi1 := rowSpan(p, s.sub, qy+1)
		n := 0
		for r, run := range [2][2]int{{lo0, hi0}, {lo1, hi1}} {
			lo, hi := run[0], run[1]
			if lo > hi {
				continue
			}
			n += hi - lo + 1
			off := ((qy+r)*buf.pitch + lo) * 4
			fill(buf.mem[off:off+4*(hi-lo+1)], pat)
		}
		w.pixels += n
		w.zpass += uint32(n)
		// The quads the walk visits: those a run touches.
		w.quads += quadsTouched(lo0, hi0, lo1, hi1)
	}
}

// fill repeats the 4-byte pattern over b (whose length is a multiple of 4).
func fill(b []byte, pat [4]byte) {
	if len(b) == 0 {
		return
	}
	copy(b, pat[:])
	for n := 4; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// inRun is 1 when lo <= x <= hi.
func inRun(x, lo, hi int) uint8 {
	if x >= lo && x <= hi {
		return 1
	}
	return 0
}

// earlyZ reports whether the depth test can run before the program: the
// test is on, Z comes from the plane equation, no stencil test counts the
// pixels that fail it, and the program cannot kill a pixel (no KIL, no
// chroma key that kills), so a pixel that fails writes nothing whatever
// the program computes. The reference counts such a pixel among
// Stats.Pixels all the same, and so does spanEarlyZ.
func (s *drawState) earlyZ() bool {
	z := &s.zb
	if !z.active || !z.zTest || z.stencil || s.fg.depthFromUS {
		return false
	}
	for _, lv := range s.us.levels {
		for _, t := range lv.tex {
			if t.Op == r3.TexKill {
				return false
			}
			if t.Op != r3.TexNOP && s.tex[t.Unit].enabled && s.tex[t.Unit].chroma == 1 {
				return false
			}
		}
	}
	return true
}

// spanEarlyZ tests the span's covered pixels against the depth buffer
// (without writing it), drops those that fail, counts them among the
// pixels as the reference's pixel stage does, and removes the quads left
// without pixels. It reports whether any pixel failed.
func (s *drawState) spanEarlyZ(p *prim, sw *spanWork, w *worker) bool {
	z := &s.zb
	op := zCmp[z.zFunc]
	var zc uint32
	if sw.zConst {
		zc = s.planeZ(sw.z[0], p.zoff)
	}
	failed, j := 0, 0
	for k := 0; k < sw.nq; k++ {
		m := sw.cov[k]
		for r := m; r != 0; r &= r - 1 {
			i := mathbits.TrailingZeros8(r)
			x, y := sw.qx[k]+i&1, sw.qy+i>>1
			zv := zc
			if !sw.zConst {
				zv = s.planeZ(sw.z[4*k+i], p.zoff)
			}
			var old uint32
			if z.z24 {
				off := (y*z.pitch + x) * 4
				old = binary.LittleEndian.Uint32(z.mem[off:off+4:off+4]) >> 8
			} else {
				off := (y*z.pitch + x) * 2
				old = uint32(binary.LittleEndian.Uint16(z.mem[off:off+2:off+2])) << 8
			}
			if !cmp(op, zv, old) {
				m &^= 1 << i
				failed++
			}
		}
		if m == 0 {
			continue
		}
		if j != k {
			sw.qx[j] = sw.qx[k]
			for a := 0; a < 3; a++ {
				copy(sw.wl[a][4*j:4*j+4], sw.wl[a][4*k:4*k+4])
				copy(sw.wp[a][4*j:4*j+4], sw.wp[a][4*k:4*k+4])
			}
			copy(sw.z[4*j:4*j+4], sw.z[4*k:4*k+4])
			copy(sw.w[4*j:4*j+4], sw.w[4*k:4*k+4])
			copy(sw.fog[4*j:4*j+4], sw.fog[4*k:4*k+4])
		}
		sw.cov[j] = m
		j++
	}
	w.pixels += failed
	sw.nq = j
	return failed > 0
}

// quadsTouched counts the 2x2 quads of a quad row that its two pixel rows'
// runs [lo0, hi0] and [lo1, hi1] touch (an empty run has lo > hi): the
// quads the walk visits.
func quadsTouched(lo0, hi0, lo1, hi1 int) int {
	q0lo, q0hi, q1lo, q1hi := lo0>>1, hi0>>1, lo1>>1, hi1>>1
	switch {
	case lo0 > hi0 && lo1 > hi1:
		return 0
	case lo0 > hi0:
		return q1hi - q1lo + 1
	case lo1 > hi1:
		return q0hi - q0lo + 1
	default:
		return q0hi - q0lo + 1 + q1hi - q1lo + 1 - max(0, min(q0hi, q1hi)-max(q0lo, q1lo)+1)
	}
}
