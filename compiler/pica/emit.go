package pica

import (
	hp "github.com/retrogl/retrogl/hal/pica"
)

// src7 encodes a 7-bit source register number (v 0x00-0x0F, r
// 0x10-0x1F, c 0x20-0x7F).
func src7(r reg) uint8 {
	switch r.file {
	case fTemp:
		return 0x10 + uint8(r.index)
	case fConst:
		return 0x20 + uint8(r.index)
	}
	return uint8(r.index)
}

// dstReg encodes a destination (o 0x00-0x0F, r 0x10-0x1F).
func dstReg(r reg) uint8 {
	if r.file == fTemp {
		return 0x10 + uint8(r.index)
	}
	return uint8(r.index)
}

// desc builds an instruction's operand descriptor: the write mask (bit 3
// x), per source the selector and negation; unused sources read xyzw.
func desc(in *inst) uint32 {
	var d uint32
	for k := 0; k < 4; k++ {
		if in.mask>>k&1 != 0 {
			d |= 8 >> uint(k)
		}
	}
	for k := 0; k < 3; k++ {
		sel := uint32(0x1B)
		neg := false
		if k < in.n {
			s := in.src[k]
			sel = uint32(s.swz[0])<<6 | uint32(s.swz[1])<<4 | uint32(s.swz[2])<<2 | uint32(s.swz[3])
			neg = s.neg
		}
		d |= sel << (5 + 9*uint(k))
		if neg {
			d |= 1 << (4 + 9*uint(k))
		}
	}
	return d
}

// idx is the address-register index of a relative operand (1 a0.x, 2
// a0.y).
func idx(s src) uint8 {
	if !s.rel {
		return 0
	}
	return 1 + s.relComp
}

// emit encodes the program (the "emit" pass): descriptors deduplicated,
// the MAD forms' first (their index has 5 bits); each loop as
//
//	JMPU !b<k>, after      skip the loop when its count is 0
//	LOOP i<k>, last        run the body i<k>.x + 1 times
//	  body ... last
//	after:
//
// and END at the end.
func (c *comp) emit() error {
	descIdx := map[uint32]int{}
	var descs []uint32
	addDesc := func(d uint32) {
		if _, ok := descIdx[d]; !ok {
			descIdx[d] = len(descs)
			descs = append(descs, d)
		}
	}
	for i := range c.insts {
		if in := &c.insts[i]; in.flow == flowNone && (in.op == hp.OpMAD || in.op == hp.OpMADI) {
			addDesc(desc(in))
		}
	}
	if n := len(descs); n > MaxMADDesc {
		return &LimitError{"operand descriptors of MAD instructions", n, MaxMADDesc}
	}
	for i := range c.insts {
		if in := &c.insts[i]; in.flow == flowNone {
			addDesc(desc(in))
		}
	}
	if n := len(descs); n > MaxDescs {
		return &LimitError{"operand descriptors", n, MaxDescs}
	}
	var code []uint32
	type open struct{ jmpu, loop, k int }
	var stack []open
	out := c.out0()
	out.Loops = make([]Loop, len(c.loopsC))
	loops := 0
	for i := range c.insts {
		in := &c.insts[i]
		switch in.flow {
		case flowBegin:
			stack = append(stack, open{len(code), len(code) + 1, loops})
			loops++
			code = append(code, 0, 0)
			continue
		case flowEnd:
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if len(code) == o.loop+1 {
				code = append(code, hp.Insn{Op: hp.OpNOP}.Encode())
			}
			code[o.jmpu] = hp.Insn{Op: hp.OpJMPU, Uniform: uint8(o.k), Dest: uint16(len(code)), Num: 1}.Encode()
			code[o.loop] = hp.Insn{Op: hp.OpLOOP, Uniform: uint8(o.k), Dest: uint16(len(code) - 1)}.Encode()
			out.Loops[o.k] = Loop{Count: c.loopsC[o.k], Int: o.k, Bool: o.k}
			continue
		}
		w := hp.Insn{Op: in.op, Desc: uint8(descIdx[desc(in)])}
		switch in.op.Info().Format {
		case hp.Fmt1, hp.Fmt1u:
			w.Dst, w.Src1, w.Idx = dstReg(in.dst), src7(in.src[0].reg), idx(in.src[0])
			if in.n > 1 {
				w.Src2 = src7(in.src[1].reg)
			}
		case hp.Fmt1i:
			w.Dst, w.Src1, w.Src2, w.Idx = dstReg(in.dst), src7(in.src[0].reg), src7(in.src[1].reg), idx(in.src[1])
		case hp.Fmt5:
			w.Dst, w.Src1, w.Src2, w.Src3, w.Idx = dstReg(in.dst), src7(in.src[0].reg), src7(in.src[1].reg), src7(in.src[2].reg), idx(in.src[1])
		case hp.Fmt5i:
			w.Dst, w.Src1, w.Src2, w.Src3, w.Idx = dstReg(in.dst), src7(in.src[0].reg), src7(in.src[1].reg), src7(in.src[2].reg), idx(in.src[2])
		}
		code = append(code, w.Encode())
	}
	code = append(code, hp.Insn{Op: hp.OpEND}.Encode())
	if n := len(code); n > MaxInsts {
		return &LimitError{"instructions", n, MaxInsts}
	}
	out.Code, out.Descs, out.Consts = code, descs, c.cslots
	for i, v := range c.p.Inputs {
		r := c.inputReg(i)
		for len(out.Inputs) <= r {
			out.Inputs = append(out.Inputs, "")
		}
		out.Inputs[r] = v.Name
	}
	out.Outputs = c.opts.Outputs
	out.Stats = Stats{Insts: len(code), Descs: len(descs), Temps: c.temps, Consts: len(c.cslots), Movs: c.movs, Loops: len(out.Loops)}
	return nil
}

// out0 returns the program being built.
func (c *comp) out0() *Program {
	if c.out == nil {
		c.out = &Program{}
	}
	return c.out
}
