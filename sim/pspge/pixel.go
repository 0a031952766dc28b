package pspge

import (
	"encoding/binary"
	"fmt"

	ge "github.com/retrogl/retrogl/hal/pspge"
	"github.com/retrogl/retrogl/sim/device"
	"github.com/retrogl/retrogl/sim/raster"
)

// Framebuffer pixel formats (PSM, seed L811-816).
const (
	psm5650 = 0
	psm5551 = 1
	psm4444 = 2
	psm8888 = 3
)

// target is the pixel pipeline's view of the render state, decided once per
// primitive batch rather than per pixel.
type target struct {
	clip    raster.Rect
	fb      []byte // colour buffer from row clip.Y0
	fbRow0  int    // byte offset of (0, clip.Y0) within fb's backing rows
	stride  int    // pixels
	psm     int
	bpp     int
	zb      []byte
	zRow0   int
	zStride int

	clear                      bool
	clearColor, clearA, clearZ bool
	ztest, zwrite              bool
	zfunc                      uint32
	zmin, zmax                 int64
}

// scissor returns the drawing rectangle: SCISSOR1..SCISSOR2 (inclusive)
// within REGION2 (inclusive) and the framebuffer stride.
func (g *GE) scissor() raster.Rect {
	s1, s2 := g.regs[ge.SCISSOR1], g.regs[ge.SCISSOR2]
	r2 := g.regs[ge.REGION2]
	stride := int(g.regs[ge.FBW] & 0x7FC)
	r := raster.Rect{X0: int(s1 & 0x3FF), Y0: int(s1 >> 10 & 0x3FF), X1: int(s2&0x3FF) + 1, Y1: int(s2>>10&0x3FF) + 1}
	return r.Intersect(raster.Rect{X0: 0, Y0: 0, X1: min(int(r2&0x3FF)+1, stride), Y1: int(r2>>10&0x3FF) + 1})
}

// target resolves the framebuffer and depth buffer for a draw and checks
// that the rows the scissor allows lie in memory.
func (g *GE) target(x *device.Exec, pc, w uint32) (*target, error) {
	t := &target{clip: g.scissor()}
	t.psm = int(g.regs[ge.PSM] & 3)
	t.bpp = 2
	if t.psm == psm8888 {
		t.bpp = 4
	}
	t.stride = int(g.regs[ge.FBW] & 0x7FC)
	t.zStride = int(g.regs[ge.ZBW] & 0x7FC)
	if t.clip.Empty() {
		return t, nil
	}
	rows := t.clip.Y1 - t.clip.Y0
	fbAddr := uint32(VRAMBase) + g.regs[ge.FBP]&0x1FFFF0 + uint32(t.clip.Y0*t.stride*t.bpp)
	fb, ok := g.mem.Slice(fbAddr, uint32(rows*t.stride*t.bpp))
	if !ok {
		return nil, x.Fault(pc, uint64(w), fmt.Sprintf("colour buffer rows %d..%d at %#08x outside VRAM", t.clip.Y0, t.clip.Y1-1, fbAddr))
	}
	t.fb = fb
	clear := g.regs[ge.CLEAR]
	t.clear = clear&1 != 0
	if t.clear {
		t.clearColor, t.clearA, t.clearZ = clear&0x100 != 0, clear&0x200 != 0, clear&0x400 != 0
	} else {
		t.ztest = g.regs[ge.ZTE]&1 != 0
		t.zwrite = t.ztest && g.regs[ge.ZMSK]&1 == 0
		t.zfunc = g.regs[ge.ZTST] & 7
	}
	nz, fz := int64(g.regs[ge.NEARZ]&0xFFFF), int64(g.regs[ge.FARZ]&0xFFFF)
	t.zmin, t.zmax = min(nz, fz), max(nz, fz)
	if t.ztest || t.zwrite || t.clearZ {
		if t.zStride == 0 {
			return nil, x.Fault(pc, uint64(w), "depth buffer width (ZBW) is zero")
		}
		zAddr := uint32(VRAMBase) + g.regs[ge.ZBP]&0x1FFFF0 + uint32(t.clip.Y0*t.zStride*2)
		zb, ok := g.mem.Slice(zAddr, uint32(rows*t.zStride*2))
		if !ok {
			return nil, x.Fault(pc, uint64(w), fmt.Sprintf("depth buffer rows %d..%d at %#08x outside VRAM", t.clip.Y0, t.clip.Y1-1, zAddr))
		}
		t.zb = zb
	}
	return t, nil
}

// compare applies a GE comparison (seed L852-863 codes) as "a OP b".
func compare(f uint32, a, b int64) bool {
	switch f {
	case 0:
		return false
	case 1:
		return true
	case 2:
		return a == b
	case 3:
		return a != b
	case 4:
		return a < b
	case 5:
		return a <= b
	case 6:
		return a > b
	}
	return a >= b
}

// pixel runs one fragment through the pipeline: clear mode, depth range,
// depth test, colour write, depth write.
func (t *target) pixel(x, y int, z int64, c [4]int64) {
	row := y - t.clip.Y0
	var zp []byte
	if t.zb != nil {
		zp = t.zb[(row*t.zStride+x)*2:]
	}
	if t.clear {
		if t.clearColor || t.clearA {
			t.writeColor(row, x, c, t.clearColor, t.clearA)
		}
		if t.clearZ {
			binary.LittleEndian.PutUint16(zp, uint16(z))
		}
		return
	}
	if z < t.zmin || z > t.zmax {
		return
	}
	if t.ztest && !compare(t.zfunc, z, int64(binary.LittleEndian.Uint16(zp))) {
		return
	}
	t.writeColor(row, x, c, true, true)
	if t.zwrite {
		binary.LittleEndian.PutUint16(zp, uint16(z))
	}
}

// writeColor packs c into the framebuffer format by truncation, writing RGB
// and/or the alpha (stencil) bits.
func (t *target) writeColor(row, x int, c [4]int64, rgb, alpha bool) {
	off := (row*t.stride + x) * t.bpp
	if t.psm == psm8888 {
		p := t.fb[off : off+4]
		if rgb {
			p[0], p[1], p[2] = byte(c[0]), byte(c[1]), byte(c[2])
		}
		if alpha {
			p[3] = byte(c[3])
		}
		return
	}
	old := binary.LittleEndian.Uint16(t.fb[off:])
	v, mask := pack16(t.psm, c)
	var keep uint16
	if !rgb {
		keep |= ^mask
	}
	if !alpha {
		keep |= mask
	}
	binary.LittleEndian.PutUint16(t.fb[off:], old&keep|v&^keep)
}

// pack16 packs a colour into a 16-bit format (R in the low bits) by
// truncation and returns the alpha bits' mask.
func pack16(psm int, c [4]int64) (v, alphaMask uint16) {
	r, g, b, a := uint16(c[0]), uint16(c[1]), uint16(c[2]), uint16(c[3])
	switch psm {
	case psm5650:
		return r>>3 | g>>2<<5 | b>>3<<11, 0
	case psm5551:
		return r>>3 | g>>3<<5 | b>>3<<10 | a>>7<<15, 0x8000
	}
	return r>>4 | g>>4<<4 | b>>4<<8 | a>>4<<12, 0xF000
}
