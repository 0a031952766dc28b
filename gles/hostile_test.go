package gles_test

import (
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
)

// Regression tests for issue 15: nothing an application passes can break
// the stack. Each case is the minimal reproducer of one root cause, run
// on every backend, and checks the GL error the call gets instead of a
// panic, a hang or unbounded memory.

// onEveryBackend runs f on a fresh ES 1.1 context (32x32 unless cfg says
// otherwise) of every chip's backend.
func onEveryBackend(t *testing.T, cfg gles.Config, f func(t *testing.T, ctx *gles.Context)) {
	for _, name := range backends.Names() {
		if strings.HasPrefix(name, "test-") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			if cfg.Width == 0 {
				cfg.Width, cfg.Height = 32, 32
			}
			ctx, err := gles.NewContext(name, cfg)
			require.NoError(t, err)
			t.Cleanup(func() { ctx.Close() })
			f(t, ctx)
		})
	}
}

// wantError checks the GL error flag and that Err names fn.
func wantError(t *testing.T, ctx *gles.Context, code gles.Enum, fn string) {
	t.Helper()
	assert.Equal(t, code, ctx.GetError(), "GL error")
	err := ctx.Err()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "gl"+fn)
}

// TestOverflowingDrawRanges: first+count, maxIndex*stride and
// offset+size wrapped, so the bounds checks passed and a slice index
// panicked in a driver (root cause 1).
func TestOverflowingDrawRanges(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(ctx *gles.Context)
		code gles.Enum
		fn   string
	}{
		{"first+count", func(ctx *gles.Context) {
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.DrawArrays(gles.LINES, math.MaxInt-1, 2)
		}, gles.INVALID_VALUE, "DrawArrays"},
		{"first+count in range, array too small", func(ctx *gles.Context) {
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 0, 1})
			ctx.DrawArrays(gles.TRIANGLES, math.MaxInt/2, 3)
		}, gles.INVALID_OPERATION, "DrawArrays"},
		{"maxIndex*stride", func(ctx *gles.Context) {
			ctx.BindBuffer(gles.ARRAY_BUFFER, 1)
			ctx.BufferData(gles.ARRAY_BUFFER, []int8{0}, gles.DYNAMIC_DRAW)
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(2, gles.BYTE, math.MaxInt/2+1, 0)
			ctx.DrawArrays(gles.TRIANGLE_FAN, 1, 3)
		}, gles.INVALID_OPERATION, "DrawArrays"},
		{"buffer offset", func(ctx *gles.Context) {
			ctx.BindBuffer(gles.ARRAY_BUFFER, 1)
			ctx.BufferData(gles.ARRAY_BUFFER, make([]float32, 6), gles.STATIC_DRAW)
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(2, gles.FLOAT, 0, math.MaxInt-3)
			ctx.DrawArrays(gles.TRIANGLES, 0, 3)
		}, gles.INVALID_OPERATION, "DrawArrays"},
		{"element buffer offset", func(ctx *gles.Context) {
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 0, 1})
			ctx.BindBuffer(gles.ELEMENT_ARRAY_BUFFER, 1)
			ctx.BufferData(gles.ELEMENT_ARRAY_BUFFER, []uint16{0, 1, 2}, gles.STATIC_DRAW)
			ctx.DrawElements(gles.TRIANGLES, 3, gles.UNSIGNED_SHORT, math.MaxInt-1)
		}, gles.INVALID_OPERATION, "DrawElements"},
		{"index count", func(ctx *gles.Context) {
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.DrawElements(gles.TRIANGLES, math.MaxInt-3, gles.UNSIGNED_SHORT, make([]uint16, 12))
		}, gles.OUT_OF_MEMORY, "DrawElements"},
		{"vertex count", func(ctx *gles.Context) {
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			ctx.VertexPointer(2, gles.FIXED, 0, 0)
			ctx.DrawArrays(gles.LINE_LOOP, 0, 1<<61)
		}, gles.OUT_OF_MEMORY, "DrawArrays"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			onEveryBackend(t, gles.Config{}, func(t *testing.T, ctx *gles.Context) {
				tc.call(ctx)
				wantError(t, ctx, tc.code, tc.fn)
			})
		})
	}
}

// TestMipmapsOfEmptyLevel: GENERATE_MIPMAP on a level with zero height
// (legal arguments) decoded texels of an empty level (root cause 2).
func TestMipmapsOfEmptyLevel(t *testing.T) {
	onEveryBackend(t, gles.Config{}, func(t *testing.T, ctx *gles.Context) {
		ctx.TexParameteri(gles.TEXTURE_2D, gles.GENERATE_MIPMAP, 1)
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGB, 2, 0, 0, gles.RGB, gles.UNSIGNED_SHORT_5_6_5, []uint16{})
		assert.Equal(t, gles.NO_ERROR, ctx.GetError())
		assert.NoError(t, ctx.Err())
		// The level has no texels: texturing with it is off (incomplete).
		clearBlack(ctx)
		ctx.Enable(gles.TEXTURE_2D)
		ctx.Color4f(0, 1, 0, 1)
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		require.NoError(t, ctx.Err())
		assert.Equal(t, color.NRGBA{0, 255, 0, 255}, centre(ctx))
	})
}

// TestReadPixelsRanges: ReadPixels's size arithmetic overflowed, and a
// read outside a framebuffer object smaller than the window was clipped
// to the window (root cause 3).
func TestReadPixelsRanges(t *testing.T) {
	onEveryBackend(t, gles.Config{}, func(t *testing.T, ctx *gles.Context) {
		ctx.ReadPixels(0, 0, math.MaxInt/2, 3, gles.RGBA, gles.UNSIGNED_BYTE, make([]byte, 64))
		wantError(t, ctx, gles.INVALID_VALUE, "ReadPixels")
		ctx.ReadPixels(math.MaxInt-1, math.MaxInt-1, 4, 4, gles.RGBA, gles.UNSIGNED_BYTE, make([]byte, 64))
		assert.Equal(t, gles.NO_ERROR, ctx.GetError(), "a rectangle outside the surface reads nothing")
		px := make([]byte, 4*4*4)
		for i := range px {
			px[i] = 7
		}
		ctx.ClearColor(1, 0, 0, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.ReadPixels(30, -2, 4, 4, gles.RGBA, gles.UNSIGNED_BYTE, px)
		require.NoError(t, ctx.Err())
		// Rows 2 and 3 of the rectangle, columns 0 and 1, are inside.
		assert.Equal(t, []byte{7, 7, 7, 7}, px[0:4], "outside: untouched")
		assert.Equal(t, []byte{255, 0, 0, 255}, px[2*16:2*16+4], "inside: red")
		assert.Equal(t, []byte{7, 7, 7, 7}, px[2*16+8:2*16+12], "outside: untouched")
	})
	t.Run("framebuffer object smaller than the window", func(t *testing.T) {
		ctx, err := gles.NewContext("r300", gles.Config{Width: 32, Height: 32, ES2: true})
		require.NoError(t, err)
		defer ctx.Close()
		ctx.BindFramebuffer(gles.FRAMEBUFFER, 1)
		ctx.BindRenderbuffer(gles.RENDERBUFFER, 1)
		ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.RGB565, 8, 8)
		ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, 1)
		ctx.ClearColor(0, 0, 1, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		px := make([]byte, 16*16*4)
		ctx.ReadPixels(4, 4, 16, 16, gles.RGBA, gles.UNSIGNED_BYTE, px)
		require.NoError(t, ctx.Err())
		assert.Equal(t, []byte{0, 0, 255, 255}, px[0:4], "inside the 8x8 framebuffer")
		assert.Equal(t, []byte{0, 0, 0, 0}, px[4*4:4*4+4], "column 8 is outside it: untouched")
		assert.Equal(t, []byte{0, 0, 0, 0}, px[4*16*4:4*16*4+4], "row 8 is outside it: untouched")
	})
}

// TestBufferSubDataOffset: an offset near MaxInt wrapped offset+size
// (root cause 4).
func TestBufferSubDataOffset(t *testing.T) {
	onEveryBackend(t, gles.Config{}, func(t *testing.T, ctx *gles.Context) {
		ctx.BindBuffer(gles.ARRAY_BUFFER, 1)
		ctx.BufferData(gles.ARRAY_BUFFER, 16, gles.STATIC_DRAW)
		ctx.BufferSubData(gles.ARRAY_BUFFER, math.MaxInt-2, []byte{1, 2, 3, 4})
		wantError(t, ctx, gles.INVALID_VALUE, "BufferSubData")
	})
}

// TestGenHugeN: Gen*(n) with a huge n allocated until the process died
// or hung; GL answers OUT_OF_MEMORY and generates nothing (root cause 5).
func TestGenHugeN(t *testing.T) {
	for _, n := range []int{1 << 40, math.MaxInt, 1 << 31} {
		onEveryBackend(t, gles.Config{}, func(t *testing.T, ctx *gles.Context) {
			assert.Nil(t, ctx.GenBuffers(n))
			wantError(t, ctx, gles.OUT_OF_MEMORY, "GenBuffers")
			assert.Nil(t, ctx.GenTextures(n))
			wantError(t, ctx, gles.OUT_OF_MEMORY, "GenTextures")
			assert.Equal(t, []uint32{1, 2}, ctx.GenTextures(2), "names are still there to take")
		})
	}
	ctx, err := gles.NewContext("r300", gles.Config{Width: 8, Height: 8, ES2: true})
	require.NoError(t, err)
	defer ctx.Close()
	assert.Nil(t, ctx.GenFramebuffers(math.MaxInt))
	wantError(t, ctx, gles.OUT_OF_MEMORY, "GenFramebuffers")
	assert.Nil(t, ctx.GenRenderbuffers(1<<40))
	wantError(t, ctx, gles.OUT_OF_MEMORY, "GenRenderbuffers")
}

// TestCompressedNegativeLevel: a very negative paletted level became a
// negative shift (root cause 6).
func TestCompressedNegativeLevel(t *testing.T) {
	onEveryBackend(t, gles.Config{}, func(t *testing.T, ctx *gles.Context) {
		for _, level := range []int{math.MinInt, math.MinInt + 1, -1000} {
			ctx.CompressedTexImage2D(gles.TEXTURE_2D, level, gles.PALETTE4_RGB8_OES, 4, 4, 0, make([]byte, 48+8))
			if !ctx.Caps().HasExtension("GL_OES_compressed_paletted_texture") {
				wantError(t, ctx, gles.INVALID_ENUM, "CompressedTexImage2D")
				continue
			}
			wantError(t, ctx, gles.INVALID_VALUE, "CompressedTexImage2D")
		}
	})
}

// TestHostMemoryBudget: 2.5 GB of buffer objects on pspge gave no error;
// a PSP has 32 MB. The budget is the chip's memory (34 MiB on pspge) and
// a call past it changes nothing.
func TestHostMemoryBudget(t *testing.T) {
	ctx, err := gles.NewContext("pspge", gles.Config{Width: 16, Height: 16})
	require.NoError(t, err)
	defer ctx.Close()
	used, budget := gles.MemoryUse(ctx)
	assert.Equal(t, int64(34<<20), budget, "2 MiB VRAM + 32 MiB RAM")
	assert.Equal(t, int64(0), used)
	ids := ctx.GenBuffers(40)
	const mib = 1 << 20
	failed := -1
	for i, id := range ids {
		ctx.BindBuffer(gles.ARRAY_BUFFER, id)
		ctx.BufferData(gles.ARRAY_BUFFER, mib, gles.STATIC_DRAW)
		if e := ctx.GetError(); e != gles.NO_ERROR {
			assert.Equal(t, gles.OUT_OF_MEMORY, e)
			failed = i
			break
		}
	}
	require.Equal(t, 33, failed, "33 MiB fit with the names' cost, the 34th does not")
	assert.Equal(t, 0, ctx.GetBufferParameteriv(gles.ARRAY_BUFFER, gles.BUFFER_SIZE), "the failed store is unchanged")
	require.Error(t, ctx.Err())
	used, _ = gles.MemoryUse(ctx)
	assert.LessOrEqual(t, used, budget)
	// Deleting frees budget for the same call.
	ctx.DeleteBuffers(ids[0])
	ctx.BufferData(gles.ARRAY_BUFFER, mib, gles.STATIC_DRAW)
	assert.Equal(t, gles.NO_ERROR, ctx.GetError())
	assert.Equal(t, mib, ctx.GetBufferParameteriv(gles.ARRAY_BUFFER, gles.BUFFER_SIZE))

	// The budget is configurable; a texture past it records
	// OUT_OF_MEMORY and keeps the old level.
	small, err := gles.NewContext("glamo3365", gles.Config{Width: 16, Height: 16, MemoryBudget: 32 << 10})
	require.NoError(t, err)
	defer small.Close()
	small.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 64, 64, 0, gles.RGBA, gles.UNSIGNED_BYTE, nil)
	assert.Equal(t, gles.NO_ERROR, small.GetError())
	small.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 128, 128, 0, gles.RGBA, gles.UNSIGNED_BYTE, nil)
	wantError(t, small, gles.OUT_OF_MEMORY, "TexImage2D")
	used, _ = gles.MemoryUse(small)
	assert.Equal(t, int64(64*64*4), used)
}

// TestDeviceMemoryExhaustion: running out of device memory recorded
// INVALID_OPERATION (GL's answer is OUT_OF_MEMORY), and on pica200 and
// glamo3365 deleted textures were freed only after the next successful
// submission, which could no longer get memory: the context never
// recovered. Textures of 256x256 are drawn one after the other until the
// device is full, then all are deleted and one as large is drawn, without
// Finish. The pspge driver keeps no texture resident (each display list
// carries the textures it uses and frees them when it is done): there 200
// of them, 50 MiB against the PSP's 32 MiB, must draw without running out.
func TestDeviceMemoryExhaustion(t *testing.T) {
	// No host budget: the device is what runs out.
	onEveryBackend(t, gles.Config{Width: 16, Height: 16, MemoryBudget: -1}, func(t *testing.T, ctx *gles.Context) {
		clearBlack(ctx)
		ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
		ctx.TexCoordPointer(2, gles.FLOAT, 0, []float32{0, 0, 1, 0, 0, 1, 1, 1})
		ctx.Enable(gles.TEXTURE_2D)
		const size = 256
		streams := ctx.Caps().Name == "pspge"
		limit := 1000
		if streams {
			limit = 200
		}
		texels := make([]byte, size*size*4)
		var names []uint32
		ranOut := false
		for i := 0; i < limit && !ranOut; i++ {
			id := ctx.GenTextures(1)[0]
			names = append(names, id)
			ctx.BindTexture(gles.TEXTURE_2D, id)
			ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
			ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, size, size, 0, gles.RGBA, gles.UNSIGNED_BYTE, texels)
			ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
			if e := ctx.GetError(); e != gles.NO_ERROR {
				err := ctx.Err()
				require.Equal(t, gles.OUT_OF_MEMORY, e, "%v", err)
				assert.ErrorIs(t, err, driver.ErrOutOfMemory)
				ranOut = true
			}
		}
		assert.Equal(t, !streams, ranOut, "the device runs out unless the driver streams textures")
		// Delete every texture and draw with a new one, without Finish.
		ctx.DeleteTextures(names...)
		id := ctx.GenTextures(1)[0]
		ctx.BindTexture(gles.TEXTURE_2D, id)
		ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
		// As large as the textures that filled the memory: it needs
		// the memory the deleted ones held.
		green := make([]byte, size*size*4)
		for i := 0; i < len(green); i += 4 {
			copy(green[i:], []byte{0, 255, 0, 255})
		}
		ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, size, size, 0, gles.RGBA, gles.UNSIGNED_BYTE, green)
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
		require.NoError(t, ctx.Err(), "the context recovers once textures are deleted")
		img := ctx.Image()
		require.NoError(t, ctx.Err())
		assert.Equal(t, color.NRGBA{0, 255, 0, 255}, img.At(8, 8))
	})
}

// TestSurfaceAtTheLimit: on unichrome a surface 2048 pixels wide or high,
// inside the advertised limit, rendered nothing and reported no error
// (the clip rectangle's 11-bit exclusive edge wrapped to 0). Every
// backend must draw up to the last column and row of a surface as wide,
// then as high, as its limit, and refuse one past it.
func TestSurfaceAtTheLimit(t *testing.T) {
	for _, name := range backends.Names() {
		if strings.HasPrefix(name, "test-") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			drv, err := driver.Open(name, driver.OpenOptions{})
			require.NoError(t, err)
			max := drv.Caps().Limits.MaxViewportDims
			require.NoError(t, drv.Close())
			for _, size := range [][2]int{{max[0], 8}, {8, max[1]}} {
				ctx, err := gles.NewContext(name, gles.Config{Width: size[0], Height: size[1]})
				require.NoError(t, err)
				clearBlack(ctx)
				ctx.Color4f(0, 1, 0, 1)
				ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
				img := ctx.Image()
				require.NoError(t, ctx.Err())
				green := color.NRGBA{0, 255, 0, 255}
				assert.Equal(t, green, img.At(0, 0), "%v: first pixel", size)
				assert.Equal(t, green, img.At(size[0]-1, size[1]-1), "%v: last pixel", size)
				require.NoError(t, ctx.Close())
				_, err = gles.NewContext(name, gles.Config{Width: size[0] + boolInt(size[0] > 8), Height: size[1] + boolInt(size[1] > 8)})
				assert.Error(t, err, "one past the limit")
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestRenderbufferNameReuse: on r300, deleting a renderbuffer still
// attached to another framebuffer and taking its name again gave the new
// renderbuffer the old one's storage (a GL error or wrong depth results,
// depending on the format).
func TestRenderbufferNameReuse(t *testing.T) {
	ctx, err := gles.NewContext("r300", gles.Config{Width: 16, Height: 16, ES2: true})
	require.NoError(t, err)
	defer ctx.Close()
	// Framebuffer 1 holds renderbuffer 1, an RGB565 colour buffer, red.
	ctx.BindFramebuffer(gles.FRAMEBUFFER, 1)
	ctx.BindRenderbuffer(gles.RENDERBUFFER, 1)
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.RGB565, 8, 8)
	ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, 1)
	ctx.ClearColor(1, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	// Delete it while framebuffer 2 is bound: framebuffer 1 keeps it.
	ctx.BindFramebuffer(gles.FRAMEBUFFER, 2)
	ctx.DeleteRenderbuffers(1)
	// Name 1 again: a depth buffer for framebuffer 2, with a colour
	// buffer of its own.
	ctx.BindRenderbuffer(gles.RENDERBUFFER, 1)
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.DEPTH_COMPONENT16, 8, 8)
	ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.DEPTH_ATTACHMENT, gles.RENDERBUFFER, 1)
	ctx.BindRenderbuffer(gles.RENDERBUFFER, 2)
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.RGB565, 8, 8)
	ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, 2)
	require.Equal(t, gles.FRAMEBUFFER_COMPLETE, ctx.CheckFramebufferStatus(gles.FRAMEBUFFER))
	ctx.ClearColor(0, 0, 1, 1)
	ctx.ClearDepthf(1)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	require.NoError(t, ctx.Err())
	px := make([]byte, 4)
	ctx.ReadPixels(0, 0, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, px)
	assert.Equal(t, []byte{0, 0, 255, 255}, px, "framebuffer 2: blue")
	// Framebuffer 1 still reads its own red buffer.
	ctx.BindFramebuffer(gles.FRAMEBUFFER, 1)
	ctx.ReadPixels(0, 0, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, px)
	require.NoError(t, ctx.Err())
	assert.Equal(t, []byte{255, 0, 0, 255}, px, "framebuffer 1: red")
}

// TestLargeSurfaceWork: on r300, legal draws on a very large surface
// ended in "watchdog expired": the watchdog charged a unit per 2x2 quad of
// each triangle's bounding box against the budget the other chips spend
// on 64 pixels. 100 thin triangles across a 2048x2048 surface (a
// bounding box of a million quads each) must draw.
func TestLargeSurfaceWork(t *testing.T) {
	ctx, err := gles.NewContext("r300", gles.Config{Width: 2048, Height: 2048})
	require.NoError(t, err)
	defer ctx.Close()
	ctx.ClearColor(0, 0, 0, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.EnableClientState(gles.VERTEX_ARRAY)
	ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 1, 1, 1, 0.998})
	ctx.Color4f(0, 1, 0, 1)
	for i := 0; i < 100; i++ {
		ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	}
	ctx.Finish()
	require.NoError(t, ctx.Err())
	px := make([]byte, 4)
	ctx.ReadPixels(2040, 2038, 1, 1, gles.RGBA, gles.UNSIGNED_BYTE, px)
	assert.Equal(t, []byte{0, 255, 0, 255}, px, "a pixel of the thin triangle")
}

// TestFogMisalignedFloats: a legal glamo3365 draw with fog and floats
// read at a misaligned stride panicked the simulator (turned into a
// device fault, "internal simulator error"): the garbage floats reached
// the fog's 2^x table past its end. Every backend must draw it.
func TestFogMisalignedFloats(t *testing.T) {
	data := make([]byte, 4096)
	for i := range data {
		data[i] = byte(i * 37)
	}
	for _, mode := range []gles.Enum{gles.EXP, gles.EXP2, gles.LINEAR} {
		onEveryBackend(t, gles.Config{DepthBits: 16}, func(t *testing.T, ctx *gles.Context) {
			ctx.Enable(gles.FOG)
			ctx.Fogf(gles.FOG_MODE, float32(mode))
			ctx.BindBuffer(gles.ARRAY_BUFFER, 1)
			ctx.BufferData(gles.ARRAY_BUFFER, data, gles.STATIC_DRAW)
			ctx.EnableClientState(gles.VERTEX_ARRAY)
			for _, stride := range []int{6, 7} {
				for off := 0; off < 4; off++ {
					ctx.VertexPointer(3, gles.FLOAT, stride, off)
					ctx.DrawArrays(gles.TRIANGLES, 0, 6)
				}
			}
			ctx.Finish()
			if err := ctx.Err(); err != nil {
				// A backend may refuse a state it lacks (pspge's EXP fog
				// needs the depth test); it must not fault.
				_, isFault := hal.AsFault(err)
				assert.False(t, isFault, "%v", err)
				assert.NotContains(t, err.Error(), "internal simulator error")
			}
		})
	}
}

// TestScissorFarAway: a scissor box near math.MaxInt made y+height wrap in
// glamo3365's driver, whose wrapped box let the engine write pixels past
// the colour buffer, over the command buffer after it (rglfuzz seed
// 5002295: a device fault). Positions and sizes are GLints: they are
// clamped to 32 bits, and the box then holds no pixel of the surface.
func TestScissorFarAway(t *testing.T) {
	onEveryBackend(t, gles.Config{}, func(t *testing.T, ctx *gles.Context) {
		ctx.ClearColor(0, 0, 1, 1)
		ctx.Clear(gles.COLOR_BUFFER_BIT)
		ctx.Scissor(0, math.MaxInt-1, 128, 16)
		ctx.Enable(gles.SCISSOR_TEST)
		ctx.Viewport(math.MaxInt-8, math.MinInt+8, 32, 32)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.VertexPointer(2, gles.FLOAT, 0, []float32{-1, -1, 3, -1, -1, 3})
		ctx.Color4f(1, 0, 0, 1)
		ctx.DrawArrays(gles.TRIANGLES, 0, 3)
		ctx.Viewport(0, 0, 32, 32)
		ctx.DrawArrays(gles.TRIANGLES, 0, 3)
		ctx.Finish()
		require.NoError(t, ctx.Err())
		assert.Equal(t, []int{0, math.MaxInt32, 128, 16}, ctx.GetIntegerv(gles.SCISSOR_BOX))
		img := ctx.Image()
		for _, p := range [][2]int{{0, 0}, {16, 16}, {31, 31}} {
			r, g, b, _ := img.At(p[0], p[1]).RGBA()
			assert.Equal(t, [3]uint32{0, 0, 0xFFFF}, [3]uint32{r, g, b}, "pixel %v keeps the clear colour", p)
		}
	})
}
