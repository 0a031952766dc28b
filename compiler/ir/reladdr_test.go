package ir

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRelativeAddressing checks ARL and relative constants: the text form,
// the interpreter (floor, out-of-range reads of zero) and that the passes
// neither fold nor propagate through them.
func TestRelativeAddressing(t *testing.T) {
	src := "vertex\nin v0 attr0\nout o0 position\nuniform c0 a\nconst c1 1 2 3 4\nconst c2 5 6 7 8\n" +
		"arl a0.xy, v0\nmov r0, c[a0.x+1]\nadd o0, r0, -c[a0.y+0].wzyx\n"
	p, err := Parse(src)
	require.NoError(t, err)
	assert.Equal(t, src, p.String())
	require.True(t, p.Insts[1].Src[0].Rel)
	run := func(in [4]float32) [4]float32 {
		r, err := Run(p, &Env{Inputs: [][4]float32{in}, Uniforms: map[string][4]float32{"a": {9, 9, 9, 9}}})
		require.NoError(t, err)
		return r.Outputs[0]
	}
	// a0 = (1, 1): c2 - c1.wzyx
	assert.Equal(t, [4]float32{1, 3, 5, 7}, run([4]float32{1.9, 1.2, 0, 0}))
	// a0 = (-1, 5): c0 (the uniform) - 0 (out of range)
	assert.Equal(t, [4]float32{9, 9, 9, 9}, run([4]float32{-0.5, 5, 0, 0}))
	Optimize(p, nil)
	assert.Equal(t, ARL, p.Insts[0].Op, "a0's writer stays")
	assert.Equal(t, [4]float32{1, 3, 5, 7}, run([4]float32{1.9, 1.2, 0, 0}))
	for _, bad := range []string{
		"vertex\nin v0 attr0\nout o0 position\nmov o0, v[a0.x+1]\n",
		"vertex\nin v0 attr0\nout o0 position\narl r0, v0\n",
		"vertex\nin v0 attr0\nout o0 position\nmov a0.x, v0\n",
		"vertex\nin v0 attr0\nout o0 position\nmov o0, c[a0.q+1]\n",
	} {
		p, err := Parse(bad)
		if err == nil {
			err = p.Verify()
		}
		assert.Error(t, err, bad)
	}
}
