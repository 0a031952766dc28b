package r300

import r3 "github.com/retrogl/retrogl/hal/r300"

// dxtTexel decodes texel (px, py) of an S3TC block ([OUT] DXT codes 15-17,
// standard S3TC; guide §4): colours are RGB565 expanded by bit
// replication and mixed with integer thirds (or halves), DXT1 with c0 <= c1
// has three colours and transparent black. Components come out R, G, B, A.
func dxtTexel(code uint8, b []byte, px, py int) [4]float32 {
	i := py*4 + px
	var rgba [4]uint32
	switch code {
	case r3.TxFmtDXT1:
		rgba = dxtColor(b[:8], i, true)
	case r3.TxFmtDXT3:
		rgba = dxtColor(b[8:16], i, false)
		rgba[3] = uint32(b[i/2]>>(4*uint(i%2))&15) * 17
	case r3.TxFmtDXT5:
		rgba = dxtColor(b[8:16], i, false)
		rgba[3] = dxt5Alpha(b[:8], i)
	}
	return [4]float32{float32(rgba[0]) / 255, float32(rgba[1]) / 255, float32(rgba[2]) / 255, float32(rgba[3]) / 255}
}

func dxtColor(b []byte, i int, dxt1 bool) [4]uint32 {
	c0 := uint32(b[0]) | uint32(b[1])<<8
	c1 := uint32(b[2]) | uint32(b[3])<<8
	idx := (uint32(b[4]) | uint32(b[5])<<8 | uint32(b[6])<<16 | uint32(b[7])<<24) >> (2 * uint(i)) & 3
	ex := func(c uint32) [3]uint32 {
		r, g, bl := c>>11&31, c>>5&63, c&31
		return [3]uint32{r<<3 | r>>2, g<<2 | g>>4, bl<<3 | bl>>2}
	}
	a, bb := ex(c0), ex(c1)
	var out [4]uint32
	out[3] = 255
	switch {
	case idx == 0:
		copy(out[:3], a[:])
	case idx == 1:
		copy(out[:3], bb[:])
	case c0 > c1 || !dxt1:
		for k := 0; k < 3; k++ {
			if idx == 2 {
				out[k] = (2*a[k] + bb[k]) / 3
			} else {
				out[k] = (a[k] + 2*bb[k]) / 3
			}
		}
	case idx == 2:
		for k := 0; k < 3; k++ {
			out[k] = (a[k] + bb[k]) / 2
		}
	default:
		out = [4]uint32{}
	}
	return out
}

func dxt5Alpha(b []byte, i int) uint32 {
	a0, a1 := uint32(b[0]), uint32(b[1])
	var bits uint64
	for k := 0; k < 6; k++ {
		bits |= uint64(b[2+k]) << (8 * uint(k))
	}
	idx := uint32(bits >> (3 * uint(i)) & 7)
	switch {
	case idx == 0:
		return a0
	case idx == 1:
		return a1
	case a0 > a1:
		return ((8-idx)*a0 + (idx-1)*a1) / 7
	case idx == 6:
		return 0
	case idx == 7:
		return 255
	}
	return ((6-idx)*a0 + (idx-1)*a1) / 5
}
