package ireval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/conform"
	"github.com/retrogl/retrogl/internal/golden"
	"github.com/retrogl/retrogl/internal/piglit"
	"github.com/retrogl/retrogl/internal/testenv"
)

// builtins is where piglit keeps its generated GLSL 1.10 built-in tests.
const builtins = "generated_tests/spec/glsl-1.10/execution/built-in-functions"

// failsHeader heads testdata/conformance/r300-fp24-fails.txt.
const failsHeader = `# r300 with the preshader off (RETROGL_R300_NO_PRESHADER=1): every fragment
# operation runs on the simulated FP24 fragment unit. The expected failures of
# piglit's generated GLSL 1.10 fs-* built-in tests in that mode, "path: cause:
# detail" (paths relative to piglit's directory). With the preshader on (the
# default) all 549 pass. TestPiglitBuiltinsFP24 (cmd/rglconform) keeps the list
# exact on the simulated chip; TestFP24Failures (conform/ireval) checks that the
# IR interpreter's model of the chip (conform/ireval.Chip) fails exactly these
# files and finds each one's cause (ireval.Classify), first that applies:
#
#   result beyond FP24  the exact result of the FP24 inputs, rounded once to
#                       FP24, is outside piglit's tolerance: no FP24 value does
#   inputs beyond FP24  piglit's check fails on inputs rounded to FP24 even
#                       with float32 arithmetic
#   expansion           the result in correctly rounded FP24 (every operation
#                       rounded to nearest) is outside the tolerance, the once-
#                       rounded one within: the compiler's expansion loses it
#                       (mat4 * vec4 as a chain of four MADs; smoothstep's
#                       t²(3 - 2t) after a quotient, which a Newton step as
#                       divisions take does not save on the truncating unit)
#   check arithmetic    the result is within tolerance in correctly rounded
#                       FP24, piglit's own check computed in FP24 is not
#                       (FP24 quantisation of result and expected value)
#   truncation          the whole test passes in correctly rounded FP24; the
#                       unit's rounding toward zero ([PROP] hal/r300) fails it
#
# The first three are forced by the format; expansion and truncation are not.
# Truncation: the driver's encoder truncates constants as the unit truncates
# everything else (rounding constants to nearest passes 25 more of these but
# breaks shaders comparing a uniform with an interpolated value of the same
# number, which the RS truncates), and the unit truncates every result.
# The detail is the worst draw of the result in correctly rounded FP24 (or of
# the once-rounded result, for "result beyond FP24").
# go test ./conform/ireval -update rewrites this file from the model.
`

// TestFP24Failures runs every generated fs-* built-in test through the IR
// interpreter as the chip computes (Chip): it must fail exactly the files
// r300-fp24-fails.txt lists, and each for the cause the list gives
// (computed by Classify: the expression in correctly rounded FP24 with the
// interpreter's rounding hook, and the rest). -update rewrites the list.
func TestFP24Failures(t *testing.T) {
	dir, err := piglit.Path(builtins)
	testenv.Need(t, piglit.Package, err)
	files, err := filepath.Glob(filepath.Join(dir, "fs-*.shader_test"))
	require.NoError(t, err)
	require.Len(t, files, 549)
	var b strings.Builder
	b.WriteString(failsHeader)
	counts := map[Cause]int{}
	for _, f := range files {
		tt := parse(t, f)
		cause, chip := Classify(tt)
		require.NotEqual(t, conform.Skip, chip.Status, "%s: %s", f, chip.Reason)
		if cause == NoFailure {
			continue
		}
		counts[cause]++
		r := Nearest
		if cause == ResultBeyondFP24 {
			r = Once
		}
		detail := "the result is not a float, vector or matrix"
		if _, worst, res := Check(tt, r); res.Status == conform.Pass {
			detail = worst.String()
		}
		fmt.Fprintf(&b, "\n%s/%s: %s: %s", builtins, filepath.Base(f), cause, detail)
	}
	b.WriteString("\n")
	golden.Text(t, golden.Path("conformance", "r300-fp24-fails.txt"), b.String())
	forced := counts[ResultBeyondFP24] + counts[InputsBeyondFP24] + counts[CheckArithmetic]
	t.Logf("chip model: %d failures; forced by the format %d (result %d, inputs %d, check arithmetic %d); expansion %d; truncation %d",
		forced+counts[Expansion]+counts[Truncation], forced, counts[ResultBeyondFP24], counts[InputsBeyondFP24],
		counts[CheckArithmetic], counts[Expansion], counts[Truncation])
}

func parse(t *testing.T, path string) *conform.Test {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	tt, err := conform.Parse(path, f)
	require.NoError(t, err)
	return tt
}

// TestClassifyCauses pins one case of each cause without piglit: shader
// tests in the generated tests' form, with their inputs, expected values
// and tolerances (relative 1e-5) taken from piglit's generated fs-exp-float,
// fs-fract-float, fs-op-div-float-vec3, fs-op-add-float-vec4 and
// fs-inversesqrt-float.
func TestClassifyCauses(t *testing.T) {
	build := func(decl, expr string, draws ...string) string {
		var b strings.Builder
		b.WriteString("[require]\nGLSL >= 1.10\n\n[vertex shader]\nvoid main() { gl_Position = gl_Vertex; }\n\n[fragment shader]\n")
		b.WriteString(decl + "uniform float tolerance;\n\nvoid main()\n{\n  " + expr + "\n")
		b.WriteString("  gl_FragColor = distance(result, expected) <= tolerance ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}\n\n[test]\n")
		for i, d := range draws {
			fmt.Fprintf(&b, "%s\ndraw rect ortho %d 0 4 4\n", strings.ReplaceAll(d, "; ", "\n"), 4*i)
		}
		for i := range draws {
			fmt.Fprintf(&b, "probe rect rgba (%d, 0, 4, 4) (0.0, 1.0, 0.0, 1.0)\n", 4*i)
		}
		return b.String()
	}
	unary := "uniform float arg0;\nuniform float expected;\n"
	tests := []struct {
		name, text string
		want       Cause
	}{
		{"exact in FP24", build(unary, "float result = arg0 * 2.0;",
			"uniform float arg0 0.75; uniform float expected 1.5; uniform float tolerance 1.5e-05"), NoFailure},
		{"result beyond FP24", build(unary, "float result = exp(arg0);",
			"uniform float arg0 -2.0; uniform float expected 0.13533528; uniform float tolerance 1.3533528e-06",
			"uniform float arg0 -0.6666667; uniform float expected 0.5134171; uniform float tolerance 5.1341713e-06",
			"uniform float arg0 0.6666667; uniform float expected 1.9477341; uniform float tolerance 1.947734e-05",
			"uniform float arg0 2.0; uniform float expected 7.389056; uniform float tolerance 7.389056e-05"), ResultBeyondFP24},
		{"inputs beyond FP24", build(unary, "float result = fract(arg0);",
			"uniform float arg0 -2.0; uniform float expected 0.0; uniform float tolerance 0.0",
			"uniform float arg0 -0.6666667; uniform float expected 0.3333333; uniform float tolerance 3.333333e-06",
			"uniform float arg0 0.6666667; uniform float expected 0.6666667; uniform float tolerance 6.6666666e-06",
			"uniform float arg0 2.0; uniform float expected 0.0; uniform float tolerance 0.0"), InputsBeyondFP24},
		{"expansion", build("uniform float arg0;\nuniform float arg1;\nuniform vec2 arg2;\nuniform vec2 expected;\n", "vec2 result = smoothstep(arg0, arg1, arg2);",
			"uniform float arg0 -1.9; uniform float arg1 -0.6333333; uniform vec2 arg2 -2.0 -0.6666667; uniform vec2 expected 0.0 0.9979589; uniform float tolerance 9.979589e-06",
			"uniform float arg0 -1.9; uniform float arg1 -0.6333333; uniform vec2 arg2 0.6666667 2.0; uniform vec2 expected 1.0 1.0; uniform float tolerance 1.4142135e-05",
			"uniform float arg0 -1.9; uniform float arg1 0.6333333; uniform vec2 arg2 -2.0 -0.6666667; uniform vec2 expected 0.0 0.4802677; uniform float tolerance 4.802677e-06",
			"uniform float arg0 -1.9; uniform float arg1 0.6333333; uniform vec2 arg2 0.6666667 2.0; uniform vec2 expected 1.0 1.0; uniform float tolerance 1.4142135e-05",
			"uniform float arg0 -1.9; uniform float arg1 1.9; uniform vec2 arg2 -2.0 -0.6666667; uniform vec2 expected 0.0 0.24764164; uniform float tolerance 2.4764163e-06",
			"uniform float arg0 -1.9; uniform float arg1 1.9; uniform vec2 arg2 0.6666667 2.0; uniform vec2 expected 0.7523584 1.0; uniform float tolerance 1.2514164e-05",
			"uniform float arg0 -0.6333333; uniform float arg1 0.6333333; uniform vec2 arg2 -2.0 -0.6666667; uniform vec2 expected 0.0 0.0; uniform float tolerance 0.0",
			"uniform float arg0 -0.6333333; uniform float arg1 0.6333333; uniform vec2 arg2 0.6666667 2.0; uniform vec2 expected 1.0 1.0; uniform float tolerance 1.4142135e-05",
			"uniform float arg0 -0.6333333; uniform float arg1 1.9; uniform vec2 arg2 -2.0 -0.6666667; uniform vec2 expected 0.0 0.0; uniform float tolerance 0.0",
			"uniform float arg0 -0.6333333; uniform float arg1 1.9; uniform vec2 arg2 0.6666667 2.0; uniform vec2 expected 0.5197323 1.0; uniform float tolerance 1.1269967e-05",
			"uniform float arg0 0.6333333; uniform float arg1 1.9; uniform vec2 arg2 -2.0 -0.6666667; uniform vec2 expected 0.0 0.0; uniform float tolerance 0.0",
			"uniform float arg0 0.6333333; uniform float arg1 1.9; uniform vec2 arg2 0.6666667 2.0; uniform vec2 expected 0.0020411173 1.0; uniform float tolerance 1.0000021e-05"), Expansion},
		{"check arithmetic", build("uniform float arg0;\nuniform vec4 arg1;\nuniform vec4 expected;\n", "vec4 result = (arg0 + arg1);",
			"uniform float arg0 0.0; uniform vec4 arg1 -1.65 1.33 1.93 0.76; uniform vec4 expected -1.65 1.33 1.93 0.76; uniform float tolerance 2.965451e-05",
			"uniform float arg0 0.0; uniform vec4 arg1 0.8 -0.15 -0.51 0.0; uniform vec4 expected 0.8 -0.15 -0.51 0.0; uniform float tolerance 9.605207e-06",
			"uniform float arg0 -1.33; uniform vec4 arg1 -1.65 1.33 1.93 0.76; uniform vec4 expected -2.98 0.0 0.5999999 -0.57000005; uniform float tolerance 3.092782e-05",
			"uniform float arg0 -1.33; uniform vec4 arg1 0.8 -0.15 -0.51 0.0; uniform vec4 expected -0.53000003 -1.48 -1.84 -1.33; uniform float tolerance 2.7614851e-05",
			"uniform float arg0 0.85; uniform vec4 arg1 -1.65 1.33 1.93 0.76; uniform vec4 expected -0.79999995 2.18 2.78 1.61; uniform float tolerance 3.96395e-05",
			"uniform float arg0 0.85; uniform vec4 arg1 0.8 -0.15 -0.51 0.0; uniform vec4 expected 1.6500001 0.70000005 0.34000003 0.85; uniform float tolerance 2.0126103e-05"), CheckArithmetic},
		{"truncation", build(unary, "float result = degrees(arg0);",
			"uniform float arg0 -3.1415927; uniform float expected -180.0; uniform float tolerance 0.0018000001",
			"uniform float arg0 -1.0471976; uniform float expected -60.0; uniform float tolerance 0.0006",
			"uniform float arg0 1.0471976; uniform float expected 60.0; uniform float tolerance 0.0006",
			"uniform float arg0 3.1415927; uniform float expected 180.0; uniform float tolerance 0.0018000001"), Truncation},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt, err := conform.Parse(tc.name, strings.NewReader(tc.text))
			require.NoError(t, err)
			got, res := Classify(tt)
			assert.Equal(t, tc.want, got, "chip: %v", res)
			assert.Equal(t, got != NoFailure, res.Status == conform.Fail, "the chip model fails exactly the classified tests")
		})
	}
	assert.True(t, ResultBeyondFP24.Forced())
	assert.False(t, Truncation.Forced())
	c, ok := ParseCause("check arithmetic")
	assert.True(t, ok)
	assert.Equal(t, CheckArithmetic, c)
}
