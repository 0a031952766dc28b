// Class: CompressedTexImage2D with a very negative level (issue 15, root cause 6).
// Was: a negative shift panic. Now: INVALID_VALUE.
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
	ctx.CompressedTexImage2D(gles.TEXTURE_2D, math.MinInt, gles.PALETTE4_RGB8_OES, 4, 4, 0, make([]uint8, 56))
	ctx.CompressedTexImage2D(gles.TEXTURE_2D, math.MinInt+1, gles.PALETTE8_RGBA8_OES, 4, 4, 0, make([]uint8, 1040))
}
