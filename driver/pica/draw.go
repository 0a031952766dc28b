package pica

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
	p "github.com/retrogl/retrogl/hal/pica"
)

// primOf maps GL primitives to PRIMITIVE_CONFIG modes (L3016-L3023).
var primOf = map[driver.Prim]uint32{driver.PrimTriangles: 0, driver.PrimTriangleStrip: 1, driver.PrimTriangleFan: 2}

// compareOf maps GL comparisons to the PICA's codes (0 never, 1 always,
// 2 ==, 3 !=, 4 <, 5 <=, 6 >, 7 >=).
var compareOf = [8]uint32{
	driver.CompareNever: 0, driver.CompareLess: 4, driver.CompareEqual: 2, driver.CompareLEqual: 5,
	driver.CompareGreater: 6, driver.CompareNotEqual: 3, driver.CompareGEqual: 7, driver.CompareAlways: 1,
}

// blendFactorOf maps GL blend factors to BLEND_FUNC codes (L1845-L1864).
var blendFactorOf = [...]uint32{
	driver.BlendZero: 0, driver.BlendOne: 1, driver.BlendSrcColor: 2, driver.BlendOneMinusSrcColor: 3,
	driver.BlendDstColor: 4, driver.BlendOneMinusDstColor: 5, driver.BlendSrcAlpha: 6,
	driver.BlendOneMinusSrcAlpha: 7, driver.BlendDstAlpha: 8, driver.BlendOneMinusDstAlpha: 9,
	driver.BlendSrcAlphaSaturate: 14, driver.BlendConstantColor: 10, driver.BlendOneMinusConstantColor: 11,
	driver.BlendConstantAlpha: 12, driver.BlendOneMinusConstantAlpha: 13,
}

// logicOpOf maps GL logic ops (GL_CLEAR + n) to LOGIC_OP codes, whose
// order differs (L1874-L1893).
var logicOpOf = [16]uint32{0, 1, 2, 3, 13, 6, 11, 9, 10, 12, 7, 14, 5, 15, 8, 4}

func q8(v float32) uint8 {
	if v != v || v <= 0 {
		return 0
	}
	if v >= 1 {
		return 255
	}
	return uint8(math.Round(float64(v) * 255))
}

// Draw implements driver.Context.
func (c *Context) Draw(st *driver.State, dc *driver.DrawCall) error {
	if err := c.usable(); err != nil {
		return err
	}
	mode, ok := primOf[dc.Prim]
	if dc.DrawTexture != nil {
		c.surface()
		return c.drawTexture(st, dc.DrawTexture)
	}
	if st.MatrixPalette.Enabled && dc.Arrays != nil {
		return c.paletteDraw(st, dc)
	}
	var outs []outVert
	twoSide := ok && st.Lighting.Enabled && st.Lighting.TwoSide
	if !ok || st.Shade == driver.ShadeFlat || twoSide {
		// Points, lines, flat shading and two-sided lighting become
		// triangle lists.
		outs, mode = expand(dc, st.Shade == driver.ShadeFlat), 0
		if len(outs) == 0 {
			return nil
		}
	}
	polygons := dc.Prim >= driver.PrimTriangles
	if dc.Count == 0 || (polygons && st.CullEnabled && st.CullFace == driver.FaceFrontAndBack) {
		return nil
	}
	c.surface()
	if !c.raster(st, polygons, dc.Prim == driver.PrimPoints) {
		return nil
	}
	units := c.drv.caps.Limits.MaxTextureUnits
	key := makeKey(st, dc, units)
	cfg := uint32(1 << 12)
	for u := 0; u < units; u++ {
		if t := st.Units[u].Texture; t != nil {
			if err := c.bindTexture(u, t, u == 0 && c.custom == nil && key.proj0()); err != nil {
				return err
			}
			cfg |= 1 << uint(u)
		}
	}
	c.set(p.TEXUNIT_CONFIG, cfg)
	c.combiners(st, units)
	c.fragmentOps(st)
	if err := c.fog(st); err != nil {
		return err
	}

	c.scaleKey(&key)
	key.pointClip = key.prim == primPoint && c.clipOn
	if twoSide && c.custom == nil {
		// The PICA's rasteriser has one colour and no facing input: the
		// facing of each triangle is found on the CPU and rides in an
		// attribute (v10.x, +1 front, -1 back) that the generated shader
		// multiplies the normal by, so the triangles stay in their order.
		c.markFacing(st, dc, outs)
		key.twoSide = true
	}
	pr := c.custom
	if pr == nil {
		var err error
		if pr, err = c.ffProgram(key); err != nil {
			return err
		}
	}
	return c.vertices(st, dc, key, pr, mode, outs)
}

// ffProgram returns the generated program for a key, assembling it once.
func (c *Context) ffProgram(key ffKey) (*program, error) {
	name := key.String()
	if pr := c.programs[name]; pr != nil {
		return pr, nil
	}
	pr, err := assemble(name, genVS(key))
	if err != nil {
		return nil, err
	}
	c.programs[name] = pr
	return pr, nil
}

// markFacing sets the facing sign of every vertex of an expanded
// triangle draw: +1 for front faces, -1 for back faces. The facing is the
// sign of det[x y w] of the clip-space vertices (the homogeneous
// orientation test, valid for triangles that cross w = 0), compared with
// FrontFace as GL ES 1.1 §3.5.1 does in window space.
func (c *Context) markFacing(st *driver.State, dc *driver.DrawCall, outs []outVert) {
	mvp := st.Projection.Mul4(st.ModelView)
	clip := func(i int) mgl32.Vec4 {
		var v [4]float32
		dc.Arrays.Position.Fetch(i, [4]float32{0, 0, 0, 1}, &v)
		return mvp.Mul4x1(mgl32.Vec4(v))
	}
	for t := 0; t+2 < len(outs); t += 3 {
		a, b, d := clip(outs[t].self), clip(outs[t+1].self), clip(outs[t+2].self)
		det := float64(a[0])*(float64(b[1])*float64(d[3])-float64(b[3])*float64(d[1])) -
			float64(a[1])*(float64(b[0])*float64(d[3])-float64(b[3])*float64(d[0])) +
			float64(a[3])*(float64(b[0])*float64(d[1])-float64(b[1])*float64(d[0]))
		if a[3] < 0 && b[3] < 0 && d[3] < 0 {
			det = -det
		}
		ccw := det > 0
		sign := float32(-1)
		if ccw == (st.FrontFace == driver.WindingCCW) {
			sign = 1
		}
		for k := t; k < t+3; k++ {
			outs[k].facing = sign
		}
	}
}

// raster emits viewport, depth map, culling, scissor and the clip plane;
// it returns false when the scissor box is empty. Culling and polygon
// offset apply to polygons only (ES 1.1 sections 3.5.1, 3.5.5): points and
// lines, which reach the PICA as triangles, take neither.
func (c *Context) raster(st *driver.State, polygons, points bool) bool {
	v := st.Viewport
	c.vpFold = mgl32.Ident4()
	if v.X < -512 || v.X > 511 || v.Y < -512 || v.Y > 511 {
		// VIEWPORT_XY holds 10-bit signed offsets: a viewport further out
		// uses the whole surface as the PICA's viewport, and GL's mapping
		// is folded into clip space: x' = x*W/w8 + w*((W + 2X)/w8 - 1).
		w8, h8 := float32(c.w8), float32(c.h8)
		c.vpFold = mgl32.Mat4{float32(v.W) / w8, 0, 0, 0, 0, float32(v.H) / h8, 0, 0, 0, 0, 1, 0,
			(float32(v.W)+2*float32(v.X))/w8 - 1, (float32(v.H)+2*float32(v.Y))/h8 - 1, 0, 1}
		v = driver.Rect{W: c.w8, H: c.h8}
	}
	c.vpPica = v
	c.set(p.VIEWPORT_WIDTH, p.ToF24(float32(v.W)/2))
	c.set(p.VIEWPORT_INVW, p.ToF31(2/float32(v.W))<<1)
	c.set(p.VIEWPORT_HEIGHT, p.ToF24(float32(v.H)/2))
	c.set(p.VIEWPORT_INVH, p.ToF31(2/float32(v.H))<<1)
	c.set(p.VIEWPORT_XY, uint32(v.X)&0x3FF|(uint32(v.Y)&0x3FF)<<16)
	n, f := st.DepthRange[0], st.DepthRange[1]
	off := n
	if st.PolygonOffset.Fill && c.hasDepth() && polygons {
		off += st.PolygonOffset.Units / float32(uint32(1)<<c.dfmt.Bits()-1)
	}
	c.set(p.DEPTHMAP_SCALE, p.ToF24(n-f))
	c.set(p.DEPTHMAP_OFFSET, p.ToF24(off))
	cull := uint32(0)
	if st.CullEnabled && polygons {
		// 1 drops counter-clockwise triangles, 2 clockwise ones.
		backIsCW := st.FrontFace == driver.WindingCCW
		dropCW := (st.CullFace == driver.FaceBack) == backIsCW
		cull = 1
		if dropCW {
			cull = 2
		}
	}
	c.set(p.FACECULLING_CONFIG, cull)
	if st.ScissorTest {
		s := st.Scissor
		x0, y0 := max(0, s.X), max(0, s.Y)
		x1, y1 := min(c.cfg.Width, s.X+s.W), min(c.cfg.Height, s.Y+s.H)
		if x0 >= x1 || y0 >= y1 {
			return false
		}
		c.set(p.SCISSORTEST_MODE, 3)
		c.set(p.SCISSORTEST_POS, uint32(x0)|uint32(y0)<<16)
		c.set(p.SCISSORTEST_DIM, uint32(x1-1)|uint32(y1-1)<<16)
	} else {
		c.set(p.SCISSORTEST_MODE, 0)
	}
	clip := uint32(0)
	c.clipOn = false
	for _, pl := range st.ClipPlanes[:1] {
		if !pl.Enabled {
			continue
		}
		m := c.vpFold.Mul4(depthFold).Mul4(st.Projection)
		inv := m.Inv().Transpose()
		c.clipQ, c.clipOn = inv.Mul4x1(mgl32.Vec4(pl.Eq)), true
		if points && c.custom == nil {
			// A point is clipped by its centre (ES 1.1 2.11): the
			// generated shader tests the centre (see genPoint); the
			// chip's plane would cut the point's two triangles.
			continue
		}
		clip = 1
		for i := 0; i < 4; i++ {
			c.set(p.FRAGOP_CLIP_DATA0+p.Reg(i), p.ToF24(c.clipQ[i]))
		}
	}
	c.set(p.FRAGOP_CLIP, clip)
	return true
}

// fragmentOps emits alpha test, stencil, depth, blend or logic op and the
// colour mask.
func (c *Context) fragmentOps(st *driver.State) {
	at := uint32(0)
	if st.AlphaTest.Enabled {
		at = 1 | compareOf[st.AlphaTest.Func]<<4 | uint32(q8(st.AlphaTest.Ref))<<8
	}
	c.set(p.FRAGOP_ALPHA_TEST, at)
	stt := uint32(0)
	if st.StencilTest && c.dfmt == p.DepthD24S8 && c.zb.Size != 0 {
		s := st.Stencil[0]
		ref := uint32(max(0, min(255, s.Ref)))
		stt = 1 | compareOf[s.Func]<<4 | (s.WriteMask&0xFF)<<8 | ref<<16 | (s.ValueMask&0xFF)<<24
		c.set(p.STENCIL_OP, uint32(s.Fail)|uint32(s.ZFail)<<4|uint32(s.ZPass)<<8)
	}
	c.set(p.STENCIL_TEST, stt)
	dcm := uint32(0)
	for i, on := range st.ColorMask {
		if on {
			dcm |= 1 << (8 + uint(i))
		}
	}
	if st.DepthTest && c.hasDepth() {
		dcm |= 1 | compareOf[st.DepthFunc]<<4
		if st.DepthMask {
			dcm |= 1 << 12
		}
	}
	c.set(p.DEPTH_COLOR_MASK, dcm)
	if st.LogicOpEnabled {
		c.set(p.COLOR_OPERATION, 0x00E40000)
		c.set(p.LOGIC_OP, logicOpOf[st.LogicOp&15])
		return
	}
	c.set(p.COLOR_OPERATION, 0x00E40100)
	bf := uint32(0x01010000) // ADD, ONE, ZERO
	if st.Blend.Enabled {
		b := st.Blend
		bf = uint32(b.EqRGB) | uint32(b.EqAlpha)<<8 | blendFactorOf[b.SrcRGB]<<16 | blendFactorOf[b.DstRGB]<<20 |
			blendFactorOf[b.SrcAlpha]<<24 | blendFactorOf[b.DstAlpha]<<28
		c.set(p.BLEND_COLOR, rgba8(b.Color))
	}
	c.set(p.BLEND_FUNC, bf)
}

// attrSrc is one vertex input: where its value comes from.
type attrSrc struct {
	arr  *driver.Attrib
	def  [4]float32
	comp int
	vreg uint32
	// from picks the vertex an output vertex reads (self, prov or other);
	// aux attributes read outVert.aux instead of an array.
	from int
	aux  bool
	// facing attributes read outVert.facing.
	facing bool
}

const (
	fromSelf = iota
	fromProv
	fromOther
)

// vertices packs the draw's vertices into one float attribute buffer and
// kicks the draw. With outs (an expanded draw) the buffer holds one entry
// per output vertex and the draw is a non-indexed triangle list.
func (c *Context) vertices(st *driver.State, dc *driver.DrawCall, key ffKey, pr *program, mode uint32, outs []outVert) error {
	va := dc.Arrays
	flat := st.Shade == driver.ShadeFlat
	colorFrom := fromSelf
	if flat {
		colorFrom = fromProv
	}
	attrs := []attrSrc{{arr: &va.Position, def: [4]float32{0, 0, 0, 1}, comp: 4, vreg: 0},
		{arr: &va.Color, def: st.CurrentColor, comp: 4, vreg: 1, from: colorFrom}}
	if key.lighting || c.custom != nil {
		n := st.CurrentNormal
		attrs = append(attrs, attrSrc{arr: &va.Normal, def: [4]float32{n[0], n[1], n[2], 0}, comp: 3, vreg: 2, from: colorFrom})
	}
	for u := 0; u < 3; u++ {
		if (key.tex[u] != 0 && !key.sprite[u]) || (c.custom != nil && u < c.drv.caps.Limits.MaxTextureUnits) {
			attrs = append(attrs, attrSrc{arr: &va.TexCoord[u], def: st.CurrentTexCoord[u], comp: 4, vreg: uint32(3 + u)})
		}
	}
	if key.prim != primTriangle {
		attrs = append(attrs, attrSrc{comp: 2, vreg: 6, aux: true})
	}
	if key.prim == primLine {
		attrs = append(attrs, attrSrc{arr: &va.Position, def: [4]float32{0, 0, 0, 1}, comp: 4, vreg: 7, from: fromOther})
	}
	if key.flatLight {
		attrs = append(attrs, attrSrc{arr: &va.Position, def: [4]float32{0, 0, 0, 1}, comp: 4, vreg: 8, from: fromProv})
	}
	if key.sizeArray {
		attrs = append(attrs, attrSrc{arr: &va.PointSize, def: [4]float32{st.Point.Size, 0, 0, 1}, comp: 1, vreg: 9})
	}
	if key.twoSide {
		attrs = append(attrs, attrSrc{comp: 1, vreg: 10, facing: true})
	}
	if len(attrs) > 12 {
		return fmt.Errorf("pica200: %d vertex attributes (at most 12)", len(attrs))
	}
	first, n := dc.MinIndex, dc.MaxIndex-dc.MinIndex+1
	if outs != nil {
		first, n = 0, len(outs)
	}
	stride := 0
	for _, a := range attrs {
		stride += 4 * a.comp
	}
	if stride > 255 {
		return fmt.Errorf("pica200: vertex stride %d over 255 bytes", stride)
	}
	// Every byte of the n vertices is written below; the staging buffer
	// is the context's, as Upload copies it.
	if need := n*stride + 16; cap(c.vbuf) < need {
		c.vbuf = make([]byte, need)
	}
	buf := c.vbuf[:n*stride+16]
	var v [4]float32
	for i := 0; i < n; i++ {
		o := i * stride
		var ov outVert
		if outs != nil {
			ov = outs[i]
		} else {
			ov = outVert{self: first + i, prov: first + i, other: first + i}
		}
		for ai := range attrs {
			a := &attrs[ai]
			src := ov.self
			switch a.from {
			case fromProv:
				src = ov.prov
			case fromOther:
				src = ov.other
			}
			if arr := a.arr; !a.aux && !a.facing && arr.Enabled && arr.Type == driver.TypeFloat &&
				src*arr.Stride+4*min(arr.Size, a.comp) <= len(arr.Data) {
				// Float components are copied as they are (Fetch's
				// conversion keeps their bits); missing ones take
				// the default.
				k, d := min(arr.Size, a.comp), arr.Data[src*arr.Stride:]
				for c := 0; c < k; c++ {
					binary.LittleEndian.PutUint32(buf[o:], binary.LittleEndian.Uint32(d[4*c:]))
					o += 4
				}
				for ; k < a.comp; k++ {
					binary.LittleEndian.PutUint32(buf[o:], math.Float32bits(a.def[k]))
					o += 4
				}
				continue
			}
			switch {
			case a.aux:
				v = [4]float32{ov.aux[0], ov.aux[1], 0, 1}
			case a.facing:
				v = [4]float32{ov.facing, 0, 0, 1}
			default:
				a.arr.Fetch(src, a.def, &v)
			}
			for k := 0; k < a.comp; k++ {
				binary.LittleEndian.PutUint32(buf[o:], math.Float32bits(v[k]))
				o += 4
			}
		}
	}
	var ib []byte
	if dc.Indices != nil && outs == nil {
		ib = make([]byte, 2*dc.Count)
		for i := 0; i < dc.Count; i++ {
			binary.LittleEndian.PutUint16(ib[2*i:], uint16(dc.Indices.Index(i)-first))
		}
	}
	vbOff := len(buf) - 16
	buf = append(buf[:vbOff], ib...)
	c.vbuf = buf[:0]
	base, err := c.up.Upload(buf, 16)
	if err != nil {
		return err
	}
	switch {
	case c.custom == nil:
		c.ffUniforms(st, key)
	case c.custom.glsl != nil:
		if err := c.glslUniforms(st, c.custom.glsl); err != nil {
			return err
		}
	default:
		c.customUniformUpload()
	}
	c.useProgram(pr, len(attrs))
	var fmtLow, fmtHigh, c1, c2 uint32
	var perm uint64
	for k, a := range attrs {
		f := 3 | uint32(a.comp-1)<<2
		if k < 8 {
			fmtLow |= f << (4 * uint(k))
			c1 |= uint32(k) << (4 * uint(k))
		} else {
			fmtHigh |= f << (4 * uint(k-8))
			c2 |= uint32(k) << (4 * uint(k-8))
		}
		perm |= uint64(a.vreg) << (4 * uint(k))
	}
	fmtHigh |= uint32(len(attrs)-1) << 28
	c2 |= uint32(stride)<<16 | uint32(len(attrs))<<28
	c.set(p.VSH_ATTR_PERM_LOW, uint32(perm))
	c.set(p.VSH_ATTR_PERM_HIGH, uint32(perm>>32))
	c.set(p.ATTRIBBUFFERS_LOC, base>>3)
	c.set(p.ATTRIBBUFFERS_FMT_LOW, fmtLow)
	c.set(p.ATTRIBBUFFERS_FMT_HIGH, fmtHigh)
	c.set(p.AttribBuffer(0, 0), 0)
	c.set(p.AttribBuffer(0, 1), c1)
	c.set(p.AttribBuffer(0, 2), c2)
	for i := 1; i < 12; i++ {
		c.set(p.AttribBuffer(i, 2), 0)
	}
	c.set(p.PRIMITIVE_CONFIG, mode<<8|uint32(len(pr.outmap)-1))
	c.kick(p.RESTART_PRIMITIVE, 1)
	if ib != nil {
		c.set(p.NUMVERTICES, uint32(dc.Count))
		c.set(p.INDEXBUFFER_CONFIG, 0x80000000|uint32(vbOff))
		c.set(p.VERTEX_OFFSET, 0)
		c.set(p.GEOSTAGE_CONFIG, 0x100)
		c.set(p.GEOSTAGE_CONFIG2, 0x100)
		c.kick(p.START_DRAW_FUNC0, 0)
		c.kick(p.DRAWELEMENTS, 1)
	} else {
		count, firstV := uint32(dc.Count), uint32(dc.First-first)
		if outs != nil {
			count, firstV = uint32(len(outs)), 0
		}
		c.drawArrays(count, firstV)
		return nil
	}
	c.kick(p.START_DRAW_FUNC0, 1)
	c.kick(p.VTX_FUNC, 1)
	return nil
}

// drawArrays kicks a non-indexed draw of count vertices from firstV and
// ends it: the geometry-stage config around DRAWARRAYS, then the draw
// function and vertex cache resets. Draws, clears and OES_draw_texture
// rectangles all end this way.
func (c *Context) drawArrays(count, firstV uint32) {
	c.set(p.NUMVERTICES, count)
	c.set(p.INDEXBUFFER_CONFIG, 0x80000000)
	c.set(p.VERTEX_OFFSET, firstV)
	c.set(p.GEOSTAGE_CONFIG, 0)
	c.set(p.GEOSTAGE_CONFIG2, 1)
	c.kick(p.START_DRAW_FUNC0, 0)
	c.kick(p.DRAWARRAYS, 1)
	c.kick(p.GEOSTAGE_CONFIG2, 0)
	c.kick(p.START_DRAW_FUNC0, 1)
	c.kick(p.VTX_FUNC, 1)
}

// customUniformUpload sends the uniforms the app set for a custom program.
func (c *Context) customUniformUpload() {
	for i := 0; i < 96; i++ {
		if v, ok := c.customUniforms[i]; ok {
			c.uniform(i, v)
		}
	}
}

// Clear implements driver.Context by drawing a rectangle over the scissor
// box (or the whole surface): the combiner outputs the clear colour as a
// constant, the depth test is ALWAYS with the clear depth as the vertex
// depth, and the stencil test is ALWAYS with REPLACE; the colour and
// stencil write masks apply, as glClear requires.
func (c *Context) Clear(st *driver.State, mask driver.ClearMask, color [4]float32, depth float32, stencil int) error {
	if err := c.usable(); err != nil {
		return err
	}
	doColor := mask&driver.ClearColor != 0 && st.ColorMask != [4]bool{}
	doDepth := mask&driver.ClearDepth != 0 && c.hasDepth() && st.DepthMask
	doStencil := mask&driver.ClearStencil != 0 && c.dfmt == p.DepthD24S8 && c.zb.Size != 0 && st.Stencil[0].WriteMask&0xFF != 0
	if !doColor && !doDepth && !doStencil {
		return nil
	}
	c.surface()
	x0, y0, x1, y1 := 0, 0, c.cfg.Width, c.cfg.Height
	if st.ScissorTest {
		s := st.Scissor
		x0, y0 = max(0, s.X), max(0, s.Y)
		x1, y1 = min(x1, s.X+s.W), min(y1, s.Y+s.H)
		if x0 >= x1 || y0 >= y1 {
			return nil
		}
	}
	// The rectangle covers pixel centres x0..x1-1, y0..y1-1 in a viewport
	// equal to the surface; the scissor registers stay off.
	w, h := float32(c.w8), float32(c.h8)
	c.set(p.VIEWPORT_WIDTH, p.ToF24(w/2))
	c.set(p.VIEWPORT_INVW, p.ToF31(2/w)<<1)
	c.set(p.VIEWPORT_HEIGHT, p.ToF24(h/2))
	c.set(p.VIEWPORT_INVH, p.ToF31(2/h)<<1)
	c.set(p.VIEWPORT_XY, 0)
	c.set(p.DEPTHMAP_SCALE, p.ToF24(-1))
	c.set(p.DEPTHMAP_OFFSET, 0)
	c.set(p.FACECULLING_CONFIG, 0)
	c.set(p.SCISSORTEST_MODE, 0)
	c.set(p.FRAGOP_CLIP, 0)
	c.set(p.TEXUNIT_CONFIG, 1<<12)
	c.set(p.FRAGOP_ALPHA_TEST, 0)
	var stages [6]tevStage
	for i := range stages {
		stages[i] = passStage
	}
	stages[0] = stage([3]uint32{srcConstant}, [3]uint32{srcConstant}, [3]uint32{}, [3]uint32{}, fnReplace, fnReplace)
	stages[0].color = rgba8(color)
	c.emitStages(stages)
	dcm := uint32(0)
	if doColor {
		for i, on := range st.ColorMask {
			if on {
				dcm |= 1 << (8 + uint(i))
			}
		}
	}
	if doDepth {
		dcm |= 1 | 1<<4 | 1<<12 // test ALWAYS, write
	}
	c.set(p.DEPTH_COLOR_MASK, dcm)
	stt := uint32(0)
	if doStencil {
		stt = 1 | 1<<4 | (st.Stencil[0].WriteMask&0xFF)<<8 | uint32(stencil&0xFF)<<16 | 0xFF<<24
		c.set(p.STENCIL_OP, 2<<8|2<<4|2)
	}
	c.set(p.STENCIL_TEST, stt)
	c.set(p.COLOR_OPERATION, 0x00E40100)
	c.set(p.BLEND_FUNC, 0x01010000)
	c.setFogOff()
	pr := c.programs["clear"]
	if pr == nil {
		var err error
		pr, err = assemble("clear", clearVS)
		if err != nil {
			return err
		}
		c.programs["clear"] = pr
	}
	// Clip-space corners of the pixel rectangle; z = -depth gives window
	// depth = depth with SCALE -1 and OFFSET 0.
	cx := func(x int) float32 { return 2*float32(x)/w - 1 }
	cy := func(y int) float32 { return 2*float32(y)/h - 1 }
	z := -float32(math.Max(0, math.Min(1, float64(depth))))
	quad := [][4]float32{{cx(x0), cy(y0), z, 1}, {cx(x1), cy(y0), z, 1}, {cx(x1), cy(y1), z, 1}, {cx(x0), cy(y1), z, 1}}
	buf := make([]byte, 4*16)
	for i, v := range quad {
		for k := 0; k < 4; k++ {
			binary.LittleEndian.PutUint32(buf[16*i+4*k:], math.Float32bits(v[k]))
		}
	}
	base, err := c.up.Upload(buf, 16)
	if err != nil {
		return err
	}
	saved := c.custom
	c.custom = nil
	c.useProgram(pr, 1)
	c.custom = saved
	c.set(p.VSH_ATTR_PERM_LOW, 0x76543210)
	c.set(p.VSH_ATTR_PERM_HIGH, 0xFEDCBA98)
	c.set(p.ATTRIBBUFFERS_LOC, base>>3)
	c.set(p.ATTRIBBUFFERS_FMT_LOW, 0xF)
	c.set(p.ATTRIBBUFFERS_FMT_HIGH, 0)
	c.set(p.AttribBuffer(0, 0), 0)
	c.set(p.AttribBuffer(0, 1), 0)
	c.set(p.AttribBuffer(0, 2), 16<<16|1<<28)
	for i := 1; i < 12; i++ {
		c.set(p.AttribBuffer(i, 2), 0)
	}
	c.set(p.PRIMITIVE_CONFIG, 2<<8|uint32(len(pr.outmap)-1))
	c.kick(p.RESTART_PRIMITIVE, 1)
	c.drawArrays(4, 0)
	return nil
}

// clearVS passes a clip-space position through.
const clearVS = `; clear rectangle: position passes through
.out opos position
.out oclr color
.proc main
    mov opos, v0
    mov oclr, v0
    end
.end
`
