// Package r300 is the ATI Radeon R3xx 3D register file as data: every
// register of the seed (shared/seeds/004_cfc02711195be364.txt, "Radeon R3xx
// 3D Register Reference Guide") with its address, fields and enumerations;
// the PM4 packet builders the seed lacks ([OUT] public Radeon PM4 layout);
// the FP24 (S16E7) number format; the US fragment-shader instruction
// encodings; and a decoder that prints packets, register names and fields,
// and disassembles the fragment program held in US registers. The driver
// (driver/r300), the simulator (sim/r300) and the compiler back end
// (compiler/r300) meet here and nowhere else.
//
// Where the seed is damaged or silent the table follows the guide
// (shared/notes/r300.md); each such row says so in its note:
//   - RB3D_ABLENDCNTL.SRCBLEND is 21:16 (OCR "21:10" at L77).
//   - Blend factor lists are rebuilt from L266-406 (the OCR lists repeat).
//   - GB_FIFO_SIZE.RS_HIGHWATER_TEX lost its bits (L796-800): 21:19 [OUT].
//   - GA_ENHANCE.FASTSYNC_CNTL lost its bit: 1 [OUT].
//   - ZB_ZCACHE_CTLSTAT.ZC_FREE lost its bit: 1 [OUT]; ZB_ZTOP is cut off
//     at the end of the file: ENABLE is bit 0 [OUT].
//   - TX_FORMAT1.TXFORMAT 15-17 are DXT1/3/5 [OUT] (reserved in the seed).
package r300

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Kind says how a field's bits read.
type Kind uint8

// The field kinds.
const (
	Uint  Kind = iota // unsigned integer
	Sint              // two's complement
	Flag              // one bit
	Hex               // unsigned, printed in hex
	Addr              // an address kept in place (low bits zero), hex
	Enum              // index into Field.Enum
	F32               // the whole register is an IEEE float
	FP24              // S16E7 in 23:0
	S3_12             // signed 3.12 fixed point (GA_SOLID_*)
	S4_5              // signed 4.5 fixed point (TX_FILTER1.LOD_BIAS)
)

// Field is a bit field of a register.
type Field struct {
	Name   string
	Lo, Hi uint8 // inclusive
	Kind   Kind
	Enum   []string // for Enum; "" marks a reserved value
}

// Mask returns the field's bits in place.
func (f Field) Mask() uint32 { return uint32(uint64(1)<<(f.Hi-f.Lo+1)-1) << f.Lo }

// Get extracts the field from a register value.
func (f Field) Get(v uint32) uint32 { return v & f.Mask() >> f.Lo }

// Put returns v placed in the field; bits beyond the field are dropped.
func (f Field) Put(v uint32) uint32 { return v << f.Lo & f.Mask() }

// Format prints the field's value of register value v.
func (f Field) Format(v uint32) string {
	x := f.Get(v)
	switch f.Kind {
	case Sint:
		bits := f.Hi - f.Lo + 1
		return strconv.Itoa(int(int32(x<<(32-bits)) >> (32 - bits)))
	case Hex:
		return fmt.Sprintf("%#x", x)
	case Addr:
		return fmt.Sprintf("%#x", v&f.Mask())
	case Enum:
		if int(x) < len(f.Enum) && f.Enum[x] != "" {
			return f.Enum[x]
		}
		return fmt.Sprintf("%d?", x)
	case F32:
		return strconv.FormatFloat(float64(math.Float32frombits(v)), 'g', -1, 32)
	case FP24:
		return strconv.FormatFloat(float64(DecodeFP24(v)), 'g', -1, 32)
	case S3_12:
		return strconv.FormatFloat(float64(int16(x))/4096, 'g', -1, 32)
	case S4_5:
		return strconv.FormatFloat(float64(int32(x<<22)>>22)/32, 'g', -1, 32)
	}
	return strconv.FormatUint(uint64(x), 10)
}

// Reg is one register, or an array of registers at a fixed stride.
type Reg struct {
	// Name is the seed's name; array elements append their index (and
	// Suffix): RB3D_COLOROFFSET2, RS_IP_3, SC_CLIP_1_A.
	Name   string
	Suffix string
	// Unit is the seed's block prefix (CB, FG, GA, GB, RS, SC, SU, TX, US,
	// VAP, ZB).
	Unit string
	Addr uint32
	// Count is the number of elements (1 for a plain register), Stride
	// the distance between them in bytes.
	Count  int
	Stride uint32
	// IndexMul and IndexAdd map element k to the printed index
	// k*IndexMul+IndexAdd (VAP_VTX_AOS_ADDR interleaves even and odd
	// arrays); Pair prints "2k" and "2k+1" together (AOS_ATTR01).
	IndexMul, IndexAdd int
	Pair               bool
	// Alias is the primary address of a register mirrored here (the
	// VAP_VPORT_* registers at 0x1d98).
	Alias  uint32
	Line   int
	Fields []Field
	Note   string
}

// ElemName returns the name of element k.
func (r *Reg) ElemName(k int) string {
	if r.Count <= 1 {
		return r.Name
	}
	if r.Pair {
		return fmt.Sprintf("%s%d%d%s", r.Name, 2*k, 2*k+1, r.Suffix)
	}
	mul := r.IndexMul
	if mul == 0 {
		mul = 1
	}
	return fmt.Sprintf("%s%d%s", r.Name, k*mul+r.IndexAdd, r.Suffix)
}

// Field returns the named field; it panics when there is none, since
// field names in code are constants.
func (r *Reg) Field(name string) Field {
	for _, f := range r.Fields {
		if f.Name == name {
			return f
		}
	}
	panic("r300: register " + r.Name + " has no field " + name)
}

// Format prints a value written to element k: name and fields.
func (r *Reg) Format(k int, v uint32) string {
	var b strings.Builder
	b.WriteString(r.ElemName(k))
	for _, f := range r.Fields {
		b.WriteByte(' ')
		if f.Kind != F32 || len(r.Fields) > 1 {
			b.WriteString(f.Name)
			b.WriteByte('=')
		}
		b.WriteString(f.Format(v))
	}
	if bad := v &^ r.used(); bad != 0 {
		fmt.Fprintf(&b, " reserved=%#x", bad)
	}
	return b.String()
}

func (r *Reg) used() uint32 {
	var m uint32
	for _, f := range r.Fields {
		m |= f.Mask()
	}
	return m
}

// Enumerations used by the fields (seed value lists; "" = reserved).
var (
	EnumComb = []string{"ADD_CLAMP", "ADD_NOCLAMP", "SUB_CLAMP", "SUB_NOCLAMP", "MIN", "MAX", "RSUB_CLAMP", "RSUB_NOCLAMP"}
	// EnumBlend is the 6-bit blend factor, rebuilt from L266-406 (guide
	// §2.1 [RECON]).
	EnumBlend = func() []string {
		e := make([]string, 64)
		copy(e[1:], []string{"D3D_ZERO", "D3D_ONE", "D3D_SRCCOLOR", "D3D_INVSRCCOLOR", "D3D_SRCALPHA",
			"D3D_INVSRCALPHA", "D3D_DESTALPHA", "D3D_INVDESTALPHA", "D3D_DESTCOLOR", "D3D_INVDESTCOLOR",
			"D3D_SRCALPHASAT", "D3D_BOTHSRCALPHA", "D3D_BOTHINVSRCALPHA"})
		copy(e[32:], []string{"GL_ZERO", "GL_ONE", "GL_SRC_COLOR", "GL_ONE_MINUS_SRC_COLOR", "GL_DST_COLOR",
			"GL_ONE_MINUS_DST_COLOR", "GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA", "GL_DST_ALPHA",
			"GL_ONE_MINUS_DST_ALPHA", "GL_SRC_ALPHA_SATURATE", "GL_CONST_COLOR", "GL_ONE_MINUS_CONST_COLOR",
			"GL_CONST_ALPHA", "GL_ONE_MINUS_CONST_ALPHA"})
		return e
	}()
	EnumDiscard   = []string{"OFF", "A0", "RGB0", "ARGB0", "A1", "RGB1", "ARGB1"}
	EnumColorFmt  = []string{"", "", "", "ARGB1555", "RGB565", "", "ARGB8888", "ARGB32323232", "", "I8", "ARGB16161616", "VYUY", "YVYU", "UV88", "", "ARGB4444"}
	EnumMicroTile = []string{"LINEAR", "TILED", "SQUARE"}
	EnumEndian    = []string{"NONE", "WORD", "DWORD", "HALF_DWORD"}
	EnumDither    = []string{"TRUNCATE", "ROUND", "LUT"}
	// EnumAlphaFunc is FG_ALPHA_FUNC's order (L511), not ZB's.
	EnumAlphaFunc = []string{"NEVER", "LESS", "EQUAL", "LE", "GREATER", "NOTEQUAL", "GE", "ALWAYS"}
	// EnumZFunc is ZB's order (L2504-2506).
	EnumZFunc     = []string{"NEVER", "LESS", "LEQUAL", "EQUAL", "GEQUAL", "GREATER", "NOTEQUAL", "ALWAYS"}
	EnumStencilOp = []string{"KEEP", "ZERO", "REPLACE", "INCR", "DECR", "INVERT", "INCR_WRAP", "DECR_WRAP"}
	EnumFogFn     = []string{"LINEAR", "EXP", "EXP2", "CONSTANT"}
	EnumShade     = []string{"SOLID", "FLAT", "GOURAUD"}
	EnumProvoking = []string{"FIRST", "SECOND", "THIRD", "LAST"}
	EnumLineEnd   = []string{"HORIZONTAL", "VERTICAL", "SQUARE", "COMPUTED"}
	EnumLineReset = []string{"NONE", "LINE", "PACKET"}
	EnumPolyMode  = []string{"DISABLE", "DUAL"}
	EnumPType     = []string{"POINTS", "LINES", "TRIANGLES"}
	EnumRound     = []string{"TRUNC", "NEAREST"}
	EnumCClamp    = []string{"0_1", "PLUS_MINUS_8"}
	EnumTexSource = []string{"VAP", "STUFF_ST", "STUFF_STR"}
	EnumStAuto    = []string{"OFF", "CW_CCW", "FORCE0"}
	EnumAASub     = []string{"2", "3", "4", "6"}
	EnumFogSelect = []string{"C0A", "C1A", "C2A", "C3A", "W", "Z"}
	EnumDepthSel  = []string{"Z", "W"}
	EnumWSel      = []string{"INV_W", "ONE"}
	EnumPipes     = []string{"RV350", "", "", "R300", "", "", "R420_3P", "R420"}
	EnumTileSize  = []string{"8", "16", "32"}
	EnumSubpixel  = []string{"1/12", "1/16"}
	EnumRSColFmt  = []string{"RGBA", "RGB0", "RGB1", "", "000A", "0000", "0001", "", "111A", "1110", "1111"}
	EnumRSSel     = []string{"C0", "C1", "C2", "C3", "K0", "K1"}
	EnumFace      = []string{"CCW", "CW"}
	EnumWrap      = []string{"WRAP", "MIRROR", "CLAMP_LAST", "MIRROR_ONCE_LAST", "CLAMP_HALF_BORDER", "MIRROR_ONCE_HALF_BORDER", "CLAMP_BORDER", "MIRROR_ONCE_BORDER"}
	EnumFilter    = []string{"", "POINT", "LINEAR"}
	EnumMipFilter = []string{"NONE", "POINT", "LINEAR"}
	EnumChroma    = []string{"DISABLE", "KILL", "BLEND"}
	// EnumTexFormat follows L1382 [RECON] with the [OUT] DXT codes.
	EnumTexFormat = []string{"8", "16", "4_4", "8_8", "16_16", "3_3_2", "5_6_5", "6_5_5", "11_11_10", "10_11_11",
		"4_4_4_4", "1_5_5_5", "8_8_8_8", "2_10_10_10", "16_16_16_16", "DXT1", "DXT3", "DXT5", "Y8", "AVYU444",
		"VYUY422", "YVYU422", "16_MPEG", "16_16_MPEG", "16F", "16F_16F", "16F_16F_16F_16F", "32F", "32F_32F",
		"32F_32F_32F_32F", "W24_FP", ""}
	EnumTexSel    = []string{"C0", "C1", "C2", "C3", "ZERO", "ONE"}
	EnumYUV       = []string{"OFF", "CLAMP", "NOCLAMP"}
	EnumCoordType = []string{"2D", "3D", "CUBE"}
	EnumMod       = []string{"NOP", "NEG", "ABS", "NAB"}
	EnumSrcp      = []string{"1-2*S0", "S1-S0", "S1+S0", "1-S0"}
	EnumRGBOp     = []string{"MAD", "DP3", "DP4", "D2A", "MIN", "MAX", "", "CND", "CMP", "FRC", "SOP"}
	EnumAlphaOp   = []string{"MAD", "DP", "MIN", "MAX", "", "CND", "CMP", "FRC", "EX2", "LN2", "RCP", "RSQ"}
	EnumOmod      = []string{"*1", "*2", "*4", "*8", "/2", "/4", "/8"}
	EnumTarget    = []string{"A", "B", "C", "D"}
	EnumTexInst   = []string{"NOP", "LD", "TEXKILL", "PROJ", "LODBIAS"}
	EnumOutFmt    = []string{"C4_8", "C4_10", "C4_10_GAMMA", "C_16", "C2_16", "C4_16", "C_16_MPEG", "C2_16_MPEG", "C2_4",
		"C_3_3_2", "C_6_5_6", "C_11_11_10", "C_10_11_11", "C_2_10_10_10", "", "UNUSED", "C_16_FP", "C2_16_FP",
		"C4_16_FP", "C_32_FP", "C2_32_FP", "C4_32_FP"}
	EnumCSel     = []string{"A", "R", "G", "B"}
	EnumWFmt     = []string{"W0", "W24", "W24_FP"}
	EnumWSrc     = []string{"US", "RAS"}
	EnumPrimType = []string{"NONE", "POINTS", "LINES", "LINE_STRIP", "TRIANGLES", "TRIANGLE_FAN", "TRIANGLE_STRIP", "TRIANGLE_WFLAGS", "", "", "", "", "LINE_LOOP", "QUADS", "QUAD_STRIP", "POLYGON"}
	EnumPrimWalk = []string{"STATE", "INDICES", "VTX_LIST", "VTX_DATA"}
	EnumDataType = []string{"FLOAT_1", "FLOAT_2", "FLOAT_3", "FLOAT_4", "BYTE", "D3DCOLOR", "SHORT_2", "SHORT_4", "VECTOR_3_TTT", "VECTOR_3_EET", "FLOAT_8", "FLT16_2", "FLT16_4"}
	EnumSwz      = []string{"X", "Y", "Z", "W", "ZERO", "ONE"}
	EnumSgnNorm  = []string{"ZERO", "ZERO_CLAMP", "NO_ZERO"}
	EnumFCOpc    = []string{"NOP", "JUMP", "LOOP", "JSR"}
	EnumVCSwap   = []string{"NONE", "16BIT", "32BIT", "HALF_DWORD"}
	EnumPSUCP    = []string{"CENTER", "RADIUS", "RADIUS_EXPAND", "TRIFAN"}
	EnumZFormat  = []string{"Z16", "Z16_13E3", "Z24S8"}
	EnumAssembly = []string{"COLOR", "USER0", "USER1"}
)

var enumTables = map[string][]string{
	"comb": EnumComb, "blend": EnumBlend, "discard": EnumDiscard, "cfmt": EnumColorFmt, "micro": EnumMicroTile,
	"endian": EnumEndian, "dither": EnumDither, "afunc": EnumAlphaFunc, "zfunc": EnumZFunc, "sop": EnumStencilOp,
	"fogfn": EnumFogFn, "shade": EnumShade, "provoke": EnumProvoking, "lineend": EnumLineEnd,
	"linereset": EnumLineReset, "polymode": EnumPolyMode, "ptype": EnumPType, "round": EnumRound,
	"cclamp": EnumCClamp, "texsrc": EnumTexSource, "stauto": EnumStAuto, "aasub": EnumAASub,
	"fogsel": EnumFogSelect, "depthsel": EnumDepthSel, "wsel": EnumWSel, "pipes": EnumPipes,
	"tilesize": EnumTileSize, "subpix": EnumSubpixel, "rscolfmt": EnumRSColFmt, "rssel": EnumRSSel,
	"face": EnumFace, "wrap": EnumWrap, "filter": EnumFilter, "mip": EnumMipFilter, "chroma": EnumChroma,
	"txfmt": EnumTexFormat, "txsel": EnumTexSel, "yuv": EnumYUV, "coord": EnumCoordType, "mod": EnumMod,
	"srcp": EnumSrcp, "rgbop": EnumRGBOp, "aop": EnumAlphaOp, "omod": EnumOmod, "target": EnumTarget,
	"texinst": EnumTexInst, "outfmt": EnumOutFmt, "csel": EnumCSel, "wfmt": EnumWFmt, "wsrc": EnumWSrc,
	"prim": EnumPrimType, "walk": EnumPrimWalk, "dtype": EnumDataType, "swz": EnumSwz, "sgnnorm": EnumSgnNorm,
	"fcopc": EnumFCOpc, "vcswap": EnumVCSwap, "psucp": EnumPSUCP, "zfmt": EnumZFormat, "asm": EnumAssembly,
}

// row is the compact source of the table. fields are "NAME:hi:lo[/kind]"
// or "NAME:bit[/kind]"; kind is an enumeration name or s, x, a, f32, fp24,
// s3_12, s4_5. count/stride describe arrays.
type row struct {
	unit, name string
	addr       uint32
	count      int
	stride     uint32
	line       int
	fields     string
	note       string
}

// repeat builds n field specs from a template with %d (index) and %h/%l
// (bit numbers hi/lo = base+step*i+width-1 / base+step*i).
func repeat(n, base, step, width int, name, kind string) string {
	var parts []string
	for i := 0; i < n; i++ {
		lo := base + step*i
		nm := strings.ReplaceAll(name, "%d", strconv.Itoa(i))
		s := fmt.Sprintf("%s:%d", nm, lo)
		if width > 1 {
			s = fmt.Sprintf("%s:%d:%d", nm, lo+width-1, lo)
		}
		if kind != "" {
			s += "/" + kind
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

const (
	rgba8    = "BLUE:7:0 GREEN:15:8 RED:23:16 ALPHA:31:24"
	alusrc   = "ADDR0:5:0 ADDR1:11:6 ADDR2:17:12 ADDRD:22:18"
	aluinst  = "SEL_A:4:0 MOD_A:6:5/mod SEL_B:11:7 MOD_B:13:12/mod SEL_C:18:14 MOD_C:20:19/mod SRCP_OP:22:21/srcp"
	f32whole = "VALUE:31:0/f32"
)

var rows = []row{
	// 1.1 Colour buffer (L42-501).
	{"CB", "RB3D_AARESOLVE_CTL", 0x4e88, 1, 0, 44, "AARESOLVE_MODE:0 AARESOLVE_GAMMA:1", ""},
	{"CB", "RB3D_AARESOLVE_OFFSET", 0x4e80, 1, 0, 50, "AARESOLVE_OFFSET:31:5/a", ""},
	{"CB", "RB3D_AARESOLVE_PITCH", 0x4e84, 1, 0, 55, "AARESOLVE_PITCH:13:1", ""},
	{"CB", "RB3D_ABLENDCNTL", 0x4e08, 1, 0, 60, "COMB_FCN:14:12/comb SRCBLEND:21:16/blend DESTBLEND:29:24/blend",
		"SRCBLEND is 21:16 [RECON]: the OCR row at L77 says 21:10, L76 holds the true bits"},
	{"CB", "RB3D_BLENDCNTL", 0x4e04, 1, 0, 223, "ALPHA_BLEND_ENABLE:0 SEPARATE_ALPHA_ENABLE:1 READ_ENABLE:2 DISCARD_SRC_PIXELS:5:3/discard COMB_FCN:14:12/comb SRCBLEND:21:16/blend DESTBLEND:29:24/blend", ""},
	{"CB", "RB3D_CCTL", 0x4e00, 1, 0, 408, "NUM_MULTIWRITES:6:5 CLRCMP_FLIPE_ENABLE:7 AA_COMPRESSION_ENABLE:9", "bit 10 is reserved ([OUT] CMASK_ENABLE)"},
	{"CB", "RB3D_CLRCMP_CLR", 0x4e20, 1, 0, 417, "CLRCMP_CLR:31:0/x", ""},
	{"CB", "RB3D_CLRCMP_FLIPE", 0x4e1c, 1, 0, 424, "CLRCMP_FLIPE:31:0/x", ""},
	{"CB", "RB3D_CLRCMP_MSK", 0x4e24, 1, 0, 429, "CLRCMP_MSK:31:0/x", ""},
	{"CB", "RB3D_COLOROFFSET", 0x4e28, 4, 4, 434, "COLOROFFSET:31:5/a", ""},
	{"CB", "RB3D_COLORPITCH", 0x4e38, 4, 4, 439, "COLORPITCH:13:1 COLORTILE:16 COLORMICROTILE:18:17/micro COLORENDIAN:20:19/endian COLORFORMAT:24:21/cfmt",
		"COLORFORMAT 10 is ARGB16161616 [RECON] (OCR 'ARGB1616166', L450)"},
	{"CB", "RB3D_COLOR_CHANNEL_MASK", 0x4e0c, 1, 0, 452, "BLUE_MASK:0 GREEN_MASK:1 RED_MASK:2 ALPHA_MASK:3", "B,G,R,A from bit 0 (L455-458)"},
	{"CB", "RB3D_COLOR_CLEAR_VALUE", 0x4e14, 1, 0, 464, rgba8, ""},
	{"CB", "RB3D_CONSTANT_COLOR", 0x4e10, 1, 0, 472, rgba8, ""},
	{"CB", "RB3D_DITHER_CTL", 0x4e50, 1, 0, 480, "DITHER_MODE:1:0/dither ALPHA_DITHER_MODE:3:2/dither", ""},
	{"CB", "RB3D_DSTCACHE_CTLSTAT", 0x4e4c, 1, 0, 486, "DC_FLUSH:1:0 DC_FREE:3:2 DC_FINISH:4", ""},
	{"CB", "RB3D_ROPCNTL", 0x4e18, 1, 0, 497, "ROP_ENABLE:2 ROP:11:8/x", ""},

	// 1.2 Fog (L505-549).
	{"FG", "FG_ALPHA_FUNC", 0x4bd4, 1, 0, 507, "AF_VAL:7:0 AF_FUNC:10:8/afunc AF_EN:11 AM_EN:16 AM_CFG:17 DITH_EN:20", "AF_ALWAYS (7) drifted to L512"},
	{"FG", "FG_DEPTH_SRC", 0x4bd8, 1, 0, 517, "DEPTH_SRC:0", ""},
	{"FG", "FG_FOG_BLEND", 0x4bc0, 1, 0, 524, "ENABLE:0 FN:2:1/fogfn", ""},
	{"FG", "FG_FOG_COLOR_B", 0x4bd0, 1, 0, 531, "BLUE:9:0", ""},
	{"FG", "FG_FOG_COLOR_G", 0x4bcc, 1, 0, 536, "GREEN:9:0", ""},
	{"FG", "FG_FOG_COLOR_R", 0x4bc8, 1, 0, 541, "RED:9:0", ""},
	{"FG", "FG_FOG_FACTOR", 0x4bc4, 1, 0, 546, "FACTOR:9:0", ""},

	// 1.3 Geometry assembly (L555-717).
	{"GA", "GA_COLOR_CONTROL", 0x4278, 1, 0, 557, repeat(4, 0, 4, 2, "RGB%d_SHADING", "shade") + " " + repeat(4, 2, 4, 2, "ALPHA%d_SHADING", "shade") + " PROVOKING_VERTEX:17:16/provoke", ""},
	{"GA", "GA_ENHANCE", 0x4274, 1, 0, 581, "DEADLOCK_CNTL:0 FASTSYNC_CNTL:1", "FASTSYNC_CNTL lost its bit in the OCR: bit 1 [OUT]"},
	{"GA", "GA_FOG_OFFSET", 0x4298, 1, 0, 587, f32whole, ""},
	{"GA", "GA_FOG_SCALE", 0x4294, 1, 0, 592, f32whole, ""},
	{"GA", "GA_LINE_CNTL", 0x4234, 1, 0, 597, "WIDTH:15:0 END_TYPE:17:16/lineend", "WIDTH is half the width in subpixels"},
	{"GA", "GA_LINE_S0", 0x4264, 1, 0, 607, f32whole, ""},
	{"GA", "GA_LINE_S1", 0x4268, 1, 0, 612, f32whole, ""},
	{"GA", "GA_LINE_STIPPLE_CONFIG", 0x4238, 1, 0, 617, "LINE_RESET:1:0/linereset STIPPLE_SCALE:31:2/x", ""},
	{"GA", "GA_LINE_STIPPLE_VALUE", 0x4260, 1, 0, 623, "STIPPLE_VALUE:31:0", ""},
	{"GA", "GA_OFFSET", 0x4290, 1, 0, 630, "X_OFFSET:15:0/s Y_OFFSET:31:16/s", ""},
	{"GA", "GA_POINT_MINMAX", 0x4230, 1, 0, 636, "MIN_SIZE:15:0 MAX_SIZE:31:16", ""},
	{"GA", "GA_POINT_S0", 0x4200, 1, 0, 642, f32whole, ""},
	{"GA", "GA_POINT_T0", 0x4204, 1, 0, 658, f32whole, ""},
	{"GA", "GA_POINT_S1", 0x4208, 1, 0, 647, f32whole, ""},
	{"GA", "GA_POINT_T1", 0x420c, 1, 0, 665, f32whole, ""},
	{"GA", "GA_POINT_SIZE", 0x421c, 1, 0, 652, "HEIGHT:15:0 WIDTH:31:16", "half sizes in subpixels"},
	{"GA", "GA_POLY_MODE", 0x4288, 1, 0, 670, "POLY_MODE:1:0/polymode FRONT_PTYPE:6:4/ptype BACK_PTYPE:9:7/ptype", ""},
	{"GA", "GA_ROUND_MODE", 0x428c, 1, 0, 677, "GEOMETRY_ROUND:1:0/round COLOR_ROUND:3:2/round RGB_CLAMP:4/cclamp ALPHA_CLAMP:5/cclamp", ""},
	{"GA", "GA_SOFT_RESET", 0x429c, 1, 0, 696, "SOFT_RESET_COUNT:15:0", ""},
	{"GA", "GA_SOLID_BA", 0x4280, 1, 0, 701, "COLOR_ALPHA:15:0/s3_12 COLOR_BLUE:31:16/s3_12", ""},
	{"GA", "GA_SOLID_RG", 0x427c, 1, 0, 707, "COLOR_GREEN:15:0/s3_12 COLOR_RED:31:16/s3_12", ""},
	{"GA", "GA_TRIANGLE_STIPPLE", 0x4214, 1, 0, 713, "X_SHIFT:3:0 Y_SHIFT:19:16", ""},

	// 1.4 Graphics backend (L721-860).
	{"GB", "GB_AA_CONFIG", 0x4020, 1, 0, 723, "AA_ENABLE:0 NUM_AA_SUBSAMPLES:2:1/aasub", ""},
	{"GB", "GB_ENABLE", 0x4008, 1, 0, 729, "POINT_STUFF_ENABLE:0 LINE_STUFF_ENABLE:1 TRIANGLE_STUFF_ENABLE:2 STENCIL_AUTO:5:4/stauto " + repeat(8, 16, 2, 2, "TEX%d_SOURCE", "texsrc"), ""},
	{"GB", "GB_FIFO_SIZE", 0x4024, 1, 0, 784, "SC_IFIFO_SIZE:1:0 SC_TZFIFO_SIZE:3:2 SC_BFIFO_SIZE:5:4 RS_TFIFO_SIZE:7:6 RS_CFIFO_SIZE:9:8 US_RAM_SIZE:11:10 US_OFIFO_SIZE:13:12 US_WFIFO_SIZE:15:14 RS_HIGHWATER_COL:18:16 RS_HIGHWATER_TEX:21:19 US_OFIFO_HIGHWATER:23:22 US_CUBE_FIFO_HIGHWATER:27:24",
		"RS_HIGHWATER_TEX lost its bits in the OCR (L796-800): 21:19 [OUT]; the simulator ignores FIFO sizes"},
	{"GB", "GB_MSPOS0", 0x4010, 1, 0, 804, "MS_X0:3:0 MS_Y0:7:4 MS_X1:11:8 MS_Y1:15:12 MS_X2:19:16 MS_Y2:23:20 MSBD0_Y:27:24 MSBD0_X:31:28", ""},
	{"GB", "GB_MSPOS1", 0x4014, 1, 0, 819, "MS_X3:3:0 MS_Y3:7:4 MS_X4:11:8 MS_Y4:15:12 MS_X5:19:16 MS_Y5:23:20 MSBD1:27:24", ""},
	{"GB", "GB_SELECT", 0x401c, 1, 0, 830, "FOG_SELECT:2:0/fogsel DEPTH_SELECT:3/depthsel W_SELECT:4/wsel", ""},
	{"GB", "GB_TILE_CONFIG", 0x4018, 1, 0, 841, "ENABLE:0 PIPE_COUNT:3:1/pipes TILE_SIZE:5:4/tilesize SUPER_SIZE:8:6 SUPER_X:11:9 SUPER_Y:14:12 SUPER_TILE:15 SUBPIXEL:16/subpix QUADS_PER_RAS:18:17 BB_SCAN:19", ""},

	// 1.5 Rasterizer (L866-913).
	{"RS", "RS_COUNT", 0x4300, 1, 0, 868, "IT_COUNT:6:0 IC_COUNT:10:7 W_COUNT:11 W_ADDR:17:12 HIRES_EN:18", ""},
	{"RS", "RS_INST_", 0x4330, 16, 4, 877, "TEX_ID:2:0 TEX_CN:5:3 TEX_ADDR:10:6 COL_ID:13:11 COL_CN:16:14 COL_ADDR:21:17 TEX_ADJ:22 COL_BIAS:24:23", "COL_BIAS is 'IICOL BIAS' in the OCR (L890), unused"},
	{"RS", "RS_INST_COUNT", 0x4304, 1, 0, 893, "INST_COUNT:3:0 W_EN:4 TX_OFFSET:7:5", "INST_COUNT is N-1"},
	{"RS", "RS_IP_", 0x4310, 8, 4, 900, "TEX_PTR:5:0 COL_PTR:8:6 COL_FMT:12:9/rscolfmt SEL_S:15:13/rssel SEL_T:18:16/rssel SEL_R:21:19/rssel SEL_Q:24:22/rssel", ""},

	// 1.6 Clipping (L917-1166).
	{"SC", "SC_CLIP_", 0x43b0, 4, 8, 919, "XS0:12:0 YS0:25:13", ""},
	{"SC", "SC_CLIP_", 0x43b4, 4, 8, 925, "XS1:12:0 YS1:25:13", ""},
	{"SC", "SC_CLIP_RULE", 0x43d0, 1, 0, 964, "CLIP_RULE:15:0/x", ""},
	{"SC", "SC_EDGERULE", 0x43a8, 1, 0, 969, "ER_TRI:4:0 ER_POINT:9:5 ER_LINE_LR:14:10 ER_LINE_RL:19:15 ER_LINE_TB:24:20 ER_LINE_BT:29:25",
		"value bits [RECON] from L972-1133: v<16 bit3 L, bit2 R, bit1 HT, bit0 HB; v>=16 bit3 T, bit2 B, bit1 VL, bit0 VR; 1 = a sample on that edge is out"},
	{"SC", "SC_HYPERZ_EN", 0x43a4, 1, 0, 1135, "HZ_EN:0 HZ_MAX:1 HZ_ADJ:4:2 HZ_Z0MIN:5 HZ_Z0MAX:6", ""},
	{"SC", "SC_SCISSOR0", 0x43e0, 1, 0, 1151, "XS0:12:0 YS0:25:13", ""},
	{"SC", "SC_SCISSOR1", 0x43e4, 1, 0, 1157, "XS1:12:0 YS1:25:13", ""},
	{"SC", "SC_SCREENDOOR", 0x43e8, 1, 0, 1163, "SCREENDOOR:23:0/x", ""},

	// 1.7 Setup unit (L1170-1274).
	{"SU", "SU_CULL_MODE", 0x42b8, 1, 0, 1172, "CULL_FRONT:0 CULL_BACK:1 FACE:2/face", ""},
	{"SU", "SU_DEPTH_OFFSET", 0x42c4, 1, 0, 1183, f32whole, ""},
	{"SU", "SU_DEPTH_SCALE", 0x42c0, 1, 0, 1188, f32whole, ""},
	{"SU", "SU_POLY_OFFSET_BACK_OFFSET", 0x42b0, 1, 0, 1193, f32whole, ""},
	{"SU", "SU_POLY_OFFSET_BACK_SCALE", 0x42ac, 1, 0, 1200, f32whole, ""},
	{"SU", "SU_POLY_OFFSET_ENABLE", 0x42b4, 1, 0, 1205, "FRONT_ENABLE:0 BACK_ENABLE:1 PARA_ENABLE:2", ""},
	{"SU", "SU_POLY_OFFSET_FRONT_OFFSET", 0x42a8, 1, 0, 1215, f32whole, ""},
	{"SU", "SU_POLY_OFFSET_FRONT_SCALE", 0x42a4, 1, 0, 1220, f32whole, ""},
	{"SU", "SU_REG_DEST", 0x42c8, 1, 0, 1227, "SELECT:3:0/x", ""},
	{"SU", "SU_TEX_WRAP", 0x42a0, 1, 0, 1232, func() string {
		var p []string
		for t := 0; t < 8; t++ {
			for c := 0; c < 4; c++ {
				p = append(p, fmt.Sprintf("T%dC%d:%d", t, c, 4*t+c))
			}
		}
		return strings.Join(p, " ")
	}(), ""},

	// 1.8 Texture (L1280-1458).
	{"TX", "TX_BORDER_COLOR_", 0x45c0, 16, 4, 1282, "BORDER_COLOR:31:0/x", ""},
	{"TX", "TX_CHROMA_KEY_", 0x4580, 16, 4, 1287, "CHROMA_KEY:31:0/x", ""},
	{"TX", "TX_ENABLE", 0x4104, 1, 0, 1292, repeat(16, 0, 1, 1, "TEX_%d_ENABLE", ""), "a disabled unit returns ARGB = (1,0,0,0)"},
	{"TX", "TX_FILTER0_", 0x4400, 16, 4, 1330, "CLAMP_S:2:0/wrap CLAMP_T:5:3/wrap CLAMP_R:8:6/wrap MAG_FILTER:10:9/filter MIN_FILTER:12:11/filter MIP_FILTER:14:13/mip VOL_FILTER:16:15/mip MAX_MIP_LEVEL:20:17 ID:31:28", ""},
	{"TX", "TX_FILTER1_", 0x4440, 16, 4, 1352, "CHROMA_KEY_MODE:1:0/chroma MC_ROUND:2 LOD_BIAS:12:3/s4_5 MC_COORD_TRUNCATE:14", ""},
	{"TX", "TX_FORMAT0_", 0x4480, 16, 4, 1365, "TXWIDTH:10:0 TXHEIGHT:21:11 TXDEPTH:25:22 NUM_LEVELS:29:26 PROJECTED:30 TXPITCH_EN:31", "TXWIDTH, TXHEIGHT and NUM_LEVELS are N-1"},
	{"TX", "TX_FORMAT1_", 0x44c0, 16, 4, 1375, "TXFORMAT:4:0/txfmt " + repeat(4, 5, 1, 1, "SIGNED_COMP%d", "") + " SEL_ALPHA:11:9/txsel SEL_RED:14:12/txsel SEL_GREEN:17:15/txsel SEL_BLUE:20:18/txsel GAMMA:21 YUV_TO_RGB:23:22/yuv SWAP_YUV:24 TEX_COORD_TYPE:26:25/coord CACHE:31:27",
		"TXFORMAT [RECON] from the scrambled L1382, DXT1/3/5 = 15-17 [OUT]"},
	{"TX", "TX_FORMAT2_", 0x4500, 16, 4, 1438, "TXPITCH:13:0", "texels - 1"},
	{"TX", "TX_INVALTAGS", 0x4100, 1, 0, 1443, "RESERVED:31:0/x", "any write flushes the texture cache"},
	{"TX", "TX_OFFSET_", 0x4540, 16, 4, 1448, "ENDIAN_SWAP:1:0/endian MACRO_TILE:2 MICRO_TILE:4:3/micro TXOFFSET:31:5/a", ""},

	// 1.9 Fragment shader (L1462-1757).
	{"US", "US_ALU_ALPHA_ADDR_", 0x47c0, 64, 4, 1464, alusrc + " WMASK:23 OMASK:24 TARGET:26:25/target OMASK_W:27 STAT_WE:31:28/x", "'ALU_ALPHA_ADI OR' in the OCR (L1464)"},
	{"US", "US_ALU_ALPHA_INST_", 0x49c0, 64, 4, 1481, aluinst + " OP:26:23/aop OMOD:29:27/omod CLAMP:30", ""},
	{"US", "US_ALU_RGB_ADDR_", 0x46c0, 64, 4, 1556, alusrc + " WMASK:25:23 OMASK:28:26 TARGET:30:29/target", ""},
	{"US", "US_ALU_RGB_INST_", 0x48c0, 64, 4, 1571, aluinst + " OP:26:23/rgbop OMOD:29:27/omod CLAMP:30 NOP:31",
		"SEL_C bits from 'GEL C 10.14' (L1606); MOD_A merged with SEL_A's values (L1578)"},
	{"US", "US_CODE_ADDR_", 0x4610, 4, 4, 1661, "ALU_START:5:0 ALU_SIZE:11:6 TEX_START:16:12 TEX_SIZE:21:17 RGBA_OUT:22 W_OUT:23",
		"sizes are N-1 ([OUT] Mesa: the AMD spec is 'slightly incorrect')"},
	{"US", "US_CODE_OFFSET", 0x4608, 1, 0, 1671, "ALU_OFFSET:5:0 ALU_SIZE:12:6 TEX_OFFSET:17:13 TEX_SIZE:23:18", "sizes are total-1 ([OUT] Mesa's END semantics)"},
	{"US", "US_CONFIG", 0x4600, 1, 0, 1679, "NLEVEL:2:0 FIRST_TEX:3", "NLEVEL=n enables levels 3-n..3 (L1685)"},
	{"US", "US_OUT_FMT_", 0x46a4, 4, 4, 1692, "OUT_FMT:4:0/outfmt C0_SEL:9:8/csel C1_SEL:11:10/csel C2_SEL:13:12/csel C3_SEL:15:14/csel OUT_SIGN:19:16/x", ""},
	{"US", "US_PIXSIZE", 0x4604, 1, 0, 1712, "PIX_SIZE:4:0", "highest temp used ([OUT] Mesa)"},
	{"US", "US_TEX_INST_", 0x4620, 32, 4, 1717, "SRC_ADDR:4:0 DST_ADDR:10:6 TEX_ID:14:11 INST:17:15/texinst OMOD:18", ""},
	{"US", "US_W_FMT", 0x46b4, 1, 0, 1730, "W_FMT:1:0/wfmt W_SRC:2/wsrc", ""},
	{"US", "US_ALU_CONST_R_", 0x4c00, 32, 16, 1754, "KR:23:0/fp24", ""},
	{"US", "US_ALU_CONST_G_", 0x4c04, 32, 16, 1746, "KG:23:0/fp24", ""},
	{"US", "US_ALU_CONST_B_", 0x4c08, 32, 16, 1741, "KB:23:0/fp24", ""},
	{"US", "US_ALU_CONST_A_", 0x4c0c, 32, 16, 1736, "KA:23:0/fp24", ""},

	// 1.10 Vertex (L1761-2365).
	{"VAP", "VAP_CLIP_CNTL", 0x221c, 1, 0, 1763, repeat(6, 0, 1, 1, "UCP_ENA_%d", "") + " PS_UCP_MODE:15:14/psucp CLIP_DISABLE:16 UCP_CULL_ONLY_ENA:17 BOUNDARY_EDGE_FLAG_ENA:18", ""},
	{"VAP", "VAP_CNTL", 0x2080, 1, 0, 1779, "PVS_NUM_SLOTS:3:0 PVS_NUM_CNTLRS:7:4 PVS_NUM_FPUS:11:8 VF_MAX_VTX_NUM:21:18 DX_CLIP_SPACE_DEF:22", ""},
	{"VAP", "VAP_CNTL_STATUS", 0x2140, 1, 0, 1792, "VC_SWAP:1:0/vcswap PVS_BYPASS:8 PVS_BUSY:11 VS_BUSY:24 RCP_BUSY:25 VTE_BUSY:26 MIU_BUSY:27 VC_BUSY:28 VF_BUSY:29 REGPIPE_BUSY:30 VAP_BUSY:31", ""},
	{"VAP", "VAP_GB_HORZ_CLIP_ADJ", 0x2228, 1, 0, 1807, f32whole, ""},
	{"VAP", "VAP_GB_HORZ_DISC_ADJ", 0x222c, 1, 0, 1814, f32whole, ""},
	{"VAP", "VAP_GB_VERT_CLIP_ADJ", 0x2220, 1, 0, 1819, f32whole, ""},
	{"VAP", "VAP_GB_VERT_DISC_ADJ", 0x2224, 1, 0, 1824, f32whole, ""},
	{"VAP", "VAP_OUT_VTX_FMT_0", 0x2090, 1, 0, 1829, "VTX_POS_PRESENT:0 " + repeat(4, 1, 1, 1, "VTX_COLOR_%d_PRESENT", "") + " VTX_PT_SIZE_PRESENT:16", ""},
	{"VAP", "VAP_OUT_VTX_FMT_1", 0x2094, 1, 0, 1839, repeat(8, 0, 3, 3, "TEX_%d_COMP_CNT", ""), ""},
	{"VAP", "VAP_PORT_DATA", 0x2000, 16, 4, 1890, "DATAPORT:31:0/x", ""},
	{"VAP", "VAP_PORT_IDX", 0x2040, 16, 4, 1906, "INDEX0:15:0 INDEX1:31:16", ""},
	{"VAP", "VAP_PORT_DATA_IDX_128", 0x20b8, 1, 0, 1901, "DATA_IDX_PORT_128:31:0/x", ""},
	{"VAP", "VAP_PROG_STREAM_CNTL_", 0x2150, 8, 4, 1911, "DATA_TYPE_0:3:0/dtype SKIP_DWORDS_0:7:4 DST_VEC_LOC_0:12:8 LAST_VEC_0:13 SIGNED_0:14 NORMALIZE_0:15 DATA_TYPE_1:19:16/dtype SKIP_DWORDS_1:23:20 DST_VEC_LOC_1:28:24 LAST_VEC_1:29 SIGNED_1:30 NORMALIZE_1:31",
		"DATA_TYPE 10-12 (FLOAT_8, FLT16_2, FLT16_4) are [OUT]"},
	{"VAP", "VAP_PROG_STREAM_CNTL_EXT_", 0x21e0, 8, 4, 1930, "SWIZZLE_SELECT_X_0:2:0/swz SWIZZLE_SELECT_Y_0:5:3/swz SWIZZLE_SELECT_Z_0:8:6/swz SWIZZLE_SELECT_W_0:11:9/swz WRITE_ENA_0:15:12/x SWIZZLE_SELECT_X_1:18:16/swz SWIZZLE_SELECT_Y_1:21:19/swz SWIZZLE_SELECT_Z_1:24:22/swz SWIZZLE_SELECT_W_1:27:25/swz WRITE_ENA_1:31:28/x", ""},
	{"VAP", "VAP_PSC_SGN_NORM_CNTL", 0x21dc, 1, 0, 1947, repeat(16, 0, 2, 2, "SGN_NORM_METHOD_%d", "sgnnorm"), ""},
	{"VAP", "VAP_PVS_CODE_CNTL_0", 0x22d0, 1, 0, 1967, "PVS_FIRST_INST:9:0 PVS_XYZW_VALID_INST:19:10 PVS_LAST_INST:29:20", ""},
	{"VAP", "VAP_PVS_CODE_CNTL_1", 0x22d8, 1, 0, 1977, "PVS_LAST_VTX_SRC_INST:9:0", ""},
	{"VAP", "VAP_PVS_CONST_CNTL", 0x22d4, 1, 0, 1982, "PVS_CONST_BASE_OFFSET:7:0 PVS_MAX_CONST_ADDR:23:16", ""},
	{"VAP", "VAP_PVS_FLOW_CNTL_ADDRS_", 0x2230, 16, 4, 1988, "PVS_FC_ACT_ADRS:7:0 PVS_FC_LOOP_CNT_JMP_INST:15:8 PVS_FC_LAST_INST:23:16 PVS_FC_RTN_INST:31:24", ""},
	{"VAP", "VAP_PVS_FLOW_CNTL_LOOP_INDEX_", 0x2290, 16, 4, 2000, "PVS_FC_LOOP_INIT_VAL:7:0 PVS_FC_LOOP_STEP_VAL:15:8/s", ""},
	{"VAP", "VAP_PVS_FLOW_CNTL_OPC", 0x22dc, 1, 0, 2006, repeat(16, 0, 2, 2, "PVS_FC_OPC_%d", "fcopc"), ""},
	{"VAP", "VAP_PVS_STATE_FLUSH_REG", 0x2284, 1, 0, 2029, "DATA_REGISTER:31:0/x", ""},
	{"VAP", "VAP_PVS_VECTOR_DATA_REG", 0x2204, 1, 0, 2033, "DATA_REGISTER:31:0/x", ""},
	{"VAP", "VAP_PVS_VECTOR_DATA_REG_128", 0x2208, 1, 0, 2037, "DATA_REGISTER:31:0/x", ""},
	{"VAP", "VAP_PVS_VECTOR_INDX_REG", 0x2200, 1, 0, 2041, "OCTWORD_OFFSET:10:0", ""},
	{"VAP", "VAP_PVS_VTX_TIMEOUT_REG", 0x2288, 1, 0, 2045, "CLK_COUNT:31:0", ""},
	{"VAP", "VAP_VF_CNTL", 0x2084, 1, 0, 2051, "PRIM_TYPE:3:0/prim PRIM_WALK:5:4/walk RSVD_PREV_USED:10:6 INDEX_SIZE:11 VTX_REUSE_DIS:12 DUAL_INDEX_MODE:13 NUM_VERTICES:31:16", ""},
	{"VAP", "VAP_VF_MAX_VTX_INDX", 0x2134, 1, 0, 2066, "MAX_INDX:23:0", ""},
	{"VAP", "VAP_VF_MIN_VTX_INDX", 0x2138, 1, 0, 2071, "MIN_INDX:23:0", ""},
	{"VAP", "VAP_VPORT_XSCALE", 0x2098, 1, 0, 2081, f32whole, "mirrored at 0x1d98"},
	{"VAP", "VAP_VPORT_XOFFSET", 0x209c, 1, 0, 2076, f32whole, "mirrored at 0x1d9c"},
	{"VAP", "VAP_VPORT_YSCALE", 0x20a0, 1, 0, 2091, f32whole, "mirrored at 0x1da0"},
	{"VAP", "VAP_VPORT_YOFFSET", 0x20a4, 1, 0, 2086, f32whole, "mirrored at 0x1da4"},
	{"VAP", "VAP_VPORT_ZSCALE", 0x20a8, 1, 0, 2103, f32whole, "mirrored at 0x1da8"},
	{"VAP", "VAP_VPORT_ZOFFSET", 0x20ac, 1, 0, 2098, f32whole, "mirrored at 0x1dac"},
	{"VAP", "VAP_VTE_CNTL", 0x20b0, 1, 0, 2108, "VPORT_X_SCALE_ENA:0 VPORT_X_OFFSET_ENA:1 VPORT_Y_SCALE_ENA:2 VPORT_Y_OFFSET_ENA:3 VPORT_Z_SCALE_ENA:4 VPORT_Z_OFFSET_ENA:5 VTX_XY_FMT:8 VTX_Z_FMT:9 VTX_W0_FMT:10 SERIAL_PROC_ENA:11", ""},
	{"VAP", "VAP_VTX_AOS_ATTR", 0x20c4, 8, 12, 2129, "VTX_AOS_COUNT0:6:0 VTX_AOS_STRIDE0:14:8 VTX_AOS_COUNT1:22:16 VTX_AOS_STRIDE1:30:24", "pairs of arrays, dwords"},
	{"VAP", "VAP_VTX_AOS_ADDR", 0x20c8, 8, 12, 2122, "VTX_AOS_ADDR:31:2/a", "even arrays at 0x20c8+12k"},
	{"VAP", "VAP_VTX_AOS_ADDR", 0x20cc, 8, 12, 2122, "VTX_AOS_ADDR:31:2/a", "odd arrays at 0x20cc+12k"},
	{"VAP", "VAP_VTX_NUM_ARRAYS", 0x20c0, 1, 0, 2137, "VTX_NUM_ARRAYS:4:0 VC_FORCE_PREFETCH:5 VC_DIS_CACHE_INVLD:6 AOS_FETCH_SIZE:31:16/x", ""},
	{"VAP", "VAP_VTX_SIZE", 0x20b4, 1, 0, 2163, "DWORDS_PER_VTX:6:0", ""},
	{"VAP", "VAP_VTX_STATE_CNTL", 0x2180, 1, 0, 2168, repeat(8, 0, 2, 2, "COLOR_%d_ASSEMBLY_CNTL", "asm") + " UPDATE_USER_COLOR_0_ENA:16 USE_ADDR_IND_TBL:18", ""},
	{"VAP", "VAP_VTX_ST_BLND_WT_", 0x2430, 4, 4, 2186, f32whole, ""},
	{"VAP", "VAP_VTX_ST_CLR_", 0x2320, 8, 16, 2206, f32whole, "suffix _R"},
	{"VAP", "VAP_VTX_ST_CLR_", 0x2324, 8, 16, 2198, f32whole, "suffix _G"},
	{"VAP", "VAP_VTX_ST_CLR_", 0x2328, 8, 16, 2194, f32whole, "suffix _B"},
	{"VAP", "VAP_VTX_ST_CLR_", 0x232c, 8, 16, 2190, f32whole, "suffix _A"},
	{"VAP", "VAP_VTX_ST_CLR_", 0x2470, 8, 4, 2202, "DATA_REGISTER:31:0/x", "suffix _PKD"},
	{"VAP", "VAP_VTX_ST_DISC_FOG", 0x2424, 1, 0, 2212, f32whole, ""},
	{"VAP", "VAP_VTX_ST_EDGE_FLAGS", 0x245c, 1, 0, 2216, "DATA_REGISTER:31:0/x", ""},
	{"VAP", "VAP_VTX_ST_END_OF_PKT", 0x24ac, 1, 0, 2220, "DATA_REGISTER:31:0/x", ""},
	{"VAP", "VAP_VTX_ST_NORM_0_PKD", 0x2498, 1, 0, 2224, "DATA_REGISTER:31:0/x", ""},
	{"VAP", "VAP_VTX_ST_NORM_0_X", 0x2310, 1, 0, 2228, f32whole, ""},
	{"VAP", "VAP_VTX_ST_NORM_0_Y", 0x2314, 1, 0, 2232, f32whole, ""},
	{"VAP", "VAP_VTX_ST_NORM_0_Z", 0x2318, 1, 0, 2236, f32whole, ""},
	{"VAP", "VAP_VTX_ST_NORM_1_X", 0x2450, 1, 0, 2240, f32whole, ""},
	{"VAP", "VAP_VTX_ST_NORM_1_Y", 0x2454, 1, 0, 2244, f32whole, ""},
	{"VAP", "VAP_VTX_ST_NORM_1_Z", 0x2458, 1, 0, 2252, f32whole, ""},
	{"VAP", "VAP_VTX_ST_PNT_SPRT_SZ", 0x2420, 1, 0, 2256, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_0_W_4", 0x230c, 1, 0, 2260, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_0_X_2", 0x2490, 1, 0, 2264, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_0_X_3", 0x24a0, 1, 0, 2268, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_0_X_4", 0x2300, 1, 0, 2272, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_0_Y_2", 0x2494, 1, 0, 2276, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_0_Y_3", 0x24a4, 1, 0, 2280, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_0_Y_4", 0x2304, 1, 0, 2286, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_0_Z_3", 0x24a8, 1, 0, 2290, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_0_Z_4", 0x2308, 1, 0, 2294, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_1_W", 0x244c, 1, 0, 2298, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_1_X", 0x2440, 1, 0, 2302, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_1_Y", 0x2444, 1, 0, 2306, f32whole, ""},
	{"VAP", "VAP_VTX_ST_POS_1_Z", 0x2448, 1, 0, 2310, f32whole, ""},
	{"VAP", "VAP_VTX_ST_PVMS", 0x231c, 1, 0, 2314, "DATA_REGISTER:31:0/x", ""},
	{"VAP", "VAP_VTX_ST_SHININESS_0", 0x2428, 1, 0, 2318, f32whole, ""},
	{"VAP", "VAP_VTX_ST_SHININESS_1", 0x242c, 1, 0, 2325, f32whole, ""},
	{"VAP", "VAP_VTX_ST_TEX_", 0x23a0, 8, 16, 2337, f32whole, "suffix _S"},
	{"VAP", "VAP_VTX_ST_TEX_", 0x23a4, 8, 16, 2341, f32whole, "suffix _T"},
	{"VAP", "VAP_VTX_ST_TEX_", 0x23a8, 8, 16, 2333, f32whole, "suffix _R"},
	{"VAP", "VAP_VTX_ST_TEX_", 0x23ac, 8, 16, 2329, f32whole, "suffix _Q"},
	{"VAP", "VAP_VTX_ST_USR_CLR_A", 0x246c, 1, 0, 2345, f32whole, ""},
	{"VAP", "VAP_VTX_ST_USR_CLR_B", 0x2468, 1, 0, 2349, f32whole, ""},
	{"VAP", "VAP_VTX_ST_USR_CLR_G", 0x2464, 1, 0, 2353, f32whole, ""},
	{"VAP", "VAP_VTX_ST_USR_CLR_PKD", 0x249c, 1, 0, 2359, "DATA_REGISTER:31:0/x", ""},
	{"VAP", "VAP_VTX_ST_USR_CLR_R", 0x2460, 1, 0, 2363, f32whole, ""},

	// 1.11 Z buffer (L2369-2520).
	{"ZB", "ZB_BW_CNTL", 0x4f1c, 1, 0, 2371, "HIZ_ENABLE:0 HIZ_MIN:1 FAST_FILL:2 RD_COMP_ENABLE:3 WR_COMP_ENABLE:4 ZB_CB_CLEAR:5 FORCE_COMPRESSED_STENCIL_VALUE:6", ""},
	{"ZB", "ZB_CNTL", 0x4f00, 1, 0, 2390, "STENCIL_ENABLE:0 Z_ENABLE:1 ZWRITEENABLE:2 ZSIGNED_COMPARE:3 STENCIL_FRONT_BACK:4", ""},
	{"ZB", "ZB_DEPTHCLEARVALUE", 0x4f28, 1, 0, 2404, "DEPTHCLEARVALUE:31:0/x", ""},
	{"ZB", "ZB_DEPTHOFFSET", 0x4f20, 1, 0, 2414, "DEPTHOFFSET:31:5/a", ""},
	{"ZB", "ZB_DEPTHPITCH", 0x4f24, 1, 0, 2419, "DEPTHPITCH:13:2 DEPTHMACROTILE:16 DEPTHMICROTILE:18:17/micro DEPTHENDIAN:20:19/endian", "DEPTHPITCH counts 4-pixel units, so bits 13:0 hold the pitch in pixels"},
	{"ZB", "ZB_DEPTHXY_OFFSET", 0x4f60, 1, 0, 2427, "DEPTHX_OFFSET:11:1 DEPTHY_OFFSET:27:17", ""},
	{"ZB", "ZB_FORMAT", 0x4f10, 1, 0, 2435, "DEPTHFORMAT:3:0/zfmt INVERT:4 PEQ8:5", ""},
	{"ZB", "ZB_HIZ_DWORD", 0x4f4c, 1, 0, 2442, "HIZ_DWORD:31:0/x", ""},
	{"ZB", "ZB_HIZ_OFFSET", 0x4f44, 1, 0, 2447, "HIZ_OFFSET:16:2", ""},
	{"ZB", "ZB_HIZ_PITCH", 0x4f54, 1, 0, 2455, "HIZ_PITCH:13:4", ""},
	{"ZB", "ZB_HIZ_RDINDEX", 0x4f50, 1, 0, 2460, "HIZ_RDINDEX:16:2", ""},
	{"ZB", "ZB_HIZ_WRINDEX", 0x4f48, 1, 0, 2465, "HIZ_WRINDEX:16:2", ""},
	{"ZB", "ZB_STENCILREFMASK", 0x4f08, 1, 0, 2470, "STENCILREF:7:0 STENCILMASK:15:8 STENCILWRITEMASK:23:16", "shared by front and back faces"},
	{"ZB", "ZB_ZCACHE_CTLSTAT", 0x4f18, 1, 0, 2479, "ZC_FLUSH:0 ZC_FREE:1 ZC_BUSY:31", "ZC_FREE lost its bit in the OCR: bit 1 [OUT]"},
	{"ZB", "ZB_ZPASS_ADDR", 0x4f5c, 1, 0, 2486, "ZPASS_ADDR:31:2/a", ""},
	{"ZB", "ZB_ZPASS_DATA", 0x4f58, 1, 0, 2491, "ZPASS_DATA:31:0", ""},
	{"ZB", "ZB_ZSTENCILCNTL", 0x4f04, 1, 0, 2501, "ZFUNC:2:0/zfunc STENCILFUNC:5:3/zfunc STENCILFAIL:8:6/sop STENCILZPASS:11:9/sop STENCILZFAIL:14:12/sop STENCILFUNC_BF:17:15/zfunc STENCILFAIL_BF:20:18/sop STENCILZPASS_BF:23:21/sop STENCILZFAIL_BF:26:24/sop", ""},
	{"ZB", "ZB_ZTOP", 0x4f14, 1, 0, 2519, "ZTOP:0", "the table is cut off at the end of the file (L2520): ZTOP is bit 0 [OUT]"},
}

// Regs lists every register in table order.
var Regs []*Reg

// ByName maps an element name (RB3D_COLOROFFSET0, US_CONFIG) to its address.
var ByName = map[string]uint32{}

// byAddr maps every register address (dword index) to its register and
// element; aliases map to the mirrored register.
var byAddr = map[uint32]elem{}

type elem struct {
	reg *Reg
	k   int
}

func init() {
	for _, r := range rows {
		reg := &Reg{Name: r.name, Unit: r.unit, Addr: r.addr, Count: r.count, Stride: r.stride, Line: r.line, Note: r.note}
		if strings.HasPrefix(r.note, "suffix ") {
			reg.Suffix = strings.TrimPrefix(r.note, "suffix ")
			reg.Note = ""
		}
		switch {
		case r.name == "SC_CLIP_":
			reg.Suffix = "_A"
			if r.addr == 0x43b4 {
				reg.Suffix = "_B"
			}
		case r.name == "VAP_VTX_AOS_ATTR":
			reg.Pair = true
		case r.name == "VAP_VTX_AOS_ADDR":
			reg.IndexMul = 2
			if r.addr == 0x20cc {
				reg.IndexAdd = 1
			}
		}
		for _, spec := range strings.Fields(r.fields) {
			reg.Fields = append(reg.Fields, parseField(spec))
		}
		Regs = append(Regs, reg)
		for k := 0; k < max(r.count, 1); k++ {
			a := r.addr + uint32(k)*r.stride
			if old, dup := byAddr[a]; dup {
				panic(fmt.Sprintf("r300: %s and %s both at %#x", old.reg.ElemName(old.k), reg.ElemName(k), a))
			}
			byAddr[a] = elem{reg, k}
			name := reg.ElemName(k)
			if _, dup := ByName[name]; dup {
				panic("r300: duplicate register name " + name)
			}
			ByName[name] = a
		}
	}
	// The viewport registers are mirrored at 0x1d98-0x1dac (L2076-2103).
	for a := uint32(0x2098); a <= 0x20ac; a += 4 {
		byAddr[a-0x300] = byAddr[a]
	}
}

func parseField(spec string) Field {
	spec, kind, _ := strings.Cut(spec, "/")
	parts := strings.Split(spec, ":")
	f := Field{Name: parts[0], Kind: Flag}
	hi, _ := strconv.Atoi(parts[1])
	f.Hi, f.Lo = uint8(hi), uint8(hi)
	if len(parts) == 3 {
		lo, _ := strconv.Atoi(parts[2])
		f.Lo = uint8(lo)
		f.Kind = Uint
	}
	switch kind {
	case "":
	case "s":
		f.Kind = Sint
	case "x":
		f.Kind = Hex
	case "a":
		f.Kind = Addr
	case "f32":
		f.Kind = F32
	case "fp24":
		f.Kind = FP24
	case "s3_12":
		f.Kind = S3_12
	case "s4_5":
		f.Kind = S4_5
	default:
		e, ok := enumTables[kind]
		if !ok {
			panic("r300: unknown enumeration " + kind)
		}
		f.Kind, f.Enum = Enum, e
	}
	return f
}

// Lookup returns the register at byte address addr (a mirror address
// returns the mirrored register) and the element index.
func Lookup(addr uint32) (*Reg, int, bool) {
	e, ok := byAddr[addr]
	return e.reg, e.k, ok
}

// Canonical returns the primary address of addr (mirrors map to the
// register they mirror).
func Canonical(addr uint32) uint32 {
	if addr >= 0x1d98 && addr <= 0x1dac {
		return addr + 0x300
	}
	return addr
}

// RegName returns the name of the register at addr, or REG_xxxx.
func RegName(addr uint32) string {
	if r, k, ok := Lookup(addr); ok {
		return r.ElemName(k)
	}
	return fmt.Sprintf("REG_%04X", addr)
}

// FormatReg prints a value written to addr: register name and fields.
func FormatReg(addr, v uint32) string {
	r, k, ok := Lookup(addr)
	if !ok {
		return fmt.Sprintf("REG_%04X %#x (undefined register)", addr, v)
	}
	return r.Format(k, v)
}

// Addresses returns every defined register address in ascending order.
func Addresses() []uint32 {
	out := make([]uint32, 0, len(byAddr))
	for a := range byAddr {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// F returns field name of the register at addr, for building words:
// F(RB3D_BLENDCNTL, "SRCBLEND").Put(38).
func F(addr uint32, name string) Field {
	r, _, ok := Lookup(addr)
	if !ok {
		panic(fmt.Sprintf("r300: no register at %#x", addr))
	}
	return r.Field(name)
}

// Fields builds a register value from name/value pairs:
// Fields(ZB_CNTL, "Z_ENABLE", 1, "ZWRITEENABLE", 1).
func Fields(addr uint32, kv ...any) uint32 {
	var v uint32
	for i := 0; i+1 < len(kv); i += 2 {
		name := kv[i].(string)
		var x uint32
		switch n := kv[i+1].(type) {
		case int:
			x = uint32(n)
		case uint32:
			x = n
		case bool:
			if n {
				x = 1
			}
		default:
			panic(fmt.Sprintf("r300: field %s: value %T", name, n))
		}
		v |= F(addr, name).Put(x)
	}
	return v
}
