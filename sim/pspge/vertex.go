package pspge

import (
	"encoding/binary"
	"math"

	ge "github.com/retrogl/retrogl/hal/pspge"
)

// vertex is one decoded and transformed vertex.
type vertex struct {
	pos   [3]float32 // model position, after morphing
	color [4]float32 // primary colour, 0..255
	spec  [3]float32 // secondary (separate specular) colour, 0..255
	uv    [2]float32 // decoded texture coordinates
	nrm   [3]float32 // model normal, after morphing
	wts   [8]float32 // skinning weights
	clip  [4]float32 // clip-space position
	fogd  float32    // fog depth: 1 = no fog, 0 = fog colour (before clamping)
	// Texture coordinates: s, t normalised (1.0 = the texture's width) in
	// transform mode, texels in through mode; q is the projective divisor
	// of texture-matrix mapping (1 otherwise).
	s, t, q float32

	// Screen position in 12.4 fixed point relative to the drawing origin,
	// depth in 0..65535, colours rounded to 0..255.
	sx, sy int64
	sz     int64
	c      [4]int64
	c2     [3]int64
	// invW is 1/clip w (1 in through mode), for perspective-correct texture
	// coordinates.
	invW float64
	// screened is set once toScreen has filled the screen fields in place
	// (draw.triangle's batched path).
	screened bool
}

func expand5(v uint32) float32 { return float32(v<<3 | v>>2) }
func expand6(v uint32) float32 { return float32(v<<2 | v>>4) }
func expand4(v uint32) float32 { return float32(v * 17) }

// decodeVertex reads vertex data at b (one vertex, all morph targets),
// blending morph targets with MW0-7 (seed L196-218).
func (g *GE) decodeVertex(vt ge.VType, l *ge.Layout, b []byte, v *vertex) {
	if vt.Morphs <= 1 && vt.Weight == ge.FmtNone {
		g.decodeVertex1(vt, l, b, v)
		return
	}
	morphs := max(vt.Morphs, 1)
	var mw [8]float32
	if morphs == 1 {
		mw[0] = 1
	} else {
		for i := 0; i < morphs; i++ {
			mw[i] = ge.FromF24(g.regs[ge.MW0+ge.Op(i)])
		}
	}
	through := vt.Through
	*v = vertex{q: 1, fogd: 1, invW: 1}
	for m := 0; m < morphs; m++ {
		mb := b[m*l.MorphSize:]
		w := mw[m]
		if vt.Weight != ge.FmtNone {
			for k := 0; k < vt.Weights && k < 8; k++ {
				v.wts[k] += float32(w * readNum(mb[l.WeightOff+k*l.WeightSize:], vt.Weight, true, false))
			}
		}
		if vt.TexCoord != ge.FmtNone {
			for k := 0; k < 2; k++ {
				v.uv[k] += float32(w * readNum(mb[l.TexOff+k*l.TexSize:], vt.TexCoord, true, through))
			}
		}
		if vt.Color != ge.FmtNone {
			c := readColor(mb[l.ColorOff:], vt.Color)
			for k := 0; k < 4; k++ {
				v.color[k] += float32(w * c[k])
			}
		}
		if vt.Normal != ge.FmtNone {
			for k := 0; k < 3; k++ {
				v.nrm[k] += float32(w * readNum(mb[l.NormalOff+k*l.NrmSize:], vt.Normal, false, through))
			}
		}
		if vt.Pos != ge.FmtNone {
			for k := 0; k < 3; k++ {
				p := readNum(mb[l.PosOff+k*l.PosSize:], vt.Pos, false, through)
				if through && k == 2 && vt.Pos == ge.Fmt16 {
					// Through-mode depth is an unsigned 16-bit value.
					p = float32(binary.LittleEndian.Uint16(mb[l.PosOff+4:]))
				}
				v.pos[k] += float32(w * p)
			}
		}
	}
	if vt.Color == ge.FmtNone {
		// [OUT] Without a vertex colour the GE uses the material ambient
		// colour and alpha (pspsdk sceGuColor writes AMC/AMA).
		amc, ama := g.regs[ge.AMC], g.regs[ge.AMA]
		v.color = [4]float32{float32(amc & 0xFF), float32(amc >> 8 & 0xFF), float32(amc >> 16 & 0xFF), float32(ama & 0xFF)}
	}
}

// decodeVertex1 is decodeVertex for one morph target and no weights: the
// same sums (0 + 1*value, which turns -0 into +0) without the blending
// loop.
func (g *GE) decodeVertex1(vt ge.VType, l *ge.Layout, b []byte, v *vertex) {
	through := vt.Through
	*v = vertex{q: 1, fogd: 1, invW: 1}
	const w = float32(1)
	if vt.TexCoord != ge.FmtNone {
		v.uv[0] = 0 + float32(w*readNum(b[l.TexOff:], vt.TexCoord, true, through))
		v.uv[1] = 0 + float32(w*readNum(b[l.TexOff+l.TexSize:], vt.TexCoord, true, through))
	}
	if vt.Color != ge.FmtNone {
		c := readColor(b[l.ColorOff:], vt.Color)
		v.color = [4]float32{0 + float32(w*c[0]), 0 + float32(w*c[1]), 0 + float32(w*c[2]), 0 + float32(w*c[3])}
	} else {
		amc, ama := g.regs[ge.AMC], g.regs[ge.AMA]
		v.color = [4]float32{float32(amc & 0xFF), float32(amc >> 8 & 0xFF), float32(amc >> 16 & 0xFF), float32(ama & 0xFF)}
	}
	if vt.Normal != ge.FmtNone {
		for k := 0; k < 3; k++ {
			v.nrm[k] = 0 + float32(w*readNum(b[l.NormalOff+k*l.NrmSize:], vt.Normal, false, through))
		}
	}
	if vt.Pos == ge.FmtFloat {
		p := b[l.PosOff : l.PosOff+12]
		v.pos = [3]float32{
			0 + float32(w*math.Float32frombits(binary.LittleEndian.Uint32(p))),
			0 + float32(w*math.Float32frombits(binary.LittleEndian.Uint32(p[4:]))),
			0 + float32(w*math.Float32frombits(binary.LittleEndian.Uint32(p[8:]))),
		}
	} else if vt.Pos != ge.FmtNone {
		for k := 0; k < 3; k++ {
			p := readNum(b[l.PosOff+k*l.PosSize:], vt.Pos, false, through)
			if through && k == 2 && vt.Pos == ge.Fmt16 {
				p = float32(binary.LittleEndian.Uint16(b[l.PosOff+4:]))
			}
			v.pos[k] = 0 + float32(w*p)
		}
	}
}

// readNum reads one component. In transform mode 8- and 16-bit values are
// fixed point (positions and normals signed, /128 and /32768; texture
// coordinates and weights unsigned, 0x80 = 1.0 and 0x8000 = 1.0); in
// through mode they are raw integers (guide §2.2 [OUT]).
func readNum(b []byte, format int, unsigned, through bool) float32 {
	switch format {
	case ge.Fmt8:
		if unsigned {
			if through {
				return float32(b[0])
			}
			return float32(b[0]) / 128
		}
		if through {
			return float32(int8(b[0]))
		}
		return float32(int8(b[0])) / 128
	case ge.Fmt16:
		v := binary.LittleEndian.Uint16(b)
		if unsigned {
			if through {
				return float32(v)
			}
			return float32(v) / 32768
		}
		if through {
			return float32(int16(v))
		}
		return float32(int16(v)) / 32768
	case ge.FmtFloat:
		return math.Float32frombits(binary.LittleEndian.Uint32(b))
	}
	return 0
}

// readColor decodes a vertex colour; 16-bit formats have red in the low
// bits and widen by bit replication.
func readColor(b []byte, format int) [4]float32 {
	switch format {
	case ge.Color8888:
		return [4]float32{float32(b[0]), float32(b[1]), float32(b[2]), float32(b[3])}
	case ge.Color5650:
		v := uint32(binary.LittleEndian.Uint16(b))
		return [4]float32{expand5(v & 31), expand6(v >> 5 & 63), expand5(v >> 11 & 31), 255}
	case ge.Color5551:
		v := uint32(binary.LittleEndian.Uint16(b))
		return [4]float32{expand5(v & 31), expand5(v >> 5 & 31), expand5(v >> 10 & 31), float32(v>>15) * 255}
	case ge.Color4444:
		v := uint32(binary.LittleEndian.Uint16(b))
		return [4]float32{expand4(v & 15), expand4(v >> 4 & 15), expand4(v >> 8 & 15), expand4(v >> 12 & 15)}
	}
	return [4]float32{}
}

// mul43 multiplies a 4x3 column-major GE matrix by (p, 1). Each product is
// rounded to float32 explicitly so no fused multiply-add changes the bits on
// any architecture.
func mul43(m *[12]float32, p [3]float32) [3]float32 {
	var out [3]float32
	for r := 0; r < 3; r++ {
		out[r] = float32(float32(float32(m[r]*p[0])+float32(m[3+r]*p[1]))+float32(m[6+r]*p[2])) + m[9+r]
	}
	return out
}

// mul33 multiplies by the 3x3 part of a 4x3 matrix (normals).
func mul33(m *[12]float32, p [3]float32) [3]float32 {
	var out [3]float32
	for r := 0; r < 3; r++ {
		out[r] = float32(float32(m[r]*p[0])+float32(m[3+r]*p[1])) + float32(m[6+r]*p[2])
	}
	return out
}

func mul44(m *[16]float32, p [3]float32) [4]float32 {
	var out [4]float32
	for r := 0; r < 4; r++ {
		out[r] = float32(float32(float32(m[r]*p[0])+float32(m[4+r]*p[1]))+float32(m[8+r]*p[2])) + m[12+r]
	}
	return out
}

func dot3(a, b [3]float32) float32 {
	return float32(float32(a[0]*b[0])+float32(a[1]*b[1])) + float32(a[2]*b[2])
}

// normalize returns v/|v| and |v|; a zero vector stays zero.
func normalize(v [3]float32) ([3]float32, float32) {
	l := float32(math.Sqrt(float64(dot3(v, v))))
	if l == 0 || l != l {
		return v, 0
	}
	inv := 1 / l
	return [3]float32{float32(v[0] * inv), float32(v[1] * inv), float32(v[2] * inv)}, l
}

// tnl is the transform state of one PRIM, decided once: which stages run.
type tnl struct {
	lighting bool
	lights   [4]lightState
	nLights  int
	// Material factors (2c+1 per channel, the GE's "half offset" colour
	// arithmetic, [OUT] PPSSPP Lighting.cpp) and which track the vertex
	// colour (CMAT).
	matAmb, matDiff, matSpec [4]int32
	emissive                 [3]int32
	baseAmb                  [4]int32
	cmat                     uint32
	specPow                  float32
	separate                 bool
	needNormal               bool
	texMode, texProj         uint32
	envS, envT               int
	uScale, vScale           float32
	uOff, vOff               float32
	fog                      bool
	fogEnd, fogSlope         float32
	skin                     int // bones used (0 = no skinning)
	rnorm                    bool
}

type lightState struct {
	directional, spot bool
	comp              uint32
	pos, dir          [3]float32
	att               [3]float32
	spotExp, spotCut  float32
	amb, diff, spec   [4]int32
}

func factor(rgb uint32, a uint32) [4]int32 {
	return [4]int32{int32(rgb&0xFF)*2 + 1, int32(rgb>>8&0xFF)*2 + 1, int32(rgb>>16&0xFF)*2 + 1, int32(a)*2 + 1}
}

func f24(g *GE, op ge.Op) float32 { return ge.FromF24(g.regs[op]) }

// setupTnL decides the vertex stages of a PRIM in transform mode.
func (g *GE) setupTnL(vt ge.VType, t *tnl) {
	*t = tnl{}
	t.lighting = g.regs[ge.LTE]&1 != 0
	t.rnorm = g.regs[ge.RNORM]&1 != 0
	if vt.Weight != ge.FmtNone {
		t.skin = min(max(vt.Weights, 1), 8)
	}
	tmap := g.regs[ge.TMAP]
	t.texMode, t.texProj = tmap&3, tmap>>8&3
	shade := g.regs[ge.TEXSHADE]
	t.envS, t.envT = int(shade&3), int(shade>>8&3)
	t.uScale, t.vScale = f24(g, ge.USCALE), f24(g, ge.VSCALE)
	t.uOff, t.vOff = f24(g, ge.UOFFSET), f24(g, ge.VOFFSET)
	t.fog = g.regs[ge.FGE]&1 != 0
	t.fogEnd, t.fogSlope = f24(g, ge.FFAR), f24(g, ge.FDIST)
	if t.lighting {
		t.cmat = g.regs[ge.CMAT] & 7
		if vt.Color == ge.FmtNone {
			t.cmat = 0
		}
		t.matAmb = factor(g.regs[ge.AMC], g.regs[ge.AMA]&0xFF)
		t.matDiff = factor(g.regs[ge.DMC], 0)
		t.matSpec = factor(g.regs[ge.SMC], 0)
		e := g.regs[ge.EMC]
		t.emissive = [3]int32{int32(e & 0xFF), int32(e >> 8 & 0xFF), int32(e >> 16 & 0xFF)}
		t.baseAmb = factor(g.regs[ge.ALC], g.regs[ge.ALA]&0xFF)
		t.specPow = f24(g, ge.SPOW)
		t.separate = g.regs[ge.LMODE]&1 != 0
		for i := 0; i < 4; i++ {
			if g.regs[ge.LTE0+ge.Op(i)]&1 == 0 {
				continue
			}
			lt := g.regs[ge.LT0+ge.Op(i)]
			ls := &t.lights[t.nLights]
			t.nLights++
			ls.comp = lt & 3
			typ := lt >> 8 & 3
			ls.directional = typ == 0
			ls.spot = typ >= 2 // [OUT] type 3 behaves like spot
			for k := 0; k < 3; k++ {
				ls.pos[k] = f24(g, ge.LXP0+ge.Op(3*i+k))
				ls.dir[k] = f24(g, ge.LXD0+ge.Op(3*i+k))
				ls.att[k] = f24(g, ge.LCA0+ge.Op(3*i+k))
			}
			if ls.directional {
				ls.pos, _ = normalize(ls.pos)
			}
			ls.spotExp = f24(g, ge.SPOTEXP0+ge.Op(i))
			ls.spotCut = f24(g, ge.SPOTCUT0+ge.Op(i))
			ls.amb = factor(g.regs[ge.ALC0+ge.Op(3*i)], 0)
			ls.diff = factor(g.regs[ge.ALC0+ge.Op(3*i+1)], 0)
			ls.spec = factor(g.regs[ge.ALC0+ge.Op(3*i+2)], 0)
		}
	}
	t.needNormal = t.lighting || t.texMode == 2 || (t.texMode == 1 && t.texProj >= 2)
}

// transform runs the GE's vertex stages on a decoded vertex (transform
// mode): skinning, WORLD, VIEW, PROJ, lighting in world space, texture
// coordinate generation and the fog depth.
func (g *GE) transform(t *tnl, v *vertex) {
	pos, nrm := v.pos, v.nrm
	if t.skin > 0 {
		// Skinning: sum of weight x BONE_i x position (guide §2.2, seed
		// L188-194); the result then goes through WORLD.
		var sp, sn [3]float32
		for i := 0; i < t.skin; i++ {
			w := v.wts[i]
			if w == 0 {
				continue
			}
			bone := (*[12]float32)(g.bones[12*i : 12*i+12])
			p := mul43(bone, pos)
			n := mul33(bone, nrm)
			for k := 0; k < 3; k++ {
				sp[k] += float32(w * p[k])
				sn[k] += float32(w * n[k])
			}
		}
		pos, nrm = sp, sn
	}
	world := mul43(&g.world, pos)
	view := mul43(&g.view, world)
	v.clip = mul44(&g.proj, view)
	if t.fog {
		// [OUT] PPSSPP TransformUnit: fog depth = (z_view + FFAR) * FDIST,
		// GL's LINEAR fog on eye depth.
		v.fogd = float32(float32(view[2]+t.fogEnd) * t.fogSlope)
	}
	var wn [3]float32
	if t.needNormal {
		wn = mul33(&g.world, nrm)
		if t.rnorm {
			wn = [3]float32{-wn[0], -wn[1], -wn[2]}
		}
		if n, l := normalize(wn); l != 0 {
			wn = n
		} else {
			wn = [3]float32{0, 0, 1}
		}
	}
	// Texture coordinates.
	switch t.texMode {
	case 1: // texture matrix (seed L706-715)
		var src [3]float32
		switch t.texProj {
		case 0:
			src = pos
		case 1:
			src = [3]float32{v.uv[0], v.uv[1], 0}
		case 2:
			src, _ = normalize(nrm)
		default:
			src = nrm
		}
		stq := mul43(&g.tmat, src)
		v.s, v.t, v.q = stq[0], stq[1], stq[2]
	case 2: // environment map from the lights named by TEXSHADE
		v.s = t.shadeCoord(g, t.envS, world, wn)
		v.t = t.shadeCoord(g, t.envT, world, wn)
	default:
		v.s = float32(v.uv[0]*t.uScale) + t.uOff
		v.t = float32(v.uv[1]*t.vScale) + t.vOff
	}
	if t.lighting {
		g.light(t, v, world, wn)
	}
}

// shadeCoord is one environment-map coordinate: (N.L + 1) / 2 for the
// light's direction L (towards the light), as PPSSPP's GenerateLightST
// computes it [OUT].
func (t *tnl) shadeCoord(g *GE, l int, world, n [3]float32) float32 {
	var L [3]float32
	for k := 0; k < 3; k++ {
		L[k] = f24(g, ge.LXP0+ge.Op(3*l+k))
	}
	if g.regs[ge.LT0+ge.Op(l)]>>8&3 != 0 {
		for k := 0; k < 3; k++ {
			L[k] -= world[k]
		}
	}
	L, _ = normalize(L)
	return float32(dot3(L, n)+1) * 0.5
}

// light evaluates the GE lighting equation in world space ([OUT] PPSSPP
// Lighting.cpp): colours are 8-bit, combined as (2a+1)(2b+1)>>10, scaled by
// the float diffuse, specular, attenuation and spot factors with
// truncation; the viewer is at infinity on +Z.
func (g *GE) light(t *tnl, v *vertex, world, n [3]float32) {
	var vc [4]int32
	for k := 0; k < 4; k++ {
		vc[k] = int32(clampF(float64(v.color[k]), 0, 255)+0.5)*2 + 1
	}
	mac, mdc, msc := t.matAmb, t.matDiff, t.matSpec
	if t.cmat&1 != 0 {
		mac = vc
	}
	if t.cmat&2 != 0 {
		mdc = vc
	}
	if t.cmat&4 != 0 {
		msc = vc
	}
	var sum [4]int32
	for k := 0; k < 3; k++ {
		sum[k] = t.emissive[k] + mac[k]*t.baseAmb[k]>>10
	}
	sum[3] = mac[3] * t.baseAmb[3] >> 10
	var spec [3]int32
	for i := 0; i < t.nLights; i++ {
		ls := &t.lights[i]
		L := ls.pos
		att, spot := float32(1), float32(1)
		if !ls.directional {
			for k := 0; k < 3; k++ {
				L[k] -= world[k]
			}
			d2 := dot3(L, L)
			var d float32
			L, d = normalize(L)
			if d == 0 {
				L = [3]float32{0, 0, 1}
			}
			den := float32(ls.att[0]+float32(ls.att[1]*d)) + float32(ls.att[2]*d2)
			att = 0
			if den > 0 {
				att = min(1/den, 1)
			}
		}
		if ls.spot {
			dir, _ := normalize(ls.dir)
			raw := dot3(dir, L)
			if raw >= ls.spotCut {
				spot = pow(raw, ls.spotExp)
			} else {
				spot = 0
			}
		}
		scale := func(c [4]int32, f float32) [4]int32 {
			if f < 1 {
				for k := 0; k < 3; k++ {
					c[k] = int32(float32(float32(c[k]) * f))
				}
			}
			return c
		}
		var amb [4]int32
		for k := 0; k < 3; k++ {
			amb[k] = ls.amb[k] * mac[k] >> 10
		}
		amb = scale(scale(amb, att), spot)
		for k := 0; k < 3; k++ {
			sum[k] += amb[k]
		}
		nl := dot3(L, n)
		df := nl
		if ls.comp == 2 {
			df = pow(nl, t.specPow)
		}
		if df > 0 {
			var dc [4]int32
			for k := 0; k < 3; k++ {
				dc[k] = ls.diff[k] * mdc[k] >> 10
			}
			dc = scale(scale(scale(dc, df), att), spot)
			for k := 0; k < 3; k++ {
				sum[k] += dc[k]
			}
		}
		if ls.comp == 1 && nl >= 0 {
			h := [3]float32{L[0], L[1], L[2] + 1}
			if hn, l := normalize(h); l != 0 {
				h = hn
			} else {
				h = [3]float32{0, 0, 1}
			}
			sf := pow(dot3(h, n), t.specPow)
			if sf > 0 {
				var sc [4]int32
				for k := 0; k < 3; k++ {
					sc[k] = ls.spec[k] * msc[k] >> 10
				}
				sc = scale(scale(scale(sc, sf), att), spot)
				for k := 0; k < 3; k++ {
					spec[k] += sc[k]
				}
			}
		}
	}
	if !t.separate {
		for k := 0; k < 3; k++ {
			sum[k] += spec[k]
			spec[k] = 0
		}
	}
	for k := 0; k < 4; k++ {
		v.color[k] = float32(min(max(sum[k], 0), 255))
	}
	for k := 0; k < 3; k++ {
		v.spec[k] = float32(min(max(spec[k], 0), 255))
	}
}

// pow is x^e for the lighting exponents: a negative or NaN base gives 0,
// e = 0 gives 1.
func pow(x, e float32) float32 {
	if e == 0 {
		return 1
	}
	if !(x > 0) {
		return 0
	}
	return float32(math.Pow(float64(x), float64(e)))
}

// toScreen maps a clip-space vertex through the viewport into 12.4 fixed
// point relative to OFFSETX/OFFSETY. Positions are clamped to ±32768
// pixels so that absurd inputs cannot overflow the rasteriser.
func (g *GE) toScreen(v *vertex) {
	w := v.clip[3]
	inv := 1 / w
	nx, ny, nz := float32(v.clip[0]*inv), float32(v.clip[1]*inv), float32(v.clip[2]*inv)
	sx := float32(nx*ge.FromF24(g.regs[ge.XSCALE])) + ge.FromF24(g.regs[ge.XPOS])
	sy := float32(ny*ge.FromF24(g.regs[ge.YSCALE])) + ge.FromF24(g.regs[ge.YPOS])
	sz := float32(nz*ge.FromF24(g.regs[ge.ZSCALE])) + ge.FromF24(g.regs[ge.ZPOS])
	v.sx = fixed(sx) - int64(g.regs[ge.OFFSETX]&0xFFFF)
	v.sy = fixed(sy) - int64(g.regs[ge.OFFSETY]&0xFFFF)
	v.sz = int64(clampF(float64(sz), 0, 65535) + 0.5)
	v.invW = float64(inv)
	if inv != inv || math.IsInf(float64(inv), 0) {
		v.invW = 0
	}
	g.roundColor(v)
}

func (g *GE) throughScreen(v *vertex) {
	v.sx = fixed(v.pos[0])
	v.sy = fixed(v.pos[1])
	v.sz = int64(clampF(float64(v.pos[2]), 0, 65535) + 0.5)
	v.s, v.t, v.q = v.uv[0], v.uv[1], 1
	v.invW = 1
	g.roundColor(v)
}

func (g *GE) roundColor(v *vertex) {
	for k := 0; k < 4; k++ {
		v.c[k] = int64(clampF(float64(v.color[k]), 0, 255) + 0.5)
	}
	for k := 0; k < 3; k++ {
		v.c2[k] = int64(clampF(float64(v.spec[k]), 0, 255) + 0.5)
	}
}

// clampF clamps v to [lo, hi], NaN to lo. (It differs from
// math.Max(lo, math.Min(hi, v)) only in the sign of a zero, which no
// caller can see: each adds 0.5 or rounds.)
func clampF(v, lo, hi float64) float64 {
	if !(v > lo) {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// fixed converts screen pixels to 12.4 fixed point, rounding to nearest.
func fixed(f float32) int64 {
	return int64(math.Floor(clampF(float64(f), -32768, 32767)*16 + 0.5))
}
