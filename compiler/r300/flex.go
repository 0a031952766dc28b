package r300

import (
	"math/bits"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// Scalars in either unit. The front end computes scalars in component x,
// which keeps every scalar operation in the RGB unit while the alpha unit
// idles. A value of one component whose only writer is one component-wise
// half-instruction, and whose readers all read it through operand selects
// (not as a pre-subtract source or a texture coordinate, which read
// registers in place), may instead live in w and be computed by the alpha
// unit, or the other way round: the scheduler flips such a hop to the
// other half when that packs it earlier, and rewrites its readers' selects
// to the value's new component. The arithmetic is the same in both units
// (L1552, L1650), so the result is too.

var rgbToAlpha = map[uint8]uint8{r3.RGBMAD: r3.AlphaMAD, r3.RGBMIN: r3.AlphaMIN, r3.RGBMAX: r3.AlphaMAX,
	r3.RGBCND: r3.AlphaCND, r3.RGBCMP: r3.AlphaCMP, r3.RGBFRC: r3.AlphaFRC}

var alphaToRGB = map[uint8]uint8{r3.AlphaMAD: r3.RGBMAD, r3.AlphaMIN: r3.RGBMIN, r3.AlphaMAX: r3.RGBMAX,
	r3.AlphaCND: r3.RGBCND, r3.AlphaCMP: r3.RGBCMP, r3.AlphaFRC: r3.RGBFRC}

// markFlexible sets hop.flex on the hops whose result may move between
// the units and records every temp's readers for flip.
func (c *compilation) markFlexible() {
	writers := map[vref]int{}
	pinned := map[vref]bool{}
	c.readers = map[vref][]*hop{}
	for _, h := range c.hops {
		if h.tex {
			pinned[h.coord] = true
			if h.texOp != r3.TexKill {
				writers[h.dst]++
			}
			continue
		}
		if h.wmask != 0 {
			writers[h.dst]++
		}
		for k := 0; k < h.nargs; k++ {
			if a := h.args[k]; a.kind == argReg && a.ref.file == fTemp {
				c.readers[a.ref] = append(c.readers[a.ref], h)
			}
		}
		for k := 0; k < 2 && h.pop >= 0; k++ {
			if h.psrc[k].kind == argReg {
				pinned[h.psrc[k].ref] = true
			}
		}
	}
	for _, h := range c.hops {
		if h.tex || h.partner != nil || h.pop >= 0 || h.out >= 0 || h.depth || h.dst.file != fTemp ||
			bits.OnesCount8(h.wmask) != 1 || pinned[h.dst] || writers[h.dst] != 1 {
			continue
		}
		if _, ok := rgbToAlpha[h.op]; !h.alpha && !ok {
			continue
		}
		if _, ok := alphaToRGB[h.op]; h.alpha && !ok {
			continue
		}
		self := false
		for k := 0; k < h.nargs; k++ {
			self = self || h.args[k].kind == argReg && h.args[k].ref == h.dst
		}
		h.flex = !self
	}
}

// flip moves a flexible hop to the other unit: an RGB hop's value moves
// from its component to w, an alpha hop's from w to x. Operand selects
// follow: the RGB select's component for the written channel becomes the
// alpha select, an alpha select of component n becomes the RGB select
// replicating n. Readers then select the new component.
func (c *compilation) flip(h *hop) {
	var comp uint8
	if h.alpha {
		h.alpha, h.op = false, alphaToRGB[h.op]
		for k := 0; k < h.nargs; k++ {
			if a := &h.args[k]; a.kind == argReg {
				a.pat++ // component n → rrr, ggg, bbb, aaa
			}
		}
		comp = 0
	} else {
		ch := bits.TrailingZeros8(h.wmask)
		h.alpha, h.op = true, rgbToAlpha[h.op]
		for k := 0; k < h.nargs; k++ {
			if a := &h.args[k]; a.kind == argReg {
				a.pat = rgbPatterns[a.pat][ch]
			}
		}
		comp = 3
	}
	h.wmask = 1
	if !h.alpha {
		h.wmask = 1 << comp
	}
	for _, r := range c.readers[h.dst] {
		for k := 0; k < r.nargs; k++ {
			if a := &r.args[k]; a.kind == argReg && a.ref == h.dst {
				a.pat = comp
				if !r.alpha {
					a.pat = comp + 1
				}
			}
		}
	}
}

// transW moves one-component results of transcendental operations (EX2,
// LN2, RCP, RSQ: alpha-unit operations, L1552) from x, y or z to w (the
// "transw" pass), so the alpha unit writes them itself and the RGB unit
// is not tied up replicating them with SOP. It applies to values whose
// definitions are all such operations writing the same component and
// whose readers are ALU operands (pre-subtract sources and texture
// coordinates read registers in place).
func (c *compilation) transW() error {
	u := c.usages()
	for t := range u {
		defs := u[t].defs
		if len(defs) == 0 {
			continue
		}
		comp := -1
		ok := true
		for _, i := range defs {
			v := &c.insts[i]
			if !vopInfo[v.op].scalar || bits.OnesCount8(v.mask) != 1 || v.mask == 8 || comp >= 0 && v.mask != 1<<comp {
				ok = false
				break
			}
			comp = bits.TrailingZeros8(v.mask)
		}
		for _, us := range u[t].uses {
			if us.k >= 3 || vopInfo[c.insts[us.inst].op].tex {
				ok = false
			}
		}
		if !ok {
			continue
		}
		for _, i := range defs {
			c.insts[i].mask = 8
		}
		ref := vref{fTemp, t}
		for i := range c.insts {
			v := &c.insts[i]
			if v.dead {
				continue
			}
			for k := 0; k < vopInfo[v.op].nsrc; k++ {
				if s := &v.src[k]; !s.lit && !s.srcp && s.ref == ref {
					for ch := range s.swz {
						if s.swz[ch] == uint8(comp) {
							s.swz[ch] = 3
						}
					}
				}
			}
		}
	}
	return nil
}
