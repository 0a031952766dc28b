package gles_test

import (
	"errors"
	"image/color"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/hashicorp/go-multierror"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
)

func newCtx(t *testing.T) *gles.Context {
	t.Helper()
	ctx, err := gles.NewContext("pspge", gles.Config{Width: 32, Height: 32, DepthBits: 16})
	require.NoError(t, err)
	t.Cleanup(func() { ctx.Close() })
	return ctx
}

// clearBlack clears to opaque black and enables a client vertex array
// holding a full-screen triangle strip.
func clearBlack(ctx *gles.Context) {
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, -1, -1, 1, 1, 1})
	ctx.Color4f(1, 1, 1, 1)
}

func centre(ctx *gles.Context) color.NRGBA { return ctx.Image().At(16, 16).(color.NRGBA) }

var black = color.NRGBA{0, 0, 0, 255}

// TestDrawErrors checks that each bad draw records the right error, names
// its entry point, and draws nothing.
func TestDrawErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(ctx *gles.Context)
		code gles.Enum
		fn   string
	}{
		{"invalid mode", func(c *gles.Context) { c.DrawArrays(0x1234, 0, 4) }, gles.INVALID_ENUM, "glDrawArrays"},
		{"negative count", func(c *gles.Context) { c.DrawArrays(gles.TRIANGLE_STRIP, 0, -1) }, gles.INVALID_VALUE, "glDrawArrays"},
		{"negative first", func(c *gles.Context) { c.DrawArrays(gles.TRIANGLE_STRIP, -2, 4) }, gles.INVALID_VALUE, "glDrawArrays"},
		{"index type", func(c *gles.Context) {
			c.DrawElements(gles.TRIANGLES, 3, gles.FLOAT, []uint16{0, 1, 2})
		}, gles.INVALID_ENUM, "glDrawElements"},
		{"bad buffer target", func(c *gles.Context) {
			c.BindBuffer(0x1234, 1)
			c.DrawArrays(gles.POINTS, 0, 0)
		}, gles.INVALID_ENUM, "glBindBuffer"},
		{"element buffer too small", func(c *gles.Context) {
			b := c.GenBuffers(1)
			c.BindBuffer(gles.ELEMENT_ARRAY_BUFFER, b[0])
			c.BufferData(gles.ELEMENT_ARRAY_BUFFER, []uint16{0, 1}, gles.STATIC_DRAW)
			c.DrawElements(gles.TRIANGLES, 3, gles.UNSIGNED_SHORT, 0)
		}, gles.INVALID_OPERATION, "glDrawElements"},
		{"array buffer too small", func(c *gles.Context) {
			b := c.GenBuffers(1)
			c.BindBuffer(gles.ARRAY_BUFFER, b[0])
			c.BufferData(gles.ARRAY_BUFFER, []float32{-1, -1, 1, -1}, gles.STATIC_DRAW)
			c.VertexPointer(2, gles.FLOAT, 0, 0)
			c.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		}, gles.INVALID_OPERATION, "glDrawArrays"},
		{"no buffer bound", func(c *gles.Context) {
			c.BufferData(gles.ARRAY_BUFFER, []float32{1}, gles.STATIC_DRAW)
		}, gles.INVALID_OPERATION, "glBufferData"},
		{"client indices out of range", func(c *gles.Context) {
			c.DrawElements(gles.TRIANGLES, 3, gles.UNSIGNED_BYTE, []uint8{0, 1, 9})
		}, gles.INVALID_OPERATION, "glDrawElements"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newCtx(t)
			clearBlack(ctx)
			require.NoError(t, ctx.Err())
			tc.call(ctx)
			assert.Equal(t, tc.code, ctx.GetError())
			assert.Equal(t, gles.NO_ERROR, ctx.GetError(), "GetError clears the flag")
			err := ctx.Err()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.fn)
			assert.Equal(t, black, centre(ctx), "nothing drawn")
		})
	}
}

func TestErrCollectsEveryError(t *testing.T) {
	ctx := newCtx(t)
	ctx.Enable(0x9999)
	ctx.DepthFunc(0x9999)
	ctx.LineWidth(-1)
	err := ctx.Err()
	var m *multierror.Error
	require.True(t, errors.As(err, &m))
	require.Len(t, m.Errors, 3)
	var ge *gles.Error
	require.True(t, errors.As(m.Errors[2], &ge))
	assert.Equal(t, "LineWidth", ge.Func)
	assert.Equal(t, gles.INVALID_VALUE, ge.Code)
	assert.Equal(t, gles.INVALID_ENUM, ctx.GetError(), "the flag keeps the first error")
	assert.NoError(t, ctx.Err(), "Err clears its list")
}

func TestDrawsAfterErrors(t *testing.T) {
	ctx := newCtx(t)
	clearBlack(ctx)
	ctx.DrawArrays(0x1234, 0, 4)
	ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
	assert.Equal(t, color.NRGBA{255, 255, 255, 255}, centre(ctx))
}

func TestMatrixStacks(t *testing.T) {
	ctx := newCtx(t)
	ctx.MatrixMode(gles.MODELVIEW)
	ctx.Translatef(1, 2, 3)
	ctx.PushMatrix()
	ctx.Scalef(2, 2, 2)
	assert.Equal(t, []int{2}, ctx.GetIntegerv(gles.MODELVIEW_STACK_DEPTH))
	m := ctx.GetFloatv(gles.MODELVIEW_MATRIX)
	assert.Equal(t, []float32{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1}, m)
	ctx.PopMatrix()
	ctx.PopMatrix()
	assert.Equal(t, gles.STACK_UNDERFLOW, ctx.GetError())
	ctx.MatrixMode(gles.PROJECTION)
	ctx.PushMatrix()
	ctx.PushMatrix()
	assert.Equal(t, gles.STACK_OVERFLOW, ctx.GetError(), "projection stack depth is 2")
	ctx.LoadIdentity()
	ctx.Rotatef(90, 0, 0, 1)
	r := ctx.GetFloatv(gles.PROJECTION_MATRIX)
	assert.InDeltaSlice(t, []float32{0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, r, 1e-6)
	ctx.LoadIdentity()
	ctx.Frustumf(-1, 1, -1, 1, 1, 3)
	want := mgl32.Frustum(-1, 1, -1, 1, 1, 3)
	assert.InDeltaSlice(t, want[:], ctx.GetFloatv(gles.PROJECTION_MATRIX), 1e-6)
	ctx.Frustumf(-1, 1, -1, 1, 0, 3)
	assert.Equal(t, gles.INVALID_VALUE, ctx.GetError())
}

func TestLimitsAndStrings(t *testing.T) {
	ctx := newCtx(t)
	assert.Equal(t, "OpenGL ES-CM 1.1", ctx.GetString(gles.VERSION))
	assert.Equal(t, "retrogl", ctx.GetString(gles.VENDOR))
	assert.Contains(t, ctx.GetString(gles.RENDERER), "PSP")
	assert.Contains(t, ctx.GetString(gles.EXTENSIONS), "GL_OES_read_format")
	assert.Equal(t, []int{512}, ctx.GetIntegerv(gles.MAX_TEXTURE_SIZE))
	assert.Equal(t, []int{8}, ctx.GetIntegerv(gles.MAX_LIGHTS))
	assert.Equal(t, []int{16}, ctx.GetIntegerv(gles.DEPTH_BITS))
	// The GE's alpha bits hold the stencil: no alpha bitplanes.
	assert.Equal(t, []int{8, 8, 8, 0}, []int{ctx.GetIntegerv(gles.RED_BITS)[0], ctx.GetIntegerv(gles.GREEN_BITS)[0],
		ctx.GetIntegerv(gles.BLUE_BITS)[0], ctx.GetIntegerv(gles.ALPHA_BITS)[0]})
	assert.Equal(t, []int{512, 512}, ctx.GetIntegerv(gles.MAX_VIEWPORT_DIMS))
	assert.Equal(t, []int{0, 0, 32, 32}, ctx.GetIntegerv(gles.VIEWPORT))
	assert.Equal(t, []bool{true}, ctx.GetBooleanv(gles.DITHER), "dither starts enabled")
	assert.Equal(t, []int{int(gles.LESS)}, ctx.GetIntegerv(gles.DEPTH_FUNC))
	assert.Equal(t, []gles.Fixed{1 << 16}, ctx.GetFixedv(gles.LINE_WIDTH))
	assert.Equal(t, []gles.Fixed{gles.Fixed(gles.LESS)}, ctx.GetFixedv(gles.DEPTH_FUNC), "enums unconverted")
	assert.Equal(t, "", ctx.GetString(0x1234))
	assert.Equal(t, gles.INVALID_ENUM, ctx.GetError())
	assert.Nil(t, ctx.GetIntegerv(0x1234))
	assert.Equal(t, gles.INVALID_ENUM, ctx.GetError())
}

func TestReadPixels(t *testing.T) {
	ctx := newCtx(t)
	ctx.ClearColor(1, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.Enable(gles.SCISSOR_TEST)
	ctx.Scissor(0, 0, 16, 32)
	ctx.ClearColor(0, 0, 1, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	px := make([]byte, 4*2)
	ctx.ReadPixels(15, 0, 2, 1, gles.RGBA, gles.UNSIGNED_BYTE, px)
	assert.Equal(t, []byte{0, 0, 255, 255, 255, 0, 0, 255}, px, "left half blue, right half red")
	ctx.ReadPixels(0, 0, 1, 1, gles.RGB, gles.UNSIGNED_BYTE, px)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError())
	ctx.ReadPixels(0, 0, 4, 4, gles.RGBA, gles.UNSIGNED_BYTE, px)
	assert.Equal(t, gles.INVALID_VALUE, ctx.GetError(), "buffer too small")
}

func TestMissingFeatureIsReported(t *testing.T) {
	ctx := newCtx(t)
	clearBlack(ctx)
	ctx.Enable(gles.LIGHTING)
	ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
	err := ctx.Err()
	var u *driver.Unsupported
	if ctx.Caps().Has(driver.FeatureLighting) {
		assert.NoError(t, err)
		return
	}
	require.True(t, errors.As(err, &u), "%v", err)
	assert.Equal(t, driver.FeatureLighting, u.Feature)
	assert.Equal(t, black, centre(ctx), "a draw needing a missing feature draws nothing")
}

func TestTextureValidation(t *testing.T) {
	ctx := newCtx(t)
	tex := ctx.GenTextures(1)
	ctx.BindTexture(gles.TEXTURE_2D, tex[0])
	for _, tc := range []struct {
		name string
		call func()
		code gles.Enum
	}{
		{"npot", func() { ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 3, 4, 0, gles.RGBA, gles.UNSIGNED_BYTE, nil) }, gles.INVALID_VALUE},
		{"too big", func() { ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 1024, 4, 0, gles.RGBA, gles.UNSIGNED_BYTE, nil) }, gles.INVALID_VALUE},
		{"format mismatch", func() { ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGB, 4, 4, 0, gles.RGBA, gles.UNSIGNED_BYTE, nil) }, gles.INVALID_OPERATION},
		{"type mismatch", func() {
			ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 4, 4, 0, gles.RGBA, gles.UNSIGNED_SHORT_5_6_5, nil)
		}, gles.INVALID_OPERATION},
		{"short data", func() {
			ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 4, 4, 0, gles.RGBA, gles.UNSIGNED_BYTE, make([]byte, 10))
		}, gles.INVALID_VALUE},
		{"bad target", func() { ctx.TexParameteri(gles.TEXTURE, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR)) }, gles.INVALID_ENUM},
		{"mipmap mag filter", func() {
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR_MIPMAP_LINEAR))
		}, gles.INVALID_ENUM},
		{"sub image of nothing", func() {
			ctx.TexSubImage2D(gles.TEXTURE_2D, 1, 0, 0, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, make([]byte, 4))
		}, gles.INVALID_OPERATION},
	} {
		tc.call()
		assert.Equal(t, tc.code, ctx.GetError(), tc.name)
	}
	ctx.TexParameteri(gles.TEXTURE_2D, gles.GENERATE_MIPMAP, 1)
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 4, 2, 0, gles.RGBA, gles.UNSIGNED_BYTE, make([]byte, 32))
	assert.Equal(t, gles.NO_ERROR, ctx.GetError())
	assert.Equal(t, []int{1}, ctx.GetTexParameteriv(gles.TEXTURE_2D, gles.GENERATE_MIPMAP))
}

func TestClosedContext(t *testing.T) {
	ctx, err := gles.NewContext("pspge", gles.Config{})
	require.NoError(t, err)
	assert.Equal(t, driver.SurfaceConfig{Width: 480, Height: 272, Format: driver.FormatRGBA8888, NoAlpha: true}, ctx.Config())
	require.NoError(t, ctx.Close())
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError())
	_, err = gles.NewContext("nosuchchip", gles.Config{})
	assert.ErrorContains(t, err, "unknown backend")
	_, err = gles.NewContext("pspge", gles.Config{Width: 4096, Height: 4096})
	assert.Error(t, err)
}
