package glamo

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	hg "github.com/retrogl/retrogl/hal/glamo"
)

// The software path: OES_matrix_palette needs a blend of palette matrices
// per vertex, which the G/L engine (one Mwv, one T1) cannot do. The driver
// runs driver/swtnl on the CPU (GL ES 1.1 float arithmetic, not the chip's
// s[7].16) and sends the window-space primitives through the streams with
// RGXScrCoor set: position (x, y, z, 1/w) for the perspective-correct
// setup, RGBA8 colour, the fog factor in the specular stream's fourth byte
// for the pixel engine's vertex-fog mode, s/q and t/q per unit and the point
// size. Clipping, culling, lighting, flat shading and two-sided colours are
// already applied by swtnl.

// swVertexSize is the byte size of one software-path vertex: position
// (16), colour (4), specular/fog (4), two coordinate pairs (16), size (4).
const swVertexSize = 44

func (c *Context) drawSoftware(st *driver.State, dc *driver.DrawCall) error {
	if c.tnl == nil {
		c.tnl = &swtnl.TnL{}
	}
	x0, y0, x1, y1, ok := c.scissor(st)
	if !ok {
		return nil
	}
	mesh, err := c.tnl.Run(st, dc)
	if err != nil {
		return fmt.Errorf("glamo3365: software T&L: %w", err)
	}
	m := &c.em
	c.surface(st)
	c.setScissor(x0, y0, x1, y1)
	var units []int
	for u := 0; u < 2; u++ {
		if st.Units[u].Texture != nil {
			units = append(units, u)
		}
	}
	en0, en1 := uint32(0), uint32(0)
	en1, err = c.bindTextures(st, units, en1)
	if err != nil {
		return err
	}
	if len(units) > 0 {
		en0 |= hg.Pack("EGEn0", "TXMP", true, "TXPP", true, "TXNUM", len(units))
		en1 |= hg.Pack("EGEn1", "TXBL", true)
	}
	if st.Fog.Enabled {
		fg := &st.Fog
		en0 |= hg.Pack("EGEn0", "FOG", true)
		m.set("EGFogCfg", hg.Pack("EGFogCfg", "MODE", "VERTEX", "R", hg.Quant(float64(fg.Color[0]), 8),
			"G", hg.Quant(float64(fg.Color[1]), 8), "B", hg.Quant(float64(fg.Color[2]), 8)))
	}
	m.set("RGXFront", hg.Pack("RGXFront", "SCRCOOR", true, "PTSIZESEL", true))
	m.set("RGXLight", 0)
	sprite := st.Point.Sprite
	if sprite && keepsCoords(st) && len(mesh.Points) > 0 {
		mesh.Triangles = spriteQuads(st, mesh.Points, c.drv.caps.Limits.AliasedPointSizeRange)
		mesh.Points = nil
		sprite = false
	}
	setup := hg.Pack("RGPSetup", "SHADE", "GOURAUD", "PTSPRITE", sprite)
	if st.PolygonOffset.Fill && (st.PolygonOffset.Factor != 0 || st.PolygonOffset.Units != 0) {
		setup |= hg.Pack("RGPSetup", "POLYOFFSET", true)
		m.set("RGXSlopeCoeff", f24(st.PolygonOffset.Factor))
		m.set("RGXResCoeff", f24(st.PolygonOffset.Units/65535))
	}
	m.set("RGPSetup", setup)
	m.set("RGXClip", hg.Pack("RGXClip", "USEDEFSEL", true))
	m.set("EGPrimSet", hg.Pack("EGPrimSet", "FILL", "SOLID", "CCWFILL", "SOLID", "PARMODE", "STRIP_NEW_FAN_NEW",
		"T0FROM", "A", "T1FROM", "B"))
	m.set("RGPLine", hg.Pack("RGPLine", "WIDTH", hg.Fix9_4.Encode(float64(st.LineWidth))))
	en0, en1 = c.pixelOps(st, en0, en1)
	m.set("EGEn0", en0)
	m.set("EGEn1", en1)
	for _, part := range []struct {
		verts []swtnl.Vertex
		prim  string
	}{{mesh.Triangles, "TRIANGLES"}, {mesh.Lines, "LINES"}, {mesh.Points, "POINTS"}} {
		if len(part.verts) == 0 {
			continue
		}
		if err := c.swList(part.verts, part.prim, units); err != nil {
			return err
		}
	}
	return c.maybeFlush()
}

// swList uploads window-space vertices and fires them as one list.
func (c *Context) swList(vs []swtnl.Vertex, prim string, units []int) error {
	if len(vs) >= 1<<20 {
		return fmt.Errorf("glamo3365: %d vertices in one software list", len(vs))
	}
	m := &c.em
	buf := make([]byte, len(vs)*swVertexSize)
	h := float32(c.cfg.Height)
	q8 := func(v float32) byte { return byte(hg.Quant(float64(v), 8)) }
	for i := range vs {
		v := &vs[i]
		o := buf[i*swVertexSize:]
		for k, x := range []float32{v.Win[0], h - v.Win[1], v.Win[2], v.Win[3]} {
			binary.LittleEndian.PutUint32(o[4*k:], math.Float32bits(x))
		}
		o[16], o[17], o[18], o[19] = q8(v.Color[0]), q8(v.Color[1]), q8(v.Color[2]), q8(v.Color[3])
		o[23] = q8(v.Fog)
		for k, u := range units {
			t := v.Tex[u]
			s, tt := t[0], t[1]
			if t[3] != 0 && t[3] != 1 {
				s, tt = s/t[3], tt/t[3]
			}
			binary.LittleEndian.PutUint32(o[24+8*k:], math.Float32bits(s))
			binary.LittleEndian.PutUint32(o[28+8*k:], math.Float32bits(tt))
		}
		binary.LittleEndian.PutUint32(o[40:], math.Float32bits(v.PointSize))
	}
	addr, err := c.up.Upload(buf, 4)
	if err != nil {
		return fmt.Errorf("glamo3365: vertex data: %w", err)
	}
	type stream struct {
		arr, dim, typ string
		off           uint32
	}
	ss := []stream{{"POSITION", "4D", "FLOAT", 0}, {"DIFFUSE", "4D", "UBYTE", 16}, {"SPECULAR", "4D", "UBYTE", 20}}
	for k := range units {
		ss = append(ss, stream{[]string{"TEXA", "TEXB"}[k], "2D", "FLOAT", 24 + 8*uint32(k)})
	}
	ss = append(ss, stream{"PSIZE", "1D", "FLOAT", 40})
	for n, s := range ss {
		m.set(fmt.Sprintf("MGVStrm%dCtl", n), hg.Pack("MGVStrm0Ctl", "STRIDE", swVertexSize, "DIM", s.dim, "TYPE", s.typ, "ARRAY", s.arr))
		m.set(fmt.Sprintf("MGVStrm%dBAS", n), addr+s.off)
	}
	m.set("MGVStreamActive", 1<<uint(len(ss))-1)
	m.set("MGVStrmCfg", hg.Pack("MGVStrmCfg", "LAST", len(ss)-1, "ABGR", true))
	m.set("RGPVDTexSet", 0)
	m.set("EGPDTYPE", hg.Pack("EGPDTYPE", "TYPE", prim))
	m.set("RGPVDNum", hg.Pack("RGPVDNum", "COUNT", len(vs)))
	m.kick("MGBufCBMFire", hg.Pack("MGBufCBMFire", "MODE", "BUFFER"))
	m.kick("MGBufCMSFire", hg.Pack("MGBufCMSFire", "MODE", "BUFFER"))
	return nil
}

// keepsCoords reports whether an enabled texture unit keeps its vertex
// coordinates on a point sprite (GL_COORD_REPLACE_OES off). The chip's
// sprite mode replaces every unit's coordinates (260Ch D14), so such
// sprites take the software path (spriteQuads): whether another unit
// replaces or none does (seed 138: sprites on, no unit replacing, drew
// sprite coordinates instead of the vertex's).
func keepsCoords(st *driver.State) bool {
	for u := 0; u < 2; u++ {
		if st.Units[u].Texture != nil && !st.Units[u].CoordReplace {
			return true
		}
	}
	return false
}

// spriteQuads turns point sprites into two triangles each: the square of
// the point's size (clamped to the chip's range) centred on its window
// position, as the chip's sprite covers it (sim/glamo setupPoint); units
// with COORD_REPLACE take the sprite coordinates (s 0 to 1 left to right,
// t 0 to 1 top to bottom, OES_point_sprite), the others keep the vertex's.
func spriteQuads(st *driver.State, ps []swtnl.Vertex, lim [2]float32) []swtnl.Vertex {
	out := make([]swtnl.Vertex, 0, 6*len(ps))
	for i := range ps {
		v := &ps[i]
		h := max(lim[0], min(lim[1], v.PointSize)) / 2
		var q [4]swtnl.Vertex
		// Lower left, lower right, upper right, upper left (y up).
		for k, d := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			q[k] = *v
			q[k].Win[0] += d[0] * h
			q[k].Win[1] += d[1] * h
			for u := 0; u < 2; u++ {
				if st.Units[u].Texture != nil && st.Units[u].CoordReplace {
					q[k].Tex[u] = [4]float32{(d[0] + 1) / 2, (1 - d[1]) / 2, 0, 1}
				}
			}
		}
		out = append(out, q[0], q[1], q[2], q[0], q[2], q[3])
	}
	return out
}
