// Package hal is the device contract of retrogl: what a kernel driver and a
// bus give a userspace driver. A Device owns memory regions with an
// allocator, accepts command buffers that live in its own memory, executes
// them asynchronously and reports completion through fences. A malformed
// stream never panics or hangs the process: it stops that buffer and comes
// back from Wait as a *Fault naming the offset, the word and the reason, and
// the device stays usable (reset semantics).
//
// How each chip's submission maps onto the contract (the chip's hal package
// and driver doc say more):
//
//   - pspge (PSP GE): the buffer is a display list in RAM; Buffer.Addr is its
//     start and Addr+Size the stall address. The GE runs until END; a FINISH
//     before it raises the finish callback, and the fence completes at that
//     END (sceGeListSync). The driver keeps one list running per context and
//     appends to it with Appender.Extend, moving the stall address.
//   - pica200 (3DS PICA200): the buffer is a command list of 8-byte commands
//     in FCRAM, executed in whole 0x10-byte units; GPUREG_FINALIZE (0x010)
//     ends it and completes the fence, as the P3D interrupt does;
//     CMDBUF_JUMP chains to another buffer.
//   - glamo3365 (Glamo 3D engine): the buffer is a run of 16-bit
//     register/value pairs and bursts fed to the 3D command queue. The
//     driver ends each buffer with a write of its sequence number to
//     software register A (2170h); after the device fence it reads that
//     register and EGSTATUSA back (hal/glamo.RegReader, the MMIO read path)
//     to confirm the engine is idle with the queue empty.
//   - unichrome (UniChrome Pro II): the buffer is an AGP command list of
//     HParaType-headed dwords whose last Command A carries HPLEND and
//     HE3Fire, padded to 64 bits. The driver ends it with a write of the
//     buffer's flag number (HCRFlagNum, read register 98h) so a stalled
//     engine shows which buffer it was in; the fence completes when the
//     command regulator has consumed the list.
//   - r300 (Radeon R3xx): the buffer is an indirect buffer of PM4 packets,
//     ending at Addr+Size with the colour and Z cache flushes; the fence
//     completes when the CP has consumed the last dword, where a real ring
//     would write a scratch register (hal/r300 also defines a
//     simulator-only SIM_FENCE packet that writes a value to memory).
//
// Capture wraps any Device and records every memory write, submission, wait
// and read-back to a file; Replay runs such a file on a fresh device with no
// driver and checks that every read-back returns the recorded bytes.
package hal

import (
	"errors"
	"fmt"
)

// Region describes one contiguous range of device memory, as on the board.
type Region struct {
	// Name is the region's name ("vram", "ram", "fcram"), used by Alloc.
	Name string
	// Base is the device address of the first byte.
	Base uint32
	// Size is the region's length in bytes.
	Size uint32
}

// Contains reports whether [addr, addr+n) lies inside the region.
func (r Region) Contains(addr, n uint32) bool {
	if addr < r.Base {
		return false
	}
	off := uint64(addr - r.Base)
	return off+uint64(n) <= uint64(r.Size)
}

// Info describes a device: its chip, revision and memory map.
type Info struct {
	// Chip is the backend name of the chip ("pspge", "r300", ...).
	Chip string
	// Revision is a free-form revision string.
	Revision string
	// Regions lists the memory regions in address order.
	Regions []Region
	// WordSize is the size in bytes of the command stream's unit (2 for the
	// Glamo queue, 4 for GE, UniChrome and PM4 words, 8 for PICA commands).
	WordSize int
}

// Region returns the region with the given name.
func (i Info) Region(name string) (Region, bool) {
	for _, r := range i.Regions {
		if r.Name == name {
			return r, true
		}
	}
	return Region{}, false
}

// Allocation is a block of device memory returned by Alloc.
type Allocation struct {
	// Addr is the device address of the first byte.
	Addr uint32
	// Size is the block's length in bytes.
	Size uint32
	// Region is the name of the region the block lies in.
	Region string
}

// End returns the address one past the block.
func (a Allocation) End() uint32 { return a.Addr + a.Size }

// Buffer names a command buffer held in device memory.
type Buffer struct {
	// Addr is the device address of the first command.
	Addr uint32
	// Size is the number of bytes the command processor may consume.
	Size uint32
}

// Fence identifies a submission. Fences increase by one per Submit; the zero
// fence is never returned and is always complete.
type Fence uint64

// Memory is the device-memory half of the contract.
type Memory interface {
	// Alloc reserves size bytes aligned to align (a power of two) in the named
	// region. It fails with an error wrapping ErrOutOfMemory when the region
	// has no such block free.
	Alloc(size, align uint32, region string) (Allocation, error)
	// Free returns a block to its region.
	Free(a Allocation) error
	// Write copies p into device memory at addr.
	Write(addr uint32, p []byte) error
	// Read copies device memory at addr into p.
	Read(addr uint32, p []byte) error
}

// Device is a GPU as the userspace driver sees it.
type Device interface {
	Memory
	// Info describes the chip and its memory map.
	Info() Info
	// Submit hands a command buffer to the command processor and returns at
	// once; the chip runs it on its own goroutine.
	Submit(b Buffer) (Fence, error)
	// Wait blocks until the submission f (and every earlier one) is done. It
	// returns the *Fault that stopped submission f, if any.
	Wait(f Fence) error
	// Close stops the device after the submitted work is done.
	Close() error
}

// Appender is implemented by devices whose command processor can keep
// executing a buffer while the CPU appends to it (the PSP GE stall address).
type Appender interface {
	// Extend moves the end of the running submission f to Addr+size.
	Extend(f Fence, size uint32) error
}

// Parallel is implemented by simulated devices that share pixel work among
// goroutines (sim/raster.Scheduler). SetWorkers fixes how many: n <= 0
// means one per CPU the process may use. The bytes a device writes never
// depend on it; only its speed does.
type Parallel interface {
	SetWorkers(n int)
}

// ErrOutOfMemory is wrapped by Alloc errors when a region is full.
var ErrOutOfMemory = errors.New("out of device memory")

// ErrBadAddress is wrapped by Read and Write errors for ranges outside every
// region.
var ErrBadAddress = errors.New("address outside device memory")

// ErrClosed is returned by a closed device.
var ErrClosed = errors.New("device closed")

// Fault is a device fault: the command processor stopped a buffer. It names
// where (Offset from the start of the buffer and the device address), what
// (the word there, WordSize bytes, and its decoded text when the chip's
// decoder could read it) and why.
type Fault struct {
	// Chip is the backend name.
	Chip string
	// Fence is the submission that faulted.
	Fence Fence
	// Offset is the byte offset of the faulting word from Buffer.Addr.
	Offset uint32
	// Addr is the device address of the faulting word.
	Addr uint32
	// Word is the faulting command word (low WordSize bytes are meaningful).
	Word uint64
	// WordSize is the size of Word in bytes.
	WordSize int
	// Decoded is the decoder's text for the word, if any.
	Decoded string
	// Reason says what went wrong.
	Reason string
}

// Error implements error.
func (f *Fault) Error() string {
	digits := f.WordSize * 2
	if digits == 0 {
		digits = 8
	}
	s := fmt.Sprintf("%s fault at offset %#x (address %#08x), word %#0*x: %s",
		f.Chip, f.Offset, f.Addr, digits+2, f.Word, f.Reason)
	if f.Decoded != "" {
		s += " [" + f.Decoded + "]"
	}
	return s
}

// AsFault returns the *Fault inside err, if any.
func AsFault(err error) (*Fault, bool) {
	var f *Fault
	ok := errors.As(err, &f)
	return f, ok
}
