package pspge

import (
	"encoding/binary"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/multipass"
	"github.com/retrogl/retrogl/driver/swtnl"
	ge "github.com/retrogl/retrogl/hal/pspge"
)

// Texture coordinate sources of a software-path pass.
const (
	texNone   = iota
	texUnit   // a texture unit's coordinates (point sprites: COORD_REPLACE)
	texScreen // a register sampled at each fragment's window position
	texFunc   // coordinates of each vertex given by vsrc.coord
)

// vsrc says how a pass builds GE vertices from software T&L vertices:
// their colour, their texture coordinates and the target's origin.
type vsrc struct {
	color func(v *swtnl.Vertex) [4]uint8
	tex   int
	// unit and t are the texture unit and the texture bound (its level 0
	// scales through-mode coordinates).
	unit int
	t    *driver.Texture
	// reg is the size of the register texture (texScreen).
	reg [2]int
	// coord gives a vertex's (s, t) for texFunc.
	coord func(v *swtnl.Vertex) (float32, float32)
	// ox, oy are the target's top-left corner in the surface's GE pixels:
	// a register covers one tile; the framebuffer's is (0, 0).
	ox, oy int
	// tile is the tile a register's texture holds, for texScreen: its
	// top-left corner in GE pixels.
	tx, ty int
	// fog asks for the GE's LINEAR fog where the vertex form allows it.
	fog bool
}

// swMode is how the software path hands window-space triangles to the GE.
type swMode int

const (
	// swOrtho: clip w is 1 everywhere; positions are clip (x, y, z) with
	// PROJ = I.
	swOrtho swMode = iota
	// swPerspective: clip z = a*w + b for the draw's projection (any
	// perspective projection without shear in z); positions are (x, y, w)
	// and PROJ rebuilds (x, y, a*w+b, w), so the GE still interpolates
	// texture coordinates perspective-correctly, clips at the near plane
	// and fogs on w = -z_eye.
	swPerspective
	// swNDC: anything else (positions with w != 1 under an orthographic
	// projection, projections with shear in z): positions are normalised
	// device coordinates (x/w, y/w, z/w) with PROJ = I, and texture
	// coordinates carry 1/w as their q (s/w, t/w, q/w through TMAP's
	// matrix mode), so the GE's division by the interpolated q is GL's
	// perspective correction. The GE cannot fog this form.
	swNDC
)

// swModeOf chooses the software path's vertex form for a set of vertices.
func swModeOf(st *driver.State, vs []swtnl.Vertex) (swMode, float32, float32) {
	ortho := true
	for i := range vs {
		if vs[i].Clip[3] != 1 {
			ortho = false
			break
		}
	}
	if ortho {
		return swOrtho, 0, 0
	}
	p := st.Projection
	r2 := [4]float32{p[2], p[6], p[10], p[14]}
	r3 := [4]float32{p[3], p[7], p[11], p[15]}
	k := 0
	for j := 1; j < 3; j++ {
		if abs32(r3[j]) > abs32(r3[k]) {
			k = j
		}
	}
	if r3[k] == 0 {
		return swNDC, 0, 0
	}
	a := r2[k] / r3[k]
	for j := 0; j < 3; j++ {
		if abs32(r2[j]-a*r3[j]) > 1e-5*(abs32(r2[j])+1) {
			return swNDC, 0, 0
		}
	}
	b := r2[3] - a*r3[3]
	for i := range vs {
		cl := vs[i].Clip
		if abs32(cl[2]-(a*cl[3]+b)) > 1e-4*(abs32(cl[2])+1) {
			return swNDC, 0, 0
		}
	}
	return swPerspective, a, b
}

// fogNative reports whether the GE fogs a software-path draw itself: LINEAR
// fog on primitives the GE draws in transform mode (triangles, lines of
// width 1, points of size 1 that are not sprites) in a vertex form whose
// view z is an affine function of eye z. Wide lines and points are
// through-mode quads and sprites, which the GE does not fog.
func (c *Context) fogNative(st *driver.State, m *swtnl.Mesh) bool {
	if !st.Fog.Enabled {
		return true
	}
	vs := m.Triangles
	switch {
	case st.Fog.Mode != driver.FogLinear:
		return false
	case len(m.Lines) > 0:
		if !c.thinLines(st) {
			return false
		}
		vs = m.Lines
	case len(m.Points) > 0:
		if !c.thinPoints(st, m.Points) {
			return false
		}
		vs = m.Points
	}
	for i := range vs {
		if vs[i].Eye[2] > 0 {
			// GL fogs by |z_eye|, the GE by its signed view z.
			return false
		}
	}
	mode, _, _ := swModeOf(st, vs)
	switch mode {
	case swPerspective:
		return true
	case swOrtho:
		p := st.Projection
		return p[2] == 0 && p[6] == 0 && p[10] != 0
	}
	return false
}

func abs32(v float32) float32 { return float32(math.Abs(float64(v))) }

func putF32(b []byte, vs ...float32) {
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
}

// thinLines reports whether lines are one pixel wide, drawn by the GE's
// own line rasteriser (as the hardware path does) rather than as quads.
func (c *Context) thinLines(st *driver.State) bool { return c.footprint(st).LineHalf <= 0.5 }

// thinPoints reports whether every point is one pixel and no sprite: the
// GE's point (PRIM 0) draws the pixel holding the vertex, which is GL's
// aliased point of size 1.
func (c *Context) thinPoints(st *driver.State, ps []swtnl.Vertex) bool {
	if st.Point.Sprite {
		return false
	}
	fp := c.footprint(st)
	for i := range ps {
		if fp.PointSize(&ps[i]) != 1 {
			return false
		}
	}
	return true
}

// emitMesh draws a software mesh with src's colours and coordinates.
func (c *Context) emitMesh(st *driver.State, m *swtnl.Mesh, src vsrc) error {
	if len(m.Triangles) > 0 {
		if err := c.swVerts(st, m.Triangles, 3, src); err != nil {
			return err
		}
	}
	if len(m.Lines) > 0 {
		var err error
		if c.thinLines(st) {
			err = c.swVerts(st, m.Lines, 1, src)
		} else {
			err = c.swLines(st, m.Lines, src)
		}
		if err != nil {
			return err
		}
	}
	if len(m.Points) > 0 {
		if c.thinPoints(st, m.Points) {
			return c.swVerts(st, m.Points, 0, src)
		}
		return c.swPoints(st, m.Points, src)
	}
	return nil
}

// screenST returns the register coordinates of window point (x, y) for a
// texScreen source: the tile's pixel, normalised by the register size.
func (c *Context) screenST(src vsrc, x, y float32) (float32, float32) {
	gx := x - float32(src.tx)
	gy := float32(c.cfg.Height) - y - float32(src.ty)
	return gx / float32(src.reg[0]), gy / float32(src.reg[1])
}

// swVerts sends clipped window-space triangles (ptype 3), lines (1) or
// points (0) in transform mode (see swMode).
func (c *Context) swVerts(st *driver.State, tris []swtnl.Vertex, ptype uint32, src vsrc) error {
	mode, a, b := swModeOf(st, tris)
	l := &c.list
	// stq is set when (s, t, q) ride in the normal and TMATRIX = I picks
	// them up (TMAP matrix mode from the raw normal); the GE divides by
	// q.
	stq := false
	switch src.tex {
	case texUnit:
		stq = mode == swNDC
		for i := range tris {
			if tris[i].Tex[src.unit][3] != 1 {
				stq = true
				break
			}
		}
	case texScreen:
		stq = mode == swPerspective
	case texFunc:
		stq = mode == swNDC
	}
	vt := ge.VType{Color: ge.Color8888, Pos: ge.FmtFloat}
	if src.tex != texNone {
		vt.TexCoord = ge.FmtFloat
		if stq {
			vt.Normal = ge.FmtFloat
			l.set(ge.TMAP, 1|3<<8)
			l.matrix(ge.TMS, ge.TMATRIX, slotTex, []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
		} else {
			l.set(ge.TMAP, 0)
			l.set(ge.USCALE, ge.F24(1))
			l.set(ge.VSCALE, ge.F24(1))
			l.set(ge.UOFFSET, 0)
			l.set(ge.VOFFSET, 0)
		}
	}
	ident := mat43(mgl32.Ident4())
	l.matrix(ge.WMS, ge.WORLD, slotWorld, ident)
	l.matrix(ge.VMS, ge.VIEW, slotView, ident)
	proj := mgl32.Ident4()
	if mode == swPerspective {
		proj = mgl32.Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, a, 1, 0, 0, b, 0}
	}
	l.matrix(ge.PMS, ge.PROJ, slotProj, proj[:])
	if src.fog && st.Fog.Enabled && mode != swNDC {
		c.swLinearFog(st, mode)
	} else {
		l.set(ge.FGE, 0)
	}
	lay := vt.Layout()
	buf := make([]byte, len(tris)*lay.Size)
	for i := range tris {
		v := &tris[i]
		o := buf[i*lay.Size:]
		col := src.color(v)
		copy(o[lay.ColorOff:], col[:])
		var pos [3]float32
		switch mode {
		case swOrtho:
			pos = [3]float32{v.Clip[0], v.Clip[1], v.Clip[2]}
		case swPerspective:
			pos = [3]float32{v.Clip[0], v.Clip[1], v.Clip[3]}
		default:
			// Clipping left z/w in [-1, 1]; rounding must not push it past
			// the GE's near plane.
			w := v.Clip[3]
			pos = [3]float32{v.Clip[0] / w, v.Clip[1] / w, max(-1, v.Clip[2]/w)}
		}
		putF32(o[lay.PosOff:], pos[:]...)
		var s, t, q float32 = 0, 0, 1
		switch src.tex {
		case texNone:
			continue
		case texUnit:
			tc := v.Tex[src.unit]
			s, t, q = tc[0], tc[1], tc[3]
			if mode == swNDC {
				s, t, q = s*v.Win[3], t*v.Win[3], q*v.Win[3]
			}
		case texScreen:
			s, t = c.screenST(src, v.Win[0], v.Win[1])
			if mode == swPerspective {
				w := v.Clip[3]
				s, t, q = s*w, t*w, w
			}
		case texFunc:
			s, t = src.coord(v)
			if mode == swNDC {
				s, t, q = s*v.Win[3], t*v.Win[3], v.Win[3]
			}
		}
		if stq {
			putF32(o[lay.NormalOff:], s, t, q)
			putF32(o[lay.TexOff:], 0, 0)
		} else {
			putF32(o[lay.TexOff:], s, t)
		}
	}
	vaddr, err := c.upload(buf, 4)
	if err != nil {
		return err
	}
	idx := make([]int, len(tris))
	for i := range idx {
		idx[i] = i
	}
	return c.kickPrims(vt, vaddr, ptype, idx, true)
}

// swLinearFog emits LINEAR fog for the software path's vertex forms: in
// perspective mode the GE's view z is clip w = -z_eye; in ortho mode it is
// clip z, an affine function of z_eye when the projection's z row uses z
// only.
func (c *Context) swLinearFog(st *driver.State, mode swMode) {
	l := &c.list
	if mode == swPerspective {
		c.fog(st, true, true)
		return
	}
	p := st.Projection
	a, b := p[10], p[14]
	if p[2] != 0 || p[6] != 0 || a == 0 {
		l.set(ge.FGE, 0)
		return
	}
	f := &st.Fog
	span := f.End - f.Start
	if span == 0 {
		span = 1e-30
	}
	// f = (end + z_eye)/span with z_eye = (Z - b)/a.
	l.set(ge.FGE, 1)
	l.set(ge.FFAR, ge.F24(a*f.End-b))
	l.set(ge.FDIST, ge.F24(1/(a*span)))
	l.set(ge.FCOL, rgb8(f.Color))
}

// throughVertex is one through-mode vertex: float UV (texels), 8888
// colour, float position (x, y pixels from the target's top-left, z
// 0..65535).
type throughVertex struct {
	u, v    float32
	col     [4]uint8
	x, y, z float32
}

var throughVT = ge.VType{TexCoord: ge.FmtFloat, Color: ge.Color8888, Pos: ge.FmtFloat, Through: true}

// throughPrims uploads through-mode vertices and draws them.
func (c *Context) throughPrims(vs []throughVertex, ptype uint32) error {
	l := &c.list
	l.set(ge.FGE, 0)
	lay := throughVT.Layout()
	buf := make([]byte, len(vs)*lay.Size)
	for i, v := range vs {
		o := buf[i*lay.Size:]
		putF32(o[lay.TexOff:], v.u, v.v)
		copy(o[lay.ColorOff:], v.col[:])
		putF32(o[lay.PosOff:], v.x, v.y, v.z)
	}
	vaddr, err := c.upload(buf, 4)
	if err != nil {
		return err
	}
	idx := make([]int, len(vs))
	for i := range idx {
		idx[i] = i
	}
	return c.kickPrims(throughVT, vaddr, ptype, idx, true)
}

// texel returns the through-mode texture coordinates (texels) of a corner
// at window (x, y) of vertex v.
func (c *Context) texel(st *driver.State, src vsrc, v *swtnl.Vertex, x, y float32) (float32, float32) {
	switch src.tex {
	case texUnit:
		lv := src.t.Levels[0]
		tc := v.Tex[src.unit]
		q := tc[3]
		if q == 0 {
			q = 1
		}
		return tc[0] / q * float32(lv.Width), tc[1] / q * float32(lv.Height)
	case texScreen:
		s, t := c.screenST(src, x, y)
		return s * float32(src.reg[0]), t * float32(src.reg[1])
	case texFunc:
		lv := src.t.Levels[0]
		s, t := src.coord(v)
		return s * float32(lv.Width), t * float32(lv.Height)
	}
	return 0, 0
}

// footprint is how this driver draws points and lines (the fallback's
// batches and software stage must cover the same pixels).
func (c *Context) footprint(st *driver.State) multipass.Footprint {
	maxSize := c.drv.caps.Limits.AliasedPointSizeRange[1]
	return multipass.Footprint{
		PointSize: func(v *swtnl.Vertex) float32 {
			return max(1, min(maxSize, float32(math.Round(float64(v.PointSize)))))
		},
		LineHalf: max(1, float32(math.Round(float64(st.LineWidth)))) / 2,
		Snap:     !st.Point.Sprite,
	}
}

// swLines draws lines of any width as through-mode quads: each segment is
// widened by the line width along the minor axis, as GL's aliased wide
// lines are (multipass.LineQuad).
func (c *Context) swLines(st *driver.State, ls []swtnl.Vertex, src vsrc) error {
	half := c.footprint(st).LineHalf
	H := float32(c.cfg.Height)
	var vs []throughVertex
	for _, seg := range splitLines(ls) {
		a, b := &seg[0], &seg[1]
		q := multipass.LineQuad(a, b, half)
		mk := func(v *swtnl.Vertex, p [2]float32) throughVertex {
			tv := throughVertex{col: src.color(v), x: p[0] - float32(src.ox), y: H - p[1] - float32(src.oy), z: v.Win[2] * 65535}
			tv.u, tv.v = c.texel(st, src, v, p[0], p[1])
			return tv
		}
		// a0 and b0 are the corners above the line on the GE's screen.
		a0, a1 := mk(a, q[1]), mk(a, q[0])
		b0, b1 := mk(b, q[2]), mk(b, q[3])
		vs = append(vs, a0, b0, a1, a1, b0, b1)
	}
	return c.throughPrims(vs, 3)
}

// lineStep is the longest piece, in pixels along the major axis, of a
// wide line split by splitLines.
const lineStep = 2

// splitLines cuts each segment of ls into pieces at most lineStep pixels
// long along its major axis, each piece's data interpolated
// perspective-correctly (ES 1.1 section 3.4.1: f = ((1-t) fa/wa + t
// fb/wb) / ((1-t)/wa + t/wb)). A through-mode quad interpolates its
// colours and texture coordinates linearly in screen space, so a long
// line whose ends differ in w drifts from GL's values; over a piece of
// lineStep pixels the drift is small. multipass.LineQuad moves the quad
// half a pixel back toward a, so every vertex's data is taken half a
// pixel back as well: each fragment gets the data at its own centre.
func splitLines(ls []swtnl.Vertex) [][2]swtnl.Vertex {
	var out [][2]swtnl.Vertex
	for i := 0; i+1 < len(ls); i += 2 {
		a, b := ls[i], ls[i+1]
		major := max(abs(b.Win[0]-a.Win[0]), abs(b.Win[1]-a.Win[1]))
		if major < 1 || a.Win[3] <= 0 || b.Win[3] <= 0 {
			out = append(out, [2]swtnl.Vertex{a, b})
			continue
		}
		n := 1
		// Equal w (orthographic projections): screen-linear is GL's
		// interpolation already.
		if a.Win[3] != b.Win[3] {
			n = min(128, int(math.Ceil(float64(major)/lineStep)))
		}
		back := 0.5 / major
		prev := lineAt(&a, &b, 0, -back)
		for k := 1; k <= n; k++ {
			t := float32(k) / float32(n)
			next := lineAt(&a, &b, t, t-back)
			out = append(out, [2]swtnl.Vertex{prev, next})
			prev = next
		}
	}
	return out
}

// lineAt is the vertex at screen parameter t of the segment from a to b
// (window position linear in t) carrying the data at parameter td,
// perspective-correct.
func lineAt(a, b *swtnl.Vertex, t, td float32) swtnl.Vertex {
	wa, wb := a.Win[3], b.Win[3]
	s := td * wb / ((1-td)*wa + td*wb)
	l := func(x, y float32, u float32) float32 { return x + u*(y-x) }
	v := *a
	for i := range 4 {
		v.Win[i] = l(a.Win[i], b.Win[i], t)
		v.Clip[i] = l(a.Clip[i], b.Clip[i], s)
		v.Eye[i] = l(a.Eye[i], b.Eye[i], s)
		v.Color[i] = clamp01(l(a.Color[i], b.Color[i], s))
		v.Back[i] = clamp01(l(a.Back[i], b.Back[i], s))
		for u := range v.Tex {
			v.Tex[u][i] = l(a.Tex[u][i], b.Tex[u][i], s)
		}
	}
	v.FogDist = l(a.FogDist, b.FogDist, s)
	v.Fog = clamp01(l(a.Fog, b.Fog, s))
	v.PointSize = l(a.PointSize, b.PointSize, s)
	return v
}

func clamp01(v float32) float32 { return max(0, min(1, v)) }

func abs(v float32) float32 { return float32(math.Abs(float64(v))) }

// swPoints draws points as through-mode sprites of the derived size
// (rounded, at least 1 pixel) centred on the window position; with
// OES_point_sprite's COORD_REPLACE the texture runs from (0,0) at the top
// left to (1,1) at the bottom right (GL's t = 1/2 - (y - y_w)/size).
func (c *Context) swPoints(st *driver.State, ps []swtnl.Vertex, src vsrc) error {
	fp := c.footprint(st)
	H := float32(c.cfg.Height)
	var vs []throughVertex
	for i := range ps {
		v := &ps[i]
		q := fp.PointQuad(v)
		// Top-left and bottom-right corners (GL's upper left is q[3]).
		tl, br := q[3], q[1]
		col := src.color(v)
		a := throughVertex{col: col, x: tl[0] - float32(src.ox), y: H - tl[1] - float32(src.oy), z: v.Win[2] * 65535}
		b := throughVertex{col: col, x: br[0] - float32(src.ox), y: H - br[1] - float32(src.oy), z: v.Win[2] * 65535}
		switch {
		case src.tex == texUnit && st.Point.Sprite && st.Units[src.unit].CoordReplace:
			lv := src.t.Levels[0]
			a.u, a.v, b.u, b.v = 0, 0, float32(lv.Width), float32(lv.Height)
		case src.tex == texUnit || src.tex == texFunc:
			a.u, a.v = c.texel(st, src, v, 0, 0)
			b.u, b.v = a.u, a.v
		case src.tex == texScreen:
			a.u, a.v = c.texel(st, src, v, tl[0], tl[1])
			b.u, b.v = c.texel(st, src, v, br[0], br[1])
		}
		vs = append(vs, a, b)
	}
	return c.throughPrims(vs, 6)
}

// maxScreenLinearError is the largest error, in 8-bit steps, the driver
// lets the GE's screen-linear colour and fog interpolation make against
// GL's perspective-correct interpolation (ES 1.1 section 3.5.1, equation
// 3.6) before it shades the draw on the CPU (screenLinearError). The
// choice trades exactness for speed: 8 steps is one step of the 5-bit
// channels of the GE's 16-bit framebuffer formats (and what its dither
// matrix spreads, -4 to +3), so below it the difference hides in the
// chip's own quantisation; ordinary perspective geometry (a lit sphere of
// 12x8 quads at two to three times its radius from the eye: about 5
// steps) stays on the GE, while primitives whose clip w doubles across
// them under strongly varying colours (rgldiff seeds 318, 430, 487, 494,
// 511, 789: 20 to 80 steps) go to the CPU.
const maxScreenLinearError = 8

// screenLinearError bounds, in 8-bit steps, how far the GE's interpolation
// of colours and the fog factor, linear in window coordinates
// (docs/pspge.md, Interpolation), can be from GL's perspective-correct
// interpolation over the mesh's triangles and lines: along an edge whose
// clip w goes from w0 to w1 (ratio r = w1/w0 >= 1) the perspective-correct
// weight of window parameter u is u·r' / (1 - u + u·r') with r' = w0/w1,
// which departs from u by at most (√r - 1)/(√r + 1), at u = 1/(1 + √r'); the
// bound is that times the largest difference of a colour channel (or of
// the fog factor, in units of the full range) between the primitive's
// vertices. Points carry one colour and never count.
func screenLinearError(st *driver.State, m *swtnl.Mesh) float64 {
	worst := 0.0
	prim := func(vs []swtnl.Vertex) {
		wmin, wmax := math.Inf(1), 0.0
		for i := range vs {
			w := float64(vs[i].Clip[3])
			wmin, wmax = min(wmin, w), max(wmax, w)
		}
		if wmin <= 0 || wmax <= wmin {
			return
		}
		s := math.Sqrt(wmax / wmin)
		e := (s - 1) / (s + 1)
		if e*255 <= worst {
			return
		}
		spread := 0.0
		for k := 0; k < 4; k++ {
			lo, hi := math.Inf(1), math.Inf(-1)
			for i := range vs {
				lo, hi = min(lo, float64(vs[i].Color[k])), max(hi, float64(vs[i].Color[k]))
				if st.Lighting.Enabled && st.Lighting.TwoSide {
					lo, hi = min(lo, float64(vs[i].Back[k])), max(hi, float64(vs[i].Back[k]))
				}
			}
			spread = max(spread, hi-lo)
		}
		if st.Fog.Enabled {
			lo, hi := math.Inf(1), math.Inf(-1)
			for i := range vs {
				lo, hi = min(lo, float64(vs[i].Fog)), max(hi, float64(vs[i].Fog))
			}
			spread = max(spread, hi-lo)
		}
		worst = max(worst, e*spread*255)
	}
	for i := 0; i+2 < len(m.Triangles); i += 3 {
		prim(m.Triangles[i : i+3])
	}
	for i := 0; i+1 < len(m.Lines); i += 2 {
		prim(m.Lines[i : i+2])
	}
	return worst
}
