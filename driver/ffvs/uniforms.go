package ffvs

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
)

// rowsOf returns a matrix's rows (mgl32 is column-major).
func rowsOf(m mgl32.Mat4) [4][4]float32 {
	var r [4][4]float32
	for i := 0; i < 4; i++ {
		r[i] = [4]float32{m[i], m[4+i], m[8+i], m[12+i]}
	}
	return r
}

func put4(u map[string][4]float32, name string, m mgl32.Mat4) {
	for i, r := range rowsOf(m) {
		u[fmt.Sprintf("%s%d", name, i)] = r
	}
}

// normalRows returns the rows of the normal matrix (the inverse transpose
// of the model-view's upper 3x3) scaled by RESCALE_NORMAL's factor
// (GL ES 1.1 §2.10.3) when normals are not normalised.
func normalRows(st *driver.State, mv mgl32.Mat4) [3][4]float32 {
	nm := mv.Mat3().Inv().Transpose()
	scale := float32(1)
	if st.RescaleNormal && !st.Normalize {
		inv := mv.Mat3().Inv()
		l := math.Sqrt(float64(inv[2]*inv[2] + inv[5]*inv[5] + inv[8]*inv[8]))
		if l != 0 {
			scale = float32(1 / l)
		}
	}
	var r [3][4]float32
	for i := 0; i < 3; i++ {
		r[i] = [4]float32{nm[i] * scale, nm[3+i] * scale, nm[6+i] * scale, 0}
	}
	return r
}

func mul3(a, b [4]float32) [4]float32 {
	return [4]float32{a[0] * b[0], a[1] * b[1], a[2] * b[2], a[3] * b[3]}
}

func norm3(v [3]float32) [3]float32 {
	l := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
	if l == 0 {
		return v
	}
	return [3]float32{v[0] / l, v[1] / l, v[2] / l}
}

// Uniforms returns the values of a key's program's uniforms for a state.
func Uniforms(k Key, st *driver.State) map[string][4]float32 {
	u := map[string][4]float32{}
	if k.Palette != 0 {
		put4(u, "proj", st.Projection)
		for m := 0; m < int(k.Palette); m++ {
			pm := st.MatrixPalette.Matrices[m]
			for i, r := range rowsOf(pm) {
				u[fmt.Sprintf("pal%d.%d", m, i)] = r
			}
			if k.Lighting {
				for i, r := range normalRows(st, pm) {
					u[fmt.Sprintf("paln%d.%d", m, i)] = r
				}
			}
		}
	} else {
		put4(u, "mvp", st.Projection.Mul4(st.ModelView))
		put4(u, "mv", st.ModelView)
		for i, r := range normalRows(st, st.ModelView) {
			u[fmt.Sprintf("nrm%d", i)] = r
		}
	}
	for t, m := range k.Tex {
		if m == 2 {
			put4(u, fmt.Sprintf("tex%d.", t), st.Units[t].Matrix)
		}
	}
	lt := &st.Lighting
	mat := lt.Material
	if k.ColorMaterial {
		u["emission"] = mat.Emission
		u["ambient"] = lt.Ambient
	} else {
		sc := mul3(mat.Ambient, lt.Ambient)
		u["scene"] = [4]float32{mat.Emission[0] + sc[0], mat.Emission[1] + sc[1], mat.Emission[2] + sc[2], 0}
	}
	u["material"] = [4]float32{mat.Shininess, 0, 0, mat.Diffuse[3]}
	for i, l := range lt.Lights {
		lk := k.Lights[i]
		if !lk.On {
			continue
		}
		name := func(s string) string { return fmt.Sprintf("light%d.%s", i, s) }
		if lk.Positional {
			w := l.Position[3]
			u[name("pos")] = [4]float32{l.Position[0] / w, l.Position[1] / w, l.Position[2] / w, 1}
		} else {
			d := norm3([3]float32{l.Position[0], l.Position[1], l.Position[2]})
			h := norm3([3]float32{d[0], d[1], d[2] + 1})
			u[name("pos")] = [4]float32{d[0], d[1], d[2], 0}
			u[name("half")] = [4]float32{h[0], h[1], h[2], 0}
		}
		// A directional light's spot factor is one for all vertices:
		// it scales the light's colours (swtnl.DirectionalSpot).
		spot := swtnl.DirectionalSpot(&lt.Lights[i])
		sp := [4]float32{spot, spot, spot, 1}
		if k.ColorMaterial {
			u[name("amb")] = mul3(l.Ambient, sp)
			u[name("dif")] = mul3(l.Diffuse, sp)
		} else {
			u[name("amb")] = mul3(mul3(l.Ambient, mat.Ambient), sp)
			u[name("dif")] = mul3(mul3(l.Diffuse, mat.Diffuse), sp)
		}
		u[name("spec")] = mul3(mul3(l.Specular, mat.Specular), sp)
		sd := norm3(l.SpotDirection)
		u[name("spot")] = [4]float32{sd[0], sd[1], sd[2], float32(math.Cos(float64(l.SpotCutoff) * math.Pi / 180))}
		u[name("att")] = [4]float32{l.ConstantAtten, l.LinearAtten, l.QuadraticAt, l.SpotExponent}
	}
	if k.Fog != 0 {
		f := st.Fog
		s := float32(math.Ldexp(1, 60))
		if f.End != f.Start {
			s = 1 / (f.End - f.Start)
		}
		u["fog"] = [4]float32{s, f.End * s, f.Density, 0}
	}
	if k.Points {
		u["point"] = [4]float32{st.Point.Size, st.Point.Min, st.Point.Max, 0}
		u["atten"] = [4]float32{st.Point.DistAtten[0], st.Point.DistAtten[1], st.Point.DistAtten[2], 0}
	}
	return u
}
