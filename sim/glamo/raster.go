package glamo

import (
	"runtime"
	"sync"

	"github.com/retrogl/retrogl/sim/raster"
)

// bandRows is the height of the row bands the workers share out: band k
// goes to worker k mod n.
const bandRows = 16

// flushJobs walks the pending triangles. Every pixel belongs to one row
// band and every band to one worker, which runs the jobs in submission
// order; so each pixel sees the same sequence of fragments as in a serial
// walk, and the result is the same for any worker count. Workers are used
// only when the pixel state allows it (pixState.parallel: no two rows or
// buffers share memory, and no texture aliases a target).
func (e *Engine) flushJobs() {
	if len(e.jobs) == 0 {
		return
	}
	jobs := e.jobs
	e.jobs = e.jobs[:0]
	clip := e.clipRect()
	n := e.workers
	if n == 0 {
		n = min(runtime.GOMAXPROCS(0), 8)
	}
	area := 0
	for i := range jobs {
		b := jobs[i].box.Intersect(clip)
		if !b.Empty() {
			area += (b.X1 - b.X0) * (b.Y1 - b.Y0)
		}
	}
	if n <= 1 || area < 16384 || !e.px.parallel || clip.Y1-clip.Y0 <= bandRows {
		f := e.worker(0)
		for i := range jobs {
			e.walkTri(&jobs[i], clip, f)
		}
		e.stats.Pixels += f.count()
		return
	}
	counts := make([]int64, n)
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		f := e.worker(w)
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := range jobs {
				b := jobs[i].box.Intersect(clip)
				if b.Empty() {
					continue
				}
				for y0 := b.Y0 - b.Y0%bandRows; y0 < b.Y1; y0 += bandRows {
					if (y0/bandRows)%n != w {
						continue
					}
					band := clip.Intersect(raster.Rect{X0: clip.X0, Y0: y0, X1: clip.X1, Y1: y0 + bandRows})
					e.walkTri(&jobs[i], band, f)
				}
			}
			counts[w] = f.count()
		}(w)
	}
	wg.Wait()
	for _, c := range counts {
		e.stats.Pixels += c
	}
}

// rasterWorker is one raster worker's scratch state, kept by the engine
// between flushes.
type rasterWorker struct {
	f  frag    // the per-pixel path's fragment
	sb spanBuf // the span pipeline's chunk
}

// worker returns worker w's scratch state with its pixel counts zeroed.
func (e *Engine) worker(w int) *rasterWorker {
	for len(e.rw) <= w {
		e.rw = append(e.rw, new(rasterWorker))
	}
	r := e.rw[w]
	r.f = frag{}
	r.sb.count = 0
	return r
}

// count returns the pixels the worker has written.
func (r *rasterWorker) count() int64 { return r.f.count + r.sb.count }

// walkTri shades the pixels of a job inside clip: through the span
// pipeline when the state allows it (pixState.spanOK), else pixel by
// pixel.
func (e *Engine) walkTri(j *triJob, clip raster.Rect, r *rasterWorker) {
	if e.px.spanOK && !e.refPath {
		e.walkTriSpan(j, clip, &r.sb)
		return
	}
	e.walkTriRef(j, clip, &r.f)
}

// SetWorkers fixes the number of raster workers (0: GOMAXPROCS, at most
// 8). The output does not depend on it; tests check that.
func (d *Device) SetWorkers(n int) {
	d.eng.mu.Lock()
	defer d.eng.mu.Unlock()
	d.eng.workers = n
}
