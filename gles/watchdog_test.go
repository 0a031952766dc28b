package gles_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
)

// sliverGeometry returns n+2 vertices whose strip makes n triangles one
// pixel high across a 2048x2048 surface (each bounding box the whole
// surface, about a million 2x2 quads of the simulated R300's watchdog
// work), and a colour per vertex.
func sliverGeometry(n int) (pos, col []float32) {
	const e = 2.0 / 2048
	for i := 0; i < n+2; i++ {
		x := float32(-1)
		if i%2 == 1 {
			x = 1
		}
		pos = append(pos, x, x+float32(i/2)*e)
		col = append(col, float32(i*37%256)/255, float32(i*91%256)/255, float32(i*53%256)/255, 1)
	}
	return pos, col
}

// fanGeometry returns n+2 vertices whose fan makes n thin wedges from the
// lower left corner to the top edge, counter-clockwise.
func fanGeometry(n int) (pos, col []float32) {
	const e = 2.0 / 2048
	pos = append(pos, -1, -1)
	col = append(col, 1, 1, 1, 1)
	for i := 1; i < n+2; i++ {
		pos = append(pos, 1-float32(i-1)*e, 1)
		col = append(col, float32(i*37%256)/255, float32(i*91%256)/255, float32(i*53%256)/255, 1)
	}
	return pos, col
}

// TestWatchdogSplit: on r300, legal draws queued more pixel work into
// one submission than the simulated device's watchdog budget (a unit per
// 2x2 quad of each primitive's bounding box, 1<<28 per submission), and
// the submission faulted with "watchdog expired". Each case queues more
// than the budget (over 300 primitives whose boxes cover a 2048x2048
// surface) with flat shading and back faces culled; it must draw without
// an error and give the pixels of the same primitives drawn as lists of
// eight, with a Finish after each (strips, fans and loops as GL defines
// their triangles and lines: the provoking vertex and the winding kept).
func TestWatchdogSplit(t *testing.T) {
	const n = 400
	strip := func(n int) (idx []uint16) {
		for i := 0; i < n; i++ {
			if i%2 == 0 {
				idx = append(idx, uint16(i), uint16(i+1), uint16(i+2))
			} else {
				idx = append(idx, uint16(i+1), uint16(i), uint16(i+2))
			}
		}
		return idx
	}
	fan := func(n int) (idx []uint16) {
		for i := 1; i <= n; i++ {
			idx = append(idx, 0, uint16(i), uint16(i+1))
		}
		return idx
	}
	loop := func(n int) (idx []uint16) {
		for i := 0; i+1 < n; i++ {
			idx = append(idx, uint16(i), uint16(i+1))
		}
		return append(idx, uint16(n-1), 0)
	}
	sp, sc := sliverGeometry(n)
	fp, fc := fanGeometry(n)
	cases := []struct {
		name     string
		pos, col []float32
		draw     func(ctx *gles.Context)
		// ref lists the same primitives: mode, vertices per primitive,
		// indices.
		refMode gles.Enum
		per     int
		ref     []uint16
	}{
		{"strip", sp, sc, func(ctx *gles.Context) { ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, n+2) }, gles.TRIANGLES, 3, strip(n)},
		{"fan", fp, fc, func(ctx *gles.Context) { ctx.DrawArrays(gles.TRIANGLE_FAN, 0, n+2) }, gles.TRIANGLES, 3, fan(n)},
		{"indexed-strip", sp, sc, func(ctx *gles.Context) {
			idx := make([]uint16, n+2)
			for i := range idx {
				idx[i] = uint16(i)
			}
			ctx.DrawElements(gles.TRIANGLE_STRIP, n+2, gles.UNSIGNED_SHORT, idx)
		}, gles.TRIANGLES, 3, strip(n)},
		{"line-loop", sp, sc, func(ctx *gles.Context) { ctx.DrawArrays(gles.LINE_LOOP, 0, n+2) }, gles.LINES, 2, loop(n + 2)},
		{"many-draws", sp, sc, func(ctx *gles.Context) {
			idx := strip(n)
			for k := 0; k < n; k++ {
				ctx.DrawElements(gles.TRIANGLES, 3, gles.UNSIGNED_SHORT, idx[3*k:3*k+3])
			}
		}, gles.TRIANGLES, 3, strip(n)},
	}
	render := func(t *testing.T, backend string, pos, col []float32, draw func(ctx *gles.Context)) []byte {
		ctx, err := gles.NewContext(backend, gles.Config{Width: 2048, Height: 2048})
		require.NoError(t, err)
		defer ctx.Close()
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.ShadeModel(gles.FLAT)
		ctx.Enable(gles.CULL_FACE)
		ctx.CullFace(gles.BACK)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, pos)
		ctx.EnableClientState(gles.COLOR_ARRAY)
		ctx.ColorPointer(4, gles.FLOAT, 0, col)
		draw(ctx)
		px := make([]byte, 2048*2048*4)
		ctx.ReadPixels(0, 0, 2048, 2048, gles.RGBA, gles.UNSIGNED_BYTE, px)
		require.NoError(t, ctx.Err())
		return px
	}
	for _, backend := range []string{"r300", "r300-notcl"} {
		for _, tc := range cases {
			t.Run(backend+"/"+tc.name, func(t *testing.T) {
				got := render(t, backend, tc.pos, tc.col, tc.draw)
				want := render(t, backend, tc.pos, tc.col, func(ctx *gles.Context) {
					step := 8 * tc.per
					for k := 0; k < len(tc.ref); k += step {
						part := tc.ref[k:min(len(tc.ref), k+step)]
						ctx.DrawElements(tc.refMode, len(part), gles.UNSIGNED_SHORT, part)
						ctx.Finish()
					}
				})
				lit := 0
				for i := 0; i < len(want); i += 4 {
					if want[i] != 0 || want[i+1] != 0 || want[i+2] != 0 {
						lit++
					}
				}
				// Every primitive drew a band of pixels.
				assert.Greater(t, lit, n*512, "lit pixels of the reference")
				if !assert.True(t, string(got) == string(want), "pixels differ from the flushed reference") {
					for i := 0; i < len(want); i += 4 {
						if string(got[i:i+4]) != string(want[i:i+4]) {
							t.Logf("first difference at (%d, %d): got %v, want %v", i/4%2048, i/4/2048, got[i:i+4], want[i:i+4])
							break
						}
					}
				}
			})
		}
	}
}

// TestWatchdogSplitES2 is TestWatchdogSplit's strip through the ES 2.0
// draw paths (the PVS on r300, the CPU's vertex shader on r300-notcl),
// back faces culled.
func TestWatchdogSplitES2(t *testing.T) {
	const n = 400
	pos, col := sliverGeometry(n)
	var list []uint16
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			list = append(list, uint16(i), uint16(i+1), uint16(i+2))
		} else {
			list = append(list, uint16(i+1), uint16(i), uint16(i+2))
		}
	}
	const vs = "attribute vec4 pos;\nattribute vec4 col;\nvarying vec4 c;\nvoid main() { gl_Position = pos; c = col; }\n"
	const fs = "precision mediump float;\nvarying vec4 c;\nvoid main() { gl_FragColor = c; }\n"
	render := func(t *testing.T, backend string, draw func(ctx *gles.Context)) []byte {
		ctx, err := gles.NewContext(backend, gles.Config{Width: 2048, Height: 2048, ES2: true})
		require.NoError(t, err)
		defer ctx.Close()
		p := ctx.CreateProgram()
		for _, s := range []struct {
			typ gles.Enum
			src string
		}{{gles.VERTEX_SHADER, vs}, {gles.FRAGMENT_SHADER, fs}} {
			sh := ctx.CreateShader(s.typ)
			ctx.ShaderSource(sh, s.src)
			ctx.CompileShader(sh)
			ctx.AttachShader(p, sh)
		}
		ctx.BindAttribLocation(p, 0, "pos")
		ctx.BindAttribLocation(p, 1, "col")
		ctx.LinkProgram(p)
		require.Equal(t, 1, ctx.GetProgramiv(p, gles.LINK_STATUS), ctx.GetProgramInfoLog(p))
		ctx.UseProgram(p)
		ctx.ClearColor(0, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.Enable(gles.CULL_FACE)
		ctx.CullFace(gles.BACK)
		ctx.EnableVertexAttribArray(0)
		ctx.VertexAttribPointer(0, 2, gles.FLOAT, false, 0, pos)
		ctx.EnableVertexAttribArray(1)
		ctx.VertexAttribPointer(1, 4, gles.FLOAT, false, 0, col)
		draw(ctx)
		px := make([]byte, 2048*2048*4)
		ctx.ReadPixels(0, 0, 2048, 2048, gles.RGBA, gles.UNSIGNED_BYTE, px)
		require.NoError(t, ctx.Err())
		return px
	}
	for _, backend := range []string{"r300", "r300-notcl"} {
		t.Run(backend, func(t *testing.T) {
			got := render(t, backend, func(ctx *gles.Context) { ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, n+2) })
			want := render(t, backend, func(ctx *gles.Context) {
				for k := 0; k < len(list); k += 24 {
					part := list[k:min(len(list), k+24)]
					ctx.DrawElements(gles.TRIANGLES, len(part), gles.UNSIGNED_SHORT, part)
					ctx.Finish()
				}
			})
			lit := 0
			for i := 0; i < len(want); i += 4 {
				if want[i] != 0 || want[i+1] != 0 || want[i+2] != 0 {
					lit++
				}
			}
			assert.Greater(t, lit, n*512, "lit pixels of the reference")
			assert.True(t, string(got) == string(want), "pixels differ from the flushed reference")
		})
	}
}
