// Package unichrome is the GL ES 1.1 driver for the VIA UniChrome Pro II 3D
// engine. The chip only rasterises: the driver runs transform, lighting,
// texture matrices, fog factors, point sizes and clipping on the CPU
// (driver/swtnl) and streams screen-space vertices, with the state mapped
// onto the engine's registers through hal/unichrome. It keeps a shadow of
// every register it wrote and sends only changes, in header-2 groups per
// register file, and submits one command list per flush, ended by the
// HCRFlagNum write-back.
//
// Mapping decisions (guide shared/notes/unichrome.md §6):
//   - GL's y-up window maps to the engine's y-down screen (y' = H - y); the
//     picture stays upright, so windings as seen on the screen agree:
//     culling uses HenBFCull with HBFace chosen from glFrontFace and
//     glCullFace; FRONT_AND_BACK is dropped in software.
//   - Points follow GL's aliased-point rule (ES 1.1 §3.3.1): size-1 points
//     are sent at the centre of the pixel GL truncates them to, wider ones
//     as squares centred at floor(x)+1/2 (odd sizes) or floor(x+1/2)
//     (even), so the y flip never decides a tie.
//   - Window depth [0, 1] feeds Z directly (Z16, or Z24 with 8 stencil
//     bits); polygon offset uses the engine's Z bias (HZBiasScale = factor,
//     HZBias = units x 2^(32-N)).
//   - The texture environment (legacy modes per base format, and COMBINE)
//     becomes the two blending stages: one chip stage per enabled GL unit,
//     in order.
//   - Fog is computed per vertex (swtnl) and sent in Cs bits 31:24 with the
//     engine's local fog (mode 000, equation 0).
//   - Wide points, point sprites, wide lines and DrawTex are triangles;
//     clears are solid-shaded rectangles with Z and stencil writes.
package unichrome

import (
	"errors"
	"fmt"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
)

// Driver is the UniChrome driver bound to one device.
type Driver struct {
	dev  hal.Device
	caps *driver.Caps
}

// New binds a driver to a UniChrome device.
func New(dev hal.Device) (driver.Driver, error) {
	if dev.Info().Chip != "unichrome" {
		return nil, fmt.Errorf("unichrome driver: device is %q", dev.Info().Chip)
	}
	if _, ok := dev.Info().Region("vram"); !ok {
		return nil, errors.New("unichrome driver: device has no vram region")
	}
	return &Driver{dev: dev, caps: newCaps()}, nil
}

// MaxPointSize is the largest point (and line width) the driver draws as
// triangles.
const MaxPointSize = 256

// MaxSurface is the largest surface width and height, and the viewport
// limit: 2047. The clip rectangle every primitive is drawn through holds
// 11-bit values, "in the range from 0 to 2047" (seed L2553-2557, HClipT/B
// and HClipL/R), with bottom and right exclusive (guide: drivers write
// y1<<12 | y1+h, [OUT] from VIA's DRI driver). An exclusive 2048 does not
// fit the field: it wrapped to 0 and a 2048-wide or -high surface drew
// nothing. Row and column 2047 cannot be inside the rectangle, so the
// surface stops at 2047 and 2048 is refused when the context is created.
const MaxSurface = 2047

func newCaps() *driver.Caps {
	c := &driver.Caps{
		Name:     "unichrome",
		Vendor:   "retrogl",
		Renderer: "retrogl unichrome (VIA UniChrome Pro II, CX700, simulated)",
		Version:  "OpenGL ES-CM 1.1",
		Extensions: []string{
			"GL_EXT_blend_minmax",
			"GL_EXT_texture_compression_dxt1",
			"GL_EXT_texture_compression_s3tc",
			"GL_OES_blend_equation_separate",
			"GL_OES_blend_func_separate",
			"GL_OES_blend_subtract",
			"GL_OES_byte_coordinates",
			"GL_OES_compressed_ETC1_RGB8_texture",
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
		},
		Limits: driver.Limits{
			MaxTextureSize: 2048, MaxTextureUnits: 2, MaxLights: 8, MaxClipPlanes: 6,
			MaxModelviewStackDepth: 16, MaxProjectionStackDepth: 2, MaxTextureStackDepth: 2,
			MaxViewportDims:       [2]int{MaxSurface, MaxSurface},
			AliasedPointSizeRange: [2]float32{1, MaxPointSize}, SmoothPointSizeRange: [2]float32{1, MaxPointSize},
			AliasedLineWidthRange: [2]float32{1, MaxPointSize}, SmoothLineWidthRange: [2]float32{1, MaxPointSize},
			MaxElementsVertices: 65536, MaxElementsIndices: 65536,
			SubpixelBits: 4, MaxPaletteMatrices: driver.MaxPaletteMatrix, MaxVertexUnits: driver.MaxVertexUnits,
			Extra: map[string]int{
				"max_texture_levels":        12,
				"texture_blend_stages":      2,
				"vertex_dwords_max":         10,
				"clip_range":                MaxSurface,
				"transmission_space_dwords": 176,
				"texture_palette_entries":   256,
				"fog_table_entries":         256,
			},
		},
		Features: driver.Features(0).With(
			driver.FeaturePoints, driver.FeatureLines, driver.FeatureTexture2D, driver.FeatureMultitexture,
			driver.FeatureTexEnvCombine, driver.FeatureLighting, driver.FeatureFog, driver.FeatureAlphaTest,
			driver.FeatureStencil, driver.FeatureBlend, driver.FeatureLogicOp, driver.FeatureColorMask,
			driver.FeatureDither, driver.FeaturePolygonOffset, driver.FeatureClipPlanes, driver.FeaturePointSize,
			driver.FeatureLineWidth, driver.FeaturePointSprite, driver.FeaturePointSizeArray,
			driver.FeatureMatrixPalette, driver.FeatureDrawTexture, driver.FeaturePalettedTextures,
			driver.FeatureCopyTexImage, driver.FeatureGenerateMipmap,
		),
		ColorFormats: []driver.PixelFormat{driver.FormatRGBA8888, driver.FormatRGB565, driver.FormatRGBA5551, driver.FormatRGBA4444},
		DepthBits:    []int{0, 16, 24},
		StencilBits:  []int{0, 8},
		Default:      driver.SurfaceConfig{Width: 640, Height: 480, Format: driver.FormatRGBA8888, DepthBits: 16},
		TextureFormats: []string{
			"RGBA8888 (ABGR8888)", "RGB888 (ABGR0888)", "RGB565", "RGBA4444", "RGBA5551", "L8", "A8", "LA88 (AL88)",
			"DXT1", "DXT3", "DXT5", "PALETTE4/8 (expanded)", "ETC1 (decoded)",
		},
		Where: []driver.Placement{
			{Stage: "ES 1.1 vertex", Runs: "driver/swtnl on the CPU"},
		},
		Emulated: []driver.Emulation{
			{Feature: "transform, lighting (8 lights), texture matrices, matrix palette", How: "software T&L on the CPU (driver/swtnl); the chip has no geometry unit"},
			{Feature: "clipping and 6 user clip planes", How: "software clipping against the view volume and the planes (driver/swtnl)"},
			{Feature: "viewport and depth range", How: "applied by software T&L; vertices arrive in window coordinates"},
			{Feature: "fog", How: "factor per vertex (software), applied per pixel by the engine's local fog (Cs bits 31:24, equation 0)"},
			{Feature: "wide points, point sprites, point size arrays", How: "two triangles per point, sprite coordinates generated on the CPU"},
			{Feature: "wide lines", How: "two triangles per line segment, widened along the minor axis"},
			{Feature: "OES_draw_texture", How: "a window-aligned textured rectangle of two triangles"},
			{Feature: "glClear", How: "solid-shaded rectangle clipped to the scissor, with Z write and stencil REPLACE under the write masks"},
			{Feature: "CULL_FACE FRONT_AND_BACK", How: "triangles dropped in software; other culling is the engine's"},
			{Feature: "projective texture coordinates", How: "S/q and T/q per vertex with W = q/w of the first unit (exact when q agrees across units)"},
			{Feature: "OES_compressed_paletted_texture, ETC1, RGB888", How: "expanded to ABGR8888 (ABGR0888 for RGB888) on upload: the engine has one palette for both units"},
			{Feature: "POINT_SMOOTH, LINE_SMOOTH", How: "drawn aliased: the engine's anti-aliasing is not simulated"},
			{Feature: "glCopyTexImage2D, GENERATE_MIPMAP", How: "done by the state tracker on the CPU"},
			{Feature: "client arrays of any type and stride", How: "fetched and converted on the CPU by software T&L"},
			{Feature: "GL_COMBINE DOT3_RGB, DOT3_RGBA",
				How:  "the shared fallback's software stage (driver/multipass): the CPU computes the fragment colours of the draw's non-overlapping batches (textures sampled with GL's filters, both units' environments, fog) into a texture, and the engine composites it at each fragment's window position with the application's tests, blending and masks; the engine's dot-product stage is garbled in the seed (L2723) and not simulated",
				Cost: "per batch: one texture upload of the batch's box and one composite pass; CPU shading of every pixel of the box"},
		},
		Missing: []driver.Missing{
			{Feature: driver.FeatureShaders, Why: "the UniChrome Pro II is a fixed-function chip (GL ES 1.1 only)"},
			{Feature: driver.FeatureFramebufferObjects, Why: "not implemented in the unichrome backend"},
		},
	}
	c.FillMissing("not implemented in the unichrome backend")
	return c
}

// Caps implements driver.Driver.
func (d *Driver) Caps() *driver.Caps { return d.caps }

// Device implements driver.Driver.
func (d *Driver) Device() hal.Device { return d.dev }

// Close implements driver.Driver.
func (d *Driver) Close() error { return d.dev.Close() }
