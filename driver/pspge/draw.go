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

// Draw implements driver.Context. A draw whose state the GE expresses in
// one pass goes through the GE's transform and lighting unit when the
// state allows it (hardware path), otherwise driver/swtnl transforms,
// lights, clips and culls it on the CPU and the GE gets window-space
// geometry (software path). Any other valid state (two texture units,
// GL_COMBINE beyond TFUNC, EXP/EXP2 fog, fog on a vertex form the GE cannot
// fog) goes through the shared multi-pass fallback (driver/multipass,
// fallback.go) over the software path's primitives.
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
	st, soft := c.mirrorState(st)
	unit, why := c.nativeState(st)
	if soft != "" {
		why = soft
	}
	if why == "" {
		// Only ES 2.0 factors get here.
		if w := blendNative(st); w != "" {
			return unsupported(driver.FeatureBlend, w)
		}
	}
	c.surface()
	if !c.scissor(st) {
		return nil
	}
	var err error
	if why == "" && c.needSoftware(st, dc) == "" {
		err = c.hwDraw(st, dc, unit)
		c.stats.HWDraws++
	} else {
		err = c.swDraw(st, dc, unit, why, soft)
	}
	if err != nil {
		return err
	}
	if (len(c.list.words) >= pushWords || c.pending >= maxPendingUpload) && c.cond == nil {
		return c.push()
	}
	return nil
}

// blendNative returns why the state's blend factors have no GE form (GL
// ES 2.0's SRC_COLOR as a source or DST_COLOR as a destination factor), or
// "".
func blendNative(st *driver.State) string {
	if !st.Blend.Enabled || st.LogicOpEnabled {
		return ""
	}
	_, _, ok1 := blendFactor(st.Blend.SrcRGB, true, st.Blend.Color)
	_, _, ok2 := blendFactor(st.Blend.DstRGB, false, st.Blend.Color)
	if !ok1 || !ok2 {
		return "SRC_COLOR as a source or DST_COLOR as a destination factor (GL ES 2.0) has no GE form"
	}
	return ""
}

// nativeState returns the texture unit a single GE pass samples (-1 for
// none) or, when one pass cannot express the state, why: the GE has one
// texture stage whose TFUNC covers GL's MODULATE, DECAL, BLEND, REPLACE
// and ADD and a subset of GL_COMBINE (analyzeCombine), and LINEAR fog
// only. A lone unit 1 is drawn like unit 0 with its own coordinates.
func (c *Context) nativeState(st *driver.State) (int, string) {
	unit := -1
	for u := range st.Units {
		if st.Units[u].Texture == nil {
			continue
		}
		if unit >= 0 {
			return -1, "two texture units"
		}
		unit = u
	}
	if st.Fog.Enabled && st.Fog.Mode != driver.FogLinear {
		return -1, "EXP/EXP2 fog"
	}
	if unit >= 0 {
		t := &st.Units[unit]
		if _, _, why := envFor(t.Texture.Base(), &t.Env); why != "" {
			return -1, why
		}
	}
	return unit, ""
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
	if positionW(dc) {
		// The GE takes three-component positions; dividing by w on the
		// CPU would lose the perspective correction of texture
		// coordinates.
		return "positions with w != 1"
	}
	far, behind := vertexTests(st, dc)
	if far {
		return "a vertex beyond the far plane (the GE clips at the near plane only)"
	}
	if behind && st.Fog.Enabled {
		return "fog on a vertex with positive eye z (GL fogs by |z_eye|, the GE by z_view)"
	}
	return ""
}

// vertexTests reports whether a vertex of the draw lies beyond the far
// clipping plane (clip z > w), which GL clips and the GE, clamping depth,
// would draw, and whether one has a positive eye z (possible under an
// orthographic projection), where GL's fog distance |z_eye| and the GE's
// signed view z part.
func vertexTests(st *driver.State, dc *driver.DrawCall) (far, behind bool) {
	m := st.Projection.Mul4(st.ModelView)
	mv := st.ModelView
	a := &dc.Arrays.Position
	if !a.Enabled {
		return false, false
	}
	var p [4]float32
	for i := dc.MinIndex; i <= dc.MaxIndex; i++ {
		a.Fetch(i, [4]float32{0, 0, 0, 1}, &p)
		z := m[2]*p[0] + m[6]*p[1] + m[10]*p[2] + m[14]*p[3]
		w := m[3]*p[0] + m[7]*p[1] + m[11]*p[2] + m[15]*p[3]
		far = far || z > w
		behind = behind || mv[2]*p[0]+mv[6]*p[1]+mv[10]*p[2]+mv[14]*p[3] > 0
	}
	return far, behind
}

// positionW reports whether a vertex of the draw has a position w other
// than 1.
func positionW(dc *driver.DrawCall) bool {
	a := &dc.Arrays.Position
	if !a.Enabled || a.Size < 4 {
		return false
	}
	var p [4]float32
	for i := dc.MinIndex; i <= dc.MaxIndex; i++ {
		a.Fetch(i, [4]float32{0, 0, 0, 1}, &p)
		if p[3] != 1 {
			return true
		}
	}
	return false
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

// envFor maps a texture environment of a single texture stage to TFUNC:
// the env plan and whether TFUNC's doubling (bit 16) is on, or why TFUNC
// cannot compute it.
func envFor(base driver.BaseFormat, env *driver.TexEnv) (envPlan, bool, string) {
	plan := texEnv(base, env)
	if env.Mode != driver.EnvCombine {
		return plan, false, ""
	}
	cp, why := analyzeCombine(env, 0)
	if why != "" {
		return plan, false, "GL_COMBINE with " + why
	}
	// TFUNC's alpha: RGB mode (bit 8 clear) passes the incoming alpha;
	// RGBA mode gives the texture alpha with REPLACE, the product with
	// MODULATE and ADD.
	hasAlpha := base != driver.BaseRGB && base != driver.BaseLuminance
	switch cp.kind {
	case combineTexture:
		plan = envPlan{fn: 3, rgba: cp.alpha == 1 && hasAlpha}
		if cp.alpha == 2 {
			return plan, false, "GL_COMBINE REPLACE colour with a modulated alpha"
		}
	case combineModulate, combineAdd:
		plan = envPlan{fn: 0, rgba: cp.alpha == 2 && hasAlpha}
		if cp.kind == combineAdd {
			plan.fn = 4
		}
		if cp.alpha == 1 {
			return plan, false, "GL_COMBINE with the texture alpha alone"
		}
	default:
		return plan, false, "GL_COMBINE REPLACE of the incoming colour"
	}
	return plan, cp.double, ""
}

// texState binds the texture of unit u (-1: none) and emits TFUNC for its
// environment, which nativeState accepted.
func (c *Context) texState(st *driver.State, u int) (envPlan, error) {
	l := &c.list
	if u < 0 {
		l.set(ge.TME, 0)
		return envPlan{}, nil
	}
	t := &st.Units[u]
	g, err := c.bindTexture(t.Texture)
	if err != nil {
		return envPlan{}, err
	}
	l.set(ge.TME, 1)
	c.sampler(t.Texture.Sampler, len(g.levels))
	plan, double, _ := envFor(g.base, &t.Env)
	arg := plan.fn
	if plan.rgba {
		arg |= 0x100
	}
	if double {
		arg |= 0x10000
	}
	l.set(ge.TFUNC, arg)
	l.set(ge.TEC, rgb8(t.Env.Color))
	return plan, nil
}

// hwDraw sends the draw through the GE's transform unit in one pass.
func (c *Context) hwDraw(st *driver.State, dc *driver.DrawCall, unit int) error {
	c.raster(st, true)
	c.matrices(st)
	plan, err := c.texState(st, unit)
	if err != nil {
		return err
	}
	c.lighting(st, plan.forceAlpha)
	c.fog(st, st.Fog.Enabled, false)
	c.fragment(st)
	return c.hwGeometry(st, dc, unit, plan.forceAlpha)
}

// hwGeometry uploads the draw's vertices in one VTYPE layout (float
// texture coordinates, 8888 colour, float normal, float position) and
// kicks PRIM, with rebased 16-bit indices for DrawElements.
func (c *Context) hwGeometry(st *driver.State, dc *driver.DrawCall, texU int, forceAlpha bool) error {
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
	vt, vaddr, err := c.packVertices(st, dc, texU, forceAlpha)
	if err != nil {
		return err
	}
	first := dc.MinIndex
	idx := c.ibuf[:0]
	for i := 0; i < dc.Count; i++ {
		idx = append(idx, dc.VertexIndex(i)-first)
	}
	if dc.Prim == driver.PrimLineLoop && dc.Count > 1 {
		idx = append(idx, idx[0])
	}
	c.ibuf = idx
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

// swDraw transforms on the CPU with driver/swtnl and sends the result in
// one pass, or through the fallback when why says the state needs it or
// the GE cannot fog the vertex form.
func (c *Context) swDraw(st *driver.State, dc *driver.DrawCall, unit int, why, soft string) error {
	mesh, err := c.tnl.Run(st, dc)
	if err != nil {
		return fmt.Errorf("pspge: software T&L: %w", err)
	}
	if st.PolygonOffset.Fill && (st.PolygonOffset.Factor != 0 || st.PolygonOffset.Units != 0) {
		polygonOffset(st, mesh.Triangles)
	}
	if why == "" && !c.fogNative(st, mesh) {
		why = "fog on a vertex form the GE cannot fog"
	}
	if soft == "" && screenLinearError(st, mesh) > maxScreenLinearError {
		// The GE interpolates colours and the fog factor linearly in
		// window coordinates; where clip w varies enough across a
		// primitive for that to show, the fallback's software stage
		// interpolates them perspective-correctly (GL's equation 3.6).
		soft = "colours or fog varying across a primitive whose clip w varies (the GE interpolates them linearly in window coordinates)"
		why = soft
	}
	// GL clips points by their centre and lines by their segment, then
	// draws them whole: their width may cross the viewport's edges, so
	// only triangles keep the viewport as scissor.
	tris := len(mesh.Triangles) > 0
	if !tris && !c.scissorTo(st, false) {
		return nil
	}
	if why != "" {
		return c.fallback(st, mesh, c.drawBounds(st, tris), soft)
	}
	c.stats.SWDraws++
	l := &c.list
	plan, err := c.texState(st, unit)
	if err != nil {
		return err
	}
	l.set(ge.LTE, 0)
	c.fragment(st)
	c.raster(st, false)
	src := vsrc{tex: texNone, fog: true, color: func(v *swtnl.Vertex) [4]uint8 {
		a := v.Color[3]
		if plan.forceAlpha {
			a = 1
		}
		return [4]uint8{q8(v.Color[0]), q8(v.Color[1]), q8(v.Color[2]), q8(a)}
	}}
	if unit >= 0 {
		src.tex, src.unit, src.t = texUnit, unit, st.Units[unit].Texture
	}
	return c.emitMesh(st, mesh, src)
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

// drawTexture implements OES_draw_texture. In one pass it is a
// through-mode sprite: the window rectangle (GL's y up flipped to the GE's
// y down), depth n + z*(f-n), the current colour, and texture coordinates
// from the unit's crop rectangle (in texels, the crop's bottom row at the
// rectangle's bottom). A state one pass cannot express draws the
// rectangle's two triangles through the fallback.
func (c *Context) drawTexture(st *driver.State, r *driver.DrawTexRect) error {
	unit, why := c.nativeState(st)
	soft := ""
	for u := range st.Units {
		if t := st.Units[u].Texture; t != nil && (t.Sampler.WrapS == driver.WrapMirroredRepeat || t.Sampler.WrapT == driver.WrapMirroredRepeat) {
			// The crop rectangle, not a texture matrix, gives the
			// coordinates.
			soft = "MIRRORED_REPEAT under OES_draw_texture"
		}
	}
	c.surface()
	// OES_draw_texture rectangles are not clipped to the viewport.
	if !c.scissorTo(st, false) {
		return nil
	}
	zn, zf := st.DepthRange[0], st.DepthRange[1]
	z := zn + clampf(r.Z)*(zf-zn)
	if why != "" || soft != "" {
		return c.fallback(st, drawTexMesh(st, r, z), c.drawBounds(st, false), soft)
	}
	plan, err := c.texState(st, unit)
	if err != nil {
		return err
	}
	l := &c.list
	l.set(ge.LTE, 0)
	l.set(ge.BCE, 0)
	l.set(ge.TMAP, 0)
	c.fragment(st)
	H := float32(c.cfg.Height)
	cc := st.CurrentColor
	if plan.forceAlpha {
		cc[3] = 1
	}
	col := [4]uint8{q8(cc[0]), q8(cc[1]), q8(cc[2]), q8(cc[3])}
	a := throughVertex{col: col, x: r.X, y: H - (r.Y + r.H), z: z * 65535}
	b := throughVertex{col: col, x: r.X + r.W, y: H - r.Y, z: z * 65535}
	if unit >= 0 {
		cr := st.Units[unit].Texture.Crop
		a.u, a.v = float32(cr[0]), float32(cr[1]+cr[3])
		b.u, b.v = float32(cr[0]+cr[2]), float32(cr[1])
	}
	return c.throughPrims([]throughVertex{a, b}, 6)
}

// drawTexMesh is an OES_draw_texture rectangle as two window-space
// triangles for the fallback: the current colour, no fog, and each unit's
// crop rectangle as its texture coordinates. Clip coordinates are chosen
// so the viewport maps them back to the rectangle.
func drawTexMesh(st *driver.State, r *driver.DrawTexRect, z float32) *swtnl.Mesh {
	vp := st.Viewport
	n, f := st.DepthRange[0], st.DepthRange[1]
	corner := func(x, y, fx, fy float32) swtnl.Vertex {
		v := swtnl.Vertex{Color: st.CurrentColor, Fog: 1, Win: [4]float32{x, y, z, 1}}
		cz := float32(0)
		if f != n {
			cz = (z-n)/(f-n)*2 - 1
		}
		v.Clip = [4]float32{(x-float32(vp.X))/float32(vp.W)*2 - 1, (y-float32(vp.Y))/float32(vp.H)*2 - 1, cz, 1}
		for u := range st.Units {
			t := st.Units[u].Texture
			if t == nil {
				continue
			}
			cr := t.Crop
			w, h := float32(t.Levels[0].Width), float32(t.Levels[0].Height)
			v.Tex[u] = [4]float32{(float32(cr[0]) + fx*float32(cr[2])) / w, (float32(cr[1]) + fy*float32(cr[3])) / h, 0, 1}
		}
		return v
	}
	a, b := corner(r.X, r.Y, 0, 0), corner(r.X+r.W, r.Y, 1, 0)
	cc, d := corner(r.X+r.W, r.Y+r.H, 1, 1), corner(r.X, r.Y+r.H, 0, 1)
	return &swtnl.Mesh{Triangles: []swtnl.Vertex{a, b, cc, a, cc, d}, Facing: []bool{true, true}}
}
