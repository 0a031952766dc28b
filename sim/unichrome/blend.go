package unichrome

import (
	"fmt"

	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// mul8 is the engine's 8-bit product: a*b/255 rounded to nearest, ties
// away from zero, symmetric for negative operands (guide §7 (e)).
func mul8(a, b int) int {
	p := a * b
	if p >= 0 {
		return (p + 127) / 255
	}
	return -((-p + 127) / 255)
}

// sat clamps to [0, 255] when clamp is set and wraps modulo 256 otherwise.
func sat(v int, clamp bool) int {
	if clamp {
		return min(255, max(0, v))
	}
	return v & 255
}

// modify applies an operand modifier: X, Inv(X) = 255 - X, X - 0.5.
func modify(v int, mod uint32) int {
	switch mod {
	case 1:
		return 255 - v
	case 2:
		return v - 128
	}
	return v
}

type bop struct{ sel, mod uint32 }

// blendState is the alpha-blending unit (34h-3Eh, L2425-2495):
//
//	CA = (FCa == FFh) ? Ca : Ca*FCa, CB likewise, Cout = CA Cop CB
//
// and the same form for alpha. The constant registers read as unsigned
// 8-bit values, so that a factor constant of FFh is 1.0 (the seed calls
// them two's complement, which would make 1.0 unreachable).
type blendState struct {
	ca, fca, cb, fcb bop
	aa, faa, ab, fab bop
	csub, asub       bool
	cclamp, aclamp   bool
	rca, rfca        [3]int
	rcb, rfcb        [3]int
	raa, rfaa        int
	rab, rfab        int
}

func rgbOf(d uint32) [3]int { return [3]int{int(d >> 16 & 0xFF), int(d >> 8 & 0xFF), int(d & 0xFF)} }

// Valid select codes (the seed's tables; [OUT] codes are refused).
var (
	validBlendC  = map[uint32]bool{0: true, 1: true, 5: true, 6: true, 7: true}
	validBlendCb = map[uint32]bool{0: true, 1: true, 5: true}
	validBlendFC = map[uint32]bool{0: true, 1: true, 2: true, 3: true, 5: true, 8: true}
	validBlendA  = map[uint32]bool{0: true, 1: true, 2: true, 5: true, 7: true, 8: true}
	validBlendFA = map[uint32]bool{0: true, 1: true, 2: true, 8: true, 9: true}
)

func compileBlend(a *[256]uint32) (blendState, error) {
	var b blendState
	c, cop, al, aop := a[uc.AttrBlendC], a[uc.AttrBlendCop], a[uc.AttrBlendA], a[uc.AttrBlendAop]
	if c&15 != 0 || cop&3 != 0 || al&15 != 0 || aop&3 != 0 {
		return b, fmt.Errorf("reserved blend bits set (34h/36h bits 3:0, 35h/37h bits 1:0: [OUT] bias and shift, not in the seed)")
	}
	b.ca, b.fca = bop{c >> 10 & 15, c >> 14 & 3}, bop{c >> 4 & 15, c >> 8 & 3}
	b.cb, b.fcb = bop{cop >> 8 & 15, cop >> 12 & 3}, bop{cop >> 2 & 15, cop >> 6 & 3}
	b.aa, b.faa = bop{al >> 10 & 15, al >> 14 & 3}, bop{al >> 4 & 15, al >> 8 & 3}
	b.ab, b.fab = bop{aop >> 8 & 15, aop >> 12 & 3}, bop{aop >> 2 & 15, aop >> 6 & 3}
	b.csub, b.asub = cop>>14&1 != 0, aop>>14&1 != 0
	// Seed L2427/L2471: 0 = clamp to [0, 1], 1 = no clamp. Followed as
	// written (Mesa always sets 1; the texture stage's polarity is the
	// opposite), see guide §7.4.
	b.cclamp, b.aclamp = c>>16&1 == 0, al>>16&1 == 0
	checks := []struct {
		name  string
		o     bop
		valid map[uint32]bool
		mods  uint32
	}{
		{"Ca", b.ca, validBlendC, 2}, {"FCa", b.fca, validBlendFC, 1}, {"Cb", b.cb, validBlendCb, 2}, {"FCb", b.fcb, validBlendFC, 1},
		{"Aa", b.aa, validBlendA, 2}, {"FAa", b.faa, validBlendFA, 1}, {"Ab", b.ab, validBlendA, 2}, {"FAb", b.fab, validBlendFA, 1},
	}
	for _, ch := range checks {
		if !ch.valid[ch.o.sel] {
			return b, fmt.Errorf("reserved blend %s select %04b", ch.name, ch.o.sel)
		}
		if ch.o.mod > ch.mods {
			return b, fmt.Errorf("reserved blend %s modifier %02b", ch.name, ch.o.mod)
		}
	}
	b.rca, b.rfca, b.rcb, b.rfcb = rgbOf(a[uc.AttrBlendRCa]), rgbOf(a[uc.AttrBlendRFCa]), rgbOf(a[uc.AttrBlendRCb]), rgbOf(a[uc.AttrBlendRFCb])
	b.raa, b.rfaa = int(a[uc.AttrBlendRAa]>>16&0xFF), int(a[uc.AttrBlendRAa]>>8&0xFF)
	b.rab, b.rfab = int(a[uc.AttrBlendRAb]>>8&0xFF), int(a[uc.AttrBlendRAb]&0xFF)
	return b, nil
}

// colorOps reads a Ca/Cb select for the three colour channels.
func colorOps(o bop, src, dst *[4]int, konst *[3]int) (v [3]int) {
	switch o.sel {
	case 0:
		v = [3]int{src[0], src[1], src[2]}
	case 1:
		v = [3]int{dst[0], dst[1], dst[2]}
	case 5:
		v = *konst
	case 6:
		v = [3]int{min(src[0], dst[0]), min(src[1], dst[1]), min(src[2], dst[2])}
	case 7:
		v = [3]int{max(src[0], dst[0]), max(src[1], dst[1]), max(src[2], dst[2])}
	}
	if o.mod != 0 {
		for k := range v {
			v[k] = modify(v[k], o.mod)
		}
	}
	return
}

// factorOps reads an FCa/FCb select for the three colour channels.
func factorOps(o bop, src, dst *[4]int, konst *[3]int) (v [3]int) {
	switch o.sel {
	case 0:
		v = [3]int{src[0], src[1], src[2]}
	case 1:
		v = [3]int{dst[0], dst[1], dst[2]}
	case 2:
		v = [3]int{src[3], src[3], src[3]}
	case 3:
		v = [3]int{dst[3], dst[3], dst[3]}
	case 5:
		v = *konst
	case 8:
		m := min(src[3], 255-dst[3])
		v = [3]int{m, m, m}
	}
	if o.mod != 0 {
		for k := range v {
			v[k] = modify(v[k], o.mod)
		}
	}
	return
}

// alphaOp reads an Aa/Ab select.
func alphaOp(o bop, src, dst *[4]int, konst int) int {
	var v int
	switch o.sel {
	case 1:
		v = src[3]
	case 2:
		v = dst[3]
	case 5:
		v = min(src[3], dst[3])
	case 7:
		v = max(src[3], dst[3])
	case 8:
		v = konst
	}
	return modify(v, o.mod)
}

// alphaFactor reads an FAa/FAb select.
func alphaFactor(o bop, src, dst *[4]int, konst int) int {
	var v int
	switch o.sel {
	case 1:
		v = src[3]
	case 2:
		v = dst[3]
	case 8:
		v = min(src[3], 255-dst[3])
	case 9:
		v = konst
	}
	return modify(v, o.mod)
}

// weigh is "(F == FFh) ? C : C*F" (L2425): a factor of FFh bypasses the
// multiply, so ONE is exact.
func weigh(c, f int) int {
	if f == 255 {
		return c
	}
	return mul8(c, f)
}

// apply blends source over destination.
func (b *blendState) apply(src, dst *[4]int) [4]int {
	var out [4]int
	va, fa := colorOps(b.ca, src, dst, &b.rca), factorOps(b.fca, src, dst, &b.rfca)
	vb, fb := colorOps(b.cb, src, dst, &b.rcb), factorOps(b.fcb, src, dst, &b.rfcb)
	for k := 0; k < 3; k++ {
		ca, cb := weigh(va[k], fa[k]), weigh(vb[k], fb[k])
		if b.csub {
			out[k] = sat(ca-cb, b.cclamp)
		} else {
			out[k] = sat(ca+cb, b.cclamp)
		}
	}
	aa := weigh(alphaOp(b.aa, src, dst, b.raa), alphaFactor(b.faa, src, dst, b.rfaa))
	ab := weigh(alphaOp(b.ab, src, dst, b.rab), alphaFactor(b.fab, src, dst, b.rfab))
	if b.asub {
		out[3] = sat(aa-ab, b.aclamp)
	} else {
		out[3] = sat(aa+ab, b.aclamp)
	}
	return out
}
