package swtnl

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
)

// light is a light prepared for one draw.
type light struct {
	l          *driver.Light
	positional bool
	dir        [3]float32 // directional: unit vector towards the light
	half       [3]float32 // directional: unit half vector (infinite viewer)
	pos        [3]float32 // positional: eye-space position
	spot       bool
	spotDir    [3]float32
	spotCos    float32
	dirSpot    float32 // a directional light's spot factor (DirectionalSpot)
	atten      bool
}

// setup is the per-draw state: matrices, prepared lights and flags.
type setup struct {
	mv, mvp    mgl32.Mat4
	normalMat  mgl32.Mat3
	rescale    float32
	lights     []light
	lighting   bool
	needEye    bool
	needNormal bool
	palette    bool
	palMV      [driver.MaxPaletteMatrix]mgl32.Mat4
	palNormal  [driver.MaxPaletteMatrix]mgl32.Mat3
	units      int
	texIdent   [driver.MaxTextureUnits]bool
	// pointSize is a plain draw's point size (plain).
	pointSize float32
}

func normalMatrix(m mgl32.Mat4) mgl32.Mat3 {
	return m.Mat3().Inv().Transpose()
}

func (s *setup) init(st *driver.State) {
	s.mv = st.ModelView
	s.mvp = st.Projection.Mul4(st.ModelView)
	s.lighting = st.Lighting.Enabled
	s.palette = st.MatrixPalette.Enabled
	s.needNormal = s.lighting
	s.needEye = s.lighting || st.Fog.Enabled || st.Point.DistAtten != [3]float32{1, 0, 0}
	for _, p := range st.ClipPlanes {
		s.needEye = s.needEye || p.Enabled
	}
	if s.needNormal {
		s.normalMat = normalMatrix(s.mv)
		s.rescale = 1
		if st.RescaleNormal && !st.Normalize {
			// GL ES 1.1 §2.10.3: f = 1/sqrt(m31²+m32²+m33²) of the inverse
			// model-view's upper 3x3 (its third row).
			inv := s.mv.Mat3().Inv()
			l := math.Sqrt(float64(inv[2]*inv[2] + inv[5]*inv[5] + inv[8]*inv[8]))
			if l != 0 {
				s.rescale = float32(1 / l)
			}
		}
	}
	if s.palette {
		for i := range st.MatrixPalette.Matrices {
			s.palMV[i] = st.MatrixPalette.Matrices[i]
			if s.needNormal {
				s.palNormal[i] = normalMatrix(s.palMV[i])
			}
		}
	}
	s.lights = s.lights[:0]
	if s.lighting {
		for i := range st.Lighting.Lights {
			l := &st.Lighting.Lights[i]
			if !l.Enabled {
				continue
			}
			pl := light{l: l, positional: l.Position[3] != 0}
			if pl.positional {
				w := l.Position[3]
				pl.pos = [3]float32{l.Position[0] / w, l.Position[1] / w, l.Position[2] / w}
				pl.atten = l.ConstantAtten != 1 || l.LinearAtten != 0 || l.QuadraticAt != 0
				if l.SpotCutoff != 180 {
					pl.spot = true
					pl.spotDir = normalize3(l.SpotDirection)
					pl.spotCos = float32(math.Cos(float64(l.SpotCutoff) * math.Pi / 180))
				}
			} else {
				pl.dir = normalize3([3]float32{l.Position[0], l.Position[1], l.Position[2]})
				pl.half = normalize3([3]float32{pl.dir[0], pl.dir[1], pl.dir[2] + 1})
				pl.dirSpot = DirectionalSpot(l)
			}
			s.lights = append(s.lights, pl)
		}
	}
	s.units = 0
	for u := range st.Units {
		if st.Units[u].Texture != nil {
			s.units = u + 1
		}
		s.texIdent[u] = st.Units[u].Matrix == mgl32.Ident4()
	}
}

// vertex computes one vertex.
func (s *setup) vertex(st *driver.State, va *driver.VertexArrays, i int, v *Vertex) {
	var p, c, n4 [4]float32
	va.Position.Fetch(i, [4]float32{0, 0, 0, 1}, &p)
	va.Color.Fetch(i, st.CurrentColor, &c)
	cn := st.CurrentNormal
	va.Normal.Fetch(i, [4]float32{cn[0], cn[1], cn[2], 0}, &n4)
	n := [3]float32{n4[0], n4[1], n4[2]}

	if s.palette {
		var wts, idx [4]float32
		va.Weight.Fetch(i, [4]float32{}, &wts)
		va.MatrixIndex.Fetch(i, [4]float32{}, &idx)
		units := max(va.Weight.Size, va.MatrixIndex.Size)
		var eye [4]float32
		var nrm [3]float32
		for k := 0; k < units && k < 4; k++ {
			m := int(idx[k])
			if m < 0 || m >= driver.MaxPaletteMatrix {
				continue
			}
			e := mulMat4(&s.palMV[m], p)
			for j := 0; j < 4; j++ {
				eye[j] += m32(wts[k], e[j])
			}
			if s.needNormal {
				nn := mulMat3(&s.palNormal[m], n)
				for j := 0; j < 3; j++ {
					nrm[j] += m32(wts[k], nn[j])
				}
			}
		}
		v.Eye = eye
		v.Clip = mulMat4(&st.Projection, eye)
		n = nrm
	} else {
		v.Clip = mulMat4(&s.mvp, p)
		if s.needEye {
			v.Eye = mulMat4(&s.mv, p)
		}
		if s.needNormal {
			n = mulMat3(&s.normalMat, n)
		}
	}
	if s.needNormal {
		if st.Normalize {
			n = normalize3(n)
		} else if s.rescale != 1 {
			n = [3]float32{m32(n[0], s.rescale), m32(n[1], s.rescale), m32(n[2], s.rescale)}
		}
	}

	if s.lighting {
		v.Color = s.light(st, v, n, c)
		if st.Lighting.TwoSide {
			v.Back = s.light(st, v, [3]float32{-n[0], -n[1], -n[2]}, c)
		}
	} else {
		for k := range c {
			c[k] = clamp01(c[k])
		}
		v.Color = c
	}
	if !st.Lighting.TwoSide || !s.lighting {
		v.Back = v.Color
	}

	for u := 0; u < s.units; u++ {
		var tc [4]float32
		va.TexCoord[u].Fetch(i, st.CurrentTexCoord[u], &tc)
		if !s.texIdent[u] {
			tc = mulMat4(&st.Units[u].Matrix, tc)
		}
		v.Tex[u] = tc
	}

	v.FogDist = float32(math.Abs(float64(v.Eye[2])))
	v.Fog = 1
	if st.Fog.Enabled {
		v.Fog = FogFactor(&st.Fog, v.FogDist)
	}

	size := st.Point.Size
	if va.PointSize.Enabled {
		var ps [4]float32
		va.PointSize.Fetch(i, [4]float32{size, 0, 0, 1}, &ps)
		size = ps[0]
	}
	if a := st.Point.DistAtten; a != [3]float32{1, 0, 0} {
		d := float32(math.Sqrt(float64(dot3([3]float32{v.Eye[0], v.Eye[1], v.Eye[2]}, [3]float32{v.Eye[0], v.Eye[1], v.Eye[2]}))))
		den := a[0] + m32(a[1], d) + m32(a[2], m32(d, d))
		if den > 0 {
			size = m32(size, float32(math.Sqrt(float64(1/den))))
		}
	}
	size = max(st.Point.Min, min(st.Point.Max, size))
	v.PointSize = size
}

// FogFactor computes the GL fog factor f for eye distance c, clamped to
// [0, 1] (ES 1.1 §3.8).
func FogFactor(f *driver.Fog, c float32) float32 {
	switch f.Mode {
	case driver.FogLinear:
		if f.End == f.Start {
			if c < f.End {
				return 1
			}
			return 0
		}
		return clamp01((f.End - c) / (f.End - f.Start))
	case driver.FogExp:
		return clamp01(float32(math.Exp(-float64(m32(f.Density, c)))))
	}
	dc := m32(f.Density, c)
	return clamp01(float32(math.Exp(-float64(m32(dc, dc)))))
}

// light evaluates the ES 1.1 lighting equation (§2.12.1) with an infinite
// viewer (ES has no LIGHT_MODEL_LOCAL_VIEWER) for normal n and vertex colour
// c. Alpha is the material diffuse alpha.
func (s *setup) light(st *driver.State, v *Vertex, n [3]float32, c [4]float32) [4]float32 {
	lt := &st.Lighting
	mat := lt.Material
	amb, dif := mat.Ambient, mat.Diffuse
	if lt.ColorMaterial {
		amb, dif = c, c
	}
	var out [3]float32
	for k := 0; k < 3; k++ {
		out[k] = mat.Emission[k] + m32(amb[k], lt.Ambient[k])
	}
	eye := [3]float32{v.Eye[0], v.Eye[1], v.Eye[2]}
	if v.Eye[3] != 0 && v.Eye[3] != 1 {
		w := v.Eye[3]
		eye = [3]float32{eye[0] / w, eye[1] / w, eye[2] / w}
	}
	for i := range s.lights {
		pl := &s.lights[i]
		l := pl.l
		var vp, h [3]float32
		att := float32(1)
		if pl.positional {
			d := [3]float32{pl.pos[0] - eye[0], pl.pos[1] - eye[1], pl.pos[2] - eye[2]}
			dist := float32(math.Sqrt(float64(dot3(d, d))))
			if dist > 0 {
				inv := 1 / dist
				vp = [3]float32{m32(d[0], inv), m32(d[1], inv), m32(d[2], inv)}
			}
			if pl.atten {
				den := l.ConstantAtten + m32(l.LinearAtten, dist) + m32(l.QuadraticAt, m32(dist, dist))
				if den > 0 {
					att = 1 / den
				}
			}
			if pl.spot {
				sd := -dot3(vp, pl.spotDir)
				if sd < pl.spotCos {
					att = 0
				} else if l.SpotExponent != 0 {
					att = m32(att, float32(math.Pow(float64(sd), float64(l.SpotExponent))))
				}
			}
			h = normalize3([3]float32{vp[0], vp[1], vp[2] + 1})
		} else {
			vp, h = pl.dir, pl.half
			att = pl.dirSpot
		}
		if att == 0 {
			continue
		}
		ndl := dot3(n, vp)
		for k := 0; k < 3; k++ {
			out[k] += m32(att, m32(amb[k], l.Ambient[k]))
		}
		if ndl > 0 {
			for k := 0; k < 3; k++ {
				out[k] += m32(att, m32(ndl, m32(dif[k], l.Diffuse[k])))
			}
			// (n . h) is clamped at 0; pow(0, 0) = 1 as GL's limit has it.
			ndh := max(dot3(n, h), 0)
			spec := float32(math.Pow(float64(ndh), float64(mat.Shininess)))
			for k := 0; k < 3; k++ {
				out[k] += m32(att, m32(spec, m32(mat.Specular[k], l.Specular[k])))
			}
		}
	}
	return [4]float32{clamp01(out[0]), clamp01(out[1]), clamp01(out[2]), clamp01(dif[3])}
}

// DirectionalSpot is the spotlight factor spot_i of a directional light
// (position w = 0), the same for every vertex. ES 1.1 section 2.12.1 makes
// no exception for such a light: spot_i = (P_pli V . s_dli)^s_rli when
// that product is at least cos(c_rli), 0 below, 1 when c_rli = 180, where
// the unit vector P_pli V from a light at infinity is the negated
// direction (x, y, z) of P_pli (the section's rule for a zero w). Mesa
// does the same; the chips' own directional light types ignore the spot
// cone, so the drivers scale such a light's colours by this factor. A
// positional light returns 1 (its factor varies per vertex).
func DirectionalSpot(l *driver.Light) float32 {
	if l.Position[3] != 0 || l.SpotCutoff == 180 {
		return 1
	}
	d := normalize3([3]float32{l.Position[0], l.Position[1], l.Position[2]})
	sd := -dot3(d, normalize3(l.SpotDirection))
	if sd < float32(math.Cos(float64(l.SpotCutoff)*math.Pi/180)) {
		return 0
	}
	if l.SpotExponent == 0 {
		return 1
	}
	return float32(math.Pow(float64(sd), float64(l.SpotExponent)))
}
