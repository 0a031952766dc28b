package pica

import (
	"fmt"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	p "github.com/retrogl/retrogl/hal/pica"
)

// texEntry is a texture object's device copy.
type texEntry struct {
	gen    uint64
	alloc  hal.Allocation
	format p.TexFormat
	w, h   int
	levels int
	used   uint64 // the uploader batch whose commands last bound it
	// wrap are the wrap modes the content of a small texture was laid out
	// for (see smallAxis); scale maps GL texture coordinates to the
	// device texture's (1 unless the texture is small).
	wrap  [2]driver.TexWrap
	scale [2]float32
}

// smallAxis lays out one axis of a texture whose GL size n is under the
// PICA's 8-texel minimum (its textures are made of 8x8 tiles). The device
// texture has 8 texels (2^k at level k's share) along it and GL's texture
// coordinate is scaled by n/8, so a texel of level l of the device texture
// covers what a texel of GL's level l covers: the level of detail is GL's.
// The texels beyond GL's n are what GL's wrap mode would read there: the
// image repeated (REPEAT), mirrored (MIRRORED_REPEAT, 8/n is even) or its
// edge texel (CLAMP_TO_EDGE). LINEAR filtering and every mipmap level then
// sample what GL specifies, where replicating each texel (nearest) would
// change the filter's weights.
func smallAxis(x, n int, wrap driver.TexWrap) int {
	switch wrap {
	case driver.WrapClampToEdge:
		return min(x, n-1)
	case driver.WrapMirroredRepeat:
		m := x % (2 * n)
		if m >= n {
			m = 2*n - 1 - m
		}
		return m
	}
	return x % n
}

// texFormatOf maps GL layouts to PICA formats that hold them exactly;
// everything else expands to RGBA8.
var texFormatOf = map[driver.TexFormat]p.TexFormat{
	driver.TexRGBA8888: p.TexRGBA8, driver.TexRGB888: p.TexRGB8, driver.TexRGB565: p.TexRGB565,
	driver.TexRGBA4444: p.TexRGBA4, driver.TexRGBA5551: p.TexRGBA5551, driver.TexL8: p.TexI8,
	driver.TexA8: p.TexA8, driver.TexLA88: p.TexIA8,
}

// tileTexture converts a texture into the PICA's tiled layout: level 0
// followed by every further level down to 1x1 (L1306: "mipmap data is
// stored directly following the main texture data"; levels below 8 texels
// padded to whole tiles, hal/pica LevelBytes). Texel (x, y) of GL
// (row 0 at t = 0) goes to memory row H-1-y. A level 0 smaller than 8
// texels in a dimension is laid out by smallAxis for the wrap modes given,
// and scale is what texture coordinates are multiplied by.
func tileTexture(t *driver.Texture, wrap [2]driver.TexWrap) (data []byte, f p.TexFormat, w, h, levels int, scale [2]float32, err error) {
	lv := &t.Levels[0]
	sw, sh := lv.Width, lv.Height
	if sw > 1024 || sh > 1024 || sw < 1 || sh < 1 {
		return nil, 0, 0, 0, 0, scale, fmt.Errorf("pica200: texture %dx%d outside 1..1024", sw, sh)
	}
	w, h = max(8, sw), max(8, sh)
	if w%8 != 0 || h%8 != 0 {
		return nil, 0, 0, 0, 0, scale, fmt.Errorf("pica200: texture %dx%d is not a multiple of 8 (NPOT textures are not supported)", sw, sh)
	}
	scale = [2]float32{float32(sw) / float32(w), float32(sh) / float32(h)}
	f, direct := texFormatOf[t.Format]
	if !direct {
		f = p.TexRGBA8
	}
	levels = min(len(t.Levels), 16)
	bpp := f.BitsPerTexel() / 8
	srcBpp := t.Format.BytesPerTexel()
	for l := 0; l < levels; l++ {
		lw, lh := p.LevelDim(w, h, l)
		pw := (lw + 7) &^ 7 // levels below 8 texels are padded to a tile
		src := &t.Levels[l]
		out := make([]byte, p.LevelBytes(w, h, l, 8*bpp))
		for y := 0; y < lh; y++ {
			sy := y
			if sh < 8 {
				sy = smallAxis(y, src.Height, wrap[1])
			}
			for x := 0; x < lw; x++ {
				sx := x
				if sw < 8 {
					sx = smallAxis(x, src.Width, wrap[0])
				}
				o := p.TileOffset(x, lh-1-y, pw) * bpp
				d := out[o : o+bpp]
				if direct {
					s := src.Data[(sy*src.Width+sx)*srcBpp:]
					switch f {
					case p.TexRGBA8:
						d[0], d[1], d[2], d[3] = s[3], s[2], s[1], s[0]
					case p.TexRGB8:
						d[0], d[1], d[2] = s[2], s[1], s[0]
					case p.TexIA8:
						d[0], d[1] = s[1], s[0]
					default: // 16-bit formats share GL's layout; I8 and A8 are bytes
						copy(d, s[:bpp])
					}
					continue
				}
				c := t.TexelRGBA8(l, sx, sy)
				d[0], d[1], d[2], d[3] = c[3], c[2], c[1], c[0]
			}
		}
		data = append(data, out...)
	}
	return data, f, w, h, levels, scale, nil
}

// smallWraps returns the wrap modes a texture's device layout depends on:
// those of its axes under 8 texels (REPEAT for the others, so that
// changing them does not re-upload the texture).
func smallWraps(t *driver.Texture) [2]driver.TexWrap {
	w := [2]driver.TexWrap{driver.WrapRepeat, driver.WrapRepeat}
	if t.Levels[0].Width < 8 {
		w[0] = t.Sampler.WrapS
	}
	if t.Levels[0].Height < 8 {
		w[1] = t.Sampler.WrapT
	}
	return w
}

var texRegs = [3]struct{ border, dim, param, lod, addr, typ p.Reg }{
	{p.TEXUNIT0_BORDER, p.TEXUNIT0_DIM, p.TEXUNIT0_PARAM, p.TEXUNIT0_LOD, p.TEXUNIT0_ADDR1, p.TEXUNIT0_TYPE},
	{p.TEXUNIT1_BORDER, p.TEXUNIT1_DIM, p.TEXUNIT1_PARAM, p.TEXUNIT1_LOD, p.TEXUNIT1_ADDR, p.TEXUNIT1_TYPE},
	{p.TEXUNIT2_BORDER, p.TEXUNIT2_DIM, p.TEXUNIT2_PARAM, p.TEXUNIT2_LOD, p.TEXUNIT2_ADDR, p.TEXUNIT2_TYPE},
}

var wrapOf = [...]uint32{driver.WrapRepeat: 2, driver.WrapClampToEdge: 0, driver.WrapMirroredRepeat: 3}

// bindTexture uploads t if needed and emits unit u's registers; proj
// sets unit 0 to the projection type (coordinates divided by texcoord0.w
// per pixel).
func (c *Context) bindTexture(u int, t *driver.Texture, proj bool) error {
	e, ok := c.textures[t.ID]
	wraps := smallWraps(t)
	if !ok || e.gen != t.Gen || e.wrap != wraps {
		data, f, w, h, levels, scale, err := tileTexture(t, wraps)
		if err != nil {
			return err
		}
		if ok {
			if err := c.Finish(); err != nil {
				return err
			}
			if err := c.dev.Free(e.alloc); err != nil {
				return err
			}
		}
		// Textures live in VRAM, or in FCRAM (which the GPU also reads)
		// once VRAM is full.
		var a hal.Allocation
		err = driver.RetryOutOfMemory(func() (err error) {
			if a, err = c.dev.Alloc(uint32(len(data)), 128, "vram"); err != nil {
				a, err = c.dev.Alloc(uint32(len(data)), 128, "fcram")
			}
			return err
		}, c.reclaim)
		if err != nil {
			return fmt.Errorf("pica200: texture %d (%dx%d): %w", t.ID, w, h, err)
		}
		if err := c.dev.Write(a.Addr, data); err != nil {
			return err
		}
		e = &texEntry{gen: t.Gen, alloc: a, format: f, w: w, h: h, levels: levels, wrap: wraps, scale: scale}
		c.textures[t.ID] = e
	}
	e.used = c.up.Batch()
	c.texScale[u] = e.scale
	r := texRegs[u]
	s := t.Sampler
	mag := uint32(s.MagFilter) & 1
	minF, mip := uint32(0), uint32(0)
	switch s.MinFilter {
	case driver.FilterLinear, driver.FilterLinearMipmapNearest, driver.FilterLinearMipmapLinear:
		minF = 1
	}
	if s.MinFilter == driver.FilterNearestMipmapLinear || s.MinFilter == driver.FilterLinearMipmapLinear {
		mip = 1
	}
	maxLevel := uint32(0)
	if s.MinFilter.Mipmapped() {
		maxLevel = uint32(e.levels - 1)
	}
	param := mag<<1 | minF<<2 | wrapOf[s.WrapT]<<8 | wrapOf[s.WrapS]<<12 | mip<<24
	if proj {
		param |= 3 << 28
	}
	c.set(r.dim, uint32(e.h)|uint32(e.w)<<16)
	c.set(r.param, param)
	c.set(r.lod, maxLevel<<16)
	c.set(r.addr, e.alloc.Addr>>3)
	c.set(r.typ, uint32(e.format))
	return nil
}
