package conformance

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/internal/piglit"
	"github.com/retrogl/retrogl/internal/testenv"
)

const (
	ownSuite  = "../../../testdata/glsl"
	failsFile = "../../../testdata/conformance/glsl-fails.txt"
)

func TestParseConfig(t *testing.T) {
	cfg, err := ParseConfig("/* [config]\n * expect_result: pass\n * glsl_version: 1.20\n * check_link: true\n" +
		" * require_extensions: GL_A !GL_B\n * [end config]\n */\nvoid main() {}")
	require.NoError(t, err)
	assert.Equal(t, Config{ExpectPass: true, Version: 120, CheckLink: true, Extensions: []string{"GL_A", "!GL_B"}}, cfg)

	cfg, err = ParseConfig("// [config]\n// expect_result: fail\n// glsl_version: 1.00\n// appendix_a: true\n// [end config]\n")
	require.NoError(t, err)
	assert.Equal(t, Config{Version: 100, AppendixA: true}, cfg)

	_, err = ParseConfig("// [config]\n// glsl_version: 1.00\n// [end config]\n")
	assert.EqualError(t, err, "no complete [config] block (expect_result and glsl_version)")
	_, err = ParseConfig("// [config]\n// expect_result: maybe\n")
	assert.EqualError(t, err, `bad expect_result "maybe"`)
}

func TestParseShaderTest(t *testing.T) {
	st := ParseShaderTest("[require]\nGLSL ES >= 1.00\nGL_OES_x\n\n[vertex shader passthrough]\n[fragment shader]\nvoid main() {}\n\n[test]\nlink error\n")
	assert.True(t, st.ES)
	assert.Equal(t, 100, st.Version)
	assert.Equal(t, []string{"GL_OES_x"}, st.Extensions)
	assert.True(t, st.LinkError)
	assert.Contains(t, st.Vertex, "piglit_vertex")
	assert.Equal(t, "void main() {}\n\n", st.Fragment)

	st = ParseShaderTest("[require]\nGLSL >= 1.20\n[vertex shader]\na\n[vertex shader]\nb\n[geometry shader]\nc\n")
	assert.Equal(t, 120, st.Version)
	assert.True(t, st.Multiple)
	assert.Equal(t, []string{"[geometry shader]"}, st.Other)
}

// TestOwnSuite runs the repository's own tests (CI has no piglit): every
// verdict must be right.
func TestOwnSuite(t *testing.T) {
	opts := Options{Extensions: []string{"GL_OES_standard_derivatives"}}
	for name, run := range map[string]func(string, Options) ([]*Result, error){"compiler": RunDir, "shader_test": RunShaderTests} {
		results, err := run(ownSuite, opts)
		require.NoError(t, err)
		require.NotEmpty(t, results, name)
		for _, r := range results {
			assert.Empty(t, r.Skip, r.Path)
			assert.True(t, r.Right(), "%s: expected pass=%v, log:\n%s", r.Path, r.Expected, r.Log)
		}
	}
}

// TestPiglit runs piglit's GLSL ES 1.00, 1.10 and 1.20 suites when piglit is
// installed, and fails on any file whose verdict differs from
// testdata/conformance/glsl-fails.txt. The generated built-in function
// tests (about 2,400 files) run unless -short.
func TestPiglit(t *testing.T) {
	_, err := piglit.Path("tests/spec/glsl-es-1.00/compiler")
	testenv.Need(t, piglit.Package, err)
	root := piglit.Dir()
	known, err := ReadExpectations(failsFile)
	require.NoError(t, err)
	suites := []struct {
		dir       string
		shaderRun bool
		long      bool
	}{
		{"tests/spec/glsl-es-1.00/compiler", false, false},
		{"tests/spec/glsl-1.10/compiler", false, false},
		{"tests/spec/glsl-1.20/compiler", false, false},
		{"tests/spec/glsl-es-1.00", true, false},
		{"tests/spec/glsl-1.10", true, false},
		{"tests/spec/glsl-1.20", true, false},
		{"generated_tests/spec/glsl-1.10", true, true},
		{"generated_tests/spec/glsl-1.20", true, true},
		{"generated_tests/spec/glsl-1.10/compiler", false, true},
		{"generated_tests/spec/glsl-1.20/compiler", false, true},
	}
	seen := map[string]bool{}
	for _, s := range suites {
		if s.long && testing.Short() {
			continue
		}
		run := RunDir
		if s.shaderRun {
			run = RunShaderTests
		}
		results, err := run(filepath.Join(root, s.dir), Options{})
		require.NoError(t, err)
		for _, r := range results {
			r.Path = s.dir + "/" + r.Path
			seen[r.Path] = true
		}
		sum := Summarize(results, known)
		t.Logf("%s: %d right, %d wrong, %d skipped", s.dir, sum.Right, sum.Wrong, sum.Skipped)
		for _, r := range sum.Regressions {
			t.Errorf("regression: %s (expected pass=%v)\n%s", r.Path, r.Expected, r.Log)
		}
		for _, f := range sum.Fixed {
			t.Errorf("%s is right now: remove it from %s", f, failsFile)
		}
	}
	if !testing.Short() {
		for path := range known {
			if !seen[path] && !strings.HasPrefix(path, "#") {
				t.Errorf("%s lists %s, which no suite ran", failsFile, path)
			}
		}
	}
}
