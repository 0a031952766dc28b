// Package pspge is the GL ES 1.1 driver for the PSP Graphics Engine. It
// builds display lists with the words of hal/pspge, keeps a shadow of every
// register it wrote so that unchanged state is not sent again, and appends
// to one running list per context, moving the GE's stall address
// (hal.Appender) as draws arrive; Finish ends the list with FINISH and END.
// docs/pspge.md describes what is native, what is emulated and why.
//
// Mapping decisions (guide shared/notes/pspge.md §4):
//   - The framebuffer's drawing origin sits at (2048-W/2, 2048-H/2) in the
//     GE's 4096x4096 screen space (OFFSETX/OFFSETY), as pspsdk does, so
//     geometry may extend 2048 pixels past every edge before the 12.4
//     coordinates run out.
//   - GL's y-up window maps to the GE's y-down screen through a negative
//     YSCALE; the picture is not mirrored, so a GL counter-clockwise front
//     face stays counter-clockwise as seen on the GE screen, which FFACE 0
//     keeps (pspautotests gpu/commands/cull).
//   - WORLD holds the model-view matrix and VIEW the identity, so that the
//     GE's world space is GL's eye space (lighting and fog then match GL).
//     A model-view matrix with a projective last row cannot be a 4x3 WORLD;
//     it is folded into PROJ instead.
//   - Window depth [0, 1] maps to the GE's 16-bit Z [0, 65535] with the GL
//     comparison kept as is (LESS means nearer).
//   - Vertices are repacked into one VTYPE layout: float texture
//     coordinates, 8888 colour, float normal, float position.
//   - Draws clip to the viewport through the scissor: the GE clips only at
//     the near plane, GL at the whole view volume (context.go).
//   - What the GE's transform unit cannot do goes through driver/swtnl and
//     reaches the GE as clip-space vertices with identity matrices
//     (draw.go: swMode), so texturing stays perspective-correct.
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
			"GL_EXT_blend_minmax",
			"GL_EXT_texture_compression_dxt1",
			"GL_EXT_texture_compression_s3tc",
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
			"GL_RETROGL_pspge_bounding_box",
			"GL_RETROGL_pspge_patches",
		},
		Limits: driver.Limits{
			MaxTextureSize: 512, MaxTextureUnits: 2, MaxLights: 8, MaxClipPlanes: 6,
			MaxModelviewStackDepth: 16, MaxProjectionStackDepth: 2, MaxTextureStackDepth: 2,
			MaxViewportDims:       [2]int{512, 512},
			AliasedPointSizeRange: [2]float32{1, 128}, SmoothPointSizeRange: [2]float32{1, 1},
			AliasedLineWidthRange: [2]float32{1, 16}, SmoothLineWidthRange: [2]float32{1, 1},
			MaxElementsVertices: 65536, MaxElementsIndices: 65535,
			SubpixelBits:       4,
			MaxPaletteMatrices: driver.MaxPaletteMatrix, MaxVertexUnits: 4,
			Extra: map[string]int{
				"ge_hardware_lights": 4, "ge_bone_matrices": 8, "ge_texture_levels": 8,
				"ge_vram_bytes": 2 << 20, "ge_subpixel_bits": 4, "ge_call_stack": 32,
			},
		},
		Features: driver.Features(0).With(
			driver.FeaturePoints, driver.FeatureLines, driver.FeatureTexture2D, driver.FeatureMultitexture,
			driver.FeatureLighting, driver.FeatureFog, driver.FeatureAlphaTest, driver.FeatureStencil,
			driver.FeatureBlend, driver.FeatureLogicOp, driver.FeatureColorMask, driver.FeatureDither,
			driver.FeaturePolygonOffset, driver.FeatureClipPlanes, driver.FeaturePointSize, driver.FeatureLineWidth,
			driver.FeaturePointSprite, driver.FeaturePointSizeArray, driver.FeatureMatrixPalette,
			driver.FeatureDrawTexture, driver.FeaturePalettedTextures, driver.FeatureCopyTexImage,
			driver.FeatureGenerateMipmap, driver.FeatureTexEnvCombine),
		ColorFormats: []driver.PixelFormat{driver.FormatRGBA8888, driver.FormatRGB565, driver.FormatRGBA5551, driver.FormatRGBA4444},
		DepthBits:    []int{0, 16},
		StencilBits:  []int{0, 1, 4, 8},
		Default:      driver.SurfaceConfig{Width: 480, Height: 272, Format: driver.FormatRGBA8888, DepthBits: 16},
		TextureFormats: []string{
			"RGBA8888 (TPSM 8888)", "RGB565 (TPSM 5650)", "RGBA4444 (TPSM 4444)", "RGBA5551 (TPSM 5551)",
			"RGB888, L8, A8, LA88 (widened to 8888)", "PALETTE4_* (CLUT4)", "PALETTE8_* (CLUT8)",
			"DXT1, DXT1A, DXT3, DXT5 (PSP block layout)",
		},
		Emulated: []driver.Emulation{
			{Feature: "matrix stacks", How: "kept by the driver; WORLD = model-view, VIEW = identity, PROJ = projection"},
			{Feature: "client arrays of any type and stride", How: "repacked on the CPU into one VTYPE layout (float UV, 8888 colour, float normal, float position)"},
			{Feature: "lighting beyond the GE", How: "more than 4 lights, two-sided lighting, colours outside [0,1] or unnormalised normals: software T&L (driver/swtnl), clip-space vertices sent with identity matrices"},
			{Feature: "user clip planes (6)", How: "software T&L clips on the CPU"},
			{Feature: "OES_matrix_palette", How: "software T&L (the GE has 8 bones; the extension allows 32 matrices)"},
			{Feature: "point size, point sprites, size arrays", How: "software T&L, points drawn as GE sprites (PRIM 6); size-1 points use PRIM 0"},
			{Feature: "line width > 1", How: "software T&L, lines drawn as two triangles"},
			{Feature: "LINE_LOOP", How: "a line strip with a closing index"},
			{Feature: "PolygonOffset", How: "units: a ZPOS bias; factor: per-triangle depth offset in software T&L"},
			{Feature: "GL_COMBINE (subset)", How: "REPLACE, MODULATE and ADD of the texture and the incoming colour with RGB_SCALE 1 or 2 map to TFUNC (bit 16 doubles) or, on unit 1, to the second pass's blend (2x modulate = DST_COLOR + SRC_COLOR); other combiners report Unsupported"},
			{Feature: "second texture unit", How: "a second pass with depth EQUAL blending unit 1 over unit 0 (MODULATE, ADD, DECAL, REPLACE; not with blending, fog or logic op)"},
			{Feature: "EXP/EXP2 fog", How: "software T&L fog factors and a fog-coloured pass with alpha 1-f (needs depth test and writes, no blending); LINEAR fog is native"},
			{Feature: "luminance, alpha and RGB888 textures", How: "widened to 8888; alpha-only texels are white so MODULATE passes the colour through"},
			{Feature: "framebuffer alpha", How: "the alpha bits hold the stencil; without a stencil buffer a draw with one constant alpha writes it through stencil REPLACE, other draws leave alpha unchanged"},
			{Feature: "CopyTexImage2D/CopyTexSubImage2D and ReadPixels", How: "block transfer (TRXKICK) of the colour buffer into RAM, decoded by the CPU"},
			{Feature: "GENERATE_MIPMAP", How: "2x2 box filter on the CPU (gles)"},
			{Feature: "view-volume clipping", How: "x and y: the scissor is set to the viewport (the GE draws beyond it otherwise); near: the GE; far: none on the hardware path (the GE clamps depth to [0, 65535]), full clipping on the software path"},
			{Feature: "display list submission", How: "one running list per context, extended with the stall address (hal.Appender) as draws arrive"},
		},
		Missing: []driver.Missing{
			{Feature: driver.FeatureShaders, Why: "the GE is a fixed-function chip (GL ES 1.1 only)"},
			{Feature: driver.FeatureFramebufferObjects, Why: "not implemented in the pspge backend"},
		},
	}
	c.FillMissing("not implemented in the pspge backend")
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
	c.up.SetReclaim(c.reclaim)
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
