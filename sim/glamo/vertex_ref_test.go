package glamo

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	hg "github.com/retrogl/retrogl/hal/glamo"
)

// The G/L engine's functions as they were before they were rewritten for
// speed (closures, qadd and qmul calls, a plane switch per outcode): the
// references TestVertexPathMatchesReference holds the fast forms to.

func (e *Engine) applyDefaultsRef(raw *[9][4]float64, have *[9]uint8, in *input) {
	g := &e.gl
	u := e.reg(0x2600) // the use-default bits
	pick := func(arr int, k int, def float64, bit uint) float64 {
		if int(have[arr]) > k && (bit == 0 || u>>bit&1 == 0) {
			return raw[arr][k]
		}
		return def
	}
	for k := 0; k < 4; k++ {
		in.pos[k] = pick(arrPos, k, g.defPos[k], 20+uint(k))
	}
	for k := 0; k < 3; k++ {
		in.norm[k] = pick(arrNormal, k, g.defNorm[k], 15)
	}
	// DIFFDEF: D24 B, D25 G, D26 R, D27 A; SPECDEF: D28 SB .. D31 fog.
	dbit := [4]uint{26, 25, 24, 27}
	sbit := [4]uint{30, 29, 28, 31}
	for k := 0; k < 4; k++ {
		in.diff[k] = clamp01(pick(arrDiffuse, k, g.defDiff[k], dbit[k]))
		in.spec[k] = clamp01(pick(arrSpecular, k, g.defSpec[k], sbit[k]))
	}
	if have[arrDiffuse] == 3 {
		in.diff[3] = g.defDiff[3]
	}
	for s := 0; s < 4; s++ {
		def := [4]float64{0, 0, 0, 1}
		var bit uint
		switch s {
		case 0:
			def, bit = g.defTexA, 4
		case 1:
			def, bit = g.defTexB, 16
		}
		var c [4]float64
		for k := 0; k < 4; k++ {
			b := uint(0)
			if bit != 0 {
				b = bit + uint(k)
			}
			c[k] = pick(arrTexA+s, k, def[k], b)
		}
		if s < 2 {
			// Coordinate-set dimensions before the transform (2040h
			// D[31:28], L2216): 2D (u,v), 3D (u,v,q), 4D (u,v,w,q), 1D (u).
			switch g.texSetIn[s] {
			case 0:
				c[2], c[3] = def[2], def[3]
			case 1:
				c[3], c[2] = c[2], def[2]
				if int(have[arrTexA+s]) < 3 {
					c[3] = def[3]
				}
			case 3:
				c[1], c[2], c[3] = def[1], def[2], def[3]
			}
		}
		in.tex[s] = c
	}
	in.psize = pick(arrPSize, 0, g.ptSize, 0)
}

func (e *Engine) transformRef(in *input, out *vertex) {
	g := &e.gl
	if g.scr {
		// RGXScrCoor (2600h D13): the vertex is in screen space already;
		// W carries 1/w for perspective correction (the D3D "RHW"
		// convention, a decision: the seed only says the G/L engine is
		// bypassed).
		out.win = in.pos
		out.clip = [4]float64{in.pos[0], in.pos[1], in.pos[2], 1}
		e.passColorsRef(in, out)
		for s := 0; s < 4; s++ {
			out.tex[s] = [2]float64{in.tex[s][0], in.tex[s][1]}
		}
		out.psz = g.ptSize
		if g.ptPerVertex {
			out.psz = in.psize
		}
		return
	}
	p := in.pos
	for c := 0; c < 4; c++ {
		// Row-vector convention (D3D), as the 4x3 Mwv with its
		// translation in row 3 shows (L1410-1422): clip = pos . T1.
		out.clip[c] = qadd(qadd(qadd(qmul(p[0], g.t1[0][c]), qmul(p[1], g.t1[1][c])), qmul(p[2], g.t1[2][c])), qmul(p[3], g.t1[3][c]))
	}
	var eye, n [3]float64
	if g.needEye {
		for c := 0; c < 3; c++ {
			eye[c] = qadd(qadd(qadd(qmul(p[0], g.mwv[0][c]), qmul(p[1], g.mwv[1][c])), qmul(p[2], g.mwv[2][c])), qmul(p[3], g.mwv[3][c]))
		}
	}
	if g.needNorm {
		nin := in.norm
		if !g.normIn {
			nin = g.defNorm
		}
		for c := 0; c < 3; c++ {
			n[c] = qadd(qadd(qmul(nin[0], g.inv[0][c]), qmul(nin[1], g.inv[1][c])), qmul(nin[2], g.inv[2][c]))
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
		e.passColorsRef(in, out)
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
				r[c] = qadd(qadd(qadd(qmul(t[0], m[0][c]), qmul(t[1], m[1][c])), qmul(t[2], m[2][c])), qmul(t[3], m[3][c]))
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
		e.projectRef(out) // the common, unclipped case needs it; clipping redoes it
	}
}

func (e *Engine) passColorsRef(in *input, out *vertex) {
	for k := 0; k < 4; k++ {
		out.col[0][k] = to8Ref(in.diff[k])
		out.spec[0][k] = to8Ref(in.spec[k])
	}
	out.col[1], out.spec[1] = out.col[0], out.spec[0]
}

func to8Ref(v float64) uint8 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 255
	}
	return uint8(math.Floor(v*255 + 0.5))
}

func (e *Engine) outcodeRef(v *vertex, mask uint32) uint32 {
	var o uint32
	for p := 0; p < nPlanes; p++ {
		if mask>>uint(p)&1 != 0 && e.dist(v, p) < 0 {
			o |= 1 << uint(p)
		}
	}
	return o
}

func (e *Engine) projectRef(v *vertex) {
	g := &e.gl
	c := &v.clip
	rhw := qdiv(1, c[3])
	v.win = [4]float64{
		qadd(qmul(qmul(c[0], rhw), g.sx), g.ox),
		qadd(qmul(qmul(c[1], rhw), g.sy), g.oy),
		qadd(qmul(qmul(c[2], rhw), g.sz), g.oz),
		rhw,
	}
}

// TestVertexPathMatchesReference runs random vertices through random G/L
// states (matrices, lights, defaults, texture generation and transform,
// clip planes) with the engine's functions and with the references above:
// the inputs, vertices and outcodes must be identical.
func TestVertexPathMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	f := func(scale float64) uint32 { return hg.F24((r.Float64()*2 - 1) * scale) }
	for n := 0; n < 300; n++ {
		e, _ := bare(t)
		// Every other state has identity-like matrices, zeros and ones
		// (colPlan).
		sparse := n%2 == 1
		for a := uint16(hg.T1Base); a < hg.InvMwvBase+36; a += 4 { // T1, Mwv, inverse Mwv
			v := f(2)
			if sparse && r.IntN(4) != 0 {
				v = hg.F24(float64(r.IntN(2)))
			}
			poke(e, a, v)
		}
		for a := uint16(0); a < 64; a += 4 {
			poke(e, hg.Tex0Mat+a, f(2))
			poke(e, hg.Tex1Mat+a, f(2))
		}
		for a := uint16(0x2B00); a < 0x2C00; a += 4 { // materials and lights
			poke(e, a, f(1)|r.Uint32()&0xFF000000)
		}
		for a := uint16(0x1E00); a < 0x1E50; a += 4 { // default registers
			poke(e, a, math.Float32bits(float32(r.Float64()*2-1)))
		}
		poke(e, 0x2B00, r.Uint32())
		poke(e, 0x2B04, r.Uint32())
		poke(e, 0x2600, r.Uint32()&^(1<<13))
		poke(e, 0x2604, r.Uint32())
		poke(e, 0x2608, r.Uint32()&^7)
		poke(e, 0x2610, r.Uint32())
		poke(e, 0x2040, r.Uint32())
		for _, a := range []uint16{0x2678, 0x267C, 0x2680, 0x2684, 0x2688, 0x268C, 0x2734, 0x2738, 0x273C, 0x2740, 0x2744} {
			poke(e, a, f(100))
		}
		e.buildGL()
		for v := 0; v < 8; v++ {
			var raw [9][4]float64
			var have [9]uint8
			for a := range raw {
				for k := range raw[a] {
					raw[a][k] = r.Float64()*3 - 1
				}
				have[a] = uint8(r.IntN(5))
			}
			var in, inRef input
			e.applyDefaults(&raw, &have, &in)
			e.applyDefaultsRef(&raw, &have, &inRef)
			require.Equal(t, inRef, in, "state %d vertex %d: input", n, v)
			var out, outRef vertex
			e.transform(&in, &out)
			e.transformRef(&in, &outRef)
			require.Equal(t, outRef, out, "state %d vertex %d: vertex", n, v)
			mask := e.planeMask()
			require.Equal(t, e.outcodeRef(&out, mask), e.outcode(&out, mask), "state %d vertex %d: outcode", n, v)
		}
	}
}
