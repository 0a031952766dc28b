package r300

import "math"

// FP24 is the fragment shader's number format, S16E7 (seed L1736-1757 call
// it "(S16E7) fixed format"; it is a float, guide §4): bit 23 sign, bits
// 22:16 a biased exponent (bias 63), bits 15:0 the fraction of a normalised
// mantissa 1.f. The layout is [OUT] Mesa's pack_float24. Our decisions
// where the seed is silent (guide §4 [PROP]), shared by the simulator's US
// unit and the compiler's interpreter:
//   - Rounding truncates toward zero (Mesa's encoder drops the low 7 bits
//     of an IEEE mantissa).
//   - Exponent 0 is zero: results below 2^-62 flush to +0, and 0x000000
//     and 0x800000 decode to ±0.
//   - There is no infinity or NaN: exponent 127 is an ordinary binade, and
//     results at or above 2^65 saturate to ±FP24Max. A NaN result (0·inf
//     cannot arise, but log2 of a negative value can) becomes +0.
const (
	// FP24Max is the largest FP24 magnitude, (2 - 2^-16) · 2^64.
	FP24Max = float32((2 - 1.0/65536) * (1 << 63) * 2)
	// FP24MinNormal is the smallest non-zero FP24 magnitude, 2^-62.
	FP24MinNormal = float32(1.0 / (1 << 62))
)

// RoundFP24 rounds x to the nearest FP24 value toward zero, with the flush,
// saturation and NaN rules above. Every US result passes through it.
func RoundFP24(x float64) float32 {
	if x != x {
		return 0
	}
	b := math.Float64bits(x)
	// Keep the top 16 of the 52 fraction bits: truncation toward zero.
	v := math.Float64frombits(b &^ (1<<36 - 1))
	a := math.Abs(v)
	switch {
	case a < float64(FP24MinNormal):
		return 0
	case a > float64(FP24Max):
		if v < 0 {
			return -FP24Max
		}
		return FP24Max
	}
	return float32(v)
}

// EncodeFP24 packs f into the low 24 bits of a register word (rounding as
// RoundFP24 does).
func EncodeFP24(f float32) uint32 {
	v := RoundFP24(float64(f))
	if v == 0 {
		return 0
	}
	b := math.Float32bits(v)
	sign := b >> 31
	exp := b>>23&0xFF - 127 + 63
	return sign<<23 | exp<<16 | b&0x7FFFFF>>7
}

// DecodeFP24 unpacks the low 24 bits of w. Exponent 0 decodes to ±0.
func DecodeFP24(w uint32) float32 {
	sign := w >> 23 & 1
	exp := w >> 16 & 0x7F
	if exp == 0 {
		return math.Float32frombits(sign << 31)
	}
	return math.Float32frombits(sign<<31 | (exp+64)<<23 | (w&0xFFFF)<<7)
}
