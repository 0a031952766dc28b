package r300

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestQuotRN compares quotRN with the float64 division: exhaustively for
// areas below 300 and numerators in [-2a-3, 2a+3], then at random pairs
// over the whole range (numerators near multiples of the area, random
// 53-bit numerators, ±0, e = ±a and e = k·a), counting the pairs that
// took the quick answer so the test fails if the fast path is never taken.
func TestQuotRN(t *testing.T) {
	quick := 0
	check := func(e, a float64) {
		ra := 1 / a
		want := e / a
		got := quotRN(e, a, ra)
		if math.Float64bits(got) != math.Float64bits(want) {
			require.Failf(t, "quotRN differs", "e=%v a=%v: got %v (%#x), division %v (%#x)",
				e, a, got, math.Float64bits(got), want, math.Float64bits(want))
		}
		if q := e * ra; math.Float64bits(q) == math.Float64bits(got) && q != 0 && e != a {
			quick++
		}
	}
	for a := 1; a < 300; a++ {
		for e := -2*a - 3; e <= 2*a+3; e++ {
			check(float64(e), float64(a))
		}
	}
	r := rand.New(rand.NewPCG(5, 7))
	for i := 0; i < 2_000_000; i++ {
		a := float64(1 + r.Int64N(1<<(1+r.IntN(51))-1))
		var e float64
		switch r.IntN(6) {
		case 0:
			e = float64(r.Int64N(1<<53)) * float64(1-2*r.IntN(2))
		case 1:
			e = float64(r.Int64N(1 << (1 + r.IntN(53))))
			e = math.Copysign(e, float64(r.IntN(2))-0.5)
		case 2:
			// Near a multiple of the area: quotients near integers and
			// near simple fractions.
			k := r.Int64N(4) + 1
			e = math.Round(a*float64(k)/float64(r.IntN(8)+1)) + float64(r.IntN(5)-2)
		case 3:
			e = a * float64(r.IntN(5)-2)
		case 4:
			e = [...]float64{0, math.Copysign(0, -1), a, -a, 1, -1}[r.IntN(6)]
		default:
			e = float64(r.Int64N(int64(a)*2+1)) - a
		}
		if math.Abs(e) >= 1<<53 {
			continue
		}
		check(e, a)
	}
	require.Greater(t, quick, 1_000_000, "the quick answer taken")
}
