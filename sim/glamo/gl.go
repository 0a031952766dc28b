package glamo

import (
	"math"

	hg "github.com/retrogl/retrogl/hal/glamo"
)

// input is one fetched vertex, already in s[7].16, before the G/L engine.
type input struct {
	pos   [4]float64
	norm  [3]float64
	diff  [4]float64 // R, G, B, A in [0, 1]
	spec  [4]float64 // SR, SG, SB, fog
	tex   [4][4]float64
	psize float64
}

// vertex is a vertex after the G/L engine (the RGX ports, L472-553):
// clip-space position, 8-bit colours for clockwise and counter-clockwise
// faces, fog factor, texture coordinates and point size.
type vertex struct {
	clip [4]float64
	win  [4]float64 // x, y (y down), z, 1/w
	col  [2][4]uint8
	spec [2][4]uint8 // SR, SG, SB, F
	tex  [4][2]float64
	psz  float64
}

type light struct {
	typ                         uint32 // 00 point, 01 spot, 10 directional (L1496-1503)
	pos, dir                    [3]float64
	amb, spec, diff             [3]float64
	rng, att0, att1, att2, fall float64
	theta, phi, thetaSubPhi     float64
}

type material struct {
	diff, amb, spec, emis [4]float64
	shin                  float64
	src                   [5]uint32 // diffuse, specular, emissive, ambient, alpha: 00 Vcd, 01 Vcs, 10 material
}

const (
	srcDiff = iota
	srcSpec
	srcEmis
	srcAmb
	srcAlpha
)

// glState is the G/L engine's state derived from its registers.
type glState struct {
	scr                  bool
	force                [9]uint32 // the use-default bits per array type (forceMasks)
	defPos, defTexA      [4]float64
	defTexB              [4]float64
	defNorm              [3]float64
	defDiff, defSpec     [4]float64
	t1, texMat0, texMat1 [4][4]float64
	mwv                  [4][3]float64
	inv                  [3][3]float64
	t1Col                [4]colPlan // t1's columns for dot4 (colPlan)
	mwvCol               [3]colPlan

	nf                              float64
	scaleNormal, normalize, normIn  bool
	lighting, glLight, twoSide      bool
	negNormal, negCW, single, specL bool
	localViewer                     bool
	lights                          []light
	mat                             [2]material
	gamb                            [3]float64

	vfog                     bool
	vfogMode                 uint32
	fogEnd, fogRatio, fogDen float64

	texSetIn  [2]uint32
	texGen    [2]uint32
	texXf     [2]bool
	texMatSel [2]uint32
	texProj   [2]bool
	dupl      bool
	needEye   bool
	needNorm  bool

	ptPerVertex, ptScale, ptGL              bool
	ptA, ptB, ptC, vph, ptMin, ptMax, ptThr float64
	ptSize                                  float64
	clipOff                                 uint32 // 2608h D[31:26]
	userClip                                bool
	ucp                                     [4]float64
	sx, ox, sy, oy, sz, oz                  float64
	parserDrop, tnlDrop, setupDrop, twoCull bool
}

func (e *Engine) f24(addr uint16) float64 { return hg.FromF24(e.reg(addr)) }
func (e *Engine) f32(addr uint16) float64 { return q(float64(hg.FromF32(e.reg(addr)))) }

// mat6 is a material colour register: float32 reduced to 6 bits by the
// hardware ("S[8].23 -> 6", L1514): round(clamp(x) * 63) / 63.
func (e *Engine) mat6(addr uint16) float64 {
	return q(float64(hg.Quant(float64(hg.FromF32(e.reg(addr))), 6)) / 63)
}

// buildGL rebuilds the G/L state from the registers.
func (e *Engine) buildGL() {
	g := &e.gl
	front := e.reg(0x2600)
	lt := e.reg(0x2604)
	clip := e.reg(0x2608)
	tc := e.reg(0x2610)
	mc := e.reg(0x2B00)
	ty := e.reg(0x2B04)

	g.scr = front>>13&1 != 0
	g.force = forceMasks(front)
	// Defaults (L1244-1260 built-in values; 2608h D[4] selects the
	// registers at 1E00h instead, L1299).
	if clip>>4&1 != 0 {
		for i := 0; i < 4; i++ {
			g.defPos[i] = e.f32(0x1E00 + 4*uint16(i))
			g.defTexA[i] = e.f32(0x1E30 + 4*uint16(i))
			g.defTexB[i] = e.f32(0x1E40 + 4*uint16(i))
		}
		for i := 0; i < 3; i++ {
			g.defNorm[i] = e.f32(0x1E10 + 4*uint16(i))
		}
		d, s := e.reg(0x1E20), e.reg(0x1E24)
		g.defDiff = [4]float64{float64(d>>16&255) / 255, float64(d>>8&255) / 255, float64(d&255) / 255, float64(d>>24) / 255}
		g.defSpec = [4]float64{float64(s>>16&255) / 255, float64(s>>8&255) / 255, float64(s&255) / 255, float64(s>>24) / 255}
	} else {
		g.defPos = [4]float64{0, 0, 0, 1}
		g.defTexA = [4]float64{0, 0, 0, 1}
		g.defTexB = g.defTexA
		g.defNorm = [3]float64{0, 0, 1}
		g.defDiff = [4]float64{1, 1, 1, 1}
		g.defSpec = [4]float64{}
	}
	defer func() {
		for c := 0; c < 4; c++ {
			g.t1Col[c] = newColPlan(g.t1[0][c], g.t1[1][c], g.t1[2][c], g.t1[3][c])
		}
		for c := 0; c < 3; c++ {
			g.mwvCol[c] = newColPlan(g.mwv[0][c], g.mwv[1][c], g.mwv[2][c], g.mwv[3][c])
		}
	}()
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			g.t1[r][c] = e.f24(hg.T1Base + uint16(4*(4*r+c)))
			g.texMat0[r][c] = e.f24(hg.Tex0Mat + uint16(4*(4*r+c)))
			g.texMat1[r][c] = e.f24(hg.Tex1Mat + uint16(4*(4*r+c)))
		}
		for c := 0; c < 3; c++ {
			g.mwv[r][c] = e.f24(hg.MwvBase + uint16(4*(3*r+c)))
			if r < 3 {
				g.inv[r][c] = e.f24(hg.InvMwvBase + uint16(4*(3*r+c)))
			}
		}
	}
	g.nf = e.f24(0x2734)
	g.scaleNormal = lt>>6&1 != 0
	g.normalize = mc>>13&1 != 0
	g.normIn = lt>>13&1 != 0
	g.lighting = lt>>25&1 != 0
	g.glLight = lt>>14&1 != 0
	g.twoSide = front>>12&1 != 0
	g.negNormal = lt>>11&1 != 0
	g.negCW = lt>>12&1 != 0
	g.single = lt>>10&1 != 0
	g.specL = lt>>9&1 != 0
	g.localViewer = mc>>12&1 != 0
	g.lights = g.lights[:0]
	for n := 0; n < 8; n++ {
		if lt>>(15+uint(n))&1 == 0 {
			continue
		}
		b := hg.LightBase(n)
		r := func(i int) float64 { return e.f24(b + 4*uint16(i)) }
		l := light{typ: ty >> (30 - 2*uint(n)) & 3}
		for k := 0; k < 3; k++ {
			l.pos[k], l.dir[k] = r(k), r(3+k)
			l.amb[k], l.spec[k], l.diff[k] = r(6+k), r(9+k), r(12+k)
		}
		l.rng, l.att0, l.att1, l.att2, l.fall = r(15), r(16), r(17), r(18), r(19)
		l.theta, l.phi, l.thetaSubPhi = r(20), r(21), r(22)
		if l.typ == 2 {
			l.pos = qnorm3(l.pos)
		} else {
			l.dir = qnorm3(l.dir)
		}
		g.lights = append(g.lights, l)
	}
	for side, base := range []uint16{hg.MatCW, hg.MatCCW} {
		m := &g.mat[side]
		for k := 0; k < 4; k++ {
			m.diff[k] = e.mat6(base + 4*uint16(k))
			m.spec[k] = e.mat6(base + 0x20 + 4*uint16(k))
			if k < 3 {
				m.amb[k] = e.mat6(base + 0x10 + 4*uint16(k))
				m.emis[k] = e.mat6(base + 0x30 + 4*uint16(k))
			}
		}
		m.amb[3], m.emis[3] = 1, 0
		if side == 0 {
			m.shin = e.f24(0x2B50)
			m.src = [5]uint32{mc >> 30 & 3, mc >> 28 & 3, mc >> 26 & 3, mc >> 24 & 3, mc >> 20 & 3}
		} else {
			m.shin = e.f24(0x2BA0)
			m.src = [5]uint32{ty >> 8 & 3, ty >> 6 & 3, ty >> 4 & 3, ty >> 2 & 3, ty & 3}
		}
	}
	g.gamb = [3]float64{e.f24(0x2BA4), e.f24(0x2BA8), e.f24(0x2BAC)}
	g.vfog = lt>>8&1 != 0
	g.vfogMode = mc >> 18 & 3
	g.fogEnd, g.fogRatio, g.fogDen = e.f24(0x2B54), e.f24(0x2B58), e.f24(0x2B5C)

	in := e.reg(0x2040)
	g.texSetIn = [2]uint32{in >> 30 & 3, in >> 28 & 3}
	genOn, xfOn, projOn := front>>3&1 != 0, front>>2&1 != 0, front>>1&1 != 0
	for s := 0; s < 2; s++ {
		g.texGen[s] = 0
		if genOn && tc>>(12+uint(s))&1 != 0 {
			g.texGen[s] = tc >> (16 + 2*uint(s)) & 3
		}
		g.texXf[s] = xfOn && tc>>(8+uint(s))&1 != 0
		g.texMatSel[s] = tc >> (10 + uint(s)) & 1
		g.texProj[s] = projOn && tc>>(4+uint(s))&1 != 0
	}
	g.dupl = tc>>14&1 != 0

	g.ptPerVertex = front>>11&1 != 0
	g.ptScale = lt>>5&1 != 0
	g.ptGL = lt>>4&1 != 0
	g.ptA, g.ptB, g.ptC = e.f24(0x2630), e.f24(0x2634), e.f24(0x2638)
	g.vph, g.ptMin, g.ptMax, g.ptThr = e.f24(0x263C), e.f24(0x2640), e.f24(0x2644), e.f24(0x2648)
	g.ptSize = e.f24(0x2650)

	g.clipOff = clip >> 26 & 63
	g.userClip = clip>>3&1 != 0
	for k := 0; k < 4; k++ {
		g.ucp[k] = e.f24(0x2738 + 4*uint16(k))
	}
	g.parserDrop, g.tnlDrop, g.setupDrop = clip>>2&1 != 0, clip>>1&1 != 0, clip&1 != 0
	g.twoCull = clip>>5&1 != 0
	g.sx, g.ox = e.f24(0x2678), e.f24(0x267C)
	g.sy, g.oy = e.f24(0x2680), e.f24(0x2684)
	g.sz, g.oz = e.f24(0x2688), e.f24(0x268C)

	g.needNorm = g.lighting || g.texGen[0] == 1 || g.texGen[0] == 3 || g.texGen[1] == 1 || g.texGen[1] == 3
	g.needEye = g.lighting || g.vfog || g.texGen != [2]uint32{} || g.ptScale
}

// transform runs the G/L engine on one vertex (L14-16: transform,
// lighting, fog, texture generation and transform, point size).
func (e *Engine) transform(in *input, out *vertex) {
	g := &e.gl
	if g.scr {
		// RGXScrCoor (2600h D13): the vertex is in screen space already;
		// W carries 1/w for perspective correction (the D3D "RHW"
		// convention, a decision: the seed only says the G/L engine is
		// bypassed).
		out.win = in.pos
		out.clip = [4]float64{in.pos[0], in.pos[1], in.pos[2], 1}
		e.passColors(in, out)
		for s := 0; s < 4; s++ {
			out.tex[s] = [2]float64{in.tex[s][0], in.tex[s][1]}
		}
		out.psz = g.ptSize
		if g.ptPerVertex {
			out.psz = in.psize
		}
		return
	}
	p := &in.pos
	for c := 0; c < 4; c++ {
		// Row-vector convention (D3D), as the 4x3 Mwv with its
		// translation in row 3 shows (L1410-1422): clip = pos . T1.
		out.clip[c] = g.t1Col[c].dot(p)
	}
	var eye, n [3]float64
	if g.needEye {
		for c := 0; c < 3; c++ {
			eye[c] = g.mwvCol[c].dot(p)
		}
	}
	if g.needNorm {
		nin := in.norm
		if !g.normIn {
			nin = g.defNorm
		}
		for c := 0; c < 3; c++ {
			n[c] = q(q(q(nin[0]*g.inv[0][c])+q(nin[1]*g.inv[1][c])) + q(nin[2]*g.inv[2][c]))
		}
		if g.scaleNormal {
			// "Nx/RGXNormalFact" (L1432).
			for c := range n {
				n[c] = qdiv(n[c], g.nf)
			}
		}
		if g.normalize {
			n = qnorm3(n)
		}
	}
	if g.lighting {
		e.light(in, out, eye, n)
	} else {
		e.passColors(in, out)
	}
	if g.vfog {
		f := e.vertexFog(eye)
		out.spec[0][3], out.spec[1][3] = f, f
	}
	for s := 0; s < 2; s++ {
		t := in.tex[s]
		if s == 1 && g.dupl {
			t = in.tex[0]
		}
		switch g.texGen[s] {
		case 1: // camera-space normal
			t = [4]float64{n[0], n[1], n[2], 1}
		case 2: // camera-space position
			t = [4]float64{eye[0], eye[1], eye[2], 1}
		case 3: // camera-space reflection vector
			u := qnorm3(eye)
			d := qmul(2, qdot3(n, u))
			t = [4]float64{qsub(u[0], qmul(d, n[0])), qsub(u[1], qmul(d, n[1])), qsub(u[2], qmul(d, n[2])), 1}
		}
		if g.texXf[s] {
			m := &g.texMat0
			if g.texMatSel[s] == 1 {
				m = &g.texMat1
			}
			var r [4]float64
			for c := 0; c < 4; c++ {
				r[c] = dot4(&t, m[0][c], m[1][c], m[2][c], m[3][c])
			}
			t = r
		}
		if g.texProj[s] {
			t[0], t[1] = qdiv(t[0], t[3]), qdiv(t[1], t[3])
		}
		out.tex[s] = [2]float64{t[0], t[1]}
	}
	out.tex[2] = [2]float64{in.tex[2][0], in.tex[2][1]}
	out.tex[3] = [2]float64{in.tex[3][0], in.tex[3][1]}
	e.pointSize(in, out, eye)
	if out.clip[3] >= wMin {
		e.project(out) // the common, unclipped case needs it; clipping redoes it
	}
}

// dot4 is the G/L engine's four-term dot product of p with a matrix
// column, ((p0 m0 + p1 m1) + p2 m2) + p3 m3, every product and sum rounded
// to s[7].16 (qadd and qmul written out so that q inlines).
func dot4(p *[4]float64, m0, m1, m2, m3 float64) float64 {
	return q(q(q(q(p[0]*m0)+q(p[1]*m1))+q(p[2]*m2)) + q(p[3]*m3))
}

// colPlan is a matrix column for dot4 with its zero entries left out and
// its ones taken as q(p) alone: q(p*0) is 0 for any p (q maps NaN to 0),
// adding 0 to a rounded sum gives the sum back, and p*1 is p, so the terms
// that remain, summed in the same order with the same rounding, give
// dot4's result. Identity and scale-and-translate matrices, the usual
// ones, then cost one or two terms instead of four.
type colPlan struct {
	full bool // four general terms: dot4 itself
	n    uint8
	idx  [4]uint8
	one  [4]bool
	m    [4]float64
}

func newColPlan(m0, m1, m2, m3 float64) colPlan {
	var c colPlan
	for k, m := range [4]float64{m0, m1, m2, m3} {
		if m == 0 {
			continue
		}
		c.idx[c.n], c.one[c.n], c.m[c.n] = uint8(k), m == 1, m
		c.n++
	}
	c.full = c.n == 4 && !c.one[0] && !c.one[1] && !c.one[2] && !c.one[3]
	return c
}

// dot returns dot4 of p with the column.
func (c *colPlan) dot(p *[4]float64) float64 {
	if c.full {
		return dot4(p, c.m[0], c.m[1], c.m[2], c.m[3])
	}
	var s float64
	for j := uint8(0); j < c.n; j++ {
		x := p[c.idx[j]&3]
		t := q(x)
		if !c.one[j] {
			t = q(x * c.m[j])
		}
		if j == 0 {
			s = t
		} else {
			s = q(s + t)
		}
	}
	return s
}

// to8 converts a colour channel to 8 bits, round(clamp(v) * 255); inside
// (0, 1) v*255 + 0.5 is positive, where truncation is the floor.
func to8(v float64) uint8 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 255
	}
	return uint8(v*255 + 0.5)
}

func (e *Engine) passColors(in *input, out *vertex) {
	for k := 0; k < 4; k++ {
		out.col[0][k] = to8(in.diff[k])
		out.spec[0][k] = to8(in.spec[k])
	}
	out.col[1], out.spec[1] = out.col[0], out.spec[0]
}

// light evaluates the lighting equation. In OpenGL mode (2604h D14) it is
// GL ES 1.1's (proposal P15, the seed gives no equation): spot factor
// rho^FallOff inside the cone rho >= Theta; in D3D mode the spot factor is
// ((rho - Phi) * ThetaSubPhi)^FallOff between the cones (L1579-1581). The
// range test (d^2 > Lr drops the light) applies in both; GL sets Lr to the
// largest value (L1574).
func (e *Engine) light(in *input, out *vertex, eye, n [3]float64) {
	g := &e.gl
	faces := 1
	if g.twoSide {
		faces = 2
	}
	var view [3]float64
	if g.localViewer {
		view = qnorm3([3]float64{-eye[0], -eye[1], -eye[2]})
	} else {
		view = [3]float64{0, 0, 1}
	}
	for f := 0; f < faces; f++ {
		m := &g.mat[f]
		nn := n
		// 2604h D11 enables the negated normal; D12 picks the face that
		// gets it (0: CCW, 1: CW), L1277-1278.
		if g.negNormal && (f == 0) == g.negCW {
			nn = [3]float64{-n[0], -n[1], -n[2]}
		}
		src := func(which int) [4]float64 {
			switch m.src[which] {
			case 0:
				return in.diff
			case 1:
				return in.spec
			}
			switch which {
			case srcDiff, srcAlpha:
				return m.diff
			case srcSpec:
				return m.spec
			case srcEmis:
				return m.emis
			}
			return m.amb
		}
		dm, sm, em, am := src(srcDiff), src(srcSpec), src(srcEmis), src(srcAmb)
		var c, s [3]float64
		for k := 0; k < 3; k++ {
			c[k] = qadd(em[k], qmul(am[k], g.gamb[k]))
		}
		for li := range g.lights {
			l := &g.lights[li]
			var L [3]float64
			att, spot := 1.0, 1.0
			if l.typ == 2 {
				L = l.pos
			} else {
				v := [3]float64{qsub(l.pos[0], eye[0]), qsub(l.pos[1], eye[1]), qsub(l.pos[2], eye[2])}
				d2 := qdot3(v, v)
				if d2 > l.rng {
					continue
				}
				d := q(math.Sqrt(d2))
				L = qnorm3(v)
				att = qdiv(1, qadd(qadd(l.att0, qmul(l.att1, d)), qmul(l.att2, d2)))
				if l.typ == 1 {
					rho := -qdot3(L, l.dir)
					switch {
					case g.glLight && rho >= l.theta:
						spot = qpow(rho, l.fall)
					case g.glLight:
						spot = 0
					case rho > l.theta:
						spot = 1
					case rho <= l.phi:
						spot = 0
					default:
						spot = qpow(qmul(qsub(rho, l.phi), l.thetaSubPhi), l.fall)
					}
				}
			}
			k := qmul(att, spot)
			if k == 0 {
				continue
			}
			ndl := qdot3(nn, L)
			var sp float64
			if g.specL && ndl > 0 {
				h := qnorm3([3]float64{qadd(L[0], view[0]), qadd(L[1], view[1]), qadd(L[2], view[2])})
				// (n⊙h)^s with n⊙h = max(n·h, 0): qpow gives 0^s = 0
				// for s > 0 and x^0 = 1, so a shininess of 0 gives the
				// whole specular term wherever n·L > 0, n·h <= 0
				// included, as GL ES 1.1 section 2.12.1's formula (and
				// every other backend) has it (rgldiff seed 1148).
				sp = qpow(math.Max(qdot3(nn, h), 0), m.shin)
			}
			ndl = math.Max(ndl, 0)
			for j := 0; j < 3; j++ {
				t := qadd(qmul(am[j], l.amb[j]), qmul(qmul(ndl, dm[j]), l.diff[j]))
				c[j] = qadd(c[j], qmul(k, t))
				if sp != 0 {
					s[j] = qadd(s[j], qmul(k, qmul(qmul(sp, sm[j]), l.spec[j])))
				}
			}
		}
		for j := 0; j < 3; j++ {
			if g.single {
				out.col[f][j] = to8(qadd(c[j], s[j]))
				out.spec[f][j] = 0
			} else {
				out.col[f][j] = to8(c[j])
				out.spec[f][j] = to8(s[j])
			}
		}
		out.col[f][3] = to8(src(srcAlpha)[3])
		out.spec[f][3] = to8(in.spec[3])
	}
	if faces == 1 {
		out.col[1], out.spec[1] = out.col[0], out.spec[0]
	}
}

// vertexFog computes the per-vertex fog factor from the eye depth |z|:
// linear (End - d) * Ratio; EXP 2^(Density d); EXP2 2^(Density d^2) with
// Density already -density*log2(e) or -density^2*log2(e) (L1532-1534).
func (e *Engine) vertexFog(eye [3]float64) uint8 {
	g := &e.gl
	d := math.Abs(eye[2])
	var f float64
	switch g.vfogMode {
	case 3:
		f = qmul(qsub(g.fogEnd, d), g.fogRatio)
	case 1:
		f = q(fexp2(qmul(g.fogDen, d)))
	case 2:
		f = q(fexp2(qmul(g.fogDen, qmul(d, d))))
	default:
		f = 1
	}
	return to8(f)
}

// pointSize derives the point size: global (2650h) or per vertex (2600h
// D11); with scaling (2604h D5) size * sqrt(1/(A + B d + C d^2)) in OpenGL
// mode (D4), times the viewport height in D3D mode (P17), d the eye
// distance; then clamped to [min, max]. Below the threshold (2648h) the
// size is raised to it and the alpha scaled by (size/threshold)^2, GL's
// fade.
func (e *Engine) pointSize(in *input, out *vertex, eye [3]float64) {
	g := &e.gl
	s := g.ptSize
	if g.ptPerVertex {
		s = in.psize
	}
	if g.ptScale {
		d2 := qdot3(eye, eye)
		d := q(math.Sqrt(d2))
		den := qadd(qadd(g.ptA, qmul(g.ptB, d)), qmul(g.ptC, d2))
		if den > 0 {
			s = qmul(s, q(math.Sqrt(qdiv(1, den))))
		}
		if !g.ptGL {
			s = qmul(s, g.vph)
		}
	}
	s = math.Max(g.ptMin, math.Min(g.ptMax, s))
	if g.ptGL && g.ptThr > 0 && s < g.ptThr {
		r := qdiv(s, g.ptThr)
		fade := qmul(r, r)
		for f := 0; f < 2; f++ {
			out.col[f][3] = to8(qmul(float64(out.col[f][3])/255, fade))
		}
		s = g.ptThr
	}
	out.psz = s
}
