package device

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
)

// TestWatchdogSaysWhy: the watchdog's fault names the limit, what a unit
// of it is on the chip, and why it exists.
func TestWatchdogSaysWhy(t *testing.T) {
	e := &loopEngine{}
	d := New(Config{Info: hal.Info{Chip: "test", WordSize: 1, Regions: regions}, Budget: 1000,
		Work: "one per byte"}, e)
	defer d.Close()
	require.NoError(t, d.Write(0x1000, []byte{0xFF}))
	f, err := d.Submit(hal.Buffer{Addr: 0x1000, Size: 1})
	require.NoError(t, err)
	err = d.Wait(f)
	fl, ok := hal.AsFault(err)
	require.True(t, ok)
	assert.Equal(t, "watchdog expired: the submission used up its budget of 1000 units of work (one per byte); "+
		"the budget stops runaway streams, and work that needs more goes in more submissions", fl.Reason)

	x := &Exec{dev: d, budget: 5}
	assert.Equal(t, int64(5), x.Remaining())
	assert.NoError(t, x.Step(5))
	assert.Equal(t, int64(0), x.Remaining())
	assert.True(t, errors.Is(x.Step(1), ErrWatchdog))
	assert.Equal(t, int64(0), x.Remaining())
}
