package r300

import (
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// addr returns the ALU source address of a register (L1467: temps 0-31,
// constants 32-63).
func (c *compilation) addr(r vref) uint8 {
	switch r.file {
	case fTemp:
		return uint8(c.phys[r.idx])
	case fInput:
		return uint8(c.inputTemp[r.idx])
	case fConst:
		return uint8(r3.ConstBase + r.idx)
	}
	return 0
}

// rgbSel encodes an RGB operand select (L1571-1646).
func rgbSel(a harg, slot int) uint8 {
	switch a.kind {
	case argInline:
		return r3.SelRGBZero + a.inl
	case argSrcp:
		return r3.SelRGBSrcP + a.pat
	case argReg:
		n := uint8(slot)
		switch a.pat {
		case 0:
			return 4 * n
		case 1, 2, 3:
			return 4*n + a.pat
		case 4:
			return r3.SelRGBSrc0AAA + n
		case 5:
			return r3.SelRGBSrc0GBR + n
		case 6:
			return r3.SelRGBSrc0BRG + n
		case 7:
			return r3.SelRGBSrc0ABG + n
		}
	}
	return r3.SelRGBZero
}

// alphaSel encodes an alpha operand select (L1481-1536).
func alphaSel(a harg, slot int) uint8 {
	switch a.kind {
	case argInline:
		return r3.SelAZero + a.inl
	case argSrcp:
		return r3.SelASrcPR + a.pat
	case argReg:
		if a.pat == 3 {
			return r3.SelASrc0A + uint8(slot)
		}
		return 3*uint8(slot) + a.pat
	}
	return r3.SelAZero
}

// half fills one half of an ALU instruction from a hop.
func (c *compilation) half(h *hop, hi int, in *instr, dst *r3.Half) {
	slots := in.rgbSlot
	if hi == 1 {
		slots = in.alphaSlot
	}
	for k := 0; k < 3; k++ {
		dst.Src[k] = c.addr(slots[k])
	}
	for k := 0; k < 3; k++ {
		dst.Args[k] = r3.Arg{Sel: r3.SelRGBZero}
		if hi == 1 {
			dst.Args[k].Sel = r3.SelAZero
		}
	}
	if h == nil {
		// An idle half: MAD writing nothing.
		return
	}
	dst.Op = h.op
	for k := 0; k < h.nargs; k++ {
		a := h.args[k]
		if hi == 0 {
			dst.Args[k] = r3.Arg{Sel: rgbSel(a, in.argSlot[0][k]), Mod: a.mod}
		} else {
			dst.Args[k] = r3.Arg{Sel: alphaSel(a, in.argSlot[1][k]), Mod: a.mod}
		}
	}
	if h.pop >= 0 {
		dst.Srcp = uint8(h.pop)
	}
	if h.wmask != 0 {
		dst.Dst = c.addr(h.dst)
		dst.WMask = h.wmask
	}
	if h.out >= 0 {
		dst.OMask, dst.Target = h.omask, uint8(h.out)
	}
	dst.DepthOut = h.depth
	dst.Omod, dst.Clamp = h.omod, h.clamp
}

// emit builds the register values (the "emit" pass): levels occupy
// CODE_ADDR_(4-n)..3 (L1685, guide hazard 3), sizes are N-1, and
// CODE_OFFSET holds the totals minus one ([OUT] Mesa).
func (c *compilation) emit() error {
	p := &Program{Inputs: make([]string, len(c.p.Inputs)), InputTemp: c.inputTemp}
	for i, v := range c.p.Inputs {
		p.Inputs[i] = v.Name
	}
	n := len(c.levels)
	var insts []r3.ALUInst
	var instrs []*instr
	for li, lv := range c.levels {
		aluStart, texStart := len(insts), len(p.Tex)
		rgba, wout := false, false
		for _, t := range lv.tex {
			ti := r3.TexInst{Op: t.texOp, Src: c.addr(t.coord)}
			if t.texOp != r3.TexKill {
				ti.Dst, ti.Unit = c.addr(t.dst), t.unit
				p.Units |= 1 << t.unit
			}
			p.Tex = append(p.Tex, ti.Encode())
		}
		for _, in := range lv.alu {
			var a r3.ALUInst
			c.half(in.rgb, 0, in, &a.RGB)
			c.half(in.alpha, 1, in, &a.Alpha)
			if a.RGB.OMask != 0 || a.Alpha.OMask != 0 {
				rgba = true
				if a.RGB.OMask != 0 {
					p.Targets |= 1 << a.RGB.Target
				}
				if a.Alpha.OMask != 0 {
					p.Targets |= 1 << a.Alpha.Target
				}
			}
			if a.Alpha.DepthOut {
				wout, p.Depth = true, true
			}
			if in.rgb != nil && in.rgb.pop >= 0 || in.alpha != nil && in.alpha.pop >= 0 {
				p.Stats.Presub++
			}
			if a.RGB.Omod != 0 || a.Alpha.Omod != 0 {
				p.Stats.Omod++
			}
			insts = append(insts, a)
			instrs = append(instrs, in)
		}
		w := uint32(aluStart) | uint32(len(insts)-aluStart-1)<<6
		if len(lv.tex) > 0 {
			w |= uint32(texStart)<<12 | uint32(len(lv.tex)-1)<<17
		}
		if rgba {
			w |= 1 << 22
		}
		if wout {
			w |= 1 << 23
		}
		p.CodeAddr[4-n+li] = w
	}
	// NOP after an instruction whose results the next one's pre-subtract
	// reads (L1658).
	for i := 0; i+1 < len(insts); i++ {
		written := map[uint8]bool{}
		for _, h := range []r3.Half{insts[i].RGB, insts[i].Alpha} {
			if h.WMask != 0 {
				written[h.Dst] = true
			}
		}
		nx := instrs[i+1]
		for hi, h := range []*hop{nx.rgb, nx.alpha} {
			if h == nil || h.pop < 0 {
				continue
			}
			src := insts[i+1].RGB.Src
			if hi == 1 {
				src = insts[i+1].Alpha.Src
			}
			if written[src[0]] || written[src[1]] {
				insts[i].RGB.Nop = true
			}
		}
	}
	for i := range insts {
		a, b, cc, d := insts[i].Encode()
		p.ALU = append(p.ALU, [4]uint32{a, b, cc, d})
	}
	firstTex := uint32(0)
	if len(c.levels[0].tex) > 0 {
		firstTex = 1
	}
	p.Config = uint32(n-1) | firstTex<<3
	p.PixSize = uint32(max(c.highTemp, 0))
	texEnd := 0
	if len(p.Tex) > 0 {
		texEnd = len(p.Tex) - 1
	}
	p.CodeOffset = uint32(len(insts)-1)<<6 | uint32(texEnd)<<18
	p.Consts = c.consts.slots
	p.Stats.ALU, p.Stats.TEX, p.Stats.Levels, p.Stats.Consts = len(insts), len(p.Tex), n, len(p.Consts)
	p.Stats.Temps = c.highTemp + 1
	c.out = p
	return nil
}
