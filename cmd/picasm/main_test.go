package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAssembleDisassemble(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "s.v.pica")
	require.NoError(t, os.WriteFile(src, []byte(".fvec mvp[4]\n.out pos position\n.proc main\ndp4 pos.x, mvp[0], v0\nend\n.end\n"), 0o644))
	bin := filepath.Join(dir, "s.shbin")
	require.NoError(t, run(src, bin, false))
	txt := filepath.Join(dir, "s.txt")
	require.NoError(t, run(bin, txt, true))
	bin2 := filepath.Join(dir, "s2.shbin")
	require.NoError(t, run(txt, bin2, false))
	a, _ := os.ReadFile(bin)
	b, _ := os.ReadFile(bin2)
	assert.Equal(t, a, b)
	assert.Equal(t, "DVLB", string(a[:4]))
	assert.Error(t, run(src, "", true), "a source file is not a SHBIN")
}
