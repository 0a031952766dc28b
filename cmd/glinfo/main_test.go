package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/backends"
)

func TestJSONKeys(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, "", true))
	var all []map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &all))
	require.Len(t, all, len(backends.Names()))
	for _, b := range all {
		for _, k := range []string{"name", "vendor", "renderer", "version", "extensions", "limits", "emulated", "missing", "features", "memory"} {
			assert.Contains(t, b, k, "backend %v", b["name"])
		}
		if b["name"] == "pspge" {
			assert.Equal(t, float64(34<<20), b["memory"].(map[string]any)["context_budget"], "2 MiB VRAM + 32 MiB RAM")
		}
	}
	names := map[any]bool{}
	for _, b := range all {
		names[b["name"]] = true
	}
	assert.True(t, names["pspge"])
}

func TestText(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, "pspge", false))
	s := out.String()
	for _, want := range []string{"backend: pspge", "GL_VERSION:    OpenGL ES-CM 1.1", "max_texture_size", "emulated:", "missing:",
		"memory: vram 2 MiB at 0x04000000, ram 32 MiB at 0x08000000", "context memory budget: 34 MiB"} {
		assert.Contains(t, s, want)
	}
	assert.Error(t, run(&out, "nosuch", false))
}
