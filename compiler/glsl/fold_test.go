package glsl

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// folded compiles "const T c = expr;" and returns c's value as text.
func folded(t *testing.T, version int, typ, expr string) string {
	t.Helper()
	src := "const " + typ + " c = " + expr + ";"
	sh, err := Compile(src, Options{Stage: StageVertex, Version: version})
	require.NoError(t, err, src)
	require.NotNil(t, sh.Globals[0].Var.Value)
	return sh.Globals[0].Var.Value.String()
}

func TestConstantFolding(t *testing.T) {
	tests := []struct {
		typ, expr, want string
	}{
		{"int", "7 / 2 * 2 - -3", "9"},
		{"int", "-7 / 2", "-3"},
		{"int", "2147483647 + 1", "-2147483648"},
		{"int", "int(-2.7) + int(true)", "-1"},
		{"float", "1.0 / 3.0", "0.33333334"},
		{"float", "0.1 + 0.2", "0.3"},
		{"float", "float(7) + float(false)", "7.0"},
		{"bool", "1.0 < 2.0 && !(3 == 4) ^^ false", "true"},
		{"bool", "vec2(1.0, 2.0) == vec2(1.0, 2.0)", "true"},
		{"vec4", "vec4(vec2(1.0, 2.0), 3.0, 4.0).wzyx", "vec4(4.0, 3.0, 2.0, 1.0)"},
		{"vec3", "vec3(2.0) * vec3(1.0, 2.0, 3.0) - 1.0", "vec3(1.0, 3.0, 5.0)"},
		{"ivec2", "ivec2(vec2(1.5, -1.5))", "ivec2(1, -1)"},
		{"bvec3", "bvec3(0.0, 2.0, -1.0)", "bvec3(false, true, true)"},
		{"mat2", "mat2(2.0)", "mat2(2.0, 0.0, 0.0, 2.0)"},
		{"mat2", "mat2(1.0, 2.0, 3.0, 4.0) * mat2(0.0, 1.0, 1.0, 0.0)", "mat2(3.0, 4.0, 1.0, 2.0)"},
		{"vec2", "mat2(1.0, 2.0, 3.0, 4.0) * vec2(1.0, 1.0)", "vec2(4.0, 6.0)"},
		{"vec2", "vec2(1.0, 1.0) * mat2(1.0, 2.0, 3.0, 4.0)", "vec2(3.0, 7.0)"},
		{"mat3", "mat3(mat2(1.0, 2.0, 3.0, 4.0))", "mat3(1.0, 2.0, 0.0, 3.0, 4.0, 0.0, 0.0, 0.0, 1.0)"},
		{"mat2", "mat2(mat3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0))", "mat2(1.0, 2.0, 4.0, 5.0)"},
		{"vec2", "mat2(1.0, 2.0, 3.0, 4.0)[1]", "vec2(3.0, 4.0)"},
		{"float", "mat2(1.0, 2.0, 3.0, 4.0)[1][0]", "3.0"},
		{"vec4", "vec4(mat2(1.0, 2.0, 3.0, 4.0))", "vec4(1.0, 2.0, 3.0, 4.0)"},
		{"float", "(1.0, 2.0)", "2.0"},
		{"float", "true ? 1.0 : 2.0", "1.0"},
		{"float", "gl_MaxVertexAttribs == 8 ? 1.0 : 0.0", "1.0"},
		// Built-in functions.
		{"float", "cos(0.0) + sin(0.0)", "1.0"},
		{"float", "radians(180.0)", "3.1415927"},
		{"float", "degrees(3.14159265)", "180.0"},
		{"float", "atan(1.0, 1.0)", "0.7853982"},
		{"float", "pow(2.0, 10.0) + exp2(3.0) + log2(8.0)", "1035.0"},
		{"float", "sqrt(16.0) * inversesqrt(4.0)", "2.0"},
		{"vec3", "abs(vec3(-1.0, 0.0, 1.0)) + sign(vec3(-2.0, 0.0, 2.0))", "vec3(0.0, 0.0, 2.0)"},
		{"vec2", "floor(vec2(1.5, -1.5)) + ceil(vec2(1.5, -1.5))", "vec2(3.0, -3.0)"},
		{"float", "fract(-1.25)", "0.75"},
		{"float", "mod(-1.0, 3.0)", "2.0"},
		{"vec2", "mod(vec2(5.0, 7.0), 4.0)", "vec2(1.0, 3.0)"},
		{"vec2", "min(vec2(1.0, 5.0), 2.0) + max(vec2(1.0, 5.0), vec2(3.0))", "vec2(4.0, 7.0)"},
		{"vec3", "clamp(vec3(-1.0, 0.5, 2.0), 0.0, 1.0)", "vec3(0.0, 0.5, 1.0)"},
		{"vec2", "mix(vec2(0.0, 10.0), vec2(10.0, 20.0), 0.25)", "vec2(2.5, 12.5)"},
		{"vec2", "step(0.5, vec2(0.25, 0.75))", "vec2(0.0, 1.0)"},
		{"float", "smoothstep(0.0, 1.0, 0.5)", "0.5"},
		{"float", "length(vec2(3.0, 4.0)) + distance(vec2(0.0), vec2(0.0, 2.0)) + dot(vec3(1.0), vec3(2.0))", "13.0"},
		{"vec3", "cross(vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0))", "vec3(0.0, 0.0, 1.0)"},
		{"vec2", "normalize(vec2(3.0, 4.0))", "vec2(0.6, 0.8)"},
		{"vec2", "faceforward(vec2(1.0, 0.0), vec2(1.0, 0.0), vec2(1.0, 0.0))", "vec2(-1.0, -0.0)"},
		{"vec2", "reflect(vec2(1.0, -1.0), vec2(0.0, 1.0))", "vec2(1.0, 1.0)"},
		{"vec2", "refract(vec2(0.0, -1.0), vec2(0.0, 1.0), 1.0)", "vec2(0.0, -1.0)"},
		{"mat2", "matrixCompMult(mat2(1.0, 2.0, 3.0, 4.0), mat2(2.0))", "mat2(2.0, 0.0, 0.0, 8.0)"},
		{"bvec2", "lessThan(ivec2(1, 3), ivec2(2, 2))", "bvec2(true, false)"},
		{"bvec2", "not(equal(vec2(1.0), vec2(1.0, 2.0)))", "bvec2(false, true)"},
		{"bool", "any(bvec2(false, true)) && all(bvec2(true))", "true"},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			assert.Equal(t, tc.want, folded(t, 100, tc.typ, tc.expr))
		})
	}
}

func TestConstantFolding120(t *testing.T) {
	assert.Equal(t, "mat3x2(1.0, 4.0, 2.0, 5.0, 3.0, 6.0)", folded(t, 120, "mat3x2", "transpose(mat2x3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0))"))
	assert.Equal(t, "mat2x3(1.0, 2.0, 3.0, 2.0, 4.0, 6.0)", folded(t, 120, "mat2x3", "outerProduct(vec3(1.0, 2.0, 3.0), vec2(1.0, 2.0))"))
	assert.Equal(t, "2.5", folded(t, 120, "float", "1 + 1.5"))
	assert.Equal(t, "float[2](1.0, 2.0)", folded(t, 120, "float[2]", "float[](1, 2)"))
	assert.Equal(t, "3", folded(t, 120, "int", "float[3](1.0, 2.0, 3.0).length()"))
	sh, err := Compile("const vec2 c = dFdx(vec2(1.0));", Options{Stage: StageFragment, Version: 120})
	require.NoError(t, err)
	assert.Equal(t, "vec2(0.0, 0.0)", sh.Globals[0].Var.Value.String(), "the derivative of a constant")
	_, err = Compile("const float c = sin(1.0);", Options{Stage: StageVertex, Version: 110})
	require.Error(t, err, "built-in calls are not constant expressions in GLSL 1.10")
}

func TestFoldingSpecialValues(t *testing.T) {
	sh, err := Compile("const float inf = 1.0 / 0.0; const float nan = 0.0 / 0.0; const int z = 5 / 0;", vsES)
	require.NoError(t, err)
	assert.True(t, math.IsInf(float64(sh.Globals[0].Var.Value.Float(0)), 1))
	assert.True(t, math.IsNaN(float64(sh.Globals[1].Var.Value.Float(0))))
	assert.Equal(t, int32(0), sh.Globals[2].Var.Value.Int(0), "integer division by zero folds to 0")
	assert.Equal(t, int32(math.MaxInt32), toInt32(1e20))
	assert.Equal(t, int32(0), toInt32(math.NaN()))
}

func TestStructConstant(t *testing.T) {
	sh, err := Compile("struct S { float a; vec2 b; }; const S s = S(1.0, vec2(2.0, 3.0)); const float f = s.b.y;", vsES)
	require.NoError(t, err)
	assert.Equal(t, "S(1.0, vec2(2.0, 3.0))", sh.Globals[0].Var.Value.String())
	assert.Equal(t, "3.0", sh.Globals[1].Var.Value.String())
}
