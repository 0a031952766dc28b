package r300

import (
	"math"
	mbits "math/bits"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// The PVS over a batch of vertices. Flow control on the R300 does not
// depend on data (JUMP, LOOP and JSR act after fixed instructions, the
// loop counts come from the registers, and no instruction is predicated),
// so every vertex of a draw runs the same sequence of instructions, each
// on its own registers. runBatch walks that sequence once for a batch of
// vertices and executes each instruction over the whole batch: the
// decoding, the flow control and the opcode dispatch are paid once per
// instruction, not once per vertex. The arithmetic is exec's, operand for
// operand, so every register of every vertex ends as run leaves it (the
// randomized TestPVSBatchMatchesRun compares them); run stays the
// reference, and Engine.reference selects it for draws.

// pvsBatchSize is the number of vertices runBatch shades at once.
const pvsBatchSize = 32

// batchable reports whether execBatch has a loop of its own for the
// instruction: a vector-engine arithmetic opcode whose operands and
// destination use absolute addresses. Others run exec vertex by vertex.
func (o *pvsOp) batchable() bool {
	if o.math || o.dstMode != r3.PVSAddrAbsolute || (o.dstFile != r3.PVSDstTemp && o.dstFile != r3.PVSDstOut) {
		return false
	}
	switch o.op {
	case r3.VEDot4, r3.VEMul, r3.VEAdd, r3.VEMad, r3.VEM2xAdd, r3.VEMax, r3.VEMin:
	default:
		return false
	}
	for k := 0; k < 3; k++ {
		if o.srcs>>k&1 != 0 && o.src[k].mode != r3.PVSAddrAbsolute {
			return false
		}
	}
	return true
}

// pvsZero is what an operand outside its register file reads.
var pvsZero [4]float32

// vecOf is the register an absolute operand names in r (read's address
// rules), pvsZero outside its file.
func (st *pvsState) vecOf(o *pvsOperand, r *pvsRegs) *[4]float32 {
	addr := o.off
	switch o.file {
	case r3.PVSSrcTemp:
		if addr >= 0 && addr < r3.PVSMaxTemps {
			return &r.temp[addr]
		}
	case r3.PVSSrcInput:
		if addr >= 0 && addr < r3.PVSMaxInputs {
			return &r.in[addr]
		}
	case r3.PVSSrcConst:
		if addr >= 0 && addr <= st.maxC {
			return &st.consts[addr%r3.PVSMaxConsts]
		}
	}
	return &pvsZero
}

// readAbs is read for an absolute operand.
func (st *pvsState) readAbs(o *pvsOperand, r *pvsRegs) [4]float32 {
	v := st.vecOf(o, r)
	if o.plain {
		return *v
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

// batchOperand gathers operand o of every vertex of rs into vals and
// returns the mask execBatch indexes vals with: 0 when the operand reads
// the same value for every vertex (a constant, an address outside its
// file, or a swizzle of 0s and 1s only), read once into vals[0]; -1 when
// it is read per vertex into vals[i] (the reads readAbs makes).
func (st *pvsState) batchOperand(o *pvsOperand, rs []pvsRegs, vals *[pvsBatchSize][4]float32) int {
	if o.uniform() {
		vals[0] = st.readAbs(o, &rs[0])
		return 0
	}
	addr := o.off & 31 // uniform covers the addresses outside the file
	switch {
	case !o.plain:
		for i := range rs {
			vals[i] = st.readAbs(o, &rs[i])
		}
	case o.file == r3.PVSSrcTemp:
		for i := range rs {
			vals[i] = rs[i].temp[addr]
		}
	default: // an input: uniform covers the other files
		for i := range rs {
			vals[i] = rs[i].in[addr]
		}
	}
	return -1
}

// uniform reports whether an absolute operand reads the same value for
// every vertex: a constant, a register outside its file (pvsZero), or a
// swizzle that selects only 0 and 1.
func (o *pvsOperand) uniform() bool {
	switch o.file {
	case r3.PVSSrcTemp:
		if o.off < 0 || o.off >= r3.PVSMaxTemps {
			return true
		}
	case r3.PVSSrcInput:
		if o.off < 0 || o.off >= r3.PVSMaxInputs {
			return true
		}
	default:
		return true
	}
	for _, z := range o.swz {
		if z < 4 {
			return false
		}
	}
	return true
}

// execBatch executes instruction pc for every vertex of rs: the operands
// of every vertex are gathered first (each vertex reads only its own
// registers, so reading them all before any write changes nothing), then
// one loop per opcode computes exec's arithmetic and writes the results.
func (st *pvsState) execBatch(pc int, rs []pvsRegs) {
	o := &st.ops[pc]
	if !o.fast || len(rs) > pvsBatchSize {
		for i := range rs {
			st.exec(pc, &rs[i])
		}
		return
	}
	addr := o.dstOff
	var lim int
	if o.dstFile == r3.PVSDstTemp {
		lim = r3.PVSMaxTemps
	} else {
		lim = r3.PVSMaxOutputs
	}
	if addr < 0 || addr >= lim {
		return // exec drops the write
	}
	av, bv, cv, res := &st.scratch[0], &st.scratch[1], &st.scratch[2], &st.scratch[3]
	var ma, mb, mc int
	if o.srcs&1 != 0 {
		ma = st.batchOperand(&o.src[0], rs, av)
	}
	if o.srcs&2 != 0 {
		mb = st.batchOperand(&o.src[1], rs, bv)
	}
	if o.srcs&4 != 0 {
		mc = st.batchOperand(&o.src[2], rs, cv)
	}
	n := len(rs)
	switch o.op {
	case r3.VEDot4:
		for i := 0; i < n; i++ {
			a, b := &av[i&ma], &bv[i&mb]
			s := float64(a[0]) * float64(b[0])
			s += float64(a[1]) * float64(b[1])
			s += float64(a[2]) * float64(b[2])
			s += float64(a[3]) * float64(b[3])
			x := float32(s)
			res[i] = [4]float32{x, x, x, x}
		}
	case r3.VEMul:
		for i := 0; i < n; i++ {
			a, b, r := &av[i&ma], &bv[i&mb], &res[i]
			for k := range r {
				r[k] = float32(float64(a[k]) * float64(b[k]))
			}
		}
	case r3.VEAdd:
		for i := 0; i < n; i++ {
			a, b, r := &av[i&ma], &bv[i&mb], &res[i]
			for k := range r {
				r[k] = float32(float64(a[k]) + float64(b[k]))
			}
		}
	case r3.VEMad:
		for i := 0; i < n; i++ {
			a, b, c, r := &av[i&ma], &bv[i&mb], &cv[i&mc], &res[i]
			for k := range r {
				r[k] = float32(float64(a[k])*float64(b[k]) + float64(c[k]))
			}
		}
	case r3.VEM2xAdd:
		for i := 0; i < n; i++ {
			a, b, c, r := &av[i&ma], &bv[i&mb], &cv[i&mc], &res[i]
			for k := range r {
				r[k] = float32(2*(float64(a[k])*float64(b[k])) + float64(c[k]))
			}
		}
	case r3.VEMax:
		for i := 0; i < n; i++ {
			a, b, r := &av[i&ma], &bv[i&mb], &res[i]
			for k := range r {
				r[k] = max32(a[k], b[k])
			}
		}
	case r3.VEMin:
		for i := 0; i < n; i++ {
			a, b, r := &av[i&ma], &bv[i&mb], &res[i]
			for k := range r {
				r[k] = min32(a[k], b[k])
			}
		}
	}
	// Both files hold 32 vectors (checked above): the mask lets the
	// compiler drop the per-vertex bounds checks.
	addr &= r3.PVSMaxTemps - 1
	out := o.dstFile == r3.PVSDstOut
	switch o.we {
	case 15:
		for i := 0; i < n; i++ {
			if out {
				rs[i].out[addr] = res[i]
			} else {
				rs[i].temp[addr] = res[i]
			}
		}
	case 1, 2, 4, 8:
		k := mbits.TrailingZeros8(o.we) & 3
		for i := 0; i < n; i++ {
			if out {
				rs[i].out[addr][k] = res[i][k]
			} else {
				rs[i].temp[addr][k] = res[i][k]
			}
		}
	default:
		for i := 0; i < n; i++ {
			dst := &rs[i].temp[addr]
			if out {
				dst = &rs[i].out[addr]
			}
			for k := 0; k < 4; k++ {
				if o.we>>k&1 != 0 {
					dst[k] = res[i][k]
				}
			}
		}
	}
}

// max32 is float32(math.Max(float64(a), float64(b))), exec's VE_MAX, in
// a form the compiler inlines: ordered, unequal operands are compared
// here (the result is one of them, which the float64 round trip leaves
// as it is); equal ones, zeros and NaNs go to maxEq (TestMax32Min32).
func max32(a, b float32) float32 {
	if a > b {
		return a
	}
	if b > a {
		return b
	}
	return maxEq(a, b)
}

// maxEq is max32 for operands that are equal, zeros or NaNs (kept out of
// line so that max32 inlines).
//
//go:noinline
func maxEq(a, b float32) float32 {
	if a == b {
		if math.Float32bits(a) == math.Float32bits(b) {
			return a
		}
		return 0 // +0 and -0
	}
	return float32(math.Max(float64(a), float64(b)))
}

// min32 is float32(math.Min(float64(a), float64(b))) as max32 is VE_MAX.
func min32(a, b float32) float32 {
	if a < b {
		return a
	}
	if b < a {
		return b
	}
	return minEq(a, b)
}

// minEq is min32 for operands that are equal, zeros or NaNs.
//
//go:noinline
func minEq(a, b float32) float32 {
	if a == b {
		if math.Float32bits(a) == math.Float32bits(b) {
			return a
		}
		return float32(math.Copysign(0, -1)) // +0 and -0
	}
	return float32(math.Min(float64(a), float64(b)))
}

// runBatch is run for every vertex of rs (see the top of this file).
func (st *pvsState) runBatch(rs []pvsRegs) error {
	var frames [2]pvsFrame
	nf := 0
	n := 0
	for pc := st.first; pc <= st.last; {
		if n++; n > pvsVertexBudget {
			return faultf("PVS: a vertex ran more than %d instructions (flow control that never ends?)", pvsVertexBudget)
		}
		st.execBatch(pc, rs)
		next := pc + 1
		handled := false
		if nf > 0 && frames[nf-1].last == pc {
			f := &frames[nf-1]
			if f.loop {
				f.remaining--
				if f.remaining > 0 {
					for i := range rs {
						rs[i].aL += f.step
					}
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
				for i := range rs {
					rs[i].aL = int32(f.Init)
				}
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
	st.steps += n * len(rs)
	return nil
}
