package pspge

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/retrogl/retrogl/driver"
	ge "github.com/retrogl/retrogl/hal/pspge"
)

// GE texture formats (TPSM, seed L726-738).
const (
	tpsm5650   = 0
	tpsm5551   = 1
	tpsm4444   = 2
	tpsm8888   = 3
	tpsmCLUT4  = 4
	tpsmCLUT8  = 5
	tpsmCLUT32 = 7
	tpsmDXT1   = 8
	tpsmDXT3   = 9
	tpsmDXT5   = 10
	maxGELevel = 8 // TBP0-7/TSIZE0-7
)

// geTexture is a GL texture converted to the GE's layout, kept on the CPU
// per (ID, Gen); its bytes are copied into each display list that uses it
// (see texCache).
type geTexture struct {
	gen    uint64
	format uint32
	base   driver.BaseFormat
	levels []geLevel
	clut   []byte // CLUT bytes for CLUT4/8
	clutFm uint32 // CMODE format
	// device copy
	serial int
	addrs  []uint32
	clutAt uint32
}

type geLevel struct {
	data         []byte
	log2w, log2h int
	bufw         int
}

// texCache holds converted textures by GL name.
type texCache struct {
	m      map[uint32]*geTexture
	serial int // bumps when a display list ends: device copies must be redone
}

func (tc *texCache) release(id uint32) { delete(tc.m, id) }

// convert returns the GE form of t, converting on first use of each Gen.
//
// Conversions (GL ES layouts to GE layouts, red in the GE's low bits):
//   - RGBA8888 is the GE's 8888 byte for byte; RGB888, L8, A8 and LA88
//     widen to 8888 (alpha-only texels get white RGB so that MODULATE
//     passes the fragment colour through exactly: (c+1)*255/256 = c).
//   - RGB565, RGBA4444 and RGBA5551 repack to 5650, 4444 and 5551.
//   - PALETTE4/8 become CLUT4/8 with the palette converted to a CLUT of the
//     matching 16- or 32-bit format; 4-bit indices swap nibbles (GL puts the
//     first texel in the high nibble, the GE in the low one).
//   - DXT1/3/5 blocks are reordered to the PSP block layout (indices
//     first, then the end points; DXT3/5 alpha after the colour block).
//     The GE decodes them with its own rounding (no bit replication of the
//     565 end points), so texels differ slightly from a PC decoder.
//   - Levels past 7 are dropped: the GE has eight TBP/TSIZE registers, so
//     a 512x512 mipmap chain stops at 4x4.
func (tc *texCache) convert(t *driver.Texture) (*geTexture, error) {
	if tc.m == nil {
		tc.m = map[uint32]*geTexture{}
	}
	if g, ok := tc.m[t.ID]; ok && g.gen == t.Gen {
		return g, nil
	}
	g := &geTexture{gen: t.Gen, base: t.Base(), serial: -1}
	n := min(len(t.Levels), maxGELevel)
	for i := 0; i < n; i++ {
		lv := &t.Levels[i]
		if lv.Width&(lv.Width-1) != 0 || lv.Height&(lv.Height-1) != 0 || lv.Width > 512 || lv.Height > 512 {
			return nil, fmt.Errorf("pspge: texture %d level %d is %dx%d: the GE needs powers of two up to 512", t.ID, i, lv.Width, lv.Height)
		}
		gl := geLevel{log2w: bits.TrailingZeros(uint(lv.Width)), log2h: bits.TrailingZeros(uint(lv.Height))}
		var err error
		gl.data, gl.bufw, err = g.convertLevel(t, lv)
		if err != nil {
			return nil, err
		}
		g.levels = append(g.levels, gl)
	}
	switch t.Format {
	case driver.TexPalette4, driver.TexPalette8:
		g.clut, g.clutFm = convertPalette(t.PaletteFormat, t.Palette)
	}
	tc.m[t.ID] = g
	return g, nil
}

// bufwFor rounds a width up so a row is a multiple of 16 bytes (the GE's
// texture buffer width granularity).
func bufwFor(w, bitsPer int) int {
	per := 128 / bitsPer // texels per 16 bytes
	return (w + per - 1) / per * per
}

func (g *geTexture) convertLevel(t *driver.Texture, lv *driver.Level) ([]byte, int, error) {
	w, h := lv.Width, lv.Height
	switch t.Format {
	case driver.TexRGB565, driver.TexRGBA4444, driver.TexRGBA5551:
		g.format = map[driver.TexFormat]uint32{driver.TexRGB565: tpsm5650, driver.TexRGBA4444: tpsm4444, driver.TexRGBA5551: tpsm5551}[t.Format]
		bw := bufwFor(w, 16)
		out := make([]byte, bw*h*2)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := binary.LittleEndian.Uint16(lv.Data[2*(y*w+x):])
				binary.LittleEndian.PutUint16(out[2*(y*bw+x):], repack16(t.Format, v))
			}
		}
		return out, bw, nil
	case driver.TexPalette4:
		g.format = tpsmCLUT4
		bw := bufwFor(w, 4)
		out := make([]byte, bw*h/2+1)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				i := y*w + x
				b := lv.Data[i/2]
				idx := b >> 4
				if i%2 == 1 {
					idx = b & 15
				}
				o := y*bw + x
				out[o/2] |= idx << (4 * uint(o%2))
			}
		}
		return out, bw, nil
	case driver.TexPalette8:
		g.format = tpsmCLUT8
		bw := bufwFor(w, 8)
		out := make([]byte, bw*h)
		for y := 0; y < h; y++ {
			copy(out[y*bw:], lv.Data[y*w:y*w+w])
		}
		return out, bw, nil
	case driver.TexDXT1, driver.TexDXT1A, driver.TexDXT3, driver.TexDXT5:
		return g.convertDXT(t.Format, lv)
	}
	// Everything else widens to 8888 (ETC1 blocks decoded on the CPU: the
	// GE has no ETC1).
	g.format = tpsm8888
	bw := bufwFor(w, 32)
	out := make([]byte, bw*h*4)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p := t.TexelRGBA8(levelIndex(t, lv), x, y)
			if t.Format == driver.TexA8 {
				p[0], p[1], p[2] = 255, 255, 255
			}
			copy(out[4*(y*bw+x):], p[:])
		}
	}
	return out, bw, nil
}

func levelIndex(t *driver.Texture, lv *driver.Level) int {
	for i := range t.Levels {
		if &t.Levels[i] == lv {
			return i
		}
	}
	return 0
}

// repack16 moves a GL 16-bit texel (red in the high bits) to the GE's
// layout (red in the low bits).
func repack16(f driver.TexFormat, v uint16) uint16 {
	switch f {
	case driver.TexRGB565:
		return v>>11 | v>>5&63<<5 | v&31<<11
	case driver.TexRGBA4444:
		return v>>12 | v>>8&15<<4 | v>>4&15<<8 | v&15<<12
	}
	// RGBA5551: R 15-11, G 10-6, B 5-1, A 0.
	return v>>11 | v>>6&31<<5 | v>>1&31<<10 | v&1<<15
}

// convertPalette turns a GL palette into CLUT bytes and the CMODE format.
func convertPalette(f driver.TexFormat, pal []byte) ([]byte, uint32) {
	n := len(pal) / max(f.BytesPerTexel(), 1)
	switch f {
	case driver.TexRGB565, driver.TexRGBA4444, driver.TexRGBA5551:
		out := make([]byte, 2*n)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint16(out[2*i:], repack16(f, binary.LittleEndian.Uint16(pal[2*i:])))
		}
		return out, map[driver.TexFormat]uint32{driver.TexRGB565: 0, driver.TexRGBA5551: 1, driver.TexRGBA4444: 2}[f]
	}
	out := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		p := driver.DecodeTexel(f, pal, i)
		copy(out[4*i:], p[:])
	}
	return out, 3
}

// convertDXT reorders S3TC blocks to the PSP layout.
func (g *geTexture) convertDXT(f driver.TexFormat, lv *driver.Level) ([]byte, int, error) {
	bs := 8
	switch f {
	case driver.TexDXT1, driver.TexDXT1A:
		g.format = tpsmDXT1
	case driver.TexDXT3:
		g.format, bs = tpsmDXT3, 16
	default:
		g.format, bs = tpsmDXT5, 16
	}
	bw, bh := (lv.Width+3)/4, (lv.Height+3)/4
	// The GE addresses blocks with the buffer width in texels (>>2 per
	// block row); keep it a multiple of 4 and at least 4.
	gbw := max(bw, 1)
	out := make([]byte, gbw*bh*bs)
	for by := 0; by < bh; by++ {
		for bx := 0; bx < bw; bx++ {
			src := lv.Data[(by*bw+bx)*bs:]
			dst := out[(by*gbw+bx)*bs:]
			switch bs {
			case 8:
				psColor(dst, src)
			default:
				psColor(dst, src[8:])
				if g.format == tpsmDXT3 {
					copy(dst[8:16], src[:8])
				} else {
					// S3TC: a0, a1, 48 index bits; PSP: u32 + u16 of index
					// bits, then a0, a1.
					copy(dst[8:14], src[2:8])
					dst[14], dst[15] = src[0], src[1]
				}
			}
		}
	}
	return out, gbw * 4, nil
}

// psColor writes an S3TC colour block (c0, c1, indices) in the PSP order
// (indices, c0, c1).
func psColor(dst, src []byte) {
	copy(dst[0:4], src[4:8])
	copy(dst[4:8], src[0:4])
}

// bind emits the texture registers for t: the level addresses (copied
// into the list's transient memory once per list), sizes, format, CLUT and
// sampler state.
func (c *Context) bindTexture(t *driver.Texture) (*geTexture, error) {
	g, err := c.tex.convert(t)
	if err != nil {
		return nil, err
	}
	if g.serial != c.tex.serial || c.run == nil {
		g.addrs = g.addrs[:0]
		for _, lv := range g.levels {
			a, err := c.upload(lv.data, 16)
			if err != nil {
				return nil, err
			}
			g.addrs = append(g.addrs, a)
		}
		if g.clut != nil {
			a, err := c.upload(g.clut, 64)
			if err != nil {
				return nil, err
			}
			g.clutAt = a
		}
		g.serial = c.tex.serial
		c.list.valid[ge.CLOAD] = false
	}
	l := &c.list
	for i, lv := range g.levels {
		a := g.addrs[i]
		l.set(ge.TBP0+ge.Op(i), a&0xFFFFF0)
		l.set(ge.TBW0+ge.Op(i), uint32(lv.bufw)|(a>>8)&0x0F0000)
		l.set(ge.TSIZE0+ge.Op(i), uint32(lv.log2w)|uint32(lv.log2h)<<8)
	}
	l.set(ge.TPSM, g.format)
	l.set(ge.TMODE, uint32(len(g.levels)-1)<<16)
	if g.clut != nil {
		l.set(ge.CBP, g.clutAt&0xFFFFF0)
		l.set(ge.CBPH, (g.clutAt>>8)&0x0F0000)
		// CLOAD counts 32-byte blocks (guide §2.8 [OUT]).
		blocks := uint32((len(g.clut) + 31) / 32)
		l.set(ge.CLOAD, blocks)
		l.set(ge.CMODE, g.clutFm|0xFF<<8)
	}
	l.set(ge.TFLUSH, 0)
	l.valid[ge.TFLUSH] = false
	return g, nil
}
