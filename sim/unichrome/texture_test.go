package unichrome

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// texReplace programs texture 0 (one level at texBase unless levels are
// given) and a REPLACE stage: Ca = Inv(0) = 1, Cb = Ctex, Cc = 0; alpha
// Aa = Inv(constant 0), Ab = Atex, Ac = constant 0.
func texReplace(code uint8, wlog, hlog, pite int, extra ...uint32) []uint32 {
	w := []uint32{
		tx("HTXnL0BasL", "addr", texBase&0xFFFFFF), tx("HTXnL012BasH", "l0", texBase>>24),
		tx("HTXnL0Pit", "pite", pite), tx("HTXnL0_5WE", "l0", wlog), tx("HTXnL0_5HE", "l0", hlog),
		tx("HTXnL0OS", "lvmax", 0, "lvmin", 0), tx("HTXnTB"), tx("HTXnMPMD", "s", "REPEAT", "t", "REPEAT"),
		tx("HTXnFM", "fmt", code),
		tx("HTXnTBLCsat", "sat", true, "ca_mod", "INV", "ca", "ZERO", "cb", "TEX", "cc", "ZERO"),
		tx("HTXnTBLCop", "cshift", "X1", "ashift", "X1", "abias", "CONST"),
		tx("HTXnTBLAsat", "sat", true, "aa_mod", "INV", "aa", "CONST", "ab", "ATEX", "ac", "CONST"),
		tx("HTXnTBLRAa"), tx("HTXnTBLRFog"),
	}
	return append(w, extra...)
}

const maskTex = uc.MaskX | uc.MaskY | uc.MaskZ | uc.MaskCd | uc.MaskS | uc.MaskT

func texPoint(x, y, s, t float32) []uint32 {
	return []uint32{fl(x), fl(y), fl(0), 0xFFFFFFFF, fl(s), fl(t)}
}

// sampleAt draws one textured point at pixel (0, 0) with (s, t).
func sampleAt(t *testing.T, data []byte, pal []uint32, texWords []uint32, s, tt float32) [4]uint8 {
	d := newDev(t)
	clear(t, d, [4]uint8{}, 0, 0)
	require.NoError(t, d.Write(texBase, data))
	st := surfaceSetup("txmp", true)
	if pal != nil {
		st.put(uc.Header2, uc.TransSet(uc.TypePalette, uc.SubTexPalette, 0, 0)).put(pal...)
	}
	st.texGen(uc.Named(uc.SpaceTexGen, "HTXSMD").Word("txnum", "ONE")).tex(0, texWords...)
	st.list(uc.CmdBWord(maskTex, 0, 0), uc.CmdAWord(uc.PrimPoint, uc.ShadeGouraud, uc.CycleFull), texPoint(0.5, 0.5, s, tt)...)
	mustRun(t, d, st)
	return pixel(t, d, 0, 0)
}

func TestTexelFormats(t *testing.T) {
	c := uc.TexCode
	for _, tc := range []struct {
		name string
		code uint8
		inv  bool
		zext bool
		data []byte
		pal  []uint32
		s    float32
		want [4]uint8
	}{
		{"ABGR8888", uc.TexABGR8888, false, false, []byte{0x11, 0x22, 0x33, 0x44}, nil, 0.25, [4]uint8{0x11, 0x22, 0x33, 0x44}},
		{"ARGB8888", c(uc.GroupARGB32, 1), false, false, []byte{0x33, 0x22, 0x11, 0x44}, nil, 0.25, [4]uint8{0x11, 0x22, 0x33, 0x44}},
		{"ARGB0888", c(uc.GroupARGB32, 0), false, false, []byte{0x33, 0x22, 0x11, 0x00}, nil, 0.25, [4]uint8{0x11, 0x22, 0x33, 0xFF}},
		{"RGBA8888", c(uc.GroupRGBA32, 1), false, false, []byte{0x44, 0x33, 0x22, 0x11}, nil, 0.25, [4]uint8{0x11, 0x22, 0x33, 0x44}},
		{"BGRA8888", c(uc.GroupBGRA32, 1), false, false, []byte{0x44, 0x11, 0x22, 0x33}, nil, 0.25, [4]uint8{0x11, 0x22, 0x33, 0x44}},
		{"RGB565 red", uc.TexRGB565, false, false, []byte{0x00, 0xF8}, nil, 0.25, [4]uint8{255, 0, 0, 255}},
		{"RGB565 replicate", uc.TexRGB565, false, false, []byte{0x10, 0x84}, nil, 0.25, [4]uint8{0x84, 0x82, 0x84, 255}},
		{"RGB565 zero fill", uc.TexRGB565, false, true, []byte{0x10, 0x84}, nil, 0.25, [4]uint8{0x80, 0x80, 0x80, 255}},
		{"ARGB1555", c(uc.GroupARGB16, 2), false, false, []byte{0x00, 0xFC}, nil, 0.25, [4]uint8{255, 0, 0, 255}},
		{"ARGB4444", c(uc.GroupARGB16, 3), false, false, []byte{0x0F, 0xF0}, nil, 0.25, [4]uint8{0, 0, 255, 255}},
		{"ABGR4444", c(uc.GroupABGR16, 3), false, false, []byte{0x0F, 0xF0}, nil, 0.25, [4]uint8{255, 0, 0, 255}},
		{"RGBA4444", uc.TexRGBA4444, false, false, []byte{0x34, 0x12}, nil, 0.25, [4]uint8{0x11, 0x22, 0x33, 0x44}},
		{"RGBA5551", uc.TexRGBA5551, false, false, []byte{0x01, 0xF8}, nil, 0.25, [4]uint8{255, 0, 0, 255}},
		{"L8", uc.TexL8, false, false, []byte{0x80}, nil, 0.25, [4]uint8{0x80, 0x80, 0x80, 255}},
		{"A8", uc.TexA8, false, false, []byte{0x80}, nil, 0.25, [4]uint8{0, 0, 0, 0x80}},
		{"AL88", uc.TexAL88, false, false, []byte{0xFF, 0x80}, nil, 0.25, [4]uint8{0xFF, 0xFF, 0xFF, 0x80}},
		{"AL44", c(uc.GroupLuminance, 4), false, false, []byte{0x8F}, nil, 0.25, [4]uint8{0xFF, 0xFF, 0xFF, 0x88}},
		{"T8", c(uc.GroupIntensity, 3), false, false, []byte{0x40}, nil, 0.25, [4]uint8{0x40, 0x40, 0x40, 0x40}},
		{"L4 texel 0 is the low nibble", c(uc.GroupLuminance, 2), false, false, []byte{0x5A}, nil, 0.25, [4]uint8{0xAA, 0xAA, 0xAA, 255}},
		{"L4 inverted order", c(uc.GroupLuminance, 2), true, false, []byte{0x5A}, nil, 0.25, [4]uint8{0x55, 0x55, 0x55, 255}},
		{"A1", c(uc.GroupAlpha, 0), false, false, []byte{0x01}, nil, 0.25, [4]uint8{0, 0, 0, 255}},
		{"I8", uc.TexI8, false, false, []byte{0x01}, []uint32{0, 0x80FF0000}, 0.25, [4]uint8{255, 0, 0, 0x80}},
		{"I4", uc.TexI4, false, false, []byte{0x21}, []uint32{0, 0x11223344, 0x55667788}, 0.25, [4]uint8{0x22, 0x33, 0x44, 0x11}},
		{"I4 inverted", uc.TexI4, true, false, []byte{0x21}, []uint32{0, 0x11223344, 0x55667788}, 0.25, [4]uint8{0x66, 0x77, 0x88, 0x55}},
		{"I2 texel 1", c(uc.GroupIndex, 1), false, false, []byte{0x0C}, []uint32{0, 0, 0, 0xFF0000FF}, 0.75, [4]uint8{0, 0, 255, 255}},
		// DXT1: c0 red, c1 blue, texel 0 index 0, texel 1 index 2 (2/3 red).
		{"DXT1", uc.TexDXT1, false, false, []byte{0x00, 0xF8, 0x1F, 0x00, 0x08, 0, 0, 0}, nil, 0.125, [4]uint8{255, 0, 0, 255}},
		{"DXT1 2/3", uc.TexDXT1, false, false, []byte{0x00, 0xF8, 0x1F, 0x00, 0x08, 0, 0, 0}, nil, 0.375, [4]uint8{170, 0, 85, 255}},
		// DXT1 with c0 <= c1: index 3 is transparent black.
		{"DXT1 punch-through", uc.TexDXT1, false, false, []byte{0x1F, 0x00, 0x00, 0xF8, 0x03, 0, 0, 0}, nil, 0.125, [4]uint8{0, 0, 0, 0}},
		{"DXT3 alpha nibble", uc.TexDXT3, false, false, []byte{0x07, 0, 0, 0, 0, 0, 0, 0, 0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0}, nil, 0.125, [4]uint8{255, 0, 0, 0x77}},
		{"DXT5 alpha", uc.TexDXT5, false, false, []byte{0x80, 0x00, 0x01, 0, 0, 0, 0, 0, 0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0}, nil, 0.125, [4]uint8{255, 0, 0, 0x00}},
	} {
		wlog, pite := 1, 3
		if tc.code>>3 == uc.GroupDXT {
			wlog, pite = 2, 3
		}
		fm := tx("HTXnFM", "fmt", tc.code, "inv124", tc.inv, "zext", tc.zext)
		got := sampleAt(t, append(tc.data, make([]byte, 64)...), tc.pal, texReplace(tc.code, wlog, 0, pite, fm), tc.s, 0.5)
		assert.Equal(t, tc.want, got, tc.name)
	}
}

func TestTextureSampling(t *testing.T) {
	// 2x2 ABGR8888: red, green / blue, white.
	tex := []byte{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255}
	red, green, blue := [4]uint8{255, 0, 0, 255}, [4]uint8{0, 255, 0, 255}, [4]uint8{0, 0, 255, 255}
	linear := tx("HTXnTB", "mag_s", "LINEAR", "mag_t", "LINEAR")
	border := [4]uint8{1, 2, 3, 4}
	for _, tc := range []struct {
		name  string
		words []uint32
		s, t  float32
		want  [4]uint8
	}{
		{"nearest 0,0", nil, 0.25, 0.25, red},
		{"nearest 1,0", nil, 0.75, 0.25, green},
		{"nearest 0,1", nil, 0.25, 0.75, blue},
		{"bilinear half", []uint32{linear}, 0.5, 0.25, [4]uint8{128, 128, 0, 255}},
		{"repeat", nil, 1.25, 0.25, red},
		{"repeat negative", nil, -0.25, 0.25, green},
		{"clamp", []uint32{tx("HTXnMPMD", "s", "CLAMP", "t", "CLAMP")}, 1.25, 0.25, green},
		{"single = clamp", []uint32{tx("HTXnMPMD", "s", "SINGLE", "t", "CLAMP")}, -3, 0.25, red},
		{"mirror", []uint32{tx("HTXnMPMD", "s", "MIRROR", "t", "REPEAT")}, 1.25, 0.25, green},
		{"mirror negative", []uint32{tx("HTXnMPMD", "s", "MIRROR", "t", "REPEAT")}, -0.25, 0.25, red},
		{"mirror once", []uint32{tx("HTXnMPMD", "s", "MIRROR_ONCE", "t", "REPEAT")}, -0.75, 0.25, green},
		{"warp = repeat", []uint32{tx("HTXnMPMD", "s", "WARP", "t", "REPEAT")}, 1.25, 0.25, red},
		{"border colour", []uint32{tx("HTXnMPMD", "s", "CLAMP", "t", "CLAMP"), tx("HTXnTB", "border", 1),
			tx("HTXnTBC", "r", 1, "g", 2, "b", 3), tx("HTXnTRAH", "border_a", 4)}, 1.25, 0.25, border},
	} {
		got := sampleAt(t, tex, nil, texReplace(uc.TexABGR8888, 1, 1, 3, tc.words...), tc.s, tc.t)
		assert.Equal(t, tc.want, got, tc.name)
	}
}

// TestMipmaps: level 0 (4x4 red) and level 1 (2x2 green); s runs 0..1
// over wpix pixels, so rho = 4/wpix texels per pixel.
func TestMipmaps(t *testing.T) {
	red := make([]byte, 64)
	for i := 0; i < 16; i++ {
		copy(red[4*i:], []byte{255, 0, 0, 255})
	}
	green := make([]byte, 16)
	for i := 0; i < 4; i++ {
		copy(green[4*i:], []byte{0, 255, 0, 255})
	}
	const l1 = texBase + 0x100
	levels := func(mip string, l0os int) []uint32 {
		return texReplace(uc.TexABGR8888, 2, 2, 4,
			tx("HTXnL1BasL", "addr", l1&0xFFFFFF), tx("HTXnL012BasH", "l0", texBase>>24, "l1", l1>>24),
			tx("HTXnL1Pit", "pite", 3), tx("HTXnL0_5WE", "l0", 2, "l1", 1), tx("HTXnL0_5HE", "l0", 2, "l1", 1),
			tx("HTXnL0OS", "lvmax", 1, "lvmin", 0, "l0os", l0os),
			tx("HTXnTB", "mip", mip))
	}
	draw := func(words []uint32, wpix float32) [4]uint8 {
		d := newDev(t)
		clear(t, d, [4]uint8{}, 0, 0)
		require.NoError(t, d.Write(texBase, red))
		require.NoError(t, d.Write(l1, green))
		s := surfaceSetup("txmp", true).texGen(uc.Named(uc.SpaceTexGen, "HTXSMD").Word("txnum", "ONE")).tex(0, words...)
		v := func(x, y, ss float32) []uint32 { return []uint32{fl(x), fl(y), fl(0), 0xFFFFFFFF, fl(ss), fl(0.5)} }
		s.list(uc.CmdBWord(maskTex, 0, 0), triA(), cat(v(0, 0, 0), v(wpix, 0, 1), v(0, 64, 0))...)
		mustRun(t, d, s)
		return pixel(t, d, 0, 0)
	}
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, draw(levels("NEAREST", 0), 4), "rho 1: magnify level 0")
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, draw(levels("NEAREST", 0), 2), "rho 2: level 1")
	assert.Equal(t, [4]uint8{255, 0, 0, 255}, draw(levels("LEVEL0", 0), 2), "level 0 only")
	// L0OS +0.5 (16/32) at rho 1: linear mip halfway.
	assert.Equal(t, [4]uint8{128, 128, 0, 255}, draw(levels("LINEAR", 16), 4), "linear mip")
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, draw(levels("LINEAR", 0), 1), "rho 4 clamps to LVmax")
}

// TestStages runs the blending stage on literal register words (Mesa's
// recipes, guide §3.3) and hand-computed results.
func TestStages(t *testing.T) {
	in := stageIn{dif: [4]int{100, 128, 255, 200}, tex: [4]int{200, 128, 0, 128}, fog: 77}
	in.cur = in.dif
	for _, tc := range []struct {
		name     string
		c, op, a uint32
		regs     map[uint8]uint32
		want     [4]int
	}{
		// MODULATE: Ca = tex, Cb = dif; alpha Aa = Atex, Ab = Adif, Ac = 0.
		{"modulate", 0x800000 | 3<<14 | 1<<7, 2<<11 | 3<<3 | 2, 0x800000 | 4<<14 | 0<<7 | 3,
			nil, [4]int{(200*100 + 127) / 255, (128*128 + 127) / 255, 0, (128*200 + 127) / 255}},
		// REPLACE: Ca = Inv(0) = 1, Cb = tex.
		{"replace", 0x800000 | 0x10<<14 | 3<<7, 2<<11 | 3<<3 | 2, 0x800000 | 0x0B<<14 | 4<<7 | 3,
			nil, [4]int{200, 128, 0, 128}},
		// ADD x2 saturating: (1*(dif + tex)) << 1.
		{"add x2", 0x800000 | 0x10<<14 | 1<<7 | 3, 0<<11 | 3<<3 | 2, 0x800000 | 0x0B<<14 | 0<<7 | 4,
			nil, [4]int{255, 255, 255, 255}},
		// SUBTRACT without saturation wraps: dif - tex.
		{"subtract wraps", 0x10<<14 | 1<<7 | 3, 1<<19 | 2<<11 | 1<<7 | 3<<3 | 2, 0x0B<<14 | 0<<7 | 4,
			nil, [4]int{(100 - 200) & 255, 0, 255, 72}},
		// INTERPOLATE(tex, dif, Atex) = Atex*(tex - dif) + dif.
		{"interpolate", 0x800000 | 7<<14 | 3<<7 | 1, 1<<19 | 1<<14 | 2<<11 | 3<<3 | 2, 0x800000 | 0x0B<<14 | 4<<7 | 3,
			nil, [4]int{(128*100+127)/255 + 100, 128, (128*(-255)-127)/255 + 255, 128}},
		// ADD_SIGNED: tex + dif - 0.5 with bias register 0xC0 (-128).
		{"add signed", 0x800000 | 0x10<<14 | 3<<7 | 1, 9<<14 | 2<<11 | 3<<3 | 2, 0x800000 | 0x0B<<14 | 4<<7 | 3,
			map[uint8]uint32{uc.TexBlendRCbias: 0xC0C0C0}, [4]int{172, 128, 127, 128}},
		// Constant operand and x4 shift: Ca = 1, Cb = RCb (0x10,0x20,0x40).
		{"constant x4", 0x800000 | 0x10<<14 | 9<<7, 1<<11 | 3<<3 | 2, 0x800000 | 0x0B<<14 | 4<<7 | 3,
			map[uint8]uint32{uc.TexBlendRCb: 0x102040}, [4]int{0x40, 0x80, 0xFF, 128}},
		// MASK: Atex = 128 has bit 7 set: Cout = Ca*Cb = tex*1.
		{"mask bit 7", 0x800000 | 0x10<<14 | 3<<7 | 1, 4<<19 | 2<<11 | 3<<3 | 2, 0x800000 | 7<<20 | 0x0B<<14 | 4<<7 | 3,
			nil, [4]int{200, 128, 0, 128}},
		{"mask bit 0", 0x800000 | 0x10<<14 | 3<<7 | 1, 4<<19 | 2<<11 | 3<<3 | 2, 0x800000 | 0<<20 | 0x0B<<14 | 4<<7 | 3,
			nil, [4]int{100, 128, 255, 128}},
		// Fog as an operand; modifier on Cc.
		{"fog and x-0.5", 0x800000 | 0x10<<14 | 6<<7 | 0x21, 2<<11 | 3<<3 | 2, 0x800000 | 0x0B<<14 | 1<<7 | 3,
			nil, [4]int{77 + 100 - 128, 77, 77 + 255 - 128, 77}},
	} {
		var r [256]uint32
		r[uc.TexBlendC], r[uc.TexBlendCop], r[uc.TexBlendA] = tc.c, tc.op, tc.a
		for k, v := range tc.regs {
			r[k] = v
		}
		st, err := compileStage(0, &r)
		require.NoError(t, err, tc.name)
		i := in
		assert.Equal(t, tc.want, st.eval(&i), tc.name)
	}
	// Reserved codes are refused.
	for _, r := range []map[uint8]uint32{
		{uc.TexBlendC: 11 << 14},
		{uc.TexBlendCop: 3 << 22},
		{uc.TexBlendCop: 3 << 11},
		{uc.TexBlendA: 6 << 14},
		{uc.TexBlendCop: 10 << 14},
	} {
		var regs [256]uint32
		for k, v := range r {
			regs[k] = v
		}
		_, err := compileStage(0, &regs)
		assert.Error(t, err, "%v", r)
	}
	var regs [256]uint32
	regs[uc.TexBlendC] = 10 // TEX_NEXT on stage 1
	_, err := compileStage(1, &regs)
	assert.ErrorContains(t, err, "TEX_NEXT")
}
