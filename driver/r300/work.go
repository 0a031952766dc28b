package r300

import (
	"github.com/retrogl/retrogl/driver"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// workShare bounds the work, in the simulated R300's watchdog units, that
// the driver queues in one submission. The device charges one unit per
// packet dword and per vertex, one per 64 PVS instructions, and one per 2x2
// quad of each primitive's bounding box clipped to the scissor (the work
// string of sim/r300's device and its queue), against a budget per
// submission of 1<<28 units (sim/r300.DefaultBudget, which this package
// does not import). A quarter of the budget leaves room for what the estimate
// does not count (state packets, clears, the chip's clipper cutting a
// triangle into several: see drawWork) while still sending tens of
// full-screen primitives per submission. Draws whose queued estimates
// stay under it send the stream they sent before the estimate existed.
const workShare = 1 << 26

// vertexWork is the estimate's charge per vertex a draw packet walks: the
// vertex itself, its index, and the PVS at one unit per 64 instructions
// for up to 896 instructions run per vertex (the PVS program memory holds
// 256).
const vertexWork = 16

// rectQuads is the number of 2x2 quads a primitive's bounding box can
// touch inside the scissor rectangle x0..x1, y0..y1 (exclusive ends): one
// more row and column than the rectangle's halves, since a box may start
// on an odd pixel.
func rectQuads(x0, y0, x1, y1 int) int64 {
	return int64((x1-x0)/2+2) * int64((y1-y0)/2+2)
}

// primCount is the number of primitives n vertices of p make.
func primCount(p driver.Prim, n int) int64 {
	var k int
	switch p {
	case driver.PrimPoints:
		k = n
	case driver.PrimLines:
		k = n / 2
	case driver.PrimLineStrip:
		k = n - 1
	case driver.PrimLineLoop:
		k = n
		if n < 2 {
			k = 0
		}
	case driver.PrimTriangles:
		k = n / 3
	default: // strips and fans
		k = n - 2
	}
	return int64(max(k, 0))
}

// drawWork is the estimated work of one draw packet of n vertices of p:
// every primitive charged the whole scissor rectangle (quads), plus
// vertexWork per vertex. It bounds what the chip charges for the packet
// except where the chip's clipper cuts a triangle (TCL draws only: swtnl
// hands the chip clipped window coordinates) into a fan whose triangles
// each span the rectangle; workShare's three spare quarters of the budget
// absorb that up to a factor of four over a whole submission. Counting
// the fan (up to 7 triangles against the six view-volume planes) would
// split the scene goldens' ordinary draws.
func drawWork(p driver.Prim, n int, quads int64) int64 {
	return primCount(p, n)*quads + int64(n)*vertexWork
}

// listPrim is the list primitive of a chip primitive class.
var listPrim = map[r3.PrimType]driver.Prim{r3.PrimPoints: driver.PrimPoints, r3.PrimLines: driver.PrimLines, r3.PrimTriangles: driver.PrimTriangles}

// reserve makes room for work units in the submission being built: when
// the work queued since the last Flush plus work would pass workShare, it
// flushes first. It reports whether it flushed (vertex data uploaded
// before then must be uploaded again: its memory goes with the flushed
// submission).
func (c *Context) reserve(work int64) (bool, error) {
	flushed := false
	if c.work > 0 && c.work+work > workShare {
		if err := c.Flush(); err != nil {
			return false, err
		}
		flushed = true
	}
	c.work += work
	return flushed, nil
}

// splitCount is the most vertices of a list primitive of per vertices
// per primitive one packet whose drawWork stays under workShare may take:
// at most limit, and at least one primitive.
func splitCount(per int, quads int64, limit int) int {
	perPrim := quads + int64(per)*vertexWork
	k := int(min(int64(limit/per), max(1, workShare/perPrim)))
	return k * per
}
