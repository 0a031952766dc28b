package pica

import (
	"encoding/binary"
	"math"

	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/internal/texblock"
)

// Texture sampling decisions (the seed gives formats and registers only;
// layouts are [OUT] citra's texture_decode.cpp, guide §4):
//   - texel (s, t) lives at memory row H-1-t of the tiled image (t = 0 is
//     the image's bottom row, as in GL);
//   - NEAREST picks floor(u*W); LINEAR blends the four texels around
//     u*W-0.5 with 8-bit fractional weights, rounding to nearest;
//   - wrap codes 0 clamp to edge, 1 clamp to border, 2 repeat, 3 mirrored
//     repeat; the undefined codes 4-7 repeat;
//   - the level of detail is GL's (ES 1.1 §3.7.7), per pixel:
//     lod = log2(max(|d(s,t)/dx|, |d(s,t)/dy|)) in texels, from exact
//     screen-space derivatives of the perspective-correct coordinates,
//     plus the LOD bias, clamped to [min level, max level]; lod <= 0 uses
//     the magnification filter on level 0, lod > 0 the minification filter
//     on level round(lod) (nearest mip) or on the two levels around lod
//     blended with an 8-bit weight (linear mip); levels go down to 1x1,
//     each stored in whole 8x8 tiles (hal/pica LevelBytes).

// texel returns texel (s, t) (already wrapped into range) of the current
// level as RGBA8.
func (t *texUnit) texel(s, tt int) [4]uint8 {
	return t.texelAt(t.data, t.width, t.height, s, tt)
}

func (t *texUnit) texelAt(d []byte, width, height, s, tt int) [4]uint8 {
	row := height - 1 - tt
	width = (width + 7) &^ 7 // levels below 8 texels are padded to a tile
	i := p.TileOffset(s, row, width)
	switch t.format {
	case p.TexRGBA8:
		b := d[4*i:]
		return [4]uint8{b[3], b[2], b[1], b[0]}
	case p.TexRGB8:
		b := d[3*i:]
		return [4]uint8{b[2], b[1], b[0], 255}
	case p.TexRGBA5551:
		return p.DecodeColor(p.ColorRGB5A1, d[2*i:])
	case p.TexRGB565:
		return p.DecodeColor(p.ColorRGB565, d[2*i:])
	case p.TexRGBA4:
		return p.DecodeColor(p.ColorRGBA4, d[2*i:])
	case p.TexIA8:
		return [4]uint8{d[2*i+1], d[2*i+1], d[2*i+1], d[2*i]}
	case p.TexHILO8:
		return [4]uint8{d[2*i+1], d[2*i], 0, 255}
	case p.TexI8:
		return [4]uint8{d[i], d[i], d[i], 255}
	case p.TexA8:
		return [4]uint8{0, 0, 0, d[i]}
	case p.TexIA4:
		iv, a := p.Expand4(uint16(d[i]>>4)), p.Expand4(uint16(d[i]&15))
		return [4]uint8{iv, iv, iv, a}
	case p.TexI4, p.TexA4:
		n := d[i/2] >> (4 * uint(i&1)) & 15
		v := p.Expand4(uint16(n))
		if t.format == p.TexA4 {
			return [4]uint8{0, 0, 0, v}
		}
		return [4]uint8{v, v, v, 255}
	case p.TexETC1, p.TexETC1A4:
		return t.etcTexel(d, width, s, row)
	}
	return [4]uint8{}
}

// etcTexel decodes an ETC1/ETC1A4 texel: each 8x8 tile holds four 4x4
// blocks in the order (0,0), (1,0), (0,1), (1,1) of memory rows; each block
// is a little-endian u64 read as the standard (big-endian) ETC1 word;
// ETC1A4 puts an 8-byte alpha block first, 4 bits per texel at nibble
// 4*(x*4+y) ([OUT] citra; guide §4).
func (t *texUnit) etcTexel(data []byte, width, s, row int) [4]uint8 {
	tile := (row/8)*(width/8) + s/8
	sub := (s%8)/4 + 2*((row%8)/4)
	bsize := 8
	if t.format == p.TexETC1A4 {
		bsize = 16
	}
	off := (tile*4 + sub) * bsize
	b := data[off : off+bsize]
	x, y := s%4, row%4
	alpha := uint8(255)
	if t.format == p.TexETC1A4 {
		a := binary.LittleEndian.Uint64(b)
		alpha = p.Expand4(uint16(a >> (4 * uint(x*4+y)) & 15))
		b = b[8:]
	}
	c := texblock.ETC1(binary.LittleEndian.Uint64(b), x, y) // the PICA stores the block word little-endian
	c[3] = alpha
	return c
}

// wrap maps an integer coordinate into [0, n) or reports a border texel.
func wrap(mode uint32, i, n int) (int, bool) {
	switch mode {
	case 0:
		return max(0, min(n-1, i)), true
	case 1:
		if i < 0 || i >= n {
			return 0, false
		}
		return i, true
	case 3:
		m := i % (2 * n)
		if m < 0 {
			m += 2 * n
		}
		if m >= n {
			m = 2*n - 1 - m
		}
		return m, true
	}
	m := i % n
	if m < 0 {
		m += n
	}
	return m, true
}

// fetchAt reads texel (s, tt) of level l, of size w x h, through the
// wrap modes (the border colour outside a clamp-to-border level).
func (t *texUnit) fetchAt(l, w, h, s, tt int) [4]uint8 {
	x, ok1 := wrap(t.wrapS, s, w)
	y, ok2 := wrap(t.wrapT, tt, h)
	if !ok1 || !ok2 {
		return t.border
	}
	return t.texelAt(t.levels[l], w, h, x, y)
}

func floorInt(v float64) int {
	if v != v {
		return 0
	}
	return int(max(-1<<30, min(1<<30, math.Floor(v))))
}

// filtered samples level l at (u, v) with filter 0 (nearest) or 1 (linear).
func (t *texUnit) filtered(l int, filter uint32, u, v float64) [4]uint8 {
	lw, lh := p.LevelDim(t.width, t.height, l)
	w, h := float64(lw), float64(lh)
	if filter == 0 {
		return t.fetchAt(l, lw, lh, floorInt(u*w), floorInt(v*h))
	}
	x := floorInt(u*w*256 - 128)
	y := floorInt(v*h*256 - 128)
	x0, y0 := x>>8, y>>8
	fx, fy := x&255, y&255
	// fetchAt for the four texels, each coordinate wrapped once.
	xa, okxa := wrap(t.wrapS, x0, lw)
	xb, okxb := wrap(t.wrapS, x0+1, lw)
	ya, okya := wrap(t.wrapT, y0, lh)
	yb, okyb := wrap(t.wrapT, y0+1, lh)
	d := t.levels[l]
	texel := func(x int, okx bool, y int, oky bool) [4]uint8 {
		if !okx || !oky {
			return t.border
		}
		return t.texelAt(d, lw, lh, x, y)
	}
	c00, c10 := texel(xa, okxa, ya, okya), texel(xb, okxb, ya, okya)
	c01, c11 := texel(xa, okxa, yb, okyb), texel(xb, okxb, yb, okyb)
	var out [4]uint8
	for k := 0; k < 4; k++ {
		top := int(c00[k])*(256-fx) + int(c10[k])*fx
		bot := int(c01[k])*(256-fx) + int(c11[k])*fx
		out[k] = uint8((top*(256-fy) + bot*fy + 32768) >> 16)
	}
	return out
}

// lod computes the level of detail at a pixel whose interpolated 1/w is q
// and texture coordinates (u, v).
func (t *texUnit) lod(u, v, q float64, g *texGrad) float64 {
	if q == 0 {
		return 0
	}
	s, tt := u*float64(t.width), v*float64(t.height)
	dsx := (g.gsw[0] - s*g.gq[0]) / q
	dsy := (g.gsw[1] - s*g.gq[1]) / q
	dtx := (g.gtw[0] - tt*g.gq[0]) / q
	dty := (g.gtw[1] - tt*g.gq[1]) / q
	rho := max(math.Hypot(dsx, dtx), math.Hypot(dsy, dty))
	if rho == 0 || rho != rho {
		return math.Inf(-1)
	}
	return math.Log2(rho)
}

// sample filters the texture at (u, v) for a pixel with interpolated 1/w
// q, in a triangle with gradients g.
func (t *texUnit) sample(u, v, q float64, g *texGrad) [4]uint8 {
	if t.maxLevel == 0 && t.min == t.mag {
		// One level and one filter: the LOD cannot change the result.
		return t.filtered(0, t.mag, u, v)
	}
	lambda := t.lod(u, v, q, g) + t.bias
	if !(lambda > 0) {
		return t.filtered(0, t.mag, u, v)
	}
	lambda = max(float64(t.minLevel), min(float64(t.maxLevel), lambda))
	if t.maxLevel == 0 {
		return t.filtered(0, t.min, u, v)
	}
	if t.mip == 0 {
		// GL: the level nearest to lambda, ceil(lambda + 0.5) - 1.
		l := int(math.Ceil(lambda+0.5)) - 1
		return t.filtered(max(0, min(t.maxLevel, l)), t.min, u, v)
	}
	l0 := int(math.Floor(lambda))
	if l0 >= t.maxLevel {
		return t.filtered(t.maxLevel, t.min, u, v)
	}
	f := int(math.Round((lambda - float64(l0)) * 256))
	a, b := t.filtered(l0, t.min, u, v), t.filtered(l0+1, t.min, u, v)
	var out [4]uint8
	for k := range out {
		out[k] = uint8((int(a[k])*(256-f) + int(b[k])*f + 128) >> 8)
	}
	return out
}

// combine runs the six texture combiner stages (equations [OUT] citra's
// integer TEV, guide §2.2). Stage 0 reads "previous" as the primary colour
// and "previous buffer" as 0 (L1587); the combiner buffer starts as
// TEXENV_BUFFER_COLOR and takes stage k's output (k = 0-3) when bit 8+k
// (RGB) or 12+k (alpha) of TEXENV_UPDATE_BUFFER is set, one stage later
// ([OUT] citra). Fragment lighting is not simulated: its two colours read 0.
func (ps *pixelState) combine(primary [4]uint8, tex *[4][4]uint8) [4]uint8 {
	var src [16][4]uint8 // indexed by source code; undefined codes read 0
	src[0] = primary
	src[3], src[4], src[5] = tex[0], tex[1], tex[2]
	src[15] = primary
	next := ps.bufColor
	for s := 0; s < ps.tevActive; s++ {
		st := &ps.tev[s]
		src[14] = st.konst
		var rgb [3][3]int
		var alpha [3]int
		for k := uint(0); k < 3; k++ {
			rgb[k] = rgbOperand(st.op>>(4*k)&0xF, src[st.src>>(4*k)&0xF])
			alpha[k] = alphaOperand(st.op>>(12+4*k)&7, src[st.src>>(16+4*k)&0xF])
		}
		fnRGB, fnA := st.fn&0xF, st.fn>>16&0xF
		var out [4]uint8
		var res [3]int
		if fnRGB == 6 || fnRGB == 7 {
			d := 0
			for k := 0; k < 3; k++ {
				d += ((rgb[0][k]*2-255)*(rgb[1][k]*2-255) + 128) / 256
			}
			d = max(0, min(255, d))
			res = [3]int{d, d, d}
		} else {
			for k := 0; k < 3; k++ {
				res[k] = tevFunc(fnRGB, rgb[0][k], rgb[1][k], rgb[2][k])
			}
		}
		sr := scaleOf(st.scale & 3)
		for k := 0; k < 3; k++ {
			out[k] = uint8(min(255, res[k]*sr))
		}
		if fnRGB == 7 {
			out[3] = uint8(min(255, res[0]*sr))
		} else {
			sa := scaleOf(st.scale >> 16 & 3)
			out[3] = uint8(min(255, tevFunc(fnA, alpha[0], alpha[1], alpha[2])*sa))
		}
		src[13] = next // the buffer as it was before this stage's update
		if s < 4 {
			if ps.bufUpdate>>uint(s)&1 != 0 {
				next[0], next[1], next[2] = out[0], out[1], out[2]
			}
			if ps.bufUpdate>>(4+uint(s))&1 != 0 {
				next[3] = out[3]
			}
		}
		src[15] = out
	}
	return src[15]
}

// tevPass reports whether a stage outputs its "previous" input unchanged.
func tevPass(st *tevStage) bool {
	return st.src&0xF == 15 && st.src>>16&0xF == 15 && st.op&0xF == 0 && st.op>>12&7 == 0 &&
		st.fn == 0 && st.scale&3 != 1 && st.scale&3 != 2 && st.scale>>16&3 != 1 && st.scale>>16&3 != 2
}

func scaleOf(v uint32) int {
	switch v {
	case 1:
		return 2
	case 2:
		return 4
	}
	return 1
}

func rgbOperand(op uint32, c [4]uint8) [3]int {
	r, g, b, a := int(c[0]), int(c[1]), int(c[2]), int(c[3])
	switch op {
	case 0:
		return [3]int{r, g, b}
	case 1:
		return [3]int{255 - r, 255 - g, 255 - b}
	case 2:
		return [3]int{a, a, a}
	case 3:
		return [3]int{255 - a, 255 - a, 255 - a}
	case 4:
		return [3]int{r, r, r}
	case 5:
		return [3]int{255 - r, 255 - r, 255 - r}
	case 8:
		return [3]int{g, g, g}
	case 9:
		return [3]int{255 - g, 255 - g, 255 - g}
	case 12:
		return [3]int{b, b, b}
	case 13:
		return [3]int{255 - b, 255 - b, 255 - b}
	}
	return [3]int{}
}

func alphaOperand(op uint32, c [4]uint8) int {
	v := int(c[[4]int{3, 0, 1, 2}[op>>1]])
	if op&1 != 0 {
		return 255 - v
	}
	return v
}

// tevFunc is one combiner equation on 0-255 values.
func tevFunc(fn uint32, a, b, c int) int {
	switch fn {
	case 0:
		return a
	case 1:
		return a * b / 255
	case 2:
		return min(a+b, 255)
	case 3:
		return max(0, min(255, a+b-128))
	case 4:
		return (a*c + b*(255-c)) / 255
	case 5:
		return max(a-b, 0)
	case 8:
		return min((a*b+255*c)/255, 255)
	case 9:
		return min(a+b, 255) * c / 255
	case 6, 7:
		d := ((a*2-255)*(b*2-255) + 128) / 256
		return max(0, min(255, d))
	}
	return 0
}
