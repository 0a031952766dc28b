// Package unichrome is the VIA UniChrome Pro II (CX700/VX700) 3D engine's
// command interface as data: the MMIO window, the HParaType/HParaSubType
// transmission setting, every register of the seed's 3D chapter
// (shared/seeds/003_a9cb8a2a7d7ac9c3.txt, "3D ENGINE REGISTERS", L1962 on)
// with its sub-address, fields and enumerations, Command A and B, the
// vertex layout, the command-buffer headers, a stream walker that reads a
// buffer the way the command regulator (CR) does, and a decoder that prints
// one line per dword. The driver (driver/unichrome) and the simulator
// (sim/unichrome) meet here and nowhere else.
//
// Where the seed is damaged or silent the table follows outside facts from
// the guide (shared/notes/unichrome.md, tagged [OUT]: Mesa's
// drivers/dri/unichrome via_3d_reg.h, the Linux DRM via_verifier.c,
// openchrome's via_3d.c); each such register or field says so in its note.
// The reconstructions, each recorded next to its row:
//   - Command A (L2302->L2304 lost every bit above 7): header 31:25 =
//     1110111, HE3Fire 20, HPMType 19:16, HEFlag 15:13, HShading 12:10,
//     HPMValidN 9, HPLEND 8 [OUT via_3d_reg.h].
//   - The enable register is at sub-address 00h as every implementation has
//     it; the seed's 01h (L2340) is accepted as an alias.
//   - Destination 42h bits 15:0 (location and pitch), 43h (RGB plane mask)
//     and 44h (ROP2 and alpha plane mask) are absent from the seed [OUT].
//   - Texture levels A and B low base addresses at 0Ah/0Bh (the seed lists
//     only 00h-09h low parts but 23h has the A and B high bytes) [OUT].
//   - The general texture setting 02h/FEh sub-address 00h (HTXSMD, HTXNum in
//     bits 5:3) [OUT]; the seed has lost its header (L2896).
//   - Command-buffer header 1 and 2 encodings and the pad dwords [OUT DRM].
package unichrome

import "fmt"

// MMIO offsets of the 3D engine (seed L1966-1995). The engine's window
// starts at MMIOBase; header 1 addresses MMIO offsets directly.
const (
	MMIOBase     = 0x400 // "The I/O Register Base Address ... is 400h" (L1968)
	RegFire      = 0x400 // HE3Fire: any write fires the engine (L1972)
	RegTransSet  = 0x43C // HParaAdr/HParaOS/HParaType/HParaSubType as one dword
	RegPara0     = 0x440 // Hpara0, the first dword of the transmission space
	RegParaLast  = 0x6FC // HparaAF = parameter 175 (L1995)
	NumParams    = 176   // dwords in the transmission space
	MMIOWindow   = 0x800 // header 1 reaches MMIO offsets 0..0x7FC
	ReadEngSt    = 0x00  // HREngSt, relative to MMIOBase (read mode)
	ReadErr      = 0x0C  // HRErr
	ReadEnable   = 0x70  // mirror of the enable register
	ReadCmdA     = 0x74  // current Command A
	ReadCmdB     = 0x78  // current Command B
	ReadFlagNum  = 0x98  // HRCRFlagNum
	ReadPType10  = 0xA0  // first shadow of ParaType 10h
	ReadPTypeFE  = 0xC0  // first shadow of ParaType FEh
	ReadRegsSize = 0xF0
)

// Engine status bits of HREngSt (L2003-2010).
const (
	EngSt3DBusy     = 1 << 0
	EngSt2DBusy     = 1 << 1
	EngStCmdQEmpty  = 1 << 17
	EngStRCBusy     = 1 << 18
	EngStIdleResult = EngStCmdQEmpty // what an idle engine reads
)

// Error flags of HRErr (L2014-2022). Bits 29 and 28 share the seed's typo
// mnemonic HRAGPDOErr.
const (
	ErrIllegalCommand  = 1 << 31 // HRAGPCMErr
	ErrUnexpectedHdr   = 1 << 30 // HRAGPNHErr
	ErrH3CountExceeded = 1 << 29 // HRAGPDOErr (header 3 count reached 0)
	ErrH1Overflow      = 1 << 28 // HRAGPDOErr (header 1 followed by >1 dword)
)

// ParaType is an HParaType value (L1978-1984).
type ParaType uint8

// The parameter types. PreCR (10h) and Auto (FEh) are not in the write
// table but the read-back registers at A0h-ECh prove them ([OUT] names).
const (
	TypeCmd     ParaType = 0x00 // command and primitive vertex data
	TypeAttr    ParaType = 0x01 // attributes other than texture
	TypeTex     ParaType = 0x02 // texture n (SubType 00h/01h) or general (FEh)
	TypePalette ParaType = 0x03 // palettes (SubType 00h, 10h fog, 14h stipple)
	TypePreCR   ParaType = 0x10 // [OUT] HC_ParaType_PreCR
	TypeAuto    ParaType = 0xFE // [OUT] HC_ParaType_Auto
)

// Texture sub-types and palette sub-types.
const (
	SubTex0       = 0x00
	SubTex1       = 0x01
	SubTexGeneral = 0xFE
	SubTexPalette = 0x00
	SubFogPalette = 0x10
	// SubStipple is the stipple palette: 14h in the type table (L1983) and
	// in [OUT] Mesa; the section heading (L2934) says 11h, which the
	// simulator accepts as an alias.
	SubStipple      = 0x14
	SubStippleAlias = 0x11
)

// Palette sizes in dwords. The seed gives none: the texture palette has 256
// ARGB8888 entries (an 8-bit index, [OUT] Index8), the fog table 256
// factors, four per dword, and the stipple 32 rows of 32 bits ([OUT] DRM).
const (
	TexPaletteDwords = 256
	FogPaletteDwords = 64
	StippleDwords    = 32
)

// TransSet packs the transmission setting dword written at 0x43C:
// SubType<<24 | Type<<16 | OS<<8 | Adr (guide §1.1, [OUT] Mesa masks).
func TransSet(t ParaType, sub, os, adr uint8) uint32 {
	return uint32(sub)<<24 | uint32(t)<<16 | uint32(os)<<8 | uint32(adr)
}

// SplitTransSet unpacks a transmission setting dword.
func SplitTransSet(w uint32) (t ParaType, sub, os, adr uint8) {
	return ParaType(w >> 16), uint8(w >> 24), uint8(w >> 8), uint8(w)
}

// Command-buffer headers and pads ([OUT] DRM via_verifier.c, guide §1.2).
const (
	// Header2 starts a parameter stream: the next dword is a transmission
	// setting, the dwords after it parameters until the next header.
	Header2 = 0xF210F110
	// Header1 | (mmio>>2) writes the single following dword to an MMIO
	// offset (0..0x7FC).
	Header1     = 0xF0000000
	Header1Mask = 0xFFFFFE00
	Header3     = 0xF4000000 // not simulated (the seed gives no layout)
	Header4     = 0xF6000000 // not simulated
	HeaderMask  = 0xFE000000
	// PadCC and PadDD are ignored wherever a parameter or header may
	// stand: their sub-addresses CCh/DDh are no registers.
	PadCC = 0xCCCCCCCC
	PadDD = 0xDDDDDDDD
)

// H1 returns a header-1 dword addressing MMIO offset off.
func H1(off uint32) uint32 { return Header1 | off>>2&0x1FF }

// Param builds a type 01h/02h/10h/FEh parameter dword: the sub-address in
// bits 31:24 and 24 bits of data ("Bit [31:24] Sub-Address", L2334).
func Param(sub uint8, data uint32) uint32 { return uint32(sub)<<24 | data&0xFFFFFF }

// Space is a register file reached through one transmission setting.
type Space uint8

// The register files.
const (
	SpaceCmd     Space = iota // Command A and B (type 00h)
	SpaceAttr                 // type 01h
	SpaceTex                  // type 02h, SubType 00h or 01h (one file per texture)
	SpaceTexGen               // type 02h, SubType FEh
	SpacePreCR                // type 10h
	SpaceAuto                 // type FEh
	SpacePalette              // type 03h (no sub-addresses)
	numSpaces
)

var spaceNames = [numSpaces]string{"CMD", "ATTR", "TEX", "TEXGEN", "PRECR", "AUTO", "PALETTE"}

// String returns the space's name.
func (s Space) String() string {
	if s < numSpaces {
		return spaceNames[s]
	}
	return fmt.Sprintf("Space(%d)", uint8(s))
}

// SpaceOf returns the register file a transmission setting selects, or
// false for a reserved or prohibited combination.
func SpaceOf(t ParaType, sub uint8) (Space, bool) {
	switch t {
	case TypeCmd:
		return SpaceCmd, true
	case TypeAttr:
		return SpaceAttr, true
	case TypeTex:
		switch sub {
		case SubTex0, SubTex1:
			return SpaceTex, true
		case SubTexGeneral:
			return SpaceTexGen, true
		}
		return 0, false // FFh prohibited, others reserved (L1981)
	case TypePalette:
		switch sub {
		case SubTexPalette, SubFogPalette, SubStipple, SubStippleAlias:
			return SpacePalette, true
		}
		return 0, false
	case TypePreCR:
		return SpacePreCR, true
	case TypeAuto:
		return SpaceAuto, true
	}
	return 0, false
}
