package conform

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sample = `[require]
GLSL >= 1.10

[vertex shader]
void main()
{
        gl_Position = gl_Vertex;
}

[fragment shader]
uniform float arg0;
void main() { gl_FragColor = vec4(arg0); } // # not a comment here

[test]
# a comment
clear color 0.0 0.0 1.0 0.0
clear
uniform float arg0 -1.5   # trailing comment
draw rect ortho 0 0 4 4
probe rect rgba (0, 0, 4, 4) (0.0, 1.0, 0.0, 1.0)
`

func TestParse(t *testing.T) {
	tc, err := Parse("fs-abs.shader_test", strings.NewReader(sample))
	require.NoError(t, err)
	v, es := tc.GLSLVersion()
	assert.Equal(t, 110, v)
	assert.False(t, es)
	assert.Equal(t, 5, tc.VertexLine)
	assert.Equal(t, 11, tc.FragmentLine)
	assert.Contains(t, tc.FragmentShader, "// # not a comment here")
	require.Len(t, tc.Commands, 5)
	assert.Equal(t, Line{18, "uniform float arg0 -1.5"}, tc.Commands[2])
	assert.Equal(t, []string{"draw", "rect", "ortho", "0", "0", "4", "4"}, tc.Commands[3].Fields())

	_, err = Parse("x", strings.NewReader("[bogus]\n"))
	assert.ErrorContains(t, err, "x:1: unsupported section [bogus]")
	_, err = Parse("x", strings.NewReader("stray\n"))
	assert.ErrorContains(t, err, "text before the first section")
	tc, err = Parse("x", strings.NewReader("[require]\nGLSL ES >= 1.00\n"))
	require.NoError(t, err)
	v, es = tc.GLSLVersion()
	assert.Equal(t, 100, v)
	assert.True(t, es)
}

func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := Parse("f", strings.NewReader(s))
		if err == nil {
			tc.GLSLVersion()
		}
	})
}
