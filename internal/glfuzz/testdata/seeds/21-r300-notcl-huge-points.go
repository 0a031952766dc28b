// Found by rglfuzz (seed 7051391, 284 calls, minimised to 5) on a build
// without driver/r300's work estimate: 4393 points of the largest size on
// r300-notcl queued more pixel work in one submission than the R300
// watchdog budget, a device fault (watchdog expired) on legal calls. The
// driver now splits such draws into submissions under a quarter of the
// budget (driver/r300/work.go).
package main

import (
	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func main() {
	ctx, err := gles.NewContext("r300-notcl", gles.Config{})
	if err != nil {
		panic(err)
	}
	defer ctx.Close()
	ctx.PointSize(3.4028235e+38)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.SHORT, 1, make([]int16, 5000))
	ctx.DrawArrays(gles.POINTS, 0, 4393)
	ctx.Image()
}
