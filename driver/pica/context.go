package pica

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	p "github.com/retrogl/retrogl/hal/pica"
)

// Context renders into one colour buffer (and depth/stencil buffer) in
// VRAM.
type Context struct {
	drv    *Driver
	dev    hal.Device
	cfg    driver.SurfaceConfig
	cfmt   p.ColorFormat
	dfmt   p.DepthFormat
	w8, h8 int
	fb, zb hal.Allocation
	up     *driver.Uploader
	last   hal.Fence
	closed bool

	cmd      p.Writer
	vbuf     []byte // vertex staging, reused from draw to draw
	shadow   [p.NumRegs]uint32
	valid    [p.NumRegs]bool
	uniforms [96][4]uint32 // f24 bits last uploaded per register
	uvalid   [96]bool
	curProg  *program
	fogKey   fogKey
	fogValid bool
	// vpFold maps GL clip space to the PICA's when the viewport offset
	// does not fit VIEWPORT_XY; vpPica is the viewport the PICA uses.
	vpFold mgl32.Mat4
	vpPica driver.Rect
	// clipQ is user clip plane 0 in the PICA's clip space (FRAGOP_CLIP_DATA)
	// of the current draw, clipOn whether it is enabled.
	clipQ  mgl32.Vec4
	clipOn bool

	textures map[uint32]*texEntry
	// texScale is each unit's texture coordinate scale for the texture
	// bound last (see smallAxis).
	texScale [3][2]float32
	programs map[string]*program
	// custom is the SHBIN program set through the extension, or nil.
	custom *program
	// customUniforms are values the app set for the custom program.
	customUniforms map[int][4]float32
	shaders        map[uint32]*program
	nextShader     uint32
	// Log, when set, receives the source of every generated shader as it is
	// first uploaded (goldens and tools).
	Log func(name, source string)
}

// set writes a register unless the shadow already holds v.
func (c *Context) set(r p.Reg, v uint32) {
	if c.valid[r] && c.shadow[r] == v {
		return
	}
	c.valid[r], c.shadow[r] = true, v
	c.cmd.Write(r, v)
}

// kick writes a register every time (triggers, FIFO index registers).
func (c *Context) kick(r p.Reg, v uint32) {
	c.valid[r], c.shadow[r] = true, v
	c.cmd.Write(r, v)
}

// Config implements driver.Context.
func (c *Context) Config() driver.SurfaceConfig { return c.cfg }

// surface emits the render-target registers and the magic constants of
// guide §6.13.
func (c *Context) surface() {
	c.set(p.COLORBUFFER_LOC, c.fb.Addr>>3)
	c.set(p.COLORBUFFER_FORMAT, uint32(c.cfmt)<<16|map[bool]uint32{true: 2, false: 0}[c.cfmt == p.ColorRGBA8])
	dim := uint32(c.w8) | uint32(c.h8-1)<<12 | 1<<24
	c.set(p.FRAMEBUFFER_DIM, dim)
	c.set(p.RENDERBUF_DIM, dim)
	c.set(p.FRAMEBUFFER_BLOCK32, 0)
	c.set(p.COLORBUFFER_READ, 0xF)
	c.set(p.COLORBUFFER_WRITE, 0xF)
	if c.zb.Size != 0 {
		c.set(p.DEPTHBUFFER_LOC, c.zb.Addr>>3)
		c.set(p.DEPTHBUFFER_FORMAT, uint32(c.dfmt))
		ds := uint32(2)
		if c.dfmt == p.DepthD24S8 {
			ds = 3
		}
		c.set(p.DEPTHBUFFER_READ, ds)
		c.set(p.DEPTHBUFFER_WRITE, ds)
	} else {
		c.set(p.DEPTHBUFFER_READ, 0)
		c.set(p.DEPTHBUFFER_WRITE, 0)
	}
	c.set(p.DEPTHMAP_ENABLE, 1)
	c.set(p.START_DRAW_FUNC0, 1)
}

// uniform uploads float uniform register i in f32 mode unless the shadow
// holds the same float24 values (the unit converts f32 to f24 by
// truncation, so the shadow compares the converted values).
func (c *Context) uniform(i int, v [4]float32) {
	var bits [4]uint32
	for k := range bits {
		bits[k] = p.ToF24(v[k])
	}
	if c.uvalid[i] && c.uniforms[i] == bits {
		return
	}
	c.uvalid[i], c.uniforms[i] = true, bits
	c.cmd.Seq(p.VSH_FLOATUNIFORM_INDEX, 1<<31|uint32(i), math.Float32bits(v[3]), math.Float32bits(v[2]),
		math.Float32bits(v[1]), math.Float32bits(v[0]))
}

// uniformF24 uploads a float uniform given as float24 bits (f24 mode).
func (c *Context) uniformF24(i int, bits [4]uint32) {
	if c.uvalid[i] && c.uniforms[i] == bits {
		return
	}
	c.uvalid[i], c.uniforms[i] = true, bits
	d := p.PackF24x4(bits[0], bits[1], bits[2], bits[3])
	c.cmd.Seq(p.VSH_FLOATUNIFORM_INDEX, uint32(i), d[0], d[1], d[2])
}

// Flush implements driver.Context: the buffer so far, ended by FINALIZE,
// goes to the device.
func (c *Context) Flush() error {
	if err := c.usable(); err != nil {
		return err
	}
	if c.cmd.Len() == 0 {
		return nil
	}
	c.kick(p.FRAMEBUFFER_FLUSH, 1)
	c.cmd.Finalize()
	buf := c.cmd.Bytes()
	c.cmd.Reset()
	f, err := c.up.Submit(buf, 16, 4)
	if err != nil {
		return fmt.Errorf("pica200: %w", err)
	}
	c.last = f
	return nil
}

// Finish implements driver.Context.
func (c *Context) Finish() error {
	if err := c.Flush(); err != nil {
		return err
	}
	// A faulted buffer may have left registers changed or not: forget the
	// shadow so everything is sent again.
	return c.up.Drain(func(hal.Fence, error) { c.invalidate() })
}

// reclaim makes the memory of released textures and finished buffers free
// again when the device is full (driver.RetryOutOfMemory).
func (c *Context) reclaim() error {
	return c.up.Reclaim(c.Flush, func(hal.Fence, error) { c.invalidate() })
}

func (c *Context) invalidate() {
	c.valid = [p.NumRegs]bool{}
	c.uvalid = [96]bool{}
	c.curProg = nil
	c.fogValid = false
}

func (c *Context) usable() error {
	if c.closed {
		return errors.New("pica200: context closed")
	}
	return nil
}

// memRow returns the memory row of window row y.
func (c *Context) memRow(y int) int { return c.h8 - 1 - y }

// ReadPixels implements driver.Context: it waits for the GPU and detiles
// the colour buffer.
func (c *Context) ReadPixels(x, y, w, h int) (*image.NRGBA, error) {
	if err := c.Finish(); err != nil {
		return nil, err
	}
	bpp := c.cfmt.BytesPerPixel()
	buf := make([]byte, c.fb.Size)
	if err := c.dev.Read(c.fb.Addr, buf); err != nil {
		return nil, fmt.Errorf("pica200: read colour buffer: %w", err)
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for iy := 0; iy < h; iy++ {
		row := c.memRow(y + h - 1 - iy)
		for ix := 0; ix < w; ix++ {
			off := p.TileOffset(x+ix, row, c.w8) * bpp
			px := p.DecodeColor(c.cfmt, buf[off:])
			copy(img.Pix[iy*img.Stride+ix*4:], px[:])
		}
	}
	return img, nil
}

// hasDepth reports whether the surface has a depth buffer as GL sees it: a
// stencil-only surface has a D24S8 buffer whose depth half is unused.
func (c *Context) hasDepth() bool { return c.zb.Size != 0 && c.cfg.DepthBits > 0 }

// ReadDepth implements driver.DepthStencilReader.
func (c *Context) ReadDepth(x, y int) (float32, error) {
	if !c.hasDepth() {
		return 0, errors.New("pica200: no depth buffer")
	}
	if err := c.Finish(); err != nil {
		return 0, err
	}
	bpp := c.dfmt.BytesPerPixel()
	b := make([]byte, 4)
	off := uint32(p.TileOffset(x, c.memRow(y), c.w8) * bpp)
	if err := c.dev.Read(c.zb.Addr+off, b[:bpp]); err != nil {
		return 0, err
	}
	if c.dfmt == p.DepthD16 {
		return float32(binary.LittleEndian.Uint16(b)) / 65535, nil
	}
	return float32(uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16) / 0xFFFFFF, nil
}

// ReadStencil implements driver.DepthStencilReader.
func (c *Context) ReadStencil(x, y int) (int, error) {
	if c.dfmt != p.DepthD24S8 || c.zb.Size == 0 {
		return 0, errors.New("pica200: no stencil buffer")
	}
	if err := c.Finish(); err != nil {
		return 0, err
	}
	var b [1]byte
	off := uint32(p.TileOffset(x, c.memRow(y), c.w8)*4 + 3)
	if err := c.dev.Read(c.zb.Addr+off, b[:]); err != nil {
		return 0, err
	}
	return int(b[0]), nil
}

// ReleaseTexture implements driver.Context.
func (c *Context) ReleaseTexture(id uint32) {
	if t, ok := c.textures[id]; ok {
		// Submitted buffers may still read it: free it after them.
		_ = c.up.Release(t.alloc, t.used)
		delete(c.textures, id)
	}
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
		err = errors.Join(err, c.dev.Free(t.alloc))
		delete(c.textures, id)
	}
	err = errors.Join(err, c.dev.Free(c.fb))
	if c.zb.Size != 0 {
		err = errors.Join(err, c.dev.Free(c.zb))
	}
	return err
}
