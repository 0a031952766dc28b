package glsl

// The syntax tree the parser builds. It mirrors the grammar and is private
// to the package: the checker turns it into the typed tree (tree.go) that
// the rest of the compiler uses.

type astExpr interface{ exprPos() Pos }
type astStmt interface{ stmtPos() Pos }

// typeSpec is a type as written: a keyword, a struct name or a struct
// definition, optionally followed by an array size ("float[3]").
type typeSpec struct {
	pos      Pos
	name     string      // keyword or struct name; "" for a struct definition
	def      *structSpec // struct definition
	hasArray bool
	arrayLen astExpr // nil for "[]"
}

type structSpec struct {
	pos     Pos
	name    string // "" when anonymous
	namePos Pos
	members []*memberDecl
}

type memberDecl struct {
	prec    Precision
	precPos Pos
	ty      *typeSpec
	decls   []*declarator
}

// qualifiers as written before a type.
type qualifiers struct {
	storage    string // "", "const", "attribute", "varying", "uniform"
	storagePos Pos
	invariant  bool
	invPos     Pos
	centroid   bool
	prec       Precision
	precPos    Pos
	dir        string // parameters: "", "in", "out", "inout"
}

type fullType struct {
	pos  Pos
	qual qualifiers
	ty   *typeSpec
}

type declarator struct {
	pos      Pos
	name     string
	hasArray bool
	arrayLen astExpr
	init     astExpr
}

// Declarations (external declarations, and statements through declStmt).

type varDecl struct {
	pos   Pos
	ft    fullType
	decls []*declarator
}

type precisionDecl struct {
	pos  Pos
	prec Precision
	ty   *typeSpec
}

type invariantDecl struct {
	pos   Pos
	names []*identExpr
}

type param struct {
	pos      Pos
	qual     qualifiers
	ty       *typeSpec
	name     string
	namePos  Pos
	hasArray bool
	arrayLen astExpr
}

type funcDecl struct {
	pos     Pos
	ret     fullType
	name    string
	namePos Pos
	params  []*param
	body    *compoundStmt // nil for a prototype
}

type translationUnit struct {
	decls []astStmt // *varDecl, *precisionDecl, *invariantDecl, *funcDecl
}

func (d *varDecl) stmtPos() Pos       { return d.pos }
func (d *precisionDecl) stmtPos() Pos { return d.pos }
func (d *invariantDecl) stmtPos() Pos { return d.pos }
func (d *funcDecl) stmtPos() Pos      { return d.pos }

// Statements.

type compoundStmt struct {
	pos   Pos
	end   Pos
	stmts []astStmt
}

type exprStmt struct {
	pos Pos
	x   astExpr
}

type ifStmt struct {
	pos       Pos
	cond      astExpr
	then, els astStmt
}

// condition of a while or for loop: an expression, or a declaration with
// an initializer ("while (bool b = f())").
type condition struct {
	x    astExpr
	decl *varDecl
}

type forStmt struct {
	pos  Pos
	init astStmt // *exprStmt, *varDecl or nil
	cond *condition
	post astExpr
	body astStmt
}

type whileStmt struct {
	pos  Pos
	cond *condition
	body astStmt
}

type doStmt struct {
	pos  Pos
	body astStmt
	cond astExpr
}

type returnStmt struct {
	pos Pos
	x   astExpr
}

// jumpStmt is break, continue or discard.
type jumpStmt struct {
	pos  Pos
	kind string
}

type emptyStmt struct{ pos Pos }

func (s *compoundStmt) stmtPos() Pos { return s.pos }
func (s *exprStmt) stmtPos() Pos     { return s.pos }
func (s *ifStmt) stmtPos() Pos       { return s.pos }
func (s *forStmt) stmtPos() Pos      { return s.pos }
func (s *whileStmt) stmtPos() Pos    { return s.pos }
func (s *doStmt) stmtPos() Pos       { return s.pos }
func (s *returnStmt) stmtPos() Pos   { return s.pos }
func (s *jumpStmt) stmtPos() Pos     { return s.pos }
func (s *emptyStmt) stmtPos() Pos    { return s.pos }

// Expressions.

type identExpr struct {
	pos  Pos
	name string
}

type litExpr struct{ tok token }

type unaryExpr struct {
	pos     Pos
	op      string // "+", "-", "!", "~", "++", "--"
	postfix bool
	x       astExpr
}

type binaryExpr struct {
	pos  Pos // of the operator
	op   string
	x, y astExpr
}

type assignExpr struct {
	pos  Pos // of the operator
	op   string
	x, y astExpr
}

type condExpr struct {
	pos     Pos // of the '?'
	c, t, f astExpr
}

type seqExpr struct {
	pos  Pos // of the ','
	x, y astExpr
}

type indexExpr struct {
	pos      Pos // of the '['
	x, index astExpr
}

type fieldExpr struct {
	pos     Pos // of the '.'
	x       astExpr
	name    string
	namePos Pos
}

// callExpr is a function call, a constructor (ctor set, or a struct name as
// callee, which the checker resolves) or the length() method (recv set).
type callExpr struct {
	pos    Pos
	callee string
	ctor   *typeSpec
	recv   astExpr
	method string
	args   []astExpr
}

// exprStart returns where an expression's text begins (exprPos is the
// operator of binary and postfix forms).
func exprStart(e astExpr) Pos {
	switch x := e.(type) {
	case *binaryExpr:
		return exprStart(x.x)
	case *assignExpr:
		return exprStart(x.x)
	case *condExpr:
		return exprStart(x.c)
	case *seqExpr:
		return exprStart(x.x)
	case *indexExpr:
		return exprStart(x.x)
	case *fieldExpr:
		return exprStart(x.x)
	case *unaryExpr:
		if x.postfix {
			return exprStart(x.x)
		}
	case *callExpr:
		if x.recv != nil {
			return exprStart(x.recv)
		}
	}
	return e.exprPos()
}

func (e *identExpr) exprPos() Pos  { return e.pos }
func (e *litExpr) exprPos() Pos    { return e.tok.pos }
func (e *unaryExpr) exprPos() Pos  { return e.pos }
func (e *binaryExpr) exprPos() Pos { return e.pos }
func (e *assignExpr) exprPos() Pos { return e.pos }
func (e *condExpr) exprPos() Pos   { return e.pos }
func (e *seqExpr) exprPos() Pos    { return e.pos }
func (e *indexExpr) exprPos() Pos  { return e.pos }
func (e *fieldExpr) exprPos() Pos  { return e.pos }
func (e *callExpr) exprPos() Pos   { return e.pos }
