package unichrome

import (
	"fmt"
	"math"

	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// fogState is the fog unit (50h-58h, L2509-2531) and the fog table.
//
// Mode 000 (local) takes the per-vertex factor f from Cs bits 31:24,
// interpolated like a colour. Linear fog computes f = (end - c) x
// 1/(end - start) from Z (50h bit 4 = 1; start and end .32 fixed point) or
// from w = 1/W (bit 4 = 0; start and end in the seed's float "[8].7",
// read as an 8-bit biased exponent in bits 14:7 and a 7-bit mantissa).
// 1/(end - start) is 1.M x 2^(E-127) with a 4-bit mantissa (L2525-2527).
//
// The exponential modes (1xx, "using fog table") are not specified beyond
// their names. Decision: the table has 256 factors (type 03h SubType 10h,
// four per dword); exp reads entry floor(32 d c) and exp2 entry
// floor(32 (d c)^2), clamped to 255, where d is the density ("[8].5": an
// 8-bit biased exponent in bits 12:5 of 58h[20:8] and a 5-bit mantissa)
// and c the fog coordinate as above. A driver fills entry i with
// 255 exp(-i/32).
type fogState struct {
	mode, eq  uint32
	useZ      bool
	color     [3]int
	start     float64
	end       float64
	oo        float64
	density   float64
	table     *[256]uint8
	needCoord bool
}

// float87 reads the seed's "[8].7" positive float.
func float87(v uint32) float64 {
	e, m := v>>7&0xFF, v&0x7F
	if e == 0 && m == 0 {
		return 0
	}
	return math.Ldexp(1+float64(m)/128, int(e)-127)
}

func compileFog(a *[256]uint32, pal *[256]uint8) (fogState, error) {
	f := fogState{table: pal}
	m := a[uc.AttrFogMode]
	f.mode, f.eq, f.useZ = m&7, m>>3&1, m>>4&1 != 0
	switch f.mode {
	case 0, 2, 4, 5:
	default:
		return f, fmt.Errorf("reserved fog mode %03b (50h bits 2:0)", f.mode)
	}
	f.color = rgbOf(a[uc.AttrFogColor])
	f.needCoord = f.mode != 0
	if f.useZ {
		f.start = math.Ldexp(float64(addr32(a[uc.AttrFogStartL], a[uc.AttrFogStartH])), -32)
		f.end = math.Ldexp(float64(addr32(a[uc.AttrFogEndL], a[uc.AttrFogDensity])), -32)
	} else {
		f.start = float87(a[uc.AttrFogStartL] & 0x7FFF)
		f.end = float87(a[uc.AttrFogEndL] & 0x7FFF)
	}
	f.oo = math.Ldexp(1+float64(a[uc.AttrFogOOdM]&15)/16, int(a[uc.AttrFogOOdE]&0xFF)-127)
	d := a[uc.AttrFogDensity] >> 8 & 0x1FFF
	if d != 0 {
		f.density = math.Ldexp(1+float64(d&31)/32, int(d>>5&0xFF)-127)
	}
	return f, nil
}

// factor returns the fog factor (0 = all fog colour, 255 = none for
// equation 0) for a fragment with interpolated local factor local,
// normalised Z z and W = 1/w.
func (f *fogState) factor(local int, z, w float64) int {
	if f.mode == 0 {
		return local
	}
	c := z
	if !f.useZ {
		if w > 0 {
			c = 1 / w
		} else {
			c = 0
		}
	}
	switch f.mode {
	case 2:
		v := float64(f.end-c) * f.oo
		v = min(1, max(0, v))
		return int(math.Floor(v*255 + 0.5))
	case 4:
		return int(f.table[tableIndex(float64(f.density*c))])
	}
	dc := float64(f.density * c)
	return int(f.table[tableIndex(float64(dc*dc))])
}

func tableIndex(x float64) int {
	i := math.Floor(x * 32)
	if !(i >= 0) {
		return 0
	}
	return int(min(i, 255))
}

// apply fogs a colour: equation 0 is f*C + (1-f)*Cfog (GL), equation 1
// (1-f)*C + f*Cfog.
func (f *fogState) apply(c *[4]int, fac int) {
	if f.eq == 1 {
		fac = 255 - fac
	}
	for k := 0; k < 3; k++ {
		c[k] = (fac*c[k] + (255-fac)*f.color[k] + 127) / 255
	}
}
