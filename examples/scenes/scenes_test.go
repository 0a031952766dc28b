package scenes

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/retrogl/retrogl/driver"
)

func TestAll(t *testing.T) {
	var names []string
	for _, s := range All() {
		names = append(names, s.Name)
		assert.NotNil(t, s.Draw, s.Name)
		assert.Equal(t, width, s.Config.Width, s.Name)
		assert.Equal(t, height, s.Config.Height, s.Name)
		got, ok := Lookup(s.Name)
		assert.True(t, ok)
		assert.Equal(t, s.Name, got.Name)
	}
	assert.Equal(t, []string{"triangle", "cube", "gears-0", "gears-1", "gears-2", "fog", "stencil",
		"multitexture", "sprites", "paletted"}, names)
	_, ok := Lookup("nope")
	assert.False(t, ok)
}

func TestForCommand(t *testing.T) {
	var gears []string
	for _, s := range ForCommand("gears") {
		gears = append(gears, s.Name)
		assert.Equal(t, "gears", s.Command())
	}
	assert.Equal(t, []string{"gears-0", "gears-1", "gears-2"}, gears)
	assert.Len(t, ForCommand("cube"), 1)
	assert.Empty(t, ForCommand("nope"))
}

func TestMissing(t *testing.T) {
	caps := &driver.Caps{Features: driver.Features(0).With(driver.FeatureTexture2D)}
	assert.Equal(t, []driver.Feature{driver.FeatureLighting}, Cube().Missing(caps))
	assert.Empty(t, Triangle().Missing(caps))
}

func TestHalve(t *testing.T) {
	// 2x2 RGB: the mean of each channel, rounded.
	w, h, out := halve([]byte{0, 10, 255, 1, 10, 255, 2, 10, 0, 4, 11, 0}, 2, 2, 3)
	assert.Equal(t, 1, w)
	assert.Equal(t, 1, h)
	assert.Equal(t, []byte{2, 10, 128}, out)
	// 2x1 halves to 1x1 (the missing row repeats).
	_, _, out = halve([]byte{10, 20}, 2, 1, 1)
	assert.Equal(t, []byte{15}, out)
}
