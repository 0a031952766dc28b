package unichrome

import (
	"encoding/binary"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
)

// TestInspector pins the draw boundaries (the walker's list start and end)
// and the surfaces, from the literal words of the triangle example's
// first list (testdata/unichrome golden).
func TestInspector(t *testing.T) {
	ws := []uint32{
		0xf210f110, 0x00010000, // HEADER2, TRANSSET ATTR
		0x40000000, 0x41000010, 0x420b0500, // HDBBas 0x10000000, ABGR8888 pitch 1280
		0x1004b000, 0x11000010, 0x12000280, // HZWBBas 0x1004b000, Z16 pitch 640
		0x700000f0, 0x71000140, // clip 320x240
		0xf210f110, 0x00000000, // HEADER2, TRANSSET CMD
		0xec007000, 0xee020000, // Command B, Command A (list start)
		0, 0, 0x3f800000, 0x43a00000, 0, 0x3f800000, 0, 0x43700000, 0x3f800000,
		0xee120300, // Command A (list end)
	}
	buf := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(buf[4*i:], w)
	}
	in := &Inspector{}
	var marks []hal.DrawMark
	in.Walk(buf, 0x40000000, func(c hal.Command) bool {
		marks = append(marks, c.Draw)
		return true
	})
	want := make([]hal.DrawMark, len(ws))
	want[13], want[23] = hal.DrawBegin, hal.DrawEnd
	assert.Equal(t, want, marks)
	ss := in.Surfaces()
	require.Len(t, ss, 2)
	c, z := ss[0], ss[1]
	assert.Equal(t, [4]any{uint32(0x10000000), 320, 240, "ABGR8888"}, [4]any{c.Addr, c.Width, c.Height, c.Format})
	a, n, _ := c.Pixel(2, 1)
	assert.Equal(t, uint32(0x10000000+1280+8), a)
	assert.Equal(t, 4, n)
	assert.Equal(t, color.NRGBA{0x12, 0x34, 0x56, 255}, c.Color(0xFF563412), "ABGR: R in the low byte")
	assert.Equal(t, [4]any{uint32(0x1004b000), "Z16", uint32(0xFFFF)}, [4]any{z.Addr, z.Format, z.Mask})
}
