package multipass

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/retrogl/retrogl/driver"
)

// gePasses is the PSP GE's profile: no alpha in registers (8 bit planes
// and a clear to merge it), subtraction, no DOT3, no framebuffer alpha.
var geCaps = Caps{MergePasses: 9, Subtract: true}

func tex(f driver.TexFormat) *driver.Texture {
	return &driver.Texture{ID: 1, Format: f, Levels: []driver.Level{{Width: 1, Height: 1, Data: make([]byte, 4)}}}
}

func env(mode driver.TexEnvMode) driver.TexEnv {
	e := driver.DefaultTexEnv()
	e.Mode = mode
	return e
}

func combine(rgb driver.CombineFunc, src [3]driver.CombineSrc, op [3]driver.CombineOperand, scale float32) driver.TexEnv {
	e := driver.DefaultTexEnv()
	e.Mode = driver.EnvCombine
	e.CombineRGB, e.SrcRGB, e.OperandRGB, e.RGBScale = rgb, src, op, scale
	return e
}

var (
	srcTP  = [3]driver.CombineSrc{driver.SrcTexture, driver.SrcPrevious, driver.SrcConstant}
	srcPTK = [3]driver.CombineSrc{driver.SrcPrevious, driver.SrcTexture, driver.SrcConstant}
	opCCA  = [3]driver.CombineOperand{driver.OperandSrcColor, driver.OperandSrcColor, driver.OperandSrcAlpha}
)

// TestPlan pins the register program of each kind of state, as text: the
// planner's decisions are data.
func TestPlan(t *testing.T) {
	type setup func(st *driver.State)
	unit := func(u int, f driver.TexFormat, e driver.TexEnv) setup {
		return func(st *driver.State) { st.Units[u].Texture, st.Units[u].Env = tex(f), e }
	}
	blend := func(src, dst driver.BlendFactor) setup {
		return func(st *driver.State) {
			st.Blend.Enabled = true
			st.Blend.SrcRGB, st.Blend.DstRGB, st.Blend.SrcAlpha, st.Blend.DstAlpha = src, dst, src, dst
		}
	}
	alphaTest := func(st *driver.State) {
		st.AlphaTest.Enabled, st.AlphaTest.Func = true, driver.CompareGreater
	}
	fog := func(st *driver.State) { st.Fog.Enabled = true }
	for _, tc := range []struct {
		name  string
		caps  Caps
		state []setup
		want  string
	}{
		{"untextured fog", geCaps, []setup{fog},
			"r0 = load P\nr0 = lerp fog\ncomposite r0\npasses 3, registers 1"},
		{"one unit modulate, blended by source alpha", geCaps,
			[]setup{unit(0, driver.TexRGBA8888, env(driver.EnvModulate)), blend(driver.BlendSrcAlpha, driver.BlendOneMinusSrcAlpha), fog},
			"r0 = load P*T0\nr1 = load P.a*T0.a\nr0 = lerp fog\ncomposite r0 alpha r1\npasses 13, registers 2"},
		{"RGB texture: the alpha stays the primary alpha", geCaps,
			[]setup{unit(0, driver.TexRGB888, env(driver.EnvModulate)), unit(1, driver.TexL8, env(driver.EnvAdd)), alphaTest},
			"r0 = load P*T0\nr0 = add T1\ncomposite r0 alpha P.a\npasses 3, registers 1"},
		{"two units modulate", geCaps,
			[]setup{unit(0, driver.TexRGBA8888, env(driver.EnvModulate)), unit(1, driver.TexRGBA8888, env(driver.EnvModulate))},
			"r0 = load P*T0\nr0 = mul T1\ncomposite r0\npasses 3, registers 1"},
		{"decal over a computed colour", geCaps,
			[]setup{unit(0, driver.TexRGB888, env(driver.EnvModulate)), unit(1, driver.TexRGBA8888, env(driver.EnvDecal))},
			"r0 = load P*T0\nr0 = mul 1-T1.a\nr1 = load T1\nr1 = mul T1.a\nr0 = add r1\ncomposite r0\npasses 6, registers 2"},
		{"blend mode: constant times texture plus previous times its inverse", geCaps,
			[]setup{unit(0, driver.TexL8, env(driver.EnvBlend))},
			"r0 = load k(0,0,0,0)*T0\nr1 = load P*1-T0\nr0 = add r1\ncomposite r0\npasses 4, registers 2"},
		{"subtract with an inverted texture, scale 4", geCaps,
			[]setup{unit(0, driver.TexRGBA8888, combine(driver.CombineSubtract, srcPTK,
				[3]driver.CombineOperand{driver.OperandSrcColor, driver.OperandOneMinusSrcColor, driver.OperandSrcAlpha}, 4))},
			"r0 = load P\nr0 = sub 1-T0\nr0 = double\nr0 = double\ncomposite r0\npasses 5, registers 1"},
		{"add signed", geCaps,
			[]setup{unit(0, driver.TexRGBA8888, combine(driver.CombineAddSigned, srcTP, opCCA, 1))},
			"r0 = half T0\nr0 = addhalf P\nr0 = sub k(0.25,0.25,0.25,0.25)\nr0 = double\ncomposite r0\npasses 5, registers 1"},
		{"interpolate by the primary alpha", geCaps,
			[]setup{unit(0, driver.TexRGBA8888, combine(driver.CombineInterpolate,
				[3]driver.CombineSrc{driver.SrcTexture, driver.SrcConstant, driver.SrcPrimaryColor},
				[3]driver.CombineOperand{driver.OperandSrcColor, driver.OperandSrcColor, driver.OperandSrcAlpha}, 2)),
				func(st *driver.State) { st.Units[0].Env.Color = [4]float32{0.5, 0.25, 0, 1} }},
			"r0 = load P.a*T0\nr1 = load k(0.5,0.25,0,1)*1-P.a\nr0 = add r1\nr0 = double\ncomposite r0\npasses 5, registers 2"},
		{"inverted previous on unit 1", geCaps,
			[]setup{unit(0, driver.TexRGBA8888, env(driver.EnvModulate)), unit(1, driver.TexRGBA8888, combine(driver.CombineModulate, srcPTK,
				[3]driver.CombineOperand{driver.OperandOneMinusSrcColor, driver.OperandSrcColor, driver.OperandSrcAlpha}, 1))},
			"r0 = load P*T0\nr1 = load T1\nr1 = mulinv r0\ncomposite r1\npasses 4, registers 2"},
		{"DOT3 without a dot product: software", geCaps,
			[]setup{unit(0, driver.TexRGBA8888, combine(driver.CombineDot3RGB, srcTP, opCCA, 1)), alphaTest},
			"software GL_COMBINE DOT3_RGB on unit 0 -> r0\ncomposite r0 alpha r0\npasses 2, registers 1"},
		{"no subtraction: software", Caps{},
			[]setup{unit(0, driver.TexRGBA8888, combine(driver.CombineSubtract, srcTP, opCCA, 1))},
			"software a subtraction (blending cannot subtract) -> r0\ncomposite r0\npasses 2, registers 1"},
		{"alpha registers: no merge passes", Caps{AlphaRegisters: true, Subtract: true},
			[]setup{unit(0, driver.TexA8, env(driver.EnvReplace)), alphaTest},
			"r0 = load P\nr1 = load T0.a\ncomposite r0 alpha r1\npasses 3, registers 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &driver.State{ColorMask: [4]bool{true, true, true, true}}
			for i := range st.Units {
				st.Units[i].Env = driver.DefaultTexEnv()
			}
			for _, s := range tc.state {
				s(st)
			}
			assert.Equal(t, tc.want, Plan(st, tc.caps).String())
		})
	}
}

// TestNeedAlpha lists what reads the fragment alpha.
func TestNeedAlpha(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(st *driver.State)
		caps Caps
		want bool
	}{
		{"nothing", func(st *driver.State) {}, geCaps, false},
		{"alpha test", func(st *driver.State) { st.AlphaTest.Enabled, st.AlphaTest.Func = true, driver.CompareLess }, geCaps, true},
		{"alpha test ALWAYS", func(st *driver.State) { st.AlphaTest.Enabled, st.AlphaTest.Func = true, driver.CompareAlways }, geCaps, false},
		{"stored alpha", func(st *driver.State) {}, Caps{AlphaBits: true}, true},
		{"stored alpha masked", func(st *driver.State) { st.ColorMask[3] = false }, Caps{AlphaBits: true}, false},
		{"ONE, ONE", func(st *driver.State) {
			st.Blend.Enabled, st.Blend.SrcRGB, st.Blend.DstRGB = true, driver.BlendOne, driver.BlendOne
		}, geCaps, false},
		{"saturate", func(st *driver.State) {
			st.Blend.Enabled, st.Blend.SrcRGB, st.Blend.DstRGB = true, driver.BlendSrcAlphaSaturate, driver.BlendOne
		}, geCaps, true},
		{"ONE_MINUS_SRC_ALPHA under a logic op", func(st *driver.State) {
			st.Blend.Enabled, st.Blend.SrcRGB, st.Blend.DstRGB = true, driver.BlendOne, driver.BlendOneMinusSrcAlpha
			st.LogicOpEnabled = true
		}, geCaps, false},
	} {
		st := &driver.State{ColorMask: [4]bool{true, true, true, true}}
		tc.set(st)
		assert.Equal(t, tc.want, NeedAlpha(st, tc.caps), tc.name)
	}
}
