// Package unichrome simulates the VIA UniChrome Pro II 3D engine: the
// command regulator (headers, transmission settings, the parameter FIFO
// window, vertex streaming under the Command B mask, list end and fire),
// the status registers, primitive assembly with the vertex-cycle settings,
// triangle, line and point set-up and rasterisation, the two texture units
// and their blending stages, fog, and the per-fragment operations (alpha
// test, stencil, Z/W buffer, blending, dither, ROP, plane masks) writing the
// destination formats into simulated memory. It implements hal.Device
// through sim/device and knows the command set only through hal/unichrome.
//
// Decisions where the seed is silent (guide shared/notes/unichrome.md §7),
// each tested:
//   - Transport: a buffer is a command list of headers 1 and 2 (see
//     hal/unichrome.Walker); its size must be a multiple of 8 bytes, since
//     the CR works on 64-bit units (the "current downer/upper 32-bit
//     command" read registers, L2151-2159). The fence completes at the end
//     of the buffer; HCRFlagNum (01h/AAh) is the value read at 98h, the
//     driver's write-back. Any CR error sets its HRErr bit and faults.
//   - Registers are applied at once; HE3Fire and list end close the list.
//     A primitive is drawn when its last vertex arrives; an incomplete one
//     at a list end is dropped. Components absent from the vertex mask read
//     0 (W reads 1).
//   - Rasterisation: X and Y snap to 28.4 fixed point, rounding to nearest
//     (sub-pixel precision 4 bits; positions are clamped to +-4096 pixels);
//     HPixGC = 0 samples pixel centres at (x+.5, y+.5), HPixGC = 1 at
//     (x, y). Triangles use the top-left fill rule of sim/raster. The clip
//     rectangle (70h/71h) is top/left inclusive, bottom/right exclusive.
//   - Attributes are plane equations in float64 over the snapped positions,
//     evaluated at each span's first pixel and stepped per pixel; colours
//     round to nearest. S and T are perspective-corrected through W when
//     HenTXPP is set, otherwise linear.
//   - Lines are drawn along the major axis at pixel centres (Bresenham-like;
//     the first pixel is drawn, the last only with HLLastP), points cover
//     the pixel that contains them.
//   - Depth: Z / 2^HZNF is clamped to [0, 1) and stored as floor(Z * 2^N)
//     for Z16, Z24 and Z32 (HZONEasFF/HZOONEasFF then change nothing);
//     comparisons are on the stored integers.
//   - 8-bit arithmetic: products (a*b + 127)/255, rounded symmetrically for
//     negative values; a blend factor of FFh bypasses the multiply (L2425);
//     Inv(x) = 255 - x; x - 0.5 = x - 128; unclamped results wrap modulo
//     256. Colours quantise to 16-bit formats by truncation, after a 4x4
//     Bayer dither when HenDT is set.
package unichrome

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/retrogl/retrogl/hal"
	uc "github.com/retrogl/retrogl/hal/unichrome"
	"github.com/retrogl/retrogl/sim/device"
	"github.com/retrogl/retrogl/sim/raster"
)

// Memory map of the simulated CX700 board: local frame-buffer memory
// carved from system RAM (64 MB) and system memory for command buffers
// (32 MB). The chip takes 32-bit addresses; the location fields (local,
// system, AGP) are recorded but every address is a device address.
const (
	VRAMBase = 0x10000000
	VRAMSize = 64 << 20
	SysBase  = 0x40000000
	SysSize  = 32 << 20
)

// Engine is the 3D engine's state: register files, palettes, the CR walker
// and the primitive assembler. It is exported for tests and tools that look
// inside the chip.
type Engine struct {
	mem *device.Memory
	w   *uc.Walker

	attr   [256]uint32
	tex    [2][256]uint32
	texGen [256]uint32
	preCR  [256]uint32
	auto   [256]uint32
	mmio   [uc.MMIOWindow / 4]uint32

	texPal  [256][4]uint8 // RGBA, decoded from ARGB8888
	fogPal  [256]uint8
	stipple [32]uint32

	errReg     uint32
	cmdA, cmdB uint32

	dirty bool
	pipe  *pipeline

	asm assembler
	cur vertex
	x   *device.Exec

	// Stats counts primitives and fragments, for tests and benchmarks.
	Stats Stats

	// batch holds the set-up triangles waiting to be shaded by sched.
	batch batch
	sched raster.Scheduler
	// reference selects the per-pixel reference path (tests).
	reference bool
}

// Stats are the engine's counters.
type Stats struct {
	Prims, Culled, Fragments, Written int
}

// Device is the simulated UniChrome as a hal.Device, with the engine
// exposed.
type Device struct {
	*device.Device
	Engine *Engine
}

// New returns a simulated UniChrome Pro II device.
func New() *Device { return NewBudget(0) }

// NewBudget returns a device whose watchdog allows budget units per
// submission (0: device.DefaultBudget). A dword costs 1, a vertex 8, a
// primitive 1 plus 1 per 256 pixels of its clipped bounding box.
func NewBudget(budget int64) *Device {
	e := &Engine{w: uc.NewWalker(), dirty: true}
	d := device.New(device.Config{Budget: budget, Work: "one per dword, eight per vertex, one per 256 pixels of a triangle's bounding box", Info: hal.Info{
		Chip: "unichrome", Revision: "UniChrome Pro II (CX700, simulated)", WordSize: 4,
		Regions: []hal.Region{{Name: "vram", Base: VRAMBase, Size: VRAMSize}, {Name: "sys", Base: SysBase, Size: SysSize}},
	}}, e)
	e.mem = d.Memory()
	return &Device{Device: d, Engine: e}
}

// SetWorkers implements hal.Parallel: the number of goroutines that shade
// a batch's row bands (n <= 0: one per CPU). The bytes written do not
// depend on it.
func (d *Device) SetWorkers(n int) { d.Engine.sched.SetWorkers(n) }

// Reset implements device.Engine: after a fault the CR and the assembler
// return to their idle state; the register files survive.
func (e *Engine) Reset() {
	e.w.Reset()
	e.asm = assembler{}
	e.dirty = true
	e.batch.prims = e.batch.prims[:0]
	for i := range e.batch.workers {
		e.batch.workers[i].stats = Stats{} // a batch a panic interrupted
	}
}

// Attr returns the data of a type 01h register.
func (e *Engine) Attr(sub uint8) uint32 { return e.attr[sub] }

// Tex returns the data of a type 02h register of texture n.
func (e *Engine) Tex(n int, sub uint8) uint32 { return e.tex[n&1][sub] }

// ReadReg returns a read-mode register of the 3D engine (offset relative to
// MMIO 400h, L1997-2302). Offsets 74h-9Fh "flush the AGP control circuit"
// on hardware; here they return the documented current values.
func (e *Engine) ReadReg(off uint32) uint32 {
	switch {
	case off == uc.ReadEngSt:
		// Reads happen between submissions: the engine is idle and the
		// command queue empty.
		return uc.EngStIdleResult
	case off == uc.ReadErr:
		return e.errReg
	case off == uc.ReadEnable:
		return e.attr[uc.AttrEnable]
	case off == uc.ReadCmdA:
		return e.cmdA
	case off == uc.ReadCmdB:
		return e.cmdB
	case off == uc.ReadFlagNum:
		return e.attr[uc.AttrFlagNum] & 0xFFFF
	case off >= uc.ReadPType10 && off < uc.ReadPTypeFE:
		subs := []uint8{0x00, 0x10, 0x60, 0x61, 0x62, 0x63, 0x64}
		if i := int(off-uc.ReadPType10) / 4; i < len(subs) {
			return e.preCR[subs[i]]
		}
	case off >= uc.ReadPTypeFE && off < uc.ReadRegsSize:
		subs := []uint8{0x00, 0x04, 0x05, 0x08, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x20}
		if i := int(off-uc.ReadPTypeFE) / 4; i < len(subs) {
			return e.auto[subs[i]]
		}
	}
	return 0
}

// Run implements device.Engine: it executes one command list. Triangles
// wait in a batch until a register, palette or MMIO write, a line or a
// point, or the end of the buffer, and are then shaded by sim/raster's
// Scheduler in row bands; the batch is shaded whatever the outcome.
func (e *Engine) Run(x *device.Exec) error {
	err := e.run(x)
	e.flush()
	return err
}

func (e *Engine) run(x *device.Exec) error {
	b := x.Buffer()
	if b.Size%8 != 0 {
		return x.Fault(b.Addr, 0, fmt.Sprintf("buffer size %d is not a multiple of 8 bytes (the CR fetches 64-bit units)", b.Size))
	}
	data, ok := e.mem.Slice(b.Addr, b.Size)
	if !ok {
		return x.Fault(b.Addr, 0, fmt.Sprintf("buffer %#x+%d lies outside device memory", b.Addr, b.Size))
	}
	// Every buffer is a new command list: the CR starts expecting a header.
	e.w.Reset()
	e.x = x
	// data is b.Size bytes (Slice's length), a multiple of 8.
	for off := 0; off+4 <= len(data); off += 4 {
		addr := b.Addr + uint32(off)
		x.Pos = addr
		if err := x.Step(1); err != nil {
			return x.Fault(addr, 0, err.Error())
		}
		w := binary.LittleEndian.Uint32(data[off : off+4])
		if c, idx, last, ok := e.w.VertexData(w); ok {
			// Vertex data, the bulk of a stream, without a Token (one
			// is made for a fault).
			e.cur.set(c, w)
			if last {
				if err := e.vertexStep(x, addr, w); err != nil {
					return err
				}
				if err := e.vertexTake(); err != nil {
					t := uc.Token{Kind: uc.TokVertex, Word: w, Space: uc.SpaceCmd, Comp: c, Index: idx, Data: w, Last: true}
					return e.fault(x, addr, t, err.Error())
				}
			}
			continue
		}
		t := e.w.Next(w)
		if err := e.exec(x, addr, t); err != nil {
			return err
		}
	}
	if t, ok := e.w.End(); !ok {
		e.errReg |= t.ErrBit
		return x.Fault(b.Addr+b.Size, 0, t.Reason)
	}
	return nil
}

// fault records a draw-time fault on the token's word.
func (e *Engine) fault(x *device.Exec, addr uint32, t uc.Token, reason string) *hal.Fault {
	f := x.Fault(addr, uint64(t.Word), reason)
	f.Decoded = uc.Describe(t)
	return f
}

func (e *Engine) exec(x *device.Exec, addr uint32, t uc.Token) error {
	switch t.Kind {
	case uc.TokError:
		e.errReg |= t.ErrBit
		return x.Fault(addr, uint64(t.Word), t.Reason)
	case uc.TokParam:
		e.flush()
		e.param(t)
	case uc.TokPalette:
		e.flush()
		e.palette(t)
	case uc.TokMMIO:
		e.flush()
		e.mmio[t.Off/4] = t.Data
	case uc.TokCmdB:
		e.cmdB = t.Word
	case uc.TokCmdA:
		e.cmdA = t.Word
		if t.ListStart {
			if err := e.startList(); err != nil {
				return e.fault(x, addr, t, err.Error())
			}
		}
		if t.ListEnd {
			e.asm.open = false
		}
	case uc.TokVertex:
		e.cur.set(t.Comp, t.Data)
		if t.Last {
			return e.vertexComplete(x, addr, t)
		}
	}
	return nil
}

// vertexComplete takes the vertex whose last dword is t.
func (e *Engine) vertexComplete(x *device.Exec, addr uint32, t uc.Token) error {
	if err := e.vertexStep(x, addr, t.Word); err != nil {
		return err
	}
	if err := e.vertexTake(); err != nil {
		return e.fault(x, addr, t, err.Error())
	}
	return nil
}

// vertexStep charges a completed vertex to the budget (a vertex costs
// more than a dword).
func (e *Engine) vertexStep(x *device.Exec, addr, word uint32) error {
	if err := x.Step(8); err != nil {
		e.cur = vertex{}
		return x.Fault(addr, uint64(word), err.Error())
	}
	return nil
}

// vertexTake hands the current vertex to the assembler, which copies it
// before anything else can read e.cur, and clears it.
func (e *Engine) vertexTake() error {
	err := e.vertexDone(&e.cur)
	e.cur = vertex{}
	return err
}

func (e *Engine) param(t uc.Token) {
	d := t.Data
	switch t.Space {
	case uc.SpaceAttr:
		sa := t.SubAddr
		if sa == uc.AttrEnableAlias {
			sa = uc.AttrEnable
		}
		e.attr[sa] = d
	case uc.SpaceTex:
		e.tex[t.SubType&1][t.SubAddr] = d
	case uc.SpaceTexGen:
		e.texGen[t.SubAddr] = d
	case uc.SpacePreCR:
		e.preCR[t.SubAddr] = d
		if t.SubAddr == uc.AttrAGPCmd && d&(1<<22) != 0 {
			e.errReg = 0 // HCmdErrClr
		}
	case uc.SpaceAuto:
		e.auto[t.SubAddr] = d
	}
	e.dirty = true
}

func (e *Engine) palette(t uc.Token) {
	i, d := t.Index, t.Data
	switch t.SubType {
	case uc.SubTexPalette:
		e.texPal[i] = [4]uint8{uint8(d >> 16), uint8(d >> 8), uint8(d), uint8(d >> 24)}
	case uc.SubFogPalette:
		for k := 0; k < 4; k++ {
			e.fogPal[4*i+k] = uint8(d >> (8 * k))
		}
	default:
		e.stipple[i] = d
	}
	e.dirty = true
}

// vertex is one streamed vertex.
type vertex struct {
	x, y, z, w float32
	cd, cs     uint32 // ARGB; Cs = fog<<24 | specular RGB
	s, t       [2]float32
	hasW       bool
}

func f32(d uint32) float32 { return math.Float32frombits(d) }

func (v *vertex) set(c uc.Comp, d uint32) {
	switch c {
	case uc.CompX:
		v.x = f32(d)
	case uc.CompY:
		v.y = f32(d)
	case uc.CompZ:
		v.z = f32(d)
	case uc.CompW:
		v.w = f32(d)
		v.hasW = true
	case uc.CompCd:
		v.cd = d
	case uc.CompCs:
		v.cs = d
	case uc.CompS0:
		v.s[0] = f32(d)
	case uc.CompT0:
		v.t[0] = f32(d)
	case uc.CompS1:
		v.s[1] = f32(d)
	case uc.CompT1:
		v.t[1] = f32(d)
	}
}
