package glamo_test

import (
	"bytes"
	"image"
	"strings"
	"testing"

	gold "github.com/retrogl/retrogl/internal/golden"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	glamodrv "github.com/retrogl/retrogl/driver/glamo"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
	hg "github.com/retrogl/retrogl/hal/glamo"
	glamosim "github.com/retrogl/retrogl/sim/glamo"
)

func goldenText(t *testing.T, name, got string) {
	t.Helper()
	gold.Text(t, gold.Path("glamo3365", name), got)
}

// decodedStream renders a scene with a capture and returns every
// submitted buffer decoded.
func decodedStream(t *testing.T, s scene) string {
	var capt bytes.Buffer
	cfg := s.cfg
	cfg.Capture = &capt
	c, err := gles.NewContext("glamo3365", cfg)
	require.NoError(t, err)
	s.draw(c)
	c.Finish()
	require.NoError(t, c.Err())
	require.NoError(t, c.Close())
	_, subs, err := hal.Submissions(&capt)
	require.NoError(t, err)
	var out strings.Builder
	for i, sb := range subs {
		out.WriteString("# buffer " + string(rune('0'+i)) + "\n")
		// Addresses of transient memory are part of the stream; they are
		// deterministic, so they stay in the golden text.
		out.WriteString(strings.Join(hg.Disassemble(sb.Bytes, sb.Buffer.Addr), "\n"))
		out.WriteString("\n")
	}
	return out.String()
}

// TestStreamGoldens pins the command streams of a few scenes: what GL
// state becomes which register words.
func TestStreamGoldens(t *testing.T) {
	tri := scenes.Triangle()
	cases := []scene{{name: "example-triangle", cfg: tri.Config, draw: func(c *gles.Context) { _ = tri.Draw(c) }}}
	for _, s := range allScenes {
		switch s.name {
		case "texenv-combine", "lighting", "stencil", "fog", "points":
			cases = append(cases, s)
		}
	}
	for _, s := range cases {
		goldenText(t, "stream-"+s.name+".golden", decodedStream(t, s))
	}
}

func TestCaps(t *testing.T) {
	d, err := glamodrv.New(glamosim.New())
	require.NoError(t, err)
	defer d.Close()
	c := d.Caps()
	assert.Equal(t, 256, c.Limits.MaxTextureSize, "L29")
	assert.Equal(t, 2, c.Limits.MaxTextureUnits, "L24")
	assert.Equal(t, 8, c.Limits.MaxLights, "L17")
	assert.Equal(t, 1, c.Limits.MaxClipPlanes, "L51")
	assert.Equal(t, [2]int{512, 512}, c.Limits.MaxViewportDims, "s9 screen (P9)")
	assert.Equal(t, 1000000, c.Limits.Extra["datasheet_polygons_s"])
	for _, f := range driver.AllFeatures() {
		if !c.Has(f) {
			assert.NotEqual(t, "", c.WhyMissing(f), f)
		}
	}
	assert.True(t, c.Has(driver.FeatureMatrixPalette), "emulated with driver/swtnl")
	assert.True(t, c.Has(driver.FeatureTexEnvCombine))
	_, err = glamodrv.New(&fakeDev{})
	assert.ErrorContains(t, err, "device is \"other\"")
}

type fakeDev struct{ hal.Device }

func (fakeDev) Info() hal.Info { return hal.Info{Chip: "other"} }

// TestDepthStencilReadback checks the values a clear leaves behind.
func TestDepthStencilReadback(t *testing.T) {
	c, err := gles.NewContext("glamo3365", gles.Config{Width: 16, Height: 16, DepthBits: 16, StencilBits: 4})
	require.NoError(t, err)
	defer c.Close()
	c.ClearDepthf(0.25)
	c.ClearStencil(0x1D)
	c.Clear(gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	dsr := c.Driver().(driver.DepthStencilReader)
	z, err := dsr.ReadDepth(3, 4)
	require.NoError(t, err)
	assert.Equal(t, float32(16384)/65535, z, "round(0.25 * 65535) = 16384")
	s, err := dsr.ReadStencil(3, 4)
	require.NoError(t, err)
	assert.Equal(t, 0xD, s, "S4 keeps the low four bits")
	require.NoError(t, c.Err())
}

// TestTexEnvWords pins GL's MODULATE on an RGBA texture to the literal
// stage words of the texture-blend unit (L3697-3900): Ccur0 = Sat(Tex0 *
// Dif) in both the colour and the alpha unit.
func TestTexEnvWords(t *testing.T) {
	env := driver.DefaultTexEnv()
	w := glamodrv.StageWords(&env, driver.BaseRGBA, 0, 0)
	// Mod: C0WMSK 001 (D[15:13]), C0OMOD Sat (D8).
	// Arg: ARG1 TEX0 00110 (D[30:25]), ARG2 DIF 00011 (D[21:16]), OPA MUL (D[7:6] = 10), OPB MUL.
	assert.Equal(t, [4]uint32{0x00002100, 0x0C038080, 0x00002100, 0x0C038080}, w)
	env.Mode = driver.EnvReplace
	w = glamodrv.StageWords(&env, driver.BaseRGB, 1, 1)
	// RGB: Tex1 (00111) x (0 complemented); alpha: previous = Ccur0 (00101) x 1.
	assert.Equal(t, [4]uint32{0x01002100, 0x0E008080, 0x01002100, 0x0A008080}, w)
}

// TestWorkerCountInvariance renders the textured fill scene with one and
// with three raster workers: the bytes must match.
func TestWorkerCountInvariance(t *testing.T) {
	var imgs [][]byte
	for _, n := range []int{1, 3} {
		ctx, err := gles.NewContext("glamo3365", gles.Config{Width: benchSize, Height: benchSize, DepthBits: 16})
		require.NoError(t, err)
		ctx.Backend().Device().(*glamosim.Device).SetWorkers(n)
		setupFill(ctx, fillTexBlend)()
		ctx.Finish()
		require.NoError(t, ctx.Err())
		img := ctx.Image()
		imgs = append(imgs, img.(*image.NRGBA).Pix)
		require.NoError(t, ctx.Close())
	}
	assert.True(t, bytes.Equal(imgs[0], imgs[1]), "one worker and three workers disagree")
}
