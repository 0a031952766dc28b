package glsl

// maxNesting bounds the nesting of expressions, statements and #if
// expressions, and maxChain the length of operator chains ("a+b+c...",
// "a[0][1]..."), which build left-deep trees: every later pass may then
// recurse over the tree without risk.
const (
	maxNesting = 512
	maxChain   = 4096
)

// parser is a recursive-descent parser for the GLSL ES 1.00 grammar
// (section 9), with the GLSL 1.20 additions (array types "float[3]",
// array constructors, length(), centroid). It stops at the first syntax
// error, as Mesa's and glslang's parsers do.
type parser struct {
	toks    []token
	i       int
	tok     token
	d       *diags
	version int
	depth   int
}

// errAbort unwinds the parser after the first syntax error.
type errAbort struct{}

func parse(toks []token, version int, d *diags) (tu *translationUnit) {
	p := &parser{toks: toks, d: d, version: version}
	p.tok = toks[0]
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(errAbort); !ok {
				panic(r)
			}
			tu = nil
		}
	}()
	tu = &translationUnit{}
	for p.tok.kind != tEOF {
		tu.decls = append(tu.decls, p.externalDecl())
	}
	return tu
}

func (p *parser) next() token {
	t := p.tok
	if p.i < len(p.toks)-1 {
		p.i++
	}
	p.tok = p.toks[p.i]
	return t
}

func (p *parser) peek(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) fail(pos Pos, format string, args ...any) {
	p.d.errorf(pos, format, args...)
	panic(errAbort{})
}

func describe(t token) string {
	if t.kind == tEOF {
		return "end of file"
	}
	return "'" + t.text + "'"
}

func (p *parser) unexpected(expecting string) {
	msg := "syntax error, unexpected " + describe(p.tok)
	if expecting != "" {
		msg += ", expecting " + expecting
	}
	p.fail(p.tok.pos, "%s", msg)
}

func (p *parser) expect(text string) token {
	if !p.tok.is(text) {
		p.unexpected("'" + text + "'")
	}
	return p.next()
}

func (p *parser) accept(text string) bool {
	if p.tok.is(text) {
		p.next()
		return true
	}
	return false
}

func (p *parser) ident() token {
	if p.tok.kind != tIdent {
		p.unexpected("an identifier")
	}
	return p.next()
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxNesting {
		p.fail(p.tok.pos, "program too deeply nested")
	}
}

func (p *parser) leave() { p.depth-- }

// Declarations.

func (p *parser) externalDecl() astStmt {
	if p.tok.is(";") {
		// A stray ';' at global scope is accepted by the grammar of later
		// versions and by every compiler; keep it harmless.
		pos := p.next().pos
		return &emptyStmt{pos: pos}
	}
	return p.declaration(true)
}

// declaration parses a declaration starting at the current token: a
// precision statement, an invariant redeclaration, a function prototype or
// definition, or a list of variable declarators.
func (p *parser) declaration(global bool) astStmt {
	start := p.tok.pos
	if p.tok.is("precision") {
		p.next()
		prec := p.precision()
		if prec == PrecNone {
			p.unexpected("a precision qualifier")
		}
		ty := p.typeSpec()
		p.expect(";")
		return &precisionDecl{pos: start, prec: prec, ty: ty}
	}
	if p.tok.is("invariant") && p.peek(1).kind == tIdent {
		p.next()
		d := &invariantDecl{pos: start}
		for {
			id := p.ident()
			d.names = append(d.names, &identExpr{pos: id.pos, name: id.text})
			if !p.accept(",") {
				break
			}
		}
		p.expect(";")
		return d
	}
	ft := p.fullType()
	if p.tok.kind == tIdent && p.peek(1).is("(") {
		return p.function(ft)
	}
	d := &varDecl{pos: start, ft: ft}
	if p.accept(";") {
		return d
	}
	for {
		d.decls = append(d.decls, p.declarator(true))
		if !p.accept(",") {
			break
		}
	}
	p.expect(";")
	return d
}

func (p *parser) precision() Precision {
	switch {
	case p.tok.is("lowp"):
		p.next()
		return Lowp
	case p.tok.is("mediump"):
		p.next()
		return Mediump
	case p.tok.is("highp"):
		p.next()
		return Highp
	}
	return PrecNone
}

// fullType parses [invariant] [centroid] [storage] [precision] type, in the
// grammar's order.
func (p *parser) fullType() fullType {
	ft := fullType{pos: p.tok.pos}
	q := &ft.qual
	if p.tok.is("invariant") {
		q.invariant, q.invPos = true, p.tok.pos
		p.next()
	}
	if p.tok.is("centroid") {
		q.centroid = true
		p.next()
	}
	switch {
	case p.tok.is("const"), p.tok.is("attribute"), p.tok.is("varying"), p.tok.is("uniform"):
		q.storage, q.storagePos = p.tok.text, p.tok.pos
		p.next()
	}
	if (q.invariant || q.centroid) && q.storage != "varying" {
		p.unexpected("'varying'")
	}
	q.precPos = p.tok.pos
	q.prec = p.precision()
	ft.ty = p.typeSpec()
	return ft
}

// typeSpec parses a type keyword, a struct name or a struct definition,
// with an optional array size.
func (p *parser) typeSpec() *typeSpec {
	ts := &typeSpec{pos: p.tok.pos}
	switch {
	case p.tok.is("struct"):
		ts.def = p.structSpec()
	case p.tok.kind == tKeyword && isTypeKeyword(p.tok.text):
		ts.name = p.next().text
	case p.tok.kind == tIdent:
		ts.name = p.next().text
	default:
		p.unexpected("a type")
	}
	if p.tok.is("[") {
		p.next()
		ts.hasArray = true
		if !p.tok.is("]") {
			ts.arrayLen = p.condExpr()
		}
		p.expect("]")
	}
	return ts
}

func isTypeKeyword(s string) bool {
	_, ok := typeByName(s)
	return ok
}

func (p *parser) structSpec() *structSpec {
	s := &structSpec{pos: p.next().pos}
	if p.tok.kind == tIdent {
		s.namePos = p.tok.pos
		s.name = p.next().text
	}
	p.expect("{")
	p.enter()
	defer p.leave()
	for !p.tok.is("}") {
		m := &memberDecl{precPos: p.tok.pos}
		m.prec = p.precision()
		m.ty = p.typeSpec()
		for {
			m.decls = append(m.decls, p.declarator(false))
			if !p.accept(",") {
				break
			}
		}
		p.expect(";")
		s.members = append(s.members, m)
	}
	p.next()
	if len(s.members) == 0 {
		p.fail(s.pos, "empty struct declaration")
	}
	return s
}

func (p *parser) declarator(allowInit bool) *declarator {
	id := p.ident()
	d := &declarator{pos: id.pos, name: id.text}
	if p.accept("[") {
		d.hasArray = true
		if !p.tok.is("]") {
			d.arrayLen = p.condExpr()
		}
		p.expect("]")
	}
	if allowInit && p.accept("=") {
		d.init = p.assignExpr()
	}
	return d
}

func (p *parser) function(ft fullType) astStmt {
	id := p.next()
	f := &funcDecl{pos: ft.pos, ret: ft, name: id.text, namePos: id.pos}
	p.expect("(")
	if p.tok.is("void") && p.peek(1).is(")") {
		p.next()
	}
	if !p.tok.is(")") {
		for {
			f.params = append(f.params, p.param())
			if !p.accept(",") {
				break
			}
		}
	}
	p.expect(")")
	if p.tok.is("{") {
		f.body = p.compound()
		return f
	}
	p.expect(";")
	return f
}

func (p *parser) param() *param {
	pr := &param{pos: p.tok.pos}
	if p.tok.is("const") {
		pr.qual.storage, pr.qual.storagePos = "const", p.tok.pos
		p.next()
	}
	if p.tok.is("in") || p.tok.is("out") || p.tok.is("inout") {
		pr.qual.dir = p.next().text
	}
	pr.qual.precPos = p.tok.pos
	pr.qual.prec = p.precision()
	pr.ty = p.typeSpec()
	if p.tok.kind == tIdent {
		id := p.next()
		pr.name, pr.namePos = id.text, id.pos
		if p.accept("[") {
			pr.hasArray = true
			if !p.tok.is("]") {
				pr.arrayLen = p.condExpr()
			}
			p.expect("]")
		}
	}
	return pr
}

// Statements.

func (p *parser) compound() *compoundStmt {
	s := &compoundStmt{pos: p.expect("{").pos}
	p.enter()
	defer p.leave()
	for !p.tok.is("}") {
		if p.tok.kind == tEOF {
			p.unexpected("'}'")
		}
		s.stmts = append(s.stmts, p.statement())
	}
	s.end = p.next().pos
	return s
}

func (p *parser) statement() astStmt {
	p.enter()
	defer p.leave()
	t := p.tok
	switch {
	case t.is("{"):
		return p.compound()
	case t.is(";"):
		p.next()
		return &emptyStmt{pos: t.pos}
	case t.is("if"):
		p.next()
		p.expect("(")
		s := &ifStmt{pos: t.pos, cond: p.expr()}
		p.expect(")")
		s.then = p.statement()
		if p.accept("else") {
			s.els = p.statement()
		}
		return s
	case t.is("for"):
		p.next()
		p.expect("(")
		s := &forStmt{pos: t.pos}
		switch {
		case p.tok.is(";"):
			p.next()
		case p.isDeclStart():
			s.init = p.declaration(false)
		default:
			s.init = &exprStmt{pos: p.tok.pos, x: p.expr()}
			p.expect(";")
		}
		if !p.tok.is(";") {
			s.cond = p.condition()
		}
		p.expect(";")
		if !p.tok.is(")") {
			s.post = p.expr()
		}
		p.expect(")")
		s.body = p.statement()
		return s
	case t.is("while"):
		p.next()
		p.expect("(")
		s := &whileStmt{pos: t.pos, cond: p.condition()}
		p.expect(")")
		s.body = p.statement()
		return s
	case t.is("do"):
		p.next()
		s := &doStmt{pos: t.pos, body: p.statement()}
		p.expect("while")
		p.expect("(")
		s.cond = p.expr()
		p.expect(")")
		p.expect(";")
		return s
	case t.is("return"):
		p.next()
		s := &returnStmt{pos: t.pos}
		if !p.tok.is(";") {
			s.x = p.expr()
		}
		p.expect(";")
		return s
	case t.is("break"), t.is("continue"), t.is("discard"):
		p.next()
		p.expect(";")
		return &jumpStmt{pos: t.pos, kind: t.text}
	case p.isDeclStart():
		return p.declaration(false)
	}
	s := &exprStmt{pos: t.pos, x: p.expr()}
	p.expect(";")
	return s
}

// condition parses a loop condition: an expression or "type name = init".
func (p *parser) condition() *condition {
	if !p.isDeclStart() {
		return &condition{x: p.expr()}
	}
	start := p.tok.pos
	ft := p.fullType()
	id := p.ident()
	p.expect("=")
	d := &declarator{pos: id.pos, name: id.text, init: p.assignExpr()}
	return &condition{decl: &varDecl{pos: start, ft: ft, decls: []*declarator{d}}}
}

// isDeclStart decides, with bounded lookahead, whether a statement is a
// declaration. "T x", "T[2] x" and qualified types are declarations; "T(",
// "T[2](" are constructor calls; anything else is an expression.
func (p *parser) isDeclStart() bool {
	t := p.tok
	if t.kind == tKeyword {
		switch t.text {
		case "const", "attribute", "varying", "uniform", "invariant", "centroid",
			"lowp", "mediump", "highp", "precision", "struct", "in", "out", "inout":
			return true
		}
		if !isTypeKeyword(t.text) {
			return false
		}
		next := p.peek(1)
		if next.is("(") {
			return false
		}
		if next.is("[") {
			return !p.tok2AfterBrackets(1).is("(")
		}
		return true
	}
	if t.kind != tIdent {
		return false
	}
	next := p.peek(1)
	if next.kind == tIdent {
		return true
	}
	if next.is("[") {
		return p.tok2AfterBrackets(1).kind == tIdent
	}
	return false
}

// tok2AfterBrackets returns the token after the bracketed group that starts
// at lookahead offset n.
func (p *parser) tok2AfterBrackets(n int) token {
	depth := 0
	for k := n; p.i+k < len(p.toks); k++ {
		t := p.peek(k)
		switch {
		case t.is("["):
			depth++
		case t.is("]"):
			depth--
			if depth == 0 {
				return p.peek(k + 1)
			}
		case t.kind == tEOF:
			return t
		}
	}
	return p.toks[len(p.toks)-1]
}

// Expressions.

func (p *parser) expr() astExpr {
	x := p.assignExpr()
	for n := 0; p.tok.is(","); n++ {
		if n >= maxChain {
			p.fail(p.tok.pos, "expression too long")
		}
		pos := p.next().pos
		x = &seqExpr{pos: pos, x: x, y: p.assignExpr()}
	}
	return x
}

var assignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true,
	"%=": true, "<<=": true, ">>=": true, "&=": true, "^=": true, "|=": true}

func (p *parser) assignExpr() astExpr {
	p.enter()
	defer p.leave()
	x := p.condExpr()
	if p.tok.kind == tPunct && assignOps[p.tok.text] {
		op := p.next()
		return &assignExpr{pos: op.pos, op: op.text, x: x, y: p.assignExpr()}
	}
	return x
}

func (p *parser) condExpr() astExpr {
	c := p.binary(1)
	if !p.tok.is("?") {
		return c
	}
	pos := p.next().pos
	p.enter()
	defer p.leave()
	t := p.expr()
	p.expect(":")
	return &condExpr{pos: pos, c: c, t: t, f: p.assignExpr()}
}

var binaryPrec = map[string]int{
	"||": 1, "^^": 2, "&&": 3, "|": 4, "^": 5, "&": 6, "==": 7, "!=": 7,
	"<": 8, ">": 8, "<=": 8, ">=": 8, "<<": 9, ">>": 9, "+": 10, "-": 10, "*": 11, "/": 11, "%": 11,
}

func (p *parser) binary(minPrec int) astExpr {
	x := p.unary()
	for n := 0; ; n++ {
		prec, ok := binaryPrec[p.tok.text]
		if p.tok.kind != tPunct || !ok || prec < minPrec {
			return x
		}
		if n >= maxChain {
			p.fail(p.tok.pos, "expression too long")
		}
		op := p.next()
		x = &binaryExpr{pos: op.pos, op: op.text, x: x, y: p.binary(prec + 1)}
	}
}

func (p *parser) unary() astExpr {
	p.enter()
	defer p.leave()
	if p.tok.kind == tPunct {
		switch p.tok.text {
		case "++", "--", "+", "-", "!", "~":
			op := p.next()
			return &unaryExpr{pos: op.pos, op: op.text, x: p.unary()}
		}
	}
	return p.postfix()
}

func (p *parser) postfix() astExpr {
	x := p.primary()
	for n := 0; ; n++ {
		if n >= maxChain {
			p.fail(p.tok.pos, "expression too long")
		}
		switch {
		case p.tok.is("["):
			pos := p.next().pos
			idx := p.expr()
			p.expect("]")
			x = &indexExpr{pos: pos, x: x, index: idx}
		case p.tok.is("."):
			pos := p.next().pos
			id := p.ident()
			if p.tok.is("(") {
				c := &callExpr{pos: id.pos, recv: x, method: id.text}
				c.args = p.args()
				x = c
				continue
			}
			x = &fieldExpr{pos: pos, x: x, name: id.text, namePos: id.pos}
		case p.tok.is("++"), p.tok.is("--"):
			op := p.next()
			x = &unaryExpr{pos: op.pos, op: op.text, postfix: true, x: x}
		default:
			return x
		}
	}
}

func (p *parser) primary() astExpr {
	t := p.tok
	switch t.kind {
	case tInt, tFloat, tBool:
		p.next()
		return &litExpr{tok: t}
	case tIdent:
		p.next()
		if p.tok.is("(") {
			c := &callExpr{pos: t.pos, callee: t.text}
			c.args = p.args()
			return c
		}
		if p.tok.is("[") && p.tok2AfterBrackets(0).is("(") {
			// An array constructor of a struct type: "S[2](...)".
			ts := &typeSpec{pos: t.pos, name: t.text}
			p.arraySuffix(ts)
			c := &callExpr{pos: t.pos, ctor: ts}
			c.args = p.args()
			return c
		}
		return &identExpr{pos: t.pos, name: t.text}
	case tKeyword:
		if isTypeKeyword(t.text) {
			p.next()
			ts := &typeSpec{pos: t.pos, name: t.text}
			if p.tok.is("[") {
				p.arraySuffix(ts)
			}
			if !p.tok.is("(") {
				p.unexpected("'('")
			}
			c := &callExpr{pos: t.pos, ctor: ts}
			c.args = p.args()
			return c
		}
	case tPunct:
		if t.is("(") {
			p.next()
			p.enter()
			x := p.expr()
			p.leave()
			p.expect(")")
			return x
		}
	}
	p.unexpected("")
	return nil
}

func (p *parser) arraySuffix(ts *typeSpec) {
	p.expect("[")
	ts.hasArray = true
	if !p.tok.is("]") {
		ts.arrayLen = p.condExpr()
	}
	p.expect("]")
}

// args parses a call's argument list, including the "(void)" form.
func (p *parser) args() []astExpr {
	p.expect("(")
	if p.tok.is("void") && p.peek(1).is(")") {
		p.next()
	}
	var args []astExpr
	if !p.tok.is(")") {
		for {
			args = append(args, p.assignExpr())
			if !p.accept(",") {
				break
			}
		}
	}
	p.expect(")")
	return args
}
