// Package lower turns a linked GLSL program (compiler/glsl) into two
// straight-line vector IR programs (compiler/ir): a vertex program, which a
// driver may run on the CPU with ir.Run, and a fragment program for a back
// end such as compiler/r300.
//
// # What it does
//
//   - Every user function is inlined (the front end rejects recursion).
//   - Loops whose trip count is a compile-time constant (glsl.LoopInfo) are
//     unrolled; the index reads as a literal in each copy, so it indexes
//     arrays statically. Other loops are errors naming the loop and line.
//   - Branches become selects: writes inside an if, after a conditional
//     return, break or continue happen through a predicate (a 0/1 value),
//     as CND dst, pred, new, old. discard is KIL under the predicate.
//   - Structures, arrays and matrices are scalarised onto vec4 registers:
//     one register ("slot") per scalar, vector or matrix column.
//     Dynamic indexing reads through a select chain and writes each
//     element under "index == k", so any index the language allows works.
//   - Booleans are 0.0/1.0 and integers are integral floats: + - * are
//     exact while the values fit the mantissa (2^24 in float32, 2^17 in
//     R3xx FP24); division truncates toward zero and is exact for
//     |a| < 2^15 on FP24 and 2^22 in float32 (see intDiv).
//   - Built-in functions are expanded into IR operations; builtins.go
//     documents the error bound of each approximation.
//
// # Naming
//
// The vertex program's inputs are named "attrN" for generic attribute
// location N (a matrix attribute takes one location per column); its
// outputs are "position", "psize" and the varying slots. The fragment
// program's inputs are the varying slots, then "fragcoord", "facing"
// (x: 1 front, 0 back) and "pointcoord" when read; its outputs are
// "color" (gl_FragColor, gl_FragData[0]), "color1".."color3" and
// "depth" (in x). Varying slots are named "var:NAME@K" for slot K of the
// fragment shader's varying NAME (desktop gl_Color is fed by
// gl_FrontColor, as GLSL 1.10 has it). Uniform constants are named by the
// GL name of their element ("u", "a[2]", "s.f") with "#C" for column C of
// a matrix; Result.Uniforms says which location and components feed each.
// Texture lookups use unit K for the K-th active sampler uniform element;
// Result.Samplers gives its location, whose value is the GL texture unit.
package lower

import (
	"fmt"
	"sort"
	"strings"

	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/ir"
)

// Options tune Lower.
type Options struct {
	// MaxUnroll bounds the iterations of one unrolled loop (default 1024).
	MaxUnroll int
	// MaxInsts bounds the instructions of each lowered program, so
	// nested loops cannot blow up (default 65536).
	MaxInsts int
	// MaxAttribs is the number of generic attribute locations (default
	// 16): built-in attributes (gl_Vertex, ...), which glsl.Link leaves
	// at location -1, take the first free ones.
	MaxAttribs int
	// Loops lets the vertex program keep loops whose trip count uniforms
	// give as IR loops (hwloop.go), for a vertex unit that loops.
	// PreferLoops keeps constant-count loops too.
	Loops, PreferLoops bool
	// DynamicLoops, with Loops, runs a vertex loop whose condition is
	// known only at run time as an IR loop of this many iterations
	// (hwloop.go); 0 leaves such loops to the unroller, which fails.
	DynamicLoops int
	// Relative reads uniform array elements at dynamic indices in
	// vertex programs through the address register (ARL, c[a0.x+N])
	// instead of selecting among the elements; the program then keeps
	// each array's constants consecutive.
	Relative bool
}

// Result is a lowered program.
type Result struct {
	Vertex, Fragment *ir.Program
	// Varyings are the varying slots, in the fragment program's input
	// order; the vertex program writes outputs of the same names.
	Varyings []string
	// AttribLocs gives, per vertex program input, the generic attribute
	// location it reads.
	AttribLocs []int
	// Uniforms maps each uniform constant name of either program to the
	// GL location and the components of its value that feed it.
	Uniforms map[string]UniformRef
	// Samplers holds, per texture unit the programs sample, the sampler
	// uniform element whose value names the GL texture unit.
	Samplers []SamplerRef
}

// UniformRef locates a uniform constant's value: components
// First..First+Count-1 of location Location (matrices column-major),
// placed in x, y, z, w.
type UniformRef struct {
	Location     int
	First, Count int
}

// SamplerRef is one sampler uniform element.
type SamplerRef struct {
	Name     string
	Location int
	Target   ir.TexTarget
}

// Error is a program the target cannot run: the construct, the stage and
// its source position, formatted as GLSL diagnostics are.
type Error struct {
	Stage glsl.Stage
	Pos   glsl.Pos
	Msg   string
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("%s: error: %s shader: %s", e.Pos, e.Stage, e.Msg)
}

// bail carries an *Error out of the recursive walk.
type bail struct{ err *Error }

// Lower lowers a linked program. Both shaders must be present.
func Lower(prog *glsl.Program, opts Options) (res *Result, err error) {
	if prog == nil || prog.Vertex == nil || prog.Fragment == nil {
		return nil, fmt.Errorf("lower: a program needs a vertex and a fragment shader")
	}
	if opts.MaxUnroll <= 0 {
		opts.MaxUnroll = 1024
	}
	if opts.MaxInsts <= 0 {
		opts.MaxInsts = 1 << 16
	}
	if opts.MaxAttribs <= 0 {
		opts.MaxAttribs = 16
	}
	if err := placeBuiltinAttribs(prog, opts.MaxAttribs); err != nil {
		return nil, err
	}
	res = &Result{Uniforms: map[string]UniformRef{}}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			res, err = nil, b.err
		}
	}()
	samplers := assignSamplers(prog, res)
	// Varying slots: the fragment shader's order.
	type vslot struct {
		name   string
		vs, fs *glsl.Var
	}
	var vary []vslot
	for _, v := range prog.Varyings {
		n := slotCount(v.Type)
		for k := 0; k < n; k++ {
			vary = append(vary, vslot{fmt.Sprintf("var:%s@%d", v.Name, k), v.Vertex, v.Fragment})
			res.Varyings = append(res.Varyings, vary[len(vary)-1].name)
		}
	}
	for _, st := range []glsl.Stage{glsl.StageVertex, glsl.StageFragment} {
		l := newLowerer(prog, st, opts, res, samplers)
		l.run()
		ir.Optimize(l.p, nil)
		if !l.p.HasLoops() {
			// The rewrites follow straight-line definitions.
			optimize(l.p)
		}
		if err := l.p.Verify(); err != nil {
			return nil, fmt.Errorf("lower: %s program: %w", st, err)
		}
		if st == glsl.StageVertex {
			res.Vertex = l.p
		} else {
			res.Fragment = l.p
		}
	}
	return res, nil
}

// placeBuiltinAttribs gives the built-in attributes (desktop GLSL's
// gl_Vertex, gl_Color, ...) the first free locations, in the order the
// linker lists them, so a compatibility-mode caller can feed them as
// generic attributes.
func placeBuiltinAttribs(prog *glsl.Program, max int) error {
	used := make([]bool, max)
	for _, a := range prog.Attributes {
		for i := 0; a.Location >= 0 && i < int(a.Type.Cols); i++ {
			if a.Location+i < max {
				used[a.Location+i] = true
			}
		}
	}
	for _, a := range prog.Attributes {
		if a.Location >= 0 {
			continue
		}
		n := int(a.Type.Cols)
		for at := 0; at+n <= max && a.Location < 0; at++ {
			free := true
			for i := at; i < at+n; i++ {
				free = free && !used[i]
			}
			if free {
				a.Location = at
				for i := at; i < at+n; i++ {
					used[i] = true
				}
			}
		}
		if a.Location < 0 {
			return fmt.Errorf("lower: too many vertex attributes: '%s' does not fit in %d locations", a.Name, max)
		}
	}
	sort.SliceStable(prog.Attributes, func(i, j int) bool { return prog.Attributes[i].Location < prog.Attributes[j].Location })
	return nil
}

// assignSamplers numbers the active sampler uniform elements.
func assignSamplers(prog *glsl.Program, res *Result) map[string]int {
	m := map[string]int{}
	for _, u := range prog.Uniforms {
		if !u.IsSampler() {
			continue
		}
		tgt := ir.Tex2D
		switch u.Type.Base {
		case glsl.SamplerCube:
			tgt = ir.TexCube
		case glsl.Sampler3D:
			tgt = ir.Tex3D
		}
		for e := 0; e < u.Size; e++ {
			name := elemName(u, e)
			m[name] = len(res.Samplers)
			res.Samplers = append(res.Samplers, SamplerRef{Name: name, Location: u.Location + e, Target: tgt})
		}
	}
	return m
}

// elemName is the GL name of element e of a uniform.
func elemName(u *glsl.Uniform, e int) string {
	if u.Size > 1 {
		return fmt.Sprintf("%s[%d]", strings.TrimSuffix(u.Name, "[0]"), e)
	}
	return u.Name
}

// slotCount is the number of vec4 registers a value of type t takes.
func slotCount(t glsl.Type) int {
	if t.IsArray() {
		return t.Len * slotCount(t.Elem())
	}
	if t.Base == glsl.StructKind {
		n := 0
		for _, f := range t.Struct.Fields {
			n += slotCount(f.Type)
		}
		return n
	}
	if t.IsMatrix() {
		return int(t.Cols)
	}
	return 1
}

// slotTypes lists the type of each slot: scalars, vectors, matrix
// columns (as vectors) and samplers.
func slotTypes(t glsl.Type) []glsl.Type {
	if t.IsArray() {
		var out []glsl.Type
		e := slotTypes(t.Elem())
		for i := 0; i < t.Len; i++ {
			out = append(out, e...)
		}
		return out
	}
	if t.Base == glsl.StructKind {
		var out []glsl.Type
		for _, f := range t.Struct.Fields {
			out = append(out, slotTypes(f.Type)...)
		}
		return out
	}
	if t.IsMatrix() {
		out := make([]glsl.Type, t.Cols)
		for i := range out {
			out[i] = t.Column()
		}
		return out
	}
	return []glsl.Type{t}
}

// fieldOffset is the first slot of field f of struct type t.
func fieldOffset(s *glsl.Struct, f int) int {
	n := 0
	for i := 0; i < f; i++ {
		n += slotCount(s.Fields[i].Type)
	}
	return n
}

// pathSlot follows a uniform's path from its root variable's type.
func pathSlot(t glsl.Type, path []glsl.PathStep) (int, glsl.Type) {
	off := 0
	for _, st := range path {
		if st.Field >= 0 {
			off += fieldOffset(t.Struct, st.Field)
			t = t.Struct.Fields[st.Field].Type
		} else {
			e := t.Elem()
			off += st.Index * slotCount(e)
			t = e
		}
	}
	return off, t
}

// pstate is what is known about a predicate.
type pstate uint8

const (
	always pstate = iota
	never
	dynamic
)

// pred is a predicate: a 0/1 value in component x of src when dynamic.
type pred struct {
	src ir.Src
	st  pstate
	// neg says the predicate is 1 - src (an else branch): a select
	// swaps its choices instead of computing the complement.
	neg bool
}

// flag is an "execution continues" flag: cleared where a return, break
// or continue executed.
type flag struct {
	reg ir.Reg
	st  pstate
}

type frame struct {
	ret  []ir.Reg // return value slots
	live *flag
}

type loopFrame struct {
	brk, cont *flag
}

type lowerer struct {
	prog     *glsl.Program
	sh       *glsl.Shader
	stage    glsl.Stage
	opts     Options
	res      *Result
	p        *ir.Program
	samplers map[string]int
	ntemp    int

	vars  map[*glsl.Var][]ir.Reg
	known map[*glsl.Var]glsl.Value
	// lits holds the temp components whose value is a known literal
	// (written unconditionally from a literal), for constant conditions.
	lits map[ir.Reg]*[4]litVal
	// outs are the copies to outputs at the end of main.
	outs []outCopy

	cond   []pred // cumulative if predicates
	flags  []*flag
	pgen   int
	pcache pred
	pcgen  int
	frames []*frame
	loops  []*loopFrame
	pos    glsl.Pos
	// hwDepth counts the IR loops being lowered (hwloop.go).
	hwDepth int
}

type outCopy struct {
	from ir.Reg
	to   int
}

func newLowerer(prog *glsl.Program, st glsl.Stage, opts Options, res *Result, samplers map[string]int) *lowerer {
	l := &lowerer{prog: prog, stage: st, opts: opts, res: res, samplers: samplers,
		vars: map[*glsl.Var][]ir.Reg{}, known: map[*glsl.Var]glsl.Value{}, lits: map[ir.Reg]*[4]litVal{}, pcgen: -1}
	l.p = &ir.Program{Stage: ir.Fragment}
	l.sh = prog.Fragment
	if st == glsl.StageVertex {
		l.p.Stage = ir.Vertex
		l.sh = prog.Vertex
	}
	return l
}

func (l *lowerer) failf(pos glsl.Pos, format string, args ...any) {
	if !pos.IsValid() {
		pos = l.pos
	}
	panic(bail{&Error{Stage: l.stage, Pos: pos, Msg: fmt.Sprintf(format, args...)}})
}

// run lowers the stage: interface, global initializers, main, outputs.
func (l *lowerer) run() {
	if l.stage == glsl.StageVertex {
		l.vertexInterface()
	} else {
		l.fragmentInterface()
	}
	for _, g := range l.sh.Globals {
		if g.Init != nil {
			l.pos = g.Init.Pos()
			l.store(l.varLval(g.Var), l.expr(g.Init), true)
		}
	}
	// main is a frame too: a return in main ends the shader.
	fr := &frame{live: &flag{}}
	l.frames = append(l.frames, fr)
	l.pushFlag(fr.live)
	l.block(l.sh.Main.Body)
	l.popFlag(fr.live)
	l.frames = l.frames[:0]
	for _, o := range l.outs {
		l.p.Insts = append(l.p.Insts, ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: ir.Reg{File: ir.Output, Index: o.to}, Mask: ir.MaskXYZW}, Src: [3]ir.Src{ir.S(o.from)}})
	}
}

func (l *lowerer) temp() ir.Reg {
	r := ir.Reg{File: ir.Temp, Index: l.ntemp}
	l.ntemp++
	return r
}

func (l *lowerer) temps(n int) []ir.Reg {
	rs := make([]ir.Reg, n)
	for i := range rs {
		rs[i] = l.temp()
	}
	return rs
}

func (l *lowerer) input(name string) ir.Reg {
	l.p.Inputs = append(l.p.Inputs, ir.Var{Name: name})
	return ir.Reg{File: ir.Input, Index: len(l.p.Inputs) - 1}
}

func (l *lowerer) output(name string, from ir.Reg) {
	l.p.Outputs = append(l.p.Outputs, ir.Var{Name: name})
	l.outs = append(l.outs, outCopy{from, len(l.p.Outputs) - 1})
}

// vertexInterface declares attributes, outputs and varyings.
func (l *lowerer) vertexInterface() {
	attrs := append([]*glsl.Attribute(nil), l.prog.Attributes...)
	sort.Slice(attrs, func(i, j int) bool { return attrs[i].Location < attrs[j].Location })
	for _, a := range attrs {
		n := slotCount(a.Type)
		regs := make([]ir.Reg, n)
		for k := range regs {
			loc := a.Location + k
			regs[k] = l.input(fmt.Sprintf("attr%d", loc))
			l.res.AttribLocs = append(l.res.AttribLocs, loc)
		}
		if a.Var != nil {
			l.vars[a.Var] = regs
		}
	}
	if p := findBuiltin(l.sh, "gl_Position"); p != nil {
		regs := l.temps(1)
		l.vars[p] = regs
		l.output("position", regs[0])
	} else {
		l.output("position", l.temp())
	}
	if p := findBuiltin(l.sh, "gl_PointSize"); p != nil && p.Written {
		regs := l.temps(1)
		l.vars[p] = regs
		l.output("psize", regs[0])
	}
	k := 0
	for _, v := range l.prog.Varyings {
		n := slotCount(v.Type)
		var regs []ir.Reg
		if v.Vertex != nil {
			regs = l.storage(v.Vertex)
		}
		for s := 0; s < n; s++ {
			r := l.temp()
			if s < len(regs) {
				r = regs[s]
			}
			l.output(l.res.Varyings[k], r)
			k++
		}
	}
}

// fragmentInterface declares varyings, special inputs and outputs.
func (l *lowerer) fragmentInterface() {
	k := 0
	for _, v := range l.prog.Varyings {
		n := slotCount(v.Type)
		regs := make([]ir.Reg, n)
		for s := range regs {
			regs[s] = l.input(l.res.Varyings[k])
			k++
		}
		l.vars[v.Fragment] = regs
	}
	for _, b := range l.sh.Builtins {
		switch b.Name {
		case "gl_FragCoord":
			l.vars[b] = []ir.Reg{l.input("fragcoord")}
		case "gl_FrontFacing":
			l.vars[b] = []ir.Reg{l.input("facing")}
		case "gl_PointCoord":
			l.vars[b] = []ir.Reg{l.input("pointcoord")}
		}
	}
	for _, b := range l.sh.Builtins {
		switch b.Name {
		case "gl_FragColor":
			regs := l.temps(1)
			l.vars[b] = regs
			l.output("color", regs[0])
		case "gl_FragData":
			regs := l.temps(slotCount(b.Type))
			l.vars[b] = regs
			for i, r := range regs {
				if i >= 4 {
					break
				}
				name := "color"
				if i > 0 {
					name = fmt.Sprintf("color%d", i)
				}
				if b.Written {
					l.output(name, r)
				}
			}
		case "gl_FragDepth":
			regs := l.temps(1)
			l.vars[b] = regs
			if b.Written {
				l.output("depth", regs[0])
			}
		}
	}
}

func findBuiltin(sh *glsl.Shader, name string) *glsl.Var {
	for _, b := range sh.Builtins {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// storage returns a variable's registers, allocating them on first use:
// uniforms become constants, everything else temporaries.
func (l *lowerer) storage(v *glsl.Var) []ir.Reg {
	if regs, ok := l.vars[v]; ok {
		return regs
	}
	var regs []ir.Reg
	if v.Storage == glsl.StorageUniform {
		regs = l.uniformRegs(v)
	} else {
		// Locals, globals, outputs, and inputs nobody feeds (an
		// inactive varying reads zeros).
		regs = l.temps(slotCount(v.Type))
	}
	l.vars[v] = regs
	return regs
}

// uniformRegs makes the constants of a uniform variable: one uniform
// constant per active slot, literal zero for inactive ones; sampler slots
// hold the sampler's unit in a register of file None.
func (l *lowerer) uniformRegs(v *glsl.Var) []ir.Reg {
	types := slotTypes(v.Type)
	regs := make([]ir.Reg, len(types))
	named := make([]string, len(types))
	for _, u := range l.prog.Uniforms {
		root := u.Fragment
		if l.stage == glsl.StageVertex {
			root = u.Vertex
		}
		if root != v {
			continue
		}
		base, t := pathSlot(v.Type, u.Path)
		per := slotCount(t.Elem())
		for e := 0; e < u.Size; e++ {
			name := elemName(u, e)
			if u.IsSampler() {
				regs[base+e*per] = ir.Reg{File: ir.None, Index: l.samplers[name]}
				named[base+e*per] = "sampler"
				continue
			}
			cols := 1
			if u.Type.IsMatrix() {
				cols = int(u.Type.Cols)
			}
			for c := 0; c < cols; c++ {
				cname := name
				if cols > 1 {
					cname = fmt.Sprintf("%s#%d", name, c)
				}
				rows := int(u.Type.Rows)
				l.res.Uniforms[cname] = UniformRef{Location: u.Location + e, First: c * rows, Count: rows}
				l.p.Consts = append(l.p.Consts, ir.ConstVal{Uniform: cname})
				s := base + e*per + c
				regs[s] = ir.Reg{File: ir.Const, Index: len(l.p.Consts) - 1}
				named[s] = cname
			}
		}
	}
	for i := range regs {
		if named[i] == "" {
			regs[i] = ir.Reg{File: ir.Const, Index: l.p.Literal([4]float32{})}
		}
	}
	return regs
}

// emit appends an instruction, enforcing the size bound.
func (l *lowerer) emit(in ir.Inst) {
	if len(l.p.Insts) >= l.opts.MaxInsts {
		l.failf(glsl.Pos{}, "the program needs more than %d IR instructions (loops unrolled too far?)", l.opts.MaxInsts)
	}
	l.p.Insts = append(l.p.Insts, in)
}

// maskN is the mask of the first n components.
func maskN(n int) ir.Mask { return ir.Mask(1<<n - 1) }
