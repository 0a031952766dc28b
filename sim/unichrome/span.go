package unichrome

import "github.com/retrogl/retrogl/sim/raster"

type spanPlan struct{}

func (p *pipeline) plan() {}

func (w *worker) shadeSpans(p *pipeline, pr *prim, clip raster.Rect) {
	w.shadeRef(p, pr, clip)
}
