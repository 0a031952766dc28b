package r300

import (
	"encoding/binary"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
)

// TestInspector pins the draw marks (OpcodeInfo.Draw) and the surfaces,
// from literal PM4 words.
func TestInspector(t *testing.T) {
	ws := []uint32{
		0x000010F9, 0x001DE13F, // SC_SCISSOR1 (0x43E4): 320x240 (inclusive 319, 239)
		0x0000138A, 0x10000000, // RB3D_COLOROFFSET0 (0x4E28)
		0x0000138E, 0x00C00140, // RB3D_COLORPITCH0 (0x4E38): ARGB8888, 320 pixels
		0x000013C4, 0x00000002, // ZB_FORMAT (0x4F10): Z24S8
		0x000013C8, 0x1004B000, // ZB_DEPTHOFFSET (0x4F20)
		0x000013C9, 0x00000140, // ZB_DEPTHPITCH (0x4F24): 320
		0xC0003400, 0x00000004, // 3D_DRAW_VBUF_2, VF_CNTL
		0xC0001000, 0x00000000, // NOP
	}
	buf := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(buf[4*i:], w)
	}
	var marks []hal.DrawMark
	in := NewInspector()
	in.Walk(buf, 0x10100000, func(c hal.Command) bool {
		marks = append(marks, c.Draw)
		return true
	})
	assert.Equal(t, []hal.DrawMark{0, 0, 0, 0, 0, 0, hal.DrawBegin | hal.DrawEnd, 0}, marks)
	ss := in.Surfaces()
	require.Len(t, ss, 3)
	c, z, s := ss[0], ss[1], ss[2]
	assert.Equal(t, [4]any{uint32(0x10000000), 320, 240, "ARGB8888"}, [4]any{c.Addr, c.Width, c.Height, c.Format})
	a, n, _ := c.Pixel(2, 1)
	assert.Equal(t, [2]any{uint32(0x10000000 + 4*322), 4}, [2]any{a, n})
	assert.Equal(t, color.NRGBA{0x34, 0x56, 0x78, 255}, c.Color(0x12345678), "ARGB8888: A in the top byte")
	assert.Equal(t, [3]any{uint32(0x1004B000), "Z24S8", uint32(0xFFFFFF)}, [3]any{z.Addr, z.Format, z.Mask})
	_, _, zs := z.Pixel(0, 0)
	assert.Equal(t, uint(8), zs, "depth in the top 24 bits")
	assert.Equal(t, uint32(0xFF), s.Mask)
}

// TestInspectorIndexBuffer pins that a 3D_DRAW_INDX_2 without inline
// indices and the INDX_BUFFER packet after it are one command (the chip
// runs them as one), and that walking a vertex-program upload through the
// PVS data port decodes it.
func TestInspectorIndexBuffer(t *testing.T) {
	ws := []uint32{
		0x00000880, 0x00000000, // VAP_PVS_VECTOR_INDX_REG: octword 0
		0x00038881, 0x00F00003, 0x00D10000, 0x01248000, 0x01248000, // VAP_PVS_VECTOR_DATA_REG x4 (one_reg)
		0xC0003600, 0x00060014, // 3D_DRAW_INDX_2, VF_CNTL: 6 indices, none inline
		0xC0023300, 0x80000E00, 0x10000000, 0x00000003, // INDX_BUFFER: VAP_PORT_IDX0, address, 3 dwords
		0xC0001000, 0x00000000, // NOP
	}
	buf := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(buf[4*i:], w)
	}
	type cmd struct {
		off, size uint32
		draw      hal.DrawMark
	}
	var got []cmd
	NewInspector().Walk(buf, 0x10100000, func(c hal.Command) bool {
		got = append(got, cmd{c.Offset, c.Size, c.Draw})
		return true
	})
	assert.Equal(t, []cmd{{0, 8, 0}, {8, 20, 0}, {28, 24, hal.DrawBegin | hal.DrawEnd}, {52, 8, 0}}, got)
}
