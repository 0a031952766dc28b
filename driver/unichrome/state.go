package unichrome

import (
	"math"

	"github.com/retrogl/retrogl/driver"
	uc "github.com/retrogl/retrogl/hal/unichrome"
)

func clampf(v float32) float32 { return float32(math.Max(0, math.Min(1, float64(v)))) }

// q8 converts [0, 1] to 0..255, rounding to nearest (q8Clamped's
// floor(clampf(v)·255 + 1/2)). In [0, 1] the sum is at least 1/2, so
// truncation is its floor, and float64(v)·255 is exact (a float32's 24
// bits times 8 bits), so no rounding differs; below 0 and above 1 the
// clamp gives 0 and 255; NaN takes q8Clamped itself. TestQ8 compares the
// two at every float32 of [0, 1] in a range around each rounding edge and
// at random bit patterns.
func q8(v float32) uint8 {
	if v >= 0 && v <= 1 {
		return uint8(int32(float64(v)*255 + 0.5))
	}
	return q8Out(v)
}

// q8Out is q8 outside [0, 1] (kept out of q8, which inlines).
func q8Out(v float32) uint8 {
	switch {
	case v > 1:
		return 255
	case v < 0:
		return 0
	}
	return q8Clamped(v)
}

// q8Clamped is q8 as the clamp and floor write it.
func q8Clamped(v float32) uint8 { return uint8(math.Floor(float64(clampf(v))*255 + 0.5)) }

// Enable bits of 00h.
const (
	enDT     = 1 << 0
	enABL    = 1 << 1
	enFOG    = 1 << 2
	enTXPP   = 1 << 5
	enTXMP   = 1 << 6
	enTXCH   = 1 << 7
	enAW     = 1 << 10
	enAT     = 1 << 11
	enZW     = 1 << 12
	enZT     = 1 << 13
	enST     = 1 << 14
	enCW     = 1 << 16
	enBFCull = 1 << 17
)

// surface programs the destination, Z buffer, plane masks and clip
// rectangle (the scissor box intersected with the surface, y flipped). It
// returns false when the rectangle is empty.
func (c *Context) surface(st *driver.State, colorMask [4]bool) bool {
	cm := &c.cmd
	cm.set(grpAttr, uc.AttrDstBaseL, c.fb.Addr&0xFFFFFF)
	cm.set(grpAttr, uc.AttrDstBaseH, c.fb.Addr>>24)
	cm.set(grpAttr, uc.AttrDstFormat, uint32(c.dstFmt)<<16|uint32(c.pitch))
	if c.zBytes > 0 {
		cm.set(grpAttr, uc.AttrZBaseL, c.zb.Addr&0xFFFFFF)
		cm.set(grpAttr, uc.AttrZBaseH, c.zb.Addr>>24)
	}
	m := func(b bool) uint32 {
		if b {
			return 0xFF
		}
		return 0
	}
	cm.set(grpAttr, uc.AttrPlaneMask, m(colorMask[0])<<16|m(colorMask[1])<<8|m(colorMask[2]))
	x0, y0, x1, y1 := 0, 0, c.cfg.Width, c.cfg.Height
	if st != nil && st.ScissorTest {
		s := st.Scissor
		x0, x1 = max(x0, s.X), min(x1, s.X+s.W)
		gy0, gy1 := max(0, s.Y), min(c.cfg.Height, s.Y+s.H)
		y0, y1 = c.cfg.Height-gy1, c.cfg.Height-gy0
	}
	if x0 >= x1 || y0 >= y1 {
		return false
	}
	cm.set(grpAttr, uc.AttrClipTB, uint32(y0)<<12|uint32(y1))
	cm.set(grpAttr, uc.AttrClipLR, uint32(x0)<<12|uint32(x1))
	return true
}

// blend factor encodings: (select, modifier) for colour (FCa/FCb) and
// alpha (FAa/FAb) factors, and whether the factor reads the constant.
type factor struct {
	csel, cmod uint32
	asel, amod uint32
	konst      int // 0 none, 1 constant colour, 2 constant alpha
}

var factors = map[driver.BlendFactor]factor{
	driver.BlendZero:                  {5, 0, 0, 0, 0}, // constant 0 / zero
	driver.BlendOne:                   {5, 1, 0, 1, 0}, // Inv(constant 0) = FFh, bypassing the multiply
	driver.BlendSrcColor:              {0, 0, 1, 0, 0},
	driver.BlendOneMinusSrcColor:      {0, 1, 1, 1, 0},
	driver.BlendDstColor:              {1, 0, 2, 0, 0},
	driver.BlendOneMinusDstColor:      {1, 1, 2, 1, 0},
	driver.BlendSrcAlpha:              {2, 0, 1, 0, 0},
	driver.BlendOneMinusSrcAlpha:      {2, 1, 1, 1, 0},
	driver.BlendDstAlpha:              {3, 0, 2, 0, 0},
	driver.BlendOneMinusDstAlpha:      {3, 1, 2, 1, 0},
	driver.BlendSrcAlphaSaturate:      {8, 0, 0, 1, 0}, // min(As, 1-Ad); alpha factor 1
	driver.BlendConstantColor:         {5, 0, 9, 0, 1},
	driver.BlendOneMinusConstantColor: {5, 1, 9, 1, 1},
	driver.BlendConstantAlpha:         {5, 0, 9, 0, 2},
	driver.BlendOneMinusConstantAlpha: {5, 1, 9, 1, 2},
}

// blend programs 34h-3Eh for GL blending (guide §2.4; [OUT] Mesa's
// recipe: Ca = src, Cb = dst with the GL factors).
func (c *Context) blend(st *driver.State) {
	b := &st.Blend
	cm := &c.cmd
	col, _ := pack8(b.Color)
	ba := uint32(q8(b.Color[3]))
	konst := func(f factor) uint32 {
		switch f.konst {
		case 1:
			return col
		case 2:
			return ba<<16 | ba<<8 | ba
		}
		return 0
	}
	sf, df := factors[b.SrcRGB], factors[b.DstRGB]
	saf, daf := factors[b.SrcAlpha], factors[b.DstAlpha]
	// Colour: CA = Ca*FCa, CB = Cb*FCb.
	caSel, cbSel := uint32(0), uint32(1) // src, dst
	fa, fb := sf, df
	cop := uint32(0)
	switch b.EqRGB {
	case driver.BlendSubtract:
		cop = 1
	case driver.BlendReverseSubtract:
		caSel, cbSel, fa, fb, cop = 1, 0, df, sf, 1
	case driver.BlendMin, driver.BlendMax:
		caSel = 6
		if b.EqRGB == driver.BlendMax {
			caSel = 7
		}
		fa, fb = factors[driver.BlendOne], factors[driver.BlendZero]
	}
	cm.set(grpAttr, uc.AttrBlendC, caSel<<10|fa.cmod<<8|fa.csel<<4)
	cm.set(grpAttr, uc.AttrBlendCop, cop<<14|cbSel<<8|fb.cmod<<6|fb.csel<<2)
	cm.set(grpAttr, uc.AttrBlendRFCa, konst(fa))
	cm.set(grpAttr, uc.AttrBlendRFCb, konst(fb))
	// Alpha: Aa = Asrc, Ab = Adst.
	aaSel, abSel := uint32(1), uint32(2)
	ga, gb := saf, daf
	aop := uint32(0)
	switch b.EqAlpha {
	case driver.BlendSubtract:
		aop = 1
	case driver.BlendReverseSubtract:
		aaSel, abSel, ga, gb, aop = 2, 1, daf, saf, 1
	case driver.BlendMin, driver.BlendMax:
		aaSel = 5
		if b.EqAlpha == driver.BlendMax {
			aaSel = 7
		}
		ga, gb = factors[driver.BlendOne], factors[driver.BlendZero]
	}
	kA := func(f factor) uint32 {
		if f.konst != 0 {
			return ba
		}
		return 0
	}
	cm.set(grpAttr, uc.AttrBlendA, aaSel<<10|ga.amod<<8|ga.asel<<4)
	cm.set(grpAttr, uc.AttrBlendAop, aop<<14|abSel<<8|gb.amod<<6|gb.asel<<2)
	cm.set(grpAttr, uc.AttrBlendRAa, kA(ga)<<8)
	cm.set(grpAttr, uc.AttrBlendRAb, kA(gb))
}

// logicROP returns the ROP2 truth table of a GL logic op: bit (P<<1)|D is
// op(P, D).
func logicROP(op driver.LogicOp) uint32 {
	var r uint32
	for p := uint32(0); p < 2; p++ {
		for d := uint32(0); d < 2; d++ {
			r |= (op.Apply(p, d) & 1) << (p<<1 | d)
		}
	}
	return r
}

// Stencil operation codes (24h): INCR/DECR saturate (011/100), the wrap
// forms are 110/111 (L2401-2406; guide §2.3: Mesa's 110/111 for GL_INCR is
// wrong).
var stencilOps = [...]uint32{
	driver.StencilKeep: 0, driver.StencilZero: 1, driver.StencilReplace: 2, driver.StencilIncr: 3,
	driver.StencilDecr: 4, driver.StencilInvert: 5, driver.StencilIncrWrap: 6, driver.StencilDecrWrap: 7,
}

// fragmentState programs the per-fragment registers for a draw and
// returns the enable bits they need.
func (c *Context) fragmentState(st *driver.State) uint32 {
	cm := &c.cmd
	var en uint32
	cmask := st.ColorMask
	if cmask[0] || cmask[1] || cmask[2] || cmask[3] {
		en |= enCW
	}
	if cmask[3] {
		en |= enAW
	}
	rop := uint32(12) // COPY
	if st.LogicOpEnabled {
		rop = logicROP(st.LogicOp)
	} else if st.Blend.Enabled {
		en |= enABL
		c.blend(st)
	}
	cm.set(grpAttr, uc.AttrROP, rop<<8|0xFF)
	if st.Dither {
		en |= enDT
	}
	if st.AlphaTest.Enabled {
		en |= enAT
		cm.set(grpAttr, uc.AttrAlphaTest, uint32(st.AlphaTest.Func)<<8|uint32(q8(st.AlphaTest.Ref)))
	}
	if c.zBytes > 0 {
		if st.DepthTest && c.cfg.DepthBits > 0 {
			en |= enZT
			if st.DepthMask {
				en |= enZW
			}
			cm.set(grpAttr, uc.AttrZTest, uint32(st.DepthFunc)<<16)
		}
		if st.StencilTest && c.cfg.StencilBits > 0 {
			en |= enST
			s := &st.Stencil[0]
			ref := uint32(min(max(s.Ref, 0), 255))
			cm.set(grpAttr, uc.AttrStencilRef, ref<<16|(s.ValueMask&0xFF)<<8|s.WriteMask&0xFF)
			cm.set(grpAttr, uc.AttrStencilMode, uint32(s.Func)<<16|stencilOps[s.Fail]<<6|stencilOps[s.ZFail]<<3|stencilOps[s.ZPass])
		}
	}
	if st.Fog.Enabled {
		en |= enFOG
		cm.set(grpAttr, uc.AttrFogMode, 0) // local fog, equation 0
		rgb, a := pack8(st.Fog.Color)
		cm.set(grpAttr, uc.AttrFogColor, rgb)
		cm.set(grpAttr, uc.AttrFogAlpha, a)
	}
	return en
}

// polygonOffset programs the Z buffer format (Z16 or Z24S8) and the Z bias: SEZbias = max(Zdx, Zdy)*scale + bias
// (L2377), scale = factor and bias = units x the Z format's resolution,
// in 2^-32 units.
func (c *Context) polygonOffset(st *driver.State, on bool) {
	cm := &c.cmd
	var scale float32
	var bias int64
	if on && c.cfg.DepthBits > 0 {
		scale = st.PolygonOffset.Factor
		bias = int64(math.Round(float64(st.PolygonOffset.Units) * math.Ldexp(1, 32-c.cfg.DepthBits)))
		bias = min(max(bias, math.MinInt32), math.MaxInt32)
	}
	sb := math.Float32bits(scale)
	ub := uint32(int32(bias))
	cm.set(grpAttr, uc.AttrZBiasScaleL, sb&0xFFFFFF)
	cm.set(grpAttr, uc.AttrZBiasL, ub&0xFFFFFF)
	cm.set(grpAttr, uc.AttrZBiasH, sb>>24<<16|ub>>24)
	wb := uint32(0)
	if c.zBytes > 0 {
		fm := uint32(0)
		if c.zBytes == 4 {
			fm = 3
		}
		if on {
			wb = 1 << 22 // HZBiasedWB: GL writes the offset depth
		}
		cm.set(grpAttr, uc.AttrZFormat, wb|fm<<16|uint32(c.zPitch))
	}
}
