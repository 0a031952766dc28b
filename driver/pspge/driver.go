// Package pspge is the GL ES driver for the PSP Graphics Engine. It builds
// display lists in device memory with the words of hal/pspge, keeps a
// shadow of every register it wrote so that unchanged state is not sent
// again, and submits one list per flush, ended by FINISH and END.
//
// Mapping decisions (guide shared/notes/pspge.md §4):
//   - The framebuffer's drawing origin sits at (2048-W/2, 2048-H/2) in the
//     GE's 4096x4096 screen space (OFFSETX/OFFSETY), as pspsdk does, so
//     geometry may extend 2048 pixels past every edge before the 12.4
//     coordinates run out.
//   - GL's y-up window maps to the GE's y-down screen through a negative
//     YSCALE; a GL counter-clockwise front face is therefore clockwise on the
//     GE screen, which FFACE 0 makes visible.
//   - WORLD holds the model-view matrix and VIEW the identity, so that the
//     GE's world space is GL's eye space (lighting and fog then match GL).
//     A model-view matrix with a projective last row cannot be a 4x3 WORLD;
//     it is folded into PROJ instead.
//   - Window depth [0, 1] maps to the GE's 16-bit Z [0, 65535] with the GL
//     comparison kept as is (LESS means nearer).
//   - Vertices are repacked into one VTYPE layout: float texture
//     coordinates, 8888 colour, float normal, float position.
package pspge

import (
	"errors"
	"fmt"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
)

// Driver is the GE driver bound to one device.
type Driver struct {
	dev  hal.Device
	caps *driver.Caps
}

// New binds a driver to a GE device.
func New(dev hal.Device) (driver.Driver, error) {
	if dev.Info().Chip != "pspge" {
		return nil, fmt.Errorf("pspge driver: device is %q", dev.Info().Chip)
	}
	return &Driver{dev: dev, caps: newCaps()}, nil
}

func newCaps() *driver.Caps {
	c := &driver.Caps{
		Name:     "pspge",
		Vendor:   "retrogl",
		Renderer: "retrogl pspge (Sony PSP Graphics Engine, simulated)",
		Version:  "OpenGL ES-CM 1.1",
		Extensions: []string{
			"GL_OES_byte_coordinates",
			"GL_OES_fixed_point",
			"GL_OES_read_format",
			"GL_OES_single_precision",
		},
		Limits: driver.Limits{
			MaxTextureSize: 512, MaxTextureUnits: 1, MaxLights: 8, MaxClipPlanes: 1,
			MaxModelviewStackDepth: 16, MaxProjectionStackDepth: 2, MaxTextureStackDepth: 2,
			MaxViewportDims:       [2]int{512, 512},
			AliasedPointSizeRange: [2]float32{1, 1}, SmoothPointSizeRange: [2]float32{1, 1},
			AliasedLineWidthRange: [2]float32{1, 1}, SmoothLineWidthRange: [2]float32{1, 1},
			MaxElementsVertices: 65536, MaxElementsIndices: 65535,
			SubpixelBits: 4,
		},
		Features:       driver.Features(0).With(driver.FeatureCopyTexImage, driver.FeatureGenerateMipmap),
		ColorFormats:   []driver.PixelFormat{driver.FormatRGBA8888, driver.FormatRGB565, driver.FormatRGBA5551, driver.FormatRGBA4444},
		DepthBits:      []int{0, 16},
		StencilBits:    []int{0, 1, 4, 8},
		Default:        driver.SurfaceConfig{Width: 480, Height: 272, Format: driver.FormatRGBA8888, DepthBits: 16},
		TextureFormats: nil,
		Emulated: []driver.Emulation{
			{Feature: "matrix stacks", How: "kept by the driver; WORLD = model-view, VIEW = identity, PROJ = projection"},
			{Feature: "client arrays of any type and stride", How: "repacked on the CPU into one VTYPE layout (float UV, 8888 colour, float normal, float position)"},
			{Feature: "DrawElements", How: "indices rebased to the uploaded vertex range (8/16-bit IADDR)"},
			{Feature: "CopyTexImage2D/CopyTexSubImage2D", How: "colour buffer read back by the CPU (gles), then uploaded as a texture"},
			{Feature: "GENERATE_MIPMAP", How: "2x2 box filter on the CPU (gles)"},
			{Feature: "far-plane clipping", How: "none: the GE clamps depth to [0, 65535] instead of clipping at the far plane"},
		},
	}
	c.FillMissing("not implemented in the pspge backend yet")
	return c
}

// Caps implements driver.Driver.
func (d *Driver) Caps() *driver.Caps { return d.caps }

// Device implements driver.Driver.
func (d *Driver) Device() hal.Device { return d.dev }

// Close implements driver.Driver.
func (d *Driver) Close() error { return d.dev.Close() }

// NewContext implements driver.Driver: it allocates the colour and depth
// buffers in VRAM.
func (d *Driver) NewContext(cfg driver.SurfaceConfig) (driver.Context, error) {
	psm, ok := psmOf[cfg.Format]
	if !ok {
		return nil, fmt.Errorf("pspge: colour format %v not supported", cfg.Format)
	}
	if cfg.StencilBits > stencilBitsOf[psm] {
		return nil, fmt.Errorf("pspge: %d stencil bits requested, %v keeps stencil in its %d alpha bits",
			cfg.StencilBits, cfg.Format, stencilBitsOf[psm])
	}
	if cfg.StencilBits > 0 {
		cfg.StencilBits = stencilBitsOf[psm]
	}
	c := &Context{drv: d, dev: d.dev, cfg: cfg, psm: psm}
	c.stride = (cfg.Width + 63) &^ 63
	bpp := 2
	if psm == 3 {
		bpp = 4
	}
	var err error
	c.fb, err = d.dev.Alloc(uint32(c.stride*cfg.Height*bpp), 16, "vram")
	if err != nil {
		return nil, fmt.Errorf("pspge: colour buffer %dx%d: %w", cfg.Width, cfg.Height, err)
	}
	if cfg.DepthBits > 0 {
		c.zb, err = d.dev.Alloc(uint32(c.stride*cfg.Height*2), 16, "vram")
		if err != nil {
			return nil, errors.Join(fmt.Errorf("pspge: depth buffer: %w", err), d.dev.Free(c.fb))
		}
	}
	c.up = driver.NewUploader(d.dev, "ram", 256<<10)
	c.list.init()
	return c, nil
}

// psmOf maps surface formats to PSM codes (seed L811-816).
var psmOf = map[driver.PixelFormat]uint32{
	driver.FormatRGB565: 0, driver.FormatRGBA5551: 1, driver.FormatRGBA4444: 2, driver.FormatRGBA8888: 3,
}

// stencilBitsOf is the number of alpha bits the stencil shares per PSM
// (guide hazard 4).
var stencilBitsOf = [4]int{0, 1, 4, 8}
