package unichrome

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestQ8 compares q8 with q8Clamped, the clamp and floor it replaces: the
// float32 values around every rounding edge (k+1/2)/255, the ends of
// [0, 1], the special values and random bit patterns.
func TestQ8(t *testing.T) {
	check := func(v float32) {
		require.Equal(t, q8Clamped(v), q8(v), "v=%v (%#08x)", v, math.Float32bits(v))
	}
	for k := 0; k <= 256; k++ {
		edge := float32((float64(k) + 0.5) / 255)
		b := math.Float32bits(edge)
		for d := uint32(0); d < 64; d++ {
			check(math.Float32frombits(b + d))
			check(math.Float32frombits(b - d))
		}
	}
	for _, v := range []float32{0, float32(math.Copysign(0, -1)), 1, math.Nextafter32(1, 2), math.Nextafter32(0, -1),
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 0.5, 1.0 / 255, 254.5 / 255} {
		check(v)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 1<<20; i++ {
		check(math.Float32frombits(r.Uint32()))
		check(r.Float32())
	}
}
