// Command shaders renders a GLSL-lit, textured cube in a GL ES 2.0
// context: a vertex shader transforms positions and normals and passes
// texture coordinates, a fragment shader samples a checker texture and
// applies per-pixel diffuse and specular lighting.
//
//	go run ./examples/shaders -backend r300 -o /tmp/shaders.png
//
// Only backends whose Caps allow ES 2.0 contexts can run it (r300).
package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"os"

	"github.com/go-gl/mathgl/mgl32"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/examples/internal/app"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

const vertexSrc = `
attribute vec3 a_pos;
attribute vec3 a_normal;
attribute vec2 a_uv;
uniform mat4 u_mvp;
uniform mat4 u_model;
varying vec3 v_normal;
varying vec3 v_world;
varying vec2 v_uv;
void main()
{
	vec4 w = u_model * vec4(a_pos, 1.0);
	v_world = w.xyz;
	v_normal = mat3(u_model[0].xyz, u_model[1].xyz, u_model[2].xyz) * a_normal;
	v_uv = a_uv;
	gl_Position = u_mvp * vec4(a_pos, 1.0);
}
`

const fragmentSrc = `
precision mediump float;
uniform sampler2D u_tex;
uniform vec3 u_light;
uniform vec3 u_eye;
varying vec3 v_normal;
varying vec3 v_world;
varying vec2 v_uv;
void main()
{
	vec3 n = normalize(v_normal);
	vec3 l = normalize(u_light - v_world);
	vec3 h = normalize(l + normalize(u_eye - v_world));
	float diff = max(dot(n, l), 0.0);
	float spec = pow(max(dot(n, h), 0.0), 24.0);
	vec3 base = texture2D(u_tex, v_uv).rgb;
	gl_FragColor = vec4(base * (0.2 + 0.8 * diff) + vec3(0.6) * spec, 1.0);
}
`

// Render draws the scene into a w x h ES 2.0 context on backend.
func Render(backend string, w, h int) (*image.NRGBA, error) {
	return RenderWith(backend, w, h, app.Options{})
}

// RenderWith is Render that records the GL calls to opt.Trace (package
// trace) and the device capture to opt.Capture when they are set.
func RenderWith(backend string, w, h int, opt app.Options) (_ *image.NRGBA, err error) {
	cfg := gles.Config{Width: w, Height: h, ES2: true, DepthBits: 24}
	cfg.Capture = opt.Capture
	gc, err := gles.NewContext(backend, cfg)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, gc.Close()) }()
	var ctx trace.GL = gc
	if opt.Trace != nil {
		rec := trace.NewRecorder(gc, opt.Trace, cfg)
		rec.Comment(fmt.Sprintf("examples/shaders, recorded on %s", backend))
		defer func() { err = errors.Join(err, rec.Close()) }()
		ctx = rec
	}
	prog, err := program(ctx)
	if err != nil {
		return nil, err
	}
	ctx.UseProgram(prog)
	ctx.Viewport(0, 0, w, h)
	ctx.ClearColor(0.12, 0.12, 0.2, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.Enable(gles.CULL_FACE)

	// An 8x8 checker texture with mipmaps.
	tex := make([]byte, 8*8*4)
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			c := []byte{230, 160, 40, 255}
			if (x+y)%2 == 1 {
				c = []byte{40, 110, 200, 255}
			}
			copy(tex[4*(8*y+x):], c)
		}
	}
	ctx.ActiveTexture(gles.TEXTURE0)
	t := ctx.GenTextures(1)[0]
	ctx.BindTexture(gles.TEXTURE_2D, t)
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, 8, 8, 0, gles.RGBA, gles.UNSIGNED_BYTE, tex)
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
	ctx.Uniform1i(ctx.GetUniformLocation(prog, "u_tex"), 0)

	eye := mgl32.Vec3{0, 1.2, 3.2}
	model := mgl32.HomogRotate3DY(0.6).Mul4(mgl32.HomogRotate3DX(0.35))
	proj := mgl32.Perspective(mgl32.DegToRad(45), float32(w)/float32(h), 0.5, 20)
	view := mgl32.LookAtV(eye, mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	mvp := proj.Mul4(view).Mul4(model)
	ctx.UniformMatrix4fv(ctx.GetUniformLocation(prog, "u_mvp"), false, mvp[:])
	ctx.UniformMatrix4fv(ctx.GetUniformLocation(prog, "u_model"), false, model[:])
	ctx.Uniform3f(ctx.GetUniformLocation(prog, "u_light"), 2, 3, 2.5)
	ctx.Uniform3f(ctx.GetUniformLocation(prog, "u_eye"), eye[0], eye[1], eye[2])

	pos, nrm, uv, idx := cube()
	for _, a := range []struct {
		name string
		size int
		data []float32
	}{{"a_pos", 3, pos}, {"a_normal", 3, nrm}, {"a_uv", 2, uv}} {
		loc := ctx.GetAttribLocation(prog, a.name)
		ctx.VertexAttribPointer(loc, a.size, gles.FLOAT, false, 0, a.data)
		ctx.EnableVertexAttribArray(loc)
	}
	ctx.DrawElements(gles.TRIANGLES, len(idx), gles.UNSIGNED_SHORT, idx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pix := make([]byte, 4*w*h)
	ctx.ReadPixels(0, 0, w, h, gles.RGBA, gles.UNSIGNED_BYTE, pix)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		copy(img.Pix[(h-1-y)*img.Stride:], pix[4*w*y:4*w*(y+1)])
	}
	return img, ctx.Err()
}

func program(ctx trace.GL) (uint32, error) {
	shader := func(typ gles.Enum, src string) (uint32, error) {
		s := ctx.CreateShader(typ)
		ctx.ShaderSource(s, src)
		ctx.CompileShader(s)
		if ctx.GetShaderiv(s, gles.COMPILE_STATUS) == 0 {
			return 0, fmt.Errorf("shaders: compile: %s", ctx.GetShaderInfoLog(s))
		}
		return s, nil
	}
	vs, err := shader(gles.VERTEX_SHADER, vertexSrc)
	if err != nil {
		return 0, err
	}
	fs, err := shader(gles.FRAGMENT_SHADER, fragmentSrc)
	if err != nil {
		return 0, err
	}
	p := ctx.CreateProgram()
	ctx.AttachShader(p, vs)
	ctx.AttachShader(p, fs)
	ctx.LinkProgram(p)
	if ctx.GetProgramiv(p, gles.LINK_STATUS) == 0 {
		return 0, fmt.Errorf("shaders: link: %s", ctx.GetProgramInfoLog(p))
	}
	return p, nil
}

// cube returns a unit cube's positions, normals, texture coordinates and
// counter-clockwise triangle indices, four vertices per face.
func cube() (pos, nrm, uv []float32, idx []uint16) {
	faces := [6][3]mgl32.Vec3{ // normal, u axis, v axis
		{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}, {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
		{{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
		{{0, 1, 0}, {1, 0, 0}, {0, 0, -1}}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
	}
	for f, fc := range faces {
		n, u, v := fc[0], fc[1], fc[2]
		for _, c := range [][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			p := n.Add(u.Mul(c[0])).Add(v.Mul(c[1])).Mul(0.8)
			pos = append(pos, p[:]...)
			nrm = append(nrm, n[:]...)
			uv = append(uv, (c[0]+1)*0.5, (c[1]+1)*0.5)
		}
		b := uint16(4 * f)
		idx = append(idx, b, b+1, b+2, b, b+2, b+3)
	}
	return
}

func main() {
	backend := flag.String("backend", "r300", "backend name (one whose Caps allow GL ES 2.0)")
	out := flag.String("o", "shaders.png", "output PNG file")
	size := flag.Int("size", 320, "image width; the height is 3/4 of it")
	traceFile := flag.String("trace", "", "record the GL calls to this trace file; play it with rgltrace or rglview")
	capture := flag.String("capture", "", "record a device capture to this file; open it with rglview, decode it with rgldis")
	flag.Parse()
	var opt app.Options
	for _, rec := range []struct {
		path string
		w    *io.Writer
	}{{*traceFile, &opt.Trace}, {*capture, &opt.Capture}} {
		if rec.path == "" {
			continue
		}
		f, err := os.Create(rec.path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "shaders:", err)
			os.Exit(1)
		}
		defer func() {
			if err := f.Close(); err != nil {
				fmt.Fprintln(os.Stderr, "shaders:", err)
				os.Exit(1)
			}
			fmt.Println(rec.path)
		}()
		*rec.w = f
	}
	img, err := RenderWith(*backend, *size, *size*3/4, opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "shaders:", err)
		os.Exit(1)
	}
	if err := app.WritePNG(*out, img); err != nil {
		fmt.Fprintln(os.Stderr, "shaders:", err)
		os.Exit(1)
	}
	fmt.Println(*out)
}
