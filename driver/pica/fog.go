package pica

import (
	"math"

	"github.com/retrogl/retrogl/driver"
	p "github.com/retrogl/retrogl/hal/pica"
)

// Fog: the PICA looks fog up in a 128-entry table indexed by window depth
// (L1772-L1779; [OUT] citra's lookup, value + difference * fraction). GL
// fog is a function of the eye distance, approximated by |z_eye| (GL ES
// 1.1 §3.8 allows it). The driver inverts the projection to find z_eye at
// each table depth d_i = i/128:
//
//	z_ndc = 2(d - n)/(f - n) - 1
//	z_eye = (P[14] - z_ndc P[15]) / (z_ndc P[11] - P[10])
//
// and stores f(|z_eye|) as value (fixed0.0.11) and the difference to the
// next entry (fixed1.1.11, two's complement). Fog is therefore exact at
// the 129 table depths and linear in window depth between them.

type fogKey struct {
	on      bool
	mode    driver.FogMode
	density float32
	start   float32
	end     float32
	proj    [4]float32
	rng     [2]float32
}

func fogFactor(k *fogKey, dist float64) float64 {
	var f float64
	switch k.mode {
	case driver.FogLinear:
		if k.end == k.start {
			return 1
		}
		f = (float64(k.end) - dist) / (float64(k.end) - float64(k.start))
	case driver.FogExp:
		f = math.Exp(-float64(k.density) * dist)
	default:
		d := float64(k.density) * dist
		f = math.Exp(-d * d)
	}
	return math.Max(0, math.Min(1, f))
}

// fogLUT computes the 128 LUT words for a key.
func fogLUT(k *fogKey) [128]uint32 {
	n, f := float64(k.rng[0]), float64(k.rng[1])
	eye := func(d float64) float64 {
		if f == n {
			return 0
		}
		zn := 2*(d-n)/(f-n) - 1
		den := zn*float64(k.proj[2]) - float64(k.proj[0])
		if den == 0 {
			return math.Inf(1)
		}
		return math.Abs((float64(k.proj[1]) - zn*float64(k.proj[3])) / den)
	}
	var vals [129]float64
	for i := range vals {
		vals[i] = fogFactor(k, eye(float64(i)/128))
	}
	var lut [128]uint32
	for i := 0; i < 128; i++ {
		v := uint32(math.Round(vals[i] * 2047))
		d := p.ToFixed(float32(vals[i+1]-vals[i]), 13, 11)
		lut[i] = v<<13 | d
	}
	return lut
}

// fog emits the fog mode, colour and table.
func (c *Context) fog(st *driver.State) error {
	if !st.Fog.Enabled {
		c.setFogOff()
		return nil
	}
	pm := st.Projection
	k := fogKey{on: true, mode: st.Fog.Mode, density: st.Fog.Density, start: st.Fog.Start, end: st.Fog.End,
		proj: [4]float32{pm[10], pm[14], pm[11], pm[15]}, rng: st.DepthRange}
	c.set(p.TEXENV_UPDATE_BUFFER, 5)
	fc := st.Fog.Color
	c.set(p.FOG_COLOR, uint32(q8(fc[0]))|uint32(q8(fc[1]))<<8|uint32(q8(fc[2]))<<16)
	if !c.fogValid || c.fogKey != k {
		lut := fogLUT(&k)
		c.kick(p.FOG_LUT_INDEX, 0)
		c.cmd.Rep(p.FOG_LUT_DATA0, lut[:]...)
		c.fogKey, c.fogValid = k, true
	}
	return nil
}

func (c *Context) setFogOff() { c.set(p.TEXENV_UPDATE_BUFFER, 0) }
