// Package pica simulates the PICA200 (Nintendo 3DS GPU): the command
// processor, the geometry pipeline and vertex shader unit, the rasteriser,
// texture units 0-2, the six texture combiners, fog and the per-fragment
// operations, writing the chip's tiled colour and depth/stencil formats into
// simulated VRAM. It implements hal.Device through sim/device and knows the
// register file only through hal/pica.
//
// Command processor decisions (guide shared/notes/pica200.md §1 and §6), each
// tested:
//   - A buffer executes in whole 0x10-byte units: floor(size/16)*16 bytes
//     (§6.1; L36-L40). Reaching the end without FINALIZE is a fault ("the
//     GPU would hang"), as is a command that runs past the end.
//   - Every write goes through the byte mask; mask 0 changes nothing, even
//     for FIFO ports and triggers. Triggers act on a non-zero masked value,
//     FINALIZE on any write with a non-zero mask.
//   - IDs 0x300 and above fault.
//   - CMDBUF_JUMPn continues in buffer n (ADDRn<<3, SIZEn<<3 bytes, again
//     rounded down to 0x10); the rest of the current buffer is dropped
//     ([OUT] citra).
//   - FIFO ports share one write pointer per port family, reset by the
//     INDEX write; a partial uniform vector is dropped on an INDEX write.
//   - Caches are transparent: FLUSH and INVALIDATE change nothing.
//   - START_DRAW_FUNC0 and GEOSTAGE_CONFIG2 are recorded but do not gate
//     anything (the hazards of §6.14 are not modelled).
package pica

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/retrogl/retrogl/hal"
	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/sim/device"
	"github.com/retrogl/retrogl/sim/raster"
)

// Memory map of the simulated 3DS (physical addresses of the original
// model's 6 MB of VRAM and 128 MB of FCRAM).
const (
	VRAMBase  = 0x18000000
	VRAMSize  = 6 << 20
	FCRAMBase = 0x20000000
	FCRAMSize = 128 << 20
)

// GPU is the engine state: the register file, shader units, lookup tables
// and counters. It is exported for tests and tools that look inside.
type GPU struct {
	mem  *device.Memory
	regs [p.NumRegs]uint32

	vs, gs Shader
	// Upload pointers of the FIFO ports.
	vsFloatBuf, gsFloatBuf []uint32
	vsCodeIdx, gsCodeIdx   int
	vsDescIdx, gsDescIdx   int
	fixedBuf               []uint32
	fixed                  [12]vec4
	immediate              []vec4
	fogLUT                 [128]uint32
	lightLUT               [24][256]uint32
	procLUT                [8][256]uint32

	// Primitive assembly state (kept across draws for immediate mode).
	asm    assembler
	vcache vertexCache
	vsRegs vsRegs
	vseq   []int32
	vbatch [vsBatch]vertex

	x    *device.Exec
	unit Unit

	// Pixel work: the decoded pixel state (nil after a write that may
	// change it), the batch of set-up triangles and the scheduler.
	psCache      *pixelState
	batch        batch
	sched        raster.Scheduler
	clipA, clipB []vertex
	// reference selects the per-pixel reference path and the vertex
	// shader interpreter for every vertex (tests).
	reference bool

	// ShaderLimit bounds the instructions of one vertex-shader run (0 means
	// MaxSteps); fuzzing lowers it.
	ShaderLimit int
	// Pixels and Triangles count rasterised work, for tests and benchmarks.
	Pixels    int64
	Triangles int64
	Vertices  int64
	// Finalized counts FINALIZE writes executed.
	Finalized int
}

// Device is the simulated PICA200 as a hal.Device, with the engine exposed.
type Device struct {
	*device.Device
	GPU *GPU
}

// New returns a simulated PICA200 device.
func New() *Device { return NewWithBudget(0) }

// NewWithBudget returns a device whose watchdog allows budget commands per
// submission (0 means device.DefaultBudget).
func NewWithBudget(budget int64) *Device {
	g := &GPU{}
	d := device.New(device.Config{Budget: budget, Work: "one per command and per vertex, one per 16 shader instructions, one per 64 pixels of a triangle's bounding box", Info: hal.Info{
		Chip: p.Chip, Revision: "PICA200 (simulated, original 3DS memory map)", WordSize: 8,
		Regions: []hal.Region{{Name: "vram", Base: VRAMBase, Size: VRAMSize}, {Name: "fcram", Base: FCRAMBase, Size: FCRAMSize}},
	}}, g)
	g.mem = d.Memory()
	return &Device{Device: d, GPU: g}
}

// SetWorkers implements hal.Parallel: the number of goroutines that shade
// a batch's row bands (n <= 0: one per CPU). The bytes written do not
// depend on it.
func (d *Device) SetWorkers(n int) { d.GPU.sched.SetWorkers(n) }

// Reg returns the current value of a register.
func (g *GPU) Reg(r p.Reg) uint32 { return g.regs[r] }

// Reset implements device.Engine: after a fault the FIFO pointers and the
// partial immediate-mode vertex are dropped; registers and shader memory
// survive.
func (g *GPU) Reset() {
	g.vsFloatBuf, g.gsFloatBuf, g.fixedBuf, g.immediate = nil, nil, nil, nil
	g.asm.reset()
	g.batch.prims = g.batch.prims[:0]
	for i := range g.batch.workers {
		g.batch.workers[i].pixels = 0 // a batch a panic interrupted
	}
}

// errFinalize ends a buffer.
var errFinalize = errors.New("finalize")

// jump is returned by write for CMDBUF_JUMPn.
type jump struct{ addr, size uint32 }

func (j *jump) Error() string { return "jump" }

// Run implements device.Engine. The triangles still waiting in the batch
// are shaded before it returns, whatever the outcome.
func (g *GPU) Run(x *device.Exec) error {
	err := g.run(x)
	g.flush()
	return err
}

func (g *GPU) run(x *device.Exec) error {
	g.x = x
	b := x.Buffer()
	addr, size := b.Addr, b.Size&^0xF
	for {
		err := g.runBuffer(x, addr, size)
		var j *jump
		switch {
		case err == errFinalize:
			return nil
		case errors.As(err, &j):
			addr, size = j.addr, j.size&^0xF
		default:
			return err
		}
	}
}

func (g *GPU) runBuffer(x *device.Exec, addr, size uint32) error {
	end := uint64(addr) + uint64(size)
	buf, ok := x.Mem.Slice(addr, size)
	if !ok {
		return x.Fault(addr, 0, fmt.Sprintf("command buffer %#08x+%#x lies outside device memory", addr, size))
	}
	for off := uint32(0); uint64(addr)+uint64(off) < end; {
		at := addr + off
		x.Pos = at
		if off+8 > size {
			return x.Fault(at, 0, "command runs past the end of the buffer")
		}
		p0 := binary.LittleEndian.Uint32(buf[off:])
		h := p.Header(binary.LittleEndian.Uint32(buf[off+4:]))
		word := uint64(h)<<32 | uint64(p0)
		n := uint32(4 * h.Words())
		if off+n > size {
			return g.fault(at, word, fmt.Sprintf("command with %d extra parameters runs past the end of the buffer (%d bytes left)", h.Extra(), size-off))
		}
		if err := x.Step(1 + h.Extra()); err != nil {
			return g.fault(at, word, err.Error())
		}
		for k := 0; k <= h.Extra(); k++ {
			v := p0
			if k > 0 {
				v = binary.LittleEndian.Uint32(buf[off+4+4*uint32(k):])
			}
			id := h.Target(k)
			if int(id) >= p.NumRegs {
				return g.fault(at, word, fmt.Sprintf("register ID %#x outside 0x000-0x2FF", uint16(id)))
			}
			if err := g.write(id, h.Mask(), v); err != nil {
				var j *jump
				if err == errFinalize || errors.As(err, &j) {
					return err
				}
				var f *hal.Fault
				if errors.As(err, &f) {
					return err
				}
				return g.fault(at, word, err.Error())
			}
		}
		off += n
	}
	return x.Fault(addr+size, 0, "buffer ended without FINALIZE (the GPU would hang; the last 8 bytes of a buffer whose size is not a multiple of 0x10 are not executed)")
}

func (g *GPU) fault(at uint32, word uint64, reason string) *hal.Fault {
	f := g.x.Fault(at, word, reason)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], word)
	if lines := p.Decode(b[:], at); len(lines) > 0 {
		f.Decoded = lines[0]
	}
	return f
}

// write performs one masked register write and its side effects.
func (g *GPU) write(id p.Reg, mask uint8, v uint32) error {
	if mask == 0 {
		return nil
	}
	if id < p.FIXEDATTRIB_DATA0 || id > p.FIXEDATTRIB_DATA0+2 {
		// Anything but immediate-mode vertex data ends the batch; a
		// write below 0x200 may change the pixel state.
		g.flush()
		if id < 0x200 {
			g.psCache = nil
		}
	}
	old := g.regs[id]
	nv := p.Masked(old, v, mask)
	g.regs[id] = nv
	switch {
	case id == p.FINALIZE:
		g.Finalized++
		return errFinalize
	case id >= p.VSH_BASE && id < p.VSH_BASE+0x30:
		return g.shaderWrite(&g.vs, id-p.VSH_BASE, nv, true)
	case id >= p.GSH_BASE && id < p.GSH_BASE+0x30:
		return g.shaderWrite(&g.gs, id-p.GSH_BASE, nv, false)
	}
	switch id {
	case p.DRAWARRAYS, p.DRAWELEMENTS:
		if nv != 0 {
			return g.draw(id == p.DRAWELEMENTS)
		}
	case p.CMDBUF_JUMP0, p.CMDBUF_JUMP1:
		if nv != 0 {
			ch := p.Reg(id - p.CMDBUF_JUMP0)
			size := (g.regs[p.CMDBUF_SIZE0+ch] & 0x1FFFFF) << 3
			addr := (g.regs[p.CMDBUF_ADDR0+ch] & 0x1FFFFFFF) << 3
			return &jump{addr, size}
		}
	case p.FIXEDATTRIB_INDEX:
		g.fixedBuf = g.fixedBuf[:0]
		g.immediate = g.immediate[:0]
	case p.FIXEDATTRIB_DATA0, p.FIXEDATTRIB_DATA0 + 1, p.FIXEDATTRIB_DATA0 + 2:
		g.fixedBuf = append(g.fixedBuf, nv)
		if len(g.fixedBuf) == 3 {
			vals := p.UnpackF24x4([3]uint32{g.fixedBuf[0], g.fixedBuf[1], g.fixedBuf[2]})
			g.fixedBuf = g.fixedBuf[:0]
			var vec vec4
			for i := range vec {
				vec[i] = p.F24ToFloat(vals[i])
			}
			idx := g.regs[p.FIXEDATTRIB_INDEX] & 0xF
			if idx == 0xF {
				return g.immediateAttr(vec)
			}
			if idx < 12 {
				g.fixed[idx] = vec
				g.regs[p.FIXEDATTRIB_INDEX] = idx + 1
			}
		}
	case p.FOG_LUT_DATA0, p.FOG_LUT_DATA0 + 1, p.FOG_LUT_DATA0 + 2, p.FOG_LUT_DATA0 + 3,
		p.FOG_LUT_DATA0 + 4, p.FOG_LUT_DATA0 + 5, p.FOG_LUT_DATA0 + 6, p.FOG_LUT_DATA0 + 7:
		i := g.regs[p.FOG_LUT_INDEX] & 0x7F
		g.fogLUT[i] = nv
		g.regs[p.FOG_LUT_INDEX] = (i + 1) & 0x7F
	case p.LIGHTING_LUT_DATA0, p.LIGHTING_LUT_DATA0 + 1, p.LIGHTING_LUT_DATA0 + 2, p.LIGHTING_LUT_DATA0 + 3,
		p.LIGHTING_LUT_DATA0 + 4, p.LIGHTING_LUT_DATA0 + 5, p.LIGHTING_LUT_DATA0 + 6, p.LIGHTING_LUT_DATA0 + 7:
		li := g.regs[p.LIGHTING_LUT_INDEX]
		t, i := li>>8&0x1F, li&0xFF
		if t < 24 {
			g.lightLUT[t][i] = nv
		}
		g.regs[p.LIGHTING_LUT_INDEX] = li&^0xFF | (i+1)&0xFF
	case 0x0B0, 0x0B1, 0x0B2, 0x0B3, 0x0B4, 0x0B5, 0x0B6, 0x0B7:
		li := g.regs[0x0AF]
		t, i := li>>8&7, li&0xFF
		g.procLUT[t][i] = nv
		g.regs[0x0AF] = li&^0xFF | (i+1)&0xFF
	case p.RESTART_PRIMITIVE:
		if nv&1 != 0 {
			g.asm.reset()
		}
	}
	return nil
}

// shaderWrite handles the registers of one shader unit (offset off from
// its base). With VSH_COM_MODE bit 0 clear, VS uniform, code and descriptor
// uploads also reach the GS unit (L2920-L2938).
func (g *GPU) shaderWrite(s *Shader, off p.Reg, v uint32, isVS bool) error {
	floatBuf, codeIdx, descIdx := &g.gsFloatBuf, &g.gsCodeIdx, &g.gsDescIdx
	base := p.GSH_BASE
	if isVS {
		floatBuf, codeIdx, descIdx = &g.vsFloatBuf, &g.vsCodeIdx, &g.vsDescIdx
		base = p.VSH_BASE
	}
	mirror := isVS && g.regs[p.VSH_COM_MODE]&1 == 0
	switch {
	case off == p.ShBoolUniform:
		s.Bool = uint16(v)
	case off >= p.ShIntUniform0 && off < p.ShIntUniform0+4:
		i := off - p.ShIntUniform0
		s.Int[i] = [4]uint8{uint8(v), uint8(v >> 8), uint8(v >> 16), uint8(v >> 24)}
	case off == p.ShEntryPoint:
		s.Entry = uint16(v) & (CodeWords - 1)
		s.line = nil
	case off == p.ShFloatIndex:
		*floatBuf = (*floatBuf)[:0]
	case off >= p.ShFloatData0 && off < p.ShFloatData0+p.ShFloatDataCount:
		*floatBuf = append(*floatBuf, v)
		idxReg := &g.regs[base+p.ShFloatIndex]
		f32 := *idxReg>>31 != 0
		need := 3
		if f32 {
			need = 4
		}
		if len(*floatBuf) == need {
			var vec vec4
			b := *floatBuf
			if f32 {
				// W, Z, Y, X order (L3211); the value is converted to
				// float24 by truncating the mantissa.
				for c := 0; c < 4; c++ {
					vec[3-c] = p.F24ToFloat(p.ToF24(math.Float32frombits(b[c])))
				}
			} else {
				vals := p.UnpackF24x4([3]uint32{b[0], b[1], b[2]})
				for c := range vec {
					vec[c] = p.F24ToFloat(vals[c])
				}
			}
			*floatBuf = b[:0]
			i := *idxReg & 0xFF
			if i < NumUniforms {
				s.Float[i] = vec
				if mirror {
					g.gs.Float[i] = vec
				}
			}
			*idxReg = *idxReg&^0xFF | (i+1)&0xFF
		}
		return nil
	case off == p.ShCodeIndex:
		*codeIdx = int(v & 0xFFF)
	case off >= p.ShCodeData0 && off < p.ShCodeData0+p.ShCodeDataCount:
		if *codeIdx < CodeWords {
			s.setCode(*codeIdx, v)
			if mirror {
				g.gs.setCode(*codeIdx, v)
			}
		}
		*codeIdx++
	case off == p.ShOpdescIndex:
		*descIdx = int(v & 0xFFF)
	case off >= p.ShOpdescData0 && off < p.ShOpdescData0+p.ShOpdescDataCount:
		if *descIdx < NumOpdescs {
			s.Opdesc[*descIdx] = v
			s.line = nil
			if mirror {
				g.gs.Opdesc[*descIdx] = v
				g.gs.line = nil
			}
		}
		*descIdx++
	}
	if mirror && (off == p.ShBoolUniform || (off >= p.ShIntUniform0 && off < p.ShIntUniform0+4)) {
		return g.shaderWrite(&g.gs, off, v, false)
	}
	return nil
}
