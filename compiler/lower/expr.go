package lower

import (
	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/ir"
)

// hasEffects reports whether evaluating any of the expressions writes
// something (assignments, increments, calls of user functions).
func hasEffects(es ...glsl.Expr) bool {
	for _, e := range es {
		if effects(e) {
			return true
		}
	}
	return false
}

func effects(e glsl.Expr) bool {
	switch e := e.(type) {
	case nil, *glsl.ConstExpr, *glsl.VarRef:
		return false
	case *glsl.Index:
		return hasEffects(e.X, e.Index)
	case *glsl.FieldSel:
		return effects(e.X)
	case *glsl.Swizzle:
		return effects(e.X)
	case *glsl.Unary:
		return e.Op >= glsl.OpPreInc || effects(e.X)
	case *glsl.Binary:
		return hasEffects(e.X, e.Y)
	case *glsl.Cond:
		return hasEffects(e.C, e.X, e.Y)
	case *glsl.Seq:
		return hasEffects(e.X, e.Y)
	case *glsl.BuiltinCall:
		return hasEffects(e.Args...)
	case *glsl.Construct:
		return hasEffects(e.Args...)
	}
	return true // Assign, Call
}

// scalar returns component x of a scalar value.
func (l *lowerer) scalar(v val) ir.Src { return splatX(v.s[0]) }

// bcast returns v's single slot, a scalar replicated.
func bcast(v val) ir.Src {
	if v.t.IsScalar() {
		return splatX(v.s[0])
	}
	return v.s[0]
}

// exprs evaluates a list in order; values read before a later side
// effect are copied first.
func (l *lowerer) exprs(es []glsl.Expr) []val {
	out := make([]val, len(es))
	for i, e := range es {
		out[i] = l.expr(e)
		if hasEffects(es[i+1:]...) {
			out[i] = l.snap(out[i])
		}
	}
	return out
}

func (l *lowerer) expr(e glsl.Expr) val {
	switch e := e.(type) {
	case *glsl.ConstExpr:
		return l.constVal(e.Value)
	case *glsl.VarRef:
		if k, ok := l.known[e.Var]; ok {
			return l.constVal(k)
		}
		return l.load(l.lvalRead(e.Var))
	case *glsl.Index, *glsl.FieldSel, *glsl.Swizzle:
		if l.rootIsVar(e) {
			return l.load(l.lvalue(e))
		}
		return l.selectExpr(e)
	case *glsl.Unary:
		return l.unary(e)
	case *glsl.Binary:
		return l.binary(e)
	case *glsl.Assign:
		return l.assign(e)
	case *glsl.Cond:
		c := l.scalar(l.expr(e.C))
		if x, ok := l.litScalar(c); ok {
			if x != 0 {
				return l.expr(e.X)
			}
			return l.expr(e.Y)
		}
		var a, b val
		if hasEffects(e.X, e.Y) {
			c = l.snap(val{t: glsl.TypeBool, s: []ir.Src{c}}).s[0]
			l.pushCond(c, false)
			a = l.snap(l.expr(e.X))
			l.popCond()
			l.pushCond(c, true)
			b = l.snap(l.expr(e.Y))
			l.popCond()
		} else {
			a, b = l.expr(e.X), l.expr(e.Y)
		}
		return l.sel(c, a, b)
	case *glsl.Seq:
		l.expr(e.X)
		return l.expr(e.Y)
	case *glsl.Call:
		return l.call(e)
	case *glsl.BuiltinCall:
		return l.builtin(e)
	case *glsl.Construct:
		return l.construct(e.T, l.exprs(e.Args))
	}
	l.failf(e.Pos(), "unsupported expression %T", e)
	return val{}
}

// rootIsVar reports whether an access path starts at a variable (any
// storage: reads of inputs and uniforms go through lvalues too).
func (l *lowerer) rootIsVar(e glsl.Expr) bool {
	switch x := e.(type) {
	case *glsl.VarRef:
		_, k := l.known[x.Var]
		return !k
	case *glsl.Index:
		return l.rootIsVar(x.X)
	case *glsl.FieldSel:
		return l.rootIsVar(x.X)
	case *glsl.Swizzle:
		return l.rootIsVar(x.X)
	}
	return false
}

// lvalRead is a variable's slots (constants and inputs included).
func (l *lowerer) lvalRead(v *glsl.Var) lval { return l.regsLval(v.Type, l.storage(v)) }

// lvalue resolves an assignable (or readable) access path.
func (l *lowerer) lvalue(e glsl.Expr) lval {
	switch e := e.(type) {
	case *glsl.VarRef:
		return l.lvalRead(e.Var)
	case *glsl.FieldSel:
		b := l.lvalue(e.X)
		off := fieldOffset(e.X.Type().Struct, e.Field)
		n := slotCount(e.T)
		return mapAlts(b, e.T, func(s []lslot) []lslot { return s[off : off+n] })
	case *glsl.Swizzle:
		b := l.lvalue(e.X)
		return mapAlts(b, e.T, func(s []lslot) []lslot {
			cs := make([]uint8, len(e.Comps))
			for i, c := range e.Comps {
				cs[i] = s[0].comps[c]
			}
			return []lslot{{s[0].reg, cs}}
		})
	case *glsl.Index:
		b := l.lvalue(e.X)
		xt := e.X.Type()
		idx := l.scalar(l.expr(e.Index))
		pick := func(k int) func(s []lslot) []lslot {
			switch {
			case xt.IsArray():
				n := slotCount(xt.Elem())
				return func(s []lslot) []lslot { return s[k*n : (k+1)*n] }
			case xt.IsMatrix():
				return func(s []lslot) []lslot { return s[k : k+1] }
			default:
				return func(s []lslot) []lslot { return []lslot{{s[0].reg, []uint8{s[0].comps[k]}}} }
			}
		}
		count := int(xt.Rows)
		switch {
		case xt.IsArray():
			count = xt.Len
		case xt.IsMatrix():
			count = int(xt.Cols)
		}
		if x, ok := l.litScalar(idx); ok {
			k := int(x)
			if k < 0 || k >= count {
				// Out of range: undefined; read element 0, write nothing.
				k = 0
			}
			return mapAlts(b, e.T, pick(k))
		}
		if count > 256 {
			l.failf(e.P, "dynamic index into %d elements: the target selects among at most 256", count)
		}
		idx = l.snap(val{t: glsl.TypeFloat, s: []ir.Src{idx}}).s[0]
		out := lval{t: e.T}
		for _, a := range b.alts {
			for k := 0; k < count; k++ {
				c := l.vop(ir.SEQ, 1, idx, l.lit(float32(k)))
				if a.cond != nil {
					c = l.vop(ir.MUL, 1, *a.cond, c)
				}
				cc := splatX(c)
				out.alts = append(out.alts, lalt{cond: &cc, slots: pick(k)(a.slots)})
			}
		}
		// The first alternative is what a read returns when no index
		// matches; conditions stay for writes.
		return out
	}
	l.failf(e.Pos(), "not an lvalue: %T", e)
	return lval{}
}

func mapAlts(b lval, t glsl.Type, f func([]lslot) []lslot) lval {
	out := lval{t: t, alts: make([]lalt, len(b.alts))}
	for i, a := range b.alts {
		out.alts[i] = lalt{cond: a.cond, slots: f(a.slots)}
	}
	return out
}

// selectExpr reads an access path whose root is not a variable (a call
// result, a constructor): the base is evaluated, then selected from.
func (l *lowerer) selectExpr(e glsl.Expr) val {
	var x glsl.Expr
	switch e := e.(type) {
	case *glsl.Index:
		x = e.X
	case *glsl.FieldSel:
		x = e.X
	case *glsl.Swizzle:
		x = e.X
	}
	base := l.snap(l.expr(x))
	// Bind the base to a scratch variable and reuse the lvalue walk.
	tmp := &glsl.Var{Name: "tmp", Type: x.Type()}
	regs := make([]ir.Reg, len(base.s))
	for i, s := range base.s {
		if s.File == ir.Temp && s.Swz == ir.Identity && !s.Neg && !s.Abs {
			regs[i] = s.Reg
			continue
		}
		// A plain four-component copy: vop would compute a replicated
		// value once, in x, and the selection reads other components.
		r := l.temp()
		l.emit(ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: r, Mask: ir.MaskXYZW}, Src: [3]ir.Src{s}})
		regs[i] = r
	}
	l.vars[tmp] = regs
	var re glsl.Expr
	switch e := e.(type) {
	case *glsl.Index:
		c := *e
		c.X = &glsl.VarRef{P: e.P, Var: tmp}
		re = &c
	case *glsl.FieldSel:
		c := *e
		c.X = &glsl.VarRef{P: e.P, Var: tmp}
		re = &c
	case *glsl.Swizzle:
		c := *e
		c.X = &glsl.VarRef{P: e.P, Var: tmp}
		re = &c
	}
	return l.load(l.lvalue(re))
}

func (l *lowerer) assign(e *glsl.Assign) val {
	if e.Op == glsl.OpAssign {
		v := l.expr(e.RHS)
		if hasEffects(e.LHS) {
			v = l.snap(v)
		}
		lv := l.lvalue(e.LHS)
		l.store(lv, v, false)
		return l.load(lv)
	}
	lv := l.lvalue(e.LHS)
	cur := l.load(lv)
	rhs := l.expr(e.RHS)
	v := l.arith(e.Op, cur, rhs, e.T, e.P)
	l.store(lv, v, false)
	return v
}

func (l *lowerer) unary(e *glsl.Unary) val {
	switch e.Op {
	case glsl.OpNeg:
		v := l.expr(e.X)
		out := val{t: v.t, s: make([]ir.Src, len(v.s))}
		for i, s := range v.s {
			out.s[i] = neg(s)
		}
		return out
	case glsl.OpLogicalNot:
		v := l.expr(e.X)
		return val{t: v.t, s: []ir.Src{l.vop(ir.ADD, 1, l.lit(1), neg(v.s[0]))}}
	}
	lv := l.lvalue(e.X)
	old := l.snap(l.load(lv))
	one := val{t: e.X.Type().ScalarType(), s: []ir.Src{l.lit(1)}}
	op := glsl.OpAdd
	if e.Op == glsl.OpPreDec || e.Op == glsl.OpPostDec {
		op = glsl.OpSub
	}
	nv := l.arith(op, old, one, e.T, e.P)
	l.store(lv, nv, false)
	if e.Op == glsl.OpPostInc || e.Op == glsl.OpPostDec {
		return old
	}
	return nv
}

func (l *lowerer) binary(e *glsl.Binary) val {
	switch e.Op {
	case glsl.OpLogicalAnd, glsl.OpLogicalOr:
		x := l.scalar(l.expr(e.X))
		if hasEffects(e.Y) {
			x = l.snap(val{t: glsl.TypeBool, s: []ir.Src{x}}).s[0]
			l.pushCond(x, e.Op == glsl.OpLogicalOr)
			y := l.snap(l.expr(e.Y))
			l.popCond()
			return l.logic(e.Op, x, l.scalar(y))
		}
		return l.logic(e.Op, x, l.scalar(l.expr(e.Y)))
	}
	vs := l.exprs([]glsl.Expr{e.X, e.Y})
	return l.arith(e.Op, vs[0], vs[1], e.T, e.P)
}

func (l *lowerer) logic(op glsl.BinaryOp, x, y ir.Src) val {
	var r ir.Src
	switch op {
	case glsl.OpLogicalAnd:
		r = l.vop(ir.MUL, 1, x, y)
	case glsl.OpLogicalOr:
		r = l.vop(ir.MAX, 1, x, y)
	default:
		r = l.vop(ir.SNE, 1, x, y)
	}
	return val{t: glsl.TypeBool, s: []ir.Src{r}}
}

// arith applies a binary operator to two evaluated operands.
func (l *lowerer) arith(op glsl.BinaryOp, x, y val, t glsl.Type, pos glsl.Pos) val {
	switch op {
	case glsl.OpLogicalAnd, glsl.OpLogicalOr, glsl.OpLogicalXor:
		return l.logic(op, l.scalar(x), l.scalar(y))
	case glsl.OpLess:
		return val{t: glsl.TypeBool, s: []ir.Src{l.vop(ir.SLT, 1, l.scalar(x), l.scalar(y))}}
	case glsl.OpGreater:
		return val{t: glsl.TypeBool, s: []ir.Src{l.vop(ir.SLT, 1, l.scalar(y), l.scalar(x))}}
	case glsl.OpLessEq:
		return val{t: glsl.TypeBool, s: []ir.Src{l.vop(ir.SGE, 1, l.scalar(y), l.scalar(x))}}
	case glsl.OpGreaterEq:
		return val{t: glsl.TypeBool, s: []ir.Src{l.vop(ir.SGE, 1, l.scalar(x), l.scalar(y))}}
	case glsl.OpEq, glsl.OpNotEq:
		return l.equal(x, y, op == glsl.OpNotEq)
	case glsl.OpMatMul:
		return l.matMul(x, y)
	}
	// Component-wise: per slot, scalars broadcast.
	n := max(len(x.s), len(y.s))
	out := val{t: t, s: make([]ir.Src, n)}
	types := slotTypes(t)
	for i := 0; i < n; i++ {
		a := x.s[min(i, len(x.s)-1)]
		b := y.s[min(i, len(y.s)-1)]
		if x.t.IsScalar() {
			a = splatX(a)
		}
		if y.t.IsScalar() {
			b = splatX(b)
		}
		rows := int(types[i].Rows)
		switch op {
		case glsl.OpAdd:
			out.s[i] = l.vop(ir.ADD, rows, a, b)
		case glsl.OpSub:
			out.s[i] = l.vop(ir.ADD, rows, a, neg(b))
		case glsl.OpMul:
			out.s[i] = l.vop(ir.MUL, rows, a, b)
		case glsl.OpDiv:
			if t.Base == glsl.Int {
				out.s[i] = l.intDiv(rows, a, b)
			} else if y.t.IsScalar() {
				out.s[i] = l.quotient(rows, a, b, splatX(l.sop(ir.RCP, 1, b)))
			} else {
				out.s[i] = l.quotient(rows, a, b, l.sop(ir.RCP, rows, b))
			}
		default:
			l.failf(pos, "unsupported operator %s", op)
		}
	}
	return out
}

// intDiv divides integers held in floats, truncating toward zero:
// q = floor((|a| + 0.5) · rcp(|b|)) with the sign of a·b. With
// |a| = k|b| + r (0 <= r < |b|) the exact quotient of the floor is
// k + (r + 0.5)/|b|, at least 0.5/|b| from both k and k+1, so the result
// is exact while the relative error of rcp and the product (2^-16 on
// FP24, 2^-23 in float32, twice) keeps (|a| + 0.5)/|b| within 0.5/|b|:
// |a| < 2^14 on FP24 and |a| < 2^21 in float32.
func (l *lowerer) intDiv(n int, a, b ir.Src) ir.Src {
	absA, absB := a, b
	absA.Abs, absA.Neg = true, false
	absB.Abs, absB.Neg = true, false
	q := l.vop(ir.MUL, n, l.vop(ir.ADD, n, absA, l.lit(0.5)), l.sop(ir.RCP, n, absB))
	q = l.vop(ir.FLR, n, q)
	s := l.vop(ir.MUL, n, a, b)
	return l.vop(ir.CMP, n, s, q, neg(q))
}

// equal compares whole values: 1 when every component matches (or, for
// !=, when any differs). The components' absolute differences are summed
// (a dot product with 1 per slot) and the sum compared with 0: a sum of
// values >= 0 is 0 exactly when each is (it is at least the largest, and
// overflow saturates), so this is == per component without a comparison
// per component. Each difference is taken in the order that cancels a
// negation of an operand (|a - b| = |b - a|), leaving a plain sum a back
// end can fold.
func (l *lowerer) equal(x, y val, not bool) val {
	types := slotTypes(x.t)
	var sum ir.Src
	have := false
	for i, t := range types {
		n := int(t.Rows)
		a, b := x.s[i], y.s[i]
		if a.Neg && !b.Neg {
			a, b = b, a
		}
		d := l.vop(ir.ADD, n, a, neg(b))
		d.Abs, d.Neg = true, false
		var s ir.Src
		if n == 1 {
			s = splatX(d)
		} else {
			s = splatX(l.dot(n, d, l.lit(1)))
		}
		if have {
			sum = splatX(l.vop(ir.ADD, 1, sum, s))
		} else {
			sum, have = s, true
		}
	}
	op := ir.SEQ
	if not {
		op = ir.SNE
	}
	return val{t: glsl.TypeBool, s: []ir.Src{l.vop(op, 1, sum, l.lit(0))}}
}

// matMul is the linear-algebra product of mat*mat, mat*vec and vec*mat.
func (l *lowerer) matMul(x, y val) val {
	switch {
	case x.t.IsMatrix() && y.t.IsMatrix():
		// Column j of the result is x * y[j].
		out := val{t: glsl.Mat(int(y.t.Cols), int(x.t.Rows))}
		for j := 0; j < int(y.t.Cols); j++ {
			col := l.matVec(x, y.s[j], int(y.t.Rows))
			out.s = append(out.s, col)
		}
		return out
	case x.t.IsMatrix():
		return val{t: glsl.Vec(glsl.Float, int(x.t.Rows)), s: []ir.Src{l.matVec(x, y.s[0], int(y.t.Rows))}}
	default:
		// v * m: component j is dot(v, column j).
		cols := int(y.t.Cols)
		rows := int(y.t.Rows)
		r := l.temp()
		dp := [5]ir.Op{2: ir.DP2, 3: ir.DP3, 4: ir.DP4}[rows]
		for j := 0; j < cols; j++ {
			l.emit(ir.Inst{Op: dp, Dst: ir.Dst{Reg: r, Mask: 1 << j}, Src: [3]ir.Src{x.s[0], y.s[j]}})
		}
		return val{t: glsl.Vec(glsl.Float, cols), s: []ir.Src{ir.S(r)}}
	}
}

// matVec is m * v: the sum of column k times v[k] (MUL then MADs).
func (l *lowerer) matVec(m val, v ir.Src, n int) ir.Src {
	rows := int(m.t.Rows)
	acc := l.vop(ir.MUL, rows, m.s[0], comp(v, 0))
	for k := 1; k < n; k++ {
		acc = l.vop(ir.MAD, rows, m.s[k], comp(v, k), acc)
	}
	return acc
}

// components flattens a value into per-component sources.
func components(v val) []ir.Src {
	var out []ir.Src
	for i, t := range slotTypes(v.t) {
		for k := 0; k < int(t.Rows); k++ {
			out = append(out, comp(v.s[i], k))
		}
	}
	return out
}

// pack builds one slot from per-component sources: a swizzle when they
// come from one register, a literal when all are literals, else MOVs of
// same-register groups into a new temporary.
func (l *lowerer) pack(cs []ir.Src) ir.Src {
	// All literal?
	var q []float32
	for i, c := range cs {
		x, ok := l.litComp(c, 0)
		if !ok {
			q = nil
			break
		}
		_ = i
		q = append(q, float32(x))
	}
	if q != nil {
		return l.lit(q...)
	}
	same := true
	for _, c := range cs[1:] {
		if c.Reg != cs[0].Reg || c.Neg != cs[0].Neg || c.Abs != cs[0].Abs {
			same = false
		}
	}
	if same {
		s := cs[0]
		for i := range s.Swz {
			s.Swz[i] = cs[min(i, len(cs)-1)].Swz[0]
		}
		return s
	}
	r := l.temp()
	done := make([]bool, len(cs))
	for i, c := range cs {
		if done[i] {
			continue
		}
		var mask ir.Mask
		sw := ir.Splat(c.Swz[0])
		for j := i; j < len(cs); j++ {
			d := cs[j]
			if !done[j] && d.Reg == c.Reg && d.Neg == c.Neg && d.Abs == c.Abs {
				done[j] = true
				mask |= 1 << j
				sw[j] = d.Swz[0]
			}
		}
		c.Swz = sw
		l.emit(ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: r, Mask: mask}, Src: [3]ir.Src{c}})
	}
	return ir.S(r)
}

// convert converts one component between bool, int and float.
func (l *lowerer) convert(c ir.Src, from, to glsl.Base) ir.Src {
	switch {
	case from == to:
		return c
	case to == glsl.Bool:
		return splatX(l.vop(ir.SNE, 1, c, l.lit(0)))
	case to == glsl.Int && from == glsl.Float:
		// Truncation: floor(|x|) with x's sign.
		a := c
		a.Abs, a.Neg = true, false
		f := l.vop(ir.FLR, 1, a)
		return splatX(l.vop(ir.CMP, 1, c, f, neg(f)))
	}
	return c // bool -> int/float, int -> float: same numbers
}

// construct implements constructors (glsl.Construct's rules).
func (l *lowerer) construct(t glsl.Type, args []val) val {
	if t.IsArray() || t.Base == glsl.StructKind {
		out := val{t: t}
		for _, a := range args {
			out.s = append(out.s, a.s...)
		}
		return out
	}
	if t.IsMatrix() && len(args) == 1 && args[0].t.IsMatrix() {
		a := args[0]
		out := val{t: t}
		for j := 0; j < int(t.Cols); j++ {
			cs := make([]ir.Src, t.Rows)
			for i := range cs {
				switch {
				case j < int(a.t.Cols) && i < int(a.t.Rows):
					cs[i] = comp(a.s[j], i)
				case i == j:
					cs[i] = l.lit(1)
				default:
					cs[i] = l.lit(0)
				}
			}
			out.s = append(out.s, l.pack(cs))
		}
		return out
	}
	if len(args) == 1 && args[0].t.IsScalar() {
		c := l.convert(splatX(args[0].s[0]), args[0].t.Base, t.Base)
		if t.IsMatrix() {
			out := val{t: t}
			for j := 0; j < int(t.Cols); j++ {
				cs := make([]ir.Src, t.Rows)
				for i := range cs {
					cs[i] = l.lit(0)
					if i == j {
						cs[i] = c
					}
				}
				out.s = append(out.s, l.pack(cs))
			}
			return out
		}
		return val{t: t, s: []ir.Src{c}}
	}
	var cs []ir.Src
	for _, a := range args {
		for _, c := range components(a) {
			cs = append(cs, l.convert(c, a.t.Base, t.Base))
		}
	}
	out := val{t: t}
	k := 0
	for _, st := range slotTypes(t) {
		n := int(st.Rows)
		out.s = append(out.s, l.pack(cs[k:k+n]))
		k += n
	}
	return out
}
