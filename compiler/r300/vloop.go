package r300

import (
	"fmt"

	"github.com/retrogl/retrogl/compiler/ir"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// IR loops (bgnloop/endloop, compiler/lower's hwloop.go) run on the PVS's
// flow control (L1988-2027). A loop's count is a flow-control register,
// not an operand: the back end takes the instructions that compute the
// count (from uniforms and constants only) out into a small IR program,
// VertexLoop.Count, which the driver runs before each draw; VertexProgram
// .Flow turns the counts into the flow-control registers.
//
// An R300 loop repeats at most 255 times (PVS_FC_LOOP_CNT_JMP_INST is 8
// bits) and does not nest (R300_VS_MAX_LOOP_DEPTH 1), so a loop body
// becomes a subroutine after the main code, called from two loop stubs
// one after the other, each of three instructions that do nothing:
//
//	P   the instruction the stub's LOOP (or JUMP) acts after
//	A   the loop's first instruction; its JSR calls the body
//	B   the loop's last, where the body returns
//
// A stub whose count is 0 is a JUMP from P past B (L1992). Counts up to
// 2·255 run; more is an error the driver reports. The main code ends with
// one more instruction, E, whose JUMP skips the subroutines. Each loop
// takes four flow-control slots (LOOP or JUMP and JSR per stub), the end
// one more: three loops fit the sixteen slots.

// maxVertexLoops is the most loops a program has.
const maxVertexLoops = 3

// MaxLoopIterations is the longest loop the PVS runs: two stubs of 255.
const MaxLoopIterations = 2 * 255

// VertexLoop is one loop of a compiled vertex program.
type VertexLoop struct {
	// Count computes the iteration count from the uniforms: its output 0
	// holds it in x, truncated towards zero as bgnloop reads it.
	Count *ir.Program
	// stubs holds per stub the instruction indices of P, A and B; sub
	// the first and last instruction of the body.
	stubs [2][3]int
	sub   [2]int
}

// LoopCounts runs the count programs with the uniforms' values.
func (v *VertexProgram) LoopCounts(uniforms map[string][4]float32) ([]int, error) {
	var n []int
	for i, l := range v.Loops {
		k, err := ir.LoopCount(l.Count, uniforms, MaxLoopIterations)
		if err != nil {
			return nil, fmt.Errorf("r300: loop %d count: %w", i, err)
		}
		n = append(n, k)
	}
	return n, nil
}

// Flow returns the flow-control registers for loop counts:
// VAP_PVS_FLOW_CNTL_OPC and the sixteen ADDRS and LOOP_INDEX words.
func (v *VertexProgram) Flow(counts []int) (opc uint32, addrs, index [r3.PVSMaxFlow]uint32, err error) {
	slot := 0
	add := func(f r3.PVSFlow) {
		opc |= uint32(f.Op) << (2 * uint(slot))
		addrs[slot], index[slot] = f.Addrs(), f.LoopIndex()
		slot++
	}
	for i, l := range v.Loops {
		n := 0
		if i < len(counts) {
			n = counts[i]
		}
		if n > MaxLoopIterations {
			return 0, addrs, index, fmt.Errorf("r300: a loop of %d iterations, more than the %d the PVS runs (two loops of 255)", n, MaxLoopIterations)
		}
		for j, s := range l.stubs {
			c := min(n, 255)
			n -= c
			if c == 0 {
				add(r3.PVSFlow{Op: r3.PVSFlowJump, Act: uint8(s[0]), TargetOrCnt: uint8(s[2] + 1)})
			} else {
				add(r3.PVSFlow{Op: r3.PVSFlowLoop, Act: uint8(s[0]), TargetOrCnt: uint8(c), Rtn: uint8(s[1]), Last: uint8(s[2]), Init: 0, Step: 1})
			}
			add(r3.PVSFlow{Op: r3.PVSFlowJSR, Act: uint8(s[1]), TargetOrCnt: uint8(l.sub[0]), Last: uint8(l.sub[1]), Rtn: uint8(s[2])})
			_ = j
		}
	}
	if v.endJump >= 0 {
		add(r3.PVSFlow{Op: r3.PVSFlowJump, Act: uint8(v.endJump), TargetOrCnt: uint8(len(v.Code))})
	}
	return opc, addrs, index, nil
}

// loops takes the count computations out into programs (the "loops"
// pass, ir.CountPrograms).
func (c *vcomp) loops() error {
	counts, err := ir.CountPrograms(c.p)
	if err != nil {
		return err
	}
	for _, cp := range counts {
		c.vloops = append(c.vloops, VertexLoop{Count: cp})
	}
	return nil
}

// loopSpans returns, per marker index of c.insts, the matching one.
func (c *vcomp) loopSpans() map[int]int {
	m := map[int]int{}
	var open []int
	for i, in := range c.insts {
		switch in.flow {
		case flowBegin:
			open = append(open, i)
		case flowEnd:
			b := open[len(open)-1]
			open = open[:len(open)-1]
			m[b], m[i] = i, b
		}
	}
	return m
}
