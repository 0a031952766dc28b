package pica

import (
	"github.com/retrogl/retrogl/driver"
	p "github.com/retrogl/retrogl/hal/pica"
)

// tevStage is one combiner stage's register values.
type tevStage struct {
	source, operand, combiner, color, scale uint32
}

// Combiner source and operand codes (L1559-L1629).
const (
	srcPrimary  = 0
	srcTexture0 = 3
	srcConstant = 14
	srcPrevious = 15

	opColor        = 0
	opOneMinusColr = 1
	opAlpha        = 2
	opOneMinusA    = 3
	aopAlpha       = 0
	aopOneMinusA   = 1

	fnReplace     = 0
	fnModulate    = 1
	fnAdd         = 2
	fnAddSigned   = 3
	fnInterpolate = 4
	fnSubtract    = 5
	fnDot3RGB     = 6
	fnDot3RGBA    = 7
)

// passStage replaces with the previous stage's output.
var passStage = tevStage{source: srcPrevious | srcPrevious<<16, operand: 0, combiner: 0, scale: 0}

func stage(srcRGB, srcA [3]uint32, opRGB, opA [3]uint32, fnRGB, fnA uint32) tevStage {
	return tevStage{
		source:   srcRGB[0] | srcRGB[1]<<4 | srcRGB[2]<<8 | srcA[0]<<16 | srcA[1]<<20 | srcA[2]<<24,
		operand:  opRGB[0] | opRGB[1]<<4 | opRGB[2]<<8 | opA[0]<<12 | opA[1]<<16 | opA[2]<<20,
		combiner: fnRGB | fnA<<16,
	}
}

func rgba8(c [4]float32) uint32 {
	return uint32(q8(c[0])) | uint32(q8(c[1]))<<8 | uint32(q8(c[2]))<<16 | uint32(q8(c[3]))<<24
}

// envStage maps one unit's texture environment (GL ES 1.1 tables 3.15
// and 3.16) onto a combiner stage reading texture unit u. Base formats the
// tables leave undefined for a mode (DECAL on alpha or luminance textures)
// pass the previous colour.
func envStage(env *driver.TexEnv, base driver.BaseFormat, u uint32) tevStage {
	T := srcTexture0 + u
	P, K := uint32(srcPrevious), uint32(srcConstant)
	var s tevStage
	rgbT := base != driver.BaseAlpha
	aT := base == driver.BaseRGBA || base == driver.BaseAlpha || base == driver.BaseLuminanceAlpha
	switch env.Mode {
	case driver.EnvReplace:
		rs, as := P, P
		if rgbT {
			rs = T
		}
		if aT {
			as = T
		}
		s = stage([3]uint32{rs}, [3]uint32{as}, [3]uint32{}, [3]uint32{}, fnReplace, fnReplace)
	case driver.EnvModulate:
		fr, fa := uint32(fnModulate), uint32(fnModulate)
		if !rgbT {
			fr = fnReplace
		}
		if !aT {
			fa = fnReplace
		}
		s = stage([3]uint32{P, T}, [3]uint32{P, T}, [3]uint32{}, [3]uint32{}, fr, fa)
	case driver.EnvDecal:
		switch base {
		case driver.BaseRGB:
			s = stage([3]uint32{T}, [3]uint32{P}, [3]uint32{}, [3]uint32{}, fnReplace, fnReplace)
		case driver.BaseRGBA:
			s = stage([3]uint32{T, P, T}, [3]uint32{P}, [3]uint32{opColor, opColor, opAlpha}, [3]uint32{}, fnInterpolate, fnReplace)
		default:
			s = passStage
		}
	case driver.EnvBlend:
		fa := uint32(fnModulate)
		if !aT {
			fa = fnReplace
		}
		if rgbT {
			s = stage([3]uint32{K, P, T}, [3]uint32{P, T}, [3]uint32{}, [3]uint32{}, fnInterpolate, fa)
		} else {
			s = stage([3]uint32{P}, [3]uint32{P, T}, [3]uint32{}, [3]uint32{}, fnReplace, fa)
		}
	case driver.EnvAdd:
		fr, fa := uint32(fnAdd), uint32(fnModulate)
		if !rgbT {
			fr = fnReplace
		}
		if !aT {
			fa = fnReplace
		}
		s = stage([3]uint32{P, T}, [3]uint32{P, T}, [3]uint32{}, [3]uint32{}, fr, fa)
	case driver.EnvCombine:
		src := func(cs driver.CombineSrc) uint32 {
			switch cs {
			case driver.SrcTexture:
				return T
			case driver.SrcConstant:
				return K
			case driver.SrcPrimaryColor:
				return srcPrimary
			}
			return P
		}
		var sr, sa, or, oa [3]uint32
		for i := 0; i < 3; i++ {
			sr[i], sa[i] = src(env.SrcRGB[i]), src(env.SrcAlpha[i])
			or[i] = uint32(env.OperandRGB[i]) // SRC_COLOR 0, 1-SRC_COLOR 1, SRC_ALPHA 2, 1-SRC_ALPHA 3
			oa[i] = aopAlpha
			if env.OperandAlpha[i] == driver.OperandOneMinusSrcAlpha {
				oa[i] = aopOneMinusA
			}
		}
		fnOf := [...]uint32{fnReplace, fnModulate, fnAdd, fnAddSigned, fnInterpolate, fnSubtract, fnDot3RGB, fnDot3RGBA}
		fa := fnOf[env.CombineAlpha]
		if fa >= fnDot3RGB {
			fa = fnReplace
		}
		s = stage(sr, sa, or, oa, fnOf[env.CombineRGB], fa)
		s.scale = scaleCode(env.RGBScale) | scaleCode(env.AlphaScale)<<16
	default:
		s = passStage
	}
	s.color = rgba8(env.Color)
	return s
}

// dot3Split reports whether env is DOT3_RGBA with different RGB and alpha
// scales. GL ES 1.1 §3.7.12 scales DOT3_RGBA's alpha result by ALPHA_SCALE,
// but a Dot3_RGBA stage writes its RGB result, already times the RGB
// scale, to alpha: sim/pica's decision from the [OUT] citra formula in
// /work/shared/notes/pica200.md (the seed names the operation only,
// L1651). Such an environment takes two stages: Dot3_RGBA at 1x leaves the
// saturated dot product in RGB and alpha, then scaleStage scales each.
// With at most three units, six stages always suffice.
func dot3Split(env *driver.TexEnv) bool {
	return env.Mode == driver.EnvCombine && env.CombineRGB == driver.CombineDot3RGBA &&
		scaleCode(env.RGBScale) != scaleCode(env.AlphaScale)
}

// scaleStage replaces with the previous stage's output times env's RGB
// and alpha scales. Scaling the saturated dot product and saturating
// again equals GL's one saturation of the scaled product, as both scales
// are at least 1.
func scaleStage(env *driver.TexEnv) tevStage {
	s := passStage
	s.scale = scaleCode(env.RGBScale) | scaleCode(env.AlphaScale)<<16
	s.color = rgba8(env.Color)
	return s
}

func scaleCode(f float32) uint32 {
	switch f {
	case 2:
		return 1
	case 4:
		return 2
	}
	return 0
}

// combiners emits the six stages for the state: one per enabled unit in
// unit order, then pass-through stages. With no texture, stage 0 replaces
// with the primary colour (stage 0's "previous" is the primary colour,
// L1587, so pass-through would also do). fogUnit is unused yet.
func (c *Context) combiners(st *driver.State, units int) {
	var stages [6]tevStage
	for i := range stages {
		stages[i] = passStage
	}
	n := 0
	for u := 0; u < units && u < 3; u++ {
		t := st.Units[u].Texture
		if t == nil {
			continue
		}
		env := &st.Units[u].Env
		stages[n] = envStage(env, t.Base(), uint32(u))
		n++
		if dot3Split(env) {
			stages[n-1].scale = 0
			stages[n] = scaleStage(env)
			n++
		}
	}
	if n == 0 {
		stages[0] = stage([3]uint32{srcPrimary}, [3]uint32{srcPrimary}, [3]uint32{}, [3]uint32{}, fnReplace, fnReplace)
	}
	c.emitStages(stages)
}

func (c *Context) emitStages(stages [6]tevStage) {
	for s, t := range stages {
		c.set(p.TexEnv(s, 0), t.source)
		c.set(p.TexEnv(s, 1), t.operand)
		c.set(p.TexEnv(s, 2), t.combiner)
		c.set(p.TexEnv(s, 3), t.color)
		c.set(p.TexEnv(s, 4), t.scale)
	}
}
