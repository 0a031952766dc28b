package gles

import (
	"fmt"

	"github.com/retrogl/retrogl/driver"
)

// DefaultMemoryBudget returns the host-memory budget a context on drv gets
// when Config.MemoryBudget is 0: the size of the chip's memory, every
// region of its device together (a PSP's 2 MiB of VRAM and 32 MiB of main
// RAM give 34 MiB). Buffer and texture data must reach that memory to be
// drawn, so an application that keeps more than the chip holds has no
// use for it.
func DefaultMemoryBudget(drv driver.Driver) int64 {
	var n int64
	for _, r := range drv.Device().Info().Regions {
		n += int64(r.Size)
	}
	return n
}

// MemoryUse returns how many bytes of the budget ctx uses and its budget
// (Config.MemoryBudget, or DefaultMemoryBudget; negative when unbounded).
func MemoryUse(ctx *Context) (used, budget int64) { return ctx.memUsed, ctx.memBudget }

// The budget counts what an application makes the context keep: buffer
// stores, texture levels and palettes, shader sources, and objectCost for
// every name reserved or object created (so that GenBuffers(1<<40), or a
// billion BindTexture calls on new names, runs out of budget rather than
// out of process memory). A draw's transient memory is bounded by its
// vertex count (see maxDrawVertices). A call that would go over the
// budget records OUT_OF_MEMORY and changes nothing: GL ES leaves the state
// undefined after OUT_OF_MEMORY (ES 1.1 and 2.0 §2.5), retrogl keeps it
// as it was.
const objectCost = 256

// fits reports whether grow more bytes fit the budget; when they do not
// it records OUT_OF_MEMORY for fn, naming what needed them.
func (c *Context) fits(fn string, grow int64, what string) bool {
	if grow <= 0 || c.memBudget < 0 || c.memUsed+grow <= c.memBudget && c.memUsed+grow >= c.memUsed {
		return true
	}
	c.record(fn, OUT_OF_MEMORY, "%s needs %d bytes; %d of the context's %d-byte budget are in use (gles.Config.MemoryBudget)",
		what, grow, c.memUsed, c.memBudget)
	return false
}

// charge adds delta bytes (negative to release) to the budget's use.
func (c *Context) charge(delta int64) { c.memUsed += delta }

// objectsCost returns the budget n objects take, saturating.
func objectsCost(n int) int64 {
	if n > 1<<40 {
		return 1 << 62
	}
	return int64(n) * objectCost
}

// newKey returns the key a driver knows a texture's or renderbuffer's
// storage by: its GL name while no other storage holds that key, else an
// unused number. A deleted object can live on while a framebuffer holds
// it, and its name can be taken again meanwhile: keys keep the two
// objects' device storage apart (a driver caches storage by key and
// generation).
func (c *Context) newKey(name uint32) uint32 {
	if c.keys == nil {
		c.keys = map[uint32]bool{}
	}
	k := name
	for c.keys[k] || k == 0 {
		c.nextKey++
		k = c.nextKey | 1<<31
	}
	c.keys[k] = true
	return k
}

// dropKey frees a key whose storage the driver released.
func (c *Context) dropKey(k uint32) { delete(c.keys, k) }

// maxErrors bounds the errors Err keeps between calls; later ones are
// counted.
const maxErrors = 1000

// errorsDropped is the error Err adds for errors it did not keep.
func errorsDropped(n int) error {
	return fmt.Errorf("%d more errors not kept (at most %d between calls to Err)", n, maxErrors)
}
