package r300

import (
	r3 "github.com/retrogl/retrogl/hal/r300"
	"github.com/retrogl/retrogl/internal/texblock"
)

// dxtTexel decodes texel (px, py) of an S3TC block ([OUT] DXT codes 15-17,
// standard S3TC; guide §4): colours are RGB565 expanded by bit
// replication and mixed with integer thirds (or halves), DXT1 with c0 <= c1
// has three colours and transparent black. Components come out R, G, B, A.
func dxtTexel(code uint8, b []byte, px, py int) [4]float32 {
	i := py*4 + px
	var rgba [4]uint8
	switch code {
	case r3.TxFmtDXT1:
		rgba = texblock.S3TCColor(b[:8], i, true)
	case r3.TxFmtDXT3:
		rgba = texblock.S3TCColor(b[8:16], i, false)
		rgba[3] = texblock.DXT3Alpha(b, i)
	case r3.TxFmtDXT5:
		rgba = texblock.S3TCColor(b[8:16], i, false)
		rgba[3] = texblock.DXT5Alpha(b, i)
	}
	return [4]float32{float32(rgba[0]) / 255, float32(rgba[1]) / 255, float32(rgba[2]) / 255, float32(rgba[3]) / 255}
}
