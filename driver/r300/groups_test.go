package r300_test

import (
	"math"
	"testing"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
)

var (
	red    = [3]uint8{255, 40, 40}
	blue   = [3]uint8{40, 60, 255}
	yellow = [3]uint8{250, 220, 30}
)

func bg(c *gles.Context, w, h int) {
	pixelOrtho(c, w, h)
	c.ClearColor(0.2, 0.3, 0.3, 1)
	c.ClearDepthf(1)
	c.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
}

// texenvScene draws one quad per texture function over a Gouraud base.
func texenvScene(c *gles.Context) {
	bg(c, 128, 64)
	texture(c, 0, 16, checker(16, red, blue), gles.NEAREST)
	c.EnableClientState(gles.COLOR_ARRAY)
	modes := []gles.Enum{gles.MODULATE, gles.DECAL, gles.BLEND, gles.REPLACE, gles.ADD}
	c.TexEnvfv(gles.TEXTURE_ENV, gles.TEXTURE_ENV_COLOR, []float32{0.2, 0.9, 0.4, 0.5})
	for i, m := range modes {
		col := []float32{1, 1, 0.5, 1, 0.3, 1, 1, 0.6, 1, 0.2, 1, 0.8, 0.8, 0.8, 0.8, 1}
		c.ColorPointer(4, gles.FLOAT, 0, col)
		c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(m))
		x := float32(2 + 25*i)
		quad(c, x, 2, x+23, 30, 0, 1, 1)
	}
	// GL_COMBINE: interpolate, add-signed x2, dot3, subtract with alpha
	// operands.
	combine := []func(){
		func() {
			c.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(gles.INTERPOLATE))
			c.TexEnvi(gles.TEXTURE_ENV, gles.SRC0_RGB, int(gles.TEXTURE))
			c.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.CONSTANT))
			c.TexEnvi(gles.TEXTURE_ENV, gles.SRC2_RGB, int(gles.PRIMARY_COLOR))
			c.TexEnvi(gles.TEXTURE_ENV, gles.OPERAND2_RGB, int(gles.SRC_ALPHA))
		},
		func() {
			c.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(gles.ADD_SIGNED))
			c.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.PREVIOUS))
			c.TexEnvf(gles.TEXTURE_ENV, gles.RGB_SCALE, 2)
		},
		func() {
			c.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(gles.DOT3_RGB))
			c.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.CONSTANT))
			c.TexEnvf(gles.TEXTURE_ENV, gles.RGB_SCALE, 1)
		},
		func() {
			c.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(gles.SUBTRACT))
			c.TexEnvi(gles.TEXTURE_ENV, gles.OPERAND1_RGB, int(gles.ONE_MINUS_SRC_COLOR))
			c.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_ALPHA, int(gles.MODULATE))
			c.TexEnvi(gles.TEXTURE_ENV, gles.OPERAND0_ALPHA, int(gles.ONE_MINUS_SRC_ALPHA))
		},
		func() {
			c.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(gles.DOT3_RGBA))
		},
	}
	c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.COMBINE))
	for i, setup := range combine {
		setup()
		x := float32(2 + 25*i)
		quad(c, x, 34, x+23, 62, 0, 1, 1)
	}
}

// multitexScene modulates two textures on units 0 and 1.
func multitexScene(c *gles.Context) {
	bg(c, 64, 64)
	texture(c, 0, 16, checker(16, red, yellow), gles.LINEAR)
	texture(c, 1, 8, checker(8, blue, yellow), gles.NEAREST)
	c.ActiveTexture(gles.TEXTURE1)
	c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.ADD))
	c.ActiveTexture(gles.TEXTURE0)
	c.Color4f(0.8, 0.8, 0.8, 1)
	quad(c, 4, 4, 60, 60, 0, 2, 2)
}

// formatsScene shows one texture per internal format.
func formatsScene(c *gles.Context) {
	bg(c, 96, 32)
	c.Enable(gles.TEXTURE_2D)
	c.Enable(gles.BLEND)
	c.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
	c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
	src := checker(8, red, blue)
	type fmtCase struct {
		internal, format, typ gles.Enum
		data                  any
	}
	rgb := make([]byte, 8*8*3)
	l := make([]byte, 64)
	la := make([]byte, 128)
	p565 := make([]uint16, 64)
	p4444 := make([]uint16, 64)
	p5551 := make([]uint16, 64)
	for i := 0; i < 64; i++ {
		r, g, b, a := src[4*i], src[4*i+1], src[4*i+2], src[4*i+3]
		copy(rgb[3*i:], []byte{r, g, b})
		l[i] = r
		la[2*i], la[2*i+1] = g, a
		p565[i] = uint16(r>>3)<<11 | uint16(g>>2)<<5 | uint16(b>>3)
		p4444[i] = uint16(r>>4)<<12 | uint16(g>>4)<<8 | uint16(b>>4)<<4 | uint16(a>>4)
		p5551[i] = uint16(r>>3)<<11 | uint16(g>>3)<<6 | uint16(b>>3)<<1 | uint16(a>>7)
	}
	cases := []fmtCase{
		{gles.RGBA, gles.RGBA, gles.UNSIGNED_BYTE, src},
		{gles.RGB, gles.RGB, gles.UNSIGNED_BYTE, rgb},
		{gles.RGB, gles.RGB, gles.UNSIGNED_SHORT_5_6_5, p565},
		{gles.RGBA, gles.RGBA, gles.UNSIGNED_SHORT_4_4_4_4, p4444},
		{gles.RGBA, gles.RGBA, gles.UNSIGNED_SHORT_5_5_5_1, p5551},
		{gles.LUMINANCE, gles.LUMINANCE, gles.UNSIGNED_BYTE, l},
		{gles.ALPHA, gles.ALPHA, gles.UNSIGNED_BYTE, l},
		{gles.LUMINANCE_ALPHA, gles.LUMINANCE_ALPHA, gles.UNSIGNED_BYTE, la},
	}
	for i, fc := range cases {
		id := c.GenTextures(1)[0]
		c.BindTexture(gles.TEXTURE_2D, id)
		c.TexImage2D(gles.TEXTURE_2D, 0, fc.internal, 8, 8, 0, fc.format, fc.typ, fc.data)
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
		x := float32(1 + 12*i)
		quad(c, x, 2, x+10, 12, 0, 1, 1)
	}
	// Compressed: paletted, ETC1, DXT1, DXT3, DXT5.
	pal := make([]byte, 16*4+32)
	for i := 0; i < 16; i++ {
		copy(pal[4*i:], []byte{uint8(i * 16), uint8(255 - i*16), 128, 255})
	}
	for i := 0; i < 32; i++ {
		pal[64+i] = uint8(i*7) ^ uint8(i<<4)
	}
	dxt := []byte{0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0x1B, 0x1B} // red/blue ramps
	etc := []byte{0xF0, 0x0F, 0x80, 0x02, 0x00, 0xFF, 0xFF, 0x00}
	comp := []struct {
		f    gles.Enum
		data []byte
	}{
		{gles.PALETTE4_RGBA8_OES, pal},
		{gles.ETC1_RGB8_OES, etc},
		{gles.COMPRESSED_RGB_S3TC_DXT1_EXT, dxt},
		{gles.COMPRESSED_RGBA_S3TC_DXT3_EXT, append([]byte{0xFF, 0xEE, 0xDD, 0xCC, 0x88, 0x77, 0x44, 0x11}, dxt...)},
		{gles.COMPRESSED_RGBA_S3TC_DXT5_EXT, append([]byte{0xFF, 0x20, 0x49, 0x92, 0x24, 0xB6, 0x6D, 0xDB}, dxt...)},
	}
	for i, cc := range comp {
		id := c.GenTextures(1)[0]
		c.BindTexture(gles.TEXTURE_2D, id)
		size := 4
		if cc.f == gles.PALETTE4_RGBA8_OES {
			size = 8
		}
		c.CompressedTexImage2D(gles.TEXTURE_2D, 0, cc.f, size, size, 0, cc.data)
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
		x := float32(1 + 12*i)
		quad(c, x, 18, x+10, 28, 0, 1, 1)
	}
}

// blendScene: blend factors and equations, logic op, colour mask, alpha
// test, dither on 565 in the other scene.
func blendScene(c *gles.Context) {
	bg(c, 96, 48)
	c.Color4f(1, 0.5, 0, 1)
	quad(c, 0, 0, 96, 24, 0, 1, 1)
	c.Enable(gles.BLEND)
	cases := []struct{ s, d, eq gles.Enum }{
		{gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA, gles.FUNC_ADD_OES},
		{gles.ONE, gles.ONE, gles.FUNC_ADD_OES},
		{gles.DST_COLOR, gles.ZERO, gles.FUNC_ADD_OES},
		{gles.ONE, gles.ONE, gles.FUNC_SUBTRACT_OES},
		{gles.ONE, gles.ONE, gles.FUNC_REVERSE_SUBTRACT_OES},
		{gles.ONE, gles.ONE, gles.MIN_EXT},
		{gles.ONE, gles.ONE, gles.MAX_EXT},
		{gles.SRC_ALPHA_SATURATE, gles.ONE, gles.FUNC_ADD_OES},
	}
	c.Color4f(0.2, 0.6, 1, 0.5)
	for i, bc := range cases {
		c.BlendFunc(bc.s, bc.d)
		c.BlendEquationOES(bc.eq)
		x := float32(12 * i)
		quad(c, x, 12, x+11, 36, 0, 1, 1)
	}
	c.BlendEquationOES(gles.FUNC_ADD_OES)
	c.Disable(gles.BLEND)
	c.Enable(gles.COLOR_LOGIC_OP)
	c.LogicOp(gles.XOR)
	c.Color4f(1, 1, 1, 1)
	quad(c, 0, 38, 20, 48, 0, 1, 1)
	c.Disable(gles.COLOR_LOGIC_OP)
	c.ColorMask(false, true, false, true)
	quad(c, 22, 38, 42, 48, 0, 1, 1)
	c.ColorMask(true, true, true, true)
	c.Enable(gles.ALPHA_TEST)
	c.AlphaFunc(gles.GREATER, 0.5)
	c.EnableClientState(gles.COLOR_ARRAY)
	c.ColorPointer(4, gles.FLOAT, 0, []float32{1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 0})
	quad(c, 44, 38, 94, 48, 0, 1, 1)
}

// stencilScene: a stencil mask written by one draw limits the next.
func stencilScene(c *gles.Context) {
	bg(c, 64, 64)
	c.Enable(gles.STENCIL_TEST)
	c.StencilFunc(gles.ALWAYS, 1, 0xFF)
	c.StencilOp(gles.KEEP, gles.KEEP, gles.REPLACE)
	c.ColorMask(false, false, false, false)
	c.EnableClientState(gles.VERTEX_ARRAY)
	c.VertexPointer(2, gles.FLOAT, 0, []float32{32, 4, 60, 60, 4, 60})
	c.DrawArrays(gles.TRIANGLES, 0, 3)
	c.ColorMask(true, true, true, true)
	c.StencilFunc(gles.EQUAL, 1, 0xFF)
	c.StencilOp(gles.KEEP, gles.KEEP, gles.INCR)
	c.Color4f(1, 0.9, 0.2, 1)
	quad(c, 8, 8, 56, 56, 0, 1, 1)
	c.StencilFunc(gles.NOTEQUAL, 2, 0xFF)
	c.Color4f(0.2, 0.2, 1, 1)
	quad(c, 0, 24, 64, 40, 0, 1, 1)
	c.Disable(gles.STENCIL_TEST)
}

// depthScene: interpenetrating quads with depth, polygon offset, culling
// and flat shading.
func depthScene(c *gles.Context) {
	bg(c, 64, 64)
	c.Enable(gles.DEPTH_TEST)
	c.DepthFunc(gles.LESS)
	c.EnableClientState(gles.VERTEX_ARRAY)
	c.EnableClientState(gles.COLOR_ARRAY)
	c.VertexPointer(3, gles.FLOAT, 0, []float32{4, 4, -0.5, 60, 4, 0.5, 60, 60, 0.5, 4, 60, -0.5})
	c.ColorPointer(4, gles.FLOAT, 0, []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1})
	c.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	c.DisableClientState(gles.COLOR_ARRAY)
	c.Color4f(1, 1, 0, 1)
	c.VertexPointer(3, gles.FLOAT, 0, []float32{4, 20, 0.5, 60, 20, -0.5, 60, 44, -0.5, 4, 44, 0.5})
	c.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	// Coplanar decal with polygon offset.
	c.Enable(gles.POLYGON_OFFSET_FILL)
	c.PolygonOffset(-1, -2)
	c.Color4f(0, 1, 1, 1)
	c.VertexPointer(3, gles.FLOAT, 0, []float32{20, 24, 0.2143, 44, 24, -0.2143, 44, 40, -0.2143, 20, 40, 0.2143})
	c.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	c.Disable(gles.POLYGON_OFFSET_FILL)
	// Flat shading and culling: the clockwise triangle is culled.
	c.ShadeModel(gles.FLAT)
	c.Enable(gles.CULL_FACE)
	c.EnableClientState(gles.COLOR_ARRAY)
	c.ColorPointer(4, gles.FLOAT, 0, []float32{1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1})
	c.VertexPointer(3, gles.FLOAT, 0, []float32{2, 48, 0.9, 20, 48, 0.9, 11, 62, 0.9, 24, 62, 0.9, 40, 62, 0.9, 32, 48, 0.9})
	c.DrawArrays(gles.TRIANGLES, 0, 6)
}

// fogScene: linear, exp and exp2 fog in perspective, and per-vertex fog
// under an orthographic projection.
func fogScene(c *gles.Context) {
	c.Viewport(0, 0, 96, 32)
	c.ClearColor(0.2, 0.3, 0.3, 1)
	c.Clear(gles.COLOR_BUFFER_BIT)
	c.Enable(gles.FOG)
	c.Fogfv(gles.FOG_COLOR, []float32{0.7, 0.7, 0.8, 1})
	c.MatrixMode(gles.PROJECTION)
	c.LoadIdentity()
	c.Frustumf(-1, 1, -1, 1, 1, 20)
	c.MatrixMode(gles.MODELVIEW)
	c.LoadIdentity()
	c.EnableClientState(gles.VERTEX_ARRAY)
	c.Color4f(1, 0.2, 0.2, 1)
	floor := []float32{-1, -1, -1.2, 1, -1, -1.2, 1, -1, -19, -1, -1, -19}
	modes := []gles.Enum{gles.LINEAR, gles.EXP, gles.EXP2}
	c.Fogf(gles.FOG_START, 1)
	c.Fogf(gles.FOG_END, 12)
	c.Fogf(gles.FOG_DENSITY, 0.25)
	for i, m := range modes {
		c.Viewport(32*i, 0, 32, 32)
		c.Fogf(gles.FOG_MODE, float32(m))
		c.VertexPointer(3, gles.FLOAT, 0, floor)
		c.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	}
	// Orthographic: per-vertex fog factors.
	c.Viewport(0, 0, 96, 32)
	c.MatrixMode(gles.PROJECTION)
	c.LoadIdentity()
	c.Orthof(0, 96, 0, 32, 0, 10)
	c.Fogf(gles.FOG_MODE, float32(gles.LINEAR))
	c.Fogf(gles.FOG_START, 0)
	c.Fogf(gles.FOG_END, 10)
	c.Color4f(0.2, 1, 0.2, 1)
	c.VertexPointer(3, gles.FLOAT, 0, []float32{2, 26, -0.5, 94, 26, -9.5, 94, 31, -9.5, 2, 31, -0.5})
	c.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
}

// primsScene: points of several sizes (one sprite), lines of several
// widths, a line loop.
func primsScene(c *gles.Context) {
	bg(c, 64, 64)
	c.EnableClientState(gles.VERTEX_ARRAY)
	for i, s := range []float32{1, 2, 3, 5, 8} {
		c.PointSize(s)
		c.Color4f(1, float32(i)/4, 0, 1)
		c.VertexPointer(2, gles.FLOAT, 0, []float32{float32(6 + 12*i), 56})
		c.DrawArrays(gles.POINTS, 0, 1)
	}
	for i, w := range []float32{1, 2, 4} {
		c.LineWidth(w)
		c.Color4f(0, 1, float32(i)/2, 1)
		y := float32(40 - 8*i)
		c.VertexPointer(2, gles.FLOAT, 0, []float32{4, y, 60, y + 4})
		c.DrawArrays(gles.LINES, 0, 2)
	}
	c.LineWidth(1)
	c.Color4f(1, 1, 1, 1)
	c.VertexPointer(2, gles.FLOAT, 0, []float32{4, 4, 28, 6, 20, 16})
	c.DrawArrays(gles.LINE_LOOP, 0, 3)
	// Point sprite with a texture.
	texture(c, 0, 8, checker(8, red, blue), gles.NEAREST)
	c.Enable(gles.POINT_SPRITE_OES)
	c.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
	c.PointSize(16)
	c.VertexPointer(2, gles.FLOAT, 0, []float32{48, 12})
	c.DrawArrays(gles.POINTS, 0, 1)
}

// lightScene: a lit fan with two lights and two-sided lighting.
func lightScene(c *gles.Context) {
	c.Viewport(0, 0, 64, 64)
	c.ClearColor(0, 0, 0, 1)
	c.ClearDepthf(1)
	c.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	c.Enable(gles.DEPTH_TEST)
	c.MatrixMode(gles.PROJECTION)
	c.LoadIdentity()
	c.Frustumf(-1, 1, -1, 1, 2, 10)
	c.MatrixMode(gles.MODELVIEW)
	c.LoadIdentity()
	c.Translatef(0, 0, -4)
	c.Enable(gles.LIGHTING)
	c.Enable(gles.LIGHT0)
	c.Enable(gles.LIGHT1)
	c.Lightfv(gles.LIGHT0, gles.POSITION, []float32{1, 1, 2, 0})
	c.Lightfv(gles.LIGHT1, gles.POSITION, []float32{-3, 0, 2, 1})
	c.Lightfv(gles.LIGHT1, gles.DIFFUSE, []float32{0.2, 0.3, 1, 1})
	c.Materialfv(gles.FRONT_AND_BACK, gles.SPECULAR, []float32{1, 1, 1, 1})
	c.Materialf(gles.FRONT_AND_BACK, gles.SHININESS, 20)
	c.EnableClientState(gles.VERTEX_ARRAY)
	c.EnableClientState(gles.NORMAL_ARRAY)
	var pos, nrm []float32
	pos = append(pos, 0, 0, 0.5)
	nrm = append(nrm, 0, 0, 1)
	for i := 0; i <= 16; i++ {
		a := float64(i) / 16 * 2 * math.Pi
		x, y := float32(math.Cos(a)), float32(math.Sin(a))
		pos = append(pos, 1.5*x, 1.5*y, 0)
		nrm = append(nrm, x, y, 0.5)
	}
	c.VertexPointer(3, gles.FLOAT, 0, pos)
	c.NormalPointer(gles.FLOAT, 0, nrm)
	c.DrawArrays(gles.TRIANGLE_FAN, 0, 18)
}

// mipmapScene: a receding textured plane with trilinear filtering.
func mipmapScene(c *gles.Context) {
	c.Viewport(0, 0, 64, 64)
	c.ClearColor(0, 0, 0, 1)
	c.Clear(gles.COLOR_BUFFER_BIT)
	c.MatrixMode(gles.PROJECTION)
	c.LoadIdentity()
	c.Frustumf(-1, 1, -1, 1, 1, 40)
	c.MatrixMode(gles.MODELVIEW)
	c.LoadIdentity()
	id := c.GenTextures(1)[0]
	c.BindTexture(gles.TEXTURE_2D, id)
	c.TexParameteri(gles.TEXTURE_2D, gles.GENERATE_MIPMAP, 1)
	c.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 32, 32, 0, gles.RGBA, gles.UNSIGNED_BYTE, checker(32, yellow, blue))
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR_MIPMAP_LINEAR))
	c.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
	c.Enable(gles.TEXTURE_2D)
	c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
	c.EnableClientState(gles.VERTEX_ARRAY)
	c.EnableClientState(gles.TEXTURE_COORD_ARRAY)
	c.VertexPointer(3, gles.FLOAT, 0, []float32{-2, -1, -1, 2, -1, -1, 2, -1, -40, -2, -1, -40})
	c.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 4, 0, 4, 40, 0, 40})
	c.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
}

// clearScene: scissored clears with colour masks, and draw_texture.
func clearScene(c *gles.Context) {
	bg(c, 64, 64)
	c.Enable(gles.SCISSOR_TEST)
	c.Scissor(8, 8, 24, 40)
	c.ClearColor(1, 0, 0, 1)
	c.Clear(gles.COLOR_BUFFER_BIT)
	c.ColorMask(false, true, false, true)
	c.Scissor(20, 20, 40, 10)
	c.ClearColor(1, 1, 1, 1)
	c.Clear(gles.COLOR_BUFFER_BIT)
	c.ColorMask(true, true, true, true)
	c.Disable(gles.SCISSOR_TEST)
	texture(c, 0, 16, checker(16, yellow, blue), gles.NEAREST)
	c.TexParameteriv(gles.TEXTURE_2D, gles.TEXTURE_CROP_RECT_OES, []int{4, 4, 8, 8})
	c.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
	c.DrawTexiOES(40, 40, 0, 20, 20)
}

func rgb565Scene(c *gles.Context) {
	c.Viewport(0, 0, 64, 32)
	c.ClearColor(0.1, 0.1, 0.1, 1)
	c.Clear(gles.COLOR_BUFFER_BIT)
	pixelOrtho(c, 64, 32)
	c.Enable(gles.DITHER)
	c.EnableClientState(gles.COLOR_ARRAY)
	c.ColorPointer(4, gles.FLOAT, 0, []float32{0, 0, 0, 1, 1, 0.5, 0.2, 1, 1, 0.5, 0.2, 1, 0, 0, 0, 1})
	quad(c, 0, 0, 64, 16, 0, 1, 1)
	c.Disable(gles.DITHER)
	quad(c, 0, 16, 64, 32, 0, 1, 1)
}

func TestSceneGoldens(t *testing.T) {
	var list []scene
	// Every example scene (examples/scenes), as the gallery draws them.
	for _, ex := range scenes.All() {
		ex := ex
		cfg := ex.Config
		list = append(list, scene{"example-" + ex.Name, cfg.Width, cfg.Height, cfg.DepthBits, cfg.StencilBits,
			func(c *gles.Context) { _ = ex.Draw(c) }, cfg.Format})
	}
	list = append(list, []scene{
		{"texenv", 128, 64, 0, 0, texenvScene, 0},
		{"multitexture", 64, 64, 0, 0, multitexScene, 0},
		{"formats", 96, 32, 0, 0, formatsScene, 0},
		{"blend", 96, 48, 0, 0, blendScene, 0},
		{"stencil", 64, 64, 24, 8, stencilScene, 0},
		{"depth", 64, 64, 16, 0, depthScene, 0},
		{"fog", 96, 32, 0, 0, fogScene, 0},
		{"prims", 64, 64, 0, 0, primsScene, 0},
		{"lighting", 64, 64, 24, 0, lightScene, 0},
		{"mipmap", 64, 64, 0, 0, mipmapScene, 0},
		{"clear", 64, 64, 0, 0, clearScene, 0},
		{"rgb565-dither", 64, 32, 0, 0, rgb565Scene, driver.FormatRGB565},
	}...)
	// The chip with the TCL engine, and the one without (PVS bypass,
	// driver/swtnl on the CPU), whose goldens are under notcl/.
	for _, b := range []struct{ backend, dir string }{{"r300", ""}, {"r300-notcl", "notcl/"}} {
		for _, sc := range list {
			t.Run(b.backend+"/"+sc.name, func(t *testing.T) {
				img, lines := renderOn(t, b.backend, sc)
				checkGolden(t, b.dir+"scene-"+sc.name, img, lines)
			})
		}
	}
}
