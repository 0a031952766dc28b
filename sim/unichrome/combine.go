package unichrome

import (
	"fmt"

	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// stage is one texture blending stage (80h-8Ah, L2723-2886):
//
//	Cout = (Ca*(Cb Cop Cc) + Cbias) << Cshift
//	Aout = (Aa*(Ab Aop Ac) + Abias) << Ashift
//
// Stage n belongs to texture n; "cur" is the previous stage's output and,
// for stage 0, the diffuse colour ("For Texture 0, Acur = Adif"). Decisions:
//   - Operands are 8-bit (0..255, 1.0 = 255); the modifier makes
//     them signed; Ca*x is mul8. Cbias and Abias from a colour source are
//     0..255; from the registers (88h, 8Ah bits 7:0) they are s7 with an
//     LSB of 2/255 ([OUT] Mesa), i.e. int8 x 2.
//   - MIN and MAX apply to (Cb, Cc) in place of the operation, keeping
//     Ca, bias and shift (the seed leaves the designer's choice open,
//     L2772); MASK yields Ca*Cb when bit n of Atex is set, else Cc, and is
//     then shifted and saturated like the others.
//   - Shift codes 00 = x2, 01 = x4, 10 = x1; the result clamps to [0, 255]
//     when the saturation bit is set, else wraps modulo 256.
//   - The Ac select takes Aa's codes (its table is column-shifted, L2875).
//     Dot products (81h bits 23:22) are not simulated.
type stage struct {
	csat, asat    bool
	ca, cb, cc    bop
	cop           uint32
	cbias         uint32
	cbiasInv      bool
	cshift        uint
	aa, ab, ac    bop
	aop           uint32
	abias         uint32
	abiasInv      bool
	ashift        uint
	maskBit       uint
	rca, rcb, rcc [3]int
	rcbias        [3]int
	raa, rab, rac int
	rabias        int
}

var shiftOf = [4]uint{1, 2, 0, 0}

func compileStage(n int, r *[256]uint32) (stage, error) {
	var s stage
	c, op, al := r[uc.TexBlendC], r[uc.TexBlendCop], r[uc.TexBlendA]
	s.csat = c>>23&1 != 0
	s.ca, s.cb, s.cc = bop{c >> 14 & 15, c >> 18 & 3}, bop{c >> 7 & 15, c >> 11 & 3}, bop{c & 15, c >> 4 & 3}
	if dot := op >> 22 & 3; dot >= 2 {
		return s, fmt.Errorf("dot-product blending (%s) is not simulated", uc.EnumTexDot[dot])
	}
	s.cop, s.cbias, s.cbiasInv = op>>19&7, op>>14&15, op>>18&1 != 0
	s.aop, s.abias, s.abiasInv = op>>7&7, op>>3&7, op>>6&1 != 0
	cs, as := op>>11&3, op&3
	if cs == 3 || as == 3 {
		return s, fmt.Errorf("reserved shift code 11 (the [OUT] dot-product shift)")
	}
	s.cshift, s.ashift = shiftOf[cs], shiftOf[as]
	s.asat = al>>23&1 != 0
	s.maskBit = uint(al >> 20 & 7)
	s.aa, s.ab, s.ac = bop{al >> 14 & 7, al >> 17 & 3}, bop{al >> 7 & 7, al >> 10 & 3}, bop{al & 7, al >> 3 & 3}
	for name, o := range map[string]bop{"Ca": s.ca, "Cb": s.cb, "Cc": s.cc} {
		if o.sel > 10 || (o.sel == 10 && n != 0) || o.mod > 2 {
			return s, fmt.Errorf("reserved %s operand %s/%s", name, uc.EnumTexMod[o.mod], uc.EnumTexC[o.sel])
		}
	}
	for name, o := range map[string]bop{"Aa": s.aa, "Ab": s.ab, "Ac": s.ac} {
		if o.sel > 5 || (o.sel == 5 && n != 0) || o.mod > 2 {
			return s, fmt.Errorf("reserved %s operand %s/%s", name, uc.EnumTexMod[o.mod], uc.EnumTexA[o.sel])
		}
	}
	if s.cop > 4 || s.aop > 4 {
		return s, fmt.Errorf("reserved stage operation %s/%s", uc.EnumTexOp[s.cop], uc.EnumTexOp[s.aop])
	}
	if s.cbias > 9 || s.abias > 4 {
		return s, fmt.Errorf("reserved bias select %s/%s", uc.EnumTexCBias[s.cbias], uc.EnumTexABias[s.abias])
	}
	s.rca, s.rcb, s.rcc = rgbOf(r[uc.TexBlendRCa]), rgbOf(r[uc.TexBlendRCb]), rgbOf(r[uc.TexBlendRCc])
	bias := r[uc.TexBlendRCbias]
	for k := 0; k < 3; k++ {
		s.rcbias[k] = 2 * int(int8(bias>>(16-8*uint(k))))
	}
	ra := r[uc.TexBlendRAlpha]
	s.raa, s.rab, s.rac = int(ra>>16&0xFF), int(ra>>8&0xFF), int(ra&0xFF)
	s.rabias = 2 * int(int8(r[uc.TexBlendRFog]))
	return s, nil
}

// stageIn holds a stage's sources for one fragment.
type stageIn struct {
	dif  [4]int
	spec [3]int
	fog  int
	tex  [4]int
	next [4]int // texture 1's texel, for stage 0's TEX_NEXT
	cur  [4]int
}

// colors reads a colour operand for the three channels.
func (in *stageIn) colors(o bop, konst *[3]int) (v [3]int) {
	switch o.sel {
	case 1:
		v = [3]int{in.dif[0], in.dif[1], in.dif[2]}
	case 2:
		v = in.spec
	case 3:
		v = [3]int{in.tex[0], in.tex[1], in.tex[2]}
	case 4:
		v = [3]int{in.cur[0], in.cur[1], in.cur[2]}
	case 5:
		v = [3]int{in.dif[3], in.dif[3], in.dif[3]}
	case 6:
		v = [3]int{in.fog, in.fog, in.fog}
	case 7:
		v = [3]int{in.tex[3], in.tex[3], in.tex[3]}
	case 8:
		v = [3]int{in.cur[3], in.cur[3], in.cur[3]}
	case 9:
		v = *konst
	case 10:
		v = [3]int{in.next[0], in.next[1], in.next[2]}
	}
	if o.mod != 0 {
		for k := range v {
			v[k] = modify(v[k], o.mod)
		}
	}
	return
}

func (in *stageIn) alpha(o bop, konst int) int {
	var v int
	switch o.sel {
	case 0:
		v = in.dif[3]
	case 1:
		v = in.fog
	case 2:
		v = in.cur[3]
	case 3:
		v = konst
	case 4:
		v = in.tex[3]
	case 5:
		v = in.next[3]
	}
	return modify(v, o.mod)
}

// eval runs the stage for one fragment.
func (s *stage) eval(in *stageIn) [4]int {
	var out [4]int
	mask := in.tex[3]>>s.maskBit&1 != 0
	ca, cb, cc := in.colors(s.ca, &s.rca), in.colors(s.cb, &s.rcb), in.colors(s.cc, &s.rcc)
	var bias [3]int
	if s.cbias == 9 {
		bias = s.rcbias
	} else if s.cbias != 0 {
		bias = in.colors(bop{s.cbias, 0}, nil)
	}
	for k := 0; k < 3; k++ {
		b := bias[k]
		if s.cbiasInv {
			b = 255 - b
		}
		out[k] = sat(stageOp(s.cop, ca[k], cb[k], cc[k], b, s.cshift, mask), s.csat)
	}
	aa, ab, ac := in.alpha(s.aa, s.raa), in.alpha(s.ab, s.rab), in.alpha(s.ac, s.rac)
	var abias int
	if s.abias == 3 {
		abias = s.rabias
	} else {
		abias = in.alpha(bop{s.abias, 0}, 0)
	}
	if s.abiasInv {
		abias = 255 - abias
	}
	out[3] = sat(stageOp(s.aop, aa, ab, ac, abias, s.ashift, mask), s.asat)
	return out
}

// stageOp is (a*(b op c) + bias) << shift.
func stageOp(op uint32, a, b, c, bias int, shift uint, mask bool) int {
	var r int
	switch op {
	case 0:
		r = mul8(a, b+c) + bias
	case 1:
		r = mul8(a, b-c) + bias
	case 2:
		r = mul8(a, min(b, c)) + bias
	case 3:
		r = mul8(a, max(b, c)) + bias
	default:
		if mask {
			r = mul8(a, b)
		} else {
			r = c
		}
	}
	return r << shift
}
