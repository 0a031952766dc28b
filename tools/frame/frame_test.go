package frame

import (
	"bytes"
	"image"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/trace"
)

var allBackends = []string{"glamo3365", "pspge", "pica200", "unichrome", "r300"}

// capture renders a scene on a backend and returns its device capture and
// the colour buffer the context read back at the end.
func capture(t testing.TB, backend string, s scenes.Scene) []byte {
	data, _ := captureImage(t, backend, s.Config, s.Draw)
	return data
}

func captureImage(t testing.TB, backend string, cfg gles.Config, draw func(trace.GL) error) ([]byte, image.Image) {
	t.Helper()
	var buf bytes.Buffer
	cfg.Capture = &buf
	ctx, err := gles.NewContext(backend, cfg)
	require.NoError(t, err)
	require.NoError(t, draw(ctx))
	img := ctx.Image()
	require.NoError(t, ctx.Err())
	require.NoError(t, ctx.Close())
	return buf.Bytes(), img
}

// colourOf returns the colour surface view of a snapshot.
func colourOf(t *testing.T, snap *Snapshot) *SurfaceView {
	t.Helper()
	for i := range snap.Surfaces {
		if s := &snap.Surfaces[i]; s.Kind == hal.SurfaceColor {
			require.NoError(t, s.Err)
			return s
		}
	}
	t.Fatal("no colour buffer")
	return nil
}

// TestAfterMatchesReadBack replays the triangle scene up to each of its
// three draws on every backend: the clear changes every pixel, each
// triangle a part, and the colour buffer after the last draw is the image
// the application read back (in the same orientation; channels widened
// from 16-bit formats may differ by the rounding of the widening).
func TestAfterMatchesReadBack(t *testing.T) {
	for _, b := range allBackends {
		t.Run(b, func(t *testing.T) {
			s := scenes.Triangle()
			data, final := captureImage(t, b, s.Config, s.Draw)
			f, err := Load(data)
			require.NoError(t, err)
			require.Len(t, f.Draws, 3, "a clear and two triangles")
			clear, err := f.After(0)
			require.NoError(t, err)
			c := colourOf(t, clear)
			assert.Equal(t, 320*240, c.ChangedCount, "the clear changes every pixel")
			snap, err := f.After(2)
			require.NoError(t, err)
			c = colourOf(t, snap)
			assert.Positive(t, c.ChangedCount)
			assert.Less(t, c.ChangedCount, 320*240/4)
			require.Equal(t, final.Bounds(), c.Picture.Image.Bounds())
			worst := 0
			for y := 0; y < 240; y++ {
				for x := 0; x < 320; x++ {
					r0, g0, b0, _ := final.At(x, y).RGBA()
					r1, g1, b1, _ := c.Picture.Image.At(x, y).RGBA()
					for _, d := range []int{int(r0>>8) - int(r1>>8), int(g0>>8) - int(g1>>8), int(b0>>8) - int(b1>>8)} {
						worst = max(worst, d, -d)
					}
				}
			}
			assert.LessOrEqual(t, worst, 4, "largest channel difference from the read-back image")
		})
	}
}

// TestHistory checks the pixel history: at a pixel the crossing triangle
// covers in front, the clear and that triangle wrote it, and the value
// after the last write is the final colour; at a pixel a clear wrote twice
// with the same colour, the second clear is found although nothing changed.
func TestHistory(t *testing.T) {
	for _, b := range allBackends {
		t.Run(b, func(t *testing.T) {
			f, err := Load(capture(t, b, scenes.Triangle()))
			require.NoError(t, err)
			snap, err := f.After(2)
			require.NoError(t, err)
			c := colourOf(t, snap)
			px := -1
			for i, ch := range c.Changed {
				if ch {
					px = i
					break
				}
			}
			require.GreaterOrEqual(t, px, 0)
			x, y := px%c.Width, px/c.Width
			h, err := f.History(2, x, y)
			require.NoError(t, err)
			require.NotEmpty(t, h.Writes)
			assert.Equal(t, 0, h.Writes[0].Draw, "the clear")
			last := h.Writes[len(h.Writes)-1]
			assert.Equal(t, 2, last.Draw)
			assert.True(t, last.Changed)
			assert.Equal(t, c.Picture.Values[px], last.Color)
			assert.Equal(t, 3, h.Considered)

			_, err = f.History(2, 5000, 0)
			assert.ErrorContains(t, err, "outside")

			twice := func(gl trace.GL) error {
				gl.Viewport(0, 0, 64, 64)
				gl.ClearColor(0.2, 0.4, 0.6, 1)
				gl.Clear(gles.COLOR_BUFFER_BIT)
				gl.Clear(gles.COLOR_BUFFER_BIT)
				return nil
			}
			data, _ := captureImage(t, b, gles.Config{Width: 64, Height: 64}, twice)
			f, err = Load(data)
			require.NoError(t, err)
			// Two clears, and on pspge the TRXKICK that copies the colour
			// buffer out for the read-back (a transfer is a draw too).
			require.GreaterOrEqual(t, len(f.Draws), 2)
			h, err = f.History(1, 10, 20)
			require.NoError(t, err)
			require.Len(t, h.Writes, 2)
			assert.Equal(t, [2]int{0, 1}, [2]int{h.Writes[0].Draw, h.Writes[1].Draw})
			assert.True(t, h.Writes[0].Changed)
			assert.False(t, h.Writes[1].Changed, "the second clear wrote the value the pixel held")
			assert.Equal(t, h.Writes[0].Color, h.Writes[1].Color)
		})
	}
}
