package pspge

import (
	"encoding/binary"
	"sync/atomic"

	"github.com/retrogl/retrogl/sim/raster"
)

// Batching: a draw command's triangles and sprites are set up first and
// shaded afterwards, all together, through sim/raster's Scheduler, which
// shares row bands among workers and runs each band's primitives in
// command order, so every pixel sees its fragments in the same order for
// any number of workers. A batch never outlives its PRIM (or patch): the
// next command may change registers the pixel pipeline reads, the CLUT,
// or memory. Points and lines are drawn at once, pixel by pixel (a PRIM
// holds one primitive type, so the two never interleave).
//
// The batch is shaded in parallel only when no shading of one pixel can
// touch another pixel's memory: the colour and depth buffers do not
// overlap each other or any texture level in use, and the depth rows are
// at least as long as the drawing rectangle is wide (draw.spanOK). Other
// states run the per-pixel reference path serially.

// triRec is a set-up triangle of a batch: the covered-pixel walker and the
// vertex values the span pipeline interpolates (the same the reference
// path, draw.raster, reads from the screen-space vertices).
type triRec struct {
	tri  raster.Triangle
	box  raster.Rect // tri.Bounds() within the drawing rectangle
	z    [3]int64
	c    [3][4]int64 // colours (smooth shading)
	flat [4]int32    // the provoking vertex's colour (flat shading)
	aux  int32       // index into batch.tex, batch.fog and batch.spec, or -1
}

// triAux holds what only some draws interpolate.
type triAux struct {
	sP, tP, qP plane       // s/w, t/w, q/w
	fog        [3]float64  // fog depths
	c2         [3][3]int64 // specular colours
	flat2      [3]int32    // the provoking vertex's specular colour
}

// spriteRec is a batched sprite: the covered rectangle, the corners'
// texture coordinates and the second corner's values (sprite).
type spriteRec struct {
	box      raster.Rect
	col      [4]int32
	spec     [3]int32
	z, fog   int32
	sa, ta   float32
	ax, ay   float64
	dsx, dty float64
	grad     float32
}

// batch is the Scheduler's view of the pending primitives of one draw.
type batch struct {
	d       *draw
	tris    []triRec
	aux     []triAux
	sprites []spriteRec
	bufs    []*spanBuf
}

func (b *batch) Len() int { return len(b.tris) + len(b.sprites) }

func (b *batch) Bounds(i int) raster.Rect {
	if i < len(b.tris) {
		return b.tris[i].box
	}
	return b.sprites[i-len(b.tris)].box
}

func (b *batch) Shade(w, i int, clip raster.Rect) error {
	sb := b.bufs[w]
	if i < len(b.tris) {
		sb.cur = &sb.tabs[i&(len(sb.tabs)-1)]
		b.d.shadeTri(sb, &b.tris[i], clip)
	} else {
		b.d.shadeSprite(sb, &b.sprites[i-len(b.tris)], clip)
	}
	return nil
}

// workers is the worker count set through SetWorkers (0: GOMAXPROCS).
type workers struct{ n atomic.Int32 }

// SetWorkers implements hal.Parallel: the number of goroutines the GE
// shades with (n <= 0: one per CPU). The bytes written do not depend on
// it.
func (d *Device) SetWorkers(n int) { d.GE.nworkers.n.Store(int32(max(n, 0))) }

// flush shades the pending primitives of d and empties the batch.
func (g *GE) flush(d *draw) {
	b := &g.bat
	if b.Len() == 0 {
		return
	}
	g.sched.SetWorkers(int(g.nworkers.n.Load()))
	n := g.sched.Workers()
	for len(b.bufs) < n {
		b.bufs = append(b.bufs, new(spanBuf))
	}
	for _, sb := range b.bufs {
		sb.pixels = 0
	}
	b.d = d
	if d.pipe.lanes {
		g.spreadLevel0(d)
		defer func() { d.tex.spread = nil }()
	}
	if d.parallel {
		// Shade never fails: nothing in the pixel pipeline faults.
		_ = g.sched.Run(d.t.clip, b)
	} else {
		_ = g.sched.RunSerial(d.t.clip, b)
	}
	for _, sb := range b.bufs {
		d.pixels += sb.pixels
	}
	b.tris, b.aux, b.sprites, b.d = b.tris[:0], b.aux[:0], b.sprites[:0], nil
}

// spreadLevel0 sets d.tex.spread for the batch when its primitives cover
// at least as many pixels, by their bounds, as level 0 has texels: the
// copy is read by every worker and costs about what spreading the texels
// of that many pixels would. The batch reads the texture and writes no
// byte of it (draw.spanOK), so the copy is the memory for the whole batch.
func (g *GE) spreadLevel0(d *draw) {
	s := d.tex
	l := &s.levels[0]
	texels := l.w * l.h
	area := 0
	for i := range g.bat.tris {
		area += boxArea(g.bat.tris[i].box)
	}
	for i := range g.bat.sprites {
		area += boxArea(g.bat.sprites[i].box)
	}
	if area < texels {
		return
	}
	if cap(g.spreadBuf) < texels {
		g.spreadBuf = make([]uint64, texels)
	}
	t := g.spreadBuf[:texels]
	for v := 0; v < l.h; v++ {
		row := l.data[v*l.pitch : v*l.pitch+4*l.w]
		out := t[v*l.w : v*l.w+l.w]
		for u := range out {
			out[u] = spread(binary.LittleEndian.Uint32(row[4*u:]))
		}
	}
	s.spread = t
}

func boxArea(r raster.Rect) int {
	if r.Empty() {
		return 0
	}
	return (r.X1 - r.X0) * (r.Y1 - r.Y0)
}
