package glsl

import (
	"fmt"
	"math"
	"strings"
	"sync"
)

// BuiltinOp names a built-in function. A back end lowers a *BuiltinCall by
// its Op and argument types; overloads of one function share the Op (the
// optional bias of texture2D and friends shows as a third argument).
type BuiltinOp uint8

// Built-in functions of GLSL ES 1.00 chapter 8 and the GLSL 1.10/1.20
// additions (texture1D/3D, shadow lookups, ftransform, noise, transpose,
// outerProduct).
const (
	OpNone BuiltinOp = iota
	OpRadians
	OpDegrees
	OpSin
	OpCos
	OpTan
	OpAsin
	OpAcos
	OpAtan  // atan(y_over_x)
	OpAtan2 // atan(y, x)
	OpPow
	OpExp
	OpLog
	OpExp2
	OpLog2
	OpSqrt
	OpInversesqrt
	OpAbs
	OpSign
	OpFloor
	OpCeil
	OpFract
	OpMod
	OpMin
	OpMax
	OpClamp
	OpMix
	OpStep
	OpSmoothstep
	OpLength
	OpDistance
	OpDot
	OpCross
	OpNormalize
	OpFaceforward
	OpReflect
	OpRefract
	OpFtransform
	OpMatrixCompMult
	OpOuterProduct
	OpTranspose
	OpLessThan
	OpLessThanEqual
	OpGreaterThan
	OpGreaterThanEqual
	OpEqual
	OpNotEqual
	OpAny
	OpAll
	OpNot
	OpDFdx
	OpDFdy
	OpFwidth
	OpNoise1
	OpNoise2
	OpNoise3
	OpNoise4
	OpTexture1D
	OpTexture1DProj
	OpTexture1DLod
	OpTexture1DProjLod
	OpTexture2D
	OpTexture2DProj
	OpTexture2DLod
	OpTexture2DProjLod
	OpTexture3D
	OpTexture3DProj
	OpTexture3DLod
	OpTexture3DProjLod
	OpTextureCube
	OpTextureCubeLod
	OpShadow1D
	OpShadow1DProj
	OpShadow1DLod
	OpShadow1DProjLod
	OpShadow2D
	OpShadow2DProj
	OpShadow2DLod
	OpShadow2DProjLod
	numBuiltinOps
)

// avail says where a built-in signature exists.
type avail uint16

const (
	availES      avail = 1 << iota // GLSL ES 1.00
	availDesktop                   // GLSL 1.10 and 1.20
	avail120                       // GLSL 1.20 only (with availDesktop)
	availVS                        // vertex shaders
	availFS                        // fragment shaders
	availDeriv                     // ES: only with GL_OES_standard_derivatives

	availAll  = availES | availDesktop | availVS | availFS
	availBoth = availES | availDesktop
)

// builtinDef is one row of the built-in function table: the function, where
// it exists, its signatures in a small generic notation, and its constant
// folder (nil: never constant, as texture lookups).
type builtinDef struct {
	op    BuiltinOp
	name  string
	avail avail
	sigs  string
	fold  func(args []Value, ret Type) Value
}

// Signature notation: "ret(arg, arg)" separated by ';'. genType stands for
// float, vec2, vec3, vec4; vec, ivec and bvec for the 2- to 4-component
// vectors of one size n; mat for the square matrices (and, from GLSL 1.20,
// the non-square ones). A signature is instantiated for every n.
var builtinTable = []builtinDef{
	{OpRadians, "radians", availAll, "genType(genType)", compWise(func(a []float64) float64 { return a[0] * math.Pi / 180 })},
	{OpDegrees, "degrees", availAll, "genType(genType)", compWise(func(a []float64) float64 { return a[0] * 180 / math.Pi })},
	{OpSin, "sin", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Sin(a[0]) })},
	{OpCos, "cos", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Cos(a[0]) })},
	{OpTan, "tan", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Tan(a[0]) })},
	{OpAsin, "asin", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Asin(a[0]) })},
	{OpAcos, "acos", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Acos(a[0]) })},
	{OpAtan2, "atan", availAll, "genType(genType, genType)", compWise(func(a []float64) float64 { return math.Atan2(a[0], a[1]) })},
	{OpAtan, "atan", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Atan(a[0]) })},

	{OpPow, "pow", availAll, "genType(genType, genType)", compWise(func(a []float64) float64 { return math.Pow(a[0], a[1]) })},
	{OpExp, "exp", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Exp(a[0]) })},
	{OpLog, "log", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Log(a[0]) })},
	{OpExp2, "exp2", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Exp2(a[0]) })},
	{OpLog2, "log2", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Log2(a[0]) })},
	{OpSqrt, "sqrt", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Sqrt(a[0]) })},
	{OpInversesqrt, "inversesqrt", availAll, "genType(genType)", compWise(func(a []float64) float64 { return 1 / math.Sqrt(a[0]) })},

	{OpAbs, "abs", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Abs(a[0]) })},
	{OpSign, "sign", availAll, "genType(genType)", compWise(func(a []float64) float64 {
		switch {
		case a[0] > 0:
			return 1
		case a[0] < 0:
			return -1
		}
		return 0
	})},
	{OpFloor, "floor", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Floor(a[0]) })},
	{OpCeil, "ceil", availAll, "genType(genType)", compWise(func(a []float64) float64 { return math.Ceil(a[0]) })},
	{OpFract, "fract", availAll, "genType(genType)", compWise(func(a []float64) float64 { return a[0] - math.Floor(a[0]) })},
	{OpMod, "mod", availAll, "genType(genType, float); genType(genType, genType)", compWise(func(a []float64) float64 {
		return a[0] - a[1]*math.Floor(a[0]/a[1])
	})},
	{OpMin, "min", availAll, "genType(genType, genType); genType(genType, float)", compWise(func(a []float64) float64 { return math.Min(a[0], a[1]) })},
	{OpMax, "max", availAll, "genType(genType, genType); genType(genType, float)", compWise(func(a []float64) float64 { return math.Max(a[0], a[1]) })},
	{OpClamp, "clamp", availAll, "genType(genType, genType, genType); genType(genType, float, float)", compWise(func(a []float64) float64 {
		return math.Min(math.Max(a[0], a[1]), a[2])
	})},
	{OpMix, "mix", availAll, "genType(genType, genType, genType); genType(genType, genType, float)", compWise(func(a []float64) float64 {
		return a[0]*(1-a[2]) + a[1]*a[2]
	})},
	{OpStep, "step", availAll, "genType(genType, genType); genType(float, genType)", compWise(func(a []float64) float64 { return b2f(a[1] >= a[0]) })},
	{OpSmoothstep, "smoothstep", availAll, "genType(genType, genType, genType); genType(float, float, genType)", compWise(func(a []float64) float64 {
		t := math.Min(math.Max((a[2]-a[0])/(a[1]-a[0]), 0), 1)
		return t * t * (3 - 2*t)
	})},

	{OpLength, "length", availAll, "float(genType)", func(a []Value, ret Type) Value { return floatValue(float32(math.Sqrt(dot(a[0], a[0])))) }},
	{OpDistance, "distance", availAll, "float(genType, genType)", func(a []Value, ret Type) Value {
		d := sub(a[0], a[1])
		return floatValue(float32(math.Sqrt(dot(d, d))))
	}},
	{OpDot, "dot", availAll, "float(genType, genType)", func(a []Value, ret Type) Value { return floatValue(float32(dot(a[0], a[1]))) }},
	{OpCross, "cross", availAll, "vec3(vec3, vec3)", func(a []Value, ret Type) Value {
		x, y := a[0].C, a[1].C
		return rounded(ret, []float64{x[1]*y[2] - y[1]*x[2], x[2]*y[0] - y[2]*x[0], x[0]*y[1] - y[0]*x[1]})
	}},
	{OpNormalize, "normalize", availAll, "genType(genType)", func(a []Value, ret Type) Value {
		l := math.Sqrt(dot(a[0], a[0]))
		return rounded(ret, scale(a[0].C, 1/l))
	}},
	{OpFaceforward, "faceforward", availAll, "genType(genType, genType, genType)", func(a []Value, ret Type) Value {
		if dot(a[2], a[1]) < 0 {
			return rounded(ret, a[0].C)
		}
		return rounded(ret, scale(a[0].C, -1))
	}},
	{OpReflect, "reflect", availAll, "genType(genType, genType)", func(a []Value, ret Type) Value {
		d := dot(a[1], a[0])
		out := make([]float64, len(a[0].C))
		for i := range out {
			out[i] = a[0].C[i] - 2*d*a[1].C[i]
		}
		return rounded(ret, out)
	}},
	{OpRefract, "refract", availAll, "genType(genType, genType, float)", func(a []Value, ret Type) Value {
		d, eta := dot(a[1], a[0]), a[2].C[0]
		k := 1 - eta*eta*(1-d*d)
		out := make([]float64, len(a[0].C))
		if k >= 0 {
			for i := range out {
				out[i] = eta*a[0].C[i] - (eta*d+math.Sqrt(k))*a[1].C[i]
			}
		}
		return rounded(ret, out)
	}},
	{OpFtransform, "ftransform", availDesktop | availVS, "vec4()", nil},

	{OpMatrixCompMult, "matrixCompMult", availAll, "mat(mat, mat)", compWise(func(a []float64) float64 { return a[0] * a[1] })},
	{OpOuterProduct, "outerProduct", availDesktop | avail120 | availVS | availFS, "outer", func(a []Value, ret Type) Value {
		out := make([]float64, 0, ret.Comps())
		for c := 0; c < int(ret.Cols); c++ {
			for r := 0; r < int(ret.Rows); r++ {
				out = append(out, a[0].C[r]*a[1].C[c])
			}
		}
		return rounded(ret, out)
	}},
	{OpTranspose, "transpose", availDesktop | avail120 | availVS | availFS, "transpose", func(a []Value, ret Type) Value {
		t := a[0].Type
		out := make([]float64, 0, ret.Comps())
		for c := 0; c < int(ret.Cols); c++ {
			for r := 0; r < int(ret.Rows); r++ {
				out = append(out, a[0].C[r*int(t.Rows)+c])
			}
		}
		return rounded(ret, out)
	}},

	{OpLessThan, "lessThan", availAll, "bvec(vec, vec); bvec(ivec, ivec)", compare(func(x, y float64) bool { return x < y })},
	{OpLessThanEqual, "lessThanEqual", availAll, "bvec(vec, vec); bvec(ivec, ivec)", compare(func(x, y float64) bool { return x <= y })},
	{OpGreaterThan, "greaterThan", availAll, "bvec(vec, vec); bvec(ivec, ivec)", compare(func(x, y float64) bool { return x > y })},
	{OpGreaterThanEqual, "greaterThanEqual", availAll, "bvec(vec, vec); bvec(ivec, ivec)", compare(func(x, y float64) bool { return x >= y })},
	{OpEqual, "equal", availAll, "bvec(vec, vec); bvec(ivec, ivec); bvec(bvec, bvec)", compare(func(x, y float64) bool { return x == y })},
	{OpNotEqual, "notEqual", availAll, "bvec(vec, vec); bvec(ivec, ivec); bvec(bvec, bvec)", compare(func(x, y float64) bool { return x != y })},
	{OpAny, "any", availAll, "bool(bvec)", func(a []Value, ret Type) Value {
		r := false
		for _, c := range a[0].C {
			r = r || c != 0
		}
		return boolValue(r)
	}},
	{OpAll, "all", availAll, "bool(bvec)", func(a []Value, ret Type) Value {
		r := true
		for _, c := range a[0].C {
			r = r && c != 0
		}
		return boolValue(r)
	}},
	{OpNot, "not", availAll, "bvec(bvec)", compWise(func(a []float64) float64 { return b2f(a[0] == 0) })},

	{OpDFdx, "dFdx", availBoth | availFS | availDeriv, "genType(genType)", zeroFold},
	{OpDFdy, "dFdy", availBoth | availFS | availDeriv, "genType(genType)", zeroFold},
	{OpFwidth, "fwidth", availBoth | availFS | availDeriv, "genType(genType)", zeroFold},
	{OpNoise1, "noise1", availDesktop | availVS | availFS, "float(genType)", nil},
	{OpNoise2, "noise2", availDesktop | availVS | availFS, "vec2(genType)", nil},
	{OpNoise3, "noise3", availDesktop | availVS | availFS, "vec3(genType)", nil},
	{OpNoise4, "noise4", availDesktop | availVS | availFS, "vec4(genType)", nil},

	// Texture lookups (ES 1.00 section 8.7, GLSL 1.10 section 8.7). The
	// bias forms exist in fragment shaders only, the Lod forms in vertex
	// shaders only.
	{OpTexture2D, "texture2D", availAll, "vec4(sampler2D, vec2)", nil},
	{OpTexture2D, "texture2D", availBoth | availFS, "vec4(sampler2D, vec2, float)", nil},
	{OpTexture2DProj, "texture2DProj", availAll, "vec4(sampler2D, vec3); vec4(sampler2D, vec4)", nil},
	{OpTexture2DProj, "texture2DProj", availBoth | availFS, "vec4(sampler2D, vec3, float); vec4(sampler2D, vec4, float)", nil},
	{OpTexture2DLod, "texture2DLod", availBoth | availVS, "vec4(sampler2D, vec2, float)", nil},
	{OpTexture2DProjLod, "texture2DProjLod", availBoth | availVS, "vec4(sampler2D, vec3, float); vec4(sampler2D, vec4, float)", nil},
	{OpTextureCube, "textureCube", availAll, "vec4(samplerCube, vec3)", nil},
	{OpTextureCube, "textureCube", availBoth | availFS, "vec4(samplerCube, vec3, float)", nil},
	{OpTextureCubeLod, "textureCubeLod", availBoth | availVS, "vec4(samplerCube, vec3, float)", nil},

	{OpTexture1D, "texture1D", availDesktop | availVS | availFS, "vec4(sampler1D, float)", nil},
	{OpTexture1D, "texture1D", availDesktop | availFS, "vec4(sampler1D, float, float)", nil},
	{OpTexture1DProj, "texture1DProj", availDesktop | availVS | availFS, "vec4(sampler1D, vec2); vec4(sampler1D, vec4)", nil},
	{OpTexture1DProj, "texture1DProj", availDesktop | availFS, "vec4(sampler1D, vec2, float); vec4(sampler1D, vec4, float)", nil},
	{OpTexture1DLod, "texture1DLod", availDesktop | availVS, "vec4(sampler1D, float, float)", nil},
	{OpTexture1DProjLod, "texture1DProjLod", availDesktop | availVS, "vec4(sampler1D, vec2, float); vec4(sampler1D, vec4, float)", nil},
	{OpTexture3D, "texture3D", availDesktop | availVS | availFS, "vec4(sampler3D, vec3)", nil},
	{OpTexture3D, "texture3D", availDesktop | availFS, "vec4(sampler3D, vec3, float)", nil},
	{OpTexture3DProj, "texture3DProj", availDesktop | availVS | availFS, "vec4(sampler3D, vec4)", nil},
	{OpTexture3DProj, "texture3DProj", availDesktop | availFS, "vec4(sampler3D, vec4, float)", nil},
	{OpTexture3DLod, "texture3DLod", availDesktop | availVS, "vec4(sampler3D, vec3, float)", nil},
	{OpTexture3DProjLod, "texture3DProjLod", availDesktop | availVS, "vec4(sampler3D, vec4, float)", nil},
	{OpShadow1D, "shadow1D", availDesktop | availVS | availFS, "vec4(sampler1DShadow, vec3)", nil},
	{OpShadow1D, "shadow1D", availDesktop | availFS, "vec4(sampler1DShadow, vec3, float)", nil},
	{OpShadow2D, "shadow2D", availDesktop | availVS | availFS, "vec4(sampler2DShadow, vec3)", nil},
	{OpShadow2D, "shadow2D", availDesktop | availFS, "vec4(sampler2DShadow, vec3, float)", nil},
	{OpShadow1DProj, "shadow1DProj", availDesktop | availVS | availFS, "vec4(sampler1DShadow, vec4)", nil},
	{OpShadow1DProj, "shadow1DProj", availDesktop | availFS, "vec4(sampler1DShadow, vec4, float)", nil},
	{OpShadow2DProj, "shadow2DProj", availDesktop | availVS | availFS, "vec4(sampler2DShadow, vec4)", nil},
	{OpShadow2DProj, "shadow2DProj", availDesktop | availFS, "vec4(sampler2DShadow, vec4, float)", nil},
	{OpShadow1DLod, "shadow1DLod", availDesktop | availVS, "vec4(sampler1DShadow, vec3, float)", nil},
	{OpShadow2DLod, "shadow2DLod", availDesktop | availVS, "vec4(sampler2DShadow, vec3, float)", nil},
	{OpShadow1DProjLod, "shadow1DProjLod", availDesktop | availVS, "vec4(sampler1DShadow, vec4, float)", nil},
	{OpShadow2DProjLod, "shadow2DProjLod", availDesktop | availVS, "vec4(sampler2DShadow, vec4, float)", nil},
}

// builtinNames maps each Op to its GLSL name.
var builtinNames [numBuiltinOps]string

func init() {
	for _, d := range builtinTable {
		builtinNames[d.op] = d.name
	}
}

// String returns the GLSL name of the built-in function.
func (op BuiltinOp) String() string {
	if op < numBuiltinOps && builtinNames[op] != "" {
		return builtinNames[op]
	}
	return fmt.Sprintf("BuiltinOp(%d)", op)
}

// IsTexture reports whether op is a texture lookup.
func (op BuiltinOp) IsTexture() bool { return op >= OpTexture1D && op <= OpShadow2DProjLod }

// BuiltinSig is one concrete overload of a built-in function.
type BuiltinSig struct {
	Op     BuiltinOp
	Name   string
	Ret    Type
	Params []Type
	def    *builtinDef
}

// String renders the signature as GLSL declares it.
func (s *BuiltinSig) String() string {
	p := make([]string, len(s.Params))
	for i, t := range s.Params {
		p[i] = t.String()
	}
	return fmt.Sprintf("%s %s(%s)", s.Ret, s.Name, strings.Join(p, ", "))
}

type sigKey struct {
	version     int
	stage       Stage
	derivatives bool
}

var (
	sigCacheMu sync.Mutex
	sigCache   = map[sigKey]map[string][]*BuiltinSig{}
)

// builtinSigs returns the built-in overloads visible to a shader of the
// given version and stage, by name. derivatives says whether
// GL_OES_standard_derivatives is enabled (ES only). The tables are built
// once and shared: callers must not modify them.
func builtinSigs(version int, stage Stage, derivatives bool) map[string][]*BuiltinSig {
	k := sigKey{version, stage, derivatives}
	sigCacheMu.Lock()
	defer sigCacheMu.Unlock()
	if m, ok := sigCache[k]; ok {
		return m
	}
	m := buildSigs(version, stage, derivatives)
	sigCache[k] = m
	return m
}

func buildSigs(version int, stage Stage, derivatives bool) map[string][]*BuiltinSig {
	out := map[string][]*BuiltinSig{}
	for i := range builtinTable {
		d := &builtinTable[i]
		if version == 100 && d.avail&availES == 0 || version != 100 && d.avail&availDesktop == 0 {
			continue
		}
		if d.avail&avail120 != 0 && version < 120 {
			continue
		}
		if stage == StageVertex && d.avail&availVS == 0 || stage == StageFragment && d.avail&availFS == 0 {
			continue
		}
		if d.avail&availDeriv != 0 && version == 100 && !derivatives {
			continue
		}
		for _, s := range expandSigs(d, version) {
			if !hasSig(out[d.name], s) {
				out[d.name] = append(out[d.name], s)
			}
		}
	}
	return out
}

// expandSigs instantiates a row's generic signatures.
func expandSigs(d *builtinDef, version int) []*BuiltinSig {
	var out []*BuiltinSig
	mats := [][2]int{{2, 2}, {3, 3}, {4, 4}}
	if version >= 120 {
		mats = append(mats, [2]int{2, 3}, [2]int{2, 4}, [2]int{3, 2}, [2]int{3, 4}, [2]int{4, 2}, [2]int{4, 3})
	}
	switch d.sigs {
	case "outer": // matCxR outerProduct(vecR c, vecC r)
		for _, m := range mats {
			out = append(out, &BuiltinSig{Op: d.op, Name: d.name, Ret: Mat(m[0], m[1]), Params: []Type{Vec(Float, m[1]), Vec(Float, m[0])}, def: d})
		}
		return out
	case "transpose":
		for _, m := range mats {
			out = append(out, &BuiltinSig{Op: d.op, Name: d.name, Ret: Mat(m[1], m[0]), Params: []Type{Mat(m[0], m[1])}, def: d})
		}
		return out
	}
	for _, sig := range strings.Split(d.sigs, ";") {
		sig = strings.TrimSpace(sig)
		open := strings.IndexByte(sig, '(')
		ret := sig[:open]
		var params []string
		if inner := sig[open+1 : len(sig)-1]; inner != "" {
			for _, p := range strings.Split(inner, ",") {
				params = append(params, strings.TrimSpace(p))
			}
		}
		all := append([]string{ret}, params...)
		generic := func(k string) bool {
			for _, a := range all {
				if a == k {
					return true
				}
			}
			return false
		}
		switch {
		case generic("mat"):
			for _, m := range mats {
				out = append(out, instSig(d, ret, params, func(string) Type { return Mat(m[0], m[1]) }))
			}
		case generic("genType"):
			for n := 1; n <= 4; n++ {
				out = append(out, instSig(d, ret, params, func(g string) Type { return Vec(Float, n) }))
			}
		case generic("vec") || generic("ivec") || generic("bvec"):
			for n := 2; n <= 4; n++ {
				out = append(out, instSig(d, ret, params, func(g string) Type {
					return Vec(map[string]Base{"vec": Float, "ivec": Int, "bvec": Bool}[g], n)
				}))
			}
		default:
			out = append(out, instSig(d, ret, params, nil))
		}
	}
	return out
}

func instSig(d *builtinDef, ret string, params []string, gen func(string) Type) *BuiltinSig {
	conv := func(s string) Type {
		switch s {
		case "genType", "vec", "ivec", "bvec", "mat":
			return gen(s)
		}
		t, ok := typeByName(s)
		if !ok {
			panic("glsl: bad built-in signature type " + s)
		}
		return t
	}
	s := &BuiltinSig{Op: d.op, Name: d.name, Ret: conv(ret), def: d}
	for _, p := range params {
		s.Params = append(s.Params, conv(p))
	}
	return s
}

// Folding helpers. Folding computes in float64 and rounds each result
// component once to the result's representation (float32 or int32), so a
// folded constant does not depend on the host or on evaluation order.

// compWise folds a component-wise function; scalar arguments are applied to
// every component (the "genType f(genType, float)" overloads).
func compWise(f func(a []float64) float64) func([]Value, Type) Value {
	return func(args []Value, ret Type) Value {
		n := ret.Comps()
		out := make([]float64, n)
		a := make([]float64, len(args))
		for i := 0; i < n; i++ {
			for k, v := range args {
				if len(v.C) == 1 {
					a[k] = v.C[0]
				} else {
					a[k] = v.C[i]
				}
			}
			out[i] = f(a)
		}
		return rounded(ret, out)
	}
}

func compare(f func(x, y float64) bool) func([]Value, Type) Value {
	return func(args []Value, ret Type) Value {
		out := make([]float64, ret.Comps())
		for i := range out {
			out[i] = b2f(f(args[0].C[i], args[1].C[i]))
		}
		return Value{Type: ret, C: out}
	}
}

func rounded(t Type, c []float64) Value {
	for i := range c {
		c[i] = roundTo(t.Base, c[i])
	}
	return Value{Type: t, C: c}
}

func dot(x, y Value) float64 {
	s := 0.0
	for i := range x.C {
		s += x.C[i] * y.C[i]
	}
	return s
}

func sub(x, y Value) Value {
	out := make([]float64, len(x.C))
	for i := range out {
		out[i] = x.C[i] - y.C[i]
	}
	return Value{Type: x.Type, C: out}
}

func scale(c []float64, k float64) []float64 {
	out := make([]float64, len(c))
	for i := range c {
		out[i] = c[i] * k
	}
	return out
}

func hasSig(list []*BuiltinSig, s *BuiltinSig) bool {
	for _, x := range list {
		if sameParams(x.Params, s.Params) {
			return true
		}
	}
	return false
}

func sameParams(a, b []Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// zeroFold folds a derivative of a constant: zero.
func zeroFold(args []Value, ret Type) Value { return splat(ret, 0) }
