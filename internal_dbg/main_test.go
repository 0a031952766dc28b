package dbg

import (
	"testing"
	"image/png"
	"os"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

func TestDbg(t *testing.T) {
	c, err := gles.NewContext("glamo3365", gles.Config{Width: 128, Height: 128, DepthBits: 16})
	if err != nil { t.Fatal(err) }
	c.Viewport(0, 0, 128, 128)
	c.ClearColor(0.2, 0.2, 0.3, 1)
	c.Clear(gles.COLOR_BUFFER_BIT)
	c.MatrixMode(gles.PROJECTION)
	c.Frustumf(-0.1, 0.1, -0.1, 0.1, 0.1, 20)
	c.MatrixMode(gles.MODELVIEW)
	c.Enable(gles.FOG)
	c.Fogfv(gles.FOG_COLOR, []float32{0.8, 0.8, 0.9, 1})
	modes := []gles.Enum{gles.LINEAR, gles.EXP, gles.EXP2}
	for i, m := range modes {
		for h, hint := range []gles.Enum{gles.FASTEST, gles.NICEST} {
			c.Fogf(gles.FOG_MODE, float32(m))
			c.Fogf(gles.FOG_START, 1)
			c.Fogf(gles.FOG_END, 8)
			c.Fogf(gles.FOG_DENSITY, 0.35)
			c.Hint(gles.FOG_HINT, hint)
			c.LoadIdentity()
			x := -0.6 + 0.4*float32(i)+ 0.2*float32(h)
			c.Color4f(0.9, 0.2, 0.1, 1)
			// a quad receding from z=-1 to z=-10
			pos := []float32{x-0.08, -0.5, -1, x+0.08, -0.5, -1, x-0.8, -0.5, -10, x+0.8, -0.5, -10}
			_ = pos
			p2 := []float32{x*1-0.05, -0.3, -1, x+0.05, -0.3, -1, x*10-0.5, -0.3, -10, x*10+0.5, -0.3, -10}
			c.EnableClientState(gles.VERTEX_ARRAY)
			c.VertexPointer(3, gles.FLOAT, 0, p2)
			c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		}
	}
	c.Finish()
	t.Log(c.Err())
	f, _ := os.Create("/tmp/dbg.png")
	png.Encode(f, c.Image())
	f.Close()
}
