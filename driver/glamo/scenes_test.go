package glamo_test

import (
	"flag"
	"image"
	"image/png"
	"math"
	"os"
	"testing"

	gold "github.com/retrogl/retrogl/internal/golden"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
)

var (
	sheet = flag.String("sheet", "", "also write a contact sheet of every scene image to this PNG file")
)

const sz = 64

// scene is one feature-group picture: GL calls on a 64x64 surface.
type scene struct {
	name string
	cfg  gles.Config
	draw func(c *gles.Context)
}

func defCfg() gles.Config { return gles.Config{Width: sz, Height: sz, DepthBits: 16} }

// ortho sets an identity model-view and projection.
func ortho(c *gles.Context) {
	c.Viewport(0, 0, sz, sz)
	c.MatrixMode(gles.PROJECTION)
	c.LoadIdentity()
	c.MatrixMode(gles.MODELVIEW)
	c.LoadIdentity()
	c.ClearColor(0.2, 0.2, 0.3, 1)
	c.ClearDepthf(1)
	c.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
}

// rect draws an axis-aligned rectangle (x0,y0)-(x1,y1) in NDC at depth z
// with texture coordinates 0..s.
func rect(c *gles.Context, x0, y0, x1, y1, z, s float32) {
	pos := []float32{x0, y0, z, x1, y0, z, x0, y1, z, x1, y1, z}
	tc := []float32{0, 0, s, 0, 0, s, s, s}
	c.EnableClientState(gles.VERTEX_ARRAY)
	c.VertexPointer(3, gles.FLOAT, 0, pos)
	c.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	c.TexCoordPointer(2, gles.FLOAT, 0, tc)
	c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
}

// checker returns an RGBA8888 w x h checkerboard with coloured cells.
func checker(w, h, cell int) []byte {
	img := make([]byte, w*h*4)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p := img[4*(y*w+x):]
			if (x/cell+y/cell)%2 == 0 {
				p[0], p[1], p[2], p[3] = 240, uint8(255*x/w), 40, 255
			} else {
				p[0], p[1], p[2], p[3] = 30, 60, uint8(255*y/h), 128
			}
		}
	}
	return img
}

func texture(c *gles.Context, w, h int, data []byte, filter gles.Enum) {
	t := c.GenTextures(1)
	c.BindTexture(gles.TEXTURE_2D, t[0])
	c.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, w, h, 0, gles.RGBA, gles.UNSIGNED_BYTE, data)
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(filter))
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(filter))
	c.Enable(gles.TEXTURE_2D)
}

// grid returns a w x h grid of triangles over [-1,1]^2 (positions and
// normals of a bump z = 0.5 cos) as an indexed mesh.
func grid(n int) (pos, nrm []float32, idx []uint16) {
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			x, y := -1+2*float32(i)/float32(n), -1+2*float32(j)/float32(n)
			r := math.Hypot(float64(x), float64(y))
			z := float32(0.5 * math.Cos(r*1.5))
			d := -0.5 * 1.5 * math.Sin(r*1.5) / math.Max(r, 1e-6)
			nx, ny := -float32(d)*x, -float32(d)*y
			l := float32(math.Sqrt(float64(nx*nx + ny*ny + 1)))
			pos = append(pos, x*0.9, y*0.9, z)
			nrm = append(nrm, nx/l, ny/l, 1/l)
		}
	}
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			a := uint16(j*(n+1) + i)
			idx = append(idx, a, a+1, a+uint16(n)+2, a, a+uint16(n)+2, a+uint16(n)+1)
		}
	}
	return
}

var allScenes = []scene{
	{"clear-scissor-mask", gles.Config{Width: sz, Height: sz, DepthBits: 16, StencilBits: 8}, func(c *gles.Context) {
		ortho(c)
		c.Enable(gles.SCISSOR_TEST)
		c.Scissor(8, 8, 24, 40)
		c.ClearColor(1, 1, 0, 1)
		c.Clear(gles.COLOR_BUFFER_BIT)
		c.Scissor(28, 20, 30, 30)
		c.ColorMask(false, true, true, true)
		c.ClearColor(0, 0, 1, 1)
		c.Clear(gles.COLOR_BUFFER_BIT)
		c.ColorMask(true, true, true, true)
		c.Disable(gles.SCISSOR_TEST)
	}},
	{"gouraud-flat-strip-fan", defCfg(), func(c *gles.Context) {
		ortho(c)
		pos := []float32{-0.9, -0.9, 0, -0.1, -0.9, 0, -0.9, -0.1, 0, -0.1, -0.1, 0, -0.5, 0.4, 0}
		col := []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1}
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.EnableClientState(gles.COLOR_ARRAY)
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.ColorPointer(4, gles.FLOAT, 0, col)
		c.DrawArrays(gles.TRIANGLE_STRIP, 0, 5)
		c.ShadeModel(gles.FLAT)
		c.Translatef(1, 1, 0)
		c.DrawArrays(gles.TRIANGLE_FAN, 0, 5)
		c.ShadeModel(gles.SMOOTH)
		c.LoadIdentity()
		c.Translatef(1, 0, 0)
		c.ColorPointer(4, gles.UNSIGNED_BYTE, 0, []uint8{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255, 255, 0, 255, 255})
		c.VertexPointer(2, gles.SHORT, 6, []int16{-1, -1, 0, 0, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0})
		c.Scalef(0.8, 0.8, 1)
		c.DrawArrays(gles.TRIANGLES, 0, 3)
	}},
	{"depth", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.Enable(gles.DEPTH_TEST)
		c.DepthFunc(gles.LESS)
		c.Color4f(1, 0, 0, 1)
		rect(c, -0.8, -0.8, 0.4, 0.4, 0.5, 1)
		c.Color4f(0, 1, 0, 1)
		pos := []float32{-0.9, 0.9, -1, 0.9, -0.9, 1, 0.9, 0.9, 0}
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.DrawArrays(gles.TRIANGLES, 0, 3)
		c.DepthFunc(gles.GREATER)
		c.Color4f(0, 0, 1, 1)
		rect(c, -0.2, -0.95, 0.95, -0.2, 0.6, 1)
	}},
	{"stencil", gles.Config{Width: sz, Height: sz, StencilBits: 8}, func(c *gles.Context) {
		ortho(c)
		c.Enable(gles.STENCIL_TEST)
		c.StencilFunc(gles.ALWAYS, 1, 0xFF)
		c.StencilOp(gles.KEEP, gles.KEEP, gles.REPLACE)
		c.ColorMask(false, false, false, false)
		pos := []float32{0, 0.9, 0, -0.9, -0.6, 0, 0.9, -0.6, 0}
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.DrawArrays(gles.TRIANGLES, 0, 3)
		c.StencilOp(gles.KEEP, gles.KEEP, gles.INCR)
		rect(c, -0.3, -0.9, 0.3, 0.9, 0, 1)
		c.ColorMask(true, true, true, true)
		c.StencilOp(gles.KEEP, gles.KEEP, gles.KEEP)
		c.StencilFunc(gles.EQUAL, 1, 0xFF)
		c.Color4f(1, 0.5, 0, 1)
		rect(c, -1, -1, 1, 1, 0, 1)
		c.StencilFunc(gles.EQUAL, 2, 0xFF)
		c.Color4f(0, 0.5, 1, 1)
		rect(c, -1, -1, 1, 1, 0, 1)
	}},
	{"alpha-test-blend", defCfg(), func(c *gles.Context) {
		ortho(c)
		pos := []float32{-1, -1, 0, 1, -1, 0, -1, 0, 0, 1, 0, 0}
		col := []float32{1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1}
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.EnableClientState(gles.COLOR_ARRAY)
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.ColorPointer(4, gles.FLOAT, 0, col)
		c.Enable(gles.ALPHA_TEST)
		c.AlphaFunc(gles.GREATER, 0.5)
		c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		c.Disable(gles.ALPHA_TEST)
		c.Enable(gles.BLEND)
		modes := [][2]gles.Enum{{gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA}, {gles.ONE, gles.ONE}, {gles.DST_COLOR, gles.ZERO}, {gles.SRC_ALPHA_SATURATE, gles.ONE}}
		for i, m := range modes {
			c.BlendFunc(m[0], m[1])
			x := -1 + 0.5*float32(i)
			c.PushMatrix()
			c.Translatef(x+0.25, 0.5, 0)
			c.Scalef(0.24, 0.45, 1)
			c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
			c.PopMatrix()
		}
		c.Disable(gles.BLEND)
	}},
	{"blend-equations", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.Color4f(0.6, 0.4, 0.2, 1)
		rect(c, -1, -1, 1, 1, 0, 1)
		c.Enable(gles.BLEND)
		eqs := []gles.Enum{gles.FUNC_ADD_OES, gles.FUNC_SUBTRACT_OES, gles.FUNC_REVERSE_SUBTRACT_OES, gles.MIN_EXT, gles.MAX_EXT}
		c.BlendFunc(gles.ONE, gles.ONE)
		c.Color4f(0.3, 0.5, 0.7, 0.5)
		for i, e := range eqs {
			c.BlendEquationOES(e)
			y := -1 + 0.4*float32(i)
			rect(c, -0.9, y+0.05, 0.9, y+0.35, 0, 1)
		}
		c.BlendEquationOES(gles.FUNC_ADD_OES)
		c.BlendFuncSeparateOES(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA, gles.ZERO, gles.ONE)
		rect(c, -0.2, -1, 0.2, 1, 0, 1)
		c.Disable(gles.BLEND)
	}},
	{"logicop-colormask-dither", defCfg(), func(c *gles.Context) {
		ortho(c)
		pos := []float32{-1, -1, 0, 1, -1, 0, -1, 1, 0, 1, 1, 0}
		col := []float32{0, 0, 0, 1, 1, 1, 1, 1, 0, 0.3, 0.6, 1, 0.8, 0.2, 0.1, 1}
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.EnableClientState(gles.COLOR_ARRAY)
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.ColorPointer(4, gles.FLOAT, 0, col)
		c.Disable(gles.DITHER)
		c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		c.Enable(gles.DITHER)
		c.Scissor(0, 0, 32, 64)
		c.Enable(gles.SCISSOR_TEST)
		c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		c.Disable(gles.SCISSOR_TEST)
		c.DisableClientState(gles.COLOR_ARRAY)
		c.Enable(gles.COLOR_LOGIC_OP)
		c.LogicOp(gles.XOR)
		c.Color4f(1, 1, 1, 1)
		rect(c, -0.5, -0.5, 0.5, 0.5, 0, 1)
		c.Disable(gles.COLOR_LOGIC_OP)
		c.ColorMask(true, false, false, true)
		c.Color4f(1, 1, 1, 1)
		rect(c, 0.6, -0.9, 0.9, 0.9, 0, 1)
		c.ColorMask(true, true, true, true)
	}},
	{"texture-filters-wrap", defCfg(), func(c *gles.Context) {
		ortho(c)
		texture(c, 16, 16, checker(16, 16, 4), gles.NEAREST)
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_S, int(gles.REPEAT))
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_T, int(gles.REPEAT))
		c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
		rect(c, -1, 0, 0, 1, 0, 2)
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_S, int(gles.CLAMP_TO_EDGE))
		rect(c, 0, 0, 1, 1, 0, 2)
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_S, int(gles.MIRRORED_REPEAT))
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_T, int(gles.MIRRORED_REPEAT))
		rect(c, -1, -1, 0, 0, 0, 3)
		// Minified in perspective with mipmaps.
		c.TexParameteri(gles.TEXTURE_2D, gles.GENERATE_MIPMAP, 1)
		c.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 16, 16, 0, gles.RGBA, gles.UNSIGNED_BYTE, checker(16, 16, 2))
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR_MIPMAP_LINEAR))
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_S, int(gles.REPEAT))
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_T, int(gles.REPEAT))
		c.MatrixMode(gles.PROJECTION)
		c.Frustumf(-0.1, 0.1, -0.1, 0.1, 0.1, 10)
		c.MatrixMode(gles.MODELVIEW)
		c.Translatef(0.2, -0.4, -0.3)
		c.Rotatef(-70, 1, 0, 0)
		rect(c, -0.15, -1, 0.15, 0.4, 0, 8)
	}},
	{"texture-formats", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
		src := checker(8, 8, 2)
		type fmtCase struct {
			fmt, typ gles.Enum
			data     []byte
		}
		conv := func(bpp int, f func(p []byte) []byte) []byte {
			var out []byte
			for i := 0; i < 64; i++ {
				out = append(out, f(src[4*i:4*i+4])...)
			}
			_ = bpp
			return out
		}
		u16 := func(v uint16) []byte { return []byte{byte(v), byte(v >> 8)} }
		cases := []fmtCase{
			{gles.RGBA, gles.UNSIGNED_BYTE, src},
			{gles.RGB, gles.UNSIGNED_BYTE, conv(3, func(p []byte) []byte { return p[:3] })},
			{gles.RGB, gles.UNSIGNED_SHORT_5_6_5, conv(2, func(p []byte) []byte {
				return u16(uint16(p[0]>>3)<<11 | uint16(p[1]>>2)<<5 | uint16(p[2]>>3))
			})},
			{gles.RGBA, gles.UNSIGNED_SHORT_4_4_4_4, conv(2, func(p []byte) []byte {
				return u16(uint16(p[0]>>4)<<12 | uint16(p[1]>>4)<<8 | uint16(p[2]>>4)<<4 | uint16(p[3]>>4))
			})},
			{gles.RGBA, gles.UNSIGNED_SHORT_5_5_5_1, conv(2, func(p []byte) []byte {
				return u16(uint16(p[0]>>3)<<11 | uint16(p[1]>>3)<<6 | uint16(p[2]>>3)<<1 | uint16(p[3]>>7))
			})},
			{gles.LUMINANCE, gles.UNSIGNED_BYTE, conv(1, func(p []byte) []byte { return p[:1] })},
			{gles.ALPHA, gles.UNSIGNED_BYTE, conv(1, func(p []byte) []byte { return p[1:2] })},
			{gles.LUMINANCE_ALPHA, gles.UNSIGNED_BYTE, conv(2, func(p []byte) []byte { return []byte{p[0], p[1]} })},
		}
		c.Enable(gles.BLEND)
		c.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
		for i, fc := range cases {
			t := c.GenTextures(1)
			c.BindTexture(gles.TEXTURE_2D, t[0])
			c.TexImage2D(gles.TEXTURE_2D, 0, fc.fmt, 8, 8, 0, fc.fmt, fc.typ, fc.data)
			c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
			c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
			c.Enable(gles.TEXTURE_2D)
			x, y := -1+0.5*float32(i%4), 0.5-0.5*float32(i/4)
			rect(c, x+0.02, y+0.02, x+0.48, y+0.48, 0, 1)
		}
		// Paletted: 4-bit RGB565 and 8-bit RGBA4444 palettes.
		pal4 := make([]byte, 32+32)
		for k := 0; k < 16; k++ {
			v := uint16(k*2)<<11 | uint16(63-k*4)<<5 | uint16(k)
			pal4[2*k], pal4[2*k+1] = byte(v), byte(v>>8)
		}
		for i := 0; i < 32; i++ {
			pal4[32+i] = byte(i*8&0xF0 | (i*3+1)&15)
		}
		t := c.GenTextures(1)
		c.BindTexture(gles.TEXTURE_2D, t[0])
		c.CompressedTexImage2D(gles.TEXTURE_2D, 0, gles.PALETTE4_R5_G6_B5_OES, 8, 8, 0, pal4)
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		rect(c, -0.98, -0.98, -0.52, -0.52, 0, 1)
		pal8 := make([]byte, 512+64)
		for k := 0; k < 256; k++ {
			v := uint16(k>>4)<<12 | uint16(k&15)<<8 | uint16(15-k>>4)<<4 | 15
			pal8[2*k], pal8[2*k+1] = byte(v), byte(v>>8)
		}
		for i := 0; i < 64; i++ {
			pal8[512+i] = byte(i * 4)
		}
		c.CompressedTexImage2D(gles.TEXTURE_2D, 0, gles.PALETTE8_RGBA4_OES, 8, 8, 0, pal8)
		rect(c, -0.48, -0.98, -0.02, -0.52, 0, 1)
	}},
	{"texenv-modes", defCfg(), func(c *gles.Context) {
		ortho(c)
		texture(c, 8, 8, checker(8, 8, 2), gles.NEAREST)
		pos := []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}
		col := []float32{1, 0, 0, 1, 0, 1, 0, 0.5, 0, 0, 1, 1, 1, 1, 0, 0.2}
		tc := []float32{0, 0, 1, 0, 0, 1, 1, 1}
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.EnableClientState(gles.COLOR_ARRAY)
		c.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.ColorPointer(4, gles.FLOAT, 0, col)
		c.TexCoordPointer(2, gles.FLOAT, 0, tc)
		c.TexEnvfv(gles.TEXTURE_ENV, gles.TEXTURE_ENV_COLOR, []float32{0.2, 0.9, 0.9, 1})
		modes := []gles.Enum{gles.REPLACE, gles.MODULATE, gles.DECAL, gles.BLEND, gles.ADD}
		for i, m := range modes {
			c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(m))
			c.LoadIdentity()
			c.Translatef(-1+0.66*float32(i%3), 0.34-0.66*float32(i/3), 0)
			c.Scalef(0.64, 0.64, 1)
			c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		}
	}},
	{"texenv-combine", defCfg(), func(c *gles.Context) {
		ortho(c)
		texture(c, 8, 8, checker(8, 8, 2), gles.NEAREST)
		pos := []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}
		col := []float32{1, 0, 0, 1, 0, 1, 0, 0.5, 0, 0, 1, 1, 1, 1, 0, 0.2}
		tc := []float32{0, 0, 1, 0, 0, 1, 1, 1}
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.EnableClientState(gles.COLOR_ARRAY)
		c.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.ColorPointer(4, gles.FLOAT, 0, col)
		c.TexCoordPointer(2, gles.FLOAT, 0, tc)
		c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.COMBINE))
		c.TexEnvfv(gles.TEXTURE_ENV, gles.TEXTURE_ENV_COLOR, []float32{0.5, 0.5, 0.5, 0.5})
		funcs := []gles.Enum{gles.INTERPOLATE, gles.ADD_SIGNED, gles.SUBTRACT, gles.DOT3_RGB, gles.DOT3_RGBA, gles.MODULATE}
		for i, f := range funcs {
			c.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(f))
			c.TexEnvi(gles.TEXTURE_ENV, gles.SRC0_RGB, int(gles.TEXTURE))
			c.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.PRIMARY_COLOR))
			c.TexEnvi(gles.TEXTURE_ENV, gles.SRC2_RGB, int(gles.CONSTANT))
			c.TexEnvi(gles.TEXTURE_ENV, gles.OPERAND2_RGB, int(gles.SRC_ALPHA))
			scale := float32(1)
			if f == gles.MODULATE {
				scale = 4
			}
			c.TexEnvf(gles.TEXTURE_ENV, gles.RGB_SCALE, scale)
			c.LoadIdentity()
			c.Translatef(-1+0.66*float32(i%3), 0.34-0.66*float32(i/3), 0)
			c.Scalef(0.64, 0.64, 1)
			c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		}
	}},
	{"multitexture", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.ActiveTexture(gles.TEXTURE0)
		texture(c, 8, 8, checker(8, 8, 4), gles.NEAREST)
		c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
		c.ActiveTexture(gles.TEXTURE1)
		lm := make([]byte, 4*4*4)
		for i := 0; i < 16; i++ {
			v := uint8(60 + 12*i)
			lm[4*i], lm[4*i+1], lm[4*i+2], lm[4*i+3] = v, v, 255-v, 255
		}
		texture(c, 4, 4, lm, gles.LINEAR)
		c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
		pos := []float32{-0.9, -0.9, 0, 0.9, -0.9, 0, -0.9, 0.9, 0, 0.9, 0.9, 0}
		tc0 := []float32{0, 0, 2, 0, 0, 2, 2, 2}
		tc1 := []float32{0, 0, 1, 0, 0, 1, 1, 1}
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.ClientActiveTexture(gles.TEXTURE0)
		c.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		c.TexCoordPointer(2, gles.FLOAT, 0, tc0)
		c.ClientActiveTexture(gles.TEXTURE1)
		c.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		c.TexCoordPointer(2, gles.FLOAT, 0, tc1)
		c.MatrixMode(gles.TEXTURE)
		c.Rotatef(20, 0, 0, 1)
		c.MatrixMode(gles.MODELVIEW)
		c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
	}},
	{"lighting", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.MatrixMode(gles.PROJECTION)
		c.Frustumf(-0.5, 0.5, -0.5, 0.5, 1, 10)
		c.MatrixMode(gles.MODELVIEW)
		c.Translatef(0, 0, -2.2)
		c.Enable(gles.DEPTH_TEST)
		c.Enable(gles.LIGHTING)
		c.Enable(gles.NORMALIZE)
		c.Enable(gles.LIGHT0)
		c.Lightfv(gles.LIGHT0, gles.POSITION, []float32{-1, 1, 1, 0})
		c.Lightfv(gles.LIGHT0, gles.DIFFUSE, []float32{0.7, 0.7, 0.7, 1})
		c.Lightfv(gles.LIGHT0, gles.SPECULAR, []float32{1, 1, 1, 1})
		c.Enable(gles.LIGHT1)
		c.Lightfv(gles.LIGHT1, gles.POSITION, []float32{0.6, -0.6, 0.8, 1})
		c.Lightfv(gles.LIGHT1, gles.DIFFUSE, []float32{0.9, 0.2, 0.1, 1})
		c.Lightf(gles.LIGHT1, gles.LINEAR_ATTENUATION, 0.5)
		c.Enable(gles.LIGHT2)
		c.Lightfv(gles.LIGHT2, gles.POSITION, []float32{0, 0, 2, 1})
		c.Lightfv(gles.LIGHT2, gles.SPOT_DIRECTION, []float32{0.3, 0.3, -1})
		c.Lightf(gles.LIGHT2, gles.SPOT_CUTOFF, 12)
		c.Lightf(gles.LIGHT2, gles.SPOT_EXPONENT, 4)
		c.Lightfv(gles.LIGHT2, gles.DIFFUSE, []float32{0, 0.6, 1, 1})
		c.LightModelfv(gles.LIGHT_MODEL_AMBIENT, []float32{0.1, 0.1, 0.15, 1})
		c.Materialfv(gles.FRONT_AND_BACK, gles.SPECULAR, []float32{0.8, 0.8, 0.8, 1})
		c.Materialf(gles.FRONT_AND_BACK, gles.SHININESS, 24)
		c.Materialfv(gles.FRONT_AND_BACK, gles.DIFFUSE, []float32{0.8, 0.8, 0.6, 1})
		pos, nrm, idx := grid(12)
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.EnableClientState(gles.NORMAL_ARRAY)
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.NormalPointer(gles.FLOAT, 0, nrm)
		c.Rotatef(-30, 1, 0, 0)
		c.DrawElements(gles.TRIANGLES, len(idx), gles.UNSIGNED_SHORT, idx)
	}},
	{"lighting-two-side-colormaterial", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.Enable(gles.LIGHTING)
		c.Enable(gles.LIGHT0)
		c.Lightfv(gles.LIGHT0, gles.POSITION, []float32{0, 0, 1, 0})
		c.LightModelf(gles.LIGHT_MODEL_TWO_SIDE, 1)
		c.Enable(gles.COLOR_MATERIAL)
		// A strip folding over: its second half faces away.
		pos := []float32{-0.9, 0.5, 0, -0.9, -0.5, 0, 0, 0.5, 0.3, 0, -0.5, 0.3, 0.9, 0.5, 0, 0.9, -0.5, 0}
		nrm := []float32{0.3, 0, 1, 0.3, 0, 1, 0, 0, 1, 0, 0, 1, -0.3, 0, 1, -0.3, 0, 1}
		col := []float32{1, 0.2, 0.2, 1, 1, 0.2, 0.2, 1, 0.2, 1, 0.2, 1, 0.2, 1, 0.2, 1, 0.2, 0.2, 1, 1, 0.2, 0.2, 1, 1}
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.EnableClientState(gles.NORMAL_ARRAY)
		c.EnableClientState(gles.COLOR_ARRAY)
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.NormalPointer(gles.FLOAT, 0, nrm)
		c.ColorPointer(4, gles.FLOAT, 0, col)
		c.Rotatef(40, 0, 1, 0)
		c.DrawArrays(gles.TRIANGLE_STRIP, 0, 6)
		c.LoadIdentity()
		c.Translatef(0, 0.6, 0)
		c.Scalef(0.5, 0.3, 1)
		c.Rotatef(180, 0, 1, 0) // back face towards the viewer
		c.DrawArrays(gles.TRIANGLE_STRIP, 0, 6)
	}},
	{"fog", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.MatrixMode(gles.PROJECTION)
		c.Frustumf(-0.1, 0.1, -0.1, 0.1, 0.1, 20)
		c.MatrixMode(gles.MODELVIEW)
		c.Enable(gles.FOG)
		c.Fogfv(gles.FOG_COLOR, []float32{0.8, 0.8, 0.9, 1})
		modes := []gles.Enum{gles.LINEAR, gles.EXP, gles.EXP2}
		for i, m := range modes {
			for h, hint := range []gles.Enum{gles.FASTEST, gles.NICEST} {
				c.Fogf(gles.FOG_MODE, float32(m))
				c.Fogf(gles.FOG_START, 1)
				c.Fogf(gles.FOG_END, 8)
				c.Fogf(gles.FOG_DENSITY, 0.35)
				c.Hint(gles.FOG_HINT, hint)
				c.LoadIdentity()
				x := -0.6 + 0.4*float32(i) + 0.2*float32(h)
				c.Color4f(0.9, 0.2, 0.1, 1)
				// A strip receding from z = -1 to z = -10.
				pos := []float32{x - 0.05, -0.3, -1, x + 0.05, -0.3, -1, x*10 - 0.5, -0.3, -10, x*10 + 0.5, -0.3, -10}
				c.EnableClientState(gles.VERTEX_ARRAY)
				c.VertexPointer(3, gles.FLOAT, 0, pos)
				c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
			}
		}
	}},
	{"points", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.EnableClientState(gles.COLOR_ARRAY)
		pos := []float32{-0.8, 0.7, 0, -0.5, 0.7, 0, -0.1, 0.7, 0, 0.5, 0.7, 0}
		col := []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1}
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.ColorPointer(4, gles.FLOAT, 0, col)
		c.PointSize(1)
		c.DrawArrays(gles.POINTS, 0, 1)
		c.PointSize(4)
		c.DrawArrays(gles.POINTS, 1, 1)
		c.PointSize(7.5)
		c.DrawArrays(gles.POINTS, 2, 2)
		// Point-size array and distance attenuation.
		c.EnableClientState(gles.POINT_SIZE_ARRAY_OES)
		c.PointSizePointerOES(gles.FLOAT, 0, []float32{2, 5, 8, 11})
		c.Translatef(0, -0.5, 0)
		c.DrawArrays(gles.POINTS, 0, 4)
		c.DisableClientState(gles.POINT_SIZE_ARRAY_OES)
		c.PointParameterfv(gles.POINT_DISTANCE_ATTENUATION, []float32{0, 0, 4})
		c.PointSize(12)
		c.Translatef(0, -0.4, -1)
		c.DrawArrays(gles.POINTS, 0, 4)
		c.PointParameterfv(gles.POINT_DISTANCE_ATTENUATION, []float32{1, 0, 0})
		// A sprite and a smooth point.
		c.LoadIdentity()
		texture(c, 8, 8, checker(8, 8, 2), gles.NEAREST)
		c.Enable(gles.POINT_SPRITE_OES)
		c.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
		c.PointSize(20)
		c.DisableClientState(gles.COLOR_ARRAY)
		c.Color4f(1, 1, 1, 1)
		c.VertexPointer(3, gles.FLOAT, 0, []float32{-0.6, -0.65, 0})
		c.DrawArrays(gles.POINTS, 0, 1)
		c.Disable(gles.POINT_SPRITE_OES)
		c.Disable(gles.TEXTURE_2D)
		c.Enable(gles.POINT_SMOOTH)
		c.Enable(gles.BLEND)
		c.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
		c.VertexPointer(3, gles.FLOAT, 0, []float32{0.5, -0.65, 0})
		c.DrawArrays(gles.POINTS, 0, 1)
	}},
	{"lines", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.EnableClientState(gles.COLOR_ARRAY)
		pos := []float32{-0.9, 0.9, 0, 0.9, 0.6, 0, -0.9, 0.5, 0, 0.3, -0.9, 0, 0.9, -0.1, 0}
		col := []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1}
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.ColorPointer(4, gles.FLOAT, 0, col)
		c.DrawArrays(gles.LINES, 0, 2)
		c.LineWidth(3)
		c.DrawArrays(gles.LINE_STRIP, 2, 3)
		c.LineWidth(1)
		c.Scalef(0.5, 0.5, 1)
		c.Translatef(-0.8, -0.8, 0)
		c.DrawArrays(gles.LINE_LOOP, 2, 3)
		c.Translatef(0.6, 0.6, 0)
		c.Enable(gles.LINE_SMOOTH)
		c.Enable(gles.BLEND)
		c.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
		c.LineWidth(2)
		c.DrawArrays(gles.LINE_STRIP, 2, 3)
	}},
	{"polygon-offset-clip-plane", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.Enable(gles.DEPTH_TEST)
		c.DepthFunc(gles.LESS)
		c.Color4f(0.2, 0.8, 0.2, 1)
		pos := []float32{-0.9, -0.9, 0.2, 0.9, -0.9, -0.3, -0.9, 0.9, 0.1, 0.9, 0.9, -0.2}
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		c.Enable(gles.POLYGON_OFFSET_FILL)
		c.PolygonOffset(-1, -2)
		c.Color4f(0.9, 0.2, 0.2, 1)
		c.Scalef(0.5, 0.5, 1)
		c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		c.Disable(gles.POLYGON_OFFSET_FILL)
		c.LoadIdentity()
		c.ClipPlanef(gles.CLIP_PLANE0, []float32{1, 1, 0, 0.3})
		c.Enable(gles.CLIP_PLANE0)
		c.Disable(gles.DEPTH_TEST)
		c.Color4f(0.2, 0.4, 1, 1)
		c.VertexPointer(3, gles.FLOAT, 0, []float32{-1, 1, 0, -1, 0.2, 0, 0.8, 1, 0})
		c.DrawArrays(gles.TRIANGLES, 0, 3)
		c.Disable(gles.CLIP_PLANE0)
	}},
	{"cull-frustum-clip", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.Enable(gles.CULL_FACE)
		c.CullFace(gles.BACK)
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.Color4f(1, 1, 0, 1)
		c.VertexPointer(3, gles.FLOAT, 0, []float32{-0.9, 0.1, 0, -0.1, 0.1, 0, -0.5, 0.9, 0})
		c.DrawArrays(gles.TRIANGLES, 0, 3) // CCW: kept
		c.VertexPointer(3, gles.FLOAT, 0, []float32{0.1, 0.1, 0, 0.5, 0.9, 0, 0.9, 0.1, 0})
		c.DrawArrays(gles.TRIANGLES, 0, 3) // CW: culled
		c.FrontFace(gles.CW)
		c.Color4f(0, 1, 1, 1)
		c.DrawArrays(gles.TRIANGLES, 0, 3) // now kept
		c.FrontFace(gles.CCW)
		c.Disable(gles.CULL_FACE)
		// A triangle crossing the near plane in perspective.
		c.MatrixMode(gles.PROJECTION)
		c.Frustumf(-0.5, 0.5, -0.5, 0.5, 1, 10)
		c.MatrixMode(gles.MODELVIEW)
		c.EnableClientState(gles.COLOR_ARRAY)
		c.ColorPointer(4, gles.FLOAT, 0, []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1})
		c.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -0.5, -3, 1, -0.5, -3, 0, -0.3, 0.5})
		c.DrawArrays(gles.TRIANGLES, 0, 3)
	}},
	{"draw-texture-elements", defCfg(), func(c *gles.Context) {
		ortho(c)
		texture(c, 16, 16, checker(16, 16, 4), gles.NEAREST)
		c.TexParameteriv(gles.TEXTURE_2D, gles.TEXTURE_CROP_RECT_OES, []int{0, 0, 8, 16})
		c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
		c.DrawTexiOES(4, 36, 0, 24, 24)
		c.Disable(gles.TEXTURE_2D)
		// DrawElements from a buffer object: fixed-point positions, byte
		// indices.
		fx := func(v float32) int32 { return int32(v * 65536) }
		pos := []int32{fx(0), fx(0), fx(0.9), fx(0), fx(0.9), fx(0.9), fx(0), fx(0.9)}
		b := c.GenBuffers(2)
		c.BindBuffer(gles.ARRAY_BUFFER, b[0])
		c.BufferData(gles.ARRAY_BUFFER, pos, gles.STATIC_DRAW)
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.VertexPointer(2, gles.FIXED, 0, 0)
		c.BindBuffer(gles.ARRAY_BUFFER, 0)
		c.BindBuffer(gles.ELEMENT_ARRAY_BUFFER, b[1])
		c.BufferData(gles.ELEMENT_ARRAY_BUFFER, []uint8{0, 1, 2, 0, 2, 3}, gles.STATIC_DRAW)
		c.Color4f(0.3, 1, 0.3, 1)
		c.DrawElements(gles.TRIANGLES, 6, gles.UNSIGNED_BYTE, 0)
		c.BindBuffer(gles.ELEMENT_ARRAY_BUFFER, 0)
		c.Translatef(0, -0.95, 0)
		c.Color4f(1, 0.3, 1, 1)
		c.VertexPointer(2, gles.BYTE, 0, []int8{0, 0, 1, 0, 1, 1})
		c.Scalef(0.8, 0.8, 1)
		c.DrawElements(gles.TRIANGLES, 3, gles.UNSIGNED_SHORT, []uint16{0, 1, 2})
	}},
	{"matrix-palette", defCfg(), func(c *gles.Context) {
		ortho(c)
		c.Enable(gles.MATRIX_PALETTE_OES)
		c.MatrixMode(gles.MATRIX_PALETTE_OES)
		c.CurrentPaletteMatrixOES(0)
		c.LoadIdentity()
		c.CurrentPaletteMatrixOES(1)
		c.LoadIdentity()
		c.Rotatef(35, 0, 0, 1)
		c.MatrixMode(gles.MODELVIEW)
		// A bar bending from bone 0 (left) to bone 1 (right).
		var pos, w []float32
		var mi []uint8
		for i := 0; i <= 8; i++ {
			x := -0.8 + 0.2*float32(i)
			k := float32(i) / 8
			for _, y := range []float32{-0.15, 0.15} {
				pos = append(pos, x, y, 0)
				w = append(w, 1-k, k)
				mi = append(mi, 0, 1)
			}
		}
		c.EnableClientState(gles.VERTEX_ARRAY)
		c.VertexPointer(3, gles.FLOAT, 0, pos)
		c.EnableClientState(gles.WEIGHT_ARRAY_OES)
		c.WeightPointerOES(2, gles.FLOAT, 0, w)
		c.EnableClientState(gles.MATRIX_INDEX_ARRAY_OES)
		c.MatrixIndexPointerOES(2, gles.UNSIGNED_BYTE, 0, mi)
		c.Color4f(0.9, 0.6, 0.2, 1)
		c.DrawArrays(gles.TRIANGLE_STRIP, 0, 18)
		c.Disable(gles.MATRIX_PALETTE_OES)
	}},
}

// render draws a scene and returns its image.
func render(t testing.TB, s scene) *image.NRGBA {
	t.Helper()
	c, err := gles.NewContext("glamo3365", s.cfg)
	require.NoError(t, err)
	s.draw(c)
	c.Finish()
	img := c.Image()
	require.NoError(t, c.Err(), s.name)
	require.NoError(t, c.Close())
	return img.(*image.NRGBA)
}

func goldenPNG(t *testing.T, name string, img *image.NRGBA) {
	t.Helper()
	gold.Image(t, gold.Path("glamo3365", "img", name+".png"), img)
}

// TestSceneImages renders every feature-group scene and the examples and
// compares them with the golden PNGs byte for byte: the simulator is exact.
func TestSceneImages(t *testing.T) {
	var imgs []*image.NRGBA
	for _, s := range allScenes {
		img := render(t, s)
		goldenPNG(t, s.name, img)
		imgs = append(imgs, img)
	}
	for _, s := range scenes.All() {
		img := render(t, scene{name: "example-" + s.Name, cfg: s.Config, draw: func(c *gles.Context) { _ = s.Draw(c) }})
		goldenPNG(t, "example-"+s.Name, img)
		imgs = append(imgs, img)
	}
	if *sheet != "" {
		writeSheet(t, *sheet, imgs)
	}
}

func writeSheet(t *testing.T, path string, imgs []*image.NRGBA) {
	const cols, cell = 5, 4 * sz
	rows := (len(imgs) + cols - 1) / cols
	out := image.NewNRGBA(image.Rect(0, 0, cols*cell, rows*cell))
	for i, im := range imgs {
		x0, y0 := (i%cols)*cell, (i/cols)*cell
		b := im.Bounds()
		scale := max(1, min(cell/b.Dx(), cell/b.Dy()))
		for y := 0; y < b.Dy()*scale && y < cell; y++ {
			for x := 0; x < b.Dx()*scale && x < cell; x++ {
				out.Set(x0+x, y0+y, im.At(x/scale, y/scale))
			}
		}
	}
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, png.Encode(f, out))
}

var _ = driver.FormatRGB565
