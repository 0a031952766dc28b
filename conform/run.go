package conform

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/retrogl/retrogl/gles"
)

// Status is the outcome of one test.
type Status uint8

// The outcomes.
const (
	Pass Status = iota
	Fail
	Skip
)

// String returns "PASS", "FAIL" or "SKIP".
func (s Status) String() string { return [...]string{"PASS", "FAIL", "SKIP"}[s] }

// Result is the outcome of one test with the reason of a failure or skip.
type Result struct {
	Status Status
	Reason string
}

// Runner runs tests on one backend. Each test gets a fresh GL ES 2.0
// context of Width x Height (piglit's default 250x250 when zero).
//
// Compatibility mode: GLSL 1.10/1.20 tests run in the ES 2.0 context with
// "#version 110" (or 120) put before shaders that have no #version. The
// runner then feeds what the fixed-function pipeline would: gl_Vertex is
// the rectangle or vertex-data position, gl_Color (1, 1, 1, 1),
// gl_Normal (0, 0, 1), gl_MultiTexCoord* (0, 0, 0, 1), and the built-in
// matrix uniforms are identities (the piglit default), so "draw rect"
// takes normalized device coordinates, or window coordinates with
// "ortho" (which sets the projection uniforms as piglit_ortho_projection
// does).
type Runner struct {
	Backend       string
	Width, Height int
	// Workers is passed to every context (gles.Config.Workers).
	Workers int
	// Timeout bounds one file in RunFile (0: none). A file that runs
	// longer fails with a reason naming the limit; its run goes on in
	// the background (a goroutine cannot be stopped) and its result is
	// dropped.
	Timeout time.Duration
	// exec judges one file (tests replace it); nil: the file's kind.
	exec func(path string) Result

	// shared is the context compile-only tests (glslparsertest and
	// built-in-constants files) reuse: creating a context allocates the
	// simulated device's memory, which costs more than compiling. Such a
	// test only creates and deletes shaders and programs, so one test
	// cannot change another's verdict. A test that times out keeps the
	// context it was using (see RunFile).
	mu     sync.Mutex
	shared *gles.Context
}

// failure aborts a test.
type failure struct {
	st     Status
	reason string
}

// failf and skipf end a test; the reason is flattened to one line.
func failf(format string, args ...any) {
	panic(failure{Fail, strings.Join(strings.Fields(fmt.Sprintf(format, args...)), " ")})
}

func skipf(format string, args ...any) {
	panic(failure{Skip, strings.Join(strings.Fields(fmt.Sprintf(format, args...)), " ")})
}

type run struct {
	t      *Test
	ctx    *gles.Context
	prog   uint32
	w, h   int
	desk   bool
	clear  gles.Enum
	failed []string
	proj   [16]float32
}

// recoverResult turns a failf/skipf panic (or any other) into *res.
func recoverResult(res *Result) {
	if x := recover(); x != nil {
		f, ok := x.(failure)
		if !ok {
			*res = Result{Fail, fmt.Sprintf("panic: %v", x)}
			return
		}
		*res = Result{f.st, f.reason}
	}
}

// newContext creates the GL ES 2.0 context a test runs in; a backend
// without ES 2.0 skips the test.
func (r *Runner) newContext(w, h int) *gles.Context {
	ctx, err := gles.NewContext(r.Backend, gles.Config{Width: w, Height: h, ES2: true, DepthBits: 24, StencilBits: 8, Workers: r.Workers})
	if err != nil {
		skipf("%v", err)
	}
	return ctx
}

// compileContext lends the shared context for compile-only tests; give
// it back with release.
func (r *Runner) compileContext() *gles.Context {
	r.mu.Lock()
	ctx := r.shared
	r.shared = nil
	r.mu.Unlock()
	if ctx == nil {
		ctx = r.newContext(8, 8)
	}
	return ctx
}

// release returns a context lent by compileContext (or closes it when
// another one was made meanwhile).
func (r *Runner) release(ctx *gles.Context) {
	_ = ctx.Err() // a test's GL errors are its own
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.shared == nil {
		r.shared = ctx
		return
	}
	ctx.Close()
}

// Close releases the shared context.
func (r *Runner) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.shared != nil {
		r.shared.Close()
		r.shared = nil
	}
}

// Run runs one parsed test.
func (r *Runner) Run(t *Test) (res Result) {
	w, h := r.Width, r.Height
	if w == 0 {
		w, h = 250, 250
	}
	ru := &run{t: t, w: w, h: h}
	defer func() {
		if ru.ctx != nil {
			ru.ctx.Close()
		}
	}()
	defer recoverResult(&res)
	ru.require()
	ctx := r.newContext(w, h)
	ru.ctx = ctx
	ctx.Viewport(0, 0, w, h)
	ru.proj = ident()
	expectLinkError := false
	for _, c := range t.Commands {
		if c.Text == "link error" {
			expectLinkError = true
		}
	}
	if t.FragmentProgram != "" {
		skipf("[fragment program] (ARB assembly) is not supported")
	}
	if !ru.link(expectLinkError) {
		return Result{Status: Pass}
	}
	for _, c := range t.Commands {
		ru.command(c)
		if err := ctx.Err(); err != nil {
			failf("line %d: %s: %s", c.N, c.Text, strings.Join(strings.Fields(err.Error()), " "))
		}
	}
	if len(ru.failed) > 0 {
		return Result{Fail, strings.Join(ru.failed, "; ")}
	}
	return Result{Status: Pass}
}

// require checks the [require] section.
func (ru *run) require() {
	v, es := ru.t.GLSLVersion()
	switch {
	case es && v > 100:
		skipf("needs GLSL ES %d.%02d", v/100, v%100)
	case !es && v > 120:
		skipf("needs GLSL %d.%02d", v/100, v%100)
	}
	ru.desk = !es
	for _, l := range ru.t.Require {
		f := l.Fields()
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "GLSL":
		case f[0] == "GL" && len(f) >= 3:
			var maj, min int
			fmt.Sscanf(f[2], "%d.%d", &maj, &min)
			if maj*10+min > 21 {
				skipf("needs GL %s", f[2])
			}
		case f[0] == "GL_ES" || f[0] == "GL" && len(f) >= 2 && f[1] == "ES":
			ru.desk = false
		case strings.HasPrefix(f[0], "GL_"):
			skipf("needs %s", f[0])
		case strings.HasPrefix(f[0], "SIZE"), f[0] == "depthbuffer", f[0] == "rlimit":
		default:
			skipf("unsupported requirement %q", l.Text)
		}
	}
}

var versionRE = regexp.MustCompile(`(?m)^\s*#\s*version\b`)

// source prepares a shader for the ES 2.0 context.
func (ru *run) source(src string) string {
	if !ru.desk || versionRE.MatchString(src) {
		return src
	}
	v, _ := ru.t.GLSLVersion()
	if v != 120 {
		v = 110
	}
	return fmt.Sprintf("#version %d\n#line 0\n%s", v, src)
}

func (ru *run) link(expectError bool) bool {
	ctx := ru.ctx
	vs, fs := ru.t.VertexShader, ru.t.FragmentShader
	if ru.t.PassthroughVS || strings.TrimSpace(vs) == "" {
		if ru.desk {
			vs = "#version 110\nvoid main() { gl_Position = gl_Vertex; gl_FrontColor = gl_Color; }\n"
		} else {
			vs = "attribute vec4 piglit_vertex;\nvoid main() { gl_Position = piglit_vertex; }\n"
		}
	} else {
		vs = ru.source(vs)
	}
	if strings.TrimSpace(fs) == "" {
		if !ru.desk {
			skipf("no fragment shader in an ES test")
		}
		fs = "#version 110\nvoid main() { gl_FragColor = gl_Color; }\n"
	} else {
		fs = ru.source(fs)
	}
	compile := func(typ gles.Enum, src string, what string) (uint32, bool) {
		s := ctx.CreateShader(typ)
		ctx.ShaderSource(s, src)
		ctx.CompileShader(s)
		if ctx.GetShaderiv(s, gles.COMPILE_STATUS) == 0 {
			if expectError {
				return 0, false
			}
			failf("%s shader: %s", what, strings.TrimSpace(ctx.GetShaderInfoLog(s)))
		}
		return s, true
	}
	v, ok := compile(gles.VERTEX_SHADER, vs, "vertex")
	if !ok {
		return false
	}
	f, ok := compile(gles.FRAGMENT_SHADER, fs, "fragment")
	if !ok {
		return false
	}
	p := ctx.CreateProgram()
	ctx.AttachShader(p, v)
	ctx.AttachShader(p, f)
	ctx.LinkProgram(p)
	if ctx.GetProgramiv(p, gles.LINK_STATUS) == 0 {
		if expectError {
			return false
		}
		failf("link: %s", strings.TrimSpace(ctx.GetProgramInfoLog(p)))
	}
	if expectError {
		failf("the program links; the test expects a link error")
	}
	ctx.UseProgram(p)
	ru.prog = p
	ru.defaults()
	return true
}

// defaults feeds the compatibility-mode built-ins.
func (ru *run) defaults() {
	ctx := ru.ctx
	set := func(name string, v ...float32) {
		if loc := ctx.GetAttribLocation(ru.prog, name); loc >= 0 {
			ctx.VertexAttrib4f(loc, v[0], v[1], v[2], v[3])
		}
	}
	set("gl_Color", 1, 1, 1, 1)
	set("gl_SecondaryColor", 0, 0, 0, 1)
	set("gl_Normal", 0, 0, 1, 1)
	for i := 0; i < 8; i++ {
		set(fmt.Sprintf("gl_MultiTexCoord%d", i), 0, 0, 0, 1)
	}
	ru.matrices()
	id := ident()
	for _, n := range []string{"gl_ModelViewMatrix", "gl_ModelViewMatrixInverse", "gl_ModelViewMatrixTranspose", "gl_ModelViewMatrixInverseTranspose"} {
		ru.mat4(n, id)
	}
	for i := 0; i < 8; i++ {
		ru.mat4(fmt.Sprintf("gl_TextureMatrix[%d]", i), id)
	}
	if loc := ctx.GetUniformLocation(ru.prog, "gl_NormalMatrix"); loc >= 0 {
		ctx.UniformMatrix3fv(loc, false, []float32{1, 0, 0, 0, 1, 0, 0, 0, 1})
	}
	if loc := ctx.GetUniformLocation(ru.prog, "gl_DepthRange.near"); loc >= 0 {
		ctx.Uniform1f(loc, 0)
	}
	for n, v := range map[string]float32{"gl_DepthRange.far": 1, "gl_DepthRange.diff": 1} {
		if loc := ctx.GetUniformLocation(ru.prog, n); loc >= 0 {
			ctx.Uniform1f(loc, v)
		}
	}
}

func ident() [16]float32 { return [16]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1} }

func (ru *run) mat4(name string, m [16]float32) {
	if loc := ru.ctx.GetUniformLocation(ru.prog, name); loc >= 0 {
		ru.ctx.UniformMatrix4fv(loc, false, m[:])
	}
}

// matrices sets the projection-dependent built-in uniforms.
func (ru *run) matrices() {
	ru.mat4("gl_ProjectionMatrix", ru.proj)
	ru.mat4("gl_ModelViewProjectionMatrix", ru.proj)
}

// floats parses numbers, ignoring parentheses and commas.
func floats(ws []string) []float64 {
	var out []float64
	for _, w := range ws {
		for _, p := range strings.FieldsFunc(w, func(r rune) bool { return r == '(' || r == ')' || r == ',' || r == ';' }) {
			x, err := parseNum(p)
			if err != nil {
				failf("bad number %q", p)
			}
			out = append(out, x)
		}
	}
	return out
}

func parseNum(s string) (float64, error) {
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		u, err := strconv.ParseUint(s[2:], 16, 32)
		// piglit: hex values are raw float bits for float uniforms.
		return float64(math.Float32frombits(uint32(u))), err
	}
	return strconv.ParseFloat(s, 64)
}

func f32s(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}
