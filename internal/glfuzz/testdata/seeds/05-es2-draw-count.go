// Class: integer overflow in draw bounds on an ES 2.0 context with no arrays (issue 15, root cause 1).
// Was: a makeslice panic in the r300 driver's vertex shader loop. Now: OUT_OF_MEMORY.
package main

import (
	"math"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("r300", gles.Config{Width: 32, Height: 32, ES2: true})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.CreateShader(gles.VERTEX_SHADER)
	ctx.ShaderSource(1, []string{"attribute vec4 pos; uniform mat4 m; varying vec2 tc; void main() { tc = pos.xy; gl_Position = m * pos; }"}...)
	ctx.CompileShader(1)
	ctx.CreateShader(gles.FRAGMENT_SHADER)
	ctx.ShaderSource(2, []string{"precision mediump float; varying vec2 tc; uniform sampler2D s; void main() { gl_FragColor = texture2D(s, tc); }"}...)
	ctx.CompileShader(2)
	ctx.CreateProgram()
	ctx.AttachShader(3, 1)
	ctx.AttachShader(3, 2)
	ctx.LinkProgram(3)
	ctx.UseProgram(3)
	ctx.DrawArrays(gles.LINES, 0, math.MaxInt)
	ctx.VertexAttribPointer(0, 4, gles.FLOAT, false, math.MaxInt/2, []float32{0, 0, 0, 1})
	ctx.EnableVertexAttribArray(0)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
}
