package pica

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	p "github.com/retrogl/retrogl/hal/pica"
)

// TestVertexCountBounded: one command setting NUMVERTICES = 0xFFFFFFFF
// before a draw took 41 s and 9 GB before the watchdog stopped it. The
// count is checked against the budget before any vertex is held: the
// draw faults at once, naming the limit.
func TestVertexCountBounded(t *testing.T) {
	d := New()
	defer d.Close()
	var w p.Writer
	w.Write(p.NUMVERTICES, 0xFFFFFFFF)
	w.Write(p.DRAWARRAYS, 1)
	w.Finalize()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	a, err := d.Alloc(uint32(len(w.Bytes()))+16, 16, "fcram")
	require.NoError(t, err)
	require.NoError(t, d.Write(a.Addr, w.Bytes()))
	f, err := d.Submit(hal.Buffer{Addr: a.Addr, Size: uint32(len(w.Bytes()))})
	require.NoError(t, err)
	err = d.Wait(f)
	runtime.ReadMemStats(&after)
	fl, ok := hal.AsFault(err)
	require.True(t, ok, "%v", err)
	assert.Contains(t, fl.Reason, "NUMVERTICES 4294967295 exceeds")
	assert.Contains(t, fl.Reason, "watchdog budget")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "allocated before faulting")
}
