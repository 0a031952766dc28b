package gles

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
)

func (c *Context) light(fn string, light Enum) *driver.Light {
	if light < LIGHT0 || int(light-LIGHT0) >= min(c.caps.Limits.MaxLights, driver.MaxLights) {
		c.record(fn, INVALID_ENUM, "light %#x", light)
		return nil
	}
	return &c.st.Lighting.Lights[light-LIGHT0]
}

// Lightf sets a scalar light parameter.
func (c *Context) Lightf(light, pname Enum, param float32) {
	c.lightv("Lightf", light, pname, []float32{param}, true)
}

// Lightfv sets a light parameter. POSITION and SPOT_DIRECTION are
// transformed by the current model-view matrix, as GL specifies.
func (c *Context) Lightfv(light, pname Enum, params []float32) {
	c.lightv("Lightfv", light, pname, params, false)
}

func (c *Context) lightv(fn string, light, pname Enum, p []float32, scalar bool) {
	if !c.need1(fn) {
		return
	}
	l := c.light(fn, light)
	if l == nil {
		return
	}
	need := 1
	switch pname {
	case AMBIENT, DIFFUSE, SPECULAR, POSITION:
		need = 4
	case SPOT_DIRECTION:
		need = 3
	}
	if scalar && need > 1 {
		c.record(fn, INVALID_ENUM, "pname %#x is not scalar", pname)
		return
	}
	if len(p) < need {
		c.record(fn, INVALID_VALUE, "%d values, %#x needs %d", len(p), pname, need)
		return
	}
	mv := c.modelview[len(c.modelview)-1]
	switch pname {
	case AMBIENT:
		l.Ambient = [4]float32(p[:4])
	case DIFFUSE:
		l.Diffuse = [4]float32(p[:4])
	case SPECULAR:
		l.Specular = [4]float32(p[:4])
	case POSITION:
		v := mv.Mul4x1(mgl32.Vec4{p[0], p[1], p[2], p[3]})
		l.Position = [4]float32(v)
	case SPOT_DIRECTION:
		v := mv.Mat3().Mul3x1(mgl32.Vec3{p[0], p[1], p[2]})
		l.SpotDirection = [3]float32(v)
	case SPOT_EXPONENT:
		if p[0] < 0 || p[0] > 128 {
			c.record(fn, INVALID_VALUE, "spot exponent %v outside 0..128", p[0])
			return
		}
		l.SpotExponent = p[0]
	case SPOT_CUTOFF:
		if (p[0] < 0 || p[0] > 90) && p[0] != 180 {
			c.record(fn, INVALID_VALUE, "spot cutoff %v outside 0..90 and not 180", p[0])
			return
		}
		l.SpotCutoff = p[0]
	case CONSTANT_ATTENUATION, LINEAR_ATTENUATION, QUADRATIC_ATTENUATION:
		if p[0] < 0 {
			c.record(fn, INVALID_VALUE, "attenuation %v < 0", p[0])
			return
		}
		switch pname {
		case CONSTANT_ATTENUATION:
			l.ConstantAtten = p[0]
		case LINEAR_ATTENUATION:
			l.LinearAtten = p[0]
		default:
			l.QuadraticAt = p[0]
		}
	default:
		c.record(fn, INVALID_ENUM, "pname %#x", pname)
	}
}

// GetLightfv returns a light parameter (positions in eye coordinates).
func (c *Context) GetLightfv(light, pname Enum) []float32 {
	const fn = "GetLightfv"
	if !c.need1(fn) {
		return nil
	}
	l := c.light(fn, light)
	if l == nil {
		return nil
	}
	switch pname {
	case AMBIENT:
		return l.Ambient[:]
	case DIFFUSE:
		return l.Diffuse[:]
	case SPECULAR:
		return l.Specular[:]
	case POSITION:
		return l.Position[:]
	case SPOT_DIRECTION:
		return l.SpotDirection[:]
	case SPOT_EXPONENT:
		return []float32{l.SpotExponent}
	case SPOT_CUTOFF:
		return []float32{l.SpotCutoff}
	case CONSTANT_ATTENUATION:
		return []float32{l.ConstantAtten}
	case LINEAR_ATTENUATION:
		return []float32{l.LinearAtten}
	case QUADRATIC_ATTENUATION:
		return []float32{l.QuadraticAt}
	}
	c.record(fn, INVALID_ENUM, "pname %#x", pname)
	return nil
}

// LightModelf sets LIGHT_MODEL_TWO_SIDE.
func (c *Context) LightModelf(pname Enum, param float32) {
	c.lightModel("LightModelf", pname, []float32{param})
}

// LightModelfv sets LIGHT_MODEL_AMBIENT (4 values) or LIGHT_MODEL_TWO_SIDE.
func (c *Context) LightModelfv(pname Enum, params []float32) {
	c.lightModel("LightModelfv", pname, params)
}

func (c *Context) lightModel(fn string, pname Enum, p []float32) {
	if !c.need1(fn) {
		return
	}
	switch pname {
	case LIGHT_MODEL_AMBIENT:
		if len(p) < 4 {
			c.record(fn, INVALID_VALUE, "LIGHT_MODEL_AMBIENT needs 4 values")
			return
		}
		c.st.Lighting.Ambient = [4]float32(p[:4])
	case LIGHT_MODEL_TWO_SIDE:
		if len(p) < 1 {
			c.record(fn, INVALID_VALUE, "no value")
			return
		}
		c.st.Lighting.TwoSide = p[0] != 0
	default:
		c.record(fn, INVALID_ENUM, "pname %#x", pname)
	}
}

// Materialf sets SHININESS (face must be FRONT_AND_BACK in ES 1.1).
func (c *Context) Materialf(face, pname Enum, param float32) {
	c.material("Materialf", face, pname, []float32{param}, true)
}

// Materialfv sets a material parameter (face must be FRONT_AND_BACK).
func (c *Context) Materialfv(face, pname Enum, params []float32) {
	c.material("Materialfv", face, pname, params, false)
}

func (c *Context) material(fn string, face, pname Enum, p []float32, scalar bool) {
	if !c.need1(fn) {
		return
	}
	if face != FRONT_AND_BACK {
		c.record(fn, INVALID_ENUM, "face %#x (ES 1.1 takes FRONT_AND_BACK only)", face)
		return
	}
	m := &c.st.Lighting.Material
	if pname == SHININESS {
		if len(p) < 1 || p[0] < 0 || p[0] > 128 {
			c.record(fn, INVALID_VALUE, "shininess %v outside 0..128", p)
			return
		}
		m.Shininess = p[0]
		return
	}
	if scalar {
		c.record(fn, INVALID_ENUM, "pname %#x is not scalar", pname)
		return
	}
	switch pname {
	case AMBIENT, DIFFUSE, SPECULAR, EMISSION, AMBIENT_AND_DIFFUSE:
	default:
		c.record(fn, INVALID_ENUM, "pname %#x", pname)
		return
	}
	if len(p) < 4 {
		c.record(fn, INVALID_VALUE, "%#x needs 4 values", pname)
		return
	}
	v := [4]float32(p[:4])
	switch pname {
	case AMBIENT:
		m.Ambient = v
	case DIFFUSE:
		m.Diffuse = v
	case SPECULAR:
		m.Specular = v
	case EMISSION:
		m.Emission = v
	case AMBIENT_AND_DIFFUSE:
		m.Ambient, m.Diffuse = v, v
	}
}

// GetMaterialfv returns a material parameter. With COLOR_MATERIAL on, the
// ambient and diffuse colours track the current colour.
func (c *Context) GetMaterialfv(face, pname Enum) []float32 {
	const fn = "GetMaterialfv"
	if !c.need1(fn) {
		return nil
	}
	if face != FRONT && face != BACK {
		c.record(fn, INVALID_ENUM, "face %#x", face)
		return nil
	}
	m := c.st.Lighting.Material
	if c.st.Lighting.ColorMaterial {
		m.Ambient, m.Diffuse = c.st.CurrentColor, c.st.CurrentColor
	}
	switch pname {
	case AMBIENT:
		return m.Ambient[:]
	case DIFFUSE:
		return m.Diffuse[:]
	case SPECULAR:
		return m.Specular[:]
	case EMISSION:
		return m.Emission[:]
	case SHININESS:
		return []float32{m.Shininess}
	}
	c.record(fn, INVALID_ENUM, "pname %#x", pname)
	return nil
}

// Fogf sets a scalar fog parameter.
func (c *Context) Fogf(pname Enum, param float32) {
	c.fog("Fogf", pname, []float32{param})
}

// Fogfv sets a fog parameter (FOG_COLOR takes 4).
func (c *Context) Fogfv(pname Enum, params []float32) {
	c.fog("Fogfv", pname, params)
}

func (c *Context) fog(fn string, pname Enum, p []float32) {
	if !c.need1(fn) {
		return
	}
	if len(p) < 1 {
		c.record(fn, INVALID_VALUE, "no value")
		return
	}
	f := &c.st.Fog
	switch pname {
	case FOG_MODE:
		switch Enum(p[0]) {
		case LINEAR:
			f.Mode = driver.FogLinear
		case EXP:
			f.Mode = driver.FogExp
		case EXP2:
			f.Mode = driver.FogExp2
		default:
			c.record(fn, INVALID_ENUM, "fog mode %v", p[0])
		}
	case FOG_DENSITY:
		if p[0] < 0 {
			c.record(fn, INVALID_VALUE, "density %v < 0", p[0])
			return
		}
		f.Density = p[0]
	case FOG_START:
		f.Start = p[0]
	case FOG_END:
		f.End = p[0]
	case FOG_COLOR:
		if len(p) < 4 {
			c.record(fn, INVALID_VALUE, "FOG_COLOR needs 4 values")
			return
		}
		f.Color = [4]float32{clamp01(p[0]), clamp01(p[1]), clamp01(p[2]), clamp01(p[3])}
	default:
		c.record(fn, INVALID_ENUM, "pname %#x", pname)
	}
}

// ClipPlanef sets a user clip plane; the equation is transformed into eye
// coordinates by the inverse of the current model-view matrix.
func (c *Context) ClipPlanef(plane Enum, equation []float32) {
	const fn = "ClipPlanef"
	if !c.need1(fn) {
		return
	}
	i := int(plane) - int(CLIP_PLANE0)
	if i < 0 || i >= min(c.caps.Limits.MaxClipPlanes, driver.MaxClipPlanes) {
		c.record(fn, INVALID_ENUM, "plane %#x", plane)
		return
	}
	if len(equation) < 4 {
		c.record(fn, INVALID_VALUE, "equation needs 4 values")
		return
	}
	mv := c.modelview[len(c.modelview)-1]
	inv := mv.Inv()
	// p_eye = p_obj * M^-1 (row vector times matrix).
	e := mgl32.Vec4(equation[:4])
	out := inv.Transpose().Mul4x1(e)
	c.st.ClipPlanes[i].Eq = [4]float32(out)
}

// GetClipPlanef returns a clip plane in eye coordinates.
func (c *Context) GetClipPlanef(plane Enum) []float32 {
	const fn = "GetClipPlanef"
	if !c.need1(fn) {
		return nil
	}
	i := int(plane) - int(CLIP_PLANE0)
	if i < 0 || i >= min(c.caps.Limits.MaxClipPlanes, driver.MaxClipPlanes) {
		c.record(fn, INVALID_ENUM, "plane %#x", plane)
		return nil
	}
	eq := c.st.ClipPlanes[i].Eq
	return eq[:]
}
