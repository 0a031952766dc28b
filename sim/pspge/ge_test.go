package pspge

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	ge "github.com/retrogl/retrogl/hal/pspge"
)

// listAddr is where the tests put their display lists; vertex data goes at
// vtxAddr, the 8888 framebuffer at VRAM offset 0 (stride 512) and the depth
// buffer at VRAM offset 0x88000, as pspsdk's samples do.
const (
	listAddr = RAMBase
	vtxAddr  = RAMBase + 0x10000
	zbOff    = 0x88000
)

func words(ws ...uint32) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// run writes a list at addr and executes it to completion.
func run(t *testing.T, d *Device, addr uint32, ws ...uint32) error {
	t.Helper()
	b := words(ws...)
	require.NoError(t, d.Write(addr, b))
	f, err := d.Submit(hal.Buffer{Addr: addr, Size: uint32(len(b))})
	require.NoError(t, err)
	return d.Wait(f)
}

// setup is the state every drawing test starts from: 480x272 8888 target,
// full scissor and region, drawing offset 0 (through mode ignores it).
func setup() []uint32 {
	return []uint32{
		ge.Word(ge.FBP, 0), ge.Word(ge.FBW, 512), ge.Word(ge.PSM, 3),
		ge.Word(ge.ZBP, zbOff), ge.Word(ge.ZBW, 512),
		ge.Word(ge.SCISSOR1, 0), 0xD5043DDF, ge.Word(ge.REGION2, 479|271<<10),
		ge.Word(ge.NEARZ, 0), ge.Word(ge.FARZ, 0xFFFF),
	}
}

// alphaVia returns the words that make draws store alpha a: the GE keeps
// the stencil in the framebuffer's alpha bits and never stores a fragment's
// alpha (pspautotests gpu/dither.expected: an alpha-255 fan leaves alpha 0
// in an 8888 buffer with the stencil test off), so a constant alpha is
// written with the stencil test ALWAYS and zpass REPLACE.
func alphaVia(a uint8) []uint32 {
	return []uint32{ge.Word(ge.STE, 1), ge.Word(ge.STST, 1|uint32(a)<<8|0xFF<<16), ge.Word(ge.SOP, 2<<16)}
}

// sprite returns the words that draw a through-mode sprite (8888 colour,
// s16 position) from vertices written at vtxAddr.
func sprite(t *testing.T, d *Device, x0, y0, x1, y1 int16, z uint16, col uint32) []uint32 {
	t.Helper()
	v := make([]byte, 24)
	for i, p := range [][2]int16{{x0, y0}, {x1, y1}} {
		binary.LittleEndian.PutUint32(v[12*i:], col)
		binary.LittleEndian.PutUint16(v[12*i+4:], uint16(p[0]))
		binary.LittleEndian.PutUint16(v[12*i+6:], uint16(p[1]))
		binary.LittleEndian.PutUint16(v[12*i+8:], z)
	}
	require.NoError(t, d.Write(vtxAddr, v))
	base, low := ge.Addr(vtxAddr)
	return []uint32{ge.VType{Color: ge.Color8888, Pos: ge.Fmt16, Through: true}.Word(), base, ge.Word(ge.VADDR, low), 0x04060002}
}

func pixel(t *testing.T, d *Device, x, y int) uint32 {
	t.Helper()
	var b [4]byte
	require.NoError(t, d.Read(VRAMBase+uint32((y*512+x)*4), b[:]))
	return binary.LittleEndian.Uint32(b[:])
}

func depth(t *testing.T, d *Device, x, y int) uint16 {
	t.Helper()
	var b [2]byte
	require.NoError(t, d.Read(VRAMBase+zbOff+uint32((y*512+x)*2), b[:]))
	return binary.LittleEndian.Uint16(b[:])
}

func finish(arg uint32) []uint32 { return []uint32{ge.Word(ge.FINISH, arg), ge.Word(ge.END, 0)} }

func cat(parts ...[]uint32) []uint32 {
	var out []uint32
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestListFacts(t *testing.T) {
	d := New()
	defer d.Close()
	// Fact 7: BASE 0x10080000, JUMP 0x08000103 lands on 0x08000100.
	require.NoError(t, d.Write(RAMBase+0x100, words(finish(7)...)))
	require.NoError(t, run(t, d, listAddr, 0x10080000, 0x08000103))
	assert.Equal(t, []uint16{7}, d.GE.Finishes)

	// Fact 8: ORIGIN at A sets OFFSET = A; JUMP 0x10 with BASE 0 goes to A+0x10.
	const a = RAMBase + 0x1000
	require.NoError(t, d.Write(a+0x10, words(finish(8)...)))
	require.NoError(t, run(t, d, a, ge.Word(ge.ORIGIN, 0), ge.Word(ge.BASE, 0), ge.Word(ge.JUMP, 0x10)))
	assert.Equal(t, []uint16{7, 8}, d.GE.Finishes)

	// Fact 9: CALL pushes PC+4; RET restores OFFSET from CALL time, not BASE.
	const sub = RAMBase + 0x2000
	require.NoError(t, d.Write(sub, words(ge.Word(ge.OFFSETADDR, 0x55), 0x10030000, ge.Word(ge.RET, 0))))
	base, low := ge.Addr(sub)
	require.NoError(t, run(t, d, listAddr, ge.Word(ge.OFFSETADDR, 0), base, ge.Word(ge.CALL, low), ge.Word(ge.FINISH, 9), ge.Word(ge.END, 0)))
	assert.Equal(t, uint32(0), d.GE.offset, "OFFSET restored")
	assert.Equal(t, uint32(0x03000000), d.GE.base, "BASE not restored")
	assert.Equal(t, uint16(9), d.GE.Finishes[2], "returned to the word after CALL")

	// Fact 10: FINISH without END does not stop the list.
	require.NoError(t, run(t, d, listAddr, 0x10000000, ge.Word(ge.FINISH, 1), ge.Word(ge.NOP, 0), ge.Word(ge.FINISH, 0x1234), ge.Word(ge.END, 0)))
	assert.Equal(t, uint16(0x1234), d.GE.Finishes[3])
}

func TestMatrixUploadFacts(t *testing.T) {
	d := New()
	defer d.Close()
	ws := []uint32{ge.Word(ge.WMS, 0)}
	for i := 0; i < 13; i++ {
		ws = append(ws, ge.WordF(ge.WORLD, float32(i+1)))
	}
	ws = append(ws, ge.Word(ge.BOFS, 12*3))
	for i := 0; i < 12; i++ {
		ws = append(ws, ge.WordF(ge.BONE, float32(100+i)))
	}
	require.NoError(t, run(t, d, listAddr, cat(ws, finish(0))...))
	assert.Equal(t, [12]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, d.GE.world, "13th write dropped")
	assert.Equal(t, float32(100), d.GE.bones[36])
	assert.Equal(t, float32(111), d.GE.bones[47])
}

func TestThroughSpriteFacts(t *testing.T) {
	d := New()
	defer d.Close()
	// Fact 18: sprite (0,0)-(4,4) fills exactly x, y in 0..3.
	ws := cat(setup(), alphaVia(0xFF), []uint32{ge.Word(ge.OFFSETX, 100<<4)}, sprite(t, d, 0, 0, 4, 4, 0, 0xFF00FF00), finish(0))
	require.NoError(t, run(t, d, listAddr, ws...))
	n := 0
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			if pixel(t, d, x, y) == 0xFF00FF00 {
				n++
				assert.True(t, x < 4 && y < 4, "pixel %d,%d", x, y)
			}
		}
	}
	assert.Equal(t, 16, n, "OFFSETX is ignored in through mode (fact 17)")
}

func TestClearModeFact(t *testing.T) {
	d := New()
	defer d.Close()
	// Fact 37: clear mode writes colour, alpha and depth directly; ZTST,
	// ATST and ABE are ignored.
	ws := cat(setup(), []uint32{ge.Word(ge.ZTE, 1), ge.Word(ge.ZTST, 0), ge.Word(ge.ATE, 1), ge.Word(ge.ABE, 1),
		0xD3000701}, sprite(t, d, 0, 0, 480, 272, 0x1234, 0x80112233), []uint32{ge.Word(ge.CLEAR, 0)}, finish(0))
	require.NoError(t, run(t, d, listAddr, ws...))
	assert.Equal(t, uint32(0x80112233), pixel(t, d, 0, 0))
	assert.Equal(t, uint32(0x80112233), pixel(t, d, 479, 271))
	assert.Equal(t, uint16(0x1234), depth(t, d, 240, 136))
	// Fact 36: the scissor ends at 479; x = 480 stays untouched.
	assert.Equal(t, uint32(0), pixel(t, d, 480, 0))
}

func TestDepthMaskFact(t *testing.T) {
	d := New()
	defer d.Close()
	clear := cat(setup(), []uint32{ge.Word(ge.CLEAR, 0x401)}, sprite(t, d, 0, 0, 8, 8, 0x8000, 0), []uint32{ge.Word(ge.CLEAR, 0)})
	require.NoError(t, run(t, d, listAddr, cat(clear, finish(0))...))
	// Fact 32: ZMSK 1 keeps Z; ZMSK 0 writes it (depth test on, ALWAYS).
	draw := func(zmsk uint32) []uint32 {
		return cat(alphaVia(0xFF), []uint32{ge.Word(ge.ZTE, 1), ge.Word(ge.ZTST, 1), ge.Word(ge.ZMSK, zmsk)}, sprite(t, d, 0, 0, 8, 8, 0x1000, 0xFFFFFFFF), finish(0))
	}
	require.NoError(t, run(t, d, listAddr, draw(1)...))
	assert.Equal(t, uint16(0x8000), depth(t, d, 1, 1))
	assert.Equal(t, uint32(0xFFFFFFFF), pixel(t, d, 1, 1))
	require.NoError(t, run(t, d, listAddr, draw(0)...))
	assert.Equal(t, uint16(0x1000), depth(t, d, 1, 1))
}

// TestPixelFormats draws (0xFF, 0x80, 0x40, 0xC0) in each PSM and checks the
// stored word, packed by hand with red in the low bits and truncation.
func TestPixelFormats(t *testing.T) {
	for _, tc := range []struct {
		psm  uint32
		want uint32
		size int
	}{
		{0, 31 | 32<<5 | 8<<11, 2},
		{1, 31 | 16<<5 | 8<<10 | 1<<15, 2},
		{2, 15 | 8<<4 | 4<<8 | 12<<12, 2},
		{3, 0xC04080FF, 4},
	} {
		d := New()
		// Without the stencil the alpha bits keep their old value (0).
		ws := cat(setup(), []uint32{ge.Word(ge.PSM, tc.psm)}, sprite(t, d, 0, 0, 2, 1, 0, 0xC04080FF), finish(0))
		require.NoError(t, run(t, d, listAddr, ws...))
		b := make([]byte, 4)
		require.NoError(t, d.Read(VRAMBase, b))
		alphaBits := [4]uint32{0, 0x80008000, 0xF000F000, 0xFF000000}[tc.psm]
		both := tc.want
		if tc.size == 2 {
			both |= tc.want << 16
		}
		assert.Equal(t, both&^alphaBits, binary.LittleEndian.Uint32(b), "psm %d: alpha untouched", tc.psm)
		// With stencil REPLACE 0xC0 the alpha bits hold the fragment alpha.
		ws = cat(alphaVia(0xC0), sprite(t, d, 0, 0, 2, 1, 0, 0xC04080FF), finish(0))
		require.NoError(t, run(t, d, listAddr, ws...))
		require.NoError(t, d.Read(VRAMBase, b))
		got := binary.LittleEndian.Uint32(b)
		if tc.size == 2 {
			assert.Equal(t, tc.want|tc.want<<16, got, "psm %d: two pixels", tc.psm)
		} else {
			assert.Equal(t, tc.want, got, "psm %d", tc.psm)
		}
		d.Close()
	}
}

func TestTransformedTriangle(t *testing.T) {
	d := New()
	defer d.Close()
	// Identity matrices, viewport 480x272 centred at 2048, OFFSET 2048-240.
	ws := cat(setup(), []uint32{
		ge.Word(ge.OFFSETX, (2048-240)<<4), ge.Word(ge.OFFSETY, (2048-136)<<4),
		ge.WordF(ge.XSCALE, 240), ge.WordF(ge.YSCALE, -136), ge.WordF(ge.XPOS, 2048), ge.WordF(ge.YPOS, 2048),
		ge.WordF(ge.ZSCALE, 32767.5), ge.WordF(ge.ZPOS, 32767.5), ge.Word(ge.SHADE, 1),
	}, alphaVia(0xFF))
	ident := func(sel, data ge.Op, n int) []uint32 {
		out := []uint32{ge.Word(sel, 0)}
		for i := 0; i < n; i++ {
			v := float32(0)
			if (n == 12 && (i == 0 || i == 4 || i == 8)) || (n == 16 && i%5 == 0) {
				v = 1
			}
			out = append(out, ge.WordF(data, v))
		}
		return out
	}
	ws = cat(ws, ident(ge.WMS, ge.WORLD, 12), ident(ge.VMS, ge.VIEW, 12), ident(ge.PMS, ge.PROJ, 16))
	// Two triangles (fact 12: the second PRIM continues at vertex 3).
	verts := []struct {
		x, y float32
		c    uint32
	}{
		{-1, -1, 0xFF0000FF}, {1, -1, 0xFF0000FF}, {-1, 1, 0xFF0000FF},
		{1, -1, 0xFF00FF00}, {1, 1, 0xFF00FF00}, {-1, 1, 0xFF00FF00},
	}
	vb := make([]byte, 16*len(verts))
	for i, v := range verts {
		binary.LittleEndian.PutUint32(vb[16*i:], v.c)
		binary.LittleEndian.PutUint32(vb[16*i+4:], f32bits(v.x))
		binary.LittleEndian.PutUint32(vb[16*i+8:], f32bits(v.y))
	}
	require.NoError(t, d.Write(vtxAddr, vb))
	base, low := ge.Addr(vtxAddr)
	ws = cat(ws, []uint32{ge.VType{Color: ge.Color8888, Pos: ge.FmtFloat}.Word(), base, ge.Word(ge.VADDR, low),
		0x04030003, 0x04030003}, finish(0))
	require.NoError(t, run(t, d, listAddr, ws...))
	assert.Equal(t, uint32(0xFF0000FF), pixel(t, d, 10, 260), "lower-left half is red")
	assert.Equal(t, uint32(0xFF00FF00), pixel(t, d, 470, 10), "upper-right half is green")
	assert.Equal(t, uint32(vtxAddr+6*16), d.GE.vaddr, "VADDR advanced past both PRIMs")
	// The shared diagonal is covered exactly once: no pixel is left black.
	for y := 0; y < 272; y += 17 {
		for x := 0; x < 480; x += 13 {
			assert.NotZero(t, pixel(t, d, x, y), "pixel %d,%d", x, y)
		}
	}
}

func TestFaults(t *testing.T) {
	d := New()
	defer d.Close()
	good := func() {
		t.Helper()
		ws := cat(setup(), []uint32{ge.Word(ge.CLEAR, 0x301)}, sprite(t, d, 0, 0, 4, 4, 0, 0xFF123456), []uint32{ge.Word(ge.CLEAR, 0)}, finish(0))
		require.NoError(t, run(t, d, listAddr, ws...))
		assert.Equal(t, uint32(0xFF123456), pixel(t, d, 1, 1), "the device renders after the fault")
		require.NoError(t, run(t, d, listAddr, cat([]uint32{ge.Word(ge.CLEAR, 0x301)}, sprite(t, d, 0, 0, 4, 4, 0, 0), []uint32{ge.Word(ge.CLEAR, 0)}, finish(0))...))
	}
	for _, tc := range []struct {
		name   string
		list   []uint32
		offset uint32
		word   uint32
		reason string
	}{
		{"jump outside memory", []uint32{ge.Word(ge.BASE, 0), ge.Word(ge.NOP, 0), ge.Word(ge.JUMP, 0x100)}, 8, 0x08000100, "outside device memory"},
		{"call stack overflow", []uint32{0x10080000, ge.Word(ge.CALL, 4), ge.Word(ge.CALL, 4)}, 4, 0x0A000004, "CALL stack overflow"},
		{"endless loop", []uint32{0x10080000, ge.Word(ge.JUMP, 4), ge.Word(ge.JUMP, 4)}, 4, 0x08000004, "watchdog"},
		{"ret on empty stack", []uint32{ge.Word(ge.RET, 0)}, 0, 0x0B000000, "empty call stack"},
		{"no END", []uint32{ge.Word(ge.NOP, 0)}, 4, 0, "stalled"},
	} {
		err := run(t, d, listAddr, tc.list...)
		f, ok := hal.AsFault(err)
		require.True(t, ok, "%s: want a fault, got %v", tc.name, err)
		assert.Equal(t, tc.offset, f.Offset, tc.name)
		assert.Equal(t, uint64(tc.word), f.Word, tc.name)
		assert.Contains(t, f.Reason, tc.reason, tc.name)
		assert.Contains(t, f.Error(), "pspge fault at offset", tc.name)
		good()
	}
}

func f32bits(f float32) uint32 { return math.Float32bits(f) }

// FuzzList runs random display lists: the GE must never panic or hang; a
// bad list ends in a fault.
func FuzzList(f *testing.F) {
	f.Add(words(cat(setup(), finish(0))...))
	f.Add(words(0x10080000, ge.Word(ge.CALL, 0), ge.Word(ge.RET, 0)))
	f.Add(words(ge.VType{Color: ge.Color8888, Pos: ge.FmtFloat}.Word(), 0x10080000, ge.Word(ge.VADDR, 0), 0x04030009, 0x0C000000))
	f.Add(words(0xD4000000, 0xD5043DDF, 0x9D000200, 0xD3000301, 0x1280011C, 0x10080000, 0x01000000, 0x04060002, 0x0C000000))
	d := NewWithBudget(1 << 14)
	defer d.Close()
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 4096 {
			return
		}
		if err := d.Write(listAddr, b); err != nil {
			t.Fatal(err)
		}
		fence, err := d.Submit(hal.Buffer{Addr: listAddr, Size: uint32(len(b) &^ 3)})
		if err != nil {
			t.Fatal(err)
		}
		err = d.Wait(fence)
		if f, ok := hal.AsFault(err); ok && strings.Contains(f.Reason, "internal simulator error") {
			t.Fatal(f.Reason)
		}
	})
}

// FuzzVertices draws random vertex data with a random VTYPE, primitive and
// pixel state: the vertex decoder, transform, clipping and rasteriser must
// never panic or hang, whatever the numbers (NaN, huge, reserved formats).
func FuzzVertices(f *testing.F) {
	f.Add(uint32(0x1200019F), uint32(3), words(0x3F800000, 0x3F800000, 0, 0, 0x7FC00000, 0xFF800000))
	f.Add(uint32(0x1280011C), uint32(6), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24})
	f.Add(uint32(0x12DFFFFF), uint32(0), make([]byte, 64))
	f.Add(uint32(0x120007FF), uint32(5), make([]byte, 300))
	d := NewWithBudget(1 << 14)
	defer d.Close()
	f.Fuzz(func(t *testing.T, vtype, prim uint32, data []byte) {
		if len(data) > 4096 {
			return
		}
		if err := d.Write(vtxAddr, data); err != nil {
			t.Fatal(err)
		}
		base, low := ge.Addr(vtxAddr)
		n := uint32(len(data) / 4)
		ws := cat(setup(), []uint32{
			ge.Word(ge.VTYPE, vtype), base, ge.Word(ge.VADDR, low), ge.Word(ge.IADDR, low),
			ge.Word(ge.TME, prim>>3&1), ge.Word(ge.LTE, prim>>4&1), ge.Word(ge.LTE0, 1), ge.Word(ge.FGE, prim>>5&1),
			ge.Word(ge.ABE, prim>>6&1), ge.Word(ge.TMAP, prim>>7&3), ge.Word(ge.TSIZE0, prim>>9&0xF0F),
			ge.WordF(ge.XSCALE, 240), ge.WordF(ge.YSCALE, -136), ge.WordF(ge.XPOS, 2048), ge.WordF(ge.YPOS, 2048),
			ge.Word(ge.OFFSETX, (2048-240)<<4), ge.Word(ge.OFFSETY, (2048-136)<<4),
			ge.Word(ge.PRIM, (prim&7)<<16|min(n, 64)),
		}, finish(0))
		if err := d.Write(listAddr, words(ws...)); err != nil {
			t.Fatal(err)
		}
		fence, err := d.Submit(hal.Buffer{Addr: listAddr, Size: uint32(4 * len(ws))})
		if err != nil {
			t.Fatal(err)
		}
		err = d.Wait(fence)
		if f, ok := hal.AsFault(err); ok && strings.Contains(f.Reason, "internal simulator error") {
			t.Fatal(f.Reason)
		}
	})
}
