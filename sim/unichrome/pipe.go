package unichrome

import (
	"fmt"
	"math"

	uc "github.com/retrogl/retrogl/hal/unichrome"
	"github.com/retrogl/retrogl/sim/raster"
)

// Enable bits of 00h (L2340-2361; bits 20-18 [OUT]).
const (
	enDT      = 1 << 0
	enABL     = 1 << 1
	enFOG     = 1 << 2
	enCS      = 1 << 3
	enTXTR    = 1 << 4
	enTXPP    = 1 << 5
	enTXMP    = 1 << 6
	enTXCH    = 1 << 7
	enLP      = 1 << 8
	enSP      = 1 << 9
	enAW      = 1 << 10
	enAT      = 1 << 11
	enZW      = 1 << 12
	enZT      = 1 << 13
	enST      = 1 << 14
	enAA      = 1 << 15
	enCW      = 1 << 16
	enBFCull  = 1 << 17
	enEnvMap  = 1 << 21
	enForce1P = 1 << 23
)

// pipeline is the state a list draws with, decided once when the registers
// change (per-draw specialisation): validated codes, memory slices and
// decoded constants.
type pipeline struct {
	en        uint32
	clip      raster.Rect
	centerInt bool

	dst    surface
	cw, aw bool
	rop    uint32
	pmask  uint32 // plane mask in the destination's bit layout
	dither bool
	expand uint32 // 42h bits 22:20

	depth   depthBuf
	zt, zw  bool
	zfunc   uint32
	znf     float64
	zscale  float64 // HZBiasScale
	zbias   float64 // HZBias in Z units [0, 1)
	biasWB  bool
	hasBias bool

	st                  bool
	sfunc               uint32
	sref, sopm, swm     uint8
	sfail, szfail, szps uint32

	at    bool
	afunc uint32
	aref  int

	abl   bool
	blend blendState

	txmp  bool
	persp bool
	ntex  int
	units [2]texUnit
	stage [2]stage

	cs     bool
	fog    bool
	fogSt  fogState
	solid  [4]int
	sp     bool
	spXOS  int
	spYOS  int
	lp     bool
	lpBits uint32
	lpRF   int
	// needSpec says the fragment's specular colour and fog factor are read
	// (specular add, local fog or a blending stage).
	needSpec bool
	// aliased is set when buffers overlap: a texture level with the
	// colour or Z buffer, the two buffers, or rows of one buffer (a pitch
	// shorter than the clip rectangle's width). Shading is then serial and
	// per pixel.
	aliased bool
	// span is the span pipeline's plan (span.go).
	span spanPlan
}

// surface is a colour buffer in memory.
type surface struct {
	mem   []byte
	base  uint32
	pitch int
	fmt   uc.DstFormatInfo
	yuy2  bool
}

// depthBuf is the Z/W (and stencil) buffer.
type depthBuf struct {
	mem     []byte
	base    uint32
	pitch   int
	bytes   int
	fmt     uint32 // HZWBFM
	wbuf    bool
	bits    uint    // Z bits (16, 24, 32)
	stencil bool    // Z24S8 / W [5].19+S8
	wbias   int     // HWBEBias
	scale   float64 // 2^bits
}

func addr32(lo, hi uint32) uint32 { return lo&0xFFFFFF | hi&0xFF<<24 }

// compile validates the registers and builds the pipeline.
func (e *Engine) compile() (*pipeline, error) {
	a := &e.attr
	p := &pipeline{en: a[uc.AttrEnable]}
	en := p.en
	for _, u := range []struct {
		bit  uint32
		name string
	}{{enAA, "anti-aliasing (HenAA)"}, {enTXTR, "texture transparency (HenTXTR)"}, {enEnvMap, "environment-map texturing (HenTXEnvMap)"}} {
		if en&u.bit != 0 {
			return nil, fmt.Errorf("%s is not simulated", u.name)
		}
	}
	// Clip rectangle (70h/71h): top/left inclusive, bottom/right exclusive.
	tb, lr := a[uc.AttrClipTB], a[uc.AttrClipLR]
	p.clip = raster.Rect{X0: int(lr >> 12 & 0x7FF), Y0: int(tb >> 12 & 0x7FF), X1: int(lr & 0x7FF), Y1: int(tb & 0x7FF)}
	p.centerInt = a[uc.AttrPixGC]>>23&1 != 0
	sc := a[uc.AttrSolidColor]
	p.solid = [4]int{int(sc >> 16 & 0xFF), int(sc >> 8 & 0xFF), int(sc & 0xFF), int(a[uc.AttrPixGC] & 0xFF)}

	// Destination (40h-44h).
	fm := a[uc.AttrDstFormat]
	code := uint8(fm >> 16 & 0xF)
	info, ok := uc.DstFormatOf(code)
	if !ok {
		return nil, fmt.Errorf("reserved destination format %#x (42h bits 19:16)", code)
	}
	p.expand = fm >> 20 & 7
	if p.expand == 5 || p.expand == 7 {
		return nil, fmt.Errorf("destination expansion %s 'never happens' (42h bits 22:20)", uc.EnumDstExpand[p.expand])
	}
	p.dst = surface{base: addr32(a[uc.AttrDstBaseL], a[uc.AttrDstBaseH]), pitch: int(fm & 0x3FFF), fmt: info, yuy2: code == uc.DstYUY2}
	p.cw = en&enCW != 0
	p.aw = en&enAW != 0
	p.dither = en&enDT != 0 && info.Bytes == 2 && !p.dst.yuy2
	pm, rop := a[uc.AttrPlaneMask], a[uc.AttrROP]
	p.rop = rop >> 8 & 15
	amask := rop & 0xFF
	if !p.aw {
		amask = 0
	}
	p.pmask = planeMask(info, pm>>16&0xFF, pm>>8&0xFF, pm&0xFF, amask)
	if !p.clip.Empty() {
		var err error
		bpp, clip := info.Bytes, p.clip
		if p.dst.yuy2 {
			// A YUY2 pair is one dword: the buffer covers the pair of
			// the clip rectangle's last pixel.
			clip.X1 = (clip.X1 + 1) &^ 1
		}
		if p.dst.mem, err = e.span("destination buffer", p.dst.base, p.dst.pitch, bpp, clip); err != nil {
			return nil, err
		}
	}

	// Z/W buffer and stencil (10h-24h).
	p.zt, p.zw, p.st = en&enZT != 0, en&enZW != 0, en&enST != 0
	zt := a[uc.AttrZTest]
	p.zfunc = zt >> 16 & 7
	p.znf = math.Ldexp(1, -int(zt&0xFF))
	zf := a[uc.AttrZFormat]
	d := &p.depth
	d.base = addr32(a[uc.AttrZBaseL], a[uc.AttrZBaseH])
	d.pitch = int(zf & 0x3FFF)
	d.fmt = zf >> 16 & 3
	d.wbuf = zf>>23&1 != 0
	d.wbias = int(zt >> 8 & 0x7F)
	p.biasWB = zf>>22&1 != 0
	switch d.fmt {
	case 0:
		d.bytes, d.bits = 2, 16
	case 2:
		d.bytes, d.bits = 4, 32
	case 3:
		d.bytes, d.bits, d.stencil = 4, 24, true
	default:
		return nil, fmt.Errorf("reserved ZW buffer format 01 (12h bits 17:16)")
	}
	d.scale = math.Ldexp(1, int(d.bits))
	if (p.zt || p.zw || p.st) && !p.clip.Empty() {
		var err error
		if d.mem, err = e.span("ZW buffer", d.base, d.pitch, d.bytes, p.clip); err != nil {
			return nil, err
		}
	}
	scale := math.Float32frombits(a[uc.AttrZBiasH]>>16&0xFF<<24 | a[uc.AttrZBiasScaleL]&0xFFFFFF)
	bias := int32(addr32(a[uc.AttrZBiasL], a[uc.AttrZBiasH]))
	if s := float64(scale); s == s && !math.IsInf(s, 0) {
		p.zscale = s
	}
	p.zbias = math.Ldexp(float64(bias), -32)
	p.hasBias = p.zscale != 0 || bias != 0
	sr, sm := a[uc.AttrStencilRef], a[uc.AttrStencilMode]
	p.sref, p.sopm, p.swm = uint8(sr>>16), uint8(sr>>8), uint8(sr)
	p.sfunc = sm >> 16 & 7
	p.sfail, p.szfail, p.szps = sm>>6&7, sm>>3&7, sm&7

	// Alpha test (33h).
	p.at = en&enAT != 0
	p.afunc = a[uc.AttrAlphaTest] >> 8 & 7
	p.aref = int(a[uc.AttrAlphaTest] & 0xFF)

	// Blending (34h-3Eh).
	p.abl = en&enABL != 0
	if p.abl {
		var err error
		if p.blend, err = compileBlend(a); err != nil {
			return nil, err
		}
	}

	// Texturing.
	p.txmp = en&enTXMP != 0
	p.persp = en&enTXPP != 0
	if p.txmp {
		p.ntex = e.w.Textures
		if p.ntex > 2 {
			return nil, fmt.Errorf("HTXNum = %d textures; the engine has 2", p.ntex)
		}
		for n := 0; n < p.ntex; n++ {
			if err := e.compileTexture(n, &p.units[n]); err != nil {
				return nil, fmt.Errorf("texture %d: %w", n, err)
			}
			var err error
			if p.stage[n], err = compileStage(n, &e.tex[n]); err != nil {
				return nil, fmt.Errorf("texture blending stage %d: %w", n, err)
			}
		}
	}

	p.cs = en&enCS != 0
	p.fog = en&enFOG != 0
	if p.fog {
		var err error
		if p.fogSt, err = compileFog(a, &e.fogPal); err != nil {
			return nil, err
		}
	}
	p.needSpec = p.cs || p.fog || p.txmp
	p.sp = en&enSP != 0
	so := a[uc.AttrStippleOS]
	p.spXOS, p.spYOS = int(so>>12&31), int(so&31)
	p.lp = en&enLP != 0
	p.lpBits = a[uc.AttrLinePattern] & 0xFFFF
	p.lpRF = max(1, int(a[uc.AttrLineRepeat]&0xFFFF))
	p.aliased = p.overlaps()
	p.plan()
	return p, nil
}

// overlaps reports whether the pipeline's buffers share memory (the
// aliased field).
func (p *pipeline) overlaps() bool {
	type area struct{ lo, hi uint64 }
	at := func(base uint32, mem []byte) area { return area{uint64(base), uint64(base) + uint64(len(mem))} }
	var bufs []area
	w := p.clip.X1 - p.clip.X0
	if p.dst.mem != nil {
		row := w * p.dst.fmt.Bytes
		if p.dst.yuy2 {
			row = ((p.clip.X1+1)&^1 - p.clip.X0&^1) * 2
		}
		if p.dst.pitch < row {
			return true
		}
		bufs = append(bufs, at(p.dst.base, p.dst.mem))
	}
	if p.depth.mem != nil {
		if p.depth.pitch < w*p.depth.bytes {
			return true
		}
		bufs = append(bufs, at(p.depth.base, p.depth.mem))
	}
	if len(bufs) == 2 && bufs[0].lo < bufs[1].hi && bufs[1].lo < bufs[0].hi {
		return true
	}
	for n := 0; n < p.ntex && p.txmp; n++ {
		u := &p.units[n]
		for l := u.lvmin; l <= u.lvmax; l++ {
			lv := &u.lv[l]
			t := area{uint64(lv.base), uint64(lv.base) + uint64(len(lv.mem))}
			for _, b := range bufs {
				if t.lo < b.hi && b.lo < t.hi {
					return true
				}
			}
		}
	}
	return false
}

// span returns the memory of a buffer covering the clip rectangle: rows 0
// to clip.Y1-1 from base (so that y*pitch indexes it), faulting when any of
// it lies outside device memory.
func (e *Engine) span(what string, base uint32, pitch, bpp int, clip raster.Rect) ([]byte, error) {
	rows := clip.Y1
	n := uint64(pitch)*uint64(rows-1) + uint64(clip.X1)*uint64(bpp)
	if n > 1<<31 {
		return nil, fmt.Errorf("%s at %#x: pitch %d x %d rows is too large", what, base, pitch, rows)
	}
	b, ok := e.mem.Slice(base, uint32(n))
	if !ok {
		return nil, fmt.Errorf("%s %#x+%d (pitch %d, clip %v) lies outside device memory", what, base, n, pitch, clip)
	}
	return b, nil
}

// planeMask converts the 8-bit channel masks to the destination layout,
// keeping each channel's top bits.
func planeMask(f uc.DstFormatInfo, r, g, b, a uint32) uint32 {
	put := func(c uc.Chan, m uint32) uint32 {
		if c.Bits == 0 {
			return 0
		}
		return (m >> (8 - c.Bits)) << c.Shift
	}
	// Bits no channel owns (the top bit of 555, the x of x888) are kept.
	return put(f.R, r) | put(f.G, g) | put(f.B, b) | put(f.A, a)
}
