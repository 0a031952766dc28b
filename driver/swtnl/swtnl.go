// Package swtnl is the shared software transform-and-lighting module: what
// a driver does on the CPU when its chip has no transform unit (UniChrome,
// R3xx without a PVS program), or cannot do what the state asks (more
// lights than the PSP GE has, projective texture matrices, user clip
// planes). It follows the GL ES 1.1 specification, section 2.10-2.14:
// model-view and projection transforms (or the OES_matrix_palette blend),
// normal transformation with NORMALIZE and RESCALE_NORMAL, fixed-function
// lighting with eight lights, colour material and two-sided lighting, the
// texture matrices, per-vertex fog and point-size attenuation; then
// primitive assembly, clipping against the view volume and the user clip
// planes, and the viewport transform.
//
// Arithmetic is float32 with every product rounded explicitly, so results
// are the same on every architecture (no fused multiply-add).
//
// Use:
//
//	var tnl swtnl.TnL
//	mesh, err := tnl.Run(st, dc)   // window-space triangles, lines, points
package swtnl

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
)

// Vertex is a vertex after transform and lighting.
type Vertex struct {
	// Clip is the clip-space position.
	Clip [4]float32
	// Eye is the eye-space position (fog distance, point attenuation,
	// user clip planes).
	Eye [4]float32
	// Color is the lit (or current/array) colour, clamped to [0, 1]; with
	// two-sided lighting Back holds the back-face colour.
	Color, Back [4]float32
	// Tex holds the texture coordinates after the texture matrices.
	Tex [driver.MaxTextureUnits][4]float32
	// FogDist is the eye distance used by fog (|z_eye|); Fog is the fog
	// factor f in [0, 1] (1 = no fog) computed per vertex.
	FogDist, Fog float32
	// PointSize is the derived point size (before the rasteriser's clamp
	// to the implementation range).
	PointSize float32
	// Win is the window position after clipping: x, y in GL window
	// coordinates (y up, pixel centres at .5), z in the depth range, and
	// w = 1/clip w for perspective-correct interpolation.
	Win [4]float32
}

// Mesh is a draw's window-space primitives. Triangles are independent
// vertex triples, lines pairs, points single vertices. With flat shading
// every vertex of a primitive already carries the provoking (last) vertex's
// colours.
type Mesh struct {
	Triangles []Vertex
	Lines     []Vertex
	Points    []Vertex
	// Facing holds, per triangle, whether it is front-facing (by window
	// winding and FrontFace), and Culled triangles have been removed
	// already when st.CullEnabled.
	Facing []bool
}

// TnL is a reusable software T&L pipeline; its buffers grow to the largest
// draw seen. The zero value is ready.
type TnL struct {
	verts []Vertex
	mesh  Mesh
	setup setup
	// poly and clip are the clipper's polygon buffers.
	poly, clip []Vertex
	// tri is Stream's vertices.
	tri [3 * streamTris]Vertex
	// ForceLighting keeps lighting on even when a backend wants only
	// transform; zero value follows the state.
}

// Run transforms, lights, assembles and clips a draw. The returned mesh is
// valid until the next call.
func (t *TnL) Run(st *driver.State, dc *driver.DrawCall) (*Mesh, error) {
	if dc.Arrays == nil || !dc.Arrays.Position.Enabled {
		return nil, fmt.Errorf("swtnl: draw without a vertex array")
	}
	t.setup.init(st)
	n := dc.MaxIndex - dc.MinIndex + 1
	if cap(t.verts) < n {
		t.verts = make([]Vertex, n)
	}
	t.verts = t.verts[:n]
	if t.setup.plain(st, dc.Arrays) {
		for i := range t.verts {
			t.setup.vertexPlain(st, dc.Arrays, dc.MinIndex+i, &t.verts[i])
		}
	} else {
		for i := range t.verts {
			t.setup.vertex(st, dc.Arrays, dc.MinIndex+i, &t.verts[i])
		}
	}
	t.mesh.Triangles = t.mesh.Triangles[:0]
	t.mesh.Lines = t.mesh.Lines[:0]
	t.mesh.Points = t.mesh.Points[:0]
	t.mesh.Facing = t.mesh.Facing[:0]
	t.assemble(st, dc)
	return &t.mesh, nil
}

// Vertices returns the transformed vertices of the last Run (vertex
// MinIndex+i at i), before assembly and clipping.
func (t *TnL) Vertices() []Vertex { return t.verts }

// m32 is a product rounded to float32 (no fused multiply-add).
func m32(a, b float32) float32 { return float32(a * b) }

func mulMat4(m *mgl32.Mat4, v [4]float32) [4]float32 {
	var out [4]float32
	for r := 0; r < 4; r++ {
		out[r] = float32(float32(m32(m[r], v[0])+m32(m[4+r], v[1]))+m32(m[8+r], v[2])) + m32(m[12+r], v[3])
	}
	return out
}

func mulMat3(m *mgl32.Mat3, v [3]float32) [3]float32 {
	var out [3]float32
	for r := 0; r < 3; r++ {
		out[r] = float32(m32(m[r], v[0])+m32(m[3+r], v[1])) + m32(m[6+r], v[2])
	}
	return out
}

func dot3(a, b [3]float32) float32 {
	return float32(m32(a[0], b[0])+m32(a[1], b[1])) + m32(a[2], b[2])
}

func normalize3(v [3]float32) [3]float32 {
	l := float32(math.Sqrt(float64(dot3(v, v))))
	if l == 0 {
		return v
	}
	inv := 1 / l
	return [3]float32{m32(v[0], inv), m32(v[1], inv), m32(v[2], inv)}
}

func clamp01(v float32) float32 {
	if v != v || v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}
