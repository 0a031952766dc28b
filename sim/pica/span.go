package pica

import (
	"encoding/binary"
	"math"

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
	bary  [spanN][3]float64 // perspective-corrected weights
	depth [spanN]float64
	q     [spanN]float64
	col   [spanN][4]uint8
	tc    [3][spanN][2]float64
	tex   [3][spanN][4]uint8
	out   [spanN][4]uint8
}

// spanPlan is the per-draw choice of stages, decided from the pixel state.
type spanPlan struct {
	needZ     bool    // the depth value is read (test, write or fog)
	needTC    [3]bool // texture coordinate sets interpolated
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
}

// plan decides the stages of the span pipeline for ps.
func (ps *pixelState) plan() {
	pl := &ps.span
	dcm := ps.dcm
	pl.needZ = ps.fogMode == 5 || dcm&1 != 0 || ps.stencil&1 != 0 && ps.stRead ||
		dcm>>12&1 != 0 && ps.depthWrite && ps.depthBuf != nil
	for u := 0; u < 3; u++ {
		if ps.tex[u].enabled {
			k := u
			if u == 2 && ps.tc2from1 {
				k = 1
			}
			pl.needTC[k] = true
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
}

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

// shadeSpans is the fast path: the primitive's pixels inside clip through
// the span pipeline.
func (g *GPU) shadeSpans(ps *pixelState, wk *worker, pr *prim, clip raster.Rect) {
	sb := &wk.sb
	pr.tri.Walk(clip, func(s *raster.Span) {
		e := s.E
		for x0 := s.X0; x0 < s.X1; x0 += spanN {
			n := min(spanN, s.X1-x0)
			live := 0
			for i := 0; i < n; i++ {
				sb.live[i] = true
			}
			if ps.scissor == 1 {
				wrow := ps.height - 1 - s.Y
				if wrow >= ps.sy1 && wrow <= ps.sy2 {
					for i := 0; i < n; i++ {
						if x := x0 + i; x >= ps.sx1 && x <= ps.sx2 {
							sb.live[i] = false
						}
					}
				}
			}
			for i := 0; i < n; i++ {
				if sb.live[i] {
					live++
				}
			}
			wk.pixels += int64(live)
			interpolate(ps, pr, sb, &e, &s.DX, n)
			shadeChunk(ps, pr, sb, n, x0, s.Y)
		}
	})
}

// interpolate fills the chunk's depth, 1/w, colours and texture
// coordinates (shadePixel's arithmetic) and steps e past it.
func interpolate(ps *pixelState, pr *prim, sb *spanBuf, e *[3]int64, dx *[3]int64, n int) {
	pl := &ps.span
	area := pr.area
	v := &pr.v
	z0, z1, z2 := v[0].z, v[1].z, v[2].z
	iw0, iw1, iw2 := v[0].invW, v[1].invW, v[2].invW
	e0, e1, e2 := e[0], e[1], e[2]
	zPer := pl.needZ && !pr.flatZ
	if pl.needZ && pr.flatZ {
		for i := 0; i < n; i++ {
			sb.depth[i] = pr.depth
		}
	}
	var c0, c1, c2 [4]float64
	for k := 0; k < 4; k++ {
		c0[k], c1[k], c2[k] = float64(v[0].color[k]), float64(v[1].color[k]), float64(v[2].color[k])
	}
	flat := pr.flat
	if flat != 0 {
		c := pr.color
		for i := 0; i < n; i++ {
			sb.col[i] = c
		}
	}
	var tcs [3][3][2]float64 // unit, vertex, s/t
	for u := 0; u < 3; u++ {
		for j := 0; j < 3; j++ {
			tcs[u][j] = [2]float64{float64(v[j].tc[u][0]), float64(v[j].tc[u][1])}
		}
	}
	for i := 0; i < n; i++ {
		w0, w1, w2 := float64(e0)/area, float64(e1)/area, float64(e2)/area
		e0, e1, e2 = e0+dx[0], e1+dx[1], e2+dx[2]
		if zPer {
			z := float64(w0*z0) + float64(w1*z1) + float64(w2*z2)
			sb.depth[i] = max(0, min(1, z))
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
		for u := 0; u < 3; u++ {
			if pl.needTC[u] {
				t := &tcs[u]
				sb.tc[u][i] = [2]float64{float64(p0*t[0][0]) + float64(p1*t[1][0]) + float64(p2*t[2][0]),
					float64(p0*t[0][1]) + float64(p1*t[1][1]) + float64(p2*t[2][1])}
			}
		}
	}
	e[0], e[1], e[2] = e0, e1, e2
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
		if !depthStage(ps, sb, n, x0, row) || pl.noColor {
			return
		}
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
		if pl.texFast[u] {
			t.fetchRepeatSpan(tc, out, live, n)
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
			c[i] = [4]uint8{div255(uint32(b[0]) * uint32(a[0])), div255(uint32(b[1]) * uint32(a[1])),
				div255(uint32(b[2]) * uint32(a[2])), div255(uint32(b[3]) * uint32(a[3]))}
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
		if !depthStage(ps, sb, n, x0, row) || pl.noColor {
			return
		}
	}
	colorStage(ps, c, live, n, x0, row)
}

// depthStage runs the stencil and depth tests and writes over the chunk;
// it reports whether any pixel is left.
func depthStage(ps *pixelState, sb *spanBuf, n, x0, row int) bool {
	pl := &ps.span
	live := &sb.live
	dcm := ps.dcm
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
				live[i] = ps.depthStencil(x0+i, row, sb.depth[i])
				any = any || live[i]
			}
		}
		return any
	}
	// No stencil: the test against the stored value, then the write.
	test, fn := dcm&1 != 0, dcm>>4&7
	write := dcm>>12&1 != 0 && ps.depthWrite
	base := (row&^7)*ps.width + mortonY[row&7]
	switch ps.depthFmt {
	case p.DepthD16:
		scale := float64(uint32(1)<<16 - 1)
		for i := 0; i < n; i++ {
			if !live[i] {
				continue
			}
			x := x0 + i
			off := 2 * (base + (x&^7)*8 + mortonX[x&7])
			z := uint32(sb.depth[i] * scale)
			b := ps.depthBuf[off : off+2]
			if test && !cmpFunc(fn, z, uint32(binary.LittleEndian.Uint16(b))) {
				live[i] = false
				continue
			}
			if write {
				binary.LittleEndian.PutUint16(b, uint16(z))
			}
			any = true
		}
	default:
		scale := float64(uint32(1)<<24 - 1)
		bpp := ps.depthFmt.BytesPerPixel()
		for i := 0; i < n; i++ {
			if !live[i] {
				continue
			}
			x := x0 + i
			off := bpp * (base + (x&^7)*8 + mortonX[x&7])
			z := uint32(sb.depth[i] * scale)
			b := ps.depthBuf[off : off+3]
			if test && !cmpFunc(fn, z, uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16) {
				live[i] = false
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

// colorStage blends and writes the chunk's colours.
func colorStage(ps *pixelState, c *[spanN][4]uint8, live *[spanN]bool, n, x0, row int) {
	pl := &ps.span
	base := (row&^7)*ps.width + mortonY[row&7]
	switch {
	case pl.copyRGBA8:
		for i := 0; i < n; i++ {
			if live[i] {
				x := x0 + i
				off := 4 * (base + (x&^7)*8 + mortonX[x&7])
				s := &c[i]
				binary.LittleEndian.PutUint32(ps.color[off:off+4], uint32(s[0])<<24|uint32(s[1])<<16|uint32(s[2])<<8|uint32(s[3]))
			}
		}
	case pl.srcAlpha:
		for i := 0; i < n; i++ {
			if !live[i] {
				continue
			}
			x := x0 + i
			off := 4 * (base + (x&^7)*8 + mortonX[x&7])
			b := ps.color[off : off+4]
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

// fetchRepeatSpan is filtered for a fastRepeat unit: the same coordinates,
// weights and rounding, with the wrap as a mask and the tiling from
// tables. The first loop finds each pixel's four texel offsets and
// weights, the second reads the texels and blends them: in x with the
// four channels in 16-bit lanes, in y with two channels a word in 32-bit
// lanes.
func (t *texUnit) fetchRepeatSpan(tc *[spanN][2]float64, out *[spanN][4]uint8, live *[spanN]bool, n int) {
	w, h := float64(t.width), float64(t.height)
	mx, my := t.width-1, t.height-1
	d := t.data
	colOff, rowOff := t.colOff, t.rowOff
	if t.mag == 0 {
		for i := 0; i < n; i++ {
			if !live[i] {
				continue
			}
			x := floorFast(tc[i][0]*w) & mx
			y := floorFast(tc[i][1]*h) & my
			off := 4 * int(rowOff[y]+colOff[x])
			v := binary.LittleEndian.Uint32(d[off : off+4])
			out[i] = [4]uint8{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}
		}
		return
	}
	var offs [spanN][4]int32
	var wts [spanN][2]uint8
	for i := 0; i < n; i++ {
		x := floorFast(tc[i][0]*w*256 - 128)
		y := floorFast(tc[i][1]*h*256 - 128)
		wts[i] = [2]uint8{uint8(x), uint8(y)}
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
		fx, fy := uint64(wts[i][0]), uint64(wts[i][1])
		ix, iy := 256-fx, 256-fy
		top := t00*ix + t10*fx // lanes A, B, G, R: at most 255*256
		bot := t01*ix + t11*fx
		const m32 = 0x0000FFFF0000FFFF
		const half = 32768 | 32768<<32
		ag := ((top&m32)*iy + (bot&m32)*fy + half) >> 16 // A | G<<32
		br := ((top>>16&m32)*iy + (bot>>16&m32)*fy + half) >> 16
		out[i] = [4]uint8{uint8(br >> 32), uint8(ag >> 32), uint8(br), uint8(ag)}
	}
}

// spread16 spreads the four bytes of v into 16-bit lanes.
func spread16(v uint32) uint64 {
	x := uint64(v)
	x = (x | x<<16) & 0x0000FFFF0000FFFF
	return (x | x<<8) & 0x00FF00FF00FF00FF
}
