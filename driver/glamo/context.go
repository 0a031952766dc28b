package glamo

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	"github.com/retrogl/retrogl/hal"
	hg "github.com/retrogl/retrogl/hal/glamo"
)

// Context renders into one colour buffer (with Z and stencil buffers) in
// VRAM.
type Context struct {
	drv    *Driver
	dev    hal.Device
	rr     hg.RegReader
	cfg    driver.SurfaceConfig
	pitch  uint32 // colour and Z pitch in bytes
	spitch uint32 // stencil pitch
	fb     hal.Allocation
	zb     hal.Allocation
	sb     hal.Allocation
	owned  []hal.Allocation
	up     *driver.Uploader
	em     emitter
	seq    uint32
	fences []pending
	tex    map[uint32]*texObj
	aaTex  *texObj
	tnl    *swtnl.TnL
	closed bool
}

type pending struct {
	f   hal.Fence
	seq uint32
}

// nregs is the number of 16-bit registers in the 3D block.
const nregs = (hg.BlockEnd - hg.BlockStart) / 2

// emitter builds the command buffer and shadows every register written.
type emitter struct {
	b  hg.Builder
	sh [nregs]uint32
	ok [nregs]bool
}

// set writes register name unless it already holds v.
func (m *emitter) set(name string, v uint32) { m.setR(hg.ByName(name), v) }

// shadow returns the value last written to register name, if any.
func (m *emitter) shadow(name string) (uint32, bool) {
	i := (hg.ByName(name).Addr - hg.BlockStart) / 2
	return m.sh[i], m.ok[i]
}

func (m *emitter) setR(r *hg.Register, v uint32) {
	i := (r.Addr - hg.BlockStart) / 2
	if !r.Wide {
		v &= 0xFFFF
	}
	if m.ok[i] && m.sh[i] == v {
		return
	}
	m.ok[i], m.sh[i] = true, v
	if r.Wide {
		m.b.Write32(r.Addr, v)
	} else {
		m.b.Write16(r.Addr, uint16(v))
	}
}

// setBlock writes consecutive 32-bit registers from addr as one burst
// unless they all hold their values already.
func (m *emitter) setBlock(addr uint16, vals []uint32) {
	same := true
	for k, v := range vals {
		i := (addr-hg.BlockStart)/2 + 2*uint16(k)
		if !m.ok[i] || m.sh[i] != v {
			same = false
		}
	}
	if same {
		return
	}
	for k, v := range vals {
		i := (addr-hg.BlockStart)/2 + 2*uint16(k)
		m.ok[i], m.sh[i] = true, v
	}
	m.b.Burst32(addr, vals...)
}

// setBlock16 writes consecutive 16-bit registers (palettes).
func (m *emitter) setBlock16(addr uint16, vals []uint16) {
	same := true
	for k, v := range vals {
		i := (addr-hg.BlockStart)/2 + uint16(k)
		if !m.ok[i] || m.sh[i] != uint32(v) {
			same = false
		}
	}
	if same {
		return
	}
	for k, v := range vals {
		i := (addr-hg.BlockStart)/2 + uint16(k)
		m.ok[i], m.sh[i] = true, uint32(v)
	}
	m.b.Burst(addr, vals...)
}

// kick writes a register that acts (fires, ends) every time.
func (m *emitter) kick(name string, v uint32) {
	r := hg.ByName(name)
	if r.Wide {
		m.b.Write32(r.Addr, v)
	} else {
		m.b.Write16(r.Addr, uint16(v))
	}
}

// Config implements driver.Context.
func (c *Context) Config() driver.SurfaceConfig { return c.cfg }

func (c *Context) usable() error {
	if c.closed {
		return errors.New("glamo3365: context closed")
	}
	return nil
}

// Flush implements driver.Context: the buffer so far, ended by EGEND and a
// write of its fence sequence to software register A, goes to the queue.
func (c *Context) Flush() error {
	if err := c.usable(); err != nil {
		return err
	}
	if c.em.b.Len() == 0 {
		return nil
	}
	c.seq++
	c.em.kick("EGEND", hg.Pack("EGEND", "MODE", "WAIT_ALL"))
	c.em.set("EGSRegA", c.seq)
	buf := c.em.b.Bytes()
	c.em.b.Reset()
	addr, err := c.up.Upload(buf, 8)
	if err != nil {
		return fmt.Errorf("glamo3365: command buffer: %w", err)
	}
	f, err := c.dev.Submit(hal.Buffer{Addr: addr, Size: uint32(len(buf))})
	if err != nil {
		return fmt.Errorf("glamo3365: submit: %w", err)
	}
	c.up.Submitted(f)
	c.fences = append(c.fences, pending{f, c.seq})
	// Keep at most four buffers in flight.
	if len(c.fences) > 4 {
		return c.retire(c.fences[0])
	}
	return nil
}

// retire waits for one submission, checks the chip reports it done (the
// scratch register holds its sequence and EGSTATUSA says idle with the
// queue empty, L2394-2399) and frees its transient memory.
func (c *Context) retire(p pending) error {
	err := c.dev.Wait(p.f)
	c.fences = c.fences[1:]
	if rerr := c.up.Retire(p.f); err == nil {
		err = rerr
	}
	if err != nil {
		// A fault resets the engine: the shadow no longer matches it.
		c.em.ok = [nregs]bool{}
		return err
	}
	if c.rr != nil {
		st := c.rr.ReadReg(0x2054)
		got := uint32(c.rr.ReadReg(0x2170)) | uint32(c.rr.ReadReg(0x2172))<<16
		if st&3 != 3 || got < p.seq {
			return fmt.Errorf("glamo3365: fence %d: EGSTATUSA %#04x, scratch A %d, want idle and %d", p.f, st, got, p.seq)
		}
	}
	return nil
}

// reclaim makes the memory of released textures and finished buffers free
// again when VRAM is full (driver.RetryOutOfMemory): the buffers in flight
// first, so that the pending commands find room to be sent, then those.
func (c *Context) reclaim() error {
	var errs []error
	for len(c.fences) > 0 {
		errs = append(errs, c.retire(c.fences[0]))
	}
	errs = append(errs, c.Finish(), c.up.Drain(nil))
	return errors.Join(errs...)
}

// Finish implements driver.Context.
func (c *Context) Finish() error {
	if err := c.Flush(); err != nil {
		return err
	}
	var errs []error
	for len(c.fences) > 0 {
		if err := c.retire(c.fences[0]); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ReadPixels implements driver.Context.
func (c *Context) ReadPixels(x, y, w, h int) (*image.NRGBA, error) {
	if err := c.Finish(); err != nil {
		return nil, err
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	row := make([]byte, 2*w)
	for iy := 0; iy < h; iy++ {
		cy := c.cfg.Height - 1 - (y + h - 1 - iy) // chip row of image row iy
		if err := c.dev.Read(c.fb.Addr+uint32(cy)*c.pitch+2*uint32(x), row); err != nil {
			return nil, fmt.Errorf("glamo3365: read colour buffer: %w", err)
		}
		for ix := 0; ix < w; ix++ {
			p := DecodePixel(c.cfg.Format, binary.LittleEndian.Uint16(row[2*ix:]))
			copy(img.Pix[iy*img.Stride+4*ix:], p[:])
		}
	}
	return img, nil
}

// DecodePixel widens one 16-bit pixel to 8-bit RGBA by bit replication.
func DecodePixel(f driver.PixelFormat, v uint16) [4]uint8 {
	e5 := func(x uint16) uint8 { return uint8(x<<3 | x>>2) }
	e4 := func(x uint16) uint8 { return uint8(x * 17) }
	switch f {
	case driver.FormatARGB4444:
		return [4]uint8{e4(v >> 8 & 15), e4(v >> 4 & 15), e4(v & 15), e4(v >> 12)}
	case driver.FormatARGB1555:
		return [4]uint8{e5(v >> 10 & 31), e5(v >> 5 & 31), e5(v & 31), uint8(v>>15) * 255}
	}
	return [4]uint8{e5(v >> 11), uint8(v>>5&63)<<2 | uint8(v>>5&63)>>4, e5(v & 31), 255}
}

// ReadDepth implements driver.DepthStencilReader.
func (c *Context) ReadDepth(x, y int) (float32, error) {
	if c.cfg.DepthBits == 0 {
		return 0, errors.New("glamo3365: no depth buffer")
	}
	if err := c.Finish(); err != nil {
		return 0, err
	}
	var b [2]byte
	cy := uint32(c.cfg.Height - 1 - y)
	if err := c.dev.Read(c.zb.Addr+cy*c.pitch+2*uint32(x), b[:]); err != nil {
		return 0, err
	}
	return float32(binary.LittleEndian.Uint16(b[:])) / 65535, nil
}

// ReadStencil implements driver.DepthStencilReader.
func (c *Context) ReadStencil(x, y int) (int, error) {
	if c.cfg.StencilBits == 0 {
		return 0, errors.New("glamo3365: no stencil buffer")
	}
	if err := c.Finish(); err != nil {
		return 0, err
	}
	var b [1]byte
	cy := uint32(c.cfg.Height - 1 - y)
	if err := c.dev.Read(c.sb.Addr+cy*c.spitch+uint32(x), b[:]); err != nil {
		return 0, err
	}
	return int(b[0]) & (1<<c.cfg.StencilBits - 1), nil
}

// ReleaseTexture implements driver.Context.
func (c *Context) ReleaseTexture(id uint32) {
	t, ok := c.tex[id]
	if !ok {
		return
	}
	delete(c.tex, id)
	_ = c.up.Release(t.alloc, t.used) // queued buffers may still read it
}

// ReleaseBuffer implements driver.Context (vertex data is copied per draw).
func (c *Context) ReleaseBuffer(id uint32) {}

func (c *Context) freeOwned() error {
	var errs []error
	for _, a := range c.owned {
		errs = append(errs, c.dev.Free(a))
	}
	c.owned = nil
	return errors.Join(errs...)
}

// Close implements driver.Context.
func (c *Context) Close() error {
	if c.closed {
		return nil
	}
	err := c.Finish()
	c.closed = true
	for _, t := range c.tex {
		err = errors.Join(err, c.dev.Free(t.alloc))
	}
	if c.aaTex != nil {
		err = errors.Join(err, c.dev.Free(c.aaTex.alloc))
	}
	return errors.Join(err, c.freeOwned())
}
