// Command rtt renders to a texture in a GL ES 2.0 context: a lit, vertex-
// coloured cube is drawn into a 128x128 texture through a framebuffer
// object with a depth renderbuffer, the texture gets its mipmaps, and the
// window shows it on a floor in perspective (trilinear filtering) and on a
// small upright panel.
//
//	go run ./examples/rtt -backend r300 -o /tmp/rtt.png
//
// Only backends whose Caps allow ES 2.0 contexts and framebuffer objects
// can run it (r300).
package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"os"

	"github.com/go-gl/mathgl/mgl32"

	_ "github.com/retrogl/retrogl/backends"
	"github.com/retrogl/retrogl/examples/internal/app"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

const cubeVS = `
attribute vec3 a_pos;
attribute vec3 a_normal;
uniform mat4 u_mvp;
uniform mat3 u_normal;
varying vec3 v_color;
void main()
{
	vec3 n = normalize(u_normal * a_normal);
	float diff = max(dot(n, normalize(vec3(0.4, 0.7, 0.6))), 0.0);
	v_color = (abs(a_normal) * 0.6 + 0.4) * (0.4 + 0.6 * diff);
	gl_Position = u_mvp * vec4(a_pos, 1.0);
}
`

const cubeFS = `
precision mediump float;
varying vec3 v_color;
void main() { gl_FragColor = vec4(v_color, 1.0); }
`

const quadVS = `
attribute vec3 a_pos;
attribute vec2 a_uv;
uniform mat4 u_mvp;
varying vec2 v_uv;
void main()
{
	v_uv = a_uv;
	gl_Position = u_mvp * vec4(a_pos, 1.0);
}
`

const quadFS = `
precision mediump float;
uniform sampler2D u_tex;
uniform float u_shade;
varying vec2 v_uv;
void main() { gl_FragColor = vec4(texture2D(u_tex, v_uv).rgb * u_shade, 1.0); }
`

// texSize is the side of the rendered texture.
const texSize = 128

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
		rec.Comment(fmt.Sprintf("examples/rtt, recorded on %s", backend))
		defer func() { err = errors.Join(err, rec.Close()) }()
		ctx = rec
	}
	cubeProg, err := program(ctx, cubeVS, cubeFS)
	if err != nil {
		return nil, err
	}
	quadProg, err := program(ctx, quadVS, quadFS)
	if err != nil {
		return nil, err
	}

	// The render target: an RGBA texture and a 16-bit depth buffer.
	tex := ctx.GenTextures(1)[0]
	ctx.BindTexture(gles.TEXTURE_2D, tex)
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, texSize, texSize, 0, gles.RGBA, gles.UNSIGNED_BYTE, nil)
	depth := ctx.GenRenderbuffers(1)[0]
	ctx.BindRenderbuffer(gles.RENDERBUFFER, depth)
	ctx.RenderbufferStorage(gles.RENDERBUFFER, gles.DEPTH_COMPONENT16, texSize, texSize)
	fb := ctx.GenFramebuffers(1)[0]
	ctx.BindFramebuffer(gles.FRAMEBUFFER, fb)
	ctx.FramebufferTexture2D(gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.TEXTURE_2D, tex, 0)
	ctx.FramebufferRenderbuffer(gles.FRAMEBUFFER, gles.DEPTH_ATTACHMENT, gles.RENDERBUFFER, depth)
	if s := ctx.CheckFramebufferStatus(gles.FRAMEBUFFER); s != gles.FRAMEBUFFER_COMPLETE {
		return nil, fmt.Errorf("rtt: framebuffer status %#x: %w", s, ctx.Err())
	}

	// Pass 1: the cube into the texture.
	ctx.Viewport(0, 0, texSize, texSize)
	ctx.ClearColor(0.95, 0.85, 0.55, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	ctx.Enable(gles.DEPTH_TEST)
	ctx.Enable(gles.CULL_FACE)
	ctx.UseProgram(cubeProg)
	model := mgl32.HomogRotate3DY(0.7).Mul4(mgl32.HomogRotate3DX(0.45))
	proj := mgl32.Perspective(mgl32.DegToRad(40), 1, 0.5, 10)
	view := mgl32.LookAtV(mgl32.Vec3{0, 0, 4}, mgl32.Vec3{}, mgl32.Vec3{0, 1, 0})
	mvp := proj.Mul4(view).Mul4(model)
	nm := model.Mat3()
	ctx.UniformMatrix4fv(ctx.GetUniformLocation(cubeProg, "u_mvp"), false, mvp[:])
	ctx.UniformMatrix3fv(ctx.GetUniformLocation(cubeProg, "u_normal"), false, nm[:])
	pos, nrm, idx := cube()
	attrib(ctx, cubeProg, "a_pos", 3, pos)
	attrib(ctx, cubeProg, "a_normal", 3, nrm)
	ctx.DrawElements(gles.TRIANGLES, len(idx), gles.UNSIGNED_SHORT, idx)
	ctx.DisableVertexAttribArray(ctx.GetAttribLocation(cubeProg, "a_normal"))

	// The texture's mipmaps come from the rendering.
	ctx.BindFramebuffer(gles.FRAMEBUFFER, 0)
	ctx.GenerateMipmap(gles.TEXTURE_2D)
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.LINEAR_MIPMAP_LINEAR))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.LINEAR))

	// Pass 2: the window, a floor and a panel showing the texture.
	ctx.Viewport(0, 0, w, h)
	ctx.ClearColor(0.1, 0.12, 0.18, 1)
	ctx.Clear(gles.COLOR_BUFFER_BIT | gles.DEPTH_BUFFER_BIT)
	ctx.Disable(gles.CULL_FACE)
	ctx.UseProgram(quadProg)
	ctx.Uniform1i(ctx.GetUniformLocation(quadProg, "u_tex"), 0)
	proj = mgl32.Perspective(mgl32.DegToRad(50), float32(w)/float32(h), 0.3, 30)
	view = mgl32.LookAtV(mgl32.Vec3{0, 1.3, 3.2}, mgl32.Vec3{0, 0, -0.5}, mgl32.Vec3{0, 1, 0})
	vp := proj.Mul4(view)
	mvpLoc, shade := ctx.GetUniformLocation(quadProg, "u_mvp"), ctx.GetUniformLocation(quadProg, "u_shade")
	for _, q := range []struct {
		model mgl32.Mat4
		shade float32
	}{
		{mgl32.Translate3D(0, -0.3, -1).Mul4(mgl32.HomogRotate3DX(-math.Pi / 2)).Mul4(mgl32.Scale3D(2.2, 2.2, 1)), 0.8},
		{mgl32.Translate3D(0.9, 0.6, 0).Mul4(mgl32.HomogRotate3DY(-0.5)).Mul4(mgl32.Scale3D(0.45, 0.45, 1)), 1},
	} {
		m := vp.Mul4(q.model)
		ctx.UniformMatrix4fv(mvpLoc, false, m[:])
		ctx.Uniform1f(shade, q.shade)
		attrib(ctx, quadProg, "a_pos", 3, []float32{-1, -1, 0, 1, -1, 0, -1, 1, 0, 1, 1, 0})
		attrib(ctx, quadProg, "a_uv", 2, []float32{0, 0, 1, 0, 0, 1, 1, 1})
		ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
	}
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

func attrib(ctx trace.GL, prog uint32, name string, size int, data []float32) {
	loc := ctx.GetAttribLocation(prog, name)
	ctx.VertexAttribPointer(loc, size, gles.FLOAT, false, 0, data)
	ctx.EnableVertexAttribArray(loc)
}

func program(ctx trace.GL, vsSrc, fsSrc string) (uint32, error) {
	p := ctx.CreateProgram()
	for _, s := range []struct {
		typ gles.Enum
		src string
	}{{gles.VERTEX_SHADER, vsSrc}, {gles.FRAGMENT_SHADER, fsSrc}} {
		sh := ctx.CreateShader(s.typ)
		ctx.ShaderSource(sh, s.src)
		ctx.CompileShader(sh)
		if ctx.GetShaderiv(sh, gles.COMPILE_STATUS) == 0 {
			return 0, fmt.Errorf("rtt: compile: %s", ctx.GetShaderInfoLog(sh))
		}
		ctx.AttachShader(p, sh)
	}
	ctx.LinkProgram(p)
	if ctx.GetProgramiv(p, gles.LINK_STATUS) == 0 {
		return 0, fmt.Errorf("rtt: link: %s", ctx.GetProgramInfoLog(p))
	}
	return p, nil
}

// cube returns a cube's positions, normals and counter-clockwise
// triangle indices, four vertices per face.
func cube() (pos, nrm []float32, idx []uint16) {
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
		}
		b := uint16(4 * f)
		idx = append(idx, b, b+1, b+2, b, b+2, b+3)
	}
	return
}

func main() {
	backend := flag.String("backend", "r300", "backend name (one whose Caps allow GL ES 2.0 and framebuffer objects)")
	out := flag.String("o", "rtt.png", "output PNG file")
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
			fmt.Fprintln(os.Stderr, "rtt:", err)
			os.Exit(1)
		}
		defer func() {
			if err := f.Close(); err != nil {
				fmt.Fprintln(os.Stderr, "rtt:", err)
				os.Exit(1)
			}
			fmt.Println(rec.path)
		}()
		*rec.w = f
	}
	img, err := RenderWith(*backend, *size, *size*3/4, opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rtt:", err)
		os.Exit(1)
	}
	if err := app.WritePNG(*out, img); err != nil {
		fmt.Fprintln(os.Stderr, "rtt:", err)
		os.Exit(1)
	}
	fmt.Println(*out)
}
