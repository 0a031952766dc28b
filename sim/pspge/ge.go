// Package pspge simulates the PSP Graphics Engine: the display-list
// processor, vertex decoding, hardware transform, rasterisation and the
// pixel pipeline, writing the GE's framebuffer formats into simulated VRAM.
// It implements hal.Device through sim/device and knows the command set
// only through hal/pspge.
//
// Decisions where the seed is silent (guide shared/notes/pspge.md §5), each
// tested:
//   - CALL pushes PC+4 and OFFSET on a 32-entry stack; a 33rd CALL and a RET
//     on an empty stack are device faults (the guide proposes silent
//     NOPs; a fault makes the driver bug visible).
//   - END stops the list; a FINISH before it records its argument as the
//     finish callback; a SIGNAL before it records the signal and, for the
//     jump/call/ret behaviours, continues at SIGNAL.arg<<16 | END.arg.
//   - The stall address is Buffer.Addr+Size: the GE stops when PC reaches
//     it until the CPU extends the buffer (hal.Appender) or waits on it.
//   - Undefined opcodes are NOPs, or faults in Strict mode.
//   - Rasterisation uses 12.4 fixed-point screen positions (rounded to
//     nearest), the top-left rule at pixel centres (sim/raster), Gouraud
//     colour and Z interpolated linearly in screen space with exact integer
//     arithmetic, rounding to nearest; texture coordinates perspective-
//     correctly; flat shading takes the last vertex (prim.go).
//   - Culling keeps counter-clockwise triangles (y-down screen) with FFACE 0
//     and clockwise ones with FFACE 1; sprites and clear mode are never
//     culled (pspautotests gpu/commands/cull; the seed's order is
//     inverted).
//   - The pixel pipeline runs in PPSSPP's order with the GE's integer
//     rounding (pixel.go): depth range (transform mode only), alpha test,
//     fog, colour test, stencil and depth, blend ((2c+1)(2f+1)>>10 terms),
//     dither (also on 8888 and in clear mode), clamp, logic op, write masks,
//     truncation to 16-bit formats. The framebuffer's alpha bits are the
//     stencil: fragment alpha is never stored (pspautotests gpu/dither).
//   - Textures, CLUTs, DXT, filtering, LOD and the texture functions follow
//     texture.go; lighting and texture-coordinate generation vertex.go;
//     Bezier and spline patches patch.go; BBOX, CLOAD and block transfers
//     transfer.go.
//   - Depth is written only when the depth test is enabled and ZMSK bit 0
//     is clear.
package pspge

import (
	"encoding/binary"
	"fmt"

	"github.com/retrogl/retrogl/hal"
	ge "github.com/retrogl/retrogl/hal/pspge"
	"github.com/retrogl/retrogl/sim/device"
	"github.com/retrogl/retrogl/sim/raster"
)

// Memory map of the simulated PSP (the PSP-1000's 2 MB of VRAM and 32 MB of
// main RAM).
const (
	VRAMBase = 0x04000000
	VRAMSize = 2 << 20
	RAMBase  = 0x08000000
	RAMSize  = 32 << 20
)

const stackDepth = 32

type frame struct{ pc, offset uint32 }

// GE is the engine state: the register file, matrices, call stack and
// counters. It is exported for tests and tools that look inside the chip.
type GE struct {
	mem *device.Memory
	// Strict makes undefined opcodes fault instead of acting as NOP.
	Strict bool

	regs   [256]uint32
	base   uint32 // BASE << 8: address bits 24-27
	offset uint32
	stack  [stackDepth]frame
	sp     int

	vaddr, iaddr uint32

	world, view, tmat [12]float32
	proj              [16]float32
	bones             [96]float32
	worldN, viewN     int
	projN, tmatN      int
	boneN             int
	bboxVisible       bool

	finishPending bool
	finishArg     uint32
	signalPending bool
	signalArg     uint32

	clut [1024]byte

	// Batching and the span pipeline (batch.go, span.go); refPath makes
	// tests draw pixel by pixel through the reference path instead.
	sched raster.Scheduler
	bat   batch
	// spreadBuf backs sampler.spread.
	spreadBuf []uint64
	nworkers  workers
	refPath   bool

	// Per-PRIM scratch state, reused to avoid allocation.
	tgt      target
	smp      sampler
	drw      draw
	idxBuf   []int
	vtxBuf   []vertex
	lastPrim int

	// Finishes and Signals record the callback arguments raised, in order.
	Finishes []uint16
	Signals  []uint16
	// Prims counts primitives drawn, for tests and benchmarks.
	Prims int
	// spanDraws counts the draws that took the span pipeline (tests).
	spanDraws int
}

// New returns a simulated PSP GE device with the default watchdog budget.
func New() *Device { return NewWithBudget(0) }

// NewWithBudget returns a simulated GE whose watchdog stops a list after
// budget commands (0 means device.DefaultBudget); fuzz tests use a small one.
func NewWithBudget(budget int64) *Device {
	g := &GE{bboxVisible: true}
	d := device.New(device.Config{Budget: budget, Work: "one per command word, one per 256 pixels drawn", Info: hal.Info{
		Chip: "pspge", Revision: "PSP-1000 GE (simulated)", WordSize: 4,
		Regions: []hal.Region{{Name: "vram", Base: VRAMBase, Size: VRAMSize}, {Name: "ram", Base: RAMBase, Size: RAMSize}},
	}}, g)
	g.mem = d.Memory()
	return &Device{Device: d, GE: g}
}

// Device is the simulated GE as a hal.Device, with the engine exposed.
type Device struct {
	*device.Device
	GE *GE
}

// Reset implements device.Engine: after a fault the call stack and pending
// callbacks are dropped; the register file survives, as on a GE reset that
// keeps state.
func (g *GE) Reset() {
	g.sp = 0
	g.finishPending, g.signalPending = false, false
	g.bboxVisible = true
}

// Reg returns the last argument written to an opcode.
func (g *GE) Reg(op ge.Op) uint32 { return g.regs[op] }

// addr resolves a BASE-relative address (guide §1, PPSSPP's formula).
func (g *GE) addr(arg uint32) uint32 {
	return ((g.base | arg&0xFFFFFF) + g.offset) & 0x0FFFFFFF
}

func (g *GE) read32(a uint32) (uint32, bool) {
	b, ok := g.mem.Slice(a, 4)
	if !ok {
		return 0, false
	}
	return binary.LittleEndian.Uint32(b), true
}

// handler executes one word. It returns the next PC and whether the list
// ended.
type handler func(g *GE, x *device.Exec, pc, w uint32) (next uint32, done bool, err error)

// dispatch is built from handlerRows at init and checked: every row names a
// defined opcode, and no opcode has two handlers.
var dispatch [256]handler

var handlerRows = []struct {
	op ge.Op
	fn handler
}{
	{ge.VADDR, func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		g.vaddr = g.addr(w)
		return pc + 4, false, nil
	}},
	{ge.IADDR, func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		g.iaddr = g.addr(w)
		return pc + 4, false, nil
	}},
	{ge.PRIM, (*GE).prim},
	{ge.BEZIER, (*GE).bezier},
	{ge.SPLINE, (*GE).spline},
	{ge.BBOX, (*GE).bbox},
	{ge.JUMP, func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		return g.branch(x, pc, w)
	}},
	{ge.BJUMP, func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		if !g.bboxVisible {
			return g.branch(x, pc, w)
		}
		return pc + 4, false, nil
	}},
	{ge.CALL, func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		if g.sp >= stackDepth {
			return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("CALL stack overflow (%d levels)", stackDepth))
		}
		next, _, err := g.branch(x, pc, w)
		if err != nil {
			return 0, false, err
		}
		g.stack[g.sp] = frame{pc + 4, g.offset}
		g.sp++
		return next, false, nil
	}},
	{ge.RET, func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		if g.sp == 0 {
			return 0, false, x.Fault(pc, uint64(w), "RET with an empty call stack")
		}
		g.sp--
		f := g.stack[g.sp]
		g.offset = f.offset
		return f.pc, false, nil
	}},
	{ge.END, (*GE).end},
	{ge.SIGNAL, func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		g.signalPending, g.signalArg = true, w&0xFFFFFF
		return pc + 4, false, nil
	}},
	{ge.FINISH, func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		g.finishPending, g.finishArg = true, w&0xFFFF
		return pc + 4, false, nil
	}},
	{ge.BASE, func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		g.base = w << 8 & 0x0F000000
		return pc + 4, false, nil
	}},
	{ge.OFFSETADDR, func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		g.offset = w << 8
		return pc + 4, false, nil
	}},
	{ge.ORIGIN, func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		g.offset = pc
		return pc + 4, false, nil
	}},
	{ge.WMS, matSelect(func(g *GE) *int { return &g.worldN })},
	{ge.VMS, matSelect(func(g *GE) *int { return &g.viewN })},
	{ge.PMS, matSelect(func(g *GE) *int { return &g.projN })},
	{ge.TMS, matSelect(func(g *GE) *int { return &g.tmatN })},
	{ge.BOFS, matSelect(func(g *GE) *int { return &g.boneN })},
	{ge.WORLD, matData(func(g *GE) ([]float32, *int) { return g.world[:], &g.worldN })},
	{ge.VIEW, matData(func(g *GE) ([]float32, *int) { return g.view[:], &g.viewN })},
	{ge.PROJ, matData(func(g *GE) ([]float32, *int) { return g.proj[:], &g.projN })},
	{ge.TMATRIX, matData(func(g *GE) ([]float32, *int) { return g.tmat[:], &g.tmatN })},
	{ge.BONE, matData(func(g *GE) ([]float32, *int) { return g.bones[:], &g.boneN })},
	{ge.CLOAD, (*GE).cload},
	{ge.TRXKICK, (*GE).transfer},
}

func init() {
	for _, r := range handlerRows {
		if ge.Table[r.op] == nil {
			panic(fmt.Sprintf("sim/pspge: handler for undefined opcode %#02x", uint8(r.op)))
		}
		if dispatch[r.op] != nil {
			panic(fmt.Sprintf("sim/pspge: two handlers for %v", r.op))
		}
		dispatch[r.op] = r.fn
	}
}

// branch resolves a JUMP/BJUMP/CALL destination (4-byte aligned) and
// faults at the branch when it lies outside memory.
func (g *GE) branch(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	t := g.addr(w &^ 3)
	if _, ok := g.mem.Slice(t, 4); !ok {
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("branch target %#08x outside device memory", t))
	}
	return t, false, nil
}

func matSelect(n func(*GE) *int) handler {
	return func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		*n(g) = int(w & 0x7F)
		return pc + 4, false, nil
	}
}

// matData stores one float24 and post-increments; writes past the matrix
// are dropped (guide §2.4).
func matData(m func(*GE) ([]float32, *int)) handler {
	return func(g *GE, x *device.Exec, pc, w uint32) (uint32, bool, error) {
		vals, n := m(g)
		if *n < len(vals) {
			vals[*n] = ge.FromF24(w & 0xFFFFFF)
		}
		*n++
		return pc + 4, false, nil
	}
}

func (g *GE) end(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	if g.signalPending {
		g.signalPending = false
		g.Signals = append(g.Signals, uint16(g.signalArg))
		behaviour := g.signalArg >> 16 & 0xFF
		target := (g.signalArg&0xFFFF)<<16 | w&0xFFFF
		switch behaviour {
		case 0x10: // jump
			return target &^ 3, false, nil
		case 0x11: // call
			if g.sp >= stackDepth {
				return 0, false, x.Fault(pc, uint64(w), "SIGNAL call: stack overflow")
			}
			g.stack[g.sp] = frame{pc + 4, g.offset}
			g.sp++
			return target &^ 3, false, nil
		case 0x12: // ret
			if g.sp == 0 {
				return 0, false, x.Fault(pc, uint64(w), "SIGNAL ret: empty call stack")
			}
			g.sp--
			g.offset = g.stack[g.sp].offset
			return g.stack[g.sp].pc, false, nil
		}
		if !g.finishPending {
			return pc + 4, false, nil
		}
	}
	if g.finishPending {
		g.finishPending = false
		g.Finishes = append(g.Finishes, uint16(g.finishArg))
	}
	return pc + 4, true, nil
}

// Run implements device.Engine: it executes the display list from
// Buffer.Addr until END, stalling when PC reaches the stall address.
func (g *GE) Run(x *device.Exec) error {
	pc := x.Buffer().Addr
	end := x.End()
	for {
		if pc == end {
			var ok bool
			if end, ok = x.Stall(pc); !ok {
				x.Pos = pc
				return x.Fault(pc, 0, "list stalled at the stall address without END")
			}
			continue
		}
		x.Pos = pc
		w, ok := g.read32(pc)
		if !ok {
			return x.Fault(pc, 0, "PC outside device memory")
		}
		if err := x.Step(1); err != nil {
			return x.Fault(pc, uint64(w), err.Error())
		}
		op := ge.Op(w >> 24)
		g.regs[op] = w & 0xFFFFFF
		h := dispatch[op]
		if h == nil {
			if g.Strict && ge.Table[op] == nil {
				return x.Fault(pc, uint64(w), fmt.Sprintf("undefined opcode %#02x", uint8(op)))
			}
			pc += 4
			continue
		}
		next, done, err := h(g, x, pc, w)
		if err != nil {
			if f, ok := hal.AsFault(err); ok && f.Decoded == "" {
				f.Decoded = ge.Decode(uint32(f.Word))
			}
			return err
		}
		if done {
			return nil
		}
		pc = next
	}
}
