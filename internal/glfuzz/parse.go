package glfuzz

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"strconv"
	"strings"

	"github.com/retrogl/retrogl/driver"
)

// Parse reads a program in the form Format writes: a Go main package whose
// main function creates a context with gles.NewContext and makes calls on
// it. Other statements (error checks, defer ctx.Close()) are skipped.
func Parse(src string) (*Program, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "program.go", src, 0)
	if err != nil {
		return nil, fmt.Errorf("glfuzz: %w", err)
	}
	var main *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "main" && fd.Recv == nil {
			main = fd
		}
	}
	if main == nil {
		return nil, fmt.Errorf("glfuzz: no func main")
	}
	p := &Program{}
	found := false
	for _, st := range main.Body.List {
		pos := fset.Position(st.Pos())
		var call *ast.CallExpr
		switch s := st.(type) {
		case *ast.AssignStmt:
			if len(s.Rhs) != 1 {
				continue
			}
			c, ok := s.Rhs[0].(*ast.CallExpr)
			if !ok {
				continue
			}
			if isSel(c.Fun, "gles", "NewContext") {
				if err := parseNewContext(p, c); err != nil {
					return nil, fmt.Errorf("glfuzz: %s: %w", pos, err)
				}
				found = true
				continue
			}
			call = c
		case *ast.ExprStmt:
			c, ok := s.X.(*ast.CallExpr)
			if !ok {
				continue
			}
			call = c
		default:
			continue
		}
		c, err := parseCall(call)
		if err != nil {
			return nil, fmt.Errorf("glfuzz: %s: %w", pos, err)
		}
		p.Calls = append(p.Calls, c)
	}
	if !found {
		return nil, fmt.Errorf("glfuzz: no gles.NewContext call")
	}
	return p, nil
}

func isSel(e ast.Expr, pkg, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != name {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == pkg
}

func parseNewContext(p *Program, c *ast.CallExpr) error {
	if len(c.Args) != 2 {
		return fmt.Errorf("NewContext takes 2 arguments")
	}
	b, err := evalArg(c.Args[0], "string")
	if err != nil {
		return err
	}
	p.Backend = b.Str
	lit, ok := c.Args[1].(*ast.CompositeLit)
	if !ok {
		return fmt.Errorf("config is not a gles.Config literal")
	}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return fmt.Errorf("config fields must be named")
		}
		key := kv.Key.(*ast.Ident).Name
		typ := "int"
		switch key {
		case "ES2":
			typ = "bool"
		case "MemoryBudget":
			typ = "int64"
		}
		v, err := evalArg(kv.Value, typ)
		if err != nil {
			return fmt.Errorf("config %s: %w", key, err)
		}
		switch key {
		case "Width":
			p.Config.Width = int(v.Int)
		case "Height":
			p.Config.Height = int(v.Int)
		case "Format":
			p.Config.Format = driver.PixelFormat(v.Int)
		case "DepthBits":
			p.Config.DepthBits = int(v.Int)
		case "StencilBits":
			p.Config.StencilBits = int(v.Int)
		case "ES2":
			p.Config.ES2 = v.Int != 0
		case "Workers":
			p.Config.Workers = int(v.Int)
		case "MemoryBudget":
			p.Config.MemoryBudget = v.Int
		default:
			return fmt.Errorf("unknown config field %s", key)
		}
	}
	return nil
}

func parseCall(c *ast.CallExpr) (Call, error) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return Call{}, fmt.Errorf("not a method call")
	}
	var out Call
	switch x := sel.X.(type) {
	case *ast.Ident:
		if x.Name != "ctx" {
			return Call{}, fmt.Errorf("call on %s, not ctx", x.Name)
		}
	case *ast.CallExpr:
		if !isSel(x.Fun, "gles", "PicaShaders") {
			return Call{}, fmt.Errorf("call on an expression other than gles.PicaShaders(ctx)")
		}
		out.Recv = "PicaShaders"
	default:
		return Call{}, fmt.Errorf("not a method call on ctx")
	}
	out.Method = sel.Sel.Name
	m, ok := lookup(out.Recv, out.Method)
	if !ok {
		return Call{}, fmt.Errorf("unknown entry point %s", out.Method)
	}
	for i, e := range c.Args {
		if i >= len(m.Params) {
			return Call{}, fmt.Errorf("%s: too many arguments", out.Method)
		}
		pt := goType(m.Params[i].Type)
		if strings.HasPrefix(pt, "...") {
			if c.Ellipsis == token.NoPos {
				return Call{}, fmt.Errorf("%s: write variadic arguments as a slice followed by an ellipsis", out.Method)
			}
			pt = "[]" + pt[3:]
		}
		a, err := evalArg(e, pt)
		if err != nil {
			return Call{}, fmt.Errorf("%s argument %d: %w", out.Method, i+1, err)
		}
		out.Args = append(out.Args, a)
	}
	if len(out.Args) != len(m.Params) {
		return Call{}, fmt.Errorf("%s takes %d arguments, got %d", out.Method, len(m.Params), len(out.Args))
	}
	return out, nil
}

// goType spells a gles parameter type as Go code outside package gles
// does.
func goType(t string) string {
	pre := ""
	for _, p := range []string{"...", "[]"} {
		if strings.HasPrefix(t, p) {
			pre, t = p, t[len(p):]
		}
	}
	switch t {
	case "Enum", "Fixed":
		t = "gles." + t
	case "byte":
		t = "uint8"
	}
	return pre + t
}

// evalArg evaluates an argument expression for a parameter of type typ
// (a Go type as goType spells it, or "any").
func evalArg(e ast.Expr, typ string) (Arg, error) {
	if typ == "any" {
		t, err := typeOf(e)
		if err != nil {
			return Arg{}, err
		}
		typ = t
	}
	if typ == "nil" {
		return Arg{Type: "nil"}, nil
	}
	if isSlice(typ) {
		return evalSlice(e, typ)
	}
	a := Arg{Type: typ}
	switch typ {
	case "string":
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return Arg{}, fmt.Errorf("want a string literal")
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return Arg{}, err
		}
		a.Str = s
		return a, nil
	case "bool":
		id, ok := e.(*ast.Ident)
		if !ok || (id.Name != "true" && id.Name != "false") {
			return Arg{}, fmt.Errorf("want true or false")
		}
		if id.Name == "true" {
			a.Int = 1
		}
		return a, nil
	case "float32", "float64":
		v, err := evalNum(e)
		if err != nil {
			return Arg{}, err
		}
		a.Float = v.f
		if !v.isFloat {
			a.Float = float64(v.i)
		}
		if typ == "float32" {
			a.Float = float64(float32(a.Float))
		}
		return a, nil
	}
	v, err := evalNum(e)
	if err != nil {
		return Arg{}, err
	}
	if v.isFloat {
		return Arg{}, fmt.Errorf("want an integer for %s", typ)
	}
	a.Int = v.i
	return a, nil
}

// typeOf returns the type an expression passed as any has.
func typeOf(e ast.Expr) (string, error) {
	switch x := e.(type) {
	case *ast.Ident:
		switch x.Name {
		case "nil":
			return "nil", nil
		case "true", "false":
			return "bool", nil
		}
	case *ast.BasicLit:
		switch x.Kind {
		case token.INT:
			return "int", nil
		case token.FLOAT:
			return "float64", nil
		case token.STRING:
			return "string", nil
		}
	case *ast.UnaryExpr:
		return typeOf(x.X)
	case *ast.BinaryExpr:
		return typeOf(x.X)
	case *ast.ParenExpr:
		return typeOf(x.X)
	case *ast.SelectorExpr:
		if isSel(x, "gles", x.Sel.Name) {
			return "gles.Enum", nil
		}
		return "int", nil // math.MaxInt and friends
	case *ast.CompositeLit:
		return exprString(x.Type), nil
	case *ast.CallExpr:
		switch {
		case isIdent(x.Fun, "make"):
			return exprString(x.Args[0]), nil
		case isIdent(x.Fun, "wave"):
			return "[]float32", nil
		case isIdent(x.Fun, "seq16"):
			return "[]uint16", nil
		case isIdent(x.Fun, "seq8"):
			return "[]uint8", nil
		}
		return exprString(x.Fun), nil // a conversion
	}
	return "", fmt.Errorf("cannot tell the type of %s", exprString(e))
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.ArrayType:
		return "[]" + exprString(x.Elt)
	case *ast.BasicLit:
		return x.Value
	}
	return fmt.Sprintf("%T", e)
}

func evalSlice(e ast.Expr, typ string) (Arg, error) {
	a := Arg{Type: typ}
	elem := typ[2:]
	switch x := e.(type) {
	case *ast.Ident:
		if x.Name == "nil" {
			return a, nil
		}
	case *ast.CompositeLit:
		if t := exprString(x.Type); t != typ {
			return Arg{}, fmt.Errorf("want %s, got %s", typ, t)
		}
		for _, el := range x.Elts {
			v, err := evalArg(el, elem)
			if err != nil {
				return Arg{}, err
			}
			switch elem {
			case "string":
				a.Strs = append(a.Strs, v.Str)
			case "float32", "float64":
				a.Elems = append(a.Elems, v.Float)
			default:
				a.Elems = append(a.Elems, float64(v.Int))
			}
		}
		if elem == "string" && a.Strs == nil {
			a.Strs = []string{}
		}
		if elem != "string" && a.Elems == nil {
			a.Elems = []float64{}
		}
		return a, nil
	case *ast.CallExpr:
		n := func(i int) (int, error) {
			if i >= len(x.Args) {
				return 0, fmt.Errorf("missing argument")
			}
			v, err := evalNum(x.Args[i])
			if err != nil || v.isFloat || v.i < 0 || v.i > 1<<32 {
				return 0, fmt.Errorf("bad length in %s", exprString(x.Fun))
			}
			return int(v.i), err
		}
		var err error
		switch {
		case isIdent(x.Fun, "make"):
			a.Fill = FillZero
			a.Len, err = n(1)
		case isIdent(x.Fun, "wave"):
			a.Fill = FillWave
			a.Len, err = n(0)
		case isIdent(x.Fun, "seq16"), isIdent(x.Fun, "seq8"):
			a.Fill = FillSeq
			if a.Len, err = n(0); err == nil {
				a.Mod, err = n(1)
			}
		default:
			return Arg{}, fmt.Errorf("unknown slice function %s", exprString(x.Fun))
		}
		return a, err
	}
	return Arg{}, fmt.Errorf("want a %s", typ)
}

type num struct {
	i       int64
	f       float64
	isFloat bool
}

// evalNum evaluates a constant expression: literals, enumerants, the math
// package's limits, NaN and Inf, conversions and integer arithmetic.
func evalNum(e ast.Expr) (num, error) {
	switch x := e.(type) {
	case *ast.BasicLit:
		switch x.Kind {
		case token.INT, token.CHAR:
			v, err := strconv.ParseInt(x.Value, 0, 64)
			if err != nil {
				u, uerr := strconv.ParseUint(x.Value, 0, 64)
				if uerr != nil {
					return num{}, err
				}
				v = int64(u)
			}
			return num{i: v}, nil
		case token.FLOAT:
			v, err := strconv.ParseFloat(x.Value, 64)
			return num{f: v, isFloat: true}, err
		}
	case *ast.ParenExpr:
		return evalNum(x.X)
	case *ast.Ident:
		switch x.Name {
		case "true":
			return num{i: 1}, nil
		case "false":
			return num{}, nil
		}
	case *ast.SelectorExpr:
		if isSel(x, "gles", x.Sel.Name) {
			v, ok := enumByName[x.Sel.Name]
			if !ok {
				return num{}, fmt.Errorf("unknown enumerant gles.%s", x.Sel.Name)
			}
			return num{i: int64(v)}, nil
		}
		if isSel(x, "math", x.Sel.Name) {
			switch x.Sel.Name {
			case "MaxInt", "MaxInt64":
				return num{i: math.MaxInt64}, nil
			case "MinInt", "MinInt64":
				return num{i: math.MinInt64}, nil
			case "MaxInt32":
				return num{i: math.MaxInt32}, nil
			case "MinInt32":
				return num{i: math.MinInt32}, nil
			case "MaxUint32":
				return num{i: math.MaxUint32}, nil
			case "MaxInt16":
				return num{i: math.MaxInt16}, nil
			case "MaxUint16":
				return num{i: math.MaxUint16}, nil
			case "MaxFloat32":
				return num{f: math.MaxFloat32, isFloat: true}, nil
			case "SmallestNonzeroFloat32":
				return num{f: math.SmallestNonzeroFloat32, isFloat: true}, nil
			}
		}
	case *ast.UnaryExpr:
		v, err := evalNum(x.X)
		if err != nil {
			return num{}, err
		}
		switch x.Op {
		case token.SUB:
			v.i, v.f = -v.i, -v.f
			return v, nil
		case token.ADD:
			return v, nil
		case token.XOR:
			v.i = ^v.i
			return v, nil
		}
	case *ast.BinaryExpr:
		l, err := evalNum(x.X)
		if err != nil {
			return num{}, err
		}
		r, err := evalNum(x.Y)
		if err != nil {
			return num{}, err
		}
		if l.isFloat || r.isFloat {
			return num{}, fmt.Errorf("float arithmetic is not supported")
		}
		switch x.Op {
		case token.ADD:
			return num{i: l.i + r.i}, nil
		case token.SUB:
			return num{i: l.i - r.i}, nil
		case token.MUL:
			return num{i: l.i * r.i}, nil
		case token.QUO:
			if r.i == 0 {
				return num{}, fmt.Errorf("division by zero")
			}
			return num{i: l.i / r.i}, nil
		case token.SHL:
			return num{i: l.i << uint(r.i)}, nil
		case token.OR:
			return num{i: l.i | r.i}, nil
		}
	case *ast.CallExpr:
		switch {
		case isSel(x.Fun, "math", "NaN"):
			return num{f: math.NaN(), isFloat: true}, nil
		case isSel(x.Fun, "math", "Inf"):
			v, err := evalNum(x.Args[0])
			if err != nil {
				return num{}, err
			}
			return num{f: math.Inf(int(v.i)), isFloat: true}, nil
		case isSel(x.Fun, "math", "Copysign"):
			a, err := evalNum(x.Args[0])
			if err != nil {
				return num{}, err
			}
			b, err := evalNum(x.Args[1])
			if err != nil {
				return num{}, err
			}
			af, bf := a.f, b.f
			if !a.isFloat {
				af = float64(a.i)
			}
			if !b.isFloat {
				bf = float64(b.i)
			}
			return num{f: math.Copysign(af, bf), isFloat: true}, nil
		}
		if len(x.Args) != 1 {
			break
		}
		v, err := evalNum(x.Args[0])
		if err != nil {
			return num{}, err
		}
		switch t := exprString(x.Fun); t {
		case "float32":
			if !v.isFloat {
				v = num{f: float64(v.i), isFloat: true}
			}
			v.f = float64(float32(v.f))
			return v, nil
		case "float64":
			if !v.isFloat {
				v = num{f: float64(v.i), isFloat: true}
			}
			return v, nil
		case "int", "int64", "uintptr", "gles.Enum", "gles.Fixed", "uint32", "int32", "uint8", "int8", "int16", "uint16":
			if v.isFloat {
				return num{}, fmt.Errorf("float converted to %s", t)
			}
			return v, nil
		}
	}
	return num{}, fmt.Errorf("cannot evaluate %s", exprString(e))
}
