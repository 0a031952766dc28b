package gles

import (
	"math"
	"strings"

	"github.com/retrogl/retrogl/driver"
)

func clamp01(v float32) float32 {
	if v != v { // NaN
		return 0
	}
	return float32(math.Max(0, math.Min(1, float64(v))))
}

// capability returns a pointer to the boolean behind an Enable/Disable
// capability, or nil for an unknown enum.
func (c *Context) capability(cap Enum) *bool {
	st := &c.st
	if c.api2 {
		// GL ES 2.0 table 6.x: only these remain.
		switch cap {
		case BLEND, CULL_FACE, DEPTH_TEST, DITHER, POLYGON_OFFSET_FILL, SAMPLE_ALPHA_TO_COVERAGE,
			SAMPLE_COVERAGE, SCISSOR_TEST, STENCIL_TEST:
		default:
			return nil
		}
	}
	switch cap {
	case FOG:
		return &st.Fog.Enabled
	case LIGHTING:
		return &st.Lighting.Enabled
	case TEXTURE_2D:
		return &c.texEnabled[c.activeTex]
	case CULL_FACE:
		return &st.CullEnabled
	case ALPHA_TEST:
		return &st.AlphaTest.Enabled
	case BLEND:
		return &st.Blend.Enabled
	case COLOR_LOGIC_OP:
		return &st.LogicOpEnabled
	case DITHER:
		return &st.Dither
	case STENCIL_TEST:
		return &st.StencilTest
	case DEPTH_TEST:
		return &st.DepthTest
	case POINT_SMOOTH:
		return &st.Point.Smooth
	case LINE_SMOOTH:
		return &st.LineSmooth
	case SCISSOR_TEST:
		return &st.ScissorTest
	case COLOR_MATERIAL:
		return &st.Lighting.ColorMaterial
	case NORMALIZE:
		return &st.Normalize
	case RESCALE_NORMAL:
		return &st.RescaleNormal
	case POLYGON_OFFSET_FILL:
		return &st.PolygonOffset.Fill
	case MULTISAMPLE:
		return &c.multisample
	case SAMPLE_ALPHA_TO_COVERAGE:
		return &c.sampleAlphaCov
	case SAMPLE_ALPHA_TO_ONE:
		return &c.sampleAlphaOne
	case SAMPLE_COVERAGE:
		return &st.SampleCoverage
	case POINT_SPRITE_OES:
		return &st.Point.Sprite
	case MATRIX_PALETTE_OES:
		return &st.MatrixPalette.Enabled
	}
	if cap >= LIGHT0 && cap < LIGHT0+Enum(c.caps.Limits.MaxLights) && cap < LIGHT0+driver.MaxLights {
		return &st.Lighting.Lights[cap-LIGHT0].Enabled
	}
	if cap >= CLIP_PLANE0 && cap < CLIP_PLANE0+Enum(c.caps.Limits.MaxClipPlanes) && cap < CLIP_PLANE0+driver.MaxClipPlanes {
		return &st.ClipPlanes[cap-CLIP_PLANE0].Enabled
	}
	return nil
}

// Enable enables a server-side capability.
func (c *Context) Enable(cap Enum) { c.setCap("Enable", cap, true) }

// Disable disables a server-side capability.
func (c *Context) Disable(cap Enum) { c.setCap("Disable", cap, false) }

func (c *Context) setCap(fn string, cap Enum, on bool) {
	if !c.alive(fn) {
		return
	}
	p := c.capability(cap)
	if p == nil {
		c.record(fn, INVALID_ENUM, "capability %#x", cap)
		return
	}
	if cap == COLOR_MATERIAL && *p && !on {
		// While COLOR_MATERIAL is enabled the ambient and diffuse
		// material track the current colour (ES 1.1 section 2.12.3);
		// disabling it leaves them at the colour they last tracked.
		m := &c.st.Lighting.Material
		m.Ambient, m.Diffuse = c.st.CurrentColor, c.st.CurrentColor
	}
	*p = on
}

// IsEnabled reports whether a capability (server or client side) is on.
func (c *Context) IsEnabled(cap Enum) bool {
	if !c.alive("IsEnabled") {
		return false
	}
	if a, ok := c.clientArray(cap); ok {
		return c.arrays[a].enabled
	}
	p := c.capability(cap)
	if p == nil {
		c.record("IsEnabled", INVALID_ENUM, "capability %#x", cap)
		return false
	}
	return *p
}

// Viewport sets the viewport; width and height are clamped to the maximum
// viewport dimensions.
func (c *Context) Viewport(x, y, width, height int) {
	if !c.alive("Viewport") {
		return
	}
	if width < 0 || height < 0 {
		c.record("Viewport", INVALID_VALUE, "negative size %dx%d", width, height)
		return
	}
	width = min(width, c.caps.Limits.MaxViewportDims[0])
	height = min(height, c.caps.Limits.MaxViewportDims[1])
	c.st.Viewport = driver.Rect{X: glint(x), Y: glint(y), W: width, H: height}
}

// glint clamps an int the application passes for a GLint to GLint's 32
// bits, the range a C caller could pass: a driver adds a rectangle's
// position and size (x+width) without overflow then.
func glint(v int) int { return max(math.MinInt32, min(v, math.MaxInt32)) }

// Scissor sets the scissor box.
func (c *Context) Scissor(x, y, width, height int) {
	if !c.alive("Scissor") {
		return
	}
	if width < 0 || height < 0 {
		c.record("Scissor", INVALID_VALUE, "negative size %dx%d", width, height)
		return
	}
	c.st.Scissor = driver.Rect{X: glint(x), Y: glint(y), W: glint(width), H: glint(height)}
}

// DepthRangef sets the depth range; both values are clamped to [0, 1].
func (c *Context) DepthRangef(near, far float32) {
	if !c.alive("DepthRangef") {
		return
	}
	c.st.DepthRange = [2]float32{clamp01(near), clamp01(far)}
}

// ClearColor sets the clear colour; components are clamped to [0, 1].
func (c *Context) ClearColor(r, g, b, a float32) {
	if !c.alive("ClearColor") {
		return
	}
	c.clearColor = [4]float32{clamp01(r), clamp01(g), clamp01(b), clamp01(a)}
}

// ClearDepthf sets the depth clear value, clamped to [0, 1].
func (c *Context) ClearDepthf(d float32) {
	if !c.alive("ClearDepthf") {
		return
	}
	c.clearDepth = clamp01(d)
}

// ClearStencil sets the stencil clear value.
func (c *Context) ClearStencil(s int) {
	if !c.alive("ClearStencil") {
		return
	}
	c.clearStencil = s
}

// Clear clears the buffers named by mask (COLOR_BUFFER_BIT, DEPTH_BUFFER_BIT,
// STENCIL_BUFFER_BIT), honouring the scissor test and the write masks.
func (c *Context) Clear(mask Enum) {
	const fn = "Clear"
	if !c.alive(fn) {
		return
	}
	if mask&^(COLOR_BUFFER_BIT|DEPTH_BUFFER_BIT|STENCIL_BUFFER_BIT) != 0 {
		c.record(fn, INVALID_VALUE, "mask %#x has unknown bits", mask)
		return
	}
	if !c.resolveFramebuffer(fn) {
		return
	}
	color, depth, stencil := true, c.cfg.DepthBits > 0, c.cfg.StencilBits > 0
	if fb := c.st.Framebuffer; fb != nil {
		none := driver.Attachment{}
		color, depth, stencil = fb.Color != none, fb.Depth != none, fb.Stencil != none
	}
	var m driver.ClearMask
	if mask&COLOR_BUFFER_BIT != 0 && color {
		m |= driver.ClearColor
	}
	if mask&DEPTH_BUFFER_BIT != 0 && depth {
		m |= driver.ClearDepth
	}
	if mask&STENCIL_BUFFER_BIT != 0 && stencil {
		m |= driver.ClearStencil
	}
	if m == 0 {
		return
	}
	if err := c.dc.Clear(&c.st, m, c.clearColor, c.clearDepth, c.clearStencil); err != nil {
		c.recordErr(fn, err)
	}
}

func compareFunc(e Enum) (driver.CompareFunc, bool) {
	if e >= NEVER && e <= ALWAYS {
		return driver.CompareFunc(e - NEVER), true
	}
	return 0, false
}

// DepthFunc sets the depth comparison.
func (c *Context) DepthFunc(fn Enum) {
	if !c.alive("DepthFunc") {
		return
	}
	f, ok := compareFunc(fn)
	if !ok {
		c.record("DepthFunc", INVALID_ENUM, "func %#x", fn)
		return
	}
	c.st.DepthFunc = f
}

// DepthMask enables or disables depth writes.
func (c *Context) DepthMask(flag bool) {
	if !c.alive("DepthMask") {
		return
	}
	c.st.DepthMask = flag
}

// AlphaFunc sets the alpha test; ref is clamped to [0, 1].
func (c *Context) AlphaFunc(fn Enum, ref float32) {
	if !c.need1("AlphaFunc") {
		return
	}
	f, ok := compareFunc(fn)
	if !ok {
		c.record("AlphaFunc", INVALID_ENUM, "func %#x", fn)
		return
	}
	c.st.AlphaTest.Func = f
	c.st.AlphaTest.Ref = clamp01(ref)
}

// StencilFunc sets the stencil test for both faces.
func (c *Context) StencilFunc(fn Enum, ref int, mask uint32) {
	if !c.alive("StencilFunc") {
		return
	}
	f, ok := compareFunc(fn)
	if !ok {
		c.record("StencilFunc", INVALID_ENUM, "func %#x", fn)
		return
	}
	for i := range c.st.Stencil {
		s := &c.st.Stencil[i]
		s.Func, s.Ref, s.ValueMask = f, ref, mask
	}
}

func (c *Context) stencilOp(e Enum) (driver.StencilOp, bool) {
	switch e {
	case KEEP:
		return driver.StencilKeep, true
	case ZERO:
		return driver.StencilZero, true
	case REPLACE:
		return driver.StencilReplace, true
	case INCR:
		return driver.StencilIncr, true
	case DECR:
		return driver.StencilDecr, true
	case INVERT:
		return driver.StencilInvert, true
	case INCR_WRAP:
		return driver.StencilIncrWrap, c.caps.HasExtension("GL_OES_stencil_wrap")
	case DECR_WRAP:
		return driver.StencilDecrWrap, c.caps.HasExtension("GL_OES_stencil_wrap")
	}
	return 0, false
}

// StencilOp sets the stencil operations for both faces.
func (c *Context) StencilOp(fail, zfail, zpass Enum) {
	if !c.alive("StencilOp") {
		return
	}
	f, ok1 := c.stencilOp(fail)
	zf, ok2 := c.stencilOp(zfail)
	zp, ok3 := c.stencilOp(zpass)
	if !ok1 || !ok2 || !ok3 {
		c.record("StencilOp", INVALID_ENUM, "ops %#x, %#x, %#x", fail, zfail, zpass)
		return
	}
	for i := range c.st.Stencil {
		s := &c.st.Stencil[i]
		s.Fail, s.ZFail, s.ZPass = f, zf, zp
	}
}

// StencilMask sets the stencil write mask.
func (c *Context) StencilMask(mask uint32) {
	if !c.alive("StencilMask") {
		return
	}
	for i := range c.st.Stencil {
		c.st.Stencil[i].WriteMask = mask
	}
}

func (c *Context) blendFactor(e Enum, src bool) (driver.BlendFactor, bool) {
	switch e {
	case ZERO:
		return driver.BlendZero, true
	case ONE:
		return driver.BlendOne, true
	case SRC_COLOR:
		return driver.BlendSrcColor, !src || c.api2
	case ONE_MINUS_SRC_COLOR:
		return driver.BlendOneMinusSrcColor, !src || c.api2
	case DST_COLOR:
		return driver.BlendDstColor, src || c.api2
	case ONE_MINUS_DST_COLOR:
		return driver.BlendOneMinusDstColor, src || c.api2
	case SRC_ALPHA:
		return driver.BlendSrcAlpha, true
	case ONE_MINUS_SRC_ALPHA:
		return driver.BlendOneMinusSrcAlpha, true
	case DST_ALPHA:
		return driver.BlendDstAlpha, true
	case ONE_MINUS_DST_ALPHA:
		return driver.BlendOneMinusDstAlpha, true
	case SRC_ALPHA_SATURATE:
		return driver.BlendSrcAlphaSaturate, src
	case CONSTANT_COLOR:
		return driver.BlendConstantColor, c.api2
	case ONE_MINUS_CONSTANT_COLOR:
		return driver.BlendOneMinusConstantColor, c.api2
	case CONSTANT_ALPHA:
		return driver.BlendConstantAlpha, c.api2
	case ONE_MINUS_CONSTANT_ALPHA:
		return driver.BlendOneMinusConstantAlpha, c.api2
	}
	return 0, false
}

// BlendFunc sets the blend factors (ES 1.1 table 4.1 and 4.2: SRC_COLOR is
// destination-only, DST_COLOR source-only, SRC_ALPHA_SATURATE source-only).
func (c *Context) BlendFunc(sfactor, dfactor Enum) {
	if !c.alive("BlendFunc") {
		return
	}
	s, ok1 := c.blendFactor(sfactor, true)
	d, ok2 := c.blendFactor(dfactor, false)
	if !ok1 || !ok2 {
		c.record("BlendFunc", INVALID_ENUM, "factors %#x, %#x", sfactor, dfactor)
		return
	}
	b := &c.st.Blend
	b.SrcRGB, b.SrcAlpha, b.DstRGB, b.DstAlpha = s, s, d, d
}

// BlendFuncSeparateOES sets separate RGB and alpha blend factors
// (OES_blend_func_separate).
func (c *Context) BlendFuncSeparateOES(srcRGB, dstRGB, srcAlpha, dstAlpha Enum) {
	const fn = "BlendFuncSeparateOES"
	if !c.need1(fn) {
		return
	}
	if !c.caps.HasExtension("GL_OES_blend_func_separate") {
		c.record(fn, INVALID_OPERATION, "GL_OES_blend_func_separate is not supported by %s", c.caps.Name)
		return
	}
	c.blendFuncSeparate(fn, srcRGB, dstRGB, srcAlpha, dstAlpha)
}

// blendFuncSeparate validates and sets the four blend factors for
// BlendFuncSeparate and BlendFuncSeparateOES.
func (c *Context) blendFuncSeparate(fn string, srcRGB, dstRGB, srcAlpha, dstAlpha Enum) {
	sr, ok1 := c.blendFactor(srcRGB, true)
	dr, ok2 := c.blendFactor(dstRGB, false)
	sa, ok3 := c.blendFactor(srcAlpha, true)
	da, ok4 := c.blendFactor(dstAlpha, false)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		c.record(fn, INVALID_ENUM, "factors %#x, %#x, %#x, %#x", srcRGB, dstRGB, srcAlpha, dstAlpha)
		return
	}
	b := &c.st.Blend
	b.SrcRGB, b.DstRGB, b.SrcAlpha, b.DstAlpha = sr, dr, sa, da
}

func (c *Context) blendEquation(e Enum) (driver.BlendEquation, bool) {
	switch e {
	case FUNC_ADD_OES:
		return driver.BlendAdd, true
	case FUNC_SUBTRACT_OES:
		return driver.BlendSubtract, true
	case FUNC_REVERSE_SUBTRACT_OES:
		return driver.BlendReverseSubtract, true
	case MIN_EXT:
		return driver.BlendMin, c.caps.HasExtension("GL_EXT_blend_minmax")
	case MAX_EXT:
		return driver.BlendMax, c.caps.HasExtension("GL_EXT_blend_minmax")
	}
	return 0, false
}

// BlendEquationOES sets the blend equation (OES_blend_subtract,
// EXT_blend_minmax).
func (c *Context) BlendEquationOES(mode Enum) {
	const fn = "BlendEquationOES"
	if !c.need1(fn) {
		return
	}
	if !c.caps.HasExtension("GL_OES_blend_subtract") {
		c.record(fn, INVALID_OPERATION, "GL_OES_blend_subtract is not supported by %s", c.caps.Name)
		return
	}
	eq, ok := c.blendEquation(mode)
	if !ok {
		c.record(fn, INVALID_ENUM, "mode %#x", mode)
		return
	}
	c.st.Blend.EqRGB, c.st.Blend.EqAlpha = eq, eq
}

// BlendEquationSeparateOES sets separate RGB and alpha blend equations
// (OES_blend_equation_separate).
func (c *Context) BlendEquationSeparateOES(modeRGB, modeAlpha Enum) {
	const fn = "BlendEquationSeparateOES"
	if !c.need1(fn) {
		return
	}
	if !c.caps.HasExtension("GL_OES_blend_equation_separate") {
		c.record(fn, INVALID_OPERATION, "GL_OES_blend_equation_separate is not supported by %s", c.caps.Name)
		return
	}
	c.blendEquationSeparate(fn, modeRGB, modeAlpha)
}

// blendEquationSeparate validates and sets the RGB and alpha blend
// equations: add, subtract, reverse subtract, and min/max with
// EXT_blend_minmax.
func (c *Context) blendEquationSeparate(fn string, modeRGB, modeAlpha Enum) {
	er, ok1 := c.blendEquation(modeRGB)
	ea, ok2 := c.blendEquation(modeAlpha)
	if !ok1 || !ok2 {
		c.record(fn, INVALID_ENUM, "modes %#x, %#x", modeRGB, modeAlpha)
		return
	}
	c.st.Blend.EqRGB, c.st.Blend.EqAlpha = er, ea
}

// LogicOp sets the logic operation.
func (c *Context) LogicOp(op Enum) {
	if !c.need1("LogicOp") {
		return
	}
	if op < CLEAR || op > SET {
		c.record("LogicOp", INVALID_ENUM, "op %#x", op)
		return
	}
	c.st.LogicOp = driver.LogicOp(op - CLEAR)
}

// ColorMask sets the colour write mask.
func (c *Context) ColorMask(r, g, b, a bool) {
	if !c.alive("ColorMask") {
		return
	}
	c.st.ColorMask = [4]bool{r, g, b, a}
}

// SampleCoverage sets the multisample coverage value (no backend has
// multisample buffers, so it only affects GetFloatv).
func (c *Context) SampleCoverage(value float32, invert bool) {
	if !c.alive("SampleCoverage") {
		return
	}
	c.sampleCovValue, c.sampleCovInv = clamp01(value), invert
}

// CullFace selects the faces culled.
func (c *Context) CullFace(mode Enum) {
	if !c.alive("CullFace") {
		return
	}
	switch mode {
	case FRONT:
		c.st.CullFace = driver.FaceFront
	case BACK:
		c.st.CullFace = driver.FaceBack
	case FRONT_AND_BACK:
		c.st.CullFace = driver.FaceFrontAndBack
	default:
		c.record("CullFace", INVALID_ENUM, "mode %#x", mode)
	}
}

// FrontFace sets the front-face winding.
func (c *Context) FrontFace(mode Enum) {
	if !c.alive("FrontFace") {
		return
	}
	switch mode {
	case CCW:
		c.st.FrontFace = driver.WindingCCW
	case CW:
		c.st.FrontFace = driver.WindingCW
	default:
		c.record("FrontFace", INVALID_ENUM, "mode %#x", mode)
	}
}

// ShadeModel selects flat or smooth shading.
func (c *Context) ShadeModel(mode Enum) {
	if !c.need1("ShadeModel") {
		return
	}
	switch mode {
	case FLAT:
		c.st.Shade = driver.ShadeFlat
	case SMOOTH:
		c.st.Shade = driver.ShadeSmooth
	default:
		c.record("ShadeModel", INVALID_ENUM, "mode %#x", mode)
	}
}

// PolygonOffset sets the polygon offset factor and units.
func (c *Context) PolygonOffset(factor, units float32) {
	if !c.alive("PolygonOffset") {
		return
	}
	c.st.PolygonOffset.Factor, c.st.PolygonOffset.Units = factor, units
}

// LineWidth sets the line width.
func (c *Context) LineWidth(width float32) {
	if !c.alive("LineWidth") {
		return
	}
	if !(width > 0) {
		c.record("LineWidth", INVALID_VALUE, "width %v <= 0", width)
		return
	}
	c.st.LineWidth = width
}

// PointSize sets the point size.
func (c *Context) PointSize(size float32) {
	if !c.need1("PointSize") {
		return
	}
	if !(size > 0) {
		c.record("PointSize", INVALID_VALUE, "size %v <= 0", size)
		return
	}
	c.st.Point.Size = size
}

// PointParameterf sets a scalar point parameter.
func (c *Context) PointParameterf(pname Enum, param float32) {
	c.pointParameter("PointParameterf", pname, []float32{param})
}

// PointParameterfv sets a point parameter.
func (c *Context) PointParameterfv(pname Enum, params []float32) {
	c.pointParameter("PointParameterfv", pname, params)
}

func (c *Context) pointParameter(fn string, pname Enum, p []float32) {
	if !c.need1(fn) {
		return
	}
	need := 1
	if pname == POINT_DISTANCE_ATTENUATION {
		need = 3
	}
	if len(p) < need {
		c.record(fn, INVALID_VALUE, "%d values, %#x needs %d", len(p), pname, need)
		return
	}
	switch pname {
	case POINT_SIZE_MIN, POINT_SIZE_MAX, POINT_FADE_THRESHOLD_SIZE:
		if p[0] < 0 || p[0] != p[0] {
			c.record(fn, INVALID_VALUE, "%#x = %v < 0", pname, p[0])
			return
		}
		switch pname {
		case POINT_SIZE_MIN:
			c.st.Point.Min = p[0]
		case POINT_SIZE_MAX:
			c.st.Point.Max = p[0]
		default:
			c.st.Point.FadeThreshold = p[0]
		}
	case POINT_DISTANCE_ATTENUATION:
		c.st.Point.DistAtten = [3]float32{p[0], p[1], p[2]}
	default:
		c.record(fn, INVALID_ENUM, "pname %#x", pname)
	}
}

// Hint sets an implementation hint. FOG_HINT NICEST asks for per-pixel fog.
func (c *Context) Hint(target, mode Enum) {
	if !c.alive("Hint") {
		return
	}
	if mode != DONT_CARE && mode != FASTEST && mode != NICEST {
		c.record("Hint", INVALID_ENUM, "mode %#x", mode)
		return
	}
	if _, ok := c.hints[target]; !ok {
		c.record("Hint", INVALID_ENUM, "target %#x", target)
		return
	}
	c.hints[target] = mode
	c.st.Fog.PerPixel = c.hints[FOG_HINT] == NICEST
}

// PixelStorei sets PACK_ALIGNMENT or UNPACK_ALIGNMENT (1, 2, 4 or 8).
func (c *Context) PixelStorei(pname Enum, param int) {
	if !c.alive("PixelStorei") {
		return
	}
	if param != 1 && param != 2 && param != 4 && param != 8 {
		c.record("PixelStorei", INVALID_VALUE, "alignment %d", param)
		return
	}
	switch pname {
	case PACK_ALIGNMENT:
		c.packAlign = param
	case UNPACK_ALIGNMENT:
		c.unpackAlign = param
	default:
		c.record("PixelStorei", INVALID_ENUM, "pname %#x", pname)
	}
}

// GetString returns VENDOR, RENDERER, VERSION or EXTENSIONS (and, on ES 2.0
// backends, SHADING_LANGUAGE_VERSION).
func (c *Context) GetString(name Enum) string {
	if !c.alive("GetString") {
		return ""
	}
	switch name {
	case VENDOR:
		return c.caps.Vendor
	case RENDERER:
		return c.caps.Renderer
	case VERSION:
		if c.api2 {
			return c.caps.VersionES2
		}
		return c.caps.Version
	case EXTENSIONS:
		return strings.Join(c.caps.Extensions, " ")
	case SHADING_LANGUAGE_VERSION:
		if c.api2 {
			return c.caps.GLSLVersion
		}
	}
	c.record("GetString", INVALID_ENUM, "name %#x", name)
	return ""
}
