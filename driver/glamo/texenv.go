package glamo

import (
	"github.com/retrogl/retrogl/driver"
	hg "github.com/retrogl/retrogl/hal/glamo"
)

// GL texture environments become texture-blend stages (the register unit
// of L3697-4537; hal/glamo and sim/glamo document the decision to treat
// the overview form of L67-216 as documentation only). Every GL mode is
// first rewritten as the GL_COMBINE function GL ES 1.1 §3.7.12 (table 3.15)
// says it equals for the texture's base format, then compiled:
//
//	REPLACE      OPA = Arg0 * 1                 (1 = select 0 with 1-X)
//	MODULATE     OPA = Arg0 * Arg1
//	ADD          OPC = Arg0*1 + Arg1*1
//	ADD_SIGNED   as ADD, output bias -0.5 before the scale
//	INTERPOLATE  OPC = Arg0*Arg2 + Arg1*(1-Arg2)
//	SUBTRACT     OPC = Arg0*1 - Arg1*1
//	DOT3_RGB(A)  OPA = DP3 of Arg0, Arg1 with each modified 2(X-0.5)
//
// with the result saturated and scaled by RGB_SCALE / ALPHA_SCALE on the
// way to Ccur0. SRC_ALPHA operands set the replicate bit of the colour
// unit's argument; ONE_MINUS_* operands set the complement modifier.

// combSpec is one GL_COMBINE function with its three arguments.
type combSpec struct {
	fn    driver.CombineFunc
	src   [3]driver.CombineSrc
	op    [3]driver.CombineOperand
	scale float32
}

func spec(fn driver.CombineFunc, scale float32, args ...any) combSpec {
	s := combSpec{fn: fn, scale: scale}
	for i := 0; i+1 < len(args); i += 2 {
		s.src[i/2], s.op[i/2] = args[i].(driver.CombineSrc), args[i+1].(driver.CombineOperand)
	}
	return s
}

const (
	tex  = driver.SrcTexture
	prev = driver.SrcPrevious
	cnst = driver.SrcConstant
	col  = driver.OperandSrcColor
	alp  = driver.OperandSrcAlpha
)

// envSpecs returns the RGB and alpha functions of a texture environment.
func envSpecs(env *driver.TexEnv, base driver.BaseFormat) (rgb, a combSpec) {
	keepRGB := spec(driver.CombineReplace, 1, prev, col)
	keepA := spec(driver.CombineReplace, 1, prev, alp)
	mulA := spec(driver.CombineModulate, 1, tex, alp, prev, alp)
	texA := spec(driver.CombineReplace, 1, tex, alp)
	hasRGB := base != driver.BaseAlpha
	hasA := base == driver.BaseAlpha || base == driver.BaseLuminanceAlpha || base == driver.BaseRGBA
	switch env.Mode {
	case driver.EnvCombine:
		rgb = combSpec{fn: env.CombineRGB, src: env.SrcRGB, op: env.OperandRGB, scale: env.RGBScale}
		a = combSpec{fn: env.CombineAlpha, src: env.SrcAlpha, op: env.OperandAlpha, scale: env.AlphaScale}
		return rgb, a
	case driver.EnvReplace:
		rgb, a = keepRGB, keepA
		if hasRGB {
			rgb = spec(driver.CombineReplace, 1, tex, col)
		}
		if hasA {
			a = texA
		}
	case driver.EnvModulate:
		rgb, a = keepRGB, keepA
		if hasRGB {
			rgb = spec(driver.CombineModulate, 1, tex, col, prev, col)
		}
		if hasA {
			a = mulA
		}
	case driver.EnvDecal:
		rgb, a = keepRGB, keepA
		switch base {
		case driver.BaseRGB:
			rgb = spec(driver.CombineReplace, 1, tex, col)
		case driver.BaseRGBA:
			rgb = spec(driver.CombineInterpolate, 1, tex, col, prev, col, tex, alp)
		}
	case driver.EnvBlend:
		rgb, a = keepRGB, keepA
		if hasRGB {
			rgb = spec(driver.CombineInterpolate, 1, cnst, col, prev, col, tex, col)
		}
		if hasA {
			a = mulA
		}
	case driver.EnvAdd:
		rgb, a = keepRGB, keepA
		if hasRGB {
			rgb = spec(driver.CombineAdd, 1, tex, col, prev, col)
		}
		if hasA {
			a = mulA
		}
	}
	return rgb, a
}

// Argument selects (L3805-3825) and modifier bits (L3698-3710).
const (
	selZero  = 0x00
	selCur0  = 0x05
	selDif   = 0x03
	selTex0  = 0x06
	selFact0 = 0x12
	modComp  = 1
	modBias  = 8
	modScale = 4
	repl     = 32
)

type argSel struct{ sel, mod uint8 }

// unitWords compiles one combSpec for the colour (alpha=false) or alpha
// unit of stage s. Chip unit u samples the texture; previous is Cdif in
// stage 0 and Ccur0 after.
func unitWords(cs combSpec, alpha bool, s, u int, cnstSel uint8) (mod, arg uint32) {
	sel := func(i int) argSel {
		var a argSel
		switch cs.src[i] {
		case driver.SrcTexture:
			a.sel = selTex0 + uint8(u)
		case driver.SrcConstant:
			a.sel = cnstSel
		case driver.SrcPrimaryColor:
			a.sel = selDif
		default:
			a.sel = selDif
			if s > 0 {
				a.sel = selCur0
			}
		}
		op := cs.op[i]
		if !alpha && (op == driver.OperandSrcAlpha || op == driver.OperandOneMinusSrcAlpha) {
			a.sel |= repl
		}
		if op == driver.OperandOneMinusSrcColor || op == driver.OperandOneMinusSrcAlpha {
			a.mod = modComp
		}
		return a
	}
	oneArg := argSel{selZero, modComp}
	var args [4]argSel
	opa, opb, opc, c0w := uint32(2), uint32(2), uint32(0), uint32(1) // MUL, MUL, NOP, OPA
	var outBias uint32
	switch cs.fn {
	case driver.CombineReplace:
		args = [4]argSel{sel(0), oneArg}
	case driver.CombineModulate:
		args = [4]argSel{sel(0), sel(1)}
	case driver.CombineAdd, driver.CombineAddSigned, driver.CombineSubtract:
		args = [4]argSel{sel(0), oneArg, sel(1), oneArg}
		opc, c0w = 3, 3
		if cs.fn == driver.CombineSubtract {
			opc = 4
		}
		if cs.fn == driver.CombineAddSigned {
			outBias = 16
		}
	case driver.CombineInterpolate:
		a2 := sel(2)
		inv := a2
		inv.mod ^= modComp
		args = [4]argSel{sel(0), a2, sel(1), inv}
		opc, c0w = 3, 3
	case driver.CombineDot3RGB, driver.CombineDot3RGBA:
		// The colour unit's replicate bit gives SRC_ALPHA operands their
		// alpha in every channel; the alpha unit's (blue into alpha) is of
		// no use to a DP3 of RGB vectors, so an alpha unit computing
		// DOT3_RGBA's alpha drops it (see dot3AlphaStage).
		a0, a1 := sel(0), sel(1)
		if alpha {
			a0.sel &^= repl
			a1.sel &^= repl
		}
		a0.mod |= modBias | modScale
		a1.mod |= modBias | modScale
		args = [4]argSel{a0, a1}
		opa = 0 // DP3
	}
	scale := uint32(0)
	switch cs.scale {
	case 2:
		scale = 1
	case 4:
		scale = 2
	}
	omod := outBias | scale<<1 | 1 // SAT
	mod = uint32(args[0].mod)<<28 | uint32(args[1].mod)<<24 | uint32(args[2].mod)<<20 | uint32(args[3].mod)<<16 |
		c0w<<13 | omod<<8
	arg = uint32(args[0].sel)<<25 | opc<<22 | uint32(args[1].sel)<<16 | opb<<14 | uint32(args[2].sel)<<8 | opa<<6 | uint32(args[3].sel)
	return mod, arg
}

// stageWords compiles texture unit u's environment for blend stage s: the
// colour unit's mod and arg words, then the alpha unit's.
func stageWords(env *driver.TexEnv, base driver.BaseFormat, s, u int) [4]uint32 {
	rgb, a := envSpecs(env, base)
	cnstSel := uint8(selFact0 + s) // 10011 reads factor 1 (P7)
	if rgb.fn == driver.CombineDot3RGBA {
		if needsDot3AlphaStage(env) {
			// dot3AlphaStage applies both scales: this stage leaves the
			// saturated dot product unscaled in Ccur0.
			rgb.scale = 1
		}
		cm, ca := unitWords(rgb, false, s, u, cnstSel)
		// The alpha unit takes the same dot product (DP3 in the alpha unit
		// reads the RGB of its arguments, sim/glamo's decision), scaled by
		// ALPHA_SCALE through its own output modifier: GL ES 1.1 §3.7.12
		// scales DOT3_RGBA's alpha result by ALPHA_SCALE, not RGB_SCALE.
		ra := rgb
		ra.scale = a.scale
		am, aa := unitWords(ra, true, s, u, cnstSel)
		return [4]uint32{cm, ca, am, aa}
	}
	cm, ca := unitWords(rgb, false, s, u, cnstSel)
	am, aa := unitWords(a, true, s, u, cnstSel)
	return [4]uint32{cm, ca, am, aa}
}

// needsDot3AlphaStage reports whether env is DOT3_RGBA with an alpha
// operand: its alpha unit cannot replicate alpha into the RGB its DP3
// reads, so the dot product's alpha comes from a second stage (see
// dot3AlphaStage).
func needsDot3AlphaStage(env *driver.TexEnv) bool {
	if env.Mode != driver.EnvCombine || env.CombineRGB != driver.CombineDot3RGBA {
		return false
	}
	for _, op := range env.OperandRGB[:2] {
		if op == driver.OperandSrcAlpha || op == driver.OperandOneMinusSrcAlpha {
			return true
		}
	}
	return false
}

// dot3AlphaStage is a second blend stage after a DOT3_RGBA stage whose
// alpha the first cannot compute: DP3 writes the saturated dot product,
// unscaled (see stageWords), to every colour channel of Ccur0, so this
// stage takes Ccur0 times RGB_SCALE as the colour and its blue, replicated
// into alpha (the alpha unit's replicate bit, L4229), times ALPHA_SCALE as
// the alpha: GL's DOT3_RGBA puts the same dot product in alpha. Scaling
// the saturated product and saturating again equals GL's one saturation
// of the scaled product, as both scales are at least 1.
func dot3AlphaStage(env *driver.TexEnv) [4]uint32 {
	cm, ca := unitWords(spec(driver.CombineReplace, env.RGBScale, prev, col), false, 1, 0, selFact0+1)
	am, aa := unitWords(spec(driver.CombineReplace, env.AlphaScale, prev, alp), true, 1, 0, selFact0+1)
	aa |= repl << 25 // ARG1: Ccur0 with blue replicated into alpha
	return [4]uint32{cm, ca, am, aa}
}

// emitStages writes the blend-stage registers and factors.
func (c *Context) emitStages(words [][4]uint32, colors [][4]float32) {
	m := &c.em
	for s, w := range words {
		m.set([]string{"EGTXCBS0Mod", "EGTXCBS1Mod"}[s], w[0])
		m.set([]string{"EGTXCBS0Arg", "EGTXCBS1Arg"}[s], w[1])
		m.set([]string{"EGTXABS0Mod", "EGTXABS1Mod"}[s], w[2])
		m.set([]string{"EGTXABS0Arg", "EGTXABS1Arg"}[s], w[3])
		k := colors[s]
		m.set([]string{"EGTXBLDFact0", "EGTXBLDFact1"}[s], hg.Factor(float64(k[0]), float64(k[1]), float64(k[2]), float64(k[3])))
	}
}
