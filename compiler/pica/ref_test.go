package pica

import (
	"fmt"
	"math"

	"github.com/retrogl/retrogl/compiler/ir"
	hp "github.com/retrogl/retrogl/hal/pica"
)

// The float24 model of the back end's instruction sequences: each IR
// opcode evaluated as the instructions selectOne emits for it compute on
// the shader unit, with sim/pica's arithmetic rules (copied here: round to
// nearest float24 after every operation, subnormal and -0 inputs of
// arithmetic flushed to +0, inf·0 = 0, MIN/MAX by one comparison, RCP/RSQ
// special values). Constants and inputs go through the driver's float24
// conversion (truncation, hal/pica ToF24). Compiled programs run on the
// simulator must match this model bit for bit; the model itself is
// checked against the interpreter within float24 precision.

const f24MinNormal = 1.0 / (1 << 62)

// round24 rounds to float24 as sim/pica does.
func round24(x float64) float32 {
	if x != x {
		return float32(math.NaN())
	}
	b := math.Float64bits(x)
	sign := b >> 63
	a := b &^ (1 << 63)
	if a >= 0x7FF0000000000000 {
		return float32(x)
	}
	const drop = 52 - 16
	a += 1<<(drop-1) - 1 + a>>drop&1
	a &^= 1<<drop - 1
	r := math.Float64frombits(a)
	switch {
	case r < f24MinNormal:
		return 0
	case r >= 0x1p64:
		r = math.Inf(1)
	}
	if sign != 0 {
		r = -r
	}
	return float32(r)
}

func flush(x float32) float32 {
	if x == 0 || (x > -f24MinNormal && x < f24MinNormal) {
		return 0
	}
	return x
}

func fmul(a, b float32) float32 {
	a, b = flush(a), flush(b)
	if a == 0 || b == 0 {
		return 0
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

func fex2(a float32) float32 { return round24(math.Exp2(float64(flush(a)))) }

func flg2(a float32) float32 {
	x := float64(flush(a))
	switch {
	case x != x || x < 0:
		return float32(math.NaN())
	case x == 0:
		return float32(math.Inf(-1))
	}
	return round24(math.Log2(x))
}

func fflr(a float32) float32 { return round24(math.Floor(float64(flush(a)))) }

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

func fsge(a, b float32) float32 { return b2f(flush(a) >= flush(b)) }
func fslt(a, b float32) float32 { return b2f(flush(a) < flush(b)) }

// t24 is the driver's float24 conversion of a constant or input.
func t24(x float32) float32 { return hp.F24ToFloat(hp.ToF24(x)) }

// refEnv is the model's state for one vertex.
type refEnv struct {
	p      *ir.Program
	in     [][4]float32
	uni    map[string][4]float32
	consts [][4]float32 // the IR's constants as the unit reads them
	temps  map[int][4]float32
	out    [][4]float32
	a0     [2]int32
}

// constOperand reports whether an IR operand reaches the instruction as a
// constant register (legalize's commutative swap depends on it).
func constOperand(p *ir.Program, s ir.Src, read ir.Mask) bool {
	sel, mixed := false, false
	for l := 0; l < 4; l++ {
		if read.Has(l) {
			if s.Swz[l] >= 4 {
				sel = true
			} else {
				mixed = true
			}
		}
	}
	switch {
	case sel && !mixed:
		return true
	case s.File == ir.Const && !s.Rel && p.Consts[s.Index].Uniform == "":
		return true
	case sel:
		return false
	case s.File == ir.Const:
		return !s.Abs
	}
	return false
}

// read evaluates an operand: selects, register, |x| as MAX(x, -x),
// negation.
func (e *refEnv) read(s ir.Src, read ir.Mask) [4]float32 {
	var raw [4]float32
	switch s.File {
	case ir.Temp:
		raw = e.temps[s.Index]
	case ir.Input:
		raw = e.in[s.Index]
	case ir.Const:
		i := s.Index
		if s.Rel {
			i += int(e.a0[s.RelComp])
			switch {
			case i < 0 || i >= MaxConsts:
				raw = [4]float32{1, 1, 1, 1}
			case i < len(e.consts):
				raw = e.consts[i]
			}
		} else {
			raw = e.consts[i]
		}
	}
	sel, mixed := false, false
	for l := 0; l < 4; l++ {
		if read.Has(l) {
			if s.Swz[l] >= 4 {
				sel = true
			} else {
				mixed = true
			}
		}
	}
	lit := (sel && !mixed) || (s.File == ir.Const && !s.Rel && e.p.Consts[s.Index].Uniform == "")
	var v [4]float32
	for l := 0; l < 4; l++ {
		switch z := s.Swz[l]; z {
		case ir.SwzZero:
		case ir.SwzOne:
			v[l] = 1
		default:
			v[l] = raw[z]
		}
	}
	if lit {
		// A literal operand is folded at compile time and converted.
		for l := range v {
			x := v[l]
			if s.Abs {
				x = float32(math.Abs(float64(x)))
			}
			if s.Neg {
				x = -x
			}
			v[l] = t24(x)
		}
		return v
	}
	if s.Abs {
		for l := range v {
			v[l] = fmax(v[l], -v[l])
		}
	}
	if s.Neg {
		for l := range v {
			v[l] = -v[l]
		}
	}
	return v
}

// refRun evaluates the program with the model.
func refRun(p *ir.Program, inputs [][4]float32, uniforms map[string][4]float32) ([][4]float32, error) {
	e := &refEnv{p: p, uni: uniforms, temps: map[int][4]float32{}, out: make([][4]float32, len(p.Outputs))}
	for _, v := range inputs {
		e.in = append(e.in, [4]float32{t24(v[0]), t24(v[1]), t24(v[2]), t24(v[3])})
	}
	for _, k := range p.Consts {
		v := k.Value
		if k.Uniform != "" {
			v = uniforms[k.Uniform]
		}
		e.consts = append(e.consts, [4]float32{t24(v[0]), t24(v[1]), t24(v[2]), t24(v[3])})
	}
	ends := ir.LoopEnds(p)
	begins := map[int]int{}
	for b, en := range ends {
		begins[en] = b
	}
	type frame struct{ begin, left int }
	var stack []frame
	for pc := 0; pc < len(p.Insts); pc++ {
		in := &p.Insts[pc]
		switch in.Op {
		case ir.BGNLOOP:
			x := e.read(in.Src[0], 1)[0]
			n := 0
			if x > 0 {
				n = int(min(float64(x), 1<<20))
			}
			if n > MaxLoopIterations {
				return nil, fmt.Errorf("loop of %d", n)
			}
			if n == 0 {
				pc = ends[pc]
				continue
			}
			stack = append(stack, frame{pc, n})
			continue
		case ir.ENDLOOP:
			f := &stack[len(stack)-1]
			if f.left--; f.left > 0 {
				pc = f.begin
				continue
			}
			stack = stack[:len(stack)-1]
			continue
		}
		if err := e.exec(in); err != nil {
			return nil, err
		}
	}
	return e.out, nil
}

// sinRef models sinCos's sequence on lane x.
func sinRef(x float32, cos bool) float32 {
	off := float32(0.5)
	if cos {
		off = 0.75
	}
	y := fadd(fmul(x, t24(float32(1/(2*math.Pi)))), t24(off))
	f := fflr(y)
	y = fadd(y, -f)
	y = fadd(y, t24(-0.5))
	ab := fmax(y, -y)
	m := fadd(t24(0.5), -ab)
	m = fmin(ab, m)
	u := fmul(m, t24(float32(2*math.Pi)))
	u2 := fmul(u, u)
	pp := fadd(fmul(u2, t24(sinCoef[3])), t24(sinCoef[2]))
	pp = fadd(fmul(u2, pp), t24(sinCoef[1]))
	pp = fadd(fmul(u2, pp), t24(sinCoef[0]))
	pp = fadd(fmul(u2, pp), t24(1))
	pp = fmul(u, pp)
	sg := fsge(y, 0)
	sg = fadd(fmul(sg, t24(2)), t24(-1))
	return fmul(pp, sg)
}

func (e *refEnv) exec(in *ir.Inst) error {
	mask := in.Dst.Mask
	var s [3][4]float32
	for k := 0; k < in.Op.Info().NumSrc; k++ {
		s[k] = e.read(in.Src[k], in.ReadMask(k))
	}
	a, b, c := s[0], s[1], s[2]
	bConst := in.Op.Info().NumSrc > 1 && constOperand(e.p, in.Src[1], in.ReadMask(1))
	aConst := constOperand(e.p, in.Src[0], in.ReadMask(0))
	swap := bConst && !aConst
	var r [4]float32
	comp := func(f func(x, y, z float32) float32) {
		for l := 0; l < 4; l++ {
			r[l] = f(a[l], b[l], c[l])
		}
	}
	splat := func(v float32) { r = [4]float32{v, v, v, v} }
	switch in.Op {
	case ir.MOV:
		r = a
	case ir.ADD:
		comp(func(x, y, _ float32) float32 { return fadd(x, y) })
	case ir.MUL:
		comp(func(x, y, _ float32) float32 { return fmul(x, y) })
	case ir.MAD:
		comp(func(x, y, z float32) float32 { return fadd(fmul(x, y), z) })
	case ir.DP2:
		splat(fadd(fmul(a[0], b[0]), fmul(a[1], b[1])))
	case ir.DP3, ir.DP4, ir.DPH:
		n := 4
		if in.Op == ir.DP3 {
			n = 3
		}
		if in.Op == ir.DPH {
			a[3] = 1
		}
		sum := fmul(a[0], b[0])
		for i := 1; i < n; i++ {
			sum = fadd(sum, fmul(a[i], b[i]))
		}
		splat(sum)
	case ir.MIN, ir.MAX:
		f := fmax
		if in.Op == ir.MIN {
			f = fmin
		}
		comp(func(x, y, _ float32) float32 {
			if swap {
				return f(y, x)
			}
			return f(x, y)
		})
	case ir.SLT:
		comp(func(x, y, _ float32) float32 { return fslt(x, y) })
	case ir.SGE:
		comp(func(x, y, _ float32) float32 { return fsge(x, y) })
	case ir.SEQ:
		comp(func(x, y, _ float32) float32 { return fmul(fsge(x, y), fsge(y, x)) })
	case ir.SNE:
		comp(func(x, y, _ float32) float32 { return fadd(fslt(x, y), fslt(y, x)) })
	case ir.CMP, ir.CND:
		comp(func(x, y, z float32) float32 {
			var t float32
			if in.Op == ir.CMP {
				t = fsge(x, 0)
			} else {
				t = fslt(t24(0.5), x)
			}
			f := fadd(1, -t)
			return fadd(fmul(f, z), fmul(t, y))
		})
	case ir.LRP:
		comp(func(x, y, z float32) float32 { return fadd(fmul(x, fadd(y, -z)), z) })
	case ir.FRC:
		comp(func(x, _, _ float32) float32 { return fadd(x, -fflr(x)) })
	case ir.FLR:
		comp(func(x, _, _ float32) float32 { return fflr(x) })
	case ir.RCP:
		splat(frcp(a[0]))
	case ir.RSQ:
		splat(frsq(fmax(a[0], -a[0])))
	case ir.EX2:
		splat(fex2(a[0]))
	case ir.LG2:
		splat(flg2(a[0]))
	case ir.POW:
		splat(fex2(fmul(flg2(a[0]), b[0])))
	case ir.SIN, ir.COS:
		splat(sinRef(a[0], in.Op == ir.COS))
	case ir.ARL:
		for l := 0; l < 2; l++ {
			if mask.Has(l) {
				x := fflr(a[l])
				v := int32(0)
				if x == x {
					v = int32(math.Max(-128, math.Min(127, math.Trunc(float64(x)))))
				}
				e.a0[l] = v
			}
		}
		return nil
	default:
		return fmt.Errorf("model: no %s", in.Op)
	}
	if in.Sat {
		for l := range r {
			// MAX and MIN with the literal operand first (legalize's swap).
			r[l] = fmin(1, fmax(0, r[l]))
		}
	}
	var dst *[4]float32
	switch in.Dst.File {
	case ir.Temp:
		t := e.temps[in.Dst.Index]
		dst = &t
		defer func() { e.temps[in.Dst.Index] = t }()
	case ir.Output:
		dst = &e.out[in.Dst.Index]
	default:
		return nil
	}
	for l := 0; l < 4; l++ {
		if mask.Has(l) {
			dst[l] = r[l]
		}
	}
	return nil
}
