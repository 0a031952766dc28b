package r300

import (
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// RoundConst rounds x to the nearest FP24 value (ties to even), with the
// flush and saturation rules of r3.RoundFP24. It is how the compiler turns
// constants (literals and uniform values) into the FP24 words the driver
// uploads to US_ALU_CONST.
//
// Decision: the ALU's own results truncate ([PROP] hal/r300, after
// [OUT] Mesa's pack_float24, which truncates), but a constant is converted
// by the driver on the CPU, so the choice of rounding is the driver's:
// rounding to nearest halves the error of every constant (2^-17 relative
// instead of 2^-16) at no cost on the chip. Measured on piglit's generated
// fs-* built-ins without the preshader, it is the largest of the precision
// fixes of issue 14 (testdata/conformance/r300-fp24-fails.txt).
func RoundConst(x float64) float32 {
	if x != x {
		return 0
	}
	b := math.Float64bits(x)
	const drop = 52 - 16 // fraction bits FP24 does not keep
	low := b & (1<<drop - 1)
	b &^= 1<<drop - 1
	if half := uint64(1) << (drop - 1); low > half || low == half && b&(1<<drop) != 0 {
		b += 1 << drop // a carry into the exponent is the right result
	}
	return r3.RoundFP24(math.Float64frombits(b))
}
