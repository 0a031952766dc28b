package r300_test

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

var update = flag.Bool("update", false, "rewrite golden files")

// scene is one feature group's drawing.
type scene struct {
	name           string
	w, h           int
	depth, stencil int
	draw           func(c *gles.Context)
	format         driver.PixelFormat
}

// renderOn draws a scene on a backend (r300 or r300-notcl) with a capture
// and returns the image and the listing of every submitted command buffer.
func renderOn(t *testing.T, backend string, sc scene) (*image.NRGBA, []string) {
	t.Helper()
	var capture bytes.Buffer
	c, err := gles.NewContext(backend, gles.Config{Width: sc.w, Height: sc.h, Format: sc.format, DepthBits: sc.depth, StencilBits: sc.stencil, Capture: &capture})
	require.NoError(t, err)
	sc.draw(c)
	c.Finish()
	img := c.Image().(*image.NRGBA)
	require.NoError(t, c.Err())
	require.NoError(t, c.Close())
	return img, listing(t, &capture)
}

// listing decodes the submitted buffers of a capture.
func listing(t *testing.T, r io.Reader) []string {
	t.Helper()
	cr, err := hal.NewCaptureReader(r)
	require.NoError(t, err)
	writes := map[uint32][]byte{}
	var out []string
	n := 0
	for {
		rec, err := cr.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		switch rec.Kind {
		case hal.RecWrite:
			writes[rec.Addr] = rec.Data
		case hal.RecSubmit:
			buf := writes[rec.Addr]
			require.Len(t, buf, int(rec.Size), "submission %d is one upload", n)
			out = append(out, fmt.Sprintf("; submission %d", n))
			out = append(out, r3.Listing(buf, rec.Addr)...)
			n++
		}
	}
	return out
}

func goldenPath(name, ext string) string {
	return filepath.Join("..", "..", "testdata", "r300", name+ext)
}

// checkGolden compares a scene's image and listing with the goldens.
func checkGolden(t *testing.T, name string, img *image.NRGBA, lines []string) {
	t.Helper()
	text := strings.Join(lines, "\n") + "\n"
	pngPath, txtPath := goldenPath(name, ".png"), goldenPath(name, ".golden")
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(pngPath), 0o755))
		var b bytes.Buffer
		require.NoError(t, png.Encode(&b, img))
		require.NoError(t, os.WriteFile(pngPath, b.Bytes(), 0o644))
		require.NoError(t, os.WriteFile(txtPath, []byte(text), 0o644))
	}
	want, err := os.ReadFile(txtPath)
	require.NoError(t, err, "run go test -update")
	assert.Equal(t, string(want), text, "listing %s", txtPath)
	f, err := os.Open(pngPath)
	require.NoError(t, err)
	defer f.Close()
	ref, err := png.Decode(f)
	require.NoError(t, err)
	b := ref.Bounds()
	require.Equal(t, img.Bounds(), b)
	diff := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := ref.At(x, y).RGBA()
			r2, g2, b2, a2 := img.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				diff++
			}
		}
	}
	assert.Zero(t, diff, "%d pixels differ from %s", diff, pngPath)
}

// pixelOrtho sets an orthographic projection in window pixels.
func pixelOrtho(c *gles.Context, w, h int) {
	c.Viewport(0, 0, w, h)
	c.MatrixMode(gles.PROJECTION)
	c.LoadIdentity()
	c.Orthof(0, float32(w), 0, float32(h), -1, 1)
	c.MatrixMode(gles.MODELVIEW)
	c.LoadIdentity()
}

// quad draws an axis-aligned rectangle in window pixels with texture
// coordinates 0..s, 0..t on every enabled array.
func quad(c *gles.Context, x0, y0, x1, y1, z, s, t float32) {
	pos := []float32{x0, y0, z, x1, y0, z, x1, y1, z, x0, y1, z}
	tc := []float32{0, 0, s, 0, s, t, 0, t}
	c.EnableClientState(gles.VERTEX_ARRAY)
	c.VertexPointer(3, gles.FLOAT, 0, pos)
	for u := 0; u < 2; u++ {
		c.ClientActiveTexture(gles.TEXTURE0 + gles.Enum(u))
		c.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		c.TexCoordPointer(2, gles.FLOAT, 0, tc)
	}
	c.ClientActiveTexture(gles.TEXTURE0)
	c.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
}

// checker is an n x n RGBA8 texture: 4-texel squares alternating a colour
// with alpha ramping along x.
func checker(n int, a, b [3]uint8) []byte {
	p := make([]byte, 4*n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			c := a
			if (x/4+y/4)%2 == 1 {
				c = b
			}
			copy(p[4*(y*n+x):], c[:])
			p[4*(y*n+x)+3] = uint8(255 * x / (n - 1))
		}
	}
	return p
}

func texture(c *gles.Context, unit int, n int, data []byte, filter gles.Enum) uint32 {
	c.ActiveTexture(gles.TEXTURE0 + gles.Enum(unit))
	id := c.GenTextures(1)[0]
	c.BindTexture(gles.TEXTURE_2D, id)
	c.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, n, n, 0, gles.RGBA, gles.UNSIGNED_BYTE, data)
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(filter))
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(filter))
	c.Enable(gles.TEXTURE_2D)
	c.ActiveTexture(gles.TEXTURE0)
	return id
}
