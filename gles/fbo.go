package gles

import (
	"github.com/retrogl/retrogl/driver"
)

// GL ES 2.0 framebuffer-object enumerants.
const (
	FRAMEBUFFER                                  Enum = 0x8D40
	RENDERBUFFER                                 Enum = 0x8D41
	RGBA4                                        Enum = 0x8056
	RGB5_A1                                      Enum = 0x8057
	RGB565                                       Enum = 0x8D62
	DEPTH_COMPONENT16                            Enum = 0x81A5
	STENCIL_INDEX8                               Enum = 0x8D48
	RENDERBUFFER_WIDTH                           Enum = 0x8D42
	RENDERBUFFER_HEIGHT                          Enum = 0x8D43
	RENDERBUFFER_INTERNAL_FORMAT                 Enum = 0x8D44
	RENDERBUFFER_RED_SIZE                        Enum = 0x8D50
	RENDERBUFFER_GREEN_SIZE                      Enum = 0x8D51
	RENDERBUFFER_BLUE_SIZE                       Enum = 0x8D52
	RENDERBUFFER_ALPHA_SIZE                      Enum = 0x8D53
	RENDERBUFFER_DEPTH_SIZE                      Enum = 0x8D54
	RENDERBUFFER_STENCIL_SIZE                    Enum = 0x8D55
	FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE           Enum = 0x8CD0
	FRAMEBUFFER_ATTACHMENT_OBJECT_NAME           Enum = 0x8CD1
	FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL         Enum = 0x8CD2
	FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE Enum = 0x8CD3
	COLOR_ATTACHMENT0                            Enum = 0x8CE0
	DEPTH_ATTACHMENT                             Enum = 0x8D00
	STENCIL_ATTACHMENT                           Enum = 0x8D20
	NONE                                         Enum = 0
	FRAMEBUFFER_COMPLETE                         Enum = 0x8CD5
	FRAMEBUFFER_INCOMPLETE_ATTACHMENT            Enum = 0x8CD6
	FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT    Enum = 0x8CD7
	FRAMEBUFFER_INCOMPLETE_DIMENSIONS            Enum = 0x8CD9
	FRAMEBUFFER_UNSUPPORTED                      Enum = 0x8CDD
	FRAMEBUFFER_BINDING                          Enum = 0x8CA6
	RENDERBUFFER_BINDING                         Enum = 0x8CA7
	INVALID_FRAMEBUFFER_OPERATION                Enum = 0x0506
)

type renderbufferObject struct {
	id uint32
	// key is what the driver knows the storage by (Context.newKey).
	key    uint32
	format Enum
	rb     driver.Renderbuffer
}

type attachment struct {
	tex *textureObject
	rb  *renderbufferObject
}

type framebufferObject struct {
	id                    uint32
	color, depth, stencil attachment
}

// fboState holds a context's framebuffer objects.
type fboState struct {
	framebuffers   map[uint32]*framebufferObject
	renderbuffers  map[uint32]*renderbufferObject
	nextFB, nextRB uint32
	fb             *framebufferObject
	rb             *renderbufferObject
	snap           driver.Framebuffer
}

func (c *Context) fbos() *fboState {
	if c.fbo.framebuffers == nil {
		c.fbo.framebuffers = map[uint32]*framebufferObject{}
		c.fbo.renderbuffers = map[uint32]*renderbufferObject{}
	}
	return &c.fbo
}

// GenFramebuffers returns n new framebuffer names.
func (c *Context) GenFramebuffers(n int) []uint32 {
	if !c.need2("GenFramebuffers") {
		return nil
	}
	f := c.fbos()
	return genNames(c, "GenFramebuffers", f.framebuffers, &f.nextFB, n)
}

// GenRenderbuffers returns n new renderbuffer names.
func (c *Context) GenRenderbuffers(n int) []uint32 {
	if !c.need2("GenRenderbuffers") {
		return nil
	}
	f := c.fbos()
	return genNames(c, "GenRenderbuffers", f.renderbuffers, &f.nextRB, n)
}

// BindFramebuffer binds a framebuffer object (0: the surface).
func (c *Context) BindFramebuffer(target Enum, id uint32) {
	const fn = "BindFramebuffer"
	if !c.need2(fn) {
		return
	}
	if target != FRAMEBUFFER {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	f := c.fbos()
	if id == 0 {
		f.fb = nil
		return
	}
	if fb, reserved := f.framebuffers[id]; fb == nil {
		if !reserved {
			if !c.fits(fn, objectCost, "a new framebuffer object") {
				return
			}
			c.charge(objectCost)
		}
		f.framebuffers[id] = &framebufferObject{id: id}
	}
	f.fb = f.framebuffers[id]
}

// BindRenderbuffer binds a renderbuffer object.
func (c *Context) BindRenderbuffer(target Enum, id uint32) {
	const fn = "BindRenderbuffer"
	if !c.need2(fn) {
		return
	}
	if target != RENDERBUFFER {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	f := c.fbos()
	if id == 0 {
		f.rb = nil
		return
	}
	if rb, reserved := f.renderbuffers[id]; rb == nil {
		if !reserved {
			if !c.fits(fn, objectCost, "a new renderbuffer object") {
				return
			}
			c.charge(objectCost)
		}
		f.renderbuffers[id] = &renderbufferObject{id: id, key: c.newKey(id)}
	}
	f.rb = f.renderbuffers[id]
}

// IsFramebuffer reports whether id names a framebuffer object.
func (c *Context) IsFramebuffer(id uint32) bool {
	return c.need2("IsFramebuffer") && c.fbos().framebuffers[id] != nil
}

// IsRenderbuffer reports whether id names a renderbuffer object.
func (c *Context) IsRenderbuffer(id uint32) bool {
	return c.need2("IsRenderbuffer") && c.fbos().renderbuffers[id] != nil
}

// DeleteFramebuffers deletes framebuffer objects; a bound one unbinds.
func (c *Context) DeleteFramebuffers(ids ...uint32) {
	if !c.need2("DeleteFramebuffers") {
		return
	}
	f := c.fbos()
	for _, id := range ids {
		fb, ok := f.framebuffers[id]
		if fb != nil && f.fb == fb {
			f.fb = nil
		}
		if id != 0 && ok {
			delete(f.framebuffers, id)
			c.charge(-objectCost)
		}
		if fb != nil {
			for _, a := range []attachment{fb.color, fb.depth, fb.stencil} {
				c.releaseOrphan(a)
			}
		}
	}
}

// DeleteRenderbuffers deletes renderbuffers, detaching them from the bound
// framebuffer.
func (c *Context) DeleteRenderbuffers(ids ...uint32) {
	if !c.need2("DeleteRenderbuffers") {
		return
	}
	f := c.fbos()
	for _, id := range ids {
		rb, ok := f.renderbuffers[id]
		if !ok || id == 0 {
			continue
		}
		delete(f.renderbuffers, id)
		c.charge(-objectCost)
		if rb == nil {
			continue
		}
		if f.rb == rb {
			f.rb = nil
		}
		c.detachDeleted(attachment{rb: rb})
	}
}

// detachDeleted detaches a deleted texture or renderbuffer from the bound
// framebuffer (GL ES 2.0 §4.4.3 and §4.4.2: attachments of other
// framebuffers stay) and releases its device storage unless one of them
// still holds it.
func (c *Context) detachDeleted(obj attachment) {
	if fb := c.fbo.fb; fb != nil {
		for _, a := range []*attachment{&fb.color, &fb.depth, &fb.stencil} {
			if (obj.tex != nil && a.tex == obj.tex) || (obj.rb != nil && a.rb == obj.rb) {
				*a = attachment{}
			}
		}
	}
	c.releaseOrphan(obj)
}

// fboHolds reports whether a framebuffer object holds obj.
func (c *Context) fboHolds(obj attachment) bool {
	for _, fb := range c.fbo.framebuffers {
		if fb == nil {
			continue
		}
		for _, a := range []attachment{fb.color, fb.depth, fb.stencil} {
			if (obj.tex != nil && a.tex == obj.tex) || (obj.rb != nil && a.rb == obj.rb) {
				return true
			}
		}
	}
	return false
}

// releaseOrphan releases the device storage and the data of a deleted
// texture or renderbuffer once no framebuffer object holds it. A name
// taken again by a new object names that object; the old one's storage
// has a key of its own (newKey), so releasing it never touches the new
// object's.
func (c *Context) releaseOrphan(obj attachment) {
	if c.fboHolds(obj) {
		return
	}
	if t := obj.tex; t != nil && c.textures[t.id] != t && t.key != 0 {
		c.dc.ReleaseTexture(t.key)
		c.dropKey(t.key)
		c.charge(-t.charged)
		t.charged, t.levels, t.palette, t.key = 0, nil, nil, 0
	}
	if r := obj.rb; r != nil && c.fbo.renderbuffers[r.id] != r && r.key != 0 {
		if rel, ok := c.dc.(driver.RenderbufferReleaser); ok {
			rel.ReleaseRenderbuffer(r.key)
		}
		c.dropKey(r.key)
		r.key = 0
	}
}

// setAttachment changes an attachment point, releasing a deleted object
// it held last.
func (c *Context) setAttachment(a *attachment, v attachment) {
	old := *a
	*a = v
	c.releaseOrphan(old)
}

// readBuffer describes the colour buffer reads and copies come from: the
// bound framebuffer's colour attachment or the surface.
func (c *Context) readBuffer() (w, h int, alpha, ok bool) {
	fb := c.fbo.fb
	if !c.api2 || fb == nil {
		return c.cfg.Width, c.cfg.Height, c.cfg.AlphaBits() > 0, true
	}
	switch a := fb.color; {
	case a.tex != nil && len(a.tex.levels) > 0:
		f := a.tex.format
		return a.tex.levels[0].Width, a.tex.levels[0].Height,
			f == driver.TexRGBA8888 || f == driver.TexRGBA4444 || f == driver.TexRGBA5551, true
	case a.rb != nil:
		_, _, _, al := a.rb.rb.Format.Bits()
		return a.rb.rb.Width, a.rb.rb.Height, al > 0, true
	}
	return 0, 0, false, false
}

// RenderbufferStorage allocates the bound renderbuffer's storage.
func (c *Context) RenderbufferStorage(target, internalformat Enum, width, height int) {
	const fn = "RenderbufferStorage"
	if !c.need2(fn) {
		return
	}
	if target != RENDERBUFFER {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	var rb driver.Renderbuffer
	switch internalformat {
	case RGBA4:
		rb.Format = driver.FormatRGBA4444
	case RGB5_A1:
		rb.Format = driver.FormatRGBA5551
	case RGB565:
		rb.Format = driver.FormatRGB565
	case DEPTH_COMPONENT16:
		rb.DepthBits = 16
	case STENCIL_INDEX8:
		rb.StencilBits = 8
	default:
		c.record(fn, INVALID_ENUM, "internal format %#x", internalformat)
		return
	}
	maxSize := c.caps.Limits.MaxRenderbufferSize
	if width < 0 || height < 0 || width > maxSize || height > maxSize {
		c.record(fn, INVALID_VALUE, "size %dx%d outside 0..%d", width, height, maxSize)
		return
	}
	r := c.fbos().rb
	if r == nil {
		c.record(fn, INVALID_OPERATION, "no renderbuffer bound")
		return
	}
	rb.ID, rb.Gen, rb.Width, rb.Height = r.key, r.rb.Gen+1, width, height
	r.rb, r.format = rb, internalformat
}

// GetRenderbufferParameteriv returns a parameter of the bound renderbuffer.
func (c *Context) GetRenderbufferParameteriv(target, pname Enum) int {
	const fn = "GetRenderbufferParameteriv"
	if !c.need2(fn) {
		return 0
	}
	r := c.fbos().rb
	if target != RENDERBUFFER {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return 0
	}
	if r == nil {
		c.record(fn, INVALID_OPERATION, "no renderbuffer bound")
		return 0
	}
	rr, g, b, a := r.rb.Format.Bits()
	switch pname {
	case RENDERBUFFER_WIDTH:
		return r.rb.Width
	case RENDERBUFFER_HEIGHT:
		return r.rb.Height
	case RENDERBUFFER_INTERNAL_FORMAT:
		if r.format == 0 {
			return int(RGBA4)
		}
		return int(r.format)
	case RENDERBUFFER_RED_SIZE:
		return rr
	case RENDERBUFFER_GREEN_SIZE:
		return g
	case RENDERBUFFER_BLUE_SIZE:
		return b
	case RENDERBUFFER_ALPHA_SIZE:
		return a
	case RENDERBUFFER_DEPTH_SIZE:
		return r.rb.DepthBits
	case RENDERBUFFER_STENCIL_SIZE:
		return r.rb.StencilBits
	}
	c.record(fn, INVALID_ENUM, "pname %#x", pname)
	return 0
}

func (c *Context) attachmentPoint(fn string, fb *framebufferObject, a Enum) *attachment {
	switch a {
	case COLOR_ATTACHMENT0:
		return &fb.color
	case DEPTH_ATTACHMENT:
		return &fb.depth
	case STENCIL_ATTACHMENT:
		return &fb.stencil
	}
	c.record(fn, INVALID_ENUM, "attachment %#x", a)
	return nil
}

func (c *Context) boundFBO(fn string, target Enum) *framebufferObject {
	if target != FRAMEBUFFER {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return nil
	}
	fb := c.fbos().fb
	if fb == nil {
		c.record(fn, INVALID_OPERATION, "framebuffer 0 has no attachments to change")
	}
	return fb
}

// FramebufferTexture2D attaches level 0 of a 2D texture (0 detaches).
func (c *Context) FramebufferTexture2D(target, attach, textarget Enum, texture uint32, level int) {
	const fn = "FramebufferTexture2D"
	if !c.need2(fn) {
		return
	}
	fb := c.boundFBO(fn, target)
	if fb == nil {
		return
	}
	a := c.attachmentPoint(fn, fb, attach)
	if a == nil {
		return
	}
	if texture == 0 {
		c.setAttachment(a, attachment{})
		return
	}
	if textarget != TEXTURE_2D {
		c.record(fn, INVALID_ENUM, "textarget %#x", textarget)
		return
	}
	t := c.textures[texture]
	if t == nil {
		c.record(fn, INVALID_OPERATION, "%d is not a texture", texture)
		return
	}
	if level != 0 {
		c.record(fn, INVALID_VALUE, "level %d: GL ES 2.0 attaches level 0 only", level)
		return
	}
	c.setAttachment(a, attachment{tex: t})
}

// FramebufferRenderbuffer attaches a renderbuffer (0 detaches).
func (c *Context) FramebufferRenderbuffer(target, attach, rbtarget Enum, rb uint32) {
	const fn = "FramebufferRenderbuffer"
	if !c.need2(fn) {
		return
	}
	fb := c.boundFBO(fn, target)
	if fb == nil {
		return
	}
	a := c.attachmentPoint(fn, fb, attach)
	if a == nil {
		return
	}
	if rb == 0 {
		c.setAttachment(a, attachment{})
		return
	}
	if rbtarget != RENDERBUFFER {
		c.record(fn, INVALID_ENUM, "renderbuffer target %#x", rbtarget)
		return
	}
	r := c.fbos().renderbuffers[rb]
	if r == nil {
		c.record(fn, INVALID_OPERATION, "%d is not a renderbuffer", rb)
		return
	}
	c.setAttachment(a, attachment{rb: r})
}

// GetFramebufferAttachmentParameteriv describes an attachment of the bound
// framebuffer.
func (c *Context) GetFramebufferAttachmentParameteriv(target, attach, pname Enum) int {
	const fn = "GetFramebufferAttachmentParameteriv"
	if !c.need2(fn) {
		return 0
	}
	fb := c.boundFBO(fn, target)
	if fb == nil {
		return 0
	}
	a := c.attachmentPoint(fn, fb, attach)
	if a == nil {
		return 0
	}
	switch pname {
	case FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE:
		switch {
		case a.tex != nil:
			return int(TEXTURE)
		case a.rb != nil:
			return int(RENDERBUFFER)
		}
		return int(NONE)
	case FRAMEBUFFER_ATTACHMENT_OBJECT_NAME:
		switch {
		case a.tex != nil:
			return int(a.tex.id)
		case a.rb != nil:
			return int(a.rb.id)
		}
	case FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE:
		if a.tex != nil {
			return 0
		}
	}
	c.record(fn, INVALID_ENUM, "pname %#x", pname)
	return 0
}

// status computes the bound framebuffer's completeness (GL ES 2.0 §4.4.5).
func (c *Context) status(fb *framebufferObject) Enum {
	w, h := -1, -1
	n := 0
	for i, a := range []attachment{fb.color, fb.depth, fb.stencil} {
		var aw, ah int
		switch {
		case a.tex != nil:
			if i != 0 || len(a.tex.levels) == 0 || a.tex.levels[0].Width == 0 {
				return FRAMEBUFFER_INCOMPLETE_ATTACHMENT
			}
			if a.tex.format != driver.TexRGBA8888 && a.tex.format != driver.TexRGB888 &&
				a.tex.format != driver.TexRGB565 && a.tex.format != driver.TexRGBA4444 && a.tex.format != driver.TexRGBA5551 {
				return FRAMEBUFFER_INCOMPLETE_ATTACHMENT
			}
			aw, ah = a.tex.levels[0].Width, a.tex.levels[0].Height
		case a.rb != nil:
			rb := a.rb.rb
			if rb.Width == 0 || rb.Height == 0 ||
				(i == 0 && rb.Format == 0) || (i == 1 && rb.DepthBits == 0) || (i == 2 && rb.StencilBits == 0) {
				return FRAMEBUFFER_INCOMPLETE_ATTACHMENT
			}
			aw, ah = rb.Width, rb.Height
		default:
			continue
		}
		n++
		if w >= 0 && (aw != w || ah != h) {
			return FRAMEBUFFER_INCOMPLETE_DIMENSIONS
		}
		w, h = aw, ah
	}
	if n == 0 {
		return FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
	}
	if !c.caps.Has(driver.FeatureFramebufferObjects) {
		return FRAMEBUFFER_UNSUPPORTED
	}
	return FRAMEBUFFER_COMPLETE
}

// CheckFramebufferStatus returns the bound framebuffer's completeness.
func (c *Context) CheckFramebufferStatus(target Enum) Enum {
	const fn = "CheckFramebufferStatus"
	if !c.need2(fn) {
		return 0
	}
	if target != FRAMEBUFFER {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return 0
	}
	fb := c.fbos().fb
	if fb == nil {
		return FRAMEBUFFER_COMPLETE
	}
	return c.status(fb)
}

// resolveFramebuffer fills st.Framebuffer for a draw, clear or read; it
// returns false (after INVALID_FRAMEBUFFER_OPERATION) for an incomplete one.
func (c *Context) resolveFramebuffer(fn string) bool {
	c.st.Framebuffer = nil
	if !c.api2 {
		return true
	}
	f := c.fbos()
	if f.fb == nil {
		return true
	}
	if s := c.status(f.fb); s != FRAMEBUFFER_COMPLETE {
		c.record(fn, INVALID_FRAMEBUFFER_OPERATION, "framebuffer %d is incomplete (%#x)", f.fb.id, s)
		return false
	}
	snap := &f.snap
	*snap = driver.Framebuffer{ID: f.fb.id}
	set := func(dst *driver.Attachment, a attachment) {
		if a.tex != nil {
			a.tex.snapGen = 0 // rebuild with level 0 alone
			t := a.tex
			dst.Texture = &driver.Texture{ID: t.key, Gen: t.gen, Format: t.format, Levels: t.levels[:1], Sampler: t.sampler}
			snap.Width, snap.Height = t.levels[0].Width, t.levels[0].Height
			t.rendered = true
		}
		if a.rb != nil {
			rb := a.rb.rb
			dst.Renderbuffer = &rb
			snap.Width, snap.Height = rb.Width, rb.Height
		}
	}
	set(&snap.Color, f.fb.color)
	set(&snap.Depth, f.fb.depth)
	set(&snap.Stencil, f.fb.stencil)
	c.st.Framebuffer = snap
	return true
}

// syncTexture brings a texture rendered to by the backend back to the CPU
// before the state tracker changes or reads its contents.
func (c *Context) syncTexture(fn string, t *textureObject) bool {
	if !t.rendered {
		return true
	}
	r, ok := c.dc.(driver.TextureReader)
	if !ok {
		c.record(fn, INVALID_OPERATION, "%s cannot read back rendered textures", c.caps.Name)
		return false
	}
	data, err := r.ReadTexture(t.key, t.gen)
	if err != nil {
		c.recordErr(fn, err)
		return false
	}
	if len(t.levels) > 0 && len(data) == len(t.levels[0].Data) {
		copy(t.levels[0].Data, data)
	}
	t.rendered = false
	return true
}
