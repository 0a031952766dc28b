package scenes

import (
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// Triangle is a Gouraud-shaded triangle over a cleared background, crossed
// by a second triangle that slopes through it in depth: the depth test hides
// the part of each that lies behind the other.
func Triangle() Scene {
	return Scene{
		Name:   "triangle",
		Config: gles.Config{Width: 320, Height: 240, DepthBits: 16},
		Draw: func(ctx trace.GL) error {
			ctx.Viewport(0, 0, 320, 240)
			ctx.ClearColor(0.1, 0.1, 0.25, 1)
			ctx.ClearDepthf(1)
			ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
			ctx.Enable(gles.DEPTH_TEST)
			ctx.DepthFunc(gles.LESS)
			ctx.MatrixMode(gles.PROJECTION)
			ctx.LoadIdentity()
			ctx.MatrixMode(gles.MODELVIEW)
			ctx.LoadIdentity()

			// The Gouraud triangle, flat at z = 0.
			pos := []float32{
				-0.8, -0.7, 0,
				0.8, -0.7, 0,
				0, 0.8, 0,
			}
			col := []float32{
				1, 0, 0, 1,
				0, 1, 0, 1,
				0, 0, 1, 1,
			}
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.EnableClientState(gles.COLOR_ARRAY)
			ctx.VertexPointer(3, gles.FLOAT, 0, pos)
			ctx.ColorPointer(4, gles.FLOAT, 0, col)
			ctx.DrawArrays(gles.TRIANGLES, 0, 3)

			// The crossing triangle: its left end lies in front (z < 0),
			// its right end behind (z > 0). Drawn from a buffer object
			// with 16-bit indices and a constant colour.
			cross := []float32{
				-0.9, 0.1, -0.5,
				0.9, 0.3, 0.5,
				0.9, -0.2, 0.5,
				-0.9, -0.4, -0.5,
			}
			bufs := ctx.GenBuffers(1)
			ctx.BindBuffer(gles.ARRAY_BUFFER, bufs[0])
			ctx.BufferData(gles.ARRAY_BUFFER, cross, gles.STATIC_DRAW)
			ctx.VertexPointer(3, gles.FLOAT, 0, 0)
			ctx.BindBuffer(gles.ARRAY_BUFFER, 0)
			ctx.DisableClientState(gles.COLOR_ARRAY)
			ctx.Color4f(1, 0.8, 0.1, 1)
			ctx.DrawElements(gles.TRIANGLES, 6, gles.UNSIGNED_SHORT, []uint16{0, 1, 2, 0, 2, 3})
			ctx.DeleteBuffers(bufs...)
			ctx.Finish()
			return ctx.Err()
		},
	}
}
