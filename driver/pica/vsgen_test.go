package pica

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/hal/pica/picasso"
	picasim "github.com/retrogl/retrogl/sim/pica"
)

// TestGeneratedShaderMatchesSwtnl runs the generated fixed-function shader
// on the simulator's shader unit and compares its colour and position with
// driver/swtnl, the shared reference implementation of GL ES 1.1 transform
// and lighting. The shader computes in float24, so colours may differ by a
// little more than one 8-bit step.
func TestGeneratedShaderMatchesSwtnl(t *testing.T) {
	base := func() *driver.State {
		st := &driver.State{}
		st.ModelView = mgl32.Translate3D(0.2, -0.1, -3).Mul4(mgl32.HomogRotate3D(0.6, mgl32.Vec3{1, 1, 0}.Normalize()))
		st.Projection = mgl32.Frustum(-1, 1, -1, 1, 1, 10)
		st.Lighting.Enabled = true
		st.Lighting.Ambient = [4]float32{0.2, 0.2, 0.2, 1}
		st.Lighting.Material = driver.Material{Ambient: [4]float32{0.2, 0.3, 0.2, 1}, Diffuse: [4]float32{0.8, 0.7, 0.6, 0.5},
			Specular: [4]float32{0.5, 0.5, 0.5, 1}, Emission: [4]float32{0.05, 0, 0, 1}, Shininess: 16}
		for i := range st.Lighting.Lights {
			l := &st.Lighting.Lights[i]
			l.SpotCutoff, l.ConstantAtten, l.SpotDirection = 180, 1, [3]float32{0, 0, -1}
		}
		st.Normalize = true
		st.CurrentColor = [4]float32{1, 0.5, 0.25, 1}
		return st
	}
	cases := map[string]func(st *driver.State){
		"directional": func(st *driver.State) {
			st.Lighting.Lights[0] = driver.Light{Enabled: true, Diffuse: [4]float32{1, 1, 1, 1}, Specular: [4]float32{1, 1, 1, 1},
				Position: [4]float32{0.3, 0.5, 1, 0}, SpotCutoff: 180, ConstantAtten: 1}
		},
		"point-attenuated": func(st *driver.State) {
			st.Lighting.Lights[2] = driver.Light{Enabled: true, Diffuse: [4]float32{0, 0.5, 1, 1}, Ambient: [4]float32{0.1, 0.1, 0.1, 1},
				Position: [4]float32{-1, 0.5, -1, 1}, SpotCutoff: 180, ConstantAtten: 0.5, LinearAtten: 0.3, QuadraticAt: 0.1}
		},
		"spot": func(st *driver.State) {
			st.Lighting.Lights[7] = driver.Light{Enabled: true, Diffuse: [4]float32{1, 0.8, 0.2, 1}, Specular: [4]float32{1, 1, 1, 1},
				Position: [4]float32{0, 0, 0, 1}, SpotDirection: [3]float32{0.1, 0, -1}, SpotCutoff: 40, SpotExponent: 4, ConstantAtten: 1}
		},
		"color-material": func(st *driver.State) {
			st.Lighting.ColorMaterial = true
			st.Lighting.Lights[1] = driver.Light{Enabled: true, Diffuse: [4]float32{1, 1, 1, 1}, Ambient: [4]float32{0.3, 0.3, 0.3, 1},
				Position: [4]float32{1, 1, 1, 0}, SpotCutoff: 180, ConstantAtten: 1}
		},
	}
	// A small grid of vertices with varied normals.
	var pos, nrm []float32
	for i := 0; i < 12; i++ {
		x, y := float32(i%4)/2-0.75, float32(i/4)/2-0.5
		pos = append(pos, x, y, 0.3*x*y)
		n := mgl32.Vec3{x, y, 1}.Normalize()
		nrm = append(nrm, n[0], n[1], n[2])
	}
	for name, set := range cases {
		t.Run(name, func(t *testing.T) {
			st := base()
			set(st)
			va := &driver.VertexArrays{}
			va.Position = attrib(pos, 3)
			va.Normal = attrib(nrm, 3)
			dc := &driver.DrawCall{Prim: driver.PrimTriangles, Count: 12, MinIndex: 0, MaxIndex: 11, Arrays: va}
			var tnl swtnl.TnL
			_, err := tnl.Run(st, dc)
			require.NoError(t, err)
			ref := tnl.Vertices()

			key := makeKey(st, dc, 3)
			sb, err := picasso.Assemble(genVS(key))
			require.NoError(t, err)
			c := &Context{vpFold: mgl32.Ident4()}
			c.ffUniforms(st, key)
			var s picasim.Shader
			copy(s.Code[:], sb.Code)
			copy(s.Opdesc[:], sb.Opdescs)
			for i := 0; i < 96; i++ {
				if c.uvalid[i] {
					for k := 0; k < 4; k++ {
						s.Float[i][k] = p.F24ToFloat(c.uniforms[i][k])
					}
				}
			}
			for _, k := range sb.Executables[0].Consts {
				for j := 0; j < 4; j++ {
					s.Float[k.ID][j] = p.F24ToFloat(k.Data[j])
				}
			}
			for i := 0; i < 12; i++ {
				var u picasim.Unit
				u.In[0] = [4]float32{pos[3*i], pos[3*i+1], pos[3*i+2], 1}
				u.In[1] = st.CurrentColor
				u.In[2] = [4]float32{nrm[3*i], nrm[3*i+1], nrm[3*i+2], 1}
				require.NoError(t, u.Run(&s))
				for k := 0; k < 4; k++ {
					want := ref[i].Color[k]
					got := u.Out[1][k]
					if math.Abs(float64(got-want)) > 1.5/255 {
						t.Errorf("vertex %d colour[%d]: shader %v, swtnl %v", i, k, got, want)
					}
				}
				// Position: the shader's z is the folded -(z+w)/2.
				clip := ref[i].Clip
				want := [4]float32{clip[0], clip[1], -(clip[2] + clip[3]) / 2, clip[3]}
				for k := 0; k < 4; k++ {
					if math.Abs(float64(u.Out[0][k]-want[k])) > 1e-3*math.Max(1, math.Abs(float64(want[k]))) {
						t.Errorf("vertex %d position[%d]: shader %v, swtnl %v", i, k, u.Out[0][k], want[k])
					}
				}
			}
		})
	}
}

func attrib(v []float32, size int) driver.Attrib {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		bits := math.Float32bits(f)
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24)
	}
	return driver.Attrib{Enabled: true, Size: size, Type: driver.TypeFloat, Stride: 4 * size, Data: b}
}

// BenchmarkShaderUnit runs generated fixed-function shaders on the
// simulated shader unit alone: vertices/s through the unit.
func BenchmarkShaderUnit(b *testing.B) {
	for _, lights := range []int{0, 1, 8} {
		b.Run(fmt.Sprintf("lights=%d", lights), func(b *testing.B) {
			st := &driver.State{ModelView: mgl32.Ident4(), Projection: mgl32.Ident4()}
			if lights > 0 {
				st.Lighting.Enabled = true
				for i := 0; i < lights; i++ {
					st.Lighting.Lights[i] = driver.Light{Enabled: true, Diffuse: [4]float32{1, 1, 1, 1},
						Position: [4]float32{float32(i), 1, 1, 1}, SpotCutoff: 180, ConstantAtten: 1, LinearAtten: 0.1}
				}
			}
			dc := &driver.DrawCall{Prim: driver.PrimTriangles}
			key := makeKey(st, dc, 3)
			sb, err := picasso.Assemble(genVS(key))
			if err != nil {
				b.Fatal(err)
			}
			c := &Context{vpFold: mgl32.Ident4()}
			c.ffUniforms(st, key)
			var s picasim.Shader
			copy(s.Code[:], sb.Code)
			copy(s.Opdesc[:], sb.Opdescs)
			for i := 0; i < 96; i++ {
				for k := 0; k < 4; k++ {
					s.Float[i][k] = p.F24ToFloat(c.uniforms[i][k])
				}
			}
			var u picasim.Unit
			u.In[0] = [4]float32{0.1, 0.2, 0.3, 1}
			u.In[2] = [4]float32{0, 0, 1, 0}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := u.Run(&s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "vertices/s")
			b.ReportMetric(float64(u.Steps), "instructions/vertex")
		})
	}
}
