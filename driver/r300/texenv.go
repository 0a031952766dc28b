package r300

import (
	"fmt"
	"strings"

	"github.com/retrogl/retrogl/compiler/ir"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
)

// fpKey is everything the generated fragment program depends on: per
// active unit its texture environment and the texture's base format (GL ES
// 1.1 table 3.15 differs by base format). Environment colours are uniforms,
// so changing one does not compile a new program.
type fpKey struct {
	units [driver.MaxTextureUnits]unitKey
	clear bool
}

type unitKey struct {
	on   bool
	base driver.BaseFormat
	env  driver.TexEnv // Color zeroed
	// proj: some vertex has q != 1; the lookup divides by the interpolated
	// q at each pixel (TXP), as GL ES 1.1 section 3.7.7 divides s and t.
	proj bool
}

// markProjective sets the proj bit of every unit whose coordinates have
// q != 1 at some vertex of vs.
func (k *fpKey) markProjective(vs []swtnl.Vertex) {
	for u := range k.units {
		if !k.units[u].on {
			continue
		}
		for i := range vs {
			if vs[i].Tex[u][3] != 1 {
				k.units[u].proj = true
				break
			}
		}
	}
}

// markProjectiveTCL is markProjective for a draw whose vertices the PVS
// transforms: a unit samples with TXP when a vertex it reads may have
// q != 1 after the texture matrix: the matrix's q row is not (0, 0, 0, 1),
// or the q of the coordinate array (of the current coordinate, with the
// array disabled) is not 1 at some vertex the draw reads.
func (k *fpKey) markProjectiveTCL(st *driver.State, dc *driver.DrawCall) {
	for u := range k.units {
		if !k.units[u].on || u >= driver.MaxTextureUnits {
			continue
		}
		m := st.Units[u].Matrix
		if m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1 {
			k.units[u].proj = true
			continue
		}
		a := &dc.Arrays.TexCoord[u]
		if !a.Enabled {
			k.units[u].proj = st.CurrentTexCoord[u][3] != 1
			continue
		}
		if a.Size < 4 {
			continue
		}
		var v [4]float32
		for i := dc.MinIndex; i <= dc.MaxIndex; i++ {
			a.Fetch(i, st.CurrentTexCoord[u], &v)
			if v[3] != 1 {
				k.units[u].proj = true
				break
			}
		}
	}
}

func makeKey(st *driver.State) fpKey {
	var k fpKey
	for u := range st.Units {
		t := st.Units[u].Texture
		if t == nil {
			continue
		}
		env := st.Units[u].Env
		env.Color = [4]float32{}
		if env.Mode != driver.EnvCombine {
			// Only the combine fields of a COMBINE environment matter.
			env = driver.TexEnv{Mode: env.Mode}
		}
		k.units[u] = unitKey{on: true, base: t.Base(), env: env}
	}
	return k
}

// irBuilder assembles an IR fragment program.
type irBuilder struct {
	p     *ir.Program
	temps int
	in    map[string]int
}

func (b *irBuilder) input(name string) ir.Src {
	if i, ok := b.in[name]; ok {
		return ir.S(ir.Reg{File: ir.Input, Index: i})
	}
	b.p.Inputs = append(b.p.Inputs, ir.Var{Name: name})
	b.in[name] = len(b.p.Inputs) - 1
	return ir.S(ir.Reg{File: ir.Input, Index: b.in[name]})
}

func (b *irBuilder) temp() ir.Reg {
	b.temps++
	return ir.Reg{File: ir.Temp, Index: b.temps - 1}
}

func (b *irBuilder) lit(v [4]float32) ir.Src {
	return ir.S(ir.Reg{File: ir.Const, Index: b.p.Literal(v)})
}

func (b *irBuilder) scalar(v float32) ir.Src { return b.lit([4]float32{v, v, v, v}) }

func (b *irBuilder) uniform(name string) ir.Src {
	for i, c := range b.p.Consts {
		if c.Uniform == name {
			return ir.S(ir.Reg{File: ir.Const, Index: i})
		}
	}
	b.p.Consts = append(b.p.Consts, ir.ConstVal{Uniform: name})
	return ir.S(ir.Reg{File: ir.Const, Index: len(b.p.Consts) - 1})
}

func (b *irBuilder) emit(op ir.Op, dst ir.Reg, mask ir.Mask, sat bool, src ...ir.Src) ir.Src {
	in := ir.Inst{Op: op, Dst: ir.Dst{Reg: dst, Mask: mask}, Sat: sat}
	copy(in.Src[:], src)
	b.p.Insts = append(b.p.Insts, in)
	return ir.S(dst)
}

func swz(s ir.Src, sw ir.Swizzle) ir.Src { s.Swz = sw.Compose(s.Swz); return s }

var www = ir.Splat(3)

func negate(s ir.Src) ir.Src { s.Neg = !s.Neg; return s }

// texEnvProgram generates the fragment program for a key: the texture
// environment of every active unit in order (GL ES 1.1 §3.7.12, tables
// 3.15-3.17), each stage saturated as GL's fixed-point pipeline clamps.
// Fog and the alpha test follow in the FG unit.
func texEnvProgram(k fpKey) *ir.Program {
	b := &irBuilder{p: &ir.Program{Stage: ir.Fragment, Outputs: []ir.Var{{Name: "color"}}}, in: map[string]int{}}
	out := ir.Reg{File: ir.Output, Index: 0}
	if k.clear {
		b.emit(ir.MOV, out, ir.MaskXYZW, false, b.uniform("clear"))
		return b.p
	}
	primary := b.input("color0")
	prev := primary
	for u := range k.units {
		uk := k.units[u]
		if !uk.on {
			continue
		}
		op := ir.TEX
		if uk.proj {
			op = ir.TXP
		}
		tex := b.emit(op, b.temp(), ir.MaskXYZW, false, b.input(fmt.Sprintf("tex%d", u)))
		b.p.Insts[len(b.p.Insts)-1].Unit = u
		env := b.uniform(fmt.Sprintf("env%d", u))
		prev = b.unit(uk, tex, env, primary, prev)
	}
	b.emit(ir.MOV, out, ir.MaskXYZW, false, prev)
	return b.p
}

const (
	maskRGB ir.Mask = 7
	maskA   ir.Mask = 8
)

// unit generates one unit's texture function and returns its result.
func (b *irBuilder) unit(uk unitKey, t, env, primary, prev ir.Src) ir.Src {
	r := b.temp()
	base := uk.base
	hasRGB := base != driver.BaseAlpha
	hasA := base == driver.BaseAlpha || base == driver.BaseLuminanceAlpha || base == driver.BaseRGBA
	mov := func(m ir.Mask, s ir.Src) { b.emit(ir.MOV, r, m, true, s) }
	mul := func(m ir.Mask, x, y ir.Src) { b.emit(ir.MUL, r, m, true, x, y) }
	switch uk.env.Mode {
	case driver.EnvReplace:
		if hasRGB {
			mov(maskRGB, t)
		} else {
			mov(maskRGB, prev)
		}
		if hasA {
			mov(maskA, t)
		} else {
			mov(maskA, prev)
		}
	case driver.EnvModulate:
		if hasRGB {
			mul(maskRGB, prev, t)
		} else {
			mov(maskRGB, prev)
		}
		if hasA {
			mul(maskA, prev, t)
		} else {
			mov(maskA, prev)
		}
	case driver.EnvDecal:
		switch base {
		case driver.BaseRGB:
			mov(maskRGB, t)
		case driver.BaseRGBA:
			// Cp(1-As) + Cs·As = LRP(As, Cs, Cp).
			b.emit(ir.LRP, r, maskRGB, true, swz(t, www), t, prev)
		default:
			mov(maskRGB, prev)
		}
		mov(maskA, prev)
	case driver.EnvBlend:
		if hasRGB {
			// Cp(1-Cs) + Cc·Cs = LRP(Cs, Cc, Cp).
			b.emit(ir.LRP, r, maskRGB, true, t, env, prev)
		} else {
			mov(maskRGB, prev)
		}
		if hasA {
			mul(maskA, prev, t)
		} else {
			mov(maskA, prev)
		}
	case driver.EnvAdd:
		if hasRGB {
			b.emit(ir.ADD, r, maskRGB, true, prev, t)
		} else {
			mov(maskRGB, prev)
		}
		if hasA {
			mul(maskA, prev, t)
		} else {
			mov(maskA, prev)
		}
	case driver.EnvCombine:
		b.combine(uk.env, r, t, env, primary, prev)
	}
	return ir.S(r)
}

// combine generates GL_COMBINE (GL ES 1.1 §3.7.12, tables 3.18-3.20).
func (b *irBuilder) combine(e driver.TexEnv, r ir.Reg, t, env, primary, prev ir.Src) {
	source := func(s driver.CombineSrc) ir.Src {
		switch s {
		case driver.SrcTexture:
			return t
		case driver.SrcConstant:
			return env
		case driver.SrcPrimaryColor:
			return primary
		}
		return prev
	}
	one := b.scalar(1)
	arg := func(s driver.CombineSrc, op driver.CombineOperand, m ir.Mask) ir.Src {
		x := source(s)
		switch op {
		case driver.OperandSrcAlpha:
			return swz(x, www)
		case driver.OperandOneMinusSrcColor:
			return b.emit(ir.ADD, b.temp(), m, false, one, negate(x))
		case driver.OperandOneMinusSrcAlpha:
			return b.emit(ir.ADD, b.temp(), m, false, one, negate(swz(x, www)))
		}
		return x
	}
	scaleOut := func(dst ir.Reg, m ir.Mask, scale float32) {
		if scale == 1 {
			b.emit(ir.MOV, r, m, true, ir.S(dst))
		} else {
			b.emit(ir.MUL, r, m, true, ir.S(dst), b.scalar(scale))
		}
	}
	half := func(fn driver.CombineFunc, src [3]driver.CombineSrc, ops [3]driver.CombineOperand, m ir.Mask, scale float32) {
		var a [3]ir.Src
		n := map[driver.CombineFunc]int{driver.CombineReplace: 1, driver.CombineInterpolate: 3}[fn]
		if n == 0 {
			n = 2
		}
		for i := 0; i < n; i++ {
			a[i] = arg(src[i], ops[i], m)
		}
		// The function, then the scale, then the clamp (GL's fixed-point
		// range): the back end folds ×2 and ×4 into the output modifier.
		dst := b.temp()
		switch fn {
		case driver.CombineReplace:
			b.emit(ir.MOV, dst, m, false, a[0])
		case driver.CombineModulate:
			b.emit(ir.MUL, dst, m, false, a[0], a[1])
		case driver.CombineAdd:
			b.emit(ir.ADD, dst, m, false, a[0], a[1])
		case driver.CombineAddSigned:
			t1 := b.emit(ir.ADD, b.temp(), m, false, a[0], a[1])
			b.emit(ir.ADD, dst, m, false, t1, b.scalar(-0.5))
		case driver.CombineInterpolate:
			b.emit(ir.LRP, dst, m, false, a[2], a[0], a[1])
		case driver.CombineSubtract:
			b.emit(ir.ADD, dst, m, false, a[0], negate(a[1]))
		case driver.CombineDot3RGB, driver.CombineDot3RGBA:
			// 4·((a0-½)·(a1-½)) = (2a0-1)·(2a1-1).
			two, mone := b.scalar(2), b.scalar(-1)
			u := b.emit(ir.MAD, b.temp(), maskRGB, false, a[0], two, mone)
			v := b.emit(ir.MAD, b.temp(), maskRGB, false, a[1], two, mone)
			b.emit(ir.DP3, dst, m, false, u, v)
		}
		if fn != driver.CombineDot3RGBA || scale == e.AlphaScale {
			scaleOut(dst, m, scale)
			return
		}
		// DOT3_RGBA's one dot product fills all four channels, but GL ES
		// 1.1 §3.7.12 scales "the RGB and ALPHA results" by RGB_SCALE and
		// ALPHA_SCALE: with different scales, two writes, which the back
		// end places in the US's RGB and alpha halves, each with its own
		// output modifier.
		scaleOut(dst, maskRGB, scale)
		scaleOut(dst, maskA, e.AlphaScale)
	}
	if e.CombineRGB == driver.CombineDot3RGBA {
		half(e.CombineRGB, e.SrcRGB, e.OperandRGB, ir.MaskXYZW, e.RGBScale)
		return
	}
	half(e.CombineRGB, e.SrcRGB, e.OperandRGB, maskRGB, e.RGBScale)
	alphaOps := e.OperandAlpha
	fn := e.CombineAlpha
	if fn == driver.CombineDot3RGB || fn == driver.CombineDot3RGBA {
		fn = driver.CombineReplace // not valid for alpha; the state tracker rejects it
	}
	half(fn, e.SrcAlpha, alphaOps, maskA, e.AlphaScale)
}

// programName describes a key for statistics and errors.
func (k fpKey) String() string {
	if k.clear {
		return "clear"
	}
	var parts []string
	for u, uk := range k.units {
		if !uk.on {
			continue
		}
		mode := [...]string{"modulate", "decal", "blend", "replace", "add", "combine"}[uk.env.Mode]
		parts = append(parts, fmt.Sprintf("unit%d:%s/%d", u, mode, uk.base))
	}
	if len(parts) == 0 {
		return "color"
	}
	return strings.Join(parts, ",")
}
