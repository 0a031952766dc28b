package raster

// narrowRow is the widest clip (pixels) whose rows SpansIn scans pixel by
// pixel.
const narrowRow = 8

// SpansIn returns what Spans(r, buf) returns, for a caller that has
// intersected its clip with the triangle's bounds already (r =
// t.Bounds().Intersect(clip), as a batch of set-up triangles keeps it):
// the bounds are not computed again. When r is at most narrowRow pixels
// wide (a small triangle), each row is scanned pixel by pixel with the
// three edge values stepped by addition instead of dividing for the row's
// ends: a row's covered pixels are contiguous (the intersection of three
// half-lines), and the first and last pixel with every biased edge value
// at or above zero are exactly the ends Spans' divisions find, clamped to
// r. Any r gives Spans' result (a pixel outside the bounds is never
// covered); one far outside the bounds only costs rows that are scanned
// for nothing. TestSpansInMatchesSpans compares the two.
func (t *Triangle) SpansIn(r Rect, buf []Span) []Span {
	if r.X1-r.X0 > narrowRow {
		return t.Spans(r, buf)
	}
	if cap(buf) == 0 {
		buf = make([]Span, 0, 1)
	}
	if r.Empty() {
		return buf
	}
	one := int64(1) << t.sub
	half := one >> 1
	// The biased edge values at the centre of pixel (r.X0, y), stepped
	// from row to row by b·one, and along the row by a·one: the same
	// integers Spans' products give.
	px0, py0 := int64(r.X0)*one+half, int64(r.Y0)*one+half
	d0, d1, d2 := t.a[0]*one, t.a[1]*one, t.a[2]*one
	v0, v1, v2 := t.b[0]*one, t.b[1]*one, t.b[2]*one
	f0 := t.a[0]*px0 + t.b[0]*py0 + t.c[0] + t.bias[0]
	f1 := t.a[1]*px0 + t.b[1]*py0 + t.c[1] + t.bias[1]
	f2 := t.a[2]*px0 + t.b[2]*py0 + t.c[2] + t.bias[2]
	for y := r.Y0; y < r.Y1 && len(buf) < cap(buf); y, f0, f1, f2 = y+1, f0+v0, f1+v1, f2+v2 {
		e0, e1, e2 := f0, f1, f2
		x := r.X0
		for x < r.X1 && (e0 < 0 || e1 < 0 || e2 < 0) {
			e0, e1, e2 = e0+d0, e1+d1, e2+d2
			x++
		}
		if x == r.X1 {
			continue
		}
		// The span's unbiased edge values at its first pixel.
		s := Span{Y: y, X0: x, E: [3]int64{e0 - t.bias[0], e1 - t.bias[1], e2 - t.bias[2]}, DX: [3]int64{d0, d1, d2}}
		for x++; x < r.X1; x++ {
			e0, e1, e2 = e0+d0, e1+d1, e2+d2
			if e0 < 0 || e1 < 0 || e2 < 0 {
				break
			}
		}
		s.X1 = x
		buf = append(buf, s)
	}
	return buf
}
