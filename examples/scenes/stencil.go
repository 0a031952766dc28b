package scenes

import (
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// Stencil is a planar reflection: a crate floats over a checkered,
// half-transparent floor that mirrors it. The floor is first drawn into the
// stencil buffer only (colour and depth writes off), the mirrored crate is
// drawn where the stencil says floor (with the winding flipped, since the
// mirror turns faces inside out), the floor is blended over it, and the
// crate itself is drawn last.
func Stencil() Scene {
	return Scene{
		Name:   "stencil",
		Config: gles.Config{Width: width, Height: height, DepthBits: 16, StencilBits: 8},
		Needs:  []driver.Feature{driver.FeatureStencil, driver.FeatureBlend, driver.FeatureColorMask},
		Draw:   drawStencil,
	}
}

func drawStencil(ctx trace.GL) error {
	ctx.Viewport(0, 0, width, height)
	ctx.ClearColor(0.08, 0.08, 0.12, 1)
	ctx.ClearStencil(0)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.Enable(gles.CULL_FACE)
	perspective(ctx, 0.5, 1, 30, float32(width)/height)
	ctx.Translatef(0, -0.9, -7)
	ctx.Rotatef(24, 1, 0, 0)
	ctx.Rotatef(-15, 0, 1, 0)

	floor := newGrid(-3, 3, 6, 6, func(i, j int) [4]float32 {
		if (i+j)%2 == 0 {
			return [4]float32{0.85, 0.85, 0.9, 0.55}
		}
		return [4]float32{0.2, 0.3, 0.55, 0.7}
	})
	crate := newCube(func(f int) [4]float32 {
		return [6][4]float32{
			{0.95, 0.3, 0.2, 1}, {0.6, 0.15, 0.1, 1}, {0.95, 0.75, 0.2, 1},
			{0.5, 0.35, 0.1, 1}, {1, 0.9, 0.5, 1}, {0.3, 0.1, 0.05, 1},
		}[f]
	})
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	drawFloor := func() {
		ctx.VertexPointer(3, gles.FLOAT, 0, floor.pos)
		ctx.ColorPointer(4, gles.FLOAT, 0, floor.color)
		ctx.DrawElements(gles.TRIANGLES, len(floor.index), gles.UNSIGNED_SHORT, floor.index)
	}
	drawCrate := func() {
		ctx.PushMatrix()
		ctx.Translatef(0, 1.4, 0)
		ctx.Rotatef(35, 0, 1, 0)
		ctx.Rotatef(20, 1, 0, 1)
		ctx.Scalef(0.8, 0.8, 0.8)
		ctx.VertexPointer(3, gles.FLOAT, 0, crate.pos)
		ctx.ColorPointer(4, gles.FLOAT, 0, crate.color)
		ctx.DrawElements(gles.TRIANGLES, len(crate.index), gles.UNSIGNED_SHORT, crate.index)
		ctx.PopMatrix()
	}

	// 1. Mark the floor's pixels with stencil 1, touching nothing else.
	ctx.Enable(gles.STENCIL_TEST)
	ctx.StencilFunc(gles.ALWAYS, 1, 0xff)
	ctx.StencilOp(gles.KEEP, gles.KEEP, gles.REPLACE)
	ctx.ColorMask(false, false, false, false)
	ctx.DepthMask(false)
	drawFloor()
	ctx.ColorMask(true, true, true, true)
	ctx.DepthMask(true)

	// 2. The reflection, only where the floor is.
	ctx.StencilFunc(gles.EQUAL, 1, 0xff)
	ctx.StencilOp(gles.KEEP, gles.KEEP, gles.KEEP)
	ctx.PushMatrix()
	ctx.Scalef(1, -1, 1)
	ctx.FrontFace(gles.CW)
	drawCrate()
	ctx.FrontFace(gles.CCW)
	ctx.PopMatrix()
	ctx.Disable(gles.STENCIL_TEST)

	// 3. The floor, blended over the reflection.
	ctx.Enable(gles.BLEND)
	ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
	drawFloor()
	ctx.Disable(gles.BLEND)

	// 4. The crate itself.
	drawCrate()
	ctx.Finish()
	return ctx.Err()
}
