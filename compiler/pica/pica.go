// Package pica compiles compiler/ir vertex programs for the PICA200's
// shader unit (the Nintendo 3DS GPU), the second vertex back end beside
// compiler/r300's PVS one. The instruction set, its encodings and the
// operand descriptors are hal/pica's (3dbrew "GPU/Shader Instruction
// Set"); the arithmetic is sim/pica's float24.
//
// Pipeline (each pass a function over the program; Options.Dump sees the
// program after each):
//
//	ir.Program --optimize--> compiler/ir's folding, copy propagation
//	    and dead code
//	  --loops--> each loop's count computation copied out into a program
//	    the driver runs per draw (ir.CountPrograms)
//	  --select--> shader-unit opcodes on virtual registers: literals and
//	    0/1 selects as constants, |x| as MAX(x, -x), SEQ/SNE/CMP/CND/LRP/
//	    FRC/POW as exact sequences, SIN/COS as range reduction and a
//	    polynomial, ARL as FLR then MOVA, saturation as MAX/MIN
//	  --dce--> instructions nothing reads removed (loop-aware)
//	  --outputs--> listed outputs the program never writes set to 0
//	  --zeroinit--> temporaries read before any write set to 0 first
//	  --consts--> the 96 float uniforms: each uniform its own register,
//	    literals packed (a relatively read program keeps the IR's
//	    constant indices)
//	  --legalize--> one constant register per instruction, in the one
//	    7-bit operand slot the format has (operands swapped, the
//	    SGEI/SLTI/DPHI/MADI forms chosen, other constants moved into
//	    temporaries)
//	  --regalloc--> the 16 temporaries, values with disjoint components
//	    sharing one
//	  --emit--> instruction words and operand descriptors (the MAD forms'
//	    5-bit descriptor index reaches the first 32), loops as LOOP on an
//	    integer uniform guarded by JMPU on a bool uniform, END
//
// A program over the unit's limits fails with a *LimitError naming the
// limit: 512 instructions, 128 operand descriptors (32 for MAD), 16
// temporaries, 96 float uniforms, 16 inputs, 16 outputs, 4 loops.
//
// Arithmetic. The unit rounds every operation to float24 (1.7.16) and has
// no -0, no subnormals, and inf·0 = 0 (sim/pica shader.go). The IR's
// semantics are float32 with one rounding per opcode; on the PICA200 each
// opcode's result is what its instruction sequence gives in float24, which
// TestOps checks opcode by opcode against a float24 model of the
// sequences and against the interpreter within float24 precision. Where
// the unit differs from the IR's documented special cases, the unit wins:
// MIN and MAX compare (max(a, b) = a > b ? a : b, so a NaN operand is not
// propagated symmetrically), RSQ of a negative value reads |x| as the IR
// does (the back end takes |x| first), out-of-range relative constant
// reads give (1, 1, 1, 1) outside c0-c95 and whatever the register holds
// inside, MOVA truncates a floored value to the signed 8-bit range, and
// SIN/COS are approximations (absolute error below 2^-13 for |x| <= π,
// 2^-10 for |x| <= 64, 2^-7 for |x| <= 1024: x/2π loses bits as |x|
// grows; TestSinCos).
package pica

import (
	"fmt"
	"strings"

	"github.com/retrogl/retrogl/compiler/ir"
	hp "github.com/retrogl/retrogl/hal/pica"
)

// The shader unit's limits.
const (
	MaxInsts   = 512 // code memory the driver uploads (guide §3)
	MaxDescs   = 128 // operand descriptors (7-bit index)
	MaxMADDesc = 32  // the MAD formats' 5-bit descriptor index
	MaxTemps   = 16
	MaxConsts  = 96
	MaxInputs  = 16
	MaxOutputs = 16
	MaxLoops   = 4 // integer uniforms i0-i3
	// MaxLoopIterations is the longest loop: LOOP runs i.x + 1 times,
	// i.x 8 bits.
	MaxLoopIterations = 256
)

// LimitError reports a program over one of the unit's limits.
type LimitError struct {
	Limit     string
	Need, Max int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("pica: vertex program needs %d %s, the PICA200 shader unit has %d", e.Need, e.Limit, e.Max)
}

// Options tune Compile.
type Options struct {
	// Outputs lists, in output-register order (o0, o1, ...), the IR
	// output each register receives. An IR output not listed is not
	// written; a listed one the program never writes gets (0, 0, 0, 0).
	// Empty: the IR's outputs in their order.
	Outputs []string
	// InputRegs gives, per IR input, the input register (v0-v15) it is
	// read from; inputs past its end read v<index>.
	InputRegs []int
	// NoOpt skips the optional passes.
	NoOpt bool
	// Dump, when set, receives the program after every pass.
	Dump func(pass, text string)
}

// ConstSlot is one float uniform register: per component a uniform's
// component or a literal value.
type ConstSlot struct {
	Uniform [4]string
	Comp    [4]int
	Value   [4]float32
}

// Loop is one loop of a compiled program: its count program (output 0,
// x) and the integer and bool uniforms the driver sets from the count.
type Loop struct {
	Count *ir.Program
	Int   int // LOOP's integer uniform i<Int>
	Bool  int // the bool uniform b<Bool>: false skips the loop
}

// Stats are a program's statistics.
type Stats struct {
	Insts, Descs, Temps, Consts int
	// Movs counts the moves inserted for operand constraints.
	Movs  int
	Loops int
}

// Program is a compiled vertex program.
type Program struct {
	// Code holds the instruction words from address 0; the entry point
	// is 0 and the program ends with END.
	Code []uint32
	// Descs holds the operand descriptors.
	Descs []uint32
	// Consts gives float uniform registers c0, c1, ...
	Consts []ConstSlot
	// Inputs names, per input register v0, v1, ..., the IR input read
	// from it ("" for none).
	Inputs []string
	// Outputs names the IR output each output register o<k> receives.
	Outputs []string
	Loops   []Loop
	Stats   Stats
}

// ConstValues resolves the float uniform registers with uniform values.
func (p *Program) ConstValues(uniforms map[string][4]float32) ([][4]float32, error) {
	out := make([][4]float32, len(p.Consts))
	for i, k := range p.Consts {
		for c := 0; c < 4; c++ {
			if k.Uniform[c] == "" {
				out[i][c] = k.Value[c]
				continue
			}
			u, ok := uniforms[k.Uniform[c]]
			if !ok {
				return nil, fmt.Errorf("pica: no value for uniform %q", k.Uniform[c])
			}
			out[i][c] = u[k.Comp[c]]
		}
	}
	return out, nil
}

// LoopUniforms runs the loops' count programs with the uniforms' values
// and returns the integer uniforms i0-i3 (x = count - 1, y = 0 the first
// aL, z = 1 its step) and the bool uniforms (bit b set: loop b runs). A
// count over MaxLoopIterations is an error.
func (p *Program) LoopUniforms(uniforms map[string][4]float32) (ints [4][4]uint8, bools uint16, err error) {
	for i, l := range p.Loops {
		n, err := ir.LoopCount(l.Count, uniforms, MaxLoopIterations)
		if err != nil {
			return ints, 0, fmt.Errorf("pica: loop %d count: %w", i, err)
		}
		if n > MaxLoopIterations {
			return ints, 0, fmt.Errorf("pica: a loop of more than %d iterations", MaxLoopIterations)
		}
		if n > 0 {
			ints[l.Int] = [4]uint8{uint8(n - 1), 0, 1, 0}
			bools |= 1 << l.Bool
		}
	}
	return ints, bools, nil
}

// Disassemble prints the statistics, inputs, outputs, constants and the
// instructions in picasso syntax.
func (p *Program) Disassemble() []string {
	s := p.Stats
	out := []string{fmt.Sprintf("; vertex: insts=%d descs=%d temps=%d consts=%d movs=%d loops=%d", s.Insts, s.Descs, s.Temps, s.Consts, s.Movs, s.Loops)}
	for i, n := range p.Inputs {
		if n != "" {
			out = append(out, fmt.Sprintf("; input v%d %s", i, n))
		}
	}
	for i, n := range p.Outputs {
		out = append(out, fmt.Sprintf("; output o%d %s", i, n))
	}
	for i, k := range p.Consts {
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
	for i, l := range p.Loops {
		out = append(out, fmt.Sprintf("; loop %d: count in i%d.x + 1, runs when b%d", i, l.Int, l.Bool))
	}
	for i, w := range p.Code {
		out = append(out, fmt.Sprintf("; %3d: %s", i, hp.Disasm(w, p.Descs)))
	}
	return out
}

// pass is one row of the pass table.
type pass struct {
	name     string
	fn       func(c *comp) error
	required bool
}

// Passes is the back end's pipeline, in order.
var Passes = []pass{
	{"verify", (*comp).verify, true},
	{"optimize", (*comp).optimize, false},
	{"loops", (*comp).loops, true},
	{"select", (*comp).selectOps, true},
	{"dce", (*comp).dce, false},
	{"outputs", (*comp).fillOutputs, true},
	{"zeroinit", (*comp).zeroInit, true},
	{"consts", (*comp).consts, true},
	{"legalize", (*comp).legalize, true},
	{"regalloc", (*comp).regalloc, true},
	{"emit", (*comp).emit, true},
}

// Compile compiles an IR vertex program for the shader unit.
func Compile(p *ir.Program, opts Options) (*Program, error) {
	if p.Stage != ir.Vertex {
		return nil, fmt.Errorf("pica: compile: %s program (the shader unit runs vertex programs)", p.Stage)
	}
	if len(opts.Outputs) == 0 {
		for _, o := range p.Outputs {
			opts.Outputs = append(opts.Outputs, o.Name)
		}
	}
	c := &comp{p: p.Clone(), opts: opts}
	for _, ps := range Passes {
		if !ps.required && opts.NoOpt {
			continue
		}
		if err := ps.fn(c); err != nil {
			if _, ok := err.(*LimitError); ok {
				return nil, err
			}
			return nil, fmt.Errorf("pica: %s: %w", ps.name, err)
		}
		if opts.Dump != nil {
			opts.Dump(ps.name, c.String())
		}
	}
	return c.out, nil
}
