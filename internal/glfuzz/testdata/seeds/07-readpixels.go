// Class: ReadPixels size arithmetic (issue 15, root cause 3).
// Was: overflowing sizes and a slice panic. Now: INVALID_VALUE, or nothing read outside the surface.
package main

import (
	"math"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 32, Height: 32})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.ReadPixels(0, 0, math.MaxInt/2, 3, gles.RGBA, gles.UNSIGNED_BYTE, make([]uint8, 64))
	ctx.ReadPixels(math.MaxInt-1, math.MaxInt-1, 4, 4, gles.RGBA, gles.UNSIGNED_BYTE, make([]uint8, 64))
	ctx.ReadPixels(-5, math.MinInt, 4, 4, gles.RGBA, gles.UNSIGNED_BYTE, make([]uint8, 64))
}
