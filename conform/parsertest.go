package conform

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/retrogl/retrogl/compiler/glsl/conformance"
	"github.com/retrogl/retrogl/gles"
)

// Piglit's glslparsertest files are one shader (.vert, .frag, ...) whose
// header comment holds a [config] block:
//
//	// [config]
//	// expect_result: pass
//	// glsl_version: 1.00
//	// check_link: true
//	// require_extensions: GL_OES_standard_derivatives
//	// [end config]
//
// The runner judges them as piglit's glslparsertest does: the file is
// skipped when the backend lacks the GLSL version or a required extension
// (or has one marked "!GL_..."); otherwise the shader is compiled, and with
// check_link linked with a trivial shader of the other stage (GL ES needs
// both), on the backend. The test passes when that succeeds exactly when
// expect_result says "pass".

// parserStages maps glslparsertest file extensions to GL shader types;
// the stages GL ES 2.0 lacks map to 0 (judged as skipped).
var parserStages = map[string]gles.Enum{
	".vert": gles.VERTEX_SHADER, ".frag": gles.FRAGMENT_SHADER,
	".geom": 0, ".tesc": 0, ".tese": 0, ".comp": 0,
}

// runParserTest judges one glslparsertest file.
func (r *Runner) runParserTest(path string) (res Result) {
	defer recoverResult(&res)
	src, err := os.ReadFile(path)
	if err != nil {
		failf("%v", err)
	}
	cfg, err := conformance.ParseConfig(string(src))
	if err != nil {
		skipf("not a glslparsertest file: %v", err)
	}
	typ := parserStages[filepath.Ext(path)]
	if typ == 0 {
		skipf("%s shaders are not part of GL ES 2.0", strings.TrimPrefix(filepath.Ext(path), "."))
	}
	desk := cfg.Version != 100
	if cfg.Version > 120 {
		skipf("needs GLSL %d.%02d", cfg.Version/100, cfg.Version%100)
	}
	ctx := r.compileContext()
	defer r.release(ctx)
	exts := strings.Fields(ctx.GetString(gles.EXTENSIONS))
	for _, e := range cfg.Extensions {
		name := strings.TrimPrefix(e, "!")
		if contains(exts, name) == strings.HasPrefix(e, "!") {
			if strings.HasPrefix(e, "!") {
				skipf("the backend has %s", name)
			}
			skipf("needs %s", name)
		}
	}
	text := string(src)
	if desk && !versionRE.MatchString(text) {
		// Compatibility mode, as for shader_test files: a desktop shader
		// without #version is GLSL 1.10 (1.20 when the config says so).
		text = fmt.Sprintf("#version %d\n#line 0\n%s", cfg.Version, text)
	}
	sh, log, ok := compileShader(ctx, typ, text)
	defer ctx.DeleteShader(sh)
	if ok && cfg.CheckLink {
		log, ok = linkWithDummy(ctx, sh, typ, cfg.Version)
	}
	switch {
	case ok == cfg.ExpectPass:
		return Result{Status: Pass}
	case cfg.ExpectPass:
		failf("expected the shader to compile%s: %s", linkWord(cfg.CheckLink), log)
	default:
		failf("expected an error, but the shader compiles%s", linkWord(cfg.CheckLink))
	}
	return Result{Status: Pass}
}

func linkWord(link bool) string {
	if link {
		return " and link"
	}
	return ""
}

// compileShader compiles src and returns the shader, its info log
// (flattened to one line) and whether it compiled.
func compileShader(ctx *gles.Context, typ gles.Enum, src string) (uint32, string, bool) {
	s := ctx.CreateShader(typ)
	ctx.ShaderSource(s, src)
	ctx.CompileShader(s)
	return s, oneLine(ctx.GetShaderInfoLog(s)), ctx.GetShaderiv(s, gles.COMPILE_STATUS) != 0
}

// linkWithDummy links shader sh (of type typ) with a trivial shader of the
// other stage, as piglit's glslparsertest does for GL ES.
func linkWithDummy(ctx *gles.Context, sh uint32, typ gles.Enum, version int) (string, bool) {
	other, body := gles.FRAGMENT_SHADER, "void main() { }\n"
	if typ == gles.FRAGMENT_SHADER {
		other, body = gles.VERTEX_SHADER, "void main() { gl_Position = vec4(0.0); }\n"
	}
	dummy := ctx.CreateShader(other)
	defer ctx.DeleteShader(dummy)
	ctx.ShaderSource(dummy, fmt.Sprintf("#version %d\n%s", version, body))
	ctx.CompileShader(dummy)
	if ctx.GetShaderiv(dummy, gles.COMPILE_STATUS) == 0 {
		failf("the trivial %s shader does not compile: %s", stageName(other), oneLine(ctx.GetShaderInfoLog(dummy)))
	}
	p := ctx.CreateProgram()
	defer ctx.DeleteProgram(p)
	ctx.AttachShader(p, sh)
	ctx.AttachShader(p, dummy)
	ctx.LinkProgram(p)
	if ctx.GetProgramiv(p, gles.LINK_STATUS) == 0 {
		return "link: " + oneLine(ctx.GetProgramInfoLog(p)), false
	}
	return "", true
}

func stageName(typ gles.Enum) string {
	if typ == gles.VERTEX_SHADER {
		return "vertex"
	}
	return "fragment"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
