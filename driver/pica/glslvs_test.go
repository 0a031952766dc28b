package pica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
)

// glslShader transforms with the ES 1.1 matrices and scales the colour in
// a loop whose count is a uniform.
const glslShader = `
uniform vec4 tint;
uniform int halvings;
void main() {
	gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;
	vec4 c = gl_Color;
	for (int i = 0; i < halvings; i++)
		c = c * 0.5;
	gl_FrontColor = c * tint;
	gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0;
}
`

func TestVertexShaderExtension(t *testing.T) {
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 32, Height: 32})
	require.NoError(t, err)
	defer ctx.Close()
	ext := gles.PicaShaders(ctx)
	id, log := ext.VertexShader(glslShader)
	require.NotZero(t, id, log)
	ext.Use(id)
	ext.Uniform(id, "tint", 1, 0.5, 1, 1)
	ext.Uniform(id, "halvings", 1)
	require.NoError(t, ctx.Err())
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.Scalef(0.5, 0.5, 1)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.Color4f(1, 1, 0, 1)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	img := ctx.Image()
	require.NoError(t, ctx.Err())
	in := pixel(img, 16, 16)
	assert.InDelta(t, 128, int(in[0]), 1, "red halved once %v", in)
	assert.InDelta(t, 64, int(in[1]), 1, "green halved and tinted %v", in)
	assert.Equal(t, uint8(0), in[2])
	assert.Equal(t, [4]uint8{0, 0, 0, 255}, pixel(img, 2, 2), "outside the half-size quad (the model-view reaches the shader)")

	// Two halvings, then zero: the loop's count is read per draw.
	ext.Uniform(id, "halvings", 2)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	assert.InDelta(t, 64, int(pixel(ctx.Image(), 16, 16)[0]), 1)
	ext.Uniform(id, "halvings", 0)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	assert.InDelta(t, 255, int(pixel(ctx.Image(), 16, 16)[0]), 1)
	require.NoError(t, ctx.Err())

	// Back to fixed function.
	ext.Use(0)
	ctx.Color4f(0, 1, 0, 1)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, pixel(ctx.Image(), 16, 16))
	require.NoError(t, ctx.Err())

	// Compile errors come back in the log; uniform errors are GL errors.
	id2, log := ext.VertexShader("attribute vec4 pos; void main() { gl_Position = pos; }")
	assert.Zero(t, id2)
	assert.Contains(t, log, "fixed-function arrays")
	id2, log = ext.VertexShader("void main() { gl_Position = gl_Vertex * gl_LightSource[0].diffuse; }")
	assert.Zero(t, id2)
	assert.Contains(t, log, "gl_LightSource")
	_, log = ext.VertexShader("void main() { gl_Position = vec4(; }")
	assert.Contains(t, log, "error")
	assert.Equal(t, gles.NO_ERROR, ctx.GetError())
	ext.Uniform(id, "nosuch", 1)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError())
	ext.Uniform(id, "tint", 1, 2)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError())
	ext.Uniform(id, "gl_ModelViewMatrix", make([]float32, 16)...)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError())
	_ = ctx.Err()

	other, err := gles.NewContext("pspge", gles.Config{Width: 32, Height: 32})
	require.NoError(t, err)
	defer other.Close()
	id3, _ := gles.PicaShaders(other).VertexShader(glslShader)
	assert.Zero(t, id3)
	assert.Equal(t, gles.INVALID_OPERATION, other.GetError())
}

// TestVertexShaderMatchesFixedFunction draws a textured, rotated quad in
// perspective with the fixed-function pipeline and with a GLSL shader
// doing the same transform: the images agree within float24 rounding.
func TestVertexShaderMatchesFixedFunction(t *testing.T) {
	const vs = `
void main() {
	gl_Position = gl_ProjectionMatrix * (gl_ModelViewMatrix * gl_Vertex);
	gl_FrontColor = gl_Color;
	gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0;
}
`
	draw := func(glsl bool) [][4]uint8 {
		ctx, err := gles.NewContext("pica200", gles.Config{Width: 64, Height: 64})
		require.NoError(t, err)
		defer ctx.Close()
		if glsl {
			ext := gles.PicaShaders(ctx)
			id, log := ext.VertexShader(vs)
			require.NotZero(t, id, log)
			ext.Use(id)
		}
		tex := make([]uint8, 8*8*4)
		for y := 0; y < 8; y++ {
			for x := 0; x < 8; x++ {
				if (x+y)%2 == 0 {
					copy(tex[4*(8*y+x):], []uint8{255, 200, 40, 255})
				} else {
					copy(tex[4*(8*y+x):], []uint8{20, 60, 230, 255})
				}
			}
		}
		ids := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, ids[0])
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 8, 8, 0, gles.RGBA, gles.UNSIGNED_BYTE, tex)
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
		ctx.Enable(gles.TEXTURE_2D)
		ctx.TexEnvf(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, float32(gles.MODULATE))
		ctx.MatrixMode(gles.TEXTURE)
		ctx.Scalef(2, 2, 1)
		ctx.MatrixMode(gles.PROJECTION)
		ctx.Frustumf(-1, 1, -1, 1, 1, 10)
		ctx.MatrixMode(gles.MODELVIEW)
		ctx.Translatef(0, 0, -3)
		ctx.Rotatef(50, 1, 0.3, 0)
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.EnableClientState(gles.COLOR_ARRAY)
		ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0})
		ctx.ColorPointer(4, gles.FLOAT, 0, []float32{1, 1, 1, 1, 1, 0.5, 0.5, 1, 0.5, 1, 0.5, 1, 0.5, 0.5, 1, 1})
		ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 1, 1, 0, 1})
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
		img := ctx.Image()
		require.NoError(t, ctx.Err())
		var px [][4]uint8
		for y := 0; y < 64; y++ {
			for x := 0; x < 64; x++ {
				px = append(px, pixel(img, x, y))
			}
		}
		return px
	}
	ff, gl := draw(false), draw(true)
	lit, off := 0, 0
	for i := range ff {
		if ff[i] != [4]uint8{0, 0, 0, 255} {
			lit++
		}
		for c := 0; c < 4; c++ {
			if d := int(ff[i][c]) - int(gl[i][c]); d > 2 || d < -2 {
				off++
				break
			}
		}
	}
	assert.Greater(t, lit, 300, "the quad covers part of the view")
	assert.LessOrEqual(t, off, 20, "pixels more than 2 off (edges and texel boundaries may move by float24 rounding)")
	t.Logf("%d lit pixels, %d differ by more than 2", lit, off)
}
