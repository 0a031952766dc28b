package driver

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeTexel(t *testing.T) {
	u16 := func(v uint16) []byte { return []byte{byte(v), byte(v >> 8)} }
	for _, tc := range []struct {
		f    TexFormat
		data []byte
		want [4]uint8
	}{
		{TexRGBA8888, []byte{1, 2, 3, 4}, [4]uint8{1, 2, 3, 4}},
		{TexRGB888, []byte{1, 2, 3}, [4]uint8{1, 2, 3, 255}},
		{TexRGB565, u16(0xF800), [4]uint8{255, 0, 0, 255}},
		{TexRGB565, u16(0x07E0 | 0x0010), [4]uint8{0, 255, 0x84, 255}},
		{TexRGBA4444, u16(0x1234), [4]uint8{0x11, 0x22, 0x33, 0x44}},
		{TexRGBA5551, u16(0x0001 | 0x003E), [4]uint8{0, 0, 255, 255}},
		{TexL8, []byte{7}, [4]uint8{7, 7, 7, 255}},
		{TexA8, []byte{7}, [4]uint8{0, 0, 0, 7}},
		{TexLA88, []byte{7, 9}, [4]uint8{7, 7, 7, 9}},
	} {
		assert.Equal(t, tc.want, DecodeTexel(tc.f, tc.data, 0), "%v %x", tc.f, tc.data)
	}
}

func TestPalettedTexel(t *testing.T) {
	tex := &Texture{Format: TexPalette4, PaletteFormat: TexRGB888,
		Palette: make([]byte, 16*3), Levels: []Level{{Width: 2, Height: 1, Data: []byte{0x21}}}}
	copy(tex.Palette[3:], []byte{10, 20, 30, 40, 50, 60})
	// OES_compressed_paletted_texture: the first texel is the high nibble.
	assert.Equal(t, [4]uint8{40, 50, 60, 255}, tex.TexelRGBA8(0, 0, 0))
	assert.Equal(t, [4]uint8{10, 20, 30, 255}, tex.TexelRGBA8(0, 1, 0))
	assert.Equal(t, BaseRGB, tex.Base())
}

// TestETC1 decodes hand-built blocks (OES_compressed_ETC1_RGB8_texture):
// individual mode with base colours 0x8/0x4 per channel and tables 0/7,
// and differential mode with a -1 delta.
func TestETC1(t *testing.T) {
	// Individual: R1=8 R2=4 G1=8 G2=4 B1=8 B2=4, table1=0 table2=7,
	// diff=0, flip=0; all pixel indices 0 except pixel (1,0) = index 3.
	hi := uint32(0x84<<24 | 0x84<<16 | 0x84<<8 | 0<<5 | 7<<2)
	lo := uint32(1<<(16+4) | 1<<4) // pixel index x*4+y = 4: msb and lsb set
	blk := make([]byte, 8)
	binary.BigEndian.PutUint32(blk, hi)
	binary.BigEndian.PutUint32(blk[4:], lo)
	// Left half: base 0x88 = 136 with table 0: +2 -> 138; index 3 -> -8.
	assert.Equal(t, [4]uint8{138, 138, 138, 255}, DecodeBlockTexel(TexETC1, blk, 4, 0, 0))
	assert.Equal(t, [4]uint8{128, 128, 128, 255}, DecodeBlockTexel(TexETC1, blk, 4, 1, 0))
	// Right half: base 0x44 = 68 with table 7: +47 -> 115.
	assert.Equal(t, [4]uint8{115, 115, 115, 255}, DecodeBlockTexel(TexETC1, blk, 4, 3, 2))
	// Differential: R1=16 (0x84 when 5-bit 16 -> 132), dR=-1 -> 15 -> 123.
	hi = uint32(16<<27|7<<24) | uint32(16<<19|7<<16) | uint32(16<<11|7<<8) | 2
	binary.BigEndian.PutUint32(blk, hi)
	binary.BigEndian.PutUint32(blk[4:], 0)
	assert.Equal(t, [4]uint8{134, 134, 134, 255}, DecodeBlockTexel(TexETC1, blk, 4, 0, 0))
	assert.Equal(t, [4]uint8{125, 125, 125, 255}, DecodeBlockTexel(TexETC1, blk, 4, 2, 0))
}

func TestDXT(t *testing.T) {
	// c0 = red 0xF800, c1 = blue 0x001F, indices: texel 0 -> 0, 1 -> 1,
	// 2 -> 2 (2/3 red + 1/3 blue), 3 -> 3.
	blk := []byte{0x00, 0xF8, 0x1F, 0x00, 0b11100100, 0, 0, 0}
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, DecodeBlockTexel(TexDXT1, blk, 4, 0, 0))
	assert.Equal(t, [4]uint8{0, 0, 255, 255}, DecodeBlockTexel(TexDXT1, blk, 4, 1, 0))
	assert.Equal(t, [4]uint8{170, 0, 85, 255}, DecodeBlockTexel(TexDXT1, blk, 4, 2, 0))
	// c0 <= c1: three-colour mode; index 3 is transparent black in DXT1A.
	blk = []byte{0x1F, 0x00, 0x00, 0xF8, 0b11100100, 0, 0, 0}
	assert.Equal(t, [4]uint8{127, 0, 127, 255}, DecodeBlockTexel(TexDXT1, blk, 4, 2, 0))
	assert.Equal(t, [4]uint8{0, 0, 0, 0}, DecodeBlockTexel(TexDXT1A, blk, 4, 3, 0))
	// DXT5 alpha: a0=255 a1=0, index 2 -> (6*255 + 1*0)/7 = 218.
	d5 := append([]byte{255, 0, 2, 0, 0, 0, 0, 0}, []byte{0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0}...)
	assert.Equal(t, uint8(218), DecodeBlockTexel(TexDXT5, d5, 4, 0, 0)[3])
	assert.Equal(t, 16, CompressedSize(TexDXT3, 4, 4))
	assert.Equal(t, 8, CompressedSize(TexETC1, 1, 1))
}

func TestFetch(t *testing.T) {
	f32 := make([]byte, 8)
	binary.LittleEndian.PutUint32(f32, math.Float32bits(1.5))
	binary.LittleEndian.PutUint32(f32[4:], math.Float32bits(-2))
	for _, tc := range []struct {
		a    Attrib
		want [4]float32
	}{
		{Attrib{Enabled: true, Size: 2, Type: TypeFloat, Stride: 8, Data: f32}, [4]float32{1.5, -2, 0, 1}},
		{Attrib{Enabled: true, Size: 2, Type: TypeFixed, Stride: 8, Data: []byte{0, 0x80, 1, 0, 0, 0, 0xFF, 0xFF}}, [4]float32{1.5, -1, 0, 1}},
		{Attrib{Enabled: true, Size: 3, Type: TypeByte, Stride: 3, Data: []byte{0x7F, 0x80, 1}}, [4]float32{127, -128, 1, 1}},
		{Attrib{Enabled: true, Size: 4, Type: TypeUByte, Normalized: true, Stride: 4, Data: []byte{255, 0, 51, 102}}, [4]float32{1, 0, 0.2, 0.4}},
		{Attrib{Enabled: true, Size: 2, Type: TypeShort, Stride: 4, Data: []byte{0xFF, 0xFF, 2, 0}}, [4]float32{-1, 2, 0, 1}},
		{Attrib{}, [4]float32{0, 0, 0, 1}},
	} {
		var out [4]float32
		tc.a.Fetch(0, [4]float32{0, 0, 0, 1}, &out)
		assert.Equal(t, tc.want, out, "%v", tc.a.Type)
	}
}

func TestCaps(t *testing.T) {
	c := &Caps{Name: "x", Features: Features(0).With(FeatureBlend),
		Missing:      []Missing{{FeatureFog, "no fog unit"}},
		Limits:       Limits{MaxViewportDims: [2]int{256, 256}},
		ColorFormats: []PixelFormat{FormatRGB565}, DepthBits: []int{0, 16, 24}, StencilBits: []int{0, 8},
		Default: SurfaceConfig{Width: 100, Height: 50, Format: FormatRGB565}}
	c.FillMissing("later")
	assert.Equal(t, "no fog unit", c.WhyMissing(FeatureFog))
	assert.Equal(t, "later", c.WhyMissing(FeatureLighting))
	assert.Len(t, c.Missing, int(numFeatures)-1)
	cfg, err := c.ChooseConfig(SurfaceConfig{DepthBits: 17})
	require.NoError(t, err)
	assert.Equal(t, SurfaceConfig{Width: 100, Height: 50, Format: FormatRGB565, DepthBits: 24}, cfg)
	_, err = c.ChooseConfig(SurfaceConfig{Format: FormatRGBA8888})
	assert.ErrorContains(t, err, "not supported")
	_, err = c.ChooseConfig(SurfaceConfig{StencilBits: 9})
	assert.Error(t, err)
	_, err = c.ChooseConfig(SurfaceConfig{Width: 300})
	assert.Error(t, err)
	b, err := c.Features.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, `["blend"]`, string(b))
	assert.True(t, CompareLEqual.Test(3, 3))
	assert.Equal(t, uint32(0b0110), LogicXor.Apply(0b1100, 0b1010))
}
