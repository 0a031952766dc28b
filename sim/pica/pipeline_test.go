package pica

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/internal/texblock"
)

// A 16x16 RGBA8 colour buffer and D24S8 depth buffer at fixed VRAM
// addresses; a pass-through vertex shader (o0 = v0 position, o1 = v1
// colour); triangles go in through immediate mode.
const (
	fbAddr = VRAMBase
	zbAddr = VRAMBase + 0x10000
	fbSize = 16
)

func setup(w *p.Writer) {
	w.Write(p.COLORBUFFER_LOC, fbAddr>>3)
	w.Write(p.DEPTHBUFFER_LOC, zbAddr>>3)
	w.Write(p.COLORBUFFER_FORMAT, 2)
	w.Write(p.DEPTHBUFFER_FORMAT, 3)
	w.Write(p.FRAMEBUFFER_DIM, fbSize|(fbSize-1)<<12|1<<24)
	w.Write(p.COLORBUFFER_READ, 0xF)
	w.Write(p.COLORBUFFER_WRITE, 0xF)
	w.Write(p.DEPTHBUFFER_READ, 3)
	w.Write(p.DEPTHBUFFER_WRITE, 3)
	w.Write(p.VIEWPORT_WIDTH, p.ToF24(fbSize/2))
	w.Write(p.VIEWPORT_HEIGHT, p.ToF24(fbSize/2))
	w.Write(p.DEPTHMAP_ENABLE, 1)
	w.Write(p.DEPTHMAP_SCALE, p.ToF24(-1))
	w.Write(p.VSH_OUTMAP_MASK, 3)
	w.Write(p.SH_OUTMAP_TOTAL, 2)
	w.Write(p.SH_OUTMAP_O0, 0x03020100)
	w.Write(p.SH_OUTMAP_O0+1, 0x0B0A0908)
	w.Write(p.VSH_CODETRANSFER_INDEX, 0)
	w.Rep(p.VSH_CODETRANSFER_DATA0, 0x4C000000, 0x4C201000, 0x88000000)
	w.Write(p.VSH_OPDESCS_INDEX, 0)
	w.Rep(p.VSH_OPDESCS_DATA0, uint32(p.DescIdentity))
	w.Write(p.VSH_INPUTBUFFER_CONFIG, 0xA0000001)
	w.Write(p.VSH_ATTR_PERM_LOW, 0x10)
	w.Write(p.TEXUNIT_CONFIG, 1<<12)
	// Stage 0: replace with the primary colour.
	w.Write(p.TexEnv(0, 0), 0)
	w.Write(p.TexEnv(0, 2), 0)
	for s := 1; s < 6; s++ {
		w.Write(p.TexEnv(s, 0), 0x000F000F)
	}
	w.Write(p.COLOR_OPERATION, 0x00E40100)
	w.Write(p.BLEND_FUNC, 0x01010000)
	w.Write(p.DEPTH_COLOR_MASK, 0xF00)
}

// tri emits one immediate-mode triangle covering the whole buffer with
// window depth z and colour c.
func tri(w *p.Writer, z float32, c [4]float32) {
	w.Write(p.PRIMITIVE_CONFIG, 1)
	w.Write(p.RESTART_PRIMITIVE, 1)
	w.Write(p.FIXEDATTRIB_INDEX, 0xF)
	for _, pos := range [][2]float32{{-1, -1}, {3, -1}, {-1, 3}} {
		for _, v := range [][4]float32{{pos[0], pos[1], -z, 1}, c} {
			d := p.PackF24x4(p.ToF24(v[0]), p.ToF24(v[1]), p.ToF24(v[2]), p.ToF24(v[3]))
			w.Seq(p.FIXEDATTRIB_DATA0, d[0], d[1], d[2])
		}
	}
}

func submit(t *testing.T, d *Device, w *p.Writer) {
	t.Helper()
	w.Finalize()
	b := w.Bytes()
	a, err := d.Alloc(uint32(len(b)), 16, "fcram")
	require.NoError(t, err)
	require.NoError(t, d.Write(a.Addr, b))
	f, err := d.Submit(hal.Buffer{Addr: a.Addr, Size: uint32(len(b))})
	require.NoError(t, err)
	require.NoError(t, d.Wait(f))
	require.NoError(t, d.Free(a))
}

// at reads the colour and the depth/stencil word of window pixel (x, y).
func at(t *testing.T, d *Device, x, y int) ([4]uint8, uint32) {
	off := uint32(p.TileOffset(x, fbSize-1-y, fbSize) * 4)
	var c, z [4]byte
	require.NoError(t, d.Read(fbAddr+off, c[:]))
	require.NoError(t, d.Read(zbAddr+off, z[:]))
	return [4]uint8{c[3], c[2], c[1], c[0]}, binary.LittleEndian.Uint32(z[:])
}

func TestPipelineFacts(t *testing.T) {
	d := New()
	defer d.Close()
	var w p.Writer
	setup(&w)
	// Fact 19: depth test off with depth write on still writes depth.
	w.Write(p.DEPTH_COLOR_MASK, 0x1F00)
	tri(&w, 0.5, [4]float32{1, 0, 0, 1})
	submit(t, d, &w)
	c, z := at(t, d, 3, 4)
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, c)
	assert.Equal(t, uint32(0x7FFFFF), z&0xFFFFFF, "0.5 -> trunc(0.5 * 0xFFFFFF)")

	// Fact 17: RGBA8 (R=11, G=22, B=33, A=44) is stored as bytes 44 33 22 11.
	w.Reset()
	tri(&w, 0.5, [4]float32{11.0 / 255, 22.0 / 255, 33.0 / 255, 44.0 / 255})
	submit(t, d, &w)
	var raw [4]byte
	require.NoError(t, d.Read(fbAddr, raw[:]))
	assert.Equal(t, [4]byte{44, 33, 22, 11}, raw)

	// Fact 20: blend equation 5 behaves like ADD (ONE, ONE).
	w.Reset()
	w.Write(p.BLEND_FUNC, 0x11110505)
	tri(&w, 0.5, [4]float32{0.2, 0.2, 0.2, 0.2})
	submit(t, d, &w)
	c, _ = at(t, d, 0, 0)
	assert.Equal(t, [4]uint8{11 + 51, 22 + 51, 33 + 51, 44 + 51}, c)

	// Fact 22: logic op 6 keeps the destination, 3 writes the source.
	w.Reset()
	w.Write(p.COLOR_OPERATION, 0x00E40000)
	w.Write(p.LOGIC_OP, 6)
	tri(&w, 0.5, [4]float32{1, 1, 1, 1})
	submit(t, d, &w)
	c, _ = at(t, d, 0, 0)
	assert.Equal(t, [4]uint8{62, 73, 84, 95}, c)
	w.Reset()
	w.Write(p.LOGIC_OP, 3)
	tri(&w, 0.5, [4]float32{0, 1, 0, 1})
	submit(t, d, &w)
	c, _ = at(t, d, 0, 0)
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, c)

	// Fact 23: alpha test LESS with ref 0x80 kills alpha 0x80.
	w.Reset()
	w.Write(p.FRAGOP_ALPHA_TEST, 1|4<<4|0x80<<8)
	tri(&w, 0.5, [4]float32{1, 0, 0, 128.0 / 255})
	submit(t, d, &w)
	c, _ = at(t, d, 0, 0)
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, c, "killed")
	w.Reset()
	tri(&w, 0.5, [4]float32{1, 0, 0, 127.0 / 255})
	w.Write(p.FRAGOP_ALPHA_TEST, 0)
	submit(t, d, &w)
	c, _ = at(t, d, 0, 0)
	assert.Equal(t, [4]uint8{255, 0, 0, 127}, c, "passes")

	// Fact 24: stencil 0xFF: op 6 (increment-wrap) -> 0x00, op 3
	// (increment, saturating) -> 0xFF. The z-pass op runs with the depth
	// test off.
	for _, tc := range []struct{ op, want uint32 }{{6, 0x00}, {3, 0xFF}} {
		w.Reset()
		w.Write(p.STENCIL_TEST, 1|1<<4|0xFF<<8|0xFF<<16|0xFF<<24)
		w.Write(p.STENCIL_OP, 2<<8) // REPLACE with 0xFF
		tri(&w, 0.5, [4]float32{0, 0, 1, 1})
		w.Write(p.STENCIL_OP, tc.op<<8)
		tri(&w, 0.5, [4]float32{0, 0, 1, 1})
		w.Write(p.STENCIL_TEST, 0)
		submit(t, d, &w)
		_, z = at(t, d, 5, 5)
		assert.Equal(t, tc.want, z>>24, "stencil op %d", tc.op)
	}

	// Depth test: LESS keeps the nearer of two triangles.
	w.Reset()
	w.Write(p.DEPTH_COLOR_MASK, 0x1F00|1|4<<4)
	tri(&w, 0.25, [4]float32{1, 1, 0, 1})
	tri(&w, 0.75, [4]float32{0, 1, 1, 1})
	submit(t, d, &w)
	c, z = at(t, d, 7, 7)
	assert.Equal(t, [4]uint8{255, 255, 0, 255}, c)
	assert.Equal(t, uint32(0x3FFFFF), z&0xFFFFFF)

	// Scissor mode 3 includes the inclusive box (window coordinates).
	w.Reset()
	w.Write(p.DEPTH_COLOR_MASK, 0xF00)
	w.Write(p.SCISSORTEST_MODE, 3)
	w.Write(p.SCISSORTEST_POS, 2|3<<16)
	w.Write(p.SCISSORTEST_DIM, 4|5<<16)
	tri(&w, 0.5, [4]float32{1, 0, 1, 1})
	w.Write(p.SCISSORTEST_MODE, 0)
	submit(t, d, &w)
	for _, pt := range []struct {
		x, y int
		in   bool
	}{{2, 3, true}, {4, 5, true}, {5, 5, false}, {4, 6, false}, {1, 3, false}, {2, 2, false}} {
		c, _ = at(t, d, pt.x, pt.y)
		assert.Equal(t, pt.in, c == [4]uint8{255, 0, 255, 255}, "scissor at %d,%d", pt.x, pt.y)
	}
}

func TestCombinerFacts(t *testing.T) {
	ps := &pixelState{}
	for s := range ps.tev {
		ps.tev[s] = tevStage{src: 0x000F000F}
	}
	// Fact 28: 4x scale on Modulate(0x80, 0xFF) saturates to 0xFF.
	ps.tev[0] = tevStage{src: 0 | 14<<4 | 0<<16 | 14<<20, fn: 1 | 1<<16, scale: 2 | 2<<16, konst: [4]uint8{255, 255, 255, 255}}
	ps.tevActive = 1
	var tex [4][4]uint8
	assert.Equal(t, [4]uint8{255, 255, 255, 255}, ps.combine([4]uint8{0x80, 0x80, 0x80, 0x80}, &tex))
	// Fact 27: in stage 0, "previous buffer" reads 0 and "previous" the
	// primary colour.
	ps.tev[0] = tevStage{src: 13 | 15<<4 | 13<<16 | 15<<20, fn: 2 | 2<<16}
	assert.Equal(t, [4]uint8{1, 2, 3, 4}, ps.combine([4]uint8{1, 2, 3, 4}, &tex))
	// The buffer: stage 1 reads TEXENV_BUFFER_COLOR, stage 2 reads stage
	// 0's output when bit 8 (RGB) and bit 12 (alpha) are set.
	ps.bufColor = [4]uint8{9, 9, 9, 9}
	ps.bufUpdate = 0x11
	ps.tev[0] = tevStage{src: 14 | 14<<16, konst: [4]uint8{7, 7, 7, 7}}
	ps.tev[1] = tevStage{src: 13 | 13<<16}
	ps.tevActive = 2
	assert.Equal(t, [4]uint8{9, 9, 9, 9}, ps.combine([4]uint8{}, &tex))
	ps.tev[2] = tevStage{src: 13 | 13<<16}
	ps.tevActive = 3
	assert.Equal(t, [4]uint8{7, 7, 7, 7}, ps.combine([4]uint8{}, &tex))
	// Equations ([OUT] citra), on 0-255 values.
	for _, tc := range []struct {
		fn      uint32
		a, b, c int
		want    int
	}{
		{0, 200, 0, 0, 200}, {1, 128, 255, 0, 128}, {1, 255, 128, 0, 128}, {2, 200, 100, 0, 255},
		{3, 200, 100, 0, 172}, {3, 10, 20, 0, 0}, {4, 255, 0, 128, 128}, {5, 100, 200, 0, 0},
		{5, 200, 100, 0, 100}, {8, 128, 128, 128, 192}, {9, 100, 100, 128, 100}, {6, 255, 255, 0, 254},
	} {
		assert.Equal(t, tc.want, tevFunc(tc.fn, tc.a, tc.b, tc.c), "fn %d(%d,%d,%d)", tc.fn, tc.a, tc.b, tc.c)
	}
}

func TestTextureFormats(t *testing.T) {
	// One 8x8 tile; texel (s, t) at memory row 7-t (fact 16: Morton order).
	assert.Equal(t, []int{1, 2, 4, 39, 63}, []int{p.Morton(1, 0), p.Morton(0, 1), p.Morton(2, 0), p.Morton(3, 5), p.Morton(7, 7)})
	data := make([]byte, 8*8*4)
	i := p.Morton(3, 7-5) * 4
	copy(data[i:], []byte{44, 33, 22, 11})
	tu := &texUnit{enabled: true, width: 8, height: 8, format: p.TexRGBA8, data: data}
	assert.Equal(t, [4]uint8{11, 22, 33, 44}, tu.texel(3, 5))
	for _, tc := range []struct {
		f    p.TexFormat
		b    []byte
		want [4]uint8
	}{
		{p.TexRGB8, []byte{3, 2, 1}, [4]uint8{1, 2, 3, 255}},
		{p.TexRGB565, []byte{0x1F, 0xF8}, [4]uint8{255, 0, 255, 255}},
		{p.TexRGBA5551, []byte{0x01, 0xF8}, [4]uint8{255, 0, 0, 255}},
		{p.TexRGBA4, []byte{0x3F, 0x12}, [4]uint8{0x11, 0x22, 0x33, 0xFF}},
		{p.TexIA8, []byte{0x40, 0x80}, [4]uint8{0x80, 0x80, 0x80, 0x40}},
		{p.TexHILO8, []byte{0x40, 0x80}, [4]uint8{0x80, 0x40, 0, 255}},
		{p.TexI8, []byte{0x42}, [4]uint8{0x42, 0x42, 0x42, 255}},
		{p.TexA8, []byte{0x42}, [4]uint8{0, 0, 0, 0x42}},
		{p.TexIA4, []byte{0x5A}, [4]uint8{0x55, 0x55, 0x55, 0xAA}},
		{p.TexI4, []byte{0xB4}, [4]uint8{0x44, 0x44, 0x44, 255}},
		{p.TexA4, []byte{0xB4}, [4]uint8{0, 0, 0, 0x44}},
	} {
		bpp := max(1, tc.f.BitsPerTexel()/8)
		d := make([]byte, 64*bpp)
		copy(d[p.Morton(0, 7)*tc.f.BitsPerTexel()/8:], tc.b) // texel (0, 0) at memory row 7
		tu := &texUnit{enabled: true, width: 8, height: 8, format: tc.f, data: d}
		assert.Equal(t, tc.want, tu.texel(0, 0), "format %d", tc.f)
	}
	// Wrap modes.
	for _, tc := range []struct {
		mode   uint32
		i, out int
		ok     bool
	}{{0, -3, 0, true}, {0, 9, 7, true}, {1, 8, 0, false}, {2, -1, 7, true}, {2, 9, 1, true}, {3, 8, 7, true}, {3, -1, 0, true}, {3, 17, 1, true}} {
		got, ok := wrap(tc.mode, tc.i, 8)
		assert.Equal(t, tc.ok, ok)
		if ok {
			assert.Equal(t, tc.out, got, "wrap %d of %d", tc.mode, tc.i)
		}
	}
}

// TestETC1Layout checks the PICA's ETC1A4 layout around the shared ETC1
// decoder (internal/texblock, tested against hand-built blocks in driver).
func TestETC1Layout(t *testing.T) {
	seed := uint64(0x9E3779B97F4A7C15)
	// The PICA's layout: little-endian words, four 4x4 blocks per 8x8 tile
	// in the order (0,0), (1,0), (0,1), (1,1) of memory rows; ETC1A4 puts
	// the 4-bit alpha block first.
	data := make([]byte, 4*16)
	binary.LittleEndian.PutUint64(data[3*16:], 0xF0F0F0F0F0F0F0F0) // alpha of block (1,1)
	binary.LittleEndian.PutUint64(data[3*16+8:], seed)
	tu := &texUnit{enabled: true, width: 8, height: 8, format: p.TexETC1A4, data: data}
	// Memory row 5, column 6: block (1,1), pixel (2,1).
	got := tu.texel(6, 8-1-5)
	want := texblock.ETC1(seed, 2, 1)
	want[3] = p.Expand4(uint16(0xF0F0F0F0F0F0F0F0 >> (4 * (2*4 + 1)) & 15))
	assert.Equal(t, want, got)
}

// TestCulling pins FACECULLING_CONFIG: 1 drops counter-clockwise triangles
// and 2 clockwise ones, as seen in window space (y up); tri() emits a
// counter-clockwise triangle.
func TestCulling(t *testing.T) {
	d := New()
	defer d.Close()
	for _, tc := range []struct {
		mode  uint32
		drawn bool
	}{{0, true}, {1, false}, {2, true}} {
		var w p.Writer
		setup(&w)
		tri(&w, 0.5, [4]float32{0, 0, 0, 1})
		w.Write(p.FACECULLING_CONFIG, tc.mode)
		tri(&w, 0.5, [4]float32{1, 1, 1, 1})
		w.Write(p.FACECULLING_CONFIG, 0)
		submit(t, d, &w)
		c, _ := at(t, d, 4, 4)
		assert.Equal(t, tc.drawn, c == [4]uint8{255, 255, 255, 255}, "mode %d", tc.mode)
	}
}

// TestColorSaturation: the PICA drops the sign of vertex colours and
// saturates them to 1 per vertex, before interpolation (the public
// 3DS "vertex color saturation" hardware test; citra does the same).
func TestColorSaturation(t *testing.T) {
	d := New()
	defer d.Close()
	var w p.Writer
	setup(&w)
	tri(&w, 0.5, [4]float32{-0.5, 2, 0.25, -1})
	submit(t, d, &w)
	c, _ := at(t, d, 2, 2)
	assert.Equal(t, [4]uint8{128, 255, 64, 255}, c)
}
