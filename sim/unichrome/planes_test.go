package unichrome

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/sim/raster"
)

// planesVals is prim.planes as one loop over vals at the three vertices:
// the form it replaces.
func planesVals(pr *prim, p *pipeline, v0, v1, v2 *vertex, p0, p1, p2 raster.Point) {
	var a [3][numAttrs]float64
	p.vals(v0, &a[0])
	p.vals(v1, &a[1])
	p.vals(v2, &a[2])
	pr.a0 = a[0]
	pr.x0, pr.y0 = float64(p0.X)/16, float64(p0.Y)/16
	dx1, dy1 := float64(p1.X-p0.X)/16, float64(p1.Y-p0.Y)/16
	dx2, dy2 := float64(p2.X-p0.X)/16, float64(p2.Y-p0.Y)/16
	det := float64(dx1*dy2) - float64(dx2*dy1)
	pr.nact = 0
	for i := 0; i < numAttrs; i++ {
		d1, d2 := float64(a[1][i]-a[0][i]), float64(a[2][i]-a[0][i])
		if d1 == 0 && d2 == 0 {
			pr.gx[i], pr.gy[i] = 0, 0
			continue
		}
		pr.gx[i] = (float64(d1*dy2) - float64(d2*dy1)) / det
		pr.gy[i] = (float64(d2*dx1) - float64(d1*dx2)) / det
	}
	for i := 0; i < numAttrs; i++ {
		if pr.gx[i] != 0 || pr.gy[i] != 0 {
			pr.act[pr.nact] = uint8(i)
			pr.nact++
		}
	}
}

// TestPlanesMatchVals compares prim.planes with planesVals over random
// vertices: colour words equal at the three vertices or differing in
// some bytes, Z, W, S and T with and without perspective, NaN and
// infinite values, and positions from tiny to large triangles.
func TestPlanesMatchVals(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	word := func(base uint32) uint32 {
		switch r.Intn(3) {
		case 0:
			return base
		case 1:
			return base ^ uint32(r.Intn(256))<<(8*uint(r.Intn(4)))
		}
		return r.Uint32()
	}
	fl := func() float32 {
		switch r.Intn(20) {
		case 0:
			return float32(math.NaN())
		case 1:
			return float32(math.Inf(1 - 2*r.Intn(2)))
		case 2:
			return 0
		}
		return (r.Float32()*2 - 1) * float32(math.Pow(10, float64(r.Intn(6)-2)))
	}
	for i := 0; i < 20000; i++ {
		p := &pipeline{znf: math.Ldexp(1, -r.Intn(32)), persp: r.Intn(2) == 0}
		cd, cs := r.Uint32(), r.Uint32()
		var v [3]vertex
		same := r.Intn(3) == 0 // Z, W, S and T the same at every vertex
		for k := range v {
			v[k] = vertex{x: r.Float32() * 640, y: r.Float32() * 480, z: fl(), w: fl(), cd: word(cd), cs: word(cs),
				s: [2]float32{fl(), fl()}, t: [2]float32{fl(), fl()}}
			if same && k > 0 {
				v[k].z, v[k].w, v[k].s, v[k].t = v[0].z, v[0].w, v[0].s, v[0].t
			}
		}
		var pos [3]raster.Point
		scale := []int64{2, 32, 4000}[r.Intn(3)]
		for k := range pos {
			pos[k] = raster.Point{X: r.Int63n(scale), Y: r.Int63n(scale)}
		}
		var got, want prim
		got.planes(p, &v[0], &v[1], &v[2], pos[0], pos[1], pos[2])
		planesVals(&want, p, &v[0], &v[1], &v[2], pos[0], pos[1], pos[2])
		require.Equal(t, want.nact, got.nact, "case %d", i)
		require.Equal(t, want.act[:want.nact], got.act[:got.nact], "case %d", i)
		for a := 0; a < numAttrs; a++ {
			require.Equal(t, math.Float64bits(want.a0[a]), math.Float64bits(got.a0[a]), "case %d a0[%d]", i, a)
			require.Equal(t, math.Float64bits(want.gx[a]), math.Float64bits(got.gx[a]), "case %d gx[%d]", i, a)
			require.Equal(t, math.Float64bits(want.gy[a]), math.Float64bits(got.gy[a]), "case %d gy[%d]", i, a)
		}
		require.Equal(t, [2]float64{want.x0, want.y0}, [2]float64{got.x0, got.y0}, "case %d", i)
	}
}

// TestFloorInt compares floorInt with math.Floor over snap's range:
// integers, halves and their float64 neighbours, zeros of both signs and
// random values.
func TestFloorInt(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	check := func(x float64) {
		require.Equal(t, int64(math.Floor(x)), floorInt(x), "x=%v", x)
	}
	check(0)
	check(math.Copysign(0, -1))
	for k := -65540; k <= 65540; k += 1 + r.Intn(7) {
		for _, x := range []float64{float64(k), float64(k) + 0.5} {
			check(x)
			check(math.Nextafter(x, math.Inf(1)))
			check(math.Nextafter(x, math.Inf(-1)))
		}
	}
	for i := 0; i < 100000; i++ {
		check((r.Float64()*2 - 1) * 65536.5)
		check(float64(float32(r.Float64()*2-1)*4096)*16 + 0.5)
	}
}
