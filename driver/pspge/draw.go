package pspge

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/retrogl/retrogl/driver"
	ge "github.com/retrogl/retrogl/hal/pspge"
)

// vtype is the one vertex layout the driver uploads: 8888 colour and float
// position (texture coordinates and normals join it as features land).
var vtype = ge.VType{Color: ge.Color8888, Pos: ge.FmtFloat}

// primOf maps GL primitives to PRIM types (seed L46-55).
var primOf = map[driver.Prim]uint32{
	driver.PrimTriangles: 3, driver.PrimTriangleStrip: 4, driver.PrimTriangleFan: 5,
}

// compareOf maps GL comparisons to the GE codes (seed L852-863).
var compareOf = [8]uint32{
	driver.CompareNever: 0, driver.CompareLess: 4, driver.CompareEqual: 2, driver.CompareLEqual: 5,
	driver.CompareGreater: 6, driver.CompareNotEqual: 3, driver.CompareGEqual: 7, driver.CompareAlways: 1,
}

// Draw implements driver.Context.
func (c *Context) Draw(st *driver.State, dc *driver.DrawCall) error {
	if err := c.usable(); err != nil {
		return err
	}
	ptype, ok := primOf[dc.Prim]
	if !ok || dc.DrawTexture != nil {
		f := driver.FeaturePoints
		if dc.Prim != driver.PrimPoints {
			f = driver.FeatureLines
		}
		if dc.DrawTexture != nil {
			f = driver.FeatureDrawTexture
		}
		return &driver.Unsupported{Backend: "pspge", Feature: f, Why: c.drv.caps.WhyMissing(f)}
	}
	if st.CullEnabled && st.CullFace == driver.FaceFrontAndBack {
		return nil
	}
	c.surface()
	if !c.scissor(st) {
		return nil
	}
	c.raster(st)
	c.matrices(st)
	return c.vertices(st, dc, ptype)
}

// raster emits the viewport, depth and culling state.
func (c *Context) raster(st *driver.State) {
	l := &c.list
	v := st.Viewport
	ox, oy := float32(2048-c.cfg.Width/2), float32(2048-c.cfg.Height/2)
	l.set(ge.XSCALE, ge.F24(float32(v.W)/2))
	l.set(ge.YSCALE, ge.F24(-float32(v.H)/2))
	l.set(ge.XPOS, ge.F24(ox+float32(v.X)+float32(v.W)/2))
	l.set(ge.YPOS, ge.F24(oy+float32(c.cfg.Height)-float32(v.Y)-float32(v.H)/2))
	n, f := st.DepthRange[0]*65535, st.DepthRange[1]*65535
	l.set(ge.ZSCALE, ge.F24((f-n)/2))
	l.set(ge.ZPOS, ge.F24((f+n)/2))

	if st.DepthTest && c.cfg.DepthBits > 0 {
		l.set(ge.ZTE, 1)
		l.set(ge.ZTST, compareOf[st.DepthFunc])
		zmsk := uint32(1)
		if st.DepthMask {
			zmsk = 0
		}
		l.set(ge.ZMSK, zmsk)
	} else {
		l.set(ge.ZTE, 0)
	}
	if st.CullEnabled {
		l.set(ge.BCE, 1)
		// GL front faces (CCW by default) are clockwise on the GE's
		// y-down screen; FFACE 0 keeps clockwise triangles.
		front := uint32(0)
		if st.FrontFace == driver.WindingCW {
			front = 1
		}
		if st.CullFace == driver.FaceFront {
			front ^= 1
		}
		l.set(ge.FFACE, front)
	} else {
		l.set(ge.BCE, 0)
	}
	if st.Shade == driver.ShadeFlat {
		l.set(ge.SHADE, 0)
	} else {
		l.set(ge.SHADE, 1)
	}
}

// vertices uploads the vertices of the draw in the driver's VTYPE layout,
// with rebased indices for DrawElements, and kicks PRIM.
func (c *Context) vertices(st *driver.State, dc *driver.DrawCall, ptype uint32) error {
	lay := vtype.Layout()
	first, n := dc.MinIndex, dc.MaxIndex-dc.MinIndex+1
	buf := make([]byte, n*lay.Size)
	va := dc.Arrays
	for i := 0; i < n; i++ {
		vi := first + i
		o := buf[i*lay.Size:]
		var p, col [4]float32
		va.Position.Fetch(vi, [4]float32{0, 0, 0, 1}, &p)
		if p[3] != 1 && p[3] != 0 {
			p[0], p[1], p[2] = p[0]/p[3], p[1]/p[3], p[2]/p[3]
		}
		va.Color.Fetch(vi, st.CurrentColor, &col)
		for k := 0; k < 4; k++ {
			o[lay.ColorOff+k] = q8(col[k])
		}
		for k := 0; k < 3; k++ {
			binary.LittleEndian.PutUint32(o[lay.PosOff+4*k:], math.Float32bits(p[k]))
		}
	}
	vaddr, err := c.up.Upload(buf, 4)
	if err != nil {
		return err
	}
	l := &c.list
	vt := vtype
	if dc.Indices != nil {
		vt.Index = ge.Fmt16
		ib := make([]byte, 2*dc.Count)
		for i := 0; i < dc.Count; i++ {
			binary.LittleEndian.PutUint16(ib[2*i:], uint16(dc.Indices.Index(i)-first))
		}
		iaddr, err := c.up.Upload(ib, 4)
		if err != nil {
			return err
		}
		l.set(ge.VTYPE, vt.Word())
		l.addr(ge.VADDR, vaddr)
		l.addr(ge.IADDR, iaddr)
	} else {
		l.set(ge.VTYPE, vt.Word())
		l.addr(ge.VADDR, vaddr)
	}
	// PRIM counts are 16 bits: long draws go in pieces that keep whole
	// primitives (lists) or restart the strip/fan with its shared vertices.
	count := dc.Count
	if count <= 0xFFFF {
		l.kick(ge.PRIM, ptype<<16|uint32(count))
		return nil
	}
	return c.splitPrim(st, dc, ptype, vaddr, lay.Size)
}

// splitPrim draws more than 65535 vertices as triangle lists built on the
// CPU.
func (c *Context) splitPrim(st *driver.State, dc *driver.DrawCall, ptype uint32, vaddr uint32, size int) error {
	var tris []uint16
	at := func(i int) uint16 {
		if dc.Indices != nil {
			return uint16(dc.Indices.Index(i) - dc.MinIndex)
		}
		return uint16(i)
	}
	if dc.MaxIndex-dc.MinIndex >= 0xFFFF {
		return fmt.Errorf("pspge: a draw of more than 65535 vertices spanning %d vertices cannot be indexed with 16 bits", dc.MaxIndex-dc.MinIndex+1)
	}
	switch ptype {
	case 3:
		for i := 0; i+2 < dc.Count; i += 3 {
			tris = append(tris, at(i), at(i+1), at(i+2))
		}
	case 4:
		for i := 0; i+2 < dc.Count; i++ {
			if i%2 == 0 {
				tris = append(tris, at(i), at(i+1), at(i+2))
			} else {
				tris = append(tris, at(i+1), at(i), at(i+2))
			}
		}
	case 5:
		for i := 1; i+1 < dc.Count; i++ {
			tris = append(tris, at(0), at(i), at(i+1))
		}
	}
	l := &c.list
	vt := vtype
	vt.Index = ge.Fmt16
	for start := 0; start < len(tris); start += 65535 - 65535%3 {
		end := min(len(tris), start+65535-65535%3)
		ib := make([]byte, 2*(end-start))
		for i, v := range tris[start:end] {
			binary.LittleEndian.PutUint16(ib[2*i:], v)
		}
		iaddr, err := c.up.Upload(ib, 4)
		if err != nil {
			return err
		}
		l.set(ge.VTYPE, vt.Word())
		l.addr(ge.VADDR, vaddr)
		l.addr(ge.IADDR, iaddr)
		l.kick(ge.PRIM, 3<<16|uint32(end-start))
	}
	return nil
}
