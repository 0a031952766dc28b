package pica

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestColorSaturate checks fromSem's colour against the math.Min form it
// replaces, bit for bit, on the special values and random bit patterns.
func TestColorSaturate(t *testing.T) {
	vals := []uint32{0, 0x80000000, 0x3F800000, 0xBF800000, 0x3F800001, 0x7F800000, 0xFF800000,
		0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x00000001, 0x3F7FFFFF}
	for i := uint32(0); i < 1<<16; i++ {
		vals = append(vals, i*0x9E3779B9)
	}
	for _, b := range vals {
		var sem [32]float32
		sem[8] = math.Float32frombits(b)
		want := float32(math.Min(math.Abs(float64(sem[8])), 1))
		got := fromSem(&sem).color[0]
		require.Equal(t, math.Float32bits(want), math.Float32bits(got), "input %#08x", b)
	}
}

// TestDotBatch checks dotBatch against dot, vertex by vertex, on random
// float24 values with zeros, subnormals, infinities and NaN mixed in.
func TestDotBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	special := []float32{0, float32(math.Copysign(0, -1)), f24(bSub), f24(bNorm), f24(bInf), f24(bNegInf), f24(bNaN), 1, -1}
	val := func() float32 {
		if r.IntN(3) == 0 {
			return special[r.IntN(len(special))]
		}
		return f24(r.Uint32() & 0xFFFFFF)
	}
	for iter := 0; iter < 20000; iter++ {
		var a, b [4][vsBatch]float32
		for c := 0; c < 4; c++ {
			for i := 0; i < vsBatch; i++ {
				a[c][i], b[c][i] = val(), val()
			}
		}
		n := 1 + r.IntN(vsBatch)
		// dotBatchU: the second operand the same for every vertex.
		var u, bu [4][vsBatch]float32
		var uf vec4
		for c := 0; c < 4; c++ {
			uf[c] = val()
			for i := range bu[c] {
				bu[c][i] = uf[c]
			}
			u[c] = a[c]
		}
		for c := range uf {
			uf[c] = flush(uf[c])
		}
		for _, m := range []int{3, 4} {
			var sum, sumU [vsBatch]float32
			dotBatch(&a, &b, m, n, &sum)
			dotBatchU(&u, uf, m, n, &sumU)
			for i := 0; i < n; i++ {
				va := vec4{a[0][i], a[1][i], a[2][i], a[3][i]}
				vb := vec4{b[0][i], b[1][i], b[2][i], b[3][i]}
				require.Equal(t, math.Float32bits(dot(&va, &vb, m)), math.Float32bits(sum[i]), "%v . %v", va, vb)
				vu := vec4{bu[0][i], bu[1][i], bu[2][i], bu[3][i]}
				require.Equal(t, math.Float32bits(dot(&va, &vu, m)), math.Float32bits(sumU[i]), "%v . %v (uniform)", va, vu)
				// The uniform as the first operand (run's other case).
				require.Equal(t, math.Float32bits(dot(&vu, &va, m)), math.Float32bits(sumU[i]), "%v . %v (uniform first)", vu, va)
			}
		}
	}
}

// TestNeedsClipStd checks needsClipStd against needsClip with the
// standard planes on random positions: near the planes, at zero of both
// signs, huge, infinite and NaN.
func TestNeedsClipStd(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 1.0 / 65536, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.MaxFloat32, -math.MaxFloat32, 1e-30}
	val := func(w float32) float32 {
		switch r.IntN(4) {
		case 0:
			return special[r.IntN(len(special))]
		case 1:
			return w * float32(r.IntN(3)-1) // on a plane
		}
		return (r.Float32()*2.4 - 1.2) * w
	}
	for i := 0; i < 200000; i++ {
		var vs [3]vertex
		for k := range vs {
			w := r.Float32()*2 - 0.2
			if r.IntN(8) == 0 {
				w = special[r.IntN(len(special))]
			}
			vs[k].pos = vec4{val(w), val(w), val(w), w}
		}
		require.Equal(t, needsClip(clipPlanes, &vs[0], &vs[1], &vs[2]), needsClipStd(&vs[0], &vs[1], &vs[2]), "%v", vs)
	}
}
