package hal

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Capture file format (all integers unsigned LEB128 varints, the whole file
// gzip-compressed):
//
//	magic   "RGLCAP01"
//	header  chip (string), revision (string), word size, region count,
//	        then per region: name (string), base, size
//	records tag byte, then by tag:
//	  'A' alloc    size, align, region (string), result address
//	  'f' free     address, size
//	  'W' write    address, length, bytes
//	  'S' submit   address, size, fence
//	  'X' extend   fence, new size
//	  'F' wait     fence, fault text (string, empty when the wait succeeded)
//	  'R' read     address, length, the bytes the device returned
//	  'E' end of capture
//
// A string is a length followed by its bytes. Replay ignores 'A' and 'f'
// (memory contents travel in 'W' records) and checks 'F' and 'R' against the
// fresh device.
const captureMagic = "RGLCAP01"

// Limits that keep a damaged capture from asking for absurd allocations.
const (
	maxCaptureString  = 256
	maxCaptureRegions = 16
	maxCaptureData    = 1 << 28
)

// RecordKind is the tag of a capture record.
type RecordKind byte

// The record kinds of a capture file.
const (
	RecAlloc  RecordKind = 'A'
	RecFree   RecordKind = 'f'
	RecWrite  RecordKind = 'W'
	RecSubmit RecordKind = 'S'
	RecExtend RecordKind = 'X'
	RecWait   RecordKind = 'F'
	RecRead   RecordKind = 'R'
	RecEnd    RecordKind = 'E'
)

// Record is one event of a capture.
type Record struct {
	Kind   RecordKind
	Addr   uint32
	Size   uint32
	Align  uint32
	Region string
	Fence  Fence
	Data   []byte
	// Fault is the text of the fault a wait returned; empty for success.
	Fault string
}

// Capture is a Device that records everything that crosses the contract.
type Capture struct {
	dev Device
	mu  sync.Mutex
	zw  *gzip.Writer
	bw  *bufio.Writer
	err error
}

// NewCapture wraps dev and writes the capture header to w. Close the
// Capture to flush the file; closing does not close w.
func NewCapture(dev Device, w io.Writer) (*Capture, error) {
	c := &Capture{dev: dev}
	c.zw = gzip.NewWriter(w)
	c.bw = bufio.NewWriter(c.zw)
	info := dev.Info()
	c.bw.WriteString(captureMagic)
	c.str(info.Chip)
	c.str(info.Revision)
	c.uv(uint64(info.WordSize))
	c.uv(uint64(len(info.Regions)))
	for _, r := range info.Regions {
		c.str(r.Name)
		c.uv(uint64(r.Base))
		c.uv(uint64(r.Size))
	}
	if c.err != nil {
		return nil, fmt.Errorf("capture header: %w", c.err)
	}
	return c, nil
}

func (c *Capture) uv(v uint64) {
	if c.err != nil {
		return
	}
	var b [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(b[:], v)
	_, c.err = c.bw.Write(b[:n])
}

func (c *Capture) str(s string) {
	c.uv(uint64(len(s)))
	if c.err == nil {
		_, c.err = c.bw.WriteString(s)
	}
}

func (c *Capture) tag(k RecordKind) {
	if c.err == nil {
		c.err = c.bw.WriteByte(byte(k))
	}
}

func (c *Capture) bytes(p []byte) {
	c.uv(uint64(len(p)))
	if c.err == nil {
		_, c.err = c.bw.Write(p)
	}
}

// Err returns the first error met while writing the capture.
func (c *Capture) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Info implements Device.
func (c *Capture) Info() Info { return c.dev.Info() }

// Alloc implements Device and records the allocation.
func (c *Capture) Alloc(size, align uint32, region string) (Allocation, error) {
	a, err := c.dev.Alloc(size, align, region)
	if err != nil {
		return a, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tag(RecAlloc)
	c.uv(uint64(size))
	c.uv(uint64(align))
	c.str(region)
	c.uv(uint64(a.Addr))
	return a, nil
}

// Free implements Device.
func (c *Capture) Free(a Allocation) error {
	if err := c.dev.Free(a); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tag(RecFree)
	c.uv(uint64(a.Addr))
	c.uv(uint64(a.Size))
	return nil
}

// Write implements Device and records the bytes.
func (c *Capture) Write(addr uint32, p []byte) error {
	if err := c.dev.Write(addr, p); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tag(RecWrite)
	c.uv(uint64(addr))
	c.bytes(p)
	return nil
}

// Read implements Device and records what the device returned.
func (c *Capture) Read(addr uint32, p []byte) error {
	if err := c.dev.Read(addr, p); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tag(RecRead)
	c.uv(uint64(addr))
	c.bytes(p)
	return nil
}

// Submit implements Device.
func (c *Capture) Submit(b Buffer) (Fence, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, err := c.dev.Submit(b)
	if err != nil {
		return f, err
	}
	c.tag(RecSubmit)
	c.uv(uint64(b.Addr))
	c.uv(uint64(b.Size))
	c.uv(uint64(f))
	return f, nil
}

// Extend implements Appender when the wrapped device does.
func (c *Capture) Extend(f Fence, size uint32) error {
	ap, ok := c.dev.(Appender)
	if !ok {
		return fmt.Errorf("%s: device cannot extend a running buffer", c.dev.Info().Chip)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := ap.Extend(f, size); err != nil {
		return err
	}
	c.tag(RecExtend)
	c.uv(uint64(f))
	c.uv(uint64(size))
	return nil
}

// Wait implements Device and records the outcome.
func (c *Capture) Wait(f Fence) error {
	err := c.dev.Wait(f)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tag(RecWait)
	c.uv(uint64(f))
	if err != nil {
		c.str(err.Error())
	} else {
		c.str("")
	}
	return err
}

// Close ends the capture file and closes the wrapped device.
func (c *Capture) Close() error {
	derr := c.dev.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tag(RecEnd)
	if c.err == nil {
		c.err = c.bw.Flush()
	}
	if c.err == nil {
		c.err = c.zw.Close()
	}
	return errors.Join(derr, c.err)
}

// CaptureHeader is the device description at the start of a capture.
type CaptureHeader struct {
	Info Info
}

// CaptureReader reads a capture file record by record.
type CaptureReader struct {
	r      *bufio.Reader
	header CaptureHeader
	done   bool
}

// NewCaptureReader checks the magic and reads the header.
func NewCaptureReader(r io.Reader) (*CaptureReader, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("capture: not a retrogl capture (gzip: %w)", err)
	}
	cr := &CaptureReader{r: bufio.NewReader(zr)}
	magic := make([]byte, len(captureMagic))
	if _, err := io.ReadFull(cr.r, magic); err != nil || string(magic) != captureMagic {
		return nil, errors.New("capture: bad magic, not a retrogl capture")
	}
	h := &cr.header.Info
	if h.Chip, err = cr.str(); err != nil {
		return nil, fmt.Errorf("capture header: chip: %w", err)
	}
	if h.Revision, err = cr.str(); err != nil {
		return nil, fmt.Errorf("capture header: revision: %w", err)
	}
	ws, err := cr.uv(8)
	if err != nil {
		return nil, fmt.Errorf("capture header: word size: %w", err)
	}
	h.WordSize = int(ws)
	n, err := cr.uv(maxCaptureRegions)
	if err != nil {
		return nil, fmt.Errorf("capture header: region count: %w", err)
	}
	for i := uint64(0); i < n; i++ {
		var reg Region
		if reg.Name, err = cr.str(); err != nil {
			return nil, fmt.Errorf("capture header: region %d: %w", i, err)
		}
		b, err := cr.uv(1<<32 - 1)
		if err != nil {
			return nil, fmt.Errorf("capture header: region %d base: %w", i, err)
		}
		s, err := cr.uv(1<<32 - 1)
		if err != nil {
			return nil, fmt.Errorf("capture header: region %d size: %w", i, err)
		}
		reg.Base, reg.Size = uint32(b), uint32(s)
		h.Regions = append(h.Regions, reg)
	}
	return cr, nil
}

// Header returns the capture's device description.
func (cr *CaptureReader) Header() CaptureHeader { return cr.header }

func (cr *CaptureReader) uv(max uint64) (uint64, error) {
	v, err := binary.ReadUvarint(cr.r)
	if err != nil {
		return 0, truncated(err)
	}
	if v > max {
		return 0, fmt.Errorf("value %d out of range (max %d)", v, max)
	}
	return v, nil
}

func (cr *CaptureReader) u32() (uint32, error) {
	v, err := cr.uv(1<<32 - 1)
	return uint32(v), err
}

func (cr *CaptureReader) str() (string, error) {
	n, err := cr.uv(maxCaptureString)
	if err != nil {
		return "", err
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(cr.r, b); err != nil {
		return "", truncated(err)
	}
	return string(b), nil
}

func (cr *CaptureReader) data() ([]byte, error) {
	n, err := cr.uv(maxCaptureData)
	if err != nil {
		return nil, err
	}
	// Read in chunks so a lying length on a short file fails before a huge
	// allocation is made.
	var buf bytes.Buffer
	if _, err := io.CopyN(&buf, cr.r, int64(n)); err != nil {
		return nil, truncated(err)
	}
	return buf.Bytes(), nil
}

func truncated(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Next returns the next record. It returns io.EOF after the end record.
func (cr *CaptureReader) Next() (Record, error) {
	if cr.done {
		return Record{}, io.EOF
	}
	t, err := cr.r.ReadByte()
	if err != nil {
		return Record{}, fmt.Errorf("capture: missing end record: %w", truncated(err))
	}
	rec := Record{Kind: RecordKind(t)}
	fail := func(what string, err error) (Record, error) {
		return Record{}, fmt.Errorf("capture: %c record: %s: %w", t, what, err)
	}
	switch rec.Kind {
	case RecAlloc:
		if rec.Size, err = cr.u32(); err != nil {
			return fail("size", err)
		}
		if rec.Align, err = cr.u32(); err != nil {
			return fail("align", err)
		}
		if rec.Region, err = cr.str(); err != nil {
			return fail("region", err)
		}
		if rec.Addr, err = cr.u32(); err != nil {
			return fail("address", err)
		}
	case RecFree:
		if rec.Addr, err = cr.u32(); err != nil {
			return fail("address", err)
		}
		if rec.Size, err = cr.u32(); err != nil {
			return fail("size", err)
		}
	case RecWrite, RecRead:
		if rec.Addr, err = cr.u32(); err != nil {
			return fail("address", err)
		}
		if rec.Data, err = cr.data(); err != nil {
			return fail("data", err)
		}
		rec.Size = uint32(len(rec.Data))
	case RecSubmit:
		if rec.Addr, err = cr.u32(); err != nil {
			return fail("address", err)
		}
		if rec.Size, err = cr.u32(); err != nil {
			return fail("size", err)
		}
		f, err := cr.uv(1<<63 - 1)
		if err != nil {
			return fail("fence", err)
		}
		rec.Fence = Fence(f)
	case RecExtend:
		f, err := cr.uv(1<<63 - 1)
		if err != nil {
			return fail("fence", err)
		}
		rec.Fence = Fence(f)
		if rec.Size, err = cr.u32(); err != nil {
			return fail("size", err)
		}
	case RecWait:
		f, err := cr.uv(1<<63 - 1)
		if err != nil {
			return fail("fence", err)
		}
		rec.Fence = Fence(f)
		if rec.Fault, err = cr.str(); err != nil {
			return fail("fault", err)
		}
	case RecEnd:
		cr.done = true
	default:
		return Record{}, fmt.Errorf("capture: unknown record tag %#02x", t)
	}
	return rec, nil
}

// Mismatch is a difference between a capture and its replay.
type Mismatch struct {
	// Record is the index of the capture record that differed.
	Record int
	// What describes the difference.
	What string
}

// ReplayReport summarises a replay.
type ReplayReport struct {
	Writes, Submits, Waits, Reads int
	Mismatches                    []Mismatch
}

// Replay runs the capture in r on dev, which must be a fresh device of the
// capture's chip. Writes and submissions are issued as recorded; every wait
// and read-back is compared with the recording. It returns an error for a
// damaged file or a device that refuses a recorded operation; differences
// in results are listed in the report.
func Replay(r io.Reader, dev Device) (ReplayReport, error) {
	return ReplayUntil(r, dev, nil)
}

// ReplayUntil is Replay that ends early once done reports true (it is
// asked before each record; nil means never): a tool whose watch function
// (see Watcher) has what it needs stops issuing the rest of the capture.
// A device operation that fails once done reports true ends the replay
// without an error (a stopped submission cannot be extended).
func ReplayUntil(r io.Reader, dev Device, done func() bool) (ReplayReport, error) {
	var rep ReplayReport
	cr, err := NewCaptureReader(r)
	if err != nil {
		return rep, err
	}
	if got, want := dev.Info().Chip, cr.Header().Info.Chip; got != want {
		return rep, fmt.Errorf("replay: capture is for %q, device is %q", want, got)
	}
	fences := map[Fence]Fence{}
	stopped := func() bool { return done != nil && done() }
	for i := 0; ; i++ {
		if stopped() {
			return rep, nil
		}
		rec, err := cr.Next()
		if err == io.EOF {
			return rep, nil
		}
		if err != nil {
			return rep, err
		}
		switch rec.Kind {
		case RecWrite:
			rep.Writes++
			if err := dev.Write(rec.Addr, rec.Data); err != nil {
				return rep, fmt.Errorf("replay record %d: %w", i, err)
			}
		case RecSubmit:
			rep.Submits++
			f, err := dev.Submit(Buffer{Addr: rec.Addr, Size: rec.Size})
			if err != nil {
				return rep, fmt.Errorf("replay record %d: %w", i, err)
			}
			fences[rec.Fence] = f
		case RecExtend:
			ap, ok := dev.(Appender)
			if !ok {
				return rep, fmt.Errorf("replay record %d: device cannot extend buffers", i)
			}
			if err := ap.Extend(fences[rec.Fence], rec.Size); err != nil {
				if stopped() {
					return rep, nil
				}
				return rep, fmt.Errorf("replay record %d: %w", i, err)
			}
		case RecWait:
			rep.Waits++
			f, ok := fences[rec.Fence]
			if !ok {
				f = rec.Fence
			}
			got := ""
			if err := dev.Wait(f); err != nil {
				got = err.Error()
			}
			if got != rec.Fault {
				rep.Mismatches = append(rep.Mismatches, Mismatch{i,
					fmt.Sprintf("wait %d: recorded %q, replay %q", rec.Fence, rec.Fault, got)})
			}
		case RecRead:
			rep.Reads++
			got := make([]byte, len(rec.Data))
			if err := dev.Read(rec.Addr, got); err != nil {
				return rep, fmt.Errorf("replay record %d: %w", i, err)
			}
			if !bytes.Equal(got, rec.Data) {
				n := 0
				first := -1
				for j := range got {
					if got[j] != rec.Data[j] {
						if first < 0 {
							first = j
						}
						n++
					}
				}
				rep.Mismatches = append(rep.Mismatches, Mismatch{i,
					fmt.Sprintf("read %#08x+%d: %d bytes differ, first at %#08x", rec.Addr, len(got), n, rec.Addr+uint32(first))})
			}
		}
	}
}
