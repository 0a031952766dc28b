package pspge_test

import (
	"encoding/binary"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	pspgedrv "github.com/retrogl/retrogl/driver/pspge"
	"github.com/retrogl/retrogl/gles"
)

// quad draws a full-viewport quad with texture coordinates 0..1.
func quad(ctx *gles.Context, z float32) {
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -1, z, 1, -1, z, 1, 1, z, -1, 1, z})
	ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 1, 1, 0, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
}

func stats(ctx *gles.Context) pspgedrv.Stats { return ctx.Driver().(*pspgedrv.Context).Stats() }

// texture2x2 makes a 2x2 nearest texture; texel (x, y) covers the quarter
// of the 64x64 quad at window (x*32.., y*32..).
func texture2x2(ctx *gles.Context, internal, format, typ gles.Enum, pixels any) {
	ids := ctx.GenTextures(1)
	ctx.BindTexture(gles.TEXTURE_2D, ids[0])
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
	ctx.PixelStorei(gles.UNPACK_ALIGNMENT, 1)
	ctx.TexImage2D(gles.TEXTURE_2D, 0, internal, 2, 2, 0, format, typ, pixels)
	ctx.Enable(gles.TEXTURE_2D)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
}

func u16s(vs ...uint16) []byte {
	b := make([]byte, 2*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint16(b[2*i:], v)
	}
	return b
}

// TestTextureFormats uploads each GL texture format and reads back the
// four texels through REPLACE: the GE's format conversion (repacking,
// widening, CLUTs, DXT block order) must give the GL texel values.
func TestTextureFormats(t *testing.T) {
	red, green, blue, white := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 255, 0, 255}, color.NRGBA{0, 0, 255, 255}, color.NRGBA{255, 255, 255, 255}
	for _, tc := range []struct {
		name                     string
		internal, format, typ    gles.Enum
		pixels                   any
		want00, want10, want01   color.NRGBA
		want11                   color.NRGBA
		compressed, paletteBytes bool
	}{
		{name: "RGBA8888", internal: gles.RGBA, format: gles.RGBA, typ: gles.UNSIGNED_BYTE,
			pixels: []uint8{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255}, want00: red, want10: green, want01: blue, want11: white},
		{name: "RGB888", internal: gles.RGB, format: gles.RGB, typ: gles.UNSIGNED_BYTE,
			pixels: []uint8{255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255}, want00: red, want10: green, want01: blue, want11: white},
		{name: "RGB565", internal: gles.RGB, format: gles.RGB, typ: gles.UNSIGNED_SHORT_5_6_5,
			pixels: u16s(0xF800, 0x07E0, 0x001F, 0xFFFF), want00: red, want10: green, want01: blue, want11: white},
		{name: "RGBA4444", internal: gles.RGBA, format: gles.RGBA, typ: gles.UNSIGNED_SHORT_4_4_4_4,
			pixels: u16s(0xF00F, 0x0F0F, 0x00FF, 0xFFFF), want00: red, want10: green, want01: blue, want11: white},
		{name: "RGBA5551", internal: gles.RGBA, format: gles.RGBA, typ: gles.UNSIGNED_SHORT_5_5_5_1,
			pixels: u16s(0xF801, 0x07C1, 0x003F, 0xFFFF), want00: red, want10: green, want01: blue, want11: white},
		{name: "L8", internal: gles.LUMINANCE, format: gles.LUMINANCE, typ: gles.UNSIGNED_BYTE,
			pixels: []uint8{0, 0x40, 0x80, 0xFF}, want00: color.NRGBA{0, 0, 0, 255}, want10: color.NRGBA{0x40, 0x40, 0x40, 255},
			want01: color.NRGBA{0x80, 0x80, 0x80, 255}, want11: white},
		{name: "LA88", internal: gles.LUMINANCE_ALPHA, format: gles.LUMINANCE_ALPHA, typ: gles.UNSIGNED_BYTE,
			pixels: []uint8{0x10, 1, 0x20, 2, 0x30, 3, 0x40, 4}, want00: color.NRGBA{0x10, 0x10, 0x10, 255}, want10: color.NRGBA{0x20, 0x20, 0x20, 255},
			want01: color.NRGBA{0x30, 0x30, 0x30, 255}, want11: color.NRGBA{0x40, 0x40, 0x40, 255}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newCtx(t, driver.FormatRGBA8888)
			texture2x2(ctx, tc.internal, tc.format, tc.typ, tc.pixels)
			quad(ctx, 0)
			require.NoError(t, ctx.Err())
			assert.Equal(t, tc.want00, at(ctx, 10, 10))
			assert.Equal(t, tc.want10, at(ctx, 50, 10))
			assert.Equal(t, tc.want01, at(ctx, 10, 50))
			assert.Equal(t, tc.want11, at(ctx, 50, 50))
		})
	}
}

// TestPalettedTexture checks OES_compressed_paletted_texture on CLUT4 and
// CLUT8: the first texel sits in the high nibble for GL and the low one
// for the GE.
func TestPalettedTexture(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format gles.Enum
		data   []byte
	}{
		// PALETTE4_RGBA8: 16 entries x 4 bytes, then 2x2 4-bit indices
		// (row 0: 1, 2; row 1: 3, 0).
		{"CLUT4 RGBA8", gles.PALETTE4_RGBA8_OES, append(palette(16, 4), 0x12, 0x30)},
		// PALETTE8_RGB565: 256 entries x 2 bytes, then indices 1, 2, 3, 0.
		{"CLUT8 R5G6B5", gles.PALETTE8_R5_G6_B5_OES, append(palette(256, 2), 1, 2, 3, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newCtx(t, driver.FormatRGBA8888)
			ids := ctx.GenTextures(1)
			ctx.BindTexture(gles.TEXTURE_2D, ids[0])
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
			ctx.CompressedTexImage2D(gles.TEXTURE_2D, 0, tc.format, 2, 2, 0, tc.data)
			ctx.Enable(gles.TEXTURE_2D)
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
			quad(ctx, 0)
			require.NoError(t, ctx.Err())
			assert.Equal(t, color.NRGBA{255, 0, 0, 255}, at(ctx, 10, 10))
			assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 50, 10))
			assert.Equal(t, color.NRGBA{0, 0, 255, 255}, at(ctx, 10, 50))
			assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 50, 50))
		})
	}
}

// palette returns n entries (black, red, green, blue, black...) of size
// bytes each (4: RGBA8; 2: RGB565 with red in the high bits).
func palette(n, size int) []byte {
	b := make([]byte, n*size)
	for i, c := range [][4]uint8{{0, 0, 0, 255}, {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}} {
		if size == 4 {
			copy(b[4*i:], c[:])
		} else {
			v := uint16(c[0])>>3<<11 | uint16(c[1])>>2<<5 | uint16(c[2])>>3
			binary.LittleEndian.PutUint16(b[2*i:], v)
		}
	}
	return b
}

// TestDXT1Texture uploads one S3TC DXT1 block (c0 red, c1 blue, indices
// row-major from the low bits) on a 4x4 texture and reads the decode of the
// GE: end points widened by shifting (0xF8, not 0xFF; pspautotests
// gpu/texcolors/dxt1).
func TestDXT1Texture(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ids := ctx.GenTextures(1)
	ctx.BindTexture(gles.TEXTURE_2D, ids[0])
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
	// c0 = red (0xF800), c1 = blue (0x001F); rows 0-1 index 0, rows 2-3
	// index 1.
	block := []byte{0x00, 0xF8, 0x1F, 0x00, 0x00, 0x00, 0x55, 0x55}
	ctx.CompressedTexImage2D(gles.TEXTURE_2D, 0, gles.COMPRESSED_RGB_S3TC_DXT1_EXT, 4, 4, 0, block)
	ctx.Enable(gles.TEXTURE_2D)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
	quad(ctx, 0)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{0xF8, 0, 0, 255}, at(ctx, 5, 5), "texture row 0 (bottom of the window)")
	assert.Equal(t, color.NRGBA{0, 0, 0xF8, 255}, at(ctx, 5, 60))
}

// TestTexEnvModulateAlphaTexture checks the alpha-texture fix-ups: MODULATE
// keeps the fragment colour (white texels) and REPLACE takes the texel
// alpha regardless of the fragment's (alpha forced to 255), seen through
// alpha blending onto black.
func TestTexEnvModulateAlphaTexture(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	texture2x2(ctx, gles.ALPHA, gles.ALPHA, gles.UNSIGNED_BYTE, []uint8{0x80, 0x80, 0x80, 0x80})
	ctx.Enable(gles.BLEND)
	ctx.BlendFunc(gles.SRC_ALPHA, gles.ZERO)
	ctx.Color4f(1, 1, 1, 0.25)
	quad(ctx, 0)
	require.NoError(t, ctx.Err())
	// REPLACE on ALPHA: colour = Cf (white), alpha = At = 0x80: 255 x
	// 0x80 with ((2c+1)(2a+1))>>10 = (511*257)>>10 = 128.
	assert.Equal(t, color.NRGBA{128, 128, 128, 255}, at(ctx, 20, 20))
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	quad(ctx, 0)
	// MODULATE: alpha = (0x40+1)*0x80/256 = 32, colour 255*32: (511*65)>>10 = 32.
	assert.Equal(t, color.NRGBA{32, 32, 32, 255}, at(ctx, 20, 20))
}

// TestFixedFunctionFragmentOps checks each per-fragment operation's
// framebuffer effect on a flat quad.
func TestFixedFunctionFragmentOps(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(ctx *gles.Context)
		want  color.NRGBA
	}{
		{"alpha test fails", func(ctx *gles.Context) {
			ctx.Enable(gles.ALPHA_TEST)
			ctx.AlphaFunc(gles.GREATER, 0.5)
			ctx.Color4f(1, 0, 0, 0.5)
		}, color.NRGBA{0, 0, 0, 255}},
		{"alpha test passes", func(ctx *gles.Context) {
			ctx.Enable(gles.ALPHA_TEST)
			ctx.AlphaFunc(gles.GREATER, 0.4)
			ctx.Color4f(1, 0, 0, 0.5)
		}, color.NRGBA{255, 0, 0, 255}}, // no alpha bitplanes: alpha reads 1
		{"blend src alpha", func(ctx *gles.Context) {
			ctx.Enable(gles.BLEND)
			ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
			ctx.Color4f(1, 1, 1, 0.5) // alpha 128: 255*128 + 0 -> (511*257)>>10 = 128
		}, color.NRGBA{128, 128, 128, 255}},
		{"blend add", func(ctx *gles.Context) {
			ctx.Enable(gles.BLEND)
			ctx.BlendFunc(gles.ONE, gles.ONE)
			ctx.Color4f(0.2, 0.4, 0.6, 1)
		}, color.NRGBA{51, 102, 153, 255}},
		{"logic op xor", func(ctx *gles.Context) {
			ctx.Enable(gles.COLOR_LOGIC_OP)
			ctx.LogicOp(gles.XOR)
			ctx.Color4f(1, 0, 1, 1)
		}, color.NRGBA{255, 0, 255, 255}},
		{"colour mask green only", func(ctx *gles.Context) {
			ctx.ColorMask(false, true, false, true)
			ctx.Color4f(1, 1, 1, 1)
		}, color.NRGBA{0, 255, 0, 255}},
		{"scissor outside", func(ctx *gles.Context) {
			ctx.Enable(gles.SCISSOR_TEST)
			ctx.Scissor(40, 0, 24, 64)
			ctx.Color4f(1, 1, 1, 1)
		}, color.NRGBA{0, 0, 0, 255}},
		{"depth test greater fails", func(ctx *gles.Context) {
			ctx.Enable(gles.DEPTH_TEST)
			ctx.DepthFunc(gles.GREATER)
			ctx.Color4f(1, 1, 1, 1)
		}, color.NRGBA{0, 0, 0, 255}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newCtx(t, driver.FormatRGBA8888)
			tc.setup(ctx)
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
			ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
			require.NoError(t, ctx.Err())
			assert.Equal(t, tc.want, at(ctx, 20, 20))
		})
	}
}

// TestStencil draws a stencil mask and a masked quad on an 8888 surface
// with 8 stencil bits (the alpha byte).
func TestStencil(t *testing.T) {
	ctx, err := gles.NewContext("pspge", gles.Config{Width: 64, Height: 64, DepthBits: 16, StencilBits: 8})
	require.NoError(t, err)
	defer ctx.Close()
	ctx.ClearStencil(0)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.Enable(gles.STENCIL_TEST)
	ctx.StencilFunc(gles.ALWAYS, 5, 0xFF)
	ctx.StencilOp(gles.KEEP, gles.KEEP, gles.REPLACE)
	ctx.ColorMask(false, false, false, false)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 0, -1, 0, 1, -1, 1}) // left half
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	ctx.ColorMask(true, true, true, true)
	ctx.StencilFunc(gles.EQUAL, 5, 0xFF)
	ctx.StencilOp(gles.KEEP, gles.KEEP, gles.INCR)
	ctx.Color4f(0, 1, 0, 1)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{0, 255, 0, 255}, at(ctx, 10, 10), "inside the stencil mask")
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(ctx, 50, 10), "outside")
	rd := ctx.Driver().(driver.DepthStencilReader)
	s, err := rd.ReadStencil(10, 10)
	require.NoError(t, err)
	assert.Equal(t, 6, s, "REPLACE 5 then INCR")
	s, err = rd.ReadStencil(50, 10)
	require.NoError(t, err)
	assert.Equal(t, 0, s)
}

// TestStencil4444 checks stencil arithmetic in 4 alpha bits: REPLACE 9 and
// DECR store nibbles 9 and 8.
func TestStencil4444(t *testing.T) {
	ctx, err := gles.NewContext("pspge", gles.Config{Width: 16, Height: 16, Format: driver.FormatRGBA4444, StencilBits: 4})
	require.NoError(t, err)
	defer ctx.Close()
	ctx.Clear(gles.STENCIL_BUFFER_BIT)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.Enable(gles.STENCIL_TEST)
	ctx.StencilFunc(gles.ALWAYS, 9, 0xF)
	ctx.StencilOp(gles.KEEP, gles.KEEP, gles.REPLACE)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	ctx.StencilFunc(gles.LESS, 8, 0xF) // 8 < 9 passes
	ctx.StencilOp(gles.KEEP, gles.KEEP, gles.DECR)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	s, err := ctx.Driver().(driver.DepthStencilReader).ReadStencil(5, 5)
	require.NoError(t, err)
	assert.Equal(t, 8, s)
}

// TestDither16 draws mid-grey on 565 with dithering: the pspsdk matrix
// moves neighbouring pixels to different 5-bit values.
func TestDither16(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGB565)
	ctx.Color4f(0x84/255.0, 0x84/255.0, 0x84/255.0, 1)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	require.NoError(t, ctx.Err())
	// GE row 0 (window y 63), x 0: dither -4, 0x84 -> 0x80: R5 16
	// (0x84), G6 32 (0x82); without dither G6 is 33 (0x86).
	assert.Equal(t, color.NRGBA{0x84, 0x82, 0x84, 255}, at(ctx, 0, 63))
	// GE row 1, x 2: +3 -> 0x87: R5 16, G6 33.
	assert.Equal(t, color.NRGBA{0x84, 0x86, 0x84, 255}, at(ctx, 2, 62))
	ctx.Disable(gles.DITHER)
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	assert.Equal(t, color.NRGBA{0x84, 0x86, 0x84, 255}, at(ctx, 0, 63))
}

// TestETC1AndSeparateBlend: ETC1 blocks are decoded on the CPU (individual
// mode, both sub-blocks base 0x8 per channel = 136, table 0, index 0: +2 =
// 138 everywhere),
// and BlendFuncSeparateOES blends colour by its RGB factors only (the
// surface keeps no alpha): ONE, ONE over a clear of 0.2.
func TestETC1AndSeparateBlend(t *testing.T) {
	ctx := newCtx(t, driver.FormatRGBA8888)
	ids := ctx.GenTextures(1)
	ctx.BindTexture(gles.TEXTURE_2D, ids[0])
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
	ctx.CompressedTexImage2D(gles.TEXTURE_2D, 0, gles.ETC1_RGB8_OES, 4, 4, 0, []byte{0x88, 0x88, 0x88, 0, 0, 0, 0, 0})
	ctx.Enable(gles.TEXTURE_2D)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
	quad(ctx, 0)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{138, 138, 138, 255}, at(ctx, 30, 30))

	ctx = newCtx(t, driver.FormatRGBA8888)
	ctx.ClearColor(0.2, 0.2, 0.2, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.Enable(gles.BLEND)
	ctx.BlendFuncSeparateOES(gles.ONE, gles.ONE, gles.ZERO, gles.ZERO)
	ctx.BlendEquationSeparateOES(gles.FUNC_ADD_OES, gles.FUNC_REVERSE_SUBTRACT_OES)
	ctx.Color4f(0.4, 0.2, 0, 1)
	quad(ctx, 0)
	require.NoError(t, ctx.Err())
	assert.Equal(t, color.NRGBA{153, 102, 51, 255}, at(ctx, 30, 30))
}

// TestMirroredRepeat: GL_MIRRORED_REPEAT (OES_texture_mirrored_repeat) on
// a 2-texel texture (red, green) with s from 0 to 2 across the quad: GL
// reads red, green, then the mirror image green, red. A 512-texel side
// (whose doubled copy the GE cannot take) gives the same through the
// software stage.
func TestMirroredRepeat(t *testing.T) {
	for _, w := range []int{2, 512} {
		ctx := newCtx(t, driver.FormatRGBA8888)
		ids := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, ids[0])
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_S, int(gles.MIRRORED_REPEAT))
		row := make([]uint8, 4*w)
		for i := 0; i < w; i++ {
			if i < w/2 {
				copy(row[4*i:], []uint8{255, 0, 0, 255})
			} else {
				copy(row[4*i:], []uint8{0, 255, 0, 255})
			}
		}
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, w, 1, 0, gles.RGBA, gles.UNSIGNED_BYTE, row)
		ctx.Enable(gles.TEXTURE_2D)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
		ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 2, 0, 2, 1, 0, 1})
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
		require.NoError(t, ctx.Err())
		red, green := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 255, 0, 255}
		for i, want := range []color.NRGBA{red, green, green, red} {
			assert.Equal(t, want, at(ctx, 8+16*i, 30), "width %d, quarter %d", w, i)
		}
		assert.Equal(t, w == 512, stats(ctx).SoftwareDraws == 1, "width %d", w)
	}
}
