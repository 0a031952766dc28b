package r300

import (
	"math"
	mbits "math/bits"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// The programmable vertex shader (PVS). With VAP_CNTL_STATUS.PVS_BYPASS
// clear, every vertex runs the program in the vector memory from
// PVS_FIRST_INST to PVS_LAST_INST (L1973-1975) over its input vectors (the
// stream elements, L1911-1946), the temporaries, the constants and the
// address registers, and the output vectors become the vertex the clipper
// and the setup unit see. The instruction words and opcode facts are
// hal/r300's (pvs.go there lists the sources). Decisions where no source
// speaks, each tested:
//
//   - Arithmetic: every result component is the exact result rounded once to
//     IEEE float32 (a MAD or a DP4 is fused), the rounding compiler/ir's
//     interpreter uses for float32 programs, so a compiled program can be
//     checked against it bit for bit. The special values of the math
//     engine are in hal/r300's PVSMathOps table.
//   - Registers start every vertex at zero: 32 temporaries, 32 input and 32
//     output vectors, A0 and the loop index. Real hardware leaves old
//     values (Mesa writes every output it enables: rc_vs_add_artificial_outputs).
//   - A relative operand reads offset + A0[ADDR_SEL] (address mode 1) or
//     offset + aL (mode 2). A constant address outside 0..PVS_MAX_CONST_ADDR
//     reads (0, 0, 0, 0) (L1986), as does a temporary or input address
//     outside its file; a relative write outside its file is dropped
//     ([PROP]). Constant addresses are added to PVS_CONST_BASE_OFFSET
//     modulo the 256-vector store.
//   - Operand rules of the vertex engine ([OUT] Mesa r3xx_vertprog.c): the
//     three operand slots may name at most one input register and one
//     constant register (operands encoded alike, as Mesa's filler operands
//     are, name one register; a relative constant differs from an absolute
//     one), and a non-macro MAD cannot read three different temporaries. A
//     program that breaks one faults, naming the instruction.
//   - Flow control is checked after each instruction: first the end of the
//     innermost loop or subroutine (a repeat or a return jumps), then, when
//     nothing jumped, the slot acting after the instruction.
//   - Flow control (L1988-2027): after instruction ACT_ADRS, a JUMP goes to
//     its target; a LOOP sets aL to its init value and runs RTN_INST..
//     LAST_INST COUNT times, stepping aL before each repeat; a JSR runs
//     JMP_INST..LAST_INST and returns to RTN_INST. A loop count of 0 faults
//     (L1992: "must be replaced by a jump"), so do two slots acting after one
//     instruction, a loop inside a loop (R300_VS_MAX_LOOP_DEPTH 1) and a
//     subroutine called from a subroutine ([PROP]). A jump or call target
//     must lie in FIRST..LAST, or be LAST+1, which ends the program.
//   - The watchdog: one step is charged per 64 instructions executed, and a
//     vertex that runs more than pvsVertexBudget instructions (a JUMP that
//     goes backwards forever) faults.
//   - R500 opcodes, predication, dual math, the saturate bits (Mesa's
//     encoder rejects Saturate on R300), the alternate temporaries, writes
//     to inputs and the opcodes without a public description fault, naming
//     what they are.
//   - Output vector k is the k-th output VAP_OUT_VTX_FMT_0/1 enables in the
//     order position, point size, colours 0-3, texture coordinates 0-7
//     ([OUT] Mesa r300_vs.c set_vertex_inputs_outputs).

// pvsVertexBudget bounds the instructions one vertex may execute: more
// than a full 256-instruction loop of 255 iterations plus the code around
// it.
const pvsVertexBudget = 1 << 17

// pvsOperand is one decoded source operand.
type pvsOperand struct {
	file r3.PVSSrcType
	mode uint8 // r3.PVSAddr*
	sel  uint8 // A0 component for relative addressing
	off  int
	swz  [4]uint8
	neg  [4]bool
	abs  bool
	// plain is set for an operand read as it is (absolute address, xyzw,
	// no abs, no negation).
	plain bool
}

// pvsOp is one decoded instruction.
type pvsOp struct {
	raw        r3.PVSInst
	math       bool
	op         uint8 // vector opcode; macros map onto VEMad / VEM2xAdd
	srcs       uint8 // operands read (bit k = slot k)
	src        [3]pvsOperand
	dstFile    r3.PVSDstType
	dstMode    uint8
	dstSel     uint8
	dstOff     int
	we         uint8
	readsInput bool
	// fast is batchable(): execBatch has a loop of its own for it.
	fast bool
}

// pvsFrame is an active loop or subroutine.
type pvsFrame struct {
	loop      bool
	last, rtn int
	remaining int
	step      int32
}

// pvsState is the vertex program of a draw, decoded once.
type pvsState struct {
	ops         [r3.PVSMaxInsts]pvsOp
	first, last int
	// act[i] is the flow slot acting after instruction i, or -1.
	act    [r3.PVSMaxInsts]int8
	flow   [r3.PVSMaxFlow]r3.PVSFlow
	consts [r3.PVSMaxConsts][4]float32
	maxC   int
	// steps counts instructions not yet charged to the watchdog.
	steps int
	// tempW and outW are the temporaries and outputs the program can
	// write (every one when a relative write can reach it): resetVertex
	// clears only these, the rest stay zero from clearAll.
	tempW, outW uint32
	// scratch holds execBatch's operands and results (pvsbatch.go).
	scratch [4][pvsBatchSize][4]float32
}

// clearAll zeroes a register file before a draw's first vertex.
func (st *pvsState) clearAll(r *pvsRegs) { *r = pvsRegs{} }

// resetVertex returns a register file that held a vertex of this draw to
// the zero state every vertex starts in. The inputs need no clearing:
// every vertex of the draw writes the same input components (the stream
// elements), the others stay zero.
func (st *pvsState) resetVertex(r *pvsRegs) {
	for m := st.tempW; m != 0; m &= m - 1 {
		r.temp[mbits.TrailingZeros32(m)] = [4]float32{}
	}
	for m := st.outW; m != 0; m &= m - 1 {
		r.out[mbits.TrailingZeros32(m)] = [4]float32{}
	}
	r.a0 = [4]int32{}
	r.aL = 0
}

// pvsRegs is one vertex's register file.
type pvsRegs struct {
	temp [r3.PVSMaxTemps][4]float32
	in   [r3.PVSMaxInputs][4]float32
	out  [r3.PVSMaxOutputs][4]float32
	a0   [4]int32
	aL   int32
}

// preparePVS decodes the vertex program and checks it against the rules
// above.
func (e *Engine) preparePVS() (*pvsState, error) {
	p := r3.ReadPVSProgram(e.reg, e.pvs[:])
	st := &pvsState{first: p.First(), last: p.Last(), maxC: p.MaxConst()}
	if st.last < st.first || st.last >= r3.PVSMaxInsts {
		return nil, faultf("VAP_PVS_CODE_CNTL_0: instructions %d-%d do not lie in the %d-instruction code store", st.first, st.last, r3.PVSMaxInsts)
	}
	// L1974, L1980: "This field must be set to valid instruction" ([OUT]
	// Mesa r300_reg.h: pointing outside the program locks the GPU up).
	if v := p.PosValid(); v < st.first || v > st.last {
		return nil, faultf("VAP_PVS_CODE_CNTL_0.PVS_XYZW_VALID_INST %d lies outside instructions %d-%d", v, st.first, st.last)
	}
	if v := p.LastInput(); v < st.first || v > st.last {
		return nil, faultf("VAP_PVS_CODE_CNTL_1.PVS_LAST_VTX_SRC_INST %d lies outside instructions %d-%d", v, st.first, st.last)
	}
	for i := st.first; i <= st.last; i++ {
		if err := st.decode(i, p.Inst(i)); err != nil {
			return nil, err
		}
	}
	for i := st.first; i <= st.last; i++ {
		o := &st.ops[i]
		o.fast = o.batchable()
		mask := &st.tempW
		if o.dstFile == r3.PVSDstOut {
			mask = &st.outW
		} else if o.dstFile != r3.PVSDstTemp {
			continue
		}
		if o.dstMode != r3.PVSAddrAbsolute {
			*mask = ^uint32(0)
		} else if o.dstOff >= 0 && o.dstOff < 32 {
			*mask |= 1 << uint(o.dstOff)
		}
	}
	for i := range st.act {
		st.act[i] = -1
	}
	for k := 0; k < r3.PVSMaxFlow; k++ {
		f := p.Flow(k)
		st.flow[k] = f
		if f.Op == r3.PVSFlowNOP {
			continue
		}
		a := int(f.Act)
		if a < st.first || a > st.last {
			return nil, faultf("VAP_PVS_FLOW_CNTL slot %d acts after instruction %d, outside instructions %d-%d", k, a, st.first, st.last)
		}
		if st.act[a] >= 0 {
			return nil, faultf("VAP_PVS_FLOW_CNTL slots %d and %d both act after instruction %d", st.act[a], k, a)
		}
		st.act[a] = int8(k)
		inRange := func(x int) bool { return x >= st.first && x <= st.last }
		switch f.Op {
		case r3.PVSFlowJump:
			if !inRange(int(f.TargetOrCnt)) && int(f.TargetOrCnt) != st.last+1 {
				return nil, faultf("VAP_PVS_FLOW_CNTL slot %d jumps to %d, outside instructions %d-%d", k, f.TargetOrCnt, st.first, st.last)
			}
		case r3.PVSFlowLoop:
			if f.TargetOrCnt == 0 {
				return nil, faultf("VAP_PVS_FLOW_CNTL slot %d: a loop count of 0 must be replaced by a jump (L1992)", k)
			}
			if !inRange(int(f.Rtn)) || !inRange(int(f.Last)) || f.Last < f.Rtn {
				return nil, faultf("VAP_PVS_FLOW_CNTL slot %d loops over %d-%d, outside instructions %d-%d", k, f.Rtn, f.Last, st.first, st.last)
			}
		case r3.PVSFlowJSR:
			if !inRange(int(f.TargetOrCnt)) || !inRange(int(f.Last)) || f.Last < f.TargetOrCnt {
				return nil, faultf("VAP_PVS_FLOW_CNTL slot %d calls %d-%d, outside instructions %d-%d", k, f.TargetOrCnt, f.Last, st.first, st.last)
			}
			if !inRange(int(f.Rtn)) && int(f.Rtn) != st.last+1 {
				return nil, faultf("VAP_PVS_FLOW_CNTL slot %d returns to %d, outside instructions %d-%d", k, f.Rtn, st.first, st.last)
			}
		}
	}
	for k := range st.consts {
		c := p.Const(k)
		for j := range c {
			st.consts[k][j] = math.Float32frombits(c[j])
		}
	}
	return st, nil
}

// decode checks and decodes instruction i.
func (st *pvsState) decode(i int, in r3.PVSInst) error {
	d := in.Dst
	info := in.Info()
	o := &st.ops[i]
	*o = pvsOp{raw: in, math: d.Math && !d.Macro, op: d.Op, srcs: info.Srcs, dstFile: d.Type,
		dstMode: d.AddrMode, dstSel: d.AddrSel, dstOff: int(d.Offset), we: d.WE}
	switch {
	case d.PredEnable || d.PredSense:
		return faultf("PVS instruction %d: predication is an R500 feature (%s)", i, in)
	case d.DualMath:
		return faultf("PVS instruction %d: dual math instructions are not simulated (%s)", i, in)
	case d.VESat || d.MESat:
		return faultf("PVS instruction %d: the saturate bits are not simulated on R300 ([OUT] Mesa rejects Saturate here) (%s)", i, in)
	case info.R500:
		return faultf("PVS instruction %d: %s is an R500 opcode", i, info.Name)
	case !info.Simulated:
		return faultf("PVS instruction %d: %s has no public description and is not simulated", i, info.Name)
	case d.Macro && d.Math:
		return faultf("PVS instruction %d: MATH and MACRO are both set", i)
	}
	if d.Macro {
		o.op = r3.VEMad
		if d.Op == r3.MacroM2Add {
			o.op = r3.VEM2xAdd
		}
	}
	switch d.Type {
	case r3.PVSDstTemp, r3.PVSDstOut:
	case r3.PVSDstA0:
		if o.math || (o.op != r3.VEFlt2Fix && o.op != r3.VEFlt2FixR) {
			return faultf("PVS instruction %d: only ARL/ARR (VE_FLT2FIX_DX*) write A0 (%s)", i, in)
		}
		if d.AddrMode != r3.PVSAddrAbsolute || d.Offset != 0 {
			return faultf("PVS instruction %d: A0 is one register (%s)", i, in)
		}
	default:
		return faultf("PVS instruction %d: destination type %d is not simulated (%s)", i, d.Type, in)
	}
	if !o.math && (o.op == r3.VEFlt2Fix || o.op == r3.VEFlt2FixR) && d.Type != r3.PVSDstA0 {
		return faultf("PVS instruction %d: %s writes A0 only (%s)", i, info.Name, in)
	}
	if d.AddrMode == 3 {
		return faultf("PVS instruction %d: destination address mode 3 is reserved", i)
	}
	var inputs, consts []r3.PVSSrc
	temps := map[uint8]bool{}
	for k := 0; k < 3; k++ {
		s := in.Src[k]
		if s.Spare {
			return faultf("PVS instruction %d: operand %c sets the spare bit 2", i, "ABC"[k])
		}
		if s.AddrMode == 3 {
			return faultf("PVS instruction %d: operand %c address mode 3 is reserved", i, "ABC"[k])
		}
		for c, z := range s.Swz {
			if z > r3.PVSSelOne {
				return faultf("PVS instruction %d: operand %c swizzle %d of component %c is reserved", i, "ABC"[k], z, "xyzw"[c])
			}
		}
		op := pvsOperand{file: s.Type, mode: s.AddrMode, sel: s.AddrSel, off: int(s.Offset), swz: s.Swz, abs: s.Abs}
		for c := range op.neg {
			op.neg[c] = s.Neg>>c&1 != 0
		}
		op.plain = op.mode == r3.PVSAddrAbsolute && !op.abs && s.Neg&15 == 0 && op.swz == [4]uint8{0, 1, 2, 3}
		o.src[k] = op
		switch s.Type {
		case r3.PVSSrcInput:
			inputs = append(inputs, s)
			if info.Srcs>>k&1 != 0 {
				o.readsInput = true
			}
		case r3.PVSSrcConst:
			consts = append(consts, s)
		case r3.PVSSrcTemp:
			if s.AddrMode == r3.PVSAddrAbsolute {
				temps[s.Offset] = true
			}
		case r3.PVSSrcAltTemp:
			if info.Srcs>>k&1 != 0 {
				return faultf("PVS instruction %d: alternate temporaries are not simulated", i)
			}
		}
	}
	// [OUT] Mesa transform_source_conflicts / t_src_conflict: "Vertex
	// engine cannot read two inputs or two constants at the same time".
	// Operands naming the same register the same way (file, address mode,
	// select, offset) read it once.
	conflict := func(list []r3.PVSSrc) bool {
		for a := 0; a < len(list); a++ {
			for b := a + 1; b < len(list); b++ {
				x, y := list[a], list[b]
				if x.AddrMode != y.AddrMode || x.Offset != y.Offset || (x.AddrMode == r3.PVSAddrA0 && x.AddrSel != y.AddrSel) {
					return true
				}
			}
		}
		return false
	}
	if conflict(inputs) {
		return faultf("PVS instruction %d reads two different input registers (%s)", i, in)
	}
	if conflict(consts) {
		return faultf("PVS instruction %d reads two different constant registers (%s)", i, in)
	}
	// [OUT] Mesa ei_mad: "MAD with three unique temporary source registers
	// requires the use of the macro version".
	if !d.Macro && !o.math && d.Op == r3.VEMad && len(temps) == 3 {
		return faultf("PVS instruction %d: a MAD reading three different temporaries needs the macro form (%s)", i, in)
	}
	return nil
}

// run executes the program for one vertex.
func (st *pvsState) run(r *pvsRegs) error {
	var frames [2]pvsFrame
	nf := 0
	n := 0
	for pc := st.first; pc <= st.last; {
		if n++; n > pvsVertexBudget {
			return faultf("PVS: a vertex ran more than %d instructions (flow control that never ends?)", pvsVertexBudget)
		}
		st.exec(pc, r)
		next := pc + 1
		handled := false
		if nf > 0 && frames[nf-1].last == pc {
			f := &frames[nf-1]
			if f.loop {
				f.remaining--
				if f.remaining > 0 {
					r.aL += f.step
					next = f.rtn
					handled = true
				} else {
					nf--
				}
			} else {
				next = f.rtn
				nf--
				handled = true
			}
		}
		if k := st.act[pc]; k >= 0 && !handled {
			f := &st.flow[k]
			switch f.Op {
			case r3.PVSFlowJump:
				next = int(f.TargetOrCnt)
			case r3.PVSFlowLoop:
				for _, fr := range frames[:nf] {
					if fr.loop {
						return faultf("PVS: the loop of flow slot %d starts inside another loop (R300_VS_MAX_LOOP_DEPTH is 1)", k)
					}
				}
				frames[nf] = pvsFrame{loop: true, last: int(f.Last), rtn: int(f.Rtn), remaining: int(f.TargetOrCnt), step: int32(f.Step)}
				nf++
				r.aL = int32(f.Init)
				next = int(f.Rtn)
			case r3.PVSFlowJSR:
				for _, fr := range frames[:nf] {
					if !fr.loop {
						return faultf("PVS: flow slot %d calls a subroutine from a subroutine", k)
					}
				}
				frames[nf] = pvsFrame{last: int(f.Last), rtn: int(f.Rtn)}
				nf++
				next = int(f.TargetOrCnt)
			}
		}
		pc = next
	}
	st.steps += n
	return nil
}

// read returns an operand's value after swizzle, abs and negation.
func (st *pvsState) read(o *pvsOperand, r *pvsRegs) [4]float32 {
	addr := o.off
	switch o.mode {
	case r3.PVSAddrA0:
		addr += int(r.a0[o.sel&3])
	case r3.PVSAddrLoop:
		addr += int(r.aL)
	}
	var v [4]float32
	switch o.file {
	case r3.PVSSrcTemp:
		if addr >= 0 && addr < r3.PVSMaxTemps {
			v = r.temp[addr]
		}
	case r3.PVSSrcInput:
		if addr >= 0 && addr < r3.PVSMaxInputs {
			v = r.in[addr]
		}
	case r3.PVSSrcConst:
		if addr >= 0 && addr <= st.maxC {
			v = st.consts[addr%r3.PVSMaxConsts]
		}
	}
	if o.plain {
		return v
	}
	var out [4]float32
	for c, z := range o.swz {
		var x float32
		switch {
		case z < 4:
			x = v[z]
		case z == r3.PVSSelOne:
			x = 1
		}
		if o.abs {
			x = float32(math.Abs(float64(x)))
		}
		if o.neg[c] {
			x = -x
		}
		out[c] = x
	}
	return out
}

// exec executes instruction pc.
func (st *pvsState) exec(pc int, r *pvsRegs) {
	o := &st.ops[pc]
	var a, b, c [4]float32
	if o.srcs&1 != 0 {
		a = st.read(&o.src[0], r)
	}
	if o.srcs&2 != 0 {
		b = st.read(&o.src[1], r)
	}
	if o.srcs&4 != 0 {
		c = st.read(&o.src[2], r)
	}
	var res [4]float32
	if o.math {
		if o.op == 0 {
			return
		}
		res = mathOp(o.op, a, b, c)
	} else {
		switch o.op {
		case 0:
			return
		case r3.VEFlt2Fix, r3.VEFlt2FixR:
			for k := 0; k < 4; k++ {
				if o.we>>k&1 != 0 {
					r.a0[k] = flt2fix(a[k], o.op == r3.VEFlt2FixR)
				}
			}
			return
		}
		res = vectorOp(o.op, a, b, c)
	}
	addr := o.dstOff
	switch o.dstMode {
	case r3.PVSAddrA0:
		addr += int(r.a0[o.dstSel&3])
	case r3.PVSAddrLoop:
		addr += int(r.aL)
	}
	var dst *[4]float32
	switch o.dstFile {
	case r3.PVSDstTemp:
		if addr < 0 || addr >= r3.PVSMaxTemps {
			return
		}
		dst = &r.temp[addr]
	case r3.PVSDstOut:
		if addr < 0 || addr >= r3.PVSMaxOutputs {
			return
		}
		dst = &r.out[addr]
	}
	for k := 0; k < 4; k++ {
		if o.we>>k&1 != 0 {
			dst[k] = res[k]
		}
	}
}

// flt2fix converts to the address register: floor, or round half away
// from zero, clamped ([PROP] to 16 bits; NaN gives 0).
func flt2fix(x float32, round bool) int32 {
	f := float64(x)
	if round {
		f = math.Round(f)
	} else {
		f = math.Floor(f)
	}
	switch {
	case f != f:
		return 0
	case f > 32767:
		return 32767
	case f < -32768:
		return -32768
	}
	return int32(f)
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// vectorOp computes a vector-engine opcode (hal/r300 PVSVectorOps).
func vectorOp(op uint8, a, b, c [4]float32) [4]float32 {
	var r [4]float32
	switch op {
	case r3.VEDot4:
		s := float64(a[0]) * float64(b[0])
		for k := 1; k < 4; k++ {
			s += float64(a[k]) * float64(b[k])
		}
		x := float32(s)
		return [4]float32{x, x, x, x}
	case r3.VEDst:
		return [4]float32{1, float32(float64(a[1]) * float64(b[1])), a[2], b[3]}
	}
	// One loop per opcode: the opcode is tested once, not per component.
	switch op {
	case r3.VEMul:
		for k := range r {
			r[k] = float32(float64(a[k]) * float64(b[k]))
		}
	case r3.VEAdd:
		for k := range r {
			r[k] = float32(float64(a[k]) + float64(b[k]))
		}
	case r3.VEMad:
		for k := range r {
			r[k] = float32(float64(a[k])*float64(b[k]) + float64(c[k]))
		}
	case r3.VEM2xAdd:
		for k := range r {
			r[k] = float32(2*(float64(a[k])*float64(b[k])) + float64(c[k]))
		}
	case r3.VEFrc:
		for k := range r {
			x := float64(a[k])
			r[k] = float32(x - math.Floor(x))
		}
	case r3.VEMax:
		for k := range r {
			r[k] = float32(math.Max(float64(a[k]), float64(b[k])))
		}
	case r3.VEMin:
		for k := range r {
			r[k] = float32(math.Min(float64(a[k]), float64(b[k])))
		}
	case r3.VESge:
		for k := range r {
			r[k] = b2f(float64(a[k]) >= float64(b[k]))
		}
	case r3.VESlt:
		for k := range r {
			r[k] = b2f(float64(a[k]) < float64(b[k]))
		}
	}
	return r
}

// pow is the math engine's power: |x|^y as 2^(y·log2|x|) with each step
// rounded to float32; x^0 = 1 and 0^y = 0 for y > 0.
func pow(x, y float32) float32 {
	switch {
	case y == 0:
		return 1
	case x == 0 && y > 0:
		return 0
	}
	l := float32(math.Log2(math.Abs(float64(x))))
	return float32(math.Exp2(float64(float32(float64(y) * float64(l)))))
}

// mathOp computes a math-engine opcode on the w lanes of its operands
// (hal/r300 PVSMathOps).
func mathOp(op uint8, a, b, c [4]float32) [4]float32 {
	x := float64(a[3])
	var y float32
	switch op {
	case r3.MEExpDX:
		f := math.Floor(x)
		return [4]float32{float32(math.Exp2(f)), float32(x - f), float32(math.Exp2(x)), 1}
	case r3.MELogDX:
		if x == 0 {
			inf := float32(math.Inf(-1))
			return [4]float32{inf, 1, inf, 1}
		}
		m, e := math.Frexp(math.Abs(x))
		return [4]float32{float32(e - 1), float32(2 * m), float32(math.Log2(math.Abs(x))), 1}
	case r3.MELit:
		ndh, ndl, e := a[3], b[3], c[3]
		e = max(-128, min(128, e))
		spec := float32(0)
		if ndl > 0 {
			spec = pow(max(ndh, 0), e)
		}
		return [4]float32{1, max(ndl, 0), spec, 1}
	case r3.MEExpE:
		y = float32(math.Exp(x))
	case r3.MEPow:
		y = pow(a[3], c[3])
	case r3.MERcpDX:
		y = float32(1 / x)
	case r3.MERcpFF:
		y = float32(1 / x)
		if x == 0 {
			y = float32(math.Copysign(math.MaxFloat32, x))
		}
	case r3.MERsqDX:
		y = float32(1 / math.Sqrt(math.Abs(x)))
	case r3.MERsqFF:
		y = float32(1 / math.Sqrt(math.Abs(x)))
		if x == 0 {
			y = math.MaxFloat32
		}
	case r3.MEMul:
		y = float32(x * float64(b[3]))
	case r3.MEEx2:
		y = float32(math.Exp2(x))
	case r3.MELg2:
		y = float32(math.Log2(math.Abs(x)))
	case r3.MESin:
		y = float32(math.Sin(x))
	case r3.MECos:
		y = float32(math.Cos(x))
	}
	return [4]float32{y, y, y, y}
}

// ShadeVertex runs the vertex program the registers and the vector memory
// hold for one vertex with the given input vectors and returns the output
// vectors (for tests and tools that look inside the chip). It checks the
// program as a draw would.
func (e *Engine) ShadeVertex(in [][4]float32) ([r3.PVSMaxOutputs][4]float32, error) {
	st, err := e.preparePVS()
	if err != nil {
		return [r3.PVSMaxOutputs][4]float32{}, err
	}
	var r pvsRegs
	copy(r.in[:], in)
	err = st.run(&r)
	return r.out, err
}
