package r300

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/retrogl/retrogl/driver"
)

// TestDrawWork checks the estimate of a draw packet's watchdog work: the
// primitives of each kind times the scissor rectangle's quads, plus
// vertexWork per vertex.
func TestDrawWork(t *testing.T) {
	full := rectQuads(0, 0, 2048, 2048)
	assert.Equal(t, int64(1026*1026), full, "quads of a 2048x2048 rectangle")
	assert.Equal(t, int64(3*3), rectQuads(10, 10, 13, 12), "a 3x2 rectangle starting on an even pixel")
	for _, tc := range []struct {
		prim  driver.Prim
		n     int
		prims int64
	}{
		{driver.PrimPoints, 5, 5},
		{driver.PrimLines, 5, 2},
		{driver.PrimLineStrip, 5, 4},
		{driver.PrimLineLoop, 5, 5},
		{driver.PrimLineLoop, 1, 0},
		{driver.PrimTriangles, 7, 2},
		{driver.PrimTriangleStrip, 6, 4},
		{driver.PrimTriangleFan, 6, 4},
		{driver.PrimTriangleFan, 2, 0},
	} {
		assert.Equal(t, tc.prims, primCount(tc.prim, tc.n), "%v of %d vertices", tc.prim, tc.n)
		assert.Equal(t, tc.prims*full+int64(tc.n)*vertexWork, drawWork(tc.prim, tc.n, full), "%v of %d vertices", tc.prim, tc.n)
	}
}

// TestSplitCount checks the packet size of a split: whole primitives,
// the estimate under workShare, at most the limit, at least one
// primitive.
func TestSplitCount(t *testing.T) {
	full := rectQuads(0, 0, 2048, 2048)
	for _, tc := range []struct {
		per   int
		quads int64
		limit int
		want  int
	}{
		{3, full, 65535, 63 * 3},               // 63 full-surface triangles fit in 1<<26
		{2, full, 65535, 63 * 2},               // lines
		{1, full, 65535, 63},                   // points
		{3, 4, 65535, 65535 / 3 * 3},           // small primitives: the packet limit
		{3, workShare * 2, 65535, 3},           // one primitive over the share: alone
		{1, rectQuads(0, 0, 64, 64), 100, 100}, // the limit
	} {
		got := splitCount(tc.per, tc.quads, tc.limit)
		assert.Equal(t, tc.want, got, "%+v", tc)
		assert.Zero(t, got%tc.per, "whole primitives")
		if got > tc.per {
			assert.LessOrEqual(t, drawWork([...]driver.Prim{1: driver.PrimPoints, 2: driver.PrimLines, 3: driver.PrimTriangles}[tc.per], got, tc.quads), int64(workShare), "%+v", tc)
		}
	}
}
