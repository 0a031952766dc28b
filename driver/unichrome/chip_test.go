package unichrome_test

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

// TestChipDifferences pins the UniChrome behaviour behind the differential
// tester's remaining unichrome disagreements with Mesa that are the chip's
// own (docs/differential.md, "The disagreements that remain"): each
// reduced trace under testdata/difftest/unichrome is replayed on unichrome
// and a pixel compared with what the chip gives and what GL (and Mesa)
// give. If a test fails the simulator changed: the doc's explanation must
// change with it.
func TestChipDifferences(t *testing.T) {
	for _, tc := range []struct {
		file      string
		x, y      int // image coordinates, row 0 at the top
		chip, gl  color.NRGBA
		reasoning string
	}{
		// Seed 437 (and the class of 430 and 789): a strip of two
		// colour-array triangles whose positions have w 2, 2, 0.5 and
		// 0.5 under an orthographic projection. GL interpolates colour
		// perspective-correctly, Mesa and r300 give (153, 123, 174); the
		// UniChrome scales only s and t by 1/w (sim/unichrome), so its
		// colour is linear in screen space: green 34 lower, alpha 14
		// higher. The same trace with each position divided by its w
		// (the same window positions, w = 1) passes.
		{"varying-w-colour.trace", 27, 15, color.NRGBA{139, 89, 163, 104}, color.NRGBA{153, 123, 174, 90},
			"screen-space colour interpolation under varying w"},
		// Seed 494, the same class under a texture: a five-vertex fan
		// with w 1, 2, 2, 0.5 and 1.5 whose colour goes through
		// COMBINE SUBTRACT (1 - primary colour) - texture. Mesa and
		// r300 give (12, 0, 59); the screen-linear colour, subtracted
		// and clamped, lands elsewhere. Passes with w = 1.
		{"varying-w-combine.trace", 37, 14, color.NRGBA{0, 37, 97, 168}, color.NRGBA{12, 0, 59, 163},
			"screen-space colour interpolation under varying w, through SUBTRACT"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(gold.Path("difftest", "unichrome", tc.file))
			require.NoError(t, err)
			defer f.Close()
			tr, err := trace.Parse(f)
			require.NoError(t, err)
			ctx, err := gles.NewContext("unichrome", tr.Config())
			require.NoError(t, err)
			defer ctx.Close()
			require.NoError(t, trace.NewPlayer(ctx).Play(tr))
			require.NoError(t, ctx.Err())
			got := color.NRGBAModel.Convert(ctx.Image().At(tc.x, tc.y)).(color.NRGBA)
			assert.Equal(t, tc.chip, got, tc.reasoning)
			assert.NotEqual(t, tc.gl, got, tc.reasoning)
		})
	}
}
