package pspge

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
)

func words(ws ...uint32) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// TestInspector pins the draw marks and the surfaces the inspector reads
// from literal command words.
func TestInspector(t *testing.T) {
	buf := words(
		0x9C000000, // FBP offset 0
		0x9D000140, // FBW 320
		0xD2000003, // PSM 8888
		0x9E04B000, // ZBP offset 0x4B000
		0x9F000140, // ZBW 320
		0x1603BD3F, // REGION2 x=319 y=239
		0x1E000001, // TME on
		0xC3000005, // TPSM CLUT8
		0xB8000403, // TSIZE0 8x16
		0xA0012340, // TBP0
		0xA8090010, // TBW0 16, address bits 24-27 = 9
		0x04040003, // PRIM 3 TRIANGLES
		0xEA000000, // TRXKICK
		0x0F000000, // FINISH
		0x0C000000, // END
	)
	var got []hal.DrawMark
	in := &Inspector{}
	in.Walk(buf, 0x08000000, func(c hal.Command) bool {
		got = append(got, c.Draw)
		require.Len(t, c.Lines, 1)
		return true
	})
	both := hal.DrawBegin | hal.DrawEnd
	assert.Equal(t, []hal.DrawMark{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, both, both, 0, 0}, got)

	ss := in.Surfaces()
	require.Len(t, ss, 4)
	c, st, z, tex := ss[0], ss[1], ss[2], ss[3]
	assert.Equal(t, hal.SurfaceColor, c.Kind)
	assert.Equal(t, [4]any{uint32(0x04000000), 320, 240, "8888"}, [4]any{c.Addr, c.Width, c.Height, c.Format})
	a, n, sh := c.Pixel(3, 2)
	assert.Equal(t, [3]any{uint32(0x04000000 + (2*320+3)*4), 4, uint(0)}, [3]any{a, n, sh})
	assert.Equal(t, uint32(0x00FFFFFF), c.Mask)
	assert.Equal(t, uint32(0x563412), c.Value([]byte{0x12, 0x34, 0x56, 0x78}, 0))
	assert.Equal(t, hal.SurfaceStencil, st.Kind)
	assert.Equal(t, uint32(0x78), st.Value([]byte{0x12, 0x34, 0x56, 0x78}, 24))
	assert.Equal(t, hal.SurfaceDepth, z.Kind)
	assert.Equal(t, uint32(0x0404B000), z.Addr)
	assert.Equal(t, hal.SurfaceTexture, tex.Kind)
	assert.Equal(t, [4]any{uint32(0x09012340), 8, 16, "CLUT8"}, [4]any{tex.Addr, tex.Width, tex.Height, tex.Format})

	regs := in.Registers()
	var names []string
	for _, r := range regs {
		names = append(names, r.Text)
	}
	assert.Contains(t, names, "PSM format=8888")
	assert.Contains(t, names, "REGION2 x=319 y=239")
}

// TestInspectorTexture decodes a 2x1 CLUT4 texture through a CLUT loaded by
// CLOAD, as the texture unit reads it.
func TestInspectorTexture(t *testing.T) {
	mem := map[uint32][]byte{
		0x09000000: {0x10},                                        // texels 0 (low nibble) and 1
		0x09001000: {0x1F, 0x00, 0xE0, 0x07, 0, 0, 0, 0, 0, 0, 0}, // 5650 red, green
	}
	read := func(addr uint32, p []byte) error {
		copy(p, mem[addr])
		return nil
	}
	in := &Inspector{}
	in.Walk(words(
		0xB0001000, // CBP
		0xB1090000, // CBPH bits 24-27 = 9
		0xC4000001, // CLOAD one 32-byte block
		0xC500FF00, // CMODE 5650, shift 0, mask 0xFF, start 0
		0x1E000001, 0xC3000004, 0xB8000001, 0xA0000000, 0xA8090010,
	), 0, func(hal.Command) bool { return true })
	ss := in.Surfaces()
	require.NotEmpty(t, ss)
	tex := ss[len(ss)-1]
	require.Equal(t, hal.SurfaceTexture, tex.Kind)
	pic, err := tex.Read(read)
	require.NoError(t, err)
	assert.Equal(t, []uint8{255, 0, 0, 255, 0, 255, 0, 255}, pic.Image.Pix)
}
