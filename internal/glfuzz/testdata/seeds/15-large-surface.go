// Class: r300, legal draws on a very large surface (issue 15).
// Was: "watchdog expired". Now: drawn (the R300's budget matches its finer unit of pixel work).
package main

import (
	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("r300", gles.Config{Width: 2048, Height: 2048})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1.0, -1.0, 1.0, 1.0, 1.0, 0.998})
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	ctx.Finish()
}
