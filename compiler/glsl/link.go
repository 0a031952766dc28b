package glsl

import (
	"fmt"
	"sort"
)

// LinkOptions configure Link.
type LinkOptions struct {
	// Limits are checked: attributes, uniform vectors per stage, varying
	// vectors, texture image units.
	Limits Limits
	// AttribBindings are the locations bound with BindAttribLocation.
	AttribBindings map[string]int
}

// Program is the result of linking: the shaders and their interface, with
// attributes and uniforms flattened to locations as GL reports them.
type Program struct {
	Vertex     *Shader
	Fragment   *Shader
	Attributes []*Attribute // active attributes, by location
	Uniforms   []*Uniform   // active uniforms, by location
	Varyings   []*Varying   // varyings the fragment shader reads
}

// Attribute is an active vertex attribute. A matrix takes one location per
// column, starting at Location.
type Attribute struct {
	Name     string
	Type     Type
	Location int
	Var      *Var
	Builtin  bool // gl_Vertex, gl_Color, ... (desktop GLSL)
}

// Uniform is one active uniform as GL's uniform API sees it: a scalar,
// vector, matrix or sampler, or an array of them (Size > 1). Structures are
// flattened: "light.pos", "lights[1].color", "a[0]" (arrays take the
// name of their first element, as glGetActiveUniform reports them).
// Element i of an array has location Location+i.
type Uniform struct {
	Name     string
	Type     Type // the element type
	Size     int  // array length, 1 when not an array
	Prec     Precision
	Location int
	Builtin  bool
	// Path leads from the root variable to this uniform (struct fields
	// and array elements); Vertex and Fragment are the root variables in
	// the stages that use it.
	Path     []PathStep
	Vertex   *Var
	Fragment *Var
}

// IsSampler reports whether the uniform is a sampler (or an array of them).
func (u *Uniform) IsSampler() bool { return u.Type.Base.IsSampler() }

// PathStep selects a structure field (Field >= 0) or an array element
// (Field < 0, Index).
type PathStep struct {
	Field int
	Index int
}

// Varying is a varying linked between the stages.
type Varying struct {
	Name      string
	Type      Type
	Invariant bool
	Vertex    *Var // nil when linking a fragment shader alone
	Fragment  *Var
}

type linker struct {
	d    diags
	opts LinkOptions
	prog *Program
}

// Link checks that a vertex and a fragment shader form a program (either
// may be nil to link one stage alone, as piglit's check_link does) and
// collects its interface. The error is an ErrorList of link errors, which
// carry no source position.
func Link(vs, fs *Shader, opts LinkOptions) (*Program, error) {
	opts.Limits = opts.Limits.withDefaults()
	l := &linker{opts: opts, prog: &Program{Vertex: vs, Fragment: fs}}
	if vs != nil && vs.Stage != StageVertex || fs != nil && fs.Stage != StageFragment {
		l.errorf("Link needs a vertex shader and a fragment shader")
		return nil, l.d.err()
	}
	if vs != nil && fs != nil && vs.ES != fs.ES {
		l.errorf("cannot link a GLSL ES shader with a desktop GLSL shader (versions %d and %d)", vs.Version, fs.Version)
	}
	for _, sh := range []*Shader{vs, fs} {
		if sh != nil {
			l.checkFunctions(sh)
		}
	}
	if vs != nil && !vs.ES && vs.Main != nil {
		// GLSL 1.10/1.20 section 7.1: the vertex shader must write
		// gl_Position (ES 1.00 leaves it undefined instead).
		if p := findBuiltin(vs, "gl_Position"); p == nil || !p.Written {
			l.errorf("vertex shader does not write gl_Position")
		}
	}
	l.varyings(vs, fs)
	l.uniforms(vs, fs)
	if vs != nil {
		l.attributes(vs)
	}
	if err := l.d.err(); err != nil {
		return nil, err
	}
	return l.prog, nil
}

func (l *linker) errorf(format string, args ...any) {
	l.d.errorf(Pos{}, format, args...)
}

// checkFunctions: main must exist and every function reachable from it must
// be defined.
func (l *linker) checkFunctions(sh *Shader) {
	if sh.Main == nil {
		l.errorf("%s shader has no main() function", sh.Stage)
		return
	}
	seen := map[*Function]bool{}
	var walk func(f *Function)
	walk = func(f *Function) {
		if seen[f] {
			return
		}
		seen[f] = true
		if f.Body == nil {
			l.errorf("%s shader calls '%s', which is declared but never defined", sh.Stage, f.Signature())
			return
		}
		for _, g := range f.Calls {
			walk(g)
		}
	}
	walk(sh.Main)
}

func findGlobal(sh *Shader, name string, st Storage) *Var {
	if sh == nil {
		return nil
	}
	for _, g := range sh.Globals {
		if g.Var.Name == name && g.Var.Storage == st {
			return g.Var
		}
	}
	for _, v := range sh.Builtins {
		if v.Name == name && v.Storage == st {
			return v
		}
	}
	return nil
}

func findBuiltin(sh *Shader, name string) *Var {
	if sh == nil {
		return nil
	}
	for _, v := range sh.Builtins {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// varyings matches varyings by name and type (ES 1.00 section 4.3.5).
func (l *linker) varyings(vs, fs *Shader) {
	if fs == nil {
		return
	}
	var rows []packItem
	for _, g := range fs.Globals {
		fv := g.Var
		if fv.Storage != StorageVarying {
			continue
		}
		vv := findGlobal(vs, fv.Name, StorageVarying)
		if vs != nil && vv == nil {
			if fv.Used {
				l.errorf("fragment shader varying '%s' is not declared in the vertex shader", fv.Name)
			}
			continue
		}
		if vv != nil && !vs.ES && fv.Used && !vv.Written {
			// Desktop GLSL (Mesa, piglit's varying-read-but-not-written):
			// a varying the fragment shader reads must be written.
			l.errorf("fragment shader varying '%s' is not written by the vertex shader", fv.Name)
			continue
		}
		if vv != nil && vv.Type != fv.Type {
			l.errorf("varying '%s' has type '%s' in the vertex shader and '%s' in the fragment shader", fv.Name, vv.Type, fv.Type)
			continue
		}
		if vv != nil && fs.ES && vv.Invariant != fv.Invariant {
			l.errorf("varying '%s' is invariant in one shader only", fv.Name)
		}
		if !fv.Used {
			continue
		}
		l.prog.Varyings = append(l.prog.Varyings, &Varying{Name: fv.Name, Type: fv.Type, Invariant: fv.Invariant, Vertex: vv, Fragment: fv})
		rows = append(rows, packItemOf(fv.Type))
	}
	// Desktop built-in varyings the fragment shader reads.
	for _, fv := range fs.Builtins {
		if fv.Storage == StorageVarying && fv.Used {
			l.prog.Varyings = append(l.prog.Varyings, &Varying{Name: fv.Name, Type: fv.Type, Vertex: findBuiltin(vs, vsVaryingFor(fv.Name)), Fragment: fv})
		}
	}
	if fc := findBuiltin(fs, "gl_FragCoord"); fc != nil && fc.Invariant && vs != nil {
		if p := findBuiltin(vs, "gl_Position"); p == nil || !p.Invariant {
			l.errorf("gl_FragCoord is invariant but gl_Position is not")
		}
	}
	if pc := findBuiltin(fs, "gl_PointCoord"); pc != nil && pc.Invariant && vs != nil {
		if p := findBuiltin(vs, "gl_PointSize"); p == nil || !p.Invariant {
			l.errorf("gl_PointCoord is invariant but gl_PointSize is not")
		}
	}
	if !pack(rows, l.opts.Limits.MaxVaryingVectors) {
		l.errorf("too many varyings: they do not fit in %d varying vectors", l.opts.Limits.MaxVaryingVectors)
	}
}

// vsVaryingFor maps a fragment shader's built-in varying to the vertex
// shader output that feeds it (desktop GLSL).
func vsVaryingFor(name string) string {
	switch name {
	case "gl_Color":
		return "gl_FrontColor"
	case "gl_SecondaryColor":
		return "gl_FrontSecondaryColor"
	}
	return name
}

// sameType compares types across shaders: structures match when their
// names and fields match (each shader declares its own).
func sameType(a, b Type) bool {
	if a.Base != b.Base || a.Rows != b.Rows || a.Cols != b.Cols || a.Len != b.Len {
		return false
	}
	if a.Base != StructKind || a.Struct == b.Struct {
		return true
	}
	sa, sb := a.Struct, b.Struct
	if sa.Name != sb.Name || len(sa.Fields) != len(sb.Fields) {
		return false
	}
	for i := range sa.Fields {
		fa, fb := sa.Fields[i], sb.Fields[i]
		if fa.Name != fb.Name || fa.Prec != fb.Prec || !sameType(fa.Type, fb.Type) {
			return false
		}
	}
	return true
}

// uniforms merges the uniforms of both stages, flattens them and assigns
// locations in declaration order (vertex shader first).
func (l *linker) uniforms(vs, fs *Shader) {
	type root struct {
		name   string
		vv, fv *Var
	}
	var roots []*root
	byName := map[string]*root{}
	add := func(v *Var, st Stage) {
		r := byName[v.Name]
		if r == nil {
			r = &root{name: v.Name}
			byName[v.Name] = r
			roots = append(roots, r)
		}
		if st == StageVertex {
			r.vv = v
		} else {
			r.fv = v
		}
	}
	for _, sh := range []*Shader{vs, fs} {
		if sh == nil {
			continue
		}
		for _, g := range sh.Globals {
			if g.Var.Storage == StorageUniform {
				add(g.Var, sh.Stage)
			}
		}
		for _, v := range sh.Builtins {
			if v.Storage == StorageUniform && v.Used {
				add(v, sh.Stage)
			}
		}
	}
	var vsItems, fsItems []packItem
	vsSamplers, fsSamplers := 0, 0
	loc := 0
	for _, r := range roots {
		if r.vv != nil && r.fv != nil {
			if !sameType(r.vv.Type, r.fv.Type) {
				l.errorf("uniform '%s' has type '%s' in the vertex shader and '%s' in the fragment shader", r.name, r.vv.Type, r.fv.Type)
				continue
			}
			// A precision mismatch matters only for a uniform both stages
			// use (piglit's glsl-mismatched-uniform-precision-unused).
			if r.vv.Prec != r.fv.Prec && !r.vv.Builtin && r.vv.Used && r.fv.Used {
				l.errorf("uniform '%s' has precision %s in the vertex shader and %s in the fragment shader", r.name, r.vv.Prec, r.fv.Prec)
				continue
			}
		}
		used := func(v *Var) *Var {
			if v != nil && v.Used {
				return v
			}
			return nil
		}
		vv, fv := used(r.vv), used(r.fv)
		if vv == nil && fv == nil {
			continue
		}
		v := vv
		if v == nil {
			v = fv
		}
		for _, u := range flatten(v.Name, v.Type, v.Prec, nil) {
			u.Vertex, u.Fragment, u.Builtin = vv, fv, v.Builtin
			u.Location = loc
			loc += u.Size
			l.prog.Uniforms = append(l.prog.Uniforms, u)
			it := packItemOf(ArrayOf(u.Type, u.Size))
			if u.Size == 1 {
				it = packItemOf(u.Type)
			}
			switch {
			case u.IsSampler():
				if vv != nil {
					vsSamplers += u.Size
				}
				if fv != nil {
					fsSamplers += u.Size
				}
			default:
				if vv != nil {
					vsItems = append(vsItems, it)
				}
				if fv != nil {
					fsItems = append(fsItems, it)
				}
			}
		}
	}
	lim := l.opts.Limits
	if vs != nil && !pack(vsItems, lim.MaxVertexUniformVectors) {
		l.errorf("too many vertex shader uniforms: they do not fit in %d uniform vectors", lim.MaxVertexUniformVectors)
	}
	if fs != nil && !pack(fsItems, lim.MaxFragmentUniformVectors) {
		l.errorf("too many fragment shader uniforms: they do not fit in %d uniform vectors", lim.MaxFragmentUniformVectors)
	}
	if vsSamplers > lim.MaxVertexTextureImageUnits {
		l.errorf("the vertex shader uses %d samplers; the limit is %d", vsSamplers, lim.MaxVertexTextureImageUnits)
	}
	if fsSamplers > lim.MaxTextureImageUnits {
		l.errorf("the fragment shader uses %d samplers; the limit is %d", fsSamplers, lim.MaxTextureImageUnits)
	}
	if vsSamplers+fsSamplers > lim.MaxCombinedTextureImageUnits {
		l.errorf("the program uses %d samplers; the limit is %d", vsSamplers+fsSamplers, lim.MaxCombinedTextureImageUnits)
	}
}

// maxFlatUniforms bounds the flattening of one uniform variable.
const maxFlatUniforms = 1 << 14

// flatten lists the GL uniforms of a variable of type t named name.
func flatten(name string, t Type, prec Precision, path []PathStep) []*Uniform {
	var out []*Uniform
	var walk func(name string, t Type, prec Precision, path []PathStep)
	walk = func(name string, t Type, prec Precision, path []PathStep) {
		if len(out) >= maxFlatUniforms {
			return
		}
		switch {
		case t.Base == StructKind && t.Len > 0:
			for i := 0; i < t.Len; i++ {
				walk(fmt.Sprintf("%s[%d]", name, i), t.Elem(), prec, append(clonePath(path), PathStep{Field: -1, Index: i}))
			}
		case t.Base == StructKind:
			for i, f := range t.Struct.Fields {
				walk(name+"."+f.Name, f.Type, f.Prec, append(clonePath(path), PathStep{Field: i}))
			}
		case t.Len > 0:
			out = append(out, &Uniform{Name: name + "[0]", Type: t.Elem(), Size: t.Len, Prec: prec, Path: path})
		default:
			out = append(out, &Uniform{Name: name, Type: t, Size: 1, Prec: prec, Path: path})
		}
	}
	walk(name, t, prec, path)
	return out
}

func clonePath(p []PathStep) []PathStep { return append([]PathStep(nil), p...) }

// attributes collects the active attributes and assigns locations: bound
// names first, then the rest in declaration order, first fit.
func (l *linker) attributes(vs *Shader) {
	var list []*Attribute
	for _, g := range vs.Globals {
		if g.Var.Storage == StorageAttribute && g.Var.Used {
			list = append(list, &Attribute{Name: g.Var.Name, Type: g.Var.Type, Var: g.Var, Location: -1})
		}
	}
	for _, v := range vs.Builtins {
		if v.Storage == StorageAttribute && v.Used {
			list = append(list, &Attribute{Name: v.Name, Type: v.Type, Var: v, Location: -1, Builtin: true})
		}
	}
	max := l.opts.Limits.MaxVertexAttribs
	used := make([]bool, max)
	take := func(a *Attribute, at int) bool {
		n := int(a.Type.Cols)
		if at < 0 || at+n > max {
			return false
		}
		for i := at; i < at+n; i++ {
			if used[i] {
				return false
			}
		}
		for i := at; i < at+n; i++ {
			used[i] = true
		}
		a.Location = at
		return true
	}
	for _, a := range list {
		if a.Builtin {
			continue // fixed-function attributes have their own slots
		}
		if at, ok := l.opts.AttribBindings[a.Name]; ok && !take(a, at) {
			l.errorf("attribute '%s' cannot be bound to location %d", a.Name, at)
		}
	}
	for _, a := range list {
		if a.Builtin || a.Location >= 0 {
			continue
		}
		ok := false
		for at := 0; at < max && !ok; at++ {
			ok = take(a, at)
		}
		if !ok {
			l.errorf("too many vertex attributes: '%s' does not fit in %d locations", a.Name, max)
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Location < list[j].Location })
	l.prog.Attributes = list
}

// packItem is a variable for the packing rules of GLSL ES 1.00 Appendix A
// section 7: width in components per row (1 to 4) and rows.
type packItem struct{ width, rows int }

func packItemOf(t Type) packItem {
	n := 1
	if t.Len > 0 {
		n = t.Len
		t = t.Elem()
	}
	if t.Base == StructKind {
		// Structures are counted member by member.
		rows := 0
		for _, f := range t.Struct.Fields {
			it := packItemOf(f.Type)
			rows += it.rows
		}
		return packItem{width: 4, rows: rows * n}
	}
	switch {
	case t.IsMatrix() && t.Rows == 2 && t.Cols == 2:
		// A.7 counts a mat2 as two full 4-wide rows.
		return packItem{width: 4, rows: 2 * n}
	case t.IsMatrix():
		return packItem{width: int(t.Rows), rows: int(t.Cols) * n}
	}
	return packItem{width: int(t.Rows), rows: n}
}

// pack places the items in a 4-column grid of the given number of rows
// following Appendix A.7's order (widest first, larger first) with first
// fit: 4- and 3-wide items start at column 0, 2-wide at column 0 or 2,
// 1-wide anywhere; each item needs its rows contiguous in its columns.
// It reports whether everything fits. (A first-fit reading of the
// algorithm: it accepts what the specification's placement accepts in
// every case we tested.)
func pack(items []packItem, rows int) bool {
	sorted := append([]packItem(nil), items...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].width != sorted[j].width {
			return sorted[i].width > sorted[j].width
		}
		return sorted[i].rows > sorted[j].rows
	})
	total := 0
	for _, it := range sorted {
		total += it.width * it.rows
	}
	if total > 4*rows {
		return false
	}
	grid := make([][4]bool, rows)
	place := func(it packItem) bool {
		starts := []int{0, 1, 2, 3}
		switch it.width {
		case 4, 3:
			starts = []int{0}
		case 2:
			starts = []int{0, 2}
		}
		for _, c0 := range starts {
			for r0 := 0; r0+it.rows <= rows; r0++ {
				ok := true
				for r := r0; r < r0+it.rows && ok; r++ {
					for c := c0; c < c0+it.width; c++ {
						if grid[r][c] {
							ok = false
							break
						}
					}
				}
				if !ok {
					continue
				}
				for r := r0; r < r0+it.rows; r++ {
					for c := c0; c < c0+it.width; c++ {
						grid[r][c] = true
					}
				}
				return true
			}
		}
		return false
	}
	for _, it := range sorted {
		if !place(it) {
			return false
		}
	}
	return true
}
