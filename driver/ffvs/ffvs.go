// Package ffvs generates GL ES 1.1 fixed-function vertex processing as
// compiler/ir vertex programs, for chips whose vertex unit runs programs
// (the R3xx PVS through compiler/r300): model-view and projection or the
// OES_matrix_palette blend, normal transformation with NORMALIZE and
// RESCALE_NORMAL, lighting with eight lights (GL ES 1.1 §2.12.1, infinite
// viewer, colour material, either face's normal for two-sided lighting),
// the texture matrices, the per-vertex fog factor (§3.8) and the point
// size with distance attenuation (§3.3). It follows driver/swtnl's
// arithmetic in the program's own float32 operations.
//
// A Key holds the state a program depends on; equal keys give the same
// program, so a driver caches programs by key. Uniforms returns the
// values of the program's uniform constants for a draw's state.
//
// Inputs are named "position", "color", "normal", "psize", "weight",
// "index" and "texN"; outputs "position", "psize", "color0" (the lit or
// vertex colour, clamped), "color1" (the fog factor in w) and "texN".
package ffvs

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/compiler/ir"
	"github.com/retrogl/retrogl/driver"
)

// LightKey is the part of a light a program depends on.
type LightKey struct {
	On, Positional, Spot, Atten bool
}

// Key is the fixed-function vertex state a generated program depends on.
// Fields that cannot matter are zero, so equal behaviour compares equal.
type Key struct {
	Lighting      bool
	Normalize     bool
	ColorMaterial bool
	// Back lights with the negated normal (the back faces of two-sided
	// lighting, drawn in their own pass).
	Back   bool
	Lights [driver.MaxLights]LightKey
	// Tex holds per output unit 0 (not written), 1 (the coordinates as
	// they are) or 2 (through the texture matrix).
	Tex [driver.MaxTextureUnits]uint8
	// Fog is the per-vertex fog mode plus one (0: no fog output).
	Fog uint8
	// Points writes the point size; PointAtten attenuates it with the
	// eye distance; SizeArray reads it from the "psize" input.
	Points, PointAtten, SizeArray bool
	// Palette is the number of palette matrices the draw's indices reach
	// (0: no matrix palette) and Units the vertex units per vertex.
	Palette, Units uint8
	// EyeW is set when the eye position's w may differ from 1 (a
	// model-view whose last row is not (0, 0, 0, 1), or the palette):
	// lighting then divides by it.
	EyeW bool
}

// String names the key, for listings.
func (k Key) String() string {
	s := "ff"
	if k.Lighting {
		s += "-light"
		if k.Normalize {
			s += "n"
		}
		if k.ColorMaterial {
			s += "c"
		}
		for i, l := range k.Lights {
			if l.On {
				s += fmt.Sprint(i)
				if l.Positional {
					s += "p"
				}
				if l.Spot {
					s += "s"
				}
				if l.Atten {
					s += "a"
				}
			}
		}
		if k.Back {
			s += "-back"
		}
	}
	for u, t := range k.Tex {
		if t != 0 {
			s += fmt.Sprintf("-tex%d.%d", u, t)
		}
	}
	if k.Fog != 0 {
		s += fmt.Sprintf("-fog%d", k.Fog-1)
	}
	if k.Points {
		s += "-point"
		if k.PointAtten {
			s += "a"
		}
		if k.SizeArray {
			s += "s"
		}
	}
	if k.Palette != 0 {
		s += fmt.Sprintf("-palette%dx%d", k.Palette, k.Units)
	}
	return s
}

// MakeKey returns the key of a draw's state: units lists the texture units
// whose coordinates the program writes, fog whether it computes the fog
// factor, palette the number of palette matrices the draw's indices reach
// (ignored without OES_matrix_palette).
func MakeKey(st *driver.State, dc *driver.DrawCall, units []int, fog bool, palette int) Key {
	var k Key
	if st.Lighting.Enabled {
		k.Lighting = true
		k.Normalize = st.Normalize
		k.ColorMaterial = st.Lighting.ColorMaterial
		for i, l := range st.Lighting.Lights {
			if !l.Enabled {
				continue
			}
			pos := l.Position[3] != 0
			k.Lights[i] = LightKey{On: true, Positional: pos,
				Spot:  pos && l.SpotCutoff != 180,
				Atten: pos && (l.ConstantAtten != 1 || l.LinearAtten != 0 || l.QuadraticAt != 0)}
		}
	}
	for _, u := range units {
		k.Tex[u] = 1
		if st.Units[u].Matrix != mgl32.Ident4() {
			k.Tex[u] = 2
		}
	}
	if fog {
		k.Fog = uint8(st.Fog.Mode) + 1
	}
	if dc.Prim == driver.PrimPoints {
		k.Points = true
		k.PointAtten = st.Point.DistAtten != [3]float32{1, 0, 0}
		k.SizeArray = dc.Arrays != nil && dc.Arrays.PointSize.Enabled
	}
	k.EyeW = k.Lighting && st.ModelView.Row(3) != mgl32.Vec4{0, 0, 0, 1}
	if st.MatrixPalette.Enabled && dc.Arrays != nil {
		k.EyeW = k.Lighting
		k.Palette = uint8(max(1, min(palette, driver.MaxPaletteMatrix)))
		k.Units = uint8(max(dc.Arrays.Weight.Size, dc.Arrays.MatrixIndex.Size))
		if !dc.Arrays.Weight.Enabled || !dc.Arrays.MatrixIndex.Enabled {
			k.Units = 0
		}
	}
	return k
}

// builder assembles an IR program.
type builder struct {
	p      *ir.Program
	ntemp  int
	inputs map[string]int
	consts map[string]int
}

func (b *builder) temp() ir.Reg { b.ntemp++; return ir.Reg{File: ir.Temp, Index: b.ntemp - 1} }

func (b *builder) in(name string) ir.Src {
	i, ok := b.inputs[name]
	if !ok {
		i = len(b.p.Inputs)
		b.p.Inputs = append(b.p.Inputs, ir.Var{Name: name})
		b.inputs[name] = i
	}
	return ir.S(ir.Reg{File: ir.Input, Index: i})
}

// uni returns the uniform constant named name.
func (b *builder) uni(name string) ir.Src {
	i, ok := b.consts[name]
	if !ok {
		i = len(b.p.Consts)
		b.p.Consts = append(b.p.Consts, ir.ConstVal{Uniform: name})
		b.consts[name] = i
	}
	return ir.S(ir.Reg{File: ir.Const, Index: i})
}

// vec returns a literal vector constant.
func (b *builder) vec(v [4]float32) ir.Src {
	return ir.S(ir.Reg{File: ir.Const, Index: b.p.Literal(v)})
}

// lit returns a literal constant.
func (b *builder) lit(x float32) ir.Src {
	return ir.S(ir.Reg{File: ir.Const, Index: b.p.Literal([4]float32{x, x, x, x})})
}

func (b *builder) out(name string) ir.Reg {
	i := b.p.OutputIndex(name)
	if i < 0 {
		i = len(b.p.Outputs)
		b.p.Outputs = append(b.p.Outputs, ir.Var{Name: name})
	}
	return ir.Reg{File: ir.Output, Index: i}
}

func (b *builder) op(op ir.Op, dst ir.Reg, mask ir.Mask, src ...ir.Src) {
	in := ir.Inst{Op: op, Dst: ir.Dst{Reg: dst, Mask: mask}}
	copy(in.Src[:], src)
	b.p.Insts = append(b.p.Insts, in)
}

func (b *builder) sat(op ir.Op, dst ir.Reg, mask ir.Mask, src ...ir.Src) {
	b.op(op, dst, mask, src...)
	b.p.Insts[len(b.p.Insts)-1].Sat = true
}

func swz(s ir.Src, x ...uint8) ir.Src {
	for i := 0; i < 4; i++ {
		s.Swz[i] = x[min(i, len(x)-1)]
	}
	return s
}

func neg(s ir.Src) ir.Src { s.Neg = !s.Neg; return s }

func src(r ir.Reg) ir.Src { return ir.S(r) }

const (
	x, y, z, w = 0, 1, 2, 3
	mX         = ir.Mask(1)
	mXYZ       = ir.Mask(7)
	mAll       = ir.MaskXYZW
)

// transform4 writes the rows named name0..3 times v into dst (DP4 per
// row).
func (b *builder) transform4(dst ir.Reg, mask ir.Mask, name string, v ir.Src) {
	for r := 0; r < 4; r++ {
		if mask.Has(r) {
			b.op(ir.DP4, dst, 1<<r, b.uni(fmt.Sprintf("%s%d", name, r)), v)
		}
	}
}

// Build generates the program of a key.
func Build(k Key) *ir.Program {
	b := &builder{p: &ir.Program{Stage: ir.Vertex}, inputs: map[string]int{}, consts: map[string]int{}}
	pos := b.in("position")
	needEye := k.Lighting || k.Fog != 0 || k.PointAtten
	var eye ir.Reg
	var nrm ir.Reg
	haveNormal := false
	if k.Palette != 0 {
		eye, nrm = b.palette(k, pos)
		haveNormal = k.Lighting
		b.transform4(b.out("position"), mAll, "proj", src(eye))
	} else {
		b.transform4(b.out("position"), mAll, "mvp", pos)
		if needEye {
			eye = b.temp()
			b.transform4(eye, mAll, "mv", pos)
		}
	}
	if k.Lighting {
		if !haveNormal {
			nrm = b.temp()
			n := b.in("normal")
			for r := 0; r < 3; r++ {
				b.op(ir.DP3, nrm, 1<<r, b.uni(fmt.Sprintf("nrm%d", r)), n)
			}
		}
		if k.Normalize {
			l := b.temp()
			b.op(ir.DP3, l, mX, src(nrm), src(nrm))
			b.op(ir.RSQ, l, mX, swz(src(l), x))
			b.op(ir.MUL, nrm, mXYZ, src(nrm), swz(src(l), x))
		}
		b.lighting(k, eye, nrm)
	} else {
		b.sat(ir.MOV, b.out("color0"), mAll, b.in("color"))
	}
	for u, t := range k.Tex {
		name := fmt.Sprintf("tex%d", u)
		switch t {
		case 1:
			b.op(ir.MOV, b.out(name), mAll, b.in(name))
		case 2:
			b.transform4(b.out(name), mAll, fmt.Sprintf("tex%d.", u), b.in(name))
		}
	}
	if k.Fog != 0 {
		b.fog(k, eye)
	}
	if k.Points {
		b.pointSize(k, eye)
	}
	return b.p
}

// palette blends the palette matrices (OES_matrix_palette): eye = Σ w_k ·
// M[i_k] · p and, for lighting, n = Σ w_k · N[i_k] · n, where M[m] is the
// four uniforms "palM.R" for rows R and N[m] the three "paln M.R". They are
// constants at fixed distances, read relative to a0: a0.x = 4·i, a0.y =
// 3·i.
func (b *builder) palette(k Key, pos ir.Src) (eye, nrm ir.Reg) {
	for m := 0; m < int(k.Palette); m++ {
		for r := 0; r < 4; r++ {
			b.uni(fmt.Sprintf("pal%d.%d", m, r))
		}
	}
	if k.Lighting {
		for m := 0; m < int(k.Palette); m++ {
			for r := 0; r < 3; r++ {
				b.uni(fmt.Sprintf("paln%d.%d", m, r))
			}
		}
	}
	mBase := b.consts["pal0.0"]
	nBase := b.consts["paln0.0"]
	eye, nrm = b.temp(), b.temp()
	b.op(ir.MOV, eye, mAll, swz(b.lit(0), ir.SwzZero))
	b.op(ir.MOV, nrm, mAll, swz(b.lit(0), ir.SwzZero))
	wt, ix := b.in("weight"), b.in("index")
	addr := b.temp()
	b.op(ir.MUL, addr, ir.Mask(3), swz(ix, x), b.vec([4]float32{4, 3, 0, 0}))
	e, n := b.temp(), b.temp()
	a0 := ir.Reg{File: ir.Addr}
	var nn ir.Src
	if k.Lighting {
		nn = b.in("normal")
	}
	for u := 0; u < int(k.Units); u++ {
		if u > 0 {
			b.op(ir.MUL, addr, ir.Mask(3), swz(ix, uint8(u)), b.vec([4]float32{4, 3, 0, 0}))
		}
		b.op(ir.ARL, a0, ir.Mask(3), src(addr))
		for r := 0; r < 4; r++ {
			b.op(ir.DP4, e, 1<<r, ir.Src{Reg: ir.Reg{File: ir.Const, Index: mBase + r}, Swz: ir.Identity, Rel: true}, pos)
		}
		b.op(ir.MAD, eye, mAll, swz(wt, uint8(u)), src(e), src(eye))
		if k.Lighting {
			for r := 0; r < 3; r++ {
				b.op(ir.DP3, n, 1<<r, ir.Src{Reg: ir.Reg{File: ir.Const, Index: nBase + r}, Swz: ir.Identity, Rel: true, RelComp: 1}, nn)
			}
			b.op(ir.MAD, nrm, mXYZ, swz(wt, uint8(u)), src(n), src(nrm))
		}
	}
	return eye, nrm
}
