package swtnl

import (
	"encoding/binary"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
)

// plain says whether a draw's vertices can take vertexPlain: no matrix
// palette, nothing that reads the eye position or the normal (lighting,
// fog, point attenuation, user clip planes) and no point-size array. It
// sets the draw's point size, the same for every vertex then.
func (s *setup) plain(st *driver.State, va *driver.VertexArrays) bool {
	if s.palette || s.needEye || s.needNormal || s.lighting || va.PointSize.Enabled {
		return false
	}
	s.pointSize = max(st.Point.Min, min(st.Point.Max, st.Point.Size))
	return true
}

// vertexPlain is vertex for a draw that plain accepts, with vertex's
// arithmetic in vertex's order: the normal is not fetched (nothing reads
// it), the eye position is left as it is (vertex does not write it
// either), and the point size is the clamped state size as vertex makes
// it without a size array or attenuation. TestVertexPlainMatches compares
// the two.
func (s *setup) vertexPlain(st *driver.State, va *driver.VertexArrays, i int, v *Vertex) {
	var p, c [4]float32
	fetch(&va.Position, i, &[4]float32{0, 0, 0, 1}, &p)
	fetch(&va.Color, i, &st.CurrentColor, &c)
	// Written element by element: a whole-array copy of values just
	// stored one by one would wait on the stores.
	mulMat4To(&s.mvp, &p, &v.Clip)
	for k := range c {
		x := clamp01(c[k])
		v.Color[k], v.Back[k] = x, x
	}
	for u := 0; u < s.units; u++ {
		var tc [4]float32
		fetch(&va.TexCoord[u], i, &st.CurrentTexCoord[u], &tc)
		if !s.texIdent[u] {
			tc = mulMat4(&st.Units[u].Matrix, tc)
		}
		v.Tex[u] = tc
	}
	v.FogDist = float32(math.Abs(float64(v.Eye[2])))
	v.Fog = 1
	v.PointSize = s.pointSize
}

// mulMat4To is mulMat4(m, *v) stored in out element by element (out is
// not v).
func mulMat4To(m *mgl32.Mat4, v, out *[4]float32) {
	x, y, z, w := v[0], v[1], v[2], v[3]
	out[0] = float32(float32(m32(m[0], x)+m32(m[4], y))+m32(m[8], z)) + m32(m[12], w)
	out[1] = float32(float32(m32(m[1], x)+m32(m[5], y))+m32(m[9], z)) + m32(m[13], w)
	out[2] = float32(float32(m32(m[2], x)+m32(m[6], y))+m32(m[10], z)) + m32(m[14], w)
	out[3] = float32(float32(m32(m[3], x)+m32(m[7], y))+m32(m[11], z)) + m32(m[15], w)
}

// fetch is a.Fetch(i, *def, out) with a float array's components read
// without Fetch's loop; any other array, or a vertex outside the array's
// data, takes a.Fetch.
func fetch(a *driver.Attrib, i int, def *[4]float32, out *[4]float32) {
	o := i * a.Stride
	if a.Enabled && a.Type == driver.TypeFloat && o >= 0 {
		d := a.Data
		switch a.Size {
		case 3:
			if o <= len(d)-12 {
				b := d[o : o+12 : o+12]
				*out = [4]float32{f32le(b[0:4]), f32le(b[4:8]), f32le(b[8:12]), def[3]}
				return
			}
		case 4:
			if o <= len(d)-16 {
				b := d[o : o+16 : o+16]
				*out = [4]float32{f32le(b[0:4]), f32le(b[4:8]), f32le(b[8:12]), f32le(b[12:16])}
				return
			}
		case 2:
			if o <= len(d)-8 {
				b := d[o : o+8 : o+8]
				*out = [4]float32{f32le(b[0:4]), f32le(b[4:8]), def[2], def[3]}
				return
			}
		}
	}
	a.Fetch(i, *def, out)
}

// f32le is the little-endian float32 in b's first four bytes.
func f32le(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) }
