package hal

import "errors"

// Watching a device: how a tool stops a replay after a given draw.
//
// A frame debugger shows the colour, depth and stencil buffers after each
// draw. It replays a capture on a fresh device and needs the chip to pause
// between two commands, with every command before the pause executed and
// none after it. The decoders already know where each draw's commands end
// (Command.Draw, see Inspector); what is missing is a way to pause there.
//
// The choice, made with the least change to the contract: an optional
// interface, Watcher, like Appender and Parallel. A tool hands the device a
// set of watch points (a submission and the address of the command it is
// about to execute, or the end of a submission) and a function. The
// simulated command processor calls the function at each point, on its own
// goroutine, while it is paused: the function reads (or writes) device
// memory as the commands before the point left it, and returns whether the
// submission goes on. Stopping a submission ends it as if its buffer ended
// there: Wait returns an error wrapping ErrStopped, not a Fault.
//
// Splitting a submission at a word boundary instead (submitting a shortened
// buffer) would need each chip's end marker (GE END, PICA FINALIZE, the
// UniChrome list end) and alignment rules in the tool, and would not work
// for a buffer that grows while it runs (the PSP's stall address); a watch
// point needs none of that, and one replay can pause after every draw.

// WatchPoint is a point in the execution of a submission.
type WatchPoint struct {
	// Fence is the submission, as the device numbered it (a fresh device
	// numbers its submissions 1, 2, ...).
	Fence Fence
	// Addr is the device address of the command the submission is about
	// to execute. It is ignored when End is set.
	Addr uint32
	// End selects the end of the submission: after its last command ran
	// (or it faulted or was stopped).
	End bool
}

// Watcher is implemented by devices that can pause at watch points (the
// simulators, through sim/device).
type Watcher interface {
	// Watch makes the device call fn at each of points until Watch is
	// called again (nil fn or no points remove the watch). It must be
	// called before the submissions it watches are submitted. fn runs on
	// the device's goroutine while the chip is paused between commands,
	// with all pixel work of the commands before the point done; it may
	// read and write device memory. A point with End set is reached once
	// per submission; a command point each time the command processor
	// arrives at that address (a list that calls the same code twice
	// reaches it twice). If fn returns false at a command point the
	// submission stops there.
	Watch(points []WatchPoint, fn func(WatchPoint) bool)
}

// ErrStopped is wrapped by the error Wait returns for a submission a
// watch function stopped.
var ErrStopped = errors.New("submission stopped at a watch point")
