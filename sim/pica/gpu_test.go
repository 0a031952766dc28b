package pica

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	p "github.com/retrogl/retrogl/hal/pica"
)

// run submits raw words as one buffer of the given size (bytes; 0 means
// the words' size) and waits.
func run(t testing.TB, d *Device, words []uint32, size uint32) error {
	t.Helper()
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	a, err := d.Alloc(uint32(len(b))+16, 16, "fcram")
	require.NoError(t, err)
	require.NoError(t, d.Write(a.Addr, b))
	if size == 0 {
		size = uint32(len(b))
	}
	f, err := d.Submit(hal.Buffer{Addr: a.Addr, Size: size})
	require.NoError(t, err)
	return d.Wait(f)
}

func TestCommandProcessorFacts(t *testing.T) {
	d := New()
	defer d.Close()
	g := d.GPU
	// Facts 1 and 2: consecutive and repeated parameters.
	require.NoError(t, run(t, d, []uint32{0xAAAAAAAA, 0x802F011C, 0xBBBBBBBB, 0xCCCCCCCC, 0x12345678, 0x000F0010, 0, 0}, 0))
	assert.Equal(t, []uint32{0xAAAAAAAA, 0xBBBBBBBB, 0xCCCCCCCC}, []uint32{g.Reg(0x11C), g.Reg(0x11D), g.Reg(0x11E)})
	require.NoError(t, run(t, d, []uint32{1, 0x002F011C, 2, 3, 0x12345678, 0x000F0010, 0, 0}, 0))
	assert.Equal(t, []uint32{3, 0xBBBBBBBB, 0xCCCCCCCC}, []uint32{g.Reg(0x11C), g.Reg(0x11D), g.Reg(0x11E)})
	// Fact 3: byte mask.
	require.NoError(t, run(t, d, []uint32{0, 0x000F0107, 0xFFFFFFFF, 0x00010107, 0x12345678, 0x000F0010, 0, 0}, 0))
	assert.Equal(t, uint32(0x000000FF), g.Reg(0x107))
	// Fact 29: a mask-0x2 write to 0x0E0 keeps the fog mode.
	require.NoError(t, run(t, d, []uint32{5, 0x000F00E0, 0xFFFFFFFF, 0x000200E0, 0x12345678, 0x000F0010, 0, 0}, 0))
	assert.Equal(t, uint32(0x0000FF05), g.Reg(0x0E0))
	// Fact 5: [0x111 = 1][FINALIZE] in 16 bytes completes.
	require.NoError(t, run(t, d, []uint32{1, 0x000F0111, 0x12345678, 0x000F0010}, 0))
	// ... FINALIZE at bytes 16-23 of a 24-byte buffer is not executed: the
	// GPU would hang, the simulator faults.
	err := run(t, d, []uint32{1, 0x000F0111, 1, 0x000F0111, 0x12345678, 0x000F0010}, 24)
	f, ok := hal.AsFault(err)
	require.True(t, ok, "%v", err)
	assert.Contains(t, f.Reason, "without FINALIZE")
	assert.Equal(t, uint32(16), f.Offset)
	// Fact 6: writes after FINALIZE have no effect.
	require.NoError(t, run(t, d, []uint32{0x12345678, 0x000F0010, 0xDEADBEEF, 0x000F0103}, 0))
	assert.NotEqual(t, uint32(0xDEADBEEF), g.Reg(0x103))
	// IDs past 0x2FF fault, naming the word.
	err = run(t, d, []uint32{1, 0x000F0300, 0x12345678, 0x000F0010}, 0)
	f, ok = hal.AsFault(err)
	require.True(t, ok)
	assert.Equal(t, uint64(0x000F030000000001), f.Word)
	assert.Contains(t, f.Reason, "0x300")
	// A command running past the end faults.
	err = run(t, d, []uint32{1, 0x00F00103, 0, 0}, 0)
	f, ok = hal.AsFault(err)
	require.True(t, ok)
	assert.Contains(t, f.Reason, "past the end")
}

func TestUniformUploadFacts(t *testing.T) {
	d := New()
	defer d.Close()
	// Facts 7 and 8: c5 = (1,2,3,4) in f32 mode, consecutive at 0x2C0.
	require.NoError(t, run(t, d, []uint32{0x80000005, 0x804F02C0, 0x40800000, 0x40400000, 0x40000000, 0x3F800000,
		0x12345678, 0x000F0010}, 0))
	assert.Equal(t, vec4{1, 2, 3, 4}, d.GPU.vs.Float[5])
	assert.Equal(t, uint32(0x80000006), d.GPU.Reg(p.VSH_FLOATUNIFORM_INDEX), "index advances by one")
	// f24 mode (guide §6.4 packing): c7 = (1,2,3,4).
	require.NoError(t, run(t, d, []uint32{7, 0x803F02C0, 0x41000040, 0x80004000, 0x003F0000, 0,
		0x12345678, 0x000F0010, 0, 0}, 0))
	assert.Equal(t, vec4{1, 2, 3, 4}, d.GPU.vs.Float[7])
	// VS uploads reach the GS unit while VSH_COM_MODE is 0.
	assert.Equal(t, vec4{1, 2, 3, 4}, d.GPU.gs.Float[7])
	// Fixed attribute (fact 9) and bool uniform (fact 39).
	require.NoError(t, run(t, d, []uint32{2, 0x803F0232, 0x41000040, 0x80004000, 0x003F0000, 0,
		0x7FFF0001, 0x000F02B0, 0x12345678, 0x000F0010, 0, 0}, 0))
	assert.Equal(t, vec4{1, 2, 3, 4}, d.GPU.fixed[2])
	assert.Equal(t, uint16(1), d.GPU.vs.Bool)
}

func TestChaining(t *testing.T) {
	d := NewWithBudget(1 << 16)
	defer d.Close()
	// Buffer B writes 0x103 and finalizes; buffer A jumps to it.
	var bw p.Writer
	bw.Write(p.BLEND_COLOR, 0xCAFEF00D)
	bw.Finalize()
	bb := bw.Bytes()
	ba, err := d.Alloc(uint32(len(bb)), 16, "fcram")
	require.NoError(t, err)
	require.NoError(t, d.Write(ba.Addr, bb))
	var aw p.Writer
	aw.Write(p.CMDBUF_SIZE0, uint32(len(bb))>>3)
	aw.Write(p.CMDBUF_ADDR0, ba.Addr>>3)
	aw.Write(p.CMDBUF_JUMP0, 1)
	aw.Write(p.BLEND_COLOR, 0xBAD) // dropped: execution continued in B
	aw.Finalize()
	require.NoError(t, run(t, d, aw.Words(), 0))
	assert.Equal(t, uint32(0xCAFEF00D), d.GPU.Reg(p.BLEND_COLOR))
	// A buffer that jumps to itself forever hits the watchdog.
	la, err := d.Alloc(64, 16, "fcram")
	require.NoError(t, err)
	var lw p.Writer
	lw.Write(p.CMDBUF_SIZE0, 16>>3)
	lw.Write(p.CMDBUF_ADDR0, (la.Addr+32)>>3)
	lw.Write(p.CMDBUF_JUMP0, 1)
	lw.Align()
	lw.Write(p.CMDBUF_JUMP0, 1)
	lw.Align()
	require.NoError(t, d.Write(la.Addr, lw.Bytes()))
	f, err := d.Submit(hal.Buffer{Addr: la.Addr, Size: 32})
	require.NoError(t, err)
	err = d.Wait(f)
	fl, ok := hal.AsFault(err)
	require.True(t, ok, "%v", err)
	assert.Contains(t, fl.Reason, "watchdog")
}
