package r300_test

import (
	"bytes"
	"image"
	"testing"

	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/bench"
	"github.com/retrogl/retrogl/gles"
	sim "github.com/retrogl/retrogl/sim/r300"
)

// TestBenchScenesMatchReference renders two frames of every standard
// benchmark scene (package bench) through the span pipeline and through
// the per-quad reference path: every byte must agree. At 320x240 the
// fill-tex-blend quads read 1.6 texels a pixel along their rows, and
// their rows go through the fused path's margin loop; the texture
// changes between the frames.
func TestBenchScenesMatchReference(t *testing.T) {
	const w, h = 320, 240
	for _, s := range bench.Scenes() {
		for _, vec := range []bool{true, false} {
			if !vec && s.Name != "fill-tex-blend" {
				continue
			}
			name := s.Name
			if !vec {
				// The margin loop's Go passes, not its AVX2 kernel.
				name += "/go"
			}
			t.Run(name, func(t *testing.T) {
				defer sim.SetVec(vec)()
				benchSceneMatchesReference(t, s, w, h)
			})
		}
	}
}

// benchSceneMatchesReference is TestBenchScenesMatchReference for one
// scene.
func benchSceneMatchesReference(t *testing.T, s bench.Scene, w, h int) {
	var frames [2][]byte
	var got *sim.MarginCounts
	for i, ref := range []bool{true, false} {
		ctx, err := gles.NewContext("r300", gles.Config{Width: w, Height: h, DepthBits: 16, Workers: 1})
		require.NoError(t, err)
		d, ok := ctx.Backend().Device().(*sim.Device)
		require.True(t, ok, "the r300 backend runs on the simulated R300")
		sim.SetReference(d, ref)
		counts, stop := sim.CountMargin()
		s.Setup(ctx)
		s.Frame(ctx)
		if s.Name == "fill-tex-blend" {
			// New texels between the frames, the next drawn in
			// the rows the last draw shaded last: its draw must
			// not see the last one's texels.
			tex := bench.Texture()
			for i := range tex {
				if i%4 != 3 {
					tex[i] ^= byte(i / 1024)
				}
			}
			ctx.TexSubImage2D(gles.TEXTURE_2D, 0, 0, 0, 256, 256, gles.RGBA, gles.UNSIGNED_BYTE, tex)
			ctx.Enable(gles.SCISSOR_TEST)
			ctx.Scissor(0, 0, w, 12)
		}
		s.Frame(ctx)
		require.NoError(t, ctx.Err())
		frames[i] = append([]byte(nil), ctx.Image().(*image.NRGBA).Pix...)
		require.NoError(t, ctx.Close())
		stop()
		if !ref {
			got = counts
		}
	}
	if !bytes.Equal(frames[0], frames[1]) {
		for i := range frames[0] {
			if frames[0][i] != frames[1][i] {
				p := i / 4
				t.Fatalf("pixel (%d, %d): span path %v, reference %v", p%w, p/w, frames[1][4*p:4*p+4], frames[0][4*p:4*p+4])
			}
		}
	}
	if s.Name == "fill-tex-blend" {
		// 16 triangles, a run a row each; the texture's alpha
		// is 200, the colours' 0.8.
		require.Greater(t, got.Runs, 8*h, "runs on the margin loop")
		require.Equal(t, got.Runs, got.Alpha, "runs with a constant alpha byte")
		require.Positive(t, got.Exact, "pixels near a threshold")
		t.Logf("%d runs on the margin loop, %d pixels exact", got.Runs, got.Exact)
	}
}
