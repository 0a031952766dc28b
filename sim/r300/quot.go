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
// |q - Q| ≤ |Q|·(2^-52 + 2^-106), under two ulps of q. The residual
// ρ = e - q·a is exact as FMA's rounded result: with u = ulp(q) (u ≤ 1,
// as |q| ≤ |e|·ra·(1+2^-52) < 2^53 unless a = 1, where ra = 1 and q = e),
// q·a is a multiple of u (a an integer) and so is e, and |ρ| = a·|q - Q|
// < 2a·u·(1+2^-51) < 2^53·u, so ρ is representable and FMA returns it
// unrounded. Let q be neither zero nor a power of two, so its neighbours
// both lie u away (stepping q's bits by one reaches them, also across a
// binade's top), and let t = 2|ρ| and au = a·u (both exact: a doubling,
// and an integer below 2^51 times a power of two no smaller than 2^-103).
// When t ≤ 2·au, |Q - q| = |ρ|/a ≤ u: Q lies between q and its neighbour
// q1 on ρ's side, and RN(Q), the division's result, is the nearer of the
// two: q1 when t > au (the sign of au - t, exact as both are multiples of
// u below 2^54·u), q when t < au. The rest (q zero or a power of two, a
// tie t = au, or t > 2·au) divides. The choice of q1 is branch-free
// (stepping q's bits by one away from zero when ρ has q's sign, towards
// it otherwise): a branch there is taken at random, and its mispredictions
// made a first version, which divided whenever t ≥ au, slower than the
// division. TestQuotRN compares it with the division exhaustively over
// small areas and at random and adversarial pairs.
func quotRN(e, a, ra float64) float64 {
	q := e * ra
	rho := math.FMA(-q, a, e)
	b := math.Float64bits(q)
	const expMask, mantMask = 0x7ff << 52, 1<<52 - 1
	au := a * math.Float64frombits(b&expMask-52<<52)
	t := 2 * math.Abs(rho)
	if b&mantMask == 0 || t == au || t > 2*au {
		return e / a
	}
	up := math.Float64bits(au-t) >> 63
	away := (b ^ math.Float64bits(rho)) >> 63
	return math.Float64frombits(b + up - 2*(up&away))
}
