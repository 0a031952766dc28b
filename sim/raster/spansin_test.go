package raster

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpansInMatchesSpans compares SpansIn with Spans over random small
// and large triangles (sub-pixel positions, both windings, edges on pixel
// centres), clips inside, across and outside their bounds, and buffers
// that fill before the last row.
func TestSpansInMatchesSpans(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	narrow := 0
	for i := 0; i < 20000; i++ {
		size := []int64{8, 24, 48, 160, 2000}[r.IntN(5)]
		ox, oy := r.Int64N(1600)-200, r.Int64N(1600)-200
		p := func() Point {
			q := Point{ox + r.Int64N(size), oy + r.Int64N(size)}
			if r.IntN(4) == 0 { // on a pixel centre or edge
				q.X, q.Y = q.X&^7, q.Y&^7
			}
			return q
		}
		tri, ok := Setup(p(), p(), p(), 4)
		if !ok {
			continue
		}
		clip := Rect{int(r.Int64N(120)) - 20, int(r.Int64N(120)) - 20, 0, 0}
		clip.X1, clip.Y1 = clip.X0+r.IntN(140), clip.Y0+r.IntN(140)
		if r.IntN(2) == 0 {
			clip = Rect{-4096, -4096, 4096, 4096}
		}
		for _, n := range []int{1, 2, 3, 64} {
			want := tri.Spans(clip, make([]Span, 0, n))
			for _, rr := range []Rect{tri.Bounds().Intersect(clip), clip} {
				if rr.X1-rr.X0 <= narrowRow && !rr.Empty() {
					narrow++
				}
				got := tri.SpansIn(rr, make([]Span, 0, n))
				require.Equal(t, want, got, "triangle %d, clip %v, buffer %d", i, rr, n)
			}
		}
		require.Equal(t, tri.Spans(clip, nil), tri.SpansIn(tri.Bounds().Intersect(clip), nil), "triangle %d, no buffer", i)
	}
	require.Greater(t, narrow, 20000, "clips scanned pixel by pixel")
}
