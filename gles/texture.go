package gles

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/internal/checked"
)

type textureObject struct {
	id uint32
	// key is what the driver knows the texture's storage by (see
	// Context.newKey); charged is the budget its data takes.
	key            uint32
	charged        int64
	format         driver.TexFormat
	palette        []byte
	paletteFormat  driver.TexFormat
	levels         []driver.Level // index = level; zero Width = undefined
	sampler        driver.Sampler
	generateMipmap bool
	crop           [4]int
	gen            uint64
	snap           driver.Texture
	snapGen        uint64
	complete       bool
	// rendered is set when the backend rendered into level 0 (a
	// framebuffer attachment): its device copy is newer than levels.
	rendered bool
}

func newTextureObject(id, key uint32) *textureObject {
	return &textureObject{id: id, key: key, gen: 1, sampler: driver.Sampler{
		MinFilter: driver.FilterNearestMipmapLinear, MagFilter: driver.FilterLinear,
		WrapS: driver.WrapRepeat, WrapT: driver.WrapRepeat,
	}}
}

// maxLevel returns the largest mipmap level index the backend allows.
func (c *Context) maxLevel() int { return bits.Len(uint(c.caps.Limits.MaxTextureSize)) - 1 }

// ActiveTexture selects the server-side texture unit.
func (c *Context) ActiveTexture(texture Enum) {
	if !c.alive("ActiveTexture") {
		return
	}
	u := int(texture) - int(TEXTURE0)
	if u < 0 || u >= c.caps.Limits.MaxTextureUnits {
		c.record("ActiveTexture", INVALID_ENUM, "texture %#x (units: %d)", texture, c.caps.Limits.MaxTextureUnits)
		return
	}
	c.activeTex = u
}

// GenTextures returns n new texture names.
func (c *Context) GenTextures(n int) []uint32 {
	if !c.alive("GenTextures") {
		return nil
	}
	return genNames(c, "GenTextures", c.textures, &c.nextTexture, n)
}

// DeleteTextures deletes texture objects; units bound to them revert to the
// default texture.
func (c *Context) DeleteTextures(textures ...uint32) {
	if !c.alive("DeleteTextures") {
		return
	}
	for _, id := range textures {
		if id == 0 {
			continue
		}
		t, ok := c.textures[id]
		if !ok {
			continue
		}
		for u := range c.boundTex {
			if c.boundTex[u] == id {
				c.boundTex[u] = 0
			}
		}
		delete(c.textures, id)
		c.charge(-objectCost)
		if t != nil {
			c.detachDeleted(attachment{tex: t})
		}
	}
}

// IsTexture reports whether id names a texture object.
func (c *Context) IsTexture(id uint32) bool {
	if !c.alive("IsTexture") {
		return false
	}
	t, ok := c.textures[id]
	return ok && t != nil
}

// BindTexture binds a texture object to TEXTURE_2D of the active unit,
// creating it on first bind.
func (c *Context) BindTexture(target Enum, id uint32) {
	if !c.alive("BindTexture") {
		return
	}
	if target != TEXTURE_2D {
		c.record("BindTexture", INVALID_ENUM, "target %#x", target)
		return
	}
	if t, reserved := c.textures[id]; id != 0 && t == nil {
		if !reserved {
			if !c.fits("BindTexture", objectCost, "a new texture object") {
				return
			}
			c.charge(objectCost)
		}
		c.textures[id] = newTextureObject(id, c.newKey(id))
	}
	c.boundTex[c.activeTex] = id
}

func (c *Context) boundTexture() *textureObject {
	id := c.boundTex[c.activeTex]
	if id == 0 {
		return c.defaultTex
	}
	return c.textures[id]
}

// texFormat maps an uncompressed (format, type) pair to the level layout.
func texFormat(format, typ Enum) (driver.TexFormat, bool) {
	switch {
	case format == RGBA && typ == UNSIGNED_BYTE:
		return driver.TexRGBA8888, true
	case format == RGB && typ == UNSIGNED_BYTE:
		return driver.TexRGB888, true
	case format == RGB && typ == UNSIGNED_SHORT_5_6_5:
		return driver.TexRGB565, true
	case format == RGBA && typ == UNSIGNED_SHORT_4_4_4_4:
		return driver.TexRGBA4444, true
	case format == RGBA && typ == UNSIGNED_SHORT_5_5_5_1:
		return driver.TexRGBA5551, true
	case format == LUMINANCE && typ == UNSIGNED_BYTE:
		return driver.TexL8, true
	case format == ALPHA && typ == UNSIGNED_BYTE:
		return driver.TexA8, true
	case format == LUMINANCE_ALPHA && typ == UNSIGNED_BYTE:
		return driver.TexLA88, true
	}
	return 0, false
}

func validFormat(f Enum) bool {
	return f == ALPHA || f == RGB || f == RGBA || f == LUMINANCE || f == LUMINANCE_ALPHA
}

func validType(t Enum) bool {
	return t == UNSIGNED_BYTE || t == UNSIGNED_SHORT_5_6_5 || t == UNSIGNED_SHORT_4_4_4_4 || t == UNSIGNED_SHORT_5_5_5_1
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

// checkSize validates level and size for a texture image.
func (c *Context) checkSize(fn string, level, w, h, border int) bool {
	maxSize := c.caps.Limits.MaxTextureSize
	switch {
	case level < 0 || level > c.maxLevel():
		c.record(fn, INVALID_VALUE, "level %d outside 0..%d", level, c.maxLevel())
	case w < 0 || h < 0 || w > maxSize>>level || h > maxSize>>level:
		c.record(fn, INVALID_VALUE, "size %dx%d outside 0..%d at level %d", w, h, maxSize>>level, level)
	case !c.api2 && ((w != 0 && !isPow2(w)) || (h != 0 && !isPow2(h))):
		c.record(fn, INVALID_VALUE, "size %dx%d is not a power of two", w, h)
	case border != 0:
		c.record(fn, INVALID_VALUE, "border %d must be 0", border)
	default:
		return true
	}
	return false
}

// unpack copies w x h texels of bpp bytes from src rows padded to the unpack
// alignment into a tight buffer.
func (c *Context) unpack(fn string, src []byte, w, h, bpp int) ([]byte, bool) {
	stride, need, ok := checked.Image(w, h, bpp, c.unpackAlign)
	size, ok2 := checked.Product(w, h, bpp)
	if !ok || !ok2 {
		c.record(fn, INVALID_VALUE, "%dx%d texels of %d bytes overflow", w, h, bpp)
		return nil, false
	}
	if src != nil && len(src) < need {
		c.record(fn, INVALID_VALUE, "pixels has %d bytes, %dx%d needs %d", len(src), w, h, need)
		return nil, false
	}
	out := make([]byte, size)
	if src == nil {
		return out, true
	}
	for y := 0; y < h; y++ {
		copy(out[y*w*bpp:(y+1)*w*bpp], src[y*stride:])
	}
	return out, true
}

// TexImage2D specifies a level of the bound texture. pixels is a slice of
// numbers (or nil for an undefined image); rows run bottom to top, padded to
// UNPACK_ALIGNMENT.
func (c *Context) TexImage2D(target Enum, level int, internalformat Enum, width, height, border int, format, typ Enum, pixels any) {
	const fn = "TexImage2D"
	if !c.alive(fn) {
		return
	}
	if target != TEXTURE_2D {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	if !validFormat(format) || !validType(typ) {
		c.record(fn, INVALID_ENUM, "format %#x, type %#x", format, typ)
		return
	}
	if !validFormat(internalformat) {
		c.record(fn, INVALID_VALUE, "internalformat %#x", internalformat)
		return
	}
	if !c.checkSize(fn, level, width, height, border) {
		return
	}
	if internalformat != format {
		c.record(fn, INVALID_OPERATION, "internalformat %#x differs from format %#x", internalformat, format)
		return
	}
	tf, ok := texFormat(format, typ)
	if !ok {
		c.record(fn, INVALID_OPERATION, "type %#x does not go with format %#x", typ, format)
		return
	}
	src, ok := bytesOf(pixels)
	if !ok {
		c.record(fn, INVALID_VALUE, "pixels of type %T", pixels)
		return
	}
	t := c.boundTexture()
	if !c.levelFits(fn, t, tf, level, width*height*tf.BytesPerTexel()) {
		return
	}
	data, ok := c.unpack(fn, src, width, height, tf.BytesPerTexel())
	if !ok {
		return
	}
	c.setLevel(t, tf, level, driver.Level{Width: width, Height: height, Data: data})
}

// texBytes returns the memory a texture's data takes.
func texBytes(t *textureObject) int64 {
	n := int64(len(t.palette))
	for _, l := range t.levels {
		n += int64(len(l.Data))
	}
	return n
}

// recharge brings the budget up to date with a texture's data.
func (c *Context) recharge(t *textureObject) {
	n := texBytes(t)
	c.charge(n - t.charged)
	t.charged = n
}

// levelFits reports whether replacing level of t with n bytes in format tf
// fits the budget, counting the mipmaps GENERATE_MIPMAP would add; it
// records OUT_OF_MEMORY when not. (Sizes are bounded by the maximum
// texture size: n does not overflow.)
func (c *Context) levelFits(fn string, t *textureObject, tf driver.TexFormat, level, n int) bool {
	grow := int64(n)
	if level == 0 && t.generateMipmap {
		grow += grow/3 + 64
	}
	switch {
	case t.format != tf:
		grow -= t.charged
	case level < len(t.levels):
		grow -= int64(len(t.levels[level].Data))
	}
	return c.fits(fn, grow, fmt.Sprintf("level %d (%d bytes)", level, n))
}

// setLevel stores a level, dropping levels of another format (a paletted or
// compressed texture becomes uncompressed), and regenerates mipmaps.
func (c *Context) setLevel(t *textureObject, tf driver.TexFormat, level int, lv driver.Level) {
	if level == 0 {
		t.rendered = false
	} else if !c.syncTexture("TexImage2D", t) {
		return
	}
	if t.format != tf {
		t.levels = nil
		t.palette = nil
		t.format = tf
	}
	for len(t.levels) <= level {
		t.levels = append(t.levels, driver.Level{})
	}
	t.levels[level] = lv
	t.gen++
	if level == 0 && t.generateMipmap {
		c.generateMipmaps("TexImage2D", t)
	}
	c.recharge(t)
}

// generateMipmaps rebuilds levels 1.. from level 0 with a 2x2 box filter
// (GL_GENERATE_MIPMAP). Uncompressed formats only; a level 0 with no
// texels (a zero width or height) has no mipmaps. When the chain does not
// fit the memory budget it records OUT_OF_MEMORY for fn and leaves the
// levels as they were.
func (c *Context) generateMipmaps(fn string, t *textureObject) {
	if len(t.levels) == 0 || t.levels[0].Width == 0 || t.levels[0].Height == 0 || t.format.BytesPerTexel() == 0 {
		return
	}
	chain := int64(0)
	for w, h := t.levels[0].Width, t.levels[0].Height; w > 1 || h > 1; {
		w, h = max(w/2, 1), max(h/2, 1)
		chain += int64(w * h * t.format.BytesPerTexel())
	}
	old := int64(0)
	for _, l := range t.levels[1:] {
		old += int64(len(l.Data))
	}
	if !c.fits(fn, chain-old, "the mipmap chain") {
		return
	}
	defer c.recharge(t)
	t.levels = t.levels[:1]
	prev := t.levels[0]
	for prev.Width > 1 || prev.Height > 1 {
		w, h := max(prev.Width/2, 1), max(prev.Height/2, 1)
		next := driver.Level{Width: w, Height: h, Data: make([]byte, w*h*t.format.BytesPerTexel())}
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var sum [4]int
				n := 0
				for dy := 0; dy < 2; dy++ {
					for dx := 0; dx < 2; dx++ {
						sx, sy := min(2*x+dx, prev.Width-1), min(2*y+dy, prev.Height-1)
						p := driver.DecodeTexel(t.format, prev.Data, sy*prev.Width+sx)
						for k := range sum {
							sum[k] += int(p[k])
						}
						n++
					}
				}
				var px [4]uint8
				for k := range px {
					px[k] = uint8((sum[k] + n/2) / n)
				}
				encodeTexel(t.format, next.Data, y*w+x, px)
			}
		}
		t.levels = append(t.levels, next)
		prev = next
	}
	t.gen++
}

// encodeTexel stores an 8-bit RGBA texel in an uncompressed format, rounding
// to the nearest representable value.
func encodeTexel(f driver.TexFormat, data []byte, i int, p [4]uint8) {
	q := func(v uint8, bits uint) uint16 { return uint16((uint(v)*(1<<bits-1) + 127) / 255) }
	put16 := func(v uint16) { data[2*i], data[2*i+1] = byte(v), byte(v>>8) }
	switch f {
	case driver.TexRGBA8888:
		copy(data[4*i:], p[:])
	case driver.TexRGB888:
		copy(data[3*i:], p[:3])
	case driver.TexRGB565:
		put16(q(p[0], 5)<<11 | q(p[1], 6)<<5 | q(p[2], 5))
	case driver.TexRGBA4444:
		put16(q(p[0], 4)<<12 | q(p[1], 4)<<8 | q(p[2], 4)<<4 | q(p[3], 4))
	case driver.TexRGBA5551:
		put16(q(p[0], 5)<<11 | q(p[1], 5)<<6 | q(p[2], 5)<<1 | q(p[3], 1))
	case driver.TexL8:
		data[i] = p[0]
	case driver.TexA8:
		data[i] = p[3]
	case driver.TexLA88:
		data[2*i], data[2*i+1] = p[0], p[3]
	}
}

// TexSubImage2D replaces a rectangle of a level. The (format, type) pair
// must have the level's base format; texels are converted when the types
// differ.
func (c *Context) TexSubImage2D(target Enum, level, xoffset, yoffset, width, height int, format, typ Enum, pixels any) {
	const fn = "TexSubImage2D"
	if !c.alive(fn) {
		return
	}
	if target != TEXTURE_2D {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	if !validFormat(format) || !validType(typ) {
		c.record(fn, INVALID_ENUM, "format %#x, type %#x", format, typ)
		return
	}
	sf, ok := texFormat(format, typ)
	if !ok {
		c.record(fn, INVALID_OPERATION, "type %#x does not go with format %#x", typ, format)
		return
	}
	t := c.boundTexture()
	lv, ok := c.subImageLevel(fn, t, level, xoffset, yoffset, width, height)
	if !ok || !c.syncTexture(fn, t) {
		return
	}
	if t.format.BytesPerTexel() == 0 {
		c.record(fn, INVALID_OPERATION, "level %d is compressed (%v)", level, t.format)
		return
	}
	if sf.Base(0) != t.format.Base(0) {
		c.record(fn, INVALID_OPERATION, "format %#x does not match the texture's %v", format, t.format)
		return
	}
	src, ok := bytesOf(pixels)
	if !ok || src == nil {
		c.record(fn, INVALID_VALUE, "pixels of type %T", pixels)
		return
	}
	data, ok := c.unpack(fn, src, width, height, sf.BytesPerTexel())
	if !ok {
		return
	}
	// width x height lies inside the level (subImageLevel): the texel
	// indices below stay inside lv.Data.
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			di := (yoffset+y)*lv.Width + xoffset + x
			if sf == t.format {
				bpp := sf.BytesPerTexel()
				copy(lv.Data[di*bpp:(di+1)*bpp], data[(y*width+x)*bpp:])
			} else {
				encodeTexel(t.format, lv.Data, di, driver.DecodeTexel(sf, data, y*width+x))
			}
		}
	}
	t.gen++
	if level == 0 && t.generateMipmap {
		c.generateMipmaps(fn, t)
	}
}

func (c *Context) subImageLevel(fn string, t *textureObject, level, x, y, w, h int) (*driver.Level, bool) {
	if level < 0 || level > c.maxLevel() {
		c.record(fn, INVALID_VALUE, "level %d", level)
		return nil, false
	}
	if level >= len(t.levels) || t.levels[level].Width == 0 {
		c.record(fn, INVALID_OPERATION, "level %d is not defined", level)
		return nil, false
	}
	lv := &t.levels[level]
	if !checked.InRange(x, w, lv.Width) || !checked.InRange(y, h, lv.Height) {
		c.record(fn, INVALID_VALUE, "rectangle %d,%d %dx%d outside the %dx%d level", x, y, w, h, lv.Width, lv.Height)
		return nil, false
	}
	return lv, true
}

// paletted describes an OES_compressed_paletted_texture format.
func paletted(f Enum) (indexBits int, pal driver.TexFormat, ok bool) {
	pals := []driver.TexFormat{driver.TexRGB888, driver.TexRGBA8888, driver.TexRGB565, driver.TexRGBA4444, driver.TexRGBA5551}
	switch {
	case f >= PALETTE4_RGB8_OES && f <= PALETTE4_RGB5_A1_OES:
		return 4, pals[f-PALETTE4_RGB8_OES], true
	case f >= PALETTE8_RGB8_OES && f <= PALETTE8_RGB5_A1_OES:
		return 8, pals[f-PALETTE8_RGB8_OES], true
	}
	return 0, 0, false
}

func (c *Context) compressedFormats() []Enum {
	var out []Enum
	if c.caps.HasExtension("GL_OES_compressed_paletted_texture") {
		for f := PALETTE4_RGB8_OES; f <= PALETTE8_RGB5_A1_OES; f++ {
			out = append(out, f)
		}
	}
	if c.caps.HasExtension("GL_OES_compressed_ETC1_RGB8_texture") {
		out = append(out, ETC1_RGB8_OES)
	}
	if c.caps.HasExtension("GL_EXT_texture_compression_dxt1") {
		out = append(out, COMPRESSED_RGB_S3TC_DXT1_EXT, COMPRESSED_RGBA_S3TC_DXT1_EXT)
	}
	if c.caps.HasExtension("GL_EXT_texture_compression_s3tc") {
		out = append(out, COMPRESSED_RGBA_S3TC_DXT3_EXT, COMPRESSED_RGBA_S3TC_DXT5_EXT)
	}
	return out
}

// CompressedTexImage2D specifies a compressed texture. For the paletted
// formats level is 0 or -n (n+1 levels in data, after the palette), as
// OES_compressed_paletted_texture defines; 4-bit indices hold the first
// texel in the high nibble, each level starting on a byte.
func (c *Context) CompressedTexImage2D(target Enum, level int, internalformat Enum, width, height, border int, data []byte) {
	const fn = "CompressedTexImage2D"
	if !c.alive(fn) {
		return
	}
	if target != TEXTURE_2D {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	supported := false
	for _, f := range c.compressedFormats() {
		supported = supported || f == internalformat
	}
	if !supported {
		c.record(fn, INVALID_ENUM, "internalformat %#x is not a supported compressed format", internalformat)
		return
	}
	t := c.boundTexture()
	if bitsPer, pal, ok := paletted(internalformat); ok {
		if level > 0 || level < -c.maxLevel() {
			c.record(fn, INVALID_VALUE, "paletted level %d must be 0 or -1..-%d", level, c.maxLevel())
			return
		}
		if !c.checkSize(fn, 0, width, height, border) {
			return
		}
		nLevels := 1 - level
		if w, h := width>>(nLevels-1), height>>(nLevels-1); nLevels > 1 && w == 0 && h == 0 {
			c.record(fn, INVALID_VALUE, "%d levels from %dx%d go below 1x1", nLevels, width, height)
			return
		}
		palSize := (1 << bitsPer) * (pal.BytesPerTexel())
		need := palSize
		for l := 0; l < nLevels; l++ {
			w, h := max(width>>l, 1), max(height>>l, 1)
			need += (w*h*bitsPer + 7) / 8
		}
		if len(data) != need {
			c.record(fn, INVALID_VALUE, "imageSize %d, %v %dx%d with %d levels needs %d", len(data), internalformat, width, height, nLevels, need)
			return
		}
		if !c.fits(fn, int64(need)-t.charged, fmt.Sprintf("a %d-byte paletted texture", need)) {
			return
		}
		tf := driver.TexPalette4
		if bitsPer == 8 {
			tf = driver.TexPalette8
		}
		t.levels = nil
		t.format = tf
		t.palette = append([]byte(nil), data[:palSize]...)
		t.paletteFormat = pal
		off := palSize
		for l := 0; l < nLevels; l++ {
			w, h := max(width>>l, 1), max(height>>l, 1)
			n := (w*h*bitsPer + 7) / 8
			t.levels = append(t.levels, driver.Level{Width: w, Height: h, Data: append([]byte(nil), data[off:off+n]...)})
			off += n
		}
		t.gen++
		c.recharge(t)
		return
	}
	if !c.checkSize(fn, level, width, height, border) {
		return
	}
	var tf driver.TexFormat
	switch internalformat {
	case ETC1_RGB8_OES:
		tf = driver.TexETC1
	case COMPRESSED_RGB_S3TC_DXT1_EXT:
		tf = driver.TexDXT1
	case COMPRESSED_RGBA_S3TC_DXT1_EXT:
		tf = driver.TexDXT1A
	case COMPRESSED_RGBA_S3TC_DXT3_EXT:
		tf = driver.TexDXT3
	default:
		tf = driver.TexDXT5
	}
	if need := driver.CompressedSize(tf, width, height); len(data) != need {
		c.record(fn, INVALID_VALUE, "imageSize %d, %dx%d %v needs %d", len(data), width, height, tf, need)
		return
	}
	if !c.levelFits(fn, t, tf, level, len(data)) {
		return
	}
	c.setLevel(t, tf, level, driver.Level{Width: width, Height: height, Data: append([]byte(nil), data...)})
}

// CompressedTexSubImage2D is not allowed for the paletted and ETC1 formats
// (their extensions say so); for S3TC it replaces whole 4x4 blocks.
func (c *Context) CompressedTexSubImage2D(target Enum, level, xoffset, yoffset, width, height int, format Enum, data []byte) {
	const fn = "CompressedTexSubImage2D"
	if !c.alive(fn) {
		return
	}
	if target != TEXTURE_2D {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	t := c.boundTexture()
	if _, _, ok := paletted(format); ok || format == ETC1_RGB8_OES {
		c.record(fn, INVALID_OPERATION, "format %#x cannot be updated in part", format)
		return
	}
	var tf driver.TexFormat
	switch format {
	case COMPRESSED_RGB_S3TC_DXT1_EXT:
		tf = driver.TexDXT1
	case COMPRESSED_RGBA_S3TC_DXT1_EXT:
		tf = driver.TexDXT1A
	case COMPRESSED_RGBA_S3TC_DXT3_EXT:
		tf = driver.TexDXT3
	case COMPRESSED_RGBA_S3TC_DXT5_EXT:
		tf = driver.TexDXT5
	default:
		c.record(fn, INVALID_ENUM, "format %#x", format)
		return
	}
	lv, ok := c.subImageLevel(fn, t, level, xoffset, yoffset, width, height)
	if !ok {
		return
	}
	if t.format != tf {
		c.record(fn, INVALID_OPERATION, "format %#x differs from the texture's %v", format, t.format)
		return
	}
	if xoffset%4 != 0 || yoffset%4 != 0 || (width%4 != 0 && xoffset+width != lv.Width) || (height%4 != 0 && yoffset+height != lv.Height) {
		c.record(fn, INVALID_OPERATION, "rectangle %d,%d %dx%d is not block aligned", xoffset, yoffset, width, height)
		return
	}
	if need := driver.CompressedSize(tf, width, height); len(data) != need {
		c.record(fn, INVALID_VALUE, "imageSize %d, need %d", len(data), need)
		return
	}
	bs := driver.CompressedSize(tf, 4, 4)
	bw, sw := (lv.Width+3)/4, (width+3)/4
	for by := 0; by < (height+3)/4; by++ {
		for bx := 0; bx < sw; bx++ {
			dst := ((yoffset/4+by)*bw + xoffset/4 + bx) * bs
			src := (by*sw + bx) * bs
			copy(lv.Data[dst:dst+bs], data[src:src+bs])
		}
	}
	t.gen++
}

// CopyTexImage2D defines a level from the colour buffer. internalformat
// must not ask for components the colour buffer lacks.
func (c *Context) CopyTexImage2D(target Enum, level int, internalformat Enum, x, y, width, height, border int) {
	const fn = "CopyTexImage2D"
	if !c.alive(fn) {
		return
	}
	if target != TEXTURE_2D {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	if !validFormat(internalformat) {
		c.record(fn, INVALID_VALUE, "internalformat %#x", internalformat)
		return
	}
	if !c.checkSize(fn, level, width, height, border) {
		return
	}
	if _, _, alpha, _ := c.readBuffer(); !alpha && (internalformat == ALPHA || internalformat == RGBA || internalformat == LUMINANCE_ALPHA) {
		c.record(fn, INVALID_OPERATION, "internalformat %#x needs alpha, the colour buffer has none", internalformat)
		return
	}
	tf, _ := texFormat(internalformat, UNSIGNED_BYTE)
	if !c.levelFits(fn, c.boundTexture(), tf, level, width*height*tf.BytesPerTexel()) {
		return
	}
	data := make([]byte, width*height*tf.BytesPerTexel())
	if !c.copyFramebuffer(fn, x, y, width, height, func(i int, p [4]uint8) { encodeTexel(tf, data, i, p) }) {
		return
	}
	c.setLevel(c.boundTexture(), tf, level, driver.Level{Width: width, Height: height, Data: data})
}

// CopyTexSubImage2D replaces a rectangle of a level from the colour buffer.
func (c *Context) CopyTexSubImage2D(target Enum, level, xoffset, yoffset, x, y, width, height int) {
	const fn = "CopyTexSubImage2D"
	if !c.alive(fn) {
		return
	}
	if target != TEXTURE_2D {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	t := c.boundTexture()
	lv, ok := c.subImageLevel(fn, t, level, xoffset, yoffset, width, height)
	if !ok || !c.syncTexture(fn, t) {
		return
	}
	if t.format.BytesPerTexel() == 0 {
		c.record(fn, INVALID_OPERATION, "level %d is compressed", level)
		return
	}
	ok = c.copyFramebuffer(fn, x, y, width, height, func(i int, p [4]uint8) {
		encodeTexel(t.format, lv.Data, (yoffset+i/width)*lv.Width+xoffset+i%width, p)
	})
	if !ok {
		return
	}
	t.gen++
	if level == 0 && t.generateMipmap {
		c.generateMipmaps(fn, t)
	}
}

// copyFramebuffer reads a window rectangle and calls put for each texel in
// GL order (bottom row first). Texels outside the surface are undefined in
// GL; they read as zero here.
func (c *Context) copyFramebuffer(fn string, x, y, w, h int, put func(i int, p [4]uint8)) bool {
	if w == 0 || h == 0 {
		return true
	}
	bw, bh, _, ok := c.readBuffer()
	if !ok {
		c.record(fn, INVALID_OPERATION, "the framebuffer has no colour attachment")
		return false
	}
	// x + w and y + h may overflow: clip in 64 bits without wrapping.
	x0, y0 := max(x, 0), max(y, 0)
	x1, y1 := clipEnd(x, w, bw), clipEnd(y, h, bh)
	if x0 < x1 && y0 < y1 {
		img, err := c.readImage(fn, x0, y0, x1-x0, y1-y0)
		if err != nil {
			return false
		}
		for ty := 0; ty < h; ty++ {
			for tx := 0; tx < w; tx++ {
				wx, wy := x+tx, y+ty
				var p [4]uint8
				if wx >= x0 && wx < x1 && wy >= y0 && wy < y1 {
					o := (y1-1-wy)*img.Stride + (wx-x0)*4
					copy(p[:], img.Pix[o:o+4])
				}
				put(ty*w+tx, p)
			}
		}
		return true
	}
	for i := 0; i < w*h; i++ {
		put(i, [4]uint8{})
	}
	return true
}

func texFilter(e Enum, min bool) (driver.TexFilter, bool) {
	switch e {
	case NEAREST:
		return driver.FilterNearest, true
	case LINEAR:
		return driver.FilterLinear, true
	case NEAREST_MIPMAP_NEAREST:
		return driver.FilterNearestMipmapNearest, min
	case LINEAR_MIPMAP_NEAREST:
		return driver.FilterLinearMipmapNearest, min
	case NEAREST_MIPMAP_LINEAR:
		return driver.FilterNearestMipmapLinear, min
	case LINEAR_MIPMAP_LINEAR:
		return driver.FilterLinearMipmapLinear, min
	}
	return 0, false
}

// TexParameterf sets a scalar texture parameter.
func (c *Context) TexParameterf(target, pname Enum, param float32) {
	c.texParameter("TexParameterf", target, pname, []float32{param})
}

// TexParameteri sets a scalar texture parameter.
func (c *Context) TexParameteri(target, pname Enum, param int) {
	c.texParameter("TexParameteri", target, pname, []float32{float32(param)})
}

// TexParameteriv sets a texture parameter (TEXTURE_CROP_RECT_OES takes 4).
func (c *Context) TexParameteriv(target, pname Enum, params []int) {
	f := make([]float32, len(params))
	for i, p := range params {
		f[i] = float32(p)
	}
	c.texParameter("TexParameteriv", target, pname, f)
}

// TexParameterfv sets a texture parameter.
func (c *Context) TexParameterfv(target, pname Enum, params []float32) {
	c.texParameter("TexParameterfv", target, pname, params)
}

func (c *Context) texParameter(fn string, target, pname Enum, p []float32) {
	if !c.alive(fn) {
		return
	}
	if target != TEXTURE_2D {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	if len(p) == 0 {
		c.record(fn, INVALID_VALUE, "no values")
		return
	}
	t := c.boundTexture()
	// A rendered texture's contents come back before its generation
	// changes (the backend would otherwise upload the stale levels).
	if !c.syncTexture(fn, t) {
		return
	}
	e := Enum(p[0])
	switch pname {
	case TEXTURE_MIN_FILTER, TEXTURE_MAG_FILTER:
		f, ok := texFilter(e, pname == TEXTURE_MIN_FILTER)
		if !ok {
			c.record(fn, INVALID_ENUM, "filter %#x for %#x", e, pname)
			return
		}
		if pname == TEXTURE_MIN_FILTER {
			t.sampler.MinFilter = f
		} else {
			t.sampler.MagFilter = f
		}
	case TEXTURE_WRAP_S, TEXTURE_WRAP_T:
		var w driver.TexWrap
		switch e {
		case REPEAT:
			w = driver.WrapRepeat
		case CLAMP_TO_EDGE:
			w = driver.WrapClampToEdge
		case MIRRORED_REPEAT:
			if !c.caps.HasExtension("GL_OES_texture_mirrored_repeat") {
				c.record(fn, INVALID_ENUM, "MIRRORED_REPEAT needs GL_OES_texture_mirrored_repeat")
				return
			}
			w = driver.WrapMirroredRepeat
		default:
			c.record(fn, INVALID_ENUM, "wrap %#x", e)
			return
		}
		if pname == TEXTURE_WRAP_S {
			t.sampler.WrapS = w
		} else {
			t.sampler.WrapT = w
		}
	case GENERATE_MIPMAP:
		t.generateMipmap = p[0] != 0
		if t.generateMipmap {
			c.generateMipmaps(fn, t)
		}
	case TEXTURE_CROP_RECT_OES:
		if !c.caps.HasExtension("GL_OES_draw_texture") {
			c.record(fn, INVALID_ENUM, "TEXTURE_CROP_RECT_OES needs GL_OES_draw_texture")
			return
		}
		if len(p) < 4 {
			c.record(fn, INVALID_VALUE, "crop rectangle needs 4 values")
			return
		}
		for i := range t.crop {
			t.crop[i] = int(p[i])
		}
	default:
		c.record(fn, INVALID_ENUM, "pname %#x", pname)
		return
	}
	t.gen++
}

// GetTexParameteriv returns a parameter of the bound texture.
func (c *Context) GetTexParameteriv(target, pname Enum) []int {
	const fn = "GetTexParameteriv"
	if !c.alive(fn) {
		return nil
	}
	if target != TEXTURE_2D {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return nil
	}
	t := c.boundTexture()
	filters := []Enum{NEAREST, LINEAR, NEAREST_MIPMAP_NEAREST, LINEAR_MIPMAP_NEAREST, NEAREST_MIPMAP_LINEAR, LINEAR_MIPMAP_LINEAR}
	wraps := []Enum{REPEAT, CLAMP_TO_EDGE, MIRRORED_REPEAT}
	switch pname {
	case TEXTURE_MIN_FILTER:
		return []int{int(filters[t.sampler.MinFilter])}
	case TEXTURE_MAG_FILTER:
		return []int{int(filters[t.sampler.MagFilter])}
	case TEXTURE_WRAP_S:
		return []int{int(wraps[t.sampler.WrapS])}
	case TEXTURE_WRAP_T:
		return []int{int(wraps[t.sampler.WrapT])}
	case GENERATE_MIPMAP:
		if t.generateMipmap {
			return []int{1}
		}
		return []int{0}
	case TEXTURE_CROP_RECT_OES:
		return t.crop[:]
	}
	c.record(fn, INVALID_ENUM, "pname %#x", pname)
	return nil
}

// resolveTextures fills the units of the state snapshot with the complete
// textures of enabled units.
func (c *Context) resolveTextures() {
	for u := range c.st.Units {
		c.st.Units[u].Texture = nil
		if u < c.caps.Limits.MaxTextureUnits && c.texEnabled[u] {
			c.st.Units[u].Texture = c.completeTexture(u)
		}
	}
}

// completeTexture returns the snapshot of the texture bound to unit u, or
// nil when it is incomplete.
func (c *Context) completeTexture(u int) *driver.Texture {
	id := c.boundTex[u]
	t := c.defaultTex
	if id != 0 {
		t = c.textures[id]
	}
	if t == nil {
		return nil
	}
	if t.snapGen != t.gen {
		t.snapGen = t.gen
		var nl int
		t.complete, nl = c.complete(t)
		if t.complete {
			t.snap = driver.Texture{ID: t.key, Gen: t.gen, Format: t.format, Palette: t.palette,
				PaletteFormat: t.paletteFormat, Levels: t.levels[:nl], Sampler: t.sampler, Crop: t.crop}
		}
	}
	if t.complete {
		return &t.snap
	}
	return nil
}

// complete implements the ES 1.1 texture completeness rules (section
// 3.7.10); it also returns how many levels the sampler reads.
func (c *Context) complete(t *textureObject) (bool, int) {
	if len(t.levels) == 0 || t.levels[0].Width == 0 || t.levels[0].Height == 0 {
		return false, 0
	}
	// GL ES 2.0 §3.8.2: a non-power-of-two texture is complete only
	// with CLAMP_TO_EDGE and a filter that reads level 0 alone.
	if w, h := t.levels[0].Width, t.levels[0].Height; !isPow2(w) || !isPow2(h) {
		if t.sampler.MinFilter.Mipmapped() || t.sampler.WrapS != driver.WrapClampToEdge || t.sampler.WrapT != driver.WrapClampToEdge {
			return false, 0
		}
	}
	if !t.sampler.MinFilter.Mipmapped() {
		return true, 1
	}
	w, h := t.levels[0].Width, t.levels[0].Height
	n := bits.Len(uint(max(w, h)))
	if len(t.levels) < n {
		return false, 0
	}
	for l := 1; l < n; l++ {
		if t.levels[l].Width != max(w>>l, 1) || t.levels[l].Height != max(h>>l, 1) {
			return false, 0
		}
	}
	return true, n
}

// TexEnvf sets a scalar texture environment parameter.
func (c *Context) TexEnvf(target, pname Enum, param float32) {
	c.texEnv("TexEnvf", target, pname, []float32{param})
}

// TexEnvi sets a scalar texture environment parameter.
func (c *Context) TexEnvi(target, pname Enum, param int) {
	c.texEnv("TexEnvi", target, pname, []float32{float32(param)})
}

// TexEnvfv sets a texture environment parameter (TEXTURE_ENV_COLOR takes 4).
func (c *Context) TexEnvfv(target, pname Enum, params []float32) {
	c.texEnv("TexEnvfv", target, pname, params)
}

func (c *Context) texEnv(fn string, target, pname Enum, p []float32) {
	if !c.need1(fn) {
		return
	}
	if len(p) == 0 {
		c.record(fn, INVALID_VALUE, "no values")
		return
	}
	u := &c.st.Units[c.activeTex]
	env := &u.Env
	if target == POINT_SPRITE_OES {
		if !c.caps.HasExtension("GL_OES_point_sprite") || pname != COORD_REPLACE_OES {
			c.record(fn, INVALID_ENUM, "target POINT_SPRITE_OES, pname %#x", pname)
			return
		}
		u.CoordReplace = p[0] != 0
		return
	}
	if target != TEXTURE_ENV {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	e := Enum(p[0])
	bad := func() { c.record(fn, INVALID_ENUM, "value %#x for %#x", e, pname) }
	switch pname {
	case TEXTURE_ENV_MODE:
		modes := map[Enum]driver.TexEnvMode{MODULATE: driver.EnvModulate, DECAL: driver.EnvDecal,
			BLEND: driver.EnvBlend, REPLACE: driver.EnvReplace, ADD: driver.EnvAdd, COMBINE: driver.EnvCombine}
		m, ok := modes[e]
		if !ok {
			bad()
			return
		}
		env.Mode = m
	case TEXTURE_ENV_COLOR:
		if len(p) < 4 {
			c.record(fn, INVALID_VALUE, "TEXTURE_ENV_COLOR needs 4 values")
			return
		}
		env.Color = [4]float32{clamp01(p[0]), clamp01(p[1]), clamp01(p[2]), clamp01(p[3])}
	case COMBINE_RGB, COMBINE_ALPHA:
		funcs := map[Enum]driver.CombineFunc{REPLACE: driver.CombineReplace, MODULATE: driver.CombineModulate,
			ADD: driver.CombineAdd, ADD_SIGNED: driver.CombineAddSigned, INTERPOLATE: driver.CombineInterpolate,
			SUBTRACT: driver.CombineSubtract, DOT3_RGB: driver.CombineDot3RGB, DOT3_RGBA: driver.CombineDot3RGBA}
		f, ok := funcs[e]
		if !ok || (pname == COMBINE_ALPHA && f >= driver.CombineDot3RGB) {
			bad()
			return
		}
		if pname == COMBINE_RGB {
			env.CombineRGB = f
		} else {
			env.CombineAlpha = f
		}
	case SRC0_RGB, SRC1_RGB, SRC2_RGB, SRC0_ALPHA, SRC1_ALPHA, SRC2_ALPHA:
		srcs := map[Enum]driver.CombineSrc{TEXTURE: driver.SrcTexture, CONSTANT: driver.SrcConstant,
			PRIMARY_COLOR: driver.SrcPrimaryColor, PREVIOUS: driver.SrcPrevious}
		s, ok := srcs[e]
		if !ok {
			bad()
			return
		}
		if pname <= SRC2_RGB {
			env.SrcRGB[pname-SRC0_RGB] = s
		} else {
			env.SrcAlpha[pname-SRC0_ALPHA] = s
		}
	case OPERAND0_RGB, OPERAND1_RGB, OPERAND2_RGB, OPERAND0_ALPHA, OPERAND1_ALPHA, OPERAND2_ALPHA:
		ops := map[Enum]driver.CombineOperand{SRC_COLOR: driver.OperandSrcColor, ONE_MINUS_SRC_COLOR: driver.OperandOneMinusSrcColor,
			SRC_ALPHA: driver.OperandSrcAlpha, ONE_MINUS_SRC_ALPHA: driver.OperandOneMinusSrcAlpha}
		o, ok := ops[e]
		if !ok || (pname >= OPERAND0_ALPHA && o < driver.OperandSrcAlpha) {
			bad()
			return
		}
		if pname <= OPERAND2_RGB {
			env.OperandRGB[pname-OPERAND0_RGB] = o
		} else {
			env.OperandAlpha[pname-OPERAND0_ALPHA] = o
		}
	case RGB_SCALE, ALPHA_SCALE:
		if p[0] != 1 && p[0] != 2 && p[0] != 4 {
			c.record(fn, INVALID_VALUE, "scale %v (1, 2 or 4)", p[0])
			return
		}
		if pname == RGB_SCALE {
			env.RGBScale = p[0]
		} else {
			env.AlphaScale = p[0]
		}
	default:
		c.record(fn, INVALID_ENUM, "pname %#x", pname)
	}
}

// GetTexEnvfv returns a texture environment parameter of the active unit.
func (c *Context) GetTexEnvfv(target, pname Enum) []float32 {
	const fn = "GetTexEnvfv"
	if !c.need1(fn) {
		return nil
	}
	u := &c.st.Units[c.activeTex]
	if target == POINT_SPRITE_OES && pname == COORD_REPLACE_OES {
		if u.CoordReplace {
			return []float32{1}
		}
		return []float32{0}
	}
	if target != TEXTURE_ENV {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return nil
	}
	env := &u.Env
	modes := []Enum{MODULATE, DECAL, BLEND, REPLACE, ADD, COMBINE}
	funcs := []Enum{REPLACE, MODULATE, ADD, ADD_SIGNED, INTERPOLATE, SUBTRACT, DOT3_RGB, DOT3_RGBA}
	srcs := []Enum{TEXTURE, CONSTANT, PRIMARY_COLOR, PREVIOUS}
	ops := []Enum{SRC_COLOR, ONE_MINUS_SRC_COLOR, SRC_ALPHA, ONE_MINUS_SRC_ALPHA}
	one := func(e Enum) []float32 { return []float32{float32(e)} }
	switch {
	case pname == TEXTURE_ENV_MODE:
		return one(modes[env.Mode])
	case pname == TEXTURE_ENV_COLOR:
		return env.Color[:]
	case pname == COMBINE_RGB:
		return one(funcs[env.CombineRGB])
	case pname == COMBINE_ALPHA:
		return one(funcs[env.CombineAlpha])
	case pname >= SRC0_RGB && pname <= SRC2_RGB:
		return one(srcs[env.SrcRGB[pname-SRC0_RGB]])
	case pname >= SRC0_ALPHA && pname <= SRC2_ALPHA:
		return one(srcs[env.SrcAlpha[pname-SRC0_ALPHA]])
	case pname >= OPERAND0_RGB && pname <= OPERAND2_RGB:
		return one(ops[env.OperandRGB[pname-OPERAND0_RGB]])
	case pname >= OPERAND0_ALPHA && pname <= OPERAND2_ALPHA:
		return one(ops[env.OperandAlpha[pname-OPERAND0_ALPHA]])
	case pname == RGB_SCALE:
		return []float32{env.RGBScale}
	case pname == ALPHA_SCALE:
		return []float32{env.AlphaScale}
	}
	c.record(fn, INVALID_ENUM, "pname %#x", pname)
	return nil
}

// DrawTexfOES draws a screen-aligned rectangle textured with the crop
// rectangles of the enabled units (OES_draw_texture).
func (c *Context) DrawTexfOES(x, y, z, width, height float32) {
	const fn = "DrawTexfOES"
	if !c.need1(fn) {
		return
	}
	if !c.caps.HasExtension("GL_OES_draw_texture") {
		c.record(fn, INVALID_OPERATION, "GL_OES_draw_texture is not supported by %s", c.caps.Name)
		return
	}
	if !(width > 0) || !(height > 0) {
		c.record(fn, INVALID_VALUE, "size %vx%v", width, height)
		return
	}
	if math.IsInf(float64(x+y+z), 0) {
		c.record(fn, INVALID_VALUE, "infinite position")
		return
	}
	c.draw(fn, &driver.DrawCall{DrawTexture: &driver.DrawTexRect{X: x, Y: y, Z: z, W: width, H: height}})
}

// DrawTexiOES is DrawTexfOES with integer arguments.
func (c *Context) DrawTexiOES(x, y, z, width, height int) {
	c.DrawTexfOES(float32(x), float32(y), float32(z), float32(width), float32(height))
}

// clipEnd returns min(start+n, limit) for n >= 0 without overflowing:
// for the clipping of rectangles whose size an application gives.
func clipEnd(start, n, limit int) int {
	if start >= 0 && n > limit-start {
		return limit
	}
	return min(start+n, limit)
}
