// Package r300 simulates an ATI Radeon R3xx (R300) 3D engine: the PM4
// command processor, the vertex fetcher with the PVS bypass, clipping and
// the viewport transform (VAP), primitive assembly (GA), setup and culling
// (SU), the scan converter with its edge rules, scissor and clip
// rectangles (SC), the rasterizer's interpolators (RS), the fragment shader
// unit executed exactly in FP24 (US), texturing (TX), fog and the alpha
// test (FG), depth and stencil (ZB) and the colour backend (RB3D),
// writing the chip's buffer formats into simulated memory. It implements
// hal.Device through sim/device and knows the chip only through hal/r300.
//
// Decisions where the seed is silent (guide shared/notes/r300.md), each
// tested; the code next to each names its seed line or outside fact:
//   - Packets are PM4 type 0, 2 and 3 ([OUT]); the simulator-only type-3
//     opcode 0xF0 writes a fence value to memory. Writes to undefined
//     registers, type-1 packets, reserved header bits and unknown opcodes
//     are faults.
//   - Vertex programs run as pvs.go describes. In bypass, the k-th output
//     VAP_OUT_VTX_FMT_0/1 enables (position, colours 0-3, point size,
//     texture coordinates 0-7) is input vector k. A board made with
//     Config.NoTCL (an RS400-class IGP) has the bypass only.
//   - Rasterisation walks 2x2 quads (the US computes texture LOD from the
//     quad's coordinates) with pixel centres at (x+0.5, y+0.5) of a y-down
//     screen, in GB_TILE_CONFIG.SUBPIXEL units, and SC_EDGERULE deciding
//     samples exactly on an edge. The shared sim/raster walker has a fixed
//     top-left rule and no quads, so this package has its own.
//   - A sample is drawn only when SC_SCREENDOOR bit 0 and the
//     SC_CLIP_RULE entry of its clip-rectangle flags are set, as the
//     registers say; their reset values (0) draw nothing.
//   - Arithmetic of the US follows hal/r300's FP24 rules; the rest of
//     the pipeline computes in float64 with explicit rounding, so output
//     is the same on every machine.
//   - Tiled (macro/micro) surfaces, anti-aliasing, HiZ, Z and colour
//     compression, user clip planes, the immediate-mode vertex ports,
//     triangle stuffing and stipple and the YUV/MPEG formats are not
//     simulated: a draw that needs one faults naming it.
package r300

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
	"github.com/retrogl/retrogl/sim/device"
	"github.com/retrogl/retrogl/sim/raster"
)

// Memory map of the simulated board: 64 MB of local memory and 32 MB of
// AGP (GART) memory, as an R300 board of 2002 had.
const (
	VRAMBase = 0x10000000
	VRAMSize = 64 << 20
	GARTBase = 0x40000000
	GARTSize = 32 << 20
)

// Stats counts work, for tests and benchmarks.
type Stats struct {
	Packets, Draws, Prims, Quads, Pixels int
}

// Engine is the R300 3D engine: the register file and the pipeline. It is
// exported for tests and tools that look inside the chip.
type Engine struct {
	mem  *device.Memory
	regs [0x8000 / 4]uint32
	// pvs is the PVS vector memory written through VAP_PVS_VECTOR_*:
	// code, constants and user clip planes (hal/r300's map).
	pvs      [r3.PVSMemOctets * 4]uint32
	pvsIndex uint32
	// noTCL is set on boards without the PVS.
	noTCL bool
	// Stats accumulates over the engine's life.
	Stats Stats

	x *device.Exec
	// scratch buffers reused between draws.
	verts []vertex
	// vcache and pvsRegs are fetch's vertex cache and PVS register file,
	// kept between draws.
	vcache  vertexCache
	pvsRegs pvsRegs
	// pvsBatch holds the registers of the vertices fetchPVS shades
	// together, pvsDups the vertices copied from one of them.
	pvsBatch [pvsBatchSize]pvsRegs
	pvsDups  [][2]int
	// vf is fetchPVS's decoded vertex fetch (vfetch.go), vfBuf its
	// vertex dwords.
	vf    vfetch
	vfBuf []uint32
	// batch holds the draw's set-up primitives; sched shades them with
	// wantWorkers workers (hal.Parallel), each with its scratch state in
	// workers.
	batch       batch
	sched       raster.Scheduler
	wantWorkers atomic.Int32
	workers     []worker
	// reference selects the per-quad reference path instead of the span
	// pipeline (tests compare the two).
	reference bool
	// pipes counts the span pipelines compiled (their ids).
	pipes uint64
}

// Device is the simulated R300 as a hal.Device, with the engine exposed.
type Device struct {
	*device.Device
	Engine *Engine
}

// DefaultBudget is the R300's watchdog budget per submission: sixteen
// times device.DefaultBudget, because the R300 charges a unit per 2x2
// quad of a primitive's bounding box where the other chips charge one per
// 64 pixels or more. With the shared default, legal draws on a large
// surface (16 full-screen triangles at 2047x2047) ended in "watchdog
// expired"; sixteen times it puts the R300's pixel work on the same
// footing as the other chips' (a gigapixel of bounding boxes per
// submission).
const DefaultBudget = 16 * device.DefaultBudget

// Config tunes New; the zero value is the default board.
type Config struct {
	// Budget is the watchdog budget per submission (0 = DefaultBudget).
	Budget int64
	// VRAMSize and GARTSize override the memory sizes (0 = default).
	VRAMSize, GARTSize uint32
	// NoTCL makes the board an RS400-class IGP without the PVS
	// (hal/r300 RevisionNoTCL): a draw with PVS_BYPASS clear faults.
	NoTCL bool
}

// RevisionNoTCL is the revision of a board without the PVS.
const RevisionNoTCL = r3.RevisionNoTCL

// New returns a simulated R300 with the default board.
func New() *Device { return NewWith(Config{}) }

// NewWith returns a simulated R300.
func NewWith(cfg Config) *Device {
	vs, gs := uint32(VRAMSize), uint32(GARTSize)
	if cfg.VRAMSize != 0 {
		vs = cfg.VRAMSize
	}
	if cfg.GARTSize != 0 {
		gs = cfg.GARTSize
	}
	e := &Engine{noTCL: cfg.NoTCL}
	rev := r3.RevisionR300
	if cfg.NoTCL {
		rev = r3.RevisionNoTCL
	}
	budget := cfg.Budget
	if budget == 0 {
		budget = DefaultBudget
	}
	d := device.New(device.Config{Budget: budget, Work: "one per packet dword and per vertex, one per 64 PVS instructions, one per 2x2 quad of a primitive's bounding box", Info: hal.Info{
		Chip: "r300", Revision: rev, WordSize: 4,
		Regions: []hal.Region{{Name: "vram", Base: VRAMBase, Size: vs}, {Name: "gart", Base: GARTBase, Size: gs}},
	}}, e)
	e.mem = d.Memory()
	e.Reset()
	return &Device{Device: d, Engine: e}
}

// Reset implements device.Engine: after a fault the command processor
// state is dropped; the register file survives, as on a CP soft reset.
func (e *Engine) Reset() { e.x = nil }

// Reg returns the value last written to the register at addr.
func (e *Engine) Reg(addr uint32) uint32 { return e.regs[r3.Canonical(addr)>>2&0x1FFF] }

func (e *Engine) reg(addr uint32) uint32 { return e.regs[addr>>2] }

// SetReg writes a register as a type-0 packet would, side effects
// included (for tests that build state without a stream).
func (e *Engine) SetReg(addr, v uint32) error { return e.write(addr, v) }

// errFault carries a fault reason out of the pipeline; Run attaches the
// packet's address and word.
type errFault struct{ reason string }

func (e *errFault) Error() string { return e.reason }

func faultf(format string, args ...any) error { return &errFault{fmt.Sprintf(format, args...)} }

// Run implements device.Engine: it executes packets from the buffer start
// to its end.
func (e *Engine) Run(x *device.Exec) error {
	e.x = x
	defer func() { e.x = nil }()
	b := x.Buffer()
	end := x.End()
	if b.Size%4 != 0 {
		return x.Fault(b.Addr+b.Size&^3, 0, fmt.Sprintf("buffer size %d is not a whole number of dwords", b.Size))
	}
	buf, ok := e.mem.Slice(b.Addr, end-b.Addr)
	if !ok {
		return x.Fault(b.Addr, 0, fmt.Sprintf("buffer %#x+%#x lies outside memory", b.Addr, b.Size))
	}
	words := make([]uint32, len(buf)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(buf[4*i:])
	}
	for i := 0; i < len(words); {
		pos := b.Addr + 4*uint32(i)
		x.Pos = pos
		w := words[i]
		if err := x.Step(1); err != nil {
			return e.fault(pos, w, err.Error())
		}
		e.Stats.Packets++
		h := r3.ParseHeader(w)
		var err error
		switch h.Type {
		case 0:
			err = e.type0(h, words, i)
		case 1:
			err = faultf("type-1 packets are not used on R300")
		case 2:
			i++
			continue
		case 3:
			var extra int
			extra, err = e.type3(h, words, i)
			i += extra
		}
		if err != nil {
			var f *errFault
			if errors.As(err, &f) {
				return e.fault(pos, w, f.reason)
			}
			if hf, ok := hal.AsFault(err); ok {
				return hf
			}
			return e.fault(pos, w, err.Error())
		}
		i += 1 + h.Count
	}
	return nil
}

func (e *Engine) fault(pos, w uint32, reason string) error {
	f := e.x.Fault(pos, uint64(w), reason)
	f.Decoded = r3.DecodeHeader(w)
	return f
}

func payload(h r3.Header, words []uint32, i int) ([]uint32, error) {
	if h.Reserved != 0 {
		return nil, faultf("reserved header bits %#x set", h.Reserved)
	}
	if i+1+h.Count > len(words) {
		return nil, faultf("packet announces %d dwords, the buffer holds %d more", h.Count, len(words)-i-1)
	}
	return words[i+1 : i+1+h.Count], nil
}

func (e *Engine) type0(h r3.Header, words []uint32, i int) error {
	p, err := payload(h, words, i)
	if err != nil {
		return err
	}
	if err := e.x.Step(len(p)); err != nil {
		return err
	}
	for k, v := range p {
		a := h.Reg
		if !h.OneReg {
			a += 4 * uint32(k)
		}
		if err := e.write(a, v); err != nil {
			return err
		}
	}
	return nil
}

// write stores a register value and performs its side effects.
func (e *Engine) write(addr, v uint32) error {
	if _, _, ok := r3.Lookup(addr); !ok {
		return faultf("write of %#x to undefined register %#x", v, addr)
	}
	addr = r3.Canonical(addr)
	e.regs[addr>>2] = v
	switch addr {
	case r3.VAP_PVS_VECTOR_INDX_REG:
		e.pvsIndex = (v & 0x7FF) * 4
	case r3.VAP_PVS_VECTOR_DATA_REG, r3.VAP_PVS_VECTOR_DATA_REG + 4:
		e.pvs[e.pvsIndex%uint32(len(e.pvs))] = v
		e.pvsIndex++
	case r3.ZB_ZPASS_ADDR:
		// L2486: writing the address stores ZB_ZPASS_DATA there.
		a := v &^ 3
		b, ok := e.mem.Slice(a, 4)
		if !ok {
			return faultf("ZB_ZPASS_ADDR %#x lies outside memory", a)
		}
		binary.LittleEndian.PutUint32(b, e.reg(r3.ZB_ZPASS_DATA))
	}
	return nil
}

// type3 executes a type-3 packet. It returns the number of dwords it
// consumed beyond its own packet (the INDX_BUFFER that follows an indexed
// draw without inline indices).
func (e *Engine) type3(h r3.Header, words []uint32, i int) (int, error) {
	p, err := payload(h, words, i)
	if err != nil {
		return 0, err
	}
	info, ok := r3.LookupOpcode(h.Op)
	if !ok {
		return 0, faultf("unknown type-3 opcode %#02x", uint8(h.Op))
	}
	if len(p) < info.MinDwords {
		return 0, faultf("%s needs at least %d dwords, has %d", info.Name, info.MinDwords, len(p))
	}
	if err := e.x.Step(len(p)); err != nil {
		return 0, err
	}
	switch h.Op {
	case r3.OpDrawVbuf2, r3.OpDrawImmd2, r3.OpDrawIndx2:
		return e.draw(h.Op, p[0], p[1:], words, i+1+h.Count)
	case r3.OpDrawVbuf, r3.OpDrawImmd, r3.OpDrawIndx:
		// The older forms lead with a VTX_FMT dword, unused on R300.
		if len(p) < 2 {
			return 0, faultf("%s needs VTX_FMT and VF_CNTL", info.Name)
		}
		return e.draw(h.Op, p[1], p[2:], words, i+1+h.Count)
	}
	return 0, e.state3(h.Op, info, p)
}

// state3 executes the type-3 packets that do not draw.
func (e *Engine) state3(op r3.Opcode, info *r3.OpcodeInfo, p []uint32) error {
	switch op {
	case r3.OpNOP:
		return nil
	case r3.OpSimFence:
		b, ok := e.mem.Slice(p[0]&^3, 4)
		if !ok {
			return faultf("SIM_FENCE address %#x lies outside memory", p[0])
		}
		binary.LittleEndian.PutUint32(b, p[1])
		return nil
	case r3.OpLoadVbpntr:
		// The payload is the register image from VAP_VTX_NUM_ARRAYS on
		// (guide §1, derived from L2122-2137).
		n := int(p[0] & 31)
		want := 1 + n/2*3 + n%2*2
		if len(p) != want {
			return faultf("3D_LOAD_VBPNTR with %d arrays needs %d dwords, has %d", n, want, len(p))
		}
		for k, v := range p {
			if err := e.write(r3.VAP_VTX_NUM_ARRAYS+4*uint32(k), v); err != nil {
				return err
			}
		}
		return nil
	case r3.OpClearHiz:
		// HiZ only rejects work early; without it in the simulator the
		// clear has no visible effect (guide §2.10 [PROP]).
		return nil
	case r3.OpClearZmask, r3.OpClearCmask:
		return faultf("%s: Z and colour compression are not simulated", info.Name)
	case r3.OpIndxBuffer:
		return faultf("INDX_BUFFER must follow a 3D_DRAW_INDX_2 without inline indices")
	}
	return faultf("opcode %s is not simulated", info.Name)
}
