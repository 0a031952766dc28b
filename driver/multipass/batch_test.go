package multipass

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
)

func wv(x, y float32) swtnl.Vertex {
	return swtnl.Vertex{Win: [4]float32{x, y, 0.5, 1}, Clip: [4]float32{0, 0, 0, 1}, Color: [4]float32{1, 1, 1, 1}}
}

// fan returns the triangles of a fan around c through the points ps.
func fan(c swtnl.Vertex, ps ...swtnl.Vertex) []swtnl.Vertex {
	var out []swtnl.Vertex
	for i := 0; i+1 < len(ps); i++ {
		out = append(out, c, ps[i], ps[i+1])
	}
	return out
}

var fp = Footprint{PointSize: func(v *swtnl.Vertex) float32 { return v.PointSize }, LineHalf: 0.5}

func sizes(bs []Batch) string {
	var s []string
	for _, b := range bs {
		n := len(b.Mesh.Triangles)/3 + len(b.Mesh.Lines)/2 + len(b.Mesh.Points)
		s = append(s, fmt.Sprint(n))
	}
	return strings.Join(s, " ")
}

func TestBatches(t *testing.T) {
	bounds := Rect{0, 0, 64, 64}
	quad := func(x0, y0, x1, y1 float32) []swtnl.Vertex {
		return fan(wv(x0, y0), wv(x1, y0), wv(x1, y1), wv(x0, y1))
	}
	circle := func() []swtnl.Vertex {
		var ps []swtnl.Vertex
		for i := 0; i <= 8; i++ {
			a := float64(i) * math.Pi / 4
			ps = append(ps, wv(32+20*float32(math.Cos(a)), 32+20*float32(math.Sin(a))))
		}
		return fan(wv(32, 32), ps...)
	}
	pts := func(xy ...float32) []swtnl.Vertex {
		var out []swtnl.Vertex
		for i := 0; i+1 < len(xy); i += 2 {
			v := wv(xy[i], xy[i+1])
			v.PointSize = 4
			out = append(out, v)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		mesh swtnl.Mesh
		want string
	}{
		{"a quad's two triangles share an edge", swtnl.Mesh{Triangles: quad(4, 4, 20, 20)}, "2"},
		{"two quads side by side", swtnl.Mesh{Triangles: append(quad(4, 4, 20, 20), quad(20, 4, 36, 20)...)}, "4"},
		{"two overlapping quads", swtnl.Mesh{Triangles: append(quad(4, 4, 20, 20), quad(10, 10, 30, 30)...)}, "2 2"},
		{"a fan around a centre", swtnl.Mesh{Triangles: circle()}, "8"},
		{"the same quad twice", swtnl.Mesh{Triangles: append(quad(4, 4, 20, 20), quad(4, 4, 20, 20)...)}, "2 2"},
		{"a sliver one sub-pixel beside", swtnl.Mesh{Triangles: append(quad(4, 4, 20, 20),
			wv(20.03, 4), wv(30, 4), wv(20.03, 20))}, "2 1"},
		{"points apart", swtnl.Mesh{Points: pts(10, 10, 20, 10, 30, 10)}, "3"},
		{"points overlapping", swtnl.Mesh{Points: pts(10, 10, 12, 10, 30, 10)}, "1 2"},
		{"a line strip doubling back", swtnl.Mesh{Lines: []swtnl.Vertex{wv(5, 5), wv(40, 5), wv(40, 5), wv(10, 5.5)}}, "1 1"},
		{"lines apart", swtnl.Mesh{Lines: []swtnl.Vertex{wv(5, 5), wv(40, 5), wv(5, 9), wv(40, 9)}}, "2"},
		{"outside the bounds", swtnl.Mesh{Triangles: quad(70, 70, 90, 90)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bs := Batches(&tc.mesh, fp, bounds)
			assert.Equal(t, tc.want, sizes(bs))
			for _, b := range bs {
				assert.False(t, b.Box.Empty())
				assert.Equal(t, b.Box, b.Box.Intersect(bounds))
			}
		})
	}
}

// TestBatchBoxes checks that a batch's box holds every pixel centre its
// primitives cover.
func TestBatchBoxes(t *testing.T) {
	m := swtnl.Mesh{Triangles: fan(wv(10.2, 3.7), wv(30.9, 5.1), wv(17.5, 28.3))}
	bs := Batches(&m, fp, Rect{0, 0, 64, 64})
	require.Len(t, bs, 1)
	b := bs[0].Box
	pts := [][2]float64{{10.2, 3.7}, {30.9, 5.1}, {17.5, 28.3}}
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			if depth(pts, float64(x)+0.5, float64(y)+0.5) >= 0 {
				assert.True(t, x >= b.X0 && x < b.X1 && y >= b.Y0 && y < b.Y1, "pixel %d,%d outside %v", x, y, b)
			}
		}
	}
}

// TestDerived checks the operand textures.
func TestDerived(t *testing.T) {
	src := &driver.Texture{ID: 7, Gen: 3, Format: driver.TexRGBA8888,
		Levels: []driver.Level{{Width: 2, Height: 1, Data: []byte{10, 20, 30, 40, 200, 100, 0, 255}}}}
	var d Derived
	for _, tc := range []struct {
		op   driver.CombineOperand
		want []byte
	}{
		{driver.OperandOneMinusSrcColor, []byte{245, 235, 225, 215, 55, 155, 255, 0}},
		{driver.OperandSrcAlpha, []byte{40, 40, 40, 40, 255, 255, 255, 255}},
		{driver.OperandOneMinusSrcAlpha, []byte{215, 215, 215, 215, 0, 0, 0, 0}},
	} {
		g := d.Get(src, tc.op)
		assert.Equal(t, tc.want, g.Levels[0].Data)
		assert.Equal(t, src.Gen, g.Gen)
		assert.NotEqual(t, src.ID, g.ID)
		assert.Same(t, g, d.Get(src, tc.op), "cached")
	}
	// Alpha-only and luminance textures derive from GL's texel values.
	a8 := &driver.Texture{ID: 8, Format: driver.TexA8, Levels: []driver.Level{{Width: 1, Height: 1, Data: []byte{77}}}}
	assert.Equal(t, []byte{255, 255, 255, 178}, d.Get(a8, driver.OperandOneMinusSrcColor).Levels[0].Data)
	before := d.Get(src, driver.OperandSrcAlpha)
	d.Release(7)
	assert.NotSame(t, before, d.Get(src, driver.OperandSrcAlpha), "released")
}
