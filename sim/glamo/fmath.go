package glamo

import "math"

// The geometry, lighting, clipping and setup engines compute in s[7].16
// (L15-16): q rounds every intermediate result to it (P11: 16-bit fraction,
// round to nearest even, exponent range 2^-62..2^64, saturation, no
// denormals). It is hal/glamo.RoundF24 written out so the compiler inlines
// it; a test checks the two agree.
func q(x float64) float64 {
	b := math.Float64bits(x)
	r := b + 1<<35 - 1 + (b >> 36 & 1)
	e := r >> 52 & 0x7FF
	if e-961 <= 126 { // the rounded exponent lies in 2^-62..2^64
		return math.Float64frombits(r &^ (1<<36 - 1))
	}
	if e < 961 || (b>>52&0x7FF == 0x7FF && b&(1<<52-1) != 0) {
		return 0 // underflow, or NaN (hal/glamo numfmt)
	}
	if b>>63 != 0 {
		return -f24Max
	}
	return f24Max
}

const f24Max = 0x1.ffffp64

// The s[7].16 operations: each rounds its result.
func qadd(a, b float64) float64 { return q(a + b) }
func qsub(a, b float64) float64 { return q(a - b) }
func qmul(a, b float64) float64 { return q(a * b) }
func qdiv(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return 0
		}
		return q(math.Copysign(f24Max, a) * math.Copysign(1, b))
	}
	return q(a / b)
}

func qdot3(a, b [3]float64) float64 {
	return qadd(qadd(qmul(a[0], b[0]), qmul(a[1], b[1])), qmul(a[2], b[2]))
}

func qnorm3(v [3]float64) [3]float64 {
	l := q(math.Sqrt(qdot3(v, v)))
	if l == 0 {
		return v
	}
	r := qdiv(1, l)
	return [3]float64{qmul(v[0], r), qmul(v[1], r), qmul(v[2], r)}
}

// log2 and exp2 use tables rounded to a 2^-40 grid and linear
// interpolation written as separate float64 operations, so that results
// are identical on every architecture (no library transcendental, no
// fused multiply-add); their error (< 2^-26) is far below s[7].16's.
const tabBits = 12

var log2Tab, exp2Tab [1<<tabBits + 1]float64

func init() {
	grid := func(v float64) float64 { return math.Round(v*0x1p40) / 0x1p40 }
	for i := range log2Tab {
		f := float64(i) / (1 << tabBits)
		log2Tab[i] = grid(math.Log2(1 + f))
		exp2Tab[i] = grid(math.Exp2(f))
	}
}

// flog2 returns log2(x) for x > 0 (and -1e300 for x <= 0).
func flog2(x float64) float64 {
	if !(x > 0) {
		return -1e300
	}
	fr, e := math.Frexp(x) // x = fr * 2^e, fr in [0.5, 1)
	m := float64(2*fr - 1) // in [0, 1)
	p := float64(m * (1 << tabBits))
	i := int(p)
	t := float64(p - float64(i))
	d := float64(log2Tab[i+1] - log2Tab[i])
	return float64(float64(e-1) + float64(log2Tab[i]+float64(d*t)))
}

// fexp2 returns 2^y, 0 for y below -1100 and for NaN (a choice: a NaN
// exponent comes from garbage vertex data, such as floats read at a
// misaligned stride, and the seed does not say what the table lookup
// makes of it).
func fexp2(y float64) float64 {
	if !(y >= -1100) {
		return 0
	}
	if y > 1000 {
		return math.Inf(1)
	}
	fl := math.Floor(y)
	f := float64(y - fl)
	if f >= 1 {
		// A tiny negative y rounds y - floor(y) up to 1: that is
		// 2^(floor(y)+1) exactly (the table has no entry past 1).
		fl, f = fl+1, 0
	}
	p := float64(f * (1 << tabBits))
	i := int(p)
	t := float64(p - float64(i))
	d := float64(exp2Tab[i+1] - exp2Tab[i])
	return math.Ldexp(float64(exp2Tab[i]+float64(d*t)), int(fl))
}

// qpow returns x^y in s[7].16 for x >= 0 (0^0 = 1, as GL's spot and
// specular terms want).
func qpow(x, y float64) float64 {
	if y == 0 {
		return 1
	}
	if x <= 0 {
		return 0
	}
	return q(fexp2(float64(y * flog2(x))))
}
