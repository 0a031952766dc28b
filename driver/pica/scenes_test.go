package pica_test

import (
	"math"

	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// checker returns a size x size RGBA texture: texel (x, y) is (x*k, y*k,
// 255 on odd 16-texel squares else 0, 200), the standard scene's texture.
func checker(size int) []byte {
	b := make([]byte, size*size*4)
	k := 256 / size
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			o := 4 * (y*size + x)
			b[o], b[o+1] = byte(x*k), byte(y*k)
			if ((x*k>>4)^(y*k>>4))&1 != 0 {
				b[o+2] = 255
			}
			b[o+3] = 200
		}
	}
	return b
}

func quad(ctx trace.GL, z float32, tex bool) {
	pos := []float32{-1, -1, z, 1, -1, z, 1, 1, z, -1, 1, z}
	col := []float32{1, 0, 0, 0.8, 0, 1, 0, 0.8, 0, 0, 1, 0.8, 1, 1, 0, 0.8}
	tc := []float32{0, 0, 2, 0, 2, 2, 0, 2}
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.EnableClientState(gles.COLOR_ARRAY)
	ctx.VertexPointer(3, gles.FLOAT, 0, pos)
	ctx.ColorPointer(4, gles.FLOAT, 0, col)
	if tex {
		ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		ctx.TexCoordPointer(2, gles.FLOAT, 0, tc)
	}
	ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
}

// testScenes are the feature groups of the golden tests.
func testScenes() []scenes.Scene {
	return []scenes.Scene{
		{Name: "tex-blend", Config: gles.Config{Width: 64, Height: 48, DepthBits: 24}, Draw: func(ctx trace.GL) error {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
			tex := ctx.GenTextures(1)
			ctx.BindTexture(gles.TEXTURE_2D, tex[0])
			ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 32, 32, 0, gles.RGBA, gles.UNSIGNED_BYTE, checker(32))
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))
			ctx.Enable(gles.TEXTURE_2D)
			ctx.Enable(gles.BLEND)
			ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
			ctx.Enable(gles.DEPTH_TEST)
			ctx.DepthFunc(gles.LEQUAL)
			for q := 0; q < 3; q++ {
				quad(ctx, 1-1.8*float32(q)/8, true)
			}
			ctx.Finish()
			return ctx.Err()
		}},
		{Name: "lighting", Config: gles.Config{Width: 64, Height: 64, DepthBits: 16}, Draw: func(ctx trace.GL) error {
			ctx.ClearColor(0.1, 0.1, 0.1, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
			ctx.MatrixMode(gles.PROJECTION)
			ctx.Frustumf(-1, 1, -1, 1, 1, 10)
			ctx.MatrixMode(gles.MODELVIEW)
			ctx.Translatef(0, 0, -3)
			ctx.Rotatef(30, 1, 0, 0)
			ctx.Rotatef(-30, 0, 1, 0)
			ctx.Enable(gles.LIGHTING)
			ctx.Enable(gles.LIGHT0)
			ctx.Enable(gles.LIGHT1)
			ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{0.2, 0.5, 1, 0})
			ctx.Lightfv(gles.LIGHT1, gles.POSITION, []float32{-2, 0, 3, 1})
			ctx.Lightfv(gles.LIGHT1, gles.DIFFUSE, []float32{0, 0.5, 1, 1})
			ctx.Lightf(gles.LIGHT1, gles.LINEAR_ATTENUATION, 0.5)
			ctx.Materialfv(gles.FRONT_AND_BACK, gles.SPECULAR, []float32{1, 1, 1, 1})
			ctx.Materialf(gles.FRONT_AND_BACK, gles.SHININESS, 20)
			ctx.Enable(gles.DEPTH_TEST)
			ctx.Enable(gles.NORMALIZE)
			// A cube's three visible faces.
			faces := [][3]float32{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}
			for _, n := range faces {
				var pos []float32
				corner := func(a, b float32) []float32 {
					switch {
					case n[2] != 0:
						return []float32{a, b, 1}
					case n[0] != 0:
						return []float32{1, a, b}
					}
					return []float32{a, 1, b}
				}
				for _, ab := range [][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
					pos = append(pos, corner(ab[0], ab[1])...)
				}
				if n[0] != 0 {
					pos = []float32{1, -1, 1, 1, -1, -1, 1, 1, -1, 1, 1, 1}
				}
				if n[1] != 0 {
					pos = []float32{-1, 1, 1, 1, 1, 1, 1, 1, -1, -1, 1, -1}
				}
				ctx.Normal3f(n[0], n[1], n[2])
				ctx.EnableClientState(gles.VERTEX_ARRAY)
				ctx.VertexPointer(3, gles.FLOAT, 0, pos)
				ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
			}
			ctx.Finish()
			return ctx.Err()
		}},
		{Name: "fog-linear", Config: gles.Config{Width: 64, Height: 32, DepthBits: 16}, Draw: func(ctx trace.GL) error {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
			ctx.MatrixMode(gles.PROJECTION)
			ctx.Frustumf(-0.5, 0.5, -0.5, 0.5, 1, 20)
			ctx.MatrixMode(gles.MODELVIEW)
			ctx.Enable(gles.FOG)
			ctx.Fogf(gles.FOG_MODE, float32(gles.LINEAR))
			ctx.Fogf(gles.FOG_START, 2)
			ctx.Fogf(gles.FOG_END, 12)
			ctx.Fogfv(gles.FOG_COLOR, []float32{0.5, 0.5, 0.5, 1})
			// A floor receding from z = -1.5 to z = -15.
			pos := []float32{-2, -0.6, -1.5, 2, -0.6, -1.5, 2, -0.6, -15, -2, -0.6, -15}
			ctx.Color4f(1, 0.2, 0, 1)
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(3, gles.FLOAT, 0, pos)
			ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
			ctx.Finish()
			return ctx.Err()
		}},
		{Name: "stencil-alpha-logic", Config: gles.Config{Width: 32, Height: 32, DepthBits: 24, StencilBits: 8}, Draw: func(ctx trace.GL) error {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.ClearStencil(0)
			ctx.Clear(gles.COLOR_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
			// Write stencil 1 where a small triangle lands, colour masked.
			ctx.Enable(gles.STENCIL_TEST)
			ctx.StencilFunc(gles.ALWAYS, 1, 0xFF)
			ctx.StencilOp(gles.KEEP, gles.KEEP, gles.REPLACE)
			ctx.ColorMask(false, false, false, false)
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-0.5, -0.5, 0.5, -0.5, 0, 0.5})
			ctx.DrawArrays(gles.TRIANGLES, 0, 3)
			ctx.ColorMask(true, true, true, true)
			// Draw a full quad only where stencil == 1, alpha-tested per vertex.
			ctx.StencilFunc(gles.EQUAL, 1, 0xFF)
			ctx.StencilOp(gles.KEEP, gles.KEEP, gles.KEEP)
			ctx.Enable(gles.ALPHA_TEST)
			ctx.AlphaFunc(gles.GREATER, 0.5)
			ctx.EnableClientState(gles.COLOR_ARRAY)
			ctx.ColorPointer(4, gles.FLOAT, 0, []float32{0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1})
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, 1, 1, -1, 1})
			ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
			ctx.Disable(gles.ALPHA_TEST)
			ctx.Disable(gles.STENCIL_TEST)
			// XOR a bar across everything.
			ctx.Enable(gles.COLOR_LOGIC_OP)
			ctx.LogicOp(gles.XOR)
			ctx.DisableClientState(gles.COLOR_ARRAY)
			ctx.Color4f(1, 1, 1, 1)
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -0.2, 1, -0.2, 1, 0.2, -1, 0.2})
			ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
			ctx.Finish()
			return ctx.Err()
		}},
		{Name: "combine-multitex", Config: gles.Config{Width: 32, Height: 32}, Draw: func(ctx trace.GL) error {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT)
			tex := ctx.GenTextures(2)
			ctx.ActiveTexture(gles.TEXTURE0)
			ctx.BindTexture(gles.TEXTURE_2D, tex[0])
			ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 16, 16, 0, gles.RGBA, gles.UNSIGNED_BYTE, checker(16))
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
			ctx.Enable(gles.TEXTURE_2D)
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.COMBINE))
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(gles.INTERPOLATE))
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC0_RGB, int(gles.TEXTURE))
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.CONSTANT))
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC2_RGB, int(gles.PRIMARY_COLOR))
			ctx.TexEnvfv(gles.TEXTURE_ENV, gles.TEXTURE_ENV_COLOR, []float32{1, 1, 0, 1})
			ctx.ActiveTexture(gles.TEXTURE1)
			ctx.BindTexture(gles.TEXTURE_2D, tex[1])
			lum := make([]byte, 8*8)
			for i := range lum {
				lum[i] = byte(i * 4)
			}
			ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.LUMINANCE, 8, 8, 0, gles.LUMINANCE, gles.UNSIGNED_BYTE, lum)
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
			ctx.Enable(gles.TEXTURE_2D)
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.COMBINE))
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.COMBINE_RGB, int(gles.DOT3_RGB))
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC0_RGB, int(gles.PREVIOUS))
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.SRC1_RGB, int(gles.TEXTURE))
			ctx.TexEnvf(gles.TEXTURE_ENV, gles.RGB_SCALE, 2)
			ctx.ClientActiveTexture(gles.TEXTURE1)
			ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
			ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 1, 1, 0, 1})
			ctx.ClientActiveTexture(gles.TEXTURE0)
			quad(ctx, 0, true)
			ctx.Finish()
			return ctx.Err()
		}},
		{Name: "points-lines-flat", Config: gles.Config{Width: 48, Height: 48}, Draw: func(ctx trace.GL) error {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT)
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.EnableClientState(gles.COLOR_ARRAY)
			var pos, col []float32
			for i := 0; i < 12; i++ {
				a := float64(i) * 3.14159265 / 6
				pos = append(pos, 0, 0, float32(0.9*cos(a)), float32(0.9*sin(a)))
				col = append(col, 1, 1, 1, 1, float32(i)/12, 1-float32(i)/12, 0.5, 1)
			}
			ctx.VertexPointer(2, gles.FLOAT, 0, pos)
			ctx.ColorPointer(4, gles.FLOAT, 0, col)
			ctx.LineWidth(2)
			ctx.DrawArrays(gles.LINES, 0, 24)
			ctx.LineWidth(1)
			ctx.PointSize(4)
			ctx.DrawArrays(gles.POINTS, 0, 24)
			ctx.ShadeModel(gles.FLAT)
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-0.9, -0.9, -0.4, -0.9, -0.9, -0.4, -0.4, -0.4})
			ctx.ColorPointer(4, gles.FLOAT, 0, []float32{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1})
			ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
			ctx.DisableClientState(gles.COLOR_ARRAY)
			ctx.Color4f(1, 0.5, 0, 1)
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0.4, -0.9, 0.9, -0.9, 0.9, -0.4, 0.4, -0.4})
			ctx.DrawArrays(gles.LINE_LOOP, 0, 4)
			ctx.Finish()
			return ctx.Err()
		}},
		{Name: "mipmap", Config: gles.Config{Width: 64, Height: 48, DepthBits: 16}, Draw: func(ctx trace.GL) error {
			ctx.ClearColor(0, 0, 0, 1)
			ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
			ctx.MatrixMode(gles.PROJECTION)
			ctx.Frustumf(-0.5, 0.5, -0.375, 0.375, 1, 60)
			ctx.MatrixMode(gles.MODELVIEW)
			tex := ctx.GenTextures(1)
			ctx.BindTexture(gles.TEXTURE_2D, tex[0])
			// Each level a solid colour, so the image shows which level
			// every pixel sampled.
			colors := [][4]byte{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 0, 255}, {255, 0, 255, 255}, {0, 255, 255, 255}, {255, 255, 255, 255}}
			for l, size := 0, 64; size >= 1; l, size = l+1, size/2 {
				b := make([]byte, size*size*4)
				for i := 0; i < size*size; i++ {
					copy(b[4*i:], colors[l][:])
				}
				ctx.TexImage2D(gles.TEXTURE_2D, l, gles.RGBA, size, size, 0, gles.RGBA, gles.UNSIGNED_BYTE, b)
			}
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR_MIPMAP_LINEAR))
			ctx.Enable(gles.TEXTURE_2D)
			ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
			ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-4, -1, -1.2, 4, -1, -1.2, 4, -1, -60, -4, -1, -60})
			ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 1, 8, 0, 8})
			ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
			// The upper half: nearest mip.
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST_MIPMAP_NEAREST))
			ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-4, 1, -1.2, 4, 1, -1.2, 4, 1, -60, -4, 1, -60})
			ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
			ctx.Finish()
			return ctx.Err()
		}},
	}
}

func cos(a float64) float64 { return math.Cos(a) }
func sin(a float64) float64 { return math.Sin(a) }
