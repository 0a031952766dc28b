package glsl

import "strings"

// badExpr stands for an expression that failed to check; its invalid type
// silences follow-on errors.
type badExpr struct{ P Pos }

func (e *badExpr) Type() Type { return TypeInvalid }
func (e *badExpr) Pos() Pos   { return e.P }
func (*badExpr) exprNode()    {}

func bad(p Pos) Expr { return &badExpr{P: p} }

func constOf(e Expr) (*ConstExpr, bool) {
	k, ok := e.(*ConstExpr)
	return k, ok && k.Value.Type.IsValid()
}

// expr checks an expression and returns its typed, folded form.
func (c *checker) expr(e astExpr) Expr {
	switch x := e.(type) {
	case *litExpr:
		switch x.tok.kind {
		case tInt:
			return &ConstExpr{P: x.tok.pos, Value: intValue(x.tok.ival)}
		case tFloat:
			return &ConstExpr{P: x.tok.pos, Value: floatValue(x.tok.fval)}
		default:
			return &ConstExpr{P: x.tok.pos, Value: boolValue(x.tok.ival != 0)}
		}
	case *identExpr:
		return c.ident(x)
	case *unaryExpr:
		return c.unary(x)
	case *binaryExpr:
		return c.binary(x)
	case *assignExpr:
		return c.assign(x)
	case *condExpr:
		return c.cond(x)
	case *seqExpr:
		l, r := c.expr(x.x), c.expr(x.y)
		if !l.Type().IsValid() || !r.Type().IsValid() {
			return bad(x.pos)
		}
		// GLSL ES 1.00 and GLSL 1.10 count the sequence operator among the
		// operators of constant expressions; GLSL 1.20 (like ES 3.00) does
		// not. piglit's tests expect exactly this.
		if _, ok := constOf(l); ok && c.version != 120 {
			if k, ok := constOf(r); ok {
				return &ConstExpr{P: x.pos, Value: k.Value}
			}
		}
		return &Seq{P: x.pos, X: l, Y: r}
	case *indexExpr:
		return c.index(x)
	case *fieldExpr:
		return c.field(x)
	case *callExpr:
		return c.call(x)
	}
	return bad(e.exprPos())
}

func (c *checker) ident(x *identExpr) Expr {
	switch s := c.lookup(x.name).(type) {
	case *Var:
		c.useVar(s)
		if s.Storage == StorageConst && s.Value != nil {
			return &ConstExpr{P: x.pos, Value: *s.Value, Var: s}
		}
		return &VarRef{P: x.pos, Var: s}
	case *Struct:
		c.d.errorf(x.pos, "'%s' is a type name, not a variable", x.name)
	case *funcSet:
		c.d.errorf(x.pos, "'%s' is a function, not a variable", x.name)
	default:
		c.d.errorf(x.pos, "undeclared identifier '%s'", x.name)
	}
	return bad(x.pos)
}

// convert applies the implicit conversions of the version to make x of type
// to: none in GLSL ES 1.00 and 1.10, int to float (with the same shape) in
// GLSL 1.20 (section 4.1.10).
func (c *checker) convert(x Expr, to Type) (Expr, bool) {
	t := x.Type()
	if t == to {
		return x, true
	}
	if c.version < 120 || c.es || t.Base != Int || to.Base != Float || t.Rows != to.Rows || t.Cols != to.Cols || t.Len != to.Len || t.Len > 0 {
		return x, false
	}
	return c.construct(x.Pos(), to, []Expr{x}), true
}

// canConvert reports whether x converts implicitly to type to.
func (c *checker) canConvert(from, to Type) bool {
	if from == to {
		return true
	}
	return c.version >= 120 && !c.es && from.Base == Int && to.Base == Float && from.Rows == to.Rows &&
		from.Cols == to.Cols && from.Len == 0 && to.Len == 0
}

// Unary operators (section 5.9).

func (c *checker) unary(x *unaryExpr) Expr {
	e := c.expr(x.x)
	t := e.Type()
	if !t.IsValid() {
		return bad(x.pos)
	}
	switch x.op {
	case "~":
		c.d.errorf(x.pos, "operator '~' is reserved in GLSL %s", versionName(c.version))
		return bad(x.pos)
	case "+", "-":
		if !t.IsNumeric() {
			c.d.errorf(x.pos, "operator '%s' cannot be applied to type '%s'", x.op, t)
			return bad(x.pos)
		}
		if x.op == "+" {
			return e
		}
		if k, ok := constOf(e); ok {
			v := Value{Type: t, C: make([]float64, len(k.Value.C))}
			for i, a := range k.Value.C {
				v.C[i] = roundTo(t.Base, -a)
			}
			return &ConstExpr{P: x.pos, Value: v}
		}
		return &Unary{P: x.pos, Op: OpNeg, X: e, T: t}
	case "!":
		if t != TypeBool {
			c.d.errorf(x.pos, "operator '!' requires a bool operand, not '%s'", t)
			return bad(x.pos)
		}
		if k, ok := constOf(e); ok {
			return &ConstExpr{P: x.pos, Value: boolValue(k.Value.C[0] == 0)}
		}
		return &Unary{P: x.pos, Op: OpLogicalNot, X: e, T: t}
	}
	// ++ and --
	if !t.IsNumeric() {
		c.d.errorf(x.pos, "operator '%s' cannot be applied to type '%s'", x.op, t)
		return bad(x.pos)
	}
	if !c.checkLvalue(e, x.pos, "operand of '"+x.op+"'") {
		return bad(x.pos)
	}
	op := map[string]UnaryOp{"++": OpPreInc, "--": OpPreDec}[x.op]
	if x.postfix {
		op += OpPostInc - OpPreInc
	}
	return &Unary{P: x.pos, Op: op, X: e, T: t}
}

// Binary operators (sections 5.7 to 5.9).

var binaryOps = map[string]BinaryOp{
	"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "<": OpLess, ">": OpGreater, "<=": OpLessEq,
	">=": OpGreaterEq, "==": OpEq, "!=": OpNotEq, "&&": OpLogicalAnd, "||": OpLogicalOr, "^^": OpLogicalXor,
}

func (c *checker) binary(x *binaryExpr) Expr {
	l, r := c.expr(x.x), c.expr(x.y)
	if !l.Type().IsValid() || !r.Type().IsValid() {
		return bad(x.pos)
	}
	op, ok := binaryOps[x.op]
	if !ok {
		c.d.errorf(x.pos, "operator '%s' is reserved in GLSL %s", x.op, versionName(c.version))
		return bad(x.pos)
	}
	return c.binaryOp(x.pos, x.op, op, l, r)
}

// binaryOp type-checks and folds "l op r".
func (c *checker) binaryOp(pos Pos, text string, op BinaryOp, l, r Expr) Expr {
	lt, rt := l.Type(), r.Type()
	var t Type
	switch op {
	case OpLogicalAnd, OpLogicalOr, OpLogicalXor:
		if lt != TypeBool || rt != TypeBool {
			c.d.errorf(pos, "operator '%s' requires bool operands, not '%s' and '%s'", text, lt, rt)
			return bad(pos)
		}
		t = TypeBool
	case OpEq, OpNotEq:
		l, r = c.balance(l, r)
		lt, rt = l.Type(), r.Type()
		if lt != rt {
			c.d.errorf(pos, "operator '%s' requires operands of the same type, not '%s' and '%s'", text, lt, rt)
			return bad(pos)
		}
		if lt.ContainsSampler() || lt.Base == Void {
			c.d.errorf(pos, "operator '%s' cannot be applied to type '%s'", text, lt)
			return bad(pos)
		}
		if lt.ContainsArray() && (c.es || c.version < 120) {
			c.d.errorf(pos, "operator '%s' cannot be applied to arrays in GLSL %s", text, versionName(c.version))
			return bad(pos)
		}
		t = TypeBool
	case OpLess, OpGreater, OpLessEq, OpGreaterEq:
		l, r = c.balance(l, r)
		lt, rt = l.Type(), r.Type()
		if lt != rt || (lt != TypeInt && lt != TypeFloat) {
			c.d.errorf(pos, "operator '%s' requires int or float scalar operands of the same type, not '%s' and '%s'", text, lt, rt)
			return bad(pos)
		}
		t = TypeBool
	default:
		l, r = c.balance(l, r)
		var msg string
		t, op, msg = arithType(op, l.Type(), r.Type())
		if msg != "" {
			c.d.errorf(pos, "operator '%s' %s", text, msg)
			return bad(pos)
		}
	}
	kl, okl := constOf(l)
	kr, okr := constOf(r)
	if okl && okr {
		return &ConstExpr{P: pos, Value: foldBinary(op, kl.Value, kr.Value, t, c, pos)}
	}
	return &Binary{P: pos, Op: op, X: l, Y: r, T: t}
}

// balance applies GLSL 1.20's int->float conversion to whichever operand
// needs it so both have the same base.
func (c *checker) balance(l, r Expr) (Expr, Expr) {
	lt, rt := l.Type(), r.Type()
	if c.es || c.version < 120 || lt.Len > 0 || rt.Len > 0 {
		return l, r
	}
	if lt.Base == Int && rt.Base == Float {
		l, _ = c.convert(l, Type{Base: Float, Rows: lt.Rows, Cols: lt.Cols})
	} else if lt.Base == Float && rt.Base == Int {
		r, _ = c.convert(r, Type{Base: Float, Rows: rt.Rows, Cols: rt.Cols})
	}
	return l, r
}

// arithType applies the rules of section 5.9 for + - * /: both operands
// numeric with the same base; scalar with anything; vectors and matrices of
// matching sizes; linear-algebra multiply for mat*mat, mat*vec, vec*mat.
func arithType(op BinaryOp, lt, rt Type) (Type, BinaryOp, string) {
	if !lt.IsNumeric() || !rt.IsNumeric() {
		return Type{}, op, "cannot be applied to types '" + lt.String() + "' and '" + rt.String() + "'"
	}
	if lt.Base != rt.Base {
		return Type{}, op, "requires operands of the same base type, not '" + lt.String() + "' and '" + rt.String() + "'"
	}
	mismatch := "cannot be applied to '" + lt.String() + "' and '" + rt.String() + "'"
	switch {
	case lt == rt && !(op == OpMul && lt.IsMatrix()):
		return lt, op, ""
	case lt.Comps() == 1:
		return rt, op, ""
	case rt.Comps() == 1:
		return lt, op, ""
	case op == OpMul && lt.IsMatrix() && rt.IsMatrix():
		if lt.Cols != rt.Rows {
			return Type{}, op, mismatch
		}
		return Mat(int(rt.Cols), int(lt.Rows)), OpMatMul, ""
	case op == OpMul && lt.IsMatrix() && rt.IsVector():
		if lt.Cols != rt.Rows {
			return Type{}, op, mismatch
		}
		return Vec(Float, int(lt.Rows)), OpMatMul, ""
	case op == OpMul && lt.IsVector() && rt.IsMatrix():
		if lt.Rows != rt.Rows {
			return Type{}, op, mismatch
		}
		return Vec(Float, int(rt.Cols)), OpMatMul, ""
	}
	return Type{}, op, mismatch
}

// foldBinary evaluates a binary operator on constants with GLSL's float32 and
// int32 semantics.
func foldBinary(op BinaryOp, x, y Value, t Type, c *checker, pos Pos) Value {
	switch op {
	case OpEq, OpNotEq:
		eq := len(x.C) == len(y.C)
		for i := 0; eq && i < len(x.C); i++ {
			eq = x.C[i] == y.C[i]
		}
		return boolValue(eq == (op == OpEq))
	case OpLess:
		return boolValue(x.C[0] < y.C[0])
	case OpGreater:
		return boolValue(x.C[0] > y.C[0])
	case OpLessEq:
		return boolValue(x.C[0] <= y.C[0])
	case OpGreaterEq:
		return boolValue(x.C[0] >= y.C[0])
	case OpLogicalAnd:
		return boolValue(x.C[0] != 0 && y.C[0] != 0)
	case OpLogicalOr:
		return boolValue(x.C[0] != 0 || y.C[0] != 0)
	case OpLogicalXor:
		return boolValue((x.C[0] != 0) != (y.C[0] != 0))
	case OpMatMul:
		return foldMatMul(x, y, t)
	}
	out := Value{Type: t, C: make([]float64, t.Comps())}
	warned := false
	for i := range out.C {
		a, b := x.C[0], y.C[0]
		if len(x.C) > 1 {
			a = x.C[i]
		}
		if len(y.C) > 1 {
			b = y.C[i]
		}
		var r float64
		switch op {
		case OpAdd:
			r = a + b
		case OpSub:
			r = a - b
		case OpMul:
			r = a * b
		case OpDiv:
			if t.Base == Int {
				if b == 0 {
					// Section 5.9: the result is undefined; fold to 0.
					if !warned && c != nil {
						c.d.warnf(pos, "integer division by zero")
						warned = true
					}
					r = 0
				} else {
					r = float64(int32(a) / int32(b))
				}
			} else {
				r = a / b
			}
		}
		out.C[i] = roundTo(t.Base, r)
	}
	return out
}

func foldMatMul(x, y Value, t Type) Value {
	xt, yt := x.Type, y.Type
	// Treat vectors as matrices: a vec on the left is a row (1 x n), on the
	// right a column (n x 1).
	xr, xc := int(xt.Rows), int(xt.Cols)
	yr, yc := int(yt.Rows), int(yt.Cols)
	if xt.IsVector() {
		xr, xc = 1, int(xt.Rows)
	}
	at := func(v Value, rows, r, c int) float64 { return v.C[c*rows+r] }
	out := Value{Type: t}
	for col := 0; col < yc; col++ {
		for row := 0; row < xr; row++ {
			s := 0.0
			for k := 0; k < xc; k++ {
				s += at(x, xr, row, k) * at(y, yr, k, col)
			}
			out.C = append(out.C, float64(float32(s)))
		}
	}
	return out
}

// Assignment (section 5.8).

func (c *checker) assign(x *assignExpr) Expr {
	l, r := c.expr(x.x), c.expr(x.y)
	lt := l.Type()
	if !lt.IsValid() || !r.Type().IsValid() {
		return bad(x.pos)
	}
	if !c.checkLvalue(l, x.pos, "assignment") {
		return bad(x.pos)
	}
	if x.op == "=" {
		if lt.IsArray() && (c.es || c.version < 120) {
			c.d.errorf(x.pos, "arrays cannot be assigned in GLSL %s", versionName(c.version))
			return bad(x.pos)
		}
		if lt.ContainsSampler() {
			c.d.errorf(x.pos, "samplers cannot be assigned")
			return bad(x.pos)
		}
		rc, ok := c.convert(r, lt)
		if !ok {
			c.d.errorf(x.pos, "cannot assign a value of type '%s' to '%s' of type '%s'", r.Type(), exprName(l), lt)
			return bad(x.pos)
		}
		return &Assign{P: x.pos, Op: OpAssign, LHS: l, RHS: rc, T: lt}
	}
	opText := strings.TrimSuffix(x.op, "=")
	op, ok := binaryOps[opText]
	if !ok {
		c.d.errorf(x.pos, "operator '%s' is reserved in GLSL %s", x.op, versionName(c.version))
		return bad(x.pos)
	}
	_, r = c.balance(l, r)
	t, op, msg := arithType(op, lt, r.Type())
	if msg != "" {
		c.d.errorf(x.pos, "operator '%s' %s", x.op, msg)
		return bad(x.pos)
	}
	if t != lt {
		c.d.errorf(x.pos, "operator '%s' gives a '%s', which cannot be assigned to '%s'", x.op, t, lt)
		return bad(x.pos)
	}
	return &Assign{P: x.pos, Op: op, LHS: l, RHS: r, T: lt}
}

// exprName names an l-value for messages.
func exprName(e Expr) string {
	switch x := e.(type) {
	case *VarRef:
		return x.Var.Name
	case *ConstExpr:
		if x.Var != nil {
			return x.Var.Name
		}
	case *Index:
		return exprName(x.X) + "[...]"
	case *FieldSel:
		return exprName(x.X) + "." + x.X.Type().Struct.Fields[x.Field].Name
	case *Swizzle:
		return exprName(x.X) + ".<swizzle>"
	}
	return "expression"
}

// lvalueRoot finds the variable an l-value writes, or says why e is not
// writable.
func (c *checker) lvalueRoot(e Expr) (*Var, string) {
	switch x := e.(type) {
	case *VarRef:
		v := x.Var
		switch v.Storage {
		case StorageConst:
			return nil, "'" + v.Name + "' is const"
		case StorageUniform:
			return nil, "uniform '" + v.Name + "' is read-only"
		case StorageAttribute:
			return nil, "attribute '" + v.Name + "' is read-only"
		case StorageVarying:
			if c.stage == StageFragment {
				return nil, "varying '" + v.Name + "' is read-only in a fragment shader"
			}
		case StorageInput:
			return nil, "'" + v.Name + "' is read-only"
		case StorageParam:
			if v.ConstIn {
				return nil, "const parameter '" + v.Name + "' is read-only"
			}
		}
		return v, ""
	case *ConstExpr:
		if x.Var != nil {
			return nil, "'" + x.Var.Name + "' is const"
		}
	case *Index:
		return c.lvalueRoot(x.X)
	case *FieldSel:
		return c.lvalueRoot(x.X)
	case *Swizzle:
		seen := 0
		for _, k := range x.Comps {
			if seen&(1<<k) != 0 {
				return nil, "a swizzle with repeated components is not an l-value"
			}
			seen |= 1 << k
		}
		return c.lvalueRoot(x.X)
	}
	return nil, "the expression is not an l-value"
}

// checkLvalue reports whether e may be written, and records the write.
func (c *checker) checkLvalue(e Expr, pos Pos, what string) bool {
	v, why := c.lvalueRoot(e)
	if v == nil {
		c.d.errorf(pos, "invalid %s: %s", what, why)
		return false
	}
	v.Written = true
	if _, ok := c.firstWrite[v]; !ok && v.Builtin {
		c.firstWrite[v] = pos
	}
	for _, l := range c.loops {
		if l.index == v {
			l.modified = true
			if c.opts.AppendixA && c.es {
				c.d.errorf(pos, "the loop index '%s' cannot be modified in the loop body (GLSL ES 1.00 Appendix A)", v.Name)
			}
		}
	}
	return true
}

// Conditional operator (section 5.7).

func (c *checker) cond(x *condExpr) Expr {
	cnd, t, f := c.expr(x.c), c.expr(x.t), c.expr(x.f)
	if !cnd.Type().IsValid() || !t.Type().IsValid() || !f.Type().IsValid() {
		return bad(x.pos)
	}
	if cnd.Type() != TypeBool {
		c.d.errorf(x.pos, "the condition of '?:' must be a bool, not '%s'", cnd.Type())
		return bad(x.pos)
	}
	t, f = c.balance(t, f)
	if t.Type() != f.Type() {
		c.d.errorf(x.pos, "the operands of '?:' must have the same type, not '%s' and '%s'", t.Type(), f.Type())
		return bad(x.pos)
	}
	if t.Type().IsArray() && (c.es || c.version < 120) {
		c.d.errorf(x.pos, "the operands of '?:' cannot be arrays in GLSL %s", versionName(c.version))
		return bad(x.pos)
	}
	if k, ok := constOf(cnd); ok {
		kt, okt := constOf(t)
		kf, okf := constOf(f)
		if okt && okf {
			if k.Value.C[0] != 0 {
				return &ConstExpr{P: x.pos, Value: kt.Value}
			}
			return &ConstExpr{P: x.pos, Value: kf.Value}
		}
	}
	return &Cond{P: x.pos, C: cnd, X: t, Y: f}
}

// Indexing (section 5.5 and 5.7).

func (c *checker) index(x *indexExpr) Expr {
	base, idx := c.expr(x.x), c.expr(x.index)
	bt, it := base.Type(), idx.Type()
	if !bt.IsValid() || !it.IsValid() {
		return bad(x.pos)
	}
	if it != TypeInt {
		c.d.errorf(exprStart(x.index), "array index must be an int, not '%s'", it)
		return bad(x.pos)
	}
	var n int
	var t Type
	switch {
	case bt.Len < 0:
		return c.indexUnsized(x, base, idx)
	case bt.IsArray():
		n, t = bt.Len, bt.Elem()
	case bt.IsMatrix():
		n, t = int(bt.Cols), bt.Column()
	case bt.IsVector():
		n, t = int(bt.Rows), bt.ScalarType()
	default:
		c.d.errorf(x.pos, "cannot index a value of type '%s'", bt)
		return bad(x.pos)
	}
	if k, ok := constOf(idx); ok {
		i := int(k.Value.Int(0))
		if i < 0 || i >= n {
			c.d.errorf(exprStart(x.index), "index %d is out of range for '%s' (0 to %d)", i, bt, n-1)
			return bad(x.pos)
		}
		if kb, ok := constOf(base); ok {
			off, et := elemOffset(bt, i)
			return &ConstExpr{P: x.pos, Value: kb.Value.slice(et, off)}
		}
	} else if c.es {
		if bt.IsArray() && bt.Base.IsSampler() && !c.isConstIndex(idx) {
			// GLSL ES 1.00 Appendix A (section 4 and 5 of it): samplers
			// may be indexed only by constant-index-expressions.
			c.d.errorf(exprStart(x.index), "sampler arrays can be indexed only with constant-index-expressions (constants and loop indices)")
			return bad(x.pos)
		}
		if c.opts.AppendixA && !c.isConstIndex(idx) {
			root, _ := c.lvalueRoot(base)
			if !(c.stage == StageVertex && (root == nil || root.Storage == StorageUniform)) {
				c.d.errorf(exprStart(x.index), "index must be a constant-index-expression (GLSL ES 1.00 Appendix A)")
				return bad(x.pos)
			}
		}
	}
	return &Index{P: x.pos, X: base, Index: idx, T: t}
}

// isConstIndex reports whether e is a constant-index-expression (Appendix
// A): built from constants and the indices of enclosing Appendix A loops.
func (c *checker) isConstIndex(e Expr) bool {
	switch x := e.(type) {
	case *ConstExpr:
		return true
	case *VarRef:
		for _, l := range c.loops {
			if l.index == x.Var {
				return true
			}
		}
		return false
	case *Unary:
		return (x.Op == OpNeg || x.Op == OpLogicalNot) && c.isConstIndex(x.X)
	case *Binary:
		return c.isConstIndex(x.X) && c.isConstIndex(x.Y)
	case *Swizzle:
		return c.isConstIndex(x.X)
	case *Index:
		return c.isConstIndex(x.X) && c.isConstIndex(x.Index)
	case *Cond:
		return c.isConstIndex(x.C) && c.isConstIndex(x.X) && c.isConstIndex(x.Y)
	case *Construct:
		for _, a := range x.Args {
			if !c.isConstIndex(a) {
				return false
			}
		}
		return true
	case *BuiltinCall:
		if x.Sig.def.fold == nil {
			return false
		}
		for _, a := range x.Args {
			if !c.isConstIndex(a) {
				return false
			}
		}
		return true
	}
	return false
}

// Field selection and swizzles (section 5.5, 5.6).

var swizzleSets = []string{"xyzw", "rgba", "stpq"}

func (c *checker) field(x *fieldExpr) Expr {
	base := c.expr(x.x)
	bt := base.Type()
	if !bt.IsValid() {
		return bad(x.pos)
	}
	if bt.IsStruct() {
		i := bt.Struct.FieldIndex(x.name)
		if i < 0 {
			c.d.errorf(x.namePos, "'%s' has no field '%s'", bt, x.name)
			return bad(x.pos)
		}
		ft := bt.Struct.Fields[i].Type
		if k, ok := constOf(base); ok {
			return &ConstExpr{P: x.pos, Value: k.Value.slice(ft, fieldOffset(bt, i))}
		}
		return &FieldSel{P: x.pos, X: base, Field: i, T: ft}
	}
	if !bt.IsVector() {
		c.d.errorf(x.namePos, "cannot select '%s' from a value of type '%s'", x.name, bt)
		return bad(x.pos)
	}
	if len(x.name) > 4 {
		c.d.errorf(x.namePos, "swizzle '%s' has more than 4 components", x.name)
		return bad(x.pos)
	}
	var comps []uint8
	set := ""
	for _, s := range swizzleSets {
		if strings.IndexByte(s, x.name[0]) >= 0 {
			set = s
		}
	}
	for i := 0; i < len(x.name); i++ {
		k := strings.IndexByte(set, x.name[i])
		if set == "" || k < 0 {
			c.d.errorf(x.namePos, "invalid swizzle '%s' (components must come from one of xyzw, rgba, stpq)", x.name)
			return bad(x.pos)
		}
		if k >= int(bt.Rows) {
			c.d.errorf(x.namePos, "swizzle '%s' selects a component beyond '%s'", x.name, bt)
			return bad(x.pos)
		}
		comps = append(comps, uint8(k))
	}
	t := Vec(bt.Base, len(comps))
	if k, ok := constOf(base); ok {
		v := Value{Type: t}
		for _, i := range comps {
			v.C = append(v.C, k.Value.C[i])
		}
		return &ConstExpr{P: x.pos, Value: v}
	}
	return &Swizzle{P: x.pos, X: base, Comps: comps, T: t}
}

// Calls and constructors (sections 5.4 and 6.1).

func (c *checker) call(x *callExpr) Expr {
	if x.recv != nil {
		return c.method(x)
	}
	args := make([]Expr, len(x.args))
	for i, a := range x.args {
		args[i] = c.expr(a)
		if !args[i].Type().IsValid() {
			return bad(x.pos)
		}
	}
	if x.ctor != nil {
		t := c.resolveType(&typeSpec{pos: x.ctor.pos, name: x.ctor.name}, false)
		if !t.IsValid() {
			return bad(x.pos)
		}
		if x.ctor.hasArray {
			return c.arrayCtor(x, t, args)
		}
		return c.checkCtor(x.pos, t, args)
	}
	switch s := c.lookup(x.callee).(type) {
	case *Struct:
		return c.checkCtor(x.pos, StructType(s), args)
	case *funcSet:
		return c.callFunc(x, s, args)
	case *Var:
		c.d.errorf(x.pos, "'%s' is a variable, not a function", x.callee)
	default:
		c.d.errorf(x.pos, "no function with name '%s'", x.callee)
	}
	return bad(x.pos)
}

func (c *checker) method(x *callExpr) Expr {
	recv := c.expr(x.recv)
	if !recv.Type().IsValid() {
		return bad(x.pos)
	}
	if x.method != "length" || len(x.args) != 0 {
		c.d.errorf(x.pos, "unknown method '%s'", x.method)
		return bad(x.pos)
	}
	if !recv.Type().IsArray() || recv.Type().Len < 0 {
		c.d.errorf(x.pos, "length() can be applied only to sized arrays, not '%s'", recv.Type())
		return bad(x.pos)
	}
	if c.es || c.version < 120 {
		c.d.errorf(x.pos, "length() requires GLSL 1.20")
		return bad(x.pos)
	}
	return &ConstExpr{P: x.pos, Value: intValue(int32(recv.Type().Len))}
}

func signatureText(name string, args []Expr) string {
	s := make([]string, len(args))
	for i, a := range args {
		s[i] = a.Type().String()
	}
	return name + "(" + strings.Join(s, ", ") + ")"
}

func (c *checker) callFunc(x *callExpr, set *funcSet, args []Expr) Expr {
	types := make([]Type, len(args))
	for i, a := range args {
		types[i] = a.Type()
	}
	var fn *Function
	var sig *BuiltinSig
	for _, f := range set.funcs {
		if sameParams(paramTypes(f), types) {
			fn = f
		}
	}
	for _, b := range set.builtins {
		if fn == nil && sameParams(b.Params, types) {
			sig = b
		}
	}
	if fn == nil && sig == nil && c.version >= 120 && !c.es {
		var fs []*Function
		var bs []*BuiltinSig
		for _, f := range set.funcs {
			if c.convertibleArgs(types, f) {
				fs = append(fs, f)
			}
		}
		for _, b := range set.builtins {
			if c.convertible(types, b.Params) {
				bs = append(bs, b)
			}
		}
		switch {
		case len(fs)+len(bs) > 1:
			c.d.errorf(x.pos, "ambiguous call to '%s'", signatureText(x.callee, args))
			return bad(x.pos)
		case len(fs) == 1:
			fn = fs[0]
		case len(bs) == 1:
			sig = bs[0]
		}
	}
	if fn == nil && sig == nil {
		c.d.errorf(x.pos, "no matching function for call to '%s'", signatureText(x.callee, args))
		return bad(x.pos)
	}
	if fn != nil {
		for i, p := range fn.Params {
			if p.Dir == DirIn {
				args[i], _ = c.convert(args[i], p.Type)
				continue
			}
			// An out argument keeps its own type: in GLSL 1.20 the
			// copy-out may convert the parameter's int to the argument's
			// float.
			if !c.checkLvalue(args[i], args[i].Pos(), p.Dir.String()+" argument "+itoa(i+1)+" of '"+fn.Name+"'") {
				return bad(x.pos)
			}
		}
		if c.fn != nil && c.dead == 0 && !containsFunc(c.fn.Calls, fn) {
			c.fn.Calls = append(c.fn.Calls, fn)
		}
		return &Call{P: x.pos, Func: fn, Args: args}
	}
	for i, p := range sig.Params {
		args[i], _ = c.convert(args[i], p)
	}
	call := &BuiltinCall{P: x.pos, Op: sig.Op, Sig: sig, Args: args}
	// Built-in calls are constant expressions from GLSL 1.20 on and in
	// GLSL ES 1.00, not in GLSL 1.10 (piglit's const-builtin-110).
	if sig.def.fold != nil && c.version != 110 {
		vals := make([]Value, len(args))
		for i, a := range args {
			k, ok := constOf(a)
			if !ok {
				return call
			}
			vals[i] = k.Value
		}
		return &ConstExpr{P: x.pos, Value: sig.def.fold(vals, sig.Ret)}
	}
	return call
}

func (c *checker) convertible(from, to []Type) bool {
	if len(from) != len(to) {
		return false
	}
	for i := range from {
		if !c.canConvert(from[i], to[i]) {
			return false
		}
	}
	return true
}

// convertibleArgs matches arguments to a user function's parameters with
// GLSL 1.20's conversions: in parameters convert from the argument, out
// parameters to it, inout parameters need the same type.
func (c *checker) convertibleArgs(args []Type, f *Function) bool {
	if len(args) != len(f.Params) {
		return false
	}
	for i, p := range f.Params {
		var ok bool
		switch p.Dir {
		case DirIn:
			ok = c.canConvert(args[i], p.Type)
		case DirOut:
			ok = c.canConvert(p.Type, args[i])
		default:
			ok = args[i] == p.Type
		}
		if !ok {
			return false
		}
	}
	return true
}

func containsFunc(list []*Function, f *Function) bool {
	for _, g := range list {
		if g == f {
			return true
		}
	}
	return false
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + itoa(i%10)
}

// arrayCtor checks a GLSL 1.20 array constructor "T[n](...)".
func (c *checker) arrayCtor(x *callExpr, elem Type, args []Expr) Expr {
	if c.es || c.version < 120 {
		c.d.errorf(x.pos, "array constructors require GLSL 1.20")
		return bad(x.pos)
	}
	n := len(args)
	if x.ctor.arrayLen != nil {
		n = c.arraySize(x.ctor.arrayLen)
		if n <= 0 {
			return bad(x.pos)
		}
	}
	if len(args) != n {
		c.d.errorf(x.pos, "array constructor for '%s[%d]' needs %d arguments, not %d", elem, n, n, len(args))
		return bad(x.pos)
	}
	for i := range args {
		a, ok := c.convert(args[i], elem)
		if !ok {
			c.d.errorf(args[i].Pos(), "array constructor argument %d has type '%s', expected '%s'", i+1, args[i].Type(), elem)
			return bad(x.pos)
		}
		args[i] = a
	}
	return c.construct(x.pos, ArrayOf(elem, n), args)
}

// checkCtor checks a scalar, vector, matrix or structure constructor
// (section 5.4).
func (c *checker) checkCtor(pos Pos, t Type, args []Expr) Expr {
	if t.Base == Void || t.Base.IsSampler() {
		c.d.errorf(pos, "cannot construct a value of type '%s'", t)
		return bad(pos)
	}
	if len(args) == 0 {
		c.d.errorf(pos, "constructor of '%s' needs arguments", t)
		return bad(pos)
	}
	if t.IsStruct() {
		fields := t.Struct.Fields
		if len(args) != len(fields) {
			c.d.errorf(pos, "constructor of structure '%s' needs %d arguments, not %d", t, len(fields), len(args))
			return bad(pos)
		}
		for i, f := range fields {
			a, ok := c.convert(args[i], f.Type)
			if !ok {
				c.d.errorf(args[i].Pos(), "argument %d of constructor '%s' has type '%s', expected '%s'", i+1, t, args[i].Type(), f.Type)
				return bad(pos)
			}
			args[i] = a
		}
		return c.construct(pos, t, args)
	}
	total := 0
	for i, a := range args {
		at := a.Type()
		if at.IsArray() || at.IsStruct() || at.Base.IsSampler() || at.Base == Void {
			c.d.errorf(a.Pos(), "argument %d of constructor '%s' cannot have type '%s'", i+1, t, at)
			return bad(pos)
		}
		if at.IsMatrix() && t.IsMatrix() {
			if len(args) > 1 {
				c.d.errorf(a.Pos(), "a matrix constructed from a matrix takes only that argument")
				return bad(pos)
			}
			if !c.es && c.version < 120 {
				c.d.errorf(a.Pos(), "constructing a matrix from a matrix requires GLSL 1.20")
				return bad(pos)
			}
		}
		if total >= t.Comps() && !(len(args) == 1) {
			c.d.errorf(a.Pos(), "too many arguments to constructor '%s'", t)
			return bad(pos)
		}
		total += at.Comps()
	}
	single := len(args) == 1 && args[0].Type().Comps() == 1
	if t.Comps() == 1 && len(args) > 1 {
		c.d.errorf(args[1].Pos(), "too many arguments to constructor '%s'", t)
		return bad(pos)
	}
	if !single && total < t.Comps() && !(len(args) == 1 && args[0].Type().IsMatrix() && t.IsMatrix()) {
		c.d.errorf(pos, "too few components to construct '%s' (%d given, %d needed)", t, total, t.Comps())
		return bad(pos)
	}
	return c.construct(pos, t, args)
}

// construct builds a Construct node, folded when every argument is constant.
func (c *checker) construct(pos Pos, t Type, args []Expr) Expr {
	vals := make([]Value, len(args))
	for i, a := range args {
		k, ok := constOf(a)
		if !ok {
			return &Construct{P: pos, T: t, Args: args}
		}
		vals[i] = k.Value
	}
	return &ConstExpr{P: pos, Value: foldConstruct(t, vals)}
}

// foldConstruct evaluates a constructor on constants (section 5.4.1-5.4.3).
func foldConstruct(t Type, args []Value) Value {
	if t.IsArray() || t.IsStruct() {
		v := Value{Type: t}
		for _, a := range args {
			v.C = append(v.C, a.C...)
		}
		return v
	}
	n := t.Comps()
	v := Value{Type: t, C: make([]float64, n)}
	conv := func(a Value, i int) float64 { return convertComp(a.C[i], a.Type.Base, t.Base) }
	switch {
	case len(args) == 1 && args[0].Type.Comps() == 1 && t.IsMatrix():
		d := conv(args[0], 0)
		for i := 0; i < int(t.Cols); i++ {
			if i < int(t.Rows) {
				v.C[i*int(t.Rows)+i] = d
			}
		}
	case len(args) == 1 && args[0].Type.Comps() == 1:
		d := conv(args[0], 0)
		for i := range v.C {
			v.C[i] = d
		}
	case len(args) == 1 && args[0].Type.IsMatrix() && t.IsMatrix():
		src := args[0]
		sr, sc := int(src.Type.Rows), int(src.Type.Cols)
		for col := 0; col < int(t.Cols); col++ {
			for row := 0; row < int(t.Rows); row++ {
				x := b2f(col == row)
				if col < sc && row < sr {
					x = src.C[col*sr+row]
				}
				v.C[col*int(t.Rows)+row] = x
			}
		}
	default:
		k := 0
		for _, a := range args {
			for i := range a.C {
				if k < n {
					v.C[k] = conv(a, i)
					k++
				}
			}
		}
	}
	return v
}

// indexUnsized indexes a desktop array declared without a size: the index
// must be constant, and the largest one sizes the array.
func (c *checker) indexUnsized(x *indexExpr, base, idx Expr) Expr {
	k, ok := constOf(idx)
	ref, isRef := base.(*VarRef)
	if !ok || !isRef {
		c.d.errorf(exprStart(x.index), "an array without a size can be indexed only with constant expressions")
		return bad(x.pos)
	}
	i := int(k.Value.Int(0))
	if i < 0 || i >= maxArraySize {
		c.d.errorf(exprStart(x.index), "index %d is out of range", i)
		return bad(x.pos)
	}
	if i > c.unsized[ref.Var] {
		c.unsized[ref.Var] = i
	}
	return &Index{P: x.pos, X: base, Index: idx, T: base.Type().Elem()}
}
