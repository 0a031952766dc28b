package scenes

import (
	"fmt"
	"math"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// gearAngles are the rotations (degrees) of the big gear in the frames the
// gears example draws; the small gears turn twice as fast the other way.
var gearAngles = []float32{0, 6, 12}

// Gears returns the frames of the classic three lit gears, one scene per
// angle in gearAngles. Each gear's flat faces and tooth flanks use flat
// shading (GL takes the colour of each triangle's last vertex), its hub bore
// smooth shading; the arrays are built once per frame and drawn with
// DrawArrays, as an ES 1.1 program without display lists does.
func Gears() []Scene {
	var out []Scene
	for i, a := range gearAngles {
		angle := a
		out = append(out, Scene{
			Name:    fmt.Sprintf("gears-%d", i),
			Example: "gears",
			Config:  gles.Config{Width: width, Height: height, DepthBits: 16},
			Needs:   []driver.Feature{driver.FeatureLighting},
			Draw:    func(ctx trace.GL) error { return drawGears(ctx, angle) },
		})
	}
	return out
}

// gear holds one gear's triangle strips, in the gear's own frame (axis +z,
// centred at the origin).
type gear struct {
	front, back []float32 // faces: strips of position pairs (bore, rim)
	flank       []float32 // outline strip: (z+, z-) position pairs
	flankNormal []float32 // one normal per flank vertex
	bore        []float32 // hub cylinder strip
	boreNormal  []float32
}

// newGear builds a gear with the given bore radius, pitch radius, width,
// tooth count and tooth depth. Each tooth is four outline points: the root
// where it starts, two tip points, and the root where it ends; the outline
// goes counter-clockwise seen from +z.
func newGear(bore, pitch, width float32, teeth int, depth float32) gear {
	root, tip := float64(pitch-depth/2), float64(pitch+depth/2)
	step := 2 * math.Pi / float64(teeth) / 4
	type pt struct{ x, y, a float64 }
	var outline []pt
	for i := 0; i < teeth; i++ {
		a := float64(i) * 4 * step
		for k, r := range []float64{root, tip, tip, root} {
			ang := a + float64(k)*step
			outline = append(outline, pt{r * math.Cos(ang), r * math.Sin(ang), ang})
		}
	}
	outline = append(outline, outline[0]) // close the loop
	z := width / 2
	var g gear
	for i, p := range outline {
		bx, by := float32(float64(bore)*math.Cos(p.a)), float32(float64(bore)*math.Sin(p.a))
		g.front = append(g.front, bx, by, z, float32(p.x), float32(p.y), z)
		g.back = append(g.back, float32(p.x), float32(p.y), -z, bx, by, -z)
		// The flank pair at point i carries the outward normal of the
		// segment that ends at it: with flat shading the quad from i-1
		// to i takes that normal from its last vertex.
		prev := outline[(i+len(outline)-2)%(len(outline)-1)]
		dx, dy := p.x-prev.x, p.y-prev.y
		n := math.Hypot(dx, dy)
		nx, ny := float32(dy/n), float32(-dx/n)
		g.flank = append(g.flank, float32(p.x), float32(p.y), z, float32(p.x), float32(p.y), -z)
		g.flankNormal = append(g.flankNormal, nx, ny, 0, nx, ny, 0)
		// The bore faces inwards, with smooth normals.
		cx, cy := float32(math.Cos(p.a)), float32(math.Sin(p.a))
		g.bore = append(g.bore, bx, by, -z, bx, by, z)
		g.boreNormal = append(g.boreNormal, -cx, -cy, 0, -cx, -cy, 0)
	}
	return g
}

// draw draws the gear with the current modelview and material.
func (g *gear) draw(ctx trace.GL) {
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.ShadeModel(gles.FLAT)

	// Front and back faces: one normal for the whole face, given as the
	// current normal with the normal array off.
	ctx.DisableClientState(gles.NORMAL_ARRAY)
	ctx.Normal3f(0, 0, 1)
	ctx.VertexPointer(3, gles.FLOAT, 0, g.front)
	ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, len(g.front)/3)
	ctx.Normal3f(0, 0, -1)
	ctx.VertexPointer(3, gles.FLOAT, 0, g.back)
	ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, len(g.back)/3)

	// Tooth flanks and tips: flat-shaded quads around the outline.
	ctx.EnableClientState(gles.NORMAL_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, g.flank)
	ctx.NormalPointer(gles.FLOAT, 0, g.flankNormal)
	ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, len(g.flank)/3)

	// The bore: a smooth cylinder.
	ctx.ShadeModel(gles.SMOOTH)
	ctx.VertexPointer(3, gles.FLOAT, 0, g.bore)
	ctx.NormalPointer(gles.FLOAT, 0, g.boreNormal)
	ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, len(g.bore)/3)
}

func drawGears(ctx trace.GL, angle float32) error {
	ctx.Viewport(0, 0, width, height)
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	ctx.Enable(gles.DEPTH_TEST)
	perspective(ctx, 1, 5, 60, float32(width)/height)

	ctx.Enable(gles.LIGHTING)
	ctx.Enable(gles.LIGHT0)
	ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{5, 5, 10, 0})
	// Normals stay unit length: the modelview only rotates and translates.

	big := newGear(1, 4, 1, 20, 0.7)
	small := newGear(0.5, 2, 2, 10, 0.7)
	thin := newGear(1.3, 2, 0.5, 10, 0.7)
	gears := []struct {
		g       *gear
		x, y    float32
		turn    float32
		diffuse []float32
	}{
		{&big, -3, -2, angle, []float32{0.8, 0.1, 0, 1}},
		{&small, 3.1, -2, -2*angle - 9, []float32{0, 0.8, 0.2, 1}},
		{&thin, -3.1, 4.2, -2*angle - 25, []float32{0.2, 0.2, 1, 1}},
	}

	ctx.Translatef(0, 0, -40)
	ctx.Rotatef(20, 1, 0, 0)
	ctx.Rotatef(30, 0, 1, 0)
	for _, g := range gears {
		ctx.PushMatrix()
		ctx.Translatef(g.x, g.y, 0)
		ctx.Rotatef(g.turn, 0, 0, 1)
		ctx.Materialfv(gles.FRONT_AND_BACK, gles.AMBIENT_AND_DIFFUSE, g.diffuse)
		g.g.draw(ctx)
		ctx.PopMatrix()
	}
	ctx.Finish()
	return ctx.Err()
}
