package glfuzz

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
)

// BackendInfo is what the generator needs to know of a backend.
type BackendInfo struct {
	Name string
	// ES2 is set when the backend creates GL ES 2.0 contexts.
	ES2 bool
	// MaxTextureSize and MaxViewport are the backend's limits, so that
	// sizes at and just past them are tried.
	MaxTextureSize int
	MaxViewport    int
}

var (
	backendsOnce sync.Once
	backendInfos []BackendInfo
)

// Backends describes every registered backend (opening each once).
func Backends() []BackendInfo {
	backendsOnce.Do(func() {
		for _, n := range driver.Names() {
			drv, err := driver.Open(n, driver.OpenOptions{})
			if err != nil {
				continue
			}
			c := drv.Caps()
			backendInfos = append(backendInfos, BackendInfo{Name: n, ES2: c.ES2,
				MaxTextureSize: c.Limits.MaxTextureSize, MaxViewport: c.Limits.MaxViewportDims[0]})
			drv.Close()
		}
	})
	return backendInfos
}

// GenOptions tune Generate.
type GenOptions struct {
	// Backends to choose from (Backends() when empty).
	Backends []BackendInfo
	// MaxCalls bounds the program's length (DefaultMaxCalls when 0).
	MaxCalls int
	// API forces the API version: 1 or 2 (0: either, where the backend
	// has ES 2.0).
	API int
}

// DefaultMaxCalls is the default bound on a program's length.
const DefaultMaxCalls = 400

type gen struct {
	src Source
	p   *Program
	b   BackendInfo
	es2 bool
	// arrayLen is how many vertices the arrays set up last hold, so that
	// draws mostly read inside them and reach the backend.
	arrayLen int
}

// Generate builds a random program from src: a backend, a surface and a
// list of calls that mixes short valid sequences (arrays, buffers,
// textures, draws, framebuffer objects, shaders) with single calls whose
// arguments are hostile.
func Generate(src Source, opt GenOptions) *Program {
	bs := opt.Backends
	if len(bs) == 0 {
		bs = Backends()
	}
	if opt.MaxCalls == 0 {
		opt.MaxCalls = DefaultMaxCalls
	}
	g := &gen{src: src, p: &Program{}}
	g.b = bs[src.Intn(len(bs))]
	g.p.Backend = g.b.Name
	g.es2 = g.b.ES2 && (opt.API == 2 || opt.API == 0 && src.Intn(2) == 0)
	g.p.Config = g.config()
	n := 1 + src.Intn(opt.MaxCalls)
	for len(g.p.Calls) < n && !src.Exhausted() {
		if g.chance(1, 3) {
			g.snippet()
		} else {
			g.randomCall()
		}
	}
	if len(g.p.Calls) > n {
		g.p.Calls = g.p.Calls[:n]
	}
	return g.p
}

func (g *gen) chance(k, n int) bool { return g.src.Intn(n) < k }

func (g *gen) pick(vs ...int64) int64 { return vs[g.src.Intn(len(vs))] }

func (g *gen) config() gles.Config {
	c := gles.Config{ES2: g.es2}
	switch r := g.src.Intn(100); {
	case r < 85:
		c.Width, c.Height = int(g.pick(1, 8, 16, 32, 33, 48, 64, 100)), int(g.pick(1, 8, 16, 32, 33, 48, 64, 100))
	case r < 92:
		// the backend's default surface
	case r < 97:
		big := []int64{512, 1023, 1024, 2047, 2048, int64(g.b.MaxViewport)}
		c.Width, c.Height = int(g.pick(big...)), int(g.pick(16, 64))
		if g.chance(1, 2) {
			c.Width, c.Height = c.Height, c.Width
		}
	default:
		c.Width, c.Height = int(g.hostileInt()), int(g.hostileInt())
	}
	c.DepthBits = int(g.pick(0, 0, 16, 16, 24, 32))
	c.StencilBits = int(g.pick(0, 0, 0, 8, 4))
	if g.chance(1, 20) {
		c.Format = driver.PixelFormat(g.src.Intn(8))
	}
	if g.chance(1, 10) {
		c.Workers = int(g.pick(1, 2, 3, -1))
	}
	if g.chance(1, 10) {
		c.MemoryBudget = g.pick(1, 4096, 1<<16, 1<<20, 4<<20)
	}
	return c
}

// hostileInts are the numbers that break size arithmetic.
var hostileInts = []int64{
	-1, -2, -4, -255, -65536, math.MinInt32, math.MinInt64, math.MinInt64 + 1,
	1<<15 - 1, 1 << 15, 1<<16 - 1, 1 << 16, 1<<16 + 1, 1 << 20, 1 << 24, 1<<24 + 1,
	1<<30 - 1, 1 << 30, 1<<31 - 1, 1 << 31, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1 << 40, 1 << 48,
	1 << 62, math.MaxInt64 / 2, math.MaxInt64/2 + 1, math.MaxInt64/3 + 1, math.MaxInt64/4 + 1,
	math.MaxInt64 / 8, math.MaxInt64 - 1, math.MaxInt64 - 3, math.MaxInt64,
}

func (g *gen) hostileInt() int64 {
	if g.chance(1, 8) {
		return int64(g.src.Uint64())
	}
	return g.pick(hostileInts...)
}

func (g *gen) sizeInt() int64 {
	return g.pick(0, 1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 32, 64, 128, 256, 1024, 2047, 2048, 2049, 4096)
}

// intFor picks an int argument by the parameter's name.
func (g *gen) intFor(method, name string) int64 {
	if g.chance(1, 6) {
		return g.hostileInt()
	}
	switch name {
	case "level":
		return g.pick(0, 0, 0, 0, 1, 2, 3, 5, 11, 12, -1, -2, -3)
	case "border":
		return g.pick(0, 0, 0, 0, 1, -1)
	case "width", "height", "w", "h":
		return g.sizeInt()
	case "x", "y", "xoffset", "yoffset":
		return g.pick(0, 0, 0, 1, 2, 4, 8, 16, 31, 32, -1, -16, 100, 2047)
	case "first":
		return g.pick(0, 0, 0, 1, 2, 3, 100, 65535, 65536)
	case "count":
		return g.pick(0, 1, 2, 3, 4, 5, 6, 8, 12, 36, 100, 1000, 65535, 65536, 100000)
	case "n":
		return g.pick(0, 1, 1, 1, 2, 3, 8, 1000)
	case "offset":
		return g.pick(0, 0, 2, 4, 8, 12, 16, 1, 3, 1000)
	case "stride":
		return g.pick(0, 0, 0, 4, 8, 12, 16, 20, 24, 32, 1, 3, 255, 256, 1000)
	case "size":
		return g.pick(1, 2, 3, 4, 4, 0, 5)
	case "index", "loc", "reg":
		return g.pick(0, 0, 1, 2, 3, 4, 7, 8, 15, 16, 95, 96, -1)
	case "param":
		if method == "PixelStorei" {
			return g.pick(1, 2, 4, 8, 0, 3, 16)
		}
		return int64(g.enumFor(method, "param"))
	case "ucount", "vcount":
		return g.pick(4, 4, 5, 7, 8, 0, 1, 3, 64, 65)
	case "udiv", "vdiv":
		return g.pick(1, 2, 4, 8, 16, 0, 64, 100)
	case "s", "ref", "index2":
		return g.pick(0, 1, 2, 127, 255, 256, -1)
	}
	return g.pick(0, 1, 2, 3, 4, 8, 16, 64, 255, 256, -1)
}

// enumHints names the enumerants a parameter usually takes.
var enumHints = map[string][]string{
	"prim": {"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"},
	"cap": {"FOG", "LIGHTING", "TEXTURE_2D", "CULL_FACE", "ALPHA_TEST", "BLEND", "COLOR_LOGIC_OP",
		"DITHER", "STENCIL_TEST", "DEPTH_TEST", "POINT_SMOOTH", "LINE_SMOOTH", "SCISSOR_TEST",
		"COLOR_MATERIAL", "NORMALIZE", "RESCALE_NORMAL", "POLYGON_OFFSET_FILL", "MULTISAMPLE",
		"SAMPLE_ALPHA_TO_COVERAGE", "SAMPLE_ALPHA_TO_ONE", "SAMPLE_COVERAGE", "POINT_SPRITE_OES",
		"MATRIX_PALETTE_OES", "LIGHT0", "LIGHT1", "LIGHT7", "CLIP_PLANE0", "CLIP_PLANE5"},
	"array": {"VERTEX_ARRAY", "COLOR_ARRAY", "NORMAL_ARRAY", "TEXTURE_COORD_ARRAY", "POINT_SIZE_ARRAY_OES",
		"WEIGHT_ARRAY_OES", "MATRIX_INDEX_ARRAY_OES"},
	"typ": {"FLOAT", "FIXED", "SHORT", "BYTE", "UNSIGNED_BYTE", "UNSIGNED_SHORT",
		"UNSIGNED_SHORT_5_6_5", "UNSIGNED_SHORT_4_4_4_4", "UNSIGNED_SHORT_5_5_5_1"},
	"format": {"RGBA", "RGB", "ALPHA", "LUMINANCE", "LUMINANCE_ALPHA", "ETC1_RGB8_OES",
		"COMPRESSED_RGB_S3TC_DXT1_EXT", "COMPRESSED_RGBA_S3TC_DXT5_EXT"},
	"internalformat": {"RGBA", "RGB", "ALPHA", "LUMINANCE", "LUMINANCE_ALPHA",
		"PALETTE4_RGB8_OES", "PALETTE8_RGBA8_OES", "PALETTE4_RGBA4_OES", "ETC1_RGB8_OES",
		"COMPRESSED_RGB_S3TC_DXT1_EXT", "COMPRESSED_RGBA_S3TC_DXT1_EXT", "COMPRESSED_RGBA_S3TC_DXT3_EXT",
		"COMPRESSED_RGBA_S3TC_DXT5_EXT", "RGBA4", "RGB5_A1", "RGB565", "DEPTH_COMPONENT16", "STENCIL_INDEX8"},
	"texpname": {"TEXTURE_MIN_FILTER", "TEXTURE_MAG_FILTER", "TEXTURE_WRAP_S", "TEXTURE_WRAP_T",
		"GENERATE_MIPMAP", "TEXTURE_CROP_RECT_OES"},
	"texparam": {"NEAREST", "LINEAR", "NEAREST_MIPMAP_NEAREST", "LINEAR_MIPMAP_NEAREST", "NEAREST_MIPMAP_LINEAR",
		"LINEAR_MIPMAP_LINEAR", "REPEAT", "CLAMP_TO_EDGE", "MIRRORED_REPEAT", "TRUE", "FALSE"},
	"envpname": {"TEXTURE_ENV_MODE", "TEXTURE_ENV_COLOR", "COMBINE_RGB", "COMBINE_ALPHA", "SRC0_RGB", "SRC1_RGB",
		"SRC2_ALPHA", "OPERAND0_RGB", "OPERAND1_ALPHA", "RGB_SCALE", "ALPHA_SCALE", "COORD_REPLACE_OES"},
	"envparam": {"MODULATE", "DECAL", "BLEND", "REPLACE", "ADD", "COMBINE", "ADD_SIGNED", "INTERPOLATE",
		"SUBTRACT", "DOT3_RGB", "DOT3_RGBA", "TEXTURE", "CONSTANT", "PRIMARY_COLOR", "PREVIOUS",
		"SRC_COLOR", "ONE_MINUS_SRC_COLOR", "SRC_ALPHA", "ONE_MINUS_SRC_ALPHA"},
	"texture": {"TEXTURE0", "TEXTURE1", "TEXTURE2", "TEXTURE3", "TEXTURE0+7", "TEXTURE0+32"},
	"func":    {"NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER", "NOTEQUAL", "GEQUAL", "ALWAYS"},
	"factor": {"ZERO", "ONE", "SRC_COLOR", "ONE_MINUS_SRC_COLOR", "SRC_ALPHA", "ONE_MINUS_SRC_ALPHA",
		"DST_ALPHA", "ONE_MINUS_DST_ALPHA", "DST_COLOR", "ONE_MINUS_DST_COLOR", "SRC_ALPHA_SATURATE",
		"CONSTANT_COLOR", "CONSTANT_ALPHA"},
	"equation":  {"FUNC_ADD_OES", "FUNC_SUBTRACT_OES", "FUNC_REVERSE_SUBTRACT_OES", "MIN_EXT", "MAX_EXT"},
	"stencilop": {"KEEP", "ZERO", "REPLACE", "INCR", "DECR", "INVERT", "INCR_WRAP", "DECR_WRAP"},
	"face":      {"FRONT", "BACK", "FRONT_AND_BACK"},
	"light":     {"LIGHT0", "LIGHT1", "LIGHT7", "LIGHT0+8"},
	"lightpname": {"AMBIENT", "DIFFUSE", "SPECULAR", "POSITION", "SPOT_DIRECTION", "SPOT_EXPONENT",
		"SPOT_CUTOFF", "CONSTANT_ATTENUATION", "LINEAR_ATTENUATION", "QUADRATIC_ATTENUATION", "EMISSION",
		"SHININESS", "AMBIENT_AND_DIFFUSE", "LIGHT_MODEL_AMBIENT", "LIGHT_MODEL_TWO_SIDE"},
	"fogpname":   {"FOG_MODE", "FOG_DENSITY", "FOG_START", "FOG_END", "FOG_COLOR", "LINEAR", "EXP", "EXP2"},
	"pointpname": {"POINT_SIZE_MIN", "POINT_SIZE_MAX", "POINT_FADE_THRESHOLD_SIZE", "POINT_DISTANCE_ATTENUATION"},
	"plane":      {"CLIP_PLANE0", "CLIP_PLANE1", "CLIP_PLANE5", "CLIP_PLANE0+6"},
	"matrixmode": {"MODELVIEW", "PROJECTION", "TEXTURE", "MATRIX_PALETTE_OES"},
	"target": {"TEXTURE_2D", "ARRAY_BUFFER", "ELEMENT_ARRAY_BUFFER", "FRAMEBUFFER", "RENDERBUFFER",
		"TEXTURE_ENV", "POINT_SPRITE_OES"},
	"hint":   {"PERSPECTIVE_CORRECTION_HINT", "POINT_SMOOTH_HINT", "LINE_SMOOTH_HINT", "FOG_HINT", "GENERATE_MIPMAP_HINT"},
	"usage":  {"STATIC_DRAW", "DYNAMIC_DRAW", "STREAM_DRAW"},
	"attach": {"COLOR_ATTACHMENT0", "DEPTH_ATTACHMENT", "STENCIL_ATTACHMENT"},
	"logic":  {"CLEAR", "AND", "COPY", "XOR", "INVERT", "SET", "NOOP"},
	"shader": {"VERTEX_SHADER", "FRAGMENT_SHADER"},
	"clear": {"COLOR_BUFFER_BIT", "DEPTH_BUFFER_BIT", "STENCIL_BUFFER_BIT",
		"ALL_BUFFER_BITS"},
	"mode": {"CW", "CCW", "FLAT", "SMOOTH", "FRONT", "BACK", "FRONT_AND_BACK", "DONT_CARE",
		"FASTEST", "NICEST"},
}

// hintValue returns the value of a hint: an enumerant's name, a name plus
// an offset ("TEXTURE0+32"), or ALL_BUFFER_BITS.
func hintValue(h string) gles.Enum {
	if h == "ALL_BUFFER_BITS" {
		return gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT
	}
	name, off, _ := strings.Cut(h, "+")
	v := enumByName[name]
	if off != "" {
		n, _ := strconv.Atoi(off)
		v += gles.Enum(n)
	}
	return v
}

// enumHintFor returns the hint list for a method's parameter.
func enumHintFor(method, name string) []string {
	switch {
	case name == "mode" && (strings.HasPrefix(method, "Draw") || method == "DrawElements"):
		return enumHints["prim"]
	case name == "mode" && strings.HasPrefix(method, "BlendEquation"), strings.HasPrefix(name, "mode") && strings.HasPrefix(method, "BlendEquation"):
		return enumHints["equation"]
	case name == "mode" && method == "MatrixMode":
		return enumHints["matrixmode"]
	case name == "cap":
		return enumHints["cap"]
	case name == "array":
		return enumHints["array"]
	case name == "typ":
		return enumHints["typ"]
	case name == "format" || name == "internalformat":
		return enumHints["internalformat"]
	case name == "pname" && strings.HasPrefix(method, "TexParameter"):
		return enumHints["texpname"]
	case name == "pname" && strings.HasPrefix(method, "TexEnv"):
		return enumHints["envpname"]
	case name == "pname" && (strings.HasPrefix(method, "Light") || strings.HasPrefix(method, "Material")):
		return enumHints["lightpname"]
	case name == "pname" && strings.HasPrefix(method, "Fog"):
		return enumHints["fogpname"]
	case name == "pname" && strings.HasPrefix(method, "PointParameter"):
		return enumHints["pointpname"]
	case name == "pname" && method == "PixelStorei":
		return []string{"PACK_ALIGNMENT", "UNPACK_ALIGNMENT"}
	case name == "param" && strings.HasPrefix(method, "TexParameter"):
		return enumHints["texparam"]
	case name == "param" && strings.HasPrefix(method, "TexEnv"):
		return enumHints["envparam"]
	case name == "texture" || name == "target" && strings.HasPrefix(method, "MultiTexCoord"):
		return enumHints["texture"]
	case name == "fn" || name == "fnc" || name == "func":
		return enumHints["func"]
	case strings.HasPrefix(name, "src") || strings.HasPrefix(name, "dst") || name == "sfactor" || name == "dfactor":
		return enumHints["factor"]
	case name == "fail" || name == "zfail" || name == "zpass":
		return enumHints["stencilop"]
	case name == "face":
		return enumHints["face"]
	case name == "light":
		return enumHints["light"]
	case name == "plane":
		return enumHints["plane"]
	case name == "target" && method == "Hint":
		return enumHints["hint"]
	case name == "target" || name == "textarget" || name == "rbtarget":
		return enumHints["target"]
	case name == "usage":
		return enumHints["usage"]
	case name == "attach":
		return enumHints["attach"]
	case name == "op" || name == "opcode":
		return enumHints["logic"]
	case name == "typ" && method == "CreateShader", name == "shaderType":
		return enumHints["shader"]
	case name == "mask" && method == "Clear":
		return enumHints["clear"]
	case name == "mode":
		return enumHints["mode"]
	}
	return nil
}

// enumFor picks an Enum argument: usually one the parameter takes,
// sometimes any enumerant, sometimes any number.
func (g *gen) enumFor(method, name string) gles.Enum {
	hints := enumHintFor(method, name)
	if method == "CreateShader" {
		hints = enumHints["shader"]
	}
	switch r := g.src.Intn(20); {
	case r < 15 && len(hints) > 0:
		return hintValue(hints[g.src.Intn(len(hints))])
	case r < 18:
		return enumValues[g.src.Intn(len(enumValues))]
	case r < 19:
		return gles.Enum(g.pick(0, 0xFFFFFFFF, 0x80000000, 0xFFFF, 0x10000, 1, 7))
	}
	return gles.Enum(g.src.Uint64())
}

var hostileFloats = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat32, -math.MaxFloat32, 1e30, -1e30,
	1e-40, -1e-45, 1e9, -1e9, 65536, 16777217, math.Copysign(0, -1)}

func (g *gen) floatFor(name string) float64 {
	if g.chance(1, 8) {
		return float64(float32(g.pick64f(hostileFloats...)))
	}
	switch name {
	case "r", "g", "b", "a", "value", "ref", "near", "far", "s", "t", "q":
		return float64(float32(g.src.Intn(101)) / 100)
	case "width", "size":
		return float64(g.pick(1, 1, 2, 3, 8, 64, 0, 100))
	case "angle":
		return float64(g.pick(0, 30, 45, 90, 180, 360, -90))
	}
	return float64(float32(g.src.Intn(401)-200) / 100)
}

func (g *gen) pick64f(vs ...float64) float64 { return vs[g.src.Intn(len(vs))] }

func (g *gen) fixedFor(name string) int64 {
	if g.chance(1, 6) {
		return g.pick(math.MaxInt32, math.MinInt32, -1, 1, 0x7FFF0000, math.MinInt32+1)
	}
	return int64(g.floatFor(name) * 65536)
}

func (g *gen) nameFor() int64 {
	if g.chance(1, 10) {
		return g.pick(math.MaxUint32, 1<<31, 1000, 65536)
	}
	return int64(g.src.Intn(7))
}

// shaders are sources the ES 2.0 programs use: valid ones so that draws
// reach the backend, and broken ones.
var shaders = []string{
	"attribute vec4 pos; void main() { gl_Position = pos; }",
	"attribute vec4 pos; attribute vec4 col; varying vec4 v; void main() { v = col; gl_Position = pos; gl_PointSize = 4.0; }",
	"attribute vec4 pos; uniform mat4 m; varying vec2 tc; void main() { tc = pos.xy; gl_Position = m * pos; }",
	"precision mediump float; uniform vec4 tint; void main() { gl_FragColor = tint; }",
	"precision mediump float; varying vec4 v; void main() { gl_FragColor = v; }",
	"precision mediump float; varying vec2 tc; uniform sampler2D s; void main() { gl_FragColor = texture2D(s, tc); }",
	"precision mediump float; uniform float k[4]; void main() { float x = 0.0; for (int i = 0; i < 4; i++) x += k[i]; gl_FragColor = vec4(x); }",
	"void main() { gl_FragColor = vec4(1.0 / 0.0); }",
	"void main() {",
	"#version 100\n#define A(x) A(x)\nvoid main() { A(1); }",
	"",
	"precision mediump float; void main() { for (int i = 0; i < 100000; i++) { } gl_FragColor = vec4(0.0); }",
	"uniform mat4 m[1000]; attribute vec4 pos; void main() { gl_Position = m[999] * pos; }",
}

func (g *gen) stringFor(name string) string {
	switch name {
	case "name":
		return []string{"pos", "col", "tint", "m", "s", "k", "k[2]", "k[9]", "", "gl_Position", "pos[0]", strings.Repeat("x", 300)}[g.src.Intn(12)]
	}
	return shaders[g.src.Intn(len(shaders))]
}

// slice builds a slice argument of type typ ("[]float32", ...) with
// about n elements.
func (g *gen) slice(typ string, n int) Arg {
	a := Arg{Type: typ}
	elem := typ[2:]
	n = max(n, 0)
	if typ == "[]string" {
		for i := 0; i < n; i++ {
			a.Strs = append(a.Strs, g.stringFor("source"))
		}
		if a.Strs == nil {
			a.Strs = []string{}
		}
		return a
	}
	if n > 16 {
		a.Len = n
		switch {
		case elem == "float32" && g.chance(3, 4):
			a.Fill = FillWave
		case (elem == "uint16" || elem == "uint8") && g.chance(3, 4):
			a.Fill, a.Mod = FillSeq, int(g.pick(3, 4, 16, 255, 256, 1000, 65535))
		default:
			a.Fill = FillZero
		}
		return a
	}
	a.Elems = make([]float64, n)
	for i := range a.Elems {
		switch elem {
		case "float32", "float64":
			a.Elems[i] = g.floatFor("coord")
		case "gles.Fixed":
			a.Elems[i] = float64(wrapInt(elem, g.fixedFor("coord")))
		case "uint8", "int8":
			a.Elems[i] = float64(g.src.Intn(256))
			if elem == "int8" {
				a.Elems[i] -= 128
			}
		case "uint16", "int16":
			a.Elems[i] = float64(g.pick(0, 1, 2, 3, 4, 5, 100, 255, 65535))
		case "uint32":
			a.Elems[i] = float64(g.nameFor())
		case "bool":
			a.Elems[i] = float64(g.src.Intn(2))
		default:
			a.Elems[i] = float64(wrapInt(elem, g.intFor("", "param")))
		}
	}
	return a
}

// wrapInt converts v to an integer type as Go's conversion does, so that
// the value prints as a constant of that type.
func wrapInt(typ string, v int64) int64 {
	switch typ {
	case "int8":
		return int64(int8(v))
	case "uint8":
		return int64(uint8(v))
	case "int16":
		return int64(int16(v))
	case "uint16":
		return int64(uint16(v))
	case "int32", "gles.Fixed":
		return int64(int32(v))
	case "uint32":
		return int64(uint32(v))
	}
	// float64 holds integers exactly up to 2^53; larger ones are kept
	// at that precision so that they print and parse back the same.
	return int64(float64(v))
}

func (g *gen) sliceLen() int {
	switch r := g.src.Intn(20); {
	case r < 14:
		return int(g.pick(0, 1, 2, 3, 4, 4, 6, 8, 9, 12, 16, 16))
	case r < 19:
		return int(g.pick(17, 24, 64, 100, 256, 1000, 4096, 1<<16))
	}
	return int(g.pick(1<<18, 1<<20, 1<<22))
}

// anyArg picks a value for a parameter of type any: usually a slice of
// numbers or an offset, sometimes a type the entry point does not take.
func (g *gen) anyArg(method, name string) Arg {
	switch r := g.src.Intn(20); {
	case r < 10:
		types := []string{"[]float32", "[]float32", "[]uint8", "[]uint16", "[]int16", "[]int8", "[]int32", "[]uint32"}
		if name == "indices" {
			types = []string{"[]uint16", "[]uint16", "[]uint8", "[]uint8", "[]uint32"}
		}
		return g.slice(types[g.src.Intn(len(types))], g.sliceLen())
	case r < 15:
		return Arg{Type: "int", Int: g.intFor(method, "offset")}
	case r < 16:
		return Arg{Type: "nil"}
	case r < 17:
		return Arg{Type: "int", Int: g.hostileInt()}
	case r < 18:
		t := []string{"int32", "int64", "uint32", "uintptr"}[g.src.Intn(4)]
		v := g.hostileInt()
		if t == "uint32" || t == "int32" {
			v = int64(uint32(v))
			if t == "int32" {
				v = int64(int32(v))
			}
		}
		if t == "uintptr" && v < 0 {
			v = -v
		}
		return Arg{Type: t, Int: v}
	case r < 19:
		return Arg{Type: "string", Str: "not data"}
	}
	return g.slice([]string{"[]float64", "[]int", "[]bool", "[]string"}[g.src.Intn(4)], int(g.pick(0, 3, 12)))
}

// argFor builds an argument for parameter p of method m.
func (g *gen) argFor(m *Method, p Param) Arg {
	switch t := p.Type; t {
	case "Enum":
		return Arg{Type: "gles.Enum", Int: int64(g.enumFor(m.Name, p.Name))}
	case "int":
		return Arg{Type: "int", Int: g.intFor(m.Name, p.Name)}
	case "int32":
		v := g.intFor(m.Name, p.Name)
		return Arg{Type: "int32", Int: int64(int32(v))}
	case "uint32":
		if p.Name == "mask" {
			return Arg{Type: "uint32", Int: g.pick(0, 0xFF, 0xFFFFFFFF, 1, 0x80000000)}
		}
		return Arg{Type: "uint32", Int: g.nameFor()}
	case "uint8":
		return Arg{Type: "uint8", Int: int64(g.src.Intn(256))}
	case "float32":
		return Arg{Type: "float32", Float: float64(float32(g.floatFor(p.Name)))}
	case "Fixed":
		return Arg{Type: "gles.Fixed", Int: g.fixedFor(p.Name)}
	case "bool":
		return Arg{Type: "bool", Int: int64(g.src.Intn(2))}
	case "string":
		return Arg{Type: "string", Str: g.stringFor(p.Name)}
	case "any":
		return g.anyArg(m.Name, p.Name)
	case "...uint32":
		n := int(g.pick(0, 1, 1, 2, 3))
		a := g.slice("[]uint32", n)
		return a
	case "...string":
		return g.slice("[]string", int(g.pick(1, 1, 1, 2, 0)))
	case "...float32":
		return g.slice("[]float32", int(g.pick(0, 1, 2, 3, 4)))
	}
	if isSlice(p.Type) {
		typ := goType(p.Type)
		n := int(g.pick(0, 1, 2, 3, 4, 4, 4, 16, 16, 5, 100))
		return g.slice(typ, n)
	}
	return Arg{Type: "nil"}
}

// randomCall adds one call of a random entry point, preferring those of
// the context's API version.
func (g *gen) randomCall() {
	for {
		m := &api[g.src.Intn(len(api))]
		wrong := (m.API == API1 && g.es2) || (m.API == API2 && !g.es2)
		if wrong && !g.chance(1, 8) {
			if g.src.Exhausted() {
				return
			}
			continue
		}
		if m.Name == "Close" && !g.chance(1, 20) {
			continue
		}
		c := Call{Recv: m.Recv, Method: m.Name}
		for _, p := range m.Params {
			c.Args = append(c.Args, g.argFor(m, p))
		}
		g.fix(&c)
		g.p.Calls = append(g.p.Calls, c)
		return
	}
}

// fix makes the data arguments of some calls fit their other arguments
// (most of the time), so that the calls reach the backend.
func (g *gen) fix(c *Call) {
	if g.chance(1, 4) {
		return
	}
	a := c.Args
	switch c.Method {
	case "TexImage2D", "TexSubImage2D":
		wi, hi, fi, ti := 3, 4, 6, 7
		if c.Method == "TexSubImage2D" {
			wi, hi, fi, ti = 4, 5, 6, 7
		}
		w, h := a[wi].Int, a[hi].Int
		if w >= 0 && h >= 0 && w <= 1<<22 && h <= 1<<22 && w*h <= 1<<22 {
			bpp := int64(2)
			switch gles.Enum(a[ti].Int) {
			case gles.UNSIGNED_BYTE:
				bpp = map[gles.Enum]int64{gles.RGBA: 4, gles.RGB: 3, gles.LUMINANCE_ALPHA: 2}[gles.Enum(a[fi].Int)]
				if bpp == 0 {
					bpp = 1
				}
			}
			a[len(a)-1] = g.slice("[]uint8", int(w*h*bpp+g.pick(0, 0, 0, 3, -1)))
		}
	case "CompressedTexImage2D", "CompressedTexSubImage2D":
		w, h := a[3].Int, a[4].Int
		if c.Method == "CompressedTexSubImage2D" {
			w, h = a[4].Int, a[5].Int
		}
		if w >= 0 && h >= 0 && w <= 1<<22 && h <= 1<<22 && w*h <= 1<<22 {
			n := ((w + 3) / 4) * ((h + 3) / 4) * g.pick(8, 16)
			if gles.Enum(a[2].Int) >= gles.PALETTE4_RGB8_OES && gles.Enum(a[2].Int) <= gles.PALETTE8_RGB5_A1_OES {
				n = g.pick(16*3, 16*4, 16*2, 256*3, 256*4) + w*h*g.pick(1, 2)/2
			}
			a[len(a)-1] = g.slice("[]uint8", int(n))
		}
	case "ReadPixels":
		w, h := a[2].Int, a[3].Int
		if w >= 0 && h >= 0 && w <= 1<<22 && h <= 1<<22 && w*h <= 1<<22 {
			a[4] = Arg{Type: "gles.Enum", Int: int64(gles.RGBA)}
			a[5] = Arg{Type: "gles.Enum", Int: int64(gles.UNSIGNED_BYTE)}
			a[6] = g.slice("[]uint8", int(w*h*4))
		}
	case "DrawElements":
		if a[3].Type == "int" {
			break
		}
		if gles.Enum(a[2].Int) == gles.UNSIGNED_BYTE {
			a[3] = g.slice("[]uint8", int(min(max(a[1].Int, 0), 1<<20)))
		} else {
			a[2] = Arg{Type: "gles.Enum", Int: int64(gles.UNSIGNED_SHORT)}
			a[3] = g.slice("[]uint16", int(min(max(a[1].Int, 0), 1<<20)))
		}
	}
}
