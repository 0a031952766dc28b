package r300

import (
	"encoding/binary"
	"fmt"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// texFormat is how a GL texture format is stored on the chip: the TXFORMAT
// code, the TX_FORMAT1 channel selects, and a converter when the layout
// differs (emulated formats expand to 8_8_8_8 or repack).
type texFormat struct {
	code    uint8
	format1 uint32 // TX_FORMAT1 without TXFORMAT
	// convert returns level data in the chip's layout (tightly packed
	// rows; the uploader pads them), nil when the GL layout is used as is.
	convert func(t *driver.Texture, l int) []byte
}

// sel builds TX_FORMAT1's SEL_RED/GREEN/BLUE/ALPHA (L1396-1419): 0-3
// components, 4 zero, 5 one.
func sel(r, g, b, a uint32) uint32 { return a<<9 | r<<12 | g<<15 | b<<18 }

const (
	c0, c1, c2, c3, selZero, selOne = 0, 1, 2, 3, 4, 5
)

// expand8888 converts any format to RGBA8888 through the shared decoders.
func expand8888(t *driver.Texture, l int) []byte {
	lv := &t.Levels[l]
	out := make([]byte, 4*lv.Width*lv.Height)
	for y := 0; y < lv.Height; y++ {
		for x := 0; x < lv.Width; x++ {
			p := t.TexelRGBA8(l, x, y)
			copy(out[4*(y*lv.Width+x):], p[:])
		}
	}
	return out
}

// texFormats maps GL formats to the chip (guide §5: RGBA8, LA8, L8, A8,
// 565 and 4444 native; RGB888, 5551, paletted and ETC1 emulated).
var texFormats = map[driver.TexFormat]texFormat{
	driver.TexRGBA8888: {r3.TxFmt8_8_8_8, sel(c0, c1, c2, c3), nil},
	driver.TexRGB565:   {r3.TxFmt5_6_5, sel(c2, c1, c0, selOne), nil},
	driver.TexRGBA4444: {r3.TxFmt4_4_4_4, sel(c3, c2, c1, c0), nil},
	driver.TexL8:       {r3.TxFmt8, sel(c0, c0, c0, selOne), nil},
	driver.TexA8:       {r3.TxFmt8, sel(selZero, selZero, selZero, c0), nil},
	driver.TexLA88:     {r3.TxFmt8_8, sel(c0, c0, c0, c1), nil},
	driver.TexDXT1:     {r3.TxFmtDXT1, sel(c0, c1, c2, selOne), nil},
	driver.TexDXT1A:    {r3.TxFmtDXT1, sel(c0, c1, c2, c3), nil},
	driver.TexDXT3:     {r3.TxFmtDXT3, sel(c0, c1, c2, c3), nil},
	driver.TexDXT5:     {r3.TxFmtDXT5, sel(c0, c1, c2, c3), nil},
	driver.TexRGB888:   {r3.TxFmt8_8_8_8, sel(c0, c1, c2, selOne), expand8888},
	driver.TexPalette4: {r3.TxFmt8_8_8_8, sel(c0, c1, c2, c3), expand8888},
	driver.TexPalette8: {r3.TxFmt8_8_8_8, sel(c0, c1, c2, c3), expand8888},
	driver.TexETC1:     {r3.TxFmt8_8_8_8, sel(c0, c1, c2, selOne), expand8888},
	// GL's 5551 keeps alpha in bit 0, TX_FMT_1_5_5_5 in bit 15 (L1382):
	// rotate right by one.
	driver.TexRGBA5551: {r3.TxFmt1_5_5_5, sel(c2, c1, c0, c3), func(t *driver.Texture, l int) []byte {
		src := t.Levels[l].Data
		out := make([]byte, len(src))
		for i := 0; i+1 < len(src); i += 2 {
			v := binary.LittleEndian.Uint16(src[i:])
			binary.LittleEndian.PutUint16(out[i:], v>>1|v<<15)
		}
		return out
	}},
}

// devTexture is a texture object's copy in VRAM.
type devTexture struct {
	gen    uint64
	mem    hal.Allocation
	levels int
	fmt    texFormat
	w, h   int
	// format is the GL format; rt is set once the texture has been a
	// colour attachment: it is then kept in its render layout (fbo.go),
	// also when it is specified again.
	format driver.TexFormat
	rt     bool
}

// texture returns the device copy of t, uploading it when it changed.
func (c *Context) texture(t *driver.Texture) (*devTexture, error) {
	return c.textureAs(t, false)
}

// textureAs is texture; rt asks a new upload for the render layout.
func (c *Context) textureAs(t *driver.Texture, rt bool) (*devTexture, error) {
	if d, ok := c.textures[t.ID]; ok && d.gen == t.Gen {
		return d, nil
	}
	f, ok := texFormats[t.Format]
	if !ok {
		return nil, fmt.Errorf("r300: texture format %v not supported", t.Format)
	}
	if old, ok := c.textures[t.ID]; ok && old.rt {
		rt = true
	}
	if rf, ok := rtFormats[t.Format]; ok && rt {
		f = rf.tex
	} else {
		rt = false
	}
	info := &r3.TexFormats[f.code]
	w, h := t.Levels[0].Width, t.Levels[0].Height
	if w > 2048 || h > 2048 {
		return nil, fmt.Errorf("r300: texture %dx%d exceeds 2048 (L1368)", w, h)
	}
	n := len(t.Levels)
	layout := r3.TexLayout(info, w, h, n, 0)
	last := layout[n-1]
	size := last.Offset + last.Size
	if old, ok := c.textures[t.ID]; ok {
		// The old copy may still be read by queued work.
		if err := c.Finish(); err != nil {
			return nil, err
		}
		_ = c.dev.Free(old.mem)
		delete(c.textures, t.ID)
	}
	mem, err := c.dev.Alloc(size, 2048, "vram")
	if err != nil {
		return nil, fmt.Errorf("r300: texture %d (%d bytes): %w", t.ID, size, err)
	}
	img := make([]byte, size)
	for l := 0; l < n; l++ {
		data := t.Levels[l].Data
		if f.convert != nil {
			data = f.convert(t, l)
		}
		lv := layout[l]
		var row, rows int
		if info.BlockBytes > 0 {
			row, rows = (lv.Width+3)/4*info.BlockBytes, (lv.Height+3)/4
		} else {
			row, rows = lv.Width*info.Bits/8, lv.Height
		}
		for y := 0; y < rows && (y+1)*row <= len(data); y++ {
			copy(img[lv.Offset+uint32(y)*lv.Pitch:], data[y*row:(y+1)*row])
		}
	}
	if err := c.dev.Write(mem.Addr, img); err != nil {
		return nil, err
	}
	d := &devTexture{gen: t.Gen, mem: mem, levels: n, fmt: f, w: w, h: h, format: t.Format, rt: rt}
	c.textures[t.ID] = d
	c.texDirty = true
	return d, nil
}

// ReleaseTexture implements driver.Context.
func (c *Context) ReleaseTexture(id uint32) {
	d, ok := c.textures[id]
	if !ok {
		return
	}
	_ = c.Finish()
	_ = c.dev.Free(d.mem)
	delete(c.textures, id)
	if c.tgt.texID == id {
		c.tgt = target{}
	}
}

var wrapOf = map[driver.TexWrap]uint32{driver.WrapRepeat: 0, driver.WrapClampToEdge: 2, driver.WrapMirroredRepeat: 1}

// texRegs returns TX_FILTER0/1, TX_FORMAT0/1/2 and TX_OFFSET for a unit.
func texRegs(d *devTexture, s driver.Sampler) [6]uint32 {
	filter := func(f driver.TexFilter) uint32 {
		if f == driver.FilterLinear || f == driver.FilterLinearMipmapNearest || f == driver.FilterLinearMipmapLinear {
			return 2
		}
		return 1
	}
	mip := uint32(0)
	switch s.MinFilter {
	case driver.FilterNearestMipmapNearest, driver.FilterLinearMipmapNearest:
		mip = 1
	case driver.FilterNearestMipmapLinear, driver.FilterLinearMipmapLinear:
		mip = 2
	}
	levels := d.levels
	if mip == 0 {
		levels = 1
	}
	f0 := r3.Fields(r3.TX_FILTER0_0, "CLAMP_S", wrapOf[s.WrapS], "CLAMP_T", wrapOf[s.WrapT],
		"MAG_FILTER", filter(s.MagFilter), "MIN_FILTER", filter(s.MinFilter), "MIP_FILTER", mip)
	fm0 := r3.Fields(r3.TX_FORMAT0_0, "TXWIDTH", d.w-1, "TXHEIGHT", d.h-1, "NUM_LEVELS", levels-1)
	fm1 := uint32(d.fmt.code) | d.fmt.format1
	return [6]uint32{f0, 0, fm0, fm1, 0, d.mem.Addr}
}
