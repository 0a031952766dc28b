package main

import (
	"os"
	"path/filepath"
	"testing"

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

func TestRunExitStatus(t *testing.T) {
	assert.Equal(t, 2, run("r300", 64, "", "", "", true, nil))
	assert.Equal(t, 1, run("r300", 250, "fs-too-long*", "", "", true, []string{"../../testdata/conformance/tests"}))
	assert.Equal(t, 0, run("r300", 250, "fs-too-long*", "../../testdata/conformance/r300-fails.txt", "../..", true, []string{"../../testdata/conformance/tests"}))
}
