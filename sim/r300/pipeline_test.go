package r300

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// full is a screen-covering quad (two triangles) of one colour.
func full(s *r3.Stream, w, h float32, z float32, c [4]float32) {
	v := func(x, y float32) vtx { return vtx{x, y, z, c[0], c[1], c[2], c[3]} }
	immd(s, r3.PrimTriangles, v(0, 0), v(w, 0), v(w, h), v(0, 0), v(w, h), v(0, h))
}

func newDev(t *testing.T) *Device {
	d := New()
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// texture4 writes a 4x4 RGBA8 texture (row pitch 32 bytes) whose texel
// (x, y) is (16x+1, 16y+1, 100, 255) and programs unit 0.
func texture4(t *testing.T, d *Device, s *r3.Stream, filter0 uint32) {
	for y := 0; y < 4; y++ {
		row := make([]byte, 16)
		for x := 0; x < 4; x++ {
			copy(row[4*x:], []byte{uint8(16*x + 1), uint8(16*y + 1), 100, 255})
		}
		require.NoError(t, d.Write(txAddr+uint32(32*y), row))
	}
	s.Reg(r3.TX_ENABLE, 1)
	s.Reg(r3.TX_FILTER0_0, filter0)
	s.Reg(r3.TX_FORMAT0_0, r3.Fields(r3.TX_FORMAT0_0, "TXWIDTH", 3, "TXHEIGHT", 3))
	s.Reg(r3.TX_FORMAT1_0, 0x0008860C)
	s.Reg(r3.TX_OFFSET_0, txAddr)
}

// TestLevels runs a two-level program: level 2 fetches with the
// interpolated colour as coordinates and scales the texel by 2 into r2
// (the next coordinates); level 3 fetches at r2 and outputs.
func TestLevels(t *testing.T) {
	d := newDev(t)
	var s r3.Stream
	baseline(&s, 8, 8)
	texture4(t, d, &s, r3.Fields(r3.TX_FILTER0_0, "MAG_FILTER", 1, "MIN_FILTER", 1))
	double := r3.ALUInst{
		RGB:   r3.Half{Src: [3]uint8{1}, Dst: 2, WMask: 7, Args: [3]r3.Arg{arg(0), arg(r3.SelRGBOne), arg(r3.SelRGBZero)}, Omod: 1},
		Alpha: r3.Half{Src: [3]uint8{1}, Dst: 2, WMask: 1, Args: [3]r3.Arg{arg(9), arg(17), arg(16)}},
	}
	var ra, aa, ri, ai []uint32
	for _, a := range []r3.ALUInst{double, movOut(3)} {
		w0, w1, w2, w3 := a.Encode()
		ra, aa, ri, ai = append(ra, w0), append(aa, w1), append(ri, w2), append(ai, w3)
	}
	s.Reg(r3.US_ALU_RGB_ADDR_0, ra...)
	s.Reg(r3.US_ALU_ALPHA_ADDR_0, aa...)
	s.Reg(r3.US_ALU_RGB_INST_0, ri...)
	s.Reg(r3.US_ALU_ALPHA_INST_0, ai...)
	s.Reg(r3.US_TEX_INST_0, r3.TexInst{Op: r3.TexLD, Src: 0, Dst: 1}.Encode(), r3.TexInst{Op: r3.TexLD, Src: 2, Dst: 3}.Encode())
	s.Reg(r3.US_CONFIG, 9, 3, 1<<6|1<<18) // two levels, FIRST_TEX
	s.Reg(r3.US_CODE_ADDR_0, 0, 0, 0, 1|1<<12|1<<22)
	// Coordinates (0.3, 0.1) → texel (1, 0) = (17, 1, 100)/255; doubled
	// → (0.133, 0.008) → texel (0, 0) = (1, 1, 100, 255).
	full(&s, 8, 8, 0, [4]float32{0.3, 0.1, 0, 1})
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, [4]uint8{1, 1, 100, 255}, pixel(t, d, 8, 3, 3))

	// FIRST_TEX = 0 skips level 2's TEX: r1 keeps 0, r2 = 0, level 3
	// fetches texel (0, 0) too — so feed coordinates that would differ.
	var s2 r3.Stream
	s2.Reg(r3.US_CONFIG, 1)
	full(&s2, 8, 8, 0, [4]float32{0.9, 0.9, 0, 1})
	require.NoError(t, run(t, d, &s2))
	assert.Equal(t, [4]uint8{1, 1, 100, 255}, pixel(t, d, 8, 3, 3))
	// With FIRST_TEX set the same draw fetches texel (3, 3) first: doubled
	// texel values are the next coordinates.
	s2.Reset()
	s2.Reg(r3.US_CONFIG, 9)
	full(&s2, 8, 8, 0, [4]float32{0.9, 0.9, 0, 1})
	require.NoError(t, run(t, d, &s2))
	// Texel (3, 3) = (49, 49, 100)/255 doubled is 0.384: texel (1, 1).
	assert.Equal(t, [4]uint8{17, 17, 100, 255}, pixel(t, d, 8, 3, 3))
}

// TestTexKill: KIL on a computed value discards the pixel.
func TestTexKill(t *testing.T) {
	d := newDev(t)
	var s r3.Stream
	baseline(&s, 8, 8)
	s.Reg(r3.GA_ROUND_MODE, 1<<4) // colours clamp to ±8, not [0, 1]
	s.Reg(r3.US_CONFIG, 8, 0, 0)
	s.Reg(r3.US_CODE_ADDR_0+12, 1<<22)
	s.Reg(r3.US_TEX_INST_0, r3.TexInst{Op: r3.TexKill, Src: 0}.Encode())
	v := func(x, y float32, g float32) vtx { return vtx{x, y, 0, 1, g, 0, 1} }
	// Green runs from -1 (left) to 1 (right): the left half is killed.
	immd(&s, r3.PrimTriangles, v(0, 0, -1), v(8, 0, 1), v(8, 8, 1), v(0, 0, -1), v(8, 8, 1), v(0, 8, -1))
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, [4]uint8{0, 0, 0, 0}, pixel(t, d, 8, 1, 4))
	assert.Equal(t, uint8(255), pixel(t, d, 8, 6, 4)[0])
}

func TestWrapModes(t *testing.T) {
	tests := []struct {
		mode uint32
		i, n int
		want int
		ok   bool
	}{
		{0, -1, 4, 3, true}, {0, 5, 4, 1, true},
		{1, 4, 4, 3, true}, {1, -1, 4, 0, true}, {1, 9, 4, 1, true},
		{2, -3, 4, 0, true}, {2, 7, 4, 3, true},
		{6, -1, 4, -1, false}, {6, 4, 4, 4, false}, {6, 2, 4, 2, true},
	}
	for _, tc := range tests {
		got, ok := wrapIndex(tc.mode, tc.i, tc.n)
		assert.Equal(t, tc.ok, ok, "mode %d i %d", tc.mode, tc.i)
		if tc.ok {
			assert.Equal(t, tc.want, got, "mode %d i %d", tc.mode, tc.i)
		}
	}
	assert.Equal(t, 0.25, wrapCoord(3, -0.25), "mirror once")
	assert.Equal(t, 1.0, wrapCoord(4, 3), "clamp half way to border")
}

// texUnitOf builds a unit over raw texel memory.
func texUnitOf(code uint8, w, h int, mem []byte, sel [4]uint32) *texUnit {
	f := &r3.TexFormats[code]
	return &texUnit{used: true, enabled: true, f: f, levels: r3.TexLayout(f, w, h, 1, 0), mem: mem, sel: sel}
}

func TestTexelFormats(t *testing.T) {
	le16 := func(v uint16) []byte { return []byte{byte(v), byte(v >> 8)} }
	le32 := func(v uint32) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
	id := [4]uint32{0, 1, 2, 3}
	tests := []struct {
		name string
		code uint8
		data []byte
		want [4]float32
	}{
		{"8", 0, []byte{51}, [4]float32{0.2, 0, 0, 0}},
		{"16", 1, le16(65535), [4]float32{1, 0, 0, 0}},
		{"4_4", 2, []byte{0xF5}, [4]float32{5.0 / 15, 1, 0, 0}},
		{"8_8", 3, []byte{0, 255}, [4]float32{0, 1, 0, 0}},
		{"3_3_2", 5, []byte{0xE3}, [4]float32{1, 0, 1, 0}},
		{"5_6_5", 6, le16(0xF81F), [4]float32{1, 0, 1, 0}},
		{"6_5_5", 7, le16(0xFC00), [4]float32{0, 0, 1, 0}},
		{"4_4_4_4", 10, le16(0xF0A5), [4]float32{1.0 / 3, 10.0 / 15, 0, 1}},
		{"1_5_5_5", 11, le16(0x801F), [4]float32{1, 0, 0, 1}},
		{"8_8_8_8", 12, []byte{0, 51, 102, 255}, [4]float32{0, 0.2, 0.4, 1}},
		{"2_10_10_10", 13, le32(3<<30 | 1023), [4]float32{1, 0, 0, 1}},
		{"10_11_11", 9, le32(2047 << 11), [4]float32{0, 1, 0, 0}},
		{"16F", 24, le16(0x3C00), [4]float32{1, 0, 0, 0}},
		{"32F", 27, le32(math.Float32bits(-2.5)), [4]float32{-2.5, 0, 0, 0}},
	}
	for _, tc := range tests {
		mem := make([]byte, 64)
		copy(mem, tc.data)
		u := texUnitOf(tc.code, 1, 1, mem, id)
		got, _ := u.texel(0, 0, 0)
		for c := range got {
			assert.InDelta(t, tc.want[c], got[c], 1e-6, "%s component %d", tc.name, c)
		}
	}
	// Signed components and the channel selects (C3 to red, 1 to alpha).
	mem := make([]byte, 64)
	copy(mem, []byte{0x81, 0x7F, 0, 0})
	u := texUnitOf(12, 1, 1, mem, [4]uint32{1, 0, 4, 5})
	u.signed = [4]bool{true, true}
	got, _ := u.texel(0, 0, 0)
	assert.Equal(t, [4]float32{1, -1, 0, 1}, got)
	// DXT1: c0 = red, c1 = blue, indices 0,1,2,3 across the first row.
	dxt := make([]byte, 64)
	copy(dxt, []byte{0x00, 0xF8, 0x1F, 0x00, 0xE4, 0, 0, 0})
	u = texUnitOf(r3.TxFmtDXT1, 4, 4, dxt, id)
	for x, want := range [][4]float32{{1, 0, 0, 1}, {0, 0, 1, 1}, {170.0 / 255, 0, 85.0 / 255, 1}, {85.0 / 255, 0, 170.0 / 255, 1}} {
		got, _ := u.texel(0, x, 0)
		assert.Equal(t, want, got, "DXT1 texel %d", x)
	}
	// Bilinear at the centre of four texels averages them.
	mem = make([]byte, 256)
	for i, v := range []byte{0, 255, 0, 0} {
		mem[4*i] = v
	}
	copy(mem[32:], []byte{255, 0, 0, 0, 255, 0, 0, 0})
	u = texUnitOf(12, 2, 2, mem, id)
	c, _ := u.filter(0, 0.5, 0.5, true)
	assert.InDelta(t, 0.75, float64(c[0]), 1e-6)
	c, _ = u.filter(0, 0.1, 0.1, false)
	assert.Equal(t, float32(0), c[0])
}

func TestBorderAndDisabledUnit(t *testing.T) {
	d := newDev(t)
	var s r3.Stream
	baseline(&s, 8, 8)
	texture4(t, d, &s, r3.Fields(r3.TX_FILTER0_0, "MAG_FILTER", 1, "MIN_FILTER", 1, "CLAMP_S", 6, "CLAMP_T", 6))
	s.Reg(r3.TX_BORDER_COLOR_0, 0x80402010) // bytes 10 20 40 80 → R G B A
	program(&s, []r3.TexInst{{Op: r3.TexLD, Src: 0, Dst: 0, Unit: 0}}, []r3.ALUInst{movOut(0)}, 0)
	full(&s, 8, 8, 0, [4]float32{1.5, 0.5, 0, 1})
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, [4]uint8{0x10, 0x20, 0x40, 0x80}, pixel(t, d, 8, 2, 2), "border colour")
	s.Reset()
	s.Reg(r3.TX_ENABLE, 0)
	full(&s, 8, 8, 0, [4]float32{0.5, 0.5, 0, 1})
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, [4]uint8{0, 0, 0, 255}, pixel(t, d, 8, 2, 2), "disabled unit: ARGB (1,0,0,0), fact 29")
}

func TestMipLevelSelection(t *testing.T) {
	// An 8x8 texture with 4 levels, each level one flat colour (red 0,
	// 1, 2, 3 ×60): the LOD from the quad picks the level.
	f := &r3.TexFormats[r3.TxFmt8_8_8_8]
	lay := r3.TexLayout(f, 8, 8, 4, 0)
	mem := make([]byte, lay[3].Offset+lay[3].Size)
	for l, lv := range lay {
		for y := 0; y < lv.Height; y++ {
			for x := 0; x < lv.Width; x++ {
				copy(mem[lv.Offset+uint32(y)*lv.Pitch+uint32(4*x):], []byte{uint8(60 * l), 0, 0, 255})
			}
		}
	}
	u := &texUnit{used: true, enabled: true, f: f, levels: lay, mem: mem, sel: [4]uint32{0, 1, 2, 3},
		lastLevel: 3, mag: 1, min: 1, mip: 1}
	e := &Engine{}
	s := &drawState{}
	s.tex[0] = *u
	for _, tc := range []struct {
		step float32 // texture coordinate change per pixel
		want float32
	}{{1.0 / 8, 0}, {2.0 / 8, 60}, {4.0 / 8, 120}, {16.0 / 8, 180}, {0.01, 0}} {
		coords := [4][4]float32{{0, 0, 0, 1}, {tc.step, 0, 0, 1}, {0, tc.step, 0, 1}, {tc.step, tc.step, 0, 1}}
		res, err := e.sample(s, &quadState{}, 0, r3.TexLD, &coords)
		require.NoError(t, err)
		assert.Equal(t, tc.want/255, res[0][0], "step %g", tc.step)
	}
	// LODBIAS: bias 1 from the coordinate's w moves one level down.
	coords := [4][4]float32{{0, 0, 0, 1}, {1.0 / 8, 0, 0, 1}, {0, 1.0 / 8, 0, 1}, {1.0 / 8, 1.0 / 8, 0, 1}}
	res, _ := e.sample(s, &quadState{}, 0, r3.TexLODBias, &coords)
	assert.Equal(t, float32(60)/255, res[0][0])
}

func readZ(t *testing.T, d *Device, w, x, y, bpp int) uint32 {
	b := make([]byte, 4)
	require.NoError(t, d.Read(zbAddr+uint32(bpp*(y*w+x)), b[:bpp]))
	return binary.LittleEndian.Uint32(b)
}

func TestDepthStencil(t *testing.T) {
	d := newDev(t)
	var s r3.Stream
	baseline(&s, 8, 8)
	s.Reg(r3.ZB_DEPTHOFFSET, zbAddr, 8)
	s.Reg(r3.ZB_FORMAT, 2)
	// Depth test LESS with writes; stencil ALWAYS, ref 5, ZPASS REPLACE
	// for front faces and INCR_WRAP for back faces.
	s.Reg(r3.ZB_CNTL, 1|2|4|16)
	s.Reg(r3.ZB_ZSTENCILCNTL, 7|7<<3|2<<9|7<<15|6<<21)
	s.Reg(r3.ZB_STENCILREFMASK, 5|0xFF<<8|0xFF<<16)
	full(&s, 8, 8, 0.5, [4]float32{1, 0, 0, 1})
	require.NoError(t, run(t, d, &s))
	z := readZ(t, d, 8, 3, 3, 4)
	// full() runs clockwise on the screen: a back face, INCR_WRAP.
	assert.Equal(t, uint32(0x800000)<<8|1, z, "Z24 = round(0.5 · (2^24-1)), back-face stencil op")
	// A farther quad fails; a nearer one passes.
	s.Reset()
	s.Reg(r3.ZB_ZSTENCILCNTL, 1|7<<3|2<<9|7<<15|6<<21)
	full(&s, 8, 8, 0.75, [4]float32{0, 1, 0, 1})
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, pixel(t, d, 8, 3, 3))
	s.Reset()
	s.Reg(r3.ZB_ZSTENCILCNTL, 2|7<<3|2<<9|7<<15|6<<21) // LEQUAL
	full(&s, 8, 8, 0.5, [4]float32{0, 0, 1, 1})
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, [4]uint8{0, 0, 255, 255}, pixel(t, d, 8, 3, 3))
	// A counter-clockwise (front-facing) quad takes the front operations.
	s.Reset()
	s.Reg(r3.ZB_ZSTENCILCNTL, 7|7<<3|2<<9|7<<15|6<<21)
	v := func(x, y float32) vtx { return vtx{x, y, 0.25, 1, 1, 1, 1} }
	immd(&s, r3.PrimTriangles, v(0, 0), v(0, 8), v(8, 8), v(0, 0), v(8, 8), v(8, 0))
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, uint32(5), readZ(t, d, 8, 3, 3, 4)&0xFF, "front face: REPLACE with 5")
	assert.Equal(t, uint32(0x400000), readZ(t, d, 8, 3, 3, 4)>>8, "round(0.25 · (2^24-1))")
}

func TestZ16AndZPass(t *testing.T) {
	d := newDev(t)
	var s r3.Stream
	baseline(&s, 8, 8)
	s.Reg(r3.ZB_DEPTHOFFSET, zbAddr, 8)
	s.Reg(r3.ZB_FORMAT, 0)
	s.Reg(r3.ZB_CNTL, 2|4)
	s.Reg(r3.ZB_ZSTENCILCNTL, 7)
	s.Reg(r3.ZB_ZPASS_DATA, 0)
	v := func(x, y float32) vtx { return vtx{x, y, 1, 1, 1, 1, 1} }
	immd(&s, r3.PrimTriangles, v(0, 0), v(4, 0), v(4, 4))
	s.Reg(r3.ZB_ZPASS_ADDR, vbAddr)
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, uint32(0xFFFF), readZ(t, d, 8, 3, 0, 2))
	// The 4x4 half-square covers 10 pixel centres with the top-left rule.
	assert.Equal(t, uint32(10), u32(d, vbAddr), "ZB_ZPASS_ADDR wrote the count")
}

// TestShaderDepth: the alpha result goes to the depth FIFO (OMASK_W) and
// replaces the interpolated depth with US_W_FMT W24 and FG_DEPTH_SRC 1
// (fact 41).
func TestShaderDepth(t *testing.T) {
	d := newDev(t)
	var s r3.Stream
	baseline(&s, 8, 8)
	s.Reg(r3.ZB_DEPTHOFFSET, zbAddr, 8)
	s.Reg(r3.ZB_FORMAT, 2)
	s.Reg(r3.ZB_CNTL, 2|4)
	s.Reg(r3.ZB_ZSTENCILCNTL, 7)
	a := movOut(0)
	a.Alpha.Args = [3]r3.Arg{arg(r3.SelAHalf), arg(r3.SelAHalf), arg(r3.SelAZero)} // 0.25
	a.Alpha.DepthOut = true
	program(&s, nil, []r3.ALUInst{a}, 0)
	s.Reg(r3.US_CODE_ADDR_0+12, 1<<22|1<<23)
	s.Reg(r3.US_W_FMT, 1)
	s.Reg(r3.FG_DEPTH_SRC, 1)
	full(&s, 8, 8, 0.9, [4]float32{1, 1, 1, 1})
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, uint32(0x400000), readZ(t, d, 8, 2, 2, 4)>>8, "round(0.25 · (2^24-1)) from the shader")
	s.Reset()
	s.Reg(r3.FG_DEPTH_SRC, 0)
	full(&s, 8, 8, 0.9, [4]float32{1, 1, 1, 1})
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, uint32(15099493), readZ(t, d, 8, 2, 2, 4)>>8, "round(0.9 · (2^24-1)) from the plane")
}
