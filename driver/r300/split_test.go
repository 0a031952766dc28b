package r300_test

import (
	"bytes"
	"encoding/binary"
	"io"
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
)

// TestSplitSubmissions draws a triangle strip of 400 one-pixel slivers
// across a 2048x2048 surface, each one's bounding box the whole surface:
// about 4.2e8 units of the simulated R300's watchdog work, past its
// budget of 1<<28 per submission. The driver must split it into
// submissions of whole triangles whose estimated work (each triangle the
// whole surface's 1026x1026 quads, plus 16 per vertex) stays under a
// quarter of the budget, and, on the PVS path, send the strip's triangles
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
				count := 0
				for _, line := range r3.Listing(writes[rec.Addr], rec.Addr) {
					if m := numVerts.FindStringSubmatch(line); m != nil {
						require.Equal(t, "TRIANGLES", m[1], "the strip goes as a list")
						count, _ = strconv.Atoi(m[2])
						work += int64(count/3)*quads + int64(count)*16
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
