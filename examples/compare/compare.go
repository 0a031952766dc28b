// Package compare measures how far an example image is from its Mesa
// reference, with a tolerance per backend that reflects its chip.
//
// # Metric
//
// For each pixel, d is the largest absolute difference of the red, green
// and blue channels (0..255; alpha is ignored, as not every surface has
// it). A pixel is bad when d exceeds the threshold T and no pixel of the
// reference's 3x3 neighbourhood is within T of it either: an edge that a
// chip's sub-pixel precision or fill rule moves by one pixel is not bad, a
// wrong colour is. The figure is the fraction of bad pixels; an image
// passes when it is at most MaxBad. The mean and the largest d are reported
// beside it, to show how close the passing images are.
package compare

import (
	"fmt"
	"image"
)

// Tolerance is how far a backend's image may be from the reference.
type Tolerance struct {
	// Threshold is T: the per-channel difference a pixel may have.
	Threshold int
	// MaxBad is the fraction of bad pixels an image may have.
	MaxBad float64
	// Why says what on the chip makes the difference.
	Why string
}

// tolerances are the chips' tolerances. Mesa's softpipe renders with
// 8-bit colour, no dithering, float texture filtering and per-pixel fog;
// each chip differs from it in the ways its Why names.
var tolerances = map[string]Tolerance{
	"pspge": {Threshold: 16, MaxBad: 0.01,
		Why: "8-bit colour here, but 8-bit texture filter weights, float24 vertex maths and per-vertex fog"},
	"glamo3365": {Threshold: 28, MaxBad: 0.02,
		Why: "16-bit RGB565 colour with ordered dithering (a 5-bit step is 8.2), s7.16 fixed-point transform"},
	"pica200": {Threshold: 16, MaxBad: 0.01,
		Why: "float24 shader arithmetic, 8-bit combiner and LUT-based lighting"},
	"unichrome": {Threshold: 28, MaxBad: 0.02,
		Why: "16-bit colour with dithering on the 565 surfaces, fixed-point setup, 4 hardware lights"},
	"r300": {Threshold: 12, MaxBad: 0.01,
		Why: "FP24 fragment arithmetic; otherwise close to Mesa's float pipeline"},
	"r300-notcl": {Threshold: 12, MaxBad: 0.01,
		Why: "FP24 fragment arithmetic; vertices on the CPU in float32; otherwise close to Mesa's float pipeline"},
}

// Default is the tolerance of a backend with no entry.
var Default = Tolerance{Threshold: 16, MaxBad: 0.01, Why: "no chip-specific tolerance"}

// For returns the tolerance of a backend.
func For(backend string) Tolerance {
	if t, ok := tolerances[backend]; ok {
		return t
	}
	return Default
}

// Result is the comparison of one image with its reference.
type Result struct {
	// Bad is the number of bad pixels, Total the number of pixels.
	Bad, Total int
	// Mean is the mean of d over all pixels; Max the largest d.
	Mean float64
	Max  int
}

// BadFraction is Bad / Total.
func (r Result) BadFraction() float64 {
	if r.Total == 0 {
		return 0
	}
	return float64(r.Bad) / float64(r.Total)
}

// Pass reports whether the result is within tol.
func (r Result) Pass(tol Tolerance) bool { return r.BadFraction() <= tol.MaxBad }

// String formats the figures: "bad 0.31%, mean 1.2, max 87".
func (r Result) String() string {
	return fmt.Sprintf("bad %.2f%%, mean %.2f, max %d", 100*r.BadFraction(), r.Mean, r.Max)
}

// Images compares got with ref using threshold t (see the package doc).
func Images(got, ref image.Image, t int) (Result, error) {
	res, _, err := compare(got, ref, t, false)
	return res, err
}

// DiffImage compares got with ref as Images does and also returns the
// difference image: each pixel's d as grey (amplified four times, so a
// difference of 64 is white) and the bad pixels in red.
func DiffImage(got, ref image.Image, t int) (Result, *image.NRGBA, error) {
	return compare(got, ref, t, true)
}

func compare(got, ref image.Image, t int, withImage bool) (Result, *image.NRGBA, error) {
	gb, rb := got.Bounds(), ref.Bounds()
	if gb.Dx() != rb.Dx() || gb.Dy() != rb.Dy() {
		return Result{}, nil, fmt.Errorf("compare: image is %dx%d, reference %dx%d", gb.Dx(), gb.Dy(), rb.Dx(), rb.Dy())
	}
	w, h := gb.Dx(), gb.Dy()
	g, r := rgb(got), rgb(ref)
	res := Result{Total: w * h}
	var img *image.NRGBA
	if withImage {
		img = image.NewNRGBA(image.Rect(0, 0, w, h))
	}
	sum := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := 3 * (y*w + x)
			d := diff(g[i:i+3], r[i:i+3])
			sum += d
			res.Max = max(res.Max, d)
			bad := d > t && !near(g[i:i+3], r, w, h, x, y, t)
			if bad {
				res.Bad++
			}
			if img != nil {
				o := img.PixOffset(x, y)
				v := uint8(min(255, 4*d))
				if bad {
					img.Pix[o], img.Pix[o+1], img.Pix[o+2] = 255, 0, 0
				} else {
					img.Pix[o], img.Pix[o+1], img.Pix[o+2] = v, v, v
				}
				img.Pix[o+3] = 255
			}
		}
	}
	if res.Total > 0 {
		res.Mean = float64(sum) / float64(res.Total)
	}
	return res, img, nil
}

// near reports whether a pixel of ref's 3x3 neighbourhood of (x, y) is
// within t of c.
func near(c, ref []uint8, w, h, x, y, t int) bool {
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			nx, ny := x+dx, y+dy
			if nx < 0 || ny < 0 || nx >= w || ny >= h {
				continue
			}
			j := 3 * (ny*w + nx)
			if diff(c, ref[j:j+3]) <= t {
				return true
			}
		}
	}
	return false
}

func diff(a, b []uint8) int {
	d := 0
	for k := 0; k < 3; k++ {
		v := int(a[k]) - int(b[k])
		if v < 0 {
			v = -v
		}
		d = max(d, v)
	}
	return d
}

// rgb returns the image's pixels as packed 8-bit RGB, top row first
// (colour over an opaque background is what a surface shows: alpha is
// dropped, not applied).
func rgb(img image.Image) []uint8 {
	b := img.Bounds()
	out := make([]uint8, 0, 3*b.Dx()*b.Dy())
	if n, ok := img.(*image.NRGBA); ok {
		for y := 0; y < b.Dy(); y++ {
			row := n.Pix[y*n.Stride:]
			for x := 0; x < b.Dx(); x++ {
				out = append(out, row[4*x], row[4*x+1], row[4*x+2])
			}
		}
		return out
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.At(x, y)
			r, g, bb, a := c.RGBA()
			if a != 0 && a != 0xffff { // un-premultiply
				r, g, bb = r*0xffff/a, g*0xffff/a, bb*0xffff/a
			}
			out = append(out, uint8(r>>8), uint8(g>>8), uint8(bb>>8))
		}
	}
	return out
}
