package r300

import (
	"fmt"
	"math"
	"strings"

	"github.com/retrogl/retrogl/compiler/ir"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// pvFile is a register file of the vertex back end's instructions.
type pvFile uint8

const (
	pvNone  pvFile = iota // an operand made of 0/1 selects only
	pvTemp                // a virtual temporary (physical after regalloc)
	pvInput               // PVS input register = IR input index
	pvUni                 // an IR uniform constant (before consts)
	pvRel                 // an IR constant read relative to a0 (before consts)
	pvLit                 // a literal operand (before consts)
	pvConst               // a PVS constant register (after consts)
	pvOut                 // a PVS output register
	pvA0                  // the address register
)

// pvReg names a register.
type pvReg struct {
	file  pvFile
	index int
}

// pvSrc is an operand: register, swizzle (PVS selects 0-5), per-component
// negation and absolute value (applied first). A pvLit operand carries its
// final per-component values in lit (modifiers folded, read components
// only; the swizzle is rebuilt by consts).
type pvSrc struct {
	reg pvReg
	swz [4]uint8
	neg uint8
	abs bool
	lit [4]float32
	// litMask marks the components lit holds.
	litMask uint8
	// rel marks a constant read at offset index + a0[relComp].
	rel     bool
	relComp uint8
}

// Flow markers of pvInst.flow.
const (
	flowNone = iota
	flowBegin
	flowEnd
)

// pvInst is one PVS instruction on virtual registers, or a loop marker
// (flow; it reads and writes nothing).
type pvInst struct {
	flow uint8
	math bool
	op   uint8
	dst  pvReg
	we   uint8
	src  [3]pvSrc
	srcs uint8 // slots read: bit k = src[k]
}

// vcomp is one vertex program in flight.
type vcomp struct {
	src, p *ir.Program
	opts   VertexOptions
	insts  []pvInst
	nvreg  int
	// outReg maps an IR output index to its PVS output register (-1:
	// not written).
	outReg []int
	cslots []ConstSlot
	// vloops are the loops' count programs (vloop.go).
	vloops []VertexLoop
	movs   int
	temps  int
	out    *VertexProgram
}

func (c *vcomp) verify() error {
	if err := c.p.Verify(); err != nil {
		return err
	}
	if n := len(c.p.Inputs); n > r3.PVSMaxInputs {
		return &VertexLimitError{"inputs", n, r3.PVSMaxInputs}
	}
	if n := len(c.opts.Outputs); n > r3.PVSMaxOutputs {
		return &VertexLimitError{"outputs", n, r3.PVSMaxOutputs}
	}
	c.outReg = make([]int, len(c.p.Outputs))
	for i, o := range c.p.Outputs {
		c.outReg[i] = -1
		for k, name := range c.opts.Outputs {
			if name == o.Name {
				c.outReg[i] = k
			}
		}
	}
	depth, loops := 0, 0
	for i := range c.p.Insts {
		in := &c.p.Insts[i]
		switch in.Op.Info().Kind {
		case ir.Texture:
			return fmt.Errorf("instruction %d (%s): the PVS has no texture fetch", i, in)
		case ir.Kill:
			return fmt.Errorf("instruction %d (%s): kill in a vertex program", i, in)
		}
		switch in.Op {
		case ir.BGNLOOP:
			if depth++; depth > r3.PVSMaxLoopDepth {
				return &VertexLimitError{"loop nesting levels", depth, r3.PVSMaxLoopDepth}
			}
			loops++
		case ir.ENDLOOP:
			depth--
		}
	}
	if loops > maxVertexLoops {
		return &VertexLimitError{"loops", loops, maxVertexLoops}
	}
	c.nvreg = c.p.NumTemps()
	return nil
}

// optimize runs compiler/ir's passes with float32 rounding, after turning
// reads of temporary components nothing wrote before (zero in the IR) into
// 0 selects.
func (c *vcomp) optimize() error {
	written := make([]ir.Mask, c.p.NumTemps())
	ends := ir.LoopEnds(c.p)
	for i := range c.p.Insts {
		in := &c.p.Insts[i]
		if e, ok := ends[i]; ok {
			// A loop body's writes reach its reads of later iterations.
			for j := i; j < e; j++ {
				if w := &c.p.Insts[j]; w.Dst.File == ir.Temp {
					written[w.Dst.Index] |= w.WriteMask()
				}
			}
		}
		for k := 0; k < in.Op.Info().NumSrc; k++ {
			s := &in.Src[k]
			if s.File != ir.Temp {
				continue
			}
			rm := in.ReadMask(k)
			for l := 0; l < 4; l++ {
				if z := s.Swz[l]; rm.Has(l) && z < 4 && !written[s.Index].Has(int(z)) {
					s.Swz[l] = ir.SwzZero
				}
			}
		}
		if in.Dst.File == ir.Temp {
			written[in.Dst.Index] |= in.WriteMask()
		}
	}
	ir.Optimize(c.p, nil)
	return nil
}

func (c *vcomp) temp() pvReg {
	c.nvreg++
	return pvReg{pvTemp, c.nvreg - 1}
}

var pvIdentity = [4]uint8{0, 1, 2, 3}

// operand converts an IR source. Literal operands become pvLit with their
// final values; an operand whose components are all 0 or ±1 after its
// modifiers becomes 0/1 selects (with negation) on no register.
func (c *vcomp) operand(s ir.Src, read ir.Mask) pvSrc {
	v := pvSrc{swz: s.Swz, abs: s.Abs}
	if s.Neg {
		v.neg = 15
	}
	switch s.File {
	case ir.Temp:
		v.reg = pvReg{pvTemp, s.Index}
	case ir.Input:
		v.reg = pvReg{pvInput, s.Index}
	case ir.Const:
		if s.Rel {
			v.reg, v.rel, v.relComp = pvReg{pvRel, s.Index}, true, s.RelComp
			break
		}
		k := c.p.Consts[s.Index]
		if k.Uniform != "" {
			v.reg = pvReg{pvUni, s.Index}
			break
		}
		v.reg = pvReg{pvLit, -1}
		v.abs, v.neg = false, 0
		for i := 0; i < 4; i++ {
			if !read.Has(i) {
				v.swz[i] = r3.PVSSelZero
				continue
			}
			x := float32(0)
			switch z := s.Swz[i]; {
			case z < 4:
				x = k.Value[z]
			case z == ir.SwzOne:
				x = 1
			}
			if s.Abs {
				x = float32(math.Abs(float64(x)))
			}
			if s.Neg {
				x = -x
			}
			v.lit[i] = x
			v.litMask |= 1 << i
		}
	}
	if v.reg.file != pvLit {
		// A constant selector keeps its value through abs and negation:
		// 0 stays 0 (its sign follows), 1 becomes ±1.
		return v
	}
	// Literal 0 and ±1 components need no register.
	all := true
	for i := 0; i < 4; i++ {
		if v.litMask>>i&1 == 0 {
			continue
		}
		x := v.lit[i]
		switch {
		case x == 0:
			v.swz[i] = r3.PVSSelZero
		case x == 1 || x == -1:
			v.swz[i] = r3.PVSSelOne
		default:
			all = false
			continue
		}
		if math.Signbit(float64(x)) {
			v.neg |= 1 << i
		}
		v.litMask &^= 1 << i
	}
	if all {
		v.reg = pvReg{pvNone, 0}
	}
	return v
}

// dstOf converts an IR destination; ok is false for an output that no
// output register receives.
func (c *vcomp) dstOf(d ir.Dst) (pvReg, bool) {
	switch d.File {
	case ir.Output:
		k := c.outReg[d.Index]
		return pvReg{pvOut, k}, k >= 0
	case ir.Addr:
		return pvReg{pvA0, 0}, true
	}
	return pvReg{pvTemp, d.Index}, true
}

// selSplat returns an operand reading component k of s in every lane (the
// math engine reads w).
func splatSrc(s pvSrc, k int) pvSrc {
	o := s
	for i := 0; i < 4; i++ {
		o.swz[i] = s.swz[k]
		o.lit[i] = s.lit[k]
		if s.neg>>k&1 != 0 {
			o.neg |= 1 << i
		} else {
			o.neg &^= 1 << i
		}
	}
	if s.litMask>>k&1 != 0 {
		o.litMask = 15
	} else {
		o.litMask = 0
	}
	return o
}

// zero returns an operand of zeros.
func zeroSrc() pvSrc { return pvSrc{swz: [4]uint8{4, 4, 4, 4}} }

// oneSrc returns an operand of ones.
func oneSrc() pvSrc { return pvSrc{swz: [4]uint8{5, 5, 5, 5}} }

// halfSrc returns an operand of 0.5 (a literal).
func litSrc(x float32) pvSrc {
	v := pvSrc{reg: pvReg{pvLit, -1}, litMask: 15, lit: [4]float32{x, x, x, x}}
	return v
}

// regSrc reads a register with the identity swizzle.
func regSrc(r pvReg) pvSrc { return pvSrc{reg: r, swz: pvIdentity} }

func (c *vcomp) emitV(op uint8, dst pvReg, we uint8, srcs ...pvSrc) {
	in := pvInst{op: op, dst: dst, we: we}
	for k, s := range srcs {
		in.src[k] = s
		in.srcs |= 1 << k
	}
	c.insts = append(c.insts, in)
}

// emitM emits a math opcode reading the w lanes of A (and C for POW).
func (c *vcomp) emitM(op uint8, dst pvReg, we uint8, a, cc pvSrc) {
	in := pvInst{math: true, op: op, dst: dst, we: we, srcs: 1}
	in.src[0] = a
	if op == r3.MEPow {
		in.src[2] = cc
		in.srcs |= 4
	}
	c.insts = append(c.insts, in)
}

// selectOps translates every IR instruction into PVS opcodes (the
// "select" pass).
func (c *vcomp) selectOps() error {
	for i := range c.p.Insts {
		in := &c.p.Insts[i]
		switch in.Op {
		case ir.BGNLOOP:
			c.insts = append(c.insts, pvInst{flow: flowBegin})
			continue
		case ir.ENDLOOP:
			c.insts = append(c.insts, pvInst{flow: flowEnd})
			continue
		}
		dst, ok := c.dstOf(in.Dst)
		if !ok {
			continue
		}
		we := uint8(in.Dst.Mask)
		info := in.Op.Info()
		var src [3]pvSrc
		for k := 0; k < info.NumSrc; k++ {
			src[k] = c.operand(in.Src[k], in.ReadMask(k))
		}
		// A saturated result goes through a temporary when its
		// destination is an output (outputs cannot be read back).
		final := dst
		if in.Sat && dst.file == pvOut {
			dst = c.temp()
		}
		if in.Sat && in.Op == ir.MOV {
			// A clamped copy is the clamp alone.
			c.emitV(r3.VEMax, dst, we, src[0], zeroSrc())
			c.emitV(r3.VEMin, final, we, regSrc(dst), oneSrc())
			continue
		}
		if err := c.selectOne(in, dst, we, src); err != nil {
			return fmt.Errorf("instruction %d (%s): %w", i, in, err)
		}
		if in.Sat {
			// [0, 1] as MAX with 0 then MIN with 1.
			c.emitV(r3.VEMax, dst, we, regSrc(dst), zeroSrc())
			c.emitV(r3.VEMin, final, we, regSrc(dst), oneSrc())
		}
	}
	return nil
}

func (c *vcomp) selectOne(in *ir.Inst, dst pvReg, we uint8, src [3]pvSrc) error {
	a, b, cc := src[0], src[1], src[2]
	switch in.Op {
	case ir.MOV:
		// a·1, exact for every value; Mesa's a + 0 turns -0 into +0.
		c.emitV(r3.VEMul, dst, we, a, oneSrc())
	case ir.ADD:
		c.emitV(r3.VEAdd, dst, we, a, b)
	case ir.MUL:
		c.emitV(r3.VEMul, dst, we, a, b)
	case ir.MAD:
		c.emitV(r3.VEMad, dst, we, a, b, cc)
	case ir.DP2, ir.DP3, ir.DP4, ir.DPH:
		// DP4 with the unused lanes selecting 0 (and DPH's a.w 1).
		for k := in.Op.Info().Width; k < 4; k++ {
			a = setLane(a, k, r3.PVSSelZero)
			b = setLane(b, k, r3.PVSSelZero)
		}
		if in.Op == ir.DPH {
			a = setLane(a, 3, r3.PVSSelOne)
		}
		c.emitV(r3.VEDot4, dst, we, a, b)
	case ir.MIN:
		c.emitV(r3.VEMin, dst, we, a, b)
	case ir.MAX:
		c.emitV(r3.VEMax, dst, we, a, b)
	case ir.SLT:
		c.emitV(r3.VESlt, dst, we, a, b)
	case ir.SGE:
		c.emitV(r3.VESge, dst, we, a, b)
	case ir.SEQ, ir.SNE:
		// |a - b| compared with 0: SEQ = (-|d| >= 0), SNE = (-|d| < 0).
		d := c.temp()
		c.emitV(r3.VEAdd, d, we, a, negSrc(b))
		nd := regSrc(d)
		nd.abs, nd.neg = true, 15
		op := uint8(r3.VESge)
		if in.Op == ir.SNE {
			op = r3.VESlt
		}
		c.emitV(op, dst, we, nd, zeroSrc())
	case ir.CMP, ir.CND:
		c.selectSelect(in.Op, dst, we, a, b, cc)
	case ir.LRP:
		// a·(b - c) + c with the difference rounded first, as ir.Run.
		t := c.temp()
		c.emitV(r3.VEAdd, t, we, b, negSrc(cc))
		c.emitV(r3.VEMad, dst, we, a, regSrc(t), cc)
	case ir.FRC:
		c.emitV(r3.VEFrc, dst, we, a)
	case ir.FLR:
		// a - frc(a), as ir.Run.
		t := c.temp()
		c.emitV(r3.VEFrc, t, we, a)
		c.emitV(r3.VEAdd, dst, we, a, negSrc(regSrc(t)))
	case ir.RCP:
		c.emitM(r3.MERcpDX, dst, we, splatSrc(a, 0), pvSrc{})
	case ir.RSQ:
		c.emitM(r3.MERsqDX, dst, we, splatSrc(a, 0), pvSrc{})
	case ir.EX2:
		c.emitM(r3.MEEx2, dst, we, splatSrc(a, 0), pvSrc{})
	case ir.LG2:
		c.emitM(r3.MELg2, dst, we, splatSrc(a, 0), pvSrc{})
	case ir.POW:
		c.emitM(r3.MEPow, dst, we, splatSrc(a, 0), splatSrc(b, 0))
	case ir.SIN:
		c.emitM(r3.MESin, dst, we, splatSrc(a, 0), pvSrc{})
	case ir.COS:
		c.emitM(r3.MECos, dst, we, splatSrc(a, 0), pvSrc{})
	case ir.ARL:
		c.emitV(r3.VEFlt2Fix, dst, we, a)
	default:
		return fmt.Errorf("no PVS translation for %s", in.Op)
	}
	return nil
}

// setLane sets lane k of an operand to a constant select.
func setLane(s pvSrc, k int, sel uint8) pvSrc {
	s.swz[k] = sel
	s.neg &^= 1 << k
	s.litMask &^= 1 << k
	s.lit[k] = 0
	if sel == r3.PVSSelOne {
		s.lit[k] = 1
	}
	if s.reg.file == pvLit && s.litMask == 0 {
		s.reg = pvReg{pvNone, 0}
	}
	return s
}

// negSrc negates an operand.
func negSrc(s pvSrc) pvSrc {
	s.neg ^= 15
	for k := range s.lit {
		s.lit[k] = -s.lit[k]
	}
	return s
}

// selectSelect expands CMP (b if a >= 0) and CND (b if a > 0.5) into an
// exact select ([OUT] Mesa's transform for R300 vertex CMP: SLT, SGE, MUL,
// MAD): t = cond, f = !cond, dst = f·c + t·b. Exactly one product is
// non-zero, so the result is b or c unrounded (an infinite or NaN operand
// not chosen still makes the other product NaN).
func (c *vcomp) selectSelect(op ir.Op, dst pvReg, we uint8, a, b, cc pvSrc) {
	t, f := c.temp(), c.temp()
	if op == ir.CMP {
		c.emitV(r3.VESge, t, we, a, zeroSrc())
		c.emitV(r3.VESlt, f, we, a, zeroSrc())
	} else {
		c.emitV(r3.VESlt, t, we, litSrc(0.5), a)
		c.emitV(r3.VESge, f, we, litSrc(0.5), a)
	}
	switch {
	case isZeroSrc(cc):
		c.emitV(r3.VEMul, dst, we, regSrc(t), b)
	case isZeroSrc(b):
		c.emitV(r3.VEMul, dst, we, regSrc(f), cc)
	default:
		u := c.temp()
		c.emitV(r3.VEMul, u, we, regSrc(t), b)
		c.emitV(r3.VEMad, dst, we, regSrc(f), cc, regSrc(u))
	}
}

// isZeroSrc reports an operand that selects 0 in every lane.
func isZeroSrc(s pvSrc) bool {
	if s.reg.file != pvNone {
		return false
	}
	for _, z := range s.swz {
		if z != r3.PVSSelZero {
			return false
		}
	}
	return true
}

// chans returns the register components operand k reads.
func (in *pvInst) chans(k int) uint8 {
	s := in.src[k]
	var lanes uint8 = 15
	switch {
	case in.math:
		lanes = 8
		if in.op == r3.MELit {
			lanes = 8
		}
	case in.op == r3.VEDst:
		lanes = [3]uint8{2 | 4, 2 | 8, 0}[k]
	case in.op == r3.VEDot4:
		lanes = 15
	default:
		lanes = in.we
	}
	var m uint8
	for i := 0; i < 4; i++ {
		if lanes>>i&1 != 0 && s.swz[i] < 4 {
			m |= 1 << s.swz[i]
		}
	}
	return m
}

func (r pvReg) String() string {
	switch r.file {
	case pvNone:
		return "_"
	case pvTemp:
		return fmt.Sprintf("t%d", r.index)
	case pvInput:
		return fmt.Sprintf("v%d", r.index)
	case pvUni:
		return fmt.Sprintf("u%d", r.index)
	case pvRel:
		return fmt.Sprintf("c[%d]", r.index)
	case pvLit:
		return "lit"
	case pvConst:
		return fmt.Sprintf("c%d", r.index)
	case pvOut:
		return fmt.Sprintf("o%d", r.index)
	case pvA0:
		return "a0"
	}
	return "?"
}

func (s pvSrc) String() string {
	var b strings.Builder
	if s.reg.file == pvLit {
		b.WriteString("(")
		for i := 0; i < 4; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			if s.litMask>>i&1 != 0 {
				fmt.Fprintf(&b, "%g", s.lit[i])
			} else {
				if s.neg>>i&1 != 0 {
					b.WriteByte('-')
				}
				b.WriteByte("xyzw01??"[s.swz[i]&7])
			}
		}
		b.WriteString(")")
		return b.String()
	}
	reg := s.reg.String()
	if s.rel {
		reg = fmt.Sprintf("c[a0.%c+%d]", "xyzw"[s.relComp&3], s.reg.index)
	}
	if s.abs {
		reg = "|" + reg + "|"
	}
	b.WriteString(reg + ".")
	for i := 0; i < 4; i++ {
		if s.neg>>i&1 != 0 {
			b.WriteByte('-')
		}
		b.WriteByte("xyzw01??"[s.swz[i]&7])
	}
	return b.String()
}

func (in *pvInst) String() string {
	switch in.flow {
	case flowBegin:
		return "bgnloop"
	case flowEnd:
		return "endloop"
	}
	var name string
	if in.math {
		name = r3.PVSMathOps[in.op].Mnemonic
	} else {
		name = r3.PVSVectorOps[in.op].Mnemonic
	}
	s := fmt.Sprintf("%s %s.%s", name, in.dst, maskText(in.we))
	for k := 0; k < 3; k++ {
		if in.srcs>>k&1 != 0 {
			s += ", " + in.src[k].String()
		}
	}
	return s
}

func maskText(m uint8) string {
	s := ""
	for i := 0; i < 4; i++ {
		if m>>i&1 != 0 {
			s += string("xyzw"[i])
		}
	}
	return s
}

func (c *vcomp) dump() string {
	if c.out != nil {
		return strings.Join(c.out.Disassemble(), "\n") + "\n"
	}
	var b strings.Builder
	for _, in := range c.insts {
		b.WriteString(in.String())
		b.WriteByte('\n')
	}
	if len(c.insts) == 0 {
		b.WriteString(c.p.String())
	}
	return b.String()
}
