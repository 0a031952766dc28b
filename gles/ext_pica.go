package gles

import "math"

// GL_RETRO_pica_shader_binary: PICA200 vertex shaders in the 3DS homebrew
// SHBIN format (as picasso and cmd/picasm produce) replace the generated
// fixed-function vertex shader on the pica200 backend. Vertex inputs are
// the fixed-function arrays: v0 position, v1 colour, v2 normal, v3-v5
// texture coordinates of units 0-2 (current values where an array is
// disabled). Output registers and their semantics come from the SHBIN's
// DVLE output table; constants from its constant table. The fragment
// stages (texture environment, fog, tests, blending) stay fixed-function.
//
// The entry points hang off a PicaShaders value rather than Context, so
// that the API surface that traces record (package trace) is unchanged:
//
//	ext := gles.PicaShaders(ctx)
//	id := ext.ShaderBinary(shbin)     // 0 and INVALID_VALUE on a bad binary
//	ext.Use(id)                       // 0 returns to fixed function
//	ext.Uniform4f(reg, x, y, z, w)    // float uniform c<reg>, 0-95
//
// All record GL errors on ctx as ES does; backends without the extension
// record INVALID_OPERATION.
type PicaShaderExt struct{ c *Context }

// PicaShaders returns the GL_RETRO_pica_shader_binary entry points of ctx.
func PicaShaders(ctx *Context) *PicaShaderExt { return &PicaShaderExt{ctx} }

// picaShaderContext is implemented by driver contexts that load SHBIN
// shaders (driver/pica).
type picaShaderContext interface {
	LoadShaderBinary(data []byte) (uint32, error)
	UseShaderBinary(id uint32) error
	SetShaderUniform(reg int, v [4]float32) error
}

func (e *PicaShaderExt) ext(fn string) (picaShaderContext, bool) {
	c := e.c
	if !c.alive(fn) {
		return nil, false
	}
	pc, ok := c.dc.(picaShaderContext)
	if !ok || !c.caps.HasExtension("GL_RETRO_pica_shader_binary") {
		c.record(fn, INVALID_OPERATION, "GL_RETRO_pica_shader_binary is not supported by %s", c.caps.Name)
		return nil, false
	}
	return pc, true
}

// ShaderBinary loads a SHBIN vertex shader and returns its name, or 0
// (with INVALID_VALUE) when the binary is malformed or does not fit the
// shader unit.
func (e *PicaShaderExt) ShaderBinary(data []byte) uint32 {
	const fn = "PicaShaderBinaryRETRO"
	pc, ok := e.ext(fn)
	if !ok {
		return 0
	}
	id, err := pc.LoadShaderBinary(data)
	if err != nil {
		e.c.record(fn, INVALID_VALUE, "%v", err)
		return 0
	}
	return id
}

// Use makes a loaded shader the vertex stage of later draws; 0 restores the
// fixed-function pipeline. An unknown name is INVALID_VALUE.
func (e *PicaShaderExt) Use(id uint32) {
	const fn = "PicaUseShaderRETRO"
	pc, ok := e.ext(fn)
	if !ok {
		return
	}
	if err := pc.UseShaderBinary(id); err != nil {
		e.c.record(fn, INVALID_VALUE, "%v", err)
	}
}

// Uniform4f sets float uniform c<reg> (0-95) of custom shaders. A register
// outside 0-95 or a non-finite value is INVALID_VALUE.
func (e *PicaShaderExt) Uniform4f(reg int, x, y, z, w float32) {
	const fn = "PicaUniform4fRETRO"
	pc, ok := e.ext(fn)
	if !ok {
		return
	}
	for _, v := range []float32{x, y, z, w} {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			e.c.record(fn, INVALID_VALUE, "non-finite value (NaN uniforms hang the PICA200)")
			return
		}
	}
	if err := pc.SetShaderUniform(reg, [4]float32{x, y, z, w}); err != nil {
		e.c.record(fn, INVALID_VALUE, "%v", err)
	}
}

// GL_RETRO_pica_vertex_shader: GLSL vertex shaders for the pica200
// backend's shader unit, compiled by compiler/pica (driver/pica
// glslvs.go has the language: desktop GLSL 1.10 with the fixed-function
// arrays as gl_Vertex, gl_Color, gl_Normal and gl_MultiTexCoord0-2, the
// ES 1.1 matrices as gl_ModelViewMatrix and friends, outputs gl_Position,
// gl_FrontColor and gl_TexCoord[0-2] for the fixed-function combiners).
// The shaders share names with SHBIN ones and are selected with Use:
//
//	ext := gles.PicaShaders(ctx)
//	id, log := ext.VertexShader(src)      // 0 and the info log on failure
//	ext.Use(id)
//	ext.Uniform(id, "scale", 0.5)          // by name; matrices column-major
//
// A shader that does not compile is not a GL error (as glCompileShader);
// Uniform records INVALID_OPERATION for an unknown shader, an unknown or
// built-in uniform or a wrong number of values.

// picaGLSLContext is implemented by driver contexts that compile GLSL
// vertex shaders (driver/pica).
type picaGLSLContext interface {
	CompileVertexShader(src string) (uint32, string, error)
	SetVertexShaderUniform(id uint32, name string, v []float32) error
}

func (e *PicaShaderExt) glslExt(fn string) (picaGLSLContext, bool) {
	c := e.c
	if !c.alive(fn) {
		return nil, false
	}
	pc, ok := c.dc.(picaGLSLContext)
	if !ok || !c.caps.HasExtension("GL_RETRO_pica_vertex_shader") {
		c.record(fn, INVALID_OPERATION, "GL_RETRO_pica_vertex_shader is not supported by %s", c.caps.Name)
		return nil, false
	}
	return pc, true
}

// VertexShader compiles a GLSL vertex shader for the shader unit and
// returns its name and info log; the name is 0 when it does not compile.
func (e *PicaShaderExt) VertexShader(src string) (uint32, string) {
	const fn = "PicaVertexShaderRETRO"
	pc, ok := e.glslExt(fn)
	if !ok {
		return 0, ""
	}
	id, log, err := pc.CompileVertexShader(src)
	if err != nil {
		return 0, log
	}
	return id, log
}

// Uniform sets uniform name of GLSL vertex shader id.
func (e *PicaShaderExt) Uniform(id uint32, name string, v ...float32) {
	const fn = "PicaUniformRETRO"
	pc, ok := e.glslExt(fn)
	if !ok {
		return
	}
	if err := pc.SetVertexShaderUniform(id, name, v); err != nil {
		e.c.record(fn, INVALID_OPERATION, "%v", err)
	}
}
