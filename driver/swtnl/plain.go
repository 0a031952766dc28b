package swtnl

import (
	"encoding/binary"
	"math"

	"github.com/retrogl/retrogl/driver"
)

// plain says whether a draw's vertices can take vertexPlain: no matrix
// palette, nothing that reads the eye position or the normal (lighting,
// fog, point attenuation, user clip planes) and no point-size array.
func (s *setup) plain(va *driver.VertexArrays) bool {
	return !s.palette && !s.needEye && !s.needNormal && !s.lighting && !va.PointSize.Enabled
}

// vertexPlain is vertex for a draw that plain accepts, with vertex's
// arithmetic in vertex's order: the normal is not fetched (nothing reads
// it), the eye position is left as it is (vertex does not write it
// either), and the point size is the clamped state size as vertex makes
// it without a size array or attenuation. TestVertexPlainMatches compares
// the two.
func (s *setup) vertexPlain(st *driver.State, va *driver.VertexArrays, i int, v *Vertex) {
	var p, c [4]float32
	fetch(&va.Position, i, [4]float32{0, 0, 0, 1}, &p)
	fetch(&va.Color, i, st.CurrentColor, &c)
	v.Clip = mulMat4(&s.mvp, p)
	for k := range c {
		c[k] = clamp01(c[k])
	}
	v.Color = c
	v.Back = v.Color
	for u := 0; u < s.units; u++ {
		var tc [4]float32
		fetch(&va.TexCoord[u], i, st.CurrentTexCoord[u], &tc)
		if !s.texIdent[u] {
			tc = mulMat4(&st.Units[u].Matrix, tc)
		}
		v.Tex[u] = tc
	}
	v.FogDist = float32(math.Abs(float64(v.Eye[2])))
	v.Fog = 1
	v.PointSize = max(st.Point.Min, min(st.Point.Max, st.Point.Size))
}

// fetch is a.Fetch with the float array read component by component
// without a loop; any other array, or one whose vertex lies outside its
// data, takes a.Fetch.
func fetch(a *driver.Attrib, i int, def [4]float32, out *[4]float32) {
	o, n := i*a.Stride, a.Size
	if !a.Enabled || a.Type != driver.TypeFloat || n < 1 || n > 4 || o < 0 || o > len(a.Data) || 4*n > len(a.Data)-o {
		a.Fetch(i, def, out)
		return
	}
	b := a.Data[o : o+4*n : o+4*n]
	*out = def
	out[0] = math.Float32frombits(binary.LittleEndian.Uint32(b))
	if n == 1 {
		return
	}
	out[1] = math.Float32frombits(binary.LittleEndian.Uint32(b[4:]))
	if n == 2 {
		return
	}
	out[2] = math.Float32frombits(binary.LittleEndian.Uint32(b[8:]))
	if n == 3 {
		return
	}
	out[3] = math.Float32frombits(binary.LittleEndian.Uint32(b[12:]))
}
