package compare

import (
	"image"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// img builds a w x h image from a function of the pixel.
func img(w, h int, f func(x, y int) color.NRGBA) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.SetNRGBA(x, y, f(x, y))
		}
	}
	return m
}

// edge is black left of column e, white from it.
func edge(e int) func(x, y int) color.NRGBA {
	return func(x, y int) color.NRGBA {
		if x < e {
			return color.NRGBA{0, 0, 0, 255}
		}
		return color.NRGBA{255, 255, 255, 255}
	}
}

func TestImages(t *testing.T) {
	flat := func(r, g, b uint8) func(x, y int) color.NRGBA {
		return func(x, y int) color.NRGBA { return color.NRGBA{r, g, b, 255} }
	}
	tests := []struct {
		name     string
		got, ref *image.NRGBA
		t        int
		want     Result
	}{
		{"identical", img(4, 4, edge(2)), img(4, 4, edge(2)), 0, Result{Bad: 0, Total: 16, Mean: 0, Max: 0}},
		{"within threshold", img(2, 2, flat(100, 100, 100)), img(2, 2, flat(110, 95, 100)), 10,
			Result{Bad: 0, Total: 4, Mean: 10, Max: 10}},
		{"beyond threshold", img(2, 2, flat(100, 100, 100)), img(2, 2, flat(111, 100, 100)), 10,
			Result{Bad: 4, Total: 4, Mean: 11, Max: 11}},
		// An edge one pixel off: 4 pixels differ by 255, but each has a
		// matching neighbour in the reference.
		{"edge moved one pixel", img(4, 4, edge(2)), img(4, 4, edge(3)), 8,
			Result{Bad: 0, Total: 16, Mean: 255 * 4 / 16.0, Max: 255}},
		// Two pixels off is wrong for the middle column.
		{"edge moved two pixels", img(5, 1, edge(1)), img(5, 1, edge(3)), 8,
			Result{Bad: 1, Total: 5, Mean: 255 * 2 / 5.0, Max: 255}},
		{"alpha ignored", img(1, 1, func(x, y int) color.NRGBA { return color.NRGBA{9, 9, 9, 0} }),
			img(1, 1, flat(9, 9, 9)), 0, Result{Bad: 0, Total: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Images(tc.got, tc.ref, tc.t)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestImagesSizeMismatch(t *testing.T) {
	_, err := Images(img(2, 2, edge(0)), img(3, 2, edge(0)), 0)
	assert.EqualError(t, err, "compare: image is 2x2, reference 3x2")
}

func TestResultPass(t *testing.T) {
	r := Result{Bad: 1, Total: 100, Mean: 1.25, Max: 40}
	assert.True(t, r.Pass(Tolerance{MaxBad: 0.01}))
	assert.False(t, r.Pass(Tolerance{MaxBad: 0.005}))
	assert.Equal(t, "bad 1.00%, mean 1.25, max 40", r.String())
	assert.Equal(t, Default, For("no-such-backend"))
	assert.Equal(t, 28, For("glamo3365").Threshold)
}

func TestDiffImage(t *testing.T) {
	got := img(3, 1, func(x, y int) color.NRGBA { return color.NRGBA{100, 100, 100, 255} })
	ref := img(3, 1, func(x, y int) color.NRGBA {
		return []color.NRGBA{{100, 100, 100, 255}, {150, 100, 100, 255}, {200, 100, 100, 255}}[x]
	})
	res, d, err := DiffImage(got, ref, 16)
	require.NoError(t, err)
	want, err := Images(got, ref, 16)
	require.NoError(t, err)
	assert.Equal(t, want, res, "the same figures as Images")
	// Pixel 1 differs by 50 but its neighbour in the reference matches;
	// pixel 2 differs by 100 with no match near: bad.
	assert.Equal(t, Result{Bad: 1, Total: 3, Mean: 50, Max: 100}, res)
	assert.Equal(t, []uint8{0, 0, 0, 255, 200, 200, 200, 255, 255, 0, 0, 255}, d.Pix, "grey 4d, bad pixels red")
	_, _, err = DiffImage(got, img(2, 1, edge(0)), 16)
	assert.ErrorContains(t, err, "reference 2x1")
}
