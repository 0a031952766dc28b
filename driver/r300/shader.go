package r300

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/ir"
	"github.com/retrogl/retrogl/compiler/lower"
	rc "github.com/retrogl/retrogl/compiler/r300"
	"github.com/retrogl/retrogl/driver"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// GL ES 2.0 limits of the backend. Varyings ride on the RS's eight
// texture interpolators (one vec4 each); gl_FragCoord, gl_FrontFacing and
// gl_PointCoord take one more each when a fragment shader reads them.
// Fragment uniforms share the US's 32 constant registers with literals.
// Vertex uniforms are the API's 256: the PVS has 256 constant vectors
// (r3.PVSMaxConsts); a shader whose uniforms and literals do not fit them
// runs on the CPU with a link warning (buildProgram).
const (
	maxAttribs          = 16
	maxVaryingVectors   = 8
	maxVertexUniforms   = 256
	maxFragmentUniforms = r3.MaxConsts
	maxTextureUnits     = 8
)

// ShaderCompiler implements driver.ShaderDriver.
func (d *Driver) ShaderCompiler() driver.ShaderCompiler { return shaderCompiler{tcl: d.tcl} }

// shaderCompiler compiles for a chip with the PVS (tcl) or without.
type shaderCompiler struct{ tcl bool }

type compiledShader struct {
	sh *glsl.Shader
}

func glslLimits() glsl.Limits {
	return glsl.Limits{
		MaxVertexAttribs: maxAttribs, MaxVertexUniformVectors: maxVertexUniforms, MaxVaryingVectors: maxVaryingVectors,
		MaxVertexTextureImageUnits: 0, MaxCombinedTextureImageUnits: maxTextureUnits, MaxTextureImageUnits: maxTextureUnits,
		MaxFragmentUniformVectors: maxFragmentUniforms, MaxDrawBuffers: 1,
		MaxTextureCoords: 8, MaxTextureUnits: 8,
	}
}

// Compile implements driver.ShaderCompiler with compiler/glsl. A source
// without #version is GLSL ES 1.00; "#version 110" and "120" select the
// desktop subset (the compatibility mode cmd/rglconform uses).
func (shaderCompiler) Compile(stage driver.ShaderStage, source string) (driver.CompiledShader, string, bool) {
	st := glsl.StageVertex
	if stage == driver.StageFragment {
		st = glsl.StageFragment
	}
	sh, err := glsl.Compile(source, glsl.Options{Stage: st, Limits: glslLimits()})
	if err != nil {
		return nil, logOf(err), false
	}
	var b strings.Builder
	for _, w := range sh.Warnings {
		b.WriteString(w.String())
		b.WriteByte('\n')
	}
	return &compiledShader{sh}, b.String(), true
}

func logOf(err error) string {
	s := err.Error()
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

// linkedProgram is a linked, lowered and compiled program.
type linkedProgram struct {
	res     *lower.Result
	fp      *rc.Program
	attribs []driver.ActiveVar
	unis    []driver.ActiveVar
	// units maps each fragment-program texture unit to its sampler
	// uniform's location.
	samplerLocs []int
	// pre is the fragment program's preshader (nil when none).
	pre *ir.Program
	// vp is the vertex program for the PVS (nil without TCL) and vpsize
	// whether it writes the point size.
	vp     *rc.VertexProgram
	vpsize bool
	// vpErr is why the vertex program did not compile for the PVS; log
	// the link's info log.
	vpErr error
	log   string
}

// noPreshader turns the preshader off (RETROGL_R300_NO_PRESHADER=1, read
// at each link), to measure what the fragment unit's FP24 arithmetic alone
// gives.
func noPreshader() bool { return os.Getenv("RETROGL_R300_NO_PRESHADER") == "1" }

// Attributes implements driver.LinkedProgram.
func (p *linkedProgram) Attributes() []driver.ActiveVar { return p.attribs }

// Uniforms implements driver.LinkedProgram.
func (p *linkedProgram) Uniforms() []driver.ActiveVar { return p.unis }

// Link implements driver.ShaderCompiler: glsl.Link, compiler/lower, then
// the fragment program through compiler/r300. A program over a limit of
// the fragment unit fails to link, naming the limit.
func (sc shaderCompiler) Link(vs, fs driver.CompiledShader, bindings map[string]int) (driver.LinkedProgram, string, bool) {
	v, ok1 := vs.(*compiledShader)
	f, ok2 := fs.(*compiledShader)
	if !ok1 || !ok2 || v == nil || f == nil {
		return nil, "error: a program needs a vertex and a fragment shader\n", false
	}
	prog, err := glsl.Link(v.sh, f.sh, glsl.LinkOptions{Limits: glslLimits(), AttribBindings: bindings})
	if err != nil {
		return nil, logOf(err), false
	}
	lp, err := buildProgram(prog, sc.tcl)
	if err != nil {
		return nil, logOf(err), false
	}
	return lp, lp.log, true
}

// buildProgram lowers and compiles a linked program. Vertex loops with
// uniform bounds stay loops (the PVS's, or the CPU's without TCL) and
// uniform arrays indexed at run time are read through the address
// register (ARL, as Mesa's r300 does); a
// program that does not lower so (a vertex loop whose condition is known
// only at run time cannot be unrolled) is lowered again with such loops
// run rc.MaxLoopIterations times, predicated off once their condition
// fails (compiler/lower hwloop.go), on the CPU too so both boards agree.
//
// With TCL the vertex shader is then compiled for the PVS; over the PVS's
// 256 instructions it is tried again with constant-bounded loops as PVS
// loops too, and where loops were the trouble (more than three, or a
// count the PVS cannot take) with every loop unrolled. A vertex shader no
// try fits runs on the CPU (the swtnl path, as without TCL), and the
// link's info log says so, naming the limit: Mesa's r300 replaces such a
// shader with a dummy one that draws nothing useful ([OUT] r300_vs.h
// "dummy"), a simulator can do better.
func buildProgram(prog *glsl.Program, tcl bool) (*linkedProgram, error) {
	base := lower.Options{MaxAttribs: maxAttribs, Loops: true, Relative: true}
	first, err := buildWith(prog, base, tcl)
	if err != nil {
		dyn := base
		dyn.DynamicLoops = rc.MaxLoopIterations
		lp, err2 := buildWith(prog, dyn, tcl)
		if err2 != nil {
			return nil, err
		}
		first, base = lp, dyn
	}
	if !tcl || first.vpErr == nil {
		return first, nil
	}
	var le *rc.VertexLimitError
	var tries []lower.Options
	if errors.As(first.vpErr, &le) && le.Limit == "instructions" {
		o := base
		o.PreferLoops = true
		tries = append(tries, o)
	}
	if first.res.Vertex.HasLoops() {
		tries = append(tries, lower.Options{MaxAttribs: maxAttribs, Relative: true})
	}
	for _, o := range tries {
		if lp, err := buildWith(prog, o, true); err == nil && lp.vpErr == nil {
			return lp, nil
		}
	}
	first.log = "0:0(0): warning: the vertex shader runs on the CPU: " + first.vpErr.Error() + "\n"
	return first, nil
}

// buildWith lowers with opts and compiles the fragment program and, with
// tcl, the vertex program (a vertex program that does not compile leaves
// vpErr set).
func buildWith(prog *glsl.Program, opts lower.Options, tcl bool) (*linkedProgram, error) {
	res, err := lower.Lower(prog, opts)
	if err != nil {
		return nil, err
	}
	nin := 0
	for _, in := range res.Fragment.Inputs {
		if !strings.HasPrefix(in.Name, "var:") {
			nin++
		}
	}
	if n := len(res.Varyings) + nin; n > maxVaryingVectors {
		return nil, fmt.Errorf("0:0(0): error: the program needs %d interpolated vectors (varyings, gl_FragCoord, gl_FrontFacing, gl_PointCoord), the R3xx RS has %d texture interpolators", n, maxVaryingVectors)
	}
	frag := res.Fragment
	var pre *ir.Program
	if !noPreshader() {
		pre, frag = lower.Preshader(frag)
	}
	fp, err := rc.Compile(frag, rc.Options{})
	if err != nil {
		var le *rc.LimitError
		if errors.As(err, &le) {
			return nil, fmt.Errorf("0:0(0): error: fragment shader too large for the R3xx: needs %d %s, the limit is %d", le.Need, le.Limit, le.Max)
		}
		return nil, fmt.Errorf("0:0(0): error: fragment shader: %w", err)
	}
	lp := &linkedProgram{res: res, fp: fp, pre: pre}
	if tcl {
		lp.vp, lp.vpErr = buildVertex(lp)
	}
	for _, a := range prog.Attributes {
		lp.attribs = append(lp.attribs, driver.ActiveVar{Name: a.Name, Type: glType(a.Type), Size: 1, Location: a.Location})
	}
	for _, u := range prog.Uniforms {
		lp.unis = append(lp.unis, driver.ActiveVar{Name: strings.TrimSuffix(u.Name, "[0]"), Type: glType(u.Type), Size: u.Size, Location: u.Location})
	}
	for _, s := range res.Samplers {
		lp.samplerLocs = append(lp.samplerLocs, s.Location)
	}
	return lp, nil
}

// GL type enumerants (GL ES 2.0 table 2.10).
const (
	glFloat      = 0x1406
	glInt        = 0x1404
	glFloatVec2  = 0x8B50
	glIntVec2    = 0x8B53
	glBool       = 0x8B56
	glBoolVec2   = 0x8B57
	glFloatMat2  = 0x8B5A
	glSampler2D  = 0x8B5E
	glSampler3D  = 0x8B5F
	glSamplerCub = 0x8B60
)

func glType(t glsl.Type) uint32 {
	switch {
	case t.Base == glsl.Sampler2D:
		return glSampler2D
	case t.Base == glsl.SamplerCube:
		return glSamplerCub
	case t.Base == glsl.Sampler3D:
		return glSampler3D
	case t.IsMatrix() && t.Rows == t.Cols:
		return glFloatMat2 + uint32(t.Cols) - 2
	case t.IsMatrix():
		return 0 // GLSL 1.20 non-square matrices: no ES 2.0 enumerant
	}
	n := uint32(t.Rows)
	switch t.Base {
	case glsl.Float:
		if n == 1 {
			return glFloat
		}
		return glFloatVec2 + n - 2
	case glsl.Int:
		if n == 1 {
			return glInt
		}
		return glIntVec2 + n - 2
	case glsl.Bool:
		if n == 1 {
			return glBool
		}
		return glBoolVec2 + n - 2
	}
	return 0
}
