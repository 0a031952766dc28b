package swtnl

import (
	"encoding/binary"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
)

// baseState is GL's initial state with a 100x100 viewport.
func baseState() *driver.State {
	st := &driver.State{}
	st.Viewport = driver.Rect{W: 100, H: 100}
	st.DepthRange = [2]float32{0, 1}
	st.ModelView = mgl32.Ident4()
	st.Projection = mgl32.Ident4()
	st.CurrentColor = [4]float32{1, 1, 1, 1}
	st.CurrentNormal = [3]float32{0, 0, 1}
	st.Point = driver.PointParams{Size: 1, Max: 64, DistAtten: [3]float32{1, 0, 0}}
	for i := range st.Units {
		st.Units[i].Matrix = mgl32.Ident4()
	}
	st.Lighting.Ambient = [4]float32{0.2, 0.2, 0.2, 1}
	st.Lighting.Material = driver.Material{Ambient: [4]float32{0.2, 0.2, 0.2, 1}, Diffuse: [4]float32{0.8, 0.8, 0.8, 1},
		Specular: [4]float32{0, 0, 0, 1}, Emission: [4]float32{0, 0, 0, 1}}
	return st
}

func floats(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func arrays(pos []float32, col []float32) *driver.VertexArrays {
	va := &driver.VertexArrays{}
	va.Position = driver.Attrib{Enabled: true, Size: 3, Type: driver.TypeFloat, Stride: 12, Data: floats(pos...)}
	if col != nil {
		va.Color = driver.Attrib{Enabled: true, Size: 4, Type: driver.TypeFloat, Stride: 16, Data: floats(col...), Normalized: true}
	}
	return va
}

func draw(prim driver.Prim, n int, va *driver.VertexArrays) *driver.DrawCall {
	return &driver.DrawCall{Prim: prim, Count: n, MinIndex: 0, MaxIndex: n - 1, Arrays: va}
}

const eps = 1e-5

func TestViewportTransform(t *testing.T) {
	st := baseState()
	st.Viewport = driver.Rect{X: 10, Y: 20, W: 200, H: 100}
	st.DepthRange = [2]float32{0.25, 0.75}
	var tnl TnL
	m, err := tnl.Run(st, draw(driver.PrimPoints, 2, arrays([]float32{0, 0, 0, 1, -1, 1}, nil)))
	require.NoError(t, err)
	require.Len(t, m.Points, 2)
	assert.Equal(t, [4]float32{110, 70, 0.5, 1}, m.Points[0].Win)
	assert.Equal(t, [4]float32{210, 20, 0.75, 1}, m.Points[1].Win)
}

// TestClipPlanes clips, against each of the six frustum planes, a triangle
// whose second vertex lies at 2 along the plane's axis: the plane at 1 cuts
// both edges through that vertex at their midpoints. Colours (red, green,
// blue at the three vertices) must interpolate at the same parameter.
func TestClipPlanes(t *testing.T) {
	for axis := 0; axis < 3; axis++ {
		for _, sign := range []float32{1, -1} {
			other := (axis + 1) % 3
			place := func(u, v float32) []float32 {
				p := []float32{0, 0, 0}
				p[axis], p[other] = sign*u, v*0.5
				return p
			}
			var pos []float32
			pos = append(pos, place(0, 0)...)
			pos = append(pos, place(2, 0)...)
			pos = append(pos, place(0, 1)...)
			col := []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1}
			st := baseState()
			var tnl TnL
			m, err := tnl.Run(st, draw(driver.PrimTriangles, 3, arrays(pos, col)))
			require.NoError(t, err)
			// The clipped quad is a fan of two triangles.
			require.Len(t, m.Triangles, 6, "axis %d sign %v", axis, sign)
			got := []Vertex{m.Triangles[0], m.Triangles[1], m.Triangles[2], m.Triangles[5]}
			want := []struct {
				u, v  float32
				color [4]float32
			}{
				{0, 0, [4]float32{1, 0, 0, 1}},
				{1, 0, [4]float32{0.5, 0.5, 0, 1}},
				{1, 0.5, [4]float32{0, 0.5, 0.5, 1}},
				{0, 1, [4]float32{0, 0, 1, 1}},
			}
			for i, w := range want {
				p := place(w.u, w.v)
				for k := 0; k < 3; k++ {
					assert.InDelta(t, p[k], got[i].Clip[k], eps, "axis %d sign %v vertex %d comp %d", axis, sign, i, k)
				}
				for k := 0; k < 4; k++ {
					assert.InDelta(t, w.color[k], got[i].Color[k], eps, "axis %d sign %v vertex %d colour", axis, sign, i)
				}
			}
		}
	}
}

func TestUserClipPlane(t *testing.T) {
	st := baseState()
	st.ClipPlanes[0].Enabled = true
	st.ClipPlanes[0].Eq = [4]float32{1, 0, 0, -0.5} // keep x >= 0.5
	var tnl TnL
	m, err := tnl.Run(st, draw(driver.PrimLines, 2, arrays([]float32{-1, 0, 0, 1, 0, 0}, []float32{0, 0, 0, 1, 1, 1, 1, 1})))
	require.NoError(t, err)
	require.Len(t, m.Lines, 2)
	assert.InDelta(t, 0.5, m.Lines[0].Clip[0], eps)
	assert.InDelta(t, 0.75, m.Lines[0].Color[0], eps) // 3/4 of the way from black to white
	assert.InDelta(t, 75, m.Lines[0].Win[0], eps)
	assert.InDelta(t, 1, m.Lines[1].Clip[0], eps)
}

func TestTriangleOutsideIsDropped(t *testing.T) {
	st := baseState()
	var tnl TnL
	m, err := tnl.Run(st, draw(driver.PrimTriangles, 3, arrays([]float32{2, 0, 0, 3, 0, 0, 2, 1, 0}, nil)))
	require.NoError(t, err)
	assert.Empty(t, m.Triangles)
}

func TestNearFarPerspective(t *testing.T) {
	st := baseState()
	st.Projection = mgl32.Frustum(-1, 1, -1, 1, 1, 10)
	var tnl TnL
	// A line along -z from the eye (z = 0, behind the near plane) to z = -20
	// (beyond far) is clipped to [-1, -10].
	m, err := tnl.Run(st, draw(driver.PrimLines, 2, arrays([]float32{0, 0, 0, 0, 0, -20}, nil)))
	require.NoError(t, err)
	require.Len(t, m.Lines, 2)
	assert.InDelta(t, 0, m.Lines[0].Win[2], eps)    // near plane -> depth 0
	assert.InDelta(t, 1, m.Lines[1].Win[2], eps)    // far plane -> depth 1
	assert.InDelta(t, 1, 1/m.Lines[0].Win[3], 1e-4) // w = 1 at the near plane
	assert.InDelta(t, 10, 1/m.Lines[1].Win[3], 1e-3)
}

func TestCullingAndFacing(t *testing.T) {
	ccw := []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}
	cw := []float32{0, 0, 0, 0, 1, 0, 1, 0, 0}
	for _, tc := range []struct {
		name  string
		pos   []float32
		front driver.Winding
		cull  driver.Face
		n     int
	}{
		{"ccw front kept", ccw, driver.WindingCCW, driver.FaceBack, 3},
		{"cw back culled", cw, driver.WindingCCW, driver.FaceBack, 0},
		{"cw front when CW", cw, driver.WindingCW, driver.FaceBack, 3},
		{"ccw culled as front", ccw, driver.WindingCCW, driver.FaceFront, 0},
		{"both culled", ccw, driver.WindingCCW, driver.FaceFrontAndBack, 0},
	} {
		st := baseState()
		st.CullEnabled, st.FrontFace, st.CullFace = true, tc.front, tc.cull
		var tnl TnL
		m, err := tnl.Run(st, draw(driver.PrimTriangles, 3, arrays(tc.pos, nil)))
		require.NoError(t, err)
		assert.Len(t, m.Triangles, tc.n, tc.name)
	}
}

func TestLighting(t *testing.T) {
	st := baseState()
	st.Lighting.Enabled = true
	l := &st.Lighting.Lights[0]
	*l = driver.Light{Enabled: true, Ambient: [4]float32{0, 0, 0, 1}, Diffuse: [4]float32{1, 1, 1, 1},
		Specular: [4]float32{1, 1, 1, 1}, Position: [4]float32{0, 0, 1, 0}, SpotCutoff: 180, ConstantAtten: 1}
	var tnl TnL
	m, err := tnl.Run(st, draw(driver.PrimPoints, 1, arrays([]float32{0, 0, 0}, nil)))
	require.NoError(t, err)
	// 0.2*0.2 global ambient + 0.8 diffuse (N.L = 1), no specular material.
	assert.InDeltaSlice(t, []float32{0.84, 0.84, 0.84, 1}, m.Points[0].Color[:], eps)

	// A point light at distance 2 with quadratic attenuation 0.25: att = 1.
	*l = driver.Light{Enabled: true, Diffuse: [4]float32{1, 0, 0, 1}, Position: [4]float32{0, 0, 2, 1},
		SpotCutoff: 180, QuadraticAt: 0.25}
	st.Lighting.Ambient = [4]float32{}
	m, err = tnl.Run(st, draw(driver.PrimPoints, 1, arrays([]float32{0, 0, 0}, nil)))
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float32{0.8, 0, 0, 1}, m.Points[0].Color[:], eps)

	// A spot light pointing away from the vertex contributes nothing.
	l.SpotCutoff, l.SpotDirection = 30, [3]float32{0, 0, 1}
	m, err = tnl.Run(st, draw(driver.PrimPoints, 1, arrays([]float32{0, 0, 0}, nil)))
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float32{0, 0, 0, 1}, m.Points[0].Color[:], eps)
}

func TestFogFactor(t *testing.T) {
	for _, tc := range []struct {
		fog  driver.Fog
		dist float32
		want float32
	}{
		{driver.Fog{Mode: driver.FogLinear, Start: 0, End: 10}, 5, 0.5},
		{driver.Fog{Mode: driver.FogLinear, Start: 0, End: 10}, 20, 0},
		{driver.Fog{Mode: driver.FogExp, Density: 0.1}, 10, float32(math.Exp(-1))},
		{driver.Fog{Mode: driver.FogExp2, Density: 0.1}, 10, float32(math.Exp(-1))},
		{driver.Fog{Mode: driver.FogExp2, Density: 0.05}, 10, float32(math.Exp(-0.25))},
	} {
		assert.InDelta(t, tc.want, FogFactor(&tc.fog, tc.dist), 1e-6)
	}
}

func TestPointAttenuation(t *testing.T) {
	st := baseState()
	st.Point.Size = 8
	st.Point.DistAtten = [3]float32{0, 0, 1} // size / d
	var tnl TnL
	m, err := tnl.Run(st, draw(driver.PrimPoints, 1, arrays([]float32{0, 0, -0.5}, nil)))
	require.NoError(t, err)
	assert.InDelta(t, 16, m.Points[0].PointSize, 1e-4)
}

func TestFlatShadingUsesLastVertex(t *testing.T) {
	st := baseState()
	st.Shade = driver.ShadeFlat
	var tnl TnL
	m, err := tnl.Run(st, draw(driver.PrimTriangles, 3, arrays([]float32{0, 0, 0, 1, 0, 0, 0, 1, 0},
		[]float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1})))
	require.NoError(t, err)
	for _, v := range m.Triangles {
		assert.Equal(t, [4]float32{0, 0, 1, 1}, v.Color)
	}
}

// TestTriangleInMatchesClip compares triangle (whose unclipped triangles
// take triangleIn) with the general clipper, triangleClip, over random
// triangles inside, across and outside the view volume and a user plane,
// with flat shading, culling, winding and two-sided lighting at random.
func TestTriangleInMatchesClip(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	coord := func() float32 {
		if r.Intn(200) == 0 {
			return float32(math.NaN())
		}
		if r.Intn(3) == 0 {
			return (r.Float32()*2 - 1) * 1.5
		}
		return r.Float32()*2 - 1
	}
	vert := func() Vertex {
		var v Vertex
		v.Clip = [4]float32{coord(), coord(), coord(), 1}
		if r.Intn(4) == 0 {
			v.Clip[3] = 0.5 + r.Float32()*2
		}
		v.Eye = [4]float32{r.Float32(), r.Float32(), r.Float32() - 2, 1}
		for k := range v.Color {
			v.Color[k], v.Back[k] = r.Float32(), r.Float32()
		}
		v.Tex[0] = [4]float32{r.Float32(), r.Float32(), 0, 1}
		v.Fog, v.FogDist, v.PointSize = r.Float32(), r.Float32(), 1
		return v
	}
	fast := 0
	for i := 0; i < 4000; i++ {
		st := baseState()
		st.Viewport = driver.Rect{X: r.Intn(20), Y: r.Intn(20), W: 1 + r.Intn(640), H: 1 + r.Intn(480)}
		st.DepthRange = [2]float32{r.Float32() / 2, 0.5 + r.Float32()/2}
		st.CullEnabled = r.Intn(2) == 0
		st.CullFace = []driver.Face{driver.FaceFront, driver.FaceBack, driver.FaceFrontAndBack}[r.Intn(3)]
		if r.Intn(2) == 0 {
			st.FrontFace = driver.WindingCW
		}
		st.Lighting.Enabled = r.Intn(2) == 0
		st.Lighting.TwoSide = r.Intn(2) == 0
		if r.Intn(4) == 0 {
			st.ClipPlanes[0].Enabled = true
			st.ClipPlanes[0].Eq = [4]float32{r.Float32() - 0.5, r.Float32() - 0.5, 0, 0.3}
		}
		flat := r.Intn(2) == 0
		var a, b TnL
		planes := a.planes(st)
		vs := []Vertex{vert(), vert(), vert()}
		if inside(planes, &vs[0]) && inside(planes, &vs[1]) && inside(planes, &vs[2]) {
			fast++
		}
		// Earlier triangles in the mesh: the new ones are appended.
		a.mesh.Triangles = append(a.mesh.Triangles, vs[0])
		b.mesh.Triangles = append(b.mesh.Triangles, vs[0])
		a.triangle(st, planes, &vs[0], &vs[1], &vs[2], &vs[2], flat)
		b.triangleClip(st, b.planes(st), &vs[0], &vs[1], &vs[2], &vs[2], flat)
		require.Equal(t, b.mesh.Facing, a.mesh.Facing, "triangle %d", i)
		require.Equal(t, len(b.mesh.Triangles), len(a.mesh.Triangles), "triangle %d", i)
		for k := range a.mesh.Triangles {
			require.Equal(t, vertexBits(&b.mesh.Triangles[k]), vertexBits(&a.mesh.Triangles[k]), "triangle %d vertex %d", i, k)
		}
	}
	require.Greater(t, fast, 1000, "triangles on the fast path")
}

// vertexBits is a vertex's float32 fields as bits (NaN compares equal to
// itself).
func vertexBits(v *Vertex) []uint32 {
	var out []uint32
	add := func(fs ...float32) {
		for _, f := range fs {
			out = append(out, math.Float32bits(f))
		}
	}
	add(v.Clip[:]...)
	add(v.Eye[:]...)
	add(v.Color[:]...)
	add(v.Back[:]...)
	for u := range v.Tex {
		add(v.Tex[u][:]...)
	}
	add(v.FogDist, v.Fog, v.PointSize)
	add(v.Win[:]...)
	return out
}
