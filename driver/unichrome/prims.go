package unichrome

import (
	"math"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// lines draws line segments: width 1 natively (no last pixel, as GL's
// diamond-exit rule), wider ones as two triangles per segment, widened by
// the width along the minor axis (GL ES 1.1 §3.4.2, non-antialiased).
func (c *Context) lines(st *driver.State, ds *drawSetup, ls []swtnl.Vertex, shade uc.Shade) {
	width := float32(math.Round(float64(min(max(st.LineWidth, 1), MaxPointSize))))
	c.verts = c.verts[:0]
	if width <= 1 {
		for i := range ls {
			c.vertex(ds, &ls[i], [2]float32{})
		}
		c.emit(ds, uc.PrimLine, shade)
		return
	}
	h := width / 2
	for i := 0; i+1 < len(ls); i += 2 {
		a, b := ls[i], ls[i+1]
		dx, dy := b.Win[0]-a.Win[0], b.Win[1]-a.Win[1]
		var ox, oy float32
		if math.Abs(float64(dx)) >= math.Abs(float64(dy)) {
			oy = h
		} else {
			ox = h
		}
		q := [4]swtnl.Vertex{a, b, b, a}
		off := [4][2]float32{{-ox, -oy}, {-ox, -oy}, {ox, oy}, {ox, oy}}
		for k := range q {
			q[k].Win[0] += off[k][0]
			q[k].Win[1] += off[k][1]
		}
		for _, k := range []int{0, 1, 2, 0, 2, 3} {
			c.vertex(ds, &q[k], [2]float32{})
		}
	}
	c.emit(ds, uc.PrimTri, uc.ShadeGouraud)
}

// points draws points: size 1 natively, larger ones and sprites as
// squares of two triangles; sprite coordinates run s 0 -> 1 left to right
// and t 0 -> 1 top to bottom (OES_point_sprite).
func (c *Context) points(st *driver.State, ds *drawSetup, ps []swtnl.Vertex) {
	c.verts = c.verts[:0]
	var native []int
	for i := range ps {
		v := ps[i]
		size := pointSquare(&v, ds.sprite)
		if size <= 1 && !ds.sprite {
			ps[i] = v
			native = append(native, i)
			continue
		}
		h := size / 2
		var q [4]swtnl.Vertex
		// Corners in GL window coordinates (y up): top-left, top-right,
		// bottom-right, bottom-left.
		corner := [4][2]float32{{-h, h}, {h, h}, {h, -h}, {-h, -h}}
		spr := [4][2]float32{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
		for k := range q {
			q[k] = v
			q[k].Win[0] += corner[k][0]
			q[k].Win[1] += corner[k][1]
		}
		for _, k := range []int{0, 1, 2, 0, 2, 3} {
			c.vertex(ds, &q[k], spr[k])
		}
	}
	c.emit(ds, uc.PrimTri, uc.ShadeGouraud)
	for _, i := range native {
		c.vertex(ds, &ps[i], [2]float32{})
	}
	c.emit(ds, uc.PrimPoint, uc.ShadeGouraud)
}

// pointSquare returns the side of the square point v covers and moves v
// to the square's centre: sizes clamp to [1, MaxPointSize] and round to
// whole pixels unless the point is a sprite; the centre sits on a pixel
// centre for odd sizes, a pixel corner for even ones (GL ES 1.1 §3.3.1).
func pointSquare(v *swtnl.Vertex, sprite bool) float32 {
	size := min(max(v.PointSize, 1), MaxPointSize)
	isize := math.Max(1, math.Round(float64(size)))
	if !sprite {
		size = float32(isize)
	}
	for k := 0; k < 2; k++ {
		if int(isize)%2 == 1 {
			v.Win[k] = float32(math.Floor(float64(v.Win[k]))) + 0.5
		} else {
			v.Win[k] = float32(math.Floor(float64(v.Win[k]) + 0.5))
		}
	}
	return size
}

// drawTexture draws an OES_draw_texture rectangle: window-aligned, depth
// n + z(f - n), the current colour, texture coordinates from each enabled
// unit's crop rectangle.
func (c *Context) drawTexture(st *driver.State, r *driver.DrawTexRect) error {
	if needsFallback(st) != "" {
		return c.drawTextureFallback(st, r)
	}
	ds, err := c.setup(st, driver.PrimTriangles)
	if err != nil || ds == nil {
		return err
	}
	if r.W <= 0 || r.H <= 0 {
		return nil
	}
	ds.fog, ds.mask = false, ds.mask&^uc.MaskCs
	n, f := st.DepthRange[0], st.DepthRange[1]
	z := n + clampf(r.Z)*(f-n)
	var q [4]swtnl.Vertex
	xy := [4][2]float32{{r.X, r.Y + r.H}, {r.X + r.W, r.Y + r.H}, {r.X + r.W, r.Y}, {r.X, r.Y}}
	for k := range q {
		q[k].Win = [4]float32{xy[k][0], xy[k][1], z, 1}
		q[k].Color = st.CurrentColor
		for _, u := range ds.units {
			t := st.Units[u].Texture
			crop := t.Crop
			w, h := float32(t.Levels[0].Width), float32(t.Levels[0].Height)
			fx, fy := (xy[k][0]-r.X)/r.W, (xy[k][1]-r.Y)/r.H
			q[k].Tex[u] = [4]float32{(float32(crop[0]) + fx*float32(crop[2])) / w, (float32(crop[1]) + fy*float32(crop[3])) / h, 0, 1}
		}
	}
	c.polygonOffset(st, false)
	c.verts = c.verts[:0]
	for _, k := range []int{0, 1, 2, 0, 2, 3} {
		c.vertex(ds, &q[k], [2]float32{})
	}
	c.emit(ds, uc.PrimTri, uc.ShadeGouraud)
	return nil
}

// Clear implements driver.Context: a solid-shaded rectangle over the clip
// rectangle (the scissor box) writes the colour under the colour mask, Z
// (ZW without the Z test) under the depth mask, and the stencil value with
// an always-passing REPLACE under the stencil write mask.
func (c *Context) Clear(st *driver.State, mask driver.ClearMask, color [4]float32, depth float32, stencil int) error {
	if err := c.usable(); err != nil {
		return err
	}
	cmask := [4]bool{}
	if mask&driver.ClearColor != 0 {
		cmask = st.ColorMask
	}
	if !c.surface(st, cmask) {
		return nil
	}
	cm := &c.cmd
	var en uint32
	if cmask[0] || cmask[1] || cmask[2] || cmask[3] {
		en |= enCW
	}
	if cmask[3] {
		en |= enAW
	}
	if mask&driver.ClearDepth != 0 && c.cfg.DepthBits > 0 && st.DepthMask {
		en |= enZW
	}
	if mask&driver.ClearStencil != 0 && c.cfg.StencilBits > 0 && st.Stencil[0].WriteMask&0xFF != 0 {
		en |= enST
		cm.set(grpAttr, uc.AttrStencilRef, uint32(stencil&0xFF)<<16|0xFF<<8|st.Stencil[0].WriteMask&0xFF)
		cm.set(grpAttr, uc.AttrStencilMode, 7<<16|2) // ALWAYS, zpass REPLACE
	}
	if en == 0 {
		return nil
	}
	rgb, a := pack8(color)
	cm.set(grpAttr, uc.AttrSolidColor, rgb)
	cm.set(grpAttr, uc.AttrPixGC, a)
	cm.set(grpAttr, uc.AttrROP, 12<<8|0xFF)
	c.polygonOffset(st, false)
	x0, x1 := float32(0), float32(c.cfg.Width)
	y0, y1 := float32(0), float32(c.cfg.Height)
	z := clampf(depth)
	ds := &drawSetup{en: en, mask: uc.MaskX | uc.MaskY | uc.MaskZ}
	c.verts = append(c.verts[:0],
		fl(x0), fl(y0), fl(z), fl(x1), fl(y0), fl(z), fl(x0), fl(y1), fl(z),
		fl(x1), fl(y0), fl(z), fl(x1), fl(y1), fl(z), fl(x0), fl(y1), fl(z))
	c.emit(ds, uc.PrimTri, uc.ShadeSolid)
	return nil
}

// drawTextureFallback draws an OES_draw_texture rectangle whose units
// need the fallback, as two window-space triangles (no fog).
func (c *Context) drawTextureFallback(st *driver.State, r *driver.DrawTexRect) error {
	if r.W <= 0 || r.H <= 0 {
		return nil
	}
	n, f := st.DepthRange[0], st.DepthRange[1]
	z := n + clampf(r.Z)*(f-n)
	var q [4]swtnl.Vertex
	xy := [4][2]float32{{r.X, r.Y}, {r.X + r.W, r.Y}, {r.X + r.W, r.Y + r.H}, {r.X, r.Y + r.H}}
	for k := range q {
		q[k].Win = [4]float32{xy[k][0], xy[k][1], z, 1}
		q[k].Clip = [4]float32{0, 0, 0, 1}
		q[k].Color, q[k].Fog = st.CurrentColor, 1
		for u := range st.Units {
			t := st.Units[u].Texture
			if t == nil {
				continue
			}
			crop := t.Crop
			w, h := float32(t.Levels[0].Width), float32(t.Levels[0].Height)
			fx, fy := (xy[k][0]-r.X)/r.W, (xy[k][1]-r.Y)/r.H
			q[k].Tex[u] = [4]float32{(float32(crop[0]) + fx*float32(crop[2])) / w, (float32(crop[1]) + fy*float32(crop[3])) / h, 0, 1}
		}
	}
	m := &swtnl.Mesh{Triangles: []swtnl.Vertex{q[0], q[1], q[2], q[0], q[2], q[3]}}
	noOffset := *st
	noOffset.PolygonOffset.Fill = false
	return c.fallbackMesh(&noOffset, m, false)
}
