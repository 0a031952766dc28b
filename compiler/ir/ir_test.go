package ir

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal/r300"
)

const sample = `fragment
in v0 color0
in v1 tex0
out o0 color
const c0 0.5 0.25 0 1
uniform c1 u_tint
tex r0, v1, s0
mul r1.xyz, r0, v0
mad_sat o0.xyz, r1, c1, c0.x
mov o0.w, -|c0.w|
kil r0.xyz0
txp r2.xy, v1.xyww, s3, cube
`

func TestTextRoundTrip(t *testing.T) {
	p, err := Parse(sample)
	require.NoError(t, err)
	assert.Equal(t, sample, p.String())
	assert.Equal(t, Inst{Op: TXP, Dst: Dst{Reg{Temp, 2}, 3}, Src: [3]Src{{Reg: Reg{Input, 1}, Swz: Swizzle{0, 1, 3, 3}}}, Unit: 3, Target: TexCube}, p.Insts[5])
	assert.Equal(t, Src{Reg: Reg{Const, 0}, Swz: Splat(3), Abs: true, Neg: true}, p.Insts[3].Src[0])
	assert.Equal(t, 3, p.NumTemps())
	q, err := Parse(p.String())
	require.NoError(t, err)
	assert.Equal(t, p, q)
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"", "line 1: empty program"},
		{"pixel\n", "line 1: program must start"},
		{"fragment\nin v1 color0\n", "line 2: in declares v1, want v0"},
		{"fragment\nfoo r0, r1\n", `unknown opcode "foo"`},
		{"fragment\nmov r0\n", "mov takes 2 operands, got 1"},
		{"fragment\nmov r0.xx, r1\n", "bad write mask"},
		{"fragment\nmov r0, r1.q\n", "bad swizzle"},
		{"fragment\nmov r0, v0\n", "input v0 is not declared"},
		{"fragment\nmov c0, r1\n", "cannot write c0"},
		{"fragment\ntex r0, r1, t0\n", `bad sampler "t0"`},
		{"fragment\nconst c0 1 2 3\n", "const: want four values"},
		{"fragment\nmov r0, |r1\n", "bad absolute value"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.src)
		require.Error(t, err, tc.src)
		assert.Contains(t, err.Error(), tc.want, tc.src)
	}
}

// run evaluates a one-output program on inputs.
func run(t *testing.T, src string, round Rounder, inputs ...[4]float32) [4]float32 {
	t.Helper()
	p, err := Parse(src)
	require.NoError(t, err)
	r, err := Run(p, &Env{Inputs: inputs, Round: round})
	require.NoError(t, err)
	return r.Outputs[0]
}

func TestOpcodes(t *testing.T) {
	a := [4]float32{1.5, -2, 0.25, 4}
	b := [4]float32{0.5, 3, -1, 0.75}
	c := [4]float32{-1, 0.5, 2, 0.6}
	head := "fragment\nin v0 a\nin v1 b\nin v2 c\nout o0 x\n"
	tests := []struct {
		body string
		want [4]float32
	}{
		{"mov o0, v0.wzyx", [4]float32{4, 0.25, -2, 1.5}},
		{"add o0, v0, -v1", [4]float32{1, -5, 1.25, 3.25}},
		{"mul o0, v0, v1", [4]float32{0.75, -6, -0.25, 3}},
		{"mad o0, v0, v1, v2", [4]float32{-0.25, -5.5, 1.75, 3.6}},
		{"dp2 o0, v0, v1", [4]float32{-5.25, -5.25, -5.25, -5.25}},
		{"dp3 o0, v0, v1", [4]float32{-5.5, -5.5, -5.5, -5.5}},
		{"dp4 o0, v0, v1", [4]float32{-2.5, -2.5, -2.5, -2.5}},
		{"dph o0, v0, v1", [4]float32{-4.75, -4.75, -4.75, -4.75}},
		{"min o0, v0, v1", [4]float32{0.5, -2, -1, 0.75}},
		{"max o0, v0, v1", [4]float32{1.5, 3, 0.25, 4}},
		{"slt o0, v0, v1", [4]float32{0, 1, 0, 0}},
		{"sge o0, v0, v1", [4]float32{1, 0, 1, 1}},
		{"seq o0, v0, v0.x", [4]float32{1, 0, 0, 0}},
		{"sne o0, v0, v0.x", [4]float32{0, 1, 1, 1}},
		{"cmp o0, v2, v0, v1", [4]float32{0.5, -2, 0.25, 4}},
		{"cnd o0, v2, v0, v1", [4]float32{0.5, 3, 0.25, 4}},
		{"lrp o0, v2, v0, v1", [4]float32{-0.5, 0.5, 1.5, 2.7}},
		{"frc o0, v0", [4]float32{0.5, 0, 0.25, 0}},
		{"flr o0, v1", [4]float32{0, 3, -1, 0}},
		{"rcp o0, v1.w", [4]float32{4.0 / 3, 4.0 / 3, 4.0 / 3, 4.0 / 3}},
		{"rsq o0, v0.z", [4]float32{2, 2, 2, 2}},
		{"rsq o0, -v0.w", [4]float32{0.5, 0.5, 0.5, 0.5}},
		{"ex2 o0, v1.z", [4]float32{0.5, 0.5, 0.5, 0.5}},
		{"lg2 o0, v0.w", [4]float32{2, 2, 2, 2}},
		{"pow o0, v0.w, v0.x", [4]float32{8, 8, 8, 8}},
		{"mov_sat o0, v0", [4]float32{1, 0, 0.25, 1}},
		{"mov o0.xz, v0", [4]float32{1.5, 0, 0.25, 0}},
	}
	for _, tc := range tests {
		got := run(t, head+tc.body+"\n", nil, a, b, c)
		for i := range got {
			assert.InDeltaf(t, tc.want[i], got[i], 1e-6, "%s [%d]", tc.body, i)
		}
	}
	// Special values: float32 gives infinities, FP24 saturates and flushes.
	got := run(t, "fragment\nin v0 a\nout o0 x\nrcp o0.x, v0.x\nlg2 o0.y, v0.x\nrsq o0.z, v0.x\nlg2 o0.w, -v0.w\n", nil, [4]float32{0, 0, 0, 1})
	assert.True(t, math.IsInf(float64(got[0]), 1))
	assert.True(t, math.IsInf(float64(got[1]), -1))
	assert.True(t, math.IsNaN(float64(got[3])))
	got = run(t, "fragment\nin v0 a\nout o0 x\nrcp o0.x, v0.x\nlg2 o0.y, v0.x\nrsq o0.z, v0.x\nlg2 o0.w, -v0.w\n", r300.RoundFP24, [4]float32{0, 0, 0, 1})
	assert.Equal(t, [4]float32{r300.FP24Max, -r300.FP24Max, r300.FP24Max, 0}, got)
	// FP24 rounding truncates every result: 1/3 keeps 16 fraction bits.
	got = run(t, head+"rcp o0, v2.z\nmul o0.y, v2.z, v2.z\n", r300.RoundFP24, a, b, [4]float32{0, 0, 3, 0})
	assert.Equal(t, float32(0x15555)/float32(1<<18), got[0])
	assert.Equal(t, float32(9), got[1])
}

func TestKillAndTexture(t *testing.T) {
	p, err := Parse("fragment\nin v0 tex0\nout o0 color\nkil v0.xyz1\ntxb o0, v0, s2\n")
	require.NoError(t, err)
	var gotUnit int
	var gotCoord [4]float32
	env := &Env{Inputs: [][4]float32{{0.5, 0.25, -1, 2}}, Sample: func(unit int, tg TexTarget, op Op, c [4]float32) [4]float32 {
		gotUnit, gotCoord = unit, c
		assert.Equal(t, TXB, op)
		return [4]float32{1, 0.5, 0.25, 1}
	}}
	r, err := Run(p, env)
	require.NoError(t, err)
	assert.True(t, r.Killed)
	assert.Equal(t, 2, gotUnit)
	assert.Equal(t, [4]float32{0.5, 0.25, -1, 2}, gotCoord)
	assert.Equal(t, [4]float32{1, 0.5, 0.25, 1}, r.Outputs[0])
	assert.Equal(t, MaskXYZW, r.Written[0])
	_, err = Run(p, &Env{})
	assert.ErrorContains(t, err, "0 inputs given, program has 1")
}

// pass runs one pass on a program in text form and returns the result.
func pass(t *testing.T, src string, fn func(*Program) bool) (string, bool) {
	t.Helper()
	p, err := Parse(src)
	require.NoError(t, err)
	ch := fn(p)
	require.NoError(t, p.Verify())
	return p.String(), ch
}

func TestDeadCode(t *testing.T) {
	got, ch := pass(t, `fragment
in v0 color0
out o0 color
mov r0, v0
mul r1, r0, r0
add r2.xy, r0, v0
mov o0.x, r0
mov o0.x, r1.y
mov o0.yzw, r2.x
`, DeadCode)
	assert.True(t, ch)
	assert.Equal(t, `fragment
in v0 color0
out o0 color
mov r0.xy, v0
mul r1.y, r0, r0
add r2.x, r0, v0
mov o0.x, r1.y
mov o0.yzw, r2.x
`, got)
	_, ch = pass(t, got, DeadCode)
	assert.False(t, ch)
}

func TestCopyProp(t *testing.T) {
	got, ch := pass(t, `fragment
in v0 color0
in v1 tex0
out o0 color
mov r0, -v0.wzyx
mov r1.xy, |r0.yx|
mul r2, r0, r1.xyxy
mov r0.x, v1
add o0, r0, r2
mov r3, r2.z1
mov r4, -r3
mul_sat o0, r4, r4.xyz0
`, CopyProp)
	assert.True(t, ch)
	assert.Equal(t, `fragment
in v0 color0
in v1 tex0
out o0 color
mov r0, -v0.wzyx
mov r1.xy, |v0.zwww|
mul r2, -v0.wzyx, |v0.zwzw|
mov r0.x, v1
add o0, r0, r2
mov r3, r2.z111
mov r4, -r2.z111
mul_sat o0, -r2.z111, -r2.z110
`, got)
}

func TestConstFold(t *testing.T) {
	got, ch := pass(t, `fragment
in v0 color0
out o0 color
const c0 2 0.5 1 0
add r0, c0, c0.y
dp3 r1.x, c0, c0
rcp r1.y, c0.y
mul r2, v0, c0.z
mad r3, v0, c0.x, c0.w
mad r4, c0.zzzz, v0, v0
mul_sat r5, c0, c0
add o0, r0, r1
`, func(p *Program) bool { return ConstFold(p, r300.RoundFP24) })
	assert.True(t, ch)
	assert.Equal(t, `fragment
in v0 color0
out o0 color
const c0 2 0.5 1 0
const c1 2.5 1 1.5 0.5
const c2 5.25 0 0 0
const c3 0 2 0 0
const c4 1 0.25 1 0
mov r0, c1
mov r1.x, c2
mov r1.y, c3
mov r2, v0
mul r3, v0, c0.x
add r4, v0, v0
mov r5, c4
add o0, r0, r1
`, got)
}

func TestOptimizeToFixpoint(t *testing.T) {
	p, err := Parse(`fragment
in v0 color0
out o0 color
const c0 2 0.5 1 0
mul r0, c0.x, c0.y
mul r1, v0, r0
mov r2, r1
mov o0, r2
`)
	require.NoError(t, err)
	Optimize(p, nil)
	assert.Equal(t, "fragment\nin v0 color0\nout o0 color\nconst c0 2 0.5 1 0\nconst c1 1 1 1 1\nmov o0, v0\n", p.String())
}

func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add("vertex\nin v0 position\nout o0 position\ndp4 o0.x, v0, c0\n")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		q, err := Parse(p.String())
		if err != nil {
			t.Fatalf("reparse: %v\n%s", err, p.String())
		}
		if q.String() != p.String() {
			t.Fatalf("round trip:\n%s\n%s", p.String(), q.String())
		}
		if strings.Count(p.String(), "\n") > 10000 {
			return
		}
		inputs := make([][4]float32, len(p.Inputs))
		u := map[string][4]float32{}
		for _, c := range p.Consts {
			u[c.Uniform] = [4]float32{1, 2, 3, 4}
		}
		_, _ = Run(p, &Env{Inputs: inputs, Uniforms: u, Round: r300.RoundFP24})
		Optimize(p, r300.RoundFP24)
	})
}
