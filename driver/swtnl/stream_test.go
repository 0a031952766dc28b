package swtnl

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
)

// TestStreamMatchesRun compares Stream's triangles with Run's mesh over
// random plain draws: matrices that put triangles inside, across and
// outside the view volume, culling, winding and flat shading at random,
// float and integer arrays, a first vertex past 0 and counts that are
// not multiples of 3. Eye, FogDist and the texture units past the last
// enabled one are left out (Stream's contract).
func TestStreamMatchesRun(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	taken, tris := 0, 0
	for iter := 0; iter < 600; iter++ {
		const n = 160 // more than one batch of streamTris
		st := baseState()
		if r.Intn(2) == 0 {
			st.ModelView = randMat(r)
		}
		st.Viewport = driver.Rect{X: r.Intn(9), Y: r.Intn(9), W: 1 + r.Intn(640), H: 1 + r.Intn(480)}
		st.CullEnabled = r.Intn(2) == 0
		st.CullFace = []driver.Face{driver.FaceFront, driver.FaceBack, driver.FaceFrontAndBack}[r.Intn(3)]
		if r.Intn(2) == 0 {
			st.FrontFace = driver.WindingCW
		}
		if r.Intn(2) == 0 {
			st.Shade = driver.ShadeFlat
		}
		if r.Intn(10) == 0 {
			st.Fog.Enabled = true // not plain: Run's alone
		}
		va := &driver.VertexArrays{Position: randAttrib(r, n), Color: randAttrib(r, n)}
		va.Position.Enabled = true
		units := 0
		if r.Intn(3) == 0 {
			st.Units[0].Texture = &driver.Texture{}
			st.Units[0].Matrix = randMat(r)
			va.TexCoord[0] = randAttrib(r, n)
			units = 1
		}
		first := r.Intn(6)
		count := r.Intn(n - first + 1)
		dc := &driver.DrawCall{Prim: driver.PrimTriangles, First: first, Count: count, MinIndex: first, MaxIndex: max(first, first+count-1), Arrays: va}
		if r.Intn(10) == 0 {
			dc.Prim = driver.PrimTriangleStrip // not taken
		}
		var a, b TnL
		want, err := a.Run(st, dc)
		require.NoError(t, err)
		var got []Vertex
		var facing []bool
		ok := b.Stream(st, dc, func(m *Mesh) {
			require.Equal(t, 3*len(m.Facing), len(m.Triangles))
			got = append(got, m.Triangles...)
			facing = append(facing, m.Facing...)
		})
		if !ok {
			require.True(t, st.Fog.Enabled || dc.Prim != driver.PrimTriangles, "iteration %d not taken", iter)
			require.Empty(t, got)
			continue
		}
		taken++
		tris += len(facing)
		require.Equal(t, want.Facing, facing, "iteration %d", iter)
		require.Equal(t, len(want.Triangles), len(got), "iteration %d", iter)
		for k := range got {
			w, g := want.Triangles[k], got[k]
			for _, v := range []*Vertex{&w, &g} {
				v.Eye, v.FogDist = [4]float32{}, 0
				for u := units; u < len(v.Tex); u++ {
					v.Tex[u] = [4]float32{}
				}
			}
			require.Equal(t, vertexBits(&w), vertexBits(&g), "iteration %d vertex %d", iter, k)
		}
	}
	require.Greater(t, taken, 400, "draws streamed")
	require.Greater(t, tris, 3000, "triangles streamed")
}
