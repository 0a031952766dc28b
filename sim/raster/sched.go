package raster

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// BandRows is the height of the row bands a Scheduler shares out. It is a
// multiple of every chip's pixel grouping (2x2 quads, 4x4 dither cells,
// 8x8 tiles), so a band never splits a group.
const BandRows = 16

// ParallelArea is the summed clipped bounding-box area, in pixels, below
// which a batch is shaded on the calling goroutine alone: starting workers
// costs more than it saves.
const ParallelArea = 16384

// Batch is a list of set-up primitives ready to shade, in the order the
// command stream drew them.
type Batch interface {
	// Len returns the number of primitives.
	Len() int
	// Bounds returns the pixel rectangle that can hold primitive i's
	// pixels (Triangle.Bounds, or a point's or line's box).
	Bounds(i int) Rect
	// Shade shades the pixels of primitive i that lie inside clip, on
	// worker w (0 <= w < Scheduler.Workers()). Calls on one worker never
	// run at once, so per-worker scratch state indexed by w needs no lock.
	// Shade may stop with an error (a watchdog, a fault); the band it was
	// shading stops there.
	Shade(w, i int, clip Rect) error
}

// Scheduler is the one deterministic parallel pixel scheduler the simulated
// chips share. The screen is cut into row bands of BandRows rows; each band
// is shaded by one worker, which runs the band's primitives in batch order.
// Every pixel therefore sees the same fragments in the same order as in a
// serial walk, and the bytes written do not depend on the number of workers
// or on which worker takes which band.
//
// What the caller guarantees: shading a pixel reads and writes only that
// pixel's own memory (its colour, depth and stencil) besides memory no
// primitive of the batch writes (textures, vertex data). A chip state that
// breaks this (a texture that aliases the colour buffer, a target whose
// rows share memory) is shaded with RunSerial.
//
// The zero value is ready to use with GOMAXPROCS workers.
type Scheduler struct {
	workers int
	bins    [][]int32
	rects   []Rect // each primitive's bounds inside the clip, for one Run
	errs    []bandErr
}

type bandErr struct {
	prim  int
	err   error
	panic any
	stack bool // panic holds a recovered value
}

// SetWorkers fixes the number of workers; n <= 0 means GOMAXPROCS. The
// output does not depend on it.
func (s *Scheduler) SetWorkers(n int) { s.workers = n }

// Workers returns the number of workers Run may use (at least 1). Callers
// size their per-worker scratch state with it.
func (s *Scheduler) Workers() int {
	if s.workers > 0 {
		return s.workers
	}
	return max(1, runtime.GOMAXPROCS(0))
}

// RunSerial shades every primitive of b inside clip on worker 0, in order.
// It returns the first error.
func (s *Scheduler) RunSerial(clip Rect, b Batch) error {
	for i, n := 0, b.Len(); i < n; i++ {
		r := b.Bounds(i).Intersect(clip)
		if r.Empty() {
			continue
		}
		if err := b.Shade(0, i, r); err != nil {
			return err
		}
	}
	return nil
}

// Run shades every primitive of b inside clip band by band when the batch
// is large enough (ParallelArea), sharing the bands among the workers
// when more than one is allowed. One worker runs the bands in order on
// the calling goroutine: a band's colour, depth and texels stay in the
// cache while every primitive of the batch is shaded into it, and the
// bytes and errors are those of any other worker count. Each band stops
// at its first error; Run returns the error of the lowest-numbered
// primitive that failed (the lowest band for a tie), so the same batch
// gives the same error for any worker count. A panic inside Shade on any
// worker is re-raised on the calling goroutine, where the device turns it
// into a fault.
func (s *Scheduler) Run(clip Rect, b Batch) error {
	n := b.Len()
	workers := s.Workers()
	if n == 0 || clip.Empty() {
		return s.RunSerial(clip, b)
	}
	// Each primitive's bounds are asked for once: binning and the bands
	// read them from rects.
	rects := s.rects[:0]
	area := 0
	for i := 0; i < n; i++ {
		r := b.Bounds(i).Intersect(clip)
		rects = append(rects, r)
		if !r.Empty() {
			area += (r.X1 - r.X0) * (r.Y1 - r.Y0)
		}
	}
	s.rects = rects
	first := floorDiv(int64(clip.Y0), BandRows)
	nb := int(floorDiv(int64(clip.Y1-1), BandRows)-first) + 1
	if area < ParallelArea || nb < 2 {
		return s.RunSerial(clip, b)
	}

	// Bin: each band gets the primitives that touch it, in batch order.
	if cap(s.bins) < nb {
		s.bins = make([][]int32, nb)
	}
	bins := s.bins[:nb]
	for k := range bins {
		bins[k] = bins[k][:0]
	}
	for i := 0; i < n; i++ {
		r := rects[i]
		if r.Empty() {
			continue
		}
		k0 := int(floorDiv(int64(r.Y0), BandRows) - first)
		k1 := int(floorDiv(int64(r.Y1-1), BandRows) - first)
		for k := k0; k <= k1; k++ {
			bins[k] = append(bins[k], int32(i))
		}
	}
	if cap(s.errs) < nb {
		s.errs = make([]bandErr, nb)
	}
	errs := s.errs[:nb]
	for k := range errs {
		errs[k] = bandErr{prim: -1}
	}

	var next atomic.Int64
	work := func(w int) {
		for {
			k := int(next.Add(1) - 1)
			if k >= nb {
				return
			}
			s.shadeBand(b, w, int(first)*BandRows+k*BandRows, clip, bins[k], rects, &errs[k])
		}
	}
	workers = min(workers, nb)
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(w)
		}()
	}
	work(0)
	wg.Wait()

	var worst *bandErr
	for k := range errs {
		e := &errs[k]
		if e.prim < 0 {
			continue
		}
		if e.stack {
			panic(e.panic)
		}
		if worst == nil || e.prim < worst.prim {
			worst = e
		}
	}
	if worst != nil {
		return worst.err
	}
	return nil
}

// shadeBand runs the band's primitives on worker w (rects: their bounds
// inside the clip), recording the first error or panic in e.
func (s *Scheduler) shadeBand(b Batch, w, y0 int, clip Rect, prims []int32, rects []Rect, e *bandErr) {
	band := clip.Intersect(Rect{X0: clip.X0, Y0: y0, X1: clip.X1, Y1: y0 + BandRows})
	cur := -1
	defer func() {
		if r := recover(); r != nil {
			*e = bandErr{prim: cur, panic: r, stack: true}
		}
	}()
	for _, i := range prims {
		cur = int(i)
		r := rects[cur].Intersect(band)
		if r.Empty() {
			continue
		}
		if err := b.Shade(w, cur, r); err != nil {
			*e = bandErr{prim: cur, err: err}
			return
		}
	}
}
