package unichrome

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/retrogl/retrogl/hal"
)

// MMIOName names an MMIO offset a header 1 writes.
func MMIOName(off uint32) string {
	switch {
	case off == RegFire:
		return "HE3Fire"
	case off == RegTransSet:
		return "TRANSSET"
	case off >= RegPara0 && off <= RegParaLast:
		return fmt.Sprintf("Hpara%X", (off-RegPara0)/4)
	}
	return fmt.Sprintf("MMIO_%03X", off)
}

// Describe returns the text of one token (without address and word).
func Describe(t Token) string {
	switch t.Kind {
	case TokHeader1:
		return "HEADER1 -> " + MMIOName(t.Off)
	case TokHeader2:
		return "HEADER2"
	case TokTransSet:
		ty, sub, os, adr := SplitTransSet(t.Word)
		return fmt.Sprintf("TRANSSET type=%02X(%s) sub=%02X os=%d adr=%d", uint8(ty), t.Space, sub, os, adr)
	case TokFire:
		return "HE3FIRE"
	case TokMMIO:
		return fmt.Sprintf("%s = %#x", MMIOName(t.Off), t.Data)
	case TokParam:
		return Table[t.Space][t.SubAddr].Text(t.Data)
	case TokPalette:
		switch t.SubType {
		case SubTexPalette:
			return fmt.Sprintf("TEXPAL[%d] argb=%#08x", t.Index, t.Data)
		case SubFogPalette:
			return fmt.Sprintf("FOGPAL[%d..%d] %d,%d,%d,%d", 4*t.Index, 4*t.Index+3,
				t.Data&0xFF, t.Data>>8&0xFF, t.Data>>16&0xFF, t.Data>>24)
		}
		return fmt.Sprintf("STIPPLE[%d] %#08x", t.Index, t.Data)
	case TokCmdA:
		s := CmdA.Text(t.Word)
		switch {
		case t.ListStart && t.ListEnd:
			s += " (empty list)"
		case t.ListEnd:
			s += " (list end)"
		case t.ListStart:
			s += " (list start)"
		}
		return s
	case TokCmdB:
		return CmdB.Text(t.Word)
	case TokVertex:
		v := fmt.Sprintf("V%d.%s ", t.Index, t.Comp)
		switch t.Comp {
		case CompCd:
			return v + fmt.Sprintf("argb=%#08x", t.Data)
		case CompCs:
			return v + fmt.Sprintf("fog=%d rgb=%#06x", t.Data>>24, t.Data&0xFFFFFF)
		}
		return v + fmt.Sprintf("%g", math.Float32frombits(t.Data))
	case TokRepeat:
		return "HCmdA (repeated list end)"
	case TokPad:
		return "PAD"
	case TokError:
		return "?? " + t.Reason
	}
	return "?"
}

// Disassemble decodes a byte buffer of little-endian dwords starting at
// device address base with a fresh walker: one line per dword,
// "address  word  text".
func Disassemble(buf []byte, base uint32) []string {
	w := NewWalker()
	out := make([]string, 0, len(buf)/4+1)
	for i := 0; i+4 <= len(buf); i += 4 {
		x := binary.LittleEndian.Uint32(buf[i:])
		out = append(out, fmt.Sprintf("%#08x  %08x  %s", base+uint32(i), x, Describe(w.Next(x))))
	}
	if len(buf)%4 != 0 {
		out = append(out, fmt.Sprintf("%#08x  (%d trailing bytes)", base+uint32(len(buf)&^3), len(buf)%4))
	} else if t, ok := w.End(); !ok {
		out = append(out, fmt.Sprintf("%#08x  (end)  ?? %s", base+uint32(len(buf)), t.Reason))
	}
	return out
}

func init() {
	hal.RegisterDecoder("unichrome", Disassemble)
}
