package gles

import (
	"math"

	"github.com/retrogl/retrogl/driver"
)

type valueKind uint8

const (
	kindInt   valueKind = iota // integers and enums
	kindFloat                  // floating-point state
	kindColor                  // colours and normals: ints scale [-1,1] to the int range
	kindBool
	kindEnum // enumerants: never scaled
)

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func f4(v [4]float32) []float64 {
	return []float64{float64(v[0]), float64(v[1]), float64(v[2]), float64(v[3])}
}

func mat(m [16]float32) []float64 {
	out := make([]float64, 16)
	for i, v := range m {
		out[i] = float64(v)
	}
	return out
}

// query returns the value of a state variable.
func (c *Context) query(pname Enum) ([]float64, valueKind, bool) {
	st := &c.st
	l := &c.caps.Limits
	one := func(v float64) []float64 { return []float64{v} }
	ie := func(e Enum) []float64 { return []float64{float64(e)} }
	r, g, b, _ := c.cfg.Format.Bits()
	a := c.cfg.AlphaBits()
	if c.api2 {
		switch pname {
		case MAX_VERTEX_ATTRIBS:
			return one(float64(l.MaxVertexAttribs)), kindInt, true
		case MAX_VERTEX_UNIFORM_VECTORS:
			return one(float64(l.MaxVertexUniformVectors)), kindInt, true
		case MAX_VARYING_VECTORS:
			return one(float64(l.MaxVaryingVectors)), kindInt, true
		case MAX_FRAGMENT_UNIFORM_VECTORS:
			return one(float64(l.MaxFragmentUniformVectors)), kindInt, true
		case MAX_TEXTURE_IMAGE_UNITS:
			return one(float64(l.MaxTextureImageUnits)), kindInt, true
		case MAX_VERTEX_TEXTURE_IMAGE_UNITS:
			return one(float64(l.MaxVertexTextureUnits)), kindInt, true
		case MAX_COMBINED_TEXTURE_IMAGE_UNITS:
			return one(float64(l.MaxCombinedTextureUnits)), kindInt, true
		case MAX_RENDERBUFFER_SIZE:
			return one(float64(l.MaxRenderbufferSize)), kindInt, true
		case CURRENT_PROGRAM:
			if c.gl2.current == nil {
				return one(0), kindInt, true
			}
			return one(float64(c.gl2.current.id)), kindInt, true
		case SHADER_COMPILER:
			return one(1), kindBool, true
		case NUM_SHADER_BINARY_FORMATS:
			return one(0), kindInt, true
		case BLEND_COLOR:
			return f4(st.Blend.Color), kindColor, true
		case MAX_TEXTURE_UNITS, MAX_LIGHTS, MAX_CLIP_PLANES, MODELVIEW_MATRIX, PROJECTION_MATRIX, TEXTURE_MATRIX,
			MATRIX_MODE, CURRENT_COLOR, CURRENT_NORMAL, CURRENT_TEXTURE_COORDS, FOG_MODE, FOG_COLOR, SHADE_MODEL,
			ALPHA_TEST_FUNC, ALPHA_TEST_REF, LOGIC_OP_MODE, LIGHT_MODEL_AMBIENT, LIGHT_MODEL_TWO_SIDE:
			return nil, 0, false // fixed-function state is not in GL ES 2.0
		}
	}
	switch pname {
	case MAX_LIGHTS:
		return one(float64(l.MaxLights)), kindInt, true
	case MAX_CLIP_PLANES:
		return one(float64(l.MaxClipPlanes)), kindInt, true
	case MAX_TEXTURE_SIZE:
		return one(float64(l.MaxTextureSize)), kindInt, true
	case MAX_TEXTURE_UNITS:
		return one(float64(l.MaxTextureUnits)), kindInt, true
	case MAX_MODELVIEW_STACK_DEPTH:
		return one(float64(l.MaxModelviewStackDepth)), kindInt, true
	case MAX_PROJECTION_STACK_DEPTH:
		return one(float64(l.MaxProjectionStackDepth)), kindInt, true
	case MAX_TEXTURE_STACK_DEPTH:
		return one(float64(l.MaxTextureStackDepth)), kindInt, true
	case MAX_VIEWPORT_DIMS:
		return []float64{float64(l.MaxViewportDims[0]), float64(l.MaxViewportDims[1])}, kindInt, true
	case MAX_ELEMENTS_VERTICES:
		return one(float64(l.MaxElementsVertices)), kindInt, true
	case MAX_ELEMENTS_INDICES:
		return one(float64(l.MaxElementsIndices)), kindInt, true
	case SUBPIXEL_BITS:
		return one(float64(l.SubpixelBits)), kindInt, true
	case ALIASED_POINT_SIZE_RANGE:
		return []float64{float64(l.AliasedPointSizeRange[0]), float64(l.AliasedPointSizeRange[1])}, kindFloat, true
	case SMOOTH_POINT_SIZE_RANGE:
		return []float64{float64(l.SmoothPointSizeRange[0]), float64(l.SmoothPointSizeRange[1])}, kindFloat, true
	case ALIASED_LINE_WIDTH_RANGE:
		return []float64{float64(l.AliasedLineWidthRange[0]), float64(l.AliasedLineWidthRange[1])}, kindFloat, true
	case SMOOTH_LINE_WIDTH_RANGE:
		return []float64{float64(l.SmoothLineWidthRange[0]), float64(l.SmoothLineWidthRange[1])}, kindFloat, true
	case MAX_PALETTE_MATRICES_OES:
		if c.caps.HasExtension("GL_OES_matrix_palette") {
			return one(float64(l.MaxPaletteMatrices)), kindInt, true
		}
	case MAX_VERTEX_UNITS_OES:
		if c.caps.HasExtension("GL_OES_matrix_palette") {
			return one(float64(l.MaxVertexUnits)), kindInt, true
		}
	case CURRENT_PALETTE_MATRIX_OES:
		if c.caps.HasExtension("GL_OES_matrix_palette") {
			return one(float64(c.palette)), kindInt, true
		}
	case RED_BITS:
		return one(float64(r)), kindInt, true
	case GREEN_BITS:
		return one(float64(g)), kindInt, true
	case BLUE_BITS:
		return one(float64(b)), kindInt, true
	case ALPHA_BITS:
		return one(float64(a)), kindInt, true
	case DEPTH_BITS:
		return one(float64(c.cfg.DepthBits)), kindInt, true
	case STENCIL_BITS:
		return one(float64(c.cfg.StencilBits)), kindInt, true
	case SAMPLE_BUFFERS, SAMPLES:
		return one(0), kindInt, true
	case NUM_COMPRESSED_TEXTURE_FORMATS:
		return one(float64(len(c.compressedFormats()))), kindInt, true
	case COMPRESSED_TEXTURE_FORMATS:
		var out []float64
		for _, f := range c.compressedFormats() {
			out = append(out, float64(f))
		}
		return out, kindInt, true
	case IMPLEMENTATION_COLOR_READ_FORMAT_OES:
		return ie(RGBA), kindEnum, true
	case IMPLEMENTATION_COLOR_READ_TYPE_OES:
		return ie(UNSIGNED_BYTE), kindEnum, true

	case VIEWPORT:
		v := st.Viewport
		return []float64{float64(v.X), float64(v.Y), float64(v.W), float64(v.H)}, kindInt, true
	case SCISSOR_BOX:
		v := st.Scissor
		return []float64{float64(v.X), float64(v.Y), float64(v.W), float64(v.H)}, kindInt, true
	case DEPTH_RANGE:
		return []float64{float64(st.DepthRange[0]), float64(st.DepthRange[1])}, kindColor, true
	case COLOR_CLEAR_VALUE:
		return f4(c.clearColor), kindColor, true
	case DEPTH_CLEAR_VALUE:
		return one(float64(c.clearDepth)), kindColor, true
	case STENCIL_CLEAR_VALUE:
		return one(float64(c.clearStencil)), kindInt, true
	case COLOR_WRITEMASK:
		m := st.ColorMask
		return []float64{b2f(m[0]), b2f(m[1]), b2f(m[2]), b2f(m[3])}, kindBool, true
	case DEPTH_WRITEMASK:
		return one(b2f(st.DepthMask)), kindBool, true
	case DEPTH_FUNC:
		return ie(NEVER + Enum(st.DepthFunc)), kindEnum, true
	case ALPHA_TEST_FUNC:
		return ie(NEVER + Enum(st.AlphaTest.Func)), kindEnum, true
	case ALPHA_TEST_REF:
		return one(float64(st.AlphaTest.Ref)), kindColor, true
	case STENCIL_FUNC:
		return ie(NEVER + Enum(st.Stencil[0].Func)), kindEnum, true
	case STENCIL_REF:
		return one(float64(st.Stencil[0].Ref)), kindInt, true
	case STENCIL_VALUE_MASK:
		return one(float64(st.Stencil[0].ValueMask)), kindInt, true
	case STENCIL_WRITEMASK:
		return one(float64(st.Stencil[0].WriteMask)), kindInt, true
	case STENCIL_FAIL, STENCIL_PASS_DEPTH_FAIL, STENCIL_PASS_DEPTH_PASS:
		ops := []Enum{KEEP, ZERO, REPLACE, INCR, DECR, INVERT, INCR_WRAP, DECR_WRAP}
		s := st.Stencil[0]
		op := map[Enum]driver.StencilOp{STENCIL_FAIL: s.Fail, STENCIL_PASS_DEPTH_FAIL: s.ZFail, STENCIL_PASS_DEPTH_PASS: s.ZPass}[pname]
		return ie(ops[op]), kindEnum, true
	case BLEND_SRC, BLEND_DST, BLEND_SRC_RGB_OES, BLEND_DST_RGB_OES, BLEND_SRC_ALPHA_OES, BLEND_DST_ALPHA_OES:
		factors := []Enum{ZERO, ONE, SRC_COLOR, ONE_MINUS_SRC_COLOR, DST_COLOR, ONE_MINUS_DST_COLOR,
			SRC_ALPHA, ONE_MINUS_SRC_ALPHA, DST_ALPHA, ONE_MINUS_DST_ALPHA, SRC_ALPHA_SATURATE,
			CONSTANT_COLOR, ONE_MINUS_CONSTANT_COLOR, CONSTANT_ALPHA, ONE_MINUS_CONSTANT_ALPHA}
		bl := st.Blend
		f := map[Enum]driver.BlendFactor{BLEND_SRC: bl.SrcRGB, BLEND_DST: bl.DstRGB, BLEND_SRC_RGB_OES: bl.SrcRGB,
			BLEND_DST_RGB_OES: bl.DstRGB, BLEND_SRC_ALPHA_OES: bl.SrcAlpha, BLEND_DST_ALPHA_OES: bl.DstAlpha}[pname]
		return ie(factors[f]), kindEnum, true
	case BLEND_EQUATION_OES, BLEND_EQUATION_ALPHA_OES:
		eqs := []Enum{FUNC_ADD_OES, FUNC_SUBTRACT_OES, FUNC_REVERSE_SUBTRACT_OES, MIN_EXT, MAX_EXT}
		if pname == BLEND_EQUATION_ALPHA_OES {
			return ie(eqs[st.Blend.EqAlpha]), kindEnum, true
		}
		return ie(eqs[st.Blend.EqRGB]), kindEnum, true
	case LOGIC_OP_MODE:
		return ie(CLEAR + Enum(st.LogicOp)), kindEnum, true
	case CULL_FACE_MODE:
		return ie([]Enum{BACK, FRONT, FRONT_AND_BACK}[st.CullFace]), kindEnum, true
	case FRONT_FACE:
		return ie([]Enum{CCW, CW}[st.FrontFace]), kindEnum, true
	case SHADE_MODEL:
		return ie([]Enum{SMOOTH, FLAT}[st.Shade]), kindEnum, true
	case MATRIX_MODE:
		return ie(c.matrixMode), kindEnum, true
	case MODELVIEW_STACK_DEPTH:
		return one(float64(len(c.modelview))), kindInt, true
	case PROJECTION_STACK_DEPTH:
		return one(float64(len(c.projection))), kindInt, true
	case TEXTURE_STACK_DEPTH:
		return one(float64(len(c.texture[c.activeTex]))), kindInt, true
	case MODELVIEW_MATRIX:
		return mat(c.modelview[len(c.modelview)-1]), kindFloat, true
	case PROJECTION_MATRIX:
		return mat(c.projection[len(c.projection)-1]), kindFloat, true
	case TEXTURE_MATRIX:
		t := c.texture[c.activeTex]
		return mat(t[len(t)-1]), kindFloat, true
	case ACTIVE_TEXTURE:
		return ie(TEXTURE0 + Enum(c.activeTex)), kindEnum, true
	case CLIENT_ACTIVE_TEXTURE:
		return ie(TEXTURE0 + Enum(c.clientActiveTex)), kindEnum, true
	case TEXTURE_BINDING_2D:
		return one(float64(c.boundTex[c.activeTex])), kindInt, true
	case ARRAY_BUFFER_BINDING:
		return one(float64(c.arrayBuffer)), kindInt, true
	case ELEMENT_ARRAY_BUFFER_BINDING:
		return one(float64(c.elementBuffer)), kindInt, true
	case CURRENT_COLOR:
		return f4(st.CurrentColor), kindColor, true
	case CURRENT_NORMAL:
		n := st.CurrentNormal
		return []float64{float64(n[0]), float64(n[1]), float64(n[2])}, kindColor, true
	case CURRENT_TEXTURE_COORDS:
		return f4(st.CurrentTexCoord[c.activeTex]), kindFloat, true
	case POINT_SIZE:
		return one(float64(st.Point.Size)), kindFloat, true
	case POINT_SIZE_MIN:
		return one(float64(st.Point.Min)), kindFloat, true
	case POINT_SIZE_MAX:
		return one(float64(st.Point.Max)), kindFloat, true
	case POINT_FADE_THRESHOLD_SIZE:
		return one(float64(st.Point.FadeThreshold)), kindFloat, true
	case POINT_DISTANCE_ATTENUATION:
		d := st.Point.DistAtten
		return []float64{float64(d[0]), float64(d[1]), float64(d[2])}, kindFloat, true
	case LINE_WIDTH:
		return one(float64(st.LineWidth)), kindFloat, true
	case POLYGON_OFFSET_FACTOR:
		return one(float64(st.PolygonOffset.Factor)), kindFloat, true
	case POLYGON_OFFSET_UNITS:
		return one(float64(st.PolygonOffset.Units)), kindFloat, true
	case LIGHT_MODEL_AMBIENT:
		return f4(st.Lighting.Ambient), kindColor, true
	case LIGHT_MODEL_TWO_SIDE:
		return one(b2f(st.Lighting.TwoSide)), kindBool, true
	case FOG_MODE:
		return ie([]Enum{EXP, EXP2, LINEAR}[st.Fog.Mode]), kindEnum, true
	case FOG_DENSITY:
		return one(float64(st.Fog.Density)), kindFloat, true
	case FOG_START:
		return one(float64(st.Fog.Start)), kindFloat, true
	case FOG_END:
		return one(float64(st.Fog.End)), kindFloat, true
	case FOG_COLOR:
		return f4(st.Fog.Color), kindColor, true
	case UNPACK_ALIGNMENT:
		return one(float64(c.unpackAlign)), kindInt, true
	case PACK_ALIGNMENT:
		return one(float64(c.packAlign)), kindInt, true
	case SAMPLE_COVERAGE_VALUE:
		return one(float64(c.sampleCovValue)), kindFloat, true
	case SAMPLE_COVERAGE_INVERT:
		return one(b2f(c.sampleCovInv)), kindBool, true
	case PERSPECTIVE_CORRECTION_HINT, POINT_SMOOTH_HINT, LINE_SMOOTH_HINT, FOG_HINT, GENERATE_MIPMAP_HINT:
		return ie(c.hints[pname]), kindEnum, true
	}
	if a, ok := c.arrayQuery(pname); ok {
		return a, kindInt, true
	}
	if p := c.capability(pname); p != nil {
		return one(b2f(*p)), kindBool, true
	}
	if ai, ok := c.clientArray(pname); ok {
		return one(b2f(c.arrays[ai].enabled)), kindBool, true
	}
	return nil, 0, false
}

func (c *Context) arrayQuery(pname Enum) ([]float64, bool) {
	type q struct {
		arr  int
		what byte
	}
	tc := arrTexCoord0 + c.clientActiveTex
	m := map[Enum]q{
		VERTEX_ARRAY_SIZE: {arrVertex, 's'}, VERTEX_ARRAY_TYPE: {arrVertex, 't'}, VERTEX_ARRAY_STRIDE: {arrVertex, 'd'},
		NORMAL_ARRAY_TYPE: {arrNormal, 't'}, NORMAL_ARRAY_STRIDE: {arrNormal, 'd'},
		COLOR_ARRAY_SIZE: {arrColor, 's'}, COLOR_ARRAY_TYPE: {arrColor, 't'}, COLOR_ARRAY_STRIDE: {arrColor, 'd'},
		TEXTURE_COORD_ARRAY_SIZE: {tc, 's'}, TEXTURE_COORD_ARRAY_TYPE: {tc, 't'}, TEXTURE_COORD_ARRAY_STRIDE: {tc, 'd'},
		VERTEX_ARRAY_BUFFER_BINDING: {arrVertex, 'b'}, NORMAL_ARRAY_BUFFER_BINDING: {arrNormal, 'b'},
		COLOR_ARRAY_BUFFER_BINDING: {arrColor, 'b'}, TEXTURE_COORD_ARRAY_BUFFER_BINDING: {tc, 'b'},
		POINT_SIZE_ARRAY_TYPE_OES: {arrPointSize, 't'}, POINT_SIZE_ARRAY_STRIDE_OES: {arrPointSize, 'd'},
		POINT_SIZE_ARRAY_BUFFER_BINDING_OES: {arrPointSize, 'b'},
	}
	x, ok := m[pname]
	if !ok {
		return nil, false
	}
	as := &c.arrays[x.arr]
	switch x.what {
	case 's':
		return []float64{float64(as.size)}, true
	case 't':
		return []float64{float64(as.typ)}, true
	case 'd':
		return []float64{float64(as.stride)}, true
	}
	if as.buffer == nil {
		return []float64{0}, true
	}
	return []float64{float64(as.buffer.id)}, true
}

// GetIntegerv returns the value of a state variable or limit as integers.
// Colours and depth values map [-1, 1] onto the integer range, as GL says.
func (c *Context) GetIntegerv(pname Enum) []int {
	if !c.alive("GetIntegerv") {
		return nil
	}
	v, kind, ok := c.query(pname)
	if !ok {
		c.record("GetIntegerv", INVALID_ENUM, "pname %#x", pname)
		return nil
	}
	out := make([]int, len(v))
	for i, x := range v {
		if kind == kindColor {
			// GL ES 1.1 section 6.1.2: i = ((2^32-1)c - 1) / 2.
			x = math.Max(math.MinInt32, math.Min(math.MaxInt32, (x*4294967295-1)/2))
		}
		out[i] = int(math.Round(x))
	}
	return out
}

// GetFloatv returns the value of a state variable or limit as floats.
func (c *Context) GetFloatv(pname Enum) []float32 {
	if !c.alive("GetFloatv") {
		return nil
	}
	v, _, ok := c.query(pname)
	if !ok {
		c.record("GetFloatv", INVALID_ENUM, "pname %#x", pname)
		return nil
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// GetBooleanv returns the value of a state variable as booleans (non-zero is
// true).
func (c *Context) GetBooleanv(pname Enum) []bool {
	if !c.alive("GetBooleanv") {
		return nil
	}
	v, _, ok := c.query(pname)
	if !ok {
		c.record("GetBooleanv", INVALID_ENUM, "pname %#x", pname)
		return nil
	}
	out := make([]bool, len(v))
	for i, x := range v {
		out[i] = x != 0
	}
	return out
}
