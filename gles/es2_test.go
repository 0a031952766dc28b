package gles_test

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/hal"
)

// fakeCompiler understands just enough GLSL to declare variables: lines
// "uniform TYPE NAME;" / "uniform TYPE NAME[N];" and "attribute TYPE
// NAME;". A source containing "#error" fails to compile.
type fakeCompiler struct{}

type fakeShader struct{ uniforms, attribs []driver.ActiveVar }

type fakeProgram struct{ uniforms, attribs []driver.ActiveVar }

func (p *fakeProgram) Attributes() []driver.ActiveVar { return p.attribs }
func (p *fakeProgram) Uniforms() []driver.ActiveVar   { return p.uniforms }

var glTypes = map[string]gles.Enum{
	"float": gles.FLOAT, "vec2": gles.FLOAT_VEC2, "vec3": gles.FLOAT_VEC3, "vec4": gles.FLOAT_VEC4,
	"int": gles.INT, "ivec2": gles.INT_VEC2, "bool": gles.BOOL, "mat2": gles.FLOAT_MAT2,
	"mat4": gles.FLOAT_MAT4, "sampler2D": gles.SAMPLER_2D,
}

var declRE = regexp.MustCompile(`(uniform|attribute)\s+(\w+)\s+(\w+)(?:\[(\d+)\])?;`)

func (fakeCompiler) Compile(stage driver.ShaderStage, src string) (driver.CompiledShader, string, bool) {
	if i := strings.Index(src, "#error"); i >= 0 {
		line := strings.Count(src[:i], "\n") + 1
		return nil, fmt.Sprintf("0:%d(1): error: #error directive\n", line), false
	}
	s := &fakeShader{}
	for _, m := range declRE.FindAllStringSubmatch(src, -1) {
		size := 1
		if m[4] != "" {
			size, _ = strconv.Atoi(m[4])
		}
		v := driver.ActiveVar{Name: m[3], Type: uint32(glTypes[m[2]]), Size: size}
		if m[1] == "uniform" {
			s.uniforms = append(s.uniforms, v)
		} else {
			s.attribs = append(s.attribs, v)
		}
	}
	return s, "", true
}

func (fakeCompiler) Link(vs, fs driver.CompiledShader, bind map[string]int) (driver.LinkedProgram, string, bool) {
	p := &fakeProgram{}
	loc := 0
	for _, s := range []*fakeShader{vs.(*fakeShader), fs.(*fakeShader)} {
		for _, u := range s.uniforms {
			u.Location = loc
			loc += u.Size
			p.uniforms = append(p.uniforms, u)
		}
	}
	next := 0
	for _, a := range vs.(*fakeShader).attribs {
		if l, ok := bind[a.Name]; ok {
			a.Location = l
		} else {
			a.Location = next
			next++
		}
		p.attribs = append(p.attribs, a)
	}
	sort.Slice(p.attribs, func(i, j int) bool { return p.attribs[i].Location < p.attribs[j].Location })
	return p, "", true
}

// es2Driver is the pspge driver dressed as an ES 2.0 backend, to test the
// state tracker's ES 2.0 API without a shader-capable chip.
type es2Driver struct {
	driver.Driver
	caps driver.Caps
}

func (d *es2Driver) Caps() *driver.Caps                    { return &d.caps }
func (d *es2Driver) ShaderCompiler() driver.ShaderCompiler { return fakeCompiler{} }

func init() {
	base, err := driver.Lookup("pspge")
	if err != nil {
		panic(err)
	}
	driver.Register(driver.Backend{
		Name:      "test-es2",
		NewDevice: base.NewDevice,
		NewDriver: func(dev hal.Device) (driver.Driver, error) {
			d, err := base.NewDriver(dev)
			if err != nil {
				return nil, err
			}
			caps := *d.Caps()
			caps.ES2, caps.VersionES2, caps.GLSLVersion = true, "OpenGL ES 2.0 test", "OpenGL ES GLSL ES 1.00"
			caps.Features = caps.Features.With(driver.FeatureShaders)
			caps.Limits.MaxVertexAttribs, caps.Limits.MaxCombinedTextureUnits, caps.Limits.MaxRenderbufferSize = 8, 4, 64
			return &es2Driver{Driver: d, caps: caps}, nil
		},
	})
}

const vsSrc = `attribute vec4 pos;
attribute vec2 uv;
uniform mat4 mvp;
void main() { gl_Position = mvp * pos; }
`

const fsSrc = `precision mediump float;
uniform vec4 color;
uniform float weights[3];
uniform int count;
uniform bool on;
uniform sampler2D tex;
void main() { gl_FragColor = color; }
`

func newES2(t *testing.T) (*gles.Context, uint32) {
	t.Helper()
	ctx, err := gles.NewContext("test-es2", gles.Config{Width: 16, Height: 16, ES2: true})
	require.NoError(t, err)
	t.Cleanup(func() { ctx.Close() })
	vs := ctx.CreateShader(gles.VERTEX_SHADER)
	ctx.ShaderSource(vs, vsSrc)
	ctx.CompileShader(vs)
	fs := ctx.CreateShader(gles.FRAGMENT_SHADER)
	ctx.ShaderSource(fs, fsSrc[:20], fsSrc[20:])
	ctx.CompileShader(fs)
	p := ctx.CreateProgram()
	ctx.AttachShader(p, vs)
	ctx.AttachShader(p, fs)
	ctx.BindAttribLocation(p, 5, "uv")
	ctx.LinkProgram(p)
	require.Equal(t, 1, ctx.GetProgramiv(p, gles.LINK_STATUS), ctx.GetProgramInfoLog(p))
	ctx.UseProgram(p)
	require.NoError(t, ctx.Err())
	return ctx, p
}

func TestES2Context(t *testing.T) {
	ctx, _ := newES2(t)
	assert.Equal(t, "OpenGL ES 2.0 test", ctx.GetString(gles.VERSION))
	assert.Equal(t, "OpenGL ES GLSL ES 1.00", ctx.GetString(gles.SHADING_LANGUAGE_VERSION))
	assert.Equal(t, []int{8}, ctx.GetIntegerv(gles.MAX_VERTEX_ATTRIBS))
	ctx.MatrixMode(gles.PROJECTION)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError(), "no fixed function in ES 2.0")
	ctx.Enable(gles.LIGHTING)
	assert.Equal(t, gles.INVALID_ENUM, ctx.GetError())
	ctx.Enable(gles.BLEND)
	assert.Equal(t, gles.NO_ERROR, ctx.GetError())
	_, err := gles.NewContext("pspge", gles.Config{ES2: true})
	assert.ErrorContains(t, err, "GL ES 2.0 contexts are not supported")
}

func TestShaderObjects(t *testing.T) {
	ctx, p := newES2(t)
	bad := ctx.CreateShader(gles.FRAGMENT_SHADER)
	ctx.ShaderSource(bad, "void main() {}\n#error oops\n")
	ctx.CompileShader(bad)
	assert.Equal(t, 0, ctx.GetShaderiv(bad, gles.COMPILE_STATUS))
	assert.Equal(t, "0:2(1): error: #error directive\n", ctx.GetShaderInfoLog(bad))
	assert.Equal(t, len(ctx.GetShaderInfoLog(bad))+1, ctx.GetShaderiv(bad, gles.INFO_LOG_LENGTH))
	assert.Equal(t, int(gles.FRAGMENT_SHADER), ctx.GetShaderiv(bad, gles.SHADER_TYPE))
	ctx.AttachShader(p, bad)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError(), "a second fragment shader")
	ctx.CompileShader(p)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError(), "a program is not a shader")
	ctx.CompileShader(999)
	assert.Equal(t, gles.INVALID_VALUE, ctx.GetError())
	assert.Equal(t, 2, ctx.GetProgramiv(p, gles.ATTACHED_SHADERS))
	assert.Equal(t, 6, ctx.GetProgramiv(p, gles.ACTIVE_UNIFORMS))
	assert.Equal(t, 2, ctx.GetProgramiv(p, gles.ACTIVE_ATTRIBUTES))
	assert.Equal(t, len("weights[0]")+1, ctx.GetProgramiv(p, gles.ACTIVE_UNIFORM_MAX_LENGTH))
	info, ok := ctx.GetActiveUniform(p, 2)
	require.True(t, ok)
	assert.Equal(t, gles.ActiveInfo{Name: "weights[0]", Type: gles.FLOAT, Size: 3}, info)
	assert.Equal(t, 5, ctx.GetAttribLocation(p, "uv"))
	assert.Equal(t, 0, ctx.GetAttribLocation(p, "pos"))
	assert.Equal(t, -1, ctx.GetAttribLocation(p, "nope"))
	ctx.BindAttribLocation(p, 1, "gl_Vertex")
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError())

	// Deleting a shader attached to a linked program keeps it alive.
	vs := ctx.GetAttachedShaders(p)[0]
	ctx.DeleteShader(vs)
	assert.True(t, ctx.IsShader(vs))
	assert.Equal(t, 1, ctx.GetShaderiv(vs, gles.DELETE_STATUS))

	// An unlinkable program.
	q := ctx.CreateProgram()
	ctx.AttachShader(q, bad)
	ctx.LinkProgram(q)
	assert.Equal(t, 0, ctx.GetProgramiv(q, gles.LINK_STATUS))
	assert.Contains(t, ctx.GetProgramInfoLog(q), "vertex and a fragment shader")
	ctx.UseProgram(q)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError())
}

func TestUniforms(t *testing.T) {
	ctx, p := newES2(t)
	loc := func(n string) int { return ctx.GetUniformLocation(p, n) }
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, -1, -1}, []int{loc("mvp"), loc("color"), loc("weights"), loc("weights[1]"),
		loc("weights[2]"), loc("count"), loc("on"), loc("tex"), loc("weights[3]"), loc("nope")})

	ctx.Uniform4f(loc("color"), 1, 2, 3, 4)
	assert.Equal(t, []float32{1, 2, 3, 4}, ctx.GetUniformfv(p, loc("color")))
	ctx.Uniform1fv(loc("weights[1]"), []float32{5, 6})
	assert.Equal(t, []float32{6}, ctx.GetUniformfv(p, loc("weights[2]")))
	ctx.Uniform1i(loc("count"), 7)
	assert.Equal(t, []int32{7}, ctx.GetUniformiv(p, loc("count")))
	ctx.Uniform1f(loc("on"), 0.5)
	assert.Equal(t, []int32{1}, ctx.GetUniformiv(p, loc("on")), "bools take floats")
	ctx.UniformMatrix4fv(loc("mvp"), false, []float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1})
	require.NoError(t, ctx.Err())

	for _, tc := range []struct {
		name string
		call func()
		code gles.Enum
	}{
		{"float to int", func() { ctx.Uniform1f(loc("count"), 1) }, gles.INVALID_OPERATION},
		{"int to float", func() { ctx.Uniform1i(loc("weights"), 1) }, gles.INVALID_OPERATION},
		{"wrong size", func() { ctx.Uniform3f(loc("color"), 1, 2, 3) }, gles.INVALID_OPERATION},
		{"array into scalar", func() { ctx.Uniform4fv(loc("color"), make([]float32, 8)) }, gles.INVALID_OPERATION},
		{"ragged values", func() { ctx.Uniform4fv(loc("color"), make([]float32, 5)) }, gles.INVALID_VALUE},
		{"bad location", func() { ctx.Uniform1f(99, 1) }, gles.INVALID_OPERATION},
		{"sampler with float", func() { ctx.Uniform1f(loc("tex"), 1) }, gles.INVALID_OPERATION},
		{"sampler out of range", func() { ctx.Uniform1i(loc("tex"), 9) }, gles.INVALID_VALUE},
		{"transpose", func() { ctx.UniformMatrix4fv(loc("mvp"), true, make([]float32, 16)) }, gles.INVALID_VALUE},
		{"matrix as vec4", func() { ctx.Uniform4fv(loc("mvp"), make([]float32, 16)) }, gles.INVALID_OPERATION},
		{"location -1 is ignored", func() { ctx.Uniform1f(-1, 1) }, gles.NO_ERROR},
	} {
		tc.call()
		assert.Equal(t, tc.code, ctx.GetError(), tc.name)
	}
	ctx.UseProgram(0)
	ctx.Uniform1f(loc("weights"), 1)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError(), "no current program")
	ctx.Err()
}

func TestVertexAttribs(t *testing.T) {
	ctx, _ := newES2(t)
	ctx.VertexAttrib2f(3, 1, 2)
	assert.Equal(t, []float32{1, 2, 0, 1}, ctx.GetVertexAttribfv(3, gles.CURRENT_VERTEX_ATTRIB))
	ctx.VertexAttribPointer(0, 2, gles.FLOAT, false, 0, []float32{-1, -1, 1, -1, -1, 1})
	ctx.EnableVertexAttribArray(0)
	assert.Equal(t, []float32{1}, ctx.GetVertexAttribfv(0, gles.VERTEX_ATTRIB_ARRAY_ENABLED))
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	require.NoError(t, ctx.Err())
	ctx.DrawArrays(gles.TRIANGLES, 0, 4)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError(), "attribute 0 holds 3 vertices")
	ctx.VertexAttribPointer(8, 2, gles.FLOAT, false, 0, []float32{})
	assert.Equal(t, gles.INVALID_VALUE, ctx.GetError(), "index beyond MAX_VERTEX_ATTRIBS")
	ctx.VertexAttribPointer(1, 5, gles.FLOAT, false, 0, []float32{})
	assert.Equal(t, gles.INVALID_VALUE, ctx.GetError())
	ctx.UseProgram(0)
	ctx.DrawArrays(gles.TRIANGLES, 0, 3)
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError(), "no program")
	ctx.Err()
}

func TestFramebufferObjects(t *testing.T) {
	ctx, _ := newES2(t)
	fb := ctx.GenFramebuffers(1)[0]
	rb := ctx.GenRenderbuffers(2)
	ctx.BindFramebuffer(gles.FRAMEBUFFER, fb)
	assert.Equal(t, gles.FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT, ctx.CheckFramebufferStatus(gles.FRAMEBUFFER))
	ctx.BindRenderbuffer(gles.RENDERBUFFER, rb[0])
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.RGB565, 8, 4)
	assert.Equal(t, 6, ctx.GetRenderbufferParameteriv(gles.RENDERBUFFER, gles.RENDERBUFFER_GREEN_SIZE))
	ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, rb[0])
	ctx.BindRenderbuffer(gles.RENDERBUFFER, rb[1])
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.DEPTH_COMPONENT16, 8, 8)
	ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.DEPTH_ATTACHMENT, gles.RENDERBUFFER, rb[1])
	assert.Equal(t, gles.FRAMEBUFFER_INCOMPLETE_DIMENSIONS, ctx.CheckFramebufferStatus(gles.FRAMEBUFFER))
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.DEPTH_COMPONENT16, 8, 4)
	assert.Equal(t, gles.FRAMEBUFFER_UNSUPPORTED, ctx.CheckFramebufferStatus(gles.FRAMEBUFFER),
		"the test backend cannot render into framebuffer objects")
	assert.Equal(t, int(gles.RENDERBUFFER), ctx.GetFramebufferAttachmentParameteriv(gles.FRAMEBUFFER, gles.DEPTH_ATTACHMENT, gles.FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE))
	ctx.Clear(gles.COLOR_BUFFER_BIT)
	assert.Equal(t, gles.INVALID_FRAMEBUFFER_OPERATION, ctx.GetError())
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.RGBA, 8, 4)
	assert.Equal(t, gles.INVALID_ENUM, ctx.GetError())
	ctx.BindFramebuffer(gles.FRAMEBUFFER, 0)
	ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, rb[0])
	assert.Equal(t, gles.INVALID_OPERATION, ctx.GetError(), "framebuffer 0 has no attachments")
	assert.Equal(t, gles.FRAMEBUFFER_COMPLETE, ctx.CheckFramebufferStatus(gles.FRAMEBUFFER))
	ctx.Err()
}
