package glamo

import (
	"encoding/binary"
	"math"

	"github.com/retrogl/retrogl/sim/raster"
)

// The span pipeline: triangles are shaded a chunk of up to spanChunk
// pixels of a row at a time, one stage after the other (interpolation,
// texture units, texture blend, the colour stages, output), instead of one
// pixel at a time through every stage. Each stage is a loop whose body
// the compiler sees whole, and the stages that do not apply are skipped
// once per chunk, not tested per pixel.
//
// The result is the per-pixel pipeline's (walkTriRef, shade, output), bit
// for bit: the interpolators step in the same order with the same
// rounding, the stages before output have no side effect (they only read
// textures and the fragment), and output runs the pixels in x order. The
// one state where staging could differ is a texture overlapping a buffer
// the chunk writes (a pixel's write would feed a later pixel's texel
// read): pixState.spanOK is false then and walkTri takes the per-pixel
// path. TestSpanPathMatchesReference compares the two paths over random
// states, triangles and memory.
const spanChunk = 64

// spanBuf carries one chunk's fragments between the stages; each raster
// worker owns one, so the pipeline allocates nothing per pixel.
type spanBuf struct {
	col, spec [spanChunk][4]int32 // interpolated diffuse and specular/fog
	out       [spanChunk][4]int32 // the texture blend's output
	z, w      [spanChunk]float64
	uv        [2][spanChunk][2]float64
	lod       [2][spanChunk]float64
	tex       [2][spanChunk][4]int32
	konst     [4][spanChunk][4]int32 // constant texture-blend arguments
	live      [spanChunk]bool        // false once a test has dropped the pixel
	foot      [spanChunk][4]uint32   // bilinearSpan's texel offsets
	weight    [spanChunk]uint32      // and weights
	flat      bool                   // every colour of the chunk is the same
	zconst    bool                   // every depth of the chunk is z[0]
	count     int64                  // pixels written
	spans     [8]raster.Span         // the walker's rows (raster.WalkBuf)
	fu, fv    [spanChunk]int32       // unit 0's fixed coordinates (stepCoord)
	fixed     bool                   // fu and fv hold the chunk's coordinates
	zrow      [2 * spanChunk]byte    // depthRow's chunk of one depth
	zrowZ     uint16                 // and its depth
	zrowOK    bool                   // zrow is filled
	vconst    bool                   // with fixed: every fv of the chunk is fv[0]
	colRB     [256]uint64            // bilinearRow's texel columns, R and B lanes
	colGA     [256]uint64            // and G and A lanes
}

// depthRow returns a chunk of stored depths all z (kept between calls:
// a fill writes the same depth chunk after chunk).
func (sb *spanBuf) depthRow(z uint16) *[2 * spanChunk]byte {
	if !sb.zrowOK || sb.zrowZ != z {
		for i := 0; i < spanChunk; i++ {
			binary.LittleEndian.PutUint16(sb.zrow[2*i:], z)
		}
		sb.zrowZ, sb.zrowOK = z, true
	}
	return &sb.zrow
}

// c5 and c6 are unitTo12 for the 5- and 6-bit colour planes.
func c5(v int64) int32 { return lut5_8[min(max(v, 0), 31*256)] }
func c6(v int64) int32 { return lut6_8[min(max(v, 0), 63*256)] }

// walkTriSpan is walkTriRef through the span pipeline.
func (e *Engine) walkTriSpan(j *triJob, clip raster.Rect, sb *spanBuf) {
	p := &e.px
	nch, ip, zp, wp, up, vp := j.nch, &j.ip, &j.zp, &j.wp, &j.up, &j.vp
	persp, needW, off, lodC := j.persp, j.needW, j.off, j.lodC
	ntex, needZ := p.ntex, p.needZ
	xa, ya := j.xa, j.ya
	j.t.WalkBuf(clip, sb.spans[:], func(s *raster.Span) {
		cy16 := int64(s.Y)*16 + 8 - ya
		cx16 := int64(s.X0)*16 + 8 - xa
		var acc, dx [8]int64
		for k := 0; k < nch; k++ {
			acc[k], dx[k] = ip[k].at(cx16, cy16), ip[k].dx*16
		}
		rx, ry := float64(cx16)/16, float64(cy16)/16
		var z, w float64
		if needZ {
			z = zp.row(rx, ry)
		}
		if needW {
			w = wp.row(rx, ry)
		}
		var uc, vc [2]float64
		for u := 0; u < ntex; u++ {
			uc[u], vc[u] = up[u].row(rx, ry), vp[u].row(rx, ry)
		}
		x0 := s.X0
		if p.fill565 && s.X1-s.X0 >= fillMin && (!needZ || zp.dx == 0) {
			// Blocks of the row through fill565 while its colours stay
			// inside the tables; plainChunk takes the rest.
			for x0 < s.X1 && e.fillChunk(sb, min(fillBlock, s.X1-x0), x0, s.Y, &acc, &dx, z, off) {
				x0 += min(fillBlock, s.X1-x0)
			}
		}
		for ; x0 < s.X1; x0 += spanChunk {
			n := min(spanChunk, s.X1-x0)
			if p.plainFast {
				z = e.plainChunk(sb, n, x0, s.Y, &acc, &dx, z, zp.dx, off)
				continue
			}
			// Interpolation, in walkTriRef's order and rounding (q(a+b)
			// is qadd written out so that it inlines).
			sb.flat = interpColor(&sb.col, n, &acc, &dx, 0)
			if nch == 8 {
				interpColor(&sb.spec, n, &acc, &dx, 4)
			}
			if needZ {
				dz := zp.dx
				sb.zconst = dz == 0
				if dz == 0 {
					// q(z + 0) is z: one depth for the chunk.
					zi := z
					if off != 0 {
						zi = q(z + off)
					}
					for i := 0; i < n; i++ {
						sb.z[i] = zi
					}
				} else {
					for i := 0; i < n; i++ {
						sb.z[i] = z
						if off != 0 {
							sb.z[i] = q(z + off)
						}
						z = q(z + dz)
					}
				}
			}
			if needW {
				dw := wp.dx
				for i := 0; i < n; i++ {
					sb.w[i] = w
					w = q(w + dw)
				}
			}
			sb.fixed = false
			if p.texMod && !persp {
				// bilinearModulate reads the fixed coordinates only.
				l := &p.tex[0].levels[0]
				uc[0] = stepCoord(&sb.fu, n, uc[0], up[0].dx, l.w)
				sb.fixed, sb.vconst = true, vp[0].dx == 0
				if sb.vconst {
					// One v for the chunk: fv[0] only (bilinearModulate
					// spreads it where it reads the others).
					stepCoord(&sb.fv, 1, vc[0], 0, l.h)
				} else {
					vc[0] = stepCoord(&sb.fv, n, vc[0], vp[0].dx, l.h)
				}
				e.shadeSpan(sb, n, x0, s.Y)
				continue
			}
			for u := 0; u < ntex; u++ {
				uv, dudx, dvdx := &sb.uv[u], up[u].dx, vp[u].dx
				uu, vv := uc[u], vc[u]
				if !persp {
					for i := 0; i < n; i++ {
						uv[i] = [2]float64{uu, vv}
						uu = q(uu + dudx)
						vv = q(vv + dvdx)
					}
					uc[u], vc[u] = uu, vv
					if p.tex[u].needLOD {
						for i := 0; i < n; i++ {
							sb.lod[u][i] = lodC[u]
						}
					}
					continue
				}
				t := &p.tex[u]
				for i := 0; i < n; i++ {
					rw := qdiv(1, sb.w[i])
					pu, pv := qmul(uu, rw), qmul(vv, rw)
					uv[i] = [2]float64{pu, pv}
					if t.needLOD {
						sb.lod[u][i] = lodOf(t,
							(up[u].dx-pu*wp.dx)*rw, (vp[u].dx-pv*wp.dx)*rw,
							(up[u].dy-pu*wp.dy)*rw, (vp[u].dy-pv*wp.dy)*rw)
					}
					uu = q(uu + dudx)
					vv = q(vv + dvdx)
				}
				uc[u], vc[u] = uu, vv
			}
			e.shadeSpan(sb, n, x0, s.Y)
		}
	})
}

// interpColor steps four integer colour planes (R, G, B, A or SR, SG, SB,
// F: 5-, 6-, 5- and 6-bit) from acc[k0:k0+4] over n pixels. It reports
// whether the planes are flat along the row (every pixel the same).
func interpColor(out *[spanChunk][4]int32, n int, acc, dx *[8]int64, k0 int) bool {
	a0, a1, a2, a3 := acc[k0], acc[k0+1], acc[k0+2], acc[k0+3]
	d0, d1, d2, d3 := dx[k0], dx[k0+1], dx[k0+2], dx[k0+3]
	if d0|d1|d2|d3 == 0 { // flat along the row (flat shading, clears)
		c := [4]int32{c5(a0 >> 4), c6(a1 >> 4), c5(a2 >> 4), c6(a3 >> 4)}
		for i := 0; i < n; i++ {
			out[i] = c
		}
		return true
	}
	last := int64(n - 1)
	inRange := func(a, d, hi int64) bool {
		lo, end := a>>4, (a+d*last)>>4
		return lo >= 0 && lo <= hi && end >= 0 && end <= hi
	}
	if inRange(a0, d0, 31*256) && inRange(a1, d1, 63*256) && inRange(a2, d2, 31*256) && inRange(a3, d3, 63*256) {
		// No channel leaves its table over the chunk: no clamps, and
		// each plane steps in the top bits of a word (17 bits for the
		// 5-bit planes, 18 for the 6-bit ones), where a shift alone
		// gives its table index.
		stepColors(out, n, uint64(a0)<<47+uint64(a2), uint64(a1)<<46+uint64(a3), uint64(d0)<<47+uint64(d2), uint64(d1)<<46+uint64(d3))
		n64 := int64(n)
		acc[k0], acc[k0+1], acc[k0+2], acc[k0+3] = a0+d0*n64, a1+d1*n64, a2+d2*n64, a3+d3*n64
		return false
	}
	for i := 0; i < n; i++ {
		out[i] = [4]int32{c5(a0 >> 4), c6(a1 >> 4), c5(a2 >> 4), c6(a3 >> 4)}
		a0 += d0
		a1 += d1
		a2 += d2
		a3 += d3
	}
	acc[k0], acc[k0+1], acc[k0+2], acc[k0+3] = a0, a1, a2, a3
	return false
}

// stepColors is interpColor's loop for planes inside their tables. R
// steps in the top 17 bits of rb and G in the top 18 of ga, where a shift
// alone gives the table index, B and A in their low 17 and 18 bits (each
// plane stays in 0..2^17 or 0..2^18 over the chunk, so neither carries
// into the other). It is a function of its own so that its loop keeps
// every value in a register.
//
//go:noinline
func stepColors(out *[spanChunk][4]int32, n int, rb, ga, drb, dga uint64) {
	for i := 0; i < n; i++ {
		o := &out[i&(spanChunk-1)]
		o[0], o[1], o[2], o[3] = lut5p[rb>>51], lut6p[ga>>50], lut5p[rb>>4&8191], lut6p[ga>>4&16383]
		rb += drb
		ga += dga
	}
}

// shadeSpan runs the pixel pipeline on the n fragments of sb, which start
// at (x0, y).
func (e *Engine) shadeSpan(sb *spanBuf, n, x0, y int) {
	p := &e.px
	live := &sb.live
	for i := 0; i < n; i++ {
		live[i] = true
	}
	if p.plain {
		e.outputSpan(sb, &sb.col, n, x0, y)
		return
	}
	sb.flat = false // the stages below may vary the colour
	if p.texMod {
		// One bilinear texture times the diffuse colour, nothing after.
		if p.rowOver565 && sb.fixed && sb.vconst && e.rowOver565(sb, n, x0, y) {
			return
		}
		p.tex[0].bilinearModulate(sb, n)
		e.outputSpan(sb, &sb.out, n, x0, y)
		return
	}
	for u := 0; u < p.ntex; u++ {
		p.tex[u].sampleSpan(sb, u, n, !p.keyBlend)
	}
	col := &sb.col
	if p.ntex > 0 && p.txbl {
		col = &sb.out
		cb := &p.comb
		if cb.stages == 1 && cb.col[0].simple && cb.alp[0].simple {
			sb.modulate(cb, n)
		} else {
			for i := 0; i < n; i++ {
				if live[i] {
					cb.run(&sb.col[i], &sb.spec[i], &sb.tex[0][i], &sb.tex[1][i], &sb.out[i])
				}
			}
		}
	}
	if p.keyBlend {
		t := &p.tex[0]
		if !p.tex[0].key {
			t = &p.tex[1]
		}
		for i := 0; i < n; i++ {
			if live[i] && t.keyed(col[i]) {
				live[i] = false
			}
		}
	}
	if p.specAdd {
		for i := 0; i < n; i++ {
			c, s := &col[i], &sb.spec[i]
			c[0], c[1], c[2] = sat(c[0]+s[0]), sat(c[1]+s[1]), sat(c[2]+s[2])
		}
	}
	if p.fog {
		if p.fogMode == 0 {
			fc := p.fogCol
			for i := 0; i < n; i++ {
				c := &col[i]
				c[0], c[1], c[2] = sat(c[0]+fc[0]), sat(c[1]+fc[1]), sat(c[2]+fc[2]) // constant fog (L285)
			}
		} else {
			var f frag
			for i := 0; i < n; i++ {
				f.z, f.w, f.spec = sb.z[i], sb.w[i], sb.spec[i]
				ff := p.fogFactor(&f)
				c := &col[i]
				for k := 0; k < 3; k++ {
					c[k] = sat(mul12(ff, c[k]) + mul12(one-ff, p.fogCol[k]))
				}
			}
		}
	}
	if p.polyStipple {
		t := &p.tex[p.stippleTx]
		v := float64(y) * p.stippleVdir
		for i := 0; i < n; i++ {
			if live[i] && t.sample(float64(x0+i)/32, v, 0)[3] < one/2 {
				live[i] = false
			}
		}
	}
	if p.atest {
		for i := 0; i < n; i++ {
			a6 := int32((int64(sat(col[i][3]))*63 + 2048) >> 12) // A[7:2] only (L2628)
			if !compare(p.afunc, int64(a6), int64(p.aref)) {
				live[i] = false
			}
		}
	}
	e.outputSpan(sb, col, n, x0, y)
}

// operand returns the chunk array a stage-0 argument select reads (srcp's
// choice); constants are spread into sb.konst[slot].
func (sb *spanBuf) operand(cb *combiner, sel uint8, slot, n int) *[spanChunk][4]int32 {
	var k [4]int32
	switch sel & 31 {
	case 0x01, 0x03, 0x05:
		return &sb.col
	case 0x04:
		if cb.useSpc {
			return &sb.spec
		}
	case 0x06:
		return &sb.tex[0]
	case 0x07:
		return &sb.tex[1]
	case 0x12:
		k = cb.fact[0]
	case 0x13:
		k = cb.fact[1]
	}
	a := &sb.konst[slot]
	for i := 0; i < n; i++ {
		a[i] = k
	}
	return a
}

// modulate is combiner.run's one-stage MUL shape over a chunk.
func (sb *spanBuf) modulate(cb *combiner, n int) {
	c, a := &cb.col[0], &cb.alp[0]
	a0, a1 := sb.operand(cb, c.arg[0], 0, n), sb.operand(cb, c.arg[1], 1, n)
	b0, b1 := sb.operand(cb, a.arg[0], 2, n), sb.operand(cb, a.arg[1], 3, n)
	for i := 0; i < n; i++ {
		sb.out[i] = [4]int32{sat(mul12(a0[i][0], a1[i][0])), sat(mul12(a0[i][1], a1[i][1])),
			sat(mul12(a0[i][2], a1[i][2])), sat(mul12(b0[i][3], b1[i][3]))}
	}
}

// sampleSpan fills sb.tex[u] for the live fragments, dropping those the
// unit's colour key rejects (key: the key test applies here, as in shade).
func (t *texUnit) sampleSpan(sb *spanBuf, u, n int, key bool) {
	uv, lod, out, live := &sb.uv[u], &sb.lod[u], &sb.tex[u], &sb.live
	if key && t.key {
		for i := 0; i < n; i++ {
			if live[i] && t.keyCovered(uv[i][0], uv[i][1])*32 > int64(t.keyRatio)*256 {
				live[i] = false
			}
		}
	}
	if t.needLOD || t.mag != 1 || t.lanes == nil || !spanAxisOK(t.levels[0].w, t.wrapU) || !spanAxisOK(t.levels[0].h, t.wrapV) {
		for i := 0; i < n; i++ {
			if live[i] {
				t.sampleTo(uv[i][0], uv[i][1], lod[i], &out[i])
			}
		}
		return
	}
	t.bilinearSpan(sb, u, n)
}

// Texel lanes: a decoded texel packed as four 16-bit lanes, R | G<<16 |
// B<<32 | A<<48 (12-bit channels, so 4096 fits). The bilinear filter
// spreads R and B, then G and A, into two 32-bit lanes of a uint64 and
// weighs both channels with one multiplication: a lane's sum is at most
// 65536 * 4096 + 32768 < 2^32, so no lane carries into the next, and each
// lane holds exactly the sum sampleLevelTo computes for its channel.
const laneMask = 0x0000FFFF0000FFFF

func packLanes(c [4]int32) uint64 {
	return uint64(c[0]) | uint64(c[1])<<16 | uint64(c[2])<<32 | uint64(c[3])<<48
}

// laneTables caches the lanes of every raw texel of a non-paletted 8- or
// 16-bit format (read-only once built).
var laneTables = map[uint8][]uint64{}

func formatLanes(code uint8) []uint64 {
	lutMu.Lock()
	defer lutMu.Unlock()
	if t, ok := laneTables[code]; ok {
		return t
	}
	l := texLayouts[code]
	t := make([]uint64, 1<<l.bpp)
	for i := range t {
		t[i] = packLanes(decodeLayout(&l, uint32(i)))
	}
	laneTables[code] = t
	return t
}

// bilinearSpan is sampleLevelTo's bilinear filter of level 0 of an 8- or
// 16-bit format over a chunk, for the wrap modes that never read the
// border colour: wrap of a power-of-two size (wrap2's modulo as a mask) and
// clamp to edge. It runs in two loops that call nothing and keep few
// values live, so that the compiler holds them in registers: footprints
// (texCoordFixed, wrap2, the texel offsets and weights), then the texel
// reads and the weighted sums. Pixels a colour key dropped read texel 0.
func (t *texUnit) bilinearSpan(sb *spanBuf, u, n int) {
	uv, out, live := &sb.uv[u], &sb.tex[u], &sb.live
	l := &t.levels[0]
	sw, sh := float64(l.w)*256, float64(l.h)*256
	au, av := newAxis(l.w, t.wrapU), newAxis(l.h, t.wrapV)
	base, pitch := l.base, l.pitch
	xs := uint32(0) // log2 of the bytes per texel
	if t.bpp == 16 {
		xs = 1
	}
	fp, wt := &sb.foot, &sb.weight
	for i := 0; i < n; i++ {
		fu, fv := fixCoord(uv[i][0]*sw)-128, fixCoord(uv[i][1]*sh)-128
		x0, x1 := au.pair(fu >> 8)
		y0, y1 := av.pair(fv >> 8)
		x0, x1 = x0<<xs, x1<<xs
		r0, r1 := base+y0*pitch, base+y1*pitch
		fp[i] = [4]uint32{r0 + x0, r0 + x1, r1 + x0, r1 + x1}
		wt[i] = uint32(fu&255) | uint32(fv&255)<<8
		if !live[i] {
			fp[i] = [4]uint32{base, base, base, base}
		}
	}
	// The lane tables as arrays, which a 16- or 8-bit texel indexes
	// without a bounds check.
	vr := t.vram
	var l16 *[1 << 16]uint64
	var l8 *[256]uint64
	if xs == 1 {
		l16 = (*[1 << 16]uint64)(t.lanes)
	} else {
		l8 = (*[256]uint64)(t.lanes)
	}
	for i := 0; i < n; i++ {
		o := &fp[i]
		var e00, e10, e01, e11 uint64
		if xs == 1 {
			e00 = l16[binary.LittleEndian.Uint16(vr[o[0]:])]
			e10 = l16[binary.LittleEndian.Uint16(vr[o[1]:])]
			e01 = l16[binary.LittleEndian.Uint16(vr[o[2]:])]
			e11 = l16[binary.LittleEndian.Uint16(vr[o[3]:])]
		} else {
			e00, e10, e01, e11 = l8[vr[o[0]]], l8[vr[o[1]]], l8[vr[o[2]]], l8[vr[o[3]]]
		}
		wu, wv := uint64(wt[i]&255), uint64(wt[i]>>8)
		w00 := (256 - wu) * (256 - wv)
		w10 := wu * (256 - wv)
		w01 := (256 - wu) * wv
		w11 := wu * wv
		const half = 0x0000800000008000
		rb := w00*(e00&laneMask) + w10*(e10&laneMask) + w01*(e01&laneMask) + w11*(e11&laneMask) + half
		ga := w00*(e00>>16&laneMask) + w10*(e10>>16&laneMask) + w01*(e01>>16&laneMask) + w11*(e11>>16&laneMask) + half
		out[i] = [4]int32{int32(rb >> 16 & 0xFFFF), int32(ga >> 16 & 0xFFFF), int32(rb >> 48), int32(ga >> 48)}
	}
}

// stepCoord fills f[0:n] with fixCoord(u_i * size * 256) - 128 (the
// texel coordinate with 8 fraction bits, less half a texel, as
// sampleLevelTo takes it) for u_0 = u and u_i+1 = q(u_i + d), the affine
// interpolation of walkTriRef, and returns u_n.
//
// It steps in integers, exactly, where the s[7].16 arithmetic allows. In
// a positive binade [2^k, 2^k+1) the chip's grid is g = 2^(k-16), so u_i
// = M*g with M an integer in [2^16, 2^17), and when the exact sum M*g + d
// stays in that binade, q(M*g + d) = (M + round(d/g))*g: the same integer
// step for every pixel, unless d/g ends in exactly one half (where
// round-to-even depends on M's parity). A run of pixels whose M stays in
// [2^16+1, 2^17-1] keeps every exact sum inside the binade (the step is
// within half a unit of the rounded one), and its coordinates are
// M*size*2^(k-8), whose floor is a shift. The step out of a run, and any
// pixel no run covers (zero or negative coordinates, ties, clamps), is
// walkTriRef's float64 step. TestStepCoord compares the two over random
// inputs.
func stepCoord(f *[spanChunk]int32, n int, u, d float64, size int) float64 {
	sw := float64(size) * 256
	if d == 0 {
		// q(u + 0) is u (u is on the grid): one coordinate for the chunk.
		c := int32(fixCoord(u*sw) - 128)
		for i := 0; i < n; i++ {
			f[i] = c
		}
		return u
	}
	for i := 0; i < n; {
		if r := stepRun(f, i, n, u, d, size); r > 1 {
			b := math.Float64bits(u)
			k := int(b>>52&0x7FF) - 1023
			dg := math.Ldexp(d, 16-k)
			last := int64((b&(1<<52-1)|1<<52)>>36) + int64(r-1)*int64(math.RoundToEven(dg))
			u = q(math.Ldexp(float64(last), k-16) + d)
			i += r
			continue
		}
		f[i] = int32(fixCoord(u*sw) - 128)
		u = q(u + d)
		i++
	}
	return u
}

// stepRun fills f[i:i+r] by stepCoord's integer stepping from u, for the
// longest run r <= n-i that it allows, and returns r (0 when it allows
// none).
func stepRun(f *[spanChunk]int32, i, n int, u, d float64, size int) int {
	b := math.Float64bits(u)
	e := int(b >> 52 & 0x7FF)
	if b>>63 != 0 || e <= 1023-60 || e >= 1023+60 || b&(1<<36-1) != 0 {
		return 0 // not positive, outside the exponents handled, or off the grid
	}
	k := e - 1023
	m := int64((b&(1<<52-1) | 1<<52) >> 36) // u / g, in [2^16, 2^17)
	dg := math.Ldexp(d, 16-k)               // d / g, exactly
	step := math.RoundToEven(dg)
	s := k - 8 // the coordinate is m*size*2^s
	if math.Abs(dg-math.Trunc(dg)) == 0.5 || math.Abs(step) >= 1<<16 || float64(size)*math.Ldexp(1<<17, s) > 1<<28 {
		return 0
	}
	di := int64(step)
	r := n - i
	switch {
	case di > 0:
		r = min(r, int((1<<17-1-m)/di)+1)
	case di < 0 && m >= 1<<16+1:
		r = min(r, int((m-(1<<16+1))/-di)+1)
	case m < 1<<16+1:
		r = 1
	}
	a, da := m*int64(size), di*int64(size)
	o := f[i : i+r]
	if s >= 0 {
		sh := uint(s) & 63 // s < 52: the mask only tells the compiler
		for j := range o {
			o[j] = int32(a<<sh - 128)
			a += da
		}
	} else {
		sh := uint(min(-s, 63)) & 63 // a < 2^63: a>>63 is a>>-s, 0
		for j := range o {
			o[j] = int32(a>>sh - 128)
			a += da
		}
	}
	return r
}

// axis wraps one texel coordinate for bilinearSpan: with mask >= 0 the
// size is a power of two that wraps, else the coordinate clamps to
// [0, last].
type axis struct{ mask, last int64 }

func newAxis(n int, mode uint32) axis {
	if mode == 1 {
		return axis{mask: int64(n) - 1}
	}
	return axis{mask: -1, last: int64(n) - 1}
}

// spanAxisOK reports whether bilinearSpan handles a wrap mode and size.
func spanAxisOK(n int, mode uint32) bool { return (mode == 1 && n&(n-1) == 0) || mode == 3 }

// pair returns wrap2(x, n, mode) for the modes bilinearSpan handles.
func (a axis) pair(x int64) (uint32, uint32) {
	if a.mask >= 0 {
		return uint32(x & a.mask), uint32((x + 1) & a.mask)
	}
	return uint32(min(max(x, 0), a.last)), uint32(min(max(x+1, 0), a.last))
}

// fixCoord is texCoordFixed's clamp and floor of a coordinate already
// scaled to texels with 8 fraction bits, the floor taken by truncation
// (exact below 2^28) so that no call stays in the loop.
func fixCoord(v float64) int64 {
	if !(v > -0x1p28) {
		return -1 << 28
	}
	if v > 0x1p28 {
		return 1 << 28
	}
	f := int64(v)
	if float64(f) > v {
		f--
	}
	return f
}

// z16 is hal/glamo.Z16 (Quant(z, 16)) without the library floor: inside
// (0, 1), z*65535 + 0.5 is positive, where truncation is the floor.
func z16(z float64) uint16 {
	if !(z > 0) {
		return 0
	}
	if z >= 1 {
		return 0xFFFF
	}
	return uint16(uint32(z*65535 + 0.5))
}

// depthSpan is outputSpan's Z pass (pixState.outFast, Z test or write
// on): the colour and Z buffers are disjoint, so testing and writing the
// chunk's Z before its colours changes no byte. It clears sb.live where
// the test fails.
func (e *Engine) depthSpan(sb *spanBuf, n, x0, y int) {
	p := &e.px
	vram, live := p.vram, &sb.live
	zRow := p.zbase + uint32(y)*p.zpitch + 2*uint32(x0)
	zt, zw, zfunc := p.zt, p.zw, p.zfunc
	zmask := uint16(0xFFFF)
	if p.zmaskOn {
		zmask = p.zmask
	}
	if sb.zconst {
		// One depth for the chunk (walkTriSpan).
		zb := vram[zRow : zRow+2*uint32(n)]
		zn, zf := z16(sb.z[0]), zfunc
		if !zt {
			zf = 7 // always
		}
		if zmask == 0xFFFF {
			// The test as a range of stored depths (depthRange).
			// The test first, then the writes: the chunk's one depth
			// copied whole when every pixel passed.
			lo, span, inv := depthRange(zf, int32(zn))
			pass := 0
			for i := 0; i < n; i++ {
				if live[i] {
					if uint32(binary.LittleEndian.Uint16(zb[2*i:2*i+2]))-lo <= span == inv {
						live[i] = false
					} else {
						pass++
					}
				}
			}
			if zw {
				if pass == n {
					copy(zb, sb.depthRow(zn)[:2*n])
				} else {
					for i := 0; i < n; i++ {
						if live[i] {
							binary.LittleEndian.PutUint16(zb[2*i:2*i+2], zn)
						}
					}
				}
			}
			return
		}
		for i := 0; i < n; i++ {
			if !live[i] {
				continue
			}
			zq := zb[2*i : 2*i+2]
			zd := binary.LittleEndian.Uint16(zq)
			if !cmpMask(zf, int32(zn), int32(zd)) {
				live[i] = false
				continue
			}
			if zw {
				binary.LittleEndian.PutUint16(zq, zn&zmask|zd&^zmask)
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		zAddr := zRow + 2*uint32(i)
		zd := binary.LittleEndian.Uint16(vram[zAddr:])
		zn := z16(sb.z[i])
		if zt && !compare(zfunc, int64(zn), int64(zd)) {
			live[i] = false
			continue
		}
		if zw {
			binary.LittleEndian.PutUint16(vram[zAddr:], zn&zmask|zd&^zmask)
		}
	}
}

// outputSpan is output for the live fragments of a chunk, colours from
// cols. The common state (pixState.outFast: no stencil, Z16 or no Z, no
// blending or SRC_ALPHA/ONE_MINUS_SRC_ALPHA, COPY, no write mask, colour
// and Z buffers apart) runs here in two passes, Z then colour; any other
// takes outputSpanAny.
//
// The blend and the quantisation work on lanes, two 12-bit channels in the
// 32-bit halves of a uint64 (R|B<<32 and G|A<<32): mul12(x, k) of both
// channels is one multiplication, since x*k + 2048 <= 4096*4096 + 2048 <
// 2^32, and the shift that divides by 4096 moves the high lane's low bits
// into the low lane's bits 20-31, which the 13-bit mask drops (a product
// is at most 4096). The blend needs no saturation: with x, d <= 4096,
// mul12(x, a) <= a and mul12(d, 4096-a) <= 4096-a, so the sum never
// exceeds 4096. R and B share their bit count in every colour format, so
// they also quantise together.
func (e *Engine) outputSpan(sb *spanBuf, cols *[spanChunk][4]int32, n, x0, y int) {
	p := &e.px
	if !p.outFast {
		e.outputSpanAny(sb, cols, n, x0, y)
		return
	}
	vram, live := p.vram, &sb.live
	if p.zt || p.zw {
		e.depthSpan(sb, n, x0, y)
	}
	if p.blend && p.cfmt == 0x11 {
		cRow := p.cbase + uint32(y)*p.cpitch + 2*uint32(x0)
		sb.count += over565(vram[cRow:cRow+2*uint32(n)], cols, live, n, &p.quant[y&3].adds, x0, p.dstLanes, p.dstAOr, p.texMod)
		return
	}
	// Channel k quantises to qm[k] levels at bit qs[k]; an absent channel
	// has qm = 0 and quantises to 0 (the offset is below 4096).
	var qm [4]int32
	var qs [4]uint32
	for k, ch := range p.clay.ch {
		if ch.bits != 0 {
			qm[k], qs[k] = int32(1)<<ch.bits-1, uint32(ch.shift)
		}
	}
	qrb, qm1, qm3 := uint64(qm[0]), qm[1], qm[3]
	qs0, qs1, qs2, qs3 := qs[0]&15, qs[1]&15, qs[2]&15, qs[3]&15
	// The dither offsets of this row (quant's (2b+1)/32 of a step), or
	// rounding to nearest.
	adds := [4]int32{2048, 2048, 2048, 2048}
	if p.dither {
		for k := 0; k < 4; k++ {
			d := bayer[y&3][k]
			if p.invDither {
				d = 15 - d
			}
			adds[k] = d*256 + 128
		}
	}
	cRow := p.cbase + uint32(y)*p.cpitch + 2*uint32(x0)
	blend, dstLanes, aOr := p.blend, p.dstLanes, p.dstAOr
	if sb.flat && !blend {
		// One colour over the chunk: its pixel for each dither column.
		c := &cols[0]
		rb := uint64(sat(c[0])) | uint64(sat(c[2]))<<32
		g, a := sat(c[1]), sat(c[3])
		var pxs [4]uint16
		for k, add := range adds {
			q := (rb*qrb + uint64(add)*(1|1<<32)) >> 12
			pxs[k] = uint16(q&0xFF)<<qs0 | uint16(q>>32&0xFF)<<qs2 |
				uint16((g*qm1+add)>>12)<<qs1 | uint16((a*qm3+add)>>12)<<qs3
		}
		for i := 0; i < n; i++ {
			if live[i] {
				binary.LittleEndian.PutUint16(vram[cRow+2*uint32(i):], pxs[(x0+i)&3])
				sb.count++
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		cAddr := cRow + 2*uint32(i)
		c := &cols[i]
		a := sat(c[3])
		rb := uint64(sat(c[0])) | uint64(sat(c[2]))<<32
		ga := uint64(sat(c[1])) | uint64(a)<<32
		if blend {
			d := dstLanes[binary.LittleEndian.Uint16(vram[cAddr:])] | aOr
			ka, kd := uint64(a), uint64(one-a)
			rb = mulLanes(rb, ka) + mulLanes(d&laneMask, kd)
			ga = mulLanes(ga, ka) + mulLanes(d>>16&laneMask, kd)
		}
		add := adds[(x0+i)&3]
		q := (rb*qrb + uint64(add)*(1|1<<32)) >> 12
		px := uint16(q&0xFF)<<qs0 | uint16(q>>32&0xFF)<<qs2 |
			uint16((int32(ga&0x1FFF)*qm1+add)>>12)<<qs1 | uint16((int32(ga>>32)*qm3+add)>>12)<<qs3
		binary.LittleEndian.PutUint16(vram[cAddr:], px)
		sb.count++
	}
}

// mulLanes is mul12 of both lanes of x by k (k <= 4096).
func mulLanes(x, k uint64) uint64 {
	return (x*k + 2048*(1|1<<32)) >> 12 & (0x1FFF * (1 | 1<<32))
}

// dstLanesOf caches the lanes of every pixel of a colour format, with 0 in
// the alpha lane of a format without alpha (read-only once built).
var dstLaneTables = map[uint32]*[1 << 16]uint64{}

func dstLanesOf(f uint32) *[1 << 16]uint64 {
	lutMu.Lock()
	defer lutMu.Unlock()
	if t, ok := dstLaneTables[f]; ok {
		return t
	}
	l := colorLayouts[f]
	t := new([1 << 16]uint64)
	for i := range t {
		c := decodeLayout(&l, uint32(i))
		if l.ch[3].bits == 0 {
			c[3] = 0
		}
		t[i] = packLanes(c)
	}
	dstLaneTables[f] = t
	return t
}

// outputSpanAny is output for the live fragments of a chunk in any state.
func (e *Engine) outputSpanAny(sb *spanBuf, cols *[spanChunk][4]int32, n, x0, y int) {
	var f frag
	f.y = y
	for i := 0; i < n; i++ {
		if sb.live[i] {
			f.x, f.z = x0+i, sb.z[i]
			e.output(&f, cols[i])
		}
	}
	sb.count += f.count
}

// plainChunk is the chunk pipeline of the plain states that outputSpan
// writes without blending (pixState.plainFast): interpolation, shadeSpan
// and outputSpan fused into two loops, the depths interpolated, tested and
// written first, then the colours interpolated and quantised, in the same
// order and rounding as the staged pipeline. It returns the depth for the
// next chunk.
func (e *Engine) plainChunk(sb *spanBuf, n, x0, y int, acc, dx *[8]int64, z, dz, off float64) float64 {
	p := &e.px
	vram, live := p.vram, &sb.live
	if p.fill565 && n >= fillMin && (dz == 0 || !p.needZ) {
		if e.fillChunk(sb, n, x0, y, acc, dx, z, off) {
			return z
		}
	}
	nlive := int64(0) // the live pixels, which plainChunk writes
	if p.needZ {
		zRow := p.zbase + uint32(y)*p.zpitch + 2*uint32(x0)
		zb := vram[zRow : zRow+2*uint32(n)]
		zt, zw, zfunc := p.zt, p.zw, p.zfunc
		zmask := uint16(0xFFFF)
		if p.zmaskOn {
			zmask = p.zmask
		}
		if dz == 0 {
			// A plane parallel to the screen: q(z + 0) is z (z is
			// already rounded), so every pixel has the same depth.
			zi := z
			if off != 0 {
				zi = q(z + off)
			}
			zn := z16(zi)
			zf := zfunc
			if !zt {
				zf = 7 // always
			}
			if zmask == 0xFFFF {
				// The test as a range of stored depths (depthRange).
				// The test first, then the writes: the chunk's one depth
				// copied whole when every pixel passed.
				lo, span, inv := depthRange(zf, int32(zn))
				for i := 0; i < n; i++ {
					ok := uint32(binary.LittleEndian.Uint16(zb[2*i:2*i+2]))-lo <= span != inv
					live[i] = ok
					if ok {
						nlive++
					}
				}
				if zw {
					if nlive == int64(n) {
						copy(zb, sb.depthRow(zn)[:2*n])
					} else {
						for i := 0; i < n; i++ {
							if live[i] {
								binary.LittleEndian.PutUint16(zb[2*i:2*i+2], zn)
							}
						}
					}
				}
			} else {
				for i := 0; i < n; i++ {
					zq := zb[2*i : 2*i+2]
					zd := binary.LittleEndian.Uint16(zq)
					ok := cmpMask(zf, int32(zn), int32(zd))
					live[i] = ok
					if ok {
						nlive++
						if zw {
							binary.LittleEndian.PutUint16(zq, zn&zmask|zd&^zmask)
						}
					}
				}
			}
		} else {
			for i := 0; i < n; i++ {
				zi := z
				if off != 0 {
					zi = q(z + off)
				}
				z = q(z + dz)
				zq := zb[2*i : 2*i+2]
				zd, zn := binary.LittleEndian.Uint16(zq), z16(zi)
				ok := !zt || compare(zfunc, int64(zn), int64(zd))
				live[i] = ok
				if ok {
					nlive++
					if zw {
						binary.LittleEndian.PutUint16(zq, zn&zmask|zd&^zmask)
					}
				}
			}
		}
	} else {
		for i := 0; i < n; i++ {
			live[i] = true
		}
		nlive = int64(n)
	}
	qz := &p.quant[y&3]
	cRow := p.cbase + uint32(y)*p.cpitch + 2*uint32(x0)
	cb := vram[cRow : cRow+2*uint32(n)]
	a0, a1, a2, a3 := acc[0], acc[1], acc[2], acc[3]
	d0, d1, d2, d3 := dx[0], dx[1], dx[2], dx[3]
	if d0|d1|d2|d3 == 0 {
		var pxs [4]uint16
		for k := range pxs {
			pxs[k] = qz.pixel(c5(a0>>4), c6(a1>>4), c5(a2>>4), c6(a3>>4), k)
		}
		for i := 0; i < n; i++ {
			if live[i] {
				binary.LittleEndian.PutUint16(cb[2*i:2*i+2], pxs[(x0+i)&3])
			}
		}
		sb.count += nlive
		return z
	}
	if f := p.cfmt; f == 0x11 || f == 0x51 {
		// RGB565, red high or low: no alpha to interpolate, constant
		// shifts. The alpha plane still advances by n steps.
		plain565(cb, live, n, x0, a0, a1, a2, d0, d1, d2, &qz.adds, f == 0x11)
		sb.count += nlive
		acc[0], acc[1], acc[2], acc[3] = a0+d0*int64(n), a1+d1*int64(n), a2+d2*int64(n), a3+d3*int64(n)
		return z
	}
	for i := 0; i < n; i++ {
		r, g, b, a := c5(a0>>4), c6(a1>>4), c5(a2>>4), c6(a3>>4)
		a0 += d0
		a1 += d1
		a2 += d2
		a3 += d3
		if live[i] {
			binary.LittleEndian.PutUint16(cb[2*i:2*i+2], qz.pixel(r, g, b, a, (x0+i)&3))
		}
	}
	sb.count += nlive
	acc[0], acc[1], acc[2], acc[3] = a0, a1, a2, a3
	return z
}

// plain565 is plainChunk's colour loop for the RGB565 targets (quantizer
// with 31, 63 and 31 levels), writing the live pixels.
func plain565(cb []byte, live *[spanChunk]bool, n, x0 int, a0, a1, a2, d0, d1, d2 int64, adds *[4]int32, rHigh bool) {
	last := int64(n - 1)
	inRange := func(a, d, hi int64) bool {
		lo, end := a>>4, (a+d*last)>>4
		return lo >= 0 && lo <= hi && end >= 0 && end <= hi
	}
	if !rHigh || !inRange(a0, d0, 31*256) || !inRange(a1, d1, 63*256) || !inRange(a2, d2, 31*256) {
		var ph [4]int32 // the dither offsets by pixel index within the chunk
		for k := range ph {
			ph[k] = adds[(x0+k)&3]
		}
		plain565Any(cb, live, n, a0, a1, a2, d0, d1, d2, &ph, rHigh)
		return
	}
	// Every channel stays inside its table, so c5 and c6 need no clamp,
	// and the quantisation tables give each channel's bits at once (the
	// table of the dither offset of the pixel's column). Red and blue
	// step together in the 32-bit halves of one integer: both stay in
	// 0..2^21 over the chunk, so the halves never mix.
	var t5 [4]*[8192]uint8
	var t6 [4]*[16384]uint8
	for k := range t5 {
		d := quantIndex(adds[(x0+k)&3])
		t5[k], t6[k] = &quant5[d], &quant6[d]
	}
	rb, drb := a0+a2<<32, d0+d2<<32
	// The pixels first, into px (a loop with no branch and few live
	// values), then the live ones to memory.
	var px [spanChunk]uint16
	for i := 0; i < n; i++ {
		k := i & 3
		q5, q6 := t5[k], t6[k]
		px[i&(spanChunk-1)] = uint16(q5[(rb>>4)&8191])<<11 | uint16(q6[(a1>>4)&16383])<<5 | uint16(q5[(rb>>36)&8191])
		rb += drb
		a1 += d1
	}
	if cap(cb) >= 2*spanChunk {
		// The chunk's bytes as an array, indexed without bounds checks
		// (only the first n pixels are written).
		out := (*[2 * spanChunk]byte)(cb[:2*spanChunk])
		for i := 0; i < n; i++ {
			if live[i&(spanChunk-1)] {
				v := px[i&(spanChunk-1)]
				out[(2*i)&(2*spanChunk-1)], out[(2*i+1)&(2*spanChunk-1)] = byte(v), byte(v>>8)
			}
		}
		return
	}
	cb = cb[:2*n]
	for i := 0; i < n; i++ {
		if live[i&(spanChunk-1)] {
			binary.LittleEndian.PutUint16(cb[2*i:], px[i&(spanChunk-1)])
		}
	}
}

// quant5 and quant6 map a colour plane's value in s5.8 or s6.8 units (an
// index of lut5p or lut6p) straight to its quantised 5- or 6-bit channel,
// one table per dither offset (quantIndex): (lut5p[v]*31 + add) >> 12 and
// (lut6p[v]*63 + add) >> 12, the quantizer's arithmetic. Filled by
// initQuantTables from pixel.go's init, after lut5p and lut6p.
var (
	quant5 [17][8192]uint8
	quant6 [17][16384]uint8
)

// quantIndex returns the table of a dither offset: offsets d*256+128 (d =
// 0..15, the Bayer levels) are tables 0..15, rounding to nearest (2048)
// is table 16.
func quantIndex(add int32) int {
	if add == 2048 {
		return 16
	}
	return int(add>>8) & 15
}

func initQuantTables() {
	for d := range quant5 {
		add := int32(d*256 + 128)
		if d == 16 {
			add = 2048
		}
		for v := range quant5[d] {
			quant5[d][v] = uint8((lut5p[v]*31 + add) >> 12)
		}
		for v := range quant6[d] {
			quant6[d][v] = uint8((lut6p[v]*63 + add) >> 12)
		}
	}
}

// lut5p and lut6p are lut5_8 and lut6_8 padded to powers of two (the
// padding repeats the last entry), for indexes known in range. They are
// filled by pixel.go's init, after the tables they copy.
var (
	lut5p [8192]int32
	lut6p [16384]int32
)

// plain565Any is plain565 with the channels clamped.
func plain565Any(cb []byte, live *[spanChunk]bool, n int, a0, a1, a2, d0, d1, d2 int64, ph *[4]int32, rHigh bool) {
	sr, sb := uint16(11), uint16(0)
	if !rHigh {
		sr, sb = 0, 11
	}
	for i := 0; i < n; i++ {
		r, g, b := c5(a0>>4), c6(a1>>4), c5(a2>>4)
		a0 += d0
		a1 += d1
		a2 += d2
		if !live[i] {
			continue
		}
		add := ph[i&3]
		px := uint16((r*31+add)>>12)<<(sr&15) | uint16((g*63+add)>>12)<<5 | uint16((b*31+add)>>12)<<(sb&15)
		binary.LittleEndian.PutUint16(cb[2*i:2*i+2], px)
	}
}

// quantizer is outputSpan's conversion of a 12-bit colour to the target's
// pixel on one row: channel k quantises to qm[k] levels at bit qs[k] (an
// absent channel has qm = 0 and quantises to 0), adding the dither offset
// of the pixel's column, or rounding to nearest.
type quantizer struct {
	qrb                uint64
	qm1, qm3           int32
	qs0, qs1, qs2, qs3 uint32
	adds               [4]int32
}

// quantizers returns the quantizer of each row y&3.
func (e *Engine) quantizers() (qs [4]quantizer) {
	for y := range qs {
		qs[y] = e.quantizer(y)
	}
	return qs
}

func (e *Engine) quantizer(y int) quantizer {
	p := &e.px
	var qm [4]int32
	var qs [4]uint32
	for k, ch := range p.clay.ch {
		if ch.bits != 0 {
			qm[k], qs[k] = int32(1)<<ch.bits-1, uint32(ch.shift)
		}
	}
	qz := quantizer{qrb: uint64(qm[0]), qm1: qm[1], qm3: qm[3],
		qs0: qs[0] & 15, qs1: qs[1] & 15, qs2: qs[2] & 15, qs3: qs[3] & 15,
		adds: [4]int32{2048, 2048, 2048, 2048}}
	if p.dither {
		for k := 0; k < 4; k++ {
			d := bayer[y&3][k]
			if p.invDither {
				d = 15 - d
			}
			qz.adds[k] = d*256 + 128
		}
	}
	return qz
}

// pixel quantises channels 0..4096 for dither column k (R and B in the
// two 32-bit lanes of one multiplication, as outputSpan does).
func (qz *quantizer) pixel(r, g, b, a int32, k int) uint16 {
	add := qz.adds[k&3]
	rb := uint64(r) | uint64(b)<<32
	q := (rb*qz.qrb + uint64(add)*(1|1<<32)) >> 12
	return uint16(q&0xFF)<<qz.qs0 | uint16(q>>32&0xFF)<<qz.qs2 |
		uint16((g*qz.qm1+add)>>12)<<qz.qs1 | uint16((a*qz.qm3+add)>>12)<<qz.qs3
}

// cmpMask is compare for codes 0..7, which are themselves the mask of the
// outcomes they accept (bit 0 a < b, bit 1 a == b, bit 2 a > b), without
// a branch; a and b lie in 0..65535.
func cmpMask(f uint32, a, b int32) bool {
	s := (a-b)>>31 | int32(uint32(b-a)>>31) // -1, 0 or 1
	return f>>uint32(s+1)&1 != 0
}

// bilinearModulate is sampleSpan's bilinearSpan of unit 0 followed by
// modulate for pixState.texMod (the one-stage MUL of the diffuse colour
// and texture 0, in colour and alpha), in one loop: each texel is
// filtered in bilinearSpan's lanes and multiplied into sb.out at once.
func (t *texUnit) bilinearModulate(sb *spanBuf, n int) {
	col, out := &sb.col, &sb.out
	l := &t.levels[0]
	fus, fvs := &sb.fu, &sb.fv
	if !sb.fixed {
		// texCoordFixed of the interpolated coordinates, less half a texel.
		uv := &sb.uv[0]
		sw, sh := float64(l.w)*256, float64(l.h)*256
		for i := 0; i < n; i++ {
			fus[i], fvs[i] = int32(fixCoord(uv[i][0]*sw)-128), int32(fixCoord(uv[i][1]*sh)-128)
		}
	}
	if sb.fixed && sb.vconst {
		if t.bpp == 16 && t.bilinearRow(sb, n) {
			return
		}
		for i := 1; i < n; i++ {
			fvs[i] = fvs[0]
		}
	}
	au, av := newAxis(l.w, t.wrapU), newAxis(l.h, t.wrapV)
	base, pitch := l.base, l.pitch
	vr := t.vram
	if t.bpp == 16 && au.mask >= 0 && av.mask >= 0 {
		// Both axes wrap: pair's masks without its test.
		lt := (*[1 << 16]uint64)(t.lanes)
		mu, mv := uint32(au.mask), uint32(av.mask)
		for i := 0; i < n; i++ {
			fu, fv := int64(fus[i&(spanChunk-1)]), int64(fvs[i&(spanChunk-1)])
			u, v := uint32(fu>>8), uint32(fv>>8)
			x0, x1 := 2*(u&mu), 2*((u+1)&mu)
			r0, r1 := base+(v&mv)*pitch, base+((v+1)&mv)*pitch
			var e00, e10, e01, e11 uint64
			if x1 == x0+2 {
				// Neighbours in one row: both texels in one read.
				p0 := binary.LittleEndian.Uint32(vr[r0+x0 : r0+x0+4])
				p1 := binary.LittleEndian.Uint32(vr[r1+x0 : r1+x0+4])
				e00, e10, e01, e11 = lt[uint16(p0)], lt[p0>>16], lt[uint16(p1)], lt[p1>>16]
			} else {
				e00 = lt[binary.LittleEndian.Uint16(vr[r0+x0:r0+x0+2])]
				e10 = lt[binary.LittleEndian.Uint16(vr[r0+x1:r0+x1+2])]
				e01 = lt[binary.LittleEndian.Uint16(vr[r1+x0:r1+x0+2])]
				e11 = lt[binary.LittleEndian.Uint16(vr[r1+x1:r1+x1+2])]
			}
			// modulateTexel, written out.
			wu, wv := uint64(fu&255), uint64(fv&255)
			w00, w10 := (256-wu)*(256-wv), wu*(256-wv)
			w01, w11 := (256-wu)*wv, wu*wv
			const half = 0x0000800000008000
			rb := w00*(e00&laneMask) + w10*(e10&laneMask) + w01*(e01&laneMask) + w11*(e11&laneMask) + half
			ga := w00*(e00>>16&laneMask) + w10*(e10>>16&laneMask) + w01*(e01>>16&laneMask) + w11*(e11>>16&laneMask) + half
			// The colour's channels come from the 12-bit tables and the
			// texel's are weighted averages of 12-bit values: both lie in
			// 0..4096, so each product does too and sat changes nothing.
			c := &col[i&(spanChunk-1)]
			o := &out[i&(spanChunk-1)]
			o[0] = int32((int64(c[0])*int64(rb>>16&0xFFFF) + 2048) >> 12)
			o[1] = int32((int64(c[1])*int64(ga>>16&0xFFFF) + 2048) >> 12)
			o[2] = int32((int64(c[2])*int64(rb>>48) + 2048) >> 12)
			o[3] = int32((int64(c[3])*int64(ga>>48) + 2048) >> 12)
		}
		return
	}
	if t.bpp == 16 {
		lt := (*[1 << 16]uint64)(t.lanes)
		for i := 0; i < n; i++ {
			fu, fv := int64(fus[i&(spanChunk-1)]), int64(fvs[i&(spanChunk-1)])
			x0, x1 := au.pair(fu >> 8)
			y0, y1 := av.pair(fv >> 8)
			r0, r1 := base+y0*pitch, base+y1*pitch
			e00 := lt[binary.LittleEndian.Uint16(vr[r0+2*x0:r0+2*x0+2])]
			e10 := lt[binary.LittleEndian.Uint16(vr[r0+2*x1:r0+2*x1+2])]
			e01 := lt[binary.LittleEndian.Uint16(vr[r1+2*x0:r1+2*x0+2])]
			e11 := lt[binary.LittleEndian.Uint16(vr[r1+2*x1:r1+2*x1+2])]
			out[i] = modulateTexel(&col[i], e00, e10, e01, e11, uint64(fu&255), uint64(fv&255))
		}
		return
	}
	lt := (*[256]uint64)(t.lanes)
	for i := 0; i < n; i++ {
		fu, fv := int64(fus[i&(spanChunk-1)]), int64(fvs[i&(spanChunk-1)])
		x0, x1 := au.pair(fu >> 8)
		y0, y1 := av.pair(fv >> 8)
		r0, r1 := base+y0*pitch, base+y1*pitch
		e00, e10, e01, e11 := lt[vr[r0+x0]], lt[vr[r0+x1]], lt[vr[r1+x0]], lt[vr[r1+x1]]
		out[i] = modulateTexel(&col[i], e00, e10, e01, e11, uint64(fu&255), uint64(fv&255))
	}
}

// modulateTexel weighs four texels' lanes as bilinearSpan does and
// multiplies the result by colour c as modulate does.
func modulateTexel(c *[4]int32, e00, e10, e01, e11, wu, wv uint64) [4]int32 {
	w00, w10 := (256-wu)*(256-wv), wu*(256-wv)
	w01, w11 := (256-wu)*wv, wu*wv
	const half = 0x0000800000008000
	rb := w00*(e00&laneMask) + w10*(e10&laneMask) + w01*(e01&laneMask) + w11*(e11&laneMask) + half
	ga := w00*(e00>>16&laneMask) + w10*(e10>>16&laneMask) + w01*(e01>>16&laneMask) + w11*(e11>>16&laneMask) + half
	return [4]int32{sat(mul12(c[0], int32(rb>>16&0xFFFF))), sat(mul12(c[1], int32(ga>>16&0xFFFF))),
		sat(mul12(c[2], int32(rb>>48))), sat(mul12(c[3], int32(ga>>48)))}
}

// over565 is outputSpan's colour pass for SRC_ALPHA/ONE_MINUS_SRC_ALPHA
// into RGB565 with red high (0x11): the same lanes, blend and
// quantisation with its shifts and level counts as constants; the alpha
// lane's result has no bits to go to. It returns the pixels written.
func over565(cb []byte, cols *[spanChunk][4]int32, live *[spanChunk]bool, n int, adds *[4]int32, x0 int, dstLanes *[1 << 16]uint64, aOr uint64, inRange bool) int64 {
	if inRange {
		return over565InRange(cb, cols, live, n, adds, x0, dstLanes)
	}
	var ph [4]uint64 // the dither offsets by pixel index, in both lanes
	for k := range ph {
		ph[k] = uint64(adds[(x0+k)&3]) * (1 | 1<<32)
	}
	count := int64(0)
	cb = cb[:2*n]
	for i := 0; i < n; i++ {
		if !live[i&(spanChunk-1)] {
			continue
		}
		c := &cols[i&(spanChunk-1)]
		a := sat(c[3])
		q := cb[2*i : 2*i+2]
		d := dstLanes[binary.LittleEndian.Uint16(q)] | aOr
		ka, kd := uint64(a), uint64(one-a)
		rb := mulLanes(uint64(sat(c[0]))|uint64(sat(c[2]))<<32, ka) + mulLanes(d&laneMask, kd)
		g := mulLanes(uint64(sat(c[1])), ka) + mulLanes(d>>16&0xFFFF, kd)
		add := ph[i&3]
		rbq := (rb*31 + add) >> 12
		gq := (g*63 + add) >> 12 & 0xFF
		binary.LittleEndian.PutUint16(q, uint16(rbq&0xFF)<<11|uint16(gq)<<5|uint16(rbq>>32&0xFF))
		count++
	}
	return count
}

// over565InRange is over565 for colours known to lie in 0..4096
// (bilinearModulate's products), where sat changes nothing. The
// destination's alpha lane is not read (RGB565 has none to blend into
// the written channels).
func over565InRange(cb []byte, cols *[spanChunk][4]int32, live *[spanChunk]bool, n int, adds *[4]int32, x0 int, dstLanes *[1 << 16]uint64) int64 {
	var ph [4]uint64 // the dither offsets by pixel index, in both lanes
	for k := range ph {
		ph[k] = uint64(adds[(x0+k)&3]) * (1 | 1<<32)
	}
	cb = cb[:2*n]
	k := int64(0)
	for i := 0; i < n; i++ {
		if !live[i&(spanChunk-1)] {
			continue
		}
		k++
		c := &cols[i&(spanChunk-1)]
		q := cb[2*i : 2*i+2]
		d := dstLanes[binary.LittleEndian.Uint16(q)]
		ka, kd := uint64(c[3]), uint64(one-c[3])
		rb := mulLanes(uint64(c[0])|uint64(c[2])<<32, ka) + mulLanes(d&laneMask, kd)
		g := mulLanes(uint64(c[1]), ka) + mulLanes(d>>16&0xFFFF, kd)
		add := ph[i&3]
		rbq := (rb*31 + add) >> 12
		gq := (g*63 + add) >> 12 & 0xFF
		binary.LittleEndian.PutUint16(q, uint16(rbq&0xFF)<<11|uint16(gq)<<5|uint16(rbq>>32&0xFF))
	}
	return k
}

// depthRange returns the stored depths d for which compare(f, z, d) holds,
// for z in 0..65535: the range [lo, lo+span], or its complement when inv
// is set (d - lo is taken in uint32, so a d below lo falls outside).
func depthRange(f uint32, z int32) (lo, span uint32, inv bool) {
	const all = 0xFFFF
	switch f & 7 {
	case 0: // never
		return 0, all, true
	case 1: // z < d
		if z >= all {
			return 0, all, true
		}
		return uint32(z + 1), uint32(all - z - 1), false
	case 2: // equal
		return uint32(z), 0, false
	case 3: // z <= d
		return uint32(z), uint32(all - z), false
	case 4: // z > d
		if z <= 0 {
			return 0, all, true
		}
		return 0, uint32(z - 1), false
	case 5: // not equal
		return uint32(z), 0, true
	case 6: // z >= d
		return 0, uint32(z), false
	}
	return 0, all, false // always
}
