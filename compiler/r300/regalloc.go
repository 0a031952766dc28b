package r300

import (
	"sort"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// interval is a value's life in the final instruction order: reads happen
// at 2p and writes at 2p+1 of instruction p, so a value read for the last
// time by an instruction can share a register with one that instruction
// writes (sources are read before results are written, guide §3.5.8).
type interval struct{ start, end int }

func (a interval) overlaps(b interval) bool { return a.start <= b.end && b.start <= a.end }

// regalloc assigns the virtual registers and the interpolants to the 32
// temps (the "regalloc" pass). Interpolants are pre-coloured: the RS loads
// used input i into temp i in order of the inputs (L882, L885). A value
// keeps its components; values with disjoint components may share a temp.
func (c *compilation) regalloc() error {
	type val struct {
		ref   vref
		iv    interval
		comps uint8
		seen  bool
	}
	vals := map[vref]*val{}
	touch := func(r vref, pos int, comps uint8, write bool) {
		if r.file != fTemp && r.file != fInput {
			return
		}
		v := vals[r]
		if v == nil {
			v = &val{ref: r, iv: interval{pos, pos}}
			if r.file == fInput {
				v.iv.start = -1
			}
			vals[r] = v
		}
		if write && !v.seen {
			v.iv.start = min(v.iv.start, pos)
		}
		v.seen = true
		v.iv.end = max(v.iv.end, pos)
		v.comps |= comps
	}
	pos := 0
	for _, lv := range c.levels {
		for _, t := range lv.tex {
			for _, a := range t.reads() {
				touch(a.ref, 2*pos, a.comps, false)
			}
			for _, a := range t.writes() {
				touch(a.ref, 2*pos+1, 15, true)
			}
			pos++
		}
		for _, in := range lv.alu {
			for _, h := range []*hop{in.rgb, in.alpha} {
				if h == nil {
					continue
				}
				for _, a := range h.reads() {
					touch(a.ref, 2*pos, a.comps, false)
				}
			}
			for _, h := range []*hop{in.rgb, in.alpha} {
				if h == nil {
					continue
				}
				for _, a := range h.writes() {
					touch(a.ref, 2*pos+1, a.comps, true)
				}
			}
			pos++
		}
	}
	// Writes start a value: a value first read then written (undefined
	// read) starts at its first touch, which touch keeps.
	var busy [][4][]interval
	fits := func(p int, v *val) bool {
		for c := 0; c < 4; c++ {
			if v.comps>>c&1 == 0 {
				continue
			}
			for _, iv := range busy[p][c] {
				if iv.overlaps(v.iv) {
					return false
				}
			}
		}
		return true
	}
	take := func(p int, v *val) {
		for len(busy) <= p {
			busy = append(busy, [4][]interval{})
		}
		for c := 0; c < 4; c++ {
			if v.comps>>c&1 != 0 {
				busy[p][c] = append(busy[p][c], v.iv)
			}
		}
	}
	c.phys = make([]int, c.nvreg)
	for i := range c.phys {
		c.phys[i] = -1
	}
	c.inputTemp = make([]int, len(c.p.Inputs))
	for i := range c.inputTemp {
		c.inputTemp[i] = -1
	}
	// Interpolants first, in input order.
	next := 0
	for i := range c.p.Inputs {
		v := vals[vref{fInput, i}]
		if v == nil {
			continue
		}
		v.comps = 15 // the RS writes all four components
		c.inputTemp[i] = next
		take(next, v)
		next++
	}
	var order []*val
	for _, v := range vals {
		if v.ref.file == fTemp {
			order = append(order, v)
		}
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].iv.start != order[j].iv.start {
			return order[i].iv.start < order[j].iv.start
		}
		return order[i].ref.idx < order[j].ref.idx
	})
	high := next - 1
	for _, v := range order {
		p := 0
		for ; p < len(busy); p++ {
			if fits(p, v) {
				break
			}
		}
		take(p, v)
		c.phys[v.ref.idx] = p
		high = max(high, p)
	}
	if high+1 > r3.MaxTemps {
		return &LimitError{Limit: "temporaries", Need: high + 1, Max: r3.MaxTemps}
	}
	c.highTemp = high
	return nil
}
