package frame

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/hal"
)

// TestInspectorLinesAreTheListing checks, for every chip and every example
// scene, that an inspector's commands carry exactly the registered
// decoder's lines, cover the buffer without gaps, and that draws exist.
func TestInspectorLinesAreTheListing(t *testing.T) {
	for _, backend := range []string{"pspge", "glamo3365", "pica200", "unichrome", "r300"} {
		for _, s := range scenes.All() {
			t.Run(backend+"/"+s.Name, func(t *testing.T) {
				hdr, subs, err := hal.Submissions(bytes.NewReader(capture(t, backend, s)))
				require.NoError(t, err)
				dec, err := hal.LookupDecoder(hdr.Info.Chip)
				require.NoError(t, err)
				in, err := hal.NewInspector(hdr.Info.Chip)
				require.NoError(t, err)
				draws := 0
				for _, sub := range subs {
					var lines []string
					next := uint32(0)
					in.Walk(sub.Bytes, sub.Buffer.Addr, func(c hal.Command) bool {
						assert.Equal(t, next, c.Offset, "commands are contiguous")
						next = c.Offset + c.Size
						lines = append(lines, c.Lines...)
						if c.Draw&hal.DrawEnd != 0 {
							draws++
						}
						return true
					})
					assert.Equal(t, uint32(len(sub.Bytes)), next, "commands cover the buffer")
					assert.Equal(t, dec(sub.Bytes, sub.Buffer.Addr), lines)
				}
				assert.Positive(t, draws)
			})
		}
	}
}
