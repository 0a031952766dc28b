package glamo

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	hg "github.com/retrogl/retrogl/hal/glamo"
)

func f24(x float32) uint32 { return hg.F24(float64(x)) }
func f32(x float32) uint32 { return hg.F32(x) }

// ropOf returns the ROP code of a GL logic op: bit (2P + D) of the code is
// the op's result for source bit P and destination bit D (L2631-2647).
func ropOf(op driver.LogicOp) uint32 {
	var code uint32
	for p := uint32(0); p < 2; p++ {
		for d := uint32(0); d < 2; d++ {
			if op.Apply(p, d)&1 != 0 {
				code |= 1 << (2*p + d)
			}
		}
	}
	return code
}

// colorMask returns the per-bit write mask (2124h) of a GL colour mask.
func colorMask(f driver.PixelFormat, m [4]bool) uint16 {
	var r, g, b, a uint16
	switch f {
	case driver.FormatRGB565:
		r, g, b = 0xF800, 0x07E0, 0x001F
	case driver.FormatARGB4444:
		a, r, g, b = 0xF000, 0x0F00, 0x00F0, 0x000F
	case driver.FormatARGB1555:
		a, r, g, b = 0x8000, 0x7C00, 0x03E0, 0x001F
	}
	var out uint16
	for k, bits := range [4]uint16{r, g, b, a} {
		if m[k] {
			out |= bits
		}
	}
	return out
}

// blendSrcCode and blendDstCode map GL factors (L2888-2956).
var blendSrcCode = [...]uint32{
	driver.BlendZero: 0, driver.BlendOne: 1, driver.BlendSrcColor: 2, driver.BlendOneMinusSrcColor: 3,
	driver.BlendSrcAlpha: 4, driver.BlendOneMinusSrcAlpha: 5, driver.BlendDstAlpha: 6, driver.BlendOneMinusDstAlpha: 7,
	driver.BlendDstColor: 8, driver.BlendOneMinusDstColor: 9, driver.BlendSrcAlphaSaturate: 10,
	driver.BlendConstantColor: 13, driver.BlendOneMinusConstantColor: 14, driver.BlendConstantAlpha: 15,
	driver.BlendOneMinusConstantAlpha: 16,
}

func blendDstCode(f driver.BlendFactor) uint32 {
	c := blendSrcCode[f]
	if c >= 13 {
		c -= 2 // the destination table has no "both" modes (L2939-2956)
	}
	return c
}

// blendEqCode maps GL equations (L2875-2880): reverse subtract is 101.
var blendEqCode = [...]uint32{driver.BlendAdd: 0, driver.BlendSubtract: 1, driver.BlendReverseSubtract: 5,
	driver.BlendMin: 3, driver.BlendMax: 2}

// surface emits the render target, Z and stencil buffer registers.
func (c *Context) surface(st *driver.State) {
	m := &c.em
	rop := uint32(12) // COPY_PEN
	if st.LogicOpEnabled {
		rop = ropOf(st.LogicOp)
	}
	m.set("EGDst0Cfg", hg.Pack("EGDst0Cfg", "ROP", rop, "FMT", cfmtOf[c.cfg.Format], "PITCH", c.pitch/2))
	m.set("EGDST0BAS", hg.Pack("EGDST0BAS", "BASE", c.fb.Addr))
	if c.cfg.DepthBits > 0 {
		m.set("EGZBAS", hg.Pack("EGZBAS", "BASE", c.zb.Addr))
	}
	if c.cfg.StencilBits > 0 {
		m.set("EGStBAS", hg.Pack("EGStBAS", "BASE", c.sb.Addr))
	}
}

// scissor returns the chip window rectangle (inclusive) the draw may
// touch, and false when it is empty.
func (c *Context) scissor(st *driver.State) (x0, y0, x1, y1 int, ok bool) {
	x0, y0, x1, y1 = 0, 0, c.cfg.Width-1, c.cfg.Height-1
	if st.ScissorTest {
		s := st.Scissor
		x0, x1 = max(x0, s.X), min(x1, s.X+s.W-1)
		gy0, gy1 := max(0, s.Y), min(c.cfg.Height, s.Y+s.H)
		y0, y1 = c.cfg.Height-gy1, c.cfg.Height-gy0-1
	}
	return x0, y0, x1, y1, x0 <= x1 && y0 <= y1
}

func (c *Context) setScissor(x0, y0, x1, y1 int) {
	c.em.set("EGCLTB", hg.Pack("EGCLTB", "TOP", y0, "BOT", y1))
	c.em.set("EGCLLR", hg.Pack("EGCLLR", "LEFT", x0, "RIGHT", x1))
}

// transform emits the G/L engine's matrices, viewport and clipping.
func (c *Context) transform(st *driver.State) {
	m := &c.em
	mvp := st.Projection.Mul4(st.ModelView)
	vals := make([]uint32, 16)
	for i := range vals {
		vals[i] = f24(mvp[i]) // T1[r][c] = M(row c, col r) = mgl32 element r*4+c
	}
	m.setBlock(hg.T1Base, vals)
	mv := st.ModelView
	mwv := make([]uint32, 12)
	for r := 0; r < 4; r++ {
		for k := 0; k < 3; k++ {
			mwv[3*r+k] = f24(mv[4*r+k])
		}
	}
	m.setBlock(hg.MwvBase, mwv)
	nm := mv.Mat3().Inv().Transpose()
	inv := make([]uint32, 9)
	for r := 0; r < 3; r++ {
		for k := 0; k < 3; k++ {
			inv[3*r+k] = f24(nm[3*r+k]) // n'_k = sum_r n_r N(row k, col r)
		}
	}
	m.setBlock(hg.InvMwvBase, inv)
	// RESCALE_NORMAL: GL multiplies by f; the chip divides by the normal
	// factor (L1432).
	nf := float32(1)
	if st.RescaleNormal && !st.Normalize {
		iv := mv.Mat3().Inv()
		l := math.Sqrt(float64(iv[2]*iv[2] + iv[5]*iv[5] + iv[8]*iv[8]))
		if l != 0 {
			nf = float32(l)
		}
	}
	m.set("RGXNormalFactor", f24(nf))

	v := st.Viewport
	h := float32(c.cfg.Height)
	n, f := st.DepthRange[0], st.DepthRange[1]
	m.setBlock(0x2678, []uint32{
		f24(float32(v.W) / 2), f24(float32(v.X) + float32(v.W)/2),
		f24(-float32(v.H) / 2), f24(h - float32(v.Y) - float32(v.H)/2),
		f24((f - n) / 2), f24((f + n) / 2),
	})
	// User clip plane: eye space to clip space, p_clip = p_eye P^-1.
	clipOn := false
	for _, p := range st.ClipPlanes {
		if !p.Enabled {
			continue
		}
		clipOn = true
		pi := st.Projection.Inv()
		e := mgl32.Vec4{p.Eq[0], p.Eq[1], p.Eq[2], p.Eq[3]}
		var cp [4]uint32
		for k := 0; k < 4; k++ {
			cp[k] = f24(e.Dot(pi.Col(k)))
		}
		m.setBlock(0x2738, cp[:])
		break
	}
	clip := hg.Pack("RGXClip", "USERCLIP", clipOn, "USEDEFSEL", true,
		"TWOSIDECULL", st.CullEnabled && st.CullFace == driver.FaceFrontAndBack)
	m.set("RGXClip", clip)
}

// lighting emits 2604h, the materials and the lights.
func (c *Context) lighting(st *driver.State, dc *driver.DrawCall, vfog bool) (lt, mc uint32) {
	m := &c.em
	l := &st.Lighting
	lt = hg.Pack("RGXLight", "GLLIGHT", true, "SINGLECOLOR", true, "SPECLIGHT", true,
		"NORMAL", l.Enabled && dc.Arrays != nil && dc.Arrays.Normal.Enabled,
		"SCALENORMAL", st.RescaleNormal && !st.Normalize, "VFOG", vfog)
	if st.Lighting.Enabled {
		lt |= hg.Pack("RGXLight", "LIGHTING", true)
		// Two-sided lighting: GL back faces get the negated normal. The
		// y flip keeps windings (cullSetup), so with GL's CCW front face
		// the back face is CW (NEGCW = 1). Points and lines have no face:
		// GL lights them as front faces, so they get no negation.
		if l.TwoSide && dc.Prim >= driver.PrimTriangles {
			lt |= hg.Pack("RGXLight", "NEGNORMAL", true, "NEGCW", st.FrontFace == driver.WindingCCW)
		}
		var types uint32
		for i := range l.Lights {
			li := &l.Lights[i]
			if !li.Enabled {
				continue
			}
			lt |= 1 << (15 + uint(i))
			typ := uint32(0)
			var pos [3]float32
			switch {
			case li.Position[3] == 0:
				typ = 2
				d := mgl32.Vec3{li.Position[0], li.Position[1], li.Position[2]}
				if d.Len() > 0 {
					d = d.Normalize()
				}
				pos = [3]float32{d[0], d[1], d[2]}
			case li.SpotCutoff != 180:
				typ = 1
				fallthrough
			default:
				w := li.Position[3]
				pos = [3]float32{li.Position[0] / w, li.Position[1] / w, li.Position[2] / w}
			}
			types |= typ << (30 - 2*uint(i))
			theta := float32(math.Cos(float64(li.SpotCutoff) * math.Pi / 180))
			// The directional type (2) has no spot cone; GL's spot
			// factor of a directional light is one for all vertices
			// and scales its colours (swtnl.DirectionalSpot).
			sp := swtnl.DirectionalSpot(li)
			vals := []uint32{
				f24(pos[0]), f24(pos[1]), f24(pos[2]),
				f24(li.SpotDirection[0]), f24(li.SpotDirection[1]), f24(li.SpotDirection[2]),
				f24(sp * li.Ambient[0]), f24(sp * li.Ambient[1]), f24(sp * li.Ambient[2]),
				f24(sp * li.Specular[0]), f24(sp * li.Specular[1]), f24(sp * li.Specular[2]),
				f24(sp * li.Diffuse[0]), f24(sp * li.Diffuse[1]), f24(sp * li.Diffuse[2]),
				0x7FFFFF, // Lr: OpenGL's range (L1574; "0x7ffffff" is OCR, P11)
				f24(li.ConstantAtten), f24(li.LinearAtten), f24(li.QuadraticAt),
				f24(li.SpotExponent), f24(theta), 0, f24(1), 0x7FFFFF,
			}
			m.setBlock(hg.LightBase(i), vals)
		}
		src := "MATERIAL"
		if l.ColorMaterial {
			src = "VCD"
		}
		mc = hg.Pack("RGXMatCfg", "DIFFSRC", src, "AMBSRC", src, "ALPHASRC", src, "SPECSRC", "MATERIAL",
			"EMISSRC", "MATERIAL", "NORMALIZE", st.Normalize)
		m.set("RGXLightType", types|hg.Pack("RGXLightType", "CCWDIFFSRC", src, "CCWAMBSRC", src, "CCWALPHASRC", src,
			"CCWSPECSRC", "MATERIAL", "CCWEMISSRC", "MATERIAL"))
		mat := &l.Material
		for _, base := range []uint16{hg.MatCW, hg.MatCCW} {
			m.setBlock(base, []uint32{f32(mat.Diffuse[0]), f32(mat.Diffuse[1]), f32(mat.Diffuse[2]), f32(mat.Diffuse[3])})
			m.setBlock(base+0x10, []uint32{f32(mat.Ambient[0]), f32(mat.Ambient[1]), f32(mat.Ambient[2])})
			m.setBlock(base+0x20, []uint32{f32(mat.Specular[0]), f32(mat.Specular[1]), f32(mat.Specular[2]), f32(mat.Specular[3])})
			m.setBlock(base+0x30, []uint32{f32(mat.Emission[0]), f32(mat.Emission[1]), f32(mat.Emission[2])})
		}
		m.set("RGXCWMP", f24(mat.Shininess))
		m.set("RGXCCWMP", f24(mat.Shininess))
		m.setBlock(0x2BA4, []uint32{f24(l.Ambient[0]), f24(l.Ambient[1]), f24(l.Ambient[2])})
	}
	return lt, mc
}

// fogSetup chooses vertex or pixel fog and emits its registers. Pixel fog
// measures the distance as 1/W (L287-295), which is the eye depth only for
// a perspective projection whose last row is (0, 0, -1, 0); otherwise the
// driver uses vertex fog, which the G/L engine computes from |z_eye|.
func (c *Context) fogSetup(st *driver.State) (vfog bool, vmode uint32) {
	fg := &st.Fog
	if !fg.Enabled {
		return false, 0
	}
	p := st.Projection
	perspective := p[3] == 0 && p[7] == 0 && p[11] == -1 && p[15] == 0
	m := &c.em
	col := hg.Pack("EGFogCfg", "R", hg.Quant(float64(fg.Color[0]), 8), "G", hg.Quant(float64(fg.Color[1]), 8),
		"B", hg.Quant(float64(fg.Color[2]), 8))
	ratio := float32(0)
	if fg.End != fg.Start {
		ratio = 1 / (fg.End - fg.Start)
	}
	dens := float64(fg.Density)
	if fg.PerPixel && perspective {
		mode := map[driver.FogMode]string{driver.FogLinear: "LINEAR", driver.FogExp: "EXP", driver.FogExp2: "EXP2"}[fg.Mode]
		m.set("EGFogCfg", col|hg.Pack("EGFogCfg", "MODE", mode))
		m.set("EGFLEND", hg.F18(float64(fg.End)))
		m.set("EGFLINVD", hg.F18(float64(ratio)))
		m.set("EGFDENST", hg.F18(dens))
		return false, 0
	}
	m.set("EGFogCfg", col|hg.Pack("EGFogCfg", "MODE", "VERTEX"))
	vm := map[driver.FogMode]string{driver.FogLinear: "LINEAR", driver.FogExp: "EXP", driver.FogExp2: "EXP2"}[fg.Mode]
	m.set("RGXFogEnd", f24(fg.End))
	m.set("RGXFogRatio", f24(ratio))
	// Density register: -density log2(e) (EXP) or -density^2 log2(e)
	// (EXP2), L1534.
	d := -dens * math.Log2E
	if fg.Mode == driver.FogExp2 {
		d = -dens * dens * math.Log2E
	}
	m.set("RGXFogDensity", hg.F24(d))
	return true, hg.Pack("RGXMatCfg", "FOGMODE", vm)
}

// raster emits setup and per-fragment state common to every primitive.
func (c *Context) pixelOps(st *driver.State, en0, en1 uint32) (uint32, uint32) {
	m := &c.em
	// Depth.
	if c.cfg.DepthBits > 0 && st.DepthTest {
		en0 |= hg.Pack("EGEn0", "ZT", true, "ZW", st.DepthMask)
		m.set("EGZCfg", hg.Pack("EGZCfg", "FMT", "Z16", "TEST", uint32(st.DepthFunc), "PITCH", c.pitch/2))
	}
	// Stencil (a separate S8/S4/S1 buffer, one byte per pixel, P13).
	if c.cfg.StencilBits > 0 && st.StencilTest {
		s := &st.Stencil[0]
		fm := map[int]string{1: "S1", 4: "S4", 8: "S8"}[c.cfg.StencilBits]
		en0 |= hg.Pack("EGEn0", "STT", true, "STBUF", true)
		en1 |= hg.Pack("EGEn1", "STWRMASK", true)
		m.set("EGStCfg", hg.Pack("EGStCfg", "FMT", fm, "TEST", uint32(s.Func), "REF", uint32(s.Ref)&0xFF, "MASK", s.ValueMask&0xFF))
		m.set("EGStOps", hg.Pack("EGStOps", "WRMASK", s.WriteMask&0xFF, "FAIL", uint32(s.Fail), "ZFAIL", uint32(s.ZFail),
			"ZPASS", uint32(s.ZPass), "PITCH", c.spitch/2))
	}
	// Alpha test: only REF[7:2] counts (L2628).
	if st.AlphaTest.Enabled {
		en0 |= hg.Pack("EGEn0", "AT", true)
		m.set("EGAlpha", hg.Pack("EGAlpha", "TEST", uint32(st.AlphaTest.Func), "REF", hg.Quant(float64(st.AlphaTest.Ref), 8)))
	}
	// Blending (off under a logic op, as GL says).
	b := &st.Blend
	if b.Enabled && !st.LogicOpEnabled {
		en0 |= hg.Pack("EGEn0", "BLEND", true)
		sep := b.SrcAlpha != b.SrcRGB || b.DstAlpha != b.DstRGB || b.EqAlpha != b.EqRGB
		m.set("EGBlend", hg.Pack("EGBlend", "SEP", sep, "AEQ", blendEqCode[b.EqAlpha], "CEQ", blendEqCode[b.EqRGB],
			"DSTALPHA", 256, "SRC", blendSrcCode[b.SrcRGB], "DST", blendDstCode(b.DstRGB)))
		if sep {
			m.set("EGABlend", hg.Pack("EGABlend", "SRC", blendSrcCode[b.SrcAlpha], "DST", blendDstCode(b.DstAlpha)))
		}
		m.set("EGBLCst", hg.Color6565(float64(b.Color[0]), float64(b.Color[1]), float64(b.Color[2]), float64(b.Color[3])))
	}
	if st.Dither {
		en0 |= hg.Pack("EGEn0", "DITH", true)
	}
	if st.ColorMask != [4]bool{true, true, true, true} {
		en1 |= hg.Pack("EGEn1", "CWRMASK", true)
		m.set("EGD0CWrMask", uint32(colorMask(c.cfg.Format, st.ColorMask)))
	}
	return en0, en1
}

// cullSetup returns the 260Ch cull bits for GL's cull state.
func cullSetup(st *driver.State) uint32 {
	if !st.CullEnabled || st.CullFace == driver.FaceFrontAndBack {
		return 0
	}
	// The y flip keeps a triangle's visual winding: GL's CCW (positive
	// area with y up) is the chip's CCW (negative area with y down). The
	// culled winding is CCW when the front face is CCW and the front is
	// culled, or the front is CW and the back is; RGPCullDflg 1 culls CCW.
	cullCCW := (st.FrontFace == driver.WindingCCW) == (st.CullFace == driver.FaceFront)
	return hg.Pack("RGPSetup", "CULL", true, "CULLDIR", cullCCW)
}
