package pica

import (
	"encoding/binary"
	"math"
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

// TestAll16 checks depthRunZ's whole-tile-row test and write (all16)
// against the pixel-at-a-time one (z16) for ALWAYS, LEQUAL and GEQUAL, on
// depths at, next to and far from the stored ones, with and without the
// write: when all16 takes the row it must write what z16 writes and every
// pixel must pass; when it does not, nothing may have changed.
func TestAll16(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	offs := [8]int{0, 2, 8, 10, 32, 34, 40, 42}
	took := 0
	for k := 0; k < 20000; k++ {
		mask := []uint32{7, 3, 6, 2}[r.IntN(4)]
		wm := []uint32{0, 0xFFFFFF}[r.IntN(2)]
		var buf [44]byte
		for i := range buf {
			buf[i] = byte(r.Uint32())
		}
		var z [8]uint32
		for i, o := range offs {
			d := uint32(binary.LittleEndian.Uint16(buf[o:]))
			switch r.IntN(4) {
			case 0:
				z[i] = d
			case 1:
				z[i] = min(0xFFFF, d+1)
			case 2:
				z[i] = max(1, d) - 1
			default:
				z[i] = r.Uint32() & 0xFFFF
			}
			if r.IntN(3) == 0 {
				z[i] = []uint32{0, 0xFFFF, 0x7FFF, 0x8000}[r.IntN(4)]
			}
		}
		want := buf
		var wantPass uint64
		for i, o := range offs {
			wantPass |= z16((*[2]byte)(want[o:o+2]), z[i], mask, wm) << i
		}
		got := buf
		if all16(&got, &z, mask, wm) {
			took++
			require.Equal(t, uint64(0xFF), wantPass, "mask %d z %v", mask, z)
			require.Equal(t, want, got, "mask %d z %v", mask, z)
		} else {
			require.Equal(t, buf, got, "mask %d z %v", mask, z)
			require.True(t, mask == 2 || wantPass != 0xFF, "mask %d z %v: all pass but not taken", mask, z)
		}
	}
	require.Greater(t, took, 1000)
}

// TestRecip checks colorAt's reciprocal against the division at and
// around the tabulated floats near 1 and elsewhere.
func TestRecip(t *testing.T) {
	one := math.Float64bits(1)
	for b := -40; b <= 40; b++ {
		q := math.Float64frombits(one + uint64(int64(b)))
		require.Equal(t, math.Float64bits(1/q), math.Float64bits(recip(q)), "q %v", q)
	}
	for _, q := range []float64{0.5, 2, 0.999, 1.001, -1, 3} {
		require.Equal(t, math.Float64bits(1/q), math.Float64bits(recip(q)), "q %v", q)
	}
}
