package scenes

import (
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// Fog is a row of coloured crates on a checkered ground, receding into fog,
// drawn three times in bands from top to bottom: LINEAR fog (start 2, end
// 24), EXP (density 0.12) and EXP2 (density 0.09). The ground is made of
// unit tiles, so that fog computed per vertex and fog computed per pixel
// agree closely. The fog colour is the clear colour.
func Fog() Scene {
	return Scene{
		Name:   "fog",
		Config: gles.Config{Width: width, Height: height, DepthBits: 16},
		Needs:  []driver.Feature{driver.FeatureFog},
		Draw:   drawFog,
	}
}

func drawFog(ctx trace.GL) error {
	fogColor := []float32{0.62, 0.66, 0.72, 1}
	ctx.ClearColor(fogColor[0], fogColor[1], fogColor[2], fogColor[3])
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.Enable(gles.CULL_FACE)

	ground := newGrid(-6, 0, 12, 30, func(i, j int) [4]float32 {
		if (i+j)%2 == 0 {
			return [4]float32{0.25, 0.45, 0.2, 1}
		}
		return [4]float32{0.35, 0.6, 0.25, 1}
	})
	shades := [6]float32{0.9, 0.6, 0.75, 0.75, 1, 0.5} // front, back, right, left, top, bottom
	crate := newCube(func(f int) [4]float32 {
		s := shades[f]
		return [4]float32{0.9 * s, 0.45 * s, 0.15 * s, 1}
	})

	ctx.Enable(gles.FOG)
	ctx.Fogfv(gles.FOG_COLOR, fogColor)
	ctx.Hint(gles.FOG_HINT, gles.NICEST)
	bands := []struct {
		mode gles.Enum
		set  func()
		y    int
	}{
		{gles.LINEAR, func() { ctx.Fogf(gles.FOG_START, 2); ctx.Fogf(gles.FOG_END, 24) }, 2 * height / 3},
		{gles.EXP, func() { ctx.Fogf(gles.FOG_DENSITY, 0.12) }, height / 3},
		{gles.EXP2, func() { ctx.Fogf(gles.FOG_DENSITY, 0.09) }, 0},
	}
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	for _, b := range bands {
		ctx.Viewport(0, b.y, width, height/3)
		ctx.Fogf(gles.FOG_MODE, float32(b.mode))
		b.set()
		perspective(ctx, 0.25, 1, 40, 3*float32(width)/height)
		ctx.Translatef(0, -1.2, 0)

		ctx.VertexPointer(3, gles.FLOAT, 0, ground.pos)
		ctx.ColorPointer(4, gles.FLOAT, 0, ground.color)
		ctx.DrawElements(gles.TRIANGLES, len(ground.index), gles.UNSIGNED_SHORT, ground.index)

		// Crates every three units down the row, alternating sides.
		ctx.VertexPointer(3, gles.FLOAT, 0, crate.pos)
		ctx.ColorPointer(4, gles.FLOAT, 0, crate.color)
		for k := 0; k < 9; k++ {
			ctx.PushMatrix()
			side := float32(1.6)
			if k%2 == 1 {
				side = -1.6
			}
			ctx.Translatef(side, 0.5, -3-3*float32(k))
			ctx.Rotatef(20*float32(k), 0, 1, 0)
			ctx.Scalef(0.5, 0.5, 0.5)
			ctx.DrawElements(gles.TRIANGLES, len(crate.index), gles.UNSIGNED_SHORT, crate.index)
			ctx.PopMatrix()
		}
	}
	ctx.Finish()
	return ctx.Err()
}
