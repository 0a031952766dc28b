// Package driver is the contract between the GL state tracker (package
// gles) and a chip backend, Gallium-like: the state tracker validates the
// API, owns the objects and hands each draw a resolved State snapshot and a
// DrawCall; the backend turns them into command words in device memory and
// submits them through a hal.Device.
//
// A backend registers itself by name (Register); the wiring package
// (github.com/retrogl/retrogl/backends) pairs each driver with its simulated
// device. Apps never import a chip package.
package driver

import (
	"errors"
	"fmt"
	"image"
	"io"
	"sort"
	"sync"

	"github.com/retrogl/retrogl/hal"
)

// Driver is one backend bound to one device.
type Driver interface {
	// Caps describes what the backend can do; the result must not be
	// modified.
	Caps() *Caps
	// Device returns the device the driver submits to.
	Device() hal.Device
	// NewContext creates a rendering context with an offscreen surface.
	NewContext(cfg SurfaceConfig) (Context, error)
	// Close releases the device.
	Close() error
}

// Context renders into one offscreen surface.
type Context interface {
	// Config returns the surface configuration actually chosen.
	Config() SurfaceConfig
	// Draw renders one draw call with the given state. The state tracker
	// has validated both; a backend returns an error only for device faults
	// or for an Unsupported feature.
	Draw(st *State, dc *DrawCall) error
	// Clear clears the buffers in mask inside the scissor rectangle (when
	// st.ScissorTest is set), honouring the colour and stencil write masks,
	// as glClear does.
	Clear(st *State, mask ClearMask, color [4]float32, depth float32, stencil int) error
	// ReadPixels returns the colour buffer rectangle with lower-left corner
	// (x, y) in GL window coordinates; the image's first row is the top row
	// (window row y+h-1). The rectangle lies inside the surface.
	ReadPixels(x, y, w, h int) (*image.NRGBA, error)
	// Flush submits pending work.
	Flush() error
	// Finish submits pending work and waits for it.
	Finish() error
	// ReleaseTexture drops the device copy of texture object id.
	ReleaseTexture(id uint32)
	// ReleaseBuffer drops the device copy of buffer object id.
	ReleaseBuffer(id uint32)
	// Close releases the context's device memory.
	Close() error
}

// DepthStencilReader is implemented by contexts that can read back depth and
// stencil values (for tests and tools; ES 1.1 has no such call).
type DepthStencilReader interface {
	// ReadDepth returns the depth at window (x, y) scaled to [0, 1].
	ReadDepth(x, y int) (float32, error)
	// ReadStencil returns the stencil value at window (x, y).
	ReadStencil(x, y int) (int, error)
}

// ClearMask selects the buffers Clear clears.
type ClearMask uint8

// The buffers of a surface.
const (
	ClearColor ClearMask = 1 << iota
	ClearDepth
	ClearStencil
)

// PixelFormat is a colour-buffer format. Names list components from the
// least significant bit.
type PixelFormat uint8

// The colour formats the backends use.
const (
	FormatRGBA8888 PixelFormat = iota + 1
	FormatRGB565
	FormatRGBA5551
	FormatRGBA4444
	FormatARGB4444
	FormatARGB1555
)

var pixelFormatNames = map[PixelFormat]string{
	FormatRGBA8888: "RGBA8888", FormatRGB565: "RGB565", FormatRGBA5551: "RGBA5551",
	FormatRGBA4444: "RGBA4444", FormatARGB4444: "ARGB4444", FormatARGB1555: "ARGB1555",
}

// String returns the format name.
func (f PixelFormat) String() string {
	if s, ok := pixelFormatNames[f]; ok {
		return s
	}
	return fmt.Sprintf("PixelFormat(%d)", uint8(f))
}

// MarshalText implements encoding.TextMarshaler.
func (f PixelFormat) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// Bits returns the red, green, blue and alpha bit counts.
func (f PixelFormat) Bits() (r, g, b, a int) {
	switch f {
	case FormatRGBA8888:
		return 8, 8, 8, 8
	case FormatRGB565:
		return 5, 6, 5, 0
	case FormatRGBA5551, FormatARGB1555:
		return 5, 5, 5, 1
	case FormatRGBA4444, FormatARGB4444:
		return 4, 4, 4, 4
	}
	return 0, 0, 0, 0
}

// SurfaceConfig is an EGL-like surface configuration. Zero fields ask for
// the backend's default.
type SurfaceConfig struct {
	Width, Height int
	Format        PixelFormat
	DepthBits     int
	StencilBits   int
	// NoAlpha is set by a backend whose colour buffer keeps no alpha even
	// though Format has alpha bits (the PSP GE's alpha bits hold the
	// stencil): GL_ALPHA_BITS is 0 and GL's rules for a framebuffer
	// without alpha apply (destination alpha reads 1).
	NoAlpha bool
}

// AlphaBits returns the alpha bits GL sees.
func (c SurfaceConfig) AlphaBits() int {
	if c.NoAlpha {
		return 0
	}
	_, _, _, a := c.Format.Bits()
	return a
}

// Unsupported is the error a backend returns for a draw that needs a
// feature it lists as missing in Caps.
type Unsupported struct {
	Backend string
	Feature Feature
	Why     string
}

// Error implements error.
func (u *Unsupported) Error() string {
	s := fmt.Sprintf("%s: %s is not supported", u.Backend, u.Feature)
	if u.Why != "" {
		s += ": " + u.Why
	}
	return s
}

// ErrOutOfMemory is wrapped by a backend's error when the device ran out
// of memory (it is hal.ErrOutOfMemory); the state tracker reports such an
// error as GL_OUT_OF_MEMORY.
var ErrOutOfMemory = hal.ErrOutOfMemory

// Backend is a registered backend: how to create its device and its driver.
type Backend struct {
	// Name is the backend name users pass ("pspge").
	Name string
	// NewDevice creates a fresh device (a simulator, or real hardware).
	NewDevice func() (hal.Device, error)
	// NewDriver binds a driver to a device.
	NewDriver func(dev hal.Device) (Driver, error)
}

var (
	regMu    sync.Mutex
	registry = map[string]Backend{}
)

// Register adds a backend. It panics on a duplicate name: registration is a
// programming-time act, done from init functions.
func Register(b Backend) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[b.Name]; dup {
		panic("driver: duplicate backend " + b.Name)
	}
	registry[b.Name] = b
}

// Names returns the registered backend names in a fixed order: the order of
// DESIGN.md's table for the five chips, then any others alphabetically.
func Names() []string {
	regMu.Lock()
	defer regMu.Unlock()
	rank := map[string]int{"glamo3365": 1, "pspge": 2, "pica200": 3, "unichrome": 4, "r300": 5}
	var names []string
	for n := range registry {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := rank[names[i]], rank[names[j]]
		if ri == 0 {
			ri = 100
		}
		if rj == 0 {
			rj = 100
		}
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	return names
}

// Lookup returns the backend registered under name.
func Lookup(name string) (Backend, error) {
	regMu.Lock()
	defer regMu.Unlock()
	b, ok := registry[name]
	if !ok {
		var names []string
		for n := range registry {
			names = append(names, n)
		}
		sort.Strings(names)
		return Backend{}, fmt.Errorf("unknown backend %q (registered: %v)", name, names)
	}
	return b, nil
}

// OpenOptions tune Open.
type OpenOptions struct {
	// Capture, when set, receives a capture of everything the driver does
	// with its device (see hal.NewCapture). It is complete after Close.
	Capture io.Writer
	// Workers, when not zero, is passed to a device that implements
	// hal.Parallel: the number of goroutines its simulator shades with
	// (negative: one per CPU). Output does not depend on it.
	Workers int
	// Wrap, when set, wraps the device (after Capture) before the driver
	// sees it: a tool watches what the driver submits (cmd/rglview maps
	// command words to the GL calls that emitted them).
	Wrap func(hal.Device) hal.Device
}

// Open creates a device and a driver for the named backend.
func Open(name string, opt OpenOptions) (Driver, error) {
	b, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	dev, err := b.NewDevice()
	if err != nil {
		return nil, fmt.Errorf("%s: new device: %w", name, err)
	}
	if p, ok := dev.(hal.Parallel); ok && opt.Workers != 0 {
		p.SetWorkers(opt.Workers)
	}
	if opt.Capture != nil {
		c, err := hal.NewCapture(dev, opt.Capture)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("%s: capture: %w", name, err), dev.Close())
		}
		dev = c
	}
	if opt.Wrap != nil {
		dev = opt.Wrap(dev)
	}
	drv, err := b.NewDriver(dev)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("%s: new driver: %w", name, err), dev.Close())
	}
	return drv, nil
}
