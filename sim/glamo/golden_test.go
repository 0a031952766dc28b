package glamo

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	hg "github.com/retrogl/retrogl/hal/glamo"
)

// Golden pictures of the chip features GL ES 1.1 does not reach (fill
// modes, stipple, colour key, register-level blend programs, float Z,
// small stencil formats, D3D lights, texture generation), drawn with
// hand-built command buffers. Each test also asserts a few literal pixels.

func (r *rig) image() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, r.w, r.h))
	for y := 0; y < r.h; y++ {
		for x := 0; x < r.w; x++ {
			v := r.px(x, y)
			e5 := func(x uint16) uint8 { return uint8(x<<3 | x>>2) }
			img.Pix[4*(y*r.w+x)] = e5(v >> 11)
			img.Pix[4*(y*r.w+x)+1] = uint8(v>>5&63)<<2 | uint8(v>>5&63)>>4
			img.Pix[4*(y*r.w+x)+2] = e5(v & 31)
			img.Pix[4*(y*r.w+x)+3] = 255
		}
	}
	return img
}

func goldenFile(t *testing.T, name string, data []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "glamo3365", "sim", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, data, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	assert.True(t, bytes.Equal(want, data), "%s differs from the golden file", name)
}

func goldenImage(t *testing.T, name string, img *image.NRGBA) {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	goldenFile(t, name+".png", b.Bytes())
}

// texture uploads a 16-bit w x h texture at rigData+off and binds it to
// unit u with the given format and filter; data is row-major 16-bit.
func (r *rig) texture16(b *hg.Builder, u int, off uint32, w, h int, code string, data []uint16) {
	raw := make([]byte, 2*len(data))
	for i, v := range data {
		raw[2*i], raw[2*i+1] = byte(v), byte(v>>8)
	}
	require.NoError(r.t, r.d.Write(rigData+off, raw))
	p := fmt.Sprintf("EGTX%d", u)
	b.Set(p+"Cfg", "FMT", code, "UMAP", "WRAP", "VMAP", "WRAP")
	b.Set(p+"Filter", "MAG", "NEAREST", "MIN", "NEAREST")
	b.Set(p+"Size", "W", w, "H", h)
	b.Set(p+"L0BAS", "BASE", rigData+off)
	b.Set(p+"Pitch0", "L0", uint32(2*w))
}

// texVtx fires an immediate vertex with texture A coordinates.
func texVtx(b *hg.Builder, x, y, u, v float32, argb uint32) {
	b.Burst32(0x1B40, hg.F32(u), hg.F32(v), 0, hg.F32(1))
	vtx(b, x, y, 0.5, argb)
}

func TestGoldenFillModesAndStipple(t *testing.T) {
	r := newRig(t, 64, 64)
	r.clearAll(0x18E6, 0xFFFF, 0)
	var b hg.Builder
	r.base(&b, "RGB565")
	// Two-side fill: CW solid, CCW wireframe (2600h D14, 2050h D[13:12]).
	b.Set("RGXFront", "SCRCOOR", true, "TWOSIDEFILL", true)
	b.Set("EGPrimSet", "FILL", "SOLID", "CCWFILL", "WIREFRAME", "PARMODE", "STRIP_NEW_FAN_NEW")
	b.Set("RGPLine", "WIDTH", hg.Fix9_4.Encode(1))
	tri(&b, [3][2]float32{{2, 30}, {16, 2}, {30, 30}}, [3]uint32{0xFFFF0000, 0xFF00FF00, 0xFF0000FF})  // CW
	tri(&b, [3][2]float32{{34, 2}, {34, 30}, {62, 16}}, [3]uint32{0xFFFFFF00, 0xFFFFFF00, 0xFFFFFF00}) // CCW
	b.Set("EGPrimSet", "FILL", "POINT", "CCWFILL", "POINT", "PARMODE", "STRIP_NEW_FAN_NEW")
	b.Set("RGXPtSize", "SIZE", hg.F24(3))
	tri(&b, [3][2]float32{{4, 36}, {16, 60}, {28, 36}}, [3]uint32{0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF})
	// Polygon stipple from a 32x32 A4444 pattern on unit 1 (2138h D8,
	// 2104h D15): texels with alpha < 1/2 reject the pixel.
	b.Set("EGPrimSet", "FILL", "SOLID", "CCWFILL", "SOLID", "PARMODE", "STRIP_NEW_FAN_NEW")
	pat := make([]uint16, 32*32)
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			if (x/4+y/2)%3 == 0 {
				pat[y*32+x] = 0xF000
			}
		}
	}
	r.texture16(&b, 1, 0, 32, 32, "ARGB4444", pat)
	b.Set("EGStippleCfg", "STIPPLETX", 1, "VDIR", true)
	b.Set("EGEn1", "POLYSTIPPLE", true)
	rect(&b, 34, 34, 62, 62, 0.5, 0xFF40C0FF)
	b.Set("EGEn1")
	r.mustRun(&b)
	assert.Equal(t, uint16(0x18E6), r.px(48, 16), "the CCW triangle is a wireframe: its inside is untouched")
	// The edge x = 34 lies on a pixel boundary: the column whose centre is
	// within half a pixel of it, [33.5, 34.5), is 33.
	assert.Equal(t, uint16(0xFFE0), r.px(33, 16), "... and its left edge is drawn")
	assert.NotEqual(t, uint16(0x18E6), r.px(16, 20), "the CW triangle is solid")
	goldenImage(t, "fill-modes-stipple", r.image())
}

func TestGoldenColorKeyAndTwoStages(t *testing.T) {
	r := newRig(t, 64, 32)
	r.clearAll(0x0000, 0xFFFF, 0)
	var b hg.Builder
	r.base(&b, "RGB565")
	tex := make([]uint16, 8*8)
	for i := range tex {
		tex[i] = 0x07E0 // green
		if (i/8+i%8)%2 == 0 {
			tex[i] = 0xF81F // magenta: the key
		}
	}
	r.texture16(&b, 0, 0, 8, 8, "RGB565", tex)
	// Colour key: texels between the thresholds are dropped (21ACh/21B0h,
	// 2104h D28, mode 00 texel transparency).
	b.Set("EGTX0TRSH", "COLOR", hg.Color6565(1, 0.1, 1, 1))
	b.Set("EGTX0TRSL", "COLOR", hg.Color6565(0.9, 0, 0.9, 0))
	b.Set("EGTX0Size", "TRSMOD", "TEXEL", "TRSRATIO", 0, "W", 8, "H", 8)
	b.Set("EGEn0", "TXMP", true, "TXNUM", 1)
	b.Set("EGEn1", "TXBL", true, "TX0TR", true)
	// Stage 0: Ccur0 = Sat(Tex0 * Dif); alpha likewise.
	b.Set("EGTXCBS0Mod", "C0WMSK", "OPA", "C0OMOD", "SAT")
	b.Set("EGTXCBS0Arg", "ARG1", "TEX0", "ARG2", "DIF", "OPA", "MUL")
	b.Set("EGTXABS0Mod", "C0WMSK", "OPA", "C0OMOD", "SAT")
	b.Set("EGTXABS0Arg", "ARG1", "TEX0", "ARG2", "DIF", "OPA", "MUL")
	b.Set("EGPDTYPE", "TYPE", "TRIANGLE_STRIP")
	for i, p := range [][4]float32{{0, 0, 0, 0}, {32, 0, 2, 0}, {0, 32, 0, 2}, {32, 32, 2, 2}} {
		texVtx(&b, p[0], p[1], p[2], p[3], 0xFFFFFF00|uint32(i*60))
	}
	b.Set("EGEND", "MODE", "WAIT_ALL")
	// Two stages on the right: stage 0 as above; stage 1 Ccur0 =
	// Sat(Ccur0 * 2 - Fact0 * 1) with an x2 output (OPC SUB, L3830).
	b.Set("EGEn1", "TXBL", true)
	b.Set("EGTX0Cfg", "FMT", "RGB565", "UMAP", "WRAP", "VMAP", "WRAP", "STAGES", "TWO")
	b.Set("EGTXBLDFact0", "FACT", hg.Factor(0.25, 0, 0.5, 0))
	b.Set("EGTXCBS1Mod", "ARG2MOD", "1-X", "ARG4MOD", "1-X", "C0WMSK", "OPC", "C0OMOD", "2X|SAT")
	b.Set("EGTXCBS1Arg", "ARG1", "CUR0", "ARG2", "ZERO", "ARG3", "FACT0", "ARG4", "ZERO", "OPA", "MUL", "OPB", "MUL", "OPC", "SUB")
	b.Set("EGTXABS1Mod", "C0WMSK", "OPA", "C0OMOD", "SAT")
	b.Set("EGTXABS1Arg", "ARG1", "CUR0", "ARG2", "ZERO", "OPA", "MUL")
	b.Set("EGPDTYPE", "TYPE", "TRIANGLE_STRIP")
	for _, p := range [][4]float32{{32, 0, 0, 0}, {64, 0, 1, 0}, {32, 32, 0, 1}, {64, 32, 1, 1}} {
		texVtx(&b, p[0], p[1], p[2], p[3], 0xFFFFFFFF)
	}
	b.Set("EGEND", "MODE", "WAIT_ALL")
	r.mustRun(&b)
	assert.Equal(t, uint16(0x0000), r.px(1, 1), "keyed magenta texels are dropped")
	assert.Equal(t, uint16(0x07E0), r.px(3, 1)&0x07E0, "green texels are drawn")
	// Right half, green texel: (0 - 0.25)*2 -> 0 red, (1 - 0)*2 -> 1 green, (0 - 0.5)*2 -> 0.
	assert.Equal(t, uint16(0x07E0), r.px(36, 1))
	// Magenta texel: red (1 - 8/31)*2 -> Sat 1; blue (1 - 16/31)*2 =
	// 0.968 -> 30/31, since 0.5 is not an s.5 value (round(15.5) = 16).
	assert.Equal(t, uint16(0xF81E), r.px(33, 1))
	goldenImage(t, "colorkey-two-stages", r.image())
}

// TestGoldenZFormats draws one sloped rectangle into each Z format and
// records the Z words along a row (P12's float formats).
func TestGoldenZFormats(t *testing.T) {
	var out strings.Builder
	for _, f := range []string{"Z16", "F1Z15", "F2Z14", "F5Z11"} {
		r := newRig(t, 16, 4)
		r.clearAll(0, 0xFFFF, 0)
		var b hg.Builder
		r.base(&b, "RGB565")
		b.Set("EGZCfg", "FMT", f, "TEST", "LESS", "PITCH", 16)
		b.Set("EGEn0", "ZT", true, "ZW", true)
		b.Set("EGPDTYPE", "TYPE", "TRIANGLE_STRIP")
		for _, p := range [][3]float32{{0, 0, 0}, {16, 0, 1}, {0, 4, 0}, {16, 4, 1}} {
			vtx(&b, p[0], p[1], p[2], 0xFFFFFFFF)
		}
		b.Set("EGEND", "MODE", "WAIT_ALL")
		r.mustRun(&b)
		fmt.Fprintf(&out, "%-6s", f)
		for x := 0; x < 16; x++ {
			fmt.Fprintf(&out, " %04x", r.z(x, 1))
		}
		out.WriteByte('\n')
		if f == "Z16" {
			// z at pixel 8's centre is 8.5/16: round(0.53125 * 65535) = 34815.
			assert.Equal(t, uint16(34815), r.z(8, 1))
		}
		if f == "F5Z11" {
			// 0.53125 = (1 + 0.0625) * 2^-1: exponent 31, mantissa 128.
			assert.Equal(t, uint16(31<<11|128), r.z(8, 1))
		}
	}
	goldenFile(t, "z-formats.txt", []byte(out.String()))
}

// TestStencilFormats counts overlapping INCR and INCRSAT writes in S1, S4
// and S8 (one byte per pixel, the format limiting the range, P13).
func TestStencilFormats(t *testing.T) {
	for _, tt := range []struct {
		fmt       string
		wrap, sat uint8
	}{{"S1", 1, 1}, {"S2", 1, 3}, {"S4", 5, 15}, {"S8", 21, 21}} {
		r := newRig(t, 8, 8)
		r.clearAll(0, 0xFFFF, 0)
		for pass, op := range []string{"INCR", "INCRSAT"} {
			var b hg.Builder
			r.base(&b, "RGB565")
			b.Set("EGStCfg", "FMT", tt.fmt, "TEST", "ALWAYS", "MASK", 0xFF)
			b.Set("EGStOps", "WRMASK", 0xFF, "ZPASS", op, "PITCH", 4)
			b.Set("EGEn0", "STT", true, "STBUF", true)
			b.Set("EGEn1", "STWRMASK", true)
			x := float32(4 * pass)
			for i := 0; i < 21; i++ {
				rect(&b, x, 0, x+4, 8, 0.5, 0xFF000000)
			}
			r.mustRun(&b)
		}
		assert.Equalf(t, tt.wrap, r.st(1, 1), "%s INCR wraps", tt.fmt)
		assert.Equalf(t, tt.sat, r.st(5, 1), "%s INCRSAT saturates", tt.fmt)
	}
}

// TestGoldenLightsAndTexgen lights a grid of vertices through the G/L
// engine with a D3D-mode spot light, and maps a texture by generated
// camera-space positions.
func TestGoldenLightsAndTexgen(t *testing.T) {
	r := newRig(t, 64, 32)
	r.clearAll(0, 0xFFFF, 0)
	var b hg.Builder
	r.base(&b, "RGB565")
	ident := func(base uint16, rows, cols int, scale float64) {
		var v []uint32
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				x := 0.0
				if i == j {
					x = scale
				}
				v = append(v, hg.F24(x))
			}
		}
		b.Burst32(base, v...)
	}
	ident(hg.T1Base, 4, 4, 1)
	ident(hg.MwvBase, 4, 3, 1)
	ident(hg.InvMwvBase, 3, 3, 1)
	b.Burst32(0x2678, hg.F24(16), hg.F24(16), hg.F24(-16), hg.F24(16), hg.F24(0.5), hg.F24(0.5))
	b.Set("RGXFront", "TEXGEN", true)
	b.Set("RGXClip", "USEDEFSEL", false)
	b.Set("RGXLight", "LIGHTING", true, "L0", true, "SPECLIGHT", true, "SINGLECOLOR", true)
	b.Set("RGXMatCfg", "DIFFSRC", "MATERIAL", "AMBSRC", "MATERIAL", "EMISSRC", "MATERIAL", "SPECSRC", "MATERIAL", "ALPHASRC", "MATERIAL")
	b.Set("RGXLightType", "L0", "SPOT")
	b.Burst32(hg.MatCW, hg.F32(1), hg.F32(0.8), hg.F32(0.4), hg.F32(1))
	lb := hg.LightBase(0)
	// D3D spot: position (0,0,1), direction (0,0,-1), cones cos 0.95 / 0.8.
	b.Burst32(lb, hg.F24(0), hg.F24(0), hg.F24(1), hg.F24(0), hg.F24(0), hg.F24(-1))
	b.Burst32(lb+0x30, hg.F24(1), hg.F24(1), hg.F24(1), 0x7FFFFF, hg.F24(1), 0, 0, hg.F24(1),
		hg.F24(0.95), hg.F24(0.8), hg.F24(1/(0.95-0.8)))
	b.Set("EGPDTYPE", "TYPE", "TRIANGLE_STRIP")
	const n = 8
	for j := 0; j < n; j++ {
		for i := 0; i <= n; i++ {
			for _, jj := range []int{j, j + 1} {
				x := -1 + 2*float32(i)/n
				y := -1 + 2*float32(jj)/n
				b.Burst32(0x1B10, hg.F32(0), hg.F32(0), hg.F32(1))
				b.Burst32(0x1B00, hg.F32(x), hg.F32(y), hg.F32(0), hg.F32(1))
				b.Write32(0x1B20, 0xFFFFFFFF)
				b.Write16(0x2058, 0)
			}
		}
		b.Set("EGEND", "MODE", "WAIT_ALL")
	}
	// Right half: camera-space position texgen into a checker (2610h
	// D12, mode 10), no lighting.
	b.Set("RGXLight")
	b.Set("RGPTexCfg", "TEXAGENEN", true, "TEXAGEN", "POSITION")
	tex := make([]uint16, 4*4)
	for i := range tex {
		tex[i] = []uint16{0xFFE0, 0x001F}[(i/4+i%4)%2]
	}
	r.texture16(&b, 0, 0x100, 4, 4, "RGB565", tex)
	b.Set("EGEn0", "TXMP", true, "TXNUM", 1)
	b.Set("EGEn1", "TXBL", true)
	b.Set("EGTXCBS0Mod", "C0WMSK", "OPA", "C0OMOD", "SAT")
	b.Set("EGTXCBS0Arg", "ARG1", "TEX0", "ARG2", "ZERO", "OPA", "MUL")
	b.Set("EGTXCBS0Mod", "ARG2MOD", "1-X", "C0WMSK", "OPA", "C0OMOD", "SAT")
	b.Burst32(0x2678, hg.F24(16), hg.F24(48), hg.F24(-16), hg.F24(16), hg.F24(0.5), hg.F24(0.5))
	b.Set("EGPDTYPE", "TYPE", "TRIANGLE_STRIP")
	for _, p := range [][2]float32{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		b.Burst32(0x1B00, hg.F32(p[0]), hg.F32(p[1]), hg.F32(0), hg.F32(1))
		b.Write16(0x2058, 0)
	}
	b.Set("EGEND", "MODE", "WAIT_ALL")
	r.mustRun(&b)
	assert.NotEqual(t, uint16(0), r.px(16, 16), "inside the inner cone")
	assert.Equal(t, uint16(0), r.px(1, 1), "outside the outer cone: black")
	goldenImage(t, "lights-texgen", r.image())
}
