package r300

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// fb is the colour buffer tests draw into.
const (
	fbAddr  = VRAMBase
	zbAddr  = VRAMBase + 0x100000
	txAddr  = VRAMBase + 0x200000
	cmdAddr = GARTBase
	vbAddr  = GARTBase + 0x100000
)

func f(x float32) uint32 { return math.Float32bits(x) }

// movOut is `MAD outA, r0, 1, 0` on both halves.
func movOut(src uint8) r3.ALUInst {
	return r3.ALUInst{
		RGB:   r3.Half{Src: [3]uint8{src, 0, 0}, OMask: 7, Args: [3]r3.Arg{{Sel: r3.SelRGBSrc0}, {Sel: r3.SelRGBOne}, {Sel: r3.SelRGBZero}}},
		Alpha: r3.Half{Src: [3]uint8{src, 0, 0}, OMask: 1, Args: [3]r3.Arg{{Sel: r3.SelASrc0A}, {Sel: r3.SelAOne}, {Sel: r3.SelAZero}}},
	}
}

// program writes a one-level program (TEX insts then ALU insts).
func program(s *r3.Stream, tex []r3.TexInst, alu []r3.ALUInst, pixSize int) {
	cfg := uint32(0)
	if len(tex) > 0 {
		cfg = 8
	}
	s.Reg(r3.US_CONFIG, cfg, uint32(pixSize), uint32(len(alu)-1)<<6|uint32(max(len(tex)-1, 0))<<18)
	ca := uint32(len(alu)-1)<<6 | 1<<22
	if len(tex) > 0 {
		ca |= uint32(len(tex)-1) << 17
	}
	s.Reg(r3.US_CODE_ADDR_0, 0, 0, 0, ca)
	if len(tex) > 0 {
		var w []uint32
		for _, t := range tex {
			w = append(w, t.Encode())
		}
		s.Reg(r3.US_TEX_INST_0, w...)
	}
	var ra, aa, ri, ai []uint32
	for i := range alu {
		a, b, c, d := alu[i].Encode()
		ra, aa, ri, ai = append(ra, a), append(aa, b), append(ri, c), append(ai, d)
	}
	s.Reg(r3.US_ALU_RGB_ADDR_0, ra...)
	s.Reg(r3.US_ALU_ALPHA_ADDR_0, aa...)
	s.Reg(r3.US_ALU_RGB_INST_0, ri...)
	s.Reg(r3.US_ALU_ALPHA_INST_0, ai...)
}

// baseline programs every register a draw needs: a w x h ARGB8888 colour
// buffer, PVS bypass with window-space positions (x, y, z, 1/w) and one
// colour (both FLOAT_4), Gouraud colour into r0 and `MOV outA, r0`.
func baseline(s *r3.Stream, w, h int) {
	s.Reg(r3.RB3D_DSTCACHE_CTLSTAT, 0x0A)
	s.Reg(r3.GB_TILE_CONFIG, r3.Fields(r3.GB_TILE_CONFIG, "ENABLE", 1, "PIPE_COUNT", 3, "TILE_SIZE", 1, "SUBPIXEL", 1))
	s.Reg(r3.RB3D_COLOROFFSET0, fbAddr)
	s.Reg(r3.RB3D_COLORPITCH0, r3.Fields(r3.RB3D_COLORPITCH0, "COLORPITCH", w/2, "COLORFORMAT", 6))
	s.Reg(r3.US_OUT_FMT_0, 0x1B00, 15, 15, 15)
	s.Reg(r3.RB3D_COLOR_CHANNEL_MASK, 0xF)
	s.Reg(r3.SC_EDGERULE, 5|5<<5|5<<10|5<<15|5<<20|5<<25)
	s.Reg(r3.SC_SCISSOR0, 0, uint32(w-1)|uint32(h-1)<<13)
	s.Reg(r3.SC_CLIP_RULE, 0xFFFF)
	s.Reg(r3.SC_SCREENDOOR, 0xFFFFFF)
	s.Reg(r3.VAP_CNTL_STATUS, 1<<8)
	s.Reg(r3.VAP_CLIP_CNTL, 1<<16)
	s.Reg(r3.VAP_VTE_CNTL, 0x300)
	s.Reg(r3.VAP_VF_MAX_VTX_INDX, 0xFFFFFF, 0)
	s.Reg(r3.VAP_PROG_STREAM_CNTL_0, r3.Fields(r3.VAP_PROG_STREAM_CNTL_0, "DATA_TYPE_0", 3, "DST_VEC_LOC_0", 0, "DATA_TYPE_1", 3, "DST_VEC_LOC_1", 1, "LAST_VEC_1", 1))
	s.Reg(r3.VAP_PROG_STREAM_CNTL_EXT, 0xF688F688)
	s.Reg(r3.VAP_OUT_VTX_FMT_0, 3, 0)
	s.Reg(r3.VAP_VTX_SIZE, 8)
	s.Reg(r3.GA_COLOR_CONTROL, 0xA|3<<16)
	s.Reg(r3.SU_DEPTH_SCALE, f(16777215), 0)
	s.Reg(r3.RS_COUNT, 1<<7, 0)
	s.Reg(r3.RS_IP_0, 0)
	s.Reg(r3.RS_INST_0, r3.Fields(r3.RS_INST_0, "COL_CN", 1, "COL_ADDR", 0))
	program(s, nil, []r3.ALUInst{movOut(0)}, 0)
}

// vtx is a window-space vertex with a colour.
type vtx struct {
	x, y, z    float32
	r, g, b, a float32
}

func immd(s *r3.Stream, prim r3.PrimType, vs ...vtx) {
	p := []uint32{r3.VFCntl(prim, r3.WalkData, len(vs), false)}
	for _, v := range vs {
		p = append(p, f(v.x), f(v.y), f(v.z), f(1), f(v.r), f(v.g), f(v.b), f(v.a))
	}
	s.Packet3(r3.OpDrawImmd2, p...)
}

// run submits a stream and waits; it returns the device for inspection.
func run(t *testing.T, d *Device, s *r3.Stream) error {
	t.Helper()
	b := s.Bytes()
	require.NoError(t, d.Write(cmdAddr, b))
	fence, err := d.Submit(hal.Buffer{Addr: cmdAddr, Size: uint32(len(b))})
	require.NoError(t, err)
	return d.Wait(fence)
}

// pixel reads an ARGB8888 pixel as R, G, B, A.
func pixel(t *testing.T, d *Device, w, x, y int) [4]uint8 {
	t.Helper()
	var b [4]byte
	require.NoError(t, d.Read(fbAddr+uint32(4*(y*w+x)), b[:]))
	return [4]uint8{b[2], b[1], b[0], b[3]}
}

func u32(d *Device, addr uint32) uint32 {
	var b [4]byte
	_ = d.Read(addr, b[:])
	return binary.LittleEndian.Uint32(b[:])
}
