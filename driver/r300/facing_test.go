package r300_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/gles"
)

// TestFrontFacingDrawOrder draws, in one DrawArrays, a clockwise (back)
// triangle and then a counter-clockwise (front) one over it, with a
// fragment shader reading gl_FrontFacing and no depth test. GL draws
// primitives in order (ES 2.0 §2.1), so where they overlap the front
// face's colour wins; in the other order the back face's. Each case runs
// with culling off (both faces in one draw) and with each face culled.
func TestFrontFacingDrawOrder(t *testing.T) {
	const w, h = 16, 16
	green := [4]byte{0, 255, 0, 255}
	magenta := [4]byte{255, 0, 255, 255}
	grey := [4]byte{25, 25, 25, 255}
	// Both triangles cover the centre; the back one is listed clockwise.
	back := []float32{-0.9, -0.9, 0, 0.9, 0.9, -0.9}
	front := []float32{-0.9, 0.9, 0, -0.9, 0.9, 0.9}
	cat := func(a, b []float32) []float32 { return append(append([]float32{}, a...), b...) }
	for _, tc := range []struct {
		name  string
		verts []float32
		cull  gles.Enum // 0: culling off
		want  [4]byte
	}{
		{"back then front", cat(back, front), 0, green},
		{"front then back", cat(front, back), 0, magenta},
		{"back culled", cat(back, front), gles.BACK, green},
		{"front culled", cat(front, back), gles.FRONT, magenta},
		{"front culled, back first", cat(back, front), gles.FRONT, magenta},
		{"both culled", cat(back, front), gles.FRONT_AND_BACK, grey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, backend := range []string{"r300", "r300-notcl"} {
				c, err := gles.NewContext(backend, gles.Config{Width: w, Height: h, ES2: true})
				require.NoError(t, err)
				p, log := es2Program(t, c, "attribute vec4 pos;\nvoid main() { gl_Position = pos; }\n",
					"precision mediump float;\nvoid main() { gl_FragColor = gl_FrontFacing ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 1.0, 1.0); }\n")
				require.Equal(t, 1, c.GetProgramiv(p, gles.LINK_STATUS), log)
				c.Disable(gles.DITHER)
				c.ClearColor(0.1, 0.1, 0.1, 1)
				c.Clear(gles.COLOR_BUFFER_BIT)
				if tc.cull != 0 {
					c.Enable(gles.CULL_FACE)
					c.CullFace(tc.cull)
				}
				c.UseProgram(p)
				c.EnableVertexAttribArray(0)
				c.VertexAttribPointer(0, 2, gles.FLOAT, false, 0, tc.verts)
				c.DrawArrays(gles.TRIANGLES, 0, len(tc.verts)/2)
				var px [4]byte
				c.ReadPixels(w/2, h/2, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, px[:])
				require.NoError(t, c.Err(), backend)
				assert.Equal(t, tc.want, px, backend)
				c.Close()
			}
		})
	}
}
