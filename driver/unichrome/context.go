package unichrome

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"slices"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
	"github.com/retrogl/retrogl/hal"
	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// Context renders into one colour buffer (and Z/stencil buffer) in VRAM.
type Context struct {
	stage  []byte // command bytes being submitted, reused from flush to flush
	drv    *Driver
	dev    hal.Device
	cfg    driver.SurfaceConfig
	dstFmt uint8
	bpp    int
	pitch  int
	zBytes int
	zPitch int
	fb, zb hal.Allocation
	up     *driver.Uploader
	cmd    cmdbuf
	tnl    swtnl.TnL
	last   hal.Fence
	flag   uint32
	closed bool

	textures map[uint32]*devTex
	verts    []uint32
}

// dstFormats maps surface formats to destination codes. The driver's
// names list components from the least significant bit, the chip's from
// the most: RGBA8888 is the chip's ABGR8888 and so on.
var dstFormats = map[driver.PixelFormat]uint8{
	driver.FormatRGBA8888: uc.DstABGR8888,
	driver.FormatRGB565:   uc.DstBGR565,
	driver.FormatRGBA5551: uc.DstABGR1555,
	driver.FormatRGBA4444: uc.DstABGR4444,
}

// NewContext implements driver.Driver: it allocates the colour buffer and,
// when asked, a Z16 or Z24S8 buffer in VRAM. Stencil needs Z24S8, so a
// request for stencil bits gets 24 depth bits.
func (d *Driver) NewContext(cfg driver.SurfaceConfig) (driver.Context, error) {
	code, ok := dstFormats[cfg.Format]
	if !ok {
		return nil, fmt.Errorf("unichrome: colour format %v not supported", cfg.Format)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxSurface || cfg.Height > MaxSurface {
		return nil, fmt.Errorf("unichrome: surface %dx%d outside the %dx%d the clip rectangle covers", cfg.Width, cfg.Height, MaxSurface, MaxSurface)
	}
	if cfg.StencilBits > 8 || cfg.DepthBits > 24 {
		return nil, fmt.Errorf("unichrome: %d depth / %d stencil bits not available (Z16 or Z24S8)", cfg.DepthBits, cfg.StencilBits)
	}
	// Stencil lives in Z24S8: a stencil-only surface gets that buffer, but
	// its depth half stays unused: GL sees no depth buffer (DEPTH_BITS 0;
	// the depth test always passes, ES 1.1 section 4.1.6). zBytes > 0 says
	// a Z buffer exists, cfg.DepthBits > 0 that GL has depth.
	if cfg.StencilBits > 0 {
		cfg.StencilBits = 8
		if cfg.DepthBits > 0 {
			cfg.DepthBits = 24
		}
	} else if cfg.DepthBits > 16 {
		cfg.DepthBits = 24
	} else if cfg.DepthBits > 0 {
		cfg.DepthBits = 16
	}
	c := &Context{drv: d, dev: d.dev, cfg: cfg, dstFmt: code, textures: map[uint32]*devTex{}}
	info, _ := uc.DstFormatOf(code)
	c.bpp = info.Bytes
	c.pitch = (cfg.Width*c.bpp + 31) &^ 31
	var err error
	c.fb, err = d.dev.Alloc(uint32(c.pitch*cfg.Height), 256, "vram")
	if err != nil {
		return nil, fmt.Errorf("unichrome: colour buffer %dx%d: %w", cfg.Width, cfg.Height, err)
	}
	if cfg.DepthBits > 0 || cfg.StencilBits > 0 {
		c.zBytes = 2
		if cfg.DepthBits == 24 || cfg.StencilBits > 0 {
			c.zBytes = 4
		}
		c.zPitch = (cfg.Width*c.zBytes + 31) &^ 31
		c.zb, err = d.dev.Alloc(uint32(c.zPitch*cfg.Height), 256, "vram")
		if err != nil {
			return nil, errors.Join(fmt.Errorf("unichrome: Z buffer: %w", err), d.dev.Free(c.fb))
		}
	}
	c.up = driver.NewUploader(d.dev, "sys", 1<<20)
	c.up.SetReclaim(func() error { return c.up.Reclaim(c.Flush, nil) })
	c.cmd.init()
	return c, nil
}

// Config implements driver.Context.
func (c *Context) Config() driver.SurfaceConfig { return c.cfg }

// Register groups: one header-2 stream per register file.
const (
	grpAttr = iota
	grpTex0
	grpTex1
	grpTexGen
	numGroups
)

var groupTransSet = [numGroups]uint32{
	uc.TransSet(uc.TypeAttr, 0, 0, 0),
	uc.TransSet(uc.TypeTex, uc.SubTex0, 0, 0),
	uc.TransSet(uc.TypeTex, uc.SubTex1, 0, 0),
	uc.TransSet(uc.TypeTex, uc.SubTexGeneral, 0, 0),
}

// cmdbuf is the command list being built, with the shadow of every
// register written: set queues a parameter only when its value changes, and
// flushState sends the queued ones as header-2 groups.
type cmdbuf struct {
	words  []uint32
	shadow [numGroups][256]uint32
	valid  [numGroups][256]bool
	pend   [numGroups][]uint32
	// at is 1 + the index in pend of a queued register, so a register set
	// twice before a draw is sent once.
	at [numGroups][256]int
}

func (b *cmdbuf) init() { b.words = b.words[:0] }

// set queues register sub of group g with data d unless it holds d.
func (b *cmdbuf) set(g int, sub uint8, d uint32) {
	d &= 0xFFFFFF
	if b.valid[g][sub] && b.shadow[g][sub] == d {
		return
	}
	b.valid[g][sub], b.shadow[g][sub] = true, d
	if i := b.at[g][sub]; i > 0 {
		b.pend[g][i-1] = uc.Param(sub, d)
		return
	}
	b.pend[g] = append(b.pend[g], uc.Param(sub, d))
	b.at[g][sub] = len(b.pend[g])
}

// flushState emits the queued registers.
func (b *cmdbuf) flushState() {
	for g := 0; g < numGroups; g++ {
		if len(b.pend[g]) == 0 {
			continue
		}
		b.words = append(b.words, uc.Header2, groupTransSet[g])
		b.words = append(b.words, b.pend[g]...)
		for _, w := range b.pend[g] {
			b.at[g][w>>24] = 0
		}
		b.pend[g] = b.pend[g][:0]
	}
}

// list emits one vertex list: Command B, Command A, the vertices and the
// list-end Command A.
func (b *cmdbuf) list(cmdB, cmdA uint32, verts []uint32) {
	b.flushState()
	b.words = append(b.words, uc.Header2, uc.TransSet(uc.TypeCmd, 0, 0, 0), cmdB, cmdA)
	b.words = append(b.words, verts...)
	b.words = append(b.words, cmdA|uc.CmdAEnd)
}

// listWords is list for n vertex words that the caller writes in the
// slice it returns (valid until the buffer grows again).
func (b *cmdbuf) listWords(cmdB, cmdA uint32, n int) []uint32 {
	b.flushState()
	b.words = append(b.words, uc.Header2, uc.TransSet(uc.TypeCmd, 0, 0, 0), cmdB, cmdA)
	at := len(b.words)
	b.words = slices.Grow(b.words, n+1)[:at+n+1]
	b.words[at+n] = cmdA | uc.CmdAEnd
	return b.words[at : at+n : at+n]
}

// Flush implements driver.Context: the list so far, ended by the
// HCRFlagNum write-back and padded to 64 bits, goes to the device.
func (c *Context) Flush() error {
	if err := c.usable(); err != nil {
		return err
	}
	c.cmd.flushState()
	if len(c.cmd.words) == 0 {
		return nil
	}
	c.flag = (c.flag + 1) & 0xFFFF
	w := append(c.cmd.words, uc.Header2, uc.TransSet(uc.TypeAttr, 0, 0, 0), uc.Param(uc.AttrFlagNum, c.flag))
	if len(w)%2 == 1 {
		w = append(w, uc.PadCC)
	}
	// The bytes are staged in a buffer the context keeps (Submit copies
	// them into device memory).
	if cap(c.stage) < 4*len(w) {
		c.stage = make([]byte, 4*len(w))
	}
	buf := c.stage[:4*len(w)]
	// Two words at a time (w has an even length).
	for i := 0; i+1 < len(w); i += 2 {
		binary.LittleEndian.PutUint64(buf[4*i:4*i+8:4*i+8], uint64(w[i])|uint64(w[i+1])<<32)
	}
	c.cmd.init()
	f, err := c.up.Submit(buf, 64, 4)
	if err != nil {
		return fmt.Errorf("unichrome: %w", err)
	}
	c.last = f
	return nil
}

// Finish implements driver.Context: it waits for every list in flight and
// frees the textures released meanwhile.
func (c *Context) Finish() error {
	if err := c.Flush(); err != nil {
		return err
	}
	return c.up.Drain(nil)
}

func (c *Context) usable() error {
	if c.closed {
		return errors.New("unichrome: context closed")
	}
	return nil
}

// ReadPixels implements driver.Context: it waits for the engine and
// decodes the colour buffer's rows (bit replication widens 16-bit pixels).
func (c *Context) ReadPixels(x, y, w, h int) (*image.NRGBA, error) {
	if err := c.Finish(); err != nil {
		return nil, err
	}
	info, _ := uc.DstFormatOf(c.dstFmt)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	row := make([]byte, w*c.bpp)
	for iy := 0; iy < h; iy++ {
		fy := c.cfg.Height - 1 - (y + h - 1 - iy)
		if err := c.dev.Read(c.fb.Addr+uint32(fy*c.pitch+x*c.bpp), row); err != nil {
			return nil, fmt.Errorf("unichrome: read colour buffer: %w", err)
		}
		for ix := 0; ix < w; ix++ {
			var v uint32
			if c.bpp == 4 {
				v = binary.LittleEndian.Uint32(row[4*ix:])
			} else {
				v = uint32(binary.LittleEndian.Uint16(row[2*ix:]))
			}
			p := DecodePixel(&info, v)
			copy(img.Pix[iy*img.Stride+ix*4:], p[:])
		}
	}
	return img, nil
}

// DecodePixel widens a destination pixel to 8-bit RGBA by bit replication
// (formats without alpha read opaque).
func DecodePixel(f *uc.DstFormatInfo, v uint32) [4]uint8 {
	ch := func(c uc.Chan) uint8 {
		if c.Bits == 0 {
			return 255
		}
		x := v >> c.Shift & (1<<c.Bits - 1)
		out, have := x<<(8-c.Bits), c.Bits
		for have < 8 {
			out |= out >> have
			have *= 2
		}
		return uint8(out)
	}
	return [4]uint8{ch(f.R), ch(f.G), ch(f.B), ch(f.A)}
}

func (c *Context) depthWord(x, y int) (uint32, error) {
	if c.zBytes == 0 {
		return 0, errors.New("unichrome: no depth buffer")
	}
	if err := c.Finish(); err != nil {
		return 0, err
	}
	b := make([]byte, c.zBytes)
	fy := c.cfg.Height - 1 - y
	if err := c.dev.Read(c.zb.Addr+uint32(fy*c.zPitch+x*c.zBytes), b); err != nil {
		return 0, err
	}
	if c.zBytes == 2 {
		return uint32(binary.LittleEndian.Uint16(b)), nil
	}
	return binary.LittleEndian.Uint32(b), nil
}

// ReadDepth implements driver.DepthStencilReader.
func (c *Context) ReadDepth(x, y int) (float32, error) {
	if c.cfg.DepthBits == 0 {
		return 0, errors.New("unichrome: no depth buffer")
	}
	v, err := c.depthWord(x, y)
	if err != nil {
		return 0, err
	}
	if c.zBytes == 2 {
		return float32(v) / 65535, nil
	}
	return float32(v>>8) / 0xFFFFFF, nil
}

// ReadStencil implements driver.DepthStencilReader.
func (c *Context) ReadStencil(x, y int) (int, error) {
	if c.cfg.StencilBits == 0 {
		return 0, errors.New("unichrome: no stencil buffer")
	}
	v, err := c.depthWord(x, y)
	return int(v & 0xFF), err
}

// ReleaseBuffer implements driver.Context (buffers are read per draw).
func (c *Context) ReleaseBuffer(id uint32) {}

// Close implements driver.Context.
func (c *Context) Close() error {
	if c.closed {
		return nil
	}
	err := c.Finish()
	for id := range c.textures {
		c.ReleaseTexture(id)
	}
	err = errors.Join(err, c.Finish())
	c.closed = true
	err = errors.Join(err, c.dev.Free(c.fb))
	if c.zb.Size != 0 {
		err = errors.Join(err, c.dev.Free(c.zb))
	}
	return err
}
