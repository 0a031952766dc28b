package difftest

import (
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	gold "github.com/retrogl/retrogl/internal/golden"
	"github.com/retrogl/retrogl/trace"
)

// TestChipDifferences pins the chip behaviour behind the differential
// tester's remaining disagreements with Mesa that are the chip's own
// (docs/differential.md, "The disagreements that remain"; pspge's section):
// each reduced trace under testdata/difftest/<backend> is replayed on its
// backend (RenderBackend) and a pixel compared with what the chip gives and
// what GL (and Mesa) give. If a case fails the simulator changed: the
// doc's explanation must change with it.
func TestChipDifferences(t *testing.T) {
	for _, tc := range []struct {
		backend, file string
		x, y          int // image coordinates, row 0 at the top
		chip, gl      color.NRGBA
		reasoning     string
	}{
		// Seed 362: a point of colour (218, 115, 46) drawn with
		// LogicOp(XOR) over the clear colour (27, 239, 246). GL XORs the
		// 8-bit values: (193, 156, 216). The Glamo keeps RGB565 and
		// dithers both the clear and the fragment before the logic op
		// works on the stored bits: at this pixel red 27 ^ 4 = 31 (255),
		// green 29 ^ 60 = 33 (134), blue 6 ^ 30 = 24 (198), each 5- or
		// 6-bit result widened by bit replication. A dither step of one
		// in the destination (red 3 = 00011 against 4 = 00100) flips
		// three bits, so the error is no longer one step.
		{"glamo3365", "logic-op-dither.trace", 16, 15, color.NRGBA{255, 134, 198, 255}, color.NRGBA{193, 156, 216, 255},
			"XOR on dithered RGB565 bits"},
		// Seed 487, the same with LogicOp(EQUIV) over flat-shaded
		// triangles: the fragment (131, 215, 79) over the clear
		// (5, 96, 117). GL gives ~(s ^ d) = (121, 72, 197); the Glamo
		// gives red ~(16 ^ 0) = 15 (123), green ~(53 ^ 23) = 29 (117),
		// blue ~(9 ^ 14) = 24 (198). Green's destination dithers to 23
		// (010111) or 24 (011000): four bits apart, 117 against 73.
		{"glamo3365", "logic-op-equiv-dither.trace", 42, 18, color.NRGBA{123, 117, 198, 255}, color.NRGBA{121, 72, 197, 255},
			"EQUIV on dithered RGB565 bits"},
		// Seed 437 (and the class of 430 and 789): a strip of two
		// colour-array triangles whose positions have w 2, 2, 0.5 and
		// 0.5 under an orthographic projection. GL interpolates colour
		// perspective-correctly, Mesa and r300 give (153, 123, 174); the
		// Glamo sets its colour planes up over window x and y, linear in
		// screen space, and gives green 34 lower. The same trace with
		// each position divided by its w (the same window positions,
		// w = 1) passes.
		{"glamo3365", "varying-w-colour.trace", 27, 15, color.NRGBA{140, 89, 165, 255}, color.NRGBA{153, 123, 174, 255},
			"screen-space colour interpolation under varying w"},
		// Seed 494, the same class under a texture: a five-vertex fan
		// with w 1, 2, 2, 0.5 and 1.5 whose colour goes through
		// COMBINE SUBTRACT (1 - primary colour) - texture. Mesa and
		// r300 give (12, 0, 59); the screen-linear colour, subtracted
		// and clamped, lands elsewhere. Passes with w = 1.
		{"glamo3365", "varying-w-combine.trace", 37, 14, color.NRGBA{0, 36, 99, 255}, color.NRGBA{12, 0, 59, 255},
			"screen-space colour interpolation under varying w, through SUBTRACT"},
		// Seed 437 (and the class of 430 and 789): a strip of two
		// colour-array triangles whose positions have w 2, 2, 0.5 and
		// 0.5 under an orthographic projection. GL interpolates colour
		// perspective-correctly, Mesa and r300 give (153, 123, 174); the
		// UniChrome scales only s and t by 1/w (sim/unichrome), so its
		// colour is linear in screen space: green 34 lower, alpha 14
		// higher. The same trace with each position divided by its w
		// (the same window positions, w = 1) passes.
		{"unichrome", "varying-w-colour.trace", 27, 15, color.NRGBA{139, 89, 163, 104}, color.NRGBA{153, 123, 174, 90},
			"screen-space colour interpolation under varying w"},
		// Seed 494, the same class under a texture: a five-vertex fan
		// with w 1, 2, 2, 0.5 and 1.5 whose colour goes through
		// COMBINE SUBTRACT (1 - primary colour) - texture. Mesa and
		// r300 give (12, 0, 59); the screen-linear colour, subtracted
		// and clamped, lands elsewhere. Passes with w = 1.
		{"unichrome", "varying-w-combine.trace", 37, 14, color.NRGBA{0, 37, 97, 168}, color.NRGBA{12, 0, 59, 163},
			"screen-space colour interpolation under varying w, through SUBTRACT"},
		// A BYTE texture coordinate of -1 through a texture matrix
		// scaling by 1/1024 is s = -1/1024, -1/64 of a texel of the
		// 16-texel RGBA4444 texture. GL's NEAREST takes texel
		// floor(-1/64) = -1, which REPEAT wraps to texel 15; the GE
		// converts coordinates to 1/16 texel by truncation toward zero
		// (docs/pspge.md, Sampling), which makes -1/64 texel 0: texel 0.
		{"pspge", "texel-seam.trace", 13, 19, color.NRGBA{153, 119, 238, 255}, color.NRGBA{221, 204, 221, 255},
			"1/16-texel truncation at the REPEAT seam"},
	} {
		t.Run(filepath.Join(tc.backend, tc.file), func(t *testing.T) {
			f, err := os.Open(gold.Path("difftest", tc.backend, tc.file))
			require.NoError(t, err)
			defer f.Close()
			tr, err := trace.Parse(f)
			require.NoError(t, err)
			img, err := RenderBackend(tc.backend, tr)
			require.NoError(t, err)
			got := color.NRGBAModel.Convert(img.At(tc.x, tc.y)).(color.NRGBA)
			assert.Equal(t, tc.chip, got, tc.reasoning)
			assert.NotEqual(t, tc.gl, got, tc.reasoning)
		})
	}
}
