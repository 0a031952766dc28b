package pica

import (
	"testing"
)

// FuzzDecode: any byte stream decodes to lines without panicking.
func FuzzDecode(f *testing.F) {
	var w Writer
	w.Seq(DEPTHBUFFER_LOC, 1, 2, 3)
	w.WriteMasked(DEPTH_COLOR_MASK, 1, 0xFFFFFFFF)
	w.Rep(VSH_CODETRANSFER_DATA0, 1, 2)
	w.Finalize()
	f.Add(w.Bytes())
	f.Add([]byte{0, 0, 0, 0, 0x1C, 0x01, 0x2F, 0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		lines := Decode(b, 0x20000000)
		if len(b) >= 8 && len(lines) == 0 {
			t.Fatalf("no lines for %d bytes", len(b))
		}
	})
}

// FuzzParseSHBIN: the loader rejects bad binaries with errors, never
// panics, and what it accepts serialises and parses back the same.
func FuzzParseSHBIN(f *testing.F) {
	sb := &ShaderBinary{Code: []uint32{0x4C000000, 0x88000000}, Opdescs: []uint32{uint32(DescIdentity)},
		Executables: []Executable{{Main: 0, EndMain: 2, Outputs: []ShaderOutput{{Type: 0, Reg: 0, Mask: 0xF}},
			Consts:   []ShaderConst{{Type: 2, ID: 5, Data: [4]uint32{0x3F0000}}},
			Uniforms: []ShaderUniform{{Name: "proj", First: 0x10, Last: 0x13}}}}}
	f.Add(sb.Bytes())
	f.Add([]byte("DVLB\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := ParseSHBIN(b)
		if err != nil {
			return
		}
		again, err := ParseSHBIN(got.Bytes())
		if err != nil {
			t.Fatalf("re-parse: %v", err)
		}
		if len(again.Code) != len(got.Code) || len(again.Executables) != len(got.Executables) {
			t.Fatalf("round trip changed the binary")
		}
	})
}
