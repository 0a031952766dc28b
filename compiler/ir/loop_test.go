package ir

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoops checks bgnloop/endloop: the text form, the interpreter (the
// count read once, truncated, zero and negative counts skipping the body,
// nesting), and that DeadCode and CopyProp keep what later iterations
// read.
func TestLoops(t *testing.T) {
	src := "vertex\nin v0 attr0\nout o0 position\nuniform c0 n\nconst c1 1 0.5 0 0\n" +
		"mov r1, c1.z\nmov r2, c1.x\nbgnloop c0.x\nadd r1.x, r1.x, r2.x\nmul r2.x, r2.x, c1.y\nbgnloop c0.y\nadd r1.y, r1.y, c1.x\nendloop\nendloop\nmov o0, r1\n"
	p, err := Parse(src)
	require.NoError(t, err)
	assert.Equal(t, src, p.String())
	run := func(p *Program, n [4]float32) [4]float32 {
		r, err := Run(p, &Env{Inputs: [][4]float32{{}}, Uniforms: map[string][4]float32{"n": n}})
		require.NoError(t, err)
		return r.Outputs[0]
	}
	tests := []struct {
		n    [4]float32
		want [4]float32
	}{
		{[4]float32{3, 2}, [4]float32{1.75, 6, 0, 0}},
		{[4]float32{2.9, 0}, [4]float32{1.5, 0, 0, 0}},
		{[4]float32{-1, 5}, [4]float32{0, 0, 0, 0}},
		{[4]float32{0, 5}, [4]float32{0, 0, 0, 0}},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, run(p, tc.n), "n = %v", tc.n)
	}
	q := p.Clone()
	Optimize(q, nil)
	for _, tc := range tests {
		assert.Equal(t, tc.want, run(q, tc.n), "optimised, n = %v\n%s", tc.n, q)
	}
	_, err = Run(p, &Env{Inputs: [][4]float32{{}}, Uniforms: map[string][4]float32{"n": {1e9, 1}}})
	assert.ErrorContains(t, err, "more than 65536")
	for _, bad := range []string{"vertex\nout o0 position\nbgnloop c0\n", "vertex\nout o0 position\nendloop\n"} {
		p, err := Parse(bad)
		if err == nil {
			err = p.Verify()
		}
		assert.Error(t, err, bad)
	}
}

// TestCountPrograms checks the count slices: the instructions a count
// depends on, and the errors for counts from vertex data or loops.
func TestCountPrograms(t *testing.T) {
	p, err := Parse("vertex\nin v0 attr0\nout o0 position\nuniform c0 n\nconst c1 2 0.5 0 0\n" +
		"mul r3.x, c0.x, c1.y\nmov r1, v0\nadd r3.x, r3.x, c1.x\nbgnloop r3.x\nadd r1, r1, v0\nendloop\nbgnloop c0.y\nadd r1, r1, v0\nendloop\nmov o0, r1\n")
	require.NoError(t, err)
	cps, err := CountPrograms(p)
	require.NoError(t, err)
	require.Len(t, cps, 2)
	assert.Equal(t, "vertex\nout o0 count\nuniform c0 n\nconst c1 2 0.5 0 0\nmul r3.x, c0.x, c1.y\nadd r3.x, r3.x, c1.x\nmov o0, r3.x\n", cps[0].String())
	for _, tc := range []struct {
		u    [4]float32
		want [2]int
	}{{[4]float32{6, 3}, [2]int{5, 3}}, {[4]float32{-9, -1}, [2]int{0, 0}}, {[4]float32{1e9, 2.9}, [2]int{101, 2}}} {
		for i, cp := range cps {
			n, err := LoopCount(cp, map[string][4]float32{"n": tc.u}, 100)
			require.NoError(t, err)
			assert.Equal(t, tc.want[i], n, "loop %d, n = %v", i, tc.u)
		}
	}
	for text, want := range map[string]string{
		"vertex\nin v0 attr0\nout o0 position\nbgnloop v0.x\nendloop\nmov o0, v0\n":                                                  "vertex data",
		"vertex\nin v0 attr0\nout o0 position\nmov r1, v0\nbgnloop r1.x\nendloop\nmov o0, v0\n":                                      "vertex data",
		"vertex\nin v0 attr0\nout o0 position\nuniform c0 n\nbgnloop c0.x\nmov r1, c0\nendloop\nbgnloop r1.x\nendloop\nmov o0, v0\n": "in a loop",
	} {
		p, err := Parse(text)
		require.NoError(t, err)
		_, err = CountPrograms(p)
		assert.ErrorContains(t, err, want, text)
	}
}
