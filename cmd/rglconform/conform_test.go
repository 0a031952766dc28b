package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/conform"
	"github.com/retrogl/retrogl/internal/piglit"
	"github.com/retrogl/retrogl/internal/testenv"
)

func expectations(t *testing.T) conform.Expectations {
	t.Helper()
	return expectationsFrom(t, "../../testdata/conformance/r300-fails.txt")
}

func expectationsFrom(t *testing.T, path string) conform.Expectations {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	e, err := conform.ReadExpectations(f)
	require.NoError(t, err)
	return e
}

// check runs files and compares them with the expected failures: a file
// not listed must pass, a listed one must fail (so the list stays exact).
func check(t *testing.T, base string, files []string, exp conform.Expectations) (pass, fail int) {
	r := &conform.Runner{Backend: "r300"}
	defer r.Close()
	for _, p := range files {
		name, err := filepath.Rel(base, p)
		require.NoError(t, err)
		res := r.RunFile(p)
		why, listed := exp[name]
		switch {
		case res.Status == conform.Skip:
		case res.Status == conform.Pass:
			pass++
			assert.False(t, listed, "%s passes but is listed as failing (%s): remove it from r300-fails.txt", name, why)
		default:
			fail++
			assert.True(t, listed, "%s fails: %s", name, res.Reason)
		}
	}
	return pass, fail
}

// TestOwnSuite runs this repository's .shader_test files.
func TestOwnSuite(t *testing.T) {
	files, err := conform.Find([]string{"../../testdata/conformance/tests"}, "")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	pass, fail := check(t, "../..", files, expectations(t))
	assert.Equal(t, len(files)-1, pass)
	assert.Equal(t, 1, fail)
}

// TestPiglitBuiltins runs piglit's generated GLSL 1.10 built-in function
// tests (fs-* and vs-*, 1098 files) when piglit is installed.
func TestPiglitBuiltins(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs 1098 files")
	}
	dir, err := piglit.Path("generated_tests/spec/glsl-1.10/execution/built-in-functions")
	testenv.Need(t, piglit.Package, err)
	files, err := conform.Find([]string{dir}, "")
	require.NoError(t, err)
	pass, _ := check(t, piglit.Dir(), files, expectations(t))
	t.Logf("%d of %d piglit built-in function tests pass", pass, len(files))
	assert.GreaterOrEqual(t, pass*100, len(files)*95)
}

// TestPiglitBuiltinsFP24 runs the fs-* built-in tests with the preshader
// off, so every fragment operation runs on the simulated FP24 unit, and
// checks the failures against r300-fp24-fails.txt (all FP24 precision).
func TestPiglitBuiltinsFP24(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs 1098 files")
	}
	dir, err := piglit.Path("generated_tests/spec/glsl-1.10/execution/built-in-functions")
	testenv.Need(t, piglit.Package, err)
	t.Setenv("RETROGL_R300_NO_PRESHADER", "1")
	files, err := conform.Find([]string{dir}, "fs-*")
	require.NoError(t, err)
	require.Len(t, files, 549)
	pass, fail := check(t, piglit.Dir(), files, expectationsFrom(t, "../../testdata/conformance/r300-fp24-fails.txt"))
	t.Logf("FP24 only: %d passed, %d failed", pass, fail)
}

// opts are the command's defaults with output captured.
func opts(stdout, log *bytes.Buffer) options {
	return options{backend: "r300", size: 250, quiet: true, timeout: time.Minute, stdout: stdout, log: log}
}

func TestRunExitStatus(t *testing.T) {
	var out, log bytes.Buffer
	o := opts(&out, &log)
	assert.Equal(t, 2, run(o, nil))
	o.glob = "fs-too-long*"
	assert.Equal(t, 1, run(o, []string{"../../testdata/conformance/tests"}))
	o.expect, o.base = "../../testdata/conformance/r300-fails.txt", "../.."
	assert.Equal(t, 0, run(o, []string{"../../testdata/conformance/tests"}))
}

// TestKindsAndJSON runs one file of each kind and checks the output
// lines, the summary line (counting each kind) and the -json file.
func TestKindsAndJSON(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	src, err := os.ReadFile("../../testdata/conformance/tests/fs-discard.shader_test")
	require.NoError(t, err)
	write("fs-discard.shader_test", string(src))
	write("ok.frag", "// [config]\n// expect_result: pass\n// glsl_version: 1.00\n// [end config]\nvoid main() { }\n")
	write("wrong.vert", "// [config]\n// expect_result: fail\n// glsl_version: 1.00\n// [end config]\nvoid main() { }\n")
	write("new.vert", "// [config]\n// expect_result: pass\n// glsl_version: 1.30\n// [end config]\nvoid main() { }\n")
	write("minimum-maximums.txt", "100\ngl_MaxVertexAttribs 8\n")
	write("notes.txt", "not a test\n")
	jsonFile := filepath.Join(dir, "results.json")

	var out, log bytes.Buffer
	o := opts(&out, &log)
	o.quiet, o.base, o.jsonFile = false, dir, jsonFile
	assert.Equal(t, 1, run(o, []string{dir}), "wrong.vert fails and is not listed")
	assert.Equal(t, "PASS fs-discard.shader_test\n"+
		"PASS minimum-maximums.txt\n"+
		"SKIP new.vert: needs GLSL 1.30\n"+
		"PASS ok.frag\n"+
		"FAIL wrong.vert: expected an error, but the shader compiles\n"+
		"3 passed, 1 failed, 1 skipped; shader_test 1 passed, 0 failed, 0 skipped; "+
		"glslparsertest 1 passed, 1 failed, 1 skipped; built-in-constants 1 passed, 0 failed, 0 skipped\n", out.String())

	b, err := os.ReadFile(jsonFile)
	require.NoError(t, err)
	var got []map[string]any
	require.NoError(t, json.Unmarshal(b, &got))
	require.Len(t, got, 5)
	for _, r := range got {
		assert.GreaterOrEqual(t, r["seconds"].(float64), 0.0)
		delete(r, "seconds")
	}
	assert.Equal(t, []map[string]any{
		{"file": "fs-discard.shader_test", "kind": "shader_test", "status": "PASS"},
		{"file": "minimum-maximums.txt", "kind": "built-in-constants", "status": "PASS"},
		{"file": "new.vert", "kind": "glslparsertest", "status": "SKIP", "reason": "needs GLSL 1.30"},
		{"file": "ok.frag", "kind": "glslparsertest", "status": "PASS"},
		{"file": "wrong.vert", "kind": "glslparsertest", "status": "FAIL", "reason": "expected an error, but the shader compiles"},
	}, got)
}

// TestProgress checks the progress lines on the log writer.
func TestProgress(t *testing.T) {
	var log bytes.Buffer
	p := startProgress(&log, time.Millisecond, 4)
	p.at(2, "c.shader_test")
	// Wait for a line without a timing assertion: the ticker writes one.
	for {
		p.mu.Lock()
		s := log.String()
		p.mu.Unlock()
		if s != "" {
			assert.Regexp(t, `^rglconform: 2 of 4 files done \(50%\), \d+ s, running c.shader_test\n`, s)
			break
		}
		time.Sleep(time.Millisecond)
	}
	p.end()
}

// TestPiglitES100 runs rglconform over piglit's glsl-es-1.00 directory:
// every file in it is judged (shader_test, glslparsertest and
// built-in-constants files), and only the files r300-fails.txt lists fail.
func TestPiglitES100(t *testing.T) {
	dir, err := piglit.Path("tests/spec/glsl-es-1.00")
	testenv.Need(t, piglit.Package, err)
	var all []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			all = append(all, p)
		}
		return err
	}))
	var out, log bytes.Buffer
	o := opts(&out, &log)
	o.quiet, o.base, o.expect = false, piglit.Dir(), "../../testdata/conformance/r300-fails.txt"
	o.jsonFile = filepath.Join(t.TempDir(), "es100.json")
	assert.Equal(t, 0, run(o, []string{dir}), out.String())
	b, err := os.ReadFile(o.jsonFile)
	require.NoError(t, err)
	var got []struct{ File, Kind, Status string }
	require.NoError(t, json.Unmarshal(b, &got))
	require.Len(t, got, len(all), "every file of the directory is judged")
	kinds := map[string]int{}
	for _, r := range got {
		kinds[r.Kind]++
	}
	t.Logf("%s", strings.TrimSpace(out.String()[strings.LastIndex(strings.TrimSpace(out.String()), "\n")+1:]))
	assert.Equal(t, map[string]int{"shader_test": 13, "glslparsertest": 83, "built-in-constants": 1}, kinds)
}

// TestPiglitContextReuse compares, for every 8th file of piglit's
// execution tests and generated built-in tests, the verdict with a new
// context per file and with the runner's reused contexts (see
// conform.Runner): they must be equal, reason included.
func TestPiglitContextReuse(t *testing.T) {
	var dirs []string
	for _, d := range []string{"tests/spec/glsl-1.10/execution", "tests/spec/glsl-es-1.00",
		"generated_tests/spec/glsl-1.10/execution/built-in-functions"} {
		p, err := piglit.Path(d)
		testenv.Need(t, piglit.Package, err)
		dirs = append(dirs, p)
	}
	all, err := conform.Find(dirs, "")
	require.NoError(t, err)
	var files []string
	for i := 0; i < len(all); i += 8 {
		files = append(files, all[i])
	}
	reused := &conform.Runner{Backend: "r300"}
	defer reused.Close()
	for _, f := range files {
		fresh := &conform.Runner{Backend: "r300"}
		want := fresh.RunFile(f)
		fresh.Close()
		assert.Equal(t, want, reused.RunFile(f), f)
	}
	t.Logf("%d files compared", len(files))
}

// TestPiglitExecution runs piglit's GLSL 1.10 execution tests (in the
// compatibility mode) against r300-fails.txt: a file not listed must pass,
// a listed one must fail.
func TestPiglitExecution(t *testing.T) {
	dir, err := piglit.Path("tests/spec/glsl-1.10/execution")
	testenv.Need(t, piglit.Package, err)
	files, err := conform.Find([]string{dir}, "")
	require.NoError(t, err)
	pass, fail := check(t, piglit.Dir(), files, expectations(t))
	t.Logf("%d passed, %d failed, %d skipped", pass, fail, len(files)-pass-fail)
}
