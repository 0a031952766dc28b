package pica

import "github.com/retrogl/retrogl/sim/raster"

type spanBuf struct{}

func flatColor(pr *prim) (bool, [4]uint8) { return false, [4]uint8{} }

func (g *GPU) shadeSpans(ps *pixelState, wk *worker, pr *prim, clip raster.Rect) {
	g.shadeRef(ps, wk, pr, clip)
}
