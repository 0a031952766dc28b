package driver_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/sim/device"
)

// nopEngine completes every buffer at once; a buffer starting with 0xEE
// faults.
type nopEngine struct{}

func (nopEngine) Run(x *device.Exec) error {
	b, _ := x.Mem.Slice(x.Buffer().Addr, 1)
	if b[0] == 0xEE {
		return x.Fault(x.Buffer().Addr, 0xEE, "bad")
	}
	return nil
}

func (nopEngine) Reset() {}

func TestUploaderLifetimes(t *testing.T) {
	dev := device.New(device.Config{Info: hal.Info{Chip: "t", Regions: []hal.Region{{Name: "ram", Base: 0x1000, Size: 0x10000}}}}, nopEngine{})
	defer dev.Close()
	mem := dev.Memory()
	u := driver.NewUploader(dev, "ram", 0x400)
	tex, err := dev.Alloc(0x100, 16, "ram")
	require.NoError(t, err)
	_, err = u.Upload(make([]byte, 0x300), 4)
	require.NoError(t, err)
	u.FreeAfter(tex)
	_, err = u.Submit([]byte{1, 2, 3, 4}, 16, 4)
	require.NoError(t, err)
	_, n := u.Oldest()
	assert.Equal(t, 1, n)
	// Until the submission retires, the texture's memory is not reused.
	b, err := mem.Alloc(0x100, 16, "ram")
	require.NoError(t, err)
	assert.NotEqual(t, tex.Addr, b.Addr)
	require.NoError(t, u.Drain(nil))
	_, n = u.Oldest()
	assert.Zero(t, n)
	again, err := mem.Alloc(0x100, 16, "ram")
	require.NoError(t, err)
	assert.Equal(t, tex.Addr, again.Addr, "freed after the drain")

	// Faults come back from Drain, one call per faulted submission.
	var faulted []hal.Fence
	_, err = u.Submit([]byte{0xEE}, 16, 4)
	require.NoError(t, err)
	f2, err := u.Submit([]byte{1}, 16, 4)
	require.NoError(t, err)
	err = u.Drain(func(f hal.Fence, err error) { faulted = append(faulted, f) })
	assert.ErrorContains(t, err, "bad")
	assert.Equal(t, []hal.Fence{f2 - 1}, faulted)

	// More than maxInFlight pending: Submit waits for the oldest.
	for i := 0; i < 3; i++ {
		_, err = u.Submit([]byte{1}, 16, 1)
		require.NoError(t, err)
	}
	_, n = u.Oldest()
	assert.LessOrEqual(t, n, 1)
	require.NoError(t, u.Drain(nil))
}
