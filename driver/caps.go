package driver

import (
	"fmt"
	"strings"
)

// Feature is one GL capability group a backend may or may not provide. The
// state tracker asks Caps.Has before a draw and reports a missing feature
// as an error instead of drawing something wrong.
type Feature uint8

// The feature groups of GL ES 1.1 (and 2.0).
const (
	FeaturePoints             Feature = iota // GL_POINTS
	FeatureLines                             // GL_LINES, strips, loops
	FeatureTexture2D                         // texturing on unit 0
	FeatureMultitexture                      // a second texture unit
	FeatureTexEnvCombine                     // GL_COMBINE texture environment
	FeatureLighting                          // fixed-function lighting
	FeatureFog                               // fixed-function fog
	FeatureAlphaTest                         // glAlphaFunc
	FeatureStencil                           // stencil test and operations
	FeatureBlend                             // blending
	FeatureLogicOp                           // glLogicOp
	FeatureColorMask                         // glColorMask other than all-true
	FeatureDither                            // dithering on 16-bit targets
	FeaturePolygonOffset                     // glPolygonOffset
	FeatureClipPlanes                        // user clip planes
	FeaturePointSize                         // point sizes other than 1
	FeatureLineWidth                         // line widths other than 1
	FeaturePointSprite                       // OES_point_sprite
	FeaturePointSizeArray                    // OES_point_size_array
	FeatureMatrixPalette                     // OES_matrix_palette
	FeatureDrawTexture                       // OES_draw_texture
	FeaturePalettedTextures                  // OES_compressed_paletted_texture
	FeatureCopyTexImage                      // glCopyTexImage2D / glCopyTexSubImage2D
	FeatureGenerateMipmap                    // GL_GENERATE_MIPMAP
	FeatureShaders                           // GL ES 2.0 programs
	FeatureFramebufferObjects                // framebuffer and renderbuffer objects
	numFeatures
)

var featureNames = [numFeatures]string{
	"points", "lines", "texture-2d", "multitexture", "texenv-combine", "lighting", "fog",
	"alpha-test", "stencil", "blend", "logic-op", "color-mask", "dither", "polygon-offset",
	"clip-planes", "point-size", "line-width", "point-sprite", "point-size-array",
	"matrix-palette", "draw-texture", "paletted-textures", "copy-tex-image", "generate-mipmap",
	"shaders", "framebuffer-objects",
}

// AllFeatures lists every feature in order.
func AllFeatures() []Feature {
	fs := make([]Feature, numFeatures)
	for i := range fs {
		fs[i] = Feature(i)
	}
	return fs
}

// String returns the feature's name.
func (f Feature) String() string {
	if f < numFeatures {
		return featureNames[f]
	}
	return fmt.Sprintf("Feature(%d)", uint8(f))
}

// MarshalText implements encoding.TextMarshaler.
func (f Feature) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// Features is a set of features.
type Features uint64

// Has reports whether f is in the set.
func (s Features) Has(f Feature) bool { return s&(1<<f) != 0 }

// With returns the set with fs added.
func (s Features) With(fs ...Feature) Features {
	for _, f := range fs {
		s |= 1 << f
	}
	return s
}

// List returns the features in the set, in order.
func (s Features) List() []Feature {
	var out []Feature
	for f := Feature(0); f < numFeatures; f++ {
		if s.Has(f) {
			out = append(out, f)
		}
	}
	return out
}

// MarshalJSON writes the set as a list of names.
func (s Features) MarshalJSON() ([]byte, error) {
	names := make([]string, 0, numFeatures)
	for _, f := range s.List() {
		names = append(names, `"`+f.String()+`"`)
	}
	return []byte("[" + strings.Join(names, ",") + "]"), nil
}

// Limits are the numbers glGetIntegerv and glGetFloatv report.
type Limits struct {
	MaxTextureSize            int        `json:"max_texture_size"`
	MaxTextureUnits           int        `json:"max_texture_units"`
	MaxLights                 int        `json:"max_lights"`
	MaxClipPlanes             int        `json:"max_clip_planes"`
	MaxModelviewStackDepth    int        `json:"max_modelview_stack_depth"`
	MaxProjectionStackDepth   int        `json:"max_projection_stack_depth"`
	MaxTextureStackDepth      int        `json:"max_texture_stack_depth"`
	MaxViewportDims           [2]int     `json:"max_viewport_dims"`
	AliasedPointSizeRange     [2]float32 `json:"aliased_point_size_range"`
	SmoothPointSizeRange      [2]float32 `json:"smooth_point_size_range"`
	AliasedLineWidthRange     [2]float32 `json:"aliased_line_width_range"`
	SmoothLineWidthRange      [2]float32 `json:"smooth_line_width_range"`
	MaxElementsVertices       int        `json:"max_elements_vertices"`
	MaxElementsIndices        int        `json:"max_elements_indices"`
	SubpixelBits              int        `json:"subpixel_bits"`
	MaxPaletteMatrices        int        `json:"max_palette_matrices,omitempty"`
	MaxVertexUnits            int        `json:"max_vertex_units,omitempty"`
	MaxRenderbufferSize       int        `json:"max_renderbuffer_size,omitempty"`
	MaxVertexAttribs          int        `json:"max_vertex_attribs,omitempty"`
	MaxVertexUniformVectors   int        `json:"max_vertex_uniform_vectors,omitempty"`
	MaxVaryingVectors         int        `json:"max_varying_vectors,omitempty"`
	MaxFragmentUniformVectors int        `json:"max_fragment_uniform_vectors,omitempty"`
	MaxTextureImageUnits      int        `json:"max_texture_image_units,omitempty"`
	MaxVertexTextureUnits     int        `json:"max_vertex_texture_image_units,omitempty"`
	MaxCombinedTextureUnits   int        `json:"max_combined_texture_image_units,omitempty"`
	// Extra holds chip-specific limits (fragment-program ALU and TEX slots,
	// indirection levels, ...), printed by glinfo.
	Extra map[string]int `json:"extra,omitempty"`
}

// Emulation names a feature the backend provides by other means than the
// chip's hardware, how, and what it costs (extra passes, CPU work).
type Emulation struct {
	Feature string `json:"feature"`
	How     string `json:"how"`
	Cost    string `json:"cost,omitempty"`
}

// Missing names a feature the backend does not provide, and why.
type Missing struct {
	Feature Feature `json:"feature"`
	Why     string  `json:"why"`
}

// Caps is everything glinfo prints and gles validates against.
type Caps struct {
	Name        string `json:"name"`
	Vendor      string `json:"vendor"`
	Renderer    string `json:"renderer"`
	Version     string `json:"version"`
	GLSLVersion string `json:"shading_language_version,omitempty"`
	// ES2 is set when the backend can create GL ES 2.0 contexts, whose
	// GL_VERSION is VersionES2 ("OpenGL ES 2.0 ...").
	ES2        bool     `json:"es2"`
	VersionES2 string   `json:"version_es2,omitempty"`
	Extensions []string `json:"extensions"`
	Limits     Limits   `json:"limits"`
	// Features are the feature groups that work.
	Features Features `json:"features"`
	// ColorFormats, DepthBits and StencilBits list the surface
	// configurations; Default is the one a zero SurfaceConfig gets.
	ColorFormats   []PixelFormat `json:"color_formats"`
	DepthBits      []int         `json:"depth_bits"`
	StencilBits    []int         `json:"stencil_bits"`
	Default        SurfaceConfig `json:"default_config"`
	TextureFormats []string      `json:"texture_formats"`
	// Where says, per pipeline stage, where the backend runs it (the chip's
	// own unit, a program on it, or the CPU).
	Where []Placement `json:"where"`
	// Emulated lists what the driver does in software or by other means.
	Emulated []Emulation `json:"emulated"`
	// Missing lists the feature groups that do not work, with the reason.
	Missing []Missing `json:"missing"`
}

// Placement is where one pipeline stage runs.
type Placement struct {
	// Stage names it: "ES 1.1 vertex", "ES 2.0 vertex shader", "ES 2.0
	// fragment shader".
	Stage string `json:"stage"`
	// Runs says where: the unit and how the work reaches it.
	Runs string `json:"runs"`
}

// Has reports whether the backend provides feature f.
func (c *Caps) Has(f Feature) bool { return c.Features.Has(f) }

// HasExtension reports whether name is in the extension list.
func (c *Caps) HasExtension(name string) bool {
	for _, e := range c.Extensions {
		if e == name {
			return true
		}
	}
	return false
}

// WhyMissing returns the reason a feature is missing.
func (c *Caps) WhyMissing(f Feature) string {
	for _, m := range c.Missing {
		if m.Feature == f {
			return m.Why
		}
	}
	return "not implemented"
}

// FillMissing adds a Missing entry, with reason why, for every feature not
// in Features that has none yet, so Caps never hides an absent feature.
func (c *Caps) FillMissing(why string) {
	have := map[Feature]bool{}
	for _, m := range c.Missing {
		have[m.Feature] = true
	}
	for _, f := range AllFeatures() {
		if !c.Has(f) && !have[f] {
			c.Missing = append(c.Missing, Missing{f, why})
		}
	}
}

// ChooseConfig resolves a requested surface configuration against the
// backend's lists, filling zero fields from Default.
func (c *Caps) ChooseConfig(req SurfaceConfig) (SurfaceConfig, error) {
	cfg := req
	if cfg.Width == 0 {
		cfg.Width = c.Default.Width
	}
	if cfg.Height == 0 {
		cfg.Height = c.Default.Height
	}
	if cfg.Format == 0 {
		cfg.Format = c.Default.Format
	}
	if cfg.DepthBits < 0 || cfg.StencilBits < 0 {
		return cfg, fmt.Errorf("%s: negative depth or stencil bits", c.Name)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > c.Limits.MaxViewportDims[0] || cfg.Height > c.Limits.MaxViewportDims[1] {
		return cfg, fmt.Errorf("%s: surface %dx%d outside 1x1..%dx%d", c.Name, cfg.Width, cfg.Height,
			c.Limits.MaxViewportDims[0], c.Limits.MaxViewportDims[1])
	}
	ok := false
	for _, f := range c.ColorFormats {
		ok = ok || f == cfg.Format
	}
	if !ok {
		return cfg, fmt.Errorf("%s: colour format %v not supported (have %v)", c.Name, cfg.Format, c.ColorFormats)
	}
	pick := func(want int, have []int, what string) (int, error) {
		// The smallest supported size that is at least what was asked,
		// as eglChooseConfig does.
		best := -1
		for _, h := range have {
			if h >= want && (best < 0 || h < best) {
				best = h
			}
		}
		if best < 0 {
			return 0, fmt.Errorf("%s: %d %s bits not available (have %v)", c.Name, want, what, have)
		}
		return best, nil
	}
	var err error
	if cfg.DepthBits, err = pick(cfg.DepthBits, c.DepthBits, "depth"); err != nil {
		return cfg, err
	}
	if cfg.StencilBits, err = pick(cfg.StencilBits, c.StencilBits, "stencil"); err != nil {
		return cfg, err
	}
	return cfg, nil
}
