package lower

import (
	"github.com/retrogl/retrogl/compiler/ir"
)

// Arithmetic rewrites on the lowered program, after ir.Optimize. They
// change where results are rounded (a sum of products becomes a dot
// product, a product and a sum a MAD: one rounding instead of several),
// as GLSL allows and as every GPU compiler does; the program that results
// is the reference a back end's output is checked against bit for bit.
//
//   - cse: an instruction computing what an earlier one computed (same
//     operation on operands that still hold the same values) becomes a
//     copy of the earlier result.
//   - dots: a sum of scalar products of components of the same two
//     registers, a.x·b.y + a.z·b.w + ..., becomes a dot product over
//     swizzles (error_sq = r[0]·r[0] + r[1]·r[1] + ... in piglit's matrix
//     tests), the rest of the sum a chain of MAD and ADD.
//   - contract: a product used once, by a sum or by an ordering
//     comparison, fuses with it: a·b + c is MAD a, b, c; a·b >= c is
//     MAD a, b, -c >= 0.
func optimize(p *ir.Program) {
	for i := 0; i < 4; i++ {
		changed := cse(p)
		changed = dots(p) || changed
		changed = contract(p) || changed
		if !changed {
			break
		}
		ir.Optimize(p, nil)
	}
}

// flow is the def-use view of a program: per source operand and swizzle
// position, the instruction whose write reaches it, and per instruction
// how many operands read its result.
type flow struct {
	p     *ir.Program
	reach [][3][4]int
	uses  []int
}

func analyse(p *ir.Program) *flow {
	f := &flow{p: p, reach: make([][3][4]int, len(p.Insts)), uses: make([]int, len(p.Insts))}
	last := make([][4]int, p.NumTemps())
	for t := range last {
		last[t] = [4]int{-1, -1, -1, -1}
	}
	for i := range p.Insts {
		in := &p.Insts[i]
		info := in.Op.Info()
		for k := 0; k < 3; k++ {
			f.reach[i][k] = [4]int{-1, -1, -1, -1}
			if k >= info.NumSrc || in.Src[k].File != ir.Temp {
				continue
			}
			seen := map[int]bool{}
			rm := in.ReadMask(k)
			for c := 0; c < 4; c++ {
				if !rm.Has(c) || in.Src[k].Swz[c] >= 4 {
					continue
				}
				d := last[in.Src[k].Index][in.Src[k].Swz[c]]
				f.reach[i][k][c] = d
				if d >= 0 && !seen[d] {
					seen[d] = true
					f.uses[d]++
				}
			}
		}
		if info.Kind != ir.Kill && in.Dst.File == ir.Temp {
			for c := 0; c < 4; c++ {
				if in.Dst.Mask.Has(c) {
					last[in.Dst.Index][c] = i
				}
			}
		}
	}
	return f
}

// def returns the one instruction whose result source k of instruction i
// reads at every position it reads a register component, or -1.
func (f *flow) def(i, k int) int {
	d := -1
	in := &f.p.Insts[i]
	rm := in.ReadMask(k)
	for c := 0; c < 4; c++ {
		if !rm.Has(c) || in.Src[k].Swz[c] >= 4 {
			continue
		}
		r := f.reach[i][k][c]
		if r < 0 || d >= 0 && r != d {
			return -1
		}
		d = r
	}
	return d
}

// unchanged reports whether no instruction strictly between i and j
// writes components m of register r.
func (f *flow) unchanged(i, j int, r ir.Reg, m ir.Mask) bool {
	if r.File != ir.Temp {
		return true
	}
	for k := i + 1; k < j; k++ {
		in := &f.p.Insts[k]
		if in.Op.Info().Kind != ir.Kill && in.Dst.Reg == r && in.Dst.Mask&m != 0 {
			return false
		}
	}
	return true
}

// srcsUnchanged reports whether the operands of instruction i hold the
// same values at instruction j.
func (f *flow) srcsUnchanged(i, j int) bool {
	in := &f.p.Insts[i]
	for k := 0; k < in.Op.Info().NumSrc; k++ {
		if !f.unchanged(i, j, in.Src[k].Reg, in.SrcChannels(k)) {
			return false
		}
	}
	return true
}

// cse turns recomputations into copies.
func cse(p *ir.Program) bool {
	f := analyse(p)
	changed := false
	for j := range p.Insts {
		b := &p.Insts[j]
		info := b.Op.Info()
		if info.Kind == ir.Kill || b.Dst.File != ir.Temp {
			continue
		}
		for i := j - 1; i >= 0; i-- {
			a := &p.Insts[i]
			if a.Op != b.Op || a.Src != b.Src || a.Sat != b.Sat || a.Unit != b.Unit || a.Target != b.Target || a.Dst.File != ir.Temp {
				continue
			}
			// Component-wise results must cover b's components in place;
			// dot products and scalars are replicated, any one will do.
			var sw ir.Swizzle
			switch info.Kind {
			case ir.CompWise, ir.Texture:
				if b.Dst.Mask&^a.Dst.Mask != 0 {
					continue
				}
				sw = ir.Identity
			default:
				c := 0
				for !a.Dst.Mask.Has(c) {
					c++
				}
				sw = ir.Splat(uint8(c))
			}
			if !f.srcsUnchanged(i, j) || !f.unchanged(i, j, a.Dst.Reg, a.Dst.Mask) || a.Dst.Reg == a.Src[0].Reg || a.Dst.Reg == a.Src[1].Reg || a.Dst.Reg == a.Src[2].Reg {
				continue
			}
			*b = ir.Inst{Op: ir.MOV, Dst: b.Dst, Src: [3]ir.Src{{Reg: a.Dst.Reg, Swz: sw}}}
			changed = true
			break
		}
	}
	return changed
}

// product is one term of a sum: sign·a·b (a product of two components)
// or sign·v (any other value).
type term struct {
	neg    bool
	isProd bool
	a, b   ir.Src // scalars in Swz[0]
	v      ir.Src
	// from is the MUL instruction, whose operands must be unchanged where
	// the sum is rebuilt.
	from int
}

// scalarSrc returns s reading its component at position c, replicated.
func scalarSrc(s ir.Src, c int) ir.Src {
	s.Swz = ir.Splat(s.Swz[c])
	return s
}

// isScalar reports whether instruction i writes one component.
func isScalar(in *ir.Inst) bool {
	m := in.Dst.Mask
	return in.Dst.File == ir.Temp && m != 0 && m&(m-1) == 0
}

// terms flattens the sum read by source k of instruction i (position 0)
// into its terms, following scalar ADDs and MULs used only there.
func (f *flow) terms(i, k int, neg bool, out *[]term, inner *[]int) {
	in := &f.p.Insts[i]
	s := scalarSrc(in.Src[k], 0)
	if s.Neg {
		neg = !neg
	}
	d := f.def(i, k)
	if !s.Abs && s.File == ir.Temp && s.Swz[0] < 4 && d >= 0 && f.uses[d] == 1 {
		p := &f.p.Insts[d]
		if isScalar(p) && !p.Sat && p.Dst.Mask.Has(int(s.Swz[0])) {
			switch p.Op {
			case ir.ADD:
				*inner = append(*inner, d)
				f.terms(d, 0, neg, out, inner)
				f.terms(d, 1, neg, out, inner)
				return
			case ir.MUL:
				c := int(s.Swz[0])
				a, b := scalarSrc(p.Src[0], c), scalarSrc(p.Src[1], c)
				n := neg
				if a.Neg {
					a.Neg, n = false, !n
				}
				if b.Neg {
					b.Neg, n = false, !n
				}
				*out = append(*out, term{neg: n, isProd: true, a: a, b: b, from: d})
				return
			}
		}
	}
	s.Neg = false
	*out = append(*out, term{neg: neg, v: s, from: -1})
}

// rewrite replaces instructions by sequences (built against the program
// before the change) and renumbers nothing: fresh temps come from next.
type rewrite struct {
	p    *ir.Program
	at   map[int][]ir.Inst
	next int
}

func newRewrite(p *ir.Program) *rewrite {
	return &rewrite{p: p, at: map[int][]ir.Inst{}, next: p.NumTemps()}
}

func (w *rewrite) temp() ir.Reg {
	w.next++
	return ir.Reg{File: ir.Temp, Index: w.next - 1}
}

// apply splices the sequences in; it reports whether there were any.
func (w *rewrite) apply() bool {
	if len(w.at) == 0 {
		return false
	}
	var out []ir.Inst
	for i, in := range w.p.Insts {
		if s, ok := w.at[i]; ok {
			out = append(out, s...)
			continue
		}
		out = append(out, in)
	}
	w.p.Insts = out
	return true
}

// dots rebuilds sums of scalar products with dot products.
func dots(p *ir.Program) bool {
	f := analyse(p)
	w := newRewrite(p)
	claimed := map[int]bool{}
	for j := len(p.Insts) - 1; j >= 0; j-- {
		in := &p.Insts[j]
		if m := in.Dst.Mask; in.Op != ir.ADD || m == 0 || m&(m-1) != 0 || claimed[j] {
			continue
		}
		var ts []term
		var inner []int
		f.terms(j, 0, false, &ts, &inner)
		f.terms(j, 1, false, &ts, &inner)
		// Group products by sign and registers (modifiers included).
		type key struct {
			neg  bool
			a, b ir.Src
		}
		keyOf := func(t term) key {
			a, b := t.a, t.b
			a.Swz, b.Swz = ir.Swizzle{}, ir.Swizzle{}
			if b.Reg.File < a.Reg.File || b.Reg.File == a.Reg.File && b.Reg.Index < a.Reg.Index {
				a, b = b, a
			}
			return key{t.neg, a, b}
		}
		groups := map[key][]int{}
		var order []key
		for n, t := range ts {
			if !t.isProd || !f.srcsUnchanged(t.from, j) || t.a.Swz[0] >= 4 || t.b.Swz[0] >= 4 {
				continue
			}
			k := keyOf(t)
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], n)
		}
		used := map[int]bool{}
		var seq []ir.Inst
		var acc ir.Src
		have := false
		emit := func(op ir.Op, srcs ...ir.Src) {
			r := w.temp()
			in := ir.Inst{Op: op, Dst: ir.Dst{Reg: r, Mask: 1}}
			copy(in.Src[:], srcs)
			seq = append(seq, in)
			acc, have = ir.Src{Reg: r, Swz: ir.Splat(0)}, true
		}
		for _, k := range order {
			g := groups[k]
			for len(g) >= 2 {
				n := min(len(g), 4)
				chunk := g[:n]
				g = g[n:]
				a, b := k.a, k.b
				a.Swz, b.Swz = ir.Splat(ir.SwzZero), ir.Splat(ir.SwzZero)
				a.Neg = k.neg
				for pos, ti := range chunk {
					ta, tb := ts[ti].a, ts[ti].b
					if ta.Reg != k.a.Reg || ta.Abs != k.a.Abs {
						ta, tb = tb, ta
					}
					a.Swz[pos], b.Swz[pos] = ta.Swz[0], tb.Swz[0]
					used[ti] = true
				}
				prev, had := acc, have
				emit([...]ir.Op{2: ir.DP2, 3: ir.DP3, 4: ir.DP4}[n], a, b)
				if had {
					emit(ir.ADD, prev, acc)
				}
			}
		}
		if len(seq) == 0 {
			continue
		}
		// The other terms: products as MADs, values as ADDs.
		for n, t := range ts {
			if used[n] {
				continue
			}
			if t.isProd && f.srcsUnchanged(t.from, j) {
				a := t.a
				a.Neg = t.neg
				emit(ir.MAD, a, t.b, acc)
				continue
			}
			v := t.v
			if t.isProd {
				// Operands changed since the product: read its result.
				v = ir.Src{Reg: p.Insts[t.from].Dst.Reg, Swz: ir.Splat(uint8(firstComp(p.Insts[t.from].Dst.Mask)))}
			}
			v.Neg = t.neg
			emit(ir.ADD, acc, v)
		}
		last := &seq[len(seq)-1]
		last.Dst, last.Sat = in.Dst, in.Sat
		for _, d := range inner {
			claimed[d] = true
		}
		w.at[j] = seq
	}
	return w.apply()
}

func firstComp(m ir.Mask) int {
	c := 0
	for !m.Has(c) {
		c++
	}
	return c
}

// contract fuses products used once into the sums and ordering
// comparisons that read them.
func contract(p *ir.Program) bool {
	f := analyse(p)
	w := newRewrite(p)
	for j := range p.Insts {
		in := p.Insts[j]
		switch in.Op {
		case ir.ADD:
		case ir.SLT, ir.SGE:
			if in.Sat || in.Dst.File != ir.Temp {
				continue
			}
		default:
			continue
		}
		for k := 0; k < 2; k++ {
			x := in.Src[k]
			d := f.def(j, k)
			if x.Abs || x.File != ir.Temp || d < 0 || f.uses[d] != 1 {
				continue
			}
			m := &p.Insts[d]
			if m.Op != ir.MUL || m.Sat || m.Dst.Reg != x.Reg || !f.srcsUnchanged(d, j) {
				continue
			}
			a, b := m.Src[0], m.Src[1]
			rm := in.ReadMask(k)
			ok := true
			for c := 0; c < 4; c++ {
				if !rm.Has(c) {
					continue
				}
				switch s := x.Swz[c]; s {
				case ir.SwzZero, ir.SwzOne:
					a.Swz[c], b.Swz[c] = s, s
				default:
					ok = ok && m.Dst.Mask.Has(int(s))
					a.Swz[c], b.Swz[c] = m.Src[0].Swz[s], m.Src[1].Swz[s]
				}
			}
			if !ok {
				continue
			}
			if x.Neg {
				a.Neg = !a.Neg
			}
			other := in.Src[1-k]
			if in.Op == ir.ADD {
				w.at[j] = []ir.Inst{{Op: ir.MAD, Dst: in.Dst, Src: [3]ir.Src{a, b, other}, Sat: in.Sat}}
				break
			}
			// x >= y is x - y >= 0 and x < y is x - y < 0: the product
			// minus the other operand (or the other operand minus the
			// product), compared with 0.
			if k == 0 {
				other.Neg = !other.Neg
			} else {
				a.Neg = !a.Neg
			}
			t := w.temp()
			zero := ir.Src{Reg: ir.Reg{File: ir.Const, Index: p.Literal([4]float32{})}, Swz: ir.Identity}
			w.at[j] = []ir.Inst{
				{Op: ir.MAD, Dst: ir.Dst{Reg: t, Mask: in.Dst.Mask}, Src: [3]ir.Src{a, b, other}},
				{Op: in.Op, Dst: in.Dst, Src: [3]ir.Src{{Reg: t, Swz: ir.Identity}, zero}},
			}
			break
		}
	}
	return w.apply()
}
