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
	res, err := Lower(link(t, vs, loopFS), Options{Loops: true, PreferLoops: prefer})
	require.NoError(t, err)
	u := res.UniformValues(func(loc int) []float32 {
		for name, ref := range res.Uniforms {
			if ref.Location == loc {
				base := strings.SplitN(name, "#", 2)[0]
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
}
