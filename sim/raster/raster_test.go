package raster

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func pt(x, y float64) Point { return Point{int64(x * 16), int64(y * 16)} }

func cover(t *testing.T, grid map[[2]int]int, a, b, c Point) {
	t.Helper()
	tri, ok := Setup(a, b, c, 4)
	require.True(t, ok)
	tri.Walk(Rect{0, 0, 64, 64}, func(s *Span) {
		for x := s.X0; x < s.X1; x++ {
			grid[[2]int{x, s.Y}]++
			assert.True(t, tri.Covers(x, s.Y), "span pixel %d,%d agrees with Covers", x, s.Y)
		}
	})
}

// TestSharedEdgesCoverOnce tiles a square with triangles in both windings
// and with vertices on pixel centres, edges and corners: every pixel inside
// is covered exactly once.
func TestSharedEdgesCoverOnce(t *testing.T) {
	for _, off := range []float64{0, 0.5, 0.25, 0.0625} {
		grid := map[[2]int]int{}
		p := func(x, y float64) Point { return pt(x+off, y+off) }
		// A fan of 8 triangles around (8, 8) within the square 0..16.
		ring := []Point{p(0, 0), p(8, 0), p(16, 0), p(16, 8), p(16, 16), p(8, 16), p(0, 16), p(0, 8)}
		for i := range ring {
			a, b := ring[i], ring[(i+1)%len(ring)]
			if i%2 == 0 {
				cover(t, grid, p(8, 8), a, b)
			} else {
				cover(t, grid, p(8, 8), b, a) // the other winding
			}
		}
		n := 0
		for k, v := range grid {
			assert.Equal(t, 1, v, "offset %v: pixel %v covered %d times", off, k, v)
			n++
		}
		assert.Equal(t, 256, n, "offset %v: a 16x16 square holds 256 pixel centres", off)
	}
}

func TestTopLeftRule(t *testing.T) {
	// A 2x2 square from (1,1) to (3,3) as two triangles: pixel centres at
	// 1.5 and 2.5 are inside; a square from (1.5,1.5) to (3.5,3.5) puts the
	// top and left edges on centres (covered) and the bottom and right
	// edges on centres (not covered).
	grid := map[[2]int]int{}
	cover(t, grid, pt(1.5, 1.5), pt(3.5, 1.5), pt(3.5, 3.5))
	cover(t, grid, pt(1.5, 1.5), pt(3.5, 3.5), pt(1.5, 3.5))
	assert.Equal(t, map[[2]int]int{{1, 1}: 1, {2, 1}: 1, {1, 2}: 1, {2, 2}: 1}, grid)
}

func TestSetupAndWeights(t *testing.T) {
	_, ok := Setup(pt(0, 0), pt(1, 1), pt(2, 2), 4)
	assert.False(t, ok, "degenerate")
	tri, ok := Setup(pt(0, 0), pt(8, 0), pt(0, 8), 4)
	require.True(t, ok)
	assert.True(t, tri.CW, "clockwise on a y-down screen")
	tri.Walk(Rect{0, 0, 1, 1}, func(s *Span) {
		// Pixel (0,0) centre (0.5, 0.5): weights 7/8, 1/16, 1/16.
		assert.Equal(t, [3]int64{tri.Area * 14 / 16, tri.Area / 16, tri.Area / 16}, s.E)
	})
}

// TestSpansMatchWalk checks that Spans, resumed below its last span
// whenever a small buffer fills, gives Walk's spans.
func TestSpansMatchWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	clip := Rect{3, 2, 60, 50}
	for _, tri := range randomTris(r, 300, 64, 48, false) {
		var walked []Span
		tri.Walk(clip, func(s *Span) { walked = append(walked, *s) })
		for _, n := range []int{0, 1, 3} {
			var got []Span
			c := clip
			for {
				spans := tri.Spans(c, make([]Span, 0, n))
				got = append(got, spans...)
				if len(spans) == 0 || len(spans) < cap(spans) {
					break
				}
				c.Y0 = spans[len(spans)-1].Y + 1
			}
			require.Equal(t, walked, got, "buffer of %d", n)
		}
	}
}

// TestWalkBufMatchesWalk checks that WalkBuf gives Walk's spans for every
// buffer size, and that with a buffer it allocates nothing.
func TestWalkBufMatchesWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	clip := Rect{3, 2, 60, 50}
	for _, tri := range randomTris(r, 300, 64, 48, false) {
		var walked []Span
		tri.Walk(clip, func(s *Span) { walked = append(walked, *s) })
		for _, n := range []int{0, 1, 3, 8} {
			var got []Span
			tri.WalkBuf(clip, make([]Span, 0, n), func(s *Span) { got = append(got, *s) })
			require.Equal(t, walked, got, "buffer of %d", n)
		}
	}
	tri, ok := Setup(pt(0, 0), pt(30, 2), pt(5, 40), 4)
	require.True(t, ok)
	want := 0
	tri.Walk(clip, func(s *Span) { want++ })
	buf := make([]Span, 4)
	rows := 0
	allocs := testing.AllocsPerRun(10, func() {
		rows = 0
		tri.WalkBuf(clip, buf, func(s *Span) { rows++ })
	})
	assert.Equal(t, want, rows)
	assert.Greater(t, rows, 30, "the triangle spans rows 2..39")
	assert.Zero(t, allocs, "WalkBuf allocates nothing")
}
