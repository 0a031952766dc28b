package frame

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/trace"
)

// FromTrace plays a GL call trace on a backend, recording a device capture,
// and returns the capture's frame with each draw's GL calls.
//
// To know which calls emitted which command words, the playback flushes
// after every call (a glFlush, which GL allows at any point): each call's
// words then reach the device in a submission, or an extension of the
// running one, made during that call, and a device wrapper
// (gles.Config.WrapDevice) notes the submissions and sizes each call
// made. A draw's calls are those after the previous draw's last call, up
// to the call whose submission holds the draw's last command: the state
// calls and the draw call. The pixels are the same as without the
// flushes; the buffers are cut differently.
func FromTrace(t *trace.Trace, backend string) (*Frame, error) {
	var capture bytes.Buffer
	w := &submitWatcher{fences: map[hal.Fence]int{}}
	cfg := t.Config()
	cfg.Capture = &capture
	cfg.WrapDevice = func(d hal.Device) hal.Device {
		w.Device = d
		return w
	}
	ctx, err := gles.NewContext(backend, cfg)
	if err != nil {
		return nil, err
	}
	calls := make([]Call, len(t.Calls))
	pl := trace.NewPlayer(ctx)
	var playErr error
	for i := range t.Calls {
		c := &t.Calls[i]
		calls[i] = Call{Line: c.Line, Text: CallText(c)}
		w.call = i
		if err := pl.Call(c); err != nil {
			playErr = err
			calls = calls[:i+1]
			calls[i].Err = err.Error()
			break
		}
		ctx.Flush()
		if err := ctx.Err(); err != nil {
			calls[i].Err = err.Error()
		}
	}
	w.call = len(calls)
	cerr := ctx.Close()
	f, err := Load(capture.Bytes())
	if err != nil {
		return nil, errors.Join(fmt.Errorf("the capture of the playback: %w", err), playErr, cerr)
	}
	f.Calls = calls
	f.attribute(w.events)
	return f, errors.Join(playErr, cerr)
}

// submitWatcher is a device wrapper that notes, for each Submit and
// Extend, the GL call being played.
type submitWatcher struct {
	hal.Device
	call   int
	fences map[hal.Fence]int
	subs   int
	events []submitEvent
}

type submitEvent struct {
	call, sub int
	size      uint32
}

// Submit implements hal.Device.
func (w *submitWatcher) Submit(b hal.Buffer) (hal.Fence, error) {
	f, err := w.Device.Submit(b)
	if err == nil {
		w.fences[f] = w.subs
		w.events = append(w.events, submitEvent{w.call, w.subs, b.Size})
		w.subs++
	}
	return f, err
}

// Extend implements hal.Appender when the wrapped device does.
func (w *submitWatcher) Extend(f hal.Fence, size uint32) error {
	ap, ok := w.Device.(hal.Appender)
	if !ok {
		return fmt.Errorf("%s: device cannot extend a running buffer", w.Device.Info().Chip)
	}
	err := ap.Extend(f, size)
	if i, known := w.fences[f]; err == nil && known {
		w.events = append(w.events, submitEvent{w.call, i, size})
	}
	return err
}

// attribute gives each draw the calls that produced it (see FromTrace).
func (f *Frame) attribute(events []submitEvent) {
	prev := -1
	for _, d := range f.Draws {
		sub := f.Subs[d.Sub]
		last := sub.Commands[d.Last]
		end := last.Offset + last.Size
		call := -1
		for _, e := range events {
			if e.sub == d.Sub && e.size >= end {
				call = e.call
				break
			}
		}
		if call < 0 || call >= len(f.Calls) {
			continue
		}
		for c := prev + 1; c <= call; c++ {
			d.Calls = append(d.Calls, c)
		}
		if call > prev {
			prev = call
		}
	}
}

// CallText writes a call as its trace line, with data arguments shortened
// to their size and long vectors and strings cut.
func CallText(c *trace.Call) string {
	var b strings.Builder
	b.WriteString(c.Name)
	for _, a := range c.Args {
		b.WriteByte(' ')
		writeValue(&b, a)
	}
	if c.Result != nil {
		b.WriteString(" = ")
		writeValue(&b, *c.Result)
	}
	return b.String()
}

func writeValue(b *strings.Builder, v trace.Value) {
	switch v.Kind {
	case trace.Data:
		fmt.Fprintf(b, "[%d bytes]", len(v.Bytes))
	case trace.Nil:
		b.WriteString("nil")
	case trace.String:
		s := v.Text
		if len(s) > 60 {
			s = s[:60] + "..."
		}
		b.WriteString(strconv.Quote(s))
	case trace.Vector:
		b.WriteByte('{')
		for i, e := range v.Elems {
			if i == 16 {
				fmt.Fprintf(b, " ... %d more", len(v.Elems)-16)
				break
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			writeValue(b, e)
		}
		b.WriteByte('}')
	default:
		b.WriteString(v.Text)
	}
}
