package conform

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/retrogl/retrogl/gles"
)

// glEnums names the enumerants the [test] commands use.
var glEnums = map[string]gles.Enum{
	"GL_BLEND": gles.BLEND, "GL_DEPTH_TEST": gles.DEPTH_TEST, "GL_CULL_FACE": gles.CULL_FACE,
	"GL_SCISSOR_TEST": gles.SCISSOR_TEST, "GL_STENCIL_TEST": gles.STENCIL_TEST, "GL_DITHER": gles.DITHER,
	"GL_ZERO": gles.ZERO, "GL_ONE": gles.ONE, "GL_SRC_COLOR": gles.SRC_COLOR, "GL_ONE_MINUS_SRC_COLOR": gles.ONE_MINUS_SRC_COLOR,
	"GL_SRC_ALPHA": gles.SRC_ALPHA, "GL_ONE_MINUS_SRC_ALPHA": gles.ONE_MINUS_SRC_ALPHA, "GL_DST_ALPHA": gles.DST_ALPHA,
	"GL_ONE_MINUS_DST_ALPHA": gles.ONE_MINUS_DST_ALPHA, "GL_DST_COLOR": gles.DST_COLOR, "GL_ONE_MINUS_DST_COLOR": gles.ONE_MINUS_DST_COLOR,
	"GL_NEVER": gles.NEVER, "GL_LESS": gles.LESS, "GL_EQUAL": gles.EQUAL, "GL_LEQUAL": gles.LEQUAL, "GL_GREATER": gles.GREATER,
	"GL_NOTEQUAL": gles.NOTEQUAL, "GL_GEQUAL": gles.GEQUAL, "GL_ALWAYS": gles.ALWAYS,
	"GL_POINTS": gles.POINTS, "GL_LINES": gles.LINES, "GL_LINE_STRIP": gles.LINE_STRIP, "GL_LINE_LOOP": gles.LINE_LOOP,
	"GL_TRIANGLES": gles.TRIANGLES, "GL_TRIANGLE_STRIP": gles.TRIANGLE_STRIP, "GL_TRIANGLE_FAN": gles.TRIANGLE_FAN,
	"GL_FRONT": gles.FRONT, "GL_BACK": gles.BACK, "GL_FRONT_AND_BACK": gles.FRONT_AND_BACK, "GL_CW": gles.CW, "GL_CCW": gles.CCW,
	"GL_NEAREST": gles.NEAREST, "GL_LINEAR": gles.LINEAR, "GL_REPEAT": gles.REPEAT, "GL_CLAMP_TO_EDGE": gles.CLAMP_TO_EDGE,
	"GL_MIRRORED_REPEAT": gles.MIRRORED_REPEAT, "GL_NEAREST_MIPMAP_NEAREST": gles.NEAREST_MIPMAP_NEAREST,
	"GL_LINEAR_MIPMAP_LINEAR": gles.LINEAR_MIPMAP_LINEAR, "GL_LINEAR_MIPMAP_NEAREST": gles.LINEAR_MIPMAP_NEAREST,
	"GL_NEAREST_MIPMAP_LINEAR": gles.NEAREST_MIPMAP_LINEAR,
	"GL_TEXTURE_MIN_FILTER":    gles.TEXTURE_MIN_FILTER, "GL_TEXTURE_MAG_FILTER": gles.TEXTURE_MAG_FILTER,
	"GL_TEXTURE_WRAP_S": gles.TEXTURE_WRAP_S, "GL_TEXTURE_WRAP_T": gles.TEXTURE_WRAP_T,
}

func enumOf(s string) gles.Enum {
	e, ok := glEnums[s]
	if !ok {
		skipf("unsupported enumerant %s", s)
	}
	return e
}

// Default probe tolerance: piglit's 3/2^8 per 8-bit channel.
const tolerance = 3.0 / 256

func (ru *run) command(l Line) {
	ctx := ru.ctx
	f := l.Fields()
	text := l.Text
	switch {
	case text == "link error" || text == "link success":
	case strings.HasPrefix(text, "clear color"):
		v := floats(f[2:])
		if len(v) != 4 {
			failf("line %d: clear color needs 4 values", l.N)
		}
		ctx.ClearColor(float32(v[0]), float32(v[1]), float32(v[2]), float32(v[3]))
		ru.clear |= gles.COLOR_BUFFER_BIT
	case strings.HasPrefix(text, "clear depth"):
		v := floats(f[2:])
		ctx.ClearDepthf(float32(v[0]))
		ru.clear |= gles.DEPTH_BUFFER_BIT
	case text == "clear":
		mask := ru.clear
		if mask == 0 {
			mask = gles.COLOR_BUFFER_BIT
		}
		ctx.Clear(mask)
	case strings.HasPrefix(text, "draw rect"):
		ru.drawRect(l, f[2:])
	case strings.HasPrefix(text, "draw arrays"):
		ru.drawArrays(l, f[2:])
	case f[0] == "uniform":
		ru.uniform(l, f[1:])
	case f[0] == "probe" || f[0] == "relative":
		ru.probe(l)
	case f[0] == "enable" || f[0] == "disable":
		if len(f) != 2 {
			failf("line %d: %s needs one enumerant", l.N, f[0])
		}
		if f[0] == "enable" {
			ctx.Enable(enumOf(f[1]))
		} else {
			ctx.Disable(enumOf(f[1]))
		}
	case strings.HasPrefix(text, "blend func"):
		if len(f) == 4 {
			ctx.BlendFunc(enumOf(f[2]), enumOf(f[3]))
		} else if len(f) == 6 {
			ctx.BlendFuncSeparate(enumOf(f[2]), enumOf(f[3]), enumOf(f[4]), enumOf(f[5]))
		} else {
			failf("line %d: bad blend func", l.N)
		}
	case f[0] == "depthfunc":
		ctx.DepthFunc(enumOf(f[1]))
	case f[0] == "ortho":
		v := floats(f[1:])
		if len(v) == 0 {
			v = []float64{0, float64(ru.w), 0, float64(ru.h)}
		}
		ru.setOrtho(v[0], v[1], v[2], v[3])
	case f[0] == "texture":
		ru.texture(l, f[1:])
	case f[0] == "texparameter":
		if len(f) != 4 {
			failf("line %d: bad texparameter", l.N)
		}
		pn := map[string]string{"min": "GL_TEXTURE_MIN_FILTER", "mag": "GL_TEXTURE_MAG_FILTER", "wrap_s": "GL_TEXTURE_WRAP_S", "wrap_t": "GL_TEXTURE_WRAP_T"}[f[2]]
		if pn == "" || f[1] != "2D" {
			skipf("line %d: texparameter %s %s", l.N, f[1], f[2])
		}
		ctx.TexParameteri(gles.TEXTURE_2D, enumOf(pn), int(enumOf(f[3])))
	case f[0] == "viewport":
		v := floats(f[1:])
		ctx.Viewport(int(v[0]), int(v[1]), int(v[2]), int(v[3]))
	case f[0] == "frustum":
		skipf("line %d: frustum", l.N)
	default:
		skipf("line %d: unsupported command %q", l.N, text)
	}
}

// setOrtho sets the projection piglit_ortho_projection makes.
func (ru *run) setOrtho(l, r, b, t float64) {
	m := ident()
	m[0] = float32(2 / (r - l))
	m[5] = float32(2 / (t - b))
	m[10] = -1
	m[12] = float32(-(r + l) / (r - l))
	m[13] = float32(-(t + b) / (t - b))
	ru.proj = m
	ru.matrices()
}

// position finds the vertex position attribute: piglit_vertex, else
// gl_Vertex (compatibility mode).
func (ru *run) position() int {
	for _, n := range []string{"piglit_vertex", "gl_Vertex"} {
		if loc := ru.ctx.GetAttribLocation(ru.prog, n); loc >= 0 {
			return loc
		}
	}
	return -1
}

func (ru *run) drawRect(l Line, args []string) {
	ortho := false
	tex := false
	for len(args) > 0 && (args[0] == "ortho" || args[0] == "tex") {
		if args[0] == "ortho" {
			ortho = true
		} else {
			tex = true
		}
		args = args[1:]
	}
	v := floats(args)
	if len(v) != 4 && !(tex && len(v) == 8) {
		failf("line %d: draw rect needs x y w h", l.N)
	}
	x, y, w, h := v[0], v[1], v[2], v[3]
	if ortho {
		x, y, w, h = 2*x/float64(ru.w)-1, 2*y/float64(ru.h)-1, 2*w/float64(ru.w), 2*h/float64(ru.h)
	}
	pos := []float32{
		float32(x), float32(y), 0, 1,
		float32(x + w), float32(y), 0, 1,
		float32(x), float32(y + h), 0, 1,
		float32(x + w), float32(y + h), 0, 1,
	}
	loc := ru.position()
	if loc < 0 {
		failf("line %d: the program has no piglit_vertex or gl_Vertex attribute", l.N)
	}
	ctx := ru.ctx
	ctx.VertexAttribPointer(loc, 4, gles.FLOAT, false, 0, pos)
	ctx.EnableVertexAttribArray(loc)
	tl := -1
	if tex {
		tl = ctx.GetAttribLocation(ru.prog, "piglit_texcoord")
		if tl < 0 {
			tl = ctx.GetAttribLocation(ru.prog, "gl_MultiTexCoord0")
		}
		if tl >= 0 {
			tx, ty, tw, th := float32(v[4]), float32(v[5]), float32(v[6]), float32(v[7])
			tc := []float32{tx, ty, tx + tw, ty, tx, ty + th, tx + tw, ty + th}
			ctx.VertexAttribPointer(tl, 2, gles.FLOAT, false, 0, tc)
			ctx.EnableVertexAttribArray(tl)
		}
	}
	ctx.DrawArrays(gles.TRIANGLE_STRIP, 0, 4)
	ctx.DisableVertexAttribArray(loc)
	if tl >= 0 {
		ctx.DisableVertexAttribArray(tl)
	}
}

// drawArrays draws from the [vertex data] section: a header of
// "name/type/count" or "name/count" columns, then rows of values.
func (ru *run) drawArrays(l Line, args []string) {
	if len(args) < 3 {
		failf("line %d: draw arrays MODE FIRST COUNT", l.N)
	}
	mode := enumOf(args[0])
	first, _ := strconv.Atoi(args[1])
	count, _ := strconv.Atoi(args[2])
	vd := ru.t.VertexData
	if len(vd) == 0 {
		failf("line %d: no [vertex data]", l.N)
	}
	type col struct {
		loc, n int
	}
	var cols []col
	for _, h := range vd[0].Fields() {
		parts := strings.Split(h, "/")
		n := 0
		switch len(parts) {
		case 2:
			n, _ = strconv.Atoi(parts[1])
		case 3:
			if parts[1] != "float" {
				skipf("vertex data type %s", parts[1])
			}
			n, _ = strconv.Atoi(parts[2])
		}
		if n < 1 || n > 4 {
			failf("vertex data column %q", h)
		}
		name := parts[0]
		loc := ru.ctx.GetAttribLocation(ru.prog, name)
		if loc < 0 && (name == "piglit_vertex" || name == "vertex") {
			loc = ru.position()
		}
		cols = append(cols, col{loc, n})
	}
	data := make([][]float32, len(cols))
	for _, row := range vd[1:] {
		v := floats(row.Fields())
		k := 0
		for i, c := range cols {
			if k+c.n > len(v) {
				failf("line %d: short vertex data row", row.N)
			}
			data[i] = append(data[i], f32s(v[k:k+c.n])...)
			k += c.n
		}
	}
	ctx := ru.ctx
	for i, c := range cols {
		if c.loc >= 0 {
			ctx.VertexAttribPointer(c.loc, c.n, gles.FLOAT, false, 0, data[i])
			ctx.EnableVertexAttribArray(c.loc)
		}
	}
	ctx.DrawArrays(mode, first, count)
	for _, c := range cols {
		if c.loc >= 0 {
			ctx.DisableVertexAttribArray(c.loc)
		}
	}
}

func (ru *run) uniform(l Line, f []string) {
	if len(f) < 3 {
		failf("line %d: uniform TYPE NAME VALUES", l.N)
	}
	typ, name := f[0], f[1]
	ctx := ru.ctx
	loc := ctx.GetUniformLocation(ru.prog, name)
	if loc < 0 {
		// piglit ignores uniforms the compiler optimised away.
		return
	}
	ints := func() []int32 {
		var out []int32
		for _, w := range f[2:] {
			x, err := strconv.ParseInt(w, 0, 64)
			if err != nil {
				failf("line %d: bad integer %q", l.N, w)
			}
			out = append(out, int32(x))
		}
		return out
	}
	switch typ {
	case "float":
		ctx.Uniform1fv(loc, f32s(floats(f[2:])))
	case "vec2":
		ctx.Uniform2fv(loc, f32s(floats(f[2:])))
	case "vec3":
		ctx.Uniform3fv(loc, f32s(floats(f[2:])))
	case "vec4":
		ctx.Uniform4fv(loc, f32s(floats(f[2:])))
	case "int", "bool":
		ctx.Uniform1iv(loc, ints())
	case "ivec2", "bvec2":
		ctx.Uniform2iv(loc, ints())
	case "ivec3", "bvec3":
		ctx.Uniform3iv(loc, ints())
	case "ivec4", "bvec4":
		ctx.Uniform4iv(loc, ints())
	case "mat2", "mat2x2":
		ctx.UniformMatrix2fv(loc, false, f32s(floats(f[2:])))
	case "mat3", "mat3x3":
		ctx.UniformMatrix3fv(loc, false, f32s(floats(f[2:])))
	case "mat4", "mat4x4":
		ctx.UniformMatrix4fv(loc, false, f32s(floats(f[2:])))
	default:
		skipf("line %d: uniform type %s", l.N, typ)
	}
}

// probe handles probe rgb/rgba x y, probe all, probe rect and the
// relative forms.
func (ru *run) probe(l Line) {
	text := l.Text
	rel := strings.HasPrefix(text, "relative ")
	text = strings.TrimPrefix(text, "relative ")
	f := strings.Fields(text)
	if len(f) < 2 {
		failf("line %d: bad probe", l.N)
	}
	var x, y, w, h int
	var want []float64
	kind := f[1]
	rest := f[2:]
	switch {
	case f[1] == "all":
		if len(f) < 3 {
			failf("line %d: bad probe", l.N)
		}
		kind = f[2]
		x, y, w, h = 0, 0, ru.w, ru.h
		want = floats(f[3:])
	case f[1] == "rect":
		if len(f) < 3 {
			failf("line %d: bad probe", l.N)
		}
		kind = f[2]
		v := floats(f[3:])
		if len(v) < 7 {
			failf("line %d: bad probe rect", l.N)
		}
		if rel {
			x, y = int(v[0]*float64(ru.w)), int(v[1]*float64(ru.h))
			w, h = int(v[2]*float64(ru.w)), int(v[3]*float64(ru.h))
		} else {
			x, y, w, h = int(v[0]), int(v[1]), int(v[2]), int(v[3])
		}
		want = v[4:]
	default:
		v := floats(rest)
		if len(v) < 5 {
			failf("line %d: bad probe", l.N)
		}
		if rel {
			// piglit clamps relative probes into the window.
			x, y = min(int(v[0]*float64(ru.w)), ru.w-1), min(int(v[1]*float64(ru.h)), ru.h-1)
		} else {
			x, y = int(v[0]), int(v[1])
		}
		w, h = 1, 1
		want = v[2:]
	}
	n := 4
	if kind == "rgb" {
		n = 3
	} else if kind != "rgba" {
		skipf("line %d: probe %s", l.N, kind)
	}
	if len(want) < n {
		failf("line %d: probe needs %d values", l.N, n)
	}
	x, y = max(0, x), max(0, y)
	w, h = min(w, ru.w-x), min(h, ru.h-y)
	if w <= 0 || h <= 0 {
		failf("line %d: probe outside the window", l.N)
	}
	buf := make([]byte, 4*w*h)
	ru.ctx.ReadPixels(x, y, w, h, gles.RGBA, gles.UNSIGNED_BYTE, buf)
	for j := 0; j < h; j++ {
		for i := 0; i < w; i++ {
			p := buf[4*(j*w+i):]
			for c := 0; c < n; c++ {
				got := float64(p[c]) / 255
				if math.Abs(got-want[c]) > tolerance {
					var g []string
					for k := 0; k < n; k++ {
						g = append(g, strconv.FormatFloat(float64(p[k])/255, 'g', 3, 64))
					}
					ru.failed = append(ru.failed, fmt.Sprintf("line %d: probe at (%d, %d): expected %v, observed [%s]", l.N, x+i, y+j, want[:n], strings.Join(g, " ")))
					return
				}
			}
		}
	}
}

// texture handles "texture rgbw UNIT (W, H)" and "texture checkerboard
// UNIT LEVEL (W, H) (R, G, B, A) (R, G, B, A)".
func (ru *run) texture(l Line, f []string) {
	if len(f) < 3 {
		failf("line %d: bad texture command", l.N)
	}
	ctx := ru.ctx
	unit, err := strconv.Atoi(f[1])
	if err != nil {
		failf("line %d: bad texture unit", l.N)
	}
	var w, h int
	var img []byte
	switch f[0] {
	case "rgbw":
		v := floats(f[2:])
		if len(v) < 2 {
			failf("line %d: texture rgbw needs a size", l.N)
		}
		w, h = int(v[0]), int(v[1])
		img = make([]byte, 4*w*h)
		// piglit_rgbw_texture: red lower left, green lower right, blue
		// upper left, white upper right.
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var c [4]byte
				switch {
				case x < w/2 && y < h/2:
					c = [4]byte{255, 0, 0, 255}
				case y < h/2:
					c = [4]byte{0, 255, 0, 255}
				case x < w/2:
					c = [4]byte{0, 0, 255, 255}
				default:
					c = [4]byte{255, 255, 255, 255}
				}
				copy(img[4*(y*w+x):], c[:])
			}
		}
	case "checkerboard":
		v := floats(f[2:])
		if len(v) < 11 {
			failf("line %d: texture checkerboard LEVEL (W, H) (C1) (C2)", l.N)
		}
		w, h = int(v[1]), int(v[2])
		img = make([]byte, 4*w*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := v[3:7]
				if (x/max(1, w/2)+y/max(1, h/2))%2 == 1 {
					c = v[7:11]
				}
				for k := 0; k < 4; k++ {
					img[4*(y*w+x)+k] = byte(math.Round(c[k] * 255))
				}
			}
		}
	default:
		skipf("line %d: texture %s", l.N, f[0])
	}
	if w <= 0 || h <= 0 || w > 4096 || h > 4096 {
		failf("line %d: bad texture size", l.N)
	}
	ctx.ActiveTexture(gles.TEXTURE0 + gles.Enum(unit))
	t := ctx.GenTextures(1)[0]
	ru.textures = append(ru.textures, t)
	ctx.BindTexture(gles.TEXTURE_2D, t)
	ctx.TexImage2D(gles.TEXTURE_2D, 0, gles.RGBA, w, h, 0, gles.RGBA, gles.UNSIGNED_BYTE, img)
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER, int(gles.NEAREST))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_MAG_FILTER, int(gles.NEAREST))
	// piglit's textures clamp to the edge.
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_S, int(gles.CLAMP_TO_EDGE))
	ctx.TexParameteri(gles.TEXTURE_2D, gles.TEXTURE_WRAP_T, int(gles.CLAMP_TO_EDGE))
	ctx.ActiveTexture(gles.TEXTURE0)
}
