package pica_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"strings"
	"sync"
	"testing"

	gold "github.com/retrogl/retrogl/internal/golden"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/driver"
	picadrv "github.com/retrogl/retrogl/driver/pica"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/hal/pica/picasso"
	picasim "github.com/retrogl/retrogl/sim/pica"
)

// recorder is a device that keeps a copy of every submitted buffer.
type recorder struct {
	hal.Device
	mu   sync.Mutex
	bufs [][]byte
}

func (r *recorder) Submit(b hal.Buffer) (hal.Fence, error) {
	buf := make([]byte, b.Size)
	if err := r.Device.Read(b.Addr, buf); err != nil {
		return 0, err
	}
	r.mu.Lock()
	r.bufs = append(r.bufs, buf)
	r.mu.Unlock()
	return r.Device.Submit(b)
}

var lastRec *recorder

func init() {
	driver.Register(driver.Backend{
		Name: "pica200-rec",
		NewDevice: func() (hal.Device, error) {
			lastRec = &recorder{Device: picasim.New()}
			return lastRec, nil
		},
		NewDriver: picadrv.New,
	})
}

// decodeStream decodes the recorded buffers and inserts the disassembly of
// every shader program uploaded, after its CODETRANSFER_END.
func decodeStream(bufs [][]byte) string {
	var b strings.Builder
	for i, buf := range bufs {
		fmt.Fprintf(&b, "; buffer %d, %d bytes\n", i, len(buf))
		lines := p.Decode(buf, 0)
		var code, descs []uint32
		k := 0
		_, _ = p.Walk(buf, func(w p.Write) bool {
			b.WriteString(lines[k])
			b.WriteByte('\n')
			k++
			if w.Param == w.Header.Extra() && w.Header.Extra()&1 != 0 {
				b.WriteString(lines[k])
				b.WriteByte('\n')
				k++
			}
			switch {
			case w.Reg >= p.VSH_CODETRANSFER_DATA0 && w.Reg < p.VSH_CODETRANSFER_DATA0+8:
				code = append(code, w.Value)
			case w.Reg >= p.VSH_OPDESCS_DATA0 && w.Reg < p.VSH_OPDESCS_DATA0+8:
				descs = append(descs, w.Value)
			case w.Reg == p.VSH_OPDESCS_INDEX:
				descs = descs[:0]
			case w.Reg == p.VSH_CODETRANSFER_INDEX:
				code = code[:0]
			}
			if w.Reg == p.VSH_CODETRANSFER_END && len(code) > 0 {
				b.WriteString("; --- vertex shader ---\n")
				for _, l := range strings.Split(picasso.Disassemble(&p.ShaderBinary{Code: code, Opdescs: descs}), "\n") {
					if l != "" {
						b.WriteString(";   " + l + "\n")
					}
				}
				code = nil
			}
			return true
		})
		for ; k < len(lines); k++ {
			b.WriteString(lines[k] + "\n")
		}
	}
	return b.String()
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	gold.Bytes(t, gold.Path("pica", name), got)
}

func encodePNG(t *testing.T, img image.Image) []byte {
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// renderScene draws a scene on the recording backend and returns the image
// and the decoded stream.
func renderScene(t *testing.T, s scenes.Scene) (image.Image, string) {
	t.Helper()
	ctx, err := gles.NewContext("pica200-rec", s.Config)
	require.NoError(t, err)
	require.NoError(t, s.Draw(ctx))
	img := ctx.Image()
	require.NoError(t, ctx.Err())
	rec := lastRec
	require.NoError(t, ctx.Close())
	return img, decodeStream(rec.bufs)
}

func TestScenesGolden(t *testing.T) {
	all := append(scenes.All(), testScenes()...)
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			img, stream := renderScene(t, s)
			golden(t, s.Name+".golden", []byte(stream))
			golden(t, s.Name+".png", encodePNG(t, img))
			// Determinism: a second run gives the same bytes.
			img2, stream2 := renderScene(t, s)
			assert.Equal(t, stream, stream2)
			assert.Equal(t, encodePNG(t, img), encodePNG(t, img2))
		})
	}
}

// pixel returns the colour at GL window (x, y).
func pixel(img image.Image, x, y int) [4]uint8 {
	h := img.Bounds().Dy()
	c := img.(*image.NRGBA).NRGBAAt(x, h-1-y)
	return [4]uint8{c.R, c.G, c.B, c.A}
}

func TestClearAndFragmentOps(t *testing.T) {
	ctx, err := gles.NewContext("pica200", gles.Config{Width: 64, Height: 32, DepthBits: 24, StencilBits: 8})
	require.NoError(t, err)
	defer ctx.Close()
	ctx.ClearColor(0.5, 0.25, 1, 1)
	ctx.ClearDepthf(0.5)
	ctx.ClearStencil(0x5A)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	// A scissored clear with a colour mask touches only its box and channels.
	ctx.Enable(gles.SCISSOR_TEST)
	ctx.Scissor(8, 4, 8, 8)
	ctx.ColorMask(true, false, false, false)
	ctx.ClearColor(0, 1, 1, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	ctx.Disable(gles.SCISSOR_TEST)
	ctx.ColorMask(true, true, true, true)
	img := ctx.Image()
	require.NoError(t, ctx.Err())
	assert.Equal(t, [4]uint8{128, 64, 255, 255}, pixel(img, 0, 0))
	assert.Equal(t, [4]uint8{0, 64, 255, 255}, pixel(img, 8, 4))
	assert.Equal(t, [4]uint8{0, 64, 255, 255}, pixel(img, 15, 11))
	assert.Equal(t, [4]uint8{128, 64, 255, 255}, pixel(img, 16, 11))
	assert.Equal(t, [4]uint8{128, 64, 255, 255}, pixel(img, 15, 12))
	dsr := ctx.Driver().(driver.DepthStencilReader)
	d, err := dsr.ReadDepth(3, 3)
	require.NoError(t, err)
	assert.Equal(t, float32(0x7FFFFF)/0xFFFFFF, d, "0.5 stored as trunc(0.5 * (2^24-1))")
	s, err := dsr.ReadStencil(3, 3)
	require.NoError(t, err)
	assert.Equal(t, 0x5A, s)
}
