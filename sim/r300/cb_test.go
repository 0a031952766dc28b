package r300

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// drawOver clears the 4x4 buffer to dst with a first quad, then draws src
// with the extra state in setup, and returns pixel (1, 1).
func drawOver(t *testing.T, dst, src [4]float32, setup func(s *r3.Stream)) [4]uint8 {
	t.Helper()
	d := newDev(t)
	var s r3.Stream
	baseline(&s, 4, 4)
	s.Reg(r3.RB3D_DITHER_CTL, 1|1<<2) // round (the reset value truncates)
	full(&s, 4, 4, 0, dst)
	setup(&s)
	full(&s, 4, 4, 0, src)
	require.NoError(t, run(t, d, &s))
	return pixel(t, d, 4, 1, 1)
}

func TestBlend(t *testing.T) {
	dst := [4]float32{0.8, 0.4, 0.2, 1}
	src := [4]float32{0.2, 0.6, 1, 0.5}
	// The output is quantised to 8 bits first: src (51, 153, 255, 128),
	// dst (204, 102, 51, 255); a = 128/255.
	tests := []struct {
		name   string
		blend  uint32
		ablend uint32
		want   [4]uint8
	}{
		// Fact 1: SRC_ALPHA / ONE_MINUS_SRC_ALPHA.
		{"alpha", 0x27260005, 0, [4]uint8{127, 128, 153, 191}},
		{"add one one", 0x21210005, 0, [4]uint8{255, 255, 255, 255}},
		{"sub clamp", 0x21212005, 0, [4]uint8{0, 51, 204, 0}},
		{"rsub clamp", 0x21216005, 0, [4]uint8{153, 0, 0, 127}},
		{"min", 0x20204005, 0, [4]uint8{51, 102, 51, 128}},
		{"max", 0x20205005, 0, [4]uint8{204, 153, 255, 255}},
		{"dst colour", 0x20240005, 0, [4]uint8{41, 61, 51, 128}},
		{"D3D SRCALPHA / INVSRCALPHA", 0x06050005, 0, [4]uint8{127, 128, 153, 191}},
		{"D3D BOTHSRCALPHA", 0x010C0005, 0, [4]uint8{127, 128, 153, 191}},
		{"separate alpha: ZERO, ONE", 0x27260007, 0x21200000, [4]uint8{127, 128, 153, 255}},
		{"src + dst·constant", 0x2B210005, 0, [4]uint8{153, 204, 255, 255}},
		{"blend off", 0, 0, [4]uint8{51, 153, 255, 128}},
	}
	for _, tc := range tests {
		got := drawOver(t, dst, src, func(s *r3.Stream) {
			s.Reg(r3.RB3D_BLENDCNTL, tc.blend, tc.ablend)
			s.Reg(r3.RB3D_CONSTANT_COLOR, 0xFF808080)
		})
		assert.Equal(t, tc.want, got, tc.name)
	}
}

func TestROPMaskDiscard(t *testing.T) {
	dst := [4]float32{0.8, 0.4, 0.2, 1}
	src := [4]float32{0.2, 0.6, 1, 0.5}
	// Fact 7: XOR = 0x604. dst bytes (204, 102, 51, 255) xor src (51,
	// 153, 255, 128).
	got := drawOver(t, dst, src, func(s *r3.Stream) { s.Reg(r3.RB3D_ROPCNTL, 0x604) })
	assert.Equal(t, [4]uint8{204 ^ 51, 102 ^ 153, 51 ^ 255, 255 ^ 128}, got)
	got = drawOver(t, dst, src, func(s *r3.Stream) { s.Reg(r3.RB3D_ROPCNTL, 1<<2|5<<8) }) // INVERT
	assert.Equal(t, [4]uint8{51, 153, 204, 0}, got)
	// Fact 3: the mask runs B, G, R, A; 0x7 writes RGB only.
	got = drawOver(t, dst, src, func(s *r3.Stream) { s.Reg(r3.RB3D_COLOR_CHANNEL_MASK, 0x7) })
	assert.Equal(t, [4]uint8{51, 153, 255, 255}, got)
	got = drawOver(t, dst, src, func(s *r3.Stream) { s.Reg(r3.RB3D_COLOR_CHANNEL_MASK, 0x1) })
	assert.Equal(t, [4]uint8{204, 102, 255, 255}, got, "blue only")
	got = drawOver(t, dst, src, func(s *r3.Stream) { s.Reg(r3.RB3D_BLENDCNTL, 1<<3) })
	assert.Equal(t, [4]uint8{51, 153, 255, 128}, got, "DISCARD A0 keeps a non-zero alpha")
	got = drawOver(t, dst, [4]float32{0.2, 0.6, 1, 0}, func(s *r3.Stream) { s.Reg(r3.RB3D_BLENDCNTL, 1<<3) })
	assert.Equal(t, [4]uint8{204, 102, 51, 255}, got, "DISCARD A0 drops alpha 0")
}

func TestAlphaTestAndFog(t *testing.T) {
	dst := [4]float32{0, 0, 0, 1}
	// Fact 8: GREATER 128 = 0xC80. Alpha 0.5 quantises to 128: fails.
	got := drawOver(t, dst, [4]float32{1, 1, 1, 0.5}, func(s *r3.Stream) { s.Reg(r3.FG_ALPHA_FUNC, 0xC80) })
	assert.Equal(t, [4]uint8{0, 0, 0, 255}, got)
	got = drawOver(t, dst, [4]float32{1, 1, 1, 0.51}, func(s *r3.Stream) { s.Reg(r3.FG_ALPHA_FUNC, 0xC80) })
	assert.Equal(t, [4]uint8{255, 255, 255, 130}, got)
	// GE is 6 in FG's order (fact 9).
	got = drawOver(t, dst, [4]float32{1, 1, 1, 0.5}, func(s *r3.Stream) { s.Reg(r3.FG_ALPHA_FUNC, 128|6<<8|1<<11) })
	assert.Equal(t, [4]uint8{255, 255, 255, 128}, got)
	// Constant fog factor 0.25: 0.25·src + 0.75·fog colour.
	got = drawOver(t, dst, [4]float32{1, 0, 0, 1}, func(s *r3.Stream) {
		s.Reg(r3.FG_FOG_BLEND, 1|3<<1, 256, 0, 1023, 0)
	})
	assert.Equal(t, [4]uint8{64, 191, 0, 255}, got)
	// Linear fog from colour 1's alpha is not in this layout: FOG_SELECT
	// Z with scale 1 and offset 0 and z = 0.5 fogs halfway.
	got = drawOver(t, dst, [4]float32{1, 0, 0, 1}, func(s *r3.Stream) {
		s.Reg(r3.FG_FOG_BLEND, 1, 0, 0, 0, 1023)
		s.Reg(r3.GB_SELECT, 5)
		s.Reg(r3.GA_FOG_SCALE, f(2), f(0))
	})
	assert.Equal(t, [4]uint8{0, 0, 255, 255}, got, "z 0 times scale 2 is f=0: all fog")
}

func TestColorFormatsAndDither(t *testing.T) {
	// RGB565 with rounding and with the 4x4 LUT dither: a 0.5 grey.
	for _, tc := range []struct {
		dither uint32
		dith   bool
		want   []uint16
	}{
		{1, false, []uint16{0x8410, 0x8410, 0x8410, 0x8410}},
		{0, false, []uint16{0x7BEF, 0x7BEF, 0x7BEF, 0x7BEF}},
		{2, true, []uint16{0x7BEF, 0x8410, 0x7BEF, 0x8410}},
	} {
		d := newDev(t)
		var s r3.Stream
		baseline(&s, 4, 4)
		s.Reg(r3.RB3D_COLORPITCH0, r3.Fields(r3.RB3D_COLORPITCH0, "COLORPITCH", 2, "COLORFORMAT", 4))
		s.Reg(r3.RB3D_DITHER_CTL, tc.dither)
		if tc.dith {
			s.Reg(r3.FG_ALPHA_FUNC, 1<<20)
		}
		// 0.5 quantised to 8 bits is 128/255, between 5-bit steps.
		full(&s, 4, 4, 0, [4]float32{0.5, 0.5, 0.5, 1})
		require.NoError(t, run(t, d, &s))
		var got []uint16
		for x := 0; x < 4; x++ {
			b := make([]byte, 2)
			require.NoError(t, d.Read(fbAddr+uint32(2*x), b))
			got = append(got, uint16(b[0])|uint16(b[1])<<8)
		}
		assert.Equal(t, tc.want, got, "dither mode %d", tc.dither)
	}
	// ARGB1555 and ARGB4444 pack alpha in the top bits.
	for _, tc := range []struct {
		format uint32
		want   uint16
	}{{3, 0x801F}, {15, 0xF00F}} {
		d := newDev(t)
		var s r3.Stream
		baseline(&s, 4, 4)
		s.Reg(r3.RB3D_COLORPITCH0, r3.Fields(r3.RB3D_COLORPITCH0, "COLORPITCH", 2, "COLORFORMAT", tc.format))
		full(&s, 4, 4, 0, [4]float32{0, 0, 1, 1})
		require.NoError(t, run(t, d, &s))
		b := make([]byte, 2)
		require.NoError(t, d.Read(fbAddr, b))
		assert.Equal(t, tc.want, uint16(b[0])|uint16(b[1])<<8, "format %d", tc.format)
	}
}
