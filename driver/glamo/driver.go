// Package glamo is the GL ES 1.1 driver for the SMedia Glamo3365 3D
// engine. It runs the fixed-function pipeline on the chip: transform,
// lighting, fog, texture coordinate transform and clipping on the geometry
// and lighting engine; two texture units and the texture-blend unit;
// alpha, stencil, Z, blending, dither, logic op and write masks in the
// pixel engine. Command buffers are 16-bit register writes built with
// hal/glamo; the driver keeps a shadow of every register it wrote and
// sends only changes.
//
// Mapping decisions (the seed and guide named beside each):
//   - GL's y-up window maps to the chip's y-down window (P10) through a
//     negative RGXScaleY. The flip keeps what a triangle looks like, so a
//     GL counter-clockwise triangle is counter-clockwise on the chip too
//     (its area changes sign with the axis): that picks the cull
//     direction and the face that gets the negated normal.
//   - T1 holds projection x model-view and Mwv the model-view, written in
//     the hardware's row-vector order, which is mgl32's column-major array
//     order; InvMwv holds GL's normal matrix.
//   - Lights use the OpenGL light mode (2604h D14) with the register
//     values the seed gives for OpenGL (L1574-1582).
//   - Fences: every buffer ends with a write of its sequence number to
//     software register A (2170h); after a device fence the driver reads
//     it back with EGSTATUSA (2054h) when the device allows register reads
//     (glamo.RegReader).
package glamo

import (
	"errors"
	"fmt"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	hg "github.com/retrogl/retrogl/hal/glamo"
)

// Driver is the Glamo3365 driver bound to one device.
type Driver struct {
	dev  hal.Device
	caps *driver.Caps
}

// New binds a driver to a Glamo3365 device.
func New(dev hal.Device) (driver.Driver, error) {
	if dev.Info().Chip != hg.Chip {
		return nil, fmt.Errorf("glamo3365 driver: device is %q", dev.Info().Chip)
	}
	if _, ok := dev.Info().Region("vram"); !ok {
		return nil, errors.New("glamo3365 driver: device has no vram region")
	}
	return &Driver{dev: dev, caps: newCaps()}, nil
}

// MaxSurface is the largest surface side: window coordinates, scissor and
// clip values are s9 (-512..511, P9), so a surface may be 512 pixels wide.
const MaxSurface = 512

func newCaps() *driver.Caps {
	c := &driver.Caps{
		Name:     "glamo3365",
		Vendor:   "retrogl",
		Renderer: "retrogl glamo3365 (SMedia Glamo3365 3D engine, simulated)",
		Version:  "OpenGL ES-CM 1.1",
		Extensions: []string{
			"GL_OES_blend_equation_separate",
			"GL_OES_blend_func_separate",
			"GL_OES_blend_subtract",
			"GL_OES_byte_coordinates",
			"GL_OES_compressed_paletted_texture",
			"GL_OES_draw_texture",
			"GL_OES_fixed_point",
			"GL_OES_matrix_palette",
			"GL_OES_point_size_array",
			"GL_OES_point_sprite",
			"GL_OES_read_format",
			"GL_OES_single_precision",
			"GL_OES_stencil_wrap",
			"GL_OES_texture_mirrored_repeat",
			"GL_EXT_blend_minmax",
			"GL_OES_compressed_ETC1_RGB8_texture",
		},
		Limits: driver.Limits{
			MaxTextureSize: 256, MaxTextureUnits: 2, MaxLights: 8, MaxClipPlanes: 1,
			MaxModelviewStackDepth: 16, MaxProjectionStackDepth: 2, MaxTextureStackDepth: 2,
			MaxViewportDims:       [2]int{MaxSurface, MaxSurface},
			AliasedPointSizeRange: [2]float32{1, 256}, SmoothPointSizeRange: [2]float32{1, 256},
			AliasedLineWidthRange: [2]float32{1, 256}, SmoothLineWidthRange: [2]float32{1, 256},
			MaxElementsVertices: 1 << 20, MaxElementsIndices: 1 << 20,
			SubpixelBits: 4, MaxPaletteMatrices: driver.MaxPaletteMatrix, MaxVertexUnits: driver.MaxVertexUnits,
			Extra: map[string]int{
				"texture_blend_stages":   2,
				"vertex_streams":         8,
				"palette_entries":        256,
				"max_texture_levels":     9,
				"max_vertices_per_list":  1<<20 - 1,
				"vertex_stride_max":      255,
				"surface_pitch_max":      2046,
				"vram_bytes":             8 << 20,
				"datasheet_polygons_s":   1000000,
				"datasheet_pixels_s":     33000000,
				"internal_mantissa_bits": 16,
			},
		},
		Features: driver.Features(0).With(
			driver.FeaturePoints, driver.FeatureLines, driver.FeatureTexture2D, driver.FeatureMultitexture,
			driver.FeatureTexEnvCombine, driver.FeatureLighting, driver.FeatureFog, driver.FeatureAlphaTest,
			driver.FeatureStencil, driver.FeatureBlend, driver.FeatureLogicOp, driver.FeatureColorMask,
			driver.FeatureDither, driver.FeaturePolygonOffset, driver.FeatureClipPlanes, driver.FeaturePointSize,
			driver.FeatureLineWidth, driver.FeaturePointSprite, driver.FeaturePointSizeArray,
			driver.FeatureDrawTexture, driver.FeaturePalettedTextures, driver.FeatureCopyTexImage,
			driver.FeatureGenerateMipmap, driver.FeatureMatrixPalette,
		),
		ColorFormats: []driver.PixelFormat{driver.FormatRGB565, driver.FormatARGB4444, driver.FormatARGB1555},
		DepthBits:    []int{0, 16},
		StencilBits:  []int{0, 1, 4, 8},
		Default:      driver.SurfaceConfig{Width: 480, Height: 480, Format: driver.FormatRGB565, DepthBits: 16},
		TextureFormats: []string{
			"RGB565", "RGBA4444", "RGBA5551", "L8", "A8", "LA88", "PALETTE4_R5_G6_B5", "PALETTE4_RGBA4",
			"PALETTE4_RGB5_A1", "PALETTE8_R5_G6_B5", "PALETTE8_RGBA4", "PALETTE8_RGB5_A1",
			"RGBA8888 (as RGBA4444)", "RGB888 (as RGB565)", "PALETTE4/8_RGB8 (as RGB565 palette)",
			"PALETTE4/8_RGBA8 (as RGBA4444 palette)", "ETC1 (decoded to RGB565)",
		},
		Where: []driver.Placement{
			{Stage: "ES 1.1 vertex", Runs: "the chip's geometry and lighting engine, in its s[7].16 fixed point"},
		},
		Emulated: []driver.Emulation{
			{Feature: "matrix stacks", How: "kept by the driver; T1 = projection x model-view, Mwv = model-view, InvMwv = normal matrix"},
			{Feature: "point sprites with COORD_REPLACE on some units only",
				How:  "the chip replaces every unit's coordinates on a sprite (260Ch D14): such draws take the software path, each sprite two triangles whose replacing units get the sprite coordinates and the others the vertex's",
				Cost: "software T&L for the draw; two triangles per point"},
			{Feature: "client-side arrays and buffer objects", How: "the used vertex range is copied into VRAM for every draw; the streams read it there"},
			{Feature: "normals of type BYTE or SHORT", How: "converted to float on the CPU: the chip reads byte normals as s.7 (L1973), GL as (2c+1)/255"},
			{Feature: "vertex strides above 255 bytes", How: "repacked on the CPU (the stream stride is 8 bits, L641)"},
			{Feature: "GL_LINE_LOOP", How: "a line strip in stream-index mode with the first index repeated"},
			{Feature: "glClear", How: "a screen-space rectangle through the immediate vertex port (RGXScrCoor, EGFIRE) with the write masks"},
			{Feature: "ReadPixels, CopyTexImage2D, CopyTexSubImage2D", How: "CPU reads of the colour buffer in VRAM"},
			{Feature: "GL_GENERATE_MIPMAP", How: "box-filtered on the CPU by the state tracker"},
			{Feature: "RGBA8888 and RGB888 textures", How: "converted to RGBA4444 and RGB565 (lossy)"},
			{Feature: "RGB8 and RGBA8 palettes", How: "converted to RGB565 and RGBA4444 palette entries (lossy)"},
			{Feature: "ETC1 textures", How: "decoded on the CPU to RGB565"},
			{Feature: "smooth points and lines", How: "the chip's AA path: a coverage texture the driver creates in the first free texture unit"},
			{Feature: "OES_draw_texture", How: "a screen-space textured rectangle through the immediate vertex port"},
			{Feature: "OES_matrix_palette", How: "driver/swtnl on the CPU (GL float arithmetic, not the chip's s[7].16); window-space vertices then go through the streams with RGXScrCoor"},
			{Feature: "flat shading with fog", How: "driver/swtnl on the CPU, as for OES_matrix_palette: the chip's flat shading would flatten the vertex fog factor with the specular colour"},
			{Feature: "projective texture coordinates", How: "the G/L engine divides s and t by q per vertex (the RGX ports hold U and V only), not per pixel"},
		},
	}
	c.Missing = append(c.Missing,
		driver.Missing{Feature: driver.FeatureShaders, Why: "fixed-function chip: OpenGL ES 1.1 only"},
		driver.Missing{Feature: driver.FeatureFramebufferObjects, Why: "not implemented in the glamo3365 backend"},
	)
	c.FillMissing("not implemented in the glamo3365 backend")
	return c
}

// Caps implements driver.Driver.
func (d *Driver) Caps() *driver.Caps { return d.caps }

// Device implements driver.Driver.
func (d *Driver) Device() hal.Device { return d.dev }

// Close implements driver.Driver.
func (d *Driver) Close() error { return d.dev.Close() }

// cfmtOf maps surface formats to EGDST0CFM (L2667-2708).
var cfmtOf = map[driver.PixelFormat]string{
	driver.FormatRGB565: "RGB565", driver.FormatARGB4444: "ARGB4444", driver.FormatARGB1555: "ARGB1555",
}

// NewContext implements driver.Driver: it allocates the colour, Z and
// stencil buffers in VRAM.
func (d *Driver) NewContext(cfg driver.SurfaceConfig) (driver.Context, error) {
	if _, ok := cfmtOf[cfg.Format]; !ok {
		return nil, fmt.Errorf("glamo3365: colour format %v not supported", cfg.Format)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxSurface || cfg.Height > MaxSurface {
		return nil, fmt.Errorf("glamo3365: surface %dx%d outside 1x1..%dx%d", cfg.Width, cfg.Height, MaxSurface, MaxSurface)
	}
	if cfg.DepthBits > 16 || cfg.StencilBits > 8 {
		return nil, fmt.Errorf("glamo3365: %d depth / %d stencil bits not available", cfg.DepthBits, cfg.StencilBits)
	}
	c := &Context{drv: d, dev: d.dev, cfg: cfg}
	c.pitch = uint32((2*cfg.Width + 7) &^ 7)
	var err error
	alloc := func(size uint32, what string) (hal.Allocation, error) {
		a, err := d.dev.Alloc(size, 64, "vram")
		if err != nil {
			return a, fmt.Errorf("glamo3365: %s buffer %dx%d: %w", what, cfg.Width, cfg.Height, err)
		}
		c.owned = append(c.owned, a)
		return a, nil
	}
	if c.fb, err = alloc(c.pitch*uint32(cfg.Height), "colour"); err != nil {
		return nil, errors.Join(err, c.freeOwned())
	}
	if cfg.DepthBits > 0 {
		if c.zb, err = alloc(c.pitch*uint32(cfg.Height), "depth"); err != nil {
			return nil, errors.Join(err, c.freeOwned())
		}
	}
	if cfg.StencilBits > 0 {
		c.spitch = uint32((cfg.Width + 7) &^ 7)
		if c.sb, err = alloc(c.spitch*uint32(cfg.Height), "stencil"); err != nil {
			return nil, errors.Join(err, c.freeOwned())
		}
	}
	c.up = driver.NewUploader(d.dev, "vram", 256<<10)
	c.up.SetReclaim(c.reclaim)
	c.tex = map[uint32]*texObj{}
	c.rr, _ = d.dev.(hg.RegReader)
	return c, nil
}
