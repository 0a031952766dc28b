package gles

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// MatrixMode selects the matrix stack the matrix calls act on.
func (c *Context) MatrixMode(mode Enum) {
	if !c.need1("MatrixMode") {
		return
	}
	switch mode {
	case MODELVIEW, PROJECTION, TEXTURE:
	case MATRIX_PALETTE_OES:
		if !c.caps.HasExtension("GL_OES_matrix_palette") {
			c.record("MatrixMode", INVALID_ENUM, "MATRIX_PALETTE_OES needs GL_OES_matrix_palette")
			return
		}
	default:
		c.record("MatrixMode", INVALID_ENUM, "mode %#x", mode)
		return
	}
	c.matrixMode = mode
}

// stack returns the current stack and its maximum depth.
func (c *Context) stack() (*[]mgl32.Mat4, int) {
	l := c.caps.Limits
	switch c.matrixMode {
	case PROJECTION:
		return &c.projection, l.MaxProjectionStackDepth
	case TEXTURE:
		return &c.texture[c.activeTex], l.MaxTextureStackDepth
	}
	return &c.modelview, l.MaxModelviewStackDepth
}

// top returns a pointer to the current matrix.
func (c *Context) top() *mgl32.Mat4 {
	if c.matrixMode == MATRIX_PALETTE_OES {
		return &c.st.MatrixPalette.Matrices[c.palette]
	}
	s, _ := c.stack()
	return &(*s)[len(*s)-1]
}

func (c *Context) matrixChanged() {
	c.st.ModelView = c.modelview[len(c.modelview)-1]
	c.st.Projection = c.projection[len(c.projection)-1]
	for i := range c.texture {
		c.st.Units[i].Matrix = c.texture[i][len(c.texture[i])-1]
	}
}

// LoadIdentity replaces the current matrix with the identity.
func (c *Context) LoadIdentity() {
	if !c.need1("LoadIdentity") {
		return
	}
	*c.top() = mgl32.Ident4()
	c.matrixChanged()
}

// LoadMatrixf replaces the current matrix with m, column-major as GL has it.
func (c *Context) LoadMatrixf(m []float32) {
	if !c.need1("LoadMatrixf") {
		return
	}
	if len(m) < 16 {
		c.record("LoadMatrixf", INVALID_VALUE, "%d values, need 16", len(m))
		return
	}
	var mm mgl32.Mat4
	copy(mm[:], m[:16])
	*c.top() = mm
	c.matrixChanged()
}

// MultMatrixf multiplies the current matrix by m (column-major) on the right.
func (c *Context) MultMatrixf(m []float32) {
	if !c.need1("MultMatrixf") {
		return
	}
	if len(m) < 16 {
		c.record("MultMatrixf", INVALID_VALUE, "%d values, need 16", len(m))
		return
	}
	var mm mgl32.Mat4
	copy(mm[:], m[:16])
	c.mult(mm)
}

func (c *Context) mult(m mgl32.Mat4) {
	t := c.top()
	*t = t.Mul4(m)
	c.matrixChanged()
}

// PushMatrix pushes a copy of the current matrix.
func (c *Context) PushMatrix() {
	if !c.need1("PushMatrix") {
		return
	}
	if c.matrixMode == MATRIX_PALETTE_OES {
		c.record("PushMatrix", INVALID_OPERATION, "the matrix palette has no stack")
		return
	}
	s, max := c.stack()
	if len(*s) >= max {
		c.record("PushMatrix", STACK_OVERFLOW, "stack depth %d is the maximum", max)
		return
	}
	*s = append(*s, (*s)[len(*s)-1])
}

// PopMatrix pops the current matrix stack.
func (c *Context) PopMatrix() {
	if !c.need1("PopMatrix") {
		return
	}
	if c.matrixMode == MATRIX_PALETTE_OES {
		c.record("PopMatrix", INVALID_OPERATION, "the matrix palette has no stack")
		return
	}
	s, _ := c.stack()
	if len(*s) <= 1 {
		c.record("PopMatrix", STACK_UNDERFLOW, "stack holds one matrix")
		return
	}
	*s = (*s)[:len(*s)-1]
	c.matrixChanged()
}

// Translatef multiplies the current matrix by a translation.
func (c *Context) Translatef(x, y, z float32) {
	if !c.need1("Translatef") {
		return
	}
	c.mult(mgl32.Translate3D(x, y, z))
}

// Scalef multiplies the current matrix by a scale.
func (c *Context) Scalef(x, y, z float32) {
	if !c.need1("Scalef") {
		return
	}
	c.mult(mgl32.Scale3D(x, y, z))
}

// Rotatef multiplies the current matrix by a rotation of angle degrees about
// (x, y, z), as the GL specification's formula gives it.
func (c *Context) Rotatef(angle, x, y, z float32) {
	if !c.need1("Rotatef") {
		return
	}
	l := float32(math.Sqrt(float64(x*x + y*y + z*z)))
	if l == 0 {
		return
	}
	x, y, z = x/l, y/l, z/l
	rad := float64(angle) * math.Pi / 180
	s, co := float32(math.Sin(rad)), float32(math.Cos(rad))
	ic := 1 - co
	m := mgl32.Mat4{
		x*x*ic + co, y*x*ic + z*s, x*z*ic - y*s, 0,
		x*y*ic - z*s, y*y*ic + co, y*z*ic + x*s, 0,
		x*z*ic + y*s, y*z*ic - x*s, z*z*ic + co, 0,
		0, 0, 0, 1,
	}
	c.mult(m)
}

// Frustumf multiplies the current matrix by a perspective projection.
func (c *Context) Frustumf(left, right, bottom, top, near, far float32) {
	if !c.need1("Frustumf") {
		return
	}
	if near <= 0 || far <= 0 || left == right || bottom == top || near == far {
		c.record("Frustumf", INVALID_VALUE, "l=%v r=%v b=%v t=%v n=%v f=%v", left, right, bottom, top, near, far)
		return
	}
	m := mgl32.Mat4{
		2 * near / (right - left), 0, 0, 0,
		0, 2 * near / (top - bottom), 0, 0,
		(right + left) / (right - left), (top + bottom) / (top - bottom), -(far + near) / (far - near), -1,
		0, 0, -2 * far * near / (far - near), 0,
	}
	c.mult(m)
}

// Orthof multiplies the current matrix by a parallel projection.
func (c *Context) Orthof(left, right, bottom, top, near, far float32) {
	if !c.need1("Orthof") {
		return
	}
	if left == right || bottom == top || near == far {
		c.record("Orthof", INVALID_VALUE, "l=%v r=%v b=%v t=%v n=%v f=%v", left, right, bottom, top, near, far)
		return
	}
	m := mgl32.Mat4{
		2 / (right - left), 0, 0, 0,
		0, 2 / (top - bottom), 0, 0,
		0, 0, -2 / (far - near), 0,
		-(right + left) / (right - left), -(top + bottom) / (top - bottom), -(far + near) / (far - near), 1,
	}
	c.mult(m)
}

// CurrentPaletteMatrixOES selects the palette matrix MATRIX_PALETTE_OES mode
// loads (OES_matrix_palette).
func (c *Context) CurrentPaletteMatrixOES(index int) {
	const fn = "CurrentPaletteMatrixOES"
	if !c.need1(fn) {
		return
	}
	if !c.caps.HasExtension("GL_OES_matrix_palette") {
		c.record(fn, INVALID_OPERATION, "GL_OES_matrix_palette is not supported by %s", c.caps.Name)
		return
	}
	if index < 0 || index >= c.caps.Limits.MaxPaletteMatrices {
		c.record(fn, INVALID_VALUE, "index %d outside 0..%d", index, c.caps.Limits.MaxPaletteMatrices-1)
		return
	}
	c.palette = index
}

// LoadPaletteFromModelViewMatrixOES copies the model-view matrix into the
// current palette matrix.
func (c *Context) LoadPaletteFromModelViewMatrixOES() {
	const fn = "LoadPaletteFromModelViewMatrixOES"
	if !c.need1(fn) {
		return
	}
	if !c.caps.HasExtension("GL_OES_matrix_palette") {
		c.record(fn, INVALID_OPERATION, "GL_OES_matrix_palette is not supported by %s", c.caps.Name)
		return
	}
	c.st.MatrixPalette.Matrices[c.palette] = c.modelview[len(c.modelview)-1]
}

// ModelView returns the current model-view matrix (a Go convenience, the
// same as GetFloatv(MODELVIEW_MATRIX)).
func (c *Context) ModelView() mgl32.Mat4 { return c.modelview[len(c.modelview)-1] }
