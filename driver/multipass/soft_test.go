package multipass

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/swtnl"
)

// rgba2x2 is a 2x2 RGBA texture: red, green (bottom row), blue, white.
func rgba2x2(min, mag driver.TexFilter) *driver.Texture {
	return &driver.Texture{ID: 1, Format: driver.TexRGBA8888, Sampler: driver.Sampler{MinFilter: min, MagFilter: mag},
		Levels: []driver.Level{{Width: 2, Height: 2, Data: []byte{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255}}}}
}

func TestSample(t *testing.T) {
	tx := rgba2x2(driver.FilterNearest, driver.FilterNearest)
	same := [2]float32{0.25, 0.25}
	assert.Equal(t, [4]float32{1, 0, 0, 1}, Sample(tx, 0.25, 0.25, same, same))
	assert.Equal(t, [4]float32{0, 0, 1, 1}, Sample(tx, 0.25, 0.75, [2]float32{0.25, 0.75}, [2]float32{0.25, 0.75}))
	// Repeat wraps 1.25 to 0.25.
	assert.Equal(t, [4]float32{0, 1, 0, 1}, Sample(tx, 0.75+1, 0.25, [2]float32{1.75, 0.25}, [2]float32{1.75, 0.25}))
	lin := rgba2x2(driver.FilterLinear, driver.FilterLinear)
	lin.Sampler.WrapS, lin.Sampler.WrapT = driver.WrapClampToEdge, driver.WrapClampToEdge
	// The centre of the texture is the mean of the four texels.
	c := Sample(lin, 0.5, 0.5, [2]float32{0.5, 0.5}, [2]float32{0.5, 0.5})
	assert.InDeltaSlice(t, []float32{0.5, 0.5, 0.5, 1}, c[:], 1e-6)
}

func TestFragmentColor(t *testing.T) {
	st := &driver.State{}
	st.Units[0].Texture = rgba2x2(driver.FilterNearest, driver.FilterNearest)
	e := driver.DefaultTexEnv()
	e.Mode = driver.EnvCombine
	e.CombineRGB = driver.CombineDot3RGBA
	e.SrcRGB = [3]driver.CombineSrc{driver.SrcTexture, driver.SrcPrimaryColor, driver.SrcConstant}
	st.Units[0].Env = e
	// 4*((1-.5)(.75-.5) + (0-.5)(.5-.5) + (0-.5)(.25-.5)) = 4*(0.125+0+0.125) = 1.
	tex := func(int) [4]float32 { return [4]float32{1, 0, 0, 1} }
	assert.Equal(t, [4]float32{1, 1, 1, 1}, FragmentColor(st, [4]float32{0.75, 0.5, 0.25, 0.2}, 1, tex))
	// DOT3_RGB keeps the combine alpha: MODULATE of texture and previous.
	st.Units[0].Env.CombineRGB = driver.CombineDot3RGB
	got := FragmentColor(st, [4]float32{0.625, 0.5, 0.5, 0.5}, 1, tex)
	assert.InDeltaSlice(t, []float32{0.25, 0.25, 0.25, 0.5}, got[:], 1e-6)
	// Fog: f = 0.25 of the colour, 0.75 of the fog colour; alpha kept.
	st.Units[0].Texture = nil
	st.Fog.Enabled, st.Fog.Color = true, [4]float32{1, 1, 1, 0}
	got = FragmentColor(st, [4]float32{0, 0.4, 1, 0.3}, 0.25, tex)
	assert.InDeltaSlice(t, []float32{0.75, 0.85, 1, 0.3}, got[:], 1e-6)
}

// TestShade shades a 4x4 quad with the 2x2 texture replaced: each texel
// covers a 2x2 pixel corner; pixels outside stay zero.
func TestShade(t *testing.T) {
	st := &driver.State{}
	st.Units[0].Texture = rgba2x2(driver.FilterNearest, driver.FilterNearest)
	st.Units[0].Env = driver.DefaultTexEnv()
	st.Units[0].Env.Mode = driver.EnvReplace
	v := func(x, y, s, tt float32) swtnl.Vertex {
		w := wv(x, y)
		w.Tex[0] = [4]float32{s, tt, 0, 1}
		return w
	}
	b := &Batch{Mesh: swtnl.Mesh{Triangles: fan(v(1, 1, 0, 0), v(5, 1, 1, 0), v(5, 5, 1, 1), v(1, 5, 0, 1))}}
	pix := Shade(st, b, Rect{0, 0, 8, 8}, fp)
	require.Len(t, pix, 8*8*4)
	at := func(x, y int) [4]uint8 {
		i := 4 * (y*8 + x)
		return [4]uint8{pix[i], pix[i+1], pix[i+2], pix[i+3]}
	}
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, at(1, 1))
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, at(4, 2))
	assert.Equal(t, [4]uint8{0, 0, 255, 255}, at(2, 4))
	assert.Equal(t, [4]uint8{255, 255, 255, 255}, at(3, 3))
	// A pixel half a pixel outside takes the nearest primitive (the
	// chip's snapping may cover it), extrapolated (s = 1.125 repeats to
	// red); one further out takes none.
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, at(5, 5))
	assert.Equal(t, [4]uint8{}, at(7, 7))
}

// fakeChip records what the runner asks.
type fakeChip struct {
	calls []string
	tw    int
}

func (f *fakeChip) Registers(n int) (int, int, error) { return f.tw, f.tw, nil }
func (f *fakeChip) Pass(t Rect, b *Batch, op Op) error {
	f.calls = append(f.calls, "pass "+op.String())
	return nil
}
func (f *fakeChip) Upload(t Rect, r Reg, pix []byte) error {
	f.calls = append(f.calls, "upload")
	return nil
}
func (f *fakeChip) Composite(t Rect, b *Batch, p *Program) error {
	f.calls = append(f.calls, "composite")
	return nil
}

func TestRun(t *testing.T) {
	st := &driver.State{ColorMask: [4]bool{true, true, true, true}}
	st.Fog.Enabled = true
	p := Plan(st, geCaps)
	m := swtnl.Mesh{Triangles: append(fan(wv(1, 1), wv(20, 1), wv(20, 20), wv(1, 20)), fan(wv(10, 10), wv(30, 10), wv(30, 30))...)}
	chip := &fakeChip{tw: 16}
	s, err := Run(chip, st, p, &m, fp, Rect{0, 0, 64, 64})
	require.NoError(t, err)
	// Batch 1: the quad, box 0..21 -> 2x2 tiles; batch 2: the overlapping
	// triangle, box 9..31 -> 2x2 tiles.
	assert.Equal(t, Stats{Batches: 2, Tiles: 8, Passes: 8 * 3}, s)
	assert.Equal(t, []string{"pass r0 = load P", "pass r0 = lerp fog", "composite"}, chip.calls[:3])
	assert.Len(t, chip.calls, 8*3)
}
