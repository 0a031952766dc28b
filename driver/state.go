package driver

import (
	"github.com/go-gl/mathgl/mgl32"
)

// Limits of the state tracker itself: backends may expose fewer.
const (
	MaxTextureUnits   = 8
	MaxLights         = 8
	MaxClipPlanes     = 6
	MaxPaletteMatrix  = 32
	MaxVertexUnits    = 4
	MaxGenericAttribs = 16
)

// CompareFunc is a depth, stencil or alpha comparison, in GL order
// (GL_NEVER + n).
type CompareFunc uint8

// The comparison functions.
const (
	CompareNever CompareFunc = iota
	CompareLess
	CompareEqual
	CompareLEqual
	CompareGreater
	CompareNotEqual
	CompareGEqual
	CompareAlways
)

// Test applies the comparison as "a OP b".
func (f CompareFunc) Test(a, b uint32) bool {
	switch f {
	case CompareLess:
		return a < b
	case CompareEqual:
		return a == b
	case CompareLEqual:
		return a <= b
	case CompareGreater:
		return a > b
	case CompareNotEqual:
		return a != b
	case CompareGEqual:
		return a >= b
	case CompareAlways:
		return true
	}
	return false
}

// StencilOp is a stencil operation.
type StencilOp uint8

// The stencil operations (the last two need OES_stencil_wrap).
const (
	StencilKeep StencilOp = iota
	StencilZero
	StencilReplace
	StencilIncr
	StencilDecr
	StencilInvert
	StencilIncrWrap
	StencilDecrWrap
)

// BlendFactor is a blend factor.
type BlendFactor uint8

// The blend factors of ES 1.1 (and the constant ones of ES 2.0).
const (
	BlendZero BlendFactor = iota
	BlendOne
	BlendSrcColor
	BlendOneMinusSrcColor
	BlendDstColor
	BlendOneMinusDstColor
	BlendSrcAlpha
	BlendOneMinusSrcAlpha
	BlendDstAlpha
	BlendOneMinusDstAlpha
	BlendSrcAlphaSaturate
	BlendConstantColor
	BlendOneMinusConstantColor
	BlendConstantAlpha
	BlendOneMinusConstantAlpha
)

// BlendEquation combines the weighted source and destination.
type BlendEquation uint8

// The blend equations (OES_blend_subtract, EXT_blend_minmax).
const (
	BlendAdd BlendEquation = iota
	BlendSubtract
	BlendReverseSubtract
	BlendMin
	BlendMax
)

// LogicOp is a logic operation in GL order (GL_CLEAR + n).
type LogicOp uint8

// The logic operations.
const (
	LogicClear LogicOp = iota
	LogicAnd
	LogicAndReverse
	LogicCopy
	LogicAndInverted
	LogicNoop
	LogicXor
	LogicOr
	LogicNor
	LogicEquiv
	LogicInvert
	LogicOrReverse
	LogicCopyInverted
	LogicOrInverted
	LogicNand
	LogicSet
)

// Apply computes the logic operation on source s and destination d.
func (op LogicOp) Apply(s, d uint32) uint32 {
	switch op {
	case LogicClear:
		return 0
	case LogicAnd:
		return s & d
	case LogicAndReverse:
		return s &^ d
	case LogicCopy:
		return s
	case LogicAndInverted:
		return ^s & d
	case LogicNoop:
		return d
	case LogicXor:
		return s ^ d
	case LogicOr:
		return s | d
	case LogicNor:
		return ^(s | d)
	case LogicEquiv:
		return ^(s ^ d)
	case LogicInvert:
		return ^d
	case LogicOrReverse:
		return s | ^d
	case LogicCopyInverted:
		return ^s
	case LogicOrInverted:
		return ^s | d
	case LogicNand:
		return ^(s & d)
	}
	return ^uint32(0)
}

// Face selects polygon faces.
type Face uint8

// The faces.
const (
	FaceBack Face = iota
	FaceFront
	FaceFrontAndBack
)

// Winding is the front-face orientation.
type Winding uint8

// The windings.
const (
	WindingCCW Winding = iota
	WindingCW
)

// Shade is the shading model.
type Shade uint8

// The shading models.
const (
	ShadeSmooth Shade = iota
	ShadeFlat
)

// FogMode is the fog equation.
type FogMode uint8

// The fog modes.
const (
	FogExp FogMode = iota // the GL default
	FogExp2
	FogLinear
)

// Prim is a primitive type, numbered as GL_POINTS + n.
type Prim uint8

// The primitive types.
const (
	PrimPoints Prim = iota
	PrimLines
	PrimLineLoop
	PrimLineStrip
	PrimTriangles
	PrimTriangleStrip
	PrimTriangleFan
)

// String returns the GL name.
func (p Prim) String() string {
	return [...]string{"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN", "?"}[min(int(p), 7)]
}

// Rect is a window rectangle with its origin at the lower left, as GL has it.
type Rect struct{ X, Y, W, H int }

// Light is one light source, with position and direction already in eye
// coordinates (GL transforms them by the model-view matrix current when
// glLightfv is called).
type Light struct {
	Enabled                                 bool
	Ambient, Diffuse, Specular              [4]float32
	Position                                [4]float32 // eye space; w = 0 is directional
	SpotDirection                           [3]float32 // eye space
	SpotExponent, SpotCutoff                float32    // cutoff in degrees; 180 = not a spot
	ConstantAtten, LinearAtten, QuadraticAt float32
}

// Material is the front (and, in ES 1.1, back) material.
type Material struct {
	Ambient, Diffuse, Specular, Emission [4]float32
	Shininess                            float32
}

// Lighting is the fixed-function lighting state.
type Lighting struct {
	Enabled       bool
	Lights        [MaxLights]Light
	Ambient       [4]float32 // LIGHT_MODEL_AMBIENT
	TwoSide       bool
	Material      Material
	ColorMaterial bool // ambient and diffuse track the current colour
}

// Fog is the fixed-function fog state.
type Fog struct {
	Enabled         bool
	Mode            FogMode
	Density         float32
	Start, End      float32
	Color           [4]float32
	PerPixel        bool // GL_FOG_HINT is GL_NICEST
	CoordFromVertex bool // reserved for EXT_fog_coord; always false in ES 1.1
}

// TexFilter is a texture filter.
type TexFilter uint8

// The filters; the last four are minification-only.
const (
	FilterNearest TexFilter = iota
	FilterLinear
	FilterNearestMipmapNearest
	FilterLinearMipmapNearest
	FilterNearestMipmapLinear
	FilterLinearMipmapLinear
)

// Mipmapped reports whether the filter reads more than level 0.
func (f TexFilter) Mipmapped() bool { return f >= FilterNearestMipmapNearest }

// TexWrap is a texture wrap mode.
type TexWrap uint8

// The wrap modes (MirroredRepeat needs OES_texture_mirrored_repeat).
const (
	WrapRepeat TexWrap = iota
	WrapClampToEdge
	WrapMirroredRepeat
)

// Sampler is a texture object's sampling state.
type Sampler struct {
	MinFilter, MagFilter TexFilter
	WrapS, WrapT         TexWrap
}

// TexEnvMode is the texture environment function.
type TexEnvMode uint8

// The texture environment functions.
const (
	EnvModulate TexEnvMode = iota
	EnvDecal
	EnvBlend
	EnvReplace
	EnvAdd
	EnvCombine
)

// CombineFunc is a GL_COMBINE_RGB / GL_COMBINE_ALPHA function.
type CombineFunc uint8

// The combine functions (Dot3 only for RGB).
const (
	CombineReplace CombineFunc = iota
	CombineModulate
	CombineAdd
	CombineAddSigned
	CombineInterpolate
	CombineSubtract
	CombineDot3RGB
	CombineDot3RGBA
)

// CombineSrc is a combiner source.
type CombineSrc uint8

// The combiner sources.
const (
	SrcTexture CombineSrc = iota
	SrcConstant
	SrcPrimaryColor
	SrcPrevious
)

// CombineOperand selects colour or alpha, optionally inverted.
type CombineOperand uint8

// The operands (alpha operands only use the last two).
const (
	OperandSrcColor CombineOperand = iota
	OperandOneMinusSrcColor
	OperandSrcAlpha
	OperandOneMinusSrcAlpha
)

// TexEnv is one unit's texture environment.
type TexEnv struct {
	Mode                 TexEnvMode
	Color                [4]float32
	CombineRGB           CombineFunc
	CombineAlpha         CombineFunc
	SrcRGB, SrcAlpha     [3]CombineSrc
	OperandRGB           [3]CombineOperand
	OperandAlpha         [3]CombineOperand
	RGBScale, AlphaScale float32 // 1, 2 or 4
}

// DefaultTexEnv is the GL initial texture environment.
func DefaultTexEnv() TexEnv {
	return TexEnv{
		Mode: EnvModulate, CombineRGB: CombineModulate, CombineAlpha: CombineModulate,
		SrcRGB:       [3]CombineSrc{SrcTexture, SrcPrevious, SrcConstant},
		SrcAlpha:     [3]CombineSrc{SrcTexture, SrcPrevious, SrcConstant},
		OperandRGB:   [3]CombineOperand{OperandSrcColor, OperandSrcColor, OperandSrcAlpha},
		OperandAlpha: [3]CombineOperand{OperandSrcAlpha, OperandSrcAlpha, OperandSrcAlpha},
		RGBScale:     1, AlphaScale: 1,
	}
}

// TexUnit is the state of one texture unit as a draw sees it. Texture is nil
// when the unit is disabled or its texture is incomplete (GL then behaves as
// if texturing were off for the unit).
type TexUnit struct {
	Texture      *Texture
	Env          TexEnv
	Matrix       mgl32.Mat4
	CoordReplace bool // OES_point_sprite GL_COORD_REPLACE_OES
}

// PointParams are the point parameters of ES 1.1.
type PointParams struct {
	Size            float32
	Min, Max        float32
	DistAtten       [3]float32 // constant, linear, quadratic
	FadeThreshold   float32
	Smooth          bool
	Sprite          bool // GL_POINT_SPRITE_OES enabled
	SizeArrayActive bool // OES_point_size_array enabled and a pointer set
}

// StencilFace is the stencil state for one face.
type StencilFace struct {
	Func               CompareFunc
	Ref                int
	ValueMask          uint32
	WriteMask          uint32
	Fail, ZFail, ZPass StencilOp
}

// State is the resolved pipeline state for one draw. The state tracker owns
// it; a backend reads it and compares it with its shadow.
type State struct {
	// Surface and raster state.
	Viewport      Rect
	DepthRange    [2]float32
	ScissorTest   bool
	Scissor       Rect
	CullEnabled   bool
	CullFace      Face
	FrontFace     Winding
	Shade         Shade
	PolygonOffset struct {
		Fill          bool
		Factor, Units float32
	}
	LineWidth  float32
	LineSmooth bool
	Point      PointParams

	// Per-fragment operations.
	AlphaTest struct {
		Enabled bool
		Func    CompareFunc
		Ref     float32
	}
	StencilTest bool
	Stencil     [2]StencilFace // front, back (ES 1.1 sets both alike)
	DepthTest   bool
	DepthFunc   CompareFunc
	DepthMask   bool
	Blend       struct {
		Enabled            bool
		SrcRGB, DstRGB     BlendFactor
		SrcAlpha, DstAlpha BlendFactor
		EqRGB, EqAlpha     BlendEquation
		Color              [4]float32
	}
	LogicOpEnabled bool
	LogicOp        LogicOp
	ColorMask      [4]bool
	Dither         bool
	SampleCoverage bool // reserved; no backend multisamples

	// Transform and lighting (fixed function).
	ModelView, Projection mgl32.Mat4
	Normalize             bool
	RescaleNormal         bool
	Lighting              Lighting
	Fog                   Fog
	ClipPlanes            [MaxClipPlanes]struct {
		Enabled bool
		Eq      [4]float32 // eye space
	}
	MatrixPalette struct {
		Enabled  bool
		Matrices [MaxPaletteMatrix]mgl32.Mat4
	}

	// Current vertex attributes, used when an array is disabled.
	CurrentColor    [4]float32
	CurrentNormal   [3]float32
	CurrentTexCoord [MaxTextureUnits][4]float32
	CurrentPointSz  float32
	// CurrentAttrib holds the current values of the GL ES 2.0 generic
	// attributes (glVertexAttrib*), used when an array is disabled.
	CurrentAttrib [MaxGenericAttribs][4]float32

	// Texturing.
	Units [MaxTextureUnits]TexUnit

	// Program is the linked GL ES 2.0 program, nil for fixed function;
	// it implements ProgramState.
	Program Program
	// Framebuffer is the bound framebuffer object, nil for the surface.
	Framebuffer *Framebuffer
}

// Program is a linked GL ES 2.0 program, opaque to this package; backends
// that support shaders type-assert it to what their compiler produced.
type Program interface {
	// ID is the GL program name.
	ID() uint32
}

// AnyTexture reports whether any unit samples a texture.
func (s *State) AnyTexture() bool {
	for i := range s.Units {
		if s.Units[i].Texture != nil {
			return true
		}
	}
	return false
}

// AttribType is a vertex array component type.
type AttribType uint8

// The component types of ES 1.1 arrays.
const (
	TypeByte AttribType = iota + 1
	TypeUByte
	TypeShort
	TypeUShort
	TypeFixed
	TypeFloat
)

// Size returns the component size in bytes.
func (t AttribType) Size() int {
	switch t {
	case TypeByte, TypeUByte:
		return 1
	case TypeShort, TypeUShort:
		return 2
	}
	return 4
}

// Attrib is one vertex array. Data starts at the attribute of vertex 0 and
// runs to the end of the client array or buffer object.
type Attrib struct {
	Enabled    bool
	Size       int // components, 1-4
	Type       AttribType
	Normalized bool
	Stride     int // effective stride in bytes (never 0)
	Data       []byte
	// Buffer is the buffer object the array reads (0 for client memory),
	// with its generation and the array's offset into it, so that backends
	// can cache device copies.
	Buffer    uint32
	BufferGen uint64
	Offset    int
}

// Attribute slots of the fixed-function vertex arrays.
type VertexArrays struct {
	Position    Attrib
	Color       Attrib
	Normal      Attrib
	PointSize   Attrib
	Weight      Attrib
	MatrixIndex Attrib
	TexCoord    [MaxTextureUnits]Attrib
	// Generic holds GL ES 2.0 generic attributes by location.
	Generic [MaxGenericAttribs]Attrib
}

// IndexType is the type of an element array.
type IndexType uint8

// The index types.
const (
	IndexUByte IndexType = iota + 1
	IndexUShort
)

// DrawCall is one validated draw.
type DrawCall struct {
	Prim Prim
	// First and Count select vertices for DrawArrays; with Indices, Count is
	// the number of indices.
	First, Count int
	// Indices is nil for DrawArrays.
	Indices *Indices
	Arrays  *VertexArrays
	// MinIndex and MaxIndex bound the vertices read (First..First+Count-1
	// for DrawArrays); the state tracker checked every array covers them.
	MinIndex, MaxIndex int
	// DrawTexture is set for glDrawTex*OES: a screen-aligned textured
	// rectangle; Prim and the arrays are then unused.
	DrawTexture *DrawTexRect
}

// Indices is an element array.
type Indices struct {
	Type IndexType
	// Data starts at the first index used.
	Data      []byte
	Buffer    uint32
	BufferGen uint64
	Offset    int
}

// Index returns index i.
func (ix *Indices) Index(i int) int {
	if ix.Type == IndexUByte {
		return int(ix.Data[i])
	}
	return int(ix.Data[2*i]) | int(ix.Data[2*i+1])<<8
}

// DrawTexRect is an OES_draw_texture rectangle in window coordinates.
type DrawTexRect struct {
	X, Y, Z, W, H float32
}
