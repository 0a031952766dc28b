//go:build ignore

// gen_crate draws crate.png, the cube example's texture: a 128x128 wooden
// crate face (planks, a frame and a diagonal brace, with hashed grain), made
// procedurally so that the repository holds its source. Run from this
// directory: go run gen_crate.go
package main

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
)

// hash is a small integer hash (deterministic grain noise).
func hash(x, y int) float64 {
	h := uint32(x)*374761393 + uint32(y)*668265263
	h = (h ^ h>>13) * 1274126177
	return float64(h^h>>16) / float64(math.MaxUint32)
}

func main() {
	const n = 128
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			// Planks run horizontally, 16 texels high, with dark seams.
			grain := 0.8 + 0.2*math.Sin(float64(x)*0.35+6*hash(0, y/16)+2*math.Sin(float64(y)*0.7)) + 0.1*hash(x, y)
			r, g, b := 170*grain, 115*grain, 60*grain
			if y%16 == 0 {
				r, g, b = r*0.45, g*0.45, b*0.45
			}
			frame := x < 12 || x >= n-12 || y < 12 || y >= n-12
			brace := math.Abs(float64(x)-float64(y)) < 9
			if frame || brace {
				r, g, b = 200*grain, 150*grain, 85*grain
			}
			edge := x == 11 || x == n-12 || y == 11 || y == n-12 || (!frame && math.Abs(math.Abs(float64(x)-float64(y))-9) < 1)
			if edge || x == 0 || y == 0 || x == n-1 || y == n-1 {
				r, g, b = r*0.4, g*0.4, b*0.4
			}
			// Nail heads in the frame corners.
			for _, c := range [][2]int{{6, 6}, {n - 7, 6}, {6, n - 7}, {n - 7, n - 7}} {
				if dx, dy := x-c[0], y-c[1]; dx*dx+dy*dy <= 4 {
					r, g, b = 70, 70, 75
				}
			}
			img.Set(x, y, color.NRGBA{uint8(min(r, 255)), uint8(min(g, 255)), uint8(min(b, 255)), 255})
		}
	}
	f, err := os.Create("crate.png")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		panic(err)
	}
}
