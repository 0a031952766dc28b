package r300

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	rc "github.com/retrogl/retrogl/compiler/r300"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// layout is the vertex format of a draw: position, colour 0, then
// optionally colour 1 (per-vertex fog factor in alpha) and the point size,
// then the texture coordinates of the units the program reads. The PVS
// bypass hands them to the RS in this order.
type layout struct {
	fog   bool
	psize bool
	units []int
}

func (l *layout) dwords() int {
	n := 8 + 4*len(l.units)
	if l.fog {
		n += 4
	}
	if l.psize {
		n++
	}
	return n
}

// program returns the compiled program for a key.
func (c *Context) program(k fpKey) (*rc.Program, error) {
	if p, ok := c.programs[k]; ok {
		return p.prog, p.err
	}
	prog, err := rc.Compile(texEnvProgram(k), rc.Options{})
	if err != nil {
		err = fmt.Errorf("r300: texture environment %s: %w", k, err)
	}
	c.programs[k] = &compiled{prog, err}
	return prog, err
}

// fogFromW reports whether the projection makes clip W the eye distance
// (its last row is (0, 0, -1, 0)), so FG can fog per pixel from W.
func fogFromW(st *driver.State) bool {
	p := st.Projection
	return p.Row(3) == mgl32.Vec4{0, 0, -1, 0}
}

// Draw implements driver.Context.
func (c *Context) Draw(st *driver.State, dc *driver.DrawCall) error {
	if err := c.usable(); err != nil {
		return err
	}
	if err := c.bind(st.Framebuffer); err != nil {
		return err
	}
	if dc.DrawTexture != nil {
		return c.drawTex(st, dc.DrawTexture)
	}
	if st.Program != nil {
		return c.drawES2(st, dc)
	}
	if st.CullEnabled && st.CullFace == driver.FaceFrontAndBack && dc.Prim >= driver.PrimTriangles {
		return nil
	}
	if c.tcl {
		if done, err := c.drawFF(st, dc); done || err != nil {
			return err
		}
	}
	mesh, err := c.tnl.Run(st, dc)
	if err != nil {
		return err
	}
	if len(mesh.Triangles) > 0 {
		if err := c.drawPrims(st, r3.PrimTriangles, mesh.Triangles, makeKey(st)); err != nil {
			return err
		}
	}
	if len(mesh.Lines) > 0 {
		if err := c.drawPrims(st, r3.PrimLines, mesh.Lines, makeKey(st)); err != nil {
			return err
		}
	}
	if len(mesh.Points) > 0 {
		return c.drawPrims(st, r3.PrimPoints, mesh.Points, makeKey(st))
	}
	return nil
}

// drawPrims emits the state and the vertices of one primitive list.
func (c *Context) drawPrims(st *driver.State, prim r3.PrimType, vs []swtnl.Vertex, key fpKey) error {
	key.markProjective(vs)
	prog, err := c.program(key)
	if err != nil {
		return &driver.Unsupported{Backend: "r300", Feature: driver.FeatureTexEnvCombine, Why: err.Error()}
	}
	var l layout
	l.fog = st.Fog.Enabled && !fogFromW(st)
	l.psize = prim == r3.PrimPoints
	for i, name := range prog.Inputs {
		var u int
		if prog.InputTemp[i] >= 0 && name != "color0" {
			if _, err := fmt.Sscanf(name, "tex%d", &u); err == nil {
				l.units = append(l.units, u)
			}
		}
	}
	if !c.scissor(st) {
		return nil
	}
	gb := uint32(0)
	if prim == r3.PrimPoints && st.Point.Sprite {
		for _, u := range l.units {
			if st.Units[u].CoordReplace {
				gb |= 1 | 1<<(16+2*uint(u))
			}
		}
	}
	frag := func() error { return c.emitFragment(st, prog, &l, key) }
	if err := c.emitState(st, prim, gb, frag, func() { c.emitVAP(&l) }); err != nil {
		return err
	}
	if prim == r3.PrimTriangles && len(vs)%3 == 0 {
		// Triangles in window coordinates: each is charged the quads of
		// its own bounding box (triQuads), so that small triangles go in
		// one packet and one submission.
		quads := func(i int) int64 {
			t := vs[3*i : 3*i+3]
			return c.triQuads([3]float64{float64(t[0].Win[0]), float64(t[1].Win[0]), float64(t[2].Win[0])},
				[3]float64{float64(c.winY(t[0].Win[1])), float64(c.winY(t[1].Win[1])), float64(c.winY(t[2].Win[1]))})
		}
		for k := 0; k < len(vs)/3; {
			end, work := packetEnd(k, len(vs)/3, 3, 65535, quads)
			if err := c.emitVertices(st, prim, vs[3*k:3*end], &l, work); err != nil {
				return err
			}
			k = end
		}
		return nil
	}
	per := map[r3.PrimType]int{r3.PrimTriangles: 3, r3.PrimLines: 2, r3.PrimPoints: 1}[prim]
	// Packets of at most 65535 vertices, fewer when their estimated work
	// would pass workShare.
	maxV := splitCount(per, c.quads, 65535)
	for start := 0; start < len(vs); start += maxV {
		end := min(len(vs), start+maxV)
		if err := c.emitVertices(st, prim, vs[start:end], &l, drawWork(listPrim[prim], end-start, c.quads)); err != nil {
			return err
		}
	}
	return nil
}

// emitVertices uploads a vertex list whose estimated work is work and
// draws it (3D_LOAD_VBPNTR with one array, then 3D_DRAW_VBUF_2).
func (c *Context) emitVertices(st *driver.State, prim r3.PrimType, vs []swtnl.Vertex, l *layout, work int64) error {
	if _, err := c.reserve(work); err != nil {
		return err
	}
	n := l.dwords()
	c.verts = c.verts[:0]
	for i := range vs {
		v := &vs[i]
		c.verts = append(c.verts, v.Win[0], c.winY(v.Win[1]), v.Win[2], v.Win[3])
		c.verts = append(c.verts, v.Color[:]...)
		if l.fog {
			c.verts = append(c.verts, 0, 0, 0, v.Fog)
		}
		if l.psize {
			// Aliased points round their size (GL ES 1.1 §3.3).
			s := float32(math.Round(float64(v.PointSize)))
			c.verts = append(c.verts, max(1, min(maxPointSize, s)))
		}
		for _, u := range l.units {
			c.verts = append(c.verts, v.Tex[u][:]...)
		}
	}
	// The bytes go through a buffer kept between draws: Upload copies
	// them into device memory (hal.Device.Write).
	if cap(c.vbytes) < 4*len(c.verts) {
		c.vbytes = make([]byte, 4*len(c.verts))
	}
	buf := c.vbytes[:4*len(c.verts)]
	for i, f := range c.verts {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(f))
	}
	addr, err := c.up.Upload(buf, 32)
	if err != nil {
		return err
	}
	c.set(r3.VAP_VF_MAX_VTX_INDX, uint32(len(vs)-1))
	c.set(r3.VAP_VF_MIN_VTX_INDX, 0)
	c.packRegs()
	c.s.Packet3(r3.OpLoadVbpntr, r3.LoadVbpntr([]r3.AOS{{Count: n, Stride: n, Addr: addr}})...)
	c.s.Packet3(r3.OpDrawVbuf2, r3.VFCntl(prim, r3.WalkList, len(vs), false))
	// The AOS registers now hold this draw's image.
	c.shadow[r3.VAP_VTX_NUM_ARRAYS] = 1
	delete(c.shadow, r3.VAP_VTX_AOS_ATTR01)
	delete(c.shadow, r3.VAP_VTX_AOS_ADDR0)
	if c.s.Len() > 64<<10 {
		return c.Flush()
	}
	return nil
}

// scissor emits SC_SCISSOR0/1 for the GL scissor box (or the target),
// flipped to the chip's y-down screen for the window, inclusive corners
// (guide §2.6 [PROP], fact 43). It returns false when nothing can be
// drawn.
func (c *Context) scissor(st *driver.State) bool {
	w, h := c.tgt.w, c.tgt.h
	x0, y0, x1, y1 := 0, 0, w, h
	if st.ScissorTest {
		s := st.Scissor
		x0, x1 = max(0, s.X), min(w, s.X+s.W)
		y0, y1 = max(0, s.Y), min(h, s.Y+s.H)
		if c.tgt.flip {
			y0, y1 = h-y1, h-y0
		}
	}
	if x0 >= x1 || y0 >= y1 {
		return false
	}
	c.quads = rectQuads(x0, y0, x1, y1)
	c.sc = [4]int{x0, y0, x1, y1}
	c.set(r3.SC_SCISSOR0, uint32(x0)|uint32(y0)<<13)
	c.set(r3.SC_SCISSOR1, uint32(x1-1)|uint32(y1-1)<<13)
	return true
}

// zbFunc maps GL comparisons to ZB codes (L2504-2506).
var zbFunc = [8]uint32{
	driver.CompareNever: 0, driver.CompareLess: 1, driver.CompareLEqual: 2, driver.CompareEqual: 3,
	driver.CompareGEqual: 4, driver.CompareGreater: 5, driver.CompareNotEqual: 6, driver.CompareAlways: 7,
}

// blendCode maps GL blend factors to the GL codes 32-46 (L266-406).
var blendCode = [...]uint32{
	driver.BlendZero: 32, driver.BlendOne: 33, driver.BlendSrcColor: 34, driver.BlendOneMinusSrcColor: 35,
	driver.BlendDstColor: 36, driver.BlendOneMinusDstColor: 37, driver.BlendSrcAlpha: 38,
	driver.BlendOneMinusSrcAlpha: 39, driver.BlendDstAlpha: 40, driver.BlendOneMinusDstAlpha: 41,
	driver.BlendSrcAlphaSaturate: 42, driver.BlendConstantColor: 43, driver.BlendOneMinusConstantColor: 44,
	driver.BlendConstantAlpha: 45, driver.BlendOneMinusConstantAlpha: 46,
}

// combCode maps blend equations to COMB_FCN (L253-265).
var combCode = [...]uint32{driver.BlendAdd: 0, driver.BlendSubtract: 2, driver.BlendReverseSubtract: 6, driver.BlendMin: 4, driver.BlendMax: 5}

func unorm8(v float32) uint32 {
	return uint32(math.Round(float64(max(0, min(1, v))) * 255))
}

func unorm10(v float32) uint32 {
	return uint32(math.Round(float64(max(0, min(1, v))) * 1023))
}

// emitState writes every register a draw depends on (through the
// shadow); gb is GB_ENABLE's point-sprite stuffing for points, frag
// programs the RS, US and TX, vap the vertex fetch.
func (c *Context) emitState(st *driver.State, prim r3.PrimType, gb uint32, frag func() error, vap func()) error {
	// Surfaces (L434-450, L2414-2437).
	tg := &c.tgt
	if tg.cb != 0 {
		c.set(r3.RB3D_COLOROFFSET0, tg.cb)
		c.set(r3.RB3D_COLORPITCH0, uint32(tg.cbPitch)&0x3FFE|tg.cbCode<<21)
		// C0-C3 = B, G, R, A for the ARGB formats (guide §3.6 [PROP]).
		c.set(r3.US_OUT_FMT_0, 0x1B00)
	} else {
		// A framebuffer without colour: target 0 unused (L1700).
		c.set(r3.US_OUT_FMT_0, 15)
	}
	c.set(r3.RB3D_CCTL, 0)
	for t := uint32(1); t < 4; t++ {
		c.set(r3.US_OUT_FMT_0+4*t, 15)
	}
	c.set(r3.US_W_FMT, 0)
	c.set(r3.FG_DEPTH_SRC, 0)
	if tg.zBpp != 0 {
		c.set(r3.ZB_DEPTHOFFSET, tg.zb)
		c.set(r3.ZB_DEPTHPITCH, uint32(tg.zbPitch)&0x3FFC)
		zf := uint32(0)
		if tg.zBpp == 4 {
			zf = 2
		}
		c.set(r3.ZB_FORMAT, zf)
	}
	c.set(r3.ZB_BW_CNTL, 0)
	c.set(r3.SC_HYPERZ_EN, 0)

	// Invariant raster state.
	c.set(r3.GB_TILE_CONFIG, r3.Fields(r3.GB_TILE_CONFIG, "ENABLE", 1, "PIPE_COUNT", 3, "TILE_SIZE", 1, "SUBPIXEL", 1))
	c.set(r3.GB_AA_CONFIG, 0)
	c.set(r3.GA_ROUND_MODE, r3.Fields(r3.GA_ROUND_MODE, "GEOMETRY_ROUND", 1, "COLOR_ROUND", 1))
	c.set(r3.GA_OFFSET, 0)
	c.set(r3.SC_EDGERULE, 0x0A5294A5) // ER 5 (top-left) for every primitive
	c.set(r3.SC_CLIP_RULE, 0xFFFF)
	c.set(r3.SC_SCREENDOOR, 0xFFFFFF)
	c.set(r3.SU_DEPTH_SCALE, f32(1<<24-1))
	c.set(r3.SU_DEPTH_OFFSET, 0)
	for a := uint32(r3.VAP_GB_VERT_CLIP_ADJ); a <= r3.VAP_GB_HORZ_DISC_ADJ; a += 4 {
		c.set(a, f32(1))
	}
	shade := uint32(2)
	if st.Shade == driver.ShadeFlat {
		shade = 1
	}
	c.set(r3.GA_COLOR_CONTROL, shade|shade<<2|2<<4|2<<6|3<<16)

	// Culling (swtnl culls already; SU keeps facing for two-sided stencil).
	cull := uint32(0)
	if st.CullEnabled && prim == r3.PrimTriangles {
		switch st.CullFace {
		case driver.FaceFront:
			cull = 1
		case driver.FaceBack:
			cull = 2
		}
	}
	// The window's y flip keeps the picture, so GL's counter-clockwise
	// is the SU's FACE=0 "CCW" (sim/r300: as seen on the screen); a
	// framebuffer object is drawn unflipped, a mirror image.
	if (st.FrontFace == driver.WindingCW) == tg.flip {
		cull |= 4
	}
	c.set(r3.SU_CULL_MODE, cull)
	po := uint32(0)
	if st.PolygonOffset.Fill {
		po = 3
	}
	c.set(r3.SU_POLY_OFFSET_ENABLE, po)
	if po != 0 {
		// Slope per subpixel (L1200-1203), units in Z24 steps of r.
		scale := f32(st.PolygonOffset.Factor * subpixels)
		r := float32(1)
		if tg.zBpp == 2 {
			r = 256
		}
		off := f32(st.PolygonOffset.Units * r)
		c.set(r3.SU_POLY_OFFSET_FRONT_SCALE, scale)
		c.set(r3.SU_POLY_OFFSET_FRONT_OFFSET, off)
		c.set(r3.SU_POLY_OFFSET_BACK_SCALE, scale)
		c.set(r3.SU_POLY_OFFSET_BACK_OFFSET, off)
	}

	// Points and lines: half sizes in subpixels (L597-606, L652-657).
	switch prim {
	case r3.PrimPoints:
		minSize := uint32(0)
		if c.tclActive {
			// The PVS's point size is clamped to GL's range [1, max].
			minSize = subpixels / 2
		}
		c.set(r3.GA_POINT_MINMAX, minSize|uint32(maxPointSize*subpixels/2)<<16)
		c.set(r3.GB_ENABLE, gb)
		if gb != 0 {
			// (0, 1) at the lower left, (1, 0) at the upper right: t
			// runs down the screen as OES_point_sprite has it (in a
			// framebuffer object the chip's screen is upside down).
			t0, t1 := float32(1), float32(0)
			if !tg.flip {
				t0, t1 = 0, 1
			}
			c.set(r3.GA_POINT_S0, f32(0))
			c.set(r3.GA_POINT_T0, f32(t0))
			c.set(r3.GA_POINT_S1, f32(1))
			c.set(r3.GA_POINT_T1, f32(t1))
		}
	case r3.PrimLines:
		w := float32(math.Round(float64(st.LineWidth)))
		w = max(1, min(255, w))
		c.set(r3.GA_LINE_CNTL, uint32(w*subpixels/2)|2<<16)
		c.set(r3.GB_ENABLE, 0)
	default:
		c.set(r3.GB_ENABLE, 0)
	}
	c.set(r3.GA_POLY_MODE, 0)
	c.set(r3.GA_LINE_STIPPLE_CFG, 0)

	if err := frag(); err != nil {
		return err
	}
	c.emitPixelOps(st)
	vap()
	return nil
}

// bypassVAP sets the VAP for window-space vertices: PVS bypass, clipping
// off (the CPU clipped), the viewport transform off.
func (c *Context) bypassVAP() {
	c.set(r3.VAP_CNTL_STATUS, 1<<8) // PVS_BYPASS
	c.set(r3.VAP_CLIP_CNTL, 1<<16)  // CLIP_DISABLE: swtnl clipped
	c.set(r3.VAP_VTE_CNTL, 0x300)   // x, y, z already divided; W is 1/W
}

// emitVAP programs the vertex fetch and the PVS-bypass outputs.
func (c *Context) emitVAP(l *layout) {
	c.bypassVAP()
	var els []uint32
	add := func(dtype uint32) {
		e := dtype | uint32(len(els))<<8
		els = append(els, e)
	}
	add(3) // position FLOAT_4
	add(3) // colour 0
	fmt0 := uint32(3)
	if l.fog {
		add(3)
		fmt0 |= 1 << 2
	}
	if l.psize {
		add(0) // FLOAT_1
		fmt0 |= 1 << 16
	}
	fmt1 := uint32(0)
	for _, u := range l.units {
		add(3)
		fmt1 |= 4 << (3 * uint(u))
	}
	els[len(els)-1] |= 1 << 13 // LAST_VEC
	for i := 0; i < 8; i++ {
		var w, x uint32
		for k := 0; k < 2; k++ {
			if j := 2*i + k; j < len(els) {
				w |= els[j] << (16 * uint(k))
				x |= 0xF688 << (16 * uint(k))
			}
		}
		c.set(r3.VAP_PROG_STREAM_CNTL_0+4*uint32(i), w)
		c.set(r3.VAP_PROG_STREAM_CNTL_EXT+4*uint32(i), x)
	}
	c.set(r3.VAP_OUT_VTX_FMT_0, fmt0)
	c.set(r3.VAP_OUT_VTX_FMT_1, fmt1)
	c.set(r3.VAP_VTX_SIZE, uint32(l.dwords()))
}

// emitFragment programs the RS, the US program and its constants, and the
// texture units.
func (c *Context) emitFragment(st *driver.State, prog *rc.Program, l *layout, key fpKey) error {
	// RS: texture inputs each get an RS_IP entry (STRQ, L900-913); the
	// colour rides on entry 0.
	ncol := 1
	if l.fog {
		ncol = 2
	}
	c.set(r3.RS_COUNT, uint32(4*len(l.units))|uint32(ncol)<<7)
	var ips [8]uint32
	var insts [16]uint32
	ntex := 0
	for i, name := range prog.Inputs {
		t := prog.InputTemp[i]
		if t < 0 {
			continue
		}
		if name == "color0" {
			insts[0] |= 1<<14 | uint32(t)<<17 // COL_CN, COL_ADDR, COL_ID 0, COL_PTR 0
			continue
		}
		var u int
		if _, err := fmt.Sscanf(name, "tex%d", &u); err != nil {
			return fmt.Errorf("r300: program input %q has no interpolator", name)
		}
		ptr := 0
		for k, lu := range l.units {
			if lu == u {
				ptr = 4 * k
			}
		}
		ips[ntex] = 0x00D10000 | uint32(ptr)
		insts[ntex] |= uint32(ntex) | 1<<3 | uint32(t)<<6
		ntex++
	}
	n := max(ntex, 1)
	for i := 0; i < n; i++ {
		c.set(r3.RS_IP_0+4*uint32(i), ips[i])
		c.set(r3.RS_INST_0+4*uint32(i), insts[i])
	}
	c.set(r3.RS_INST_COUNT, uint32(n-1))

	for _, w := range prog.Words() {
		c.set(w[0], w[1])
	}
	uniforms := map[string][4]float32{}
	for u := range st.Units {
		uniforms[fmt.Sprintf("env%d", u)] = st.Units[u].Env.Color
	}
	uniforms["clear"] = c.clearColor
	vals, err := prog.ConstValues(uniforms)
	if err != nil {
		return err
	}
	c.setConsts(vals)

	// Texture units.
	enable := uint32(0)
	for u := 0; u < driver.MaxTextureUnits; u++ {
		if prog.Units>>u&1 == 0 {
			continue
		}
		t := st.Units[u].Texture
		if t == nil {
			continue
		}
		if err := c.bindUnit(u, t); err != nil {
			return err
		}
		enable |= 1 << u
	}
	c.enableUnits(enable)
	return nil
}

// setConsts writes the fragment program's constant registers in FP24.
func (c *Context) setConsts(vals [][4]float32) {
	for k, v := range vals {
		for ch := 0; ch < 4; ch++ {
			c.set(r3.US_ALU_CONST_R_0+16*uint32(k)+4*uint32(ch), r3.EncodeFP24(v[ch]))
		}
	}
}

// bindUnit uploads texture t (if its device copy is stale) and points
// texture unit u at it.
func (c *Context) bindUnit(u int, t *driver.Texture) error {
	d, err := c.texture(t)
	if err != nil {
		return err
	}
	regs := texRegs(d, t.Sampler)
	o := 4 * uint32(u)
	for k, a := range []uint32{r3.TX_FILTER0_0, r3.TX_FILTER1_0, r3.TX_FORMAT0_0, r3.TX_FORMAT1_0, r3.TX_FORMAT2_0, r3.TX_OFFSET_0} {
		c.set(a+o, regs[k])
	}
	return nil
}

// enableUnits writes TX_ENABLE and invalidates the texture cache when a
// texture changed since the last draw.
func (c *Context) enableUnits(enable uint32) {
	c.set(r3.TX_ENABLE, enable)
	if c.texDirty {
		c.kick(r3.TX_INVALTAGS, 0)
		c.texDirty = false
	}
}

// emitPixelOps programs FG (fog, alpha test), ZB and RB3D.
func (c *Context) emitPixelOps(st *driver.State) {
	// Fog (L524-549, L587-596, L830-839).
	if st.Fog.Enabled {
		fn, sel, scale, off := uint32(0), uint32(1), float32(1), float32(0)
		if fogFromW(st) {
			sel = 4
			switch st.Fog.Mode {
			case driver.FogLinear:
				if st.Fog.End != st.Fog.Start {
					d := st.Fog.End - st.Fog.Start
					scale, off = -1/d, st.Fog.End/d
				}
			case driver.FogExp:
				fn, scale = 1, st.Fog.Density
			case driver.FogExp2:
				fn, scale = 2, st.Fog.Density
			}
		}
		c.set(r3.FG_FOG_BLEND, 1|fn<<1)
		c.set(r3.GB_SELECT, sel)
		c.set(r3.GA_FOG_SCALE, f32(scale))
		c.set(r3.GA_FOG_OFFSET, f32(off))
		c.set(r3.FG_FOG_COLOR_R, unorm10(st.Fog.Color[0]))
		c.set(r3.FG_FOG_COLOR_G, unorm10(st.Fog.Color[1]))
		c.set(r3.FG_FOG_COLOR_B, unorm10(st.Fog.Color[2]))
	} else {
		c.set(r3.FG_FOG_BLEND, 0)
		c.set(r3.GB_SELECT, 0)
	}
	af := uint32(0)
	if st.AlphaTest.Enabled {
		// FG_ALPHA_FUNC codes follow GL's order (L511).
		af = unorm8(st.AlphaTest.Ref) | uint32(st.AlphaTest.Func)<<8 | 1<<11
	}
	if st.Dither {
		af |= 1 << 20
	}
	c.set(r3.FG_ALPHA_FUNC, af)

	// Depth and stencil (L2390-2518).
	zc, zs, ref := uint32(0), uint32(0), uint32(0)
	if st.DepthTest && c.tgt.depth {
		zc |= 2
		if st.DepthMask {
			zc |= 4
		}
		zs = zbFunc[st.DepthFunc]
	}
	if st.StencilTest && c.tgt.stencil {
		zc |= 1 | 1<<4
		f, b := st.Stencil[0], st.Stencil[1]
		zs |= zbFunc[f.Func]<<3 | uint32(f.Fail)<<6 | uint32(f.ZPass)<<9 | uint32(f.ZFail)<<12
		zs |= zbFunc[b.Func]<<15 | uint32(b.Fail)<<18 | uint32(b.ZPass)<<21 | uint32(b.ZFail)<<24
		ref = uint32(f.Ref)&0xFF | f.ValueMask&0xFF<<8 | f.WriteMask&0xFF<<16
	}
	c.set(r3.ZB_CNTL, zc)
	c.set(r3.ZB_ZSTENCILCNTL, zs)
	c.set(r3.ZB_STENCILREFMASK, ref)

	// Blending, ROP, mask, dither (L42-501).
	bc, ab := uint32(0), uint32(0)
	if st.Blend.Enabled && !st.LogicOpEnabled {
		b := st.Blend
		bc = 1 | 2 | 4 | combCode[b.EqRGB]<<12 | blendCode[b.SrcRGB]<<16 | blendCode[b.DstRGB]<<24
		ab = combCode[b.EqAlpha]<<12 | blendCode[b.SrcAlpha]<<16 | blendCode[b.DstAlpha]<<24
		col := b.Color
		c.set(r3.RB3D_CONSTANT_COLOR, unorm8(col[2])|unorm8(col[1])<<8|unorm8(col[0])<<16|unorm8(col[3])<<24)
	}
	c.set(r3.RB3D_BLENDCNTL, bc)
	c.set(r3.RB3D_ABLENDCNTL, ab)
	rop := uint32(0)
	if st.LogicOpEnabled {
		// ROP2 is the bit-reversed GL logic op (guide §2.1 derived).
		op := uint32(st.LogicOp)
		r2 := op>>3&1 | op>>1&2 | op<<1&4 | op<<3&8
		rop = 1<<2 | r2<<8
	}
	c.set(r3.RB3D_ROPCNTL, rop)
	m := st.ColorMask
	mask := uint32(0)
	for i, bit := range []uint32{4, 2, 1, 8} { // R, G, B, A → bits 2, 1, 0, 3
		if m[i] && (i < 3 || !c.tgt.noAlpha) {
			mask |= bit
		}
	}
	c.set(r3.RB3D_COLOR_CHANNEL_MASK, mask)
	dither := uint32(1 | 1<<2) // round
	if st.Dither {
		dither = 2 | 1<<2 // LUT for RGB (with FG DITH_EN)
	}
	c.set(r3.RB3D_DITHER_CTL, dither)
}

// Clear implements driver.Context with a rectangle over the scissor box:
// depth ALWAYS, stencil REPLACE, no blending, the GL masks.
func (c *Context) Clear(st *driver.State, mask driver.ClearMask, color [4]float32, depth float32, stencil int) error {
	if err := c.usable(); err != nil {
		return err
	}
	if err := c.bind(st.Framebuffer); err != nil {
		return err
	}
	cs := *st
	cs.Blend.Enabled, cs.LogicOpEnabled, cs.AlphaTest.Enabled, cs.Fog.Enabled = false, false, false, false
	cs.CullEnabled, cs.PolygonOffset.Fill, cs.Dither, cs.Shade = false, false, false, driver.ShadeSmooth
	cs.Projection = mgl32.Ident4()
	if mask&driver.ClearColor == 0 {
		cs.ColorMask = [4]bool{}
	}
	cs.DepthTest = mask&driver.ClearDepth != 0 && c.tgt.depth && st.DepthMask
	cs.DepthFunc, cs.DepthMask = driver.CompareAlways, true
	cs.StencilTest = mask&driver.ClearStencil != 0 && c.tgt.stencil
	for f := range cs.Stencil {
		wm := st.Stencil[0].WriteMask
		cs.Stencil[f] = driver.StencilFace{Func: driver.CompareAlways, Ref: stencil & 0xFF, ValueMask: 0xFF, WriteMask: wm,
			Fail: driver.StencilReplace, ZFail: driver.StencilReplace, ZPass: driver.StencilReplace}
	}
	if c.tgt.cb == 0 || c.tgt.noAlpha && cs.ColorMask == [4]bool{false, false, false, true} {
		cs.ColorMask = [4]bool{}
	}
	if cs.ColorMask == [4]bool{} && !cs.DepthTest && !cs.StencilTest {
		return nil
	}
	c.clearColor = color
	z := max(0, min(1, depth))
	w, h := float32(c.tgt.w), float32(c.tgt.h)
	corner := func(x, y float32) swtnl.Vertex {
		return swtnl.Vertex{Win: [4]float32{x, y, z, 1}, Color: color}
	}
	a, b, cc, d := corner(0, 0), corner(w, 0), corner(w, h), corner(0, h)
	return c.drawPrims(&cs, r3.PrimTriangles, []swtnl.Vertex{a, b, cc, a, cc, d}, fpKey{clear: true})
}

// drawTex draws an OES_draw_texture rectangle: window position, depth
// n + z(f-n), and per unit the crop rectangle mapped to the corners.
func (c *Context) drawTex(st *driver.State, r *driver.DrawTexRect) error {
	z := st.DepthRange[0] + max(0, min(1, r.Z))*(st.DepthRange[1]-st.DepthRange[0])
	ds := *st
	ds.Fog.Enabled = false
	ds.CullEnabled = false
	ds.Projection = mgl32.Ident4()
	corner := func(x, y float32, fx, fy float32) swtnl.Vertex {
		v := swtnl.Vertex{Win: [4]float32{x, y, z, 1}, Color: st.CurrentColor}
		for u := range st.Units {
			t := st.Units[u].Texture
			if t == nil {
				continue
			}
			cr := t.Crop
			tw, th := float32(t.Levels[0].Width), float32(t.Levels[0].Height)
			v.Tex[u] = [4]float32{(float32(cr[0]) + fx*float32(cr[2])) / tw, (float32(cr[1]) + fy*float32(cr[3])) / th, 0, 1}
		}
		return v
	}
	a := corner(r.X, r.Y, 0, 0)
	b := corner(r.X+r.W, r.Y, 1, 0)
	cc := corner(r.X+r.W, r.Y+r.H, 1, 1)
	d := corner(r.X, r.Y+r.H, 0, 1)
	return c.drawPrims(&ds, r3.PrimTriangles, []swtnl.Vertex{a, b, cc, a, cc, d}, makeKey(st))
}
