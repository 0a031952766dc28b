// Package frame is a capture as a frame debugger sees it: the submissions
// of a device capture (hal.NewCapture) and, inside them, the draws, each
// with its decoded command words; the chip's state after any draw
// (registers, render targets, textures, shader programs) and the pixels
// the draw changed, from a replay on a fresh simulated device paused after
// that draw; and the history of one pixel across every draw. cmd/rglview
// serves it as a web page.
//
// Nothing here knows a chip: draw boundaries, state and surfaces come from
// the chip's hal.Inspector, pauses from the simulator's hal.Watcher.
// Replays are done on demand and their results cached, so opening a large
// capture costs one decoding pass.
package frame

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	_ "github.com/retrogl/retrogl/backends" // the simulated devices
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
)

// Frame is a decoded capture.
type Frame struct {
	// Info describes the captured device.
	Info hal.Info
	// Subs are the submissions in order.
	Subs []*Submission
	// Draws are every draw of every submission, in order.
	Draws []*Draw
	// Calls are the GL calls of the trace the capture was played from
	// (nil for a plain capture); Draw.Calls index them.
	Calls []Call

	capture []byte
	// bytes holds each submission's bytes (its final extent).
	bytes [][]byte

	mu        sync.Mutex
	snapshots *cache[int, *Snapshot]
	pixels    *cache[pixelKey, *PixelHistory]
	// drawStates holds the state at the end of every draw, from one
	// inspector walk (states).
	drawStates []drawState
	statesErr  error
	statesDone bool
	// replays bounds the replays running at once.
	replays chan struct{}
}

// Submission is one submitted command buffer.
type Submission struct {
	// Index is its position in the capture (0-based); the device fence
	// of a replay on a fresh device is Index+1.
	Index int
	// Buffer is where it lies and its final size.
	Buffer hal.Buffer
	// Commands are its commands as the chip's inspector walked them.
	Commands []hal.Command
	// Draws are the indices (into Frame.Draws) of its draws.
	Draws []int
	// Tail is the index of the first command after the last draw (len
	// of Commands when the buffer ends with a draw).
	Tail int
}

// Draw is one draw: the commands since the previous draw of its submission
// (state, then the primitive) up to the command that ends the primitive.
type Draw struct {
	// Index is the draw's position among all draws (0-based).
	Index int
	// Sub is its submission's index.
	Sub int
	// First and Last are the indices of its first and last commands in
	// the submission; Begin is the command that starts the primitive.
	First, Begin, Last int
	// Calls are the indices (into Frame.Calls) of the GL calls whose
	// words the draw's submission range holds (a trace only).
	Calls []int
}

// Call is one GL call of a trace.
type Call struct {
	// Line is the trace's line number.
	Line int
	// Text is the call as the trace writes it (long data shortened).
	Text string
	// Err holds the GL errors the call raised, or why it could not be
	// made.
	Err string `json:",omitempty"`
}

// Load decodes a capture file.
func Load(capture []byte) (*Frame, error) {
	hdr, subs, err := hal.Submissions(bytes.NewReader(capture))
	if err != nil {
		return nil, err
	}
	in, err := hal.NewInspector(hdr.Info.Chip)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	if _, err := driver.Lookup(hdr.Info.Chip); err != nil {
		return nil, fmt.Errorf("capture: no simulated device: %w", err)
	}
	f := &Frame{Info: hdr.Info, capture: capture,
		snapshots: newCache[int, *Snapshot](32), pixels: newCache[pixelKey, *PixelHistory](64),
		replays: make(chan struct{}, 2)}
	for i, s := range subs {
		sub := &Submission{Index: i, Buffer: s.Buffer}
		f.bytes = append(f.bytes, s.Bytes)
		in.Walk(s.Bytes, s.Buffer.Addr, func(c hal.Command) bool {
			sub.Commands = append(sub.Commands, c)
			return true
		})
		f.Subs = append(f.Subs, sub)
		f.addDraws(sub)
	}
	return f, nil
}

// addDraws cuts a submission into draws: a draw ends at a command marked
// DrawEnd once a DrawBegin has been seen.
func (f *Frame) addDraws(sub *Submission) {
	first, begin := 0, -1
	for i, c := range sub.Commands {
		if c.Draw&hal.DrawBegin != 0 && begin < 0 {
			begin = i
		}
		if c.Draw&hal.DrawEnd != 0 && begin >= 0 {
			d := &Draw{Index: len(f.Draws), Sub: sub.Index, First: first, Begin: begin, Last: i}
			f.Draws = append(f.Draws, d)
			sub.Draws = append(sub.Draws, d.Index)
			first, begin = i+1, -1
		}
	}
	if begin >= 0 {
		// A primitive the buffer never ends still drew what it drew.
		last := len(sub.Commands) - 1
		d := &Draw{Index: len(f.Draws), Sub: sub.Index, First: first, Begin: begin, Last: last}
		f.Draws = append(f.Draws, d)
		sub.Draws = append(sub.Draws, d.Index)
		first = last + 1
	}
	sub.Tail = first
}

// Lines returns the decoded lines of commands [from, to] of a submission.
func (s *Submission) Lines(from, to int) []string {
	var out []string
	for i := max(from, 0); i <= to && i < len(s.Commands); i++ {
		out = append(out, s.Commands[i].Lines...)
	}
	return out
}

// point returns the watch point just before command i of submission s:
// the end of the submission when i is past its last command.
func (f *Frame) point(s, i int) hal.WatchPoint {
	sub := f.Subs[s]
	fence := hal.Fence(s + 1)
	if i >= len(sub.Commands) || sub.Commands[i].Size == 0 {
		return hal.WatchPoint{Fence: fence, End: true}
	}
	return hal.WatchPoint{Fence: fence, Addr: sub.Buffer.Addr + sub.Commands[i].Offset}
}

// before and after are the watch points around draw d's commands.
func (f *Frame) before(d *Draw) hal.WatchPoint { return f.point(d.Sub, d.First) }
func (f *Frame) after(d *Draw) hal.WatchPoint  { return f.point(d.Sub, d.Last+1) }

// drawState is the chip state at the end of a draw, from the inspector.
type drawState struct {
	registers []hal.RegisterValue
	surfaces  []hal.Surface
	programs  []hal.Program
}

// states walks the whole capture once with the chip's inspector and keeps
// the state at the end of every draw.
func (f *Frame) states() ([]drawState, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.statesDone {
		return f.drawStates, f.statesErr
	}
	f.statesDone = true
	in, err := hal.NewInspector(f.Info.Chip)
	if err != nil {
		f.statesErr = err
		return nil, err
	}
	states := make([]drawState, len(f.Draws))
	for _, sub := range f.Subs {
		ends := map[int]int{} // command index -> draw
		for _, d := range sub.Draws {
			ends[f.Draws[d].Last] = d
		}
		i := 0
		in.Walk(f.bytes[sub.Index], sub.Buffer.Addr, func(hal.Command) bool {
			if d, ok := ends[i]; ok {
				states[d] = drawState{in.Registers(), in.Surfaces(), in.Programs()}
			}
			i++
			return true
		})
	}
	f.drawStates = states
	return states, nil
}

// replay runs the capture on a fresh device with fn watching points, and
// stops once fn has seen the last of them (fn returns false to stop
// early). It returns an error when a point was never reached.
func (f *Frame) replay(points []hal.WatchPoint, fn func(dev hal.Device, p hal.WatchPoint) bool) error {
	f.replays <- struct{}{}
	defer func() { <-f.replays }()
	b, err := driver.Lookup(f.Info.Chip)
	if err != nil {
		return err
	}
	dev, err := b.NewDevice()
	if err != nil {
		return fmt.Errorf("%s: new device: %w", f.Info.Chip, err)
	}
	w, ok := dev.(hal.Watcher)
	if !ok {
		dev.Close()
		return fmt.Errorf("%s: the device cannot pause between commands (hal.Watcher)", f.Info.Chip)
	}
	want := map[hal.WatchPoint]bool{}
	for _, p := range points {
		want[p] = true
	}
	var mu sync.Mutex
	finished := false
	w.Watch(points, func(p hal.WatchPoint) bool {
		mu.Lock()
		defer mu.Unlock()
		if finished {
			return false
		}
		delete(want, p)
		goOn := fn(dev, p)
		if !goOn || len(want) == 0 {
			finished = true
			return false
		}
		return true
	})
	done := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return finished
	}
	_, rerr := hal.ReplayUntil(bytes.NewReader(f.capture), dev, done)
	cerr := dev.Close()
	if rerr != nil {
		return fmt.Errorf("replay: %w", rerr)
	}
	if cerr != nil && !errors.Is(cerr, hal.ErrStopped) {
		return fmt.Errorf("replay: %w", cerr)
	}
	mu.Lock()
	defer mu.Unlock()
	if !finished && len(want) > 0 {
		return fmt.Errorf("replay: the device never reached %d of %d watch points (a fault stopped a buffer?)", len(want), len(points))
	}
	return nil
}

// Open reads a capture file from r.
func Open(r io.Reader) (*Frame, error) {
	data, err := io.ReadAll(io.LimitReader(r, 1<<30))
	if err != nil {
		return nil, err
	}
	return Load(data)
}
