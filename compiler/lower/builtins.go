package lower

import (
	"math"

	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/ir"
)

// Built-in functions as IR. Error bounds are of the expansion in exact
// arithmetic plus the rounding of each step (FP24 on the R3xx fragment
// unit: relative 2^-17 per operation after truncation; float32 on the CPU
// vertex path):
//
//	sin, cos       native SIN/COS (compiler/r300: reduction to one period
//	               and minimax polynomials, 5.0e-7 and 7.8e-7 absolute)
//	tan            sin · rcp(cos): the relative error of both
//	asin, acos     sqrt(1-|x|)·P6(|x|), least-squares fit on Chebyshev
//	               nodes: 7.3e-7 absolute before rounding; asin = π/2 - acos
//	               as ±(π/2 - sqrt(1-|x|)·P6(|x|))
//	atan(x)        x·P6(x²) on [0, 1] (1.8e-6 absolute), 1/x reduction
//	               above 1: π/2 - atan(1/|x|), sign restored
//	atan(y, x)     atan(min/max) by the same polynomial, then octant
//	               corrections; atan(0, 0) is 0
//	pow            POW (2^(y·log2 x)): relative error grows with |y·log2 x|
//	exp, log       EX2(x·log2 e), LG2(x)·ln 2
//	sqrt           rcp(rsq(x)): sqrt(0) = 0 exactly
//	normalize      x·rsq(dot(x, x))
//	mod            x - y·floor(x·rcp(y))
//	smoothstep     t = clamp((x-e0)·rcp(e1-e0)), t·t·(3-2t), the clamp a
//	               saturation; clamp(x, 0, 1) too
//	refract        as the specification's formula, k < 0 selecting 0
//	any, all       the largest or smallest component (booleans are 0, 1)
//	noise1-4       0 (the specification allows any value with the listed
//	               properties; 0 is what Mesa returns)
//
// Derivatives (dFdx, dFdy, fwidth) need neighbouring pixels' values,
// which an R3xx fragment program cannot read: a link error.

// Polynomial coefficients (lowest degree first).
var (
	atanPoly = []float32{0.999979834, -0.3326554832, 0.1936703188, -0.1166511225, 0.05282349407, -0.01177050216}
	acosPoly = []float32{1.570795601, -0.2145375253, 0.08812171919, -0.04576947788, 0.02041735358, -0.004821121478}
)

func (l *lowerer) builtin(e *glsl.BuiltinCall) val {
	if e.Op.IsTexture() {
		return l.texture(e)
	}
	args := l.exprs(e.Args)
	rt := e.Sig.Ret
	n := int(rt.Rows)
	if len(args) > 0 && (rt.IsScalar() && !args[0].t.IsScalar() && e.Op != glsl.OpAny && e.Op != glsl.OpAll) {
		n = int(args[0].t.Rows)
	}
	a := func(i int) ir.Src { return bcastTo(args[i]) }
	one := func(s ir.Src) val { return val{t: rt, s: []ir.Src{s}} }
	fv := func(s ir.Src) val { return val{t: rt, s: []ir.Src{s}} }
	switch e.Op {
	case glsl.OpRadians:
		return fv(l.vop(ir.MUL, n, a(0), l.lit(math.Pi/180)))
	case glsl.OpDegrees:
		return fv(l.vop(ir.MUL, n, a(0), l.lit(180/math.Pi)))
	case glsl.OpSin:
		return fv(l.sop(ir.SIN, n, a(0)))
	case glsl.OpCos:
		return fv(l.sop(ir.COS, n, a(0)))
	case glsl.OpTan:
		s := l.sop(ir.SIN, n, a(0))
		c := l.sop(ir.COS, n, a(0))
		return fv(l.vop(ir.MUL, n, s, l.sop(ir.RCP, n, c)))
	case glsl.OpAsin:
		return fv(l.asin(n, a(0)))
	case glsl.OpAcos:
		return fv(l.acos(n, a(0)))
	case glsl.OpAtan:
		return fv(l.atan(n, a(0)))
	case glsl.OpAtan2:
		return fv(l.atan2(n, a(0), a(1)))
	case glsl.OpPow:
		return fv(l.sop(ir.POW, n, a(0), a(1)))
	case glsl.OpExp:
		return fv(l.sop(ir.EX2, n, l.vop(ir.MUL, n, a(0), l.lit(math.Log2E))))
	case glsl.OpLog:
		return fv(l.vop(ir.MUL, n, l.sop(ir.LG2, n, a(0)), l.lit(math.Ln2)))
	case glsl.OpExp2:
		return fv(l.sop(ir.EX2, n, a(0)))
	case glsl.OpLog2:
		return fv(l.sop(ir.LG2, n, a(0)))
	case glsl.OpSqrt:
		return fv(l.sqrt(n, a(0)))
	case glsl.OpInversesqrt:
		return fv(l.sop(ir.RSQ, n, a(0)))
	case glsl.OpAbs:
		s := a(0)
		s.Abs, s.Neg = true, false
		return fv(s)
	case glsl.OpSign:
		p := l.vop(ir.SLT, n, l.lit(0), a(0))
		m := l.vop(ir.SLT, n, a(0), l.lit(0))
		return fv(l.vop(ir.ADD, n, p, neg(m)))
	case glsl.OpFloor:
		return fv(l.vop(ir.FLR, n, a(0)))
	case glsl.OpCeil:
		return fv(neg(l.vop(ir.FLR, n, neg(a(0)))))
	case glsl.OpFract:
		return fv(l.vop(ir.FRC, n, a(0)))
	case glsl.OpMod:
		y := a(1)
		q := l.vop(ir.FLR, n, l.vop(ir.MUL, n, a(0), l.rcp(n, args[1])))
		return fv(l.vop(ir.MAD, n, neg(y), q, a(0)))
	case glsl.OpMin:
		return fv(l.vop(ir.MIN, n, a(0), a(1)))
	case glsl.OpMax:
		return fv(l.vop(ir.MAX, n, a(0), a(1)))
	case glsl.OpClamp:
		lo, okLo := l.litScalar(a(1))
		hi, okHi := l.litScalar(a(2))
		if okLo && okHi && lo == 0 && hi == 1 && l.replicated(n, a(1), a(2)) {
			return fv(l.saturate(n, a(0)))
		}
		return fv(l.vop(ir.MIN, n, l.vop(ir.MAX, n, a(0), a(1)), a(2)))
	case glsl.OpMix:
		return fv(l.vop(ir.LRP, n, a(2), a(1), a(0)))
	case glsl.OpStep:
		return fv(l.vop(ir.SGE, n, a(1), a(0)))
	case glsl.OpSmoothstep:
		d := l.vop(ir.ADD, n, a(1), neg(a(0)))
		t := l.vop(ir.MUL, n, l.vop(ir.ADD, n, a(2), neg(a(0))), l.sop(ir.RCP, n, d))
		t = l.saturate(n, t)
		k := l.vop(ir.MAD, n, t, l.lit(-2), l.lit(3))
		return fv(l.vop(ir.MUL, n, l.vop(ir.MUL, n, t, t), k))
	case glsl.OpLength:
		m := int(args[0].t.Rows)
		if m == 1 {
			s := a(0)
			s.Abs, s.Neg = true, false
			return one(s)
		}
		return one(l.sqrt(1, l.dot(m, a(0), a(0))))
	case glsl.OpDistance:
		m := int(args[0].t.Rows)
		d := l.vop(ir.ADD, m, a(0), neg(a(1)))
		if m == 1 {
			d.Abs = true
			return one(d)
		}
		return one(l.sqrt(1, l.dot(m, d, d)))
	case glsl.OpDot:
		return one(l.dot(int(args[0].t.Rows), a(0), a(1)))
	case glsl.OpCross:
		x, y := a(0), a(1)
		yzx, zxy := ir.Swizzle{1, 2, 0, 3}, ir.Swizzle{2, 0, 1, 3}
		t := l.vop(ir.MUL, 3, swz(x, zxy), swz(y, yzx))
		return fv(l.vop(ir.MAD, 3, swz(x, yzx), swz(y, zxy), neg(t)))
	case glsl.OpNormalize:
		d := l.dot(n, a(0), a(0))
		return fv(l.vop(ir.MUL, n, a(0), splatX(l.sop(ir.RSQ, 1, d))))
	case glsl.OpFaceforward:
		d := l.dot(n, a(2), a(1))
		return fv(l.vop(ir.CMP, n, d, neg(a(0)), a(0)))
	case glsl.OpReflect:
		d := l.dot(n, a(1), a(0))
		d2 := l.vop(ir.MUL, 1, d, l.lit(-2))
		return fv(l.vop(ir.MAD, n, a(1), splatX(d2), a(0)))
	case glsl.OpRefract:
		i, nn, eta := a(0), a(1), splatX(a(2))
		d := splatX(l.dot(n, nn, i))
		// k = 1 - eta²·(1 - d²)
		om := l.vop(ir.MAD, 1, neg(d), d, l.lit(1))
		e2 := l.vop(ir.MUL, 1, eta, eta)
		k := splatX(l.vop(ir.MAD, 1, neg(e2), om, l.lit(1)))
		s := splatX(l.vop(ir.MAD, 1, eta, d, splatX(l.sqrt(1, k))))
		r := l.vop(ir.MUL, n, eta, i)
		r = l.vop(ir.MAD, n, neg(s), nn, r)
		return fv(l.vop(ir.CMP, n, k, r, l.lit(0)))
	case glsl.OpMatrixCompMult:
		out := val{t: rt}
		for j := range args[0].s {
			out.s = append(out.s, l.vop(ir.MUL, int(rt.Rows), args[0].s[j], args[1].s[j]))
		}
		return out
	case glsl.OpOuterProduct:
		out := val{t: rt}
		for j := 0; j < int(rt.Cols); j++ {
			out.s = append(out.s, l.vop(ir.MUL, int(rt.Rows), a(0), comp(a(1), j)))
		}
		return out
	case glsl.OpTranspose:
		out := val{t: rt}
		m := args[0]
		for j := 0; j < int(rt.Cols); j++ {
			cs := make([]ir.Src, rt.Rows)
			for i := range cs {
				cs[i] = comp(m.s[i], j)
			}
			out.s = append(out.s, l.pack(cs))
		}
		return out
	case glsl.OpLessThan:
		return fv(l.vop(ir.SLT, n, a(0), a(1)))
	case glsl.OpLessThanEqual:
		return fv(l.vop(ir.SGE, n, a(1), a(0)))
	case glsl.OpGreaterThan:
		return fv(l.vop(ir.SLT, n, a(1), a(0)))
	case glsl.OpGreaterThanEqual:
		return fv(l.vop(ir.SGE, n, a(0), a(1)))
	case glsl.OpEqual:
		return fv(l.vop(ir.SEQ, n, a(0), a(1)))
	case glsl.OpNotEqual:
		return fv(l.vop(ir.SNE, n, a(0), a(1)))
	case glsl.OpAny, glsl.OpAll:
		// Booleans are 0 or 1: any is the largest component, all the
		// smallest (halves first for a bvec4).
		op := ir.MAX
		if e.Op == glsl.OpAll {
			op = ir.MIN
		}
		b := a(0)
		x := splatX(l.vop(op, 1, comp(b, 0), comp(b, 1)))
		switch int(args[0].t.Rows) {
		case 4:
			x = splatX(l.vop(op, 1, x, splatX(l.vop(op, 1, comp(b, 2), comp(b, 3)))))
		case 3:
			x = splatX(l.vop(op, 1, x, comp(b, 2)))
		}
		return one(x)
	case glsl.OpNot:
		return fv(l.vop(ir.ADD, n, l.lit(1), neg(a(0))))
	case glsl.OpNoise1, glsl.OpNoise2, glsl.OpNoise3, glsl.OpNoise4:
		return fv(l.lit(0))
	case glsl.OpFtransform:
		l.failf(e.P, "ftransform() is not supported; write gl_ModelViewProjectionMatrix * gl_Vertex")
	case glsl.OpDFdx, glsl.OpDFdy, glsl.OpFwidth:
		l.failf(e.P, "%s(): the R3xx fragment unit has no derivatives", e.Op)
	}
	l.failf(e.P, "built-in function %s is not supported", e.Op)
	return val{}
}

// saturate clamps to [0, 1] with a saturating copy, which back ends fold
// into the producer's clamp.
func (l *lowerer) saturate(n int, x ir.Src) ir.Src {
	if n > 1 && l.replicated(n, x) {
		return splatX(l.saturate(1, splatX(x)))
	}
	r := l.temp()
	l.emit(ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: r, Mask: maskN(n)}, Src: [3]ir.Src{x}, Sat: true})
	return ir.S(r)
}

// bcastTo returns a value's single slot, a scalar replicated.
func bcastTo(v val) ir.Src {
	if len(v.s) == 0 {
		return ir.Src{}
	}
	return bcast(v)
}

// dot is the dot product of two n-vectors, replicated.
func (l *lowerer) dot(n int, a, b ir.Src) ir.Src {
	switch n {
	case 1:
		return splatX(l.vop(ir.MUL, 1, a, b))
	case 2:
		return splatX(l.vop(ir.DP2, 1, a, b))
	case 3:
		return splatX(l.vop(ir.DP3, 1, a, b))
	}
	return splatX(l.vop(ir.DP4, 1, a, b))
}

// rcp is 1/v per component (once for a scalar).
func (l *lowerer) rcp(n int, v val) ir.Src {
	if v.t.IsScalar() {
		return splatX(l.sop(ir.RCP, 1, v.s[0]))
	}
	return l.sop(ir.RCP, n, v.s[0])
}

// quotient is a / b given r = rcp(b): q = a·r, then one Newton step on
// the quotient with fused operations, q + (a - b·q)·r (each MAD rounds
// once). a·r alone rounds twice (the reciprocal and the product) and errs
// by up to two units in the last place; the step brings the error to about
// one rounding. Measured on piglit's fs-* built-ins without the preshader
// (conform/ireval, cmd/rglconform), it passes 6 more tests on the
// truncating FP24 unit for two more ALU instructions per division.
func (l *lowerer) quotient(n int, a, b, r ir.Src) ir.Src {
	q := l.vop(ir.MUL, n, a, r)
	e := l.vop(ir.MAD, n, neg(b), q, a)
	return l.vop(ir.MAD, n, e, r, q)
}

// sqrt is rcp(rsq(x)): exact 0 at 0 (rsq 0 = ∞ or FP24's maximum, whose
// reciprocal is 0).
func (l *lowerer) sqrt(n int, x ir.Src) ir.Src {
	return l.sop(ir.RCP, n, l.sop(ir.RSQ, n, x))
}

// horner evaluates the polynomial c at x (component-wise).
func (l *lowerer) horner(n int, x ir.Src, c []float32) ir.Src {
	acc := l.lit(c[len(c)-1])
	for k := len(c) - 2; k >= 0; k-- {
		acc = l.vop(ir.MAD, n, acc, x, l.lit(c[k]))
	}
	return acc
}

// acos: sqrt(1-|x|)·P(|x|) for x >= 0, π - that for x < 0.
func (l *lowerer) acos(n int, x ir.Src) ir.Src {
	ax := x
	ax.Abs, ax.Neg = true, false
	p := l.horner(n, ax, acosPoly)
	r := l.vop(ir.MUL, n, p, l.sqrt(n, l.vop(ir.ADD, n, l.lit(1), neg(ax))))
	return l.vop(ir.CMP, n, x, r, l.vop(ir.ADD, n, l.lit(math.Pi), neg(r)))
}

// asin = π/2 - acos: t = π/2 - sqrt(1-|x|)·P(|x|) for x >= 0, -t for
// x < 0 (π/2 - (π - r) = -(π/2 - r)).
func (l *lowerer) asin(n int, x ir.Src) ir.Src {
	ax := x
	ax.Abs, ax.Neg = true, false
	p := l.horner(n, ax, acosPoly)
	t := l.vop(ir.MAD, n, neg(p), l.sqrt(n, l.vop(ir.ADD, n, l.lit(1), neg(ax))), l.lit(math.Pi/2))
	return l.vop(ir.CMP, n, x, t, neg(t))
}

// atanUnit is atan on [0, 1].
func (l *lowerer) atanUnit(n int, t ir.Src) ir.Src {
	t2 := l.vop(ir.MUL, n, t, t)
	return l.vop(ir.MUL, n, t, l.horner(n, t2, atanPoly))
}

// atan(x): t = min(|x|, 1/|x|), a = atan(t), π/2 - a when |x| > 1,
// negated for x < 0.
func (l *lowerer) atan(n int, x ir.Src) ir.Src {
	ax := x
	ax.Abs, ax.Neg = true, false
	inv := l.sop(ir.RCP, n, ax)
	t := l.vop(ir.MIN, n, ax, inv)
	a := l.atanUnit(n, t)
	big := l.vop(ir.SLT, n, l.lit(1), ax)
	a = l.vop(ir.CND, n, big, l.vop(ir.ADD, n, l.lit(math.Pi/2), neg(a)), a)
	return l.vop(ir.CMP, n, x, a, neg(a))
}

// atan2(y, x): a = atan(min/max of |x|, |y|), π/2 - a when |y| > |x|,
// π - a when x < 0, negated when y < 0.
func (l *lowerer) atan2(n int, y, x ir.Src) ir.Src {
	ax, ay := x, y
	ax.Abs, ax.Neg = true, false
	ay.Abs, ay.Neg = true, false
	mx := l.vop(ir.MAX, n, ax, ay)
	mn := l.vop(ir.MIN, n, ax, ay)
	mx = l.vop(ir.MAX, n, mx, l.lit(1e-30))
	t := l.vop(ir.MUL, n, mn, l.sop(ir.RCP, n, mx))
	a := l.atanUnit(n, t)
	steep := l.vop(ir.SLT, n, ax, ay)
	a = l.vop(ir.CND, n, steep, l.vop(ir.ADD, n, l.lit(math.Pi/2), neg(a)), a)
	a = l.vop(ir.CMP, n, x, a, l.vop(ir.ADD, n, l.lit(math.Pi), neg(a)))
	return l.vop(ir.CMP, n, y, a, neg(a))
}

// texture lowers texture2D/Proj/Bias and textureCube.
func (l *lowerer) texture(e *glsl.BuiltinCall) val {
	if l.stage != glsl.StageFragment {
		l.failf(e.P, "%s in a vertex shader: the target has no vertex texture units", e.Op)
	}
	args := l.exprs(e.Args)
	s := args[0].s[0]
	if s.File != ir.None {
		l.failf(e.P, "%s: the sampler is not a uniform", e.Op)
	}
	unit := s.Index
	coord := args[1].s[0]
	var bias *ir.Src
	if len(args) > 2 {
		b := splatX(args[2].s[0])
		bias = &b
	}
	var op ir.Op
	var tgt ir.TexTarget
	switch e.Op {
	case glsl.OpTexture2D:
		op, tgt = ir.TEX, ir.Tex2D
	case glsl.OpTexture2DProj:
		op, tgt = ir.TXP, ir.Tex2D
		if args[1].t.Rows == 3 {
			coord = swz(coord, ir.Swizzle{0, 1, 2, 2})
		}
	case glsl.OpTextureCube:
		op, tgt = ir.TEX, ir.TexCube
	case glsl.OpTexture3D:
		op, tgt = ir.TEX, ir.Tex3D
	case glsl.OpTexture1D:
		op, tgt = ir.TEX, ir.Tex2D
		coord = swz(coord, ir.Swizzle{0, ir.SwzZero, ir.SwzZero, ir.SwzZero})
	default:
		l.failf(e.P, "%s is not supported by this target", e.Op)
	}
	if bias != nil {
		if op == ir.TXP {
			// Divide first, then bias.
			w := splatX(l.sop(ir.RCP, 1, comp(coord, 3)))
			coord = l.vop(ir.MUL, 3, coord, w)
		}
		op = ir.TXB
		c := l.temp()
		l.emit(ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: c, Mask: 7}, Src: [3]ir.Src{coord}})
		l.emit(ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: c, Mask: 8}, Src: [3]ir.Src{*bias}})
		coord = ir.S(c)
	}
	r := l.temp()
	l.emit(ir.Inst{Op: op, Dst: ir.Dst{Reg: r, Mask: ir.MaskXYZW}, Src: [3]ir.Src{coord}, Unit: unit, Target: tgt})
	return val{t: e.Sig.Ret, s: []ir.Src{ir.S(r)}}
}
