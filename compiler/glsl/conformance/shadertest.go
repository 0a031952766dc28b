package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/retrogl/retrogl/compiler/glsl"
)

// ShaderTest is the shader part of a piglit .shader_test file.
type ShaderTest struct {
	ES         bool // [require] asks for GLSL ES
	Version    int  // the GLSL version [require] asks for (100, 110, 120, ...)
	Vertex     string
	Fragment   string
	Other      []string // sections with stages this front end lacks
	Multiple   bool     // more than one shader of a stage (desktop GL only)
	Extensions []string // GL extensions [require] names
	LinkError  bool     // the [test] section expects "link error"
}

// ParseShaderTest extracts the [require] version and the shader sections of
// a .shader_test file. "[vertex shader passthrough]" becomes a vertex
// shader that passes piglit_vertex through.
func ParseShaderTest(src string) ShaderTest {
	var st ShaderTest
	var cur *string
	section := ""
	for _, line := range strings.SplitAfter(src, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			section = t
			cur = nil
			switch t {
			case "[vertex shader]", "[vertex shader passthrough]":
				st.Multiple = st.Multiple || st.Vertex != ""
				cur = &st.Vertex
				if t == "[vertex shader passthrough]" {
					st.Vertex = "attribute vec4 piglit_vertex;\nvoid main() { gl_Position = piglit_vertex; }\n"
					cur = nil
				}
			case "[fragment shader]":
				st.Multiple = st.Multiple || st.Fragment != ""
				cur = &st.Fragment
			case "[require]", "[test]", "[vertex data]", "[vertex program]", "[fragment program]":
			default:
				if strings.Contains(t, "shader") {
					st.Other = append(st.Other, t)
				}
			}
			continue
		}
		if cur != nil {
			*cur += line
			continue
		}
		if section == "[test]" && t == "link error" {
			st.LinkError = true
		}
		if section == "[require]" {
			f := strings.Fields(t)
			switch {
			case len(f) == 1 && strings.HasPrefix(f[0], "GL_"):
				st.Extensions = append(st.Extensions, f[0])
			case len(f) == 2 && f[0] == "require" && strings.HasPrefix(f[1], "GL_"):
				st.Extensions = append(st.Extensions, f[1])
			case len(f) >= 4 && f[0] == "GLSL" && f[1] == "ES":
				st.ES = true
				st.Version, _ = parseVersion(f[3])
			case len(f) >= 3 && f[0] == "GLSL" && (f[1] == ">=" || f[1] == "=="):
				st.Version, _ = parseVersion(f[2])
			}
		}
	}
	if st.Version == 0 {
		st.Version = 110
		if st.ES {
			st.Version = 100
		}
	}
	return st
}

// RunShaderTestFile compiles and links the shaders of one .shader_test
// file; the expected verdict is "compiles and links" unless its [test]
// section expects "link error".
func RunShaderTestFile(path, rel string, opts Options) *Result {
	r := &Result{Path: rel, Expected: true}
	src, err := os.ReadFile(path)
	if err != nil {
		r.Skip = err.Error()
		return r
	}
	st := ParseShaderTest(string(src))
	r.Expected = !st.LinkError
	for _, e := range st.Extensions {
		if !has(opts.Extensions, e) {
			r.Skip = "requires " + e
			return r
		}
	}
	switch {
	case st.Multiple:
		r.Skip = "several shaders per stage (desktop GL linking)"
		return r
	case !supportedVersions[st.Version]:
		r.Skip = fmt.Sprintf("requires GLSL %s", versionText(st.Version, st.ES))
		return r
	case len(st.Other) > 0:
		r.Skip = "has " + strings.Join(st.Other, ", ")
		return r
	case st.Vertex == "" && st.Fragment == "":
		r.Skip = "no GLSL shaders"
		return r
	}
	def := st.Version
	var shaders [2]*glsl.Shader
	var logs []string
	for i, s := range []string{st.Vertex, st.Fragment} {
		if s == "" {
			continue
		}
		stage := glsl.Stage(i)
		sh, err := glsl.Compile(s, glsl.Options{Stage: stage, Version: def, Limits: generousLimits, Extensions: opts.Extensions, AppendixA: opts.AppendixA})
		if err != nil {
			logs = append(logs, stage.String()+" shader:\n"+err.Error())
			continue
		}
		shaders[i] = sh
	}
	if len(logs) == 0 {
		if _, err := glsl.Link(shaders[0], shaders[1], glsl.LinkOptions{Limits: generousLimits}); err != nil {
			logs = append(logs, "link:\n"+err.Error())
		}
	}
	r.Passed = len(logs) == 0
	r.Log = strings.Join(logs, "\n")
	return r
}

// generousLimits keep the linker's resource checks out of the way of a
// front-end check: piglit's tests assume desktop-class limits.
var generousLimits = glsl.Limits{
	MaxVertexAttribs: 16, MaxVertexUniformVectors: 4096, MaxVaryingVectors: 32,
	MaxVertexTextureImageUnits: 16, MaxCombinedTextureImageUnits: 32, MaxTextureImageUnits: 16,
	MaxFragmentUniformVectors: 4096, MaxDrawBuffers: 8, MaxTextureCoords: 8, MaxTextureUnits: 8,
}

func versionText(v int, es bool) string {
	s := fmt.Sprintf("%d.%02d", v/100, v%100)
	if es {
		s += " ES"
	}
	return s
}

// RunShaderTests runs every .shader_test file under dir.
func RunShaderTests(dir string, opts Options) ([]*Result, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".shader_test") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("conformance: walking %s: %w", dir, err)
	}
	sort.Strings(paths)
	out := make([]*Result, 0, len(paths))
	for _, p := range paths {
		rel, _ := filepath.Rel(dir, p)
		out = append(out, RunShaderTestFile(p, filepath.ToSlash(rel), opts))
	}
	return out, nil
}
