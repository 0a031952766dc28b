package driver

import "image"

// ShaderStage is a programmable pipeline stage.
type ShaderStage uint8

// The stages of GL ES 2.0.
const (
	StageVertex ShaderStage = iota
	StageFragment
)

// String returns "vertex" or "fragment".
func (s ShaderStage) String() string {
	if s == StageVertex {
		return "vertex"
	}
	return "fragment"
}

// ShaderDriver is implemented by drivers that run GL ES 2.0 programs
// (Caps.ES2): it gives the state tracker the backend's shader compiler.
type ShaderDriver interface {
	ShaderCompiler() ShaderCompiler
}

// ShaderCompiler is a backend's GLSL implementation as the state tracker
// sees it: compile checks one shader and returns its info log; link pairs a
// vertex and a fragment shader into a program whose active variables the
// state tracker validates Uniform* and attribute calls against.
type ShaderCompiler interface {
	// Compile compiles one shader. The log holds errors and warnings, each
	// with "line:column"; ok reports success.
	Compile(stage ShaderStage, source string) (shader CompiledShader, log string, ok bool)
	// Link links a vertex and a fragment shader. bindings holds the
	// attribute locations requested with glBindAttribLocation.
	Link(vs, fs CompiledShader, bindings map[string]int) (prog LinkedProgram, log string, ok bool)
}

// CompiledShader is a compiled shader, opaque to the state tracker.
type CompiledShader interface{}

// LinkedProgram is a linked program: its active attributes and uniforms,
// with locations assigned. The backend type-asserts it to its own type at
// draw time.
type LinkedProgram interface {
	Attributes() []ActiveVar
	Uniforms() []ActiveVar
}

// ActiveVar is an active attribute or uniform. Arrays are one variable
// with Size elements at consecutive locations; struct members are separate
// variables named "s.member" (and "a[2].member"), as GL ES 2.0 §2.10.4 has
// them.
type ActiveVar struct {
	Name string
	// Type is the GL type enumerant (GL_FLOAT_VEC4, GL_SAMPLER_2D, ...).
	Type uint32
	// Size is the array length (1 for non-arrays).
	Size int
	// Location is the location of element 0.
	Location int
}

// Uniform is the value of one uniform location: Float for float, vector
// and matrix types (matrices column-major), Int for int, bool and sampler
// types (a sampler's value is its texture unit).
type Uniform struct {
	Float []float32
	Int   []int32
}

// ProgramState is what a draw with a GL ES 2.0 program hands the backend:
// the linked program and the current uniform values by location.
type ProgramState interface {
	Program
	// Linked returns the program the backend's compiler linked.
	Linked() LinkedProgram
	// Uniform returns the value at a location (nil for unused locations).
	Uniform(loc int) *Uniform
	// UniformGen changes whenever a uniform value changes.
	UniformGen() uint64
}

// Renderbuffer is a GL ES 2.0 renderbuffer's storage request.
type Renderbuffer struct {
	ID, Gen uint32
	// Format is a colour format, or 0 for a depth or stencil buffer.
	Format        PixelFormat
	DepthBits     int
	StencilBits   int
	Width, Height int
}

// Attachment is one framebuffer attachment: a texture's level 0 or a
// renderbuffer (nil both when nothing is attached).
type Attachment struct {
	Texture      *Texture
	Renderbuffer *Renderbuffer
}

// Framebuffer is a complete framebuffer object as a draw sees it. A backend
// renders into its attachments in device memory; a colour texture rendered
// to keeps its device copy as the texture's contents (the state tracker
// marks it so).
type Framebuffer struct {
	ID            uint32
	Color         Attachment
	Depth         Attachment
	Stencil       Attachment
	Width, Height int
}

// TextureReader is implemented by backends that render into textures
// (framebuffer objects): ReadTexture returns level 0 of texture object id
// as the backend last rendered it, in the texture's TexFormat layout (rows
// bottom to top), so the state tracker can update or read it.
type TextureReader interface {
	ReadTexture(id uint32, gen uint64) ([]byte, error)
}

// FramebufferReader is implemented by backends that render into
// framebuffer objects: ReadFramebuffer is ReadPixels from fb's colour
// attachment.
type FramebufferReader interface {
	ReadFramebuffer(fb *Framebuffer, x, y, w, h int) (*image.NRGBA, error)
}
