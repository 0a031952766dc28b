package pica

import (
	"math"
	"runtime"
	"sync"

	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/sim/raster"
)

// Rasterisation decisions (the seed has no rasterisation rules; guide
// §6.12):
//   - Clipping happens in clip space against -w <= x, y <= w, -w <= z <= 0
//     ([OUT] citra's clipper; z = 0 is the near plane), w >= 2^-16, and
//     the user clip plane when FRAGOP_CLIP is set (dot(plane, pos) >= 0).
//   - Window x = x/w * VIEWPORT_WIDTH + VIEWPORT_WIDTH + VIEWPORT_XY.x, and
//     the same for y; window y grows upwards, and window row y is memory
//     row H-1-y of the render target (guide §4).
//   - Depth = z/w * DEPTHMAP_SCALE + DEPTHMAP_OFFSET (Z buffer) or
//     w * SCALE + OFFSET (DEPTHMAP_ENABLE = 0, W buffer), clamped to
//     [0, 1], interpolated linearly in screen space, and stored truncated
//     as depth * (2^bits - 1).
//   - Positions snap to 1/16 pixel (round to nearest, [OUT] citra's 12.4
//     rasteriser coordinates); coverage is sim/raster's rule: pixel centres,
//     top-left rule as the image is seen (top = higher window y).
//   - FACECULLING_CONFIG 1 drops triangles that run counter-clockwise in
//     window space (y up), 2 drops clockwise ones.
//   - Colours and texture coordinates are interpolated perspective-correctly
//     in float64 from the exact integer barycentric weights; colours round
//     to 8 bits.

const subBits = 4

// planes are the clip planes as coefficients of (x, y, z, w).
var clipPlanes = [][4]float64{
	{-1, 0, 0, 1}, // x <= w
	{1, 0, 0, 1},  // x >= -w
	{0, -1, 0, 1}, // y <= w
	{0, 1, 0, 1},  // y >= -w
	{0, 0, -1, 0}, // z <= 0
	{0, 0, 1, 1},  // z >= -w
}

func lerpVertex(a, b *vertex, t float64) vertex {
	l := func(x, y float32) float32 { return float32(float64(x) + float64(float64(y)-float64(x))*t) }
	var r vertex
	for i := 0; i < 4; i++ {
		r.pos[i] = l(a.pos[i], b.pos[i])
		r.color[i] = l(a.color[i], b.color[i])
		r.quat[i] = l(a.quat[i], b.quat[i])
	}
	for i := 0; i < 2; i++ {
		r.tc0[i] = l(a.tc0[i], b.tc0[i])
		r.tc1[i] = l(a.tc1[i], b.tc1[i])
		r.tc2[i] = l(a.tc2[i], b.tc2[i])
	}
	for i := 0; i < 3; i++ {
		r.view[i] = l(a.view[i], b.view[i])
	}
	r.tc0w = l(a.tc0w, b.tc0w)
	return r
}

func planeDist(pl [4]float64, v *vertex) float64 {
	return float64(pl[0]*float64(v.pos[0])) + float64(pl[1]*float64(v.pos[1])) +
		float64(pl[2]*float64(v.pos[2])) + float64(pl[3]*float64(v.pos[3]))
}

// clipPoly clips a polygon against one plane (Sutherland-Hodgman).
func clipPoly(in []vertex, pl [4]float64, bias float64, out []vertex) []vertex {
	out = out[:0]
	for i := range in {
		a, b := &in[i], &in[(i+1)%len(in)]
		da, db := planeDist(pl, a)-bias, planeDist(pl, b)-bias
		if da >= 0 {
			out = append(out, *a)
		}
		if (da >= 0) != (db >= 0) {
			out = append(out, lerpVertex(a, b, da/(da-db)))
		}
	}
	return out
}

// rasterize clips, culls and draws a list of triangles.
func (g *GPU) rasterize(tris []vertex) error {
	if len(tris) == 0 {
		return nil
	}
	ps, err := g.pixelState()
	if err != nil {
		return err
	}
	planes := clipPlanes
	if g.regs[p.FRAGOP_CLIP]&1 != 0 {
		var pl [4]float64
		for i := 0; i < 4; i++ {
			pl[i] = float64(p.F24ToFloat(g.regs[p.FRAGOP_CLIP_DATA0+p.Reg(i)]))
		}
		planes = append(append([][4]float64(nil), clipPlanes...), pl)
	}
	var bufA, bufB []vertex
	for t := 0; t+2 < len(tris); t += 3 {
		if err := g.x.Step(1); err != nil {
			return err
		}
		poly := append(bufA[:0], tris[t], tris[t+1], tris[t+2])
		needClip := false
		for i := 0; i < 3 && !needClip; i++ {
			for _, pl := range planes {
				if planeDist(pl, &poly[i]) < 0 {
					needClip = true
					break
				}
			}
			if float64(poly[i].pos[3]) < 1.0/65536 {
				needClip = true
			}
		}
		if needClip {
			for _, pl := range planes {
				bufB = clipPoly(poly, pl, 0, bufB)
				poly, bufB = bufB, poly
				if len(poly) < 3 {
					break
				}
			}
			if len(poly) >= 3 {
				bufB = clipPoly(poly, [4]float64{0, 0, 0, 1}, 1.0/65536, bufB)
				poly, bufB = bufB, poly
			}
		}
		bufA = poly
		for i := 1; i+1 < len(poly); i++ {
			if err := g.triangle(ps, &poly[0], &poly[i], &poly[i+1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// winVert is a vertex in window space.
type winVert struct {
	x, y, z, invW float64
	pt            raster.Point
	v             *vertex
}

func (g *GPU) toWindow(ps *pixelState, v *vertex) winVert {
	w := float64(v.pos[3])
	inv := 1 / w
	x := float64(v.pos[0])*inv*ps.halfW + ps.halfW + ps.offX
	y := float64(v.pos[1])*inv*ps.halfH + ps.halfH + ps.offY
	var z float64
	if ps.zBuffer {
		z = float64(float64(v.pos[2])*inv)*ps.depthScale + ps.depthOffset
	} else {
		z = w*ps.depthScale + ps.depthOffset
	}
	// Raster points are y-down with row 0 = memory row 0 = window row H-1.
	pt := raster.Point{X: int64(math.Round(x * 16)), Y: int64(math.Round((float64(ps.height) - y) * 16))}
	return winVert{x: x, y: y, z: z, invW: inv, pt: pt, v: v}
}

func (g *GPU) triangle(ps *pixelState, a, b, c *vertex) error {
	va, vb, vc := g.toWindow(ps, a), g.toWindow(ps, b), g.toWindow(ps, c)
	tri, ok := raster.Setup(va.pt, vb.pt, vc.pt, subBits)
	if !ok {
		return nil
	}
	// The raster grid is y-down and the window y-up, but both show the
	// same image: sim/raster's CW (clockwise as seen) is clockwise in
	// window space too.
	ccw := !tri.CW
	switch ps.cull {
	case 1:
		if ccw {
			return nil
		}
	case 2:
		if !ccw {
			return nil
		}
	}
	g.Triangles++
	clip := raster.Rect{X0: 0, Y0: 0, X1: ps.width, Y1: ps.height}
	// The watchdog charges one step per 64 pixels of the clipped bounds.
	if r := tri.Bounds().Intersect(clip); !r.Empty() {
		if err := g.x.Step((r.X1 - r.X0) * (r.Y1 - r.Y0) / 64); err != nil {
			return err
		}
	}
	if ps.scissor == 3 {
		// Inclusive box in window coordinates; rows flip to memory rows.
		clip = clip.Intersect(raster.Rect{X0: ps.sx1, X1: ps.sx2 + 1, Y0: ps.height - 1 - ps.sy2, Y1: ps.height - ps.sy1})
	}
	vs := [3]*winVert{&va, &vb, &vc}
	area := float64(tri.Area)
	for u := 0; u < 3; u++ {
		t := &ps.tex[u]
		if !t.enabled {
			continue
		}
		tc := func(v *vertex) [2]float32 {
			switch {
			case u == 0:
				return v.tc0
			case u == 1 || g.regs[p.TEXUNIT_CONFIG]>>13&1 != 0:
				return v.tc1
			}
			return v.tc2
		}
		// Planes of s/w, t/w (in texels) and 1/w over window x, y.
		var sw, tw, q [3]float64
		for i, wv := range vs {
			c := tc(wv.v)
			sw[i] = float64(c[0]) * float64(t.width) * wv.invW
			tw[i] = float64(c[1]) * float64(t.height) * wv.invW
			q[i] = wv.invW
			if u == 0 && t.proj {
				q[i] *= float64(wv.v.tc0w)
			}
		}
		t.gsw, t.gtw, t.gq = gradient(vs, sw), gradient(vs, tw), gradient(vs, q)
	}
	walk := func(r raster.Rect) int64 {
		var n int64
		tri.Walk(r, func(s *raster.Span) {
			e := s.E
			for x := s.X0; x < s.X1; x++ {
				if ps.scissor == 1 && x >= ps.sx1 && x <= ps.sx2 {
					row := ps.height - 1 - s.Y
					if row >= ps.sy1 && row <= ps.sy2 {
						e[0], e[1], e[2] = e[0]+s.DX[0], e[1]+s.DX[1], e[2]+s.DX[2]
						continue
					}
				}
				g.shadePixel(ps, vs, e, area, x, s.Y)
				n++
				e[0], e[1], e[2] = e[0]+s.DX[0], e[1]+s.DX[1], e[2]+s.DX[2]
			}
		})
		return n
	}
	// A large triangle is shaded in row bands on several goroutines: each
	// pixel is touched once per triangle and reads only its own colour,
	// depth and stencil, so the bytes written do not depend on the number
	// of workers or their order.
	bounds := tri.Bounds().Intersect(clip)
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || bounds.Empty() || (bounds.X1-bounds.X0)*(bounds.Y1-bounds.Y0) < parallelPixels {
		g.Pixels += walk(clip)
		return nil
	}
	rows := bounds.Y1 - bounds.Y0
	band := (rows + workers - 1) / workers
	counts := make([]int64, workers)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		r := clip
		r.Y0, r.Y1 = bounds.Y0+i*band, min(bounds.Y1, bounds.Y0+(i+1)*band)
		if r.Y0 >= r.Y1 {
			continue
		}
		wg.Add(1)
		go func(i int, r raster.Rect) {
			defer wg.Done()
			counts[i] = walk(r)
		}(i, r)
	}
	wg.Wait()
	for _, n := range counts {
		g.Pixels += n
	}
	return nil
}

// parallelPixels is the bounding-box area above which a triangle is shaded
// on several goroutines.
const parallelPixels = 8192

// shadePixel interpolates the fragment at pixel (x, row) (row = memory
// row) and runs the fragment pipeline.
func (g *GPU) shadePixel(ps *pixelState, vs [3]*winVert, e [3]int64, area float64, x, row int) {
	var f fragment
	w0, w1, w2 := float64(e[0])/area, float64(e[1])/area, float64(e[2])/area
	z := float64(w0*vs[0].z) + float64(w1*vs[1].z) + float64(w2*vs[2].z)
	f.depth = max(0, min(1, z))
	p0, p1, p2 := float64(w0*vs[0].invW), float64(w1*vs[1].invW), float64(w2*vs[2].invW)
	f.q = p0 + p1 + p2
	norm := 1 / f.q
	p0, p1, p2 = p0*norm, p1*norm, p2*norm
	in := func(a, b, c float32) float64 {
		return float64(p0*float64(a)) + float64(p1*float64(b)) + float64(p2*float64(c))
	}
	a, b, c := vs[0].v, vs[1].v, vs[2].v
	for i := 0; i < 4; i++ {
		f.color[i] = q8(in(a.color[i], b.color[i], c.color[i]))
	}
	if ps.texEnabled != 0 {
		f.tc[0] = [2]float64{in(a.tc0[0], b.tc0[0], c.tc0[0]), in(a.tc0[1], b.tc0[1], c.tc0[1])}
		if ps.tex[0].proj {
			f.tc0w = in(a.tc0w, b.tc0w, c.tc0w)
			f.tc[0][0] /= f.tc0w
			f.tc[0][1] /= f.tc0w
		}
		f.tc[1] = [2]float64{in(a.tc1[0], b.tc1[0], c.tc1[0]), in(a.tc1[1], b.tc1[1], c.tc1[1])}
		f.tc[2] = [2]float64{in(a.tc2[0], b.tc2[0], c.tc2[0]), in(a.tc2[1], b.tc2[1], c.tc2[1])}
	}
	g.fragment(ps, &f, x, row)
}

// gradient returns (df/dx, df/dy) of the plane through the three window
// vertices with values f.
func gradient(vs [3]*winVert, f [3]float64) [2]float64 {
	x1, y1 := vs[1].x-vs[0].x, vs[1].y-vs[0].y
	x2, y2 := vs[2].x-vs[0].x, vs[2].y-vs[0].y
	f1, f2 := f[1]-f[0], f[2]-f[0]
	det := x1*y2 - x2*y1
	if det == 0 {
		return [2]float64{}
	}
	return [2]float64{(f1*y2 - f2*y1) / det, (x1*f2 - x2*f1) / det}
}

func q8(v float64) uint8 {
	if v != v || v <= 0 {
		return 0
	}
	if v >= 1 {
		return 255
	}
	return uint8(math.Round(v * 255))
}
