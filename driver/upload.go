package driver

import (
	"errors"
	"fmt"

	"github.com/retrogl/retrogl/hal"
)

// Uploader hands out transient device memory (command lists, vertex and
// index data) from chunks, and frees each chunk once the submission that
// used it is known complete. A backend calls Submitted after each Submit and
// Retire after each Wait.
type Uploader struct {
	dev    hal.Device
	region string
	chunk  uint32

	cur  hal.Allocation
	used uint32
	// open holds chunks filled, and frees allocations released with
	// FreeAfter, since the last Submitted.
	open     []hal.Allocation
	frees    []hal.Allocation
	inflight []uploadBatch

	reclaim    func() error
	reclaiming bool
	batch      uint64 // batches submitted so far (Batch)
}

type uploadBatch struct {
	fence  hal.Fence
	chunks []hal.Allocation
}

// NewUploader returns an uploader that allocates chunkSize-byte chunks in
// region.
func NewUploader(dev hal.Device, region string, chunkSize uint32) *Uploader {
	return &Uploader{dev: dev, region: region, chunk: chunkSize}
}

// SetReclaim gives the uploader the backend's way to make memory free
// again when the device is full (see RetryOutOfMemory): Alloc calls it
// once when a chunk does not fit, and tries again.
func (u *Uploader) SetReclaim(reclaim func() error) { u.reclaim = reclaim }

// Alloc reserves size bytes aligned to align (a power of two) and returns
// the device address.
func (u *Uploader) Alloc(size, align uint32) (uint32, error) {
	return u.alloc(size, align, u.reclaim != nil)
}

func (u *Uploader) alloc(size, align uint32, retry bool) (uint32, error) {
	if align == 0 {
		align = 1
	}
	start := (u.cur.Addr + u.used + align - 1) &^ (align - 1)
	if u.cur.Size == 0 || start+size > u.cur.End() {
		n := max(u.chunk, size+align)
		a, err := u.dev.Alloc(n, max(align, 64), u.region)
		if errors.Is(err, hal.ErrOutOfMemory) && retry && !u.reclaiming {
			u.reclaiming = true
			rerr := u.reclaim()
			u.reclaiming = false
			if rerr != nil {
				return 0, fmt.Errorf("upload %d bytes: %w", size, errors.Join(err, rerr))
			}
			return u.alloc(size, align, false)
		}
		if err != nil {
			return 0, fmt.Errorf("upload %d bytes: %w", size, err)
		}
		u.open = append(u.open, a)
		u.cur, u.used = a, 0
		start = (a.Addr + align - 1) &^ (align - 1)
	}
	u.used = start + size - u.cur.Addr
	return start, nil
}

// Upload copies data into fresh transient memory and returns its address.
func (u *Uploader) Upload(data []byte, align uint32) (uint32, error) {
	addr, err := u.Alloc(uint32(len(data)), align)
	if err != nil {
		return 0, err
	}
	return addr, u.dev.Write(addr, data)
}

// Batch numbers the commands being built: it grows by one at every
// Submitted. A backend records it when its pending commands come to refer
// to an allocation (a texture bound for a draw) and hands it to Release.
func (u *Uploader) Batch() uint64 { return u.batch }

// Release frees a once no submission can read it. used is the Batch in
// which commands last referred to a: when those commands are still being
// built, a goes with the next submission (FreeAfter); when they were
// submitted, a goes as soon as the submissions in flight are done, or at
// once when none is. So a deleted texture that no pending command reads
// comes back without a further submission, which a full device may not
// be able to make.
func (u *Uploader) Release(a hal.Allocation, used uint64) error {
	switch {
	case used >= u.batch:
		u.FreeAfter(a)
	case len(u.inflight) == 0:
		return u.dev.Free(a)
	default:
		last := &u.inflight[len(u.inflight)-1]
		last.chunks = append(last.chunks, a)
	}
	return nil
}

// FreeAfter frees a (a texture, a buffer the driver owns) once every
// submission made so far and the next one are complete, so memory a
// submitted buffer may still read is never reused early and the CPU never
// waits for it.
func (u *Uploader) FreeAfter(a hal.Allocation) { u.frees = append(u.frees, a) }

// Submit uploads a command buffer, submits it, and assigns every chunk (and
// FreeAfter allocation) so far to its fence. With more than maxInFlight
// submissions pending it waits for the oldest and returns that wait's
// fault, if any.
func (u *Uploader) Submit(buf []byte, align uint32, maxInFlight int) (hal.Fence, error) {
	addr, err := u.Upload(buf, align)
	if err != nil {
		return 0, err
	}
	f, err := u.dev.Submit(hal.Buffer{Addr: addr, Size: uint32(len(buf))})
	if err != nil {
		return 0, fmt.Errorf("submit: %w", err)
	}
	u.Submitted(f)
	if old, n := u.Oldest(); n > maxInFlight {
		werr := u.dev.Wait(old)
		if rerr := u.Retire(old); werr == nil {
			werr = rerr
		}
		return f, werr
	}
	return f, nil
}

// WaitAll waits for every pending submission and retires each, freeing
// its chunks and the allocations released before it (but not those
// released since the last submission: commands not yet submitted may
// read them). onFault is as for Drain.
func (u *Uploader) WaitAll(onFault func(hal.Fence, error)) error {
	var errs []error
	for {
		old, n := u.Oldest()
		if n == 0 {
			return errors.Join(errs...)
		}
		if err := u.dev.Wait(old); err != nil {
			errs = append(errs, err)
			if onFault != nil {
				onFault(old, err)
			}
		}
		if err := u.Retire(old); err != nil {
			errs = append(errs, err)
		}
	}
}

// Reclaim is the way back from a full device for a backend that may wait
// for its submissions at any time: it waits for the submissions in flight
// (their chunks go back), submits the pending commands with flush (which
// then finds room for them) and drains, freeing what FreeAfter released.
// A backend passes it, bound to its flush, to SetReclaim and
// RetryOutOfMemory.
func (u *Uploader) Reclaim(flush func() error, onFault func(hal.Fence, error)) error {
	err := u.WaitAll(onFault)
	if ferr := flush(); ferr != nil {
		return errors.Join(err, ferr)
	}
	return errors.Join(err, u.Drain(onFault))
}

// Drain waits for every pending submission, retiring each, and frees the
// FreeAfter allocations no submission holds. onFault, if not nil, is called
// for each submission that faulted (a driver forgets its register shadow
// there). It returns every fault and free error joined.
func (u *Uploader) Drain(onFault func(hal.Fence, error)) error {
	var errs []error
	for {
		old, n := u.Oldest()
		if n == 0 {
			break
		}
		if err := u.dev.Wait(old); err != nil {
			errs = append(errs, err)
			if onFault != nil {
				onFault(old, err)
			}
		}
		if err := u.Retire(old); err != nil {
			errs = append(errs, err)
		}
	}
	// Allocations released since the last submission: no submission
	// refers to them now.
	for _, a := range u.frees {
		if err := u.dev.Free(a); err != nil {
			errs = append(errs, err)
		}
	}
	u.frees = nil
	return errors.Join(errs...)
}

// Submitted assigns every chunk used so far to submission f. The current
// chunk stays open for the next batch but is kept alive by f too.
func (u *Uploader) Submitted(f hal.Fence) {
	u.batch++
	if len(u.open) == 0 && len(u.frees) == 0 && u.cur.Size == 0 {
		return
	}
	b := uploadBatch{fence: f, chunks: append(u.open, u.frees...)}
	u.open, u.frees = nil, nil
	// The current chunk is freed with the batch; start a new one next time.
	u.cur, u.used = hal.Allocation{}, 0
	u.inflight = append(u.inflight, b)
}

// Retire frees the chunks of submissions up to and including f, which the
// caller has waited for.
func (u *Uploader) Retire(f hal.Fence) error {
	var keep []uploadBatch
	var firstErr error
	for _, b := range u.inflight {
		if b.fence > f {
			keep = append(keep, b)
			continue
		}
		for _, c := range b.chunks {
			if err := u.dev.Free(c); err != nil && firstErr == nil {
				firstErr = err
			}
		}
	}
	u.inflight = keep
	return firstErr
}

// Oldest returns the oldest in-flight fence and how many batches are in
// flight.
func (u *Uploader) Oldest() (hal.Fence, int) {
	if len(u.inflight) == 0 {
		return 0, 0
	}
	return u.inflight[0].fence, len(u.inflight)
}

// RetryOutOfMemory runs try; when it fails with ErrOutOfMemory it runs
// reclaim and tries once more. reclaim makes the memory released so far
// free again: it submits the pending commands and waits for every
// submission, so that allocations released with FreeAfter and the
// transient chunks of finished submissions go back to the device. With it
// an application that deletes objects on a full device can draw again
// without calling Finish: a release waits on no further submission.
func RetryOutOfMemory(try, reclaim func() error) error {
	err := try()
	if !errors.Is(err, hal.ErrOutOfMemory) {
		return err
	}
	if rerr := reclaim(); rerr != nil {
		return errors.Join(err, rerr)
	}
	return try()
}
