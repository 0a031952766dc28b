package r300

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/compiler/ir"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// compare compiles src, runs it on the simulated US for each input set and
// checks the result against the IR interpreter with FP24 rounding. tol is
// the allowed absolute difference (0 = bit exact).
func compare(t *testing.T, src string, uniforms map[string][4]float32, tol float64, pixels ...[][4]float32) *Program {
	t.Helper()
	p, err := ir.Parse(src)
	require.NoError(t, err)
	prog, err := Compile(p, Options{})
	require.NoError(t, err, src)
	out, ok := runOnSim(t, prog, uniforms, pixels)
	for x, in := range pixels {
		r, err := ir.Run(p, &ir.Env{Inputs: in, Uniforms: uniforms, Sample: sampleTest, Round: r3.RoundFP24})
		require.NoError(t, err)
		assert.Equal(t, !r.Killed, ok[x], "pixel %d killed\n%s", x, src)
		if r.Killed || !ok[x] {
			continue
		}
		for c := 0; c < 4; c++ {
			if tol == 0 {
				assert.Equalf(t, r.Outputs[0][c], out[x][c], "pixel %d component %d\n%s\n%v", x, c, src, prog.Disassemble())
			} else {
				assert.InDeltaf(t, r.Outputs[0][c], out[x][c], tol, "pixel %d component %d\n%s", x, c, src)
			}
		}
	}
	return prog
}

var (
	inA = [4]float32{0.75, -1.5, 2.25, 0.125}
	inB = [4]float32{0.5, 3, -0.25, 1}
	inC = [4]float32{-2, 0.375, 4, 0.625}
)

func TestCompiledMatchesInterpreter(t *testing.T) {
	head := "fragment\nin v0 tex0\nin v1 tex1\nin v2 tex2\nout o0 color\nconst c0 0.5 2 -3 0.25\n"
	px := [][][4]float32{{inA, inB, inC}, {inB, inC, inA}, {inC, inA, inB}}
	tests := []string{
		"mov o0, v0",
		"mov o0, v0.wzyx",
		"mov o0, v0.yxzw",
		"mov o0, v0.x01y",
		"add o0, v0, -v1",
		"mul o0, |v0|, v1.zzzw",
		"mad o0, v0, v1, v2",
		"mad o0, v0.yzxw, c0, -|v2|",
		"dp3 o0, v0, v1",
		"dp3 o0.xw, v0.zxyw, v2",
		"dp4 o0, v0, v1",
		"dph o0, v0, v2",
		"dp2 o0, v1, v2",
		"min o0, v0, v1",
		"max o0, v0, c0",
		"slt o0, v0, v1",
		"sge o0, v0, v1",
		"seq o0, v0, v0.xxxx",
		"sne o0, v0, v1.xxxx",
		"cmp o0, v2, v0, v1",
		"cnd o0, v0, v1, v2",
		"lrp o0, v0.w, v1, v2",
		"frc o0, v2",
		"flr o0, v0",
		"rcp o0, v0.y",
		"rcp o0.yz, v2.w",
		"rsq o0, v1.x",
		"mov_sat o0, v0",
		"mul r0, v0, c0.y\nmov o0, r0",
		"mul r0, v0, v1\nmul o0, r0, c0.x",
		"add r0, v0, v1\nmul_sat o0, r0, c0.y",
		"add r0, c0.w, -v1\nmul o0, r0, v2",
		"add r0.xyz, v0, -v1\nmov r0.w, v2.x\nmad o0, r0, v2, r0.wzyx",
		"tex r0, v0, s0\nmul o0, r0, v1",
		"mul r0, v0, c0.x\ntex r1, r0, s0\nmov o0, r1",
		"tex r0, v0, s0\ntex r1, r0, s0\nadd o0, r1, r0",
		"txp r0, v0, s0\nmov o0, r0.wzyx",
		"tex r0, v0, s3\nmov o0, r0",
		"kil v0\nmov o0, v1",
		"add r0, v0, c0.x\nkil r0.xyzz\nmov o0, r0",
		"mov o0.xy, v0\nmov o0.zw, v1",
	}
	for _, body := range tests {
		t.Run(body, func(t *testing.T) {
			compare(t, head+body+"\n", nil, 0, px...)
		})
	}
	// Transcendentals: the simulator's series and the interpreter's
	// library may differ in the last bits.
	for _, body := range []string{"ex2 o0, v0.y", "lg2 o0, v2.z", "pow o0, v1.y, v0.x", "ex2 o0.w, v2.x"} {
		t.Run(body, func(t *testing.T) {
			compare(t, head+body+"\n", nil, 1e-4, px...)
		})
	}
	// SIN and COS are polynomials evaluated in FP24: mediump accuracy.
	for _, body := range []string{"sin o0, v0.y", "cos o0, v2.x", "sin o0.w, v1.z"} {
		t.Run(body, func(t *testing.T) {
			compare(t, head+body+"\n", nil, 5e-4, px...)
		})
	}
}

func TestUniforms(t *testing.T) {
	src := "fragment\nin v0 color0\nout o0 color\nuniform c0 u_tint\nconst c1 0.5 0.5 0.5 0.5\nmad o0, v0, c0, c1\n"
	u := map[string][4]float32{"u_tint": {0.25, 2, -1, 0.5}}
	compare(t, src, u, 0, [][4]float32{inA}, [][4]float32{inB})
	p, _ := ir.Parse(src)
	prog, err := Compile(p, Options{})
	require.NoError(t, err)
	_, err = prog.ConstValues(nil)
	assert.ErrorContains(t, err, `no value for uniform "u_tint"`)
	assert.Equal(t, ConstSlot{Uniform: [4]string{"u_tint", "u_tint", "u_tint", "u_tint"}, Comp: [4]int{0, 1, 2, 3}}, prog.Consts[0])
}

func TestSpecialValues(t *testing.T) {
	src := "fragment\nin v0 tex0\nout o0 color\nrcp o0.x, v0.x\nrsq o0.y, v0.x\nlg2 o0.z, v0.x\nmul o0.w, v0.y, v0.z\n"
	compare(t, src, nil, 0, [][4]float32{{0, 1e30, 1e30, 0}}, [][4]float32{{float32(math.Copysign(0, -1)), 3e-19, 3e-19, 0}})
	p, _ := ir.Parse(src)
	r, err := ir.Run(p, &ir.Env{Inputs: [][4]float32{{0, 1e30, 1e30, 0}}, Round: r3.RoundFP24})
	require.NoError(t, err)
	assert.Equal(t, [4]float32{r3.FP24Max, r3.FP24Max, -r3.FP24Max, r3.FP24Max}, r.Outputs[0])
	_ = math.Inf
}
