package r300

import (
	"encoding/binary"
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// fgState is the fog and alpha-test unit (L505-549).
type fgState struct {
	fog         bool
	fogFn       uint32
	fogColor    [3]float64
	fogFactor   float64
	fogScale    float64
	fogOffset   float64
	alphaTest   bool
	alphaFunc   uint32
	alphaRef    uint32
	dither      bool
	depthFromUS bool
}

func (e *Engine) prepareFG(s *drawState) error {
	f := &s.fg
	fb := e.reg(r3.FG_FOG_BLEND)
	f.fog, f.fogFn = fb&1 != 0, fb>>1&3
	if f.fog {
		for i := range f.fogColor {
			f.fogColor[i] = float64(e.reg(r3.FG_FOG_COLOR_R+4*uint32(i))&0x3FF) / 1023
		}
		// [PROP] "(0.9) fixed" (L534) reads as value/1023.
		f.fogFactor = float64(e.reg(r3.FG_FOG_FACTOR)&0x3FF) / 1023
		f.fogScale = f32reg(e.reg(r3.GA_FOG_SCALE))
		f.fogOffset = f32reg(e.reg(r3.GA_FOG_OFFSET))
		if s.fogSel < 4 {
			if !s.out.col[s.fogSel] {
				return faultf("GB_SELECT.FOG_SELECT C%dA: colour %d is not a VAP output", s.fogSel, s.fogSel)
			}
			s.rs.fog = s.rs.attr(attrRef{slot: int(s.fogSel), comp: 3})
		}
	}
	af := e.reg(r3.FG_ALPHA_FUNC)
	f.alphaRef, f.alphaFunc, f.alphaTest = af&0xFF, af>>8&7, af>>11&1 != 0
	f.dither = af>>20&1 != 0
	if af>>16&1 != 0 {
		return faultf("FG_ALPHA_FUNC.AM_EN: alpha to mask needs anti-aliasing, not simulated")
	}
	f.depthFromUS = e.reg(r3.FG_DEPTH_SRC)&1 != 0
	if f.depthFromUS {
		wf := e.reg(r3.US_W_FMT)
		switch {
		case wf>>2&1 != 0:
			f.depthFromUS = false // W_SRC: from the rasterizer
		case wf&3 == 2:
			return faultf("US_W_FMT W24_FP is not simulated")
		case wf&3 == 3:
			return faultf("US_W_FMT 3 is reserved")
		}
	}
	return nil
}

// zbState is the depth and stencil unit (L2369-2520).
type zbState struct {
	active                       bool
	zTest, zWrite, stencil       bool
	frontBack                    bool
	zFunc                        uint32
	sFunc, sFail, sZPass, sZFail [2]uint32 // front, back
	ref, mask, wmask             uint32
	z24                          bool
	mem                          []byte
	base                         uint32
	pitch                        int
	wFmt                         uint32
}

func (e *Engine) prepareZB(s *drawState) error {
	z := &s.zb
	c := e.reg(r3.ZB_CNTL)
	z.stencil, z.zTest, z.zWrite = c&1 != 0, c&2 != 0, c&4 != 0
	z.frontBack = c>>4&1 != 0
	if c>>3&1 != 0 {
		return faultf("ZB_CNTL.ZSIGNED_COMPARE (W-buffering) is not simulated")
	}
	z.active = z.zTest || z.stencil
	sc := e.reg(r3.ZB_ZSTENCILCNTL)
	z.zFunc = sc & 7
	z.sFunc = [2]uint32{sc >> 3 & 7, sc >> 15 & 7}
	z.sFail = [2]uint32{sc >> 6 & 7, sc >> 18 & 7}
	z.sZPass = [2]uint32{sc >> 9 & 7, sc >> 21 & 7}
	z.sZFail = [2]uint32{sc >> 12 & 7, sc >> 24 & 7}
	rm := e.reg(r3.ZB_STENCILREFMASK)
	z.ref, z.mask, z.wmask = rm&0xFF, rm>>8&0xFF, rm>>16&0xFF
	z.wFmt = e.reg(r3.US_W_FMT) & 3
	if !z.active {
		return nil
	}
	switch f := e.reg(r3.ZB_FORMAT) & 15; f {
	case 0:
	case 2:
		z.z24 = true
	case 1:
		return faultf("ZB_FORMAT Z16 13E3 (compressed float depth) is not simulated")
	default:
		return faultf("ZB_FORMAT DEPTHFORMAT %d is reserved", f)
	}
	p := e.reg(r3.ZB_DEPTHPITCH)
	if p>>16&7 != 0 || p>>19&3 != 0 {
		return faultf("ZB_DEPTHPITCH: tiled or byte-swapped depth buffers are not simulated")
	}
	z.pitch = int(p & 0x3FFC)
	z.base = e.reg(r3.ZB_DEPTHOFFSET) &^ 31
	var ok bool
	if z.mem, ok = e.regionFrom(z.base); !ok {
		return faultf("ZB_DEPTHOFFSET %#x lies outside memory", z.base)
	}
	return nil
}

// regionFrom returns memory from addr to the end of its region.
func (e *Engine) regionFrom(addr uint32) ([]byte, bool) {
	for _, r := range e.mem.Regions() {
		if r.Contains(addr, 1) {
			return e.mem.Slice(addr, r.Base+r.Size-addr)
		}
	}
	return nil, false
}

// cbBuffer is one colour buffer.
type cbBuffer struct {
	mem    []byte
	base   uint32
	pitch  int
	format uint32
	bpp    int
	// slots maps the format's components (from the LSB) to RGBA
	// channels through US_OUT_FMT's C0-C3_SEL; -1 for no channel.
	slots [4]int
	bits  [4]uint
	float bool
	// simple: 8 bits in each of four slots, every channel mapped once.
	simple bool
	// modes is the dither mode of each slot (RB3D_DITHER_CTL's RGB or
	// alpha mode, by the channel the slot holds).
	modes [4]uint32
}

// cbState is the colour backend (L42-501).
type cbState struct {
	targets               [4]int // buffer per shader target, -1 unused
	used                  []int  // the targets that are not unused
	multi                 int    // NUM_MULTIWRITES: target A goes to buffers 0..multi
	buf                   [4]cbBuffer
	outFmt                [4]uint32
	blend, sepAlpha, read bool
	discard               uint32
	comb, src, dst        uint32
	acomb, asrc, adst     uint32
	kinds                 [4]int // blendKindsOf: colour source, destination, alpha source, destination
	constant              [4]float64
	mask                  [4]bool // R, G, B, A
	allMask               bool
	rop                   bool
	rop2                  uint32
	direct8               bool // pixelDirect8's state
	ditherRGB, ditherA    uint32
}

// Colour-buffer formats (L448): component sizes from the least
// significant bits.
var cbFormats = map[uint32]struct {
	bpp   int
	bits  [4]uint
	float bool
}{
	3: {2, [4]uint{5, 5, 5, 1}, false}, 4: {2, [4]uint{5, 6, 5, 0}, false}, 6: {4, [4]uint{8, 8, 8, 8}, false},
	7: {16, [4]uint{32, 32, 32, 32}, true}, 9: {1, [4]uint{8, 0, 0, 0}, false},
	10: {8, [4]uint{16, 16, 16, 16}, true}, 15: {2, [4]uint{4, 4, 4, 4}, false},
}

func (e *Engine) prepareCB(s *drawState) error {
	cb := &s.cb
	cctl := e.reg(r3.RB3D_CCTL)
	if cctl>>7&1 != 0 || cctl>>9&1 != 0 {
		return faultf("RB3D_CCTL: colour compare and AA compression are not simulated")
	}
	cb.multi = int(cctl >> 5 & 3)
	used := false
	for t := 0; t < 4; t++ {
		cb.targets[t] = -1
		of := e.reg(r3.US_OUT_FMT_0 + 4*uint32(t))
		cb.outFmt[t] = of & 31
		if cb.outFmt[t] == 15 || (cb.multi > 0 && t > 0) {
			continue
		}
		switch cb.outFmt[t] {
		case 0, 1, 5, 18, 21:
		default:
			return faultf("US_OUT_FMT_%d: OUT_FMT %s is not simulated", t, r3.EnumOutFmt[min(cb.outFmt[t], 21)])
		}
		if of>>16&15 != 0 {
			return faultf("US_OUT_FMT_%d: signed outputs are not simulated", t)
		}
		cb.targets[t] = t
		cb.used = append(cb.used, t)
		used = true
		bufs := []int{t}
		if cb.multi > 0 {
			bufs = nil
			for b := 0; b <= cb.multi; b++ {
				bufs = append(bufs, b)
			}
		}
		for _, b := range bufs {
			if err := e.prepareBuffer(cb, b, of); err != nil {
				return err
			}
		}
	}
	if !used {
		return nil
	}
	bc := e.reg(r3.RB3D_BLENDCNTL)
	cb.blend, cb.sepAlpha, cb.read = bc&1 != 0, bc&2 != 0, bc&4 != 0
	cb.discard = bc >> 3 & 7
	if cb.discard == 7 {
		return faultf("RB3D_BLENDCNTL.DISCARD_SRC_PIXELS 7 is reserved")
	}
	cb.comb, cb.src, cb.dst = bc>>12&7, bc>>16&63, bc>>24&63
	ab := e.reg(r3.RB3D_ABLENDCNTL)
	cb.acomb, cb.asrc, cb.adst = ab>>12&7, ab>>16&63, ab>>24&63
	if !cb.sepAlpha {
		cb.acomb, cb.asrc, cb.adst = cb.comb, cb.src, cb.dst
	}
	if cb.blend {
		for _, f := range []uint32{cb.src, cb.dst, cb.asrc, cb.adst} {
			if blendFactor(f) < 0 {
				return faultf("RB3D_(A)BLENDCNTL: blend factor %d is reserved", f)
			}
		}
		for _, f := range []uint32{cb.dst, cb.adst} {
			// L353-355, L382: DESTBLEND 11-13 and 42 are reserved.
			if (f >= 11 && f <= 13) || f == 42 {
				return faultf("RB3D_(A)BLENDCNTL: DESTBLEND %s is reserved", r3.EnumBlend[f])
			}
		}
	}
	cb.kinds[0], cb.kinds[1] = blendKindsOf(cb.comb, cb.src, cb.dst)
	cb.kinds[2], cb.kinds[3] = blendKindsOf(cb.acomb, cb.asrc, cb.adst)
	k := e.reg(r3.RB3D_CONSTANT_COLOR)
	cb.constant = [4]float64{float64(k>>16&255) / 255, float64(k>>8&255) / 255, float64(k&255) / 255, float64(k>>24) / 255}
	m := e.reg(r3.RB3D_COLOR_CHANNEL_MASK)
	// L455-458: B, G, R, A from bit 0.
	cb.mask = [4]bool{m&4 != 0, m&2 != 0, m&1 != 0, m&8 != 0}
	cb.allMask = m&15 == 15
	rop := e.reg(r3.RB3D_ROPCNTL)
	cb.rop, cb.rop2 = rop>>2&1 != 0, rop>>8&15
	d := e.reg(r3.RB3D_DITHER_CTL)
	cb.ditherRGB, cb.ditherA = d&3, d>>2&3
	if cb.ditherRGB == 3 || cb.ditherA == 3 {
		return faultf("RB3D_DITHER_CTL mode 3 is reserved")
	}
	if !s.fg.dither && cb.ditherRGB == 2 {
		// The LUT dither applies only with FG_ALPHA_FUNC.DITH_EN [PROP].
		cb.ditherRGB = 1
	}
	cb.direct8 = len(cb.used) == 1 && cb.multi == 0 && cb.outFmt[cb.used[0]] == 0 && cb.buf[cb.used[0]].simple &&
		!cb.blend && !cb.rop && cb.allMask && cb.discard == 0 && !s.fg.fog && !s.fg.alphaTest
	for b := range cb.buf {
		buf := &cb.buf[b]
		for k, ch := range buf.slots {
			buf.modes[k] = cb.ditherRGB
			if ch == 3 {
				buf.modes[k] = cb.ditherA
			}
		}
	}
	return nil
}

func (e *Engine) prepareBuffer(cb *cbState, b int, outFmt uint32) error {
	p := e.reg(r3.RB3D_COLORPITCH0 + 4*uint32(b))
	if p>>16&7 != 0 || p>>19&3 != 0 {
		return faultf("RB3D_COLORPITCH%d: tiled or byte-swapped colour buffers are not simulated", b)
	}
	f := p >> 21 & 15
	info, ok := cbFormats[f]
	if !ok {
		return faultf("RB3D_COLORPITCH%d: COLORFORMAT %d is not simulated", b, f)
	}
	buf := &cb.buf[b]
	buf.format, buf.bpp, buf.bits, buf.float = f, info.bpp, info.bits, info.float
	buf.pitch = int(p & 0x3FFE)
	buf.base = e.reg(r3.RB3D_COLOROFFSET0+4*uint32(b)) &^ 31
	if buf.mem, ok = e.regionFrom(buf.base); !ok {
		return faultf("RB3D_COLOROFFSET%d %#x lies outside memory", b, buf.base)
	}
	// US_OUT_FMT C0-C3_SEL: 0 A, 1 R, 2 G, 3 B (L1700-1708).
	seen := 0
	for k := 0; k < 4; k++ {
		buf.slots[k] = -1
		if info.bits[k] != 0 {
			buf.slots[k] = [4]int{3, 0, 1, 2}[outFmt>>(8+2*uint(k))&3]
			seen |= 1 << buf.slots[k]
		}
	}
	buf.simple = f == 6 && seen == 15
	return nil
}

// fragment is what the pixel pipeline reads of one shaded pixel.
type fragment struct {
	// out is the US outputs, per target RGBA.
	out *[4][4]float32
	// z is the window z from the plane equation, w the perspective W and
	// fog the fog source colour's alpha (FOG_SELECT C0A-C3A).
	z, w, fog float64
	// depth is the US depth output.
	depth float32
}

// quadFragment returns pixel i of the quad as a fragment.
func (s *drawState) quadFragment(q *quadState, i int) fragment {
	f := fragment{out: &q.out[i], z: q.z[i], w: q.w[i], depth: q.depth[i]}
	if s.fg.fog && s.fogSel < 4 {
		f.fog = q.attr[i][s.rs.fog]
	}
	return f
}

// pixel runs FG, ZB and the colour backend for pixel (x, y).
func (e *Engine) pixel(s *drawState, p *prim, w *worker, x, y int, fr *fragment) error {
	if s.cb.direct8 {
		return e.pixelDirect8(s, p, w, x, y, fr)
	}
	w.pixels++
	// Output format quantisation, then FG.
	var cols [4][4]float64
	for _, t := range s.cb.used {
		f, o := s.cb.outFmt[t], &fr.out[t]
		if f == 0 {
			cols[t] = [4]float64{unorm8Out(o[0]), unorm8Out(o[1]), unorm8Out(o[2]), unorm8Out(o[3])}
			continue
		}
		cols[t] = [4]float64{quantOut(f, o[0]), quantOut(f, o[1]), quantOut(f, o[2]), quantOut(f, o[3])}
	}
	if s.fg.fog {
		f := s.fogFactor(fr)
		for t := range cols {
			for c := 0; c < 3; c++ {
				cols[t][c] = float64(f*cols[t][c]) + float64((1-f)*s.fg.fogColor[c])
			}
		}
	}
	if s.fg.alphaTest {
		// [PROP] The alpha is compared as an 8-bit value (AF_VAL 7:0).
		a := uint32(math.Floor(clamp01(cols[0][3])*255 + 0.5))
		if !cmp(alphaCmp[s.fg.alphaFunc], a, s.fg.alphaRef) {
			return nil
		}
	}
	if s.zb.active {
		pass, err := e.depthStencil(s, p, fr, x, y)
		if err != nil || !pass {
			return err
		}
	}
	w.zpass++
	for _, t := range s.cb.used {
		if s.cb.multi > 0 {
			for b := 0; b <= s.cb.multi; b++ {
				if err := e.colorOut(s, &s.cb.buf[b], &cols[t], x, y); err != nil {
					return err
				}
			}
			continue
		}
		if err := e.colorOut(s, &s.cb.buf[t], &cols[t], x, y); err != nil {
			return err
		}
	}
	return nil
}

// pixelDirect8 is pixel for the state cbState.direct8 describes: one
// target, unorm 8 output into an 8-bit-per-channel buffer, no fog, alpha
// test, blending, ROP, mask or discard. There quantOut gives k/255 with
// k = round(clamp(v) * 255), and toUnorm gives back k in every dither mode:
// (k/255)*255 is k within 2^-40, and every mode's offset (1/4096, 1/2,
// (b + 0.5)/16) lies strictly between 0 and 1. So the bytes are the k.
func (e *Engine) pixelDirect8(s *drawState, p *prim, w *worker, x, y int, fr *fragment) error {
	w.pixels++
	if s.zb.active {
		pass, err := e.depthStencil(s, p, fr, x, y)
		if err != nil || !pass {
			return err
		}
	}
	w.zpass++
	t := s.cb.used[0]
	buf := &s.cb.buf[t]
	off := (y*buf.pitch + x) * 4
	if x < 0 || y < 0 || off+4 > len(buf.mem) {
		return faultf("colour write at (%d, %d) lies outside memory (RB3D_COLOROFFSET %#x, pitch %d)", x, y, buf.base, buf.pitch)
	}
	o := &fr.out[t]
	k := [4]byte{outByte(o[0]), outByte(o[1]), outByte(o[2]), outByte(o[3])}
	b, sl := buf.mem[off:off+4], &buf.slots
	b[0], b[1], b[2], b[3] = k[sl[0]&3], k[sl[1]&3], k[sl[2]&3], k[sl[3]&3]
	return nil
}

// outByte is round(clamp(v) * 255), quantOut's k for OUT_FMT 0.
func outByte(v float32) byte { return byte(int64(clamp01(float64(v))*255 + 0.5)) }

// quantOut applies the US_OUT_FMT conversion: unorm 8, 10 or 16 bits
// (rounded to nearest [PROP]), half or single float.
//
// The rounding adds 0.5 to a value in [0, max]: the sum is positive, where
// the truncating conversion is the floor (and costs no library call).
func quantOut(f uint32, v float32) float64 {
	switch f {
	case 0:
		return float64(int64(clamp01(float64(v))*255+0.5)) / 255
	case 1:
		return float64(int64(clamp01(float64(v))*1023+0.5)) / 1023
	case 5:
		return float64(int64(clamp01(float64(v))*65535+0.5)) / 65535
	case 18:
		return float64(half(toHalf(v)))
	}
	return float64(v)
}

// unorm8Out is quantOut's OUT_FMT 0 (unorm 8), in a form that inlines.
func unorm8Out(v float32) float64 { return float64(int64(clamp01(float64(v))*255+0.5)) / 255 }

func clamp01(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// fogFactor computes the FG_FOG_BLEND factor (1 = no fog). The source is
// GB_SELECT.FOG_SELECT scaled by GA_FOG_SCALE/OFFSET; [PROP] LINEAR clamps
// it, EXP and EXP2 take e^-f and e^-f², CONSTANT uses FG_FOG_FACTOR.
func (s *drawState) fogFactor(fr *fragment) float64 {
	var src float64
	switch {
	case s.fogSel < 4:
		src = fr.fog
	case s.fogSel == 4:
		src = fr.w
	default:
		src = fr.z
	}
	f := float64(src*s.fg.fogScale) + s.fg.fogOffset
	switch s.fg.fogFn {
	case 0:
		return clamp01(f)
	case 1:
		return clamp01(exp2(-f * math.Log2E))
	case 2:
		return clamp01(exp2(-float64(f*f) * math.Log2E))
	}
	return s.fg.fogFactor
}

// Comparisons by kind: cmpOps resolves one of the two code orders (ZB's
// and FG_ALPHA_FUNC's) once, so that no name is looked up per pixel.
const (
	cmpNever = iota
	cmpLess
	cmpEqual
	cmpLE
	cmpGreater
	cmpNotEqual
	cmpGE
	cmpAlways
)

func cmpOps(names []string) (ops [8]uint8) {
	kind := map[string]uint8{"NEVER": cmpNever, "LESS": cmpLess, "EQUAL": cmpEqual, "LE": cmpLE, "LEQUAL": cmpLE,
		"GREATER": cmpGreater, "NOTEQUAL": cmpNotEqual, "GE": cmpGE, "GEQUAL": cmpGE, "ALWAYS": cmpAlways}
	for i, n := range names {
		ops[i] = kind[n]
	}
	return ops
}

var zCmp, alphaCmp = cmpOps(r3.EnumZFunc), cmpOps(r3.EnumAlphaFunc)

// cmp is compare for a resolved kind.
func cmp(op uint8, a, b uint32) bool {
	switch op {
	case cmpNever:
		return false
	case cmpLess:
		return a < b
	case cmpEqual:
		return a == b
	case cmpLE:
		return a <= b
	case cmpGreater:
		return a > b
	case cmpNotEqual:
		return a != b
	case cmpGE:
		return a >= b
	}
	return true
}

// depthStencil runs the ZB tests and updates for one pixel.
func (e *Engine) depthStencil(s *drawState, p *prim, fr *fragment, x, y int) (bool, error) {
	z := &s.zb
	bpp := 2
	if z.z24 {
		bpp = 4
	}
	off := (y*z.pitch + x) * bpp
	if x < 0 || y < 0 || off+bpp > len(z.mem) {
		return false, faultf("depth write at (%d, %d) lies outside memory (ZB_DEPTHOFFSET %#x, pitch %d)", x, y, z.base, z.pitch)
	}
	b := z.mem[off : off+bpp]
	var old, oldS uint32
	if z.z24 {
		v := binary.LittleEndian.Uint32(b)
		old, oldS = v>>8, v&0xFF
	} else {
		old = uint32(binary.LittleEndian.Uint16(b)) << 8
	}
	// Z24 from the plane equation, or from the shader (FG_DEPTH_SRC).
	var zf float64
	if s.fg.depthFromUS && z.wFmt == 1 {
		zf = clamp01(float64(fr.depth)) * (1<<24 - 1)
	} else if s.fg.depthFromUS {
		zf = 0
	} else {
		zf = float64(fr.z*s.depthScale) + s.depthOffset + p.zoff
	}
	zv := uint32(max(0, min(1<<24-1, math.Floor(zf+0.5))))
	if zf != zf {
		zv = 0
	}
	if !z.z24 {
		// [PROP] Z16 keeps the top 16 of the 24-bit depth.
		zv &^= 0xFF
	}
	face := 0
	if z.frontBack && !p.front {
		face = 1
	}
	sPass := true
	if z.stencil {
		sPass = cmp(zCmp[z.sFunc[face]], z.ref&z.mask, oldS&z.mask)
	}
	zPass := !z.zTest || cmp(zCmp[z.zFunc], zv, old)
	newS := oldS
	switch {
	case !sPass:
		newS = stencilOp(z.sFail[face], oldS, z.ref)
	case !zPass:
		newS = stencilOp(z.sZFail[face], oldS, z.ref)
	default:
		newS = stencilOp(z.sZPass[face], oldS, z.ref)
	}
	if !z.stencil {
		newS = oldS
	}
	newS = newS&z.wmask | oldS&^z.wmask
	newZ := old
	if sPass && zPass && z.zTest && z.zWrite {
		newZ = zv
	}
	if z.z24 {
		binary.LittleEndian.PutUint32(b, newZ<<8|newS&0xFF)
	} else {
		binary.LittleEndian.PutUint16(b, uint16(newZ>>8))
	}
	return sPass && zPass, nil
}

// stencilOp is STENCILFAIL and friends (L2510).
func stencilOp(op, v, ref uint32) uint32 {
	switch op {
	case 1:
		return 0
	case 2:
		return ref
	case 3:
		return min(v+1, 255)
	case 4:
		if v == 0 {
			return 0
		}
		return v - 1
	case 5:
		return ^v & 0xFF
	case 6:
		return (v + 1) & 0xFF
	case 7:
		return (v - 1) & 0xFF
	}
	return v
}

// Blend factor kinds shared by the D3D (1-13) and GL (32-46) codes.
const (
	bfZero = iota
	bfOne
	bfSrcColor
	bfInvSrcColor
	bfSrcAlpha
	bfInvSrcAlpha
	bfDstAlpha
	bfInvDstAlpha
	bfDstColor
	bfInvDstColor
	bfSrcAlphaSat
	bfBothSrcAlpha
	bfBothInvSrcAlpha
	bfConstColor
	bfInvConstColor
	bfConstAlpha
	bfInvConstAlpha
)

// blendFactor maps a 6-bit blend code (L266-406 [RECON]) to its kind, or
// -1 for a reserved code.
func blendFactor(code uint32) int {
	switch {
	case code >= 1 && code <= 13:
		return int(code - 1)
	case code >= 32 && code <= 46:
		return [...]int{bfZero, bfOne, bfSrcColor, bfInvSrcColor, bfDstColor, bfInvDstColor, bfSrcAlpha,
			bfInvSrcAlpha, bfDstAlpha, bfInvDstAlpha, bfSrcAlphaSat, bfConstColor, bfInvConstColor,
			bfConstAlpha, bfInvConstAlpha}[code-32]
	}
	return -1
}

func factor(kind int, c int, src, dst, k *[4]float64) float64 {
	switch kind {
	case bfZero:
		return 0
	case bfOne:
		return 1
	case bfSrcColor:
		return src[c]
	case bfInvSrcColor:
		return 1 - src[c]
	case bfSrcAlpha, bfBothSrcAlpha:
		return src[3]
	case bfInvSrcAlpha, bfBothInvSrcAlpha:
		return 1 - src[3]
	case bfDstAlpha:
		return dst[3]
	case bfInvDstAlpha:
		return 1 - dst[3]
	case bfDstColor:
		return dst[c]
	case bfInvDstColor:
		return 1 - dst[c]
	case bfSrcAlphaSat:
		if c == 3 {
			return 1
		}
		return min(src[3], 1-dst[3])
	case bfConstColor:
		return k[c]
	case bfInvConstColor:
		return 1 - k[c]
	case bfConstAlpha:
		return k[3]
	case bfInvConstAlpha:
		return 1 - k[3]
	}
	return 0
}

// blend combines source and destination for one channel (COMB_FCN,
// L253-265).
func blend(comb uint32, srcCode, dstCode uint32, c int, src, dst, k *[4]float64) float64 {
	sk, dk := blendKindsOf(comb, srcCode, dstCode)
	return blendKinds(comb, sk, dk, c, src, dst, k)
}

// blendKindsOf resolves the source and destination factor kinds of a
// blend: D3D's BOTH factors set the destination factor too, MIN and MAX
// take both at ONE.
func blendKindsOf(comb, srcCode, dstCode uint32) (sk, dk int) {
	sk, dk = blendFactor(srcCode), blendFactor(dstCode)
	switch sk {
	case bfBothSrcAlpha:
		dk = bfInvSrcAlpha
	case bfBothInvSrcAlpha:
		dk = bfSrcAlpha
	}
	if comb == 4 || comb == 5 {
		sk, dk = bfOne, bfOne
	}
	return sk, dk
}

// blendKinds is blend with the factor kinds resolved (blendKindsOf).
func blendKinds(comb uint32, sk, dk int, c int, src, dst, k *[4]float64) float64 {
	a := float64(src[c] * factor(sk, c, src, dst, k))
	b := float64(dst[c] * factor(dk, c, src, dst, k))
	var r float64
	switch comb {
	case 0, 1:
		r = a + b
	case 2, 3:
		r = a - b
	case 4:
		r = min(a, b)
	case 5:
		r = max(a, b)
	default:
		r = b - a
	}
	if comb%2 == 0 && comb != 4 {
		r = clamp01(r)
	}
	return r
}

var bayer = [4][4]float64{{0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}}

// toUnorm converts a channel to n bits with a RB3D_DITHER_CTL mode:
// truncate, round, or round with the 4x4 ordered-dither threshold [PROP].
// Truncation forgives 2^-12 of float error so that k/255 stays k.
//
// Every offset is positive and so is the sum, whose floor is the
// truncating conversion.
func toUnorm(v float64, n uint, mode uint32, x, y int) uint32 {
	m := float64(uint32(1)<<n - 1)
	f := clamp01(v) * m
	switch mode {
	case 0:
		f += 1.0 / 4096
	case 1:
		f += 0.5
	default:
		f += ditherOffset[y&3][x&3]
	}
	return min(uint32(f), uint32(m))
}

// ditherOffset is the ordered-dither threshold (bayer + 0.5) / 16 of each
// pixel of the 4x4 matrix.
var ditherOffset = func() (d [4][4]float64) {
	for y := range d {
		for x := range d[y] {
			d[y][x] = (bayer[y][x] + 0.5) / 16
		}
	}
	return d
}()

func toHalf(f float32) uint32 {
	b := math.Float32bits(f)
	sign := b >> 16 & 0x8000
	exp := int(b>>23&0xFF) - 127 + 15
	m := b & 0x7FFFFF
	switch {
	case f != f:
		return 0x7E00
	case exp >= 31:
		return sign | 0x7C00
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		m |= 0x800000
		return sign | m>>uint(14-exp)
	}
	return sign | uint32(exp)<<10 | m>>13
}

// colorOut blends, applies the ROP and the channel mask, and writes one
// pixel of a colour buffer.
func (e *Engine) colorOut(s *drawState, buf *cbBuffer, src *[4]float64, x, y int) error {
	cb := &s.cb
	off := (y*buf.pitch + x) * buf.bpp
	if x < 0 || y < 0 || off+buf.bpp > len(buf.mem) {
		return faultf("colour write at (%d, %d) lies outside memory (RB3D_COLOROFFSET %#x, pitch %d)", x, y, buf.base, buf.pitch)
	}
	b := buf.mem[off : off+buf.bpp]
	// DISCARD_SRC_PIXELS (L235).
	switch cb.discard {
	case 1, 4:
		if src[3] == float64(cb.discard/4) {
			return nil
		}
	case 2, 5:
		v := float64(cb.discard / 5)
		if src[0] == v && src[1] == v && src[2] == v {
			return nil
		}
	case 3, 6:
		v := float64(cb.discard / 6)
		if src[0] == v && src[1] == v && src[2] == v && src[3] == v {
			return nil
		}
	}
	if !cb.rop && buf.simple && cb.allMask {
		// Fast path: ARGB8888 without ROP or masking: read's channels
		// are the bytes over 255, and the packed result is the four
		// toUnorm bytes.
		sl, md := &buf.slots, &buf.modes
		res := src
		if cb.blend {
			var dst, out [4]float64
			if cb.read {
				dst[sl[0]&3], dst[sl[1]&3], dst[sl[2]&3], dst[sl[3]&3] =
					float64(b[0])/255, float64(b[1])/255, float64(b[2])/255, float64(b[3])/255
			}
			for c := 0; c < 3; c++ {
				out[c] = blendKinds(cb.comb, cb.kinds[0], cb.kinds[1], c, src, &dst, &cb.constant)
			}
			out[3] = blendKinds(cb.acomb, cb.kinds[2], cb.kinds[3], 3, src, &dst, &cb.constant)
			res = &out
		}
		b[0] = byte(toUnorm(res[sl[0]&3], 8, md[0], x, y))
		b[1] = byte(toUnorm(res[sl[1]&3], 8, md[1], x, y))
		b[2] = byte(toUnorm(res[sl[2]&3], 8, md[2], x, y))
		b[3] = byte(toUnorm(res[sl[3]&3], 8, md[3], x, y))
		return nil
	}
	old, dst := buf.read(b)
	res := *src
	if cb.blend {
		if !cb.read {
			dst = [4]float64{}
		}
		for c := 0; c < 3; c++ {
			res[c] = blend(cb.comb, cb.src, cb.dst, c, src, &dst, &cb.constant)
		}
		res[3] = blend(cb.acomb, cb.asrc, cb.adst, 3, src, &dst, &cb.constant)
	}
	if buf.float {
		for k := 0; k < 4; k++ {
			ch := buf.slots[k]
			if ch < 0 || !cb.mask[ch] {
				continue
			}
			if buf.bits[k] == 32 {
				binary.LittleEndian.PutUint32(b[4*k:], math.Float32bits(float32(res[ch])))
			} else {
				binary.LittleEndian.PutUint16(b[2*k:], uint16(toHalf(float32(res[ch]))))
			}
		}
		return nil
	}
	var val, keep uint64
	shift := uint(0)
	any := false
	for k := 0; k < 4; k++ {
		n := buf.bits[k]
		if n == 0 {
			continue
		}
		mask := (uint64(1)<<n - 1) << shift
		ch := buf.slots[k]
		if ch >= 0 && cb.mask[ch] {
			mode := cb.ditherRGB
			if ch == 3 {
				mode = cb.ditherA
			}
			val |= uint64(toUnorm(res[ch], n, mode, x, y)) << shift
			any = true
		} else {
			keep |= mask
		}
		shift += n
	}
	if !any {
		return nil
	}
	if cb.rop {
		// ROP2 truth table, bit index S*2+D (L499-501, guide §2.1).
		s, d := val, old
		r := uint64(0)
		if cb.rop2&1 != 0 {
			r |= ^s & ^d
		}
		if cb.rop2&2 != 0 {
			r |= ^s & d
		}
		if cb.rop2&4 != 0 {
			r |= s & ^d
		}
		if cb.rop2&8 != 0 {
			r |= s & d
		}
		val = r
	}
	val = val&^keep | old&keep
	for k := 0; k < buf.bpp; k++ {
		b[k] = byte(val >> (8 * uint(k)))
	}
	return nil
}

// read returns a pixel's raw bits and its RGBA value ([PROP] channels the
// format lacks read as 0, alpha as 1).
func (buf *cbBuffer) read(b []byte) (uint64, [4]float64) {
	out := [4]float64{0, 0, 0, 1}
	if buf.float {
		for k := 0; k < 4; k++ {
			if ch := buf.slots[k]; ch >= 0 {
				if buf.bits[k] == 32 {
					out[ch] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:])))
				} else {
					out[ch] = float64(half(uint32(binary.LittleEndian.Uint16(b[2*k:]))))
				}
			}
		}
		return 0, out
	}
	var raw uint64
	for k := 0; k < buf.bpp; k++ {
		raw |= uint64(b[k]) << (8 * uint(k))
	}
	shift := uint(0)
	for k := 0; k < 4; k++ {
		n := buf.bits[k]
		if n == 0 {
			continue
		}
		if ch := buf.slots[k]; ch >= 0 {
			out[ch] = float64(raw>>shift&(uint64(1)<<n-1)) / float64(uint64(1)<<n-1)
		}
		shift += n
	}
	return raw, out
}
