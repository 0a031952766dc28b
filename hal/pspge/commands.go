// Package pspge is the PSP Graphics Engine's command set as data: every
// command of the seed (shared/seeds/001_3600ae0dd1a564e9.txt) with its opcode,
// fields and enumerations, word builders, the GE float24 format, and a
// decoder that prints one line per word. The driver (driver/pspge) and the
// simulator (sim/pspge) meet here and nowhere else.
//
// Where the seed is wrong or silent the table follows outside facts from
// the guide (shared/notes/pspge.md, tagged [OUT]: PPSSPP's GPUState.h and
// ge_constants.h, pspsdk's sceGu* encoders); each such field says so in its
// note. The three field-order conflicts, all resolved for [OUT]:
//   - ALPHA 0xDF: src 0-3, dst 4-7, op 8-10 (seed L900-909 says op 0-3).
//   - SOP 0xDD: sfail 0-2, zfail 8-10, zpass 16-18 (seed L878-881 is garbled).
//   - BASE 0x10: bits 16-19 (seed L98-99 says 16-20 but calls it 4 bits).
package pspge

import (
	"fmt"
	"strconv"
	"strings"
)

// Op is a GE command opcode (bits 24-31 of a word).
type Op uint8

// FieldKind says how a field's bits read.
type FieldKind uint8

// The field kinds.
const (
	Uint    FieldKind = iota // unsigned integer
	Sint                     // two's-complement signed
	Float24                  // GE float24 (float32 bits >> 8), whole argument
	Enum                     // index into Field.Enum
	Flag                     // single bit
	Hex                      // unsigned, printed in hex (addresses, colours)
	Count                    // a count stored minus one; builders and decoder use the count
)

// Field is a bit field of a command's 24-bit argument.
type Field struct {
	Name   string
	Lo, Hi uint8 // inclusive bit range
	Kind   FieldKind
	Enum   []string
}

// Get extracts the field from an argument.
func (f Field) Get(arg uint32) uint32 {
	return arg >> f.Lo & (1<<(f.Hi-f.Lo+1) - 1)
}

// Put returns v placed in the field (bits outside the field are dropped).
func (f Field) Put(v uint32) uint32 {
	return v & (1<<(f.Hi-f.Lo+1) - 1) << f.Lo
}

// Command describes one opcode.
type Command struct {
	Op   Op
	Name string
	// Line is the seed line that defines the command.
	Line int
	// Base is set for commands whose address uses the BASE register.
	Base   bool
	Fields []Field
	// Note records decisions where the seed is wrong or silent.
	Note string
	// Draw is set for the commands that draw, the draw boundaries a frame
	// debugger steps by (hal.DrawBegin|hal.DrawEnd): PRIM, BEZIER and
	// SPLINE start and finish their primitives within the one word, and
	// TRXKICK writes a block of memory (a framebuffer copy is a draw as
	// far as its pixels go).
	Draw bool
}

// Field returns the named field.
func (c *Command) Field(name string) (Field, bool) {
	for _, f := range c.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Enumerations used by the fields.
var (
	EnumPrim       = []string{"POINTS", "LINES", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN", "SPRITES", "KEEP_PREVIOUS"}
	EnumEdges      = []string{"CLOSE_CLOSE", "OPEN_CLOSE", "CLOSE_OPEN", "OPEN_OPEN"}
	EnumNum        = []string{"NONE", "S8", "S16", "FLOAT"}
	EnumTexCoord   = []string{"NONE", "U8", "U16", "FLOAT"}
	EnumVtxColor   = []string{"NONE", "INVALID1", "INVALID2", "INVALID3", "5650", "5551", "4444", "8888"}
	EnumIndex      = []string{"NONE", "U8", "U16", "U32"}
	EnumSignal     = map[uint32]string{1: "SUSPEND", 2: "CONTINUE", 3: "PAUSE", 8: "SYNC", 0x10: "JUMP", 0x11: "CALL", 0x12: "RET"}
	EnumPPrim      = []string{"TRIANGLES", "LINES", "POINTS", "POINTS"}
	EnumShade      = []string{"FLAT", "SMOOTH"}
	EnumLightComp  = []string{"AMBIENT_DIFFUSE", "DIFFUSE_SPECULAR", "POWERED_DIFFUSE", "UNKNOWN3"}
	EnumLightType  = []string{"DIRECTIONAL", "POINT", "SPOT", "SPOT3"}
	EnumTMapMode   = []string{"UV", "MATRIX", "ENVMAP", "UNKNOWN3"}
	EnumTMapProj   = []string{"POSITION", "UV", "NORMALIZED_NORMAL", "NORMAL"}
	EnumTexFormat  = []string{"5650", "5551", "4444", "8888", "CLUT4", "CLUT8", "CLUT16", "CLUT32", "DXT1", "DXT3", "DXT5", "INVALID11", "INVALID12", "INVALID13", "INVALID14", "INVALID15"}
	EnumPixFormat  = []string{"5650", "5551", "4444", "8888"}
	EnumFilter     = []string{"NEAREST", "LINEAR", "INVALID2", "INVALID3", "NEAREST_MIPMAP_NEAREST", "LINEAR_MIPMAP_NEAREST", "NEAREST_MIPMAP_LINEAR", "LINEAR_MIPMAP_LINEAR"}
	EnumWrap       = []string{"REPEAT", "CLAMP"}
	EnumLodMode    = []string{"AUTO", "CONST", "SLOPE", "CONST3"}
	EnumTexFunc    = []string{"MODULATE", "DECAL", "BLEND", "REPLACE", "ADD", "INVALID5", "INVALID6", "INVALID7"}
	EnumColorTest  = []string{"NEVER", "ALWAYS", "EQUAL", "NOTEQUAL"}
	EnumCompare    = []string{"NEVER", "ALWAYS", "EQUAL", "NOTEQUAL", "LESS", "LEQUAL", "GREATER", "GEQUAL"}
	EnumStencilOp  = []string{"KEEP", "ZERO", "REPLACE", "INVERT", "INCR", "DECR", "INVALID6", "INVALID7"}
	EnumBlendOp    = []string{"ADD", "SUBTRACT", "REVERSE_SUBTRACT", "MIN", "MAX", "ABS", "INVALID6", "INVALID7"}
	EnumBlendSrc   = []string{"DST_COLOR", "ONE_MINUS_DST_COLOR", "SRC_ALPHA", "ONE_MINUS_SRC_ALPHA", "DST_ALPHA", "ONE_MINUS_DST_ALPHA", "DOUBLE_SRC_ALPHA", "ONE_MINUS_DOUBLE_SRC_ALPHA", "DOUBLE_DST_ALPHA", "ONE_MINUS_DOUBLE_DST_ALPHA", "FIX", "FIX11", "FIX12", "FIX13", "FIX14", "FIX15"}
	EnumBlendDst   = []string{"SRC_COLOR", "ONE_MINUS_SRC_COLOR", "SRC_ALPHA", "ONE_MINUS_SRC_ALPHA", "DST_ALPHA", "ONE_MINUS_DST_ALPHA", "DOUBLE_SRC_ALPHA", "ONE_MINUS_DOUBLE_SRC_ALPHA", "DOUBLE_DST_ALPHA", "ONE_MINUS_DOUBLE_DST_ALPHA", "FIX", "FIX11", "FIX12", "FIX13", "FIX14", "FIX15"}
	EnumLogicOp    = []string{"CLEAR", "AND", "AND_REVERSE", "COPY", "AND_INVERTED", "NOOP", "XOR", "OR", "NOR", "EQUIV", "INVERT", "OR_REVERSE", "COPY_INVERTED", "OR_INVERTED", "NAND", "SET"}
	EnumFrontFace  = []string{"CCW_VISIBLE", "CW_VISIBLE"}
	EnumTrxTexel   = []string{"16BIT", "32BIT"}
	EnumPatchFront = []string{"CW", "CCW"}
)

var enumTables = map[string][]string{
	"prim": EnumPrim, "edges": EnumEdges, "num": EnumNum, "tc": EnumTexCoord, "vcol": EnumVtxColor,
	"idx": EnumIndex, "pprim": EnumPPrim, "shade": EnumShade, "lcomp": EnumLightComp, "ltype": EnumLightType,
	"tmode": EnumTMapMode, "tproj": EnumTMapProj, "tpsm": EnumTexFormat, "psm": EnumPixFormat,
	"filter": EnumFilter, "wrap": EnumWrap, "lod": EnumLodMode, "tfunc": EnumTexFunc, "ctst": EnumColorTest,
	"cmp": EnumCompare, "sop": EnumStencilOp, "bop": EnumBlendOp, "bsrc": EnumBlendSrc, "bdst": EnumBlendDst,
	"lop": EnumLogicOp, "face": EnumFrontFace, "trx": EnumTrxTexel, "pface": EnumPatchFront,
}

// row is the compact source form of the table: fields are
// "name:lo-hi[/enum|s|x]" or "name:bit[/enum]"; "f24" makes the whole
// argument a float24.
type row struct {
	op     Op
	name   string
	line   int
	fields string
	note   string
}

const rgb = "r:0-7 g:8-15 b:16-23"

// rows is the command table. Opcodes the seed does not list (03, 0D, 11, 29,
// 34, 35, 39, 4E, 4F, 52, 59, 5A, B6, B7, D1, ED, EF-FF) are absent; the
// simulator treats them as NOP in normal mode and faults in strict mode
// (guide §5.4).
var rows = []row{
	{0x00, "NOP", 38, "", ""},
	{0x01, "VADDR", 40, "addr:0-23/x", "BASE-relative (L40-41)"},
	{0x02, "IADDR", 43, "addr:0-23/x", "BASE-relative (L43-44)"},
	{0x04, "PRIM", 46, "count:0-15 type:16-18/prim", "[OUT] type 7 = keep previous"},
	{0x05, "BEZIER", 57, "ucount:0-7 vcount:8-15", ""},
	{0x06, "SPLINE", 61, "ucount:0-7 vcount:8-15 uedges:16-17/edges vedges:18-19/edges", ""},
	{0x07, "BBOX", 75, "count:0-15", "[OUT] BJUMP jumps when the box was not visible"},
	{0x08, "JUMP", 78, "addr:0-23/x", "[OUT] low 2 bits dropped"},
	{0x09, "BJUMP", 81, "addr:0-23/x", "[OUT] taken iff the last BBOX was not visible"},
	{0x0A, "CALL", 84, "addr:0-23/x", "[OUT] pushes PC+4 and OFFSET; 32 levels"},
	{0x0B, "RET", 87, "", ""},
	{0x0C, "END", 89, "", ""},
	{0x0E, "SIGNAL", 91, "arg:0-15/x behaviour:16-23/x", "[OUT] bits 16-23 are a behaviour code, not an index (L91-93)"},
	{0x0F, "FINISH", 95, "arg:0-15/x", "acts at the following END"},
	{0x10, "BASE", 98, "hi:16-19/x", "[OUT] bits 16-19 = address bits 24-27 (seed L99 says 16-20)"},
	{0x12, "VTYPE", 101, "tc:0-1/tc color:2-4/vcol normal:5-6/num pos:7-8/num weight:9-10/tc index:11-12/idx weights:14-16/n morphs:18-20/n through:23", "counts are stored minus one"},
	{0x13, "OFFSETADDR", 140, "offset:0-23/x", "[OUT] OFFSET = arg<<8 (seed name ???)"},
	{0x14, "ORIGIN", 142, "", "[OUT] OFFSET = address of this word (seed name ???)"},
	{0x15, "REGION1", 144, "x:0-9 y:10-19", ""},
	{0x16, "REGION2", 148, "x:0-9 y:10-19", "inclusive end"},
	{0x17, "LTE", 152, "enable:0", ""},
	{0x18, "LTE0", 154, "enable:0", ""},
	{0x19, "LTE1", 156, "enable:0", ""},
	{0x1A, "LTE2", 158, "enable:0", ""},
	{0x1B, "LTE3", 160, "enable:0", ""},
	{0x1C, "CPE", 162, "enable:0", "[OUT] depth clamp/clip; no plane registers"},
	{0x1D, "BCE", 164, "enable:0", ""},
	{0x1E, "TME", 166, "enable:0", ""},
	{0x1F, "FGE", 168, "enable:0", ""},
	{0x20, "DTE", 170, "enable:0", ""},
	{0x21, "ABE", 172, "enable:0", ""},
	{0x22, "ATE", 174, "enable:0", ""},
	{0x23, "ZTE", 176, "enable:0", ""},
	{0x24, "STE", 178, "enable:0", ""},
	{0x25, "AAE", 180, "enable:0", "no-op in the simulator (guide §5.14)"},
	{0x26, "PCE", 182, "enable:0", ""},
	{0x27, "CTE", 184, "enable:0", ""},
	{0x28, "LOE", 186, "enable:0", ""},
	{0x2A, "BOFS", 188, "index:0-23", "element index into 8 bones x 12 (L190)"},
	{0x2B, "BONE", 192, "f24", ""},
	{0x2C, "MW0", 196, "f24", ""},
	{0x2D, "MW1", 199, "f24", ""},
	{0x2E, "MW2", 202, "f24", ""},
	{0x2F, "MW3", 205, "f24", ""},
	{0x30, "MW4", 208, "f24", ""},
	{0x31, "MW5", 211, "f24", ""},
	{0x32, "MW6", 214, "f24", ""},
	{0x33, "MW7", 217, "f24", ""},
	{0x36, "PSUB", 220, "s:0-7 t:8-15", ""},
	{0x37, "PPRIM", 224, "prim:0-1/pprim", ""},
	{0x38, "PFACE", 230, "face:0/pface", ""},
	{0x3A, "WMS", 235, "index:0-23", ""},
	{0x3B, "WORLD", 237, "f24", "[OUT] column-major 4x3, post-increment"},
	{0x3C, "VMS", 241, "index:0-23", ""},
	{0x3D, "VIEW", 243, "f24", ""},
	{0x3E, "PMS", 247, "index:0-23", ""},
	{0x3F, "PROJ", 249, "f24", "16 values, GL order"},
	{0x40, "TMS", 253, "index:0-23", ""},
	{0x41, "TMATRIX", 255, "f24", "[OUT] float24 although the seed omits the tag"},
	{0x42, "XSCALE", 259, "f24", ""},
	{0x43, "YSCALE", 262, "f24", ""},
	{0x44, "ZSCALE", 265, "f24", ""},
	{0x45, "XPOS", 268, "f24", ""},
	{0x46, "YPOS", 271, "f24", ""},
	{0x47, "ZPOS", 274, "f24", ""},
	{0x48, "USCALE", 277, "f24", ""},
	{0x49, "VSCALE", 280, "f24", "seed L280 misnames it USCALE"},
	{0x4A, "UOFFSET", 283, "f24", "seed L283 names it OFFSET"},
	{0x4B, "VOFFSET", 286, "f24", "seed L286 names it OFFSET"},
	{0x4C, "OFFSETX", 289, "x:0-15", "12.4 fixed"},
	{0x4D, "OFFSETY", 292, "y:0-15", "12.4 fixed"},
	{0x50, "SHADE", 295, "mode:0/shade", ""},
	{0x51, "RNORM", 300, "enable:0", ""},
	{0x53, "CMAT", 302, "ambient:0 diffuse:1 specular:2", ""},
	{0x54, "EMC", 308, rgb, ""},
	{0x55, "AMC", 313, rgb, ""},
	{0x56, "DMC", 318, rgb, ""},
	{0x57, "SMC", 323, rgb, ""},
	{0x58, "AMA", 328, "a:0-7", ""},
	{0x5B, "SPOW", 331, "f24", ""},
	{0x5C, "ALC", 334, rgb, ""},
	{0x5D, "ALA", 339, "a:0-7", ""},
	{0x5E, "LMODE", 342, "separate_specular:0", ""},
	{0x5F, "LT0", 347, "comp:0-1/lcomp type:8-9/ltype", ""},
	{0x60, "LT1", 357, "comp:0-1/lcomp type:8-9/ltype", ""},
	{0x61, "LT2", 367, "comp:0-1/lcomp type:8-9/ltype", ""},
	{0x62, "LT3", 377, "comp:0-1/lcomp type:8-9/ltype", ""},
	{0x63, "LXP0", 387, "f24", ""}, {0x64, "LYP0", 390, "f24", ""}, {0x65, "LZP0", 393, "f24", ""},
	{0x66, "LXP1", 396, "f24", ""}, {0x67, "LYP1", 399, "f24", ""}, {0x68, "LZP1", 402, "f24", ""},
	{0x69, "LXP2", 405, "f24", ""}, {0x6A, "LYP2", 408, "f24", ""}, {0x6B, "LZP2", 411, "f24", ""},
	{0x6C, "LXP3", 414, "f24", ""}, {0x6D, "LYP3", 417, "f24", ""}, {0x6E, "LZP3", 420, "f24", ""},
	{0x6F, "LXD0", 423, "f24", ""}, {0x70, "LYD0", 426, "f24", ""}, {0x71, "LZD0", 429, "f24", ""},
	{0x72, "LXD1", 432, "f24", "seed names it LXD0"}, {0x73, "LYD1", 435, "f24", "seed names it LYD0"}, {0x74, "LZD1", 438, "f24", "seed names it LZD0"},
	{0x75, "LXD2", 441, "f24", "seed names it LXD0"}, {0x76, "LYD2", 444, "f24", "seed names it LYD0"}, {0x77, "LZD2", 447, "f24", "seed names it LZD0"},
	{0x78, "LXD3", 450, "f24", "seed names it LXD0"}, {0x79, "LYD3", 453, "f24", "seed names it LYD0"}, {0x7A, "LZD3", 456, "f24", "seed names it LZD0"},
	{0x7B, "LCA0", 459, "f24", ""}, {0x7C, "LLA0", 462, "f24", ""}, {0x7D, "LQA0", 465, "f24", ""},
	{0x7E, "LCA1", 468, "f24", ""}, {0x7F, "LLA1", 471, "f24", ""}, {0x80, "LQA1", 474, "f24", ""},
	{0x81, "LCA2", 477, "f24", ""}, {0x82, "LLA2", 480, "f24", ""}, {0x83, "LQA2", 483, "f24", ""},
	{0x84, "LCA3", 486, "f24", ""}, {0x85, "LLA3", 489, "f24", ""}, {0x86, "LQA3", 492, "f24", ""},
	{0x87, "SPOTEXP0", 495, "f24", "[OUT] float24; seed name ???"},
	{0x88, "SPOTEXP1", 498, "f24", "[OUT] float24; seed name ???"},
	{0x89, "SPOTEXP2", 501, "f24", "[OUT] float24; seed name ???"},
	{0x8A, "SPOTEXP3", 504, "f24", "seed L504 says decimal 139; it is 138"},
	{0x8B, "SPOTCUT0", 507, "f24", "cosine of the cutoff angle (L508)"},
	{0x8C, "SPOTCUT1", 510, "f24", ""},
	{0x8D, "SPOTCUT2", 513, "f24", ""},
	{0x8E, "SPOTCUT3", 516, "f24", ""},
	{0x8F, "ALC0", 519, rgb, ""}, {0x90, "DLC0", 524, rgb, ""}, {0x91, "SLC0", 529, rgb, ""},
	{0x92, "ALC1", 534, rgb, ""}, {0x93, "DLC1", 539, rgb, ""}, {0x94, "SLC1", 544, rgb, ""},
	{0x95, "ALC2", 549, rgb, ""}, {0x96, "DLC2", 554, rgb, ""}, {0x97, "SLC2", 559, rgb, ""},
	{0x98, "ALC3", 564, rgb, ""}, {0x99, "DLC3", 569, rgb, ""}, {0x9A, "SLC3", 574, rgb, ""},
	{0x9B, "FFACE", 579, "order:0/face", "0 keeps counter-clockwise, 1 clockwise triangles (y-down screen; pspautotests gpu/commands/cull, as pspsdk writes 1 for GU_CW); the seed's order (L579-582) is inverted"},
	{0x9C, "FBP", 584, "addr:0-23/x", "[OUT] VRAM offset arg&0x1FFFF0"},
	{0x9D, "FBW", 587, "width:0-15 hi:16-23/x", "[OUT] hi ignored; stride W&0x7FC"},
	{0x9E, "ZBP", 591, "addr:0-23/x", "[OUT] VRAM offset arg&0x1FFFF0"},
	{0x9F, "ZBW", 594, "width:0-15 hi:16-23/x", "[OUT] hi ignored"},
	{0xA0, "TBP0", 598, "addr:0-23/x", ""}, {0xA1, "TBP1", 601, "addr:0-23/x", ""},
	{0xA2, "TBP2", 604, "addr:0-23/x", ""}, {0xA3, "TBP3", 607, "addr:0-23/x", ""},
	{0xA4, "TBP4", 610, "addr:0-23/x", ""}, {0xA5, "TBP5", 613, "addr:0-23/x", ""},
	{0xA6, "TBP6", 616, "addr:0-23/x", ""}, {0xA7, "TBP7", 619, "addr:0-23/x", ""},
	{0xA8, "TBW0", 622, "width:0-15 hi:16-19/x", "[OUT] hi is 4 bits (seed 16-20)"},
	{0xA9, "TBW1", 626, "width:0-15 hi:16-19/x", ""}, {0xAA, "TBW2", 630, "width:0-15 hi:16-19/x", ""},
	{0xAB, "TBW3", 634, "width:0-15 hi:16-19/x", ""}, {0xAC, "TBW4", 638, "width:0-15 hi:16-19/x", ""},
	{0xAD, "TBW5", 642, "width:0-15 hi:16-19/x", ""}, {0xAE, "TBW6", 646, "width:0-15 hi:16-19/x", ""},
	{0xAF, "TBW7", 650, "width:0-15 hi:16-19/x", ""},
	{0xB0, "CBP", 654, "addr:0-23/x", ""},
	{0xB1, "CBPH", 657, "hi:16-19/x", "[OUT] 4 bits (seed 16-20)"},
	{0xB2, "TRXSBP", 660, "addr:0-23/x", ""},
	{0xB3, "TRXSBW", 663, "width:0-15 hi:16-23/x", ""},
	{0xB4, "TRXDBP", 667, "addr:0-23/x", ""},
	{0xB5, "TRXDBW", 670, "width:0-15 hi:16-23/x", ""},
	{0xB8, "TSIZE0", 674, "w:0-7 h:8-15", "log2 sizes; [OUT] 4 bits used, max 512"},
	{0xB9, "TSIZE1", 678, "w:0-7 h:8-15", ""}, {0xBA, "TSIZE2", 682, "w:0-7 h:8-15", ""},
	{0xBB, "TSIZE3", 686, "w:0-7 h:8-15", ""}, {0xBC, "TSIZE4", 690, "w:0-7 h:8-15", ""},
	{0xBD, "TSIZE5", 694, "w:0-7 h:8-15", ""}, {0xBE, "TSIZE6", 698, "w:0-7 h:8-15", ""},
	{0xBF, "TSIZE7", 702, "w:0-7 h:8-15", ""},
	{0xC0, "TMAP", 706, "mode:0-1/tmode proj:8-9/tproj", ""},
	{0xC1, "TEXSHADE", 717, "s:0-1 t:8-9", "unnamed in the seed; [OUT] lights giving the env-map columns"},
	{0xC2, "TMODE", 721, "swizzle:0 multiclut:8 maxlevel:16-18", "[OUT] bit 8 separate CLUT per mip; max level 16-18"},
	{0xC3, "TPSM", 726, "format:0-3/tpsm", ""},
	{0xC4, "CLOAD", 740, "blocks:0-5", "[OUT] 32-byte blocks (seed: colors/8)"},
	{0xC5, "CMODE", 743, "format:0-1/psm shift:2-6 mask:8-15/x start:16-20", "[OUT] shift and start (seed ???)"},
	{0xC6, "TFLT", 753, "min:0-2/filter mag:8-10/filter", ""},
	{0xC7, "TWRAP", 763, "u:0/wrap v:8/wrap", ""},
	{0xC8, "TBIAS", 769, "mode:0-1/lod bias:16-23/s", "[OUT] bias in 1/16 LOD units"},
	{0xC9, "TFUNC", 773, "func:0-2/tfunc rgba:8 double:16", ""},
	{0xCA, "TEC", 787, rgb, ""},
	{0xCB, "TFLUSH", 792, "", ""},
	{0xCC, "TSYNC", 795, "", ""},
	{0xCD, "FFAR", 798, "f24", "[OUT] float24"},
	{0xCE, "FDIST", 800, "f24", ""},
	{0xCF, "FCOL", 803, rgb, ""},
	{0xD0, "TSLOPE", 808, "f24", ""},
	{0xD2, "PSM", 811, "format:0-1/psm", ""},
	{0xD3, "CLEAR", 818, "enable:0 color:8 stencil:9 depth:10", "flags are bits 8-10 (seed says 8-11)"},
	{0xD4, "SCISSOR1", 825, "x:0-9 y:10-19", ""},
	{0xD5, "SCISSOR2", 829, "x:0-9 y:10-19", "inclusive end"},
	{0xD6, "NEARZ", 833, "z:0-15", ""},
	{0xD7, "FARZ", 836, "z:0-15", ""},
	{0xD8, "CTST", 839, "func:0-1/ctst", ""},
	{0xD9, "CREF", 846, "ref:0-23/x", ""},
	{0xDA, "CMSK", 849, "mask:0-23/x", ""},
	{0xDB, "ATST", 852, "func:0-2/cmp ref:8-15/x mask:16-23/x", ""},
	{0xDC, "STST", 865, "func:0-2/cmp ref:8-15/x mask:16-23/x", ""},
	{0xDD, "SOP", 878, "sfail:0-2/sop zfail:8-10/sop zpass:16-18/sop", "[OUT] order sfail/zfail/zpass (seed L878-881 wrong)"},
	{0xDE, "ZTST", 889, "func:0-2/cmp", ""},
	{0xDF, "ALPHA", 900, "src:0-3/bsrc dst:4-7/bdst op:8-10/bop", "[OUT] src 0-3, dst 4-7, op 8-10 (seed L900-909 wrong)"},
	{0xE0, "SFIX", 920, rgb, ""},
	{0xE1, "DFIX", 925, rgb, ""},
	{0xE2, "DTH0", 930, "c0:0-3/s c1:4-7/s c2:8-11/s c3:12-15/s", "[OUT] signed -8..7"},
	{0xE3, "DTH1", 936, "c0:0-3/s c1:4-7/s c2:8-11/s c3:12-15/s", ""},
	{0xE4, "DTH2", 942, "c0:0-3/s c1:4-7/s c2:8-11/s c3:12-15/s", ""},
	{0xE5, "DTH3", 948, "c0:0-3/s c1:4-7/s c2:8-11/s c3:12-15/s", ""},
	{0xE6, "LOP", 954, "op:0-3/lop", ""},
	{0xE7, "ZMSK", 973, "mask:0-15/x", "[OUT] bit 0 = 1 disables depth writes"},
	{0xE8, "PMSKC", 976, "r:0-7/x g:8-15/x b:16-23/x", "[OUT] 1-bits are protected"},
	{0xE9, "PMSKA", 981, "a:0-7/x", "[OUT] 1-bits are protected; also the stencil write mask"},
	{0xEA, "TRXKICK", 984, "texel:0/trx", ""},
	{0xEB, "TRXSPOS", 989, "x:0-9 y:10-19", ""},
	{0xEC, "TRXDPOS", 993, "x:0-9 y:10-19", ""},
	{0xEE, "TRXSIZE", 997, "w:0-9/n h:10-19/n", "sizes minus one; seed L997 says decimal 237, EE is 238"},
}

// Table holds every defined command by opcode; nil for undefined opcodes.
var Table [256]*Command

// ByName maps a command name to its opcode.
var ByName = map[string]Op{}

func init() {
	for _, r := range rows {
		if Table[r.op] != nil {
			panic(fmt.Sprintf("pspge: duplicate opcode %#02x", r.op))
		}
		c := &Command{Op: r.op, Name: r.name, Line: r.line, Note: r.note}
		c.Base = r.op == 0x01 || r.op == 0x02 || r.op == 0x08 || r.op == 0x09 || r.op == 0x0A
		c.Draw = r.op == PRIM || r.op == BEZIER || r.op == SPLINE || r.op == TRXKICK
		for _, spec := range strings.Fields(r.fields) {
			c.Fields = append(c.Fields, parseField(spec))
		}
		Table[r.op] = c
		if _, dup := ByName[r.name]; dup {
			panic("pspge: duplicate name " + r.name)
		}
		ByName[r.name] = r.op
	}
}

func parseField(spec string) Field {
	if spec == "f24" {
		return Field{Name: "value", Lo: 0, Hi: 23, Kind: Float24}
	}
	name, rest, _ := strings.Cut(spec, ":")
	rng, suffix, _ := strings.Cut(rest, "/")
	lo, hi, isRange := strings.Cut(rng, "-")
	f := Field{Name: name}
	l, _ := strconv.Atoi(lo)
	f.Lo, f.Hi = uint8(l), uint8(l)
	f.Kind = Flag
	if isRange {
		h, _ := strconv.Atoi(hi)
		f.Hi = uint8(h)
		f.Kind = Uint
	}
	switch suffix {
	case "":
	case "s":
		f.Kind = Sint
	case "x":
		f.Kind = Hex
	case "n":
		f.Kind = Count
	default:
		e, ok := enumTables[suffix]
		if !ok {
			panic("pspge: unknown enum " + suffix)
		}
		f.Kind, f.Enum = Enum, e
	}
	return f
}

// Opcodes named in code.
const (
	NOP        Op = 0x00
	VADDR      Op = 0x01
	IADDR      Op = 0x02
	PRIM       Op = 0x04
	BEZIER     Op = 0x05
	SPLINE     Op = 0x06
	BBOX       Op = 0x07
	JUMP       Op = 0x08
	BJUMP      Op = 0x09
	CALL       Op = 0x0A
	RET        Op = 0x0B
	END        Op = 0x0C
	SIGNAL     Op = 0x0E
	FINISH     Op = 0x0F
	BASE       Op = 0x10
	VTYPE      Op = 0x12
	OFFSETADDR Op = 0x13
	ORIGIN     Op = 0x14
	REGION1    Op = 0x15
	REGION2    Op = 0x16
	LTE        Op = 0x17
	LTE0       Op = 0x18
	CPE        Op = 0x1C
	BCE        Op = 0x1D
	TME        Op = 0x1E
	FGE        Op = 0x1F
	DTE        Op = 0x20
	ABE        Op = 0x21
	ATE        Op = 0x22
	ZTE        Op = 0x23
	STE        Op = 0x24
	AAE        Op = 0x25
	PCE        Op = 0x26
	CTE        Op = 0x27
	LOE        Op = 0x28
	BOFS       Op = 0x2A
	BONE       Op = 0x2B
	MW0        Op = 0x2C
	PSUB       Op = 0x36
	PPRIM      Op = 0x37
	PFACE      Op = 0x38
	WMS        Op = 0x3A
	WORLD      Op = 0x3B
	VMS        Op = 0x3C
	VIEW       Op = 0x3D
	PMS        Op = 0x3E
	PROJ       Op = 0x3F
	TMS        Op = 0x40
	TMATRIX    Op = 0x41
	XSCALE     Op = 0x42
	YSCALE     Op = 0x43
	ZSCALE     Op = 0x44
	XPOS       Op = 0x45
	YPOS       Op = 0x46
	ZPOS       Op = 0x47
	USCALE     Op = 0x48
	VSCALE     Op = 0x49
	UOFFSET    Op = 0x4A
	VOFFSET    Op = 0x4B
	OFFSETX    Op = 0x4C
	OFFSETY    Op = 0x4D
	SHADE      Op = 0x50
	RNORM      Op = 0x51
	CMAT       Op = 0x53
	EMC        Op = 0x54
	AMC        Op = 0x55
	DMC        Op = 0x56
	SMC        Op = 0x57
	AMA        Op = 0x58
	SPOW       Op = 0x5B
	ALC        Op = 0x5C
	ALA        Op = 0x5D
	LMODE      Op = 0x5E
	LT0        Op = 0x5F
	LXP0       Op = 0x63
	LXD0       Op = 0x6F
	LCA0       Op = 0x7B
	SPOTEXP0   Op = 0x87
	SPOTCUT0   Op = 0x8B
	ALC0       Op = 0x8F
	FFACE      Op = 0x9B
	FBP        Op = 0x9C
	FBW        Op = 0x9D
	ZBP        Op = 0x9E
	ZBW        Op = 0x9F
	TBP0       Op = 0xA0
	TBW0       Op = 0xA8
	CBP        Op = 0xB0
	CBPH       Op = 0xB1
	TRXSBP     Op = 0xB2
	TRXSBW     Op = 0xB3
	TRXDBP     Op = 0xB4
	TRXDBW     Op = 0xB5
	TSIZE0     Op = 0xB8
	TMAP       Op = 0xC0
	TEXSHADE   Op = 0xC1
	TMODE      Op = 0xC2
	TPSM       Op = 0xC3
	CLOAD      Op = 0xC4
	CMODE      Op = 0xC5
	TFLT       Op = 0xC6
	TWRAP      Op = 0xC7
	TBIAS      Op = 0xC8
	TFUNC      Op = 0xC9
	TEC        Op = 0xCA
	TFLUSH     Op = 0xCB
	TSYNC      Op = 0xCC
	FFAR       Op = 0xCD
	FDIST      Op = 0xCE
	FCOL       Op = 0xCF
	TSLOPE     Op = 0xD0
	PSM        Op = 0xD2
	CLEAR      Op = 0xD3
	SCISSOR1   Op = 0xD4
	SCISSOR2   Op = 0xD5
	NEARZ      Op = 0xD6
	FARZ       Op = 0xD7
	CTST       Op = 0xD8
	CREF       Op = 0xD9
	CMSK       Op = 0xDA
	ATST       Op = 0xDB
	STST       Op = 0xDC
	SOP        Op = 0xDD
	ZTST       Op = 0xDE
	ALPHA      Op = 0xDF
	SFIX       Op = 0xE0
	DFIX       Op = 0xE1
	DTH0       Op = 0xE2
	LOP        Op = 0xE6
	ZMSK       Op = 0xE7
	PMSKC      Op = 0xE8
	PMSKA      Op = 0xE9
	TRXKICK    Op = 0xEA
	TRXSPOS    Op = 0xEB
	TRXDPOS    Op = 0xEC
	TRXSIZE    Op = 0xEE
)

// String returns the command name, or OP_xx for an undefined opcode.
func (o Op) String() string {
	if c := Table[o]; c != nil {
		return c.Name
	}
	return fmt.Sprintf("OP_%02X", uint8(o))
}
