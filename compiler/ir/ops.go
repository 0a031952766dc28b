package ir

import (
	"fmt"
	"math"
)

// Op is an opcode.
type Op uint8

// The opcodes. Ops holds each one's facts.
const (
	MOV Op = iota
	ADD
	MUL
	MAD
	DP2
	DP3
	DP4
	DPH
	MIN
	MAX
	SLT
	SGE
	SEQ
	SNE
	CMP
	CND
	LRP
	FRC
	FLR
	RCP
	RSQ
	EX2
	LG2
	POW
	SIN
	COS
	KIL
	TEX
	TXP
	TXB
	ARL
	BGNLOOP
	ENDLOOP
	numOps
)

// Kind says how an opcode reads its sources.
type Kind uint8

// The kinds.
const (
	// CompWise: result component i is computed from component i of each
	// swizzled source.
	CompWise Kind = iota
	// Dot: a dot product over the first Width swizzled components,
	// replicated to every written component.
	Dot
	// Scalar: a function of the first swizzled component of each source,
	// replicated.
	Scalar
	// Texture: a lookup; the source holds coordinates (x, y; z for 3D and
	// cube; w is the divisor of TXP and the LOD bias of TXB).
	Texture
	// Kill: discards the fragment; writes nothing.
	Kill
	// Flow: loop structure; writes nothing (see BGNLOOP).
	Flow
)

// Rounder rounds an exact (float64) result to the machine's format.
type Rounder func(float64) float32

// OpInfo is the fact sheet of an opcode.
type OpInfo struct {
	Name   string
	NumSrc int
	Kind   Kind
	// Width is the number of components a Dot opcode reads.
	Width int
	// Eval computes one component of a CompWise or Scalar opcode from
	// exact (already rounded) inputs; the caller rounds the result once.
	// Intermediate roundings of multi-step opcodes (LRP, POW) use r.
	Eval func(a, b, c float64, r Rounder) float64
	// Doc states the exact semantics, special values included.
	Doc string
}

// Ops is the opcode table.
var Ops = [numOps]OpInfo{
	MOV: {"mov", 1, CompWise, 0, func(a, _, _ float64, _ Rounder) float64 { return a }, "a"},
	ADD: {"add", 2, CompWise, 0, func(a, b, _ float64, _ Rounder) float64 { return a + b }, "a + b"},
	MUL: {"mul", 2, CompWise, 0, func(a, b, _ float64, _ Rounder) float64 { return a * b }, "a · b"},
	MAD: {"mad", 3, CompWise, 0, func(a, b, c float64, _ Rounder) float64 { return float64(a*b) + c }, "a·b + c, rounded once (the product of two FP24 or float32 values is exact in float64)"},
	DP2: {"dp2", 2, Dot, 2, nil, "a.x·b.x + a.y·b.y, summed in order in float64, rounded once"},
	DP3: {"dp3", 2, Dot, 3, nil, "((a.x·b.x + a.y·b.y) + a.z·b.z), rounded once"},
	DP4: {"dp4", 2, Dot, 4, nil, "DP3 + a.w·b.w, rounded once"},
	DPH: {"dph", 2, Dot, 4, nil, "DP3 + b.w (a.w taken as 1), rounded once"},
	MIN: {"min", 2, CompWise, 0, func(a, b, _ float64, _ Rounder) float64 { return math.Min(a, b) }, "the smaller"},
	MAX: {"max", 2, CompWise, 0, func(a, b, _ float64, _ Rounder) float64 { return math.Max(a, b) }, "the larger"},
	SLT: {"slt", 2, CompWise, 0, func(a, b, _ float64, _ Rounder) float64 { return b2f(a < b) }, "1 if a < b else 0"},
	SGE: {"sge", 2, CompWise, 0, func(a, b, _ float64, _ Rounder) float64 { return b2f(a >= b) }, "1 if a >= b else 0"},
	SEQ: {"seq", 2, CompWise, 0, func(a, b, _ float64, _ Rounder) float64 { return b2f(a == b) }, "1 if a == b else 0"},
	SNE: {"sne", 2, CompWise, 0, func(a, b, _ float64, _ Rounder) float64 { return b2f(a != b) }, "1 if a != b else 0"},
	CMP: {"cmp", 3, CompWise, 0, func(a, b, c float64, _ Rounder) float64 { return sel(a >= 0, b, c) }, "b if a >= 0 else c (note: the opposite sense of TGSI's CMP)"},
	CND: {"cnd", 3, CompWise, 0, func(a, b, c float64, _ Rounder) float64 { return sel(a > 0.5, b, c) }, "b if a > 0.5 else c"},
	LRP: {"lrp", 3, CompWise, 0, func(a, b, c float64, r Rounder) float64 {
		return float64(a*float64(r(b-c))) + c
	}, "a·b + (1-a)·c, computed as a·t + c with t = b - c rounded first, then rounded once"},
	FRC: {"frc", 1, CompWise, 0, func(a, _, _ float64, _ Rounder) float64 { return a - math.Floor(a) }, "a - floor(a), in [0, 1)"},
	FLR: {"flr", 1, CompWise, 0, func(a, _, _ float64, r Rounder) float64 { return a - float64(r(a-math.Floor(a))) }, "floor(a), computed as a - frc(a) with frc rounded first"},
	RCP: {"rcp", 1, Scalar, 0, func(a, _, _ float64, _ Rounder) float64 { return 1 / a }, "1/a; 1/±0 is ±infinity (FP24 saturates it to ±max)"},
	RSQ: {"rsq", 1, Scalar, 0, func(a, _, _ float64, _ Rounder) float64 { return 1 / math.Sqrt(math.Abs(a)) }, "1/sqrt(|a|); rsq(0) is +infinity (FP24: +max)"},
	EX2: {"ex2", 1, Scalar, 0, func(a, _, _ float64, _ Rounder) float64 { return math.Exp2(a) }, "2^a"},
	LG2: {"lg2", 1, Scalar, 0, func(a, _, _ float64, _ Rounder) float64 { return math.Log2(a) }, "log2(a); lg2(0) is -infinity (FP24: -max), lg2 of a negative value is NaN (FP24: 0)"},
	POW: {"pow", 2, Scalar, 0, func(a, b, _ float64, r Rounder) float64 {
		return math.Exp2(float64(r(b * float64(r(math.Log2(a))))))
	}, "a^b, computed as 2^(b·log2 a) with each step rounded"},
	SIN:     {"sin", 1, Scalar, 0, func(a, _, _ float64, _ Rounder) float64 { return math.Sin(a) }, "sin(a), a in radians (back ends may approximate)"},
	COS:     {"cos", 1, Scalar, 0, func(a, _, _ float64, _ Rounder) float64 { return math.Cos(a) }, "cos(a) (back ends may approximate)"},
	KIL:     {"kil", 1, Kill, 0, nil, "discard the fragment if any component of a is < 0"},
	TEX:     {"tex", 1, Texture, 0, nil, "sample unit Unit at a.xy (a.xyz for 3D and cube)"},
	TXP:     {"txp", 1, Texture, 0, nil, "sample at a.xyz / a.w"},
	TXB:     {"txb", 1, Texture, 0, nil, "sample with the LOD biased by a.w"},
	ARL:     {"arl", 1, CompWise, 0, func(a, _, _ float64, _ Rounder) float64 { return math.Floor(a) }, "a0 = floor(a) per written component, an integer clamped to [-32768, 32767] (NaN: 0); the destination is a0"},
	BGNLOOP: {"bgnloop", 1, Flow, 0, nil, "runs the instructions up to the matching endloop n times, n = a.x truncated towards zero (negative or NaN: 0, the body is skipped); the count is read once, before the first iteration, and may be at most MaxLoopCount"},
	ENDLOOP: {"endloop", 0, Flow, 0, nil, "ends the innermost loop"},
}

// MaxLoopCount bounds the iterations of one loop the interpreter runs.
const MaxLoopCount = 1 << 16

// Info returns the opcode's fact sheet.
func (op Op) Info() *OpInfo {
	if op < numOps {
		return &Ops[op]
	}
	return &OpInfo{Name: fmt.Sprintf("op%d", op)}
}

// String returns the opcode's name.
func (op Op) String() string { return op.Info().Name }

// OpByName returns the opcode with the given (lower-case) name.
func OpByName(name string) (Op, bool) {
	for i := range Ops {
		if Ops[i].Name == name {
			return Op(i), true
		}
	}
	return 0, false
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func sel(c bool, a, b float64) float64 {
	if c {
		return a
	}
	return b
}

// ReadMask returns the swizzle positions of source k that the instruction
// reads.
func (in *Inst) ReadMask(k int) Mask {
	info := in.Op.Info()
	if k >= info.NumSrc {
		return 0
	}
	switch info.Kind {
	case CompWise:
		return in.Dst.Mask
	case Dot:
		if in.Op == DPH && k == 0 {
			return 7
		}
		return Mask(1<<info.Width - 1)
	case Scalar:
		return 1
	case Texture:
		m := Mask(3)
		if in.Target != Tex2D {
			m = 7
		}
		if in.Op != TEX {
			m |= 8
		}
		return m
	case Kill:
		return 15
	case Flow:
		return 1
	}
	return 0
}

// WriteMask returns the components the instruction writes (0 for KIL).
func (in *Inst) WriteMask() Mask {
	if k := in.Op.Info().Kind; k == Kill || k == Flow {
		return 0
	}
	return in.Dst.Mask
}

// SrcChannels returns the register components source k reads (the
// swizzle applied to ReadMask; 0 and 1 selectors read nothing).
func (in *Inst) SrcChannels(k int) Mask {
	var m Mask
	rm := in.ReadMask(k)
	for c := 0; c < 4; c++ {
		if rm.Has(c) && in.Src[k].Swz[c] < 4 {
			m |= 1 << in.Src[k].Swz[c]
		}
	}
	return m
}
