package r300

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

func TestSmokeTriangle(t *testing.T) {
	d := New()
	defer d.Close()
	var s r3.Stream
	baseline(&s, 16, 16)
	immd(&s, r3.PrimTriangles,
		vtx{0, 0, 0, 1, 0, 0, 1}, vtx{16, 0, 0, 1, 0, 0, 1}, vtx{0, 16, 0, 1, 0, 0, 1})
	require.NoError(t, run(t, d, &s))
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, pixel(t, d, 16, 0, 0))
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, pixel(t, d, 16, 7, 7))
	assert.Equal(t, [4]uint8{0, 0, 0, 0}, pixel(t, d, 16, 8, 8))
	assert.Equal(t, [4]uint8{0, 0, 0, 0}, pixel(t, d, 16, 15, 15))
	t.Logf("stats %+v", d.Engine.Stats)
}
