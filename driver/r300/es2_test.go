package r300_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func es2Program(t testing.TB, ctx *gles.Context, vs, fs string) (uint32, string) {
	t.Helper()
	p := ctx.CreateProgram()
	for _, s := range []struct {
		typ gles.Enum
		src string
	}{{gles.VERTEX_SHADER, vs}, {gles.FRAGMENT_SHADER, fs}} {
		sh := ctx.CreateShader(s.typ)
		ctx.ShaderSource(sh, s.src)
		ctx.CompileShader(sh)
		require.Equal(t, 1, ctx.GetShaderiv(sh, gles.COMPILE_STATUS), ctx.GetShaderInfoLog(sh))
		ctx.AttachShader(p, sh)
	}
	ctx.LinkProgram(p)
	return p, ctx.GetProgramInfoLog(p)
}

const es2VS = "attribute vec4 pos;\nvarying vec4 c;\nvoid main() { gl_Position = pos; c = pos * 0.5 + 0.5; }\n"

func TestES2Draw(t *testing.T) {
	ctx, err := gles.NewContext("r300", gles.Config{Width: 32, Height: 32, ES2: true})
	require.NoError(t, err)
	defer ctx.Close()
	assert.Equal(t, "OpenGL ES 2.0 retrogl r300", ctx.GetString(gles.VERSION))
	assert.Equal(t, []int{16}, ctx.GetIntegerv(gles.MAX_VERTEX_ATTRIBS))
	p, log := es2Program(t, ctx, es2VS, "precision mediump float;\nvarying vec4 c;\nuniform float k;\nvoid main() { gl_FragColor = vec4(c.x, k, 0.0, 1.0); }\n")
	require.Equal(t, 1, ctx.GetProgramiv(p, gles.LINK_STATUS), log)
	ctx.UseProgram(p)
	ctx.Uniform1f(ctx.GetUniformLocation(p, "k"), 0.5)
	loc := ctx.GetAttribLocation(p, "pos")
	ctx.VertexAttribPointer(loc, 2, gles.FLOAT, false, 0, []float32{-1, -1, 1, -1, -1, 1, 1, 1})
	ctx.EnableVertexAttribArray(loc)
	ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
	require.NoError(t, ctx.Err())
	px := make([]byte, 4)
	ctx.ReadPixels(24, 8, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, px)
	// x at pixel 24.5 of 32: c.x = 24.5/32.
	assert.InDelta(t, 24.5/32*255, float64(px[0]), 1)
	assert.Equal(t, []byte{128, 0, 255}, px[1:])
}

func TestES2LinkLimits(t *testing.T) {
	ctx, err := gles.NewContext("r300", gles.Config{Width: 8, Height: 8, ES2: true})
	require.NoError(t, err)
	defer ctx.Close()
	p, log := es2Program(t, ctx, es2VS, "precision mediump float;\nvarying vec4 c;\nvoid main() {\n vec4 a = c;\n for (int i = 0; i < 30; i++) a = sin(a) * a.yzwx + c;\n gl_FragColor = a;\n}\n")
	assert.Equal(t, 0, ctx.GetProgramiv(p, gles.LINK_STATUS))
	assert.Contains(t, log, "ALU instructions, the limit is 64")
	p, log = es2Program(t, ctx, es2VS, "precision mediump float;\nuniform int n;\nvoid main() {\n float s = 0.0;\n for (int i = 0; i < n; i++) s += 0.1;\n gl_FragColor = vec4(s);\n}\n")
	assert.Equal(t, 0, ctx.GetProgramiv(p, gles.LINK_STATUS))
	assert.Equal(t, "0:5(2): error: fragment shader: for loop: the condition is not a compile-time constant in iteration 1 (the target has no branches; loops are unrolled)\n", log)
}
