package pspge

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	ge "github.com/retrogl/retrogl/hal/pspge"
)

// compareOf maps GL comparisons to the GE codes (seed L852-863).
var compareOf = [8]uint32{
	driver.CompareNever: 0, driver.CompareLess: 4, driver.CompareEqual: 2, driver.CompareLEqual: 5,
	driver.CompareGreater: 6, driver.CompareNotEqual: 3, driver.CompareGEqual: 7, driver.CompareAlways: 1,
}

// stencilOpOf maps GL stencil operations to SOP codes; the wrap variants
// (OES_stencil_wrap) have no GE form and are not exposed.
var stencilOpOf = [8]uint32{
	driver.StencilKeep: 0, driver.StencilZero: 1, driver.StencilReplace: 2, driver.StencilIncr: 4,
	driver.StencilDecr: 5, driver.StencilInvert: 3, driver.StencilIncrWrap: 4, driver.StencilDecrWrap: 5,
}

// ditherMatrix is pspsdk's default 4x4 dither (guide §2.12), rows DTH0-3.
var ditherMatrix = [4]uint32{0x1D0C, 0xF3E2, 0x0C1D, 0xE2F3}

// raster emits the viewport, depth range and culling state; culling is off
// when the CPU already culled (software T&L).
func (c *Context) raster(st *driver.State, cull bool) {
	l := &c.list
	v := st.Viewport
	ox, oy := float32(2048-c.cfg.Width/2), float32(2048-c.cfg.Height/2)
	l.set(ge.XSCALE, ge.F24(float32(v.W)/2))
	l.set(ge.YSCALE, ge.F24(-float32(v.H)/2))
	l.set(ge.XPOS, ge.F24(ox+float32(v.X)+float32(v.W)/2))
	l.set(ge.YPOS, ge.F24(oy+float32(c.cfg.Height)-float32(v.Y)-float32(v.H)/2))
	n, f := st.DepthRange[0]*65535, st.DepthRange[1]*65535
	// PolygonOffset units become a constant depth bias (1 unit = one step
	// of the 16-bit depth buffer); the slope factor needs per-triangle
	// work and goes through software T&L.
	bias := float32(0)
	if st.PolygonOffset.Fill {
		bias = st.PolygonOffset.Units
	}
	l.set(ge.ZSCALE, ge.F24((f-n)/2))
	l.set(ge.ZPOS, ge.F24((f+n)/2+bias))
	if cull && st.CullEnabled {
		l.set(ge.BCE, 1)
		// GL front faces (CCW by default) stay counter-clockwise as seen
		// on the GE's screen; FFACE 0 keeps counter-clockwise triangles.
		front := uint32(0)
		if st.FrontFace == driver.WindingCW {
			front = 1
		}
		if st.CullFace == driver.FaceFront {
			front ^= 1
		}
		l.set(ge.FFACE, front)
	} else {
		l.set(ge.BCE, 0)
	}
	if st.Shade == driver.ShadeFlat {
		l.set(ge.SHADE, 0)
	} else {
		l.set(ge.SHADE, 1)
	}
}

// matrices emits WORLD = model-view, VIEW = identity and PROJ. A model-view
// matrix with a projective last row cannot be a 4x3 WORLD; it is folded
// into PROJ instead (lighting then needs software T&L, see hwLighting).
func (c *Context) matrices(st *driver.State) {
	mv := st.ModelView
	proj := st.Projection
	if mv.Row(3) != (mgl32.Vec4{0, 0, 0, 1}) {
		proj = proj.Mul4(mv)
		mv = mgl32.Ident4()
	}
	c.list.matrix(ge.WMS, ge.WORLD, slotWorld, mat43(mv))
	c.list.matrix(ge.VMS, ge.VIEW, slotView, mat43(mgl32.Ident4()))
	c.list.matrix(ge.PMS, ge.PROJ, slotProj, proj[:])
}

// mat43 is the GE's 4x3 column-major form of an affine 4x4 (guide §2.4).
func mat43(m mgl32.Mat4) []float32 {
	return []float32{m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10], m[12], m[13], m[14]}
}

// mul3 scales the red, green and blue of c by f.
func mul3(c [4]float32, f float32) [4]float32 {
	return [4]float32{c[0] * f, c[1] * f, c[2] * f, c[3]}
}

func rgb8(c [4]float32) uint32 {
	return uint32(q8(c[0])) | uint32(q8(c[1]))<<8 | uint32(q8(c[2]))<<16
}

func in01(c [4]float32) bool {
	for _, v := range c {
		if v < 0 || v > 1 || v != v {
			return false
		}
	}
	return true
}

// hwLightingOK reports whether the GE's lighting unit computes what GL
// asks: at most four lights, one-sided, colours within [0, 1] (the GE's
// colour registers are 8-bit) and an affine model-view.
func hwLightingOK(st *driver.State) (bool, string) {
	lt := &st.Lighting
	if !lt.Enabled {
		return true, ""
	}
	if lt.TwoSide {
		return false, "two-sided lighting"
	}
	if st.LogicOpEnabled {
		// The GE's lighting truncates its colour products ((2a+1)(2b+1)
		// >> 10, docs/pspge.md), so a lit colour may come out one step
		// under GL's; a logic op turns that step into differences of
		// many bits (47 XOR x against 48 XOR x). Software T&L lights in
		// float and rounds once, as GL does.
		return false, "lighting under a logic op"
	}
	if st.ModelView.Row(3) != (mgl32.Vec4{0, 0, 0, 1}) {
		return false, "projective model-view"
	}
	n := 0
	for i := range lt.Lights {
		l := &lt.Lights[i]
		if !l.Enabled {
			continue
		}
		n++
		if !in01(l.Ambient) || !in01(l.Diffuse) || !in01(l.Specular) {
			return false, "light colours outside [0, 1]"
		}
		if l.Position[3] != 0 && l.ConstantAtten < 1 {
			// GL's attenuation 1/(c + l·d + q·d²) exceeds 1 near a
			// light whose constant term is under 1; the GE clamps the
			// factor to 1 ([OUT] PPSSPP Lighting.cpp, modelled in
			// sim/pspge light). A constant term of at least 1 keeps
			// the factor at most 1 (l, q >= 0), where both agree.
			return false, "light attenuation above 1 (the GE clamps it to 1)"
		}
		if l.SpotCutoff != 180 && (l.SpotExponent < 0 || l.SpotCutoff > 90) {
			return false, "spot parameters"
		}
	}
	if n > 4 {
		return false, "more than 4 lights"
	}
	m := &lt.Material
	if !in01(m.Ambient) || !in01(m.Diffuse) || !in01(m.Specular) || !in01(m.Emission) || !in01(lt.Ambient) {
		return false, "material or ambient colours outside [0, 1]"
	}
	return true, ""
}

// lighting emits the GE lighting state for GL's (guide §2.6, sim checked):
//   - Lights are in world space = GL eye space (WORLD = model-view, VIEW =
//     I); a directional light (w = 0) is type 0 with its position as the
//     direction towards the light; a point light is type 1; a spot light
//     type 2 with the direction negated (the GE takes dot(dir, L) with L
//     towards the light, GL dot(-L, dir)) and the cutoff as a cosine.
//   - Every light uses component mode 1 (ambient, diffuse and specular).
//   - GL's lit alpha is the material diffuse alpha: AMA holds it and ALA is
//     255, so ((2a+1)(2*255+1))>>10 = a; COLOR_MATERIAL sets CMAT to
//     ambient+diffuse, which also takes the vertex alpha.
//
// forceAlpha makes the lit alpha 255 (see texEnv's REPLACE fix-up).
func (c *Context) lighting(st *driver.State, forceAlpha bool) {
	l := &c.list
	lt := &st.Lighting
	if !lt.Enabled {
		l.set(ge.LTE, 0)
		return
	}
	l.set(ge.LTE, 1)
	m := &lt.Material
	l.set(ge.EMC, rgb8(m.Emission))
	l.set(ge.AMC, rgb8(m.Ambient))
	a := uint32(q8(m.Diffuse[3]))
	if forceAlpha {
		a = 255
	}
	l.set(ge.AMA, a)
	l.set(ge.DMC, rgb8(m.Diffuse))
	l.set(ge.SMC, rgb8(m.Specular))
	l.set(ge.SPOW, ge.F24(m.Shininess))
	l.set(ge.ALC, rgb8(lt.Ambient))
	l.set(ge.ALA, 255)
	cmat := uint32(0)
	if lt.ColorMaterial && !forceAlpha {
		cmat = 3
	}
	l.set(ge.CMAT, cmat)
	l.set(ge.LMODE, 0)
	hw := 0
	for i := range lt.Lights {
		src := &lt.Lights[i]
		if !src.Enabled {
			continue
		}
		k := ge.Op(hw)
		hw++
		typ := uint32(0)
		pos := [3]float32{src.Position[0], src.Position[1], src.Position[2]}
		if src.Position[3] != 0 {
			typ = 1
			for j := range pos {
				pos[j] /= src.Position[3]
			}
			if src.SpotCutoff != 180 {
				typ = 2
			}
		}
		l.set(ge.LTE0+k, 1)
		l.set(ge.LT0+k, 1|typ<<8)
		for j := 0; j < 3; j++ {
			l.set(ge.LXP0+3*k+ge.Op(j), ge.F24(pos[j]))
			l.set(ge.LXD0+3*k+ge.Op(j), ge.F24(-src.SpotDirection[j]))
		}
		l.set(ge.LCA0+3*k, ge.F24(src.ConstantAtten))
		l.set(ge.LCA0+3*k+1, ge.F24(src.LinearAtten))
		l.set(ge.LCA0+3*k+2, ge.F24(src.QuadraticAt))
		l.set(ge.SPOTEXP0+k, ge.F24(src.SpotExponent))
		l.set(ge.SPOTCUT0+k, ge.F24(float32(math.Cos(float64(src.SpotCutoff)*math.Pi/180))))
		// Type 0 has no spot cone: GL's spot factor of a directional
		// light is one for all vertices and scales its colours.
		sp := swtnl.DirectionalSpot(src)
		l.set(ge.ALC0+3*k, rgb8(mul3(src.Ambient, sp)))
		l.set(ge.ALC0+3*k+1, rgb8(mul3(src.Diffuse, sp)))
		l.set(ge.ALC0+3*k+2, rgb8(mul3(src.Specular, sp)))
	}
	for ; hw < 4; hw++ {
		l.set(ge.LTE0+ge.Op(hw), 0)
	}
}

// envPlan is how a GL texture environment maps to TFUNC.
type envPlan struct {
	fn         uint32 // TFUNC function
	rgba       bool   // texture alpha participates (TFUNC bit 8)
	forceAlpha bool   // the fragment alpha must be 255 for GL's result
}

// texEnv maps (base format, env mode) to TFUNC following GL ES 1.1 table
// 3.15: RGB-only textures leave bit 8 clear (alpha = fragment alpha);
// alpha-only textures are stored with white RGB and always use MODULATE
// (GL's BLEND, ADD and DECAL give Cf, AfAt there); REPLACE on an alpha
// texture gives (Cf, At): MODULATE with the fragment alpha forced to 255,
// since (255+1)*At/256 = At.
func texEnv(base driver.BaseFormat, env *driver.TexEnv) envPlan {
	hasAlpha := base == driver.BaseRGBA || base == driver.BaseLuminanceAlpha || base == driver.BaseAlpha
	p := envPlan{rgba: hasAlpha}
	if base == driver.BaseAlpha {
		p.fn = 0
		p.forceAlpha = env.Mode == driver.EnvReplace
		return p
	}
	switch env.Mode {
	case driver.EnvModulate:
		p.fn = 0
	case driver.EnvDecal:
		p.fn = 1
	case driver.EnvBlend:
		p.fn = 2
	case driver.EnvReplace:
		p.fn = 3
	case driver.EnvAdd:
		p.fn = 4
	}
	return p
}

// sampler emits the filter, wrap and LOD state of a texture.
func (c *Context) sampler(s driver.Sampler, levels int) {
	l := &c.list
	// TFLT codes (seed L753-761): 0 N, 1 L, 4 N-mipN, 5 L-mipN, 6 N-mipL,
	// 7 L-mipL.
	minOf := [6]uint32{0, 1, 4, 5, 6, 7}
	mn := minOf[s.MinFilter]
	if levels <= 1 && mn >= 4 {
		mn &= 1
	}
	mg := uint32(0)
	if s.MagFilter == driver.FilterLinear {
		mg = 1
	}
	l.set(ge.TFLT, mn|mg<<8)
	wrap := uint32(0)
	if s.WrapS != driver.WrapRepeat {
		wrap |= 1
	}
	if s.WrapT != driver.WrapRepeat {
		wrap |= 0x100
	}
	l.set(ge.TWRAP, wrap)
	l.set(ge.TBIAS, 0)
}

// fog emits LINEAR fog natively: f = (end - d) / (end - start) with d the
// eye distance = -z_view, so FFAR = end and FDIST = 1/(end - start)
// (guide §2.9). viewIsW is set when the GE's view z holds clip w (software
// T&L's perspective mode, where z_view = w = -z_eye): then FFAR = -end and
// FDIST = -1/(end - start).
func (c *Context) fog(st *driver.State, on, viewIsW bool) {
	l := &c.list
	if !on {
		l.set(ge.FGE, 0)
		return
	}
	f := &st.Fog
	l.set(ge.FGE, 1)
	span := f.End - f.Start
	dist := float32(1e30)
	if span != 0 {
		dist = 1 / span
	}
	if viewIsW {
		l.set(ge.FFAR, ge.F24(-f.End))
		l.set(ge.FDIST, ge.F24(-dist))
	} else {
		l.set(ge.FFAR, ge.F24(f.End))
		l.set(ge.FDIST, ge.F24(dist))
	}
	l.set(ge.FCOL, rgb8(f.Color))
}

// blendFactor maps a GL blend factor to the GE's A (source) or B
// (destination) code (guide §2.12 [OUT]); ZERO and ONE are the fixed
// colours 0 and 0xFFFFFF (exact: ((2c+1)*511)>>10 = c), and so are the
// constant-colour factors (FIX = the constant, or 1 minus it).
//
// The GE keeps no destination alpha: its alpha bits hold the stencil, and
// a fragment's alpha never reaches memory (pspautotests gpu/dither). A
// pspge surface therefore has no alpha bitplanes (SurfaceConfig.NoAlpha,
// GL_ALPHA_BITS 0), and GL ES 1.1 takes the destination alpha of such a
// framebuffer to be 1 (section 4.1.6): DST_ALPHA is ONE,
// ONE_MINUS_DST_ALPHA is ZERO and SRC_ALPHA_SATURATE, min(As, 1 - Ad), is
// ZERO. The GE's own DST_ALPHA codes would read the stencil.
func blendFactor(f driver.BlendFactor, src bool, k [4]float32) (code uint32, fix uint32, ok bool) {
	inv := func(c [4]float32) [4]float32 { return [4]float32{1 - c[0], 1 - c[1], 1 - c[2], 1 - c[3]} }
	switch f {
	case driver.BlendZero, driver.BlendOneMinusDstAlpha, driver.BlendSrcAlphaSaturate:
		return 10, 0, true
	case driver.BlendOne, driver.BlendDstAlpha:
		return 10, 0xFFFFFF, true
	case driver.BlendSrcAlpha:
		return 2, 0, true
	case driver.BlendOneMinusSrcAlpha:
		return 3, 0, true
	case driver.BlendDstColor:
		return 0, 0, src
	case driver.BlendOneMinusDstColor:
		return 1, 0, src
	case driver.BlendSrcColor:
		return 0, 0, !src
	case driver.BlendOneMinusSrcColor:
		return 1, 0, !src
	case driver.BlendConstantColor:
		return 10, rgb8(k), true
	case driver.BlendOneMinusConstantColor:
		return 10, rgb8(inv(k)), true
	case driver.BlendConstantAlpha:
		return 10, rgb8([4]float32{k[3], k[3], k[3]}), true
	case driver.BlendOneMinusConstantAlpha:
		return 10, rgb8([4]float32{1 - k[3], 1 - k[3], 1 - k[3]}), true
	}
	return 0, 0, false
}

// blendOp maps a GL blend equation to the ALPHA op field.
var blendOp = [5]uint32{driver.BlendAdd: 0, driver.BlendSubtract: 1, driver.BlendReverseSubtract: 2, driver.BlendMin: 3, driver.BlendMax: 4}

// fragment emits alpha test, stencil, depth test, blending, logic op,
// write masks and dither for the application's state. It returns a reason
// when the state holds what no GE pass can do (GL ES 2.0's SRC_COLOR as a
// source or DST_COLOR as a destination factor; ES 1.1 has neither).
func (c *Context) fragment(st *driver.State) string {
	l := &c.list
	if st.AlphaTest.Enabled && st.AlphaTest.Func != driver.CompareAlways {
		l.set(ge.ATE, 1)
		ref := uint32(math.Round(float64(clampf(st.AlphaTest.Ref)) * 255))
		l.set(ge.ATST, compareOf[st.AlphaTest.Func]|ref<<8|0xFF<<16)
	} else {
		l.set(ge.ATE, 0)
	}
	l.set(ge.CTE, 0)
	depth := c.cfg.DepthBits > 0
	if depth && st.DepthTest {
		l.set(ge.ZTE, 1)
		l.set(ge.ZTST, compareOf[st.DepthFunc])
		if st.DepthMask {
			l.set(ge.ZMSK, 0)
		} else {
			l.set(ge.ZMSK, 1)
		}
	} else {
		l.set(ge.ZTE, 0)
	}
	// The alpha bits hold the stencil (guide hazard 4); without stencil
	// bits nothing writes them.
	pmska := uint32(0)
	if c.cfg.StencilBits > 0 {
		sb := c.cfg.StencilBits
		s := &st.Stencil[0]
		if st.StencilTest {
			l.set(ge.STE, 1)
			ref := c.stencilFill(uint32(max(0, min(s.Ref, 1<<sb-1))))
			vm := c.stencilFill(s.ValueMask)
			l.set(ge.STST, compareOf[s.Func]|uint32(ref)<<8|uint32(vm)<<16)
			l.set(ge.SOP, stencilOpOf[s.Fail]|stencilOpOf[s.ZFail]<<8|stencilOpOf[s.ZPass]<<16)
			pmska = uint32(^c.stencilFill(s.WriteMask)) & 0xFF
		} else {
			l.set(ge.STE, 0)
			pmska = 0xFF
		}
	} else {
		l.set(ge.STE, 0)
	}
	l.set(ge.PMSKA, pmska)
	var pmskc uint32
	for k := 0; k < 3; k++ {
		if !st.ColorMask[k] {
			pmskc |= 0xFF << (8 * k)
		}
	}
	l.set(ge.PMSKC, pmskc)
	// With the logic op enabled, GL does no blending (section 4.1.8).
	if b := &st.Blend; b.Enabled && !st.LogicOpEnabled {
		src, sfix, ok1 := blendFactor(b.SrcRGB, true, b.Color)
		dst, dfix, ok2 := blendFactor(b.DstRGB, false, b.Color)
		if !ok1 || !ok2 {
			return "SRC_COLOR as a source or DST_COLOR as a destination factor (GL ES 2.0) has no GE form"
		}
		l.set(ge.ABE, 1)
		l.set(ge.ALPHA, src|dst<<4|blendOp[b.EqRGB]<<8)
		l.set(ge.SFIX, sfix)
		l.set(ge.DFIX, dfix)
	} else {
		l.set(ge.ABE, 0)
	}
	if st.LogicOpEnabled {
		l.set(ge.LOE, 1)
		l.set(ge.LOP, uint32(st.LogicOp))
	} else {
		l.set(ge.LOE, 0)
	}
	c.dither(st.Dither)
	return ""
}

// dither emits the dither state. Dither only matters when the surface has
// fewer than 8 bits per channel (decision: on 8888 the GE would add the
// matrix too, which GL does not ask for).
func (c *Context) dither(on bool) {
	l := &c.list
	if on && c.psm != 3 {
		l.set(ge.DTE, 1)
		for i, row := range ditherMatrix {
			l.set(ge.DTH0+ge.Op(i), row)
		}
	} else {
		l.set(ge.DTE, 0)
	}
}

// Kinds of GL_COMBINE environments the GE can express.
const (
	combineTexture  = iota // RGB = texture
	combinePrevious        // RGB = the incoming colour
	combineModulate        // RGB = texture x incoming
	combineAdd             // RGB = texture + incoming
)

// combinePlan is a GL_COMBINE environment reduced to what TFUNC (unit 0)
// or a framebuffer blend (unit 1's second pass) can do.
type combinePlan struct {
	kind   int
	double bool // RGB_SCALE 2 (TFUNC bit 16, or a doubled blend)
	// alpha: 0 = incoming alpha, 1 = texture alpha, 2 = product.
	alpha int
}

// analyzeCombine maps the subset of GL_COMBINE whose result TFUNC or a
// blend reproduces: COMBINE_RGB REPLACE, MODULATE or ADD over TEXTURE and
// the incoming colour (PREVIOUS, or PRIMARY_COLOR on unit 0) with
// SRC_COLOR operands and RGB_SCALE 1 or 2; COMBINE_ALPHA REPLACE or
// MODULATE over the same sources with SRC_ALPHA operands and ALPHA_SCALE 1.
// Anything else (INTERPOLATE, ADD_SIGNED, SUBTRACT, DOT3, CONSTANT
// sources, inverted operands, scale 4) returns a reason.
func analyzeCombine(env *driver.TexEnv, unit int) (combinePlan, string) {
	var p combinePlan
	incoming := func(s driver.CombineSrc) bool {
		return s == driver.SrcPrevious || (unit == 0 && s == driver.SrcPrimaryColor)
	}
	classify := func(s driver.CombineSrc) int {
		switch {
		case s == driver.SrcTexture:
			return 1
		case incoming(s):
			return 2
		}
		return 0
	}
	switch env.RGBScale {
	case 1:
	case 2:
		p.double = true
	default:
		return p, "RGB_SCALE 4"
	}
	if env.AlphaScale != 1 {
		return p, "ALPHA_SCALE other than 1"
	}
	for i := 0; i < 2; i++ {
		if env.OperandRGB[i] != driver.OperandSrcColor || env.OperandAlpha[i] != driver.OperandSrcAlpha {
			return p, "inverted or alpha operands"
		}
	}
	a, b := classify(env.SrcRGB[0]), classify(env.SrcRGB[1])
	switch env.CombineRGB {
	case driver.CombineReplace:
		switch a {
		case 1:
			p.kind = combineTexture
		case 2:
			p.kind = combinePrevious
		default:
			return p, "a constant source"
		}
	case driver.CombineModulate, driver.CombineAdd:
		if a+b != 3 || a*b != 2 {
			return p, "sources other than the texture and the incoming colour"
		}
		p.kind = combineModulate
		if env.CombineRGB == driver.CombineAdd {
			p.kind = combineAdd
		}
	default:
		return p, "COMBINE_RGB other than REPLACE, MODULATE or ADD"
	}
	a, b = classify(env.SrcAlpha[0]), classify(env.SrcAlpha[1])
	switch env.CombineAlpha {
	case driver.CombineReplace:
		switch a {
		case 1:
			p.alpha = 1
		case 2:
			p.alpha = 0
		default:
			return p, "a constant alpha source"
		}
	case driver.CombineModulate:
		if a+b != 3 || a*b != 2 {
			return p, "alpha sources other than the texture and the incoming alpha"
		}
		p.alpha = 2
	default:
		return p, "COMBINE_ALPHA other than REPLACE or MODULATE"
	}
	return p, ""
}
