package lower

import (
	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/ir"
)

// predicate returns the current write predicate: the product of the if
// predicates and every execution flag.
func (l *lowerer) predicate() pred {
	if l.pcgen == l.pgen {
		return l.pcache
	}
	var dyn []pred
	st := always
	if n := len(l.cond); n > 0 {
		switch l.cond[n-1].st {
		case never:
			st = never
		case dynamic:
			dyn = append(dyn, l.cond[n-1])
		}
	}
	for _, f := range l.flags {
		switch f.st {
		case never:
			st = never
		case dynamic:
			dyn = append(dyn, pred{src: ir.Src{Reg: f.reg, Swz: ir.Splat(0)}, st: dynamic})
		}
	}
	p := pred{st: st}
	if st == always && len(dyn) == 1 {
		p = dyn[0]
	} else if st == always && len(dyn) > 1 {
		acc := l.predValue(dyn[0])
		for _, d := range dyn[1:] {
			acc = l.vop(ir.MUL, 1, acc, l.predValue(d))
		}
		p = pred{src: splatX(acc), st: dynamic}
	}
	l.pcache, l.pcgen = p, l.pgen
	return p
}

// predValue returns a dynamic predicate's 0/1 value.
func (l *lowerer) predValue(p pred) ir.Src {
	if p.neg {
		return splatX(l.vop(ir.ADD, 1, l.lit(1), neg(p.src)))
	}
	return p.src
}

func splatX(s ir.Src) ir.Src { s.Swz = ir.Splat(s.Swz[0]); return s }

// pushCond enters a region predicated on c (a 0/1 scalar) or its negation.
func (l *lowerer) pushCond(c ir.Src, negate bool) {
	parent := pred{st: always}
	if n := len(l.cond); n > 0 {
		parent = l.cond[n-1]
	}
	c = splatX(c)
	var p pred
	if v, ok := l.litScalar(c); ok {
		on := v != 0
		if negate {
			on = !on
		}
		if on {
			p = parent
		} else {
			p = pred{st: never}
		}
	} else if parent.st == never {
		p = parent
	} else if parent.st != dynamic {
		p = pred{src: c, st: dynamic, neg: negate}
	} else {
		src := c
		if negate {
			src = l.vop(ir.ADD, 1, l.lit(1), neg(c))
		}
		src = l.vop(ir.MUL, 1, l.predValue(parent), src)
		p = pred{src: splatX(src), st: dynamic}
	}
	l.cond = append(l.cond, p)
	l.pgen++
}

func (l *lowerer) popCond() {
	l.cond = l.cond[:len(l.cond)-1]
	l.pgen++
}

// clear lowers a return, break or continue: flag f is cleared wherever
// the current predicate holds.
func (l *lowerer) clear(f *flag) {
	p := l.predicate()
	switch p.st {
	case never:
		return
	case always:
		f.st = never
	default:
		// The predicate includes f, so f - p is f AND NOT p.
		if f.st == always {
			f.reg = l.temp()
			l.emit(ir.Inst{Op: ir.ADD, Dst: ir.Dst{Reg: f.reg, Mask: 1}, Src: [3]ir.Src{l.lit(1), neg(l.predValue(p))}})
			f.st = dynamic
		} else {
			l.emit(ir.Inst{Op: ir.ADD, Dst: ir.Dst{Reg: f.reg, Mask: 1}, Src: [3]ir.Src{ir.Src{Reg: f.reg, Swz: ir.Splat(0)}, neg(l.predValue(p))}})
		}
	}
	l.pgen++
}

func (l *lowerer) pushFlag(f *flag) { l.flags = append(l.flags, f); l.pgen++ }

func (l *lowerer) popFlag(f *flag) {
	for i := len(l.flags) - 1; i >= 0; i-- {
		if l.flags[i] == f {
			l.flags = append(l.flags[:i], l.flags[i+1:]...)
			break
		}
	}
	l.pgen++
}

func (l *lowerer) block(b *glsl.Block) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		if l.predicate().st == never {
			return
		}
		l.stmt(s)
	}
}

func (l *lowerer) stmt(s glsl.Stmt) {
	l.pos = s.Pos()
	switch s := s.(type) {
	case *glsl.Block:
		l.block(s)
	case *glsl.VarDecl:
		regs := l.storage(s.Var)
		if s.Init != nil {
			v := l.expr(s.Init)
			// A declaration is seen only by code after it in its own
			// scope, which runs under the same predicate: no select.
			l.store(l.regsLval(s.Var.Type, regs), v, true)
		}
	case *glsl.ExprStmt:
		l.expr(s.X)
	case *glsl.If:
		c := l.scalar(l.expr(s.Cond))
		l.pushCond(c, false)
		l.stmt(s.Then)
		l.popCond()
		if s.Else != nil {
			l.pushCond(c, true)
			l.stmt(s.Else)
			l.popCond()
		}
	case *glsl.Loop:
		if !l.tryHWLoop(s) {
			l.loop(s)
		}
	case *glsl.Return:
		f := l.frames[len(l.frames)-1]
		if s.X != nil && f.ret != nil {
			l.store(l.regsLval(s.X.Type(), f.ret), l.expr(s.X), false)
		}
		l.clear(f.live)
	case *glsl.Jump:
		switch s.Kind {
		case glsl.JumpDiscard:
			if l.stage != glsl.StageFragment {
				l.failf(s.P, "discard outside a fragment shader")
			}
			p := l.predicate()
			src := l.lit(1)
			if p.st == dynamic {
				src = l.predValue(p)
			}
			l.emit(ir.Inst{Op: ir.KIL, Src: [3]ir.Src{neg(src)}})
			// Later writes of a discarded fragment do not matter.
		case glsl.JumpBreak:
			l.clear(l.loops[len(l.loops)-1].brk)
		case glsl.JumpContinue:
			l.clear(l.loops[len(l.loops)-1].cont)
		}
	default:
		l.failf(s.Pos(), "unsupported statement %T", s)
	}
}

// loop unrolls a loop with a constant trip count.
func (l *lowerer) loop(s *glsl.Loop) {
	info := s.Info
	if info == nil || info.Iterations < 0 {
		l.loopGeneric(s)
		return
	}
	if info.Iterations > l.opts.MaxUnroll {
		l.failf(s.P, "for loop: %d iterations, more than the %d this target unrolls", info.Iterations, l.opts.MaxUnroll)
	}
	if s.Init != nil {
		if d, ok := s.Init.(*glsl.VarDecl); ok {
			l.storage(d.Var)
		} else {
			l.stmt(s.Init)
		}
	}
	lf := &loopFrame{brk: &flag{}}
	l.loops = append(l.loops, lf)
	l.pushFlag(lf.brk)
	regs := l.storage(info.Index)
	idx := info.Index
	value := func(k int) glsl.Value {
		v := glsl.Value{Type: info.Start.Type, C: []float64{info.Start.C[0]}}
		x := info.Start.C[0] + float64(k)*info.Step.C[0]
		if v.Type.Base == glsl.Float {
			// Repeated float32 addition, as the loop would compute it.
			x = info.Start.C[0]
			for i := 0; i < k; i++ {
				x = float64(float32(x + info.Step.C[0]))
			}
		}
		v.C[0] = x
		return v
	}
	for k := 0; k < info.Iterations; k++ {
		if l.predicate().st == never {
			break
		}
		v := value(k)
		l.known[idx] = v
		lf.cont = &flag{}
		l.pushFlag(lf.cont)
		if s.Body != nil {
			l.stmt(s.Body)
		}
		l.popFlag(lf.cont)
	}
	delete(l.known, idx)
	// The index keeps its final value for code after the loop.
	fin := value(info.Iterations)
	l.store(l.regsLval(idx.Type, regs), l.constVal(fin), false)
	l.popFlag(lf.brk)
	l.loops = l.loops[:len(l.loops)-1]
}

// call inlines a user function.
func (l *lowerer) call(c *glsl.Call) val {
	f := c.Func
	if f.Body == nil {
		l.failf(c.P, "function '%s' is not defined", f.Signature())
	}
	// Evaluate the arguments first (in order); out arguments as lvalues.
	args := make([]val, len(c.Args))
	outs := make([]*lval, len(c.Args))
	for i, a := range c.Args {
		p := f.Params[i]
		if p.Dir != glsl.DirIn {
			lv := l.lvalue(a)
			outs[i] = &lv
			if p.Dir == glsl.DirInOut {
				args[i] = l.snap(l.load(lv))
			}
		} else {
			args[i] = l.expr(a)
			if hasEffects(c.Args[i+1:]...) {
				args[i] = l.snap(args[i])
			}
		}
	}
	for i, p := range f.Params {
		if p.Type.ContainsSampler() {
			l.vars[p] = args[i].regs()
			continue
		}
		regs := l.temps(slotCount(p.Type))
		l.vars[p] = regs
		if p.Dir != glsl.DirOut {
			l.store(l.regsLval(p.Type, regs), args[i], true)
		}
	}
	fr := &frame{live: &flag{}}
	if f.Ret.Base != glsl.Void {
		fr.ret = l.temps(slotCount(f.Ret))
	}
	l.frames = append(l.frames, fr)
	l.pushFlag(fr.live)
	l.block(f.Body)
	l.popFlag(fr.live)
	l.frames = l.frames[:len(l.frames)-1]
	for i, p := range f.Params {
		if outs[i] != nil {
			l.store(*outs[i], l.regsVal(p.Type, l.vars[p]), false)
		}
	}
	if fr.ret == nil {
		return val{t: glsl.TypeVoid}
	}
	return l.snap(l.regsVal(f.Ret, fr.ret))
}

// loopGeneric unrolls a loop whose condition folds to a constant in
// every iteration (counters written from literals outside predicated
// code): the condition is lowered before each iteration and must be a
// literal. A condition that depends on run-time values cannot be
// unrolled: the target has no branches.
func (l *lowerer) loopGeneric(s *glsl.Loop) {
	if s.Init != nil {
		l.stmt(s.Init)
	}
	lf := &loopFrame{brk: &flag{}}
	l.loops = append(l.loops, lf)
	l.pushFlag(lf.brk)
	for k := 0; ; k++ {
		if l.predicate().st == never {
			break
		}
		if k > l.opts.MaxUnroll {
			l.failf(s.P, "%s loop: still running after %d unrolled iterations", s.Kind, l.opts.MaxUnroll)
		}
		if s.Kind != glsl.LoopDoWhile || k > 0 {
			if s.CondVar != nil {
				l.stmt(s.CondVar)
			}
			if s.Cond != nil {
				c := l.scalar(l.expr(s.Cond))
				x, ok := l.litScalar(c)
				if !ok {
					l.failf(s.P, "%s loop: the condition is not a compile-time constant in iteration %d (the target has no branches; loops are unrolled)", s.Kind, k+1)
				}
				if x == 0 {
					break
				}
			}
		}
		lf.cont = &flag{}
		l.pushFlag(lf.cont)
		if s.Body != nil {
			l.stmt(s.Body)
		}
		l.popFlag(lf.cont)
		if s.Post != nil {
			l.pos = s.Post.Pos()
			l.expr(s.Post)
		}
	}
	l.popFlag(lf.brk)
	l.loops = l.loops[:len(l.loops)-1]
}
