package frame

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// recordTrace records a scene's GL calls (on pspge).
func recordTrace(t testing.TB, s scenes.Scene) *trace.Trace {
	t.Helper()
	var buf bytes.Buffer
	ctx, err := gles.NewContext("pspge", s.Config)
	require.NoError(t, err)
	rec := trace.NewRecorder(ctx, &buf, s.Config)
	require.NoError(t, s.Draw(rec))
	require.NoError(t, rec.Close())
	require.NoError(t, ctx.Close())
	tr, err := trace.Parse(&buf)
	require.NoError(t, err)
	return tr
}

// TestFromTrace plays the triangle trace on every backend: each draw gets
// the calls since the previous draw, ending with the GL call that drew it,
// and the last snapshot's colour buffer is what a plain playback of the
// trace reads back.
func TestFromTrace(t *testing.T) {
	tr := recordTrace(t, scenes.Triangle())
	for _, b := range allBackends {
		t.Run(b, func(t *testing.T) {
			f, err := FromTrace(tr, b)
			require.NoError(t, err)
			require.Len(t, f.Draws, 3)
			var last []string
			for _, d := range f.Draws {
				require.NotEmpty(t, d.Calls, "draw %d", d.Index)
				last = append(last, f.Calls[d.Calls[len(d.Calls)-1]].Text)
			}
			assert.Equal(t, "Clear COLOR_BUFFER_BIT|DEPTH_BUFFER_BIT", last[0])
			assert.Equal(t, "DrawArrays TRIANGLES 0 3", last[1])
			assert.Equal(t, "DrawElements TRIANGLES 6 UNSIGNED_SHORT [12 bytes]", last[2])
			assert.Equal(t, 0, f.Draws[0].Calls[0], "the first draw starts at the first call")
			assert.Equal(t, f.Draws[0].Calls[len(f.Draws[0].Calls)-1]+1, f.Draws[1].Calls[0], "calls follow on")

			// A plain playback, captured: the same stored pixels.
			var capBuf bytes.Buffer
			cfg := tr.Config()
			cfg.Capture = &capBuf
			ctx, err := gles.NewContext(b, cfg)
			require.NoError(t, err)
			require.NoError(t, trace.NewPlayer(ctx).Play(tr))
			require.NoError(t, ctx.Close())
			plain, err := Load(capBuf.Bytes())
			require.NoError(t, err)
			want, err := plain.After(len(plain.Draws) - 1)
			require.NoError(t, err)
			got, err := f.After(2)
			require.NoError(t, err)
			assert.Equal(t, colourOf(t, want).Picture.Values, colourOf(t, got).Picture.Values,
				"flushing after every call changes no pixel")
		})
	}
}
