package unichrome

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// layout is the memory map of a random scene: the target's size, colour
// and Z buffers (pitch bytes a row), two texture units' data (unit n at
// tex + n*0x20000, level l at + l*0x4000) and the command buffer.
type layout struct {
	w, h            int
	pitch, zpitch   int
	fb, z, tex, cmd uint32
}

var (
	// small is the span test's 64x48 target.
	small = layout{w: 64, h: 48, pitch: 320, zpitch: 288, fb: VRAMBase, z: VRAMBase + 0x10000, tex: VRAMBase + 0x20000, cmd: SysBase}
	// big is the worker test's 256x160 target.
	big = layout{w: 256, h: 160, pitch: 1024, zpitch: 1024, fb: VRAMBase, z: VRAMBase + 0x40000, tex: VRAMBase + 0x80000, cmd: SysBase}
)

// texCodes are the texture formats the simulator samples.
var texCodes = func() []uint8 {
	var out []uint8
	for c := 0; c < 256; c++ {
		if f, ok := uc.TexFormatOf(uint8(c)); ok && f.Kind != uc.KindYUV && f.Kind != uc.KindBump {
			out = append(out, uint8(c))
		}
	}
	return out
}()

// data keeps a random data dword clear of the header patterns (F0h-F7h in
// the top byte), which the command regulator would take as headers.
func data(v uint32) uint32 {
	if v>>27 == 0x1E {
		v |= 1 << 27
	}
	return v
}

// randomScene builds a command buffer of several draw groups, each with a
// random state (register values the simulator accepts) and a list of
// points, lines or triangles, and the memory it expects: random colour, Z
// and texture data.
func randomScene(r *rand.Rand, l *layout, groups int) (cmd []byte, mem map[uint32][]byte) {
	mem = map[uint32][]byte{}
	rnd := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	mem[l.fb] = rnd(l.pitch * l.h)
	mem[l.z] = rnd(l.zpitch * l.h)
	mem[l.tex] = rnd(0x40000)
	s := &sb{}
	pal := make([]uint32, uc.TexPaletteDwords)
	for i := range pal {
		pal[i] = data(r.Uint32())
	}
	s.put(uc.Header2, uc.TransSet(uc.TypePalette, uc.SubTexPalette, 0, 0)).put(pal...)
	fog := make([]uint32, uc.FogPaletteDwords)
	for i := range fog {
		fog[i] = data(r.Uint32())
	}
	s.put(uc.Header2, uc.TransSet(uc.TypePalette, uc.SubFogPalette, 0, 0)).put(fog...)
	stip := make([]uint32, uc.StippleDwords)
	for i := range stip {
		stip[i] = data(r.Uint32() | r.Uint32())
	}
	s.put(uc.Header2, uc.TransSet(uc.TypePalette, uc.SubStipple, 0, 0)).put(stip...)
	for g := 0; g < groups; g++ {
		ntex := randomState(r, l, s)
		randomList(r, l, s, ntex)
	}
	return s.bytes(), mem
}

// randomState writes a random engine state and returns the texture count
// (0, 1 or 2). The common shapes (ABGR8888 targets, MODULATE stages,
// SRC_ALPHA blending, ABGR8888 repeat bilinear textures) are made likely.
func randomState(r *rand.Rand, l *layout, s *sb) int {
	pick := func(vs ...uint32) uint32 { return vs[r.IntN(len(vs))] }
	bit := func(pct int) uint32 {
		if r.IntN(100) < pct {
			return 1
		}
		return 0
	}
	w24 := func(sa uint8, d uint32) uint32 { return uint32(sa)<<24 | d&0xFFFFFF }
	ntex := int(pick(0, 1, 1, 1, 2))
	en := bit(30)<<0 | bit(50)<<1 | bit(20)<<2 | bit(20)<<3 | bit(30)<<5 | bit(15)<<8 | bit(15)<<9 |
		bit(80)<<10 | bit(25)<<11 | bit(60)<<12 | bit(60)<<13 | bit(25)<<14 | bit(90)<<16 | bit(20)<<17
	if ntex > 0 {
		en |= 1<<6 | 1<<7
	}
	fmtCode := pick(uc.DstABGR8888, uc.DstABGR8888, uc.DstABGR8888, uc.DstRGB565, uc.DstBGR565, uc.DstARGB4444,
		uc.DstARGB1555, uc.DstRGB555, uc.DstARGB8888, uc.DstARGB0888, uc.DstABGR0888, uc.DstABGR4444, uc.DstYUY2)
	expand := pick(0, 0, 0, 1, 2, 3, 4, 6)
	zfmt := pick(0, 0, 2, 3, 3)
	// A third of the states take the shapes the span pipeline fuses
	// (plainChunk, packWords, texModChunk): no fog, specular, alpha test,
	// stencil, dither or perspective, at most one texture, an ABGR8888
	// target with ROP COPY and mostly every plane, Z16 without bias, SRC_ALPHA
	// blending or none.
	common := r.IntN(3) == 0 || plainShape || texShape
	if common {
		ntex = min(ntex, 1)
		en &^= 1<<0 | 1<<2 | 1<<3 | 1<<5 | 1<<11 | 1<<14
		if ntex == 0 {
			en &^= 1<<6 | 1<<7
		}
		en |= 1 << 16
		fmtCode, expand, zfmt = uc.DstABGR8888, 0, 0
		if texShape {
			// fill-tex-blend's shape: one texture, SRC_ALPHA blending
			// (texModChunk, texRowModBlendABGR).
			ntex = 1
			en |= 1<<1 | 1<<6 | 1<<7
		} else if r.IntN(3) == 0 || plainShape {
			// The colour written as it is (plainChunk, packRun,
			// constZChunk): no texture, no blending, mostly no stipple.
			ntex = 0
			en &^= 1<<1 | 1<<6 | 1<<7
			if r.IntN(2) == 0 {
				en &^= 1 << 9
			}
		}
	}
	a := []uint32{
		w24(uc.AttrEnable, en),
		w24(uc.AttrDstBaseL, l.fb), w24(uc.AttrDstBaseH, l.fb>>24),
		w24(uc.AttrDstFormat, expand<<20|fmtCode<<16|uint32(l.pitch)),
		w24(uc.AttrPlaneMask, pick(0xFFFFFF, 0xFFFFFF, r.Uint32())),
		w24(uc.AttrROP, pick(12, 12, 12, uint32(r.IntN(16)))<<8|pick(0xFF, r.Uint32()&0xFF)),
		w24(uc.AttrZBaseL, l.z), w24(uc.AttrZBaseH, l.z>>24),
		w24(uc.AttrZFormat, bit(15)<<23|bit(30)<<22|zfmt<<16|uint32(l.zpitch)),
		w24(uc.AttrZTest, uint32(r.IntN(8))<<16|uint32(r.IntN(128))<<8|pick(0, 0, uint32(r.IntN(4)))),
		w24(uc.AttrZBiasL, pick(0, 0, r.Uint32())), w24(uc.AttrZBiasH, pick(0, 0, r.Uint32())),
		w24(uc.AttrZBiasScaleL, pick(0, 0, r.Uint32())),
		w24(uc.AttrStencilRef, r.Uint32()),
		w24(uc.AttrStencilMode, uint32(r.IntN(8))<<16|r.Uint32()&0x1FF),
		w24(uc.AttrAlphaTest, uint32(r.IntN(8))<<8|uint32(r.IntN(256))),
		w24(uc.AttrFogMode, pick(0, 2, 4, 5)|bit(50)<<3|bit(50)<<4),
		w24(uc.AttrFogColor, r.Uint32()),
		w24(uc.AttrFogStartL, r.Uint32()), w24(uc.AttrFogStartH, r.Uint32()), w24(uc.AttrFogEndL, r.Uint32()),
		w24(uc.AttrFogDensity, r.Uint32()), w24(uc.AttrFogOOdM, r.Uint32()), w24(uc.AttrFogOOdE, uint32(100+r.IntN(40))),
		w24(uc.AttrPixGC, bit(20)<<23|r.Uint32()&0xFF), w24(uc.AttrSolidColor, r.Uint32()),
		w24(uc.AttrStippleOS, r.Uint32()&(31<<12|31)),
		w24(uc.AttrLinePattern, r.Uint32()), w24(uc.AttrLineRepeat, uint32(r.IntN(4))),
	}
	if zfmt == 0 && bit(80) == 1 {
		a[8] = w24(uc.AttrZFormat, bit(30)<<22|uint32(l.zpitch)) // Z16, Z buffer
	}
	if common {
		a[4], a[5] = w24(uc.AttrPlaneMask, pick(0xFFFFFF, 0xFFFFFF, r.Uint32())), w24(uc.AttrROP, 12<<8|0xFF)
		a[8] = w24(uc.AttrZFormat, bit(30)<<22|uint32(l.zpitch))
		a[10], a[11], a[12] = w24(uc.AttrZBiasL, 0), w24(uc.AttrZBiasH, 0), w24(uc.AttrZBiasScaleL, 0)
	}
	// Clip rectangle: whole target or a random box.
	x0, y0, x1, y1 := 0, 0, l.w, l.h
	if bit(40) == 1 {
		x0, y0 = r.IntN(l.w/2), r.IntN(l.h/2)
		x1, y1 = x0+r.IntN(l.w-x0+1), y0+r.IntN(l.h-y0+1)
	}
	a = append(a, w24(uc.AttrClipTB, uint32(y0)<<12|uint32(y1)), w24(uc.AttrClipLR, uint32(x0)<<12|uint32(x1)))
	// Blending: SRC_ALPHA / ONE_MINUS_SRC_ALPHA or random valid selects.
	blend := []uint32{0<<10 | 2<<4, 1<<8 | 1<<6 | 2<<2, 1<<10 | 1<<4, 2<<8 | 1<<6 | 1<<2}
	if !common && bit(50) == 1 {
		sel := func(valid ...uint32) uint32 { return valid[r.IntN(len(valid))] }
		blend = []uint32{
			bit(20)<<16 | uint32(r.IntN(3))<<14 | sel(0, 1, 5, 6, 7)<<10 | uint32(r.IntN(2))<<8 | sel(0, 1, 2, 3, 5, 8)<<4,
			bit(30)<<14 | uint32(r.IntN(3))<<12 | sel(0, 1, 5)<<8 | uint32(r.IntN(2))<<6 | sel(0, 1, 2, 3, 5, 8)<<2,
			bit(20)<<16 | uint32(r.IntN(3))<<14 | sel(0, 1, 2, 5, 7, 8)<<10 | uint32(r.IntN(2))<<8 | sel(0, 1, 2, 8, 9)<<4,
			bit(30)<<14 | uint32(r.IntN(3))<<12 | sel(0, 1, 2, 5, 7, 8)<<8 | uint32(r.IntN(2))<<6 | sel(0, 1, 2, 8, 9)<<2,
		}
	}
	a = append(a, w24(uc.AttrBlendC, blend[0]), w24(uc.AttrBlendCop, blend[1]), w24(uc.AttrBlendA, blend[2]),
		w24(uc.AttrBlendAop, blend[3]), w24(uc.AttrBlendRCa, r.Uint32()), w24(uc.AttrBlendRFCa, r.Uint32()),
		w24(uc.AttrBlendRCb, r.Uint32()), w24(uc.AttrBlendRFCb, r.Uint32()), w24(uc.AttrBlendRAa, r.Uint32()),
		w24(uc.AttrBlendRAb, r.Uint32()))
	s.attr(a...)
	if ntex > 0 {
		s.texGen(uint32(uc.TexGenMode)<<24 | uint32(ntex-1)<<3)
	}
	for n := 0; n < ntex; n++ {
		s.tex(uint8(n), randomTexture(r, l, n)...)
	}
	return ntex
}

// randomTexture returns the register writes of texture n and its
// blending stage.
func randomTexture(r *rand.Rand, l *layout, n int) []uint32 {
	pick := func(vs ...uint32) uint32 { return vs[r.IntN(len(vs))] }
	bit := func(pct int) uint32 {
		if r.IntN(100) < pct {
			return 1
		}
		return 0
	}
	w24 := func(sa uint8, d uint32) uint32 { return uint32(sa)<<24 | d&0xFFFFFF }
	code := uint32(texCodes[r.IntN(len(texCodes))])
	filt := func() uint32 { return bit(60) }
	mag, min := filt(), filt()
	mip := pick(0, 0, 1, 2, 5)
	wrapS, wrapT := pick(0, 1, 2, 2, 3, 4, 7), pick(0, 1, 2, 2, 3, 4, 7)
	wlog, hlog := uint32(r.IntN(7)), uint32(r.IntN(7))
	fast := bit(50) == 1 || texShape && r.IntN(4) != 0
	if fast { // ABGR8888, bilinear, repeat, one level
		code, mag, min, mip, wrapS, wrapT = uint32(uc.TexABGR8888), 1, 1, 0, 2, 2
	}
	magT, minT := mag, min
	if !fast && bit(20) == 1 {
		magT, minT = filt(), filt()
	}
	lvmin := uint32(r.IntN(2))
	lvmax := lvmin + uint32(r.IntN(3))
	if fast {
		lvmin, lvmax = 0, 0
	}
	base := l.tex + uint32(n)*0x20000
	w := []uint32{
		w24(uc.TexFormat, code<<16|bit(20)<<15|bit(20)<<14),
		w24(uc.TexLOD, lvmin|lvmax<<6|uint32(r.IntN(1024))<<12*bit(30)),
		w24(uc.TexFilter, bit(20)<<20|bit(20)<<21|mag<<13|min<<10|magT<<7|minT<<4|mip),
		w24(uc.TexBorder, r.Uint32()), w24(uc.TexTransAlpha, r.Uint32()),
		w24(uc.TexWrapMode, wrapT<<19|wrapS<<16),
		w24(uc.TexLODConst, uint32(r.IntN(4))<<20*bit(30)|uint32(r.IntN(1024))),
	}
	var wl, hl uint32
	for lv := uint32(0); lv < 6; lv++ {
		lw, lh := max(0, int(wlog)-int(lv)), max(0, int(hlog)-int(lv))
		wl |= uint32(lw) << (4 * lv)
		hl |= uint32(lh) << (4 * lv)
		a := base + lv*0x4000
		w = append(w, w24(uc.TexBaseL0+uint8(lv), a), w24(uc.TexPitch0+uint8(lv), 8<<20)) // pitch 256
	}
	w = append(w, w24(uc.TexBaseH012, base>>24|base>>24<<8|base>>24<<16), w24(uc.TexBaseH012+1, base>>24|base>>24<<8|base>>24<<16),
		w24(uc.TexWidth05, wl), w24(uc.TexHeight05, hl))
	// The blending stage: MODULATE (the driver's form), or random valid
	// operands.
	c := uint32(1)<<23 | 4<<14 | 3<<7 // last operand 0
	cop := uint32(2)<<11 | 3<<3 | 2
	al := uint32(1)<<23 | 2<<14 | 4<<7 | 3
	if bit(50) == 1 && !(texShape && r.IntN(4) != 0) {
		csel := func() uint32 {
			if n == 0 {
				return uint32(r.IntN(11))
			}
			return uint32(r.IntN(10))
		}
		asel := func() uint32 {
			if n == 0 {
				return uint32(r.IntN(6))
			}
			return uint32(r.IntN(5))
		}
		mod := func() uint32 { return uint32(r.IntN(3)) }
		c = bit(70)<<23 | mod()<<18 | csel()<<14 | mod()<<11 | csel()<<7 | mod()<<4 | csel()
		cop = uint32(r.IntN(2))<<22 | uint32(r.IntN(5))<<19 | bit(30)<<18 | uint32(r.IntN(10))<<14 | pick(0, 1, 2)<<11 |
			uint32(r.IntN(5))<<7 | bit(30)<<6 | uint32(r.IntN(5))<<3 | pick(0, 1, 2)
		al = bit(70)<<23 | uint32(r.IntN(8))<<20 | mod()<<17 | asel()<<14 | mod()<<10 | asel()<<7 | mod()<<3 | asel()
	}
	w = append(w, w24(uc.TexBlendC, c), w24(uc.TexBlendCop, cop), w24(uc.TexBlendA, al),
		w24(uc.TexBlendRCa, r.Uint32()), w24(uc.TexBlendRCb, r.Uint32()), w24(uc.TexBlendRCc, r.Uint32()),
		w24(uc.TexBlendRCbias, r.Uint32()), w24(uc.TexBlendRAlpha, pick(0, r.Uint32())), w24(uc.TexBlendRFog, pick(0, r.Uint32())))
	return w
}

// plainShape makes randomState and randomList draw only fill-gouraud's
// shape (TestShapePathsMatchReference/plain): triangles with Gouraud colour
// written as it is, rows of constant channels and Z.
var plainShape bool

// texShape makes randomState and randomList draw mostly fill-tex-blend's
// shape (TestShapePathsMatchReference/tex): triangles with one ABGR8888
// bilinear repeat texture, MODULATE, SRC_ALPHA blending into an ABGR8888
// target, most with rows of constant T (texRowModBlendABGR).
var texShape bool

// randomList streams one list of primitives with random vertices.
func randomList(r *rand.Rand, l *layout, s *sb, ntex int) {
	pick := func(vs ...uint32) uint32 { return vs[r.IntN(len(vs))] }
	prim := uc.Prim(pick(uint32(uc.PrimTri), uint32(uc.PrimTri), uint32(uc.PrimTri), uint32(uc.PrimLine), uint32(uc.PrimPoint)))
	shade := uc.Shade(pick(4, 4, 4, 0, 1, 2, 3))
	if plainShape || texShape {
		prim, shade = uc.PrimTri, 4
	}
	mask := uint32(uc.MaskX | uc.MaskY)
	for _, m := range []uint32{uc.MaskZ, uc.MaskW, uc.MaskCd, uc.MaskCs} {
		if r.IntN(100) < 75 {
			mask |= m
		}
	}
	if ntex > 0 {
		mask |= uc.MaskS | uc.MaskT
	}
	cycle := uint32(uc.CycleFull)
	var second uint32
	switch r.IntN(5) + b2i(plainShape || texShape)*5 {
	case 0: // strips and fans as one-vertex cycles
		if prim == uc.PrimTri {
			cycle = uc.CycleAFP | uc.Cycle(uc.VPrevB, uc.VPrevC, uc.VNew)
			second = uc.Cycle(uc.VPrevA, uc.VPrevC, uc.VNew)
		}
	case 1:
		if prim == uc.PrimTri {
			cycle = uc.CycleOne | uc.Cycle(uc.VPrevA, uc.VPrevC, uc.VNew)
		}
	}
	flags := uint32(0)
	if r.IntN(2) == 0 {
		flags |= uc.CmdBCCWBack
	}
	if r.IntN(2) == 0 {
		flags |= uc.CmdBLinePatReset
	}
	if r.IntN(2) == 0 {
		flags |= uc.CmdBLastPixel
	}
	cmdB := uc.CmdBWord(mask, flags, second)
	cmdA := uc.CmdAWord(prim, shade, cycle)
	layout := uc.Layout(cmdB, ntex)
	nv := 1 + r.IntN(9)
	if prim == uc.PrimTri && cycle == uc.CycleFull {
		nv = 3 * (1 + r.IntN(4))
	}
	// A third of the lists are parallel to the screen (one Z: the span
	// path's constant-Z loop) and a third keep one alpha (three colour
	// channels vary).
	flatZ := r.IntN(3) == 0
	z0 := r.Float32()*1.1 - 0.05
	oneAlpha := r.IntN(3) == 0
	alpha := r.Uint32() & 0xFF000000
	// A third of the triangle lists have each triangle's second vertex
	// on its first one's row, sharing the colour channels of hmask (and Z
	// with hz): those attributes vary from row to row only (fill-gouraud's
	// quads: the rows' constant channels, a Z constant along each row).
	hrow := prim == uc.PrimTri && cycle == uc.CycleFull && (r.IntN(3) == 0 || plainShape || texShape)
	hmask := uint32(0)
	for _, c := range r.Perm(4)[:r.IntN(5)] {
		hmask |= 0xFF << (8 * c)
	}
	hz, ht := r.IntN(2) == 0, r.IntN(2) == 0 || texShape && r.IntN(4) != 0 // Z, T shared too
	var py, pz float32
	var pc uint32
	var pt [2]float32
	var verts []uint32
	for i := 0; i < nv; i++ {
		big := r.IntN(3) != 0
		var x, y float32
		if big {
			x, y = r.Float32()*float32(l.w+40)-20, r.Float32()*float32(l.h+40)-20
		} else {
			x, y = float32(l.w/2)+r.Float32()*6, float32(l.h/2)+r.Float32()*6
		}
		second := hrow && i%3 == 1
		if second {
			y = py
		}
		wv := 0.3 + 3*r.Float32()
		for _, c := range layout {
			switch c {
			case uc.CompX:
				verts = append(verts, fl(x))
			case uc.CompY:
				py = y
				verts = append(verts, fl(y))
			case uc.CompZ:
				z := r.Float32()*1.1 - 0.05
				if flatZ {
					z = z0
				}
				if second && hz {
					z = pz
				}
				pz = z
				verts = append(verts, fl(z))
			case uc.CompW:
				verts = append(verts, fl(wv))
			case uc.CompCd:
				c := r.Uint32()
				if oneAlpha {
					c = c&0xFFFFFF | alpha
				}
				if second {
					c = c&^hmask | pc&hmask
				}
				pc = c
				verts = append(verts, data(c))
			case uc.CompCs:
				verts = append(verts, data(r.Uint32()))
			case uc.CompT0, uc.CompT1:
				v := r.Float32()*5 - 2
				if second && ht {
					v = pt[(c-uc.CompT0)>>1]
				}
				pt[(c-uc.CompT0)>>1] = v
				verts = append(verts, fl(v))
			default:
				verts = append(verts, fl(r.Float32()*5-2))
			}
		}
	}
	s.list(cmdB, cmdA, verts...)
	if plainShape && r.IntN(2) == 0 {
		// Again: the stored Z is the drawn Z where the list wrote it.
		s.list(cmdB, cmdA, verts...)
	}
}

// sceneDevice returns a device for random scenes, with the reference
// per-pixel path or the fast one and the given worker count. Devices are
// reused from scene to scene: every scene writes all the state it reads.
func sceneDevice(t testing.TB, reference bool, workers int) *Device {
	d := New()
	t.Cleanup(func() { d.Close() })
	setReference(d, reference)
	d.SetWorkers(workers)
	return d
}

// renderRandomScene runs a scene on d and returns the colour and Z
// buffers, the counters and the submission's error.
func renderRandomScene(t testing.TB, d *Device, l *layout, cmd []byte, mem map[uint32][]byte) ([]byte, []byte, Stats, error) {
	for addr, b := range mem {
		require.NoError(t, d.Write(addr, b))
	}
	st := d.Engine.Stats
	require.NoError(t, d.Write(l.cmd, cmd))
	f, err := d.Submit(hal.Buffer{Addr: l.cmd, Size: uint32(len(cmd))})
	require.NoError(t, err)
	runErr := d.Wait(f)
	fb := make([]byte, l.pitch*l.h)
	z := make([]byte, l.zpitch*l.h)
	require.NoError(t, d.Read(l.fb, fb))
	require.NoError(t, d.Read(l.z, z))
	now := d.Engine.Stats
	return fb, z, Stats{now.Prims - st.Prims, now.Culled - st.Culled, now.Fragments - st.Fragments, now.Written - st.Written}, runErr
}

// TestSpanPathMatchesReference renders random scenes through the fast
// span pipeline and through the per-pixel reference path and compares
// every byte of the colour and Z buffers, the counters and the faults.
func TestSpanPathMatchesReference(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	// Devices carry state from scene to scene (the assembler's previous
	// vertices, the line pattern position): each fast device has a
	// reference twin that sees the same scenes.
	ref := []*Device{sceneDevice(t, true, 1), sceneDevice(t, true, 1)}
	fast := []*Device{sceneDevice(t, false, 1), sceneDevice(t, false, 3)}
	defer setFixForce(0)
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 1))
		// Every fourth scene is on the 256-pixel-wide target, whose rows
		// take several chunks (rowStep's replay from the row start).
		l := &small
		if seed%4 == 3 {
			l = &big
		}
		cmd, mem := randomScene(r, l, 1+r.IntN(5))
		// Every third scene widens the stepped texel coordinates'
		// margin so that many pixels take the exact fallback.
		setFixForce(0)
		if seed%3 == 2 {
			setFixForce(1 << 29)
		}
		fbRef, zRef, cRef, errRef := renderRandomScene(t, ref[seed%2], l, cmd, mem)
		fb, z, c, err := renderRandomScene(t, fast[seed%2], l, cmd, mem)
		require.Equal(t, errRef, err, "seed %d", seed)
		require.Equal(t, cRef, c, "seed %d: counters", seed)
		require.True(t, bytes.Equal(fbRef, fb), "seed %d: colour buffer differs at byte %d", seed, firstDiff(fbRef, fb))
		require.True(t, bytes.Equal(zRef, z), "seed %d: Z buffer differs at byte %d", seed, firstDiff(zRef, z))
	}
}

// TestShapePathsMatchReference is TestSpanPathMatchesReference for one
// benchmark scene's shape at a time, with a third of the scenes under a
// margin wide enough to send much of the work back to the exact path:
//   - plain, fill-gouraud's shape (plainShape): the fused colour words
//     (packRun, one to four channels, the rows' constant channels) and the
//     constant-Z loop (constZChunk), many chunks sent back to run8;
//   - tex, fill-tex-blend's shape (texShape): the fused bilinear, MODULATE
//     and blend loops (texModBlendABGR, texRowModBlendABGR), many pixels
//     sent to the exact texel coordinates.
func TestShapePathsMatchReference(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	for _, tc := range []struct {
		name   string
		shape  *bool
		stream uint64
		margin uint32
	}{
		{"plain", &plainShape, 3, 1 << 22},
		{"tex", &texShape, 5, 1 << 29},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref, fast := sceneDevice(t, true, 1), sceneDevice(t, false, 2)
			*tc.shape = true
			defer func() { *tc.shape = false; setFixForce(0) }()
			for seed := uint64(0); seed < uint64(n); seed++ {
				r := rand.New(rand.NewPCG(seed, tc.stream))
				l := &small
				if seed%2 == 1 {
					l = &big
				}
				cmd, mem := randomScene(r, l, 1+r.IntN(4))
				setFixForce(0)
				if seed%3 == 2 {
					setFixForce(tc.margin)
				}
				fbRef, zRef, cRef, errRef := renderRandomScene(t, ref, l, cmd, mem)
				fb, z, c, err := renderRandomScene(t, fast, l, cmd, mem)
				require.Equal(t, errRef, err, "seed %d", seed)
				require.Equal(t, cRef, c, "seed %d: counters", seed)
				require.True(t, bytes.Equal(fbRef, fb), "seed %d: colour buffer differs at byte %d", seed, firstDiff(fbRef, fb))
				require.True(t, bytes.Equal(zRef, z), "seed %d: Z buffer differs at byte %d", seed, firstDiff(zRef, z))
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestWorkersSameBytes renders random scenes on a 256x160 target with 1,
// 2, 3 and 8 workers, through both paths, and compares every byte.
func TestWorkersSameBytes(t *testing.T) {
	devs := map[bool][]*Device{}
	for _, ref := range []bool{false, true} {
		for _, n := range []int{1, 2, 3, 8} {
			devs[ref] = append(devs[ref], sceneDevice(t, ref, n))
		}
	}
	for seed := uint64(0); seed < 10; seed++ {
		r := rand.New(rand.NewPCG(seed, 2))
		cmd, mem := randomScene(r, &big, 2+r.IntN(4))
		for _, ref := range []bool{false, true} {
			fb1, z1, c1, err1 := renderRandomScene(t, devs[ref][0], &big, cmd, mem)
			for i, n := range []int{2, 3, 8} {
				fb, z, c, err := renderRandomScene(t, devs[ref][i+1], &big, cmd, mem)
				require.Equal(t, err1, err, "seed %d, %d workers", seed, n)
				require.Equal(t, c1, c, "seed %d, %d workers", seed, n)
				require.True(t, bytes.Equal(fb1, fb), "seed %d, %d workers: colour differs at byte %d", seed, n, firstDiff(fb1, fb))
				require.True(t, bytes.Equal(z1, z), "seed %d, %d workers: Z differs at byte %d", seed, n, firstDiff(z1, z))
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// setReference selects the per-pixel reference path on d.
func setReference(d *Device, on bool) { d.Engine.reference = on }
