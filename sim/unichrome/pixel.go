package unichrome

import (
	"encoding/binary"
	"math"

	uc "github.com/retrogl/retrogl/hal/unichrome"
	"github.com/retrogl/retrogl/sim/raster"
)

// bayer is the 4x4 ordered-dither matrix (guide §7 (f)).
var bayer = [4][4]int{{0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}}

// compare applies a test code (GL order: never, <, =, <=, >, !=, >=,
// always) as "a op b".
func compare(fn uint32, a, b uint32) bool {
	switch fn {
	case 1:
		return a < b
	case 2:
		return a == b
	case 3:
		return a <= b
	case 4:
		return a > b
	case 5:
		return a != b
	case 6:
		return a >= b
	case 7:
		return true
	}
	return false
}

// stencilOp applies a stencil operation (24h; 011/100 saturate, 110/111
// wrap, L2401-2406).
func stencilOp(op uint32, s, ref uint8) uint8 {
	switch op {
	case 1:
		return 0
	case 2:
		return ref
	case 3:
		if s == 255 {
			return s
		}
		return s + 1
	case 4:
		if s == 0 {
			return s
		}
		return s - 1
	case 5:
		return ^s
	case 6:
		return s + 1
	case 7:
		return s - 1
	}
	return s
}

// worker shades fragments; triangles split into row bands give each band
// its own worker, so the counters need no locks. Rows never share pixels
// (a YUY2 pair lies in one row), and every span starts from its own plane
// evaluation, so the result does not depend on the number of workers.
type worker struct {
	e     *Engine
	stats Stats
	sb    spanBuf
	spans []raster.Span
	wOne  bool // the triangle's W is 1 at every pixel (span path)
	rs    [numAttrs]rowStep
	// texRow says texture unit n's fixCoord values come from rowStep.
	texRow [2]bool
	// constCol is set when the triangle's diffuse colour does not vary.
	constCol bool
	// zConst is set when the triangle's integer Z (sb.zInt) does not
	// vary along a row.
	zConst bool
}

func (s *Stats) add(o *Stats) {
	s.Prims += o.Prims
	s.Culled += o.Culled
	s.Fragments += o.Fragments
	s.Written += o.Written
}

// fragment runs the per-fragment pipeline in the chip's order: stipple,
// texture blending, specular, fog, alpha test, stencil and Z, then
// blending, dither, ROP and plane masks.
func (w *worker) fragment(p *pipeline, x, y int, f *frag) {
	w.stats.Fragments++
	if p.sp && f.tri {
		row := w.e.stipple[(y+p.spYOS)&31]
		if row>>uint((x+p.spXOS)&31)&1 == 0 {
			return
		}
	}
	c := f.c
	if p.txmp {
		var tex [2][4]int
		for n := 0; n < p.ntex; n++ {
			tex[n] = p.units[n].sample(f.st[n][0], f.st[n][1], f.lod[n])
		}
		in := stageIn{dif: c, spec: f.s, fog: f.fog, tex: tex[0], next: tex[1], cur: c}
		c = p.stage[0].eval(&in)
		if p.ntex == 2 {
			in.tex, in.cur = tex[1], c
			c = p.stage[1].eval(&in)
		}
	}
	if p.cs {
		for k := 0; k < 3; k++ {
			c[k] = min(255, c[k]+f.s[k])
		}
	}
	if p.fog {
		p.fogSt.apply(&c, p.fogSt.factor(f.fog, f.z, f.w))
	}
	if p.at && !compare(p.afunc, uint32(c[3]), uint32(p.aref)) {
		return
	}
	if p.zt || p.zw || p.st {
		if !w.depthStencil(p, x, y, f) {
			return
		}
	}
	if p.cw {
		w.writeColor(p, x, y, &c)
	}
}

// zValue converts a normalised Z to the buffer's integer, clamped to
// [0, 2^bits - 1].
func (d *depthBuf) zValue(z float64) uint32 {
	if !(z > 0) {
		return 0
	}
	v := math.Floor(z * d.scale)
	return uint32(min(v, d.scale-1))
}

// wValue encodes w = 1/W in the W-buffer formats: [4].12 and [5].19 are
// IEEE-like (exponent e > 0: (1 + m/2^M) 2^(e - bias); e = 0:
// (m/2^M) 2^(1 - bias)), saturating at the largest value; float32 is
// stored as is. The encodings grow with w, so they compare as integers.
func (d *depthBuf) wValue(W float64) uint32 {
	w := 0.0
	if W > 0 {
		w = 1 / W
	}
	switch d.fmt {
	case 2:
		return math.Float32bits(float32(w))
	}
	eb, mb, bias := 4, 12, d.wbias&15
	if d.fmt == 3 {
		eb, mb, bias = 5, 19, d.wbias&31
	}
	emax := 1<<eb - 1
	mmax := 1<<mb - 1
	if w <= 0 {
		return 0
	}
	fr, ex := math.Frexp(w) // w = fr * 2^ex, fr in [0.5, 1)
	e := ex - 1 + bias      // w = (2fr) * 2^(ex-1)
	if e > emax {
		return uint32(emax<<mb | mmax)
	}
	if e <= 0 {
		m := int(math.Floor(math.Ldexp(w, mb+bias-1)))
		return uint32(min(m, mmax))
	}
	m := int(math.Floor(math.Ldexp(2*fr-1, mb)))
	return uint32(e<<mb | min(m, mmax))
}

// depthStencil runs the stencil and Z tests and their writes; it returns
// whether the fragment survives.
func (w *worker) depthStencil(p *pipeline, x, y int, f *frag) bool {
	d := &p.depth
	off := y*d.pitch + x*d.bytes
	buf := d.mem[off : off+d.bytes]
	var stored uint32
	if d.bytes == 2 {
		stored = uint32(binary.LittleEndian.Uint16(buf))
	} else {
		stored = binary.LittleEndian.Uint32(buf)
	}
	var zStored, sVal uint32
	zStored = stored
	hasS := d.stencil
	if hasS {
		zStored, sVal = stored>>8, stored&0xFF
	}
	var znew, zwrite uint32
	if d.wbuf {
		znew = d.wValue(f.w)
		zwrite = znew
		if d.fmt == 3 {
			znew, zwrite = znew&0xFFFFFF, zwrite&0xFFFFFF
		}
	} else {
		znew, zwrite = d.zValue(f.z), d.zValue(f.zw)
	}
	s := uint8(sVal)
	newS := s
	pass := true
	if p.st && hasS {
		if !compare(p.sfunc, uint32(p.sref&p.sopm), uint32(s&p.sopm)) {
			newS = stencilOp(p.sfail, s, p.sref)
			pass = false
		}
	}
	if pass && p.zt && !compare(p.zfunc, znew, zStored) {
		if p.st && hasS {
			newS = stencilOp(p.szfail, s, p.sref)
		}
		pass = false
	}
	if pass && p.st && hasS {
		newS = stencilOp(p.szps, s, p.sref)
	}
	out := zStored
	if pass && p.zw {
		out = zwrite
	}
	var word uint32
	if hasS {
		ns := s&^p.swm | newS&p.swm
		word = out<<8 | uint32(ns)
	} else {
		word = out
	}
	if word != stored {
		if d.bytes == 2 {
			binary.LittleEndian.PutUint16(buf, uint16(word))
		} else {
			binary.LittleEndian.PutUint32(buf, word)
		}
	}
	return pass
}

// unpack reads a destination pixel as 8-bit RGBA with the 42h bits 22:20
// expansion (L2506); formats without alpha read 255.
func unpack(f *uc.DstFormatInfo, v uint32, mode uint32) [4]int {
	zero := mode&2 != 0
	ch := func(c uc.Chan) int {
		x := v >> c.Shift & (1<<c.Bits - 1)
		return expand(x, c.Bits, zero)
	}
	out := [4]int{ch(f.R), ch(f.G), ch(f.B), 255}
	if f.A.Bits != 0 {
		out[3] = expand(v>>f.A.Shift&(1<<f.A.Bits-1), f.A.Bits, false)
	}
	if f.G.Bits == 6 {
		g := v >> f.G.Shift & 63
		if mode&1 != 0 { // ignore G0: read G as 5 bits
			out[1] = expand(g>>1, 5, zero)
		}
		if mode&4 != 0 { // 666: G0 appended to R and B
			g0 := g & 1
			r := v>>f.R.Shift&31<<1 | g0
			b := v>>f.B.Shift&31<<1 | g0
			out[0], out[2] = expand(r, 6, zero), expand(b, 6, zero)
		}
	}
	return out
}

// pack converts 8-bit RGBA to the destination layout by truncation.
func pack(f *uc.DstFormatInfo, c *[4]int) uint32 {
	put := func(ch uc.Chan, v int) uint32 {
		if ch.Bits == 0 {
			return 0
		}
		return uint32(v) >> (8 - ch.Bits) << ch.Shift
	}
	return put(f.R, c[0]) | put(f.G, c[1]) | put(f.B, c[2]) | put(f.A, c[3])
}

// rop2 applies a ROP2 truth table (index (P<<1)|D, [OUT] via_3d_reg.h) to
// every bit.
func rop2(rop, p, d uint32) uint32 {
	var r uint32
	if rop&1 != 0 {
		r |= ^p & ^d
	}
	if rop&2 != 0 {
		r |= ^p & d
	}
	if rop&4 != 0 {
		r |= p & ^d
	}
	if rop&8 != 0 {
		r |= p & d
	}
	return r
}

// writeColor blends, dithers, packs and writes a fragment's colour.
func (w *worker) writeColor(p *pipeline, x, y int, c *[4]int) {
	s := &p.dst
	if s.yuy2 {
		w.writeYUY2(p, x, y, c)
		return
	}
	bpp := s.fmt.Bytes
	off := y*s.pitch + x*bpp
	buf := s.mem[off : off+bpp]
	var dv uint32
	if bpp == 2 {
		dv = uint32(binary.LittleEndian.Uint16(buf))
	} else {
		dv = binary.LittleEndian.Uint32(buf)
	}
	if p.abl {
		dst := unpack(&s.fmt, dv, p.expand)
		*c = p.blend.apply(c, &dst)
	}
	if p.dither {
		d := bayer[y&3][x&3]
		for k, ch := range [3]uc.Chan{s.fmt.R, s.fmt.G, s.fmt.B} {
			if ch.Bits < 8 {
				c[k] = min(255, c[k]+(d<<(8-ch.Bits))>>4)
			}
		}
	}
	v := rop2(p.rop, pack(&s.fmt, c), dv)
	out := v&p.pmask | dv&^p.pmask
	w.stats.Written++
	if bpp == 2 {
		binary.LittleEndian.PutUint16(buf, uint16(out))
	} else {
		binary.LittleEndian.PutUint32(buf, out)
	}
}

// writeYUY2 writes one pixel of a YUY2 pair: the pair's dword is
// {avg(B0,B1), R1, avg(G0,G1), R0} (L2506, rounded averages), the partner
// pixel read back as Y -> R, U -> G, V -> B. The engine writes pixels one
// at a time, so a pair drawn in two steps averages with the first write's
// chroma. Blending reads the same way; plane masks and ROP do not apply.
func (w *worker) writeYUY2(p *pipeline, x, y int, c *[4]int) {
	s := &p.dst
	off := y*s.pitch + (x&^1)*2
	buf := s.mem[off : off+4]
	dv := binary.LittleEndian.Uint32(buf)
	y0, u, y1, v := int(dv&0xFF), int(dv>>8&0xFF), int(dv>>16&0xFF), int(dv>>24)
	me := [4]int{y0, u, v, 255}
	other := [4]int{y1, u, v, 255}
	if x&1 != 0 {
		me, other = other, me
	}
	if p.abl {
		*c = p.blend.apply(c, &me)
	}
	even, odd := *c, other
	if x&1 != 0 {
		even, odd = other, *c
	}
	w.stats.Written++
	binary.LittleEndian.PutUint32(buf, packYUY2(even, odd))
}

// packYUY2 packs an even and an odd pixel: {avg(B0,B1), R1, avg(G0,G1),
// R0}, averages rounded (L2506).
func packYUY2(even, odd [4]int) uint32 {
	return uint32((even[2]+odd[2]+1)>>1)<<24 | uint32(odd[0])<<16 | uint32((even[1]+odd[1]+1)>>1)<<8 | uint32(even[0])
}
