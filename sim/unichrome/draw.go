package unichrome

import (
	"math"

	uc "github.com/retrogl/retrogl/hal/unichrome"
	"github.com/retrogl/retrogl/sim/raster"
)

// subBits is the sub-pixel precision: positions snap to 28.4.
const subBits = 4

// maxCoord bounds snapped positions (pixels), keeping edge functions and
// attribute planes far from overflow.
const maxCoord = 4096

// snap converts a window coordinate to 28.4 fixed point, rounding to
// nearest; NaN reads 0.
func snap(f float32) int64 {
	v := float64(f)
	if v != v {
		return 0
	}
	// v is not NaN: comparisons clamp it as min and max would (a -0
	// stays -0 either way).
	if v > maxCoord {
		v = maxCoord
	} else if v < -maxCoord {
		v = -maxCoord
	}
	return floorInt(v*16 + 0.5)
}

// floorInt is int64(math.Floor(x)) for a finite x of magnitude below
// 2^52 (snap's at most 65536.5): the conversion truncates toward zero,
// exactly, and a negative x that is not an integer is one below that
// (TestFloorInt).
func floorInt(x float64) int64 {
	t := int64(x)
	if x < 0 && float64(t) != x {
		t--
	}
	return t
}

// Attribute slots of a fragment.
const (
	atR = iota
	atG
	atB
	atA
	atSR
	atSG
	atSB
	atFog
	atZ
	atW
	atS0
	atT0
	atS1
	atT1
	numAttrs
)

// vals are a vertex's attributes as plane inputs.
func (p *pipeline) vals(v *vertex, out *[numAttrs]float64) {
	cd, cs := v.cd, v.cs
	out[atR], out[atG], out[atB], out[atA] = float64(cd>>16&0xFF), float64(cd>>8&0xFF), float64(cd&0xFF), float64(cd>>24)
	out[atSR], out[atSG], out[atSB], out[atFog] = float64(cs>>16&0xFF), float64(cs>>8&0xFF), float64(cs&0xFF), float64(cs>>24)
	p.valsRest(v, out)
}

// valsRest is vals from Z on (Z, W, S and T).
func (p *pipeline) valsRest(v *vertex, out *[numAttrs]float64) {
	out[atZ] = float64(v.z) * p.znf
	w := float64(v.w)
	out[atW] = w
	for n := 0; n < 2; n++ {
		s, t := float64(v.s[n]), float64(v.t[n])
		if p.persp {
			s, t = float64(s*w), float64(t*w)
		}
		out[atS0+2*n], out[atT0+2*n] = s, t
	}
}

// frag is one fragment's interpolated inputs.
type frag struct {
	c   [4]int
	s   [3]int
	fog int
	z   float64 // Z for the test (biased)
	zw  float64 // Z to write (biased with HZBiasedWB)
	w   float64
	st  [2][2]float64
	lod [2]int
	tri bool
}

// clamp8 rounds to nearest and clamps to [0, 255]; truncation of a value
// in [1, 255) is its floor.
func clamp8(v float64) int {
	x := v + 0.5
	if !(x >= 1) {
		return 0
	}
	if x >= 255 {
		return 255
	}
	return int(x)
}

// draw rasterises one primitive.
func (e *Engine) draw(prim uc.Prim, sh uc.Shade, v []vertex) error {
	p := e.pipe
	if p.clip.Empty() {
		return nil
	}
	if sh == uc.ShadeGouraud && prim == uc.PrimTri {
		// Each vertex keeps its own colours: no copy to change.
		return e.triangle(p, &v[0], &v[1], &v[2])
	}
	var pv [3]vertex
	copy(pv[:], v)
	switch sh {
	case uc.ShadeSolid:
		cd := uint32(p.solid[3])<<24 | uint32(p.solid[0])<<16 | uint32(p.solid[1])<<8 | uint32(p.solid[2])
		for i := range v {
			pv[i].cd = cd
		}
	case uc.ShadeFlatA, uc.ShadeFlatB, uc.ShadeFlatC:
		k := min(int(sh-uc.ShadeFlatA), len(v)-1)
		for i := range v {
			pv[i].cd, pv[i].cs = v[k].cd, v[k].cs
		}
	}
	switch prim {
	case uc.PrimTri:
		return e.triangle(p, &pv[0], &pv[1], &pv[2])
	case uc.PrimLine:
		e.line(p, &pv[0], &pv[1])
	default:
		e.point(p, &pv[0])
	}
	return nil
}

// position returns a vertex's snapped position, shifted by half a pixel
// when HPixGC puts pixel centres on integers.
func (p *pipeline) position(v *vertex) raster.Point {
	x, y := snap(v.x), snap(v.y)
	if p.centerInt {
		x, y = x+8, y+8
	}
	return raster.Point{X: x, Y: y}
}

// prim is a set-up triangle waiting in the batch: its attribute planes
// (value at vertex 0, change per pixel in x and y) and the values that
// are constant over it.
type prim struct {
	tri    raster.Triangle
	bounds raster.Rect
	a0     [numAttrs]float64
	gx, gy [numAttrs]float64
	x0, y0 float64
	zbias  float64
	lod    [2]int
	// act lists the attributes that vary, in slot order.
	act  [numAttrs]uint8
	nact int
}

// triangle sets up a triangle and adds it to the batch.
func (e *Engine) triangle(p *pipeline, v0, v1, v2 *vertex) error {
	p0, p1, p2 := p.position(v0), p.position(v1), p.position(v2)
	t, ok := raster.Setup(p0, p1, p2, subBits)
	if !ok {
		return nil
	}
	bounds := t.Bounds().Intersect(p.clip)
	if r := bounds; !r.Empty() {
		if err := e.x.Step(1 + (r.X1-r.X0)*(r.Y1-r.Y0)/256); err != nil {
			return err
		}
	}
	if p.en&enBFCull != 0 {
		ccwBack := e.cmdB&uc.CmdBCCWBack != 0
		if t.CW != ccwBack {
			e.Stats.Culled++
			return nil
		}
	}
	if bounds.Empty() {
		return nil
	}
	b := &e.batch
	if b.pipe != p {
		e.flush()
		b.pipe = p
	}
	// The prim is written in place, every field (no zeroed literal
	// copied in).
	if n := len(b.prims); n < cap(b.prims) {
		b.prims = b.prims[:n+1]
	} else {
		b.prims = append(b.prims, prim{})
	}
	pr := &b.prims[len(b.prims)-1]
	pr.tri, pr.bounds = t, bounds
	pr.zbias, pr.lod, pr.nact = 0, [2]int{}, 0
	pr.planes(p, v0, v1, v2, p0, p1, p2)
	gx, gy := &pr.gx, &pr.gy
	if p.hasBias {
		pr.zbias = float64(max(math.Abs(gx[atZ]), math.Abs(gy[atZ]))*p.zscale) + p.zbias
	}
	// Texture LOD: constant over the triangle without perspective.
	if p.txmp && !p.persp {
		for n := 0; n < p.ntex; n++ {
			u := &p.units[n]
			if u.needLOD || u.mip == mipConstant {
				w, h := u.baseSize()
				rho := max(math.Abs(gx[atS0+2*n])*w, math.Abs(gx[atT0+2*n])*h, math.Abs(gy[atS0+2*n])*w, math.Abs(gy[atT0+2*n])*h)
				pr.lod[n] = u.lodOf(rho)
			}
		}
	}
	if len(b.prims) >= maxBatch {
		e.flush()
	}
	return nil
}

// planes sets the prim's attribute planes from its vertices and snapped
// positions: a0 is vertex 0's values (vals); an attribute's change per
// pixel comes from its differences d1, d2 at vertices 1 and 2 (grad),
// and act lists the attributes that vary, in slot order. The colour
// bytes' values are integers, so their differences are the bytes' own,
// taken from the words (a colour word the same at the three vertices has
// four zero differences); Z, W, S and T go through vals' arithmetic at
// each vertex. TestPlanesMatchVals compares it with vals at the three
// vertices and one loop over every attribute.
func (pr *prim) planes(p *pipeline, v0, v1, v2 *vertex, p0, p1, p2 raster.Point) {
	p.vals(v0, &pr.a0)
	var a1, a2 [numAttrs]float64
	p.valsRest(v1, &a1)
	p.valsRest(v2, &a2)
	pr.x0, pr.y0 = float64(p0.X)/16, float64(p0.Y)/16
	dx1, dy1 := float64(p1.X-p0.X)/16, float64(p1.Y-p0.Y)/16
	dx2, dy2 := float64(p2.X-p0.X)/16, float64(p2.Y-p0.Y)/16
	g := planeGeom{dx1: dx1, dy1: dy1, dx2: dx2, dy2: dy2, det: float64(dx1*dy2) - float64(dx2*dy1)}
	pr.nact = 0
	pr.gradBytes(atR, v0.cd, v1.cd, v2.cd, &g)
	pr.gradBytes(atSR, v0.cs, v1.cs, v2.cs, &g)
	for i := atZ; i < numAttrs; i++ {
		d1, d2 := float64(a1[i]-pr.a0[i]), float64(a2[i]-pr.a0[i])
		if d1 == 0 && d2 == 0 { // grad's first case, without the call
			pr.gx[i], pr.gy[i] = 0, 0
			continue
		}
		pr.grad(i, d1, d2, &g)
	}
}

// planeGeom is a triangle's geometry for its attribute planes: vertex 1
// and 2 less vertex 0, in pixels, and the determinant.
type planeGeom struct{ dx1, dy1, dx2, dy2, det float64 }

// grad sets attribute i's change per pixel from its differences d1, d2
// at vertices 1 and 2 and adds it to act when it varies.
func (pr *prim) grad(i int, d1, d2 float64, g *planeGeom) {
	if d1 == 0 && d2 == 0 {
		pr.gx[i], pr.gy[i] = 0, 0
		return
	}
	gx := (float64(d1*g.dy2) - float64(d2*g.dy1)) / g.det
	gy := (float64(d2*g.dx1) - float64(d1*g.dx2)) / g.det
	pr.gx[i], pr.gy[i] = gx, gy
	if gx != 0 || gy != 0 {
		pr.act[pr.nact] = uint8(i)
		pr.nact++
	}
}

// gradBytes is grad for the four byte channels of the colour words c0,
// c1, c2 at attributes i to i+3 (R or specular R, G, B, then A or fog:
// vals' order). A byte's value is an integer below 256, so the float64
// difference of two is exact and equals the integers' difference.
func (pr *prim) gradBytes(i int, c0, c1, c2 uint32, g *planeGeom) {
	if c1 == c0 && c2 == c0 {
		pr.gx[i], pr.gx[i+1], pr.gx[i+2], pr.gx[i+3] = 0, 0, 0, 0
		pr.gy[i], pr.gy[i+1], pr.gy[i+2], pr.gy[i+3] = 0, 0, 0, 0
		return
	}
	for k, sh := range [4]uint{16, 8, 0, 24} {
		b0 := int32(c0 >> sh & 0xFF)
		d1, d2 := int32(c1>>sh&0xFF)-b0, int32(c2>>sh&0xFF)-b0
		if d1 == 0 && d2 == 0 { // grad's first case, without the call
			pr.gx[i+k], pr.gy[i+k] = 0, 0
			continue
		}
		pr.grad(i+k, float64(d1), float64(d2), g)
	}
}

// maxBatch bounds the triangles waiting in a batch.
const maxBatch = 4096

// batch is the set-up triangles waiting to be shaded with one pipeline;
// it is the raster.Batch the scheduler runs.
type batch struct {
	e       *Engine
	pipe    *pipeline
	prims   []prim
	ref     bool
	workers []worker
}

func (b *batch) Len() int                 { return len(b.prims) }
func (b *batch) Bounds(i int) raster.Rect { return b.prims[i].bounds }

// Shade implements raster.Batch.
func (b *batch) Shade(w, i int, clip raster.Rect) error {
	wk := &b.workers[w]
	if b.ref {
		wk.shadeRef(b.pipe, &b.prims[i], clip)
	} else {
		wk.shadeSpans(b.pipe, &b.prims[i], clip)
	}
	return nil
}

// flush shades the batch. A pipeline whose buffers overlap (a texture in
// the colour or Z buffer, rows of a buffer sharing memory) breaks the
// scheduler's contract and the span pipeline's staging: it is shaded
// serially through the per-pixel path.
func (e *Engine) flush() {
	b := &e.batch
	if len(b.prims) == 0 {
		return
	}
	b.e = e
	n := e.sched.Workers()
	if len(b.workers) < n {
		b.workers = make([]worker, n)
	}
	for i := range b.workers {
		b.workers[i].e = e
	}
	clip := b.pipe.clip
	if e.reference || b.pipe.aliased {
		b.ref = true
		_ = e.sched.RunSerial(clip, b)
	} else {
		b.ref = false
		_ = e.sched.Run(clip, b)
	}
	for i := range b.workers {
		e.Stats.add(&b.workers[i].stats)
		b.workers[i].stats = Stats{}
	}
	b.prims = b.prims[:0]
}

// attrsAt sets cur's active attributes (act) to their plane values at
// pixel (x, y)'s centre: the reference's evaluation, which the span paths
// start each span from.
func (pr *prim) attrsAt(cur *[numAttrs]float64, x, y int) {
	px := float64(x) + 0.5 - pr.x0
	py := float64(y) + 0.5 - pr.y0
	for _, i := range pr.act[:pr.nact] {
		cur[i] = pr.a0[i] + float64(pr.gx[i]*px) + float64(pr.gy[i]*py)
	}
}

// shadeRef is the reference path: every pixel of the triangle inside
// clip through fragment, one at a time, the attributes stepped from each
// row's plane evaluation.
func (w *worker) shadeRef(p *pipeline, pr *prim, clip raster.Rect) {
	e := w.e
	var f frag
	f.tri = true
	f.lod = pr.lod
	cur := pr.a0
	step := pr.act[:pr.nact]
	gx, gy := &pr.gx, &pr.gy
	pr.tri.Walk(clip, func(s *raster.Span) {
		pr.attrsAt(&cur, s.X0, s.Y)
		for x := s.X0; x < s.X1; x++ {
			f.c = [4]int{clamp8(cur[atR]), clamp8(cur[atG]), clamp8(cur[atB]), clamp8(cur[atA])}
			if p.needSpec {
				f.s = [3]int{clamp8(cur[atSR]), clamp8(cur[atSG]), clamp8(cur[atSB])}
				f.fog = clamp8(cur[atFog])
			}
			f.z = cur[atZ] + pr.zbias
			f.zw = f.z
			if !p.biasWB {
				f.zw = cur[atZ]
			}
			f.w = cur[atW]
			if p.txmp {
				e.texCoords(p, &f, &cur, gx, gy)
			}
			w.fragment(p, x, s.Y, &f)
			for _, i := range step {
				cur[i] += gx[i]
			}
		}
	})
}

// texCoords fills a fragment's texture coordinates (and per-pixel LOD
// under perspective) from the interpolated attributes.
func (e *Engine) texCoords(p *pipeline, f *frag, cur, gx, gy *[numAttrs]float64) {
	for n := 0; n < p.ntex; n++ {
		texCoord(p, f, cur, gx, gy, n)
	}
}

// texCoord is texCoords for texture n.
func texCoord(p *pipeline, f *frag, cur, gx, gy *[numAttrs]float64, n int) {
	s, t := cur[atS0+2*n], cur[atT0+2*n]
	if !p.persp {
		f.st[n] = [2]float64{s, t}
		return
	}
	w := cur[atW]
	if w == 0 {
		f.st[n] = [2]float64{0, 0}
		return
	}
	ss, tt := s/w, t/w
	f.st[n] = [2]float64{ss, tt}
	u := &p.units[n]
	if gx == nil || !(u.needLOD || u.mip == mipConstant) {
		return
	}
	bw, bh := u.baseSize()
	dsx := (gx[atS0+2*n] - float64(ss*gx[atW])) / w
	dtx := (gx[atT0+2*n] - float64(tt*gx[atW])) / w
	dsy := (gy[atS0+2*n] - float64(ss*gy[atW])) / w
	dty := (gy[atT0+2*n] - float64(tt*gy[atW])) / w
	rho := max(math.Abs(dsx)*bw, math.Abs(dtx)*bh, math.Abs(dsy)*bw, math.Abs(dty)*bh)
	f.lod[n] = u.lodOf(rho)
}
