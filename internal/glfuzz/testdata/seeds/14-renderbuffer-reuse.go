// Class: r300, a renderbuffer deleted while another framebuffer holds it, its name taken again (issue 15).
// Was: the new renderbuffer got the old storage (a GL error or wrong depth). Now: storage of its own.
package main

import (
	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("r300", gles.Config{Width: 16, Height: 16, ES2: true})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.BindFramebuffer(gles.FRAMEBUFFER, 1)
	ctx.BindRenderbuffer(gles.RENDERBUFFER, 1)
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.RGB565, 8, 8)
	ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.BindFramebuffer(gles.FRAMEBUFFER, 2)
	ctx.DeleteRenderbuffers([]uint32{1}...)
	ctx.BindRenderbuffer(gles.RENDERBUFFER, 1)
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.DEPTH_COMPONENT16, 8, 8)
	ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.DEPTH_ATTACHMENT, gles.RENDERBUFFER, 1)
	ctx.BindRenderbuffer(gles.RENDERBUFFER, 2)
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.RGB565, 8, 8)
	ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, 2)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	ctx.BindFramebuffer(gles.FRAMEBUFFER, 1)
	ctx.ReadPixels(0, 0, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, make([]uint8, 4))
}
