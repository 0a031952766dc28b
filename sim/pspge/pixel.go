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

// Blend factor codes of ALPHA (guide §2.12 [OUT]).
const (
	bfOther = iota // A: DST_COLOR, B: SRC_COLOR
	bfInvOther
	bfSrcA
	bfInvSrcA
	bfDstA
	bfInvDstA
	bfDblSrcA
	bfInvDblSrcA
	bfDblDstA
	bfInvDblDstA
	bfFix
)

// target is the pixel pipeline of one PRIM: the render state decoded once
// from the registers, in the order the GE applies it ([OUT] PPSSPP
// DrawPixel.cpp, checked against pspautotests' dither, blend and stencil
// captures):
//
//	depth range → alpha test → fog → colour test → stencil and depth test →
//	blend → dither → clamp → logic op → write masks → framebuffer format.
//
// The framebuffer's alpha bits are the stencil: a fragment's alpha never
// reaches memory; without the stencil test the old stencil is kept
// (pspautotests gpu/dither: an alpha-255 triangle leaves alpha 0 in an
// 8888 buffer). Clear mode writes the vertex alpha as stencil instead.
type target struct {
	clip    raster.Rect
	fb      []byte // colour buffer from row clip.Y0
	stride  int    // pixels
	psm     int
	bpp     int
	zb      []byte
	zStride int
	// fbAddr and zAddr are the device addresses of fb and zb.
	fbAddr, zAddr uint64

	clear                            bool
	clearColor, clearStencil, clearZ bool

	depthRange bool
	zmin, zmax int32

	alphaTest  bool
	afunc      uint32
	aref       int32
	amask      int32
	fog        bool
	fogColor   [3]int32
	colorTest  bool
	cfunc      uint32
	cref, cmsk uint32

	stencil             bool
	sfunc               uint32
	sref, smask         int32
	sfail, zfail, zpass uint32
	ztest, zwrite       bool
	zfunc               uint32
	blend               bool
	bsrc, bdst, bop     uint32
	sfix, dfix          [3]int32
	dither              bool
	dith                [16]int32
	srcOver             bool // blend is SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD
	logic               bool
	lop                 uint32
	writeMask           uint32 // in the framebuffer's own format; 1 = protected
	simple              bool   // nothing but depth test/write and a plain colour write
	// needZ is set when anything reads the fragment depth (tests, writes,
	// the depth range, clear mode's depth flag).
	needZ bool
	// stencilConst is the stencil the simple path writes (with
	// hasStencilConst), as a word's alpha byte.
	stencilConst uint32
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

func dither(g *GE, x, y int) int32 {
	row := g.regs[ge.DTH0+ge.Op(y)]
	return int32(int8(uint8(row>>(4*uint(x))&15)<<4)) >> 4
}

// target resolves the framebuffer, the depth buffer and the pixel state
// for a draw, and checks that the rows the scissor allows lie in memory.
func (g *GE) target(x *device.Exec, pc, w uint32, through bool) (*target, error) {
	t := &g.tgt
	*t = target{clip: g.scissor()}
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
	t.fb, t.fbAddr = fb, uint64(fbAddr)
	clear := g.regs[ge.CLEAR]
	t.clear = clear&1 != 0
	nz, fz := int32(g.regs[ge.NEARZ]&0xFFFF), int32(g.regs[ge.FARZ]&0xFFFF)
	t.zmin, t.zmax = min(nz, fz), max(nz, fz)
	// [OUT] PPSSPP: the depth range test applies in transform mode only
	// (and cannot fail over the whole 16-bit range).
	t.depthRange = !through && (t.zmin > 0 || t.zmax < 0xFFFF)
	t.dither = g.regs[ge.DTE]&1 != 0
	if t.dither {
		for i := 0; i < 16; i++ {
			t.dith[i] = dither(g, i&3, i>>2)
		}
	}
	// Write masks (PMSKC/PMSKA, 1 = protected), converted to the
	// framebuffer format by the same truncation as colours.
	mask8 := g.regs[ge.PMSKC]&0xFFFFFF | (g.regs[ge.PMSKA]&0xFF)<<24
	t.writeMask = pack(t.psm, mask8)
	if t.clear {
		t.clearColor, t.clearStencil, t.clearZ = clear&0x100 != 0, clear&0x200 != 0, clear&0x400 != 0
	} else {
		t.ztest = g.regs[ge.ZTE]&1 != 0
		t.zwrite = t.ztest && g.regs[ge.ZMSK]&1 == 0
		t.zfunc = g.regs[ge.ZTST] & 7
		if !t.ztest {
			t.zfunc = 1
		}
		if g.regs[ge.ATE]&1 != 0 {
			a := g.regs[ge.ATST]
			t.afunc, t.aref, t.amask = a&7, int32(a>>8&0xFF), int32(a>>16&0xFF)
			t.alphaTest = t.afunc != 1
		}
		if g.regs[ge.FGE]&1 != 0 && !through {
			t.fog = true
			fc := g.regs[ge.FCOL]
			t.fogColor = [3]int32{int32(fc & 0xFF), int32(fc >> 8 & 0xFF), int32(fc >> 16 & 0xFF)}
		}
		if g.regs[ge.CTE]&1 != 0 {
			t.colorTest = true
			t.cfunc = g.regs[ge.CTST] & 3
			t.cmsk = g.regs[ge.CMSK] & 0xFFFFFF
			t.cref = g.regs[ge.CREF] & t.cmsk
		}
		if g.regs[ge.STE]&1 != 0 {
			s := g.regs[ge.STST]
			t.stencil = true
			t.sfunc, t.sref, t.smask = s&7, int32(s>>8&0xFF), int32(s>>16&0xFF)
			op := g.regs[ge.SOP]
			t.sfail, t.zfail, t.zpass = op&7, op>>8&7, op>>16&7
		}
		if g.regs[ge.ABE]&1 != 0 {
			a := g.regs[ge.ALPHA]
			t.blend = true
			t.bsrc, t.bdst, t.bop = a&15, a>>4&15, a>>8&7
			sf, df := g.regs[ge.SFIX], g.regs[ge.DFIX]
			t.sfix = [3]int32{int32(sf & 0xFF), int32(sf >> 8 & 0xFF), int32(sf >> 16 & 0xFF)}
			t.dfix = [3]int32{int32(df & 0xFF), int32(df >> 8 & 0xFF), int32(df >> 16 & 0xFF)}
			t.srcOver = t.bsrc == bfSrcA && t.bdst == bfInvSrcA && t.bop == 0
		}
		if g.regs[ge.LOE]&1 != 0 {
			t.logic = true
			t.lop = g.regs[ge.LOP] & 15
		}
		// The stencil unit writing a constant (ALWAYS, zpass REPLACE, zfail
		// KEEP) is how drivers store a constant alpha; it stays simple.
		constStencil := t.stencil && t.sfunc == 1 && t.zpass == 2 && (t.zfail == 0 || !t.ztest)
		if constStencil {
			t.stencilConst = uint32(t.sref) << 24
		}
		t.simple = !t.alphaTest && !t.fog && !t.colorTest && (!t.stencil || constStencil) && !t.blend && !t.dither && !t.logic &&
			t.writeMask == 0
	}
	t.needZ = t.ztest || t.zwrite || t.clearZ || t.depthRange
	if t.ztest || t.zwrite || t.clearZ {
		if t.zStride == 0 {
			return nil, x.Fault(pc, uint64(w), "depth buffer width (ZBW) is zero")
		}
		zAddr := uint32(VRAMBase) + g.regs[ge.ZBP]&0x1FFFF0 + uint32(t.clip.Y0*t.zStride*2)
		// Rows narrower than the drawing rectangle (ZBW < its right edge)
		// overlap, as linear addressing makes them; the last one still
		// reaches the rectangle's right edge.
		zb, ok := g.mem.Slice(zAddr, uint32(((rows-1)*t.zStride+max(t.zStride, t.clip.X1))*2))
		if !ok {
			return nil, x.Fault(pc, uint64(w), fmt.Sprintf("depth buffer rows %d..%d at %#08x outside VRAM", t.clip.Y0, t.clip.Y1-1, zAddr))
		}
		t.zb, t.zAddr = zb, uint64(zAddr)
	}
	return t, nil
}

// compare applies a GE comparison (seed L852-863 codes) as "a OP b".
func compare(f uint32, a, b int32) bool {
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

// pack converts an RGBA8 word (R in the low byte, A = stencil) to the
// framebuffer format by truncation.
func pack(psm int, c uint32) uint32 {
	r, g, b, a := c&0xFF, c>>8&0xFF, c>>16&0xFF, c>>24
	switch psm {
	case psm5650:
		return r>>3 | g>>2<<5 | b>>3<<11
	case psm5551:
		return r>>3 | g>>3<<5 | b>>3<<10 | a>>7<<15
	case psm4444:
		return r>>4 | g>>4<<4 | b>>4<<8 | a>>4<<12
	}
	return c
}

// unpack widens a stored pixel to RGBA8 by bit replication; 5650 reads
// alpha (and stencil) 0 ([OUT] PPSSPP GetPixelColor/GetPixelStencil).
func unpack(psm int, v uint32) uint32 {
	switch psm {
	case psm5650:
		return rgba5650(v)
	case psm5551:
		return rgba5551(v)
	case psm4444:
		return rgba4444(v)
	}
	return v
}

// stencilOp applies a stencil operation on the 8-bit view of the stencil;
// INCR and DECR step by the format's stencil unit ([OUT] PPSSPP
// ApplyStencilOp: 4444 in steps of 0x10, 5551 sets 0xFF or 0).
func (t *target) stencilOp(op uint32, old int32) int32 {
	switch op {
	case 0:
		return old
	case 1:
		return 0
	case 2:
		return t.sref
	case 3:
		return ^old & 0xFF
	case 4:
		switch t.psm {
		case psm8888:
			return min(old+1, 255)
		case psm5551:
			return 255
		case psm4444:
			if old < 0xF0 {
				return old + 0x10
			}
		}
		return old
	case 5:
		switch t.psm {
		case psm8888:
			return max(old-1, 0)
		case psm5551:
			return 0
		case psm4444:
			if old >= 0x10 {
				return old - 0x10
			}
		}
		return old
	}
	return old
}

// blendFactor returns a blend factor for one channel. other is the
// destination colour for A and the source colour for B.
func blendFactor(code uint32, other, sa, da, fix int32) int32 {
	switch code {
	case bfOther:
		return other
	case bfInvOther:
		return 255 - other
	case bfSrcA:
		return sa
	case bfInvSrcA:
		return 255 - sa
	case bfDstA:
		return da
	case bfInvDstA:
		return 255 - da
	case bfDblSrcA:
		return 2 * sa
	case bfInvDblSrcA:
		return 255 - 2*sa
	case bfDblDstA:
		return 2 * da
	case bfInvDblDstA:
		return 255 - 2*da
	}
	return fix
}

// blendTerm is colour x factor with the GE's half-offset rounding:
// ((2c+1)(2|f|+1)) >> 10, negative for the doubled inverse factors that go
// below zero ([OUT] PPSSPP AlphaBlendingResult, probe exp116).
func blendTerm(c, f int32) int32 {
	if f < 0 {
		return -((2*c + 1) * (-2*f + 1) >> 10)
	}
	return (2*c + 1) * (2*f + 1) >> 10
}

func (t *target) blendColor(src [4]int32, dst uint32) [3]int32 {
	d := [3]int32{int32(dst & 0xFF), int32(dst >> 8 & 0xFF), int32(dst >> 16 & 0xFF)}
	if t.srcOver {
		// SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD: the usual "over".
		fa, fd := 2*src[3]+1, 2*(255-src[3])+1
		return [3]int32{
			(2*src[0]+1)*fa>>10 + (2*d[0]+1)*fd>>10,
			(2*src[1]+1)*fa>>10 + (2*d[1]+1)*fd>>10,
			(2*src[2]+1)*fa>>10 + (2*d[2]+1)*fd>>10,
		}
	}
	da := int32(dst >> 24)
	var out [3]int32
	for k := 0; k < 3; k++ {
		switch t.bop {
		case 3:
			out[k] = min(src[k], d[k])
			continue
		case 4:
			out[k] = max(src[k], d[k])
			continue
		case 5:
			out[k] = max(src[k]-d[k], d[k]-src[k])
			continue
		}
		s := blendTerm(src[k], blendFactor(t.bsrc, d[k], src[3], da, t.sfix[k]))
		dd := blendTerm(d[k], blendFactor(t.bdst, src[k], src[3], da, t.dfix[k]))
		switch t.bop {
		case 1:
			out[k] = s - dd
		case 2:
			out[k] = dd - s
		case 0:
			out[k] = s + dd
		default: // 6, 7: the source colour
			out[k] = src[k]
		}
	}
	return out
}

// logicOp applies LOP to the RGB bits of src and dst (RGBA8 words); the
// stencil byte of src is kept ([OUT] PPSSPP ApplyLogicOp).
func logicOp(op, s, d uint32) uint32 {
	var r uint32
	switch op {
	case 0:
		r = 0
	case 1:
		r = s & d
	case 2:
		r = s &^ d
	case 3:
		r = s
	case 4:
		r = ^s & d
	case 5:
		r = d
	case 6:
		r = s ^ d
	case 7:
		r = s | d
	case 8:
		r = ^(s | d)
	case 9:
		r = ^(s ^ d)
	case 10:
		r = ^d
	case 11:
		r = s | ^d
	case 12:
		r = ^s
	case 13:
		r = ^s | d
	case 14:
		r = ^(s & d)
	default:
		r = ^uint32(0)
	}
	return r&0xFFFFFF | s&0xFF000000
}

func clamp255(v int32) uint32 { return uint32(min(max(v, 0), 255)) }

// read and write access one stored pixel of row (relative to clip.Y0).
func (t *target) read(row, x int) uint32 {
	off := (row*t.stride + x) * t.bpp
	if t.bpp == 4 {
		return binary.LittleEndian.Uint32(t.fb[off:])
	}
	return uint32(binary.LittleEndian.Uint16(t.fb[off:]))
}

func (t *target) write(row, x int, v uint32) {
	off := (row*t.stride + x) * t.bpp
	if t.bpp == 4 {
		binary.LittleEndian.PutUint32(t.fb[off:], v)
		return
	}
	binary.LittleEndian.PutUint16(t.fb[off:], uint16(v))
}

// pixel runs one fragment (colour already textured, 0..255 unclamped) at
// (x, y) with depth z and fog factor f (0..255, 255 = no fog) through the
// pipeline.
func (t *target) pixel(x, y int, z int32, f int32, c [4]int32) {
	row := y - t.clip.Y0
	for k := 0; k < 4; k++ {
		c[k] = min(max(c[k], 0), 255)
	}
	if t.depthRange && (z < t.zmin || z > t.zmax) {
		return
	}
	var zp []byte
	if t.zb != nil {
		zp = t.zb[(row*t.zStride+x)*2:]
	}
	if t.simple {
		if t.ztest && !compare(t.zfunc, z, int32(binary.LittleEndian.Uint16(zp))) {
			return
		}
		if t.zwrite {
			binary.LittleEndian.PutUint16(zp, uint16(z))
		}
		var newc uint32
		if t.stencil {
			newc = uint32(c[0]) | uint32(c[1])<<8 | uint32(c[2])<<16 | t.stencilConst
		} else {
			newc = uint32(c[0]) | uint32(c[1])<<8 | uint32(c[2])<<16 | unpack(t.psm, t.read(row, x))&0xFF000000
		}
		if t.psm == psm8888 {
			t.write(row, x, newc)
		} else {
			t.write(row, x, pack(t.psm, newc))
		}
		return
	}
	if t.clear {
		t.clearPixel(row, x, z, c)
		return
	}
	if t.alphaTest {
		a := c[3]
		if t.amask != 0xFF {
			a &= t.amask
		}
		if !compare(t.afunc, a, t.aref) {
			return
		}
	}
	if t.fog {
		for k := 0; k < 3; k++ {
			c[k] = (c[k]*f + t.fogColor[k]*(255-f) + 255) / 256
		}
	}
	if t.colorTest && t.cfunc != 1 {
		rgb := (uint32(c[0]) | uint32(c[1])<<8 | uint32(c[2])<<16) & t.cmsk
		switch t.cfunc {
		case 0:
			return
		case 2:
			if rgb != t.cref {
				return
			}
		case 3:
			if rgb == t.cref {
				return
			}
		}
	}
	oldRaw := t.read(row, x)
	old := unpack(t.psm, oldRaw)
	stencil := int32(old >> 24)
	if t.psm == psm5650 {
		stencil = 0
	}
	if t.stencil {
		sv := stencil
		ref := t.sref
		if t.smask != 0xFF {
			sv &= t.smask
			ref &= t.smask
		}
		if !compare(t.sfunc, ref, sv) {
			t.writeStencil(row, x, oldRaw, t.stencilOp(t.sfail, stencil))
			return
		}
		if t.zfunc != 1 && !compare(t.zfunc, z, int32(binary.LittleEndian.Uint16(zp))) {
			t.writeStencil(row, x, oldRaw, t.stencilOp(t.zfail, stencil))
			return
		}
		stencil = t.stencilOp(t.zpass, stencil)
	} else if t.zfunc != 1 && !compare(t.zfunc, z, int32(binary.LittleEndian.Uint16(zp))) {
		return
	}
	if t.zwrite {
		binary.LittleEndian.PutUint16(zp, uint16(z))
	}
	var rgb [3]int32
	if t.blend {
		rgb = t.blendColor(c, old)
	} else {
		rgb = [3]int32{c[0], c[1], c[2]}
	}
	if t.dither {
		d := t.dith[(y&3)*4+x&3]
		for k := 0; k < 3; k++ {
			rgb[k] += d
		}
	}
	newc := clamp255(rgb[0]) | clamp255(rgb[1])<<8 | clamp255(rgb[2])<<16 | uint32(stencil)<<24
	if t.logic {
		newc = logicOp(t.lop, newc, old)
	}
	v := pack(t.psm, newc)
	if t.writeMask != 0 {
		v = v&^t.writeMask | oldRaw&t.writeMask
	}
	t.write(row, x, v)
}

// writeStencil stores only the stencil bits of a pixel (a failed stencil
// or depth test), honouring the PMSKA protection.
func (t *target) writeStencil(row, x int, oldRaw uint32, s int32) {
	var bits uint32
	switch t.psm {
	case psm5650:
		return
	case psm5551:
		bits = 0x8000
	case psm4444:
		bits = 0xF000
	default:
		bits = 0xFF000000
	}
	bits &^= t.writeMask
	v := pack(t.psm, uint32(s)<<24)
	t.write(row, x, oldRaw&^bits|v&bits)
}

// clearPixel is clear mode ([OUT] pspsdk sceGuClear, PPSSPP DrawPixel):
// the vertex colour and alpha (as stencil) and depth are written directly
// under the CLEAR flags. Dithering still applies (pspautotests gpu/dither
// "Clear mode"); PMSKC/PMSKA do not ([OUT] PPSSPP ConvertMaskState: clear
// mode masks come from the CLEAR flags alone).
func (t *target) clearPixel(row, x int, z int32, c [4]int32) {
	if t.clearZ {
		binary.LittleEndian.PutUint16(t.zb[(row*t.zStride+x)*2:], uint16(z))
	}
	if !t.clearColor && !t.clearStencil {
		return
	}
	rgb := [3]int32{c[0], c[1], c[2]}
	if t.dither {
		d := t.dith[((row+t.clip.Y0)&3)*4+x&3]
		for k := 0; k < 3; k++ {
			rgb[k] += d
		}
	}
	newc := clamp255(rgb[0]) | clamp255(rgb[1])<<8 | clamp255(rgb[2])<<16 | uint32(c[3])<<24
	oldRaw := t.read(row, x)
	v := pack(t.psm, newc)
	var keep uint32
	full := uint32(0xFFFFFFFF)
	if t.bpp == 2 {
		full = 0xFFFF
	}
	alpha := pack(t.psm, 0xFF000000)
	if !t.clearColor {
		keep |= full &^ alpha
	}
	if !t.clearStencil {
		keep |= alpha
	}
	t.write(row, x, v&^keep|oldRaw&keep)
}
