package lower

import (
	flagpkg "flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/ir"
	"github.com/retrogl/retrogl/conform"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

var update = flagpkg.Bool("update", false, "rewrite golden files")

func link(t *testing.T, vs, fs string) *glsl.Program {
	t.Helper()
	v, err := glsl.Compile(vs, glsl.Options{Stage: glsl.StageVertex, Version: 110})
	require.NoError(t, err)
	f, err := glsl.Compile(fs, glsl.Options{Stage: glsl.StageFragment, Version: 110})
	require.NoError(t, err)
	p, err := glsl.Link(v, f, glsl.LinkOptions{})
	require.NoError(t, err)
	return p
}

// TestGolden lowers each testdata/lower/*.shader_test and compares both
// programs with the .ir golden file.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("../../testdata/lower/*.shader_test")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := os.Open(path)
			require.NoError(t, err)
			defer f.Close()
			st, err := conform.Parse(path, f)
			require.NoError(t, err)
			res, err := Lower(link(t, st.VertexShader, st.FragmentShader), Options{})
			require.NoError(t, err)
			got := res.Vertex.String() + "\n" + res.Fragment.String()
			golden := strings.TrimSuffix(path, ".shader_test") + ".ir"
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), got)
			// Both programs parse back from their text.
			_, err = ir.Parse(res.Fragment.String())
			assert.NoError(t, err)
		})
	}
}

const passVS = "attribute vec4 pos;\nvarying vec4 c;\nvarying float v;\nvoid main() { gl_Position = pos; c = pos; v = pos.x; }\n"

// runFS lowers a fragment shader and runs it once with the interpreter.
func runFS(t *testing.T, fs string, uniforms map[string][]float32, round ir.Rounder) [4]float32 {
	t.Helper()
	p := link(t, passVS, fs)
	res, err := Lower(p, Options{})
	require.NoError(t, err)
	locs := map[int][]float32{}
	for _, u := range p.Uniforms {
		if v, ok := uniforms[u.Name]; ok {
			n := len(v) / u.Size
			for e := 0; e < u.Size; e++ {
				locs[u.Location+e] = v[e*n : (e+1)*n]
			}
		}
	}
	vals := res.UniformValues(func(loc int) []float32 { return locs[loc] })
	r, err := ir.Run(res.Fragment, &ir.Env{Inputs: make([][4]float32, len(res.Fragment.Inputs)), Uniforms: vals, Round: round})
	require.NoError(t, err)
	return r.Outputs[res.Fragment.OutputIndex("color")]
}

func TestIntegerDivision(t *testing.T) {
	fs := "uniform int a, b;\nvoid main() { gl_FragColor = vec4(float(a / b), float(a - (a / b) * b), 0.0, 1.0); }\n"
	for _, tc := range [][4]float32{{7, 2, 3, 1}, {-7, 2, -3, -1}, {7, -2, -3, 1}, {9, 3, 3, 0}, {16383, 7, 2340, 3}, {1, 3, 0, 1}} {
		for _, round := range []ir.Rounder{nil, r3.RoundFP24} {
			got := runFS(t, fs, map[string][]float32{"a": {tc[0]}, "b": {tc[1]}}, round)
			assert.Equal(t, [2]float32{tc[2], tc[3]}, [2]float32{got[0], got[1]}, "%v / %v", tc[0], tc[1])
		}
	}
}

func TestControlFlowValues(t *testing.T) {
	fs := `uniform float x;
uniform float w[4];
float f(float t) { if (t < 0.0) return -t; return t * 2.0; }
void main() {
	float s = 0.0;
	for (int i = 0; i < 4; i++) {
		if (x > w[i]) break;
		if (i == 1) continue;
		s += f(x) * w[i];
	}
	int j = 0;
	while (j < 3) j++;
	gl_FragColor = vec4(s, w[int(x + 2.5)], float(j), 1.0);
}
`
	w := []float32{1, 2, 0.25, 3}
	// x = 0.5: i=0 adds 1*1, i=1 continues, i=2 breaks (0.5 > 0.25).
	got := runFS(t, fs, map[string][]float32{"x": {0.5}, "w[0]": w}, nil)
	assert.Equal(t, [4]float32{1, 3, 3, 1}, got)
	// x = -1: f = 1; no break: 1*1 + 1*0.25 + 1*3.
	got = runFS(t, fs, map[string][]float32{"x": {-1}, "w[0]": w}, nil)
	assert.Equal(t, [4]float32{4.25, 2, 3, 1}, got)
}

// TestSelectFromReplicated selects components of a value that is one
// scalar replicated (exp2 of a broadcast, as piglit's
// dependency-hints/exp2 does): every component must hold it, not only x.
func TestSelectFromReplicated(t *testing.T) {
	fs := `uniform vec3 e;
void main() {
	vec4 c;
	c.x = exp2(e.xxxx).x;
	c.y = exp2(e.yyyy + 0.00000001).y;
	c.z = exp2(e.zzzz).w;
	c.w = (e.yyyy * 2.0).z;
	gl_FragColor = c;
}
`
	got := runFS(t, fs, map[string][]float32{"e": {1, 2, 3}}, nil)
	assert.Equal(t, [4]float32{2, 4, 8, 4}, got)
}

// TestApproximations checks the documented error bounds of the
// polynomial expansions in float32 over their domains.
func TestApproximations(t *testing.T) {
	for _, tc := range []struct {
		fn    string
		ref   func(float64) float64
		lo    float64
		hi    float64
		bound float64
	}{
		{"asin", math.Asin, -1, 1, 2e-6},
		{"acos", math.Acos, -1, 1, 2e-6},
		{"atan", math.Atan, -50, 50, 3e-6},
		{"tan", math.Tan, -1.2, 1.2, 2e-5},
	} {
		fs := "uniform float x;\nvoid main() { gl_FragColor = vec4(" + tc.fn + "(x)); }\n"
		worst := 0.0
		for i := 0; i <= 200; i++ {
			x := tc.lo + (tc.hi-tc.lo)*float64(i)/200
			got := runFS(t, fs, map[string][]float32{"x": {float32(x)}}, nil)
			worst = math.Max(worst, math.Abs(float64(got[0])-tc.ref(float64(float32(x)))))
		}
		assert.Less(t, worst, tc.bound, tc.fn)
	}
	fs := "uniform vec2 p;\nvoid main() { gl_FragColor = vec4(atan(p.y, p.x)); }\n"
	for _, p := range [][2]float32{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {-1, -1}, {3, 0.5}, {-0.5, 3}} {
		got := runFS(t, fs, map[string][]float32{"p": {p[0], p[1]}}, nil)
		assert.InDelta(t, math.Atan2(float64(p[1]), float64(p[0])), float64(got[0]), 3e-6, "%v", p)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct{ fs, want string }{
		{"uniform int n;\nvoid main() {\n  float s = 0.0;\n  for (int i = 0; i < n; i++) s += 1.0;\n  gl_FragColor = vec4(s);\n}\n",
			"0:4(3): error: fragment shader: for loop: the condition is not a compile-time constant in iteration 1"},
		{"#extension GL_OES_standard_derivatives : enable\nvarying float v;\nvoid main() { gl_FragColor = vec4(dFdx(v)); }\n",
			"0:3(35): error: fragment shader: dFdx(): the R3xx fragment unit has no derivatives"},
		{"void main() {\n  float s = 0.0;\n  for (int i = 0; i < 5000; i++) s += 1.0;\n  gl_FragColor = vec4(s);\n}\n",
			"0:3(3): error: fragment shader: for loop: 5000 iterations, more than the 1024 this target unrolls"},
	} {
		v, err := glsl.Compile(passVS, glsl.Options{Stage: glsl.StageVertex})
		require.NoError(t, err)
		f, err := glsl.Compile(tc.fs, glsl.Options{Stage: glsl.StageFragment, Version: 110, Extensions: []string{"GL_OES_standard_derivatives"}})
		require.NoError(t, err, tc.fs)
		p, err := glsl.Link(v, f, glsl.LinkOptions{})
		if err != nil {
			// Mixed ES/desktop: link the fragment shader with a desktop VS.
			v, _ = glsl.Compile(passVS, glsl.Options{Stage: glsl.StageVertex, Version: 110})
			p, err = glsl.Link(v, f, glsl.LinkOptions{})
			require.NoError(t, err)
		}
		_, err = Lower(p, Options{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestPreshader(t *testing.T) {
	p := link(t, passVS, "uniform float a;\nvarying vec4 c;\nvoid main() { gl_FragColor = c * sin(a) + vec4(cos(a)); }\n")
	res, err := Lower(p, Options{})
	require.NoError(t, err)
	pre, main := Preshader(res.Fragment)
	require.NotNil(t, pre)
	for _, in := range main.Insts {
		assert.NotEqual(t, ir.SIN, in.Op, "sin(a) moves to the preshader")
		assert.NotEqual(t, ir.COS, in.Op)
	}
	vals := res.UniformValues(func(int) []float32 { return []float32{0.5} })
	pr, err := ir.Run(pre, &ir.Env{Uniforms: vals})
	require.NoError(t, err)
	for k, o := range pre.Outputs {
		vals[o.Name] = pr.Outputs[k]
	}
	in := [][4]float32{{1, 2, 3, 4}}
	a, err := ir.Run(res.Fragment, &ir.Env{Inputs: in, Uniforms: vals})
	require.NoError(t, err)
	b, err := ir.Run(main, &ir.Env{Inputs: in, Uniforms: vals})
	require.NoError(t, err)
	assert.Equal(t, a.Outputs, b.Outputs)
	// Nothing uniform-only: no preshader.
	q := link(t, passVS, "varying vec4 c;\nvoid main() { gl_FragColor = c * 2.0; }\n")
	res, err = Lower(q, Options{})
	require.NoError(t, err)
	pre, main = Preshader(res.Fragment)
	assert.Nil(t, pre)
	assert.Same(t, res.Fragment, main)
}
