package unichrome

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/multipass"
	"github.com/retrogl/retrogl/driver/swtnl"
)

// ucCaps is the engine's profile for driver/multipass. Its two blending
// stages take every GL_COMBINE function but DOT3 (the seed's dot-product
// equation is garbled, L2723, and the simulator does not model it), so
// the fallback only ever runs its software stage here: the CPU computes the
// fragment colours of the draw, the engine composites them with the
// application's per-fragment state.
var ucCaps = multipass.Caps{AlphaRegisters: true, Subtract: true, AlphaBits: true}

// needsFallback returns why a texture unit's environment has no stage
// form, or "".
func needsFallback(st *driver.State) string {
	n := 0
	for u := range st.Units {
		t := st.Units[u].Texture
		if t == nil || n == 2 {
			continue
		}
		n++
		base := t.Base()
		if _, err := stageFor(fromEnv(&st.Units[u].Env, base), st.Units[u].Env.Color,
			base == driver.BaseRGB || base == driver.BaseLuminance); err != nil {
			return err.Error()
		}
	}
	return ""
}

// fallback draws a draw whose environment the stages cannot express.
// Software T&L culls here (the composite draws only what is visible, and
// must not cull the triangles points become).
func (c *Context) fallback(st *driver.State, dc *driver.DrawCall) error {
	mesh, err := c.tnl.Run(st, dc)
	if err != nil {
		return err
	}
	return c.fallbackMesh(st, mesh, true)
}

// fallbackMesh runs the fallback's program for a window-space mesh;
// viewport says whether the viewport bounds it (OES_draw_texture's
// rectangle is not clipped to it).
func (c *Context) fallbackMesh(st *driver.State, mesh *swtnl.Mesh, viewport bool) error {
	p := multipass.Plan(st, ucCaps)
	if !p.Software {
		return fmt.Errorf("unichrome: fallback program needs register passes: %s", p)
	}
	b := multipass.Rect{X0: 0, Y0: 0, X1: c.cfg.Width, Y1: c.cfg.Height}
	if st.ScissorTest {
		s := st.Scissor
		b = b.Intersect(multipass.Rect{X0: s.X, Y0: s.Y, X1: s.X + s.W, Y1: s.Y + s.H})
	}
	if viewport {
		v := st.Viewport
		b = b.Intersect(multipass.Rect{X0: v.X, Y0: v.Y, X1: v.X + v.W, Y1: v.Y + v.H})
	}
	chip := &ucChip{c: c, st: st}
	_, err := multipass.Run(chip, st, p, mesh, c.footprint(st), b)
	return err
}

// footprint is how drawMesh covers points and lines.
func (c *Context) footprint(st *driver.State) multipass.Footprint {
	width := float32(min(max(st.LineWidth, 1), MaxPointSize))
	return multipass.Footprint{
		PointSize: func(v *swtnl.Vertex) float32 {
			w := *v
			return pointSquare(&w, st.Point.Sprite)
		},
		LineHalf: max(1, float32(int(width+0.5))) / 2,
	}
}

// ucChip is multipass.Chip for software programs: the software stage's
// colours become a texture, which the composite samples at each
// fragment's window position.
type ucChip struct {
	c   *Context
	st  *driver.State
	pix []byte
	gen uint64
}

// compositeTexture is the texture name the composite uses; GL names never
// reach it (gles hands out names counting up from 1).
const compositeTexture = 0xFFFFFF00

// Registers implements multipass.Chip: one CPU image as large as the
// surface (powers of two, at most the engine's 2048).
func (u *ucChip) Registers(n int) (int, int, error) {
	p := func(v int) int { return min(2048, 1<<bits.Len(uint(max(v, 1)-1))) }
	return p(u.c.cfg.Width), p(u.c.cfg.Height), nil
}

// Pass implements multipass.Chip; software programs have no register
// passes.
func (u *ucChip) Pass(t multipass.Rect, b *multipass.Batch, op multipass.Op) error {
	return errors.New("unichrome: the fallback runs software programs only")
}

// Upload implements multipass.Chip: the tile's colours are kept for the
// composite.
func (u *ucChip) Upload(t multipass.Rect, r multipass.Reg, pix []byte) error {
	u.pix = pix
	return nil
}

// Composite implements multipass.Chip: the batch is drawn with the
// application's state, unit 0 replaced by the uploaded colours (REPLACE,
// nearest, clamped; texture rows run bottom to top like the tile's) at the
// fragment's window position, fog off (the software stage applied it),
// scissored to the tile.
func (u *ucChip) Composite(t multipass.Rect, b *multipass.Batch, p *multipass.Program) error {
	c := u.c
	pw, ph := 1<<bits.Len(uint(t.W()-1)), 1<<bits.Len(uint(t.H()-1))
	data := make([]byte, 4*pw*ph)
	for y := 0; y < t.H(); y++ {
		copy(data[4*y*pw:], u.pix[4*y*t.W():4*(y+1)*t.W()])
	}
	u.gen++
	tex := &driver.Texture{ID: compositeTexture, Gen: u.gen, Format: driver.TexRGBA8888,
		Sampler: driver.Sampler{MinFilter: driver.FilterNearest, MagFilter: driver.FilterNearest,
			WrapS: driver.WrapClampToEdge, WrapT: driver.WrapClampToEdge},
		Levels: []driver.Level{{Width: pw, Height: ph, Data: data}}}
	st := *u.st
	for i := range st.Units {
		st.Units[i] = driver.TexUnit{}
	}
	env := driver.DefaultTexEnv()
	env.Mode = driver.EnvReplace
	st.Units[0] = driver.TexUnit{Texture: tex, Env: env}
	st.Fog.Enabled = false
	st.CullEnabled = false
	sc := multipass.Rect{X0: t.X0, Y0: t.Y0, X1: t.X1, Y1: t.Y1}
	st.ScissorTest, st.Scissor = true, driver.Rect{X: sc.X0, Y: sc.Y0, W: sc.W(), H: sc.H()}
	ds, err := c.setup(&st, driver.PrimTriangles)
	if err != nil || ds == nil {
		c.ReleaseTexture(compositeTexture)
		return err
	}
	at := func(v *swtnl.Vertex, x, y float32) {
		v.Tex[0] = [4]float32{(x - float32(t.X0)) / float32(pw), (y - float32(t.Y0)) / float32(ph), 0, 1}
		// Screen-linear coordinates: no perspective division.
		v.Win[3] = 1
	}
	var m swtnl.Mesh
	for _, v := range b.Mesh.Triangles {
		at(&v, v.Win[0], v.Win[1])
		m.Triangles = append(m.Triangles, v)
	}
	for _, v := range b.Mesh.Lines {
		// Wide lines are quads of copies of their ends: colours along a
		// GL line vary along it only, so the end's column is right.
		at(&v, v.Win[0], v.Win[1])
		m.Lines = append(m.Lines, v)
	}
	for _, v := range b.Mesh.Points {
		// Points become two triangles so that each corner samples its own
		// position (a sprite's colours vary across it).
		size := pointSquare(&v, u.st.Point.Sprite)
		h := size / 2
		var q [4]swtnl.Vertex
		for k, d := range [4][2]float32{{-h, -h}, {h, -h}, {h, h}, {-h, h}} {
			q[k] = v
			q[k].Win[0] += d[0]
			q[k].Win[1] += d[1]
			at(&q[k], q[k].Win[0], q[k].Win[1])
		}
		m.Triangles = append(m.Triangles, q[0], q[1], q[2], q[0], q[2], q[3])
	}
	c.drawMesh(&st, ds, &m)
	// The composite texture changes with every tile.
	c.ReleaseTexture(compositeTexture)
	return nil
}
