// Package r300 is the GL ES 1.1 driver for the ATI Radeon R3xx. It builds
// PM4 command streams with hal/r300 in device memory, keeps a shadow of
// every register it wrote so unchanged state is not sent again, and submits
// one indirect buffer per flush.
//
// Mapping decisions (guide shared/notes/r300.md §5):
//   - On a chip with the TCL engine, vertices run through the PVS: ES 2.0
//     vertex shaders compiled by compiler/r300 (es2tcl.go), ES 1.1 state as
//     generated programs (fftcl.go), then clipping and the viewport on the
//     VAP (tcl.go). On an RS400-class chip without it (hal/r300
//     RevisionNoTCL, backend "r300-notcl") they go through the shared
//     software T&L (driver/swtnl) or the CPU's IR interpreter, and the VAP
//     runs in PVS bypass with window-space positions (x, H-y, z, 1/w) and
//     clipping disabled; the y flip turns GL's y-up window into the chip's
//     y-down screen.
//   - The fragment side is a generated fragment program per texture
//     environment (texenv.go), compiled by compiler/r300 and cached;
//     environment colours are uniforms.
//   - Fog runs in the FG unit: per pixel from W (GB_SELECT.FOG_SELECT=W)
//     when the projection makes W the eye distance, otherwise from the
//     per-vertex fog factor in colour 1's alpha (GL ES 1.1 allows either).
//   - glClear draws a rectangle (no fast clear: CMASK and ZMASK are not in
//     the seed).
//   - Surfaces are linear; textures use the TexLayout mip layout of
//     hal/r300.
package r300

import (
	"errors"
	"fmt"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// Driver is the R300 driver bound to one device.
type Driver struct {
	dev  hal.Device
	caps *driver.Caps
	// tcl is set when the device has the PVS (hal/r300 HasTCL).
	tcl bool
	// owner is the context whose register shadow matches the chip.
	owner *Context
}

// New binds a driver to an R300 device.
func New(dev hal.Device) (driver.Driver, error) {
	if dev.Info().Chip != "r300" {
		return nil, fmt.Errorf("r300 driver: device is %q", dev.Info().Chip)
	}
	tcl := r3.HasTCL(dev.Info())
	return &Driver{dev: dev, caps: newCaps(tcl), tcl: tcl}, nil
}

// Subpixel precision: GB_TILE_CONFIG.SUBPIXEL = 1/16 (L856).
const subpixels = 16

// maxPointSize is the largest point: GA_POINT_MINMAX holds half sizes in
// 16 bits of subpixels (L636-640).
const maxPointSize = 2048

func newCaps(tcl bool) *driver.Caps {
	c := &driver.Caps{
		Name:     "r300",
		Vendor:   "retrogl",
		Renderer: "retrogl r300 (ATI Radeon R3xx, simulated)",
		Version:  "OpenGL ES-CM 1.1",
		// GL ES 2.0: compiler/glsl, compiler/lower, compiler/r300 for both
		// stages (the vertex shader on the CPU without TCL, es2.go).
		ES2:         true,
		VersionES2:  "OpenGL ES 2.0 retrogl r300",
		GLSLVersion: "OpenGL ES GLSL ES 1.00",
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
			MaxTextureSize: 2048, MaxTextureUnits: 8, MaxLights: 8, MaxClipPlanes: 6,
			MaxModelviewStackDepth: 16, MaxProjectionStackDepth: 2, MaxTextureStackDepth: 2,
			MaxViewportDims:       [2]int{4096, 4096},
			AliasedPointSizeRange: [2]float32{1, maxPointSize}, SmoothPointSizeRange: [2]float32{1, 1},
			AliasedLineWidthRange: [2]float32{1, 255}, SmoothLineWidthRange: [2]float32{1, 1},
			MaxElementsVertices: 65536, MaxElementsIndices: 65536,
			SubpixelBits:       4,
			MaxPaletteMatrices: driver.MaxPaletteMatrix, MaxVertexUnits: driver.MaxVertexUnits,
			MaxVertexAttribs: maxAttribs, MaxVertexUniformVectors: maxVertexUniforms,
			MaxVaryingVectors: maxVaryingVectors, MaxFragmentUniformVectors: maxFragmentUniforms,
			MaxTextureImageUnits: maxTextureUnits, MaxVertexTextureUnits: 0, MaxCombinedTextureUnits: maxTextureUnits,
			MaxRenderbufferSize: 2048,
			Extra: map[string]int{
				"fp_alu_instructions":   r3.MaxALU,
				"fp_tex_instructions":   r3.MaxTEX,
				"fp_indirection_levels": r3.MaxLevels,
				"fp_temporaries":        r3.MaxTemps,
				"fp_constants":          r3.MaxConsts,
				"fp_interpolators_tex":  8,
				"fp_interpolators_col":  4,
				"hw_texture_units":      16,
				"render_targets":        4,
				// GetShaderPrecisionFormat: FP24 in the fragment unit
				// (7-bit exponent, 16-bit mantissa), float32 on the CPU
				// vertex path; integers are floats.
				"fragment_float_range":     63,
				"fragment_float_precision": 16,
				"fragment_int_bits":        17,
				"vertex_float_range":       127,
				"vertex_float_precision":   23,
				"vertex_int_bits":          24,
			},
		},
		Features: driver.Features(0).With(
			driver.FeaturePoints, driver.FeatureLines, driver.FeatureTexture2D, driver.FeatureMultitexture,
			driver.FeatureTexEnvCombine, driver.FeatureLighting, driver.FeatureFog, driver.FeatureAlphaTest,
			driver.FeatureStencil, driver.FeatureBlend, driver.FeatureLogicOp, driver.FeatureColorMask,
			driver.FeatureDither, driver.FeaturePolygonOffset, driver.FeatureClipPlanes, driver.FeaturePointSize,
			driver.FeatureLineWidth, driver.FeaturePointSprite, driver.FeaturePointSizeArray,
			driver.FeatureMatrixPalette, driver.FeatureDrawTexture, driver.FeaturePalettedTextures,
			driver.FeatureCopyTexImage, driver.FeatureGenerateMipmap, driver.FeatureShaders,
			driver.FeatureFramebufferObjects),
		ColorFormats: []driver.PixelFormat{driver.FormatRGBA8888, driver.FormatRGB565, driver.FormatARGB1555, driver.FormatARGB4444},
		DepthBits:    []int{0, 16, 24},
		StencilBits:  []int{0, 8},
		Default:      driver.SurfaceConfig{Width: 640, Height: 480, Format: driver.FormatRGBA8888, DepthBits: 24},
		TextureFormats: []string{"RGBA8888", "RGB565", "RGBA4444", "L8", "A8", "LA88", "DXT1", "DXT3", "DXT5",
			"RGB888 (as 8888)", "RGBA5551 (repacked)", "PALETTE4/8 (as 8888)", "ETC1 (as 8888)"},
		Emulated: []driver.Emulation{
			{Feature: "transform, lighting, texture matrices, point attenuation, user clip planes, matrix palette", How: "driver/swtnl on the CPU; the VAP runs in PVS bypass (the RS400-class chip has no TCL unit)"},
			{Feature: "texture environments (all modes and GL_COMBINE incl. DOT3)", How: "generated fragment programs compiled by compiler/r300, cached per environment"},
			{Feature: "glClear", How: "a rectangle with depth ALWAYS and stencil REPLACE (no fast clear)"},
			{Feature: "two-sided lighting", How: "swtnl picks the back colour for back-facing triangles"},
			{Feature: "fog", How: "FG unit: per pixel from W when W is the eye distance, else the per-vertex factor in colour 1 alpha"},
			{Feature: "RGB888, paletted and ETC1 textures", How: "expanded to 8_8_8_8 on upload"},
			{Feature: "RGBA5551 textures", How: "repacked to TX_FMT_1_5_5_5 (alpha moves from bit 0 to bit 15)"},
			{Feature: "OES_draw_texture", How: "a screen-aligned rectangle through the fragment program"},
			{Feature: "DrawElements", How: "indices resolved by swtnl; primitives reach the chip as lists"},
			{Feature: "GL ES 2.0 vertex shaders", How: "lowered to compiler/ir and run on the CPU by ir.Run with float32 rounding; clipped on the CPU; the VAP runs in PVS bypass"},
			{Feature: "GLSL fragment arithmetic on uniforms only (the preshader)", How: "computed once per draw on the CPU by ir.Run in float32; the fragment unit reads the results as constants (RETROGL_R300_NO_PRESHADER=1 leaves everything to the unit)"},
			{Feature: "STENCIL_INDEX8 renderbuffers", How: "Z24S8 surfaces (the ZB has stencil only in Z24S8); with a DEPTH_COMPONENT16 renderbuffer attached too, the depth values are copied into the stencil surface's Z24 bits by the CPU while the two are used together"},
			{Feature: "rendering into RGBA8888, RGB888 and RGBA4444 textures", How: "the texture moves to the colour buffer's ARGB8888/ARGB4444 layout on first attachment (TX channel selects follow); ReadTexture converts back"},
			{Feature: "GLSL control flow", How: "functions inlined, branches turned into selects, fragment loops unrolled (compiler/lower); vertex loops with uniform bounds kept as loops (the PVS's flow control, or the CPU without TCL), other vertex loops unrolled or, when their condition is known only at run time, run 510 times predicated off after they end"},
		},
	}
	if tcl {
		tclCaps(c)
	} else {
		c.Name = "r300-notcl"
		c.Renderer = "retrogl r300 (RS400-class IGP without TCL, simulated)"
		c.Where = []driver.Placement{
			{Stage: "ES 1.1 vertex", Runs: "driver/swtnl on the CPU; the VAP takes window-space vertices through PVS_BYPASS"},
			{Stage: "ES 2.0 vertex shader", Runs: "the CPU (compiler/ir's interpreter in float32); clipped on the CPU, PVS_BYPASS"},
			{Stage: "ES 2.0 fragment shader", Runs: "the US fragment unit (compiler/r300), FP24; uniform-only expressions in a CPU preshader"},
		}
	}
	c.FillMissing("not implemented in the r300 backend yet")
	return c
}

// tclCaps turns the capabilities of the chip without TCL into those of the
// chip with the PVS: vertex work moves to the chip.
func tclCaps(c *driver.Caps) {
	c.Where = []driver.Placement{
		{Stage: "ES 1.1 vertex", Runs: "the PVS: generated programs (driver/ffvs, compiled by compiler/r300) cached by state; clipping and the viewport on the VAP"},
		{Stage: "ES 2.0 vertex shader", Runs: "the PVS (compiler/r300's vertex back end), float32, loops on its flow control; clipping and the viewport on the VAP; a shader over the PVS's limits (or a draw whose loop exceeds 510 iterations) on the CPU"},
		{Stage: "ES 2.0 fragment shader", Runs: "the US fragment unit (compiler/r300), FP24; uniform-only expressions in a CPU preshader"},
	}
	replace := map[string]driver.Emulation{
		"transform, lighting, texture matrices, point attenuation, user clip planes, matrix palette": {
			Feature: "transform, lighting, texture matrices, fog factors, point sizes, matrix palette",
			How:     "generated PVS programs (driver/ffvs IR compiled by compiler/r300), cached by state; a state whose program exceeds the PVS's limits is drawn by driver/swtnl through PVS_BYPASS"},
		"two-sided lighting": {Feature: "two-sided lighting", How: "with one face culled, the PVS lights the other face's side in one pass; with both faces drawn, triangles go through driver/swtnl (the CPU picks each triangle's colour, so overlapping front and back faces stay in order) and the bypass"},
	}
	var out []driver.Emulation
	for _, e := range c.Emulated {
		switch e.Feature {
		case "DrawElements", "GL ES 2.0 vertex shaders":
			continue // native: the VAP fetches indexed vertices; the PVS runs the shader
		}
		if r, ok := replace[e.Feature]; ok {
			e = r
		}
		out = append(out, e)
	}
	out = append(out,
		driver.Emulation{Feature: "gl_FrontFacing with both faces drawn", How: "the US has no facing input: with culling on, one pass with a uniform giving the drawn face; with culling off, the vertex shader runs on the CPU, which computes the facing per triangle and keeps GL's drawing order"},
		driver.Emulation{Feature: "GL ES 2.0 vertex shaders over the PVS's limits", How: "a shader no compilation fits (instructions, temporaries, constants, loop depth), or a draw whose loop count exceeds 510, runs on the CPU by ir.Run in float32 (a link-log warning says so), clipped on the CPU, the VAP in PVS bypass"})
	c.Emulated = out
	c.Limits.Extra["vs_instructions"] = r3.PVSMaxInsts
	c.Limits.Extra["vs_temporaries"] = r3.PVSMaxTemps
	c.Limits.Extra["vs_constants"] = r3.PVSMaxConsts
	c.Limits.Extra["vs_loop_depth"] = r3.PVSMaxLoopDepth
}

// Caps implements driver.Driver.
func (d *Driver) Caps() *driver.Caps { return d.caps }

// Device implements driver.Driver.
func (d *Driver) Device() hal.Device { return d.dev }

// Close implements driver.Driver.
func (d *Driver) Close() error { return d.dev.Close() }

// Colour-buffer formats (RB3D_COLORPITCH.COLORFORMAT, L448) and bytes per
// pixel.
var cbFormatOf = map[driver.PixelFormat]struct {
	code uint32
	bpp  int
}{
	driver.FormatRGBA8888: {6, 4}, driver.FormatRGB565: {4, 2}, driver.FormatARGB1555: {3, 2}, driver.FormatARGB4444: {15, 2},
}

// NewContext implements driver.Driver: it allocates the colour buffer and
// the depth/stencil buffer in VRAM. Stencil needs Z24S8, so 8 stencil bits
// bring 24 depth bits; a stencil-only surface gets a Z24S8 buffer too, but
// its depth half stays unused: GL sees no depth buffer (DEPTH_BITS 0, and
// the depth test always passes, ES 1.1 section 4.1.6).
func (d *Driver) NewContext(cfg driver.SurfaceConfig) (driver.Context, error) {
	f, ok := cbFormatOf[cfg.Format]
	if !ok {
		return nil, fmt.Errorf("r300: colour format %v not supported", cfg.Format)
	}
	if cfg.StencilBits > 0 && cfg.DepthBits > 0 && cfg.DepthBits < 24 {
		cfg.DepthBits = 24
	}
	c := &Context{drv: d, dev: d.dev, cfg: cfg, cbCode: f.code, cbBpp: f.bpp,
		shadow: map[uint32]uint32{}, pvsShadow: map[int][4]uint32{}, tcl: d.tcl, vprogs: map[ffKey]*vcompiled{},
		textures: map[uint32]*devTexture{}, programs: map[fpKey]*compiled{},
		rbs: map[uint32]*devRB{}, joined: map[uint32]uint32{}}
	// COLORPITCH counts 2-pixel units (L441); rows stay 64-byte aligned.
	c.pitch = (cfg.Width + 15) &^ 15
	var err error
	c.cb, err = d.dev.Alloc(uint32(c.pitch*cfg.Height*f.bpp), 4096, "vram")
	if err != nil {
		return nil, fmt.Errorf("r300: colour buffer %dx%d: %w", cfg.Width, cfg.Height, err)
	}
	if cfg.DepthBits > 0 || cfg.StencilBits > 0 {
		c.zBpp = 2
		if cfg.DepthBits == 24 || cfg.StencilBits > 0 {
			c.zBpp = 4
		}
		c.zb, err = d.dev.Alloc(uint32(c.pitch*cfg.Height*c.zBpp), 4096, "vram")
		if err != nil {
			return nil, errors.Join(fmt.Errorf("r300: depth buffer: %w", err), d.dev.Free(c.cb))
		}
	}
	c.up = driver.NewUploader(d.dev, "gart", 1<<20)
	c.tgt = c.windowTarget()
	return c, nil
}
