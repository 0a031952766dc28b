package driver

import (
	"encoding/binary"
	"fmt"

	"github.com/retrogl/retrogl/internal/texblock"
)

// TexFormat is the layout of a texture object's level data as the
// application supplied it (GL format and type, or a compressed format).
// Backends convert from it to their chip's formats.
type TexFormat uint8

// The texture formats of ES 1.1 and its extensions. 16-bit packed formats
// hold little-endian u16 with red in the most significant bits, as GL's
// UNSIGNED_SHORT_5_6_5 and friends do.
const (
	TexRGBA8888 TexFormat = iota + 1 // bytes R, G, B, A
	TexRGB888                        // bytes R, G, B
	TexRGB565                        // u16: R 15-11, G 10-5, B 4-0
	TexRGBA4444                      // u16: R 15-12, G 11-8, B 7-4, A 3-0
	TexRGBA5551                      // u16: R 15-11, G 10-6, B 5-1, A 0
	TexL8                            // luminance
	TexA8                            // alpha
	TexLA88                          // bytes L, A
	TexPalette4                      // 4-bit indices, first texel in the high nibble
	TexPalette8                      // 8-bit indices
	TexETC1                          // OES_compressed_ETC1_RGB8_texture
	TexDXT1                          // S3TC DXT1, opaque
	TexDXT1A                         // S3TC DXT1 with 1-bit alpha
	TexDXT3
	TexDXT5
)

var texFormatNames = map[TexFormat]string{
	TexRGBA8888: "RGBA8888", TexRGB888: "RGB888", TexRGB565: "RGB565", TexRGBA4444: "RGBA4444",
	TexRGBA5551: "RGBA5551", TexL8: "L8", TexA8: "A8", TexLA88: "LA88", TexPalette4: "PALETTE4",
	TexPalette8: "PALETTE8", TexETC1: "ETC1", TexDXT1: "DXT1", TexDXT1A: "DXT1A", TexDXT3: "DXT3", TexDXT5: "DXT5",
}

// String returns the format's name.
func (f TexFormat) String() string {
	if s, ok := texFormatNames[f]; ok {
		return s
	}
	return fmt.Sprintf("TexFormat(%d)", uint8(f))
}

// BytesPerTexel returns the size of one texel of an uncompressed format, or
// 0 for paletted and block-compressed formats.
func (f TexFormat) BytesPerTexel() int {
	switch f {
	case TexRGBA8888:
		return 4
	case TexRGB888:
		return 3
	case TexRGB565, TexRGBA4444, TexRGBA5551, TexLA88:
		return 2
	case TexL8, TexA8:
		return 1
	}
	return 0
}

// BaseFormat is the GL base internal format, which the texture environment
// depends on.
type BaseFormat uint8

// The base formats.
const (
	BaseRGBA BaseFormat = iota
	BaseRGB
	BaseAlpha
	BaseLuminance
	BaseLuminanceAlpha
)

// Base returns the base format of f (paletted formats take their palette's).
func (f TexFormat) Base(palette TexFormat) BaseFormat {
	switch f {
	case TexRGB888, TexRGB565, TexETC1, TexDXT1:
		return BaseRGB
	case TexL8:
		return BaseLuminance
	case TexA8:
		return BaseAlpha
	case TexLA88:
		return BaseLuminanceAlpha
	case TexPalette4, TexPalette8:
		return palette.Base(0)
	}
	return BaseRGBA
}

// Level is one mipmap level. Rows run bottom to top as GL uploads them: row
// 0 holds t near 0. Data is tightly packed (the state tracker removed the
// unpack alignment); compressed levels hold their blocks.
type Level struct {
	Width, Height int
	Data          []byte
}

// Texture is a complete texture object as a draw sees it.
type Texture struct {
	// ID is the GL texture name; Gen changes whenever the object changes,
	// so a backend can key its device copy on (ID, Gen).
	ID  uint32
	Gen uint64
	// Format is the layout of every level.
	Format TexFormat
	// Palette holds the colour table of a paletted texture, in
	// PaletteFormat (TexRGB888, TexRGBA8888, TexRGB565, TexRGBA4444 or
	// TexRGBA5551), 16 or 256 entries.
	Palette       []byte
	PaletteFormat TexFormat
	// Levels holds level 0 and, when the sampler mipmaps, every level down
	// to 1x1.
	Levels  []Level
	Sampler Sampler
	// Crop is the OES_draw_texture crop rectangle (x, y, w, h) in texels.
	Crop [4]int
}

// Base returns the texture's base format.
func (t *Texture) Base() BaseFormat { return t.Format.Base(t.PaletteFormat) }

// TexelRGBA8 returns texel (x, y) of level l as 8-bit RGBA, applying GL's
// base-format rules (luminance replicates into RGB, alpha-only formats have
// black RGB, formats without alpha are opaque). It works for every format
// this package defines; x and y must be inside the level.
func (t *Texture) TexelRGBA8(l, x, y int) [4]uint8 {
	lv := &t.Levels[l]
	switch t.Format {
	case TexPalette4, TexPalette8:
		i := y*lv.Width + x
		var idx int
		if t.Format == TexPalette8 {
			idx = int(lv.Data[i])
		} else {
			b := lv.Data[i/2]
			if i%2 == 0 {
				idx = int(b >> 4)
			} else {
				idx = int(b & 15)
			}
		}
		return DecodeTexel(t.PaletteFormat, t.Palette, idx)
	case TexETC1, TexDXT1, TexDXT1A, TexDXT3, TexDXT5:
		return DecodeBlockTexel(t.Format, lv.Data, lv.Width, x, y)
	}
	return DecodeTexel(t.Format, lv.Data, y*lv.Width+x)
}

func expand5(v uint16) uint8 { return uint8(v<<3 | v>>2) }
func expand6(v uint16) uint8 { return uint8(v<<2 | v>>4) }
func expand4(v uint16) uint8 { return uint8(v * 17) }

// DecodeTexel decodes texel i of an uncompressed format to 8-bit RGBA. Fewer
// bits widen by bit replication, as GL's conversion to [0,1] and back does.
func DecodeTexel(f TexFormat, data []byte, i int) [4]uint8 {
	switch f {
	case TexRGBA8888:
		p := data[4*i : 4*i+4]
		return [4]uint8{p[0], p[1], p[2], p[3]}
	case TexRGB888:
		p := data[3*i : 3*i+3]
		return [4]uint8{p[0], p[1], p[2], 255}
	case TexRGB565:
		v := uint16(data[2*i]) | uint16(data[2*i+1])<<8
		return [4]uint8{expand5(v >> 11), expand6(v >> 5 & 63), expand5(v & 31), 255}
	case TexRGBA4444:
		v := uint16(data[2*i]) | uint16(data[2*i+1])<<8
		return [4]uint8{expand4(v >> 12), expand4(v >> 8 & 15), expand4(v >> 4 & 15), expand4(v & 15)}
	case TexRGBA5551:
		v := uint16(data[2*i]) | uint16(data[2*i+1])<<8
		return [4]uint8{expand5(v >> 11), expand5(v >> 6 & 31), expand5(v >> 1 & 31), uint8(v&1) * 255}
	case TexL8:
		l := data[i]
		return [4]uint8{l, l, l, 255}
	case TexA8:
		return [4]uint8{0, 0, 0, data[i]}
	case TexLA88:
		l, a := data[2*i], data[2*i+1]
		return [4]uint8{l, l, l, a}
	}
	return [4]uint8{}
}

// CompressedSize returns the byte size of a w x h level of a block-compressed
// format (4x4 blocks of 8 or 16 bytes).
func CompressedSize(f TexFormat, w, h int) int {
	bw, bh := (w+3)/4, (h+3)/4
	switch f {
	case TexETC1, TexDXT1, TexDXT1A:
		return bw * bh * 8
	case TexDXT3, TexDXT5:
		return bw * bh * 16
	}
	return 0
}

// DecodeBlockTexel decodes texel (x, y) of a block-compressed level of width
// w. Blocks run left to right, then bottom to top, as glCompressedTexImage2D
// supplies them; the block formats are decoded by internal/texblock.
func DecodeBlockTexel(f TexFormat, data []byte, w, x, y int) [4]uint8 {
	bw := (w + 3) / 4
	bi := (y/4)*bw + x/4
	px, py := x%4, y%4
	i := py*4 + px
	switch f {
	case TexETC1:
		return texblock.ETC1(binary.BigEndian.Uint64(data[bi*8:]), px, py)
	case TexDXT1, TexDXT1A:
		c := texblock.S3TCColor(data[bi*8:bi*8+8], i, true)
		if f == TexDXT1 {
			c[3] = 255 // opaque DXT1: the fourth colour is black
		}
		return c
	case TexDXT3:
		b := data[bi*16 : bi*16+16]
		c := texblock.S3TCColor(b[8:], i, false)
		c[3] = texblock.DXT3Alpha(b, i)
		return c
	case TexDXT5:
		b := data[bi*16 : bi*16+16]
		c := texblock.S3TCColor(b[8:], i, false)
		c[3] = texblock.DXT5Alpha(b, i)
		return c
	}
	return [4]uint8{}
}
