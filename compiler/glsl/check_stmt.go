package glsl

// Statements (chapter 6).

// maxTripCount bounds the simulation that computes an Appendix A loop's
// iteration count, and maxTripBudget all such simulations of one shader;
// a loop beyond either reports Iterations -1.
const (
	maxTripCount  = 1 << 20
	maxTripBudget = 1 << 22
)

// block checks the statements of a compound statement in the current scope.
func (c *checker) block(b *compoundStmt) []Stmt {
	var out []Stmt
	for _, s := range b.stmts {
		out = append(out, c.stmt(s)...)
	}
	return out
}

// loopBody checks the body of a for or while loop in the loop's own scope:
// "For both for and while loops, the sub-statement does not introduce a
// new scope for variable names" (section 6.3), so "for (int i = 0; ...)
// { int i; }" and "while (bool b = ...) { bool b; }" redeclare (Mesa's
// grammar reads these bodies as statement_no_new_scope in every version).
// A do-while body is an ordinary statement with a scope of its own.
func (c *checker) loopBody(s astStmt) Stmt {
	if b, ok := s.(*compoundStmt); ok {
		return &Block{P: b.pos, Stmts: c.block(b)}
	}
	out := c.stmt(s)
	if len(out) == 1 {
		return out[0]
	}
	return &Block{P: s.stmtPos(), Stmts: out}
}

// scoped checks a statement in a new scope (the sub-statements of if, and
// compound statements).
func (c *checker) scoped(s astStmt) Stmt {
	if s == nil {
		return nil
	}
	c.push()
	defer c.pop()
	if b, ok := s.(*compoundStmt); ok {
		return &Block{P: b.pos, Stmts: c.block(b)}
	}
	out := c.stmt(s)
	if len(out) == 1 {
		return out[0]
	}
	return &Block{P: s.stmtPos(), Stmts: out}
}

func (c *checker) stmt(s astStmt) []Stmt {
	switch x := s.(type) {
	case *compoundStmt:
		return []Stmt{c.scoped(x)}
	case *varDecl, *precisionDecl, *invariantDecl, *funcDecl:
		return c.declStmt(s, false)
	case *exprStmt:
		e := c.expr(x.x)
		return []Stmt{&ExprStmt{P: x.pos, X: e}}
	case *emptyStmt:
		return nil
	case *ifStmt:
		cond := c.boolCond(x.cond, "if")
		if k, ok := constOf(cond); ok && k.Value.Type == TypeBool {
			// A constant condition: check both branches, keep the live
			// one. Calls in the dead branch do not count as uses, so a
			// function called only there need not be defined (Mesa
			// behaves so: piglit's glsl-const-folding-01).
			live, dead := x.then, x.els
			if !k.Value.Bool(0) {
				live, dead = dead, live
			}
			var out []Stmt
			if live != nil {
				out = append(out, c.scoped(live))
			}
			c.dead++
			c.scoped(dead)
			c.dead--
			return out
		}
		st := &If{P: x.pos, Cond: cond, Then: c.scoped(x.then)}
		if x.els != nil {
			st.Else = c.scoped(x.els)
		}
		return []Stmt{st}
	case *forStmt:
		return []Stmt{c.forLoop(x)}
	case *whileStmt:
		if c.opts.AppendixA && c.es {
			c.d.errorf(x.pos, "while loops are not allowed (GLSL ES 1.00 Appendix A)")
		}
		c.push()
		defer c.pop()
		l := &Loop{P: x.pos, Kind: LoopWhile}
		l.Cond, l.CondVar = c.loopCond(x.cond)
		c.loops = append(c.loops, &loopCtx{})
		l.Body = c.loopBody(x.body)
		c.loops = c.loops[:len(c.loops)-1]
		return []Stmt{l}
	case *doStmt:
		if c.opts.AppendixA && c.es {
			c.d.errorf(x.pos, "do-while loops are not allowed (GLSL ES 1.00 Appendix A)")
		}
		l := &Loop{P: x.pos, Kind: LoopDoWhile}
		c.loops = append(c.loops, &loopCtx{})
		l.Body = c.scoped(x.body)
		c.loops = c.loops[:len(c.loops)-1]
		l.Cond = c.boolCond(x.cond, "do-while")
		return []Stmt{l}
	case *returnStmt:
		return []Stmt{c.returnStmt(x)}
	case *jumpStmt:
		switch x.kind {
		case "discard":
			if c.stage != StageFragment {
				c.d.errorf(x.pos, "'discard' is allowed only in fragment shaders")
			}
			return []Stmt{&Jump{P: x.pos, Kind: JumpDiscard}}
		case "break", "continue":
			if len(c.loops) == 0 {
				c.d.errorf(x.pos, "'%s' is allowed only inside a loop", x.kind)
			}
			k := JumpBreak
			if x.kind == "continue" {
				k = JumpContinue
			}
			return []Stmt{&Jump{P: x.pos, Kind: k}}
		}
	}
	return nil
}

// boolCond checks the condition of if and do-while: a bool scalar.
func (c *checker) boolCond(e astExpr, what string) Expr {
	x := c.expr(e)
	if t := x.Type(); t.IsValid() && t != TypeBool {
		c.d.errorf(exprStart(e), "the condition of '%s' must be a bool, not '%s'", what, t)
	}
	return x
}

// loopCond checks a while or for condition, which may declare a variable.
func (c *checker) loopCond(cond *condition) (Expr, *VarDecl) {
	if cond == nil {
		return nil, nil
	}
	if cond.x != nil {
		return c.boolCond(cond.x, "loop"), nil
	}
	stmts := c.varDecl(cond.decl, false)
	if len(stmts) != 1 {
		return nil, nil
	}
	vd := stmts[0].(*VarDecl)
	if vd.Var.Type.IsValid() && vd.Var.Type != TypeBool {
		c.d.errorf(vd.P, "the condition of a loop must be a bool, not '%s'", vd.Var.Type)
	}
	return &VarRef{P: vd.P, Var: vd.Var}, vd
}

func (c *checker) returnStmt(x *returnStmt) Stmt {
	if c.fn == nil {
		return &Return{P: x.pos}
	}
	c.returned = true
	if x.x == nil {
		if c.fn.Ret != TypeVoid {
			c.d.errorf(x.pos, "function '%s' must return a value of type '%s'", c.fn.Name, c.fn.Ret)
		}
		return &Return{P: x.pos}
	}
	e := c.expr(x.x)
	if !e.Type().IsValid() {
		return &Return{P: x.pos}
	}
	if c.fn.Ret == TypeVoid {
		c.d.errorf(x.pos, "void function '%s' cannot return a value", c.fn.Name)
		return &Return{P: x.pos}
	}
	// No implicit conversion here, even in GLSL 1.20 (piglit's
	// return-conversion tests): the types must match.
	if e.Type() != c.fn.Ret {
		c.d.errorf(x.pos, "function '%s' returns '%s', not '%s'", c.fn.Name, c.fn.Ret, e.Type())
	}
	return &Return{P: x.pos, X: e}
}

// forLoop checks a for loop; when its header has the Appendix A form it
// fills in LoopInfo (and, with Options.AppendixA, rejects other forms).
func (c *checker) forLoop(x *forStmt) Stmt {
	c.push()
	defer c.pop()
	l := &Loop{P: x.pos, Kind: LoopFor}
	if x.init != nil {
		switch s := x.init.(type) {
		case *exprStmt:
			l.Init = &ExprStmt{P: s.pos, X: c.expr(s.x)}
		default:
			out := c.stmt(s)
			if len(out) == 1 {
				l.Init = out[0]
			} else if len(out) > 1 {
				l.Init = &Block{P: s.stmtPos(), Stmts: out}
			}
		}
	}
	l.Cond, l.CondVar = c.loopCond(x.cond)
	if x.post != nil {
		l.Post = c.expr(x.post)
	}
	info, why := c.appendixA(l, x)
	if why != "" && c.opts.AppendixA && c.es {
		c.d.errorf(x.pos, "%s (GLSL ES 1.00 Appendix A)", why)
	}
	ctx := &loopCtx{}
	if info != nil {
		ctx.index = info.Index
	}
	c.loops = append(c.loops, ctx)
	l.Body = c.loopBody(x.body)
	c.loops = c.loops[:len(c.loops)-1]
	if info != nil && !ctx.modified {
		l.Info = info
	}
	return l
}

// appendixA matches a for header against GLSL ES 1.00 Appendix A section
// 4: "for (type_specifier i = constant_expression; i relop
// constant_expression; i++ | i-- | ++i | --i | i += constant_expression |
// i -= constant_expression)". It returns the loop's facts, or why the
// header does not have that form.
func (c *checker) appendixA(l *Loop, x *forStmt) (*LoopInfo, string) {
	decl, ok := l.Init.(*VarDecl)
	if !ok || decl.Init == nil {
		return nil, "the for loop must declare and initialize its loop index"
	}
	idx := decl.Var
	if idx.Type != TypeInt && idx.Type != TypeFloat {
		return nil, "the loop index must be an int or a float"
	}
	start, ok := constOf(decl.Init)
	if !ok {
		return nil, "the loop index must be initialized with a constant expression"
	}
	info := &LoopInfo{Index: idx, Start: start.Value}
	cond, ok := l.Cond.(*Binary)
	if !ok || l.CondVar != nil {
		return nil, "the for loop condition must compare the loop index with a constant expression"
	}
	if ref, ok := cond.X.(*VarRef); !ok || ref.Var != idx {
		return nil, "the for loop condition must compare the loop index with a constant expression"
	}
	limit, ok := constOf(cond.Y)
	switch cond.Op {
	case OpLess, OpGreater, OpLessEq, OpGreaterEq, OpEq, OpNotEq:
	default:
		ok = false
	}
	if !ok {
		return nil, "the for loop condition must compare the loop index with a constant expression"
	}
	info.Cmp, info.Limit = cond.Op, limit.Value
	one := Value{Type: idx.Type, C: []float64{1}}
	switch p := l.Post.(type) {
	case *Unary:
		if ref, ok := p.X.(*VarRef); !ok || ref.Var != idx {
			return nil, "the for loop expression must update the loop index"
		}
		info.Step = one
		if p.Op == OpPreDec || p.Op == OpPostDec {
			info.Step.C[0] = -1
		}
	case *Assign:
		ref, ok := p.LHS.(*VarRef)
		step, okc := constOf(p.RHS)
		if !ok || ref.Var != idx || !okc || (p.Op != OpAdd && p.Op != OpSub) {
			return nil, "the for loop expression must be i++, i--, ++i, --i, i += constant or i -= constant"
		}
		info.Step = step.Value
		if p.Op == OpSub {
			info.Step = Value{Type: idx.Type, C: []float64{roundTo(idx.Type.Base, -step.Value.C[0])}}
		}
	default:
		return nil, "the for loop expression must be i++, i--, ++i, --i, i += constant or i -= constant"
	}
	info.Iterations = tripCount(info, &c.tripBudget)
	return info, ""
}

// tripCount simulates the loop header with GLSL arithmetic, spending from
// the shader's budget.
func tripCount(info *LoopInfo, budget *int) int {
	b := info.Index.Type.Base
	i, lim, step := info.Start.C[0], info.Limit.C[0], info.Step.C[0]
	for n := 0; n <= maxTripCount; n++ {
		*budget--
		if *budget < 0 {
			return -1
		}
		var more bool
		switch info.Cmp {
		case OpLess:
			more = i < lim
		case OpGreater:
			more = i > lim
		case OpLessEq:
			more = i <= lim
		case OpGreaterEq:
			more = i >= lim
		case OpEq:
			more = i == lim
		case OpNotEq:
			more = i != lim
		}
		if !more {
			return n
		}
		i = roundTo(b, i+step)
	}
	return -1
}
