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
			"GL_OES_blend_equation_separate",
			"GL_OES_blend_func_separate",
			"GL_OES_blend_subtract",
			"GL_OES_compressed_ETC1_RGB8_texture",
			"GL_OES_byte_coordinates",
			"GL_OES_compressed_paletted_texture",
			"GL_OES_draw_texture",
			"GL_OES_fixed_point",
			"GL_OES_matrix_palette",
			"GL_OES_point_size_array",
			"GL_OES_point_sprite",
			"GL_OES_read_format",
			"GL_OES_single_precision",
			"GL_OES_texture_mirrored_repeat",
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
			"DXT1, DXT1A, DXT3, DXT5 (PSP block layout)", "ETC1 (decoded to 8888)",
		},
		Where: []driver.Placement{
			{Stage: "ES 1.1 vertex", Runs: "the GE's transform and 4 lights; driver/swtnl on the CPU beyond them"},
		},
		Emulated: []driver.Emulation{
			{Feature: "matrix stacks", How: "kept by the driver; WORLD = model-view, VIEW = identity, PROJ = projection"},
			{Feature: "client arrays of any type and stride", How: "repacked on the CPU into one VTYPE layout (float UV, 8888 colour, float normal, float position)"},
			{Feature: "lighting beyond the GE", How: "more than 4 lights, two-sided lighting, colours outside [0,1], a light whose constant attenuation is under 1 (GL's factor may then exceed 1, the GE clamps it to 1), unnormalised normals, or lighting under a logic op (the GE truncates its colour products, and a bitwise op turns that one step into many bits): software T&L (driver/swtnl), clip-space vertices sent with identity matrices"},
			{Feature: "user clip planes (6)", How: "software T&L clips on the CPU"},
			{Feature: "OES_matrix_palette", How: "software T&L (the GE has 8 bones; the extension allows 32 matrices)"},
			{Feature: "point size, point sprites, size arrays", How: "software T&L, points drawn as GE sprites (PRIM 6); size-1 points use PRIM 0"},
			{Feature: "line width > 1", How: "software T&L, lines drawn as two triangles"},
			{Feature: "LINE_LOOP", How: "a line strip with a closing index"},
			{Feature: "PolygonOffset", How: "units: a ZPOS bias; factor: per-triangle depth offset in software T&L"},
			{Feature: "multi-pass fallback (driver/multipass)",
				How:  "a state one GE pass cannot express is drawn from software T&L's window-space primitives, cut into batches that do not overlap on screen: its texture environments and fog are evaluated in offscreen 8888 registers in VRAM (each pass one texture or register times a vertex colour, blended into a register: load, multiply, add, subtract, halve, lerp, double), then a composite pass draws the batch into the framebuffer with the register as its texture and the application's alpha test, stencil, depth, blending, logic op, masks and dither; under a logic op the CPU computes the colours instead (the software stage rounds once where every register pass rounds to 8 bits, and a bitwise op would turn a step into many bits)",
				Cost: "per batch and register tile: one GE pass per register operation, 9 more (a clear and 8 bit planes through the stencil unit) when the per-fragment state reads an alpha computed from textures, and the composite"},
			{Feature: "GL_COMBINE",
				How:  "REPLACE, MODULATE and ADD of the texture and the incoming colour with RGB_SCALE 1 or 2 map to TFUNC (bit 16 doubles); every other combine (INTERPOLATE, SUBTRACT, ADD_SIGNED, CONSTANT and PRIMARY_COLOR sources, inverted and alpha operands, scale 4) goes through the multi-pass fallback, operands of textures as derived textures; DOT3_RGB and DOT3_RGBA through its software stage (the CPU computes the fragment colours, the GE composites them)",
				Cost: "1 pass on TFUNC; fallback: 1-2 register passes per function (INTERPOLATE 4, ADD_SIGNED 4, each RGB_SCALE doubling 1) plus the composite; DOT3: a block transfer of the CPU's colours and the composite"},
			{Feature: "second texture unit",
				How:  "the multi-pass fallback: both units' environments in registers, then the composite with blending, fog, tests and logic op as the application set them",
				Cost: "3 passes for MODULATE, ADD or REPLACE on both units (unit 0 loaded, unit 1 applied, composite); BLEND and DECAL 2-3 more; +9 when the alpha test or a SRC_ALPHA factor reads a textured alpha"},
			{Feature: "EXP/EXP2 fog",
				How:  "the software T&L's per-vertex fog factor: the colour is computed in a register, the fog colour blended over it by 1-f (smooth even under flat shading), then the composite; LINEAR fog is native where the vertex form lets the GE fog (hardware path, software path with a perspective or z-only orthographic projection)",
				Cost: "2 passes more than the draw's own (the fog pass and the composite)"},
			{Feature: "fog on wide points and lines",
				How:  "through-mode sprites and quads have no fog on the GE: fogged wide points and lines go through the multi-pass fallback",
				Cost: "2 passes more than the draw's own"},
			{Feature: "wide lines",
				How:  "software T&L; each segment two through-mode triangles moved half a pixel back toward its first vertex (GL's diamond-exit columns); a segment whose ends differ in w is cut into 2-pixel pieces whose colours, texture coordinates and fog factors the CPU interpolates perspective-correctly (the GE's through mode interpolates linearly in screen space)",
				Cost: "2 triangles per piece: one piece per 2 pixels of the major axis (at most 128) under a perspective, one per segment otherwise"},
			{Feature: "positions with w != 1",
				How: "software T&L; triangles reach the GE as normalised device coordinates with 1/w carried in the texture coordinates' q (TMAP matrix mode), so texturing stays perspective-correct"},
			{Feature: "perspective-correct colour and fog interpolation",
				How:  "the GE interpolates vertex colours and the fog factor linearly in window coordinates; a software-path draw with a primitive whose clip w varies so much that this would be more than 8 steps (of 255) off GL's perspective-correct value goes through the multi-pass fallback's software stage (the CPU interpolates and shades every fragment, the GE composites); the hardware path and smaller errors stay on the GE",
				Cost: "per batch and register tile: the CPU's shading of the tile, a block transfer of its colours and the composite"},
			{Feature: "destination alpha",
				How:  "none: the GE's alpha bits hold the stencil and fragments never write them, so pspge surfaces have no alpha bitplanes (GL_ALPHA_BITS 0) and, as GL ES 1.1 specifies for such a framebuffer, destination alpha reads 1: DST_ALPHA is ONE, ONE_MINUS_DST_ALPHA and SRC_ALPHA_SATURATE ZERO, ReadPixels alpha 255",
				Cost: "none"},
			{Feature: "luminance, alpha and RGB888 textures", How: "widened to 8888; alpha-only texels are white so MODULATE passes the colour through"},
			{Feature: "OES_texture_mirrored_repeat", How: "the GE repeats or clamps only: a texture mirrored along an axis is sampled as its doubled, mirrored copy with REPEAT at half the coordinate (through the unit's texture matrix), which is GL's mirrored repeat exactly; a mirrored side over 256, replaced point-sprite coordinates and OES_draw_texture go through the fallback's software stage", Cost: "a derived texture of twice the texels per mirrored axis (made once per texture); the texture matrix path (TMAP matrix mode)"},
			{Feature: "OES_compressed_ETC1_RGB8_texture", How: "blocks decoded on the CPU (internal/texblock) and uploaded as 8888", Cost: "4 bytes per texel instead of half a byte"},
			{Feature: "OES_blend_func_separate, OES_blend_equation_separate", How: "the GE blends colour only; the alpha factors and equation would only change the stored alpha, and the surface stores none", Cost: "none"},
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
	// The GE never stores a fragment's alpha: the alpha bits are the
	// stencil (blendFactor).
	cfg.NoAlpha = true
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
