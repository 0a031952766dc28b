// Package r300 is the R3xx fragment-program back end: it compiles a
// compiler/ir fragment program into US microcode (hal/r300) for the
// simulated or real R300.
//
// The pipeline is a table of passes (Passes), run in order; each names
// itself in every error. Machine-independent passes come from compiler/ir
// (constant folding, copy propagation, dead code); the rest work on the
// back end's own forms:
//
//	ir.Program --lower--> vinst (native R300 opcodes, virtual registers,
//	    per-channel swizzles, pre-subtract, output modifier, clamp)
//	  --presub, omod, fold, dce--> optimised vinst
//	  --legalize--> hops (one RGB or alpha half-instruction each, with the
//	    native operand selects of L1571-1646 / L1481-1536)
//	  --schedule--> levels (texture indirections) and paired ALU
//	    instructions with operand slots assigned
//	  --regalloc--> physical temps (interpolants pre-coloured)
//	  --emit--> register values
//
// A program that does not fit the unit fails with a *LimitError naming the
// limit (64 ALU, 32 TEX, 4 levels, 32 temps, 32 constants); nothing is
// ever silently dropped or replaced.
package r300

import (
	"errors"
	"fmt"
	"strings"

	"github.com/retrogl/retrogl/compiler/ir"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// LimitError reports a program that does not fit the fragment unit.
type LimitError struct {
	// Limit names the resource: "ALU instructions", "TEX instructions",
	// "texture indirection levels", "temporaries" or "constants".
	Limit     string
	Need, Max int
}

// Error implements error.
func (e *LimitError) Error() string {
	return fmt.Sprintf("r300: program needs %d %s, the fragment unit has %d", e.Need, e.Limit, e.Max)
}

// Stats are the per-program statistics cmd/r300fp prints.
type Stats struct {
	ALU, TEX, Temps, Levels, Consts int
	// Presub and Omod count instructions using a pre-subtract or an
	// output modifier folded in by the optimiser.
	Presub, Omod int
}

// ConstSlot is one constant register of the compiled program: per
// component a literal value, or (when Uniform is set) component Comp of
// that uniform's value.
type ConstSlot struct {
	Value   [4]float32
	Uniform [4]string
	Comp    [4]int
}

// Program is a compiled fragment program: the US register values and what
// the driver needs to feed it.
type Program struct {
	Config, PixSize, CodeOffset uint32
	CodeAddr                    [4]uint32
	Tex                         []uint32
	// ALU holds per instruction RGB_ADDR, ALPHA_ADDR, RGB_INST, ALPHA_INST.
	ALU    [][4]uint32
	Consts []ConstSlot
	// InputTemp maps each IR input to the temp the RS must load it into
	// (-1 when the program does not read it).
	InputTemp []int
	// Inputs are the IR inputs' semantic names.
	Inputs []string
	// Targets is the mask of colour targets (bit n = target n) written;
	// Depth is set when the program writes the depth output (FG_DEPTH_SRC
	// and US_W_FMT must select the shader).
	Targets uint8
	Depth   bool
	// Units is the mask of texture units sampled.
	Units uint16
	Stats Stats
}

// Options tune Compile.
type Options struct {
	// NoOpt skips every optional pass (the required ones still run).
	NoOpt bool
	// Skip names optional passes to skip.
	Skip []string
	// Dump, when set, receives the program after every pass.
	Dump func(pass string, text string)
}

// pass is one row of the pass table.
type pass struct {
	name     string
	fn       func(c *compilation) error
	required bool
}

// Passes is the pass pipeline, in order; Order lists the constraints the
// order must meet, checked by TestPassOrder.
var Passes = []pass{
	{"verify", (*compilation).verify, true},
	{"constfold", (*compilation).constFold, false},
	{"copyprop", (*compilation).copyProp, false},
	{"deadcode", (*compilation).deadCode, false},
	{"lower", (*compilation).lower, true},
	{"cse", (*compilation).cse, false},
	{"select", (*compilation).selects, false},
	{"presub", (*compilation).presub, false},
	{"omod", (*compilation).omod, false},
	{"fold", (*compilation).fold, false},
	{"dce", (*compilation).dce, false},
	{"transw", (*compilation).transW, false},
	{"legalize", (*compilation).legalize, true},
	{"schedule", (*compilation).schedule, true},
	{"regalloc", (*compilation).regalloc, true},
	{"emit", (*compilation).emit, true},
}

// Order lists "a before b, because" constraints on Passes.
var Order = []struct{ Before, After, Why string }{
	{"verify", "constfold", "passes assume a well-formed program"},
	{"deadcode", "lower", "lowering expands what is left; dead code would cost registers"},
	{"lower", "cse", "the expansions' repeated steps are found on native operations"},
	{"cse", "select", "shared conditions make more selections match"},
	{"lower", "select", "selections are simplified on native CMP and CND"},
	{"select", "presub", "a pre-subtract would hide a comparison's condition"},
	{"lower", "presub", "pre-subtract folding matches native MAD forms"},
	{"presub", "omod", "an output modifier folds into the final producer after pre-subtracts are settled"},
	{"omod", "fold", "a clamped copy folds into a producer that already has its output modifier"},
	{"fold", "dce", "folding leaves dead copies"},
	{"dce", "legalize", "legalisation splits instructions by their final swizzles"},
	{"presub", "transw", "pre-subtract sources read registers in place and must stay put"},
	{"transw", "legalize", "legalisation chooses the units by the final components"},
	{"legalize", "schedule", "the scheduler pairs legal half-instructions"},
	{"schedule", "regalloc", "live ranges follow the final instruction order"},
	{"regalloc", "emit", "emission needs physical registers"},
}

// compilation is one program in flight.
type compilation struct {
	src  *ir.Program
	p    *ir.Program
	opts Options

	insts  []vinst
	nvreg  int
	hops   []*hop
	levels []*level
	// phys maps vreg → temp after regalloc.
	phys      []int
	inputTemp []int
	consts    *constTable
	// movable marks temps the scheduler may move between units
	// (hopsFit); readers lists per temp the ALU hops reading it (flip).
	movable  map[vref]bool
	readers  map[vref][]*hop
	highTemp int
	out      *Program
}

// Compile compiles an IR fragment program.
func Compile(p *ir.Program, opts Options) (*Program, error) {
	if p.Stage != ir.Fragment {
		return nil, fmt.Errorf("r300: compile: %s program, want fragment", p.Stage)
	}
	prog, err := compile(p, opts)
	if errors.Is(err, errSlots) {
		// A pre-subtract's sources and its consumer's other operands
		// outran the source slots (legalize predicted otherwise): compile
		// without pre-subtracts.
		opts.Skip = append(opts.Skip[:len(opts.Skip):len(opts.Skip)], "presub")
		prog, err = compile(p, opts)
	}
	return prog, err
}

// errSlots reports a half-instruction whose operands need more source
// slots than an instruction has.
var errSlots = errors.New("operands do not fit one instruction's source slots")

func compile(p *ir.Program, opts Options) (*Program, error) {
	c := &compilation{src: p, p: p.Clone(), opts: opts}
	skip := map[string]bool{}
	for _, s := range opts.Skip {
		skip[s] = true
	}
	for _, ps := range Passes {
		if !ps.required && (opts.NoOpt || skip[ps.name]) {
			continue
		}
		if err := ps.fn(c); err != nil {
			if _, ok := err.(*LimitError); ok {
				return nil, err
			}
			return nil, fmt.Errorf("r300: pass %s: %w", ps.name, err)
		}
		if opts.Dump != nil {
			opts.Dump(ps.name, c.String())
		}
	}
	return c.out, nil
}

// String prints the program in its current form.
func (c *compilation) String() string {
	switch {
	case c.out != nil:
		return strings.Join(c.out.Disassemble(), "\n") + "\n"
	case c.levels != nil:
		return c.scheduleString()
	case c.hops != nil:
		var b strings.Builder
		for _, h := range c.hops {
			b.WriteString(h.String() + "\n")
		}
		return b.String()
	case c.insts != nil:
		var b strings.Builder
		for i := range c.insts {
			if !c.insts[i].dead {
				b.WriteString(c.insts[i].String() + "\n")
			}
		}
		return b.String()
	}
	return c.p.String()
}

func (c *compilation) verify() error { return c.p.Verify() }

func (c *compilation) constFold() error {
	ir.ConstFold(c.p, r3.RoundFP24)
	return nil
}

func (c *compilation) copyProp() error {
	ir.CopyProp(c.p)
	return nil
}

func (c *compilation) deadCode() error {
	ir.DeadCode(c.p)
	return nil
}

// Words returns the program as (register address, value) writes, in the
// order a driver emits them: configuration, code addresses, TEX and ALU
// instructions (constants are the caller's, since uniforms change).
func (p *Program) Words() [][2]uint32 {
	var w [][2]uint32
	add := func(a, v uint32) { w = append(w, [2]uint32{a, v}) }
	add(r3.US_CONFIG, p.Config)
	add(r3.US_PIXSIZE, p.PixSize)
	add(r3.US_CODE_OFFSET, p.CodeOffset)
	for i, v := range p.CodeAddr {
		add(r3.US_CODE_ADDR_0+4*uint32(i), v)
	}
	for i, v := range p.Tex {
		add(r3.US_TEX_INST_0+4*uint32(i), v)
	}
	for i, a := range p.ALU {
		o := 4 * uint32(i)
		add(r3.US_ALU_RGB_ADDR_0+o, a[0])
		add(r3.US_ALU_ALPHA_ADDR_0+o, a[1])
		add(r3.US_ALU_RGB_INST_0+o, a[2])
		add(r3.US_ALU_ALPHA_INST_0+o, a[3])
	}
	return w
}

// ConstValues resolves the constant slots with uniform values.
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
				return nil, fmt.Errorf("r300: no value for uniform %q", k.Uniform[c])
			}
			out[i][c] = u[k.Comp[c]]
		}
	}
	return out, nil
}

// Hal returns the program as hal/r300's register image (for the
// disassembler and the simulator's tests).
func (p *Program) Hal() r3.Program {
	var h r3.Program
	h.Config, h.PixSize, h.CodeOffset, h.CodeAddr = p.Config, p.PixSize, p.CodeOffset, p.CodeAddr
	copy(h.Tex[:], p.Tex)
	for i, a := range p.ALU {
		h.RGBAddr[i], h.AlphaAddr[i], h.RGBInst[i], h.AlphaInst[i] = a[0], a[1], a[2], a[3]
	}
	for i, k := range p.Consts {
		for c := 0; c < 4; c++ {
			h.Const[i][c] = r3.EncodeFP24(k.Value[c])
		}
	}
	for t := range h.OutFmt {
		h.OutFmt[t] = 15
		if p.Targets>>t&1 != 0 {
			h.OutFmt[t] = 0x1B00
		}
	}
	if p.Depth {
		h.WFmt = 1
	}
	return h
}

// Disassemble prints the statistics and the program.
func (p *Program) Disassemble() []string {
	s := p.Stats
	out := []string{fmt.Sprintf("; alu=%d tex=%d temps=%d levels=%d consts=%d presub=%d omod=%d",
		s.ALU, s.TEX, s.Temps, s.Levels, s.Consts, s.Presub, s.Omod)}
	for i, t := range p.InputTemp {
		if t >= 0 {
			out = append(out, fmt.Sprintf("; input v%d %s -> r%d", i, p.Inputs[i], t))
		}
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
	h := p.Hal()
	for _, l := range h.Disassemble()[1:] {
		if strings.HasPrefix(l, ";   c") || strings.HasPrefix(l, "; US_OUT_FMT") {
			continue
		}
		out = append(out, l)
	}
	return out
}
