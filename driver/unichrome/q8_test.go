package unichrome

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver/swtnl"
	uc "github.com/retrogl/retrogl/hal/unichrome"
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

// TestPlainWords compares plainWords with vertexTo for a draw with
// neither texture nor fog, over random window positions and colours
// (NaN and values outside [0, 1] among them).
func TestPlainWords(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	f := func() float32 {
		if r.Intn(30) == 0 {
			return float32(math.NaN())
		}
		return r.Float32()*1.4 - 0.2
	}
	ds := &drawSetup{height: 480, mask: uc.MaskX | uc.MaskY | uc.MaskZ | uc.MaskCd}
	require.Equal(t, 4, ds.words())
	vs := make([]swtnl.Vertex, 300)
	for i := range vs {
		vs[i].Win = [4]float32{f() * 640, f() * 480, f(), f()}
		vs[i].Color = [4]float32{f(), f(), f(), f()}
	}
	got := make([]uint32, 4*len(vs))
	plainWords(got, vs, ds.height)
	var c Context
	want := make([]uint32, 4*len(vs))
	for i := range vs {
		c.vertexTo(ds, &vs[i], [2]float32{}, want[4*i:])
	}
	require.Equal(t, want, got)
}
