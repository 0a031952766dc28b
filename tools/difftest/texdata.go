package difftest

import (
	"math"
	"math/rand/v2"

	"github.com/retrogl/retrogl/gles"
)

// fimage is an RGBA image of floats in [0, 1], top row first as GL stores
// texture rows (row 0 is t = 0).
type fimage struct {
	w, h int
	px   [][4]float32
}

// pattern draws a smooth, low-frequency image: the differences the tester
// looks for are wrong colours, not the texel a filter picks at a sharp
// edge, which legitimately differs with the implementation's sub-texel
// precision.
func pattern(r *rand.Rand, w, h int) fimage {
	im := fimage{w: w, h: h, px: make([][4]float32, w*h)}
	var corner [4][4]float32
	for i := range corner {
		corner[i] = randColor(r, 0.6)
	}
	kind := r.IntN(4)
	cells := 2 + r.IntN(3)
	freq := 0.5 + r.Float32()*1.5
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			u := (float32(x) + 0.5) / float32(w)
			v := (float32(y) + 0.5) / float32(h)
			var c [4]float32
			switch kind {
			case 0: // bilinear gradient between four colours
				for k := range c {
					c[k] = (1-u)*(1-v)*corner[0][k] + u*(1-v)*corner[1][k] + (1-u)*v*corner[2][k] + u*v*corner[3][k]
				}
			case 1: // checker of cells x cells
				cx, cy := int(u*float32(cells)), int(v*float32(cells))
				c = corner[(cx+cy)%2]
			case 2: // radial
				d := float32(math.Hypot(float64(u-0.5), float64(v-0.5))) * 2
				d = min(d, 1)
				for k := range c {
					c[k] = (1-d)*corner[0][k] + d*corner[1][k]
				}
			default: // waves
				s := 0.5 + 0.5*float32(math.Sin(float64(2*math.Pi*freq*(u+0.5*v))))
				for k := range c {
					c[k] = (1-s)*corner[2][k] + s*corner[3][k]
				}
			}
			im.px[y*w+x] = c
		}
	}
	return im
}

// randColor returns a colour whose alpha is at least minAlpha.
func randColor(r *rand.Rand, minAlpha float32) [4]float32 {
	return [4]float32{r.Float32(), r.Float32(), r.Float32(), minAlpha + (1-minAlpha)*r.Float32()}
}

// half is the next mipmap level: a 2x2 box filter (a 1-texel side stays).
func (im fimage) half() fimage {
	w, h := max(im.w/2, 1), max(im.h/2, 1)
	out := fimage{w: w, h: h, px: make([][4]float32, w*h)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var sum [4]float32
			n := float32(0)
			for dy := 0; dy < 2; dy++ {
				for dx := 0; dx < 2; dx++ {
					sx, sy := min(2*x+dx, im.w-1), min(2*y+dy, im.h-1)
					if (im.w == 1 && dx == 1) || (im.h == 1 && dy == 1) {
						continue
					}
					p := im.px[sy*im.w+sx]
					for k := range sum {
						sum[k] += p[k]
					}
					n++
				}
			}
			for k := range sum {
				sum[k] /= n
			}
			out.px[y*w+x] = sum
		}
	}
	return out
}

func q(v float32, maxv int) int {
	return int(math.Round(float64(min(max(v, 0), 1) * float32(maxv))))
}

// texFormat is a TexImage2D format and type pair of GL ES 1.1 (table 3.4).
type texFormat struct {
	format, typ gles.Enum
}

var texFormats = []texFormat{
	{gles.RGBA, gles.UNSIGNED_BYTE},
	{gles.RGB, gles.UNSIGNED_BYTE},
	{gles.RGBA, gles.UNSIGNED_SHORT_4_4_4_4},
	{gles.RGBA, gles.UNSIGNED_SHORT_5_5_5_1},
	{gles.RGB, gles.UNSIGNED_SHORT_5_6_5},
	{gles.LUMINANCE_ALPHA, gles.UNSIGNED_BYTE},
	{gles.LUMINANCE, gles.UNSIGNED_BYTE},
	{gles.ALPHA, gles.UNSIGNED_BYTE},
}

func (f texFormat) family() Family {
	switch {
	case f.typ != gles.UNSIGNED_BYTE:
		return FamTex16
	case f.format == gles.RGB || f.format == gles.RGBA:
		return FamTexRGBA8
	}
	return FamTexLumAlpha
}

// bytesPerPixel of a format and type.
func (f texFormat) bytesPerPixel() int {
	if f.typ != gles.UNSIGNED_BYTE {
		return 2
	}
	switch f.format {
	case gles.RGBA:
		return 4
	case gles.RGB:
		return 3
	case gles.LUMINANCE_ALPHA:
		return 2
	}
	return 1
}

// encode packs im as format f with rows padded to align bytes.
func (f texFormat) encode(im fimage, align int) []byte {
	bpp := f.bytesPerPixel()
	stride := (im.w*bpp + align - 1) / align * align
	out := make([]byte, stride*(im.h-1)+im.w*bpp)
	for y := 0; y < im.h; y++ {
		row := out[y*stride:]
		for x := 0; x < im.w; x++ {
			p := im.px[y*im.w+x]
			lum := (p[0] + p[1] + p[2]) / 3
			o := row[x*bpp:]
			switch {
			case f.typ == gles.UNSIGNED_SHORT_5_6_5:
				v := q(p[0], 31)<<11 | q(p[1], 63)<<5 | q(p[2], 31)
				o[0], o[1] = byte(v), byte(v>>8)
			case f.typ == gles.UNSIGNED_SHORT_4_4_4_4:
				v := q(p[0], 15)<<12 | q(p[1], 15)<<8 | q(p[2], 15)<<4 | q(p[3], 15)
				o[0], o[1] = byte(v), byte(v>>8)
			case f.typ == gles.UNSIGNED_SHORT_5_5_5_1:
				v := q(p[0], 31)<<11 | q(p[1], 31)<<6 | q(p[2], 31)<<1 | q(p[3], 1)
				o[0], o[1] = byte(v), byte(v>>8)
			case f.format == gles.RGBA:
				o[0], o[1], o[2], o[3] = byte(q(p[0], 255)), byte(q(p[1], 255)), byte(q(p[2], 255)), byte(q(p[3], 255))
			case f.format == gles.RGB:
				o[0], o[1], o[2] = byte(q(p[0], 255)), byte(q(p[1], 255)), byte(q(p[2], 255))
			case f.format == gles.LUMINANCE_ALPHA:
				o[0], o[1] = byte(q(lum, 255)), byte(q(p[3], 255))
			case f.format == gles.LUMINANCE:
				o[0] = byte(q(lum, 255))
			default: // ALPHA
				o[0] = byte(q(p[3], 255))
			}
		}
	}
	return out
}

// palFormat is an OES_compressed_paletted_texture format.
type palFormat struct {
	format gles.Enum
	bits   int // index bits: 4 or 8
	bpe    int // bytes per palette entry
	alpha  bool
}

var palFormats = []palFormat{
	{gles.PALETTE4_RGB8_OES, 4, 3, false},
	{gles.PALETTE4_RGBA8_OES, 4, 4, true},
	{gles.PALETTE4_R5_G6_B5_OES, 4, 2, false},
	{gles.PALETTE4_RGBA4_OES, 4, 2, true},
	{gles.PALETTE4_RGB5_A1_OES, 4, 2, true},
	{gles.PALETTE8_RGB8_OES, 8, 3, false},
	{gles.PALETTE8_RGBA8_OES, 8, 4, true},
	{gles.PALETTE8_R5_G6_B5_OES, 8, 2, false},
	{gles.PALETTE8_RGBA4_OES, 8, 2, true},
	{gles.PALETTE8_RGB5_A1_OES, 8, 2, true},
}

// paletted builds the data of a paletted texture of levels levels: the
// palette is a ramp between random colours and each texel's index follows
// the image's luminance, so the texture stays smooth.
func (p palFormat) data(r *rand.Rand, im fimage, levels int) []byte {
	n := 1 << p.bits
	a, b, c := randColor(r, 0.3), randColor(r, 0.3), randColor(r, 0.3)
	var out []byte
	for i := 0; i < n; i++ {
		t := float32(i) / float32(n-1)
		var e [4]float32
		for k := range e {
			if t < 0.5 {
				e[k] = (1-2*t)*a[k] + 2*t*b[k]
			} else {
				e[k] = (2-2*t)*b[k] + (2*t-1)*c[k]
			}
		}
		switch p.format {
		case gles.PALETTE4_RGB8_OES, gles.PALETTE8_RGB8_OES:
			out = append(out, byte(q(e[0], 255)), byte(q(e[1], 255)), byte(q(e[2], 255)))
		case gles.PALETTE4_RGBA8_OES, gles.PALETTE8_RGBA8_OES:
			out = append(out, byte(q(e[0], 255)), byte(q(e[1], 255)), byte(q(e[2], 255)), byte(q(e[3], 255)))
		case gles.PALETTE4_R5_G6_B5_OES, gles.PALETTE8_R5_G6_B5_OES:
			v := q(e[0], 31)<<11 | q(e[1], 63)<<5 | q(e[2], 31)
			out = append(out, byte(v), byte(v>>8))
		case gles.PALETTE4_RGBA4_OES, gles.PALETTE8_RGBA4_OES:
			v := q(e[0], 15)<<12 | q(e[1], 15)<<8 | q(e[2], 15)<<4 | q(e[3], 15)
			out = append(out, byte(v), byte(v>>8))
		default:
			v := q(e[0], 31)<<11 | q(e[1], 31)<<6 | q(e[2], 31)<<1 | q(e[3], 1)
			out = append(out, byte(v), byte(v>>8))
		}
	}
	for l := 0; l < levels; l++ {
		if l > 0 {
			im = im.half()
		}
		idx := make([]int, im.w*im.h)
		for i, px := range im.px {
			idx[i] = q((px[0]+px[1]+px[2])/3, n-1)
		}
		if p.bits == 8 {
			for _, v := range idx {
				out = append(out, byte(v))
			}
			continue
		}
		for i := 0; i < len(idx); i += 2 {
			v := idx[i] << 4 // first texel in the high nibble
			if i+1 < len(idx) {
				v |= idx[i+1]
			}
			out = append(out, byte(v))
		}
	}
	return out
}

// etc1 encodes im as ETC1 blocks: each 4x4 block takes its average colour
// as base, a small modifier table and random pixel indices. Differential
// blocks keep base+delta inside 0..31: a decoder of ETC2 (which Mesa uses
// for ETC1) reads an overflowing one as another mode.
func etc1(r *rand.Rand, im fimage) []byte {
	bw, bh := (im.w+3)/4, (im.h+3)/4
	out := make([]byte, 0, 8*bw*bh)
	for by := 0; by < bh; by++ {
		for bx := 0; bx < bw; bx++ {
			var avg [3]float32
			n := float32(0)
			for y := by * 4; y < min(by*4+4, im.h); y++ {
				for x := bx * 4; x < min(bx*4+4, im.w); x++ {
					for k := 0; k < 3; k++ {
						avg[k] += im.px[y*im.w+x][k]
					}
					n++
				}
			}
			for k := range avg {
				avg[k] /= n
			}
			var hi uint32
			if r.IntN(2) == 0 { // individual: two 4-bit base colours
				for k := 0; k < 3; k++ {
					c1 := q(avg[k], 15)
					c2 := min(max(c1+r.IntN(3)-1, 0), 15)
					hi |= uint32(c1<<4|c2) << (24 - 8*k)
				}
			} else { // differential: 5-bit base and a 3-bit signed delta
				hi |= 2
				for k := 0; k < 3; k++ {
					c1 := q(avg[k], 31)
					d := r.IntN(5) - 2
					d = min(max(c1+d, 0), 31) - c1
					hi |= uint32(c1<<3|(d&7)) << (24 - 8*k)
				}
			}
			hi |= uint32(r.IntN(3))<<5 | uint32(r.IntN(3))<<2 | uint32(r.IntN(2))
			lo := r.Uint32()
			out = append(out, byte(hi>>24), byte(hi>>16), byte(hi>>8), byte(hi), byte(lo>>24), byte(lo>>16), byte(lo>>8), byte(lo))
		}
	}
	return out
}
