package r300

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckableFacts pins encodings to the literal words of the guide's
// "checkable facts" (shared/notes/r300.md §7), by fact number.
func TestCheckableFacts(t *testing.T) {
	tests := []struct {
		fact int
		name string
		got  uint32
		want uint32
	}{
		{1, "BLENDCNTL SRC_ALPHA/ONE_MINUS_SRC_ALPHA", Fields(RB3D_BLENDCNTL, "ALPHA_BLEND_ENABLE", 1, "READ_ENABLE", 1, "SRCBLEND", 38, "DESTBLEND", 39, "COMB_FCN", 0), 0x27260005},
		{3, "CHANNEL_MASK rgb", Fields(RB3D_COLOR_CHANNEL_MASK, "RED_MASK", 1, "GREEN_MASK", 1, "BLUE_MASK", 1), 0x7},
		{3, "CHANNEL_MASK alpha", Fields(RB3D_COLOR_CHANNEL_MASK, "ALPHA_MASK", 1), 0x8},
		{4, "COLORPITCH0 640 ARGB8888", Fields(RB3D_COLORPITCH0, "COLORPITCH", 320, "COLORFORMAT", 6), 0x00C00280},
		{6, "DSTCACHE purge", Fields(RB3D_DSTCACHE_CTLSTAT, "DC_FLUSH", 2, "DC_FREE", 2), 0x0A},
		{6, "ZCACHE flush+free", Fields(ZB_ZCACHE_CTLSTAT, "ZC_FLUSH", 1, "ZC_FREE", 1), 0x3},
		{7, "ROPCNTL XOR", Fields(RB3D_ROPCNTL, "ROP_ENABLE", 1, "ROP", 6), 0x604},
		{8, "FG_ALPHA_FUNC GREATER 128", Fields(FG_ALPHA_FUNC, "AF_VAL", 128, "AF_FUNC", 4, "AF_EN", 1), 0xC80},
		{10, "ZB_CNTL test+write", Fields(ZB_CNTL, "Z_ENABLE", 1, "ZWRITEENABLE", 1), 0x6},
		{10, "ZFUNC LESS", Fields(ZB_ZSTENCILCNTL, "ZFUNC", 1), 0x1},
		{11, "STENCILREFMASK", Fields(ZB_STENCILREFMASK, "STENCILREF", 1, "STENCILMASK", 0xFF, "STENCILWRITEMASK", 0xFF), 0x00FFFF01},
		{12, "ZB_FORMAT D24S8", Fields(ZB_FORMAT, "DEPTHFORMAT", 2), 2},
		{12, "DEPTHPITCH 640", Fields(ZB_DEPTHPITCH, "DEPTHPITCH", 160), 0x280},
		{13, "GA_POINT_SIZE 1px at 1/12", Fields(GA_POINT_SIZE, "WIDTH", 6, "HEIGHT", 6), 0x00060006},
		{14, "VF_CNTL tri list AOS", VFCntl(PrimTriangles, WalkList, 3, false), 0x00030024},
		{14, "VF_CNTL indexed 32-bit", VFCntl(PrimTriangles, WalkIndices, 6, true), 0x00060814},
		{14, "VF_CNTL fields", Fields(VAP_VF_CNTL, "PRIM_TYPE", 4, "PRIM_WALK", 2, "NUM_VERTICES", 3), 0x00030024},
		{15, "VTE_CNTL clip space", Fields(VAP_VTE_CNTL, "VPORT_X_SCALE_ENA", 1, "VPORT_X_OFFSET_ENA", 1, "VPORT_Y_SCALE_ENA", 1, "VPORT_Y_OFFSET_ENA", 1, "VPORT_Z_SCALE_ENA", 1, "VPORT_Z_OFFSET_ENA", 1, "VTX_W0_FMT", 1), 0x43F},
		{16, "PROG_STREAM_CNTL_0", Fields(VAP_PROG_STREAM_CNTL_0, "DATA_TYPE_0", 2, "DST_VEC_LOC_0", 0, "DATA_TYPE_1", 1, "DST_VEC_LOC_1", 1, "LAST_VEC_1", 1), 0x21010002},
		{17, "EXT XYZW", Fields(VAP_PROG_STREAM_CNTL_EXT, "SWIZZLE_SELECT_X_0", 0, "SWIZZLE_SELECT_Y_0", 1, "SWIZZLE_SELECT_Z_0", 2, "SWIZZLE_SELECT_W_0", 3, "WRITE_ENA_0", 15), 0xF688},
		{17, "EXT XY01", Fields(VAP_PROG_STREAM_CNTL_EXT, "SWIZZLE_SELECT_X_0", 0, "SWIZZLE_SELECT_Y_0", 1, "SWIZZLE_SELECT_Z_0", 4, "SWIZZLE_SELECT_W_0", 5, "WRITE_ENA_0", 15), 0xFB08},
		{18, "SGN_NORM all NO_ZERO", func() uint32 {
			var kv []any
			for i := 0; i < 16; i++ {
				kv = append(kv, "SGN_NORM_METHOD_"+itoa(i), 2)
			}
			return Fields(VAP_PSC_SGN_NORM_CNTL, kv...)
		}(), 0xAAAAAAAA},
		{19, "AOS ATTR23", ByName["VAP_VTX_AOS_ATTR23"], 0x20d0},
		{19, "AOS ADDR3", ByName["VAP_VTX_AOS_ADDR3"], 0x20d8},
		{19, "AOS ADDR15", ByName["VAP_VTX_AOS_ADDR15"], 0x2120},
		{20, "type-0 header", Type0(US_CODE_ADDR_0, 4, false), 0x00031184},
		{21, "type-3 header", Type3(OpDrawVbuf2, 1), 0xC0003400},
		{22, "RS_IP STRQ", Fields(RS_IP_0, "TEX_PTR", 0, "SEL_S", 0, "SEL_T", 1, "SEL_R", 2, "SEL_Q", 3), 0x00D10000},
		{22, "RS_IP ST01", Fields(RS_IP_0, "SEL_S", 0, "SEL_T", 1, "SEL_R", 4, "SEL_Q", 5), 0x01610000},
		{23, "RS_INST tex0->r0 col0->r1", Fields(RS_INST_0, "TEX_ID", 0, "TEX_CN", 1, "TEX_ADDR", 0, "COL_ID", 0, "COL_CN", 1, "COL_ADDR", 1), 0x00024008},
		{24, "RS_COUNT", Fields(RS_COUNT, "IT_COUNT", 4, "IC_COUNT", 1, "HIRES_EN", 1), 0x00040084},
		{24, "RS_INST_COUNT 1 inst", Fields(RS_INST_COUNT, "INST_COUNT", 0), 0},
		{25, "TX_FORMAT0 256x256 9 levels", Fields(TX_FORMAT0_0, "TXWIDTH", 255, "TXHEIGHT", 255, "NUM_LEVELS", 8), 0x2007F8FF},
		{26, "TX_FILTER0 repeat trilinear", Fields(TX_FILTER0_0, "MAG_FILTER", 2, "MIN_FILTER", 2, "MIP_FILTER", 2), 0x5400},
		{26, "TX_FILTER0 clamp to edge", Fields(TX_FILTER0_0, "CLAMP_S", 2, "CLAMP_T", 2), 0x12},
		{27, "TX_FORMAT1 RGBA bytes", Fields(TX_FORMAT1_0, "TXFORMAT", 12, "SEL_RED", 0, "SEL_GREEN", 1, "SEL_BLUE", 2, "SEL_ALPHA", 3), 0x0008860C},
		{27, "TX_FORMAT1 GL 565", Fields(TX_FORMAT1_0, "TXFORMAT", 6, "SEL_RED", 2, "SEL_GREEN", 1, "SEL_BLUE", 0, "SEL_ALPHA", 5), 0xAA06},
		{28, "TX_OFFSET layout", Fields(TX_OFFSET_0, "TXOFFSET", 0x1000>>5, "MACRO_TILE", 1, "MICRO_TILE", 1), 0x100C},
		{30, "LOD_BIAS -1.0 field", F(TX_FILTER1_0, "LOD_BIAS").Get(0x1F00), 0x3E0},
		{30, "LOD_BIAS -1.0 register", Fields(TX_FILTER1_0, "LOD_BIAS", 0x3E0), 0x1F00},
		{31, "TEX r2, r1, unit 3", TexInst{Op: TexLD, Src: 1, Dst: 2, Unit: 3}.Encode(), 0x9881},
		{31, "KIL r4", TexInst{Op: TexKill, Src: 4}.Encode(), 0x10004},
		{31, "PROJ", uint32(TexProj), 3},
		{31, "LODBIAS", uint32(TexLODBias), 4},
		{33, "US_CONFIG one level", Fields(US_CONFIG, "NLEVEL", 0, "FIRST_TEX", 1), 0x8},
		{33, "CODE_ADDR_3 one level", Fields(US_CODE_ADDR_0+12, "RGBA_OUT", 1), 0x00400000},
		{34, "constant 31 alpha", ByName["US_ALU_CONST_A_31"], 0x4dfc},
		{34, "constant 5 red", ByName["US_ALU_CONST_R_5"], 0x4c00 + 16*5},
		{35, "fp24 1.0", EncodeFP24(1), 0x3F0000},
		{35, "fp24 0.5", EncodeFP24(0.5), 0x3E0000},
		{35, "fp24 3.0", EncodeFP24(3), 0x408000},
		{35, "fp24 -1.0", EncodeFP24(-1), 0xBF0000},
		{36, "RGB DP3", uint32(RGBDP3), 1},
		{36, "RGB DP4", uint32(RGBDP4), 2},
		{36, "RGB CMP", uint32(RGBCMP), 8},
		{36, "RGB SOP", uint32(RGBSOP), 10},
		{36, "alpha DP", uint32(AlphaDP), 1},
		{36, "alpha EX2", uint32(AlphaEX2), 8},
		{36, "alpha LN2", uint32(AlphaLN2), 9},
		{36, "alpha RCP", uint32(AlphaRCP), 10},
		{36, "alpha RSQ", uint32(AlphaRSQ), 11},
		{38, "SRCP_OP S1-S0", uint32(indexOf(EnumSrcp, "S1-S0")), 1},
		{40, "OMOD *2", uint32(indexOf(EnumOmod, "*2")), 1},
		{40, "OMOD /2", uint32(indexOf(EnumOmod, "/2")), 4},
		{40, "CLAMP bit", Fields(US_ALU_RGB_INST_0, "CLAMP", 1), 1 << 30},
		{40, "NOP bit", Fields(US_ALU_RGB_INST_0, "NOP", 1), 1 << 31},
		{40, "OMASK_W bit", Fields(US_ALU_ALPHA_ADDR_0, "OMASK_W", 1), 1 << 27},
		{41, "US_W_FMT W24", Fields(US_W_FMT, "W_FMT", 1), 1},
		{41, "FG_DEPTH_SRC shader", Fields(FG_DEPTH_SRC, "DEPTH_SRC", 1), 1},
		{41, "OUT_FMT unused", Fields(US_OUT_FMT_0, "OUT_FMT", 15), 0xF},
		{42, "SU_CULL_MODE back, CW front", Fields(SU_CULL_MODE, "CULL_BACK", 1, "FACE", 1), 0x6},
		{43, "SCISSOR1 640x480", Fields(SC_SCISSOR1, "XS1", 639, "YS1", 479), 0x003BE27F},
		{44, "SUBPIXEL 1/16", Fields(GB_TILE_CONFIG, "SUBPIXEL", 1), 1 << 16},
		{44, "PIPE_COUNT R300", Fields(GB_TILE_CONFIG, "PIPE_COUNT", 3), 3 << 1},
		{45, "CODE_ADDR_2 two levels", Fields(US_CODE_ADDR_0+8, "ALU_START", 0, "ALU_SIZE", 1), 0x40},
		{45, "CODE_ADDR_3 two levels", Fields(US_CODE_ADDR_0+12, "ALU_START", 2, "TEX_START", 1, "RGBA_OUT", 1), 0x00401002},
		{45, "US_CONFIG two levels", Fields(US_CONFIG, "NLEVEL", 1, "FIRST_TEX", 1), 0x9},
		{45, "CODE_OFFSET two levels", Fields(US_CODE_OFFSET, "ALU_SIZE", 2, "TEX_SIZE", 1), 0x00040080},
	}
	for _, tc := range tests {
		assert.Equalf(t, tc.want, tc.got, "fact %d: %s: got %#x want %#x", tc.fact, tc.name, tc.got, tc.want)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func indexOf(e []string, s string) int {
	for i, x := range e {
		if x == s {
			return i
		}
	}
	return -1
}

func TestEnumFacts(t *testing.T) {
	// Fact 2: the GL blend codes run from 32 (ZERO) to 46; DST_COLOR = 36.
	assert.Equal(t, "GL_ZERO", EnumBlend[32])
	assert.Equal(t, "GL_ONE_MINUS_CONST_ALPHA", EnumBlend[46])
	assert.Equal(t, 36, indexOf(EnumBlend, "GL_DST_COLOR"))
	// Fact 5: colour formats.
	for name, code := range map[string]int{"ARGB8888": 6, "RGB565": 4, "ARGB1555": 3, "ARGB4444": 15} {
		assert.Equal(t, code, indexOf(EnumColorFmt, name), name)
	}
	// Fact 9: alpha GEQUAL 6, ZFUNC GEQUAL 4.
	assert.Equal(t, 6, indexOf(EnumAlphaFunc, "GE"))
	assert.Equal(t, 4, indexOf(EnumZFunc, "GEQUAL"))
	// Fact 44.
	assert.Equal(t, 3, indexOf(EnumPipes, "R300"))
	assert.Equal(t, 0, indexOf(EnumPipes, "RV350"))
	// Fact 28: TX_OFFSET field positions.
	r, _, ok := Lookup(TX_OFFSET_0)
	require.True(t, ok)
	assert.Equal(t, Field{Name: "TXOFFSET", Lo: 5, Hi: 31, Kind: Addr}, r.Field("TXOFFSET"))
	assert.Equal(t, uint32(1<<2), r.Field("MACRO_TILE").Mask())
	assert.Equal(t, uint32(3<<3), r.Field("MICRO_TILE").Mask())
}

// TestMOVQuad is fact 32: `MOV out0, r0` as MAD r0, 1.0, 0.0 on both
// halves.
func TestMOVQuad(t *testing.T) {
	a := ALUInst{
		RGB:   Half{OMask: 7, Args: [3]Arg{{Sel: SelRGBSrc0}, {Sel: SelRGBOne}, {Sel: SelRGBZero}}},
		Alpha: Half{OMask: 1, Args: [3]Arg{{Sel: SelASrc0A}, {Sel: SelAOne}, {Sel: SelAZero}}},
	}
	ra, aa, ri, ai := a.Encode()
	assert.Equal(t, uint32(0x1C000000), ra)
	assert.Equal(t, uint32(0x00050A80), ri)
	assert.Equal(t, uint32(0x01000000), aa)
	assert.Equal(t, uint32(0x00040889), ai)
	assert.Equal(t, a, DecodeALU(ra, aa, ri, ai))
	assert.Equal(t, "MAD outA.rgb <- r0.rgb, 1.0, 0.0 ; MAD outA.a <- r0.a, 1.0, 0.0", a.String())
}

// TestSelectNames covers facts 38 and 39: RGB SEL 15 is srcp.rgb, alpha SEL
// 15 is srcp.a, RGB SEL 29 is (a0.a, rgb0.b, rgb0.g).
func TestSelectNames(t *testing.T) {
	a := ALUInst{RGB: Half{Src: [3]uint8{1, 2, 33}}, Alpha: Half{Src: [3]uint8{4, 2, 33}}}
	assert.Equal(t, "srcp.rgb", a.RGBSelString(15))
	assert.Equal(t, "srcp.a", a.AlphaSelString(15))
	assert.Equal(t, "(r4.a,r1.bg)", a.RGBSelString(29))
	assert.Equal(t, "r2.abg", a.RGBSelString(30))
	assert.Equal(t, "c1.gbr", a.RGBSelString(25))
	assert.Equal(t, "r4.aaa", a.RGBSelString(12))
	assert.Equal(t, "r2.b", a.AlphaSelString(5))
	assert.Equal(t, "0.5", a.AlphaSelString(18))
	assert.Equal(t, "0.5", a.RGBSelString(22))
}

func TestALURoundTrip(t *testing.T) {
	a := ALUInst{
		RGB: Half{Src: [3]uint8{3, 40, 31}, Dst: 17, WMask: 5, OMask: 2, Target: 3, Srcp: 2, Op: RGBCMP, Omod: 6, Clamp: true, Nop: true,
			Args: [3]Arg{{31, 3}, {15, 1}, {22, 2}}},
		Alpha: Half{Src: [3]uint8{63, 0, 7}, Dst: 31, WMask: 1, OMask: 1, Target: 2, DepthOut: true, StatWE: 9, Srcp: 3, Op: AlphaRSQ, Omod: 4,
			Args: [3]Arg{{18, 2}, {0, 0}, {15, 3}}},
	}
	ra, aa, ri, ai := a.Encode()
	assert.Equal(t, a, DecodeALU(ra, aa, ri, ai))
	for _, w := range []uint32{0x9881, 0x10004, 0x3FFFF} {
		assert.Equal(t, w&0x3FFDF, DecodeTex(w).Encode(), "%#x", w)
	}
}
