package pica

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// The fused textured chunk: a texBlend draw (MODULATE of a bilinear RGBA8
// repeat texture by the primary colour, SRC_ALPHA blended into RGBA8,
// fused.go) whose depth takes a fused form (no stencil test), on an
// affine triangle whose texel row is constant along the screen row (t's
// gradient along x is 0: a texture aligned with the screen, as in every
// quad of fill-tex-blend), shades a stepped chunk of up to fusedN pixels
// in one loop a tile row of 64 at a time: the depth test and write
// (gouraudChunk's depthRunZ or depthRunFlat), then for every pixel that
// passes the colour lanes and the texel column stepped in registers,
// the four texels fetched and blended, modulated, blended with the
// pixel and written. The staged path does the same in four loops through
// the span buffer (stepper.chunk's colorLanes and texel coordinate loop,
// the depth stage, texBlendSpan).
//
// Why the bytes are the staged path's:
//   - The colour is colorLanes's: the same lanes (lanes.setup, the
//     channels in the order A, G, B, R as gouraudChunk holds them) from
//     the same exact value at the chunk's first pixel, and the same
//     margin test; a pixel that fails it gets exactColor, interpolate's
//     colour arithmetic, as chunk's exact fallback gives it.
//   - The texel column is chunk's stepped s (the same stepQ setup from
//     the same weights) and the texel row its stepped t, which with a
//     step of 0 is one value for the chunk; a pixel within a margin of
//     either gets texel's exact coordinates, as in chunk. A chunk whose
//     t lies within the margin sends every pixel to the exact fallback.
//   - The depth forms are gouraudChunk's (TestDepthRange, TestDepthTiles,
//     TestCmpMask).
//   - The fetch, MODULATE and blend are texBlendSpan's integer
//     arithmetic, rearranged where the sum is the same: t00*(256-fx) +
//     t10*fx is t00*256 + (t10-t00)*fx, computed modulo 2^64 with
//     lanes that borrow from each other on the way, and equal to the
//     lane-packed result because each final lane lies in [0, 2^16) (in
//     [0, 2^32) for the vertical blend's 32-bit lanes); the blend's
//     s*a + d*(255-a) is d*255 + (s-d)*a the same way.
//   - The pixels a chunk writes are distinct, so the exact fallback's
//     pixels may be blended after the others.
//
// TestSpanPathMatchesReference draws such states (texShape).

// texFusedPlan decides whether stepped chunks of a texBlend draw take
// the fused textured chunk, and builds the texture's column pair table.
func (ps *pixelState) texFusedPlan() {
	pl := &ps.span
	pl.texFused = pl.texBlend && pl.zKind != zOther && ps.color != nil
	if !pl.texFused {
		return
	}
	t := &ps.tex[0]
	mx := t.width - 1
	t.colPair = make([]uint64, t.width)
	for x := range t.colPair {
		t.colPair[x] = uint64(4*t.colOff[x]) | uint64(4*t.colOff[(x+1)&mx])<<32
	}
}

// fusedChunk shades a stepped chunk on the draw's fused path (textured
// or Gouraud); it reports false (nothing done) when the chunk cannot be
// stepped there.
func (st *stepper) fusedChunk(ps *pixelState, pr *prim, sb *spanBuf, e, dx *[3]int64, n, x0, row int) bool {
	if ps.span.texFused {
		return st.texChunk(ps, pr, sb, e, dx, n, x0, row)
	}
	return st.gouraudChunk(ps, pr, sb, e, dx, n, x0, row)
}

// texChunk shades the chunk of n pixels (at most fusedN) at (x0, row),
// every one live, on the fused textured path; it reports false (nothing
// done) when the chunk cannot be stepped there.
func (st *stepper) texChunk(ps *pixelState, pr *prim, sb *spanBuf, e, dx *[3]int64, n, x0, row int) bool {
	pl := &ps.span
	v := &pr.v
	if st.gTex[0][1] != 0 {
		return false
	}
	w, z := chunkWeights(pr, e)
	var qs [4]stepQ
	if !st.colorQ(pr, &w, &qs) {
		return false
	}
	x, d, m := colorSteps(pr, &qs)
	if !colorInRange(&x, &d, n) {
		return false
	}
	// The lanes hold channels A and G in one word, B and R in the other.
	x, d = [4]int64{x[3], x[1], x[2], x[0]}, [4]int64{d[3], d[1], d[2], d[0]}
	f := pr.flat
	var l lanes
	if !l.setup(&x, &d, max(m[0], m[1], m[2], m[3]), f>>3&1|f&6|f&1<<3, n) {
		return false
	}
	// The texel coordinates: chunk's stepped s and t of unit 0 (set 0).
	var tq [2]stepQ
	for c := range tq {
		tc := float64(w[0]*float64(v[0].tc[0][c])) + float64(w[1]*float64(v[1].tc[0][c])) + float64(w[2]*float64(v[2].tc[0][c]))
		cmax := max(math.Abs(float64(v[0].tc[0][c])), math.Abs(float64(v[1].tc[0][c])), math.Abs(float64(v[2].tc[0][c])))
		sc, off := st.scale[0][c], st.off[0][c]
		if !tq[c].setup(float64(tc*sc)+off, st.gTex[0][c], sc*cmax, off) {
			return false
		}
	}
	zPer := pl.zKind != zNone && !pr.flatZ
	var q stepQ
	if zPer && !st.zQ(pr, z, &q) {
		return false
	}
	var zq uint32
	if pl.zKind != zNone && pr.flatZ {
		zq = ps.quantizeDepth(pr.depth)
	}
	t := &ps.tex[0]
	yt, mt := tq[1].x0, tq[1].margin
	tBad := uint32(yt)-mt > 0-2*mt
	y := int32(yt >> 32)
	my := int32(t.height - 1)
	tr := texRow{
		a:  t.data[4*t.rowOff[y>>8&my]:],
		b:  t.data[4*t.rowOff[(y>>8+1)&my]:],
		fy: uint64(uint8(y)),
	}
	base := (row&^7)*ps.width + mortonY[row&7]
	cb := ps.color[4*base:]
	xs := tq[0]
	for k, m := 0, 0; k < n; k += m {
		m = min(spanN-(x0+k)&7, n-k) // the second and later start a tile row
		ek := [3]int64{e[0] + int64(k)*dx[0], e[1] + int64(k)*dx[1], e[2] + int64(k)*dx[2]}
		all := uint64(1)<<m - 1 // m <= 64; a shift by 64 is 0
		if m == 64 {
			all = ^uint64(0)
		}
		pass := all
		switch {
		case zPer:
			st.zStep(ps, pr, sb, &q, &ek, dx, m)
			q.x0 += int64(m) * q.dx
			pass = ps.depthRunZ(&sb.zq, m, x0+k, row)
		case pl.zKind != zNone:
			pass = ps.depthRunFlat(zq, m, x0+k, row)
		}
		if pass != 0 {
			cols := pl.pxOff[x0+k : x0+k+m]
			bad := pass
			if !tBad {
				bad = tr.span(t, &l, &xs, cb, cols, pass)
			}
			for bad != 0 {
				i := bits.TrailingZeros64(bad)
				bad &= bad - 1
				texPixelExact(ps, pr, sb, &l, &xs, y, tBad, &ek, dx, i, cb[4*int(cols[i]):])
			}
		}
		l.w01 += uint64(m) * l.s01
		l.w23 += uint64(m) * l.s23
		xs.x0 += int64(m) * xs.dx
	}
	return true
}

// texRow is a chunk's texel row pair: the texture's data from the rows
// above (a) and below (b) the sample point, and the vertical weight fy.
type texRow struct {
	a, b []byte
	fy   uint64
}

// span blends the pixels of pass (bit i for pixel i at offset cols[i]
// of cb) whose colour lanes and texel column lie outside their margins,
// the lanes l and column xs at pixel 0 (neither is changed), and
// returns the pixels of pass left for the exact fallback.
//
// Two loops keep the live values few (amd64 has 14 free registers): the
// first steps the lanes and the column, tests their margins and keeps
// each pixel's colour and column in arrays on the stack; the second
// visits the pixels that pass and are not near a step.
func (tr *texRow) span(t *texUnit, l *lanes, xs *stepQ, cb []byte, cols []int32, pass uint64) uint64 {
	var (
		cw [spanN]uint64 // the colour: A | G<<16 | (B | R<<16)<<32
		xw [spanN]int32  // the texel column coordinate
	)
	bad := tr.step(l, xs, &cw, &xw, len(cols))
	live := pass &^ bad
	tr.blend(t, &cw, &xw, cb, cols, live)
	return pass & bad
}

// step fills the colours and texel columns of n pixels from the lanes l
// and the column xs at pixel 0 and returns the pixels near a step of
// either.
func (tr *texRow) step(l *lanes, xs *stepQ, cw *[spanN]uint64, xw *[spanN]int32, n int) uint64 {
	const (
		hi  = 1<<20 | 1<<52 // the lanes' bit 20
		lo8 = 0x000000FF000000FF
	)
	u01, u23, s01, s23, c := l.w01-l.tt, l.w23-l.tt, l.s01, l.s23, l.c
	x, dx, ms := xs.x0, xs.dx, xs.margin
	ms2 := 0 - 2*ms
	var bad uint64
	cs, xss := cw[:n], xw[:n]
	for i := range cs {
		g := (((u01 + c) ^ u01) | ((u23 + c) ^ u23)) & hi
		if uint32(x)-ms > ms2 {
			g = 1
		}
		if g != 0 {
			bad |= 1 << i
		}
		ag, br := u01>>20&lo8, u23>>20&lo8
		cs[i] = uint64(uint32(ag|ag>>16)) | uint64(uint32(br|br>>16))<<32
		xss[i] = int32(x >> 32)
		u01, u23, x = u01+s01, u23+s23, x+dx
	}
	return bad
}

// blend fetches, modulates, blends and writes the pixels of live (bit i
// for pixel i at offset cols[i] of cb, colour cw[i], texel column
// xw[i]).
func (tr *texRow) blend(t *texUnit, cw *[spanN]uint64, xw *[spanN]int32, cb []byte, cols []int32, live uint64) {
	const (
		m32  = 0x0000FFFF0000FFFF
		lo8  = 0x000000FF000000FF
		half = 32768 | 32768<<32
		one  = 0x0001000100010001
		odd  = 0x00FF00FF00FF00FF
	)
	pair := t.colPair
	mx := int32(len(pair) - 1)
	da, db := tr.a, tr.b
	fy := tr.fy
	for live != 0 {
		i := bits.TrailingZeros64(live)
		live &= live - 1
		xi := xw[i]
		p := pair[xi>>8&mx]
		ca, cc := int(uint32(p)), int(p>>32)
		t00 := spread16(ld32(da, ca))
		t10 := spread16(ld32(da, cc))
		t01 := spread16(ld32(db, ca))
		t11 := spread16(ld32(db, cc))
		fx := uint64(uint8(xi))
		// t00*(256-fx) + t10*fx in 16-bit lanes A, B, G, R.
		top := t00<<8 + (t10-t00)*fx
		bot := t01<<8 + (t11-t01)*fx
		ta, ba := top&m32, bot&m32
		ag := (ta<<8 + (ba-ta)*fy + half) >> 16 & lo8 // A | G<<32
		tb, bb := top>>16&m32, bot>>16&m32
		br := (tb<<8 + (bb-tb)*fy + half) >> 16 & lo8 // B | R<<32
		// MODULATE: (A + G<<32)*(cA + cG<<16) has A*cA in its lane 0
		// and G*cG in lane 3, every one of its four products below 2^16
		// in its own lane.
		c := cw[i]
		pag, pbr := ag*uint64(uint32(c)), br*(c>>32)
		pm := pag&0xFFFF | pbr&0xFFFF<<16 | pag>>48<<32 | pbr&(0xFFFF<<48)
		s := (pm + one + pm>>8&odd) >> 8 & odd
		o := 4 * int(cols[i])
		b := cb[o : o+4 : o+4]
		dv := spread16(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
		a := s & 0xFF
		vv := dv<<8 - dv + (s-dv)*a
		vv = (vv + one + vv>>8&odd) >> 8 & odd
		vv = (vv | vv>>8) & m32
		w := uint32(vv | vv>>16)
		b[0], b[1], b[2], b[3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
	}
}

// ld32 is the little-endian word at b[o:o+4], sliced with its length and
// capacity (no pointer mask for an empty slice, as binary's b[o:] needs).
func ld32(b []byte, o int) uint32 {
	w := b[o : o+4 : o+4]
	return uint32(w[0]) | uint32(w[1])<<8 | uint32(w[2])<<16 | uint32(w[3])<<24
}

// texPixelExact shades pixel i of a fused textured chunk's tile row (the
// lanes l and texel column xs at pixel 0, edge values e at pixel 0, the
// chunk's stepped texel row y) into the colour buffer at b: the colour
// exactly (exactColor) when the lanes are near a step, the texel
// coordinates exactly (texel) when s is, or t (tBad), then texBlendSpan's
// fetch, MODULATE and blend.
func texPixelExact(ps *pixelState, pr *prim, sb *spanBuf, l *lanes, xs *stepQ, y int32, tBad bool, e, dx *[3]int64, i int, b []byte) {
	li := *l
	li.w01 += uint64(i) * l.s01
	li.w23 += uint64(i) * l.s23
	var c [4]uint8
	if li.bad() {
		c = exactColor(pr, e, dx, i)
	} else {
		w01, w23 := li.w01-li.tt, li.w23-li.tt
		c = [4]uint8{uint8(w23 >> 52), uint8(w01 >> 52), uint8(w23 >> 20), uint8(w01 >> 20)}
	}
	x := xs.x0 + int64(i)*xs.dx
	xy := [2]int32{int32(x >> 32), y}
	if tBad || uint32(x)-xs.margin > 0-2*xs.margin {
		texel(ps, pr, sb, e, dx, i)
		xy = sb.txy[0][i]
	}
	ps.tex[0].blendPixel(xy, c, b)
}

// blendPixel is texBlendSpan for one pixel: the bilinear fetch at the
// integer texel coordinates xy, MODULATE by the colour c (bytes R, G, B,
// A), SRC_ALPHA blended into the RGBA8 pixel at b.
func (t *texUnit) blendPixel(xy [2]int32, c [4]uint8, b []byte) {
	mx, my := int32(t.width-1), int32(t.height-1)
	d := t.data
	x, y := xy[0], xy[1]
	ra, rb := t.rowOff[y>>8&my], t.rowOff[(y>>8+1)&my]
	ca, cc := t.colOff[x>>8&mx], t.colOff[(x>>8+1)&mx]
	t00 := spread16(binary.LittleEndian.Uint32(d[4*(ra+ca):]))
	t10 := spread16(binary.LittleEndian.Uint32(d[4*(ra+cc):]))
	t01 := spread16(binary.LittleEndian.Uint32(d[4*(rb+ca):]))
	t11 := spread16(binary.LittleEndian.Uint32(d[4*(rb+cc):]))
	fx, fy := uint64(uint8(x)), uint64(uint8(y))
	ix, iy := 256-fx, 256-fy
	top := t00*ix + t10*fx
	bot := t01*ix + t11*fx
	const m32 = 0x0000FFFF0000FFFF
	const half = 32768 | 32768<<32
	ag := ((top&m32)*iy + (bot&m32)*fy + half) >> 16
	br := ((top>>16&m32)*iy + (bot>>16&m32)*fy + half) >> 16
	const lane = 0xFF
	p := ag&lane*uint64(c[3]) | (br&lane*uint64(c[2]))<<16 | (ag>>32&lane*uint64(c[1]))<<32 | (br>>32&lane*uint64(c[0]))<<48
	s := (p + 0x0001000100010001 + p>>8&0x00FF00FF00FF00FF) >> 8 & 0x00FF00FF00FF00FF
	dv := spread16(binary.LittleEndian.Uint32(b))
	a := s & lane
	v := s*a + dv*(255-a)
	v = (v + 0x0001000100010001 + v>>8&0x00FF00FF00FF00FF) >> 8 & 0x00FF00FF00FF00FF
	v = (v | v>>8) & 0x0000FFFF0000FFFF
	binary.LittleEndian.PutUint32(b, uint32(v|v>>16))
}
