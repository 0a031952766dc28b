package pica

import (
	"encoding/binary"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
)

// OES_matrix_palette: the vertex blend runs on the CPU. Each vertex's
// eye-space position and normal are the weighted sums of the palette
// matrices' products (normals through each matrix's inverse transpose,
// then RESCALE_NORMAL's factor from the model-view, as driver/swtnl does);
// the draw then goes through the generated shader with an identity
// model-view, so lighting, fog, point attenuation and clip planes (all in
// eye space) are unchanged. The shader unit could blend itself, but 32
// palette matrices with their normal matrices do not fit 96 uniforms next
// to eight lights.

func floatAttrib(n, size int) driver.Attrib {
	return driver.Attrib{Enabled: true, Size: size, Type: driver.TypeFloat, Stride: 4 * size, Data: make([]byte, 4*size*n)}
}

func putFloats(a *driver.Attrib, i int, v []float32) {
	for k, f := range v {
		binary.LittleEndian.PutUint32(a.Data[i*a.Stride+4*k:], math.Float32bits(f))
	}
}

// paletteDraw blends the draw's vertices into eye space and draws them.
func (c *Context) paletteDraw(st *driver.State, dc *driver.DrawCall) error {
	va := dc.Arrays
	n := dc.MaxIndex + 1
	pos, nrm := floatAttrib(n, 4), floatAttrib(n, 3)
	var normalMats [driver.MaxPaletteMatrix]mgl32.Mat3
	for i := range normalMats {
		normalMats[i] = st.MatrixPalette.Matrices[i].Mat3().Inv().Transpose()
	}
	rescale := float32(1)
	if st.RescaleNormal && !st.Normalize {
		inv := st.ModelView.Mat3().Inv()
		if l := math.Sqrt(float64(inv[2]*inv[2] + inv[5]*inv[5] + inv[8]*inv[8])); l != 0 {
			rescale = float32(1 / l)
		}
	}
	units := max(va.Weight.Size, va.MatrixIndex.Size)
	for i := dc.MinIndex; i <= dc.MaxIndex; i++ {
		var p, n4, w, idx [4]float32
		va.Position.Fetch(i, [4]float32{0, 0, 0, 1}, &p)
		cn := st.CurrentNormal
		va.Normal.Fetch(i, [4]float32{cn[0], cn[1], cn[2], 0}, &n4)
		va.Weight.Fetch(i, [4]float32{}, &w)
		va.MatrixIndex.Fetch(i, [4]float32{}, &idx)
		var eye mgl32.Vec4
		var en mgl32.Vec3
		for k := 0; k < units && k < 4; k++ {
			m := int(idx[k])
			if m < 0 || m >= driver.MaxPaletteMatrix {
				continue
			}
			eye = eye.Add(st.MatrixPalette.Matrices[m].Mul4x1(mgl32.Vec4(p)).Mul(w[k]))
			en = en.Add(normalMats[m].Mul3x1(mgl32.Vec3{n4[0], n4[1], n4[2]}).Mul(w[k]))
		}
		putFloats(&pos, i, eye[:])
		en = en.Mul(rescale)
		putFloats(&nrm, i, en[:])
	}
	st2 := *st
	st2.ModelView = mgl32.Ident4()
	st2.MatrixPalette.Enabled = false
	st2.RescaleNormal = false
	va2 := *va
	va2.Position, va2.Normal = pos, nrm
	dc2 := *dc
	dc2.Arrays = &va2
	return c.Draw(&st2, &dc2)
}
