package swtnl

import (
	"github.com/retrogl/retrogl/driver"
)

// plane is a clip plane: a vertex is inside when dist >= 0.
type plane func(v *Vertex) float32

func (t *TnL) planes(st *driver.State) []plane {
	ps := []plane{
		func(v *Vertex) float32 { return v.Clip[3] + v.Clip[0] }, // left
		func(v *Vertex) float32 { return v.Clip[3] - v.Clip[0] }, // right
		func(v *Vertex) float32 { return v.Clip[3] + v.Clip[1] }, // bottom
		func(v *Vertex) float32 { return v.Clip[3] - v.Clip[1] }, // top
		func(v *Vertex) float32 { return v.Clip[3] + v.Clip[2] }, // near
		func(v *Vertex) float32 { return v.Clip[3] - v.Clip[2] }, // far
	}
	for i := range st.ClipPlanes {
		if !st.ClipPlanes[i].Enabled {
			continue
		}
		eq := st.ClipPlanes[i].Eq
		ps = append(ps, func(v *Vertex) float32 {
			return float32(float32(m32(eq[0], v.Eye[0])+m32(eq[1], v.Eye[1]))+m32(eq[2], v.Eye[2])) + m32(eq[3], v.Eye[3])
		})
	}
	return ps
}

// lerp interpolates every attribute linearly in clip space.
func lerp(a, b *Vertex, s float32) Vertex {
	var v Vertex
	l := func(x, y float32) float32 { return x + m32(s, y-x) }
	for k := 0; k < 4; k++ {
		v.Clip[k] = l(a.Clip[k], b.Clip[k])
		v.Eye[k] = l(a.Eye[k], b.Eye[k])
		v.Color[k] = l(a.Color[k], b.Color[k])
		v.Back[k] = l(a.Back[k], b.Back[k])
	}
	for u := range v.Tex {
		for k := 0; k < 4; k++ {
			v.Tex[u][k] = l(a.Tex[u][k], b.Tex[u][k])
		}
	}
	v.FogDist = l(a.FogDist, b.FogDist)
	v.Fog = l(a.Fog, b.Fog)
	v.PointSize = l(a.PointSize, b.PointSize)
	return v
}

// window applies the perspective division and the viewport transform.
func window(st *driver.State, v *Vertex) {
	w := v.Clip[3]
	inv := 1 / w
	vp := st.Viewport
	n, f := st.DepthRange[0], st.DepthRange[1]
	hw, hh := float32(vp.W)/2, float32(vp.H)/2
	v.Win[0] = m32(m32(v.Clip[0], inv)+1, hw) + float32(vp.X)
	v.Win[1] = m32(m32(v.Clip[1], inv)+1, hh) + float32(vp.Y)
	v.Win[2] = n + m32(m32(m32(v.Clip[2], inv)+1, 0.5), f-n)
	v.Win[3] = inv
}

// assemble builds primitives from the draw, clips them and maps them to the
// window.
func (t *TnL) assemble(st *driver.State, dc *driver.DrawCall) {
	at := func(i int) *Vertex { return &t.verts[dc.VertexIndex(i)-dc.MinIndex] }
	planes := t.planes(st)
	flat := st.Shade == driver.ShadeFlat
	n := dc.Count
	switch dc.Prim {
	case driver.PrimPoints:
		for i := 0; i < n; i++ {
			v := *at(i)
			inside := true
			for _, p := range planes {
				if !(p(&v) >= 0) {
					inside = false
					break
				}
			}
			if inside {
				window(st, &v)
				t.mesh.Points = append(t.mesh.Points, v)
			}
		}
	case driver.PrimLines:
		for i := 0; i+1 < n; i += 2 {
			t.line(st, planes, at(i), at(i+1), flat)
		}
	case driver.PrimLineStrip, driver.PrimLineLoop:
		for i := 0; i+1 < n; i++ {
			t.line(st, planes, at(i), at(i+1), flat)
		}
		if dc.Prim == driver.PrimLineLoop && n > 1 {
			t.line(st, planes, at(n-1), at(0), flat)
		}
	case driver.PrimTriangles:
		for i := 0; i+2 < n; i += 3 {
			t.triangle(st, planes, at(i), at(i+1), at(i+2), at(i+2), flat)
		}
	case driver.PrimTriangleStrip:
		for i := 0; i+2 < n; i++ {
			if i%2 == 0 {
				t.triangle(st, planes, at(i), at(i+1), at(i+2), at(i+2), flat)
			} else {
				t.triangle(st, planes, at(i+1), at(i), at(i+2), at(i+2), flat)
			}
		}
	case driver.PrimTriangleFan:
		for i := 1; i+1 < n; i++ {
			t.triangle(st, planes, at(0), at(i), at(i+1), at(i+1), flat)
		}
	}
}

// line clips a line parametrically and appends it; flat lines take the
// second vertex's colour (GL ES 1.1 table 2.3).
func (t *TnL) line(st *driver.State, planes []plane, a, b *Vertex, flat bool) {
	t0, t1 := float32(0), float32(1)
	for _, p := range planes {
		da, db := p(a), p(b)
		switch {
		case da >= 0 && db >= 0:
			continue
		case !(da >= 0) && !(db >= 0):
			return
		case !(da >= 0):
			t0 = max(t0, da/(da-db))
		default:
			t1 = min(t1, da/(da-db))
		}
		if t0 > t1 {
			return
		}
	}
	va, vb := *a, *b
	if t0 > 0 {
		va = lerp(a, b, t0)
	}
	if t1 < 1 {
		vb = lerp(a, b, t1)
	}
	if flat {
		va.Color, va.Back = b.Color, b.Back
		vb.Color, vb.Back = b.Color, b.Back
	}
	window(st, &va)
	window(st, &vb)
	t.mesh.Lines = append(t.mesh.Lines, va, vb)
}

// triangle clips a triangle against every plane (Sutherland-Hodgman),
// culls it by its window winding, picks front or back colours and appends
// the resulting fan. A triangle whose vertices are inside every plane
// takes triangleIn.
func (t *TnL) triangle(st *driver.State, planes []plane, a, b, c, provoking *Vertex, flat bool) {
	if inView(a) && inView(b) && inView(c) &&
		(len(planes) == 6 || inside(planes, a) && inside(planes, b) && inside(planes, c)) {
		t.triangleIn(st, a, b, c, provoking, flat)
		return
	}
	t.triangleClip(st, planes, a, b, c, provoking, flat)
}

// inView says whether v is inside the six view volume planes, the same
// float32 sums as their functions in planes.
func inView(v *Vertex) bool {
	w, x, y, z := v.Clip[3], v.Clip[0], v.Clip[1], v.Clip[2]
	return w+x >= 0 && w-x >= 0 && w+y >= 0 && w-y >= 0 && w+z >= 0 && w-z >= 0
}

// inside says whether v is inside every plane (dist >= 0): the six view
// volume planes that planes puts first are tested inline, the same float32
// sums as their functions, then the user planes.
func inside(planes []plane, v *Vertex) bool {
	w, x, y, z := v.Clip[3], v.Clip[0], v.Clip[1], v.Clip[2]
	if !(w+x >= 0 && w-x >= 0 && w+y >= 0 && w-y >= 0 && w+z >= 0 && w-z >= 0) {
		return false
	}
	for _, p := range planes[6:] {
		if !(p(v) >= 0) {
			return false
		}
	}
	return true
}

// triangleIn is triangleClip for a triangle no plane clips: the clipper
// would leave the polygon a, b, c as it is, so the vertices are copied
// straight to the mesh and mapped to the window there, with the same
// facing, culling and colour choice.
// TestTriangleInMatchesClip compares the two.
func (t *TnL) triangleIn(st *driver.State, a, b, c, provoking *Vertex, flat bool) {
	n := len(t.mesh.Triangles)
	t.mesh.Triangles = append(t.mesh.Triangles, *a, *b, *c)
	poly := t.mesh.Triangles[n : n+3 : n+3]
	front, cull := face(st, poly)
	if cull {
		t.mesh.Triangles = t.mesh.Triangles[:n]
		return
	}
	colors(st, poly, provoking, flat, front)
	t.mesh.Facing = append(t.mesh.Facing, front)
}

// triangleClip is triangle's general path.
func (t *TnL) triangleClip(st *driver.State, planes []plane, a, b, c, provoking *Vertex, flat bool) {
	// The polygon and the clipper's output live in buffers the TnL keeps
	// from triangle to triangle.
	poly := append(t.poly[:0], *a, *b, *c)
	defer func() { t.poly = poly[:0] }()
	for _, p := range planes {
		allIn := true
		for i := range poly {
			if !(p(&poly[i]) >= 0) {
				allIn = false
				break
			}
		}
		if allIn {
			continue
		}
		out := t.clip[:0]
		for i := range poly {
			u, w := &poly[i], &poly[(i+1)%len(poly)]
			du, dw := p(u), p(w)
			if du >= 0 {
				out = append(out, *u)
			}
			if (du >= 0) != (dw >= 0) {
				out = append(out, lerp(u, w, du/(du-dw)))
			}
		}
		poly, t.clip = out, poly
		if len(poly) < 3 {
			return
		}
	}
	front, cull := face(st, poly)
	if cull {
		return
	}
	colors(st, poly, provoking, flat, front)
	for i := 1; i+1 < len(poly); i++ {
		t.mesh.Triangles = append(t.mesh.Triangles, poly[0], poly[i], poly[i+1])
		t.mesh.Facing = append(t.mesh.Facing, front)
	}
}

// face maps poly's vertices to the window and returns whether the
// polygon faces front, by the sign of its window area (GL ES 1.1 §3.5.1:
// positive is counter-clockwise), and whether culling drops it.
func face(st *driver.State, poly []Vertex) (front, cull bool) {
	for i := range poly {
		window(st, &poly[i])
	}
	var area float32
	for i := range poly {
		j := (i + 1) % len(poly)
		area += m32(poly[i].Win[0], poly[j].Win[1]) - m32(poly[j].Win[0], poly[i].Win[1])
	}
	front = area > 0
	if st.FrontFace == driver.WindingCW {
		front = !front
	}
	if st.CullEnabled {
		switch st.CullFace {
		case driver.FaceFrontAndBack:
			cull = true
		case driver.FaceFront:
			cull = front
		case driver.FaceBack:
			cull = !front
		}
	}
	return front, cull
}

// colors gives poly's vertices the provoking vertex's colours (flat
// shading) and, for a back-facing polygon under two-sided lighting, their
// back colours.
func colors(st *driver.State, poly []Vertex, provoking *Vertex, flat, front bool) {
	for i := range poly {
		if flat {
			poly[i].Color, poly[i].Back = provoking.Color, provoking.Back
		}
		if !front && st.Lighting.Enabled && st.Lighting.TwoSide {
			poly[i].Color = poly[i].Back
		}
	}
}
