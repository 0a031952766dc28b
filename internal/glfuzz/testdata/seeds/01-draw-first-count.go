// Class: integer overflow in draw bounds, first+count (issue 15, root cause 1).
// Was: a slice index panic in the driver. Now: INVALID_VALUE.
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
	ctx.DrawArrays(gles.LINES, math.MaxInt-1, 2)
}
