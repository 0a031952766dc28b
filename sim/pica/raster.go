package pica

import (
	"math"

	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/sim/raster"
)

// Rasterisation decisions (the seed has no rasterisation rules; guide
// §6.12):
//   - Clipping happens in clip space against -w <= x, y <= w, -w <= z <= 0
//     ([OUT] citra's clipper; z = 0 is the near plane), w >= 2^-16, and
//     the user clip plane when FRAGOP_CLIP is set (dot(plane, pos) >= 0).
//   - Window x = x/w * VIEWPORT_WIDTH + VIEWPORT_WIDTH + VIEWPORT_XY.x, and
//     the same for y; window y grows upwards, and window row y is memory
//     row H-1-y of the render target (guide §4).
//   - Depth = z/w * DEPTHMAP_SCALE + DEPTHMAP_OFFSET (Z buffer) or
//     w * SCALE + OFFSET (DEPTHMAP_ENABLE = 0, W buffer), clamped to
//     [0, 1], interpolated linearly in screen space, and stored truncated
//     as depth * (2^bits - 1).
//   - Positions snap to 1/16 pixel (round to nearest, [OUT] citra's 12.4
//     rasteriser coordinates); coverage is sim/raster's rule: pixel centres,
//     top-left rule as the image is seen (top = higher window y).
//   - FACECULLING_CONFIG 1 drops triangles that run counter-clockwise in
//     window space (y up), 2 drops clockwise ones.
//   - Colours and texture coordinates are interpolated perspective-correctly
//     in float64 from the exact integer barycentric weights; colours round
//     to 8 bits.
//
// Scheduling: set-up triangles wait in a batch (prim) until a register
// write other than immediate-mode vertex data, or the end of the buffer,
// and are then shaded by sim/raster's Scheduler in row bands (span.go for
// the fast path, shadeRef for the reference).

const subBits = 4

// planes are the clip planes as coefficients of (x, y, z, w).
var clipPlanes = [][4]float64{
	{-1, 0, 0, 1}, // x <= w
	{1, 0, 0, 1},  // x >= -w
	{0, -1, 0, 1}, // y <= w
	{0, 1, 0, 1},  // y >= -w
	{0, 0, -1, 0}, // z <= 0
	{0, 0, 1, 1},  // z >= -w
}

func lerpVertex(a, b *vertex, t float64) vertex {
	l := func(x, y float32) float32 { return float32(float64(x) + float64(float64(y)-float64(x))*t) }
	var r vertex
	for i := 0; i < 4; i++ {
		r.pos[i] = l(a.pos[i], b.pos[i])
		r.color[i] = l(a.color[i], b.color[i])
		r.quat[i] = l(a.quat[i], b.quat[i])
	}
	for i := 0; i < 2; i++ {
		r.tc0[i] = l(a.tc0[i], b.tc0[i])
		r.tc1[i] = l(a.tc1[i], b.tc1[i])
		r.tc2[i] = l(a.tc2[i], b.tc2[i])
	}
	for i := 0; i < 3; i++ {
		r.view[i] = l(a.view[i], b.view[i])
	}
	r.tc0w = l(a.tc0w, b.tc0w)
	return r
}

func planeDist(pl [4]float64, v *vertex) float64 {
	return float64(pl[0]*float64(v.pos[0])) + float64(pl[1]*float64(v.pos[1])) +
		float64(pl[2]*float64(v.pos[2])) + float64(pl[3]*float64(v.pos[3]))
}

// clipPoly clips a polygon against one plane (Sutherland-Hodgman).
func clipPoly(in []vertex, pl [4]float64, bias float64, out []vertex) []vertex {
	out = out[:0]
	for i := range in {
		a, b := &in[i], &in[(i+1)%len(in)]
		da, db := planeDist(pl, a)-bias, planeDist(pl, b)-bias
		if da >= 0 {
			out = append(out, *a)
		}
		if (da >= 0) != (db >= 0) {
			out = append(out, lerpVertex(a, b, da/(da-db)))
		}
	}
	return out
}

// rasterize clips, culls and sets up a list of triangles into the batch.
func (g *GPU) rasterize(tris []vertex) error {
	if len(tris) == 0 {
		return nil
	}
	ps, err := g.pixelState()
	if err != nil {
		return err
	}
	if g.batch.ps != ps {
		g.flush()
		g.batch.ps = ps
	}
	planes := clipPlanes
	std := g.regs[p.FRAGOP_CLIP]&1 == 0
	if !std {
		var pl [4]float64
		for i := 0; i < 4; i++ {
			pl[i] = float64(p.F24ToFloat(g.regs[p.FRAGOP_CLIP_DATA0+p.Reg(i)]))
		}
		planes = append(append([][4]float64(nil), clipPlanes...), pl)
	}
	bufA, bufB := g.clipA[:0], g.clipB[:0]
	defer func() { g.clipA, g.clipB = bufA, bufB }()
	for t := 0; t+2 < len(tris); t += 3 {
		if err := g.x.Step(1); err != nil {
			return err
		}
		a, b, c := &tris[t], &tris[t+1], &tris[t+2]
		clip := false
		if std {
			clip = needsClipStd(a, b, c)
		} else {
			clip = needsClip(planes, a, b, c)
		}
		if !clip {
			if err := g.triangle(ps, a, b, c); err != nil {
				return err
			}
			continue
		}
		poly := append(bufA[:0], *a, *b, *c)
		for _, pl := range planes {
			bufB = clipPoly(poly, pl, 0, bufB)
			poly, bufB = bufB, poly
			if len(poly) < 3 {
				break
			}
		}
		if len(poly) >= 3 {
			bufB = clipPoly(poly, [4]float64{0, 0, 0, 1}, 1.0/65536, bufB)
			poly, bufB = bufB, poly
		}
		bufA = poly
		for i := 1; i+1 < len(poly); i++ {
			if err := g.triangle(ps, &poly[0], &poly[i], &poly[i+1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// needsClip reports whether a triangle reaches outside a clip plane or
// below w = 2^-16.
func needsClip(planes [][4]float64, a, b, c *vertex) bool {
	for _, v := range [3]*vertex{a, b, c} {
		for _, pl := range planes {
			if planeDist(pl, v) < 0 {
				return true
			}
		}
		if float64(v.pos[3]) < 1.0/65536 {
			return true
		}
	}
	return false
}

// needsClipStd is needsClip for clipPlanes alone: with finite
// coordinates each plane's distance is one sum (the zero terms of
// planeDist add nothing but the sign of a zero, which < 0 does not see,
// and the negations are exact), so w-x, x+w, w-y, y+w, -z and z+w are
// tested directly; a vertex with an infinite or NaN coordinate takes
// needsClip.
func needsClipStd(a, b, c *vertex) bool {
	for _, v := range [3]*vertex{a, b, c} {
		x, y, z, w := float64(v.pos[0]), float64(v.pos[1]), float64(v.pos[2]), float64(v.pos[3])
		if !(x-x == 0 && y-y == 0 && z-z == 0 && w-w == 0) {
			return needsClip(clipPlanes, a, b, c)
		}
		if w-x < 0 || x+w < 0 || w-y < 0 || y+w < 0 || z > 0 || z+w < 0 || w < 1.0/65536 {
			return true
		}
	}
	return false
}

// winVert is a vertex in window space.
type winVert struct {
	x, y, z, invW float64
	pt            raster.Point
}

func toWindow(ps *pixelState, v *vertex) winVert {
	w := float64(v.pos[3])
	inv := 1 / w
	x := float64(v.pos[0])*inv*ps.halfW + ps.halfW + ps.offX
	y := float64(v.pos[1])*inv*ps.halfH + ps.halfH + ps.offY
	var z float64
	if ps.zBuffer {
		z = float64(float64(v.pos[2])*inv)*ps.depthScale + ps.depthOffset
	} else {
		z = w*ps.depthScale + ps.depthOffset
	}
	// Raster points are y-down with row 0 = memory row 0 = window row H-1.
	pt := raster.Point{X: int64(math.Round(x * 16)), Y: int64(math.Round((float64(ps.height) - y) * 16))}
	return winVert{x: x, y: y, z: z, invW: inv, pt: pt}
}

// prim is a set-up triangle waiting in the batch.
type prim struct {
	tri    raster.Triangle
	bounds raster.Rect // the pixels it may cover: the target, the scissor box
	area   float64
	v      [3]shadeVert
	grad   [3]texGrad
	// flat has bit k set when every covered pixel gets channel k of color
	// as its primary colour (flatColor); flatZ is set when every pixel gets
	// depth (flatDepth).
	flat  uint8
	flatZ bool
	color [4]uint8
	depth float64
	// affine is set when the three 1/w are equal and every value is
	// finite: the stepper may interpolate it.
	affine bool
}

// shadeVert is what a pixel reads of a vertex.
type shadeVert struct {
	z, invW float64
	color   [4]float32
	tc      [3][2]float32
	tc0w    float32 // texcoord0.w, read by a projection texture (unit 0)
}

// texGrad holds the screen-space gradients of s/w, t/w (in texels) and
// 1/w of one texture unit over one triangle, for the per-pixel LOD.
type texGrad struct{ gsw, gtw, gq [2]float64 }

// triangle sets up one triangle and adds it to the batch.
func (g *GPU) triangle(ps *pixelState, a, b, c *vertex) error {
	va, vb, vc := toWindow(ps, a), toWindow(ps, b), toWindow(ps, c)
	tri, ok := raster.Setup(va.pt, vb.pt, vc.pt, subBits)
	if !ok {
		return nil
	}
	// The raster grid is y-down and the window y-up, but both show the
	// same image: sim/raster's CW (clockwise as seen) is clockwise in
	// window space too.
	ccw := !tri.CW
	switch ps.cull {
	case 1:
		if ccw {
			return nil
		}
	case 2:
		if !ccw {
			return nil
		}
	}
	g.Triangles++
	bounds := tri.Bounds()
	// The watchdog charges one step per 64 pixels of the clipped bounds.
	if r := bounds.Intersect(ps.target); !r.Empty() {
		if err := g.x.Step((r.X1 - r.X0) * (r.Y1 - r.Y0) / 64); err != nil {
			return err
		}
	}
	bounds = bounds.Intersect(ps.clip)
	if bounds.Empty() {
		return nil
	}
	g.batch.prims = append(g.batch.prims, prim{tri: tri, bounds: bounds, area: float64(tri.Area)})
	pr := &g.batch.prims[len(g.batch.prims)-1]
	ws := [3]*winVert{&va, &vb, &vc}
	for i, v := range [3]*vertex{a, b, c} {
		sv := &pr.v[i]
		sv.z, sv.invW, sv.color = ws[i].z, ws[i].invW, v.color
		sv.tc = [3][2]float32{v.tc0, v.tc1, v.tc2}
		sv.tc0w = v.tc0w
	}
	for u := 0; u < 3; u++ {
		t := &ps.tex[u]
		if !t.enabled {
			continue
		}
		// Unit 2 reads tc2 or tc1 (TEXUNIT_CONFIG bit 13).
		k := u
		if u == 2 && ps.tc2from1 {
			k = 1
		}
		// Planes of s/w, t/w (in texels) and 1/w over window x, y.
		var sw, tw, q [3]float64
		for i, wv := range ws {
			c := pr.v[i].tc[k]
			sw[i] = float64(c[0]) * float64(t.width) * wv.invW
			tw[i] = float64(c[1]) * float64(t.height) * wv.invW
			q[i] = wv.invW
			if u == 0 && t.proj {
				q[i] *= float64(pr.v[i].tc0w)
			}
		}
		pr.grad[u] = texGrad{gsw: gradient(ws, sw), gtw: gradient(ws, tw), gq: gradient(ws, q)}
	}
	pr.flat, pr.color = flatColor(pr)
	pr.flatZ, pr.depth = flatDepth(ps, pr)
	pr.affine = affine(pr)
	if len(g.batch.prims) >= maxBatch {
		g.flush()
	}
	return nil
}

// maxBatch bounds the triangles waiting in a batch.
const maxBatch = 4096

// batch is the set-up triangles waiting to be shaded with one pixel state;
// it is the raster.Batch the scheduler runs.
type batch struct {
	g       *GPU
	ps      *pixelState
	prims   []prim
	ref     bool
	workers []worker
}

// worker is one scheduler worker's scratch state.
type worker struct {
	pixels int64
	sb     spanBuf
	spans  []raster.Span
}

func (b *batch) Len() int                 { return len(b.prims) }
func (b *batch) Bounds(i int) raster.Rect { return b.prims[i].bounds }

// Shade implements raster.Batch.
func (b *batch) Shade(w, i int, clip raster.Rect) error {
	wk := &b.workers[w]
	if b.ref {
		b.g.shadeRef(b.ps, wk, &b.prims[i], clip)
	} else {
		b.g.shadeSpans(b.ps, wk, &b.prims[i], clip)
	}
	return nil
}

// flush shades the batch. A state whose buffers overlap each other (a
// texture that is the render target, a depth buffer inside the colour
// buffer) breaks the scheduler's contract and the span pipeline's
// staging: it is shaded serially through the per-pixel path.
func (g *GPU) flush() {
	b := &g.batch
	if len(b.prims) == 0 {
		return
	}
	b.g = g
	n := g.sched.Workers()
	if len(b.workers) < n {
		b.workers = make([]worker, n)
	}
	clip := b.ps.target
	// The span pipeline has no projection texture (unit 0 dividing by
	// texcoord0.w per pixel): such a state shades through the reference.
	if g.reference || b.ps.aliased || b.ps.tex[0].proj {
		b.ref = true
		_ = g.sched.RunSerial(clip, b)
	} else {
		b.ref = false
		_ = g.sched.Run(clip, b)
	}
	for i := range b.workers {
		g.Pixels += b.workers[i].pixels
		b.workers[i].pixels = 0
	}
	b.prims = b.prims[:0]
}

// shadeRef is the reference path: every pixel of the primitive inside clip
// through shadePixel and fragment, one at a time.
func (g *GPU) shadeRef(ps *pixelState, wk *worker, pr *prim, clip raster.Rect) {
	pr.tri.Walk(clip, func(s *raster.Span) {
		e := s.E
		for x := s.X0; x < s.X1; x++ {
			if ps.scissor == 1 && x >= ps.sx1 && x <= ps.sx2 {
				row := ps.height - 1 - s.Y
				if row >= ps.sy1 && row <= ps.sy2 {
					e[0], e[1], e[2] = e[0]+s.DX[0], e[1]+s.DX[1], e[2]+s.DX[2]
					continue
				}
			}
			shadePixel(ps, pr, e, x, s.Y)
			wk.pixels++
			e[0], e[1], e[2] = e[0]+s.DX[0], e[1]+s.DX[1], e[2]+s.DX[2]
		}
	})
}

// shadePixel interpolates the fragment at pixel (x, row) (row = memory
// row) and runs the fragment pipeline.
func shadePixel(ps *pixelState, pr *prim, e [3]int64, x, row int) {
	var f fragment
	area := pr.area
	vs := &pr.v
	w0, w1, w2 := float64(e[0])/area, float64(e[1])/area, float64(e[2])/area
	z := float64(w0*vs[0].z) + float64(w1*vs[1].z) + float64(w2*vs[2].z)
	f.depth = max(0, min(1, z))
	p0, p1, p2 := float64(w0*vs[0].invW), float64(w1*vs[1].invW), float64(w2*vs[2].invW)
	f.q = p0 + p1 + p2
	norm := 1 / f.q
	p0, p1, p2 = p0*norm, p1*norm, p2*norm
	in := func(a, b, c float32) float64 {
		return float64(p0*float64(a)) + float64(p1*float64(b)) + float64(p2*float64(c))
	}
	a, b, c := &vs[0], &vs[1], &vs[2]
	for i := 0; i < 4; i++ {
		f.color[i] = q8(in(a.color[i], b.color[i], c.color[i]))
	}
	if ps.texEnabled != 0 {
		for u := 0; u < 3; u++ {
			f.tc[u] = [2]float64{in(a.tc[u][0], b.tc[u][0], c.tc[u][0]), in(a.tc[u][1], b.tc[u][1], c.tc[u][1])}
		}
		if ps.tex[0].proj {
			f.tc0w = in(a.tc0w, b.tc0w, c.tc0w)
			f.tc[0][0] /= f.tc0w
			f.tc[0][1] /= f.tc0w
		}
	}
	fragmentPixel(ps, &f, &pr.grad, x, row)
}

// gradient returns (df/dx, df/dy) of the plane through the three window
// vertices with values f.
func gradient(vs [3]*winVert, f [3]float64) [2]float64 {
	x1, y1 := vs[1].x-vs[0].x, vs[1].y-vs[0].y
	x2, y2 := vs[2].x-vs[0].x, vs[2].y-vs[0].y
	f1, f2 := f[1]-f[0], f[2]-f[0]
	det := x1*y2 - x2*y1
	if det == 0 {
		return [2]float64{}
	}
	return [2]float64{(f1*y2 - f2*y1) / det, (x1*f2 - x2*f1) / det}
}

func q8(v float64) uint8 {
	if v != v || v <= 0 {
		return 0
	}
	if v >= 1 {
		return 255
	}
	return uint8(math.Round(v * 255))
}
