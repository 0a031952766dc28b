package gles

// Fixed is a GL ES 16.16 fixed-point value (GLfixed).
type Fixed int32

// Float returns the value as a float32.
func (x Fixed) Float() float32 { return float32(x) / 65536 }

// ToFixed converts a float32 to 16.16, rounding to nearest and saturating.
func ToFixed(f float32) Fixed {
	v := float64(f) * 65536
	switch {
	case v != v:
		return 0
	case v >= 2147483647:
		return 2147483647
	case v <= -2147483648:
		return -2147483648
	}
	if v < 0 {
		return Fixed(v - 0.5)
	}
	return Fixed(v + 0.5)
}

func fx(v []Fixed) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x.Float()
	}
	return out
}

// enumParam reports whether a parameter name takes an enum (or boolean),
// which the fixed-point entry points pass through unconverted (ES 1.1
// section 2.3.1).
func enumParam(pname Enum) bool {
	switch pname {
	case FOG_MODE, TEXTURE_ENV_MODE, COMBINE_RGB, COMBINE_ALPHA,
		SRC0_RGB, SRC1_RGB, SRC2_RGB, SRC0_ALPHA, SRC1_ALPHA, SRC2_ALPHA,
		OPERAND0_RGB, OPERAND1_RGB, OPERAND2_RGB, OPERAND0_ALPHA, OPERAND1_ALPHA, OPERAND2_ALPHA,
		TEXTURE_MIN_FILTER, TEXTURE_MAG_FILTER, TEXTURE_WRAP_S, TEXTURE_WRAP_T, GENERATE_MIPMAP,
		LIGHT_MODEL_TWO_SIDE, COORD_REPLACE_OES:
		return true
	}
	return false
}

func fxParams(pname Enum, v []Fixed) []float32 {
	if enumParam(pname) {
		out := make([]float32, len(v))
		for i, x := range v {
			out[i] = float32(x)
		}
		return out
	}
	return fx(v)
}

// AlphaFuncx is AlphaFunc with a fixed-point reference.
func (c *Context) AlphaFuncx(fn Enum, ref Fixed) { c.AlphaFunc(fn, ref.Float()) }

// ClearColorx is ClearColor in fixed point.
func (c *Context) ClearColorx(r, g, b, a Fixed) {
	c.ClearColor(r.Float(), g.Float(), b.Float(), a.Float())
}

// ClearDepthx is ClearDepthf in fixed point.
func (c *Context) ClearDepthx(d Fixed) { c.ClearDepthf(d.Float()) }

// ClipPlanex is ClipPlanef in fixed point.
func (c *Context) ClipPlanex(plane Enum, eq []Fixed) { c.ClipPlanef(plane, fx(eq)) }

// Color4x is Color4f in fixed point.
func (c *Context) Color4x(r, g, b, a Fixed) { c.Color4f(r.Float(), g.Float(), b.Float(), a.Float()) }

// DepthRangex is DepthRangef in fixed point.
func (c *Context) DepthRangex(n, f Fixed) { c.DepthRangef(n.Float(), f.Float()) }

// Fogx is Fogf in fixed point (FOG_MODE takes the enum unconverted).
func (c *Context) Fogx(pname Enum, param Fixed) {
	c.fog("Fogx", pname, fxParams(pname, []Fixed{param}))
}

// Fogxv is Fogfv in fixed point.
func (c *Context) Fogxv(pname Enum, params []Fixed) { c.fog("Fogxv", pname, fxParams(pname, params)) }

// Frustumx is Frustumf in fixed point.
func (c *Context) Frustumx(l, r, b, t, n, f Fixed) {
	c.Frustumf(l.Float(), r.Float(), b.Float(), t.Float(), n.Float(), f.Float())
}

// Orthox is Orthof in fixed point.
func (c *Context) Orthox(l, r, b, t, n, f Fixed) {
	c.Orthof(l.Float(), r.Float(), b.Float(), t.Float(), n.Float(), f.Float())
}

// LightModelx is LightModelf in fixed point.
func (c *Context) LightModelx(pname Enum, param Fixed) {
	c.lightModel("LightModelx", pname, fxParams(pname, []Fixed{param}))
}

// LightModelxv is LightModelfv in fixed point.
func (c *Context) LightModelxv(pname Enum, params []Fixed) {
	c.lightModel("LightModelxv", pname, fxParams(pname, params))
}

// Lightx is Lightf in fixed point.
func (c *Context) Lightx(light, pname Enum, param Fixed) {
	c.lightv("Lightx", light, pname, []float32{param.Float()}, true)
}

// Lightxv is Lightfv in fixed point.
func (c *Context) Lightxv(light, pname Enum, params []Fixed) {
	c.lightv("Lightxv", light, pname, fx(params), false)
}

// LineWidthx is LineWidth in fixed point.
func (c *Context) LineWidthx(w Fixed) { c.LineWidth(w.Float()) }

// LoadMatrixx is LoadMatrixf in fixed point.
func (c *Context) LoadMatrixx(m []Fixed) { c.LoadMatrixf(fx(m)) }

// MultMatrixx is MultMatrixf in fixed point.
func (c *Context) MultMatrixx(m []Fixed) { c.MultMatrixf(fx(m)) }

// Materialx is Materialf in fixed point.
func (c *Context) Materialx(face, pname Enum, param Fixed) {
	c.material("Materialx", face, pname, []float32{param.Float()}, true)
}

// Materialxv is Materialfv in fixed point.
func (c *Context) Materialxv(face, pname Enum, params []Fixed) {
	c.material("Materialxv", face, pname, fx(params), false)
}

// MultiTexCoord4x is MultiTexCoord4f in fixed point.
func (c *Context) MultiTexCoord4x(target Enum, s, t, r, q Fixed) {
	c.MultiTexCoord4f(target, s.Float(), t.Float(), r.Float(), q.Float())
}

// Normal3x is Normal3f in fixed point.
func (c *Context) Normal3x(x, y, z Fixed) { c.Normal3f(x.Float(), y.Float(), z.Float()) }

// PointParameterx is PointParameterf in fixed point.
func (c *Context) PointParameterx(pname Enum, param Fixed) {
	c.pointParameter("PointParameterx", pname, []float32{param.Float()})
}

// PointParameterxv is PointParameterfv in fixed point.
func (c *Context) PointParameterxv(pname Enum, params []Fixed) {
	c.pointParameter("PointParameterxv", pname, fx(params))
}

// PointSizex is PointSize in fixed point.
func (c *Context) PointSizex(size Fixed) { c.PointSize(size.Float()) }

// PolygonOffsetx is PolygonOffset in fixed point.
func (c *Context) PolygonOffsetx(factor, units Fixed) { c.PolygonOffset(factor.Float(), units.Float()) }

// Rotatex is Rotatef in fixed point.
func (c *Context) Rotatex(angle, x, y, z Fixed) {
	c.Rotatef(angle.Float(), x.Float(), y.Float(), z.Float())
}

// SampleCoveragex is SampleCoverage in fixed point.
func (c *Context) SampleCoveragex(value Fixed, invert bool) { c.SampleCoverage(value.Float(), invert) }

// Scalex is Scalef in fixed point.
func (c *Context) Scalex(x, y, z Fixed) { c.Scalef(x.Float(), y.Float(), z.Float()) }

// Translatex is Translatef in fixed point.
func (c *Context) Translatex(x, y, z Fixed) { c.Translatef(x.Float(), y.Float(), z.Float()) }

// TexEnvx is TexEnvf in fixed point (enum-valued names unconverted).
func (c *Context) TexEnvx(target, pname Enum, param Fixed) {
	c.texEnv("TexEnvx", target, pname, fxParams(pname, []Fixed{param}))
}

// TexEnvxv is TexEnvfv in fixed point.
func (c *Context) TexEnvxv(target, pname Enum, params []Fixed) {
	c.texEnv("TexEnvxv", target, pname, fxParams(pname, params))
}

// TexEnviv is TexEnvfv with integer values (enums and integer scales).
func (c *Context) TexEnviv(target, pname Enum, params []int) {
	f := make([]float32, len(params))
	for i, p := range params {
		f[i] = float32(p)
	}
	if pname == TEXTURE_ENV_COLOR {
		// Integer colours map the int range onto [-1, 1].
		for i, p := range params {
			f[i] = float32(float64(p)*2+1) / 4294967295
		}
	}
	c.texEnv("TexEnviv", target, pname, f)
}

// TexParameterx is TexParameterf in fixed point (enum values unconverted).
func (c *Context) TexParameterx(target, pname Enum, param Fixed) {
	c.texParameter("TexParameterx", target, pname, fxParams(pname, []Fixed{param}))
}

// TexParameterxv is TexParameterfv in fixed point.
func (c *Context) TexParameterxv(target, pname Enum, params []Fixed) {
	c.texParameter("TexParameterxv", target, pname, fxParams(pname, params))
}

// GetFixedv returns a state variable in fixed point.
func (c *Context) GetFixedv(pname Enum) []Fixed {
	if !c.alive("GetFixedv") {
		return nil
	}
	v, kind, ok := c.query(pname)
	if !ok {
		c.record("GetFixedv", INVALID_ENUM, "pname %#x", pname)
		return nil
	}
	out := make([]Fixed, len(v))
	for i, x := range v {
		if kind == kindEnum {
			out[i] = Fixed(x) // enums are returned as they are
			continue
		}
		out[i] = ToFixed(float32(x))
	}
	return out
}

// GetClipPlanex is GetClipPlanef in fixed point.
func (c *Context) GetClipPlanex(plane Enum) []Fixed { return toFixed(c.GetClipPlanef(plane)) }

// GetLightxv is GetLightfv in fixed point.
func (c *Context) GetLightxv(light, pname Enum) []Fixed { return toFixed(c.GetLightfv(light, pname)) }

// GetMaterialxv is GetMaterialfv in fixed point.
func (c *Context) GetMaterialxv(face, pname Enum) []Fixed {
	return toFixed(c.GetMaterialfv(face, pname))
}

// GetTexEnvxv is GetTexEnvfv in fixed point (enums unconverted).
func (c *Context) GetTexEnvxv(target, pname Enum) []Fixed {
	v := c.GetTexEnvfv(target, pname)
	if enumParam(pname) {
		out := make([]Fixed, len(v))
		for i, x := range v {
			out[i] = Fixed(x)
		}
		return out
	}
	return toFixed(v)
}

// GetTexEnviv returns a texture environment parameter as integers.
func (c *Context) GetTexEnviv(target, pname Enum) []int {
	v := c.GetTexEnvfv(target, pname)
	out := make([]int, len(v))
	for i, x := range v {
		if pname == TEXTURE_ENV_COLOR {
			out[i] = int((float64(x)*4294967295 - 1) / 2)
		} else {
			out[i] = int(x)
		}
	}
	return out
}

// GetTexParameterxv is GetTexParameteriv in fixed point (enums unconverted).
func (c *Context) GetTexParameterxv(target, pname Enum) []Fixed {
	v := c.GetTexParameteriv(target, pname)
	out := make([]Fixed, len(v))
	for i, x := range v {
		if enumParam(pname) {
			out[i] = Fixed(x)
		} else {
			out[i] = ToFixed(float32(x))
		}
	}
	return out
}

func toFixed(v []float32) []Fixed {
	if v == nil {
		return nil
	}
	out := make([]Fixed, len(v))
	for i, x := range v {
		out[i] = ToFixed(x)
	}
	return out
}

// GetPointerv returns the pointer given to a vertex array call: the client
// slice, or the int byte offset into the bound buffer.
func (c *Context) GetPointerv(pname Enum) any {
	const fn = "GetPointerv"
	if !c.alive(fn) {
		return nil
	}
	var a int
	switch pname {
	case 0x808E: // VERTEX_ARRAY_POINTER
		a = arrVertex
	case 0x808F: // NORMAL_ARRAY_POINTER
		a = arrNormal
	case 0x8090: // COLOR_ARRAY_POINTER
		a = arrColor
	case 0x8092: // TEXTURE_COORD_ARRAY_POINTER
		a = arrTexCoord0 + c.clientActiveTex
	case 0x898C: // POINT_SIZE_ARRAY_POINTER_OES
		a = arrPointSize
	default:
		c.record(fn, INVALID_ENUM, "pname %#x", pname)
		return nil
	}
	as := &c.arrays[a]
	if as.buffer != nil {
		return as.offset
	}
	return as.client
}
