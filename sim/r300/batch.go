package r300

import (
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
	"github.com/retrogl/retrogl/sim/raster"
)

// r3ZPassData indexes ZB_ZPASS_DATA in the register file.
const r3ZPassData = r3.ZB_ZPASS_DATA >> 2

// A draw's primitives are set up in command order on the command
// processor's goroutine and queued in a batch; at the end of the draw the
// batch is shaded through sim/raster's Scheduler, which cuts the screen
// into row bands and runs each band's primitives in batch order. Every
// pixel therefore sees its fragments in the order of a serial walk, and
// the bytes written do not depend on the number of workers.
//
// The Scheduler's contract (a pixel's shading touches only that pixel's
// memory besides memory no primitive writes) holds unless a texture
// overlaps a buffer the draw writes, two written buffers overlap, or a
// buffer's pitch is narrower than the scissor so that its rows overlap:
// such a draw is shaded serially (drawState.serial). A primitive that
// could write outside memory (its bounding box reaches past a buffer's
// region) is shaded alone, serially, after the primitives before it, so
// that it faults at the very pixel a serial walk faults at.

// screen is the clip rectangle batches are shaded in: every pixel
// position the scissor registers can name. Its bands start at multiples
// of raster.BandRows, which are even: a band never splits a quad row.
var screen = raster.Rect{X0: 0, Y0: 0, X1: 1 << 14, Y1: 1 << 14}

// batch is the set-up primitives of one draw waiting to be shaded; it
// implements raster.Batch.
type batch struct {
	e     *Engine
	s     *drawState
	prims []prim
	// vals holds every primitive's attribute values at its reference
	// vertices (prim.vals is the offset of its 3·attrs values).
	vals []float64
}

// Len implements raster.Batch.
func (b *batch) Len() int { return len(b.prims) }

// Bounds implements raster.Batch.
func (b *batch) Bounds(i int) raster.Rect {
	p := &b.prims[i]
	return raster.Rect{X0: p.x0, Y0: p.y0, X1: p.x1 + 1, Y1: p.y1 + 1}
}

// Shade implements raster.Batch: it shades the quad rows of primitive i
// that start inside clip's rows.
func (b *batch) Shade(w, i int, clip raster.Rect) error {
	p := &b.prims[i]
	n := 3 * len(b.s.rs.attrs)
	return b.e.shadePrim(b.s, p, &b.e.workers[w], b.vals[p.vals:p.vals+n], max(p.y0, clip.Y0)&^1, clip.Y1)
}

// shadePrim shades the quad rows of p whose top row lies in [qy0, qy1):
// through the span pipeline, or the per-quad reference path for stuffed
// points and lines and when Engine.reference asks for it.
func (e *Engine) shadePrim(s *drawState, p *prim, w *worker, vals []float64, qy0, qy1 int) error {
	if e.reference || s.fast == nil || p.stuff || p.lineStuff {
		return e.scanRows(s, p, w, vals, qy0, qy1)
	}
	return e.shadeSpans(s, s.fast, p, w, vals, qy0, qy1)
}

// queue charges the watchdog for a set-up primitive (one unit per quad of
// its bounding box) and adds it to the draw's batch with its attribute
// values at the reference vertices a, b, c.
func (e *Engine) queue(s *drawState, p *prim, a, b, c *vertex) error {
	rows := (p.y1-p.y0&^1)/2 + 1
	cols := (p.x1-p.x0&^1)/2 + 1
	if err := e.x.Step(rows * cols); err != nil {
		return e.flushThen(err)
	}
	bt := &e.batch
	if bt.s != s {
		if err := e.flush(); err != nil {
			return err
		}
		bt.s = s
	}
	p.rz = [3]float64{a.wz, b.wz, c.wz}
	p.rq = [3]float64{a.q, b.q, c.q}
	p.wpIsWl = s.wpIsWl(p)
	if !s.inMemory(p) {
		// The primitive may fault: shade what came before, then it
		// alone through the reference path, which checks every pixel.
		if err := e.flush(); err != nil {
			return err
		}
		vals := s.rs.appendValues(nil, a, b, c)
		e.ensureWorkers(1)
		w := &e.workers[0]
		err := e.scanRows(s, p, w, vals, p.y0&^1, p.y1+1)
		e.collect(e.workers[:1])
		return err
	}
	p.vals = len(bt.vals)
	bt.vals = s.rs.appendValues(bt.vals, a, b, c)
	p.spans = smallEdges(p, s.sub)
	p.constIn = s.rs.constant(bt.vals[p.vals:])
	bt.prims = append(bt.prims, *p)
	return nil
}

// flushThen shades the batch and returns its error, or err when the batch
// is shaded without one: the batch's primitives came first.
func (e *Engine) flushThen(err error) error {
	if ferr := e.flush(); ferr != nil {
		return ferr
	}
	return err
}

// endDraw shades what a draw queued; err is the error that stopped the
// draw's primitive assembly, if any, which comes after the queued
// primitives.
func (e *Engine) endDraw(err error) error { return e.flushThen(err) }

// flush shades the batch through the scheduler and empties it.
func (e *Engine) flush() error {
	bt := &e.batch
	if len(bt.prims) == 0 {
		return nil
	}
	bt.e = e
	e.sched.SetWorkers(int(e.wantWorkers.Load()))
	n := e.ensureWorkers(e.sched.Workers())
	for i := range e.workers[:n] {
		w := &e.workers[i]
		w.quads, w.pixels, w.zpass = 0, 0, 0
	}
	var err error
	if bt.s.serial {
		err = e.sched.RunSerial(screen, bt)
	} else {
		err = e.sched.Run(screen, bt)
	}
	e.collect(e.workers[:n])
	bt.prims, bt.vals = bt.prims[:0], bt.vals[:0]
	return err
}

// ensureWorkers makes room for n workers' scratch state and returns n.
func (e *Engine) ensureWorkers(n int) int {
	if len(e.workers) < n {
		e.workers = append(e.workers, make([]worker, n-len(e.workers))...)
	}
	return n
}

// collect adds the workers' counters to the engine's.
func (e *Engine) collect(ws []worker) {
	for i := range ws {
		w := &ws[i]
		e.Stats.Quads += w.quads
		e.Stats.Pixels += w.pixels
		e.regs[r3ZPassData] += w.zpass
		w.quads, w.pixels, w.zpass = 0, 0, 0
	}
}

// SetWorkers implements hal.Parallel: the number of goroutines batches are
// shaded with (n <= 0: GOMAXPROCS). The bytes written do not depend on it.
func (d *Device) SetWorkers(n int) { d.Engine.wantWorkers.Store(int32(n)) }

// memSpan is a buffer the draw writes: its memory and layout.
type memSpan struct {
	base  uint32
	size  int // bytes from base to the end of its region
	pitch int // pixels
	bpp   int
}

// end returns the offset of the byte after pixel (x, y).
func (m *memSpan) end(x, y int) int { return (y*m.pitch+x)*m.bpp + m.bpp }

// prepareRaster lists the buffers the draw writes, decides whether it must
// be shaded serially (see batch) and compiles its span pipeline.
func (e *Engine) prepareRaster(s *drawState) {
	s.writes = s.writes[:0]
	for _, t := range s.cb.used {
		if s.cb.multi > 0 {
			for b := 0; b <= s.cb.multi; b++ {
				buf := &s.cb.buf[b]
				s.writes = append(s.writes, memSpan{buf.base, len(buf.mem), buf.pitch, buf.bpp})
			}
			continue
		}
		buf := &s.cb.buf[t]
		s.writes = append(s.writes, memSpan{buf.base, len(buf.mem), buf.pitch, buf.bpp})
	}
	if s.zb.active {
		bpp := 2
		if s.zb.z24 {
			bpp = 4
		}
		s.writes = append(s.writes, memSpan{s.zb.base, len(s.zb.mem), s.zb.pitch, bpp})
	}
	s.serial = s.overlaps()
	e.pipes++
	s.fast = s.fastPipeline(e.pipes)
}

// overlaps reports whether the draw breaks the scheduler's contract:
// a written buffer whose rows overlap within the scissor, two written
// buffers that overlap, or a texture that overlaps a written buffer.
func (s *drawState) overlaps() bool {
	if s.sx1 < s.sx0 || s.sy1 < s.sy0 {
		return false // nothing is drawn
	}
	type rng struct{ lo, hi uint64 }
	var rs []rng
	for i := range s.writes {
		m := &s.writes[i]
		if m.pitch <= s.sx1 {
			return true
		}
		lo := uint64(m.base) + uint64((s.sy0*m.pitch+s.sx0)*m.bpp)
		rs = append(rs, rng{lo, uint64(m.base) + uint64(m.end(s.sx1, s.sy1))})
	}
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if rs[i].lo < rs[j].hi && rs[j].lo < rs[i].hi {
				return true
			}
		}
	}
	for n := range s.tex {
		u := &s.tex[n]
		if !u.used || !u.enabled {
			continue
		}
		lo, hi := uint64(u.base), uint64(u.base)+uint64(len(u.mem))
		for _, r := range rs {
			if lo < r.hi && r.lo < hi {
				return true
			}
		}
	}
	return false
}

// inMemory reports whether every pixel of p's bounding box lies inside
// each buffer the draw writes (pixel positions are never negative: the
// box is clipped to the scissor).
func (s *drawState) inMemory(p *prim) bool {
	for i := range s.writes {
		m := &s.writes[i]
		if m.end(p.x1, p.y1) > m.size {
			return false
		}
	}
	return true
}

// wpIsWl reports whether interpolate's perspective-correct weights equal
// its linear ones at every pixel the span walk evaluates for p (its
// bounding box and the quads' helper pixels, one pixel around it): when
// the reference vertices' 1/W are one power of two q and every edge value
// is an integer below 2^50, each t[k] = ev[k]·q is exact, their sum is
// area·q exactly (the three edge functions sum to the area), and the
// correctly rounded t[k]/sum is the correctly rounded ev[k]/area. The
// bound: |a|, |b| < 2^24, |c| < 2^48 and sample positions below 2^24
// subpixels give |ev| < 3·2^48.
func (s *drawState) wpIsWl(p *prim) bool {
	q := p.rq[0]
	if q != p.rq[1] || q != p.rq[2] {
		return false
	}
	b := math.Float64bits(q)
	if e := b >> 52 & 0x7FF; b&(1<<52-1) != 0 || e == 0 || e == 0x7FF {
		return false
	}
	if p.area <= 0 || p.area >= 1<<51 {
		return false
	}
	if int64(max(p.x1, p.y1)+2)*s.sub >= 1<<24 {
		return false
	}
	for _, f := range p.rf {
		if abs64(f.a) >= 1<<24 || abs64(f.b) >= 1<<24 || abs64(f.c) >= 1<<48 {
			return false
		}
	}
	return true
}
