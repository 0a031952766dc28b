package r300

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFP24Encode(t *testing.T) {
	tests := []struct {
		in   float32
		want uint32
	}{
		{0, 0},
		{float32(math.Copysign(0, -1)), 0},
		{1, 0x3F0000},
		{0.5, 0x3E0000},
		{1.5, 0x3F8000},
		{2, 0x400000},
		{3, 0x408000},
		{-1, 0xBF0000},
		// 1 + 2^-16 is the next FP24 after 1; 1 + 2^-17 truncates to 1.
		{1 + 1.0/65536, 0x3F0001},
		{1 + 1.0/131072, 0x3F0000},
		// -(1 + 2^-17) truncates toward zero.
		{-(1 + 1.0/131072), 0xBF0000},
		{FP24MinNormal, 0x010000},
		{FP24MinNormal / 2, 0},
		{FP24Max, 0x7FFFFF},
		{float32(math.Inf(1)), 0x7FFFFF},
		{float32(math.Inf(-1)), 0xFFFFFF},
		{1e30, 0x7FFFFF},
		{float32(math.NaN()), 0},
	}
	for _, tc := range tests {
		assert.Equalf(t, tc.want, EncodeFP24(tc.in), "%g", tc.in)
	}
}

func TestFP24Decode(t *testing.T) {
	assert.Equal(t, float32(1), DecodeFP24(0x3F0000))
	assert.Equal(t, float32(3), DecodeFP24(0x408000))
	assert.Equal(t, float32(-1), DecodeFP24(0xBF0000))
	assert.Equal(t, float32(0), DecodeFP24(0x00FFFF), "exponent 0 flushes")
	assert.Equal(t, FP24Max, DecodeFP24(0x7FFFFF))
	assert.Equal(t, FP24MinNormal, DecodeFP24(0x010000))
	assert.Equal(t, float32(1+1.0/65536), DecodeFP24(0x3F0001))
	// Every encoding round-trips (except exponent 0).
	for w := uint32(0x010000); w < 1<<24; w += 0x1357 {
		if w>>16&0x7F == 0 {
			continue
		}
		assert.Equal(t, w, EncodeFP24(DecodeFP24(w)), "%#x", w)
	}
}

func TestRoundFP24(t *testing.T) {
	assert.Equal(t, float32(1), RoundFP24(1+1e-9))
	assert.Equal(t, float32(1-1.0/131072), RoundFP24(0.99999999), "truncates toward zero")
	assert.Equal(t, float32(0), RoundFP24(math.NaN()))
	assert.Equal(t, -FP24Max, RoundFP24(math.Inf(-1)))
	// 1/3 to 16 fraction bits, truncated.
	assert.Equal(t, float32(0x15555)/float32(1<<18), RoundFP24(1.0/3))
}
