package glamo

import (
	"github.com/retrogl/retrogl/driver"
	hg "github.com/retrogl/retrogl/hal/glamo"
)

// quad draws a screen-space rectangle through the immediate vertex port:
// RGXScrCoor (2600h D13) bypasses the G/L engine, and each EGFIRE (2058h)
// sends vertex "a" (RGP* at 1B00h) to the assembler as a triangle strip
// (guide §2.3 item 5). Corners are chip window coordinates; z is the window
// depth; tex holds each corner's unit 0/1 coordinates.
func (c *Context) quad(x0, y0, x1, y1 float32, z float32, argb uint32, tex [2][4][2]float32, ntex int) {
	m := &c.em
	m.set("EGPDTYPE", hg.Pack("EGPDTYPE", "TYPE", "TRIANGLE_STRIP"))
	corners := [4][2]float32{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}}
	for i, p := range corners {
		m.setBlock(0x1B00, []uint32{f32(p[0]), f32(p[1]), f32(z), f32(1)})
		m.set("RGPDIFa", argb)
		for u := 0; u < ntex; u++ {
			m.setBlock([]uint16{0x1B40, 0x1B50}[u], []uint32{f32(tex[u][i][0]), f32(tex[u][i][1]), 0, f32(1)})
		}
		m.kick("EGFIRE", 0)
	}
	m.kick("EGEND", hg.Pack("EGEND", "MODE", "WAIT_ALL"))
}

// screenState emits the state every immediate rectangle shares: no G/L
// engine, flat shading from the last vertex, no culling, solid fill. The
// setup stage's two-sided cull (2608h D5, which drops every triangle) and
// the user clip plane belong to the draws: a clear or a draw-texture
// rectangle ignores them, so they are switched off here (the next draw's
// transform sets them again).
func (c *Context) screenState(st *driver.State) {
	m := &c.em
	drawOnly := hg.Pack("RGXClip", "TWOSIDECULL", true, "USERCLIP", true)
	if v, ok := m.shadow("RGXClip"); ok && v&drawOnly != 0 {
		m.set("RGXClip", v&^drawOnly)
	}
	m.set("RGXFront", hg.Pack("RGXFront", "SCRCOOR", true))
	m.set("RGXLight", 0)
	m.set("RGPSetup", hg.Pack("RGPSetup", "SHADE", "FLAT_C"))
	m.set("EGPrimSet", hg.Pack("EGPrimSet", "FILL", "SOLID", "CCWFILL", "SOLID", "PARMODE", "STRIP_NEW_FAN_NEW",
		"T0FROM", "A", "T1FROM", "B"))
	m.set("MGVStrmCfg", hg.Pack("MGVStrmCfg", "ABGR", false))
}

// Clear implements driver.Context: a rectangle over the scissor box with
// the Z test always passing, writing what the mask selects through the
// colour, Z and stencil write masks.
func (c *Context) Clear(st *driver.State, mask driver.ClearMask, color [4]float32, depth float32, stencil int) error {
	if err := c.usable(); err != nil {
		return err
	}
	x0, y0, x1, y1, ok := c.scissor(st)
	if !ok {
		return nil
	}
	m := &c.em
	cs := *st
	cs.LogicOpEnabled = false
	c.surface(&cs)
	c.setScissor(x0, y0, x1, y1)
	c.screenState(st)
	var en0, en1 uint32
	if st.Dither {
		en0 |= hg.Pack("EGEn0", "DITH", true)
	}
	rop := "COPY_PEN"
	cm := st.ColorMask
	if mask&driver.ClearColor == 0 || cm == [4]bool{} {
		rop = "NOP" // D: the colour buffer keeps its value
	} else if cm != [4]bool{true, true, true, true} {
		en1 |= hg.Pack("EGEn1", "CWRMASK", true)
		m.set("EGD0CWrMask", uint32(colorMask(c.cfg.Format, cm)))
	}
	m.set("EGDst0Cfg", hg.Pack("EGDst0Cfg", "ROP", rop, "FMT", cfmtOf[c.cfg.Format], "PITCH", c.pitch/2))
	if mask&driver.ClearDepth != 0 && c.cfg.DepthBits > 0 && st.DepthMask {
		en0 |= hg.Pack("EGEn0", "ZT", true, "ZW", true)
		m.set("EGZCfg", hg.Pack("EGZCfg", "FMT", "Z16", "TEST", "ALWAYS", "PITCH", c.pitch/2))
	}
	if mask&driver.ClearStencil != 0 && c.cfg.StencilBits > 0 {
		fm := map[int]string{1: "S1", 4: "S4", 8: "S8"}[c.cfg.StencilBits]
		en0 |= hg.Pack("EGEn0", "STT", true, "STBUF", true)
		en1 |= hg.Pack("EGEn1", "STWRMASK", true)
		m.set("EGStCfg", hg.Pack("EGStCfg", "FMT", fm, "TEST", "ALWAYS", "REF", uint32(stencil)&0xFF, "MASK", 0xFF))
		m.set("EGStOps", hg.Pack("EGStOps", "WRMASK", st.Stencil[0].WriteMask&0xFF, "FAIL", "KEEP", "ZFAIL", "REPLACE",
			"ZPASS", "REPLACE", "PITCH", c.spitch/2))
	}
	m.set("EGEn0", en0)
	m.set("EGEn1", en1)
	q := func(v float32) uint32 { return hg.Quant(float64(v), 8) }
	argb := q(color[3])<<24 | q(color[0])<<16 | q(color[1])<<8 | q(color[2])
	c.quad(float32(x0), float32(y0), float32(x1+1), float32(y1+1), clamp01(depth), argb, [2][4][2]float32{}, 0)
	return c.maybeFlush()
}

func clamp01(v float32) float32 { return max(0, min(1, v)) }

// drawTex draws an OES_draw_texture rectangle: window position and size in
// GL coordinates, each enabled unit's texture mapped through its crop
// rectangle, the current colour as the primary colour; the per-fragment
// state of the context applies.
func (c *Context) drawTex(st *driver.State, r *driver.DrawTexRect) error {
	x0, y0, x1, y1, ok := c.scissor(st)
	if !ok || r.W <= 0 || r.H <= 0 {
		return nil
	}
	m := &c.em
	c.surface(st)
	c.setScissor(x0, y0, x1, y1)
	c.screenState(st)
	var units []int
	for u := 0; u < 2; u++ {
		if st.Units[u].Texture != nil {
			units = append(units, u)
		}
	}
	var en0, en1 uint32
	en1, err := c.bindTextures(st, units, en1)
	if err != nil {
		return err
	}
	// Corners top-left, top-right, bottom-left, bottom-right (chip y).
	h := float32(c.cfg.Height)
	cx0, cx1 := r.X, r.X+r.W
	cy0, cy1 := h-(r.Y+r.H), h-r.Y
	var tex [2][4][2]float32
	for k, u := range units {
		t := st.Units[u].Texture
		cr := t.Crop
		tw, th := float32(t.Levels[0].Width), float32(t.Levels[0].Height)
		s0, s1 := float32(cr[0])/tw, float32(cr[0]+cr[2])/tw
		t0, t1 := float32(cr[1])/th, float32(cr[1]+cr[3])/th
		tex[k] = [4][2]float32{{s0, t1}, {s1, t1}, {s0, t0}, {s1, t0}}
	}
	if len(units) > 0 {
		en0 |= hg.Pack("EGEn0", "TXMP", true, "TXNUM", len(units))
		en1 |= hg.Pack("EGEn1", "TXBL", true)
	}
	ds := *st
	ds.Fog.Enabled = false
	en0, en1 = c.pixelOps(&ds, en0, en1)
	m.set("EGEn0", en0)
	m.set("EGEn1", en1)
	q := func(v float32) uint32 { return hg.Quant(float64(v), 8) }
	cc := st.CurrentColor
	argb := q(cc[3])<<24 | q(cc[0])<<16 | q(cc[1])<<8 | q(cc[2])
	z := clamp01(r.Z)
	c.quad(cx0, cy0, cx1, cy1, st.DepthRange[0]+z*(st.DepthRange[1]-st.DepthRange[0]), argb, tex, len(units))
	return c.maybeFlush()
}
