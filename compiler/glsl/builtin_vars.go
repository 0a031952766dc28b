package glsl

import (
	"strconv"
	"strings"
)

// Built-in structure types (GLSL ES 1.00 section 7.5, GLSL 1.10 section
// 7.5). They are shared by every shader so a uniform of one of them has the
// same type in both stages.
var (
	structDepthRange = builtinStruct("gl_DepthRangeParameters", "float near; float far; float diff")
	structPoint      = builtinStruct("gl_PointParameters", "float size; float sizeMin; float sizeMax; "+
		"float fadeThresholdSize; float distanceConstantAttenuation; float distanceLinearAttenuation; "+
		"float distanceQuadraticAttenuation")
	structMaterial = builtinStruct("gl_MaterialParameters", "vec4 emission; vec4 ambient; vec4 diffuse; "+
		"vec4 specular; float shininess")
	structLight = builtinStruct("gl_LightSourceParameters", "vec4 ambient; vec4 diffuse; vec4 specular; "+
		"vec4 position; vec4 halfVector; vec3 spotDirection; float spotExponent; float spotCutoff; "+
		"float spotCosCutoff; float constantAttenuation; float linearAttenuation; float quadraticAttenuation")
	structLightModel         = builtinStruct("gl_LightModelParameters", "vec4 ambient")
	structLightModelProducts = builtinStruct("gl_LightModelProducts", "vec4 sceneColor")
	structLightProducts      = builtinStruct("gl_LightProducts", "vec4 ambient; vec4 diffuse; vec4 specular")
	structFog                = builtinStruct("gl_FogParameters", "vec4 color; float density; float start; "+
		"float end; float scale")
)

func builtinStruct(name, fields string) *Struct {
	s := &Struct{Name: name}
	for _, f := range strings.Split(fields, ";") {
		w := strings.Fields(f)
		t, _ := typeByName(w[0])
		s.Fields = append(s.Fields, Field{Name: w[1], Type: t, Prec: Highp})
	}
	return s
}

var builtinStructs = map[string]*Struct{}

func init() {
	for _, s := range []*Struct{structDepthRange, structPoint, structMaterial, structLight,
		structLightModel, structLightModelProducts, structLightProducts, structFog} {
		builtinStructs[s.Name] = s
	}
}

// builtinVarDef is one row of the built-in variable table.
type builtinVarDef struct {
	decl    string // "[prec] type name[size]"; size is a gl_Max* constant
	storage Storage
	avail   avail
}

const (
	vs     = availVS
	fs     = availFS
	vsfs   = availVS | availFS
	es     = availES
	dt     = availDesktop
	esdt   = availES | availDesktop
	dt120  = availDesktop | avail120
	outVar = StorageOutput
	inVar  = StorageInput
)

var builtinVarTable = []builtinVarDef{
	// Special variables (section 7.1 and 7.2).
	{"highp vec4 gl_Position", outVar, esdt | vs},
	{"mediump float gl_PointSize", outVar, esdt | vs},
	{"vec4 gl_ClipVertex", outVar, dt | vs},
	{"mediump vec4 gl_FragCoord", inVar, esdt | fs},
	{"bool gl_FrontFacing", inVar, esdt | fs},
	{"mediump vec4 gl_FragColor", outVar, esdt | fs},
	{"mediump vec4 gl_FragData[gl_MaxDrawBuffers]", outVar, esdt | fs},
	{"mediump vec2 gl_PointCoord", inVar, es | fs},
	{"vec2 gl_PointCoord", inVar, dt120 | fs},
	{"float gl_FragDepth", outVar, dt | fs},

	// Desktop vertex attributes (GLSL 1.10 section 7.3).
	{"vec4 gl_Color", StorageAttribute, dt | vs},
	{"vec4 gl_SecondaryColor", StorageAttribute, dt | vs},
	{"vec3 gl_Normal", StorageAttribute, dt | vs},
	{"vec4 gl_Vertex", StorageAttribute, dt | vs},
	{"vec4 gl_MultiTexCoord0", StorageAttribute, dt | vs},
	{"vec4 gl_MultiTexCoord1", StorageAttribute, dt | vs},
	{"vec4 gl_MultiTexCoord2", StorageAttribute, dt | vs},
	{"vec4 gl_MultiTexCoord3", StorageAttribute, dt | vs},
	{"vec4 gl_MultiTexCoord4", StorageAttribute, dt | vs},
	{"vec4 gl_MultiTexCoord5", StorageAttribute, dt | vs},
	{"vec4 gl_MultiTexCoord6", StorageAttribute, dt | vs},
	{"vec4 gl_MultiTexCoord7", StorageAttribute, dt | vs},
	{"float gl_FogCoord", StorageAttribute, dt | vs},

	// Desktop varyings (GLSL 1.10 section 7.6).
	{"vec4 gl_FrontColor", StorageVarying, dt | vs},
	{"vec4 gl_BackColor", StorageVarying, dt | vs},
	{"vec4 gl_FrontSecondaryColor", StorageVarying, dt | vs},
	{"vec4 gl_BackSecondaryColor", StorageVarying, dt | vs},
	{"vec4 gl_TexCoord[gl_MaxTextureCoords]", StorageVarying, dt | vsfs},
	{"float gl_FogFragCoord", StorageVarying, dt | vsfs},
	{"vec4 gl_Color", StorageVarying, dt | fs},
	{"vec4 gl_SecondaryColor", StorageVarying, dt | fs},

	// Uniform state (section 7.5).
	{"highp gl_DepthRangeParameters gl_DepthRange", StorageUniform, esdt | vsfs},
	{"mat4 gl_ModelViewMatrix", StorageUniform, dt | vsfs},
	{"mat4 gl_ProjectionMatrix", StorageUniform, dt | vsfs},
	{"mat4 gl_ModelViewProjectionMatrix", StorageUniform, dt | vsfs},
	{"mat4 gl_TextureMatrix[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"mat3 gl_NormalMatrix", StorageUniform, dt | vsfs},
	{"mat4 gl_ModelViewMatrixInverse", StorageUniform, dt | vsfs},
	{"mat4 gl_ProjectionMatrixInverse", StorageUniform, dt | vsfs},
	{"mat4 gl_ModelViewProjectionMatrixInverse", StorageUniform, dt | vsfs},
	{"mat4 gl_TextureMatrixInverse[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"mat4 gl_ModelViewMatrixTranspose", StorageUniform, dt | vsfs},
	{"mat4 gl_ProjectionMatrixTranspose", StorageUniform, dt | vsfs},
	{"mat4 gl_ModelViewProjectionMatrixTranspose", StorageUniform, dt | vsfs},
	{"mat4 gl_TextureMatrixTranspose[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"mat4 gl_ModelViewMatrixInverseTranspose", StorageUniform, dt | vsfs},
	{"mat4 gl_ProjectionMatrixInverseTranspose", StorageUniform, dt | vsfs},
	{"mat4 gl_ModelViewProjectionMatrixInverseTranspose", StorageUniform, dt | vsfs},
	{"mat4 gl_TextureMatrixInverseTranspose[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"float gl_NormalScale", StorageUniform, dt | vsfs},
	{"vec4 gl_ClipPlane[gl_MaxClipPlanes]", StorageUniform, dt | vsfs},
	{"gl_PointParameters gl_Point", StorageUniform, dt | vsfs},
	{"gl_MaterialParameters gl_FrontMaterial", StorageUniform, dt | vsfs},
	{"gl_MaterialParameters gl_BackMaterial", StorageUniform, dt | vsfs},
	{"gl_LightSourceParameters gl_LightSource[gl_MaxLights]", StorageUniform, dt | vsfs},
	{"gl_LightModelParameters gl_LightModel", StorageUniform, dt | vsfs},
	{"gl_LightModelProducts gl_FrontLightModelProduct", StorageUniform, dt | vsfs},
	{"gl_LightModelProducts gl_BackLightModelProduct", StorageUniform, dt | vsfs},
	{"gl_LightProducts gl_FrontLightProduct[gl_MaxLights]", StorageUniform, dt | vsfs},
	{"gl_LightProducts gl_BackLightProduct[gl_MaxLights]", StorageUniform, dt | vsfs},
	{"vec4 gl_TextureEnvColor[gl_MaxTextureUnits]", StorageUniform, dt | vsfs},
	{"vec4 gl_EyePlaneS[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"vec4 gl_EyePlaneT[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"vec4 gl_EyePlaneR[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"vec4 gl_EyePlaneQ[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"vec4 gl_ObjectPlaneS[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"vec4 gl_ObjectPlaneT[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"vec4 gl_ObjectPlaneR[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"vec4 gl_ObjectPlaneQ[gl_MaxTextureCoords]", StorageUniform, dt | vsfs},
	{"gl_FogParameters gl_Fog", StorageUniform, dt | vsfs},
}

// builtinConsts returns the gl_Max* constants of a version (section 7.4).
func builtinConsts(version int, l Limits) []struct {
	name string
	v    int
} {
	type c = struct {
		name string
		v    int
	}
	if version == 100 {
		return []c{
			{"gl_MaxVertexAttribs", l.MaxVertexAttribs},
			{"gl_MaxVertexUniformVectors", l.MaxVertexUniformVectors},
			{"gl_MaxVaryingVectors", l.MaxVaryingVectors},
			{"gl_MaxVertexTextureImageUnits", l.MaxVertexTextureImageUnits},
			{"gl_MaxCombinedTextureImageUnits", l.MaxCombinedTextureImageUnits},
			{"gl_MaxTextureImageUnits", l.MaxTextureImageUnits},
			{"gl_MaxFragmentUniformVectors", l.MaxFragmentUniformVectors},
			{"gl_MaxDrawBuffers", l.MaxDrawBuffers},
		}
	}
	return []c{
		{"gl_MaxLights", l.MaxLights},
		{"gl_MaxClipPlanes", l.MaxClipPlanes},
		{"gl_MaxTextureUnits", l.MaxTextureUnits},
		{"gl_MaxTextureCoords", l.MaxTextureCoords},
		{"gl_MaxVertexAttribs", l.MaxVertexAttribs},
		{"gl_MaxVertexUniformComponents", 4 * l.MaxVertexUniformVectors},
		{"gl_MaxVaryingFloats", 4 * l.MaxVaryingVectors},
		{"gl_MaxVertexTextureImageUnits", l.MaxVertexTextureImageUnits},
		{"gl_MaxCombinedTextureImageUnits", l.MaxCombinedTextureImageUnits},
		{"gl_MaxTextureImageUnits", l.MaxTextureImageUnits},
		{"gl_MaxFragmentUniformComponents", 4 * l.MaxFragmentUniformVectors},
		{"gl_MaxDrawBuffers", l.MaxDrawBuffers},
	}
}

// builtinVars builds the built-in variables of one version and stage. They
// are fresh for every compile: Used flags and the shader's view of them
// belong to that shader.
func builtinVars(version int, stage Stage, l Limits) []*Var {
	consts := map[string]int{}
	var out []*Var
	for _, k := range builtinConsts(version, l) {
		consts[k.name] = k.v
		v := intValue(int32(k.v))
		prec := PrecNone
		if version == 100 {
			prec = Mediump
		}
		out = append(out, &Var{Name: k.name, Type: TypeInt, Prec: prec, Storage: StorageConst, Builtin: true, Value: &v})
	}
	for _, d := range builtinVarTable {
		if version == 100 && d.avail&availES == 0 || version != 100 && d.avail&availDesktop == 0 {
			continue
		}
		if d.avail&avail120 != 0 && version < 120 {
			continue
		}
		if stage == StageVertex && d.avail&availVS == 0 || stage == StageFragment && d.avail&availFS == 0 {
			continue
		}
		w := strings.Fields(d.decl)
		v := &Var{Storage: d.storage, Builtin: true}
		if len(w) == 3 {
			v.Prec = map[string]Precision{"lowp": Lowp, "mediump": Mediump, "highp": Highp}[w[0]]
			w = w[1:]
		}
		name := w[1]
		n := 0
		if i := strings.IndexByte(name, '['); i >= 0 {
			size := name[i+1 : len(name)-1]
			if k, ok := consts[size]; ok {
				n = k
			} else {
				n, _ = strconv.Atoi(size)
			}
			name = name[:i]
		}
		if t, ok := typeByName(w[0]); ok {
			v.Type = t
		} else {
			v.Type = StructType(builtinStructs[w[0]])
		}
		if n > 0 {
			v.Type = ArrayOf(v.Type, n)
		}
		v.Name = name
		out = append(out, v)
	}
	return out
}
