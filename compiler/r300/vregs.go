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
func (c *vcomp) dce() error {
	live := map[pvReg]uint8{}
	keep := make([]bool, len(c.insts))
	for i := len(c.insts) - 1; i >= 0; i-- {
		in := &c.insts[i]
		switch in.dst.file {
		case pvTemp:
			if live[in.dst]&in.we == 0 {
				continue
			}
			live[in.dst] &^= in.we
		case pvOut, pvA0:
		}
		keep[i] = true
		for k := 0; k < 3; k++ {
			if in.srcs>>k&1 != 0 && in.src[k].reg.file == pvTemp {
				live[in.src[k].reg] |= in.chans(k)
			}
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

// emit encodes the instructions (the "emit" pass).
func (c *vcomp) emit() error {
	if n := len(c.insts); n > r3.PVSMaxInsts {
		return &VertexLimitError{"instructions", n, r3.PVSMaxInsts}
	}
	v := &VertexProgram{Consts: c.cslots, Outputs: c.opts.Outputs}
	for _, in := range c.p.Inputs {
		v.Inputs = append(v.Inputs, in.Name)
	}
	for p, in := range c.insts {
		d := r3.PVSDst{Op: in.op, Math: in.math, Offset: uint8(in.dst.index), WE: in.we}
		switch in.dst.file {
		case pvOut:
			d.Type = r3.PVSDstOut
			if in.dst.index == 0 {
				v.PosValid = p
			}
		case pvA0:
			d.Type = r3.PVSDstA0
		}
		// The fallback register for constant-only operands: the first
		// real register the instruction reads, else temporary 0.
		fb := r3.PVSSrc{Type: r3.PVSSrcTemp}
		for k := 2; k >= 0; k-- {
			if in.srcs>>k&1 != 0 && in.src[k].reg.file != pvNone {
				fb = pvsOperand(in.src[k], fb)
			}
		}
		var ops [3]r3.PVSSrc
		for k := 0; k < 3; k++ {
			if in.srcs>>k&1 != 0 {
				ops[k] = pvsOperand(in.src[k], fb)
			} else {
				// Unused operands: operand A's register selecting 0
				// (Mesa's __CONST(0, ZERO)).
				base := ops[0]
				if in.srcs&1 == 0 {
					base = fb
				}
				ops[k] = r3.PVSSrc{Type: base.Type, Offset: base.Offset, AddrMode: base.AddrMode, AddrSel: base.AddrSel, Swz: [4]uint8{4, 4, 4, 4}}
			}
			if ops[k].Type == r3.PVSSrcInput {
				v.LastInput = p
			}
		}
		// Three different temporaries need the macro MAD (Mesa ei_mad).
		if !in.math && in.op == r3.VEMad && ops[0].Type == r3.PVSSrcTemp && ops[1].Type == r3.PVSSrcTemp && ops[2].Type == r3.PVSSrcTemp &&
			ops[0].Offset != ops[1].Offset && ops[0].Offset != ops[2].Offset && ops[1].Offset != ops[2].Offset {
			d.Op, d.Macro = r3.MacroMad, true
		}
		v.Code = append(v.Code, r3.PVSInst{Dst: d, Src: ops}.Encode())
	}
	v.Stats = VertexStats{Insts: len(v.Code), Temps: c.temps, Consts: len(v.Consts), Movs: c.movs}
	c.out = v
	return nil
}
