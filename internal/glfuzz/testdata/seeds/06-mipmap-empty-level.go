// Class: mipmap generation on a texture with zero width or height (issue 15, root cause 2).
// Was: a panic in driver.DecodeTexel on every backend, with legal arguments. Now: no mipmaps.
package main

import (
	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("r300", gles.Config{Width: 32, Height: 32})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.TexParameteri(gles.TEXTURE_2D, gles.GENERATE_MIPMAP, 1)
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGB, 2, 0, 0, gles.RGB, gles.UNSIGNED_SHORT_5_6_5, make([]uint8, 3))
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 4, 0, 0, gles.RGBA, gles.UNSIGNED_SHORT_4_4_4_4, make([]uint8, 3))
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.LUMINANCE, 0, 8, 0, gles.LUMINANCE, gles.UNSIGNED_BYTE, nil)
}
