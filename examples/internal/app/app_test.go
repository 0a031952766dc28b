package app

import (
	"bytes"
	"errors"
	"image"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/examples/scenes"
	"github.com/retrogl/retrogl/trace"
)

func TestTracePath(t *testing.T) {
	g := scenes.ForCommand("gears")[1]
	assert.Equal(t, "out/x.trace", TracePath("out/x.trace", g, false))
	assert.Equal(t, "out/x-1.trace", TracePath("out/x.trace", g, true))
	other := scenes.Scene{Name: "a", Example: "b"}
	assert.Equal(t, "t-a.trace", TracePath("t.trace", other, true))
}

func TestFailed(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	oops := errors.New("oops")
	tests := []struct {
		r    Result
		want bool
	}{
		{Result{Image: img}, false},
		{Result{Image: img, Err: oops, Missing: []driver.Feature{driver.FeatureFog}}, false},
		{Result{Image: img, Err: oops}, true},
		{Result{Err: oops, Missing: []driver.Feature{driver.FeatureFog}}, true},
	}
	for i, tc := range tests {
		assert.Equal(t, tc.want, tc.r.Failed(), i)
	}
	assert.Equal(t, "missing: fog, blend", MissingText([]driver.Feature{driver.FeatureFog, driver.FeatureBlend}))
}

func TestRenderScene(t *testing.T) {
	var tr bytes.Buffer
	res := RenderScene("pspge", scenes.Triangle(), &tr)
	require.NoError(t, res.Err)
	assert.False(t, res.Failed())
	assert.True(t, strings.HasPrefix(tr.String(), trace.Magic+"\nSurface 320 240 16 0\n# triangle, recorded on pspge\n"))

	res = RenderScene("no-such-backend", scenes.Triangle(), nil)
	assert.True(t, res.Failed())
	assert.Nil(t, res.Image)

	// A panicking scene is reported, not raised.
	boom := scenes.Triangle()
	boom.Draw = func(trace.GL) error { panic("boom") }
	res = RenderScene("pspge", boom, nil)
	require.Error(t, res.Err)
	assert.Contains(t, res.Err.Error(), "triangle on pspge: panic: boom")
}
