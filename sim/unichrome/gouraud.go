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

// nearM2 is twice packRun's margin (stepMargin + fixForce): the loops
// read it from memory, which keeps a register free. setFixForce keeps it.
var nearM2 uint64 = 2 * stepMargin

// setFixForce sets fixForce and nearM2 (tests; no drawing under way).
func setFixForce(v uint32) {
	fixForce = v
	nearM2 = 2 * (stepMargin + uint64(v))
}

// inRange reports whether the fixed-point values of the next n pixels all
// lie in [0, 256) (the values are linear in the step: the ends bound
// them).
func (r *rowStep) inRange(n int) bool {
	const top = 256 << 32
	v0, v1 := r.v, r.v+int64(n-1)*r.d
	return v0 >= 0 && v0 < top && v1 >= 0 && v1 < top
}

// zLanes holds the Z function's outcomes for constZChunk: whether each
// passes, and the function as a bound on the stored value where it is
// one (geZ: stored >= z, gtZ: stored > z, leZ: stored <= z, ltZ: stored
// < z, allZ: ALWAYS; 0 otherwise).
type zLanes struct {
	less, equal, greater bool
	bound                uint8
}

// The Z functions constZChunk tests as a bound on the stored value.
const (
	geZ = 1 + iota
	gtZ
	leZ
	ltZ
	allZ
)

// lanesOf returns the Z function's outcomes (the function's bits: 1
// less, 2 equal, 4 greater).
func lanesOf(zfn uint32) zLanes {
	zl := zLanes{less: zfn&1 != 0, equal: zfn&2 != 0, greater: zfn&4 != 0}
	switch zfn {
	case 3: // LEQUAL: z <= stored
		zl.bound = geZ
	case 1: // LESS: z < stored
		zl.bound = gtZ
	case 6: // GEQUAL: z >= stored
		zl.bound = leZ
	case 4: // GREATER: z > stored
		zl.bound = ltZ
	case 7:
		zl.bound = allZ
	}
	return zl
}

// constZChunk is plainChunk's Z16 loop for a chunk without stipple,
// written through every plane, whose Z is the same value z at every pixel.
// Where the Z function is a bound on the stored value (LESS, LEQUAL,
// GREATER, GEQUAL, ALWAYS) it runs four pixels a step: their stored values
// compared with one threshold (stored >= thr, the values' bits inverted
// for the upper bounds), and where the four pass (the common case) their Z
// and colours written as eight and sixteen bytes. A group where some fail,
// and every pixel under the other functions, take constZPixel. It returns
// the pixels written.
func constZChunk(zrow, crow []byte, z uint32, zl zLanes, zw bool, words *[spanN]uint32, n int) int {
	zrow, crow = zrow[:2*n], crow[:4*n]
	thr, flip, ok := zl.threshold(z)
	written := 0
	i := 0
	if ok {
		z4 := uint64(z) * 0x0001000100010001
		for ; i+4 <= n; i += 4 {
			s := binary.LittleEndian.Uint64(zrow[2*i:]) ^ flip
			if s&0xFFFF >= thr && s>>16&0xFFFF >= thr && s>>32&0xFFFF >= thr && s>>48 >= thr {
				if zw {
					binary.LittleEndian.PutUint64(zrow[2*i:], z4)
				}
				w := words[i : i+4 : i+4]
				binary.LittleEndian.PutUint64(crow[4*i:], uint64(w[0])|uint64(w[1])<<32)
				binary.LittleEndian.PutUint64(crow[4*i+8:], uint64(w[2])|uint64(w[3])<<32)
				continue
			}
			for j := i; j < i+4; j++ {
				written += constZPixel(zrow, crow, z, zl, zw, words, j) - 1
			}
		}
		written += i // the groups' pixels, less those that failed
	}
	for ; i < n; i++ {
		written += constZPixel(zrow, crow, z, zl, zw, words, i)
	}
	return written
}

// constZDepth is depthStage's Z16 loop for a chunk without stipple (every
// pixel live) whose Z is the same value z at every pixel: constZChunk's
// four-pixel test and Z write, the colour left to the later stages. A
// pixel that fails is no longer live; it reports whether any pixel is.
func constZDepth(zrow []byte, z uint32, zl zLanes, zw bool, live *[spanN]bool, n int) bool {
	zrow = zrow[:2*n]
	thr, flip, ok := zl.threshold(z)
	passed := 0
	i := 0
	if ok {
		z4 := uint64(z) * 0x0001000100010001
		for ; i+4 <= n; i += 4 {
			s := binary.LittleEndian.Uint64(zrow[2*i:]) ^ flip
			if s&0xFFFF >= thr && s>>16&0xFFFF >= thr && s>>32&0xFFFF >= thr && s>>48 >= thr {
				if zw {
					binary.LittleEndian.PutUint64(zrow[2*i:], z4)
				}
				passed += 4
				continue
			}
			for j := i; j < i+4; j++ {
				passed += constZTest(zrow, z, zl, zw, live, j)
			}
		}
	}
	for ; i < n; i++ {
		passed += constZTest(zrow, z, zl, zw, live, i)
	}
	return passed > 0
}

// constZTest is constZDepth's test and write for pixel i alone; it
// returns 1 when the pixel passes and clears its live flag otherwise.
func constZTest(zrow []byte, z uint32, zl zLanes, zw bool, live *[spanN]bool, i int) int {
	zb := zrow[2*i : 2*i+2]
	if !zl.pass(z, uint32(binary.LittleEndian.Uint16(zb))) {
		live[i] = false
		return 0
	}
	if zw {
		binary.LittleEndian.PutUint16(zb, uint16(z))
	}
	return 1
}

// pass reports whether z passes against the stored value.
func (zl zLanes) pass(z, stored uint32) bool {
	switch {
	case z < stored:
		return zl.less
	case z == stored:
		return zl.equal
	}
	return zl.greater
}

// threshold returns the bound form of the Z function for z: the pixels
// pass where stored^flip >= thr (16-bit lanes); ok is false where the
// function is no bound or passes nothing (LESS of 0xFFFF, GREATER of 0).
func (zl zLanes) threshold(z uint32) (thr, flip uint64, ok bool) {
	switch zl.bound {
	case geZ:
		thr = uint64(z)
	case gtZ:
		thr = uint64(z) + 1
	case leZ:
		thr, flip = 0xFFFF-uint64(z), ^uint64(0) // ^stored >= ^z
	case ltZ:
		thr, flip = 0xFFFF-uint64(z)+1, ^uint64(0)
	case allZ:
	default:
		return 0, 0, false
	}
	return thr, flip, thr <= 0xFFFF
}

// constZPixel is constZChunk's test and writes for pixel i alone; it
// returns 1 when the pixel is written.
func constZPixel(zrow, crow []byte, z uint32, zl zLanes, zw bool, words *[spanN]uint32, i int) int {
	zb := zrow[2*i : 2*i+2]
	if !zl.pass(z, uint32(binary.LittleEndian.Uint16(zb))) {
		return 0
	}
	if zw {
		binary.LittleEndian.PutUint16(zb, uint16(z))
	}
	binary.LittleEndian.PutUint32(crow[4*i:], words[i])
	return 1
}

// gouraud2 is one chunk of fill-gouraud's shape in one loop: two colour
// channels that vary along the row (a and b, run8's values at the shifts
// sa and sb, with kword's other channels: packRun's words) through
// constZChunk's test and writes of the one Z value z, four pixels a step,
// without the words between. A group of four with a pixel near a
// rounding edge takes run8's values (tmp holds them); a group where some
// pixels fail and the last n%4 pixels take constZPixel. It reports false,
// having done nothing, where packRun or constZChunk's bound form does not
// apply; otherwise it steps a and b past the chunk and returns the pixels
// written.
func gouraud2(zrow, crow []byte, a, b *rowStep, sa, sb uint, kword, z uint32, zl zLanes, zw bool, n int, tmp *[4][spanN]int32) (int, bool) {
	thr, flip, ok := zl.threshold(z)
	if !ok || !a.fixed || !b.fixed || !a.inRange(n) || !b.inRange(n) {
		return 0, false
	}
	zrow, crow = zrow[:2*n], crow[:4*n]
	m := uint64(stepMargin) + uint64(fixForce)
	ka, kb := uint32(1)<<sa, uint32(1)<<sb
	k0 := a.k
	ua, ub := uint64(a.v)+m, uint64(b.v)+m
	da, db := uint64(a.d), uint64(b.d)
	z4 := uint64(z) * 0x0001000100010001
	var words [4]uint32
	written := 0
	i := 0
	for ; i+4 <= n; i += 4 {
		a1, b1 := ua+da, ub+db
		a2, b2 := a1+da, b1+db
		a3, b3 := a2+da, b2+db
		// (| and - bind alike: each difference in parentheses.)
		near := (uint64(uint32(ua)) - nearM2) | (uint64(uint32(a1)) - nearM2) | (uint64(uint32(a2)) - nearM2) | (uint64(uint32(a3)) - nearM2)
		near |= (uint64(uint32(ub)) - nearM2) | (uint64(uint32(b1)) - nearM2) | (uint64(uint32(b2)) - nearM2) | (uint64(uint32(b3)) - nearM2)
		if near>>63 != 0 {
			// run8's values for the group, from its first pixel.
			a.v, a.k = int64(ua-m), k0+i
			b.v, b.k = int64(ub-m), k0+i
			a.run8(4, &tmp[0])
			b.run8(4, &tmp[1])
			for j := range words {
				words[j] = kword | uint32(tmp[0][j])<<sa | uint32(tmp[1][j])<<sb
			}
		} else {
			words = [4]uint32{
				kword | uint32(ua>>32)*ka | uint32(ub>>32)*kb,
				kword | uint32(a1>>32)*ka | uint32(b1>>32)*kb,
				kword | uint32(a2>>32)*ka | uint32(b2>>32)*kb,
				kword | uint32(a3>>32)*ka | uint32(b3>>32)*kb,
			}
		}
		ua, ub = a3+da, b3+db
		s := binary.LittleEndian.Uint64(zrow[2*i:]) ^ flip
		if s&0xFFFF >= thr && s>>16&0xFFFF >= thr && s>>32&0xFFFF >= thr && s>>48 >= thr {
			if zw {
				binary.LittleEndian.PutUint64(zrow[2*i:], z4)
			}
			binary.LittleEndian.PutUint64(crow[4*i:], uint64(words[0])|uint64(words[1])<<32)
			binary.LittleEndian.PutUint64(crow[4*i+8:], uint64(words[2])|uint64(words[3])<<32)
			written += 4
			continue
		}
		for j := range words {
			written += constZPixel1(zrow, crow, z, zl, zw, words[j], i+j)
		}
	}
	a.v, a.k = int64(ua-m), k0+i
	b.v, b.k = int64(ub-m), k0+i
	if r := n - i; r > 0 {
		a.run8(r, &tmp[0])
		b.run8(r, &tmp[1])
		for j := 0; j < r; j++ {
			written += constZPixel1(zrow, crow, z, zl, zw, kword|uint32(tmp[0][j])<<sa|uint32(tmp[1][j])<<sb, i+j)
		}
	}
	return written, true
}

// constZPixel1 is constZPixel with the pixel's colour word given.
func constZPixel1(zrow, crow []byte, z uint32, zl zLanes, zw bool, word uint32, i int) int {
	zb := zrow[2*i : 2*i+2]
	if !zl.pass(z, uint32(binary.LittleEndian.Uint16(zb))) {
		return 0
	}
	if zw {
		binary.LittleEndian.PutUint16(zb, uint16(z))
	}
	binary.LittleEndian.PutUint32(crow[4*i:], word)
	return 1
}
