package glamo_test

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/gles"
)

// TestSpriteMixedCoordReplace draws a point sprite whose unit 0 has
// GL_COORD_REPLACE_OES and unit 1 not (once refused: the chip replaces
// every unit's coordinates). OES_point_sprite: unit 0 runs s from 0 to 1
// across the 16-pixel square (left texel red, right green); unit 1 keeps
// the vertex's coordinates (0.75, 0.25): texel (1, 0), grey 128. Unit 1
// MODULATEs: red or green halved.
func TestSpriteMixedCoordReplace(t *testing.T) {
	ctx, err := gles.NewContext("glamo3365", gles.Config{Width: sz, Height: sz, Format: 0, DepthBits: 16})
	require.NoError(t, err)
	t.Cleanup(func() { ctx.Close() })
	ortho(ctx)
	ctx.Disable(gles.DITHER)
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.ActiveTexture(gles.TEXTURE0)
	ctx.Enable(gles.TEXTURE_2D)
	texture(ctx, 2, 2, []byte{255, 0, 0, 255, 0, 255, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255}, gles.NEAREST)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	ctx.Enable(gles.POINT_SPRITE_OES)
	ctx.TexEnvi(gles.POINT_SPRITE_OES, gles.COORD_REPLACE_OES, 1)
	ctx.ActiveTexture(gles.TEXTURE1)
	ctx.Enable(gles.TEXTURE_2D)
	texture(ctx, 2, 2, []byte{255, 255, 255, 255, 128, 128, 128, 255, 255, 255, 255, 255, 255, 255, 255, 255}, gles.NEAREST)
	ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	ctx.MultiTexCoord4f(gles.TEXTURE1, 0.75, 0.25, 0, 1)
	ctx.PointSize(16)
	ctx.Color4f(1, 1, 1, 1)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.DisableClientState(gles.TEXTURE_COORD_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0})
	ctx.DrawArrays(gles.POINTS, 0, 1)
	require.NoError(t, ctx.Err())
	img := ctx.Image()
	at := func(x, y int) color.NRGBA {
		r, g, b, _ := img.At(x, sz-1-y).RGBA()
		return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
	}
	// Half red, half green, within the chip's texture (4444) and colour
	// buffer (565) precision.
	half := func(c color.NRGBA, red bool, msg string) {
		v, o := c.R, c.G
		if !red {
			v, o = c.G, c.R
		}
		assert.InDelta(t, 128, int(v), 14, "%s %v", msg, c)
		assert.Equal(t, uint8(0), o, msg)
		assert.Equal(t, uint8(0), c.B, msg)
	}
	half(at(27, 32), true, "left half")
	half(at(37, 32), false, "right half")
	half(at(24, 39), true, "the square's top-left pixel")
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(45, 32), "outside the sprite")
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(23, 32), "left of the square")
	assert.Equal(t, color.NRGBA{0, 0, 0, 255}, at(32, 40), "above the square")
}

// TestSmoothPointTwoUnits draws a smooth point with both units textured
// (once refused: the chip's antialiasing takes a texture unit): it is drawn
// aliased, a square of the point's size.
func TestSmoothPointTwoUnits(t *testing.T) {
	ctx, err := gles.NewContext("glamo3365", gles.Config{Width: sz, Height: sz, DepthBits: 16})
	require.NoError(t, err)
	t.Cleanup(func() { ctx.Close() })
	ortho(ctx)
	ctx.Disable(gles.DITHER)
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	white := []byte{255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255}
	for _, u := range []gles.Enum{gles.TEXTURE0, gles.TEXTURE1} {
		ctx.ActiveTexture(u)
		ctx.Enable(gles.TEXTURE_2D)
		texture(ctx, 2, 2, white, gles.NEAREST)
		ctx.TexEnvi(gles.TEXTURE_ENV, gles.TEXTURE_ENV_MODE, int(gles.MODULATE))
	}
	ctx.Enable(gles.POINT_SMOOTH)
	ctx.PointSize(8)
	ctx.Color4f(0, 1, 0, 1)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.DisableClientState(gles.TEXTURE_COORD_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0})
	ctx.DrawArrays(gles.POINTS, 0, 1)
	require.NoError(t, ctx.Err())
	img := ctx.Image()
	_, g, _, _ := img.At(32, 31).RGBA()
	assert.Equal(t, uint32(0xFFFF), g, "inside the point")
	_, g, _, _ = img.At(40, 31).RGBA()
	assert.Equal(t, uint32(0), g, "outside the 8-pixel square")
}
