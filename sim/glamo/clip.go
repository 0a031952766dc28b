package glamo

import "math"

// Clipping runs in clip space on the G/L output, in s[7].16. The planes
// follow OpenGL's view volume -w <= x, y, z <= w (a decision: the seed names
// six planes, L1296, but not the volume; the driver builds T1 for it), the
// user plane Va x + Vb y + Vc z + Vd w >= 0 (L1433 plus W, P16), and the
// "zero test" w >= 2^-20, which keeps every vertex in front of the eye. The
// seed lets 2600h D8 disable the zero test; the simulator keeps it, since
// the chip's output for w <= 0 is undefined.
const wMin = 0x1p-20

// clip plane indices; bit i of 2608h D[31:26] (shifted down) disables
// plane i for i < 6.
const (
	plNear   = iota // D26: z >= -w
	plFar           // D27: z <= w
	plLeft          // D28: x >= -w
	plRight         // D29: x <= w
	plBottom        // D30: y >= -w (GL's bottom, before the y flip)
	plTop           // D31: y <= w
	plUser
	plZero
	nPlanes
)

func (e *Engine) planeMask() uint32 {
	g := &e.gl
	m := uint32(1<<6-1) &^ g.clipOff
	if g.userClip {
		m |= 1 << plUser
	}
	return m | 1<<plZero
}

func (e *Engine) dist(v *vertex, p int) float64 {
	c := &v.clip
	switch p {
	case plNear:
		return qadd(c[2], c[3])
	case plFar:
		return qsub(c[3], c[2])
	case plLeft:
		return qadd(c[0], c[3])
	case plRight:
		return qsub(c[3], c[0])
	case plBottom:
		return qadd(c[1], c[3])
	case plTop:
		return qsub(c[3], c[1])
	case plUser:
		u := &e.gl.ucp
		return qadd(qadd(qadd(qmul(u[0], c[0]), qmul(u[1], c[1])), qmul(u[2], c[2])), qmul(u[3], c[3]))
	}
	return qsub(c[3], wMin)
}

// outcode returns the planes v lies outside of: dist < 0 for each plane
// of mask, the distances written out as in dist.
func (e *Engine) outcode(v *vertex, mask uint32) uint32 {
	c := &v.clip
	x, y, z, w := c[0], c[1], c[2], c[3]
	out := func(p int, d float64) uint32 {
		if d < 0 {
			return 1 << uint(p)
		}
		return 0
	}
	o := out(plNear, q(z+w)) | out(plFar, q(w-z)) | out(plLeft, q(x+w)) | out(plRight, q(w-x)) |
		out(plBottom, q(y+w)) | out(plTop, q(w-y)) | out(plZero, q(w-wMin))
	if mask&(1<<plUser) != 0 {
		u := &e.gl.ucp
		o |= out(plUser, q(q(q(q(u[0]*x)+q(u[1]*y))+q(u[2]*z))+q(u[3]*w)))
	}
	return o & mask
}

// lerp returns a + t (b - a) for every attribute (colours rounded to 8
// bits).
func lerp(a, b *vertex, t float64, out *vertex) {
	for k := 0; k < 4; k++ {
		out.clip[k] = qadd(a.clip[k], qmul(t, qsub(b.clip[k], a.clip[k])))
	}
	for f := 0; f < 2; f++ {
		for k := 0; k < 4; k++ {
			out.col[f][k] = lerp8(a.col[f][k], b.col[f][k], t)
			out.spec[f][k] = lerp8(a.spec[f][k], b.spec[f][k], t)
		}
	}
	for s := 0; s < 4; s++ {
		for k := 0; k < 2; k++ {
			out.tex[s][k] = qadd(a.tex[s][k], qmul(t, qsub(b.tex[s][k], a.tex[s][k])))
		}
	}
	out.psz = a.psz
}

func lerp8(a, b uint8, t float64) uint8 {
	return uint8(math.Floor(float64(a) + t*(float64(b)-float64(a)) + 0.5))
}

// project applies the perspective divide and the viewport (RGXScale*,
// RGXOffset*, L1386-1391).
func (e *Engine) project(v *vertex) {
	g := &e.gl
	c := &v.clip
	rhw := qdiv(1, c[3])
	v.win = [4]float64{
		q(q(q(c[0]*rhw)*g.sx) + g.ox),
		q(q(q(c[1]*rhw)*g.sy) + g.oy),
		q(q(q(c[2]*rhw)*g.sz) + g.oz),
		rhw,
	}
}

// shadeFlat copies the provoking vertex's colours (RGPSHMD, 260Ch
// D[13:11], L1325) to the other two, before clipping, so that every piece
// keeps them.
func (e *Engine) shadeFlat(a, b, c *vertex) (x, y, z vertex) {
	x, y, z = *a, *b, *c
	var src *vertex
	switch e.px.shade {
	case 1:
		src = a
	case 2:
		src = b
	case 3:
		src = c
	default:
		return
	}
	for _, v := range []*vertex{&x, &y, &z} {
		v.col, v.spec = src.col, src.spec
	}
	return
}

// flatSource returns the provoking vertex of flat shading (RGPSHMD,
// 260Ch D[13:11], L1325), or nil for Gouraud shading.
func (e *Engine) flatSource(a, b, c *vertex) *vertex {
	switch e.px.shade {
	case 1:
		return a
	case 2:
		return b
	case 3:
		return c
	}
	return nil
}

// tri clips a triangle and hands the pieces to setup.
func (e *Engine) tri(a, b, c *vertex) error {
	if e.gl.tnlDrop {
		return nil
	}
	flat := e.flatSource(a, b, c)
	if e.gl.scr {
		return e.setupTriFlat(a, b, c, flat)
	}
	mask := e.planeMask()
	oa, ob, oc := e.outcode(a, mask), e.outcode(b, mask), e.outcode(c, mask)
	if oa&ob&oc != 0 {
		return nil // trivially rejected
	}
	if oa|ob|oc == 0 {
		// transform already projected every vertex (vertex.win).
		return e.setupTriFlat(a, b, c, flat)
	}
	va, vb, vc := e.shadeFlat(a, b, c)
	// Sutherland-Hodgman against each plane some vertex lies outside.
	var bufA, bufB [3 + nPlanes]vertex
	poly := bufA[:0]
	poly = append(poly, va, vb, vc)
	out := bufB[:0]
	for p := 0; p < nPlanes; p++ {
		if (oa|ob|oc)>>uint(p)&1 == 0 {
			continue
		}
		out = out[:0]
		for i := range poly {
			cur, nxt := &poly[i], &poly[(i+1)%len(poly)]
			dc, dn := e.dist(cur, p), e.dist(nxt, p)
			if dc >= 0 {
				out = append(out, *cur)
			}
			if (dc >= 0) != (dn >= 0) {
				var v vertex
				lerp(cur, nxt, qdiv(dc, qsub(dc, dn)), &v)
				out = append(out, v)
			}
		}
		if len(out) < 3 {
			return nil
		}
		if &poly[0] == &bufA[0] {
			poly, out = out, bufA[:0]
		} else {
			poly, out = out, bufB[:0]
		}
	}
	for i := range poly {
		e.project(&poly[i])
	}
	for i := 1; i+1 < len(poly); i++ {
		if err := e.setupTri(&poly[0], &poly[i], &poly[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// line clips a segment and hands it to setup.
func (e *Engine) line(a, b *vertex) error {
	if e.gl.tnlDrop {
		return nil
	}
	va, vb := *a, *b
	if e.px.shade >= 1 && e.px.shade <= 3 {
		// Lines have two vertices; flat shading takes the last (GL's
		// provoking vertex) for FLAT_B and FLAT_C, the first for FLAT_A.
		src := b
		if e.px.shade == 1 {
			src = a
		}
		va.col, va.spec, vb.col, vb.spec = src.col, src.spec, src.col, src.spec
	}
	if e.gl.scr {
		return e.setupLine(&va, &vb)
	}
	mask := e.planeMask()
	oa, ob := e.outcode(&va, mask), e.outcode(&vb, mask)
	if oa&ob != 0 {
		return nil
	}
	if oa|ob != 0 {
		t0, t1 := 0.0, 1.0
		for p := 0; p < nPlanes; p++ {
			if (oa|ob)>>uint(p)&1 == 0 {
				continue
			}
			da, db := e.dist(&va, p), e.dist(&vb, p)
			t := qdiv(da, qsub(da, db))
			if da < 0 {
				t0 = math.Max(t0, t)
			} else {
				t1 = math.Min(t1, t)
			}
		}
		if t0 >= t1 {
			return nil
		}
		var na, nb vertex
		lerp(a, b, t0, &na)
		lerp(a, b, t1, &nb)
		na.col, na.spec, nb.col, nb.spec = lerpCol(&va, &vb, t0), lerpSpec(&va, &vb, t0), lerpCol(&va, &vb, t1), lerpSpec(&va, &vb, t1)
		va, vb = na, nb
	}
	e.project(&va)
	e.project(&vb)
	return e.setupLine(&va, &vb)
}

func lerpCol(a, b *vertex, t float64) (c [2][4]uint8) {
	for f := 0; f < 2; f++ {
		for k := 0; k < 4; k++ {
			c[f][k] = lerp8(a.col[f][k], b.col[f][k], t)
		}
	}
	return
}

func lerpSpec(a, b *vertex, t float64) (c [2][4]uint8) {
	for f := 0; f < 2; f++ {
		for k := 0; k < 4; k++ {
			c[f][k] = lerp8(a.spec[f][k], b.spec[f][k], t)
		}
	}
	return
}

// point culls a point whose vertex lies outside the view volume (GL
// clips points by their centre) and hands it to setup.
func (e *Engine) point(a *vertex) error {
	if e.gl.tnlDrop {
		return nil
	}
	v := *a
	if !e.gl.scr {
		if e.outcode(&v, e.planeMask()) != 0 {
			return nil
		}
		e.project(&v)
	}
	return e.setupPoint(&v)
}
