package glamo

import (
	"encoding/binary"
	"math"

	hg "github.com/retrogl/retrogl/hal/glamo"
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
	count     int64                  // pixels written
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
	j.t.Walk(clip, func(s *raster.Span) {
		cy16 := int64(s.Y)*16 + 8 - ya
		cx16 := int64(s.X0)*16 + 8 - xa
		var acc, dx [8]int64
		for k := 0; k < nch; k++ {
			acc[k], dx[k] = ip[k].at(cx16, cy16), ip[k].dx*16
		}
		rx, ry := float64(cx16)/16, float64(cy16)/16
		z := zp.row(rx, ry)
		w := wp.row(rx, ry)
		var uc, vc [2]float64
		for u := 0; u < ntex; u++ {
			uc[u], vc[u] = up[u].row(rx, ry), vp[u].row(rx, ry)
		}
		for x0 := s.X0; x0 < s.X1; x0 += spanChunk {
			n := min(spanChunk, s.X1-x0)
			// Interpolation, in walkTriRef's order and rounding (q(a+b)
			// is qadd written out so that it inlines).
			interpColor(&sb.col, n, &acc, &dx, 0)
			if nch == 8 {
				interpColor(&sb.spec, n, &acc, &dx, 4)
			}
			if needZ {
				dz := zp.dx
				for i := 0; i < n; i++ {
					sb.z[i] = z
					if off != 0 {
						sb.z[i] = q(z + off)
					}
					z = q(z + dz)
				}
			}
			if needW {
				dw := wp.dx
				for i := 0; i < n; i++ {
					sb.w[i] = w
					w = q(w + dw)
				}
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
					for i := 0; i < n; i++ {
						sb.lod[u][i] = lodC[u]
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
// F: 5-, 6-, 5- and 6-bit) from acc[k0:k0+4] over n pixels.
func interpColor(out *[spanChunk][4]int32, n int, acc, dx *[8]int64, k0 int) {
	a0, a1, a2, a3 := acc[k0], acc[k0+1], acc[k0+2], acc[k0+3]
	d0, d1, d2, d3 := dx[k0], dx[k0+1], dx[k0+2], dx[k0+3]
	for i := 0; i < n; i++ {
		out[i] = [4]int32{c5(a0 >> 4), c6(a1 >> 4), c5(a2 >> 4), c6(a3 >> 4)}
		a0 += d0
		a1 += d1
		a2 += d2
		a3 += d3
	}
	acc[k0], acc[k0+1], acc[k0+2], acc[k0+3] = a0, a1, a2, a3
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
	if t.needLOD || t.mag != 1 || t.bpp != 16 || t.fl.mode != 0 {
		for i := 0; i < n; i++ {
			if live[i] {
				t.sampleTo(uv[i][0], uv[i][1], lod[i], &out[i])
			}
		}
		return
	}
	t.bilinear16Span(uv, out, live, n)
}

// bilinear16Span is sampleLevelTo's bilinear filter of level 0 of a
// 16-bit colour format over a chunk: texCoordFixed, wrap2 (written out as
// a mask for a power-of-two size that wraps) and bilinear16 inline, and
// sampleLevelTo itself for a footprint touching the border.
func (t *texUnit) bilinear16Span(uv *[spanChunk][2]float64, out *[spanChunk][4]int32, live *[spanChunk]bool, n int) {
	l := &t.levels[0]
	w, h := l.w, l.h
	sw, sh := float64(w)*256, float64(h)*256
	maskU, maskV := -1, -1
	if t.wrapU == 1 && w&(w-1) == 0 {
		maskU = w - 1
	}
	if t.wrapV == 1 && h&(h-1) == 0 {
		maskV = h - 1
	}
	vr := t.vram
	base, pitch := l.base, l.pitch
	f := &t.fl
	var tab [4]*[256]int32
	var shv, msk [4]uint32
	for k := 0; k < 4; k++ {
		tab[k], shv[k], msk[k] = &zeroTab, 0, 0
		if f.on[k] {
			tab[k], shv[k], msk[k] = f.tab[k], uint32(f.sh[k]), f.mask[k]
		} else if k == 3 {
			tab[k] = &oneTab
		}
	}
	t0, t1, t2, t3 := tab[0], tab[1], tab[2], tab[3]
	s0, s1, s2, s3 := shv[0]&31, shv[1]&31, shv[2]&31, shv[3]&31
	m0, m1, m2, m3 := msk[0]&255, msk[1]&255, msk[2]&255, msk[3]&255
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		fu, fv := fixCoord(uv[i][0]*sw)-128, fixCoord(uv[i][1]*sh)-128
		var x0, x1, y0, y1 int
		if maskU >= 0 {
			x0 = int(fu>>8) & maskU
			x1 = (x0 + 1) & maskU
		} else {
			x0, x1 = wrap2(int(fu>>8), w, t.wrapU)
		}
		if maskV >= 0 {
			y0 = int(fv>>8) & maskV
			y1 = (y0 + 1) & maskV
		} else {
			y0, y1 = wrap2(int(fv>>8), h, t.wrapV)
		}
		if x0|x1|y0|y1 < 0 {
			t.sampleLevelTo(l, uv[i][0], uv[i][1], true, &out[i])
			continue
		}
		r0, r1 := base+uint32(y0)*pitch, base+uint32(y1)*pitch
		v00 := uint32(binary.LittleEndian.Uint16(vr[r0+2*uint32(x0):]))
		v10 := uint32(binary.LittleEndian.Uint16(vr[r0+2*uint32(x1):]))
		v01 := uint32(binary.LittleEndian.Uint16(vr[r1+2*uint32(x0):]))
		v11 := uint32(binary.LittleEndian.Uint16(vr[r1+2*uint32(x1):]))
		wu, wv := int64(fu&255), int64(fv&255)
		w00 := (256 - wu) * (256 - wv)
		w10 := wu * (256 - wv)
		w01 := (256 - wu) * wv
		w11 := wu * wv
		out[i] = [4]int32{
			int32((w00*int64(t0[v00>>s0&m0]) + w10*int64(t0[v10>>s0&m0]) + w01*int64(t0[v01>>s0&m0]) + w11*int64(t0[v11>>s0&m0]) + 32768) >> 16),
			int32((w00*int64(t1[v00>>s1&m1]) + w10*int64(t1[v10>>s1&m1]) + w01*int64(t1[v01>>s1&m1]) + w11*int64(t1[v11>>s1&m1]) + 32768) >> 16),
			int32((w00*int64(t2[v00>>s2&m2]) + w10*int64(t2[v10>>s2&m2]) + w01*int64(t2[v01>>s2&m2]) + w11*int64(t2[v11>>s2&m2]) + 32768) >> 16),
			int32((w00*int64(t3[v00>>s3&m3]) + w10*int64(t3[v10>>s3&m3]) + w01*int64(t3[v01>>s3&m3]) + w11*int64(t3[v11>>s3&m3]) + 32768) >> 16),
		}
	}
}

// zeroTab and oneTab stand for an absent channel in bilinear16Span: colour
// reads 0, alpha 1.0, whatever the texel (the weights sum to 65536).
var zeroTab, oneTab = [256]int32{}, func() (t [256]int32) {
	for i := range t {
		t[i] = one
	}
	return
}()

// fixCoord is texCoordFixed's clamp and floor of a coordinate already
// scaled to texels with 8 fraction bits.
func fixCoord(v float64) int64 {
	if !(v > -0x1p28) {
		return -1 << 28
	}
	if v > 0x1p28 {
		return 1 << 28
	}
	return int64(math.Floor(v))
}

// outputSpan is output for the live fragments of a chunk, colours from
// cols. The common state (no stencil, Z16 or no Z, no blending or
// SRC_ALPHA/ONE_MINUS_SRC_ALPHA, COPY, no write mask) runs with its state
// in locals; any other takes outputSpanAny.
func (e *Engine) outputSpan(sb *spanBuf, cols *[spanChunk][4]int32, n, x0, y int) {
	p := &e.px
	zOn := p.zt || p.zw
	if p.stOn || (zOn && p.zfmt != 0) || (p.blend && !p.blendOver) || p.rop != 12 || p.cmaskOn {
		e.outputSpanAny(sb, cols, n, x0, y)
		return
	}
	vram := p.vram
	zRow := p.zbase + uint32(y)*p.zpitch
	cRow := p.cbase + uint32(y)*p.cpitch
	zt, zw, zfunc := p.zt, p.zw, p.zfunc
	zmask, zmaskOn := p.zmask, p.zmaskOn
	blend := p.blend
	// The colour layout: channel k is quantised to m[k] levels at sh[k];
	// an absent channel has m = 0 and quantises to 0 (add < 4096).
	var qm [4]int32
	var qs [4]uint32
	for k, ch := range p.clay.ch {
		if ch.bits != 0 {
			qm[k], qs[k] = int32(1)<<ch.bits-1, uint32(ch.shift)
		}
	}
	qm0, qm1, qm2, qm3 := qm[0], qm[1], qm[2], qm[3]
	qs0, qs1, qs2, qs3 := qs[0]&15, qs[1]&15, qs[2]&15, qs[3]&15
	// The destination decode (dstFast: colour formats always hold R, G, B).
	df := &p.dstFast
	dt0, dt1, dt2, dt3 := df.tab[0], df.tab[1], df.tab[2], df.tab[3]
	ds0, ds1, ds2, ds3 := uint32(df.sh[0])&15, uint32(df.sh[1])&15, uint32(df.sh[2])&15, uint32(df.sh[3])&15
	dm0, dm1, dm2, dm3 := df.mask[0]&255, df.mask[1]&255, df.mask[2]&255, df.mask[3]&255
	hasAlpha, defA := p.hasAlpha, p.dstAlphaDef
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
	for i := 0; i < n; i++ {
		if !sb.live[i] {
			continue
		}
		x := x0 + i
		if zOn {
			zAddr := zRow + 2*uint32(x)
			zd := binary.LittleEndian.Uint16(vram[zAddr:])
			zn := hg.Z16(sb.z[i])
			if zt && !compare(zfunc, int64(zn), int64(zd)) {
				continue
			}
			if zw {
				if zmaskOn {
					zn = zn&zmask | zd&^zmask
				}
				binary.LittleEndian.PutUint16(vram[zAddr:], zn)
			}
		}
		cAddr := cRow + 2*uint32(x)
		c := &cols[i]
		r, g, b, a := sat(c[0]), sat(c[1]), sat(c[2]), sat(c[3])
		if blend {
			dp := uint32(binary.LittleEndian.Uint16(vram[cAddr:]))
			da := defA
			if hasAlpha {
				da = dt3[dp>>ds3&dm3]
			}
			ia := one - a
			r = sat(mul12(r, a) + mul12(dt0[dp>>ds0&dm0], ia))
			g = sat(mul12(g, a) + mul12(dt1[dp>>ds1&dm1], ia))
			b = sat(mul12(b, a) + mul12(dt2[dp>>ds2&dm2], ia))
			if qm3 != 0 { // the alpha result is only kept by a target with alpha
				a = sat(mul12(a, a) + mul12(da, ia))
			}
		}
		add := adds[x&3]
		px := uint16((r*qm0+add)>>12)<<qs0 | uint16((g*qm1+add)>>12)<<qs1 |
			uint16((b*qm2+add)>>12)<<qs2 | uint16((a*qm3+add)>>12)<<qs3
		binary.LittleEndian.PutUint16(vram[cAddr:], px)
		sb.count++
	}
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
