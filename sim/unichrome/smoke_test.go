package unichrome

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSmokeTriangle(t *testing.T) {
	d := newDev(t)
	clear(t, d, [4]uint8{0, 0, 0, 255}, 0xFFFFFF, 0)
	s := surfaceSetup()
	s.list(cmdB(), triA(), cat(vtx(0, 0, 0, 0xFFFF0000), vtx(64, 0, 0, 0xFFFF0000), vtx(0, 64, 0, 0xFFFF0000))...)
	mustRun(t, d, s)
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, pixel(t, d, 1, 1))
	assert.Equal(t, [4]uint8{0, 0, 0, 255}, pixel(t, d, 63, 63))
}
