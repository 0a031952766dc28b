package lower

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/retrogl/retrogl/compiler/glsl"
	"github.com/retrogl/retrogl/compiler/ir"
	"github.com/retrogl/retrogl/conform"
)

// FuzzLower lowers any fragment shader that compiles and links: no panic,
// no hang, and every result verifies and runs.
func FuzzLower(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/lower/*.shader_test")
	for _, p := range files {
		if fh, err := os.Open(p); err == nil {
			if st, err := conform.Parse(p, fh); err == nil {
				f.Add(st.FragmentShader)
			}
			fh.Close()
		}
	}
	f.Add("uniform int n; void main() { int j = 0; while (j < 3) j++; for (int i = 0; i < 4; i++) { if (i == n) break; } gl_FragColor = vec4(float(j)); }")
	f.Add("struct S { vec2 a[2]; mat2 m; }; uniform S s; uniform int k; void main() { vec2 v = s.a[k]; v = s.m * v; gl_FragColor = vec4(v, s.a[1 - k]); }")
	vs, err := glsl.Compile("varying vec4 c; varying float x; varying vec3 n; void main() { gl_Position = gl_Vertex; c = gl_Vertex; x = 1.0; n = vec3(0.0); }",
		glsl.Options{Stage: glsl.StageVertex, Version: 110})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fs, err := glsl.Compile(src, glsl.Options{Stage: glsl.StageFragment, Version: 110})
		if err != nil {
			return
		}
		p, err := glsl.Link(vs, fs, glsl.LinkOptions{})
		if err != nil {
			return
		}
		res, err := Lower(p, Options{MaxInsts: 1 << 12, MaxUnroll: 64})
		if err != nil {
			return
		}
		if err := res.Fragment.Verify(); err != nil {
			t.Fatal(err)
		}
		vals := res.UniformValues(func(int) []float32 { return []float32{1, 2, 3, 4} })
		if _, err := ir.Run(res.Fragment, &ir.Env{Inputs: make([][4]float32, len(res.Fragment.Inputs)), Uniforms: vals}); err != nil {
			t.Fatal(err)
		}
		Preshader(res.Fragment)
	})
}
