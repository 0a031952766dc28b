package glamo

import (
	"math"

	"github.com/retrogl/retrogl/sim/raster"
)

// Setup: vertices are snapped to 1/16 pixel, the precision of the setup
// engine's shift registers (EGSXshft/EGSYshft, s9.4, L1945), and clamped to
// the s9 screen (-512..511). Coverage uses sim/raster's exact edge functions
// with the top-left rule at pixel centres: the seed gives no fill rule
// beyond "sub-pixel precision" (L58), and this rule draws every pixel of a
// mesh exactly once. Attributes are planes through vertex a with
// increments in the seed's setup formats (L1745-1945): colours in s5.8
// (R, B, SR, SB) and s6.8 (A, G, F, SG), exact integer steps; Z, W and the
// texture coordinates in s[7].16, each step rounded.
const subBits = 4

func snap(v float64) int64 {
	f := math.Floor(v*16 + 0.5)
	if !(f > -512*16) {
		return -512 * 16
	}
	if f > 512*16-1 {
		return 512*16 - 1
	}
	return int64(f)
}

// colour channel scales: 8-bit values become s5.8 / s6.8 units.
var chScale = [8]float64{31 * 256, 63 * 256, 31 * 256, 63 * 256, 31 * 256, 63 * 256, 31 * 256, 63 * 256}

// iplane is an exact integer attribute plane: acc16 holds 16 times the
// value at the current pixel.
type iplane struct {
	a0     int64 // value at vertex a
	dx, dy int64 // per-pixel steps
}

func (p *iplane) at(x16, y16 int64) int64 { return p.a0*16 + p.dx*x16 + p.dy*y16 }

// fplane is an s[7].16 plane.
type fplane struct{ a0, dx, dy float64 }

func (p *fplane) row(rx, ry float64) float64 {
	return qadd(qadd(p.a0, qmul(p.dy, ry)), qmul(p.dx, rx))
}

// gradient returns the plane slopes through three (x, y, value) points.
func gradient(x, y, a [3]float64) (dx, dy float64) {
	area := (x[1]-x[0])*(y[2]-y[0]) - (x[2]-x[0])*(y[1]-y[0])
	if area == 0 {
		return 0, 0
	}
	dx = ((a[1]-a[0])*(y[2]-y[0]) - (a[2]-a[0])*(y[1]-y[0])) / area
	dy = ((a[2]-a[0])*(x[1]-x[0]) - (a[1]-a[0])*(x[2]-x[0])) / area
	return
}

// colorUnits returns channel k (0..7: R, G, B, A, SR, SG, SB, F) of a
// vertex's face colours in s5.8/s6.8 units.
func colorUnits(v *vertex, face, k int) int64 {
	var c uint8
	switch k {
	case 0, 1, 2:
		c = v.col[face][k]
	case 3:
		c = v.col[face][3]
	case 4, 5, 6:
		c = v.spec[face][k-4]
	default:
		c = v.spec[face][3]
	}
	return colorUnitTab[k][c]
}

// colorUnitTab[k][c] is 8-bit value c in channel k's s5.8/s6.8 units,
// round(c * scale / 255).
var colorUnitTab = func() (t [8][256]int64) {
	for k := range t {
		for c := range t[k] {
			t[k][c] = int64(math.Floor(float64(c)*chScale[k]/255 + 0.5))
		}
	}
	return t
}()

// chanOrder maps plane k to its scale: R,B,SR,SB are 5-bit, the rest 6.
var chIs6 = [8]bool{false, true, false, true, false, true, false, true}

func unitTo12(k int, v int64) int32 {
	if chIs6[k] {
		if v < 0 {
			v = 0
		} else if v > 63*256 {
			v = 63 * 256
		}
		return lut6_8[v]
	}
	if v < 0 {
		v = 0
	} else if v > 31*256 {
		v = 31 * 256
	}
	return lut5_8[v]
}

// clipRect returns the scissor (EGCL*) as a raster rectangle.
func (e *Engine) clipRect() raster.Rect {
	p := &e.px
	return raster.Rect{X0: p.clipX0, Y0: p.clipY0, X1: p.clipX1 + 1, Y1: p.clipY1 + 1}
}

// setupTri sets up and rasterises one window-space triangle.
func (e *Engine) setupTri(a, b, c *vertex) error { return e.setupTriFlat(a, b, c, nil) }

// setupTriFlat is setupTri with the colours of every vertex taken from
// flat when it is not nil (flat shading without copying vertices).
func (e *Engine) setupTriFlat(a, b, c, flat *vertex) error {
	if e.gl.setupDrop || e.gl.twoCull {
		return nil
	}
	p := &e.px
	v := [3]*vertex{a, b, c}
	var pt [3]raster.Point
	for i := range v {
		pt[i] = raster.Point{X: snap(v[i].win[0]), Y: snap(v[i].win[1])}
	}
	t, ok := raster.Setup(pt[0], pt[1], pt[2], subBits)
	if !ok {
		return nil
	}
	cw := t.CW // clockwise in the chip's y-down window (P10)
	// RGPCullDflg: 0 culls clockwise, 1 counter-clockwise (L1316).
	if p.cull && cw != p.cullCCW {
		return nil
	}
	face := 0
	if !cw {
		face = 1
	}
	fill := p.fill
	if p.twoSideFill && !cw {
		fill = p.ccwFill
	}
	switch fill {
	case 1: // point
		for _, x := range v {
			y := *x
			cs := x
			if flat != nil {
				cs = flat
			}
			y.col[0], y.spec[0] = cs.col[face], cs.spec[face]
			if err := e.setupPoint(&y); err != nil {
				return err
			}
		}
		return nil
	case 2: // wireframe
		var w [3]vertex
		for i, x := range v {
			w[i] = *x
			cs := x
			if flat != nil {
				cs = flat
			}
			w[i].col[0], w[i].spec[0] = cs.col[face], cs.spec[face]
		}
		for i := 0; i < 3; i++ {
			if err := e.setupLine(&w[i], &w[(i+1)%3]); err != nil {
				return err
			}
		}
		return nil
	}
	e.stats.Triangles++
	bounds := t.Bounds()
	box := bounds.Intersect(e.clipRect())
	if !box.Empty() {
		// The watchdog counts pixels too, one step per 64 of the box.
		if err := e.step((box.X1 - box.X0) * (box.Y1 - box.Y0) / 64); err != nil {
			return err
		}
	}

	var xs, ys [3]float64
	for i := range v {
		xs[i], ys[i] = float64(pt[i].X)/16, float64(pt[i].Y)/16
	}
	// The job is built in its slot (a triJob is a few hundred bytes).
	j := e.jobs.add()
	// Integer colour planes.
	ip := &j.ip
	*ip = [8]iplane{}
	nch := 4
	if p.specAdd || p.fog || (p.ntex > 0 && p.txbl && p.comb.useSpc) {
		nch = 8
	}
	for k := 0; k < nch; k++ {
		var vals [3]float64
		for i := range v {
			cs := v[i]
			if flat != nil {
				cs = flat
			}
			vals[i] = float64(colorUnits(cs, face, k))
		}
		gx, gy := gradient(xs, ys, vals)
		ip[k] = iplane{a0: int64(vals[0]), dx: int64(math.Round(gx)), dy: int64(math.Round(gy))}
	}
	// Float planes: Z, W (1/w), and per texture unit U, V.
	mk := func(vals [3]float64) fplane {
		gx, gy := gradient(xs, ys, vals)
		return fplane{a0: vals[0], dx: q(gx), dy: q(gy)}
	}
	zp := mk([3]float64{v[0].win[2], v[1].win[2], v[2].win[2]})
	needW := (p.ntex > 0 && p.persp) || (p.fog && p.fogMode >= 5 && !p.fogZ)
	var wp fplane
	if needW {
		wp = mk([3]float64{v[0].win[3], v[1].win[3], v[2].win[3]})
	}
	var up, vp [2]fplane
	persp := p.persp
	for u := 0; u < p.ntex; u++ {
		s := p.tex[u].set
		var uu, vv [3]float64
		for i := range v {
			uu[i], vv[i] = v[i].tex[s][0], v[i].tex[s][1]
			if persp {
				uu[i], vv[i] = qmul(uu[i], v[i].win[3]), qmul(vv[i], v[i].win[3])
			}
		}
		up[u], vp[u] = mk(uu), mk(vv)
	}
	// Polygon offset (P17): m * Slope + Res, m the larger Z slope.
	var off float64
	if p.offset {
		m := math.Max(math.Abs(zp.dx), math.Abs(zp.dy))
		off = qadd(qmul(m, p.slope), p.res)
		if p.zclamp {
			if p.zclampNeg {
				off = math.Max(off, p.zclampVal)
			} else {
				off = math.Min(off, p.zclampVal)
			}
		}
	}
	// Constant LOD for affine mapping.
	var lodC [2]float64
	for u := 0; u < p.ntex; u++ {
		if !persp && p.tex[u].needLOD {
			lodC[u] = lodOf(&p.tex[u], up[u].dx, vp[u].dx, up[u].dy, vp[u].dy)
		}
	}
	j.t, j.box, j.xa, j.ya, j.nch = t, bounds, pt[0].X, pt[0].Y, nch
	j.zp, j.wp, j.needW, j.up, j.vp, j.persp, j.off, j.lodC = zp, wp, needW, up, vp, persp, off, lodC
	return nil
}

// jobBlock is the number of jobs in one block of a jobList.
const jobBlock = 1024

// jobList holds the pending triangles in blocks of jobBlock that it keeps
// between flushes: a draw of thousands of triangles neither copies the
// jobs (as a growing slice would, a few hundred bytes each) nor allocates
// once the blocks exist.
type jobList struct {
	blocks [][]triJob
	n      int
}

// add returns a slot for one more job.
func (l *jobList) add() *triJob {
	b := l.n / jobBlock
	if b == len(l.blocks) {
		l.blocks = append(l.blocks, make([]triJob, jobBlock))
	}
	j := &l.blocks[b][l.n%jobBlock]
	l.n++
	return j
}

// at returns job i (i < n).
func (l *jobList) at(i int) *triJob { return &l.blocks[i/jobBlock][i%jobBlock] }

// triJob is a set-up triangle waiting to be walked: the raster engine
// runs jobs in order, on row bands in parallel when that cannot change a
// pixel (flushJobs).
type triJob struct {
	t      raster.Triangle
	box    raster.Rect // t.Bounds()
	xa, ya int64
	nch    int
	ip     [8]iplane
	zp, wp fplane
	needW  bool
	up, vp [2]fplane
	persp  bool
	off    float64
	lodC   [2]float64
}

// walkTriRef shades the pixels of a job inside clip one at a time through
// shade and output: the reference the span pipeline (span.go) must equal.
func (e *Engine) walkTriRef(j *triJob, clip raster.Rect, f *frag) {
	p := &e.px
	nch, ip, zp, wp, up, vp := j.nch, &j.ip, &j.zp, &j.wp, &j.up, &j.vp
	persp, needW, off, lodC := j.persp, j.needW, j.off, j.lodC
	xa, ya := j.xa, j.ya
	j.t.Walk(clip, func(s *raster.Span) {
		cy16 := int64(s.Y)*16 + 8 - ya
		cx16 := int64(s.X0)*16 + 8 - xa
		var acc [8]int64
		for k := 0; k < nch; k++ {
			acc[k] = ip[k].at(cx16, cy16)
		}
		rx, ry := float64(cx16)/16, float64(cy16)/16
		z := zp.row(rx, ry)
		w := wp.row(rx, ry)
		var uc, vc [2]float64
		for u := 0; u < p.ntex; u++ {
			uc[u], vc[u] = up[u].row(rx, ry), vp[u].row(rx, ry)
		}
		f.y = s.Y
		for x := s.X0; x < s.X1; x++ {
			f.x = x
			for k := 0; k < 4; k++ {
				f.col[k] = unitTo12(k, acc[k]>>4)
			}
			if nch == 8 {
				for k := 0; k < 4; k++ {
					f.spec[k] = unitTo12(4+k, acc[4+k]>>4)
				}
			}
			f.z = z
			if off != 0 {
				f.z = qadd(z, off)
			}
			f.w = w
			if p.ntex > 0 {
				var rw float64
				if persp {
					rw = qdiv(1, w)
				}
				for u := 0; u < p.ntex; u++ {
					if persp {
						f.uv[u] = [2]float64{qmul(uc[u], rw), qmul(vc[u], rw)}
						if p.tex[u].needLOD {
							uu, vv := f.uv[u][0], f.uv[u][1]
							f.lod[u] = lodOf(&p.tex[u],
								(up[u].dx-uu*wp.dx)*rw, (vp[u].dx-vv*wp.dx)*rw,
								(up[u].dy-uu*wp.dy)*rw, (vp[u].dy-vv*wp.dy)*rw)
						}
					} else {
						f.uv[u] = [2]float64{uc[u], vc[u]}
						f.lod[u] = lodC[u]
					}
				}
			}
			e.shade(f)
			for k := 0; k < nch; k++ {
				acc[k] += ip[k].dx * 16
			}
			z = qadd(z, zp.dx)
			if needW {
				w = qadd(w, wp.dx)
			}
			for u := 0; u < p.ntex; u++ {
				uc[u] = qadd(uc[u], up[u].dx)
				vc[u] = qadd(vc[u], vp[u].dx)
			}
		}
	})
}

// lodOf returns log2 of the larger texel footprint of one pixel step:
// rho^2 = max((du/dx W)^2 + (dv/dx H)^2, (du/dy W)^2 + (dv/dy H)^2),
// lod = log2(rho^2) / 2 (GL's rho with the Euclidean norm).
func lodOf(t *texUnit, dudx, dvdx, dudy, dvdy float64) float64 {
	w, h := t.texScaleUV[0], t.texScaleUV[1]
	ax, bx := float64(dudx*w), float64(dvdx*h)
	ay, by := float64(dudy*w), float64(dvdy*h)
	r := math.Max(float64(ax*ax)+float64(bx*bx), float64(ay*ay)+float64(by*by))
	return flog2(r) / 2
}

// setupPoint rasterises a point: a square of the point size centred on the
// vertex, covering the pixels whose centres lie inside [c - s/2, c + s/2).
func (e *Engine) setupPoint(v *vertex) error {
	if e.gl.setupDrop {
		return nil
	}
	e.flushJobs()
	p := &e.px
	size := math.Max(1, math.Min(v.psz, 512))
	cx, cy := snap(v.win[0]), snap(v.win[1])
	if p.ptClipOn {
		// Point clipping window at setup (2654h/2658h, s10): the point is
		// dropped when its centre lies outside.
		x, y := int(cx>>4), int(cy>>4)
		if x < p.ptClip[0] || y < p.ptClip[1] || x > p.ptClip[2] || y > p.ptClip[3] {
			return nil
		}
	}
	e.stats.Points++
	if err := e.step(int(size*size) / 64); err != nil {
		return err
	}
	s16 := int64(math.Floor(size*16 + 0.5))
	l16, t16 := cx-s16/2, cy-s16/2
	x0, y0 := int((l16-8+15)>>4), int((t16-8+15)>>4)
	x1, y1 := int((l16+s16-8+15)>>4), int((t16+s16-8+15)>>4) // exclusive
	r := e.clipRect()
	x0, y0, x1, y1 = max(x0, r.X0), max(y0, r.Y0), min(x1, r.X1), min(y1, r.Y1)
	var f frag
	f.z, f.w = v.win[2], v.win[3]
	for k := 0; k < 4; k++ {
		f.col[k] = expand(uint32(v.col[0][k]), 8)
		f.spec[k] = expand(uint32(v.spec[0][k]), 8)
	}
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			f.x, f.y = x, y
			// Sprite coordinates: s 0..1 left to right, t 0..1 top to
			// bottom (P17; GL's rule with its y-up window).
			su := float64(int64(x)*16+8-l16) / float64(s16)
			sv := float64(int64(y)*16+8-t16) / float64(s16)
			for u := 0; u < p.ntex; u++ {
				if p.sprite {
					f.uv[u] = [2]float64{su, sv}
				} else {
					f.uv[u] = v.tex[p.tex[u].set]
				}
			}
			if p.aaPoint {
				f.smode, f.special = spAAPoint, [2]float64{su, sv}
			}
			e.shade(&f)
		}
	}
	e.stats.Pixels += f.count
	return nil
}

// setupLine rasterises a line: the pixels of each column (x-major) or row
// (y-major) whose centres lie within half the line width (265Ch D[12:0],
// 9.4) of the line, from the first endpoint up to but excluding the last
// (including it when RGPLLPixel, 260Ch D28). Anti-aliased lines widen by a
// pixel on each side and take their coverage from the AA-line texture at
// v = 1/2 + d * RGRCpHalf / 2, d the signed distance from the centre line.
func (e *Engine) setupLine(a, b *vertex) error {
	if e.gl.setupDrop {
		return nil
	}
	e.flushJobs()
	p := &e.px
	e.stats.Lines++
	x0, y0 := float64(snap(a.win[0]))/16, float64(snap(a.win[1]))/16
	x1, y1 := float64(snap(b.win[0]))/16, float64(snap(b.win[1]))/16
	dx, dy := x1-x0, y1-y0
	if dx == 0 && dy == 0 {
		return nil
	}
	width := p.lineWidth
	if width <= 0 {
		width = 1
	}
	half := width / 2
	if p.aaLine {
		half++
	}
	xMajor := math.Abs(dx) >= math.Abs(dy)
	ma0, ma1, mi0, mi1 := x0, x1, y0, y1
	if !xMajor {
		ma0, ma1, mi0, mi1 = y0, y1, x0, x1
	}
	dir := 1.0
	if ma1 < ma0 {
		dir = -1
	}
	length := math.Sqrt(dx*dx + dy*dy)
	if err := e.step(int(math.Min(length*(half*2+1), 1<<24)) / 64); err != nil {
		return err
	}
	r := e.clipRect()
	var ca, cb [8]int64
	for k := 0; k < 8; k++ {
		ca[k], cb[k] = colorUnits(a, 0, k), colorUnits(b, 0, k)
	}
	persp := p.persp && p.ntex > 0
	var f frag
	// Iterate the major-axis pixel centres from the first endpoint.
	start := math.Ceil(math.Min(ma0, ma1) - 0.5)
	end := math.Floor(math.Max(ma0, ma1) - 0.5)
	for m := start; m <= end; m++ {
		c := m + 0.5
		t := (c - ma0) / (ma1 - ma0)
		if t < 0 || t > 1 || (t == 1 && !p.lastPixel) {
			continue
		}
		_ = dir
		mid := mi0 + t*(mi1-mi0)
		lo := math.Ceil(mid - half - 0.5)
		hi := math.Ceil(mid + half - 0.5) // exclusive
		for n := lo; n < hi; n++ {
			x, y := int(m), int(n)
			if !xMajor {
				x, y = int(n), int(m)
			}
			if x < r.X0 || y < r.Y0 || x >= r.X1 || y >= r.Y1 {
				continue
			}
			f.x, f.y = x, y
			for k := 0; k < 4; k++ {
				f.col[k] = unitTo12(k, ca[k]+int64(math.Round(t*float64(cb[k]-ca[k]))))
				f.spec[k] = unitTo12(4+k, ca[4+k]+int64(math.Round(t*float64(cb[4+k]-ca[4+k]))))
			}
			f.z = qadd(a.win[2], qmul(t, qsub(b.win[2], a.win[2])))
			f.w = qadd(a.win[3], qmul(t, qsub(b.win[3], a.win[3])))
			for u := 0; u < p.ntex; u++ {
				s := p.tex[u].set
				for k := 0; k < 2; k++ {
					if persp {
						ua, ub := qmul(a.tex[s][k], a.win[3]), qmul(b.tex[s][k], b.win[3])
						f.uv[u][k] = qdiv(qadd(ua, qmul(t, qsub(ub, ua))), f.w)
					} else {
						f.uv[u][k] = qadd(a.tex[s][k], qmul(t, qsub(b.tex[s][k], a.tex[s][k])))
					}
				}
			}
			f.smode = spNone
			if p.aaLine {
				// Signed distance of the pixel centre from the line.
				d := ((float64(x)+0.5-x0)*dy - (float64(y)+0.5-y0)*dx) / length
				f.smode, f.special = spAALine, [2]float64{0.5, 0.5 + d*p.rcpHalf/2}
			} else if p.lineStipple {
				cnt := math.Abs(c - ma0)
				f.smode, f.special = spLineStipple, [2]float64{(e.lineCount + math.Floor(cnt)) * p.lnRepeat, 0.5}
			}
			e.shade(&f)
		}
	}
	if p.lineStipple {
		e.lineCount += math.Floor(math.Abs(ma1 - ma0))
	}
	e.stats.Pixels += f.count
	return nil
}
