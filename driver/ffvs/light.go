package ffvs

import (
	"fmt"

	"github.com/retrogl/retrogl/compiler/ir"
	"github.com/retrogl/retrogl/driver"
)

// lighting writes "color0": GL ES 1.1's lighting equation (§2.12.1) with
// an infinite viewer for the normal in nrm and the eye position in eye:
//
//	c = e + a_cm·a_cs + Σ att_i·spot_i·(a_cm·a_cli + (n·VP)⁺·d_cm·d_cli
//	    + [n·VP > 0]·(n·h)⁺^s_rm·s_cm·s_cli)
//
// clamped to [0, 1], alpha the diffuse alpha. Products with the material
// are uniforms unless COLOR_MATERIAL makes the vertex colour a_cm and
// d_cm.
func (b *builder) lighting(k Key, eye, nrm ir.Reg) {
	n := src(nrm)
	if k.Back {
		n = neg(n)
	}
	var col ir.Src
	if k.ColorMaterial {
		col = b.in("color")
	}
	sum := b.temp()
	if k.ColorMaterial {
		b.op(ir.MAD, sum, mXYZ, col, b.uni("ambient"), b.uni("emission"))
	} else {
		b.op(ir.MOV, sum, mXYZ, b.uni("scene"))
	}
	var e3 ir.Reg
	positional := false
	for _, l := range k.Lights {
		positional = positional || l.On && l.Positional
	}
	if positional {
		e3 = eye
		if k.EyeW {
			// The eye position divided by its w (driver/swtnl does so
			// when w is not 1).
			e3 = b.temp()
			b.op(ir.RCP, e3, 8, swz(src(eye), w))
			b.op(ir.MUL, e3, mXYZ, src(eye), swz(src(e3), w))
		}
	}
	vp, h, t, c := b.temp(), b.temp(), b.temp(), b.temp()
	for i, l := range k.Lights {
		if !l.On {
			continue
		}
		name := func(s string) ir.Src { return b.uni(fmt.Sprintf("light%d.%s", i, s)) }
		att := false
		if l.Positional {
			// VP = normalize(P - V); t = (|d|², 1/|d|, |d|, spot).
			b.op(ir.ADD, vp, mXYZ, name("pos"), neg(src(e3)))
			b.op(ir.DP3, t, mX, src(vp), src(vp))
			b.op(ir.RSQ, t, 2, swz(src(t), x))
			b.op(ir.MUL, vp, mXYZ, src(vp), swz(src(t), y))
			if l.Atten {
				// 1 / (k0 + k1·|d| + k2·|d|²), with |d| = |d|²·(1/|d|).
				b.op(ir.MUL, t, 4, swz(src(t), x), swz(src(t), y))
				b.op(ir.DP3, t, 8, swz(src(t), ir.SwzOne, z, x), name("att"))
				b.op(ir.RCP, t, 8, swz(src(t), w))
				att = true
			}
			if l.Spot {
				// (max(-VP·s, 0))^e inside the cone, 0 outside.
				b.op(ir.DP3, c, mX, neg(src(vp)), name("spot"))
				b.op(ir.SGE, c, 2, swz(src(c), x), swz(name("spot"), w))
				b.op(ir.MAX, c, mX, swz(src(c), x), swz(b.lit(0), ir.SwzZero))
				b.op(ir.POW, c, mX, swz(src(c), x), swz(name("att"), w))
				b.op(ir.MUL, c, mX, swz(src(c), x), swz(src(c), y))
				if att {
					b.op(ir.MUL, t, 8, swz(src(t), w), swz(src(c), x))
				} else {
					b.op(ir.MOV, t, 8, swz(src(c), x))
				}
				att = true
			}
			// h = normalize(VP + (0, 0, 1)).
			b.op(ir.ADD, h, mXYZ, src(vp), swz(b.lit(0), ir.SwzZero, ir.SwzZero, ir.SwzOne))
			b.op(ir.DP3, c, mX, src(h), src(h))
			b.op(ir.RSQ, c, mX, swz(src(c), x))
			b.op(ir.MUL, h, mXYZ, src(h), swz(src(c), x))
		} else {
			b.op(ir.MOV, vp, mXYZ, name("pos"))
			b.op(ir.MOV, h, mXYZ, name("half"))
		}
		// c = ((n·VP)⁺, (n·h)⁺^s · [n·VP > 0]).
		b.op(ir.DP3, c, mX, n, src(vp))
		b.op(ir.SLT, c, 4, swz(b.lit(0), ir.SwzZero), swz(src(c), x))
		b.op(ir.MAX, c, mX, swz(src(c), x), swz(b.lit(0), ir.SwzZero))
		b.op(ir.DP3, c, 2, n, src(h))
		b.op(ir.MAX, c, 2, swz(src(c), y), swz(b.lit(0), ir.SwzZero))
		b.op(ir.POW, c, 2, swz(src(c), y), swz(b.uni("material"), x))
		b.op(ir.MUL, c, 2, swz(src(c), y), swz(src(c), z))
		// The light's sum: ambient + diffuse + specular.
		lc := h
		if k.ColorMaterial {
			b.op(ir.MUL, lc, mXYZ, col, name("amb"))
			b.op(ir.MUL, vp, mXYZ, col, name("dif"))
			b.op(ir.MAD, lc, mXYZ, swz(src(c), x), src(vp), src(lc))
		} else {
			b.op(ir.MAD, lc, mXYZ, swz(src(c), x), name("dif"), name("amb"))
		}
		b.op(ir.MAD, lc, mXYZ, swz(src(c), y), name("spec"), src(lc))
		if att {
			b.op(ir.MAD, sum, mXYZ, swz(src(t), w), src(lc), src(sum))
		} else {
			b.op(ir.ADD, sum, mXYZ, src(sum), src(lc))
		}
	}
	if k.ColorMaterial {
		b.op(ir.MOV, sum, 8, col)
	} else {
		b.op(ir.MOV, sum, 8, swz(b.uni("material"), w))
	}
	b.sat(ir.MOV, b.out("color0"), mAll, src(sum))
}

// log2e is log2(e): e^x = 2^(x·log2 e).
const log2e = 1.4426950408889634

// fog writes "color1" = (0, 0, 0, f) with the fog factor f of the eye
// distance c = |z_eye| (driver/swtnl's), clamped to [0, 1] (§3.8). The
// uniform "fog" is (s, end·s, density, 0) with s = 1/(end - start), or
// 2^60 when end = start (then f is 1 in front of end, 0 beyond).
func (b *builder) fog(k Key, eye ir.Reg) {
	o := b.out("color1")
	b.op(ir.MOV, o, mXYZ, swz(b.lit(0), ir.SwzZero))
	c := b.temp()
	cz := swz(src(eye), z)
	cz.Abs = true
	fog := b.uni("fog")
	switch driver.FogMode(k.Fog - 1) {
	case driver.FogLinear: // (end - c)·s
		b.sat(ir.MAD, o, 8, cz, neg(swz(fog, x)), swz(fog, y))
	case driver.FogExp: // 2^(-density·c·log2 e)
		b.op(ir.MUL, c, mX, cz, swz(fog, z))
		b.op(ir.MUL, c, mX, swz(src(c), x), b.lit(-log2e))
		b.sat(ir.EX2, o, 8, swz(src(c), x))
	default: // exp2: 2^(-(density·c)²·log2 e)
		b.op(ir.MUL, c, mX, cz, swz(fog, z))
		b.op(ir.MUL, c, mX, swz(src(c), x), swz(src(c), x))
		b.op(ir.MUL, c, mX, swz(src(c), x), b.lit(-log2e))
		b.sat(ir.EX2, o, 8, swz(src(c), x))
	}
}

// pointSize writes "psize": the size (uniform "point" = (size, min, max,
// 0), or the "psize" input), attenuated by 1/sqrt(a + b·d + c·d²) for the
// eye distance d (uniform "atten" = (a, b, c, 0)), clamped to [min, max]
// and rounded to a whole pixel (aliased points, §3.3).
func (b *builder) pointSize(k Key, eye ir.Reg) {
	sz := b.temp()
	pt := b.uni("point")
	if k.SizeArray {
		b.op(ir.MOV, sz, mX, swz(b.in("psize"), x))
	} else {
		b.op(ir.MOV, sz, mX, swz(pt, x))
	}
	if k.PointAtten {
		d := b.temp()
		b.op(ir.DP3, d, 4, src(eye), src(eye))
		b.op(ir.MAX, d, 2, swz(src(d), z), b.lit(1e-30))
		b.op(ir.RSQ, d, 2, swz(src(d), y))
		b.op(ir.MUL, d, 2, swz(src(d), y), swz(src(d), z))
		b.op(ir.MOV, d, mX, swz(b.lit(0), ir.SwzOne))
		b.op(ir.DP3, d, mX, src(d), b.uni("atten"))
		b.op(ir.RSQ, d, mX, swz(src(d), x))
		b.op(ir.MUL, sz, mX, swz(src(sz), x), swz(src(d), x))
	}
	b.op(ir.MAX, sz, mX, swz(src(sz), x), swz(pt, y))
	b.op(ir.MIN, sz, mX, swz(src(sz), x), swz(pt, z))
	b.op(ir.ADD, sz, mX, swz(src(sz), x), b.lit(0.5))
	b.op(ir.FLR, b.out("psize"), mX, swz(src(sz), x))
}
