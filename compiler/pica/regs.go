package pica

import (
	"math"
	"sort"

	hp "github.com/retrogl/retrogl/hal/pica"
)

// litReg is a literal constant register being packed.
type litReg struct {
	slot int
	vals []uint32 // float32 bits of the values held, in component order
}

// consts assigns the float uniform registers (the "consts" pass): every
// uniform its own register, read as (x, y, z, w); literal operands packed
// four values to a register, each lane selecting the component that holds
// its value. A program that reads constants relatively keeps the IR's
// constant indices (constant i is c<i>), literals following.
func (c *comp) consts() error {
	uni := map[string]int{}
	relative := false
	for i := range c.insts {
		for k := 0; k < c.insts[i].n; k++ {
			relative = relative || c.insts[i].src[k].reg.file == fRel
		}
	}
	if relative {
		for i, k := range c.p.Consts {
			if k.Uniform != "" {
				c.cslots = append(c.cslots, ConstSlot{Uniform: [4]string{k.Uniform, k.Uniform, k.Uniform, k.Uniform}, Comp: [4]int{0, 1, 2, 3}})
				if _, ok := uni[k.Uniform]; !ok {
					uni[k.Uniform] = i
				}
			} else {
				c.cslots = append(c.cslots, ConstSlot{Value: k.Value})
			}
		}
	}
	var lits []*litReg
	for i := range c.insts {
		in := &c.insts[i]
		for k := 0; k < in.n; k++ {
			s := &in.src[k]
			switch s.reg.file {
			case fRel:
				s.reg.file = fConst
			case fUni:
				name := c.p.Consts[s.reg.index].Uniform
				slot, ok := uni[name]
				if !ok {
					slot = len(c.cslots)
					c.cslots = append(c.cslots, ConstSlot{Uniform: [4]string{name, name, name, name}, Comp: [4]int{0, 1, 2, 3}})
					uni[name] = slot
				}
				s.reg = reg{fConst, slot}
			case fLit:
				lanes := in.lanes(k) & s.litMask
				if lanes == 0 {
					lanes = s.litMask
				}
				var need []uint32
				for l := 0; l < 4; l++ {
					if lanes>>l&1 != 0 {
						if b := math.Float32bits(s.lit[l]); !contains(need, b) {
							need = append(need, b)
						}
					}
				}
				r := pickLit(lits, need)
				if r == nil {
					r = &litReg{slot: len(c.cslots)}
					c.cslots = append(c.cslots, ConstSlot{})
					lits = append(lits, r)
				}
				for _, b := range need {
					if !contains(r.vals, b) {
						c.cslots[r.slot].Value[len(r.vals)] = math.Float32frombits(b)
						r.vals = append(r.vals, b)
					}
				}
				for l := 0; l < 4; l++ {
					s.swz[l] = 0
					if lanes>>l&1 == 0 {
						continue
					}
					for j, b := range r.vals {
						if b == math.Float32bits(s.lit[l]) {
							s.swz[l] = uint8(j)
						}
					}
				}
				s.reg, s.neg, s.litMask = reg{fConst, r.slot}, false, 0
			}
		}
	}
	if n := len(c.cslots); n > MaxConsts {
		return &LimitError{"float uniforms", n, MaxConsts}
	}
	return nil
}

func contains(s []uint32, x uint32) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// pickLit returns the literal register that already holds the most of
// need and has room for the rest, or nil.
func pickLit(lits []*litReg, need []uint32) *litReg {
	var best *litReg
	bestMiss := 5
	for _, r := range lits {
		miss := 0
		for _, b := range need {
			if !contains(r.vals, b) {
				miss++
			}
		}
		if len(r.vals)+miss <= 4 && miss < bestMiss {
			best, bestMiss = r, miss
		}
	}
	return best
}

// legalize gives every instruction at most one constant register, in the
// format's 7-bit operand slot (the "legalize" pass): commutative operands
// swap, SGE/SLT/DPH/MAD take their SGEI/SLTI/DPHI/MADI forms when the
// constant is the other operand, and any further constant moves into a
// temporary first.
func (c *comp) legalize() error {
	var out []inst
	for _, in := range c.insts {
		if in.flow != flowNone {
			out = append(out, in)
			continue
		}
		isC := func(k int) bool { return in.src[k].reg.file == fConst }
		mov := func(k int) {
			t := c.temp()
			m := regSrc(in.src[k].reg)
			m.rel, m.relComp = in.src[k].rel, in.src[k].relComp
			ch := in.chans(k)
			out = append(out, inst{op: hp.OpMOV, dst: t, mask: ch, src: [3]src{m}, n: 1})
			c.movs++
			in.src[k].reg, in.src[k].rel = t, false
		}
		switch in.op {
		case hp.OpADD, hp.OpMUL, hp.OpMAX, hp.OpMIN, hp.OpDP3, hp.OpDP4:
			if isC(1) {
				if !isC(0) {
					in.src[0], in.src[1] = in.src[1], in.src[0]
				} else {
					mov(1)
				}
			}
		case hp.OpSGE, hp.OpSLT, hp.OpDPH:
			if isC(1) {
				if isC(0) {
					mov(1)
				} else {
					in.op = map[hp.Opcode]hp.Opcode{hp.OpSGE: hp.OpSGEI, hp.OpSLT: hp.OpSLTI, hp.OpDPH: hp.OpDPHI}[in.op]
				}
			}
		case hp.OpMAD:
			// Keep one constant (a relative one if any), move the rest.
			keep := -1
			for k := 0; k < 3; k++ {
				if isC(k) && (keep < 0 || (in.src[k].rel && !in.src[keep].rel)) {
					keep = k
				}
			}
			for k := 0; k < 3; k++ {
				if k != keep && isC(k) {
					mov(k)
				}
			}
			switch keep {
			case 0:
				in.src[0], in.src[1] = in.src[1], in.src[0]
			case 2:
				in.op = hp.OpMADI
			}
		}
		out = append(out, in)
	}
	c.insts = out
	return nil
}

// loopSpans returns, per marker index of c.insts, the matching one.
func (c *comp) loopSpans() map[int]int {
	m := map[int]int{}
	var open []int
	for i, in := range c.insts {
		switch in.flow {
		case flowBegin:
			open = append(open, i)
		case flowEnd:
			b := open[len(open)-1]
			open = open[:len(open)-1]
			m[b], m[i] = i, b
		}
	}
	return m
}

// dce removes instructions whose results nothing reads (the "dce" pass).
// What a loop body's start needs is needed at its end (the next
// iteration), what follows a loop before it (no iteration): the liveness
// is iterated until it settles.
func (c *comp) dce() error {
	spans := c.loopSpans()
	cp := func(m map[reg]uint8) map[reg]uint8 {
		o := make(map[reg]uint8, len(m))
		for k, v := range m {
			o[k] = v
		}
		return o
	}
	merge := func(a, b map[reg]uint8) {
		for k, v := range b {
			a[k] |= v
		}
	}
	same := func(a, b map[reg]uint8) bool {
		if len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if b[k] != v {
				return false
			}
		}
		return true
	}
	bodyStart := map[int]map[reg]uint8{}
	afterEnd := map[int]map[reg]uint8{}
	keep := make([]bool, len(c.insts))
	for round := 0; round < 32; round++ {
		live := map[reg]uint8{}
		settled := true
		for i := len(c.insts) - 1; i >= 0; i-- {
			in := &c.insts[i]
			switch in.flow {
			case flowEnd:
				afterEnd[i] = cp(live)
				merge(live, bodyStart[i])
				keep[i] = true
				continue
			case flowBegin:
				e := spans[i]
				if old, ok := bodyStart[e]; !ok || !same(old, live) {
					settled = false
					bodyStart[e] = cp(live)
				}
				merge(live, afterEnd[e])
				keep[i] = true
				continue
			}
			keep[i] = false
			switch in.dst.file {
			case fTemp, fAddr:
				if live[in.dst]&in.mask == 0 {
					continue
				}
				live[in.dst] &^= in.mask
			}
			keep[i] = true
			for k := 0; k < in.n; k++ {
				s := in.src[k]
				if s.reg.file == fTemp {
					live[s.reg] |= in.chans(k)
				}
				if s.rel {
					live[reg{fAddr, 0}] |= 1 << s.relComp
				}
			}
		}
		if settled {
			break
		}
	}
	var out []inst
	for i, in := range c.insts {
		if keep[i] {
			out = append(out, in)
		}
	}
	c.insts = out
	return nil
}

// fillOutputs writes (0, 0, 0, 0) to every listed output the program
// never writes (the "outputs" pass).
func (c *comp) fillOutputs() error {
	written := map[int]bool{}
	for _, in := range c.insts {
		if in.flow == flowNone && in.dst.file == fOut {
			written[in.dst.index] = true
		}
	}
	for k := range c.opts.Outputs {
		if !written[k] {
			c.emit1(hp.OpMOV, reg{fOut, k}, 15, litSrc(0))
		}
	}
	return nil
}

// zeroInit writes 0 at the start to every temporary component the
// program reads before writing it (the "zeroinit" pass): the IR's
// temporaries start at zero, the unit's hold what the last vertex left.
func (c *comp) zeroInit() error {
	written := map[reg]uint8{}
	need := map[reg]uint8{}
	var order []reg
	for p := range c.insts {
		in := &c.insts[p]
		if in.flow != flowNone {
			continue
		}
		for k := 0; k < in.n; k++ {
			r := in.src[k].reg
			if r.file != fTemp {
				continue
			}
			if m := in.chans(k) &^ written[r]; m != 0 {
				if need[r] == 0 {
					order = append(order, r)
				}
				need[r] |= m
			}
		}
		if in.dst.file == fTemp {
			written[in.dst] |= in.mask
		}
	}
	var pre []inst
	for _, r := range order {
		pre = append(pre, inst{op: hp.OpMOV, dst: r, mask: need[r], src: [3]src{litSrc(0)}, n: 1})
	}
	c.insts = append(pre, c.insts...)
	return nil
}

// regalloc assigns the virtual temporaries to the 16 temporaries (the
// "regalloc" pass). A value lives from its first write to its last read
// (reads at 2p, writes at 2p+1 of instruction p); values whose components
// do not overlap may share a register; a value a loop body carries from
// one iteration to the next, or reads from before the loop, lives through
// the whole loop.
func (c *comp) regalloc() error {
	type val struct {
		start, end int
		comps      uint8
		written    uint8
		phys       int
	}
	vals := map[int]*val{}
	get := func(r reg, pos int) *val {
		v := vals[r.index]
		if v == nil {
			v = &val{start: pos, end: pos, phys: -1}
			vals[r.index] = v
		}
		return v
	}
	for p := range c.insts {
		in := &c.insts[p]
		if in.flow != flowNone {
			continue
		}
		for k := 0; k < in.n; k++ {
			if in.src[k].reg.file != fTemp {
				continue
			}
			v := get(in.src[k].reg, 2*p)
			ch := in.chans(k)
			if ch&^v.written != 0 {
				v.start = -1
			}
			v.end = max(v.end, 2*p)
			v.comps |= ch
		}
		if in.dst.file == fTemp {
			v := get(in.dst, 2*p+1)
			v.written |= in.mask
			v.end = max(v.end, 2*p+1)
			v.comps |= in.mask
		}
	}
	spans := c.loopSpans()
	for b, e := range spans {
		if c.insts[b].flow != flowBegin {
			continue
		}
		firstRead, firstWrite := map[int]int{}, map[int]int{}
		for p := b + 1; p < e; p++ {
			in := &c.insts[p]
			if in.flow != flowNone {
				continue
			}
			for k := 0; k < in.n; k++ {
				if in.src[k].reg.file == fTemp {
					if _, ok := firstRead[in.src[k].reg.index]; !ok {
						firstRead[in.src[k].reg.index] = p
					}
				}
			}
			if in.dst.file == fTemp {
				if _, ok := firstWrite[in.dst.index]; !ok {
					firstWrite[in.dst.index] = p
				}
			}
		}
		for idx, r := range firstRead {
			v := vals[idx]
			w, written := firstWrite[idx]
			if v.start < 2*b || !written || r <= w {
				v.start = min(v.start, 2*b)
				v.end = max(v.end, 2*e+1)
			}
		}
	}
	order := make([]int, 0, len(vals))
	for k := range vals {
		order = append(order, k)
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := vals[order[i]], vals[order[j]]
		if a.start != b.start {
			return a.start < b.start
		}
		return order[i] < order[j]
	})
	var byPhys [][]*val
	for _, k := range order {
		v := vals[k]
		for r := 0; ; r++ {
			if r == len(byPhys) {
				byPhys = append(byPhys, nil)
			}
			ok := true
			for _, o := range byPhys[r] {
				if o.comps&v.comps != 0 && o.start <= v.end && v.start <= o.end {
					ok = false
					break
				}
			}
			if ok {
				v.phys = r
				byPhys[r] = append(byPhys[r], v)
				break
			}
		}
	}
	if n := len(byPhys); n > MaxTemps {
		return &LimitError{"temporaries", n, MaxTemps}
	}
	c.temps = len(byPhys)
	for p := range c.insts {
		in := &c.insts[p]
		for k := 0; k < in.n; k++ {
			if in.src[k].reg.file == fTemp {
				in.src[k].reg.index = vals[in.src[k].reg.index].phys
			}
		}
		if in.dst.file == fTemp {
			in.dst.index = vals[in.dst.index].phys
		}
	}
	return nil
}
