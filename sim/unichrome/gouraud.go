package unichrome

import "encoding/binary"

// The Gouraud fast forms of the span pipeline (fill-gouraud's shape: three
// colour channels that vary, written as they are into a 32-bit target,
// with the integer Z16 test and write of a Z that is constant along the
// row).

// packRun sets word[:n] to kword with the next n pixels of nc (1 to 4)
// colour channels, stepped by rs[:nc] (rowStep.run8's values), at the
// shifts sh[:nc] (below 32), and steps past them. It is run8 for the channels fused
// into one loop: the same 32.32 values and the same margin. It does
// nothing and reports false when a channel is not stepped in fixed point,
// when a value of the chunk lies outside [0, 256) (a clamp: run8's form
// applies) or when a pixel's value lies within the margin of an edge
// (run8 takes the reference's value for it); the caller then runs run8
// for the chunk, from the same state, over words it sets again.
func packRun(rs *[4]*rowStep, sh *[4]uint, nc int, kword uint32, n int, word *[spanN]uint32) bool {
	for _, r := range rs[:nc] {
		if !r.fixed || !r.inRange(n) {
			return false
		}
	}
	// u = v + m: a pixel is near an edge when the fraction of u is
	// below 2m (run8's test); elsewhere u's integer part is v's.
	m := uint64(stepMargin) + uint64(fixForce)
	if nearM2 != 2*m {
		nearM2 = 2 * m
	}
	var near uint64 // bit 63 set when a pixel is near
	out := word[:n]
	switch nc {
	case 1:
		near = pack1(out, kword, false, m, rs[0], sh[0])
	case 2:
		near = pack2(out, kword, m, rs[0], rs[1], sh[0], sh[1])
	case 3:
		near = pack3(out, kword, m, rs[0], rs[1], rs[2], sh[0], sh[1], sh[2])
	default:
		near = pack3(out, kword, m, rs[0], rs[1], rs[2], sh[0], sh[1], sh[2])
		near |= pack1(out, 0, true, m, rs[3], sh[3])
	}
	if near>>63 != 0 {
		return false
	}
	for _, r := range rs[:nc] {
		r.v += int64(n) * r.d
		r.k += n
	}
	return true
}

// pack1 is packRun's loop for one channel: it sets out to kword with the
// channel, or ORs the channel into out (or). It returns the pixels'
// margin bits (bit 63: a pixel near). Shifts are below 32 (packRun).
func pack1(out []uint32, kword uint32, or bool, m uint64, a *rowStep, sa uint) uint64 {
	ua, da := uint64(a.v)+m, uint64(a.d)
	ka := uint32(1) << sa // the shift as a product: no shift count register
	near := uint64(0)
	if or {
		for i := range out {
			near |= uint64(uint32(ua)) - nearM2
			out[i] |= uint32(ua>>32) * ka
			ua += da
		}
		return near
	}
	for i := range out {
		near |= uint64(uint32(ua)) - nearM2
		out[i] = kword | uint32(ua>>32)*ka
		ua += da
	}
	return near
}

// pack2 is packRun's loop for two channels.
func pack2(out []uint32, kword uint32, m uint64, a, b *rowStep, sa, sb uint) uint64 {
	ua, da := uint64(a.v)+m, uint64(a.d)
	ub, db := uint64(b.v)+m, uint64(b.d)
	ka, kb := uint32(1)<<sa, uint32(1)<<sb
	near := uint64(0)
	// Two pixels a step: the loop carries the values once per two.
	i := 0
	for ; i+2 <= len(out); i += 2 {
		a1, b1 := ua+da, ub+db
		near |= uint64(uint32(ua)) - nearM2
		near |= uint64(uint32(ub)) - nearM2
		near |= uint64(uint32(a1)) - nearM2
		near |= uint64(uint32(b1)) - nearM2
		out[i] = kword | uint32(ua>>32)*ka | uint32(ub>>32)*kb
		out[i+1] = kword | uint32(a1>>32)*ka | uint32(b1>>32)*kb
		ua, ub = a1+da, b1+db
	}
	if i < len(out) {
		near |= uint64(uint32(ua)) - nearM2
		near |= uint64(uint32(ub)) - nearM2
		out[i] = kword | uint32(ua>>32)*ka | uint32(ub>>32)*kb
	}
	return near
}

// pack3 is packRun's loop for three channels.
func pack3(out []uint32, kword uint32, m uint64, a, b, c *rowStep, sa, sb, sc uint) uint64 {
	ua, da := uint64(a.v)+m, uint64(a.d)
	ub, db := uint64(b.v)+m, uint64(b.d)
	uc, dc := uint64(c.v)+m, uint64(c.d)
	ka, kb, kc := uint32(1)<<sa, uint32(1)<<sb, uint32(1)<<sc
	near := uint64(0)
	for i := range out {
		near |= uint64(uint32(ua)) - nearM2
		near |= uint64(uint32(ub)) - nearM2
		near |= uint64(uint32(uc)) - nearM2
		out[i] = kword | uint32(ua>>32)*ka | uint32(ub>>32)*kb | uint32(uc>>32)*kc
		ua += da
		ub += db
		uc += dc
	}
	return near
}

// nearM2 is twice packRun's margin (stepMargin + fixForce), set by
// packRun: the loops read it from memory, which keeps a register free.
var nearM2 uint64

// inRange reports whether the fixed-point values of the next n pixels all
// lie in [0, 256) (the values are linear in the step: the ends bound
// them).
func (r *rowStep) inRange(n int) bool {
	const top = 256 << 32
	v0, v1 := r.v, r.v+int64(n-1)*r.d
	return v0 >= 0 && v0 < top && v1 >= 0 && v1 < top
}

// zLanes holds the Z function's outcomes as lane masks for constZChunk:
// all ones where the outcome passes.
type zLanes struct{ less, equal, greater uint64 }

// lanesOf returns the Z function's lane masks (the function's bits: 1
// less, 2 equal, 4 greater).
func lanesOf(zfn uint32) zLanes {
	m := func(bit uint32) uint64 {
		if zfn&bit != 0 {
			return ^uint64(0)
		}
		return 0
	}
	return zLanes{m(1), m(2), m(4)}
}

// constZChunk is plainChunk's Z16 loop for a chunk without stipple,
// written through every plane, whose Z is the same value z at every pixel:
// four pixels a step, their stored values tested in 32-bit lanes (two
// pixels a word), and where the four pass (the common case) their Z and
// colours written as two and eight bytes. A group where some fail runs
// plainChunk's per-pixel form. It returns the pixels written.
func constZChunk(zrow, crow []byte, z uint32, zl zLanes, zw bool, words *[spanN]uint32, n int) int {
	const lo = 0x0000FFFF0000FFFF
	const bit16 = 0x0001000000010000
	zz := uint64(z) | uint64(z)<<32
	z1 := zz + (1 | 1<<32)
	z4 := zz | zz<<16
	written := 0
	i := 0
	for ; i+4 <= n; i += 4 {
		s := binary.LittleEndian.Uint64(zrow[2*i:])
		se, so := s&lo|bit16, s>>16&lo|bit16
		// Bit 16 of a lane: stored >= z (ge), stored > z (gt).
		geE, gtE := (se-zz)&bit16, (se-z1)&bit16
		geO, gtO := (so-zz)&bit16, (so-z1)&bit16
		passE := gtE&zl.less | geE&^gtE&zl.equal | (geE^bit16)&zl.greater
		passO := gtO&zl.less | geO&^gtO&zl.equal | (geO^bit16)&zl.greater
		if passE&passO == bit16 {
			if zw {
				binary.LittleEndian.PutUint64(zrow[2*i:], z4)
			}
			binary.LittleEndian.PutUint64(crow[4*i:], uint64(words[i])|uint64(words[i+1])<<32)
			binary.LittleEndian.PutUint64(crow[4*i+8:], uint64(words[i+2])|uint64(words[i+3])<<32)
			written += 4
			continue
		}
		for j := i; j < i+4; j++ {
			written += constZPixel(zrow, crow, z, zl, zw, words, j)
		}
	}
	for ; i < n; i++ {
		written += constZPixel(zrow, crow, z, zl, zw, words, i)
	}
	return written
}

// constZPixel is constZChunk's test and writes for pixel i alone; it
// returns 1 when the pixel is written.
func constZPixel(zrow, crow []byte, z uint32, zl zLanes, zw bool, words *[spanN]uint32, i int) int {
	zb := zrow[2*i : 2*i+2]
	stored := uint32(binary.LittleEndian.Uint16(zb))
	var pass uint64
	switch {
	case z < stored:
		pass = zl.less
	case z == stored:
		pass = zl.equal
	default:
		pass = zl.greater
	}
	if pass == 0 {
		return 0
	}
	if zw {
		binary.LittleEndian.PutUint16(zb, uint16(z))
	}
	binary.LittleEndian.PutUint32(crow[4*i:], words[i])
	return 1
}
