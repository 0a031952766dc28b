package lower

import (
	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/ir"
)

// Loops the vertex unit runs (Options.Loops): a for loop of the form
//
//	for (i = start; i op limit; i += step)   op one of < <= > >=
//
// whose index the body never writes, whose step is a constant of the
// direction op needs and whose limit reads only uniforms and constants,
// becomes an IR loop (bgnloop/endloop)
// instead of being unrolled: its trip count is computed once, before the
// loop, from start and limit, and the body is lowered once. Loops whose
// count is a compile-time constant stay unrolled unless
// Options.PreferLoops asks otherwise (a back end whose unrolled program is
// too long retries so). An IR loop nests no other.
//
// The count, for an integer index (GLSL arithmetic, exact while the
// values fit the mantissa): n = floor((limit - start + step - 1)/step) for
// <, floor((limit - start)/step) + 1 for <=, mirrored for > and >=, at
// least 0; each floor is taken of the quotient plus 0.5/step, so a
// quotient rounded a little below an integer still counts it. For a float
// index, n = ceil((limit - start)/step) for < (the body runs while the
// accumulated index stays below the limit; float accumulation may differ
// by one iteration where the limit is a multiple of an inexact step).
//
// With Options.DynamicLoops n > 0, a loop of any other form (while,
// do-while, a for loop whose limit depends on vertex data or whose body
// writes the index) that is not a compile-time constant becomes an IR loop
// of n iterations: its condition is evaluated in the body as the unrolled
// form does, and the first iteration where it fails clears the loop's
// break flag, so the rest run predicated off. A loop that would run more
// than n times is cut off after n (the vertex unit has no conditional
// branch to leave early; drivers pass the most their loop unit runs).
// Lowering tries unrolling first: the option is for programs that failed
// without it.
//
// In the body, break, continue and return work through the execution
// flags as in unrolled loops; the loop's break and continue flags live in
// registers (break set before the loop, continue each iteration), and so
// does the function's return flag when the body returns; nothing known
// about a temporary before the loop is assumed in it.

// hwForm is a recognised loop.
type hwForm struct {
	idx   *glsl.Var
	cmp   glsl.BinaryOp
	limit glsl.Expr
	step  float64
}

// tryHWLoop lowers s as an IR loop when the options allow it and s has
// the form; it reports whether it did.
func (l *lowerer) tryHWLoop(s *glsl.Loop) bool {
	if !l.opts.Loops || l.stage != glsl.StageVertex || l.hwDepth > 0 {
		return false
	}
	constant := s.Info != nil && s.Info.Iterations >= 0
	if constant && !l.opts.PreferLoops {
		return false
	}
	if s.Kind == glsl.LoopFor {
		if f, ok := recognise(s); ok {
			l.hwLoop(s, f)
			return true
		}
	}
	if l.opts.DynamicLoops > 0 && !constant {
		l.dynLoop(s)
		return true
	}
	return false
}

// recognise matches the loop form.
func recognise(s *glsl.Loop) (hwForm, bool) {
	var f hwForm
	switch init := s.Init.(type) {
	case *glsl.VarDecl:
		if init.Init == nil {
			return f, false
		}
		f.idx = init.Var
	case *glsl.ExprStmt:
		a, ok := init.X.(*glsl.Assign)
		if !ok || a.Op != glsl.OpAssign {
			return f, false
		}
		ref, ok := a.LHS.(*glsl.VarRef)
		if !ok {
			return f, false
		}
		f.idx = ref.Var
	default:
		return f, false
	}
	if t := f.idx.Type; !t.IsScalar() || (t.Base != glsl.Int && t.Base != glsl.Float) {
		return f, false
	}
	cond, ok := s.Cond.(*glsl.Binary)
	if !ok || s.CondVar != nil {
		return f, false
	}
	isIdx := func(e glsl.Expr) bool {
		r, ok := e.(*glsl.VarRef)
		return ok && r.Var == f.idx
	}
	switch {
	case isIdx(cond.X):
		f.cmp, f.limit = cond.Op, cond.Y
	case isIdx(cond.Y):
		f.limit = cond.X
		f.cmp = map[glsl.BinaryOp]glsl.BinaryOp{glsl.OpLess: glsl.OpGreater, glsl.OpGreater: glsl.OpLess,
			glsl.OpLessEq: glsl.OpGreaterEq, glsl.OpGreaterEq: glsl.OpLessEq}[cond.Op]
	default:
		return f, false
	}
	switch post := s.Post.(type) {
	case *glsl.Unary:
		if !isIdx(post.X) {
			return f, false
		}
		switch post.Op {
		case glsl.OpPreInc, glsl.OpPostInc:
			f.step = 1
		case glsl.OpPreDec, glsl.OpPostDec:
			f.step = -1
		}
	case *glsl.Assign:
		k, ok := post.RHS.(*glsl.ConstExpr)
		if !isIdx(post.LHS) || !ok || (post.Op != glsl.OpAdd && post.Op != glsl.OpSub) {
			return f, false
		}
		f.step = k.Value.C[0]
		if post.Op == glsl.OpSub {
			f.step = -f.step
		}
	}
	switch f.cmp {
	case glsl.OpLess, glsl.OpLessEq:
		ok = f.step > 0
	case glsl.OpGreater, glsl.OpGreaterEq:
		ok = f.step < 0
	default:
		ok = false
	}
	if !ok {
		return f, false
	}
	written := map[*glsl.Var]bool{}
	writes(s.Body, written)
	if written[f.idx] {
		return f, false
	}
	// The limit reads uniforms and constants only: the count is computed
	// once, before the loop, by the driver.
	stable := true
	walkExpr(f.limit, func(e glsl.Expr) {
		if r, ok := e.(*glsl.VarRef); ok && r.Var.Storage != glsl.StorageUniform && r.Var.Value == nil {
			stable = false
		}
		if _, ok := e.(*glsl.Call); ok {
			stable = false
		}
	})
	return f, stable
}

// hwLoop lowers a recognised loop as an IR loop.
func (l *lowerer) hwLoop(s *glsl.Loop, f hwForm) {
	l.stmt(s.Init)
	if l.predicate().st == never {
		return
	}
	// The trip count, from the index's start and the limit.
	start := l.scalar(l.load(l.varLval(f.idx)))
	limit := l.scalar(l.expr(f.limit))
	step := f.step
	d := l.vop(ir.ADD, 1, limit, neg(start)) // limit - start
	if step < 0 {
		d, step = splatX(neg(d)), -step
	}
	var n ir.Src
	inv := float32(1 / step)
	if f.idx.Type.Base == glsl.Int {
		k := float32(step - 1) // <
		if f.cmp == glsl.OpLessEq || f.cmp == glsl.OpGreaterEq {
			k = float32(step)
		}
		q := l.vop(ir.MAD, 1, l.vop(ir.ADD, 1, d, l.lit(k)), l.lit(inv), l.lit(float32(0.5/step)))
		n = l.vop(ir.FLR, 1, q)
	} else {
		q := l.vop(ir.MUL, 1, d, l.lit(inv))
		if f.cmp == glsl.OpLessEq || f.cmp == glsl.OpGreaterEq {
			n = l.vop(ir.ADD, 1, l.vop(ir.FLR, 1, q), l.lit(1))
		} else {
			n = splatX(neg(l.vop(ir.FLR, 1, splatX(neg(q))))) // ceil
		}
	}
	n = l.vop(ir.MAX, 1, n, l.lit(0))

	lf := l.beginHW(s, n)
	l.body(s, lf)
	l.endHW(lf)
}

// dynLoop lowers a loop whose condition is known only at run time as an
// IR loop of Options.DynamicLoops iterations, the condition clearing the
// break flag.
func (l *lowerer) dynLoop(s *glsl.Loop) {
	if s.Init != nil {
		l.stmt(s.Init)
	}
	if l.predicate().st == never {
		return
	}
	lf := l.beginHW(s, l.lit(float32(l.opts.DynamicLoops)))
	test := func() {
		if s.CondVar != nil {
			l.stmt(s.CondVar)
		}
		if s.Cond == nil {
			return
		}
		c := l.scalar(l.expr(s.Cond))
		l.pushCond(c, true)
		l.clear(lf.brk)
		l.popCond()
	}
	if s.Kind != glsl.LoopDoWhile {
		test()
	}
	l.body(s, lf)
	if s.Kind == glsl.LoopDoWhile {
		test()
	}
	l.endHW(lf)
}

// beginHW opens an IR loop of n iterations with its flags in registers.
func (l *lowerer) beginHW(s *glsl.Loop, n ir.Src) *loopFrame {
	// A return in the body clears the function's flag in some iteration:
	// it becomes a register. (The flags of enclosing loops stay as they
	// are: a break or continue in the body is the IR loop's own.)
	if hasReturn(s.Body) {
		l.materialize(l.frames[len(l.frames)-1].live)
	}
	lf := &loopFrame{brk: &flag{}}
	l.materialize(lf.brk)
	l.loops = append(l.loops, lf)
	l.pushFlag(lf.brk)
	l.forget()
	l.hwDepth++
	l.emit(ir.Inst{Op: ir.BGNLOOP, Src: [3]ir.Src{splatX(n)}})
	return lf
}

// body lowers an IR loop's body and its post expression.
func (l *lowerer) body(s *glsl.Loop, lf *loopFrame) {
	lf.cont = &flag{}
	l.materialize(lf.cont)
	l.pushFlag(lf.cont)
	if s.Body != nil {
		l.stmt(s.Body)
	}
	l.popFlag(lf.cont)
	if s.Post != nil {
		l.pos = s.Post.Pos()
		l.expr(s.Post)
	}
}

// endHW closes an IR loop.
func (l *lowerer) endHW(lf *loopFrame) {
	l.emit(ir.Inst{Op: ir.ENDLOOP})
	l.hwDepth--
	l.forget()
	l.popFlag(lf.brk)
	l.loops = l.loops[:len(l.loops)-1]
}

// materialize makes a flag a register holding 1 when it is known set.
func (l *lowerer) materialize(f *flag) {
	if f.st != always {
		return
	}
	f.reg = l.temp()
	l.emit(ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: f.reg, Mask: 1}, Src: [3]ir.Src{l.lit(1)}})
	f.st = dynamic
	l.pgen++
}

// forget drops what is known about temporaries (a loop body runs with the
// values of earlier iterations).
func (l *lowerer) forget() {
	l.lits = map[ir.Reg]*[4]litVal{}
	l.pgen++
}

// writes records the variables a statement writes, through the functions
// it calls too (a call may write a global).
func writes(s glsl.Stmt, out map[*glsl.Var]bool) {
	seen := map[*glsl.Function]bool{}
	var stmt func(s glsl.Stmt)
	stmt = func(s glsl.Stmt) {
		root := func(e glsl.Expr) {
			for {
				switch x := e.(type) {
				case *glsl.VarRef:
					out[x.Var] = true
					return
				case *glsl.Index:
					e = x.X
				case *glsl.FieldSel:
					e = x.X
				case *glsl.Swizzle:
					e = x.X
				default:
					return
				}
			}
		}
		visit := func(e glsl.Expr) {
			switch x := e.(type) {
			case *glsl.Assign:
				root(x.LHS)
			case *glsl.Unary:
				if x.Op >= glsl.OpPreInc {
					root(x.X)
				}
			case *glsl.Call:
				for i, a := range x.Args {
					if i < len(x.Func.Params) && x.Func.Params[i].Dir != glsl.DirIn {
						root(a)
					}
				}
				if f := x.Func; !seen[f] && f.Body != nil {
					seen[f] = true
					stmt(f.Body)
				}
			}
		}
		walkStmt(s, func(e glsl.Expr) { walkExpr(e, visit) })
	}
	stmt(s)
}

// hasReturn reports whether a statement contains a return (not counting
// the functions it calls).
func hasReturn(s glsl.Stmt) bool {
	switch x := s.(type) {
	case *glsl.Return:
		return true
	case *glsl.Block:
		for _, t := range x.Stmts {
			if hasReturn(t) {
				return true
			}
		}
	case *glsl.If:
		return hasReturn(x.Then) || hasReturn(x.Else)
	case *glsl.Loop:
		return hasReturn(x.Body)
	}
	return false
}

// walkStmt calls fn for every expression of a statement.
func walkStmt(s glsl.Stmt, fn func(glsl.Expr)) {
	switch x := s.(type) {
	case *glsl.Block:
		for _, t := range x.Stmts {
			walkStmt(t, fn)
		}
	case *glsl.VarDecl:
		if x.Init != nil {
			fn(x.Init)
		}
	case *glsl.ExprStmt:
		fn(x.X)
	case *glsl.If:
		fn(x.Cond)
		walkStmt(x.Then, fn)
		walkStmt(x.Else, fn)
	case *glsl.Loop:
		walkStmt(x.Init, fn)
		if x.CondVar != nil {
			walkStmt(x.CondVar, fn)
		}
		if x.Cond != nil {
			fn(x.Cond)
		}
		if x.Post != nil {
			fn(x.Post)
		}
		walkStmt(x.Body, fn)
	case *glsl.Return:
		if x.X != nil {
			fn(x.X)
		}
	}
}

// walkExpr calls fn for an expression and every sub-expression.
func walkExpr(e glsl.Expr, fn func(glsl.Expr)) {
	if e == nil {
		return
	}
	fn(e)
	switch x := e.(type) {
	case *glsl.Index:
		walkExpr(x.X, fn)
		walkExpr(x.Index, fn)
	case *glsl.FieldSel:
		walkExpr(x.X, fn)
	case *glsl.Swizzle:
		walkExpr(x.X, fn)
	case *glsl.Unary:
		walkExpr(x.X, fn)
	case *glsl.Binary:
		walkExpr(x.X, fn)
		walkExpr(x.Y, fn)
	case *glsl.Assign:
		walkExpr(x.LHS, fn)
		walkExpr(x.RHS, fn)
	case *glsl.Cond:
		walkExpr(x.C, fn)
		walkExpr(x.X, fn)
		walkExpr(x.Y, fn)
	case *glsl.Seq:
		walkExpr(x.X, fn)
		walkExpr(x.Y, fn)
	case *glsl.Call:
		for _, a := range x.Args {
			walkExpr(a, fn)
		}
	case *glsl.BuiltinCall:
		for _, a := range x.Args {
			walkExpr(a, fn)
		}
	case *glsl.Construct:
		for _, a := range x.Args {
			walkExpr(a, fn)
		}
	}
}
