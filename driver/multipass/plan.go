package multipass

import (
	"fmt"

	"github.com/retrogl/retrogl/driver"
)

// Caps is what the chip's passes can do, as the planner needs it.
type Caps struct {
	// AlphaRegisters is set when a pass stores its fragment's (blended)
	// alpha in the register's alpha channel. When it is not (the PSP GE,
	// whose alpha bits are the stencil) alpha values live as grey in
	// registers of their own and the chip merges the final one into the
	// colour register for the composite, in MergePasses passes.
	AlphaRegisters bool
	MergePasses    int
	// Subtract is set when blending can subtract (OES_blend_subtract);
	// SUBTRACT, ADD_SIGNED and inverted register operands need it.
	Subtract bool
	// Dot3 is set when a pass can compute GL_COMBINE's DOT3_RGB(A).
	Dot3 bool
	// AlphaBits is set when the framebuffer stores alpha, so the
	// composite must supply the fragment alpha whenever alpha is written.
	AlphaBits bool
}

// Plan returns the fallback program for a fixed-function state: the
// texture environments of every enabled unit in order, then fog (always
// evaluated in registers, with the per-vertex fog factor), then the
// composite with whatever alpha the application's per-fragment state
// reads. It never fails: what the passes cannot express makes a software
// program.
func Plan(st *driver.State, caps Caps) *Program {
	c := &compiler{caps: caps}
	p, why := c.compile(st)
	if why != "" {
		// One upload of the CPU's colours and the composite.
		return Software(st, caps, why)
	}
	return p
}

// Software returns the software program for a state the chip's passes
// cannot sample or combine (why says what), whatever the planner would
// have made of it.
func Software(st *driver.State, caps Caps, why string) *Program {
	p := &Program{Software: true, Why: why, Color: 0, Regs: 1, Alpha: AlphaNone, Passes: 2}
	if NeedAlpha(st, caps) {
		p.Alpha = AlphaColor
	}
	return p
}

// NeedAlpha reports whether the composite reads the fragment alpha: the
// alpha test, a blend factor made of the source alpha, or an alpha the
// framebuffer stores.
func NeedAlpha(st *driver.State, caps Caps) bool {
	if st.AlphaTest.Enabled && st.AlphaTest.Func != driver.CompareAlways {
		return true
	}
	if caps.AlphaBits && st.ColorMask[3] {
		return true
	}
	if !st.Blend.Enabled || st.LogicOpEnabled {
		return false
	}
	fs := []driver.BlendFactor{st.Blend.SrcRGB, st.Blend.DstRGB}
	if caps.AlphaBits {
		fs = append(fs, st.Blend.SrcAlpha, st.Blend.DstAlpha)
	}
	for _, f := range fs {
		switch f {
		case driver.BlendSrcAlpha, driver.BlendOneMinusSrcAlpha, driver.BlendSrcAlphaSaturate:
			return true
		}
	}
	return false
}

// val is a value of the program: in a register, or a fragment a single
// pass can produce (pure).
type val struct {
	reg Reg
	f   Frag
}

func pure(f Frag) val { return val{reg: NoReg, f: f} }

// arg is an argument of a combine function: a value, maybe inverted
// (1 - v). Pure values fold the inversion into their operand when they
// can.
type arg struct {
	v   val
	inv bool
}

// compiler builds a program; why is set when something needs software.
type compiler struct {
	caps Caps
	ops  []Op
	used []bool
	why  string
	// uses counts, per register, the arguments of the current texture
	// unit that still read it: an argument that is a register's last
	// reader may accumulate into it instead of a copy.
	uses map[Reg]int
}

func (c *compiler) fail(format string, a ...any) {
	if c.why == "" {
		c.why = fmt.Sprintf(format, a...)
	}
}

func (c *compiler) alloc() Reg {
	for i, u := range c.used {
		if !u {
			c.used[i] = true
			return Reg(i)
		}
	}
	c.used = append(c.used, true)
	return Reg(len(c.used) - 1)
}

func (c *compiler) free(vs ...val) {
	for _, v := range vs {
		if v.reg >= 0 && int(v.reg) < len(c.used) {
			c.used[v.reg] = false
		}
	}
}

func (c *compiler) emit(dst Reg, fn Fn, f Frag) {
	c.ops = append(c.ops, Op{Dst: dst, Fn: fn, F: f})
}

var white = Frag{V: VWhite}

func flip(op driver.CombineOperand) driver.CombineOperand {
	switch op {
	case driver.OperandSrcColor:
		return driver.OperandOneMinusSrcColor
	case driver.OperandOneMinusSrcColor:
		return driver.OperandSrcColor
	case driver.OperandSrcAlpha:
		return driver.OperandOneMinusSrcAlpha
	}
	return driver.OperandSrcAlpha
}

// invertFrag returns 1 - f when a single pass can still produce it.
func invertFrag(f Frag) (Frag, bool) {
	switch {
	case f.T == TNone && f.V == VWhite:
		return Frag{V: VConst}, true
	case f.T == TNone && f.V == VConst:
		g := f
		for k := range g.K {
			g.K[k] = 1 - g.K[k]
		}
		return g, true
	case f.T == TNone && f.V == VPrimary && !f.VK:
		g := f
		g.VOp = flip(g.VOp)
		return g, true
	case f.V == VWhite && f.T == TUnit:
		g := f
		g.TOp = flip(g.TOp)
		return g, true
	}
	return f, false
}

// norm folds an inversion into a pure value where possible.
func (c *compiler) norm(a arg) arg {
	if a.inv && a.v.reg < 0 {
		if g, ok := invertFrag(a.v.f); ok {
			return arg{v: pure(g)}
		}
		// A pure product that cannot be inverted in one pass: store it.
		r := c.alloc()
		c.emit(r, Load, a.v.f)
		return arg{v: val{reg: r}, inv: true}
	}
	return a
}

// frag returns the fragment of a non-inverted argument.
func frag(a arg) Frag {
	if a.v.reg >= 0 {
		return Frag{V: VWhite, T: TReg, Reg: a.v.reg}
	}
	return a.v.f
}

func isWhite(a arg) bool {
	return !a.inv && a.v.reg < 0 && a.v.f.V == VWhite && a.v.f.T == TNone
}

// materialise returns a register-free fragment for a (storing 1 - r in a
// temporary register when a is an inverted register).
func (c *compiler) materialise(a arg) (Frag, Reg) {
	a = c.norm(a)
	if !a.inv {
		return frag(a), NoReg
	}
	if !c.caps.Subtract {
		c.fail("an inverted operand of a computed value (blending cannot subtract)")
	}
	t := c.alloc()
	c.emit(t, Load, white)
	c.emit(t, Sub, frag(arg{v: a.v}))
	return Frag{V: VWhite, T: TReg, Reg: t}, t
}

// fuse returns the single-pass product of two pure fragments, if any: a
// per-vertex colour times a texture, or two per-vertex colours of which
// at most one varies (a constant scales the primary colour exactly, since
// interpolation is linear).
func fuse(a, b Frag) (Frag, bool) {
	if a.T == TNone && b.T == TNone {
		switch {
		case a.V == VWhite:
			return b, true
		case b.V == VWhite:
			return a, true
		case a.V == VConst && b.V == VConst:
			f := a
			for k := range f.K {
				f.K[k] *= b.K[k]
			}
			return f, true
		case a.V == VConst && b.V == VPrimary && !b.VK:
			f := b
			f.VK, f.K = true, a.K
			return f, true
		case b.V == VConst && a.V == VPrimary && !a.VK:
			return fuse(b, a)
		}
		return Frag{}, false
	}
	if a.T == TNone && b.V == VWhite {
		f := b
		f.V, f.VOp, f.K = a.V, a.VOp, a.K
		return f, true
	}
	if b.T == TNone && a.V == VWhite {
		return fuse(b, a)
	}
	return Frag{}, false
}

// load sets register r to a.
func (c *compiler) load(r Reg, a arg) {
	f, t := c.materialise(a)
	c.emit(r, Load, f)
	c.free(val{reg: t})
}

// apply combines register r with a by fn (Add, Sub, Half, AddHalf).
func (c *compiler) apply(r Reg, fn Fn, a arg) {
	if fn == Sub && !c.caps.Subtract {
		c.fail("a subtraction (blending cannot subtract)")
	}
	f, t := c.materialise(a)
	c.emit(r, fn, f)
	c.free(val{reg: t})
}

// mul multiplies register r by a.
func (c *compiler) mul(r Reg, a arg) {
	a = c.norm(a)
	if isWhite(a) {
		return
	}
	if a.inv {
		c.emit(r, MulInv, frag(arg{v: a.v}))
		return
	}
	c.emit(r, Mul, frag(a))
}

// product sets register r to a*b, in one pass when the two fuse.
func (c *compiler) product(r Reg, a, b arg) {
	a, b = c.norm(a), c.norm(b)
	if !a.inv && !b.inv {
		if f, ok := fuse(frag(a), frag(b)); ok && a.v.reg < 0 && b.v.reg < 0 {
			c.emit(r, Load, f)
			return
		}
	}
	if a.inv && !b.inv {
		a, b = b, a
	}
	c.load(r, a)
	c.mul(r, b)
}

// consume marks one read of a's register done.
func (c *compiler) consume(a arg) {
	if a.v.reg >= 0 {
		c.uses[a.v.reg]--
	}
}

// stealable reports whether a is a register this read is the last of, so
// that the result may be computed in it.
func (c *compiler) stealable(a arg) bool {
	return a.v.reg >= 0 && !a.inv && c.uses[a.v.reg] == 1
}

// combine evaluates one GL_COMBINE function into a register: a new one,
// or an argument's own register when this is its last read.
func (c *compiler) combine(fn driver.CombineFunc, args [3]arg, scale float32) val {
	n := map[driver.CombineFunc]int{driver.CombineReplace: 1, driver.CombineInterpolate: 3}[fn]
	if n == 0 {
		n = 2
	}
	// The accumulator: an argument that may be overwritten, tried in the
	// order the function allows.
	acc := -1
	switch fn {
	case driver.CombineModulate, driver.CombineAdd:
		for _, i := range []int{0, 1} {
			if c.stealable(args[i]) {
				acc = i
				break
			}
		}
	case driver.CombineSubtract, driver.CombineReplace:
		if c.stealable(args[0]) {
			acc = 0
		}
	case driver.CombineInterpolate:
		for _, i := range []int{0, 1} {
			if c.stealable(args[i]) && args[2].v.reg != args[i].v.reg {
				acc = i
				break
			}
		}
	}
	for i := 0; i < n; i++ {
		c.consume(args[i])
	}
	var r Reg
	if acc >= 0 {
		r = args[acc].v.reg
	} else {
		r = c.alloc()
	}
	other := func(i int) arg { return args[1-i] }
	switch fn {
	case driver.CombineReplace:
		if acc < 0 {
			c.load(r, args[0])
		}
	case driver.CombineModulate:
		if acc >= 0 {
			c.mul(r, other(acc))
		} else {
			c.product(r, args[0], args[1])
		}
	case driver.CombineAdd:
		if acc < 0 {
			c.load(r, args[0])
			acc = 0
		}
		c.apply(r, Add, other(acc))
	case driver.CombineSubtract:
		if acc < 0 {
			c.load(r, args[0])
		}
		c.apply(r, Sub, args[1])
	case driver.CombineAddSigned:
		// a0 + a1 - 0.5 = 2((a0 + a1)/2 - 1/4): the halved sum cannot
		// clamp, and clamping the difference at 0 is GL's clamp of a
		// negative result.
		c.apply(r, Half, args[0])
		c.apply(r, AddHalf, args[1])
		c.apply(r, Sub, arg{v: pure(Frag{V: VConst, K: [4]float32{0.25, 0.25, 0.25, 0.25}})})
		scale *= 2
	case driver.CombineInterpolate:
		// a0*a2 + a1*(1-a2): the sum never exceeds 1.
		inv := args[2]
		inv.inv = !inv.inv
		f0, f1 := [2]arg{args[0], args[2]}, [2]arg{args[1], inv}
		if acc == 1 {
			f0, f1 = f1, f0
		}
		if acc >= 0 {
			c.mul(r, f0[1])
		} else {
			c.product(r, f0[0], f0[1])
		}
		t := c.alloc()
		c.product(t, f1[0], f1[1])
		c.emit(r, Add, Frag{V: VWhite, T: TReg, Reg: t})
		c.free(val{reg: t})
	default:
		c.fail("GL_COMBINE %s", combineNames[fn])
	}
	for ; scale > 1; scale /= 2 {
		c.emit(r, Double, Frag{})
	}
	return val{reg: r}
}

var combineNames = [...]string{"REPLACE", "MODULATE", "ADD", "ADD_SIGNED", "INTERPOLATE", "SUBTRACT", "DOT3_RGB", "DOT3_RGBA"}

// pair is the colour and the alpha a texture unit hands to the next.
type pair struct{ rgb, a val }

// cdesc is one combine function with its sources and operands.
type cdesc struct {
	fn    driver.CombineFunc
	src   [3]driver.CombineSrc
	op    [3]driver.CombineOperand
	scale float32
}

// stageOf writes a texture environment of a texture with base format b
// as GL_COMBINE functions (GL ES 1.1 tables 3.15 and 3.16): the colour and
// alpha functions.
func stageOf(env *driver.TexEnv, b driver.BaseFormat) (rgb, a cdesc) {
	tc := func(fn driver.CombineFunc, s ...driver.CombineSrc) cdesc {
		d := cdesc{fn: fn, scale: 1}
		copy(d.src[:], s)
		return d
	}
	if env.Mode == driver.EnvCombine {
		rgb = cdesc{fn: env.CombineRGB, src: env.SrcRGB, op: env.OperandRGB, scale: env.RGBScale}
		a = cdesc{fn: env.CombineAlpha, src: env.SrcAlpha, op: env.OperandAlpha, scale: env.AlphaScale}
		return rgb, a
	}
	tex, prev, konst := driver.SrcTexture, driver.SrcPrevious, driver.SrcConstant
	hasRGB := b != driver.BaseAlpha
	hasA := b == driver.BaseAlpha || b == driver.BaseRGBA || b == driver.BaseLuminanceAlpha
	rgb, a = tc(driver.CombineReplace, prev), tc(driver.CombineReplace, prev)
	switch env.Mode {
	case driver.EnvReplace:
		if hasRGB {
			rgb = tc(driver.CombineReplace, tex)
		}
		if hasA {
			a = tc(driver.CombineReplace, tex)
		}
	case driver.EnvModulate:
		if hasRGB {
			rgb = tc(driver.CombineModulate, tex, prev)
		}
		if hasA {
			a = tc(driver.CombineModulate, tex, prev)
		}
	case driver.EnvDecal:
		// Defined for RGB and RGBA only; other formats keep the incoming
		// colour.
		switch b {
		case driver.BaseRGB:
			rgb = tc(driver.CombineReplace, tex)
		case driver.BaseRGBA:
			rgb = tc(driver.CombineInterpolate, tex, prev, tex)
			rgb.op[2] = driver.OperandSrcAlpha
		}
	case driver.EnvBlend:
		if hasRGB {
			rgb = tc(driver.CombineInterpolate, konst, prev, tex)
		}
		if hasA {
			a = tc(driver.CombineModulate, tex, prev)
		}
	case driver.EnvAdd:
		if hasRGB {
			rgb = tc(driver.CombineAdd, tex, prev)
		}
		if hasA {
			a = tc(driver.CombineModulate, tex, prev)
		}
	}
	for i := range a.op {
		a.op[i] = driver.OperandSrcAlpha
	}
	return rgb, a
}

// source resolves one combine argument of unit u.
func (c *compiler) source(src driver.CombineSrc, op driver.CombineOperand, u int, env *driver.TexEnv, prev pair) arg {
	inv := op == driver.OperandOneMinusSrcColor || op == driver.OperandOneMinusSrcAlpha
	alpha := op == driver.OperandSrcAlpha || op == driver.OperandOneMinusSrcAlpha
	switch src {
	case driver.SrcTexture:
		return arg{v: pure(Frag{V: VWhite, T: TUnit, Unit: u, TOp: op})}
	case driver.SrcConstant:
		k := env.Color
		if alpha {
			k = [4]float32{k[3], k[3], k[3], k[3]}
		}
		if inv {
			for i := range k {
				k[i] = 1 - k[i]
			}
		}
		return arg{v: pure(Frag{V: VConst, K: k})}
	case driver.SrcPrimaryColor:
		return arg{v: pure(Frag{V: VPrimary, VOp: op})}
	}
	if alpha {
		return arg{v: prev.a, inv: inv}
	}
	return arg{v: prev.rgb, inv: inv}
}

// unit evaluates unit u's environment over prev.
func (c *compiler) unit(st *driver.State, u int, prev pair) pair {
	t := &st.Units[u]
	env := &t.Env
	rgb, a := stageOf(env, t.Texture.Base())
	args := func(d cdesc) [3]arg {
		var out [3]arg
		for i := range out {
			out[i] = c.source(d.src[i], d.op[i], u, env, prev)
		}
		return out
	}
	if rgb.fn == driver.CombineDot3RGB || rgb.fn == driver.CombineDot3RGBA {
		if !c.caps.Dot3 {
			c.fail("GL_COMBINE %s on unit %d", combineNames[rgb.fn], u)
			return prev
		}
	}
	rgbArgs, aArgs := args(rgb), args(a)
	c.uses = map[Reg]int{}
	count := func(d cdesc, as [3]arg) {
		n := map[driver.CombineFunc]int{driver.CombineReplace: 1, driver.CombineInterpolate: 3}[d.fn]
		if n == 0 {
			n = 2
		}
		for _, x := range as[:n] {
			if x.v.reg >= 0 {
				c.uses[x.v.reg]++
			}
		}
	}
	count(rgb, rgbArgs)
	if rgb.fn != driver.CombineDot3RGBA {
		count(a, aArgs)
	}
	var out pair
	out.rgb = c.value(rgb, rgbArgs)
	if rgb.fn == driver.CombineDot3RGBA {
		out.a = out.rgb
	} else {
		out.a = c.value(a, aArgs)
	}
	for _, v := range []val{prev.rgb, prev.a} {
		if v.reg >= 0 && v.reg != out.rgb.reg && v.reg != out.a.reg {
			c.free(v)
		}
	}
	return out
}

// value evaluates one combine function, keeping a lone replace of a value
// that is already computed (or pure) without a pass.
func (c *compiler) value(d cdesc, args [3]arg) val {
	if d.fn == driver.CombineReplace && d.scale == 1 {
		// A lone replace passes a value on without a pass (a register
		// may then hold both the colour and the alpha).
		// The output keeps the register: its read is not consumed, so
		// nothing later computes in it.
		if a := c.norm(args[0]); !a.inv {
			return a.v
		}
	}
	return c.combine(d.fn, args, d.scale)
}

// store returns v in a register.
func (c *compiler) store(v val) val {
	if v.reg >= 0 {
		return v
	}
	r := c.alloc()
	c.emit(r, Load, v.f)
	return val{reg: r}
}

func (c *compiler) compile(st *driver.State) (*Program, string) {
	prev := pair{
		rgb: pure(Frag{V: VPrimary, VOp: driver.OperandSrcColor}),
		a:   pure(Frag{V: VPrimary, VOp: driver.OperandSrcAlpha}),
	}
	for u := range st.Units {
		if st.Units[u].Texture != nil {
			prev = c.unit(st, u, prev)
		}
	}
	if c.why != "" {
		return nil, c.why
	}
	p := &Program{}
	color := c.store(prev.rgb)
	if st.Fog.Enabled && color.reg == prev.a.reg {
		// Fog changes the colour only: keep the alpha apart.
		r := c.alloc()
		c.emit(r, Load, Frag{V: VWhite, T: TReg, Reg: color.reg})
		color = val{reg: r}
	}
	if st.Fog.Enabled {
		c.emit(color.reg, Lerp, Frag{V: VFog})
	}
	p.Color = color.reg
	if NeedAlpha(st, c.caps) {
		a := prev.a
		if a.reg < 0 && a.f.T == TNone {
			p.Alpha, p.AlphaV = AlphaVertex, a.f
		} else {
			a = c.store(a)
			p.Alpha, p.AlphaReg = AlphaReg, a.reg
		}
	}
	if c.why != "" {
		return nil, c.why
	}
	p.Ops = c.ops
	p.prune()
	p.Passes = len(p.Ops) + 1
	if p.Alpha == AlphaReg && !c.caps.AlphaRegisters {
		p.Passes += c.caps.MergePasses
	}
	return p, ""
}

// prune drops the operations whose results nothing reads (the alpha of a
// unit when neither a later unit nor the composite wants it) and numbers
// the registers in order of first use.
func (p *Program) prune() {
	live := map[Reg]bool{p.Color: true}
	if p.Alpha == AlphaReg {
		live[p.AlphaReg] = true
	}
	keep := make([]bool, len(p.Ops))
	for i := len(p.Ops) - 1; i >= 0; i-- {
		o := &p.Ops[i]
		if !live[o.Dst] {
			continue
		}
		keep[i] = true
		if o.Fn == Load || o.Fn == Half {
			// Defined here: earlier values of the register are dead.
			delete(live, o.Dst)
		}
		if o.F.T == TReg {
			live[o.F.Reg] = true
		}
	}
	var ops []Op
	num := map[Reg]Reg{}
	rename := func(r Reg) Reg {
		if n, ok := num[r]; ok {
			return n
		}
		num[r] = Reg(len(num))
		return num[r]
	}
	for i, o := range p.Ops {
		if !keep[i] {
			continue
		}
		if o.F.T == TReg {
			o.F.Reg = rename(o.F.Reg)
		}
		o.Dst = rename(o.Dst)
		ops = append(ops, o)
	}
	p.Ops = ops
	p.Color = rename(p.Color)
	if p.Alpha == AlphaReg {
		p.AlphaReg = rename(p.AlphaReg)
	}
	p.Regs = len(num)
}
