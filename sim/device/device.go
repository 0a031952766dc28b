// Package device is the part of every simulated chip that is not the chip:
// memory regions with an allocator, the submission queue served by the
// chip's own goroutine, fences, the watchdog, fault capture and reset. A chip
// simulator supplies an Engine that executes one command buffer; New wraps it
// into a hal.Device.
//
// The watchdog counts commands, not seconds, so a runaway stream faults at the
// same word on every machine: Exec.Step charges the budget and returns
// ErrWatchdog when it is spent.
package device

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"

	"github.com/retrogl/retrogl/hal"
)

// DefaultBudget is the number of commands one submission may execute before
// the watchdog stops it.
const DefaultBudget = 1 << 24

// ErrWatchdog is returned by Exec.Step when a submission ran out of budget.
var ErrWatchdog = errors.New("watchdog expired")

// Drainer is implemented by engines that may hold pixel work of commands
// already executed (triangles set up but not yet shaded). Drain finishes
// it; the device calls it before a watch function looks at memory (see
// hal.Watcher).
type Drainer interface {
	Drain() error
}

// Engine executes command buffers for one chip.
type Engine interface {
	// Run executes the buffer described by x. It returns nil at the buffer's
	// end marker, or an error (preferably a *hal.Fault built with x.Fault).
	Run(x *Exec) error
	// Reset returns the command processor to a known state after a fault.
	// Register state that survives a real reset may be kept.
	Reset()
}

// Config describes a simulated device.
type Config struct {
	Info hal.Info
	// Budget is the watchdog's command budget per submission; 0 means
	// DefaultBudget.
	Budget int64
	// Work says what one unit of the budget is on this chip (a command
	// word, a vertex, so many pixels of a primitive's bounding box), for
	// the watchdog's fault.
	Work string
}

type submission struct {
	buf    hal.Buffer
	fence  hal.Fence
	end    uint32 // current end address (Addr+Size); moved by Extend
	closed bool   // no more Extend: reaching end is final
}

// Device is a simulated hal.Device.
type Device struct {
	cfg    Config
	engine Engine
	mem    *Memory

	mu       sync.Mutex
	cond     *sync.Cond
	queue    []*submission
	running  *submission
	next     hal.Fence
	done     hal.Fence
	faults   map[hal.Fence]error
	closed   bool
	finished chan struct{}
	watch    *watch
}

// watch is an installed hal.Watcher watch.
type watch struct {
	points map[hal.WatchPoint]bool
	fn     func(hal.WatchPoint) bool
}

// New returns a device that runs engine. The engine's goroutine starts now.
func New(cfg Config, engine Engine) *Device {
	if cfg.Budget == 0 {
		cfg.Budget = DefaultBudget
	}
	d := &Device{
		cfg:      cfg,
		engine:   engine,
		mem:      NewMemory(cfg.Info.Regions),
		faults:   map[hal.Fence]error{},
		finished: make(chan struct{}),
	}
	d.cond = sync.NewCond(&d.mu)
	go d.loop()
	return d
}

// Memory returns the device memory, for the engine's constructor and tests.
func (d *Device) Memory() *Memory { return d.mem }

// Info implements hal.Device.
func (d *Device) Info() hal.Info { return d.cfg.Info }

// Alloc implements hal.Device.
func (d *Device) Alloc(size, align uint32, region string) (hal.Allocation, error) {
	return d.mem.Alloc(size, align, region)
}

// Free implements hal.Device.
func (d *Device) Free(a hal.Allocation) error { return d.mem.Free(a) }

// Write implements hal.Device.
func (d *Device) Write(addr uint32, p []byte) error { return d.mem.Write(addr, p) }

// Read implements hal.Device.
func (d *Device) Read(addr uint32, p []byte) error { return d.mem.Read(addr, p) }

// Submit implements hal.Device.
func (d *Device) Submit(b hal.Buffer) (hal.Fence, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return 0, hal.ErrClosed
	}
	d.next++
	s := &submission{buf: b, fence: d.next, end: b.Addr + b.Size}
	if uint64(b.Addr)+uint64(b.Size) > 1<<32 {
		s.end = ^uint32(0)
	}
	d.queue = append(d.queue, s)
	d.cond.Broadcast()
	return s.fence, nil
}

// Extend implements hal.Appender: it moves the end of a queued or running
// submission, as the PSP's stall address does.
func (d *Device) Extend(f hal.Fence, size uint32) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var s *submission
	if d.running != nil && d.running.fence == f {
		s = d.running
	}
	for _, q := range d.queue {
		if q.fence == f {
			s = q
		}
	}
	if s == nil {
		return fmt.Errorf("%s: extend fence %d: not queued or running", d.cfg.Info.Chip, f)
	}
	if s.closed {
		return fmt.Errorf("%s: extend fence %d: already waited on", d.cfg.Info.Chip, f)
	}
	if size < s.end-s.buf.Addr {
		return fmt.Errorf("%s: extend fence %d: size %#x shrinks the buffer", d.cfg.Info.Chip, f, size)
	}
	s.end = s.buf.Addr + size
	d.cond.Broadcast()
	return nil
}

// Wait implements hal.Device. Waiting on a submission also closes it: a
// command processor stalled at the end of its buffer then stops with a fault
// instead of waiting for more commands forever.
func (d *Device) Wait(f hal.Fence) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if f > d.next {
		return fmt.Errorf("%s: wait on fence %d, never submitted (last %d)", d.cfg.Info.Chip, f, d.next)
	}
	for d.done < f {
		if d.running != nil && d.running.fence <= f {
			d.running.closed = true
		}
		for _, q := range d.queue {
			if q.fence <= f {
				q.closed = true
			}
		}
		d.cond.Broadcast()
		d.cond.Wait()
	}
	err := d.faults[f]
	delete(d.faults, f)
	return err
}

// Close implements hal.Device: it waits for the queue to drain and stops the
// engine's goroutine.
func (d *Device) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	for _, q := range d.queue {
		q.closed = true
	}
	if d.running != nil {
		d.running.closed = true
	}
	d.cond.Broadcast()
	d.mu.Unlock()
	<-d.finished
	return nil
}

// Watch implements hal.Watcher.
func (d *Device) Watch(points []hal.WatchPoint, fn func(hal.WatchPoint) bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if fn == nil || len(points) == 0 {
		d.watch = nil
		return
	}
	w := &watch{points: make(map[hal.WatchPoint]bool, len(points)), fn: fn}
	for _, p := range points {
		if p.End {
			p.Addr = 0
		}
		w.points[p] = true
	}
	d.watch = w
}

// drain finishes the engine's pending pixel work before a watch function
// runs.
func (d *Device) drain() error {
	if dr, ok := d.engine.(Drainer); ok {
		return dr.Drain()
	}
	return nil
}

func (d *Device) loop() {
	defer close(d.finished)
	for {
		d.mu.Lock()
		for len(d.queue) == 0 && !d.closed {
			d.cond.Wait()
		}
		if len(d.queue) == 0 {
			d.mu.Unlock()
			return
		}
		s := d.queue[0]
		d.queue = d.queue[1:]
		d.running = s
		w := d.watch
		d.mu.Unlock()

		err := d.run(s, w)
		if end := (hal.WatchPoint{Fence: s.fence, End: true}); w != nil && w.points[end] {
			if derr := d.drain(); derr != nil && err == nil {
				err = &hal.Fault{Chip: d.cfg.Info.Chip, Fence: s.fence, WordSize: d.cfg.Info.WordSize,
					Reason: "finishing pixel work: " + derr.Error()}
			}
			w.fn(end)
		}

		d.mu.Lock()
		if err != nil {
			d.faults[s.fence] = err
		}
		d.running = nil
		d.done = s.fence
		d.cond.Broadcast()
		d.mu.Unlock()
	}
}

func (d *Device) run(s *submission, w *watch) (err error) {
	x := &Exec{dev: d, sub: s, Mem: d.mem, Chip: d.cfg.Info.Chip, WordSize: d.cfg.Info.WordSize, budget: d.cfg.Budget, watch: w}
	defer func() {
		if x.stopped {
			// A watch function stopped the submission: not a fault.
			d.engine.Reset()
			err = fmt.Errorf("%s: submission %d stopped before the command at %#08x: %w", d.cfg.Info.Chip, s.fence, x.last, hal.ErrStopped)
			return
		}
		if r := recover(); r != nil {
			err = &hal.Fault{Chip: d.cfg.Info.Chip, Fence: s.fence, Offset: x.Pos - s.buf.Addr, Addr: x.Pos,
				WordSize: d.cfg.Info.WordSize,
				Reason:   fmt.Sprintf("internal simulator error: %v\n%s", r, debug.Stack())}
		}
		if err != nil {
			d.engine.Reset()
			if _, ok := hal.AsFault(err); !ok {
				err = x.Fault(x.Pos, 0, err.Error())
			}
		}
	}()
	return d.engine.Run(x)
}

// Exec is one submission being executed, as the engine sees it.
type Exec struct {
	dev *Device
	sub *submission
	// Mem is the device memory.
	Mem *Memory
	// Chip and WordSize fill in faults.
	Chip     string
	WordSize int
	// Pos is the address of the word being executed; engines keep it current
	// so that a fault raised from deep inside names the right word.
	Pos    uint32
	budget int64

	watch   *watch
	seen    bool   // last is valid
	last    uint32 // the Pos the watch last looked at
	stopped bool
}

// Buffer returns the submitted buffer.
func (x *Exec) Buffer() hal.Buffer { return x.sub.buf }

// Fence returns the submission's fence.
func (x *Exec) Fence() hal.Fence { return x.sub.fence }

// End returns the current end of the buffer (the stall address).
func (x *Exec) End() uint32 {
	x.dev.mu.Lock()
	defer x.dev.mu.Unlock()
	return x.sub.end
}

// Stall is called by an engine that reached the end of its buffer without an
// end marker. It blocks until the CPU extends the buffer (it returns the new
// end and true) or closes it by waiting on it (it returns false).
func (x *Exec) Stall(at uint32) (uint32, bool) {
	x.dev.mu.Lock()
	defer x.dev.mu.Unlock()
	for x.sub.end <= at && !x.sub.closed {
		x.dev.cond.Wait()
	}
	if x.sub.end > at {
		return x.sub.end, true
	}
	return x.sub.end, false
}

// Remaining returns the commands left in the watchdog budget. An engine
// compares the work a command asks for (a vertex count, a transfer size)
// with it before allocating anything for that work: a request the budget
// cannot pay for faults at once, naming the limit, instead of after the
// engine has held memory for all of it.
func (x *Exec) Remaining() int64 { return max(x.budget, 0) }

// Step charges n commands to the watchdog budget. Engines call it before
// each command with Pos set to the command's address (and again, with the
// same Pos, for work inside the command): a Pos not seen before is a
// command boundary, where a watch point (hal.Watcher) pauses. When the
// budget is spent it returns an error wrapping ErrWatchdog that says which
// limit was hit and why.
func (x *Exec) Step(n int) error {
	if x.watch != nil && (!x.seen || x.Pos != x.last) {
		x.seen, x.last = true, x.Pos
		p := hal.WatchPoint{Fence: x.sub.fence, Addr: x.Pos}
		if x.watch.points[p] {
			if err := x.dev.drain(); err != nil {
				return err
			}
			if !x.watch.fn(p) {
				x.stopped = true
				return hal.ErrStopped
			}
		}
	}
	x.budget -= int64(n)
	if x.budget < 0 {
		return x.expired()
	}
	return nil
}

func (x *Exec) expired() error {
	work := x.dev.cfg.Work
	if work == "" {
		work = "one per command"
	}
	return fmt.Errorf("%w: the submission used up its budget of %d units of work (%s); the budget stops runaway streams, and work that needs more goes in more submissions",
		ErrWatchdog, x.dev.cfg.Budget, work)
}

// Fault builds a fault at address addr (the word is word) with a reason.
func (x *Exec) Fault(addr uint32, word uint64, reason string) *hal.Fault {
	return &hal.Fault{Chip: x.Chip, Fence: x.sub.fence, Offset: addr - x.sub.buf.Addr, Addr: addr,
		Word: word, WordSize: x.WordSize, Reason: reason}
}

// Memory is a device's memory: one byte slice per region, with a first-fit
// allocator per region.
type Memory struct {
	regions []hal.Region
	bytes   [][]byte
	free    [][]span
	used    []map[uint32]uint32
	mu      sync.Mutex
}

type span struct{ addr, size uint32 }

// NewMemory returns zeroed memory with the given regions.
func NewMemory(regions []hal.Region) *Memory {
	m := &Memory{regions: regions}
	for _, r := range regions {
		m.bytes = append(m.bytes, make([]byte, r.Size))
		m.free = append(m.free, []span{{r.Base, r.Size}})
		m.used = append(m.used, map[uint32]uint32{})
	}
	return m
}

// Regions returns the memory map.
func (m *Memory) Regions() []hal.Region { return m.regions }

// Slice returns the bytes [addr, addr+n) when they lie inside one region.
// The slice aliases device memory.
func (m *Memory) Slice(addr, n uint32) ([]byte, bool) {
	for i, r := range m.regions {
		if r.Contains(addr, n) {
			off := addr - r.Base
			return m.bytes[i][off : off+n : off+n], true
		}
	}
	return nil, false
}

// Write copies p to addr.
func (m *Memory) Write(addr uint32, p []byte) error {
	b, ok := m.Slice(addr, uint32(len(p)))
	if !ok || uint64(len(p)) > 1<<32-1 {
		return fmt.Errorf("write %#08x+%d: %w", addr, len(p), hal.ErrBadAddress)
	}
	copy(b, p)
	return nil
}

// Read copies from addr into p.
func (m *Memory) Read(addr uint32, p []byte) error {
	b, ok := m.Slice(addr, uint32(len(p)))
	if !ok || uint64(len(p)) > 1<<32-1 {
		return fmt.Errorf("read %#08x+%d: %w", addr, len(p), hal.ErrBadAddress)
	}
	copy(p, b)
	return nil
}

// Alloc reserves a block; see hal.Memory.
func (m *Memory) Alloc(size, align uint32, region string) (hal.Allocation, error) {
	if align == 0 {
		align = 1
	}
	if align&(align-1) != 0 {
		return hal.Allocation{}, fmt.Errorf("alloc %d bytes in %s: alignment %d is not a power of two", size, region, align)
	}
	if size == 0 {
		return hal.Allocation{}, fmt.Errorf("alloc in %s: zero size", region)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, r := range m.regions {
		if r.Name != region {
			continue
		}
		for j, s := range m.free[i] {
			start := (uint64(s.addr) + uint64(align) - 1) &^ (uint64(align) - 1)
			if start+uint64(size) > uint64(s.addr)+uint64(s.size) {
				continue
			}
			a := uint32(start)
			var rest []span
			if a > s.addr {
				rest = append(rest, span{s.addr, a - s.addr})
			}
			if end := a + size; end < s.addr+s.size {
				rest = append(rest, span{end, s.addr + s.size - end})
			}
			m.free[i] = append(m.free[i][:j], append(rest, m.free[i][j+1:]...)...)
			m.used[i][a] = size
			return hal.Allocation{Addr: a, Size: size, Region: region}, nil
		}
		return hal.Allocation{}, fmt.Errorf("alloc %d bytes (align %d) in %s (%d bytes): %w",
			size, align, region, r.Size, hal.ErrOutOfMemory)
	}
	return hal.Allocation{}, fmt.Errorf("alloc %d bytes: no memory region %q", size, region)
}

// Free returns a block to its region's free list, merging neighbours.
func (m *Memory) Free(a hal.Allocation) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, r := range m.regions {
		if r.Name != a.Region {
			continue
		}
		size, ok := m.used[i][a.Addr]
		if !ok || size != a.Size {
			return fmt.Errorf("free %#08x+%d in %s: not an allocated block", a.Addr, a.Size, a.Region)
		}
		delete(m.used[i], a.Addr)
		fl := append(m.free[i], span{a.Addr, a.Size})
		sort.Slice(fl, func(p, q int) bool { return fl[p].addr < fl[q].addr })
		merged := fl[:1]
		for _, s := range fl[1:] {
			last := &merged[len(merged)-1]
			if last.addr+last.size == s.addr {
				last.size += s.size
			} else {
				merged = append(merged, s)
			}
		}
		m.free[i] = merged
		return nil
	}
	return fmt.Errorf("free %#08x: no memory region %q", a.Addr, a.Region)
}
