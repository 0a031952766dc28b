// Class: integer overflow in draw bounds, index count and element buffer offset (issue 15, root cause 1).
// Was: a slice bounds panic in gles.DrawElements. Now: OUT_OF_MEMORY, INVALID_OPERATION.
package main

import (
	"math"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("pspge", gles.Config{Width: 32, Height: 32})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.DrawElements(gles.TRIANGLES, math.MaxInt-3, gles.UNSIGNED_SHORT, make([]uint16, 12))
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 0, 1})
	ctx.BindBuffer(gles.ELEMENT_ARRAY_BUFFER, 1)
	ctx.BufferData(gles.ELEMENT_ARRAY_BUFFER, []uint16{0, 1, 2}, gles.STATIC_DRAW)
	ctx.DrawElements(gles.TRIANGLES, 3, gles.UNSIGNED_SHORT, math.MaxInt-1)
}
