package glsl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustCompile(t *testing.T, stage Stage, src string) *Shader {
	t.Helper()
	sh, err := Compile(src, Options{Stage: stage})
	require.NoError(t, err)
	return sh
}

func linkErr(t *testing.T, vs, fs string) string {
	t.Helper()
	_, err := Link(mustCompile(t, StageVertex, vs), mustCompile(t, StageFragment, fs), LinkOptions{})
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestLinkInterface(t *testing.T) {
	vs := `
attribute vec4 pos;
attribute mat3 basis;
attribute vec2 unused;
struct Light { vec3 dir; float k[2]; };
uniform Light lights[2];
uniform mat4 mvp;
uniform float vsOnly;
varying vec3 n;
varying mediump vec2 uv;
void main() {
    n = basis * lights[1].dir * lights[0].k[1];
    uv = pos.xy;
    gl_Position = mvp * pos;
}`
	fs := `
precision mediump float;
uniform sampler2D tex[2];
uniform highp mat4 mvp;
uniform float fsUnused;
varying vec3 n;
varying vec2 uv;
void main() { gl_FragColor = texture2D(tex[1], uv) * vec4(n, 1.0) + mvp[0]; }`
	p, err := Link(mustCompile(t, StageVertex, vs), mustCompile(t, StageFragment, fs),
		LinkOptions{AttribBindings: map[string]int{"pos": 3}})
	require.NoError(t, err)

	var attrs []string
	for _, a := range p.Attributes {
		attrs = append(attrs, a.Name+" "+a.Type.String()+" @"+itoa(a.Location))
	}
	assert.Equal(t, []string{"basis mat3 @0", "pos vec4 @3"}, attrs, "bound first, the rest first fit; unused attributes are inactive")

	var unis []string
	for _, u := range p.Uniforms {
		stages := ""
		if u.Vertex != nil {
			stages += "v"
		}
		if u.Fragment != nil {
			stages += "f"
		}
		unis = append(unis, u.Name+" "+u.Type.String()+" x"+itoa(u.Size)+" @"+itoa(u.Location)+" "+stages)
	}
	assert.Equal(t, []string{
		"lights[0].dir vec3 x1 @0 v",
		"lights[0].k[0] float x2 @1 v",
		"lights[1].dir vec3 x1 @3 v",
		"lights[1].k[0] float x2 @4 v",
		"mvp mat4 x1 @6 vf",
		"tex[0] sampler2D x2 @7 f",
	}, unis)
	assert.Equal(t, []PathStep{{Field: -1, Index: 1}, {Field: 1}}, p.Uniforms[3].Path)

	var vars []string
	for _, v := range p.Varyings {
		vars = append(vars, v.Name+" "+v.Type.String())
	}
	assert.Equal(t, []string{"n vec3", "uv vec2"}, vars)
}

func TestLinkErrors(t *testing.T) {
	const fsMain = "precision mediump float; void main() { gl_FragColor = vec4(0.0); }"
	tests := []struct {
		name, vs, fs, want string
	}{
		{"no vertex main", "void f() {}", fsMain, "0:0(0): error: vertex shader has no main() function"},
		{"undefined function", "void f(); void main() { f(); }", fsMain, "0:0(0): error: vertex shader calls 'void f()', which is declared but never defined"},
		{"varying not declared", "void main() {}", "precision mediump float; varying vec2 v; void main() { gl_FragColor = v.xyxy; }",
			"0:0(0): error: fragment shader varying 'v' is not declared in the vertex shader"},
		{"varying type", "varying vec3 v; void main() { v = vec3(0.0); }", "precision mediump float; varying vec2 v; void main() { gl_FragColor = v.xyxy; }",
			"0:0(0): error: varying 'v' has type 'vec3' in the vertex shader and 'vec2' in the fragment shader"},
		{"varying invariance", "invariant varying vec2 v; void main() { v = vec2(0.0); }", "precision mediump float; varying vec2 v; void main() { gl_FragColor = v.xyxy; }",
			"0:0(0): error: varying 'v' is invariant in one shader only"},
		{"uniform type", "uniform vec3 u; void main() { gl_Position = u.xyzz; }", "precision mediump float; uniform vec4 u; void main() { gl_FragColor = u; }",
			"0:0(0): error: uniform 'u' has type 'vec3' in the vertex shader and 'vec4' in the fragment shader"},
		{"uniform precision", "uniform highp vec4 u; void main() { gl_Position = u; }", "precision mediump float; uniform vec4 u; void main() { gl_FragColor = u; }",
			"0:0(0): error: uniform 'u' has precision highp in the vertex shader and mediump in the fragment shader"},
		{"uniform struct mismatch", "struct S { float a; }; uniform S u; void main() { gl_Position = vec4(u.a); }",
			"precision mediump float; struct S { float b; }; uniform S u; void main() { gl_FragColor = vec4(u.b); }",
			"0:0(0): error: uniform 'u' has type 'S' in the vertex shader and 'S' in the fragment shader"},
		{"fragcoord invariant", "void main() { gl_Position = vec4(0.0); }", "precision mediump float; invariant gl_FragCoord; void main() { gl_FragColor = gl_FragCoord; }",
			"0:0(0): error: gl_FragCoord is invariant but gl_Position is not"},
		{"too many varyings", "varying vec4 v[9]; void main() { v[0] = vec4(0.0); }", "precision mediump float; varying vec4 v[9]; void main() { gl_FragColor = v[8]; }",
			"0:0(0): error: too many varyings: they do not fit in 8 varying vectors"},
		{"too many fragment uniforms", "void main() {}", "precision mediump float; uniform mat4 m[5]; void main() { gl_FragColor = m[0][0]; }",
			"0:0(0): error: too many fragment shader uniforms: they do not fit in 16 uniform vectors"},
		{"too many samplers", "void main() {}", "precision mediump float; uniform sampler2D s[9]; void main() { gl_FragColor = texture2D(s[0], vec2(0.0)); }",
			"0:0(0): error: the fragment shader uses 9 samplers; the limit is 8\n0:0(0): error: the program uses 9 samplers; the limit is 8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, linkErr(t, tc.vs, tc.fs))
		})
	}
}

func TestLinkAllowed(t *testing.T) {
	// Unused mismatched precision is fine; a varying the fragment shader
	// only declares need not exist in the vertex shader.
	assert.Empty(t, linkErr(t, "uniform highp float f; void main() { gl_Position = vec4(1.0); }",
		"precision mediump float; uniform float f; varying vec2 unused; void main() { gl_FragColor = vec4(f); }"))
}

func TestLinkAttributeLimits(t *testing.T) {
	vs := mustCompile(t, StageVertex, "attribute mat4 a; attribute mat4 b; attribute vec4 c; void main() { gl_Position = a[0] + b[0] + c; }")
	_, err := Link(vs, nil, LinkOptions{})
	require.EqualError(t, err, "0:0(0): error: too many vertex attributes: 'c' does not fit in 8 locations")
	_, err = Link(vs, nil, LinkOptions{AttribBindings: map[string]int{"a": 6}})
	require.EqualError(t, err, "0:0(0): error: attribute 'a' cannot be bound to location 6\n"+
		"0:0(0): error: too many vertex attributes: 'c' does not fit in 8 locations")
}

func TestPack(t *testing.T) {
	tests := []struct {
		items []packItem
		rows  int
		want  bool
	}{
		{[]packItem{{4, 8}}, 8, true},
		{[]packItem{{4, 9}}, 8, false},
		{[]packItem{{3, 8}, {1, 8}}, 8, true},                 // vec3s with floats in the 4th column
		{[]packItem{{2, 4}, {2, 4}, {2, 4}, {2, 4}}, 8, true}, // vec2 arrays in both column pairs
		{[]packItem{{2, 5}, {2, 5}}, 8, true},
		{[]packItem{{2, 5}, {2, 5}, {2, 5}}, 8, false},
		{[]packItem{{1, 32}}, 8, false}, // an array must stay in one column
		{[]packItem{{1, 8}, {1, 8}, {1, 8}, {1, 8}}, 8, true},
	}
	for i, tc := range tests {
		assert.Equal(t, tc.want, pack(tc.items, tc.rows), "case %d", i)
	}
	assert.Equal(t, packItem{4, 2}, packItemOf(Mat(2, 2)))
	assert.Equal(t, packItem{3, 3}, packItemOf(Mat(3, 3)))
	assert.Equal(t, packItem{2, 5}, packItemOf(ArrayOf(Vec(Float, 2), 5)))
}
