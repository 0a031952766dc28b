package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeneratedUpToDate fails when package gles gained, lost or changed an
// entry point or enumerant since api_gen.go was generated: run
// `go generate ./internal/glfuzz`.
func TestGeneratedUpToDate(t *testing.T) {
	want, err := Generate("../../../../gles")
	require.NoError(t, err)
	got, err := os.ReadFile("../../api_gen.go")
	require.NoError(t, err)
	assert.True(t, string(got) == string(want), "api_gen.go is stale: run go generate ./internal/glfuzz")
}
