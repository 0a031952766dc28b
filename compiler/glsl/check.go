package glsl

import (
	"strings"
)

// scope is one level of the symbol table. Names map to *Var, *Struct (type
// names) or *funcSet. Default precisions (precision statements) are scoped
// like declarations (ES 1.00 section 4.5.3).
type scope struct {
	parent *scope
	names  map[string]any
	prec   map[Base]Precision
	global bool
}

// funcSet is the overload set of one function name in one scope.
type funcSet struct {
	name     string
	funcs    []*Function
	builtins []*BuiltinSig
}

// loopCtx tracks a loop being checked (for break/continue, Appendix A).
type loopCtx struct {
	index    *Var // the Appendix A loop index, if the header has that form
	modified bool // the body writes the index
}

type checker struct {
	d       *diags
	opts    *Options
	version int
	es      bool
	stage   Stage
	sh      *Shader
	scope   *scope
	fn      *Function
	loops   []*loopCtx
	derivs  bool // GL_OES_standard_derivatives enabled
	builtin map[*Var]bool
	dead    int // > 0 while checking a branch a constant condition skips
	// returned: the current function has a return statement with a value.
	returned bool
	// Desktop GLSL arrays declared without a size, with the largest
	// constant index used so far (-1: none).
	unsized     map[*Var]int
	unsizedList []*Var
	// firstWrite is where each built-in output was first written.
	firstWrite map[*Var]Pos
	tripBudget int
}

func check(tu *translationUnit, pp *ppResult, opts *Options, d *diags) *Shader {
	c := &checker{
		d:          d,
		opts:       opts,
		version:    pp.version,
		es:         pp.version == 100,
		stage:      opts.Stage,
		builtin:    map[*Var]bool{},
		unsized:    map[*Var]int{},
		firstWrite: map[*Var]Pos{},
		tripBudget: maxTripBudget,
	}
	c.sh = &Shader{Stage: c.stage, Version: pp.version, ES: c.es, Extensions: pp.extensions, InvariantAll: pp.invariantAll}
	if b, ok := pp.extensions["GL_OES_standard_derivatives"]; ok && b != ExtDisable {
		c.derivs = true
	}
	// The built-in scope: variables, functions and the default precisions
	// of section 4.5.3.
	c.scope = &scope{names: map[string]any{}, prec: map[Base]Precision{}}
	for _, v := range builtinVars(c.version, c.stage, opts.Limits) {
		c.scope.names[v.Name] = v
		if v.Name == "gl_TexCoord" {
			// GLSL 1.10 section 7.6 declares gl_TexCoord[] without a
			// size: constant indices or a redeclaration size it.
			v.Type.Len = -1
			c.unsized[v] = -1
			c.unsizedList = append(c.unsizedList, v)
		}
	}
	if !c.es {
		for name, s := range builtinStructs {
			if name != structDepthRange.Name {
				c.scope.names[name] = s
			}
		}
	}
	c.scope.names[structDepthRange.Name] = structDepthRange
	for name, sigs := range builtinSigs(c.version, c.stage, c.derivs) {
		c.scope.names[name] = &funcSet{name: name, builtins: sigs}
	}
	if c.es {
		c.scope.prec[Int] = Highp
		c.scope.prec[Float] = Highp
		if c.stage == StageFragment {
			c.scope.prec[Int] = Mediump
			delete(c.scope.prec, Float)
		}
		c.scope.prec[Sampler2D] = Lowp
		c.scope.prec[SamplerCube] = Lowp
	}
	c.push()
	c.scope.global = true
	for _, decl := range tu.decls {
		switch x := decl.(type) {
		case *funcDecl:
			c.function(x)
		case *emptyStmt:
		default:
			c.declStmt(decl, true)
		}
	}
	c.finish()
	return c.sh
}

func (c *checker) push() {
	c.scope = &scope{parent: c.scope, names: map[string]any{}, prec: map[Base]Precision{}}
}

func (c *checker) pop() { c.scope = c.scope.parent }

func (c *checker) lookup(name string) any {
	for s := c.scope; s != nil; s = s.parent {
		if x, ok := s.names[name]; ok {
			return x
		}
	}
	return nil
}

func (c *checker) defaultPrec(b Base) Precision {
	for s := c.scope; s != nil; s = s.parent {
		if p, ok := s.prec[b]; ok {
			return p
		}
	}
	return PrecNone
}

// declare adds a name to the current scope, rejecting redeclarations in the
// same scope (section 4.2.7) and names the specification reserves.
func (c *checker) declare(name string, pos Pos, sym any) bool {
	if !c.checkName(name, pos) {
		return false
	}
	if old, ok := c.scope.names[name]; ok {
		what := "variable"
		switch old.(type) {
		case *Struct:
			what = "structure"
		case *funcSet:
			what = "function"
		}
		c.d.errorf(pos, "redeclaration of '%s' (already declared as a %s)", name, what)
		return false
	}
	c.scope.names[name] = sym
	return true
}

// checkName rejects identifiers reserved by section 3.8.
func (c *checker) checkName(name string, pos Pos) bool {
	if strings.HasPrefix(name, "gl_") {
		c.d.errorf(pos, "identifier '%s' uses reserved prefix 'gl_'", name)
		return false
	}
	if strings.Contains(name, "__") {
		c.d.warnf(pos, "identifier '%s' contains '__', which is reserved", name)
	}
	return true
}

// finish runs the whole-shader checks after the last declaration.
func (c *checker) finish() {
	c.sizeUnsized()
	if c.sh.InvariantAll && c.stage == StageVertex {
		// #pragma STDGL invariant(all): every output of the vertex shader.
		for _, g := range c.sh.Globals {
			if g.Var.Storage == StorageVarying {
				g.Var.Invariant = true
			}
		}
		for _, name := range []string{"gl_Position", "gl_PointSize"} {
			if v, ok := c.scope.parent.names[name].(*Var); ok {
				v.Invariant = true
				c.useVarDecl(v)
			}
		}
	}
	// Static recursion (section 6.1): the call graph must be acyclic.
	state := map[*Function]int{}
	var visit func(f *Function, path []*Function) bool
	visit = func(f *Function, path []*Function) bool {
		switch state[f] {
		case 1:
			names := []string{}
			for _, g := range path {
				names = append(names, g.Name)
			}
			c.d.errorf(f.Pos, "recursion is not allowed: %s", strings.Join(append(names, f.Name), " -> "))
			return true
		case 2:
			return false
		}
		state[f] = 1
		for _, g := range f.Calls {
			if visit(g, append(path, f)) {
				state[f] = 2
				return true
			}
		}
		state[f] = 2
		return false
	}
	for _, f := range c.sh.Funcs {
		visit(f, nil)
	}
	if c.stage == StageFragment {
		var color, data *Var
		for _, v := range c.sh.Builtins {
			switch {
			case v.Name == "gl_FragColor" && v.Written:
				color = v
			case v.Name == "gl_FragData" && v.Written:
				data = v
			}
		}
		if color != nil && data != nil {
			at := c.firstWrite[color]
			if d := c.firstWrite[data]; later(d, at) {
				at = d
			}
			c.d.errorf(at, "a fragment shader cannot write both gl_FragColor and gl_FragData")
		}
	}
}

// useVar records a reference to v.
func (c *checker) useVar(v *Var) {
	v.Used = true
	if v.Builtin && !c.builtin[v] {
		c.builtin[v] = true
		c.sh.Builtins = append(c.sh.Builtins, v)
	}
}

// Types.

// resolveType turns a typeSpec into a Type, declaring a struct definition
// in the current scope. nested says the spec is a struct member's type.
func (c *checker) resolveType(ts *typeSpec, nested bool) Type {
	var t Type
	switch {
	case ts.def != nil:
		if nested && (c.es || c.version >= 120) {
			c.d.errorf(ts.pos, "embedded structure definitions are not allowed in GLSL %s", versionName(c.version))
		}
		t = StructType(c.structDef(ts.def))
	default:
		if bt, ok := typeByName(ts.name); ok && isKeyword(ts.name, c.version) {
			t = bt
			break
		}
		switch x := c.lookup(ts.name).(type) {
		case *Struct:
			t = StructType(x)
		case nil:
			c.d.errorf(ts.pos, "unknown type '%s'", ts.name)
			return TypeInvalid
		default:
			c.d.errorf(ts.pos, "'%s' is not a type", ts.name)
			return TypeInvalid
		}
	}
	if ts.hasArray {
		if c.version < 120 && !c.es {
			c.d.errorf(ts.pos, "array type syntax '%s[]' requires GLSL 1.20", t)
		}
		if ts.arrayLen == nil {
			if c.version >= 120 && !nested && t.IsValid() {
				// "vec4[] a = vec4[](...)": sized by the initializer
				// (varDecl checks there is one).
				return ArrayOf(t, -1)
			}
			c.d.errorf(ts.pos, "array size must be specified")
			return TypeInvalid
		}
		n := c.arraySize(ts.arrayLen)
		if n <= 0 || !t.IsValid() {
			return TypeInvalid
		}
		t = ArrayOf(t, n)
	}
	return t
}

// maxArraySize bounds array lengths: larger arrays cannot exist on any
// target and would make constant folding and linking allocate without bound.
const maxArraySize = 1 << 16

// arraySize checks an array size expression: a positive constant integral
// expression (section 4.1.9).
func (c *checker) arraySize(e astExpr) int {
	x := c.expr(e)
	if !x.Type().IsValid() {
		return 0
	}
	k, ok := x.(*ConstExpr)
	if !ok || k.Value.Type != TypeInt {
		c.d.errorf(exprStart(e), "array size must be a constant integral expression")
		return 0
	}
	n := int(k.Value.Int(0))
	if n <= 0 {
		c.d.errorf(exprStart(e), "array size must be greater than zero")
		return 0
	}
	if n > maxArraySize {
		c.d.errorf(exprStart(e), "array size %d is too large (at most %d)", n, maxArraySize)
		return 0
	}
	return n
}

func (c *checker) structDef(ss *structSpec) *Struct {
	s := &Struct{Name: ss.name, Pos: ss.pos}
	c.push() // member type names of nested definitions stay local
	for _, m := range ss.members {
		ft := c.resolveType(m.ty, true)
		if m.prec != PrecNone {
			c.checkPrecisionFor(m.prec, ft, m.precPos)
		}
		for _, d := range m.decls {
			t := ft
			if d.hasArray {
				t = c.arrayDecl(t, d)
			}
			if t.Base == Void {
				c.d.errorf(d.pos, "structure member '%s' cannot have type void", d.name)
			}
			if s.FieldIndex(d.name) >= 0 {
				c.d.errorf(d.pos, "duplicate structure member '%s'", d.name)
				continue
			}
			s.Fields = append(s.Fields, Field{Name: d.name, Type: t, Prec: m.prec, Pos: d.pos})
		}
	}
	nested := c.scope
	c.pop()
	// A structure defined inside another (GLSL 1.10) is visible in the
	// enclosing scope, as in C.
	for name, x := range nested.names {
		if _, dup := c.scope.names[name]; !dup {
			c.scope.names[name] = x
		}
	}
	if ss.name != "" {
		c.declare(ss.name, ss.namePos, s)
	}
	c.sh.Structs = append(c.sh.Structs, s)
	return s
}

// arrayDecl applies a declarator's "[n]" to t.
func (c *checker) arrayDecl(t Type, d *declarator) Type {
	if t.IsArray() {
		c.d.errorf(d.pos, "arrays of arrays are not allowed")
		return TypeInvalid
	}
	if d.arrayLen == nil {
		if d.init != nil && c.version >= 120 || !c.es && d.init == nil {
			// Sized by the initializer (GLSL 1.20), or implicitly by the
			// largest constant index or a later redeclaration (desktop
			// GLSL section 4.1.9).
			return ArrayOf(t, -1)
		}
		c.d.errorf(d.pos, "array '%s' must have a size", d.name)
		return TypeInvalid
	}
	n := c.arraySize(d.arrayLen)
	if n <= 0 || !t.IsValid() {
		return TypeInvalid
	}
	return ArrayOf(t, n)
}

// checkPrecisionFor validates an explicit precision qualifier on type t.
func (c *checker) checkPrecisionFor(p Precision, t Type, pos Pos) {
	if !t.IsValid() {
		return
	}
	if !precisionApplies(t.Base) {
		c.d.errorf(pos, "precision qualifiers apply only to int, float and sampler types, not '%s'", t.Elem())
		return
	}
	if p == Highp && c.stage == StageFragment && c.opts.DisableFragmentHighp {
		c.d.errorf(pos, "highp precision is not supported in fragment shaders")
	}
}

// precisionOf returns the precision a declaration of type t gets: the
// explicit qualifier, or the default in scope. In an ES fragment shader a
// float declaration without either is an error (section 4.5.3).
func (c *checker) precisionOf(p Precision, t Type, pos Pos, what string) Precision {
	if !c.es || !t.IsValid() || !precisionApplies(t.Base) {
		return p
	}
	if p != PrecNone {
		return p
	}
	p = c.defaultPrec(t.Base)
	if p == PrecNone {
		c.d.errorf(pos, "no precision specified for %s (no default precision for type '%s' in this scope)", what, t.Base)
	}
	return p
}

// Declarations.

// declStmt checks a declaration; inside functions it returns the typed
// statements (local variable declarations).
func (c *checker) declStmt(decl astStmt, global bool) []Stmt {
	switch x := decl.(type) {
	case *varDecl:
		return c.varDecl(x, global)
	case *precisionDecl:
		c.precisionDecl(x)
	case *invariantDecl:
		c.invariantDecl(x, global)
	case *funcDecl:
		if c.version != 110 || x.body != nil {
			c.d.errorf(x.pos, "function declarations are allowed only at global scope")
			break
		}
		// GLSL 1.10 allows a local prototype; it declares the function
		// for the whole shader here (every function lives at global scope).
		saved := c.scope
		for !c.scope.global {
			c.scope = c.scope.parent
		}
		fn := c.fn
		c.function(x)
		c.fn, c.scope = fn, saved
	}
	return nil
}

func (c *checker) precisionDecl(x *precisionDecl) {
	if x.ty.def != nil || x.ty.hasArray {
		c.d.errorf(x.pos, "default precision statements apply only to int, float and sampler types")
		return
	}
	t, ok := typeByName(x.ty.name)
	if !ok || t.Comps() != 1 || !precisionApplies(t.Base) {
		c.d.errorf(x.ty.pos, "default precision statements apply only to int, float and sampler types, not '%s'", x.ty.name)
		return
	}
	c.checkPrecisionFor(x.prec, t, x.pos)
	c.scope.prec[t.Base] = x.prec
}

func (c *checker) invariantDecl(x *invariantDecl, global bool) {
	if !global {
		c.d.errorf(x.pos, "invariant declarations are allowed only at global scope")
		return
	}
	for _, id := range x.names {
		v, ok := c.lookup(id.name).(*Var)
		if !ok {
			c.d.errorf(id.pos, "undeclared identifier '%s' in invariant declaration", id.name)
			continue
		}
		if !c.mayBeInvariant(v) {
			c.d.errorf(id.pos, "'%s' cannot be declared invariant", id.name)
			continue
		}
		if v.Used {
			c.d.errorf(id.pos, "'%s' must be declared invariant before it is used", id.name)
		}
		v.Invariant = true
		c.useVarDecl(v)
	}
}

// useVarDecl records a built-in named by a declaration (invariant) without
// marking it used.
func (c *checker) useVarDecl(v *Var) {
	if v.Builtin && !c.builtin[v] {
		c.builtin[v] = true
		c.sh.Builtins = append(c.sh.Builtins, v)
	}
}

// mayBeInvariant: varyings, the vertex outputs, and (GLSL ES 1.00 section
// 4.6.1, as piglit's invariant.frag expects) the fragment shader's special
// inputs and outputs.
func (c *checker) mayBeInvariant(v *Var) bool {
	switch v.Storage {
	case StorageVarying:
		return true
	case StorageOutput, StorageInput:
		return v.Name != "gl_FrontFacing" || c.stage == StageFragment
	}
	return false
}

func (c *checker) varDecl(vd *varDecl, global bool) []Stmt {
	q := vd.ft.qual
	base := c.resolveType(vd.ft.ty, false)
	storage := StorageLocal
	if global {
		storage = StorageGlobal
	}
	switch q.storage {
	case "const":
		storage = StorageConst
	case "attribute":
		storage = StorageAttribute
	case "varying":
		storage = StorageVarying
	case "uniform":
		storage = StorageUniform
	}
	if q.storage != "" && q.storage != "const" && !global {
		c.d.errorf(q.storagePos, "'%s' variables must be declared at global scope", q.storage)
		return nil
	}
	if q.prec != PrecNone {
		c.checkPrecisionFor(q.prec, base, q.precPos)
	}
	if len(vd.decls) == 0 {
		if vd.ft.ty.def == nil {
			c.d.warnf(vd.pos, "empty declaration")
		}
		if q.storage != "" && vd.ft.ty.def != nil && c.es {
			c.d.errorf(q.storagePos, "a qualifier cannot be applied to a structure definition without a declarator")
		}
		return nil
	}
	var out []Stmt
	for _, d := range vd.decls {
		if global && !c.es && d.name == "gl_TexCoord" && storage == StorageVarying {
			c.redeclareTexCoord(base, d)
			continue
		}
		t := base
		if t.Len < 0 && d.init == nil && c.es {
			c.d.errorf(d.pos, "array '%s' must have a size", d.name)
			t = TypeInvalid
		}
		if d.hasArray {
			t = c.arrayDecl(t, d)
		}
		if old, ok := c.scope.names[d.name].(*Var); ok && c.unsizedRedecl(old, t, storage, d) {
			if d.init != nil {
				maxIdx, stillUnsized := c.unsized[old]
				init := c.initializer(old, d)
				if stillUnsized && old.Type.Len > 0 {
					delete(c.unsized, old)
					if maxIdx >= old.Type.Len {
						c.d.errorf(d.pos, "array '%s' redeclared with size %d, but index %d was used", d.name, old.Type.Len, maxIdx)
					}
				}
				if init != nil {
					if global {
						for _, g := range c.sh.Globals {
							if g.Var == old {
								g.Init = init
							}
						}
					} else {
						out = append(out, &ExprStmt{P: d.pos, X: &Assign{P: d.pos, Op: OpAssign, LHS: &VarRef{P: d.pos, Var: old}, RHS: init, T: old.Type}})
					}
				}
			}
			continue
		}
		v := &Var{Name: d.name, Type: t, Storage: storage, Pos: d.pos, Invariant: q.invariant, Centroid: q.centroid}
		if t.IsValid() {
			c.checkStorageType(v, d.pos)
		}
		v.Prec = c.precisionOf(q.prec, t, d.pos, "'"+d.name+"'")
		var init Expr
		if d.init != nil {
			init = c.initializer(v, d)
		} else if storage == StorageConst {
			c.d.errorf(d.pos, "const variable '%s' must be initialized", d.name)
		}
		if v.Type.Len < 0 {
			if d.init != nil {
				v.Type = TypeInvalid
			} else if c.declare(d.name, d.pos, v) {
				c.unsized[v] = -1
				c.unsizedList = append(c.unsizedList, v)
			}
		} else {
			c.declare(d.name, d.pos, v)
		}
		if global {
			c.sh.Globals = append(c.sh.Globals, &GlobalDecl{Var: v, Init: init})
		} else {
			out = append(out, &VarDecl{P: d.pos, Var: v, Init: init})
		}
	}
	return out
}

// checkStorageType applies the type rules of each storage qualifier
// (section 4.3).
func (c *checker) checkStorageType(v *Var, pos Pos) {
	t := v.Type
	floaty := t.Elem().Base == Float && !t.Elem().IsStruct()
	switch v.Storage {
	case StorageAttribute:
		if c.stage != StageVertex {
			c.d.errorf(pos, "attributes can only be declared in vertex shaders")
		} else if !floaty || t.IsArray() {
			c.d.errorf(pos, "attribute '%s' must be a float, vector or matrix, not '%s'", v.Name, t)
		}
	case StorageVarying:
		if !floaty {
			c.d.errorf(pos, "varying '%s' must be a float, vector, matrix or an array of them, not '%s'", v.Name, t)
		}
	case StorageUniform:
		if t.Base == Void {
			c.d.errorf(pos, "uniform '%s' cannot have type void", v.Name)
		}
	default:
		if t.Base == Void {
			c.d.errorf(pos, "variable '%s' cannot have type void", v.Name)
		} else if t.ContainsSampler() {
			c.d.errorf(pos, "sampler variable '%s' must be a uniform or a function parameter", v.Name)
		}
		if v.Storage == StorageConst && c.es && t.ContainsArray() {
			c.d.errorf(pos, "const variable '%s' cannot be an array in GLSL ES 1.00", v.Name)
		}
	}
	if v.Invariant && v.Storage != StorageVarying {
		c.d.errorf(pos, "only varyings can be declared invariant")
	}
}

// initializer checks a declarator's initializer against the variable.
func (c *checker) initializer(v *Var, d *declarator) Expr {
	x := c.expr(d.init)
	if !x.Type().IsValid() || !v.Type.IsValid() {
		return nil
	}
	switch v.Storage {
	case StorageAttribute, StorageVarying:
		c.d.errorf(d.pos, "%s '%s' cannot have an initializer", v.Storage, v.Name)
		return nil
	case StorageUniform:
		if c.es || c.version < 120 {
			c.d.errorf(d.pos, "uniform '%s' cannot have an initializer in GLSL %s", v.Name, versionName(c.version))
			return nil
		}
	}
	if c.es && v.Type.IsArray() {
		c.d.errorf(d.pos, "arrays cannot be initialized in GLSL ES 1.00")
		return nil
	}
	if v.Type.Len < 0 {
		// GLSL 1.20 "float a[] = float[3](...)": the initializer sizes it.
		if !x.Type().IsArray() || x.Type().Elem() != v.Type.Elem() {
			c.d.errorf(d.pos, "cannot initialize '%s' of type '%s[]' with a value of type '%s'", v.Name, v.Type.Elem(), x.Type())
			return nil
		}
		v.Type = x.Type()
	}
	x, ok := c.convert(x, v.Type)
	if !ok {
		c.d.errorf(d.pos, "cannot initialize '%s' of type '%s' with a value of type '%s'", v.Name, v.Type, x.Type())
		return nil
	}
	k, isConst := x.(*ConstExpr)
	switch {
	case v.Storage == StorageConst || v.Storage == StorageUniform:
		if !isConst {
			c.d.errorf(exprStart(d.init), "initializer of %s '%s' must be a constant expression", v.Storage, v.Name)
			return nil
		}
		if v.Storage == StorageConst {
			val := k.Value
			v.Value = &val
		}
	case v.Storage == StorageGlobal && c.es && !isConst:
		// GLSL ES 1.00 section 4.3: "Such initializers must be a constant
		// expression." Desktop GLSL allows any expression.
		c.d.errorf(exprStart(d.init), "initializer of global variable '%s' must be a constant expression", v.Name)
		return nil
	}
	return x
}

// Functions.

func (c *checker) function(fd *funcDecl) {
	ret := c.resolveType(fd.ret.ty, false)
	if ret.Len < 0 {
		c.d.errorf(fd.pos, "function return type must have a size")
		ret = TypeInvalid
	}
	q := fd.ret.qual
	if q.storage != "" || q.invariant || q.centroid {
		c.d.errorf(fd.pos, "function return type cannot have a storage qualifier")
	}
	if q.prec != PrecNone {
		c.checkPrecisionFor(q.prec, ret, q.precPos)
	}
	switch {
	case ret.IsArray() && c.version < 120:
		c.d.errorf(fd.pos, "functions cannot return arrays in GLSL %s", versionName(c.version))
	case c.es && ret.ContainsArray():
		// Section 6.1: "The return type can also be a structure if the
		// structure does not contain an array" (ES 1.00 only, as Mesa).
		c.d.errorf(fd.pos, "function '%s' cannot return a structure that contains an array", fd.name)
	}
	if ret.ContainsSampler() {
		c.d.errorf(fd.pos, "functions cannot return samplers")
	}
	f := &Function{Name: fd.name, Ret: ret, Pos: fd.namePos}
	f.RetPrec = c.precisionOf(q.prec, ret, fd.namePos, "the return type of '"+fd.name+"'")
	for _, pr := range fd.params {
		f.Params = append(f.Params, c.param(pr))
	}
	if fd.name == "main" {
		if ret != TypeVoid {
			c.d.errorf(fd.namePos, "function 'main' must return void")
		}
		if len(f.Params) > 0 {
			c.d.errorf(fd.namePos, "function 'main' cannot take parameters")
		}
	}
	f = c.declareFunction(f, fd)
	if f == nil || fd.body == nil {
		return
	}
	f.Body = &Block{P: fd.body.pos}
	f.Pos = fd.namePos
	c.fn = f
	c.returned = false
	c.push()
	for _, p := range f.Params {
		if p.Name != "" {
			c.declare(p.Name, p.Pos, p)
		} else if !c.es {
			c.d.errorf(p.Pos, "parameter of '%s' needs a name in a function definition", f.Name)
		}
	}
	f.Body.Stmts = c.block(fd.body)
	c.pop()
	if f.Ret != TypeVoid && f.Ret.IsValid() && !c.returned {
		// Not a rule of the specification's text, but Mesa's and the 3Dlabs
		// conformance tests' (piglit function-07.vert, function5.frag).
		c.d.errorf(fd.namePos, "function '%s' has a non-void return type but no return statement", f.Name)
	}
	c.fn = nil
	if fd.name == "main" {
		c.sh.Main = f
	}
}

func (c *checker) param(pr *param) *Var {
	t := c.resolveType(pr.ty, false)
	if pr.hasArray {
		t = c.arrayDecl(t, &declarator{pos: pr.pos, name: pr.name, arrayLen: pr.arrayLen})
	}
	if t.Len < 0 {
		c.d.errorf(pr.pos, "array parameter '%s' must have a size", pr.name)
		t = TypeInvalid
	}
	v := &Var{Name: pr.name, Type: t, Storage: StorageParam, Pos: pr.namePos}
	if !v.Pos.IsValid() {
		v.Pos = pr.pos
	}
	switch pr.qual.dir {
	case "out":
		v.Dir = DirOut
	case "inout":
		v.Dir = DirInOut
	}
	if pr.qual.storage == "const" {
		if v.Dir != DirIn {
			c.d.errorf(pr.qual.storagePos, "'const' cannot be used with '%s' parameters", pr.qual.dir)
		}
		v.ConstIn = true
	}
	if t.Base == Void && t.IsValid() {
		c.d.errorf(pr.pos, "parameter cannot have type void")
	}
	if t.IsArray() && v.Dir != DirIn && !c.es && c.version < 120 {
		// GLSL 1.10 section 5.8: non-dereferenced arrays are not l-values.
		c.d.errorf(pr.pos, "arrays cannot be %s parameters in GLSL 1.10", pr.qual.dir)
	}
	if t.ContainsSampler() && v.Dir != DirIn {
		c.d.errorf(pr.pos, "sampler parameters must be 'in' parameters")
	}
	if pr.qual.prec != PrecNone {
		c.checkPrecisionFor(pr.qual.prec, t, pr.qual.precPos)
	}
	what := "parameter '" + pr.name + "'"
	if pr.name == "" {
		what = "an unnamed parameter"
	}
	v.Prec = c.precisionOf(pr.qual.prec, t, v.Pos, what)
	return v
}

// declareFunction enters a prototype or definition into the global overload
// set, matching it against earlier declarations of the same signature.
func (c *checker) declareFunction(f *Function, fd *funcDecl) *Function {
	if !c.scope.global {
		c.d.errorf(fd.pos, "functions can be declared only at global scope")
		return nil
	}
	if !c.checkName(f.Name, fd.namePos) {
		return nil
	}
	for _, p := range f.Params {
		if !p.Type.IsValid() {
			return nil
		}
	}
	params := make([]Type, len(f.Params))
	for i, p := range f.Params {
		params[i] = p.Type
	}
	set, _ := c.scope.names[f.Name].(*funcSet)
	if set == nil {
		if old, ok := c.scope.names[f.Name]; ok {
			what := "variable"
			if _, isStruct := old.(*Struct); isStruct {
				what = "structure"
			}
			c.d.errorf(fd.namePos, "redeclaration of '%s' (already declared as a %s)", f.Name, what)
			return nil
		}
		set = &funcSet{name: f.Name}
		if bs, ok := c.scope.parent.names[f.Name].(*funcSet); ok && c.es {
			// GLSL ES 1.00 section 6.1: built-ins may be overloaded but
			// not redefined; their other overloads stay visible.
			set.builtins = bs.builtins
		}
		c.scope.names[f.Name] = set
	}
	for _, b := range set.builtins {
		if sameParams(b.Params, params) {
			c.d.errorf(fd.namePos, "cannot redefine built-in function '%s'", b)
			return nil
		}
	}
	for _, old := range set.funcs {
		if !sameParams(paramTypes(old), params) {
			continue
		}
		if old.Ret != f.Ret {
			c.d.errorf(fd.namePos, "function '%s' redeclared with a different return type", f.Name)
			return nil
		}
		if c.es && old.RetPrec != f.RetPrec {
			c.d.errorf(fd.namePos, "function '%s' redeclared with a different return precision", f.Name)
			return nil
		}
		for i, p := range f.Params {
			o := old.Params[i]
			if o.Dir != p.Dir || o.ConstIn != p.ConstIn {
				c.d.errorf(p.Pos, "parameter %d of '%s' redeclared with different qualifiers", i+1, f.Name)
				return nil
			}
			if c.es && o.Prec != p.Prec {
				c.d.errorf(p.Pos, "parameter %d of '%s' redeclared with a different precision", i+1, f.Name)
				return nil
			}
		}
		if fd.body == nil {
			if c.es {
				// GLSL ES 1.00 section 4.2.7: a function may be declared
				// at most once in a scope besides its definition.
				if old.protoAt.IsValid() || old.Body != nil {
					c.d.errorf(fd.namePos, "function '%s' is already declared", f.Signature())
					return nil
				}
			}
			old.protoAt = fd.namePos
			return nil
		}
		if old.Body != nil {
			c.d.errorf(fd.namePos, "function '%s' is already defined", f.Signature())
			return nil
		}
		// The definition's parameter names are the ones the body uses.
		for i, p := range f.Params {
			old.Params[i].Name, old.Params[i].Pos = p.Name, p.Pos
		}
		return old
	}
	set.funcs = append(set.funcs, f)
	c.sh.Funcs = append(c.sh.Funcs, f)
	if fd.body == nil {
		f.protoAt = fd.namePos
	}
	return f
}

func paramTypes(f *Function) []Type {
	out := make([]Type, len(f.Params))
	for i, p := range f.Params {
		out[i] = p.Type
	}
	return out
}

// redeclareTexCoord handles desktop GLSL's "varying vec4 gl_TexCoord[n];",
// which sizes the built-in array (GLSL 1.10 section 7.6).
func (c *checker) redeclareTexCoord(base Type, d *declarator) {
	bv, ok := c.lookup("gl_TexCoord").(*Var)
	if !ok || !bv.Builtin {
		c.d.errorf(d.pos, "redeclaration of 'gl_TexCoord'")
		return
	}
	if base != Vec(Float, 4) || !d.hasArray || d.init != nil {
		c.d.errorf(d.pos, "gl_TexCoord can be redeclared only as 'varying vec4 gl_TexCoord[n]'")
		return
	}
	if d.arrayLen == nil {
		return
	}
	n := c.arraySize(d.arrayLen)
	if n <= 0 {
		return
	}
	if n > c.opts.Limits.MaxTextureCoords {
		c.d.errorf(d.pos, "gl_TexCoord redeclared with size %d, larger than gl_MaxTextureCoords (%d)", n, c.opts.Limits.MaxTextureCoords)
		return
	}
	if maxIdx, ok := c.unsized[bv]; ok && maxIdx >= n {
		c.d.errorf(d.pos, "gl_TexCoord redeclared with size %d, but index %d was used", n, maxIdx)
		return
	}
	delete(c.unsized, bv)
	bv.Type = ArrayOf(base, n)
	c.useVarDecl(bv)
}

// unsizedRedecl handles desktop GLSL's redeclaration of an array declared
// without a size ("float a[]; ... float a[4];", section 4.1.9): the new
// size must exceed every constant index used so far. It reports whether
// the declarator was such a redeclaration.
func (c *checker) unsizedRedecl(old *Var, t Type, st Storage, d *declarator) bool {
	maxIdx, ok := c.unsized[old]
	if !ok || old.Type.Len >= 0 || old.Storage != st || t.Elem() != old.Type.Elem() {
		return false
	}
	if d.init != nil && t.Len < 0 {
		// "float a[] = float[](...)": the initializer sizes it
		// (varDecl then checks the initializer against old).
		return true
	}
	if t.Len <= 0 {
		return true // "float a[];" again: nothing to learn
	}
	if maxIdx >= t.Len {
		c.d.errorf(d.pos, "array '%s' redeclared with size %d, but index %d was used", d.name, t.Len, maxIdx)
		return true
	}
	old.Type = t
	delete(c.unsized, old)
	return true
}

// sizeUnsized gives each array still without a size the size its largest
// constant index implies (at least 1).
func (c *checker) sizeUnsized() {
	for _, v := range c.unsizedList {
		if v.Type.Len >= 0 {
			continue
		}
		n := c.unsized[v] + 1
		if n < 1 {
			n = 1
		}
		if v.Builtin && n > c.opts.Limits.MaxTextureCoords {
			c.d.errorf(Pos{Line: 1, Col: 1}, "index %d of %s exceeds gl_MaxTextureCoords (%d)", n-1, v.Name, c.opts.Limits.MaxTextureCoords)
		}
		v.Type = ArrayOf(v.Type.Elem(), n)
	}
}

func later(a, b Pos) bool {
	if a.File != b.File {
		return a.File > b.File
	}
	if a.Line != b.Line {
		return a.Line > b.Line
	}
	return a.Col > b.Col
}
