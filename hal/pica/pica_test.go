package pica

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests pin encodings to the literal words of the guide's "checkable
// facts" (shared/notes/pica200.md §7), never to values computed by this
// package.

func TestHeaderFacts(t *testing.T) {
	// Fact 1 (L26-L28).
	h := Header(0x802F011C)
	assert.Equal(t, Reg(0x11C), h.ID())
	assert.Equal(t, uint8(0xF), h.Mask())
	assert.Equal(t, 2, h.Extra())
	assert.True(t, h.Consecutive())
	assert.Equal(t, []Reg{0x11C, 0x11D, 0x11E}, []Reg{h.Target(0), h.Target(1), h.Target(2)})
	// Fact 2 (L29-L31).
	h2 := Header(0x002F011C)
	assert.Equal(t, []Reg{0x11C, 0x11C, 0x11C}, []Reg{h2.Target(0), h2.Target(1), h2.Target(2)})
	assert.Equal(t, Header(0x802F011C), MakeHeader(0x11C, 0xF, 2, true))
	// Fact 3 (L55-L60).
	assert.Equal(t, uint32(0x000000FF), Masked(0, 0xFFFFFFFF, Header(0x00010107).Mask()))
	assert.Equal(t, uint32(0x0000FF00), Masked(0, 0xFFFFFFFF, Header(0x00020107).Mask()))
	// Fact 4 (L12-L15): N=1 is 16 bytes with a pad, N=2 is 16 bytes.
	assert.Equal(t, 4, MakeHeader(0x11C, 0xF, 1, true).Words())
	assert.Equal(t, 4, MakeHeader(0x11C, 0xF, 2, true).Words())
	assert.Equal(t, 2, MakeHeader(0x11C, 0xF, 0, false).Words())
}

func TestWriterWords(t *testing.T) {
	var w Writer
	w.Seq(DEPTHBUFFER_LOC, 0xAAAAAAAA, 0xBBBBBBBB, 0xCCCCCCCC)
	w.Write(FRAMEBUFFER_FLUSH, 1)
	w.WriteMasked(DEPTH_COLOR_MASK, 0x1, 0xFFFFFFFF)
	w.Rep(VSH_CODETRANSFER_DATA0, 1, 2)
	w.Finalize()
	assert.Equal(t, []uint32{
		0xAAAAAAAA, 0x802F011C, 0xBBBBBBBB, 0xCCCCCCCC,
		0x00000001, 0x000F0111,
		0xFFFFFFFF, 0x00010107,
		0x00000001, 0x001F02CC, 0x00000002, 0x00000000,
		0x00000000, 0x00000000, // alignment pad command (mask 0)
		0x12345678, 0x000F0010,
	}, w.Words())
	assert.Equal(t, 0, len(w.Bytes())%16)
}

func TestFloatFacts(t *testing.T) {
	// Fact 10 and §1.3.
	for _, c := range []struct {
		f    float32
		bits uint32
	}{{1, 0x3F0000}, {0.5, 0x3E0000}, {-2, 0xC00000}, {120, 0x45E000}, {0, 0}} {
		assert.Equal(t, c.bits, ToF24(c.f), "f24(%v)", c.f)
		assert.Equal(t, c.f, F24ToFloat(c.bits))
	}
	assert.Equal(t, uint32(0x3C00), ToF16(1))
	assert.Equal(t, uint32(0x1F800000), ToF31(1))
	// Fact 11: viewport width 240.
	assert.Equal(t, uint32(0x45E000), ToF24(240.0/2))
	assert.Equal(t, uint32(0x38111112), ToF31(2.0/240)<<1)
	// Overflow saturates to infinity, underflow flushes to zero.
	assert.Equal(t, uint32(0x7F0000), ToF24(1e30))
	assert.Equal(t, uint32(0x800000), ToF24(-1e-30))
	assert.True(t, math.IsInf(float64(F24ToFloat(0x7F0000)), 1))
	assert.True(t, math.IsNaN(float64(F24ToFloat(0x7F0001))))
}

func TestPackF24Facts(t *testing.T) {
	// Fact 9: fixed attribute (1,2,3,4).
	d := PackF24x4(ToF24(1), ToF24(2), ToF24(3), ToF24(4))
	assert.Equal(t, [3]uint32{0x41000040, 0x80004000, 0x003F0000}, d)
	assert.Equal(t, [4]uint32{0x3F0000, 0x400000, 0x408000, 0x410000}, UnpackF24x4(d))
}

func TestRegisterFacts(t *testing.T) {
	dim := Info(FRAMEBUFFER_DIM).Fields
	// Fact 12: 240x400 -> 0x0118F0F0.
	assert.Equal(t, uint32(0x0118F0F0), dim[0].Put(240)|dim[1].Put(399)|dim[2].Put(1))
	// Fact 13: TEXUNIT0_DIM for w=128, h=64.
	td := Info(TEXUNIT0_DIM).Fields
	assert.Equal(t, uint32(0x00800040), td[0].Put(64)|td[1].Put(128))
	// Fact 18: colour formats.
	cf := Info(COLORBUFFER_FORMAT).Fields
	assert.Equal(t, uint32(0x00030000), cf[1].Put(3))
	assert.Equal(t, uint32(0x00000002), cf[0].Put(2))
	// Fact 21: SRC_ALPHA / ONE_MINUS_SRC_ALPHA with ADD.
	assert.Equal(t, "BLEND_FUNC eq_rgb=ADD eq_a=ADD src_rgb=SRC_ALPHA dst_rgb=ONE_MINUS_SRC_ALPHA src_a=SRC_ALPHA dst_a=ONE_MINUS_SRC_ALPHA",
		Describe(BLEND_FUNC, 0x76760000))
	assert.Equal(t, "COLOR_OPERATION mode=0 blend=BLEND magic=0xe4", Describe(COLOR_OPERATION, 0x00E40100))
	// Fact 14, 39, 40.
	assert.Equal(t, "TEXUNIT_CONFIG tex0=1 tex1=0 tex2=0 tex3_coords=0 tex3=0 one=1 tex2_coords=0 clear_cache=0", Describe(TEXUNIT_CONFIG, 0x00001001))
	assert.Equal(t, "VSH_BOOLUNIFORM b=0x1 magic=0x7fff", Describe(VSH_BOOLUNIFORM, 0x7FFF0001))
	assert.Equal(t, "VSH_ENTRYPOINT entry=16 magic=0x7fff", Describe(VSH_ENTRYPOINT, 0x7FFF0010))
	assert.True(t, strings.HasPrefix(Describe(VSH_ATTR_PERM_LOW, 5), "VSH_ATTRIBUTES_PERMUTATION_LOW a0=5 a1=0"))
	// Fact 33: light 2 spans 0x160-0x16B, CONFIG at 0x169.
	assert.Equal(t, "LIGHT2_SPECULAR0", Light(2, 0).Name())
	assert.Equal(t, "LIGHT2_CONFIG", Light(2, 9).Name())
	assert.Equal(t, "LIGHT2_ATTENUATION_SCALE", Light(2, 0xB).Name())
	// Fact 34: diffuse red 0xFF -> 0x0FF00000.
	lf := Info(Light(0, 2)).Fields
	assert.Equal(t, uint32(0x0FF00000), lf[2].Put(0xFF))
	// Fact 35, 36, 37, 38.
	assert.Equal(t, "PRIMITIVE_CONFIG outputs_m1=0 mode=TRIANGLE_FAN", Describe(PRIMITIVE_CONFIG, 0x200))
	assert.Equal(t, "INDEXBUFFER_CONFIG offset=0x0 type=U16", Describe(INDEXBUFFER_CONFIG, 0x80000000))
	hi := Info(ATTRIBBUFFERS_FMT_HIGH).Fields
	assert.Equal(t, uint32(2), hi[9].Get(0x20000000))
	// TEV stages 4 and 5 are not contiguous with 0-3.
	assert.Equal(t, Reg(0x0F0), TexEnv(4, 0))
	assert.Equal(t, "TEXENV5_SCALE", TexEnv(5, 4).Name())
	assert.Equal(t, "TEXENV3_COMBINER", TexEnv(3, 2).Name())
	// Fact 25: early depth 0 is GEQUAL, depth 0 is NEVER.
	assert.Equal(t, "EARLYDEPTH_FUNC func=GEQUAL", Describe(EARLYDEPTH_FUNC, 0))
	assert.Equal(t, "DEPTH_COLOR_MASK test=0 func=NEVER r=0 g=0 b=0 a=0 depth_write=0", Describe(DEPTH_COLOR_MASK, 0))
	// Fact 26.
	assert.Equal(t, "SCISSORTEST_MODE mode=INCLUDE", Describe(SCISSORTEST_MODE, 3))
	r, ok := Lookup("GPUREG_VSH_FLOATUNIFORM_INDEX")
	require.True(t, ok)
	assert.Equal(t, Reg(0x2C0), r)
	assert.Equal(t, "REG_045", Reg(0x45).Name())
}

func TestDecode(t *testing.T) {
	// Fact 8: c5 = (1,2,3,4) in f32 mode.
	var w Writer
	w.Seq(VSH_FLOATUNIFORM_INDEX, 0x80000005, 0x40800000, 0x40400000, 0x40000000, 0x3F800000)
	w.WriteMasked(TEXENV_UPDATE_BUFFER, 0x2, 0x0300)
	w.Finalize()
	got := Decode(w.Bytes(), 0x20000000)
	want := []string{
		"20000000  80000005 804f02c0  VSH_FLOATUNIFORM_INDEX index=5 mode=F32",
		"20000008  40800000           VSH_FLOATUNIFORM_DATA0 data=0x40800000",
		"2000000c  40400000           VSH_FLOATUNIFORM_DATA1 data=0x40400000",
		"20000010  40000000           VSH_FLOATUNIFORM_DATA2 data=0x40000000",
		"20000014  3f800000           VSH_FLOATUNIFORM_DATA3 data=0x3f800000",
		"20000018  00000300 000200e0  (mask 0x2) TEXENV_UPDATE_BUFFER fog_mode=OFF gas_density=0 rgb_buf1=PREVIOUS rgb_buf2=PREVIOUS rgb_buf3=PREVIOUS_BUFFER rgb_buf4=PREVIOUS_BUFFER a_buf1=PREVIOUS_BUFFER a_buf2=PREVIOUS_BUFFER a_buf3=PREVIOUS_BUFFER a_buf4=PREVIOUS_BUFFER fog_z_flip=0",
		"20000020  00000000 00000000  (mask 0: no effect) REG_000 0x00000000",
		"20000028  12345678 000f0010  FINALIZE value=0x12345678",
	}
	assert.Equal(t, want, got)
	// A truncated command is reported, not a panic.
	bad := make([]byte, 12)
	binary.LittleEndian.PutUint32(bad[4:], 0x802F011C)
	lines := Decode(bad, 0)
	assert.Equal(t, "error: command at 0x0 needs 16 bytes, 12 left", lines[len(lines)-1])
}

func TestShaderEncoding(t *testing.T) {
	// 3dbrew: MOV o0, v0 with descriptor 0 is 0x4C000000; identity
	// descriptor with full mask 0x36F is what picasso emits for "mov o0, v0".
	in := Insn{Op: OpMOV, Dst: 0, Src1: 0, Desc: 0}
	assert.Equal(t, uint32(0x4C000000), in.Encode())
	assert.Equal(t, uint32(0x36F), uint32(DescIdentity)&0x1FFF)
	assert.Equal(t, uint32(0x88000000), Insn{Op: OpEND}.Encode())
	d, err := MakeDesc("xy", [3]string{"yxzw", "x", ""}, [3]bool{true, false, false})
	require.NoError(t, err)
	assert.Equal(t, uint8(0xC), d.Mask())
	assert.True(t, d.Negate(0))
	assert.Equal(t, "yxzw", d.SwizzleString(0))
	assert.Equal(t, "xxxx", d.SwizzleString(1))
	for _, w := range []uint32{0x4C000000, 0x08021001 | 1<<19, 0xE0000000 | 0x1F, 0xC1234567, 0xB9ABCDEF, 0xA4012045, 0x9C0000FF} {
		in := DecodeInsn(w)
		assert.Equal(t, w, in.Encode(), "round trip %#x (%s)", w, Disasm(w, []uint32{uint32(DescIdentity)}))
	}
	dp4 := Insn{Op: OpDP4, Dst: 0, Src1: 0x20, Src2: 0, Desc: 0}.Encode()
	assert.Equal(t, uint32(0x08020000), dp4)
	assert.Equal(t, "dp4 o0.x, c0, v0", Disasm(dp4, []uint32{0x8 | 0x1B<<5 | 0x1B<<14}))
	assert.Equal(t, "mad r1, v1, c4[a0.x].wzyx, r2", Disasm(Insn{Op: OpMAD, Dst: 0x11, Src1: 1, Src2: 0x24, Src3: 0x12, Idx: 1}.Encode(),
		[]uint32{0xF | 0x1B<<5 | 0xE4<<14 | 0x1B<<23}))
}

// TestTableSelfCheck checks the register table as data: every named
// register has a layout, fields lie inside the word and do not overlap,
// enumerations name every value of their field, and seed lines increase
// with the ID (the seed's register list is in ID order).
func TestTableSelfCheck(t *testing.T) {
	named, lastLine := 0, 0
	for id := Reg(0); id < NumRegs; id++ {
		ri := Info(id)
		if ri == nil {
			continue
		}
		named++
		assert.Equal(t, id, ri.ID)
		assert.NotEmpty(t, ri.Fields, "%s has no field layout", ri.Name)
		assert.Greater(t, ri.Line, lastLine, "%s: seed line", ri.Name)
		lastLine = ri.Line
		var used uint64
		for _, f := range ri.Fields {
			require.True(t, f.Lo <= f.Hi && f.Hi < 32, "%s.%s bits %d-%d", ri.Name, f.Name, f.Lo, f.Hi)
			m := uint64(f.Mask())
			assert.Zero(t, used&m, "%s.%s overlaps another field", ri.Name, f.Name)
			used |= m
			if f.Kind == Enum {
				assert.GreaterOrEqual(t, len(f.Enum), 1<<(f.Hi-f.Lo+1), "%s.%s enumeration", ri.Name, f.Name)
			}
		}
	}
	assert.Equal(t, 395, named, "named registers of the seed's list")
}
