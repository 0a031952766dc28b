// Package glamo simulates the SMedia Glamo3365 3D engine: the command queue
// and the 16-bit register file of hal/glamo, vertex fetch from up to eight
// streams, the geometry and lighting engine computed in the chip's internal
// s[7].16 precision, clipping, setup with 1/16-pixel vertices, and the
// 16-bit pixel pipeline (two texture units, the two-stage texture blend,
// fog, alpha, stencil, Z, blending, dither, ROP and write masks).
//
// The engine reads the queue framing only through hal/glamo (Parse), and
// every choice the seed leaves open is written next to the code that makes
// it, naming the seed line or the guide's proposal.
package glamo

import (
	"errors"
	"fmt"
	"sync"

	"github.com/retrogl/retrogl/hal"
	hg "github.com/retrogl/retrogl/hal/glamo"
	"github.com/retrogl/retrogl/sim/device"
	"github.com/retrogl/retrogl/sim/raster"
)

// VRAMSize is the board's memory: the seed's addresses are A22..A1, 8 MiB.
const VRAMSize = 8 << 20

// nregs is the number of 16-bit registers in the block.
const nregs = (hg.BlockEnd - hg.BlockStart) / 2

// Device is a simulated Glamo3365: a hal.Device whose registers the CPU can
// read (glamo.RegReader).
type Device struct {
	*device.Device
	eng *Engine
}

// New returns a simulated Glamo3365 with 8 MiB of VRAM.
func New() *Device {
	e := NewEngine()
	d := device.New(device.Config{Work: "one per command word and per vertex, one per 64 pixels of a primitive's bounding box", Info: hal.Info{
		Chip: hg.Chip, Revision: "Glamo3365 3D engine rev 1.0 (simulated)",
		Regions:  []hal.Region{{Name: "vram", Base: 0, Size: VRAMSize}},
		WordSize: 2,
	}}, e)
	e.mem = d.Memory()
	return &Device{Device: d, eng: e}
}

// ReadReg implements glamo.RegReader. It waits for the buffer being
// executed, if any, as an MMIO read after a fence would.
func (d *Device) ReadReg(addr uint16) uint16 { return d.eng.ReadReg(addr) }

// Engine is the Glamo3365 command processor and 3D engine.
type Engine struct {
	mu  sync.Mutex
	mem *device.Memory

	// raw holds every 16-bit register as last written; val holds the
	// latched value of each register (at the index of its low half):
	// 32-bit fields latch when their high half is written (hal/glamo doc).
	raw  [nregs]uint16
	val  [nregs]uint32
	kind [nregs]regKind
	grp  [nregs]group

	pal   [2][256]uint16
	dirty group

	// Execution context of the current buffer.
	x   *device.Exec
	buf []byte
	pos int // byte offset of the word being executed

	jobs      jobList
	sched     raster.Scheduler
	batch     jobBatch
	workers   int
	rw        []*rasterWorker
	refPath   bool // tests: shade triangles pixel by pixel (walkTriRef)
	asm       assembler
	lineCount float64 // line-stipple counter (pixels along the major axis)
	gl        glState
	px        pixState
	stats     Stats
}

// Stats counts work, for benchmarks.
type Stats struct {
	Vertices, Triangles, Lines, Points, Pixels int64
}

// Stats returns the work done so far.
func (e *Engine) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}

// Stats returns the work the device's engine has done so far.
func (d *Device) Stats() Stats { return d.eng.Stats() }

// regKind classifies each 16-bit address for the write dispatch.
type regKind uint8

const (
	kReserved regKind = iota
	kInternal         // not writable (none today: P1 gives 1C00h-1DFFh to the palette)
	k16
	kLow
	kHigh
	kReadOnly
)

// group is a set of derived-state groups a register belongs to; a write
// marks its group dirty so the engine rebuilds that state before a draw.
type group uint16

const (
	gGeom   group = 1 << iota // matrices, viewport, clip, front-end enables
	gLight                    // lights and materials
	gTex0                     // texture unit 0
	gTex1                     // texture unit 1
	gPixel                    // per-fragment state
	gStream                   // vertex streams
	gPal0
	gPal1
	gAll group = 1<<iota - 1
)

// NewEngine returns an engine in its reset state. Its memory is attached by
// New; tests may set it with SetMemory.
func NewEngine() *Engine {
	e := &Engine{dirty: gAll}
	for _, r := range hg.Registers() {
		i := (r.Addr - hg.BlockStart) / 2
		switch {
		case r.Effect == hg.EffReadOnly:
			e.kind[i] = kReadOnly
			if r.Wide {
				e.kind[i+1] = kReadOnly
			}
		case r.Wide:
			e.kind[i], e.kind[i+1] = kLow, kHigh
		default:
			e.kind[i] = k16
		}
		g := groupOf(r.Addr)
		e.grp[i] = g
		if r.Wide {
			e.grp[i+1] = g
		}
	}
	return e
}

// SetMemory attaches device memory (for tests that drive the engine
// without a device).
func (e *Engine) SetMemory(m *device.Memory) { e.mem = m }

// groupOf assigns a register to a derived-state group by address range.
func groupOf(a uint16) group {
	switch {
	case a >= 0x1C00 && a < 0x1E00:
		return gPal1
	case a >= 0x2400 && a < 0x2600:
		return gPal0
	case a >= 0x1F00 && a < 0x2050:
		return gStream
	case a >= 0x21A0 && a < 0x2200:
		return gTex0 | gPixel
	case a >= 0x2200 && a < 0x2300:
		return gTex1 | gPixel
	case a >= 0x2100 && a < 0x23F0:
		return gPixel
	case a >= 0x2B00 && a < 0x2F00:
		return gLight
	case a >= 0x1E00 && a < 0x1F00, a >= 0x2600:
		return gGeom | gPixel
	case a == 0x2050:
		return gGeom
	}
	return 0
}

// reg returns the latched value of the register whose low half is at addr.
func (e *Engine) reg(addr uint16) uint32 { return e.val[(addr-hg.BlockStart)/2] }

// ReadReg returns a register as the CPU reads it (see Device.ReadReg).
func (e *Engine) ReadReg(addr uint16) uint16 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if addr < hg.BlockStart || addr >= hg.BlockEnd || addr%2 != 0 {
		return 0
	}
	switch addr {
	case 0x2054: // EGSTATUSA: everything idle and the queue empty (L2364-2399)
		return 0x02FF
	case 0x2058: // EGSTATUSC shares EGFIRE's address; undefined
		return 0
	}
	if addr >= hg.Palette1 && addr < hg.Palette1+0x200 {
		return e.pal[1][(addr-hg.Palette1)/2]
	}
	return e.raw[(addr-hg.BlockStart)/2]
}

// errFault carries a fault reason raised deep inside a draw; Run turns it
// into a *hal.Fault at the word being executed.
type errFault struct{ reason string }

func (f *errFault) Error() string { return f.reason }

func faultf(format string, args ...any) error { return &errFault{fmt.Sprintf(format, args...)} }

// Run implements device.Engine: it consumes the buffer's commands.
func (e *Engine) Run(x *device.Exec) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	b := x.Buffer()
	e.x = x
	defer func() { e.x, e.buf = nil, nil }()
	if b.Size%2 != 0 {
		return x.Fault(b.Addr, 0, fmt.Sprintf("buffer size %d is odd: the queue holds 16-bit words", b.Size))
	}
	buf, ok := x.Mem.Slice(b.Addr, b.Size)
	if !ok {
		return x.Fault(b.Addr, 0, fmt.Sprintf("buffer %#x+%d lies outside VRAM", b.Addr, b.Size))
	}
	e.buf = buf
	defer e.flushJobs()
	for off := 0; off < len(buf); {
		e.pos = off
		x.Pos = b.Addr + uint32(off)
		if err := e.step(1); err != nil {
			return e.fault(err)
		}
		c, err := hg.Parse(buf, off)
		if err != nil {
			return e.fault(errors.New(err.(*hg.FrameError).Reason))
		}
		for i := 0; i < c.N && c.Kind != hg.CmdNop; i++ {
			e.pos = c.Val + 2*i
			if i > 0 {
				if err := x.Step(1); err != nil {
					return e.fault(err)
				}
			}
			if err := e.write(c.Reg+2*uint16(i), hg.Word16(buf, e.pos)); err != nil {
				return e.fault(err)
			}
		}
		off = c.Next
	}
	return nil
}

// step charges n units of work to the watchdog (a no-op for an engine run
// without a device, in tests).
func (e *Engine) step(n int) error {
	if e.x == nil || n <= 0 {
		return nil
	}
	return e.x.Step(n)
}

// fault builds the *hal.Fault for the word at e.pos.
func (e *Engine) fault(err error) error {
	if f, ok := hal.AsFault(err); ok {
		return f
	}
	var word uint64
	if e.pos+2 <= len(e.buf) {
		word = uint64(hg.Word16(e.buf, e.pos))
	}
	f := e.x.Fault(e.x.Buffer().Addr+uint32(e.pos), word, err.Error())
	f.Decoded = hg.LineAt(e.buf, e.pos)
	return f
}

// Reset implements device.Engine: after a fault the list in progress is
// dropped; registers keep their values, as on the chip.
func (e *Engine) Reset() {
	e.asm.reset()
	e.dirty = gAll
}

// write performs one 16-bit register write.
func (e *Engine) write(addr, v uint16) error {
	if e.jobs.n > 0 && (addr < 0x1B00 || addr >= 0x1B84) && addr != 0x2058 && addr != 0x2052 {
		// Pending triangles see the state they were set up with.
		e.flushJobs()
	}
	i := (addr - hg.BlockStart) / 2
	switch e.kind[i] {
	case kReserved:
		return faultf("write to reserved register %04Xh", addr)
	case kReadOnly:
		return nil
	case kLow:
		e.raw[i] = v
		return nil
	case kHigh:
		e.raw[i] = v
		lo := i - 1
		e.val[lo] = uint32(v)<<16 | uint32(e.raw[lo])
		e.dirty |= e.grp[i]
		return nil
	}
	e.raw[i] = v
	e.val[i] = uint32(v)
	e.dirty |= e.grp[i]
	if h := effects[addr]; h != nil {
		return h(e, v)
	}
	return nil
}

// effects is the dispatch table of the registers whose writes act; a test
// checks it against the Effect column of hal/glamo's table.
var effects = map[uint16]func(e *Engine, v uint16) error{
	0x2058: (*Engine).fire,
	0x203C: (*Engine).preFire,
	0x203E: (*Engine).modeFire,
	0x23E0: (*Engine).endList,
	0x23E4: (*Engine).endParser,
}

func init() {
	// Palette RAM entries (L595-605, L1229-1240): store and mark dirty.
	for k := uint16(0); k < 256; k++ {
		k := k
		effects[hg.Palette0+2*k] = func(e *Engine, v uint16) error { e.pal[0][k] = v; return nil }
		effects[hg.Palette1+2*k] = func(e *Engine, v uint16) error { e.pal[1][k] = v; return nil }
	}
}

// preFire handles MGBufCBMFire (203Ch): 00 (buffer mode) and 11
// (stream-index mode) are the only values the seed names (L728).
func (e *Engine) preFire(v uint16) error {
	if m := v & 3; m != 0 && m != 3 {
		return faultf("MGBufCBMFire %02b is reserved (L728: 00 buffer, 11 stream index)", m)
	}
	return nil
}

// endList handles EGEND (23E0h): the list ends; with 00 the engine waits
// for the front and back engines, which the simulator always does.
func (e *Engine) endList(v uint16) error {
	if v&3 > 1 {
		return faultf("EGEND mode %02b is reserved (L4549-4551)", v&3)
	}
	e.asm.reset()
	return nil
}

// endParser handles EGPASEND (23E4h): the parser's list ends.
func (e *Engine) endParser(v uint16) error {
	e.asm.reset()
	return nil
}
