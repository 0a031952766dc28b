package unichrome

import (
	"testing"

	"github.com/stretchr/testify/assert"

	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// blendAdd programs ONE/ONE additive blending: factors are Inv(constant 0).
func blendAdd() []uint32 {
	return []uint32{
		a("HABLCsat", "ca", "SRC", "fca_mod", "INV", "fca", "CONST"),
		a("HABLCop", "cb", "DST", "fcb_mod", "INV", "fcb", "CONST"),
		a("HABLAsat", "aa", "ASRC", "faa_mod", "INV", "faa", "ZERO"),
		a("HABLAop", "ab", "ADST", "fab_mod", "INV", "fab", "ZERO"),
		a("HABLRFCa"), a("HABLRFCb"),
	}
}

// TestFillRuleSharedEdge draws a quad as two triangles with additive
// blending: every pixel is covered exactly once (top-left rule).
func TestFillRuleSharedEdge(t *testing.T) {
	d := newDev(t)
	clear(t, d, [4]uint8{0, 0, 0, 0}, 0, 0)
	s := surfaceSetup("abl", true).attr(blendAdd()...)
	c := uint32(0x10101010)
	// A skewed quad with sub-pixel corners.
	p := [4][2]float32{{3.3, 2.1}, {60.7, 5.9}, {55.2, 61.4}, {1.1, 50.03}}
	s.list(cmdB(), triA(), cat(
		vtx(p[0][0], p[0][1], 0, c), vtx(p[1][0], p[1][1], 0, c), vtx(p[2][0], p[2][1], 0, c),
		vtx(p[0][0], p[0][1], 0, c), vtx(p[2][0], p[2][1], 0, c), vtx(p[3][0], p[3][1], 0, c))...)
	mustRun(t, d, s)
	counts := map[uint8]int{}
	for y := 0; y < tH; y++ {
		for x := 0; x < tW; x++ {
			counts[pixel(t, d, x, y)[0]]++
		}
	}
	assert.Len(t, counts, 2, "only 0 and 0x10: no pixel drawn twice: %v", counts)
	assert.Zero(t, counts[0x20])
	assert.Equal(t, 2, d.Engine.Stats.Prims)
}

// TestSubPixelAndCentre checks the 28.4 snap and HPixGC: a square from
// (0.25, 0.25) to (3.75, 3.75) covers 4x4 pixels with centres at .5 and
// the 3x3 whose integer centres lie inside with HPixGC = 1; a vertex at
// 10.03 snaps to 10.0.
func TestSubPixelAndCentre(t *testing.T) {
	count := func(center string, lo, hi float32) int {
		d := newDev(t)
		clear(t, d, [4]uint8{}, 0, 0)
		s := surfaceSetup().attr(a("HPixGC", "center", center))
		c := uint32(0xFFFFFFFF)
		s.list(cmdB(), triA(), cat(vtx(lo, lo, 0, c), vtx(hi, lo, 0, c), vtx(hi, hi, 0, c),
			vtx(lo, lo, 0, c), vtx(hi, hi, 0, c), vtx(lo, hi, 0, c))...)
		mustRun(t, d, s)
		n := 0
		for y := 0; y < 16; y++ {
			for x := 0; x < 16; x++ {
				if pixel(t, d, x, y)[0] != 0 {
					n++
				}
			}
		}
		return n
	}
	assert.Equal(t, 16, count("CENTER_HALF", 0.25, 3.75))
	assert.Equal(t, 9, count("CENTER_INT", 0.25, 3.75))
	assert.Equal(t, count("CENTER_HALF", 2, 10), count("CENTER_HALF", 2, 10.03), "10.03 snaps to 10")
	assert.Equal(t, 64, count("CENTER_HALF", 2, 10))
}

// TestGouraud checks interpolation against hand-computed values: red runs
// 0 -> 255 over 64 pixels in x, so pixel x reads round(255 (x + 0.5)/64).
func TestGouraud(t *testing.T) {
	d := newDev(t)
	clear(t, d, [4]uint8{}, 0, 0)
	s := surfaceSetup()
	s.list(cmdB(), triA(), cat(vtx(0, 0, 0, 0xFF000000), vtx(64, 0, 0, 0xFFFF0000), vtx(0, 64, 0, 0xFF000000))...)
	mustRun(t, d, s)
	for _, tc := range []struct{ x, y, r int }{
		{0, 0, 2},    // 255*0.5/64 = 1.99
		{31, 0, 126}, // 255*31.5/64 = 125.5
		{62, 0, 249}, // 255*62.5/64 = 249.02
		{10, 20, 42}, // 255*10.5/64 = 41.8
	} {
		assert.Equal(t, uint8(tc.r), pixel(t, d, tc.x, tc.y)[0], "pixel %d,%d", tc.x, tc.y)
	}
}

// TestShadingModes: solid takes 7Ah/7Bh, flat A/B/C the named vertex.
func TestShadingModes(t *testing.T) {
	for _, tc := range []struct {
		shade uc.Shade
		want  [4]uint8
	}{
		{uc.ShadeSolid, [4]uint8{0x12, 0x34, 0x56, 0x78}},
		{uc.ShadeFlatA, [4]uint8{255, 0, 0, 255}},
		{uc.ShadeFlatB, [4]uint8{0, 255, 0, 255}},
		{uc.ShadeFlatC, [4]uint8{0, 0, 255, 255}},
	} {
		d := newDev(t)
		clear(t, d, [4]uint8{}, 0, 0)
		s := surfaceSetup().attr(a("HSolidCL", "r", 0x12, "g", 0x34, "b", 0x56), a("HPixGC", "a", 0x78))
		s.list(cmdB(), uc.CmdAWord(uc.PrimTri, tc.shade, uc.CycleFull),
			cat(vtx(0, 0, 0, 0xFFFF0000), vtx(64, 0, 0, 0xFF00FF00), vtx(0, 64, 0, 0xFF0000FF))...)
		mustRun(t, d, s)
		assert.Equal(t, tc.want, pixel(t, d, 10, 10), "shade %d", tc.shade)
	}
}

// drawStrip renders six vertices with a cycle setting and returns the
// colour buffer.
func render(t *testing.T, s *sb) []byte {
	d := newDev(t)
	clear(t, d, [4]uint8{}, 0, 0)
	mustRun(t, d, s)
	b := make([]byte, colPitch*tH)
	assert.NoError(t, d.Read(colBase, b))
	return b
}

// TestVertexCycles: the AFP strip and fan recipes (guide §1.6) draw the
// same pixels as the independent triangles GL's strip and fan make.
func TestVertexCycles(t *testing.T) {
	v := [][]uint32{
		vtx(2, 2, 0, 0xFFFF0000), vtx(20, 4, 0, 0xFF00FF00), vtx(4, 30, 0, 0xFF0000FF),
		vtx(28, 26, 0, 0xFFFFFF00), vtx(10, 60, 0, 0xFF00FFFF), vtx(50, 50, 0, 0xFFFF00FF),
	}
	tri := func(i, j, k int) []uint32 { return cat(v[i], v[j], v[k]) }
	strip := surfaceSetup()
	strip.list(uc.CmdBWord(maskXYZC, 0, uc.StripEven), uc.CmdAWord(uc.PrimTri, uc.ShadeGouraud, uc.StripOdd), cat(v...)...)
	indep := surfaceSetup()
	indep.list(cmdB(), triA(), cat(tri(0, 1, 2), tri(2, 1, 3), tri(2, 3, 4), tri(4, 3, 5))...)
	assert.Equal(t, render(t, indep), render(t, strip), "strip")

	fan := surfaceSetup()
	fan.list(uc.CmdBWord(maskXYZC, 0, uc.FanEven), uc.CmdAWord(uc.PrimTri, uc.ShadeGouraud, uc.FanOdd), cat(v...)...)
	indep = surfaceSetup()
	indep.list(cmdB(), triA(), cat(tri(0, 1, 2), tri(0, 2, 3), tri(0, 3, 4), tri(0, 4, 5))...)
	assert.Equal(t, render(t, indep), render(t, fan), "fan")

	// One-vertex cycle: every primitive uses Command A's setting.
	one := surfaceSetup()
	one.list(cmdB(), uc.CmdAWord(uc.PrimTri, uc.ShadeGouraud, uc.CycleOne|uc.Cycle(uc.VPrevA, uc.VPrevC, uc.VNew)),
		cat(v[:3]...)...) // the first primitive has no previous: a, b read the reset zero vertex
	d := newDev(t)
	clear(t, d, [4]uint8{}, 0, 0)
	mustRun(t, d, one)
	assert.Equal(t, 3, d.Engine.Stats.Prims)

	lines := surfaceSetup()
	lines.list(uc.CmdBWord(maskXYZC, 0, uc.LineStripEven), uc.CmdAWord(uc.PrimLine, uc.ShadeGouraud, uc.LineStripOdd), cat(v[:4]...)...)
	indep = surfaceSetup()
	indep.list(cmdB(), uc.CmdAWord(uc.PrimLine, uc.ShadeGouraud, uc.CycleFull), cat(v[0], v[1], v[1], v[2], v[2], v[3])...)
	assert.Equal(t, render(t, indep), render(t, lines), "line strip")
}

// TestCulling: HBFace = 0 culls clockwise input (on the y-down screen),
// 1 counter-clockwise.
func TestCulling(t *testing.T) {
	cw := cat(vtx(0, 0, 0, 0xFFFFFFFF), vtx(64, 0, 0, 0xFFFFFFFF), vtx(0, 64, 0, 0xFFFFFFFF))
	ccw := cat(vtx(0, 0, 0, 0xFFFFFFFF), vtx(0, 64, 0, 0xFFFFFFFF), vtx(64, 0, 0, 0xFFFFFFFF))
	for _, tc := range []struct {
		name  string
		verts []uint32
		bface uint32
		drawn bool
	}{
		{"cw, cw is back", cw, 0, false},
		{"ccw, cw is back", ccw, 0, true},
		{"cw, ccw is back", cw, uc.CmdBCCWBack, true},
		{"ccw, ccw is back", ccw, uc.CmdBCCWBack, false},
	} {
		d := newDev(t)
		clear(t, d, [4]uint8{}, 0, 0)
		s := surfaceSetup("bfcull", true)
		s.list(uc.CmdBWord(maskXYZC, tc.bface, 0), triA(), tc.verts...)
		mustRun(t, d, s)
		assert.Equal(t, tc.drawn, pixel(t, d, 5, 5)[0] == 255, tc.name)
	}
}

// TestClipRect: top/left inclusive, bottom/right exclusive.
func TestClipRect(t *testing.T) {
	d := newDev(t)
	clear(t, d, [4]uint8{}, 0, 0)
	s := surfaceSetup().attr(a("HClipTB", "top", 5, "bottom", 15), a("HClipLR", "left", 10, "right", 20))
	c := uint32(0xFFFFFFFF)
	s.list(cmdB(), triA(), cat(vtx(-10, -10, 0, c), vtx(200, -10, 0, c), vtx(-10, 200, 0, c))...)
	mustRun(t, d, s)
	n := 0
	for y := 0; y < tH; y++ {
		for x := 0; x < tW; x++ {
			in := x >= 10 && x < 20 && y >= 5 && y < 15
			assert.Equal(t, in, pixel(t, d, x, y)[0] == 255, "pixel %d,%d", x, y)
			if in {
				n++
			}
		}
	}
	assert.Equal(t, 100, n)
}

// TestLinesAndPoints: lines run along the major axis from the first
// vertex's pixel, the last pixel only with HLLastP; points cover the pixel
// that holds them; the line pattern skips pixels.
func TestLinesAndPoints(t *testing.T) {
	set := func(d *Device, y int) []int {
		var xs []int
		for x := 0; x < tW; x++ {
			if pixel(t, d, x, y)[0] != 0 {
				xs = append(xs, x)
			}
		}
		return xs
	}
	lineA := uc.CmdAWord(uc.PrimLine, uc.ShadeGouraud, uc.CycleFull)
	c := uint32(0xFFFFFFFF)
	for _, tc := range []struct {
		name  string
		flags uint32
		attrs []uint32
		want  []int
	}{
		{"plain", 0, nil, []int{2, 3, 4, 5, 6, 7, 8, 9}},
		{"last pixel", uc.CmdBLastPixel, nil, []int{2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{"pattern", 0, []uint32{a("HEnable", "cw", true, "lp", true), a("HLP", "pattern", 0x5555), a("HLPRF", "repeat", 1)}, []int{2, 4, 6, 8}},
		{"pattern x2", 0, []uint32{a("HEnable", "cw", true, "lp", true), a("HLP", "pattern", 0x5555), a("HLPRF", "repeat", 2)}, []int{2, 3, 6, 7}},
	} {
		d := newDev(t)
		clear(t, d, [4]uint8{}, 0, 0)
		s := surfaceSetup()
		if tc.attrs != nil {
			s.attr(tc.attrs...)
		}
		s.list(uc.CmdBWord(maskXYZC, tc.flags, 0), lineA, cat(vtx(2.5, 5.5, 0, c), vtx(10.5, 5.7, 0, c))...)
		mustRun(t, d, s)
		assert.Equal(t, tc.want, set(d, 5), tc.name)
	}
	// A steep line walks rows; a point covers its pixel.
	d := newDev(t)
	clear(t, d, [4]uint8{}, 0, 0)
	s := surfaceSetup()
	s.list(uc.CmdBWord(maskXYZC, 0, 0), lineA, cat(vtx(30.5, 10.2, 0, c), vtx(31.5, 14.9, 0, c))...)
	s.list(cmdB(), uc.CmdAWord(uc.PrimPoint, uc.ShadeGouraud, uc.CycleFull), cat(vtx(3.7, 40.2, 0, c))...)
	mustRun(t, d, s)
	for y := 10; y < 14; y++ {
		assert.NotEqual(t, uint8(0), pixel(t, d, 30, y)[0]+pixel(t, d, 31, y)[0], "row %d", y)
	}
	assert.Equal(t, uint8(0), pixel(t, d, 31, 14)[0], "last pixel excluded")
	assert.Equal(t, uint8(255), pixel(t, d, 3, 40)[0])
	assert.Equal(t, []int{3}, set(d, 40))
}

// TestStipple: bit ((X+XOS)&31) of row ((Y+YOS)&31), 1 = draw.
func TestStipple(t *testing.T) {
	d := newDev(t)
	clear(t, d, [4]uint8{}, 0, 0)
	s := surfaceSetup("sp", true).attr(a("HSPXYOS", "xos", 1, "yos", 0))
	pal := []uint32{uc.Header2, uc.TransSet(uc.TypePalette, uc.SubStipple, 0, 0)}
	for r := 0; r < 32; r++ {
		pal = append(pal, 0x55555555<<uint(r&1)) // row parity shifts the pattern
	}
	s.put(pal...)
	c := uint32(0xFFFFFFFF)
	s.list(cmdB(), triA(), cat(vtx(0, 0, 0, c), vtx(64, 0, 0, c), vtx(0, 64, 0, c))...)
	mustRun(t, d, s)
	// Row 0 uses 0x55555555: bit (x+1)&31 set when x+1 is even, so odd x.
	assert.Equal(t, uint8(0), pixel(t, d, 2, 0)[0])
	assert.Equal(t, uint8(255), pixel(t, d, 3, 0)[0])
	assert.Equal(t, uint8(255), pixel(t, d, 2, 1)[0])
	assert.Equal(t, uint8(0), pixel(t, d, 3, 1)[0])
}
