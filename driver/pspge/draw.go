package pspge

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	ge "github.com/retrogl/retrogl/hal/pspge"
)

// primOf maps GL primitives to PRIM types (seed L46-55); LINE_LOOP draws a
// strip with a closing index.
var primOf = [7]uint32{
	driver.PrimPoints: 0, driver.PrimLines: 1, driver.PrimLineLoop: 2, driver.PrimLineStrip: 2,
	driver.PrimTriangles: 3, driver.PrimTriangleStrip: 4, driver.PrimTriangleFan: 5,
}

func unsupported(f driver.Feature, why string) error {
	return &driver.Unsupported{Backend: "pspge", Feature: f, Why: why}
}

// Draw implements driver.Context. A draw goes through the GE's transform
// and lighting unit when the state allows it (hardware path); otherwise
// driver/swtnl transforms, lights, clips and culls it on the CPU and the
// GE gets window-space geometry (software path). A second texture unit is
// a second pass; EXP/EXP2 fog is an extra pass over the software path's
// per-vertex fog factors.
func (c *Context) Draw(st *driver.State, dc *driver.DrawCall) error {
	if err := c.usable(); err != nil {
		return err
	}
	if dc.DrawTexture != nil {
		return c.drawTexture(st, dc.DrawTexture)
	}
	tri := dc.Prim >= driver.PrimTriangles
	if tri && st.CullEnabled && st.CullFace == driver.FaceFrontAndBack {
		return nil
	}
	t0, t1 := st.Units[0].Texture, st.Units[1].Texture
	for u := 2; u < driver.MaxTextureUnits; u++ {
		if st.Units[u].Texture != nil {
			return unsupported(driver.FeatureMultitexture, "only two texture units")
		}
	}
	if t0 == nil && t1 != nil {
		// Unit 1 alone is unit 0 with unit 1's coordinates.
		return unsupported(driver.FeatureMultitexture, "unit 1 without unit 0")
	}
	c.surface()
	if !c.scissor(st) {
		return nil
	}
	sw := c.needSoftware(st, dc)
	if t1 != nil {
		if why := c.multipassOK(st); why != "" {
			return unsupported(driver.FeatureMultitexture, why)
		}
	}
	fogPass := st.Fog.Enabled && st.Fog.Mode != driver.FogLinear
	if fogPass {
		sw = "EXP/EXP2 fog"
		if why := c.fogPassOK(st); why != "" {
			return unsupported(driver.FeatureFog, "EXP/EXP2 fog is a second pass: "+why)
		}
	}
	var err error
	if sw == "" {
		err = c.hwDraw(st, dc)
		c.stats.HWDraws++
	} else {
		err = c.swDraw(st, dc, fogPass)
		c.stats.SWDraws++
	}
	if err != nil {
		return err
	}
	if (len(c.list.words) >= pushWords || c.pending >= maxPendingUpload) && c.cond == nil {
		return c.push()
	}
	return nil
}

// needSoftware returns why a draw cannot use the GE's transform unit, or
// "".
func (c *Context) needSoftware(st *driver.State, dc *driver.DrawCall) string {
	if ok, why := hwLightingOK(st); !ok {
		return why
	}
	for _, p := range st.ClipPlanes {
		if p.Enabled {
			return "user clip planes"
		}
	}
	if st.MatrixPalette.Enabled {
		return "matrix palette"
	}
	if dc.Prim >= driver.PrimTriangles && st.PolygonOffset.Fill && st.PolygonOffset.Factor != 0 {
		return "polygon offset factor"
	}
	if dc.Prim == driver.PrimPoints && (st.Point.Size != 1 || st.Point.SizeArrayActive || st.Point.Sprite ||
		st.Point.DistAtten != [3]float32{1, 0, 0}) {
		return "point size"
	}
	if dc.Prim >= driver.PrimLines && dc.Prim <= driver.PrimLineStrip && st.LineWidth != 1 {
		return "line width"
	}
	for u := 0; u < 2; u++ {
		if st.Units[u].Texture == nil {
			continue
		}
		a := &dc.Arrays.TexCoord[u]
		if st.Units[u].Matrix != mgl32.Ident4() && (a.Enabled && a.Size > 2 || !a.Enabled && (st.CurrentTexCoord[u][2] != 0 || st.CurrentTexCoord[u][3] != 1)) {
			return "texture coordinates with r or q through a texture matrix"
		}
		if st.Units[u].Matrix == mgl32.Ident4() && (a.Enabled && a.Size > 3 || !a.Enabled && st.CurrentTexCoord[u][3] != 1) {
			return "projective texture coordinates"
		}
	}
	if st.Lighting.Enabled && !st.Normalize && !unitNormals(st, dc) {
		return "unnormalised normals (the GE always normalises)"
	}
	return ""
}

// unitNormals reports whether every eye-space normal of the draw has unit
// length (within 1e-3), so the GE's normalisation changes nothing.
func unitNormals(st *driver.State, dc *driver.DrawCall) bool {
	nm := st.ModelView.Mat3().Inv().Transpose()
	scale := float32(1)
	if st.RescaleNormal {
		inv := st.ModelView.Mat3().Inv()
		l := math.Sqrt(float64(inv[2]*inv[2] + inv[5]*inv[5] + inv[8]*inv[8]))
		if l != 0 {
			scale = float32(1 / l)
		}
	}
	check := func(n [4]float32) bool {
		e := nm.Mul3x1(mgl32.Vec3{n[0], n[1], n[2]}).Mul(scale)
		return math.Abs(float64(e.Len())-1) < 1e-3
	}
	a := &dc.Arrays.Normal
	if !a.Enabled {
		cn := st.CurrentNormal
		return check([4]float32{cn[0], cn[1], cn[2]})
	}
	var n [4]float32
	for i := dc.MinIndex; i <= dc.MaxIndex; i++ {
		a.Fetch(i, [4]float32{}, &n)
		if !check(n) {
			return false
		}
	}
	return true
}

// multipassOK says whether unit 1 can be a second pass that combines with
// the first in the framebuffer: the first pass must leave exactly the
// unit-0 colour (no blending, fog or logic op), and the second must hit the
// same fragments (depth test on with writes, EQUAL in pass two).
func (c *Context) multipassOK(st *driver.State) string {
	u := &st.Units[1]
	switch {
	case st.Blend.Enabled:
		return "with blending (the passes combine by blending)"
	case st.Fog.Enabled:
		return "with fog"
	case st.LogicOpEnabled:
		return "with a logic op"
	case !(st.DepthTest && st.DepthMask && c.cfg.DepthBits > 0):
		return "without the depth test and depth writes (pass two matches pass one with depth EQUAL)"
	case u.Env.Mode == driver.EnvBlend:
		return "unit 1 in BLEND mode"
	case st.AlphaTest.Enabled && u.Texture.Base() != driver.BaseRGB && u.Texture.Base() != driver.BaseLuminance:
		return "alpha test with an alpha texture on unit 1"
	}
	if u.Env.Mode == driver.EnvCombine {
		cp, why := analyzeCombine(&u.Env, 1)
		if why != "" {
			return "unit 1 GL_COMBINE with " + why
		}
		if cp.kind == combineAdd && cp.double {
			return "unit 1 GL_COMBINE ADD with RGB_SCALE 2"
		}
	}
	return ""
}

// fogPassOK says whether EXP/EXP2 fog can be the extra pass: a fog-coloured
// copy of the geometry with alpha 1-f blended over the first pass where
// depth is EQUAL.
func (c *Context) fogPassOK(st *driver.State) string {
	switch {
	case st.Blend.Enabled:
		return "not with blending"
	case st.LogicOpEnabled:
		return "not with a logic op"
	case !(st.DepthTest && st.DepthMask && c.cfg.DepthBits > 0):
		return "it needs the depth test and depth writes"
	case st.Units[1].Texture != nil:
		return "not with two texture units"
	}
	return ""
}

// pass describes one pass of a draw.
type pass struct {
	unit   int  // texture unit whose texture and coordinates are used (-1: none)
	second bool // a multitexture second pass
	fog    bool // the EXP/EXP2 fog pass
}

// texState binds the texture of a pass and emits TFUNC; it returns the env
// plan (forceAlpha etc.).
func (c *Context) texState(st *driver.State, p pass) (envPlan, error) {
	l := &c.list
	if p.unit < 0 || p.fog || st.Units[p.unit].Texture == nil {
		l.set(ge.TME, 0)
		return envPlan{}, nil
	}
	u := &st.Units[p.unit]
	g, err := c.bindTexture(u.Texture)
	if err != nil {
		return envPlan{}, err
	}
	l.set(ge.TME, 1)
	c.sampler(u.Texture.Sampler, len(g.levels))
	plan := texEnv(g.base, &u.Env)
	double := false
	if u.Env.Mode == driver.EnvCombine && !p.second {
		cp, why := analyzeCombine(&u.Env, p.unit)
		if why != "" {
			return plan, unsupported(driver.FeatureTexEnvCombine, "GL_COMBINE with "+why)
		}
		// TFUNC's alpha: RGB mode (bit 8 clear) passes the incoming alpha;
		// RGBA mode gives the texture alpha with REPLACE, the product with
		// MODULATE and ADD.
		hasAlpha := g.base != driver.BaseRGB && g.base != driver.BaseLuminance
		switch cp.kind {
		case combineTexture:
			plan = envPlan{fn: 3, rgba: cp.alpha == 1 && hasAlpha}
			if cp.alpha == 2 {
				return plan, unsupported(driver.FeatureTexEnvCombine, "GL_COMBINE REPLACE colour with a modulated alpha")
			}
		case combineModulate, combineAdd:
			plan = envPlan{fn: 0, rgba: cp.alpha == 2 && hasAlpha}
			if cp.kind == combineAdd {
				plan.fn = 4
			}
			if cp.alpha == 1 {
				return plan, unsupported(driver.FeatureTexEnvCombine, "GL_COMBINE with the texture alpha alone")
			}
		default:
			return plan, unsupported(driver.FeatureTexEnvCombine, "GL_COMBINE REPLACE of the incoming colour on unit 0")
		}
		double = cp.double
	}
	if p.second {
		// Pass two draws the unit-1 texel itself; blending combines it.
		plan = envPlan{fn: 3, rgba: plan.rgba}
		if u.Env.Mode == driver.EnvCombine {
			cp, _ := analyzeCombine(&u.Env, 1)
			double = cp.double && cp.kind == combineTexture
		}
	}
	arg := plan.fn
	if plan.rgba {
		arg |= 0x100
	}
	if double {
		arg |= 0x10000
	}
	l.set(ge.TFUNC, arg)
	l.set(ge.TEC, rgb8(u.Env.Color))
	return plan, nil
}

// secondPassBlend is how pass two combines unit 1 (Ct) with the first
// pass's colour (Cp) in the framebuffer, per GL's env mode: MODULATE
// Ct*Cp (A = DST_COLOR, B = 0), ADD Ct + Cp (1, 1), DECAL on RGBA
// Cp(1-At) + Ct*At, REPLACE (and DECAL on RGB) Ct.
func secondPassBlend(st *driver.State) fragOpts {
	u := &st.Units[1]
	o := fragOpts{equalDepth: true, noStencil: true, constAlpha: -1}
	if u.Env.Mode == driver.EnvCombine {
		cp, _ := analyzeCombine(&u.Env, 1)
		switch cp.kind {
		case combineModulate:
			// Ct*Cp (A = DST_COLOR, B = 0), doubled as Ct*Cp + Cp*Ct
			// (B = SRC_COLOR).
			o.blend, o.bsrc, o.bdst = true, 0, 10
			if cp.double {
				o.bdst = 0
			}
		case combineAdd:
			o.blend, o.bsrc, o.bdst, o.sfix, o.dfix = true, 10, 10, 0xFFFFFF, 0xFFFFFF
		case combinePrevious:
			o.blend, o.bsrc, o.bdst, o.sfix, o.dfix = true, 10, 10, 0, 0xFFFFFF
		}
		return o
	}
	switch u.Env.Mode {
	case driver.EnvModulate:
		o.blend, o.bsrc, o.bdst, o.dfix = true, 0, 10, 0
		if u.Texture.Base() == driver.BaseAlpha {
			// Alpha-only: the colour stays Cp.
			o.bsrc, o.bdst, o.sfix, o.dfix = 10, 10, 0, 0xFFFFFF
		}
	case driver.EnvAdd:
		o.blend, o.bsrc, o.bdst, o.sfix, o.dfix = true, 10, 10, 0xFFFFFF, 0xFFFFFF
		if u.Texture.Base() == driver.BaseAlpha {
			o.sfix = 0
		}
	case driver.EnvDecal:
		if b := u.Texture.Base(); b == driver.BaseRGBA {
			o.blend, o.bsrc, o.bdst = true, 2, 3
		}
	case driver.EnvReplace:
		if u.Texture.Base() == driver.BaseAlpha {
			o.blend, o.bsrc, o.bdst, o.sfix, o.dfix = true, 10, 10, 0, 0xFFFFFF
		}
	}
	return o
}

// constAlpha returns the fragment alpha of a draw when it is the same for
// every fragment and GL would store it (blending off), else -1. The GE
// cannot store per-fragment alpha; a constant one goes through the
// stencil unit's REPLACE.
func constAlpha(st *driver.State, dc *driver.DrawCall, plan envPlan, forced bool) int {
	if st.Blend.Enabled {
		return -1
	}
	if forced {
		return 255
	}
	if st.Units[0].Texture != nil && plan.rgba && plan.fn != 1 {
		return -1
	}
	if st.Lighting.Enabled && !st.Lighting.ColorMaterial {
		return int(q8(st.Lighting.Material.Diffuse[3]))
	}
	a := &dc.Arrays.Color
	if !a.Enabled {
		return int(q8(st.CurrentColor[3]))
	}
	var col [4]float32
	first := -1
	for i := dc.MinIndex; i <= dc.MaxIndex; i++ {
		a.Fetch(i, st.CurrentColor, &col)
		v := int(q8(col[3]))
		if first < 0 {
			first = v
		} else if v != first {
			return -1
		}
	}
	return first
}

// passes lists the passes of a draw.
func passes(st *driver.State, fogPass bool) []pass {
	ps := []pass{{unit: -1}}
	if st.Units[0].Texture != nil {
		ps[0].unit = 0
	}
	if st.Units[1].Texture != nil {
		ps = append(ps, pass{unit: 1, second: true})
	}
	if fogPass {
		ps = append(ps, pass{unit: -1, fog: true})
	}
	return ps
}

// hwDraw sends the draw through the GE's transform unit.
func (c *Context) hwDraw(st *driver.State, dc *driver.DrawCall) error {
	c.raster(st, true)
	c.matrices(st)
	for i, p := range passes(st, false) {
		if i > 0 {
			c.stats.Passes++
		}
		plan, err := c.texState(st, p)
		if err != nil {
			return err
		}
		c.lighting(st, plan.forceAlpha && !p.second)
		c.fog(st, st.Fog.Enabled && !p.second, false)
		o := fragOpts{constAlpha: constAlpha(st, dc, plan, plan.forceAlpha)}
		if p.second {
			o = secondPassBlend(st)
		}
		if why := c.fragment(st, o); why != "" {
			return unsupported(driver.FeatureBlend, why)
		}
		if err := c.hwGeometry(st, dc, p, plan.forceAlpha && !p.second); err != nil {
			return err
		}
	}
	return nil
}

// hwGeometry uploads the draw's vertices in one VTYPE layout (float
// texture coordinates, 8888 colour, float normal, float position) and
// kicks PRIM, with rebased 16-bit indices for DrawElements.
func (c *Context) hwGeometry(st *driver.State, dc *driver.DrawCall, p pass, forceAlpha bool) error {
	texU := -1
	if p.unit >= 0 && st.Units[p.unit].Texture != nil {
		texU = p.unit
	}
	l := &c.list
	if texU >= 0 {
		m := st.Units[texU].Matrix
		if m == mgl32.Ident4() {
			l.set(ge.TMAP, 0)
			l.set(ge.USCALE, ge.F24(1))
			l.set(ge.VSCALE, ge.F24(1))
			l.set(ge.UOFFSET, 0)
			l.set(ge.VOFFSET, 0)
		} else {
			// TMAP matrix mode from (u, v, 0): TMATRIX rows s, t, q are
			// GL's rows 0, 1, 3 (guide §2.7; the GE divides by q).
			l.set(ge.TMAP, 1|1<<8)
			l.matrix(ge.TMS, ge.TMATRIX, slotTex, []float32{m[0], m[1], m[3], m[4], m[5], m[7], m[8], m[9], m[11], m[12], m[13], m[15]})
		}
	}
	vt, vaddr, err := c.packVertices(st, dc, p, forceAlpha)
	if err != nil {
		return err
	}
	first := dc.MinIndex
	idx := make([]int, 0, dc.Count+1)
	for i := 0; i < dc.Count; i++ {
		idx = append(idx, dc.VertexIndex(i)-first)
	}
	if dc.Prim == driver.PrimLineLoop && dc.Count > 1 {
		idx = append(idx, idx[0])
	}
	return c.kickPrims(vt, vaddr, primOf[dc.Prim], idx, dc.Indices == nil && dc.Prim != driver.PrimLineLoop)
}

// kickPrims emits VTYPE/VADDR(/IADDR) and PRIM for vertex indices idx
// (sequential when linear is set, so no index buffer is needed). PRIM
// counts are 16 bits: longer draws become lists in pieces.
func (c *Context) kickPrims(vt ge.VType, vaddr uint32, ptype uint32, idx []int, linear bool) error {
	l := &c.list
	if len(idx) <= 0xFFFF && linear {
		l.set(ge.VTYPE, vt.Word())
		l.addr(ge.VADDR, vaddr)
		l.kick(ge.PRIM, ptype<<16|uint32(len(idx)))
		return nil
	}
	if len(idx) > 0xFFFF {
		idx, ptype = toList(idx, ptype)
	}
	per := map[uint32]int{0: 1, 1: 2, 3: 3}[ptype]
	chunk := 0xFFFF
	if per > 0 {
		chunk -= chunk % per
	}
	vt.Index = ge.Fmt16
	for start := 0; start < len(idx); start += chunk {
		end := min(len(idx), start+chunk)
		ib := make([]byte, 2*(end-start))
		for i, v := range idx[start:end] {
			binary.LittleEndian.PutUint16(ib[2*i:], uint16(v))
		}
		iaddr, err := c.upload(ib, 4)
		if err != nil {
			return err
		}
		l.set(ge.VTYPE, vt.Word())
		l.addr(ge.VADDR, vaddr)
		l.addr(ge.IADDR, iaddr)
		l.kick(ge.PRIM, ptype<<16|uint32(end-start))
	}
	return nil
}

// toList turns strips and fans into independent primitives.
func toList(idx []int, ptype uint32) ([]int, uint32) {
	var out []int
	switch ptype {
	case 2:
		for i := 0; i+1 < len(idx); i++ {
			out = append(out, idx[i], idx[i+1])
		}
		return out, 1
	case 4:
		for i := 0; i+2 < len(idx); i++ {
			if i%2 == 0 {
				out = append(out, idx[i], idx[i+1], idx[i+2])
			} else {
				out = append(out, idx[i+1], idx[i], idx[i+2])
			}
		}
		return out, 3
	case 5:
		for i := 1; i+1 < len(idx); i++ {
			out = append(out, idx[0], idx[i], idx[i+1])
		}
		return out, 3
	}
	return idx, ptype
}

// swMode is how the software path hands window-space geometry to the GE.
type swMode int

const (
	// swOrtho: clip w is 1 everywhere; positions are clip (x, y, z) with
	// PROJ = I.
	swOrtho swMode = iota
	// swPerspective: clip z = a*w + b for the draw's projection (any
	// perspective projection without shear in z); positions are (x, y, w)
	// and PROJ rebuilds (x, y, a*w+b, w), so the GE still interpolates
	// texture coordinates perspective-correctly and clips at the near
	// plane.
	swPerspective
	// swThrough: anything else; through-mode pixels (texture coordinates
	// then interpolate affinely).
	swThrough
)

// swModeOf chooses the software path's vertex form for a set of vertices.
func swModeOf(st *driver.State, vs []swtnl.Vertex) (swMode, float32, float32) {
	ortho := true
	for i := range vs {
		if vs[i].Clip[3] != 1 {
			ortho = false
			break
		}
	}
	if ortho {
		return swOrtho, 0, 0
	}
	p := st.Projection
	r2 := [4]float32{p[2], p[6], p[10], p[14]}
	r3 := [4]float32{p[3], p[7], p[11], p[15]}
	k := 0
	for j := 1; j < 3; j++ {
		if abs32(r3[j]) > abs32(r3[k]) {
			k = j
		}
	}
	if r3[k] == 0 {
		return swThrough, 0, 0
	}
	a := r2[k] / r3[k]
	for j := 0; j < 3; j++ {
		if abs32(r2[j]-a*r3[j]) > 1e-5*(abs32(r2[j])+1) {
			return swThrough, 0, 0
		}
	}
	b := r2[3] - a*r3[3]
	for i := range vs {
		cl := vs[i].Clip
		if abs32(cl[2]-(a*cl[3]+b)) > 1e-4*(abs32(cl[2])+1) {
			return swThrough, 0, 0
		}
	}
	return swPerspective, a, b
}

func abs32(v float32) float32 { return float32(math.Abs(float64(v))) }

// swDraw transforms on the CPU with driver/swtnl and sends the result.
func (c *Context) swDraw(st *driver.State, dc *driver.DrawCall, fogPass bool) error {
	mesh, err := c.tnl.Run(st, dc)
	if err != nil {
		return fmt.Errorf("pspge: software T&L: %w", err)
	}
	if st.PolygonOffset.Fill && (st.PolygonOffset.Factor != 0 || st.PolygonOffset.Units != 0) {
		polygonOffset(st, mesh.Triangles)
	}
	for i, p := range passes(st, fogPass) {
		if i > 0 {
			c.stats.Passes++
		}
		if err := c.swPass(st, dc, mesh, p); err != nil {
			return err
		}
	}
	return nil
}

// polygonOffset applies GL's offset o = m*factor + r*units per triangle
// (m = max |dz/dx|, |dz/dy| in window units, r = 1/65535) to the window
// depth, then to clip z so the GE's depth matches.
func polygonOffset(st *driver.State, tris []swtnl.Vertex) {
	f, u := st.PolygonOffset.Factor, st.PolygonOffset.Units
	for i := 0; i+2 < len(tris); i += 3 {
		a, b, cc := &tris[i], &tris[i+1], &tris[i+2]
		x1, y1, z1 := b.Win[0]-a.Win[0], b.Win[1]-a.Win[1], b.Win[2]-a.Win[2]
		x2, y2, z2 := cc.Win[0]-a.Win[0], cc.Win[1]-a.Win[1], cc.Win[2]-a.Win[2]
		det := x1*y2 - x2*y1
		var m float32
		if det != 0 {
			dzdx := (z1*y2 - z2*y1) / det
			dzdy := (x1*z2 - x2*z1) / det
			m = max(abs32(dzdx), abs32(dzdy))
		}
		o := m*f + u/65535
		for _, v := range []*swtnl.Vertex{a, b, cc} {
			v.Win[2] = clampf(v.Win[2] + o)
			// Keep clip z consistent with the new window depth.
			n, fr := st.DepthRange[0], st.DepthRange[1]
			if fr != n {
				ndc := (v.Win[2]-n)/(fr-n)*2 - 1
				v.Clip[2] = ndc * v.Clip[3]
			}
		}
	}
}

// swPass emits one pass of a software-transformed draw.
func (c *Context) swPass(st *driver.State, dc *driver.DrawCall, mesh *swtnl.Mesh, p pass) error {
	l := &c.list
	plan, err := c.texState(st, p)
	if err != nil {
		return err
	}
	l.set(ge.LTE, 0)
	o := fragOpts{constAlpha: -1}
	switch {
	case p.second:
		o = secondPassBlend(st)
	case p.fog:
		o = fragOpts{equalDepth: true, noStencil: true, constAlpha: -1, blend: true, bsrc: 2, bdst: 3}
	default:
		o.constAlpha = meshConstAlpha(st, mesh, plan)
	}
	if why := c.fragment(st, o); why != "" {
		return unsupported(driver.FeatureBlend, why)
	}
	c.raster(st, false)
	texU := -1
	if p.unit >= 0 && !p.fog && st.Units[p.unit].Texture != nil {
		texU = p.unit
	}
	forceAlpha := plan.forceAlpha && !p.second
	if len(mesh.Triangles) > 0 {
		if err := c.swTriangles(st, mesh.Triangles, texU, p, forceAlpha); err != nil {
			return err
		}
	}
	if len(mesh.Lines) > 0 {
		if err := c.swLines(st, mesh.Lines, texU, p, forceAlpha); err != nil {
			return err
		}
	}
	if len(mesh.Points) > 0 {
		if err := c.swPoints(st, mesh.Points, texU, p, forceAlpha); err != nil {
			return err
		}
	}
	return nil
}

// meshConstAlpha is constAlpha for software-lit vertices.
func meshConstAlpha(st *driver.State, m *swtnl.Mesh, plan envPlan) int {
	if st.Blend.Enabled {
		return -1
	}
	if plan.forceAlpha {
		return 255
	}
	if st.Units[0].Texture != nil && plan.rgba && plan.fn != 1 {
		return -1
	}
	first := -1
	for _, vs := range [][]swtnl.Vertex{m.Triangles, m.Lines, m.Points} {
		for i := range vs {
			v := int(q8(vs[i].Color[3]))
			if first < 0 {
				first = v
			} else if v != first {
				return -1
			}
		}
	}
	return max(first, 0)
}

// vertexColor is the colour a software vertex is sent with for pass p.
func vertexColor(st *driver.State, v *swtnl.Vertex, p pass, forceAlpha bool) [4]uint8 {
	if p.fog {
		fc := st.Fog.Color
		return [4]uint8{q8(fc[0]), q8(fc[1]), q8(fc[2]), q8(1 - v.Fog)}
	}
	a := v.Color[3]
	if forceAlpha {
		a = 1
	}
	return [4]uint8{q8(v.Color[0]), q8(v.Color[1]), q8(v.Color[2]), q8(a)}
}

// swTriangles sends clipped window-space triangles (see swMode).
func (c *Context) swTriangles(st *driver.State, tris []swtnl.Vertex, texU int, p pass, forceAlpha bool) error {
	mode, a, b := swModeOf(st, tris)
	l := &c.list
	projective := false
	if texU >= 0 {
		for i := range tris {
			if tris[i].Tex[texU][3] != 1 {
				projective = true
				break
			}
		}
	}
	vt := ge.VType{Color: ge.Color8888, Pos: ge.FmtFloat, Through: mode == swThrough}
	if texU >= 0 {
		vt.TexCoord = ge.FmtFloat
		if projective && mode != swThrough {
			// (s, t, q) ride in the normal and TMATRIX = I picks them up
			// (TMAP matrix mode from the raw normal); the GE divides by q.
			vt.Normal = ge.FmtFloat
			l.set(ge.TMAP, 1|3<<8)
			l.matrix(ge.TMS, ge.TMATRIX, slotTex, []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
		} else {
			l.set(ge.TMAP, 0)
			l.set(ge.USCALE, ge.F24(1))
			l.set(ge.VSCALE, ge.F24(1))
			l.set(ge.UOFFSET, 0)
			l.set(ge.VOFFSET, 0)
		}
	}
	if mode != swThrough {
		ident := mat43(mgl32.Ident4())
		l.matrix(ge.WMS, ge.WORLD, slotWorld, ident)
		l.matrix(ge.VMS, ge.VIEW, slotView, ident)
		proj := mgl32.Ident4()
		if mode == swPerspective {
			proj = mgl32.Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, a, 1, 0, 0, b, 0}
		}
		l.matrix(ge.PMS, ge.PROJ, slotProj, proj[:])
		if st.Fog.Enabled && st.Fog.Mode == driver.FogLinear && !p.second && !p.fog {
			c.swLinearFog(st, mode)
		} else {
			l.set(ge.FGE, 0)
		}
	} else {
		l.set(ge.FGE, 0)
	}
	var w0, h0 float32 = 1, 1
	if texU >= 0 && mode == swThrough {
		lv := st.Units[texU].Texture.Levels[0]
		w0, h0 = float32(lv.Width), float32(lv.Height)
	}
	lay := vt.Layout()
	buf := make([]byte, len(tris)*lay.Size)
	for i := range tris {
		v := &tris[i]
		o := buf[i*lay.Size:]
		col := vertexColor(st, v, p, forceAlpha)
		copy(o[lay.ColorOff:], col[:])
		var pos [3]float32
		switch mode {
		case swOrtho:
			pos = [3]float32{v.Clip[0], v.Clip[1], v.Clip[2]}
		case swPerspective:
			pos = [3]float32{v.Clip[0], v.Clip[1], v.Clip[3]}
		default:
			pos = [3]float32{v.Win[0], float32(c.cfg.Height) - v.Win[1], v.Win[2] * 65535}
		}
		putF32(o[lay.PosOff:], pos[:]...)
		if texU >= 0 {
			tc := v.Tex[texU]
			switch {
			case vt.Normal != ge.FmtNone:
				putF32(o[lay.NormalOff:], tc[0], tc[1], tc[3])
				putF32(o[lay.TexOff:], 0, 0)
			case mode == swThrough:
				q := tc[3]
				if q == 0 {
					q = 1
				}
				putF32(o[lay.TexOff:], tc[0]/q*w0, tc[1]/q*h0)
			default:
				putF32(o[lay.TexOff:], tc[0], tc[1])
			}
		}
	}
	vaddr, err := c.upload(buf, 4)
	if err != nil {
		return err
	}
	idx := make([]int, len(tris))
	for i := range idx {
		idx[i] = i
	}
	return c.kickPrims(vt, vaddr, 3, idx, true)
}

// swLinearFog emits LINEAR fog for the software path's vertex forms: in
// perspective mode the GE's view z is clip w = -z_eye; in ortho mode it is
// clip z, an affine function of z_eye when the projection's z row uses z
// only.
func (c *Context) swLinearFog(st *driver.State, mode swMode) {
	l := &c.list
	if mode == swPerspective {
		c.fog(st, true, true)
		return
	}
	p := st.Projection
	a, b := p[10], p[14]
	if p[2] != 0 || p[6] != 0 || a == 0 {
		l.set(ge.FGE, 0)
		return
	}
	f := &st.Fog
	span := f.End - f.Start
	if span == 0 {
		span = 1e-30
	}
	// f = (end + z_eye)/span with z_eye = (Z - b)/a.
	l.set(ge.FGE, 1)
	l.set(ge.FFAR, ge.F24(a*f.End-b))
	l.set(ge.FDIST, ge.F24(1/(a*span)))
	l.set(ge.FCOL, rgb8(f.Color))
}

func putF32(b []byte, vs ...float32) {
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
}

// throughVertex is one through-mode vertex: float UV (texels), 8888
// colour, float position (x, y pixels from the top-left, z 0..65535).
type throughVertex struct {
	u, v    float32
	col     [4]uint8
	x, y, z float32
}

var throughVT = ge.VType{TexCoord: ge.FmtFloat, Color: ge.Color8888, Pos: ge.FmtFloat, Through: true}

// throughPrims uploads through-mode vertices and draws them.
func (c *Context) throughPrims(vs []throughVertex, ptype uint32) error {
	l := &c.list
	l.set(ge.FGE, 0)
	lay := throughVT.Layout()
	buf := make([]byte, len(vs)*lay.Size)
	for i, v := range vs {
		o := buf[i*lay.Size:]
		putF32(o[lay.TexOff:], v.u, v.v)
		copy(o[lay.ColorOff:], v.col[:])
		putF32(o[lay.PosOff:], v.x, v.y, v.z)
	}
	vaddr, err := c.upload(buf, 4)
	if err != nil {
		return err
	}
	idx := make([]int, len(vs))
	for i := range idx {
		idx[i] = i
	}
	return c.kickPrims(throughVT, vaddr, ptype, idx, true)
}

func (c *Context) texelScale(st *driver.State, texU int) (float32, float32) {
	if texU < 0 {
		return 1, 1
	}
	lv := st.Units[texU].Texture.Levels[0]
	return float32(lv.Width), float32(lv.Height)
}

// swLines draws lines of any width as through-mode quads: each segment is
// widened by the line width along the minor axis, as GL's aliased wide
// lines are.
func (c *Context) swLines(st *driver.State, ls []swtnl.Vertex, texU int, p pass, forceAlpha bool) error {
	w0, h0 := c.texelScale(st, texU)
	half := max(1, float32(math.Round(float64(st.LineWidth)))) / 2
	H := float32(c.cfg.Height)
	var vs []throughVertex
	for i := 0; i+1 < len(ls); i += 2 {
		a, b := &ls[i], &ls[i+1]
		ax, ay := a.Win[0], H-a.Win[1]
		bx, by := b.Win[0], H-b.Win[1]
		var ox, oy float32
		if abs32(bx-ax) >= abs32(by-ay) {
			oy = half
		} else {
			ox = half
		}
		mk := func(v *swtnl.Vertex, x, y float32) throughVertex {
			tv := throughVertex{col: vertexColor(st, v, p, forceAlpha), x: x, y: y, z: v.Win[2] * 65535}
			if texU >= 0 {
				tc := v.Tex[texU]
				tv.u, tv.v = tc[0]*w0, tc[1]*h0
			}
			return tv
		}
		a0, a1 := mk(a, ax-ox, ay-oy), mk(a, ax+ox, ay+oy)
		b0, b1 := mk(b, bx-ox, by-oy), mk(b, bx+ox, by+oy)
		vs = append(vs, a0, b0, a1, a1, b0, b1)
	}
	return c.throughPrims(vs, 3)
}

// swPoints draws points as through-mode sprites of the derived size
// (rounded, at least 1 pixel) centred on the window position; with
// OES_point_sprite's COORD_REPLACE the texture runs from (0,0) at the top
// left to (1,1) at the bottom right (GL's t = 1/2 - (y - y_w)/size).
func (c *Context) swPoints(st *driver.State, ps []swtnl.Vertex, texU int, p pass, forceAlpha bool) error {
	w0, h0 := c.texelScale(st, texU)
	H := float32(c.cfg.Height)
	maxSize := c.drv.caps.Limits.AliasedPointSizeRange[1]
	var vs []throughVertex
	for i := range ps {
		v := &ps[i]
		size := max(1, min(maxSize, float32(math.Round(float64(v.PointSize)))))
		x, y := v.Win[0], H-v.Win[1]
		col := vertexColor(st, v, p, forceAlpha)
		a := throughVertex{col: col, x: x - size/2, y: y - size/2, z: v.Win[2] * 65535}
		b := throughVertex{col: col, x: x + size/2, y: y + size/2, z: v.Win[2] * 65535}
		if texU >= 0 {
			if st.Point.Sprite && st.Units[texU].CoordReplace {
				a.u, a.v, b.u, b.v = 0, 0, w0, h0
			} else {
				tc := v.Tex[texU]
				a.u, a.v = tc[0]*w0, tc[1]*h0
				b.u, b.v = a.u, a.v
			}
		}
		vs = append(vs, a, b)
	}
	return c.throughPrims(vs, 6)
}

// drawTexture implements OES_draw_texture with a through-mode sprite: the
// window rectangle (GL's y up flipped to the GE's y down), depth
// n + z*(f-n), the current colour, and texture coordinates from unit 0's
// crop rectangle (in texels, the crop's bottom row at the rectangle's
// bottom).
func (c *Context) drawTexture(st *driver.State, r *driver.DrawTexRect) error {
	t := st.Units[0].Texture
	if st.Units[1].Texture != nil {
		return unsupported(driver.FeatureMultitexture, "OES_draw_texture with two units")
	}
	c.surface()
	// OES_draw_texture rectangles are not clipped to the viewport.
	if !c.scissorTo(st, false) {
		return nil
	}
	p := pass{unit: -1}
	if t != nil {
		p.unit = 0
	}
	plan, err := c.texState(st, p)
	if err != nil {
		return err
	}
	l := &c.list
	l.set(ge.LTE, 0)
	l.set(ge.BCE, 0)
	l.set(ge.TMAP, 0)
	ca := -1
	if !st.Blend.Enabled && (t == nil || !plan.rgba) {
		ca = int(q8(st.CurrentColor[3]))
	}
	if why := c.fragment(st, fragOpts{constAlpha: ca}); why != "" {
		return unsupported(driver.FeatureBlend, why)
	}
	H := float32(c.cfg.Height)
	zn, zf := st.DepthRange[0], st.DepthRange[1]
	z := (zn + clampf(r.Z)*(zf-zn)) * 65535
	cc := st.CurrentColor
	if plan.forceAlpha {
		cc[3] = 1
	}
	col := [4]uint8{q8(cc[0]), q8(cc[1]), q8(cc[2]), q8(cc[3])}
	a := throughVertex{col: col, x: r.X, y: H - (r.Y + r.H), z: z}
	b := throughVertex{col: col, x: r.X + r.W, y: H - r.Y, z: z}
	if t != nil {
		cr := t.Crop
		a.u, a.v = float32(cr[0]), float32(cr[1]+cr[3])
		b.u, b.v = float32(cr[0]+cr[2]), float32(cr[1])
	}
	return c.throughPrims([]throughVertex{a, b}, 6)
}
