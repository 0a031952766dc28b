package r300

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var xyzw = [4]uint8{PVSSelX, PVSSelY, PVSSelZ, PVSSelW}

func src(t PVSSrcType, off uint8) PVSSrc { return PVSSrc{Type: t, Offset: off, Swz: xyzw} }

// TestPVSWords pins PVS instruction words to literal values worked out by
// hand from Mesa's r300_reg.h field positions and r3xx_vertprog.c's
// encoder (the words Mesa would emit for the same instruction).
func TestPVSWords(t *testing.T) {
	zero := PVSSrc{Type: PVSSrcInput, Swz: [4]uint8{4, 4, 4, 4}} // Mesa's __CONST(0, ZERO) for an input A
	tests := []struct {
		name string
		in   PVSInst
		want [4]uint32
		text string
	}{
		{
			"MOV o0, v0 (ADD with a zero B, ei_vector1)",
			PVSInst{Dst: PVSDst{Op: VEAdd, Type: PVSDstOut, WE: 15}, Src: [3]PVSSrc{src(PVSSrcInput, 0), zero, zero}},
			[4]uint32{0x00F00203, 0x00D10001, 0x01248001, 0x01248001},
			"add o0, v0, v0.0000",
		},
		{
			"DP4 o0.x, c0, v0",
			PVSInst{Dst: PVSDst{Op: VEDot4, Type: PVSDstOut, WE: 1}, Src: [3]PVSSrc{src(PVSSrcConst, 0), src(PVSSrcInput, 0), zero}},
			[4]uint32{0x00100201, 0x00D10002, 0x00D10001, 0x01248001},
			"dp4 o0.x, c0, v0",
		},
		{
			"EX2 r1, r0.w (math engine, scalar operand replicated)",
			PVSInst{Dst: PVSDst{Op: MEEx2, Math: true, Type: PVSDstTemp, Offset: 1, WE: 15},
				Src: [3]PVSSrc{{Swz: [4]uint8{3, 3, 3, 3}}, {Swz: [4]uint8{4, 4, 4, 4}}, {Swz: [4]uint8{4, 4, 4, 4}}}},
			[4]uint32{0x00F0204B, 0x00DB6000, 0x01248000, 0x01248000},
			"ex2 r1, r0.wwww",
		},
		{
			"ARL a0.x, v2.x (VE_FLT2FIX_DX)",
			PVSInst{Dst: PVSDst{Op: VEFlt2Fix, Type: PVSDstA0, WE: 1}, Src: [3]PVSSrc{{Type: PVSSrcInput, Offset: 2}, zero, zero}},
			[4]uint32{0x0010010D, 0x00000041, 0x01248001, 0x01248001},
			"arl a0.x, v2.xxxx",
		},
		{
			"MUL r3.xyz, c[a0.x+4], -|r2|",
			PVSInst{Dst: PVSDst{Op: VEMul, Offset: 3, WE: 7},
				Src: [3]PVSSrc{{Type: PVSSrcConst, AddrMode: PVSAddrA0, Offset: 4, Swz: xyzw}, {Type: PVSSrcTemp, Offset: 2, Abs: true, Neg: 15, Swz: xyzw}, zero}},
			[4]uint32{0x00706002, 0x00D10092, 0x1ED10048, 0x01248001},
			"mul r3.xyz, c[a0.x+4], -|r2|",
		},
		{
			"ADD r0, c[aL+2].yxzw, r1.x-y0-1 (loop-index relative, mixed negation)",
			PVSInst{Dst: PVSDst{Op: VEAdd, WE: 15},
				Src: [3]PVSSrc{{Type: PVSSrcConst, AddrMode: PVSAddrLoop, Offset: 2, Swz: [4]uint8{1, 0, 2, 3}}, {Type: PVSSrcTemp, Offset: 1, Swz: [4]uint8{0, 1, 4, 5}, Neg: 10}, zero}},
			[4]uint32{0x00F00003, 0x80D02042, 0x15610020, 0x01248001},
			"add r0, c[aL+2].yxzw, r1.x-y0-1",
		},
		{
			"MAD r0, r1, r2, r3 as the 2-clock macro (three temporaries, ei_mad)",
			PVSInst{Dst: PVSDst{Op: MacroMad, Macro: true, WE: 15}, Src: [3]PVSSrc{src(PVSSrcTemp, 1), src(PVSSrcTemp, 2), src(PVSSrcTemp, 3)}},
			[4]uint32{0x00F00080, 0x00D10020, 0x00D10040, 0x00D10060},
			"mad2 r0, r1, r2, r3",
		},
		{
			"POW r5.x, r4.x, c1.y: base in A, exponent in C (ei_pow)",
			PVSInst{Dst: PVSDst{Op: MEPow, Math: true, Offset: 5, WE: 1},
				Src: [3]PVSSrc{{Offset: 4}, {Offset: 4, Swz: [4]uint8{4, 4, 4, 4}}, {Type: PVSSrcConst, Offset: 1, Swz: [4]uint8{1, 1, 1, 1}}}},
			[4]uint32{0x0010A045, 0x00000080, 0x01248080, 0x00492022},
			"pow r5.x, r4.xxxx, c1.yyyy",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.in.Encode()
			assert.Equal(t, tc.want, got, "words %#08x", got)
			assert.Equal(t, tc.in, DecodePVS(tc.want))
			assert.Equal(t, tc.text, tc.in.String())
		})
	}
}

// TestPVSFieldBits pins each flag of the destination and operand words to
// its bit ([OUT] R300_PVS_DST_* and R300_PVS_SRC_*).
func TestPVSFieldBits(t *testing.T) {
	dst := []struct {
		d    PVSDst
		want uint32
	}{
		{PVSDst{Math: true}, 1 << 6},
		{PVSDst{Macro: true}, 1 << 7},
		{PVSDst{Type: 15}, 15 << 8},
		{PVSDst{AddrMode: PVSAddrLoop}, 1 << 12},
		{PVSDst{AddrMode: PVSAddrA0}, 1 << 31},
		{PVSDst{Offset: 127}, 127 << 13},
		{PVSDst{WE: 8}, 1 << 23},
		{PVSDst{VESat: true}, 1 << 24},
		{PVSDst{MESat: true}, 1 << 25},
		{PVSDst{PredEnable: true}, 1 << 26},
		{PVSDst{PredSense: true}, 1 << 27},
		{PVSDst{DualMath: true}, 1 << 28},
		{PVSDst{AddrSel: 3}, 3 << 29},
	}
	for _, tc := range dst {
		assert.Equal(t, tc.want, tc.d.Encode(), "%+v", tc.d)
	}
	srcs := []struct {
		s    PVSSrc
		want uint32
	}{
		{PVSSrc{Type: 3}, 3},
		{PVSSrc{Spare: true}, 1 << 2},
		{PVSSrc{Abs: true}, 1 << 3},
		{PVSSrc{AddrMode: PVSAddrA0}, 1 << 4},
		{PVSSrc{AddrMode: PVSAddrLoop}, 1 << 31},
		{PVSSrc{Offset: 255}, 255 << 5},
		{PVSSrc{Swz: [4]uint8{7, 0, 0, 0}}, 7 << 13},
		{PVSSrc{Swz: [4]uint8{0, 0, 0, 7}}, 7 << 22},
		{PVSSrc{Neg: 1}, 1 << 25},
		{PVSSrc{Neg: 8}, 1 << 28},
		{PVSSrc{AddrSel: 2}, 2 << 29},
	}
	for _, tc := range srcs {
		assert.Equal(t, tc.want, tc.s.Encode(), "%+v", tc.s)
	}
}

// TestPVSOpcodeNumbers pins the opcode numbers of Mesa's r300_reg.h.
func TestPVSOpcodeNumbers(t *testing.T) {
	ve := map[string]int{"VE_DOT_PRODUCT": 1, "VE_MULTIPLY": 2, "VE_ADD": 3, "VE_MULTIPLY_ADD": 4, "VE_DISTANCE_VECTOR": 5,
		"VE_FRACTION": 6, "VE_MAXIMUM": 7, "VE_MINIMUM": 8, "VE_SET_GREATER_THAN_EQUAL": 9, "VE_SET_LESS_THAN": 10,
		"VE_MULTIPLYX2_ADD": 11, "VE_MULTIPLY_CLAMP": 12, "VE_FLT2FIX_DX": 13, "VE_FLT2FIX_DX_RND": 14,
		"VE_PRED_SET_EQ_PUSH": 15, "VE_SET_NOT_EQUAL": 28}
	for name, op := range ve {
		assert.Equal(t, name, PVSVectorOps[op].Name)
	}
	me := map[string]int{"ME_EXP_BASE2_DX": 1, "ME_LOG_BASE2_DX": 2, "ME_EXP_BASEE_FF": 3, "ME_LIGHT_COEFF_DX": 4,
		"ME_POWER_FUNC_FF": 5, "ME_RECIP_DX": 6, "ME_RECIP_FF": 7, "ME_RECIP_SQRT_DX": 8, "ME_RECIP_SQRT_FF": 9,
		"ME_MULTIPLY": 10, "ME_EXP_BASE2_FULL_DX": 11, "ME_LOG_BASE2_FULL_DX": 12, "ME_SIN": 16, "ME_COS": 17,
		"ME_LOG_BASE2_IEEE": 18, "ME_PRED_SET_RESTORE": 28}
	for name, op := range me {
		assert.Equal(t, name, PVSMathOps[op].Name)
	}
	for i, o := range PVSVectorOps {
		assert.Equal(t, i >= 15, o.R500, "%s", o.Name)
	}
	for i, o := range PVSMathOps {
		assert.Equal(t, i >= 18, o.R500, "%s", o.Name)
	}
}

// TestPVSFlowWords pins flow-control words: Mesa's R300_PVS_FC_* field
// positions and R300_VAP_PVS_FC_OPC_LOOP(x) = 2 << 2x.
func TestPVSFlowWords(t *testing.T) {
	f := PVSFlow{Op: PVSFlowLoop, Act: 3, TargetOrCnt: 10, Last: 7, Rtn: 4, Init: 0, Step: 1}
	assert.Equal(t, uint32(0x04070A03), f.Addrs())
	assert.Equal(t, uint32(0x100), f.LoopIndex())
	g := DecodePVSFlow(1, 2<<2, 0x04070A03, 0xFF05)
	assert.Equal(t, PVSFlowLoop, g.Op)
	assert.Equal(t, int8(-1), g.Step)
	assert.Equal(t, uint8(5), g.Init)
	assert.Equal(t, "after 3 loop 4..7 10 times, aL from 5 step -1", g.String())
	assert.Equal(t, "after 2 jump to 9", DecodePVSFlow(0, 1, 0x0902, 0).String())
	assert.Equal(t, "after 2 call 20..25, return to 3", DecodePVSFlow(15, 3<<30, 0x03191402, 0).String())
}

// TestPVSRoundTrip checks that decoding then encoding gives back every
// bit of any word (the fields cover all 32 bits of both word kinds).
func TestPVSRoundTrip(t *testing.T) {
	for _, w := range []uint32{0, 0xFFFFFFFF, 0xDEADBEEF, 0x12345678, 0x80000001, 0x7FFFFFFE} {
		assert.Equal(t, w, DecodePVSDst(w).Encode(), "%#x", w)
		assert.Equal(t, w, DecodePVSSrc(w).Encode(), "%#x", w)
	}
}

// TestPVSUpload checks the upload packets and where the decoder says each
// dword goes.
func TestPVSUpload(t *testing.T) {
	var s Stream
	in := PVSInst{Dst: PVSDst{Op: VEDot4, Type: PVSDstOut, WE: 1}, Src: [3]PVSSrc{src(PVSSrcConst, 0), src(PVSSrcInput, 0), src(PVSSrcInput, 0)}}
	w := in.Encode()
	s.PVSUpload(PVSCodeStart, w[:])
	s.PVSUpload(PVSConstStart+2, []uint32{0x3F800000, 0x40000000, 0, 0xBF800000})
	s.PVSUpload(PVSUCPStart+1, []uint32{0x3F800000})
	assert.Equal(t, []uint32{Type0(VAP_PVS_VECTOR_INDX_REG, 1, false), 0, Type0(VAP_PVS_VECTOR_DATA_REG, 4, true)}, s.Words[:3])
	lines := Disassemble(s.Bytes(), 0)
	require.Len(t, lines, len(s.Words))
	assert.Contains(t, lines[3], "code 0 dword 0")
	assert.Contains(t, lines[6], "code 0: dp4 o0.x, c0, v0")
	assert.Contains(t, lines[10], "const 2.x = 1")
	assert.Contains(t, lines[13], "const 2.w = -1")
	assert.Contains(t, lines[17], "clip plane 1.x = 1")
	assert.Equal(t, uint32(PVSUCPStart+1), s.Words[15])
}

// TestPVSDisassemble prints a program from registers and memory.
func TestPVSDisassemble(t *testing.T) {
	mem := make([]uint32, 4*PVSMemOctets)
	prog := []PVSInst{
		{Dst: PVSDst{Op: VEDot4, Type: PVSDstOut, WE: 1}, Src: [3]PVSSrc{src(PVSSrcConst, 0), src(PVSSrcInput, 0), src(PVSSrcInput, 0)}},
		{Dst: PVSDst{Op: MERcpDX, Math: true, Offset: 1, WE: 15}, Src: [3]PVSSrc{{Type: PVSSrcConst, Offset: 2, Swz: [4]uint8{3, 3, 3, 3}}}},
	}
	for i, in := range prog {
		w := in.Encode()
		copy(mem[4*i:], w[:])
	}
	copy(mem[4*(PVSConstStart+5):], []uint32{0x3F800000, 0, 0, 0x40400000}) // c2 with base 3
	regs := map[uint32]uint32{
		VAP_PVS_CODE_CNTL_0: 1<<20 | 0<<10, VAP_PVS_CODE_CNTL_1: 0, VAP_PVS_CONST_CNTL: 3 | 9<<16,
		VAP_PVS_FLOW_CNTL_OPC: 1, VAP_PVS_FLOW_CNTL_ADDRS_0: 0x0100,
	}
	p := ReadPVSProgram(func(a uint32) uint32 { return regs[a] }, mem)
	assert.Equal(t, []string{
		"; vertex program: instructions 0-1, position final at 0, inputs last read at 0, constants from 3, max address 9",
		";   flow 0: after 0 jump to 1",
		";   pvs   0: dp4 o0.x, c0, v0",
		";   pvs   1: rcp r1, c2.wwww",
		";   c0 = (0, 0, 0, 0)",
		";   c2 = (1, 0, 0, 3)",
	}, p.Disassemble())
}

// FuzzPVSDecode decodes arbitrary instruction words: no panic, the words
// come back bit for bit and the text is never empty.
func FuzzPVSDecode(f *testing.F) {
	f.Add(uint32(0x00F00203), uint32(0x00D10001), uint32(0x01248001), uint32(0x01248001))
	f.Add(uint32(0xFFFFFFFF), uint32(0xFFFFFFFF), uint32(0), uint32(0x80000000))
	f.Fuzz(func(t *testing.T, a, b, c, d uint32) {
		w := [4]uint32{a, b, c, d}
		in := DecodePVS(w)
		if in.Encode() != w {
			t.Fatalf("round trip %#x -> %#x", w, in.Encode())
		}
		if in.String() == "" {
			t.Fatal("empty text")
		}
		_ = DecodePVSFlow(int(a%16), b, c, d).String()
	})
}
