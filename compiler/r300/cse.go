package r300

import "math/bits"

// cse removes recomputations (the "cse" pass): an operation identical to
// an earlier one (same opcode, operands, pre-subtract, output modifier and
// clamp) whose operands still hold the same values is dropped and its
// readers read the earlier result. Expansions produce such repeats: SIN
// and COS of one operand (tan) share their range reduction, and the
// front end's per-component scalar operations repeat reductions.
//
// Copies go first (vcopyProp). Both results must be single-definition
// values; a component-wise result
// keeps its components (the later one's must be a subset), a dot product
// or transcendental result is the same in every component it writes.
func (c *compilation) cse() error {
	c.vcopyProp()
	u := c.usages()
	for j := range c.insts {
		b := &c.insts[j]
		if b.dead || b.op == vKIL || b.dst.file != fTemp || len(u[b.dst.idx].defs) != 1 {
			continue
		}
		for i := j - 1; i >= 0; i-- {
			a := &c.insts[i]
			if a.dead || a.op != b.op || a.dst.file != fTemp || a.dst == b.dst || len(u[a.dst.idx].defs) != 1 ||
				!c.sameOperation(a, b, i, j) {
				continue
			}
			var remap [4]uint8
			replicated := vopInfo[b.op].dot || vopInfo[b.op].scalar
			for ch := range remap {
				remap[ch] = uint8(ch)
				if replicated {
					remap[ch] = uint8(bits.TrailingZeros8(a.mask))
				}
			}
			if !replicated && b.mask&^a.mask != 0 {
				continue
			}
			if !c.renameUses(u[b.dst.idx].uses, b.dst, a.dst, remap) {
				continue
			}
			b.dead = true
			u = c.usages()
			break
		}
	}
	return nil
}

// sameOperation reports whether instructions i < j (a and b) compute the
// same values in b's components.
func (c *compilation) sameOperation(a, b *vinst, i, j int) bool {
	if a.pop != b.pop || a.omod != b.omod || a.clamp != b.clamp || a.unit != b.unit || a.target != b.target {
		return false
	}
	same := func(x, y vsrc, m uint8) bool {
		if x.ref != y.ref || x.neg != y.neg || x.abs != y.abs || x.lit != y.lit || x.srcp != y.srcp ||
			x.lit && x.val != y.val {
			return false
		}
		for ch := 0; ch < 4; ch++ {
			if m>>ch&1 != 0 && x.swz[ch] != y.swz[ch] {
				return false
			}
		}
		return x.lit || x.srcp || c.unwrittenBetween(i, j, x.ref, x.channels(m))
	}
	for k := 0; k < vopInfo[b.op].nsrc; k++ {
		if !same(a.src[k], b.src[k], b.readMask(k)) {
			return false
		}
	}
	for k := 0; k < 2 && b.pop >= 0; k++ {
		if !same(a.psrc[k], b.psrc[k], 15) {
			return false
		}
	}
	return true
}

// renameUses points the reads of from at to, component c of from read as
// component remap[c] of to. Pre-subtract sources read registers in place
// and allow no remapping.
func (c *compilation) renameUses(uses []use, from, to vref, remap [4]uint8) bool {
	identity := remap == [4]uint8{0, 1, 2, 3}
	for _, us := range uses {
		if us.k >= 3 && !identity {
			return false
		}
	}
	for i := range c.insts {
		v := &c.insts[i]
		for k := 0; k < 5; k++ {
			s := v.operand(k)
			if s == nil || s.lit || s.srcp || s.ref != from {
				continue
			}
			s.ref = to
			for ch := range s.swz {
				if s.swz[ch] < 4 {
					s.swz[ch] = remap[s.swz[ch]]
				}
			}
		}
	}
	return true
}

// vcopyProp removes copies between single-definition values: the copy's
// readers read the original (in place: a copy keeps components).
func (c *compilation) vcopyProp() {
	u := c.usages()
	for j := range c.insts {
		v := &c.insts[j]
		s := v.src[0]
		if v.dead || !v.isMov() || v.clamp || v.omod != 0 || v.dst.file != fTemp || s.lit || s.srcp || s.neg || s.abs ||
			s.ref.file != fTemp || s.ref == v.dst || !s.identity(v.mask) ||
			len(u[v.dst.idx].defs) != 1 || len(u[s.ref.idx].defs) != 1 {
			continue
		}
		c.renameUses(u[v.dst.idx].uses, v.dst, s.ref, [4]uint8{0, 1, 2, 3})
		v.dead = true
		u = c.usages()
	}
}
