package gles

import (
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

// MemoryUse returns how many bytes of buffer and texture data ctx holds
// and its budget (Config.MemoryBudget, or DefaultMemoryBudget; negative
// when unbounded).
func MemoryUse(ctx *Context) (used, budget int64) { return ctx.memUsed, ctx.memBudget }
