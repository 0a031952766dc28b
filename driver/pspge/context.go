package pspge

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	ge "github.com/retrogl/retrogl/hal/pspge"
)

// Context renders into one colour buffer (and depth buffer) in VRAM.
type Context struct {
	drv    *Driver
	dev    hal.Device
	cfg    driver.SurfaceConfig
	psm    uint32
	stride int
	fb, zb hal.Allocation
	up     *driver.Uploader
	list   list
	last   hal.Fence
	closed bool
}

// list is the display list being built on the CPU, with the shadow of the
// registers it has written. Matrices are shadowed as whole arrays.
type list struct {
	words  []uint32
	shadow [256]uint32
	valid  [256]bool
	world  [12]uint32
	view   [12]uint32
	proj   [16]uint32
	mvalid [3]bool
	base   uint32
	bvalid bool
}

func (l *list) init() { l.words = l.words[:0] }

// set emits a state word unless the register already holds arg.
func (l *list) set(op ge.Op, arg uint32) {
	arg &= 0xFFFFFF
	if l.valid[op] && l.shadow[op] == arg {
		return
	}
	l.valid[op], l.shadow[op] = true, arg
	l.words = append(l.words, ge.Word(op, arg))
}

// kick emits a word that acts (PRIM, CLEAR sequences, addresses) every time.
func (l *list) kick(op ge.Op, arg uint32) {
	l.words = append(l.words, ge.Word(op, arg))
}

// addr emits a BASE-relative address command, sending BASE only when its
// value changes.
func (l *list) addr(op ge.Op, a uint32) {
	base, low := ge.Addr(a)
	if !l.bvalid || l.base != base {
		l.words = append(l.words, base)
		l.base, l.bvalid = base, true
	}
	l.kick(op, low)
}

// matrix uploads a matrix (select at element 0, then every value) unless
// the shadow already holds the same float24 values.
func (l *list) matrix(sel, data ge.Op, slot int, m []float32) {
	var vals [16]uint32
	for i, v := range m {
		vals[i] = ge.F24(v)
	}
	var sh []uint32
	switch slot {
	case 0:
		sh = l.world[:]
	case 1:
		sh = l.view[:]
	default:
		sh = l.proj[:]
	}
	if l.mvalid[slot] && equalU32(sh, vals[:len(m)]) {
		return
	}
	l.mvalid[slot] = true
	copy(sh, vals[:len(m)])
	l.words = append(l.words, ge.Word(sel, 0))
	for _, v := range vals[:len(m)] {
		l.words = append(l.words, ge.Word(data, v))
	}
}

func equalU32(a, b []uint32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Config implements driver.Context.
func (c *Context) Config() driver.SurfaceConfig { return c.cfg }

// surface emits the framebuffer, depth buffer, drawing offset and region.
func (c *Context) surface() {
	l := &c.list
	l.set(ge.FBP, c.fb.Addr&0xFFFFFF)
	l.set(ge.FBW, uint32(c.stride))
	l.set(ge.PSM, c.psm)
	if c.cfg.DepthBits > 0 {
		l.set(ge.ZBP, c.zb.Addr&0xFFFFFF)
		l.set(ge.ZBW, uint32(c.stride))
	}
	ox, oy := uint32(2048-c.cfg.Width/2), uint32(2048-c.cfg.Height/2)
	l.set(ge.OFFSETX, ox<<4)
	l.set(ge.OFFSETY, oy<<4)
	l.set(ge.REGION1, 0)
	l.set(ge.REGION2, uint32(c.cfg.Width-1)|uint32(c.cfg.Height-1)<<10)
	l.set(ge.NEARZ, 0)
	l.set(ge.FARZ, 0xFFFF)
	l.set(ge.CPE, 1)
}

// scissor emits SCISSOR1/2 for the GL scissor box (or the whole surface),
// flipping GL's bottom-left origin to the GE's top-left. It returns false
// when nothing can be drawn.
func (c *Context) scissor(st *driver.State) bool {
	x0, y0, x1, y1 := 0, 0, c.cfg.Width, c.cfg.Height
	if st.ScissorTest {
		s := st.Scissor
		x0, x1 = max(x0, s.X), min(x1, s.X+s.W)
		gy0, gy1 := max(0, s.Y), min(c.cfg.Height, s.Y+s.H)
		y0, y1 = c.cfg.Height-gy1, c.cfg.Height-gy0
	}
	if x0 >= x1 || y0 >= y1 {
		return false
	}
	c.list.set(ge.SCISSOR1, uint32(x0)|uint32(y0)<<10)
	c.list.set(ge.SCISSOR2, uint32(x1-1)|uint32(y1-1)<<10)
	return true
}

// Clear implements driver.Context with the GE's clear mode: a through-mode
// sprite whose colour, alpha (stencil) and depth are written directly.
func (c *Context) Clear(st *driver.State, mask driver.ClearMask, color [4]float32, depth float32, stencil int) error {
	if err := c.usable(); err != nil {
		return err
	}
	var flags uint32
	cm := st.ColorMask
	col := [4]uint8{q8(color[0]), q8(color[1]), q8(color[2]), q8(color[3])}
	if mask&driver.ClearColor != 0 {
		rgb := cm[0] || cm[1] || cm[2]
		if rgb && !(cm[0] && cm[1] && cm[2]) || (c.cfg.StencilBits == 0 && cm[3] != cm[0]) {
			return &driver.Unsupported{Backend: "pspge", Feature: driver.FeatureColorMask, Why: "partial colour masks need PMSKC, not implemented yet"}
		}
		if rgb {
			flags |= 0x100
		}
		if c.cfg.StencilBits == 0 && cm[3] {
			flags |= 0x200
		}
	}
	if mask&driver.ClearStencil != 0 && c.cfg.StencilBits > 0 {
		if st.Stencil[0].WriteMask&(1<<c.cfg.StencilBits-1) != 1<<c.cfg.StencilBits-1 {
			return &driver.Unsupported{Backend: "pspge", Feature: driver.FeatureStencil, Why: "masked stencil clears need PMSKA, not implemented yet"}
		}
		flags |= 0x200
		// Stencil lives in the alpha bits: place the value so that the
		// format's truncation keeps it (guide §2.14).
		s := uint32(stencil) & (1<<c.cfg.StencilBits - 1)
		switch c.cfg.StencilBits {
		case 8:
			col[3] = uint8(s)
		case 4:
			col[3] = uint8(s * 17)
		case 1:
			col[3] = uint8(s * 255)
		}
	}
	if mask&driver.ClearDepth != 0 && c.cfg.DepthBits > 0 && st.DepthMask {
		flags |= 0x400
	}
	if flags == 0 {
		return nil
	}
	c.surface()
	if !c.scissor(st) {
		return nil
	}
	// Two through-mode s16 vertices (x, y, z) with 8888 colour: stride 12.
	x0, y0, x1, y1 := 0, 0, c.cfg.Width, c.cfg.Height
	if st.ScissorTest {
		s := st.Scissor
		x0, x1 = max(0, s.X), min(c.cfg.Width, s.X+s.W)
		y0, y1 = c.cfg.Height-min(c.cfg.Height, s.Y+s.H), c.cfg.Height-max(0, s.Y)
	}
	z := uint16(math.Round(float64(clampf(depth)) * 65535))
	var vb [24]byte
	put := func(o int, x, y int) {
		copy(vb[o:], col[:])
		binary.LittleEndian.PutUint16(vb[o+4:], uint16(x))
		binary.LittleEndian.PutUint16(vb[o+6:], uint16(y))
		binary.LittleEndian.PutUint16(vb[o+8:], z)
	}
	put(0, x0, y0)
	put(12, x1, y1)
	addr, err := c.up.Upload(vb[:], 4)
	if err != nil {
		return err
	}
	l := &c.list
	l.kick(ge.CLEAR, flags|1)
	l.set(ge.VTYPE, ge.VType{Color: ge.Color8888, Pos: ge.Fmt16, Through: true}.Word()&0xFFFFFF)
	l.addr(ge.VADDR, addr)
	l.kick(ge.PRIM, 6<<16|2)
	l.kick(ge.CLEAR, 0)
	l.valid[ge.CLEAR] = false
	return nil
}

func clampf(v float32) float32 { return float32(math.Max(0, math.Min(1, float64(v)))) }

func q8(v float32) uint8 { return uint8(math.Round(float64(clampf(v)) * 255)) }

// ReadPixels implements driver.Context: it waits for the GE and decodes the
// colour buffer's rows.
func (c *Context) ReadPixels(x, y, w, h int) (*image.NRGBA, error) {
	if err := c.Finish(); err != nil {
		return nil, err
	}
	bpp := 2
	if c.psm == 3 {
		bpp = 4
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	row := make([]byte, w*bpp)
	for iy := 0; iy < h; iy++ {
		fy := c.cfg.Height - 1 - (y + h - 1 - iy) // GE row of image row iy
		if err := c.dev.Read(c.fb.Addr+uint32((fy*c.stride+x)*bpp), row); err != nil {
			return nil, fmt.Errorf("pspge: read colour buffer: %w", err)
		}
		for ix := 0; ix < w; ix++ {
			p := DecodePixel(c.psm, row[ix*bpp:])
			if c.cfg.StencilBits > 0 {
				p[3] = 255 // the alpha bits hold stencil
			}
			copy(img.Pix[iy*img.Stride+ix*4:], p[:])
		}
	}
	return img, nil
}

// DecodePixel widens one framebuffer pixel (R in the low bits) to 8-bit
// RGBA by bit replication.
func DecodePixel(psm uint32, b []byte) [4]uint8 {
	if psm == 3 {
		return [4]uint8{b[0], b[1], b[2], b[3]}
	}
	v := uint32(binary.LittleEndian.Uint16(b))
	e5 := func(x uint32) uint8 { return uint8(x<<3 | x>>2) }
	switch psm {
	case 0:
		return [4]uint8{e5(v & 31), uint8((v>>5&63)<<2 | (v>>5&63)>>4), e5(v >> 11 & 31), 255}
	case 1:
		return [4]uint8{e5(v & 31), e5(v >> 5 & 31), e5(v >> 10 & 31), uint8(v>>15) * 255}
	}
	return [4]uint8{uint8(v & 15 * 17), uint8(v >> 4 & 15 * 17), uint8(v >> 8 & 15 * 17), uint8(v >> 12 & 15 * 17)}
}

// ReadDepth implements driver.DepthStencilReader.
func (c *Context) ReadDepth(x, y int) (float32, error) {
	if c.cfg.DepthBits == 0 {
		return 0, errors.New("pspge: no depth buffer")
	}
	if err := c.Finish(); err != nil {
		return 0, err
	}
	var b [2]byte
	fy := c.cfg.Height - 1 - y
	if err := c.dev.Read(c.zb.Addr+uint32((fy*c.stride+x)*2), b[:]); err != nil {
		return 0, err
	}
	return float32(binary.LittleEndian.Uint16(b[:])) / 65535, nil
}

// ReadStencil implements driver.DepthStencilReader: stencil is the top
// StencilBits of the pixel's alpha.
func (c *Context) ReadStencil(x, y int) (int, error) {
	if c.cfg.StencilBits == 0 {
		return 0, errors.New("pspge: no stencil buffer")
	}
	if err := c.Finish(); err != nil {
		return 0, err
	}
	bpp := 2
	if c.psm == 3 {
		bpp = 4
	}
	b := make([]byte, bpp)
	fy := c.cfg.Height - 1 - y
	if err := c.dev.Read(c.fb.Addr+uint32((fy*c.stride+x)*bpp), b); err != nil {
		return 0, err
	}
	switch c.psm {
	case 3:
		return int(b[3]), nil
	case 2:
		return int(b[1] >> 4), nil
	}
	return int(b[1] >> 7), nil
}

// Flush implements driver.Context: the list so far, closed by FINISH and
// END, goes to the device.
func (c *Context) Flush() error {
	if err := c.usable(); err != nil {
		return err
	}
	if len(c.list.words) == 0 {
		return nil
	}
	c.list.words = append(c.list.words, ge.Word(ge.FINISH, 0), ge.Word(ge.END, 0))
	buf := make([]byte, 4*len(c.list.words))
	for i, w := range c.list.words {
		binary.LittleEndian.PutUint32(buf[4*i:], w)
	}
	c.list.init()
	addr, err := c.up.Upload(buf, 16)
	if err != nil {
		return err
	}
	f, err := c.dev.Submit(hal.Buffer{Addr: addr, Size: uint32(len(buf))})
	if err != nil {
		return fmt.Errorf("pspge: submit: %w", err)
	}
	c.up.Submitted(f)
	c.last = f
	// Keep at most four lists in flight.
	if old, n := c.up.Oldest(); n > 4 {
		err := c.dev.Wait(old)
		if rerr := c.up.Retire(old); err == nil {
			err = rerr
		}
		return err
	}
	return nil
}

// Finish implements driver.Context.
func (c *Context) Finish() error {
	if err := c.Flush(); err != nil {
		return err
	}
	if c.last == 0 {
		return nil
	}
	// Wait for every list in flight: each may carry a fault.
	var errs []error
	for {
		old, n := c.up.Oldest()
		if n == 0 {
			break
		}
		if err := c.dev.Wait(old); err != nil {
			errs = append(errs, err)
		}
		if err := c.up.Retire(old); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (c *Context) usable() error {
	if c.closed {
		return errors.New("pspge: context closed")
	}
	return nil
}

// ReleaseTexture implements driver.Context (no textures yet).
func (c *Context) ReleaseTexture(id uint32) {}

// ReleaseBuffer implements driver.Context (buffers are uploaded per draw).
func (c *Context) ReleaseBuffer(id uint32) {}

// Close implements driver.Context.
func (c *Context) Close() error {
	if c.closed {
		return nil
	}
	err := c.Finish()
	c.closed = true
	err = errors.Join(err, c.dev.Free(c.fb))
	if c.zb.Size != 0 {
		err = errors.Join(err, c.dev.Free(c.zb))
	}
	return err
}

// matrices emits WORLD, VIEW and PROJ for the state.
func (c *Context) matrices(st *driver.State) {
	mv := st.ModelView
	proj := st.Projection
	if mv.Row(3) != (mgl32.Vec4{0, 0, 0, 1}) {
		proj = proj.Mul4(mv)
		mv = mgl32.Ident4()
	}
	w := []float32{mv[0], mv[1], mv[2], mv[4], mv[5], mv[6], mv[8], mv[9], mv[10], mv[12], mv[13], mv[14]}
	c.list.matrix(ge.WMS, ge.WORLD, 0, w)
	c.list.matrix(ge.VMS, ge.VIEW, 1, []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
	c.list.matrix(ge.PMS, ge.PROJ, 2, proj[:])
}
