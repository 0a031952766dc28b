package device

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
)

var regions = []hal.Region{{Name: "vram", Base: 0x1000, Size: 0x1000}, {Name: "ram", Base: 0x10000, Size: 0x100}}

func TestAllocator(t *testing.T) {
	m := NewMemory(regions)
	a, err := m.Alloc(10, 16, "vram")
	require.NoError(t, err)
	assert.Equal(t, hal.Allocation{Addr: 0x1000, Size: 10, Region: "vram"}, a)
	b, err := m.Alloc(16, 256, "vram")
	require.NoError(t, err)
	assert.Equal(t, uint32(0x1100), b.Addr, "aligned up to 256")
	c, err := m.Alloc(4, 4, "vram")
	require.NoError(t, err)
	assert.Equal(t, uint32(0x100C), c.Addr, "first fit fills the gap")

	_, err = m.Alloc(0x1000, 1, "vram")
	assert.ErrorIs(t, err, hal.ErrOutOfMemory)
	_, err = m.Alloc(0x100, 1, "ram")
	require.NoError(t, err, "the whole of a region fits")
	_, err = m.Alloc(1, 1, "ram")
	assert.ErrorIs(t, err, hal.ErrOutOfMemory)
	_, err = m.Alloc(1, 3, "vram")
	assert.ErrorContains(t, err, "power of two")
	_, err = m.Alloc(1, 1, "nope")
	assert.ErrorContains(t, err, "no memory region")

	// Freeing everything merges the free list back to one block.
	require.NoError(t, m.Free(a))
	require.NoError(t, m.Free(c))
	require.NoError(t, m.Free(b))
	assert.Error(t, m.Free(b), "double free")
	big, err := m.Alloc(0x1000, 1, "vram")
	require.NoError(t, err)
	assert.Equal(t, uint32(0x1000), big.Addr)
}

func TestMemoryBounds(t *testing.T) {
	m := NewMemory(regions)
	require.NoError(t, m.Write(0x1FFC, []byte{1, 2, 3, 4}))
	assert.ErrorIs(t, m.Write(0x1FFD, []byte{1, 2, 3, 4}), hal.ErrBadAddress)
	assert.ErrorIs(t, m.Read(0x0, make([]byte, 1)), hal.ErrBadAddress)
	assert.ErrorIs(t, m.Read(0xFFFFFFFF, make([]byte, 2)), hal.ErrBadAddress)
	p := make([]byte, 4)
	require.NoError(t, m.Read(0x1FFC, p))
	assert.Equal(t, []byte{1, 2, 3, 4}, p)
}

// loopEngine consumes one command per byte of its buffer, faults at byte
// 0xEE, panics at 0xDD, stalls at the end, and spins forever at 0xFF.
type loopEngine struct{ resets int }

func (e *loopEngine) Run(x *Exec) error {
	pos := x.Buffer().Addr
	end := x.End()
	for {
		if pos == end {
			var ok bool
			if end, ok = x.Stall(pos); !ok {
				return x.Fault(pos, 0, "stalled")
			}
			continue
		}
		x.Pos = pos
		b, _ := x.Mem.Slice(pos, 1)
		if err := x.Step(1); err != nil {
			return x.Fault(pos, uint64(b[0]), err.Error())
		}
		switch b[0] {
		case 0x00:
			return nil
		case 0xEE:
			return x.Fault(pos, 0xEE, "bad command")
		case 0xDD:
			panic("boom")
		case 0xFF:
			continue
		}
		pos++
	}
}

func (e *loopEngine) Reset() { e.resets++ }

func TestSubmitWaitFaults(t *testing.T) {
	e := &loopEngine{}
	d := New(Config{Info: hal.Info{Chip: "test", WordSize: 1, Regions: regions}, Budget: 1000}, e)
	defer d.Close()
	run := func(prog ...byte) error {
		require.NoError(t, d.Write(0x1000, prog))
		f, err := d.Submit(hal.Buffer{Addr: 0x1000, Size: uint32(len(prog))})
		require.NoError(t, err)
		return d.Wait(f)
	}
	assert.NoError(t, run(1, 2, 0))
	f, ok := hal.AsFault(run(1, 0xEE, 0))
	require.True(t, ok)
	assert.Equal(t, uint32(1), f.Offset)
	assert.Equal(t, "bad command", f.Reason)
	f, ok = hal.AsFault(run(0xFF))
	require.True(t, ok)
	assert.Contains(t, f.Reason, "watchdog")
	f, ok = hal.AsFault(run(1, 0xDD))
	require.True(t, ok)
	assert.Contains(t, f.Reason, "internal simulator error: boom")
	f, ok = hal.AsFault(run(1, 1))
	require.True(t, ok)
	assert.Equal(t, "stalled", f.Reason)
	assert.Equal(t, 4, e.resets)
	assert.NoError(t, run(0), "the device works after faults")
	assert.Error(t, d.Wait(99), "a fence never submitted")
}

func TestExtendStalledBuffer(t *testing.T) {
	d := New(Config{Info: hal.Info{Chip: "test", WordSize: 1, Regions: regions}}, &loopEngine{})
	defer d.Close()
	require.NoError(t, d.Write(0x1000, []byte{1, 1, 1, 0}))
	f, err := d.Submit(hal.Buffer{Addr: 0x1000, Size: 2})
	require.NoError(t, err)
	require.NoError(t, d.Extend(f, 4))
	assert.NoError(t, d.Wait(f))
	assert.Error(t, d.Extend(f, 8), "done")
}

func TestClosed(t *testing.T) {
	d := New(Config{Info: hal.Info{Chip: "test", Regions: regions}}, &loopEngine{})
	require.NoError(t, d.Close())
	_, err := d.Submit(hal.Buffer{Addr: 0x1000, Size: 1})
	assert.True(t, errors.Is(err, hal.ErrClosed))
}

// deferEngine copies each command byte of its buffer to the same offset of
// the ram region, but only when its pending writes are drained (at Drain
// or at the end of the buffer), as an engine that bins triangles does.
type deferEngine struct {
	pending [][2]uint32 // offset, value
	mem     *Memory
}

func (e *deferEngine) Run(x *Exec) error {
	b := x.Buffer()
	defer e.Drain()
	for pos := b.Addr; pos < b.Addr+b.Size; pos++ {
		x.Pos = pos
		if err := x.Step(1); err != nil {
			return x.Fault(pos, 0, err.Error())
		}
		v, _ := x.Mem.Slice(pos, 1)
		e.pending = append(e.pending, [2]uint32{pos - b.Addr, uint32(v[0])})
		if err := x.Step(5); err != nil { // work inside the command: no new watch point
			return x.Fault(pos, 0, err.Error())
		}
	}
	return nil
}

func (e *deferEngine) Drain() error {
	for _, p := range e.pending {
		e.mem.Write(0x10000+p[0], []byte{byte(p[1])})
	}
	e.pending = e.pending[:0]
	return nil
}

func (e *deferEngine) Reset() { e.pending = nil }

func TestWatch(t *testing.T) {
	e := &deferEngine{}
	d := New(Config{Info: hal.Info{Chip: "test", WordSize: 1, Regions: regions}}, e)
	e.mem = d.Memory()
	defer d.Close()
	var seen []string
	ram := func() []byte {
		p := make([]byte, 5)
		require.NoError(t, d.Read(0x10000, p))
		return p
	}
	d.Watch([]hal.WatchPoint{{Fence: 1, Addr: 0x1002}, {Fence: 1, End: true}, {Fence: 2, Addr: 0x1003}, {Fence: 2, End: true}, {Fence: 9, Addr: 0x1001}},
		func(p hal.WatchPoint) bool {
			seen = append(seen, fmt.Sprintf("%d %#x %v %v", p.Fence, p.Addr, p.End, ram()))
			return p.Fence != 2
		})
	require.NoError(t, d.Write(0x1000, []byte{1, 2, 3, 4, 5}))
	f1, err := d.Submit(hal.Buffer{Addr: 0x1000, Size: 5})
	require.NoError(t, err)
	require.NoError(t, d.Wait(f1))
	require.NoError(t, d.Write(0x10000, make([]byte, 5)))
	require.NoError(t, d.Write(0x1000, []byte{6, 7, 8, 9, 10}))
	f2, err := d.Submit(hal.Buffer{Addr: 0x1000, Size: 5})
	require.NoError(t, err)
	err = d.Wait(f2)
	assert.ErrorIs(t, err, hal.ErrStopped)
	assert.ErrorContains(t, err, "before the command at 0x00001003")
	_, isFault := hal.AsFault(err)
	assert.False(t, isFault, "a stop is not a fault")
	assert.Equal(t, []string{
		"1 0x1002 false [1 2 0 0 0]", // paused before the third command, the first two drained
		"1 0x0 true [1 2 3 4 5]",
		"2 0x1003 false [6 7 8 0 0]", // stopped there
		"2 0x0 true [6 7 8 0 0]",
	}, seen)
	assert.Equal(t, []byte{6, 7, 8, 0, 0}, ram(), "nothing after the stop ran")

	// Without a watch the device runs as before.
	d.Watch(nil, nil)
	f3, err := d.Submit(hal.Buffer{Addr: 0x1000, Size: 5})
	require.NoError(t, err)
	require.NoError(t, d.Wait(f3))
	assert.Equal(t, []byte{6, 7, 8, 9, 10}, ram())
	assert.Len(t, seen, 4)
}
