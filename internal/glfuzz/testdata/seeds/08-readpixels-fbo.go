// Class: ReadPixels outside a framebuffer object smaller than the window (issue 15, root cause 3).
// Was: a slice panic (the read was clipped to the window, not the framebuffer). Now: clipped to the framebuffer.
package main

import (
	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("r300", gles.Config{Width: 32, Height: 32, ES2: true})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.BindFramebuffer(gles.FRAMEBUFFER, 1)
	ctx.BindRenderbuffer(gles.RENDERBUFFER, 1)
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.RGB565, 8, 8)
	ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.ReadPixels(4, 4, 16, 16, gles.RGBA, gles.UNSIGNED_BYTE, make([]uint8, 1024))
	ctx.CopyTexImage2D(gles.TEXTURE_2D, 0, gles.RGB, 4, 4, 16, 16, 0)
}
