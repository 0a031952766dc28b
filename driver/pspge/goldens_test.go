package pspge_test

import (
	"bytes"
	"image"
	"math"
	"testing"

	gold "github.com/retrogl/retrogl/internal/golden"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
)

// goldenImage compares img with testdata/pspge/name exactly (the
// simulator is deterministic), or rewrites it with -update.
func goldenImage(t *testing.T, name string, img image.Image) {
	t.Helper()
	gold.Image(t, gold.Path("pspge", name), img)
}

// featureScenes are one small scene per feature group; each is rendered
// with a capture, and both its decoded command stream and its image are
// golden files.
var featureScenes = []struct {
	name string
	draw func(ctx *gles.Context)
}{
	{"textures", func(ctx *gles.Context) {
		ctx.Enable(gles.TEXTURE_2D)
		// Left: a mipmapped RGBA checker, bilinear/trilinear, modulated by
		// vertex colours, perspective.
		ids := ctx.GenTextures(3)
		ctx.BindTexture(gles.TEXTURE_2D, ids[0])
		ctx.TexParameteri(gles.TEXTURE_2D, gles.GENERATE_MIPMAP, 1)
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR_MIPMAP_LINEAR))
		pix := make([]uint8, 32*32*4)
		for i := range pix {
			x, y := i/4%32, i/4/32
			if (x/4+y/4)%2 == 0 && i%4 != 3 {
				pix[i] = 255
			} else if i%4 == 3 {
				pix[i] = 255
			}
		}
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 32, 32, 0, gles.RGBA, gles.UNSIGNED_BYTE, pix)
		ctx.MatrixMode(gles.PROJECTION)
		ctx.Frustumf(-0.5, 0.5, -0.5, 0.5, 1, 20)
		ctx.MatrixMode(gles.MODELVIEW)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		ctx.EnableClientState(gles.COLOR_ARRAY)
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-3, -1, -2, 0, -1, -2, 0, -1, -15, -3, -1, -15})
		ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 2, 0, 2, 8, 0, 8})
		ctx.ColorPointer(4, gles.FLOAT, 0, []float32{1, 1, 1, 1, 1, 0.5, 0.5, 1, 0.5, 1, 0.5, 1, 0.5, 0.5, 1, 1})
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
		ctx.DisableClientState(gles.COLOR_ARRAY)
		// Right top: a paletted texture; right bottom: DXT5.
		ctx.BindTexture(gles.TEXTURE_2D, ids[1])
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
		ctx.CompressedTexImage2D(gles.TEXTURE_2D, 0, gles.PALETTE4_RGBA8_OES, 2, 2, 0, append(palette(16, 4), 0x12, 0x30))
		ctx.LoadIdentity()
		ctx.MatrixMode(gles.PROJECTION)
		ctx.LoadIdentity()
		ctx.MatrixMode(gles.MODELVIEW)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0.1, 0.1, 0.9, 0.1, 0.9, 0.9, 0.1, 0.9})
		ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 1, 1, 0, 1})
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.REPLACE))
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
		ctx.BindTexture(gles.TEXTURE_2D, ids[2])
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR))
		dxt5 := []byte{0xFF, 0x00, 0x24, 0x92, 0x49, 0x24, 0x92, 0x49, 0x00, 0xF8, 0x1F, 0x00, 0x50, 0x50, 0xA0, 0xA0}
		ctx.CompressedTexImage2D(gles.TEXTURE_2D, 0, gles.COMPRESSED_RGBA_S3TC_DXT5_EXT, 4, 4, 0, dxt5)
		ctx.Enable(gles.BLEND)
		ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0.1, -0.9, 0.9, -0.9, 0.9, -0.1, 0.1, -0.1})
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
	}},
	{"lighting", func(ctx *gles.Context) {
		ctx.Enable(gles.DEPTH_TEST)
		ctx.Enable(gles.LIGHTING)
		ctx.Enable(gles.NORMALIZE)
		ctx.MatrixMode(gles.PROJECTION)
		ctx.Frustumf(-1, 1, -1, 1, 2, 10)
		ctx.MatrixMode(gles.MODELVIEW)
		ctx.Translatef(0, 0, -4)
		ctx.Materialfv(gles.FRONT_AND_BACK, gles.SPECULAR, []float32{1, 1, 1, 1})
		ctx.Materialf(gles.FRONT_AND_BACK, gles.SHININESS, 20)
		ctx.Enable(gles.LIGHT0)
		ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{1, 1, 1, 0})
		ctx.Enable(gles.LIGHT1)
		ctx.Lightfv(gles.LIGHT1, gles.POSITION, []float32{-2, 0, 0, 1})
		ctx.Lightfv(gles.LIGHT1, gles.DIFFUSE, []float32{0, 0, 1, 1})
		ctx.Lightf(gles.LIGHT1, gles.LINEAR_ATTENUATION, 0.3)
		ctx.Enable(gles.LIGHT2)
		ctx.Lightfv(gles.LIGHT2, gles.POSITION, []float32{0, 2, 1, 1})
		ctx.Lightfv(gles.LIGHT2, gles.SPOT_DIRECTION, []float32{0, -1, -0.5})
		ctx.Lightf(gles.LIGHT2, gles.SPOT_CUTOFF, 40)
		ctx.Lightf(gles.LIGHT2, gles.SPOT_EXPONENT, 4)
		ctx.Lightfv(gles.LIGHT2, gles.DIFFUSE, []float32{1, 0, 0, 1})
		// A sphere of 12x8 quads as triangle strips (hardware path), then
		// the same with a fifth light (software T&L), shifted right.
		var pos, nrm []float32
		for j := 0; j < 8; j++ {
			for i := 0; i <= 12; i++ {
				for _, jj := range []int{j, j + 1} {
					th, ph := float64(i)/12*2*math.Pi, float64(jj)/8*math.Pi
					x, y, z := float32(math.Sin(ph)*math.Cos(th)), float32(math.Cos(ph)), float32(math.Sin(ph)*math.Sin(th))
					pos = append(pos, x, y, z)
					nrm = append(nrm, x, y, z)
				}
			}
		}
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.EnableClientState(gles.NORMAL_ARRAY)
		ctx.VertexPointer(3, gles.FLOAT, 0, pos)
		ctx.NormalPointer(gles.FLOAT, 0, nrm)
		ctx.PushMatrix()
		ctx.Translatef(-1.1, 0, 0)
		for j := 0; j < 8; j++ {
			ctx.DrawArrays(gles.TRIANGLE_STRIP, j*26, 26)
		}
		ctx.PopMatrix()
		for l := gles.LIGHT3; l <= gles.LIGHT4; l++ {
			ctx.Enable(l)
			ctx.Lightfv(l, gles.DIFFUSE, []float32{0.1, 0.1, 0, 1})
		}
		ctx.Translatef(1.1, 0, 0)
		for j := 0; j < 8; j++ {
			ctx.DrawArrays(gles.TRIANGLE_STRIP, j*26, 26)
		}
	}},
	{"fragment", func(ctx *gles.Context) {
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.EnableClientState(gles.COLOR_ARRAY)
		band := func(y0, y1 float32) {
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, y0, 1, y0, 1, y1, -1, y1})
			ctx.ColorPointer(4, gles.FLOAT, 0, []float32{1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0.3})
			ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
		}
		ctx.Enable(gles.ALPHA_TEST)
		ctx.AlphaFunc(gles.GEQUAL, 0.5)
		band(0.6, 1)
		ctx.Disable(gles.ALPHA_TEST)
		ctx.Enable(gles.BLEND)
		ctx.BlendFunc(gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
		band(0.2, 0.6)
		ctx.BlendFunc(gles.ONE, gles.ONE)
		band(0.4, 0.8)
		ctx.Disable(gles.BLEND)
		ctx.Enable(gles.COLOR_LOGIC_OP)
		ctx.LogicOp(gles.XOR)
		band(-0.2, 0.3)
		ctx.Disable(gles.COLOR_LOGIC_OP)
		ctx.Enable(gles.FOG)
		ctx.Fogf(gles.FOG_MODE, float32(gles.LINEAR))
		ctx.Fogf(gles.FOG_START, -1)
		ctx.Fogf(gles.FOG_END, 1)
		ctx.Fogfv(gles.FOG_COLOR, []float32{0.5, 0.5, 0.5, 1})
		ctx.VertexPointer(3, gles.FLOAT, 0, []float32{-1, -0.6, 1, 1, -0.6, -1, 1, -0.2, -1, -1, -0.2, 1})
		ctx.DrawArrays(gles.TRIANGLE_FAN, 0, 4)
		ctx.Disable(gles.FOG)
		ctx.ColorMask(true, false, true, true)
		band(-1, -0.6)
	}},
	{"primitives", func(ctx *gles.Context) {
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.EnableClientState(gles.COLOR_ARRAY)
		var pos, col []float32
		for i := 0; i < 12; i++ {
			a := float64(i) / 12 * 2 * math.Pi
			pos = append(pos, float32(0.8*math.Cos(a)), float32(0.8*math.Sin(a)))
			col = append(col, float32(i)/12, 1-float32(i)/12, 0.5, 1)
		}
		ctx.VertexPointer(2, gles.FLOAT, 0, pos)
		ctx.ColorPointer(4, gles.FLOAT, 0, col)
		ctx.DrawArrays(gles.LINE_LOOP, 0, 12)
		ctx.DrawArrays(gles.POINTS, 0, 12)
		ctx.LineWidth(3)
		ctx.DrawElements(gles.LINES, 4, gles.UNSIGNED_BYTE, []uint8{0, 6, 3, 9})
		ctx.PointSize(6)
		ctx.DrawArrays(gles.POINTS, 0, 12)
		ctx.DisableClientState(gles.COLOR_ARRAY)
		ids := ctx.GenTextures(1)
		ctx.BindTexture(gles.TEXTURE_2D, ids[0])
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
		ctx.PixelStorei(gles.UNPACK_ALIGNMENT, 1)
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGB, 2, 2, 0, gles.RGB, gles.UNSIGNED_BYTE, []uint8{255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0})
		ctx.Enable(gles.TEXTURE_2D)
		ctx.Color4f(1, 1, 1, 1)
		ctx.TexParameteriv(gles.TEXTURE_2D, gles.TEXTURE_CROP_RECT_OES, []int{0, 0, 2, 2})
		ctx.DrawTexiOES(4, 4, 0, 12, 12)
		ctx.Enable(gles.POINT_SPRITE_OES)
		ctx.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
		ctx.PointSize(10)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0})
		ctx.DrawArrays(gles.POINTS, 0, 1)
	}},
	{"bbox_patches", func(ctx *gles.Context) {
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		var pts []float32
		for j := 0; j < 4; j++ {
			for i := 0; i < 4; i++ {
				z := float32(0)
				if i > 0 && i < 3 && j > 0 && j < 3 {
					z = 0.8
				}
				pts = append(pts, -0.9+1.8*float32(i)/3, -0.9+1.8*float32(j)/3, z)
			}
		}
		ctx.Enable(gles.LIGHTING)
		ctx.Enable(gles.LIGHT0)
		ctx.Lightfv(gles.LIGHT0, gles.POSITION, []float32{0.3, 0.3, 1, 0})
		ctx.VertexPointer(3, gles.FLOAT, 0, pts)
		ctx.BeginBoundingBoxPSP(-0.9, -0.9, 0, 0.9, 0.9, 0.8)
		ctx.DrawBezierPSP(gles.TRIANGLES, 4, 4, 6, 6)
		ctx.EndBoundingBoxPSP()
		ctx.Disable(gles.LIGHTING)
		ctx.Color4f(1, 1, 0, 1)
		ctx.DrawSplinePSP(gles.LINES, 4, 4, 3, 3, gles.SPLINE_OPEN_OPEN_PSP, gles.SPLINE_CLOSE_CLOSE_PSP)
		// Off-screen: the GE skips this region.
		ctx.BeginBoundingBoxPSP(3, 3, 0, 4, 4, 0)
		ctx.Color4f(1, 0, 0, 1)
		ctx.DrawBezierPSP(gles.TRIANGLES, 4, 4, 2, 2)
		ctx.EndBoundingBoxPSP()
	}},
}

// TestFeatureGoldens renders each feature scene on a 64x64 RGBA8888
// surface with a 16-bit depth buffer.
func TestFeatureGoldens(t *testing.T) {
	for _, sc := range featureScenes {
		t.Run(sc.name, func(t *testing.T) {
			var capture bytes.Buffer
			ctx, err := gles.NewContext("pspge", gles.Config{Width: 64, Height: 64, DepthBits: 16, Capture: &capture})
			require.NoError(t, err)
			ctx.ClearColor(0.1, 0.1, 0.2, 1)
			ctx.ClearDepthf(1)
			ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
			sc.draw(ctx)
			ctx.Finish()
			require.NoError(t, ctx.Err())
			img := ctx.Image()
			require.NoError(t, ctx.Close())
			golden(t, sc.name+".golden", decodeCapture(t, capture.Bytes()))
			goldenImage(t, sc.name+".png", img)
		})
	}
}
