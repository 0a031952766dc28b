package glamo

import (
	"encoding/binary"
	"math/bits"
)

// fill565 is plainChunk for the commonest plain fill: an RGB565 target
// (red high or low), Gouraud or flat colour that stays inside the
// quantisation tables over the chunk, and either no depth work or one
// depth for the whole chunk (a plane parallel to the screen) tested and
// written in full (no Z write mask). It computes what plainChunk's
// general loops do, byte for byte, with fewer instructions a pixel:
//
//   - the depth test runs on four stored depths at a time, in the halves
//     of two machine words (depthMask), and the passing pixels' new
//     depth is merged into the word and stored back;
//   - the pass/fail results are a bit mask (pixelMask's order), not a
//     byte per pixel;
//   - the colours are quantised one dither column at a time (pixels k,
//     k+4, k+8, ...: quantColumn), so that each inner loop holds one
//     5-bit and one 6-bit table and steps by four pixels;
//   - the pixels are written four at a time, merged with the stored ones
//     where some failed.
//
// A block is up to fillBlock pixels of a row (several of the span
// pipeline's chunks: the work per block is spread over more pixels);
// masks and merges go by 64-pixel chunks. Nothing outside the block's n
// pixels is read or written. cb and zb are the block's colour and depth
// bytes (zb nil without depth work); zn and lo..hi (inv: outside it) are
// the block's depth and the stored depths that pass (depthRange). It
// returns the pixels written. TestSpanPathMatchesReference compares it
// with walkTriRef (its states include screen-parallel triangles and
// fill565's states); TestDepthMask checks the four-at-a-time depth test.
func fill565(cb, zb []byte, n, x0 int, a0, a1, a2, d0, d1, d2 int64, adds *[4]int32, zn uint16, lo, hi uint32, inv, zw bool) int64 {
	var masks [fillBlock / spanChunk]uint64
	count := 0
	for b := range masks {
		o := b * spanChunk
		if o >= n {
			break
		}
		m := min(spanChunk, n-o)
		full := pixelMask(m)
		mask := full
		if zb != nil {
			z := zb[2*o : 2*(o+m)]
			mask = depthMask(z, m, lo, hi)
			if inv {
				mask ^= full
			}
			if zw {
				mergeWords(z, m, mask, full, uint64(zn)*lanes1, nil)
			}
		}
		masks[b] = mask
		count += bits.OnesCount64(mask)
	}
	if count == 0 {
		return 0
	}
	var px [2 * fillBlock]byte
	rb, drb := a0<<47+a2, d0<<47+d2
	for k := 0; k < 4 && k < n; k++ {
		d := quantIndex(adds[(x0+k)&3])
		quantColumn(&px, &quant5[d], &quant6[d], k, n, rb+int64(k)*drb, a1<<46+int64(k)*d1<<46, 4*drb, 4*d1<<46)
	}
	for b, mask := range masks {
		o := b * spanChunk
		if o >= n {
			break
		}
		m := min(spanChunk, n-o)
		mergeWords(cb[2*o:2*(o+m)], m, mask, pixelMask(m), 0, (*[2 * spanChunk]byte)(px[2*o:2*o+2*spanChunk]))
	}
	return int64(count)
}

// fillBlock is the most pixels fill565 takes at once, fillMin the
// fewest it is given (below that, its work per block outweighs its
// savings: tiny triangles take plainChunk).
const (
	fillBlock = 4 * spanChunk
	fillMin   = 8
)

// quantColumn quantises the pixels k, k+4, ... below n of a block with
// one dither column's tables into px. Red and blue step from rb by drb,
// red in its top 17 bits and blue in its low 17 (each stays in 0..2^17,
// so neither carries into the other), green from g by dg in its top 18
// bits: there a shift alone gives the table index. It is a function of
// its own so that its loop keeps every value in a register.
//
//go:noinline
func quantColumn(px *[2 * fillBlock]byte, q5 *[8192]uint8, q6 *[16384]uint8, k, n int, rb, g, drb, dg int64) {
	i := k
	for ; i+4 < n; i += 8 {
		rb1, g1 := rb+drb, g+dg
		v0 := uint16(q5[uint64(rb)>>51])<<11 | uint16(q6[uint64(g)>>50])<<5 | uint16(q5[(rb>>4)&8191])
		v1 := uint16(q5[uint64(rb1)>>51])<<11 | uint16(q6[uint64(g1)>>50])<<5 | uint16(q5[(rb1>>4)&8191])
		binary.LittleEndian.PutUint16(px[(2*i)&(2*fillBlock-2):], v0)
		binary.LittleEndian.PutUint16(px[(2*i+8)&(2*fillBlock-2):], v1)
		rb = rb1 + drb
		g = g1 + dg
	}
	for ; i < n; i += 4 {
		v := uint16(q5[uint64(rb)>>51])<<11 | uint16(q6[uint64(g)>>50])<<5 | uint16(q5[(rb>>4)&8191])
		binary.LittleEndian.PutUint16(px[(2*i)&(2*fillBlock-2):], v)
		rb += drb
		g += dg
	}
}

// A chunk's pass mask keeps pixel i at bit 16*(i&3) + i>>2: the word of
// pixels 4g..4g+3 is mask>>g & lanes1, one bit at the bottom of each
// 16-bit lane, which a multiplication by 0xFFFF turns into their select.
const lanes1 = 0x0001000100010001

// pixelMask returns the mask of pixels 0..n-1.
func pixelMask(n int) uint64 {
	ng := uint(n / 4)
	m := (uint64(1)<<ng - 1) * lanes1
	for k := 0; k < n&3; k++ {
		m |= 1 << (uint(16*k) + ng)
	}
	return m
}

// depthMask returns the mask (pixelMask's order) of the n stored depths
// of zb in [lo, hi].
//
// Four depths are tested at once: the even and the odd ones spread into
// the 32-bit halves of two words, where d + 0x10000 - lo carries into bit
// 16 exactly when d >= lo and d + 0xFFFF - hi exactly when d > hi (each
// sum is below 2^17, so no half carries into the other).
func depthMask(zb []byte, n int, lo, hi uint32) uint64 {
	const m32, b16 = 0x0000FFFF0000FFFF, 0x0001000000010000
	cl, ch := uint64(0x10000-lo)*(1|1<<32), uint64(0xFFFF-hi)*(1|1<<32)
	var mask uint64
	ng := n / 4
	// The groups from the last to the first, each shifting the ones
	// after it up by one bit.
	if hi == 0xFFFF { // LESS, LEQUAL, ALWAYS: d > hi never holds
		for z := zb[:8*ng]; len(z) >= 8; z = z[:len(z)-8] {
			w := binary.LittleEndian.Uint64(z[len(z)-8:])
			mask = mask<<1 | ((w&m32+cl)&b16)>>16 | (w>>16&m32+cl)&b16
		}
	} else {
		for z := zb[:8*ng]; len(z) >= 8; z = z[:len(z)-8] {
			w := binary.LittleEndian.Uint64(z[len(z)-8:])
			e, o := w&m32, w>>16&m32
			mask = mask<<1 | ((e+cl)&^(e+ch)&b16)>>16 | (o+cl)&^(o+ch)&b16 // bit 0 of each lane
		}
	}
	for i := 4 * ng; i < n; i++ {
		if d := uint32(binary.LittleEndian.Uint16(zb[2*i : 2*i+2])); d >= lo && d <= hi {
			mask |= 1 << (uint(16*(i&3)+ng) & 63)
		}
	}
	return mask
}

// mergeWords writes the pixels of mask (pixelMask's order; full is all
// n) into the n 16-bit pixels of b: from src, or the four-pixel word w
// when src is nil. Pixels outside the mask keep their bytes.
func mergeWords(b []byte, n int, mask, full, w uint64, src *[2 * spanChunk]byte) {
	if mask == full {
		if src != nil {
			copy(b[:2*n], src[:])
			return
		}
		b = b[:2*n]
		for len(b) >= 8 {
			binary.LittleEndian.PutUint64(b, w)
			b = b[8:]
		}
		for len(b) >= 2 {
			binary.LittleEndian.PutUint16(b, uint16(w))
			b = b[2:]
		}
		return
	}
	ng := n / 4
	for g := 0; g < ng; g++ {
		m := mask >> (uint(g) & 63) & lanes1
		if m == 0 {
			continue
		}
		o := b[8*g : 8*g+8]
		v := w
		if src != nil {
			v = binary.LittleEndian.Uint64(src[(8*g)&(2*spanChunk-8):])
		}
		if m != lanes1 {
			sel := m * 0xFFFF
			v = binary.LittleEndian.Uint64(o)&^sel | v&sel
		}
		binary.LittleEndian.PutUint64(o, v)
	}
	for i := 4 * ng; i < n; i++ {
		if mask>>(uint(16*(i&3)+ng)&63)&1 != 0 {
			v := uint16(w)
			if src != nil {
				v = binary.LittleEndian.Uint16(src[(2*i)&(2*spanChunk-2):])
			}
			binary.LittleEndian.PutUint16(b[2*i:2*i+2], v)
		}
	}
}

// fillChunk is plainChunk through fill565 for a block of n <= fillBlock
// pixels when its colours stay inside the quantisation tables
// (pixState.fill565 holds and the depth, if any, is the same over the
// block); it reports false, having done nothing, otherwise.
func (e *Engine) fillChunk(sb *spanBuf, n, x0, y int, acc, dx *[8]int64, z, off float64) bool {
	p := &e.px
	a0, a1, a2, a3 := acc[0], acc[1], acc[2], acc[3]
	d0, d1, d2, d3 := dx[0], dx[1], dx[2], dx[3]
	last := int64(n - 1)
	inRange := func(a, d, hi int64) bool {
		lo, end := a>>4, (a+d*last)>>4
		return lo >= 0 && lo <= hi && end >= 0 && end <= hi
	}
	if !inRange(a0, d0, 31*256) || !inRange(a1, d1, 63*256) || !inRange(a2, d2, 31*256) {
		return false
	}
	vram := p.vram
	cRow := p.cbase + uint32(y)*p.cpitch + 2*uint32(x0)
	cb := vram[cRow : cRow+2*uint32(n)]
	var zb []byte
	var zn uint16
	lo, hi, inv := uint32(0), uint32(0xFFFF), false
	if p.needZ {
		zRow := p.zbase + uint32(y)*p.zpitch + 2*uint32(x0)
		zb = vram[zRow : zRow+2*uint32(n)]
		zi := z
		if off != 0 {
			zi = q(z + off)
		}
		zn = z16(zi)
		zf := p.zfunc
		if !p.zt {
			zf = 7 // always
		}
		var span uint32
		lo, span, inv = depthRange(zf, int32(zn))
		hi = lo + span // at most 0xFFFF for every function
	}
	if p.cfmt == 0x51 { // red low: blue takes red's place in the pixel
		a0, a2, d0, d2 = a2, a0, d2, d0
	}
	sb.count += fill565(cb, zb, n, x0, a0, a1, a2, d0, d1, d2, &p.quant[y&3].adds, zn, lo, hi, inv, p.zw)
	n64 := int64(n)
	acc[0], acc[1], acc[2], acc[3] = acc[0]+dx[0]*n64, acc[1]+d1*n64, acc[2]+dx[2]*n64, a3+d3*n64
	return true
}
