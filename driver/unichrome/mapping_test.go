package unichrome

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
)

// TestStageWords pins the texture environment mapping to literal register
// words (80h, 81h, 83h and the constants): Mesa's recipes (guide §3.3),
// with the legacy functions converted by base format.
func TestStageWords(t *testing.T) {
	env := func(m driver.TexEnvMode) driver.TexEnv {
		e := driver.DefaultTexEnv()
		e.Mode = m
		return e
	}
	combine := func(rgb, a driver.CombineFunc, srcs [3]driver.CombineSrc, ops [3]driver.CombineOperand, scale float32) driver.TexEnv {
		e := driver.DefaultTexEnv()
		e.Mode = driver.EnvCombine
		e.CombineRGB, e.CombineAlpha = rgb, a
		e.SrcRGB, e.OperandRGB, e.RGBScale = srcs, ops, scale
		return e
	}
	red := [4]float32{1, 0, 0, 0.5}
	for _, tc := range []struct {
		name   string
		env    driver.TexEnv
		base   driver.BaseFormat
		color  [4]float32
		c, op  uint32
		a      uint32
		consts [6]uint32 // 85h, 86h, 87h, 88h, 89h, 8Ah
	}{
		// MODULATE RGBA: Ca = Ccur, Cb = Ctex, Cc = 0; Aa = Acur, Ab = Atex,
		// Ac = constant 0; x1 shifts (10), sat on.
		{"modulate rgba", env(driver.EnvModulate), driver.BaseRGBA, red, 0x810180, 0x101A, 0x808203, [6]uint32{}},
		// REPLACE RGB: Ca = Inv(0) = 1, Cb = Ctex; alpha keeps Acur.
		{"replace rgb", env(driver.EnvReplace), driver.BaseRGB, red, 0x840180, 0x101A, 0x82C103, [6]uint32{}},
		// REPLACE ALPHA texture: colour passes, alpha = Atex.
		{"replace alpha", env(driver.EnvReplace), driver.BaseAlpha, red, 0x840200, 0x101A, 0x82C203, [6]uint32{}},
		// DECAL RGBA: INTERPOLATE(Ctex, Ccur, Atex): Ca = Atex, Cb = Ctex, Cc = Ccur,
		// Cop SUB, Cbias = Ccur.
		{"decal rgba", env(driver.EnvDecal), driver.BaseRGBA, red, 0x81C184, 0x9101A, 0x82C103, [6]uint32{}},
		// BLEND luminance: INTERPOLATE(Cenv, Ccur, Ctex): Ca = Ctex, Cb = RCb, Cc = Ccur.
		{"blend luminance", env(driver.EnvBlend), driver.BaseLuminance, red, 0x80C484, 0x9101A, 0x82C103,
			[6]uint32{0, 0xFF0000, 0, 0, 0, 0}},
		// ADD RGBA: Ca = 1, Cb = Ccur, Cc = Ctex; alpha modulates.
		{"add rgba", env(driver.EnvAdd), driver.BaseRGBA, red, 0x840203, 0x101A, 0x808203, [6]uint32{}},
		// COMBINE ADD_SIGNED x2: bias register C0h per channel (-128); the
		// default COMBINE alpha is MODULATE(Atex, Acur).
		{"add signed x2", combine(driver.CombineAddSigned, driver.CombineModulate,
			[3]driver.CombineSrc{driver.SrcTexture, driver.SrcPrimaryColor, driver.SrcConstant},
			[3]driver.CombineOperand{driver.OperandSrcColor, driver.OperandSrcColor, driver.OperandSrcAlpha}, 2),
			driver.BaseRGBA, red, 0x840181, 0x2401A, 0x810103, [6]uint32{0, 0, 0, 0xC0C0C0, 0, 0}},
		// COMBINE SUBTRACT x4 with 1 - Atex: Cc = Inv(Atex).
		{"subtract x4", combine(driver.CombineSubtract, driver.CombineModulate,
			[3]driver.CombineSrc{driver.SrcPrimaryColor, driver.SrcTexture, driver.SrcConstant},
			[3]driver.CombineOperand{driver.OperandSrcColor, driver.OperandOneMinusSrcAlpha, driver.OperandSrcAlpha}, 4),
			driver.BaseRGBA, red, 0x840097, 0x8081A, 0x810103, [6]uint32{}},
		// INTERPOLATE with a constant second argument: the s7 bias register
		// keeps the constant's top 7 bits (FFh -> 7Fh, i.e. 254).
		{"interpolate constant", combine(driver.CombineInterpolate, driver.CombineModulate,
			[3]driver.CombineSrc{driver.SrcTexture, driver.SrcConstant, driver.SrcPrimaryColor},
			[3]driver.CombineOperand{driver.OperandSrcColor, driver.OperandSrcColor, driver.OperandSrcAlpha}, 1),
			driver.BaseRGBA, red, 0x814189, 0xA501A, 0x810103, [6]uint32{0, 0, 0xFF0000, 0x7F0000, 0, 0}},
	} {
		r, err := stageFor(fromEnv(&tc.env, tc.base), tc.color, tc.base == driver.BaseRGB || tc.base == driver.BaseLuminance)
		require.NoError(t, err, tc.name)
		assert.Equalf(t, tc.c, r.c, "%s: 80h %#06x", tc.name, r.c)
		assert.Equalf(t, tc.op, r.op, "%s: 81h %#06x", tc.name, r.op)
		assert.Equalf(t, tc.a, r.a, "%s: 83h %#06x", tc.name, r.a)
		assert.Equal(t, tc.consts, [6]uint32{r.rca, r.rcb, r.rcc, r.rcbias, r.ralpha, r.rfog}, tc.name)
	}
	dot := combine(driver.CombineDot3RGB, driver.CombineModulate, [3]driver.CombineSrc{}, [3]driver.CombineOperand{}, 1)
	_, err := stageFor(fromEnv(&dot, driver.BaseRGBA), red, false)
	assert.ErrorContains(t, err, "DOT3")
}

func TestBlendAndOpWords(t *testing.T) {
	c := &Context{}
	st := &driver.State{}
	st.Blend.Enabled = true
	st.Blend.SrcRGB, st.Blend.DstRGB = driver.BlendSrcAlpha, driver.BlendOneMinusSrcAlpha
	st.Blend.SrcAlpha, st.Blend.DstAlpha = driver.BlendSrcAlpha, driver.BlendOneMinusSrcAlpha
	c.blend(st)
	// Guide fact 20: 34h data 0x000020, 35h data 0x000148.
	assert.Equal(t, uint32(0x000020), c.cmd.shadow[grpAttr][0x34])
	assert.Equal(t, uint32(0x000148), c.cmd.shadow[grpAttr][0x35])
	// Reverse subtract swaps the operands: Ca = dst with the dst factor.
	st.Blend.EqRGB = driver.BlendReverseSubtract
	st.Blend.SrcRGB, st.Blend.DstRGB = driver.BlendOne, driver.BlendOne
	c.blend(st)
	assert.Equal(t, uint32(1<<10|1<<8|5<<4), c.cmd.shadow[grpAttr][0x34])
	assert.Equal(t, uint32(1<<14|0<<8|1<<6|5<<2), c.cmd.shadow[grpAttr][0x35])

	// ROP2 truth tables: COPY 12, XOR 6, AND 8, NOR 1, SET 15, NOOP 10 ([OUT] table).
	for op, want := range map[driver.LogicOp]uint32{
		driver.LogicCopy: 12, driver.LogicXor: 6, driver.LogicAnd: 8, driver.LogicNor: 1, driver.LogicSet: 15,
		driver.LogicNoop: 10, driver.LogicClear: 0, driver.LogicCopyInverted: 3, driver.LogicInvert: 5,
	} {
		assert.Equal(t, want, logicROP(op), "%v", op)
	}
	// GL INCR/DECR saturate (011/100), the wrap forms 110/111 (guide §2.3).
	assert.Equal(t, uint32(3), stencilOps[driver.StencilIncr])
	assert.Equal(t, uint32(4), stencilOps[driver.StencilDecr])
	assert.Equal(t, uint32(6), stencilOps[driver.StencilIncrWrap])
	assert.Equal(t, uint32(7), stencilOps[driver.StencilDecrWrap])
}
