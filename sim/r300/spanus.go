package r300

import (
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// The fragment program on spans: each instruction of the decoded program
// (usProg) becomes one operation that runs over every pixel of a span
// held in the worker's arrays (spanWork), in structure-of-arrays form. An
// ALU operation resolves its operands once per span, then runs one loop
// per channel; the arithmetic of each pixel is exactly aluOp.exec's, in
// the same order (the randomized test in span_test.go holds the two
// together).

// spanPix is the number of pixels a span holds: spanQuads quads of four.
const (
	spanQuads = 16
	spanPix   = 4 * spanQuads
)

// spanArr is one value per pixel of a span.
type spanArr = [spanPix]float32

// spanArr64 is one float64 per pixel of a span.
type spanArr64 = [spanPix]float64

// fp24 is r3.RoundFP24 with its common case, a result inside FP24's
// range, on one branch: truncated to 16 fraction bits, a float64 whose
// biased exponent e is 961 (2^-62, FP24's smallest normal) to 1087 (2^64,
// whose largest truncated mantissa is FP24Max's) converts to float32
// exactly. Below that range the result flushes to +0, above it saturates,
// and a NaN gives +0, as RoundFP24 does.
func fp24(x float64) float32 {
	t := math.Float64bits(x) &^ (1<<36 - 1)
	// t<<1 drops the sign: its top 11 bits are the exponent.
	if t<<1-961<<53 < 127<<53 {
		return float32(math.Float64frombits(t))
	}
	if x != x || t<<1 < 961<<53 {
		return 0
	}
	if int64(t) < 0 {
		return -r3.FP24Max
	}
	return r3.FP24Max
}

// operand kinds of an ALU argument channel.
const (
	opdTemp = iota
	opdConst
	opdSrcp
	opdInline // 0, 1 or 0.5
)

// operand is where one channel of an ALU argument comes from.
type operand struct {
	kind uint8
	reg  uint8 // temp or constant register, srcp channel, inline index
	comp uint8
}

// aluSpan is one ALU instruction prepared for spans.
type aluSpan struct {
	op *aluOp
	// opd[k][c] is argument k's channel c (3: the alpha half's).
	opd [3][4]operand
	mod [3][4]uint8
	// srcp inputs per channel: slot 0 and slot 1 of the half.
	srcpIn [4][2]operand
	// direct is set when no register the instruction reads is one it
	// writes, so results go straight to their destination.
	direct bool
	// usesDot: the RGB op is a dot product.
	usesDot bool
	// slot indexes the worker's resolved operand arrays (spanWork.opds);
	// anyMod is set when some argument has a modifier.
	slot   int
	anyMod bool
	// mov[c] is set when channel c (3: alpha) is a MAD of argument A by
	// the inline 1 plus the inline 0, unmodified, with no output modifier
	// or clamp: its result is fp24(A), which for a temp is A itself
	// (every value a temp holds is an FP24 value other than -0).
	mov [4]bool
	// mul[c] is set when channel c (3: alpha) is a MAD whose C is the
	// inline 0, unmodified: fp24 gives the same for A·B as for A·B + 0
	// (the sum differs only in the sign of a zero, which rounds to +0).
	// The alpha half's MAD is the RGB half's (alphaOp, rgbOp), so it
	// takes mulSpan too, except under SOP, which reads the alpha unit's
	// unrounded result.
	mul [4]bool
}

// operandOf resolves operand table index idx (aluOp's layout) of
// instruction a.
func operandOf(a *r3.ALUInst, idx uint8) operand {
	switch {
	case idx < 12:
		n, c := idx/4, idx%4
		src := a.RGB.Src[n]
		if c == 3 {
			src = a.Alpha.Src[n]
		}
		if src >= r3.ConstBase {
			return operand{kind: opdConst, reg: src - r3.ConstBase, comp: c}
		}
		return operand{kind: opdTemp, reg: src, comp: c}
	case idx < opZero:
		return operand{kind: opdSrcp, reg: idx - opSrcp}
	}
	return operand{kind: opdInline, reg: idx - opZero}
}

func newALUSpan(op *aluOp) *aluSpan {
	a := &op.a
	s := &aluSpan{op: op}
	for k := 0; k < 3; k++ {
		for c := 0; c < 3; c++ {
			s.opd[k][c] = operandOf(a, op.rgbIdx[k][c])
			s.mod[k][c] = a.RGB.Args[k].Mod
		}
		s.opd[k][3] = operandOf(a, op.aIdx[k])
		s.mod[k][3] = a.Alpha.Args[k].Mod
	}
	for c := 0; c < 4; c++ {
		s.srcpIn[c] = [2]operand{operandOf(a, uint8(c)), operandOf(a, uint8(4+c))}
	}
	for k := range s.mod {
		for _, m := range s.mod[k] {
			s.anyMod = s.anyMod || m != 0
		}
	}
	s.usesDot = a.RGB.Op == r3.RGBDP3 || a.RGB.Op == r3.RGBDP4 || a.RGB.Op == r3.RGBD2A
	one, zero := operand{kind: opdInline, reg: 1}, operand{kind: opdInline, reg: 0}
	for c := 0; c < 4; c++ {
		h := &a.RGB
		if c == 3 {
			h = &a.Alpha
		}
		s.mov[c] = h.Op == 0 && h.Omod == 0 && !h.Clamp && s.mod[0][c] == 0 && s.mod[1][c] == 0 && s.mod[2][c] == 0 &&
			s.opd[1][c] == one && s.opd[2][c] == zero
	}
	// SOP reads the alpha unit's unrounded result.
	s.mov[3] = s.mov[3] && a.RGB.Op != r3.RGBSOP
	for c := 0; c < 3; c++ {
		s.mul[c] = !s.mov[c] && a.RGB.Op == r3.RGBMAD && s.opd[2][c] == zero && s.mod[2][c] == 0
	}
	s.mul[3] = !s.mov[3] && a.Alpha.Op == r3.AlphaMAD && a.RGB.Op != r3.RGBSOP && s.opd[2][3] == zero && s.mod[2][3] == 0
	s.direct = true
	writes := func(h *r3.Half) bool { return h.WMask != 0 }
	for n := 0; n < 3; n++ {
		for _, src := range [2]uint8{a.RGB.Src[n], a.Alpha.Src[n]} {
			if src < r3.ConstBase && ((writes(&a.RGB) && src == a.RGB.Dst) || (writes(&a.Alpha) && src == a.Alpha.Dst)) {
				s.direct = false
			}
		}
	}
	return s
}

// resolved is an ALU instruction's operand arrays in one worker's
// spanWork: per argument and channel, and the pre-subtract inputs.
type resolved struct {
	args [3][4]*spanArr
	srcp [4][2]*spanArr
}

// resolve fills sw.opds for the pipeline's ALU instructions.
func (sw *spanWork) resolve(fp *fastPipe) {
	sw.opds = sw.opds[:0]
	for i := range fp.stages {
		as := fp.stages[i].alu
		if as == nil {
			continue
		}
		var r resolved
		for k := range r.args {
			for c := range r.args[k] {
				r.args[k][c] = sw.arr(as.opd[k][c])
			}
		}
		for c := range r.srcp {
			r.srcp[c] = [2]*spanArr{sw.arr(as.srcpIn[c][0]), sw.arr(as.srcpIn[c][1])}
		}
		sw.opds = append(sw.opds, r)
	}
}

// arr returns the array an operand reads in sw.
func (sw *spanWork) arr(o operand) *spanArr {
	switch o.kind {
	case opdTemp:
		return &sw.temps[o.reg][o.comp]
	case opdConst:
		return &sw.konst[o.reg][o.comp]
	case opdSrcp:
		return &sw.srcp[o.reg]
	}
	return &sw.inline[o.reg]
}

// run executes the instruction over the span's first n pixels.
func (s *aluSpan) run(sw *spanWork, n int) {
	a := &s.op.a
	ops := &sw.opds[s.slot]
	// Pre-subtract from raw slots 0 and 1 of each half (L1542-1547).
	if s.op.srcpRGB {
		for c := 0; c < 3; c++ {
			srcpSpan(&sw.srcp[c], ops.srcp[c][0], ops.srcp[c][1], a.RGB.Srcp, n)
		}
	}
	if s.op.srcpA {
		srcpSpan(&sw.srcp[3], ops.srcp[3][0], ops.srcp[3][1], a.Alpha.Srcp, n)
	}
	// Arguments, with their modifiers applied (exact in float32).
	args := ops.args
	if s.anyMod {
		for k := 0; k < 3; k++ {
			for c := 0; c < 4; c++ {
				if m := s.mod[k][c]; m != 0 {
					dst := &sw.args[k][c]
					modSpan(dst, args[k][c], m, n)
					args[k][c] = dst
				}
			}
		}
	}
	A, B, C := &args[0], &args[1], &args[2]

	// The alpha unit (L1552).
	dot := &sw.dot
	if s.usesDot {
		a0, a1, a2, b0, b1, b2 := A[0][:n], A[1][:n], A[2][:n], B[0][:n], B[1][:n], B[2][:n]
		switch a.RGB.Op {
		case r3.RGBDP3:
			for p := range a0 {
				dot[p] = float64(float64(a0[p])*float64(b0[p])) + float64(float64(a1[p])*float64(b1[p])) + float64(float64(a2[p])*float64(b2[p]))
			}
		case r3.RGBDP4:
			aa, ab := A[3][:n], B[3][:n]
			for p := range a0 {
				dot[p] = float64(float64(a0[p])*float64(b0[p])) + float64(float64(a1[p])*float64(b1[p])) + float64(float64(a2[p])*float64(b2[p])) +
					float64(float64(aa[p])*float64(ab[p]))
			}
		default: // D2A
			c2 := C[2][:n]
			for p := range a0 {
				dot[p] = float64(float64(a0[p])*float64(b0[p])) + float64(float64(a1[p])*float64(b1[p])) + float64(c2[p])
			}
		}
	}
	ar := &sw.ar
	alpha := &sw.res[3]
	if s.direct && a.Alpha.WMask != 0 {
		alpha = &sw.temps[a.Alpha.Dst][3]
	} else if s.direct && a.Alpha.OMask != 0 {
		alpha = &sw.out[a.Alpha.Target][3]
	}
	if s.mov[3] {
		movSpan(alpha, A[3], s.opd[0][3].kind == opdTemp, n)
	} else if s.mul[3] {
		mulSpan(alpha, A[3], B[3], a.Alpha.Omod, a.Alpha.Clamp, n)
	} else {
		alphaOp(ar, dot, A[3], B[3], C[3], a.Alpha.Op, n)
		finishSpan(alpha, ar, a.Alpha.Omod, a.Alpha.Clamp, n)
	}
	if a.RGB.Op == r3.RGBSOP {
		// The transcendental result SOP replicates is the unit's result
		// before the alpha half's own output modifier.
		sop := &sw.sop
		for p := range sop[:n] {
			sop[p] = fp24(ar[p])
		}
	}

	// The RGB half, channel by channel.
	h := &a.RGB
	var res [3]*spanArr
	for c := 0; c < 3; c++ {
		res[c] = &sw.res[c]
		if s.direct && h.WMask>>c&1 != 0 {
			res[c] = &sw.temps[h.Dst][c]
		} else if s.direct && h.OMask>>c&1 != 0 {
			res[c] = &sw.out[h.Target][c]
		}
		if s.mov[c] {
			movSpan(res[c], A[c], s.opd[0][c].kind == opdTemp, n)
			continue
		}
		if s.mul[c] {
			mulSpan(res[c], A[c], B[c], h.Omod, h.Clamp, n)
			continue
		}
		rgbOp(res[c], dot, &sw.sop, A[c], B[c], C[c], h.Op, h.Omod, h.Clamp, n)
	}

	// Writes (L1556-1569, L1464-1479).
	for c := 0; c < 3; c++ {
		if h.WMask>>c&1 != 0 {
			if t := &sw.temps[h.Dst][c]; t != res[c] {
				copy(t[:n], res[c][:n])
			}
		}
		if h.OMask>>c&1 != 0 {
			if o := &sw.out[h.Target][c]; o != res[c] {
				copy(o[:n], res[c][:n])
			}
		}
	}
	if a.Alpha.WMask != 0 {
		if t := &sw.temps[a.Alpha.Dst][3]; t != alpha {
			copy(t[:n], alpha[:n])
		}
	}
	if a.Alpha.OMask != 0 {
		if o := &sw.out[a.Alpha.Target][3]; o != alpha {
			copy(o[:n], alpha[:n])
		}
	}
	if a.Alpha.DepthOut {
		copy(sw.depth[:n], alpha[:n])
	}
}

// movSpan is a MAD by 1 plus 0: fp24 of the source, which is the source
// itself when it is a temp.
func movSpan(dst, src *spanArr, temp bool, n int) {
	if temp {
		if dst != src {
			copy(dst[:n], src[:n])
		}
		return
	}
	d, x := dst[:n], src[:n]
	for p := range d {
		d[p] = fp24(float64(x[p]))
	}
}

// mulSpan is a MAD with C the inline 0 (aluSpan.mul), finished.
func mulSpan(dst, a, b *spanArr, omod uint8, clamp bool, n int) {
	d := dst[:n]
	x, y := a[:len(d)], b[:len(d)]
	switch {
	case omod == 0 && !clamp:
		for p := range d {
			d[p] = fp24(float64(x[p]) * float64(y[p]))
		}
	case omod == 0:
		for p := range d {
			d[p] = sat(fp24(float64(x[p]) * float64(y[p])))
		}
	default:
		for p := range d {
			d[p] = finish(float64(x[p])*float64(y[p]), omod, clamp)
		}
	}
}

// srcpSpan is srcp over a span, rounded to FP24.
func srcpSpan(dst, s0, s1 *spanArr, op uint8, n int) {
	d, x, y := dst[:n], s0[:n], s1[:n]
	switch op {
	case 0:
		for p := range d {
			d[p] = fp24(1 - 2*float64(x[p]))
		}
	case 1:
		for p := range d {
			d[p] = fp24(float64(y[p]) - float64(x[p]))
		}
	case 2:
		for p := range d {
			d[p] = fp24(float64(y[p]) + float64(x[p]))
		}
	default:
		for p := range d {
			d[p] = fp24(1 - float64(x[p]))
		}
	}
}

// modSpan applies an argument modifier (negate, absolute value, negated
// absolute value), exact in float32 as in float64.
func modSpan(dst, src *spanArr, m uint8, n int) {
	d, s := dst[:n], src[:n]
	switch m {
	case 1:
		for p := range d {
			d[p] = -s[p]
		}
	case 2:
		for p := range d {
			d[p] = float32(math.Abs(float64(s[p])))
		}
	default:
		for p := range d {
			d[p] = float32(-math.Abs(float64(s[p])))
		}
	}
}

// alphaOp computes the alpha unit's unrounded result.
func alphaOp(ar, dot *spanArr64, aA, aB, aC *spanArr, op uint8, n int) {
	r, x, y, z := ar[:n], aA[:n], aB[:n], aC[:n]
	switch op {
	case r3.AlphaMAD:
		for p := range r {
			r[p] = float64(float64(x[p])*float64(y[p])) + float64(z[p])
		}
	case r3.AlphaDP:
		copy(r, dot[:n])
	case r3.AlphaMIN:
		for p := range r {
			r[p] = min(float64(x[p]), float64(y[p]))
		}
	case r3.AlphaMAX:
		for p := range r {
			r[p] = max(float64(x[p]), float64(y[p]))
		}
	case r3.AlphaCND:
		for p := range r {
			r[p] = sel(float64(z[p]) > 0.5, float64(x[p]), float64(y[p]))
		}
	case r3.AlphaCMP:
		for p := range r {
			r[p] = sel(float64(z[p]) >= 0, float64(x[p]), float64(y[p]))
		}
	case r3.AlphaFRC:
		for p := range r {
			v := float64(x[p])
			r[p] = v - math.Floor(v)
		}
	case r3.AlphaEX2:
		for p := range r {
			r[p] = exp2(float64(x[p]))
		}
	case r3.AlphaLN2:
		for p := range r {
			r[p] = log2(float64(x[p]))
		}
	case r3.AlphaRCP:
		for p := range r {
			r[p] = 1 / float64(x[p])
		}
	case r3.AlphaRSQ:
		for p := range r {
			r[p] = 1 / math.Sqrt(float64(x[p]))
		}
	default:
		clear(r)
	}
}

// finishSpan is finish over a span.
func finishSpan(dst *spanArr, x *spanArr64, omod uint8, clamp bool, n int) {
	d, v := dst[:n], x[:n]
	if omod == 0 && !clamp {
		for p := range d {
			d[p] = fp24(v[p])
		}
		return
	}
	if omod == 0 {
		for p := range d {
			d[p] = sat(fp24(v[p]))
		}
		return
	}
	for p := range d {
		d[p] = finish(v[p], omod, clamp)
	}
}

// sat is finish's clamp to [0, 1] (NaN to 0).
func sat(r float32) float32 {
	if !(r > 0) {
		return 0
	}
	if r > 1 {
		return 1
	}
	return r
}

// rgbOp computes one RGB channel's finished result.
func rgbOp(dst *spanArr, dot *spanArr64, sop, A, B, C *spanArr, op, omod uint8, clamp bool, n int) {
	d, x, y, z := dst[:n], A[:n], B[:n], C[:n]
	plain := omod == 0 && !clamp
	switch op {
	case r3.RGBMAD:
		if plain {
			for p := range d {
				d[p] = fp24(float64(float64(x[p])*float64(y[p])) + float64(z[p]))
			}
			return
		}
		if omod == 0 {
			for p := range d {
				d[p] = sat(fp24(float64(float64(x[p])*float64(y[p])) + float64(z[p])))
			}
			return
		}
		for p := range d {
			d[p] = finish(float64(float64(x[p])*float64(y[p]))+float64(z[p]), omod, clamp)
		}
	case r3.RGBDP3, r3.RGBDP4, r3.RGBD2A:
		finishSpan(dst, dot, omod, clamp, n)
	case r3.RGBMIN:
		for p := range d {
			d[p] = finish(min(float64(x[p]), float64(y[p])), omod, clamp)
		}
	case r3.RGBMAX:
		for p := range d {
			d[p] = finish(max(float64(x[p]), float64(y[p])), omod, clamp)
		}
	case r3.RGBCND:
		for p := range d {
			d[p] = finish(sel(float64(z[p]) > 0.5, float64(x[p]), float64(y[p])), omod, clamp)
		}
	case r3.RGBCMP:
		for p := range d {
			d[p] = finish(sel(float64(z[p]) >= 0, float64(x[p]), float64(y[p])), omod, clamp)
		}
	case r3.RGBFRC:
		for p := range d {
			v := float64(x[p])
			d[p] = finish(v-math.Floor(v), omod, clamp)
		}
	case r3.RGBSOP:
		s := sop[:n]
		for p := range d {
			d[p] = finish(float64(s[p]), omod, clamp)
		}
	default:
		for p := range d {
			d[p] = finish(0, omod, clamp)
		}
	}
}

// loadSpan is the RS's load of one attribute with vertex values v into t:
// fp24(w0·v0 + w1·v1 + w2·v2) per pixel, summed left to right. With
// finite weights a vertex value of zero (either sign) makes its product a
// zero, which leaves any non-zero sum (and an infinite or NaN one) as it
// is and can change only the sign of a zero sum, which fp24 makes +0: so
// the term is left out (a textured draw's coordinates and a Gouraud
// colour's channels often have one). TestLoadSpanSkipsZeros holds the
// shortened sums to the full one.
func loadSpan(t []float32, wp *[3]spanArr64, v []float64, finite bool) {
	w0, w1, w2 := wp[0][:len(t)], wp[1][:len(t)], wp[2][:len(t)]
	v0, v1, v2 := v[0], v[1], v[2]
	zero := 0
	if finite {
		zero = b2i(v0 == 0) | b2i(v1 == 0)<<1 | b2i(v2 == 0)<<2
	}
	switch zero {
	case 1:
		for i, b := range w1 {
			t[i] = fp24(float64(b*v1) + float64(w2[i]*v2))
		}
	case 2:
		for i, a := range w0 {
			t[i] = fp24(float64(a*v0) + float64(w2[i]*v2))
		}
	case 4:
		for i, a := range w0 {
			t[i] = fp24(float64(a*v0) + float64(w1[i]*v1))
		}
	case 3:
		for i, c := range w2 {
			t[i] = fp24(c * v2)
		}
	case 5:
		for i, b := range w1 {
			t[i] = fp24(b * v1)
		}
	case 6:
		for i, a := range w0 {
			t[i] = fp24(a * v0)
		}
	default:
		for i, a := range w0 {
			t[i] = fp24(float64(a*v0) + float64(w1[i]*v1) + float64(w2[i]*v2))
		}
	}
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
