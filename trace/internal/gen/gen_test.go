package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeneratedUpToDate fails when package gles gained, lost or changed an
// entry point or enumerant since the trace files were generated: run
// `go generate ./trace`.
func TestGeneratedUpToDate(t *testing.T) {
	files, err := Generate("../../../gles")
	require.NoError(t, err)
	for name, want := range files {
		path := filepath.Join("../..", name)
		if name == "enums_gen.h" {
			path = "../../../tools/mesaref/enums_gen.h"
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.True(t, string(got) == string(want), "%s is stale: run go generate ./trace", path)
	}
}

func TestKindOf(t *testing.T) {
	tests := []struct{ fn, name, typ, want string }{
		{"DrawArrays", "mode", "Enum", "prim"},
		{"Clear", "mask", "Enum", "bits"},
		{"Enable", "cap", "Enum", "enum"},
		{"TexParameteri", "param", "int", "intenum"},
		{"GenTextures", "n", "int", "count"},
		{"BindBuffer", "id", "uint32", "buf"},
		{"BindTexture", "id", "uint32", "tex"},
		{"DeleteBuffers", "buffers", "...uint32", "bufs"},
		{"StencilMask", "mask", "uint32", "uint"},
		{"ReadPixels", "pixels", "[]byte", "out"},
		{"CompressedTexImage2D", "data", "[]byte", "data"},
		{"DrawElements", "indices", "any", "indices"},
		{"VertexPointer", "ptr", "any", "ptr"},
	}
	for _, tc := range tests {
		got, err := kindOf(tc.fn, tc.name, tc.typ)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%s %s", tc.fn, tc.name)
	}
	_, err := kindOf("Foo", "x", "chan int")
	assert.EqualError(t, err, "Foo: parameter x of type chan int has no trace kind")
}
