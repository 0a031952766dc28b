package r300_test

import (
	"bytes"
	"image"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
)

// fboEnv is a GL ES 2.0 context with a flat-colour, a texturing and a
// gradient program, all reading attribute 0 as the position.
type fboEnv struct {
	t               testing.TB
	c               *gles.Context
	flat, tex, grad uint32
	col, tsamp      int
}

const (
	flatVS = "attribute vec4 pos;\nvoid main() { gl_Position = pos; gl_PointSize = 6.0; }\n"
	flatFS = "precision mediump float;\nuniform vec4 col;\nvoid main() { gl_FragColor = col; }\n"
	texVS  = "attribute vec4 pos;\nattribute vec2 tc;\nvarying vec2 uv;\nvoid main() { gl_Position = pos; uv = tc; }\n"
	texFS  = "precision mediump float;\nuniform sampler2D s;\nvarying vec2 uv;\nvoid main() { gl_FragColor = texture2D(s, uv); }\n"
	gradFS = "precision mediump float;\nvarying vec2 uv;\nvoid main() { gl_FragColor = vec4(uv, 1.0 - uv.x, 1.0); }\n"
)

func newFBOEnv(t testing.TB, w, h int, cfg gles.Config) *fboEnv {
	t.Helper()
	cfg.Width, cfg.Height, cfg.ES2 = w, h, true
	c, err := gles.NewContext("r300", cfg)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	e := &fboEnv{t: t, c: c}
	link := func(vs, fs string) uint32 {
		p, log := es2Program(t, c, vs, fs)
		require.Equal(t, 1, c.GetProgramiv(p, gles.LINK_STATUS), log)
		c.BindAttribLocation(p, 0, "pos")
		c.BindAttribLocation(p, 1, "tc")
		c.LinkProgram(p)
		return p
	}
	e.flat, e.tex, e.grad = link(flatVS, flatFS), link(texVS, texFS), link(texVS, gradFS)
	e.col = c.GetUniformLocation(e.flat, "col")
	e.tsamp = c.GetUniformLocation(e.tex, "s")
	c.EnableVertexAttribArray(0)
	c.Disable(gles.DITHER)
	return e
}

// quad draws a rectangle in normalised device coordinates at depth z
// with the flat program in colour col.
func (e *fboEnv) quad(x0, y0, x1, y1, z float32, col [4]float32) {
	e.c.UseProgram(e.flat)
	e.c.Uniform4f(e.col, col[0], col[1], col[2], col[3])
	e.c.VertexAttribPointer(0, 3, gles.FLOAT, false, 0, []float32{x0, y0, z, x1, y0, z, x0, y1, z, x1, y1, z})
	e.c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
}

// textured draws a rectangle sampling texture unit 0 over the whole
// texture.
func (e *fboEnv) textured(x0, y0, x1, y1 float32) {
	e.c.UseProgram(e.tex)
	e.c.Uniform1i(e.tsamp, 0)
	e.c.VertexAttribPointer(0, 3, gles.FLOAT, false, 0, []float32{x0, y0, 0, x1, y0, 0, x0, y1, 0, x1, y1, 0})
	e.c.VertexAttribPointer(1, 2, gles.FLOAT, false, 0, []float32{0, 0, 1, 0, 0, 1, 1, 1})
	e.c.EnableVertexAttribArray(1)
	e.c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
	e.c.DisableVertexAttribArray(1)
}

func (e *fboEnv) pixel(x, y int) [4]byte {
	var p [4]byte
	e.c.ReadPixels(x, y, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, p[:])
	return p
}

// image reads the bound framebuffer, top row first.
func (e *fboEnv) image(w, h int) *image.NRGBA {
	pix := make([]byte, 4*w*h)
	e.c.ReadPixels(0, 0, w, h, gles.RGBA, gles.UNSIGNED_BYTE, pix)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		copy(img.Pix[(h-1-y)*img.Stride:], pix[4*w*y:4*w*(y+1)])
	}
	return img
}

// newTexture makes a w x h texture bound to unit 0 with nearest
// filtering and edge clamping.
func (e *fboEnv) newTexture(format, typ gles.Enum, w, h int, data []byte) uint32 {
	c := e.c
	c.ActiveTexture(gles.TEXTURE0)
	id := c.GenTextures(1)[0]
	c.BindTexture(gles.TEXTURE_2D, id)
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_S, int(gles.CLAMP_TO_EDGE))
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_T, int(gles.CLAMP_TO_EDGE))
	c.TexImage2D(gles.TEXTURE_2D, 0, format, w, h, 0, format, typ, data)
	return id
}

// newRenderbuffer makes renderbuffer storage.
func (e *fboEnv) newRenderbuffer(format gles.Enum, w, h int) uint32 {
	id := e.c.GenRenderbuffers(1)[0]
	e.c.BindRenderbuffer(gles.RENDERBUFFER, id)
	e.c.RenderbufferStorage(gles.RENDERBUFFER, format, w, h)
	return id
}

// newFramebuffer binds a new framebuffer with a colour texture or
// renderbuffer (0: none) and depth and stencil renderbuffers (0: none).
func (e *fboEnv) newFramebuffer(colorTex, colorRB, depth, stencil uint32) uint32 {
	c := e.c
	fb := c.GenFramebuffers(1)[0]
	c.BindFramebuffer(gles.FRAMEBUFFER, fb)
	if colorTex != 0 {
		c.FramebufferTexture2D(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.TEXTURE_2D, colorTex, 0)
	}
	if colorRB != 0 {
		c.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, colorRB)
	}
	if depth != 0 {
		c.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.DEPTH_ATTACHMENT, gles.RENDERBUFFER, depth)
	}
	if stencil != 0 {
		c.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.STENCIL_ATTACHMENT, gles.RENDERBUFFER, stencil)
	}
	require.Equal(e.t, gles.FRAMEBUFFER_COMPLETE, c.CheckFramebufferStatus(gles.FRAMEBUFFER))
	return fb
}

var (
	fRed    = [4]float32{1, 0, 0, 1}
	fGreen  = [4]float32{0, 1, 0, 1}
	fYellow = [4]float32{1, 1, 0, 1}
	fBlue   = [4]float32{0, 0, 1, 1}
)

// TestFBORenderToTexture is the golden scene: the window gets a
// backdrop, a 32x32 RGBA texture with a depth renderbuffer gets a
// depth-tested drawing, and the window then shows the texture on two
// quads (nearest and linear), all in one frame with a capture.
func TestFBORenderToTexture(t *testing.T) {
	var capture bytes.Buffer
	e := newFBOEnv(t, 64, 64, gles.Config{Capture: &capture})
	c := e.c
	c.ClearColor(0.3, 0.3, 0.35, 1)
	c.Clear(gles.COLOR_BUFFER_BIT)
	e.quad(-1, 0.8, 1, 1, 0, fYellow)

	tex := e.newTexture(gles.RGBA, gles.UNSIGNED_BYTE, 32, 32, nil)
	depth := e.newRenderbuffer(gles.DEPTH_COMPONENT16, 32, 32)
	e.newFramebuffer(tex, 0, depth, 0)
	c.Viewport(0, 0, 32, 32)
	c.ClearColor(0, 0, 0.5, 1)
	c.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	c.Enable(gles.DEPTH_TEST)
	c.UseProgram(e.grad)
	c.VertexAttribPointer(0, 3, gles.FLOAT, false, 0, []float32{-0.9, -0.9, 0, 0.9, -0.9, 0, -0.9, 0.9, 0})
	c.VertexAttribPointer(1, 2, gles.FLOAT, false, 0, []float32{0, 0, 1, 0, 0, 1})
	c.EnableVertexAttribArray(1)
	c.DrawArrays(gles.TRIANGLES, 0, 3)
	c.DisableVertexAttribArray(1)
	e.quad(-0.5, -0.5, 0.6, 0.2, -0.5, fGreen) // in front of the triangle
	e.quad(-0.2, -0.8, 0.8, 0.8, 0.5, fRed)    // behind both
	c.Disable(gles.DEPTH_TEST)
	require.NoError(t, c.Err())

	c.BindFramebuffer(gles.FRAMEBUFFER, 0)
	c.Viewport(0, 0, 64, 64)
	e.textured(-1, -1, 0, 0.75)
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
	e.textured(0.05, -0.6, 0.95, 0.3)
	c.Finish()
	img := e.image(64, 64)
	require.NoError(t, c.Err())
	require.NoError(t, c.Close())
	checkGolden(t, "fbo-render-to-texture", img, listing(t, &capture))

	// The texture shows the drawing the right way up: the triangle's
	// right-angle corner (gradient: uv near 0) at the lower left, the
	// green quad over it, the red quad behind at the right.
	at := func(x, y int) [4]uint8 {
		o := img.PixOffset(x, 63-y)
		return [4]uint8(img.Pix[o : o+4])
	}
	assert.Equal(t, [4]uint8{255, 255, 0, 255}, at(10, 62), "window backdrop drawn before the framebuffer")
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, at(12, 24), "green quad in front")
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, at(28, 46), "red quad, right of the triangle")
	assert.Equal(t, [4]uint8{0, 0, 128, 255}, at(0, 55), "clear colour at the upper left")
}

// le16 is a 16-bit texel value repeated n times, little-endian.
func le16(v uint16, n int) []byte {
	out := make([]byte, 2*n)
	for i := 0; i < n; i++ {
		out[2*i], out[2*i+1] = byte(v), byte(v>>8)
	}
	return out
}

func repeat(texel []byte, n int) []byte { return bytes.Repeat(texel, n) }

// TestFBOFormats renders into every colour attachment format: the
// initial contents read back through the framebuffer, a scissored clear
// and a quad land at the right GL coordinates with the format's
// quantisation, a texture shows the same texels when sampled in the
// window, and TexSubImage2D into a rendered texture keeps the rendering
// (the read-back protocol).
func TestFBOFormats(t *testing.T) {
	const n = 8
	colA := [4]float32{1, 0.5, 0.25, 0.75}
	colB := [4]float32{0, 1, 0.6, 0.2}
	for _, tc := range []struct {
		name      string
		format    gles.Enum // texture format, or renderbuffer internal format
		typ       gles.Enum // texture type; 0 for a renderbuffer
		init      []byte    // texture contents
		initPixel [4]byte
		a, b      [4]byte // colA and colB as stored and widened
		sub       []byte  // one texel for TexSubImage2D
		subPixel  [4]byte
	}{
		{"tex-rgba8888", gles.RGBA, gles.UNSIGNED_BYTE, repeat([]byte{10, 20, 30, 40}, n*n), [4]byte{10, 20, 30, 40},
			[4]byte{255, 128, 64, 191}, [4]byte{0, 255, 153, 51}, []byte{1, 2, 3, 4}, [4]byte{1, 2, 3, 4}},
		{"tex-rgb888", gles.RGB, gles.UNSIGNED_BYTE, repeat([]byte{10, 20, 30}, n*n), [4]byte{10, 20, 30, 255},
			[4]byte{255, 128, 64, 255}, [4]byte{0, 255, 153, 255}, []byte{1, 2, 3}, [4]byte{1, 2, 3, 255}},
		{"tex-rgb565", gles.RGB, gles.UNSIGNED_SHORT_5_6_5, le16(0x1234, n*n), [4]byte{16, 69, 165, 255},
			[4]byte{255, 130, 66, 255}, [4]byte{0, 255, 156, 255}, le16(0xF800, 1), [4]byte{255, 0, 0, 255}},
		{"tex-rgba4444", gles.RGBA, gles.UNSIGNED_SHORT_4_4_4_4, le16(0x1234, n*n), [4]byte{17, 34, 51, 68},
			[4]byte{255, 136, 68, 187}, [4]byte{0, 255, 153, 51}, le16(0xF00F, 1), [4]byte{255, 0, 0, 255}},
		{"tex-rgba5551", gles.RGBA, gles.UNSIGNED_SHORT_5_5_5_1, le16(0x1235, n*n), [4]byte{16, 66, 214, 255},
			[4]byte{255, 132, 66, 255}, [4]byte{0, 255, 156, 0}, le16(0x07C1, 1), [4]byte{0, 255, 0, 255}},
		{"rb-rgba4", gles.RGBA4, 0, nil, [4]byte{}, [4]byte{255, 136, 68, 187}, [4]byte{0, 255, 153, 51}, nil, [4]byte{}},
		{"rb-rgb5_a1", gles.RGB5_A1, 0, nil, [4]byte{}, [4]byte{255, 132, 66, 255}, [4]byte{0, 255, 156, 0}, nil, [4]byte{}},
		{"rb-rgb565", gles.RGB565, 0, nil, [4]byte{}, [4]byte{255, 130, 66, 255}, [4]byte{0, 255, 156, 255}, nil, [4]byte{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newFBOEnv(t, n, n, gles.Config{})
			c := e.c
			var tex uint32
			if tc.typ != 0 {
				tex = e.newTexture(tc.format, tc.typ, n, n, tc.init)
				e.newFramebuffer(tex, 0, 0, 0)
				assert.Equal(t, tc.initPixel, e.pixel(5, 6), "initial contents through the framebuffer")
			} else {
				e.newFramebuffer(0, e.newRenderbuffer(tc.format, n, n), 0, 0)
			}
			// Left half cleared to A, the top-right quadrant drawn in B.
			c.Enable(gles.SCISSOR_TEST)
			c.Scissor(0, 0, n/2, n)
			c.ClearColor(colA[0], colA[1], colA[2], colA[3])
			c.Clear(gles.COLOR_BUFFER_BIT)
			c.Disable(gles.SCISSOR_TEST)
			e.quad(0, 0, 1, 1, 0, colB)
			require.NoError(t, c.Err())
			assert.Equal(t, tc.a, e.pixel(1, 1))
			assert.Equal(t, tc.a, e.pixel(2, 7))
			assert.Equal(t, tc.b, e.pixel(6, 6))
			if tex == 0 {
				zero := [4]byte{}
				if tc.format == gles.RGB565 {
					zero[3] = 255
				}
				assert.Equal(t, zero, e.pixel(6, 1), "new renderbuffers are zero")
				return
			}
			assert.Equal(t, tc.initPixel, e.pixel(6, 1), "untouched texels keep the upload")

			// TexSubImage2D at (7, 0) reads the rendering back first.
			c.TexSubImage2D(gles.TEXTURE_2D, 0, 7, 0, 1, 1, tc.format, tc.typ, tc.sub)
			require.NoError(t, c.Err())
			c.BindFramebuffer(gles.FRAMEBUFFER, 0)
			c.ClearColor(0, 0, 0, 0)
			c.Clear(gles.COLOR_BUFFER_BIT)
			e.textured(-1, -1, 1, 1)
			require.NoError(t, c.Err())
			for _, p := range []struct {
				x, y int
				want [4]byte
			}{{1, 1, tc.a}, {2, 7, tc.a}, {6, 6, tc.b}, {6, 1, tc.initPixel}, {7, 0, tc.subPixel}} {
				assert.Equal(t, p.want, e.pixel(p.x, p.y), "window pixel %d,%d", p.x, p.y)
			}
		})
	}
}

// TestFBODepthStencil renders with a DEPTH_COMPONENT16 renderbuffer
// alone, a STENCIL_INDEX8 renderbuffer alone, and both together, then
// uses the depth buffer without the stencil buffer and goes back: the
// values written while the two were joined in one Z24S8 surface follow
// the depth buffer. The window has neither buffer.
func TestFBODepthStencil(t *testing.T) {
	const n = 8
	e := newFBOEnv(t, n, n, gles.Config{})
	c := e.c
	color := e.newRenderbuffer(gles.RGB565, n, n)
	depth := e.newRenderbuffer(gles.DEPTH_COMPONENT16, n, n)
	stencil := e.newRenderbuffer(gles.STENCIL_INDEX8, n, n)
	black := [4]byte{0, 0, 0, 255}
	greenPx, redPx, bluePx := [4]byte{0, 255, 0, 255}, [4]byte{255, 0, 0, 255}, [4]byte{0, 0, 255, 255}

	// Depth alone: the near left half wins over a far full quad.
	depthOnly := e.newFramebuffer(0, color, depth, 0)
	c.ClearColor(0, 0, 0, 1)
	c.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	c.Enable(gles.DEPTH_TEST)
	e.quad(-1, -1, 0, 1, -0.5, fGreen)
	e.quad(-1, -1, 1, 1, 0.5, fRed)
	require.NoError(t, c.Err())
	assert.Equal(t, greenPx, e.pixel(1, 3))
	assert.Equal(t, redPx, e.pixel(6, 3))

	// Stencil alone: the left half marked, then only it drawn.
	e.newFramebuffer(0, color, 0, stencil)
	c.Clear(gles.COLOR_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	c.Enable(gles.STENCIL_TEST)
	c.StencilFunc(gles.ALWAYS, 1, 0xFF)
	c.StencilOp(gles.KEEP, gles.KEEP, gles.REPLACE)
	c.ColorMask(false, false, false, false)
	e.quad(-1, -1, 0, 1, 0, fRed)
	c.ColorMask(true, true, true, true)
	c.StencilFunc(gles.EQUAL, 1, 0xFF)
	c.StencilOp(gles.KEEP, gles.KEEP, gles.KEEP)
	e.quad(-1, -1, 1, 1, 0.9, fGreen) // the depth test has no buffer: passes
	require.NoError(t, c.Err())
	assert.Equal(t, greenPx, e.pixel(1, 3))
	assert.Equal(t, black, e.pixel(6, 3))

	// Both: the left half's stencil (1) meets a depth buffer cleared
	// to 1; a near quad over the bottom half writes depth 0.25.
	both := e.newFramebuffer(0, color, depth, stencil)
	c.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	c.StencilFunc(gles.EQUAL, 1, 0xFF)
	e.quad(-1, -1, 1, 0, -0.5, fBlue)
	require.NoError(t, c.Err())
	assert.Equal(t, bluePx, e.pixel(1, 1), "stencil 1, depth passes")
	assert.Equal(t, black, e.pixel(6, 1), "stencil 0")
	assert.Equal(t, black, e.pixel(1, 6), "outside the quad")

	// The depth buffer alone again: depth 0.25 at the bottom, 1 above.
	c.Disable(gles.STENCIL_TEST)
	c.BindFramebuffer(gles.FRAMEBUFFER, depthOnly)
	c.Clear(gles.COLOR_BUFFER_BIT)
	e.quad(-1, -1, 1, 1, 0, fRed) // depth 0.5
	require.NoError(t, c.Err())
	assert.Equal(t, black, e.pixel(1, 1), "depth 0.25 from the joined pass holds")
	assert.Equal(t, redPx, e.pixel(6, 1), "the stencil test failed there: depth stayed 1")
	assert.Equal(t, redPx, e.pixel(1, 6))

	// Joined again: stencil and depth both still there.
	c.BindFramebuffer(gles.FRAMEBUFFER, both)
	c.Clear(gles.COLOR_BUFFER_BIT)
	c.Enable(gles.STENCIL_TEST)
	c.DepthFunc(gles.LEQUAL)
	e.quad(-1, -1, 1, 1, 0, fGreen) // depth 0.5: only where depth was 0.5 and stencil 1
	require.NoError(t, c.Err())
	assert.Equal(t, black, e.pixel(1, 1))
	assert.Equal(t, greenPx, e.pixel(1, 6))
	assert.Equal(t, black, e.pixel(6, 6))

	// Clearing depth in a framebuffer works although the window has no
	// depth buffer.
	c.Disable(gles.STENCIL_TEST)
	c.ClearDepthf(0)
	c.BindFramebuffer(gles.FRAMEBUFFER, depthOnly)
	c.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	e.quad(-1, -1, 1, 1, -0.9, fRed)
	require.NoError(t, c.Err())
	assert.Equal(t, black, e.pixel(4, 4), "depth cleared to 0")
}

// TestFBOIncomplete checks that incomplete framebuffers refuse draws,
// clears and reads with INVALID_FRAMEBUFFER_OPERATION.
func TestFBOIncomplete(t *testing.T) {
	e := newFBOEnv(t, 8, 8, gles.Config{})
	c := e.c
	lum := e.newTexture(gles.LUMINANCE, gles.UNSIGNED_BYTE, 8, 8, nil)
	rgba := e.newTexture(gles.RGBA, gles.UNSIGNED_BYTE, 8, 8, nil)
	depth := e.newRenderbuffer(gles.DEPTH_COMPONENT16, 4, 4)
	fb := c.GenFramebuffers(1)[0]
	c.BindFramebuffer(gles.FRAMEBUFFER, fb)
	for _, tc := range []struct {
		name   string
		attach func()
		status gles.Enum
	}{
		{"missing", func() {}, gles.FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT},
		{"luminance texture", func() {
			c.FramebufferTexture2D(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.TEXTURE_2D, lum, 0)
		}, gles.FRAMEBUFFER_INCOMPLETE_ATTACHMENT},
		{"depth buffer as colour", func() {
			c.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, depth)
		}, gles.FRAMEBUFFER_INCOMPLETE_ATTACHMENT},
		{"dimensions", func() {
			c.FramebufferTexture2D(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.TEXTURE_2D, rgba, 0)
			c.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.DEPTH_ATTACHMENT, gles.RENDERBUFFER, depth)
		}, gles.FRAMEBUFFER_INCOMPLETE_DIMENSIONS},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.attach()
			assert.Equal(t, tc.status, c.CheckFramebufferStatus(gles.FRAMEBUFFER))
			e.quad(-1, -1, 1, 1, 0, fRed)
			assert.Equal(t, gles.INVALID_FRAMEBUFFER_OPERATION, c.GetError(), "draw")
			c.Clear(gles.COLOR_BUFFER_BIT)
			assert.Equal(t, gles.INVALID_FRAMEBUFFER_OPERATION, c.GetError(), "clear")
			e.pixel(0, 0)
			assert.Equal(t, gles.INVALID_FRAMEBUFFER_OPERATION, c.GetError(), "read")
			c.Err()
		})
	}
}

// TestFBOOrientation draws one scene into the window and into a texture
// of the same size and compares the two read-backs pixel for pixel: the
// viewport and a scissored clear, culling, gl_FrontFacing, gl_FragCoord,
// point sprites' gl_PointCoord and two-sided stencil all depend on which
// way up the chip draws.
func TestFBOOrientation(t *testing.T) {
	const w, h = 32, 28
	e := newFBOEnv(t, w, h, gles.Config{DepthBits: 24, StencilBits: 8})
	c := e.c
	link := func(fs string) uint32 {
		p, log := es2Program(t, c, "attribute vec4 pos;\nvoid main() { gl_Position = pos; gl_PointSize = 7.0; }\n", fs)
		require.Equal(t, 1, c.GetProgramiv(p, gles.LINK_STATUS), log)
		c.BindAttribLocation(p, 0, "pos")
		c.LinkProgram(p)
		return p
	}
	facing := link("precision mediump float;\nvoid main() { gl_FragColor = gl_FrontFacing ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 1.0, 1.0); }\n")
	coord := link("precision mediump float;\nvoid main() { gl_FragColor = vec4(fract(gl_FragCoord.xy / 8.0), 0.5, 1.0); }\n")
	sprite := link("precision mediump float;\nvoid main() { gl_FragColor = vec4(gl_PointCoord, 1.0, 1.0); }\n")
	tri := func(p uint32, v ...float32) {
		c.UseProgram(p)
		c.VertexAttribPointer(0, 2, gles.FLOAT, false, 0, v)
		c.DrawArrays(gles.TRIANGLES, 0, len(v)/2)
	}
	scene := func() {
		c.Viewport(0, 0, w, h)
		c.ClearColor(0.1, 0.1, 0.1, 1)
		c.ClearStencil(0)
		c.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
		c.Enable(gles.SCISSOR_TEST)
		c.Scissor(3, 2, 9, 6)
		c.ClearColor(0.9, 0.6, 0.1, 1)
		c.Clear(gles.COLOR_BUFFER_BIT)
		c.Disable(gles.SCISSOR_TEST)
		c.Viewport(2, 3, 27, 23)
		// gl_FrontFacing: counter-clockwise left, clockwise right.
		tri(facing, -0.93, 0.13, -0.21, 0.17, -0.63, 0.91, 0.23, 0.11, 0.47, 0.93, 0.91, 0.19)
		// Culling the back faces keeps the counter-clockwise one.
		c.Enable(gles.CULL_FACE)
		tri(coord, -0.87, -0.93, -0.13, -0.87, -0.51, -0.09, 0.17, -0.91, 0.53, -0.11, 0.89, -0.89)
		c.Disable(gles.CULL_FACE)
		// Two-sided stencil: front faces set 1, back faces invert to 255.
		c.Enable(gles.STENCIL_TEST)
		c.StencilFunc(gles.ALWAYS, 1, 0xFF)
		c.StencilOpSeparate(gles.FRONT, gles.KEEP, gles.KEEP, gles.REPLACE)
		c.StencilOpSeparate(gles.BACK, gles.KEEP, gles.KEEP, gles.INVERT)
		c.ColorMask(false, false, false, false)
		tri(coord, -0.37, -0.61, 0.07, -0.59, -0.17, 0.61, 0.13, 0.63, 0.71, 0.59, 0.41, -0.57)
		c.ColorMask(true, true, true, true)
		c.StencilOp(gles.KEEP, gles.KEEP, gles.KEEP)
		c.StencilFunc(gles.EQUAL, 1, 0xFF)
		e.quad(-1, -1, 1, 1, 0, fBlue)
		c.StencilFunc(gles.EQUAL, 255, 0xFF)
		e.quad(-1, -1, 1, 1, 0, fYellow)
		c.Disable(gles.STENCIL_TEST)
		// Point sprites.
		c.UseProgram(sprite)
		c.VertexAttribPointer(0, 2, gles.FLOAT, false, 0, []float32{0, 0.85, 0.85, -0.6})
		c.DrawArrays(gles.POINTS, 0, 2)
		require.NoError(t, c.Err())
	}
	scene()
	win := e.image(w, h)

	tex := e.newTexture(gles.RGBA, gles.UNSIGNED_BYTE, w, h, nil)
	e.newFramebuffer(tex, 0, e.newRenderbuffer(gles.DEPTH_COMPONENT16, w, h), e.newRenderbuffer(gles.STENCIL_INDEX8, w, h))
	scene()
	fbo := e.image(w, h)
	require.Equal(t, win.Bounds(), fbo.Bounds())
	diff := 0
	for i := 0; i < len(win.Pix); i += 4 {
		if !bytes.Equal(win.Pix[i:i+4], fbo.Pix[i:i+4]) {
			diff++
		}
	}
	assert.Zero(t, diff, "pixels differ between the window and the framebuffer")
	// Spot checks in GL coordinates: the scissored clear, the front face
	// in green, the culled clockwise triangle absent, the sprite's
	// gl_PointCoord (0, 0) at its upper left.
	at := func(x, y int) [4]uint8 {
		o := fbo.PixOffset(x, h-1-y)
		return [4]uint8(fbo.Pix[o : o+4])
	}
	assert.Equal(t, [4]uint8{229, 153, 25, 255}, at(4, 3), "scissored clear")
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, at(7, 19), "counter-clockwise: front")
	assert.Equal(t, [4]uint8{255, 0, 255, 255}, at(26, 17), "clockwise: back")
	assert.Equal(t, [4]uint8{25, 25, 25, 255}, at(21, 6), "culled")
	assert.Equal(t, [4]uint8{0, 0, 255, 255}, at(14, 12), "front-facing stencil")
	assert.Equal(t, [4]uint8{255, 255, 0, 255}, at(21, 17), "back-facing stencil")
	assert.Equal(t, [4]uint8{18, 9, 255, 255}, at(12, 27), "gl_PointCoord near (0, 0)")
	assert.Equal(t, [4]uint8{237, 228, 255, 255}, at(18, 21), "gl_PointCoord near (1, 1)")
}

// TestFBODeleteAttached deletes textures and renderbuffers while they are
// attached: the bound framebuffer loses them (GL ES 2.0 §4.4.2-3), an
// unbound one keeps rendering into them until they are detached.
func TestFBODeleteAttached(t *testing.T) {
	const n = 8
	e := newFBOEnv(t, n, n, gles.Config{})
	c := e.c
	// Bound: the attachment goes, the framebuffer is incomplete.
	tex := e.newTexture(gles.RGBA, gles.UNSIGNED_BYTE, n, n, nil)
	rb := e.newRenderbuffer(gles.DEPTH_COMPONENT16, n, n)
	e.newFramebuffer(tex, 0, rb, 0)
	e.quad(-1, -1, 1, 1, 0, fRed)
	c.DeleteTextures(tex)
	assert.Equal(t, int(gles.NONE), c.GetFramebufferAttachmentParameteriv(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE))
	assert.Equal(t, gles.FRAMEBUFFER_COMPLETE, c.CheckFramebufferStatus(gles.FRAMEBUFFER), "the depth buffer alone")
	c.DeleteRenderbuffers(rb)
	assert.Equal(t, gles.FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT, c.CheckFramebufferStatus(gles.FRAMEBUFFER))
	require.NoError(t, c.Err())

	// Unbound: the deleted objects stay attached and keep their
	// contents.
	tex = e.newTexture(gles.RGBA, gles.UNSIGNED_BYTE, n, n, nil)
	color := e.newRenderbuffer(gles.RGB565, n, n)
	texFB := e.newFramebuffer(tex, 0, 0, 0)
	e.quad(-1, -1, 1, 1, 0, fGreen)
	rbFB := e.newFramebuffer(0, color, 0, 0)
	e.quad(-1, -1, 1, 1, 0, fBlue)
	c.BindFramebuffer(gles.FRAMEBUFFER, 0)
	c.DeleteTextures(tex)
	c.DeleteRenderbuffers(color)
	assert.False(t, c.IsTexture(tex))
	c.BindFramebuffer(gles.FRAMEBUFFER, texFB)
	assert.Equal(t, gles.FRAMEBUFFER_COMPLETE, c.CheckFramebufferStatus(gles.FRAMEBUFFER))
	assert.Equal(t, int(tex), c.GetFramebufferAttachmentParameteriv(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.FRAMEBUFFER_ATTACHMENT_OBJECT_NAME))
	assert.Equal(t, [4]byte{0, 255, 0, 255}, e.pixel(3, 3), "the deleted texture's rendering")
	e.quad(-1, -1, 0, 1, 0, fRed)
	assert.Equal(t, [4]byte{255, 0, 0, 255}, e.pixel(1, 3))
	assert.Equal(t, [4]byte{0, 255, 0, 255}, e.pixel(6, 3))
	c.BindFramebuffer(gles.FRAMEBUFFER, rbFB)
	assert.Equal(t, [4]byte{0, 0, 255, 255}, e.pixel(3, 3), "the deleted renderbuffer's rendering")
	// Detaching releases them; the framebuffers are then empty.
	c.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, 0)
	assert.Equal(t, gles.FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT, c.CheckFramebufferStatus(gles.FRAMEBUFFER))
	c.DeleteFramebuffers(texFB)
	require.NoError(t, c.Err())
}

// TestFBOCopyTexImage copies from a framebuffer larger than the window
// into a texture and samples it in the window.
func TestFBOCopyTexImage(t *testing.T) {
	e := newFBOEnv(t, 8, 8, gles.Config{})
	c := e.c
	e.newFramebuffer(0, e.newRenderbuffer(gles.RGB565, 16, 16), 0, 0)
	c.Viewport(0, 0, 16, 16)
	c.ClearColor(0, 0, 1, 1)
	c.Clear(gles.COLOR_BUFFER_BIT)
	e.quad(0, 0, 1, 1, 0, fRed)     // x, y 8..15
	e.quad(0, 0, 1, 0.5, 0, fGreen) // x 8..15, y 8..11
	e.newTexture(gles.RGB, gles.UNSIGNED_BYTE, 8, 8, nil)
	c.CopyTexImage2D(gles.TEXTURE_2D, 0, gles.RGB, 8, 8, 8, 8, 0)
	require.NoError(t, c.Err())
	c.CopyTexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 8, 8, 8, 8, 0)
	assert.Equal(t, gles.INVALID_OPERATION, c.GetError(), "the RGB565 renderbuffer has no alpha")
	c.Err()
	c.BindFramebuffer(gles.FRAMEBUFFER, 0)
	c.Viewport(0, 0, 8, 8)
	e.textured(-1, -1, 1, 1)
	require.NoError(t, c.Err())
	assert.Equal(t, [4]byte{0, 255, 0, 255}, e.pixel(4, 1))
	assert.Equal(t, [4]byte{255, 0, 0, 255}, e.pixel(4, 6))
}

// TestFBOTexParameterKeepsRendering changes the sampler of a rendered
// texture and generates its mipmaps: both bring the rendering back to
// the state tracker first.
func TestFBOTexParameterKeepsRendering(t *testing.T) {
	e := newFBOEnv(t, 8, 8, gles.Config{})
	c := e.c
	tex := e.newTexture(gles.RGBA, gles.UNSIGNED_BYTE, 8, 8, repeat([]byte{9, 9, 9, 255}, 64))
	fb := e.newFramebuffer(tex, 0, 0, 0)
	e.quad(-1, -1, 1, 1, 0, fRed)
	c.BindFramebuffer(gles.FRAMEBUFFER, 0)
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
	e.textured(-1, -1, 1, 1)
	require.NoError(t, c.Err())
	assert.Equal(t, [4]byte{255, 0, 0, 255}, e.pixel(3, 3))

	c.BindFramebuffer(gles.FRAMEBUFFER, fb)
	e.quad(-1, -1, 1, 1, 0, fBlue)
	c.BindFramebuffer(gles.FRAMEBUFFER, 0)
	c.GenerateMipmap(gles.TEXTURE_2D)
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST_MIPMAP_NEAREST))
	e.textured(-0.5, -0.5, 0, 0) // 2x2 pixels: level 2
	require.NoError(t, c.Err())
	assert.Equal(t, [4]byte{0, 0, 255, 255}, e.pixel(3, 3), "level 2 made from the rendering")
}

// TestFBOReleasesStorage creates and deletes more renderbuffer and
// texture storage than the 64 MiB of VRAM holds: deleting, detaching and
// deleting framebuffers must free it.
func TestFBOReleasesStorage(t *testing.T) {
	e := newFBOEnv(t, 8, 8, gles.Config{})
	c := e.c
	for i := 0; i < 12; i++ {
		rb := e.newRenderbuffer(gles.RGB565, 2048, 2048)                    // 8 MiB
		tex := e.newTexture(gles.RGBA, gles.UNSIGNED_BYTE, 1024, 1024, nil) // 4 MiB
		fb := e.newFramebuffer(tex, 0, 0, 0)
		e.pixel(0, 0)
		c.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, rb)
		e.pixel(0, 0)
		if i%2 == 0 {
			// Deleted while bound: detached and released at once.
			c.DeleteRenderbuffers(rb)
			c.DeleteTextures(tex)
			c.DeleteFramebuffers(fb)
		} else {
			// Deleted while attached to an unbound framebuffer: released
			// with the framebuffer.
			c.FramebufferTexture2D(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.TEXTURE_2D, tex, 0)
			c.BindFramebuffer(gles.FRAMEBUFFER, 0)
			c.DeleteRenderbuffers(rb)
			c.DeleteTextures(tex)
			c.DeleteFramebuffers(fb)
		}
		require.NoError(t, c.Err(), "iteration %d", i)
	}
}

// BenchmarkFBOPingPong is one frame of render to texture: a quad into a
// 64x64 texture, then the texture on a quad in a 64x64 window.
func BenchmarkFBOPingPong(b *testing.B) {
	e := newFBOEnv(b, 64, 64, gles.Config{})
	c := e.c
	tex := e.newTexture(gles.RGBA, gles.UNSIGNED_BYTE, 64, 64, nil)
	fb := e.newFramebuffer(tex, 0, 0, 0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.BindFramebuffer(gles.FRAMEBUFFER, fb)
		e.quad(-0.5, -0.5, 0.5, 0.5, 0, fRed)
		c.BindFramebuffer(gles.FRAMEBUFFER, 0)
		e.textured(-1, -1, 1, 1)
		c.Finish()
	}
	if err := c.Err(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkFBOJoinSplit alternates between a framebuffer with 256x256
// depth and stencil renderbuffers (joined in one Z24S8 surface) and one
// with the depth renderbuffer alone: every switch copies the depth
// values on the CPU.
func BenchmarkFBOJoinSplit(b *testing.B) {
	e := newFBOEnv(b, 8, 8, gles.Config{})
	c := e.c
	color := e.newRenderbuffer(gles.RGB565, 256, 256)
	depth := e.newRenderbuffer(gles.DEPTH_COMPONENT16, 256, 256)
	stencil := e.newRenderbuffer(gles.STENCIL_INDEX8, 256, 256)
	both := e.newFramebuffer(0, color, depth, stencil)
	alone := e.newFramebuffer(0, color, depth, 0)
	c.Viewport(0, 0, 256, 256)
	c.Enable(gles.DEPTH_TEST)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.BindFramebuffer(gles.FRAMEBUFFER, both)
		e.quad(-0.1, -0.1, 0.1, 0.1, 0, fRed)
		c.BindFramebuffer(gles.FRAMEBUFFER, alone)
		e.quad(-0.1, -0.1, 0.1, 0.1, 0, fRed)
		c.Finish()
	}
	if err := c.Err(); err != nil {
		b.Fatal(err)
	}
}
