package conform

import (
	"errors"
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

	// pool holds idle contexts by size, in their initial state. Creating
	// a context allocates and zeroes the simulated device's memory (96 MiB
	// on r300), which costs several times more than running a test, so
	// tests reuse contexts: after each one the runner deletes the objects
	// it made and sets back every state its commands can change and the
	// framebuffer's contents (reset). TestContextReuse checks that verdicts
	// and reasons do not depend on it. A test that times out keeps its
	// context (see RunFile).
	mu   sync.Mutex
	pool map[[2]int][]*gles.Context
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
	// shaders and textures the test made, deleted when it ends.
	shaders, textures []uint32
}

// deleteObjects deletes the program, shaders and textures the test made.
func (ru *run) deleteObjects() {
	ru.ctx.UseProgram(0)
	if ru.prog != 0 {
		ru.ctx.DeleteProgram(ru.prog)
	}
	for _, s := range ru.shaders {
		ru.ctx.DeleteShader(s)
	}
	if len(ru.textures) > 0 {
		ru.ctx.DeleteTextures(ru.textures...)
	}
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

// take returns an idle context of w x h in its initial state.
func (r *Runner) take(w, h int) *gles.Context {
	r.mu.Lock()
	k := [2]int{w, h}
	if n := len(r.pool[k]); n > 0 {
		ctx := r.pool[k][n-1]
		r.pool[k] = r.pool[k][:n-1]
		r.mu.Unlock()
		return ctx
	}
	r.mu.Unlock()
	return r.newContext(w, h)
}

// give resets ctx and keeps it for the next test.
func (r *Runner) give(ctx *gles.Context, w, h int) {
	reset(ctx, w, h)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pool == nil {
		r.pool = map[[2]int][]*gles.Context{}
	}
	k := [2]int{w, h}
	r.pool[k] = append(r.pool[k], ctx)
}

// Close closes the idle contexts.
func (r *Runner) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, list := range r.pool {
		for _, ctx := range list {
			ctx.Close()
		}
		delete(r.pool, k)
	}
}

// compileContext lends a context for a compile-only test (a
// glslparsertest or built-in-constants file); give it back with release.
func (r *Runner) compileContext() *gles.Context { return r.take(r.size()) }

// release returns a context lent by compileContext.
func (r *Runner) release(ctx *gles.Context) {
	w, h := r.size()
	r.give(ctx, w, h)
}

// size is the window size of the runner's contexts.
func (r *Runner) size() (int, int) {
	if r.Width == 0 {
		return 250, 250
	}
	return r.Width, r.Height
}

// Initial values the runner's commands can change, for reset.
var (
	resetCaps = []gles.Enum{gles.BLEND, gles.DEPTH_TEST, gles.CULL_FACE, gles.SCISSOR_TEST, gles.STENCIL_TEST}
)

// reset brings a context back to the state of a new one as far as a test
// can tell: no program bound, no texture bound on any unit (the test's
// objects are already deleted), generic attributes disabled and (0, 0, 0,
// 1), the capabilities, blend, depth and clear state the runner's commands
// set at their initial values, the viewport covering the window, and the
// framebuffer zeroed as new device memory is (colour 0, depth 0, stencil
// 0).
func reset(ctx *gles.Context, w, h int) {
	ctx.UseProgram(0)
	units := 8
	if v := ctx.GetIntegerv(gles.MAX_COMBINED_TEXTURE_IMAGE_UNITS); len(v) == 1 {
		units = v[0]
	}
	for u := units - 1; u >= 0; u-- {
		ctx.ActiveTexture(gles.TEXTURE0 + gles.Enum(u))
		ctx.BindTexture(gles.TEXTURE_2D, 0)
	}
	attribs := 16
	if v := ctx.GetIntegerv(gles.MAX_VERTEX_ATTRIBS); len(v) == 1 {
		attribs = v[0]
	}
	for i := 0; i < attribs; i++ {
		ctx.DisableVertexAttribArray(i)
		ctx.VertexAttrib4f(i, 0, 0, 0, 1)
	}
	for _, c := range resetCaps {
		ctx.Disable(c)
	}
	ctx.Enable(gles.DITHER)
	ctx.BlendFunc(gles.ONE, gles.ZERO)
	ctx.DepthFunc(gles.LESS)
	ctx.Viewport(0, 0, w, h)
	ctx.ClearColor(0, 0, 0, 0)
	ctx.ClearDepthf(0)
	ctx.ClearStencil(0)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT | gles.STENCIL_BUFFER_BIT)
	ctx.ClearDepthf(1)
	_ = ctx.Err() // a test's GL errors are its own
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
			ru.deleteObjects()
			r.give(ru.ctx, w, h)
		}
	}()
	defer recoverResult(&res)
	ru.require()
	ctx := r.take(w, h)
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

// sources returns the vertex and fragment shader sources to compile
// (compatibility mode included; see Runner).
func (ru *run) sources() (vs, fs string) {
	vs, fs = ru.t.VertexShader, ru.t.FragmentShader
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
	return vs, fs
}

// Sources returns the vertex and fragment shader sources the runner
// compiles for t, compatibility mode included, or a Skip result when the
// runner would skip t (its [require] section).
func Sources(t *Test) (vs, fs string, res Result) {
	defer recoverResult(&res)
	ru := &run{t: t}
	ru.require()
	vs, fs = ru.sources()
	return vs, fs, Result{Status: Pass}
}

func (ru *run) link(expectError bool) bool {
	ctx := ru.ctx
	vs, fs := ru.sources()
	compile := func(typ gles.Enum, src string, what string) (uint32, bool) {
		s := ctx.CreateShader(typ)
		ru.shaders = append(ru.shaders, s)
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
	ru.prog = p
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

// Numbers parses the numbers of a [test] line as the runner does:
// parentheses, commas and semicolons separate, and a hexadecimal word is the
// raw bits of a float32 (piglit's notation for exact float uniforms).
func Numbers(ws []string) (out []float64, err error) {
	defer func() {
		if x := recover(); x != nil {
			f, ok := x.(failure)
			if !ok {
				panic(x)
			}
			err = errors.New(f.reason)
		}
	}()
	return floats(ws), nil
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
