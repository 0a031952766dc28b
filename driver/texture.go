package driver

import "fmt"

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
// supplies them.
func DecodeBlockTexel(f TexFormat, data []byte, w, x, y int) [4]uint8 {
	bw := (w + 3) / 4
	bi := (y/4)*bw + x/4
	px, py := x%4, y%4
	switch f {
	case TexETC1:
		return etc1Texel(data[bi*8:bi*8+8], px, py)
	case TexDXT1, TexDXT1A:
		return dxtColor(data[bi*8:bi*8+8], px, py, f == TexDXT1A, true)
	case TexDXT3:
		b := data[bi*16 : bi*16+16]
		c := dxtColor(b[8:], px, py, false, false)
		nib := b[(py*4+px)/2] >> (4 * uint((py*4+px)%2)) & 15
		c[3] = nib * 17
		return c
	case TexDXT5:
		b := data[bi*16 : bi*16+16]
		c := dxtColor(b[8:], px, py, false, false)
		c[3] = dxt5Alpha(b[:8], py*4+px)
		return c
	}
	return [4]uint8{}
}

// dxtColor decodes an S3TC colour block (c0, c1 little-endian RGB565 with red
// in the high bits, then 2-bit indices, texel 0 in the low bits). fourColour
// chooses DXT1 semantics (c0 <= c1 selects the three-colour mode).
func dxtColor(b []byte, px, py int, punch, dxt1 bool) [4]uint8 {
	c0 := uint16(b[0]) | uint16(b[1])<<8
	c1 := uint16(b[2]) | uint16(b[3])<<8
	bits := uint32(b[4]) | uint32(b[5])<<8 | uint32(b[6])<<16 | uint32(b[7])<<24
	idx := bits >> (2 * uint(py*4+px)) & 3
	rgb := func(c uint16) [3]int {
		return [3]int{int(expand5(c >> 11)), int(expand6(c >> 5 & 63)), int(expand5(c & 31))}
	}
	a, bb := rgb(c0), rgb(c1)
	var out [3]int
	alpha := uint8(255)
	switch {
	case idx == 0:
		out = a
	case idx == 1:
		out = bb
	case c0 > c1 || !dxt1:
		for k := range out {
			if idx == 2 {
				out[k] = (2*a[k] + bb[k]) / 3
			} else {
				out[k] = (a[k] + 2*bb[k]) / 3
			}
		}
	case idx == 2:
		for k := range out {
			out[k] = (a[k] + bb[k]) / 2
		}
	default:
		if punch {
			alpha = 0
		}
	}
	return [4]uint8{uint8(out[0]), uint8(out[1]), uint8(out[2]), alpha}
}

func dxt5Alpha(b []byte, i int) uint8 {
	a0, a1 := int(b[0]), int(b[1])
	var bits uint64
	for k := 0; k < 6; k++ {
		bits |= uint64(b[2+k]) << (8 * uint(k))
	}
	idx := int(bits >> (3 * uint(i)) & 7)
	switch {
	case idx == 0:
		return uint8(a0)
	case idx == 1:
		return uint8(a1)
	case a0 > a1:
		return uint8(((8-idx)*a0 + (idx-1)*a1) / 7)
	case idx == 6:
		return 0
	case idx == 7:
		return 255
	}
	return uint8(((6-idx)*a0 + (idx-1)*a1) / 5)
}

// etc1Modifiers is the ETC1 intensity modifier table
// (OES_compressed_ETC1_RGB8_texture, table 3.17.2).
var etc1Modifiers = [8][4]int{
	{2, 8, -2, -8}, {5, 17, -5, -17}, {9, 29, -9, -29}, {13, 42, -13, -42},
	{18, 60, -18, -60}, {24, 80, -24, -80}, {33, 106, -33, -106}, {47, 183, -47, -183},
}

// etc1Texel decodes texel (px, py) of an ETC1 block. The block is a
// big-endian 64-bit word; pixel indices run down columns (index = px*4+py),
// with py counted from the block's first row.
func etc1Texel(b []byte, px, py int) [4]uint8 {
	var w uint64
	for _, c := range b {
		w = w<<8 | uint64(c)
	}
	hi := uint32(w >> 32)
	diff := hi&2 != 0
	flip := hi&1 != 0
	var sub int
	if flip {
		if py >= 2 {
			sub = 1
		}
	} else if px >= 2 {
		sub = 1
	}
	var base [3]int
	if diff {
		for k := 0; k < 3; k++ {
			c := int(hi >> (27 - 8*uint(k)) & 31)
			if sub == 1 {
				d := int(hi >> (24 - 8*uint(k)) & 7)
				if d >= 4 {
					d -= 8
				}
				c += d
			}
			c &= 31
			base[k] = c<<3 | c>>2
		}
	} else {
		for k := 0; k < 3; k++ {
			c := int(hi >> (28 - 8*uint(k)) & 15)
			if sub == 1 {
				c = int(hi >> (24 - 8*uint(k)) & 15)
			}
			base[k] = c * 17
		}
	}
	table := int(hi >> 5 & 7)
	if sub == 1 {
		table = int(hi >> 2 & 7)
	}
	lo := uint32(w)
	i := uint(px*4 + py)
	msb := lo >> (16 + i) & 1
	lsb := lo >> i & 1
	mod := etc1Modifiers[table][msb<<1|lsb]
	var out [4]uint8
	for k := 0; k < 3; k++ {
		out[k] = uint8(max(0, min(255, base[k]+mod)))
	}
	out[3] = 255
	return out
}
