package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func write(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func glslc(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCheckAndTree(t *testing.T) {
	dir := t.TempDir()
	vs := write(t, dir, "a.vert", "attribute vec4 p;\nvarying vec2 v;\nvoid main() { v = p.xy; gl_Position = p; }\n")
	fs := write(t, dir, "a.frag", "precision mediump float;\nvarying vec2 v;\nvoid main() { gl_FragColor = v.xyxy; }\n")
	bad := write(t, dir, "bad.frag", "void main() {\n  gl_FragColor = vec4(x);\n}\n")

	code, out, _ := glslc(vs)
	assert.Equal(t, 0, code)
	assert.Empty(t, out)

	code, out, _ = glslc("-tree", fs)
	assert.Equal(t, 0, code)
	assert.Equal(t, "shader fragment version 100\nvarying mediump vec2 v\nfunction void main()\n{\n"+
		"  (assign vec4 gl_FragColor (swizzle vec4 v xyxy))\n}\n", out)

	code, out, _ = glslc(bad)
	assert.Equal(t, 1, code)
	assert.Equal(t, bad+":\n0:2(23): error: undeclared identifier 'x'\n", out)

	code, out, _ = glslc("-link", vs, fs)
	assert.Equal(t, 0, code)
	assert.Equal(t, "attribute 0 vec4 p\nvarying vec2 v\n", out)

	code, _, errOut := glslc("-stage", "geom", vs)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "use -stage vert|frag")
}

func TestPiglitMode(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ok.vert", "// [config]\n// expect_result: pass\n// glsl_version: 1.00\n// [end config]\nvoid main() {}\n")
	write(t, dir, "bad.vert", "// [config]\n// expect_result: fail\n// glsl_version: 1.00\n// [end config]\nvoid main() { x; }\n")
	write(t, dir, "wrong.vert", "// [config]\n// expect_result: fail\n// glsl_version: 1.00\n// [end config]\nvoid main() {}\n")
	write(t, dir, "new.vert", "// [config]\n// expect_result: pass\n// glsl_version: 1.30\n// [end config]\nvoid main() {}\n")
	code, out, _ := glslc("-piglit", dir)
	assert.Equal(t, 1, code)
	assert.Equal(t, "right  bad.vert (expected fail)\n"+
		"skip   new.vert (requires GLSL 1.30)\n"+
		"right  ok.vert (expected pass)\n"+
		"WRONG  wrong.vert (expected fail)\n"+
		"2 right, 1 wrong, 1 skipped\n", out)

	expect := write(t, dir, "fails.txt", "# known\nwrong.vert: the test is wrong on purpose\n")
	code, _, _ = glslc("-piglit", dir, "-expect", expect)
	assert.Equal(t, 0, code, "the only wrong file is listed")
}
