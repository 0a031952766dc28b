package glamo

import (
	"fmt"
)

// The texture blend unit (L67-99 and the registers at 2350h-239Fh,
// L3697-4537). The seed describes it twice: an overview "ab+cdef" form with
// D3D and GL recipe tables (L67-216), and the register-level unit with
// OPA/OPB/OPC. We decide (guide P6) that the registers are the hardware and
// the overview is documentation of an older design: only the register
// unit is simulated, and the driver re-expresses GL's recipes for it.
//
// Per pixel, Ccur0 = Ccur1 = Cdif and Acur0 = Acur1 = Adif on entry (the
// selects 00001/00101 are annotated "Cdif", L3806-3810). Each stage has a
// colour unit and an alpha unit; both read the values from before the
// stage. A unit selects four arguments (bit 5 replicates alpha into colour
// in the colour unit, blue into alpha in the alpha unit, L3801, L4229),
// modifies each in the order complement, bias, scale, negate (P6; the seed
// lists the bits, L3698-3710), computes OPA = Arg1 o Arg2 and OPB = Arg3 o
// Arg4 (DP3, DP4 or MUL, L3860, L3891) and OPC (L3826-3834), then writes
// the result its write masks select to Ccur0 and Ccur1 through the output
// modifiers (bias, scale, then saturate or clamp to [-8, 8), P6). DP3 and
// DP4 replicate the dot product to every channel, in the alpha unit too,
// where they take the RGB(A) of the selected vectors: that is what GL's
// DOT3_RGBA needs. OPC NOP passes OPA through (a decision). Write masks
// 1xx (to temporaries t0/t1) change no visible value (P6). The output is
// Ccur0/Acur0 after the last stage (21A0h D[1:0]).
type cunit struct {
	mod                [4]uint8
	arg                [4]uint8
	opa, opb, opc      uint8
	c0w, c0o, c1w, c1o uint8
	simple             bool // C0 = Sat(Arg1 * Arg2), no modifiers, C1 untouched
}

type combiner struct {
	stages int
	col    [2]cunit
	alp    [2]cunit
	fact   [2][4]int32
	useSpc bool
}

var validArg = [32]bool{0x00: true, 0x01: true, 0x03: true, 0x04: true, 0x05: true, 0x06: true, 0x07: true, 0x12: true, 0x13: true}

func parseUnit(mod, arg uint32, name string) (cunit, error) {
	u := cunit{
		mod: [4]uint8{uint8(mod >> 28 & 15), uint8(mod >> 24 & 15), uint8(mod >> 20 & 15), uint8(mod >> 16 & 15)},
		arg: [4]uint8{uint8(arg >> 25 & 63), uint8(arg >> 16 & 63), uint8(arg >> 8 & 63), uint8(arg & 63)},
		opc: uint8(arg >> 22 & 7), opb: uint8(arg >> 14 & 3), opa: uint8(arg >> 6 & 3),
		c0w: uint8(mod >> 13 & 7), c0o: uint8(mod >> 8 & 31), c1w: uint8(mod >> 5 & 7), c1o: uint8(mod & 31),
	}
	for i, a := range u.arg {
		if !validArg[a&31] {
			return u, fmt.Errorf("%s ARG%d select %05b is reserved (L3805-3825)", name, i+1, a&31)
		}
	}
	if u.opa == 3 || u.opb == 3 {
		return u, fmt.Errorf("%s operation 11 is reserved (L3860, L3891)", name)
	}
	if u.c0w > 5 || u.c1w > 5 {
		return u, fmt.Errorf("%s write mask 11x is reserved (L3750-3782)", name)
	}
	if u.c0o>>1&7 == 4 || u.c1o>>1&7 == 4 {
		return u, fmt.Errorf("%s output scale 100 is not defined (L3763-3773)", name)
	}
	u.simple = u.opa == 2 && u.mod[0] == 0 && u.mod[1] == 0 && u.c0w == 1 && u.c0o == 1 && u.c1w == 0 &&
		u.arg[0]&32 == 0 && u.arg[1]&32 == 0
	return u, nil
}

// buildCombiner reads the texture-blend registers.
func (e *Engine) buildCombiner() error {
	cb := &e.px.comb
	cb.stages = 1
	if e.reg(0x21A0)&3 == 1 {
		cb.stages = 2
	} else if e.reg(0x21A0)&3 > 1 {
		return faultf("EGTXBlStNum %02b is reserved (L3210-3213)", e.reg(0x21A0)&3)
	}
	for s := 0; s < 2; s++ {
		var err error
		cb.col[s], err = parseUnit(e.reg(0x2350+8*uint16(s)), e.reg(0x2354+8*uint16(s)), fmt.Sprintf("EGTXCBS%d", s))
		if err != nil && s < cb.stages {
			return err
		}
		cb.alp[s], err = parseUnit(e.reg(0x2390+8*uint16(s)), e.reg(0x2394+8*uint16(s)), fmt.Sprintf("EGTXABS%d", s))
		if err != nil && s < cb.stages {
			return err
		}
	}
	for i := 0; i < 2; i++ {
		cb.fact[i] = factorOf(e.reg(0x2330 + 4*uint16(i)))
	}
	cb.useSpc = e.reg(0x2104)>>18&1 != 0
	return nil
}

// factorOf converts a blend factor register (s.5 / s.6 / s.7 channels,
// P8) to 12-bit fixed point.
func factorOf(v uint32) [4]int32 {
	sx := func(x uint32, bits uint) int32 { return int32(x<<(32-bits)) >> (32 - bits) }
	f := func(x int32, frac int32) int32 {
		m := int32(1)<<frac - 1
		if x >= 0 {
			return (x*one + m/2) / m
		}
		return -((-x*one + m/2) / m)
	}
	return [4]int32{f(sx(v>>18&63, 6), 5), f(sx(v>>9&127, 7), 6), f(sx(v>>2&63, 6), 5), f(sx(v>>24&255, 8), 7)}
}

func mul12(a, b int32) int32 { return int32((int64(a)*int64(b) + 2048) >> 12) }

func sat(x int32) int32 { return min(max(x, 0), one) }

func clamp8(x int32) int32 {
	if x < -8*one {
		return -8 * one
	}
	if x > 8*one-1 {
		return 8*one - 1
	}
	return x
}

// modIn applies an input modifier: complement, bias, scale, negate.
func modIn(x int32, m uint8) int32 {
	if m&1 != 0 {
		x = one - x
	}
	if m&8 != 0 {
		x -= one / 2
	}
	if m&4 != 0 {
		x *= 2
	}
	if m&2 != 0 {
		x = -x
	}
	return x
}

// modOut applies an output modifier: bias, scale, then Sat or clamp.
func modOut(x int32, m uint8) int32 {
	if m&16 != 0 {
		x -= one / 2
	}
	switch m >> 1 & 7 {
	case 1:
		x *= 2
	case 2:
		x *= 4
	case 3:
		x *= 8
	case 5:
		x = (x + 1) >> 1
	case 6:
		x = (x + 2) >> 2
	case 7:
		x = (x + 4) >> 3
	}
	if m&1 != 0 {
		return sat(x)
	}
	return clamp8(x)
}

type cinputs struct {
	cur0, cur1, dif, spec, tex0, tex1 [4]int32
}

func (cb *combiner) src(in *cinputs, sel uint8) [4]int32 {
	switch sel & 31 {
	case 0x01:
		return in.cur1
	case 0x03:
		return in.dif
	case 0x04:
		if cb.useSpc {
			return in.spec
		}
		return [4]int32{}
	case 0x05:
		return in.cur0
	case 0x06:
		return in.tex0
	case 0x07:
		return in.tex1
	case 0x12:
		return cb.fact[0]
	case 0x13:
		return cb.fact[1]
	}
	return [4]int32{}
}

func dot(a, b [4]int32, n int) int32 {
	var s int64
	for k := 0; k < n; k++ {
		s += int64(a[k]) * int64(b[k])
	}
	return int32((s + 2048) >> 12)
}

func binop(op uint8, a, b [4]int32) [4]int32 {
	switch op {
	case 0:
		d := dot(a, b, 3)
		return [4]int32{d, d, d, d}
	case 1:
		d := dot(a, b, 4)
		return [4]int32{d, d, d, d}
	}
	return [4]int32{mul12(a[0], b[0]), mul12(a[1], b[1]), mul12(a[2], b[2]), mul12(a[3], b[3])}
}

// eval runs one unit and returns what it writes to cur0 and cur1 (ok0/ok1
// false when nothing).
func (cb *combiner) eval(u *cunit, in *cinputs, alpha bool) (r0, r1 [4]int32, ok0, ok1 bool) {
	var args [4][4]int32
	for i := 0; i < 4; i++ {
		v := cb.src(in, u.arg[i])
		if u.arg[i]&32 != 0 {
			if alpha {
				v = [4]int32{v[2], v[2], v[2], v[2]}
			} else {
				v = [4]int32{v[3], v[3], v[3], v[3]}
			}
		}
		if m := u.mod[i]; m != 0 {
			for k := range v {
				v[k] = modIn(v[k], m)
			}
		}
		args[i] = v
	}
	opA := binop(u.opa, args[0], args[1])
	opB := binop(u.opb, args[2], args[3])
	var opC [4]int32
	for k := 0; k < 4; k++ {
		switch u.opc {
		case 0:
			opC[k] = opA[k]
		case 1:
			if in.cur0[3] >= one/2 {
				opC[k] = opB[k]
			} else {
				opC[k] = opA[k]
			}
		case 2:
			if args[0][k] >= 0 {
				opC[k] = args[2][k]
			} else {
				opC[k] = args[3][k]
			}
		case 3:
			opC[k] = opA[k] + opB[k]
		case 4:
			opC[k] = opA[k] - opB[k]
		case 5:
			a := args[0][k]
			if alpha {
				a = args[0][3]
			}
			if a >= one/2 {
				opC[k] = args[2][k]
			} else {
				opC[k] = args[3][k]
			}
		case 6:
			opC[k] = opA[k] + sat(opB[k])
		case 7:
			opC[k] = opA[k] - sat(opB[k])
		}
	}
	pick := func(w uint8) ([4]int32, bool) {
		switch w {
		case 1:
			return opA, true
		case 2:
			return opB, true
		case 3:
			return opC, true
		}
		return [4]int32{}, false
	}
	r0, ok0 = pick(u.c0w)
	r1, ok1 = pick(u.c1w)
	for k := 0; k < 4; k++ {
		r0[k] = modOut(r0[k], u.c0o)
		r1[k] = modOut(r1[k], u.c1o)
	}
	return
}

// run blends one pixel into out (pointers: Go passes arrays on the stack).
func (cb *combiner) run(dif, spec, tex0, tex1, out *[4]int32) {
	if cb.stages == 1 && cb.col[0].simple && cb.alp[0].simple {
		// One MUL stage, the GL MODULATE/REPLACE shape: no copies.
		c, a := &cb.col[0], &cb.alp[0]
		a0, a1 := cb.srcp(dif, spec, tex0, tex1, c.arg[0]), cb.srcp(dif, spec, tex0, tex1, c.arg[1])
		b0, b1 := cb.srcp(dif, spec, tex0, tex1, a.arg[0]), cb.srcp(dif, spec, tex0, tex1, a.arg[1])
		out[0], out[1], out[2] = sat(mul12(a0[0], a1[0])), sat(mul12(a0[1], a1[1])), sat(mul12(a0[2], a1[2]))
		out[3] = sat(mul12(b0[3], b1[3]))
		return
	}
	*out = cb.runFull(*dif, *spec, *tex0, *tex1)
}

var zero4 [4]int32

// srcp is src for a stage-0 unit, by pointer (Ccur0 and Ccur1 are Cdif).
func (cb *combiner) srcp(dif, spec, tex0, tex1 *[4]int32, sel uint8) *[4]int32 {
	switch sel & 31 {
	case 0x01, 0x03, 0x05:
		return dif
	case 0x04:
		if cb.useSpc {
			return spec
		}
	case 0x06:
		return tex0
	case 0x07:
		return tex1
	case 0x12:
		return &cb.fact[0]
	case 0x13:
		return &cb.fact[1]
	}
	return &zero4
}

// runFull blends one pixel through every stage.
func (cb *combiner) runFull(dif, spec, tex0, tex1 [4]int32) [4]int32 {
	in := cinputs{cur0: dif, cur1: dif, dif: dif, spec: spec, tex0: tex0, tex1: tex1}
	for s := 0; s < cb.stages; s++ {
		cu, au := &cb.col[s], &cb.alp[s]
		if cu.simple && au.simple {
			a0, a1 := cb.src(&in, cu.arg[0]), cb.src(&in, cu.arg[1])
			b0, b1 := cb.src(&in, au.arg[0]), cb.src(&in, au.arg[1])
			in.cur0 = [4]int32{sat(mul12(a0[0], a1[0])), sat(mul12(a0[1], a1[1])), sat(mul12(a0[2], a1[2])), sat(mul12(b0[3], b1[3]))}
			continue
		}
		c0, c1, cok0, cok1 := cb.eval(cu, &in, false)
		a0, a1, aok0, aok1 := cb.eval(au, &in, true)
		if cok0 {
			in.cur0[0], in.cur0[1], in.cur0[2] = c0[0], c0[1], c0[2]
		}
		if cok1 {
			in.cur1[0], in.cur1[1], in.cur1[2] = c1[0], c1[1], c1[2]
		}
		if aok0 {
			in.cur0[3] = a0[3]
		}
		if aok1 {
			in.cur1[3] = a1[3]
		}
	}
	return in.cur0
}
