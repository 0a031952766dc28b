package pspge_test

import (
	"image/color"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
	gold "github.com/retrogl/retrogl/internal/golden"
	"github.com/retrogl/retrogl/trace"
)

// TestChipDifferences pins the GE behaviour behind the differential
// tester's remaining pspge disagreements with Mesa that are the chip's own
// (docs/differential.md, "pspge: what remains"): each reduced trace under
// testdata/difftest/pspge is replayed on pspge and a pixel compared with
// what the GE gives and what GL (and Mesa) give. If a test fails the
// simulator changed: the doc's explanation must change with it.
func TestChipDifferences(t *testing.T) {
	for _, tc := range []struct {
		file      string
		x, y      int // image coordinates, row 0 at the top
		ge, gl    color.NRGBA
		reasoning string
	}{
		// A BYTE texture coordinate of -1 through a texture matrix
		// scaling by 1/1024 is s = -1/1024, -1/64 of a texel of the
		// 16-texel RGBA4444 texture. GL's NEAREST takes texel
		// floor(-1/64) = -1, which REPEAT wraps to texel 15; the GE
		// converts coordinates to 1/16 texel by truncation toward zero
		// (docs/pspge.md, Sampling), which makes -1/64 texel 0: texel 0.
		{"texel-seam.trace", 13, 19, color.NRGBA{153, 119, 238, 255}, color.NRGBA{221, 204, 221, 255},
			"1/16-texel truncation at the REPEAT seam"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(gold.Path("difftest", "pspge", tc.file))
			require.NoError(t, err)
			defer f.Close()
			tr, err := trace.Parse(f)
			require.NoError(t, err)
			ctx, err := gles.NewContext("pspge", tr.Config())
			require.NoError(t, err)
			defer ctx.Close()
			require.NoError(t, trace.NewPlayer(ctx).Play(tr))
			require.NoError(t, ctx.Err())
			got := ctx.Image().At(tc.x, tc.y).(color.NRGBA)
			assert.Equal(t, tc.ge, got, tc.reasoning)
			assert.NotEqual(t, tc.gl, got, tc.reasoning)
		})
	}
}
