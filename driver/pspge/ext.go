package pspge

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/retrogl/retrogl/driver"
	ge "github.com/retrogl/retrogl/hal/pspge"
)

// condBox is an open BBOX conditional region: the list words of its ORIGIN
// and BJUMP, patched when the region ends.
type condBox struct {
	origin, bjump int
}

// BeginBoundingBox opens a conditional region (GL_RETROGL_pspge_bounding_box,
// reached through gles.Context.BeginBoundingBoxPSP): the GE transforms the
// eight corners of the object-space box [lo, hi] with the current matrices
// and viewport (BBOX 8) and, when the box is not visible, jumps over every
// word up to EndBoundingBox (BJUMP).
//
// BJUMP's target is absolute, and the list's address is only known when it
// is written out, so the jump is relative: BASE 0 and ORIGIN make OFFSET
// the ORIGIN word's address, BJUMP's argument is the distance to the
// region's end, and OFFSETADDR 0 on both paths restores OFFSET. Words are
// not pushed to the GE while a region is open (the BJUMP must be final when
// the GE reads it), and the register shadow is dropped at the end because
// the GE may have skipped the region's state words.
func (c *Context) BeginBoundingBox(st *driver.State, lo, hi [3]float32) error {
	if err := c.usable(); err != nil {
		return err
	}
	if c.cond != nil {
		return errors.New("pspge: bounding box regions do not nest")
	}
	c.surface()
	c.scissor(st)
	c.raster(st, true)
	c.matrices(st)
	vt := ge.VType{Pos: ge.FmtFloat}
	buf := make([]byte, 8*12)
	for i := 0; i < 8; i++ {
		p := [3]float32{lo[0], lo[1], lo[2]}
		for k := 0; k < 3; k++ {
			if i>>k&1 != 0 {
				p[k] = hi[k]
			}
		}
		putF32(buf[12*i:], p[:]...)
	}
	addr, err := c.upload(buf, 4)
	if err != nil {
		return err
	}
	l := &c.list
	l.set(ge.VTYPE, vt.Word())
	l.addr(ge.VADDR, addr)
	l.kick(ge.BBOX, 8)
	l.kick(ge.BASE, 0)
	l.base, l.basev = ge.Word(ge.BASE, 0), true
	c.cond = &condBox{origin: len(l.words)}
	l.kick(ge.ORIGIN, 0)
	c.cond.bjump = len(l.words)
	l.kick(ge.BJUMP, 0)
	l.kick(ge.OFFSETADDR, 0)
	return nil
}

// EndBoundingBox closes the region opened by BeginBoundingBox.
func (c *Context) EndBoundingBox() error {
	if err := c.usable(); err != nil {
		return err
	}
	if c.cond == nil {
		return errors.New("pspge: no bounding box region is open")
	}
	c.endBox()
	return nil
}

func (c *Context) endBox() {
	l := &c.list
	target := len(l.words)
	l.words[c.cond.bjump] = ge.Word(ge.BJUMP, uint32((target-c.cond.origin)*4))
	l.kick(ge.OFFSETADDR, 0)
	c.cond = nil
	l.invalidate()
}

// DrawPatch draws a Bezier (spline false) or spline patch tessellated by
// the GE (BEZIER/SPLINE, GL_RETROGL_pspge_patches, reached through
// gles.Context.DrawPatchPSP): nu x nv control points from the vertex
// arrays (u fastest), divided into su x sv steps per segment, drawn as
// prim (0 triangles, 1 lines, 2 points); uedge and vedge are the spline end
// types (bit 0 start open, bit 1 end open). The draw must fit the hardware
// path (the GE evaluates the patch; there is no software tessellator).
func (c *Context) DrawPatch(st *driver.State, dc *driver.DrawCall, spline bool, nu, nv, su, sv, uedge, vedge, prim int) error {
	if err := c.usable(); err != nil {
		return err
	}
	if why := c.needSoftware(st, dc); why != "" {
		return unsupported(driver.FeatureLighting, "patches are tessellated by the GE and cannot take the software path: "+why)
	}
	st, soft := c.mirrorState(st)
	unit, why := c.nativeState(st)
	if soft != "" {
		why = soft
	}
	if why != "" {
		return unsupported(driver.FeatureMultitexture, "patches are tessellated by the GE in one pass: "+why)
	}
	c.surface()
	if !c.scissor(st) {
		return nil
	}
	c.raster(st, true)
	c.matrices(st)
	plan, err := c.texState(st, unit)
	if err != nil {
		return err
	}
	c.lighting(st, plan.forceAlpha)
	c.fog(st, st.Fog.Enabled, false)
	if why := c.fragment(st); why != "" {
		return unsupported(driver.FeatureBlend, why)
	}
	vt, vaddr, err := c.packVertices(st, dc, unit, plan.forceAlpha)
	if err != nil {
		return err
	}
	l := &c.list
	l.set(ge.PSUB, uint32(su&0x7F)|uint32(sv&0x7F)<<8)
	l.set(ge.PPRIM, uint32(prim&3))
	face := uint32(0)
	if st.FrontFace == driver.WindingCW {
		face = 1
	}
	l.set(ge.PFACE, face)
	l.set(ge.PCE, boolArg(st.CullEnabled))
	l.set(ge.VTYPE, vt.Word())
	l.addr(ge.VADDR, vaddr)
	if spline {
		l.kick(ge.SPLINE, uint32(nu&0xFF)|uint32(nv&0xFF)<<8|uint32(uedge&3)<<16|uint32(vedge&3)<<18)
	} else {
		l.kick(ge.BEZIER, uint32(nu&0xFF)|uint32(nv&0xFF)<<8)
	}
	c.stats.HWDraws++
	return nil
}

func boolArg(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// packVertices uploads vertices MinIndex..MaxIndex in the hardware path's
// layout and returns the VTYPE and address.
func (c *Context) packVertices(st *driver.State, dc *driver.DrawCall, texU int, forceAlpha bool) (ge.VType, uint32, error) {
	vt := ge.VType{Color: ge.Color8888, Pos: ge.FmtFloat}
	if texU >= 0 {
		vt.TexCoord = ge.FmtFloat
	}
	lit := st.Lighting.Enabled
	if lit {
		vt.Normal = ge.FmtFloat
	}
	lay := vt.Layout()
	first, n := dc.MinIndex, dc.MaxIndex-dc.MinIndex+1
	// Every byte of a vertex is written below (the layout's parts are
	// four-byte fields without padding), so the reused buffer needs no
	// clearing.
	if cap(c.vbuf) < n*lay.Size {
		c.vbuf = make([]byte, n*lay.Size)
	}
	buf := c.vbuf[:n*lay.Size]
	va := dc.Arrays
	for i := 0; i < n; i++ {
		vi := first + i
		o := buf[i*lay.Size:]
		var pos, col [4]float32
		va.Position.Fetch(vi, [4]float32{0, 0, 0, 1}, &pos)
		if pos[3] != 1 && pos[3] != 0 {
			pos[0], pos[1], pos[2] = pos[0]/pos[3], pos[1]/pos[3], pos[2]/pos[3]
		}
		va.Color.Fetch(vi, st.CurrentColor, &col)
		if forceAlpha {
			col[3] = 1
		}
		for k := 0; k < 4; k++ {
			o[lay.ColorOff+k] = q8(col[k])
		}
		for k := 0; k < 3; k++ {
			binary.LittleEndian.PutUint32(o[lay.PosOff+4*k:], math.Float32bits(pos[k]))
		}
		if texU >= 0 {
			var tc [4]float32
			va.TexCoord[texU].Fetch(vi, st.CurrentTexCoord[texU], &tc)
			putF32(o[lay.TexOff:], tc[0], tc[1])
		}
		if lit {
			var nv [4]float32
			cn := st.CurrentNormal
			va.Normal.Fetch(vi, [4]float32{cn[0], cn[1], cn[2], 0}, &nv)
			putF32(o[lay.NormalOff:], nv[0], nv[1], nv[2])
		}
	}
	vaddr, err := c.upload(buf, 4)
	return vt, vaddr, err
}
