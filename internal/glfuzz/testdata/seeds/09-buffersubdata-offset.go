// Class: BufferSubData with an offset near math.MaxInt (issue 15, root cause 4).
// Was: offset+size wrapped and the copy panicked. Now: INVALID_VALUE.
package main

import (
	"math"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("unichrome", gles.Config{Width: 32, Height: 32})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.BindBuffer(gles.ARRAY_BUFFER, 1)
	ctx.BufferData(gles.ARRAY_BUFFER, 16, gles.STATIC_DRAW)
	ctx.BufferSubData(gles.ARRAY_BUFFER, math.MaxInt-2, []uint8{1, 2, 3, 4})
}
