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
