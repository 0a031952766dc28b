// Class: integer overflow in draw bounds, maxIndex*stride (issue 15, root cause 1).
// Was: a panic in driver.(*Attrib).Fetch. Now: INVALID_OPERATION.
package main

import (
	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("pspge", gles.Config{Width: 32, Height: 32})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.BindBuffer(gles.ARRAY_BUFFER, 1)
	ctx.BufferData(gles.ARRAY_BUFFER, []int8{0}, gles.DYNAMIC_DRAW)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.BYTE, 5168505175039795616, 1)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 1, 3)
}
