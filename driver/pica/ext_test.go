package pica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal/pica/picasso"
)

// A homebrew-style shader: position scaled by a uniform, colour from a
// constant.
const extShader = `
.fvec scale
.constf red(1.0, 0.0, 0.0, 1.0)
.out outpos position
.out outclr color
.proc main
    mul outpos.xy, scale, v0
    mov outpos.zw, v0
    mov outclr, red
    end
.end
`

func TestShaderBinaryExtension(t *testing.T) {
	sb, err := picasso.Assemble(extShader)
	require.NoError(t, err)
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 32, Height: 32})
	require.NoError(t, err)
	defer ctx.Close()
	ext := gles.PicaShaders(ctx)
	id := ext.ShaderBinary(sb.Bytes())
	require.NotZero(t, id)
	ext.Use(id)
	ext.Uniform4f(0, 0.5, 0.5, 1, 1)
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	img := ctx.Image()
	require.NoError(t, ctx.Err())
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, pixel(img, 16, 16), "inside the half-size quad")
	assert.Equal(t, [4]uint8{0, 0, 0, 255}, pixel(img, 2, 2), "outside it")
	// Back to fixed function.
	ext.Use(0)
	ctx.Color4f(0, 1, 0, 1)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	img = ctx.Image()
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, pixel(img, 2, 2))
	require.NoError(t, ctx.Err())

	// Errors are GL errors.
	assert.Zero(t, ext.ShaderBinary([]byte("not a shader")))
	assert.Equal(t, gles.INVALID_VALUE, ctx.GetError())
	ext.Use(99)
	assert.Equal(t, gles.INVALID_VALUE, ctx.GetError())
	ext.Uniform4f(96, 0, 0, 0, 0)
	assert.Equal(t, gles.INVALID_VALUE, ctx.GetError())
	_ = ctx.Err()

	other, err := gles.NewContext("pspge", gles.Config{Width: 32, Height: 32})
	require.NoError(t, err)
	defer other.Close()
	assert.Zero(t, gles.PicaShaders(other).ShaderBinary(sb.Bytes()))
	assert.Equal(t, gles.INVALID_OPERATION, other.GetError())
}
