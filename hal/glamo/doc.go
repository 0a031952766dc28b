// Package glamo is the SMedia Glamo3365 3D engine's register file as data:
// every register of the seed (shared/seeds/000_2d9822cd2c1625e2.txt,
// 1B00h-2EFFh) with its fields, enumerations, seed line and notes; the
// chip's number formats; the command-queue framing with a builder and a
// parser; and the decoder that prints one line per 16-bit word. The driver
// (driver/glamo) and the simulator (sim/glamo) meet here and nowhere else,
// and this package is the only place that knows the queue framing.
//
// # Command queue framing (decision)
//
// The seed defines registers but no command format (guide §2.2). We take the
// guide's proposal §2.3, which follows the sibling Glamo 336x (outside
// evidence: xf86-video-glamo glamo-cmdq.h writes [reg, val] pairs and
// [(1<<15)|reg, n, ...] bursts; Linux glamo-cmdq.c uses 16-bit words and a
// 0,0 NOP):
//
//   - A buffer is a run of little-endian 16-bit words in VRAM; the device
//     consumes it from hal.Buffer.Addr to Addr+Size (the queue pointers).
//   - [reg, value] writes one 16-bit register at byte address reg.
//   - [8000h|reg, n, v0 .. vn-1] writes n consecutive 16-bit registers
//     reg, reg+2, ... (a burst may cross register boundaries).
//   - [0000h, x] is a NOP; a single 0000h word at the very end pads the
//     buffer to a multiple of four bytes.
//   - Registers must lie in 1B00h-2EFFh at even addresses; anything else,
//     a burst running past the buffer or the block, or a lone header at
//     the end is a device fault naming the offset, the word and the reason.
//
// # 32-bit fields
//
// Each register is 16 bits (L409); a 32-bit field is two registers, low half
// at the lower address. The seed gives no latching rule: we decide (guide
// §2.3 item 2) that writing the low half only stores it, and writing the
// high half latches the whole 32-bit value, which is when the engine sees
// it. Builder.Write32 therefore emits the low half first, as one burst.
// 16-bit registers take effect when written.
//
// # Side effects
//
// Only these writes act (Register.Effect): EGFIRE 2058h fires the engine on
// the immediate vertex "a" (RGP* at 1B00h); MGBufCBMFire 203Ch pre-fires;
// MGBufCMSFire 203Eh starts a list in buffer, index or stream-index mode;
// EGEND 23E0h and EGPASEND 23E4h end a primitive list. Writes to the status
// registers are ignored; writes to reserved addresses fault.
//
// # Fences
//
// There are no interrupts. The driver ends each buffer by writing its fence
// sequence number to software register A (2170h) and the device completes
// the fence when the queue is empty and EGSTATUSA reads idle (D[1:0] = 11).
// Devices that let the CPU read registers implement RegReader.
package glamo

// RegReader is implemented by Glamo devices whose registers the CPU can
// read (MMIO): the driver checks EGSTATUSA and the scratch registers after
// a fence. A capture wrapper hides it; the driver then trusts hal fences.
type RegReader interface {
	// ReadReg returns the 16-bit register at byte address addr, as the
	// CPU would read it once the engine has stopped.
	ReadReg(addr uint16) uint16
}
