package pica

import (
	"math"
	"math/bits"
)

// The fused textured chunk: a texBlend draw (MODULATE of a bilinear RGBA8
// repeat texture by the primary colour, SRC_ALPHA blended into RGBA8,
// fused.go) whose depth takes a fused form (no stencil test), on an
// affine triangle whose texel row is constant along the screen row (t's
// gradient along x is 0: a texture aligned with the screen, as in every
// quad of fill-tex-blend), shades a stepped chunk of up to fusedN pixels
// a tile row of up to 64 at a time: the depth test and write
// (gouraudChunk's depthRunZ or depthRunFlat), then texPiece's loops over
// the pixels that pass: the colour lanes and the texel column stepped,
// the texels fetched and blended, modulated, blended with the pixel and
// written. The staged path does the same in four loops through the span
// buffer (stepper.chunk's colorLanes and texel coordinate loop, the depth
// stage, texBlendSpan).
//
// Why the bytes are the staged path's:
//   - The colour is colorLanes's: the same lanes (lanes.setup, here the
//     channels in the order A, B, G, R) from the same exact value at the
//     chunk's first pixel, and the same margin test; a pixel that fails
//     it gets exactColor, interpolate's colour arithmetic, as chunk's
//     exact fallback gives it.
//   - The texel column is chunk's stepped s (the same stepQ setup from
//     the same weights) and the texel row its stepped t, which with a
//     step of 0 is one value for the chunk; a pixel within a margin of
//     either gets texel's exact coordinates (texel0), as in chunk. A
//     chunk whose t lies within the margin takes every pixel's exact
//     coordinates.
//   - The depth forms are gouraudChunk's (TestDepthRange, TestDepthTiles,
//     TestCmpMask).
//   - The fetch, MODULATE and blend are texBlendSpan's integer
//     arithmetic, rearranged where the sum is the same: t00*(256-fx) +
//     t10*fx is t00*256 + (t10-t00)*fx, computed modulo 2^64 with lanes
//     that borrow from each other on the way, and equal to the
//     lane-packed result because each final lane lies in [0, 2^16) (in
//     [0, 2^32) for the second blend's 32-bit lanes); blendCols blends
//     the four texels vertically first, the same four products in
//     another order; the blend's s*a + d*(255-a) is d*255 + (s-d)*a the
//     same way. MODULATE multiplies two channels at once: (X + Y<<32) *
//     (cX + cY<<16) is X*cX + X*cY<<16 + Y*cX<<32 + Y*cY<<48, each
//     product below 2^16 in its own 16-bit lane.
//   - The pixels a chunk writes are distinct, so the order in which
//     they are blended does not matter.
//
// TestTexChunkMatchesReference, TestTexBenchSceneMatchesReference and
// TestSpanPathMatchesReference (texShape) draw such states.

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
	// The lanes hold channels A and B in one word, G and R in the other.
	x, d = [4]int64{x[3], x[2], x[1], x[0]}, [4]int64{d[3], d[2], d[1], d[0]}
	f := pr.flat
	var l lanes
	if !l.setup(&x, &d, max(m[0], m[1], m[2], m[3]), f>>3&1|f>>1&2|f<<1&4|f<<3&8, n) {
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
	var cd chunkDepth
	if !cd.setup(st, ps, pr, sb, e, dx, z, n, row) {
		return false
	}
	yt, mt := tq[1].x0, tq[1].margin
	tBad := uint32(yt)-mt > 0-2*mt
	y := int32(yt >> 32)
	base := (row&^7)*ps.width + mortonY[row&7]
	cb := ps.color[4*base:]
	xs := tq[0]
	for k, m := 0, 0; k < n; k += m {
		m = min(spanN-(x0+k)&7, n-k) // the second and later start a tile row
		ek := [3]int64{e[0] + int64(k)*dx[0], e[1] + int64(k)*dx[1], e[2] + int64(k)*dx[2]}
		pass := cd.piece(st, ps, pr, sb, &ek, dx, k, m, x0+k, row)
		if pass != 0 {
			texPiece(ps, pr, &l, &xs, y, tBad, &ek, dx, cb, pl.pxOff[x0+k:x0+k+m], pass)
		}
		l.w01 += uint64(m) * l.s01
		l.w23 += uint64(m) * l.s23
		xs.x0 += int64(m) * xs.dx
	}
	return true
}

// texRow is a texel row pair: the texture's data from the rows above
// (a) and below (b) the sample point, and the vertical weight fy.
type texRow struct {
	a, b []byte
	fy   uint64
}

// row returns the texel row pair of integer texel coordinate y.
func (t *texUnit) row(y int32) texRow {
	my := int32(t.height - 1)
	return texRow{
		a:  t.data[4*t.rowOff[y>>8&my]:],
		b:  t.data[4*t.rowOff[(y>>8+1)&my]:],
		fy: uint64(uint8(y)),
	}
}

// texPiece shades the pixels of pass in a tile row of a fused textured
// chunk (bit i for pixel i at offset cols[i] of cb; the lanes l, texel
// column xs and edge values e at pixel 0; the chunk's stepped texel row
// y, near a step when tBad).
//
// texStep steps the lanes and the column, tests their margins and keeps
// each pixel's colour and column in arrays on the stack; a pixel near a
// colour step gets exactColor's colour, one near a column step (every
// pixel when tBad) texel's exact coordinates (texel0). Then the pixels of each
// texel row (the chunk's, and when tBad the exact ones) are blended in
// one loop: blendCols when the columns they read are few enough to
// blend vertically once each (a magnified or slightly minified texture,
// as fill-tex-blend's 1.28 texels a pixel), blend otherwise. Two loops,
// not one, keep the live values few (amd64 has 14 free registers).
func texPiece(ps *pixelState, pr *prim, l *lanes, xs *stepQ, y int32, tBad bool, e, dx *[3]int64, cb []byte, cols []int32, pass uint64) {
	var (
		cw [spanN]uint64 // the colour: A | B<<16 | (G | R<<16)<<32
		xw [spanN]int32  // the texel column coordinate
		yw [spanN]int32  // the exact texel row coordinate (tBad)
	)
	t := &ps.tex[0]
	n := len(cols)
	badC, badS := texStep(l, xs, &cw, &xw, n)
	for m := badC & pass; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		c := exactColor(pr, e, dx, i)
		cw[i] = uint64(c[3]) | uint64(c[2])<<16 | uint64(c[1])<<32 | uint64(c[0])<<48
	}
	// The columns of the stepped coordinates (monotonic in i), bad
	// pixels' too, and of the exact ones.
	c0, c1 := xw[0]>>8, xw[n-1]>>8
	if c1 < c0 {
		c0, c1 = c1, c0
	}
	fix := badS & pass
	if tBad {
		fix = pass
	}
	var other uint64 // pixels whose exact row is not y
	for m := fix; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		xy := texel0(ps, pr, e, dx, i)
		xw[i], yw[i] = xy[0], xy[1]
		c0, c1 = min(c0, xy[0]>>8), max(c1, xy[0]>>8)
		if tBad && xy[1] != y {
			other |= 1 << i
		}
	}
	k := int(c1-c0) + 2
	live := pass &^ other
	for {
		if live != 0 {
			tr := t.row(y)
			if k <= colsN && 2*k <= 3*bits.OnesCount64(live)+4 {
				tr.blendCols(t, &cw, &xw, cb, cols, live, int(c0), k)
			} else {
				tr.blend(t, &cw, &xw, cb, cols, live)
			}
		}
		if other == 0 {
			return
		}
		// The next exact row.
		y = yw[bits.TrailingZeros64(other)]
		live = 0
		for m := other; m != 0; m &= m - 1 {
			if i := bits.TrailingZeros64(m); yw[i] == y {
				live |= 1 << i
			}
		}
		other &^= live
	}
}

// texel0 is texel for unit 0 of a texBlend draw (coordinate set 0,
// bilinear) alone: its integer texel coordinates at pixel i, the same
// float64 arithmetic in the same order.
func texel0(ps *pixelState, pr *prim, e, dx *[3]int64, i int) [2]int32 {
	v := &pr.v
	ii := int64(i)
	area := pr.area
	w0, w1, w2 := float64(e[0]+ii*dx[0])/area, float64(e[1]+ii*dx[1])/area, float64(e[2]+ii*dx[2])/area
	p0, p1, p2 := float64(w0*v[0].invW), float64(w1*v[1].invW), float64(w2*v[2].invW)
	norm := 1 / (p0 + p1 + p2)
	p0, p1, p2 = p0*norm, p1*norm, p2*norm
	tc := [2]float64{float64(p0*float64(v[0].tc[0][0])) + float64(p1*float64(v[1].tc[0][0])) + float64(p2*float64(v[2].tc[0][0])),
		float64(p0*float64(v[0].tc[0][1])) + float64(p1*float64(v[1].tc[0][1])) + float64(p2*float64(v[2].tc[0][1]))}
	t := &ps.tex[0]
	w, h := float64(t.width), float64(t.height)
	return [2]int32{int32(floorFast(tc[0]*w*256 - 128)), int32(floorFast(tc[1]*h*256 - 128))}
}

// colsN bounds the columns blendCols blends vertically for one tile row
// of pixels (a power of two: the index mask).
const colsN = 128

// texStep fills the colours and texel columns of n pixels from the lanes
// l and the column xs at pixel 0 and returns the pixels near a colour
// step and those near a column step. The column is stepped less its margin: a fraction of at most
// 2^32 - 2·margin is then one of at least margin in the column itself,
// whose integer part it has.
func texStep(l *lanes, xs *stepQ, cw *[spanN]uint64, xw *[spanN]int32, n int) (badC, badS uint64) {
	const hi = 1<<20 | 1<<52 // the lanes' bit 20
	u01, u23, s01, s23, c := l.w01-l.tt, l.w23-l.tt, l.s01, l.s23, l.c
	x, dx := xs.x0-int64(xs.margin), xs.dx
	ms2 := 0 - 2*xs.margin
	cs, xss := cw[:n], xw[:n]
	for i := range cs {
		if (((u01+c)^u01)|((u23+c)^u23))&hi != 0 {
			badC |= 1 << i
		}
		if uint32(x) > ms2 {
			badS |= 1 << i
		}
		ab, gr := u01>>20, u23>>20 // A, B and G, R at bits 0 and 32
		cs[i] = uint64(uint32(ab)&0xFF|uint32(ab>>16)&0xFF0000) | uint64(uint32(gr)&0xFF|uint32(gr>>16)&0xFF0000)<<32
		xss[i] = int32(x >> 32)
		u01, u23, x = u01+s01, u23+s23, x+dx
	}
	return badC, badS
}

// blendCols is blend with the texels blended vertically once a column:
// column c0 + j (wrapped) of the row pair is v[j] = a·(256-fy) + b·fy in
// 16-bit lanes A, G, B, R (lanesAGBR; at most 255·256), and a pixel's texel is
// (v[j]·(256-fx) + v[j+1]·fx + 2^15) >> 16 in 32-bit lanes: the sum of
// the same four products of texel and weights as blend's, in another
// order. k columns (at most colsN) cover the pixels of live.
func (tr *texRow) blendCols(t *texUnit, cw *[spanN]uint64, xw *[spanN]int32, cb []byte, cols []int32, live uint64, c0, k int) {
	const (
		m32  = 0x0000FFFF0000FFFF
		lo8  = 0x000000FF000000FF
		half = 32768 | 32768<<32
	)
	var v [colsN]uint64
	{
		pair := t.colPair
		mx := len(pair) - 1
		da, db, fy := tr.a, tr.b, tr.fy
		for j := range v[:k] {
			o := int(uint32(pair[(c0+j)&mx]))
			a := lanesAGBR(ld32(da, o))
			b := lanesAGBR(ld32(db, o))
			v[j] = a<<8 + (b-a)*fy
		}
	}
	xs, cs := xw[:len(cols)], cw[:len(cols)]
	for i, off := range cols {
		if live>>i&1 == 0 {
			continue
		}
		xi := xs[i]
		j := int(xi>>8) - c0
		va, vc := v[j&(colsN-1)], v[(j+1)&(colsN-1)]
		fx := uint64(uint8(xi))
		ta, tc := va&m32, vc&m32
		ab := (ta<<8 + (tc-ta)*fx + half) >> 16 & lo8 // A | B<<32
		tb, td := va>>16&m32, vc>>16&m32
		gr := (tb<<8 + (td-tb)*fx + half) >> 16 & lo8 // G | R<<32
		o := 4 * int(off)
		modBlend(ab, gr, cs[i], cb[o:o+4:o+4])
	}
}

// blend fetches, modulates, blends and writes the pixels of live (bit i
// for pixel i at offset cols[i] of cb, colour cw[i], texel column
// xw[i]).
func (tr *texRow) blend(t *texUnit, cw *[spanN]uint64, xw *[spanN]int32, cb []byte, cols []int32, live uint64) {
	const (
		m32  = 0x0000FFFF0000FFFF
		lo8  = 0x000000FF000000FF
		half = 32768 | 32768<<32
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
		t00 := lanesAGBR(ld32(da, ca))
		t10 := lanesAGBR(ld32(da, cc))
		t01 := lanesAGBR(ld32(db, ca))
		t11 := lanesAGBR(ld32(db, cc))
		fx := uint64(uint8(xi))
		// t00*(256-fx) + t10*fx in 16-bit lanes A, G, B, R.
		top := t00<<8 + (t10-t00)*fx
		bot := t01<<8 + (t11-t01)*fx
		ta, ba := top&m32, bot&m32
		ab := (ta<<8 + (ba-ta)*fy + half) >> 16 & lo8 // A | B<<32
		tb, bb := top>>16&m32, bot>>16&m32
		gr := (tb<<8 + (bb-tb)*fy + half) >> 16 & lo8 // G | R<<32
		o := 4 * int(cols[i])
		modBlend(ab, gr, cw[i], cb[o:o+4:o+4])
	}
}

// modBlend modulates the filtered texel (ab: A | B<<32, gr: G | R<<32,
// each a byte) by the colour c (the texRow colour word: cA | cB<<16 in
// its low half, cG | cR<<16 in its high half) and blends the result
// over the pixel b (bytes A, B, G, R) with its alpha, writing b.
// MODULATE: (A + B<<32)*(cA + cB<<16) has A*cA in its lane 0 and B*cB in
// lane 3, every one of its four products below 2^16 in its own lane; the
// same for G and R.
func modBlend(ab, gr, c uint64, b []byte) {
	const (
		one = 0x0001000100010001
		odd = 0x00FF00FF00FF00FF
	)
	pab, pgr := ab*uint64(uint32(c)), gr*(c>>32)
	pm := pab&0xFFFF | pgr&0xFFFF<<16 | pab>>48<<32 | pgr&(0xFFFF<<48) // A, G, B, R
	s := (pm + one + pm>>8&odd) >> 8 & odd
	b = b[:4:4]
	dv := lanesAGBR(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
	a := s & 0xFF
	vv := dv<<8 - dv + (s-dv)*a
	vv = (vv + one + vv>>8&odd) >> 8 & odd
	w := uint32(vv) | uint32(vv>>32)<<8 // bytes A, B, G, R
	b[0], b[1], b[2], b[3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
}

// lanesAGBR spreads the texel word v (bytes A, B, G, R) into 16-bit lanes
// A, G, B, R: its even and odd bytes in the low and high halves, with
// 32-bit masks.
func lanesAGBR(v uint32) uint64 {
	return uint64(v&0x00FF00FF) | uint64(v>>8&0x00FF00FF)<<32
}

// ld32 is the little-endian word at b[o:o+4], sliced with its length and
// capacity (no pointer mask for an empty slice, as binary's b[o:] needs).
func ld32(b []byte, o int) uint32 {
	w := b[o : o+4 : o+4]
	return uint32(w[0]) | uint32(w[1])<<8 | uint32(w[2])<<16 | uint32(w[3])<<24
}
