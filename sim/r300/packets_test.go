package r300

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

func TestFaults(t *testing.T) {
	tests := []struct {
		name   string
		build  func(s *r3.Stream)
		reason string
		offset uint32
	}{
		{"undefined register", func(s *r3.Stream) { s.Reg(0x4000, 1) }, "undefined register 0x4000", 0},
		{"type 1", func(s *r3.Stream) { s.Words = append(s.Words, 0x40000000) }, "type-1", 0},
		{"reserved type-0 bits", func(s *r3.Stream) { s.Words = append(s.Words, r3.Type0(r3.US_CONFIG, 1, false)|0x2000, 0) }, "reserved header bits", 0},
		{"unknown opcode", func(s *r3.Stream) { s.Packet3(0x77, 0) }, "unknown type-3 opcode 0x77", 0},
		{"truncated", func(s *r3.Stream) { s.Words = append(s.Words, r3.Type0(r3.US_CONFIG, 4, false), 0) }, "announces 4 dwords", 0},
		{"LOAD_VBPNTR size", func(s *r3.Stream) { s.Packet3(r3.OpLoadVbpntr, 2, 0, 0) }, "needs 4 dwords", 0},
		{"walk mismatch", func(s *r3.Stream) {
			s.Reg(r3.RB3D_CCTL, 0)
			s.Packet3(r3.OpDrawVbuf2, r3.VFCntl(r3.PrimTriangles, r3.WalkData, 3, false))
		}, "needs PRIM_WALK VTX_LIST", 8},
		{"missing INDX_BUFFER", func(s *r3.Stream) {
			s.Packet3(r3.OpDrawIndx2, r3.VFCntl(r3.PrimTriangles, r3.WalkIndices, 3, false))
			s.Words = append(s.Words, r3.Type2)
		}, "not INDX_BUFFER", 0},
		{"lone INDX_BUFFER", func(s *r3.Stream) { s.Packet3(r3.OpIndxBuffer, r3.IndxBuffer(GARTBase, 1)...) }, "must follow", 0},
		{"PVS position instruction outside the program", func(s *r3.Stream) {
			baseline(s, 4, 4)
			s.Reg(r3.VAP_CNTL_STATUS, 0)
			s.Reg(r3.VAP_PVS_CODE_CNTL_0, 2<<20|5<<10)
			full(s, 4, 4, 0, [4]float32{1, 1, 1, 1})
		}, "PVS_XYZW_VALID_INST 5 lies outside instructions 0-2", 0},
		{"tiled colour buffer", func(s *r3.Stream) {
			baseline(s, 4, 4)
			s.Reg(r3.RB3D_COLORPITCH0, 4|1<<16|6<<21)
			full(s, 4, 4, 0, [4]float32{1, 1, 1, 1})
		}, "tiled or byte-swapped colour buffers are not simulated", 0},
		{"vertex outside memory", func(s *r3.Stream) {
			baseline(s, 4, 4)
			s.Packet3(r3.OpLoadVbpntr, r3.LoadVbpntr([]r3.AOS{{Count: 8, Stride: 8, Addr: 0x1000}})...)
			s.Packet3(r3.OpDrawVbuf2, r3.VFCntl(r3.PrimTriangles, r3.WalkList, 3, false))
		}, "lies outside memory", 0},
		{"reserved ALU opcode", func(s *r3.Stream) {
			baseline(s, 4, 4)
			a := movOut(0)
			a.RGB.Op = 6
			program(s, nil, []r3.ALUInst{a}, 0)
			full(s, 4, 4, 0, [4]float32{1, 1, 1, 1})
		}, "US_ALU_RGB_INST_0: OP 6 is reserved", 0},
	}
	for _, tc := range tests {
		d := newDev(t)
		var s r3.Stream
		tc.build(&s)
		err := run(t, d, &s)
		require.Error(t, err, tc.name)
		f, ok := hal.AsFault(err)
		require.True(t, ok, tc.name)
		assert.Contains(t, f.Reason, tc.reason, tc.name)
		assert.Equal(t, "r300", f.Chip)
		assert.NotEmpty(t, f.Decoded, tc.name)
		if tc.offset != 0 {
			assert.Equal(t, tc.offset, f.Offset, tc.name)
		}
		// The device stays usable after a fault.
		s.Reset()
		s.Reg(r3.RB3D_CCTL, 0)
		assert.NoError(t, run(t, d, &s), tc.name)
	}
}

func TestWatchdog(t *testing.T) {
	d := NewWith(Config{Budget: 50})
	defer d.Close()
	var s r3.Stream
	baseline(&s, 64, 64)
	full(&s, 64, 64, 0, [4]float32{1, 1, 1, 1})
	err := run(t, d, &s)
	f, ok := hal.AsFault(err)
	require.True(t, ok)
	assert.Contains(t, f.Reason, "watchdog")
}

// TestDrawPaths draws the same two triangles through IMMD, VBUF with
// LOAD_VBPNTR, indexed with inline 16-bit indices, and indexed from an
// INDX_BUFFER with 32-bit indices: the images must agree.
func TestDrawPaths(t *testing.T) {
	verts := []vtx{{0, 0, 0, 1, 0, 0, 1}, {8, 0, 0, 0, 1, 0, 1}, {8, 8, 0, 0, 0, 1, 1}, {0, 8, 0, 1, 1, 1, 1}}
	var vb []byte
	for _, v := range verts {
		for _, x := range []float32{v.x, v.y, v.z, 1, v.r, v.g, v.b, v.a} {
			u := math.Float32bits(x)
			vb = append(vb, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
		}
	}
	ib := []byte{0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}
	images := map[string][]byte{}
	for _, path := range []string{"immd", "vbuf", "indx", "indxbuf"} {
		d := newDev(t)
		require.NoError(t, d.Write(vbAddr, vb))
		require.NoError(t, d.Write(vbAddr+0x1000, ib))
		var s r3.Stream
		baseline(&s, 8, 8)
		aos := r3.LoadVbpntr([]r3.AOS{{Count: 8, Stride: 8, Addr: vbAddr}})
		switch path {
		case "immd":
			immd(&s, r3.PrimTriangles, verts[0], verts[1], verts[2], verts[0], verts[2], verts[3])
		case "vbuf":
			s.Packet3(r3.OpLoadVbpntr, aos...)
			s.Packet3(r3.OpDrawVbuf2, r3.VFCntl(r3.PrimTriangleFan, r3.WalkList, 4, false))
		case "indx":
			s.Packet3(r3.OpLoadVbpntr, aos...)
			s.Packet3(r3.OpDrawIndx2, r3.VFCntl(r3.PrimTriangles, r3.WalkIndices, 6, false), 0x00010000, 0x00000002, 0x00030002)
		case "indxbuf":
			s.Packet3(r3.OpLoadVbpntr, aos...)
			s.Packet3(r3.OpDrawIndx2, r3.VFCntl(r3.PrimTriangles, r3.WalkIndices, 6, true))
			s.Packet3(r3.OpIndxBuffer, r3.IndxBuffer(vbAddr+0x1000, 6)...)
		}
		s.Fence(vbAddr+0x2000, 0xF00D)
		require.NoError(t, run(t, d, &s), path)
		img := make([]byte, 4*64)
		require.NoError(t, d.Read(fbAddr, img))
		images[path] = img
		assert.Equal(t, uint32(0xF00D), u32(d, vbAddr+0x2000), "SIM_FENCE")
	}
	for _, p := range []string{"vbuf", "indx", "indxbuf"} {
		assert.Equal(t, images["immd"], images[p], p)
	}
	// Pixel (0, 0) samples at (0.5, 0.5): red 15/16, blue 1/16.
	assert.Equal(t, [4]byte{239, 0, 16, 255}, [4]byte{images["immd"][2], images["immd"][1], images["immd"][0], images["immd"][3]})
}

// TestTopLeftRule: a quad split along its diagonal covers every pixel once
// (additive blending would show a double hit).
func TestTopLeftRule(t *testing.T) {
	d := newDev(t)
	var s r3.Stream
	baseline(&s, 16, 16)
	s.Reg(r3.RB3D_BLENDCNTL, 0x21210005) // ONE, ONE add
	c := [4]float32{0.25, 0.25, 0.25, 0.25}
	v := func(x, y float32) vtx { return vtx{x, y, 0, c[0], c[1], c[2], c[3]} }
	immd(&s, r3.PrimTriangles, v(1.3, 2.1), v(14.7, 1.9), v(13.2, 14.5), v(1.3, 2.1), v(13.2, 14.5), v(2.2, 13.7))
	require.NoError(t, run(t, d, &s))
	hit := 0
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			p := pixel(t, d, 16, x, y)
			assert.Contains(t, []uint8{0, 64}, p[0], "pixel (%d, %d) hit twice", x, y)
			if p[0] == 64 {
				hit++
			}
		}
	}
	assert.Greater(t, hit, 120)
}

func TestScissorClipRectsScreendoor(t *testing.T) {
	d := newDev(t)
	var s r3.Stream
	baseline(&s, 8, 8)
	s.Reg(r3.SC_SCISSOR0, 1|2<<13, 5|6<<13) // x 1..5, y 2..6 inclusive
	// Clip rectangle 0 = x 0..3: rule 0xAAAA shows pixels inside rect 0.
	s.Reg(r3.SC_CLIP_0_A, 0, 3|7<<13)
	s.Reg(r3.SC_CLIP_RULE, 0xAAAA)
	full(&s, 8, 8, 0, [4]float32{1, 1, 1, 1})
	require.NoError(t, run(t, d, &s))
	covered := func(x, y int) bool { return pixel(t, d, 8, x, y)[0] == 255 }
	assert.True(t, covered(1, 2))
	assert.True(t, covered(3, 6))
	assert.False(t, covered(4, 4), "outside clip rectangle 0")
	assert.False(t, covered(0, 4), "left of the scissor")
	assert.False(t, covered(2, 7), "below the scissor")
	// SC_SCREENDOOR bit 0 clear draws nothing.
	s.Reset()
	s.Reg(r3.SC_SCREENDOOR, 0)
	full(&s, 8, 8, 0, [4]float32{0, 0, 1, 1})
	require.NoError(t, run(t, d, &s))
	assert.True(t, covered(1, 2))
}

func TestClipping(t *testing.T) {
	d := newDev(t)
	var s r3.Stream
	baseline(&s, 8, 8)
	// Clip-space positions: VTE as fact 15, the viewport maps -1..1 to
	// 0..8; clipping on with no guard band.
	s.Reg(r3.VAP_CLIP_CNTL, 0)
	s.Reg(r3.VAP_VTE_CNTL, 0x43F)
	s.Reg(r3.VAP_VPORT_XSCALE, f(4), f(4), f(4), f(4), f(0.5), f(0.5))
	s.Reg(r3.VAP_GB_VERT_CLIP_ADJ, f(1), f(1), f(1), f(1))
	// A triangle reaching z = 3 (beyond the far plane at z = w = 1) is
	// cut: only the part with z <= 1 draws.
	p := func(x, y, z float32) []uint32 { return []uint32{f(x), f(y), f(z), f(1), f(1), f(1), f(1), f(1)} }
	data := []uint32{r3.VFCntl(r3.PrimTriangles, r3.WalkData, 3, false)}
	data = append(data, p(-1, -1, 0)...)
	data = append(data, p(3, -1, 3)...)
	data = append(data, p(-1, 3, 0)...)
	s.Packet3(r3.OpDrawImmd2, data...)
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, uint8(255), pixel(t, d, 8, 1, 1)[0])
	assert.Equal(t, uint8(0), pixel(t, d, 8, 5, 1)[0], "x = 0.25 in NDC has z = 1.87: clipped")
}

func TestPrimitiveTypes(t *testing.T) {
	count := func(prim r3.PrimType, vs ...vtx) int {
		d := newDev(t)
		var s r3.Stream
		baseline(&s, 16, 16)
		s.Reg(r3.GA_POINT_SIZE, 8|8<<16)
		s.Reg(r3.GA_LINE_CNTL, 8|2<<16)
		immd(&s, prim, vs...)
		require.NoError(t, run(t, d, &s))
		n := 0
		for y := 0; y < 16; y++ {
			for x := 0; x < 16; x++ {
				if pixel(t, d, 16, x, y)[3] != 0 {
					n++
				}
			}
		}
		return n
	}
	w := func(x, y float32) vtx { return vtx{x, y, 0, 1, 1, 1, 1} }
	assert.Equal(t, 3, count(r3.PrimPoints, w(1.5, 1.5), w(5.5, 5.5), w(9.5, 9.5)))
	assert.Equal(t, 8, count(r3.PrimLines, w(0, 2.5), w(8, 2.5)))
	// 8 + 8 pixels sharing the corner (7, 2).
	assert.Equal(t, 15, count(r3.PrimLineStrip, w(0, 2.5), w(8, 2.5), w(8, 10.5)))
	assert.Equal(t, 64, count(r3.PrimQuads, w(0, 0), w(8, 0), w(8, 8), w(0, 8)))
	assert.Equal(t, 64, count(r3.PrimTriangleStrip, w(0, 0), w(8, 0), w(0, 8), w(8, 8)))
	assert.Equal(t, 64, count(r3.PrimPolygon, w(0, 0), w(8, 0), w(8, 8), w(0, 8)))
	assert.Equal(t, 96, count(r3.PrimQuadStrip, w(0, 0), w(0, 8), w(8, 0), w(8, 8), w(12, 0), w(12, 8)))
	assert.Equal(t, 21, count(r3.PrimLineLoop, w(0.5, 0.5), w(8.5, 0.5), w(8.5, 6.5)))
}

// TestLineStipple: with line stuffing, texture 0's S runs along the line
// as the stipple accumulator times STIPPLE_SCALE, continuing across a
// strip (LINE_RESET 0) or restarting per line (1).
func TestLineStipple(t *testing.T) {
	for _, reset := range []uint32{0, 1} {
		d := newDev(t)
		var s r3.Stream
		baseline(&s, 32, 8)
		s.Reg(r3.VAP_PROG_STREAM_CNTL_0, r3.Fields(r3.VAP_PROG_STREAM_CNTL_0, "DATA_TYPE_0", 3, "DST_VEC_LOC_0", 0, "DATA_TYPE_1", 3, "DST_VEC_LOC_1", 1),
			r3.Fields(r3.VAP_PROG_STREAM_CNTL_0, "DATA_TYPE_0", 3, "DST_VEC_LOC_0", 2, "LAST_VEC_0", 1))
		s.Reg(r3.VAP_PROG_STREAM_CNTL_EXT, 0xF688F688, 0xF688)
		s.Reg(r3.VAP_OUT_VTX_FMT_0, 3, 4)
		s.Reg(r3.VAP_VTX_SIZE, 12)
		s.Reg(r3.RS_COUNT, 4|1<<7)
		s.Reg(r3.RS_IP_0, 0x00D10000)
		s.Reg(r3.RS_INST_0, r3.Fields(r3.RS_INST_0, "TEX_CN", 1, "TEX_ADDR", 0))
		s.Reg(r3.GB_ENABLE, 2|1<<16)
		// Scale 1/256: S grows by 1/16 per pixel (16 subpixels).
		s.Reg(r3.GA_LINE_STIPPLE_CFG, math.Float32bits(1.0/256)&^3|reset)
		s.Reg(r3.GA_LINE_CNTL, 8|2<<16)
		p := []uint32{r3.VFCntl(r3.PrimLineStrip, r3.WalkData, 3, false)}
		for _, xy := range [][2]float32{{0, 2.5}, {8, 2.5}, {16, 2.5}} {
			p = append(p, f(xy[0]), f(xy[1]), 0, f(1), f(1), f(1), f(1), f(1), 0, 0, 0, f(1))
		}
		s.Packet3(r3.OpDrawImmd2, p...)
		require.NoError(t, run(t, d, &s))
		// Pixel x samples at x+0.5: S = (x+0.5)/16 on the first segment;
		// on the second it continues from 0.5 or restarts at 0.
		// (C4_8 rounds the output to 8 bits.)
		assert.Equal(t, uint8(8), pixel(t, d, 32, 0, 2)[0], "reset %d", reset)
		want := uint8(math.Round((8.5 / 16) * 255)) // continues
		if reset == 1 {
			want = uint8(math.Round((0.5 / 16) * 255))
		}
		assert.Equal(t, want, pixel(t, d, 32, 8, 2)[0], "reset %d", reset)
	}
}
