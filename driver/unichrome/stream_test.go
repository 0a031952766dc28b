package unichrome_test

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver/unichrome"
	"github.com/retrogl/retrogl/gles"
)

// TestStreamSameWords draws random triangle lists (inside, across and
// outside the view volume, with culling, flat shading, a texture and a
// first vertex past 0 at random, and some draws drawStream does not
// take) with drawStream on and off, and compares the command streams
// and the pictures.
func TestStreamSameWords(t *testing.T) {
	render := func(seed int64, off bool) (string, []byte) {
		*unichrome.StreamOff = off
		defer func() { *unichrome.StreamOff = false }()
		r := rand.New(rand.NewSource(seed))
		var capture bytes.Buffer
		ctx, err := gles.NewContext("unichrome", gles.Config{Width: 64, Height: 48, DepthBits: 16, Capture: &capture})
		require.NoError(t, err)
		ctx.EnableClientState(gles.VERTEX_ARRAY)
		ctx.EnableClientState(gles.COLOR_ARRAY)
		if r.Intn(2) == 0 {
			ctx.MatrixMode(gles.PROJECTION)
			ctx.Frustumf(-1, 1, -1, 1, 1, 10)
			ctx.MatrixMode(gles.MODELVIEW)
			ctx.Translatef(0, 0, -2)
		}
		for d := 0; d < 6; d++ {
			const n = 60
			pos := make([]float32, 3*n)
			col := make([]float32, 4*n)
			tex := make([]float32, 2*n)
			for i := range pos {
				pos[i] = r.Float32()*3 - 1.5
			}
			for i := range col {
				col[i] = r.Float32()
			}
			for i := range tex {
				tex[i] = r.Float32() * 2
			}
			if r.Intn(2) == 0 {
				ctx.Enable(gles.CULL_FACE)
				ctx.CullFace([]gles.Enum{gles.FRONT, gles.BACK, gles.FRONT_AND_BACK}[r.Intn(3)])
			} else {
				ctx.Disable(gles.CULL_FACE)
			}
			ctx.ShadeModel([]gles.Enum{gles.FLAT, gles.SMOOTH}[r.Intn(2)])
			if r.Intn(4) == 0 {
				ctx.Enable(gles.FOG) // not drawStream's
			} else {
				ctx.Disable(gles.FOG)
			}
			if r.Intn(3) == 0 {
				ctx.Enable(gles.TEXTURE_2D)
				ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 2, 2, 0, gles.RGBA, gles.UNSIGNED_BYTE, []byte{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255})
				ctx.EnableClientState(gles.TEXTURE_COORD_ARRAY)
				ctx.TexCoordPointer(2, gles.FLOAT, 0, tex)
			} else {
				ctx.Disable(gles.TEXTURE_2D)
				ctx.DisableClientState(gles.TEXTURE_COORD_ARRAY)
			}
			ctx.VertexPointer(3, gles.FLOAT, 0, pos)
			ctx.ColorPointer(4, gles.FLOAT, 0, col)
			first := r.Intn(4)
			mode := gles.Enum(gles.TRIANGLES)
			if r.Intn(6) == 0 {
				mode = gles.TRIANGLE_STRIP // not drawStream's
			}
			ctx.DrawArrays(mode, first, r.Intn(n-first))
		}
		ctx.Finish()
		require.NoError(t, ctx.Err())
		img := ctx.Image()
		require.NoError(t, ctx.Close())
		var pix []byte
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, a := img.At(x, y).RGBA()
				pix = append(pix, byte(r>>8), byte(g>>8), byte(bl>>8), byte(a>>8))
			}
		}
		return decodeCapture(t, capture.Bytes()), pix
	}
	for seed := int64(0); seed < 12; seed++ {
		wantWords, wantPix := render(seed, true)
		gotWords, gotPix := render(seed, false)
		require.Equal(t, wantWords, gotWords, "seed %d", seed)
		require.Equal(t, wantPix, gotPix, "seed %d", seed)
	}
}
