// Package ir is retrogl's shader IR: a small vector IR in the style of
// ARB_fragment_program and TGSI, the target of the GLSL ES 1.00 front end
// (compiler/glsl) and the input of the back ends (compiler/r300 for R3xx
// fragment programs; the CPU runs vertex programs with Run).
//
// # Model
//
// A Program is a straight-line list of instructions over four register
// files of vec4 registers: temporaries r0..rN, inputs v0..vN (varyings or
// interpolants of a fragment program, attributes of a vertex program),
// constants c0..cN (literals, or uniforms whose value comes at run time) and
// outputs o0..oN. Inputs and outputs carry a semantic name ("color0",
// "tex3", "color", "depth", "position", "psize", ...) that the back end
// maps to hardware. There is no control flow: front ends unroll loops and
// turn branches into CMP/CND selects.
//
// An instruction writes one destination register through a write mask and
// reads up to three sources, each with a swizzle (x, y, z, w, 0 or 1 per
// component) and the modifiers Abs and Neg (applied in that order: -|x|).
// Sat clamps the result to [0, 1] before it is written.
//
// Each opcode's facts live in one table (Ops): its name, source count, how
// it reads its sources (component-wise, as a dot product, as a scalar in
// the first swizzled component, or as texture coordinates) and its exact
// semantics, including special values. Passes ask the table; they never
// list opcodes.
//
// # Numbers
//
// Run evaluates every operation in float64 and rounds each component of
// each result once with a caller-supplied function: float32 rounding for
// CPU vertex programs, RoundFP24 from hal/r300 to match the R3xx fragment
// unit bit for bit. Fused operations (MAD, the dot products, LRP's final
// step) round once. See Env.
//
// # Text form
//
// One text form serves the printer (Program.String), the parser (Parse) and
// the tests:
//
//	fragment
//	in v0 color0
//	in v1 tex0
//	out o0 color
//	const c0 0.5 0.25 0 1
//	uniform c1 u_tint
//	tex r0, v1, s0
//	mul r1.xyz, r0, v0
//	mad_sat o0.xyz, r1, c1, c0.x
//	mov o0.w, c0.w
//
// Comments start with '#' or ';'. A swizzle of one letter replicates it;
// two or three letters repeat the last. The printer omits identity swizzles
// and full masks.
package ir

import "fmt"

// Stage is the pipeline stage a program runs in.
type Stage uint8

// The stages.
const (
	Fragment Stage = iota
	Vertex
)

// String returns "fragment" or "vertex".
func (s Stage) String() string {
	if s == Vertex {
		return "vertex"
	}
	return "fragment"
}

// File is a register file.
type File uint8

// The register files.
const (
	None   File = iota
	Temp        // r: read-write temporaries
	Input       // v: read-only inputs
	Const       // c: read-only constants
	Output      // o: write-only outputs
	Addr        // a: the address register a0 (ARL writes it; relative constants read it)
)

var filePrefix = [...]string{None: "_", Temp: "r", Input: "v", Const: "c", Output: "o", Addr: "a"}

// Reg names a register.
type Reg struct {
	File  File
	Index int
}

// String returns "r3", "v0", "c2", "o1".
func (r Reg) String() string {
	if int(r.File) >= len(filePrefix) {
		return fmt.Sprintf("?%d", r.Index)
	}
	if r.File == None {
		return "_"
	}
	return fmt.Sprintf("%s%d", filePrefix[r.File], r.Index)
}

// Swizzle selects, per result component, a source component: 0-3 for x,
// y, z, w, or the constants SwzZero and SwzOne.
type Swizzle [4]uint8

// Swizzle selectors beyond x, y, z, w.
const (
	SwzZero uint8 = 4
	SwzOne  uint8 = 5
)

// Identity is the swizzle xyzw.
var Identity = Swizzle{0, 1, 2, 3}

// Splat returns the swizzle that replicates component c.
func Splat(c uint8) Swizzle { return Swizzle{c, c, c, c} }

// String returns the canonical text: "" for identity, one letter when all
// four agree, else four letters.
func (s Swizzle) String() string {
	if s == Identity {
		return ""
	}
	const letters = "xyzw01"
	if s[0] == s[1] && s[1] == s[2] && s[2] == s[3] {
		return "." + string(letters[s[0]])
	}
	b := []byte{'.', 0, 0, 0, 0}
	for i, c := range s {
		b[i+1] = letters[c]
	}
	return string(b)
}

// Compose returns the swizzle applying s to the result of inner: reading
// component i of (x.inner).s reads x's component inner[s[i]].
func (s Swizzle) Compose(inner Swizzle) Swizzle {
	var out Swizzle
	for i, c := range s {
		if c < 4 {
			out[i] = inner[c]
		} else {
			out[i] = c
		}
	}
	return out
}

// Src is a source operand. A relative constant (Rel) reads constant
// Index + a0[RelComp]; an address outside the constants reads (0, 0, 0, 0)
// (the R3xx PVS's rule, L1986 of its seed; the PICA200 reads its own
// registers, which its back end bounds-checks).
type Src struct {
	Reg
	Swz      Swizzle
	Abs, Neg bool
	Rel      bool
	RelComp  uint8
}

// S returns a source reading r with the identity swizzle.
func S(r Reg) Src { return Src{Reg: r, Swz: Identity} }

// Mask is a write mask: bit 0 x, 1 y, 2 z, 3 w.
type Mask uint8

// MaskXYZW writes all components.
const MaskXYZW Mask = 15

// Has reports whether component c is written.
func (m Mask) Has(c int) bool { return m>>c&1 != 0 }

// String returns "" for xyzw, else ".xz" style.
func (m Mask) String() string {
	if m == MaskXYZW {
		return ""
	}
	s := "."
	for c := 0; c < 4; c++ {
		if m.Has(c) {
			s += string("xyzw"[c])
		}
	}
	return s
}

// Dst is a destination operand.
type Dst struct {
	Reg
	Mask Mask
}

// TexTarget is the dimensionality of a texture lookup.
type TexTarget uint8

// The texture targets.
const (
	Tex2D TexTarget = iota
	Tex3D
	TexCube
)

// Inst is one instruction. Src holds Ops[Op].NumSrc operands; the rest are
// zero. Unit and Target are meaningful for texture opcodes only.
type Inst struct {
	Op     Op
	Dst    Dst
	Src    [3]Src
	Sat    bool
	Unit   int
	Target TexTarget
}

// Var is a program input or output: its semantic name.
type Var struct {
	Name string
}

// ConstVal is one constant register: a literal Value, or, when Uniform is
// set, a uniform whose value Env.Uniforms supplies at run time.
type ConstVal struct {
	Value   [4]float32
	Uniform string
}

// Program is a shader program.
type Program struct {
	Stage   Stage
	Inputs  []Var
	Outputs []Var
	Consts  []ConstVal
	Insts   []Inst
}

// NumTemps returns one more than the highest temporary index used.
func (p *Program) NumTemps() int {
	n := 0
	for i := range p.Insts {
		in := &p.Insts[i]
		if in.Dst.File == Temp {
			n = max(n, in.Dst.Index+1)
		}
		for k := 0; k < in.Op.Info().NumSrc; k++ {
			if in.Src[k].File == Temp {
				n = max(n, in.Src[k].Index+1)
			}
		}
	}
	return n
}

// Clone returns a deep copy.
func (p *Program) Clone() *Program {
	q := *p
	q.Inputs = append([]Var(nil), p.Inputs...)
	q.Outputs = append([]Var(nil), p.Outputs...)
	q.Consts = append([]ConstVal(nil), p.Consts...)
	q.Insts = append([]Inst(nil), p.Insts...)
	return &q
}

// Literal returns the index of a literal constant equal to v, adding one
// if there is none.
func (p *Program) Literal(v [4]float32) int {
	for i, c := range p.Consts {
		if c.Uniform == "" && c.Value == v {
			return i
		}
	}
	p.Consts = append(p.Consts, ConstVal{Value: v})
	return len(p.Consts) - 1
}

// InputIndex returns the index of the input with the given semantic, or -1.
func (p *Program) InputIndex(name string) int {
	for i, v := range p.Inputs {
		if v.Name == name {
			return i
		}
	}
	return -1
}

// OutputIndex returns the index of the output with the given semantic, or
// -1.
func (p *Program) OutputIndex(name string) int {
	for i, v := range p.Outputs {
		if v.Name == name {
			return i
		}
	}
	return -1
}
