package main

import (
	"bytes"
	"image"
	"image/color"
	"image/png"

	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/tools/frame"
)

// surfaceImage renders a surface as it is shown: colours as they are
// (textures with their alpha), depth and stencil as grey from the smallest
// value present (black) to the largest (white), so that a depth buffer
// cleared to its far value and a stencil holding 0 and 1 both show their
// shapes; a surface holding one value is mid-grey.
func surfaceImage(s *frame.SurfaceView) image.Image {
	p := s.Picture
	if p == nil {
		return nil
	}
	if p.Image != nil {
		return p.Image
	}
	img := image.NewGray(image.Rect(0, 0, s.Width, s.Height))
	if len(p.Values) == 0 {
		return img
	}
	lo, hi := p.Values[0], p.Values[0]
	for _, v := range p.Values {
		lo, hi = min(lo, v), max(hi, v)
	}
	for i, v := range p.Values {
		g := uint8(128)
		if hi > lo {
			g = uint8(uint64(v-lo) * 255 / uint64(hi-lo))
		}
		img.Pix[i] = g
	}
	return img
}

// changedImage is the surface image with the pixels the draw changed
// tinted magenta and the others darkened.
func changedImage(s *frame.SurfaceView) image.Image {
	base := surfaceImage(s)
	if base == nil {
		return nil
	}
	b := base.Bounds()
	out := image.NewNRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(base.At(x, y)).(color.NRGBA)
			i := (y-b.Min.Y)*s.Width + (x - b.Min.X)
			if i < len(s.Changed) && s.Changed[i] {
				c = color.NRGBA{uint8((uint16(c.R) + 255) / 2), c.G / 3, uint8((uint16(c.B) + 255) / 2), 255}
			} else {
				c = color.NRGBA{c.R / 3, c.G / 3, c.B / 3, 255}
			}
			out.SetNRGBA(x, y, c)
		}
	}
	return out
}

// encodePNG encodes an image.
func encodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// isTarget reports whether a surface is a render target.
func isTarget(k hal.SurfaceKind) bool { return k != hal.SurfaceTexture }
