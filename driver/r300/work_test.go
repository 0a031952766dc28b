package r300

import (
	"math"
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

// TestTriQuads checks the estimate of one triangle in window coordinates:
// the quads of its bounding box grown by a pixel each way and cut to the
// scissor rectangle, the whole rectangle's for positions that are not
// finite numbers near the screen.
func TestTriQuads(t *testing.T) {
	c := &Context{quads: rectQuads(0, 0, 640, 480), sc: [4]int{0, 0, 640, 480}}
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name string
		x, y [3]float64
		want int64
	}{
		{"one pixel", [3]float64{100.2, 100.8, 100.2}, [3]float64{50.1, 50.1, 50.9}, rectQuads(99, 49, 102, 52)},
		{"on pixel edges", [3]float64{10, 12, 10}, [3]float64{20, 20, 22}, rectQuads(9, 19, 13, 23)},
		{"cut by the scissor", [3]float64{-50, 3, -50}, [3]float64{-9, -9, 2.5}, rectQuads(0, 0, 4, 4)},
		{"outside the scissor", [3]float64{700, 710, 700}, [3]float64{10, 10, 20}, rectQuads(640, 9, 640, 21)},
		{"the whole screen", [3]float64{0, 640, 0}, [3]float64{0, 0, 480}, c.quads},
		{"NaN", [3]float64{nan, 1, 2}, [3]float64{1, 2, 3}, c.quads},
		{"infinite", [3]float64{0, 1, 2}, [3]float64{1, inf, 3}, c.quads},
		{"far off screen", [3]float64{0, 1, 1 << 30}, [3]float64{1, 2, 3}, c.quads},
	} {
		assert.Equal(t, tc.want, c.triQuads(tc.x, tc.y), tc.name)
	}
}

// TestPacketEnd checks the packets of a split by each primitive's own
// charge: whole primitives, the estimate under workShare, at most the
// limit, at least one primitive; with one charge for every primitive it
// is splitCount's packet.
func TestPacketEnd(t *testing.T) {
	full := rectQuads(0, 0, 2048, 2048)
	for _, q := range []int64{full, 4, workShare * 2} {
		end, work := packetEnd(0, 100000, 3, 65535, func(int) int64 { return q })
		assert.Equal(t, splitCount(3, q, 65535), 3*end, "quads %d", q)
		assert.Equal(t, int64(end)*(q+3*vertexWork), work, "quads %d", q)
	}
	// Small primitives after large ones: the packet ends where the share
	// is reached, the next one takes the rest.
	quads := func(k int) int64 {
		if k < 10 {
			return workShare/10 - 3*vertexWork
		}
		return 4
	}
	end, work := packetEnd(0, 1000, 3, 65535, quads)
	assert.Equal(t, 10, end)
	assert.Equal(t, int64(workShare/10*10), work)
	end, work = packetEnd(10, 1000, 3, 65535, quads)
	assert.Equal(t, 1000, end)
	assert.Equal(t, int64(990*(4+3*vertexWork)), work)
	end, _ = packetEnd(10, 1000, 3, 300, quads)
	assert.Equal(t, 110, end, "the vertex limit")
}
