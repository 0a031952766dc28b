package r300

import (
	"fmt"
	"sort"
	"strings"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// instr is one ALU instruction being filled: an RGB hop, an alpha hop and
// the registers in their source slots (RGB ADDR0-2, ALPHA ADDR0-2).
type instr struct {
	rgb, alpha *hop
	rgbSlot    [3]vref
	alphaSlot  [3]vref
	// argSlot[half][k] is the slot operand k reads (-1 none); psrc use
	// slots 0 and 1.
	argSlot [2][3]int
}

// level is one texture indirection: its TEX hops, then its ALU
// instructions (L1685, guide §3.2).
type level struct {
	tex []*hop
	alu []*instr
}

// access is one register a hop reads or writes, with components.
type access struct {
	ref   vref
	comps uint8
}

func (h *hop) reads() []access {
	var out []access
	if h.tex {
		return []access{{h.coord, 15}}
	}
	for k := 0; k < h.nargs; k++ {
		a := h.args[k]
		if a.kind != argReg {
			continue
		}
		var m uint8
		if h.alpha {
			m = 1 << a.pat
		} else {
			for _, x := range rgbPatterns[a.pat] {
				m |= 1 << x
			}
		}
		out = append(out, access{a.ref, m})
	}
	if h.pop >= 0 {
		m := uint8(7)
		if h.alpha {
			m = 8
		}
		for k := 0; k < 2; k++ {
			if h.psrc[k].kind == argReg {
				out = append(out, access{h.psrc[k].ref, m})
			}
		}
	}
	return out
}

func (h *hop) writes() []access {
	if h.tex {
		if h.texOp == r3.TexKill {
			return nil
		}
		return []access{{h.dst, 15}}
	}
	var out []access
	shift := func(m uint8) uint8 {
		if h.alpha {
			return m << 3
		}
		return m
	}
	if h.wmask != 0 {
		out = append(out, access{h.dst, shift(h.wmask)})
	}
	if h.out >= 0 {
		out = append(out, access{vref{fOut, h.out}, shift(h.omask)})
	}
	if h.depth {
		out = append(out, access{vref{fOut, depthOut}, 8})
	}
	return out
}

func overlaps(a, b []access) bool {
	for _, x := range a {
		for _, y := range b {
			if x.ref == y.ref && x.comps&y.comps != 0 {
				return true
			}
		}
	}
	return false
}

// dep kinds between an earlier hop i and a later hop j.
const (
	depNone  = iota
	depOrder // j may share i's instruction (write after read)
	depAfter // j must come strictly after i
)

func depKind(i, j *hop) int {
	if overlaps(j.reads(), i.writes()) || overlaps(j.writes(), i.writes()) {
		return depAfter
	}
	if overlaps(j.writes(), i.reads()) {
		return depOrder
	}
	return depNone
}

// schedule assigns levels and packs the hops of each level into ALU
// instructions, first fit, pairing RGB and alpha halves (the "schedule"
// pass).
func (c *compilation) schedule() error {
	c.markFlexible()
	hops := c.hops
	n := len(hops)
	kind := make([][]int8, n)
	for j := range hops {
		kind[j] = make([]int8, j)
		for i := 0; i < j; i++ {
			kind[j][i] = int8(depKind(hops[i], hops[j]))
		}
	}
	// Levels, as soon as possible: a TEX that reads (or overwrites)
	// anything an ALU of level L touches goes to L+1.
	maxLevel := 0
	for j, h := range hops {
		if h.partner != nil && h.partner.index < j {
			continue // levelled with its partner
		}
		group := []*hop{h}
		if h.partner != nil {
			group = append(group, h.partner)
		}
		l := 0
		for _, g := range group {
			for i := 0; i < j; i++ {
				k := kind[g.index][i]
				if k == depNone {
					continue
				}
				p := hops[i]
				need := p.level
				if g.tex && !p.tex {
					need++
				}
				if g.tex && p.tex && k == depAfter && overlaps(g.reads(), p.writes()) {
					need++
				}
				l = max(l, need)
			}
		}
		for _, g := range group {
			g.level = l
		}
		maxLevel = max(maxLevel, l)
	}
	if maxLevel+1 > r3.MaxLevels {
		return &LimitError{Limit: "texture indirection levels", Need: maxLevel + 1, Max: r3.MaxLevels}
	}
	c.levels = make([]*level, maxLevel+1)
	for i := range c.levels {
		c.levels[i] = &level{}
	}
	groups := make([][][]*hop, len(c.levels))
	for j, h := range hops {
		lv := c.levels[h.level]
		if h.tex {
			lv.tex = append(lv.tex, h)
			continue
		}
		if h.partner != nil && h.partner.index < j {
			continue // placed with its partner
		}
		g := []*hop{h}
		if h.partner != nil {
			g = append(g, h.partner)
		}
		groups[h.level] = append(groups[h.level], g)
	}
	for l, lv := range c.levels {
		if err := c.listSchedule(lv, groups[l], kind); err != nil {
			return err
		}
	}
	for _, lv := range c.levels {
		if len(lv.alu) == 0 {
			lv.alu = append(lv.alu, &instr{argSlot: [2][3]int{{-1, -1, -1}, {-1, -1, -1}}})
		}
	}
	alu, tex := 0, 0
	for _, lv := range c.levels {
		alu += len(lv.alu)
		tex += len(lv.tex)
	}
	if alu > r3.MaxALU {
		return &LimitError{Limit: "ALU instructions", Need: alu, Max: r3.MaxALU}
	}
	if tex > r3.MaxTEX {
		return &LimitError{Limit: "TEX instructions", Need: tex, Max: r3.MaxTEX}
	}
	return nil
}

// listSchedule packs a level's ALU hops into instructions, one
// instruction at a time (list scheduling): of the hops whose dependencies
// are met, those that must use a given unit go first, by the length of
// the dependency chain they start (longest first), then the flexible
// ones, which try the alpha unit first (the RGB unit is the only one
// that takes vectors) and the RGB unit when the alpha unit is taken (by
// a transcendental, say, that can go nowhere else).
func (c *compilation) listSchedule(lv *level, groups [][]*hop, kind [][]int8) error {
	n := len(groups)
	if n == 0 {
		return nil
	}
	of := map[*hop]int{}
	for gi, g := range groups {
		for _, h := range g {
			of[h] = gi
		}
	}
	// Dependencies between groups: after (strictly later instruction)
	// or order (same instruction or later).
	type edge struct {
		to    int
		after bool
	}
	preds := make([][]edge, n)
	succs := make([][]edge, n)
	for gi, g := range groups {
		seen := map[int]int{}
		for _, h := range g {
			for i := 0; i < h.index; i++ {
				k := kind[h.index][i]
				pg, ok := of[c.hops[i]]
				if k == depNone || !ok || pg == gi {
					continue
				}
				if k == depAfter || seen[pg] == 0 {
					seen[pg] = int(k)
				}
			}
		}
		for pg, k := range seen {
			preds[gi] = append(preds[gi], edge{pg, k == depAfter})
			succs[pg] = append(succs[pg], edge{gi, k == depAfter})
		}
	}
	// Height: the instructions the chain from a group still needs.
	height := make([]int, n)
	for gi := n - 1; gi >= 0; gi-- {
		height[gi] = 1
		for _, e := range succs[gi] {
			hgt := height[e.to]
			if e.after {
				hgt++
			}
			height[gi] = max(height[gi], hgt)
		}
	}
	placed := make([]int, n)
	for i := range placed {
		placed[i] = -1
	}
	left := n
	for idx := 0; left > 0; idx++ {
		cur := &instr{}
		for progress := true; progress; {
			progress = false
			var ready []int
			for gi := range groups {
				if placed[gi] >= 0 {
					continue
				}
				ok := true
				for _, e := range preds[gi] {
					p := placed[e.to]
					ok = ok && p >= 0 && (p < idx || !e.after && p == idx)
				}
				if ok {
					ready = append(ready, gi)
				}
			}
			sort.SliceStable(ready, func(a, b int) bool {
				fa, fb := groups[ready[a]][0].flex, groups[ready[b]][0].flex
				if fa != fb {
					return !fa
				}
				return height[ready[a]] > height[ready[b]]
			})
			for _, gi := range ready {
				g := groups[gi]
				h := g[0]
				if h.flex && !h.alpha {
					c.flip(h)
				}
				trial, ok := fill(cur, g)
				if !ok && h.flex {
					c.flip(h)
					trial, ok = fill(cur, g)
				}
				if !ok {
					continue
				}
				*cur = trial
				placed[gi] = idx
				for _, x := range g {
					x.instr = idx
				}
				left--
				progress = true
				break // readiness may have changed (order edges)
			}
		}
		if cur.rgb == nil && cur.alpha == nil {
			for gi := range groups {
				if placed[gi] < 0 {
					return fmt.Errorf("%q: %w", groups[gi][0].String(), errSlots)
				}
			}
		}
		lv.alu = append(lv.alu, cur)
	}
	return nil
}

// fill returns in with the hops of group added, if their halves are free
// and the operands fit the source slots.
func fill(in *instr, group []*hop) (instr, bool) {
	trial := *in
	for _, g := range group {
		if g.alpha && trial.alpha != nil || !g.alpha && trial.rgb != nil {
			return trial, false
		}
		if g.alpha {
			trial.alpha = g
		} else {
			trial.rgb = g
		}
	}
	return trial, trial.assignSlots()
}

// assignSlots chooses source slots for both halves (L1556-1569,
// L1464-1479): RGB selects of r, g, b read RGB ADDRn, selects of a read
// ALPHA ADDRn, abg reads both with the same n; alpha selects of r, g, b
// read RGB ADDRn; pre-subtract sources sit in slots 0 and 1 of their half.
// At most two distinct constants per instruction (guide §3.5.1 [PROP]).
func (in *instr) assignSlots() bool {
	type need struct {
		ref  vref
		half int // 0 rgb slots, 1 alpha slots
		pos  int // required slot, -1 any
	}
	var needs []need
	add := func(r vref, half, pos int) { needs = append(needs, need{r, half, pos}) }
	consts := map[vref]bool{}
	for hi, h := range []*hop{in.rgb, in.alpha} {
		if h == nil {
			continue
		}
		if h.pop >= 0 {
			for k := 0; k < 2; k++ {
				if h.psrc[k].kind == argReg {
					add(h.psrc[k].ref, hi, k)
				}
			}
		}
		for k := 0; k < h.nargs; k++ {
			a := h.args[k]
			if a.kind != argReg {
				continue
			}
			if a.ref.file == fConst {
				consts[a.ref] = true
			}
			if hi == 1 {
				if a.pat == 3 {
					add(a.ref, 1, -1)
				} else {
					add(a.ref, 0, -1)
				}
				continue
			}
			switch a.pat {
			case 4:
				add(a.ref, 1, -1)
			case 7:
				add(a.ref, 0, -1)
				add(a.ref, 1, -1)
			default:
				add(a.ref, 0, -1)
			}
		}
		for k := 0; k < 2 && h.pop >= 0; k++ {
			if h.psrc[k].kind == argReg && h.psrc[k].ref.file == fConst {
				consts[h.psrc[k].ref] = true
			}
		}
	}
	if len(consts) > 2 {
		return false
	}
	// Per half: fixed positions (pre-subtract sources, which may name one
	// register twice), then the other registers in any free slot.
	var fixed [2][3]vref
	var hasFixed [2][3]bool
	var free [2][]vref
	for _, n := range needs {
		if n.pos < 0 {
			continue
		}
		if hasFixed[n.half][n.pos] && fixed[n.half][n.pos] != n.ref {
			return false
		}
		hasFixed[n.half][n.pos], fixed[n.half][n.pos] = true, n.ref
	}
	for _, n := range needs {
		if n.pos >= 0 {
			continue
		}
		dup := false
		for p := 0; p < 3; p++ {
			dup = dup || hasFixed[n.half][p] && fixed[n.half][p] == n.ref
		}
		for _, r := range free[n.half] {
			dup = dup || r == n.ref
		}
		if !dup {
			free[n.half] = append(free[n.half], n.ref)
		}
	}
	var open [2][]int
	for h := 0; h < 2; h++ {
		for p := 0; p < 3; p++ {
			if !hasFixed[h][p] {
				open[h] = append(open[h], p)
			}
		}
		if len(free[h]) > len(open[h]) {
			return false
		}
	}
	perms := [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	var slots [2][3]vref
	var used [2][3]bool
	try := func(half int, p [3]int) bool {
		slots[half], used[half] = fixed[half], hasFixed[half]
		for i, r := range free[half] {
			if p[i] >= len(open[half]) {
				return false
			}
			pos := open[half][p[i]]
			slots[half][pos], used[half][pos] = r, true
		}
		return true
	}
	slotOf := func(half int, r vref) int {
		for i := 0; i < 3; i++ {
			if used[half][i] && slots[half][i] == r {
				return i
			}
		}
		return -1
	}
	for _, p0 := range perms {
		if !try(0, p0) {
			continue
		}
		for _, p1 := range perms {
			if !try(1, p1) {
				continue
			}
			// abg needs the same slot index in both halves.
			good := true
			if in.rgb != nil {
				for k := 0; k < in.rgb.nargs; k++ {
					a := in.rgb.args[k]
					if a.kind == argReg && a.pat == 7 && slotOf(0, a.ref) != slotOf(1, a.ref) {
						good = false
					}
				}
			}
			if !good {
				continue
			}
			in.rgbSlot, in.alphaSlot = slots[0], slots[1]
			in.argSlot = [2][3]int{{-1, -1, -1}, {-1, -1, -1}}
			for hi, h := range []*hop{in.rgb, in.alpha} {
				if h == nil {
					continue
				}
				for k := 0; k < h.nargs; k++ {
					a := h.args[k]
					if a.kind != argReg {
						continue
					}
					half := 0
					if (hi == 1 && a.pat == 3) || (hi == 0 && a.pat == 4) {
						half = 1
					}
					in.argSlot[hi][k] = slotOf(half, a.ref)
				}
			}
			return true
		}
	}
	return false
}

func (c *compilation) scheduleString() string {
	var b strings.Builder
	for li, lv := range c.levels {
		fmt.Fprintf(&b, "level %d:\n", li)
		for _, t := range lv.tex {
			b.WriteString("  " + t.String() + "\n")
		}
		for i, in := range lv.alu {
			r, a := "-", "-"
			if in.rgb != nil {
				r = in.rgb.String()
			}
			if in.alpha != nil {
				a = in.alpha.String()
			}
			fmt.Fprintf(&b, "  alu %d: %s | %s\n", i, r, a)
		}
	}
	return b.String()
}
