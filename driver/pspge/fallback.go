package pspge

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/multipass"
	"github.com/retrogl/retrogl/driver/swtnl"
	"github.com/retrogl/retrogl/hal"
	ge "github.com/retrogl/retrogl/hal/pspge"
)

// mergePasses is what merging an alpha register into a colour register's
// alpha bits costs: one clear-mode sprite that zeroes them and one sprite
// per bit plane (see merge).
const mergePasses = 9

// geCaps is the GE's profile for the fallback's planner: a pass never
// stores its fragment alpha (the alpha bits hold the stencil and are
// written by the stencil unit only), blending subtracts (ALPHA op 2), there
// is no dot product, and the framebuffer keeps no alpha (blendFactor).
var geCaps = multipass.Caps{MergePasses: mergePasses, Subtract: true}

// regs are the fallback's registers: 8888 colour buffers in VRAM, all of
// one power-of-two size so that the texture unit can sample them.
type regs struct {
	a    []hal.Allocation
	w, h int
}

// drawBounds is the drawable rectangle of a draw (surface, scissor and,
// for geometry, the viewport) in GL window coordinates.
func (c *Context) drawBounds(st *driver.State, viewport bool) multipass.Rect {
	x0, y0, x1, y1 := c.scissorRect(st, viewport)
	H := c.cfg.Height
	return multipass.Rect{X0: x0, Y0: H - y1, X1: x1, Y1: H - y0}
}

// fallback draws a software mesh through driver/multipass: the state's
// texturing and fog evaluated in registers, then composited into the
// framebuffer with the application's per-fragment operations. soft, when
// set, says why the CPU must compute the fragment colours (the software
// stage) whatever the planner could do.
func (c *Context) fallback(st *driver.State, mesh *swtnl.Mesh, bounds multipass.Rect, soft string) error {
	if soft == "" && st.LogicOpEnabled {
		// Every register pass rounds to 8 bits, so a register program's
		// colour may be a step from GL's, which evaluates the
		// environment and fog in float and rounds once; a logic op turns
		// that step into differences of many bits. The software stage
		// rounds once, as GL does.
		soft = "a logic op over a register program"
	}
	p := multipass.Plan(st, geCaps)
	if soft != "" {
		p = multipass.Software(st, geCaps, soft)
	}
	chip := &geChip{c: c, st: st, bounds: bounds}
	s, err := multipass.Run(chip, st, p, mesh, c.footprint(st), bounds)
	c.stats.Fallbacks++
	if p.Software {
		c.stats.SoftwareDraws++
	}
	c.stats.Multipass.Add(s)
	c.stats.Passes += s.Passes
	return err
}

// geChip is multipass.Chip for one draw.
type geChip struct {
	c      *Context
	st     *driver.State
	bounds multipass.Rect
}

// pot is the smallest power of two >= n.
func pot(n int) int {
	if n <= 1 {
		return 1
	}
	return 1 << bits.Len(uint(n-1))
}

// Registers implements multipass.Chip: registers are allocated once, at
// least four, as large as VRAM allows up to the surface's size rounded up
// to powers of two (a 480x272 surface with a depth buffer gets 256x256).
// When a program needs more, more of the same size are added; if VRAM is
// full the GE is waited for and all are made again, smaller.
func (g *geChip) Registers(n int) (int, int, error) {
	c := g.c
	r := &c.regs
	if len(r.a) >= n {
		return r.w, r.h, nil
	}
	if len(r.a) > 0 {
		for len(r.a) < n {
			a, err := c.dev.Alloc(uint32(r.w*r.h*4), 16, "vram")
			if err != nil {
				break
			}
			r.a = append(r.a, a)
		}
		if len(r.a) >= n {
			return r.w, r.h, nil
		}
		if c.cond != nil {
			return 0, 0, errors.New("pspge: no VRAM for more registers inside a bounding-box region")
		}
		if err := errors.Join(c.Finish(), c.freeRegs()); err != nil {
			return 0, 0, err
		}
	}
	n = max(n, 4)
	w, h := pot(c.cfg.Width), pot(c.cfg.Height)
	for w >= 16 && h >= 16 {
		var got []hal.Allocation
		for len(got) < n {
			a, err := c.dev.Alloc(uint32(w*h*4), 16, "vram")
			if err != nil {
				break
			}
			got = append(got, a)
		}
		if len(got) == n {
			r.a, r.w, r.h = got, w, h
			return w, h, nil
		}
		for _, a := range got {
			if err := c.dev.Free(a); err != nil {
				return 0, 0, err
			}
		}
		if w >= h {
			w /= 2
		} else {
			h /= 2
		}
	}
	return 0, 0, fmt.Errorf("pspge: no VRAM for %d registers of 16x16", n)
}

// freeRegs releases the registers (the GE must be idle).
func (c *Context) freeRegs() error {
	var errs []error
	for _, a := range c.regs.a {
		errs = append(errs, c.dev.Free(a))
	}
	c.regs.a = nil
	return errors.Join(errs...)
}

// origin is a tile's top-left corner in the surface's GE pixels.
func (g *geChip) origin(t multipass.Rect) (int, int) { return t.X0, g.c.cfg.Height - t.Y1 }

// target makes register r the render target for tile t: its top-left
// pixel is the tile's (OFFSETX/OFFSETY move the screen by the tile's
// origin, the viewport stays), the scissor the tile's size.
func (g *geChip) target(r int, t multipass.Rect) {
	c, l := g.c, &g.c.list
	ox, oy := g.origin(t)
	a := c.regs.a[r]
	l.set(ge.FBP, a.Addr&0xFFFFFF)
	l.set(ge.FBW, uint32(c.regs.w))
	l.set(ge.PSM, 3)
	l.set(ge.OFFSETX, uint32(2048-c.cfg.Width/2+ox)<<4)
	l.set(ge.OFFSETY, uint32(2048-c.cfg.Height/2+oy)<<4)
	l.set(ge.REGION1, 0)
	l.set(ge.REGION2, uint32(c.regs.w-1)|uint32(c.regs.h-1)<<10)
	l.set(ge.SCISSOR1, 0)
	l.set(ge.SCISSOR2, uint32(t.W()-1)|uint32(t.H()-1)<<10)
}

// plain turns off every per-fragment test and mask for register passes.
func (g *geChip) plain() {
	l := &g.c.list
	for _, op := range []ge.Op{ge.ATE, ge.CTE, ge.ZTE, ge.STE, ge.LOE, ge.FGE, ge.DTE, ge.LTE} {
		l.set(op, 0)
	}
	l.set(ge.PMSKC, 0)
	l.set(ge.PMSKA, 0xFF)
}

// blendOf is the ALPHA word and fixed colours of each register operation
// (multipass.Fn): A codes 0 DST_COLOR, 2 SRC_A, 10 FIX; B codes 1
// ONE_MINUS_SRC_COLOR, 3 ONE_MINUS_SRC_A, 10 FIX; op 2 is dst - src. Half
// is FIX 0x80: ((2c+1)(2*128+1))>>10 rounds c/2 half up.
var blendOf = map[multipass.Fn][3]uint32{
	multipass.Mul:     {0 | 10<<4, 0, 0},
	multipass.MulInv:  {10 | 1<<4, 0, 0},
	multipass.Add:     {10 | 10<<4, 0xFFFFFF, 0xFFFFFF},
	multipass.Sub:     {10 | 10<<4 | 2<<8, 0xFFFFFF, 0xFFFFFF},
	multipass.Half:    {10 | 10<<4, 0x808080, 0},
	multipass.AddHalf: {10 | 10<<4, 0x808080, 0xFFFFFF},
	multipass.Lerp:    {2 | 3<<4, 0, 0},
	multipass.Double:  {0 | 10<<4, 0, 0xFFFFFF},
}

func (g *geChip) blend(fn multipass.Fn) {
	l := &g.c.list
	b, ok := blendOf[fn]
	if !ok {
		l.set(ge.ABE, 0)
		return
	}
	l.set(ge.ABE, 1)
	l.set(ge.ALPHA, b[0])
	l.set(ge.SFIX, b[1])
	l.set(ge.DFIX, b[2])
}

// bindRegister makes register r the texture, sampled nearest and clamped,
// in format tpsm (8888, or CLUT32 for merge) with TFUNC fn.
func (g *geChip) bindRegister(r int, tpsm, fn uint32) {
	c, l := g.c, &g.c.list
	a := c.regs.a[r].Addr
	l.set(ge.TME, 1)
	l.set(ge.TBP0, a&0xFFFFF0)
	l.set(ge.TBW0, uint32(c.regs.w)|(a>>8)&0x0F0000)
	l.set(ge.TSIZE0, uint32(bits.TrailingZeros(uint(c.regs.w)))|uint32(bits.TrailingZeros(uint(c.regs.h)))<<8)
	l.set(ge.TPSM, tpsm)
	l.set(ge.TMODE, 0)
	l.set(ge.TFLT, 0)
	l.set(ge.TWRAP, 0x101)
	l.set(ge.TBIAS, 0)
	l.set(ge.TFUNC, fn)
	l.set(ge.TFLUSH, 0)
	l.valid[ge.TFLUSH] = false
}

// texture binds a pass's texture and returns how its vertices take
// coordinates. A unit's texture is sampled as the GE converted it when
// that gives GL's texel colour, else as a derived texture
// (multipass.Derived) holding the operand.
func (g *geChip) texture(f multipass.Frag, t multipass.Rect) (vsrc, error) {
	c, l := g.c, &g.c.list
	var src vsrc
	switch f.T {
	case multipass.TUnit:
		tex := g.st.Units[f.Unit].Texture
		if f.TOp != driver.OperandSrcColor || tex.Base() == driver.BaseAlpha {
			// Alpha-only textures are stored with white colour (texEnv);
			// GL's is black.
			tex = c.derived.Get(tex, f.TOp)
		}
		gt, err := c.bindTexture(tex)
		if err != nil {
			return src, err
		}
		l.set(ge.TME, 1)
		c.sampler(tex.Sampler, len(gt.levels))
		l.set(ge.TFUNC, 0|0x100)
		src.tex, src.unit, src.t = texUnit, f.Unit, tex
	case multipass.TReg:
		g.bindRegister(int(f.Reg), 3, 0|0x100)
		src.tex, src.reg = texScreen, [2]int{c.regs.w, c.regs.h}
		src.tx, src.ty = g.origin(t)
	default:
		l.set(ge.TME, 0)
	}
	return src, nil
}

func q8s(c [4]float32) [4]uint8 { return [4]uint8{q8(c[0]), q8(c[1]), q8(c[2]), q8(c[3])} }

// Pass implements multipass.Chip: one register operation.
func (g *geChip) Pass(t multipass.Rect, b *multipass.Batch, op multipass.Op) error {
	c, st := g.c, g.st
	g.target(int(op.Dst), t)
	g.plain()
	g.blend(op.Fn)
	src, err := g.texture(op.F, t)
	if err != nil {
		return err
	}
	src.ox, src.oy = g.origin(t)
	src.color = func(v *swtnl.Vertex) [4]uint8 { return q8s(multipass.PrimaryColor(op.F, st, v)) }
	if op.F.V == multipass.VFog && op.F.T == multipass.TNone {
		// The fog factor through a ramp texture: texture coordinates
		// interpolate perspective-correctly, vertex colours linearly in
		// screen space.
		if err := g.fogRamp(&src); err != nil {
			return err
		}
	}
	if op.F.Geometry() {
		c.raster(st, false)
		// Colours are flattened by software T&L already; fog factors must
		// not be.
		c.list.set(ge.SHADE, 1)
		return c.emitMesh(st, &b.Mesh, src)
	}
	return g.rect(t, src.color(&swtnl.Vertex{}))
}

// rect draws the whole tile as a through-mode sprite whose texture
// coordinates are the register's texels.
func (g *geChip) rect(t multipass.Rect, col [4]uint8) error {
	w, h := float32(t.W()), float32(t.H())
	return g.c.throughPrims([]throughVertex{{col: col}, {u: w, v: h, col: col, x: w, y: h}}, 6)
}

// Upload implements multipass.Chip: the software stage's colours go to RAM
// with the list and a block transfer copies them into the register, rows
// flipped to the GE's top-down order.
func (g *geChip) Upload(t multipass.Rect, r multipass.Reg, pix []byte) error {
	c, l := g.c, &g.c.list
	w, h := t.W(), t.H()
	sw := (w + 7) &^ 7
	buf := make([]byte, sw*h*4)
	for j := 0; j < h; j++ {
		row := h - 1 - j
		copy(buf[j*sw*4:], pix[row*w*4:(row+1)*w*4])
	}
	addr, err := c.upload(buf, 16)
	if err != nil {
		return err
	}
	dst := c.regs.a[r].Addr
	l.kick(ge.TRXSBP, addr&0xFFFFF0)
	l.kick(ge.TRXSBW, uint32(sw)|(addr>>8)&0xFF0000)
	l.kick(ge.TRXDBP, dst&0xFFFFF0)
	l.kick(ge.TRXDBW, uint32(c.regs.w)|(dst>>8)&0xFF0000)
	l.kick(ge.TRXSPOS, 0)
	l.kick(ge.TRXDPOS, 0)
	l.kick(ge.TRXSIZE, uint32(w-1)|uint32(h-1)<<10)
	l.kick(ge.TRXKICK, 1)
	l.kick(ge.TSYNC, 0)
	return nil
}

// alphaCLUT is the 32-bit CLUT that reads a grey register's red byte as a
// texel whose every channel, alpha included, is that byte.
var alphaCLUT = func() []byte {
	b := make([]byte, 1024)
	for i := 0; i < 256; i++ {
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(i), byte(i), byte(i), byte(i)
	}
	return b
}()

// merge writes the grey alpha register ar into the alpha bits of colour
// register cr for tile t. The GE writes alpha bits only through the
// stencil unit, with constants: a clear-mode sprite zeroes them (CLEAR
// with the stencil flag only), then for each bit k one sprite samples ar
// through a CLUT (CLUT32, index = red byte, CMODE shift 0, mask 0xFF) so
// the fragment alpha is the grey value, the alpha test passes fragments
// whose bit k is set (ATST EQUAL with mask and reference 1<<k), the
// stencil unit REPLACEs with 0xFF and PMSKA protects every other bit.
// Colour bits are protected by PMSKC.
func (g *geChip) merge(t multipass.Rect, cr, ar int) error {
	c, l := g.c, &g.c.list
	g.target(cr, t)
	l.set(ge.DTE, 0)
	if err := c.clearSprite(0x200, 0, 0, t.W(), t.H(), 0, [4]uint8{}); err != nil {
		return err
	}
	clut, err := c.upload(alphaCLUT, 64)
	if err != nil {
		return err
	}
	l.set(ge.CBP, clut&0xFFFFF0)
	l.set(ge.CBPH, (clut>>8)&0x0F0000)
	l.set(ge.CMODE, 3|0xFF<<8)
	l.kick(ge.CLOAD, uint32(len(alphaCLUT)/32))
	// The next paletted texture must load its own CLUT again.
	l.valid[ge.CLOAD] = false
	g.bindRegister(ar, tpsmCLUT32, 3|0x100)
	for _, op := range []ge.Op{ge.CTE, ge.ZTE, ge.LOE, ge.FGE, ge.ABE, ge.LTE} {
		l.set(op, 0)
	}
	l.set(ge.ATE, 1)
	l.set(ge.STE, 1)
	l.set(ge.STST, 1|0xFF<<8|0xFF<<16)
	l.set(ge.SOP, 2<<16)
	l.set(ge.PMSKC, 0xFFFFFF)
	for k := 7; k >= 0; k-- {
		bit := uint32(1) << k
		l.set(ge.ATST, 2|bit<<8|bit<<16)
		l.set(ge.PMSKA, 0xFF&^bit)
		if err := g.rect(t, [4]uint8{255, 255, 255, 255}); err != nil {
			return err
		}
	}
	return nil
}

// Composite implements multipass.Chip: the batch drawn into the
// framebuffer with the colour register as its texture (REPLACE), the
// alpha from the register (merged first) or the vertex colour, and the
// application's per-fragment operations; fog was applied in registers.
func (g *geChip) Composite(t multipass.Rect, b *multipass.Batch, p *multipass.Program) error {
	c, st, l := g.c, g.st, &g.c.list
	fn := uint32(3)
	switch p.Alpha {
	case multipass.AlphaReg:
		if err := g.merge(t, int(p.Color), int(p.AlphaReg)); err != nil {
			return err
		}
		fn |= 0x100
	case multipass.AlphaColor:
		fn |= 0x100
	}
	c.surface()
	ox, oy := g.origin(t)
	l.set(ge.SCISSOR1, uint32(ox)|uint32(oy)<<10)
	l.set(ge.SCISSOR2, uint32(ox+t.W()-1)|uint32(oy+t.H()-1)<<10)
	c.raster(st, false)
	l.set(ge.SHADE, 1)
	l.set(ge.LTE, 0)
	g.bindRegister(int(p.Color), 3, fn)
	c.fragment(st)
	src := vsrc{tex: texScreen, reg: [2]int{c.regs.w, c.regs.h}, tx: ox, ty: oy}
	src.color = func(v *swtnl.Vertex) [4]uint8 {
		a := float32(1)
		if p.Alpha == multipass.AlphaVertex {
			a = multipass.PrimaryColor(p.AlphaV, st, v)[3]
		}
		return [4]uint8{255, 255, 255, q8(a)}
	}
	return c.emitMesh(st, &b.Mesh, src)
}

// mirrorState returns st with every texture whose wrap mode is
// MIRRORED_REPEAT (OES_texture_mirrored_repeat; the GE repeats or clamps
// only) replaced by its doubled, mirrored copy with REPEAT, sampled through
// the unit's texture matrix at half the coordinate (multipass.Mirrored,
// ScaleMirrored): every path then draws it unchanged. Where that cannot
// work it returns why, for the software stage: a mirrored side above 256
// (doubled it passes the GE's 512) or replaced point-sprite coordinates,
// which the texture matrix does not touch.
func (c *Context) mirrorState(st *driver.State) (*driver.State, string) {
	mirrored := func(t *driver.Texture) (bool, bool) {
		return t.Sampler.WrapS == driver.WrapMirroredRepeat, t.Sampler.WrapT == driver.WrapMirroredRepeat
	}
	need := false
	for u := range st.Units {
		if t := st.Units[u].Texture; t != nil {
			ms, mt := mirrored(t)
			need = need || ms || mt
		}
	}
	if !need {
		return st, ""
	}
	cp := *st
	for u := range cp.Units {
		t := cp.Units[u].Texture
		if t == nil {
			continue
		}
		ms, mt := mirrored(t)
		if !ms && !mt {
			continue
		}
		if ms && t.Levels[0].Width > 256 || mt && t.Levels[0].Height > 256 {
			return st, "MIRRORED_REPEAT on a texture side over 256"
		}
		if st.Point.Sprite && cp.Units[u].CoordReplace {
			return st, "MIRRORED_REPEAT with point-sprite coordinates"
		}
		cp.Units[u].Matrix = multipass.ScaleMirrored(cp.Units[u].Matrix, t.Sampler)
		cp.Units[u].Texture = c.derived.Mirrored(t)
	}
	return &cp, ""
}

// fogRampTexture holds 1-f in its alpha: texel i is (255, 255, 255, i).
// Sampled LINEAR at s = (i + 1/2)/256 it gives every 8-bit step exactly.
var fogRampTexture = func() *driver.Texture {
	data := make([]byte, 4*256)
	for i := 0; i < 256; i++ {
		data[4*i], data[4*i+1], data[4*i+2], data[4*i+3] = 255, 255, 255, byte(i)
	}
	return &driver.Texture{ID: 0xFFFFFE00, Gen: 1, Format: driver.TexRGBA8888,
		Sampler: driver.Sampler{MinFilter: driver.FilterLinear, MagFilter: driver.FilterLinear,
			WrapS: driver.WrapClampToEdge, WrapT: driver.WrapClampToEdge},
		Levels: []driver.Level{{Width: 256, Height: 1, Data: data}}}
}()

// fogRamp makes the fog pass take 1-f from fogRampTexture at s = 1-f
// (mapped to texel centres) modulated by the fog colour: the GE
// interpolates texture coordinates perspective-correctly, as GL does the
// fog factor, where it would interpolate a vertex alpha linearly in screen
// space.
func (g *geChip) fogRamp(src *vsrc) error {
	c, l, st := g.c, &g.c.list, g.st
	gt, err := c.bindTexture(fogRampTexture)
	if err != nil {
		return err
	}
	l.set(ge.TME, 1)
	c.sampler(fogRampTexture.Sampler, len(gt.levels))
	l.set(ge.TFUNC, 0|0x100)
	fc := st.Fog.Color
	col := [4]uint8{q8(fc[0]), q8(fc[1]), q8(fc[2]), 255}
	src.color = func(*swtnl.Vertex) [4]uint8 { return col }
	src.tex, src.t = texFunc, fogRampTexture
	src.coord = func(v *swtnl.Vertex) (float32, float32) {
		return (0.5 + 255*(1-max(0, min(1, v.Fog)))) / 256, 0.5
	}
	return nil
}
