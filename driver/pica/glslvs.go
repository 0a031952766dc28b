package pica

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/ir"
	"github.com/retrogl/retrogl/compiler/lower"
	cp "github.com/retrogl/retrogl/compiler/pica"
	"github.com/retrogl/retrogl/driver"
	p "github.com/retrogl/retrogl/hal/pica"
)

// GL_RETRO_pica_vertex_shader: GLSL vertex shaders compiled for the
// shader unit by compiler/pica, replacing the generated fixed-function
// vertex shader; fragments stay on the fixed-function combiners (texture
// environment, fog, tests, blending), as with SHBIN shaders.
//
// The language is desktop GLSL 1.10 (the default without #version; 1.20
// with it) in its compatibility form, so that an ES 1.1 application's
// arrays and matrices reach the shader without new entry points:
//
//   - inputs: gl_Vertex, gl_Color, gl_Normal, gl_MultiTexCoord0-2, fed by
//     the fixed-function arrays (or the current values) as v0-v5; other
//     attributes are a compile error;
//   - outputs: gl_Position (GL clip space; the driver folds in its depth
//     and viewport mapping), gl_FrontColor (the primary colour the
//     combiners read), gl_TexCoord[0-2] (texture units 0-2; q is the
//     projective divisor of unit 0);
//   - uniforms: the application's, set by name (PicaShaderExt.Uniform),
//     and the state the ES 1.1 API sets: gl_ModelViewMatrix,
//     gl_ProjectionMatrix, gl_ModelViewProjectionMatrix, gl_TextureMatrix
//     [0-2] with their Inverse, Transpose and InverseTranspose forms,
//     gl_NormalMatrix and gl_DepthRange; other built-in uniforms are a
//     compile error;
//   - loops with uniform bounds run on the unit's LOOP instruction (at
//     most 256 iterations; a loop whose condition is known only at run
//     time runs 256 times, predicated off after it ends).
//
// Triangles only: the driver draws points and lines as triangles whose
// corners the generated shaders place, which a GLSL shader does not do.

// glslVS is a compiled GLSL vertex shader.
type glslVS struct {
	prog *glsl.Program
	res  *lower.Result
	code *cp.Program
	// builtin maps a location to the built-in uniform element it holds.
	builtin map[int]string
	// values holds the application's uniform values by location.
	values map[int][]float32
}

// attribRegs are the input registers of the built-in attributes (the
// fixed-function arrays, as vertices() packs them).
var attribRegs = map[string]int{"gl_Vertex": 0, "gl_Color": 1, "gl_Normal": 2, "gl_MultiTexCoord0": 3, "gl_MultiTexCoord1": 4, "gl_MultiTexCoord2": 5}

// vsOutputs are the compiled program's outputs in register order.
var vsOutputs = []string{"position", "var:gl_Color@0", "var:gl_TexCoord@0", "var:gl_TexCoord@1", "var:gl_TexCoord@2"}

// fsLink is the fragment shader the vertex shader is linked with: it
// reads every output the combiners can use.
const fsLink = "void main() { gl_FragColor = gl_Color + gl_TexCoord[0] + gl_TexCoord[1] + gl_TexCoord[2]; }\n"

// foldUniform names the rows of the clip-space fold the driver appends.
const foldUniform = "$fold"

var builtinMatrix = regexp.MustCompile(`^gl_(ModelView|Projection|ModelViewProjection|Texture)Matrix(Inverse|Transpose|InverseTranspose)?(\[\d+\])?$`)

// CompileVertexShader implements GL_RETRO_pica_vertex_shader: it compiles
// a GLSL vertex shader for the shader unit and keeps it under a new name,
// or returns the info log of the failure.
func (c *Context) CompileVertexShader(src string) (uint32, string, error) {
	lim := glsl.DefaultLimits()
	lim.MaxTextureCoords, lim.MaxTextureUnits, lim.MaxVertexAttribs = 3, 3, 16
	lim.MaxVertexUniformVectors = cp.MaxConsts - 4
	vs, err := glsl.Compile(src, glsl.Options{Stage: glsl.StageVertex, Version: 110, Limits: lim})
	if err != nil {
		return 0, err.Error(), err
	}
	var log strings.Builder
	for _, w := range vs.Warnings {
		log.WriteString(w.String() + "\n")
	}
	fs, err := glsl.Compile(fsLink, glsl.Options{Stage: glsl.StageFragment, Version: 110, Limits: lim})
	if err != nil {
		return 0, err.Error(), err
	}
	prog, err := glsl.Link(vs, fs, glsl.LinkOptions{Limits: lim})
	if err != nil {
		return 0, err.Error(), err
	}
	g, err := buildGLSLVS(prog)
	if err != nil {
		return 0, log.String() + err.Error(), err
	}
	pr, err := glslProgram(g)
	if err != nil {
		return 0, log.String() + err.Error(), err
	}
	c.nextShader++
	pr.name = fmt.Sprintf("glsl%d", c.nextShader)
	if c.shaders == nil {
		c.shaders = map[uint32]*program{}
	}
	c.shaders[c.nextShader] = pr
	return c.nextShader, log.String(), nil
}

// buildGLSLVS lowers and compiles a linked program's vertex shader.
func buildGLSLVS(prog *glsl.Program) (*glslVS, error) {
	g := &glslVS{prog: prog, builtin: map[int]string{}, values: map[int][]float32{}}
	for _, u := range prog.Uniforms {
		if !u.Builtin && !strings.HasPrefix(u.Name, "gl_") {
			continue
		}
		base := strings.TrimSuffix(u.Name, "[0]")
		switch {
		case builtinMatrix.MatchString(u.Name), u.Name == "gl_NormalMatrix", strings.HasPrefix(u.Name, "gl_DepthRange."):
		default:
			return nil, fmt.Errorf("error: %s: the built-in uniform is not supported by GL_RETRO_pica_vertex_shader", base)
		}
		for e := 0; e < u.Size; e++ {
			name := u.Name
			if u.Size > 1 || strings.HasSuffix(u.Name, "]") {
				name = fmt.Sprintf("%s[%d]", strings.TrimSuffix(u.Name, "[0]"), e)
			}
			g.builtin[u.Location+e] = name
		}
	}
	for _, a := range prog.Attributes {
		if _, ok := attribRegs[a.Name]; !ok {
			return nil, fmt.Errorf("error: attribute '%s': GL_RETRO_pica_vertex_shader feeds gl_Vertex, gl_Color, gl_Normal and gl_MultiTexCoord0-2 from the fixed-function arrays", a.Name)
		}
	}
	opts := lower.Options{MaxAttribs: 16, Loops: true, Relative: true}
	res, err := lower.Lower(prog, opts)
	if err != nil {
		opts.DynamicLoops = cp.MaxLoopIterations
		var err2 error
		if res, err2 = lower.Lower(prog, opts); err2 != nil {
			return nil, err
		}
	}
	g.res = res
	v := res.Vertex.Clone()
	var regs []int
	for i := range v.Inputs {
		loc := res.AttribLocs[i]
		for _, a := range prog.Attributes {
			if a.Location == loc {
				regs = append(regs, attribRegs[a.Name])
			}
		}
	}
	if pos := v.OutputIndex("position"); pos >= 0 {
		foldPosition(v, pos)
	}
	code, err := cp.Compile(v, cp.Options{Outputs: vsOutputs, InputRegs: regs})
	if err != nil {
		return nil, fmt.Errorf("error: %w", err)
	}
	g.code = code
	return g, nil
}

// foldPosition makes the program's position writes go to a temporary and
// then through the rows "$fold0".."$fold3" (the driver's clip-space fold)
// to the output.
func foldPosition(v *ir.Program, pos int) {
	t := ir.Reg{File: ir.Temp, Index: v.NumTemps()}
	for i := range v.Insts {
		if d := &v.Insts[i].Dst; d.File == ir.Output && d.Index == pos {
			d.Reg = t
		}
	}
	for r := 0; r < 4; r++ {
		v.Consts = append(v.Consts, ir.ConstVal{Uniform: foldUniform + strconv.Itoa(r)})
		v.Insts = append(v.Insts, ir.Inst{Op: ir.DP4, Dst: ir.Dst{Reg: ir.Reg{File: ir.Output, Index: pos}, Mask: 1 << r},
			Src: [3]ir.Src{ir.S(ir.Reg{File: ir.Const, Index: len(v.Consts) - 1}), ir.S(t)}})
	}
}

// glslProgram wraps a compiled shader as a program the draw path loads:
// code, descriptors and the output map (o0 position, o1 colour, o2-o4
// texture coordinates 0-2).
func glslProgram(g *glslVS) (*program, error) {
	pr := &program{code: g.code.Code, descs: g.code.Descs, glsl: g}
	sems := [][4]uint32{
		{p.SemPosX, p.SemPosX + 1, p.SemPosX + 2, p.SemPosX + 3},
		{p.SemColorR, p.SemColorR + 1, p.SemColorR + 2, p.SemColorR + 3},
		{p.SemTex0U, p.SemTex0U + 1, p.SemUnused, p.SemTex0W},
		{p.SemTex1U, p.SemTex1U + 1, p.SemUnused, p.SemUnused},
		{p.SemTex2U, p.SemTex2U + 1, p.SemUnused, p.SemUnused},
	}
	for r, s := range sems {
		pr.outMask |= 1 << r
		pr.outmap = append(pr.outmap, s[0]|s[1]<<8|s[2]<<16|s[3]<<24)
	}
	pr.clock = 1 | 2 | 1<<8 | 1<<16 | 1<<9 | 1<<10
	pr.useTex = true
	return pr, nil
}

// SetVertexShaderUniform sets uniform name ("u", "a[2]", a matrix
// column-major) of GLSL shader id to v: as many values as the uniform (or
// the array elements from the one named) has components.
func (c *Context) SetVertexShaderUniform(id uint32, name string, v []float32) error {
	pr, ok := c.shaders[id]
	if !ok || pr.glsl == nil {
		return fmt.Errorf("no GLSL vertex shader %d", id)
	}
	g := pr.glsl
	base, elem := name, 0
	if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
		n, err := strconv.Atoi(name[i+1 : len(name)-1])
		if err != nil {
			return fmt.Errorf("uniform %q: bad index", name)
		}
		base, elem = name[:i], n
	}
	for _, u := range g.prog.Uniforms {
		if strings.TrimSuffix(u.Name, "[0]") != base {
			continue
		}
		if u.Builtin || strings.HasPrefix(u.Name, "gl_") {
			return fmt.Errorf("uniform %q is state the ES 1.1 API sets", name)
		}
		n := int(u.Type.Rows) * max(int(u.Type.Cols), 1)
		if elem >= u.Size || len(v) == 0 || len(v)%n != 0 || elem+len(v)/n > u.Size {
			return fmt.Errorf("uniform %q: %d values for elements of %d components (array size %d)", name, len(v), n, u.Size)
		}
		for k := 0; k < len(v)/n; k++ {
			g.values[u.Location+elem+k] = append([]float32(nil), v[k*n:(k+1)*n]...)
		}
		return nil
	}
	return fmt.Errorf("no active uniform %q", name)
}

// matrixState returns a built-in matrix uniform's value.
func matrixState(st *driver.State, name string) (mgl32.Mat4, bool) {
	m := builtinMatrix.FindStringSubmatch(name)
	if m == nil {
		return mgl32.Mat4{}, false
	}
	var x mgl32.Mat4
	switch m[1] {
	case "ModelView":
		x = st.ModelView
	case "Projection":
		x = st.Projection
	case "ModelViewProjection":
		x = st.Projection.Mul4(st.ModelView)
	case "Texture":
		x = mgl32.Ident4()
		if k, err := strconv.Atoi(strings.Trim(m[3], "[]")); err == nil && k < len(st.Units) {
			x = st.Units[k].Matrix
		}
	}
	switch m[2] {
	case "Inverse":
		x = x.Inv()
	case "Transpose":
		x = x.Transpose()
	case "InverseTranspose":
		x = x.Inv().Transpose()
	}
	return x, true
}

// glslUniforms uploads a GLSL shader's float uniforms (state, the
// application's values, the clip-space fold) and its loops' integer and
// bool uniforms.
func (c *Context) glslUniforms(st *driver.State, g *glslVS) error {
	vals := g.res.UniformValues(func(loc int) []float32 {
		name, ok := g.builtin[loc]
		if !ok {
			return g.values[loc]
		}
		if m, ok := matrixState(st, name); ok {
			return m[:]
		}
		switch name {
		case "gl_NormalMatrix":
			m := st.ModelView.Mat3().Inv().Transpose()
			return m[:]
		case "gl_DepthRange.near":
			return []float32{st.DepthRange[0]}
		case "gl_DepthRange.far":
			return []float32{st.DepthRange[1]}
		case "gl_DepthRange.diff":
			return []float32{st.DepthRange[1] - st.DepthRange[0]}
		}
		return nil
	})
	for r, row := range rows(c.vpFold.Mul4(depthFold)) {
		vals[foldUniform+strconv.Itoa(r)] = row
	}
	consts, err := g.code.ConstValues(vals)
	if err != nil {
		return err
	}
	for i, v := range consts {
		c.uniform(i, v)
	}
	ints, bools, err := g.code.LoopUniforms(vals)
	if err != nil {
		return fmt.Errorf("pica200: GLSL vertex shader: %w", err)
	}
	for k, l := range g.code.Loops {
		i := ints[l.Int]
		c.set(p.VSH_INTUNIFORM_I0+p.Reg(l.Int), uint32(i[0])|uint32(i[1])<<8|uint32(i[2])<<16|uint32(i[3])<<24)
		_ = k
	}
	if len(g.code.Loops) > 0 {
		c.set(p.VSH_BOOLUNIFORM, 0x7FFF0000|uint32(bools))
	}
	return nil
}
