package pspge

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/multipass"
	"github.com/retrogl/retrogl/driver/swtnl"
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
	closed bool
	// vbuf and ibuf are the draws' scratch vertex bytes and indices
	// (uploads copy them), kept so that a draw allocates nothing.
	vbuf []byte
	ibuf []int

	// run is the display list the GE is executing while the driver
	// appends to it (the stall address, hal.Appender); done holds lists
	// ended with FINISH/END and not yet waited for.
	run  *runningList
	done []hal.Fence
	// pending counts the transient bytes the words not yet pushed use
	// (maxPendingUpload).
	pending int

	tex   texCache
	tnl   swtnl.TnL
	cond  *condBox // open BBOX conditional, if any
	stats Stats

	// regs are the multi-pass fallback's registers (fallback.go) and
	// derived the textures it samples for GL_COMBINE operands.
	regs    regs
	derived multipass.Derived
}

// Stats counts what the driver did, for tests and benchmarks.
type Stats struct {
	// Lists is the number of display lists submitted; Appends the number of
	// times a running list was extended.
	Lists, Appends int
	// HWDraws went through the GE's transform unit in one pass; SWDraws
	// were transformed on the CPU (driver/swtnl) and drawn in one pass;
	// Fallbacks went through the multi-pass fallback (driver/multipass),
	// SoftwareDraws of them with the CPU computing the fragment colours,
	// and Passes counts the GE passes the fallback drew.
	HWDraws, SWDraws, Fallbacks, SoftwareDraws, Passes int
	// Multipass adds up the fallback's batches, tiles and passes.
	Multipass multipass.Stats
	// Transfers counts read-backs done by the GE's block transfer.
	Transfers int
}

// Stats returns the driver's counters.
func (c *Context) Stats() Stats { return c.stats }

// runningList is a display list buffer the GE is executing.
type runningList struct {
	addr, cap uint32
	size      uint32 // bytes handed to the GE so far (the stall offset)
	fence     hal.Fence
	uploaded  int // bytes of transient data used by the list
}

// listCap is the size of one display-list buffer; appending stops (the list
// ends and a new one starts) when it is full or when maxListUpload bytes of
// vertex and texture data hang on it.
const (
	listCap       = 256 << 10
	maxListUpload = 8 << 20
	pushWords     = 2048
	// maxPendingUpload bounds the transient data of words not yet pushed:
	// until they go to the GE nothing frees it, so without a bound a
	// stream of texture uploads fills RAM with memory that only a
	// submission, which then has no room for its list, could free.
	maxPendingUpload = 4 << 20
)

// list is the display list being built on the CPU, with the shadow of the
// registers it has written. Matrices are shadowed as whole arrays.
type list struct {
	words  []uint32
	shadow [256]uint32
	valid  [256]bool
	world  [12]uint32
	view   [12]uint32
	proj   [16]uint32
	tmat   [12]uint32
	mvalid [5]bool
	base   uint32
	basev  bool
}

func (l *list) init() { l.words = l.words[:0] }

// invalidate forgets the shadow: every register is sent again. Used after
// a BBOX-skipped region, whose words the GE may not have executed.
func (l *list) invalidate() {
	l.valid = [256]bool{}
	l.mvalid = [5]bool{}
	l.basev = false
}

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
	if !l.basev || l.base != base {
		l.words = append(l.words, base)
		l.base, l.basev = base, true
	}
	l.kick(op, low)
}

// Matrix slots of the shadow.
const (
	slotWorld = iota
	slotView
	slotProj
	slotTex
)

// matrix uploads a matrix (select at element 0, then every value) unless
// the shadow already holds the same float24 values.
func (l *list) matrix(sel, data ge.Op, slot int, m []float32) {
	var vals [16]uint32
	for i, v := range m {
		vals[i] = ge.F24(v)
	}
	var sh []uint32
	switch slot {
	case slotWorld:
		sh = l.world[:]
	case slotView:
		sh = l.view[:]
	case slotProj:
		sh = l.proj[:]
	default:
		sh = l.tmat[:]
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

// scissor emits SCISSOR1/2 for the drawable rectangle, flipping GL's
// bottom-left origin to the GE's top-left. It returns false when nothing can
// be drawn. Draws also clip to the viewport: the GE clips only at the near
// plane and draws geometry beyond the viewport where it lands, while GL
// clips primitives to the view volume, whose x and y faces are exactly the
// viewport's edges - so the scissor takes the viewport's place (the pixels
// whose centres lie inside it are the ones GL draws).
func (c *Context) scissor(st *driver.State) bool {
	return c.scissorTo(st, true)
}

func (c *Context) scissorTo(st *driver.State, viewport bool) bool {
	x0, y0, x1, y1 := c.scissorRect(st, viewport)
	if x0 >= x1 || y0 >= y1 {
		return false
	}
	c.list.set(ge.SCISSOR1, uint32(x0)|uint32(y0)<<10)
	c.list.set(ge.SCISSOR2, uint32(x1-1)|uint32(y1-1)<<10)
	return true
}

// scissorRect is the drawable rectangle in GE (y-down) pixels: the
// surface, the GL scissor box when enabled and, for draws, the viewport.
func (c *Context) scissorRect(st *driver.State, viewport bool) (x0, y0, x1, y1 int) {
	x0, y0, x1, y1 = 0, 0, c.cfg.Width, c.cfg.Height
	clip := func(r driver.Rect) {
		x0, x1 = max(x0, r.X), min(x1, r.X+r.W)
		gy0, gy1 := max(0, r.Y), min(c.cfg.Height, r.Y+r.H)
		y0, y1 = max(y0, c.cfg.Height-gy1), min(y1, c.cfg.Height-gy0)
	}
	if st.ScissorTest {
		clip(st.Scissor)
	}
	if viewport {
		clip(st.Viewport)
	}
	return
}

// stencilFill places a stencil value in the 8-bit alpha the GE writes, so
// that the format keeps it (4444 keeps the top nibble, 5551 the top bit).
func (c *Context) stencilFill(s uint32) uint8 {
	s &= 1<<c.cfg.StencilBits - 1
	switch c.cfg.StencilBits {
	case 4:
		return uint8(s * 17)
	case 1:
		return uint8(s * 255)
	}
	return uint8(s)
}

// Clear implements driver.Context. Whole-channel clears use the GE's clear
// mode (a through-mode sprite whose colour, alpha/stencil and depth are
// written directly); clears with partial colour or stencil write masks
// draw a normal sprite with PMSKC/PMSKA protecting the masked bits and the
// stencil unit (ALWAYS, REPLACE) writing the alpha bits, because clear mode
// ignores the write masks. The GL dither state is not applied to clears
// (decision: a dithered clear colour would show the matrix; GL lets
// dithering be a no-op).
func (c *Context) Clear(st *driver.State, mask driver.ClearMask, color [4]float32, depth float32, stencil int) error {
	if err := c.usable(); err != nil {
		return err
	}
	col := [4]uint8{q8(color[0]), q8(color[1]), q8(color[2]), q8(color[3])}
	cm := st.ColorMask
	var rgbMask uint32 // bits to protect
	for k := 0; k < 3; k++ {
		if !cm[k] {
			rgbMask |= 0xFF << (8 * k)
		}
	}
	doColor := mask&driver.ClearColor != 0 && rgbMask != 0xFFFFFF
	// The alpha bits: the stencil when the surface has one, else the GL
	// alpha channel.
	var alphaVal uint8
	doAlpha := false
	var alphaProtect uint32
	if c.cfg.StencilBits > 0 {
		if mask&driver.ClearStencil != 0 {
			wm := st.Stencil[0].WriteMask & (1<<c.cfg.StencilBits - 1)
			if wm != 0 {
				doAlpha = true
				alphaVal = c.stencilFill(uint32(stencil))
				alphaProtect = uint32(^c.stencilFill(wm))
			}
		}
	} else if mask&driver.ClearColor != 0 && cm[3] {
		doAlpha, alphaVal = true, col[3]
	}
	doDepth := mask&driver.ClearDepth != 0 && c.cfg.DepthBits > 0 && st.DepthMask
	if !doColor && !doAlpha && !doDepth {
		return nil
	}
	c.surface()
	if !c.scissorTo(st, false) {
		return nil
	}
	l := &c.list
	l.set(ge.DTE, 0)
	x0, y0, x1, y1 := c.scissorRect(st, false)
	z := uint16(math.Round(float64(clampf(depth)) * 65535))
	vcol := [4]uint8{col[0], col[1], col[2], alphaVal}
	if (!doColor || rgbMask == 0) && (!doAlpha || alphaProtect == 0) {
		var flags uint32
		if doColor {
			flags |= 0x100
		}
		if doAlpha {
			flags |= 0x200
		}
		if doDepth {
			flags |= 0x400
		}
		return c.clearSprite(flags, x0, y0, x1, y1, z, vcol)
	}
	// Masked clear: depth first in clear mode, then a plain sprite.
	if doDepth {
		if err := c.clearSprite(0x400, x0, y0, x1, y1, z, vcol); err != nil {
			return err
		}
	}
	pc := uint32(0xFFFFFF)
	if doColor {
		pc = rgbMask
	}
	pa := uint32(0xFF)
	if doAlpha {
		pa = alphaProtect & 0xFF
		l.set(ge.STE, 1)
		l.set(ge.STST, 1|uint32(alphaVal)<<8|0xFF<<16)
		l.set(ge.SOP, 2<<16|2<<8|2)
	} else {
		l.set(ge.STE, 0)
	}
	l.set(ge.PMSKC, pc)
	l.set(ge.PMSKA, pa)
	for _, op := range []ge.Op{ge.TME, ge.ABE, ge.ATE, ge.ZTE, ge.LOE, ge.CTE, ge.FGE} {
		l.set(op, 0)
	}
	return c.throughSprite(x0, y0, x1, y1, z, vcol)
}

// clearSprite draws a clear-mode sprite with the given CLEAR flags.
func (c *Context) clearSprite(flags uint32, x0, y0, x1, y1 int, z uint16, col [4]uint8) error {
	l := &c.list
	l.kick(ge.CLEAR, flags|1)
	err := c.throughSprite(x0, y0, x1, y1, z, col)
	l.kick(ge.CLEAR, 0)
	l.valid[ge.CLEAR] = false
	return err
}

// throughSprite draws two through-mode s16 vertices (x, y, z) with 8888
// colour: stride 12.
func (c *Context) throughSprite(x0, y0, x1, y1 int, z uint16, col [4]uint8) error {
	var vb [24]byte
	put := func(o int, x, y int) {
		copy(vb[o:], col[:])
		binary.LittleEndian.PutUint16(vb[o+4:], uint16(x))
		binary.LittleEndian.PutUint16(vb[o+6:], uint16(y))
		binary.LittleEndian.PutUint16(vb[o+8:], z)
	}
	put(0, x0, y0)
	put(12, x1, y1)
	addr, err := c.upload(vb[:], 4)
	if err != nil {
		return err
	}
	l := &c.list
	l.set(ge.VTYPE, ge.VType{Color: ge.Color8888, Pos: ge.Fmt16, Through: true}.Word()&0xFFFFFF)
	l.addr(ge.VADDR, addr)
	l.kick(ge.PRIM, 6<<16|2)
	return nil
}

// clampf is float32(math.Max(0, math.Min(1, float64(v)))) without the
// calls: +0 for v <= 0, math.NaN() for NaN.
func clampf(v float32) float32 {
	switch {
	case v > 1:
		return 1
	case v > 0:
		return v
	case v != v:
		return float32(math.NaN())
	}
	return 0
}

// q8 is uint8(math.Round(float64(clampf(v)) * 255)): for v in [0, 1] the
// product has at most 32 significant bits, so adding 0.5 is exact and
// truncation rounds half away from zero as math.Round does.
func q8(v float32) uint8 { return uint8(float64(clampf(v))*255 + 0.5) }

// upload copies transient data (vertices, indices, texture levels) into RAM
// for the list being built.
func (c *Context) upload(b []byte, align uint32) (uint32, error) {
	addr, err := c.up.Upload(b, align)
	if err != nil {
		return 0, fmt.Errorf("pspge: %w", err)
	}
	if c.run != nil {
		c.run.uploaded += len(b)
	}
	c.pending += len(b)
	return addr, nil
}

// ReadPixels implements driver.Context. While the GE holds work (a running
// list or words not yet sent), the read joins the list: a block transfer
// (TRXKICK) copies the rectangle into a RAM buffer after the draws, then
// the list ends and the CPU decodes the copy (this is how CopyTexImage2D
// and CopyTexSubImage2D reach the colour buffer). When the GE is idle the
// CPU reads VRAM directly, without a new list.
func (c *Context) ReadPixels(x, y, w, h int) (*image.NRGBA, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	bpp := 2
	if c.psm == 3 {
		bpp = 4
	}
	if c.run == nil && len(c.list.words) == 0 && c.cond == nil {
		if err := c.Finish(); err != nil {
			return nil, err
		}
		raw := make([]byte, w*bpp)
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for iy := 0; iy < h; iy++ {
			fy := c.cfg.Height - 1 - (y + h - 1 - iy) // GE row of image row iy
			if err := c.dev.Read(c.fb.Addr+uint32((fy*c.stride+x)*bpp), raw); err != nil {
				return nil, fmt.Errorf("pspge: read colour buffer: %w", err)
			}
			c.decodeRow(img, iy, raw, w, bpp)
		}
		return img, nil
	}
	c.stats.Transfers++
	dstride := (w + 7) &^ 7
	var buf hal.Allocation
	err := driver.RetryOutOfMemory(func() (err error) {
		buf, err = c.dev.Alloc(uint32(dstride*h*bpp), 16, "ram")
		return err
	}, c.reclaim)
	if err != nil {
		return nil, fmt.Errorf("pspge: read-back buffer: %w", err)
	}
	defer c.dev.Free(buf)
	fy := c.cfg.Height - (y + h) // GE row of the image's top row
	l := &c.list
	l.kick(ge.TRXSBP, c.fb.Addr&0xFFFFF0)
	l.kick(ge.TRXSBW, uint32(c.stride)|(c.fb.Addr>>8)&0xFF0000)
	l.kick(ge.TRXDBP, buf.Addr&0xFFFFF0)
	l.kick(ge.TRXDBW, uint32(dstride)|(buf.Addr>>8)&0xFF0000)
	l.kick(ge.TRXSPOS, uint32(x)|uint32(fy)<<10)
	l.kick(ge.TRXDPOS, 0)
	l.kick(ge.TRXSIZE, uint32(w-1)|uint32(h-1)<<10)
	l.kick(ge.TRXKICK, uint32(bpp/4))
	l.kick(ge.TSYNC, 0)
	if err := c.Finish(); err != nil {
		return nil, err
	}
	raw := make([]byte, dstride*h*bpp)
	if err := c.dev.Read(buf.Addr, raw); err != nil {
		return nil, fmt.Errorf("pspge: read colour buffer: %w", err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for iy := 0; iy < h; iy++ {
		c.decodeRow(img, iy, raw[iy*dstride*bpp:], w, bpp)
	}
	return img, nil
}

func (c *Context) decodeRow(img *image.NRGBA, iy int, row []byte, w, bpp int) {
	for ix := 0; ix < w; ix++ {
		p := DecodePixel(c.psm, row[ix*bpp:])
		p[3] = 255 // no alpha bitplanes: GL reads alpha as 1
		copy(img.Pix[iy*img.Stride+ix*4:], p[:])
	}
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

// push hands the words built so far to the GE: appended to the running
// list (moving its stall address with hal.Appender) when they fit, else in
// a new list.
func (c *Context) push() error {
	if len(c.list.words) == 0 || c.cond != nil {
		return nil
	}
	buf := make([]byte, 4*len(c.list.words))
	for i, w := range c.list.words {
		binary.LittleEndian.PutUint32(buf[4*i:], w)
	}
	c.list.init()
	c.pending = 0
	ap, canAppend := c.dev.(hal.Appender)
	r := c.run
	if r != nil && (!canAppend || r.size+uint32(len(buf))+8 > r.cap || r.uploaded > maxListUpload) {
		if err := c.closeRun(); err != nil {
			return err
		}
		r = nil
	}
	if r == nil {
		n := max(uint32(listCap), uint32(len(buf))+8)
		addr, err := c.up.Alloc(n, 16)
		if err != nil {
			return fmt.Errorf("pspge: display list: %w", err)
		}
		if err := c.dev.Write(addr, buf); err != nil {
			return fmt.Errorf("pspge: write display list: %w", err)
		}
		f, err := c.dev.Submit(hal.Buffer{Addr: addr, Size: uint32(len(buf))})
		if err != nil {
			return fmt.Errorf("pspge: submit: %w", err)
		}
		c.up.Submitted(f)
		c.run = &runningList{addr: addr, cap: n, size: uint32(len(buf)), fence: f}
		c.stats.Lists++
		return nil
	}
	if err := c.dev.Write(r.addr+r.size, buf); err != nil {
		return fmt.Errorf("pspge: append display list: %w", err)
	}
	r.size += uint32(len(buf))
	if err := ap.Extend(r.fence, r.size); err != nil {
		// The list has stopped (a fault): report it.
		c.run = nil
		werr := c.dev.Wait(r.fence)
		return errors.Join(fmt.Errorf("pspge: extend display list: %w", err), werr, c.up.Retire(r.fence))
	}
	c.up.Submitted(r.fence)
	c.stats.Appends++
	return nil
}

// closeRun ends the running list with FINISH and END; at most three ended
// lists stay in flight.
func (c *Context) closeRun() error {
	r := c.run
	if r == nil {
		return nil
	}
	c.run = nil
	end := make([]byte, 8)
	binary.LittleEndian.PutUint32(end, ge.Word(ge.FINISH, 0))
	binary.LittleEndian.PutUint32(end[4:], ge.Word(ge.END, 0))
	var err error
	if err = c.dev.Write(r.addr+r.size, end); err == nil {
		if ap, ok := c.dev.(hal.Appender); ok {
			err = ap.Extend(r.fence, r.size+8)
		}
	}
	c.done = append(c.done, r.fence)
	var errs []error
	if err != nil {
		errs = append(errs, fmt.Errorf("pspge: end display list: %w", err))
	}
	for len(c.done) > 3 {
		errs = append(errs, c.waitOldest())
	}
	return errors.Join(errs...)
}

// reclaim ends the running list and waits for every list, so that the
// transient memory they held is free again when RAM is full
// (driver.RetryOutOfMemory). The words being built go to the next list.
func (c *Context) reclaim() error {
	errs := []error{c.closeRun()}
	for len(c.done) > 0 {
		errs = append(errs, c.waitOldest())
	}
	return errors.Join(errs...)
}

func (c *Context) waitOldest() error {
	f := c.done[0]
	c.done = c.done[1:]
	return errors.Join(c.dev.Wait(f), c.up.Retire(f))
}

// Flush implements driver.Context: the words so far go to the GE, which
// keeps running the same list.
func (c *Context) Flush() error {
	if err := c.usable(); err != nil {
		return err
	}
	return c.push()
}

// Finish implements driver.Context: the running list is ended and every
// list in flight waited for (each may carry a fault).
func (c *Context) Finish() error {
	if err := c.usable(); err != nil {
		return err
	}
	if c.cond != nil {
		// Finishing inside a bounding-box region ends the region here.
		c.endBox()
	}
	errs := []error{c.push(), c.closeRun()}
	for len(c.done) > 0 {
		errs = append(errs, c.waitOldest())
	}
	return errors.Join(errs...)
}

func (c *Context) usable() error {
	if c.closed {
		return errors.New("pspge: context closed")
	}
	return nil
}

// ReleaseTexture implements driver.Context.
func (c *Context) ReleaseTexture(id uint32) {
	c.tex.release(id)
	for _, d := range c.derived.Release(id) {
		c.tex.release(d)
	}
}

// ReleaseBuffer implements driver.Context (buffers are uploaded per draw).
func (c *Context) ReleaseBuffer(id uint32) {}

// Close implements driver.Context.
func (c *Context) Close() error {
	if c.closed {
		return nil
	}
	err := c.Finish()
	c.closed = true
	err = errors.Join(err, c.dev.Free(c.fb), c.freeRegs())
	if c.zb.Size != 0 {
		err = errors.Join(err, c.dev.Free(c.zb))
	}
	return err
}
