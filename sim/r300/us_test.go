package r300

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// alu builds an instruction whose RGB half reads slots (s0, s1, s2) and
// alpha half reads (a0, a1, a2), writing r3 (RGB and alpha).
func alu(rgbOp, aOp uint8, rgbArgs, aArgs [3]r3.Arg, srcs [3]uint8, asrcs [3]uint8) r3.ALUInst {
	return r3.ALUInst{
		RGB:   r3.Half{Src: srcs, Dst: 3, WMask: 7, Op: rgbOp, Args: rgbArgs},
		Alpha: r3.Half{Src: asrcs, Dst: 3, WMask: 1, Op: aOp, Args: aArgs},
	}
}

func arg(s uint8) r3.Arg { return r3.Arg{Sel: s} }

// TestUSOpcodes checks every opcode of both halves on values computed by
// hand: r0 = (1.5, -2, 0.25, 3), r1 = (2, 0.5, 4, -1), r2 = (0.25, 1, -3,
// 0.5).
func TestUSOpcodes(t *testing.T) {
	init := [32][4]float32{{1.5, -2, 0.25, 3}, {2, 0.5, 4, -1}, {0.25, 1, -3, 0.5}}
	slots := [3]uint8{0, 1, 2}
	abc := [3]r3.Arg{arg(0), arg(4), arg(8)}    // src0.rgb, src1.rgb, src2.rgb
	aabc := [3]r3.Arg{arg(9), arg(10), arg(11)} // src0.a, src1.a, src2.a
	tests := []struct {
		name  string
		rgbOp uint8
		aOp   uint8
		aArgs [3]r3.Arg
		want  [4]float32
	}{
		{"MAD", r3.RGBMAD, r3.AlphaMAD, aabc, [4]float32{3.25, 0, -2, -2.5}},
		{"DP3 / DP", r3.RGBDP3, r3.AlphaDP, aabc, [4]float32{3, 3, 3, 3}},
		{"DP4", r3.RGBDP4, r3.AlphaDP, aabc, [4]float32{0, 0, 0, 0}},
		{"D2A", r3.RGBD2A, r3.AlphaDP, aabc, [4]float32{-1, -1, -1, -1}},
		{"MIN", r3.RGBMIN, r3.AlphaMIN, aabc, [4]float32{1.5, -2, 0.25, -1}},
		{"MAX", r3.RGBMAX, r3.AlphaMAX, aabc, [4]float32{2, 0.5, 4, 3}},
		{"CND (C > 0.5)", r3.RGBCND, r3.AlphaCND, aabc, [4]float32{2, -2, 4, -1}},
		{"CMP (C >= 0)", r3.RGBCMP, r3.AlphaCMP, aabc, [4]float32{1.5, -2, 4, 3}},
		{"FRC", r3.RGBFRC, r3.AlphaFRC, [3]r3.Arg{arg(10)}, [4]float32{0.5, 0, 0.25, 0}},
		{"EX2", r3.RGBSOP, r3.AlphaEX2, aabc, [4]float32{8, 8, 8, 8}},
		{"LN2 of src1.b", r3.RGBSOP, r3.AlphaLN2, [3]r3.Arg{arg(5)}, [4]float32{2, 2, 2, 2}},
		{"RCP of src1.b", r3.RGBSOP, r3.AlphaRCP, [3]r3.Arg{arg(5)}, [4]float32{0.25, 0.25, 0.25, 0.25}},
		{"RSQ of src1.b", r3.RGBSOP, r3.AlphaRSQ, [3]r3.Arg{arg(5)}, [4]float32{0.5, 0.5, 0.5, 0.5}},
	}
	for _, tc := range tests {
		temps := init
		var out [4][4]float32
		var depth float32
		a := alu(tc.rgbOp, tc.aOp, abc, tc.aArgs, slots, slots)
		execALU(&a, &temps, &[32][4]float32{}, &out, &depth)
		assert.Equal(t, tc.want, temps[3], tc.name)
	}
}

func TestUSSpecialValues(t *testing.T) {
	max := r3.FP24Max
	tests := []struct {
		name string
		op   uint8
		x    float32
		want float32
	}{
		{"RCP(0) saturates", r3.AlphaRCP, 0, max},
		{"RSQ(0) saturates", r3.AlphaRSQ, 0, max},
		{"LN2(0) is -max", r3.AlphaLN2, 0, -max},
		{"LN2(-1) is NaN, written as 0", r3.AlphaLN2, -1, 0},
		{"RSQ(-4) is NaN, written as 0", r3.AlphaRSQ, -4, 0},
		{"EX2(100) overflows to max", r3.AlphaEX2, 100, max},
		{"EX2(-100) flushes to 0", r3.AlphaEX2, -100, 0},
		{"RCP(3) truncates", r3.AlphaRCP, 3, float32(0x15555) / float32(1<<18)},
		{"EX2(0.5)", r3.AlphaEX2, 0.5, float32(0x16A09) / float32(1<<16)},
		{"RCP(max) = 2^-65 flushes to 0", r3.AlphaRCP, max, 0},
	}
	for _, tc := range tests {
		temps := [32][4]float32{{0, 0, 0, tc.x}}
		var out [4][4]float32
		var depth float32
		a := alu(r3.RGBSOP, tc.op, [3]r3.Arg{}, [3]r3.Arg{arg(9)}, [3]uint8{}, [3]uint8{})
		execALU(&a, &temps, &[32][4]float32{}, &out, &depth)
		assert.Equal(t, tc.want, temps[3][3], tc.name)
		assert.Equal(t, tc.want, temps[3][0], tc.name+" via SOP")
	}
	// 0 · max = 0 and max + max saturates.
	temps := [32][4]float32{{0, max, 0, max}}
	var out [4][4]float32
	var depth float32
	a := alu(r3.RGBMAD, r3.AlphaMAD, [3]r3.Arg{arg(1), arg(2), arg(20)}, [3]r3.Arg{arg(9), arg(17), arg(9)}, [3]uint8{}, [3]uint8{})
	execALU(&a, &temps, &[32][4]float32{}, &out, &depth)
	assert.Equal(t, [4]float32{0, 0, 0, max}, temps[3])
}

// TestUSSelectsAndModifiers covers the RGB and alpha operand selects,
// srcN.a coming from the alpha slot, pre-subtract, inline constants,
// modifiers, output modifiers, clamp, masks and outputs.
func TestUSSelectsAndModifiers(t *testing.T) {
	mov := func(rgbSel uint8, mod uint8) r3.ALUInst {
		return r3.ALUInst{
			RGB:   r3.Half{Src: [3]uint8{0, 1, 33}, Dst: 3, WMask: 7, Args: [3]r3.Arg{{Sel: rgbSel, Mod: mod}, arg(r3.SelRGBOne), arg(r3.SelRGBZero)}},
			Alpha: r3.Half{Src: [3]uint8{2, 1, 0}, Dst: 3, WMask: 1, Args: [3]r3.Arg{arg(9), arg(17), arg(16)}},
		}
	}
	init := [32][4]float32{{1.5, -2, 0.25, 3}, {2, 0.5, 4, -1}, {0.25, 1, -3, 0.5}}
	k := [32][4]float32{1: {10, 20, 30, 40}}
	tests := []struct {
		name string
		a    r3.ALUInst
		want [3]float32
	}{
		{"rrr", mov(1, 0), [3]float32{1.5, 1.5, 1.5}},
		{"ggg", mov(2, 0), [3]float32{-2, -2, -2}},
		{"bbb", mov(3, 0), [3]float32{0.25, 0.25, 0.25}},
		{"src1.rgb", mov(4, 0), [3]float32{2, 0.5, 4}},
		{"constant src2 (c1)", mov(8, 0), [3]float32{10, 20, 30}},
		{"src0.aaa from alpha slot 0 (r2)", mov(12, 0), [3]float32{0.5, 0.5, 0.5}},
		{"gbr", mov(23, 0), [3]float32{-2, 0.25, 1.5}},
		{"brg", mov(26, 0), [3]float32{0.25, 1.5, -2}},
		{"abg: a from alpha slot 0, b g from rgb slot 0", mov(29, 0), [3]float32{0.5, 0.25, -2}},
		{"0.5 inline", mov(22, 0), [3]float32{0.5, 0.5, 0.5}},
		{"NEG", mov(0, 1), [3]float32{-1.5, 2, -0.25}},
		{"ABS", mov(0, 2), [3]float32{1.5, 2, 0.25}},
		{"NAB", mov(0, 3), [3]float32{-1.5, -2, -0.25}},
	}
	for _, tc := range tests {
		temps := init
		var out [4][4]float32
		var depth float32
		execALU(&tc.a, &temps, &k, &out, &depth)
		assert.Equal(t, tc.want, [3]float32{temps[3][0], temps[3][1], temps[3][2]}, tc.name)
		assert.Equal(t, float32(0.5), temps[3][3], tc.name+": alpha from r2.a")
	}
	// Pre-subtract: every SRCP_OP on rgb slots 0 (r0) and 1 (r1).
	for op, want := range [4][3]float32{{-2, 5, 0.5}, {0.5, 2.5, 3.75}, {3.5, -1.5, 4.25}, {-0.5, 3, 0.75}} {
		a := mov(r3.SelRGBSrcP, 0)
		a.RGB.Srcp = uint8(op)
		temps := init
		var out [4][4]float32
		var depth float32
		execALU(&a, &temps, &k, &out, &depth)
		assert.Equal(t, want, [3]float32{temps[3][0], temps[3][1], temps[3][2]}, "SRCP_OP %d", op)
	}
	// OMOD then clamp (guide §3.4 [PROP]); alpha srcp.a = a1 - a0.
	omods := []struct {
		omod  uint8
		clamp bool
		want  float32
	}{{1, false, 3}, {2, false, 6}, {3, false, 12}, {4, false, 0.75}, {5, false, 0.375}, {6, false, 0.1875}, {1, true, 1}}
	for _, o := range omods {
		a := mov(1, 0)
		a.RGB.Omod, a.RGB.Clamp = o.omod, o.clamp
		temps := init
		var out [4][4]float32
		var depth float32
		execALU(&a, &temps, &k, &out, &depth)
		assert.Equal(t, o.want, temps[3][0], "OMOD %d clamp %v", o.omod, o.clamp)
	}
	a := mov(1, 0)
	a.Alpha.Args[0], a.Alpha.Srcp = arg(r3.SelASrcPA), 1 // a1.a - a0.a = r1.a - r2.a
	a.RGB.WMask, a.RGB.OMask, a.RGB.Target = 5, 6, 2
	a.Alpha.WMask, a.Alpha.OMask, a.Alpha.Target, a.Alpha.DepthOut = 0, 1, 2, true
	temps := init
	temps[3] = [4]float32{9, 9, 9, 9}
	var out [4][4]float32
	var depth float32
	execALU(&a, &temps, &k, &out, &depth)
	assert.Equal(t, [4]float32{1.5, 9, 1.5, 9}, temps[3], "WMASK rb, alpha not written")
	assert.Equal(t, [4]float32{0, 1.5, 1.5, -1.5}, out[2], "OMASK gb and alpha to target C")
	assert.Equal(t, float32(-1.5), depth)
}

// TestUSReadsBeforeWrites: an instruction reading and writing the same
// temp sees the old value in both halves.
func TestUSReadsBeforeWrites(t *testing.T) {
	a := r3.ALUInst{
		RGB:   r3.Half{Src: [3]uint8{0, 0, 0}, Dst: 0, WMask: 7, Args: [3]r3.Arg{arg(0), arg(r3.SelRGBOne), arg(12)}},
		Alpha: r3.Half{Src: [3]uint8{0, 0, 0}, Dst: 0, WMask: 1, Args: [3]r3.Arg{arg(0), arg(17), arg(9)}},
	}
	temps := [32][4]float32{{1, 2, 3, 4}}
	var out [4][4]float32
	var depth float32
	execALU(&a, &temps, &[32][4]float32{}, &out, &depth)
	assert.Equal(t, [4]float32{5, 6, 7, 5}, temps[0])
}

func TestDeterministicTranscendentals(t *testing.T) {
	for _, x := range []float64{-3.5, -1, -0.25, 0, 0.125, 0.5, 1, 2.75, 10, 60} {
		assert.InDelta(t, math.Exp2(x), exp2(x), math.Exp2(x)*1e-14, "exp2 %g", x)
	}
	for _, x := range []float64{1e-10, 0.1, 0.5, 1, 1.5, 2, 3, 100, 1e10} {
		assert.InDelta(t, math.Log2(x), log2(x), 1e-13, "log2 %g", x)
	}
	assert.Equal(t, float64(3), exp2(0)*3)
	assert.Equal(t, float64(-2), log2(0.25))
}
