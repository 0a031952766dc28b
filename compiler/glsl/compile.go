package glsl

// Limits are the implementation-dependent constants a shader sees as
// gl_Max* built-in constants and the linker checks. Zero fields take the
// minimum the specification allows (DefaultLimits), except
// MaxVertexTextureImageUnits whose minimum is zero.
type Limits struct {
	MaxVertexAttribs             int
	MaxVertexUniformVectors      int
	MaxVaryingVectors            int
	MaxVertexTextureImageUnits   int
	MaxCombinedTextureImageUnits int
	MaxTextureImageUnits         int
	MaxFragmentUniformVectors    int
	MaxDrawBuffers               int

	// Desktop GLSL 1.10/1.20 only.
	MaxLights        int
	MaxClipPlanes    int
	MaxTextureUnits  int
	MaxTextureCoords int
}

// DefaultLimits returns the minimum values of GLSL ES 1.00 section 7.4 and,
// for the desktop-only constants, of GLSL 1.10 section 7.4.
func DefaultLimits() Limits {
	return Limits{
		MaxVertexAttribs:             8,
		MaxVertexUniformVectors:      128,
		MaxVaryingVectors:            8,
		MaxVertexTextureImageUnits:   0,
		MaxCombinedTextureImageUnits: 8,
		MaxTextureImageUnits:         8,
		MaxFragmentUniformVectors:    16,
		MaxDrawBuffers:               1,
		MaxLights:                    8,
		MaxClipPlanes:                6,
		MaxTextureUnits:              2,
		MaxTextureCoords:             2,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	fill := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	fill(&l.MaxVertexAttribs, d.MaxVertexAttribs)
	fill(&l.MaxVertexUniformVectors, d.MaxVertexUniformVectors)
	fill(&l.MaxVaryingVectors, d.MaxVaryingVectors)
	fill(&l.MaxCombinedTextureImageUnits, d.MaxCombinedTextureImageUnits)
	fill(&l.MaxTextureImageUnits, d.MaxTextureImageUnits)
	fill(&l.MaxFragmentUniformVectors, d.MaxFragmentUniformVectors)
	fill(&l.MaxDrawBuffers, d.MaxDrawBuffers)
	fill(&l.MaxLights, d.MaxLights)
	fill(&l.MaxClipPlanes, d.MaxClipPlanes)
	fill(&l.MaxTextureUnits, d.MaxTextureUnits)
	fill(&l.MaxTextureCoords, d.MaxTextureCoords)
	if l.MaxVertexTextureImageUnits < 0 {
		l.MaxVertexTextureImageUnits = 0
	}
	return l
}

// Options configure one compilation.
type Options struct {
	// Stage is the shader stage.
	Stage Stage
	// Version is the language version of a source without #version: 100
	// (GLSL ES 1.00, also when zero), 110 or 120.
	Version int
	// Limits are the implementation's gl_Max* constants.
	Limits Limits
	// Extensions lists the extensions the implementation supports: each is
	// defined as a macro and may be enabled with #extension. The front end
	// knows GL_OES_standard_derivatives (dFdx, dFdy, fwidth).
	Extensions []string
	// DisableFragmentHighp withholds highp from fragment shaders (and
	// leaves GL_FRAGMENT_PRECISION_HIGH undefined), for hardware whose
	// fragment arithmetic cannot meet highp's minimum precision.
	DisableFragmentHighp bool
	// AppendixA enforces the minimum-functionality rules of GLSL ES 1.00
	// Appendix A as errors, as WebGL implementations do: for loops only in
	// the "for (i = c; i op c; i += c)" form with an index the body does
	// not write, no while and do-while loops, and arrays, vectors and
	// matrices indexed by constant-index expressions only, except uniforms
	// in vertex shaders. Without it, only the rules the main text requires
	// are errors (sampler arrays still need constant-index expressions).
	AppendixA bool
}

func (o *Options) defaultVersion() int {
	switch o.Version {
	case 110, 120:
		return o.Version
	}
	return 100
}

func (o *Options) hasExtension(name string) bool {
	for _, e := range o.Extensions {
		if e == name {
			return true
		}
	}
	return false
}

// Compile preprocesses, parses and checks one shader. On failure the error
// is an ErrorList holding every diagnostic (warnings included) in source
// order; on success the warnings are in Shader.Warnings.
func Compile(src string, opts Options) (*Shader, error) {
	opts.Limits = opts.Limits.withDefaults()
	d := &diags{}
	pp := preprocess(src, &opts, d)
	if d.errors > 0 {
		return nil, d.err()
	}
	toks := lex(pp.toks, pp.version, d)
	if d.errors > 0 {
		return nil, d.err()
	}
	tu := parse(toks, pp.version, d)
	if d.errors > 0 || tu == nil {
		return nil, d.err()
	}
	sh := check(tu, pp, &opts, d)
	if d.errors > 0 {
		return nil, d.err()
	}
	sh.Warnings = d.sorted()
	return sh, nil
}
