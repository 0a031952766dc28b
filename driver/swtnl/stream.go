package swtnl

import (
	"github.com/retrogl/retrogl/driver"
)

// streamTris is the number of triangles Stream transforms at a time
// (about 10 KB of vertices).
const streamTris = 16

// Stream is Run for a draw of independent triangles (PrimTriangles
// without indices) whose vertices take vertexPlain (plain): each
// triangle's three vertices are transformed into a buffer the TnL keeps
// (streamTris triangles' at a time), and the triangle is assembled,
// clipped and culled as Run does it, then
// emit is called with the mesh of that triangle alone (one triangle, a
// fan when clipped; emit is not called for a triangle that is culled or
// clipped away). The vertices and the mesh never grow with the draw, so
// a large draw does not stream its transformed vertices through memory
// twice. It returns false, having called nothing, for a draw it does not
// take (Run's then). The emitted triangles, in order, are Run's mesh in
// every field but Eye and FogDist, and the texture coordinates of units
// past the last enabled one, which neither fills (they keep what the
// buffer held); TestStreamMatchesRun compares the two. The mesh is valid
// during the call.
func (t *TnL) Stream(st *driver.State, dc *driver.DrawCall, emit func(m *Mesh)) bool {
	if dc.Prim != driver.PrimTriangles || dc.Indices != nil || dc.Arrays == nil || !dc.Arrays.Position.Enabled {
		return false
	}
	t.setup.init(st)
	if !t.setup.plain(st, dc.Arrays) {
		return false
	}
	planes := t.planes(st)
	flat := st.Shade == driver.ShadeFlat
	// The vertices of streamTris triangles are transformed before the
	// first of them is assembled: by the time the assembler copies a
	// vertex, its stores have left the store buffer.
	vs := &t.tri
	for i := 0; i+2 < dc.Count; i += 3 * streamTris {
		nt := min(streamTris, (dc.Count-i)/3)
		for k := 0; k < 3*nt; k++ {
			t.setup.vertexPlain(st, dc.Arrays, dc.VertexIndex(i+k), &vs[k])
		}
		for j := 0; j < 3*nt; j += 3 {
			t.mesh.Triangles = t.mesh.Triangles[:0]
			t.mesh.Facing = t.mesh.Facing[:0]
			t.triangle(st, planes, &vs[j], &vs[j+1], &vs[j+2], &vs[j+2], flat)
			if len(t.mesh.Triangles) > 0 {
				emit(&t.mesh)
			}
		}
	}
	t.mesh.Triangles = t.mesh.Triangles[:0]
	t.mesh.Facing = t.mesh.Facing[:0]
	return true
}
