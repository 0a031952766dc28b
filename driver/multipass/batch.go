package multipass

import (
	"math"

	"github.com/retrogl/retrogl/driver/swtnl"
)

// Rect is a rectangle of whole pixels in GL window coordinates (x right,
// y up), half-open: pixel (x, y) is inside when X0 <= x < X1 and
// Y0 <= y < Y1.
type Rect struct{ X0, Y0, X1, Y1 int }

// Empty reports whether r holds no pixel.
func (r Rect) Empty() bool { return r.X0 >= r.X1 || r.Y0 >= r.Y1 }

// Intersect returns the pixels in both.
func (r Rect) Intersect(s Rect) Rect {
	return Rect{max(r.X0, s.X0), max(r.Y0, s.Y0), min(r.X1, s.X1), min(r.Y1, s.Y1)}
}

// Union returns the smallest rectangle holding both (an empty one counts
// as nothing).
func (r Rect) Union(s Rect) Rect {
	if r.Empty() {
		return s
	}
	if s.Empty() {
		return r
	}
	return Rect{min(r.X0, s.X0), min(r.Y0, s.Y0), max(r.X1, s.X1), max(r.Y1, s.Y1)}
}

// W and H are the rectangle's size.
func (r Rect) W() int { return r.X1 - r.X0 }

// H is the rectangle's height.
func (r Rect) H() int { return r.Y1 - r.Y0 }

// Footprint says how the chip draws points and lines, so that the batcher
// and the software stage cover the pixels the chip does.
type Footprint struct {
	// PointSize is the side, in pixels, of the square a point covers.
	PointSize func(v *swtnl.Vertex) float32
	// LineHalf is half the width of a line, in pixels: lines are
	// rectangles widened across their minor axis, as GL's aliased wide
	// lines are.
	LineHalf float32
	// Snap centres aliased (non-sprite) points as GL ES 1.1 section 3.3
	// does: on a pixel centre for odd sizes, on a pixel corner for even
	// ones.
	Snap bool
}

// PointQuad returns the corners of a point's square in window
// coordinates: lower left, lower right, upper right, upper left.
func (fp Footprint) PointQuad(v *swtnl.Vertex) [4][2]float32 {
	size := fp.PointSize(v)
	x, y, h := v.Win[0], v.Win[1], size/2
	if fp.Snap {
		x, y = snapCentre(x, size), snapCentre(y, size)
	}
	return [4][2]float32{{x - h, y - h}, {x + h, y - h}, {x + h, y + h}, {x - h, y + h}}
}

// snapCentre places an aliased point's centre coordinate: floor(x) + 1/2
// for odd sizes, floor(x + 1/2) for even ones.
func snapCentre(x, size float32) float32 {
	if int(size)%2 == 1 {
		return float32(math.Floor(float64(x))) + 0.5
	}
	return float32(math.Floor(float64(x) + 0.5))
}

// LineQuad returns the corners of a wide line from a to b: a's two
// corners, then b's, offset by half across the minor axis and moved half a
// pixel back along the major axis. GL's aliased line (ES 1.1 section
// 3.4.1, the diamond-exit rule) takes the columns (of an x-major line)
// whose pixel diamond the segment leaves: the one it starts in, not the
// one it ends in, so the columns whose centres lie in (xa - 1/2, xb - 1/2]
// going right; a wide line is those columns, each w fragments tall. A quad
// sampled at pixel centres covers [xa, xb), hence the half-pixel move
// toward a.
func LineQuad(a, b *swtnl.Vertex, half float32) [4][2]float32 {
	ax, ay, bx, by := a.Win[0], a.Win[1], b.Win[0], b.Win[1]
	var ox, oy float32
	if abs32(bx-ax) >= abs32(by-ay) {
		oy = half
		d := float32(-0.5)
		if bx < ax {
			d = 0.5
		}
		ax, bx = ax+d, bx+d
	} else {
		ox = half
		d := float32(-0.5)
		if by < ay {
			d = 0.5
		}
		ay, by = ay+d, by+d
	}
	return [4][2]float32{{ax - ox, ay - oy}, {ax + ox, ay + oy}, {bx + ox, by + oy}, {bx - ox, by - oy}}
}

func abs32(v float32) float32 { return float32(math.Abs(float64(v))) }

// Batch is a run of a draw's primitives no two of which cover the same
// pixel, in the draw's order.
type Batch struct {
	// Mesh holds the batch's primitives (one kind per draw).
	Mesh swtnl.Mesh
	// Box holds every pixel the primitives may cover.
	Box Rect
}

// shape is a primitive's screen footprint: a convex polygon (3 or 4
// corners, counter-clockwise or clockwise) and its pixel box.
type shape struct {
	pts [4][2]float64
	n   int
	box Rect
}

func newShape(pts [][2]float32) shape {
	var s shape
	s.n = len(pts)
	x0, y0 := math.Inf(1), math.Inf(1)
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for i, p := range pts {
		s.pts[i] = [2]float64{float64(p[0]), float64(p[1])}
		x0, x1 = math.Min(x0, s.pts[i][0]), math.Max(x1, s.pts[i][0])
		y0, y1 = math.Min(y0, s.pts[i][1]), math.Max(y1, s.pts[i][1])
	}
	// Every pixel whose centre may lie inside, with a pixel to spare for
	// the chip's sub-pixel snapping.
	s.box = Rect{clampInt(math.Floor(x0) - 1), clampInt(math.Floor(y0) - 1), clampInt(math.Ceil(x1) + 1), clampInt(math.Ceil(y1) + 1)}
	return s
}

func clampInt(v float64) int {
	if !(v > -1<<20) {
		return -1 << 20
	}
	if v > 1<<20 {
		return 1 << 20
	}
	return int(v)
}

// margin is how far (pixels) a corner must lie beyond a separating edge
// unless it is a corner of that edge too: two chips may snap the same
// window position to sub-pixels a sixteenth apart, so corners that are not
// exactly shared are kept well apart.
const margin = 1.0 / 8

// apart reports whether s and t cannot cover a common pixel: some edge of
// one has the other entirely on its outer side (corners shared with the
// edge may lie on it; a chip's fill rule gives a pixel on a shared edge to
// one side only).
func apart(s, t *shape) bool {
	if s.box.Intersect(t.box).Empty() {
		return true
	}
	return separates(s, t) || separates(t, s)
}

func separates(s, t *shape) bool {
	// Orientation of s, so "outside" is known.
	var area float64
	for i := 0; i < s.n; i++ {
		p, q := s.pts[i], s.pts[(i+1)%s.n]
		area += p[0]*q[1] - q[0]*p[1]
	}
	if area == 0 {
		return false
	}
	sign := 1.0
	if area < 0 {
		sign = -1
	}
	for i := 0; i < s.n; i++ {
		p, q := s.pts[i], s.pts[(i+1)%s.n]
		ex, ey := q[0]-p[0], q[1]-p[1]
		l := math.Hypot(ex, ey)
		if l == 0 {
			continue
		}
		ok := true
		for j := 0; j < t.n; j++ {
			v := t.pts[j]
			// Signed distance, positive inside s.
			d := sign * (ex*(v[1]-p[1]) - ey*(v[0]-p[0])) / l
			shared := v == p || v == q
			if shared && d <= 0 || d <= -margin {
				continue
			}
			// A corner on the edge's line beyond an end the two shapes
			// share (the spokes of a fan) touches s at that end only.
			if d <= margin && (v != p && v != q) && beyond(p, q, v, t) {
				continue
			}
			ok = false
			break
		}
		if ok {
			return true
		}
	}
	return false
}

// beyond reports whether v lies past an end of segment pq that is also a
// corner of t.
func beyond(p, q, v [2]float64, t *shape) bool {
	has := func(c [2]float64) bool {
		for j := 0; j < t.n; j++ {
			if t.pts[j] == c {
				return true
			}
		}
		return false
	}
	ex, ey := q[0]-p[0], q[1]-p[1]
	f := ((v[0]-p[0])*ex + (v[1]-p[1])*ey) / (ex*ex + ey*ey)
	return f < 0 && has(p) || f > 1 && has(q)
}

// Shapes returns the screen footprints of a mesh's primitives, in order.
func shapes(m *swtnl.Mesh, fp Footprint) []shape {
	var out []shape
	for i := 0; i+2 < len(m.Triangles); i += 3 {
		t := m.Triangles[i : i+3]
		out = append(out, newShape([][2]float32{{t[0].Win[0], t[0].Win[1]}, {t[1].Win[0], t[1].Win[1]}, {t[2].Win[0], t[2].Win[1]}}))
	}
	for i := 0; i+1 < len(m.Lines); i += 2 {
		q := LineQuad(&m.Lines[i], &m.Lines[i+1], fp.LineHalf)
		out = append(out, newShape(q[:]))
	}
	for i := range m.Points {
		q := fp.PointQuad(&m.Points[i])
		out = append(out, newShape(q[:]))
	}
	return out
}

// cell is the side of the grid that finds a new primitive's neighbours in
// the batch being built.
const cell = 32

// Batches splits a mesh into runs of primitives that do not overlap,
// keeping their order; each batch's box is clipped to bounds. A draw's
// mesh holds one kind of primitive.
func Batches(m *swtnl.Mesh, fp Footprint, bounds Rect) []Batch {
	shs := shapes(m, fp)
	var out []Batch
	var cur []int
	grid := map[[2]int][]int{}
	flush := func() {
		if len(cur) == 0 {
			return
		}
		var b Batch
		for _, i := range cur {
			b.Box = b.Box.Union(shs[i].box)
			switch {
			case len(m.Triangles) > 0:
				b.Mesh.Triangles = append(b.Mesh.Triangles, m.Triangles[3*i:3*i+3]...)
				if len(m.Facing) > i {
					b.Mesh.Facing = append(b.Mesh.Facing, m.Facing[i])
				}
			case len(m.Lines) > 0:
				b.Mesh.Lines = append(b.Mesh.Lines, m.Lines[2*i:2*i+2]...)
			default:
				b.Mesh.Points = append(b.Mesh.Points, m.Points[i])
			}
		}
		b.Box = b.Box.Intersect(bounds)
		if !b.Box.Empty() {
			out = append(out, b)
		}
		cur = cur[:0]
		clear(grid)
	}
	cells := func(r Rect, f func(k [2]int) bool) {
		r = r.Intersect(bounds)
		for cy := floorDiv(r.Y0, cell); cy <= floorDiv(r.Y1-1, cell); cy++ {
			for cx := floorDiv(r.X0, cell); cx <= floorDiv(r.X1-1, cell); cx++ {
				if !f([2]int{cx, cy}) {
					return
				}
			}
		}
	}
	for i := range shs {
		s := &shs[i]
		if s.box.Intersect(bounds).Empty() {
			continue
		}
		clash := false
		seen := map[int]bool{}
		cells(s.box, func(k [2]int) bool {
			for _, j := range grid[k] {
				if !seen[j] {
					seen[j] = true
					if !apart(s, &shs[j]) {
						clash = true
						return false
					}
				}
			}
			return true
		})
		if clash {
			flush()
		}
		cur = append(cur, i)
		cells(s.box, func(k [2]int) bool {
			grid[k] = append(grid[k], i)
			return true
		})
	}
	flush()
	return out
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
