package unichrome

import (
	"fmt"

	"github.com/retrogl/retrogl/driver"
	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// An argument of a combine function: a source, as colour or alpha,
// optionally inverted (1 - x).
type arg struct {
	src   int
	alpha bool
	inv   bool
}

// Argument sources.
const (
	srcZero = iota
	srcOne
	srcTex
	srcPrev
	srcPrim
	srcConst
)

// combiner is one unit's function in COMBINE terms.
type combiner struct {
	rgbFn, aFn     driver.CombineFunc
	rgb, alpha     [3]arg
	rgbScale, aScl float32
}

var (
	prevC  = arg{src: srcPrev}
	prevA  = arg{src: srcPrev, alpha: true}
	texC   = arg{src: srcTex}
	texA   = arg{src: srcTex, alpha: true}
	constC = arg{src: srcConst}
)

func replace(x arg) (driver.CombineFunc, [3]arg) { return driver.CombineReplace, [3]arg{x} }
func modulate(x, y arg) (driver.CombineFunc, [3]arg) {
	return driver.CombineModulate, [3]arg{x, y}
}

// legacy converts a legacy texture function to COMBINE form by the base
// format (GL ES 1.1 tables 3.15 and 3.16).
func legacy(mode driver.TexEnvMode, base driver.BaseFormat) combiner {
	cb := combiner{rgbScale: 1, aScl: 1}
	alphaOnly := base == driver.BaseAlpha
	hasAlpha := base == driver.BaseAlpha || base == driver.BaseLuminanceAlpha || base == driver.BaseRGBA
	hasColor := !alphaOnly
	cb.rgbFn, cb.rgb = replace(prevC)
	cb.aFn, cb.alpha = replace(prevA)
	switch mode {
	case driver.EnvReplace:
		if hasColor {
			cb.rgbFn, cb.rgb = replace(texC)
		}
		if hasAlpha {
			cb.aFn, cb.alpha = replace(texA)
		}
	case driver.EnvModulate:
		if hasColor {
			cb.rgbFn, cb.rgb = modulate(prevC, texC)
		}
		if hasAlpha {
			cb.aFn, cb.alpha = modulate(prevA, texA)
		}
	case driver.EnvDecal:
		switch base {
		case driver.BaseRGB:
			cb.rgbFn, cb.rgb = replace(texC)
		case driver.BaseRGBA:
			cb.rgbFn, cb.rgb = driver.CombineInterpolate, [3]arg{texC, prevC, texA}
		}
	case driver.EnvBlend:
		if hasColor {
			cb.rgbFn, cb.rgb = driver.CombineInterpolate, [3]arg{constC, prevC, texC}
		}
		if hasAlpha {
			cb.aFn, cb.alpha = modulate(prevA, texA)
		}
	case driver.EnvAdd:
		if hasColor {
			cb.rgbFn, cb.rgb = driver.CombineAdd, [3]arg{prevC, texC}
		}
		if hasAlpha {
			cb.aFn, cb.alpha = modulate(prevA, texA)
		}
	}
	return cb
}

// fromEnv turns a unit's environment into combiner form.
func fromEnv(env *driver.TexEnv, base driver.BaseFormat) combiner {
	if env.Mode != driver.EnvCombine {
		return legacy(env.Mode, base)
	}
	cb := combiner{rgbFn: env.CombineRGB, aFn: env.CombineAlpha, rgbScale: env.RGBScale, aScl: env.AlphaScale}
	srcOf := func(s driver.CombineSrc) int {
		switch s {
		case driver.SrcTexture:
			return srcTex
		case driver.SrcConstant:
			return srcConst
		case driver.SrcPrimaryColor:
			return srcPrim
		}
		return srcPrev
	}
	for i := 0; i < 3; i++ {
		op := env.OperandRGB[i]
		cb.rgb[i] = arg{src: srcOf(env.SrcRGB[i]), alpha: op >= driver.OperandSrcAlpha,
			inv: op == driver.OperandOneMinusSrcColor || op == driver.OperandOneMinusSrcAlpha}
		aop := env.OperandAlpha[i]
		cb.alpha[i] = arg{src: srcOf(env.SrcAlpha[i]), alpha: true, inv: aop == driver.OperandOneMinusSrcAlpha}
	}
	return cb
}

// stageRegs are the blending-stage registers of one chip texture.
type stageRegs struct {
	c, op, a              uint32 // 80h, 81h, 83h
	rca, rcb, rcc, rcbias uint32 // 85h-88h
	ralpha, rfog          uint32 // 89h, 8Ah
}

// Colour operand selects and modifiers (80h, L2732-2744).
const (
	cselZero  = 0
	cselDif   = 1
	cselTex   = 3
	cselCur   = 4
	cselAdif  = 5
	cselAtex  = 7
	cselAcur  = 8
	cselConst = 9
	modX      = 0
	modInv    = 1
	// Alpha selects (83h, L2850-2857): there is no zero.
	aselAdif  = 0
	aselAcur  = 2
	aselConst = 3
	aselAtex  = 4
)

func pack8(c [4]float32) (rgb uint32, a uint32) {
	q := func(v float32) uint32 { return uint32(q8(v)) }
	return q(c[0])<<16 | q(c[1])<<8 | q(c[2]), q(c[3])
}

// stageFor maps a combiner onto stage registers. texNoAlpha says the
// texture's base format has no alpha (RGB, luminance): its alpha reads 1.
func stageFor(cb combiner, envColor [4]float32, texNoAlpha bool) (stageRegs, error) {
	var r stageRegs
	if cb.rgbFn >= driver.CombineDot3RGB || cb.aFn >= driver.CombineDot3RGB {
		return r, fmt.Errorf("COMBINE DOT3_RGB/DOT3_RGBA: the engine's dot products work only in multiple passes and their equation is garbled in the seed (L2723)")
	}
	envRGB, envA := pack8(envColor)
	envAA := envA<<16 | envA<<8 | envA
	fix := func(x arg) arg {
		if texNoAlpha && x.src == srcTex && x.alpha {
			x.src, x.alpha = srcOne, false
		}
		return x
	}
	// Colour operand for slot k (0 = Ca, 1 = Cb, 2 = Cc): select, modifier
	// and the slot's constant register value.
	consts := [3]*uint32{&r.rca, &r.rcb, &r.rcc}
	colorOp := func(x arg, k int) uint32 {
		x = fix(x)
		sel, mod := uint32(cselZero), uint32(modX)
		switch x.src {
		case srcOne:
			mod = modInv
		case srcTex:
			sel = map[bool]uint32{false: cselTex, true: cselAtex}[x.alpha]
		case srcPrev:
			sel = map[bool]uint32{false: cselCur, true: cselAcur}[x.alpha]
		case srcPrim:
			sel = map[bool]uint32{false: cselDif, true: cselAdif}[x.alpha]
		case srcConst:
			sel = cselConst
			*consts[k] = map[bool]uint32{false: envRGB, true: envAA}[x.alpha]
		}
		if x.inv {
			mod ^= modInv
		}
		return mod<<4 | sel
	}
	one, zero := arg{src: srcOne}, arg{src: srcZero}
	var ca, cb2, cc uint32
	cop, cbias, cbiasInv := uint32(0), uint32(cselZero), false
	a := cb.rgb
	switch cb.rgbFn {
	case driver.CombineReplace:
		ca, cb2, cc = colorOp(one, 0), colorOp(a[0], 1), colorOp(zero, 2)
	case driver.CombineModulate:
		ca, cb2, cc = colorOp(a[0], 0), colorOp(a[1], 1), colorOp(zero, 2)
	case driver.CombineAdd, driver.CombineAddSigned, driver.CombineSubtract:
		ca, cb2, cc = colorOp(one, 0), colorOp(a[0], 1), colorOp(a[1], 2)
		if cb.rgbFn == driver.CombineSubtract {
			cop = 1
		}
		if cb.rgbFn == driver.CombineAddSigned {
			// Bias -0.5 = register 0xC0 (s7, LSB 2/255: -64 x 2 = -128).
			cbias, r.rcbias = cselConst, 0xC0C0C0
		}
	case driver.CombineInterpolate:
		// a0*a2 + a1*(1-a2) = a2*(a0 - a1) + a1.
		ca, cb2, cc, cop = colorOp(a[2], 0), colorOp(a[0], 1), colorOp(a[1], 2), 1
		b := fix(a[1])
		cbiasInv = b.inv
		switch b.src {
		case srcZero:
		case srcOne:
			cbiasInv = !cbiasInv
		case srcTex:
			cbias = map[bool]uint32{false: cselTex, true: cselAtex}[b.alpha]
		case srcPrev:
			cbias = map[bool]uint32{false: cselCur, true: cselAcur}[b.alpha]
		case srcPrim:
			cbias = map[bool]uint32{false: cselDif, true: cselAdif}[b.alpha]
		case srcConst:
			// The bias register is s7 x 2: the constant loses its LSB.
			v := map[bool]uint32{false: envRGB, true: envAA}[b.alpha]
			cbias, r.rcbias = cselConst, v>>1&0x7F7F7F
		}
	}
	// Alpha side: every slot has its own constant register (89h), the
	// bias register is 8Ah bits 7:0.
	var rA [3]uint32
	alphaOp := func(x arg, k int) uint32 {
		x = fix(x)
		sel, mod := uint32(aselConst), uint32(modX)
		switch x.src {
		case srcZero:
			rA[k] = 0
		case srcOne:
			rA[k], mod = 0, modInv
		case srcTex:
			sel = aselAtex
		case srcPrev:
			sel = aselAcur
		case srcPrim:
			sel = aselAdif
		case srcConst:
			rA[k] = envA
		}
		if x.inv {
			mod ^= modInv
		}
		return mod<<3 | sel
	}
	var aa, ab, ac uint32
	aop, abias, abiasInv := uint32(0), uint32(aselConst), false
	var rAbias uint32
	b := cb.alpha
	switch cb.aFn {
	case driver.CombineReplace:
		aa, ab, ac = alphaOp(one, 0), alphaOp(b[0], 1), alphaOp(zero, 2)
	case driver.CombineModulate:
		aa, ab, ac = alphaOp(b[0], 0), alphaOp(b[1], 1), alphaOp(zero, 2)
	case driver.CombineAdd, driver.CombineAddSigned, driver.CombineSubtract:
		aa, ab, ac = alphaOp(one, 0), alphaOp(b[0], 1), alphaOp(b[1], 2)
		if cb.aFn == driver.CombineSubtract {
			aop = 1
		}
		if cb.aFn == driver.CombineAddSigned {
			rAbias = 0xC0
		}
	case driver.CombineInterpolate:
		aa, ab, ac, aop = alphaOp(b[2], 0), alphaOp(b[0], 1), alphaOp(b[1], 2), 1
		x := fix(b[1])
		abiasInv = x.inv
		switch x.src {
		case srcOne:
			abiasInv = !abiasInv
		case srcTex:
			abias = aselAtex
		case srcPrev:
			abias = aselAcur
		case srcPrim:
			abias = aselAdif
		case srcConst:
			rAbias = envA >> 1 & 0x7F
		}
	}
	shift := func(s float32) uint32 {
		switch s {
		case 2:
			return 0 // x2
		case 4:
			return 1 // x4
		}
		return 2 // x1
	}
	r.c = 1<<23 | ca<<14 | cb2<<7 | cc
	r.op = cop<<19 | b2u(cbiasInv)<<18 | cbias<<14 | shift(cb.rgbScale)<<11 | aop<<7 | b2u(abiasInv)<<6 | abias<<3 | shift(cb.aScl)
	r.a = 1<<23 | aa<<14 | ab<<7 | ac
	r.ralpha = rA[0]<<16 | rA[1]<<8 | rA[2]
	r.rfog = rAbias
	return r, nil
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// setStage programs the blending stage of chip texture n.
func (c *Context) setStage(n int, r *stageRegs) {
	g := grpTex0 + n
	c.cmd.set(g, uc.TexBlendC, r.c)
	c.cmd.set(g, uc.TexBlendCop, r.op)
	c.cmd.set(g, uc.TexBlendMPFog, 0)
	c.cmd.set(g, uc.TexBlendA, r.a)
	c.cmd.set(g, uc.TexBlendRCa, r.rca)
	c.cmd.set(g, uc.TexBlendRCb, r.rcb)
	c.cmd.set(g, uc.TexBlendRCc, r.rcc)
	c.cmd.set(g, uc.TexBlendRCbias, r.rcbias)
	c.cmd.set(g, uc.TexBlendRAlpha, r.ralpha)
	c.cmd.set(g, uc.TexBlendRFog, r.rfog)
}
