package glsl_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/glsl/conformance"
)

var update = flag.Bool("update", false, "rewrite golden files")

// testdataDir holds the repository's own GLSL tests.
const testdataDir = "../../testdata/glsl"

// TestTreeGolden prints the checked tree of every shader under
// testdata/glsl that is expected to compile and compares it with the
// golden file next to it (<name>.tree). go test -update rewrites them.
func TestTreeGolden(t *testing.T) {
	n := 0
	err := filepath.WalkDir(testdataDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		stage := glsl.StageVertex
		switch filepath.Ext(path) {
		case ".vert":
		case ".frag":
			stage = glsl.StageFragment
		default:
			return nil
		}
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		cfg, err := conformance.ParseConfig(string(src))
		require.NoError(t, err, path)
		if !cfg.ExpectPass {
			return nil
		}
		n++
		sh, err := glsl.Compile(string(src), glsl.Options{Stage: stage, Version: cfg.Version,
			Extensions: []string{"GL_OES_standard_derivatives"}, AppendixA: cfg.AppendixA})
		require.NoError(t, err, path)
		got := sh.String()
		golden := strings.TrimSuffix(path, filepath.Ext(path)) + filepath.Ext(path) + ".tree"
		if *update {
			require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			return nil
		}
		want, err := os.ReadFile(golden)
		require.NoError(t, err, "missing golden file; run go test -update")
		assert.Equal(t, string(want), got, path)
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, n, 20)
}

// TestTreeShape pins the typed tree of one shader node by node.
func TestTreeShape(t *testing.T) {
	sh, err := glsl.Compile(`
precision mediump float;
uniform sampler2D s;
uniform mat3 m;
varying vec2 uv;
void main() {
    vec3 c = m * vec3(uv, 1.0);
    gl_FragColor = texture2D(s, c.xy) * 2.0;
}`, glsl.Options{Stage: glsl.StageFragment})
	require.NoError(t, err)
	main := sh.Main
	require.NotNil(t, main)
	require.Len(t, main.Body.Stmts, 2)

	decl := main.Body.Stmts[0].(*glsl.VarDecl)
	assert.Equal(t, "c", decl.Var.Name)
	assert.Equal(t, glsl.Mediump, decl.Var.Prec)
	mul := decl.Init.(*glsl.Binary)
	assert.Equal(t, glsl.OpMatMul, mul.Op)
	assert.Equal(t, glsl.Vec(glsl.Float, 3), mul.Type())
	assert.Equal(t, glsl.Mat(3, 3), mul.X.(*glsl.VarRef).Var.Type)
	ctor := mul.Y.(*glsl.Construct)
	assert.Len(t, ctor.Args, 2)
	assert.Equal(t, float32(1), ctor.Args[1].(*glsl.ConstExpr).Value.Float(0))

	asg := main.Body.Stmts[1].(*glsl.ExprStmt).X.(*glsl.Assign)
	assert.Equal(t, glsl.OpAssign, asg.Op)
	assert.True(t, asg.LHS.(*glsl.VarRef).Var.Builtin)
	scale := asg.RHS.(*glsl.Binary)
	assert.Equal(t, glsl.OpMul, scale.Op)
	tex := scale.X.(*glsl.BuiltinCall)
	assert.Equal(t, glsl.OpTexture2D, tex.Op)
	assert.Equal(t, "vec4 texture2D(sampler2D, vec2)", tex.Sig.String())
	sw := tex.Args[1].(*glsl.Swizzle)
	assert.Equal(t, []uint8{0, 1}, sw.Comps)
	assert.Equal(t, glsl.Pos{Line: 8, Col: 20}, tex.Pos())
}
