package pica

import "math/bits"

// Exact depths from weight tables. A triangle whose three vertex depths
// are equal but not flat (flatDepth: the depth sits on a quantisation
// step, as the driver's clears and quads at the far plane do at 1.0)
// needs the reference's exact depth at every pixel: z = w0·z0 + w1·z1 +
// w2·z2 with the weights w_k = float64(e_k)/area, three divisions a
// pixel (zStep's exact branch), since the rounding of each weight decides
// which side of the step z lands on.
//
// Along a row, e_k = e + i·d with integers e, d and area A. With h =
// gcd(A, d, e), e_k/A = j/N for the integers j = e/h + i·d/h and N = A/h,
// and j stays in [0, N] (a covered pixel's edge values are at least 0 and
// sum to A). IEEE division is correctly rounded, so float64(e_k)/area,
// the quotient of the exact float64 values e_k and A (both below 2^53),
// is the float64 nearest the rational e_k/A = j/N, which is
// float64(j)/float64(N): table entry j of N. When N is small (a
// screen-aligned triangle: N is a few times its width in pixels) the
// weight is a table load instead of a division. An edge with d = 0 has
// one weight the whole row, divided once. The same weights serve the
// exact colour of a pixel near a colour rounding step (colorAt). TestSpanPathMatchesReference's
// depth-1.0 groups and half screen-aligned quads take this path;
// TestWeightTables checks tables against the division.

// wtabMaxN bounds a table's denominator N (a table holds N+1 float64s).
const wtabMaxN = 4096

// wtabCap is how many tables a worker keeps.
const wtabCap = 8

// weightTabs is a worker's cache of weight tables and of the last
// triangle's gcd(A, |d_k|).
type weightTabs struct {
	n    [wtabCap]int64
	t    [wtabCap][]float64
	next int
	// The last triangle's area, edge steps and their gcds.
	area int64
	dx   [3]int64
	g    [3]int64
	// The one weight of each edge constant along the chunk's row (the
	// chunk's zTab points into it).
	one [3][1]float64
	// Each edge's last denominator: for gcd g, step d and e mod g r, the
	// gcd h of g and r, N = A/h, d/h and the table (the rows of a
	// triangle repeat a few residues).
	memo [3]edgeMemo
}

// edgeMemo is one edge's last denominator (weightTabs.memo).
type edgeMemo struct {
	a, g, d, r, h, dj int64
	t                 []float64
}

// table returns the table of denominator n (1 <= n <= wtabMaxN): entry j
// is float64(j)/float64(n).
func (c *weightTabs) table(n int64) []float64 {
	for k, m := range c.n {
		if m == n {
			return c.t[k]
		}
	}
	k := c.next
	c.next = (k + 1) % wtabCap
	// A new table, not the evicted one's storage: a chunk's other edges
	// and the memos may still hold that one.
	t := make([]float64, n+1)
	for j := range t {
		t[j] = float64(j) / float64(n)
	}
	c.n[k], c.t[k] = n, t
	return t
}

// gcd64 is the greatest common divisor of a and b (binary: no
// divisions); gcd64(0, b) is b.
func gcd64(a, b uint64) uint64 {
	if a == 0 || b == 0 {
		return a | b
	}
	k := bits.TrailingZeros64(a | b)
	a >>= bits.TrailingZeros64(a)
	for b != 0 {
		b >>= bits.TrailingZeros64(b)
		if a > b {
			a, b = b, a
		}
		b -= a
	}
	return a << k
}

// zTab is a chunk's exact weights: edge k's weight at the chunk's next
// pixel is t[k][j[k]], and j[k] steps by d[k] a pixel (0 for an edge
// constant along the row, whose one weight is t[k][0]).
type zTab struct {
	t    [3][]float64
	j, d [3]int64
}

// setup prepares the weights of the n pixels from edge values e (at the
// first) and steps dx; it reports false when an edge's denominator is
// too large for a table (the caller divides).
func (zt *zTab) setup(c *weightTabs, pr *prim, e, dx *[3]int64, n int) bool {
	a := pr.tri.Area
	if a <= 0 || a > 1<<53 || float64(a) != pr.area {
		return false
	}
	if c.area != a || c.dx != *dx {
		c.area, c.dx = a, *dx
		for k, d := range dx {
			c.g[k] = int64(gcd64(uint64(a), uint64(max(d, -d))))
		}
	}
	for k, d := range dx {
		ek := e[k]
		last := ek + int64(n-1)*d
		if ek < 0 || ek > a || last < 0 || last > a {
			return false
		}
		if d == 0 {
			c.one[k][0] = float64(ek) / pr.area
			zt.t[k], zt.j[k], zt.d[k] = c.one[k][:], 0, 0
			continue
		}
		g := c.g[k]
		r := int64(uint64(ek) % uint64(g))
		mm := &c.memo[k]
		if mm.a != a || mm.g != g || mm.d != d || mm.r != r {
			h := int64(gcd64(uint64(g), uint64(r)))
			nk := a / h
			if nk > wtabMaxN {
				return false
			}
			*mm = edgeMemo{a: a, g: g, d: d, r: r, h: h, dj: d / h, t: c.table(nk)}
		}
		zt.t[k], zt.j[k], zt.d[k] = mm.t, ek/mm.h, mm.dj
	}
	return true
}

// fill writes the quantised exact depth of the len(zq) pixels from the
// chunk's pixel off (zStep's exact branch, weights from the tables).
func (zt *zTab) fill(st *stepper, pr *prim, zq []uint32, off int) {
	v := &pr.v
	z0, z1, z2 := v[0].z, v[1].z, v[2].z
	t0, t1, t2 := zt.t[0], zt.t[1], zt.t[2]
	d0, d1, d2 := zt.d[0], zt.d[1], zt.d[2]
	o := int64(off)
	j0, j1, j2 := zt.j[0]+o*d0, zt.j[1]+o*d1, zt.j[2]+o*d2
	top := uint32(st.zs)
	if z0 == 1 && z1 == 1 && z2 == 1 {
		// Depth 1.0 (the clears, the far plane): w·1 is w, and the
		// weights are within 2^-53 of summing to 1 (each within half
		// an ulp of its share), so z lies within 2^-51 of 1: at least
		// 1 it quantises to top, below 1 to top-1 (z·zs then lies
		// within (top-1, top): the float below zs is more than half an
		// ulp of zs below it, zs not being a power of two).
		switch {
		case d2 == 0: // (w0 + w1) + c
			one1(zq, t0, t1, j0, j1, d0, d1, t2[j2], top, false)
			return
		case d0 == 0: // (c + w1) + w2
			one1(zq, t1, t2, j1, j2, d1, d2, t0[j0], top, true)
			return
		case d1 == 0: // (w0 + c) + w2, c + w0 being w0 + c
			one1(zq, t0, t2, j0, j2, d0, d2, t1[j1], top, true)
			return
		}
		for i := range zq {
			w0, w1, w2 := t0[j0], t1[j1], t2[j2]
			j0, j1, j2 = j0+d0, j1+d1, j2+d2
			var below uint32
			if w0+w1+w2 < 1 {
				below = 1
			}
			zq[i] = top - below
		}
		return
	}
	zs := st.zs
	for i := range zq {
		w0, w1, w2 := t0[j0], t1[j1], t2[j2]
		j0, j1, j2 = j0+d0, j1+d1, j2+d2
		z := float64(w0*z0) + float64(w1*z1) + float64(w2*z2)
		zq[i] = uint32(min(int64(top), max(0, int64(z*zs))))
	}
}

// one1 is fill at depth 1.0 for a triangle with an edge constant along
// the row (weight c; a screen-aligned edge): the other two weights come
// from tables ta and tb (indexes ja, jb, steps da, db), and the sum is
// (c + a) + b when first, else (a + b) + c, the reference's order.
func one1(zq []uint32, ta, tb []float64, ja, jb, da, db int64, c float64, top uint32, first bool) {
	if first {
		for i := range zq {
			var below uint32
			if c+ta[ja]+tb[jb] < 1 {
				below = 1
			}
			ja, jb = ja+da, jb+db
			zq[i] = top - below
		}
		return
	}
	for i := range zq {
		var below uint32
		if ta[ja]+tb[jb]+c < 1 {
			below = 1
		}
		ja, jb = ja+da, jb+db
		zq[i] = top - below
	}
}

// weights returns the three weights of the chunk's pixel i.
func (zt *zTab) weights(i int) (w0, w1, w2 float64) {
	k := int64(i)
	return zt.t[0][zt.j[0]+k*zt.d[0]], zt.t[1][zt.j[1]+k*zt.d[1]], zt.t[2][zt.j[2]+k*zt.d[2]]
}
