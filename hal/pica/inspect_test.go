package pica

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
)

// TestInspector pins the draw marks (RegInfo.Draw) and the surfaces the
// inspector reads, from literal commands.
func TestInspector(t *testing.T) {
	var w Writer
	w.Write(FRAMEBUFFER_DIM, 0x000EF140)    // 320 x 240 (height - 1 in bits 12-21)
	w.Write(COLORBUFFER_FORMAT, 0x00000002) // RGBA8 (format 0 in bits 16-18)
	w.Write(COLORBUFFER_LOC, 0x03000000)    // 0x18000000 >> 3
	w.Write(DEPTHBUFFER_FORMAT, 3)          // D24S8
	w.Write(DEPTHBUFFER_LOC, 0x03009600)
	w.Write(DRAWARRAYS, 1)
	w.Write(DRAWELEMENTS, 0) // a zero write does not draw
	w.Write(DRAWELEMENTS, 1)
	w.Finalize()
	var marks []hal.DrawMark
	in := &Inspector{}
	in.Walk(w.Bytes(), 0x18100000, func(c hal.Command) bool {
		marks = append(marks, c.Draw)
		return true
	})
	both := hal.DrawBegin | hal.DrawEnd
	assert.Equal(t, []hal.DrawMark{0, 0, 0, 0, 0, both, 0, both, 0, 0}, marks)
	ss := in.Surfaces()
	require.Len(t, ss, 3)
	c, z, s := ss[0], ss[1], ss[2]
	assert.Equal(t, [4]any{uint32(0x18000000), 320, 240, "RGBA8"}, [4]any{c.Addr, c.Width, c.Height, c.Format})
	a, n, _ := c.Pixel(9, 1)
	assert.Equal(t, uint32(0x18000000+4*(64+Morton(1, 1))), a, "8x8 tiles")
	assert.Equal(t, 4, n)
	assert.Equal(t, color.NRGBA{0x12, 0x34, 0x56, 255}, c.Color(0x12345678), "RGBA8 is 0xRRGGBBAA")
	assert.Equal(t, [3]any{uint32(0x1804B000), "D24S8", uint32(0xFFFFFF)}, [3]any{z.Addr, z.Format, z.Mask})
	_, _, shift := s.Pixel(0, 0)
	assert.Equal(t, [2]any{uint(24), uint32(0xFF)}, [2]any{shift, s.Mask})
}
