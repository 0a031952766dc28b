package r300

import (
	"encoding/binary"
	"math"

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

// triQuads bounds the 2x2 quads the chip charges for one triangle whose
// window positions (pixels on the chip's y-down screen) are x and y: the
// quads of its bounding box grown by a pixel on each side (the chip's
// subpixel rounding and pixel-centre rule stay inside that) and cut to
// the scissor rectangle; the whole rectangle's quads (c.quads) when a
// position is not a finite number near the screen.
func (c *Context) triQuads(x, y [3]float64) int64 {
	x0, x1 := min(x[0], x[1], x[2]), max(x[0], x[1], x[2])
	y0, y1 := min(y[0], y[1], y[2]), max(y[0], y[1], y[2])
	const far = 1 << 24
	if !(x0 > -far && x1 < far && y0 > -far && y1 < far) {
		return c.quads
	}
	sc := c.sc
	ix0, ix1 := max(sc[0], int(math.Floor(x0))-1), min(sc[2], int(math.Ceil(x1))+1)
	iy0, iy1 := max(sc[1], int(math.Floor(y0))-1), min(sc[3], int(math.Ceil(y1))+1)
	return rectQuads(ix0, iy0, max(ix0, ix1), max(iy0, iy1))
}

// packetEnd returns the end of the packet of list primitives that starts
// at primitive k of nprims, per vertices each: as many primitives as keep
// the packet's estimate (quads(i) for primitive i plus vertexWork per
// vertex) under workShare and its vertices under limit, and at least one.
// It returns the packet's estimate too.
func packetEnd(k, nprims, per, limit int, quads func(int) int64) (int, int64) {
	end, work := k, int64(0)
	for end < nprims && (end-k+1)*per <= limit {
		w := quads(end) + int64(per)*vertexWork
		if end > k && work+w > workShare {
			break
		}
		work += w
		end++
	}
	return end, work
}

// tclQuads returns the estimate's charge of each list primitive of a TCL
// draw (listIndices' order) when the driver knows where its triangles
// land (tclDraw.win): the quads of its bounding box (triQuads), or the
// whole rectangle's when a vertex is one the chip's clipper may cut. It
// returns nil otherwise: every primitive is then charged the rectangle.
func (c *Context) tclQuads(d *tclDraw, dc *driver.DrawCall) func(int) int64 {
	if d.win == nil || primClass(dc.Prim) != r3.PrimTriangles {
		return nil
	}
	lo := dc.MinIndex
	// vertex returns draw vertex i of list primitive k (listIndices).
	vertex := func(k, j int) int {
		switch dc.Prim {
		case driver.PrimTriangleStrip:
			if k%2 == 1 && j < 2 {
				return k + 1 - j
			}
			return k + j
		case driver.PrimTriangleFan:
			if j == 0 {
				return 0
			}
			return k + j
		}
		return 3*k + j
	}
	return func(k int) int64 {
		var x, y [3]float64
		for j := range 3 {
			p := d.win[dc.VertexIndex(vertex(k, j))-lo]
			x[j], y[j] = p[0], p[1]
		}
		return c.triQuads(x, y)
	}
}

// ffWindow computes tclDraw.win for a fixed-function triangle draw: each
// vertex's position through the projection and modelview matrices and
// the viewport onto the chip's screen, or NaN for a vertex outside (or
// within a hair of the edge of) the view volume, which the chip's clipper
// may cut. It returns nil where the position is not that product (the
// matrix palette) or user clip planes are on (their clipper cuts too).
func (c *Context) ffWindow(st *driver.State, dc *driver.DrawCall, clip uint32) [][2]float64 {
	if primClass(dc.Prim) != r3.PrimTriangles || st.MatrixPalette.Enabled || clip != 0 || dc.Arrays == nil || !dc.Arrays.Position.Enabled {
		return nil
	}
	lo, hi := dc.MinIndex, dc.MaxIndex
	if hi < lo {
		return nil
	}
	m32 := st.Projection.Mul4(st.ModelView)
	var m [16]float64
	for i, v := range m32 {
		m[i] = float64(v)
	}
	vp := st.Viewport
	hw, hh := float64(vp.W)/2, float64(vp.H)/2
	if cap(c.winBuf) < hi-lo+1 {
		c.winBuf = make([][2]float64, hi-lo+1)
	}
	win := c.winBuf[:hi-lo+1]
	const inside = 1 - 1.0/1024
	nan := math.NaN()
	pos := &dc.Arrays.Position
	for i := range win {
		p := [4]float32{0, 0, 0, 1}
		if pos.Type == driver.TypeFloat && pos.Size >= 2 && pos.Size <= 4 {
			// Fetch's float case, read here.
			b := pos.Data[(lo+i)*pos.Stride:]
			b = b[:4*pos.Size]
			p[0] = math.Float32frombits(binary.LittleEndian.Uint32(b))
			p[1] = math.Float32frombits(binary.LittleEndian.Uint32(b[4:]))
			if pos.Size > 2 {
				p[2] = math.Float32frombits(binary.LittleEndian.Uint32(b[8:]))
			}
			if pos.Size > 3 {
				p[3] = math.Float32frombits(binary.LittleEndian.Uint32(b[12:]))
			}
		} else {
			pos.Fetch(lo+i, [4]float32{0, 0, 0, 1}, &p)
		}
		px, py, pz, pw := float64(p[0]), float64(p[1]), float64(p[2]), float64(p[3])
		cl := [4]float64{
			m[0]*px + m[4]*py + m[8]*pz + m[12]*pw,
			m[1]*px + m[5]*py + m[9]*pz + m[13]*pw,
			m[2]*px + m[6]*py + m[10]*pz + m[14]*pw,
			m[3]*px + m[7]*py + m[11]*pz + m[15]*pw,
		}
		w := cl[3]
		lim := w * inside
		if !(w > 1e-30 && math.Abs(cl[0]) <= lim && math.Abs(cl[1]) <= lim && math.Abs(cl[2]) <= lim) {
			win[i] = [2]float64{nan, nan}
			continue
		}
		x := float64(vp.X) + (cl[0]/w+1)*hw
		y := float64(vp.Y) + (cl[1]/w+1)*hh
		if c.tgt.flip {
			y = float64(c.tgt.h) - y
		}
		win[i] = [2]float64{x, y}
	}
	return win
}
