package pica

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sync"

	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/sim/raster"
)

// The span pipeline: a triangle's row is shaded a chunk of up to spanN
// pixels at a time, one stage after the other (interpolation, texture
// units, combiners, alpha test, fog, depth and stencil, colour), instead
// of one pixel at a time through every stage. The stages a draw needs,
// and the specialised form of each (an RGBA8 repeat bilinear fetch, the
// MODULATE combiner, SRC_ALPHA blending into RGBA8), are chosen once when
// the pixel state is decoded (spanPlan); what no specialised form covers
// runs the reference's own per-pixel function inside the stage's loop.
//
// The result is the reference's (shadeRef, shadePixel, fragmentPixel), bit
// for bit: interpolation is the same float64 arithmetic in the same order,
// the stages before depth and colour have no side effect, and the stages
// with side effects run the pixels in x order. Depth and stencil run
// before texturing when the alpha test is off (their result cannot depend
// on the colour), so hidden pixels are not textured. A state whose
// textures or buffers overlap (a pixel's write could feed a later pixel's
// read) takes the reference path (pixelState.aliased).
// TestSpanPathMatchesReference compares the two over random states,
// triangles and memory.
const spanN = 64

// spanBuf carries one chunk's fragments between the stages; each worker
// owns one.
type spanBuf struct {
	live  [spanN]bool
	depth [spanN]float64 // in [0, 1]: fog reads it
	zq    [spanN]uint32  // quantised: the depth test reads it
	q     [spanN]float64 // interpolated 1/w, for the LOD
	col   [spanN][4]uint8
	tc    [3][spanN][2]float64 // texture coordinate sets
	txy   [3][spanN][2]int32   // a fastRepeat unit's integer texel coordinates
	tex   [3][spanN][4]uint8
	out   [spanN][4]uint8
	wt    weightTabs // the worker's weight tables (wtab.go)
}

// spanPlan is the per-draw choice of stages, decided from the pixel state.
type spanPlan struct {
	needZ     bool    // the depth value is read (test, write or fog)
	needTC    [3]bool // texture coordinate sets interpolated
	texSet    [3]int  // the coordinate set a unit reads
	texInt    [3]bool // the unit is read and fastRepeat: integer coordinates
	stepOK    bool    // affine triangles may be stepped (stepper)
	early     bool    // depth and stencil run before texturing
	zFast     bool    // depth stage without stencil (depthSpan)
	modulate  bool    // the combiners are texture 0 x primary colour
	replace   bool    // the combiners output one source each for RGB and alpha
	repRGB    int     // replace's sources: -1 constant, 0-2 texture unit, 3 primary
	repA      int
	konst     [4]uint8
	srcAlpha  bool    // SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD into RGBA8, full mask
	copyRGBA8 bool    // blend copy into RGBA8
	noColor   bool    // nothing is written to the colour buffer
	texFast   [3]bool // unit's fetch is bilinear or nearest RGBA8 repeat
	texUsed   [3]bool // a combiner stage reads the unit
	gouraud   bool    // stepped chunks take the fused Gouraud path (fused.go)
	zKind     int     // and its depth form
	konstOnly bool    // the combiners output pl.konst alone
	texBlend  bool    // the fused texture path (fused.go)
	texFused  bool    // stepped chunks take the fused textured chunk (fusedtex.go)
	// pxOff[x] is pixel x's offset in pixels from its row's first pixel
	// in a tiled buffer (the 8x8 tile and the Morton bits of x).
	pxOff []int32
}

// plan decides the stages of the span pipeline for ps.
func (ps *pixelState) plan() {
	pl := &ps.span
	pl.pxOff = pxOffsets(ps.width)
	dcm := ps.dcm
	pl.needZ = ps.fogMode == 5 || dcm&1 != 0 || ps.stencil&1 != 0 && ps.stRead ||
		dcm>>12&1 != 0 && ps.depthWrite && ps.depthBuf != nil
	for u := 0; u < 3; u++ {
		if ps.tex[u].enabled {
			k := u
			if u == 2 && ps.tc2from1 {
				k = 1
			}
			pl.texSet[u] = k
			if pl.texFast[u] = ps.tex[u].fastRepeat(); pl.texFast[u] {
				ps.tex[u].offsets()
			}
		}
	}
	// A unit no active combiner stage reads is not sampled: sampling has
	// no side effect.
	for st := 0; st < ps.tevActive && !ps.tevPrimary; st++ {
		src := ps.tev[st].src
		for k := uint(0); k < 3; k++ {
			for _, code := range []uint32{src >> (4 * k) & 0xF, src >> (16 + 4*k) & 0xF} {
				if code >= 3 && code <= 5 {
					pl.texUsed[code-3] = true
				}
			}
		}
	}
	// A unit read through fetchRepeatSpan needs integer coordinates only,
	// the others their coordinate set (and 1/w for the LOD). Stepping
	// covers colours, quantised depth and integer coordinates: not fog
	// (it reads the depth unquantised) nor a unit with a LOD.
	pl.stepOK = ps.fogMode != 5
	for u := 0; u < 3; u++ {
		if !ps.tex[u].enabled || !pl.texUsed[u] {
			continue
		}
		if pl.texFast[u] {
			pl.texInt[u] = true
		} else {
			pl.stepOK = false
		}
		pl.needTC[pl.texSet[u]] = true
	}
	pl.early = ps.alphaTest&1 == 0
	pl.zFast = !(ps.stencil&1 != 0 && ps.stRead)
	// MODULATE: stage 0 multiplies texture 0 by the primary colour (source
	// 0, or 15, "previous", which stage 0 reads as the primary colour), in
	// either order, for RGB and alpha; the other stages pass.
	t0 := &ps.tev[0]
	texPrim := func(src uint32) bool {
		a, b := src&0xF, src>>4&0xF
		if a != 3 {
			a, b = b, a
		}
		return a == 3 && (b == 0 || b == 15)
	}
	pl.modulate = ps.tevActive == 1 && ps.tex[0].enabled && t0.op == 0 && t0.fn == 1|1<<16 && t0.scale == 0 &&
		texPrim(t0.src) && texPrim(t0.src>>16)
	// REPLACE: stage 0 outputs its first RGB and alpha sources unchanged
	// (operand 0, function 0, scale 1); the other stages pass.
	source := func(code uint32) (int, bool) {
		switch {
		case code == 0 || code == 15:
			return 3, true
		case code == 14:
			return -1, true
		case code >= 3 && code <= 5 && ps.tex[code-3].enabled:
			return int(code - 3), true
		}
		return 0, false
	}
	if ps.tevActive == 1 && t0.fn == 0 && t0.op&0xF == 0 && t0.op>>12&7 == 0 && t0.scale&3 == 0 && t0.scale>>16&3 == 0 {
		var ok1, ok2 bool
		pl.repRGB, ok1 = source(t0.src & 0xF)
		pl.repA, ok2 = source(t0.src >> 16 & 0xF)
		pl.replace, pl.konst = ok1 && ok2, t0.konst
	}
	pl.noColor = !ps.colorWrite || dcm>>8&0xF == 0
	full := dcm>>8&0xF == 0xF && ps.colorFmt == p.ColorRGBA8
	pl.copyRGBA8 = full && ps.blendCopy
	bf := ps.blendFunc
	pl.srcAlpha = full && ps.blend && bf>>16 == 0x7676 && (bf&7 == 0 || bf&7 >= 5) && (bf>>8&7 == 0 || bf>>8&7 >= 5)
	ps.fusedPlan()
	ps.texBlendPlan()
}

// pxOffsets returns the pxOff table of a buffer width pixels wide; the
// tables are shared (read only).
func pxOffsets(width int) []int32 {
	pxOffMu.Lock()
	defer pxOffMu.Unlock()
	if t, ok := pxOffTables[width]; ok {
		return t
	}
	t := make([]int32, width)
	for x := range t {
		t[x] = int32((x&^7)*8 + mortonX[x&7])
	}
	pxOffTables[width] = t
	return t
}

var (
	pxOffMu     sync.Mutex
	pxOffTables = map[int][]int32{}
)

// fastRepeat reports whether the unit's fetch is one level, one filter,
// RGBA8, repeat on both axes, with power-of-two sides: the texels of
// fetchRepeat.
func (t *texUnit) fastRepeat() bool {
	pow2 := func(n int) bool { return n&(n-1) == 0 }
	return t.maxLevel == 0 && t.min == t.mag && t.format == p.TexRGBA8 &&
		t.wrapS == 2 && t.wrapT == 2 && pow2(t.width) && pow2(t.height)
}

// offsets fills the unit's texel offset tables: the texel (s, t) of a
// fastRepeat unit is word rowOff[t] + colOff[s] of its data (texelAt's
// tiling, with the row flip).
func (t *texUnit) offsets() {
	t.colOff = make([]int32, t.width)
	t.rowOff = make([]int32, t.height)
	for x := range t.colOff {
		t.colOff[x] = int32((x>>3)*64 + mortonX[x&7])
	}
	for y := range t.rowOff {
		row := t.height - 1 - y
		t.rowOff[y] = int32((row>>3)*t.width*8 + mortonY[row&7])
	}
}

// flatColor returns the channels of the primary colour that every pixel
// of the triangle gets unchanged (bit k for channel k), and their values:
// the three vertex values are equal, the perspective weights are positive
// and finite, so the interpolated value is the vertex's within a few units
// in the last place, and the vertex's value times 255 lies far enough from
// a rounding boundary (a half) that those units cannot change q8's result.
func flatColor(pr *prim) (uint8, [4]uint8) {
	v := &pr.v
	var c [4]uint8
	for i := range v {
		if w := v[i].invW; !(w > 1e-30 && w < 1e30) {
			return 0, c
		}
	}
	var mask uint8
	for k, a := range v[0].color {
		x := float64(a) * 255
		if a != v[1].color[k] || a != v[2].color[k] || !(a >= 0 && a <= 1) || math.Abs(x-math.Floor(x)-0.5) < 1e-6 {
			continue
		}
		mask |= 1 << k
		c[k] = q8(float64(a))
	}
	return mask, c
}

// flatDepth reports whether every pixel of the triangle gets the same
// depth value, and which: the three vertex depths are equal, and the
// value is so far from a quantisation step (an integer after scaling by
// 2^bits - 1) or from the clamp at 0 and 1 that the interpolation's few
// units in the last place (the weights sum to 1 within them) cannot change
// what the depth test compares or writes. Fog reads the unquantised
// value: a state with fog never takes it.
func flatDepth(ps *pixelState, pr *prim) (bool, float64) {
	v := &pr.v
	z := v[0].z
	if ps.fogMode == 5 || z != v[1].z || z != v[2].z || z != z {
		return false, 0
	}
	switch {
	case z < -1e-9:
		return true, 0
	case z > 1+1e-9:
		return true, 1
	case z <= 0 || z >= 1:
		return false, 0
	}
	x := z * float64(uint32(1)<<ps.depthFmt.Bits()-1)
	if f := x - math.Floor(x); f < 1e-6 || f > 1-1e-6 {
		return false, 0
	}
	return true, z
}

// affine reports whether the stepper may interpolate the triangle: its
// three 1/w are equal, positive and finite, and so is every value.
func affine(pr *prim) bool {
	v := &pr.v
	w := v[0].invW
	if !(w > 0 && w < math.MaxFloat64) || v[1].invW != w || v[2].invW != w {
		return false
	}
	// Every value is finite when x - x is 0 for x, each value's
	// magnitude (at most 2^128 for the float32 ones) scaled by 2^-200 and
	// summed: a NaN or an infinity makes the sum NaN or infinite, and
	// finite values cannot reach infinity.
	const sc = 0x1p-200
	sum := math.Abs(v[0].z)*sc + math.Abs(v[1].z)*sc + math.Abs(v[2].z)*sc
	for i := range v {
		c, t := &v[i].color, &v[i].tc
		sum += math.Abs(float64(c[0])) + math.Abs(float64(c[1])) + math.Abs(float64(c[2])) + math.Abs(float64(c[3])) +
			math.Abs(float64(t[0][0])) + math.Abs(float64(t[0][1])) + math.Abs(float64(t[1][0])) +
			math.Abs(float64(t[1][1])) + math.Abs(float64(t[2][0])) + math.Abs(float64(t[2][1]))
	}
	return sum-sum == 0
}

// shadeSpans is the fast path: the primitive's pixels inside clip through
// the span pipeline.
func (g *GPU) shadeSpans(ps *pixelState, wk *worker, pr *prim, clip raster.Rect) {
	if cap(wk.spans) == 0 {
		wk.spans = make([]raster.Span, 0, 64)
	}
	// The stepper's gradients depend on the triangle alone (a span's DX
	// is the triangle's edge steps): computed for its first stepped row.
	var st stepper
	have := false
	for {
		spans := pr.tri.Spans(clip, wk.spans[:0])
		for i := range spans {
			shadeRow(ps, wk, pr, &spans[i], &st, &have)
		}
		if len(spans) < cap(spans) {
			return
		}
		clip.Y0 = spans[len(spans)-1].Y + 1
	}
}

// allLive is a chunk's live flags before any test.
var allLive = func() (a [spanN]bool) {
	for i := range a {
		a[i] = true
	}
	return a
}()

// shadeRow shades one row span of the primitive through the span
// pipeline; st holds the triangle's gradients when have is set (set here
// when it computes them).
func shadeRow(ps *pixelState, wk *worker, pr *prim, s *raster.Span, st *stepper, have *bool) {
	sb := &wk.sb
	e := s.E
	pl := &ps.span
	// constant: every quantity the stages read is the same at every
	// pixel (a flat colour, no depth or a flat one, no texture
	// coordinates): interpolate would store the same values.
	constant := pr.flat == 0xF && (!pl.needZ || pr.flatZ) && !pl.needTC[0] && !pl.needTC[1] && !pl.needTC[2]
	var zq uint32
	if constant && pl.needZ {
		zq = ps.quantizeDepth(pr.depth)
	}
	stepping := !constant && pr.affine && pl.stepOK && s.X1-s.X0 >= minStepSpan
	if stepping && !*have {
		st.gradients(ps, pr, &s.DX)
		*have = true
	}
	// The fused path needs every pixel live: a row the scissor's
	// excluded box crosses takes the stages.
	fused := stepping && (pl.gouraud || pl.texFused) && !fusedOff
	if fused && ps.scissor == 1 {
		wrow := ps.height - 1 - s.Y
		fused = wrow < ps.sy1 || wrow > ps.sy2 || s.X1 <= ps.sx1 || s.X0 > ps.sx2
	}
	for x0, n := s.X0, 0; x0 < s.X1; x0 += n {
		if fused {
			// Chunks after the first start a tile row (lanes.store).
			n = min(fusedN-x0&7, s.X1-x0)
			if st.fusedChunk(ps, pr, sb, &e, &s.DX, n, x0, s.Y) {
				wk.pixels += int64(n)
				e = [3]int64{e[0] + int64(n)*s.DX[0], e[1] + int64(n)*s.DX[1], e[2] + int64(n)*s.DX[2]}
				continue
			}
		}
		n = min(spanN, s.X1-x0)
		copy(sb.live[:n], allLive[:n])
		live := n
		if ps.scissor == 1 {
			wrow := ps.height - 1 - s.Y
			if wrow >= ps.sy1 && wrow <= ps.sy2 {
				for i := 0; i < n; i++ {
					if x := x0 + i; x >= ps.sx1 && x <= ps.sx2 {
						sb.live[i] = false
						live--
					}
				}
			}
		}
		wk.pixels += int64(live)
		switch {
		case constant:
			c := pr.color
			for i := 0; i < n; i++ {
				sb.col[i] = c
			}
			if pl.needZ {
				for i := 0; i < n; i++ {
					sb.depth[i], sb.zq[i] = pr.depth, zq
				}
			}
		case !stepping || !st.chunk(ps, pr, sb, &e, &s.DX, n):
			interpolate(ps, pr, sb, e, &s.DX, 0, n)
		}
		e = [3]int64{e[0] + int64(n)*s.DX[0], e[1] + int64(n)*s.DX[1], e[2] + int64(n)*s.DX[2]}
		shadeChunk(ps, pr, sb, n, x0, s.Y)
	}
}

// interpolate fills pixels [i0, i1) of the chunk: depth, 1/w, colours and
// texture coordinates, with shadePixel's arithmetic, and the quantities
// the stages read derived from them as the reference derives them: the
// quantised depth, and the integer texel coordinates of fastRepeat units.
// e holds the edge values at the chunk's first pixel.
func interpolate(ps *pixelState, pr *prim, sb *spanBuf, e [3]int64, dx *[3]int64, i0, i1 int) {
	pl := &ps.span
	area := pr.area
	v := &pr.v
	z0, z1, z2 := v[0].z, v[1].z, v[2].z
	iw0, iw1, iw2 := v[0].invW, v[1].invW, v[2].invW
	e0, e1, e2 := e[0]+int64(i0)*dx[0], e[1]+int64(i0)*dx[1], e[2]+int64(i0)*dx[2]
	zPer := pl.needZ && !pr.flatZ
	if pl.needZ && pr.flatZ {
		zq := ps.quantizeDepth(pr.depth)
		for i := i0; i < i1; i++ {
			sb.depth[i], sb.zq[i] = pr.depth, zq
		}
	}
	var c0, c1, c2 [4]float64
	for k := 0; k < 4; k++ {
		c0[k], c1[k], c2[k] = float64(v[0].color[k]), float64(v[1].color[k]), float64(v[2].color[k])
	}
	flat := pr.flat
	if flat != 0 {
		c := pr.color
		for i := i0; i < i1; i++ {
			sb.col[i] = c
		}
	}
	var tcs [3][3][2]float64 // coordinate set, vertex, s/t
	for u := 0; u < 3; u++ {
		for j := 0; j < 3; j++ {
			tcs[u][j] = [2]float64{float64(v[j].tc[u][0]), float64(v[j].tc[u][1])}
		}
	}
	for i := i0; i < i1; i++ {
		w0, w1, w2 := float64(e0)/area, float64(e1)/area, float64(e2)/area
		e0, e1, e2 = e0+dx[0], e1+dx[1], e2+dx[2]
		if zPer {
			z := float64(w0*z0) + float64(w1*z1) + float64(w2*z2)
			d := max(0, min(1, z))
			sb.depth[i], sb.zq[i] = d, ps.quantizeDepth(d)
		}
		p0, p1, p2 := float64(w0*iw0), float64(w1*iw1), float64(w2*iw2)
		q := p0 + p1 + p2
		sb.q[i] = q
		norm := 1 / q
		p0, p1, p2 = p0*norm, p1*norm, p2*norm
		if flat != 0xF {
			c := &sb.col[i]
			if flat&1 == 0 {
				c[0] = q8Fast(float64(p0*c0[0]) + float64(p1*c1[0]) + float64(p2*c2[0]))
			}
			if flat&2 == 0 {
				c[1] = q8Fast(float64(p0*c0[1]) + float64(p1*c1[1]) + float64(p2*c2[1]))
			}
			if flat&4 == 0 {
				c[2] = q8Fast(float64(p0*c0[2]) + float64(p1*c1[2]) + float64(p2*c2[2]))
			}
			if flat&8 == 0 {
				c[3] = q8Fast(float64(p0*c0[3]) + float64(p1*c1[3]) + float64(p2*c2[3]))
			}
		}
		for k := 0; k < 3; k++ {
			if pl.needTC[k] {
				t := &tcs[k]
				sb.tc[k][i] = [2]float64{float64(p0*t[0][0]) + float64(p1*t[1][0]) + float64(p2*t[2][0]),
					float64(p0*t[0][1]) + float64(p1*t[1][1]) + float64(p2*t[2][1])}
			}
		}
		for u := 0; u < 3; u++ {
			if pl.texInt[u] {
				tc := &sb.tc[pl.texSet[u]][i]
				t := &ps.tex[u]
				w, h := float64(t.width), float64(t.height)
				if t.mag == 0 {
					sb.txy[u][i] = [2]int32{int32(floorFast(tc[0] * w)), int32(floorFast(tc[1] * h))}
				} else {
					sb.txy[u][i] = [2]int32{int32(floorFast(tc[0]*w*256 - 128)), int32(floorFast(tc[1]*h*256 - 128))}
				}
			}
		}
	}
}

// Exact stepping of affine triangles. When a triangle's three 1/w are
// equal (no perspective), every quantity a pixel takes from the
// interpolation (a colour channel rounded to 8 bits, the quantised depth,
// a texel coordinate floor(u*w*256 - 128)) is floor(X) of a value X that
// is affine along a row. The reference computes X in float64 with a few
// roundings; the stepper starts each chunk from the reference's own value
// at its first pixel and adds a 32.32 fixed-point step per pixel. Both
// stay within 40 units in the last place of the largest vertex value of
// the true affine X (the weights are non-negative and sum to 1; a step's
// error times the pixels stepped is bounded by the weights' change, at
// most 1), so wherever the stepped X lies further than margin from an
// integer, both floors agree; a pixel nearer is interpolated exactly
// (interpolate). margin is 1e-12 of the value's scale plus the fixed
// point's own rounding, over a hundred times the bound.
//
// minStepSpan is the shortest row worth the per-row set-up.
const minStepSpan = 8

// stepN bounds the pixels stepped from one exact value: the margins allow
// for a truncated step's error over that many (the span pipeline's chunks
// are spanN, the fused path's up to fusedN).
const stepN = 256

// stepQ is one stepped quantity over a chunk: X = x0 + i*dx in 32.32
// fixed point, margin in the same units, out clamps floor(X).
type stepQ struct {
	x0, dx int64
	margin uint32
}

// stepper holds a row's per-pixel changes of the stepped quantities,
// scaled: colours (x255, +0.5 for rounding to nearest), depth (x
// 2^bits-1) and the texel coordinates of fastRepeat units.
type stepper struct {
	gCol [4]float64
	// colM is each colour channel's margin for stepQ.setup (its scale
	// 255 times the largest vertex value, offset 0.5: the triangle's own),
	// colOK whether its gradient and margin fit the fixed point.
	colM  [4]uint32
	colOK [4]bool
	gZ    float64
	gTex  [3][2]float64
	scale [3][2]float64 // texel coordinate scale (w*256 or w)
	off   [3][2]float64 // and offset (-128 or 0)
	zs    float64
}

// stepForce, when non-zero, widens every margin (tests: it sends pixels
// through the exact fallback).
var stepForce uint32

// fusedOff, when set, sends every chunk through the stages (tests and
// benchmarks: the staged path beside the fused one).
var fusedOff bool

// gradients computes the row's changes per pixel from the edge steps dx.
func (st *stepper) gradients(ps *pixelState, pr *prim, dx *[3]int64) {
	pl := &ps.span
	v := &pr.v
	var dl [3]float64
	for i := range dl {
		dl[i] = float64(dx[i]) / pr.area
	}
	dot := func(a, b, c float64) float64 { return dl[0]*a + dl[1]*b + dl[2]*c }
	for k := 0; k < 4; k++ {
		st.gCol[k] = 255 * dot(float64(v[0].color[k]), float64(v[1].color[k]), float64(v[2].color[k]))
		c0, c1, c2 := float64(v[0].color[k]), float64(v[1].color[k]), float64(v[2].color[k])
		st.colM[k], st.colOK[k] = stepMargin(st.gCol[k], 255*max(math.Abs(c0), math.Abs(c1), math.Abs(c2)), 0.5)
	}
	st.zs = float64(uint32(1)<<ps.depthFmt.Bits() - 1)
	st.gZ = st.zs * dot(v[0].z, v[1].z, v[2].z)
	for u := 0; u < 3; u++ {
		if !pl.texInt[u] {
			continue
		}
		t, k := &ps.tex[u], pl.texSet[u]
		st.scale[u] = [2]float64{float64(t.width), float64(t.height)}
		st.off[u] = [2]float64{}
		if t.mag != 0 {
			st.scale[u] = [2]float64{float64(t.width) * 256, float64(t.height) * 256}
			st.off[u] = [2]float64{-128, -128}
		}
		for c := 0; c < 2; c++ {
			st.gTex[u][c] = st.scale[u][c] * dot(float64(v[0].tc[k][c]), float64(v[1].tc[k][c]), float64(v[2].tc[k][c]))
		}
	}
}

// setup prepares one quantity from its exact value x at the chunk's first
// pixel (scaled, offset), its step g and its scale times the largest
// vertex value, c; it reports false when the chunk's values could leave
// the fixed-point range.
func (q *stepQ) setup(x, g, c, off float64) bool {
	m, ok := stepMargin(g, c, off)
	return ok && q.setupM(x, g, m)
}

// stepMargin returns the margin of a quantity of step g, scale times the
// largest vertex value c and offset off (setup's), and whether g and the
// margin fit the fixed point: they are the triangle's, the same for every
// chunk.
func stepMargin(g, c, off float64) (uint32, bool) {
	const one = 1 << 32
	m := (1e-12*(c+math.Abs(off)+1))*one + stepN + 8
	if !(math.Abs(g) < 1<<22 && m < 1<<30) {
		return 0, false
	}
	return uint32(m), true
}

// setupM is setup with the margin m from stepMargin.
func (q *stepQ) setupM(x, g float64, m uint32) bool {
	const one = 1 << 32
	if !(math.Abs(x) < 1<<29) {
		return false
	}
	q.x0, q.dx = int64(x*one), int64(g*one)
	q.margin = m + stepForce
	return true
}

// chunk fills the chunk's colours, quantised depth and integer texel
// coordinates by stepping; pixels too near a step are interpolated
// exactly. It reports false (nothing filled) when the chunk cannot be
// stepped.
func (st *stepper) chunk(ps *pixelState, pr *prim, sb *spanBuf, e *[3]int64, dx *[3]int64, n int) bool {
	pl := &ps.span
	v := &pr.v
	w, z := chunkWeights(pr, e)
	var qs [4 + 1 + 6]stepQ
	var bad uint64
	flat := pr.flat
	if !st.colorQ(pr, &w, (*[4]stepQ)(qs[:4])) {
		return false
	}
	zPer := pl.needZ && !pr.flatZ
	if zPer && !st.zQ(pr, z, &qs[4]) {
		return false
	}
	p0, p1, p2 := w[0], w[1], w[2]
	in := func(a, b, c float32) float64 {
		return float64(p0*float64(a)) + float64(p1*float64(b)) + float64(p2*float64(c))
	}
	for u := 0; u < 3; u++ {
		if !pl.texInt[u] {
			continue
		}
		k := pl.texSet[u]
		for c := 0; c < 2; c++ {
			t := in(v[0].tc[k][c], v[1].tc[k][c], v[2].tc[k][c])
			cmax := max(math.Abs(float64(v[0].tc[k][c])), math.Abs(float64(v[1].tc[k][c])), math.Abs(float64(v[2].tc[k][c])))
			sc, off := st.scale[u][c], st.off[u][c]
			if !qs[5+2*u+c].setup(float64(t*sc)+off, st.gTex[u][c], sc*cmax, off) {
				return false
			}
		}
	}
	// Step every quantity; bad collects the pixels within a margin. The
	// colour's channels are stepped together and stored as one word (a
	// flat channel steps by 0 from its value, margin 0).
	{
		x, d, m := colorSteps(pr, (*[4]stepQ)(qs[:4]))
		x0, x1, x2, x3 := x[0], x[1], x[2], x[3]
		d0, d1, d2, d3 := d[0], d[1], d[2], d[3]
		m0, m1, m2, m3 := m[0], m[1], m[2], m[3]
		if colorInRange(&x, &d, n) {
			bad = colorLanes(&x, &d, max(m0, m1, m2, m3), flat, sb, n)
		} else {
			for i := 0; i < n; i++ {
				if uint32(x0)-m0 > 0-2*m0 || uint32(x1)-m1 > 0-2*m1 || uint32(x2)-m2 > 0-2*m2 || uint32(x3)-m3 > 0-2*m3 {
					bad |= 1 << i
				}
				sb.col[i] = [4]uint8{uint8(min(255, max(0, x0>>32))), uint8(min(255, max(0, x1>>32))),
					uint8(min(255, max(0, x2>>32))), uint8(min(255, max(0, x3>>32)))}
				x0, x1, x2, x3 = x0+d0, x1+d1, x2+d2, x3+d3
			}
		}
	}
	if pl.needZ && pr.flatZ {
		zq := ps.quantizeDepth(pr.depth)
		zs := sb.zq[:n]
		for i := range zs {
			zs[i] = zq
		}
	}
	if zPer {
		var zt zTab
		if v[0].z == v[1].z && v[1].z == v[2].z && zt.setup(&sb.wt, pr, e, dx, n) {
			// One depth on a quantisation step (wtab.go).
			zt.fill(st, pr, sb.zq[:n], 0)
		} else {
			st.zStep(ps, pr, sb, &qs[4], e, dx, n)
		}
	}
	// A pixel near a texel coordinate step needs the exact texture
	// coordinates only (texel computes them as interpolate does).
	var badTex uint64
	for u := 0; u < 3; u++ {
		if !pl.texInt[u] {
			continue
		}
		qs, qt := &qs[5+2*u], &qs[5+2*u+1]
		xs, xt, ds, dt, ms, mt := qs.x0, qt.x0, qs.dx, qt.dx, qs.margin, qt.margin
		out := sb.txy[u][:n]
		for i := range out {
			if uint32(xs)-ms > 0-2*ms || uint32(xt)-mt > 0-2*mt {
				badTex |= 1 << (i & 63)
			}
			out[i] = [2]int32{int32(xs >> 32), int32(xt >> 32)}
			xs, xt = xs+ds, xt+dt
		}
	}
	badTex &^= bad
	for badTex != 0 {
		i := bits.TrailingZeros64(badTex)
		badTex &= badTex - 1
		texel(ps, pr, sb, e, dx, i)
	}
	for bad != 0 {
		i := bits.TrailingZeros64(bad)
		bad &= bad - 1
		interpolate(ps, pr, sb, *e, dx, i, i+1)
	}
	return true
}

// chunkWeights returns the reference's perspective weights and depth at
// the pixel whose edge values are e (interpolate's arithmetic).
func chunkWeights(pr *prim, e *[3]int64) ([3]float64, float64) {
	v := &pr.v
	area := pr.area
	w0, w1, w2 := float64(e[0])/area, float64(e[1])/area, float64(e[2])/area
	z := float64(w0*v[0].z) + float64(w1*v[1].z) + float64(w2*v[2].z)
	p0, p1, p2 := float64(w0*v[0].invW), float64(w1*v[1].invW), float64(w2*v[2].invW)
	norm := 1 / (p0 + p1 + p2)
	return [3]float64{p0 * norm, p1 * norm, p2 * norm}, z
}

// colorQ sets up the stepped colour channels that are not flat from the
// weights w at the chunk's first pixel; it reports false when one cannot
// be stepped.
func (st *stepper) colorQ(pr *prim, w *[3]float64, qs *[4]stepQ) bool {
	v := &pr.v
	p0, p1, p2 := w[0], w[1], w[2]
	for k := 0; k < 4; k++ {
		if pr.flat>>k&1 != 0 {
			continue
		}
		c0, c1, c2 := float64(v[0].color[k]), float64(v[1].color[k]), float64(v[2].color[k])
		x := float64((float64(p0*c0)+float64(p1*c1)+float64(p2*c2))*255) + 0.5
		if !st.colOK[k] || !qs[k].setupM(x, st.gCol[k], st.colM[k]) {
			return false
		}
	}
	return true
}

// zQ sets up the stepped quantised depth from the depth z at the chunk's
// first pixel; it reports false when it cannot be stepped.
func (st *stepper) zQ(pr *prim, z float64, q *stepQ) bool {
	v := &pr.v
	zmax := max(math.Abs(v[0].z), math.Abs(v[1].z), math.Abs(v[2].z))
	return q.setup(z*st.zs, st.gZ, st.zs*zmax, 0)
}

// colorSteps returns the four channels' 32.32 values at the chunk's first
// pixel, steps and margins: a flat channel is its value with step and
// margin 0.
func colorSteps(pr *prim, qs *[4]stepQ) (x, d [4]int64, m [4]uint32) {
	for k := 0; k < 4; k++ {
		if pr.flat>>k&1 != 0 {
			x[k] = int64(pr.color[k]) << 32
		} else {
			x[k], d[k], m[k] = qs[k].x0, qs[k].dx, qs[k].margin
		}
	}
	return x, d, m
}

// colorInRange reports whether every channel's value lies in [0, 255] at
// the first and the last of n pixels: the values are linear in i (|x| <
// 2^61, n·|d| < 2^60: no overflow), so then every pixel's does and the
// clamps can go.
func colorInRange(x, d *[4]int64, n int) bool {
	inRange := true
	for k := 0; k < 4; k++ {
		a, b := x[k]>>32, (x[k]+int64(n-1)*d[k])>>32
		inRange = inRange && a >= 0 && a <= 255 && b >= 0 && b <= 255
	}
	return inRange
}

// zStep fills the chunk's quantised depths from the stepped q; a pixel
// near a depth step gets the exact depth.
func (st *stepper) zStep(ps *pixelState, pr *prim, sb *spanBuf, q *stepQ, e, dx *[3]int64, n int) {
	v := &pr.v
	area := pr.area
	x, m, top := q.x0, q.margin, int64(st.zs)
	z0, z1, z2 := v[0].z, v[1].z, v[2].z
	for i := 0; i < n; i++ {
		if uint32(x)-m > 0-2*m {
			ii := int64(i)
			w0, w1, w2 := float64(e[0]+ii*dx[0])/area, float64(e[1]+ii*dx[1])/area, float64(e[2]+ii*dx[2])/area
			z := float64(w0*z0) + float64(w1*z1) + float64(w2*z2)
			// quantizeDepth(max(0, min(1, z))) as integer clamps (no
			// branch on z's side of 1, which varies from pixel to pixel
			// at a step): z*zs is at least zs when z > 1 and at most 0
			// when z <= 0 (rounding is monotone), and truncates as
			// uint32 does in between; z is within the margin of the
			// stepped value, so |z*zs| < 2^31 fits the conversion.
			sb.zq[i] = uint32(min(top, max(0, int64(z*st.zs))))
		} else {
			sb.zq[i] = uint32(min(top, max(0, x>>32)))
		}
		x += q.dx
	}
}

// colorLanes steps a chunk's four colour channels whose values at the
// first and last pixel lie in [0, 255] (x, d: each channel's 32.32 value
// at pixel 0 and step, as chunk computes them; m: the largest margin) in
// two words of two 32-bit lanes, stores them and returns the pixels to
// interpolate exactly.
//
// A lane holds a channel in 8.20 fixed point plus a bias of 2^28: Y_i =
// floor(x/2^12) + i*floor(d/2^12) + 2^28. The 32.32 value X_i = x + i*d
// satisfies X_i/2^12 - (Y_i - 2^28) in [0, i+1), below 64 in a chunk, so
// where Y_i's 20-bit fraction f lies in [t, 2^20 - 64 - t] with t*2^12 >=
// m, X_i has Y_i's integer part and lies at least m from an integer: the
// pixel is not one chunk's per-channel test (X_i within m of an integer)
// would send to the exact path, and its colour is floor(X_i/2^32), what
// that loop stores. Every other pixel is interpolated exactly. The bias
// keeps each lane in [2^28 - 64, 2^29) (the values are at least 0, the
// steps' floors lose under 64), so no lane borrows from or carries into
// the next. A flat channel (step 0) sits at the middle of its integer (f
// = 2^19), never near an end.
func colorLanes(x, d *[4]int64, m uint32, flat uint8, sb *spanBuf, n int) uint64 {
	var l lanes
	if !l.setup(x, d, m, flat, n) {
		return 1<<n - 1 // every pixel (a shift by 64 is 0 in Go)
	}
	// The lanes less t (lanes.tiles): a good pixel has their integer
	// parts, and the margin test is the carry into bit 20 of a lane.
	const hi = 1<<20 | 1<<52
	u01, u23, s01, s23, c := l.w01-l.tt, l.w23-l.tt, l.s01, l.s23, l.c
	var bad uint64
	col := sb.col[:n]
	for i := range col {
		if (((u01+c)^u01)|((u23+c)^u23))&hi != 0 {
			bad |= 1 << (i & 63)
		}
		binary.LittleEndian.PutUint32(col[i][:], uint32(u01>>20)&0xFF|uint32(u01>>44)&0xFF00|
			uint32(u23>>4)&0xFF0000|uint32(u23>>28)&0xFF000000)
		u01, u23 = u01+s01, u23+s23
	}
	return bad
}

// lanes is colorLanes's two words of two channels each, their steps and
// the constants of the margin test.
type lanes struct {
	w01, w23, s01, s23, tt, c uint64
}

// setup starts the lanes from the channels' 32.32 values x and steps d
// (as chunk computes them) with the largest margin m for n pixels (at
// most stepN); it reports false when the margin leaves no good fraction.
// (colorLanes's bound with n for 64: the lanes' truncation loses under n
// in a lane's fraction.)
func (l *lanes) setup(x, d *[4]int64, m uint32, flat uint8, n int) bool {
	const bias = 1 << 28
	t := int64(m)>>12 + 1
	span := int64(1<<20) - int64(n) - 2*t // the width of the good fractions, less one
	if span <= 0 {
		return false
	}
	var lane, step [4]int64
	for k := 0; k < 4; k++ {
		if flat>>k&1 != 0 {
			lane[k] = bias + x[k]>>12 + 1<<19
		} else {
			lane[k], step[k] = bias+x[k]>>12, d[k]>>12
		}
	}
	l.w01, l.w23 = uint64(lane[0]|lane[1]<<32), uint64(lane[2]|lane[3]<<32)
	l.s01, l.s23 = uint64(step[0]+step[1]<<32), uint64(step[2]+step[3]<<32)
	// A lane's f - t, masked to 20 bits, plus 2^20 - 1 - span carries
	// into bit 20 exactly when f is outside [t, t + span].
	l.tt = uint64(t | t<<32)
	l.c = uint64(1<<20-1-span) * (1 | 1<<32)
	return true
}

// bad reports whether the current pixel is one to interpolate exactly.
func (l *lanes) bad() bool {
	const fm = 0x000FFFFF000FFFFF
	const hi = 1<<20 | 1<<52
	return (((l.w01-l.tt)&fm+l.c)|((l.w23-l.tt)&fm+l.c))&hi != 0
}

// next steps to the next pixel.
func (l *lanes) next() { l.w01 += l.s01; l.w23 += l.s23 }

// texel fills pixel i's integer texel coordinates exactly: interpolate's
// arithmetic for the weights and the coordinate sets the units read.
func texel(ps *pixelState, pr *prim, sb *spanBuf, e, dx *[3]int64, i int) {
	pl := &ps.span
	v := &pr.v
	ii := int64(i)
	area := pr.area
	w0, w1, w2 := float64(e[0]+ii*dx[0])/area, float64(e[1]+ii*dx[1])/area, float64(e[2]+ii*dx[2])/area
	p0, p1, p2 := float64(w0*v[0].invW), float64(w1*v[1].invW), float64(w2*v[2].invW)
	norm := 1 / (p0 + p1 + p2)
	p0, p1, p2 = p0*norm, p1*norm, p2*norm
	for u := 0; u < 3; u++ {
		if !pl.texInt[u] {
			continue
		}
		k := pl.texSet[u]
		tc := [2]float64{float64(p0*float64(v[0].tc[k][0])) + float64(p1*float64(v[1].tc[k][0])) + float64(p2*float64(v[2].tc[k][0])),
			float64(p0*float64(v[0].tc[k][1])) + float64(p1*float64(v[1].tc[k][1])) + float64(p2*float64(v[2].tc[k][1]))}
		t := &ps.tex[u]
		w, h := float64(t.width), float64(t.height)
		if t.mag == 0 {
			sb.txy[u][i] = [2]int32{int32(floorFast(tc[0] * w)), int32(floorFast(tc[1] * h))}
		} else {
			sb.txy[u][i] = [2]int32{int32(floorFast(tc[0]*w*256 - 128)), int32(floorFast(tc[1]*h*256 - 128))}
		}
	}
}

// div255 is x/255 for x <= 255*255.
func div255(x uint32) uint8 { return uint8((x + 1 + x>>8) >> 8) }

// q8Fast is q8 without math.Round.
func q8Fast(v float64) uint8 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 255
	}
	x := v * 255
	if x < 0.5 {
		return 0
	}
	// For x >= 0.5, x + 0.5 rounds to an integer only when the exact sum
	// is one: floor(x + 0.5) is round half away from zero.
	return uint8(int(x + 0.5))
}

// floorFast is floorInt with the clamp as comparisons (floorInt's min and
// max handle NaN and -0 in a longer sequence).
func floorFast(v float64) int {
	f := math.Floor(v)
	if f >= -1<<30 && f <= 1<<30 {
		return int(f)
	}
	if f > 0 {
		return 1 << 30
	}
	if f < 0 {
		return -1 << 30
	}
	return 0 // NaN
}

// shadeChunk runs the fragment stages over the chunk's n pixels, which
// start at (x0, row).
func shadeChunk(ps *pixelState, pr *prim, sb *spanBuf, n, x0, row int) {
	pl := &ps.span
	live := &sb.live
	if pl.early {
		if !depthStage(ps, pr, sb, n, x0, row) || pl.noColor {
			return
		}
	}
	if pl.texBlend && !fusedOff {
		ps.tex[0].texBlendSpan(ps, sb, n, x0, row)
		return
	}
	for u := 0; u < 3; u++ {
		t := &ps.tex[u]
		if !t.enabled || !pl.texUsed[u] {
			continue
		}
		k := u
		if u == 2 && ps.tc2from1 {
			k = 1
		}
		tc, out := &sb.tc[k], &sb.tex[u]
		if pl.texInt[u] {
			t.fetchRepeatSpan(&sb.txy[u], out, live, n)
			continue
		}
		g := &pr.grad[u]
		for i := 0; i < n; i++ {
			if live[i] {
				out[i] = t.sample(tc[i][0], tc[i][1], sb.q[i], g)
			}
		}
	}
	c := &sb.col
	switch {
	case ps.tevPrimary:
	case pl.modulate:
		c = &sb.out
		t0 := &sb.tex[0]
		for i := 0; i < n; i++ {
			a, b := &sb.col[i], &t0[i]
			binary.LittleEndian.PutUint32(c[i][:], uint32(div255(uint32(b[0])*uint32(a[0])))|uint32(div255(uint32(b[1])*uint32(a[1])))<<8|
				uint32(div255(uint32(b[2])*uint32(a[2])))<<16|uint32(div255(uint32(b[3])*uint32(a[3])))<<24)
		}
	case pl.replace:
		c = &sb.out
		pick := func(src int) *[spanN][4]uint8 {
			if src == 3 {
				return &sb.col
			}
			return &sb.tex[src]
		}
		switch {
		case pl.repRGB < 0 && pl.repA < 0:
			for i := 0; i < n; i++ {
				c[i] = pl.konst
			}
		case pl.repRGB < 0:
			a := pick(pl.repA)
			for i := 0; i < n; i++ {
				c[i] = pl.konst
				c[i][3] = a[i][3]
			}
		case pl.repA < 0:
			rgb := pick(pl.repRGB)
			for i := 0; i < n; i++ {
				c[i] = rgb[i]
				c[i][3] = pl.konst[3]
			}
		default:
			rgb, a := pick(pl.repRGB), pick(pl.repA)
			for i := 0; i < n; i++ {
				c[i] = rgb[i]
				c[i][3] = a[i][3]
			}
		}
	default:
		c = &sb.out
		var texel [4][4]uint8
		for i := 0; i < n; i++ {
			if live[i] {
				for u := 0; u < 3; u++ {
					if ps.tex[u].enabled && pl.texUsed[u] {
						texel[u] = sb.tex[u][i]
					}
				}
				c[i] = ps.combine(sb.col[i], &texel)
			}
		}
	}
	if ps.alphaTest&1 != 0 {
		for i := 0; i < n; i++ {
			if live[i] && !ps.alphaPass(c[i]) {
				live[i] = false
			}
		}
	}
	if ps.fogMode == 5 {
		for i := 0; i < n; i++ {
			if live[i] {
				c[i] = ps.fog(c[i], sb.depth[i])
			}
		}
	}
	if !pl.early {
		if !depthStage(ps, pr, sb, n, x0, row) || pl.noColor {
			return
		}
	}
	colorStage(ps, c, live, n, x0, row)
}

// depthStage runs the stencil and depth tests and writes over the chunk;
// it reports whether any pixel is left.
func depthStage(ps *pixelState, pr *prim, sb *spanBuf, n, x0, row int) bool {
	pl := &ps.span
	live := &sb.live
	dcm := ps.dcm
	if pr.flatZ && (pl.zKind == zD16 || pl.zKind == zD24S8) && !fusedOff && allOf(live[:n]) {
		// One depth for the whole chunk: the fused path's tile runs.
		pass := ps.depthRunFlat(sb.zq[0], n, x0, row)
		for i := range live[:n] {
			live[i] = pass>>i&1 != 0
		}
		return pass != 0
	}
	if !pl.needZ {
		// No test, no stencil, no write: every pixel passes.
		for i := 0; i < n; i++ {
			if live[i] {
				return true
			}
		}
		return false
	}
	any := false
	if !pl.zFast || ps.depthBuf == nil {
		for i := 0; i < n; i++ {
			if live[i] {
				live[i] = ps.depthStencil(x0+i, row, sb.zq[i])
				any = any || live[i]
			}
		}
		return any
	}
	// No stencil: the test against the stored value, then the write.
	test, fn := dcm&1 != 0, dcm>>4&7
	write := dcm>>12&1 != 0 && ps.depthWrite
	base := (row&^7)*ps.width + mortonY[row&7]
	lv := live[:n]
	zq := sb.zq[:len(lv)]
	cols := pl.pxOff[x0 : x0+n][:len(lv)]
	switch ps.depthFmt {
	case p.DepthD16:
		zb := ps.depthBuf[2*base:]
		for i := range lv {
			if !lv[i] {
				continue
			}
			off := 2 * int(cols[i])
			z := zq[i]
			b := zb[off : off+2]
			if test && !cmpFunc(fn, z, uint32(binary.LittleEndian.Uint16(b))) {
				lv[i] = false
				continue
			}
			if write {
				binary.LittleEndian.PutUint16(b, uint16(z))
			}
			any = true
		}
	default:
		bpp := ps.depthFmt.BytesPerPixel()
		zb := ps.depthBuf[bpp*base:]
		for i := range lv {
			if !lv[i] {
				continue
			}
			off := bpp * int(cols[i])
			z := zq[i]
			b := zb[off : off+3]
			if test && !cmpFunc(fn, z, uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16) {
				lv[i] = false
				continue
			}
			if write {
				b[0], b[1], b[2] = byte(z), byte(z>>8), byte(z>>16)
			}
			any = true
		}
	}
	return any
}

// allOf reports whether every flag is set.
func allOf(b []bool) bool {
	for _, v := range b {
		if !v {
			return false
		}
	}
	return true
}

// colorStage blends and writes the chunk's colours.
func colorStage(ps *pixelState, c *[spanN][4]uint8, live *[spanN]bool, n, x0, row int) {
	pl := &ps.span
	base := (row&^7)*ps.width + mortonY[row&7]
	switch {
	case pl.copyRGBA8:
		lv := live[:n]
		cols := pl.pxOff[x0 : x0+n][:len(lv)]
		cb := ps.color[4*base:]
		for i := range lv {
			if lv[i] {
				off := 4 * int(cols[i])
				// Bytes A, B, G, R: the colour's word byte-swapped.
				binary.LittleEndian.PutUint32(cb[off:off+4], bits.ReverseBytes32(binary.LittleEndian.Uint32(c[i][:])))
			}
		}
	case pl.srcAlpha:
		lv := live[:n]
		cols := pl.pxOff[x0 : x0+n][:len(lv)]
		cb := ps.color[4*base:]
		for i := range lv {
			if !lv[i] {
				continue
			}
			off := 4 * int(cols[i])
			b := cb[off : off+4]
			// (s*a + d*(255-a))/255 per channel in 16-bit lanes A, B,
			// G, R (the word's byte order); floor(x/255) is
			// (x + 1 + x>>8) >> 8 for x <= 255*255.
			d := uint64(binary.LittleEndian.Uint32(b))
			d = (d | d<<16) & 0x0000FFFF0000FFFF
			d = (d | d<<8) & 0x00FF00FF00FF00FF
			s := &c[i]
			a := uint64(s[3])
			sv := a | uint64(s[2])<<16 | uint64(s[1])<<32 | uint64(s[0])<<48
			v := sv*a + d*(255-a)
			v = (v + 0x0001000100010001 + v>>8&0x00FF00FF00FF00FF) >> 8 & 0x00FF00FF00FF00FF
			v = (v | v>>8) & 0x0000FFFF0000FFFF
			binary.LittleEndian.PutUint32(b, uint32(v|v>>16))
		}
	default:
		for i := 0; i < n; i++ {
			if live[i] {
				ps.writeColor(x0+i, row, c[i])
			}
		}
	}
}

// mortonX and mortonY are the Morton bits of a coordinate inside an 8x8
// tile (hal/pica Morton).
var mortonX, mortonY [8]int

func init() {
	for i := 0; i < 8; i++ {
		mortonX[i] = p.Morton(i, 0)
		mortonY[i] = p.Morton(0, i)
	}
}

// fetchRepeatSpan is filtered for a fastRepeat unit, from the integer
// coordinates filtered computes (floor(u*w*256 - 128) for LINEAR,
// floor(u*w) for NEAREST): the same weights and rounding, the wrap as a
// mask and the tiling from tables. The first loop finds each pixel's four
// texel offsets, the second reads the texels and blends them: in x with
// the four channels in 16-bit lanes, in y with two channels a word in
// 32-bit lanes.
func (t *texUnit) fetchRepeatSpan(xy *[spanN][2]int32, out *[spanN][4]uint8, live *[spanN]bool, n int) {
	mx, my := int32(t.width-1), int32(t.height-1)
	d := t.data
	colOff, rowOff := t.colOff, t.rowOff
	if t.mag == 0 {
		for i := 0; i < n; i++ {
			if !live[i] {
				continue
			}
			off := 4 * int(rowOff[xy[i][1]&my]+colOff[xy[i][0]&mx])
			binary.LittleEndian.PutUint32(out[i][:], bits.ReverseBytes32(binary.LittleEndian.Uint32(d[off:off+4])))
		}
		return
	}
	var offs [spanN][4]int32
	for i := 0; i < n; i++ {
		x, y := xy[i][0], xy[i][1]
		ca, cb := colOff[x>>8&mx], colOff[(x>>8+1)&mx]
		ra, rb := rowOff[y>>8&my], rowOff[(y>>8+1)&my]
		offs[i] = [4]int32{4 * (ra + ca), 4 * (ra + cb), 4 * (rb + ca), 4 * (rb + cb)}
	}
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		o := &offs[i]
		t00 := spread16(binary.LittleEndian.Uint32(d[o[0] : o[0]+4]))
		t10 := spread16(binary.LittleEndian.Uint32(d[o[1] : o[1]+4]))
		t01 := spread16(binary.LittleEndian.Uint32(d[o[2] : o[2]+4]))
		t11 := spread16(binary.LittleEndian.Uint32(d[o[3] : o[3]+4]))
		fx, fy := uint64(uint8(xy[i][0])), uint64(uint8(xy[i][1]))
		ix, iy := 256-fx, 256-fy
		top := t00*ix + t10*fx // lanes A, B, G, R: at most 255*256
		bot := t01*ix + t11*fx
		const m32 = 0x0000FFFF0000FFFF
		const half = 32768 | 32768<<32
		ag := ((top&m32)*iy + (bot&m32)*fy + half) >> 16 // A | G<<32
		br := ((top>>16&m32)*iy + (bot>>16&m32)*fy + half) >> 16
		binary.LittleEndian.PutUint32(out[i][:], uint32(br>>32)&0xFF|uint32(ag>>24)&0xFF00|uint32(br)<<16&0xFF0000|uint32(ag)<<24)
	}
}

// spread16 spreads the four bytes of v into 16-bit lanes.
func spread16(v uint32) uint64 {
	x := uint64(v)
	x = (x | x<<16) & 0x0000FFFF0000FFFF
	return (x | x<<8) & 0x00FF00FF00FF00FF
}
