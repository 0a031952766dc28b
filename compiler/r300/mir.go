package r300

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/retrogl/retrogl/compiler/ir"
)

// vop is a native R300 operation before legalisation.
type vop uint8

const (
	vMAD vop = iota
	vDP3
	vDP4
	vD2A
	vMIN
	vMAX
	vCND
	vCMP
	vFRC
	vEX2
	vLN2
	vRCP
	vRSQ
	vTEX
	vTXP
	vTXB
	vKIL
)

var vopInfo = [...]struct {
	name   string
	nsrc   int
	scalar bool // alpha-unit transcendental: reads component 0 of A
	dot    bool
	tex    bool
}{
	vMAD: {"mad", 3, false, false, false}, vDP3: {"dp3", 2, false, true, false}, vDP4: {"dp4", 2, false, true, false},
	vD2A: {"d2a", 3, false, true, false}, vMIN: {"min", 2, false, false, false}, vMAX: {"max", 2, false, false, false},
	vCND: {"cnd", 3, false, false, false}, vCMP: {"cmp", 3, false, false, false}, vFRC: {"frc", 1, false, false, false},
	vEX2: {"ex2", 1, true, false, false}, vLN2: {"ln2", 1, true, false, false}, vRCP: {"rcp", 1, true, false, false},
	vRSQ: {"rsq", 1, true, false, false}, vTEX: {"tex", 1, false, false, true}, vTXP: {"txp", 1, false, false, true},
	vTXB: {"txb", 1, false, false, true}, vKIL: {"kil", 1, false, false, true},
}

// vfile is the register file of a vref.
type vfile uint8

const (
	fNone  vfile = iota
	fTemp        // virtual register
	fInput       // IR input (an interpolant, pre-coloured)
	fConst       // IR constant register (a vec4 slot)
	fOut         // output: colour target 0-3, or 4 for depth
)

// depthOut is the vref index of the depth output.
const depthOut = 4

type vref struct {
	file vfile
	idx  int
}

func (r vref) String() string {
	switch r.file {
	case fTemp:
		return fmt.Sprintf("t%d", r.idx)
	case fInput:
		return fmt.Sprintf("v%d", r.idx)
	case fConst:
		return fmt.Sprintf("c%d", r.idx)
	case fOut:
		if r.idx == depthOut {
			return "depth"
		}
		return fmt.Sprintf("out%d", r.idx)
	}
	return "_"
}

// Swizzle selectors: components 0-3, then inline constants.
const (
	selZero uint8 = 4
	selOne  uint8 = 5
	selHalf uint8 = 6
	// selAny marks a position whose value does not matter: a selection's
	// condition where both choices are equal. It reads nothing.
	selAny uint8 = 7
)

// vsrc is an operand: a register read through a per-channel swizzle
// (selectors 4-6 are the inline 0, 1 and 0.5), a replicated literal, or
// the instruction's pre-subtract result.
type vsrc struct {
	ref      vref
	swz      [4]uint8
	neg, abs bool
	lit      bool
	val      float32
	srcp     bool
}

func lit(v float32) vsrc { return vsrc{lit: true, val: v, swz: [4]uint8{0, 1, 2, 3}} }

func (s vsrc) String() string {
	var t string
	switch {
	case s.lit:
		t = fmt.Sprintf("%g", s.val)
	default:
		name := s.ref.String()
		if s.srcp {
			name = "srcp"
		}
		t = name + "." + swzString(s.swz)
	}
	if s.abs {
		t = "|" + t + "|"
	}
	if s.neg {
		t = "-" + t
	}
	return t
}

func swzString(s [4]uint8) string {
	const letters = "xyzw01h*"
	b := make([]byte, 4)
	for i, c := range s {
		b[i] = letters[c]
	}
	return string(b)
}

// vinst is one native operation on virtual registers.
type vinst struct {
	op     vop
	dst    vref
	mask   uint8
	src    [3]vsrc
	pop    int8 // pre-subtract op (SRCP_OP), -1 when unused
	psrc   [2]vsrc
	omod   uint8
	clamp  bool
	unit   uint8
	target ir.TexTarget
	dead   bool
}

func maskString(m uint8) string {
	s := ""
	for c := 0; c < 4; c++ {
		if m>>c&1 != 0 {
			s += string("xyzw"[c])
		}
	}
	return s
}

func (v *vinst) String() string {
	var b strings.Builder
	b.WriteString(vopInfo[v.op].name)
	if v.omod != 0 {
		b.WriteString([]string{"", "_x2", "_x4", "_x8", "_d2", "_d4", "_d8"}[v.omod])
	}
	if v.clamp {
		b.WriteString("_sat")
	}
	var ops []string
	if v.op != vKIL {
		ops = append(ops, v.dst.String()+"."+maskString(v.mask))
	}
	for k := 0; k < vopInfo[v.op].nsrc; k++ {
		ops = append(ops, v.src[k].String())
	}
	if vopInfo[v.op].tex && v.op != vKIL {
		ops = append(ops, fmt.Sprintf("s%d", v.unit))
	}
	b.WriteString(" " + strings.Join(ops, ", "))
	if v.pop >= 0 {
		b.WriteString(fmt.Sprintf(" [srcp=%s(%s, %s)]", []string{"1-2*s0", "s1-s0", "s1+s0", "1-s0"}[v.pop], v.psrc[0], v.psrc[1]))
	}
	return b.String()
}

// readMask returns the swizzle positions operand k of v reads.
func (v *vinst) readMask(k int) uint8 {
	info := vopInfo[v.op]
	switch {
	case info.scalar:
		return 1
	case v.op == vDP3:
		return 7
	case v.op == vDP4:
		return 15
	case v.op == vD2A:
		if k == 2 {
			return 4
		}
		return 3
	case v.op == vKIL:
		return 15
	case info.tex:
		m := uint8(3)
		if v.target != ir.Tex2D {
			m = 7
		}
		if v.op != vTEX {
			m |= 8
		}
		return m
	}
	return v.mask
}

// channels returns the register components operand s reads at positions m.
func (s *vsrc) channels(m uint8) uint8 {
	if s.lit || s.srcp {
		return 0
	}
	var out uint8
	for c := 0; c < 4; c++ {
		if m>>c&1 != 0 && s.swz[c] < 4 {
			out |= 1 << s.swz[c]
		}
	}
	return out
}

// lowering state.
type lowerer struct {
	c *compilation
	p *ir.Program
	// web maps an IR def (instruction index) to its vreg.
	defVreg map[int]int
	// reach[i][k] holds, per IR instruction and source, the reaching def
	// of each channel (-1 undefined).
	reach [][3][4]int
}

func (c *compilation) newVreg() vref {
	c.nvreg++
	return vref{fTemp, c.nvreg - 1}
}

func (c *compilation) add(v vinst) *vinst {
	if v.pop == 0 && v.psrc == [2]vsrc{} {
		v.pop = -1
	}
	c.insts = append(c.insts, v)
	return &c.insts[len(c.insts)-1]
}

// lower translates the IR into vinsts (the "lower" pass): IR temps become
// virtual registers per web (defs joined by the uses they reach), and every
// opcode becomes native R300 operations.
func (c *compilation) lower() error {
	l := &lowerer{c: c, p: c.p, defVreg: map[int]int{}}
	l.webs()
	c.inputTemp = make([]int, len(c.p.Inputs))
	for i := 0; i < len(c.p.Insts); i++ {
		if n, err := l.sinCosGroup(i); err != nil {
			return fmt.Errorf("instruction %d (%s): %w", i, c.p.Insts[i].String(), err)
		} else if n > 1 {
			i += n - 1
			continue
		}
		if err := l.inst(i); err != nil {
			return fmt.Errorf("instruction %d (%s): %w", i, c.p.Insts[i].String(), err)
		}
	}
	return nil
}

// sinCosGroup lowers a run of scalar SIN (or COS) instructions that write
// different channels of one register from components of one source, as the
// GLSL front end emits for sin(vec4), as one vector expansion: the range
// reduction and the polynomial then run once over all channels (RGB and
// alpha halves in parallel) instead of once per channel, with the same
// arithmetic per channel. It returns the number of instructions it lowered
// (0 or 1: lower instruction i alone).
func (l *lowerer) sinCosGroup(i int) (int, error) {
	first := &l.p.Insts[i]
	if first.Op != ir.SIN && first.Op != ir.COS {
		return 0, nil
	}
	d, m, err := l.dstOf(i)
	if err != nil || d.file != fTemp {
		return 0, err
	}
	x0 := scalarize(l.src(i, 0))
	if x0.lit || x0.srcp {
		return 0, nil
	}
	x := x0
	mask := m
	n := 1
	// Members may write different virtual registers (the front end's
	// per-component results are separate values when no reader reads
	// them together): the run then computes into a temporary and copies
	// out, and the cse pass's copy propagation removes the copies.
	type member struct {
		d vref
		m uint8
	}
	members := []member{{d, m}}
	same := true
	for j := i + 1; j < len(l.p.Insts); j++ {
		in := &l.p.Insts[j]
		if in.Op != first.Op || in.Sat != first.Sat {
			break
		}
		dj, mj, err := l.dstOf(j)
		if err != nil || dj.file != fTemp || mj&mask != 0 {
			break
		}
		xj := scalarize(l.src(j, 0))
		if xj.lit || xj.srcp || xj.ref != x0.ref || xj.neg != x0.neg || xj.abs != x0.abs {
			break
		}
		// Reading a channel an earlier member of the run writes would see
		// the old value once merged.
		clash := false
		for _, mb := range members {
			clash = clash || xj.ref == mb.d && mb.m>>xj.swz[0]&1 != 0
		}
		if clash {
			break
		}
		for ch := 0; ch < 4; ch++ {
			if mj>>ch&1 != 0 {
				x.swz[ch] = xj.swz[0]
			}
		}
		mask |= mj
		members = append(members, member{dj, mj})
		same = same && dj == d
		n++
	}
	if n == 1 {
		return 0, nil
	}
	for ch := 0; ch < 4; ch++ {
		if m>>ch&1 != 0 {
			x.swz[ch] = x0.swz[0]
		}
		if mask>>ch&1 == 0 {
			x.swz[ch] = selZero
		}
	}
	if same {
		l.sinCosVec(first.Op == ir.COS, x, d, mask, first.Sat)
		return n, nil
	}
	t := l.c.newVreg()
	l.sinCosVec(first.Op == ir.COS, x, t, mask, first.Sat)
	for _, mb := range members {
		l.c.add(vinst{op: vMAD, dst: mb.d, mask: mb.m, src: [3]vsrc{{ref: t, swz: [4]uint8{0, 1, 2, 3}}, one(), zero()}})
	}
	return n, nil
}

// Minimax polynomials on v in [0, 1] (Remez exchange, float64; lowest
// degree first): sin(πv) ≈ v·S(v²) within 5.0e-7 and cos(πv) ≈ C(v²)
// within 7.8e-7 in exact arithmetic, odd and even so both hold on
// [-1, 1].
var (
	sinPoly = []float64{3.1415926395225857, -5.167709307894794, 2.5500867897472133, -0.5987934350106445, 0.08101235088383263, -0.006189037248193154}
	cosPoly = []float64{0.9999992215748293, -4.934745629253575, 4.0580454150336855, -1.3323812073855057, 0.2296642187762739, -0.02058279717087991}
)

// sinCosVec expands SIN or COS over the channels of mask: channel c of d
// gets the sine (or cosine) of channel c of x. The range reduction is
// t = frc(x/2π) in [0, 1) and v = 1 - 2t in (-1, 1], the pre-subtract
// 1-2a (L1542), so that x = 2πt = π - πv (mod 2π) and
//
//	sin x = sin(πv) = v·S(v²)        cos x = -cos(πv) = -C(v²)
//
// t1 = x/2π, t = frc(t1) and w = v² (MAD srcp, srcp) are the same for
// both functions, so SIN and COS of one operand (tan) share them after
// the cse pass. Then S or C by Horner's rule in w, and for the sine the
// final product with v (srcp again): 9 instructions for SIN, 8 for COS.
// Near x = ±π, t is near 1/2, where FP24 keeps 2^-18 of absolute
// precision; near 0, t or 1 - t is small.
func (l *lowerer) sinCosVec(cos bool, x vsrc, d vref, mask uint8, sat bool) {
	c := l.c
	ident := func(t vref) vsrc { return vsrc{ref: t, swz: [4]uint8{0, 1, 2, 3}} }
	srcp := vsrc{srcp: true, swz: [4]uint8{0, 1, 2, 3}}
	t1, t, w := c.newVreg(), c.newVreg(), c.newVreg()
	c.add(vinst{op: vMAD, dst: t1, mask: mask, src: [3]vsrc{x, lit(float32(1 / (2 * math.Pi))), zero()}})
	c.add(vinst{op: vFRC, dst: t, mask: mask, src: [3]vsrc{ident(t1)}})
	c.add(vinst{op: vMAD, dst: w, mask: mask, src: [3]vsrc{srcp, srcp, zero()}, pop: 0, psrc: [2]vsrc{ident(t)}})
	k := sinPoly
	sign := float64(1)
	if cos {
		k, sign = cosPoly, -1
	}
	p := lit(float32(sign * k[len(k)-1]))
	for n := len(k) - 2; n >= 0; n-- {
		dst := c.newVreg()
		last := cos && n == 0
		if last {
			dst = d
		}
		c.add(vinst{op: vMAD, dst: dst, mask: mask, src: [3]vsrc{p, ident(w), lit(float32(sign * k[n]))}, clamp: last && sat})
		p = ident(dst)
	}
	if !cos {
		c.add(vinst{op: vMAD, dst: d, mask: mask, src: [3]vsrc{p, srcp, zero()}, pop: 0, psrc: [2]vsrc{ident(t)}, clamp: sat})
	}
}

// webs computes reaching definitions per temp channel and joins the defs
// each use reaches into one virtual register.
func (l *lowerer) webs() {
	p := l.p
	parent := map[int]int{}
	var find func(int) int
	find = func(x int) int {
		if parent[x] != x {
			parent[x] = find(parent[x])
		}
		return parent[x]
	}
	nt := p.NumTemps()
	last := make([][4]int, nt)
	for t := range last {
		last[t] = [4]int{-1, -1, -1, -1}
	}
	l.reach = make([][3][4]int, len(p.Insts))
	for i := range p.Insts {
		in := &p.Insts[i]
		info := in.Op.Info()
		for k := 0; k < info.NumSrc; k++ {
			l.reach[i][k] = [4]int{-1, -1, -1, -1}
			s := in.Src[k]
			if s.File != ir.Temp {
				continue
			}
			root := -1
			for c := 0; c < 4; c++ {
				if !in.ReadMask(k).Has(c) || s.Swz[c] >= 4 {
					continue
				}
				d := last[s.Index][s.Swz[c]]
				l.reach[i][k][c] = d
				if d < 0 {
					continue
				}
				if root < 0 {
					root = find(d)
				} else if r := find(d); r != root {
					parent[r] = root
				}
			}
		}
		if info.Kind != ir.Kill && in.Dst.File == ir.Temp {
			parent[i] = i
			for c := 0; c < 4; c++ {
				if in.Dst.Mask.Has(c) {
					last[in.Dst.Index][c] = i
				}
			}
		}
	}
	roots := map[int]int{}
	for i := range p.Insts {
		if _, ok := parent[i]; !ok {
			continue
		}
		r := find(i)
		if _, ok := roots[r]; !ok {
			roots[r] = l.c.newVreg().idx
		}
		l.defVreg[i] = roots[r]
	}
}

// src converts source k of IR instruction i.
func (l *lowerer) src(i, k int) vsrc {
	in := &l.p.Insts[i]
	s := in.Src[k]
	v := vsrc{neg: s.Neg, abs: s.Abs}
	copy(v.swz[:], s.Swz[:])
	rm := in.ReadMask(k)
	switch s.File {
	case ir.Temp:
		v.ref = vref{fTemp, -1}
		for c := 0; c < 4; c++ {
			if !rm.Has(c) || s.Swz[c] >= 4 {
				continue
			}
			d := l.reach[i][k][c]
			if d < 0 {
				// [PROP] An undefined temp component reads 0, as the
				// interpreter's zeroed temps do.
				v.swz[c] = selZero
				continue
			}
			v.ref = vref{fTemp, l.defVreg[d]}
		}
		if v.ref.idx < 0 {
			v.ref = vref{}
		}
	case ir.Input:
		v.ref = vref{fInput, s.Index}
	case ir.Const:
		v.ref = vref{fConst, s.Index}
		k := l.p.Consts[s.Index]
		if k.Uniform == "" {
			// A literal read through equal components is a replicated
			// scalar; read components 0, 0.5 and 1 become inline selects.
			var vals []float32
			same := true
			for c := 0; c < 4; c++ {
				if rm.Has(c) && s.Swz[c] < 4 {
					x := k.Value[s.Swz[c]]
					if len(vals) > 0 && x != vals[0] {
						same = false
					}
					vals = append(vals, x)
				}
			}
			if len(vals) > 0 && same {
				allInline := true
				for c := 0; c < 4; c++ {
					if rm.Has(c) && s.Swz[c] >= 4 {
						allInline = false
					}
				}
				if allInline {
					return vsrc{lit: true, val: vals[0], neg: s.Neg, abs: s.Abs, swz: [4]uint8{0, 1, 2, 3}}
				}
			}
		}
	}
	// Positions not read keep a harmless selector.
	for c := 0; c < 4; c++ {
		if !rm.Has(c) {
			v.swz[c] = selZero
		}
	}
	return v
}

// scalarize returns s reading its component 0 in every position.
func scalarize(s vsrc) vsrc {
	if !s.lit && !s.srcp {
		s.swz = [4]uint8{s.swz[0], s.swz[0], s.swz[0], s.swz[0]}
	}
	return s
}

// splatW returns a read of the w channel of t, replicated.
func splatW(t vref) vsrc { return vsrc{ref: t, swz: [4]uint8{3, 3, 3, 3}} }

func neg(s vsrc) vsrc { s.neg = !s.neg; return s }

// dstOf maps an IR destination.
func (l *lowerer) dstOf(i int) (vref, uint8, error) {
	in := &l.p.Insts[i]
	switch in.Dst.File {
	case ir.Temp:
		return vref{fTemp, l.defVreg[i]}, uint8(in.Dst.Mask), nil
	case ir.Output:
		name := l.p.Outputs[in.Dst.Index].Name
		switch {
		case name == "color" || name == "color0":
			return vref{fOut, 0}, uint8(in.Dst.Mask), nil
		case len(name) == 6 && strings.HasPrefix(name, "color") && name[5] >= '1' && name[5] <= '3':
			return vref{fOut, int(name[5] - '0')}, uint8(in.Dst.Mask), nil
		case name == "depth":
			return vref{fOut, depthOut}, uint8(in.Dst.Mask), nil
		}
		return vref{}, 0, fmt.Errorf("output %q is not a fragment output (color, color1-3, depth)", name)
	}
	return vref{}, 0, fmt.Errorf("cannot write %s", in.Dst.Reg)
}

func one() vsrc  { return lit(1) }
func zero() vsrc { return lit(0) }

// identityFor reports whether s reads register components in place (no
// modifiers) at positions m, as TEX and KIL sources must (L1720-1727).
func identityFor(s vsrc, m uint8) bool {
	if s.lit || s.srcp || s.neg || s.abs || (s.ref.file != fTemp && s.ref.file != fInput) {
		return false
	}
	for c := 0; c < 4; c++ {
		if m>>c&1 != 0 && s.swz[c] != uint8(c) {
			return false
		}
	}
	return true
}

// inst lowers IR instruction i.
func (l *lowerer) inst(i int) error {
	c := l.c
	in := &l.p.Insts[i]
	info := in.Op.Info()
	var s [3]vsrc
	for k := 0; k < info.NumSrc; k++ {
		s[k] = l.src(i, k)
	}
	if in.Op == ir.KIL {
		if !identityFor(s[0], 15) {
			t := c.newVreg()
			c.add(vinst{op: vMAD, dst: t, mask: 15, src: [3]vsrc{s[0], one(), zero()}})
			s[0] = vsrc{ref: t, swz: [4]uint8{0, 1, 2, 3}}
		}
		c.add(vinst{op: vKIL, src: [3]vsrc{s[0]}})
		return nil
	}
	d, m, err := l.dstOf(i)
	if err != nil {
		return err
	}
	final := d
	finalMask := m
	if d.file == fOut && d.idx == depthOut {
		// The depth output takes the alpha unit's result (OMASK_W,
		// L1477): compute into a temp, then move its x into depth.w.
		d = c.newVreg()
	}
	emit := func(v vinst) {
		v.clamp = in.Sat
		c.add(v)
	}
	switch in.Op {
	case ir.MOV:
		emit(vinst{op: vMAD, dst: d, mask: m, src: [3]vsrc{s[0], one(), zero()}})
	case ir.ADD:
		emit(vinst{op: vMAD, dst: d, mask: m, src: [3]vsrc{s[0], one(), s[1]}})
	case ir.MUL:
		emit(vinst{op: vMAD, dst: d, mask: m, src: [3]vsrc{s[0], s[1], zero()}})
	case ir.MAD:
		emit(vinst{op: vMAD, dst: d, mask: m, src: s})
	case ir.DP2:
		emit(vinst{op: vD2A, dst: d, mask: m, src: [3]vsrc{s[0], s[1], zero()}})
	case ir.DP3:
		emit(vinst{op: vDP3, dst: d, mask: m, src: s})
	case ir.DP4:
		emit(vinst{op: vDP4, dst: d, mask: m, src: s})
	case ir.DPH:
		a := s[0]
		if a.neg || a.lit {
			t := c.newVreg()
			c.add(vinst{op: vMAD, dst: t, mask: 7, src: [3]vsrc{a, one(), zero()}})
			a = vsrc{ref: t, swz: [4]uint8{0, 1, 2, 3}}
		}
		a.swz[3] = selOne
		emit(vinst{op: vDP4, dst: d, mask: m, src: [3]vsrc{a, s[1]}})
	case ir.MIN:
		emit(vinst{op: vMIN, dst: d, mask: m, src: s})
	case ir.MAX:
		emit(vinst{op: vMAX, dst: d, mask: m, src: s})
	case ir.SLT, ir.SGE, ir.SEQ, ir.SNE:
		// t = a - b; CMP picks A when C >= 0 (L1650). A difference with
		// a literal 0 is the other operand itself (or its negation).
		var ts vsrc
		switch {
		case s[1].lit && s[1].val == 0:
			ts = s[0]
		case s[0].lit && s[0].val == 0:
			ts = neg(s[1])
		default:
			t := c.newVreg()
			c.add(vinst{op: vMAD, dst: t, mask: m, src: [3]vsrc{s[0], one(), neg(s[1])}})
			ts = vsrc{ref: t, swz: [4]uint8{0, 1, 2, 3}}
		}
		a, b := zero(), one() // SLT: a-b >= 0 ? 0 : 1
		switch in.Op {
		case ir.SGE:
			a, b = one(), zero()
		case ir.SEQ:
			a, b = one(), zero()
			ts.abs, ts.neg = true, true
		case ir.SNE:
			ts.abs, ts.neg = true, true
		}
		emit(vinst{op: vCMP, dst: d, mask: m, src: [3]vsrc{a, b, ts}})
	case ir.CMP:
		emit(vinst{op: vCMP, dst: d, mask: m, src: [3]vsrc{s[1], s[2], s[0]}})
	case ir.CND:
		emit(vinst{op: vCND, dst: d, mask: m, src: [3]vsrc{s[1], s[2], s[0]}})
	case ir.LRP:
		// a·(b-c) + c, with b-c a pre-subtract candidate.
		t := c.newVreg()
		c.add(vinst{op: vMAD, dst: t, mask: m, src: [3]vsrc{s[1], one(), neg(s[2])}})
		emit(vinst{op: vMAD, dst: d, mask: m, src: [3]vsrc{s[0], {ref: t, swz: [4]uint8{0, 1, 2, 3}}, s[2]}})
	case ir.FRC:
		emit(vinst{op: vFRC, dst: d, mask: m, src: s})
	case ir.FLR:
		t := c.newVreg()
		c.add(vinst{op: vFRC, dst: t, mask: m, src: s})
		emit(vinst{op: vMAD, dst: d, mask: m, src: [3]vsrc{s[0], one(), {ref: t, swz: [4]uint8{0, 1, 2, 3}, neg: true}}})
	case ir.RCP, ir.RSQ, ir.EX2, ir.LG2:
		op := map[ir.Op]vop{ir.RCP: vRCP, ir.RSQ: vRSQ, ir.EX2: vEX2, ir.LG2: vLN2}[in.Op]
		a := scalarize(s[0])
		if in.Op == ir.RSQ {
			// IR RSQ is 1/sqrt(|a|) ([OUT] Mesa adds ABS too).
			a.abs, a.neg = true, false
		}
		emit(vinst{op: op, dst: d, mask: m, src: [3]vsrc{a}})
	case ir.POW:
		t1, t2 := c.newVreg(), c.newVreg()
		c.add(vinst{op: vLN2, dst: t1, mask: 8, src: [3]vsrc{scalarize(s[0])}})
		c.add(vinst{op: vMAD, dst: t2, mask: 8, src: [3]vsrc{splatW(t1), scalarize(s[1]), zero()}})
		emit(vinst{op: vEX2, dst: d, mask: m, src: [3]vsrc{splatW(t2)}})
	case ir.SIN, ir.COS:
		l.sinCos(in.Op == ir.COS, scalarize(s[0]), d, m, in.Sat)
	case ir.TEX, ir.TXP, ir.TXB:
		op := map[ir.Op]vop{ir.TEX: vTEX, ir.TXP: vTXP, ir.TXB: vTXB}[in.Op]
		probe := vinst{op: op, target: in.Target}
		rm := probe.readMask(0)
		coord := s[0]
		if !identityFor(coord, rm) {
			t := c.newVreg()
			c.add(vinst{op: vMAD, dst: t, mask: rm, src: [3]vsrc{coord, one(), zero()}})
			coord = vsrc{ref: t, swz: [4]uint8{0, 1, 2, 3}}
		}
		td := d
		if d.file != fTemp || m != 15 {
			td = c.newVreg()
		}
		if in.Unit > 15 {
			return fmt.Errorf("texture unit %d: the US has 16 (TEX_ID, L1725)", in.Unit)
		}
		c.add(vinst{op: op, dst: td, mask: 15, src: [3]vsrc{coord}, unit: uint8(in.Unit), target: in.Target})
		if in.Target != ir.Tex2D {
			return fmt.Errorf("3D and cube textures are not supported by the simulator's TX unit")
		}
		if td != d || in.Sat {
			emit(vinst{op: vMAD, dst: d, mask: m, src: [3]vsrc{{ref: td, swz: [4]uint8{0, 1, 2, 3}}, one(), zero()}})
		}
	default:
		return fmt.Errorf("opcode %s has no lowering", in.Op)
	}
	if final.file == fOut && final.idx == depthOut {
		if finalMask&1 == 0 {
			return nil
		}
		c.add(vinst{op: vMAD, dst: final, mask: 8, src: [3]vsrc{{ref: d, swz: [4]uint8{0, 0, 0, 0}}, one(), zero()}})
	}
	return nil
}

// sinCos expands a scalar SIN or COS (of component 0 of x) into the
// channels of m: computed in the lowest channel of m (so a scalar keeps
// its component), then replicated when m has more.
func (l *lowerer) sinCos(cos bool, x vsrc, d vref, m uint8, sat bool) {
	ch := bits.TrailingZeros8(m)
	from := x.swz[0]
	x.swz = [4]uint8{selZero, selZero, selZero, selZero}
	if !x.lit {
		x.swz[ch] = from
	}
	one := uint8(1) << ch
	if m == one {
		l.sinCosVec(cos, x, d, m, sat)
		return
	}
	t := l.c.newVreg()
	l.sinCosVec(cos, x, t, one, false)
	rep := uint8(ch)
	l.c.add(vinst{op: vMAD, dst: d, mask: m, src: [3]vsrc{{ref: t, swz: [4]uint8{rep, rep, rep, rep}}, lit(1), zero()}, clamp: sat})
}
