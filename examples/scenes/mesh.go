package scenes

import (
	"image"
	"image/draw"

	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// cubeFaces are the six faces of the unit cube [-1,1]^3: the outward
// normal and the four corners counter-clockwise seen from outside, starting
// at the face's bottom left.
var cubeFaces = [6]struct {
	normal  [3]float32
	corners [4][3]float32
}{
	{[3]float32{0, 0, 1}, [4][3]float32{{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}}},      // front
	{[3]float32{0, 0, -1}, [4][3]float32{{1, -1, -1}, {-1, -1, -1}, {-1, 1, -1}, {1, 1, -1}}}, // back
	{[3]float32{1, 0, 0}, [4][3]float32{{1, -1, 1}, {1, -1, -1}, {1, 1, -1}, {1, 1, 1}}},      // right
	{[3]float32{-1, 0, 0}, [4][3]float32{{-1, -1, -1}, {-1, -1, 1}, {-1, 1, 1}, {-1, 1, -1}}}, // left
	{[3]float32{0, 1, 0}, [4][3]float32{{-1, 1, 1}, {1, 1, 1}, {1, 1, -1}, {-1, 1, -1}}},      // top
	{[3]float32{0, -1, 0}, [4][3]float32{{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}}}, // bottom
}

// cube is a cube's vertex arrays: four vertices per face so that each face
// has its own normal, texture coordinates and colour.
type cube struct {
	pos, normal, tex, color []float32
	index                   []uint16
}

// newCube builds the cube; faceColor gives each face's RGBA colour.
func newCube(faceColor func(face int) [4]float32) cube {
	var c cube
	uv := [4][2]float32{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
	for f, face := range cubeFaces {
		base := uint16(len(c.pos) / 3)
		col := faceColor(f)
		for i, p := range face.corners {
			c.pos = append(c.pos, p[:]...)
			c.normal = append(c.normal, face.normal[:]...)
			c.tex = append(c.tex, uv[i][:]...)
			c.color = append(c.color, col[:]...)
		}
		c.index = append(c.index, base, base+1, base+2, base, base+2, base+3)
	}
	return c
}

// grid is a w x d grid of unit tiles in the y = 0 plane from (x0, z0)
// towards +x and -z, each tile with its own four vertices so that tiles can
// have their own colours (a checkerboard).
type grid struct {
	pos, color []float32
	index      []uint16
}

func newGrid(x0, z0 float32, w, d int, tile func(i, j int) [4]float32) grid {
	var g grid
	for j := 0; j < d; j++ {
		for i := 0; i < w; i++ {
			base := uint16(len(g.pos) / 3)
			x, z := x0+float32(i), z0-float32(j)
			g.pos = append(g.pos, x, 0, z, x+1, 0, z, x+1, 0, z-1, x, 0, z-1)
			c := tile(i, j)
			for k := 0; k < 4; k++ {
				g.color = append(g.color, c[:]...)
			}
			g.index = append(g.index, base, base+1, base+2, base, base+2, base+3)
		}
	}
	return g
}

// perspective sets a symmetric frustum with the given vertical half-height
// at the near plane, for the surface's aspect ratio.
func perspective(ctx trace.GL, halfH, near, far, aspect float32) {
	ctx.MatrixMode(gles.PROJECTION)
	ctx.LoadIdentity()
	ctx.Frustumf(-halfH*aspect, halfH*aspect, -halfH, halfH, near, far)
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.LoadIdentity()
}

// glRows returns an image's pixels as GL wants them for TexImage2D: rows
// bottom to top, tightly packed, RGB or RGBA bytes.
func glRows(img image.Image, alpha bool) (w, h int, pix []byte) {
	b := img.Bounds()
	rgba := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	w, h = b.Dx(), b.Dy()
	bpp := 3
	if alpha {
		bpp = 4
	}
	pix = make([]byte, 0, w*h*bpp)
	for y := h - 1; y >= 0; y-- {
		row := rgba.Pix[y*rgba.Stride : y*rgba.Stride+4*w]
		for x := 0; x < w; x++ {
			pix = append(pix, row[4*x:4*x+bpp]...)
		}
	}
	return w, h, pix
}

// halve box-filters a tightly packed w x h image of bpp-byte texels to
// half size (at least 1x1), each output the rounded mean of its 2x2 block.
func halve(pix []byte, w, h, bpp int) (nw, nh int, out []byte) {
	nw, nh = max(w/2, 1), max(h/2, 1)
	out = make([]byte, nw*nh*bpp)
	for y := 0; y < nh; y++ {
		for x := 0; x < nw; x++ {
			for c := 0; c < bpp; c++ {
				sum, n := 0, 0
				for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
					sx, sy := min(2*x+d[0], w-1), min(2*y+d[1], h-1)
					sum += int(pix[(sy*w+sx)*bpp+c])
					n++
				}
				out[(y*nw+x)*bpp+c] = byte((sum + n/2) / n)
			}
		}
	}
	return nw, nh, out
}
