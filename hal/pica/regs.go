// Package pica is the PICA200 (Nintendo 3DS GPU) register file and command
// format as data: every named register of the seed
// (shared/seeds/002_a600610cfe989cd3.txt) with its ID, seed line, kind and
// bit fields; the 8-byte command format (parameter word, header with byte
// mask, extra-parameter count and consecutive bit); the chip's number
// formats (float24 1.7.16, float31, float16, float20, fixed point); the
// shader instruction set (shader.go, from 3dbrew's "Shader Instruction Set"
// as an outside fact, since the seed has none); and a decoder that prints
// one line per register write. The driver (driver/pica) and the simulator
// (sim/pica) meet here and nowhere else.
//
// Decisions where the seed is silent or wrong follow the guide
// (shared/notes/pica200.md); each one is named in the note of the field or
// function it concerns.
package pica

import (
	"fmt"
	"strings"
)

// Reg is a register ID (0x000-0x2FF).
type Reg uint16

// NumRegs is the size of the register file: IDs 0x000-0x2FF (seed L44).
const NumRegs = 0x300

// The registers the driver and simulator name in code. Every other ID is in
// the table by its seed name (regnames.go).
const (
	FINALIZE Reg = 0x010

	FACECULLING_CONFIG Reg = 0x040
	VIEWPORT_WIDTH     Reg = 0x041
	VIEWPORT_INVW      Reg = 0x042
	VIEWPORT_HEIGHT    Reg = 0x043
	VIEWPORT_INVH      Reg = 0x044
	FRAGOP_CLIP        Reg = 0x047
	FRAGOP_CLIP_DATA0  Reg = 0x048
	DEPTHMAP_SCALE     Reg = 0x04D
	DEPTHMAP_OFFSET    Reg = 0x04E
	SH_OUTMAP_TOTAL    Reg = 0x04F
	SH_OUTMAP_O0       Reg = 0x050
	EARLYDEPTH_FUNC    Reg = 0x061
	EARLYDEPTH_TEST1   Reg = 0x062
	EARLYDEPTH_CLEAR   Reg = 0x063
	SH_OUTATTR_MODE    Reg = 0x064
	SCISSORTEST_MODE   Reg = 0x065
	SCISSORTEST_POS    Reg = 0x066
	SCISSORTEST_DIM    Reg = 0x067
	VIEWPORT_XY        Reg = 0x068
	EARLYDEPTH_DATA    Reg = 0x06A
	DEPTHMAP_ENABLE    Reg = 0x06D
	RENDERBUF_DIM      Reg = 0x06E
	SH_OUTATTR_CLOCK   Reg = 0x06F

	TEXUNIT_CONFIG       Reg = 0x080
	TEXUNIT0_BORDER      Reg = 0x081
	TEXUNIT0_DIM         Reg = 0x082
	TEXUNIT0_PARAM       Reg = 0x083
	TEXUNIT0_LOD         Reg = 0x084
	TEXUNIT0_ADDR1       Reg = 0x085
	TEXUNIT0_SHADOW      Reg = 0x08B
	TEXUNIT0_TYPE        Reg = 0x08E
	LIGHTING_ENABLE0     Reg = 0x08F
	TEXUNIT1_BORDER      Reg = 0x091
	TEXUNIT1_DIM         Reg = 0x092
	TEXUNIT1_PARAM       Reg = 0x093
	TEXUNIT1_LOD         Reg = 0x094
	TEXUNIT1_ADDR        Reg = 0x095
	TEXUNIT1_TYPE        Reg = 0x096
	TEXUNIT2_BORDER      Reg = 0x099
	TEXUNIT2_DIM         Reg = 0x09A
	TEXUNIT2_PARAM       Reg = 0x09B
	TEXUNIT2_LOD         Reg = 0x09C
	TEXUNIT2_ADDR        Reg = 0x09D
	TEXUNIT2_TYPE        Reg = 0x09E
	TEXENV_UPDATE_BUFFER Reg = 0x0E0
	FOG_COLOR            Reg = 0x0E1
	FOG_LUT_INDEX        Reg = 0x0E6
	FOG_LUT_DATA0        Reg = 0x0E8
	TEXENV_BUFFER_COLOR  Reg = 0x0FD

	COLOR_OPERATION         Reg = 0x100
	BLEND_FUNC              Reg = 0x101
	LOGIC_OP                Reg = 0x102
	BLEND_COLOR             Reg = 0x103
	FRAGOP_ALPHA_TEST       Reg = 0x104
	STENCIL_TEST            Reg = 0x105
	STENCIL_OP              Reg = 0x106
	DEPTH_COLOR_MASK        Reg = 0x107
	FRAMEBUFFER_INVALIDATE  Reg = 0x110
	FRAMEBUFFER_FLUSH       Reg = 0x111
	COLORBUFFER_READ        Reg = 0x112
	COLORBUFFER_WRITE       Reg = 0x113
	DEPTHBUFFER_READ        Reg = 0x114
	DEPTHBUFFER_WRITE       Reg = 0x115
	DEPTHBUFFER_FORMAT      Reg = 0x116
	COLORBUFFER_FORMAT      Reg = 0x117
	EARLYDEPTH_TEST2        Reg = 0x118
	FRAMEBUFFER_BLOCK32     Reg = 0x11B
	DEPTHBUFFER_LOC         Reg = 0x11C
	COLORBUFFER_LOC         Reg = 0x11D
	FRAMEBUFFER_DIM         Reg = 0x11E
	LIGHTING_AMBIENT        Reg = 0x1C0
	LIGHTING_NUM_LIGHTS     Reg = 0x1C2
	LIGHTING_CONFIG0        Reg = 0x1C3
	LIGHTING_CONFIG1        Reg = 0x1C4
	LIGHTING_LUT_INDEX      Reg = 0x1C5
	LIGHTING_ENABLE1        Reg = 0x1C6
	LIGHTING_LUT_DATA0      Reg = 0x1C8
	ATTRIBBUFFERS_LOC       Reg = 0x200
	ATTRIBBUFFERS_FMT_LOW   Reg = 0x201
	ATTRIBBUFFERS_FMT_HIGH  Reg = 0x202
	ATTRIBBUFFER0_OFFSET    Reg = 0x203
	INDEXBUFFER_CONFIG      Reg = 0x227
	NUMVERTICES             Reg = 0x228
	GEOSTAGE_CONFIG         Reg = 0x229
	VERTEX_OFFSET           Reg = 0x22A
	POST_VERTEX_CACHE_NUM   Reg = 0x22D
	DRAWARRAYS              Reg = 0x22E
	DRAWELEMENTS            Reg = 0x22F
	VTX_FUNC                Reg = 0x231
	FIXEDATTRIB_INDEX       Reg = 0x232
	FIXEDATTRIB_DATA0       Reg = 0x233
	CMDBUF_SIZE0            Reg = 0x238
	CMDBUF_ADDR0            Reg = 0x23A
	CMDBUF_JUMP0            Reg = 0x23C
	CMDBUF_JUMP1            Reg = 0x23D
	VSH_NUM_ATTR            Reg = 0x242
	VSH_COM_MODE            Reg = 0x244
	START_DRAW_FUNC0        Reg = 0x245
	VSH_OUTMAP_TOTAL1       Reg = 0x24A
	VSH_OUTMAP_TOTAL2       Reg = 0x251
	GEOSTAGE_CONFIG2        Reg = 0x253
	PRIMITIVE_CONFIG        Reg = 0x25E
	RESTART_PRIMITIVE       Reg = 0x25F
	GSH_BASE                Reg = 0x280
	VSH_BASE                Reg = 0x2B0
	VSH_BOOLUNIFORM         Reg = 0x2B0
	VSH_INTUNIFORM_I0       Reg = 0x2B1
	VSH_INPUTBUFFER_CONFIG  Reg = 0x2B9
	VSH_ENTRYPOINT          Reg = 0x2BA
	VSH_ATTR_PERM_LOW       Reg = 0x2BB
	VSH_ATTR_PERM_HIGH      Reg = 0x2BC
	VSH_OUTMAP_MASK         Reg = 0x2BD
	VSH_CODETRANSFER_END    Reg = 0x2BF
	VSH_FLOATUNIFORM_INDEX  Reg = 0x2C0
	VSH_FLOATUNIFORM_DATA0  Reg = 0x2C1
	VSH_CODETRANSFER_INDEX  Reg = 0x2CB
	VSH_CODETRANSFER_DATA0  Reg = 0x2CC
	VSH_OPDESCS_INDEX       Reg = 0x2D5
	VSH_OPDESCS_DATA0       Reg = 0x2D6
	GSH_FLOATUNIFORM_INDEX  Reg = 0x290
	GSH_CODETRANSFER_INDEX  Reg = 0x29B
	GSH_OPDESCS_INDEX       Reg = 0x2A5
	LIGHTING_LUTINPUT_ABS   Reg = 0x1D0
	LIGHTING_LUTINPUT_SEL   Reg = 0x1D1
	LIGHTING_LUTINPUT_SCALE Reg = 0x1D2
)

// Shader-unit register offsets from GSH_BASE / VSH_BASE (seed L3034-L3260).
const (
	ShBoolUniform     = 0x00
	ShIntUniform0     = 0x01
	ShInputConfig     = 0x09
	ShEntryPoint      = 0x0A
	ShPermLow         = 0x0B
	ShPermHigh        = 0x0C
	ShOutmapMask      = 0x0D
	ShCodeEnd         = 0x0F
	ShFloatIndex      = 0x10
	ShFloatData0      = 0x11
	ShCodeIndex       = 0x1B
	ShCodeData0       = 0x1C
	ShOpdescIndex     = 0x25
	ShOpdescData0     = 0x26
	ShFloatDataCount  = 8
	ShCodeDataCount   = 8
	ShOpdescDataCount = 8
)

// TexEnv returns the register of combiner stage s (0-5) at offset off (0
// SOURCE, 1 OPERAND, 2 COMBINER, 3 COLOR, 4 SCALE): stages 0-3 start at
// 0x0C0+8s, stages 4 and 5 at 0x0F0 and 0x0F8 (seed L1559-L1681).
func TexEnv(s, off int) Reg {
	if s < 4 {
		return Reg(0x0C0 + 8*s + off)
	}
	return Reg(0x0F0 + 8*(s-4) + off)
}

// Light returns register off (0 SPECULAR0 ... 0xB ATTENUATION_SCALE) of
// fragment light i (seed L478-L489: light i starts at 0x140+0x10*i).
func Light(i, off int) Reg { return Reg(0x140 + 0x10*i + off) }

// AttribBuffer returns register off (0 OFFSET, 1 CONFIG1, 2 CONFIG2) of
// attribute buffer i (0-11).
func AttribBuffer(i, off int) Reg { return Reg(int(ATTRIBBUFFER0_OFFSET) + 3*i + off) }

// Kind is how a register behaves when written (seed L64-L75).
type Kind uint8

// The register kinds.
const (
	Config  Kind = iota // plain configuration register
	FIFO                // data port: each write feeds a sequence
	Trigger             // a write makes the GPU act
)

// FieldKind says how a field's bits read.
type FieldKind uint8

// The field kinds.
const (
	Uint   FieldKind = iota // unsigned integer
	Sint                    // two's-complement signed
	Hex                     // unsigned, printed in hex (colours, raw data)
	Enum                    // index into Field.Enum
	Flag                    // single bit
	F24                     // float1.7.16
	F31                     // float1.7.23 in bits 1-31 (the field covers bits 1-31)
	F16                     // float1.5.10
	F20                     // float1.7.12
	Addr8                   // physical address >> 3: printed as the address
	Fixed                   // signed fixed point with Frac fractional bits
	UFixed                  // unsigned fixed point with Frac fractional bits
)

// Field is a bit field of a register.
type Field struct {
	Name   string
	Lo, Hi uint8 // inclusive bit range
	Kind   FieldKind
	Enum   []string
	Frac   uint8 // fractional bits for Fixed/UFixed
}

// Mask returns the field's mask in place.
func (f Field) Mask() uint32 { return uint32((uint64(1)<<(f.Hi-f.Lo+1) - 1) << f.Lo) }

// Get extracts the field from a register value.
func (f Field) Get(v uint32) uint32 { return (v & f.Mask()) >> f.Lo }

// Put returns v placed in the field (bits outside it are dropped).
func (f Field) Put(v uint32) uint32 { return v << f.Lo & f.Mask() }

// Format renders a field value for the decoder.
func (f Field) Format(v uint32) string {
	x := f.Get(v)
	bits := f.Hi - f.Lo + 1
	switch f.Kind {
	case Sint:
		return fmt.Sprint(signExtend(x, bits))
	case Hex:
		return fmt.Sprintf("%#x", x)
	case Enum:
		if int(x) < len(f.Enum) && f.Enum[x] != "" {
			return f.Enum[x]
		}
		return fmt.Sprintf("?%d", x)
	case Flag:
		if x != 0 {
			return "1"
		}
		return "0"
	case F24:
		return fmtFloat(F24ToFloat(x))
	case F31:
		return fmtFloat(F31ToFloat(x))
	case F16:
		return fmtFloat(F16ToFloat(x))
	case F20:
		return fmtFloat(F20ToFloat(x))
	case Addr8:
		return fmt.Sprintf("%#08x", x<<3)
	case Fixed:
		return fmtFloat(float32(signExtend(x, bits)) / float32(uint32(1)<<f.Frac))
	case UFixed:
		return fmtFloat(float32(x) / float32(uint32(1)<<f.Frac))
	}
	return fmt.Sprint(x)
}

func signExtend(x uint32, bits uint8) int32 {
	s := 32 - bits
	return int32(x<<s) >> s
}

func fmtFloat(v float32) string { return strings.TrimSuffix(fmt.Sprintf("%g", v), ".0") }

// RegInfo describes one register.
type RegInfo struct {
	ID   Reg
	Name string // without the GPUREG_ prefix
	// Line is the seed line of the register's row in the register list.
	Line int
	// Uncertain is set when the seed marks the register "?".
	Uncertain bool
	Kind      Kind
	Fields    []Field
	// Note records decisions where the seed is wrong or silent.
	Note string
	// Draw is set for the triggers whose non-zero write draws the
	// vertices the attribute buffers hold (DRAWARRAYS, DRAWELEMENTS): the
	// draw boundaries a frame debugger steps by.
	Draw bool
}

// Enumerations used by the fields.
var (
	EnumCull        = []string{"NONE", "FRONT_CCW", "BACK_CCW", "?3"}
	EnumCompare     = []string{"NEVER", "ALWAYS", "EQUAL", "NOTEQUAL", "LESS", "LEQUAL", "GREATER", "GEQUAL"}
	EnumEarlyDepth  = []string{"GEQUAL", "GREATER", "LEQUAL", "LESS"}
	EnumStencilOp   = []string{"KEEP", "ZERO", "REPLACE", "INCR", "DECR", "INVERT", "INCR_WRAP", "DECR_WRAP"}
	EnumBlendEq     = []string{"ADD", "SUBTRACT", "REVERSE_SUBTRACT", "MIN", "MAX", "ADD5", "ADD6", "ADD7"}
	EnumBlendFactor = []string{"ZERO", "ONE", "SRC_COLOR", "ONE_MINUS_SRC_COLOR", "DST_COLOR", "ONE_MINUS_DST_COLOR",
		"SRC_ALPHA", "ONE_MINUS_SRC_ALPHA", "DST_ALPHA", "ONE_MINUS_DST_ALPHA", "CONSTANT_COLOR",
		"ONE_MINUS_CONSTANT_COLOR", "CONSTANT_ALPHA", "ONE_MINUS_CONSTANT_ALPHA", "SRC_ALPHA_SATURATE", "?15"}
	EnumLogicOp = []string{"CLEAR", "AND", "AND_REVERSE", "COPY", "SET", "COPY_INVERTED", "NOOP", "INVERT",
		"NAND", "OR", "NOR", "XOR", "EQUIV", "AND_INVERTED", "OR_REVERSE", "OR_INVERTED"}
	EnumDepthFormat = []string{"D16", "?1", "D24", "D24S8"}
	EnumColorFormat = []string{"RGBA8", "RGB8", "RGB5A1", "RGB565", "RGBA4", "?5", "?6", "?7"}
	EnumTexFormat   = []string{"RGBA8", "RGB8", "RGBA5551", "RGB565", "RGBA4", "IA8", "HILO8", "I8", "A8",
		"IA4", "I4", "A4", "ETC1", "ETC1A4", "?14", "?15"}
	EnumWrap      = []string{"CLAMP_TO_EDGE", "CLAMP_TO_BORDER", "REPEAT", "MIRRORED_REPEAT", "?4", "?5", "?6", "?7"}
	EnumFilter    = []string{"NEAREST", "LINEAR"}
	EnumTexType   = []string{"2D", "CUBE", "SHADOW_2D", "PROJECTION", "SHADOW_CUBE", "DISABLED", "?6", "?7"}
	EnumTevSource = []string{"PRIMARY", "FRAG_PRIMARY", "FRAG_SECONDARY", "TEXTURE0", "TEXTURE1", "TEXTURE2",
		"TEXTURE3", "?7", "?8", "?9", "?10", "?11", "?12", "PREVIOUS_BUFFER", "CONSTANT", "PREVIOUS"}
	EnumTevOpRGB = []string{"C", "1-C", "A", "1-A", "R", "1-R", "?6", "?7", "G", "1-G", "?10", "?11", "B", "1-B", "?14", "?15"}
	EnumTevOpA   = []string{"A", "1-A", "R", "1-R", "G", "1-G", "B", "1-B"}
	EnumTevFunc  = []string{"REPLACE", "MODULATE", "ADD", "ADD_SIGNED", "INTERPOLATE", "SUBTRACT", "DOT3_RGB",
		"DOT3_RGBA", "MULTIPLY_ADD", "ADD_MULTIPLY", "?10", "?11", "?12", "?13", "?14", "?15"}
	EnumTevScale  = []string{"1X", "2X", "4X", "?3"}
	EnumAttrType  = []string{"BYTE", "UBYTE", "SHORT", "FLOAT"}
	EnumPrimitive = []string{"TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN", "GEOMETRY"}
	EnumIndexType = []string{"U8", "U16"}
	EnumScissor   = []string{"DISABLE", "EXCLUDE", "?2", "INCLUDE"}
	EnumFogMode   = []string{"OFF", "?1", "?2", "?3", "?4", "FOG", "?6", "GAS"}
	EnumBufInput  = []string{"PREVIOUS_BUFFER", "PREVIOUS"}
	EnumSemantic  = semanticNames()
)

func semanticNames() []string {
	n := make([]string, 32)
	names := map[int]string{0: "POS_X", 1: "POS_Y", 2: "POS_Z", 3: "POS_W", 4: "QUAT_X", 5: "QUAT_Y", 6: "QUAT_Z",
		7: "QUAT_W", 8: "COLOR_R", 9: "COLOR_G", 10: "COLOR_B", 11: "COLOR_A", 12: "TEX0_U", 13: "TEX0_V",
		14: "TEX1_U", 15: "TEX1_V", 16: "TEX0_W", 18: "VIEW_X", 19: "VIEW_Y", 20: "VIEW_Z", 22: "TEX2_U",
		23: "TEX2_V", 31: "UNUSED"}
	for i := range n {
		if s, ok := names[i]; ok {
			n[i] = s
		} else {
			n[i] = fmt.Sprintf("?%#x", i)
		}
	}
	return n
}

// Output-map semantics (seed L1013-L1063).
const (
	SemPosX   = 0x00
	SemQuatX  = 0x04
	SemColorR = 0x08
	SemTex0U  = 0x0C
	SemTex1U  = 0x0E
	SemTex0W  = 0x10
	SemViewX  = 0x12
	SemTex2U  = 0x16
	SemUnused = 0x1F
)

func fld(name string, lo, hi uint8, kind FieldKind) Field {
	return Field{Name: name, Lo: lo, Hi: hi, Kind: kind}
}
func enm(name string, lo, hi uint8, e []string) Field {
	return Field{Name: name, Lo: lo, Hi: hi, Kind: Enum, Enum: e}
}
func flag(name string, bit uint8) Field { return Field{Name: name, Lo: bit, Hi: bit, Kind: Flag} }

var rgba8Fields = []Field{fld("r", 0, 7, Uint), fld("g", 8, 15, Uint), fld("b", 16, 23, Uint), fld("a", 24, 31, Uint)}

// lightColorFields is the B/G/R layout of the light colour registers: 8-bit
// values in 10-bit slots (seed L2275-L2309).
var lightColorFields = []Field{fld("b", 0, 7, Uint), fld("g", 10, 17, Uint), fld("r", 20, 27, Uint)}

// fieldTable gives the bit fields of the registers the stack uses; seed
// lines name each layout. Registers absent here decode as a raw value.
var fieldTable = map[Reg]struct {
	kind   Kind
	fields []Field
	note   string
}{
	FINALIZE:           {Trigger, []Field{fld("value", 0, 31, Hex)}, "any value ends the buffer (L914-L925)"},
	FACECULLING_CONFIG: {Config, []Field{enm("mode", 0, 1, EnumCull)}, "L937-L943; 1 culls counter-clockwise (front), 2 culls clockwise, in the y-up window space"},
	VIEWPORT_WIDTH:     {Config, []Field{fld("half_width", 0, 23, F24)}, "f24(w/2), L949"},
	VIEWPORT_INVW:      {Config, []Field{fld("inv_half_width", 1, 31, F31)}, "f31(2/w) in bits 1-31, L958"},
	VIEWPORT_HEIGHT:    {Config, []Field{fld("half_height", 0, 23, F24)}, "L967"},
	VIEWPORT_INVH:      {Config, []Field{fld("inv_half_height", 1, 31, F31)}, "L976"},
	FRAGOP_CLIP:        {Config, []Field{flag("enable", 0)}, "L981-L995"},
	0x048:              {Config, []Field{fld("x", 0, 23, F24)}, ""},
	0x049:              {Config, []Field{fld("y", 0, 23, F24)}, ""},
	0x04A:              {Config, []Field{fld("z", 0, 23, F24)}, ""},
	0x04B:              {Config, []Field{fld("w", 0, 23, F24)}, ""},
	DEPTHMAP_SCALE:     {Config, []Field{fld("scale", 0, 23, F24)}, "f24(near - far), L1001"},
	DEPTHMAP_OFFSET:    {Config, []Field{fld("offset", 0, 23, F24)}, "f24(near + offset), L1009"},
	SH_OUTMAP_TOTAL:    {Config, []Field{fld("count", 0, 2, Uint)}, "the count, not minus one (L1017)"},
	EARLYDEPTH_FUNC:    {Config, []Field{enm("func", 0, 1, EnumEarlyDepth)}, "L1077: its own 2-bit code"},
	EARLYDEPTH_TEST1:   {Config, []Field{flag("enable", 0)}, ""},
	EARLYDEPTH_CLEAR:   {Trigger, []Field{flag("clear", 0)}, ""},
	SH_OUTATTR_MODE:    {Config, []Field{flag("use_texcoords", 0)}, ""},
	SCISSORTEST_MODE:   {Config, []Field{enm("mode", 0, 1, EnumScissor)}, "3 enables (L1110); 1 excludes the box [OUT citra]"},
	SCISSORTEST_POS:    {Config, []Field{fld("x1", 0, 9, Uint), fld("y1", 16, 25, Uint)}, ""},
	SCISSORTEST_DIM:    {Config, []Field{fld("x2", 0, 9, Uint), fld("y2", 16, 25, Uint)}, "inclusive end position [OUT citro3d writes right-1, bottom-1]"},
	VIEWPORT_XY:        {Config, []Field{fld("x", 0, 9, Sint), fld("y", 16, 25, Sint)}, ""},
	EARLYDEPTH_DATA:    {Config, []Field{fld("value", 0, 23, Hex)}, ""},
	DEPTHMAP_ENABLE:    {Config, []Field{flag("z_buffer", 0)}, "seed: depth-range enable; [OUT citra] 0 = W buffer, 1 = Z buffer; the driver writes 1"},
	RENDERBUF_DIM:      {Config, []Field{fld("width", 0, 10, Uint), fld("height_m1", 12, 21, Uint), flag("one", 24)}, ""},
	SH_OUTATTR_CLOCK: {Config, []Field{flag("pos_z", 0), flag("color", 1), flag("tex0", 8), flag("tex1", 9),
		flag("tex2", 10), flag("tex0_w", 16), flag("quat_view", 24)}, "L1167-L1177"},

	TEXUNIT_CONFIG: {Config, []Field{flag("tex0", 0), flag("tex1", 1), flag("tex2", 2), fld("tex3_coords", 8, 9, Uint),
		flag("tex3", 10), flag("one", 12), fld("tex2_coords", 13, 13, Uint), flag("clear_cache", 16)}, "L1184-L1214; bit 12 must be 1"},
	TEXUNIT0_BORDER:  {Config, rgba8Fields, ""},
	TEXUNIT1_BORDER:  {Config, rgba8Fields, ""},
	TEXUNIT2_BORDER:  {Config, rgba8Fields, ""},
	TEXUNIT0_DIM:     {Config, texDimFields, "height in bits 0-10, width in bits 16-26 (L1216-L1231)"},
	TEXUNIT1_DIM:     {Config, texDimFields, ""},
	TEXUNIT2_DIM:     {Config, texDimFields, ""},
	TEXUNIT0_PARAM:   {Config, texParamFields, "L1236-L1277"},
	TEXUNIT1_PARAM:   {Config, texParamFields[:7], ""},
	TEXUNIT2_PARAM:   {Config, texParamFields[:7], ""},
	TEXUNIT0_LOD:     {Config, texLodFields, "bias fixed1.4.8 (L1283)"},
	TEXUNIT1_LOD:     {Config, texLodFields, ""},
	TEXUNIT2_LOD:     {Config, texLodFields, ""},
	TEXUNIT0_ADDR1:   {Config, []Field{fld("addr", 0, 27, Addr8)}, "L1289-L1319"},
	0x086:            {Config, []Field{fld("addr_low", 0, 21, Hex)}, "ADDR2-6: bits 22-27 of PA>>3 come from ADDR1"},
	0x087:            {Config, []Field{fld("addr_low", 0, 21, Hex)}, ""},
	0x088:            {Config, []Field{fld("addr_low", 0, 21, Hex)}, ""},
	0x089:            {Config, []Field{fld("addr_low", 0, 21, Hex)}, ""},
	0x08A:            {Config, []Field{fld("addr_low", 0, 21, Hex)}, ""},
	TEXUNIT1_ADDR:    {Config, []Field{fld("addr", 0, 27, Addr8)}, ""},
	TEXUNIT2_ADDR:    {Config, []Field{fld("addr", 0, 27, Addr8)}, ""},
	TEXUNIT0_SHADOW:  {Config, []Field{flag("orthographic", 0), fld("z_bias", 1, 23, Hex)}, ""},
	TEXUNIT0_TYPE:    {Config, []Field{enm("format", 0, 3, EnumTexFormat)}, "L1338-L1355"},
	TEXUNIT1_TYPE:    {Config, []Field{enm("format", 0, 3, EnumTexFormat)}, ""},
	TEXUNIT2_TYPE:    {Config, []Field{enm("format", 0, 3, EnumTexFormat)}, ""},
	LIGHTING_ENABLE0: {Config, []Field{flag("enable", 0)}, ""},
	TEXENV_UPDATE_BUFFER: {Config, []Field{enm("fog_mode", 0, 2, EnumFogMode), flag("gas_density", 3),
		enm("rgb_buf1", 8, 8, EnumBufInput), enm("rgb_buf2", 9, 9, EnumBufInput), enm("rgb_buf3", 10, 10, EnumBufInput),
		enm("rgb_buf4", 11, 11, EnumBufInput), enm("a_buf1", 12, 12, EnumBufInput), enm("a_buf2", 13, 13, EnumBufInput),
		enm("a_buf3", 14, 14, EnumBufInput), enm("a_buf4", 15, 15, EnumBufInput), flag("fog_z_flip", 16)},
		"L1683-L1725; [OUT citra] bit 8+k set: stage k's output replaces the combiner buffer"},
	FOG_COLOR:           {Config, []Field{fld("r", 0, 7, Uint), fld("g", 8, 15, Uint), fld("b", 16, 23, Uint)}, ""},
	FOG_LUT_INDEX:       {Config, []Field{fld("index", 0, 6, Uint)}, ""},
	TEXENV_BUFFER_COLOR: {Config, rgba8Fields, ""},

	COLOR_OPERATION: {Config, []Field{fld("mode", 0, 1, Uint), enm("blend", 8, 8, []string{"LOGIC_OP", "BLEND"}),
		fld("magic", 16, 25, Hex)}, "bits 16-25 = 0xE4 (L1800-L1815)"},
	BLEND_FUNC: {Config, []Field{enm("eq_rgb", 0, 2, EnumBlendEq), enm("eq_a", 8, 10, EnumBlendEq),
		enm("src_rgb", 16, 19, EnumBlendFactor), enm("dst_rgb", 20, 23, EnumBlendFactor),
		enm("src_a", 24, 27, EnumBlendFactor), enm("dst_a", 28, 31, EnumBlendFactor)}, "equations 5-7 act as ADD (L1843)"},
	LOGIC_OP:          {Config, []Field{enm("op", 0, 3, EnumLogicOp)}, "L1874-L1893"},
	BLEND_COLOR:       {Config, rgba8Fields, ""},
	FRAGOP_ALPHA_TEST: {Config, []Field{flag("enable", 0), enm("func", 4, 6, EnumCompare), fld("ref", 8, 15, Uint)}, "L1910-L1927"},
	STENCIL_TEST: {Config, []Field{flag("enable", 0), enm("func", 4, 6, EnumCompare), fld("write_mask", 8, 15, Hex),
		fld("ref", 16, 23, Uint), fld("mask", 24, 31, Hex)}, "the seed's 'buffer mask' is the write mask and 'mask' the compare mask; the reference reads as u8 (guide §6.6)"},
	STENCIL_OP: {Config, []Field{enm("fail", 0, 2, EnumStencilOp), enm("zfail", 4, 6, EnumStencilOp),
		enm("zpass", 8, 10, EnumStencilOp)}, ""},
	DEPTH_COLOR_MASK: {Config, []Field{flag("test", 0), enm("func", 4, 6, EnumCompare), flag("r", 8), flag("g", 9),
		flag("b", 10), flag("a", 11), flag("depth_write", 12)}, "test off acts as ALWAYS and still writes depth (L1991-L1994)"},
	FRAMEBUFFER_INVALIDATE: {Trigger, []Field{flag("invalidate", 0)}, ""},
	FRAMEBUFFER_FLUSH:      {Trigger, []Field{flag("flush", 0)}, ""},
	COLORBUFFER_READ:       {Config, []Field{fld("enable", 0, 3, Hex)}, ""},
	COLORBUFFER_WRITE:      {Config, []Field{fld("enable", 0, 3, Hex)}, ""},
	DEPTHBUFFER_READ:       {Config, []Field{flag("stencil", 0), flag("depth", 1)}, ""},
	DEPTHBUFFER_WRITE:      {Config, []Field{flag("stencil", 0), flag("depth", 1)}, ""},
	DEPTHBUFFER_FORMAT:     {Config, []Field{enm("format", 0, 1, EnumDepthFormat)}, ""},
	COLORBUFFER_FORMAT: {Config, []Field{fld("pixel_size", 0, 1, Uint), enm("format", 16, 18, EnumColorFormat)},
		"L2086-L2107; format 1 (RGB8) is [OUT citra]"},
	EARLYDEPTH_TEST2:    {Config, []Field{flag("enable", 0)}, ""},
	FRAMEBUFFER_BLOCK32: {Config, []Field{flag("block32", 0)}, ""},
	DEPTHBUFFER_LOC:     {Config, []Field{fld("addr", 0, 27, Addr8)}, ""},
	COLORBUFFER_LOC:     {Config, []Field{fld("addr", 0, 27, Addr8)}, ""},
	FRAMEBUFFER_DIM:     {Config, []Field{fld("width", 0, 10, Uint), fld("height_m1", 12, 21, Uint), flag("one", 24)}, "L2155-L2157"},

	LIGHTING_AMBIENT:    {Config, lightColorFields, ""},
	LIGHTING_NUM_LIGHTS: {Config, []Field{fld("count_m1", 0, 2, Uint)}, ""},
	LIGHTING_LUT_INDEX:  {Config, []Field{fld("index", 0, 7, Uint), fld("table", 8, 12, Uint)}, ""},
	LIGHTING_ENABLE1:    {Config, []Field{flag("disable", 0)}, ""},

	ATTRIBBUFFERS_LOC:     {Config, []Field{fld("base", 1, 28, Hex)}, "[OUT citra] PA = (value & 0x1FFFFFFE) << 3"},
	ATTRIBBUFFERS_FMT_LOW: {Config, attrFmtFields(0, 8), "size bits are component count - 1 [OUT citra], not bit widths (guide §6.2)"},
	ATTRIBBUFFERS_FMT_HIGH: {Config, append(attrFmtFields(8, 4), fld("fixed_mask", 16, 27, Hex), fld("count_m1", 28, 31, Uint)),
		""},
	INDEXBUFFER_CONFIG:    {Config, []Field{fld("offset", 0, 27, Hex), enm("type", 31, 31, EnumIndexType)}, ""},
	NUMVERTICES:           {Config, []Field{fld("count", 0, 31, Uint)}, ""},
	GEOSTAGE_CONFIG:       {Config, []Field{fld("gs", 0, 1, Uint), flag("indexed", 8), flag("subdivision", 31)}, ""},
	VERTEX_OFFSET:         {Config, []Field{fld("first", 0, 31, Uint)}, ""},
	POST_VERTEX_CACHE_NUM: {Config, []Field{fld("count", 0, 7, Uint)}, ""},
	DRAWARRAYS:            {Trigger, []Field{fld("kick", 0, 31, Hex)}, ""},
	DRAWELEMENTS:          {Trigger, []Field{fld("kick", 0, 31, Hex)}, ""},
	VTX_FUNC:              {Trigger, []Field{fld("clear_cache", 0, 31, Hex)}, ""},
	FIXEDATTRIB_INDEX:     {Config, []Field{fld("index", 0, 3, Uint)}, "0xF selects immediate mode"},
	0x233:                 {FIFO, []Field{fld("data0", 0, 31, Hex)}, "W<<8 | Z>>16 (L2856-L2864)"},
	0x234:                 {FIFO, []Field{fld("data1", 0, 31, Hex)}, "(Z&0xFFFF)<<16 | Y>>8"},
	0x235:                 {FIFO, []Field{fld("data2", 0, 31, Hex)}, "(Y&0xFF)<<24 | X"},
	CMDBUF_SIZE0:          {Config, []Field{fld("size_div8", 0, 20, Uint)}, "L2872-L2918"},
	0x239:                 {Config, []Field{fld("size_div8", 0, 20, Uint)}, ""},
	CMDBUF_ADDR0:          {Config, []Field{fld("addr", 0, 28, Addr8)}, ""},
	0x23B:                 {Config, []Field{fld("addr", 0, 28, Addr8)}, ""},
	CMDBUF_JUMP0:          {Trigger, []Field{fld("jump", 0, 31, Hex)}, "a non-zero write continues in buffer 0"},
	CMDBUF_JUMP1:          {Trigger, []Field{fld("jump", 0, 31, Hex)}, ""},
	VSH_NUM_ATTR:          {Config, []Field{fld("count_m1", 0, 3, Uint)}, ""},
	VSH_COM_MODE:          {Config, []Field{flag("separate_gs", 0)}, ""},
	START_DRAW_FUNC0:      {Config, []Field{flag("config_mode", 0)}, "keep 1; 0 just around a kick (L2940-L2952)"},
	VSH_OUTMAP_TOTAL1:     {Config, []Field{fld("count_m1", 0, 3, Uint)}, ""},
	VSH_OUTMAP_TOTAL2:     {Config, []Field{fld("count_m1", 0, 3, Uint)}, ""},
	GEOSTAGE_CONFIG2:      {Config, []Field{flag("drawing", 0), flag("indexed", 8)}, ""},
	PRIMITIVE_CONFIG:      {Config, []Field{fld("outputs_m1", 0, 3, Uint), enm("mode", 8, 9, EnumPrimitive)}, "no point or line modes (L3016-L3023)"},
	RESTART_PRIMITIVE:     {Trigger, []Field{flag("restart", 0)}, ""},
}

var texDimFields = []Field{fld("height", 0, 10, Uint), fld("width", 16, 26, Uint)}

var texParamFields = []Field{enm("mag", 1, 1, EnumFilter), enm("min", 2, 2, EnumFilter), fld("etc1", 4, 5, Uint),
	enm("wrap_t", 8, 10, EnumWrap), enm("wrap_s", 12, 14, EnumWrap), enm("mip", 24, 24, EnumFilter),
	flag("shadow", 20), enm("type", 28, 30, EnumTexType)}

var texLodFields = []Field{{Name: "bias", Lo: 0, Hi: 12, Kind: Fixed, Frac: 8}, fld("max_level", 16, 19, Uint), fld("min_level", 24, 27, Uint)}

func attrFmtFields(first, n int) []Field {
	var fs []Field
	for i := 0; i < n; i++ {
		lo := uint8(4 * i)
		fs = append(fs, enm(fmt.Sprintf("a%d_type", first+i), lo, lo+1, EnumAttrType),
			fld(fmt.Sprintf("a%d_size_m1", first+i), lo+2, lo+3, Uint))
	}
	return fs
}

var regTable [NumRegs]*RegInfo

func init() {
	for _, r := range namedRegs {
		if regTable[r.id] != nil {
			panic(fmt.Sprintf("pica: register %#x named twice", r.id))
		}
		regTable[r.id] = &RegInfo{ID: r.id, Name: r.name, Line: r.line, Uncertain: r.uncertain}
	}
	for id, f := range fieldTable {
		ri := regTable[id]
		if ri == nil {
			panic(fmt.Sprintf("pica: fields for unnamed register %#x", id))
		}
		ri.Kind, ri.Fields, ri.Note = f.kind, f.fields, f.note
	}
	regTable[DRAWARRAYS].Draw, regTable[DRAWELEMENTS].Draw = true, true
	// The remaining documented layouts: procedural texture (L1365-L1557),
	// fragment lighting (L2265-L2632), gas and shadow (L2160-L2263).
	setFields(0x0A8, Config, []Field{fld("clamp_u", 0, 2, Uint), fld("clamp_v", 3, 5, Uint), fld("rgb_func", 6, 9, Uint),
		fld("alpha_func", 10, 13, Uint), flag("separate_alpha", 14), flag("noise", 15), fld("shift_u", 16, 17, Uint),
		fld("shift_v", 18, 19, Uint), fld("bias_low", 20, 27, Hex)}, "L1365-L1420")
	setFields(0x0A9, Config, []Field{{Name: "noise_amp_u", Lo: 0, Hi: 15, Kind: Fixed, Frac: 12}, fld("noise_phase_u", 16, 31, F16)}, "")
	setFields(0x0AA, Config, []Field{{Name: "noise_amp_v", Lo: 0, Hi: 15, Kind: Fixed, Frac: 12}, fld("noise_phase_v", 16, 31, F16)}, "")
	setFields(0x0AB, Config, []Field{fld("noise_freq_u", 0, 15, F16), fld("noise_freq_v", 16, 31, F16)}, "")
	setFields(0x0AC, Config, []Field{fld("min_filter", 0, 2, Uint), fld("min_lod", 3, 6, Uint), fld("max_lod", 7, 10, Uint),
		fld("width", 11, 18, Uint), fld("bias_high", 19, 26, Hex)}, "")
	setFields(0x0AD, Config, []Field{fld("offset0", 0, 7, Uint), fld("offset1", 8, 15, Uint), fld("offset2", 16, 23, Uint),
		fld("offset3", 24, 31, Uint)}, "")
	setFields(0x0AF, Config, []Field{fld("index", 0, 7, Uint), fld("table", 8, 11, Uint)}, "0 noise, 2 RGB map, 3 alpha map, 4 colour, 5 colour difference")
	setFields(0x0E4, Config, []Field{fld("density_atten", 0, 15, F16)}, "")
	setFields(0x0E5, Config, []Field{fld("max_accum", 0, 15, F16)}, "")
	setFields(0x120, Config, []Field{fld("planar_min", 0, 7, Uint), fld("planar_max", 8, 15, Uint), fld("planar_atten", 16, 23, Uint)}, "")
	setFields(0x121, Config, []Field{fld("view_min", 0, 7, Uint), fld("view_max", 8, 15, Uint), fld("view_atten", 16, 23, Uint)}, "")
	setFields(0x122, Config, []Field{fld("view_los", 0, 7, Uint), flag("lut_input_light", 8)}, "")
	setFields(0x123, Config, []Field{fld("index", 0, 15, Uint)}, "")
	setFields(0x124, FIFO, []Field{fld("data", 0, 31, Hex)}, "")
	setFields(0x126, Config, []Field{{Name: "deltaz", Lo: 0, Hi: 23, Kind: UFixed, Frac: 8}, fld("depth_func", 24, 25, Uint)}, "")
	setFields(0x130, Config, []Field{fld("penumbra_sum", 0, 15, F16), fld("neg_penumbra_scale", 16, 31, F16)}, "")
	setFields(0x252, Config, []Field{fld("misc", 0, 31, Hex)}, "1 subdivision, 0x01004302 particles")
	setFields(0x254, Config, []Field{fld("subdivision", 0, 4, Uint)}, "2 Loop, 3 Catmull-Clark")
	setFields(LIGHTING_CONFIG0, Config, []Field{flag("shadow", 0), fld("fresnel", 2, 3, Uint), fld("config", 4, 7, Uint),
		fld("magic", 8, 11, Uint), flag("shadow_primary", 16), flag("shadow_secondary", 17), flag("shadow_invert", 18),
		flag("shadow_alpha", 19), fld("bump_unit", 22, 23, Uint), fld("shadow_unit", 24, 25, Uint), flag("clamp_highlights", 27),
		fld("bump_mode", 28, 29, Uint), flag("no_bump_renorm", 30), flag("one", 31)}, "L2403-L2458; bits 8-11 = 4, bit 31 = 1")
	setFields(LIGHTING_CONFIG1, Config, []Field{fld("no_shadow", 0, 7, Hex), fld("no_spot", 8, 15, Hex), flag("no_d0", 16),
		flag("no_d1", 17), flag("one", 18), flag("no_fr", 19), flag("no_rb", 20), flag("no_rg", 21), flag("no_rr", 22),
		fld("no_dist_atten", 24, 31, Hex)}, "1 = disabled; bit 18 must be 1")
	lutFields := func(kind FieldKind) []Field {
		var fs []Field
		for i, n := range []string{"d0", "d1", "sp", "fr", "rb", "rg", "rr"} {
			lo := uint8(4 * i)
			if kind == Flag {
				fs = append(fs, flag(n, lo+1))
			} else {
				fs = append(fs, fld(n, lo, lo+2, Uint))
			}
		}
		return fs
	}
	setFields(LIGHTING_LUTINPUT_ABS, Config, lutFields(Flag), "0 = abs() applied (L2560)")
	setFields(LIGHTING_LUTINPUT_SEL, Config, lutFields(Uint), "0 N.H, 1 V.H, 2 N.V, 3 L.N, 4 -L.P, 5 cos(phi)")
	setFields(LIGHTING_LUTINPUT_SCALE, Config, lutFields(Uint), "0 1x, 1 2x, 2 4x, 3 8x, 6 0.25x, 7 0.5x")
	var perm []Field
	for k := 0; k < 8; k++ {
		perm = append(perm, fld(fmt.Sprintf("light%d", k), uint8(4*k), uint8(4*k+2), Uint))
	}
	setFields(0x1D9, Config, perm, "")
	// Families laid out by formula.
	for s := 0; s < 6; s++ {
		setFields(TexEnv(s, 0), Config, tevSourceFields, "codes L1559-L1588")
		setFields(TexEnv(s, 1), Config, tevOperandFields, "L1590-L1629")
		setFields(TexEnv(s, 2), Config, []Field{enm("rgb", 0, 3, EnumTevFunc), enm("a", 16, 19, EnumTevFunc)},
			"equations are [OUT citra]: the seed gives names only")
		setFields(TexEnv(s, 3), Config, rgba8Fields, "")
		setFields(TexEnv(s, 4), Config, []Field{enm("rgb", 0, 1, EnumTevScale), enm("a", 16, 17, EnumTevScale)}, "")
	}
	for i := 0; i < 8; i++ {
		for off := 0; off < 4; off++ {
			setFields(Light(i, off), Config, lightColorFields, "material x light products (L2275-L2309)")
		}
		setFields(Light(i, 4), Config, []Field{fld("x", 0, 15, F16), fld("y", 16, 31, F16)}, "")
		setFields(Light(i, 5), Config, []Field{fld("z", 0, 15, F16)}, "")
		setFields(Light(i, 6), Config, []Field{{Name: "x", Lo: 0, Hi: 12, Kind: Fixed, Frac: 11}, {Name: "y", Lo: 16, Hi: 28, Kind: Fixed, Frac: 11}}, "negated spot direction, fixed1.1.11 (L2336)")
		setFields(Light(i, 7), Config, []Field{{Name: "z", Lo: 0, Hi: 12, Kind: Fixed, Frac: 11}}, "")
		setFields(Light(i, 9), Config, []Field{flag("directional", 0), flag("two_sided", 1), flag("geo0", 2), flag("geo1", 3)}, "")
		setFields(Light(i, 10), Config, []Field{fld("bias", 0, 19, F20)}, "")
		setFields(Light(i, 11), Config, []Field{fld("scale", 0, 19, F20)}, "")
	}
	for i := 0; i < 7; i++ {
		setFields(SH_OUTMAP_O0+Reg(i), Config, []Field{enm("x", 0, 4, EnumSemantic), enm("y", 8, 12, EnumSemantic),
			enm("z", 16, 20, EnumSemantic), enm("w", 24, 28, EnumSemantic)}, "")
	}
	for i := 0; i < 12; i++ {
		setFields(AttribBuffer(i, 0), Config, []Field{fld("offset", 0, 27, Hex)}, "")
		var c1 []Field
		for k := 0; k < 8; k++ {
			c1 = append(c1, fld(fmt.Sprintf("c%d", k), uint8(4*k), uint8(4*k+3), Uint))
		}
		setFields(AttribBuffer(i, 1), Config, c1, "components 0-11 attribute, 12-15 padding of 4-16 bytes (L2731-L2750)")
		setFields(AttribBuffer(i, 2), Config, []Field{fld("c8", 0, 3, Uint), fld("c9", 4, 7, Uint), fld("c10", 8, 11, Uint),
			fld("c11", 12, 15, Uint), fld("stride", 16, 23, Uint), fld("count", 28, 31, Uint)}, "")
	}
	for k := 0; k < 8; k++ {
		setFields(FOG_LUT_DATA0+Reg(k), FIFO, []Field{{Name: "diff", Lo: 0, Hi: 12, Kind: Fixed, Frac: 11},
			{Name: "value", Lo: 13, Hi: 23, Kind: UFixed, Frac: 11}}, "L1772-L1779")
		setFields(LIGHTING_LUT_DATA0+Reg(k), FIFO, []Field{{Name: "value", Lo: 0, Hi: 11, Kind: UFixed, Frac: 12},
			fld("diff", 12, 23, Hex)}, "")
		setFields(0x0B0+Reg(k), FIFO, []Field{fld("data", 0, 31, Hex)}, "")
	}
	for _, base := range []Reg{GSH_BASE, VSH_BASE} {
		setFields(base+ShBoolUniform, Config, []Field{fld("b", 0, 15, Hex), fld("magic", 16, 31, Hex)}, "bits 16-31 = 0x7FFF (L3056)")
		for i := 0; i < 4; i++ {
			setFields(base+ShIntUniform0+Reg(i), Config, []Field{fld("x", 0, 7, Uint), fld("y", 8, 15, Uint),
				fld("z", 16, 23, Uint), fld("w", 24, 31, Uint)}, "")
		}
		setFields(base+ShInputConfig, Config, []Field{fld("inputs_m1", 0, 3, Uint), fld("subdivision", 8, 15, Uint),
			fld("magic", 24, 31, Hex)}, "")
		setFields(base+ShEntryPoint, Config, []Field{fld("entry", 0, 15, Uint), fld("magic", 16, 31, Hex)}, "bits 16-31 = 0x7FFF (L3086)")
		var perm []Field
		for k := 0; k < 8; k++ {
			perm = append(perm, fld(fmt.Sprintf("a%d", k), uint8(4*k), uint8(4*k+3), Uint))
		}
		setFields(base+ShPermLow, Config, perm, "nibble k = input register of attribute k (L3118-L3119)")
		var permHi []Field
		for k := 0; k < 8; k++ {
			permHi = append(permHi, fld(fmt.Sprintf("a%d", k+8), uint8(4*k), uint8(4*k+3), Uint))
		}
		setFields(base+ShPermHigh, Config, permHi, "")
		setFields(base+ShOutmapMask, Config, []Field{fld("mask", 0, 15, Hex)}, "")
		setFields(base+ShCodeEnd, Trigger, []Field{flag("end", 0)}, "")
		setFields(base+ShFloatIndex, Config, []Field{fld("index", 0, 7, Uint), enm("mode", 31, 31, []string{"F24", "F32"})}, "L3179")
		setFields(base+ShCodeIndex, Config, []Field{fld("index", 0, 11, Uint)}, "")
		setFields(base+ShOpdescIndex, Config, []Field{fld("index", 0, 11, Uint)}, "")
		for k := 0; k < 8; k++ {
			setFields(base+ShFloatData0+Reg(k), FIFO, []Field{fld("data", 0, 31, Hex)}, "f32 mode: W, Z, Y, X words; f24 mode: three words packed as FIXEDATTRIB (guide §6.4)")
			setFields(base+ShCodeData0+Reg(k), FIFO, []Field{fld("insn", 0, 31, Hex)}, "")
			setFields(base+ShOpdescData0+Reg(k), FIFO, []Field{fld("opdesc", 0, 31, Hex)}, "")
		}
	}
}

func setFields(id Reg, k Kind, fs []Field, note string) {
	ri := regTable[id]
	if ri == nil {
		panic(fmt.Sprintf("pica: fields for unnamed register %#x", id))
	}
	ri.Kind, ri.Fields = k, fs
	if note != "" {
		ri.Note = note
	}
}

var tevSourceFields = []Field{enm("rgb0", 0, 3, EnumTevSource), enm("rgb1", 4, 7, EnumTevSource), enm("rgb2", 8, 11, EnumTevSource),
	enm("a0", 16, 19, EnumTevSource), enm("a1", 20, 23, EnumTevSource), enm("a2", 24, 27, EnumTevSource)}

var tevOperandFields = []Field{enm("rgb0", 0, 3, EnumTevOpRGB), enm("rgb1", 4, 7, EnumTevOpRGB), enm("rgb2", 8, 11, EnumTevOpRGB),
	enm("a0", 12, 14, EnumTevOpA), enm("a1", 16, 18, EnumTevOpA), enm("a2", 20, 22, EnumTevOpA)}

// Info returns the register's description, or nil for an ID the seed does
// not name (or one outside the register file).
func Info(id Reg) *RegInfo {
	if int(id) >= NumRegs {
		return nil
	}
	return regTable[id]
}

// Name returns the register's name, or "REG_xxx" for an unnamed ID.
func (r Reg) Name() string {
	if ri := Info(r); ri != nil {
		return ri.Name
	}
	return fmt.Sprintf("REG_%03X", uint16(r))
}

// String returns the name.
func (r Reg) String() string { return r.Name() }

// Describe renders a register value as "NAME field=value ...".
func Describe(id Reg, v uint32) string {
	ri := Info(id)
	if ri == nil {
		return fmt.Sprintf("%s %#08x", id.Name(), v)
	}
	if len(ri.Fields) == 0 {
		return fmt.Sprintf("%s %#08x", ri.Name, v)
	}
	var b strings.Builder
	b.WriteString(ri.Name)
	for _, f := range ri.Fields {
		b.WriteByte(' ')
		b.WriteString(f.Name)
		b.WriteByte('=')
		b.WriteString(f.Format(v))
	}
	return b.String()
}

// Lookup returns the register with the given name (without GPUREG_).
func Lookup(name string) (Reg, bool) {
	name = strings.TrimPrefix(strings.ToUpper(name), "GPUREG_")
	for i, ri := range regTable {
		if ri != nil && ri.Name == name {
			return Reg(i), true
		}
	}
	return 0, false
}
