package pica

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSHBINRoundTrip(t *testing.T) {
	sb := &ShaderBinary{Code: []uint32{0x4C000000, 0x88000000}, Opdescs: []uint32{uint32(DescIdentity)},
		Executables: []Executable{{Main: 0, EndMain: 2, Outputs: []ShaderOutput{{Type: 0, Reg: 0, Mask: 0xF}, {Type: 2, Reg: 1, Mask: 0xF}},
			Consts:   []ShaderConst{{Type: 2, ID: 5, Data: [4]uint32{0x3F0000, 0, 0, 0x3F0000}}, {Type: 1, ID: 0, Data: [4]uint32{0x00010203}}},
			Uniforms: []ShaderUniform{{Name: "proj", First: 0x10, Last: 0x13}}}}}
	b := sb.Bytes()
	assert.Equal(t, "DVLB", string(b[:4]))
	assert.Equal(t, "DVLP", string(b[12:16]))
	got, err := ParseSHBIN(b)
	require.NoError(t, err)
	assert.Equal(t, sb, got)
	for _, bad := range [][]byte{nil, []byte("DVLB"), b[:20], append([]byte("XVLB"), b[4:]...)} {
		_, err := ParseSHBIN(bad)
		assert.Error(t, err)
	}
}
