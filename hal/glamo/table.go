package glamo

import "fmt"

// row is the compact source form of one register (see parseFields).
type row struct {
	addr uint16
	name string
	line int
	wide bool
	flds string
	eff  Effect
	note string
}

// TexFormat names of EGTXnFM (21A0h/2200h D[31:24], L3081-3174). Codes
// absent from the map are "Reserved for" in the seed (DXT, YUV, 32bpp,
// Index7, I1/I2, L1/L2, A1/A2) and the simulator faults on them. Codes
// 0A-0C also appear as "Index to YUV" (L3107); the Index8 meaning wins
// (P4). Tex1's class list (L3384-3394) is shifted by one line; Tex0's is
// used for both units.
var TexFormatNames = map[uint8]string{
	0x00: "I4_RGB555", 0x01: "I4_RGB565", 0x02: "I4_ARGB1555", 0x03: "I4_ARGB4444",
	0x08: "I8_RGB555", 0x09: "I8_RGB565", 0x0A: "I8_ARGB1555", 0x0B: "I8_ARGB4444",
	0x80: "I4_BGR555", 0x81: "I4_BGR565", 0x82: "I4_RGBA5551", 0x83: "I4_RGBA4444", 0x84: "I4_ABGR1555", 0x85: "I4_ABGR4444",
	0x88: "I8_BGR555", 0x89: "I8_BGR565", 0x8A: "I8_RGBA5551", 0x8B: "I8_RGBA4444", 0x8C: "I8_ABGR1555", 0x8D: "I8_ABGR4444",
	0x12: "INT4", 0x13: "INT8",
	0x32: "L4", 0x33: "L8", 0x35: "AL44", 0x37: "AL26", 0x38: "AL88", 0xB5: "LA44", 0xB7: "LA62", 0xB8: "LA88",
	0x42: "A4", 0x43: "A8",
	0x50: "RGB332", 0x51: "RGB233", 0x52: "RGB323", 0x53: "ARGB1232", 0x54: "ARGB2222",
	0xD0: "BGR332", 0xD1: "BGR233", 0xD2: "BGR323", 0xD3: "RGBA1232", 0xD4: "RGBA2222", 0xD5: "ABGR1232", 0xD6: "ABGR2222",
	0x60: "RGB555", 0x61: "RGB565", 0x62: "ARGB1555", 0x63: "ARGB4444",
	0xE0: "BGR555", 0xE1: "BGR565", 0xE2: "RGBA5551", 0xE3: "RGBA4444", 0xE4: "ABGR1555", 0xE5: "ABGR4444",
}

// Argument selects of the texture-blend units (L3801-3825, L4229): 5 bits
// plus bit 5, which replicates alpha into colour (colour units) or blue
// into alpha (alpha units). "Reserved" selects are absent, except 10011,
// which reads factor 1 (2334h) as proposal P7 decides.
var argNames = map[uint8]string{
	0x00: "ZERO", 0x01: "CUR1", 0x03: "DIF", 0x04: "SPEC", 0x05: "CUR0",
	0x06: "TEX0", 0x07: "TEX1", 0x12: "FACT0", 0x13: "FACT1",
}

func init() {
	tf := make([]string, 256)
	for c, n := range TexFormatNames {
		tf[c] = n
	}
	carg, aarg := make([]string, 64), make([]string, 64)
	for c, n := range argNames {
		carg[c], aarg[c] = n, n
		carg[c|32], aarg[c|32] = n+".A", n+".B"
	}
	imod := make([]string, 16)
	for v := range imod {
		imod[v] = modName(uint32(v), []string{"1-X", "NEG", "2X", "X-0.5"})
	}
	omod := make([]string, 32)
	scales := []string{"", "2X", "4X", "8X", "", "D2", "D4", "D8"}
	for v := range omod {
		if v>>1&7 == 4 {
			continue // scale 100 is not defined
		}
		var parts []string
		if v&16 != 0 {
			parts = append(parts, "X-0.5")
		}
		if s := scales[v>>1&7]; s != "" {
			parts = append(parts, s)
		}
		if v&1 != 0 {
			parts = append(parts, "SAT")
		}
		omod[v] = join(parts)
	}
	prim := make([]string, 32)
	for c, n := range map[int]string{0x00: "POINTS", 0x04: "LINES", 0x14: "LINES2", 0x05: "LINE_STRIP",
		0x08: "TRIANGLES", 0x18: "TRIANGLES2", 0x09: "TRIANGLE_STRIP", 0x0A: "TRIANGLE_FAN"} {
		prim[c] = n
	}
	zfmt := make([]string, 128)
	zfmt[0x00] = "Z16"
	for i := 0x08; i <= 0x0B; i++ {
		zfmt[i] = "F1Z15"
	}
	for i := 0x0C; i <= 0x0F; i++ {
		zfmt[i] = "F2Z14"
	}
	zfmt[0x10] = "F5Z11"
	cfmt := make([]string, 128)
	for c, n := range map[int]string{0x10: "RGB555", 0x11: "RGB565", 0x12: "ARGB1555", 0x13: "ARGB4444",
		0x50: "BGR555", 0x51: "BGR565", 0x52: "ABGR1555", 0x53: "ABGR4444"} {
		cfmt[c] = n
	}
	fogmd := make([]string, 8)
	fogmd[0], fogmd[4], fogmd[5], fogmd[6], fogmd[7] = "CONSTANT", "VERTEX", "LINEAR", "EXP", "EXP2"
	for k, v := range map[string][]string{
		"cmp":     {"NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER", "NOTEQUAL", "GEQUAL", "ALWAYS"},
		"sop":     {"KEEP", "ZERO", "REPLACE", "INCRSAT", "DECRSAT", "INVERT", "INCR", "DECR"},
		"fill":    {"", "POINT", "WIREFRAME", "SOLID"},
		"texfrom": {"A", "B", "C", "D"},
		"parmode": {"STRIP_OLD_FAN_OLD", "STRIP_OLD_FAN_NEW", "STRIP_NEW_FAN_OLD", "STRIP_NEW_FAN_NEW"},
		"dim":     {"1D", "2D", "3D", "4D"},
		"dtype":   {"FLOAT", "SHORT", "FIXED", "BYTE", "UBYTE"},
		"atype":   {"POSITION", "NORMAL", "DIFFUSE", "SPECULAR", "TEXA", "TEXB", "TEXC", "TEXD", "PSIZE"},
		"cbm":     {"BUFFER", "", "", "STREAM_INDEX"},
		"cms":     {"BUFFER", "INDEX", "PACKET", "STREAM_INDEX"},
		"tcset":   {"2D", "3D", "4D", "1D"},
		"rop": {"BLACK", "NOT_MERGE_PEN", "MASK_NOT_PEN", "NOT_COPY_PEN", "MASK_PEN_NOT", "NOT", "XOR_PEN",
			"NOT_MASK_PEN", "MASK_PEN", "NOT_XOR_PEN", "NOP", "MERGE_NOT_PEN", "COPY_PEN", "MERGE_PEN_NOT", "MERGE_PEN", "WHITE"},
		"stfmt": {"S1", "S2", "S4", "S8"},
		"beq":   {"ADD", "SUB", "MAX", "MIN", "", "REVSUB", "", ""},
		"bsrc": {"ZERO", "ONE", "SRC_COLOR", "INV_SRC_COLOR", "SRC_ALPHA", "INV_SRC_ALPHA", "DST_ALPHA", "INV_DST_ALPHA",
			"DST_COLOR", "INV_DST_COLOR", "SRC_ALPHA_SAT", "BOTH_SRC_ALPHA", "BOTH_INV_SRC_ALPHA", "CONSTANT_COLOR",
			"INV_CONSTANT_COLOR", "CONSTANT_ALPHA", "INV_CONSTANT_ALPHA"},
		"bdst": {"ZERO", "ONE", "SRC_COLOR", "INV_SRC_COLOR", "SRC_ALPHA", "INV_SRC_ALPHA", "DST_ALPHA", "INV_DST_ALPHA",
			"DST_COLOR", "INV_DST_COLOR", "SRC_ALPHA_SAT", "CONSTANT_COLOR", "INV_CONSTANT_COLOR", "CONSTANT_ALPHA", "INV_CONSTANT_ALPHA"},
		"wrap":   {"BORDER", "WRAP", "MIRROR", "CLAMP"},
		"mag":    {"NEAREST", "LINEAR"},
		"min":    {"NEAREST", "LINEAR", "NEAREST_MIP_NEAREST", "NEAREST_MIP_LINEAR", "LINEAR_MIP_NEAREST", "LINEAR_MIP_LINEAR"},
		"stages": {"ONE", "TWO"},
		"trsmod": {"TEXEL", "BLEND", "ALPHA", "BLEND"},
		"c0wmsk": {"NONE", "OPA", "OPB", "OPC", "OPA_T0", "OPA_T1"},
		"c1wmsk": {"NONE", "OPA", "OPB", "OPC", "OPC_T0", "OPC_T1"},
		"opab":   {"DP3", "DP4", "MUL"},
		"opc":    {"NOP", "CND_A", "CMP", "ADD", "SUB", "CND_B", "ADD_SAT", "SUB_SAT"},
		"shade":  {"", "FLAT_A", "FLAT_B", "FLAT_C", "GOURAUD"},
		"ltype":  {"POINT", "SPOT", "DIRECTIONAL"},
		"matsrc": {"VCD", "VCS", "MATERIAL"},
		"vfog":   {"", "EXP", "EXP2", "LINEAR"},
		"texgen": {"", "NORMAL", "POSITION", "REFLECTION"},
		"end":    {"WAIT_ALL", "WAIT_BACK"},
		"txfmt":  tf, "carg": carg, "aarg": aarg, "imod": imod, "omod": omod, "prim": prim,
		"zfmt": zfmt, "cfmt": cfmt, "fogmd": fogmd,
	} {
		enums[k] = v
	}
	build()
}

func modName(v uint32, bits []string) string {
	var parts []string
	for i := len(bits) - 1; i >= 0; i-- {
		if v>>uint(i)&1 != 0 {
			parts = append(parts, bits[i])
		}
	}
	return join(parts)
}

func join(parts []string) string {
	if len(parts) == 0 {
		return "X"
	}
	s := parts[0]
	for _, p := range parts[1:] {
		s += "|" + p
	}
	return s
}

// rows is the hand-written part of the table, in address order. Repeated
// blocks (streams, texture levels, matrices, materials, lights, palettes)
// are generated by build.
var rows = []row{
	// Vertex "a" input ports (L412-471, detail L1626-1676): the immediate
	// vertex EGFIRE sends, s[8].23 unless packed.
	{0x1B00, "RGPXa", 1626, true, "X:31-0/f32", 0, ""},
	{0x1B04, "RGPYa", 1627, true, "Y:31-0/f32", 0, ""},
	{0x1B08, "RGPZa", 1628, true, "Z:31-0/f32", 0, ""},
	{0x1B0C, "RGPWa", 1629, true, "W:31-0/f32", 0, ""},
	{0x1B10, "RGPNXa", 1630, true, "NX:31-0/f32", 0, ""},
	{0x1B14, "RGPNYa", 1631, true, "NY:31-0/f32", 0, ""},
	{0x1B18, "RGPNZa", 1632, true, "NZ:31-0/f32", 0, ""},
	{0x1B20, "RGPDIFa", 1633, true, "C3:31-24 C2:23-16 C1:15-8 C0:7-0", 0,
		"packed 8-bit diffuse, A,R,G,B from the top byte (or R,G,B,A when 1F0Ch D0 = 1); " +
			"MGVtxdiffmt is never defined (L1633), so the immediate path always reads this packed form"},
	{0x1B24, "RGPGa", 1637, true, "G:31-0/f32", 0, "float diffuse form: stored, never read (see RGPDIFa)"},
	{0x1B28, "RGPBa", 1638, true, "B:31-0/f32", 0, "float diffuse form: stored, never read"},
	{0x1B2C, "RGPAa", 1639, true, "A:31-0/f32", 0, "float diffuse form: stored, never read"},
	{0x1B30, "RGPSPECa", 1640, true, "C3:31-24 C2:23-16 C1:15-8 C0:7-0", 0,
		"packed 8-bit specular with the fog factor in the top byte (or SR,SG,SB,F when 1F0Ch D0 = 1)"},
	{0x1B34, "RGPSGa", 1650, true, "SG:31-0/f32", 0, "float specular form: stored, never read"},
	{0x1B38, "RGPSBa", 1653, true, "SB:31-0/f32", 0, "float specular form: stored, never read"},
	{0x1B3C, "RGPSFa", 1656, true, "SF:31-0/f32", 0, "float specular form: stored, never read"},
	{0x1B40, "RGPUAa", 1659, true, "U:31-0/f32", 0, ""},
	{0x1B44, "RGPVAa", 1661, true, "V:31-0/f32", 0, ""},
	{0x1B48, "RGPMAa", 1663, true, "W:31-0/f32", 0, "third texture-A coordinate (M)"},
	{0x1B4C, "RGPNAa", 1665, true, "Q:31-0/f32", 0, "fourth texture-A coordinate (N)"},
	{0x1B50, "RGPUBa", 1667, true, "U:31-0/f32", 0, ""},
	{0x1B54, "RGPVBa", 1669, true, "V:31-0/f32", 0, ""},
	{0x1B58, "RGPMBa", 1671, true, "W:31-0/f32", 0, ""},
	{0x1B5C, "RGPNBa", 1673, true, "Q:31-0/f32", 0, ""},
	{0x1B80, "RGPPSIZEa", 1675, true, "SIZE:31-0/f32", 0, ""},

	// Vertex defaults (L609-628), float32 converted by the hardware.
	{0x1E00, "RGXPosDefX", 609, true, "X:31-0/f32", 0, ""},
	{0x1E04, "RGXPosDefY", 610, true, "Y:31-0/f32", 0, ""},
	{0x1E08, "RGXPosDefZ", 611, true, "Z:31-0/f32", 0, ""},
	{0x1E0C, "RGXPosDefW", 612, true, "W:31-0/f32", 0, ""},
	{0x1E10, "RGXNormDefX", 613, true, "X:31-0/f32", 0, ""},
	{0x1E14, "RGXNormDefY", 614, true, "Y:31-0/f32", 0, ""},
	{0x1E18, "RGXNormDefZ", 615, true, "Z:31-0/f32", 0, ""},
	{0x1E20, "RGXDiffDef", 617, true, "A:31-24 R:23-16 G:15-8 B:7-0", 0, "ARGB8888, reduced to 8666 by the hardware"},
	{0x1E24, "RGXSpecDef", 618, true, "F:31-24 R:23-16 G:15-8 B:7-0", 0, "fog and specular RGB"},
	{0x1E30, "RGXTxADefU", 621, true, "U:31-0/f32", 0, ""},
	{0x1E34, "RGXTxADefV", 622, true, "V:31-0/f32", 0, ""},
	{0x1E38, "RGXTxADefW", 623, true, "W:31-0/f32", 0, ""},
	{0x1E3C, "RGXTxADefQ", 624, true, "Q:31-0/f32", 0, ""},
	{0x1E40, "RGXTxBDefU", 625, true, "U:31-0/f32", 0, "labelled Texture A in the seed (L625-628)"},
	{0x1E44, "RGXTxBDefV", 626, true, "V:31-0/f32", 0, ""},
	{0x1E48, "RGXTxBDefW", 627, true, "W:31-0/f32", 0, ""},
	{0x1E4C, "RGXTxBDefQ", 628, true, "Q:31-0/f32", 0, ""},

	// Stream table (L630-715, detail L1952-2206).
	{0x1F00, "MGVStreamActive", 632, true, "ACTIVE:7-0/x", 0, ""},
	{0x1F0C, "MGVStrmCfg", 635, true, "LAST:10-8 IDX8:2 IDXMODE:1 ABGR:0", 0,
		"also listed at 2030h (L2207); 2030h is the index base, so 1F0Ch holds these fields (P2)"},

	// Command buffer mode (L717-731).
	{0x2030, "MGStrmIndexMDBAS", 719, true, "BASE:22-1/a", 0, "index buffer byte address = value x 2 (L722)"},
	{0x2034, "RGTDWNum", 723, true, "REMAIN:27-0", EffReadOnly, "read port"},
	{0x203C, "MGBufCBMFire", 727, false, "MODE:1-0/e:cbm", EffPreFire, ""},
	{0x203E, "MGBufCMSFire", 729, false, "MODE:1-0/e:cms", EffModeFire,
		"11 is Stream Index (L730) or MMIO (L2213): stream index (P3); immediate vertices go through EGFIRE"},
	{0x2040, "RGPVDTexSet", 734, true, "TEXA:31-30/e:tcset TEXB:29-28/e:tcset CNT:13-12", 0, ""},
	{0x2044, "RGPVDNum", 738, true, "BPV:27-20 COUNT:19-0", 0, "bytes per vertex (index mode) and vertices per list"},
	{0x2050, "EGPrimSet", 746, false,
		"CCWFILL:13-12/e:fill T0FROM:11-10/e:texfrom T1FROM:9-8/e:texfrom PARMODE:3-2/e:parmode FILL:1-0/e:fill", 0, ""},
	{0x2052, "EGPDTYPE", 754, false, "TYPE:4-0/e:prim", 0,
		"D[14:5] are all \"Reserved for\" (EGSETFIRE, EGenGxL, EGLLPixel): not modelled"},
	{0x2054, "EGSTATUSA", 764, false,
		"AGPIDLE:9 DRAWDIR:8 POSTIDLE:7 BLDIDLE:6 ZIDLE:5 TXIDLE:4 SHAIDLE:3 SETIDLE:2 QIDLE:1 IDLE:0", EffReadOnly, ""},
	{0x2056, "EGSTATUSB", 767, false, "VALUE:15-0/x", EffReadOnly, "undefined by the seed"},
	{0x2058, "EGFIRE", 768, false, "DATA:15-0/x", EffFire, "any write fires the engine on vertex a (L769); reads give EGSTATUSC"},
	{0x205A, "EGSTATUSD", 771, false, "VALUE:15-0/x", EffReadOnly, "undefined by the seed"},

	// Enables (L775-837, detail L2401-2569), reset 0.
	{0x2100, "EGEn0", 2401, true, "WCFVB:27 WCFUB:26 WCFVA:25 WCFUA:24 STT:22 ZW:20 ZT:19 NOTRIALI:18 AT:17 " +
		"ZNOCLEAR:16 TXSWIZ:15 TXNUM:14-12 TXMP:10 TXPP:9 TXCACHE:7 TXCLRCACHE:6 STBUF:5 SPEC:4 FOG:3 AALINE:2 BLEND:1 DITH:0", 0,
		"wrap-correction flags (D[27:24]) and the caches change no pixel in the simulator"},
	{0x2104, "EGEn1", 2505, true, "TX1TR:29 TX0TR:28 ZBIAS:24 CWRMASK:23 ZWRMASK:22 NOZMERGE:20 MIPBS:19 USESPEC:18 " +
		"TXBL:17 POLYSTIPPLE:15 AAPOINT:14 AALINEAT:13 STEREO:12 LINESTIPPLE:11 STWRMASK:10 INVDITH:9 TURBOTRI:8 " +
		"TX1GLRULE:1 TX0GLRULE:0", 0, "ZBIAS has no value register: it enables the polygon offset of 2620h/2624h too (P18)"},

	// Z, alpha, destination (L838-855, detail L2571-2750).
	{0x2108, "EGZCfg", 2571, true, "FMT:26-20/e:zfmt TEST:18-16/e:cmp PITCH:9-0", 0, "pitch in units of 2 bytes"},
	{0x210C, "EGZWrMask", 2590, false, "MASK:15-0/x", 0, ""},
	{0x210E, "EGZdstInitValue", 2596, false, "VALUE:15-0/x", 0, "unexplained by the seed; stored, never read (P18)"},
	{0x2110, "EGZBAS", 2601, true, "BASE:22-1/a", 0, ""},
	{0x2114, "EGAlpha", 2607, true, "TEST:10-8/e:cmp REF:7-0", 0, "only REF[7:2] takes part in the test (L2628)"},
	{0x2120, "EGDst0Cfg", 2629, true, "ROP:27-24/e:rop FMT:22-16/e:cfmt PITCH:9-0", 0, ""},
	{0x2124, "EGD0CWrMask", 2743, true, "MASK:15-0/x", 0, ""},
	{0x2128, "EGDST0BAS", 2747, true, "BASE:22-1/a", 0, ""},
	{0x2138, "EGStippleCfg", 2751, false, "VDIR:15 STIPPLETX:8 AALINETX:4 AAPOINTTX:0", 0,
		"VDIR polarity follows the detail (L2753-2754): 1 gives Vdy = -1/32"},
	{0x213C, "EGFogCfg", 2767, true, "ZT:27 MODE:26-24/e:fogmd R:23-16 G:15-8 B:7-0", 0,
		"colour given as RGB888 (L2778); the 16-bit pixel path uses R[7:3] G[7:2] B[7:3] (summary L866)"},
	{0x2140, "EGFLEND", 2784, true, "END:17-0/f18", 0, "the seed gives 19 bits for an 18-bit s[7].10; D18 is ignored"},
	{0x2144, "EGFLINVD", 2787, true, "INVD:17-0/f18", 0, ""},
	{0x2148, "EGFDENST", 2790, true, "DENSITY:17-0/f18", 0, ""},

	// Stencil (L874-895, detail L2796-2864); conflicts resolved per the guide §7.
	{0x2150, "EGStCfg", 2796, true, "FMT:29-28/e:stfmt TEST:26-24/e:cmp REF:15-8 MASK:7-0", 0,
		"EGStMASK is here (L2818), not at 2154h (L880)"},
	{0x2154, "EGStOps", 2819, true, "WRMASK:31-24/x FAIL:22-20/e:sop ZFAIL:18-16/e:sop ZPASS:14-12/e:sop PITCH:9-0", 0,
		"write mask D[31:24] (L881); DECRSAT stops at Stmin (L265), the detail's StMax is a typo"},
	{0x2158, "EGStBAS", 2862, true, "BASE:22-1/a", 0, "D[22:1], not D[22:0]"},

	// Miscellaneous (detail L2865-3057).
	{0x215C, "EGBlend", 2865, true, "SEP:30 AEQ:29-27/e:beq CEQ:26-24/e:beq DSTALPHA:20-12 SRC:8-4/e:bsrc DST:3-0/e:bdst", 0,
		"the second \"000: Reserved\" (L2875) means 100; DSTALPHA is the destination alpha of formats without alpha, 256 = 1.0"},
	{0x2160, "EGBLCst", 2959, true, "COLOR:31-0/c", 0, ""},
	{0x2164, "EGCLTB", 2969, true, "TOP:25-16/s BOT:9-0/s", 0, "scissor rows, inclusive"},
	{0x2168, "EGCLLR", 2975, true, "LEFT:25-16/s RIGHT:9-0/s", 0, "scissor columns, inclusive"},
	{0x216C, "EGABlend", 2983, true, "SRC:8-4/e:bsrc DST:3-0/e:bdst", 0, ""},
	{0x2170, "EGSRegA", 3045, true, "VALUE:31-0/x", 0, "software register (fences)"},
	{0x2174, "EGSRegB", 3046, true, "VALUE:31-0/x", 0, ""},
	{0x2178, "EGSRegC", 3047, true, "VALUE:31-0/x", 0, ""},
	{0x217C, "EGSRegD", 3048, true, "VALUE:31-0/x", 0, ""},
	{0x2198, "EGArbThr", 3055, true, "STRRQ:30-28 STWRQ:26-24 VQRQ:22-20 TXRQ:18-16 CRRQ:14-12 CWRQ:10-8 ZRRQ:6-4 ZWRQ:2-0", 0,
		"memory arbiter thresholds: no effect on pixels"},

	// Texture blending (L1137-1217, detail L3669-4537).
	{0x2330, "EGTXBLDFact0", 3669, true, "FACT:31-0/k", 0, "alpha is D[31:24] (L3671), not D[30:24] (L1137)"},
	{0x2334, "EGTXBLDFact1", 3683, true, "FACT:31-0/k", 0, "read by select 10011 (P7)"},

	// End of list (L1222-1225, detail L4549-4553).
	{0x23E0, "EGEND", 4549, false, "MODE:1-0/e:end", EffEnd, ""},
	{0x23E4, "EGPASEND", 4553, false, "DATA:15-0/x", EffParserEnd, "at 23E4h per the detail; 23E2h (L1224) is treated as reserved"},

	// Front end (L1244-1380).
	{0x2600, "RGXFront", 1244, true, "SPECDEF:31-28/x DIFFDEF:27-24/x POSDEF:23-20/x TEXBDEF:19-16/x NORMDEF:15 TWOSIDEFILL:14 " +
		"SCRCOOR:13 TWOSIDE:12 PTSIZESEL:11 DISCULL:10 DISREJECT:9 DISZEROTEST:8 TEXADEF:7-4/x TEXGEN:3 TEXXFORM:2 XFORMPROJ:1 VTXCACHE:0", 0,
		"use-default nibbles: SPECDEF D31 fog, D30 SR, D29 SG, D28 SB; DIFFDEF D27 A..D24 B; POSDEF D23 W..D20 X; TEX*DEF Q,W,V,U from the top"},
	{0x2604, "RGXLight", 1264, true, "DX7:26 LIGHTING:25 L7:22 L6:21 L5:20 L4:19 L3:18 L2:17 L1:16 L0:15 GLLIGHT:14 NORMAL:13 " +
		"NEGCW:12 NEGNORMAL:11 SINGLECOLOR:10 SPECLIGHT:9 VFOG:8 SCALENORMAL:6 PTSCALE:5 GLPTSCALE:4 TURBOD:3 TURBOR:2 TURBOS:1 TURBOT:0", 0,
		"turbo specular bits are speed hints"},
	{0x2608, "RGXClip", 1296, true, "DISCLIP:31-26/x TWOSIDECULL:5 USEDEFSEL:4 USERCLIP:3 PARSERDROP:2 TNLDROP:1 SETUPDROP:0", 0,
		"DISCLIP bits: D31 top, D30 bottom, D29 right, D28 left, D27 far, D26 near; reserved is D[25:6] (L1297)"},
	{0x260C, "RGPSetup", 1307, true, "WNORM:31 COPYZW:30 LLPIXEL:28 DIVSEL:27 ZSCALE:26 SFMODE:25 STRFRAME:24 STRZ0NOSHFT:23 " +
		"XYZEROCNT:22 ONETJUMP:20 POLYOFFSET:19 CULLDIR:16 CULL:15 PTSPRITE:14 SHADE:13-11/e:shade ZCLAMP:10 ZCLAMPSIGN:9", 0, ""},
	{0x2610, "RGPTexCfg", 1332, true, "TEXBSET:27-26/e:tcset TEXASET:25-24/e:tcset TEXBGEN:19-18/e:texgen TEXAGEN:17-16/e:texgen " +
		"DUPL:14 TEXBGENEN:13 TEXAGENEN:12 TEXBMAT:11 TEXAMAT:10 TEXBXFORM:9 TEXAXFORM:8 TEXBPROJ:5 TEXAPROJ:4", 0, ""},
	{0x2614, "RGPTexWrap", 1351, true, "TEXBNOPP:17 TEXANOPP:16 TEXBWRAP:7-4/x TEXAWRAP:3-0/x", 0, "clip-time wrap correction: no effect"},
	{0x2618, "RGPStrScale", 1352, true, "SCALE:23-0/f24", 0, "stereo"},
	{0x261C, "RGPStrOffset", 1353, true, "MAXS:27-24 OFFSET:13-0/sq4", 0, "stereo"},
	{0x2620, "RGXSlopeCoeff", 1357, true, "SLOPE:23-0/f24", 0, ""},
	{0x2624, "RGXResCoeff", 1358, true, "RES:23-0/f24", 0, ""},
	{0x2628, "RGPZClamp", 1359, true, "CLAMP:23-0/f24", 0, ""},
	{0x2630, "RGXPtScaleA", 1364, true, "A:23-0/f24", 0, ""},
	{0x2634, "RGXPtScaleB", 1365, true, "B:23-0/f24", 0, ""},
	{0x2638, "RGXPtScaleC", 1366, true, "C:23-0/f24", 0, ""},
	{0x263C, "RGXVPHeight", 1367, true, "H:23-0/f24", 0, "D3D point scaling only"},
	{0x2640, "RGXPtSizeMin", 1368, true, "MIN:23-0/f24", 0, ""},
	{0x2644, "RGXPtSizeMax", 1369, true, "MAX:23-0/f24", 0, ""},
	{0x2648, "RGXPtThreshold", 1370, true, "T:23-0/f24", 0, "GL fade threshold"},
	{0x264C, "RGXPtAlphaClamp", 1371, true, "A:23-0/f24", 0, ""},
	{0x2650, "RGXPtSize", 1372, true, "SIZE:23-0/f24", 0, "global point size"},
	{0x2654, "RGPPtClipTB", 1373, true, "BOT:26-16/s TOP:10-0/s", 0, ""},
	{0x2658, "RGPPtClipLR", 1376, true, "RIGHT:26-16/s LEFT:10-0/s", 0, ""},
	{0x265C, "RGPLine", 1377, true, "CLRLINECNT:31 STIPPLETX:24 AALINETX:20 AAPOINTTX:16 WIDTH:12-0/q4", 0, ""},
	{0x2660, "RGPLnRepeat", 1378, true, "R:23-0/f24", 0, "1/(16 x repeat)"},
	{0x2664, "RGPdvRWfar", 1379, true, "F:23-0/f24", 0, "Z/W range scaling: not modelled"},
	{0x2668, "RGRCpHalf", 1380, true, "R:23-0/f24", 0, "1/half line width (AA lines)"},
	{0x2678, "RGXScaleX", 1386, true, "S:23-0/f24", 0, ""},
	{0x267C, "RGXOffsetX", 1387, true, "O:23-0/f24", 0, ""},
	{0x2680, "RGXScaleY", 1388, true, "S:23-0/f24", 0, ""},
	{0x2684, "RGXOffsetY", 1389, true, "O:23-0/f24", 0, ""},
	{0x2688, "RGXScaleZ", 1390, true, "S:23-0/f24", 0, ""},
	{0x268C, "RGXOffsetZ", 1391, true, "O:23-0/f24", 0, ""},
	{0x2734, "RGXNormalFactor", 1432, true, "F:23-0/f24", 0, ""},
	{0x2738, "RGPUClipVa", 1433, true, "V:23-0/f24", 0, "clip-space plane P = Va X + Vb Y + Vc Z + Vd W >= 0 (P16)"},
	{0x273C, "RGPUClipVb", 1434, true, "V:23-0/f24", 0, ""},
	{0x2740, "RGPUClipVc", 1435, true, "V:23-0/f24", 0, ""},
	{0x2744, "RGPUClipVd", 1436, true, "V:23-0/f24", 0, ""},

	// Lighting set-up (L1480-1555).
	{0x2B00, "RGXMatCfg", 1480, true, "DIFFSRC:31-30/e:matsrc SPECSRC:29-28/e:matsrc EMISSRC:27-26/e:matsrc AMBSRC:25-24/e:matsrc " +
		"FOGSRC:23-22/e:matsrc ALPHASRC:21-20/e:matsrc FOGMODE:19-18/e:vfog SPECPRESENT:15 DIFFPRESENT:14 NORMALIZE:13 LOCALVIEWER:12 " +
		"CWMPZERO:9 CCWMPZERO:8", 0, ""},
	{0x2B04, "RGXLightType", 1496, true, "L0:31-30/e:ltype L1:29-28/e:ltype L2:27-26/e:ltype L3:25-24/e:ltype L4:23-22/e:ltype " +
		"L5:21-20/e:ltype L6:19-18/e:ltype L7:17-16/e:ltype CCWDIFFSRC:9-8/e:matsrc CCWSPECSRC:7-6/e:matsrc CCWEMISSRC:5-4/e:matsrc " +
		"CCWAMBSRC:3-2/e:matsrc CCWALPHASRC:1-0/e:matsrc", 0, ""},
	{0x2B08, "RGSCWSDTh", 1512, true, "T:23-0/f24", 0, "turbo specular threshold: speed hint"},
	{0x2B0C, "RGSCCWSDTh", 1513, true, "T:23-0/f24", 0, ""},
	{0x2B50, "RGXCWMP", 1531, true, "P:23-0/f24", 0, "specular exponent"},
	{0x2B54, "RGXFogEnd", 1532, true, "END:23-0/f24", 0, ""},
	{0x2B58, "RGXFogRatio", 1533, true, "R:23-0/f24", 0, "1/(end - start)"},
	{0x2B5C, "RGXFogDensity", 1534, true, "D:23-0/f24", 0, "-density log2(e) (EXP) or -density^2 log2(e) (EXP2)"},
	{0x2BA0, "RGXCCWMP", 1552, true, "P:23-0/f24", 0, ""},
	{0x2BA4, "RGXLaR", 1553, true, "R:23-0/f24", 0, "global ambient"},
	{0x2BA8, "RGXLaG", 1554, true, "G:23-0/f24", 0, ""},
	{0x2BAC, "RGXLaB", 1555, true, "B:23-0/f24", 0, ""},
}

// LightRegs names the 24 registers of one light block, in order
// (2C00h + 60h n, L1557-1603).
var LightRegs = []string{"LpX", "LpY", "LpZ", "LdX", "LdY", "LdZ", "LaR", "LaG", "LaB", "LsR", "LsG", "LsB",
	"LcR", "LcG", "LcB", "Lr", "Att0", "Att1", "Att2", "FallOff", "Theta", "Phi", "ThetaSubPhi", "LrSqrt"}

// LightBase returns the address of light n's block.
func LightBase(n int) uint16 { return 0x2C00 + 0x60*uint16(n) }

// Matrix bases (s[7].16 each, row-major rc order).
const (
	T1Base     = 0x26A0 // 4x4, L1393-1409
	MwvBase    = 0x26E0 // 4x3, L1410-1422
	InvMwvBase = 0x2710 // 3x3, L1423-1431
	Tex0Mat    = 0x2A00 // 4x4, L1443-1460
	Tex1Mat    = 0x2A50 // 4x4, L1462-1478
)

// Material register bases (float32 each): CW at 2B10h, CCW at 2B60h
// (L1514-1552). Offsets: diffuse R,G,B,A at +00h; ambient R,G,B at +10h;
// specular R,G,B,A at +20h; emissive R,G,B at +30h.
const (
	MatCW  = 0x2B10
	MatCCW = 0x2B60
)

// Palette bases: 256 16-bit entries each (L1229-1240, L595-605).
const (
	Palette0 = 0x2400
	Palette1 = 0x1C00
)

// TexUnitBase returns the base of texture unit u's registers (21A0h, 2200h).
func TexUnitBase(u int) uint16 { return 0x21A0 + 0x60*uint16(u) }

func build() {
	for _, r := range rows {
		add(&Register{Addr: r.addr, Name: r.name, Line: r.line, Wide: r.wide,
			Fields: parseFields(r.name, r.flds), Effect: r.eff, Note: r.note})
	}
	f32 := func(name string) []Field { return parseFields(name, "V:31-0/f32") }
	f24 := func(name string) []Field { return parseFields(name, "V:23-0/f24") }
	// Streams (L641-713).
	for n := 0; n < 8; n++ {
		a := 0x1F10 + 8*uint16(n)
		add(&Register{Addr: a, Name: fmt.Sprintf("MGVStrm%dCtl", n), Wide: true, Line: []int{641, 651, 660, 669, 678, 687, 696, 706}[n],
			Fields: parseFields("strm", "STRIDE:23-16 DIM:9-8/e:dim TYPE:6-4/e:dtype ARRAY:3-0/e:atype")})
		add(&Register{Addr: a + 4, Name: fmt.Sprintf("MGVStrm%dBAS", n), Wide: true, Line: []int{649, 658, 667, 676, 685, 694, 704, 713}[n],
			Fields: parseFields("strm", "BASE:22-0/x")})
	}
	// Texture units (L970-1134, detail L3071-3668).
	for u := 0; u < 2; u++ {
		b := TexUnitBase(u)
		// Summary lines: cfg, filter, size, TRSH, TRSL, border, level-0 base, pitch 0.
		ln := [][]int{{970, 979, 985, 992, 1000, 1008, 1017, 1029}, {1038, 1039, 1046, 1054, 1062, 1070, 1078, 1112}}[u]
		baseStep, pitchStep := []int{1, 3}[u], []int{1, 4}[u]
		cfg := "FMT:31-24/e:txfmt VMAP:21-19/e:wrap UMAP:18-16/e:wrap SWIZ:15 LV:11-8"
		size := "W:20-12 H:8-0"
		if u == 0 {
			cfg += " STAGES:1-0/e:stages"
			size = "TRSMOD:31-30/e:trsmod TRSRATIO:28-24 " + size
		}
		p := fmt.Sprintf("EGTX%d", u)
		add(&Register{Addr: b, Name: p + "Cfg", Wide: true, Line: ln[0], Fields: parseFields(p, cfg),
			Note: "swizzled layout (SWIZ) is never described: the simulator faults on it"})
		add(&Register{Addr: b + 4, Name: p + "Filter", Wide: true, Line: ln[1],
			Fields: parseFields(p, "MAG:19-18/e:mag MIN:17-15/e:min LODBIAS:14-5/sq5")})
		add(&Register{Addr: b + 8, Name: p + "Size", Wide: true, Line: ln[2], Fields: parseFields(p, size)})
		add(&Register{Addr: b + 0xC, Name: p + "TRSH", Wide: true, Line: ln[3], Fields: parseFields(p, "COLOR:31-0/c")})
		add(&Register{Addr: b + 0x10, Name: p + "TRSL", Wide: true, Line: ln[4], Fields: parseFields(p, "COLOR:31-0/c")})
		add(&Register{Addr: b + 0x14, Name: p + "Border", Wide: true, Line: ln[5], Fields: parseFields(p, "COLOR:31-0/c")})
		for i := 0; i < 9; i++ {
			add(&Register{Addr: b + 0x18 + 4*uint16(i), Name: fmt.Sprintf("%sL%dBAS", p, i), Wide: true, Line: ln[6] + baseStep*i,
				Fields: parseFields(p, "BASE:22-1/a")})
		}
		for k := 0; k < 5; k++ {
			spec := fmt.Sprintf("L%d:27-16/p L%d:11-0/p", 2*k+1, 2*k)
			if k == 4 {
				spec = "L8:11-0/p"
			}
			add(&Register{Addr: b + 0x48 + 4*uint16(k), Name: fmt.Sprintf("%sPitch%d", p, k), Wide: true, Line: ln[7] + pitchStep*k,
				Fields: parseFields(p, spec)})
		}
	}
	// Texture-blend stages (L1152-1217).
	for unit, pfx := range []string{"C", "A"} {
		arg := []string{"carg", "aarg"}[unit]
		for s := 0; s < 2; s++ {
			a := uint16(0x2350 + 0x40*unit + 8*s)
			line := [][]int{{1152, 1168}, {1186, 1202}}[unit][s]
			add(&Register{Addr: a, Name: fmt.Sprintf("EGTX%sBS%dMod", pfx, s), Wide: true, Line: line,
				Fields: parseFields("mod", "ARG1MOD:31-28/e:imod ARG2MOD:27-24/e:imod ARG3MOD:23-20/e:imod ARG4MOD:19-16/e:imod "+
					"C0WMSK:15-13/e:c0wmsk C0OMOD:12-8/e:omod C1WMSK:7-5/e:c1wmsk C1OMOD:4-0/e:omod"),
				Note: "C1WMSK is D[7:5] (the seed's \"D[7:15]\", L1158)"})
			add(&Register{Addr: a + 4, Name: fmt.Sprintf("EGTX%sBS%dArg", pfx, s), Wide: true, Line: line + []int{8, 9}[s*(1-unit)],
				Fields: parseFields("arg", fmt.Sprintf("ARG1:30-25/e:%[1]s OPC:24-22/e:opc ARG2:21-16/e:%[1]s OPB:15-14/e:opab "+
					"ARG3:13-8/e:%[1]s OPA:7-6/e:opab ARG4:5-0/e:%[1]s", arg))})
		}
	}
	// Palettes (L595-605, L1229-1240).
	for k := 0; k < 256; k++ {
		add(&Register{Addr: Palette1 + 2*uint16(k), Name: fmt.Sprintf("EGTX1Index%d", k), Line: 595,
			Fields: parseFields("pal", "ARGB:15-0/x"), Effect: EffPalette1,
			Note: "Tex1 palette RAM overlaps the RGX/EGS ports; CPU writes go to the palette (P1)"})
		add(&Register{Addr: Palette0 + 2*uint16(k), Name: fmt.Sprintf("EGTX0Index%d", k), Line: 1229,
			Fields: parseFields("pal", "ARGB:15-0/x"), Effect: EffPalette0})
	}
	// Matrices.
	mat := func(base uint16, name string, rowsN, cols, line int) {
		for r := 0; r < rowsN; r++ {
			for c := 0; c < cols; c++ {
				i := r*cols + c
				add(&Register{Addr: base + 4*uint16(i), Name: fmt.Sprintf("%s%d%d", name, r, c), Wide: true,
					Line: line + i, Fields: f24(name)})
			}
		}
	}
	mat(T1Base, "RGXT1MAT", 4, 4, 1393)
	mat(MwvBase, "RGXMwv", 4, 3, 1410)
	mat(InvMwvBase, "RGXInvMwv", 3, 3, 1423)
	mat(Tex0Mat, "RGXTX0MAT", 4, 4, 1443)
	mat(Tex1Mat, "RGXTX1MAT", 4, 4, 1462)
	// Materials (L1514-1551): float32 converted to 6 bits by the hardware.
	for side, base := range []uint16{MatCW, MatCCW} {
		pfx := []string{"RGXCW", "RGXCCW"}[side]
		line := []int{1514, 1535}[side]
		for g, grp := range []string{"Md", "Ma", "Ms", "Me"} {
			comps := []string{"R", "G", "B", "A"}
			if grp == "Ma" || grp == "Me" {
				comps = comps[:3] // the A word is "Reserved for" (L1522, L1530)
			}
			for c, comp := range comps {
				add(&Register{Addr: base + 0x10*uint16(g) + 4*uint16(c), Name: pfx + grp + comp, Wide: true,
					Line: line + 4*g + c, Fields: f32("mat"), Note: "float32 reduced to 6 bits by the hardware"})
			}
		}
	}
	// Lights (L1557-1603).
	for n := 0; n < 8; n++ {
		for i, nm := range LightRegs {
			add(&Register{Addr: LightBase(n) + 4*uint16(i), Name: fmt.Sprintf("RGXL%d%s", n, nm), Wide: true,
				Line: 1557 + i, Fields: f24("light")})
		}
	}
	buildInternal()
	finish()
}

// buildInternal lists the G/L output ports (RGX*, L1679-1743) and the setup
// engine's edge-walk registers (EGS*, L1745-1945). They share 1C00h-1DFFh
// with the Tex1 palette and are not CPU-writable (P1).
func buildInternal() {
	for v, base := range []uint16{0x1C00, 0x1C30, 0x1C60} {
		vn := string(rune('a' + v))
		for i, f := range []string{"X", "Y", "Z", "W", "ARGB", "FSRGB", "UA", "VA", "UB", "VB", "PSIZE"} {
			if f == "PSIZE" && v != 0 {
				break
			}
			spec := f + ":31-0/f24"
			if f == "ARGB" {
				spec = "A:31-24 R:23-16 G:15-8 B:7-0"
			} else if f == "FSRGB" {
				spec = "F:31-24 SR:23-16 SG:15-8 SB:7-0"
			}
			internal = append(internal, &Register{Addr: base + 4*uint16(i), Name: "RGX" + f + vn, Wide: true,
				Line: 1679 + 15*v + i, Fields: parseFields("rgx", spec), Internal: true})
		}
	}
	egs := []struct {
		addr uint16
		name string
		spec string
	}{
		{0x1CA0, "EGSXst", "DRAWDIR:31 X:19-0/sq10"}, {0x1CA4, "EGSXstdy", "X:19-0/sq10"}, {0x1CA8, "EGSYst", "Y:9-0/s"},
		{0x1CAC, "EGSYcnt", "YBCNT:24-16 YTCNT:8-0"}, {0x1CB0, "EGSXend", "X:19-0/sq10"}, {0x1CB4, "EGSXendy", "X:19-0/sq10"},
		{0x1CB8, "EGSXbt", "X:19-0/sq10"}, {0x1CBC, "EGSXbtdy", "X:19-0/sq10"},
		{0x1CC0, "EGSZyst", "Z:23-0/f24"}, {0x1CC4, "EGSZdx", "Z:23-0/f24"}, {0x1CC8, "EGSZdy", "Z:23-0/f24"},
		{0x1CCC, "EGSAyst", "A:14-0/sq8"}, {0x1CD0, "EGSAdx", "A:14-0/sq8"}, {0x1CD4, "EGSAdy", "A:14-0/sq8"},
		{0x1CDC, "EGSRyst", "R:13-0/sq8"}, {0x1CE0, "EGSRdx", "R:13-0/sq8"}, {0x1CE4, "EGSRdy", "R:13-0/sq8"},
		{0x1CE8, "EGSGyst", "G:14-0/sq8"}, {0x1CEC, "EGSGdx", "G:14-0/sq8"}, {0x1CF0, "EGSGdy", "G:14-0/sq8"},
		{0x1CF4, "EGSByst", "B:13-0/sq8"}, {0x1CF8, "EGSBdx", "B:13-0/sq8"}, {0x1CFC, "EGSBdy", "B:13-0/sq8"},
		{0x1D00, "EGSFyst", "F:14-0/sq8"}, {0x1D04, "EGSFdx", "F:14-0/sq8"}, {0x1D08, "EGSFdy", "F:14-0/sq8"},
		{0x1D0C, "EGSSRyst", "R:13-0/sq8"}, {0x1D10, "EGSSRdx", "R:13-0/sq8"}, {0x1D14, "EGSSRdy", "R:13-0/sq8"},
		{0x1D18, "EGSSGyst", "G:14-0/sq8"}, {0x1D1C, "EGSSGdx", "G:14-0/sq8"}, {0x1D20, "EGSSGdy", "G:14-0/sq8"},
		{0x1D24, "EGSSByst", "B:13-0/sq8"}, {0x1D28, "EGSSBdx", "B:13-0/sq8"}, {0x1D2C, "EGSSBdy", "B:13-0/sq8"},
		{0x1D30, "EGSWyst", "W:23-0/f24"}, {0x1D34, "EGSWdx", "W:23-0/f24"}, {0x1D38, "EGSWdy", "W:23-0/f24"},
		{0x1D3C, "EGSU0yst", "U:23-0/f24"}, {0x1D40, "EGSU0dx", "U:23-0/f24"}, {0x1D44, "EGSU0dy", "U:23-0/f24"},
		{0x1D48, "EGSV0yst", "V:23-0/f24"}, {0x1D4C, "EGSV0dx", "V:23-0/f24"}, {0x1D50, "EGSV0dy", "V:23-0/f24"},
		{0x1D54, "EGSU1yst", "U:23-0/f24"}, {0x1D58, "EGSU1dx", "U:23-0/f24"}, {0x1D5C, "EGSU1dy", "U:23-0/f24"},
		{0x1D60, "EGSV1yst", "V:23-0/f24"}, {0x1D64, "EGSV1dx", "V:23-0/f24"}, {0x1D68, "EGSV1dy", "V:23-0/f24"},
		{0x1D6C, "EGSShft", "YSHFT:29-16/sq4 XSHFT:13-0/sq4"}, {0x1D70, "EGSLlimit", "LEFT:25-16/s RIGHT:9-0/s"},
	}
	for i, e := range egs {
		internal = append(internal, &Register{Addr: e.addr, Name: e.name, Wide: true, Line: 1745 + 4*i,
			Fields: parseFields(e.name, e.spec), Internal: true})
	}
}
