package glamo

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	hg "github.com/retrogl/retrogl/hal/glamo"
)

// texObj is a texture's copy in VRAM in the chip's layout: levels one
// after another, rows of t = 0 first (the chip's v = 0 row is at the base,
// and GL uploads rows bottom to top, so rows copy straight), each level
// with its own base and pitch (21B8h+4i, 21E8h+, L3280-3378).
type texObj struct {
	id     uint32
	gen    uint64
	alloc  hal.Allocation
	code   string // EGTXnFM name
	w, h   int
	bases  []uint32
	pitch  []uint32 // encoded 12-bit pitch fields
	pal    []uint16
	base   driver.BaseFormat
	levels int
	used   uint64 // the uploader batch whose commands last bound it
}

// encodePitch returns the smallest pitch >= rb bytes that the 12-bit field
// can hold (mantissa D[7:0] x 2^D[11:8], L3337-3342), encoded and in bytes.
func encodePitch(rb int) (uint32, int) {
	for e := 0; e < 16; e++ {
		m := (rb + 1<<e - 1) >> e
		if m <= 255 {
			return uint32(e)<<8 | uint32(m), m << e
		}
	}
	return 0xFFF, 255 << 15
}

func to4(v uint8) uint16 { return uint16((int(v)*15 + 127) / 255) }
func to5(v uint8) uint16 { return uint16((int(v)*31 + 127) / 255) }
func to6(v uint8) uint16 { return uint16((int(v)*63 + 127) / 255) }

func pack565(p [4]uint8) uint16 { return to5(p[0])<<11 | to6(p[1])<<5 | to5(p[2]) }
func pack4444(p [4]uint8) uint16 {
	return to4(p[0])<<12 | to4(p[1])<<8 | to4(p[2])<<4 | to4(p[3])
}

// chipFormat picks the EGTXnFM code of a GL texture (L3151-3174) and the
// bits per texel of its level data.
func chipFormat(t *driver.Texture) (code string, bpp int, err error) {
	switch t.Format {
	case driver.TexRGB565, driver.TexRGB888, driver.TexETC1, driver.TexDXT1:
		return "RGB565", 16, nil
	case driver.TexRGBA4444, driver.TexRGBA8888, driver.TexDXT1A, driver.TexDXT3, driver.TexDXT5:
		return "RGBA4444", 16, nil
	case driver.TexRGBA5551:
		return "RGBA5551", 16, nil
	case driver.TexL8:
		return "L8", 8, nil
	case driver.TexA8:
		return "A8", 8, nil
	case driver.TexLA88:
		return "AL88", 16, nil
	case driver.TexPalette4, driver.TexPalette8:
		ix, bpp := "I4", 4
		if t.Format == driver.TexPalette8 {
			ix, bpp = "I8", 8
		}
		switch t.PaletteFormat {
		case driver.TexRGB565, driver.TexRGB888:
			return ix + "_RGB565", bpp, nil
		case driver.TexRGBA4444, driver.TexRGBA8888:
			return ix + "_RGBA4444", bpp, nil
		case driver.TexRGBA5551:
			return ix + "_RGBA5551", bpp, nil
		}
	}
	return "", 0, fmt.Errorf("glamo3365: texture format %v not supported", t.Format)
}

// convertLevel returns level l's texels in the chip format, rows of pitch
// bytes.
func convertLevel(t *driver.Texture, l int, bpp, pitch int) []byte {
	lv := &t.Levels[l]
	out := make([]byte, pitch*lv.Height)
	for y := 0; y < lv.Height; y++ {
		row := out[y*pitch:]
		for x := 0; x < lv.Width; x++ {
			i := y*lv.Width + x
			switch t.Format {
			case driver.TexRGB565, driver.TexRGBA4444, driver.TexRGBA5551, driver.TexLA88:
				// Same bit layout as the chip's RGB565, RGBA4444, RGBA5551
				// and AL88 (A in the high byte).
				copy(row[2*x:], lv.Data[2*i:2*i+2])
			case driver.TexL8, driver.TexA8, driver.TexPalette8:
				row[x] = lv.Data[i]
			case driver.TexPalette4:
				// Texel 0 in the high nibble, GL's order and the chip's (P14).
				nib := lv.Data[i/2] >> 4
				if i%2 == 1 {
					nib = lv.Data[i/2] & 15
				}
				if x%2 == 0 {
					row[x/2] = nib << 4
				} else {
					row[x/2] |= nib
				}
			default:
				p := t.TexelRGBA8(l, x, y)
				v := pack4444(p)
				if bpp == 16 && (t.Format == driver.TexRGB888 || t.Format == driver.TexETC1 || t.Format == driver.TexDXT1) {
					v = pack565(p)
				}
				binary.LittleEndian.PutUint16(row[2*x:], v)
			}
		}
	}
	return out
}

// palette16 converts a GL palette to chip entries (RGB565 or RGBA4444 or
// RGBA5551, red in the high bits as the chip's BGR-ordered codes E1-E3 and
// 01 expect).
func palette16(t *driver.Texture) []uint16 {
	n := 16
	if t.Format == driver.TexPalette8 {
		n = 256
	}
	out := make([]uint16, n)
	for k := 0; k < n; k++ {
		switch t.PaletteFormat {
		case driver.TexRGB565, driver.TexRGBA4444, driver.TexRGBA5551:
			if 2*k+2 <= len(t.Palette) {
				out[k] = binary.LittleEndian.Uint16(t.Palette[2*k:])
			}
		case driver.TexRGB888:
			if 3*k+3 <= len(t.Palette) {
				out[k] = pack565([4]uint8{t.Palette[3*k], t.Palette[3*k+1], t.Palette[3*k+2], 255})
			}
		case driver.TexRGBA8888:
			if 4*k+4 <= len(t.Palette) {
				p := t.Palette[4*k:]
				out[k] = pack4444([4]uint8{p[0], p[1], p[2], p[3]})
			}
		}
	}
	return out
}

// texture returns the VRAM copy of t, uploading it when new or changed.
func (c *Context) texture(t *driver.Texture) (*texObj, error) {
	if o, ok := c.tex[t.ID]; ok && o.gen == t.Gen && o.levels == len(t.Levels) {
		o.used = c.up.Batch()
		return o, nil
	}
	code, bpp, err := chipFormat(t)
	if err != nil {
		return nil, err
	}
	if o, ok := c.tex[t.ID]; ok {
		// The old copy may still be read by queued work.
		if err := c.Finish(); err != nil {
			return nil, err
		}
		if err := c.dev.Free(o.alloc); err != nil {
			return nil, err
		}
		delete(c.tex, t.ID)
	}
	o := &texObj{id: t.ID, gen: t.Gen, code: code, w: t.Levels[0].Width, h: t.Levels[0].Height,
		base: t.Base(), levels: len(t.Levels)}
	if o.w > 256 || o.h > 256 {
		return nil, fmt.Errorf("glamo3365: texture %dx%d exceeds 256x256 (L29)", o.w, o.h)
	}
	levels := min(len(t.Levels), 9)
	var img []byte
	for l := 0; l < levels; l++ {
		lv := &t.Levels[l]
		enc, pitch := encodePitch((lv.Width*bpp + 7) / 8)
		for len(img)%8 != 0 {
			img = append(img, 0)
		}
		o.bases = append(o.bases, uint32(len(img)))
		o.pitch = append(o.pitch, enc)
		img = append(img, convertLevel(t, l, bpp, pitch)...)
	}
	if t.Format == driver.TexPalette4 || t.Format == driver.TexPalette8 {
		o.pal = palette16(t)
	}
	err = driver.RetryOutOfMemory(func() (err error) {
		o.alloc, err = c.dev.Alloc(uint32(len(img)), 64, "vram")
		return err
	}, c.reclaim)
	if err != nil {
		return nil, fmt.Errorf("glamo3365: texture %d: %w", t.ID, err)
	}
	for i := range o.bases {
		o.bases[i] += o.alloc.Addr
	}
	if err := c.dev.Write(o.alloc.Addr, img); err != nil {
		return nil, err
	}
	o.used = c.up.Batch()
	c.tex[t.ID] = o
	return o, nil
}

// aaTexture returns the coverage texture of smooth points and lines: a
// 32x32 A8 disc whose edge falls off over one texel (alpha 1 inside
// radius 15.5, 0 outside 16.5), sampled bilinearly with clamped edges.
func (c *Context) aaTexture() (*texObj, error) {
	if c.aaTex != nil {
		return c.aaTex, nil
	}
	img := make([]byte, 32*32)
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			d := math.Hypot(float64(x)+0.5-16, float64(y)+0.5-16)
			img[y*32+x] = uint8(math.Round(255 * math.Max(0, math.Min(1, 16.5-d))))
		}
	}
	a, err := c.dev.Alloc(uint32(len(img)), 64, "vram")
	if err != nil {
		return nil, fmt.Errorf("glamo3365: AA texture: %w", err)
	}
	if err := c.dev.Write(a.Addr, img); err != nil {
		return nil, err
	}
	enc, _ := encodePitch(32)
	c.aaTex = &texObj{alloc: a, code: "A8", w: 32, h: 32, bases: []uint32{a.Addr}, pitch: []uint32{enc}, levels: 1}
	return c.aaTex, nil
}

var minCode = [...]string{
	driver.FilterNearest: "NEAREST", driver.FilterLinear: "LINEAR",
	driver.FilterNearestMipmapNearest: "NEAREST_MIP_NEAREST", driver.FilterLinearMipmapNearest: "LINEAR_MIP_NEAREST",
	driver.FilterNearestMipmapLinear: "NEAREST_MIP_LINEAR", driver.FilterLinearMipmapLinear: "LINEAR_MIP_LINEAR",
}

var wrapCode = [...]string{driver.WrapRepeat: "WRAP", driver.WrapClampToEdge: "CLAMP", driver.WrapMirroredRepeat: "MIRROR"}

// bindUnit emits chip texture unit u's registers for o with sampler s.
// It returns the OpenGL-rule flag bit of 2104h (D0/D1): GL magnifies up to
// lod 0.5 when mag is LINEAR and min is NEAREST_MIPMAP_* (GL ES 1.1
// §3.7.8), which the flag selects (L2565).
func (c *Context) bindUnit(u int, o *texObj, s driver.Sampler, stages uint32) uint32 {
	m := &c.em
	p := fmt.Sprintf("EGTX%d", u)
	lv := o.levels - 1
	if !s.MinFilter.Mipmapped() {
		lv = 0
	}
	cfg := hg.Pack(p+"Cfg", "FMT", o.code, "UMAP", wrapCode[s.WrapS], "VMAP", wrapCode[s.WrapT], "LV", lv)
	if u == 0 {
		cfg |= stages
	}
	m.set(p+"Cfg", cfg)
	mag := "NEAREST"
	if s.MagFilter == driver.FilterLinear {
		mag = "LINEAR"
	}
	m.set(p+"Filter", hg.Pack(p+"Filter", "MAG", mag, "MIN", minCode[s.MinFilter]))
	size := hg.Pack(p+"Size", "W", o.w, "H", o.h)
	m.set(p+"Size", size)
	b := hg.TexUnitBase(u)
	for i := 0; i <= lv; i++ {
		m.setR(hg.ByName(fmt.Sprintf("%sL%dBAS", p, i)), o.bases[i])
	}
	var pitches [5]uint32
	for i := 0; i <= lv; i++ {
		pitches[i/2] |= o.pitch[i] << (16 * uint(i%2))
	}
	for k := 0; k <= lv/2; k++ {
		m.setR(hg.ByName(fmt.Sprintf("%sPitch%d", p, k)), pitches[k])
	}
	_ = b
	if o.pal != nil {
		base := uint16(hg.Palette0)
		if u == 1 {
			base = hg.Palette1
		}
		m.setBlock16(base, o.pal)
	}
	if s.MagFilter == driver.FilterLinear && (s.MinFilter == driver.FilterNearestMipmapNearest || s.MinFilter == driver.FilterNearestMipmapLinear) {
		return 1 << uint(u)
	}
	return 0
}
