package glamo

import "math"

// The seed's number formats (guide §4). s[E].M is a float with a sign, E
// exponent bits and M mantissa bits; sI.F is a two's-complement fixed-point
// number with I integer and F fraction bits.
//
// s[8].23 is IEEE float32: the vertex inputs, the defaults at 1E00h and the
// materials at 2B10h take it and the hardware converts (L15, L609, L1514).
//
// s[7].16 is the internal precision of the geometry, lighting and setup
// engines (L15-16) and the format of every matrix, light, viewport, fog,
// point and offset register. The seed names it but never lays it out; we
// follow the guide's proposal P11: 24 bits in D[23:0], sign in bit 23, a
// 7-bit exponent in bits 22:16 with bias 63, a 16-bit fraction with a
// hidden 1; exponent 0 is zero; there is no infinity or NaN. Conversions
// round to nearest, ties to even, saturate at the largest magnitude and
// flush results below 2^-62 to zero. NaN converts to zero.
//
// s[7].10 (fog end, inverse distance and density, L2783-2793) is the same
// with a 10-bit fraction: 18 bits in D[17:0].

// F24Max is the largest s[7].16 magnitude: (2 - 2^-16) * 2^64.
var F24Max = math.Ldexp(2-1.0/65536, 64)

// F18Max is the largest s[7].10 magnitude: (2 - 2^-10) * 2^64.
var F18Max = math.Ldexp(2-1.0/1024, 64)

// roundMant rounds x to mant fraction bits with round-to-nearest-even and
// the s[7].x exponent range (2^-62 .. 2^64, saturating, flushing to zero).
func roundMant(x float64, mant uint) float64 {
	b := math.Float64bits(x)
	exp := int(b >> 52 & 0x7FF)
	sign := b & (1 << 63)
	if exp == 0x7FF {
		if b&(1<<52-1) != 0 {
			return 0 // NaN
		}
		return satMant(sign, mant)
	}
	drop := 52 - mant
	lsb := b >> drop & 1
	b += 1<<(drop-1) - 1 + lsb
	b &^= 1<<drop - 1
	e := int(b>>52&0x7FF) - 1023
	if e < -62 {
		return 0
	}
	if e > 64 {
		return satMant(sign, mant)
	}
	return math.Float64frombits(b)
}

func satMant(sign uint64, mant uint) float64 {
	m := math.Ldexp(2-math.Ldexp(1, -int(mant)), 64)
	if sign != 0 {
		return -m
	}
	return m
}

// RoundF24 rounds x to the nearest s[7].16 value (P11). The simulator's
// geometry engine rounds every intermediate result with it.
func RoundF24(x float64) float64 { return roundMant(x, 16) }

// RoundF18 rounds x to the nearest s[7].10 value.
func RoundF18(x float64) float64 { return roundMant(x, 10) }

func encodeMant(x float64, mant uint) uint32 {
	r := roundMant(x, mant)
	if r == 0 {
		return 0
	}
	b := math.Float64bits(r)
	var s uint32
	if b>>63 != 0 {
		s = 1
	}
	e := uint32(int(b>>52&0x7FF) - 1023 + 63)
	f := uint32(b >> (52 - mant) & (1<<mant - 1))
	return s<<(7+mant) | e<<mant | f
}

func decodeMant(v uint32, mant uint) float64 {
	e := int(v >> mant & 0x7F)
	if e == 0 {
		return 0
	}
	f := float64(v&(1<<mant-1))/float64(uint32(1)<<mant) + 1
	r := math.Ldexp(f, e-63)
	if v>>(7+mant)&1 != 0 {
		r = -r
	}
	return r
}

// F24 encodes x as s[7].16 in the low 24 bits.
func F24(x float64) uint32 { return encodeMant(x, 16) }

// FromF24 decodes the s[7].16 value in the low 24 bits of v.
func FromF24(v uint32) float64 { return decodeMant(v&0xFFFFFF, 16) }

// F18 encodes x as s[7].10 in the low 18 bits.
func F18(x float64) uint32 { return encodeMant(x, 10) }

// FromF18 decodes the s[7].10 value in the low 18 bits of v.
func FromF18(v uint32) float64 { return decodeMant(v&0x3FFFF, 10) }

// F32 returns the s[8].23 (IEEE float32) bits of x.
func F32(x float32) uint32 { return math.Float32bits(x) }

// FromF32 decodes s[8].23 bits.
func FromF32(v uint32) float32 { return math.Float32frombits(v) }

// Fixed is a fixed-point format: Int integer bits and Frac fraction bits,
// plus a sign bit (two's complement) when Signed. The seed uses s4.5 (LOD
// bias), 9.4 (line width), s9 (scissor), s10 (point clip window), s9.4,
// s9.10, s5.8, s6.8 and s15.16.
type Fixed struct {
	Int, Frac uint8
	Signed    bool
}

// The fixed-point formats of the seed.
var (
	FixS4_5   = Fixed{4, 5, true}   // LOD bias, 21A4h D[14:5] (L3231)
	Fix9_4    = Fixed{9, 4, false}  // line width, 265Ch D[12:0] (L1377)
	FixS9     = Fixed{9, 0, true}   // scissor, 2164h/2168h (L2969-2980)
	FixS10    = Fixed{10, 0, true}  // point clip window, 2654h/2658h (L1375)
	FixS9_4   = Fixed{9, 4, true}   // setup shift values (L1945)
	FixS15_16 = Fixed{15, 16, true} // vertex data "fixed" (L1972)
)

// Bits returns the total width in bits.
func (f Fixed) Bits() uint {
	n := uint(f.Int) + uint(f.Frac)
	if f.Signed {
		n++
	}
	return n
}

// Encode rounds x to the nearest representable value (ties away from
// zero), saturating at the format's range, and returns its bits.
func (f Fixed) Encode(x float64) uint32 {
	n := f.Bits()
	scaled := math.Round(x * float64(uint64(1)<<f.Frac))
	var lo, hi float64
	if f.Signed {
		lo, hi = -float64(uint64(1)<<(n-1)), float64(uint64(1)<<(n-1)-1)
	} else {
		lo, hi = 0, float64(uint64(1)<<n-1)
	}
	if scaled != scaled {
		scaled = 0
	}
	scaled = math.Max(lo, math.Min(hi, scaled))
	return uint32(int64(scaled)) & uint32(uint64(1)<<n-1)
}

// Decode returns the value of bits v (only the format's low bits count).
func (f Fixed) Decode(v uint32) float64 {
	n := f.Bits()
	v &= uint32(uint64(1)<<n - 1)
	var i int64 = int64(v)
	if f.Signed && v>>(n-1) != 0 {
		i -= int64(1) << n
	}
	return float64(i) / float64(uint64(1)<<f.Frac)
}

// Quant returns round(v * (2^bits - 1)) for v clamped to [0, 1]: the n-bit
// integer form of a colour channel (P8: an n-bit channel means v/(2^n-1)).
func Quant(v float64, bits uint) uint32 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 1<<bits - 1
	}
	return uint32(math.Floor(v*float64(uint32(1)<<bits-1) + 0.5))
}

// Color6565 packs a colour into the seed's constant-colour layout: A in
// D[31:26], R in D[23:19], G in D[15:10], B in D[7:3], the top bits of an
// ARGB8888 word (blend constant 2160h L2960-2966, border colour 21B4h,
// transparency thresholds 21ACh/21B0h, L3245-3278). Channels are in [0, 1].
func Color6565(r, g, b, a float64) uint32 {
	return Quant(a, 6)<<26 | Quant(r, 5)<<19 | Quant(g, 6)<<10 | Quant(b, 5)<<3
}

// Split6565 returns the 6-bit A, 5-bit R, 6-bit G and 5-bit B of a
// constant-colour word.
func Split6565(v uint32) (a, r, g, b uint32) {
	return v >> 26 & 63, v >> 19 & 31, v >> 10 & 63, v >> 3 & 31
}

// Factor packs a texture-blend factor (2330h/2334h, L3669-3695): A s.7 in
// D[31:24], R s.5 in D[23:18], G s.6 in D[15:9], B s.5 in D[7:2], each
// round(x * (2^F - 1)) in two's complement (P8), x in [-1, 1].
func Factor(r, g, b, a float64) uint32 {
	q := func(x float64, frac uint) uint32 {
		m := float64(uint32(1)<<frac - 1)
		v := math.Round(math.Max(-1, math.Min(1, x)) * m)
		if v != v {
			v = 0
		}
		return uint32(int32(v)) & (1<<(frac+1) - 1)
	}
	return q(a, 7)<<24 | q(r, 5)<<18 | q(g, 6)<<9 | q(b, 5)<<2
}

// SplitFactor returns the signed channel integers of a factor word and
// their fraction bits (R 5, G 6, B 5, A 7).
func SplitFactor(v uint32) (r, g, b, a int32) {
	sx := func(x uint32, bits uint) int32 { return int32(x<<(32-bits)) >> (32 - bits) }
	return sx(v>>18&63, 6), sx(v>>9&127, 7), sx(v>>2&63, 6), sx(v>>24&255, 8)
}

// ZFloat is a 16-bit unsigned floating-point depth format with E exponent
// bits and 16-E mantissa bits (EGZBUFFM, 2108h D[26:20], L2575-2578:
// F1Z15, F2Z14 and "[5].11 floating point"). The seed gives only the names;
// we follow P12: values are monotonic in their raw bits and cover [0, 1].
// With M = 16-E and top = 2^E - 1, code (e, m) means
//
//	e > 0: (1 + m/2^M) * 2^(e - top - 1)
//	e = 0: (m/2^M) * 2^(-top)
//
// so the top binade is [1/2, 1); depth 1.0 encodes as the largest code.
type ZFloat struct{ E uint8 }

// The float Z formats.
var (
	ZF1Z15 = ZFloat{1}
	ZF2Z14 = ZFloat{2}
	ZF5Z11 = ZFloat{5}
)

// Encode converts a depth in [0, 1] to the format, rounding to nearest.
func (z ZFloat) Encode(d float64) uint16 {
	if !(d > 0) {
		return 0
	}
	if d >= 1 {
		return 0xFFFF
	}
	m := uint(16 - z.E)
	top := 1<<z.E - 1
	fr, exp := math.Frexp(d) // d = fr * 2^exp, fr in [0.5, 1)
	e := exp + top           // binade [2^(exp-1), 2^exp) has e = exp + top
	if e <= 0 {
		v := math.Round(math.Ldexp(d, top+int(m)))
		return uint16(v) // denormal; may round up into e = 1, which is still monotonic
	}
	v := math.Round((2*fr - 1) * float64(uint(1)<<m))
	code := uint32(e)<<m + uint32(v) // a mantissa carry moves to the next exponent
	if code > 0xFFFF {
		code = 0xFFFF
	}
	return uint16(code)
}

// Decode returns the depth a code stands for.
func (z ZFloat) Decode(c uint16) float64 {
	m := uint(16 - z.E)
	top := 1<<z.E - 1
	e := int(c >> m)
	f := float64(c&(1<<m-1)) / float64(uint(1)<<m)
	if e == 0 {
		return math.Ldexp(f, -top)
	}
	return math.Ldexp(1+f, e-top-1)
}

// Z16 converts a depth in [0, 1] to the 16-bit integer format:
// round(d * 65535) (P12).
func Z16(d float64) uint16 { return uint16(Quant(d, 16)) }
