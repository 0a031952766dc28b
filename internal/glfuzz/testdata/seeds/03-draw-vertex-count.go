// Class: integer overflow in draw bounds, vertex count times size (issue 15, root cause 1).
// Was: makeslice panics in the pica200 driver's vertex packing. Now: OUT_OF_MEMORY.
package main

import (
	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 32, Height: 32})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.FIXED, 0, 0)
	ctx.DrawArrays(gles.LINE_LOOP, 0, 3777634947589600487)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 1, 4611686018427387903)
}
