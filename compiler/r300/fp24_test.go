package r300

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/compiler/ir"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

func TestRoundConst(t *testing.T) {
	ulp1 := math.Ldexp(1, -16) // FP24's spacing in [1, 2)
	tests := []struct {
		name      string
		in        float64
		want, enc uint32 // the FP24 word of RoundConst's result
	}{
		{"exact", 1, 0x3f0000, 0x3f0000},
		{"0.1 rounds up (truncation gives 0x3b9999)", 0.1, 0x3b999a, 0x3b999a},
		{"just under half an ulp", 1 + 0.49*ulp1, 0x3f0000, 0x3f0000},
		{"just over half an ulp", 1 + 0.51*ulp1, 0x3f0001, 0x3f0001},
		{"a tie rounds to even (down)", 1 + 0.5*ulp1, 0x3f0000, 0x3f0000},
		{"a tie rounds to even (up)", 1 + 1.5*ulp1, 0x3f0002, 0x3f0002},
		{"negative", -0.1, 0xbb999a, 0xbb999a},
		{"carry into the exponent", 2 - 0.4*ulp1, 0x400000, 0x400000},
		{"below the smallest normal flushes", 1e-30, 0, 0},
		{"beyond the largest saturates", 1e30, 0x7fffff, 0x7fffff},
		{"NaN is 0", math.NaN(), 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := RoundConst(tc.in)
			assert.Equal(t, tc.enc, r3.EncodeFP24(got), "%v -> %v", tc.in, got)
			assert.Equal(t, got, r3.DecodeFP24(tc.want), "the result is an FP24 value")
		})
	}
	// Never further than half an ulp, where truncation errs by up to one.
	for _, x := range []float64{0.1, 0.3, 0.7, 1.33, -2.98, 57.29577951308232, math.Pi} {
		r := float64(RoundConst(x))
		ulp := math.Ldexp(1, math.Ilogb(x)-16)
		assert.LessOrEqual(t, math.Abs(r-x), ulp/2, "%v", x)
	}
}

// TestConstantsUploadRounded compiles a program with a literal and a
// uniform that FP24 cannot hold: both reach the constant file rounded to
// nearest.
func TestConstantsUploadRounded(t *testing.T) {
	p, err := ir.Parse("fragment\nout o0 color\nuniform c0 u\nconst c1 0.1 0.3 0.7 1\nmad o0, c0, c1, c1\n")
	require.NoError(t, err)
	prog, err := Compile(p, Options{})
	require.NoError(t, err)
	vals, err := prog.ConstValues(map[string][4]float32{"u": {1.33, -2.98, 0.6, 1}})
	require.NoError(t, err)
	var got []float32
	for _, v := range vals {
		got = append(got, v[:]...)
	}
	for _, want := range []float64{0.1, 0.3, 0.7, 1.33, -2.98, 0.6} {
		assert.Contains(t, got, RoundConst(want), "%v", want)
		if r3.RoundFP24(want) != RoundConst(want) {
			assert.NotContains(t, got, r3.RoundFP24(want), "%v must not be truncated", want)
		}
	}
}
