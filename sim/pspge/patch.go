package pspge

import (
	"fmt"

	ge "github.com/retrogl/retrogl/hal/pspge"
	"github.com/retrogl/retrogl/sim/device"
)

// Patches (BEZIER 05, SPLINE 06, seed L57-73) are tessellated on the GE
// into a grid of vertices that then go through the usual transform,
// lighting and rasterisation. Decisions where the seed is silent, each
// tested:
//   - The control points are ucount x vcount vertices at VADDR (through the
//     index buffer when VTYPE has indices), u varying fastest.
//   - PSUB S and T (&0x7F, 0 taken as 1) divide each Bezier patch, or each
//     spline segment, into S x T quads.
//   - Positions, normals, colours and texture coordinates are evaluated
//     with the same basis. Without VTYPE texture coordinates a vertex gets
//     (u, v) = its patch parameters, each patch spanning [0, 1] offset by
//     its index; without VTYPE normals the normal is dP/du x dP/dv.
//   - A quad (i,j)-(i+1,j+1) becomes triangles (i,j),(i+1,j),(i,j+1) and
//     (i+1,j),(i+1,j+1),(i,j+1) with PFACE 0, the reverse order with PFACE
//     1; PPRIM 1 draws the grid lines and 2/3 its points.
//   - Splines are uniform cubic B-splines; an "open" end repeats its knot
//     four times so the curve reaches the end control point, a "close" end
//     continues the uniform knots (edge codes: bit 0 = start open, bit 1 =
//     end open).
//   - Culling applies to patch triangles only when both BCE and PCE are
//     set.
//   - Afterwards VADDR (or IADDR) advances past the control points, as
//     after PRIM.

// maxPatchVertices bounds one patch command's tessellation.
const maxPatchVertices = 1 << 20

// psample is one parameter value along an axis: the first control point it
// reads, the four basis weights, their derivatives and the parameter.
type psample struct {
	start int
	w, dw [4]float32
	param float32
}

func bernstein(t float32) (w, dw [4]float32) {
	s := 1 - t
	w = [4]float32{s * s * s, 3 * t * s * s, 3 * t * t * s, t * t * t}
	dw = [4]float32{-3 * s * s, 3*s*s - 6*t*s, 6*t*s - 3*t*t, 3 * t * t}
	return
}

// bezierAxis returns the samples of each patch along one axis of n control
// points (n = 3k+1) with sub subdivisions.
func bezierAxis(n, sub int) [][]psample {
	var out [][]psample
	for p := 0; p+3 < n; p += 3 {
		row := make([]psample, sub+1)
		for i := 0; i <= sub; i++ {
			t := float32(i) / float32(sub)
			w, dw := bernstein(t)
			row[i] = psample{start: p, w: w, dw: dw, param: float32(p/3) + t}
		}
		out = append(out, row)
	}
	return out
}

// splineAxis returns the samples along one axis of a cubic B-spline of n
// control points with the given edge code.
func splineAxis(n, sub int, edges uint32) []psample {
	knots := make([]float32, n+4)
	for i := range knots {
		knots[i] = float32(i - 3)
	}
	segs := n - 3
	if edges&1 != 0 {
		for i := 0; i < 3; i++ {
			knots[i] = 0
		}
	}
	if edges&2 != 0 {
		for i := n + 1; i < n+4; i++ {
			knots[i] = float32(segs)
		}
	}
	var out []psample
	for sg := 0; sg < segs; sg++ {
		for i := 0; i <= sub; i++ {
			if i == sub && sg != segs-1 {
				continue
			}
			u := float32(sg) + float32(i)/float32(sub)
			span := sg + 3 // knots[span] <= u < knots[span+1]
			w, dw := bsplineBasis(knots, span, u)
			out = append(out, psample{start: span - 3, w: w, dw: dw, param: u})
		}
	}
	return out
}

// bsplineBasis evaluates the four cubic basis functions that are non-zero
// on knot span [knots[span], knots[span+1]) at u (Cox-de Boor), and their
// derivatives.
func bsplineBasis(knots []float32, span int, u float32) (w, dw [4]float32) {
	basis := func(deg int) [4]float32 {
		var n [4]float32
		n[0] = 1
		var left, right [4]float32
		for j := 1; j <= deg; j++ {
			left[j] = u - knots[span+1-j]
			right[j] = knots[span+j] - u
			saved := float32(0)
			for r := 0; r < j; r++ {
				den := right[r+1] + left[j-r]
				var tmp float32
				if den != 0 {
					tmp = n[r] / den
				}
				n[r] = saved + right[r+1]*tmp
				saved = left[j-r] * tmp
			}
			n[j] = saved
		}
		return n
	}
	w = basis(3)
	n2 := basis(2)
	// Derivative of a cubic B-spline basis from the quadratic ones.
	for i := 0; i < 4; i++ {
		var a, b float32
		if i > 0 {
			if den := knots[span-3+i+3] - knots[span-3+i]; den != 0 {
				a = 3 * n2[i-1] / den
			}
		}
		if i < 3 {
			if den := knots[span-3+i+4] - knots[span-3+i+1]; den != 0 {
				b = 3 * n2[i] / den
			}
		}
		dw[i] = a - b
	}
	return
}

func (g *GE) bezier(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	nu, nv := int(w&0xFF), int(w>>8&0xFF)
	if nu < 4 || nv < 4 || (nu-1)%3 != 0 || (nv-1)%3 != 0 {
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("Bezier patch %dx%d: counts must be 3n+1, at least 4", nu, nv))
	}
	su, sv := g.psub()
	return g.patch(x, pc, w, nu, nv, bezierAxis(nu, su), bezierAxis(nv, sv))
}

func (g *GE) spline(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	nu, nv := int(w&0xFF), int(w>>8&0xFF)
	if nu < 4 || nv < 4 {
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("spline %dx%d: at least 4x4 control points", nu, nv))
	}
	su, sv := g.psub()
	return g.patch(x, pc, w, nu, nv, [][]psample{splineAxis(nu, su, w>>16&3)}, [][]psample{splineAxis(nv, sv, w>>18&3)})
}

func (g *GE) psub() (int, int) {
	p := g.regs[ge.PSUB]
	return max(int(p&0x7F), 1), max(int(p>>8&0x7F), 1)
}

// patch tessellates the control points into grids, one per (u, v) patch,
// and draws them.
func (g *GE) patch(x *device.Exec, pc, w uint32, nu, nv int, us, vs [][]psample) (uint32, bool, error) {
	vt := ge.ParseVType(g.regs[ge.VTYPE])
	if why := checkVType(vt); why != "" {
		return 0, false, x.Fault(pc, uint64(w), why)
	}
	total := 0
	for _, a := range us {
		for _, b := range vs {
			total += len(a) * len(b)
		}
	}
	if total > maxPatchVertices {
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("patch tessellates to %d vertices (limit %d)", total, maxPatchVertices))
	}
	if err := x.Step(total / 16); err != nil {
		return 0, false, x.Fault(pc, uint64(w), err.Error())
	}
	count := nu * nv
	idx, maxI, err := g.readIndices(x, pc, w, vt, count)
	if err != nil {
		return 0, false, err
	}
	l := vt.Layout()
	vb, ok := g.mem.Slice(g.vaddr, uint32((maxI+1)*l.Size))
	if !ok {
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("control points %#08x+%d outside memory", g.vaddr, (maxI+1)*l.Size))
	}
	ctrl := make([]vertex, count)
	for i, vi := range idx {
		g.decodeVertex(vt, &l, vb[vi*l.Size:], &ctrl[i])
	}
	if vt.Index == ge.FmtNone {
		g.vaddr += uint32(count * l.Size)
	} else {
		g.iaddr += uint32(count << (vt.Index - 1))
	}
	d, err := g.newDraw(x, pc, w, vt.Through)
	if err != nil {
		return 0, false, err
	}
	d.cull = d.cull && g.regs[ge.PCE]&1 != 0
	var t tnl
	if !vt.Through {
		g.setupTnL(vt, &t)
	}
	pprim := g.regs[ge.PPRIM] & 3
	ccw := g.regs[ge.PFACE]&1 != 0
	for _, ua := range us {
		for _, va := range vs {
			cols := len(ua)
			grid := make([]vertex, len(ua)*len(va))
			for j, sv := range va {
				for i, su := range ua {
					v := &grid[j*cols+i]
					evalPatch(v, ctrl, nu, su, sv, vt)
					if !vt.Through {
						g.transform(&t, v)
					}
				}
			}
			if vt.Through {
				for i := range grid {
					g.throughScreen(&grid[i])
					if d.tex != nil {
						grid[i].s /= d.w0
						grid[i].t /= d.h0
					}
				}
			}
			at := func(i, j int) *vertex { return &grid[j*cols+i] }
			for j := 0; j < len(va); j++ {
				for i := 0; i < cols; i++ {
					switch pprim {
					case 0:
						if i+1 < cols && j+1 < len(va) {
							if ccw {
								d.triangle(at(i, j), at(i, j+1), at(i+1, j))
								d.triangle(at(i+1, j), at(i, j+1), at(i+1, j+1))
							} else {
								d.triangle(at(i, j), at(i+1, j), at(i, j+1))
								d.triangle(at(i+1, j), at(i+1, j+1), at(i, j+1))
							}
						}
					case 1:
						if i+1 < cols {
							d.line(at(i, j), at(i+1, j))
						}
						if j+1 < len(va) {
							d.line(at(i, j), at(i, j+1))
						}
					default:
						d.point(at(i, j))
					}
				}
			}
		}
	}
	g.flush(d)
	if err := x.Step(d.pixels / pixelsPerStep); err != nil {
		return 0, false, x.Fault(pc, uint64(w), err.Error())
	}
	return pc + 4, false, nil
}

// evalPatch evaluates the control points at (su, sv).
func evalPatch(v *vertex, ctrl []vertex, nu int, su, sv psample, vt ge.VType) {
	*v = vertex{q: 1, fogd: 1, invW: 1}
	var du, dv [3]float32
	for b := 0; b < 4; b++ {
		for a := 0; a < 4; a++ {
			c := &ctrl[(sv.start+b)*nu+su.start+a]
			wt := float32(su.w[a] * sv.w[b])
			wu := float32(su.dw[a] * sv.w[b])
			wv := float32(su.w[a] * sv.dw[b])
			for k := 0; k < 3; k++ {
				v.pos[k] += float32(wt * c.pos[k])
				v.nrm[k] += float32(wt * c.nrm[k])
				du[k] += float32(wu * c.pos[k])
				dv[k] += float32(wv * c.pos[k])
			}
			for k := 0; k < 4; k++ {
				v.color[k] += float32(wt * c.color[k])
			}
			for k := 0; k < 2; k++ {
				v.uv[k] += float32(wt * c.uv[k])
			}
			for k := 0; k < 8; k++ {
				v.wts[k] += float32(wt * c.wts[k])
			}
		}
	}
	if vt.TexCoord == ge.FmtNone {
		v.uv = [2]float32{su.param, sv.param}
	}
	if vt.Normal == ge.FmtNone {
		v.nrm = [3]float32{
			float32(du[1]*dv[2]) - float32(du[2]*dv[1]),
			float32(du[2]*dv[0]) - float32(du[0]*dv[2]),
			float32(du[0]*dv[1]) - float32(du[1]*dv[0]),
		}
	}
}
