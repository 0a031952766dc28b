// Class: Gen*(n) with a huge n (issue 15, root cause 5).
// Was: a panic, hours of allocation or a fatal out of memory. Now: OUT_OF_MEMORY at once.
package main

import (
	"math"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("glamo3365", gles.Config{Width: 32, Height: 32})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.GenBuffers(1 << 40)
	ctx.GenTextures(math.MaxInt)
	ctx.GenTextures(1 << 30)
	ctx.GenBuffers(1<<32 - 1)
}
