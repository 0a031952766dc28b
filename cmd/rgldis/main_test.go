package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
)

func TestDisassemble(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, disassemble(&out, []byte{3, 0, 3, 4, 0, 0, 0, 0x0C}, "pspge", "0x08000000"))
	assert.Equal(t, "0x08000000  04030003  PRIM count=3 type=TRIANGLES\n0x08000004  0c000000  END\n", out.String())
	assert.Error(t, disassemble(&out, []byte{1, 2, 3, 4}, "", "0"))
	assert.Error(t, disassemble(&out, []byte{1, 2, 3, 4}, "nosuch", "0"))
	assert.Error(t, disassemble(&out, []byte{0x1f, 0x8b, 1}, "", "0"), "damaged capture")

	var capture bytes.Buffer
	s := scenes.Triangle()
	cfg := s.Config
	cfg.Capture = &capture
	ctx, err := gles.NewContext("pspge", cfg)
	require.NoError(t, err)
	require.NoError(t, s.Draw(ctx))
	require.NoError(t, ctx.Close())
	out.Reset()
	require.NoError(t, disassemble(&out, capture.Bytes(), "", "0"))
	assert.Contains(t, out.String(), "# capture of pspge")
	assert.Contains(t, out.String(), "PRIM count=6 type=TRIANGLES")
}
