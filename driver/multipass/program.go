package multipass

import (
	"fmt"
	"strings"

	"github.com/retrogl/retrogl/driver"
)

// Reg names a register: an offscreen RGBA colour target as large as a
// tile, rendered into by register passes and sampled, at each fragment's
// window position, by later passes.
type Reg int8

// NoReg is the absence of a register.
const NoReg Reg = -1

// VKind is the per-vertex colour of a pass.
type VKind uint8

// The per-vertex colours.
const (
	// VWhite is (1, 1, 1, 1): the pass's colour is its texture's.
	VWhite VKind = iota
	// VConst is the constant Frag.K (operands already applied).
	VConst
	// VPrimary is the primary colour (lit or current, flattened by flat
	// shading) with the operand Frag.VOp, times Frag.K when Frag.VK is
	// set.
	VPrimary
	// VFog is the fog colour with alpha 1-f, f the per-vertex fog factor:
	// Lerp with it fogs a register.
	VFog
)

// TKind is the texture of a pass.
type TKind uint8

// The textures.
const (
	// TNone: no texture.
	TNone TKind = iota
	// TUnit is texture unit Frag.Unit's texel with the operand Frag.TOp
	// (OperandSrcAlpha replicates alpha into every channel, the inverted
	// operands invert); the chip samples a derived texture (Derive) when
	// its own copy does not give the operand.
	TUnit
	// TReg is register Frag.Reg, sampled at the fragment's window
	// position.
	TReg
)

// Frag is what one pass computes for each fragment before blending with
// its register: the per-vertex colour times the texture (GL MODULATE; a
// missing texture is white).
type Frag struct {
	V    VKind
	VOp  driver.CombineOperand
	VK   bool
	K    [4]float32
	T    TKind
	Unit int
	TOp  driver.CombineOperand
	Reg  Reg
}

// Geometry reports whether the pass needs the batch's primitives (a
// per-vertex colour or a texture unit's coordinates); otherwise the tile's
// rectangle gives the same register pixels.
func (f Frag) Geometry() bool {
	return f.V == VPrimary || f.V == VFog || f.T == TUnit
}

func operand(op driver.CombineOperand, s string) string {
	switch op {
	case driver.OperandOneMinusSrcColor:
		return "1-" + s
	case driver.OperandSrcAlpha:
		return s + ".a"
	case driver.OperandOneMinusSrcAlpha:
		return "1-" + s + ".a"
	}
	return s
}

// String is the fragment in the program's text form: "P", "1-P.a",
// "k(0.5,0.5,0.5,1)", "fog", "T0", "r1", products with "*".
func (f Frag) String() string {
	var parts []string
	switch f.V {
	case VConst:
		parts = append(parts, fmt.Sprintf("k(%s)", floats(f.K[:])))
	case VPrimary:
		if f.VK {
			parts = append(parts, fmt.Sprintf("k(%s)", floats(f.K[:])))
		}
		parts = append(parts, operand(f.VOp, "P"))
	case VFog:
		parts = append(parts, "fog")
	}
	switch f.T {
	case TUnit:
		parts = append(parts, operand(f.TOp, fmt.Sprintf("T%d", f.Unit)))
	case TReg:
		parts = append(parts, f.Reg.String())
	}
	if len(parts) == 0 {
		return "1"
	}
	return strings.Join(parts, "*")
}

func floats(v []float32) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf("%.4g", x)
	}
	return strings.Join(s, ",")
}

// String is "r0".
func (r Reg) String() string {
	if r < 0 {
		return "-"
	}
	return fmt.Sprintf("r%d", int(r))
}

// Fn is how a pass combines its fragment F with its register R: each is a
// GL blend function (factors and equation) every fixed-function chip has.
// Results clamp to [0, 1] as a framebuffer does.
type Fn uint8

// The register operations and their blend functions.
const (
	Load    Fn = iota // R = F             (ONE, ZERO)
	Mul               // R = R*F           (DST_COLOR, ZERO)
	MulInv            // R = R*(1-F)       (ZERO, ONE_MINUS_SRC_COLOR)
	Add               // R = R+F           (ONE, ONE)
	Sub               // R = R-F           (ONE, ONE, reverse subtract)
	Half              // R = F/2           (constant 0.5, ZERO)
	AddHalf           // R = R+F/2         (constant 0.5, ONE)
	Lerp              // R = R(1-Fa)+F*Fa  (SRC_ALPHA, ONE_MINUS_SRC_ALPHA)
	Double            // R = 2R            (white fragment: DST_COLOR, ONE)
)

var fnNames = [...]string{"load", "mul", "mulinv", "add", "sub", "half", "addhalf", "lerp", "double"}

// String is the operation's name.
func (f Fn) String() string {
	if int(f) < len(fnNames) {
		return fnNames[f]
	}
	return fmt.Sprintf("Fn(%d)", uint8(f))
}

// Op is one register pass: R = Fn(R, F).
type Op struct {
	Dst Reg
	Fn  Fn
	F   Frag
}

// String is "r0 = mul T1".
func (o Op) String() string {
	if o.Fn == Double {
		return fmt.Sprintf("%s = double", o.Dst)
	}
	return fmt.Sprintf("%s = %s %s", o.Dst, o.Fn, o.F)
}

// AlphaKind says where the composite's fragment alpha comes from.
type AlphaKind uint8

// The alpha sources of the composite.
const (
	// AlphaNone: nothing reads the fragment alpha.
	AlphaNone AlphaKind = iota
	// AlphaVertex: the per-vertex colour Program.AlphaV's alpha (the
	// primary alpha or a constant, interpolated like a colour).
	AlphaVertex
	// AlphaReg: register Program.AlphaReg holds the alpha as grey; chips
	// whose passes do not store alpha merge it into the colour register
	// first (Caps.MergePasses).
	AlphaReg
	// AlphaColor: the colour register's own alpha (a software upload).
	AlphaColor
)

// Program is what the fallback does for one state: register operations,
// then the composite. It is the same for every batch and tile.
type Program struct {
	// Ops are the register passes in order.
	Ops []Op
	// Software is set when the CPU computes the fragment colour (Shade)
	// and uploads it into Color; Why says which state needed it.
	Software bool
	Why      string
	// Color is the register holding the fragment colour for the
	// composite.
	Color Reg
	// Alpha is where the composite's fragment alpha comes from.
	Alpha    AlphaKind
	AlphaV   Frag
	AlphaReg Reg
	// Regs is the number of registers used.
	Regs int
	// Passes is the number of chip passes per batch and tile, the
	// composite included.
	Passes int
}

// String is the program's text form, one line per pass, as the planner's
// tests pin it.
func (p *Program) String() string {
	var b strings.Builder
	if p.Software {
		fmt.Fprintf(&b, "software %s -> %s\n", p.Why, p.Color)
	}
	for _, o := range p.Ops {
		b.WriteString(o.String())
		b.WriteByte('\n')
	}
	b.WriteString("composite " + p.Color.String())
	switch p.Alpha {
	case AlphaVertex:
		b.WriteString(" alpha " + p.AlphaV.String())
	case AlphaReg:
		b.WriteString(" alpha " + p.AlphaReg.String())
	case AlphaColor:
		b.WriteString(" alpha " + p.Color.String())
	}
	fmt.Fprintf(&b, "\npasses %d, registers %d", p.Passes, p.Regs)
	return b.String()
}
