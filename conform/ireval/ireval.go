// Package ireval judges piglit's generated fragment-shader tests (the fs-*
// built-in function and operator tests) without a backend: it lowers the
// shaders as the r300 driver does (compiler/glsl, compiler/lower, no
// preshader) and runs the fragment program once per "draw rect" through the
// IR interpreter, rounding where and how a Rounding says. That answers
// precision questions the simulated chip cannot: would correctly rounded
// FP24 pass this test, is a failure forced by the format or by the way the
// compiler expands and orders the arithmetic (issue 14; testdata/
// conformance/r300-fp24-fails.txt).
//
// Two judgements:
//   - Verdict runs the whole fragment shader, piglit's check included
//     ("distance(result, expected) <= tolerance ? green : red"), and probes
//     the colours as piglit does.
//   - Check runs only the expression under test (the shader's "result =
//     ..." statements; the check is cut off) and compares the value with
//     piglit's expected value and tolerance on the host, in float64:
//     whether the result itself is outside piglit's tolerance.
//
// The tests must draw only "draw rect ortho" rectangles and compute a
// colour from uniforms (no interpolated inputs); others are skipped.
package ireval

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/ir"
	"github.com/retrogl/retrogl/compiler/lower"
	"github.com/retrogl/retrogl/conform"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// Rounding says how an evaluation rounds. A nil Rounder keeps float32.
type Rounding struct {
	// Const rounds uniform values and literal constants once, as the
	// chip's constant registers hold them.
	Const ir.Rounder
	// Op rounds every input and every instruction's result (ir.Env.Round).
	Op ir.Rounder
	// Result rounds the value Check compares, once, after the program.
	Result ir.Rounder
}

// The roundings the FP24 analysis uses.
var (
	// Chip is the R3xx fragment unit as the driver and the simulator use
	// it: constants truncated to FP24 by the driver's encoder and every ALU
	// result truncated (r3.RoundFP24).
	Chip = Rounding{Const: r3.RoundFP24, Op: r3.RoundFP24}
	// Nearest is correctly rounded FP24: constants and every operation
	// rounded to the nearest FP24 value.
	Nearest = Rounding{Const: RoundNearest, Op: RoundNearest}
	// Once is the best an FP24 machine can do: constants rounded to the
	// nearest FP24 value (the format holds nothing finer), the arithmetic
	// in float32 (2^7 times finer than FP24), the result rounded once.
	Once = Rounding{Const: RoundNearest, Result: RoundNearest}
)

// RoundNearest rounds x to the nearest FP24 value (ties to even), with the
// flush and saturation rules of r3.RoundFP24: correctly rounded FP24.
func RoundNearest(x float64) float32 {
	if x != x {
		return 0
	}
	b := math.Float64bits(x)
	const drop = 52 - 16 // the fraction bits FP24 does not keep
	low := b & (1<<drop - 1)
	b &^= 1<<drop - 1
	if half := uint64(1) << (drop - 1); low > half || low == half && b&(1<<drop) != 0 {
		b += 1 << drop // a carry into the exponent is the right result
	}
	return r3.RoundFP24(math.Float64frombits(b))
}

// Draw is one evaluated "draw rect": its [test] line, the GL uniform values
// it ran with and the fragment program's outputs by name ("color",
// "color1", ...).
type Draw struct {
	Line     int
	Rect     [4]float64 // x, y, w, h in window coordinates
	Uniforms map[string][]float64
	Outputs  map[string][4]float32
	Killed   bool
}

// skip and fail end an evaluation (recovered into a conform.Result).
type stop struct{ res conform.Result }

func skipf(format string, args ...any) {
	panic(stop{conform.Result{Status: conform.Skip, Reason: fmt.Sprintf(format, args...)}})
}

func failf(format string, args ...any) {
	panic(stop{conform.Result{Status: conform.Fail, Reason: fmt.Sprintf(format, args...)}})
}

func recoverStop(res *conform.Result) {
	if x := recover(); x != nil {
		s, ok := x.(stop)
		if !ok {
			panic(x)
		}
		*res = s.res
	}
}

// limits lets the rewritten shaders of Check write gl_FragData[0..3].
var limits = glsl.Limits{MaxDrawBuffers: 4}

// Draws evaluates every "draw rect ortho" of t with fragment shader fs
// (t's own when fs is ""). The result is Pass unless t cannot be
// evaluated.
func Draws(t *conform.Test, fs string, r Rounding) (draws []Draw, res conform.Result) {
	defer recoverStop(&res)
	vsrc, fsrc, res := conform.Sources(t)
	if res.Status != conform.Pass {
		return nil, res
	}
	if fs != "" {
		tt := *t
		tt.FragmentShader = fs
		_, fsrc, _ = conform.Sources(&tt)
	}
	vs, err := glsl.Compile(vsrc, glsl.Options{Stage: glsl.StageVertex})
	if err != nil {
		failf("vertex shader: %v", oneLine(err.Error()))
	}
	fsh, err := glsl.Compile(fsrc, glsl.Options{Stage: glsl.StageFragment, Limits: limits})
	if err != nil {
		failf("fragment shader: %v", oneLine(err.Error()))
	}
	prog, err := glsl.Link(vs, fsh, glsl.LinkOptions{Limits: limits})
	if err != nil {
		failf("link: %v", oneLine(err.Error()))
	}
	low, err := lower.Lower(prog, lower.Options{MaxAttribs: 16})
	if err != nil {
		failf("lower: %v", oneLine(err.Error()))
	}
	frag := low.Fragment
	if len(frag.Inputs) > 0 {
		skipf("the fragment program reads interpolated inputs")
	}
	if r.Const != nil {
		frag = frag.Clone()
		for i := range frag.Consts {
			for c, v := range frag.Consts[i].Value {
				frag.Consts[i].Value[c] = r.Const(float64(v))
			}
		}
	}
	byLoc := map[int]string{}
	for _, u := range prog.Uniforms {
		for e := 0; e < u.Size; e++ {
			name := u.Name
			if u.Size > 1 {
				name = fmt.Sprintf("%s[%d]", u.Name, e)
			}
			byLoc[u.Location+e] = name
		}
	}
	uniforms := map[string][]float64{}
	for _, c := range t.Commands {
		f := c.Fields()
		switch {
		case f[0] == "uniform":
			if len(f) < 4 {
				failf("line %d: uniform TYPE NAME VALUES", c.N)
			}
			vals, err := numbers(f[3:])
			if err != nil {
				failf("line %d: %v", c.N, err)
			}
			uniforms[f[2]] = vals
		case strings.HasPrefix(c.Text, "draw rect ortho") && len(f) == 7:
			rect, err := numbers(f[3:])
			if err != nil {
				failf("line %d: %v", c.N, err)
			}
			values := low.UniformValues(func(loc int) []float32 {
				vals := uniforms[byLoc[loc]]
				out := make([]float32, len(vals))
				for i, x := range vals {
					out[i] = float32(x)
				}
				return out
			})
			if r.Const != nil {
				for k, v := range values {
					for c := range v {
						v[c] = r.Const(float64(v[c]))
					}
					values[k] = v
				}
			}
			out, err := ir.Run(frag, &ir.Env{Uniforms: values, Round: r.Op})
			if err != nil {
				failf("line %d: %v", c.N, err)
			}
			d := Draw{Line: c.N, Rect: [4]float64(rect), Uniforms: map[string][]float64{}, Outputs: map[string][4]float32{}, Killed: out.Killed}
			for k, v := range uniforms {
				d.Uniforms[k] = v
			}
			for i, o := range frag.Outputs {
				d.Outputs[o.Name] = out.Outputs[i]
			}
			draws = append(draws, d)
		case f[0] == "clear" || f[0] == "probe" || strings.HasPrefix(c.Text, "clear color"):
		default:
			skipf("line %d: %q is not evaluated", c.N, c.Text)
		}
	}
	return draws, conform.Result{Status: conform.Pass}
}

// Verdict judges t as piglit would from its probes, the colours computed
// by the IR interpreter with rounding r (a colour buffer of 8 bits per
// channel, piglit's tolerance of 3/256).
func Verdict(t *conform.Test, r Rounding) (res conform.Result) {
	defer recoverStop(&res)
	draws, res := Draws(t, "", r)
	if res.Status != conform.Pass {
		return res
	}
	type rect struct {
		x0, y0, x1, y1 float64
		c              [4]float64
	}
	var rects []rect
	var clear [4]float64
	for _, c := range t.Commands {
		f := c.Fields()
		switch {
		case strings.HasPrefix(c.Text, "clear color"):
			v, err := numbers(f[2:])
			if err != nil || len(v) != 4 {
				failf("line %d: clear color needs 4 values", c.N)
			}
			copy(clear[:], v)
		case c.Text == "clear":
			rects = append(rects, rect{0, 0, 1 << 20, 1 << 20, clear})
		case strings.HasPrefix(c.Text, "draw rect"):
			d := draws[0]
			draws = draws[1:]
			if d.Killed {
				continue
			}
			var col [4]float64
			for k, x := range d.Outputs["color"] {
				// The colour buffer holds 8 bits per channel.
				col[k] = math.Round(float64(max(0, min(x, 1)))*255) / 255
			}
			rects = append(rects, rect{d.Rect[0], d.Rect[1], d.Rect[0] + d.Rect[2], d.Rect[1] + d.Rect[3], col})
		case f[0] == "probe":
			if len(f) < 3 || f[1] != "rect" || f[2] != "rgba" {
				skipf("line %d: %q is not evaluated", c.N, c.Text)
			}
			v, err := numbers(f[3:])
			if err != nil || len(v) != 8 {
				failf("line %d: bad probe rect", c.N)
			}
			// Probe the rectangle's centre: the generated tests probe
			// exactly the rectangles they draw.
			px, py := v[0]+v[2]/2, v[1]+v[3]/2
			var got [4]float64
			for _, r := range rects {
				if px >= r.x0 && px < r.x1 && py >= r.y0 && py < r.y1 {
					got = r.c
				}
			}
			for k := 0; k < 4; k++ {
				if math.Abs(got[k]-v[4+k]) > 3.0/256 {
					return conform.Result{Status: conform.Fail, Reason: fmt.Sprintf("line %d: probe at (%g, %g): expected %v, computed %v", c.N, v[0], v[1], v[4:], got)}
				}
			}
		}
	}
	return conform.Result{Status: conform.Pass}
}

// Miss is the worst draw of a Check: its line, piglit's distance between
// the result and the expected value, and the tolerance.
type Miss struct {
	Line                int
	Distance, Tolerance float64
}

// String formats the miss as "line 45: distance 1.2e-05 > tolerance 8.5e-06".
func (m Miss) String() string {
	cmp := "<="
	if m.Distance > m.Tolerance {
		cmp = ">"
	}
	return fmt.Sprintf("line %d: distance %.3g %s tolerance %.3g", m.Line, m.Distance, cmp, m.Tolerance)
}

// resultDecl finds the generated tests' "TYPE result = ..." declaration.
var resultDecl = regexp.MustCompile(`(?m)^\s*(float|vec[234]|mat[234]) result = `)

// ResultShader rewrites a generated test's fragment shader so it computes
// only the expression under test: the statements from "TYPE result = ..."
// up to piglit's check stay, the check (the lines that mention residual,
// error_sq or gl_FragColor) becomes writes of result, column k of a matrix
// to gl_FragData[k]. It returns the shader and result's type.
func ResultShader(fs string) (string, glsl.Type, error) {
	m := resultDecl.FindStringSubmatchIndex(fs)
	if m == nil {
		return "", glsl.Type{}, fmt.Errorf("no float, vector or matrix 'result' declaration")
	}
	typName := fs[m[2]:m[3]]
	typ := map[string]glsl.Type{
		"float": glsl.TypeFloat, "vec2": glsl.Vec(glsl.Float, 2), "vec3": glsl.Vec(glsl.Float, 3), "vec4": glsl.Vec(glsl.Float, 4),
		"mat2": glsl.Mat(2, 2), "mat3": glsl.Mat(3, 3), "mat4": glsl.Mat(4, 4),
	}[typName]
	head, rest := fs[:m[0]], fs[m[0]:]
	var body []string
	lines := strings.SplitAfter(rest, "\n")
	cut := -1
	for i, l := range lines {
		if strings.Contains(l, "residual") || strings.Contains(l, "error_sq") || strings.Contains(l, "gl_FragColor") {
			cut = i
			break
		}
		body = append(body, l)
	}
	if cut < 0 {
		return "", glsl.Type{}, fmt.Errorf("no check after the result")
	}
	pad := strings.Repeat(", 0.0", 4-int(typ.Rows))
	if typ.IsMatrix() {
		for c := 0; c < int(typ.Cols); c++ {
			body = append(body, fmt.Sprintf("  gl_FragData[%d] = vec4(result[%d]%s);\n", c, c, pad))
		}
	} else {
		body = append(body, fmt.Sprintf("  gl_FragData[0] = vec4(result%s);\n", pad))
	}
	// Drop the check's lines up to the end of main.
	i := cut
	for i < len(lines) && strings.TrimSpace(lines[i]) != "}" {
		i++
	}
	return head + strings.Join(body, "") + strings.Join(lines[i:], ""), typ, nil
}

// Check evaluates only the expression under test with rounding r and
// compares the value of every draw with the draw's "expected" uniform and
// "tolerance" as piglit's check does (the Euclidean distance, over all
// components of a matrix), on the host in float64. It returns whether
// every draw is within tolerance and the worst draw (the largest distance
// to tolerance ratio).
func Check(t *conform.Test, r Rounding) (pass bool, worst Miss, res conform.Result) {
	fs, typ, err := ResultShader(t.FragmentShader)
	if err != nil {
		return false, Miss{}, conform.Result{Status: conform.Skip, Reason: err.Error()}
	}
	draws, res := Draws(t, fs, r)
	if res.Status != conform.Pass {
		return false, Miss{}, res
	}
	pass = true
	ratio := -1.0
	for _, d := range draws {
		exp, tol := d.Uniforms["expected"], d.Uniforms["tolerance"]
		if len(tol) != 1 || len(exp) != typ.Comps() {
			return false, Miss{}, conform.Result{Status: conform.Skip, Reason: fmt.Sprintf("line %d: no expected value and tolerance", d.Line)}
		}
		sum := 0.0
		for c := 0; c < int(typ.Cols); c++ {
			name := "color"
			if c > 0 {
				name = fmt.Sprintf("color%d", c)
			}
			o := d.Outputs[name]
			for k := 0; k < int(typ.Rows); k++ {
				v := float64(o[k])
				if r.Result != nil {
					v = float64(r.Result(v))
				}
				// piglit sets the uniforms from these float32 values.
				diff := v - float64(float32(exp[c*int(typ.Rows)+k]))
				sum += diff * diff
			}
		}
		m := Miss{d.Line, math.Sqrt(sum), float64(float32(tol[0]))}
		if m.Distance > m.Tolerance {
			pass = false
		}
		if q := m.Distance / max(m.Tolerance, 1e-300); q > ratio {
			ratio, worst = q, m
		}
	}
	return pass, worst, conform.Result{Status: conform.Pass}
}

// numbers parses the numbers of a [test] line as the runner does.
func numbers(ws []string) ([]float64, error) { return conform.Numbers(ws) }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Cause names why FP24 fails a test, from the format's limits to the
// chip's: Classify returns the first that applies.
type Cause uint8

// The causes, in the order Classify tries them.
const (
	// NoFailure: the chip model passes the test.
	NoFailure Cause = iota
	// ResultBeyondFP24: no FP24 value will do. The exact result of the
	// inputs rounded to FP24, rounded once to FP24 (Once), is outside
	// piglit's tolerance.
	ResultBeyondFP24
	// InputsBeyondFP24: the FP24 values of the test's inputs alone fail
	// it: piglit's check, run on inputs rounded to the nearest FP24 value
	// but with float32 arithmetic, draws red.
	InputsBeyondFP24
	// Expansion: the result computed in correctly rounded FP24 (Nearest,
	// every operation rounded to the nearest FP24 value) is outside the
	// tolerance although the once-rounded result is within: the compiler's
	// expansion or order of the arithmetic loses precision the format has.
	Expansion
	// CheckArithmetic: the result in correctly rounded FP24 is within the
	// tolerance, but piglit's check itself, computed in correctly rounded
	// FP24 (the test's own arithmetic on FP24 values), draws red.
	CheckArithmetic
	// Truncation: the whole test passes in correctly rounded FP24; the
	// rounding toward zero of the driver's constant encoder and of the
	// fragment unit ([PROP] hal/r300.RoundFP24) fails it.
	Truncation
)

var causeNames = [...]string{"none", "result beyond FP24", "inputs beyond FP24", "expansion", "check arithmetic", "truncation"}

// String returns the cause's name as r300-fp24-fails.txt writes it.
func (c Cause) String() string { return causeNames[c] }

// ParseCause reads a cause's name.
func ParseCause(s string) (Cause, bool) {
	for i, n := range causeNames {
		if n == s {
			return Cause(i), true
		}
	}
	return 0, false
}

// Forced reports whether the FP24 format itself (and not the compiler or
// the unit's rounding) makes the test fail.
func (c Cause) Forced() bool {
	return c == ResultBeyondFP24 || c == InputsBeyondFP24 || c == CheckArithmetic
}

// Classify says why the chip model (Chip) fails t, trying the causes from
// the format's limits to the unit's rounding. Tests Check cannot rewrite
// (results that are not float, vector or matrix) are classified from
// Verdicts alone.
func Classify(t *conform.Test) (Cause, conform.Result) {
	chip := Verdict(t, Chip)
	if chip.Status == conform.Skip {
		return NoFailure, chip
	}
	if chip.Status == conform.Pass {
		return NoFailure, chip
	}
	once, _, res := Check(t, Once)
	checked := res.Status == conform.Pass
	if checked && !once {
		return ResultBeyondFP24, chip
	}
	if Verdict(t, Rounding{Const: RoundNearest}).Status == conform.Fail {
		return InputsBeyondFP24, chip
	}
	if checked {
		if near, _, _ := Check(t, Nearest); !near {
			return Expansion, chip
		}
	}
	if Verdict(t, Nearest).Status == conform.Fail {
		return CheckArithmetic, chip
	}
	return Truncation, chip
}
