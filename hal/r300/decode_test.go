package r300

import (
	"math"
	"strings"
	"testing"

	gold "github.com/retrogl/retrogl/internal/golden"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
)

// golden compares lines with testdata/r300/<name>.golden at the
// repository root.
func golden(t *testing.T, name string, lines []string) {
	t.Helper()
	gold.Text(t, gold.Path("r300", name+".golden"), strings.Join(lines, "\n")+"\n")
}

// sampleStream is a small stream that touches every packet type: the
// two-level program of fact 45, a vertex program, an AOS draw, an immediate draw, an indexed
// draw from an index buffer, a filler and the simulator fence.
func sampleStream() *Stream {
	var s Stream
	s.Reg(RB3D_DSTCACHE_CTLSTAT, 0x0A)
	s.Reg(US_CONFIG, 0x9, 2, 0x00040080)
	s.Reg(US_CODE_ADDR_0, 0, 0, 0x40, 0x00401002)
	s.Reg(US_TEX_INST_0, TexInst{Op: TexLD, Src: 0, Dst: 1, Unit: 0}.Encode(), TexInst{Op: TexLD, Src: 2, Dst: 2, Unit: 1}.Encode())
	mov := ALUInst{
		RGB:   Half{Src: [3]uint8{1, 1, 1}, Dst: 2, WMask: 7, Args: [3]Arg{{Sel: SelRGBSrc0}, {Sel: SelRGBOne}, {Sel: SelRGBZero}}},
		Alpha: Half{Src: [3]uint8{1, 1, 1}, Dst: 2, WMask: 1, Args: [3]Arg{{Sel: SelASrc0A}, {Sel: SelAOne}, {Sel: SelAZero}}},
	}
	out := ALUInst{
		RGB:   Half{Src: [3]uint8{2, 32, 0}, OMask: 7, Args: [3]Arg{{Sel: SelRGBSrc0}, {Sel: 4}, {Sel: SelRGBZero}}},
		Alpha: Half{Src: [3]uint8{2, 32, 0}, OMask: 1, Args: [3]Arg{{Sel: SelASrc0A}, {Sel: SelASrc0A + 1}, {Sel: SelAZero}}},
	}
	var ra, aa, ri, ai []uint32
	for _, a := range []ALUInst{mov, mov, out} {
		w0, w1, w2, w3 := a.Encode()
		ra, aa, ri, ai = append(ra, w0), append(aa, w1), append(ri, w2), append(ai, w3)
	}
	s.Reg(US_ALU_RGB_ADDR_0, ra...)
	s.Reg(US_ALU_ALPHA_ADDR_0, aa...)
	s.Reg(US_ALU_RGB_INST_0, ri...)
	s.Reg(US_ALU_ALPHA_INST_0, ai...)
	s.Reg(US_ALU_CONST_R_0, EncodeFP24(1), EncodeFP24(0.5), EncodeFP24(0.25), EncodeFP24(-2))
	// A vertex program: clip position = c0-c3 · v0, colour = v1.
	var code []uint32
	in := func(k uint8) PVSSrc { return PVSSrc{Type: PVSSrcInput, Offset: k, Swz: [4]uint8{0, 1, 2, 3}} }
	for r := uint8(0); r < 4; r++ {
		w := PVSInst{Dst: PVSDst{Op: VEDot4, Type: PVSDstOut, WE: 1 << r}, Src: [3]PVSSrc{{Type: PVSSrcConst, Offset: r, Swz: [4]uint8{0, 1, 2, 3}}, in(0), in(0)}}.Encode()
		code = append(code, w[:]...)
	}
	w := PVSInst{Dst: PVSDst{Op: VEAdd, Type: PVSDstOut, Offset: 1, WE: 15}, Src: [3]PVSSrc{in(1), {Type: PVSSrcInput, Offset: 1, Swz: [4]uint8{4, 4, 4, 4}}, in(1)}}.Encode()
	code = append(code, w[:]...)
	s.Reg(VAP_CNTL_STATUS, 0) // the PVS runs
	s.Reg(VAP_PVS_STATE_FLUSH_REG, 0)
	s.PVSUpload(PVSCodeStart, code)
	s.Reg(VAP_PVS_CODE_CNTL_0, 3<<10|4<<20, 3<<16, 4)
	one := math.Float32bits(1)
	s.PVSUpload(PVSConstStart, []uint32{one, 0, 0, 0, 0, one, 0, 0, 0, 0, one, 0, 0, 0, 0, one})
	s.Reg(VAP_VPORT_XSCALE, math.Float32bits(320), math.Float32bits(320))
	s.RegOne(VAP_PORT_IDX0, 0x00010000, 0x00030002)
	s.Packet3(OpLoadVbpntr, LoadVbpntr([]AOS{{Count: 4, Stride: 8, Addr: 0x1000}, {Count: 4, Stride: 8, Addr: 0x1010}, {Count: 2, Stride: 2, Addr: 0x2000}})...)
	s.Packet3(OpDrawVbuf2, VFCntl(PrimTriangles, WalkList, 3, false))
	s.Words = append(s.Words, Type2)
	s.Reg(VAP_VTX_SIZE, 2)
	s.Packet3(OpDrawImmd2, VFCntl(PrimPoints, WalkData, 1, false), math.Float32bits(1.5), math.Float32bits(-2))
	s.Packet3(OpDrawIndx2, VFCntl(PrimTriangles, WalkIndices, 3, false))
	s.Packet3(OpIndxBuffer, IndxBuffer(0x3000, 2)...)
	s.Packet3(OpDrawIndx2, VFCntl(PrimTriangles, WalkIndices, 3, false), 0x00010000, 0x2)
	s.Fence(0x4000, 7)
	return &s
}

func TestListingGolden(t *testing.T) {
	golden(t, "hal-listing", Listing(sampleStream().Bytes(), 0x100000))
}

func TestDisassembleOneLinePerWord(t *testing.T) {
	s := sampleStream()
	lines := Disassemble(s.Bytes(), 0)
	require.Len(t, lines, len(s.Words))
	assert.Equal(t, "0x00000000  00001393  PKT0 RB3D_DSTCACHE_CTLSTAT count=1", lines[0])
	assert.Equal(t, "0x00000004  0000000a    RB3D_DSTCACHE_CTLSTAT DC_FLUSH=2 DC_FREE=2 DC_FINISH=0", lines[1])
	d, err := hal.LookupDecoder("r300")
	require.NoError(t, err)
	assert.Equal(t, lines, d(s.Bytes(), 0))
}

func TestDecodeDamage(t *testing.T) {
	// A packet that announces more than the buffer holds, a reserved bit
	// and a type-1 packet.
	w := []uint32{Type0(US_CONFIG, 5, false), 1, 0x40000000, Type3(OpNOP, 1) | 0x5}
	var b []byte
	for _, x := range w {
		b = append(b, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
	lines := Disassemble(append(b, 0xAA), 0)
	assert.Equal(t, []string{
		"0x00000000  00041180  PKT0 US_CONFIG count=5 (truncated: 3 dwords left)",
		"0x00000004  00000001    US_CONFIG NLEVEL=1 FIRST_TEX=0",
		"0x00000008  40000000    US_PIXSIZE PIX_SIZE=0 reserved=0x40000000",
		"0x0000000c  c0001005    US_CODE_OFFSET ALU_OFFSET=5 ALU_SIZE=64 TEX_OFFSET=0 TEX_SIZE=0 reserved=0xc0000000",
		"0x00000010  (1 trailing bytes)",
	}, lines)
	assert.Equal(t, "PKT1 (not used on R300)", DecodeHeader(0x40000000))
	assert.Equal(t, "PKT3 NOP count=1 reserved=0x5", DecodeHeader(Type3(OpNOP, 1)|5))
	assert.Equal(t, "REG_0000 0x5 (undefined register)", FormatReg(0, 5))
	assert.Equal(t, "VAP_VPORT_XSCALE 1.5", FormatReg(0x1d98, math.Float32bits(1.5)), "viewport mirror")
}

func FuzzDisassemble(f *testing.F) {
	f.Add(sampleStream().Bytes())
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		lines := Disassemble(b, 0x1000)
		want := len(b) / 4
		if len(b)%4 != 0 {
			want++
		}
		if len(lines) != want {
			t.Fatalf("%d lines for %d bytes", len(lines), len(b))
		}
		_ = Listing(b, 0)
	})
}
