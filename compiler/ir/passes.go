package ir

// The machine-independent passes. Each returns whether it changed the
// program; back ends run them from their pass tables (compiler/r300).

// DeadCode removes instructions whose results are never used and narrows
// write masks to the components that are used. Output writes and KIL are
// the roots; an output component written twice keeps only the last write.
// In a loop, what the body's start needs is needed at its end too (the
// next iteration), and what follows the loop is needed before it (no
// iteration): the liveness is iterated until it settles.
func DeadCode(p *Program) bool {
	nt := p.NumTemps()
	ends := loopEnds(p)
	type state struct{ t, o []Mask }
	fresh := func() state {
		st := state{make([]Mask, nt), make([]Mask, len(p.Outputs))}
		for i := range st.o {
			st.o[i] = MaskXYZW
		}
		return st
	}
	cp := func(a state) state {
		return state{append([]Mask(nil), a.t...), append([]Mask(nil), a.o...)}
	}
	union := func(a *state, b state) {
		for i := range a.t {
			a.t[i] |= b.t[i]
		}
		for i := range a.o {
			a.o[i] |= b.o[i]
		}
	}
	same := func(a, b state) bool {
		for i := range a.t {
			if a.t[i] != b.t[i] {
				return false
			}
		}
		for i := range a.o {
			if a.o[i] != b.o[i] {
				return false
			}
		}
		return true
	}
	bodyStart := map[int]state{} // by endloop
	afterEnd := map[int]state{}
	keep := make([]bool, len(p.Insts))
	used := make([]Mask, len(p.Insts))
	for round := 0; round < 64; round++ {
		live := fresh()
		settled := true
		for i := len(p.Insts) - 1; i >= 0; i-- {
			in := &p.Insts[i]
			info := in.Op.Info()
			switch in.Op {
			case ENDLOOP:
				afterEnd[i] = cp(live)
				if bs, ok := bodyStart[i]; ok {
					union(&live, bs)
				}
				keep[i] = true
				continue
			case BGNLOOP:
				e := ends[i]
				if old, ok := bodyStart[e]; !ok || !same(old, live) {
					settled = false
					bodyStart[e] = cp(live)
				}
				union(&live, afterEnd[e])
			}
			keep[i] = false
			if info.Kind != Kill && info.Kind != Flow {
				var u Mask
				switch in.Dst.File {
				case Addr:
					u = in.Dst.Mask // a0 feeds relative reads: kept
				case Temp:
					u = live.t[in.Dst.Index] & in.Dst.Mask
					live.t[in.Dst.Index] &^= in.Dst.Mask
				case Output:
					u = live.o[in.Dst.Index] & in.Dst.Mask
					live.o[in.Dst.Index] &^= in.Dst.Mask
				}
				used[i] = u
				if u == 0 {
					continue
				}
			}
			keep[i] = true
			// The sources are read for the components still used.
			m := in.Dst.Mask
			if info.Kind != Kill && info.Kind != Flow {
				in.Dst.Mask = used[i]
			}
			for k := 0; k < info.NumSrc; k++ {
				if in.Src[k].File == Temp {
					live.t[in.Src[k].Index] |= in.SrcChannels(k)
				}
			}
			in.Dst.Mask = m
		}
		if settled {
			break
		}
	}
	changed := false
	for i := range p.Insts {
		in := &p.Insts[i]
		if k := in.Op.Info().Kind; keep[i] && k != Kill && k != Flow && used[i] != in.Dst.Mask {
			in.Dst.Mask = used[i]
			changed = true
		}
		if !keep[i] {
			changed = true
		}
	}
	if changed {
		out := p.Insts[:0]
		for i, in := range p.Insts {
			if keep[i] {
				out = append(out, in)
			}
		}
		p.Insts = out
	}
	return changed
}

// copyOf records that a temp component holds a copy of a source component.
type copyOf struct {
	valid    bool
	reg      Reg
	comp     uint8 // 0-3, or SwzZero / SwzOne
	neg, abs bool
}

// CopyProp replaces reads of temps written by plain MOVs (no saturation)
// with reads of the MOV's source, composing swizzles and modifiers, while
// the source is unchanged. DeadCode then removes the MOVs.
func CopyProp(p *Program) bool {
	changed := false
	copies := make([][4]copyOf, p.NumTemps())
	for i := range p.Insts {
		in := &p.Insts[i]
		info := in.Op.Info()
		for k := 0; k < info.NumSrc; k++ {
			if rewriteSrc(in, k, copies) {
				changed = true
			}
		}
		if info.Kind == Flow {
			// A copy made before a loop may not hold in its later
			// iterations, nor one made in a body after it.
			for t := range copies {
				copies[t] = [4]copyOf{}
			}
			continue
		}
		if info.Kind == Kill || in.Dst.File != Temp {
			continue
		}
		d := in.Dst
		// The write invalidates copies of d and copies from d.
		for t := range copies {
			for c := 0; c < 4; c++ {
				e := &copies[t][c]
				if e.valid && e.reg == d.Reg && e.comp < 4 && d.Mask.Has(int(e.comp)) {
					e.valid = false
				}
			}
		}
		for c := 0; c < 4; c++ {
			if d.Mask.Has(c) {
				copies[d.Index][c].valid = false
			}
		}
		if in.Op != MOV || in.Sat || in.Src[0].Reg == d.Reg || in.Src[0].Rel {
			continue
		}
		s := in.Src[0]
		for c := 0; c < 4; c++ {
			if d.Mask.Has(c) {
				copies[d.Index][c] = copyOf{valid: true, reg: s.Reg, comp: s.Swz[c], neg: s.Neg, abs: s.Abs}
			}
		}
	}
	return changed
}

func rewriteSrc(in *Inst, k int, copies [][4]copyOf) bool {
	s := &in.Src[k]
	if s.File != Temp {
		return false
	}
	rm := in.ReadMask(k)
	var first *copyOf
	var reg Reg
	haveReg := false
	for c := 0; c < 4; c++ {
		if !rm.Has(c) || s.Swz[c] >= 4 {
			continue
		}
		e := &copies[s.Index][s.Swz[c]]
		if !e.valid {
			return false
		}
		if first == nil {
			first = e
		} else if e.neg != first.neg || e.abs != first.abs {
			return false
		}
		if e.comp < 4 {
			if haveReg && e.reg != reg {
				return false
			}
			reg, haveReg = e.reg, true
		}
	}
	if first == nil {
		return false
	}
	// Constant selectors of the copy (0, 1) take the modifiers of the
	// MOV's source too, which the common neg/abs above guarantees.
	ns := Src{Reg: s.Reg, Swz: s.Swz}
	if haveReg {
		ns.Reg = reg
	}
	fill := uint8(0)
	for c := 0; c < 4; c++ {
		if rm.Has(c) && s.Swz[c] < 4 {
			ns.Swz[c] = copies[s.Index][s.Swz[c]].comp
			fill = ns.Swz[c]
		}
	}
	for c := 0; c < 4; c++ {
		if !rm.Has(c) && s.Swz[c] < 4 {
			ns.Swz[c] = fill
		}
	}
	if s.Abs {
		ns.Abs, ns.Neg = true, s.Neg
	} else {
		ns.Abs, ns.Neg = first.abs, s.Neg != first.neg
	}
	if !haveReg {
		// Every read component is a constant selector: keep the old
		// register name, which is read through no component now.
		ns.Reg = s.Reg
	}
	*s = ns
	return true
}

// constChannel returns the value swizzle position c of source s reads when
// it is a compile-time constant (a literal register or a 0/1 selector).
func constChannel(p *Program, s Src, c int) (float64, bool) {
	var x float64
	switch sel := s.Swz[c]; {
	case sel == SwzZero:
	case sel == SwzOne:
		x = 1
	case s.File == Const && !s.Rel && p.Consts[s.Index].Uniform == "":
		x = float64(p.Consts[s.Index].Value[sel])
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

// constValue reports whether every component instruction in reads of
// source k is the constant want.
func constValue(p *Program, in *Inst, k int, want float64) bool {
	rm := in.ReadMask(k)
	for c := 0; c < 4; c++ {
		if rm.Has(c) {
			if x, ok := constChannel(p, in.Src[k], c); !ok || x != want {
				return false
			}
		}
	}
	return true
}

// ConstFold evaluates instructions whose sources are all compile-time
// constants (rounding with round, nil for float32) into MOVs of literal
// constants, and simplifies multiplications by 1 and additions of 0.
func ConstFold(p *Program, round Rounder) bool {
	if round == nil {
		round = roundF32
	}
	changed := false
	for i := range p.Insts {
		in := &p.Insts[i]
		info := in.Op.Info()
		if info.Kind == Kill || info.Kind == Texture || info.Kind == Flow || in.Dst.File == Addr {
			continue
		}
		if v, ok := foldInst(p, in, round); ok {
			in.Op = MOV
			in.Src = [3]Src{S(Reg{Const, p.Literal(v)})}
			in.Sat = false
			changed = true
			continue
		}
		switch {
		case in.Op == MUL && constValue(p, in, 1, 1):
			in.Op, in.Src[1] = MOV, Src{}
		case in.Op == MUL && constValue(p, in, 0, 1):
			in.Op, in.Src[0], in.Src[1] = MOV, in.Src[1], Src{}
		case in.Op == ADD && constValue(p, in, 1, 0):
			in.Op, in.Src[1] = MOV, Src{}
		case in.Op == ADD && constValue(p, in, 0, 0):
			in.Op, in.Src[0], in.Src[1] = MOV, in.Src[1], Src{}
		case in.Op == MAD && constValue(p, in, 2, 0):
			in.Op, in.Src[2] = MUL, Src{}
		case in.Op == MAD && constValue(p, in, 1, 1):
			in.Op, in.Src[1], in.Src[2] = ADD, in.Src[2], Src{}
		case in.Op == MAD && constValue(p, in, 0, 1):
			in.Op, in.Src[0], in.Src[1], in.Src[2] = ADD, in.Src[1], in.Src[2], Src{}
		default:
			continue
		}
		changed = true
	}
	return changed
}

// foldInst evaluates an instruction with constant sources, returning the
// value of every written component (others 0).
func foldInst(p *Program, in *Inst, round Rounder) ([4]float32, bool) {
	info := in.Op.Info()
	var src [3][4]float64
	for k := 0; k < info.NumSrc; k++ {
		rm := in.ReadMask(k)
		for c := 0; c < 4; c++ {
			if !rm.Has(c) {
				continue
			}
			x, ok := constChannel(p, in.Src[k], c)
			if !ok {
				return [4]float32{}, false
			}
			src[k][c] = float64(round(x))
		}
	}
	var out [4]float32
	var r float32
	switch info.Kind {
	case Dot:
		a, b := src[0], src[1]
		if in.Op == DPH {
			a[3] = 1
		}
		sum := float64(a[0] * b[0])
		for c := 1; c < info.Width; c++ {
			sum += float64(a[c] * b[c])
		}
		r = round(sum)
	case Scalar:
		r = round(info.Eval(src[0][0], src[1][0], src[2][0], round))
	}
	for c := 0; c < 4; c++ {
		if !in.Dst.Mask.Has(c) {
			continue
		}
		v := r
		if info.Kind == CompWise {
			v = round(info.Eval(src[0][c], src[1][c], src[2][c], round))
		}
		if in.Sat {
			v = sat(v)
		}
		out[c] = v
	}
	return out, true
}

// Optimize runs ConstFold, CopyProp and DeadCode until nothing changes.
func Optimize(p *Program, round Rounder) {
	for i := 0; i < 16; i++ {
		a := ConstFold(p, round)
		b := CopyProp(p)
		c := DeadCode(p)
		if !a && !b && !c {
			return
		}
	}
}
