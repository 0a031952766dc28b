package r300

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/compiler/ir"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// The passes added for code quality (select, cse, dontCare, transw,
// flexible units, constant packing, literal vectors by value, pre-subtract
// of a value read twice) each alone, then together on programs run on the
// simulated US against the interpreter, bit for bit.

func TestSelectPass(t *testing.T) {
	// if (a < b) r = c4; else r = c5; as the front end if-converts it.
	_, after := passDump(t, `fragment
in v0 tex0
in v1 tex1
out o0 color
const c0 1 1 1 1
const c1 0 1 0 1
const c2 1 0 0 1
slt r1.x, v0.x, v1.x
cnd r0, r1.x, c1, r0
add r2.x, c0, -r1.x
cnd r0, r2.x, c2, r0
mov o0, r0
`, "select")
	// One selection on the difference: red where a - b >= 0; z and w
	// are the same either way.
	assert.Equal(t, "mad t4.x, v0.x000, 1, -v1.x000\ncmp t3.xyzw, c2.xyzw, c1.xyzw, t4.xx**\nmad out0.xyzw, t3.xyzw, 1, 0\n", after)

	// 1 - t of a comparison is a comparison; the selection takes its
	// condition.
	_, after = passDump(t, `fragment
in v0 tex0
out o0 color
const c0 1 1 1 1
sge r1.x, v0.x, v0.y
add r2.x, c0, -r1.x
cnd o0, r2.x, v0, v0.wzyx
`, "select")
	assert.Equal(t, "mad t2.x, v0.x000, 1, -v0.y000\ncmp out0.xyzw, v0.wzyx, v0.xyzw, t2.xxxx\n", after)
}

func TestDontCarePositions(t *testing.T) {
	_, after := passDump(t, `fragment
in v0 tex0
out o0 color
const c0 0 1 0 1
const c1 1 0 0 1
cmp o0, v0.x, c0, c1
`, "select")
	// z and w are 0 and 1 either way: the condition is read in x, y only.
	assert.Contains(t, after, "v0.xx**")
}

func TestCSEPass(t *testing.T) {
	before, after := passDump(t, `fragment
in v0 tex0
out o0 color
rcp r0.x, v0.x
rcp r1.y, v0.x
mul r2.x, r0.x, v0.y
mul r3.x, r1.y, v0.z
add o0, r2.x, r3.x
`, "cse")
	assert.Equal(t, 2, strings.Count(before, "rcp"))
	assert.Equal(t, 1, strings.Count(after, "rcp"))
	// The second reciprocal's reader reads the first's component.
	assert.Contains(t, after, "mad t3.x, t0.x000, v0.z000, 0")
}

func TestTransWPass(t *testing.T) {
	_, after := passDump(t, `fragment
in v0 tex0
out o0 color
rsq r0.x, v0.x
mul o0, v0, r0.x
`, "transw")
	assert.Contains(t, after, "rsq t0.w, |v0.xxxx|")
	assert.Contains(t, after, "mad out0.xyzw, v0.xyzw, t0.wwww, 0")
	p, err := compileText(t, "fragment\nin v0 tex0\nout o0 color\nrsq r0.x, v0.x\nmul o0, v0, r0.x\n")
	require.NoError(t, err)
	assert.Equal(t, 2, p.Stats.ALU)
	assert.NotContains(t, strings.Join(p.Disassemble(), "\n"), "SOP", "the alpha unit writes the reciprocal itself")
}

func TestFlexibleUnits(t *testing.T) {
	// Two independent scalar chains: one runs in the alpha unit beside
	// the other in the RGB unit.
	src := `fragment
in v0 tex0
in v1 tex1
out o0 color
mad r0.x, v0.x, v0.y, v0.z
mad r0.x, r0.x, v0.y, v0.z
mad r0.x, r0.x, v0.y, v0.z
mad r1.x, v1.x, v1.y, v1.z
mad r1.x, r1.x, v1.y, v1.z
mad r1.x, r1.x, v1.y, v1.z
add o0, r0.x, r1.x
`
	p, err := compileText(t, src)
	require.NoError(t, err)
	assert.Equal(t, 4, p.Stats.ALU, "three paired steps and the sum")
	compare(t, src, nil, 0, [][4]float32{inA, inB}, [][4]float32{inC, inA})
}

func TestConstantPacking(t *testing.T) {
	src := `fragment
in v0 tex0
out o0 color
uniform c0 k
uniform c1 tint
uniform c2 tol
const c3 0 1 0 1
const c4 1 0 0 1
mad r0.xyz, v0, c1, c0.x
dp3 r1.x, r0, r0
add r2.x, c2.x, -r1.x
cmp o0, r2.x, c3, c4
`
	u := map[string][4]float32{"k": {0.25, 9, 9, 9}, "tint": {2, -1, 0.5, 7}, "tol": {3, 9, 9, 9}}
	p := compare(t, src, u, 0, [][4]float32{inA}, [][4]float32{inB}, [][4]float32{inC})
	// tint's w is free for k; tol sits in place for the pre-subtract;
	// vec4(1, 0, 0, 1) is vec4(0, 1, 0, 1).gbr.
	assert.Equal(t, 3, p.Stats.Consts)
	assert.Equal(t, ConstSlot{Uniform: [4]string{"tint", "tint", "tint", "k"}, Comp: [4]int{0, 1, 2, 0}}, p.Consts[0])
	assert.Equal(t, 3, p.Stats.ALU, "mad, dp3, and the selection with the difference pre-subtracted")
}

func TestPresubTwice(t *testing.T) {
	src := "fragment\nin v0 tex0\nin v1 tex1\nout o0 color\nadd r0.xyz, v0, -v1\ndp3 o0, r0, r0\n"
	p := compare(t, src, nil, 0, [][4]float32{inA, inB}, [][4]float32{inC, inA})
	assert.Equal(t, 1, p.Stats.ALU)
	assert.Equal(t, 1, p.Stats.Presub)
}

func TestSinCosPrecision(t *testing.T) {
	// The expansions on the US against the exact functions, over
	// several periods: the polynomial (5e-7, 7.8e-7) plus FP24 rounding
	// of the reduction (x/2π, 2^-17 relative) and of each step.
	var px [][][4]float32
	var xs []float64
	for i := 0; i <= 64; i++ {
		x := -10 + 20*float64(i)/64
		xs = append(xs, x)
		px = append(px, [][4]float32{{float32(x), 0, 0, 0}})
	}
	for _, tc := range []struct {
		op string
		f  func(float64) float64
	}{{"sin", math.Sin}, {"cos", math.Cos}} {
		p, err := compileText(t, fmt.Sprintf("fragment\nin v0 tex0\nout o0 color\n%s o0, v0.x\n", tc.op))
		require.NoError(t, err)
		out, _ := runOnSim(t, p, nil, px)
		worst := 0.0
		for i, x := range xs {
			worst = math.Max(worst, math.Abs(float64(out[i][0])-tc.f(float64(float32(x)))))
		}
		assert.Less(t, worst, 2e-4, tc.op)
	}
	// tan shares sin's and cos's reduction.
	p, err := compileText(t, "fragment\nin v0 tex0\nout o0 color\nsin r0.x, v0.x\ncos r1.x, v0.x\nrcp r1.x, r1.x\nmul o0, r0.x, r1.x\n")
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(strings.Join(p.Disassemble(), "\n"), "FRC"), "one reduction")
}

// TestRandomSelectPrograms runs random programs shaped like the front
// end's output (comparisons into scalars, if-converted selections with
// negated predicates, literal vectors, uniforms, scalar chains, dot
// products of differences) on the simulated US and in the interpreter:
// bit for bit.
func TestRandomSelectPrograms(t *testing.T) {
	rng := rand.New(rand.NewSource(301))
	n := 80
	if testing.Short() {
		n = 20
	}
	cmps := []string{"slt", "sge", "seq", "sne"}
	for prog := 0; prog < n; prog++ {
		var b strings.Builder
		b.WriteString("fragment\nin v0 tex0\nin v1 tex1\nin v2 tex2\nout o0 color\n")
		b.WriteString("const c0 1 1 1 1\nconst c1 0 1 0 1\nconst c2 1 0 0 1\nconst c3 0 0 1 1\nconst c4 0.5 -2 3 0.25\n")
		b.WriteString("uniform c5 ua\nuniform c6 ub\n")
		operand := func() string {
			switch rng.Intn(6) {
			case 0:
				return fmt.Sprintf("c%d", 1+rng.Intn(4))
			case 1:
				return fmt.Sprintf("c%d.%c", 5+rng.Intn(2), "xyzw"[rng.Intn(4)])
			case 2:
				return fmt.Sprintf("r%d", rng.Intn(4))
			default:
				return fmt.Sprintf("v%d", rng.Intn(3))
			}
		}
		scalar := func() string {
			r := fmt.Sprintf("%s.%c", []string{"v0", "v1", "v2", "c5", "c6", "r4", "r5"}[rng.Intn(7)], "xyzw"[rng.Intn(4)])
			if rng.Intn(4) == 0 {
				r = "-" + r
			}
			return r
		}
		for i := 0; i < 4+rng.Intn(8); i++ {
			dst := fmt.Sprintf("r%d", rng.Intn(4))
			switch rng.Intn(8) {
			case 0, 1:
				fmt.Fprintf(&b, "%s r4.x, %s, %s\n", cmps[rng.Intn(4)], scalar(), scalar())
				if rng.Intn(2) == 0 {
					b.WriteString("add r5.x, c0, -r4.x\n")
				} else {
					b.WriteString("mov r5.x, r4.x\n")
				}
			case 2:
				fmt.Fprintf(&b, "cnd %s, r%d.x, %s, %s\n", dst, 4+rng.Intn(2), operand(), dst)
			case 3:
				fmt.Fprintf(&b, "cmp %s, %s, %s, %s\n", dst, scalar(), operand(), operand())
			case 4:
				fmt.Fprintf(&b, "add r6.xyz, %s, -%s\ndp3 r%d.x, r6, r6\n", operand(), operand(), 4+rng.Intn(2))
			case 5:
				fmt.Fprintf(&b, "%s r%d.x, %s\n", []string{"rcp", "rsq"}[rng.Intn(2)], 4+rng.Intn(2), scalar())
			case 6:
				fmt.Fprintf(&b, "mad r%d.x, %s, %s, %s\n", 4+rng.Intn(2), scalar(), scalar(), scalar())
			default:
				fmt.Fprintf(&b, "mad %s, %s, %s, %s\n", dst, operand(), scalar(), operand())
			}
		}
		fmt.Fprintf(&b, "mov o0, r%d\n", rng.Intn(4))
		text := b.String()
		u := map[string][4]float32{"ua": {0.5, -1, 2, 0.75}, "ub": {0.75, 0.5, -3, 1}}
		px := [][][4]float32{{inA, inB, inC}, {inC, inA, inB}, {inB, inB, inA}}
		t.Run(fmt.Sprint(prog), func(t *testing.T) {
			compare(t, text, u, 0, px...)
		})
	}
}

// TestUnpresub checks the fallback that computes a pre-subtract apart
// (legalize uses it when a consumer's operands outrun the source slots):
// forced on every pre-subtract, the program still matches the interpreter.
func TestUnpresub(t *testing.T) {
	for _, src := range []string{
		"add r0.xyz, v0, -v1\ndp3 o0, r0, r0\n",
		"add r0, c0.w, -v1\nmul o0, r0, v2\n",
		"add r0, v0, v1\nmul o0, r0, v2\n",
	} {
		text := "fragment\nin v0 tex0\nin v1 tex1\nin v2 tex2\nout o0 color\nconst c0 0.5 2 -3 1\n" + src
		p, err := ir.Parse(text)
		require.NoError(t, err)
		c := &compilation{src: p, p: p.Clone()}
		for _, ps := range Passes {
			if ps.name == "legalize" {
				n := 0
				for i := range c.insts {
					if v := &c.insts[i]; !v.dead && v.pop >= 0 {
						require.NoError(t, c.unpresub(v))
						n++
					}
				}
				assert.Equal(t, 1, n, src)
			}
			require.NoError(t, ps.fn(c), ps.name)
		}
		assert.Zero(t, c.out.Stats.Presub)
		px := [][][4]float32{{inA, inB, inC}, {inC, inA, inB}}
		out, ok := runOnSim(t, c.out, nil, px)
		for x, in := range px {
			r, err := ir.Run(p, &ir.Env{Inputs: in, Round: r3.RoundFP24})
			require.NoError(t, err)
			require.True(t, ok[x])
			assert.Equal(t, r.Outputs[0], out[x], src)
		}
	}
}
