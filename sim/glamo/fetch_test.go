package glamo

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	hg "github.com/retrogl/retrogl/hal/glamo"
	"github.com/retrogl/retrogl/sim/device"
)

// bare returns an engine on 1 MiB of memory, driven by register writes.
func bare(t testing.TB) (*Engine, *device.Memory) {
	m := device.NewMemory([]hal.Region{{Name: "vram", Base: 0, Size: 1 << 20}})
	e := NewEngine()
	e.SetMemory(m)
	return e, m
}

func set(t testing.TB, e *Engine, reg string, kv ...any) {
	t.Helper()
	setv(t, e, reg, hg.Pack(reg, kv...))
}

func setv(t testing.TB, e *Engine, reg string, v uint32) {
	t.Helper()
	r := hg.ByName(reg)
	require.NoError(t, e.write(r.Addr, uint16(v)))
	if r.Wide {
		require.NoError(t, e.write(r.Addr+2, uint16(v>>16)))
	}
}

func TestFetchTypes(t *testing.T) {
	e, m := bare(t)
	le16 := func(v ...int16) []byte {
		b := make([]byte, 2*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint16(b[2*i:], uint16(x))
		}
		return b
	}
	le32 := func(v ...int32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
		}
		return b
	}
	require.NoError(t, m.Write(0x1000, f32s(9, 9, 9, 1.5, -2.25, 3)))             // float XYZ, vertex 1
	require.NoError(t, m.Write(0x2000, le16(7, 7, -300, 4000)))                   // short XY, stride 4
	require.NoError(t, m.Write(0x3000, le32(0x18000, -0x8000, 0x10000, 0x20000))) // fixed UVWQ
	require.NoError(t, m.Write(0x4000, []byte{64, 0x80, 127}))                    // byte normal s.7
	require.NoError(t, m.Write(0x5000, []byte{10, 20, 30, 200}))                  // ubyte colour
	require.NoError(t, m.Write(0x6000, []byte{0xFE, 5, 0, 0}))                    // byte tex B (integers)
	streams := []struct {
		arr, dim, typ, stride string
		strideN               int
		base                  uint32
	}{
		{"POSITION", "3D", "FLOAT", "", 12, 0x1000},
		{"TEXA", "4D", "FIXED", "", 0, 0x3000},
		{"NORMAL", "3D", "BYTE", "", 0, 0x4000},
		{"DIFFUSE", "4D", "UBYTE", "", 0, 0x5000},
		{"TEXB", "2D", "BYTE", "", 0, 0x6000},
		{"SPECULAR", "2D", "SHORT", "", 4, 0x1FFC},
	}
	for n, s := range streams {
		set(t, e, hgName("Ctl", n), "STRIDE", s.strideN, "DIM", s.dim, "TYPE", s.typ, "ARRAY", s.arr)
		set(t, e, hgName("BAS", n), "BASE", s.base)
	}
	set(t, e, "MGVStreamActive", "ACTIVE", 0x3F)
	set(t, e, "MGVStrmCfg", "LAST", 5, "ABGR", false)
	set(t, e, "RGPVDTexSet", "TEXA", "4D", "TEXB", "2D")
	e.buildGL()
	ss, err := e.streams()
	require.NoError(t, err)
	var in input
	require.NoError(t, e.fetch(ss, listModeBuf, 1, 0, false, &in))
	assert.Equal(t, [4]float64{1.5, -2.25, 3, 1}, in.pos, "float XYZ, W from the default (L1244: W default 1)")
	assert.Equal(t, [4]float64{1.5, -0.5, 1, 2}, in.tex[0], "s15.16 fixed (fact 25)")
	assert.Equal(t, [3]float64{0.5, -1, 127.0 / 128}, in.norm, "signed bytes are s.7 on a normal stream (fact 25)")
	assert.Equal(t, [4]float64{30.0 / 255, 20.0 / 255, 10.0 / 255, 200.0 / 255}, in.diff, "ARGB: bytes of 0xAARRGGBB")
	assert.Equal(t, [4]float64{-2, 5, 0, 1}, in.tex[1], "bytes are integers elsewhere; 2D set fills W and Q")
	assert.Equal(t, [4]float64{1, 1, 0, 0}, in.spec, "short colour components are integers (7) and clamp to 1")
	require.NoError(t, e.fetch(ss, listModeBuf, 0, 0, true, &in))
	assert.Equal(t, [4]float64{10.0 / 255, 20.0 / 255, 30.0 / 255, 200.0 / 255}, in.diff, "ABGR: GL's RGBA byte order")
	// Use-default bits force defaults even where a stream provides data.
	set(t, e, "RGXFront", "POSDEF", 0x4, "NORMDEF", true, "DIFFDEF", 0x8)
	e.buildGL()
	require.NoError(t, e.fetch(ss, listModeBuf, 1, 0, false, &in))
	assert.Equal(t, [4]float64{1.5, -2.25, 0, 1}, in.pos, "POSDEF D22 forces Z to 0")
	assert.Equal(t, [3]float64{0, 0, 1}, in.norm)
	assert.Equal(t, 1.0, in.diff[3], "DIFFDEF D27 forces A to 1")
	// Default registers replace the built-in defaults (2608h D4, L1299).
	setv(t, e, "RGXNormDefX", hg.F32(0.25))
	set(t, e, "RGXClip", "USEDEFSEL", true)
	e.buildGL()
	require.NoError(t, e.fetch(ss, listModeBuf, 1, 0, false, &in))
	assert.Equal(t, [3]float64{0.25, 0, 0}, in.norm)
}

func hgName(kind string, n int) string {
	return "MGVStrm" + string(rune('0'+n)) + kind
}

func TestFetchAddressing(t *testing.T) {
	e, m := bare(t)
	var data []float32
	for i := 0; i < 16; i++ {
		data = append(data, float32(i), float32(100+i), 0, 0)
	}
	require.NoError(t, m.Write(0x8000, f32s(data...)))
	set(t, e, "MGVStrm0Ctl", "STRIDE", 16, "DIM", "2D", "TYPE", "FLOAT", "ARRAY", "POSITION")
	set(t, e, "MGVStrm0BAS", "BASE", 0x8000)
	set(t, e, "MGVStreamActive", "ACTIVE", 1)
	e.buildGL()
	ss, err := e.streams()
	require.NoError(t, err)
	var in input
	require.NoError(t, e.fetch(ss, listModeSIdx, 5, 0, false, &in))
	assert.Equal(t, 5.0, in.pos[0], "stream-index mode: base + index x stride")
	require.NoError(t, e.fetch(ss, listModeIdx, 5, 32, false, &in))
	assert.Equal(t, 10.0, in.pos[0], "index mode: base + index x RGPDVNum (L2270)")
	err = e.fetch(ss, listModeSIdx, 1<<16, 0, false, &in)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "outside VRAM")
	set(t, e, "MGVStrm0Ctl", "TYPE", 5)
	_, err = e.streams()
	assert.ErrorContains(t, err, "data type 101 is reserved")
}

// TestIndexedPoints draws screen-space points through 8- and 16-bit index
// lists in stream-index mode.
func TestIndexedPoints(t *testing.T) {
	for _, idx8 := range []bool{false, true} {
		r := newRig(t, 16, 16)
		r.clearAll(0, 0, 0)
		var pos []float32
		for i := 0; i < 8; i++ {
			pos = append(pos, float32(i)*2+0.5, float32(i)+0.5)
		}
		require.NoError(t, r.d.Write(rigData, f32s(pos...)))
		idx := []uint16{7, 3, 3, 0}
		var ib []byte
		for _, v := range idx {
			if idx8 {
				ib = append(ib, byte(v))
			} else {
				ib = append(ib, byte(v), byte(v>>8))
			}
		}
		require.NoError(t, r.d.Write(rigData+0x1000, ib))
		var b hg.Builder
		r.base(&b, "RGB565")
		b.Set("MGVStrm0Ctl", "STRIDE", 8, "DIM", "2D", "TYPE", "FLOAT", "ARRAY", "POSITION")
		b.Set("MGVStrm0BAS", "BASE", rigData)
		b.Set("MGVStreamActive", "ACTIVE", 1)
		b.Set("MGVStrmCfg", "IDX8", idx8, "IDXMODE", true)
		b.Set("RGXDiffDef", "A", 255, "R", 255, "G", 255, "B", 255)
		b.Set("MGStrmIndexMDBAS", "BASE", rigData+0x1000)
		b.Set("RGPVDNum", "COUNT", len(idx))
		b.Set("EGPDTYPE", "TYPE", "POINTS")
		b.Set("MGBufCBMFire", "MODE", "STREAM_INDEX")
		b.Set("MGBufCMSFire", "MODE", "STREAM_INDEX")
		r.mustRun(&b)
		var lit [][2]int
		for y := 0; y < 16; y++ {
			for x := 0; x < 16; x++ {
				if r.px(x, y) != 0 {
					lit = append(lit, [2]int{x, y})
				}
			}
		}
		assert.Equal(t, [][2]int{{0, 0}, {6, 3}, {14, 7}}, lit, "idx8=%v", idx8)
		assert.Equal(t, int64(3), r.d.Stats().Vertices, "the post-transform cache fetches index 3 once")
	}
}

// glRig is an engine with identity matrices and a unit viewport.
func glRig(t *testing.T) *Engine {
	e, _ := bare(t)
	for r := 0; r < 4; r++ {
		setv(t, e, "RGXT1MAT"+string(rune('0'+r))+string(rune('0'+r)), hg.F24(1))
		if r < 3 {
			setv(t, e, "RGXMwv"+string(rune('0'+r))+string(rune('0'+r)), hg.F24(1))
			setv(t, e, "RGXInvMwv"+string(rune('0'+r))+string(rune('0'+r)), hg.F24(1))
		}
	}
	setv(t, e, "RGXPtSizeMax", hg.F24(64))
	return e
}

func TestGeometryExact(t *testing.T) {
	e := glRig(t)
	setv(t, e, "RGXT1MAT00", hg.F24(1.0/3))
	setv(t, e, "RGXT1MAT30", hg.F24(0.1))
	setv(t, e, "RGXScaleX", hg.F24(32))
	setv(t, e, "RGXOffsetX", hg.F24(32))
	e.buildGL()
	in := input{pos: [4]float64{0.7, 0, 0, 1}}
	var out vertex
	e.transform(&in, &out)
	// x = q(q(0.7 * q(1/3)) + q(1 * q(0.1))), each term rounded to s[7].16.
	third, tenth := hg.RoundF24(1.0/3), hg.RoundF24(0.1)
	want := hg.RoundF24(hg.RoundF24(hg.RoundF24(hg.RoundF24(0.7*third)+0)+0) + hg.RoundF24(tenth))
	assert.Equal(t, want, out.clip[0])
	e.project(&out)
	assert.Equal(t, hg.RoundF24(hg.RoundF24(want*32)+32), out.win[0])
}

func TestLightingValues(t *testing.T) {
	e := glRig(t)
	set(t, e, "RGXLight", "LIGHTING", true, "L0", true, "GLLIGHT", true, "SINGLECOLOR", true, "SPECLIGHT", true)
	set(t, e, "RGXMatCfg", "DIFFSRC", "MATERIAL", "AMBSRC", "MATERIAL", "EMISSRC", "MATERIAL", "SPECSRC", "MATERIAL", "ALPHASRC", "MATERIAL")
	set(t, e, "RGXLightType", "L0", "DIRECTIONAL")
	for _, c := range []string{"R", "G", "B", "A"} {
		setv(t, e, "RGXCWMd"+c, hg.F32(1))
	}
	b := hg.LightBase(0)
	e.write(b+8, uint16(hg.F24(1)))
	e.write(b+10, uint16(hg.F24(1)>>16))
	for k := 0; k < 3; k++ {
		v := hg.F24(0.5)
		e.write(b+0x30+4*uint16(k), uint16(v))
		e.write(b+0x32+4*uint16(k), uint16(v>>16))
	}
	e.buildGL()
	in := input{pos: [4]float64{0, 0, 0, 1}, norm: [3]float64{0, 0, 1}, diff: [4]float64{1, 1, 1, 1}}
	var out vertex
	e.gl.normIn = true
	e.transform(&in, &out)
	assert.Equal(t, [4]uint8{128, 128, 128, 255}, out.col[0], "N.L = 1, diffuse 1 x 0.5: round(127.5) = 128")
	// A material of 0.8 is stored in 6 bits: round(0.8*63)/63 = 50/63.
	setv(t, e, "RGXCWMdR", hg.F32(0.8))
	e.buildGL()
	e.gl.normIn = true
	e.transform(&in, &out)
	assert.Equal(t, uint8(101), out.col[0][0], "0.5 * 50/63 = 0.3968 -> 101")
	// Facing away: only ambient (zero here).
	in.norm = [3]float64{0, 0, -1}
	e.transform(&in, &out)
	assert.Equal(t, [4]uint8{0, 0, 0, 255}, out.col[0])
}

func TestVertexFogAndPointSize(t *testing.T) {
	e := glRig(t)
	set(t, e, "RGXLight", "VFOG", true, "PTSCALE", true, "GLPTSCALE", true)
	set(t, e, "RGXMatCfg", "FOGMODE", "LINEAR")
	setv(t, e, "RGXFogEnd", hg.F24(8))
	setv(t, e, "RGXFogRatio", hg.F24(1.0/7))
	setv(t, e, "RGXPtSize", hg.F24(12))
	setv(t, e, "RGXPtScaleC", hg.F24(4))
	e.buildGL()
	in := input{pos: [4]float64{0, 0, -4.5, 1}}
	var out vertex
	e.transform(&in, &out)
	// q(1/7) = 74898 x 2^-19; 3.5 times that is 131071.5 x 2^-18, a tie
	// that rounds to even: 0.5 exactly, and round(0.5 * 255) = 128.
	assert.Equal(t, uint8(128), out.spec[0][3])
	// 12 * sqrt(1 / (4 * 4.5^2)) = 12/9.
	assert.Equal(t, hg.RoundF24(12*hg.RoundF24(math.Sqrt(hg.RoundF24(1/hg.RoundF24(4*20.25))))), out.psz)
	set(t, e, "RGXMatCfg", "FOGMODE", "EXP")
	setv(t, e, "RGXFogDensity", hg.F24(-0.35*math.Log2E))
	e.buildGL()
	e.transform(&in, &out)
	assert.Equal(t, uint8(53), out.spec[0][3], "exp(-0.35*4.5) = 0.207 -> 53")
}

// TestFetchWithDrawInput checks the per-draw template path (fetchWith with
// a drawInput) against fetch over random stream sets, data, use-default
// bits and texture-set dimensions.
func TestFetchWithDrawInput(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 5))
	for n := 0; n < 200; n++ {
		e, m := bare(t)
		data := make([]byte, 0x4000)
		for i := range data {
			data[i] = uint8(r.UintN(256))
		}
		require.NoError(t, m.Write(0x1000, data))
		var ss []stream
		for k := 0; k < 1+r.IntN(5); k++ {
			ss = append(ss, stream{arr: uint32(r.IntN(9)), dim: uint32(1 + r.IntN(4)), typ: uint32(r.IntN(5)),
				stride: uint32(16 + 4*r.IntN(4)), base: 0x1000 + uint32(r.IntN(64))*16})
		}
		poke(e, 0x2600, r.Uint32()&^(1<<13))
		poke(e, 0x2608, r.Uint32()&^7)
		poke(e, 0x2040, r.Uint32())
		e.buildGL()
		di := e.newDrawInput(ss)
		for v := uint32(0); v < 8; v++ {
			var want, got input
			require.NoError(t, e.fetch(ss, listModeSIdx, v, 0, v%2 == 0, &want))
			require.NoError(t, e.fetchWith(ss, listModeSIdx, v, 0, v%2 == 0, &got, di))
			require.Equal(t, want, got, "set %d vertex %d", n, v)
		}
	}
}
