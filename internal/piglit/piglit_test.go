package piglit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPath(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "tests", "spec"), 0o755))
	t.Setenv("PIGLIT_DIR", dir)
	assert.Equal(t, dir, Dir())

	p, err := Path("tests/spec")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "tests", "spec"), p)

	p, err = Path("generated_tests")
	assert.Equal(t, filepath.Join(dir, "generated_tests"), p)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "apt-get install -y piglit")
}
