package r300

import (
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// selects simplifies selections (the "select" pass). Comparisons lower to
// CMP(P, Q, cond) with literal P and Q (0 and 1 for SLT, SGE, SEQ, SNE);
// the GLSL front end's if-conversion and ?: select with CND on such
// results. Three exact rewrites, repeated until none applies:
//
//   - a literal function of a comparison is a comparison: MAD x, y, z
//     whose operands are literals or the result t = CMP(P, Q, cond)
//     becomes CMP(f(P), f(Q), cond), f evaluated as the US would (one FP24
//     rounding, then the clamp). 1 - t, the negated predicate of an else
//     branch, is the common case.
//   - a selection on a comparison selects on the comparison's condition:
//     CND(A, B, t) (t > 0.5) or CMP(A, B, t) (t >= 0) with t = CMP(P, Q,
//     cond) becomes CMP(pick(P), pick(Q), cond), pick(x) being A when the
//     consumer's test holds for x (after the consumer's modifiers) and B
//     otherwise.
//   - a selection of a selection on the same condition takes the inner
//     selection's operand: CMP(CMP(A2, B2, c), B, c) = CMP(A2, B, c), and
//     likewise for the second operand and for CND.
//
// Each needs the condition's registers unchanged between the comparison
// and its consumer; the comparisons left without readers go in dce.
func (c *compilation) selects() error {
	for changed := true; changed; {
		changed = false
		u := c.usages()
		for j := range c.insts {
			if c.insts[j].dead {
				continue
			}
			if c.boolFunc(u, j) || c.fuseSelect(u, j) || c.nestSelect(u, j) {
				changed = true
				u = c.usages()
			}
		}
	}
	c.dontCare()
	// Comparisons whose readers now read their conditions are dead; they
	// would count as uses in the pre-subtract pass.
	return c.dce()
}

// dontCare marks the positions of a selection whose two choices are equal
// (the same register component or the same known value): the condition
// is not read there (selAny), which frees it for a pre-subtract that only
// the other positions' components allow. piglit's verdict vec4(0, 1, 0,
// 1) or vec4(1, 0, 0, 1) depends on its condition in x and y only.
func (c *compilation) dontCare() {
	for i := range c.insts {
		v := &c.insts[i]
		if v.dead || v.op != vCMP && v.op != vCND || v.src[2].lit || v.src[2].srcp {
			continue
		}
		for ch := 0; ch < 4; ch++ {
			if v.mask>>ch&1 != 0 && c.sameAt(v.src[0], v.src[1], ch) {
				v.src[2].swz[ch] = selAny
			}
		}
	}
}

// valueAt returns the known value operand s has at position ch.
func (c *compilation) valueAt(s vsrc, ch int) (float64, bool) {
	var x float64
	switch {
	case s.srcp:
		return 0, false
	case s.lit:
		x = float64(s.val)
	case s.swz[ch] == selZero:
		x = 0
	case s.swz[ch] == selOne:
		x = 1
	case s.swz[ch] == selHalf:
		x = 0.5
	case s.swz[ch] < 4 && s.ref.file == fConst && c.p.Consts[s.ref.idx].Uniform == "":
		x = float64(c.p.Consts[s.ref.idx].Value[s.swz[ch]])
	default:
		return 0, false
	}
	return float64(r3.RoundFP24(applyMods(s, x))), true
}

// sameAt reports whether operands a and b have the same value at ch.
func (c *compilation) sameAt(a, b vsrc, ch int) bool {
	if x, ok := c.valueAt(a, ch); ok {
		y, ok := c.valueAt(b, ch)
		return ok && x == y
	}
	return !a.lit && !b.lit && !a.srcp && !b.srcp && a.ref == b.ref && a.neg == b.neg && a.abs == b.abs &&
		a.swz[ch] == b.swz[ch] && a.swz[ch] < 4
}

// litValue is a literal operand's value after its modifiers.
func litValue(s vsrc) float64 {
	x := float64(s.val)
	if s.abs {
		x = math.Abs(x)
	}
	if s.neg {
		x = -x
	}
	return x
}

// applyMods applies an operand's modifiers to a value it reads.
func applyMods(s vsrc, x float64) float64 {
	if s.abs {
		x = math.Abs(x)
	}
	if s.neg {
		x = -x
	}
	return x
}

// boolDef returns the comparison t = CMP(P, Q, cond) that defines the
// components of operand s read at positions m of instruction at, or -1:
// t has one definition, a CMP with literal P and Q and no pre-subtract,
// output modifier or clamp, whose condition still holds its value at at.
func (c *compilation) boolDef(u []usage, s vsrc, m uint8, at int) int {
	if s.lit || s.srcp || s.ref.file != fTemp || len(u[s.ref.idx].defs) != 1 {
		return -1
	}
	for ch := 0; ch < 4; ch++ {
		if m>>ch&1 != 0 && s.swz[ch] >= 4 {
			return -1
		}
	}
	p := u[s.ref.idx].defs[0]
	if p >= at {
		return -1
	}
	d := &c.insts[p]
	if d.op != vCMP || d.pop >= 0 || d.clamp || d.omod != 0 || !d.src[0].lit || !d.src[1].lit {
		return -1
	}
	comps := s.channels(m)
	if comps&^d.mask != 0 {
		return -1
	}
	cond := d.src[2]
	if cond.lit || cond.srcp || cond.ref.file == fNone {
		return -1
	}
	if cond.ref.file == fTemp && !c.unwrittenBetween(p, at, cond.ref, cond.channels(comps)) {
		return -1
	}
	return p
}

// condFor returns comparison p's condition as read at positions m of a
// consumer reading p's result through swizzle swz.
func (c *compilation) condFor(p int, swz [4]uint8, m uint8) vsrc {
	cond := c.insts[p].src[2]
	out := cond
	for ch := 0; ch < 4; ch++ {
		out.swz[ch] = selZero
		if m>>ch&1 != 0 {
			out.swz[ch] = cond.swz[swz[ch]]
		}
	}
	return out
}

// boolFunc rewrites a MAD of literals and one comparison result as a
// comparison.
func (c *compilation) boolFunc(u []usage, j int) bool {
	v := &c.insts[j]
	if v.op != vMAD || v.pop >= 0 || v.omod != 0 || v.dst.file != fTemp {
		return false
	}
	var t *vsrc
	for k := 0; k < 3; k++ {
		s := &v.src[k]
		if s.lit {
			continue
		}
		if s.srcp || s.ref.file != fTemp {
			return false
		}
		if t == nil {
			t = s
			continue
		}
		if s.ref != t.ref {
			return false
		}
		for ch := 0; ch < 4; ch++ {
			if v.mask>>ch&1 != 0 && s.swz[ch] != t.swz[ch] {
				return false
			}
		}
	}
	if t == nil {
		return false
	}
	p := c.boolDef(u, *t, v.mask, j)
	if p < 0 {
		return false
	}
	d := &c.insts[p]
	eval := func(x float64) float32 {
		var a [3]float64
		for k := 0; k < 3; k++ {
			if v.src[k].lit {
				a[k] = litValue(v.src[k])
			} else {
				a[k] = applyMods(v.src[k], x)
			}
		}
		r := r3.RoundFP24(a[0]*a[1] + a[2])
		if v.clamp {
			r = min(max(r, 0), 1)
		}
		return r
	}
	pv, qv := r3.RoundFP24(litValue(d.src[0])), r3.RoundFP24(litValue(d.src[1]))
	cond := c.condFor(p, t.swz, v.mask)
	v.op = vCMP
	v.src = [3]vsrc{lit(eval(float64(pv))), lit(eval(float64(qv))), cond}
	v.clamp = false
	return true
}

// fuseSelect makes a selection on a comparison's result select on the
// comparison's condition.
func (c *compilation) fuseSelect(u []usage, j int) bool {
	v := &c.insts[j]
	if v.op != vCMP && v.op != vCND || v.pop >= 0 {
		return false
	}
	p := c.boolDef(u, v.src[2], v.mask, j)
	if p < 0 {
		return false
	}
	d := &c.insts[p]
	pick := func(x float32) vsrc {
		y := applyMods(v.src[2], float64(x))
		if v.op == vCND && y > 0.5 || v.op == vCMP && y >= 0 {
			return v.src[0]
		}
		return v.src[1]
	}
	pv, qv := r3.RoundFP24(litValue(d.src[0])), r3.RoundFP24(litValue(d.src[1]))
	cond := c.condFor(p, v.src[2].swz, v.mask)
	v.src = [3]vsrc{pick(pv), pick(qv), cond}
	v.op = vCMP
	return true
}

// nestSelect replaces an operand that is a selection on the same
// condition by that selection's operand on the same side.
func (c *compilation) nestSelect(u []usage, j int) bool {
	v := &c.insts[j]
	if v.op != vCMP && v.op != vCND || v.pop >= 0 {
		return false
	}
	cond := v.src[2]
	if cond.lit || cond.srcp || cond.ref.file == fNone {
		return false
	}
	for k := 0; k < 2; k++ {
		a := v.src[k]
		if a.lit || a.srcp || a.neg || a.abs || a.ref.file != fTemp {
			continue
		}
		i := single(u, a.ref)
		if i < 0 || i >= j {
			continue
		}
		q := &c.insts[i]
		if q.op != v.op || q.pop >= 0 || q.clamp || q.omod != 0 {
			continue
		}
		qc := q.src[2]
		if qc.ref != cond.ref || qc.lit != cond.lit || qc.srcp || qc.neg != cond.neg || qc.abs != cond.abs {
			continue
		}
		inner := q.src[k]
		next := inner
		ok := true
		for ch := 0; ch < 4 && ok; ch++ {
			next.swz[ch] = selZero
			if v.mask>>ch&1 == 0 {
				continue
			}
			kk := a.swz[ch]
			if kk >= 4 || q.mask>>kk&1 == 0 || qc.swz[kk] != cond.swz[ch] {
				ok = false
				break
			}
			next.swz[ch] = inner.swz[kk]
		}
		if !ok {
			continue
		}
		if inner.lit {
			next = inner
		}
		// The condition and the inner operand must hold the values they
		// had at the inner selection.
		if cond.ref.file == fTemp && !c.unwrittenBetween(i, j, cond.ref, cond.channels(v.mask)) {
			continue
		}
		if !inner.lit && inner.ref.file == fTemp && !c.unwrittenBetween(i, j, inner.ref, next.channels(v.mask)) {
			continue
		}
		v.src[k] = next
		return true
	}
	return false
}

// unwrittenBetween reports whether no instruction strictly between i and
// j writes components m of d (so d reads the same values at both).
func (c *compilation) unwrittenBetween(i, j int, d vref, m uint8) bool {
	if d.file != fTemp {
		return true
	}
	for k := i + 1; k < j; k++ {
		v := &c.insts[k]
		if !v.dead && v.op != vKIL && v.dst == d && v.mask&m != 0 {
			return false
		}
	}
	return true
}
