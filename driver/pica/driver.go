// Package pica is the GL ES 1.1 driver for the PICA200 (Nintendo 3DS GPU).
// It builds command buffers of 8-byte commands (hal/pica), keeps a shadow
// of every register and uniform it wrote so that unchanged state is not
// sent again, and submits one buffer per flush, ended by FINALIZE.
//
// Mapping decisions (guide shared/notes/pica200.md §5):
//   - Transform, lighting, texture-coordinate transforms and fog
//     coordinates are vertex shaders generated from the fixed-function
//     state (vsgen.go), written in picasso assembly, assembled by
//     hal/pica/picasso, cached by state and uploaded when they change. The
//     generated source is part of the golden command streams.
//   - GL's depth range folds into the projection: the generated shader
//     writes z' = -(z + w)/2, so that the PICA's clip volume -w <= z' <= 0
//     matches GL's, and DEPTHMAP_SCALE = n - f, DEPTHMAP_OFFSET = n.
//   - The texture environment maps onto the combiner stages, one stage per
//     enabled unit (tev.go); with no texture, stage 0 passes the primary
//     colour.
//   - glClear draws a rectangle with the clear colour as a combiner
//     constant, depth test ALWAYS and stencil REPLACE, so scissor and write
//     masks apply as GL requires (the PICA's memory-fill unit is an external
//     block the seed does not describe).
//   - Render targets and textures use the PICA's tiled layout with memory
//     row 0 at the top of the image; surfaces are padded to multiples of 8.
package pica

import (
	"errors"
	"fmt"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	p "github.com/retrogl/retrogl/hal/pica"
)

// Driver is the PICA200 driver bound to one device.
type Driver struct {
	dev  hal.Device
	caps *driver.Caps
}

// New binds a driver to a PICA200 device.
func New(dev hal.Device) (driver.Driver, error) {
	if dev.Info().Chip != p.Chip {
		return nil, fmt.Errorf("pica driver: device is %q", dev.Info().Chip)
	}
	return &Driver{dev: dev, caps: newCaps()}, nil
}

func newCaps() *driver.Caps {
	c := &driver.Caps{
		Name:     p.Chip,
		Vendor:   "retrogl",
		Renderer: "retrogl pica200 (Nintendo 3DS PICA200, simulated)",
		Version:  "OpenGL ES-CM 1.1",
		Extensions: []string{
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
			"GL_EXT_blend_minmax",
			"GL_RETRO_pica_shader_binary",
			"GL_RETRO_pica_vertex_shader",
		},
		Limits: driver.Limits{
			MaxTextureSize: 1024, MaxTextureUnits: 3, MaxLights: 8, MaxClipPlanes: 1,
			MaxModelviewStackDepth: 16, MaxProjectionStackDepth: 2, MaxTextureStackDepth: 2,
			MaxViewportDims:       [2]int{1024, 1024},
			AliasedPointSizeRange: [2]float32{1, maxPointSize}, SmoothPointSizeRange: [2]float32{1, 1},
			AliasedLineWidthRange: [2]float32{1, maxLineWidth}, SmoothLineWidthRange: [2]float32{1, 1},
			MaxElementsVertices: 65536, MaxElementsIndices: 65536,
			SubpixelBits:       4,
			MaxPaletteMatrices: driver.MaxPaletteMatrix, MaxVertexUnits: driver.MaxVertexUnits,
			Extra: map[string]int{
				"combiner_stages": 6, "vertex_float_uniforms": 96, "vertex_int_uniforms": 4,
				"vertex_bool_uniforms": 16, "vertex_inputs": 16, "vertex_outputs_to_rasterizer": 7,
				"shader_code_words": 4096, "operand_descriptors": 128,
			},
		},
		Features: driver.Features(0).With(driver.FeatureTexture2D, driver.FeatureMultitexture,
			driver.FeatureTexEnvCombine, driver.FeatureLighting, driver.FeatureAlphaTest, driver.FeatureStencil,
			driver.FeatureBlend, driver.FeatureLogicOp, driver.FeatureColorMask, driver.FeatureClipPlanes,
			driver.FeatureFog, driver.FeaturePolygonOffset, driver.FeaturePalettedTextures,
			driver.FeaturePoints, driver.FeatureLines, driver.FeaturePointSize, driver.FeatureLineWidth,
			driver.FeaturePointSprite, driver.FeaturePointSizeArray, driver.FeatureGenerateMipmap, driver.FeatureCopyTexImage, driver.FeatureDrawTexture,
			driver.FeatureMatrixPalette, driver.FeatureDither),
		ColorFormats:   []driver.PixelFormat{driver.FormatRGBA8888, driver.FormatRGB565, driver.FormatRGBA5551, driver.FormatRGBA4444},
		DepthBits:      []int{0, 16, 24},
		StencilBits:    []int{0, 8},
		Default:        driver.SurfaceConfig{Width: 400, Height: 240, Format: driver.FormatRGBA8888, DepthBits: 24},
		TextureFormats: []string{"RGBA8888", "RGB888", "RGB565", "RGBA4444", "RGBA5551", "L8", "A8", "LA88", "PALETTE4", "PALETTE8", "ETC1"},
		Where: []driver.Placement{
			{Stage: "ES 1.1 vertex", Runs: "generated vertex shaders on the simulated shader unit"},
			{Stage: "GLSL vertex shader (GL_RETRO_pica_vertex_shader)", Runs: "the shader unit (compiler/pica), float24; loops on its LOOP instruction"},
			{Stage: "SHBIN vertex shader (GL_RETRO_pica_shader_binary)", Runs: "the shader unit, as assembled"},
			{Stage: "fragments", Runs: "the fixed-function combiners (six stages), fog LUT and per-fragment operations"},
		},
		Emulated: []driver.Emulation{
			{Feature: "transform and lighting", How: "vertex shaders generated from the fixed-function state and run on the PICA's shader unit"},
			{Feature: "texture environment", How: "mapped onto the six combiner stages, one stage per enabled unit"},
			{Feature: "glClear", How: "a drawn rectangle (combiner constant colour, depth ALWAYS, stencil REPLACE), honouring scissor and write masks"},
			{Feature: "paletted and ETC1 textures", How: "expanded to RGBA8 on the CPU before tiling (the driver does not re-pack ETC1 blocks for the PICA's bottom-up rows)"},
			{Feature: "textures with a side under 8 texels", How: "laid out 8 texels wide on the CPU as the wrap mode reads beyond the image (repeated, mirrored or edge texels), texture coordinates scaled by size/8 in the generated shader: filtering and mipmap levels as GL specifies"},
			{Feature: "vertex arrays of any type", How: "repacked on the CPU into one float attribute buffer (the PICA has no normalised or fixed-point attributes)"},
			{Feature: "fog", How: "per-fragment 128-entry fog LUT over window depth, filled from the fog equation with eye distance reconstructed from the projection"},
			{Feature: "projective texture coordinates", How: "unit 0 divides by q per pixel (the PICA's projection texture type, q output as texcoord0.w); units 1 and 2 have no such type: their generated shader divides per vertex, exact only where q is equal at every vertex of a primitive"},
			{Feature: "glCopyTexImage2D, GL_GENERATE_MIPMAP", How: "by the state tracker on the CPU (ReadPixels and box filtering), then uploaded like any texture"},
			{Feature: "polygon offset", How: "constant units only, added to DEPTHMAP_OFFSET; the slope factor is ignored"},
			{Feature: "points", How: "two triangles per point, corners placed by the generated vertex shader (size, distance attenuation, size arrays, sprite coordinates); smooth points are aliased"},
			{Feature: "lines", How: "two triangles per segment, offset along the minor axis by the generated vertex shader (GL's wide-line parallelogram, also for width 1); strips and loops split into segments on the CPU"},
			{Feature: "matrix palette", How: "the vertex blend into eye space runs on the CPU; the generated shader then runs with an identity model-view (32 palette matrices and their normal matrices do not fit the 96 uniforms next to eight lights)"},
			{Feature: "two-sided lighting", How: "the facing of each triangle found on the CPU (homogeneous orientation test) and sent as a vertex attribute (+1 or -1) that the generated shader multiplies the normal by"},
			{Feature: "dither", How: "the PICA200 has no dither stage: with GL_DITHER enabled each channel is truncated to the colour buffer's bits (hal/pica.EncodeColor), a dither that depends on the colour alone; GL ES 1.1 section 4.1.7 lets the dithered value be either of the two nearest representable ones, chosen by any function of the colour and window position", Cost: "none"},
			{Feature: "flat shading", How: "the PICA always interpolates: triangles are de-indexed on the CPU and every vertex takes the provoking vertex's colour, normal and lighting position"},
		},
		Missing: []driver.Missing{
			{Feature: driver.FeatureShaders, Why: "the PICA200 has no programmable fragment stage for GL ES 2.0's fragment shaders; GLSL vertex shaders compile for the shader unit through GL_RETRO_pica_vertex_shader (fragments on the combiners), SHBIN ones load through GL_RETRO_pica_shader_binary"},
			{Feature: driver.FeatureFramebufferObjects, Why: "framebuffer objects come with the GL ES 2.0 API, which this backend does not offer (the PICA renders into texture-layout buffers, so render-to-texture would need no conversion)"},
		},
	}
	c.FillMissing("not implemented in the pica200 backend yet")
	return c
}

// Caps implements driver.Driver.
func (d *Driver) Caps() *driver.Caps { return d.caps }

// Device implements driver.Driver.
func (d *Driver) Device() hal.Device { return d.dev }

// Close implements driver.Driver.
func (d *Driver) Close() error { return d.dev.Close() }

// colorFormatOf maps surface formats to COLORBUFFER_FORMAT codes.
var colorFormatOf = map[driver.PixelFormat]p.ColorFormat{
	driver.FormatRGBA8888: p.ColorRGBA8, driver.FormatRGB565: p.ColorRGB565,
	driver.FormatRGBA5551: p.ColorRGB5A1, driver.FormatRGBA4444: p.ColorRGBA4,
}

// NewContext implements driver.Driver: colour and depth buffers live in
// VRAM, padded to whole 8x8 tiles.
func (d *Driver) NewContext(cfg driver.SurfaceConfig) (driver.Context, error) {
	cf, ok := colorFormatOf[cfg.Format]
	if !ok {
		return nil, fmt.Errorf("pica200: colour format %v not supported", cfg.Format)
	}
	c := &Context{drv: d, dev: d.dev, cfg: cfg, cfmt: cf}
	c.w8, c.h8 = (cfg.Width+7)&^7, (cfg.Height+7)&^7
	var err error
	c.fb, err = d.dev.Alloc(uint32(c.w8*c.h8*cf.BytesPerPixel()), 64, "vram")
	if err != nil {
		return nil, fmt.Errorf("pica200: colour buffer %dx%d: %w", cfg.Width, cfg.Height, err)
	}
	// Stencil lives in D24S8: a stencil-only surface gets that buffer, but
	// its depth half stays unused: GL sees no depth buffer (DEPTH_BITS 0;
	// the depth test always passes, ES 1.1 section 4.1.6). See hasDepth.
	switch {
	case cfg.StencilBits > 0:
		c.dfmt = p.DepthD24S8
		if cfg.DepthBits > 0 {
			c.cfg.DepthBits = 24
		}
	case cfg.DepthBits > 16:
		c.dfmt = p.DepthD24
	default:
		c.dfmt = p.DepthD16
	}
	if cfg.DepthBits > 0 || cfg.StencilBits > 0 {
		c.zb, err = d.dev.Alloc(uint32(c.w8*c.h8*c.dfmt.BytesPerPixel()), 64, "vram")
		if err != nil {
			return nil, errors.Join(fmt.Errorf("pica200: depth buffer: %w", err), d.dev.Free(c.fb))
		}
	}
	c.up = driver.NewUploader(d.dev, "fcram", 512<<10)
	c.up.SetReclaim(c.reclaim)
	c.textures = map[uint32]*texEntry{}
	c.programs = map[string]*program{}
	return c, nil
}
