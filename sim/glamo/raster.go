package glamo

import (
	"github.com/retrogl/retrogl/sim/raster"
)

// flushJobs walks the pending triangles through sim/raster's Scheduler:
// the screen is cut into row bands, each shaded by one worker running the
// jobs in submission order, so each pixel sees the same sequence of
// fragments as in a serial walk and the result is the same for any worker
// count. Several workers are used only when the pixel state allows it
// (pixState.parallel: no two rows or buffers share memory, and no texture
// aliases a target).
func (e *Engine) flushJobs() {
	if e.jobs.n == 0 {
		return
	}
	e.sched.SetWorkers(e.workers)
	for w := range e.sched.Workers() {
		e.worker(w)
	}
	b := &e.batch
	b.e, b.jobs = e, &e.jobs
	clip := e.clipRect()
	if e.px.parallel {
		// Shade never fails: nothing in the pixel pipeline faults.
		_ = e.sched.Run(clip, b)
	} else {
		_ = e.sched.RunSerial(clip, b)
	}
	b.e, b.jobs = nil, nil
	e.jobs.n = 0
	for w := range e.sched.Workers() {
		e.stats.Pixels += e.rw[w].count()
	}
}

// jobBatch is the Scheduler's view of the pending triangles.
type jobBatch struct {
	e    *Engine
	jobs *jobList
}

func (b *jobBatch) Len() int                 { return b.jobs.n }
func (b *jobBatch) Bounds(i int) raster.Rect { return b.jobs.at(i).box }
func (b *jobBatch) Shade(w, i int, clip raster.Rect) error {
	b.e.walkTri(b.jobs.at(i), clip, b.e.rw[w])
	return nil
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

// SetWorkers implements hal.Parallel: the number of raster workers (n <= 0:
// one per CPU). The output does not depend on it; tests check that.
func (d *Device) SetWorkers(n int) {
	d.eng.mu.Lock()
	defer d.eng.mu.Unlock()
	d.eng.workers = max(n, 0)
}
