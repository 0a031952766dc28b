package pspge

import (
	"encoding/binary"
	"fmt"
	"math"

	ge "github.com/retrogl/retrogl/hal/pspge"
	"github.com/retrogl/retrogl/sim/device"
	"github.com/retrogl/retrogl/sim/raster"
)

// subBits is the GE's sub-pixel precision: screen positions are 12.4 fixed
// point (OFFSETX/OFFSETY, seed L289-293).
const subBits = 4

// pixelsPerStep is how many rasterised pixels cost one watchdog command, so
// that a list of huge primitives cannot run for ever.
const pixelsPerStep = 256

// draw is the per-PRIM rasteriser state: the pixel pipeline, the sampler
// and the interpolation choices, decided once.
type draw struct {
	g        *GE
	t        *target
	tex      *sampler // nil when texturing is off
	through  bool
	smooth   bool
	fog      bool
	specular bool // a secondary colour is added after texturing
	clear    bool
	cull     bool
	cwFront  bool // FFACE 1: clockwise (y-down screen) triangles are visible
	pixels   int
	w0, h0   float32 // level-0 size, for through-mode texture coordinates
	// fast is set when triangles and sprites go through the batch and the
	// span pipeline (span.go) rather than pixel by pixel; parallel when the
	// batch may be shaded by several workers.
	fast, parallel bool
	pipe           pipe
}

// readIndices returns the vertex indices of a PRIM (or patch) of count
// vertices, from IADDR when VTYPE has an index format.
func (g *GE) readIndices(x *device.Exec, pc, w uint32, vt ge.VType, count int) ([]int, int, error) {
	if cap(g.idxBuf) < count {
		g.idxBuf = make([]int, count)
	}
	idx := g.idxBuf[:count]
	maxI := count - 1
	if vt.Index == ge.FmtNone {
		for i := range idx {
			idx[i] = i
		}
		return idx, maxI, nil
	}
	isz := 1 << (vt.Index - 1)
	b, ok := g.mem.Slice(g.iaddr, uint32(count*isz))
	if !ok {
		return nil, 0, x.Fault(pc, uint64(w), fmt.Sprintf("index buffer %#08x+%d outside memory", g.iaddr, count*isz))
	}
	maxI = 0
	for i := range idx {
		if isz == 1 {
			idx[i] = int(b[i])
		} else {
			idx[i] = int(binary.LittleEndian.Uint16(b[2*i:]))
		}
		maxI = max(maxI, idx[i])
	}
	return idx, maxI, nil
}

// checkVType rejects the reserved VTYPE encodings.
func checkVType(vt ge.VType) string {
	switch {
	case vt.Pos == ge.FmtNone:
		return "VTYPE has no position"
	case vt.Index == 3:
		return "VTYPE index format 3 is reserved"
	case vt.Color >= 1 && vt.Color <= 3:
		return fmt.Sprintf("VTYPE colour format %d is reserved", vt.Color)
	}
	return ""
}

// fetchVertices decodes and transforms the vertices named by idx.
func (g *GE) fetchVertices(x *device.Exec, pc, w uint32, vt ge.VType, idx []int, maxI int) ([]vertex, error) {
	l := vt.Layout()
	vb, ok := g.mem.Slice(g.vaddr, uint32((maxI+1)*l.Size))
	if !ok {
		return nil, x.Fault(pc, uint64(w), fmt.Sprintf("vertex data %#08x+%d outside memory", g.vaddr, (maxI+1)*l.Size))
	}
	if cap(g.vtxBuf) < len(idx) {
		g.vtxBuf = make([]vertex, len(idx))
	}
	verts := g.vtxBuf[:len(idx)]
	var t tnl
	if !vt.Through {
		g.setupTnL(vt, &t)
	}
	for i, vi := range idx {
		v := &verts[i]
		g.decodeVertex(vt, &l, vb[vi*l.Size:], v)
		if !vt.Through {
			g.transform(&t, v)
		}
	}
	return verts, nil
}

// prim executes PRIM: fetch, transform and draw count vertices, then
// advance VADDR or IADDR past the data used (guide §2.1 [OUT]).
func (g *GE) prim(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	count := int(w & 0xFFFF)
	ptype := int(w >> 16 & 7)
	if ptype == 7 {
		ptype = g.lastPrim // [OUT] type 7 keeps the previous type
	}
	g.lastPrim = ptype
	vt := ge.ParseVType(g.regs[ge.VTYPE])
	if why := checkVType(vt); why != "" {
		return 0, false, x.Fault(pc, uint64(w), why)
	}
	if count == 0 {
		return pc + 4, false, nil
	}
	idx, maxI, err := g.readIndices(x, pc, w, vt, count)
	if err != nil {
		return 0, false, err
	}
	verts, err := g.fetchVertices(x, pc, w, vt, idx, maxI)
	if err != nil {
		return 0, false, err
	}
	l := vt.Layout()
	if vt.Index == ge.FmtNone {
		g.vaddr += uint32(count * l.Size)
	} else {
		g.iaddr += uint32(count << (vt.Index - 1))
	}
	d, err := g.newDraw(x, pc, w, vt.Through)
	if err != nil {
		return 0, false, err
	}
	g.assemble(d, ptype, verts)
	g.flush(d)
	if err := x.Step(d.pixels / pixelsPerStep); err != nil {
		return 0, false, x.Fault(pc, uint64(w), err.Error())
	}
	return pc + 4, false, nil
}

// newDraw decides the rasteriser and pixel state of a PRIM.
func (g *GE) newDraw(x *device.Exec, pc, w uint32, through bool) (*draw, error) {
	t, err := g.target(x, pc, w, through)
	if err != nil {
		return nil, err
	}
	d := &g.drw
	*d = draw{g: g, t: t, through: through, clear: t.clear}
	d.smooth = g.regs[ge.SHADE]&1 != 0
	d.fog = t.fog
	d.specular = !through && g.regs[ge.LTE]&1 != 0 && g.regs[ge.LMODE]&1 != 0 && !t.clear
	d.cull = g.regs[ge.BCE]&1 != 0 && !t.clear
	d.cwFront = g.regs[ge.FFACE]&1 != 0
	if g.regs[ge.TME]&1 != 0 && !t.clear {
		if why := g.setupSampler(&g.smp); why != "" {
			return nil, x.Fault(pc, uint64(w), why)
		}
		d.tex = &g.smp
		d.w0, d.h0 = float32(g.smp.levels[0].w), float32(g.smp.levels[0].h)
	}
	if !g.refPath && d.spanOK() {
		d.fast, d.parallel = true, true
		d.choosePipe()
		g.spanDraws++
	}
	return d, nil
}

// spanOK reports whether shading a pixel touches no other pixel's memory:
// the depth rows are at least as long as the drawing rectangle is wide,
// and the colour buffer, the depth buffer and the texture levels in use do
// not overlap. Then the span pipeline may stage a chunk's reads before its
// writes, and row bands may be shaded in parallel.
func (d *draw) spanOK() bool {
	t := d.t
	if t.fb == nil {
		return true // nothing can be drawn
	}
	type span struct{ lo, hi uint64 }
	overlap := func(a, b span) bool { return a.lo < b.hi && b.lo < a.hi }
	fb := span{t.fbAddr, t.fbAddr + uint64(len(t.fb))}
	zb := span{}
	if t.zb != nil {
		if t.zStride < t.clip.X1 {
			return false
		}
		zb = span{t.zAddr, t.zAddr + uint64(len(t.zb))}
		if overlap(fb, zb) {
			return false
		}
	}
	if s := d.tex; s != nil {
		for i := 0; i <= s.maxLevel; i++ {
			l := &s.levels[i]
			ts := span{l.addr, l.addr + uint64(len(l.data))}
			if overlap(ts, fb) || overlap(ts, zb) {
				return false
			}
		}
	}
	return true
}

// assemble builds primitives of type ptype from the vertices and draws
// them.
func (g *GE) assemble(d *draw, ptype int, verts []vertex) {
	n := len(verts)
	if d.through {
		for i := range verts {
			g.throughScreen(&verts[i])
			if d.tex != nil {
				verts[i].s /= d.w0
				verts[i].t /= d.h0
			}
		}
	}
	switch ptype {
	case 0:
		for i := range verts {
			d.point(&verts[i])
		}
	case 1:
		for i := 0; i+1 < n; i += 2 {
			d.line(&verts[i], &verts[i+1])
		}
	case 2:
		for i := 0; i+1 < n; i++ {
			d.line(&verts[i], &verts[i+1])
		}
	case 3:
		for i := 0; i+2 < n; i += 3 {
			d.triangle(&verts[i], &verts[i+1], &verts[i+2])
		}
	case 4:
		for i := 0; i+2 < n; i++ {
			if i%2 == 0 {
				d.triangle(&verts[i], &verts[i+1], &verts[i+2])
			} else {
				d.triangle(&verts[i+1], &verts[i], &verts[i+2])
			}
		}
	case 5:
		for i := 1; i+1 < n; i++ {
			d.triangle(&verts[0], &verts[i], &verts[i+1])
		}
	case 6:
		for i := 0; i+1 < n; i += 2 {
			d.sprite(&verts[i], &verts[i+1])
		}
	}
}

// triangle draws one triangle; in transform mode it is first clipped
// against the near plane (z >= -w) and w > 0, interpolating every
// attribute linearly in clip space. The provoking (last) vertex keeps the
// flat colour (guide §5.16).
func (d *draw) triangle(a, b, c *vertex) {
	d.g.Prims++
	if d.through {
		d.raster(a, b, c, c)
		return
	}
	if d.fast && inside(a) && inside(b) && inside(c) {
		// The vertices are mapped to the screen in place, once each (a
		// strip or an index list shares them): toScreen only writes the
		// screen fields, which clipping never reads and recomputes.
		for _, v := range [3]*vertex{a, b, c} {
			if !v.screened {
				d.g.toScreen(v)
				v.screened = true
			}
		}
		d.addTri(a, b, c, c)
		return
	}
	flat := *c
	if inside(a) && inside(b) && inside(c) {
		va, vb, vc := *a, *b, *c
		d.g.toScreen(&va)
		d.g.toScreen(&vb)
		d.g.toScreen(&vc)
		d.g.toScreen(&flat)
		d.raster(&va, &vb, &vc, &flat)
		return
	}
	in := []vertex{*a, *b, *c}
	planes := [2]func(v *vertex) float32{
		func(v *vertex) float32 { return v.clip[2] + v.clip[3] },
		func(v *vertex) float32 { return v.clip[3] - 1.0/(1<<20) },
	}
	for _, dist := range planes {
		allIn := true
		for i := range in {
			if !(dist(&in[i]) >= 0) {
				allIn = false
			}
		}
		if allIn {
			continue
		}
		var out []vertex
		for i := range in {
			p, q := &in[i], &in[(i+1)%len(in)]
			dp, dq := dist(p), dist(q)
			if dp >= 0 {
				out = append(out, *p)
			}
			if (dp >= 0) != (dq >= 0) {
				out = append(out, lerpVertex(p, q, dp/(dp-dq)))
			}
		}
		in = out
		if len(in) < 3 {
			return
		}
	}
	for i := range in {
		d.g.toScreen(&in[i])
	}
	d.g.toScreen(&flat)
	for i := 1; i+1 < len(in); i++ {
		d.raster(&in[0], &in[i], &in[i+1], &flat)
	}
}

func inside(v *vertex) bool {
	return v.clip[2]+v.clip[3] >= 0 && v.clip[3] >= 1.0/(1<<20)
}

func lerpVertex(p, q *vertex, s float32) vertex {
	v := *p
	l := func(a, b float32) float32 { return a + float32(s*(b-a)) }
	for k := 0; k < 4; k++ {
		v.clip[k] = l(p.clip[k], q.clip[k])
		v.color[k] = l(p.color[k], q.color[k])
	}
	for k := 0; k < 3; k++ {
		v.spec[k] = l(p.spec[k], q.spec[k])
	}
	v.s, v.t, v.q = l(p.s, q.s), l(p.t, q.t), l(p.q, q.q)
	v.fogd = l(p.fogd, q.fogd)
	return v
}

// plane is an attribute's screen-space plane: value = A*x + B*y + C at
// pixel coordinates.
type plane struct{ a, b, c float64 }

// setupPlane fits a plane through three vertex values at their screen
// positions (pixels).
func setupPlane(x, y [3]float64, v [3]float64) plane {
	dx1, dy1 := x[1]-x[0], y[1]-y[0]
	dx2, dy2 := x[2]-x[0], y[2]-y[0]
	det := float64(dx1*dy2) - float64(dx2*dy1)
	if det == 0 {
		return plane{c: v[0]}
	}
	dv1, dv2 := v[1]-v[0], v[2]-v[0]
	a := (float64(dv1*dy2) - float64(dv2*dy1)) / det
	b := (float64(dx1*dv2) - float64(dx2*dv1)) / det
	return plane{a, b, v[0] - float64(a*x[0]) - float64(b*y[0])}
}

// ilerp interpolates one integer attribute across a span exactly: the
// value at each pixel is floor(N/area) with N = e0*a + e1*b + e2*c + area/2
// (N >= 0 inside the triangle), stepped by quotient and remainder so no
// division runs per pixel; the result equals the per-pixel division.
type ilerp struct {
	q, r, dq, dr, area int64
}

func newIlerp(n, dn, area int64) ilerp {
	l := ilerp{q: n / area, r: n % area, dq: dn / area, dr: dn % area, area: area}
	if l.dr < 0 {
		l.dr += area
		l.dq--
	}
	return l
}

func (l *ilerp) step() {
	l.q += l.dq
	l.r += l.dr
	if l.r >= l.area {
		l.r -= l.area
		l.q++
	}
}

// raster walks one screen-space triangle. Depth and colours interpolate
// linearly in screen space with exact integer arithmetic (rounding to
// nearest); texture coordinates interpolate perspective-correctly (s/w, t/w,
// q/w planes divided per pixel); the fog depth interpolates linearly.
func (d *draw) raster(a, b, c, flat *vertex) {
	if d.fast {
		d.addTri(a, b, c, flat)
		return
	}
	tri, ok := raster.Setup(raster.Point{X: a.sx, Y: a.sy}, raster.Point{X: b.sx, Y: b.sy}, raster.Point{X: c.sx, Y: c.sy}, subBits)
	if !ok {
		return
	}
	if d.cull && tri.CW != d.cwFront {
		// FFACE 0 keeps counter-clockwise triangles (as seen on the y-down
		// screen), FFACE 1 clockwise ones; sprites and clear mode are never
		// culled (pspautotests gpu/commands/cull.expected; the seed's
		// L579-582 has the order inverted).
		return
	}
	area := tri.Area
	half := area / 2
	fa := float64(area)
	t := d.t
	var sP, tP, qP plane
	var grads bool
	if d.tex != nil {
		xs := [3]float64{float64(a.sx) / 16, float64(b.sx) / 16, float64(c.sx) / 16}
		ys := [3]float64{float64(a.sy) / 16, float64(b.sy) / 16, float64(c.sy) / 16}
		sP = setupPlane(xs, ys, [3]float64{float64(a.s) * a.invW, float64(b.s) * b.invW, float64(c.s) * c.invW})
		tP = setupPlane(xs, ys, [3]float64{float64(a.t) * a.invW, float64(b.t) * b.invW, float64(c.t) * c.invW})
		qP = setupPlane(xs, ys, [3]float64{float64(a.q) * a.invW, float64(b.q) * b.invW, float64(c.q) * c.invW})
		grads = d.tex.needLOD && d.tex.lodMode == 0
	}
	var fogA, fogB, fogC float64
	if d.fog {
		fogA, fogB, fogC = float64(a.fogd), float64(b.fogd), float64(c.fogd)
	}
	needZ := t.needZ
	smooth := d.smooth
	spec := d.specular
	flatCol := [4]int32{int32(flat.c[0]), int32(flat.c[1]), int32(flat.c[2]), int32(flat.c[3])}
	var w0, h0 float64
	if d.tex != nil {
		w0, h0 = float64(d.tex.levels[0].w), float64(d.tex.levels[0].h)
	}
	tri.Walk(t.clip, func(s *raster.Span) {
		e0, e1, e2 := s.E[0], s.E[1], s.E[2]
		dx0, dx1, dx2 := s.DX[0], s.DX[1], s.DX[2]
		var zl ilerp
		if needZ {
			zl = newIlerp(e0*a.sz+e1*b.sz+e2*c.sz+half, dx0*a.sz+dx1*b.sz+dx2*c.sz, area)
		}
		var cl [4]ilerp
		var sl [3]ilerp
		if smooth {
			for k := 0; k < 4; k++ {
				cl[k] = newIlerp(e0*a.c[k]+e1*b.c[k]+e2*c.c[k]+half, dx0*a.c[k]+dx1*b.c[k]+dx2*c.c[k], area)
			}
			if spec {
				for k := 0; k < 3; k++ {
					sl[k] = newIlerp(e0*a.c2[k]+e1*b.c2[k]+e2*c.c2[k]+half, dx0*a.c2[k]+dx1*b.c2[k]+dx2*c.c2[k], area)
				}
			}
		}
		py := float64(s.Y) + 0.5
		sRow, tRow, qRow := float64(sP.b*py)+sP.c, float64(tP.b*py)+tP.c, float64(qP.b*py)+qP.c
		for xx := s.X0; xx < s.X1; xx++ {
			col := flatCol
			if smooth {
				col = [4]int32{int32(cl[0].q), int32(cl[1].q), int32(cl[2].q), int32(cl[3].q)}
				cl[0].step()
				cl[1].step()
				cl[2].step()
				cl[3].step()
			}
			if d.tex != nil {
				px := float64(xx) + 0.5
				S, T, Q := float64(sP.a*px)+sRow, float64(tP.a*px)+tRow, float64(qP.a*px)+qRow
				var st, tt float32
				if Q != 0 {
					// One reciprocal per pixel (decision: the GE's divider
					// is not documented; a reciprocal times s and t).
					rq := 1 / Q
					st, tt = float32(S*rq), float32(T*rq)
				}
				var grad float32
				if grads && Q != 0 {
					grad = texGrad(&sP, &tP, &qP, S, T, Q, w0, h0)
				}
				col = d.tex.texFunc(col, d.tex.sample(st, tt, grad, float32(Q)))
			}
			if spec {
				if smooth {
					col[0] += int32(sl[0].q)
					col[1] += int32(sl[1].q)
					col[2] += int32(sl[2].q)
					sl[0].step()
					sl[1].step()
					sl[2].step()
				} else {
					col[0] += int32(flat.c2[0])
					col[1] += int32(flat.c2[1])
					col[2] += int32(flat.c2[2])
				}
			}
			fog := int32(255)
			if d.fog {
				fd := (float64(float64(e0)*fogA) + float64(float64(e1)*fogB) + float64(float64(e2)*fogC)) / fa
				fog = fogFactor(fd)
				e0 += dx0
				e1 += dx1
				e2 += dx2
			}
			t.pixel(xx, s.Y, int32(zl.q), fog, col)
			if needZ {
				zl.step()
			}
		}
		d.pixels += s.X1 - s.X0
	})
}

// texGrad is the largest texel-space gradient of the texture coordinates
// at a pixel where the s/w, t/w, q/w planes are S, T, Q: the derivatives
// of S/Q and T/Q along x and y, scaled to level-0 texels (w0 x h0).
func texGrad(sP, tP, qP *plane, S, T, Q, w0, h0 float64) float32 {
	q2 := float64(Q * Q)
	dsx := (float64(sP.a*Q) - float64(S*qP.a)) / q2
	dsy := (float64(sP.b*Q) - float64(S*qP.b)) / q2
	dtx := (float64(tP.a*Q) - float64(T*qP.a)) / q2
	dty := (float64(tP.b*Q) - float64(T*qP.b)) / q2
	gs := math.Max(math.Abs(dsx), math.Abs(dsy)) * w0
	gt := math.Max(math.Abs(dtx), math.Abs(dty)) * h0
	return float32(math.Max(gs, gt))
}

// fogFactor converts an interpolated fog depth to the 8-bit factor
// (255 = no fog), truncating.
func fogFactor(fd float64) int32 {
	if !(fd > 0) {
		return 0
	}
	if fd >= 1 {
		return 255
	}
	return int32(fd * 255)
}

// shade computes the textured colour of a fragment with colour col and
// texture coordinates (s, t) (normalised).
func (d *draw) shade(col [4]int32, v *vertex, s, t, grad float32) [4]int32 {
	if d.tex != nil {
		col = d.tex.texFunc(col, d.tex.sample(s, t, grad, 1))
	}
	if d.specular {
		for k := 0; k < 3; k++ {
			col[k] += int32(v.c2[k])
		}
	}
	return col
}

func (d *draw) fogOf(v *vertex) int32 {
	if !d.fog {
		return 255
	}
	return fogFactor(float64(v.fogd))
}

func colorOf(v *vertex) [4]int32 {
	return [4]int32{int32(v.c[0]), int32(v.c[1]), int32(v.c[2]), int32(v.c[3])}
}

// screen maps a vertex to the screen for points, lines and sprites; it
// returns false for a vertex behind the eye or the near plane.
func (d *draw) screen(v *vertex) bool {
	if d.through {
		return true
	}
	if !inside(v) {
		return false
	}
	d.g.toScreen(v)
	return true
}

// texST returns a vertex's normalised texture coordinates.
func texST(v *vertex) (float32, float32) {
	if v.q != 0 && v.q != 1 {
		return float32(v.s / v.q), float32(v.t / v.q)
	}
	return v.s, v.t
}

// point draws a one-pixel point: the pixel whose square holds the vertex
// (decision: the GE's point size is always 1).
func (d *draw) point(v *vertex) {
	d.g.Prims++
	if !d.screen(v) {
		return
	}
	x, y := int(v.sx>>subBits), int(v.sy>>subBits)
	c := d.t.clip
	if x < c.X0 || x >= c.X1 || y < c.Y0 || y >= c.Y1 {
		return
	}
	s, t := texST(v)
	d.t.pixel(x, y, int32(v.sz), d.fogOf(v), d.shade(colorOf(v), v, s, t, 0))
	d.pixels++
}

// line draws a one-pixel-wide line by stepping the major axis at pixel
// centres over the half-open span from the first vertex to the second
// (decision: a DDA; the last pixel belongs to the next segment of a
// strip). Attributes interpolate linearly; flat shading takes the second
// vertex.
func (d *draw) line(a, b *vertex) {
	d.g.Prims++
	va, vb := *a, *b
	if !d.through {
		if !inside(&va) && !inside(&vb) {
			return
		}
		if !inside(&va) || !inside(&vb) {
			dist := func(v *vertex) float32 { return v.clip[2] + v.clip[3] }
			da, db := dist(&va), dist(&vb)
			if min(va.clip[3], vb.clip[3]) < 1.0/(1<<20) {
				da, db = va.clip[3]-1.0/(1<<20), vb.clip[3]-1.0/(1<<20)
			}
			p := lerpVertex(&va, &vb, da/(da-db))
			if !inside(&va) {
				va = p
			} else {
				vb = p
			}
		}
		d.g.toScreen(&va)
		d.g.toScreen(&vb)
	}
	x0, y0 := float64(va.sx)/16, float64(va.sy)/16
	x1, y1 := float64(vb.sx)/16, float64(vb.sy)/16
	dx, dy := x1-x0, y1-y0
	xMajor := math.Abs(dx) >= math.Abs(dy)
	var from, to float64
	if xMajor {
		from, to = x0, x1
	} else {
		from, to = y0, y1
	}
	length := to - from
	if length == 0 {
		return
	}
	step := 1.0
	if length < 0 {
		step = -1
	}
	start := math.Ceil(from - 0.5)
	if step < 0 {
		start = math.Floor(from - 0.5)
	}
	sa, ta := texST(&va)
	sb, tb := texST(&vb)
	clip := d.t.clip
	for p := start; ; p += step {
		centre := p + 0.5
		f := (centre - from) / length
		if f < 0 || f >= 1 {
			break
		}
		var x, y int
		if xMajor {
			x, y = int(p), int(math.Floor(y0+f*dy))
		} else {
			x, y = int(math.Floor(x0+f*dx)), int(p)
		}
		lerp := func(a, b float64) float64 { return a + f*(b-a) }
		var col [4]int32
		if d.smooth {
			for k := 0; k < 4; k++ {
				col[k] = int32(math.Floor(lerp(float64(va.c[k]), float64(vb.c[k])) + 0.5))
			}
		} else {
			col = colorOf(&vb)
		}
		if x >= clip.X0 && x < clip.X1 && y >= clip.Y0 && y < clip.Y1 {
			z := int32(math.Floor(lerp(float64(va.sz), float64(vb.sz)) + 0.5))
			s, t := float32(lerp(float64(sa), float64(sb))), float32(lerp(float64(ta), float64(tb)))
			fog := int32(255)
			if d.fog {
				fog = fogFactor(lerp(float64(va.fogd), float64(vb.fogd)))
			}
			d.t.pixel(x, y, z, fog, d.shade(col, &vb, s, t, 0))
			d.pixels++
		}
		if d.pixels > 1<<24 {
			break
		}
	}
}

// sprite draws an axis-aligned rectangle from two opposite corners
// ([OUT]): colour, depth and fog come from the second vertex; texture
// coordinates run linearly from the first corner to the second, sampled at
// pixel centres. A pixel is covered when its centre lies in [min, max) on
// both axes (guide §6 fact 18).
func (d *draw) sprite(a, b *vertex) {
	va, vb := *a, *b
	if !d.screen(&va) || !d.screen(&vb) {
		return
	}
	d.g.Prims++
	x0, x1 := min(va.sx, vb.sx), max(va.sx, vb.sx)
	y0, y1 := min(va.sy, vb.sy), max(va.sy, vb.sy)
	// Pixel p is covered when x0 <= p*16+8 < x1.
	px0 := int((x0 - 8 + 15) >> subBits)
	px1 := int((x1 - 8 + 15) >> subBits)
	py0 := int((y0 - 8 + 15) >> subBits)
	py1 := int((y1 - 8 + 15) >> subBits)
	r := raster.Rect{X0: px0, Y0: py0, X1: px1, Y1: py1}.Intersect(d.t.clip)
	if r.Empty() {
		return
	}
	col := colorOf(&vb)
	fog := d.fogOf(&vb)
	z := int32(vb.sz)
	t := d.t
	if d.fast {
		d.addSprite(&va, &vb, r, col, fog, z)
		return
	}
	if d.tex == nil && !d.specular {
		for y := r.Y0; y < r.Y1; y++ {
			for x := r.X0; x < r.X1; x++ {
				t.pixel(x, y, z, fog, col)
			}
		}
		d.pixels += (r.X1 - r.X0) * (r.Y1 - r.Y0)
		return
	}
	sa, ta := texST(&va)
	sb, tb := texST(&vb)
	fx := float64(vb.sx-va.sx) / 16
	fy := float64(vb.sy-va.sy) / 16
	var dsx, dty float64
	if fx != 0 {
		dsx = float64(sb-sa) / fx
	}
	if fy != 0 {
		dty = float64(tb-ta) / fy
	}
	ax, ay := float64(va.sx)/16, float64(va.sy)/16
	var grad float32
	if d.tex != nil {
		grad = float32(math.Max(math.Abs(dsx)*float64(d.tex.levels[0].w), math.Abs(dty)*float64(d.tex.levels[0].h)))
	}
	for y := r.Y0; y < r.Y1; y++ {
		tt := float32(float64(ta) + float64((float64(y)+0.5-ay)*dty))
		for x := r.X0; x < r.X1; x++ {
			st := float32(float64(sa) + float64((float64(x)+0.5-ax)*dsx))
			t.pixel(x, y, z, fog, d.shade(col, &vb, st, tt, grad))
		}
	}
	d.pixels += (r.X1 - r.X0) * (r.Y1 - r.Y0)
}

// addTri sets up a screen-space triangle as raster does and adds it to
// the batch.
func (d *draw) addTri(a, b, c, flat *vertex) {
	tri, ok := raster.Setup(raster.Point{X: a.sx, Y: a.sy}, raster.Point{X: b.sx, Y: b.sy}, raster.Point{X: c.sx, Y: c.sy}, subBits)
	if !ok {
		return
	}
	if d.cull && tri.CW != d.cwFront {
		return // see raster
	}
	box := triBounds(a, b, c).Intersect(d.t.clip)
	if box.Empty() {
		return
	}
	bt := &d.g.bat
	bt.tris = append(bt.tris, triRec{tri: tri, box: box, aux: -1})
	r := &bt.tris[len(bt.tris)-1]
	r.z = [3]int64{a.sz, b.sz, c.sz}
	if d.smooth {
		r.c = [3][4]int64{a.c, b.c, c.c}
	}
	r.flat = [4]int32{int32(flat.c[0]), int32(flat.c[1]), int32(flat.c[2]), int32(flat.c[3])}
	if d.tex == nil && !d.fog && !d.specular {
		return
	}
	r.aux = int32(len(bt.aux))
	bt.aux = append(bt.aux, triAux{})
	x := &bt.aux[r.aux]
	if d.tex != nil {
		xs := [3]float64{float64(a.sx) / 16, float64(b.sx) / 16, float64(c.sx) / 16}
		ys := [3]float64{float64(a.sy) / 16, float64(b.sy) / 16, float64(c.sy) / 16}
		x.sP = setupPlane(xs, ys, [3]float64{float64(a.s) * a.invW, float64(b.s) * b.invW, float64(c.s) * c.invW})
		x.tP = setupPlane(xs, ys, [3]float64{float64(a.t) * a.invW, float64(b.t) * b.invW, float64(c.t) * c.invW})
		x.qP = setupPlane(xs, ys, [3]float64{float64(a.q) * a.invW, float64(b.q) * b.invW, float64(c.q) * c.invW})
	}
	if d.fog {
		x.fog = [3]float64{float64(a.fogd), float64(b.fogd), float64(c.fogd)}
	}
	if d.specular {
		x.c2 = [3][3]int64{a.c2, b.c2, c.c2}
		x.flat2 = [3]int32{int32(flat.c2[0]), int32(flat.c2[1]), int32(flat.c2[2])}
	}
}

// addSprite adds a screen-space sprite covering r (within the drawing
// rectangle) to the batch, with the values sprite computes.
func (d *draw) addSprite(va, vb *vertex, r raster.Rect, col [4]int32, fog, z int32) {
	sr := spriteRec{box: r, col: col, fog: fog, z: z}
	if d.specular {
		sr.spec = [3]int32{int32(vb.c2[0]), int32(vb.c2[1]), int32(vb.c2[2])}
	}
	if d.tex != nil {
		sa, ta := texST(va)
		sb, tb := texST(vb)
		fx := float64(vb.sx-va.sx) / 16
		fy := float64(vb.sy-va.sy) / 16
		if fx != 0 {
			sr.dsx = float64(sb-sa) / fx
		}
		if fy != 0 {
			sr.dty = float64(tb-ta) / fy
		}
		sr.sa, sr.ta = sa, ta
		sr.ax, sr.ay = float64(va.sx)/16, float64(va.sy)/16
		sr.grad = float32(math.Max(math.Abs(sr.dsx)*float64(d.tex.levels[0].w), math.Abs(sr.dty)*float64(d.tex.levels[0].h)))
	}
	d.g.bat.sprites = append(d.g.bat.sprites, sr)
}

// triBounds is raster.Triangle.Bounds for the GE's 12.4 positions: the
// divisions by 16 that floor are arithmetic shifts.
func triBounds(a, b, c *vertex) raster.Rect {
	minX, maxX := min(a.sx, b.sx, c.sx), max(a.sx, b.sx, c.sx)
	minY, maxY := min(a.sy, b.sy, c.sy), max(a.sy, b.sy, c.sy)
	const half = 1 << (subBits - 1)
	return raster.Rect{
		X0: int((minX - half) >> subBits), Y0: int((minY - half) >> subBits),
		X1: int((maxX-half)>>subBits) + 2, Y1: int((maxY-half)>>subBits) + 2,
	}
}
