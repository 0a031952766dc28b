package unichrome

import (
	"math"
	"slices"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// drawSetup is what a draw decided about its vertices.
type drawSetup struct {
	units  []int // GL unit of each chip texture
	mask   uint32
	fog    bool
	height float32
	sprite bool // generate texture coordinates for point sprites
	// replace says, per chip texture, whether point sprites replace its
	// coordinates (GL_COORD_REPLACE_OES).
	replace [2]bool
	en      uint32
}

// Draw implements driver.Context.
func (c *Context) Draw(st *driver.State, dc *driver.DrawCall) error {
	if err := c.usable(); err != nil {
		return err
	}
	if st.Program != nil {
		return &driver.Unsupported{Backend: "unichrome", Feature: driver.FeatureShaders, Why: "fixed-function chip"}
	}
	if dc.DrawTexture != nil {
		return c.drawTexture(st, dc.DrawTexture)
	}
	if why := needsFallback(st); why != "" {
		return c.fallback(st, dc)
	}
	ds, err := c.setup(st, dc.Prim)
	if err != nil || ds == nil {
		return err
	}
	if c.drawStream(st, ds, dc) {
		if len(c.cmd.words) > flushWords {
			return c.Flush()
		}
		return nil
	}
	mesh, err := c.transform(st, dc)
	if err != nil {
		return err
	}
	c.drawMesh(st, ds, mesh)
	if len(c.cmd.words) > flushWords {
		return c.Flush()
	}
	return nil
}

// drawStream is transform and drawMesh for a draw swtnl.Stream takes (a
// plain list of independent triangles): the same words, each triangle's
// written as it leaves T&L, so the transformed vertices and the mesh are
// never held whole. It returns false, having done nothing, for any other
// draw.
func (c *Context) drawStream(st *driver.State, ds *drawSetup, dc *driver.DrawCall) bool {
	if streamOff {
		return false
	}
	c.verts = c.verts[:0]
	plain := ds.words() == 4
	if !c.tnl.Stream(c.tnlState(st), dc, func(m *swtnl.Mesh) {
		if plain {
			n, k := len(c.verts), 4*len(m.Triangles)
			c.verts = slices.Grow(c.verts, k)[:n+k]
			plainWords(c.verts[n:], m.Triangles, ds.height)
			return
		}
		for i := range m.Triangles {
			c.vertex(ds, &m.Triangles[i], [2]float32{})
		}
	}) {
		return false
	}
	if len(c.verts) > 0 {
		// drawMesh's order: the polygon offset, then the list.
		c.polygonOffset(st, st.PolygonOffset.Fill)
		cullEn, bface := c.cullBits(st)
		c.emit(ds, uc.PrimTri, triShade(st), cullEn, bface)
	}
	return true
}

// streamOff turns drawStream off (TestStreamSameWords).
var streamOff bool

// triShade is the engine's shading for a draw's triangles (drawMesh).
func triShade(st *driver.State) uc.Shade {
	if st.Shade == driver.ShadeFlat && !st.Fog.Enabled {
		return uc.ShadeFlatC
	}
	return uc.ShadeGouraud
}

// tnlState is the state software T&L runs with (transform).
func (c *Context) tnlState(st *driver.State) *driver.State {
	if st.CullEnabled && st.CullFace != driver.FaceFrontAndBack {
		cp := *st
		cp.CullEnabled = false
		return &cp
	}
	return st
}

// transform runs software T&L. Culling is the engine's except
// FRONT_AND_BACK, which software T&L drops; two-sided lighting still sees
// the facing.
func (c *Context) transform(st *driver.State, dc *driver.DrawCall) (*swtnl.Mesh, error) {
	return c.tnl.Run(c.tnlState(st), dc)
}

// drawMesh sends a mesh's primitives with the state setup programmed.
func (c *Context) drawMesh(st *driver.State, ds *drawSetup, mesh *swtnl.Mesh) {
	// swtnl has already given every vertex of a flat primitive the
	// provoking vertex's colour. The engine's flat shading would also
	// flatten the fog factor, which rides in the specular alpha (Cs
	// 31:24); GL fogs each fragment by its own distance, so with fog the
	// engine shades Gouraud (the colours are equal, the fog is not).
	flatTri, flatLine := uc.ShadeGouraud, uc.ShadeGouraud
	if st.Shade == driver.ShadeFlat && !st.Fog.Enabled {
		flatTri, flatLine = uc.ShadeFlatC, uc.ShadeFlatB
	}
	if n := len(mesh.Triangles); n > 0 {
		c.polygonOffset(st, st.PolygonOffset.Fill)
		// The list's vertices are written in place in the command
		// buffer, ds.words() a vertex (emit's words without c.verts).
		cullEn, bface := c.cullBits(st)
		c.cmd.set(grpAttr, uc.AttrEnable, ds.en|cullEn)
		nw := ds.words()
		vs := c.cmd.listWords(uc.CmdBWord(ds.mask, bface, 0), uc.CmdAWord(uc.PrimTri, flatTri, uc.CycleFull), nw*n)
		if nw == 4 {
			plainWords(vs, mesh.Triangles, ds.height)
		} else {
			for i := range mesh.Triangles {
				c.vertexTo(ds, &mesh.Triangles[i], [2]float32{}, vs[nw*i:])
			}
		}
	}
	if len(mesh.Lines) > 0 {
		c.polygonOffset(st, false)
		c.lines(st, ds, mesh.Lines, flatLine)
	}
	if len(mesh.Points) > 0 {
		c.polygonOffset(st, false)
		c.points(st, ds, mesh.Points)
	}
}

// flushWords bounds a command list (1 MB): a longer one is submitted
// after the draw that filled it, so the engine starts early and system
// memory is reused.
const flushWords = 1 << 18

// cullBits returns the enable bit and Command B flag for culling. The
// y flip (y' = H - y) keeps the picture upright, so a triangle's winding
// as seen on the screen is the same for GL and the engine: with FrontFace
// CCW the back faces are clockwise, HBFace 0.
func (c *Context) cullBits(st *driver.State) (uint32, uint32) {
	if !st.CullEnabled || st.CullFace == driver.FaceFrontAndBack {
		return 0, 0
	}
	backIsCCW := st.FrontFace == driver.WindingCW
	if st.CullFace == driver.FaceFront {
		backIsCCW = !backIsCCW
	}
	if backIsCCW {
		return enBFCull, uc.CmdBCCWBack
	}
	return enBFCull, 0
}

// setup programs the state of a draw and decides the vertex layout. It
// returns nil when nothing can be drawn (empty scissor).
func (c *Context) setup(st *driver.State, prim driver.Prim) (*drawSetup, error) {
	if !c.surface(st, st.ColorMask) {
		return nil, nil
	}
	en := c.fragmentState(st)
	ds := &drawSetup{height: float32(c.cfg.Height), mask: uc.MaskX | uc.MaskY | uc.MaskZ | uc.MaskCd}
	for u := 0; u < driver.MaxTextureUnits && len(ds.units) < 2; u++ {
		if st.Units[u].Texture != nil {
			ds.units = append(ds.units, u)
		}
	}
	for n, u := range ds.units {
		unit := &st.Units[u]
		dt, err := c.upload(unit.Texture)
		if err != nil {
			return nil, err
		}
		base := unit.Texture.Base()
		regs, err := stageFor(fromEnv(&unit.Env, base), unit.Env.Color, base == driver.BaseRGB || base == driver.BaseLuminance)
		if err != nil {
			return nil, &driver.Unsupported{Backend: "unichrome", Feature: driver.FeatureTexEnvCombine, Why: err.Error()}
		}
		c.setTexture(n, unit.Texture, dt)
		c.setStage(n, &regs)
		ds.replace[n] = unit.CoordReplace
	}
	if len(ds.units) > 0 {
		en |= enTXMP | enTXPP | enTXCH
		ds.mask |= uc.MaskW | uc.MaskS | uc.MaskT
		c.cmd.set(grpTexGen, uc.TexGenMode, uint32(len(ds.units)-1)<<3)
		ds.sprite = prim == driver.PrimPoints && st.Point.Sprite
	}
	if st.Fog.Enabled {
		ds.fog = true
		ds.mask |= uc.MaskCs
	}
	ds.en = en
	return ds, nil
}

// vertex appends one swtnl vertex in the engine's layout. spr holds the
// sprite coordinates used for units with COORD_REPLACE.
func (c *Context) vertex(ds *drawSetup, v *swtnl.Vertex, spr [2]float32) {
	n := len(c.verts)
	c.verts = slices.Grow(c.verts, ds.words())[:n+ds.words()]
	c.vertexTo(ds, v, spr, c.verts[n:])
}

// plainWords writes the words of vertices vs to b (4 a vertex) for a
// draw with X, Y, Z and Cd alone (no texture, no fog) at height h:
// vertexTo's words without its tests (TestPlainWords).
func plainWords(b []uint32, vs []swtnl.Vertex, h float32) {
	for i := range vs {
		v := &vs[i]
		d := b[4*i : 4*i+4 : 4*i+4]
		d[0], d[1], d[2] = fl(v.Win[0]), fl(h-v.Win[1]), fl(v.Win[2])
		d[3] = uint32(q8(v.Color[3]))<<24 | uint32(q8(v.Color[0]))<<16 | uint32(q8(v.Color[1]))<<8 | uint32(q8(v.Color[2]))
	}
}

// words is the number of words of a vertex: X, Y, Z, W with textures,
// Cd, Cs with fog, and an S, T pair per texture.
func (ds *drawSetup) words() int {
	n := 4 + 2*len(ds.units)
	if ds.mask&uc.MaskW != 0 {
		n++
	}
	if ds.fog {
		n++
	}
	return n
}

// vertexTo writes vertex's words to b[:ds.words()].
func (c *Context) vertexTo(ds *drawSetup, v *swtnl.Vertex, spr [2]float32, b []uint32) {
	w := v.Win[3]
	q := float32(1)
	if len(ds.units) > 0 {
		q = v.Tex[ds.units[0]][3]
	}
	cd := uint32(q8(v.Color[3]))<<24 | uint32(q8(v.Color[0]))<<16 | uint32(q8(v.Color[1]))<<8 | uint32(q8(v.Color[2]))
	b = b[:ds.words()]
	b[0], b[1], b[2] = fl(v.Win[0]), fl(ds.height-v.Win[1]), fl(v.Win[2])
	n := 3
	if ds.mask&uc.MaskW != 0 {
		b[n] = fl(w * q)
		n++
	}
	b[n] = cd
	n++
	if ds.fog {
		b[n] = uint32(q8(v.Fog)) << 24
		n++
	}
	for k, u := range ds.units {
		tc := v.Tex[u]
		s, t := tc[0], tc[1]
		if ds.sprite && ds.replace[k] {
			s, t = spr[0], spr[1]
		} else if tc[3] != 1 && tc[3] != 0 {
			s, t = s/tc[3], t/tc[3]
		}
		b[n], b[n+1] = fl(s), fl(t)
		n += 2
	}
}

func fl(f float32) uint32 {
	if f != f {
		f = 0
	}
	return math.Float32bits(f)
}

// emit sends the collected vertices as one list.
func (c *Context) emit(ds *drawSetup, prim uc.Prim, shade uc.Shade, cull ...uint32) {
	if len(c.verts) == 0 {
		return
	}
	en, bface := ds.en, uint32(0)
	if len(cull) == 2 {
		en |= cull[0]
		bface = cull[1]
	}
	c.cmd.set(grpAttr, uc.AttrEnable, en)
	c.cmd.list(uc.CmdBWord(ds.mask, bface, 0), uc.CmdAWord(prim, shade, uc.CycleFull), c.verts)
	c.verts = c.verts[:0]
}
