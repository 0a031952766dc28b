package glsl

import "testing"

// benchFragment is a typical ES 2.0 fragment shader: a texture, per-pixel
// lighting from two lights in a uniform array, fog.
const benchFragment = `
precision mediump float;
#define NLIGHTS 2
struct Light { vec3 dir; vec3 color; };
uniform Light lights[NLIGHTS];
uniform sampler2D tex;
uniform vec4 fogColor;
uniform float fogDensity;
varying vec2 uv;
varying vec3 normal;
varying float depth;
vec3 shade(vec3 n) {
    vec3 c = vec3(0.1);
    for (int i = 0; i < NLIGHTS; i++)
        c += lights[i].color * max(dot(n, -lights[i].dir), 0.0);
    return c;
}
void main() {
    vec4 base = texture2D(tex, uv);
    vec3 lit = base.rgb * shade(normalize(normal));
    float f = clamp(exp(-fogDensity * depth), 0.0, 1.0);
    gl_FragColor = vec4(mix(fogColor.rgb, lit, f), base.a);
}`

func BenchmarkCompileFragment(b *testing.B) {
	b.SetBytes(int64(len(benchFragment)))
	for i := 0; i < b.N; i++ {
		if _, err := Compile(benchFragment, Options{Stage: StageFragment}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPreprocess(b *testing.B) {
	b.SetBytes(int64(len(benchFragment)))
	for i := 0; i < b.N; i++ {
		preprocess(benchFragment, &Options{Stage: StageFragment}, &diags{})
	}
}

// TestConcurrentCompile compiles from several goroutines (run with -race):
// the shared tables (built-in signatures, structure types) are read-only.
func TestConcurrentCompile(t *testing.T) {
	done := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func(i int) {
			_, err := Compile(benchFragment, Options{Stage: StageFragment, Extensions: []string{"GL_OES_standard_derivatives"}[:i%2]})
			done <- err
		}(i)
	}
	for i := 0; i < 8; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
