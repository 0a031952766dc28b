package glsl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuiltinOverloadCounts pins the number of overloads per language and
// stage, counted by hand from GLSL ES 1.00 chapter 8: 36 angle and
// trigonometry, 28 exponential, 69 common, 29 geometric, 3 matrix and 51
// vector relational overloads, plus 8 texture lookups per stage (and 12
// derivative overloads with GL_OES_standard_derivatives).
func TestBuiltinOverloadCounts(t *testing.T) {
	count := func(version int, stage Stage, derivs bool) int {
		n := 0
		for _, sigs := range builtinSigs(version, stage, derivs) {
			n += len(sigs)
		}
		return n
	}
	assert.Equal(t, 224, count(100, StageVertex, false))
	assert.Equal(t, 224, count(100, StageFragment, false))
	assert.Equal(t, 236, count(100, StageFragment, true))
	assert.Equal(t, 224, count(100, StageVertex, true), "derivatives are fragment-only")
}

// TestEveryBuiltinCompiles calls every overload of every built-in function
// of each version and stage with non-constant arguments and checks the call
// resolves to that overload.
func TestEveryBuiltinCompiles(t *testing.T) {
	for _, version := range []int{100, 110, 120} {
		for _, stage := range []Stage{StageVertex, StageFragment} {
			for name, sigs := range builtinSigs(version, stage, true) {
				for _, sig := range sigs {
					var decls, args []string
					for i, p := range sig.Params {
						decls = append(decls, fmt.Sprintf("uniform %s a%d;", p, i))
						args = append(args, fmt.Sprintf("a%d", i))
					}
					src := fmt.Sprintf("#version %d\n", version)
					if version == 100 {
						src += "#extension GL_OES_standard_derivatives : enable\nprecision mediump float;\n"
					}
					src += strings.Join(decls, "\n") + fmt.Sprintf("\nvoid main() { %s r = %s(%s); }\n", sig.Ret, name, strings.Join(args, ", "))
					sh, err := Compile(src, Options{Stage: stage, Extensions: []string{"GL_OES_standard_derivatives"}})
					require.NoError(t, err, "%s\n%s", sig, src)
					decl := sh.Main.Body.Stmts[0].(*VarDecl)
					call, ok := decl.Init.(*BuiltinCall)
					require.True(t, ok, "%s", sig)
					assert.Equal(t, sig.Op, call.Op)
					assert.Equal(t, sig.String(), call.Sig.String())
				}
			}
		}
	}
}

func TestBuiltinAvailability(t *testing.T) {
	has := func(version int, stage Stage, name string) bool {
		_, ok := builtinSigs(version, stage, false)[name]
		return ok
	}
	assert.True(t, has(100, StageVertex, "texture2DLod"))
	assert.False(t, has(100, StageFragment, "texture2DLod"))
	assert.False(t, has(100, StageVertex, "ftransform"))
	assert.True(t, has(110, StageVertex, "ftransform"))
	assert.False(t, has(110, StageFragment, "ftransform"))
	assert.False(t, has(100, StageFragment, "texture3D"))
	assert.True(t, has(110, StageFragment, "shadow2DProj"))
	assert.False(t, has(110, StageVertex, "transpose"))
	assert.True(t, has(120, StageVertex, "transpose"))
	assert.True(t, has(110, StageFragment, "dFdx"), "derivatives are core in desktop fragment shaders")
	assert.False(t, has(100, StageFragment, "dFdx"))
}

func TestBuiltinVariables(t *testing.T) {
	names := func(version int, stage Stage) map[string]string {
		out := map[string]string{}
		for _, v := range builtinVars(version, stage, DefaultLimits()) {
			out[v.Name] = strings.TrimSpace(v.Prec.String() + " " + v.Type.String() + " " + v.Storage.String())
		}
		return out
	}
	vs := names(100, StageVertex)
	assert.Equal(t, "highp vec4 output", vs["gl_Position"])
	assert.Equal(t, "mediump float output", vs["gl_PointSize"])
	assert.Equal(t, "highp gl_DepthRangeParameters uniform", vs["gl_DepthRange"])
	assert.Equal(t, "mediump int const", vs["gl_MaxVertexUniformVectors"])
	fs := names(100, StageFragment)
	assert.Equal(t, "mediump vec4 input", fs["gl_FragCoord"])
	assert.Equal(t, "bool input", fs["gl_FrontFacing"])
	assert.Equal(t, "mediump vec4[1] output", fs["gl_FragData"])
	assert.Equal(t, "mediump vec2 input", fs["gl_PointCoord"])
	assert.NotContains(t, fs, "gl_Position")
	assert.Len(t, vs, 11)
	assert.Len(t, fs, 14)

	d := names(110, StageVertex)
	assert.Equal(t, "vec4 attribute", d["gl_MultiTexCoord7"])
	assert.Equal(t, "gl_LightSourceParameters[8] uniform", d["gl_LightSource"])
	assert.Equal(t, "vec4 varying", d["gl_FrontColor"])
	assert.NotContains(t, names(110, StageFragment), "gl_PointCoord")
	assert.Equal(t, "vec2 input", names(120, StageFragment)["gl_PointCoord"])
}
