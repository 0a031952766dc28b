package r300

import (
	"math"
	"sort"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// litReg is a literal constant register being packed.
type litReg struct {
	slot int
	vals []uint32 // float32 bits of the magnitudes held, in component order
}

// consts assigns the constant registers (the "consts" pass): every uniform
// its own register, read as (x, y, z, w); the magnitudes of the literal
// operands packed four to a register, each operand's lanes selecting the
// components that hold its values, negated as needed.
func (c *vcomp) consts() error {
	uni := map[string]int{}
	var lits []*litReg
	// A relative operand reads the IR's constants by their indices: then
	// constant i of the IR is register i, and packed literals follow.
	identity := false
	for i := range c.insts {
		for k := 0; k < 3; k++ {
			identity = identity || c.insts[i].srcs>>k&1 != 0 && c.insts[i].src[k].reg.file == pvRel
		}
	}
	if identity {
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
	for i := range c.insts {
		in := &c.insts[i]
		for k := 0; k < 3; k++ {
			if in.srcs>>k&1 == 0 {
				continue
			}
			s := &in.src[k]
			switch s.reg.file {
			case pvRel:
				s.reg.file = pvConst
			case pvUni:
				name := c.p.Consts[s.reg.index].Uniform
				slot, ok := uni[name]
				if !ok {
					slot = len(c.cslots)
					c.cslots = append(c.cslots, ConstSlot{Uniform: [4]string{name, name, name, name}, Comp: [4]int{0, 1, 2, 3}})
					uni[name] = slot
				}
				s.reg = pvReg{pvConst, slot}
			case pvLit:
				var need []uint32
				for l := 0; l < 4; l++ {
					if s.litMask>>l&1 != 0 {
						m := math.Float32bits(s.lit[l]) &^ (1 << 31)
						if !containsU32(need, m) {
							need = append(need, m)
						}
					}
				}
				r := pickLitReg(lits, need)
				if r == nil {
					r = &litReg{slot: len(c.cslots)}
					c.cslots = append(c.cslots, ConstSlot{})
					lits = append(lits, r)
				}
				for _, m := range need {
					if !containsU32(r.vals, m) {
						c.cslots[r.slot].Value[len(r.vals)] = math.Float32frombits(m)
						r.vals = append(r.vals, m)
					}
				}
				for l := 0; l < 4; l++ {
					if s.litMask>>l&1 == 0 {
						continue
					}
					bits := math.Float32bits(s.lit[l])
					for j, m := range r.vals {
						if m == bits&^(1<<31) {
							s.swz[l] = uint8(j)
						}
					}
					s.neg &^= 1 << l
					if bits>>31 != 0 {
						s.neg |= 1 << l
					}
				}
				s.reg, s.abs, s.litMask = pvReg{pvConst, r.slot}, false, 0
			}
		}
	}
	if n := len(c.cslots); n > r3.PVSMaxConsts {
		return &VertexLimitError{"constants", n, r3.PVSMaxConsts}
	}
	return nil
}

func containsU32(s []uint32, x uint32) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// pickLitReg returns the literal register that holds every value of need
// or has room for the missing ones, preferring the one missing fewest.
func pickLitReg(lits []*litReg, need []uint32) *litReg {
	var best *litReg
	bestMiss := 5
	for _, r := range lits {
		miss := 0
		for _, m := range need {
			if !containsU32(r.vals, m) {
				miss++
			}
		}
		if len(r.vals)+miss <= 4 && miss < bestMiss {
			best, bestMiss = r, miss
		}
	}
	return best
}

// conflicts gives every instruction at most one input and one constant
// register (the "conflicts" pass): each further register of a file moves
// into a temporary first ([OUT] Mesa transform_source_conflicts).
func (c *vcomp) conflicts() error {
	var out []pvInst
	// An operand's register as the engine sees it: file, index and, for a
	// relative constant, the address component.
	type key struct {
		r   pvReg
		rel bool
		rc  uint8
	}
	keyOf := func(s pvSrc) key { return key{s.reg, s.rel, s.relComp} }
	for _, in := range c.insts {
		kept := map[pvFile]key{}
		for k := 0; k < 3; k++ {
			if in.srcs>>k&1 == 0 {
				continue
			}
			r := in.src[k].reg
			if r.file != pvInput && r.file != pvConst {
				continue
			}
			kk := keyOf(in.src[k])
			if first, ok := kept[r.file]; !ok {
				kept[r.file] = kk
				continue
			} else if first == kk {
				continue
			}
			t := c.temp()
			var chans uint8
			for j := 0; j < 3; j++ {
				if in.srcs>>j&1 != 0 && keyOf(in.src[j]) == kk {
					chans |= in.chans(j)
				}
			}
			if chans == 0 {
				chans = 1
			}
			mov := regSrc(r)
			mov.rel, mov.relComp = kk.rel, kk.rc
			out = append(out, pvInst{op: r3.VEMul, dst: t, we: chans, src: [3]pvSrc{mov, oneSrc()}, srcs: 3})
			c.movs++
			for j := k; j < 3; j++ {
				if in.srcs>>j&1 != 0 && keyOf(in.src[j]) == kk {
					in.src[j].reg, in.src[j].rel = t, false
				}
			}
		}
		out = append(out, in)
	}
	c.insts = out
	return nil
}

// dce removes instructions whose results nothing reads (the "dce" pass).
// What a loop body's start needs is needed at its end (the next
// iteration), what follows a loop before it (no iteration): the liveness
// is iterated until it settles.
func (c *vcomp) dce() error {
	spans := c.loopSpans()
	cp := func(m map[pvReg]uint8) map[pvReg]uint8 {
		o := make(map[pvReg]uint8, len(m))
		for k, v := range m {
			o[k] = v
		}
		return o
	}
	merge := func(a, b map[pvReg]uint8) {
		for k, v := range b {
			a[k] |= v
		}
	}
	same := func(a, b map[pvReg]uint8) bool {
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
	bodyStart := map[int]map[pvReg]uint8{}
	afterEnd := map[int]map[pvReg]uint8{}
	keep := make([]bool, len(c.insts))
	for round := 0; round < 16; round++ {
		live := map[pvReg]uint8{}
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
			if in.dst.file == pvTemp {
				if live[in.dst]&in.we == 0 {
					continue
				}
				live[in.dst] &^= in.we
			}
			keep[i] = true
			for k := 0; k < 3; k++ {
				if in.srcs>>k&1 != 0 && in.src[k].reg.file == pvTemp {
					live[in.src[k].reg] |= in.chans(k)
				}
			}
		}
		if settled {
			break
		}
	}
	var out []pvInst
	for i, in := range c.insts {
		if keep[i] {
			out = append(out, in)
		}
	}
	c.insts = out
	return nil
}

// fillOutputs writes (0, 0, 0, 0) to every output register the program
// never writes (the "outputs" pass).
func (c *vcomp) fillOutputs() error {
	written := map[int]bool{}
	for _, in := range c.insts {
		if in.dst.file == pvOut {
			written[in.dst.index] = true
		}
	}
	for k := range c.opts.Outputs {
		if !written[k] {
			c.emitV(r3.VEAdd, pvReg{pvOut, k}, 15, zeroSrc(), zeroSrc())
		}
	}
	if len(c.insts) == 0 {
		c.emitV(r3.VEAdd, pvReg{pvTemp, c.temp().index}, 1, zeroSrc(), zeroSrc())
	}
	return nil
}

// zeroInit writes 0 at the start to every temporary component the
// program reads before writing (the "zeroinit" pass): the interpreter's
// temporaries start at zero, a real PVS's hold what the last vertex left.
func (c *vcomp) zeroInit() error {
	written := map[pvReg]uint8{}
	need := map[pvReg]uint8{}
	var order []pvReg
	for p := range c.insts {
		in := &c.insts[p]
		for k := 0; k < 3; k++ {
			r := in.src[k].reg
			if in.srcs>>k&1 == 0 || r.file != pvTemp {
				continue
			}
			if m := in.chans(k) &^ written[r]; m != 0 {
				if need[r] == 0 {
					order = append(order, r)
				}
				need[r] |= m
			}
		}
		if in.dst.file == pvTemp {
			written[in.dst] |= in.we
		}
	}
	var pre []pvInst
	for _, r := range order {
		pre = append(pre, pvInst{op: r3.VEAdd, dst: r, we: need[r], src: [3]pvSrc{zeroSrc(), zeroSrc()}, srcs: 3})
	}
	c.insts = append(pre, c.insts...)
	return nil
}

// regalloc assigns the virtual temporaries to the 32 PVS temporaries (the
// "regalloc" pass). A value lives from its first write to its last read
// (reads at 2p, writes at 2p+1 of instruction p: an instruction's operands
// are read before its result is written); values whose components do not
// overlap may share a register. A value with a component read before any
// write lives from the start, where the temporaries are zero.
func (c *vcomp) regalloc() error {
	type val struct {
		start, end int
		comps      uint8
		written    uint8 // components written so far
		phys       int
	}
	vals := map[int]*val{}
	get := func(r pvReg, pos int) *val {
		v := vals[r.index]
		if v == nil {
			v = &val{start: pos, end: pos, phys: -1}
			vals[r.index] = v
		}
		return v
	}
	for p := range c.insts {
		in := &c.insts[p]
		for k := 0; k < 3; k++ {
			if in.srcs>>k&1 == 0 || in.src[k].reg.file != pvTemp {
				continue
			}
			v := get(in.src[k].reg, 2*p)
			ch := in.chans(k)
			if ch&^v.written != 0 {
				// A component read before any write: zero from the start.
				v.start = -1
			}
			v.end = max(v.end, 2*p)
			v.comps |= ch
		}
		if in.dst.file == pvTemp {
			v := get(in.dst, 2*p+1)
			v.written |= in.we
			v.end = max(v.end, 2*p+1)
			v.comps |= in.we
		}
	}
	// A value a loop body reads that was written before the loop, or that
	// the body reads before writing it (carried to the next iteration),
	// lives through the whole loop.
	spans := c.loopSpans()
	for b, e := range spans {
		if c.insts[b].flow != flowBegin {
			continue
		}
		firstRead, firstWrite := map[int]int{}, map[int]int{}
		for p := b + 1; p < e; p++ {
			in := &c.insts[p]
			for k := 0; k < 3; k++ {
				if in.srcs>>k&1 != 0 && in.src[k].reg.file == pvTemp {
					if _, ok := firstRead[in.src[k].reg.index]; !ok {
						firstRead[in.src[k].reg.index] = p
					}
				}
			}
			if in.dst.file == pvTemp {
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
	if n := len(byPhys); n > r3.PVSMaxTemps {
		return &VertexLimitError{"temporaries", n, r3.PVSMaxTemps}
	}
	c.temps = len(byPhys)
	for p := range c.insts {
		in := &c.insts[p]
		for k := 0; k < 3; k++ {
			if in.src[k].reg.file == pvTemp {
				in.src[k].reg.index = vals[in.src[k].reg.index].phys
			}
		}
		if in.dst.file == pvTemp {
			in.dst.index = vals[in.dst.index].phys
		}
	}
	return nil
}

// pvsOperand encodes an operand on a physical register.
func pvsOperand(s pvSrc, fallback r3.PVSSrc) r3.PVSSrc {
	o := r3.PVSSrc{Swz: s.swz, Neg: s.neg, Abs: s.abs}
	switch s.reg.file {
	case pvTemp:
		o.Type, o.Offset = r3.PVSSrcTemp, uint8(s.reg.index)
	case pvInput:
		o.Type, o.Offset = r3.PVSSrcInput, uint8(s.reg.index)
	case pvConst:
		o.Type, o.Offset = r3.PVSSrcConst, uint8(s.reg.index)
		if s.rel {
			o.AddrMode, o.AddrSel = r3.PVSAddrA0, s.relComp
		}
	default:
		// 0/1 selects on another operand's register, which then counts
		// once ([OUT] Mesa: "arguments with constant swizzles still
		// count as a unique temporary").
		o.Type, o.Offset, o.AddrMode, o.AddrSel = fallback.Type, fallback.Offset, fallback.AddrMode, fallback.AddrSel
	}
	return o
}

// encode returns an instruction's words.
func encode(in *pvInst) (r3.PVSInst, bool, bool) {
	d := r3.PVSDst{Op: in.op, Math: in.math, Offset: uint8(in.dst.index), WE: in.we}
	pos := false
	switch in.dst.file {
	case pvOut:
		d.Type = r3.PVSDstOut
		pos = in.dst.index == 0
	case pvA0:
		d.Type = r3.PVSDstA0
	}
	// The fallback register for constant-only operands: the first real
	// register the instruction reads, else temporary 0.
	fb := r3.PVSSrc{Type: r3.PVSSrcTemp}
	for k := 2; k >= 0; k-- {
		if in.srcs>>k&1 != 0 && in.src[k].reg.file != pvNone {
			fb = pvsOperand(in.src[k], fb)
		}
	}
	input := false
	var ops [3]r3.PVSSrc
	for k := 0; k < 3; k++ {
		if in.srcs>>k&1 != 0 {
			ops[k] = pvsOperand(in.src[k], fb)
		} else {
			// Unused operands: operand A's register selecting 0 (Mesa's
			// __CONST(0, ZERO)).
			base := ops[0]
			if in.srcs&1 == 0 {
				base = fb
			}
			ops[k] = r3.PVSSrc{Type: base.Type, Offset: base.Offset, AddrMode: base.AddrMode, AddrSel: base.AddrSel, Swz: [4]uint8{4, 4, 4, 4}}
		}
		input = input || ops[k].Type == r3.PVSSrcInput
	}
	// Three different temporaries need the macro MAD (Mesa ei_mad).
	if !in.math && in.op == r3.VEMad && ops[0].Type == r3.PVSSrcTemp && ops[1].Type == r3.PVSSrcTemp && ops[2].Type == r3.PVSSrcTemp &&
		ops[0].Offset != ops[1].Offset && ops[0].Offset != ops[2].Offset && ops[1].Offset != ops[2].Offset {
		d.Op, d.Macro = r3.MacroMad, true
	}
	return r3.PVSInst{Dst: d, Src: ops}, pos, input
}

// emit lays the code out and encodes it (the "emit" pass): the main code
// with two stubs in place of each loop and a last instruction whose JUMP
// skips the loop bodies, which follow as subroutines (vloop.go).
func (c *vcomp) emit() error {
	v := &VertexProgram{Consts: c.cslots, Outputs: c.opts.Outputs, endJump: -1}
	for _, in := range c.p.Inputs {
		v.Inputs = append(v.Inputs, in.Name)
	}
	nop := pvInst{srcs: 0, dst: pvReg{pvTemp, 0}}
	var code []pvInst
	// at maps c.insts positions to code positions; lastOf gives, for a
	// position inside a loop, the loop's last stub instruction.
	at := make([]int, len(c.insts))
	lastOf := map[int]int{}
	spans := c.loopSpans()
	type body struct{ from, to int }
	var bodies []body
	for i := 0; i < len(c.insts); i++ {
		in := c.insts[i]
		if in.flow != flowBegin {
			at[i] = len(code)
			code = append(code, in)
			continue
		}
		e := spans[i]
		var l VertexLoop
		for j := range l.stubs {
			for k := range l.stubs[j] {
				l.stubs[j][k] = len(code)
				code = append(code, nop)
			}
		}
		for j := i; j <= e; j++ {
			lastOf[j] = l.stubs[1][2]
		}
		v.Loops = append(v.Loops, l)
		bodies = append(bodies, body{i + 1, e})
		i = e
	}
	if len(bodies) > 0 {
		v.endJump = len(code)
		code = append(code, nop)
	}
	for k, b := range bodies {
		v.Loops[k].sub[0] = len(code)
		for j := b.from; j < b.to; j++ {
			at[j] = len(code)
			code = append(code, c.insts[j])
		}
		if b.to == b.from {
			code = append(code, nop) // an empty body
		}
		v.Loops[k].sub[1] = len(code) - 1
		v.Loops[k].Count = c.vloops[k].Count
	}
	if n := len(code); n > r3.PVSMaxInsts {
		return &VertexLimitError{"instructions", n, r3.PVSMaxInsts}
	}
	for i := range c.insts {
		in := &c.insts[i]
		if in.flow != flowNone {
			continue
		}
		_, pos, input := encode(in)
		p := at[i]
		if l, ok := lastOf[i]; ok {
			p = l // in a loop: its end is the last time
		}
		if pos {
			v.PosValid = p
		}
		if input {
			v.LastInput = p
		}
	}
	for i := range code {
		w, _, _ := encode(&code[i])
		v.Code = append(v.Code, w.Encode())
	}
	v.Stats = VertexStats{Insts: len(v.Code), Temps: c.temps, Consts: len(v.Consts), Movs: c.movs, Loops: len(v.Loops)}
	c.out = v
	return nil
}
