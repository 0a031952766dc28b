package glamo

import "encoding/binary"

// Texturing along a texel row: chunks of the one-texture MODULATE shape
// (pixState.texMod) whose texel row coordinate is the same for every
// pixel (sb.vconst: v does not change along the screen row, as in a
// screen-aligned textured quad, the commonest textured draw).
//
// The bilinear filter's sum, w00*e00 + w10*e10 + w01*e01 + w11*e11 with
// w00 = (256-wu)*(256-wv) and so on, is (256-wu)*c(x0) + wu*c(x1) with
// c(x) = (256-wv)*e(x, y0) + wv*e(x, y1), the same integer: so each
// texel column the chunk reads is weighed once (texColumns), in lanes (at
// most 256*4096 = 2^20 a lane), and each pixel weighs two columns (at
// most 2^28 + half a lane, below 2^32: no lane carries). Texel u's
// columns are wrap(u) and wrap(u+1) for both wrap modes (axis.pair).
//
// TestSpanPathMatchesReference draws triangles with an edge along a
// screen row and one v on it, which give these chunks.

// texColumns fills sb.colRB and sb.colGA with the weighed columns
// ulo, ulo+1, ... of texture t's level 0 (16-bit texels) that the chunk's
// fixed coordinates read, and returns ulo; it reports false, having done
// nothing, when the chunk spans more columns than the arrays hold, or the
// texture is wider than 2048 texels or ends within 4096 bytes of the end
// of memory. The coordinates are monotonic along the chunk (stepCoord:
// q(u + d) lies on the same side of u as d for the grid value u;
// TestStepCoord checks it), so the first and last pixels bound them.
func (t *texUnit) texColumns(sb *spanBuf, n int) (int64, bool) {
	lo, hi := sb.fu[0], sb.fu[(n-1)&(spanChunk-1)]
	if lo > hi {
		lo, hi = hi, lo
	}
	ulo := int64(lo) >> 8
	ncol := int(int64(hi)>>8-ulo) + 2 // the columns of u and u+1 for every u
	if ncol > len(sb.colRB) {
		return 0, false
	}
	l := &t.levels[0]
	au, av := newAxis(l.w, t.wrapU), newAxis(l.h, t.wrapV)
	fv := int64(sb.fv[0])
	y0, y1 := av.pair(fv >> 8)
	r0, r1 := l.base+y0*l.pitch, l.base+y1*l.pitch
	wv := uint64(fv & 255)
	lt := (*[1 << 16]uint64)(t.lanes)
	vr := t.vram
	crb, cga := &sb.colRB, &sb.colGA
	if l.w > 2048 || uint64(max(r0, r1))+4096 > uint64(len(vr)) {
		return 0, false
	}
	// The two texel rows as arrays, which a column indexes without a
	// bounds check (x < w <= 2048).
	a0, a1 := (*[4096]byte)(vr[r0:r0+4096]), (*[4096]byte)(vr[r1:r1+4096])
	for j := 0; j < ncol; j++ {
		x, _ := au.pair(ulo + int64(j))
		o := (2 * x) & 4094
		e0 := lt[binary.LittleEndian.Uint16(a0[o:o+2])]
		e1 := lt[binary.LittleEndian.Uint16(a1[o:o+2])]
		crb[j&255] = (256-wv)*(e0&laneMask) + wv*(e1&laneMask)
		cga[j&255] = (256-wv)*(e0>>16&laneMask) + wv*(e1>>16&laneMask)
	}
	return ulo, true
}

// bilinearRow is bilinearModulate of a 16-bit format over a chunk of one
// texel row (above); it reports false, having done nothing, when
// texColumns does.
func (t *texUnit) bilinearRow(sb *spanBuf, n int) bool {
	ulo, ok := t.texColumns(sb, n)
	if !ok {
		return false
	}
	crb, cga := &sb.colRB, &sb.colGA
	col, out, fus := &sb.col, &sb.out, &sb.fu
	for i := 0; i < n; i++ {
		fu := int64(fus[i&(spanChunk-1)])
		j := fu>>8 - ulo
		wu := uint64(fu & 255)
		const half = 0x0000800000008000
		rb := (256-wu)*crb[j&255] + wu*crb[(j+1)&255] + half
		ga := (256-wu)*cga[j&255] + wu*cga[(j+1)&255] + half
		// modulateTexel's products, which need no sat (bilinearModulate).
		c := &col[i&(spanChunk-1)]
		o := &out[i&(spanChunk-1)]
		o[0] = int32((int64(c[0])*int64(rb>>16&0xFFFF) + 2048) >> 12)
		o[1] = int32((int64(c[1])*int64(ga>>16&0xFFFF) + 2048) >> 12)
		o[2] = int32((int64(c[2])*int64(rb>>48) + 2048) >> 12)
		o[3] = int32((int64(c[3])*int64(ga>>48) + 2048) >> 12)
	}
	return true
}

// rowOver565 is shadeSpan for a chunk of one texel row (above) in
// pixState.rowOver565's state: bilinearRow, then outputSpan's Z pass and
// over565InRange (SRC_ALPHA/ONE_MINUS_SRC_ALPHA into RGB565 with red
// high), fused in one loop: the modulated colour goes to the blend in
// registers, not through sb.out. It reports false, having done nothing,
// when texColumns does.
func (e *Engine) rowOver565(sb *spanBuf, n, x0, y int) bool {
	p := &e.px
	ulo, ok := p.tex[0].texColumns(sb, n)
	if !ok {
		return false
	}
	if p.zt || p.zw {
		if sb.zconst && (!p.zmaskOn || p.zmask == 0xFFFF) {
			e.depthSpanConst(sb, n, x0, y)
		} else {
			e.depthSpan(sb, n, x0, y)
		}
	}
	var ph [4]uint64 // the dither offsets by pixel index, in both lanes
	for k, add := range &p.quant[y&3].adds {
		ph[(k-x0)&3] = uint64(add) * (1 | 1<<32)
	}
	cRow := p.cbase + uint32(y)*p.cpitch + 2*uint32(x0)
	cb := p.vram[cRow : cRow+2*uint32(n)]
	dst := p.dstLanes
	crb, cga := &sb.colRB, &sb.colGA
	col, live, fus := &sb.col, &sb.live, &sb.fu
	count := int64(0)
	for i := 0; i < n; i++ {
		if !live[i&(spanChunk-1)] {
			continue
		}
		count++
		fu := int64(fus[i&(spanChunk-1)])
		j := fu>>8 - ulo
		wu := uint64(fu & 255)
		const half = 0x0000800000008000
		rb := (256-wu)*crb[j&255] + wu*crb[(j+1)&255] + half
		ga := (256-wu)*cga[j&255] + wu*cga[(j+1)&255] + half
		// The modulated colour (bilinearRow), in 0..4096.
		c := &col[i&(spanChunk-1)]
		m0 := (uint64(c[0])*(rb>>16&0xFFFF) + 2048) >> 12
		m1 := (uint64(c[1])*(ga>>16&0xFFFF) + 2048) >> 12
		m2 := (uint64(c[2])*(rb>>48) + 2048) >> 12
		a := (uint64(c[3])*(ga>>48) + 2048) >> 12
		// over565InRange's blend and quantisation.
		q := cb[2*i : 2*i+2]
		d := dst[binary.LittleEndian.Uint16(q)]
		s := mulLanes(m0|m2<<32, a) + mulLanes(d&laneMask, one-a)
		g := mulLanes(m1, a) + mulLanes(d>>16&0xFFFF, one-a)
		add := ph[i&3]
		sq := (s*31 + add) >> 12
		gq := (g*63 + add) >> 12 & 0xFF
		binary.LittleEndian.PutUint16(q, uint16(sq&0xFF)<<11|uint16(gq)<<5|uint16(sq>>32&0xFF))
	}
	sb.count += count
	return true
}

// depthSpanConst is depthSpan for a chunk of one depth (sb.zconst), no Z
// write mask and every pixel live (as shadeSpan leaves them for the
// texMod shape): the test and the write four depths at a time
// (depthMask, mergeWords, as fill565 does).
func (e *Engine) depthSpanConst(sb *spanBuf, n, x0, y int) {
	p := &e.px
	zRow := p.zbase + uint32(y)*p.zpitch + 2*uint32(x0)
	zb := p.vram[zRow : zRow+2*uint32(n)]
	zn, zf := z16(sb.z[0]), p.zfunc
	if !p.zt {
		zf = 7 // always
	}
	lo, span, inv := depthRange(zf, int32(zn))
	full := pixelMask(n)
	mask := depthMask(zb, n, lo, lo+span)
	if inv {
		mask ^= full
	}
	if p.zw {
		mergeWords(zb, n, mask, full, uint64(zn)*lanes1, nil)
	}
	if mask != full {
		live := &sb.live
		for i := 0; i < n; i++ {
			live[i&(spanChunk-1)] = mask>>(uint(16*(i&3)+i>>2)&63)&1 != 0
		}
	}
}
