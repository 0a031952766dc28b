package gles

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/retrogl/retrogl/driver"
)

// GL ES 2.0 enumerants for shaders, programs and generic attributes.
const (
	FRAGMENT_SHADER                    Enum = 0x8B30
	VERTEX_SHADER                      Enum = 0x8B31
	MAX_VERTEX_ATTRIBS                 Enum = 0x8869
	MAX_VERTEX_UNIFORM_VECTORS         Enum = 0x8DFB
	MAX_VARYING_VECTORS                Enum = 0x8DFC
	MAX_COMBINED_TEXTURE_IMAGE_UNITS   Enum = 0x8B4D
	MAX_VERTEX_TEXTURE_IMAGE_UNITS     Enum = 0x8B4C
	MAX_TEXTURE_IMAGE_UNITS            Enum = 0x8872
	MAX_FRAGMENT_UNIFORM_VECTORS       Enum = 0x8DFD
	SHADER_TYPE                        Enum = 0x8B4F
	DELETE_STATUS                      Enum = 0x8B80
	LINK_STATUS                        Enum = 0x8B82
	VALIDATE_STATUS                    Enum = 0x8B83
	ATTACHED_SHADERS                   Enum = 0x8B85
	ACTIVE_UNIFORMS                    Enum = 0x8B86
	ACTIVE_UNIFORM_MAX_LENGTH          Enum = 0x8B87
	ACTIVE_ATTRIBUTES                  Enum = 0x8B89
	ACTIVE_ATTRIBUTE_MAX_LENGTH        Enum = 0x8B8A
	CURRENT_PROGRAM                    Enum = 0x8B8D
	COMPILE_STATUS                     Enum = 0x8B81
	INFO_LOG_LENGTH                    Enum = 0x8B84
	SHADER_SOURCE_LENGTH               Enum = 0x8B88
	SHADER_COMPILER                    Enum = 0x8DFA
	NUM_SHADER_BINARY_FORMATS          Enum = 0x8DF9
	MAX_RENDERBUFFER_SIZE              Enum = 0x84E8
	VERTEX_ATTRIB_ARRAY_ENABLED        Enum = 0x8622
	VERTEX_ATTRIB_ARRAY_SIZE           Enum = 0x8623
	VERTEX_ATTRIB_ARRAY_STRIDE         Enum = 0x8624
	VERTEX_ATTRIB_ARRAY_TYPE           Enum = 0x8625
	CURRENT_VERTEX_ATTRIB              Enum = 0x8626
	VERTEX_ATTRIB_ARRAY_NORMALIZED     Enum = 0x886A
	VERTEX_ATTRIB_ARRAY_BUFFER_BINDING Enum = 0x889F
	LOW_FLOAT                          Enum = 0x8DF0
	MEDIUM_FLOAT                       Enum = 0x8DF1
	HIGH_FLOAT                         Enum = 0x8DF2
	LOW_INT                            Enum = 0x8DF3
	MEDIUM_INT                         Enum = 0x8DF4
	HIGH_INT                           Enum = 0x8DF5

	FLOAT_VEC2   Enum = 0x8B50
	FLOAT_VEC3   Enum = 0x8B51
	FLOAT_VEC4   Enum = 0x8B52
	INT_VEC2     Enum = 0x8B53
	INT_VEC3     Enum = 0x8B54
	INT_VEC4     Enum = 0x8B55
	BOOL         Enum = 0x8B56
	BOOL_VEC2    Enum = 0x8B57
	BOOL_VEC3    Enum = 0x8B58
	BOOL_VEC4    Enum = 0x8B59
	FLOAT_MAT2   Enum = 0x8B5A
	FLOAT_MAT3   Enum = 0x8B5B
	FLOAT_MAT4   Enum = 0x8B5C
	SAMPLER_2D   Enum = 0x8B5E
	SAMPLER_CUBE Enum = 0x8B60
)

// TypeInfo describes a GL uniform/attribute type: its component count, and
// whether it is stored as integers (int, bool, sampler) or floats.
func TypeInfo(t Enum) (components int, integer, boolean, sampler, ok bool) {
	switch t {
	case FLOAT:
		return 1, false, false, false, true
	case FLOAT_VEC2:
		return 2, false, false, false, true
	case FLOAT_VEC3:
		return 3, false, false, false, true
	case FLOAT_VEC4:
		return 4, false, false, false, true
	case INT:
		return 1, true, false, false, true
	case INT_VEC2:
		return 2, true, false, false, true
	case INT_VEC3:
		return 3, true, false, false, true
	case INT_VEC4:
		return 4, true, false, false, true
	case BOOL:
		return 1, true, true, false, true
	case BOOL_VEC2:
		return 2, true, true, false, true
	case BOOL_VEC3:
		return 3, true, true, false, true
	case BOOL_VEC4:
		return 4, true, true, false, true
	case FLOAT_MAT2:
		return 4, false, false, false, true
	case FLOAT_MAT3:
		return 9, false, false, false, true
	case FLOAT_MAT4:
		return 16, false, false, false, true
	case SAMPLER_2D, SAMPLER_CUBE:
		return 1, true, false, true, true
	}
	return 0, false, false, false, false
}

type shaderObject struct {
	id       uint32
	stage    driver.ShaderStage
	source   string
	compiled driver.CompiledShader
	log      string
	ok       bool
	deleted  bool
	attached int
}

type programObject struct {
	id       uint32
	vs, fs   *shaderObject
	bindings map[string]int
	linked   driver.LinkedProgram
	log      string
	ok       bool
	deleted  bool
	validOK  bool
	// values holds the uniform values by location; locs maps each location
	// to its variable.
	values  []driver.Uniform
	locs    []*driver.ActiveVar
	uniGen  uint64
	inUseBy int
}

// ID implements driver.Program.
func (p *programObject) ID() uint32 { return p.id }

// Linked implements driver.ProgramState.
func (p *programObject) Linked() driver.LinkedProgram { return p.linked }

// Uniform implements driver.ProgramState.
func (p *programObject) Uniform(loc int) *driver.Uniform {
	if loc < 0 || loc >= len(p.values) {
		return nil
	}
	return &p.values[loc]
}

// UniformGen implements driver.ProgramState.
func (p *programObject) UniformGen() uint64 { return p.uniGen }

// es2 holds the GL ES 2.0 state of a context.
type es2 struct {
	compiler driver.ShaderCompiler
	objects  map[uint32]any // shaders and programs share one name space
	nextName uint32
	current  *programObject
	attribs  [driver.MaxGenericAttribs]arrayState
}

func (c *Context) initES2() {
	c.gl2.objects = map[uint32]any{}
	for i := range c.gl2.attribs {
		c.gl2.attribs[i] = arrayState{size: 4, typ: FLOAT}
		c.st.CurrentAttrib[i] = [4]float32{0, 0, 0, 1}
	}
}

// IsES2 reports whether the context is a GL ES 2.0 context.
func (c *Context) IsES2() bool { return c.api2 }

// need2 checks that an ES 2.0 entry point is called on an ES 2.0 context.
func (c *Context) need2(fn string) bool {
	if !c.alive(fn) {
		return false
	}
	if !c.api2 {
		c.record(fn, INVALID_OPERATION, "not available in a GL ES 1.1 context")
		return false
	}
	return true
}

func (c *Context) newName() uint32 {
	for {
		c.gl2.nextName++
		if _, used := c.gl2.objects[c.gl2.nextName]; !used && c.gl2.nextName != 0 {
			return c.gl2.nextName
		}
	}
}

// CreateShader creates a shader object of type VERTEX_SHADER or
// FRAGMENT_SHADER and returns its name (0 on error).
func (c *Context) CreateShader(typ Enum) uint32 {
	const fn = "CreateShader"
	if !c.need2(fn) {
		return 0
	}
	var st driver.ShaderStage
	switch typ {
	case VERTEX_SHADER:
		st = driver.StageVertex
	case FRAGMENT_SHADER:
		st = driver.StageFragment
	default:
		c.record(fn, INVALID_ENUM, "type %#x", typ)
		return 0
	}
	if !c.fits(fn, objectCost, "a new shader object") {
		return 0
	}
	c.charge(objectCost)
	id := c.newName()
	c.gl2.objects[id] = &shaderObject{id: id, stage: st}
	return id
}

// dropObject removes a shader or program object, releasing its budget.
func (c *Context) dropObject(id uint32) {
	if s, ok := c.gl2.objects[id].(*shaderObject); ok {
		c.charge(-int64(len(s.source)))
	}
	delete(c.gl2.objects, id)
	c.charge(-objectCost)
}

func (c *Context) shader(fn string, id uint32) *shaderObject {
	o, ok := c.gl2.objects[id]
	if !ok {
		c.record(fn, INVALID_VALUE, "%d is not a shader or program name", id)
		return nil
	}
	s, ok := o.(*shaderObject)
	if !ok {
		c.record(fn, INVALID_OPERATION, "%d is a program, not a shader", id)
		return nil
	}
	return s
}

func (c *Context) program(fn string, id uint32) *programObject {
	o, ok := c.gl2.objects[id]
	if !ok {
		c.record(fn, INVALID_VALUE, "%d is not a shader or program name", id)
		return nil
	}
	p, ok := o.(*programObject)
	if !ok {
		c.record(fn, INVALID_OPERATION, "%d is a shader, not a program", id)
		return nil
	}
	return p
}

// ShaderSource replaces a shader's source (the strings are concatenated).
func (c *Context) ShaderSource(shader uint32, sources ...string) {
	const fn = "ShaderSource"
	if !c.need2(fn) {
		return
	}
	s := c.shader(fn, shader)
	if s == nil {
		return
	}
	n := int64(0)
	for _, src := range sources {
		n += int64(len(src))
	}
	if !c.fits(fn, n-int64(len(s.source)), fmt.Sprintf("a %d-byte source", n)) {
		return
	}
	c.charge(n - int64(len(s.source)))
	s.source = strings.Join(sources, "")
}

// GetShaderSource returns a shader's source.
func (c *Context) GetShaderSource(shader uint32) string {
	const fn = "GetShaderSource"
	if !c.need2(fn) {
		return ""
	}
	if s := c.shader(fn, shader); s != nil {
		return s.source
	}
	return ""
}

// CompileShader compiles a shader; the result is in COMPILE_STATUS and the
// info log.
func (c *Context) CompileShader(shader uint32) {
	const fn = "CompileShader"
	if !c.need2(fn) {
		return
	}
	s := c.shader(fn, shader)
	if s == nil {
		return
	}
	s.compiled, s.log, s.ok = c.gl2.compiler.Compile(s.stage, s.source)
	if !s.ok {
		s.compiled = nil
	}
}

// GetShaderiv returns SHADER_TYPE, DELETE_STATUS, COMPILE_STATUS,
// INFO_LOG_LENGTH or SHADER_SOURCE_LENGTH.
func (c *Context) GetShaderiv(shader uint32, pname Enum) int {
	const fn = "GetShaderiv"
	if !c.need2(fn) {
		return 0
	}
	s := c.shader(fn, shader)
	if s == nil {
		return 0
	}
	switch pname {
	case SHADER_TYPE:
		if s.stage == driver.StageVertex {
			return int(VERTEX_SHADER)
		}
		return int(FRAGMENT_SHADER)
	case DELETE_STATUS:
		return boolInt(s.deleted)
	case COMPILE_STATUS:
		return boolInt(s.ok)
	case INFO_LOG_LENGTH:
		return logLen(s.log)
	case SHADER_SOURCE_LENGTH:
		return logLen(s.source)
	}
	c.record(fn, INVALID_ENUM, "pname %#x", pname)
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// logLen is a string's length with its terminating NUL, or 0 when empty.
func logLen(s string) int {
	if s == "" {
		return 0
	}
	return len(s) + 1
}

// GetShaderInfoLog returns the compile log.
func (c *Context) GetShaderInfoLog(shader uint32) string {
	const fn = "GetShaderInfoLog"
	if !c.need2(fn) {
		return ""
	}
	if s := c.shader(fn, shader); s != nil {
		return s.log
	}
	return ""
}

// DeleteShader flags a shader for deletion; it goes when no program has it
// attached.
func (c *Context) DeleteShader(shader uint32) {
	const fn = "DeleteShader"
	if !c.need2(fn) || shader == 0 {
		return
	}
	s := c.shader(fn, shader)
	if s == nil {
		return
	}
	s.deleted = true
	if s.attached == 0 {
		c.dropObject(shader)
	}
}

// IsShader reports whether a name is a shader.
func (c *Context) IsShader(shader uint32) bool {
	if !c.need2("IsShader") {
		return false
	}
	_, ok := c.gl2.objects[shader].(*shaderObject)
	return ok
}

// CreateProgram creates a program object.
func (c *Context) CreateProgram() uint32 {
	if !c.need2("CreateProgram") || !c.fits("CreateProgram", objectCost, "a new program object") {
		return 0
	}
	c.charge(objectCost)
	id := c.newName()
	c.gl2.objects[id] = &programObject{id: id, bindings: map[string]int{}}
	return id
}

// AttachShader attaches a shader to a program (one of each stage).
func (c *Context) AttachShader(program, shader uint32) {
	const fn = "AttachShader"
	if !c.need2(fn) {
		return
	}
	p, s := c.program(fn, program), c.shader(fn, shader)
	if p == nil || s == nil {
		return
	}
	slot := &p.vs
	if s.stage == driver.StageFragment {
		slot = &p.fs
	}
	if *slot != nil {
		c.record(fn, INVALID_OPERATION, "program %d already has a %v shader", program, s.stage)
		return
	}
	*slot = s
	s.attached++
}

// DetachShader detaches a shader from a program.
func (c *Context) DetachShader(program, shader uint32) {
	const fn = "DetachShader"
	if !c.need2(fn) {
		return
	}
	p, s := c.program(fn, program), c.shader(fn, shader)
	if p == nil || s == nil {
		return
	}
	switch {
	case p.vs == s:
		p.vs = nil
	case p.fs == s:
		p.fs = nil
	default:
		c.record(fn, INVALID_OPERATION, "shader %d is not attached to program %d", shader, program)
		return
	}
	s.attached--
	if s.deleted && s.attached == 0 {
		c.dropObject(s.id)
	}
}

// GetAttachedShaders returns the shaders attached to a program.
func (c *Context) GetAttachedShaders(program uint32) []uint32 {
	const fn = "GetAttachedShaders"
	if !c.need2(fn) {
		return nil
	}
	p := c.program(fn, program)
	if p == nil {
		return nil
	}
	var out []uint32
	for _, s := range []*shaderObject{p.vs, p.fs} {
		if s != nil {
			out = append(out, s.id)
		}
	}
	return out
}

// BindAttribLocation requests a location for a named attribute at the next
// link.
func (c *Context) BindAttribLocation(program uint32, index int, name string) {
	const fn = "BindAttribLocation"
	if !c.need2(fn) {
		return
	}
	if index < 0 || index >= c.caps.Limits.MaxVertexAttribs {
		c.record(fn, INVALID_VALUE, "index %d outside 0..%d", index, c.caps.Limits.MaxVertexAttribs-1)
		return
	}
	if strings.HasPrefix(name, "gl_") {
		c.record(fn, INVALID_OPERATION, "%q is a reserved name", name)
		return
	}
	if p := c.program(fn, program); p != nil {
		p.bindings[name] = index
	}
}

// LinkProgram links a program; the result is in LINK_STATUS and the info
// log. On success the uniforms are reset to zero.
func (c *Context) LinkProgram(program uint32) {
	const fn = "LinkProgram"
	if !c.need2(fn) {
		return
	}
	p := c.program(fn, program)
	if p == nil {
		return
	}
	p.linked, p.ok, p.validOK = nil, false, false
	switch {
	case p.vs == nil || p.fs == nil:
		p.log = "error: a program needs a vertex and a fragment shader\n"
		return
	case !p.vs.ok || !p.fs.ok:
		p.log = "error: a shader attached to the program failed to compile\n"
		return
	}
	bind := map[string]int{}
	for k, v := range p.bindings {
		bind[k] = v
	}
	lp, log, ok := c.gl2.compiler.Link(p.vs.compiled, p.fs.compiled, bind)
	p.log = log
	if !ok {
		return
	}
	p.linked, p.ok = lp, true
	n := 0
	for _, u := range lp.Uniforms() {
		n = max(n, u.Location+u.Size)
	}
	p.values = make([]driver.Uniform, n)
	p.locs = make([]*driver.ActiveVar, n)
	us := lp.Uniforms()
	for i := range us {
		u := &us[i]
		comps, integer, _, _, _ := TypeInfo(Enum(u.Type))
		for e := 0; e < u.Size; e++ {
			p.locs[u.Location+e] = u
			if integer {
				p.values[u.Location+e].Int = make([]int32, comps)
			} else {
				p.values[u.Location+e].Float = make([]float32, comps)
			}
		}
	}
	p.uniGen++
}

// UseProgram makes a program current (0 for none).
func (c *Context) UseProgram(program uint32) {
	const fn = "UseProgram"
	if !c.need2(fn) {
		return
	}
	if program == 0 {
		c.setCurrent(nil)
		return
	}
	p := c.program(fn, program)
	if p == nil {
		return
	}
	if !p.ok {
		c.record(fn, INVALID_OPERATION, "program %d is not linked", program)
		return
	}
	c.setCurrent(p)
}

func (c *Context) setCurrent(p *programObject) {
	if old := c.gl2.current; old != nil {
		old.inUseBy--
		if old.deleted && old.inUseBy == 0 {
			c.freeProgram(old)
		}
	}
	c.gl2.current = p
	if p != nil {
		p.inUseBy++
	}
}

func (c *Context) freeProgram(p *programObject) {
	for _, s := range []*shaderObject{p.vs, p.fs} {
		if s != nil {
			s.attached--
			if s.deleted && s.attached == 0 {
				c.dropObject(s.id)
			}
		}
	}
	c.dropObject(p.id)
}

// DeleteProgram flags a program for deletion; it goes when not current.
func (c *Context) DeleteProgram(program uint32) {
	const fn = "DeleteProgram"
	if !c.need2(fn) || program == 0 {
		return
	}
	p := c.program(fn, program)
	if p == nil {
		return
	}
	p.deleted = true
	if p.inUseBy == 0 {
		c.freeProgram(p)
	}
}

// IsProgram reports whether a name is a program.
func (c *Context) IsProgram(program uint32) bool {
	if !c.need2("IsProgram") {
		return false
	}
	_, ok := c.gl2.objects[program].(*programObject)
	return ok
}

// ValidateProgram checks whether the program can run in the current state
// (samplers of different types must not share a unit).
func (c *Context) ValidateProgram(program uint32) {
	const fn = "ValidateProgram"
	if !c.need2(fn) {
		return
	}
	p := c.program(fn, program)
	if p == nil {
		return
	}
	p.validOK = p.ok
	if !p.ok {
		p.log += "validation: the program is not linked\n"
		return
	}
	units := map[int32]uint32{}
	for loc, v := range p.locs {
		if v == nil {
			continue
		}
		if _, _, _, sampler, _ := TypeInfo(Enum(v.Type)); sampler {
			u := p.values[loc].Int[0]
			if t, seen := units[u]; seen && t != v.Type {
				p.validOK = false
				p.log += fmt.Sprintf("validation: samplers of different types use texture unit %d\n", u)
			}
			units[u] = v.Type
		}
	}
}

// GetProgramiv returns DELETE_STATUS, LINK_STATUS, VALIDATE_STATUS,
// INFO_LOG_LENGTH, ATTACHED_SHADERS, ACTIVE_ATTRIBUTES,
// ACTIVE_ATTRIBUTE_MAX_LENGTH, ACTIVE_UNIFORMS or ACTIVE_UNIFORM_MAX_LENGTH.
func (c *Context) GetProgramiv(program uint32, pname Enum) int {
	const fn = "GetProgramiv"
	if !c.need2(fn) {
		return 0
	}
	p := c.program(fn, program)
	if p == nil {
		return 0
	}
	maxLen := func(vs []driver.ActiveVar) int {
		n := 0
		for _, v := range vs {
			name := v.Name
			if v.Size > 1 {
				name += "[0]"
			}
			n = max(n, len(name)+1)
		}
		return n
	}
	switch pname {
	case DELETE_STATUS:
		return boolInt(p.deleted)
	case LINK_STATUS:
		return boolInt(p.ok)
	case VALIDATE_STATUS:
		return boolInt(p.validOK)
	case INFO_LOG_LENGTH:
		return logLen(p.log)
	case ATTACHED_SHADERS:
		return len(c.GetAttachedShaders(program))
	case ACTIVE_ATTRIBUTES, ACTIVE_ATTRIBUTE_MAX_LENGTH, ACTIVE_UNIFORMS, ACTIVE_UNIFORM_MAX_LENGTH:
		if p.linked == nil {
			return 0
		}
		switch pname {
		case ACTIVE_ATTRIBUTES:
			return len(p.linked.Attributes())
		case ACTIVE_ATTRIBUTE_MAX_LENGTH:
			return maxLen(p.linked.Attributes())
		case ACTIVE_UNIFORMS:
			return len(p.linked.Uniforms())
		}
		return maxLen(p.linked.Uniforms())
	}
	c.record(fn, INVALID_ENUM, "pname %#x", pname)
	return 0
}

// GetProgramInfoLog returns the link (and validation) log.
func (c *Context) GetProgramInfoLog(program uint32) string {
	const fn = "GetProgramInfoLog"
	if !c.need2(fn) {
		return ""
	}
	if p := c.program(fn, program); p != nil {
		return p.log
	}
	return ""
}

// ActiveInfo describes an active attribute or uniform.
type ActiveInfo struct {
	Name string
	Type Enum
	Size int
}

func (c *Context) activeVar(fn string, program uint32, index int, attrib bool) (ActiveInfo, bool) {
	if !c.need2(fn) {
		return ActiveInfo{}, false
	}
	p := c.program(fn, program)
	if p == nil {
		return ActiveInfo{}, false
	}
	var vs []driver.ActiveVar
	if p.linked != nil {
		if attrib {
			vs = p.linked.Attributes()
		} else {
			vs = p.linked.Uniforms()
		}
	}
	if index < 0 || index >= len(vs) {
		c.record(fn, INVALID_VALUE, "index %d outside 0..%d", index, len(vs)-1)
		return ActiveInfo{}, false
	}
	v := vs[index]
	name := v.Name
	if v.Size > 1 {
		name += "[0]"
	}
	return ActiveInfo{Name: name, Type: Enum(v.Type), Size: v.Size}, true
}

// GetActiveAttrib describes active attribute index.
func (c *Context) GetActiveAttrib(program uint32, index int) (ActiveInfo, bool) {
	return c.activeVar("GetActiveAttrib", program, index, true)
}

// GetActiveUniform describes active uniform index (arrays are named
// "name[0]").
func (c *Context) GetActiveUniform(program uint32, index int) (ActiveInfo, bool) {
	return c.activeVar("GetActiveUniform", program, index, false)
}

func (c *Context) linkedProgram(fn string, program uint32) *programObject {
	p := c.program(fn, program)
	if p == nil {
		return nil
	}
	if !p.ok {
		c.record(fn, INVALID_OPERATION, "program %d is not linked", program)
		return nil
	}
	return p
}

// GetAttribLocation returns an active attribute's location, or -1.
func (c *Context) GetAttribLocation(program uint32, name string) int {
	const fn = "GetAttribLocation"
	if !c.need2(fn) {
		return -1
	}
	p := c.linkedProgram(fn, program)
	if p == nil {
		return -1
	}
	for _, a := range p.linked.Attributes() {
		if a.Name == name {
			return a.Location
		}
	}
	return -1
}

// GetUniformLocation returns the location of a uniform ("name",
// "name[2]", "s.field", "a[1].field"), or -1.
func (c *Context) GetUniformLocation(program uint32, name string) int {
	const fn = "GetUniformLocation"
	if !c.need2(fn) {
		return -1
	}
	p := c.linkedProgram(fn, program)
	if p == nil {
		return -1
	}
	base, elem := name, 0
	if strings.HasSuffix(name, "]") {
		if i := strings.LastIndexByte(name, '['); i > 0 {
			n, err := strconv.Atoi(name[i+1 : len(name)-1])
			if err != nil || n < 0 {
				return -1
			}
			base, elem = name[:i], n
		}
	}
	for _, u := range p.linked.Uniforms() {
		if u.Name == base && elem < u.Size {
			return u.Location + elem
		}
	}
	return -1
}

// uniformTarget validates a Uniform* call and returns the locations it
// writes.
func (c *Context) uniformTarget(fn string, loc, comps, count int, integer, matrix bool) (*programObject, bool) {
	if !c.need2(fn) {
		return nil, false
	}
	p := c.gl2.current
	if p == nil {
		c.record(fn, INVALID_OPERATION, "no current program")
		return nil, false
	}
	if loc == -1 {
		return nil, false
	}
	if count < 0 {
		c.record(fn, INVALID_VALUE, "count %d", count)
		return nil, false
	}
	if loc < 0 || loc >= len(p.locs) || p.locs[loc] == nil {
		c.record(fn, INVALID_OPERATION, "location %d is not a uniform of program %d", loc, p.id)
		return nil, false
	}
	v := p.locs[loc]
	vc, vint, vbool, vsampler, _ := TypeInfo(Enum(v.Type))
	isMat := v.Type == uint32(FLOAT_MAT2) || v.Type == uint32(FLOAT_MAT3) || v.Type == uint32(FLOAT_MAT4)
	switch {
	case vc != comps || isMat != matrix:
		c.record(fn, INVALID_OPERATION, "uniform %q has type %#x", v.Name, v.Type)
		return nil, false
	case vsampler && (!integer || comps != 1):
		c.record(fn, INVALID_OPERATION, "sampler %q takes Uniform1i", v.Name)
		return nil, false
	case !vbool && vint != integer:
		c.record(fn, INVALID_OPERATION, "uniform %q has type %#x", v.Name, v.Type)
		return nil, false
	case count > 1 && v.Size == 1:
		c.record(fn, INVALID_OPERATION, "uniform %q is not an array", v.Name)
		return nil, false
	}
	return p, true
}

func (c *Context) setUniform(fn string, loc, comps int, f []float32, iv []int32, matrix bool) {
	n := len(f) + len(iv)
	if comps == 0 || n%comps != 0 {
		c.record(fn, INVALID_VALUE, "%d values for %d-component uniforms", n, comps)
		return
	}
	count := n / comps
	p, ok := c.uniformTarget(fn, loc, comps, count, iv != nil, matrix)
	if !ok {
		return
	}
	v := p.locs[loc]
	_, _, vbool, vsampler, _ := TypeInfo(Enum(v.Type))
	for e := 0; e < count && loc+e < len(p.locs) && p.locs[loc+e] == v; e++ {
		dst := &p.values[loc+e]
		for k := 0; k < comps; k++ {
			switch {
			case vbool && f != nil:
				dst.Int[k] = int32(boolInt(f[e*comps+k] != 0))
			case vbool:
				dst.Int[k] = int32(boolInt(iv[e*comps+k] != 0))
			case f != nil:
				dst.Float[k] = f[e*comps+k]
			default:
				if vsampler && (iv[e] < 0 || int(iv[e]) >= c.caps.Limits.MaxCombinedTextureUnits) {
					c.record(fn, INVALID_VALUE, "texture unit %d outside 0..%d", iv[e], c.caps.Limits.MaxCombinedTextureUnits-1)
					return
				}
				dst.Int[k] = iv[e*comps+k]
			}
		}
	}
	p.uniGen++
}

// Uniform1f sets a float (or bool) uniform of the current program.
func (c *Context) Uniform1f(loc int, x float32) {
	c.setUniform("Uniform1f", loc, 1, []float32{x}, nil, false)
}

// Uniform2f sets a vec2 uniform.
func (c *Context) Uniform2f(loc int, x, y float32) {
	c.setUniform("Uniform2f", loc, 2, []float32{x, y}, nil, false)
}

// Uniform3f sets a vec3 uniform.
func (c *Context) Uniform3f(loc int, x, y, z float32) {
	c.setUniform("Uniform3f", loc, 3, []float32{x, y, z}, nil, false)
}

// Uniform4f sets a vec4 uniform.
func (c *Context) Uniform4f(loc int, x, y, z, w float32) {
	c.setUniform("Uniform4f", loc, 4, []float32{x, y, z, w}, nil, false)
}

// Uniform1i sets an int, bool or sampler uniform.
func (c *Context) Uniform1i(loc int, x int32) {
	c.setUniform("Uniform1i", loc, 1, nil, []int32{x}, false)
}

// Uniform2i sets an ivec2 uniform.
func (c *Context) Uniform2i(loc int, x, y int32) {
	c.setUniform("Uniform2i", loc, 2, nil, []int32{x, y}, false)
}

// Uniform3i sets an ivec3 uniform.
func (c *Context) Uniform3i(loc int, x, y, z int32) {
	c.setUniform("Uniform3i", loc, 3, nil, []int32{x, y, z}, false)
}

// Uniform4i sets an ivec4 uniform.
func (c *Context) Uniform4i(loc int, x, y, z, w int32) {
	c.setUniform("Uniform4i", loc, 4, nil, []int32{x, y, z, w}, false)
}

// Uniform1fv sets float uniforms from loc on (len(v) elements).
func (c *Context) Uniform1fv(loc int, v []float32) {
	c.setUniform("Uniform1fv", loc, 1, nonNilF(v), nil, false)
}

// Uniform2fv sets vec2 uniforms (2 values per element).
func (c *Context) Uniform2fv(loc int, v []float32) {
	c.setUniform("Uniform2fv", loc, 2, nonNilF(v), nil, false)
}

// Uniform3fv sets vec3 uniforms.
func (c *Context) Uniform3fv(loc int, v []float32) {
	c.setUniform("Uniform3fv", loc, 3, nonNilF(v), nil, false)
}

// Uniform4fv sets vec4 uniforms.
func (c *Context) Uniform4fv(loc int, v []float32) {
	c.setUniform("Uniform4fv", loc, 4, nonNilF(v), nil, false)
}

// Uniform1iv sets int, bool or sampler uniforms.
func (c *Context) Uniform1iv(loc int, v []int32) {
	c.setUniform("Uniform1iv", loc, 1, nil, nonNilI(v), false)
}

// Uniform2iv sets ivec2 uniforms.
func (c *Context) Uniform2iv(loc int, v []int32) {
	c.setUniform("Uniform2iv", loc, 2, nil, nonNilI(v), false)
}

// Uniform3iv sets ivec3 uniforms.
func (c *Context) Uniform3iv(loc int, v []int32) {
	c.setUniform("Uniform3iv", loc, 3, nil, nonNilI(v), false)
}

// Uniform4iv sets ivec4 uniforms.
func (c *Context) Uniform4iv(loc int, v []int32) {
	c.setUniform("Uniform4iv", loc, 4, nil, nonNilI(v), false)
}

func nonNilF(v []float32) []float32 {
	if v == nil {
		return []float32{}
	}
	return v
}

func nonNilI(v []int32) []int32 {
	if v == nil {
		return []int32{}
	}
	return v
}

func (c *Context) uniformMatrix(fn string, n, loc int, transpose bool, v []float32) {
	if transpose {
		if c.need2(fn) {
			c.record(fn, INVALID_VALUE, "transpose must be false in GL ES 2.0")
		}
		return
	}
	c.setUniform(fn, loc, n*n, nonNilF(v), nil, true)
}

// UniformMatrix2fv sets mat2 uniforms (column-major; transpose must be false).
func (c *Context) UniformMatrix2fv(loc int, transpose bool, v []float32) {
	c.uniformMatrix("UniformMatrix2fv", 2, loc, transpose, v)
}

// UniformMatrix3fv sets mat3 uniforms.
func (c *Context) UniformMatrix3fv(loc int, transpose bool, v []float32) {
	c.uniformMatrix("UniformMatrix3fv", 3, loc, transpose, v)
}

// UniformMatrix4fv sets mat4 uniforms.
func (c *Context) UniformMatrix4fv(loc int, transpose bool, v []float32) {
	c.uniformMatrix("UniformMatrix4fv", 4, loc, transpose, v)
}

// uniformValue looks up a uniform location of a linked program for the
// GetUniform calls.
func (c *Context) uniformValue(fn string, program uint32, loc int) *driver.Uniform {
	if !c.need2(fn) {
		return nil
	}
	p := c.linkedProgram(fn, program)
	if p == nil {
		return nil
	}
	u := p.Uniform(loc)
	if u == nil || p.locs[loc] == nil {
		c.record(fn, INVALID_OPERATION, "location %d", loc)
		return nil
	}
	return u
}

// GetUniformfv returns a uniform's value as floats.
func (c *Context) GetUniformfv(program uint32, loc int) []float32 {
	u := c.uniformValue("GetUniformfv", program, loc)
	if u == nil {
		return nil
	}
	if u.Float != nil {
		return append([]float32(nil), u.Float...)
	}
	out := make([]float32, len(u.Int))
	for i, x := range u.Int {
		out[i] = float32(x)
	}
	return out
}

// GetUniformiv returns a uniform's value as integers.
func (c *Context) GetUniformiv(program uint32, loc int) []int32 {
	u := c.uniformValue("GetUniformiv", program, loc)
	if u == nil {
		return nil
	}
	if u.Int != nil {
		return append([]int32(nil), u.Int...)
	}
	out := make([]int32, len(u.Float))
	for i, x := range u.Float {
		out[i] = int32(math.Round(float64(x)))
	}
	return out
}

func (c *Context) attribIndex(fn string, index int) bool {
	if !c.need2(fn) {
		return false
	}
	if index < 0 || index >= min(c.caps.Limits.MaxVertexAttribs, driver.MaxGenericAttribs) {
		c.record(fn, INVALID_VALUE, "index %d outside 0..%d", index, c.caps.Limits.MaxVertexAttribs-1)
		return false
	}
	return true
}

// VertexAttrib4f sets a generic attribute's current value (the 1f, 2f and
// 3f forms fill y, z with 0 and w with 1).
func (c *Context) VertexAttrib4f(index int, x, y, z, w float32) {
	if c.attribIndex("VertexAttrib4f", index) {
		c.st.CurrentAttrib[index] = [4]float32{x, y, z, w}
	}
}

// VertexAttrib1f sets a generic attribute to (x, 0, 0, 1).
func (c *Context) VertexAttrib1f(index int, x float32) { c.VertexAttrib4f(index, x, 0, 0, 1) }

// VertexAttrib2f sets a generic attribute to (x, y, 0, 1).
func (c *Context) VertexAttrib2f(index int, x, y float32) { c.VertexAttrib4f(index, x, y, 0, 1) }

// VertexAttrib3f sets a generic attribute to (x, y, z, 1).
func (c *Context) VertexAttrib3f(index int, x, y, z float32) { c.VertexAttrib4f(index, x, y, z, 1) }

// VertexAttribfv sets a generic attribute from 1-4 values.
func (c *Context) VertexAttribfv(index int, v []float32) {
	if len(v) < 1 || len(v) > 4 {
		if c.need2("VertexAttribfv") {
			c.record("VertexAttribfv", INVALID_VALUE, "%d values", len(v))
		}
		return
	}
	a := [4]float32{0, 0, 0, 1}
	copy(a[:], v)
	c.VertexAttrib4f(index, a[0], a[1], a[2], a[3])
}

// VertexAttribPointer sets a generic attribute array; ptr is a slice of
// numbers, or an int byte offset with a buffer bound to ARRAY_BUFFER.
func (c *Context) VertexAttribPointer(index, size int, typ Enum, normalized bool, stride int, ptr any) {
	const fn = "VertexAttribPointer"
	if !c.attribIndex(fn, index) {
		return
	}
	c.pointerInto(fn, &c.gl2.attribs[index], size, typ, stride, ptr, []int{1, 2, 3, 4},
		BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT, FIXED, FLOAT)
	c.gl2.attribs[index].normalized = normalized
}

// EnableVertexAttribArray enables a generic attribute array.
func (c *Context) EnableVertexAttribArray(index int) {
	if c.attribIndex("EnableVertexAttribArray", index) {
		c.gl2.attribs[index].enabled = true
	}
}

// DisableVertexAttribArray disables a generic attribute array.
func (c *Context) DisableVertexAttribArray(index int) {
	if c.attribIndex("DisableVertexAttribArray", index) {
		c.gl2.attribs[index].enabled = false
	}
}

// GetVertexAttribfv returns a generic attribute's state: CURRENT_VERTEX_ATTRIB
// (4 values) or an array parameter.
func (c *Context) GetVertexAttribfv(index int, pname Enum) []float32 {
	const fn = "GetVertexAttribfv"
	if !c.attribIndex(fn, index) {
		return nil
	}
	a := &c.gl2.attribs[index]
	switch pname {
	case CURRENT_VERTEX_ATTRIB:
		v := c.st.CurrentAttrib[index]
		return v[:]
	case VERTEX_ATTRIB_ARRAY_ENABLED:
		return []float32{float32(boolInt(a.enabled))}
	case VERTEX_ATTRIB_ARRAY_SIZE:
		return []float32{float32(a.size)}
	case VERTEX_ATTRIB_ARRAY_STRIDE:
		return []float32{float32(a.stride)}
	case VERTEX_ATTRIB_ARRAY_TYPE:
		return []float32{float32(a.typ)}
	case VERTEX_ATTRIB_ARRAY_NORMALIZED:
		return []float32{float32(boolInt(a.normalized))}
	case VERTEX_ATTRIB_ARRAY_BUFFER_BINDING:
		if a.buffer == nil {
			return []float32{0}
		}
		return []float32{float32(a.buffer.id)}
	}
	c.record(fn, INVALID_ENUM, "pname %#x", pname)
	return nil
}

// GetShaderPrecisionFormat returns the range (log2 of min and max
// magnitude) and precision (bits) of a shader precision. Ranges follow the
// backend's numbers (Limits.Extra "fragment_float_range"/"_precision",
// defaulting to IEEE single precision).
func (c *Context) GetShaderPrecisionFormat(shaderType, precision Enum) (rangeMin, rangeMax, bits int) {
	const fn = "GetShaderPrecisionFormat"
	if !c.need2(fn) {
		return 0, 0, 0
	}
	if shaderType != VERTEX_SHADER && shaderType != FRAGMENT_SHADER {
		c.record(fn, INVALID_ENUM, "shader type %#x", shaderType)
		return 0, 0, 0
	}
	stage := "vertex"
	if shaderType == FRAGMENT_SHADER {
		stage = "fragment"
	}
	switch precision {
	case LOW_FLOAT, MEDIUM_FLOAT, HIGH_FLOAT:
		r, p := 127, 23
		if v, ok := c.caps.Limits.Extra[stage+"_float_range"]; ok {
			r = v
		}
		if v, ok := c.caps.Limits.Extra[stage+"_float_precision"]; ok {
			p = v
		}
		return r, r, p
	case LOW_INT, MEDIUM_INT, HIGH_INT:
		p := 24
		if v, ok := c.caps.Limits.Extra[stage+"_int_bits"]; ok {
			p = v
		}
		return p, p, 0
	}
	c.record(fn, INVALID_ENUM, "precision %#x", precision)
	return 0, 0, 0
}

// ReleaseShaderCompiler is a hint; it does nothing.
func (c *Context) ReleaseShaderCompiler() { c.need2("ReleaseShaderCompiler") }

// ShaderBinary always fails: no binary formats are supported
// (NUM_SHADER_BINARY_FORMATS is 0).
func (c *Context) ShaderBinary(shaders []uint32, format Enum, binary []byte) {
	if c.need2("ShaderBinary") {
		c.record("ShaderBinary", INVALID_ENUM, "binary format %#x: no binary formats are supported", format)
	}
}

// resolveProgram prepares the program and generic arrays of an ES 2.0
// draw; it returns false (after recording an error) when nothing may be
// drawn.
func (c *Context) resolveProgram(fn string, dc *driver.DrawCall, va *driver.VertexArrays) bool {
	p := c.gl2.current
	if p == nil {
		c.record(fn, INVALID_OPERATION, "no current program")
		return false
	}
	for i := range c.gl2.attribs {
		if i >= c.caps.Limits.MaxVertexAttribs {
			break
		}
		if !c.resolveInto(fn, &c.gl2.attribs[i], fmt.Sprintf("attribute %d", i), dc.MaxIndex, &va.Generic[i]) {
			return false
		}
	}
	c.st.Program = p
	// In ES 2.0 every unit a sampler names is live.
	for u := range c.st.Units {
		c.st.Units[u].Texture = nil
	}
	used := map[int32]bool{}
	for loc, v := range p.locs {
		if v != nil {
			if _, _, _, sampler, _ := TypeInfo(Enum(v.Type)); sampler {
				used[p.values[loc].Int[0]] = true
			}
		}
	}
	keys := make([]int, 0, len(used))
	for u := range used {
		keys = append(keys, int(u))
	}
	sort.Ints(keys)
	for _, u := range keys {
		if u < len(c.st.Units) {
			c.st.Units[u].Texture = c.completeTexture(u)
		}
	}
	return true
}

// BlendColor sets the constant blend colour (GL ES 2.0).
func (c *Context) BlendColor(r, g, b, a float32) {
	if c.need2("BlendColor") {
		c.st.Blend.Color = [4]float32{clamp01(r), clamp01(g), clamp01(b), clamp01(a)}
	}
}

// BlendEquation sets the RGB and alpha blend equations (GL ES 2.0: ADD,
// SUBTRACT, REVERSE_SUBTRACT; MIN and MAX with EXT_blend_minmax).
func (c *Context) BlendEquation(mode Enum) { c.BlendEquationSeparate(mode, mode) }

// BlendEquationSeparate sets separate RGB and alpha blend equations.
func (c *Context) BlendEquationSeparate(modeRGB, modeAlpha Enum) {
	const fn = "BlendEquationSeparate"
	if !c.need2(fn) {
		return
	}
	c.blendEquationSeparate(fn, modeRGB, modeAlpha)
}

// BlendFuncSeparate sets separate RGB and alpha blend factors (GL ES 2.0).
func (c *Context) BlendFuncSeparate(srcRGB, dstRGB, srcAlpha, dstAlpha Enum) {
	const fn = "BlendFuncSeparate"
	if !c.need2(fn) {
		return
	}
	c.blendFuncSeparate(fn, srcRGB, dstRGB, srcAlpha, dstAlpha)
}

func (c *Context) faces(fn string, face Enum) []int {
	switch face {
	case FRONT:
		return []int{0}
	case BACK:
		return []int{1}
	case FRONT_AND_BACK:
		return []int{0, 1}
	}
	c.record(fn, INVALID_ENUM, "face %#x", face)
	return nil
}

// StencilFuncSeparate sets the stencil test of one face (GL ES 2.0).
func (c *Context) StencilFuncSeparate(face, fnc Enum, ref int, mask uint32) {
	const fn = "StencilFuncSeparate"
	if !c.need2(fn) {
		return
	}
	f, ok := compareFunc(fnc)
	if !ok {
		c.record(fn, INVALID_ENUM, "func %#x", fnc)
		return
	}
	for _, i := range c.faces(fn, face) {
		s := &c.st.Stencil[i]
		s.Func, s.Ref, s.ValueMask = f, ref, mask
	}
}

// StencilOpSeparate sets the stencil operations of one face (GL ES 2.0).
func (c *Context) StencilOpSeparate(face, fail, zfail, zpass Enum) {
	const fn = "StencilOpSeparate"
	if !c.need2(fn) {
		return
	}
	f, ok1 := c.stencilOp(fail)
	zf, ok2 := c.stencilOp(zfail)
	zp, ok3 := c.stencilOp(zpass)
	if !ok1 || !ok2 || !ok3 {
		c.record(fn, INVALID_ENUM, "ops %#x, %#x, %#x", fail, zfail, zpass)
		return
	}
	for _, i := range c.faces(fn, face) {
		s := &c.st.Stencil[i]
		s.Fail, s.ZFail, s.ZPass = f, zf, zp
	}
}

// StencilMaskSeparate sets the stencil write mask of one face (GL ES 2.0).
func (c *Context) StencilMaskSeparate(face Enum, mask uint32) {
	const fn = "StencilMaskSeparate"
	if !c.need2(fn) {
		return
	}
	for _, i := range c.faces(fn, face) {
		c.st.Stencil[i].WriteMask = mask
	}
}

// GenerateMipmap builds the mipmap levels of the bound texture from level
// 0 (GL ES 2.0; a 2x2 box filter on the CPU).
func (c *Context) GenerateMipmap(target Enum) {
	const fn = "GenerateMipmap"
	if !c.need2(fn) {
		return
	}
	if target != TEXTURE_2D {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	t := c.boundTexture()
	if len(t.levels) == 0 || t.levels[0].Width == 0 {
		c.record(fn, INVALID_OPERATION, "level 0 is not defined")
		return
	}
	if !isPow2(t.levels[0].Width) || !isPow2(t.levels[0].Height) {
		c.record(fn, INVALID_OPERATION, "%dx%d is not a power of two", t.levels[0].Width, t.levels[0].Height)
		return
	}
	if t.format.BytesPerTexel() == 0 {
		c.record(fn, INVALID_OPERATION, "the texture is compressed (%v)", t.format)
		return
	}
	if !c.syncTexture(fn, t) {
		return
	}
	c.generateMipmaps(fn, t)
}
