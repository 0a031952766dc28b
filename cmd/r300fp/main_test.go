package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompileFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mod.ir")
	require.NoError(t, os.WriteFile(path, []byte("fragment\nin v0 color0\nin v1 tex0\nout o0 color\ntex r0, v1, s0\nmul_sat o0, r0, v0\n"), 0o644))
	var b bytes.Buffer
	require.NoError(t, compileFile(&b, path, false, false, ""))
	assert.Contains(t, b.String(), "mod.ir: alu=1 tex=1 temps=2 levels=1 consts=0")
	assert.Contains(t, b.String(), "TEX r1, r1, tex0")
	assert.Contains(t, b.String(), "MAD.sat outA.rgb <- r1.rgb, r0.rgb, 0.0")
	b.Reset()
	require.NoError(t, compileFile(&b, path, true, false, "lower"))
	assert.Contains(t, b.String(), "; ---- after lower\ntex t")
	bad := filepath.Join(dir, "bad.ir")
	require.NoError(t, os.WriteFile(bad, []byte("fragment\nfoo r0\n"), 0o644))
	assert.ErrorContains(t, compileFile(&b, bad, false, false, ""), `unknown opcode "foo"`)
}

func TestCompileVertexFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "vs.ir")
	require.NoError(t, os.WriteFile(path, []byte("vertex\nin v0 attr0\nuniform c0 mvp0\nout o0 position\ndp4 o0.x, v0, c0\nmov o0.yzw, v0\n"), 0o644))
	var b bytes.Buffer
	require.NoError(t, compileFile(&b, path, false, false, ""))
	assert.Contains(t, b.String(), "vs.ir: vertex: insts=2 temps=0 consts=1")
	assert.Contains(t, b.String(), "; output o0 position")
}
