package driver_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/sim/device"
)

// TestUploaderRelease: memory no pending command reads comes back as soon
// as the submissions in flight are done, without a further submission;
// memory the pending commands read waits for the next one.
func TestUploaderRelease(t *testing.T) {
	dev := device.New(device.Config{Info: hal.Info{Chip: "t", Regions: []hal.Region{{Name: "ram", Base: 0x1000, Size: 0x10000}}}}, nopEngine{})
	defer dev.Close()
	u := driver.NewUploader(dev, "ram", 0x400)
	free := func(a hal.Allocation) bool {
		b, err := dev.Alloc(a.Size, 16, "ram")
		require.NoError(t, err)
		defer dev.Free(b)
		return b.Addr == a.Addr
	}

	// Nothing in flight, used by submitted commands: freed at once.
	tex, err := dev.Alloc(0x100, 16, "ram")
	require.NoError(t, err)
	used := u.Batch()
	_, err = u.Submit([]byte{1}, 16, 4)
	require.NoError(t, err)
	require.NoError(t, u.WaitAll(nil))
	require.NoError(t, u.Release(tex, used))
	assert.True(t, free(tex), "freed without a submission")

	// In flight: freed when the submissions are done.
	tex, err = dev.Alloc(0x100, 16, "ram")
	require.NoError(t, err)
	used = u.Batch()
	_, err = u.Submit([]byte{1}, 16, 4)
	require.NoError(t, err)
	require.NoError(t, u.Release(tex, used))
	assert.False(t, free(tex), "a submission in flight may read it")
	require.NoError(t, u.WaitAll(nil))
	assert.True(t, free(tex))

	// Used by commands still being built: after the next submission.
	tex, err = dev.Alloc(0x100, 16, "ram")
	require.NoError(t, err)
	require.NoError(t, u.Release(tex, u.Batch()))
	require.NoError(t, u.WaitAll(nil))
	assert.False(t, free(tex), "the pending commands may read it")
	_, err = u.Submit([]byte{1}, 16, 4)
	require.NoError(t, err)
	require.NoError(t, u.WaitAll(nil))
	assert.True(t, free(tex))
}

// TestUploaderReclaim: when a chunk does not fit, the uploader calls the
// backend's reclaim once and tries again; RetryOutOfMemory does the same
// for a backend's own allocations.
func TestUploaderReclaim(t *testing.T) {
	dev := device.New(device.Config{Info: hal.Info{Chip: "t", Regions: []hal.Region{{Name: "ram", Base: 0x1000, Size: 0x1000}}}}, nopEngine{})
	defer dev.Close()
	u := driver.NewUploader(dev, "ram", 0x400)
	hog, err := dev.Alloc(0x1000, 16, "ram")
	require.NoError(t, err)
	_, err = u.Alloc(0x10, 4)
	require.ErrorIs(t, err, hal.ErrOutOfMemory, "no reclaim set")

	calls := 0
	u.SetReclaim(func() error {
		calls++
		return dev.Free(hog)
	})
	_, err = u.Alloc(0x10, 4)
	require.NoError(t, err)
	assert.Equal(t, 1, calls)

	// A reclaim that frees nothing: one retry, then the error.
	_, err = dev.Alloc(0xB00, 16, "ram")
	require.NoError(t, err)
	u.SetReclaim(func() error { calls++; return nil })
	_, err = u.Alloc(0x500, 4)
	assert.ErrorIs(t, err, hal.ErrOutOfMemory)
	assert.Equal(t, 2, calls)

	tries := 0
	err = driver.RetryOutOfMemory(func() error {
		tries++
		if tries == 1 {
			return hal.ErrOutOfMemory
		}
		return nil
	}, func() error { return nil })
	assert.NoError(t, err)
	assert.Equal(t, 2, tries)
	boom := errors.New("boom")
	err = driver.RetryOutOfMemory(func() error { return boom }, func() error { t.Fatal("reclaim for another error"); return nil })
	assert.Equal(t, boom, err)
}
