package glamo

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
	hg "github.com/retrogl/retrogl/hal/glamo"
)

// primCode maps GL primitives to EGPDTYPE (L2347-2360); LINE_LOOP is a
// strip with the first vertex repeated.
var primCode = [...]string{
	driver.PrimPoints: "POINTS", driver.PrimLines: "LINES", driver.PrimLineLoop: "LINE_STRIP",
	driver.PrimLineStrip: "LINE_STRIP", driver.PrimTriangles: "TRIANGLES",
	driver.PrimTriangleStrip: "TRIANGLE_STRIP", driver.PrimTriangleFan: "TRIANGLE_FAN",
}

// Stream element types (1F10h D[6:4], L1969-1974).
const (
	dtFloat = 0
	dtShort = 1
	dtFixed = 2
	dtByte  = 3
	dtUByte = 4
)

// streamOf describes how an array goes to the chip: the data type code and
// whether the driver must convert it to float first.
func streamType(a *driver.Attrib, normal bool) (code uint32, convert bool) {
	switch a.Type {
	case driver.TypeFloat:
		return dtFloat, false
	case driver.TypeFixed:
		return dtFixed, false
	case driver.TypeShort:
		return dtShort, normal
	case driver.TypeByte:
		return dtByte, normal
	case driver.TypeUByte:
		return dtUByte, false
	}
	return dtFloat, true
}

// upload copies vertices MinIndex..MaxIndex of an array into VRAM and
// returns the stream control and base words.
func (c *Context) upload(a *driver.Attrib, arr string, dc *driver.DrawCall, normal bool) (ctl, base uint32, err error) {
	code, conv := streamType(a, normal)
	n := dc.MaxIndex - dc.MinIndex + 1
	esz := a.Size * a.Type.Size()
	if conv {
		esz = 4 * a.Size
		code = dtFloat
	}
	bp := uploadBufs.Get().(*[]byte)
	defer uploadBufs.Put(bp)
	if cap(*bp) < n*esz {
		*bp = make([]byte, n*esz)
	}
	data := (*bp)[:n*esz]
	for i := 0; i < n; i++ {
		vi := dc.MinIndex + i
		if conv {
			var v [4]float32
			a.Fetch(vi, [4]float32{}, &v)
			for k := 0; k < a.Size; k++ {
				binary.LittleEndian.PutUint32(data[i*esz+4*k:], math.Float32bits(v[k]))
			}
			continue
		}
		copy(data[i*esz:(i+1)*esz], a.Data[vi*a.Stride:])
	}
	addr, err := c.up.Upload(data, 4)
	if err != nil {
		return 0, 0, fmt.Errorf("glamo3365: vertex data: %w", err)
	}
	ctl = hg.Pack("MGVStrm0Ctl", "STRIDE", esz, "DIM", a.Size-1, "TYPE", code, "ARRAY", arr)
	return ctl, addr, nil
}

// uploadBufs holds upload's staging buffers: the device copies the data
// (hal.Device.Write), so a buffer serves the next draw and a draw of
// thousands of vertices allocates nothing.
var uploadBufs = sync.Pool{New: func() any { return new([]byte) }}

// identity reports whether m is the identity.
func identity(m mgl32.Mat4) bool { return m == mgl32.Ident4() }

// Draw implements driver.Context.
func (c *Context) Draw(st *driver.State, dc *driver.DrawCall) error {
	if err := c.usable(); err != nil {
		return err
	}
	if dc.DrawTexture != nil {
		return c.drawTex(st, dc.DrawTexture)
	}
	// Flat shading on the chip copies the provoking vertex's specular
	// colour, and with it the vertex fog factor in its alpha (the F plane,
	// L1767), to the whole triangle; GL flattens the colour only and fogs
	// each fragment by its own distance. swtnl flattens the colours and
	// computes fog per vertex, and the chip then shades Gouraud.
	if st.MatrixPalette.Enabled || (st.Shade == driver.ShadeFlat && st.Fog.Enabled) {
		return c.drawSoftware(st, dc)
	}
	x0, y0, x1, y1, ok := c.scissor(st)
	if !ok || dc.Count == 0 {
		return nil
	}
	count := dc.Count
	if dc.Prim == driver.PrimLineLoop {
		count++
	}
	if count >= 1<<20 {
		return fmt.Errorf("glamo3365: %d vertices in one draw; RGTVerNum holds 2^20-1 (L741)", count)
	}
	m := &c.em
	c.surface(st)
	c.setScissor(x0, y0, x1, y1)
	c.transform(st)

	// Textures: enabled GL units go to chip units in order.
	var units []int
	for u := 0; u < 2; u++ {
		if st.Units[u].Texture != nil {
			units = append(units, u)
		}
	}
	isPoint := dc.Prim == driver.PrimPoints
	sprite := isPoint && st.Point.Sprite
	if sprite && keepsCoords(st) {
		// The chip replaces every unit's coordinates on a sprite (260Ch
		// D14): sprites where a unit keeps its coordinates become two
		// triangles each on the software path.
		return c.drawSoftware(st, dc)
	}
	smoothPt := isPoint && st.Point.Smooth
	smoothLn := dc.Prim >= driver.PrimLines && dc.Prim <= driver.PrimLineStrip && st.LineSmooth
	en0, en1 := uint32(0), uint32(0)
	en1, err := c.bindTextures(st, units, en1)
	if err != nil {
		return err
	}
	if len(units) > 0 {
		// Perspective correction (2100h D9) divides by the interpolated
		// 1/w at every pixel. When every vertex has w = 1 (affine
		// projection and model-view, positions without w) the division is
		// by exactly 1 and changes nothing, so the driver leaves it off.
		one := mgl32.Vec4{0, 0, 0, 1}
		affine := st.Projection.Row(3) == one && st.ModelView.Row(3) == one &&
			!(dc.Arrays.Position.Enabled && dc.Arrays.Position.Size == 4)
		en0 |= hg.Pack("EGEn0", "TXMP", true, "TXPP", !affine, "TXNUM", len(units))
		en1 |= hg.Pack("EGEn1", "TXBL", true)
	}
	if (smoothPt || smoothLn) && len(units) == 2 {
		// Smooth points and lines take a texture unit for their coverage
		// (2138h); with both units textured they are drawn aliased, as
		// the other backends draw every smooth primitive (decision: an
		// aliased point or line is within GL's antialiasing latitude,
		// and is what a draw needing both units can have).
		smoothPt, smoothLn = false, false
	}
	if smoothPt || smoothLn {
		aa, err := c.aaTexture()
		if err != nil {
			return err
		}
		k := len(units)
		c.bindUnit(k, aa, driver.Sampler{MinFilter: driver.FilterLinear, MagFilter: driver.FilterLinear,
			WrapS: driver.WrapClampToEdge, WrapT: driver.WrapClampToEdge}, 0)
		m.set("EGStippleCfg", hg.Pack("EGStippleCfg", "AAPOINTTX", k, "AALINETX", k))
		if smoothPt {
			en1 |= hg.Pack("EGEn1", "AAPOINT", true)
		} else {
			en0 |= hg.Pack("EGEn0", "AALINE", true)
			m.set("RGRCpHalf", f24(2/max(st.LineWidth, 1)))
		}
	}

	// Front end: texture coordinate sets, transform and projection.
	front := hg.Pack("RGXFront", "TWOSIDE", st.Lighting.Enabled && st.Lighting.TwoSide,
		"PTSIZESEL", isPoint && st.Point.SizeArrayActive)
	texCfg := uint32(0)
	var setIn uint32
	for k, u := range units {
		set := []string{"A", "B"}[k]
		a := &dc.Arrays.TexCoord[u]
		mat := st.Units[u].Matrix
		proj := mat.Row(3) != mgl32.Vec4{0, 0, 0, 1} || (a.Enabled && a.Size == 4)
		if !identity(mat) || proj {
			front |= hg.Pack("RGXFront", "TEXXFORM", true)
			texCfg |= hg.Pack("RGPTexCfg", "TEX"+set+"XFORM", true, "TEX"+set+"MAT", k)
			vals := make([]uint32, 16)
			for i := range vals {
				vals[i] = f24(mat[i])
			}
			m.setBlock([]uint16{hg.Tex0Mat, hg.Tex1Mat}[k], vals)
		}
		if proj {
			front |= hg.Pack("RGXFront", "XFORMPROJ", true)
			texCfg |= hg.Pack("RGPTexCfg", "TEX"+set+"PROJ", true)
		}
		// Coordinates enter as 4D (u, v, w, q) so the q of a 4-component
		// array or the current q reaches the transform (2040h D[31:28]).
		setIn |= 2 << (30 - 2*uint(k))
	}
	m.set("RGPVDTexSet", setIn)
	m.set("RGPTexCfg", texCfg)
	m.set("RGXFront", front)

	// Lighting and fog.
	vfog, vmode := c.fogSetup(st)
	if st.Fog.Enabled {
		en0 |= hg.Pack("EGEn0", "FOG", true)
	}
	lt, mc := c.lighting(st, dc, vfog)
	m.set("RGXMatCfg", mc|vmode)

	// Points.
	if isPoint {
		pp := &st.Point
		if pp.DistAtten != [3]float32{1, 0, 0} {
			lt |= hg.Pack("RGXLight", "PTSCALE", true, "GLPTSCALE", true)
			m.setBlock(0x2630, []uint32{f24(pp.DistAtten[0]), f24(pp.DistAtten[1]), f24(pp.DistAtten[2])})
		}
		lim := c.drv.caps.Limits.AliasedPointSizeRange
		m.setBlock(0x2640, []uint32{f24(max(pp.Min, lim[0])), f24(min(pp.Max, lim[1])), 0})
		m.set("RGXPtSize", f24(pp.Size))
	}
	m.set("RGXLight", lt)
	// Lines.
	if dc.Prim >= driver.PrimLines && dc.Prim <= driver.PrimLineStrip {
		m.set("RGPLine", hg.Pack("RGPLine", "WIDTH", hg.Fix9_4.Encode(float64(st.LineWidth))))
	}

	// Set-up: GL's provoking vertex is the last one (FLAT_C); strips and
	// fans use the winding-keeping "new" methods (fetch.go's decision).
	setup := hg.Pack("RGPSetup", "SHADE", "GOURAUD", "PTSPRITE", sprite) | cullSetup(st)
	if st.Shade == driver.ShadeFlat {
		setup = setup&^hg.ByName("RGPSetup").MustField("SHADE").Mask() | hg.Pack("RGPSetup", "SHADE", "FLAT_C")
	}
	if st.PolygonOffset.Fill && (st.PolygonOffset.Factor != 0 || st.PolygonOffset.Units != 0) {
		setup |= hg.Pack("RGPSetup", "POLYOFFSET", true)
		m.set("RGXSlopeCoeff", f24(st.PolygonOffset.Factor))
		m.set("RGXResCoeff", f24(st.PolygonOffset.Units/65535)) // r = one Z16 step
	}
	m.set("RGPSetup", setup)
	m.set("EGPrimSet", hg.Pack("EGPrimSet", "FILL", "SOLID", "CCWFILL", "SOLID", "PARMODE", "STRIP_NEW_FAN_NEW",
		"T0FROM", "A", "T1FROM", "B"))

	en0, en1 = c.pixelOps(st, en0, en1)
	m.set("EGEn0", en0)
	m.set("EGEn1", en1)

	// Current attributes go to the default registers (2608h D4 = 1).
	m.setBlock(0x1E00, []uint32{0, 0, 0, f32(1)})
	m.setBlock(0x1E10, []uint32{f32(st.CurrentNormal[0]), f32(st.CurrentNormal[1]), f32(st.CurrentNormal[2])})
	cc := st.CurrentColor
	m.set("RGXDiffDef", hg.Quant(float64(cc[3]), 8)<<24|hg.Quant(float64(cc[0]), 8)<<16|hg.Quant(float64(cc[1]), 8)<<8|hg.Quant(float64(cc[2]), 8))
	m.set("RGXSpecDef", 0)
	for k, u := range units {
		t := st.CurrentTexCoord[u]
		m.setBlock([]uint16{0x1E30, 0x1E40}[k], []uint32{f32(t[0]), f32(t[1]), f32(t[2]), f32(t[3])})
	}

	// Streams.
	va := dc.Arrays
	type src struct {
		a      *driver.Attrib
		arr    string
		normal bool
	}
	srcs := []src{{&va.Position, "POSITION", false}}
	if va.Color.Enabled {
		srcs = append(srcs, src{&va.Color, "DIFFUSE", false})
	}
	if va.Normal.Enabled && st.Lighting.Enabled {
		srcs = append(srcs, src{&va.Normal, "NORMAL", true})
	}
	for k, u := range units {
		if va.TexCoord[u].Enabled && !sprite {
			srcs = append(srcs, src{&va.TexCoord[u], []string{"TEXA", "TEXB"}[k], false})
		}
	}
	if isPoint && st.Point.SizeArrayActive && va.PointSize.Enabled {
		srcs = append(srcs, src{&va.PointSize, "PSIZE", false})
	}
	var active uint32
	for n, s := range srcs {
		ctl, base, err := c.upload(s.a, s.arr, dc, s.normal)
		if err != nil {
			return err
		}
		m.set(fmt.Sprintf("MGVStrm%dCtl", n), ctl)
		m.set(fmt.Sprintf("MGVStrm%dBAS", n), base)
		active |= 1 << uint(n)
	}
	m.set("MGVStreamActive", active)
	m.set("EGPDTYPE", hg.Pack("EGPDTYPE", "TYPE", primCode[dc.Prim]))

	indexed := dc.Indices != nil || dc.Prim == driver.PrimLineLoop
	cfg := hg.Pack("MGVStrmCfg", "LAST", len(srcs)-1, "ABGR", true, "IDXMODE", indexed)
	if indexed {
		ib := make([]byte, 2*count)
		for i := 0; i < dc.Count; i++ {
			binary.LittleEndian.PutUint16(ib[2*i:], uint16(dc.VertexIndex(i)-dc.MinIndex))
		}
		if dc.Prim == driver.PrimLineLoop {
			binary.LittleEndian.PutUint16(ib[2*dc.Count:], uint16(dc.VertexIndex(0)-dc.MinIndex))
		}
		addr, err := c.up.Upload(ib, 4)
		if err != nil {
			return fmt.Errorf("glamo3365: index data: %w", err)
		}
		m.set("MGStrmIndexMDBAS", hg.Pack("MGStrmIndexMDBAS", "BASE", addr))
	}
	m.set("MGVStrmCfg", cfg)
	m.set("RGPVDNum", hg.Pack("RGPVDNum", "COUNT", count))
	mode := "BUFFER"
	if indexed {
		mode = "STREAM_INDEX"
	}
	m.kick("MGBufCBMFire", hg.Pack("MGBufCBMFire", "MODE", mode))
	m.kick("MGBufCMSFire", hg.Pack("MGBufCMSFire", "MODE", mode))
	return c.maybeFlush()
}

// maybeFlush submits the buffer when it grows large, so the chip works
// while the CPU builds the next one.
func (c *Context) maybeFlush() error {
	if c.em.b.Len() > 32<<10 {
		return c.Flush()
	}
	return nil
}

// bindTextures binds the enabled GL units to chip units and compiles their
// environments into blend stages.
func (c *Context) bindTextures(st *driver.State, units []int, en1 uint32) (uint32, error) {
	if len(units) == 0 {
		return en1, nil
	}
	stages := uint32(0)
	dot3Alpha := len(units) == 1 && needsDot3AlphaStage(&st.Units[units[0]].Env)
	if len(units) == 2 || dot3Alpha {
		stages = hg.Pack("EGTX0Cfg", "STAGES", "TWO")
	}
	var words [][4]uint32
	var colors [][4]float32
	for k, u := range units {
		tu := &st.Units[u]
		o, err := c.texture(tu.Texture)
		if err != nil {
			return en1, err
		}
		en1 |= c.bindUnit(k, o, tu.Texture.Sampler, stages)
		words = append(words, stageWords(&tu.Env, o.base, k, k))
		colors = append(colors, tu.Env.Color)
	}
	if dot3Alpha {
		words = append(words, dot3AlphaStage(&st.Units[units[0]].Env))
		colors = append(colors, [4]float32{})
	}
	c.emitStages(words, colors)
	return en1, nil
}
