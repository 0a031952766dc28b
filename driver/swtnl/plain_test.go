package swtnl

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
)

// randAttrib is a random array of n vertices: float arrays of 1-4
// components mostly (some values NaN or outside [0, 1]), the other types
// and disabled arrays sometimes.
func randAttrib(r *rand.Rand, n int) driver.Attrib {
	a := driver.Attrib{Enabled: r.Intn(8) != 0, Size: 1 + r.Intn(4), Type: driver.TypeFloat}
	if r.Intn(4) == 0 {
		a.Type = []driver.AttribType{driver.TypeByte, driver.TypeUByte, driver.TypeShort, driver.TypeUShort, driver.TypeFixed}[r.Intn(5)]
		a.Normalized = r.Intn(2) == 0
	}
	a.Stride = a.Size*a.Type.Size() + 4*r.Intn(3)
	a.Data = make([]byte, a.Stride*n)
	for i := 0; i < len(a.Data); i += 4 {
		f := r.Float32()*3 - 1
		if r.Intn(50) == 0 {
			f = float32(math.NaN())
		}
		b := math.Float32bits(f)
		for k := 0; k < 4 && i+k < len(a.Data); k++ {
			a.Data[i+k] = byte(b >> (8 * k))
		}
	}
	return a
}

func randMat(r *rand.Rand) mgl32.Mat4 {
	if r.Intn(3) == 0 {
		return mgl32.Ident4()
	}
	var m mgl32.Mat4
	for k := range m {
		m[k] = r.Float32()*4 - 2
	}
	return m
}

// TestVertexPlainMatches compares vertexPlain with vertex, and fetch with
// Attrib.Fetch, over random arrays, matrices and states that plain
// accepts, each vertex starting from the same random contents.
func TestVertexPlainMatches(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	taken := 0
	for iter := 0; iter < 3000; iter++ {
		const n = 8
		st := baseState()
		st.ModelView, st.Projection = randMat(r), randMat(r)
		st.CurrentColor = [4]float32{r.Float32()*2 - 0.5, r.Float32(), r.Float32(), r.Float32()}
		st.Point = driver.PointParams{Size: r.Float32() * 70, Min: r.Float32() * 2, Max: 1 + r.Float32()*64, DistAtten: [3]float32{1, 0, 0}}
		if r.Intn(8) == 0 {
			st.Fog.Enabled = true
		}
		if r.Intn(8) == 0 {
			st.Lighting.Enabled = true
		}
		va := &driver.VertexArrays{Position: randAttrib(r, n), Color: randAttrib(r, n), Normal: randAttrib(r, n)}
		va.Position.Enabled = true
		if r.Intn(8) == 0 {
			va.PointSize = randAttrib(r, n)
		}
		for u := 0; u < 2; u++ {
			if r.Intn(2) == 0 {
				st.Units[u].Texture = &driver.Texture{}
				st.Units[u].Matrix = randMat(r)
				st.CurrentTexCoord[u] = [4]float32{r.Float32(), r.Float32(), 0, 1}
				va.TexCoord[u] = randAttrib(r, n)
			}
		}
		var s setup
		s.init(st)
		for i := 0; i < n; i++ {
			for _, a := range []*driver.Attrib{&va.Position, &va.Color, &va.Normal, &va.TexCoord[0]} {
				def := [4]float32{r.Float32(), r.Float32(), r.Float32(), r.Float32()}
				var want, got [4]float32
				a.Fetch(i, def, &want)
				fetch(a, i, &def, &got)
				require.Equal(t, vec4Bits(want), vec4Bits(got), "iteration %d vertex %d", iter, i)
			}
			if !s.plain(st, va) {
				continue
			}
			taken++
			var v0 Vertex
			for k := range v0.Eye {
				v0.Eye[k] = r.Float32()*2 - 1
				v0.Tex[5][k] = r.Float32()
			}
			want, got := v0, v0
			s.vertex(st, va, i, &want)
			s.vertexPlain(st, va, i, &got)
			require.Equal(t, vertexBits(&want), vertexBits(&got), "iteration %d vertex %d", iter, i)
		}
	}
	require.Greater(t, taken, 5000, "vertices on the plain path")
}

func vec4Bits(v [4]float32) [4]uint32 {
	return [4]uint32{math.Float32bits(v[0]), math.Float32bits(v[1]), math.Float32bits(v[2]), math.Float32bits(v[3])}
}

// TestMulMat4To compares mulMat4To with mulMat4 over random matrices and
// vectors.
func TestMulMat4To(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for i := 0; i < 20000; i++ {
		m := randMat(r)
		v := [4]float32{r.Float32()*4 - 2, r.Float32()*4 - 2, r.Float32()*4 - 2, r.Float32()*4 - 2}
		if r.Intn(50) == 0 {
			v[r.Intn(4)] = float32(math.Inf(1))
		}
		var got [4]float32
		mulMat4To(&m, &v, &got)
		require.Equal(t, vec4Bits(mulMat4(&m, v)), vec4Bits(got), "case %d", i)
	}
}
