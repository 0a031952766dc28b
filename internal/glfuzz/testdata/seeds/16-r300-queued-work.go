// Class: r300, legal draws queuing more pixel work into one submission than
// the simulated device's watchdog budget (issue 15).
// Found by `rglfuzz -duration 15m -seed 3000000` (program seed 3004238, 234
// calls, thousands of points of size 1000 and other draws queued before a
// ReadPixels, minutes of shading with texturing, lighting and point sprites)
// and cut to its class: 4000 points of size 1000, each one's bounding box
// the whole window, queued before ReadPixels flushes.
// Was: "watchdog expired" at ReadPixels (every draw since the last flush
// went in one submission). Now: drawn (driver/r300 estimates the work it
// queues and flushes, or splits a draw into submissions of whole
// primitives, before a submission passes a quarter of the budget).
package main

import (
	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("r300", gles.Config{DepthBits: 16, StencilBits: 4})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, make([]float32, 8000))
	ctx.PointSize(1000.0)
	ctx.DrawArrays(gles.POINTS, 0, 4000)
	ctx.ReadPixels(0, 0, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, make([]uint8, 4))
}
