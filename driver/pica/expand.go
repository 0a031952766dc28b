package pica

import "github.com/retrogl/retrogl/driver"

// The PICA200 draws triangles only (PRIMITIVE_CONFIG, L3016-L3023) and
// always interpolates colours. Points, lines and flat shading are emulated
// by expanding the draw on the CPU into a triangle list whose vertices
// carry, besides their own attributes, the data the generated shader needs
// (vsgen.go):
//   - points: two triangles per point; v6 = the corner (+-1, +-1);
//   - lines: two triangles per segment; v6.x = the side (+-1), v7 = the
//     other endpoint's position; strips and loops become segments;
//   - flat shading: each triangle's vertices take the colour (and, with
//     lighting, the normal and the lighting position v8) of the provoking
//     vertex, the last one of the primitive (GL ES 1.1 §2.14.7).

// outVert is one vertex of the expanded draw: self supplies position and
// texture coordinates, prov the colour (and normal with flat lighting),
// other the far endpoint of a line.
type outVert struct {
	self, prov, other int
	aux               [2]float32
	facing            float32 // two-sided lighting: +1 front face, -1 back face
}

// primIndices returns the vertex numbers of a draw in order.
func primIndices(dc *driver.DrawCall) []int {
	idx := make([]int, dc.Count)
	for i := range idx {
		idx[i] = dc.VertexIndex(i)
	}
	return idx
}

// triangles lists the vertex triples of a triangle draw in GL order, the
// provoking vertex last.
func triangles(dc *driver.DrawCall) [][3]int {
	v := primIndices(dc)
	var t [][3]int
	switch dc.Prim {
	case driver.PrimTriangles:
		for i := 0; i+2 < len(v); i += 3 {
			t = append(t, [3]int{v[i], v[i+1], v[i+2]})
		}
	case driver.PrimTriangleStrip:
		for i := 0; i+2 < len(v); i++ {
			if i%2 == 0 {
				t = append(t, [3]int{v[i], v[i+1], v[i+2]})
			} else {
				t = append(t, [3]int{v[i+1], v[i], v[i+2]})
			}
		}
	case driver.PrimTriangleFan:
		for i := 1; i+1 < len(v); i++ {
			t = append(t, [3]int{v[0], v[i], v[i+1]})
		}
	}
	return t
}

// segments lists the endpoint pairs of a line draw.
func segments(dc *driver.DrawCall) [][2]int {
	v := primIndices(dc)
	var s [][2]int
	switch dc.Prim {
	case driver.PrimLines:
		for i := 0; i+1 < len(v); i += 2 {
			s = append(s, [2]int{v[i], v[i+1]})
		}
	case driver.PrimLineStrip, driver.PrimLineLoop:
		for i := 0; i+1 < len(v); i++ {
			s = append(s, [2]int{v[i], v[i+1]})
		}
		if dc.Prim == driver.PrimLineLoop && len(v) > 1 {
			s = append(s, [2]int{v[len(v)-1], v[0]})
		}
	}
	return s
}

// expand builds the triangle list of an emulated draw.
func expand(dc *driver.DrawCall, flat bool) []outVert {
	var out []outVert
	switch dc.Prim {
	case driver.PrimPoints:
		for _, i := range primIndices(dc) {
			c := func(x, y float32) outVert { return outVert{self: i, prov: i, other: i, aux: [2]float32{x, y}} }
			out = append(out, c(-1, -1), c(1, -1), c(1, 1), c(-1, -1), c(1, 1), c(-1, 1))
		}
	case driver.PrimLines, driver.PrimLineStrip, driver.PrimLineLoop:
		for _, s := range segments(dc) {
			a, b := s[0], s[1]
			pa, pb := a, b
			if flat {
				pa = b
			}
			va := func(side float32) outVert { return outVert{self: a, prov: pa, other: b, aux: [2]float32{side}} }
			// The offset axis depends only on |dx| and |dy|, so both
			// endpoints offset the same way for the same side.
			vb := func(side float32) outVert { return outVert{self: b, prov: pb, other: a, aux: [2]float32{side}} }
			out = append(out, va(-1), vb(-1), vb(1), va(-1), vb(1), va(1))
		}
	default:
		for _, t := range triangles(dc) {
			for _, i := range t {
				out = append(out, outVert{self: i, prov: t[2], other: i})
			}
		}
	}
	return out
}
