package pica

// Memory layout of textures and render targets. The seed says only "Z-order
// curve" (L1304) and "8x8 or 32x32 blocks" (L2128-L2133); the layout below
// is [OUT] citra's texture_decode.cpp / sw_framebuffer.cpp, pinned by the
// guide's fact 16:
//   - images are stored in 8x8 tiles, tiles in row-major order, a tile row
//     holding width*8 pixels;
//   - inside a tile, pixels follow the Morton order x0->bit0, y0->bit1,
//     x1->bit2, y1->bit3, x2->bit4, y2->bit5;
//   - rows are counted from the bottom of the image as the GPU sees it:
//     memory row 0 is the image's last row (texture t = 1, framebuffer
//     window row H-1), so a GL driver flips rows on upload and read-back.

// Morton returns the index of (x, y), both 0-7, inside an 8x8 tile.
func Morton(x, y int) int {
	return x&1 | (y&1)<<1 | (x&2)<<1 | (y&2)<<2 | (x&4)<<2 | (y&4)<<3
}

// TileOffset returns the pixel index (multiply by the pixel size for bytes)
// of (x, row) in a tiled image width pixels wide, where row is the memory
// row (0 = first row in memory).
func TileOffset(x, row, width int) int {
	return (row&^7)*width + (x&^7)*8 + Morton(x&7, row&7)
}

// TexFormat is a texture format code (TEXUNITi_TYPE, L1338-L1355).
type TexFormat uint8

// The texture formats.
const (
	TexRGBA8 TexFormat = iota
	TexRGB8
	TexRGBA5551
	TexRGB565
	TexRGBA4
	TexIA8
	TexHILO8
	TexI8
	TexA8
	TexIA4
	TexI4
	TexA4
	TexETC1
	TexETC1A4
)

// BitsPerTexel returns the texel size in bits (ETC1 4, ETC1A4 8).
func (f TexFormat) BitsPerTexel() int {
	switch f {
	case TexRGBA8:
		return 32
	case TexRGB8:
		return 24
	case TexRGBA5551, TexRGB565, TexRGBA4, TexIA8, TexHILO8:
		return 16
	case TexI8, TexA8, TexIA4, TexETC1A4:
		return 8
	case TexI4, TexA4, TexETC1:
		return 4
	}
	return 0
}

// ColorFormat is a colour-buffer format (COLORBUFFER_FORMAT bits 16-18).
type ColorFormat uint8

// The colour-buffer formats; RGB8 (1) is [OUT] citra.
const (
	ColorRGBA8 ColorFormat = iota
	ColorRGB8
	ColorRGB5A1
	ColorRGB565
	ColorRGBA4
)

// BytesPerPixel returns the pixel size, or 0 for an undefined format.
func (f ColorFormat) BytesPerPixel() int {
	switch f {
	case ColorRGBA8:
		return 4
	case ColorRGB8:
		return 3
	case ColorRGB5A1, ColorRGB565, ColorRGBA4:
		return 2
	}
	return 0
}

// EncodeColor stores an RGBA8 colour in format f at p. Colour components
// are stored "in reverse byte order, MSBs first" (L2089): RGBA8 is the u32
// 0xRRGGBBAA little-endian (bytes A, B, G, R, fact 17); the 16-bit formats
// are u16 with red in the top bits; narrower channels truncate.
func EncodeColor(f ColorFormat, p []byte, c [4]uint8) {
	switch f {
	case ColorRGBA8:
		p[0], p[1], p[2], p[3] = c[3], c[2], c[1], c[0]
	case ColorRGB8:
		p[0], p[1], p[2] = c[2], c[1], c[0]
	case ColorRGB5A1:
		v := uint16(c[0]>>3)<<11 | uint16(c[1]>>3)<<6 | uint16(c[2]>>3)<<1 | uint16(c[3]>>7)
		p[0], p[1] = byte(v), byte(v>>8)
	case ColorRGB565:
		v := uint16(c[0]>>3)<<11 | uint16(c[1]>>2)<<5 | uint16(c[2]>>3)
		p[0], p[1] = byte(v), byte(v>>8)
	case ColorRGBA4:
		v := uint16(c[0]>>4)<<12 | uint16(c[1]>>4)<<8 | uint16(c[2]>>4)<<4 | uint16(c[3]>>4)
		p[0], p[1] = byte(v), byte(v>>8)
	}
}

// Expand5, Expand6 and Expand4 widen a channel to 8 bits by bit
// replication ([OUT] citra color.h).
func Expand5(v uint16) uint8 { return uint8(v<<3 | v>>2) }

// Expand6 widens a 6-bit channel.
func Expand6(v uint16) uint8 { return uint8(v<<2 | v>>4) }

// Expand4 widens a 4-bit channel.
func Expand4(v uint16) uint8 { return uint8(v * 17) }

// DecodeColor reads a colour in format f at p as RGBA8 (formats without
// alpha read 255).
func DecodeColor(f ColorFormat, p []byte) [4]uint8 {
	switch f {
	case ColorRGBA8:
		return [4]uint8{p[3], p[2], p[1], p[0]}
	case ColorRGB8:
		return [4]uint8{p[2], p[1], p[0], 255}
	}
	v := uint16(p[0]) | uint16(p[1])<<8
	switch f {
	case ColorRGB5A1:
		return [4]uint8{Expand5(v >> 11), Expand5(v >> 6 & 31), Expand5(v >> 1 & 31), uint8(v&1) * 255}
	case ColorRGB565:
		return [4]uint8{Expand5(v >> 11), Expand6(v >> 5 & 63), Expand5(v & 31), 255}
	case ColorRGBA4:
		return [4]uint8{Expand4(v >> 12), Expand4(v >> 8 & 15), Expand4(v >> 4 & 15), Expand4(v & 15)}
	}
	return [4]uint8{}
}

// DepthFormat is a depth-buffer format (DEPTHBUFFER_FORMAT).
type DepthFormat uint8

// The depth formats.
const (
	DepthD16   DepthFormat = 0
	DepthD24   DepthFormat = 2
	DepthD24S8 DepthFormat = 3
)

// BytesPerPixel returns the pixel size, or 0 for format 1.
func (f DepthFormat) BytesPerPixel() int {
	switch f {
	case DepthD16:
		return 2
	case DepthD24:
		return 3
	case DepthD24S8:
		return 4
	}
	return 0
}

// Bits returns the depth bits.
func (f DepthFormat) Bits() int {
	if f == DepthD16 {
		return 16
	}
	return 24
}

// LevelDim returns the size of mipmap level l of a w x h texture: each
// dimension halves, down to 1.
func LevelDim(w, h, l int) (int, int) { return max(1, w>>l), max(1, h>>l) }

// LevelBytes returns the storage of mipmap level l: levels follow each
// other (L1306), each in whole 8x8 tiles. The seed does not limit the level
// count; citro3d stops at 8x8 ([OUT] C3Di_TexCalcMaxLevel), but a level
// below 8 texels in a dimension is representable padded to one tile in
// that dimension, and the simulator and driver store it so (a decision:
// GL ES needs levels down to 1x1).
func LevelBytes(w, h, l, bitsPerTexel int) int {
	lw, lh := LevelDim(w, h, l)
	return (lw + 7) &^ 7 * ((lh + 7) &^ 7) * bitsPerTexel / 8
}
