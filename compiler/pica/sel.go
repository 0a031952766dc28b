package pica

import (
	"fmt"
	"math"
	"strings"

	"github.com/retrogl/retrogl/compiler/ir"
	hp "github.com/retrogl/retrogl/hal/pica"
)

// file is a register file of the back end's instructions.
type file uint8

const (
	fNone  file = iota
	fTemp       // a virtual temporary (physical after regalloc)
	fInput      // v<index>: the input register (Options.InputRegs)
	fUni        // an IR uniform constant (before consts)
	fRel        // an IR constant read relative to a0.x (before consts)
	fLit        // a literal operand (before consts)
	fConst      // a float uniform register c<index> (after consts)
	fOut        // an output register
	fAddr       // a0 (MOVA's destination)
)

// reg names a register.
type reg struct {
	file  file
	index int
}

// src is an operand: register, swizzle (components 0-3), negation. A fLit
// operand carries its per-lane values in lit (negation folded in; litMask
// the lanes read); consts turns it into a constant register and swizzle.
type src struct {
	reg     reg
	swz     [4]uint8
	neg     bool
	rel     bool  // c[a0.<relComp> + index]
	relComp uint8 // 0 a0.x, 1 a0.y
	lit     [4]float32
	litMask uint8
}

// Loop markers of inst.flow.
const (
	flowNone = iota
	flowBegin
	flowEnd
)

// inst is one shader-unit instruction on virtual registers, or a loop
// marker (flow; it reads and writes nothing).
type inst struct {
	flow uint8
	op   hp.Opcode
	dst  reg
	mask uint8 // components written, bit 0 = x
	src  [3]src
	n    int // sources read
}

// comp is one compilation.
type comp struct {
	p     *ir.Program
	opts  Options
	insts []inst
	nvreg int
	// outReg maps IR output index to output register (-1: not written).
	outReg []int
	cslots []ConstSlot
	loopsC []*ir.Program
	movs   int
	temps  int
	out    *Program
}

// isScalarOp reports the opcodes that read only component x of their
// operand (after the swizzle) and write it to every component.
func isScalarOp(op hp.Opcode) bool {
	switch op {
	case hp.OpRCP, hp.OpRSQ, hp.OpEX2, hp.OpLG2:
		return true
	}
	return false
}

// lanes returns the lanes (swizzle positions) operand k reads.
func (in *inst) lanes(k int) uint8 {
	switch in.op {
	case hp.OpDP3:
		return 7
	case hp.OpDP4:
		return 15
	case hp.OpDPH, hp.OpDPHI:
		if k == 0 {
			return 7
		}
		return 15
	}
	if isScalarOp(in.op) {
		return 1
	}
	return in.mask
}

// chans returns the register components operand k reads.
func (in *inst) chans(k int) uint8 {
	var m uint8
	l := in.lanes(k)
	for i := 0; i < 4; i++ {
		if l>>i&1 != 0 {
			m |= 1 << in.src[k].swz[i]
		}
	}
	return m
}

func (c *comp) verify() error {
	if n := len(c.p.Inputs); n > MaxInputs {
		return &LimitError{"inputs", n, MaxInputs}
	}
	for i := range c.p.Inputs {
		if r := c.inputReg(i); r < 0 || r >= MaxInputs {
			return fmt.Errorf("input %d: register v%d", i, r)
		}
	}
	if n := len(c.opts.Outputs); n > MaxOutputs {
		return &LimitError{"outputs", n, MaxOutputs}
	}
	loops := 0
	for i := range c.p.Insts {
		in := &c.p.Insts[i]
		switch in.Op.Info().Kind {
		case ir.Texture:
			return fmt.Errorf("instruction %d (%s): the shader unit has no texture lookups", i, in)
		case ir.Kill:
			return fmt.Errorf("instruction %d (%s): kill in a vertex program", i, in)
		}
		if in.Op == ir.BGNLOOP {
			loops++
		}
	}
	if loops > MaxLoops {
		return &LimitError{"loops", loops, MaxLoops}
	}
	c.nvreg = c.p.NumTemps()
	return nil
}

func (c *comp) optimize() error {
	ir.Optimize(c.p, nil)
	c.nvreg = max(c.nvreg, c.p.NumTemps())
	return nil
}

func (c *comp) loops() error {
	cps, err := ir.CountPrograms(c.p)
	c.loopsC = cps
	return err
}

func (c *comp) temp() reg {
	c.nvreg++
	return reg{fTemp, c.nvreg - 1}
}

var identity = [4]uint8{0, 1, 2, 3}

func regSrc(r reg) src { return src{reg: r, swz: identity} }

// litSrc is a literal operand with the same value in every lane.
func litSrc(v float32) src {
	return src{reg: reg{fLit, 0}, swz: identity, lit: [4]float32{v, v, v, v}, litMask: 15}
}

func negSrc(s src) src {
	if s.reg.file == fLit {
		for k := range s.lit {
			s.lit[k] = -s.lit[k]
		}
		return s
	}
	s.neg = !s.neg
	return s
}

// splat makes every lane read the component lane 0 reads.
func splat(s src) src {
	s.swz = [4]uint8{s.swz[0], s.swz[0], s.swz[0], s.swz[0]}
	if s.reg.file == fLit {
		v := s.lit[0]
		s.lit = [4]float32{v, v, v, v}
		s.litMask = 15
	}
	return s
}

func (c *comp) emit1(op hp.Opcode, dst reg, mask uint8, srcs ...src) {
	in := inst{op: op, dst: dst, mask: mask, n: len(srcs)}
	copy(in.src[:], srcs)
	c.insts = append(c.insts, in)
}

// operand converts an IR source read in lanes read. Literal constants and
// 0/1 selects become fLit; a register operand with 0/1 selects is built
// in a temporary; |x| is MAX(x, -x) in a temporary.
func (c *comp) operand(s ir.Src, read ir.Mask) src {
	v := src{swz: identity}
	allLit := s.File == ir.Const && !s.Rel && c.p.Consts[s.Index].Uniform == ""
	sel := false
	for l := 0; l < 4; l++ {
		if read.Has(l) && s.Swz[l] >= 4 {
			sel = true
		}
	}
	if allLit || (sel && s.File == ir.None) || (sel && onlySelects(s.Swz, read)) {
		for l := 0; l < 4; l++ {
			if !read.Has(l) {
				continue
			}
			var x float32
			switch z := s.Swz[l]; {
			case z == ir.SwzZero:
			case z == ir.SwzOne:
				x = 1
			default:
				x = c.p.Consts[s.Index].Value[z]
			}
			if s.Abs {
				x = float32(math.Abs(float64(x)))
			}
			if s.Neg {
				x = -x
			}
			v.lit[l] = x
			v.litMask |= 1 << l
		}
		v.reg = reg{fLit, 0}
		return v
	}
	switch s.File {
	case ir.Temp:
		v.reg = reg{fTemp, s.Index}
	case ir.Input:
		v.reg = reg{fInput, c.inputReg(s.Index)}
	case ir.Const:
		if s.Rel {
			v.reg, v.rel, v.relComp = reg{fRel, s.Index}, true, s.RelComp
		} else {
			v.reg = reg{fUni, s.Index}
		}
	}
	for l := 0; l < 4; l++ {
		if s.Swz[l] < 4 {
			v.swz[l] = s.Swz[l]
		}
	}
	if sel {
		// Register lanes copied, then the 0/1 lanes written.
		t := c.temp()
		var regLanes, litLanes uint8
		lit := src{reg: reg{fLit, 0}, swz: identity}
		for l := 0; l < 4; l++ {
			switch {
			case !read.Has(l):
			case s.Swz[l] < 4:
				regLanes |= 1 << l
			default:
				litLanes |= 1 << l
				if s.Swz[l] == ir.SwzOne {
					lit.lit[l] = 1
				}
				lit.litMask |= 1 << l
			}
		}
		c.emit1(hp.OpMOV, t, regLanes, v)
		c.emit1(hp.OpMOV, t, litLanes, lit)
		v = regSrc(t)
	}
	if s.Abs {
		t := c.temp()
		c.emit1(hp.OpMAX, t, uint8(read), v, negSrc(v))
		v = regSrc(t)
	}
	if s.Neg {
		v = negSrc(v)
	}
	return v
}

func onlySelects(swz ir.Swizzle, read ir.Mask) bool {
	for l := 0; l < 4; l++ {
		if read.Has(l) && swz[l] < 4 {
			return false
		}
	}
	return true
}

// inputReg returns the input register IR input i is read from.
func (c *comp) inputReg(i int) int {
	if i < len(c.opts.InputRegs) {
		return c.opts.InputRegs[i]
	}
	return i
}

func (c *comp) dstOf(d ir.Dst) (reg, bool) {
	switch d.File {
	case ir.Temp:
		return reg{fTemp, d.Index}, true
	case ir.Output:
		if d.Index < len(c.outReg) && c.outReg[d.Index] >= 0 {
			return reg{fOut, c.outReg[d.Index]}, true
		}
		return reg{}, false
	case ir.Addr:
		return reg{fAddr, 0}, true
	}
	return reg{}, false
}

// selectOps turns the IR into shader-unit instructions (the "select"
// pass).
func (c *comp) selectOps() error {
	c.outReg = make([]int, len(c.p.Outputs))
	for i, o := range c.p.Outputs {
		c.outReg[i] = -1
		for k, name := range c.opts.Outputs {
			if name == o.Name {
				c.outReg[i] = k
			}
		}
	}
	for i := range c.p.Insts {
		in := &c.p.Insts[i]
		switch in.Op {
		case ir.BGNLOOP:
			c.insts = append(c.insts, inst{flow: flowBegin})
			continue
		case ir.ENDLOOP:
			c.insts = append(c.insts, inst{flow: flowEnd})
			continue
		}
		dst, ok := c.dstOf(in.Dst)
		if !ok {
			continue
		}
		mask := uint8(in.Dst.Mask)
		info := in.Op.Info()
		var s [3]src
		for k := 0; k < info.NumSrc; k++ {
			s[k] = c.operand(in.Src[k], in.ReadMask(k))
		}
		final := dst
		if in.Sat {
			dst = c.temp()
		}
		if err := c.selectOne(in, dst, mask, s); err != nil {
			return fmt.Errorf("instruction %d (%s): %w", i, in, err)
		}
		if in.Sat {
			t := c.temp()
			c.emit1(hp.OpMAX, t, mask, regSrc(dst), litSrc(0))
			c.emit1(hp.OpMIN, final, mask, regSrc(t), litSrc(1))
		}
	}
	return nil
}

// Polynomial for sin(u), u in [0, π/2]: u·(1 + u²·(s3 + u²·(s5 + u²·(s7 +
// u²·s9)))), the Taylor coefficients (truncation error below 4e-6).
var sinCoef = [4]float32{-1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880}

func (c *comp) selectOne(in *ir.Inst, dst reg, mask uint8, s [3]src) error {
	a, b, cc := s[0], s[1], s[2]
	switch in.Op {
	case ir.MOV:
		c.emit1(hp.OpMOV, dst, mask, a)
	case ir.ADD:
		c.emit1(hp.OpADD, dst, mask, a, b)
	case ir.MUL:
		c.emit1(hp.OpMUL, dst, mask, a, b)
	case ir.MAD:
		c.emit1(hp.OpMAD, dst, mask, a, b, cc)
	case ir.DP2:
		t := c.temp()
		c.emit1(hp.OpMUL, t, 3, a, b)
		x, y := regSrc(t), regSrc(t)
		x.swz, y.swz = [4]uint8{0, 0, 0, 0}, [4]uint8{1, 1, 1, 1}
		c.emit1(hp.OpADD, dst, mask, x, y)
	case ir.DP3:
		c.emit1(hp.OpDP3, dst, mask, a, b)
	case ir.DP4:
		c.emit1(hp.OpDP4, dst, mask, a, b)
	case ir.DPH:
		c.emit1(hp.OpDPH, dst, mask, a, b)
	case ir.MIN:
		c.emit1(hp.OpMIN, dst, mask, a, b)
	case ir.MAX:
		c.emit1(hp.OpMAX, dst, mask, a, b)
	case ir.SLT:
		c.emit1(hp.OpSLT, dst, mask, a, b)
	case ir.SGE:
		c.emit1(hp.OpSGE, dst, mask, a, b)
	case ir.SEQ:
		// (a >= b)·(b >= a).
		t, u := c.temp(), c.temp()
		c.emit1(hp.OpSGE, t, mask, a, b)
		c.emit1(hp.OpSGE, u, mask, b, a)
		c.emit1(hp.OpMUL, dst, mask, regSrc(t), regSrc(u))
	case ir.SNE:
		// (a < b) + (b < a): at most one is 1.
		t, u := c.temp(), c.temp()
		c.emit1(hp.OpSLT, t, mask, a, b)
		c.emit1(hp.OpSLT, u, mask, b, a)
		c.emit1(hp.OpADD, dst, mask, regSrc(t), regSrc(u))
	case ir.CMP, ir.CND:
		// t = cond, f = 1 - t, dst = f·c + t·b: one product is 0 (the
		// unit's inf·0 is 0), so the result is b or c exactly.
		t, f, u := c.temp(), c.temp(), c.temp()
		if in.Op == ir.CMP {
			c.emit1(hp.OpSGE, t, mask, a, litSrc(0))
		} else {
			c.emit1(hp.OpSLT, t, mask, litSrc(0.5), a)
		}
		c.emit1(hp.OpADD, f, mask, litSrc(1), negSrc(regSrc(t)))
		c.emit1(hp.OpMUL, u, mask, regSrc(t), b)
		c.emit1(hp.OpMAD, dst, mask, regSrc(f), cc, regSrc(u))
	case ir.LRP:
		// a·(b - c) + c, the difference rounded first.
		t := c.temp()
		c.emit1(hp.OpADD, t, mask, b, negSrc(cc))
		c.emit1(hp.OpMAD, dst, mask, a, regSrc(t), cc)
	case ir.FRC:
		t := c.temp()
		c.emit1(hp.OpFLR, t, mask, a)
		c.emit1(hp.OpADD, dst, mask, a, negSrc(regSrc(t)))
	case ir.FLR:
		c.emit1(hp.OpFLR, dst, mask, a)
	case ir.RCP:
		c.emit1(hp.OpRCP, dst, mask, a)
	case ir.RSQ:
		// 1/sqrt(|a|): the unit's RSQ of a negative value is NaN.
		t := c.temp()
		c.emit1(hp.OpMAX, t, 1, splat(a), negSrc(splat(a)))
		c.emit1(hp.OpRSQ, dst, mask, regSrc(t))
	case ir.EX2:
		c.emit1(hp.OpEX2, dst, mask, a)
	case ir.LG2:
		c.emit1(hp.OpLG2, dst, mask, a)
	case ir.POW:
		t := c.temp()
		c.emit1(hp.OpLG2, t, 1, a)
		c.emit1(hp.OpMUL, t, 1, regSrc(t), splat(b))
		c.emit1(hp.OpEX2, dst, mask, regSrc(t))
	case ir.SIN, ir.COS:
		c.sinCos(in.Op == ir.COS, dst, mask, splat(a))
	case ir.ARL:
		// a0 = floor(a): FLR, then MOVA (which truncates).
		t := c.temp()
		c.emit1(hp.OpFLR, t, mask&3, a)
		c.emit1(hp.OpMOVA, dst, mask&3, regSrc(t))
	default:
		return fmt.Errorf("no shader-unit translation for %s", in.Op)
	}
	return nil
}

// sinCos computes sin(x) (or cos(x) = sin(x + π/2)) in lane x of a and
// writes it to the mask: y = x/2π (+ 1/4) reduced to [-1/2, 1/2), then
// sin(2πy) = sign(y)·sin(2π·min(|y|, 1/2 - |y|)), the last by the
// polynomial on [0, π/2].
func (c *comp) sinCos(cos bool, dst reg, mask uint8, a src) {
	const x = 1
	off := float32(0.5)
	if cos {
		off = 0.75
	}
	y, f, ab, m, u, u2, p, sg := c.temp(), c.temp(), c.temp(), c.temp(), c.temp(), c.temp(), c.temp(), c.temp()
	c.emit1(hp.OpMAD, y, x, a, litSrc(float32(1/(2*math.Pi))), litSrc(off))
	c.emit1(hp.OpFLR, f, x, regSrc(y))
	c.emit1(hp.OpADD, y, x, regSrc(y), negSrc(regSrc(f)))
	c.emit1(hp.OpADD, y, x, regSrc(y), litSrc(-0.5))
	c.emit1(hp.OpMAX, ab, x, regSrc(y), negSrc(regSrc(y)))
	c.emit1(hp.OpADD, m, x, litSrc(0.5), negSrc(regSrc(ab)))
	c.emit1(hp.OpMIN, m, x, regSrc(ab), regSrc(m))
	c.emit1(hp.OpMUL, u, x, regSrc(m), litSrc(float32(2*math.Pi)))
	c.emit1(hp.OpMUL, u2, x, regSrc(u), regSrc(u))
	c.emit1(hp.OpMAD, p, x, regSrc(u2), litSrc(sinCoef[3]), litSrc(sinCoef[2]))
	c.emit1(hp.OpMAD, p, x, regSrc(u2), regSrc(p), litSrc(sinCoef[1]))
	c.emit1(hp.OpMAD, p, x, regSrc(u2), regSrc(p), litSrc(sinCoef[0]))
	c.emit1(hp.OpMAD, p, x, regSrc(u2), regSrc(p), litSrc(1))
	c.emit1(hp.OpMUL, p, x, regSrc(u), regSrc(p))
	// sign(y) as 2·(y >= 0) - 1.
	c.emit1(hp.OpSGE, sg, x, regSrc(y), litSrc(0))
	c.emit1(hp.OpMAD, sg, x, regSrc(sg), litSrc(2), litSrc(-1))
	r := regSrc(p)
	r.swz = [4]uint8{}
	sv := regSrc(sg)
	sv.swz = [4]uint8{}
	c.emit1(hp.OpMUL, dst, mask, r, sv)
}

// String prints the program between passes.
func (c *comp) String() string {
	var b strings.Builder
	for _, in := range c.insts {
		b.WriteString(in.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func (r reg) String() string {
	switch r.file {
	case fTemp:
		return fmt.Sprintf("t%d", r.index)
	case fInput:
		return fmt.Sprintf("v%d", r.index)
	case fUni:
		return fmt.Sprintf("u%d", r.index)
	case fRel:
		return fmt.Sprintf("k%d", r.index)
	case fLit:
		return "lit"
	case fConst:
		return fmt.Sprintf("c%d", r.index)
	case fOut:
		return fmt.Sprintf("o%d", r.index)
	case fAddr:
		return "a0"
	}
	return "_"
}

func (s src) String() string {
	var b strings.Builder
	if s.neg {
		b.WriteByte('-')
	}
	if s.reg.file == fLit {
		b.WriteByte('(')
		for l := 0; l < 4; l++ {
			if l > 0 {
				b.WriteByte(',')
			}
			if s.litMask>>l&1 != 0 {
				fmt.Fprintf(&b, "%g", s.lit[l])
			} else {
				b.WriteByte('_')
			}
		}
		b.WriteByte(')')
		return b.String()
	}
	b.WriteString(s.reg.String())
	if s.rel {
		b.WriteString("[a0." + string("xy"[s.relComp&1]) + "]")
	}
	if s.swz != identity {
		b.WriteByte('.')
		for _, z := range s.swz {
			b.WriteByte("xyzw"[z])
		}
	}
	return b.String()
}

func (in *inst) String() string {
	switch in.flow {
	case flowBegin:
		return "bgnloop"
	case flowEnd:
		return "endloop"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", in.op.Info().Name, in.dst)
	if in.mask != 15 {
		b.WriteByte('.')
		for k := 0; k < 4; k++ {
			if in.mask>>k&1 != 0 {
				b.WriteByte("xyzw"[k])
			}
		}
	}
	for k := 0; k < in.n; k++ {
		b.WriteString(", ")
		b.WriteString(in.src[k].String())
	}
	return b.String()
}
