package pspge

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/retrogl/retrogl/sim/raster"
)

// The packed path: the span pipeline of the states whose output stage is
// outSimple or outBlend. Their only per-fragment kills are the depth range
// and depth tests, and nothing before those has a side effect, so the
// chunk's depths are tested (and written) first and the colour stages run
// only for the pixels that pass, listed in spanBuf.idx: early depth
// rejection that cannot change a byte (the colour and depth buffers do not
// overlap, draw.spanOK). Colours travel packed, one RGBA8 word per pixel:
// target.pixel clamps every channel to 0..255 before it uses it, and the
// texture function and the specular sum only add non-negative amounts, so
// clamping after each stage gives the same bytes.

// step advances an interpolator by one pixel without a branch: r stays in
// [0, area), so at most one carry moves into q.
func step(q, r, dq, dr, a int64) (int64, int64) {
	q += dq
	r += dr
	k := (a - 1 - r) >> 63 // -1 when r >= a
	return q - k, r - a&k
}

// packRGBA packs four channels known to lie in 0..255.
func packRGBA(r, g, b, a int64) uint32 {
	return uint32(r) | uint32(g)<<8 | uint32(b)<<16 | uint32(a)<<24
}

// pack4 clamps and packs a colour.
func pack4(c [4]int32) uint32 {
	return uint32(min(max(c[0], 0), 255)) | uint32(min(max(c[1], 0), 255))<<8 |
		uint32(min(max(c[2], 0), 255))<<16 | uint32(min(max(c[3], 0), 255))<<24
}

// pcol and setPC read and write a packed colour as one RGBA8 word (R in
// the low byte).
func (sb *spanBuf) pcol(i int) uint32 { return binary.LittleEndian.Uint32(sb.pc[i&(spanChunk-1)][:]) }

func (sb *spanBuf) setPC(i int, v uint32) {
	binary.LittleEndian.PutUint32(sb.pc[i&(spanChunk-1)][:], v)
}

// fillPC sets the first n packed colours to v.
func (sb *spanBuf) fillPC(n int, v uint32) {
	for i := range sb.pc[:n] {
		binary.LittleEndian.PutUint32(sb.pc[i][:], v)
	}
}

func unpack4(v uint32) [4]int32 {
	return [4]int32{int32(v & 0xFF), int32(v >> 8 & 0xFF), int32(v >> 16 & 0xFF), int32(v >> 24)}
}

// depthStage steps the depth interpolator over the chunk, runs the depth
// range test and the depth test and write, and lists the pixels that pass
// in sb.idx. It returns their number.
func (t *target) depthStage(p *pipe, sb *spanBuf, zl *ilerp, n, x0, row int) int {
	if !t.needZ {
		copy(sb.idx[:n], identity[:n])
		return n
	}
	zr := t.depthRow(row, x0, n)
	q, r, dq, dr, a := zl.q, zl.r, zl.dq, zl.dr, zl.area
	m := 0
	idx := &sb.idx
	if zr != nil && !t.depthRange && p.ztest {
		// The usual state: a depth test, maybe a write; the depths are
		// interpolated first, in a loop of their own.
		zm, zwrite := p.zcmp, t.zwrite
		if dq == 0 && dr == 0 {
			// One depth for the row (a plane parallel to the screen).
			z := int32(q)
			lo, span, inv := zRange(t.zfunc, z)
			i := 0
			if !inv {
				// Groups of four that pass whole, in the 32-bit lanes of
				// two words (the even and the odd pixels): lo <= d <=
				// lo+span holds when bit 31 of both d + 2^31 - lo and
				// lo + span + 2^31 - d is set, neither of which borrows
				// from or carries into the next lane.
				const m16, b31 = 0x0000FFFF0000FFFF, 1 << 31 * lanes32
				bl, bh := (1<<31-uint64(lo))*lanes32, (1<<31+uint64(lo+span))*lanes32
				z4 := uint64(uint16(z)) * (1 | 1<<16 | 1<<32 | 1<<48)
				j := 0 // byte offset in zr
				switch {
				case lo+span == 0xFFFF:
					// No upper bound (LESS, LEQUAL): d >= lo alone.
					for ; j+8 <= len(zr); j += 8 {
						zp := zr[j : j+8 : j+8]
						d := binary.LittleEndian.Uint64(zp)
						if (d&m16+bl)&(d>>16&m16+bl)&b31 != b31 {
							break
						}
						if zwrite {
							binary.LittleEndian.PutUint64(zp, z4)
						}
					}
				default:
					for ; j+8 <= len(zr); j += 8 {
						zp := zr[j : j+8 : j+8]
						d := binary.LittleEndian.Uint64(zp)
						e, o := d&m16, d>>16&m16
						if (e+bl)&(bh-e)&(o+bl)&(bh-o)&b31 != b31 {
							break
						}
						if zwrite {
							binary.LittleEndian.PutUint64(zp, z4)
						}
					}
				}
				i = j / 2
				copy(idx[:i], identity[:i])
				m = i
			}
			for ; i < n; i++ {
				zp := zr[2*i : 2*i+2]
				if uint32(binary.LittleEndian.Uint16(zp))-lo <= span == inv {
					continue
				}
				if zwrite {
					binary.LittleEndian.PutUint16(zp, uint16(z))
				}
				idx[m&(spanChunk-1)] = uint8(i)
				m++
			}
			return m
		}
		zs := sb.z[:n]
		for i := range zs {
			zs[i] = int32(q)
			q, r = step(q, r, dq, dr, a)
		}
		zl.q, zl.r = q, r
		for i, z := range zs {
			zp := zr[2*i : 2*i+2]
			if !cmpOK(zm, z, int32(binary.LittleEndian.Uint16(zp))) {
				continue
			}
			if zwrite {
				binary.LittleEndian.PutUint16(zp, uint16(z))
			}
			idx[m&(spanChunk-1)] = uint8(i)
			m++
		}
		return m
	}
	rng, zmin, zmax := t.depthRange, t.zmin, t.zmax
	ztest, zwrite, zm := p.ztest, t.zwrite, p.zcmp
	for i := 0; i < n; i++ {
		z := int32(q)
		q, r = step(q, r, dq, dr, a)
		if rng && (z < zmin || z > zmax) {
			continue
		}
		if zr != nil {
			zp := zr[2*i : 2*i+2]
			if ztest && !cmpOK(zm, z, int32(binary.LittleEndian.Uint16(zp))) {
				continue
			}
			if zwrite {
				binary.LittleEndian.PutUint16(zp, uint16(z))
			}
		}
		idx[m&(spanChunk-1)] = uint8(i)
		m++
	}
	zl.q, zl.r = q, r
	return m
}

// colorStage fills sb.pc with the chunk's interpolated colours, or sb.qc
// when lanes is set, and reports whether they are all the same.
func colorStage(sb *spanBuf, n int, cl *[4]ilerp, smooth bool, flat [4]int32, lanes bool) bool {
	if !smooth {
		sb.fill(n, pack4(flat), lanes)
		return true
	}
	if cl[0].dq|cl[0].dr|cl[1].dq|cl[1].dr|cl[2].dq|cl[2].dr|cl[3].dq|cl[3].dr == 0 {
		sb.fill(n, packRGBA(cl[0].q, cl[1].q, cl[2].q, cl[3].q), lanes)
		return true
	}
	a := cl[0].area
	pc := sb.pc[:n]
	if a < 1<<31 && n >= tabMin {
		// Four channels at once, each pixel from the step table.
		tab := sb.cur.steps(n, cl)
		Q, _, R01, R23, _, _, _ := swarLerp(cl)
		es := tab.e[:n]
		if lanes {
			qc := sb.qc[:len(es)]
			for i := range es {
				qc[i] = swarAt(Q, R01, R23, &es[i])
			}
		} else {
			for i := range es {
				binary.LittleEndian.PutUint32(pc[i][:], uint32(swarRGBA(swarAt(Q, R01, R23, &es[i]))))
			}
		}
		tab.advance(cl, n)
		return false
	}
	if a < 1<<31 {
		// Four channels at once, in two streams (swarLerp).
		Q, DQ, R01, R23, D01, D23, A := swarLerp(cl)
		Qb, Rb01, Rb23 := swarStep(Q, R01, R23, DQ, D01, D23, A)
		DQ, D01, D23 = swarDouble(DQ, D01, D23, A)
		i := 0
		if lanes {
			qc := sb.qc[:n]
			for ; i+2 <= len(qc); i += 2 {
				qc[i], qc[i+1] = Q, Qb
				Q, R01, R23 = swarStep(Q, R01, R23, DQ, D01, D23, A)
				Qb, Rb01, Rb23 = swarStep(Qb, Rb01, Rb23, DQ, D01, D23, A)
			}
			if i < len(qc) {
				qc[i] = Q
				Q, R01, R23 = Qb, Rb01, Rb23
			}
			swarStore(cl, Q, R01, R23, A)
			return false
		}
		for ; i+2 <= len(pc); i += 2 {
			binary.LittleEndian.PutUint32(pc[i][:], uint32(swarRGBA(Q)))
			binary.LittleEndian.PutUint32(pc[i+1][:], uint32(swarRGBA(Qb)))
			Q, R01, R23 = swarStep(Q, R01, R23, DQ, D01, D23, A)
			Qb, Rb01, Rb23 = swarStep(Qb, Rb01, Rb23, DQ, D01, D23, A)
		}
		if i < len(pc) {
			binary.LittleEndian.PutUint32(pc[i][:], uint32(swarRGBA(Q)))
			Q, R01, R23 = Qb, Rb01, Rb23
		}
		swarStore(cl, Q, R01, R23, A)
		return false
	}
	// One channel at a time, so that the loop keeps its few values in
	// registers.
	for k := range cl {
		q, r, dq, dr := cl[k].q, cl[k].r, cl[k].dq, cl[k].dr
		for i := range pc {
			pc[i][k] = uint8(q)
			q, r = step(q, r, dq, dr, a)
		}
		cl[k].q, cl[k].r = q, r
	}
	if lanes {
		for i := range pc {
			sb.qc[i] = spread(sb.pcol(i))
		}
	}
	return false
}

// fill sets the first n colours to v: packed, or in sb.qc's lanes when
// lanes is set.
func (sb *spanBuf) fill(n int, v uint32, lanes bool) {
	if !lanes {
		sb.fillPC(n, v)
		return
	}
	w := spread(v)
	for i := range sb.qc[:n] {
		sb.qc[i] = w
	}
}

// shadeTriPacked is shadeTri for the packed states.
func (d *draw) shadeTriPacked(sb *spanBuf, r *triRec, clip raster.Rect) {
	t := d.t
	var ax *triAux
	if r.aux >= 0 {
		ax = &d.g.bat.aux[r.aux]
	}
	area := r.tri.Area
	half := area / 2
	dv := newDivider(area)
	needZ, smooth, spec, tex := t.needZ, d.smooth, d.specular, d.tex
	sb.walk(&r.tri, clip, func(s *raster.Span) {
		e0, e1, e2 := s.E[0], s.E[1], s.E[2]
		dx0, dx1, dx2 := s.DX[0], s.DX[1], s.DX[2]
		one := s.X1-s.X0 == 1 // no step follows the first pixel
		var zl ilerp
		if needZ {
			zl = dv.ilerp(e0*r.z[0]+e1*r.z[1]+e2*r.z[2]+half, dx0*r.z[0]+dx1*r.z[1]+dx2*r.z[2], one)
		}
		var cl [4]ilerp
		if smooth {
			for k := 0; k < 4; k++ {
				cl[k] = dv.ilerp(e0*r.c[0][k]+e1*r.c[1][k]+e2*r.c[2][k]+half, dx0*r.c[0][k]+dx1*r.c[1][k]+dx2*r.c[2][k], one)
			}
		}
		var sl [3]ilerp
		if spec && smooth {
			for k := 0; k < 3; k++ {
				sl[k] = dv.ilerp(e0*ax.c2[0][k]+e1*ax.c2[1][k]+e2*ax.c2[2][k]+half, dx0*ax.c2[0][k]+dx1*ax.c2[1][k]+dx2*ax.c2[2][k], one)
			}
		}
		row := s.Y - t.clip.Y0
		py := float64(s.Y) + 0.5
		for x0 := s.X0; x0 < s.X1; x0 += spanChunk {
			n := min(spanChunk, s.X1-x0)
			m := t.depthStage(&d.pipe, sb, &zl, n, x0, row)
			if m == n && d.pipe.direct && area < 1<<31 && !flatRow(&cl) {
				t.colorWrite8888(&d.pipe, sb, &cl, n, x0, row)
				continue
			}
			if m == n && n >= tabMin && !spec && smooth && tex != nil && tex.spread != nil && d.pipe.over &&
				area < 1<<31 && !flatRow(&cl) {
				// The colour stage inside the texture-and-blend loop.
				d.triTexCoordsLive(sb, ax, m, n, x0, py)
				o := (row*t.stride + x0) * 4
				tex.spreadModulateOverSteps(sb, sb.cur.steps(n, &cl), &cl, t.fb[o:o+4*n])
				continue
			}
			sb.flat = colorStage(sb, n, &cl, smooth, r.flat, d.pipe.lanes) && tex == nil && !spec && m == n
			if spec {
				var s2 [spanChunk][3]int32
				if smooth {
					for i := 0; i < n; i++ {
						s2[i] = [3]int32{int32(sl[0].q), int32(sl[1].q), int32(sl[2].q)}
						sl[0].step()
						sl[1].step()
						sl[2].step()
					}
				} else {
					for i := 0; i < n; i++ {
						s2[i] = ax.flat2
					}
				}
				if tex != nil && m > 0 {
					d.triTexCoordsLive(sb, ax, m, n, x0, py)
					d.texturePacked(sb, m)
				}
				addSpecPacked(sb, m, &s2)
			} else if tex != nil && m > 0 {
				d.triTexCoordsLive(sb, ax, m, n, x0, py)
				if d.pipe.over && tex.spread != nil {
					o := (row*t.stride + x0) * 4
					tex.spreadModulateOver(sb, m, t.fb[o:o+4*n])
					continue
				}
				d.texturePacked(sb, m)
			}
			d.writePacked(sb, m, n, x0, row)
		}
		sb.pixels += s.X1 - s.X0
	})
}

// shadeSpritePacked is shadeSprite for the packed states.
func (d *draw) shadeSpritePacked(sb *spanBuf, r *spriteRec, box raster.Rect) {
	t := d.t
	tex := d.tex
	v := pack4(r.col)
	for y := box.Y0; y < box.Y1; y++ {
		row := y - t.clip.Y0
		tt := float32(float64(r.ta) + float64((float64(y)+0.5-r.ay)*r.dty))
		for x0 := box.X0; x0 < box.X1; x0 += spanChunk {
			n := min(spanChunk, box.X1-x0)
			zl := ilerp{q: int64(r.z), area: 1}
			m := t.depthStage(&d.pipe, sb, &zl, n, x0, row)
			sb.fill(n, v, d.pipe.lanes)
			sb.flat = tex == nil && !d.specular && m == n
			if tex != nil && m > 0 {
				for j := 0; j < m; j++ {
					sb.st[j] = float32(float64(r.sa) + float64((float64(x0+int(sb.idx[j]))+0.5-r.ax)*r.dsx))
					sb.tt[j], sb.grad[j], sb.q[j] = tt, r.grad, 1
				}
				d.fixCoords(sb, m)
				d.texturePacked(sb, m)
			}
			if d.specular {
				var s2 [spanChunk][3]int32
				for i := 0; i < n; i++ {
					s2[i] = r.spec
				}
				addSpecPacked(sb, m, &s2)
			}
			d.writePacked(sb, m, n, x0, row)
		}
	}
}

func addSpecPacked(sb *spanBuf, m int, s2 *[spanChunk][3]int32) {
	for j := 0; j < m; j++ {
		i := int(sb.idx[j]) & (spanChunk - 1)
		c, s := unpack4(sb.pcol(i)), &s2[i]
		sb.setPC(i, pack4([4]int32{c[0] + s[0], c[1] + s[1], c[2] + s[2], c[3]}))
	}
}

// triTexCoordsLive is triTexCoords for the pixels listed in sb.idx: their
// coordinates go to st, tt, grad and q in list order, or, for the fetches
// of level 0 (pipe.fixed), straight to coord's fixed-point texel
// coordinates in tu and tv.
func (d *draw) triTexCoordsLive(sb *spanBuf, ax *triAux, m, n, x0 int, py float64) {
	sP, tP, qP := &ax.sP, &ax.tP, &ax.qP
	sRow, tRow, qRow := float64(sP.b*py)+sP.c, float64(tP.b*py)+tP.c, float64(qP.b*py)+qP.c
	if !d.pipe.grads && qP.a == 0 {
		// See triTexCoords.
		if qRow == 1 && d.pipe.fixed {
			l := &d.tex.levels[0]
			fw, fh := float32(16*l.w), float32(16*l.h)
			if tP.a == 0 {
				// t/w is the same along the row (as q/w above): one
				// coordinate serves every pixel.
				v := coordF(float32(float64(tP.a*(float64(x0)+0.5))+tRow) * fh)
				sb.tvConst = true
				tu, tv := sb.tu[:m], sb.tv[:m]
				if m == n {
					// Every pixel of the chunk, px stepping by one (exact).
					// s/w*16w is monotonic in px (sums and products by
					// constants round monotonically), so when the first
					// and last pixels' lie inside int32's range every
					// pixel's does and coordF is the conversion alone.
					first := float32(float64(sP.a*(float64(x0)+0.5))+sRow) * fw
					last := float32(float64(sP.a*(float64(x0+n-1)+0.5))+sRow) * fw
					if inI32(first) && inI32(last) {
						px := float64(x0) + 0.5
						for j := range tu {
							tu[j] = int32(float32(float64(sP.a*px)+sRow) * fw)
							tv[j] = v
							px++
						}
						return
					}
				}
				for j := range tu {
					px := float64(x0+int(sb.idx[j])) + 0.5
					tu[j] = coordF(float32(float64(sP.a*px)+sRow) * fw)
					tv[j] = v
				}
				return
			}
			for j := 0; j < m; j++ {
				px := float64(x0+int(sb.idx[j])) + 0.5
				sb.tu[j] = coordF(float32(float64(sP.a*px)+sRow) * fw)
				sb.tv[j] = coordF(float32(float64(tP.a*px)+tRow) * fh)
			}
			sb.tvConst = false
			return
		}
		q := float32(qRow)
		switch {
		case qRow == 1:
			for j := 0; j < m; j++ {
				px := float64(x0+int(sb.idx[j])) + 0.5
				sb.st[j] = float32(float64(sP.a*px) + sRow)
				sb.tt[j] = float32(float64(tP.a*px) + tRow)
			}
		case qRow != 0:
			rq := 1 / qRow
			for j := 0; j < m; j++ {
				px := float64(x0+int(sb.idx[j])) + 0.5
				S, T := float64(sP.a*px)+sRow, float64(tP.a*px)+tRow
				sb.st[j], sb.tt[j] = float32(S*rq), float32(T*rq)
			}
		default:
			clear(sb.st[:m])
			clear(sb.tt[:m])
		}
		for j := 0; j < m; j++ {
			sb.q[j] = q
		}
		clear(sb.grad[:m])
		d.fixCoords(sb, m)
		return
	}
	var w0, h0 float64
	if d.pipe.grads {
		w0, h0 = float64(d.tex.levels[0].w), float64(d.tex.levels[0].h)
	}
	for j := 0; j < m; j++ {
		px := float64(x0+int(sb.idx[j])) + 0.5
		S, T, Q := float64(sP.a*px)+sRow, float64(tP.a*px)+tRow, float64(qP.a*px)+qRow
		var st, tt float32
		if Q != 0 {
			rq := 1 / Q
			st, tt = float32(S*rq), float32(T*rq)
		}
		var grad float32
		if d.pipe.grads && Q != 0 {
			grad = texGrad(sP, tP, qP, S, T, Q, w0, h0)
		}
		sb.st[j], sb.tt[j], sb.grad[j], sb.q[j] = st, tt, grad, float32(Q)
	}
	d.fixCoords(sb, m)
}

// coordF is coord of a coordinate already scaled by 16 times the size
// (st*size*16 in float32 equals (st*size)*16: both products are by
// powers of two, exact or infinite alike).
func coordF(f float32) int32 {
	if f >= -2147483648 && f < 2147483648 {
		return int32(f)
	}
	return math.MinInt32
}

// inI32 reports whether coordF(f) is int32(f).
func inI32(f float32) bool { return f >= -2147483648 && f < 2147483648 }

// fixCoords turns st, tt into tu, tv for the fetches of level 0.
func (d *draw) fixCoords(sb *spanBuf, m int) {
	if !d.pipe.fixed {
		return
	}
	l := &d.tex.levels[0]
	fw, fh := float32(16*l.w), float32(16*l.h)
	for j := 0; j < m; j++ {
		sb.tu[j] = coordF(sb.st[j] * fw)
		sb.tv[j] = coordF(sb.tt[j] * fh)
	}
	sb.tvConst = false
}

// texturePacked samples the texels of the m listed pixels and applies the
// texture function to their packed colours.
func (d *draw) texturePacked(sb *spanBuf, m int) {
	s := d.tex
	switch d.pipe.tex {
	case texBilinear8888:
		if d.pipe.lanes {
			s.bilinearRepeatModulate(sb, m)
			return
		}
		if d.pipe.repeat {
			s.bilinear8888Repeat(sb, m)
		} else {
			s.bilinear8888Fixed(sb, m)
		}
	case texNearest8888:
		l := &s.levels[0]
		for j := 0; j < m; j++ {
			u := s.wrapU(l, int(sb.tu[j])>>4)
			v := s.wrapV(l, int(sb.tv[j])>>4)
			sb.tex[j] = binary.LittleEndian.Uint32(l.data[v*l.pitch+u*4:])
		}
	default:
		for j := 0; j < m; j++ {
			sb.tex[j] = s.sample(sb.st[j], sb.tt[j], sb.grad[j], sb.q[j])
		}
	}
	if !d.pipe.modul {
		for j := 0; j < m; j++ {
			i := int(sb.idx[j])
			sb.setPC(i, pack4(s.texFunc(unpack4(sb.pcol(i)), sb.tex[j])))
		}
		return
	}
	// texFunc's MODULATE without doubling: (c+1)*t >> 8 per channel,
	// alpha only for RGBA textures.
	amask := uint32(0xFF000000)
	if s.rgba {
		amask = 0
	}
	for j := 0; j < m; j++ {
		i := int(sb.idx[j])
		sb.setPC(i, modulate(sb.pcol(i), sb.tex[j], amask))
	}
}

// modulate is texFunc's MODULATE without doubling on packed colours:
// (c+1)*t >> 8 per channel; the alpha bits in keep stay c's.
func modulate(c, x, keep uint32) uint32 {
	v := ((c&0xFF)+1)*(x&0xFF)>>8 | ((c>>8&0xFF)+1)*(x>>8&0xFF)>>8<<8 |
		((c>>16&0xFF)+1)*(x>>16&0xFF)>>8<<16 | ((c>>24)+1)*(x>>24)>>8<<24
	return v&^keep | c&keep
}

// bilinear8888Fixed is bilinear8888Span from the fixed-point coordinates.
func (s *sampler) bilinear8888Fixed(sb *spanBuf, m int) {
	l := &s.levels[0]
	data, pitch := l.data, l.pitch
	for j := 0; j < m; j++ {
		bu, bv := int(sb.tu[j])-8, int(sb.tv[j])-8
		fu, fv := uint32(bu&15), uint32(bv&15)
		u0, u1 := s.wrapU(l, bu>>4)*4, s.wrapU(l, bu>>4+1)*4
		v0, v1 := s.wrapV(l, bv>>4)*pitch, s.wrapV(l, bv>>4+1)*pitch
		tl, tr := ld32(data, v0+u0), ld32(data, v0+u1)
		bl, br := ld32(data, v1+u0), ld32(data, v1+u1)
		sb.tex[j] = lerp4(lerp4(tl, tr, fu), lerp4(bl, br, fu), fv)
	}
}

// bilinear8888Repeat is bilinear8888Fixed for a texture that wraps on
// both axes, the colour channels weighted in 16-bit lanes of a uint64 (R,
// B, G, A): a lane's sum is at most 255*16, so no lane carries into the
// next, and each holds exactly lerp4's sum for its channel.
func (s *sampler) bilinear8888Repeat(sb *spanBuf, m int) {
	l := &s.levels[0]
	data, pitch := l.data, l.pitch
	mu, mv := l.wrapU, l.wrapV
	for j := 0; j < m; j++ {
		bu, bv := int(sb.tu[j])-8, int(sb.tv[j])-8
		fu, fv := uint64(bu&15), uint64(bv&15)
		u0, u1 := (bu>>4)&mu*4, (bu>>4+1)&mu*4
		r0, r1 := rows(bv>>4, mv, pitch)
		top := (spread(ld32(data, r0+u0))*(16-fu) + spread(ld32(data, r0+u1))*fu) >> 4 & lanes16
		bot := (spread(ld32(data, r1+u0))*(16-fu) + spread(ld32(data, r1+u1))*fu) >> 4 & lanes16
		v := (top*(16-fv) + bot*fv) >> 4 & lanes16
		sb.tex[j] = uint32(v) | uint32(v>>24)
	}
}

// rows returns the byte offsets of rows v&mv and (v+1)&mv of a texture
// that wraps with mask mv: one multiplication, the next row a pitch
// further unless the first is the last.
func rows(v, mv, pitch int) (r0, r1 int) {
	v &= mv
	r0 = v * pitch
	r1 = r0 + pitch
	if v == mv {
		r1 = 0
	}
	return r0, r1
}

// lanes16 masks the low byte of each 16-bit lane.
const lanes16 = 0x00FF00FF00FF00FF

// bilinearRepeatModulate is bilinear8888Repeat followed by MODULATE
// without doubling, in one loop, the colours read from sb.qc's lanes (R,
// B, G, A at bits 0, 16, 32, 48; pipe.lanes).
//
// MODULATE is (c+1)*t >> 8 per channel, two channels to a 64x64-bit
// multiplication: with R and G of the texel at bits 0 and 32 of one word
// and c+1 of the colour's R and G at bits 0 and 32 of the other, the
// 128-bit product holds (c_R+1)*t_R in its low 32 bits and (c_G+1)*t_G in
// its high 64 (each below 2^16; the cross terms, below 2^17, lie in bits
// 32 to 49 of the low word); likewise B and A. For an RGB texture the
// texel's alpha is taken as 255, and (c+1)*255 >> 8 = c keeps the
// colour's alpha, as texFunc does.
func (s *sampler) bilinearRepeatModulate(sb *spanBuf, m int) {
	l := &s.levels[0]
	data, pitch := l.data, l.pitch
	mu, mv := l.wrapU, l.wrapV
	var tA uint64
	if !s.rgba {
		tA = 0xFF << 32
	}
	const lo8 = 0xFF | 0xFF<<32
	if s.spread != nil {
		s.spreadModulate(sb, m)
		return
	}
	for j := 0; j < m; j++ {
		bu, bv := int(sb.tu[j])-8, int(sb.tv[j])-8
		fu, fv := uint64(bu&15), uint64(bv&15)
		u0, u1 := (bu>>4)&mu*4, (bu>>4+1)&mu*4
		r0, r1 := rows(bv>>4, mv, pitch)
		var tl, tr, bl, br uint32
		if u1 == u0+4 {
			// Neighbours in one row: both texels in one read.
			p0 := binary.LittleEndian.Uint64(data[r0+u0 : r0+u0+8])
			p1 := binary.LittleEndian.Uint64(data[r1+u0 : r1+u0+8])
			tl, tr, bl, br = uint32(p0), uint32(p0>>32), uint32(p1), uint32(p1>>32)
		} else {
			tl, tr, bl, br = ld32(data, r0+u0), ld32(data, r0+u1), ld32(data, r1+u0), ld32(data, r1+u1)
		}
		top := (spread(tl)*(16-fu) + spread(tr)*fu) >> 4 & lanes16
		bot := (spread(bl)*(16-fu) + spread(br)*fu) >> 4 & lanes16
		v := top*(16-fv) + bot*fv // the texel's lanes, times 16
		i := int(sb.idx[j]) & (spanChunk - 1)
		c := sb.qc[i]
		h0, l0 := bits.Mul64(v>>4&lo8, c&lo8+lanes32)
		h1, l1 := bits.Mul64(v>>20&lo8|tA, c>>16&lo8+lanes32)
		sb.setPC(i, uint32(l0>>8&0xFF|h0&0xFF00|l1<<8&0xFF0000|h1<<16&0xFF000000))
	}
}

// spreadTexel returns the bilinear texel at the fixed-point coordinates
// (tu, tv) of a repeating level 0 from its spread copy, in spread's lanes
// times 16 (bilinearRepeatModulate's v).
func (s *sampler) spreadTexel(tu, tv int32) uint64 {
	l := &s.levels[0]
	t := s.spread
	bu, bv := int(tu)-8, int(tv)-8
	fu, fv := uint64(bu&15), uint64(bv&15)
	u0, u1 := (bu>>4)&l.wrapU, (bu>>4+1)&l.wrapU
	v0, v1 := (bv>>4)&l.wrapV<<l.log2w, (bv>>4+1)&l.wrapV<<l.log2w
	top := (t[v0+u0]*(16-fu) + t[v0+u1]*fu) >> 4 & lanes16
	bot := (t[v1+u0]*(16-fu) + t[v1+u1]*fu) >> 4 & lanes16
	return top*(16-fv) + bot*fv
}

// modLanes is bilinearRepeatModulate's MODULATE of the texel v (times 16)
// and the colour c in spread's lanes: the 128-bit products (c+1)*t of R
// and G, and of B and A (tA: the texel's alpha for an RGB texture).
func modLanes(v, c, tA uint64) (h0, l0, h1, l1 uint64) {
	const lo8 = 0xFF | 0xFF<<32
	h0, l0 = bits.Mul64(v>>4&lo8, c&lo8+lanes32)
	h1, l1 = bits.Mul64(v>>20&lo8|tA, c>>16&lo8+lanes32)
	return
}

// spreadModulate is bilinearRepeatModulate through the spread copy.
func (s *sampler) spreadModulate(sb *spanBuf, m int) {
	var tA uint64
	if !s.rgba {
		tA = 0xFF << 32
	}
	for j := 0; j < m; j++ {
		v := s.spreadTexel(sb.tu[j], sb.tv[j])
		i := int(sb.idx[j]) & (spanChunk - 1)
		h0, l0, h1, l1 := modLanes(v, sb.qc[i], tA)
		sb.setPC(i, uint32(l0>>8&0xFF|h0&0xFF00|l1<<8&0xFF0000|h1<<16&0xFF000000))
	}
}

// spreadModulateOver is spreadModulate followed by writePacked's over
// path (pipe.over) in one loop: the modulated channels go from the
// products to over8888's lanes without being packed.
func (s *sampler) spreadModulateOver(sb *spanBuf, m int, fb []byte) {
	var tA uint64
	if !s.rgba {
		tA = 0xFF << 32
	}
	s.spreadTexels(sb, m)
	all := m == len(fb)/4 // every pixel of the chunk: idx is the identity
	vs := sb.tex64[:m]
	for j, v := range vs {
		i := j & (spanChunk - 1)
		if !all {
			i = int(sb.idx[j]) & (spanChunk - 1)
		}
		h0, l0, h1, l1 := modLanes(v, sb.qc[i], tA)
		q := fb[4*i : 4*i+4]
		old := binary.LittleEndian.Uint32(q)
		// over8888 of the colour R, G, B, A = l0>>8, h0>>8, l1>>8, h1>>8
		// (each & 0xFF), the three channels in 21-bit lanes of one word:
		// per channel (2s+1)(2a+1)>>10 + (2d+1)(511-2a)>>10, each product
		// below 2^18, so the channels share each multiplication (a shift
		// by 10 brings a lane's result to its low byte, which the mask
		// keeps apart from its neighbours' bits); each sum is at most 255
		// (blendColor).
		const ones, m8 = 1 | 1<<21 | 1<<42, 0xFF | 0xFF<<21 | 0xFF<<42
		a := h1 >> 8 & 0xFF
		c := l0>>8&0xFF | h0<<13&(0xFF<<21) | l1<<34&(0xFF<<42)
		o := uint64(old)
		d := o&0xFF | o<<13&(0xFF<<21) | o<<26&(0xFF<<42)
		fa, fd := 2*a+1, 511-2*a
		c = (c*2+ones)*fa>>10&m8 + (d*2+ones)*fd>>10&m8
		binary.LittleEndian.PutUint32(q, uint32(c&0xFF|c>>13&0xFF00|c>>26&0xFF0000)|old&0xFF000000)
	}
}

// spreadModulateOverSteps is spreadModulateOver for a chunk whose pixels
// all passed, the colours taken from the step table (colorStage's table
// path) as they are used; it moves cl on by the chunk.
func (s *sampler) spreadModulateOverSteps(sb *spanBuf, tab *stepTab, cl *[4]ilerp, fb []byte) {
	var tA uint64
	if !s.rgba {
		tA = 0xFF << 32
	}
	n := len(fb) / 4
	s.spreadTexels(sb, n)
	Q, _, R01, R23, _, _, _ := swarLerp(cl)
	vs := sb.tex64[:n]
	es := tab.e[:len(vs)]
	for i, v := range vs {
		h0, l0, h1, l1 := modLanes(v, swarAt(Q, R01, R23, &es[i]), tA)
		q := fb[4*i : 4*i+4]
		old := binary.LittleEndian.Uint32(q)
		// As spreadModulateOver.
		const ones, m8 = 1 | 1<<21 | 1<<42, 0xFF | 0xFF<<21 | 0xFF<<42
		a := h1 >> 8 & 0xFF
		c := l0>>8&0xFF | h0<<13&(0xFF<<21) | l1<<34&(0xFF<<42)
		o := uint64(old)
		d := o&0xFF | o<<13&(0xFF<<21) | o<<26&(0xFF<<42)
		fa, fd := 2*a+1, 511-2*a
		c = (c*2+ones)*fa>>10&m8 + (d*2+ones)*fd>>10&m8
		binary.LittleEndian.PutUint32(q, uint32(c&0xFF|c>>13&0xFF00|c>>26&0xFF0000)|old&0xFF000000)
	}
	tab.advance(cl, n)
}

// spreadTexels puts spreadTexel of the m listed pixels' coordinates in
// sb.tex64.
func (s *sampler) spreadTexels(sb *spanBuf, m int) {
	l := &s.levels[0]
	t := s.spread
	mu, mv, lw := l.wrapU, l.wrapV, uint(l.log2w)&63
	tu, tv, out := sb.tu[:m], sb.tv[:m], sb.tex64[:m]
	if sb.tvConst && m > 0 {
		// One pair of texel rows for the chunk.
		bv := int(tv[0]) - 8
		fv := uint64(bv & 15)
		v0, v1 := (bv>>4)&mv<<lw, (bv>>4+1)&mv<<lw
		w := mu + 1
		top, bot := t[v0:v0+w], t[v1:v1+w]
		for j := range out {
			bu := int(tu[j]) - 8
			fu := uint64(bu & 15)
			u0, u1 := (bu>>4)&mu, (bu>>4+1)&mu
			a := (top[u0]*(16-fu) + top[u1]*fu) >> 4 & lanes16
			b := (bot[u0]*(16-fu) + bot[u1]*fu) >> 4 & lanes16
			out[j] = a*(16-fv) + b*fv
		}
		return
	}
	for j := range out {
		bu, bv := int(tu[j])-8, int(tv[j])-8
		fu, fv := uint64(bu&15), uint64(bv&15)
		u0, u1 := (bu>>4)&mu, (bu>>4+1)&mu
		v0, v1 := (bv>>4)&mv<<lw, (bv>>4+1)&mv<<lw
		top := (t[v0+u0]*(16-fu) + t[v0+u1]*fu) >> 4 & lanes16
		bot := (t[v1+u0]*(16-fu) + t[v1+u1]*fu) >> 4 & lanes16
		out[j] = top*(16-fv) + bot*fv
	}
}

// spread moves the bytes of an RGBA8 word into 16-bit lanes: R, B at bits
// 0 and 16, G, A at bits 32 and 48 (so that v | v>>24 packs them back).
func spread(c uint32) uint64 {
	return uint64(c&0x00FF00FF) | uint64(c&0xFF00FF00)<<24
}

// writePacked runs the m listed pixels' colours through the output stage
// (the depth tests already passed) and writes them.
func (d *draw) writePacked(sb *spanBuf, m, n, x0, row int) {
	t := d.t
	p := &d.pipe
	o := (row*t.stride + x0) * t.bpp
	fb := t.fb[o : o+n*t.bpp]
	if p.out == outSimple {
		if t.psm == psm8888 {
			if sb.flat {
				v := sb.pcol(0) & 0xFFFFFF
				if t.stencil {
					fill32(fb, v|p.aconst)
					return
				}
				for i := 0; i < n; i++ {
					q := fb[4*i : 4*i+4]
					binary.LittleEndian.PutUint32(q, v|binary.LittleEndian.Uint32(q)&0xFF000000)
				}
				return
			}
			if t.stencil {
				a := p.aconst
				for j := 0; j < m; j++ {
					i := int(sb.idx[j])
					binary.LittleEndian.PutUint32(fb[4*i:4*i+4], sb.pcol(i)&0xFFFFFF|a)
				}
				return
			}
			for j := 0; j < m; j++ {
				i := int(sb.idx[j])
				q := fb[4*i : 4*i+4]
				binary.LittleEndian.PutUint32(q, sb.pcol(i)&0xFFFFFF|binary.LittleEndian.Uint32(q)&0xFF000000)
			}
			return
		}
		for j := 0; j < m; j++ {
			i := int(sb.idx[j])
			q := fb[2*i : 2*i+2]
			a := p.aconst
			if !t.stencil {
				a = uint32(binary.LittleEndian.Uint16(q)) & p.amask
			}
			binary.LittleEndian.PutUint16(q, uint16(pack(t.psm, sb.pcol(i)&0xFFFFFF)|a))
		}
		return
	}
	if p.over {
		if m == n {
			for o := 0; o+4 <= len(fb); o += 4 {
				// over8888, written out.
				q := fb[o : o+4]
				c, old := sb.pcol(o>>2), binary.LittleEndian.Uint32(q)
				const ones = 1 | 1<<32
				const lo8 = 0xFF | 0xFF<<32
				a := uint64(c >> 24)
				fa, fd := 2*a+1, 511-2*a
				s := uint64(c&0xFF) | uint64(c&0xFF0000)<<16
				d := uint64(old&0xFF) | uint64(old&0xFF0000)<<16
				rb := (s*2+ones)*fa>>10&lo8 + (d*2+ones)*fd>>10&lo8
				g := (2*uint64(c>>8&0xFF)+1)*fa>>10 + (2*uint64(old>>8&0xFF)+1)*fd>>10
				binary.LittleEndian.PutUint32(q, uint32(rb)|uint32(rb>>16)|uint32(g)<<8|old&0xFF000000)
			}
			return
		}
		for j := 0; j < m; j++ {
			i := int(sb.idx[j])
			q := fb[4*i : 4*i+4]
			binary.LittleEndian.PutUint32(q, over8888(sb.pcol(i), binary.LittleEndian.Uint32(q)))
		}
		return
	}
	dy := (row + t.clip.Y0) & 3 * 4
	for j := 0; j < m; j++ {
		i := int(sb.idx[j])
		var oldRaw uint32
		if t.bpp == 4 {
			oldRaw = binary.LittleEndian.Uint32(fb[4*i:])
		} else {
			oldRaw = uint32(binary.LittleEndian.Uint16(fb[2*i:]))
		}
		c := unpack4(sb.pcol(i))
		var r, g, b int32
		switch {
		case t.srcOver:
			old := unpack(t.psm, oldRaw)
			fa, fd := 2*c[3]+1, 2*(255-c[3])+1
			r = (2*c[0]+1)*fa>>10 + (2*int32(old&0xFF)+1)*fd>>10
			g = (2*c[1]+1)*fa>>10 + (2*int32(old>>8&0xFF)+1)*fd>>10
			b = (2*c[2]+1)*fa>>10 + (2*int32(old>>16&0xFF)+1)*fd>>10
		case t.blend:
			rgb := t.blendColor(c, unpack(t.psm, oldRaw))
			r, g, b = rgb[0], rgb[1], rgb[2]
		default:
			r, g, b = c[0], c[1], c[2]
		}
		if t.dither {
			dd := t.dith[dy+(x0+i)&3]
			r, g, b = r+dd, g+dd, b+dd
		}
		v := pack(t.psm, clamp255(r)|clamp255(g)<<8|clamp255(b)<<16) | oldRaw&p.amask
		if t.bpp == 4 {
			binary.LittleEndian.PutUint32(fb[4*i:], v)
		} else {
			binary.LittleEndian.PutUint16(fb[2*i:], uint16(v))
		}
	}
}

// over8888 blends colour c over the 8888 pixel old with SRC_ALPHA,
// ONE_MINUS_SRC_ALPHA, ADD, keeping the old stencil: per channel
// (2s+1)(2a+1)>>10 + (2d+1)(511-2a)>>10, whose sum never exceeds 255
// (blendColor). Red and blue share one multiplication in the 32-bit
// lanes of a uint64: a product is below 2^18, and each lane's shifted
// result below 2^8, so the lanes stay apart.
func over8888(c, old uint32) uint32 {
	const ones = 1 | 1<<32
	const lo8 = 0xFF | 0xFF<<32
	a := uint64(c >> 24)
	fa, fd := 2*a+1, 511-2*a
	s := uint64(c&0xFF) | uint64(c&0xFF0000)<<16
	d := uint64(old&0xFF) | uint64(old&0xFF0000)<<16
	rb := (s*2+ones)*fa>>10&lo8 + (d*2+ones)*fd>>10&lo8
	g := (2*uint64(c>>8&0xFF)+1)*fa>>10 + (2*uint64(old>>8&0xFF)+1)*fd>>10
	return uint32(rb) | uint32(rb>>16) | uint32(g)<<8 | old&0xFF000000
}

// ld32 reads the little-endian word at b[o:] (one bounds check for the
// four bytes).
func ld32(b []byte, o int) uint32 {
	return binary.LittleEndian.Uint32(b[o : o+4])
}

// divider divides by a triangle's area without a division instruction: a
// float64 reciprocal estimate of the quotient, corrected until the
// remainder is in range, so the results are Go's n/d and n%d exactly.
type divider struct {
	d   int64
	inv float64
}

func newDivider(d int64) divider { return divider{d, 1 / float64(d)} }

// div returns n/d and n%d (truncated, as Go's operators).
func (v divider) div(n int64) (q, r int64) {
	const lim = 1 << 52 // float64(n) exact, the estimate within a few units
	if n > lim || n < -lim || v.d > lim {
		return n / v.d, n % v.d
	}
	q = int64(float64(n) * v.inv)
	r = n - q*v.d
	if n >= 0 {
		for r < 0 {
			q, r = q-1, r+v.d
		}
		for r >= v.d {
			q, r = q+1, r-v.d
		}
		return q, r
	}
	for r > 0 {
		q, r = q+1, r-v.d
	}
	for r <= -v.d {
		q, r = q-1, r+v.d
	}
	return q, r
}

// ilerp is newIlerp(n, dn, d); with one set the interpolator serves a
// single pixel and its step is left zero.
func (v divider) ilerp(n, dn int64, one bool) ilerp {
	l := ilerp{area: v.d}
	l.q, l.r = v.div(n)
	if one {
		return l
	}
	l.dq, l.dr = v.div(dn)
	if l.dr < 0 {
		l.dr += v.d
		l.dq--
	}
	return l
}

// zRange returns the stored depths d for which the test "z OP d" passes,
// for z in 0..65535: the range [lo, lo+span], or its complement when inv
// is set (d - lo is taken in uint32, so a d below lo falls outside).
func zRange(f uint32, z int32) (lo, span uint32, inv bool) {
	const all = 0xFFFF
	switch f & 7 {
	case 0: // never
		return 0, all, true
	case 1: // always
		return 0, all, false
	case 2: // equal
		return uint32(z), 0, false
	case 3: // not equal
		return uint32(z), 0, true
	case 4: // z < d
		if z >= all {
			return 0, all, true
		}
		return uint32(z + 1), uint32(all - z - 1), false
	case 5: // z <= d
		return uint32(z), uint32(all - z), false
	case 6: // z > d
		if z <= 0 {
			return 0, all, true
		}
		return 0, uint32(z - 1), false
	}
	return 0, uint32(z), false // z >= d
}

// colorWrite8888 is colorStage followed by writePacked for a chunk whose
// pixels all passed the depth test, in the simple 8888 state with smooth
// colours and no texture or specular colour (pipe.direct): each colour is
// written as it is stepped (colorStage's four-channel stepping in two
// streams, for a triangle whose area is below 2^31), two pixels to a
// 64-bit word.
func (t *target) colorWrite8888(p *pipe, sb *spanBuf, cl *[4]ilerp, n, x0, row int) {
	o := (row*t.stride + x0) * 4
	fb := t.fb[o : o+4*n]
	if n >= tabMin {
		tab := sb.cur.steps(n, cl)
		keep, set := uint64(0xFF000000FF000000), uint64(0)
		if t.stencil {
			keep, set = 0, uint64(p.aconst)*lanes32
		}
		tab.write8888(fb, cl, n, keep, set)
		return
	}
	Q, DQ, R01, R23, D01, D23, A := swarLerp(cl)
	Qb, Rb01, Rb23 := swarStep(Q, R01, R23, DQ, D01, D23, A)
	DQ, D01, D23 = swarDouble(DQ, D01, D23, A)
	const rgb2 = 0x00FFFFFF00FFFFFF
	if t.stencil {
		set := uint64(p.aconst) * lanes32
		i := 0
		for ; i+8 <= len(fb); i += 8 {
			binary.LittleEndian.PutUint64(fb[i:i+8:i+8], (swarRGBA(Q)|swarRGBA(Qb)<<32)&rgb2|set)
			Q, R01, R23 = swarStep(Q, R01, R23, DQ, D01, D23, A)
			Qb, Rb01, Rb23 = swarStep(Qb, Rb01, Rb23, DQ, D01, D23, A)
		}
		if i < len(fb) {
			binary.LittleEndian.PutUint32(fb[i:i+4:i+4], uint32(swarRGBA(Q))&0xFFFFFF|uint32(set))
		}
	} else {
		i := 0
		for ; i+8 <= len(fb); i += 8 {
			const keep = 0xFF000000FF000000
			q := fb[i : i+8 : i+8]
			binary.LittleEndian.PutUint64(q, (swarRGBA(Q)|swarRGBA(Qb)<<32)&rgb2|binary.LittleEndian.Uint64(q)&keep)
			Q, R01, R23 = swarStep(Q, R01, R23, DQ, D01, D23, A)
			Qb, Rb01, Rb23 = swarStep(Qb, Rb01, Rb23, DQ, D01, D23, A)
		}
		if i < len(fb) {
			q := fb[i : i+4 : i+4]
			binary.LittleEndian.PutUint32(q, uint32(swarRGBA(Q))&0xFFFFFF|binary.LittleEndian.Uint32(q)&0xFF000000)
		}
	}
	// The odd stream is one pixel ahead of the even one: at pixel n for
	// an odd n, else the even stream is.
	if n&1 != 0 {
		Q, R01, R23 = Qb, Rb01, Rb23
	}
	swarStore(cl, Q, R01, R23, A)
}

// The four-channel stepping (swarLerp): the channels q_k sit in the 16-bit
// lanes of one word Q, R and B at bits 0 and 16, G and A at bits 32 and 48
// (spread's order), and Q is stepped as one integer: each step adds every
// dq_k and carry c_k, and since every channel ends the step in 0..255 the
// lanes are the channels whatever the intermediate borrows. The
// remainders run in 32-bit lanes, two to a word (channels 0 and 1 in
// R01, 2 and 3 in R23), biased by 2^31 - a: r < a < 2^31 and dr < a, so
// the biased r + dr is below 2^32, and its bit 31 is the carry, which a
// shift moves to bit 0 of the lane: the carries of R01 fall on the lanes
// of R and G, those of R23 shifted by 16 on B and A. Every value is the
// one ilerp.step reaches after as many steps: swarDouble's step by two is
// two steps (2dr < 2a, so one subtraction of a reduces it), so two
// streams, the even pixels and the odd ones, each stepping by two from
// its own first pixel, give the colours of one stream stepping by one;
// the two carry chains overlap.

// swarLerp packs four channel interpolators of one area below 2^31.
func swarLerp(cl *[4]ilerp) (Q, DQ, R01, R23, D01, D23, A uint64) {
	A = uint64(cl[0].area)
	bias := (1<<31 - A) * lanes32
	Q = uint64(cl[0].q) | uint64(cl[2].q)<<16 | uint64(cl[1].q)<<32 | uint64(cl[3].q)<<48
	DQ = uint64(cl[0].dq + cl[2].dq<<16 + cl[1].dq<<32 + cl[3].dq<<48)
	R01, R23 = uint64(cl[0].r)|uint64(cl[1].r)<<32+bias, uint64(cl[2].r)|uint64(cl[3].r)<<32+bias
	D01, D23 = uint64(cl[0].dr)|uint64(cl[1].dr)<<32, uint64(cl[2].dr)|uint64(cl[3].dr)<<32
	return
}

// swarRGBA returns the RGBA8 word of a state's Q (in the low 32 bits).
func swarRGBA(Q uint64) uint64 { return (Q | Q>>24) & 0xFFFFFFFF }

// lanes32 has a one in each 32-bit lane.
const lanes32 = 1 | 1<<32

// swarStep adds one step (DQ, D01, D23) to the state (Q, R01, R23).
func swarStep(Q, R01, R23, DQ, D01, D23, A uint64) (uint64, uint64, uint64) {
	R01 += D01
	R23 += D23
	K01 := R01 >> 31 & lanes32
	K23 := R23 >> 31 & lanes32
	return Q + DQ + (K01 | K23<<16), R01 - K01*A, R23 - K23*A
}

// swarDouble returns the step by two pixels of the step (DQ, D01, D23).
func swarDouble(DQ, D01, D23, A uint64) (uint64, uint64, uint64) {
	bias := (1<<31 - A) * lanes32
	Q, R01, R23 := swarStep(2*DQ, D01+bias, D23+bias, 0, D01, D23, A)
	return Q, R01 - bias, R23 - bias
}

// swarStore writes the state (Q, R01, R23) back to the interpolators.
func swarStore(cl *[4]ilerp, Q, R01, R23, A uint64) {
	bias := (1<<31 - A) * lanes32
	R01, R23 = R01-bias, R23-bias
	cl[0].q, cl[2].q = int64(Q&0xFF), int64(Q>>16&0xFF)
	cl[1].q, cl[3].q = int64(Q>>32&0xFF), int64(Q>>48&0xFF)
	cl[0].r, cl[1].r = int64(R01&0xFFFFFFFF), int64(R01>>32)
	cl[2].r, cl[3].r = int64(R23&0xFFFFFFFF), int64(R23>>32)
}

// flatRow reports whether four colour interpolators stay constant.
func flatRow(cl *[4]ilerp) bool {
	return cl[0].dq|cl[0].dr|cl[1].dq|cl[1].dr|cl[2].dq|cl[2].dr|cl[3].dq|cl[3].dr == 0
}

// The step table (stepTab): the colour stepping of a chunk without a
// chain from one pixel to the next. A triangle's steps (dq, dr) are the
// same on every row, so the states i steps from a zero remainder, q_i = i*dq
// + floor(i*dr/a) and t_i = i*dr mod a per channel, are computed once for
// the triangle; from a row's state (q_0, r_0), with 0 <= r_0 < a, pixel i's
// channel is q_0 + q_i + [r_0 + t_i >= a] (r_0 + t_i < 2a) and its
// remainder r_0 + t_i, less a on a carry: exactly where i of ilerp.step's
// steps lead, an addition and a carry per pixel, each pixel independent
// of the one before. In 32-bit lanes biased by 2^31 - a (swarLerp) the
// carry is the lane's bit 31 (r_0 + t_i + 2^31 - a < 2^32 for a < 2^31).

// tabMin is the least chunk that uses the step table: a table costs about
// one ilerp.step per channel and entry, once per triangle.
const tabMin = 16

// stepEntry is the state i steps from zero in swarLerp's lanes: q as the
// integer sum of the channels' q_i at their lanes (a lane may hold a
// borrow until a row's state is added: the sum of the two is the sum of
// channels in 0..255), the remainders unbiased.
type stepEntry struct{ q, r01, r23 uint64 }

// pairEntry is the state of pixels 2k and 2k+1 for write8888: q holds the
// integer sums q_0 + q_1<<8 + q_2<<16 (R, G, B; alpha is never written)
// of the first pixel in the low 32 bits and of the second added at bit 32,
// and r0, r1, r2 the remainders of channels R, G, B, the first pixel's in
// the low lane and the second's in the high one.
type pairEntry struct{ q, r0, r1, r2 uint64 }

// stepTab holds the steps of one triangle, built as far as the longest
// chunk so far needed; a worker keeps a few (spanBuf.tabs), one per
// triangle of a band, and rebuilds one whose steps differ.
type stepTab struct {
	dq, dr [4]int64
	a      int64
	n      int // entries built
	e      [spanChunk + 1]stepEntry
	p      [spanChunk/2 + 1]pairEntry
	// q, t are the last entry's per-channel sums and remainders.
	q, t [4]int64
}

// steps returns the table of the interpolators cl (one area below 2^31),
// built to entry n.
func (tb *stepTab) steps(n int, cl *[4]ilerp) *stepTab {
	a := cl[0].area
	if tb.n == 0 || tb.a != a || tb.dq != [4]int64{cl[0].dq, cl[1].dq, cl[2].dq, cl[3].dq} ||
		tb.dr != [4]int64{cl[0].dr, cl[1].dr, cl[2].dr, cl[3].dr} {
		tb.a, tb.n = a, 1
		for k := range cl {
			tb.dq[k], tb.dr[k] = cl[k].dq, cl[k].dr
		}
		tb.q, tb.t = [4]int64{}, [4]int64{}
		tb.e[0] = stepEntry{}
	}
	if tb.n > n {
		return tb
	}
	q, t := tb.q, tb.t
	for i := tb.n; i <= n; i++ {
		p := q // pixel i-1
		pt := t
		for k := range q {
			q[k], t[k] = step(q[k], t[k], tb.dq[k], tb.dr[k], a)
		}
		tb.e[i] = stepEntry{
			q:   uint64(q[0] + q[2]<<16 + q[1]<<32 + q[3]<<48),
			r01: uint64(t[0]) | uint64(t[1])<<32,
			r23: uint64(t[2]) | uint64(t[3])<<32,
		}
		if i&1 != 0 {
			tb.p[i/2] = pairEntry{
				q:  uint64(p[0] + p[1]<<8 + p[2]<<16 + (q[0]+q[1]<<8+q[2]<<16)<<32),
				r0: uint64(pt[0]) | uint64(t[0])<<32,
				r1: uint64(pt[1]) | uint64(t[1])<<32,
				r2: uint64(pt[2]) | uint64(t[2])<<32,
			}
		}
	}
	tb.q, tb.t = q, t
	tb.n = n + 1
	return tb
}

// advance moves the interpolators cl n pixels on through the table (built
// to entry n).
func (tb *stepTab) advance(cl *[4]ilerp, n int) {
	Q, _, R01, R23, _, _, A := swarLerp(cl)
	e := &tb.e[n]
	Q, R01, R23 = swarStep(Q, R01, R23, e.q, e.r01, e.r23, A)
	swarStore(cl, Q, R01, R23, A)
}

// write8888 writes the R, G and B of the chunk's n pixels from the
// interpolators cl over fb's 8888 pixels, keeping the bits keep of each
// (0 or the alpha bytes) and setting set, two pixels to a 64-bit word,
// and moves cl on by n. Each half of a pair's sum lies in 0..2^24, so the
// pixels stay apart and their alpha bytes zero.
func (tb *stepTab) write8888(fb []byte, cl *[4]ilerp, n int, keep, set uint64) {
	bias := uint64(1<<31 - tb.a)
	Q := uint64(cl[0].q+cl[1].q<<8+cl[2].q<<16) * lanes32
	R0, R1, R2 := (uint64(cl[0].r)+bias)*lanes32, (uint64(cl[1].r)+bias)*lanes32, (uint64(cl[2].r)+bias)*lanes32
	ps := tb.p[:(n+1)/2]
	fb = fb[:4*n]
	const m0, m1, m2 = lanes32, lanes32 << 8, lanes32 << 16
	i := 0
	if keep == 0 {
		for ; i+8 <= len(fb); i += 8 {
			e := &ps[i>>3]
			c := Q + e.q + ((R0+e.r0)>>31&m0 | (R1+e.r1)>>23&m1 | (R2+e.r2)>>15&m2)
			binary.LittleEndian.PutUint64(fb[i:i+8:i+8], c|set)
		}
	} else {
		for ; i+8 <= len(fb); i += 8 {
			const keepA = 0xFF000000FF000000
			e := &ps[i>>3]
			c := Q + e.q + ((R0+e.r0)>>31&m0 | (R1+e.r1)>>23&m1 | (R2+e.r2)>>15&m2)
			q := fb[i : i+8 : i+8]
			binary.LittleEndian.PutUint64(q, c|binary.LittleEndian.Uint64(q)&keepA)
		}
	}
	if i < len(fb) {
		e := &ps[i>>3]
		c := uint32(Q + e.q + ((R0+e.r0)>>31&m0 | (R1+e.r1)>>23&m1 | (R2+e.r2)>>15&m2))
		q := fb[i : i+4 : i+4]
		binary.LittleEndian.PutUint32(q, c|binary.LittleEndian.Uint32(q)&uint32(keep)|uint32(set))
	}
	tb.advance(cl, n)
}

// swarAt returns the lanes (as Q's) of the pixel e's steps from the state
// (Q, R01, R23).
func swarAt(Q, R01, R23 uint64, e *stepEntry) uint64 {
	return Q + e.q + ((R01+e.r01)>>31&lanes32 | (R23+e.r23)>>15&(lanes32<<16))
}
