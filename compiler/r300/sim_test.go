package r300

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/compiler/ir"
	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
	sim "github.com/retrogl/retrogl/sim/r300"
)

// texture is a test texture for unit 0: 4x4 RGBA8, nearest, repeat.
var testTexture = func() []byte {
	b := make([]byte, 64)
	for i := range b {
		b[i] = uint8(i*37 + 11)
	}
	return b
}()

// sampleTest is the interpreter's view of testTexture (unit 0 only; other
// units are disabled and sample (0, 0, 0, 1), L1295).
func sampleTest(unit int, _ ir.TexTarget, op ir.Op, c [4]float32) [4]float32 {
	if unit != 0 {
		return [4]float32{0, 0, 0, 1}
	}
	s, t := float64(c[0]), float64(c[1])
	if op == ir.TXP {
		s, t = s/float64(c[3]), t/float64(c[3])
	}
	x := int(math.Floor(s*4)) & 3
	y := int(math.Floor(t*4)) & 3
	var out [4]float32
	for k := 0; k < 4; k++ {
		out[k] = float32(float64(testTexture[4*(y*4+x)+k]) / 255)
	}
	return out
}

// runOnSim draws one point per input set with the compiled program and
// returns the colour output of each (killed pixels report ok false).
func runOnSim(t *testing.T, p *Program, uniforms map[string][4]float32, pixels [][][4]float32) (out [][4]float32, ok []bool) {
	t.Helper()
	d := sim.New()
	defer d.Close()
	const (
		fb  = sim.VRAMBase
		tx  = sim.VRAMBase + 0x100000
		cmd = sim.GARTBase
	)
	w := len(pixels)
	// Sentinel: all ones (a NaN) marks untouched pixels.
	sent := make([]byte, 16*w)
	for i := range sent {
		sent[i] = 0xFF
	}
	require.NoError(t, d.Write(fb, sent))
	// The texture layout pads rows to 32 bytes (r3.TexLayout).
	for y := 0; y < 4; y++ {
		require.NoError(t, d.Write(tx+uint32(32*y), testTexture[16*y:16*y+16]))
	}
	var s r3.Stream
	s.Reg(r3.GB_TILE_CONFIG, r3.Fields(r3.GB_TILE_CONFIG, "SUBPIXEL", 1))
	s.Reg(r3.RB3D_COLOROFFSET0, fb)
	s.Reg(r3.RB3D_COLORPITCH0, r3.Fields(r3.RB3D_COLORPITCH0, "COLORPITCH", (w+1)/2, "COLORFORMAT", 7))
	s.Reg(r3.US_OUT_FMT_0, r3.Fields(r3.US_OUT_FMT_0, "OUT_FMT", 21, "C0_SEL", 1, "C1_SEL", 2, "C2_SEL", 3, "C3_SEL", 0), 15, 15, 15)
	s.Reg(r3.RB3D_COLOR_CHANNEL_MASK, 0xF)
	s.Reg(r3.SC_EDGERULE, 0xA5294A5)
	s.Reg(r3.SC_SCISSOR0, 0, uint32(w-1))
	s.Reg(r3.SC_CLIP_RULE, 0xFFFF)
	s.Reg(r3.SC_SCREENDOOR, 0xFFFFFF)
	s.Reg(r3.VAP_CNTL_STATUS, 1<<8)
	s.Reg(r3.VAP_CLIP_CNTL, 1<<16)
	s.Reg(r3.VAP_VTE_CNTL, 0x300)
	s.Reg(r3.GA_POINT_SIZE, 8<<16|8)
	// Inputs arrive as texture coordinates (unclamped): position in
	// vector 0, input i in vector i+1.
	n := len(p.Inputs)
	var stream []uint32
	for e := 0; e <= n; e++ {
		el := uint32(3) | uint32(e)<<8
		if e == n {
			el |= 1 << 13
		}
		if e%2 == 0 {
			stream = append(stream, el)
		} else {
			stream[len(stream)-1] |= el << 16
		}
	}
	s.Reg(r3.VAP_PROG_STREAM_CNTL_0, stream...)
	ext := make([]uint32, len(stream))
	for i := range ext {
		ext[i] = 0xF688F688
	}
	s.Reg(r3.VAP_PROG_STREAM_CNTL_EXT, ext...)
	fmt1 := uint32(0)
	for i := 0; i < n; i++ {
		fmt1 |= 4 << (3 * uint(i))
	}
	s.Reg(r3.VAP_OUT_VTX_FMT_0, 1, fmt1)
	s.Reg(r3.VAP_VTX_SIZE, uint32(4+4*n))
	s.Reg(r3.RS_COUNT, uint32(4*n))
	var ip, rsi []uint32
	for i := 0; i < n; i++ {
		ip = append(ip, 0x00D10000|uint32(4*i))
		if p.InputTemp[i] >= 0 {
			rsi = append(rsi, uint32(len(ip)-1)|1<<3|uint32(p.InputTemp[i])<<6)
		}
	}
	if len(rsi) == 0 {
		rsi = []uint32{0}
	}
	if len(ip) > 0 {
		s.Reg(r3.RS_IP_0, ip...)
	}
	s.Reg(r3.RS_INST_COUNT, uint32(len(rsi)-1))
	s.Reg(r3.RS_INST_0, rsi...)
	for _, wv := range p.Words() {
		s.Reg(wv[0], wv[1])
	}
	cv, err := p.ConstValues(uniforms)
	require.NoError(t, err)
	for k, v := range cv {
		s.Reg(r3.US_ALU_CONST_R_0+16*uint32(k), r3.EncodeFP24(v[0]), r3.EncodeFP24(v[1]), r3.EncodeFP24(v[2]), r3.EncodeFP24(v[3]))
	}
	if p.Units&1 != 0 {
		s.Reg(r3.TX_ENABLE, 1)
		s.Reg(r3.TX_FILTER0_0, r3.Fields(r3.TX_FILTER0_0, "MAG_FILTER", 1, "MIN_FILTER", 1))
		s.Reg(r3.TX_FORMAT0_0, r3.Fields(r3.TX_FORMAT0_0, "TXWIDTH", 3, "TXHEIGHT", 3))
		s.Reg(r3.TX_FORMAT1_0, 0x0008860C)
		s.Reg(r3.TX_OFFSET_0, tx)
	}
	vf := []uint32{r3.VFCntl(r3.PrimPoints, r3.WalkData, w, false)}
	for x, in := range pixels {
		vf = append(vf, math.Float32bits(float32(x)+0.5), math.Float32bits(0.5), 0, math.Float32bits(1))
		for i := 0; i < n; i++ {
			for c := 0; c < 4; c++ {
				vf = append(vf, math.Float32bits(in[i][c]))
			}
		}
	}
	s.Packet3(r3.OpDrawImmd2, vf...)
	b := s.Bytes()
	require.NoError(t, d.Write(cmd, b))
	f, err := d.Submit(hal.Buffer{Addr: cmd, Size: uint32(len(b))})
	require.NoError(t, err)
	require.NoError(t, d.Wait(f))
	raw := make([]byte, 16*w)
	require.NoError(t, d.Read(fb, raw))
	out = make([][4]float32, w)
	ok = make([]bool, w)
	for x := range out {
		ok[x] = binary.LittleEndian.Uint32(raw[16*x:]) != 0xFFFFFFFF
		for c := 0; c < 4; c++ {
			out[x][c] = math.Float32frombits(binary.LittleEndian.Uint32(raw[16*x+4*c:]))
		}
	}
	return out, ok
}
