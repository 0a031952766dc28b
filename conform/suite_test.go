package conform

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
)

func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		path string
		kind Kind
		ok   bool
	}{
		{"a/fs-abs.shader_test", ShaderTest, true},
		{"compiler/x.vert", ParserTest, true},
		{"compiler/x.frag", ParserTest, true},
		{"compiler/x.geom", ParserTest, true},
		{"compiler/x.comp", ParserTest, true},
		{"glsl-es-1.00/minimum-maximums.txt", Constants, true},
		{"glsl-1.50/minimum-maximums-compat.txt", Constants, true},
		{"README.txt", 0, false},
		{"x.ktx", 0, false},
	} {
		k, ok := KindOf(tc.path)
		assert.Equal(t, tc.kind, k, tc.path)
		assert.Equal(t, tc.ok, ok, tc.path)
	}
	assert.Equal(t, "glslparsertest", ParserTest.String())
	b, err := Constants.MarshalText()
	require.NoError(t, err)
	assert.Equal(t, "built-in-constants", string(b))
}

// writeFiles creates files (path relative to dir: content) and returns dir.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return dir
}

func TestFind(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.shader_test": "", "sub/b.frag": "", "sub/c.vert": "", "minimum-maximums.txt": "",
		"notes.txt": "", "tex.ktx": "", "sub/d.geom": "",
	})
	files, err := Find([]string{dir}, "")
	require.NoError(t, err)
	var rel []string
	for _, f := range files {
		r, err := filepath.Rel(dir, f)
		require.NoError(t, err)
		rel = append(rel, r)
	}
	assert.Equal(t, []string{"a.shader_test", "minimum-maximums.txt", "sub/b.frag", "sub/c.vert", "sub/d.geom"}, rel)

	files, err = Find([]string{dir}, "*.vert")
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, "sub/c.vert")}, files)

	// A file named on its own is kept; RunFile says what it is not.
	files, err = Find([]string{filepath.Join(dir, "notes.txt")}, "")
	require.NoError(t, err)
	require.Len(t, files, 1)
	res := (&Runner{Backend: "r300"}).RunFile(files[0])
	assert.Equal(t, Result{Fail, "not a piglit test file (.shader_test, a glslparsertest shader or minimum-maximums.txt)"}, res)
}

// parserTest is a glslparsertest file's text.
func parserTest(expect, version, extra, body string) string {
	return "// [config]\n// expect_result: " + expect + "\n// glsl_version: " + version + "\n" + extra + "// [end config]\n" + body
}

func TestParserTests(t *testing.T) {
	tests := []struct {
		name, file, text string
		want             Result
	}{
		{"valid shader", "ok.frag", parserTest("pass", "1.00", "", "void main() { gl_FragColor = vec4(1.0); }\n"),
			Result{Status: Pass}},
		{"invalid shader rejected", "bad.vert", parserTest("fail", "1.00", "", "void main() { x = 1.0; }\n"),
			Result{Status: Pass}},
		{"valid shader rejected", "wrong.vert", parserTest("pass", "1.00", "", "void main() { x = 1.0; }\n"),
			Result{Fail, "expected the shader to compile: 0:5(15): error: undeclared identifier 'x'"}},
		{"invalid shader accepted", "wrong.frag", parserTest("fail", "1.00", "", "void main() { }\n"),
			Result{Fail, "expected an error, but the shader compiles"}},
		{"check_link: a varying the vertex shader lacks", "link.frag", parserTest("fail", "1.00", "// check_link: true\n",
			"precision mediump float;\nvarying vec4 v;\nvoid main() { gl_FragColor = v; }\n"), Result{Status: Pass}},
		{"check_link: links", "link.vert", parserTest("pass", "1.00", "// check_link: true\n",
			"void main() { gl_Position = vec4(1.0); }\n"), Result{Status: Pass}},
		{"check_link: the link fails", "link2.frag", parserTest("pass", "1.00", "// check_link: true\n",
			"precision mediump float;\nvarying vec4 v;\nvoid main() { gl_FragColor = v; }\n"),
			Result{Fail, "expected the shader to compile and link: link: 0:0(0): error: fragment shader varying 'v' is not declared in the vertex shader"}},
		{"desktop shader without #version", "compat.frag", parserTest("pass", "1.10", "", "void main() { gl_FragColor = gl_Color; }\n"),
			Result{Status: Pass}},
		{"newer GLSL", "new.frag", parserTest("pass", "1.30", "", "void main() { }\n"),
			Result{Skip, "needs GLSL 1.30"}},
		{"missing extension", "ext.frag", parserTest("pass", "1.00", "// require_extensions: GL_OES_standard_derivatives\n", "void main() { }\n"),
			Result{Skip, "needs GL_OES_standard_derivatives"}},
		{"extension that must be absent", "noext.frag", parserTest("pass", "1.00", "// require_extensions: !GL_OES_blend_subtract\n", "void main() { }\n"),
			Result{Skip, "the backend has GL_OES_blend_subtract"}},
		{"geometry shader", "x.geom", parserTest("pass", "1.50", "", "void main() { }\n"),
			Result{Skip, "geom shaders are not part of GL ES 2.0"}},
		{"no [config] block", "plain.vert", "void main() { }\n",
			Result{Skip, "not a glslparsertest file: no complete [config] block (expect_result and glsl_version)"}},
	}
	r := &Runner{Backend: "r300"}
	defer r.Close()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{tc.file: tc.text})
			assert.Equal(t, tc.want, r.RunFile(filepath.Join(dir, tc.file)))
		})
	}
}

func TestConstants(t *testing.T) {
	tests := []struct {
		name, text string
		want       Result
	}{
		{"ES minimums", "100\ngl_MaxVertexAttribs 8\ngl_MaxDrawBuffers 1\ngl_MaxVertexTextureImageUnits 0\n", Result{Status: Pass}},
		{"a minimum the backend misses", "100\ngl_MaxDrawBuffers 4\ngl_MaxVaryingVectors 8\n",
			Result{Fail, "gl_MaxDrawBuffers: vertex shader: 0:5(17): error: array size must be greater than zero"}},
		{"desktop version", "110\ngl_MaxLights 8\n", Result{Status: Pass}},
		{"newer GLSL", "130\ngl_MaxClipDistances 8\n", Result{Skip, "needs GLSL 1.30"}},
		{"ES 3.00", "300 es\ngl_MaxDrawBuffers 4\n", Result{Skip, "needs GLSL ES 3.00"}},
		{"missing extension", "100\nGL_EXT_nothing\ngl_MaxDrawBuffers 1\n", Result{Skip, "needs GL_EXT_nothing"}},
		{"not a constants file", "hello\n", Result{Skip, `not a built-in-constants file: line 1: "hello" is not a GLSL version`}},
		{"a bad line", "100\ngl_MaxDrawBuffers\n", Result{Skip, `not a built-in-constants file: line 2: "gl_MaxDrawBuffers" is not a built-in constant and its minimum`}},
	}
	r := &Runner{Backend: "r300"}
	defer r.Close()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"minimum-maximums.txt": tc.text})
			assert.Equal(t, tc.want, r.RunFile(filepath.Join(dir, "minimum-maximums.txt")))
		})
	}
}

func TestTimeout(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	r := &Runner{Backend: "r300", Timeout: 10 * time.Millisecond, exec: func(string) Result {
		<-block // a hang
		return Result{Status: Pass}
	}}
	assert.Equal(t, Result{Fail, "timed out after 10ms"}, r.RunFile("hang.shader_test"))

	r.exec = func(string) Result { return Result{Skip, "quick"} }
	assert.Equal(t, Result{Skip, "quick"}, r.RunFile("quick.shader_test"))
}

// TestContextReuse runs the repository's shader_test and glslparsertest
// files with a new context for every file, then with one runner reusing
// its contexts, in file order and in reverse: every verdict and reason
// must be the same (reset leaves nothing of one test to the next).
func TestContextReuse(t *testing.T) {
	files, err := Find([]string{"../testdata/conformance/tests", "../testdata/glsl"}, "")
	require.NoError(t, err)
	require.Greater(t, len(files), 50)
	fresh := map[string]Result{}
	for _, f := range files {
		r := &Runner{Backend: "r300"}
		fresh[f] = r.RunFile(f)
		r.Close()
	}
	r := &Runner{Backend: "r300"}
	defer r.Close()
	for _, f := range files {
		assert.Equal(t, fresh[f], r.RunFile(f), "%s after the files before it", f)
	}
	for i := len(files) - 1; i >= 0; i-- {
		assert.Equal(t, fresh[files[i]], r.RunFile(files[i]), "%s after the files after it", files[i])
	}
}
