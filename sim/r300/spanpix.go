package r300

import (
	"encoding/binary"
	"math"
	mathbits "math/bits"
	"sync"
)

// The span pipeline's pixel stages. The general stage hands every pixel
// to Engine.pixel, the reference's own FG/ZB/RB3D code. The specialised
// stages cover the common states with the same arithmetic and no per-pixel
// state tests: an ARGB8888 target written directly (cbState.direct8) or
// blended, with at most a depth test from the plane equation. Primitives
// reach them only when every pixel of their bounding box lies in memory
// (batch.go), so they need no fault checks.

// Pixel stages.
const (
	outGeneral = iota
	outDirect8 // cbState.direct8: the output bytes are the pixel's bytes
	outBlend8  // one unorm-8 target into ARGB8888, blended
	outOver8   // outBlend8 with GL's over blend into a permuted layout
)

// outStage chooses the draw's pixel stage.
func (s *drawState) outStage() int {
	cb := &s.cb
	zOK := !s.zb.active || (!s.zb.stencil && !s.fg.depthFromUS)
	if !zOK {
		return outGeneral
	}
	if cb.direct8 {
		return outDirect8
	}
	if len(cb.used) == 1 && cb.multi == 0 && cb.outFmt[cb.used[0]] == 0 && cb.buf[cb.used[0]].simple &&
		cb.blend && !cb.rop && cb.allMask && cb.discard == 0 && !s.fg.fog && !s.fg.alphaTest {
		sl := &cb.buf[cb.used[0]].slots
		var seen [4]bool
		for _, c := range sl {
			seen[c&3] = true
		}
		if cb.comb == 0 && cb.acomb == 0 && cb.kinds == [4]int{bfSrcAlpha, bfInvSrcAlpha, bfSrcAlpha, bfInvSrcAlpha} &&
			seen == [4]bool{true, true, true, true} {
			return outOver8
		}
		return outBlend8
	}
	return outGeneral
}

// planeZ is depthStencil's Z24 value of a fragment at window z from the
// plane equation.
func (s *drawState) planeZ(z, zoff float64) uint32 {
	zf := float64(z*s.depthScale) + s.depthOffset + zoff
	zv := uint32(max(0, min(1<<24-1, math.Floor(zf+0.5))))
	if zf != zf {
		zv = 0
	}
	if !s.zb.z24 {
		zv &^= 0xFF
	}
	return zv
}

// spanPixels runs FG, ZB and the colour backend for the span's covered,
// unkilled pixels in quad order.
func (e *Engine) spanPixels(s *drawState, fp *fastPipe, p *prim, w *worker) error {
	sw := w.span
	if fp.out != outGeneral {
		n := 0
		for k := 0; k < sw.nq; k++ {
			m := sw.cov[k] &^ sw.kill[k]
			sw.mask[k] = m
			n += mathbits.OnesCount8(m)
		}
		w.pixels += n
		if s.zb.active {
			n = s.spanDepth(p, sw)
		}
		w.zpass += uint32(n)
		switch fp.out {
		case outDirect8:
			s.spanDirect8(sw)
		case outOver8:
			s.spanOver8(fp, sw)
		default:
			s.spanBlend8(sw)
		}
		return nil
	}
	var out [4][4]float32
	for k := 0; k < sw.nq; k++ {
		m := sw.cov[k] &^ sw.kill[k]
		for m != 0 {
			i := mathbits.TrailingZeros8(m)
			m &= m - 1
			pi := 4*k + i
			x, y := sw.qx[k]+i&1, sw.qy+i>>1
			for _, t := range s.cb.used {
				out[t] = [4]float32{sw.out[t][0][pi], sw.out[t][1][pi], sw.out[t][2][pi], sw.out[t][3][pi]}
			}
			fr := fragment{out: &out, z: sw.z[pi], w: sw.w[pi], fog: sw.fog[pi], depth: sw.depth[pi]}
			if err := e.pixel(s, p, w, x, y, &fr); err != nil {
				return err
			}
		}
	}
	return nil
}

// spanDepth is depthStencil without the stencil test, for the pixels of
// sw.mask with Z from the plane equation: it drops the pixels that fail
// from the mask and returns how many pass. (Without stencil, depthStencil
// writes back the old value unless the test passes with writes on.)
func (s *drawState) spanDepth(p *prim, sw *spanWork) int {
	z := &s.zb
	var zc uint32
	if sw.zConst {
		zc = s.planeZ(sw.z[0], p.zoff)
	}
	op := zCmp[z.zFunc]
	test, write := z.zTest, z.zTest && z.zWrite
	bpp := 2
	if z.z24 {
		bpp = 4
	}
	row := z.pitch * bpp
	mem, z24, zConst := z.mem, z.z24, sw.zConst
	n := 0
	if zConst && z24 && write && op == cmpLE {
		// GL's LEQUAL with writes against a constant Z, the common
		// state, without cmp's switch or the plane per pixel.
		for k := 0; k < sw.nq; k++ {
			m := sw.mask[k]
			base := (sw.qy*z.pitch + sw.qx[k]) * 4
			for r := m; r != 0; r &= r - 1 {
				i := mathbits.TrailingZeros8(r)
				off := base + (i&1)*4 + (i>>1)*row
				b := mem[off : off+4 : off+4]
				v := binary.LittleEndian.Uint32(b)
				if zc <= v>>8 {
					binary.LittleEndian.PutUint32(b, zc<<8|v&0xFF)
					n++
				} else {
					m &^= 1 << i
				}
			}
			sw.mask[k] = m
		}
		return n
	}
	for k := 0; k < sw.nq; k++ {
		m := sw.mask[k]
		if m == 0 {
			continue
		}
		base := (sw.qy*z.pitch + sw.qx[k]) * bpp
		for r := m; r != 0; r &= r - 1 {
			i := mathbits.TrailingZeros8(r)
			zv := zc
			if !zConst {
				zv = s.planeZ(sw.z[4*k+i], p.zoff)
			}
			off := base + (i&1)*bpp + (i>>1)*row
			pass := true
			if z24 {
				b := mem[off : off+4 : off+4]
				v := binary.LittleEndian.Uint32(b)
				if test {
					pass = cmp(op, zv, v>>8)
				}
				if pass && write {
					binary.LittleEndian.PutUint32(b, zv<<8|v&0xFF)
				}
			} else {
				b := mem[off : off+2 : off+2]
				if test {
					pass = cmp(op, zv, uint32(binary.LittleEndian.Uint16(b))<<8)
				}
				if pass && write {
					binary.LittleEndian.PutUint16(b, uint16(zv>>8))
				}
			}
			if pass {
				n++
			} else {
				m &^= 1 << i
			}
		}
		sw.mask[k] = m
	}
	return n
}

// spanDirect8 is pixelDirect8's colour write over the span's masked
// pixels: the output bytes, in the buffer's slot order.
func (s *drawState) spanDirect8(sw *spanWork) {
	t := s.cb.used[0]
	buf := &s.cb.buf[t]
	sl := &buf.slots
	o := &sw.out[t]
	n := 4 * sw.nq
	ob := &sw.packed
	for k := 0; k < 4; k++ {
		src, sh := o[sl[k]&3][:n], 8*uint(k)
		dst := ob[k][:len(src)]
		for i, v := range src {
			dst[i] = uint32(outByte(v)) << sh
		}
	}
	pitch := buf.pitch * 4
	for k := 0; k < sw.nq; k++ {
		m := sw.mask[k]
		if m == 0 {
			continue
		}
		base := (sw.qy*buf.pitch + sw.qx[k]) * 4
		for ; m != 0; m &= m - 1 {
			i := mathbits.TrailingZeros8(m)
			pi := 4*k + i
			off := base + (i&1)*4 + (i>>1)*pitch
			binary.LittleEndian.PutUint32(buf.mem[off:off+4:off+4], ob[0][pi]|ob[1][pi]|ob[2][pi]|ob[3][pi])
		}
	}
}

// byteUnit holds float64(k)/255 for every byte k: the value of an 8-bit
// channel (quantOut's k/255, read's b/255).
var byteUnit = func() (t [256]float64) {
	for k := range t {
		t[k] = float64(k) / 255
	}
	return
}()

// spanBlend8 is colorOut's ARGB8888 path over the span's masked pixels,
// for one unorm-8 target blended without fog, alpha test, ROP, mask or
// discard. GL's usual SRC_ALPHA, ONE_MINUS_SRC_ALPHA with ADD_CLAMP on
// both halves is written out; other blends go through blendKinds.
func (s *drawState) spanBlend8(sw *spanWork) {
	cb := &s.cb
	t := cb.used[0]
	buf := &cb.buf[t]
	sl, md := &buf.slots, &buf.modes
	o := &sw.out[t]
	pitch := buf.pitch * 4
	over := cb.comb == 0 && cb.acomb == 0 && cb.kinds == [4]int{bfSrcAlpha, bfInvSrcAlpha, bfSrcAlpha, bfInvSrcAlpha}
	n := 4 * sw.nq
	ob := &sw.packed
	for c := 0; c < 4; c++ {
		src := o[c][:n]
		dst := ob[c][:len(src)]
		for i, v := range src {
			dst[i] = uint32(outByte(v))
		}
	}
	// toUnorm's offsets per byte: a constant, or (-1) the dither
	// matrix's.
	var offs [4]float64
	for k, mode := range md {
		offs[k] = [3]float64{1.0 / 4096, 0.5, -1}[mode]
	}
	// ch[k] is the channel byte k holds; from[c] the byte read gives
	// channel c (the last one holding it, as read's assignments go), or
	// 4 for none (0).
	var ch [4]uint32
	from := [5]int{4, 4, 4, 4, 4}
	for k := range sl {
		ch[k] = uint32(sl[k] & 3)
		from[ch[k]] = k
	}
	for k := 0; k < sw.nq; k++ {
		m := sw.mask[k]
		if m == 0 {
			continue
		}
		base := (sw.qy*buf.pitch + sw.qx[k]) * 4
		for ; m != 0; m &= m - 1 {
			i := mathbits.TrailingZeros8(m)
			pi := 4*k + i
			x, y := sw.qx[k]+i&1, sw.qy+i>>1
			off := base + (i&1)*4 + (i>>1)*pitch
			b := buf.mem[off : off+4 : off+4]
			var bb [5]byte
			if cb.read {
				copy(bb[:4], b)
			}
			var res [4]float64
			if over {
				sa := byteUnit[uint8(ob[3][pi])]
				isa := 1 - sa
				res[0] = clamp01(float64(byteUnit[uint8(ob[0][pi])]*sa) + float64(byteUnit[bb[from[0]]]*isa))
				res[1] = clamp01(float64(byteUnit[uint8(ob[1][pi])]*sa) + float64(byteUnit[bb[from[1]]]*isa))
				res[2] = clamp01(float64(byteUnit[uint8(ob[2][pi])]*sa) + float64(byteUnit[bb[from[2]]]*isa))
				res[3] = clamp01(float64(sa*sa) + float64(byteUnit[bb[from[3]]]*isa))
			} else {
				src := [4]float64{byteUnit[uint8(ob[0][pi])], byteUnit[uint8(ob[1][pi])], byteUnit[uint8(ob[2][pi])], byteUnit[uint8(ob[3][pi])]}
				dst := [4]float64{byteUnit[bb[from[0]]], byteUnit[bb[from[1]]], byteUnit[bb[from[2]]], byteUnit[bb[from[3]]]}
				for c := 0; c < 3; c++ {
					res[c] = blendKinds(cb.comb, cb.kinds[0], cb.kinds[1], c, &src, &dst, &cb.constant)
				}
				res[3] = blendKinds(cb.acomb, cb.kinds[2], cb.kinds[3], 3, &src, &dst, &cb.constant)
			}
			d := ditherOffset[y&3][x&3]
			o0, o1, o2, o3 := offs[0], offs[1], offs[2], offs[3]
			if o0 < 0 {
				o0 = d
			}
			if o1 < 0 {
				o1 = d
			}
			if o2 < 0 {
				o2 = d
			}
			if o3 < 0 {
				o3 = d
			}
			b[0] = byte(min(uint32(clamp01(res[ch[0]])*255+o0), 255))
			b[1] = byte(min(uint32(clamp01(res[ch[1]])*255+o1), 255))
			b[2] = byte(min(uint32(clamp01(res[ch[2]])*255+o2), 255))
			b[3] = byte(min(uint32(clamp01(res[ch[3]])*255+o3), 255))
		}
	}
}

// overTab holds, for every source alpha byte ka, the two products of GL's
// SRC_ALPHA, ONE_MINUS_SRC_ALPHA blend of 8-bit channels as blendKinds
// computes them: src·sa for every source byte (index 0) and dst·(1 - sa)
// for every destination byte (index 1).
var overTab = sync.OnceValue(func() *[256][2][256]float64 {
	t := new([256][2][256]float64)
	for ka := range t {
		sa := byteUnit[ka]
		isa := 1 - sa
		for k := range 256 {
			t[ka][0][k] = float64(byteUnit[k] * sa)
			t[ka][1][k] = float64(byteUnit[k] * isa)
		}
	}
	return t
})

// spanOver8 is spanBlend8 for SRC_ALPHA, ONE_MINUS_SRC_ALPHA with
// ADD_CLAMP on both halves into a buffer whose four bytes hold the four
// channels once each (outOver8), in integers: every new byte is overByte
// of the source byte, the source alpha byte and the destination byte
// (TestOverByteMatchesFloat holds it to the float64 form, overFloat).
func (s *drawState) spanOver8(fp *fastPipe, sw *spanWork) {
	cb := &s.cb
	t := cb.used[0]
	buf := &cb.buf[t]
	sl := &buf.slots
	o := &sw.out[t]
	offs := &fp.overOffs
	o0, o1, o2, o3 := &o[sl[0]&3], &o[sl[1]&3], &o[sl[2]&3], &o[sl[3]&3]
	oa := &o[3]
	read := cb.read
	pitch := buf.pitch * 4
	for k := 0; k < sw.nq; k++ {
		m := sw.mask[k]
		if m == 0 {
			continue
		}
		base := (sw.qy*buf.pitch + sw.qx[k]) * 4
		if m == 15 && read {
			// A whole quad read and blended: no mask walk.
			qx := sw.qx[k]
			for i := 0; i < 4; i++ {
				pi := 4*k + i
				off := base + (i&1)*4 + (i>>1)*pitch
				b := buf.mem[off : off+4 : off+4]
				a := uint32(outByte(oa[pi]))
				ia := 255 - a
				x, y := qx+i&1, sw.qy+i>>1
				di := (y&3)<<2 | x&3
				b[0] = byte((8192*(uint32(outByte(o0[pi]))*a+uint32(b[0])*ia) + offs[0][di]) / overDiv)
				b[1] = byte((8192*(uint32(outByte(o1[pi]))*a+uint32(b[1])*ia) + offs[1][di]) / overDiv)
				b[2] = byte((8192*(uint32(outByte(o2[pi]))*a+uint32(b[2])*ia) + offs[2][di]) / overDiv)
				b[3] = byte((8192*(uint32(outByte(o3[pi]))*a+uint32(b[3])*ia) + offs[3][di]) / overDiv)
			}
			continue
		}
		for ; m != 0; m &= m - 1 {
			i := mathbits.TrailingZeros8(m)
			pi := 4*k + i
			x, y := sw.qx[k]+i&1, sw.qy+i>>1
			off := base + (i&1)*4 + (i>>1)*pitch
			b := buf.mem[off : off+4 : off+4]
			var d0, d1, d2, d3 uint32
			if read {
				d0, d1, d2, d3 = uint32(b[0]), uint32(b[1]), uint32(b[2]), uint32(b[3])
			}
			a := uint32(outByte(oa[pi]))
			ia := 255 - a
			di := (y&3)<<2 | x&3
			b[0] = byte((8192*(uint32(outByte(o0[pi]))*a+d0*ia) + offs[0][di]) / overDiv)
			b[1] = byte((8192*(uint32(outByte(o1[pi]))*a+d1*ia) + offs[1][di]) / overDiv)
			b[2] = byte((8192*(uint32(outByte(o2[pi]))*a+d2*ia) + offs[2][di]) / overDiv)
			b[3] = byte((8192*(uint32(outByte(o3[pi]))*a+d3*ia) + offs[3][di]) / overDiv)
		}
	}
}

// overDiv is overByte's divisor, 255·8192.
const overDiv = 255 * 8192

// overOffset is toUnorm's offset for a dither mode at dither position d
// ((y&3)<<2 | x&3), times 255·8192: 1/4096, 1/2 or (bayer + 1/2)/16 are
// all multiples of 1/8192.
func overOffset(mode uint32, d int) uint32 {
	switch mode {
	case 0:
		return 255 * 2
	case 1:
		return 255 * 4096
	}
	return 255 * 256 * (2*uint32(bayer[d>>2][d&3]) + 1)
}

// overByte is GL's over blend of 8-bit channels, quantised: with
// N = src·a + dst·(255 - a), the byte is floor(N/255 + off) for toUnorm's
// offset off (off255 = overOffset), which is never within 1/(255·8192)
// of an integer (off is an odd multiple of 1/8192 below 1, or 1/4096),
// where the float64 form (overFloat) errs by under 2^-40: the two agree
// on every input (TestOverByteMatchesFloat checks all of them). The
// quotient never exceeds 255 (N <= 255·255).
func overByte(src, a, dst, off255 uint32) byte {
	return byte((8192*(src*a+dst*(255-a)) + off255) / overDiv)
}

// overFloat is the float64 over blend the reference's blendKinds and
// toUnorm compute for 8-bit channels: clamp(src·sa + dst·(1 - sa)) from
// overTab, plus the offset, truncated and clamped to 255.
func overFloat(src, a, dst byte, off float64) byte {
	tb := &overTab()[a]
	r := clamp01(tb[0][src] + tb[1][dst])
	return byte(min(uint32(r*255+off), 255))
}
