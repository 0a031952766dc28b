package r300

import (
	"encoding/binary"
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// Texture fetch on spans. sampleQuad is the general path, a quad at a
// time (the level of detail comes from the quad). When the level of
// detail cannot matter (no mipmapping, one filter for magnification and
// minification) every pixel samples the base level with that filter, and
// for 8_8_8_8 textures whose wrap modes never read the border (texUnit's
// fast8 and wrapFast) sampleSpan does it pixel by pixel in straight-line
// code, with filter's arithmetic in filter's order.

// unorm8d holds float64(unorm8[v]) for every byte v.
var unorm8d = func() (t [256]float64) {
	for i := range t {
		t[i] = float64(unorm8[i])
	}
	return
}()

// spanSampling reports whether sampleSpan serves the unit.
func (u *texUnit) spanSampling() bool {
	return u.enabled && !u.lodMatters() && u.fast8 && u.wrapFast
}

// sampleSpan samples the unit (spanSampling) at the coordinates in src for
// the span's first n pixels and writes the results, rounded to FP24, to
// dst (which may be src: each pixel is read before it is written).
func (u *texUnit) sampleSpan(op r3.TexOp, src, dst *[4]spanArr, n int) {
	lv := &u.levels[u.baseLevel]
	proj := op == r3.TexProj || (op == r3.TexLD && u.projected)
	wd, ht := float64(lv.Width), float64(lv.Height)
	linear := u.mag == 2
	if linear && !proj && u.selID && u.wrap == [2]uint32{0, 0} {
		u.bilinearRepeat(lv, src, dst, n)
		return
	}
	for p := 0; p < n; p++ {
		sv, tv := float64(src[0][p]), float64(src[1][p])
		if proj {
			q := float64(src[3][p])
			sv, tv = sv/q, tv/q
		}
		sv, tv = wrapCoord(u.wrap[0], sv), wrapCoord(u.wrap[1], tv)
		x, y := float64(sv*wd), float64(tv*ht)
		var c [4]float32
		if linear {
			c = u.bilinear8Fast(lv, x, y)
		} else {
			c = u.nearest8(lv, x, y)
		}
		dst[0][p], dst[1][p], dst[2][p], dst[3][p] = fp24(float64(c[0])), fp24(float64(c[1])), fp24(float64(c[2])), fp24(float64(c[3]))
	}
}

// fp24f is fp24 of a float32: a positive normal value from 2^-62
// (biased exponent 65) to below 2^65 (191) keeps the top 16 bits of its
// mantissa, as fp24 keeps them of the float64; any other value takes
// fp24 itself.
func fp24f(f float32) float32 {
	b := math.Float32bits(f)
	if b-65<<23 < 127<<23 {
		return math.Float32frombits(b &^ 0x7F)
	}
	return fp24(float64(f))
}

// nearest8 is filter's point sample for fast8 and wrapFast.
func (u *texUnit) nearest8(lv *r3.TexLevel, x, y float64) [4]float32 {
	xi := wrapFast(u.wrap[0], int(math.Floor(clampIdx(x))), lv.Width)
	yj := wrapFast(u.wrap[1], int(math.Floor(clampIdx(y))), lv.Height)
	o := lv.Offset + uint32(yj)*lv.Pitch + uint32(4*xi)
	b := u.mem[o : o+4 : o+4]
	c := [6]float32{unorm8[b[0]], unorm8[b[1]], unorm8[b[2]], unorm8[b[3]], 0, 1}
	return [4]float32{c[u.sel[0]], c[u.sel[1]], c[u.sel[2]], c[u.sel[3]]}
}

// bilinear8Fast is bilinear8 unrolled: the same weights, and per channel
// the same sum, texel 0 first, from zero.
func (u *texUnit) bilinear8Fast(lv *r3.TexLevel, x, y float64) [4]float32 {
	x, y = clampIdx(x-0.5), clampIdx(y-0.5)
	i0, j0 := math.Floor(x), math.Floor(y)
	a, b := x-i0, y-j0
	w0, w1, w2, w3 := float64((1-a)*(1-b)), float64(a*(1-b)), float64((1-a)*b), float64(a*b)
	x0, x1 := wrapFast(u.wrap[0], int(i0), lv.Width), wrapFast(u.wrap[0], int(i0)+1, lv.Width)
	y0, y1 := wrapFast(u.wrap[1], int(j0), lv.Height), wrapFast(u.wrap[1], int(j0)+1, lv.Height)
	r0, r1 := lv.Offset+uint32(y0)*lv.Pitch, lv.Offset+uint32(y1)*lv.Pitch
	v0 := binary.LittleEndian.Uint32(u.mem[r0+uint32(4*x0):])
	v1 := binary.LittleEndian.Uint32(u.mem[r0+uint32(4*x1):])
	v2 := binary.LittleEndian.Uint32(u.mem[r1+uint32(4*x0):])
	v3 := binary.LittleEndian.Uint32(u.mem[r1+uint32(4*x1):])
	if u.selID {
		return [4]float32{
			float32(0 + float64(w0*unorm8d[uint8(v0)]) + float64(w1*unorm8d[uint8(v1)]) + float64(w2*unorm8d[uint8(v2)]) + float64(w3*unorm8d[uint8(v3)])),
			float32(0 + float64(w0*unorm8d[uint8(v0>>8)]) + float64(w1*unorm8d[uint8(v1>>8)]) + float64(w2*unorm8d[uint8(v2>>8)]) + float64(w3*unorm8d[uint8(v3>>8)])),
			float32(0 + float64(w0*unorm8d[uint8(v0>>16)]) + float64(w1*unorm8d[uint8(v1>>16)]) + float64(w2*unorm8d[uint8(v2>>16)]) + float64(w3*unorm8d[uint8(v3>>16)])),
			float32(0 + float64(w0*unorm8d[uint8(v0>>24)]) + float64(w1*unorm8d[uint8(v1>>24)]) + float64(w2*unorm8d[uint8(v2>>24)]) + float64(w3*unorm8d[uint8(v3>>24)])),
		}
	}
	var out [4]float32
	for ch, s := range u.sel {
		var acc float64
		switch {
		case s < 4:
			sh := 8 * s
			acc += float64(w0 * unorm8d[uint8(v0>>sh)])
			acc += float64(w1 * unorm8d[uint8(v1>>sh)])
			acc += float64(w2 * unorm8d[uint8(v2>>sh)])
			acc += float64(w3 * unorm8d[uint8(v3>>sh)])
		case s == 5:
			acc += w0
			acc += w1
			acc += w2
			acc += w3
		}
		out[ch] = float32(acc)
	}
	return out
}

// texelAxis is bilinear8Fast's texel index and fraction along one axis
// for the coordinate c on a level size texels long: c·size - 1/2
// (clampIdx'd when out of range or NaN), split into its floor and the
// rest.
func texelAxis(c float32, size float64) (int, float64) {
	x := float64(float64(c)*size) - 0.5
	if !(x > -1<<30 && x < 1<<30) {
		x = clampIdx(x)
	}
	f := math.Floor(x)
	return int(f), x - f
}

// bilinearRepeat is sampleSpan for bilinear filtering with REPEAT on both
// axes (power-of-two sizes: wrapFast) and the identity swizzle:
// bilinear8Fast inline, with clampIdx skipped where it returns its
// argument. A pixel's column part (texel column offsets and fraction a)
// depends only on its s and its row part only on its t, so each is kept
// per quad column (row) and recomputed only when the coordinate differs
// from the previous pixel's in that quad column (row): equal inputs give
// equal parts, whatever the coordinates are (a NaN never compares equal
// and is recomputed). In a screen-aligned draw t is the same along a
// span's row and s the same down a quad's column, so most pixels reuse
// both.
func (u *texUnit) bilinearRepeat(lv *r3.TexLevel, src, dst *[4]spanArr, n int) {
	wd, ht := float64(lv.Width), float64(lv.Height)
	mx, my := lv.Width-1, lv.Height-1
	mem, base, pitch := u.mem, lv.Offset, lv.Pitch
	ss, ts := src[0][:n], src[1][:n]
	ts = ts[:len(ss)]
	d0, d1, d2, d3 := dst[0][:len(ss)], dst[1][:len(ss)], dst[2][:len(ss)], dst[3][:len(ss)]
	nan := float32(math.NaN())
	// The caches, by quad column (p&1) and quad row (p>>1&1).
	cs, ct := [2]float32{nan, nan}, [2]float32{nan, nan}
	var ca, ia, cb, ib [2]float64
	var cx0, cx1, cr0, cr1 [2]uint32
	for p, sv := range ss {
		c, r := p&1, p>>1&1
		if sv != cs[c] {
			xi, a := texelAxis(sv, wd)
			cs[c], ca[c], ia[c] = sv, a, 1-a
			cx0[c], cx1[c] = uint32(4*(xi&mx)), uint32(4*((xi+1)&mx))
		}
		if tv := ts[p]; tv != ct[r] {
			yj, b := texelAxis(tv, ht)
			ct[r], cb[r], ib[r] = tv, b, 1-b
			cr0[r], cr1[r] = base+uint32(yj&my)*pitch, base+uint32((yj+1)&my)*pitch
		}
		a, a1, b, b1 := ca[c], ia[c], cb[r], ib[r]
		w0, w1, w2, w3 := float64(a1*b1), float64(a*b1), float64(a1*b), float64(a*b)
		x0, x1, r0, r1 := cx0[c], cx1[c], cr0[r], cr1[r]
		v0 := binary.LittleEndian.Uint32(mem[r0+x0:])
		v1 := binary.LittleEndian.Uint32(mem[r0+x1:])
		v2 := binary.LittleEndian.Uint32(mem[r1+x0:])
		v3 := binary.LittleEndian.Uint32(mem[r1+x1:])
		d0[p] = fp24f(float32(0 + float64(w0*unorm8d[uint8(v0)]) + float64(w1*unorm8d[uint8(v1)]) + float64(w2*unorm8d[uint8(v2)]) + float64(w3*unorm8d[uint8(v3)])))
		d1[p] = fp24f(float32(0 + float64(w0*unorm8d[uint8(v0>>8)]) + float64(w1*unorm8d[uint8(v1>>8)]) + float64(w2*unorm8d[uint8(v2>>8)]) + float64(w3*unorm8d[uint8(v3>>8)])))
		d2[p] = fp24f(float32(0 + float64(w0*unorm8d[uint8(v0>>16)]) + float64(w1*unorm8d[uint8(v1>>16)]) + float64(w2*unorm8d[uint8(v2>>16)]) + float64(w3*unorm8d[uint8(v3>>16)])))
		d3[p] = fp24f(float32(0 + float64(w0*unorm8d[uint8(v0>>24)]) + float64(w1*unorm8d[uint8(v1>>24)]) + float64(w2*unorm8d[uint8(v2>>24)]) + float64(w3*unorm8d[uint8(v3>>24)])))
	}
}
