package lower

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/compiler/ir"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// TestOptimize checks each rewrite of optimize on IR text and that the
// program computes the same values (to rounding: the rewrites round less
// often).
func TestOptimize(t *testing.T) {
	head := "fragment\nin v0 tex0\nin v1 tex1\nout o0 color\nuniform c0 u\n"
	for _, tc := range []struct{ name, src, want string }{
		{"cse", "rcp r0.x, c0.x\nmul r1.xy, v0, r0.x\nrcp r2.x, c0.x\nmul r3.xy, v1, r2.x\nadd o0.xy, r1, r3\n",
			"rcp r0.x, c0.x\nmul r3.xy, v1, r0.x\nmad o0.xy, v0, r0.x, r3\n"},
		{"dots", "mul r0.x, v0.x, v0.x\nmul r1.x, v0.y, v0.y\nadd r2.x, r0.x, r1.x\nmul r3.x, v1.x, v1.x\nadd r4.x, r2.x, r3.x\nmul r5.x, v0.z, v0.z\nadd o0.x, r4.x, r5.x\n",
			"dp3 r6.x, v0.xyz0, v0.xyz0\nmad o0.x, v1.x, v1.x, r6.x\n"},
		{"negated terms", "mul r0.x, v0.x, v1.y\nmul r1.x, v0.y, v1.x\nadd o0.x, r0.x, -r1.x\n",
			"mul r1.x, v0.y, v1.x\nmad o0.x, v0.x, v1.y, -r1.x\n"},
		{"contract", "mul r0.xy, v0, c0.x\nadd o0.xy, r0, -v1\n", "mad o0.xy, v0, c0.x, -v1\n"},
		{"compare", "mul r0.x, c0.x, c0.x\nsge r1.x, r0.x, v0.x\nmov o0, r1.x\n",
			"const c1 0 0 0 0\nmad r2.x, c0.x, c0.x, -v0.x\nsge r1.x, r2, c1\nmov o0, r1.x\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ir.Parse(head + tc.src)
			require.NoError(t, err)
			before := p.Clone()
			optimize(p)
			require.NoError(t, p.Verify())
			q, err := ir.Parse(head + tc.want)
			require.NoError(t, err)
			assert.Equal(t, q.String(), p.String())
			for _, in := range [][][4]float32{{{0.5, -2, 3, 1}, {1.5, 0.25, -1, 2}}, {{-1, 1, 0.125, 4}, {3, -0.5, 2, -2}}} {
				env := &ir.Env{Inputs: in, Uniforms: map[string][4]float32{"u": {0.75, 0, 0, 0}}}
				a, err := ir.Run(before, env)
				require.NoError(t, err)
				b, err := ir.Run(p, env)
				require.NoError(t, err)
				for c := 0; c < 4; c++ {
					assert.InDelta(t, a.Outputs[0][c], b.Outputs[0][c], 1e-6)
				}
			}
		})
	}
}

// TestEquality checks == and != of vectors and matrices (summed absolute
// differences compared with 0) in FP24 and float32.
func TestEquality(t *testing.T) {
	fs := "uniform vec3 a, b;\nuniform mat2 m, n;\nvoid main() { gl_FragColor = vec4(float(a == b), float(a != b), float(m == n), float(-a == b)); }\n"
	for _, tc := range []struct {
		a, b, m, n []float32
		want       [4]float32
	}{
		{[]float32{1, 2, 3}, []float32{1, 2, 3}, []float32{1, 2, 3, 4}, []float32{1, 2, 3, 4}, [4]float32{1, 0, 1, 0}},
		{[]float32{1, 2, 3}, []float32{1, 2, 3.0001}, []float32{1, 2, 3, 4}, []float32{1, 2, 3, -4}, [4]float32{0, 1, 0, 0}},
		{[]float32{0, -2, 5}, []float32{0, 2, -5}, []float32{0, 0, 0, 0}, []float32{0, 0, 0, 0}, [4]float32{0, 1, 1, 1}},
		{[]float32{float32(math.Copysign(0, -1)), 0, 0}, []float32{0, 0, 0}, []float32{0, 0, 0, 1e-30}, []float32{0, 0, 0, 0}, [4]float32{1, 0, 0, 1}},
	} {
		for _, round := range []ir.Rounder{nil, r3.RoundFP24} {
			got := runFS(t, fs, map[string][]float32{"a": tc.a, "b": tc.b, "m": tc.m, "n": tc.n}, round)
			if round != nil && tc.m[3] == 1e-30 {
				// FP24 flushes 1e-30 to 0: the matrices are equal there.
				tc.want[2] = 1
			}
			assert.Equal(t, tc.want, got, "%v %v %v %v", tc.a, tc.b, tc.m, tc.n)
		}
	}
}
