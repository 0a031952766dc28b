package lower

import (
	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/ir"
)

// val is an rvalue: one source per slot; component i of a scalar or
// vector slot is what the source's swizzle selects in position i.
type val struct {
	t glsl.Type
	s []ir.Src
}

func (v val) regs() []ir.Reg {
	r := make([]ir.Reg, len(v.s))
	for i, s := range v.s {
		r[i] = s.Reg
	}
	return r
}

// lval is an assignable location: alternatives selected by conditions
// (dynamic indexing), each a list of slots with the register component
// written by each value component.
type lval struct {
	t    glsl.Type
	alts []lalt
}

type lalt struct {
	cond  *ir.Src // nil: always
	slots []lslot
}

type lslot struct {
	reg   ir.Reg
	comps []uint8
	// rel, when set, makes the slot constant reg.Index + a0.x, with a0.x
	// = rel (relative addressing, Options.Relative): a read sets a0 and
	// copies the constant out at once.
	rel *ir.Src
}

func neg(s ir.Src) ir.Src { s.Neg = !s.Neg; return s }

// comp returns component i of s replicated.
func comp(s ir.Src, i int) ir.Src { s.Swz = ir.Splat(s.Swz[i]); return s }

// swz returns s read through a further swizzle.
func swz(s ir.Src, sw ir.Swizzle) ir.Src { s.Swz = sw.Compose(s.Swz); return s }

// lit returns a literal source; fewer than four values repeat the last.
func (l *lowerer) lit(v ...float32) ir.Src {
	var q [4]float32
	for i := range q {
		q[i] = v[min(i, len(v)-1)]
	}
	return ir.S(ir.Reg{File: ir.Const, Index: l.p.Literal(q)})
}

// litComp returns component i of s when it is a literal.
func (l *lowerer) litComp(s ir.Src, i int) (float64, bool) {
	c := s.Swz[i]
	var x float64
	switch {
	case c == ir.SwzZero:
	case c == ir.SwzOne:
		x = 1
	case s.File == ir.Const && l.p.Consts[s.Index].Uniform == "":
		x = float64(l.p.Consts[s.Index].Value[c])
	default:
		return 0, false
	}
	if s.Abs && x < 0 {
		x = -x
	}
	if s.Neg {
		x = -x
	}
	return x, true
}

func (l *lowerer) litScalar(s ir.Src) (float64, bool) { return l.litComp(s, 0) }

func (l *lowerer) regsLval(t glsl.Type, regs []ir.Reg) lval {
	types := slotTypes(t)
	slots := make([]lslot, len(regs))
	for i, r := range regs {
		n := int(types[i].Rows)
		cs := make([]uint8, n)
		for k := range cs {
			cs[k] = uint8(k)
		}
		slots[i] = lslot{reg: r, comps: cs}
	}
	return lval{t: t, alts: []lalt{{slots: slots}}}
}

func (l *lowerer) regsVal(t glsl.Type, regs []ir.Reg) val {
	v := val{t: t, s: make([]ir.Src, len(regs))}
	for i, r := range regs {
		v.s[i] = ir.S(r)
	}
	return v
}

func (l *lowerer) varLval(v *glsl.Var) lval { return l.regsLval(v.Type, l.storage(v)) }

// slotSrc reads an lvalue slot as a source.
func slotSrc(s lslot) ir.Src {
	var sw ir.Swizzle
	for i := range sw {
		sw[i] = s.comps[min(i, len(s.comps)-1)]
	}
	return ir.Src{Reg: s.reg, Swz: sw}
}

// litVal is a known literal temp component.
type litVal struct {
	ok bool
	v  float32
}

// knownSlot returns a slot's value as a literal when every component it
// reads is known.
func (l *lowerer) knownSlot(s lslot) (ir.Src, bool) {
	k := l.lits[s.reg]
	if k == nil || s.reg.File != ir.Temp {
		return ir.Src{}, false
	}
	q := make([]float32, len(s.comps))
	for i, c := range s.comps {
		if !k[c].ok {
			return ir.Src{}, false
		}
		q[i] = k[c].v
	}
	return l.lit(q...), true
}

// track records what a write leaves in a register: literal components
// of an unconditional write, unknown ones otherwise.
func (l *lowerer) track(r ir.Reg, comps []uint8, src ir.Src, plain bool) {
	if r.File != ir.Temp {
		return
	}
	k := l.lits[r]
	if k == nil {
		k = &[4]litVal{}
		l.lits[r] = k
	}
	for i, c := range comps {
		k[c] = litVal{}
		if plain {
			if x, ok := l.litComp(src, i); ok {
				k[c] = litVal{true, float32(x)}
			}
		}
	}
}

// load reads an lvalue.
func (l *lowerer) load(lv lval) val {
	read := func(a lalt) val {
		v := val{t: lv.t, s: make([]ir.Src, len(a.slots))}
		var a0 *ir.Src
		for i, s := range a.slots {
			if s.rel != nil {
				if a0 == nil || *a0 != *s.rel {
					l.emit(ir.Inst{Op: ir.ARL, Dst: ir.Dst{Reg: ir.Reg{File: ir.Addr}, Mask: 1}, Src: [3]ir.Src{*s.rel}})
					a0 = s.rel
				}
				src := slotSrc(s)
				src.Rel = true
				v.s[i] = l.vop(ir.MOV, len(s.comps), src)
				continue
			}
			if k, ok := l.knownSlot(s); ok && len(lv.alts) == 1 {
				v.s[i] = k
				continue
			}
			v.s[i] = slotSrc(s)
		}
		return v
	}
	acc := read(lv.alts[0])
	for _, a := range lv.alts[1:] {
		acc = l.sel(*a.cond, read(a), acc)
	}
	return acc
}

// sel selects per slot: a where c (a 0/1 scalar) is 1, else b.
func (l *lowerer) sel(c ir.Src, a, b val) val {
	c = splatX(c)
	if x, ok := l.litScalar(c); ok {
		if x > 0.5 {
			return a
		}
		return b
	}
	out := val{t: a.t, s: make([]ir.Src, len(a.s))}
	types := slotTypes(a.t)
	for i := range a.s {
		if types[i].IsSampler() {
			out.s[i] = a.s[i]
			continue
		}
		out.s[i] = l.vop(ir.CND, int(types[i].Rows), c, a.s[i], b.s[i])
	}
	return out
}

// store writes v to lv: plainly when unconditional (or when plain is
// set), else through CND with the current predicate.
func (l *lowerer) store(lv lval, v val, plain bool) {
	p := pred{st: always}
	if !plain {
		p = l.predicate()
	}
	if p.st == never {
		return
	}
	for _, a := range lv.alts {
		pa := p
		if a.cond != nil {
			c := splatX(*a.cond)
			if x, ok := l.litScalar(c); ok {
				if x <= 0.5 {
					continue
				}
			} else if pa.st == dynamic {
				pa = pred{src: splatX(l.vop(ir.MUL, 1, l.predValue(pa), c)), st: dynamic}
			} else {
				pa = pred{src: c, st: dynamic}
			}
		}
		for i, s := range a.slots {
			if s.reg.File == ir.None {
				continue
			}
			if s.reg.File != ir.Temp {
				l.failf(glsl.Pos{}, "cannot write %s", s.reg)
			}
			l.track(s.reg, s.comps, v.s[i], pa.st == always && len(lv.alts) == 1)
			src := v.s[i]
			var mask ir.Mask
			sw := ir.Splat(src.Swz[0])
			for k, rc := range s.comps {
				mask |= 1 << rc
				sw[rc] = src.Swz[k]
			}
			src.Swz = sw
			dst := ir.Dst{Reg: s.reg, Mask: mask}
			if pa.st == always {
				l.emit(ir.Inst{Op: ir.MOV, Dst: dst, Src: [3]ir.Src{src}})
			} else {
				if pa.neg {
					l.emit(ir.Inst{Op: ir.CND, Dst: dst, Src: [3]ir.Src{pa.src, ir.S(s.reg), src}})
				} else {
					l.emit(ir.Inst{Op: ir.CND, Dst: dst, Src: [3]ir.Src{pa.src, src, ir.S(s.reg)}})
				}
			}
		}
	}
}

// snap copies a value into fresh temporaries (so later writes to the
// registers it reads do not change it). Literals and constants stay.
func (l *lowerer) snap(v val) val {
	out := val{t: v.t, s: make([]ir.Src, len(v.s))}
	types := slotTypes(v.t)
	for i, s := range v.s {
		if s.File != ir.Temp {
			out.s[i] = s
			continue
		}
		out.s[i] = l.vop(ir.MOV, int(types[i].Rows), s)
	}
	return out
}

// vop emits a component-wise or dot-product operation over the first n
// components into a new temporary, folding literal operands.
func (l *lowerer) vop(op ir.Op, n int, src ...ir.Src) ir.Src {
	if v, ok := l.fold(op, n, src); ok {
		return v
	}
	if n > 1 && op.Info().Kind == ir.CompWise && l.replicated(n, src...) {
		// The same value in every component (scalars broadcast to a
		// vector): compute it once.
		one := make([]ir.Src, len(src))
		for k, s := range src {
			one[k] = splatX(s)
		}
		return splatX(l.vop(op, 1, one...))
	}
	r := l.temp()
	in := ir.Inst{Op: op, Dst: ir.Dst{Reg: r, Mask: maskN(n)}}
	copy(in.Src[:], src)
	l.emit(in)
	return ir.S(r)
}

// replicated reports whether every operand has one value in its first n
// components: a replicating swizzle, or a literal with equal components.
func (l *lowerer) replicated(n int, src ...ir.Src) bool {
	for _, s := range src {
		same := true
		for c := 1; c < n; c++ {
			same = same && s.Swz[c] == s.Swz[0]
		}
		if same {
			continue
		}
		x, ok := l.litComp(s, 0)
		for c := 1; c < n && ok; c++ {
			y, ok2 := l.litComp(s, c)
			ok = ok2 && x == y
		}
		if !ok {
			return false
		}
	}
	return true
}

// sop emits a scalar operation (RCP, RSQ, EX2, LG2, POW, SIN, COS) per
// component.
func (l *lowerer) sop(op ir.Op, n int, src ...ir.Src) ir.Src {
	if n > 1 && l.replicated(n, src...) {
		one := make([]ir.Src, len(src))
		for k, s := range src {
			one[k] = splatX(s)
		}
		return splatX(l.sop(op, 1, one...))
	}
	r := l.temp()
	for i := 0; i < n; i++ {
		var s [3]ir.Src
		for k := range src {
			s[k] = comp(src[k], i)
		}
		if v, ok := l.fold(op, 1, s[:len(src)]); ok {
			l.emit(ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: r, Mask: 1 << i}, Src: [3]ir.Src{v}})
			continue
		}
		l.emit(ir.Inst{Op: op, Dst: ir.Dst{Reg: r, Mask: 1 << i}, Src: s})
	}
	return ir.S(r)
}

// fold evaluates an operation whose operands are literals (float32
// arithmetic, as the CPU vertex path; the fragment unit would round to
// FP24, which this is at least as precise as).
func (l *lowerer) fold(op ir.Op, n int, src []ir.Src) (ir.Src, bool) {
	info := op.Info()
	if info.Kind == ir.Texture || info.Kind == ir.Kill {
		return ir.Src{}, false
	}
	round := func(x float64) float32 { return float32(x) }
	var out [4]float32
	get := func(k, c int) (float64, bool) { return l.litComp(src[k], c) }
	switch info.Kind {
	case ir.Dot:
		var a, b [4]float64
		for c := 0; c < info.Width; c++ {
			x, ok1 := get(0, c)
			y, ok2 := get(1, c)
			if !ok1 || !ok2 {
				return ir.Src{}, false
			}
			a[c], b[c] = x, y
		}
		if op == ir.DPH {
			a[3] = 1
		}
		sum := 0.0
		for c := 0; c < info.Width; c++ {
			sum += a[c] * b[c]
		}
		r := round(sum)
		out = [4]float32{r, r, r, r}
	default:
		for c := 0; c < n; c++ {
			var x [3]float64
			for k := 0; k < info.NumSrc; k++ {
				v, ok := get(k, c)
				if !ok {
					return ir.Src{}, false
				}
				x[k] = v
			}
			out[c] = round(info.Eval(x[0], x[1], x[2], round))
		}
		for c := n; c < 4; c++ {
			out[c] = out[n-1]
		}
	}
	return l.lit(out[:]...), true
}

// constVal turns a folded constant into a value.
func (l *lowerer) constVal(c glsl.Value) val {
	types := slotTypes(c.Type)
	v := val{t: c.Type, s: make([]ir.Src, len(types))}
	k := 0
	for i, t := range types {
		n := int(t.Rows)
		q := make([]float32, n)
		for j := range q {
			q[j] = float32(c.C[k+j])
		}
		k += n
		v.s[i] = l.lit(q...)
	}
	return v
}
