package glamo

import (
	"testing"

	"github.com/stretchr/testify/assert"

	hg "github.com/retrogl/retrogl/hal/glamo"
)

// TestLayoutsMatchHal checks that hal/glamo's texel and colour layouts,
// which tools (the frame debugger) decode surfaces with, are the ones the
// simulator reads.
func TestLayoutsMatchHal(t *testing.T) {
	conv := func(l layout) hg.TexelLayout {
		var out hg.TexelLayout
		out.Bits, out.Lum, out.Int = int(l.bpp), l.lum, l.ints
		for k, c := range l.ch {
			out.Ch[k] = hg.Chan{Shift: c.shift, Bits: c.bits}
		}
		return out
	}
	assert.Len(t, hg.TexelLayouts, len(texLayouts))
	for code, l := range texLayouts {
		assert.Equal(t, conv(l), hg.TexelLayouts[code], "texture format %#02x", code)
	}
	assert.Len(t, hg.ColorLayouts, len(colorLayouts))
	for code, l := range colorLayouts {
		assert.Equal(t, conv(l), hg.ColorLayouts[code], "colour format %#02x", code)
	}
}
