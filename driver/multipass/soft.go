package multipass

import (
	"math"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
)

// Shade is the software stage: the CPU computes the fragment colour of
// every pixel of tile t that batch b may cover, as GL ES 1.1 defines it
// (section 3.7 texturing with the sampler's filters and mipmaps, the
// texture environments of table 3.15 and GL_COMBINE of table 3.16, section
// 3.8 fog with the per-vertex fog factor) and returns it as t.W() x t.H()
// RGBA bytes, row 0 at the tile's bottom (window row t.Y0). Attributes
// interpolate perspective-correctly at pixel centres. Pixels no primitive
// comes within a pixel of are left zero; every other pixel takes the
// primitive whose footprint holds its centre most deeply, so the pixels
// the chip's fill rule gives to a primitive get that primitive's colour.
func Shade(st *driver.State, b *Batch, t Rect, fp Footprint) []byte {
	w, h := t.W(), t.H()
	out := make([]byte, 4*w*h)
	best := make([]float64, w*h)
	for i := range best {
		best[i] = -1
	}
	sh := &shader{st: st}
	m := &b.Mesh
	for i := 0; i+2 < len(m.Triangles); i += 3 {
		tri := m.Triangles[i : i+3]
		sh.triangle(tri, t, out, best)
	}
	for i := 0; i+1 < len(m.Lines); i += 2 {
		sh.line(&m.Lines[i], &m.Lines[i+1], fp.LineHalf, t, out, best)
	}
	for i := range m.Points {
		sh.point(&m.Points[i], fp, t, out, best)
	}
	return out
}

// attrs are the attributes of a fragment.
type attrs struct {
	color [4]float32
	tex   [driver.MaxTextureUnits][4]float32
	fog   float32
	// dx and dy are the texture coordinates (s/q, t/q) of the neighbours
	// at x+1 and y+1, for the level of detail.
	dx, dy [driver.MaxTextureUnits][2]float32
}

type shader struct {
	st *driver.State
}

// pixelBox returns the tile pixels within a footprint's box.
func pixelBox(s shape, t Rect) Rect { return s.box.Intersect(t) }

// depth returns how deeply (pixels) point (x, y) lies inside the convex
// polygon pts (negative outside).
func depth(pts [][2]float64, x, y float64) float64 {
	var area float64
	n := len(pts)
	for i := 0; i < n; i++ {
		p, q := pts[i], pts[(i+1)%n]
		area += p[0]*q[1] - q[0]*p[1]
	}
	sign := 1.0
	if area < 0 {
		sign = -1
	}
	d := math.Inf(1)
	for i := 0; i < n; i++ {
		p, q := pts[i], pts[(i+1)%n]
		ex, ey := q[0]-p[0], q[1]-p[1]
		l := math.Hypot(ex, ey)
		if l == 0 {
			continue
		}
		d = math.Min(d, sign*(ex*(y-p[1])-ey*(x-p[0]))/l)
	}
	return d
}

// claim reports whether the pixel at tile index i goes to a primitive
// holding its centre at depth d, recording it.
func claim(best []float64, i int, d float64) bool {
	if d < -1 || d <= best[i] && best[i] > -1 {
		return false
	}
	best[i] = d
	return true
}

func (sh *shader) triangle(tri []swtnl.Vertex, t Rect, out []byte, best []float64) {
	pts := [][2]float64{{float64(tri[0].Win[0]), float64(tri[0].Win[1])},
		{float64(tri[1].Win[0]), float64(tri[1].Win[1])}, {float64(tri[2].Win[0]), float64(tri[2].Win[1])}}
	s := newShape([][2]float32{{tri[0].Win[0], tri[0].Win[1]}, {tri[1].Win[0], tri[1].Win[1]}, {tri[2].Win[0], tri[2].Win[1]}})
	r := pixelBox(s, t)
	x0, y0 := pts[0][0], pts[0][1]
	x1, y1 := pts[1][0]-x0, pts[1][1]-y0
	x2, y2 := pts[2][0]-x0, pts[2][1]-y0
	det := x1*y2 - x2*y1
	if det == 0 {
		return
	}
	// Perspective-correct barycentrics at window point (x, y).
	bary := func(x, y float64) [3]float64 {
		px, py := x-x0, y-y0
		b1 := (px*y2 - x2*py) / det
		b2 := (x1*py - px*y1) / det
		b := [3]float64{1 - b1 - b2, b1, b2}
		var sum float64
		for k := range b {
			b[k] *= float64(tri[k].Win[3])
			sum += b[k]
		}
		if sum != 0 {
			for k := range b {
				b[k] /= sum
			}
		}
		return b
	}
	for y := r.Y0; y < r.Y1; y++ {
		for x := r.X0; x < r.X1; x++ {
			cx, cy := float64(x)+0.5, float64(y)+0.5
			i := (y-t.Y0)*t.W() + (x - t.X0)
			if !claim(best, i, depth(pts, cx, cy)) {
				continue
			}
			var a attrs
			b0 := bary(cx, cy)
			for k := 0; k < 4; k++ {
				a.color[k] = float32(b0[0]*float64(tri[0].Color[k]) + b0[1]*float64(tri[1].Color[k]) + b0[2]*float64(tri[2].Color[k]))
			}
			a.fog = float32(b0[0]*float64(tri[0].Fog) + b0[1]*float64(tri[1].Fog) + b0[2]*float64(tri[2].Fog))
			sh.texcoords(&a, func(u, k int, b [3]float64) float64 {
				return b[0]*float64(tri[0].Tex[u][k]) + b[1]*float64(tri[1].Tex[u][k]) + b[2]*float64(tri[2].Tex[u][k])
			}, b0, bary(cx+1, cy), bary(cx, cy+1))
			sh.write(out, i, &a)
		}
	}
}

// texcoords fills the fragment's texture coordinates (projected by q) and
// its neighbours' from an interpolator of component k of unit u.
func (sh *shader) texcoords(a *attrs, lerp func(u, k int, b [3]float64) float64, b0, bx, by [3]float64) {
	for u := range sh.st.Units {
		if sh.st.Units[u].Texture == nil {
			continue
		}
		proj := func(b [3]float64) [2]float32 {
			q := lerp(u, 3, b)
			if q == 0 {
				q = 1
			}
			return [2]float32{float32(lerp(u, 0, b) / q), float32(lerp(u, 1, b) / q)}
		}
		c := proj(b0)
		a.tex[u] = [4]float32{c[0], c[1], 0, 1}
		a.dx[u], a.dy[u] = proj(bx), proj(by)
	}
}

func (sh *shader) line(va, vb *swtnl.Vertex, half float32, t Rect, out []byte, best []float64) {
	q := LineQuad(va, vb, half)
	s := newShape(q[:])
	pts := s.pts[:s.n]
	r := pixelBox(s, t)
	ax, ay := float64(va.Win[0]), float64(va.Win[1])
	dx, dy := float64(vb.Win[0])-ax, float64(vb.Win[1])-ay
	l2 := dx*dx + dy*dy
	// Perspective-correct weights of the two ends at parameter f.
	weights := func(x, y float64) [3]float64 {
		f := 0.0
		if l2 != 0 {
			f = math.Max(0, math.Min(1, ((x-ax)*dx+(y-ay)*dy)/l2))
		}
		w0, w1 := (1-f)*float64(va.Win[3]), f*float64(vb.Win[3])
		if s := w0 + w1; s != 0 {
			w0, w1 = w0/s, w1/s
		}
		return [3]float64{w0, w1, 0}
	}
	ends := [2]*swtnl.Vertex{va, vb}
	for y := r.Y0; y < r.Y1; y++ {
		for x := r.X0; x < r.X1; x++ {
			cx, cy := float64(x)+0.5, float64(y)+0.5
			i := (y-t.Y0)*t.W() + (x - t.X0)
			if !claim(best, i, depth(pts, cx, cy)) {
				continue
			}
			var a attrs
			w := weights(cx, cy)
			for k := 0; k < 4; k++ {
				a.color[k] = float32(w[0]*float64(va.Color[k]) + w[1]*float64(vb.Color[k]))
			}
			a.fog = float32(w[0]*float64(va.Fog) + w[1]*float64(vb.Fog))
			sh.texcoords(&a, func(u, k int, b [3]float64) float64 {
				return b[0]*float64(ends[0].Tex[u][k]) + b[1]*float64(ends[1].Tex[u][k])
			}, w, weights(cx+1, cy), weights(cx, cy+1))
			sh.write(out, i, &a)
		}
	}
}

func (sh *shader) point(v *swtnl.Vertex, fp Footprint, t Rect, out []byte, best []float64) {
	q := fp.PointQuad(v)
	size := fp.PointSize(v)
	s := newShape(q[:])
	pts := s.pts[:s.n]
	r := pixelBox(s, t)
	st := sh.st
	for y := r.Y0; y < r.Y1; y++ {
		for x := r.X0; x < r.X1; x++ {
			cx, cy := float64(x)+0.5, float64(y)+0.5
			i := (y-t.Y0)*t.W() + (x - t.X0)
			if !claim(best, i, depth(pts, cx, cy)) {
				continue
			}
			a := attrs{color: v.Color, fog: v.Fog}
			for u := range st.Units {
				if st.Units[u].Texture == nil {
					continue
				}
				tc := v.Tex[u]
				if st.Point.Sprite && st.Units[u].CoordReplace {
					// OES_point_sprite: s = 1/2 + (x + 1/2 - x_w)/size,
					// t = 1/2 - (y + 1/2 - y_w)/size.
					sz := float64(size)
					s0 := 0.5 + (cx-float64(v.Win[0]))/sz
					t0 := 0.5 - (cy-float64(v.Win[1]))/sz
					a.tex[u] = [4]float32{float32(s0), float32(t0), 0, 1}
					a.dx[u] = [2]float32{float32(s0 + 1/sz), float32(t0)}
					a.dy[u] = [2]float32{float32(s0), float32(t0 - 1/sz)}
					continue
				}
				qq := tc[3]
				if qq == 0 {
					qq = 1
				}
				a.tex[u] = [4]float32{tc[0] / qq, tc[1] / qq, 0, 1}
				a.dx[u] = [2]float32{a.tex[u][0], a.tex[u][1]}
				a.dy[u] = a.dx[u]
			}
			sh.write(out, i, &a)
		}
	}
}

// write computes the fragment colour and stores it.
func (sh *shader) write(out []byte, i int, a *attrs) {
	c := FragmentColor(sh.st, a.color, a.fog, func(u int) [4]float32 {
		return Sample(sh.st.Units[u].Texture, a.tex[u][0], a.tex[u][1], a.dx[u], a.dy[u])
	})
	for k := 0; k < 4; k++ {
		out[4*i+k] = uint8(math.Floor(float64(clamp01(c[k]))*255 + 0.5))
	}
}

func clamp01(v float32) float32 {
	if !(v > 0) {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

// FragmentColor is GL ES 1.1's fragment colour before the per-fragment
// operations: the primary colour through every enabled unit's texture
// environment (tex(u) samples unit u), then fog with factor f.
func FragmentColor(st *driver.State, primary [4]float32, f float32, tex func(u int) [4]float32) [4]float32 {
	prev := primary
	for u := range st.Units {
		t := &st.Units[u]
		if t.Texture == nil {
			continue
		}
		prev = envColor(&t.Env, t.Texture.Base(), prev, primary, tex(u))
	}
	if st.Fog.Enabled {
		fc := st.Fog.Color
		f = clamp01(f)
		for k := 0; k < 3; k++ {
			prev[k] = f*prev[k] + (1-f)*fc[k]
		}
	}
	return prev
}

// envColor applies one unit's environment (tables 3.15 and 3.16).
func envColor(env *driver.TexEnv, base driver.BaseFormat, prev, primary, texel [4]float32) [4]float32 {
	rgb, a := stageOf(env, base)
	src := func(s driver.CombineSrc, op driver.CombineOperand) [4]float32 {
		var v [4]float32
		switch s {
		case driver.SrcTexture:
			v = texel
		case driver.SrcConstant:
			v = env.Color
		case driver.SrcPrimaryColor:
			v = primary
		default:
			v = prev
		}
		switch op {
		case driver.OperandOneMinusSrcColor:
			return [4]float32{1 - v[0], 1 - v[1], 1 - v[2], 1 - v[3]}
		case driver.OperandSrcAlpha:
			return [4]float32{v[3], v[3], v[3], v[3]}
		case driver.OperandOneMinusSrcAlpha:
			return [4]float32{1 - v[3], 1 - v[3], 1 - v[3], 1 - v[3]}
		}
		return v
	}
	eval := func(d cdesc, k int) float32 {
		a0, a1, a2 := src(d.src[0], d.op[0]), src(d.src[1], d.op[1]), src(d.src[2], d.op[2])
		var v float32
		switch d.fn {
		case driver.CombineReplace:
			v = a0[k]
		case driver.CombineModulate:
			v = a0[k] * a1[k]
		case driver.CombineAdd:
			v = a0[k] + a1[k]
		case driver.CombineAddSigned:
			v = a0[k] + a1[k] - 0.5
		case driver.CombineInterpolate:
			v = a0[k]*a2[k] + a1[k]*(1-a2[k])
		case driver.CombineSubtract:
			v = a0[k] - a1[k]
		case driver.CombineDot3RGB, driver.CombineDot3RGBA:
			v = 4 * ((a0[0]-0.5)*(a1[0]-0.5) + (a0[1]-0.5)*(a1[1]-0.5) + (a0[2]-0.5)*(a1[2]-0.5))
		}
		return clamp01(v * d.scale)
	}
	var out [4]float32
	for k := 0; k < 3; k++ {
		out[k] = eval(rgb, k)
	}
	if rgb.fn == driver.CombineDot3RGBA {
		// The dot product is the alpha result too (ES 1.1 section
		// 3.7.12); like every alpha result it is multiplied by
		// ALPHA_SCALE, not RGB_SCALE ("the RGB and ALPHA results ... are
		// multiplied by RGB_SCALE and ALPHA_SCALE, respectively").
		d := rgb
		d.scale = a.scale
		out[3] = eval(d, 0)
	} else {
		out[3] = eval(a, 3)
	}
	return out
}

// Sample filters texture t at (s, t) as GL ES 1.1 section 3.7.7 does, with
// the level of detail from the coordinates of the neighbouring pixels
// (dx at x+1, dy at y+1).
func Sample(t *driver.Texture, s, tt float32, dx, dy [2]float32) [4]float32 {
	l0 := &t.Levels[0]
	w, h := float64(l0.Width), float64(l0.Height)
	dudx, dvdx := (float64(dx[0])-float64(s))*w, (float64(dx[1])-float64(tt))*h
	dudy, dvdy := (float64(dy[0])-float64(s))*w, (float64(dy[1])-float64(tt))*h
	rho := math.Max(math.Hypot(dudx, dvdx), math.Hypot(dudy, dvdy))
	lambda := math.Inf(-1)
	if rho > 0 {
		lambda = math.Log2(rho)
	}
	smp := t.Sampler
	c := 0.0
	if smp.MagFilter == driver.FilterLinear && (smp.MinFilter == driver.FilterNearestMipmapNearest || smp.MinFilter == driver.FilterLinearMipmapNearest) {
		c = 0.5
	}
	if lambda <= c {
		return sampleLevel(t, 0, s, tt, smp.MagFilter == driver.FilterLinear)
	}
	top := len(t.Levels) - 1
	switch smp.MinFilter {
	case driver.FilterNearest, driver.FilterLinear:
		return sampleLevel(t, 0, s, tt, smp.MinFilter == driver.FilterLinear)
	case driver.FilterNearestMipmapNearest, driver.FilterLinearMipmapNearest:
		d := 0
		if lambda > 0.5 {
			d = min(int(math.Ceil(lambda+0.5))-1, top)
		}
		return sampleLevel(t, d, s, tt, smp.MinFilter == driver.FilterLinearMipmapNearest)
	}
	linear := smp.MinFilter == driver.FilterLinearMipmapLinear
	d1 := min(int(math.Floor(lambda)), top)
	if d1 >= top {
		return sampleLevel(t, top, s, tt, linear)
	}
	a := sampleLevel(t, d1, s, tt, linear)
	b := sampleLevel(t, d1+1, s, tt, linear)
	f := float32(lambda - math.Floor(lambda))
	for k := range a {
		a[k] = (1-f)*a[k] + f*b[k]
	}
	return a
}

// sampleLevel reads level l at (s, t) with the NEAREST or LINEAR filter
// and the sampler's wrap modes.
func sampleLevel(t *driver.Texture, l int, s, tt float32, linear bool) [4]float32 {
	lv := &t.Levels[l]
	w, h := lv.Width, lv.Height
	u, v := float64(s)*float64(w), float64(tt)*float64(h)
	texel := func(i, j int) [4]float32 {
		i, j = wrap(i, w, t.Sampler.WrapS), wrap(j, h, t.Sampler.WrapT)
		p := t.TexelRGBA8(l, i, j)
		return [4]float32{float32(p[0]) / 255, float32(p[1]) / 255, float32(p[2]) / 255, float32(p[3]) / 255}
	}
	if !linear {
		return texel(int(math.Floor(u)), int(math.Floor(v)))
	}
	i0, j0 := int(math.Floor(u-0.5)), int(math.Floor(v-0.5))
	a, b := float32(u-0.5-math.Floor(u-0.5)), float32(v-0.5-math.Floor(v-0.5))
	t00, t10, t01, t11 := texel(i0, j0), texel(i0+1, j0), texel(i0, j0+1), texel(i0+1, j0+1)
	var out [4]float32
	for k := range out {
		out[k] = (1-a)*(1-b)*t00[k] + a*(1-b)*t10[k] + (1-a)*b*t01[k] + a*b*t11[k]
	}
	return out
}

func wrap(i, n int, m driver.TexWrap) int {
	switch m {
	case driver.WrapClampToEdge:
		return max(0, min(i, n-1))
	case driver.WrapMirroredRepeat:
		p := ((i % (2 * n)) + 2*n) % (2 * n)
		if p >= n {
			p = 2*n - 1 - p
		}
		return p
	}
	return ((i % n) + n) % n
}
