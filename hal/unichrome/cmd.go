package unichrome

import (
	"fmt"
	"strings"
)

// Command A and B header values (bits 31:25): 1110111 and 1110110
// (L2315; Command A's is [OUT]).
const (
	CmdAHeader = 0x77
	CmdBHeader = 0x76
	CmdABase   = 0xEE000000
	CmdBBase   = 0xEC000000
)

// Command A bits ([OUT] via_3d_reg.h; the seed keeps only HVCycle, L2304).
const (
	CmdAFire   = 1 << 20 // HE3Fire
	CmdAValidN = 1 << 9  // HPMValidN
	CmdAPLEnd  = 1 << 8  // HPLEND: list end
	// CmdAEnd is what the drivers append to the last Command A of a list.
	CmdAEnd = CmdAFire | CmdAValidN | CmdAPLEnd
)

// Prim is Command A's HPMType (bits 19:16).
type Prim uint8

// The primitive types. The rectangle list of L2307-2313 has no known code
// and is not simulated; TriWF ([OUT]) is accepted by the decoder only.
const (
	PrimPoint Prim = 0
	PrimLine  Prim = 1
	PrimTri   Prim = 2
	PrimTriWF Prim = 4
)

// Shade is Command A's HShading (bits 12:10).
type Shade uint8

// The shading modes: solid takes the colour of 7Ah/7Bh.
const (
	ShadeSolid   Shade = 0
	ShadeFlatA   Shade = 1
	ShadeFlatB   Shade = 2
	ShadeFlatC   Shade = 3
	ShadeGouraud Shade = 4
)

// Vertex cycle styles (HVCycle bits 7:6, L2304).
const (
	CycleFull = 0x00 // every primitive takes all-new vertices
	CycleAFP  = 0x40 // automatic fast primitive: full first, then one-vertex cycles
	CycleOne  = 0xC0 // every primitive is a one-vertex cycle
)

// Vertex replacement settings for one-vertex cycles (a = 5:4, b = 3:2,
// c = 1:0): 0 new input, 1/2/3 = the previous primitive's a/b/c.
const (
	VNew   = 0
	VPrevA = 1
	VPrevB = 2
	VPrevC = 3
)

// Cycle packs a one-vertex setting.
func Cycle(a, b, c uint32) uint32 { return a&3<<4 | b&3<<2 | c&3 }

// Recipes for GL strips and fans ([OUT] Mesa; guide §1.6): Command A's
// cycle and Command B's second (even) setting.
var (
	// TRI_STRIP: odd a = old c, b = old b, c = new; even a = old a,
	// b = old c, c = new. (v0,v1,v2) -> (v2,v1,v3) -> (v2,v3,v4).
	StripOdd  = CycleAFP | Cycle(VPrevC, VPrevB, VNew) // 0x78
	StripEven = Cycle(VPrevA, VPrevC, VNew)            // 0x1C
	// TRI_FAN: a = old a, b = old c, c = new, every cycle.
	FanOdd  = CycleAFP | Cycle(VPrevA, VPrevC, VNew) // 0x5C
	FanEven = Cycle(VPrevA, VPrevC, VNew)            // 0x1C
	// LINE_STRIP: a = old b, b = new.
	LineStripOdd  = CycleAFP | Cycle(VPrevB, VNew, 0) // 0x60
	LineStripEven = Cycle(VPrevB, VNew, 0)            // 0x20
)

// CmdAWord builds Command A.
func CmdAWord(p Prim, s Shade, cycle uint32) uint32 {
	return CmdABase | uint32(p)&15<<16 | uint32(s)&7<<10 | cycle&0xFF
}

// Vertex parameter mask bits of Command B (bits 14:7, L2320; guide fact 7).
const (
	MaskX  = 1 << 14
	MaskY  = 1 << 13
	MaskZ  = 1 << 12
	MaskW  = 1 << 11
	MaskCd = 1 << 10 // diffuse ARGB
	MaskCs = 1 << 9  // specular RGB + fog factor in 31:24
	MaskS  = 1 << 8
	MaskT  = 1 << 7
	// MaskXYZW is the set of which at least one must be present for AGP
	// (L2329; [OUT] the DRM rejects a mask without them).
	MaskXYZW = MaskX | MaskY | MaskZ | MaskW
)

// Command B flags.
const (
	CmdBLinePatReset = 1 << 16 // HLPrst
	CmdBLastPixel    = 1 << 15 // HLLastP
	CmdBCCWBack      = 1 << 6  // HBFace: counter-clockwise input is the back face
)

// CmdBWord builds Command B from the vertex mask, flags and the even
// one-vertex setting.
func CmdBWord(mask, flags, second uint32) uint32 {
	return CmdBBase | mask&0x7F80 | flags&(CmdBLinePatReset|CmdBLastPixel|CmdBCCWBack) | second&0x3F
}

// Comp is a vertex component, in stream order (L2327).
type Comp uint8

// The vertex components: at most 10 dwords per vertex.
const (
	CompX Comp = iota
	CompY
	CompZ
	CompW
	CompCd
	CompCs
	CompS0
	CompT0
	CompS1
	CompT1
	NumComps
)

var compNames = [NumComps]string{"X", "Y", "Z", "W", "Cd", "Cs", "S0", "T0", "S1", "T1"}

// String returns the component name.
func (c Comp) String() string {
	if c < NumComps {
		return compNames[c]
	}
	return fmt.Sprintf("Comp(%d)", uint8(c))
}

// Layout returns the components a vertex carries for a Command B mask and
// texture count (HTXNum + 1): the S and T bits stand for S0/S1 and T0/T1
// when two textures are on ([OUT] Mesa; guide §1.6).
func Layout(cmdB uint32, textures int) []Comp {
	var out []Comp
	bits := []struct {
		m uint32
		c Comp
	}{{MaskX, CompX}, {MaskY, CompY}, {MaskZ, CompZ}, {MaskW, CompW}, {MaskCd, CompCd}, {MaskCs, CompCs}}
	for _, b := range bits {
		if cmdB&b.m != 0 {
			out = append(out, b.c)
		}
	}
	for t := 0; t < max(1, min(textures, 2)); t++ {
		if cmdB&MaskS != 0 {
			out = append(out, CompS0+Comp(2*t))
		}
		if cmdB&MaskT != 0 {
			out = append(out, CompT0+Comp(2*t))
		}
	}
	return out
}

// MaskText prints a vertex mask ("X|Y|Z|Cd").
func MaskText(cmdB uint32) string {
	var parts []string
	for i, n := range []string{"X", "Y", "Z", "W", "Cd", "Cs", "S", "T"} {
		if cmdB&(1<<(14-i)) != 0 {
			parts = append(parts, n)
		}
	}
	if len(parts) == 0 {
		return "NONE"
	}
	return strings.Join(parts, "|")
}

// CycleText prints an HVCycle (or H2nd1VT) setting.
func CycleText(v uint32) string {
	style := v >> 6 & 3
	name := [4]string{"FULL", "AFP", "RSV", "ONE"}[style]
	if style == 0 && v&0x3F == 0 {
		return "FULL"
	}
	src := [4]string{"NEW", "PREV_A", "PREV_B", "PREV_C"}
	return fmt.Sprintf("%s(a=%s,b=%s,c=%s)", name, src[v>>4&3], src[v>>2&3], src[v&3])
}
