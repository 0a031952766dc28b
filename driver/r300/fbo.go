package r300

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// Framebuffer objects. A draw or clear renders into a target: the window
// surface or the attachments of a GL ES 2.0 framebuffer object, all in
// VRAM, linear, with the RB3D and ZB pointed straight at them.
//
// Decisions:
//   - Orientation. The window is drawn y-flipped (chip row 0 is GL's top
//     row, so ReadPixels and the golden images read it top down). A
//     framebuffer object is drawn unflipped: chip row r is GL row r, which
//     is the row order of texture uploads (driver.Texture rows run bottom
//     to top), so a rendered texture samples with t = 0 at GL's y = 0.
//     The mirror turns GL's counter-clockwise into the SU's clockwise
//     (SU_CULL_MODE.FACE toggles), and point-sprite t runs the other way
//     (GA_POINT_T0/T1 swap).
//   - Render to texture into the texture's own memory. Every colour
//     format GL ES 2.0 can attach has a colour-buffer format with the same
//     bits per pixel (RB3D_COLORPITCH.COLORFORMAT, L448): RGB565 and the
//     repacked RGBA5551 (TX_FMT_1_5_5_5) are already the CB's RGB565 and
//     ARGB1555; RGBA8888, RGB888 (stored as 8888) and RGBA4444 are kept
//     in the CB's ARGB8888 (B, G, R, A bytes) and ARGB4444 (A in 15:12)
//     layouts once the texture has been a colour attachment, with
//     TX_FORMAT1's channel selects (L1396-1419) naming the components
//     where they are. The US output swizzle (US_OUT_FMT C0-C3_SEL) stays
//     B, G, R, A: the seed does not say whether RB3D_COLOR_CHANNEL_MASK,
//     RB3D_CONSTANT_COLOR and the alpha blender follow the swizzle or the
//     position, and Mesa's r300 ([OUT] r300_translate_colormask_swizzle,
//     r300_set_blend_color) treats them as positional; with the native
//     layouts no register's meaning depends on that. No copy is needed:
//     the TX samples what the RB3D wrote. An RGB888 target has its alpha
//     channel masked off, so destination alpha stays 1.
//   - Renderbuffers. RGBA4, RGB5_A1 and RGB565 are CB ARGB4444, ARGB1555
//     and RGB565 surfaces; DEPTH_COMPONENT16 is a Z16 surface; the ZB has
//     stencil only in Z24S8 (ZB_FORMAT, L2437), so STENCIL_INDEX8 is a
//     Z24S8 surface whose depth bits are unused. A framebuffer with both
//     needs one Z24S8 surface: while a depth and a stencil renderbuffer
//     are attached together, the depth values live in the stencil
//     renderbuffer's Z24 bits (joined, copied by the CPU as d16 << 8, the
//     ZB's own widening of Z16, L2437 and sim/r300); they return to the
//     Z16 surface (z24 >> 8, the ZB's narrowing) when the depth buffer is
//     used without that stencil buffer, or before either is freed.
//   - A target change flushes the colour and Z caches (COLOROFFSET and
//     DEPTHOFFSET want empty caches, L436); leaving a texture target
//     invalidates the texture cache before the next draw samples it.

// target is the surface set draws and clears render into.
type target struct {
	// fb is the framebuffer object, 0 for the window.
	fb uint32
	// cb is the colour buffer's address (0: no colour buffer).
	cb      uint32
	cbPitch int // pixels
	cbCode  uint32
	cbBpp   int
	// noAlpha masks the alpha channel (an RGB888 texture target).
	noAlpha bool
	zb      uint32
	zbPitch int
	// zBpp is 0 without a depth/stencil surface, 2 for Z16, 4 for Z24S8.
	zBpp           int
	depth, stencil bool
	w, h           int
	// flip: GL's y = 0 is the chip's bottom row (the window).
	flip bool
	// texID is the texture rendered into (0: none).
	texID uint32
}

// windowTarget is the window surface.
func (c *Context) windowTarget() target {
	return target{cb: c.cb.Addr, cbPitch: c.pitch, cbCode: c.cbCode, cbBpp: c.cbBpp,
		zb: c.zb.Addr, zbPitch: c.pitch, zBpp: c.zBpp, depth: c.cfg.DepthBits > 0, stencil: c.cfg.StencilBits > 0,
		w: c.cfg.Width, h: c.cfg.Height, flip: true}
}

// winY maps a GL window y to the chip's screen.
func (c *Context) winY(y float32) float32 {
	if c.tgt.flip {
		return float32(c.tgt.h) - y
	}
	return y
}

// bind makes the draw's framebuffer (nil: the window) the target,
// uploading or converting attachments as needed.
func (c *Context) bind(fb *driver.Framebuffer) error {
	t := c.windowTarget()
	if fb != nil {
		var err error
		if t, err = c.fboTarget(fb); err != nil {
			return err
		}
	}
	if t == c.tgt {
		return nil
	}
	c.packRegs()
	c.s.Reg(r3.RB3D_DSTCACHE_CTLSTAT, 0x0A)
	c.s.Reg(r3.ZB_ZCACHE_CTLSTAT, 0x3)
	if c.tgt.texID != 0 {
		c.texDirty = true
	}
	c.tgt = t
	return nil
}

// fboTarget resolves a framebuffer object's attachments to device
// surfaces.
func (c *Context) fboTarget(fb *driver.Framebuffer) (target, error) {
	t := target{fb: fb.ID, w: fb.Width, h: fb.Height}
	switch a := fb.Color; {
	case a.Texture != nil:
		d, err := c.renderTexture(a.Texture)
		if err != nil {
			return t, err
		}
		rf := rtFormats[a.Texture.Format]
		info := &r3.TexFormats[d.fmt.code]
		pitch := r3.TexLayout(info, d.w, d.h, 1, 0)[0].Pitch
		t.cb, t.cbPitch, t.cbCode, t.cbBpp = d.mem.Addr, int(pitch)/rf.bpp, rf.cb, rf.bpp
		t.noAlpha, t.texID = a.Texture.Format == driver.TexRGB888, a.Texture.ID
	case a.Renderbuffer != nil:
		r, err := c.renderbuffer(a.Renderbuffer)
		if err != nil {
			return t, err
		}
		if r.kind != rbColor {
			return t, fmt.Errorf("r300: renderbuffer %d is not a colour buffer", a.Renderbuffer.ID)
		}
		t.cb, t.cbPitch, t.cbCode, t.cbBpp = r.mem.Addr, r.pitch, r.code, r.bpp
	case a.Texture == nil && fb.Depth.Texture == nil && fb.Stencil.Texture == nil:
	default:
		return t, fmt.Errorf("r300: framebuffer %d: only colour attachments can be textures", fb.ID)
	}
	var d, s *devRB
	var err error
	if rb := fb.Depth.Renderbuffer; rb != nil {
		if d, err = c.renderbuffer(rb); err != nil {
			return t, err
		}
		if d.kind != rbDepth {
			return t, fmt.Errorf("r300: renderbuffer %d is not a depth buffer", rb.ID)
		}
	}
	if rb := fb.Stencil.Renderbuffer; rb != nil {
		if s, err = c.renderbuffer(rb); err != nil {
			return t, err
		}
		if s.kind != rbStencil {
			return t, fmt.Errorf("r300: renderbuffer %d is not a stencil buffer", rb.ID)
		}
	}
	switch {
	case d != nil && s != nil:
		if err := c.join(fb.Depth.Renderbuffer.ID, fb.Stencil.Renderbuffer.ID); err != nil {
			return t, err
		}
		t.zb, t.zbPitch, t.zBpp, t.depth, t.stencil = s.mem.Addr, s.pitch, 4, true, true
	case d != nil:
		if err := c.split(fb.Depth.Renderbuffer.ID); err != nil {
			return t, err
		}
		t.zb, t.zbPitch, t.zBpp, t.depth = d.mem.Addr, d.pitch, 2, true
	case s != nil:
		// The Z24 bits may hold a joined depth buffer's values: the
		// depth test is off, so they stay.
		t.zb, t.zbPitch, t.zBpp, t.stencil = s.mem.Addr, s.pitch, 4, true
	}
	return t, nil
}

// rtFormat is a texture format's render layout: the colour-buffer format
// the RB3D writes and how the TX reads it.
type rtFormat struct {
	// tex is the layout for texture(): channel selects and the upload
	// conversion from GL data.
	tex texFormat
	cb  uint32 // COLORFORMAT (L448)
	bpp int
	// relayout turns one pixel of the upload layout (texFormats) into
	// the render layout in place; nil when they are the same.
	relayout func(p []byte)
	// toGL turns tightly packed render-layout rows into GL's layout.
	toGL func(src []byte) []byte
}

func swap02(p []byte) { p[0], p[2] = p[2], p[0] }

func rotr16(n uint) func(p []byte) {
	return func(p []byte) {
		v := binary.LittleEndian.Uint16(p)
		binary.LittleEndian.PutUint16(p, v>>n|v<<(16-n))
	}
}

// mapPixels applies f to every bpp-byte pixel of a copy of src.
func mapPixels(src []byte, bpp int, f func(p []byte)) []byte {
	out := append([]byte(nil), src...)
	if f != nil {
		for i := 0; i+bpp <= len(out); i += bpp {
			f(out[i : i+bpp])
		}
	}
	return out
}

// rtFormats lists the texture formats GL ES 2.0 renders into (the colour
// formats gles accepts as attachments).
var rtFormats = map[driver.TexFormat]rtFormat{
	driver.TexRGBA8888: {
		tex: texFormat{r3.TxFmt8_8_8_8, sel(c2, c1, c0, c3), func(t *driver.Texture, l int) []byte {
			return mapPixels(t.Levels[l].Data, 4, swap02)
		}},
		cb: 6, bpp: 4, relayout: swap02,
		toGL: func(src []byte) []byte { return mapPixels(src, 4, swap02) },
	},
	driver.TexRGB888: {
		tex: texFormat{r3.TxFmt8_8_8_8, sel(c2, c1, c0, selOne), func(t *driver.Texture, l int) []byte {
			return mapPixels(expand8888(t, l), 4, swap02)
		}},
		cb: 6, bpp: 4, relayout: swap02,
		toGL: func(src []byte) []byte {
			out := make([]byte, 0, len(src)/4*3)
			for i := 0; i+4 <= len(src); i += 4 {
				out = append(out, src[i+2], src[i+1], src[i])
			}
			return out
		},
	},
	driver.TexRGB565: {
		tex: texFormats[driver.TexRGB565], cb: 4, bpp: 2,
		toGL: func(src []byte) []byte { return mapPixels(src, 2, nil) },
	},
	driver.TexRGBA5551: {
		tex: texFormats[driver.TexRGBA5551], cb: 3, bpp: 2,
		toGL: func(src []byte) []byte { return mapPixels(src, 2, rotr16(15)) },
	},
	driver.TexRGBA4444: {
		// GL's R in 15:12 ... A in 3:0 becomes ARGB4444's A in 15:12.
		tex: texFormat{r3.TxFmt4_4_4_4, sel(c2, c1, c0, c3), func(t *driver.Texture, l int) []byte {
			return mapPixels(t.Levels[l].Data, 2, rotr16(4))
		}},
		cb: 15, bpp: 2, relayout: rotr16(4),
		toGL: func(src []byte) []byte { return mapPixels(src, 2, rotr16(12)) },
	},
}

// renderTexture returns t's device copy in its render layout, converting
// a copy uploaded for sampling in place (every level).
func (c *Context) renderTexture(t *driver.Texture) (*devTexture, error) {
	rf, ok := rtFormats[t.Format]
	if !ok {
		return nil, fmt.Errorf("r300: cannot render into a %v texture", t.Format)
	}
	d, err := c.textureAs(t, true)
	if err != nil || d.rt {
		return d, err
	}
	if rf.relayout != nil {
		if err := c.Finish(); err != nil {
			return nil, err
		}
		img := make([]byte, d.mem.Size)
		if err := c.dev.Read(d.mem.Addr, img); err != nil {
			return nil, fmt.Errorf("r300: texture %d: %w", t.ID, err)
		}
		for _, lv := range r3.TexLayout(&r3.TexFormats[d.fmt.code], d.w, d.h, d.levels, 0) {
			for y := 0; y < lv.Height; y++ {
				row := img[lv.Offset+uint32(y)*lv.Pitch:]
				for x := 0; x < lv.Width; x++ {
					rf.relayout(row[x*rf.bpp : (x+1)*rf.bpp])
				}
			}
		}
		if err := c.dev.Write(d.mem.Addr, img); err != nil {
			return nil, fmt.Errorf("r300: texture %d: %w", t.ID, err)
		}
	}
	d.rt, d.fmt = true, rf.tex
	c.texDirty = true
	return d, nil
}

// ReadTexture implements driver.TextureReader: level 0 of a texture the
// chip rendered into, in the GL layout; nil (and no error) when the chip
// holds no rendered copy of that generation.
func (c *Context) ReadTexture(id uint32, gen uint64) ([]byte, error) {
	d, ok := c.textures[id]
	if !ok || d.gen != gen || !d.rt {
		// The chip never rendered into this generation (an attachment
		// the state tracker marked for a clear that cleared nothing):
		// the state tracker's copy is current, nothing to return.
		return nil, nil
	}
	rf := rtFormats[d.format]
	if err := c.Finish(); err != nil {
		return nil, err
	}
	lv := r3.TexLayout(&r3.TexFormats[d.fmt.code], d.w, d.h, 1, 0)[0]
	rows := make([]byte, d.w*d.h*rf.bpp)
	if err := c.readRows(d.mem.Addr, int(lv.Pitch), d.w*rf.bpp, d.h, rows); err != nil {
		return nil, fmt.Errorf("r300: texture %d: %w", id, err)
	}
	return rf.toGL(rows), nil
}

// readRows reads h rows of n bytes at a pitch into dst.
func (c *Context) readRows(addr uint32, pitch, n, h int, dst []byte) error {
	for y := 0; y < h; y++ {
		if err := c.dev.Read(addr+uint32(y*pitch), dst[y*n:(y+1)*n]); err != nil {
			return err
		}
	}
	return nil
}

// ReadFramebuffer implements driver.FramebufferReader: ReadPixels from a
// framebuffer object's colour attachment (chip row = GL row).
func (c *Context) ReadFramebuffer(fb *driver.Framebuffer, x, y, w, h int) (*image.NRGBA, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	t, err := c.fboTarget(fb)
	if err != nil {
		return nil, err
	}
	if t.cb == 0 {
		return nil, fmt.Errorf("r300: framebuffer %d has no colour attachment to read", fb.ID)
	}
	if x < 0 || y < 0 || w < 0 || h < 0 || x+w > t.w || y+h > t.h {
		return nil, fmt.Errorf("r300: read %d,%d %dx%d outside framebuffer %d (%dx%d)", x, y, w, h, fb.ID, t.w, t.h)
	}
	if err := c.Finish(); err != nil {
		return nil, err
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	row := make([]byte, w*t.cbBpp)
	for iy := 0; iy < h; iy++ {
		sy := y + h - 1 - iy
		if err := c.dev.Read(t.cb+uint32((sy*t.cbPitch+x)*t.cbBpp), row); err != nil {
			return nil, fmt.Errorf("r300: read framebuffer %d: %w", fb.ID, err)
		}
		for ix := 0; ix < w; ix++ {
			p := DecodePixel(t.cbCode, row[ix*t.cbBpp:])
			copy(img.Pix[iy*img.Stride+ix*4:], p[:])
		}
	}
	return img, nil
}

// rbFormats maps renderbuffer colour formats to colour buffers: a
// renderbuffer's layout is the backend's own, so RGBA4 and RGB5_A1 are the
// CB's ARGB4444 and ARGB1555.
var rbFormats = map[driver.PixelFormat]struct {
	code uint32
	bpp  int
}{
	driver.FormatRGBA4444: {15, 2}, driver.FormatRGBA5551: {3, 2}, driver.FormatRGB565: {4, 2},
	driver.FormatRGBA8888: {6, 4}, driver.FormatARGB4444: {15, 2}, driver.FormatARGB1555: {3, 2},
}

// Renderbuffer kinds.
const (
	rbColor = iota
	rbDepth
	rbStencil
)

// devRB is a renderbuffer's surface.
type devRB struct {
	gen   uint32
	mem   hal.Allocation
	w, h  int
	pitch int // pixels: a multiple of 16 (COLORPITCH and DEPTHPITCH units)
	kind  int
	code  uint32 // COLORFORMAT of a colour buffer
	bpp   int
}

// renderbuffer returns rb's surface, allocating (zeroed) storage when the
// renderbuffer is new or was given new storage.
func (c *Context) renderbuffer(rb *driver.Renderbuffer) (*devRB, error) {
	if r, ok := c.rbs[rb.ID]; ok && r.gen == rb.Gen {
		return r, nil
	}
	r := &devRB{gen: rb.Gen, w: rb.Width, h: rb.Height, pitch: (rb.Width + 15) &^ 15}
	switch {
	case rb.Format != 0:
		f, ok := rbFormats[rb.Format]
		if !ok {
			return nil, fmt.Errorf("r300: renderbuffer %d: colour format %v not supported", rb.ID, rb.Format)
		}
		r.kind, r.code, r.bpp = rbColor, f.code, f.bpp
	case rb.DepthBits > 0:
		r.kind, r.bpp = rbDepth, 2
	case rb.StencilBits > 0:
		r.kind, r.bpp = rbStencil, 4
	default:
		return nil, fmt.Errorf("r300: renderbuffer %d has no storage format", rb.ID)
	}
	if rb.Width <= 0 || rb.Height <= 0 || rb.Width > 2048 || rb.Height > 2048 {
		return nil, fmt.Errorf("r300: renderbuffer %d: size %dx%d outside 1..2048", rb.ID, rb.Width, rb.Height)
	}
	if err := c.dropRenderbuffer(rb.ID); err != nil {
		return nil, err
	}
	size := uint32(r.pitch * r.h * r.bpp)
	var err error
	if r.mem, err = c.dev.Alloc(size, 4096, "vram"); err != nil {
		return nil, fmt.Errorf("r300: renderbuffer %d (%d bytes): %w", rb.ID, size, err)
	}
	if err := c.dev.Write(r.mem.Addr, make([]byte, size)); err != nil {
		return nil, errors.Join(fmt.Errorf("r300: renderbuffer %d: %w", rb.ID, err), c.dev.Free(r.mem))
	}
	c.rbs[rb.ID] = r
	return r, nil
}

// dropRenderbuffer frees a renderbuffer's surface, first moving a joined
// depth buffer's values out of it.
func (c *Context) dropRenderbuffer(id uint32) error {
	r, ok := c.rbs[id]
	if !ok {
		return nil
	}
	var err error
	switch r.kind {
	case rbDepth:
		delete(c.joined, id)
	case rbStencil:
		for d, s := range c.joined {
			if s == id {
				err = c.split(d)
			}
		}
	}
	err = errors.Join(err, c.Finish(), c.dev.Free(r.mem))
	delete(c.rbs, id)
	if c.tgt.fb != 0 && (c.tgt.cb == r.mem.Addr || c.tgt.zb == r.mem.Addr) {
		c.tgt = target{}
	}
	return err
}

// ReleaseRenderbuffer implements driver.RenderbufferReleaser.
func (c *Context) ReleaseRenderbuffer(id uint32) {
	_ = c.dropRenderbuffer(id)
}

// join moves depth renderbuffer did's values into the Z24 bits of stencil
// renderbuffer sid, which then serves as the pair's Z24S8 surface.
func (c *Context) join(did, sid uint32) error {
	if s, ok := c.joined[did]; ok && s == sid {
		return nil
	}
	if err := c.split(did); err != nil {
		return err
	}
	for d, s := range c.joined {
		if s == sid {
			if err := c.split(d); err != nil {
				return err
			}
		}
	}
	d, s := c.rbs[did], c.rbs[sid]
	if err := c.Finish(); err != nil {
		return err
	}
	zs := make([]byte, s.pitch*s.h*4)
	z := make([]byte, d.pitch*d.h*2)
	if err := errors.Join(c.dev.Read(s.mem.Addr, zs), c.dev.Read(d.mem.Addr, z)); err != nil {
		return fmt.Errorf("r300: join depth %d and stencil %d: %w", did, sid, err)
	}
	for y := 0; y < min(d.h, s.h); y++ {
		for x := 0; x < min(d.w, s.w); x++ {
			o := 4 * (y*s.pitch + x)
			v := binary.LittleEndian.Uint16(z[2*(y*d.pitch+x):])
			binary.LittleEndian.PutUint32(zs[o:], uint32(v)<<16|uint32(zs[o]))
		}
	}
	if err := c.dev.Write(s.mem.Addr, zs); err != nil {
		return fmt.Errorf("r300: join depth %d and stencil %d: %w", did, sid, err)
	}
	c.joined[did] = sid
	return nil
}

// split moves a joined depth renderbuffer's values back to its Z16
// surface.
func (c *Context) split(did uint32) error {
	sid, ok := c.joined[did]
	if !ok {
		return nil
	}
	delete(c.joined, did)
	d, s := c.rbs[did], c.rbs[sid]
	if d == nil || s == nil {
		return nil
	}
	if err := c.Finish(); err != nil {
		return err
	}
	zs := make([]byte, s.pitch*s.h*4)
	z := make([]byte, d.pitch*d.h*2)
	if err := errors.Join(c.dev.Read(s.mem.Addr, zs), c.dev.Read(d.mem.Addr, z)); err != nil {
		return fmt.Errorf("r300: split depth %d from stencil %d: %w", did, sid, err)
	}
	for y := 0; y < min(d.h, s.h); y++ {
		for x := 0; x < min(d.w, s.w); x++ {
			v := binary.LittleEndian.Uint32(zs[4*(y*s.pitch+x):])
			binary.LittleEndian.PutUint16(z[2*(y*d.pitch+x):], uint16(v>>16))
		}
	}
	if err := c.dev.Write(d.mem.Addr, z); err != nil {
		return fmt.Errorf("r300: split depth %d from stencil %d: %w", did, sid, err)
	}
	return nil
}
