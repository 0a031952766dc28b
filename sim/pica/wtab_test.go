package pica

import (
	"math/rand/v2"
	"testing"

	"github.com/retrogl/retrogl/sim/raster"
	"github.com/stretchr/testify/require"
)

// TestWeightTables checks zTab's weights against the reference's division
// float64(e)/area at every pixel of rows of screen-aligned and grid
// triangles (small denominators) and of random ones (the tables refuse a
// large one), and gcd64 against Euclid's algorithm.
func TestWeightTables(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var c weightTabs
	tables := 0
	for trial := 0; trial < 400; trial++ {
		grid := []int64{16, 8 * 16, 1}[trial%3]
		pt := func() raster.Point {
			return raster.Point{X: r.Int64N(6400/grid+1) * grid, Y: r.Int64N(3840/grid+1) * grid}
		}
		p0, p1, p2 := pt(), pt(), pt()
		if trial%2 == 0 { // half a screen-aligned quad
			p1.X, p2.Y = p0.X, p0.Y
		}
		tri, ok := raster.Setup(p0, p1, p2, subBits)
		if !ok {
			continue
		}
		pr := &prim{tri: tri, area: float64(tri.Area)}
		for _, s := range tri.Spans(raster.Rect{X1: 400, Y1: 240}, make([]raster.Span, 0, 240)) {
			n := min(s.X1-s.X0, stepN)
			var zt zTab
			if !zt.setup(&c, pr, &s.E, &s.DX, n) {
				continue
			}
			tables++
			for i := 0; i < n; i++ {
				for k := 0; k < 3; k++ {
					want := float64(s.E[k]+int64(i)*s.DX[k]) / pr.area
					require.Equal(t, want, zt.t[k][zt.j[k]+int64(i)*zt.d[k]], "trial %d row %d pixel %d edge %d", trial, s.Y, i, k)
				}
			}
		}
	}
	require.Greater(t, tables, 1000)
	for i := 0; i < 1000; i++ {
		a, b := r.Uint64N(1<<40), r.Uint64N(1<<20)
		x, y := a, b
		for y != 0 {
			x, y = y, x%y
		}
		require.Equal(t, x, gcd64(a, b), "gcd(%d, %d)", a, b)
	}
}
