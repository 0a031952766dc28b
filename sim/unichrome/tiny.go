package unichrome

import "github.com/retrogl/retrogl/sim/raster"

// tinyW is the widest clip (pixels) shadeTiny takes: raster.SpansIn's
// scanned rows.
const tinyW = 8

// tiny says whether shadeSpans gives a triangle to shadeTiny: a colour
// written as it is (packCol), with the integer Z16 test and write (zInt)
// or no Z or stencil work, inside a clip at most tinyW pixels wide.
func (w *worker) tiny(p *pipeline, pr *prim, clip raster.Rect) bool {
	if !p.span.packCol || clip.X1-clip.X0 > tinyW {
		return false
	}
	return p.span.zInt && pr.zbias == 0 || !(p.zt || p.zw || p.st)
}

// shadeTiny is shadeSpans for a small triangle that tiny accepts (tiny-
// tris' one-pixel triangles): a span has a few pixels, so the set-up of
// the row stepping (rowStep, packRun) would cost more than it saves.
// Each pixel's values are the reference's own (shadeRef): the attributes
// evaluated at the span's first pixel, then stepped by one float64
// addition a pixel; the colour word is clamp8 of each channel at the
// target's shifts (an absent alpha's shift 32 gives 0, as the span path's
// words do, and the plane mask keeps the x byte), and Z16 is zValue of
// the Z sum, which is the test's and the write's value with no bias.
// plainChunk then does the stipple, the Z test and write and the store,
// as it does for the span path. TestSpanPathMatchesReference and
// TestShapePathsMatchReference draw triangles this small.
func (w *worker) shadeTiny(p *pipeline, pr *prim, clip raster.Rect) {
	sb := &w.sb
	w.constCol, w.zConst = false, false // plainChunk reads every pixel's word and Z
	zInt := p.zt || p.zw
	sh := &p.span.shifts
	gx := &pr.gx
	step := pr.act[:pr.nact]
	cur := pr.a0
	if cap(w.spans) == 0 {
		w.spans = make([]raster.Span, 0, 64)
	}
	for {
		spans := pr.tri.SpansIn(clip, w.spans[:0])
		for si := range spans {
			s := &spans[si]
			pr.attrsAt(&cur, s.X0, s.Y)
			n := s.X1 - s.X0
			for i := 0; i < n; i++ {
				sb.word[i] = uint32(clamp8(cur[atR]))<<sh[0] | uint32(clamp8(cur[atG]))<<sh[1] |
					uint32(clamp8(cur[atB]))<<sh[2] | uint32(clamp8(cur[atA]))<<sh[3]
				if zInt {
					sb.zi[i] = p.depth.zValue(cur[atZ])
				}
				for _, a := range step {
					cur[a] += gx[a]
				}
			}
			w.plainChunk(p, n, s.X0, s.Y, 0)
		}
		if len(spans) < cap(spans) {
			return
		}
		clip.Y0 = spans[len(spans)-1].Y + 1
	}
}
