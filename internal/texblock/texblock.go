// Package texblock decodes the standard compressed texture blocks that
// several layers read: ETC1 (OES_compressed_ETC1_RGB8_texture) and S3TC
// DXT1/3/5 (EXT_texture_compression_s3tc). The driver uses it to expand
// textures for chips without the format; the simulators whose chips decode
// the standard layouts (PICA200's ETC1, R3xx and UniChrome S3TC) use it for
// their texture units. Layouts that differ (the PSP's DXT) keep their own
// decoders. Arithmetic is integer: endpoints widen by bit replication and
// mix in exact thirds, halves, sevenths and fifths, truncated.
package texblock

// etc1Modifiers is the ETC1 intensity modifier table
// (OES_compressed_ETC1_RGB8_texture, table 3.17.2).
var etc1Modifiers = [8][4]int{
	{2, 8, -2, -8}, {5, 17, -5, -17}, {9, 29, -9, -29}, {13, 42, -13, -42},
	{18, 60, -18, -60}, {24, 80, -24, -80}, {33, 106, -33, -106}, {47, 183, -47, -183},
}

// ETC1 decodes pixel (x, y) of an ETC1 block given as its 64-bit word (the
// extension stores it big-endian; a chip may store it otherwise). Pixel
// indices run down columns: index x*4+y. Alpha is 255.
func ETC1(w uint64, x, y int) [4]uint8 {
	hi := uint32(w >> 32)
	diff, flip := hi&2 != 0, hi&1 != 0
	sub := 0
	if (flip && y >= 2) || (!flip && x >= 2) {
		sub = 1
	}
	var base [3]int
	for k := 0; k < 3; k++ {
		if diff {
			c := int(hi >> (27 - 8*uint(k)) & 31)
			if sub == 1 {
				d := int(hi >> (24 - 8*uint(k)) & 7)
				if d >= 4 {
					d -= 8
				}
				c = (c + d) & 31
			}
			base[k] = c<<3 | c>>2
		} else {
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
	i := uint(x*4 + y)
	mod := etc1Modifiers[table][(lo>>(16+i)&1)<<1|lo>>i&1]
	var out [4]uint8
	for k := 0; k < 3; k++ {
		out[k] = uint8(max(0, min(255, base[k]+mod)))
	}
	out[3] = 255
	return out
}

// S3TCColor decodes texel i (y*4+x) of an S3TC colour block (c0, c1 as
// little-endian RGB565 with red in the high bits, then 2-bit indices with
// texel 0 in the low bits). With dxt1 set, c0 <= c1 selects three colours
// and transparent black for index 3 (alpha 0); otherwise alpha is 255.
func S3TCColor(b []byte, i int, dxt1 bool) [4]uint8 {
	c0 := uint32(b[0]) | uint32(b[1])<<8
	c1 := uint32(b[2]) | uint32(b[3])<<8
	idx := (uint32(b[4]) | uint32(b[5])<<8 | uint32(b[6])<<16 | uint32(b[7])<<24) >> (2 * uint(i)) & 3
	ex := func(c uint32) [3]uint32 {
		r, g, bl := c>>11&31, c>>5&63, c&31
		return [3]uint32{r<<3 | r>>2, g<<2 | g>>4, bl<<3 | bl>>2}
	}
	a, bb := ex(c0), ex(c1)
	out := [4]uint8{0, 0, 0, 255}
	for k := 0; k < 3; k++ {
		var v uint32
		switch {
		case idx == 0:
			v = a[k]
		case idx == 1:
			v = bb[k]
		case c0 > c1 || !dxt1:
			if idx == 2 {
				v = (2*a[k] + bb[k]) / 3
			} else {
				v = (a[k] + 2*bb[k]) / 3
			}
		case idx == 2:
			v = (a[k] + bb[k]) / 2
		default:
			out[3] = 0
		}
		out[k] = uint8(v)
	}
	return out
}

// DXT3Alpha returns the explicit 4-bit alpha of texel i of a DXT3 alpha
// block, widened to 8 bits.
func DXT3Alpha(b []byte, i int) uint8 { return b[i/2] >> (4 * uint(i%2)) & 15 * 17 }

// DXT5Alpha returns the interpolated alpha of texel i of a DXT5 alpha block
// (a0, a1, then 3-bit indices): eight values when a0 > a1, else six plus
// 0 and 255.
func DXT5Alpha(b []byte, i int) uint8 {
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
