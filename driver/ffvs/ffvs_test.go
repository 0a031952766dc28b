package ffvs

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/compiler/ir"
	rc "github.com/retrogl/retrogl/compiler/r300"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	r3 "github.com/retrogl/retrogl/hal/r300"
	sim "github.com/retrogl/retrogl/sim/r300"
)

func floats(size int, v ...float32) driver.Attrib {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return driver.Attrib{Enabled: true, Size: size, Type: driver.TypeFloat, Stride: 4 * size, Data: b}
}

// baseState is a lit, textured, fogged state with three lights of each
// kind.
func baseState() *driver.State {
	st := &driver.State{}
	st.ModelView = mgl32.Translate3D(0.2, -0.1, -4).Mul4(mgl32.HomogRotate3DY(0.6)).Mul4(mgl32.Scale3D(1.2, 0.9, 1.1))
	st.Projection = mgl32.Frustum(-1, 1, -0.75, 0.75, 1, 20)
	st.Lighting.Enabled = true
	st.Lighting.Ambient = [4]float32{0.2, 0.2, 0.25, 1}
	st.Lighting.Material = driver.Material{Ambient: [4]float32{0.3, 0.2, 0.1, 1}, Diffuse: [4]float32{0.8, 0.6, 0.4, 0.75},
		Specular: [4]float32{0.5, 0.5, 0.5, 1}, Emission: [4]float32{0.05, 0, 0.1, 1}, Shininess: 12}
	st.Lighting.Lights[0] = driver.Light{Enabled: true, Ambient: [4]float32{0.1, 0.1, 0.1, 1}, Diffuse: [4]float32{1, 0.9, 0.8, 1},
		Specular: [4]float32{1, 1, 1, 1}, Position: [4]float32{0.3, 0.5, 1, 0}, SpotCutoff: 180, ConstantAtten: 1}
	st.Lighting.Lights[2] = driver.Light{Enabled: true, Diffuse: [4]float32{0.2, 0.7, 0.3, 1}, Specular: [4]float32{0.4, 0.4, 0.9, 1},
		Position: [4]float32{-1, 1, -2, 1}, SpotCutoff: 180, ConstantAtten: 0.5, LinearAtten: 0.2, QuadraticAt: 0.05}
	st.Lighting.Lights[5] = driver.Light{Enabled: true, Diffuse: [4]float32{0.9, 0.2, 0.2, 1}, Position: [4]float32{0, 0, -1, 1},
		SpotDirection: [3]float32{0.1, -0.2, -1}, SpotCutoff: 40, SpotExponent: 3, ConstantAtten: 1}
	st.Units[1].Matrix = mgl32.Translate3D(0.5, 0.25, 0).Mul4(mgl32.Scale3D(2, -1, 1))
	st.Units[0].Matrix = mgl32.Ident4()
	st.Units[0].Texture, st.Units[1].Texture = &driver.Texture{}, &driver.Texture{}
	st.Fog = driver.Fog{Enabled: true, Mode: driver.FogLinear, Start: 2, End: 9, Density: 0.3}
	st.Point = driver.PointParams{Size: 7.3, Min: 1, Max: 40, DistAtten: [3]float32{0.5, 0.1, 0.02}}
	st.CurrentColor = [4]float32{0.6, 0.7, 0.8, 0.9}
	for u := range st.CurrentTexCoord {
		st.CurrentTexCoord[u] = [4]float32{0, 0, 0, 1}
	}
	st.Normalize = true
	return st
}

// TestProgramsMatchSwtnl runs generated programs in the interpreter and
// compares every output with driver/swtnl's vertex for the same state,
// within float32 rounding, and checks that each program fits the R3xx PVS.
func TestProgramsMatchSwtnl(t *testing.T) {
	pos := floats(3, -1, -1, 0.5, 1.2, -0.8, -0.3, 0.1, 1.4, 0.8, 0.9, 0.2, -1.1)
	nrm := floats(3, 0, 0, 1, 0.3, 0.4, 0.85, -0.6, 0.5, 0.6, 0.1, -0.9, 0.4)
	col := floats(4, 1, 0, 0, 1, 0, 1, 0, 0.5, 0, 0, 1, 1, 0.5, 0.5, 0.5, 0.25)
	tc0 := floats(2, 0, 0, 1, 0, 1, 1, 0.25, 0.75)
	tc1 := floats(4, 0.5, 0.5, 0, 1, 1, 0.5, 0, 1, 0.2, 0.1, 0.3, 1, 0.6, 0.7, 0.2, 2)
	psz := floats(1, 3, 12.5, 6, 0.5)
	arrays := &driver.VertexArrays{Position: pos, Normal: nrm, Color: col, PointSize: psz}
	arrays.TexCoord[0], arrays.TexCoord[1] = tc0, tc1
	type variant struct {
		name string
		set  func(st *driver.State, va *driver.VertexArrays)
		prim driver.Prim
	}
	variants := []variant{
		{"lit", func(st *driver.State, va *driver.VertexArrays) {}, driver.PrimTriangles},
		{"colour material, no normalize, rescale", func(st *driver.State, va *driver.VertexArrays) {
			st.Lighting.ColorMaterial = true
			st.Normalize, st.RescaleNormal = false, true
		}, driver.PrimTriangles},
		{"unlit, exp fog", func(st *driver.State, va *driver.VertexArrays) {
			st.Lighting.Enabled = false
			st.Fog.Mode = driver.FogExp
		}, driver.PrimTriangles},
		{"exp2 fog, current colour", func(st *driver.State, va *driver.VertexArrays) {
			st.Lighting.Enabled = false
			st.Fog.Mode = driver.FogExp2
			va.Color.Enabled = false
		}, driver.PrimTriangles},
		{"points with attenuation", func(st *driver.State, va *driver.VertexArrays) {}, driver.PrimPoints},
		{"points from the size array", func(st *driver.State, va *driver.VertexArrays) {
			st.Point.DistAtten = [3]float32{1, 0, 0}
			st.Point.SizeArrayActive = true
		}, driver.PrimPoints},
		{"eight lights", func(st *driver.State, va *driver.VertexArrays) {
			for i := range st.Lighting.Lights {
				l := st.Lighting.Lights[i%3*2+1-i%3]
				l.Enabled = true
				l.Position = [4]float32{float32(i) - 3, 1, 2 - float32(i), float32(i % 2)}
				l.Diffuse = [4]float32{0.1 * float32(i), 0.3, 0.2, 1}
				l.SpotCutoff = 180
				l.ConstantAtten = 1
				st.Lighting.Lights[i] = l
			}
		}, driver.PrimTriangles},
		{"matrix palette, two units", func(st *driver.State, va *driver.VertexArrays) {
			st.MatrixPalette.Enabled = true
			for m := 0; m < 3; m++ {
				st.MatrixPalette.Matrices[m] = mgl32.Translate3D(float32(m)*0.3, 0, -3-float32(m)).Mul4(mgl32.HomogRotate3DX(0.4 * float32(m)))
			}
			va.Weight = floats(2, 0.75, 0.25, 0.5, 0.5, 1, 0, 0.2, 0.8)
			va.MatrixIndex = floats(2, 0, 1, 2, 1, 1, 0, 2, 2)
		}, driver.PrimTriangles},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			st := baseState()
			va := *arrays
			v.set(st, &va)
			if !st.Point.SizeArrayActive {
				va.PointSize.Enabled = false
			}
			dc := &driver.DrawCall{Prim: v.prim, Count: 4, Arrays: &va, MaxIndex: 3}
			if v.prim == driver.PrimTriangles {
				dc.Count = 3
				dc.MaxIndex = 2
			}
			var tnl swtnl.TnL
			_, err := tnl.Run(st, dc)
			require.NoError(t, err)
			want := tnl.Vertices()
			k := MakeKey(st, dc, []int{0, 1}, st.Fog.Enabled, 3)
			p := Build(k)
			require.NoError(t, p.Verify())
			u := Uniforms(k, st)
			var inputs [][][4]float32
			var results []*ir.Result
			for i := range want {
				env := &ir.Env{Uniforms: u}
				for _, in := range p.Inputs {
					var a *driver.Attrib
					def := [4]float32{0, 0, 0, 1}
					switch in.Name {
					case "position":
						a = &va.Position
					case "normal":
						a = &va.Normal
					case "color":
						a, def = &va.Color, st.CurrentColor
					case "psize":
						a = &va.PointSize
					case "tex0":
						a = &va.TexCoord[0]
					case "tex1":
						a = &va.TexCoord[1]
					case "weight":
						a = &va.Weight
					case "index":
						a = &va.MatrixIndex
					}
					var x [4]float32
					a.Fetch(i, def, &x)
					env.Inputs = append(env.Inputs, x)
				}
				r, err := ir.Run(p, env)
				require.NoError(t, err)
				inputs = append(inputs, env.Inputs)
				results = append(results, r)
				out := func(name string) [4]float32 {
					o := p.OutputIndex(name)
					require.GreaterOrEqual(t, o, 0, name)
					return r.Outputs[o]
				}
				near := func(what string, got, want [4]float32, n int) {
					for c := 0; c < n; c++ {
						assert.InDelta(t, want[c], got[c], 2e-5*max(1, math.Abs(float64(want[c]))), "vertex %d %s.%c", i, what, "xyzw"[c])
					}
				}
				w := &want[i]
				near("position", out("position"), w.Clip, 4)
				near("color0", out("color0"), w.Color, 4)
				near("tex0", out("tex0"), w.Tex[0], 4)
				near("tex1", out("tex1"), w.Tex[1], 4)
				if st.Fog.Enabled {
					near("fog", out("color1"), [4]float32{0, 0, 0, w.Fog}, 4)
				}
				if v.prim == driver.PrimPoints {
					s := float32(math.Round(float64(w.PointSize)))
					near("psize", out("psize"), [4]float32{s}, 1)
				}
			}
			outs := []string{"position", "psize", "color0", "color1", "tex0", "tex1"}
			vp, err := rc.CompileVertex(p, rc.VertexOptions{Outputs: outs})
			require.NoError(t, err, "%s", k)
			// The compiled program on the simulated PVS: the interpreter's
			// results bit for bit.
			e := sim.New().Engine
			set := func(a, x uint32) { require.NoError(t, e.SetReg(a, x)) }
			set(r3.VAP_PVS_VECTOR_INDX_REG, r3.PVSCodeStart)
			for _, x := range vp.Words() {
				set(r3.VAP_PVS_VECTOR_DATA_REG, x)
			}
			vals, err := vp.ConstValues(u)
			require.NoError(t, err)
			set(r3.VAP_PVS_VECTOR_INDX_REG, r3.PVSConstStart)
			for _, c := range vals {
				for _, x := range c {
					set(r3.VAP_PVS_VECTOR_DATA_REG, math.Float32bits(x))
				}
			}
			c0, c1 := vp.CodeCntl()
			set(r3.VAP_PVS_CODE_CNTL_0, c0)
			set(r3.VAP_PVS_CODE_CNTL_1, c1)
			set(r3.VAP_PVS_CONST_CNTL, uint32(len(vals)-1)<<16)
			for i, in := range inputs {
				got, err := e.ShadeVertex(in)
				require.NoError(t, err)
				for j, name := range outs {
					o := p.OutputIndex(name)
					if o < 0 {
						continue
					}
					for c := 0; c < 4; c++ {
						g, w := got[j][c], results[i].Outputs[o][c]
						assert.True(t, math.Float32bits(g) == math.Float32bits(w) || g == 0 && w == 0, "vertex %d %s.%c: PVS %v, interpreter %v", i, name, "xyzw"[c], g, w)
					}
				}
			}
			t.Logf("%s: %d PVS instructions, %d temporaries, %d constants", k, vp.Stats.Insts, vp.Stats.Temps, vp.Stats.Consts)
		})
	}
}

// TestKeys checks that state that cannot matter leaves the key alone and
// that the key names what it holds.
func TestKeys(t *testing.T) {
	st := baseState()
	dc := &driver.DrawCall{Prim: driver.PrimTriangles, Arrays: &driver.VertexArrays{}}
	k := MakeKey(st, dc, []int{0}, false, 0)
	st2 := baseState()
	st2.Lighting.Lights[0].Diffuse = [4]float32{0, 0, 0, 1}
	st2.Point.Size = 99
	assert.Equal(t, k, MakeKey(st2, dc, []int{0}, false, 0), "values are uniforms")
	assert.Equal(t, "ff-lightn02pa5ps-tex0.1", k.String())
	st2.Lighting.Lights[2].ConstantAtten, st2.Lighting.Lights[2].LinearAtten, st2.Lighting.Lights[2].QuadraticAt = 1, 0, 0
	assert.NotEqual(t, k, MakeKey(st2, dc, []int{0}, false, 0))
	dc.Prim = driver.PrimPoints
	assert.Contains(t, fmt.Sprint(MakeKey(st, dc, nil, true, 0)), "-fog2-pointa")
}
