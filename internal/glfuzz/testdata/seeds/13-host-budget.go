// Class: host memory without a bound (issue 15): 2.5 GB of buffer objects on pspge gave no error; a PSP has 32 MB.
// Now: OUT_OF_MEMORY past the context's budget (34 MiB on pspge), the store unchanged.
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
	ctx.BufferData(gles.ARRAY_BUFFER, 30<<20, gles.STATIC_DRAW)
	ctx.BindBuffer(gles.ARRAY_BUFFER, 2)
	ctx.BufferData(gles.ARRAY_BUFFER, 30<<20, gles.STATIC_DRAW)
	ctx.BindBuffer(gles.ARRAY_BUFFER, 3)
	ctx.BufferData(gles.ARRAY_BUFFER, 2500<<20, gles.STATIC_DRAW)
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 512, 512, 0, gles.RGBA, gles.UNSIGNED_BYTE, nil)
	ctx.ShaderSource(1, []string{"x"}...)
}
