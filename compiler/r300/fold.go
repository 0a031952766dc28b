package r300

import "slices"

// use names operand k of instruction inst: 0-2 the sources, 3-4 the
// pre-subtract sources.
type use struct{ inst, k int }

type usage struct {
	defs []int
	uses []use
}

// usages returns, per virtual register, its defining instructions and its
// uses, skipping dead instructions.
func (c *compilation) usages() []usage {
	u := make([]usage, c.nvreg)
	for i := range c.insts {
		v := &c.insts[i]
		if v.dead {
			continue
		}
		for k := 0; k < 5; k++ {
			s := v.operand(k)
			if s == nil || s.lit || s.srcp || s.ref.file != fTemp {
				continue
			}
			if k < 3 && v.src[k].channels(v.readMask(k)) == 0 {
				continue
			}
			u[s.ref.idx].uses = append(u[s.ref.idx].uses, use{i, k})
		}
		if v.op != vKIL && v.dst.file == fTemp {
			u[v.dst.idx].defs = append(u[v.dst.idx].defs, i)
		}
	}
	return u
}

// operand returns operand k (0-2 sources, 3-4 pre-subtract sources), or
// nil when unused.
func (v *vinst) operand(k int) *vsrc {
	if k < 3 {
		if k >= vopInfo[v.op].nsrc {
			return nil
		}
		return &v.src[k]
	}
	if v.pop < 0 || (k == 4 && v.pop == 0) || (k == 4 && v.pop == 3) {
		return nil
	}
	return &v.psrc[k-3]
}

// single returns the only definition of t if t has one definition and one
// use, else -1.
func single(u []usage, t vref) int {
	if t.file != fTemp || len(u[t.idx].defs) != 1 || len(u[t.idx].uses) != 1 {
		return -1
	}
	return u[t.idx].defs[0]
}

// identity reports whether s reads its register in place at positions m.
func (s *vsrc) identity(m uint8) bool {
	if s.lit || s.srcp {
		return false
	}
	for c := 0; c < 4; c++ {
		if m>>c&1 != 0 && s.swz[c] != uint8(c) {
			return false
		}
	}
	return true
}

func isLit(s vsrc, v float32) bool { return s.lit && s.val == v && !s.neg && !s.abs }

// isMov reports whether v is MAD x, 1, 0 (a copy).
func (v *vinst) isMov() bool {
	return v.op == vMAD && isLit(v.src[1], 1) && isLit(v.src[2], 0) && v.pop < 0
}

// clearBetween reports whether no instruction strictly between i and j
// reads or writes components m of d (so a write of d can move from j to i).
func (c *compilation) clearBetween(i, j int, d vref, m uint8) bool {
	for k := i + 1; k < j; k++ {
		v := &c.insts[k]
		if v.dead {
			continue
		}
		if v.op != vKIL && v.dst == d && v.mask&m != 0 {
			return false
		}
		for n := 0; n < 5; n++ {
			s := v.operand(n)
			if s == nil || s.lit || s.srcp || s.ref != d {
				continue
			}
			rm := uint8(15)
			if n < 3 {
				rm = v.readMask(n)
			}
			if s.channels(rm)&m != 0 {
				return false
			}
		}
	}
	return true
}

// omodCodes maps a multiplier to OMOD (L1554).
var omodCodes = map[float32]uint8{2: 1, 4: 2, 8: 3, 0.5: 4, 0.25: 5, 0.125: 6}

// omod folds MUL by 2, 4, 8, 1/2, 1/4 or 1/8 into the producer's output
// modifier (the "omod" pass).
func (c *compilation) omod() error {
	u := c.usages()
	for j := range c.insts {
		m := &c.insts[j]
		if m.dead || m.op != vMAD || m.pop >= 0 || m.omod != 0 || !isLit(m.src[2], 0) {
			continue
		}
		for _, ord := range [2][2]int{{0, 1}, {1, 0}} {
			t, k := m.src[ord[0]], m.src[ord[1]]
			code, ok := omodCodes[k.val]
			if !ok || !k.lit || k.neg || k.abs || t.lit || t.neg || t.abs || !t.identity(m.mask) {
				continue
			}
			i := single(u, t.ref)
			if i < 0 {
				continue
			}
			p := &c.insts[i]
			if vopInfo[p.op].tex || p.omod != 0 || p.clamp || p.mask != m.mask || !c.clearBetween(i, j, m.dst, m.mask) {
				continue
			}
			p.omod, p.clamp, p.dst = code, m.clamp, m.dst
			m.dead = true
			u = c.usages()
			break
		}
	}
	return nil
}

// fold removes copies: a MOV (optionally saturating or scaled) of a value
// used only there makes the value's producers write the MOV's destination
// (a temp or an output) with the clamp and output modifier (the "fold"
// pass). A value built by several producers (disjoint components) folds
// when every one of them can.
func (c *compilation) fold() error {
	u := c.usages()
	for j := range c.insts {
		m := &c.insts[j]
		if m.dead || !m.isMov() || m.src[0].neg || m.src[0].abs || m.src[0].lit || !m.src[0].identity(m.mask) {
			continue
		}
		t := m.src[0].ref
		if t.file != fTemp || len(u[t.idx].uses) != 1 || len(u[t.idx].defs) == 0 {
			continue
		}
		defs := u[t.idx].defs
		if len(defs) == 1 && vopInfo[c.insts[defs[0]].op].tex {
			// A TEX writes all four components (L1720-1727): it may take
			// over a temp copy when nothing else defines that temp.
			i := defs[0]
			p := &c.insts[i]
			if m.dst.file != fTemp || m.clamp || m.omod != 0 || len(u[m.dst.idx].defs) != 1 ||
				!c.clearBetween(i, j, m.dst, 15) {
				continue
			}
			p.dst = m.dst
			m.dead = true
			u = c.usages()
			continue
		}
		ok := true
		var covered uint8
		for _, i := range defs {
			p := &c.insts[i]
			if vopInfo[p.op].tex || p.mask&^m.mask != 0 || covered&p.mask != 0 || i > j ||
				!c.clearBetween(i, j, m.dst, p.mask) || (m.omod != 0 && (p.omod != 0 || p.clamp)) {
				ok = false
				break
			}
			covered |= p.mask
		}
		if !ok || covered != m.mask {
			continue
		}
		// Every later producer must not read the earlier ones' results
		// through t (they would read the moved destination instead).
		for _, i := range defs {
			for _, k := range defs {
				if k > i && c.reads(k, t) {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		for _, i := range defs {
			p := &c.insts[i]
			if m.omod != 0 {
				p.omod = m.omod
			}
			p.clamp = p.clamp || m.clamp
			p.dst = m.dst
		}
		m.dead = true
		u = c.usages()
	}
	return nil
}

// reads reports whether instruction i reads register t.
func (c *compilation) reads(i int, t vref) bool {
	v := &c.insts[i]
	for k := 0; k < 5; k++ {
		if s := v.operand(k); s != nil && !s.lit && !s.srcp && s.ref == t {
			return true
		}
	}
	return false
}

// presub folds a - b, a + b, 1 - b and 1 - 2b computed only for one
// consumer into the consumer's pre-subtract (SRCP_OP, L1542-1547): the
// consumer then reads srcp from its slots 0 and 1 (the "presub" pass).
func (c *compilation) presub() error {
	u := c.usages()
	for j := range c.insts {
		m := &c.insts[j]
		if m.dead || m.pop >= 0 || vopInfo[m.op].tex || vopInfo[m.op].scalar {
			continue
		}
		for k := 0; k < vopInfo[m.op].nsrc; k++ {
			t := m.src[k]
			if t.lit || t.srcp || t.ref.file != fTemp || len(u[t.ref.idx].defs) != 1 {
				continue
			}
			i := u[t.ref.idx].defs[0]
			// Every read of the value must be a source of this consumer
			// (one value read twice, as by a dot product of a difference
			// with itself, becomes srcp twice).
			var ks []int
			for _, us := range u[t.ref.idx].uses {
				if us.inst != j || us.k >= 3 {
					ks = nil
					break
				}
				ks = append(ks, us.k)
			}
			if len(ks) == 0 || i >= j {
				continue
			}
			p := &c.insts[i]
			op, s0, s1, ok := presubForm(p)
			if !ok || p.clamp || p.omod != 0 {
				continue
			}
			// srcp is computed per component from the raw slot
			// registers: the consumer's swizzle must select components
			// the sources hold in place, rgb from rgb and w from w.
			good := true
			var comps uint8
			for _, kk := range ks {
				rm := m.readMask(kk)
				for ch := 0; ch < 4; ch++ {
					if rm>>ch&1 == 0 {
						continue
					}
					sel := m.src[kk].swz[ch]
					if sel == selAny {
						continue
					}
					if sel >= 4 || (ch < 3) != (sel < 3) || p.mask>>sel&1 == 0 {
						good = false
						break
					}
					comps |= 1 << sel
				}
			}
			if !good || !s0.identity(comps) || (op == 1 || op == 2) && !s1.identity(comps) {
				continue
			}
			// The sources must still hold their values at the consumer.
			if !c.unwrittenBetween(i, j, s0.ref, comps) || (op == 1 || op == 2) && !c.unwrittenBetween(i, j, s1.ref, comps) {
				continue
			}
			if !c.slotsOK(m, ks, s0, s1, op) {
				continue
			}
			m.pop = int8(op)
			m.psrc = [2]vsrc{s0, s1}
			for _, kk := range ks {
				t := m.src[kk]
				m.src[kk] = vsrc{srcp: true, swz: t.swz, neg: t.neg, abs: t.abs}
			}
			p.dead = true
			u = c.usages()
			break
		}
	}
	return nil
}

// presubForm recognises a pre-subtract: it returns SRCP_OP and the slot 0
// and 1 sources.
func presubForm(p *vinst) (op int, s0, s1 vsrc, ok bool) {
	if p.op != vMAD || p.pop >= 0 {
		return
	}
	a, b, cc := p.src[0], p.src[1], p.src[2]
	plain := func(s vsrc) bool {
		return !s.lit && !s.srcp && !s.neg && !s.abs && s.ref.file != fOut && s.ref.file != fNone
	}
	switch {
	case isLit(b, 1) && isLit(a, 1) && cc.neg && !cc.abs && plain(vsrc{ref: cc.ref, swz: cc.swz}):
		s := cc
		s.neg = false
		return 3, s, vsrc{}, true // 1 - c
	case isLit(b, 1) && plain(a) && cc.neg && !cc.abs && !cc.lit:
		s := cc
		s.neg = false
		return 1, s, a, true // a - c
	case isLit(b, 1) && plain(a) && plain(cc):
		return 2, cc, a, true // a + c
	case isLit(b, -2) && isLit(cc, 1) && plain(a):
		return 0, a, vsrc{}, true // 1 - 2a
	}
	return
}

// slotsOK is the conservative operand-slot check for a pre-subtract: the
// consumer's other register operands and the pre-subtract sources must fit
// the three slots of a half.
func (c *compilation) slotsOK(m *vinst, ks []int, s0, s1 vsrc, op int) bool {
	regs := map[vref]bool{s0.ref: true}
	if op == 1 || op == 2 {
		regs[s1.ref] = true
	}
	var lits []int
	for n := 0; n < vopInfo[m.op].nsrc; n++ {
		sn := m.src[n]
		if slices.Contains(ks, n) || sn.lit || sn.srcp || sn.channels(m.readMask(n)) == 0 || regs[sn.ref] {
			continue
		}
		// Literal vectors read by value may share a register (see
		// limitConsts): count one per group.
		if sn.ref.file == fConst && c.p.Consts[sn.ref.idx].Uniform == "" {
			shared := false
			for _, o := range lits {
				shared = shared || c.shares(m.src[o], m.readMask(o), sn, m.readMask(n))
			}
			if shared {
				continue
			}
			lits = append(lits, n)
		}
		regs[sn.ref] = true
	}
	if len(regs) > 3 {
		return false
	}
	// At most two distinct constants per instruction (guide §3.5.1).
	n := 0
	for r := range regs {
		if r.file == fConst {
			n++
		}
	}
	return n <= 2
}

// dce removes instructions whose results are never read (the "dce" pass).
func (c *compilation) dce() error {
	for {
		u := c.usages()
		changed := false
		for i := range c.insts {
			v := &c.insts[i]
			if v.dead || v.op == vKIL || v.dst.file != fTemp {
				continue
			}
			if len(u[v.dst.idx].uses) == 0 {
				v.dead = true
				changed = true
			}
		}
		if !changed {
			return nil
		}
	}
}
