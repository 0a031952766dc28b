package pspge

import (
	"fmt"

	ge "github.com/retrogl/retrogl/hal/pspge"
	"github.com/retrogl/retrogl/sim/device"
)

// bbox executes BBOX: it transforms count vertices at VADDR and decides
// whether the box they span can be visible; BJUMP jumps when it cannot.
// Decision (the seed is silent, guide §5.11): a box is invisible only when
// every vertex lies on the outer side of the same edge of the drawing
// rectangle (scissor within region), or every vertex lies behind the near
// plane - an outcode test, so a box that surrounds the view stays visible.
// Through-mode or empty boxes are visible. VADDR does not advance.
func (g *GE) bbox(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	count := int(w & 0xFFFF)
	vt := ge.ParseVType(g.regs[ge.VTYPE])
	l := vt.Layout()
	g.bboxVisible = true
	if count == 0 || vt.Pos == ge.FmtNone || vt.Through {
		return pc + 4, false, nil
	}
	vb, ok := g.mem.Slice(g.vaddr, uint32(count*l.Size))
	if !ok {
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("bounding box %#08x+%d outside memory", g.vaddr, count*l.Size))
	}
	clip := g.scissor()
	var t tnl
	g.setupTnL(vt, &t)
	t.lighting, t.fog, t.texMode, t.needNormal = false, false, 0, false
	all := ^uint32(0)
	for i := 0; i < count; i++ {
		var v vertex
		g.decodeVertex(vt, &l, vb[i*l.Size:], &v)
		g.transform(&t, &v)
		var code uint32
		if !inside(&v) {
			code = 1
		} else {
			g.toScreen(&v)
			px, py := int(v.sx>>subBits), int(v.sy>>subBits)
			if px < clip.X0 {
				code |= 2
			}
			if px >= clip.X1 {
				code |= 4
			}
			if py < clip.Y0 {
				code |= 8
			}
			if py >= clip.Y1 {
				code |= 16
			}
		}
		all &= code
	}
	g.bboxVisible = all == 0
	return pc + 4, false, nil
}

// cload copies the CLUT from CBP into the on-chip CLUT: the argument counts
// 32-byte blocks (guide §2.8 [OUT]; the seed's "colors/8" is wrong for
// 16-bit CLUTs).
func (g *GE) cload(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	n := (w & 0x3F) * 32
	src := (g.regs[ge.CBPH]&0x0F0000)<<8 | g.regs[ge.CBP]&0xFFFFF0
	b, ok := g.mem.Slice(src, n)
	if !ok {
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("CLUT %#08x+%d outside memory", src, n))
	}
	copy(g.clut[:], b)
	return pc + 4, false, nil
}

// transfer executes TRXKICK: a raw rectangle copy, 2 or 4 bytes per texel,
// row by row (guide §2.15 [OUT]).
func (g *GE) transfer(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	bpp := uint32(2)
	if w&1 != 0 {
		bpp = 4
	}
	src := g.regs[ge.TRXSBP]&0xFFFFF0 | (g.regs[ge.TRXSBW]&0xFF0000)<<8
	dst := g.regs[ge.TRXDBP]&0xFFFFF0 | (g.regs[ge.TRXDBW]&0xFF0000)<<8
	sw, dw := g.regs[ge.TRXSBW]&0x7F8, g.regs[ge.TRXDBW]&0x7F8
	sx, sy := g.regs[ge.TRXSPOS]&0x3FF, g.regs[ge.TRXSPOS]>>10&0x3FF
	dx, dy := g.regs[ge.TRXDPOS]&0x3FF, g.regs[ge.TRXDPOS]>>10&0x3FF
	tw, th := g.regs[ge.TRXSIZE]&0x3FF+1, g.regs[ge.TRXSIZE]>>10&0x3FF+1
	row := make([]byte, tw*bpp)
	for j := uint32(0); j < th; j++ {
		s, ok := g.mem.Slice(src+((sy+j)*sw+sx)*bpp, tw*bpp)
		if !ok {
			return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("transfer source row %d outside memory", j))
		}
		copy(row, s)
		d, ok := g.mem.Slice(dst+((dy+j)*dw+dx)*bpp, tw*bpp)
		if !ok {
			return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("transfer destination row %d outside memory", j))
		}
		copy(d, row)
	}
	return pc + 4, false, nil
}
