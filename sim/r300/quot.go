package r300

import "math"

// quotRN returns e / a, the float64 division's correctly rounded quotient,
// for integers e and a with |e| < 2^53 and 0 < a < 2^51 (both exact in
// float64), given ra = 1 / a (the division's own result, RN(1/a)): the
// fused path's reference weights (an edge value over the doubled area)
// without the division in the common case.
//
// Why it is the division's result. Write Q = e/a exactly and q = RN(e·ra).
// ra = (1/a)(1+δ1) and q = e·ra·(1+δ2) with |δ1|, |δ2| ≤ 2^-53, so
// |q - Q| ≤ |Q|·(2^-52 + 2^-106). The residual ρ = e - q·a is exact as
// FMA's rounded result: with u = ulp(q) (u ≤ 1, as |q| ≤ |e|·ra·(1+2^-52)
// < 2^53 unless a = 1, where ra = 1 and q = e), q·a is a multiple of u
// (a an integer) and so is e, and |ρ| = a·|q - Q| < 2a·u·(1+2^-51) <
// 2^53·u, so ρ is representable and FMA returns it unrounded. When q is
// not zero and not a power of two, its neighbours both lie u away, so
// |Q - q| = |ρ|/a < u/2, that is 2|ρ| < a·u (both sides exact: 2|ρ| a
// doubling, a·u an integer below 2^51 times a power of two no smaller
// than 2^-103), makes q the unique nearest double to Q: RN(Q), the
// division's result. Otherwise (zero, a power of two, or Q at or past
// half a gap from q) it divides. TestQuotRN compares it with the division
// exhaustively over small areas and at random and adversarial pairs.
func quotRN(e, a, ra float64) float64 {
	q := e * ra
	rho := math.FMA(-q, a, e)
	b := math.Float64bits(q)
	const expMask, mantMask = 0x7ff << 52, 1<<52 - 1
	u := math.Float64frombits(b&expMask - 52<<52)
	if b&mantMask != 0 && 2*math.Abs(rho) < a*u {
		return q
	}
	return e / a
}
