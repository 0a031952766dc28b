// Package gles is retrogl's GL ES API: a state tracker with GL names in Go
// shapes. A Context runs on a backend chosen by name and renders into an
// offscreen surface:
//
//	ctx, err := gles.NewContext("pspge", gles.Config{Width: 480, Height: 272, DepthBits: 16})
//	ctx.ClearColor(0, 0, 0, 1)
//	ctx.Clear(gles.COLOR_BUFFER_BIT)
//	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
//	img := ctx.Image()
//
// Every entry point validates its arguments as the ES 1.1 specification
// says and records GL errors: GetError returns them GL-style, Err returns
// every error since the last call with the entry point that raised it.
// Nothing an application passes can panic the stack. The package knows no
// chip: backends are reached through package driver, and registered by
// importing github.com/retrogl/retrogl/backends.
package gles

import (
	"errors"
	"fmt"
	"image"
	"io"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/hashicorp/go-multierror"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/internal/checked"
)

// Config describes the context's surface, like an EGL config. Zero Width,
// Height and Format take the backend's defaults; DepthBits and StencilBits
// are minimums, as in eglChooseConfig.
type Config struct {
	Width, Height int
	Format        driver.PixelFormat
	DepthBits     int
	StencilBits   int
	// Capture, when set, records every device operation (see hal.Capture);
	// the capture is complete after Close.
	Capture io.Writer
	// ES2 asks for a GL ES 2.0 context (shaders instead of fixed
	// function); the backend's Caps.ES2 must allow it.
	ES2 bool
	// Workers sets how many goroutines the simulated device shades with
	// (0: its default, one per CPU). Output does not depend on it.
	Workers int
	// WrapDevice, when set, wraps the backend's device before the driver
	// sees it (driver.OpenOptions.Wrap), for tools that watch submissions.
	WrapDevice func(hal.Device) hal.Device
	// MemoryBudget bounds the host memory the context keeps for buffer
	// and texture data, in bytes: a call that would take more records
	// OUT_OF_MEMORY and changes nothing. 0 takes the backend's default,
	// the size of its chip's memory (DefaultMemoryBudget); a negative
	// value removes the bound.
	MemoryBudget int64
}

// Error is one GL error, with the entry point that raised it.
type Error struct {
	// Func is the GL entry point ("DrawArrays").
	Func string
	// Code is the GL error code (INVALID_ENUM, ...).
	Code Enum
	// Msg says what was wrong.
	Msg string
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("gl%s: %s: %s", e.Func, errorName(e.Code), e.Msg)
}

func errorName(c Enum) string {
	switch c {
	case INVALID_ENUM:
		return "GL_INVALID_ENUM"
	case INVALID_VALUE:
		return "GL_INVALID_VALUE"
	case INVALID_OPERATION:
		return "GL_INVALID_OPERATION"
	case STACK_OVERFLOW:
		return "GL_STACK_OVERFLOW"
	case STACK_UNDERFLOW:
		return "GL_STACK_UNDERFLOW"
	case OUT_OF_MEMORY:
		return "GL_OUT_OF_MEMORY"
	}
	return fmt.Sprintf("GL error %#x", uint32(c))
}

// Context is a GL ES context bound to an offscreen surface.
type Context struct {
	drv  driver.Driver
	dc   driver.Context
	caps *driver.Caps
	cfg  driver.SurfaceConfig

	st driver.State

	errFlag Enum
	errs    []error
	closed  bool

	// Matrix stacks.
	matrixMode Enum
	modelview  []mgl32.Mat4
	projection []mgl32.Mat4
	texture    [driver.MaxTextureUnits][]mgl32.Mat4
	palette    int // CURRENT_PALETTE_MATRIX_OES

	// Vertex arrays.
	arrays          [numArrays]arrayState
	activeTex       int
	clientActiveTex int
	arrayBuffer     uint32
	elementBuffer   uint32
	buffers         map[uint32]*bufferObject
	nextBuffer      uint32

	// Textures.
	texEnabled  [driver.MaxTextureUnits]bool
	boundTex    [driver.MaxTextureUnits]uint32
	textures    map[uint32]*textureObject
	defaultTex  *textureObject
	nextTexture uint32
	unpackAlign int
	packAlign   int

	// Clear values and misc.
	clearColor     [4]float32
	clearDepth     float32
	clearStencil   int
	hints          map[Enum]Enum
	multisample    bool
	sampleAlphaCov bool
	sampleAlphaOne bool
	sampleCovValue float32
	sampleCovInv   bool

	// Host memory held by buffer and texture data, and its bound
	// (negative: none); storage keys in use (see newKey).
	memUsed, memBudget int64
	keys               map[uint32]bool
	nextKey            uint32
	errsDropped        int

	// GL ES 2.0.
	api2 bool
	gl2  es2
	fbo  fboState
}

// NewContext creates a context on the named backend. Import
// github.com/retrogl/retrogl/backends to register the five chips.
func NewContext(backend string, cfg Config) (*Context, error) {
	drv, err := driver.Open(backend, driver.OpenOptions{Capture: cfg.Capture, Workers: cfg.Workers, Wrap: cfg.WrapDevice})
	if err != nil {
		return nil, err
	}
	caps := drv.Caps()
	var compiler driver.ShaderCompiler
	if cfg.ES2 {
		sd, ok := drv.(driver.ShaderDriver)
		if !caps.ES2 || !ok {
			return nil, errors.Join(fmt.Errorf("%s: GL ES 2.0 contexts are not supported (%s)", backend, caps.Version), drv.Close())
		}
		compiler = sd.ShaderCompiler()
	}
	sc, err := caps.ChooseConfig(driver.SurfaceConfig{
		Width: cfg.Width, Height: cfg.Height, Format: cfg.Format,
		DepthBits: cfg.DepthBits, StencilBits: cfg.StencilBits,
	})
	if err != nil {
		return nil, errors.Join(err, drv.Close())
	}
	dc, err := drv.NewContext(sc)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("%s: new context: %w", backend, err), drv.Close())
	}
	c := &Context{drv: drv, dc: dc, caps: caps, cfg: dc.Config(), api2: cfg.ES2, memBudget: cfg.MemoryBudget}
	if c.memBudget == 0 {
		c.memBudget = DefaultMemoryBudget(drv)
	}
	c.init()
	if c.api2 {
		c.gl2.compiler = compiler
		c.initES2()
	}
	return c, nil
}

// init sets the GL initial state (ES 1.1 specification, tables 6.x).
func (c *Context) init() {
	st := &c.st
	st.Viewport = driver.Rect{W: c.cfg.Width, H: c.cfg.Height}
	st.Scissor = st.Viewport
	st.DepthRange = [2]float32{0, 1}
	st.CullFace = driver.FaceBack
	st.FrontFace = driver.WindingCCW
	st.Shade = driver.ShadeSmooth
	st.LineWidth = 1
	st.Point = driver.PointParams{Size: 1, Min: 0, Max: c.caps.Limits.AliasedPointSizeRange[1],
		DistAtten: [3]float32{1, 0, 0}, FadeThreshold: 1}
	st.AlphaTest.Func = driver.CompareAlways
	for i := range st.Stencil {
		st.Stencil[i] = driver.StencilFace{Func: driver.CompareAlways, ValueMask: ^uint32(0), WriteMask: ^uint32(0)}
	}
	st.DepthFunc = driver.CompareLess
	st.DepthMask = true
	st.Blend.SrcRGB, st.Blend.SrcAlpha = driver.BlendOne, driver.BlendOne
	st.Blend.DstRGB, st.Blend.DstAlpha = driver.BlendZero, driver.BlendZero
	st.LogicOp = driver.LogicCopy
	st.ColorMask = [4]bool{true, true, true, true}
	st.Dither = true
	st.ModelView = mgl32.Ident4()
	st.Projection = mgl32.Ident4()
	st.Lighting.Ambient = [4]float32{0.2, 0.2, 0.2, 1}
	for i := range st.Lighting.Lights {
		l := &st.Lighting.Lights[i]
		l.Ambient = [4]float32{0, 0, 0, 1}
		if i == 0 {
			l.Diffuse = [4]float32{1, 1, 1, 1}
			l.Specular = [4]float32{1, 1, 1, 1}
		} else {
			l.Diffuse = [4]float32{0, 0, 0, 1}
			l.Specular = [4]float32{0, 0, 0, 1}
		}
		l.Position = [4]float32{0, 0, 1, 0}
		l.SpotDirection = [3]float32{0, 0, -1}
		l.SpotCutoff = 180
		l.ConstantAtten = 1
	}
	st.Lighting.Material = driver.Material{
		Ambient: [4]float32{0.2, 0.2, 0.2, 1}, Diffuse: [4]float32{0.8, 0.8, 0.8, 1},
		Specular: [4]float32{0, 0, 0, 1}, Emission: [4]float32{0, 0, 0, 1},
	}
	st.Fog = driver.Fog{Mode: driver.FogExp, Density: 1, Start: 0, End: 1}
	for i := range st.MatrixPalette.Matrices {
		st.MatrixPalette.Matrices[i] = mgl32.Ident4()
	}
	st.CurrentColor = [4]float32{1, 1, 1, 1}
	st.CurrentNormal = [3]float32{0, 0, 1}
	for i := range st.CurrentTexCoord {
		st.CurrentTexCoord[i] = [4]float32{0, 0, 0, 1}
	}
	st.CurrentPointSz = 1
	for i := range st.Units {
		st.Units[i].Env = driver.DefaultTexEnv()
		st.Units[i].Matrix = mgl32.Ident4()
	}

	c.matrixMode = MODELVIEW
	c.modelview = []mgl32.Mat4{mgl32.Ident4()}
	c.projection = []mgl32.Mat4{mgl32.Ident4()}
	for i := range c.texture {
		c.texture[i] = []mgl32.Mat4{mgl32.Ident4()}
	}
	for i := range c.arrays {
		c.arrays[i] = arrayState{size: 4, typ: FLOAT}
	}
	c.arrays[arrNormal].size = 3
	c.arrays[arrPointSize].size = 1
	c.buffers = map[uint32]*bufferObject{}
	c.textures = map[uint32]*textureObject{}
	c.defaultTex = newTextureObject(0, 0)
	c.unpackAlign, c.packAlign = 4, 4
	c.clearDepth = 1
	c.hints = map[Enum]Enum{
		PERSPECTIVE_CORRECTION_HINT: DONT_CARE, POINT_SMOOTH_HINT: DONT_CARE,
		LINE_SMOOTH_HINT: DONT_CARE, FOG_HINT: DONT_CARE, GENERATE_MIPMAP_HINT: DONT_CARE,
	}
	c.multisample = true
	c.sampleCovValue = 1
}

// Close releases the context, its device memory and its device. A capture
// given in Config is complete after Close.
func (c *Context) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	return errors.Join(c.dc.Close(), c.drv.Close())
}

// Caps returns the backend's capabilities.
func (c *Context) Caps() *driver.Caps { return c.caps }

// Config returns the surface configuration chosen for the context.
func (c *Context) Config() driver.SurfaceConfig { return c.cfg }

// Driver returns the backend context, for tests and tools that read depth or
// stencil (see driver.DepthStencilReader).
func (c *Context) Driver() driver.Context { return c.dc }

// Device returns the backend's driver (and through it the device).
func (c *Context) Backend() driver.Driver { return c.drv }

// record sets the GL error flag (if clear) and remembers the error for Err.
func (c *Context) record(fn string, code Enum, format string, args ...any) {
	if c.errFlag == NO_ERROR {
		c.errFlag = code
	}
	if len(c.errs) >= maxErrors {
		c.errsDropped++
		return
	}
	c.errs = append(c.errs, &Error{Func: fn, Code: code, Msg: fmt.Sprintf(format, args...)})
}

// recordErr remembers a backend error (device fault, unsupported feature).
// GL has no code for these; the flag is set to INVALID_OPERATION, or to
// OUT_OF_MEMORY when the device ran out of memory (hal.ErrOutOfMemory).
func (c *Context) recordErr(fn string, err error) {
	if c.errFlag == NO_ERROR {
		c.errFlag = INVALID_OPERATION
		if errors.Is(err, driver.ErrOutOfMemory) {
			c.errFlag = OUT_OF_MEMORY
		}
	}
	if len(c.errs) >= maxErrors {
		c.errsDropped++
		return
	}
	c.errs = append(c.errs, fmt.Errorf("gl%s: %w", fn, err))
}

// GetError returns and clears the GL error flag.
func (c *Context) GetError() Enum {
	e := c.errFlag
	c.errFlag = NO_ERROR
	return e
}

// Err returns every error since the previous call to Err, each naming its
// entry point, combined with go-multierror; nil when there were none. It does
// not clear the GL error flag.
func (c *Context) Err() error {
	if len(c.errs) == 0 {
		return nil
	}
	var m *multierror.Error
	m = multierror.Append(m, c.errs...)
	if c.errsDropped > 0 {
		m = multierror.Append(m, errorsDropped(c.errsDropped))
	}
	c.errs, c.errsDropped = nil, 0
	return m
}

// need1 is alive for the fixed-function entry points, which a GL ES 2.0
// context does not have.
func (c *Context) need1(fn string) bool {
	if !c.alive(fn) {
		return false
	}
	if c.api2 {
		c.record(fn, INVALID_OPERATION, "fixed-function entry point in a GL ES 2.0 context")
		return false
	}
	return true
}

// alive reports whether the context can take calls.
func (c *Context) alive(fn string) bool {
	if c.closed {
		c.record(fn, INVALID_OPERATION, "context is closed")
		return false
	}
	return true
}

// Flush submits pending work to the device.
func (c *Context) Flush() {
	if !c.alive("Flush") {
		return
	}
	if err := c.dc.Flush(); err != nil {
		c.recordErr("Flush", err)
	}
}

// Finish submits pending work and waits for the device to complete it.
func (c *Context) Finish() {
	if !c.alive("Finish") {
		return
	}
	if err := c.dc.Finish(); err != nil {
		c.recordErr("Finish", err)
	}
}

// Image reads the whole colour buffer back as an image, top row first. It
// is the Go-shaped form of ReadPixels.
func (c *Context) Image() image.Image {
	img, err := c.readImage("Image", 0, 0, c.cfg.Width, c.cfg.Height)
	if err != nil {
		return image.NewNRGBA(image.Rect(0, 0, c.cfg.Width, c.cfg.Height))
	}
	return img
}

func (c *Context) readImage(fn string, x, y, w, h int) (*image.NRGBA, error) {
	if !c.alive(fn) {
		return nil, errors.New("context closed")
	}
	if !c.resolveFramebuffer(fn) {
		return nil, errors.New("incomplete framebuffer")
	}
	var img *image.NRGBA
	var err error
	if fb := c.st.Framebuffer; fb != nil {
		r, ok := c.dc.(driver.FramebufferReader)
		if !ok {
			err = &driver.Unsupported{Backend: c.caps.Name, Feature: driver.FeatureFramebufferObjects, Why: "no framebuffer read-back"}
		} else {
			x, y = max(0, min(x, fb.Width)), max(0, min(y, fb.Height))
			w, h = min(w, fb.Width-x), min(h, fb.Height-y)
			img, err = r.ReadFramebuffer(fb, x, y, w, h)
		}
	} else {
		img, err = c.dc.ReadPixels(x, y, w, h)
	}
	if err != nil {
		c.recordErr(fn, err)
		return nil, err
	}
	return img, nil
}

// ReadPixels reads a rectangle of the colour buffer into pixels, rows
// bottom to top as GL has them. format and typ must be RGBA and
// UNSIGNED_BYTE (the implementation read format is the same). Rows are
// padded to PACK_ALIGNMENT. Pixels outside the surface are left untouched.
func (c *Context) ReadPixels(x, y, width, height int, format, typ Enum, pixels []byte) {
	const fn = "ReadPixels"
	if !c.alive(fn) {
		return
	}
	if format != RGBA || typ != UNSIGNED_BYTE {
		if (format == RGBA || format == RGB || format == ALPHA || format == LUMINANCE || format == LUMINANCE_ALPHA) &&
			(typ == UNSIGNED_BYTE || typ == UNSIGNED_SHORT_5_6_5 || typ == UNSIGNED_SHORT_4_4_4_4 || typ == UNSIGNED_SHORT_5_5_5_1) {
			c.record(fn, INVALID_OPERATION, "format %#x/type %#x is not RGBA/UNSIGNED_BYTE or the implementation read format", format, typ)
		} else {
			c.record(fn, INVALID_ENUM, "format %#x/type %#x", format, typ)
		}
		return
	}
	if width < 0 || height < 0 {
		c.record(fn, INVALID_VALUE, "negative size %dx%d", width, height)
		return
	}
	stride, need, ok := checked.Image(width, height, 4, c.packAlign)
	if !ok {
		c.record(fn, INVALID_VALUE, "%dx%d pixels overflow", width, height)
		return
	}
	if len(pixels) < need {
		c.record(fn, INVALID_VALUE, "pixels has %d bytes, %dx%d needs %d", len(pixels), width, height, need)
		return
	}
	// Clip the rectangle to the framebuffer read from: the surface, or
	// the bound framebuffer object's colour attachment.
	bw, bh, _, hasColor := c.readBuffer()
	if !hasColor {
		if c.resolveFramebuffer(fn) {
			c.record(fn, INVALID_OPERATION, "the framebuffer has no colour attachment")
		}
		return
	}
	x0, y0 := max(x, 0), max(y, 0)
	x1, y1 := clipEnd(x, width, bw), clipEnd(y, height, bh)
	if x0 >= x1 || y0 >= y1 {
		return
	}
	img, err := c.readImage(fn, x0, y0, x1-x0, y1-y0)
	if err != nil {
		return
	}
	// A backend returns the rectangle asked for; copy no more than it
	// returned all the same.
	cols := min(x1-x0, img.Rect.Dx())
	rows := min(y1-y0, img.Rect.Dy())
	for r := 0; r < rows; r++ {
		wy := y1 - 1 - r
		src := img.Pix[r*img.Stride:]
		dst := pixels[(wy-y)*stride+(x0-x)*4:]
		copy(dst[:cols*4], src[:cols*4])
	}
}
