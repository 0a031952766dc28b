package conform

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/retrogl/retrogl/gles"
)

// Piglit's built-in-constants files (tests/spec/*/minimum-maximums.txt)
// list the minimum value of each gl_Max* constant (the maximum of each
// gl_Min*) a GLSL version promises:
//
//	100
//	gl_MaxVertexAttribs 8
//	gl_MaxVertexUniformVectors 128
//
// The first line is the version ("100", "110", "150 compatibility", ...),
// then an optional shader type (GL_VERTEX_SHADER, ...) and required
// extensions (GL_...), then one constant per line. The runner judges such a
// file as piglit's built-in-constants does: for every constant it compiles
// a vertex and a fragment shader declaring "uniform float
// f[gl_MaxX >= N ? 1 : -1];" (a negative size is an error, so the shaders
// compile only when the backend's value meets the minimum) and links them.

// constant is one line of a built-in-constants file.
type constant struct {
	name  string
	value int
}

// constantsFile is a parsed built-in-constants file.
type constantsFile struct {
	version    int
	es         bool
	stage      string
	extensions []string
	constants  []constant
}

// parseConstants reads a built-in-constants file; an error means the file
// is not one.
func parseConstants(text string) (*constantsFile, error) {
	sc := bufio.NewScanner(strings.NewReader(text))
	f := &constantsFile{}
	n := 0
	for sc.Scan() {
		n++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		switch {
		case n == 1:
			v, err := strconv.Atoi(fields[0])
			if err != nil || v <= 0 || len(fields) > 2 {
				return nil, fmt.Errorf("line 1: %q is not a GLSL version", sc.Text())
			}
			f.version = v
			f.es = v == 100 || len(fields) == 2 && fields[1] == "es"
		case len(fields) == 1 && strings.HasPrefix(fields[0], "GL_") && strings.HasSuffix(fields[0], "_SHADER") && len(f.constants) == 0:
			f.stage = fields[0]
		case len(fields) == 1 && strings.HasPrefix(fields[0], "GL_") && len(f.constants) == 0:
			f.extensions = append(f.extensions, fields[0])
		case len(fields) == 2 && (strings.HasPrefix(fields[0], "gl_Max") || strings.HasPrefix(fields[0], "gl_Min")):
			v, err := strconv.Atoi(fields[1])
			if err != nil {
				return nil, fmt.Errorf("line %d: bad value %q", n, fields[1])
			}
			f.constants = append(f.constants, constant{fields[0], v})
		default:
			return nil, fmt.Errorf("line %d: %q is not a built-in constant and its minimum", n, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if f.version == 0 || len(f.constants) == 0 {
		return nil, fmt.Errorf("no version line and constants")
	}
	sort.Slice(f.constants, func(i, j int) bool { return f.constants[i].name < f.constants[j].name })
	return f, nil
}

// runConstants judges one built-in-constants file.
func (r *Runner) runConstants(path string) (res Result) {
	defer recoverResult(&res)
	text, err := os.ReadFile(path)
	if err != nil {
		failf("%v", err)
	}
	f, err := parseConstants(string(text))
	if err != nil {
		skipf("not a built-in-constants file: %v", err)
	}
	switch {
	case f.es && f.version != 100:
		skipf("needs GLSL ES %d.%02d", f.version/100, f.version%100)
	case !f.es && f.version > 120:
		skipf("needs GLSL %d.%02d", f.version/100, f.version%100)
	case f.stage != "" && f.stage != "GL_VERTEX_SHADER" && f.stage != "GL_FRAGMENT_SHADER":
		skipf("%s is not part of GL ES 2.0", f.stage)
	}
	ctx := r.compileContext()
	defer r.release(ctx)
	exts := strings.Fields(ctx.GetString(gles.EXTENSIONS))
	head := fmt.Sprintf("#version %d\n", f.version)
	for _, e := range f.extensions {
		if !contains(exts, e) {
			skipf("needs %s", e)
		}
		head += "#extension " + e + " : require\n"
	}
	head += "#ifdef GL_ES\nprecision mediump float;\n#endif\n"
	var failed []string
	for _, c := range f.constants {
		cmp := ">="
		if strings.HasPrefix(c.name, "gl_Min") {
			cmp = "<="
		}
		decl := fmt.Sprintf("uniform float f[%s %s %d ? 1 : -1];\n", c.name, cmp, c.value)
		vs, vlog, vok := compileShader(ctx, gles.VERTEX_SHADER, head+decl+"void main() { gl_Position = vec4(f[0]); }\n")
		fs, flog, fok := compileShader(ctx, gles.FRAGMENT_SHADER, head+decl+"void main() { gl_FragColor = vec4(f[0]); }\n")
		switch {
		case f.stage != "GL_FRAGMENT_SHADER" && !vok:
			failed = append(failed, fmt.Sprintf("%s: vertex shader: %s", c.name, vlog))
		case f.stage != "GL_VERTEX_SHADER" && !fok:
			failed = append(failed, fmt.Sprintf("%s: fragment shader: %s", c.name, flog))
		default:
			p := ctx.CreateProgram()
			ctx.AttachShader(p, vs)
			ctx.AttachShader(p, fs)
			ctx.LinkProgram(p)
			if ctx.GetProgramiv(p, gles.LINK_STATUS) == 0 {
				failed = append(failed, fmt.Sprintf("%s: link: %s", c.name, oneLine(ctx.GetProgramInfoLog(p))))
			}
			ctx.DeleteProgram(p)
		}
		ctx.DeleteShader(vs)
		ctx.DeleteShader(fs)
	}
	if len(failed) > 0 {
		return Result{Fail, strings.Join(failed, "; ")}
	}
	return Result{Status: Pass}
}
