package glsl

import (
	"fmt"
	"io"
	"strings"
)

// Print writes the checked tree in its text form: one declaration or
// statement per line, expressions as typed S-expressions "(op type args)".
// The form is stable; golden tests and glslc -tree use it.
func Print(w io.Writer, sh *Shader) error {
	p := &printer{}
	p.shader(sh)
	_, err := io.WriteString(w, p.b.String())
	return err
}

// String returns the text form of the shader (see Print).
func (sh *Shader) String() string {
	p := &printer{}
	p.shader(sh)
	return p.b.String()
}

type printer struct {
	b      strings.Builder
	indent int
}

func (p *printer) line(format string, args ...any) {
	p.b.WriteString(strings.Repeat("  ", p.indent))
	fmt.Fprintf(&p.b, format, args...)
	p.b.WriteByte('\n')
}

func qualifiedType(v *Var) string {
	var parts []string
	if v.Invariant {
		parts = append(parts, "invariant")
	}
	if v.Centroid {
		parts = append(parts, "centroid")
	}
	if v.Prec != PrecNone {
		parts = append(parts, v.Prec.String())
	}
	return strings.Join(append(parts, v.Type.String()), " ")
}

func (p *printer) shader(sh *Shader) {
	p.line("shader %s version %d", sh.Stage, sh.Version)
	for _, s := range sh.Structs {
		var f []string
		for _, x := range s.Fields {
			t := x.Type.String()
			if x.Prec != PrecNone {
				t = x.Prec.String() + " " + t
			}
			f = append(f, t+" "+x.Name)
		}
		name := s.Name
		if name == "" {
			name = "<anonymous>"
		}
		p.line("struct %s { %s }", name, strings.Join(f, "; "))
	}
	for _, v := range sh.Builtins {
		if v.Invariant {
			p.line("invariant %s", v.Name)
		}
	}
	for _, g := range sh.Globals {
		v := g.Var
		s := fmt.Sprintf("%s %s %s", v.Storage, qualifiedType(v), v.Name)
		if v.Value != nil {
			s += " = " + v.Value.String()
		} else if g.Init != nil {
			s += " = " + expr(g.Init)
		}
		p.line("%s", s)
	}
	for _, f := range sh.Funcs {
		var params []string
		for _, v := range f.Params {
			q := v.Dir.String()
			if v.ConstIn {
				q = "const in"
			}
			params = append(params, fmt.Sprintf("%s %s %s", q, qualifiedType(v), v.Name))
		}
		ret := f.Ret.String()
		if f.RetPrec != PrecNone {
			ret = f.RetPrec.String() + " " + ret
		}
		p.line("function %s %s(%s)", ret, f.Name, strings.Join(params, ", "))
		if f.Body != nil {
			p.stmt(f.Body)
		}
	}
}

func (p *printer) stmt(s Stmt) {
	switch x := s.(type) {
	case *Block:
		p.line("{")
		p.indent++
		for _, st := range x.Stmts {
			p.stmt(st)
		}
		p.indent--
		p.line("}")
	case *VarDecl:
		p.line("%s", printVarDecl(x))
	case *ExprStmt:
		p.line("%s", expr(x.X))
	case *If:
		p.line("if %s", expr(x.Cond))
		p.sub(x.Then)
		if x.Else != nil {
			p.line("else")
			p.sub(x.Else)
		}
	case *Loop:
		var parts []string
		if x.Init != nil {
			switch i := x.Init.(type) {
			case *VarDecl:
				parts = append(parts, "init "+printVarDecl(i))
			case *ExprStmt:
				parts = append(parts, "init "+expr(i.X))
			}
		}
		if x.CondVar != nil {
			parts = append(parts, "cond "+printVarDecl(x.CondVar))
		} else if x.Cond != nil {
			parts = append(parts, "cond "+expr(x.Cond))
		}
		if x.Post != nil {
			parts = append(parts, "post "+expr(x.Post))
		}
		if x.Info != nil {
			parts = append(parts, fmt.Sprintf("[index %s, %d iterations]", x.Info.Index.Name, x.Info.Iterations))
		}
		p.line("%s %s", x.Kind, strings.Join(parts, "; "))
		p.sub(x.Body)
	case *Return:
		if x.X == nil {
			p.line("return")
		} else {
			p.line("return %s", expr(x.X))
		}
	case *Jump:
		p.line("%s", x.Kind)
	}
}

func (p *printer) sub(s Stmt) {
	if _, ok := s.(*Block); ok {
		p.stmt(s)
		return
	}
	p.indent++
	if s != nil {
		p.stmt(s)
	}
	p.indent--
}

func printVarDecl(d *VarDecl) string {
	s := fmt.Sprintf("var %s %s", qualifiedType(d.Var), d.Var.Name)
	if d.Init != nil {
		s += " = " + expr(d.Init)
	}
	return s
}

var binaryNames = [...]string{"assign", "add", "sub", "mul", "matmul", "div", "lt", "gt", "le", "ge", "eq", "ne", "and", "or", "xor"}
var unaryNames = [...]string{"neg", "not", "preinc", "predec", "postinc", "postdec"}

// expr renders an expression as a typed S-expression.
func expr(e Expr) string {
	sx := func(op string, t Type, args ...string) string {
		return "(" + op + " " + t.String() + " " + strings.Join(args, " ") + ")"
	}
	switch x := e.(type) {
	case *ConstExpr:
		return x.Value.String()
	case *VarRef:
		return x.Var.Name
	case *Index:
		return sx("index", x.T, expr(x.X), expr(x.Index))
	case *FieldSel:
		return sx("field", x.T, expr(x.X), x.X.Type().Struct.Fields[x.Field].Name)
	case *Swizzle:
		var s []byte
		for _, k := range x.Comps {
			s = append(s, "xyzw"[k])
		}
		return sx("swizzle", x.T, expr(x.X), string(s))
	case *Unary:
		return sx(unaryNames[x.Op], x.T, expr(x.X))
	case *Binary:
		return sx(binaryNames[x.Op], x.T, expr(x.X), expr(x.Y))
	case *Assign:
		op := "assign"
		if x.Op != OpAssign {
			op += "-" + binaryNames[x.Op]
		}
		return sx(op, x.T, expr(x.LHS), expr(x.RHS))
	case *Cond:
		return sx("cond", x.Type(), expr(x.C), expr(x.X), expr(x.Y))
	case *Seq:
		return sx("seq", x.Type(), expr(x.X), expr(x.Y))
	case *Call:
		return sx("call", x.Type(), append([]string{x.Func.Name}, exprs(x.Args)...)...)
	case *BuiltinCall:
		return sx("builtin", x.Type(), append([]string{x.Op.String()}, exprs(x.Args)...)...)
	case *Construct:
		return sx("construct", x.T, exprs(x.Args)...)
	}
	return "<invalid>"
}

func exprs(list []Expr) []string {
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = expr(e)
	}
	return out
}
