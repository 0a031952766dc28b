package r300

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"
	"sort"

	rc "github.com/retrogl/retrogl/compiler/r300"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// compiled is a cached fragment program.
type compiled struct {
	prog *rc.Program
	err  error
}

// Context renders into one colour buffer (and depth/stencil buffer).
type Context struct {
	drv    *Driver
	dev    hal.Device
	cfg    driver.SurfaceConfig
	cb, zb hal.Allocation
	pitch  int
	cbCode uint32
	cbBpp  int
	zBpp   int
	up     *driver.Uploader

	s      r3.Stream
	shadow map[uint32]uint32
	// pvsShadow holds the PVS vector memory this context wrote, by
	// octword.
	pvsShadow map[int][4]uint32
	// tcl is set when the chip has the PVS: vertices are transformed on
	// the chip (tcl.go) instead of by swtnl and the CPU.
	tcl bool
	// vprogs caches the generated fixed-function vertex programs.
	vprogs map[ffKey]*vcompiled
	// tclActive is set while a TCL draw emits its state.
	tclActive bool
	// pending holds register writes not yet in a packet.
	pending []regWrite

	textures map[uint32]*devTexture
	texDirty bool
	programs map[fpKey]*compiled
	tnl      swtnl.TnL
	verts    []float32
	vbytes   []byte

	clearColor [4]float32

	// tgt is the surface set the stream renders into (fbo.go); rbs
	// holds the renderbuffers' surfaces and joined the depth
	// renderbuffers whose values live in a stencil renderbuffer.
	tgt    target
	rbs    map[uint32]*devRB
	joined map[uint32]uint32

	// work is the estimated watchdog work of the draws queued since the
	// last Flush, quads the 2x2 quads of the scissor rectangle the last
	// scissor call set and sc that rectangle (x0, y0, x1, y1, exclusive
	// ends; work.go).
	work  int64
	quads int64
	sc    [4]int
	// winBuf is ffWindow's buffer, reused between draws.
	winBuf [][2]float64

	last   hal.Fence
	closed bool
}

type regWrite struct{ addr, val uint32 }

// Config implements driver.Context.
func (c *Context) Config() driver.SurfaceConfig { return c.cfg }

// set writes a register unless the shadow already holds the value.
func (c *Context) set(addr, v uint32) {
	// Another context may have driven the chip: then forget what it holds.
	c.claim()
	if old, ok := c.shadow[addr]; ok && old == v {
		return
	}
	c.shadow[addr] = v
	c.pending = append(c.pending, regWrite{addr, v})
}

// kick writes a register every time (cache flushes).
func (c *Context) kick(addr, v uint32) {
	c.pending = append(c.pending, regWrite{addr, v})
}

// packRegs turns the pending writes into type-0 packets, one per run of
// consecutive registers, in address order (the order of independent
// state writes does not matter; kicks keep their place).
func (c *Context) packRegs() {
	p := c.pending
	c.pending = c.pending[:0]
	// Stable sort by address within segments separated by kicks would
	// complicate little for nothing: cache kicks only open and close
	// buffers, so sort everything.
	sort.SliceStable(p, func(i, j int) bool { return p[i].addr < p[j].addr })
	for i := 0; i < len(p); {
		j := i + 1
		for j < len(p) && p[j].addr == p[j-1].addr+4 {
			j++
		}
		vals := make([]uint32, 0, j-i)
		for k := i; k < j; k++ {
			vals = append(vals, p[k].val)
		}
		c.s.Reg(p[i].addr, vals...)
		i = j
	}
}

func f32(v float32) uint32 { return math.Float32bits(v) }

// Flush implements driver.Context: the stream so far, closed by cache
// flushes, goes to the device.
func (c *Context) Flush() error {
	if err := c.usable(); err != nil {
		return err
	}
	if len(c.s.Words) == 0 && len(c.pending) == 0 {
		return nil
	}
	c.work = 0
	c.packRegs()
	// Flush and free the colour and Z caches (guide §1 [PROP], fact 6).
	c.s.Reg(r3.RB3D_DSTCACHE_CTLSTAT, 0x0A)
	c.s.Reg(r3.ZB_ZCACHE_CTLSTAT, 0x3)
	buf := c.s.Bytes()
	c.s.Reset()
	addr, err := c.up.Upload(buf, 16)
	if err != nil {
		return err
	}
	f, err := c.dev.Submit(hal.Buffer{Addr: addr, Size: uint32(len(buf))})
	if err != nil {
		return fmt.Errorf("r300: submit: %w", err)
	}
	c.up.Submitted(f)
	c.last = f
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
		return errors.New("r300: context closed")
	}
	return nil
}

// ReadPixels implements driver.Context: it waits for the chip and decodes
// the colour buffer (row 0 of the chip's screen is GL's top row).
func (c *Context) ReadPixels(x, y, w, h int) (*image.NRGBA, error) {
	if err := c.Finish(); err != nil {
		return nil, err
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	row := make([]byte, w*c.cbBpp)
	for iy := 0; iy < h; iy++ {
		sy := c.cfg.Height - 1 - (y + h - 1 - iy)
		if err := c.dev.Read(c.cb.Addr+uint32((sy*c.pitch+x)*c.cbBpp), row); err != nil {
			return nil, fmt.Errorf("r300: read colour buffer: %w", err)
		}
		for ix := 0; ix < w; ix++ {
			p := DecodePixel(c.cbCode, row[ix*c.cbBpp:])
			copy(img.Pix[iy*img.Stride+ix*4:], p[:])
		}
	}
	return img, nil
}

// DecodePixel widens one colour-buffer pixel (RB3D_COLORPITCH.COLORFORMAT
// code, L448) to 8-bit RGBA by bit replication.
func DecodePixel(code uint32, b []byte) [4]uint8 {
	if code == 6 {
		return [4]uint8{b[2], b[1], b[0], b[3]}
	}
	v := uint32(binary.LittleEndian.Uint16(b))
	e5 := func(x uint32) uint8 { return uint8(x<<3 | x>>2) }
	switch code {
	case 4:
		g := v >> 5 & 63
		return [4]uint8{e5(v >> 11 & 31), uint8(g<<2 | g>>4), e5(v & 31), 255}
	case 3:
		return [4]uint8{e5(v >> 10 & 31), e5(v >> 5 & 31), e5(v & 31), uint8(v>>15) * 255}
	}
	return [4]uint8{uint8(v >> 8 & 15 * 17), uint8(v >> 4 & 15 * 17), uint8(v & 15 * 17), uint8(v >> 12 & 15 * 17)}
}

// ReadDepth implements driver.DepthStencilReader.
func (c *Context) ReadDepth(x, y int) (float32, error) {
	if c.cfg.DepthBits == 0 {
		return 0, errors.New("r300: no depth buffer")
	}
	v, err := c.readZ(x, y)
	if err != nil {
		return 0, err
	}
	if c.zBpp == 2 {
		return float32(v) / 65535, nil
	}
	return float32(v>>8) / (1<<24 - 1), nil
}

// ReadStencil implements driver.DepthStencilReader: Z24S8 keeps stencil
// in bits 7:0 (L2437).
func (c *Context) ReadStencil(x, y int) (int, error) {
	if c.cfg.StencilBits == 0 {
		return 0, errors.New("r300: no stencil buffer")
	}
	v, err := c.readZ(x, y)
	return int(v & 0xFF), err
}

func (c *Context) readZ(x, y int) (uint32, error) {
	if err := c.Finish(); err != nil {
		return 0, err
	}
	b := make([]byte, c.zBpp)
	sy := c.cfg.Height - 1 - y
	if err := c.dev.Read(c.zb.Addr+uint32((sy*c.pitch+x)*c.zBpp), b); err != nil {
		return 0, err
	}
	if c.zBpp == 2 {
		return uint32(binary.LittleEndian.Uint16(b)), nil
	}
	return binary.LittleEndian.Uint32(b), nil
}

// ReleaseBuffer implements driver.Context (vertex data is uploaded per
// draw).
func (c *Context) ReleaseBuffer(id uint32) {}

// Close implements driver.Context.
func (c *Context) Close() error {
	if c.closed {
		return nil
	}
	err := c.Finish()
	c.closed = true
	for id, t := range c.textures {
		err = errors.Join(err, c.dev.Free(t.mem))
		delete(c.textures, id)
	}
	for id, r := range c.rbs {
		err = errors.Join(err, c.dev.Free(r.mem))
		delete(c.rbs, id)
	}
	err = errors.Join(err, c.dev.Free(c.cb))
	if c.zb.Size != 0 {
		err = errors.Join(err, c.dev.Free(c.zb))
	}
	if c.drv.owner == c {
		c.drv.owner = nil
	}
	return err
}
