package glamo

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
)

func queue(ws ...uint16) []byte {
	b := make([]byte, 2*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint16(b[2*i:], w)
	}
	return b
}

// TestInspector pins the draw boundaries the register table's effects give
// and the surfaces read from literal queue words.
func TestInspector(t *testing.T) {
	buf := queue(
		0xA120, 2, 0x0140, 0x0011, // EGDst0Cfg RGB565, pitch 320 (x2 bytes)
		0xA128, 2, 0x1000, 0x0000, // EGDST0BAS 0x1000
		0xA164, 2, 0x00EF, 0x0000, // EGCLTB bottom 239
		0xA168, 2, 0x013F, 0x0000, // EGCLLR right 319
		0x2058, 0, // EGFIRE: an immediate primitive starts
		0x2058, 0, // EGFIRE: the same primitive
		0x23E0, 0, // EGEND: it ends
		0x203E, 0, // MGBufCMSFire: a whole list
		0, 0, // NOP
	)
	var got []hal.DrawMark
	in := NewInspector()
	in.Walk(buf, 0x4000, func(c hal.Command) bool {
		got = append(got, c.Draw)
		return true
	})
	assert.Equal(t, []hal.DrawMark{0, 0, 0, 0, hal.DrawBegin, 0, hal.DrawEnd, hal.DrawBegin | hal.DrawEnd, 0}, got)
	ss := in.Surfaces()
	require.Len(t, ss, 1)
	c := ss[0]
	assert.Equal(t, [4]any{uint32(0x1000), 320, 240, "RGB565"}, [4]any{c.Addr, c.Width, c.Height, c.Format})
	a, n, _ := c.Pixel(1, 1)
	assert.Equal(t, uint32(0x1000+640+2), a)
	assert.Equal(t, 2, n)
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, rgbaOf(c.Color(0xF800)))
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, rgbaOf(c.Color(0x07E0)))
}

func rgbaOf(c interface{ RGBA() (r, g, b, a uint32) }) [4]uint8 {
	r, g, b, a := c.RGBA()
	return [4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}
