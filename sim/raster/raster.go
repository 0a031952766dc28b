// Package raster is the triangle walker the simulated chips share: exact
// integer edge functions over fixed-point vertex positions, a top-left fill
// rule, and rows handed out as spans with the edge values a chip needs to
// interpolate its attributes. Each chip chooses its sub-pixel precision
// (Sub fractional bits) and does its own per-pixel work; the walker decides
// only which pixels a triangle covers.
//
// Fill rule: a pixel belongs to a triangle when its centre (x+0.5, y+0.5)
// lies strictly inside, or exactly on an edge that is a top edge (horizontal,
// with the triangle below it, y growing downwards) or a left edge. Two
// triangles sharing an edge therefore never both cover a pixel on it, and a
// mesh covers every pixel once.
package raster

// Point is a vertex position in fixed point with Sub fractional bits, in
// window coordinates with y growing downwards (row 0 on top).
type Point struct{ X, Y int64 }

// Rect is a pixel rectangle [X0, X1) x [Y0, Y1).
type Rect struct{ X0, Y0, X1, Y1 int }

// Intersect returns the intersection of two rectangles.
func (r Rect) Intersect(o Rect) Rect {
	return Rect{max(r.X0, o.X0), max(r.Y0, o.Y0), min(r.X1, o.X1), min(r.Y1, o.Y1)}
}

// Empty reports whether the rectangle has no pixels.
func (r Rect) Empty() bool { return r.X0 >= r.X1 || r.Y0 >= r.Y1 }

// Triangle is a set-up triangle.
type Triangle struct {
	v   [3]Point
	sub uint
	// Area is twice the triangle's area in fixed units squared; always
	// positive. Barycentric weight i at a pixel is E[i]/Area.
	Area int64
	// CW is set when the vertices, as given, run clockwise on the screen
	// (y down). Weights are reported in the caller's vertex order either
	// way.
	CW bool
	// edge k opposite vertex k: E_k(p) = A_k*px + B_k*py + C_k.
	a, b, c [3]int64
	bias    [3]int64
}

// Setup prepares a triangle from positions with sub fractional bits. It
// returns false for a degenerate (zero-area) triangle.
func Setup(p0, p1, p2 Point, sub uint) (Triangle, bool) {
	t := Triangle{v: [3]Point{p0, p1, p2}, sub: sub}
	// Twice the signed area; positive when p0, p1, p2 run clockwise on a
	// y-down screen.
	area := (p1.X-p0.X)*(p2.Y-p0.Y) - (p1.Y-p0.Y)*(p2.X-p0.X)
	if area == 0 {
		return t, false
	}
	t.CW = area > 0
	if area < 0 {
		area = -area
	}
	t.Area = area
	for k := 0; k < 3; k++ {
		// Edge opposite vertex k runs from vertex k+1 to vertex k+2.
		a, b := t.v[(k+1)%3], t.v[(k+2)%3]
		// E(p) = (b.X-a.X)*(p.Y-a.Y) - (b.Y-a.Y)*(p.X-a.X), positive on
		// the side of vertex k for clockwise triangles.
		ea := -(b.Y - a.Y)
		eb := b.X - a.X
		ec := -(ea*a.X + eb*a.Y)
		if !t.CW {
			ea, eb, ec = -ea, -eb, -ec
		}
		t.a[k], t.b[k], t.c[k] = ea, eb, ec
		// Top-left: with E >= 0 inside, an edge is a left edge when
		// moving right increases E (ea > 0), and a top edge when it is
		// horizontal and moving down increases E (ea == 0, eb > 0).
		if ea > 0 || (ea == 0 && eb > 0) {
			t.bias[k] = 0
		} else {
			t.bias[k] = -1
		}
	}
	return t, true
}

// Bounds returns the pixel rectangle that can contain covered pixels.
func (t *Triangle) Bounds() Rect {
	one := int64(1) << t.sub
	half := one >> 1
	minX, maxX := t.v[0].X, t.v[0].X
	minY, maxY := t.v[0].Y, t.v[0].Y
	for _, p := range t.v[1:] {
		minX, maxX = min(minX, p.X), max(maxX, p.X)
		minY, maxY = min(minY, p.Y), max(maxY, p.Y)
	}
	// Pixel x covers centre x*one+half.
	return Rect{
		X0: int(floorDiv(minX-half, one)), Y0: int(floorDiv(minY-half, one)),
		X1: int(floorDiv(maxX-half, one)) + 2, Y1: int(floorDiv(maxY-half, one)) + 2,
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

// Span is one row of covered pixels [X0, X1) on row Y. E holds the three
// unbiased edge values at the centre of pixel (X0, Y) in the caller's vertex
// order (E[i] is vertex i's barycentric weight times Area), and DX their
// change per pixel step to the right.
type Span struct {
	Y, X0, X1 int
	E, DX     [3]int64
}

// Walk calls fn for every non-empty row span inside clip, top to bottom.
// The Span is reused between calls.
func (t *Triangle) Walk(clip Rect, fn func(s *Span)) {
	var buf [8]Span
	s := new(Span)
	for {
		spans := t.Spans(clip, buf[:0])
		for i := range spans {
			*s = spans[i]
			fn(s)
		}
		if len(spans) < len(buf) {
			return
		}
		clip.Y0 = spans[len(spans)-1].Y + 1
	}
}

// WalkBuf is Walk with the caller's span buffer (its capacity is used; a
// buffer without capacity gets one span): fn gets a pointer into it, so a caller that keeps one buffer per worker
// walks any number of triangles without allocating (Walk allocates its
// Span, which escapes to fn).
func (t *Triangle) WalkBuf(clip Rect, buf []Span, fn func(s *Span)) {
	if cap(buf) == 0 {
		buf = make([]Span, 0, 1)
	}
	for {
		spans := t.Spans(clip, buf[:0])
		for i := range spans {
			fn(&spans[i])
		}
		if len(spans) < cap(buf) {
			return
		}
		clip.Y0 = spans[len(spans)-1].Y + 1
	}
}

// Spans appends the triangle's non-empty row spans inside clip, top to
// bottom, to buf, as many as buf has room for (at least one when it has
// none: it grows), and returns it: a caller that walks many small
// triangles keeps one buffer and allocates nothing. When the result is as
// long as buf's capacity, more rows may follow below its last span.
func (t *Triangle) Spans(clip Rect, buf []Span) []Span {
	if cap(buf) == 0 {
		buf = make([]Span, 0, 1)
	}
	r := t.Bounds().Intersect(clip)
	if r.Empty() {
		return buf
	}
	one := int64(1) << t.sub
	half := one >> 1
	for y := r.Y0; y < r.Y1 && len(buf) < cap(buf); y++ {
		py := int64(y)*one + half
		lo, hi := int64(r.X0), int64(r.X1)-1 // inclusive pixel range
		for k := 0; k < 3; k++ {
			// E_k(x) = a*(x*one+half) + b*py + c + bias >= 0
			ea := t.a[k] * one
			e0 := t.a[k]*half + t.b[k]*py + t.c[k] + t.bias[k]
			switch {
			case ea > 0:
				lo = max(lo, ceilDiv(-e0, ea))
			case ea < 0:
				hi = min(hi, floorDiv(e0, -ea))
			default:
				if e0 < 0 {
					lo, hi = 1, 0
				}
			}
		}
		if lo > hi {
			continue
		}
		s := Span{Y: y, X0: int(lo), X1: int(hi) + 1}
		px := lo*one + half
		for k := 0; k < 3; k++ {
			s.E[k] = t.a[k]*px + t.b[k]*py + t.c[k]
			s.DX[k] = t.a[k] * one
		}
		buf = append(buf, s)
	}
	return buf
}

// Covers reports whether the pixel (x, y) is covered; it is the fill rule
// applied to one pixel, for tests and point queries.
func (t *Triangle) Covers(x, y int) bool {
	one := int64(1) << t.sub
	half := one >> 1
	px, py := int64(x)*one+half, int64(y)*one+half
	for k := 0; k < 3; k++ {
		if t.a[k]*px+t.b[k]*py+t.c[k]+t.bias[k] < 0 {
			return false
		}
	}
	return true
}
