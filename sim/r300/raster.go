package r300

import (
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// edgeFn is one edge of a convex primitive: a sample at subpixel (x, y) is
// inside when a*x + b*y + c > 0, or == 0 and in (the SC_EDGERULE verdict
// for the edge's class).
type edgeFn struct {
	a, b, c int64
	in      bool
}

func (f *edgeFn) eval(x, y int64) int64 { return f.a*x + f.b*y + f.c }

// onEdgeIn applies an SC_EDGERULE value to an edge whose inside side has
// normal (a, b) on the y-down screen ([RECON] guide §2.6: for values below
// 16, bit 3 is left edges, 2 right, 1 horizontal-top, 0 horizontal-bottom;
// from 16, bit 3 top, 2 bottom, 1 vertical-left, 0 vertical-right; a set
// bit puts samples on that edge outside).
func onEdgeIn(a, b int64, rule uint32) bool {
	var bit uint
	if rule < 16 {
		switch {
		case a == 0 && b > 0:
			bit = 1 // horizontal edge with the inside below: top
		case a == 0:
			bit = 0
		case a > 0:
			bit = 3 // inside to the right: left edge
		default:
			bit = 2
		}
	} else {
		switch {
		case b == 0 && a > 0:
			bit = 1 // vertical edge with the inside to the right: left
		case b == 0:
			bit = 0
		case b > 0:
			bit = 3 // inside below: top edge
		default:
			bit = 2
		}
	}
	return rule>>bit&1 == 0
}

// edgeThrough returns the edge from p to q with the inside on the side
// where sign*cross > 0.
func edgeThrough(px, py, qx, qy int64, sign int64, rule uint32) edgeFn {
	a := -(qy - py) * sign
	b := (qx - px) * sign
	c := -(a*px + b*py)
	return edgeFn{a: a, b: b, c: c, in: onEdgeIn(a, b, rule)}
}

// prim is a primitive ready for the scan converter. It owns its data (no
// pointer into a vertex), so a draw's primitives can wait in a batch.
type prim struct {
	edges [4]edgeFn
	ne    int // edges in use
	// bounding box in pixels, inclusive, already clipped to the scissor.
	x0, y0, x1, y1 int
	// The reference triangle's barycentric weights interpolate the
	// attributes: rf are its edge functions (vertex k's weight is
	// rf[k]/area), rz and rq its vertices' window z and 1/W; flat uses
	// vertex 0 everywhere.
	rf     [3]edgeFn
	rz, rq [3]float64
	area   int64
	// wpIsWl is set when the perspective-correct weights are the linear
	// ones exactly (see wpIsWl); spans when rowSpan serves the edges
	// (smallEdges); constIn when every value the RS loads is the same at
	// the three vertices (rsState.constant).
	wpIsWl, spans, constIn bool
	flat                   bool
	front                  bool
	// vals is the offset in the batch's value arena of the attributes'
	// values at the three reference vertices (rsState.appendValues).
	vals int
	// zoff is the polygon offset in Z24 units.
	zoff float64
	// stuffed point texture coordinates: the point's rectangle.
	stuff                  bool
	left, right, top, bott int64
	// stuffed line texture coordinates: the line from (ax, ay) along
	// (dx, dy) in subpixels, the stipple accumulator at its start and its
	// length.
	lineStuff      bool
	ax, ay, dx, dy int64
	acc, length    float64
}

// edgeList returns the primitive's edges.
func (p *prim) edgeList() []edgeFn { return p.edges[:p.ne] }

func (s *drawState) bbox(p *prim, xs, ys []int64) bool {
	minX, maxX, minY, maxY := xs[0], xs[0], ys[0], ys[0]
	for i := range xs {
		minX, maxX = min(minX, xs[i]), max(maxX, xs[i])
		minY, maxY = min(minY, ys[i]), max(maxY, ys[i])
	}
	half := s.sub / 2
	// Pixel x has its sample at x*sub + half.
	p.x0 = int(max(ceilDiv(minX-half, s.sub), int64(s.sx0)))
	p.x1 = int(min(floorDiv(maxX-half, s.sub), int64(s.sx1)))
	p.y0 = int(max(ceilDiv(minY-half, s.sub), int64(s.sy0)))
	p.y1 = int(min(floorDiv(maxY-half, s.sub), int64(s.sy1)))
	return p.x0 <= p.x1 && p.y0 <= p.y1
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

// zOffset returns the SU polygon offset for a triangle (L1193-1226): scale
// times the larger depth slope per subpixel, plus offset, in Z24 units.
func (s *drawState) zOffset(a, b, c *vertex, area int64, front bool) float64 {
	k := 1
	if front {
		k = 0
	}
	if !s.polyOffset[k] {
		return 0
	}
	z := [3]float64{a.wz * s.depthScale, b.wz * s.depthScale, c.wz * s.depthScale}
	// The plane z = z0 + dzdx*(x-x0) + dzdy*(y-y0) in subpixels.
	x1, y1 := float64(b.sx-a.sx), float64(b.sy-a.sy)
	x2, y2 := float64(c.sx-a.sx), float64(c.sy-a.sy)
	ar := float64(area)
	dzdx := (float64((z[1]-z[0])*y2) - float64((z[2]-z[0])*y1)) / ar
	dzdy := (float64((z[2]-z[0])*x1) - float64((z[1]-z[0])*x2)) / ar
	return float64(s.polyScale[k]*math.Max(math.Abs(dzdx), math.Abs(dzdy))) + s.polyOff[k]
}

// rasterTri scan-converts a triangle with the ER_TRI edge rule.
func (e *Engine) rasterTri(s *drawState, a, b, c *vertex, front bool) error {
	area := (b.sx-a.sx)*(c.sy-a.sy) - (c.sx-a.sx)*(b.sy-a.sy)
	sign := int64(1)
	if area < 0 {
		sign = -1
	}
	p := &prim{area: area * sign, front: front, ne: 3}
	vs := [3]*vertex{a, b, c}
	for k := 0; k < 3; k++ {
		u, w := vs[(k+1)%3], vs[(k+2)%3]
		p.edges[k] = edgeThrough(u.sx, u.sy, w.sx, w.sy, sign, s.edge[0])
	}
	p.rf = [3]edgeFn{p.edges[0], p.edges[1], p.edges[2]}
	if !s.bbox(p, []int64{a.sx, b.sx, c.sx}, []int64{a.sy, b.sy, c.sy}) {
		return nil
	}
	p.zoff = s.zOffset(a, b, c, area, front)
	return e.queue(s, p, a, b, c)
}

// line rasterises a line as a parallelogram of half-width GA_LINE_CNTL.WIDTH
// subpixels (L597-606) with the ER_LINE_* rule of its direction.
func (e *Engine) line(s *drawState, a, b *vertex, front bool) error {
	e.Stats.Prims++
	dx, dy := b.sx-a.sx, b.sy-a.sy
	xMajor := abs64(dx) >= abs64(dy)
	var ox, oy int64
	switch s.lineEnd {
	case 0: // horizontal ends: offset along x
		ox = s.lineW
	case 1:
		oy = s.lineW
	case 2: // square: vertical ends for x-major lines (GL's wide lines)
		if xMajor {
			oy = s.lineW
		} else {
			ox = s.lineW
		}
	case 3: // computed: perpendicular to the line
		l := math.Hypot(float64(dx), float64(dy))
		if l == 0 {
			return nil
		}
		ox = int64(math.Round(float64(-dy) / l * float64(s.lineW)))
		oy = int64(math.Round(float64(dx) / l * float64(s.lineW)))
	}
	rule := s.edge[2]
	switch {
	case xMajor && dx < 0:
		rule = s.edge[3]
	case !xMajor && dy > 0:
		rule = s.edge[4]
	case !xMajor:
		rule = s.edge[5]
	}
	xs := []int64{a.sx + ox, b.sx + ox, b.sx - ox, a.sx - ox}
	ys := []int64{a.sy + oy, b.sy + oy, b.sy - oy, a.sy - oy}
	area := (xs[1]-xs[0])*(ys[2]-ys[0]) - (xs[2]-xs[0])*(ys[1]-ys[0])
	if area == 0 {
		return nil
	}
	sign := int64(1)
	if area < 0 {
		sign = -1
	}
	p := &prim{front: front, ne: 4}
	for k := 0; k < 4; k++ {
		p.edges[k] = edgeThrough(xs[k], ys[k], xs[(k+1)%4], ys[(k+1)%4], sign, rule)
	}
	if !s.bbox(p, xs, ys) {
		return nil
	}
	// Attributes vary along the line only: the reference triangle
	// (a-o, b-o, a+o) carries (a, b, a).
	ra, rb, rc := *a, *b, *a
	ra.sx, ra.sy = a.sx-ox, a.sy-oy
	rb.sx, rb.sy = b.sx-ox, b.sy-oy
	rc.sx, rc.sy = a.sx+ox, a.sy+oy
	ref := [3]*vertex{&ra, &rb, &rc}
	rarea := (rb.sx-ra.sx)*(rc.sy-ra.sy) - (rc.sx-ra.sx)*(rb.sy-ra.sy)
	rs := int64(1)
	if rarea < 0 {
		rs = -1
	}
	p.area = rarea * rs
	for k := 0; k < 3; k++ {
		u, w := ref[(k+1)%3], ref[(k+2)%3]
		p.rf[k] = edgeThrough(u.sx, u.sy, w.sx, w.sy, rs, 0)
	}
	if s.lineStuff {
		// [PROP] The stipple accumulator (GA_LINE_STIPPLE_VALUE, L623-628)
		// counts subpixels along the major axis; LINE_RESET 1 restarts it
		// per line, 2 per packet (draw).
		if s.stippleReset == 1 {
			e.regs[r3.GA_LINE_STIPPLE_VALUE>>2] = 0
		}
		p.lineStuff = true
		p.ax, p.ay, p.dx, p.dy = a.sx, a.sy, dx, dy
		p.acc = float64(e.regs[r3.GA_LINE_STIPPLE_VALUE>>2] & 0xFFFFFF)
		p.length = float64(max(abs64(dx), abs64(dy)))
		e.regs[r3.GA_LINE_STIPPLE_VALUE>>2] = uint32(int64(p.acc)+max(abs64(dx), abs64(dy))) & 0xFFFFFF
	}
	return e.queue(s, p, ref[0], ref[1], ref[2])
}

// point rasterises a point as a screen-aligned rectangle (GA_POINT_SIZE
// half sizes, or the per-vertex size clamped by GA_POINT_MINMAX) with the
// ER_POINT rule; stuffed texture coordinates run from (S0, T0) at the
// lower left to (S1, T1) at the upper right (L642-669).
func (e *Engine) point(s *drawState, v *vertex, front bool) error {
	e.Stats.Prims++
	hw, hh := s.pointW, s.pointH
	if s.out.psize {
		// [PROP] The per-vertex size is a diameter in pixels.
		h := int64(math.Round(float64(v.psize) * float64(s.sub) / 2))
		h = max(s.pointMin, min(s.pointMax, h))
		hw, hh = h, h
	}
	if hw <= 0 || hh <= 0 {
		return nil
	}
	p := &prim{flat: true, front: front, stuff: s.pointStuff, ne: 4}
	p.left, p.right, p.top, p.bott = v.sx-hw, v.sx+hw, v.sy-hh, v.sy+hh
	rule := s.edge[1]
	p.edges = [4]edgeFn{
		{a: 1, c: -p.left, in: onEdgeIn(1, 0, rule)},
		{a: -1, c: p.right, in: onEdgeIn(-1, 0, rule)},
		{b: 1, c: -p.top, in: onEdgeIn(0, 1, rule)},
		{b: -1, c: p.bott, in: onEdgeIn(0, -1, rule)},
	}
	if !s.bbox(p, []int64{p.left, p.right}, []int64{p.top, p.bott}) {
		return nil
	}
	return e.queue(s, p, v, v, v)
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// quadState is one 2x2 quad in flight. Pixel i sits at (x + i&1, y + i>>1).
type quadState struct {
	x, y    int
	covered uint8
	killed  uint8
	// active is the pixels the ALU runs for: all four when the program
	// samples textures (helpers feed the LOD), else the covered ones.
	active uint8
	temps  [4][32][4]float32
	attr   [4][48]float64
	z      [4]float64 // window z, linear
	w      [4]float64 // perspective W
	out    [4][4][4]float32
	depth  [4]float32
}

// worker is one worker's scratch state: its quad in flight and its
// counters, summed into the engine's after each batch.
type worker struct {
	q             quadState
	span          *spanWork
	quads, pixels int
	zpass         uint32
	// ezSkip counts spans to shade without the early depth test.
	ezSkip int
}

// scanRows shades the quads whose top row lies in [qy0, qy1).
//
// When every interpolant the fragment program reads has the same value at
// the three vertices (and the program samples no texture), every pixel
// loads the same temps and gets the same results: the program runs once,
// on pixel 0 of a quad, and each quad takes its outputs and kill from
// there (constUS).
func (e *Engine) scanRows(s *drawState, p *prim, w *worker, vals []float64, qy0, qy1 int) error {
	q := &w.q
	constUS := !s.us.tex && !p.stuff && !p.lineStuff && s.rs.constant(vals)
	var cKill bool
	if constUS {
		var a [48]float64
		for j := range s.rs.attrs {
			a[j] = vals[3*j]
		}
		s.rs.load(&q.temps[0], &a, s.us.ntemps)
		q.active, q.killed = 1, 0
		if err := e.runUS(s, q); err != nil {
			return err
		}
		cOut, cDepth := q.out[0], q.depth[0]
		cKill = q.killed&1 != 0
		// runUS no longer runs: every pixel's outputs stay these.
		q.out = [4][4][4]float32{cOut, cOut, cOut, cOut}
		q.depth = [4]float32{cDepth, cDepth, cDepth, cDepth}
	}
	// The interpolated attributes are needed by the program, unless it
	// runs once, and by fog from a colour's alpha.
	attrs := !constUS || (s.fg.fog && s.fogSel < 4)
	spans := smallEdges(p, s.sub)
	allVisible := s.clipRule == 0xFFFF
	qx0 := p.x0 &^ 1
	for qy := qy0; qy < qy1 && qy <= p.y1; qy += 2 {
		// With spans, the pixels of the quad row inside every edge:
		// [lo0, hi0] on row qy, [lo1, hi1] on row qy+1.
		lo0, hi0, lo1, hi1 := qx0, p.x1, qx0, p.x1
		qxs, qxe := qx0, p.x1
		if spans {
			lo0, hi0 = rowSpan(p, s.sub, qy)
			lo1, hi1 = rowSpan(p, s.sub, qy+1)
			qxs, qxe = min(lo0, lo1)&^1, max(hi0, hi1)
		}
		for qx := qxs; qx <= qxe; qx += 2 {
			var cov uint8
			for i := 0; i < 4; i++ {
				x, y := qx+i&1, qy+i>>1
				if x < p.x0 || x > p.x1 || y < p.y0 || y > p.y1 {
					continue
				}
				if spans {
					lo, hi := lo0, hi0
					if i >= 2 {
						lo, hi = lo1, hi1
					}
					if x < lo || x > hi {
						continue
					}
				} else if !p.inside(x, y, s.sub) {
					continue
				}
				if allVisible || s.clipVisible(x, y) {
					cov |= 1 << i
				}
			}
			if cov == 0 {
				continue
			}
			w.quads++
			q.x, q.y, q.covered, q.killed = qx, qy, cov, 0
			q.active = cov
			if s.us.tex {
				q.active = 15
			}
			s.interpolate(p, q, vals, attrs)
			if constUS {
				if cKill {
					q.killed = 15
				}
			} else if err := e.runUS(s, q); err != nil {
				return err
			}
			for i := 0; i < 4; i++ {
				if cov>>i&1 != 0 && q.killed>>i&1 == 0 {
					fr := s.quadFragment(q, i)
					if err := e.pixel(s, p, w, qx+i&1, qy+i>>1, &fr); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// inside reports whether the sample of pixel (x, y) lies inside every
// edge: on the inside side, or on the edge when the edge rule says so.
func (p *prim) inside(x, y int, sub int64) bool {
	px, py := int64(x)*sub+sub/2, int64(y)*sub+sub/2
	for _, f := range p.edgeList() {
		ev := f.eval(px, py)
		if ev < 0 || (ev == 0 && !f.in) {
			return false
		}
	}
	return true
}

// smallEdges reports whether every edge function of p stays far from
// int64 overflow over the bounding box (|a|, |b| < 2^30, |c| < 2^60,
// samples below 2^24 subpixels), so that rowSpan's divisions give exactly
// the pixels inside tests.
func smallEdges(p *prim, sub int64) bool {
	if max(abs64(int64(p.x0)), abs64(int64(p.x1)+1), abs64(int64(p.y0)), abs64(int64(p.y1)+1))*sub >= 1<<24 {
		return false
	}
	for _, f := range p.edgeList() {
		if abs64(f.a) >= 1<<30 || abs64(f.b) >= 1<<30 || abs64(f.c) >= 1<<60 {
			return false
		}
	}
	return true
}

// rowSpan returns the pixels [lo, hi] of row y that inside accepts,
// clipped to the bounding box (lo > hi when there are none). Edge k at
// pixel x is A*x + B with A = a*sub and B = a*sub/2 + b*py + c; inside
// wants it >= 0 when the edge owns its samples, >= 1 otherwise.
func rowSpan(p *prim, sub int64, y int) (lo, hi int) {
	if y < p.y0 || y > p.y1 {
		return 1, 0
	}
	l, h := int64(p.x0), int64(p.x1)
	py := int64(y)*sub + sub/2
	for k := 0; k < p.ne; k++ {
		f := &p.edges[k]
		need := int64(1)
		if f.in {
			need = 0
		}
		a, b := f.a*sub, f.a*(sub/2)+f.b*py+f.c
		switch {
		case a > 0:
			l = max(l, ceilDiv(need-b, a))
		case a < 0:
			h = min(h, floorDiv(b-need, -a))
		case b < need:
			return 1, 0
		}
	}
	if l > h {
		return 1, 0
	}
	return int(l), int(h)
}

// clipVisible applies the four clip rectangles and SC_CLIP_RULE
// (L919-968): the inside flags of the rectangles index the rule's bits.
func (s *drawState) clipVisible(x, y int) bool {
	idx := 0
	for i, r := range s.clipRects {
		if x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3] {
			idx |= 1 << i
		}
	}
	return s.clipRule>>idx&1 != 0
}

// interpolate computes every attribute the RS needs at the quad's four
// sample points (helpers included) and loads the interpolants into the
// temps (only with attrs), and the depth and, when fog reads it, W.
func (s *drawState) interpolate(p *prim, q *quadState, vals []float64, attrs bool) {
	half := s.sub / 2
	na := len(s.rs.attrs)
	needW := s.fg.fog && s.fogSel == 4
	rz, rq := &p.rz, &p.rq
	zConst := rz[0] == rz[1] && rz[1] == rz[2]
	// The linear weights serve the attributes, a sloped Z and W.
	needWL := attrs || !zConst || needW
	for i := 0; i < 4; i++ {
		x, y := q.x+i&1, q.y+i>>1
		px, py := int64(x)*s.sub+half, int64(y)*s.sub+half
		var wl, wp, ev [3]float64
		if p.flat {
			wl, wp = [3]float64{1, 0, 0}, [3]float64{1, 0, 0}
		} else if needWL {
			ar := float64(p.area)
			for k := 0; k < 3; k++ {
				ev[k] = float64(p.rf[k].eval(px, py))
				wl[k] = ev[k] / ar
			}
		}
		if attrs {
			if !p.flat {
				var sum float64
				var t [3]float64
				for k := 0; k < 3; k++ {
					t[k] = float64(ev[k] * rq[k])
					sum += t[k]
				}
				if sum != 0 {
					for k := range wp {
						wp[k] = t[k] / sum
					}
				} else {
					wp = wl
				}
			}
			a := &q.attr[i]
			for j := 0; j < na; j++ {
				v := vals[3*j : 3*j+3]
				if v[0] == v[1] && v[1] == v[2] {
					// A value equal at every vertex is a plane with no
					// slope: exact, whatever the weights' rounding.
					a[j] = v[0]
					continue
				}
				a[j] = float64(wp[0]*v[0]) + float64(wp[1]*v[1]) + float64(wp[2]*v[2])
			}
			if p.stuff {
				s.stuffPoint(p, a, px, py)
			}
			if p.lineStuff {
				s.stuffLine(p, a, px, py)
			}
			s.rs.load(&q.temps[i], a, s.us.ntemps)
		}
		if zConst {
			q.z[i] = rz[0]
		} else {
			q.z[i] = float64(wl[0]*rz[0]) + float64(wl[1]*rz[1]) + float64(wl[2]*rz[2])
		}
		if needW {
			iw := float64(wl[0]*rq[0]) + float64(wl[1]*rq[1]) + float64(wl[2]*rq[2])
			q.w[i] = 1 / iw
		}
	}
}

// stuffPoint replaces the attributes of stuffed texture coordinates.
func (s *drawState) stuffPoint(p *prim, a *[48]float64, px, py int64) {
	fs := float64(px-p.left) / float64(p.right-p.left)
	ft := float64(p.bott-py) / float64(p.bott-p.top)
	st := s.pointST
	sv := float64(st[0]) + float64(fs*float64(st[2]-st[0]))
	tv := float64(st[1]) + float64(ft*float64(st[3]-st[1]))
	for j, r := range s.rs.attrs {
		if r.tex && s.texSource[r.slot] != 0 {
			switch r.comp {
			case 0:
				a[j] = sv
			case 1:
				a[j] = tv
			case 2:
				a[j] = 0
			case 3:
				a[j] = 1
			}
		}
	}
}

// stuffLine replaces stuffed texture coordinates on a line [PROP]: S runs
// from GA_LINE_S0 to GA_LINE_S1 (L607-616) plus the stipple distance
// (accumulator + position along the line, in subpixels) times
// STIPPLE_SCALE; T and R are 0, Q is 1.
func (s *drawState) stuffLine(p *prim, a *[48]float64, px, py int64) {
	l2 := float64(p.dx*p.dx + p.dy*p.dy)
	t := 0.0
	if l2 > 0 {
		t = float64((px-p.ax)*p.dx+(py-p.ay)*p.dy) / l2
	}
	t = math.Max(0, math.Min(1, t))
	sv := s.lineS[0] + float64(t*(s.lineS[1]-s.lineS[0])) + float64((p.acc+float64(t*p.length))*s.stippleScale)
	for j, r := range s.rs.attrs {
		if r.tex && s.texSource[r.slot] != 0 {
			a[j] = [4]float64{sv, 0, 0, 1}[r.comp]
		}
	}
}

// attrRef names one scalar VAP output the RS interpolates.
type attrRef struct {
	tex        bool
	slot, comp int
}

// rsWrite is one temp the RS loads: per component an attribute index, or
// -1 for 0.0 and -2 for 1.0.
type rsWrite struct {
	temp int
	src  [4]int
}

// rsState is RS_COUNT/RS_INST_COUNT/RS_IP/RS_INST decoded (L866-913).
type rsState struct {
	attrs  []attrRef
	writes []rsWrite
	// fog is the attribute index of the fog source colour alpha, or -1.
	fog int
}

func (r *rsState) attr(a attrRef) int {
	for i, x := range r.attrs {
		if x == a {
			return i
		}
	}
	r.attrs = append(r.attrs, a)
	return len(r.attrs) - 1
}

func (e *Engine) prepareRS(s *drawState) error {
	r := &s.rs
	r.fog = -1
	cnt := e.reg(r3.RS_COUNT)
	itCount, icCount := int(cnt&0x7F), int(cnt>>7&15)
	// The packet: texture components in VAP output order, colours in
	// order of presence.
	var texComp []attrRef
	for t := 0; t < 8; t++ {
		for c := 0; c < s.out.texComp[t]; c++ {
			texComp = append(texComp, attrRef{tex: true, slot: t, comp: c})
		}
	}
	var cols []int
	for k := 0; k < 4; k++ {
		if s.out.col[k] {
			cols = append(cols, k)
		}
	}
	if itCount > len(texComp) {
		return faultf("RS_COUNT.IT_COUNT %d exceeds the %d texture components the VAP outputs", itCount, len(texComp))
	}
	if icCount > len(cols) {
		return faultf("RS_COUNT.IC_COUNT %d exceeds the %d colours the VAP outputs", icCount, len(cols))
	}
	n := int(e.reg(r3.RS_INST_COUNT)&15) + 1
	for j := 0; j < n; j++ {
		inst := e.reg(r3.RS_INST_0 + 4*uint32(j))
		if inst>>3&7 != 0 {
			ip := e.reg(r3.RS_IP_0 + 4*(inst&7))
			ptr := int(ip & 63)
			w := rsWrite{temp: int(inst >> 6 & 31)}
			for c := 0; c < 4; c++ {
				sel := int(ip >> (13 + 3*uint(c)) & 7)
				switch {
				case sel < 4:
					if ptr+sel >= itCount {
						return faultf("RS_IP_%d reads texture component %d of an IT_COUNT %d packet", inst&7, ptr+sel, itCount)
					}
					w.src[c] = r.attr(texComp[ptr+sel])
				case sel == 4:
					w.src[c] = -1
				case sel == 5:
					w.src[c] = -2
				default:
					return faultf("RS_IP_%d: SEL %d is reserved", inst&7, sel)
				}
			}
			r.writes = append(r.writes, w)
		}
		if inst>>14&7 != 0 {
			id := inst >> 11 & 7
			ip := e.reg(r3.RS_IP_0 + 4*id)
			ptr := int(ip >> 6 & 7)
			if ptr >= icCount {
				return faultf("RS_IP_%d reads colour %d of an IC_COUNT %d packet", id, ptr, icCount)
			}
			w := rsWrite{temp: int(inst >> 17 & 31)}
			f := ip >> 9 & 15
			// COL_FMT (L905): per component a colour channel or a constant.
			fmts := map[uint32][4]int{
				0: {0, 1, 2, 3}, 1: {0, 1, 2, -1}, 2: {0, 1, 2, -2}, 4: {-1, -1, -1, 3}, 5: {-1, -1, -1, -1},
				6: {-1, -1, -1, -2}, 8: {-2, -2, -2, 3}, 9: {-2, -2, -2, -1}, 10: {-2, -2, -2, -2},
			}
			m, ok := fmts[f]
			if !ok {
				return faultf("RS_IP_%d: COL_FMT %d is reserved", id, f)
			}
			for c, ch := range m {
				w.src[c] = ch
				if ch >= 0 {
					w.src[c] = r.attr(attrRef{slot: cols[ptr], comp: ch})
				}
			}
			r.writes = append(r.writes, w)
		}
	}
	if len(r.attrs) > 44 {
		return faultf("the RS interpolates %d values, more than the simulator's 44", len(r.attrs))
	}
	return nil
}

// appendValues appends, per attribute, its value at the three reference
// vertices a, b, c (interpolate weights them perspective-correctly).
func (r *rsState) appendValues(vals []float64, a, b, c *vertex) []float64 {
	for _, at := range r.attrs {
		for _, v := range [3]*vertex{a, b, c} {
			if at.tex {
				vals = append(vals, float64(v.tex[at.slot][at.comp]))
			} else {
				vals = append(vals, float64(v.col[at.slot][at.comp]))
			}
		}
	}
	return vals
}

// load writes the interpolants into a pixel's temps, rounded to FP24; the
// other temps start at zero [PROP]. Only temps below n, the ones the
// program can read (usProg.ntemps), are cleared.
func (r *rsState) load(t *[32][4]float32, a *[48]float64, n int) {
	clear(t[:n])
	for _, w := range r.writes {
		for c, src := range w.src {
			switch src {
			case -1:
				t[w.temp][c] = 0
			case -2:
				t[w.temp][c] = 1
			default:
				t[w.temp][c] = r3.RoundFP24(a[src])
			}
		}
	}
}

// constant reports whether every attribute the RS loads has the same
// value at the three vertices.
func (r *rsState) constant(vals []float64) bool {
	for _, w := range r.writes {
		for _, src := range w.src {
			if src >= 0 && !(vals[3*src] == vals[3*src+1] && vals[3*src+1] == vals[3*src+2]) {
				return false
			}
		}
	}
	return true
}
