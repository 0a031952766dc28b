package hal_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	"github.com/retrogl/retrogl/sim/device"
)

// copyEngine treats a buffer as [dst u32][len u32][bytes...]: it copies the
// bytes to dst, so a replay's read-back depends on the submission.
type copyEngine struct{}

func (copyEngine) Run(x *device.Exec) error {
	b := x.Buffer()
	hdr, ok := x.Mem.Slice(b.Addr, 8)
	if !ok {
		return x.Fault(b.Addr, 0, "header outside memory")
	}
	dst := uint32(hdr[0]) | uint32(hdr[1])<<8 | uint32(hdr[2])<<16 | uint32(hdr[3])<<24
	n := uint32(hdr[4])
	src, _ := x.Mem.Slice(b.Addr+8, n)
	if err := x.Mem.Write(dst, src); err != nil {
		return x.Fault(b.Addr, uint64(dst), err.Error())
	}
	return nil
}

func (copyEngine) Reset() {}

func newDev() hal.Device {
	return device.New(device.Config{Info: hal.Info{Chip: "copy", WordSize: 4,
		Regions: []hal.Region{{Name: "ram", Base: 0x100, Size: 0x1000}}}}, copyEngine{})
}

func TestCaptureReplay(t *testing.T) {
	var file bytes.Buffer
	c, err := hal.NewCapture(newDev(), &file)
	require.NoError(t, err)
	a, err := c.Alloc(64, 16, "ram")
	require.NoError(t, err)
	require.NoError(t, c.Write(a.Addr, []byte{0x00, 0x08, 0, 0, 3, 0, 0, 0, 'a', 'b', 'c'}))
	f, err := c.Submit(hal.Buffer{Addr: a.Addr, Size: 11})
	require.NoError(t, err)
	require.NoError(t, c.Wait(f))
	got := make([]byte, 3)
	require.NoError(t, c.Read(0x800, got))
	assert.Equal(t, []byte("abc"), got)
	// A faulting submission is recorded with its fault text.
	require.NoError(t, c.Write(a.Addr, []byte{0xFF, 0xFF, 0, 0, 3}))
	f, err = c.Submit(hal.Buffer{Addr: a.Addr, Size: 8})
	require.NoError(t, err)
	assert.Error(t, c.Wait(f))
	require.NoError(t, c.Free(a))
	require.NoError(t, c.Close())

	rep, err := hal.Replay(bytes.NewReader(file.Bytes()), newDev())
	require.NoError(t, err)
	assert.Empty(t, rep.Mismatches)
	assert.Equal(t, hal.ReplayReport{Writes: 2, Submits: 2, Waits: 2, Reads: 1}, rep)

	hdr, subs, err := hal.Submissions(bytes.NewReader(file.Bytes()))
	require.NoError(t, err)
	assert.Equal(t, "copy", hdr.Info.Chip)
	require.Len(t, subs, 2)
	assert.Equal(t, []byte("abc"), subs[0].Bytes[8:])

	// A device of another chip refuses the capture.
	other := device.New(device.Config{Info: hal.Info{Chip: "other"}}, copyEngine{})
	_, err = hal.Replay(bytes.NewReader(file.Bytes()), other)
	assert.ErrorContains(t, err, "capture is for")
}

func TestReplayDetectsDifferences(t *testing.T) {
	var file bytes.Buffer
	c, err := hal.NewCapture(newDev(), &file)
	require.NoError(t, err)
	require.NoError(t, c.Write(0x200, []byte{1, 2, 3}))
	require.NoError(t, c.Read(0x200, make([]byte, 3)))
	require.NoError(t, c.Close())
	// Replay onto a device whose memory was changed behind the capture's back.
	dev := newDev()
	rep, err := hal.Replay(bytes.NewReader(file.Bytes()), &tamper{Device: dev})
	require.NoError(t, err)
	require.Len(t, rep.Mismatches, 1)
	assert.Contains(t, rep.Mismatches[0].What, "1 bytes differ")
}

type tamper struct{ hal.Device }

func (t *tamper) Read(addr uint32, p []byte) error {
	err := t.Device.Read(addr, p)
	p[0] ^= 0xFF
	return err
}

func TestBadCaptureFiles(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("not gzip"), gz([]byte("RGLCAPxx")), gz([]byte("RGLCAP01\x05pspge"))} {
		_, err := hal.NewCaptureReader(bytes.NewReader(b))
		assert.Error(t, err)
	}
	_, err := hal.Replay(bytes.NewReader(gz([]byte("RGLCAP01\x04copy\x00\x04\x00W\x80\x02\xff\xff\xff\x0f"))), newDev())
	assert.Error(t, err, "a write record longer than the file")
}

func gz(b []byte) []byte {
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// FuzzCaptureReader feeds damaged captures to the reader: errors, never
// panics or huge allocations.
func FuzzCaptureReader(f *testing.F) {
	var file bytes.Buffer
	c, _ := hal.NewCapture(newDev(), &file)
	c.Write(0x200, []byte{1, 2, 3})
	fc, _ := c.Submit(hal.Buffer{Addr: 0x200, Size: 8})
	c.Wait(fc)
	c.Close()
	raw, _ := io.ReadAll(must(gzip.NewReader(bytes.NewReader(file.Bytes()))))
	f.Add(raw)
	f.Add([]byte("RGLCAP01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		cr, err := hal.NewCaptureReader(bytes.NewReader(gz(b)))
		if err != nil {
			return
		}
		for i := 0; i < 10000; i++ {
			if _, err := cr.Next(); err != nil {
				return
			}
		}
	})
}

func must(r *gzip.Reader, err error) *gzip.Reader {
	if err != nil {
		panic(err)
	}
	return r
}

// TestSubmissionsFollowExtend checks that a buffer extended while it ran
// is listed at its final size with the bytes written before the extension.
func TestSubmissionsFollowExtend(t *testing.T) {
	var file bytes.Buffer
	dev := device.New(device.Config{Info: hal.Info{Chip: "copy", WordSize: 4,
		Regions: []hal.Region{{Name: "ram", Base: 0x100, Size: 0x1000}}}}, stallEngine{})
	c, err := hal.NewCapture(dev, &file)
	require.NoError(t, err)
	require.NoError(t, c.Write(0x200, []byte{1, 1, 1, 1}))
	f, err := c.Submit(hal.Buffer{Addr: 0x200, Size: 4})
	require.NoError(t, err)
	require.NoError(t, c.Write(0x204, []byte{0, 0, 0, 0}))
	require.NoError(t, c.Extend(f, 8))
	require.NoError(t, c.Wait(f))
	require.NoError(t, c.Close())
	_, subs, err := hal.Submissions(bytes.NewReader(file.Bytes()))
	require.NoError(t, err)
	require.Len(t, subs, 1)
	assert.Equal(t, []byte{1, 1, 1, 1, 0, 0, 0, 0}, subs[0].Bytes)
	rep, err := hal.Replay(bytes.NewReader(file.Bytes()), device.New(device.Config{Info: hal.Info{Chip: "copy", WordSize: 4,
		Regions: []hal.Region{{Name: "ram", Base: 0x100, Size: 0x1000}}}}, stallEngine{}))
	require.NoError(t, err)
	assert.Empty(t, rep.Mismatches)
}

// stallEngine consumes non-zero words until a zero word, stalling at the
// end of its buffer until it is extended.
type stallEngine struct{}

func (stallEngine) Run(x *device.Exec) error {
	pos, end := x.Buffer().Addr, x.End()
	for {
		if pos == end {
			var ok bool
			if end, ok = x.Stall(pos); !ok {
				return x.Fault(pos, 0, "stalled")
			}
			continue
		}
		w, _ := x.Mem.Slice(pos, 4)
		if w[0] == 0 {
			return nil
		}
		pos += 4
	}
}

func (stallEngine) Reset() {}

func TestReplayUntil(t *testing.T) {
	var file bytes.Buffer
	c, err := hal.NewCapture(newDev(), &file)
	require.NoError(t, err)
	a, err := c.Alloc(64, 16, "ram")
	require.NoError(t, err)
	for i := 0; i < 3; i++ {
		require.NoError(t, c.Write(a.Addr, []byte{0x00, 0x08, 0, 0, 1, 0, 0, 0, byte('a' + i)}))
		f, err := c.Submit(hal.Buffer{Addr: a.Addr, Size: 9})
		require.NoError(t, err)
		require.NoError(t, c.Wait(f))
	}
	require.NoError(t, c.Close())

	// Stop once the first submission was issued: the rest is not.
	dev := newDev()
	rep, err := hal.ReplayUntil(bytes.NewReader(file.Bytes()), dev, func() bool { return true })
	require.NoError(t, err)
	assert.Equal(t, hal.ReplayReport{}, rep, "nothing issued when done from the start")
	counting := &countingDevice{Device: dev}
	rep, err = hal.ReplayUntil(bytes.NewReader(file.Bytes()), counting, func() bool { return counting.submits > 0 })
	require.NoError(t, err)
	assert.Equal(t, hal.ReplayReport{Writes: 1, Submits: 1}, rep, "the replay ends right after the first submission")
	require.NoError(t, dev.Close())
}

type countingDevice struct {
	hal.Device
	submits int
}

func (d *countingDevice) Submit(b hal.Buffer) (hal.Fence, error) {
	d.submits++
	return d.Device.Submit(b)
}

func TestImagePages(t *testing.T) {
	img := hal.NewImage(hal.Info{Regions: []hal.Region{{Name: "big", Base: 0x10000000, Size: 1 << 30}}})
	p := []byte{1, 2, 3, 4, 5, 6}
	require.NoError(t, img.Write(0x10000000+64<<10-3, p), "a write across a page boundary")
	got := make([]byte, 10)
	require.NoError(t, img.Read(0x10000000+64<<10-5, got))
	assert.Equal(t, []byte{0, 0, 1, 2, 3, 4, 5, 6, 0, 0}, got)
	require.NoError(t, img.Read(0x30000000, got), "untouched memory reads as zero")
	assert.Equal(t, make([]byte, 10), got)
	assert.ErrorIs(t, img.Write(0x10000000+1<<30-2, p), hal.ErrBadAddress)
	assert.ErrorIs(t, img.Read(0x0FFFFFFF, got), hal.ErrBadAddress)
	tail, err := img.Bytes(0x10000000 + 1<<30 - 4)
	require.NoError(t, err)
	assert.Len(t, tail, 4)
}
