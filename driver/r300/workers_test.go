package r300_test

import (
	"bytes"
	"fmt"
	"image"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/bench"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
)

// TestStandardScenesWorkers renders every standard benchmark scene
// (package bench) with 1, 2, 3 and 8 shading workers, set through
// gles.Config.Workers (hal.Parallel on the simulated R300): every byte of
// the frame must be the same. 160x120 spans eight of the scheduler's row
// bands.
func TestStandardScenesWorkers(t *testing.T) {
	const w, h = 160, 120
	for _, s := range bench.Scenes() {
		t.Run(s.Name, func(t *testing.T) {
			var want []byte
			for _, n := range []int{1, 2, 3, 8} {
				ctx, err := gles.NewContext("r300", gles.Config{Width: w, Height: h, DepthBits: 16, Workers: n})
				require.NoError(t, err)
				_, ok := ctx.Backend().Device().(hal.Parallel)
				require.True(t, ok, "the simulated R300 takes a worker count")
				s.Setup(ctx)
				s.Frame(ctx)
				s.Frame(ctx)
				require.NoError(t, ctx.Err())
				got := append([]byte(nil), ctx.Image().(*image.NRGBA).Pix...)
				require.NoError(t, ctx.Close())
				if want == nil {
					want = got
					// The frame is drawn: some pixels are not the clear colour.
					drawn := 0
					for i := 0; i < len(want); i += 4 {
						if !bytes.Equal(want[i:i+4], []byte{0, 0, 0, 255}) {
							drawn++
						}
					}
					require.Greater(t, drawn, 100, "the scene draws almost nothing")
					continue
				}
				if !bytes.Equal(want, got) {
					t.Fatalf("%d workers differ from one: %s", n, firstDiffPix(want, got, w))
				}
			}
		})
	}
}

// firstDiffPix names the first pixel where two RGBA images differ.
func firstDiffPix(a, b []byte, w int) string {
	for i := range a {
		if a[i] != b[i] {
			p := i / 4
			return fmt.Sprintf("pixel (%d, %d): %v, then %v", p%w, p/w, a[4*p:4*p+4], b[4*p:4*p+4])
		}
	}
	return "lengths differ"
}
