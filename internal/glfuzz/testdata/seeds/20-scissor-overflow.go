// Found by rglfuzz (seed 5002295, 342 calls, minimised to 13): a scissor
// box near math.MaxInt wrapped y+height in glamo3365's driver, and the
// engine wrote pixels over the command buffer after the colour buffer
// (a device fault). Scissor and Viewport now clamp to GLint's 32 bits.
package main

import (
	"math"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("glamo3365", gles.Config{})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.Scissor(0, math.MaxInt-1, 128, 16)
	ctx.Enable(gles.SCISSOR_TEST)
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, 0)
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.LUMINANCE_ALPHA, 1, 1, 0, gles.LUMINANCE_ALPHA, gles.UNSIGNED_BYTE, seq8(2049, 3))
	ctx.Enable(gles.TEXTURE_2D)
	ctx.BindBuffer(gles.ARRAY_BUFFER, 1)
	ctx.BufferData(gles.ARRAY_BUFFER, make([]int16, 16), gles.DYNAMIC_DRAW)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.SHORT, 0, 0)
	ctx.DrawArrays(gles.LINES, 0, 1)
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 1, 1, 0, gles.RGBA, gles.UNSIGNED_SHORT_4_4_4_4, seq8(9, 1000))
	ctx.DrawTexiOES(0, -16, 1, 2048, 16)
	ctx.ReadPixels(0, 0, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, seq8(8388608, 255))
}

// seq8 returns n indices counting 0..m-1 and again.
func seq8(n, m int) []uint8 {
	s := make([]uint8, n)
	for i := range s {
		s[i] = uint8(i % m)
	}
	return s
}
