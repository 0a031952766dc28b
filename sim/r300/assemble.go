package r300

import r3 "github.com/retrogl/retrogl/hal/r300"

// Triangle assembly over prepared vertices. assemblePrims copies the three
// vertices of each triangle, shades their colours (GA_COLOR_CONTROL) and
// hands the copies to triangle, which measures them against the clip
// planes and maps them through the viewport. When no colour channel is
// flat (the provoking vertex decides nothing) all of that depends on the
// vertex alone, so a draw of triangles, strips, fans or polygons does it
// once per vertex, as the vertex is fetched (prepVertex), and sets up
// each triangle from the vertices where they lie: the same triangles in
// the same order, with the same values. A triangle that is not inside
// every plane, or whose user clip planes may cull it, goes through
// triangle as before. Engine.reference keeps the per-triangle path;
// TestPVSDrawBatchMatchesReference (vertex programs, clipping, user
// planes) and TestSpanPathMatchesReference (bypass draws) compare them.

// vertexShade reports whether shade gives every vertex the colours it
// would give it in any primitive: no colour channel it touches takes the
// provoking vertex's value.
func (s *drawState) vertexShade() bool {
	for k := 0; k < 4; k++ {
		if !s.out.col[k] && s.shadeRGB[k] != 0 && s.shadeA[k] != 0 {
			continue // shade leaves the channel alone
		}
		if s.shadeRGB[k] == 1 || s.shadeA[k] == 1 {
			return false
		}
	}
	return true
}

// prepares reports whether a draw of prim prepares its vertices as they
// are fetched (see the top of this file), and if so sets up the draw's
// vertex shading.
func (e *Engine) prepares(s *drawState, prim r3.PrimType) bool {
	if e.reference || !s.vertexShade() {
		return false
	}
	switch prim {
	case r3.PrimTriangles, r3.PrimTriangleStrip, r3.PrimTriangleFan, r3.PrimPolygon:
	default:
		return false
	}
	vs := &s.vshade
	*vs = vertexShading{}
	for k := 0; k < 4; k++ {
		if !s.out.col[k] && s.shadeRGB[k] != 0 && s.shadeA[k] != 0 {
			continue
		}
		ch := &vs.ch[vs.n]
		vs.n++
		ch.k = k
		ch.rgbSolid, ch.aSolid = s.shadeRGB[k] == 0, s.shadeA[k] == 0
		ch.lo, ch.hi = clampRange(s.rgbClamp8)
		ch.alo, ch.ahi = clampRange(s.alphaClamp8)
		if ch.rgbSolid && ch.aSolid {
			ch.fixed = true
			for j := 0; j < 3; j++ {
				ch.val[j] = clampColor(s.solid[j], s.rgbClamp8)
			}
			ch.val[3] = clampColor(s.solid[3], s.alphaClamp8)
		}
	}
	return true
}

// vertexShading is shade for one vertex of a draw without flat channels,
// decoded once: the channels shade touches, each either set to a fixed
// value (solid RGB and alpha, clamped) or given its solid parts and
// clamped to [lo, hi] (RGB) and [alo, ahi] (alpha).
type vertexShading struct {
	n  int
	ch [4]struct {
		k                int
		rgbSolid, aSolid bool
		fixed            bool
		val              [4]float32
		lo, hi, alo, ahi float32
	}
}

// clampRange is clampColor's range.
func clampRange(wide bool) (lo, hi float32) {
	if wide {
		return -7.9999, 7.9999
	}
	return 0, 1
}

// clampTo is clampColor with its range given.
func clampTo(x, lo, hi float32) float32 {
	if !(x > lo) {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// shadeVertex is shade(v, 0) for a draw that prepares its vertices.
func (s *drawState) shadeVertex(v *vertex) {
	vs := &s.vshade
	for i := 0; i < vs.n; i++ {
		ch := &vs.ch[i]
		c := &v.col[ch.k&3]
		if ch.fixed {
			*c = ch.val
			continue
		}
		if ch.rgbSolid {
			c[0], c[1], c[2] = s.solid[0], s.solid[1], s.solid[2]
		}
		if ch.aSolid {
			c[3] = s.solid[3]
		}
		c[0] = clampTo(c[0], ch.lo, ch.hi)
		c[1] = clampTo(c[1], ch.lo, ch.hi)
		c[2] = clampTo(c[2], ch.lo, ch.hi)
		c[3] = clampTo(c[3], ch.alo, ch.ahi)
	}
}

// prepVertex shades a fetched vertex and, when the draw clips, records
// whether every plane keeps it and maps it through the viewport (which a
// draw without clipping has done already).
func (s *drawState) prepVertex(v *vertex) {
	s.shadeVertex(v)
	if !s.clip {
		return
	}
	d, n := s.clipDist(v)
	in := true
	for k := 0; k < n; k++ {
		in = in && d[k] >= 0
	}
	v.accept = in
	s.viewport(v)
}

// assembleTris is assemblePrims for a draw whose vertices are prepared.
func (e *Engine) assembleTris(s *drawState, prim r3.PrimType, n int) error {
	vs := e.verts[:n]
	_, err := eachTri(prim, n, func(a, b, c int) error {
		return e.preparedTri(s, &vs[a], &vs[b], &vs[c])
	})
	return err
}

// eachTri calls fn with the vertex indices of each triangle of a triangle
// list, fan, polygon or strip of n vertices, in draw order (a strip's odd
// triangles with their first two vertices swapped, keeping the winding);
// ok is false for other primitive types, which it leaves to the caller.
func eachTri(prim r3.PrimType, n int, fn func(a, b, c int) error) (ok bool, err error) {
	switch prim {
	case r3.PrimTriangles:
		for i := 0; i+2 < n; i += 3 {
			if err := fn(i, i+1, i+2); err != nil {
				return true, err
			}
		}
	case r3.PrimTriangleFan, r3.PrimPolygon:
		for i := 1; i+1 < n; i++ {
			if err := fn(0, i, i+1); err != nil {
				return true, err
			}
		}
	case r3.PrimTriangleStrip:
		for i := 0; i+2 < n; i++ {
			a, b := i, i+1
			if i%2 == 1 {
				a, b = b, a
			}
			if err := fn(a, b, i+2); err != nil {
				return true, err
			}
		}
	default:
		return false, nil
	}
	return true, nil
}

// preparedTri is triangle for prepared vertices.
func (e *Engine) preparedTri(s *drawState, a, b, c *vertex) error {
	if s.clip && (s.ucpCull || !a.accept || !b.accept || !c.accept) {
		t := [3]vertex{*a, *b, *c}
		return e.triangle(s, &t)
	}
	e.Stats.Prims++
	return e.setupTri(s, a, b, c)
}
