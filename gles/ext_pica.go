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
// Entry points (all record GL errors as ES does):
//
//	id := ctx.PicaShaderBinaryRETRO(shbin)   // 0 and INVALID_VALUE on a bad binary
//	ctx.PicaUseShaderRETRO(id)               // 0 returns to fixed function
//	ctx.PicaUniform4fRETRO(reg, x, y, z, w)  // float uniform c<reg>, 0-95
//
// Backends without the extension record INVALID_OPERATION.

// picaShaderContext is implemented by driver contexts that load SHBIN
// shaders (driver/pica).
type picaShaderContext interface {
	LoadShaderBinary(data []byte) (uint32, error)
	UseShaderBinary(id uint32) error
	SetShaderUniform(reg int, v [4]float32) error
}

func (c *Context) picaExt(fn string) (picaShaderContext, bool) {
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

// PicaShaderBinaryRETRO loads a SHBIN vertex shader and returns its name,
// or 0 (with INVALID_VALUE) when the binary is malformed or does not fit
// the shader unit.
func (c *Context) PicaShaderBinaryRETRO(data []byte) uint32 {
	pc, ok := c.picaExt("PicaShaderBinaryRETRO")
	if !ok {
		return 0
	}
	id, err := pc.LoadShaderBinary(data)
	if err != nil {
		c.record("PicaShaderBinaryRETRO", INVALID_VALUE, "%v", err)
		return 0
	}
	return id
}

// PicaUseShaderRETRO makes a loaded shader the vertex stage of later draws;
// 0 restores the fixed-function pipeline. An unknown name is
// INVALID_VALUE.
func (c *Context) PicaUseShaderRETRO(id uint32) {
	pc, ok := c.picaExt("PicaUseShaderRETRO")
	if !ok {
		return
	}
	if err := pc.UseShaderBinary(id); err != nil {
		c.record("PicaUseShaderRETRO", INVALID_VALUE, "%v", err)
	}
}

// PicaUniform4fRETRO sets float uniform c<reg> (0-95) of custom shaders.
// A register outside 0-95 or a non-finite value is INVALID_VALUE.
func (c *Context) PicaUniform4fRETRO(reg int, x, y, z, w float32) {
	pc, ok := c.picaExt("PicaUniform4fRETRO")
	if !ok {
		return
	}
	for _, v := range []float32{x, y, z, w} {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			c.record("PicaUniform4fRETRO", INVALID_VALUE, "non-finite value (NaN uniforms hang the PICA200)")
			return
		}
	}
	if err := pc.SetShaderUniform(reg, [4]float32{x, y, z, w}); err != nil {
		c.record("PicaUniform4fRETRO", INVALID_VALUE, "%v", err)
	}
}
