package frame

import (
	"encoding/binary"
	"fmt"
	"image/color"

	"github.com/retrogl/retrogl/hal"
)

// Snapshot is the chip's state after a draw.
type Snapshot struct {
	// Draw is the draw's index.
	Draw int
	// Registers are the registers as the inspector decoded them at the
	// draw's last command.
	Registers []hal.RegisterValue
	// Programs are the shader programs, disassembled.
	Programs []hal.Program
	// Surfaces are the render targets and textures, read from memory on
	// a fresh device paused after the draw.
	Surfaces []SurfaceView
}

// SurfaceView is a surface read after a draw.
type SurfaceView struct {
	hal.Surface
	// Picture is the surface after the draw; nil when Err is set.
	Picture *hal.Picture
	// Changed marks, for a render target, the pixels whose stored value
	// differs from what it was before the draw's first command; nil for
	// textures. ChangedCount counts them.
	Changed      []bool
	ChangedCount int
	// Err says why the surface could not be read.
	Err error
}

// isTarget reports whether a surface is a render target.
func isTarget(s *hal.Surface) bool { return s.Kind != hal.SurfaceTexture }

// After returns the state after draw d, replaying the capture up to it
// (once: snapshots are cached).
func (f *Frame) After(d int) (*Snapshot, error) {
	if d < 0 || d >= len(f.Draws) {
		return nil, fmt.Errorf("no draw %d (the capture has %d)", d, len(f.Draws))
	}
	return f.snapshots.get(d, func() (*Snapshot, error) { return f.snapshot(d) })
}

func (f *Frame) snapshot(d int) (*Snapshot, error) {
	states, err := f.states()
	if err != nil {
		return nil, err
	}
	st := states[d]
	draw := f.Draws[d]
	snap := &Snapshot{Draw: d, Registers: st.registers, Programs: st.programs}
	for _, s := range st.surfaces {
		snap.Surfaces = append(snap.Surfaces, SurfaceView{Surface: s})
	}
	before := make([]*hal.Picture, len(snap.Surfaces))
	pb, pa := f.before(draw), f.after(draw)
	err = f.replay([]hal.WatchPoint{pb, pa}, func(dev hal.Device, p hal.WatchPoint) bool {
		if p == pb {
			for i := range snap.Surfaces {
				if s := &snap.Surfaces[i]; isTarget(&s.Surface) {
					before[i], _ = s.Surface.Read(dev.Read)
				}
			}
		}
		if p != pa {
			return true
		}
		for i := range snap.Surfaces {
			s := &snap.Surfaces[i]
			s.Picture, s.Err = s.Surface.Read(dev.Read)
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	for i := range snap.Surfaces {
		s := &snap.Surfaces[i]
		b := before[i]
		if s.Picture == nil || b == nil || len(b.Values) != len(s.Picture.Values) {
			continue
		}
		s.Changed = make([]bool, len(b.Values))
		for k, v := range s.Picture.Values {
			if v != b.Values[k] {
				s.Changed[k] = true
				s.ChangedCount++
			}
		}
	}
	return snap, nil
}

// PixelHistory is what every draw did to one pixel of a render target.
type PixelHistory struct {
	// X and Y are the pixel, Target the colour buffer's name and address
	// (at the draw the pixel was picked in).
	X, Y   int
	Target string
	Addr   uint32
	// Writes lists the draws that wrote the pixel, in order.
	Writes []PixelWrite
	// Considered counts the draws that rendered to the same colour
	// buffer.
	Considered int
}

// PixelWrite is one draw's write to a pixel, with the values after it.
type PixelWrite struct {
	Draw int
	// Changed is set when a stored value (colour, depth or stencil)
	// changed; a draw that wrote the value the pixel already held shows
	// only through Wrote.
	Changed bool
	// Color is the colour buffer's value after the draw and its colour.
	Color uint32
	RGBA  color.NRGBA
	// Depth and Stencil are the values after the draw, when the draw's
	// state has those buffers.
	Depth, Stencil       uint32
	HasDepth, HasStencil bool
}

type pixelKey struct{ draw, x, y int }

// surfaceOf returns the first surface of a kind in a state.
func surfaceOf(st drawState, k hal.SurfaceKind) (hal.Surface, bool) {
	for _, s := range st.surfaces {
		if s.Kind == k && s.Pixel != nil {
			return s, true
		}
	}
	return hal.Surface{}, false
}

// pixelBytes reads a pixel's bytes.
func pixelBytes(dev hal.Device, s hal.Surface, x, y int) []byte {
	a, n, _ := s.Pixel(x, y)
	p := make([]byte, n)
	if dev.Read(a, p) != nil {
		return nil
	}
	return p
}

func le(p []byte) uint32 {
	var b [4]byte
	copy(b[:], p)
	return binary.LittleEndian.Uint32(b[:])
}

// value returns a surface's value at (x, y) from the pixel's bytes.
func value(s hal.Surface, x, y int, p []byte) uint32 {
	if p == nil {
		return 0
	}
	_, _, shift := s.Pixel(x, y)
	return s.Value(p, shift)
}

// History returns what every draw did to pixel (x, y) of the colour buffer
// that draw d renders to. A draw counts as writing the pixel when its
// colour, depth or stencil changed, or when a second replay, which inverts
// the pixel's colour bits before each draw (and puts back the first
// replay's value after it), finds the colour changed from the inverted
// one: a draw that rewrote the value the pixel held is found that way. A
// draw whose blending leaves any destination unchanged (ZERO, ONE) is not.
func (f *Frame) History(d, x, y int) (*PixelHistory, error) {
	if d < 0 || d >= len(f.Draws) {
		return nil, fmt.Errorf("no draw %d (the capture has %d)", d, len(f.Draws))
	}
	return f.pixels.get(pixelKey{d, x, y}, func() (*PixelHistory, error) { return f.history(d, x, y) })
}

// pixelDraw is a draw that renders to the picked colour buffer.
type pixelDraw struct {
	draw          int
	col, dep, stc hal.Surface
	hasDep        bool
	hasStc        bool
	// Pass A: the bytes before and after the draw; pass B: the colour
	// after the draw when it started from inverted colour bits.
	colBefore, colAfter []byte
	depBefore, depAfter []byte
	stcBefore, stcAfter []byte
	inverted, result    []byte
}

func (f *Frame) history(d, x, y int) (*PixelHistory, error) {
	states, err := f.states()
	if err != nil {
		return nil, err
	}
	target, ok := surfaceOf(states[d], hal.SurfaceColor)
	if !ok {
		return nil, fmt.Errorf("draw %d has no colour buffer", d)
	}
	if x < 0 || y < 0 || x >= target.Width || y >= target.Height {
		return nil, fmt.Errorf("pixel (%d, %d) outside the %dx%d colour buffer", x, y, target.Width, target.Height)
	}
	addr, _, _ := target.Pixel(x, y)
	h := &PixelHistory{X: x, Y: y, Target: target.Name, Addr: addr}
	var pds []*pixelDraw
	for k, st := range states {
		col, ok := surfaceOf(st, hal.SurfaceColor)
		if !ok || x >= col.Width || y >= col.Height {
			continue
		}
		if a, _, _ := col.Pixel(x, y); a != addr {
			continue
		}
		pd := &pixelDraw{draw: k, col: col}
		pd.dep, pd.hasDep = surfaceOf(st, hal.SurfaceDepth)
		pd.hasDep = pd.hasDep && x < pd.dep.Width && y < pd.dep.Height
		pd.stc, pd.hasStc = surfaceOf(st, hal.SurfaceStencil)
		pd.hasStc = pd.hasStc && x < pd.stc.Width && y < pd.stc.Height
		pds = append(pds, pd)
	}
	h.Considered = len(pds)
	if len(pds) == 0 {
		return h, nil
	}
	// Each watch point may end one draw and start the next.
	type event struct {
		pd    *pixelDraw
		start bool
	}
	events := map[hal.WatchPoint][]event{}
	var points []hal.WatchPoint
	add := func(p hal.WatchPoint, e event) {
		if _, ok := events[p]; !ok {
			points = append(points, p)
		}
		// Ends before starts, so a point that ends draw k and starts
		// draw k+1 finishes k first.
		if e.start {
			events[p] = append(events[p], e)
		} else {
			events[p] = append([]event{e}, events[p]...)
		}
	}
	for _, pd := range pds {
		add(f.before(f.Draws[pd.draw]), event{pd, true})
		add(f.after(f.Draws[pd.draw]), event{pd, false})
	}
	// Pass A: the values before and after each draw.
	err = f.replay(points, func(dev hal.Device, p hal.WatchPoint) bool {
		for _, e := range events[p] {
			pd := e.pd
			col := pixelBytes(dev, pd.col, x, y)
			var dep, stc []byte
			if pd.hasDep {
				dep = pixelBytes(dev, pd.dep, x, y)
			}
			if pd.hasStc {
				stc = pixelBytes(dev, pd.stc, x, y)
			}
			if e.start {
				pd.colBefore, pd.depBefore, pd.stcBefore = col, dep, stc
			} else {
				pd.colAfter, pd.depAfter, pd.stcAfter = col, dep, stc
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	// Pass B: invert the colour bits before each draw, read the result
	// after it, and put back pass A's value.
	err = f.replay(points, func(dev hal.Device, p hal.WatchPoint) bool {
		for _, e := range events[p] {
			pd := e.pd
			a, n, shift := pd.col.Pixel(x, y)
			if e.start {
				cur := make([]byte, n)
				if dev.Read(a, cur) != nil {
					continue
				}
				inv := make([]byte, 4)
				binary.LittleEndian.PutUint32(inv, le(cur)^pd.col.Mask<<shift)
				pd.inverted = inv[:n]
				dev.Write(a, pd.inverted)
				continue
			}
			pd.result = make([]byte, n)
			dev.Read(a, pd.result)
			if pd.colAfter != nil {
				dev.Write(a, pd.colAfter)
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	for _, pd := range pds {
		if pd.colAfter == nil {
			continue
		}
		val := func(s hal.Surface, p []byte) uint32 { return value(s, x, y, p) }
		changed := val(pd.col, pd.colBefore) != val(pd.col, pd.colAfter) ||
			(pd.hasDep && val(pd.dep, pd.depBefore) != val(pd.dep, pd.depAfter)) ||
			(pd.hasStc && val(pd.stc, pd.stcBefore) != val(pd.stc, pd.stcAfter))
		wrote := changed || (pd.inverted != nil && pd.result != nil && val(pd.col, pd.inverted) != val(pd.col, pd.result))
		if !wrote {
			continue
		}
		w := PixelWrite{Draw: pd.draw, Changed: changed, Color: val(pd.col, pd.colAfter)}
		if pd.col.Color != nil {
			w.RGBA = pd.col.Color(w.Color)
		}
		if pd.hasDep && pd.depAfter != nil {
			w.Depth, w.HasDepth = val(pd.dep, pd.depAfter), true
		}
		if pd.hasStc && pd.stcAfter != nil {
			w.Stencil, w.HasStencil = val(pd.stc, pd.stcAfter), true
		}
		h.Writes = append(h.Writes, w)
	}
	return h, nil
}
