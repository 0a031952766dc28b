package r300

import (
	"encoding/binary"
	"math"
	"math/bits"
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
			n += bits.OnesCount8(m)
		}
		w.pixels += n
		if s.zb.active {
			n = s.spanDepth(p, sw)
		}
		w.zpass += uint32(n)
		if fp.out == outDirect8 {
			s.spanDirect8(sw)
		} else {
			s.spanBlend8(sw)
		}
		return nil
	}
	var out [4][4]float32
	for k := 0; k < sw.nq; k++ {
		m := sw.cov[k] &^ sw.kill[k]
		for m != 0 {
			i := bits.TrailingZeros8(m)
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

// spanDepth is depthNoStencil for the pixels of sw.mask, with Z from the
// plane equation: it drops the pixels that fail from the mask and returns
// how many pass.
func (s *drawState) spanDepth(p *prim, sw *spanWork) int {
	z := &s.zb
	var zc uint32
	if sw.zConst {
		zc = s.planeZ(sw.z[0], p.zoff)
	}
	op := zCmp[z.zFunc]
	write := z.zTest && z.zWrite
	n := 0
	for k := 0; k < sw.nq; k++ {
		m := sw.mask[k]
		for r := m; r != 0; r &= r - 1 {
			i := bits.TrailingZeros8(r)
			x, y := sw.qx[k]+i&1, sw.qy+i>>1
			zv := zc
			if !sw.zConst {
				zv = s.planeZ(sw.z[4*k+i], p.zoff)
			}
			var pass bool
			if z.z24 {
				off := (y*z.pitch + x) * 4
				b := z.mem[off : off+4 : off+4]
				v := binary.LittleEndian.Uint32(b)
				pass = !z.zTest || cmp(op, zv, v>>8)
				if pass && write {
					binary.LittleEndian.PutUint32(b, zv<<8|v&0xFF)
				}
			} else {
				off := (y*z.pitch + x) * 2
				b := z.mem[off : off+2 : off+2]
				pass = !z.zTest || cmp(op, zv, uint32(binary.LittleEndian.Uint16(b))<<8)
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
			i := bits.TrailingZeros8(m)
			pi := 4*k + i
			off := base + (i&1)*4 + (i>>1)*pitch
			binary.LittleEndian.PutUint32(buf.mem[off:off+4:off+4], ob[0][pi]|ob[1][pi]|ob[2][pi]|ob[3][pi])
		}
	}
}

// spanBlend8 is colorOut's ARGB8888 path over the span's masked pixels,
// for one unorm-8 target blended without fog, alpha test, ROP, mask or
// discard.
func (s *drawState) spanBlend8(sw *spanWork) {
	cb := &s.cb
	t := cb.used[0]
	buf := &cb.buf[t]
	sl, md := &buf.slots, &buf.modes
	o := &sw.out[t]
	pitch := buf.pitch * 4
	for k := 0; k < sw.nq; k++ {
		m := sw.mask[k]
		if m == 0 {
			continue
		}
		base := (sw.qy*buf.pitch + sw.qx[k]) * 4
		for ; m != 0; m &= m - 1 {
			i := bits.TrailingZeros8(m)
			pi := 4*k + i
			x, y := sw.qx[k]+i&1, sw.qy+i>>1
			src := [4]float64{unorm8Out(o[0][pi]), unorm8Out(o[1][pi]), unorm8Out(o[2][pi]), unorm8Out(o[3][pi])}
			off := base + (i&1)*4 + (i>>1)*pitch
			b := buf.mem[off : off+4 : off+4]
			var dst, res [4]float64
			if cb.read {
				dst[sl[0]&3], dst[sl[1]&3], dst[sl[2]&3], dst[sl[3]&3] =
					float64(b[0])/255, float64(b[1])/255, float64(b[2])/255, float64(b[3])/255
			}
			for c := 0; c < 3; c++ {
				res[c] = blendKinds(cb.comb, cb.kinds[0], cb.kinds[1], c, &src, &dst, &cb.constant)
			}
			res[3] = blendKinds(cb.acomb, cb.kinds[2], cb.kinds[3], 3, &src, &dst, &cb.constant)
			b[0] = byte(toUnorm(res[sl[0]&3], 8, md[0], x, y))
			b[1] = byte(toUnorm(res[sl[1]&3], 8, md[1], x, y))
			b[2] = byte(toUnorm(res[sl[2]&3], 8, md[2], x, y))
			b[3] = byte(toUnorm(res[sl[3]&3], 8, md[3], x, y))
		}
	}
}
