package lower

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/compiler/ir"
)

const loopFS = "varying vec4 c;\nvoid main() { gl_FragColor = c; }\n"

// runLoopVS lowers a vertex shader with IR loops allowed and runs it in the
// interpreter with the given uniforms; it returns the varying c.
func runLoopVS(t *testing.T, vs string, prefer bool, uniforms map[string][]float32) ([4]float32, *ir.Program) {
	t.Helper()
	return runLoopVSWith(t, vs, Options{Loops: true, PreferLoops: prefer}, uniforms)
}

func runLoopVSWith(t *testing.T, vs string, opts Options, uniforms map[string][]float32) ([4]float32, *ir.Program) {
	t.Helper()
	res, err := Lower(link(t, vs, loopFS), opts)
	require.NoError(t, err)
	u := res.UniformValues(func(loc int) []float32 {
		for name, ref := range res.Uniforms {
			if ref.Location == loc {
				base := strings.SplitN(name, "#", 2)[0]
				if v, ok := uniforms[base]; ok {
					return v
				}
				base = strings.SplitN(base, "[", 2)[0]
				if v, ok := uniforms[base]; ok {
					return v
				}
			}
		}
		return []float32{0, 0, 0, 0}
	})
	r, err := ir.Run(res.Vertex, &ir.Env{Inputs: make([][4]float32, len(res.Vertex.Inputs)), Uniforms: u})
	require.NoError(t, err)
	return r.Outputs[res.Vertex.OutputIndex("var:c@0")], res.Vertex
}

// TestHWLoops lowers loops with uniform bounds as IR loops and checks the
// results for several trip counts: <, <=, >, >=, steps other than one,
// break, continue and an early return.
func TestHWLoops(t *testing.T) {
	tests := []struct {
		name, body string
		want       func(n int) float32
	}{
		{"i < n", "for (int i = 0; i < n; i++) s += 1.0;", func(n int) float32 { return float32(max(n, 0)) }},
		{"i <= n step 2", "for (int i = 1; i <= n; i += 2) s += float(i);", func(n int) float32 {
			s := 0
			for i := 1; i <= n; i += 2 {
				s += i
			}
			return float32(s)
		}},
		{"i > n counting down", "for (int i = 10; i > n; i--) s += 1.0;", func(n int) float32 { return float32(max(10-n, 0)) }},
		{"i >= n step -3", "for (int i = 9; i >= n; i -= 3) s += float(i);", func(n int) float32 {
			s := 0
			for i := 9; i >= n; i -= 3 {
				s += i
			}
			return float32(s)
		}},
		{"break", "for (int i = 0; i < n; i++) { if (i == 3) break; s += 2.0; }", func(n int) float32 { return 2 * float32(min(max(n, 0), 3)) }},
		{"continue", "for (int i = 0; i < n; i++) { if (i == 1) continue; s += float(i); }", func(n int) float32 {
			s := 0
			for i := 0; i < n; i++ {
				if i != 1 {
					s += i
				}
			}
			return float32(s)
		}},
		{"loop-carried value", "float a = 1.0; for (int i = 0; i < n; i++) { s += a; a = a * 2.0; }", func(n int) float32 {
			s, a := 0, 1
			for i := 0; i < n; i++ {
				s += a
				a *= 2
			}
			return float32(s)
		}},
	}
	for _, tc := range tests {
		vs := "uniform int n;\nvarying vec4 c;\nvoid main() {\n gl_Position = vec4(0.0);\n float s = 0.0;\n " + tc.body + "\n c = vec4(s);\n}\n"
		for _, n := range []int{-2, 0, 1, 3, 7} {
			t.Run(fmt.Sprintf("%s/n=%d", tc.name, n), func(t *testing.T) {
				got, p := runLoopVS(t, vs, false, map[string][]float32{"n": {float32(n)}})
				assert.True(t, p.HasLoops(), "an IR loop:\n%s", p)
				assert.Equal(t, tc.want(n), got[0], "%s", p)
			})
		}
	}
	// A constant loop stays unrolled unless loops are preferred.
	vs := "uniform float k;\nvarying vec4 c;\nvoid main() { gl_Position = vec4(0.0); float s = 0.0; for (int i = 0; i < 25; i++) s += k; c = vec4(s); }\n"
	got, p := runLoopVS(t, vs, false, map[string][]float32{"k": {0.5}})
	assert.False(t, p.HasLoops())
	assert.Equal(t, float32(12.5), got[0])
	got, p = runLoopVS(t, vs, true, map[string][]float32{"k": {0.5}})
	assert.True(t, p.HasLoops())
	assert.Equal(t, float32(12.5), got[0])
	// A return inside the loop ends the shader's later writes.
	vs = "uniform int n;\nvarying vec4 c;\nvoid main() { gl_Position = vec4(0.0); c = vec4(1.0); for (int i = 0; i < n; i++) { if (i == 2) return; c.x += 1.0; } c.y = 5.0; }\n"
	got, _ = runLoopVS(t, vs, false, map[string][]float32{"n": {4}})
	assert.Equal(t, [4]float32{3, 1, 1, 1}, got)
	got, _ = runLoopVS(t, vs, false, map[string][]float32{"n": {1}})
	assert.Equal(t, [4]float32{2, 5, 1, 1}, got)
	// A call that writes the index keeps the loop unrolled (piglit
	// vs-call-in-nested-loop); a loop of unknown count leaves later
	// straight-line code known (vs-loop-bounds-unrolled).
	vs = "uniform int n;\nvarying vec4 c;\nint i;\nfloat calls;\nvoid foo() { calls += 1.0; i = 2; }\nvoid main() { gl_Position = vec4(0.0); calls = 0.0; for (i = 0; i < 3; i++) { for (int j = 0; j < 3; j++) foo(); } c = vec4(calls); }\n"
	got, _ = runLoopVS(t, vs, false, map[string][]float32{"n": {3}})
	assert.Equal(t, float32(3), got[0])
	vs = "uniform int n;\nvarying vec4 c;\nvoid main() { gl_Position = vec4(0.0); int i; float s = 0.0; for (i = 0; i < n; i++) s += 1.0; for (i = 10; i != 14; i++) s += 1.0; c = vec4(s); }\n"
	got, p = runLoopVS(t, vs, false, map[string][]float32{"n": {3}})
	assert.True(t, p.HasLoops())
	assert.Equal(t, float32(7), got[0])
}

// TestDynamicLoops lowers loops whose conditions are known only at run
// time as IR loops of Options.DynamicLoops iterations and checks them for
// several uniform values: while, do-while, a for loop whose body writes
// its index, a return in the body, and the cut-off at the iteration bound.
func TestDynamicLoops(t *testing.T) {
	tests := []struct {
		name, body string
		want       func(n int) float32
	}{
		{"while with two conditions", "int i = 0; while (i < n && i < 4) { s += 1.0; i++; }", func(n int) float32 { return float32(min(max(n, 0), 4)) }},
		{"do-while", "int i = 0; do { s += 1.0; i++; } while (i < n);", func(n int) float32 { return float32(max(n, 1)) }},
		{"do-while with continue", "int i = 0; do { i++; if (i == 2) continue; s += float(i); } while (i < n);", func(n int) float32 {
			sum, i := 0, 0
			for {
				i++
				if i != 2 {
					sum += i
				}
				if i >= n {
					break
				}
			}
			return float32(sum)
		}},
		{"index written in the body", "for (int i = 0; i < n; i++) { s += 1.0; if (s > 2.5) i += 10; }", func(n int) float32 { return float32(min(max(n, 0), 3)) }},
		{"cut off", "int i = 0; while (i < n) { s += 1.0; i++; }", func(n int) float32 { return float32(min(max(n, 0), 6)) }},
	}
	for _, tc := range tests {
		vs := "uniform int n;\nvarying vec4 c;\nvoid main() {\n gl_Position = vec4(0.0);\n float s = 0.0;\n " + tc.body + "\n c = vec4(s);\n}\n"
		_, err := Lower(link(t, vs, loopFS), Options{Loops: true})
		assert.Error(t, err, "%s: unrolling fails", tc.name)
		for _, n := range []int{-1, 0, 1, 3, 5, 7} {
			if n > 6 && tc.name != "cut off" {
				continue
			}
			got, p := runLoopVSWith(t, vs, Options{Loops: true, DynamicLoops: 6}, map[string][]float32{"n": {float32(n)}})
			assert.True(t, p.HasLoops(), "%s", p)
			assert.Equal(t, tc.want(n), got[0], "%s, n = %d\n%s", tc.name, n, p)
		}
	}
	vs := "uniform int n;\nvarying vec4 c;\nvoid main() { gl_Position = vec4(0.0); c = vec4(1.0); int i = 0; while (i < n) { if (i == 2) return; c.x += 1.0; i++; } c.y = 5.0; }\n"
	for n, want := range map[int][4]float32{1: {2, 5, 1, 1}, 4: {3, 1, 1, 1}} {
		got, _ := runLoopVSWith(t, vs, Options{Loops: true, DynamicLoops: 6}, map[string][]float32{"n": {float32(n)}})
		assert.Equal(t, want, got, "n = %d", n)
	}
}

// TestRelativeUniforms reads uniform arrays at dynamic indices through
// the address register (Options.Relative): vec4 and mat4 elements, in an
// IR loop and in straight-line code, with two different indices in one
// expression.
func TestRelativeUniforms(t *testing.T) {
	vs := "uniform vec4 v[5];\nuniform mat2 m[3];\nuniform int n;\nuniform float k;\nvarying vec4 c;\n" +
		"void main() {\n gl_Position = vec4(0.0);\n vec4 s = vec4(0.0);\n for (int i = 0; i < n; i++) s += v[i];\n" +
		" int j = int(k);\n s.xy += m[j][1] + v[j + 1].zw * v[j].x;\n c = s;\n}\n"
	u := map[string][]float32{"v[0]": {1, 2, 3, 4}, "v[1]": {10, 20, 30, 40}, "v[2]": {100, 200, 300, 400}, "v[3]": {-1, -2, -3, -4},
		"v[4]": {0.5, 0.25, 0.125, 2}, "m[0]": {1, 2, 3, 4}, "m[1]": {5, 6, 7, 8}, "m[2]": {9, 10, 11, 12}, "n": {4}, "k": {1}}
	got, p := runLoopVSWith(t, vs, Options{Loops: true, Relative: true}, u)
	arl := false
	for _, in := range p.Insts {
		arl = arl || in.Op == ir.ARL
	}
	assert.True(t, arl, "%s", p)
	// s = v0+v1+v2+v3 = (110, 220, 330, 440) (with the elements above: 1+10+100-1...)
	want := [4]float32{1 + 10 + 100 - 1, 2 + 20 + 200 - 2, 3 + 30 + 300 - 3, 4 + 40 + 400 - 4}
	want[0] += 7 + 300*10
	want[1] += 8 + 400*10
	assert.Equal(t, want, got, "%s", p)
	got2, p2 := runLoopVSWith(t, vs, Options{Loops: true}, u)
	assert.Equal(t, want, got2, "%s", p2)
}
