package unichrome

import (
	"fmt"
	"strconv"
	"strings"
)

// FieldKind says how a field's bits read.
type FieldKind uint8

// The field kinds.
const (
	Uint     FieldKind = iota // unsigned integer
	Sint                      // two's-complement signed
	Enum                      // index into Field.Enum
	Flag                      // single bit
	Hex                       // unsigned, printed in hex (addresses, colours, masks)
	TexFmt                    // an 8-bit texture format code (7Bh 23:16)
	VCycle                    // an HVCycle / H2nd1VT setting
	VertMask                  // the Command B vertex parameter mask
)

// Field is a bit field of a register's data (bits 23:0 of a parameter
// dword, or the whole dword of Command A/B).
type Field struct {
	Name   string
	Lo, Hi uint8 // inclusive bit range
	Kind   FieldKind
	Enum   []string
}

// Mask returns the field's bits in place.
func (f Field) Mask() uint32 { return (1<<(f.Hi-f.Lo+1) - 1) << f.Lo }

// Get extracts the field from a data word.
func (f Field) Get(d uint32) uint32 { return d >> f.Lo & (1<<(f.Hi-f.Lo+1) - 1) }

// Put returns v placed in the field (bits outside the field are dropped).
func (f Field) Put(v uint32) uint32 { return v & (1<<(f.Hi-f.Lo+1) - 1) << f.Lo }

// Reg is one register: a sub-address in a register file.
type Reg struct {
	Space Space
	Sub   uint8
	Name  string
	// Line is the seed line that defines the register (0 for [OUT] rows).
	Line   int
	Fields []Field
	// Note records decisions where the seed is wrong or silent.
	Note string
}

// Field returns the named field.
func (r *Reg) Field(name string) (Field, bool) {
	for _, f := range r.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Enumerations used by the fields, in code order (index = field value).
var (
	EnumCompare = []string{"NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER", "NOTEQUAL", "GEQUAL", "ALWAYS"}
	EnumStencil = []string{"KEEP", "ZERO", "REPLACE", "INCRSAT", "DECRSAT", "INVERT", "INCR", "DECR"}
	EnumZFormat = []string{"Z16", "RSV1", "Z32", "Z24S8"}
	EnumLoc     = []string{"LOCAL", "SYSTEM", "RSV2", "RSV3"}
	// EnumDstFormat is 42h bits 19:16 (bit 19 = 32 bpp), L2506.
	EnumDstFormat = []string{"RGB555", "RGB565", "ARGB4444", "ARGB1555", "BGR555", "BGR565", "ABGR4444", "ABGR1555",
		"ARGB0888", "ARGB8888", "ABGR0888", "ABGR8888", "RSV12", "RSV13", "RSV14", "YUY2"}
	// EnumDstExpand is 42h bits 22:20, the 16-to-24-bit read expansion.
	EnumDstExpand = []string{"REPLICATE", "IGNORE_G0", "ZERO_FILL", "ZERO_FILL_IGNORE_G0", "RGB666", "NEVER5", "RGB666_ZERO_FILL", "NEVER7"}
	EnumFogMode   = []string{"LOCAL", "RSV1", "LINEAR", "RSV3", "EXP", "EXP2", "RSV6", "RSV7"}
	EnumFogEq     = []string{"EQ0", "EQ1"}
	EnumFogLF     = []string{"W", "Z"}
	EnumBlendOp   = []string{"ADD", "SUB"}
	// EnumBlendMod is the 2-bit modifier of a blend operand. For Ca/Cb the
	// seed marks every code reserved (L2428-2433, header mislabelled [4:3]);
	// X, INV and are [OUT] via_3d_reg.h. For factors only X and INV
	// are listed (L2446-2449).
	EnumBlendMod = []string{"X", "INV", "X-0.5", "RSV3"}
	// EnumBlendC is the Ca/Cb select (L2435-2443; the OCR's first "0001" is
	// 0000).
	EnumBlendC = []string{"SRC", "DST", "RSV2", "RSV3", "RSV4", "CONST", "MIN", "MAX",
		"RSV8", "RSV9", "RSV10", "RSV11", "RSV12", "RSV13", "RSV14", "RSV15"}
	// EnumBlendFC is the FCa/FCb select (L2451-2461).
	EnumBlendFC = []string{"SRC", "DST", "ASRC", "ADST", "RSV4", "CONST", "RSV6", "RSV7",
		"MIN_ASRC_INV_ADST", "RSV9", "RSV10", "RSV11", "RSV12", "RSV13", "RSV14", "RSV15"}
	// EnumBlendA is the Aa/Ab select (L2472; the seed has no Ab table and
	// Ab takes Aa's by symmetry).
	EnumBlendA = []string{"ZERO", "ASRC", "ADST", "RSV3", "RSV4", "MIN", "RSV6", "MAX",
		"CONST", "RSV9", "RSV10", "RSV11", "RSV12", "RSV13", "RSV14", "RSV15"}
	// EnumBlendFA is the FAa/FAb select (L2473, L2480).
	EnumBlendFA = []string{"ZERO", "ASRC", "ADST", "RSV3", "RSV4", "RSV5", "RSV6", "RSV7",
		"MIN_ASRC_INV_ADST", "CONST", "RSV10", "RSV11", "RSV12", "RSV13", "RSV14", "RSV15"}
	EnumWrap   = []string{"SINGLE", "CLAMP", "REPEAT", "MIRROR", "WARP", "RSV5", "RSV6", "MIRROR_ONCE"}
	EnumFilter = []string{"NEAREST", "LINEAR", "RSV2", "RSV3", "RSV4", "RSV5", "CUBIC", "RSV7"}
	EnumMip    = []string{"LEVEL0", "NEAREST", "LINEAR", "NONLINEAR", "DITHER", "CONSTANT", "ANISO", "ANISO_DITHER",
		"RSV8", "RSV9", "RSV10", "RSV11", "RSV12", "RSV13", "RSV14", "RSV15"}
	// EnumTexC is the colour operand select of the texture blending stage
	// (L2732-2744): 0 is zero, 1010 Ctex_next is for stage 0 only.
	EnumTexC = []string{"ZERO", "DIF", "SPEC", "TEX", "CUR", "ADIF", "FOG", "ATEX", "ACUR", "CONST", "TEX_NEXT",
		"RSV11", "RSV12", "RSV13", "RSV14", "RSV15"}
	EnumTexMod = []string{"X", "INV", "X-0.5", "RSV3"}
	// EnumTexA is the alpha operand select (L2850-2857); there is no zero.
	EnumTexA     = []string{"ADIF", "FOG", "ACUR", "CONST", "ATEX", "ATEX_NEXT", "RSV6", "RSV7"}
	EnumTexCBias = []string{"ZERO", "DIF", "SPEC", "TEX", "CUR", "ADIF", "FOG", "ATEX", "ACUR", "CONST",
		"RSV10", "RSV11", "RSV12", "RSV13", "RSV14", "RSV15"}
	EnumTexABias = []string{"ADIF", "FOG", "ACUR", "CONST", "ATEX", "RSV5", "RSV6", "RSV7"}
	EnumTexOp    = []string{"ADD", "SUB", "MIN", "MAX", "MASK", "RSV5", "RSV6", "RSV7"}
	// EnumTexShift is the stage output shift: 00 = x2, 01 = x4, 10 = x1
	// (L2796-2801).
	EnumTexShift = []string{"X2", "X4", "X1", "RSV3"}
	EnumTexDot   = []string{"NONE", "NONE1", "DOT3", "DOT4"}
	EnumMPFog    = []string{"ZERO", "ADIF", "FOG", "ATEX", "ACUR", "RFOG", "RSV6", "RSV7"}
	EnumPrim     = []string{"POINT", "LINE", "TRI", "RSV3", "TRIWF", "RSV5", "RSV6", "RSV7",
		"RSV8", "RSV9", "RSV10", "RSV11", "RSV12", "RSV13", "RSV14", "RSV15"}
	EnumShade   = []string{"SOLID", "FLAT_A", "FLAT_B", "FLAT_C", "GOURAUD", "RSV5", "RSV6", "RSV7"}
	EnumBFace   = []string{"CW_IS_BACK", "CCW_IS_BACK"}
	EnumPauseID = []string{"PAUSE", "JUMP", "STOP", "RSV3"}
	EnumPixGC   = []string{"CENTER_HALF", "CENTER_INT"}
	EnumTexNum  = []string{"ONE", "TWO", "RSV2", "RSV3", "RSV4", "RSV5", "RSV6", "RSV7"}
)

var enumTables = map[string][]string{
	"cmp": EnumCompare, "sop": EnumStencil, "zfm": EnumZFormat, "loc": EnumLoc, "dbfm": EnumDstFormat,
	"dbext": EnumDstExpand, "fogmd": EnumFogMode, "fogeq": EnumFogEq, "foglf": EnumFogLF, "bop": EnumBlendOp,
	"bmod": EnumBlendMod, "bc": EnumBlendC, "bfc": EnumBlendFC, "ba": EnumBlendA, "bfa": EnumBlendFA,
	"wrap": EnumWrap, "filt": EnumFilter, "mip": EnumMip, "tc": EnumTexC, "tmod": EnumTexMod, "ta": EnumTexA,
	"tcb": EnumTexCBias, "tab": EnumTexABias, "top": EnumTexOp, "tsh": EnumTexShift, "tdot": EnumTexDot,
	"mpfog": EnumMPFog, "prim": EnumPrim, "shade": EnumShade, "bface": EnumBFace, "bpid": EnumPauseID,
	"pixgc": EnumPixGC, "txnum": EnumTexNum,
}

// row is the compact source form of the table: fields are
// "name:lo-hi[/enum|s|x|fmt|cyc|vmask]" or "name:bit[/enum]".
type row struct {
	space  Space
	sub    uint8
	name   string
	line   int
	fields string
	note   string
}

const rgb24 = "r:16-23/x g:8-15/x b:0-7/x"

// The sub-addresses the driver and simulator name.
const (
	AttrEnable      = 0x00
	AttrEnableAlias = 0x01
	AttrZBaseL      = 0x10
	AttrZBaseH      = 0x11
	AttrZFormat     = 0x12
	AttrZBiasL      = 0x13
	AttrZBiasH      = 0x14
	AttrZTest       = 0x15
	AttrZClearL     = 0x16
	AttrZClearH     = 0x17
	AttrZBiasScaleL = 0x18
	AttrZBiasLoL    = 0x19
	AttrZBiasHiL    = 0x20
	AttrZBiasClampH = 0x21
	AttrStencilRef  = 0x23
	AttrStencilMode = 0x24
	AttrZDirty      = 0x28
	AttrAlphaTest   = 0x33
	AttrBlendC      = 0x34
	AttrBlendCop    = 0x35
	AttrBlendA      = 0x36
	AttrBlendAop    = 0x37
	AttrBlendRCa    = 0x38
	AttrBlendRFCa   = 0x39
	AttrBlendRCbias = 0x3A
	AttrBlendRCb    = 0x3B
	AttrBlendRFCb   = 0x3C
	AttrBlendRAa    = 0x3D
	AttrBlendRAb    = 0x3E
	AttrDstBaseL    = 0x40
	AttrDstBaseH    = 0x41
	AttrDstFormat   = 0x42
	AttrPlaneMask   = 0x43
	AttrROP         = 0x44
	AttrFogMode     = 0x50
	AttrFogColor    = 0x51
	AttrFogAlpha    = 0x52
	AttrFogStartL   = 0x53
	AttrFogStartH   = 0x54
	AttrFogOOdM     = 0x55
	AttrFogOOdE     = 0x56
	AttrFogEndL     = 0x57
	AttrFogDensity  = 0x58
	AttrAGPStartL   = 0x60
	AttrAGPEndL     = 0x61
	AttrAGPCmd      = 0x62
	AttrAGPPauseL   = 0x63
	AttrAGPPauseH   = 0x64
	AttrClipTB      = 0x70
	AttrClipLR      = 0x71
	AttrLinePattern = 0x78
	AttrLineRepeat  = 0x79
	AttrSolidColor  = 0x7A
	AttrPixGC       = 0x7B
	AttrStippleOS   = 0x7C
	AttrVertexCount = 0x7D
	AttrFlagNum     = 0xAA

	TexBaseL0      = 0x00 // + level, 0..11
	TexBaseH012    = 0x20 // + level/3
	TexPitch0      = 0x2B // + level
	TexWidth05     = 0x4B
	TexWidth6B     = 0x4C
	TexHeight05    = 0x51
	TexHeight6B    = 0x52
	TexLOD         = 0x77
	TexFilter      = 0x78
	TexWrapMode    = 0x79
	TexLODConst    = 0x7A
	TexFormat      = 0x7B
	TexTransHigh   = 0x7C
	TexTransLow    = 0x7D
	TexBorder      = 0x7E
	TexTransAlpha  = 0x7F
	TexBlendC      = 0x80
	TexBlendCop    = 0x81
	TexBlendMPFog  = 0x82
	TexBlendA      = 0x83
	TexBlendRCa    = 0x85
	TexBlendRCb    = 0x86
	TexBlendRCc    = 0x87
	TexBlendRCbias = 0x88
	TexBlendRAlpha = 0x89
	TexBlendRFog   = 0x8A
	TexLumScale    = 0x94

	TexGenMode   = 0x00
	TexGenYUV2   = 0x02
	TexGenYUV3   = 0x03
	MaxTexLevels = 12
)

var rows = []row{
	// Type 01h: attributes other than texture.
	{SpaceAttr, AttrEnable, "HEnable", 2340, "force1p:23 envmap:21 vertexcnt:20 cpudaz:19 daszwc:18 bfcull:17 cw:16 aa:15 st:14 zt:13 zw:12 at:11 aw:10 sp:9 lp:8 txch:7 txmp:6 txpp:5 txtr:4 cs:3 fog:2 abl:1 dt:0",
		"the seed puts the enable register at 01h (L2340); Mesa, openchrome and the DRM whitelist use 00h, which is canonical; bits 20-18 are [OUT]"},
	{SpaceAttr, AttrEnableAlias, "HEnable01", 2340, "force1p:23 envmap:21 vertexcnt:20 cpudaz:19 daszwc:18 bfcull:17 cw:16 aa:15 st:14 zt:13 zw:12 at:11 aw:10 sp:9 lp:8 txch:7 txmp:6 txpp:5 txtr:4 cs:3 fog:2 abl:1 dt:0",
		"alias of 00h, the seed's own sub-address"},
	{SpaceAttr, AttrZBaseL, "HZWBBasL", 2362, "addr:0-23/x", ""},
	{SpaceAttr, AttrZBaseH, "HZWBBasH", 2364, "addr:0-7/x", ""},
	{SpaceAttr, AttrZFormat, "HZWBType", 2365, "wbuf:23 biasedwb:22 oneasff:21 ooneasff:20 fmt:16-17/zfm loc:14-15/loc pitch:0-13",
		"pitch in bytes [OUT]; W formats for fmt: 00 [4].12, 10 float32, 11 [5].19+S8"},
	{SpaceAttr, AttrZBiasL, "HZBiasL", 2374, "bias:0-23/x", "HZBias bits 23:0 of a 32-bit two's-complement offset in 2^-32 units of Z (format unspecified, guide §7.9)"},
	{SpaceAttr, AttrZBiasH, "HZBiasH", 2375, "scale_h:16-23/x bias_h:0-7/x", "HZBiasScale bits 31:24 and HZBias bits 31:24"},
	{SpaceAttr, AttrZTest, "HZWTMD", 2378, "func:16-18/cmp webias:8-14 znf:0-7", "func = GL enum - 0x200"},
	{SpaceAttr, AttrZClearL, "HZWCdL", 2383, "data:0-23/x", ""},
	{SpaceAttr, AttrZClearH, "HZWCTAGnum", 2384, "tags:16-23 data_h:0-7/x", ""},
	{SpaceAttr, AttrZBiasScaleL, "HZBiasScaleL", 2387, "scale:0-23/x", "HZBiasScale bits 23:0 (float32)"},
	{SpaceAttr, AttrZBiasLoL, "HZBiasLClampL", 2388, "low:0-23/x", "stored, not applied (format unspecified)"},
	{SpaceAttr, AttrZBiasHiL, "HZBiasHClampL", 2389, "high:0-23/x", "stored, not applied (format unspecified)"},
	{SpaceAttr, AttrZBiasClampH, "HZBiasClampH", 2390, "high_h:10-19/x low_h:0-9/x", "stored, not applied"},
	{SpaceAttr, AttrStencilRef, "HSTREF", 2398, "ref:16-23 opmask:8-15/x wmask:0-7/x", "pass if (REF&OPMSK) op (S&OPMSK); wmask 0 bits protect"},
	{SpaceAttr, AttrStencilMode, "HSTMD", 2401, "func:16-18/cmp sfail:6-8/sop zfail:3-5/sop zpass:0-2/sop",
		"GL INCR/DECR are 011/100 (saturating); 110/111 wrap (OES_stencil_wrap); [OUT] Mesa uses 110/111 for INCR/DECR, wrongly"},
	{SpaceAttr, AttrZDirty, "HZDirty", 2412, "reset:23 ynum:8-12/x xnum:0-5/x", "stored, not simulated (a bandwidth optimisation)"},
	{SpaceAttr, AttrAlphaTest, "HATMD", 2422, "func:8-10/cmp ref:0-7", ""},
	{SpaceAttr, AttrBlendC, "HABLCsat", 2425, "nosat:16 ca_mod:14-15/bmod ca:10-13/bc fca_mod:8-9/bmod fca:4-7/bfc",
		"bit 16: the seed says 0 = clamp (L2427), kept as written; 3:0 are reserved ([OUT] Mesa Cbias) and must be 0"},
	{SpaceAttr, AttrBlendCop, "HABLCop", 2464, "op:14/bop cb_mod:12-13/bmod cb:8-11/bc fcb_mod:6-7/bmod fcb:2-5/bfc",
		"1:0 reserved ([OUT] Mesa Cshift) and must be 0"},
	{SpaceAttr, AttrBlendA, "HABLAsat", 2469, "nosat:16 aa_mod:14-15/bmod aa:10-13/ba faa_mod:8-9/bmod faa:4-7/bfa",
		"3:0 reserved ([OUT] Mesa Abias) and must be 0"},
	{SpaceAttr, AttrBlendAop, "HABLAop", 2476, "op:14/bop ab_mod:12-13/bmod ab:8-11/ba fab_mod:6-7/bmod fab:2-5/bfa",
		"Ab takes the Aa table (the seed has none); FAb the FAa table"},
	{SpaceAttr, AttrBlendRCa, "HABLRCa", 2484, rgb24, ""},
	{SpaceAttr, AttrBlendRFCa, "HABLRFCa", 2485, rgb24, ""},
	{SpaceAttr, AttrBlendRCbias, "HABLRCbias", 2487, rgb24, "stored; no listed equation uses it"},
	{SpaceAttr, AttrBlendRCb, "HABLRCb", 2488, rgb24, ""},
	{SpaceAttr, AttrBlendRFCb, "HABLRFCb", 2489, rgb24, ""},
	{SpaceAttr, AttrBlendRAa, "HABLRAa", 2490, "aa:16-23/x faa:8-15/x abias:0-7/x", ""},
	{SpaceAttr, AttrBlendRAb, "HABLRAb", 2493, "ab:8-15/x fab:0-7/x", ""},
	{SpaceAttr, AttrDstBaseL, "HDBBasL", 2502, "addr:0-23/x", ""},
	{SpaceAttr, AttrDstBaseH, "HDBBasH", 2503, "addr:0-7/x", ""},
	{SpaceAttr, AttrDstFormat, "HDBFM", 2505, "expand:20-22/dbext fmt:16-19/dbfm loc:14-15/loc pitch:0-13",
		"bits 15:0 (location, pitch in bytes) are [OUT] via_3d_reg.h"},
	{SpaceAttr, AttrPlaneMask, "HFBBMSKL", 0, rgb24, "[OUT] via_3d_reg.h: RGB plane mask, 1 = writable"},
	{SpaceAttr, AttrROP, "HROP", 0, "rop:8-11/x amask:0-7/x",
		"[OUT] via_3d_reg.h: ROP2 truth table indexed by (P<<1)|D (12 = COPY) and the alpha plane mask"},
	{SpaceAttr, AttrFogMode, "HFogLF", 2512, "lf:4/foglf eq:3/fogeq mode:0-2/fogmd", ""},
	{SpaceAttr, AttrFogColor, "HFogCL", 2516, rgb24, ""},
	{SpaceAttr, AttrFogAlpha, "HFogCH", 2519, "a:0-7/x", ""},
	{SpaceAttr, AttrFogStartL, "HFogStL", 2521, "start:0-23/x", "Z: .32 fixed; W: float [8].7"},
	{SpaceAttr, AttrFogStartH, "HFogStH", 2522, "start_h:0-7/x", ""},
	{SpaceAttr, AttrFogOOdM, "HFogOOdMF", 2524, "mant:0-3/x", "1/(end-start) = 1.M x 2^(E-127)"},
	{SpaceAttr, AttrFogOOdE, "HFogOOdEF", 2526, "exp:0-7", ""},
	{SpaceAttr, AttrFogEndL, "HFogEndL", 2528, "end:0-23/x", ""},
	{SpaceAttr, AttrFogDensity, "HFogDenst", 2529, "density:8-20/x end_h:0-7/x", "density: float [8].5"},
	{SpaceAttr, AttrAGPStartL, "HAGPBstL", 2537, "addr:0-23/x", "stored; the ring fetcher is not simulated (buffers come through hal.Submit)"},
	{SpaceAttr, AttrAGPEndL, "HAGPBendL", 2538, "addr:0-23/x", "stored"},
	{SpaceAttr, AttrAGPCmd, "HAGPCMNT", 2539, "start:23 errclr:22 end_h:8-15/x start_h:0-7/x", "errclr clears HRErr; start is stored"},
	{SpaceAttr, AttrAGPPauseL, "HAGPBpL", 2544, "addr:2-23/x id:0-1/bpid", "stored"},
	{SpaceAttr, AttrAGPPauseH, "HAGPBpH", 2546, "addr:0-7/x", "stored"},
	{SpaceAttr, AttrClipTB, "HClipTB", 2553, "top:12-22 bottom:0-10", "top inclusive, bottom exclusive ([OUT] drivers write y1<<12 | y1+h)"},
	{SpaceAttr, AttrClipLR, "HClipLR", 2557, "left:12-22 right:0-10", "left inclusive, right exclusive"},
	{SpaceAttr, AttrLinePattern, "HLP", 2562, "pattern:0-15/x", "LSB first"},
	{SpaceAttr, AttrLineRepeat, "HLPRF", 2564, "repeat:0-15", "0 acts as 1"},
	{SpaceAttr, AttrSolidColor, "HSolidCL", 2566, rgb24, ""},
	{SpaceAttr, AttrPixGC, "HPixGC", 2569, "center:23/pixgc a:0-7/x", ""},
	{SpaceAttr, AttrStippleOS, "HSPXYOS", 2572, "xos:12-16 yos:0-4", ""},
	{SpaceAttr, AttrVertexCount, "HVertexCNT", 2576, "count:0-15", "stored"},
	{SpaceAttr, AttrFlagNum, "HCRFlagNum", 2583, "flag:0-15/x", "read back at HRCRFlagNum (98h); the driver's fence write-back"},

	// Type 02h SubType 00h/01h: the per-texture registers; the per-level
	// rows are generated by levelRows.
	{SpaceTex, TexWidth05, "HTXnL0_5WE", 2656, "l5:20-23 l4:16-19 l3:12-15 l2:8-11 l1:4-7 l0:0-3", "log2 width, 0-11"},
	{SpaceTex, TexWidth6B, "HTXnL6_BWE", 2662, "lb:20-23 la:16-19 l9:12-15 l8:8-11 l7:4-7 l6:0-3", ""},
	{SpaceTex, TexHeight05, "HTXnL0_5HE", 2668, "l5:20-23 l4:16-19 l3:12-15 l2:8-11 l1:4-7 l0:0-3", "log2 height, 0-11"},
	{SpaceTex, TexHeight6B, "HTXnL6_BHE", 2674, "lb:20-23 la:16-19 l9:12-15 l8:8-11 l7:4-7 l6:0-3", ""},
	{SpaceTex, TexLOD, "HTXnL0OS", 2682, "l0os:12-21/s lvmax:6-11 lvmin:0-5", "l0os is s5.5"},
	{SpaceTex, TexFilter, "HTXnTB", 2688, "border:20-23/x mag_s:13-15/filt min_s:10-12/filt mag_t:7-9/filt min_t:4-6/filt mip:0-3/mip", ""},
	{SpaceTex, TexWrapMode, "HTXnMPMD", 2697, "t:19-21/wrap s:16-18/wrap xy2st:3", "WARP (100) reads as REPEAT, taken for a misspelt 'wrap'; SINGLE as CLAMP"},
	{SpaceTex, TexLODConst, "HTXnCLODu", 2701, "dstdiv:20-23 clodu:10-19/x clodd:0-9/x", "LODs are u5.5"},
	{SpaceTex, TexFormat, "HTXnFM", 2706, "fmt:16-23/fmt zext:15 inv124:14 loc:0-1/loc",
		"fmt group 23:19 + sub-format 18:16; Index8 (00000 011) is [OUT]"},
	{SpaceTex, TexTransHigh, "HTXnTRCH", 2715, rgb24, "stored; texture transparency is not simulated"},
	{SpaceTex, TexTransLow, "HTXnTRCL", 2716, rgb24, "stored"},
	{SpaceTex, TexBorder, "HTXnTBC", 2717, rgb24, ""},
	{SpaceTex, TexTransAlpha, "HTXnTRAH", 2718, "high:16-23/x low:8-15/x border_a:0-7/x", ""},
	{SpaceTex, TexBlendC, "HTXnTBLCsat", 2723, "sat:23 ca_mod:18-19/tmod ca:14-17/tc cb_mod:11-12/tmod cb:7-10/tc cc_mod:4-5/tmod cc:0-3/tc",
		"Cout = (Ca*(Cb Cop Cc) + Cbias) << Cshift; sat 1 clamps"},
	{SpaceTex, TexBlendCop, "HTXnTBLCop", 2771, "dot:22-23/tdot cop:19-21/top cbias_inv:18 cbias:14-17/tcb cshift:11-12/tsh aop:7-9/top abias_inv:6 abias:3-5/tab ashift:0-1/tsh",
		"dot product is 'only supported in multiple pass' and its formula garbled: not simulated"},
	{SpaceTex, TexBlendMPFog, "HTXnTBLMPfog", 2829, "mpfog:21-23/mpfog", "stored; multi-pass alpha is not simulated"},
	{SpaceTex, TexBlendA, "HTXnTBLAsat", 2841, "sat:23 maskbit:20-22 aa_mod:17-18/tmod aa:14-16/ta ab_mod:10-11/tmod ab:7-9/ta ac_mod:3-4/tmod ac:0-2/ta",
		"the Ac table (L2875) is column-shifted; it takes Aa's codes"},
	{SpaceTex, TexBlendRCa, "HTXnTBLRCa", 2877, rgb24, ""},
	{SpaceTex, TexBlendRCb, "HTXnTBLRCb", 2878, rgb24, ""},
	{SpaceTex, TexBlendRCc, "HTXnTBLRCc", 2879, rgb24, ""},
	{SpaceTex, TexBlendRCbias, "HTXnTBLRCbias", 2880, rgb24, "s7 per channel, LSB = 2/255 ([OUT] Mesa)"},
	{SpaceTex, TexBlendRAlpha, "HTXnTBLRAa", 2881, "aa:16-23/x ab:8-15/x ac:0-7/x", ""},
	{SpaceTex, TexBlendRFog, "HTXnTBLRFog", 2884, "rfog:8-15/x abias:0-7/x", "abias is s7, LSB = 2/255"},
	{SpaceTex, 0x90, "HTXnBumpM00", 2887, "v:0-23/x", "reserved in the seed; stored"},
	{SpaceTex, 0x91, "HTXnBumpM01", 2888, "v:0-23/x", "reserved in the seed; stored"},
	{SpaceTex, 0x92, "HTXnBumpM10", 2889, "v:0-23/x", "reserved in the seed; stored"},
	{SpaceTex, 0x93, "HTXnBumpM11", 2890, "v:0-23/x", "reserved in the seed; stored"},
	{SpaceTex, TexLumScale, "HTXnLScale", 2891, "scale:10-18/x offset:0-8/x", "bump mapping: stored"},

	// Type 02h SubType FEh: general texture setting.
	{SpaceTexGen, TexGenMode, "HTXSMD", 0, "smd:7 tmd:6 txnum:3-5/txnum trmd:1-2 chclr:0",
		"[OUT] via_3d_reg.h: HTXNum = textures - 1; the seed's header for this block is lost (L2896)"},
	{SpaceTexGen, TexGenYUV2, "HTXYUV2RGB2", 2897, "di:16-23/s b2:8-12/x c2:0-4/x", "stored; A, B1 and C1 are lost, so YUV textures are not simulated"},
	{SpaceTexGen, TexGenYUV3, "HTXYUV2RGB3", 2902, "df:17-19 chrms:16 b3:8-12/x c3:0-5/x", "stored"},

	// Type 10h (PreCR) and FEh (Auto): shadowed at A0h-ECh (L2190-2302).
	{SpacePreCR, 0x00, "PreCR00", 2192, "v:0-23/x", "stored"},
	{SpacePreCR, 0x10, "PreCR10", 2199, "v:0-23/x", "stored"},
	{SpacePreCR, 0x60, "HAGPBstL", 2206, "addr:0-23/x", "the AGP registers also answer under type 10h (guide §7.8)"},
	{SpacePreCR, 0x61, "HAGPBendL", 2213, "addr:0-23/x", ""},
	{SpacePreCR, 0x62, "HAGPCMNT", 2220, "start:23 errclr:22 end_h:8-15/x start_h:0-7/x", ""},
	{SpacePreCR, 0x63, "HAGPBpL", 2227, "addr:2-23/x id:0-1/bpid", ""},
	{SpacePreCR, 0x64, "HAGPBpH", 2234, "addr:0-7/x", ""},
	{SpaceAuto, 0x00, "Auto00", 2241, "v:0-23/x", "[OUT] arbitration/GEMI; stored"},
	{SpaceAuto, 0x04, "Auto04", 2248, "v:0-23/x", "stored"},
	{SpaceAuto, 0x05, "Auto05", 2255, "v:0-23/x", "stored"},
	{SpaceAuto, 0x08, "Auto08", 2262, "v:0-23/x", "stored"},
	{SpaceAuto, 0x0A, "Auto0A", 2269, "v:0-23/x", "stored"},
	{SpaceAuto, 0x0B, "Auto0B", 2276, "v:0-23/x", "stored"},
	{SpaceAuto, 0x0C, "Auto0C", 2283, "v:0-23/x", "stored (read-back offset typo DD-D8h, L2268)"},
	{SpaceAuto, 0x0D, "Auto0D", 2290, "v:0-23/x", "stored"},
	{SpaceAuto, 0x0E, "Auto0E", 2293, "v:0-23/x", "stored"},
	{SpaceAuto, 0x0F, "Auto0F", 2296, "v:0-23/x", "stored"},
	{SpaceAuto, 0x10, "Auto10", 2299, "v:0-23/x", "stored"},
	{SpaceAuto, 0x20, "Auto20", 2302, "v:0-23/x", "stored"},
}

// levelRows generates the per-level texture rows: base addresses (low at
// 00h-0Bh, high bytes three per register at 20h-23h) and pitches
// (2Bh-36h).
func levelRows() []row {
	var out []row
	for l := 0; l < MaxTexLevels; l++ {
		line, note := 2594+l, ""
		if l >= 10 {
			line, note = 0, "[OUT] via_3d_reg.h HTXnLaBasL/HTXnLbBasL: the seed lists no low part for levels A and B"
		}
		out = append(out, row{SpaceTex, uint8(TexBaseL0 + l), fmt.Sprintf("HTXnL%XBasL", l), line, "addr:0-23/x", note})
		out = append(out, row{SpaceTex, uint8(TexPitch0 + l), fmt.Sprintf("HTXnL%XPit", l), 2617 + 3*l,
			map[bool]string{true: "pite:20-23 enpit:19 pit:0-13", false: "pite:20-23 pit:0-13"}[l == 0],
			map[bool]string{true: "pitch = 2^PITE bytes unless enpit, then PIT bytes (111x reserved)", false: ""}[l == 0]})
	}
	for i := 0; i < 4; i++ {
		l := 3 * i
		out = append(out, row{SpaceTex, uint8(TexBaseH012 + i), fmt.Sprintf("HTXnL%X%X%XBasH", l, l+1, l+2), 2604 + 3*i,
			fmt.Sprintf("l%x:16-23/x l%x:8-15/x l%x:0-7/x", l+2, l+1, l), ""})
	}
	return out
}

// Table holds every register by space and sub-address; nil entries are
// undefined sub-addresses.
var Table [numSpaces][256]*Reg

// CmdA and CmdB describe Command A and B (type 00h dwords; their fields
// cover the whole dword).
var (
	CmdA = &Reg{Space: SpaceCmd, Name: "HCmdA", Line: 2304,
		Fields: parseFields("header:25-31/x fire:20 prim:16-19/prim eflag:13-15/x shade:10-12/shade validn:9 plend:8 cycle:0-7/cyc"),
		Note:   "[OUT] via_3d_reg.h: everything above bit 7 is lost in the seed (L2302->L2304)"}
	CmdB = &Reg{Space: SpaceCmd, Name: "HCmdB", Line: 2315,
		Fields: parseFields("header:25-31/x lprst:16 lastp:15 mask:7-14/vmask bface:6/bface second:0-5/cyc"),
		Note:   "seed L2315-2325"}
)

func parseFields(spec string) []Field {
	var fs []Field
	for _, f := range strings.Fields(spec) {
		name, rest, ok := strings.Cut(f, ":")
		if !ok {
			panic("unichrome: bad field " + f)
		}
		bitsPart, kind, _ := strings.Cut(rest, "/")
		lo, hi := bitsPart, bitsPart
		if a, b, ok := strings.Cut(bitsPart, "-"); ok {
			lo, hi = a, b
		}
		l, err1 := strconv.Atoi(lo)
		h, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || l > h || h > 31 {
			panic("unichrome: bad bits in " + f)
		}
		fd := Field{Name: name, Lo: uint8(l), Hi: uint8(h)}
		switch {
		case kind == "":
			if l == h {
				fd.Kind = Flag
			}
		case kind == "x":
			fd.Kind = Hex
		case kind == "s":
			fd.Kind = Sint
		case kind == "fmt":
			fd.Kind = TexFmt
		case kind == "cyc":
			fd.Kind = VCycle
		case kind == "vmask":
			fd.Kind = VertMask
		default:
			e, ok := enumTables[kind]
			if !ok {
				panic("unichrome: unknown enum " + kind)
			}
			fd.Kind, fd.Enum = Enum, e
		}
		fs = append(fs, fd)
	}
	return fs
}

func init() {
	all := append(append([]row{}, rows...), levelRows()...)
	for _, r := range all {
		if Table[r.space][r.sub] != nil {
			panic(fmt.Sprintf("unichrome: duplicate register %s/%02X", r.space, r.sub))
		}
		Table[r.space][r.sub] = &Reg{Space: r.space, Sub: r.sub, Name: r.name, Line: r.line, Fields: parseFields(r.fields), Note: r.note}
	}
}

// Lookup returns the register at a sub-address of a space.
func Lookup(s Space, sub uint8) (*Reg, bool) {
	if s >= numSpaces {
		return nil, false
	}
	r := Table[s][sub]
	return r, r != nil
}

// Named returns the register called name in space s; it panics when there
// is none, which is a programming error.
func Named(s Space, name string) *Reg {
	for _, r := range Table[s] {
		if r != nil && r.Name == name {
			return r
		}
	}
	panic(fmt.Sprintf("unichrome: no register %s in %s", name, s))
}

// Build builds the data bits of a register from named field values: ints,
// uint32s, bools, or enumeration names. It panics on an unknown field or
// value, which is a programming error in the caller.
func (r *Reg) Build(kv ...any) uint32 {
	var d uint32
	for i := 0; i+1 < len(kv); i += 2 {
		name := kv[i].(string)
		f, ok := r.Field(name)
		if !ok {
			panic(fmt.Sprintf("unichrome: %s has no field %q", r.Name, name))
		}
		var v uint32
		switch x := kv[i+1].(type) {
		case int:
			v = uint32(x)
		case uint32:
			v = x
		case uint8:
			v = uint32(x)
		case bool:
			if x {
				v = 1
			}
		case string:
			idx := -1
			for j, e := range f.Enum {
				if e == x {
					idx = j
				}
			}
			if idx < 0 {
				panic(fmt.Sprintf("unichrome: %s.%s has no value %q", r.Name, name, x))
			}
			v = uint32(idx)
		default:
			panic(fmt.Sprintf("unichrome: field value of type %T", x))
		}
		d |= f.Put(v)
	}
	return d
}

// Word builds the parameter dword of a register from named field values.
func (r *Reg) Word(kv ...any) uint32 { return Param(r.Sub, r.Build(kv...)) }

// Text prints a data word's fields: "NAME f=v ...".
func (r *Reg) Text(d uint32) string {
	var b strings.Builder
	b.WriteString(r.Name)
	for _, f := range r.Fields {
		v := f.Get(d)
		b.WriteByte(' ')
		b.WriteString(f.Name)
		b.WriteByte('=')
		switch f.Kind {
		case Enum:
			if int(v) < len(f.Enum) {
				b.WriteString(f.Enum[v])
			} else {
				fmt.Fprintf(&b, "%d", v)
			}
		case Sint:
			bits := f.Hi - f.Lo + 1
			fmt.Fprintf(&b, "%d", int32(v<<(32-bits))>>(32-bits))
		case Hex:
			fmt.Fprintf(&b, "%#x", v)
		case TexFmt:
			b.WriteString(TexFormatName(uint8(v)))
		case VCycle:
			b.WriteString(CycleText(v))
		case VertMask:
			b.WriteString(MaskText(v << 7))
		default:
			fmt.Fprintf(&b, "%d", v)
		}
	}
	return b.String()
}
