package r300_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

var (
	numVerts = regexp.MustCompile(`VAP_VF_CNTL PRIM_TYPE=(\w+) .*NUM_VERTICES=(\d+)`)
	indxAddr = regexp.MustCompile(`^\s*0x[0-9a-f]+\s+[0-9a-f]+\s+address 0x([0-9a-f]+)`)
	aosAttr  = regexp.MustCompile(`VTX_AOS_STRIDE0=(\d+)`)
	aosAddr  = regexp.MustCompile(`VTX_AOS_ADDR=0x([0-9a-f]+)`)
)

// windowQuads is the 2x2 quads of the bounding box of each triangle of a
// list of count window-coordinate vertices (x, y the first two floats of
// each stride dwords), grown by a pixel each way and cut to a side x
// side surface: what r300-notcl's estimate charges a triangle.
func windowQuads(t *testing.T, data []byte, stride, count, side int) int64 {
	require.GreaterOrEqual(t, len(data), 4*stride*count, "vertex buffer")
	var sum int64
	for k := 0; k+3 <= count; k += 3 {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for j := k; j < k+3; j++ {
			x := float64(math.Float32frombits(binary.LittleEndian.Uint32(data[4*stride*j:])))
			y := float64(math.Float32frombits(binary.LittleEndian.Uint32(data[4*stride*j+4:])))
			x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
		}
		ix0, ix1 := max(0, int(math.Floor(x0))-1), min(side, int(math.Ceil(x1))+1)
		iy0, iy1 := max(0, int(math.Floor(y0))-1), min(side, int(math.Ceil(y1))+1)
		sum += int64((max(ix0, ix1)-ix0)/2+2) * int64((max(iy0, iy1)-iy0)/2+2)
	}
	return sum
}

// TestSplitSubmissions draws a triangle strip of 400 one-pixel slivers
// across a 2048x2048 surface, each one's bounding box the whole surface:
// about 4.2e8 units of the simulated R300's watchdog work, past its
// budget of 1<<28 per submission. The driver must split it into
// submissions of whole triangles whose estimated work (each triangle the
// whole surface's 1026x1026 quads, plus 16 per vertex) stays under a
// quarter of the budget (on r300-notcl, which sends window coordinates,
// each triangle is charged its own bounding box instead), and, on the PVS path, send the strip's triangles
// as the equivalent list in order (odd triangles' first two vertices
// swapped, so the winding and the last, provoking, vertex are GL's).
func TestSplitSubmissions(t *testing.T) {
	const n = 400
	const share = 1 << 26
	const quads = 1026 * 1026
	var pos []float32
	for i := 0; i < n+2; i++ {
		x := float32(-1)
		if i%2 == 1 {
			x = 1
		}
		pos = append(pos, x, x+float32(i/2)*2/2048)
	}
	idx := make([]uint16, n+2)
	for i := range idx {
		idx[i] = uint16(i)
	}
	for _, backend := range []string{"r300", "r300-notcl"} {
		t.Run(backend, func(t *testing.T) {
			var capture bytes.Buffer
			ctx, err := gles.NewContext(backend, gles.Config{Width: 2048, Height: 2048, Capture: &capture})
			require.NoError(t, err)
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(2, gles.FLOAT, 0, pos)
			ctx.DrawElements(gles.TRIANGLE_STRIP, n+2, gles.UNSIGNED_SHORT, idx)
			ctx.Finish()
			require.NoError(t, ctx.Err())
			require.NoError(t, ctx.Close())

			cr, err := hal.NewCaptureReader(&capture)
			require.NoError(t, err)
			writes := map[uint32][]byte{}
			var got []int
			subs, tris := 0, 0
			for {
				rec, err := cr.Next()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				if rec.Kind == hal.RecWrite {
					writes[rec.Addr] = rec.Data
					continue
				}
				if rec.Kind != hal.RecSubmit {
					continue
				}
				var work int64
				count, stride := 0, 0
				var vbuf []byte
				for _, line := range r3.Listing(writes[rec.Addr], rec.Addr) {
					if m := aosAttr.FindStringSubmatch(line); m != nil {
						stride, _ = strconv.Atoi(m[1])
					}
					if m := aosAddr.FindStringSubmatch(line); m != nil {
						a, _ := strconv.ParseUint(m[1], 16, 32)
						vbuf = writes[uint32(a)]
					}
					if m := numVerts.FindStringSubmatch(line); m != nil {
						require.Equal(t, "TRIANGLES", m[1], "the strip goes as a list")
						count, _ = strconv.Atoi(m[2])
						if backend == "r300-notcl" {
							// Window coordinates: each triangle is
							// charged its own bounding box.
							work += windowQuads(t, vbuf, stride, count, 2048) + int64(count)*16
						} else {
							work += int64(count/3)*quads + int64(count)*16
						}
						tris += count / 3
					}
					if m := indxAddr.FindStringSubmatch(line); m != nil {
						a, _ := strconv.ParseUint(m[1], 16, 32)
						data := writes[uint32(a)]
						require.GreaterOrEqual(t, len(data), 2*count, "index buffer at %#x", a)
						for i := 0; i < count; i++ {
							got = append(got, int(binary.LittleEndian.Uint16(data[2*i:])))
						}
					}
				}
				assert.LessOrEqual(t, work, int64(share), "submission %d's estimated work", subs)
				subs++
			}
			assert.Greater(t, subs, 4, "submissions")
			if backend == "r300-notcl" {
				// swtnl clips the slivers leaving the top edge into more
				// triangles; its vertices come in lists.
				assert.GreaterOrEqual(t, tris, n, "triangles drawn")
				return
			}
			var want []int
			for i := 0; i < n; i++ {
				if i%2 == 0 {
					want = append(want, i, i+1, i+2)
				} else {
					want = append(want, i+1, i, i+2)
				}
			}
			assert.Equal(t, want, got, "the strip's triangles in order")
		})
	}
}

// TestSmallTrianglesOneSubmission draws 3000 one-pixel triangles, and a
// fan of 3000 small ones, on a 2048x2048 surface: charged the whole
// surface each (the estimate before tclQuads and triQuads) they took
// about 47 submissions per draw; charged their own bounding boxes they
// take one, on the PVS path (positions through the matrices) and on
// swtnl's (window coordinates) alike, and draw what the same triangles
// draw in draws of 50.
func TestSmallTrianglesOneSubmission(t *testing.T) {
	const n = 3000
	var tris, fan []float32
	fan = append(fan, 0, 0)
	for i := 0; i < n; i++ {
		x := float32(i%50)/25 - 0.99
		y := float32(i/50)/30 - 0.99
		d := float32(1.0 / 1024)
		tris = append(tris, x, y, x+d, y, x, y+d)
		a := float64(i) * 2 * math.Pi / n
		fan = append(fan, float32(0.5*math.Cos(a)), float32(0.5*math.Sin(a)))
	}
	for _, backend := range []string{"r300", "r300-notcl"} {
		t.Run(backend, func(t *testing.T) {
			render := func(batch int) ([]byte, int) {
				var capture bytes.Buffer
				ctx, err := gles.NewContext(backend, gles.Config{Width: 2048, Height: 2048, Capture: &capture})
				require.NoError(t, err)
				ctx.EnableClientState(gles.VERTEX_ARRAY)
				ctx.VertexPointer(2, gles.FLOAT, 0, tris)
				for i := 0; i < n; i += batch {
					ctx.DrawArrays(gles.TRIANGLES, 3*i, 3*min(batch, n-i))
				}
				ctx.VertexPointer(2, gles.FLOAT, 0, fan)
				ctx.DrawArrays(gles.TRIANGLE_FAN, 0, n+1)
				pix := make([]byte, 2048*2048*4)
				ctx.ReadPixels(0, 0, 2048, 2048, gles.RGBA, gles.UNSIGNED_BYTE, pix)
				require.NoError(t, ctx.Err())
				require.NoError(t, ctx.Close())
				cr, err := hal.NewCaptureReader(&capture)
				require.NoError(t, err)
				subs := 0
				for {
					rec, err := cr.Next()
					if err == io.EOF {
						break
					}
					require.NoError(t, err)
					if rec.Kind == hal.RecSubmit {
						subs++
					}
				}
				return pix, subs
			}
			pix, subs := render(n)
			assert.Equal(t, 1, subs, "submissions")
			want, _ := render(50)
			assert.True(t, bytes.Equal(want, pix), "pixels drawn in one draw and in draws of 50")
			lit := 0
			for i := 0; i < len(pix); i += 4 {
				if pix[i] != 0 {
					lit++
				}
			}
			assert.Greater(t, lit, n, "pixels drawn")
		})
	}
}
