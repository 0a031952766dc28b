package pica

import (
	"fmt"
	"math"

	p "github.com/retrogl/retrogl/hal/pica"
)

// The shader unit: an interpreter for the instruction set of hal/pica with
// the PICA200's own float arithmetic. Every rule below is an outside fact
// from 3dbrew's "GPU/Shader Instruction Set", section "Floating-Point
// Behavior" (hardware measurements), unless marked as a decision:
//   - the internal format is float24 (1.7.16): results are rounded to it;
//   - there is no -0: a zero result is +0 (rsq(rcp(-inf)) = +inf);
//   - input and output subnormals are flushed to +0 in arithmetic
//     instructions (mul(s, 2) = 0, mul(n, 0.5) = 0), but MAX, MIN and CMP
//     neither flush their inputs nor their output (max(s, 0) = s,
//     cmp(s, 0) is false);
//   - inf or NaN times 0 is 0 in MUL, MAD and the DP family;
//   - +inf - +inf is NaN;
//   - rcp(0) = +inf, rcp(+inf) = 0, rcp(NaN) = NaN; rsq(-0) = +inf,
//     rsq(-2) = NaN, rsq(+inf) = 0, rsq(-inf) = NaN, rsq(NaN) = NaN;
//   - max(a, b) = a > b ? a : b and min(a, b) = a < b ? a : b, which gives
//     max(0, NaN) = NaN, max(NaN, 0) = 0, and the same for min. The
//     table's row max(0, -inf) = -inf fits no single comparison rule
//     together with its other rows; the simulator gives 0, as citra does.
//
// Decisions (no measurement known): products and sums are exact and then
// rounded to nearest-even float24 after every operation (DP4 is three
// rounded adds of four rounded products, in x, y, z, w order; MAD rounds the
// product, then the sum); RCP, RSQ, EX2 and LG2 are correctly rounded; SGE
// and SLT flush their inputs like other arithmetic; MOV copies bits.
// Out-of-range indexed uniform reads return (1, 1, 1, 1) and the address
// offset applies only to c registers ([OUT] citra's x64 shader JIT); MOVA
// truncates towards zero and saturates to the signed 8-bit range; LOOP
// sets aL to the int uniform's y and adds its z (read as signed 8-bit)
// after each iteration; the flow-control stack holds 16 frames, and a
// program that executes more than MaxSteps instructions for one vertex
// faults (the hardware would hang).

// MaxSteps bounds the instructions one shader invocation may execute.
const MaxSteps = 1 << 18

// Code and operand-descriptor memory sizes: the 12-bit code index and
// 7-bit descriptor fields (guide §3 quotes 512 words and 128 descriptors
// for the hardware; the simulator accepts the full 12-bit range for code).
const (
	CodeWords   = 4096
	NumOpdescs  = 128
	NumUniforms = 96
	stackDepth  = 16
)

// vec4 is a shader register: four float24 values held exactly as float32.
type vec4 [4]float32

var one4 = vec4{1, 1, 1, 1}

const f24MinNormal = 1.0 / (1 << 62) // 2^-62: exponent 1, bias 63

// round24 rounds x to float24, flushing subnormal results and -0 to +0.
// Rounding is to nearest, ties to even, on the float64 bits: the 52-bit
// mantissa keeps its top 16 bits. Magnitudes in [2^-62, 2^63) (the
// rounded value stays a float24 normal) take the short path, which is
// round24Full's arithmetic with the sign left in place.
func round24(x float64) float32 {
	if r, ok := round24Short(x); ok {
		return r
	}
	return round24Full(x)
}

// round24Short is round24's short path: ok is false outside it.
func round24Short(x float64) (float32, bool) {
	b := math.Float64bits(x)
	if b>>52&0x7FF-(1023-62) > 124 {
		return 0, false
	}
	b += 1<<35 - 1 + b>>36&1
	return float32(math.Float64frombits(b &^ (1<<36 - 1))), true
}

// dot is the DP3/DP4 sum of the first n products, fmul and fadd written
// out with round24's short path inline: fadd's flush of a product or of a
// partial sum changes nothing, as round24 never returns a subnormal or -0.
func dot(a, b *vec4, n int) float32 {
	var sum float32
	for i := 0; i < n; i++ {
		var p float32
		if x, y := flush(a[i]), flush(b[i]); x != 0 && y != 0 {
			m := float64(x) * float64(y)
			var ok bool
			if p, ok = round24Short(m); !ok {
				p = round24Full(m)
			}
		}
		if i == 0 {
			sum = p
			continue
		}
		// fadd(sum, 0) is sum (a round24 result: no subnormal, no -0,
		// NaN the canonical one), and round24(±0) is +0.
		if p == 0 {
			continue
		}
		t := float64(sum) + float64(p)
		if t == 0 {
			sum = 0
			continue
		}
		var ok bool
		if sum, ok = round24Short(t); !ok {
			sum = round24Full(t)
		}
	}
	return sum
}

// round24Full is round24 for every input.
func round24Full(x float64) float32 {
	if x != x {
		return float32(math.NaN())
	}
	b := math.Float64bits(x)
	sign := b >> 63
	a := b &^ (1 << 63)
	if a >= 0x7FF0000000000000 { // infinity
		return float32(x)
	}
	const drop = 52 - 16
	a += 1<<(drop-1) - 1 + a>>drop&1
	a &^= 1<<drop - 1
	r := math.Float64frombits(a)
	switch {
	case r < f24MinNormal:
		return 0
	case r >= 0x1p64: // exponent 127 is infinity
		r = math.Inf(1)
	}
	if sign != 0 {
		r = -r
	}
	return float32(r)
}

// flush returns x with subnormals and -0 replaced by +0 (arithmetic inputs).
func flush(x float32) float32 {
	if x == 0 || (x > -f24MinNormal && x < f24MinNormal) {
		return 0
	}
	return x
}

func fmul(a, b float32) float32 {
	a, b = flush(a), flush(b)
	if a == 0 || b == 0 {
		return 0 // inf/NaN * 0 = 0
	}
	return round24(float64(a) * float64(b))
}

func fadd(a, b float32) float32 { return round24(float64(flush(a)) + float64(flush(b))) }

func fmax(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}

func fmin(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

func frcp(a float32) float32 {
	a = flush(a)
	switch {
	case a != a:
		return a
	case a == 0:
		return float32(math.Inf(1))
	case math.IsInf(float64(a), 0):
		return 0
	}
	return round24(1 / float64(a))
}

func frsq(a float32) float32 {
	a = flush(a)
	switch {
	case a != a || a < 0:
		return float32(math.NaN())
	case a == 0:
		return float32(math.Inf(1))
	case math.IsInf(float64(a), 1):
		return 0
	}
	return round24(1 / math.Sqrt(float64(a)))
}

// Shader is one shader unit's program memory and uniforms.
type Shader struct {
	Code    [CodeWords]uint32
	Opdesc  [NumOpdescs]uint32
	Float   [NumUniforms]vec4
	Int     [4][4]uint8
	Bool    uint16
	Entry   uint16
	decoded []p.Insn
	// line is the straight-line form of the program (vsbatch.go), nil
	// until asked for after a change; lineOK says whether it has one.
	line   *vsProg
	lineOK bool
}

// straight returns the program's straight-line form, or nil when it has
// flow control (decoded once per program upload).
func (s *Shader) straight() *vsProg {
	if s.line == nil {
		s.line, s.lineOK = straightLine(s)
		if !s.lineOK {
			s.line = &vsProg{}
		}
	}
	if !s.lineOK {
		return nil
	}
	return s.line
}

// setCode stores one code word, keeping the decoded program current (a
// driver uploads a program before every draw that switches to it).
func (s *Shader) setCode(i int, w uint32) {
	s.Code[i] = w
	s.line = nil
	if s.decoded != nil {
		s.decoded[i] = p.DecodeInsn(w)
	}
}

func (s *Shader) program() []p.Insn {
	if s.decoded == nil {
		s.decoded = make([]p.Insn, CodeWords)
		for i, w := range s.Code {
			s.decoded[i] = p.DecodeInsn(w)
		}
	}
	return s.decoded
}

// ShaderError is a shader-unit fault: the program would hang or used an
// undefined instruction.
type ShaderError struct {
	PC     uint16
	Word   uint32
	Reason string
}

func (e *ShaderError) Error() string {
	return fmt.Sprintf("shader unit: %s at pc %#x (instruction %#08x: %s)", e.Reason, e.PC, e.Word, p.Disasm(e.Word, nil))
}

type frame struct {
	end, ret, loopStart uint16
	repeat              int
	inc                 int32
	loop                bool
}

// Unit is the execution state of one invocation.
type Unit struct {
	In    [16]vec4
	Out   [16]vec4
	tmp   [16]vec4
	a0    [2]int32
	aL    int32
	cmp   [2]bool
	stack [stackDepth]frame
	sp    int
	// Steps counts the instructions executed by the last Run.
	Steps int
	// Limit bounds the instructions of one Run (0 means MaxSteps).
	Limit int
}

// Run executes the program from the entry point until END.
func (u *Unit) Run(s *Shader) error {
	prog := s.program()
	u.Out = [16]vec4{}
	u.tmp = [16]vec4{}
	u.a0 = [2]int32{}
	u.aL = 0
	u.cmp = [2]bool{}
	u.sp = 0
	u.Steps = 0
	limit := u.Limit
	if limit <= 0 || limit > MaxSteps {
		limit = MaxSteps
	}
	pc := s.Entry & (CodeWords - 1)
	for {
		// Reaching the end of the innermost call, if or loop body.
		if u.sp > 0 && pc == u.stack[u.sp-1].end {
			f := &u.stack[u.sp-1]
			if f.loop {
				u.aL += f.inc
				if f.repeat > 0 {
					f.repeat--
					pc = f.loopStart
					continue
				}
			}
			pc = f.ret
			u.sp--
			continue
		}
		if u.Steps >= limit {
			return &ShaderError{pc & (CodeWords - 1), s.Code[pc&(CodeWords-1)], fmt.Sprintf("no END within %d instructions (the GPU would hang)", limit)}
		}
		u.Steps++
		pc &= CodeWords - 1
		in := &prog[pc]
		next := pc + 1
		switch in.Op.Info().Format {
		case p.FmtInvalid:
			return &ShaderError{pc, s.Code[pc], "undefined opcode"}
		case p.Fmt0:
			switch in.Op {
			case p.OpEND:
				return nil
			case p.OpBREAK:
				next = u.brk(next)
			case p.OpEMIT:
				return &ShaderError{pc, s.Code[pc], "EMIT in a vertex shader"}
			}
		case p.Fmt4:
			return &ShaderError{pc, s.Code[pc], "SETEMIT in a vertex shader"}
		case p.Fmt2, p.Fmt3:
			var err error
			next, err = u.flow(s, in, pc)
			if err != nil {
				return &ShaderError{pc, s.Code[pc], err.Error()}
			}
		default:
			u.arith(s, in)
		}
		pc = next & (CodeWords - 1)
	}
}

func (u *Unit) push(f frame) error {
	if u.sp == stackDepth {
		return fmt.Errorf("flow-control stack overflow (%d frames)", stackDepth)
	}
	u.stack[u.sp] = f
	u.sp++
	return nil
}

// brk leaves the innermost loop (popping the frames inside it).
func (u *Unit) brk(next uint16) uint16 {
	for u.sp > 0 {
		u.sp--
		if u.stack[u.sp].loop {
			return u.stack[u.sp].ret
		}
	}
	return next
}

func (u *Unit) cond(in *p.Insn) bool {
	x, y := u.cmp[0] == in.RefX, u.cmp[1] == in.RefY
	switch in.CondOp {
	case 0:
		return x || y
	case 1:
		return x && y
	case 2:
		return x
	}
	return y
}

func (u *Unit) flow(s *Shader, in *p.Insn, pc uint16) (uint16, error) {
	next := pc + 1
	dest, num := in.Dest, uint16(in.Num)
	b := s.Bool>>(in.Uniform&15)&1 != 0
	call := func(start, n, ret uint16) (uint16, error) {
		return start, u.push(frame{end: (start + n) & (CodeWords - 1), ret: ret})
	}
	switch in.Op {
	case p.OpBREAKC:
		if u.cond(in) {
			return u.brk(next), nil
		}
	case p.OpCALL:
		return call(dest, num, next)
	case p.OpCALLC:
		if u.cond(in) {
			return call(dest, num, next)
		}
	case p.OpCALLU:
		if b {
			return call(dest, num, next)
		}
	case p.OpIFU, p.OpIFC:
		t := b
		if in.Op == p.OpIFC {
			t = u.cond(in)
		}
		if t {
			// Run pc+1 .. dest-1, then skip the else block.
			return next, u.push(frame{end: dest, ret: dest + num})
		}
		return call(dest, num, dest+num)
	case p.OpLOOP:
		iu := s.Int[in.Uniform&3]
		u.aL = int32(iu[1])
		return next, u.push(frame{end: dest + 1, ret: dest + 1, loopStart: next, repeat: int(iu[0]), inc: int32(int8(iu[2])), loop: true})
	case p.OpJMPC:
		if u.cond(in) {
			return dest, nil
		}
	case p.OpJMPU:
		if b != (in.Num&1 != 0) {
			return dest, nil
		}
	}
	return next, nil
}

// src reads source operand k of the instruction: register r (7 or 5 bits),
// swizzled and negated by the descriptor; indexed applies the address
// register.
func (u *Unit) src(s *Shader, r uint8, d p.OpDesc, k int, idx uint8, indexed bool) vec4 {
	var v *vec4
	switch {
	case r < 0x10:
		v = &u.In[r]
	case r < 0x20:
		v = &u.tmp[r-0x10]
	default:
		i := int32(r) - 0x20
		if indexed {
			switch idx {
			case 1:
				i += u.a0[0]
			case 2:
				i += u.a0[1]
			case 3:
				i += u.aL
			}
		}
		if i < 0 || i >= NumUniforms {
			v = &one4
		} else {
			v = &s.Float[i]
		}
	}
	sh := 5 + 9*uint(k)
	sel := uint32(d) >> sh
	out := vec4{v[sel>>6&3], v[sel>>4&3], v[sel>>2&3], v[sel&3]}
	if uint32(d)>>(sh-1)&1 != 0 {
		out[0], out[1], out[2], out[3] = -out[0], -out[1], -out[2], -out[3]
	}
	return out
}

func (u *Unit) arith(s *Shader, in *p.Insn) {
	d := p.OpDesc(s.Opdesc[in.Desc&(NumOpdescs-1)])
	var a, b, c vec4
	switch in.Op.Info().Format {
	case p.Fmt1u:
		a = u.src(s, in.Src1, d, 0, in.Idx, true)
	case p.Fmt1, p.Fmt1c:
		a = u.src(s, in.Src1, d, 0, in.Idx, true)
		b = u.src(s, in.Src2, d, 1, 0, false)
	case p.Fmt1i:
		a = u.src(s, in.Src1, d, 0, 0, false)
		b = u.src(s, in.Src2, d, 1, in.Idx, true)
	case p.Fmt5:
		a = u.src(s, in.Src1, d, 0, 0, false)
		b = u.src(s, in.Src2, d, 1, in.Idx, true)
		c = u.src(s, in.Src3, d, 2, 0, false)
	case p.Fmt5i:
		a = u.src(s, in.Src1, d, 0, 0, false)
		b = u.src(s, in.Src2, d, 1, 0, false)
		c = u.src(s, in.Src3, d, 2, in.Idx, true)
	}
	switch in.Op {
	case p.OpMOVA:
		for i := 0; i < 2; i++ {
			if d.WritesComp(i) {
				u.a0[i] = toS8(a[i])
			}
		}
		return
	case p.OpCMP:
		u.cmp[0] = compare(in.CmpX, a[0], b[0])
		u.cmp[1] = compare(in.CmpY, a[1], b[1])
		return
	case p.OpLITP:
		u.cmp = [2]bool{a[0] >= 0, a[3] >= 0}
	}
	r := compute(in, a, b, c)
	var dst *vec4
	if in.Dst < 0x10 {
		dst = &u.Out[in.Dst]
	} else {
		dst = &u.tmp[in.Dst-0x10]
	}
	for i := 0; i < 4; i++ {
		if d.WritesComp(i) {
			dst[i] = r[i]
		}
	}
}

// compute is the value an arithmetic instruction writes, from its source
// operands a, b and c (read and swizzled): the unit's arithmetic, shared by
// the interpreter and the vertex batches. MOVA and CMP write no register
// and are handled by arith; an opcode with no arithmetic yields 0.
func compute(in *p.Insn, a, b, c vec4) vec4 {
	var r vec4
	switch in.Op {
	case p.OpADD:
		for i := range r {
			r[i] = fadd(a[i], b[i])
		}
	case p.OpMUL:
		for i := range r {
			r[i] = fmul(a[i], b[i])
		}
	case p.OpMAD, p.OpMADI:
		for i := range r {
			r[i] = fadd(fmul(a[i], b[i]), c[i])
		}
	case p.OpDP3, p.OpDP4, p.OpDPH, p.OpDPHI:
		n := 4
		if in.Op == p.OpDP3 {
			n = 3
		}
		if in.Op == p.OpDPH || in.Op == p.OpDPHI {
			a[3] = 1
		}
		sum := dot(&a, &b, n)
		r = vec4{sum, sum, sum, sum}
	case p.OpDST, p.OpDSTI:
		r = vec4{1, fmul(a[1], b[1]), a[2], b[3]}
	case p.OpEX2:
		v := round24(math.Exp2(float64(flush(a[0]))))
		r = vec4{v, v, v, v}
	case p.OpLG2:
		x := float64(flush(a[0]))
		var v float32
		switch {
		case x != x || x < 0:
			v = float32(math.NaN())
		case x == 0:
			v = float32(math.Inf(-1))
		default:
			v = round24(math.Log2(x))
		}
		r = vec4{v, v, v, v}
	case p.OpLITP:
		// LITP (3dbrew, not measured here): x = max(src.x, 0),
		// y = clamp(src.y, -127.9961, 127.9961), z = 0, w = max(src.w, 0);
		// cmp.x = src.x >= 0, cmp.y = src.w >= 0 (set by arith).
		const lim = 127.99609375
		r = vec4{fmax(a[0], 0), fmin(fmax(a[1], -lim), lim), 0, fmax(a[3], 0)}
	case p.OpSGE, p.OpSGEI, p.OpSLT, p.OpSLTI:
		ge := in.Op == p.OpSGE || in.Op == p.OpSGEI
		for i := range r {
			x, y := flush(a[i]), flush(b[i])
			if (ge && x >= y) || (!ge && x < y) {
				r[i] = 1
			}
		}
	case p.OpFLR:
		for i := range r {
			r[i] = round24(math.Floor(float64(flush(a[i]))))
		}
	case p.OpMAX:
		for i := range r {
			r[i] = fmax(a[i], b[i])
		}
	case p.OpMIN:
		for i := range r {
			r[i] = fmin(a[i], b[i])
		}
	case p.OpRCP:
		v := frcp(a[0])
		r = vec4{v, v, v, v}
	case p.OpRSQ:
		v := frsq(a[0])
		r = vec4{v, v, v, v}
	case p.OpMOV:
		r = a
	}
	return r
}

func toS8(x float32) int32 {
	if x != x {
		return 0
	}
	t := math.Trunc(float64(x))
	return int32(math.Max(-128, math.Min(127, t)))
}

func compare(op uint8, a, b float32) bool {
	switch op {
	case 0:
		return a == b
	case 1:
		return a != b
	case 2:
		return a < b
	case 3:
		return a <= b
	case 4:
		return a > b
	case 5:
		return a >= b
	}
	return true
}
