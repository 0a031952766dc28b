package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
)

func TestReplay(t *testing.T) {
	var capture bytes.Buffer
	s := scenes.Triangle()
	cfg := s.Config
	cfg.Capture = &capture
	ctx, err := gles.NewContext("pspge", cfg)
	require.NoError(t, err)
	require.NoError(t, s.Draw(ctx))
	ctx.Image()
	require.NoError(t, ctx.Close())
	var out bytes.Buffer
	ok, err := replay(&out, capture.Bytes())
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Contains(t, out.String(), "replay matches the capture")
	_, err = replay(&out, []byte("junk"))
	assert.Error(t, err)
}
