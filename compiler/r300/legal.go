package r300

import (
	"fmt"
	"math/bits"
	"strings"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// argKind says where a hop operand comes from.
type argKind uint8

const (
	argNone argKind = iota
	argReg
	argSrcp
	argInline
)

// harg is an operand in the hardware's terms: a register read through a
// native select (RGB: pattern 0-7, rgb rrr ggg bbb aaa gbr brg abg; alpha:
// component 0-3), the pre-subtract result, or an inline 0, 1 or 0.5.
type harg struct {
	kind argKind
	ref  vref
	pat  uint8
	inl  uint8 // 0: 0.0, 1: 1.0, 2: 0.5
	mod  uint8
}

// rgbPatterns are the RGB operand selects per source (L1571-1646): the
// component each of r, g, b reads.
var rgbPatterns = [8][3]uint8{{0, 1, 2}, {0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {1, 2, 0}, {2, 0, 1}, {3, 2, 1}}

var patNames = [8]string{"rgb", "rrr", "ggg", "bbb", "aaa", "gbr", "brg", "abg"}

// hop is one half-instruction (RGB or alpha) or a texture instruction.
type hop struct {
	alpha bool
	op    uint8
	dst   vref
	wmask uint8
	out   int // colour target, -1 none
	omask uint8
	depth bool
	args  [3]harg
	nargs int
	pop   int8
	psrc  [2]harg
	omod  uint8
	clamp bool

	tex     bool
	texOp   r3.TexOp
	unit    uint8
	coord   vref
	partner *hop

	// scheduling; flex marks a hop whose one-component result may be
	// computed by either unit (see markFlexible).
	flex         bool
	index        int
	level, instr int
}

func (a harg) String() string {
	var s string
	switch a.kind {
	case argReg:
		s = a.ref.String()
	case argSrcp:
		s = "srcp"
	case argInline:
		return []string{"0.0", "1.0", "0.5"}[a.inl]
	default:
		return "_"
	}
	return s
}

func (h *hop) argString(a harg) string {
	s := a.String()
	if a.kind == argReg || a.kind == argSrcp {
		if h.alpha {
			s += "." + string("rgba"[a.pat])
		} else {
			s += "." + patNames[a.pat]
		}
	}
	switch a.mod {
	case 1:
		s = "-" + s
	case 2:
		s = "|" + s + "|"
	case 3:
		s = "-|" + s + "|"
	}
	return s
}

// String prints the hop for pass dumps.
func (h *hop) String() string {
	if h.tex {
		if h.texOp == r3.TexKill {
			return fmt.Sprintf("tex: KIL %s", h.coord)
		}
		return fmt.Sprintf("tex: %s %s, %s, tex%d", []string{"NOP", "TEX", "KIL", "TXP", "TXB"}[h.texOp], h.dst, h.coord, h.unit)
	}
	unit, ops := "rgb", r3.EnumRGBOp
	if h.alpha {
		unit, ops = "alpha", r3.EnumAlphaOp
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", unit, ops[h.op])
	if h.omod != 0 {
		b.WriteString(r3.EnumOmod[h.omod])
	}
	if h.clamp {
		b.WriteString(".sat")
	}
	var d []string
	ms := func(m uint8) string {
		if h.alpha {
			return "w"
		}
		return maskString(m)
	}
	if h.wmask != 0 {
		d = append(d, h.dst.String()+"."+ms(h.wmask))
	}
	if h.out >= 0 {
		d = append(d, fmt.Sprintf("out%d.%s", h.out, ms(h.omask)))
	}
	if h.depth {
		d = append(d, "depth")
	}
	if len(d) == 0 {
		d = []string{"_"}
	}
	b.WriteString(" " + strings.Join(d, " "))
	var a []string
	for k := 0; k < h.nargs; k++ {
		a = append(a, h.argString(h.args[k]))
	}
	if len(a) > 0 {
		b.WriteString(" <- " + strings.Join(a, ", "))
	}
	if h.pop >= 0 {
		fmt.Fprintf(&b, " srcp(%d: %s, %s)", h.pop, h.psrc[0], h.psrc[1])
	}
	if h.partner != nil {
		b.WriteString(" +paired")
	}
	return b.String()
}

// constTable assigns constant registers. An IR constant read on several
// components keeps them in place in a slot of its own; one read on a
// single component (a float uniform, say) and every replicated literal
// pack into free components of any slot, the unread components of vector
// constants included (a vec3 uniform's w, for one). Reads of packed
// values select the component they landed in.
type constTable struct {
	slots []ConstSlot
	used  []uint8 // per slot: components holding a value
	lit   []uint8 // per slot: components holding literals
	// irSlot maps an IR constant kept in place to its slot; packed maps
	// an IR constant read on one component to its slot and component.
	irSlot map[int]int
	packed map[int][2]int
	// reads holds per IR constant the components the program reads;
	// packable marks those that may pack.
	reads    map[int]uint8
	packable map[int]bool
	// byValue marks literal IR constants (not pre-subtract sources)
	// placed by value per read: a read finds any slot and select
	// holding its values, so vec4(1, 0, 0, 1) reads vec4(0, 1, 0,
	// 1)'s register through gbr.
	byValue map[int]bool
}

func newConstTable() *constTable {
	return &constTable{irSlot: map[int]int{}, packed: map[int][2]int{}, reads: map[int]uint8{}, packable: map[int]bool{}, byValue: map[int]bool{}}
}

func (t *constTable) newSlot() int {
	t.slots = append(t.slots, ConstSlot{})
	t.used = append(t.used, 0)
	t.lit = append(t.lit, 0)
	return len(t.slots) - 1
}

// free returns a slot and component holding nothing, making a new slot
// when every component is taken.
func (t *constTable) free() (int, uint8) {
	for s := range t.slots {
		for c := 0; c < 4; c++ {
			if t.used[s]>>c&1 == 0 {
				return s, uint8(c)
			}
		}
	}
	return t.newSlot(), 0
}

// plan records which IR constants the live instructions read, on which
// components, and gives the ones kept in place their slots in order of
// first use (before any packing, so packed values can use their free
// components).
func (t *constTable) plan(c *compilation) {
	pinned := map[int]bool{}
	var order []int
	note := func(s vsrc, comps uint8, pin bool) {
		if s.lit || s.srcp || s.ref.file != fConst {
			return
		}
		if _, ok := t.reads[s.ref.idx]; !ok {
			order = append(order, s.ref.idx)
		}
		t.reads[s.ref.idx] |= comps
		pinned[s.ref.idx] = pinned[s.ref.idx] || pin
	}
	for i := range c.insts {
		v := &c.insts[i]
		if v.dead {
			continue
		}
		for k := 0; k < vopInfo[v.op].nsrc; k++ {
			note(v.src[k], v.src[k].channels(v.readMask(k)), false)
		}
		for k := 0; k < 2 && v.pop >= 0; k++ {
			// Pre-subtract sources read their registers in place.
			note(v.psrc[k], v.psrc[k].channels(15), true)
		}
	}
	for _, idx := range order {
		t.byValue[idx] = !pinned[idx] && c.p.Consts[idx].Uniform == ""
		t.packable[idx] = !pinned[idx] && !t.byValue[idx] && bits.OnesCount8(t.reads[idx]) == 1
	}
	for _, idx := range order {
		if !t.packable[idx] && !t.byValue[idx] {
			t.irConst(c, idx)
		}
	}
}

// irConst returns the slot of an IR constant kept in place.
func (t *constTable) irConst(c *compilation, idx int) int {
	if s, ok := t.irSlot[idx]; ok {
		return s
	}
	k := c.p.Consts[idx]
	s := t.newSlot()
	m, ok := t.reads[idx]
	if !ok {
		m = 15
	}
	for i := 0; i < 4; i++ {
		if m>>i&1 == 0 {
			continue
		}
		if k.Uniform != "" {
			t.slots[s].Uniform[i], t.slots[s].Comp[i] = k.Uniform, i
		} else {
			t.slots[s].Value[i] = k.Value[i]
			t.lit[s] |= 1 << i
		}
	}
	t.used[s] = m
	t.irSlot[idx] = s
	return s
}

// pack returns the slot and component of an IR constant read on component
// comp only.
func (t *constTable) pack(c *compilation, idx int, comp uint8) (int, uint8) {
	if p, ok := t.packed[idx]; ok {
		return p[0], uint8(p[1])
	}
	k := c.p.Consts[idx]
	if k.Uniform == "" {
		return t.literal(k.Value[comp])
	}
	for s := range t.slots {
		for i := 0; i < 4; i++ {
			if t.used[s]>>i&1 != 0 && t.lit[s]>>i&1 == 0 && t.slots[s].Uniform[i] == k.Uniform && t.slots[s].Comp[i] == int(comp) {
				t.packed[idx] = [2]int{s, i}
				return s, uint8(i)
			}
		}
	}
	s, i := t.free()
	t.slots[s].Uniform[i], t.slots[s].Comp[i] = k.Uniform, int(comp)
	t.used[s] |= 1 << i
	t.packed[idx] = [2]int{s, int(i)}
	return s, i
}

// literalVec returns a slot and RGB select (rgbPatterns) whose components
// hold vals in the channels of g, placing them when no slot has them.
func (t *constTable) literalVec(vals [3]float32, g uint8, w *float32) (int, uint8) {
	for s := range t.slots {
		for p := 0; p < 8; p++ {
			ok := true
			for ch := 0; ch < 3 && ok; ch++ {
				comp := rgbPatterns[p][ch]
				ok = g>>ch&1 == 0 || t.lit[s]>>comp&1 != 0 &&
					r3.RoundFP24(float64(t.slots[s].Value[comp])) == r3.RoundFP24(float64(vals[ch]))
			}
			if ok {
				return s, uint8(p)
			}
		}
	}
	slot := -1
	for s := range t.slots {
		if t.used[s]&g == 0 {
			slot = s
			break
		}
	}
	if slot < 0 {
		slot = t.newSlot()
	}
	for ch := 0; ch < 3; ch++ {
		if g>>ch&1 != 0 {
			t.slots[slot].Value[ch] = vals[ch]
			t.lit[slot] |= 1 << ch
			t.used[slot] |= 1 << ch
		}
	}
	if w != nil && t.used[slot]&8 == 0 {
		t.slots[slot].Value[3] = *w
		t.lit[slot] |= 8
		t.used[slot] |= 8
	}
	return slot, 0
}

// literal returns the slot and component holding v (compared after FP24
// rounding), packing new literals into free components.
func (t *constTable) literal(v float32) (int, uint8) {
	r := r3.RoundFP24(float64(v))
	for s := range t.slots {
		for c := 0; c < 4; c++ {
			if t.lit[s]>>c&1 != 0 && r3.RoundFP24(float64(t.slots[s].Value[c])) == r {
				return s, uint8(c)
			}
		}
	}
	s, c := t.free()
	t.slots[s].Value[c] = v
	t.lit[s] |= 1 << c
	t.used[s] |= 1 << c
	return s, c
}

// legalize splits every vinst into hops with native operand selects (the
// "legalize" pass): RGB channels whose swizzles no single select serves go
// to separate hops; dot products and transcendentals pair an RGB hop with
// an alpha hop that must issue together.
func (c *compilation) legalize() error {
	c.consts = newConstTable()
	c.consts.plan(c)
	c.findMovable()
	for i := range c.insts {
		v := &c.insts[i]
		if v.dead {
			continue
		}
		if err := c.legalizeInst(v); err != nil {
			return fmt.Errorf("%s: %w", v.String(), err)
		}
	}
	for i, h := range c.hops {
		h.index, h.instr = i, -1
	}
	if n := len(c.consts.slots); n > r3.MaxConsts {
		return &LimitError{Limit: "constants", Need: n, Max: r3.MaxConsts}
	}
	return nil
}

func (c *compilation) addHop(h *hop) *hop {
	c.hops = append(c.hops, h)
	return h
}

// resolve turns operand ref into a hop-level register: IR constants kept
// in place map to their slots.
func (c *compilation) resolve(r vref) vref {
	if r.file == fConst {
		return vref{fConst, c.consts.irConst(c, r.idx)}
	}
	return r
}

// byValue reports whether s reads a literal IR constant placed by value.
func (c *compilation) byValue(s vsrc) bool {
	return !s.lit && !s.srcp && s.ref.file == fConst && c.consts.byValue[s.ref.idx]
}

// rawAt returns the value a by-value literal operand reads at position ch
// (before its modifiers), or false for a position reading nothing.
func (c *compilation) rawAt(s vsrc, ch int) (float32, bool) {
	switch x := s.swz[ch]; {
	case x < 4:
		return c.p.Consts[s.ref.idx].Value[x], true
	case x == selZero:
		return 0, true
	case x == selOne:
		return 1, true
	case x == selHalf:
		return 0.5, true
	}
	return 0, false
}

// rgbLiteral is rgbArg for a by-value literal operand.
func (c *compilation) rgbLiteral(s vsrc, g uint8) harg {
	a := harg{mod: modOf(s.neg, s.abs)}
	var vals [3]float32
	var want uint8
	for ch := 0; ch < 3; ch++ {
		if g>>ch&1 == 0 {
			continue
		}
		if v, ok := c.rawAt(s, ch); ok {
			vals[ch], want = v, want|1<<ch
		}
	}
	if want == 0 {
		a.kind = argNone
		return a
	}
	same := true
	first := -1
	for ch := 0; ch < 3; ch++ {
		if want>>ch&1 != 0 {
			if first < 0 {
				first = ch
			}
			same = same && vals[ch] == vals[first]
		}
	}
	if n, ok := inlineOf(vals[first]); ok && same {
		a.kind, a.inl = argInline, n
		return a
	}
	var w *float32
	if s.swz[3] < 4 {
		// The w value goes along when the slot is new: abg may serve
		// another literal (vec4(1, 1, 0, 1) from vec4(0, 0, 1, 1)).
		x, _ := c.rawAt(s, 3)
		w = &x
	}
	slot, pat := c.consts.literalVec(vals, want, w)
	a.kind, a.ref, a.pat = argReg, vref{fConst, slot}, pat
	return a
}

// operand resolves a register operand: the register the hop reads and the
// operand with its swizzle on that register's components (a packed
// constant moved to another component).
func (c *compilation) operand(s vsrc) (vsrc, vref) {
	if s.ref.file != fConst || !c.consts.packable[s.ref.idx] {
		return s, c.resolve(s.ref)
	}
	from := uint8(bits.TrailingZeros8(c.consts.reads[s.ref.idx]))
	slot, comp := c.consts.pack(c, s.ref.idx, from)
	for ch := range s.swz {
		if s.swz[ch] == from {
			s.swz[ch] = comp
		}
	}
	return s, vref{fConst, slot}
}

func inlineOf(v float32) (uint8, bool) {
	switch v {
	case 0:
		return 0, true
	case 1:
		return 1, true
	case 0.5:
		return 2, true
	}
	return 0, false
}

func modOf(neg, abs bool) uint8 {
	m := uint8(0)
	if neg {
		m |= 1
	}
	if abs {
		m |= 2
	}
	return m
}

// rgbArg finds a native RGB select for operand s over channels g (bits of
// r, g, b), or reports that none exists.
func (c *compilation) rgbArg(s vsrc, g uint8) (harg, bool) {
	a := harg{mod: modOf(s.neg, s.abs)}
	if s.lit {
		if n, ok := inlineOf(s.val); ok {
			a.kind, a.inl = argInline, n
			return a, true
		}
		slot, comp := c.consts.literal(s.val)
		a.kind, a.ref, a.pat = argReg, vref{fConst, slot}, []uint8{1, 2, 3, 4}[comp]
		return a, true
	}
	if c.byValue(s) {
		return c.rgbLiteral(s, g), true
	}
	var reg vref
	if !s.srcp {
		s, reg = c.operand(s)
	}
	// All read channels inline and equal: an inline select.
	inl, regs := -1, 0
	for ch := 0; ch < 3; ch++ {
		if g>>ch&1 == 0 {
			continue
		}
		if x := s.swz[ch]; x == selAny {
			continue
		} else if x >= 4 {
			if inl >= 0 && inl != int(x) {
				return a, false
			}
			inl = int(x)
		} else {
			regs++
		}
	}
	if inl >= 0 {
		if regs > 0 || s.srcp {
			return a, false
		}
		a.kind, a.inl = argInline, uint8(inl-4)
		return a, true
	}
	if regs == 0 {
		a.kind = argNone
		return a, true
	}
	npat := 8
	if s.srcp {
		npat = 4 // srcp.rgb, rrr, ggg, bbb (srcp.aaa is the alpha half's)
	}
	for p := 0; p < npat; p++ {
		ok := true
		for ch := 0; ch < 3; ch++ {
			if g>>ch&1 != 0 && s.swz[ch] != selAny && rgbPatterns[p][ch] != s.swz[ch] {
				ok = false
				break
			}
		}
		if ok {
			a.pat = uint8(p)
			if s.srcp {
				a.kind = argSrcp
			} else {
				a.kind, a.ref = argReg, reg
			}
			return a, true
		}
	}
	return a, false
}

// alphaArg returns the alpha select reading component pos of operand s.
func (c *compilation) alphaArg(s vsrc, pos int) harg {
	a := harg{mod: modOf(s.neg, s.abs)}
	if s.lit {
		if n, ok := inlineOf(s.val); ok {
			a.kind, a.inl = argInline, n
			return a
		}
		slot, comp := c.consts.literal(s.val)
		a.kind, a.ref, a.pat = argReg, vref{fConst, slot}, comp
		return a
	}
	if s.swz[pos] == selAny {
		a.kind, a.inl = argInline, 0
		return a
	}
	if c.byValue(s) {
		v, _ := c.rawAt(s, pos)
		if n, ok := inlineOf(v); ok {
			a.kind, a.inl = argInline, n
			return a
		}
		slot, comp := c.consts.literal(v)
		a.kind, a.ref, a.pat = argReg, vref{fConst, slot}, comp
		return a
	}
	if s.srcp {
		x := s.swz[pos]
		if x >= 4 {
			a.kind, a.inl = argInline, x-4
			return a
		}
		a.kind, a.pat = argSrcp, x
		return a
	}
	s, reg := c.operand(s)
	x := s.swz[pos]
	if x >= 4 {
		a.kind, a.inl = argInline, x-4
		return a
	}
	a.kind, a.ref, a.pat = argReg, reg, x
	return a
}

// constSlot returns the constant slot operand s reads, if it reads one:
// uniforms and IR constants by their slot, literals that are not inline
// constants by the slot the literal packs into.
func (c *compilation) constSlot(s vsrc) (int, bool) {
	switch {
	case s.srcp:
		return 0, false
	case s.lit:
		if _, ok := inlineOf(s.val); ok {
			return 0, false
		}
		slot, _ := c.consts.literal(s.val)
		return slot, true
	case s.ref.file == fConst:
		_, reg := c.operand(s)
		return reg.idx, true
	}
	return 0, false
}

// limitConsts keeps an instruction to two distinct constant slots, the
// most one ALU instruction can address (guide §3.5.1): operands reading a
// third slot are copied into temporaries first. Literals count too, since
// they live in constant slots unless they are the inline 0, 1 or 0.5; two
// by-value literal vectors count once when one's values are a select of
// the other's (shares). legalizeInst checks the result.
func (c *compilation) limitConsts(v *vinst) error {
	slots := map[int]bool{}
	var lits []int
	for k := 0; k < 2; k++ {
		if v.pop >= 0 && v.psrc[k].ref.file == fConst {
			slots[c.resolve(v.psrc[k].ref).idx] = true
		}
	}
	for k := 0; k < vopInfo[v.op].nsrc; k++ {
		if c.byValue(v.src[k]) {
			shared := false
			for _, o := range lits {
				shared = shared || c.shares(v.src[o], v.readMask(o), v.src[k], v.readMask(k))
			}
			if shared {
				continue
			}
			if len(slots)+len(lits) < 2 {
				lits = append(lits, k)
				continue
			}
		} else {
			slot, ok := c.constSlot(v.src[k])
			if !ok || slots[slot] {
				continue
			}
			if len(slots)+len(lits) < 2 {
				slots[slot] = true
				continue
			}
		}
		t, err := c.copyOperand(v.src[k], v.readMask(k))
		if err != nil {
			return err
		}
		v.src[k] = t
	}
	return nil
}

// copyOperand copies the register components (or the literal) operand s
// reads at positions m into a new virtual register and returns s reading
// the copy instead: only what is read is copied, so a scalar's copy is a
// one-component operation either unit can take.
func (c *compilation) copyOperand(s vsrc, m uint8) (vsrc, error) {
	t := c.newVreg()
	if s.lit {
		v := vinst{op: vMAD, dst: t, mask: 1, src: [3]vsrc{lit(s.val), one(), zero()}, pop: -1}
		if err := c.legalizeInst(&v); err != nil {
			return vsrc{}, err
		}
		return vsrc{ref: t, neg: s.neg, abs: s.abs}, nil // swizzle xxxx
	}
	comps := s.channels(m)
	if comps == 0 || s.srcp {
		return s, nil
	}
	v := vinst{op: vMAD, dst: t, mask: comps, src: [3]vsrc{{ref: s.ref, swz: [4]uint8{0, 1, 2, 3}}, one(), zero()}, pop: -1}
	if err := c.legalizeInst(&v); err != nil {
		return vsrc{}, err
	}
	s.ref = t
	return s, nil
}

// shares predicts whether by-value literal b (read at positions mb) can
// read the slot that a (read at ma) lands in: a's RGB values sit in place,
// b's RGB values must be one select of them and its alpha value one of
// them.
func (c *compilation) shares(a vsrc, ma uint8, b vsrc, mb uint8) bool {
	var vals [4]float32
	var have uint8
	for ch := 0; ch < 4; ch++ {
		if ma>>ch&1 != 0 && ch < 3 || ch == 3 && a.swz[3] < 4 {
			if x, ok := c.rawAt(a, ch); ok {
				vals[ch], have = x, have|1<<ch
			}
		}
	}
	match := func(ch int, comp uint8) bool {
		x, ok := c.rawAt(b, ch)
		return !ok || have>>comp&1 != 0 && r3.RoundFP24(float64(vals[comp])) == r3.RoundFP24(float64(x))
	}
	rgb := false
	for p := 0; p < 8 && !rgb; p++ {
		rgb = true
		for ch := 0; ch < 3; ch++ {
			if mb>>ch&1 != 0 && !match(ch, rgbPatterns[p][ch]) {
				rgb = false
			}
		}
	}
	if !rgb || mb&8 == 0 {
		return rgb
	}
	for comp := uint8(0); comp < 4; comp++ {
		if match(3, comp) {
			return true
		}
	}
	return false
}

// overConst returns the index of a source operand of v to copy when one of
// the hops from mark on addresses more than two constant slots.
func (c *compilation) overConst(mark int, v *vinst) int {
	for _, h := range c.hops[mark:] {
		if h.tex {
			continue
		}
		regs := map[vref]bool{}
		for k := 0; k < h.nargs; k++ {
			if h.args[k].kind == argReg && h.args[k].ref.file == fConst {
				regs[h.args[k].ref] = true
			}
		}
		for k := 0; k < 2 && h.pop >= 0; k++ {
			if h.psrc[k].kind == argReg && h.psrc[k].ref.file == fConst {
				regs[h.psrc[k].ref] = true
			}
		}
		if len(regs) <= 2 {
			continue
		}
		for k := vopInfo[v.op].nsrc - 1; k >= 0; k-- {
			if s := v.src[k]; s.lit && !isInline(s.val) || !s.lit && !s.srcp && s.ref.file == fConst {
				return k
			}
		}
	}
	return -1
}

func isInline(v float32) bool {
	_, ok := inlineOf(v)
	return ok
}

// copyToTemp makes a legal full-vector copy of s (channels m) in a new
// virtual register and returns an operand reading it in place.
func (c *compilation) copyToTemp(s vsrc, m uint8) (vsrc, error) {
	t := c.newVreg()
	v := vinst{op: vMAD, dst: t, mask: m, src: [3]vsrc{s, one(), zero()}, pop: -1}
	if err := c.legalizeInst(&v); err != nil {
		return vsrc{}, err
	}
	return vsrc{ref: t, swz: [4]uint8{0, 1, 2, 3}}, nil
}

func (c *compilation) dstFields(h *hop, v *vinst, m uint8) {
	h.out = -1
	switch {
	case v.dst.file == fOut && v.dst.idx == depthOut:
		h.depth = true
	case v.dst.file == fOut:
		h.out, h.omask = v.dst.idx, m
	default:
		h.dst, h.wmask = v.dst, m
	}
	h.omod, h.clamp = v.omod, v.clamp
}

// presubArgs converts a vinst's pre-subtract sources for one half.
func (c *compilation) presubArgs(h *hop, v *vinst) {
	h.pop = -1
	used := false
	for k := 0; k < h.nargs; k++ {
		used = used || h.args[k].kind == argSrcp
	}
	if !used {
		return
	}
	h.pop = v.pop
	for k := 0; k < 2; k++ {
		s := v.psrc[k]
		if s.ref.file == fNone {
			continue
		}
		// The pre-subtract reads its slot registers raw: rgb for the RGB
		// half, .a for the alpha half (the presub pass checked that the
		// consumer selects components the sources hold in place).
		h.psrc[k] = harg{kind: argReg, ref: c.resolve(s.ref)}
		if h.alpha {
			h.psrc[k].pat = 3
		}
	}
}

var vopRGB = map[vop]uint8{vMAD: r3.RGBMAD, vDP3: r3.RGBDP3, vDP4: r3.RGBDP4, vD2A: r3.RGBD2A, vMIN: r3.RGBMIN,
	vMAX: r3.RGBMAX, vCND: r3.RGBCND, vCMP: r3.RGBCMP, vFRC: r3.RGBFRC}
var vopAlpha = map[vop]uint8{vMAD: r3.AlphaMAD, vMIN: r3.AlphaMIN, vMAX: r3.AlphaMAX, vCND: r3.AlphaCND,
	vCMP: r3.AlphaCMP, vFRC: r3.AlphaFRC, vEX2: r3.AlphaEX2, vLN2: r3.AlphaLN2, vRCP: r3.AlphaRCP, vRSQ: r3.AlphaRSQ}

func (c *compilation) legalizeInst(v *vinst) error {
	if vopInfo[v.op].tex {
		return c.legalizeOnce(v)
	}
	if err := c.limitConsts(v); err != nil {
		return err
	}
	for try := 0; ; try++ {
		mark, saved := len(c.hops), *v
		if err := c.legalizeOnce(v); err != nil {
			return err
		}
		fits := c.hopsFit(mark)
		k := c.overConst(mark, v)
		if fits && k < 0 {
			return nil
		}
		if try == 3 {
			return errSlots
		}
		// A prediction (limitConsts, the presub pass) missed: compute
		// the pre-subtract apart, or copy a constant operand, and
		// legalise again.
		c.hops = c.hops[:mark]
		*v = saved
		if !fits && v.pop >= 0 {
			if err := c.unpresub(v); err != nil {
				return err
			}
			continue
		}
		if k < 0 {
			return errSlots
		}
		t, err := c.copyOperand(v.src[k], v.readMask(k))
		if err != nil {
			return err
		}
		v.src[k] = t
	}
}

// hopsFit reports whether every hop from mark on (with its partner) fits
// the source slots of one instruction. It is optimistic about values the
// scheduler may move to w (movable): read from the alpha slots, they
// leave the RGB slots to the others. A miss shows in the scheduler, and
// Compile then compiles again without pre-subtracts (errSlots).
func (c *compilation) hopsFit(mark int) bool {
	for _, h := range c.hops[mark:] {
		if h.tex {
			continue
		}
		group := []*hop{h}
		if h.partner != nil {
			group = append(group, h.partner)
		}
		if _, ok := fill(&instr{}, group); ok {
			continue
		}
		var moved []*hop
		for _, g := range group {
			m := *g
			for k := 0; k < m.nargs; k++ {
				if a := &m.args[k]; a.kind == argReg && c.movable[a.ref] {
					a.pat = 3
					if !m.alpha {
						a.pat = 4
					}
				}
			}
			moved = append(moved, &m)
		}
		if _, ok := fill(&instr{}, moved); !ok {
			return false
		}
	}
	return true
}

// findMovable marks the temps written once, on one component, whose
// readers all read them through operand selects (see flex.go): the
// scheduler may keep them in w.
func (c *compilation) findMovable() {
	c.movable = map[vref]bool{}
	u := c.usages()
	for t := range u {
		if len(u[t].defs) != 1 {
			continue
		}
		d := &c.insts[u[t].defs[0]]
		if vopInfo[d.op].tex || vopInfo[d.op].dot || d.pop >= 0 || bits.OnesCount8(d.mask) != 1 {
			continue
		}
		ok := true
		for _, us := range u[t].uses {
			ok = ok && us.k < 3 && !vopInfo[c.insts[us.inst].op].tex
		}
		c.movable[vref{fTemp, t}] = ok
	}
}

// unpresub computes v's pre-subtract into a temporary of its own and
// makes v read that instead of srcp.
func (c *compilation) unpresub(v *vinst) error {
	s0, s1 := v.psrc[0], v.psrc[1]
	var p vinst
	switch v.pop {
	case 0: // 1 - 2·s0
		p = vinst{op: vMAD, src: [3]vsrc{s0, lit(-2), one()}}
	case 1: // s1 - s0
		p = vinst{op: vMAD, src: [3]vsrc{s1, one(), neg(s0)}}
	case 2: // s1 + s0
		p = vinst{op: vMAD, src: [3]vsrc{s1, one(), s0}}
	case 3: // 1 - s0
		p = vinst{op: vMAD, src: [3]vsrc{one(), one(), neg(s0)}}
	}
	var comps uint8
	for k := 0; k < vopInfo[v.op].nsrc; k++ {
		if v.src[k].srcp {
			for ch := 0; ch < 4; ch++ {
				if v.readMask(k)>>ch&1 != 0 && v.src[k].swz[ch] < 4 {
					comps |= 1 << v.src[k].swz[ch]
				}
			}
		}
	}
	t := c.newVreg()
	p.dst, p.mask, p.pop = t, comps, -1
	if err := c.legalizeInst(&p); err != nil {
		return err
	}
	for k := 0; k < vopInfo[v.op].nsrc; k++ {
		if v.src[k].srcp {
			v.src[k].srcp, v.src[k].ref = false, t
		}
	}
	v.pop, v.psrc = -1, [2]vsrc{}
	return nil
}

func (c *compilation) legalizeOnce(v *vinst) error {
	info := vopInfo[v.op]
	switch {
	case info.tex:
		h := &hop{tex: true, out: -1, pop: -1, unit: v.unit, coord: v.src[0].ref, dst: v.dst}
		h.texOp = map[vop]r3.TexOp{vTEX: r3.TexLD, vTXP: r3.TexProj, vTXB: r3.TexLODBias, vKIL: r3.TexKill}[v.op]
		c.addHop(h)
		return nil
	case info.scalar:
		al := &hop{alpha: true, op: vopAlpha[v.op], nargs: 1}
		al.args[0] = c.alphaArg(v.src[0], 0)
		c.presubArgs(al, v)
		al.out = -1
		if v.mask&8 != 0 {
			c.dstFields(al, v, 1)
		}
		if v.mask&7 != 0 {
			// SOP replicates the alpha unit's result (L1650); the alpha
			// half's own modifiers apply to its own write only.
			rgb := &hop{op: r3.RGBSOP, pop: -1}
			c.dstFields(rgb, v, v.mask&7)
			if v.mask&8 == 0 {
				al.omod, al.clamp = 0, false
			}
			al.partner, rgb.partner = rgb, al
			c.addHop(al)
			c.addHop(rgb)
			return nil
		}
		c.addHop(al)
		return nil
	case info.dot:
		var need [3]uint8
		switch v.op {
		case vDP3, vDP4:
			need = [3]uint8{7, 7, 0}
		case vD2A:
			need = [3]uint8{3, 3, 4}
		}
		rgb := &hop{op: vopRGB[v.op], nargs: 3, out: -1}
		orig := v.src
		for k := 0; k < 3; k++ {
			if need[k] == 0 {
				continue
			}
			a, ok := c.rgbArg(v.src[k], need[k])
			if !ok {
				s, err := c.copyToTemp(v.src[k], need[k])
				if err != nil {
					return err
				}
				v.src[k] = s
				a, _ = c.rgbArg(s, need[k])
			}
			rgb.args[k] = a
		}
		if v.op != vD2A {
			rgb.nargs = 2
		}
		c.presubArgs(rgb, v)
		rgb.out = -1
		if v.mask&7 != 0 {
			c.dstFields(rgb, v, v.mask&7)
		}
		if v.op == vDP4 || v.mask&8 != 0 {
			al := &hop{alpha: true, op: r3.AlphaDP, out: -1, pop: -1}
			if v.op == vDP4 {
				// DP4 takes its .a terms from the alpha half's A and B.
				al.args[0], al.args[1] = c.alphaArg(orig[0], 3), c.alphaArg(orig[1], 3)
				al.nargs = 2
				c.presubArgs(al, v)
			}
			if v.mask&8 != 0 {
				c.dstFields(al, v, 1)
			}
			if v.mask&7 == 0 {
				rgb.omod, rgb.clamp = 0, false
			}
			rgb.partner, al.partner = al, rgb
			c.addHop(rgb)
			c.addHop(al)
			return nil
		}
		c.addHop(rgb)
		return nil
	}
	// Component-wise: RGB channels in groups sharing native selects, then
	// the alpha channel.
	n := info.nsrc
	rest := v.mask & 7
	for rest != 0 {
		placed := false
		for _, g := range []uint8{7, 3, 5, 6, 1, 2, 4} {
			if g&rest != g {
				continue
			}
			var args [3]harg
			ok := true
			for k := 0; k < n && ok; k++ {
				args[k], ok = c.rgbArg(v.src[k], g)
			}
			if !ok {
				continue
			}
			h := &hop{op: vopRGB[v.op], nargs: n, args: args}
			c.presubArgs(h, v)
			c.dstFields(h, v, g)
			c.addHop(h)
			rest &^= g
			placed = true
			break
		}
		if !placed {
			return fmt.Errorf("no native select for channels %s", maskString(rest))
		}
	}
	if v.mask&8 != 0 {
		h := &hop{alpha: true, op: vopAlpha[v.op], nargs: n}
		for k := 0; k < n; k++ {
			h.args[k] = c.alphaArg(v.src[k], 3)
		}
		c.presubArgs(h, v)
		c.dstFields(h, v, 1)
		c.addHop(h)
	}
	return nil
}
