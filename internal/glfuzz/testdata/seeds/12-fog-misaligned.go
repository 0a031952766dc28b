// Class: a simulator panic reached through a legal glamo3365 draw with fog and a misaligned vertex stride (issue 15, root cause 7).
// Was: a device fault, "internal simulator error". Now: the draw renders.
package main

import (
	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("glamo3365", gles.Config{Width: 32, Height: 32, DepthBits: 16})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.Enable(gles.FOG)
	ctx.Fogf(gles.FOG_MODE, 2049.0)
	ctx.BindBuffer(gles.ARRAY_BUFFER, 1)
	ctx.BufferData(gles.ARRAY_BUFFER, seq8(4096, 251), gles.STATIC_DRAW)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 6, 0)
	ctx.DrawArrays(gles.TRIANGLES, 0, 6)
	ctx.VertexPointer(3, gles.FLOAT, 7, 1)
	ctx.DrawArrays(gles.TRIANGLES, 0, 6)
	ctx.Finish()
}

// seq8 returns n indices counting 0..m-1 and again.
func seq8(n, m int) []uint8 {
	s := make([]uint8, n)
	for i := range s {
		s[i] = uint8(i % m)
	}
	return s
}
