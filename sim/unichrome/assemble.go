package unichrome

import (
	"fmt"

	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// assembler builds primitives from streamed vertices with the vertex-cycle
// settings of Command A (HVCycle) and Command B (H2nd1VT), L2304:
//   - Full cycle: every primitive takes all-new vertices (1, 2 or 3).
//   - Automatic fast primitive (01xxxxxx): the first primitive is a full
//     cycle; then odd one-vertex cycles use Command A's bits 5:0 and even
//     ones Command B's.
//   - One-vertex cycle (11xxxxxx): every primitive uses Command A's bits
//     5:0, the previous vertices carrying over from the last primitive
//     (zero at reset).
//
// In a one-vertex setting field a (5:4), b (3:2) and c (1:0) each say "new
// input" (00) or "the previous primitive's a/b/c"; new inputs fill the
// fields in a, b, c order. A setting with no new input would draw forever
// without consuming data and is rejected.
type assembler struct {
	open   bool
	prim   uc.Prim
	shade  uc.Shade
	style  uint32
	odd    uint32 // Command A's setting
	even   uint32 // Command B's setting
	n      int    // primitives drawn in this list
	prev   [3]vertex
	pend   [3]vertex
	npend  int
	fields [3]uint32 // settings of the primitive being collected
	need   int
	// lpCount is the line-pattern position; it carries over between
	// lines unless Command B's HLPrst is set.
	lpCount int
}

// slots returns the number of vertices of a primitive.
func slots(p uc.Prim) int {
	switch p {
	case uc.PrimPoint:
		return 1
	case uc.PrimLine:
		return 2
	}
	return 3
}

// setup prepares the fields of primitive number n.
func (a *assembler) setup() {
	full := a.style == uc.CycleFull || (a.style == uc.CycleAFP && a.n == 0)
	k := slots(a.prim)
	a.need = 0
	for i := 0; i < 3; i++ {
		a.fields[i] = 0
		if full || i >= k {
			continue
		}
		cyc := a.odd
		if a.style == uc.CycleAFP && a.n%2 == 0 {
			cyc = a.even
		}
		a.fields[i] = cyc >> (4 - 2*uint(i)) & 3
	}
	for i := 0; i < k; i++ {
		if a.fields[i] == uc.VNew {
			a.need++
		}
	}
}

func newInputs(cyc uint32, k int) int {
	n := 0
	for i := 0; i < k; i++ {
		if cyc>>(4-2*uint(i))&3 == uc.VNew {
			n++
		}
	}
	return n
}

// startList opens a list for the Command A in force and validates the
// state the list will draw with.
func (e *Engine) startList() error {
	a := &e.asm
	cmdA, cmdB := e.cmdA, e.w.CmdBWord()
	p := uc.Prim(cmdA >> 16 & 15)
	if p != uc.PrimPoint && p != uc.PrimLine && p != uc.PrimTri {
		return fmt.Errorf("HPMType %d (%s) is not simulated", p, uc.EnumPrim[p])
	}
	sh := uc.Shade(cmdA >> 10 & 7)
	if sh > uc.ShadeGouraud {
		return fmt.Errorf("reserved HShading %d", sh)
	}
	style := cmdA & 0xC0
	if style == 0x80 {
		return fmt.Errorf("reserved vertex cycle %#02x (10xxxxxx)", cmdA&0xFF)
	}
	k := slots(p)
	switch style {
	case uc.CycleAFP:
		if newInputs(cmdA, k) == 0 || newInputs(cmdB, k) == 0 {
			return fmt.Errorf("vertex cycle %s / %s takes no new vertex", uc.CycleText(cmdA&0xFF), uc.CycleText(cmdB&0x3F))
		}
	case uc.CycleOne:
		if newInputs(cmdA, k) == 0 {
			return fmt.Errorf("vertex cycle %s takes no new vertex", uc.CycleText(cmdA&0xFF))
		}
	}
	prev, lp := a.prev, a.lpCount
	*a = assembler{open: true, prim: p, shade: sh, style: style, odd: cmdA & 0x3F, even: cmdB & 0x3F, prev: prev, lpCount: lp}
	a.setup()
	if e.dirty || e.pipe == nil {
		pp, err := e.compile()
		if err != nil {
			return err
		}
		e.pipe, e.dirty = pp, false
	}
	return nil
}

// vertexDone adds a complete vertex and draws the primitive it completes.
func (e *Engine) vertexDone(v *vertex) error {
	if !v.hasW {
		v.w = 1
	}
	a := &e.asm
	if !a.open {
		return fmt.Errorf("vertex outside a list")
	}
	if e.dirty {
		// A register changed through header 1 while the list was open.
		pp, err := e.compile()
		if err != nil {
			return err
		}
		e.pipe, e.dirty = pp, false
	}
	a.pend[a.npend] = *v
	a.npend++
	if a.npend < a.need {
		return nil
	}
	k := slots(a.prim)
	if a.need == k {
		// Every vertex is new (a full cycle): the primitive is pend's
		// vertices, and they are the next one's previous vertices.
		copy(a.prev[:k], a.pend[:k])
		a.npend = 0
		a.n++
		if a.style != uc.CycleFull {
			a.setup() // a full cycle's fields stay all new
		}
		e.Stats.Prims++
		return e.draw(a.prim, a.shade, a.prev[:k])
	}
	var pv [3]vertex
	j := 0
	for i := 0; i < k; i++ {
		if f := a.fields[i]; f == uc.VNew {
			pv[i] = a.pend[j]
			j++
		} else {
			pv[i] = a.prev[f-1]
		}
	}
	for i := 0; i < k; i++ {
		a.prev[i] = pv[i]
	}
	a.npend = 0
	a.n++
	a.setup()
	e.Stats.Prims++
	return e.draw(a.prim, a.shade, pv[:k])
}
