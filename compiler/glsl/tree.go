package glsl

// The typed tree: the output of the checker. Every expression has a type,
// every name is resolved, constant expressions are folded into ConstExpr,
// and built-in calls are BuiltinCall nodes naming their Op. Implicit
// conversions (GLSL 1.20 int->float) appear as explicit Construct nodes.

// Stage is the shader stage.
type Stage uint8

// Shader stages.
const (
	StageVertex Stage = iota
	StageFragment
)

// String returns the name of the Stage.
func (s Stage) String() string {
	if s == StageFragment {
		return "fragment"
	}
	return "vertex"
}

// Storage says where a variable lives.
type Storage uint8

// Storage classes. Built-in variables use the same classes as user ones
// (gl_Vertex is an Attribute, gl_ModelViewMatrix a Uniform, gl_TexCoord a
// Varying) except the special inputs and outputs of a stage (gl_FragCoord,
// gl_FrontFacing, gl_PointCoord are Input; gl_Position, gl_PointSize,
// gl_ClipVertex, gl_FragColor, gl_FragData, gl_FragDepth are Output).
const (
	StorageLocal Storage = iota
	StorageGlobal
	StorageConst
	StorageUniform
	StorageAttribute
	StorageVarying
	StorageParam
	StorageInput
	StorageOutput
)

var storageNames = [...]string{"local", "global", "const", "uniform", "attribute", "varying", "param", "input", "output"}

// String returns the name of the Storage.
func (s Storage) String() string { return storageNames[s] }

// ParamDir is a parameter's direction.
type ParamDir uint8

// Parameter directions.
const (
	DirIn ParamDir = iota
	DirOut
	DirInOut
)

// String returns the name of the ParamDir.
func (d ParamDir) String() string { return [...]string{"in", "out", "inout"}[d] }

// Var is a variable: global, local, parameter or built-in.
type Var struct {
	Name      string
	Type      Type
	Prec      Precision
	Storage   Storage
	Dir       ParamDir // parameters
	ConstIn   bool     // a "const in" parameter
	Invariant bool
	Centroid  bool
	Builtin   bool
	Value     *Value // the value of a const variable
	Pos       Pos
	Used      bool // statically used (read or written) anywhere in the shader
	Written   bool // statically written
}

// Function is a user-defined function.
type Function struct {
	Name    string
	Ret     Type
	RetPrec Precision
	Params  []*Var
	Body    *Block // nil when only declared
	Pos     Pos    // of the definition, or of the first prototype
	Calls   []*Function
	protoAt Pos // first prototype, for "declared twice"
}

// Signature renders the function as GLSL declares it.
func (f *Function) Signature() string {
	s := f.Ret.String() + " " + f.Name + "("
	for i, p := range f.Params {
		if i > 0 {
			s += ", "
		}
		s += p.Type.String()
	}
	return s + ")"
}

// GlobalDecl is a global variable with its initializer (nil when none).
// Non-constant globals are initialized in declaration order before main.
type GlobalDecl struct {
	Var  *Var
	Init Expr
}

// Shader is one checked shader.
type Shader struct {
	Stage        Stage
	Version      int  // 100, 110 or 120
	ES           bool // Version == 100
	Globals      []*GlobalDecl
	Funcs        []*Function // user functions in source order
	Main         *Function
	Structs      []*Struct
	Builtins     []*Var // built-in variables the shader references
	Extensions   map[string]ExtBehavior
	InvariantAll bool         // #pragma STDGL invariant(all)
	Warnings     []Diagnostic // warnings of a successful compile
}

// Expr is a typed expression.
type Expr interface {
	Type() Type
	Pos() Pos
	exprNode()
}

// UnaryOp is a unary operator.
type UnaryOp uint8

// Unary operators (unary + disappears during checking).
const (
	OpNeg UnaryOp = iota
	OpLogicalNot
	OpPreInc
	OpPreDec
	OpPostInc
	OpPostDec
)

// String returns the name of the UnaryOp.
func (op UnaryOp) String() string {
	return [...]string{"-", "!", "++x", "--x", "x++", "x--"}[op]
}

// BinaryOp is a binary operator.
type BinaryOp uint8

// Binary operators. OpMul is component-wise (with a scalar operand applied to
// every component); OpMatMul is the linear-algebra product of mat*mat,
// mat*vec and vec*mat.
const (
	OpAssign BinaryOp = iota // plain '=' in Assign
	OpAdd
	OpSub
	OpMul
	OpMatMul
	OpDiv
	OpLess
	OpGreater
	OpLessEq
	OpGreaterEq
	OpEq
	OpNotEq
	OpLogicalAnd
	OpLogicalOr
	OpLogicalXor
)

// String returns the name of the BinaryOp.
func (op BinaryOp) String() string {
	return [...]string{"=", "+", "-", "*", "matmul", "/", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "^^"}[op]
}

// ConstExpr is a folded constant expression. Var is set when it is a
// reference to a const variable.
type ConstExpr struct {
	P     Pos
	Value Value
	Var   *Var
}

// VarRef reads or names a variable.
type VarRef struct {
	P   Pos
	Var *Var
}

// Index selects an array element, a matrix column or a vector component.
// A constant index is in range (checked); a non-constant one is not.
type Index struct {
	P     Pos
	X     Expr
	Index Expr
	T     Type
}

// FieldSel selects structure field number Field.
type FieldSel struct {
	P     Pos
	X     Expr
	Field int
	T     Type
}

// Swizzle selects vector components (0..3 for x,y,z,w).
type Swizzle struct {
	P     Pos
	X     Expr
	Comps []uint8
	T     Type
}

// Unary is a unary operation.
type Unary struct {
	P  Pos
	Op UnaryOp
	X  Expr
	T  Type
}

// Binary is a binary operation. The operand types are those of X and Y;
// a scalar operand of a vector or matrix operation is applied to every
// component.
type Binary struct {
	P    Pos
	Op   BinaryOp
	X, Y Expr
	T    Type
}

// Assign is an assignment; Op is OpAssign for '=' or the operator of a
// compound assignment ("a *= m" has Op OpMatMul when m is a matrix).
type Assign struct {
	P   Pos
	Op  BinaryOp
	LHS Expr
	RHS Expr
	T   Type
}

// Cond is c ? t : f.
type Cond struct {
	P       Pos
	C, X, Y Expr
}

// Seq is the comma operator: X is evaluated for its effects, Y gives the value.
type Seq struct {
	P    Pos
	X, Y Expr
}

// Call calls a user-defined function. Arguments of in parameters have the
// parameter's type; an argument of an out parameter may have a type the
// parameter converts to (GLSL 1.20 int -> float), converted on copy-out.
type Call struct {
	P    Pos
	Func *Function
	Args []Expr
}

// BuiltinCall calls a built-in function.
type BuiltinCall struct {
	P    Pos
	Op   BuiltinOp
	Sig  *BuiltinSig
	Args []Expr
}

// Construct is a constructor (section 5.4). For scalar, vector and matrix
// types: a single scalar argument fills every component of a vector (the
// diagonal of a matrix, zeros elsewhere); a single matrix argument of a
// matrix type copies the overlapping part (identity elsewhere); otherwise
// the components of the arguments, in order (matrices column by column),
// fill the result, and the last argument may be used only in part. Each
// component converts between bool, int and float as a scalar constructor
// does (float to int truncates; to bool is "!= 0"). For structure and array
// types there is one argument of the exact type per field or element.
type Construct struct {
	P    Pos
	T    Type
	Args []Expr
}

// Type returns the type of the ConstExpr.
func (e *ConstExpr) Type() Type { return e.Value.Type }

// Type returns the type of the VarRef.
func (e *VarRef) Type() Type { return e.Var.Type }

// Type returns the type of the Index.
func (e *Index) Type() Type { return e.T }

// Type returns the type of the FieldSel.
func (e *FieldSel) Type() Type { return e.T }

// Type returns the type of the Swizzle.
func (e *Swizzle) Type() Type { return e.T }

// Type returns the type of the Unary.
func (e *Unary) Type() Type { return e.T }

// Type returns the type of the Binary.
func (e *Binary) Type() Type { return e.T }

// Type returns the type of the Assign.
func (e *Assign) Type() Type { return e.T }

// Type returns the type of the Cond.
func (e *Cond) Type() Type { return e.X.Type() }

// Type returns the type of the Seq.
func (e *Seq) Type() Type { return e.Y.Type() }

// Type returns the type of the Call.
func (e *Call) Type() Type { return e.Func.Ret }

// Type returns the type of the BuiltinCall.
func (e *BuiltinCall) Type() Type { return e.Sig.Ret }

// Type returns the type of the Construct.
func (e *Construct) Type() Type { return e.T }

// Pos returns the position of the ConstExpr.
func (e *ConstExpr) Pos() Pos { return e.P }

// Pos returns the position of the VarRef.
func (e *VarRef) Pos() Pos { return e.P }

// Pos returns the position of the Index.
func (e *Index) Pos() Pos { return e.P }

// Pos returns the position of the FieldSel.
func (e *FieldSel) Pos() Pos { return e.P }

// Pos returns the position of the Swizzle.
func (e *Swizzle) Pos() Pos { return e.P }

// Pos returns the position of the Unary.
func (e *Unary) Pos() Pos { return e.P }

// Pos returns the position of the Binary.
func (e *Binary) Pos() Pos { return e.P }

// Pos returns the position of the Assign.
func (e *Assign) Pos() Pos { return e.P }

// Pos returns the position of the Cond.
func (e *Cond) Pos() Pos { return e.P }

// Pos returns the position of the Seq.
func (e *Seq) Pos() Pos { return e.P }

// Pos returns the position of the Call.
func (e *Call) Pos() Pos { return e.P }

// Pos returns the position of the BuiltinCall.
func (e *BuiltinCall) Pos() Pos { return e.P }

// Pos returns the position of the Construct.
func (e *Construct) Pos() Pos { return e.P }

func (*ConstExpr) exprNode()   {}
func (*VarRef) exprNode()      {}
func (*Index) exprNode()       {}
func (*FieldSel) exprNode()    {}
func (*Swizzle) exprNode()     {}
func (*Unary) exprNode()       {}
func (*Binary) exprNode()      {}
func (*Assign) exprNode()      {}
func (*Cond) exprNode()        {}
func (*Seq) exprNode()         {}
func (*Call) exprNode()        {}
func (*BuiltinCall) exprNode() {}
func (*Construct) exprNode()   {}

// Stmt is a typed statement.
type Stmt interface {
	Pos() Pos
	stmtNode()
}

// Block is a compound statement.
type Block struct {
	P     Pos
	Stmts []Stmt
}

// VarDecl declares one local variable, with its initializer or nil.
type VarDecl struct {
	P    Pos
	Var  *Var
	Init Expr
}

// ExprStmt evaluates an expression for its effects.
type ExprStmt struct {
	P Pos
	X Expr
}

// If is an if statement; Else may be nil.
type If struct {
	P          Pos
	Cond       Expr
	Then, Else Stmt
}

// LoopKind tells the three loops apart.
type LoopKind uint8

// Loop kinds.
const (
	LoopFor LoopKind = iota
	LoopWhile
	LoopDoWhile
)

// String returns the name of the LoopKind.
func (k LoopKind) String() string { return [...]string{"for", "while", "do-while"}[k] }

// Loop is a for, while or do-while loop. Init (for only) runs once; Cond
// is tested before each iteration (after it, for do-while), nil meaning
// true; CondVar is a declaration in the condition ("while (bool b = f())"),
// re-initialized before each test; Post runs after each iteration. Info
// describes a loop of the form of GLSL ES 1.00 Appendix A, nil otherwise.
type Loop struct {
	P       Pos
	Kind    LoopKind
	Init    Stmt
	Cond    Expr
	CondVar *VarDecl
	Post    Expr
	Body    Stmt
	Info    *LoopInfo
}

// LoopInfo describes a for loop in the Appendix A form
// "for (type i = start; i op limit; i += step)" whose index the body never
// writes. Iterations is the trip count computed from the constants with
// GLSL arithmetic, or -1 beyond 2^20 iterations (a loop that never ends,
// or one too long to count).
type LoopInfo struct {
	Index      *Var
	Start      Value
	Cmp        BinaryOp // OpLess, OpLessEq, OpGreater, OpGreaterEq, OpEq, OpNotEq
	Limit      Value
	Step       Value // signed increment per iteration
	Iterations int
}

// Return returns from a function; X is nil in void functions.
type Return struct {
	P Pos
	X Expr
}

// Jump is break, continue or discard.
type Jump struct {
	P    Pos
	Kind JumpKind
}

// JumpKind tells break, continue and discard apart.
type JumpKind uint8

// Jump kinds.
const (
	JumpBreak JumpKind = iota
	JumpContinue
	JumpDiscard
)

// String returns the name of the JumpKind.
func (k JumpKind) String() string { return [...]string{"break", "continue", "discard"}[k] }

// Pos returns the position of the Block.
func (s *Block) Pos() Pos { return s.P }

// Pos returns the position of the VarDecl.
func (s *VarDecl) Pos() Pos { return s.P }

// Pos returns the position of the ExprStmt.
func (s *ExprStmt) Pos() Pos { return s.P }

// Pos returns the position of the If.
func (s *If) Pos() Pos { return s.P }

// Pos returns the position of the Loop.
func (s *Loop) Pos() Pos { return s.P }

// Pos returns the position of the Return.
func (s *Return) Pos() Pos { return s.P }

// Pos returns the position of the Jump.
func (s *Jump) Pos() Pos { return s.P }

func (*Block) stmtNode()    {}
func (*VarDecl) stmtNode()  {}
func (*ExprStmt) stmtNode() {}
func (*If) stmtNode()       {}
func (*Loop) stmtNode()     {}
func (*Return) stmtNode()   {}
func (*Jump) stmtNode()     {}
