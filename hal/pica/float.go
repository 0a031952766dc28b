package pica

import "math"

// The PICA200's number formats (seed L91-L98; conversions [OUT] libctru
// f32tof24/f32tof31 and citra's Float<M,E>). Every format stores sign,
// exponent and mantissa from the top bit down; float24/31/20 use exponent
// bias 63, float16 bias 15. An all-ones exponent is infinity (mantissa 0)
// or NaN.
//
// Encoding from float32 follows libctru: the mantissa is truncated, an
// exponent below the format's range flushes to a signed zero, one above it
// saturates to infinity. float31 keeps float32's 23 mantissa bits, so it is
// exact for every normal float32 in range (2/240 -> 0x1C088889, guide fact
// 11).

// floatBits encodes f with the given exponent and mantissa widths.
func floatBits(f float32, expBits, manBits uint) uint32 {
	b := math.Float32bits(f)
	sign := b >> 31
	exp := int32(b>>23&0xFF) - 127
	man := b & 0x7FFFFF
	bias := int32(1)<<(expBits-1) - 1
	maxExp := uint32(1)<<expBits - 1
	total := 1 + expBits + manBits
	signBit := sign << (total - 1)
	switch {
	case b&0x7FFFFFFF == 0:
		return signBit
	case b>>23&0xFF == 0xFF:
		if man != 0 {
			return signBit | maxExp<<manBits | 1<<(manBits-1)
		}
		return signBit | maxExp<<manBits
	case b>>23&0xFF == 0: // float32 subnormal: below every format's range
		return signBit
	}
	e := exp + bias
	if e <= 0 {
		return signBit
	}
	if uint32(e) >= maxExp {
		return signBit | maxExp<<manBits
	}
	return signBit | uint32(e)<<manBits | man>>(23-manBits)
}

// floatValue decodes a value of the given widths. A zero exponent with a
// non-zero mantissa is a subnormal (value m * 2^(1-bias-manBits)); the
// shader unit flushes those itself where the hardware does.
func floatValue(v uint32, expBits, manBits uint) float32 {
	total := 1 + expBits + manBits
	v &= uint32(uint64(1)<<total - 1)
	sign := v >> (total - 1)
	e := v >> manBits & (1<<expBits - 1)
	m := v & (1<<manBits - 1)
	bias := int(1)<<(expBits-1) - 1
	var f float64
	switch {
	case e == 1<<expBits-1:
		if m != 0 {
			return float32(math.NaN())
		}
		f = math.Inf(1)
	case e == 0:
		f = math.Ldexp(float64(m), 1-bias-int(manBits))
	default:
		f = math.Ldexp(float64(uint64(m)|uint64(1)<<manBits), int(e)-bias-int(manBits))
	}
	if sign != 0 {
		f = -f
	}
	return float32(f)
}

// ToF24 encodes f as float1.7.16.
func ToF24(f float32) uint32 { return floatBits(f, 7, 16) }

// F24ToFloat decodes float1.7.16 (low 24 bits of v).
func F24ToFloat(v uint32) float32 { return floatValue(v, 7, 16) }

// ToF31 encodes f as float1.7.23.
func ToF31(f float32) uint32 { return floatBits(f, 7, 23) }

// F31ToFloat decodes float1.7.23 (low 31 bits of v).
func F31ToFloat(v uint32) float32 { return floatValue(v, 7, 23) }

// ToF20 encodes f as float1.7.12.
func ToF20(f float32) uint32 { return floatBits(f, 7, 12) }

// F20ToFloat decodes float1.7.12.
func F20ToFloat(v uint32) float32 { return floatValue(v, 7, 12) }

// ToF16 encodes f as float1.5.10.
func ToF16(f float32) uint32 { return floatBits(f, 5, 10) }

// F16ToFloat decodes float1.5.10.
func F16ToFloat(v uint32) float32 { return floatValue(v, 5, 10) }

// PackF24x4 packs four float24 values (x, y, z, w) into the three words the
// FIXEDATTRIB_DATA and f24-mode FLOATUNIFORM_DATA ports take: W<<8 | Z>>16,
// (Z&0xFFFF)<<16 | Y>>8, (Y&0xFF)<<24 | X (seed L2856-L2864; guide §6.4
// resolves the uniform diagram at L3204-L3210 the same way).
func PackF24x4(x, y, z, w uint32) [3]uint32 {
	x, y, z, w = x&0xFFFFFF, y&0xFFFFFF, z&0xFFFFFF, w&0xFFFFFF
	return [3]uint32{w<<8 | z>>16, (z&0xFFFF)<<16 | y>>8, (y&0xFF)<<24 | x}
}

// UnpackF24x4 is the inverse of PackF24x4: it returns x, y, z, w.
func UnpackF24x4(d [3]uint32) [4]uint32 {
	w := d[0] >> 8
	z := (d[0]&0xFF)<<16 | d[1]>>16
	y := (d[1]&0xFFFF)<<8 | d[2]>>24
	x := d[2] & 0xFFFFFF
	return [4]uint32{x, y, z, w}
}

// ToFixed encodes f as a two's-complement fixed-point number with frac
// fractional bits in a bits-wide field, rounding to nearest and saturating.
func ToFixed(f float32, bits, frac uint) uint32 {
	lim := float64(int64(1)<<(bits-1)) - 1
	v := math.Round(float64(f) * float64(uint64(1)<<frac))
	v = math.Max(-lim-1, math.Min(lim, v))
	return uint32(int64(v)) & uint32(uint64(1)<<bits-1)
}

// ToUFixed encodes f as an unsigned fixed-point number with frac fractional
// bits in a bits-wide field, rounding to nearest and saturating.
func ToUFixed(f float32, bits, frac uint) uint32 {
	lim := float64(uint64(1)<<bits - 1)
	v := math.Round(float64(f) * float64(uint64(1)<<frac))
	if v != v {
		v = 0
	}
	return uint32(math.Max(0, math.Min(lim, v)))
}
