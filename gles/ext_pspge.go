package gles

import (
	"math"

	"github.com/retrogl/retrogl/driver"
)

// Extension entry points for two PSP GE facilities GL ES 1.1 has no word
// for. A backend that provides them lists the extension name in its Caps
// and implements the matching driver methods; elsewhere the calls record
// INVALID_OPERATION.
//
// GL_RETROGL_pspge_bounding_box: BeginBoundingBoxPSP(min, max) and
// EndBoundingBoxPSP bracket draws that the GPU skips when the object-space
// box [min, max], transformed by the current matrices and viewport, cannot
// be visible (the GE's BBOX and BJUMP: the test runs on the GPU, the CPU
// never waits for it). Regions do not nest; Finish inside a region ends it.
//
// GL_RETROGL_pspge_patches: DrawBezierPSP and DrawSplinePSP draw a patch of
// ucount x vcount control points taken from the enabled vertex arrays
// (vertices 0..ucount*vcount-1, u varying fastest), tessellated by the GPU
// into udiv x vdiv steps per segment and drawn as mode (TRIANGLES, LINES or
// POINTS) with the current state.

// Enumerations of GL_RETROGL_pspge_patches: the spline end types (a "close"
// end continues the uniform knots, an "open" one reaches the end control
// point).
const (
	SPLINE_CLOSE_CLOSE_PSP Enum = 0x9F10
	SPLINE_OPEN_CLOSE_PSP  Enum = 0x9F11
	SPLINE_CLOSE_OPEN_PSP  Enum = 0x9F12
	SPLINE_OPEN_OPEN_PSP   Enum = 0x9F13
)

// bboxDriver is what a backend implements for
// GL_RETROGL_pspge_bounding_box.
type bboxDriver interface {
	BeginBoundingBox(st *driver.State, lo, hi [3]float32) error
	EndBoundingBox() error
}

// patchDriver is what a backend implements for GL_RETROGL_pspge_patches.
type patchDriver interface {
	DrawPatch(st *driver.State, dc *driver.DrawCall, spline bool, nu, nv, su, sv, uedge, vedge, prim int) error
}

func finite(vs ...float32) bool {
	for _, v := range vs {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return false
		}
	}
	return true
}

// BeginBoundingBoxPSP opens a conditional region for the box with corners
// (minX, minY, minZ) and (maxX, maxY, maxZ) in object coordinates.
func (c *Context) BeginBoundingBoxPSP(minX, minY, minZ, maxX, maxY, maxZ float32) {
	const fn = "BeginBoundingBoxPSP"
	if !c.alive(fn) {
		return
	}
	bd, ok := c.dc.(bboxDriver)
	if !ok || !c.caps.HasExtension("GL_RETROGL_pspge_bounding_box") {
		c.record(fn, INVALID_OPERATION, "GL_RETROGL_pspge_bounding_box is not supported by %s", c.caps.Name)
		return
	}
	if !finite(minX, minY, minZ, maxX, maxY, maxZ) {
		c.record(fn, INVALID_VALUE, "box corners must be finite")
		return
	}
	if minX > maxX || minY > maxY || minZ > maxZ {
		c.record(fn, INVALID_VALUE, "min (%v, %v, %v) above max (%v, %v, %v)", minX, minY, minZ, maxX, maxY, maxZ)
		return
	}
	if err := bd.BeginBoundingBox(&c.st, [3]float32{minX, minY, minZ}, [3]float32{maxX, maxY, maxZ}); err != nil {
		c.recordErr(fn, err)
	}
}

// EndBoundingBoxPSP closes the region BeginBoundingBoxPSP opened.
func (c *Context) EndBoundingBoxPSP() {
	const fn = "EndBoundingBoxPSP"
	if !c.alive(fn) {
		return
	}
	bd, ok := c.dc.(bboxDriver)
	if !ok || !c.caps.HasExtension("GL_RETROGL_pspge_bounding_box") {
		c.record(fn, INVALID_OPERATION, "GL_RETROGL_pspge_bounding_box is not supported by %s", c.caps.Name)
		return
	}
	if err := bd.EndBoundingBox(); err != nil {
		c.recordErr(fn, err)
	}
}

// DrawBezierPSP draws a Bezier patch: ucount and vcount are 3n+1 (4..253),
// udiv and vdiv 1..127.
func (c *Context) DrawBezierPSP(mode Enum, ucount, vcount, udiv, vdiv int) {
	const fn = "DrawBezierPSP"
	if (ucount-1)%3 != 0 || (vcount-1)%3 != 0 {
		if c.alive(fn) {
			c.record(fn, INVALID_VALUE, "Bezier control counts %dx%d must be 3n+1", ucount, vcount)
		}
		return
	}
	c.drawPatch(fn, false, mode, ucount, vcount, udiv, vdiv, SPLINE_CLOSE_CLOSE_PSP, SPLINE_CLOSE_CLOSE_PSP)
}

// DrawSplinePSP draws a cubic B-spline patch: ucount and vcount 4..255,
// udiv and vdiv 1..127, uedges and vedges one of the SPLINE_*_PSP end
// types.
func (c *Context) DrawSplinePSP(mode Enum, ucount, vcount, udiv, vdiv int, uedges, vedges Enum) {
	c.drawPatch("DrawSplinePSP", true, mode, ucount, vcount, udiv, vdiv, uedges, vedges)
}

func (c *Context) drawPatch(fn string, spline bool, mode Enum, nu, nv, su, sv int, ue, ve Enum) {
	if !c.alive(fn) {
		return
	}
	pd, ok := c.dc.(patchDriver)
	if !ok || !c.caps.HasExtension("GL_RETROGL_pspge_patches") {
		c.record(fn, INVALID_OPERATION, "GL_RETROGL_pspge_patches is not supported by %s", c.caps.Name)
		return
	}
	prim := -1
	switch mode {
	case TRIANGLES:
		prim = 0
	case LINES:
		prim = 1
	case POINTS:
		prim = 2
	}
	if prim < 0 {
		c.record(fn, INVALID_ENUM, "mode %#x (TRIANGLES, LINES or POINTS)", mode)
		return
	}
	edge := func(e Enum) int {
		if e < SPLINE_CLOSE_CLOSE_PSP || e > SPLINE_OPEN_OPEN_PSP {
			return -1
		}
		return int(e - SPLINE_CLOSE_CLOSE_PSP)
	}
	ueCode, veCode := edge(ue), edge(ve)
	if ueCode < 0 || veCode < 0 {
		c.record(fn, INVALID_ENUM, "spline edges %#x, %#x", ue, ve)
		return
	}
	if nu < 4 || nv < 4 || nu > 255 || nv > 255 || su < 1 || sv < 1 || su > 127 || sv > 127 {
		c.record(fn, INVALID_VALUE, "counts %dx%d (4..255), divisions %dx%d (1..127)", nu, nv, su, sv)
		return
	}
	if !c.arrays[arrVertex].enabled {
		c.record(fn, INVALID_OPERATION, "the vertex array is disabled")
		return
	}
	n := nu * nv
	dc := &driver.DrawCall{Prim: driver.PrimTriangles, Count: n, MinIndex: 0, MaxIndex: n - 1}
	var va driver.VertexArrays
	if !c.resolveArray(fn, arrVertex, n-1, &va.Position) || !c.resolveArray(fn, arrColor, n-1, &va.Color) ||
		!c.resolveArray(fn, arrNormal, n-1, &va.Normal) {
		return
	}
	for u := 0; u < c.caps.Limits.MaxTextureUnits && u < driver.MaxTextureUnits; u++ {
		if !c.resolveArray(fn, arrTexCoord0+u, n-1, &va.TexCoord[u]) {
			return
		}
	}
	dc.Arrays = &va
	c.resolveTextures()
	if f, ok := c.missingFeature(dc); !ok {
		c.recordErr(fn, &driver.Unsupported{Backend: c.caps.Name, Feature: f, Why: c.caps.WhyMissing(f)})
		return
	}
	if err := pd.DrawPatch(&c.st, dc, spline, nu, nv, su, sv, ueCode, veCode, prim); err != nil {
		c.recordErr(fn, err)
	}
}
