package r300

import (
	"fmt"
	"strings"

	"github.com/retrogl/retrogl/compiler/ir"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// The vertex back end compiles a compiler/ir vertex program for the R3xx
// programmable vertex shader (PVS, hal/r300's pvs.go), from the same IR the
// fragment back end takes. Its passes, in order (VertexPasses):
//
//	ir.Program --optimize--> (compiler/ir's folding, copy propagation,
//	    dead code, in float32 as the PVS computes)
//	  --loops--> each loop's count computation copied out into a program
//	    the driver runs per draw (vloop.go)
//	  --select--> vinsts: PVS vector and math opcodes on virtual
//	    registers; literals reduced to the 0/1 swizzle selects where they
//	    can be, modifiers folded into literals, CMP/CND/SEQ/SNE/LRP/FLR
//	    expanded, saturation as MAX/MIN
//	  --consts--> constant registers: each uniform in its own, literals
//	    packed four to a register (negation reuses a magnitude)
//	  --conflicts--> a MOV to a temporary for every second input or
//	    constant register an instruction names (the vertex engine reads one
//	    of each per instruction, [OUT] Mesa r3xx_vertprog.c)
//	  --dce, outputs--> dead instructions removed; every listed output
//	    written
//	  --zeroinit--> zeros written first to temporary components read
//	    before any write (the IR's temporaries start at zero)
//	  --regalloc--> the 32 temporaries, values with disjoint components
//	    sharing one
//	  --emit--> instruction words laid out with the loops' stubs and
//	    subroutines, the code controls and the macro MAD for three
//	    different temporaries
//
// A program over the unit's limits (256 instructions, 32 temporaries, 256
// constants, 32 inputs or outputs) fails with a *VertexLimitError naming
// the limit.

// VertexLimitError reports a program that does not fit the PVS.
type VertexLimitError struct {
	// Limit names the resource: "instructions", "temporaries",
	// "constants", "inputs" or "outputs".
	Limit     string
	Need, Max int
}

// Error implements error.
func (e *VertexLimitError) Error() string {
	return fmt.Sprintf("r300: vertex program needs %d %s, the PVS has %d", e.Need, e.Limit, e.Max)
}

// VertexStats are a vertex program's statistics.
type VertexStats struct {
	Insts, Temps, Consts int
	// Movs counts the moves inserted for operand conflicts.
	Movs int
	// Loops counts PVS loops.
	Loops int
}

// VertexOptions tune CompileVertex.
type VertexOptions struct {
	// Outputs lists, in PVS output-register order, the IR output each
	// output register receives (its semantic name). The driver lists
	// them in the order VAP_OUT_VTX_FMT_0/1 enable them (position, point
	// size, colours, texture coordinates). An IR output not listed is not
	// written; a listed one the program never writes is written with
	// (0, 0, 0, 0).
	Outputs []string
	// NoOpt skips the optional passes.
	NoOpt bool
	// Dump, when set, receives the program after every pass.
	Dump func(pass, text string)
}

// VertexProgram is a compiled vertex program.
type VertexProgram struct {
	// Code holds the instructions, four dwords each, for PVS memory from
	// octword 0.
	Code [][4]uint32
	// PosValid is the last instruction writing the position (output 0)
	// and LastInput the last reading an input (VAP_PVS_CODE_CNTL_0/1).
	PosValid, LastInput int
	// Consts are the constant registers from 0.
	Consts []ConstSlot
	// Inputs are the IR inputs' semantic names: input i is PVS input
	// register i.
	Inputs []string
	// Outputs are the options' Outputs.
	Outputs []string
	// Loops are the program's loops (vloop.go): Flow gives the
	// flow-control registers for their counts.
	Loops []VertexLoop
	// endJump is the instruction whose JUMP skips the loop bodies (-1
	// without loops).
	endJump int
	Stats   VertexStats
}

// ConstValues resolves the constant registers with uniform values.
func (v *VertexProgram) ConstValues(uniforms map[string][4]float32) ([][4]float32, error) {
	p := Program{Consts: v.Consts}
	return p.ConstValues(uniforms)
}

// CodeCntl returns the VAP_PVS_CODE_CNTL_0 and _1 words for the program
// loaded at instruction 0 (L1967-1980).
func (v *VertexProgram) CodeCntl() (cntl0, cntl1 uint32) {
	last := uint32(len(v.Code) - 1)
	return uint32(v.PosValid)<<10 | last<<20, uint32(v.LastInput)
}

// Words returns the code as PVS memory dwords.
func (v *VertexProgram) Words() []uint32 {
	w := make([]uint32, 0, 4*len(v.Code))
	for _, in := range v.Code {
		w = append(w, in[:]...)
	}
	return w
}

// Disassemble prints the statistics, the inputs, outputs and constants and
// the instructions.
func (v *VertexProgram) Disassemble() []string {
	s := v.Stats
	out := []string{fmt.Sprintf("; vertex: insts=%d temps=%d consts=%d movs=%d loops=%d", s.Insts, s.Temps, s.Consts, s.Movs, s.Loops)}
	for i, n := range v.Inputs {
		out = append(out, fmt.Sprintf("; input v%d %s", i, n))
	}
	for i, n := range v.Outputs {
		out = append(out, fmt.Sprintf("; output o%d %s", i, n))
	}
	for i, k := range v.Consts {
		var parts []string
		for c := 0; c < 4; c++ {
			if k.Uniform[c] != "" {
				parts = append(parts, fmt.Sprintf("%s.%c", k.Uniform[c], "xyzw"[k.Comp[c]]))
			} else {
				parts = append(parts, fmt.Sprintf("%g", k.Value[c]))
			}
		}
		out = append(out, fmt.Sprintf("; c%d = (%s)", i, strings.Join(parts, ", ")))
	}
	note := map[int]string{}
	for i, l := range v.Loops {
		for j, s := range l.stubs {
			for k, r := range []string{"P", "A", "B"} {
				note[s[k]] = fmt.Sprintf("   ; loop %d stub %d %s", i, j, r)
			}
		}
		note[l.sub[0]] += fmt.Sprintf("   ; loop %d body", i)
		note[l.sub[1]] += fmt.Sprintf("   ; loop %d body end", i)
	}
	if v.endJump >= 0 && len(v.Loops) > 0 {
		note[v.endJump] = "   ; end: jumps past the loop bodies"
	}
	for i, w := range v.Code {
		out = append(out, fmt.Sprintf("; pvs %3d: %s%s", i, r3.DecodePVS(w), note[i]))
	}
	return out
}

// vpass is one row of the vertex pass table.
type vpass struct {
	name     string
	fn       func(c *vcomp) error
	required bool
}

// VertexPasses is the vertex back end's pipeline, in order.
var VertexPasses = []vpass{
	{"verify", (*vcomp).verify, true},
	{"optimize", (*vcomp).optimize, false},
	{"loops", (*vcomp).loops, true},
	{"select", (*vcomp).selectOps, true},
	{"consts", (*vcomp).consts, true},
	{"conflicts", (*vcomp).conflicts, true},
	{"dce", (*vcomp).dce, false},
	{"outputs", (*vcomp).fillOutputs, true},
	{"zeroinit", (*vcomp).zeroInit, true},
	{"regalloc", (*vcomp).regalloc, true},
	{"emit", (*vcomp).emit, true},
}

// CompileVertex compiles an IR vertex program.
func CompileVertex(p *ir.Program, opts VertexOptions) (*VertexProgram, error) {
	if p.Stage != ir.Vertex {
		return nil, fmt.Errorf("r300: compile vertex: %s program", p.Stage)
	}
	c := &vcomp{src: p, p: p.Clone(), opts: opts}
	for _, ps := range VertexPasses {
		if !ps.required && opts.NoOpt {
			continue
		}
		if err := ps.fn(c); err != nil {
			if _, ok := err.(*VertexLimitError); ok {
				return nil, err
			}
			return nil, fmt.Errorf("r300: vertex %s: %w", ps.name, err)
		}
		if opts.Dump != nil {
			opts.Dump(ps.name, c.dump())
		}
	}
	return c.out, nil
}
