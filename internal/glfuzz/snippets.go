package glfuzz

import (
	"github.com/retrogl/retrogl/gles"
)

// add appends a call with the given values, typed by the method's
// parameters: Go ints become the parameter's integer type, Arg values are
// taken as they are.
func (g *gen) add(method string, vals ...any) {
	m, ok := lookup("", method)
	if !ok {
		panic("glfuzz: no entry point " + method)
	}
	c := Call{Method: method}
	for i, v := range vals {
		pt := m.Params[i].Type
		var a Arg
		switch x := v.(type) {
		case Arg:
			a = x
		case gles.Enum:
			a = Arg{Type: "gles.Enum", Int: int64(x)}
		case bool:
			a = Arg{Type: "bool"}
			if x {
				a.Int = 1
			}
		case string:
			a = Arg{Type: "string", Str: x}
		case float64:
			a = Arg{Type: "float32", Float: float64(float32(x))}
		case int:
			switch pt {
			case "any":
				a = Arg{Type: "int", Int: int64(x)}
			case "Fixed":
				a = Arg{Type: "gles.Fixed", Int: int64(x)}
			case "Enum":
				a = Arg{Type: "gles.Enum", Int: int64(x)}
			case "...uint32":
				a = Arg{Type: "[]uint32", Elems: []float64{float64(x)}}
			case "float32":
				a = Arg{Type: "float32", Float: float64(x)}
			default:
				a = Arg{Type: pt, Int: int64(x)}
			}
		case []string:
			a = Arg{Type: "[]string", Strs: x}
		default:
			panic("glfuzz: value of type unknown to add")
		}
		c.Args = append(c.Args, a)
	}
	g.p.Calls = append(g.p.Calls, c)
}

// mutate replaces one argument of one of the last n calls with a
// random value of its parameter.
func (g *gen) mutate(n int) {
	calls := g.p.Calls[len(g.p.Calls)-n:]
	c := &calls[g.src.Intn(len(calls))]
	m, ok := lookup(c.Recv, c.Method)
	if !ok || len(m.Params) == 0 {
		return
	}
	i := g.src.Intn(len(m.Params))
	if g.chance(1, 2) && (m.Params[i].Type == "int" || m.Params[i].Type == "any") {
		c.Args[i] = Arg{Type: "int", Int: g.hostileInt()}
		return
	}
	c.Args[i] = g.argFor(m, m.Params[i])
}

var vertexTypes = []struct {
	t    gles.Enum
	typ  string
	size int
}{{gles.FLOAT, "[]float32", 4}, {gles.SHORT, "[]int16", 2}, {gles.BYTE, "[]int8", 1}, {gles.FIXED, "[]int32", 4}}

// snippet adds a short valid sequence, sometimes with one argument
// replaced by a hostile one.
func (g *gen) snippet() {
	before := len(g.p.Calls)
	if g.es2 {
		switch g.src.Intn(6) {
		case 0, 1:
			g.program()
		case 2:
			g.attribArrays()
		case 3:
			g.framebuffer()
		case 4:
			g.texture()
		default:
			g.draw()
		}
	} else {
		switch g.src.Intn(8) {
		case 7:
			g.hostileState()
		case 0:
			g.clientArrays()
		case 1:
			g.bufferArrays()
		case 2:
			g.texture()
		case 3, 4:
			g.draw()
		case 5:
			g.state()
		default:
			g.readBack()
		}
	}
	if n := len(g.p.Calls) - before; n > 0 && g.chance(1, 3) {
		g.mutate(n)
	}
}

func (g *gen) vertexCount() int {
	n := int(g.pick(3, 4, 4, 6, 8, 12, 36, 100, 1000, 5000))
	g.arrayLen = n
	return n
}

// drawCount picks a vertex count for a draw: usually one the last arrays
// hold.
func (g *gen) drawCount() int {
	if g.arrayLen > 0 && g.chance(3, 4) {
		return 1 + g.src.Intn(g.arrayLen)
	}
	return int(g.pick(3, 4, 4, 6, 8, 12, 36, 100, 1000, 5000))
}

// disableArrays turns off the arrays a snippet does not set, most of the
// time, so that arrays left by earlier hostile calls do not stop its draws.
func (g *gen) disableArrays() {
	if g.chance(1, 3) {
		return
	}
	for _, a := range []gles.Enum{gles.COLOR_ARRAY, gles.NORMAL_ARRAY, gles.TEXTURE_COORD_ARRAY, gles.POINT_SIZE_ARRAY_OES} {
		g.add("DisableClientState", a)
	}
}

func (g *gen) clientArrays() {
	g.disableArrays()
	n := g.vertexCount()
	vt := vertexTypes[g.src.Intn(len(vertexTypes))]
	size := int(g.pick(2, 3, 4))
	g.add("EnableClientState", gles.VERTEX_ARRAY)
	g.add("VertexPointer", size, vt.t, 0, g.slice(vt.typ, n*size))
	if g.chance(1, 2) {
		g.add("EnableClientState", gles.COLOR_ARRAY)
		g.add("ColorPointer", 4, gles.UNSIGNED_BYTE, 0, g.slice("[]uint8", n*4))
	}
	if g.chance(1, 3) {
		g.add("EnableClientState", gles.TEXTURE_COORD_ARRAY)
		g.add("TexCoordPointer", 2, gles.FLOAT, 0, g.slice("[]float32", n*2))
	}
	if g.chance(1, 4) {
		g.add("EnableClientState", gles.NORMAL_ARRAY)
		g.add("NormalPointer", vt.t, 0, g.slice(vt.typ, n*3))
	}
	if g.chance(1, 5) {
		g.add("EnableClientState", gles.POINT_SIZE_ARRAY_OES)
		g.add("PointSizePointerOES", gles.FLOAT, 0, g.slice("[]float32", n))
	}
}

func (g *gen) bufferArrays() {
	g.disableArrays()
	n := g.vertexCount()
	id := int(g.pick(1, 1, 2, 3))
	g.add("GenBuffers", 1)
	g.add("BindBuffer", gles.ARRAY_BUFFER, id)
	vt := vertexTypes[g.src.Intn(len(vertexTypes))]
	size := int(g.pick(2, 3, 4))
	g.add("BufferData", gles.ARRAY_BUFFER, g.slice(vt.typ, n*size), gles.Enum(g.pick(int64(gles.STATIC_DRAW), int64(gles.DYNAMIC_DRAW))))
	if g.chance(1, 3) {
		g.add("BufferSubData", gles.ARRAY_BUFFER, int(g.pick(0, 4, 8)), g.slice(vt.typ, 4))
	}
	g.add("EnableClientState", gles.VERTEX_ARRAY)
	g.add("VertexPointer", size, vt.t, int(g.pick(0, 0, int64(size*vt.size), 16)), int(g.pick(0, 0, 0, 4, 8)))
	if g.chance(1, 2) {
		g.add("EnableClientState", gles.COLOR_ARRAY)
		g.add("ColorPointer", 4, gles.UNSIGNED_BYTE, 0, int(g.pick(0, 4)))
	}
	if g.chance(1, 2) {
		g.add("BindBuffer", gles.ARRAY_BUFFER, 0)
	}
	if g.chance(1, 2) {
		g.add("BindBuffer", gles.ELEMENT_ARRAY_BUFFER, id+1)
		g.add("BufferData", gles.ELEMENT_ARRAY_BUFFER, g.slice("[]uint16", n), gles.STATIC_DRAW)
	}
}

func (g *gen) texture() {
	id := int(g.pick(0, 1, 1, 2, 3))
	g.add("GenTextures", 1)
	if g.chance(1, 4) {
		g.add("ActiveTexture", gles.Enum(g.pick(int64(gles.TEXTURE0), int64(gles.TEXTURE1))))
	}
	g.add("BindTexture", gles.TEXTURE_2D, id)
	if g.chance(1, 3) {
		g.add("TexParameteri", gles.TEXTURE_2D, gles.GENERATE_MIPMAP, 1)
	}
	if g.chance(1, 2) {
		g.add("TexParameteri", gles.TEXTURE_2D, gles.TEXTURE_MIN_FILTER,
			int(g.pick(int64(gles.NEAREST), int64(gles.LINEAR), int64(gles.LINEAR_MIPMAP_LINEAR))))
	}
	w, h := int(g.pick(1, 2, 4, 8, 16, 64, 256, 0, 3)), int(g.pick(1, 2, 4, 8, 16, 64, 256, 0, 5))
	switch g.src.Intn(6) {
	case 0:
		f := []gles.Enum{gles.PALETTE4_RGB8_OES, gles.PALETTE8_RGBA8_OES, gles.PALETTE4_R5_G6_B5_OES}[g.src.Intn(3)]
		pal := map[gles.Enum]int{gles.PALETTE4_RGB8_OES: 48, gles.PALETTE8_RGBA8_OES: 1024, gles.PALETTE4_R5_G6_B5_OES: 32}[f]
		bits := 4
		if f == gles.PALETTE8_RGBA8_OES {
			bits = 8
		}
		g.add("CompressedTexImage2D", gles.TEXTURE_2D, int(g.pick(0, 0, -1, -2)), f, w, h, 0, g.slice("[]uint8", pal+(w*h*bits+7)/8))
	case 1:
		f := []gles.Enum{gles.ETC1_RGB8_OES, gles.COMPRESSED_RGB_S3TC_DXT1_EXT, gles.COMPRESSED_RGBA_S3TC_DXT5_EXT}[g.src.Intn(3)]
		bs := 8
		if f == gles.COMPRESSED_RGBA_S3TC_DXT5_EXT {
			bs = 16
		}
		g.add("CompressedTexImage2D", gles.TEXTURE_2D, 0, f, w, h, 0, g.slice("[]uint8", (w+3)/4*((h+3)/4)*bs))
	default:
		formats := []struct {
			f, t gles.Enum
			bpp  int
		}{{gles.RGBA, gles.UNSIGNED_BYTE, 4}, {gles.RGB, gles.UNSIGNED_BYTE, 3}, {gles.RGB, gles.UNSIGNED_SHORT_5_6_5, 2},
			{gles.RGBA, gles.UNSIGNED_SHORT_4_4_4_4, 2}, {gles.LUMINANCE, gles.UNSIGNED_BYTE, 1}, {gles.ALPHA, gles.UNSIGNED_BYTE, 1},
			{gles.LUMINANCE_ALPHA, gles.UNSIGNED_BYTE, 2}, {gles.RGBA, gles.UNSIGNED_SHORT_5_5_5_1, 2}}
		f := formats[g.src.Intn(len(formats))]
		g.add("TexImage2D", gles.TEXTURE_2D, 0, f.f, w, h, 0, f.f, f.t, g.slice("[]uint8", w*h*f.bpp+3))
		if g.chance(1, 3) {
			g.add("TexSubImage2D", gles.TEXTURE_2D, 0, int(g.pick(0, 1)), int(g.pick(0, 1)), 1, 1, f.f, f.t, g.slice("[]uint8", f.bpp))
		}
	}
	if !g.es2 && g.chance(2, 3) {
		g.add("Enable", gles.TEXTURE_2D)
	}
}

func (g *gen) draw() {
	mode := hintValue(enumHints["prim"][g.src.Intn(7)])
	if g.b.Name == "pspge" && !g.es2 && g.chance(1, 6) {
		// GL_RETROGL_pspge_patches: a 4x4 or 7x4 grid of control points.
		u := int(g.pick(4, 4, 7))
		g.add("DrawBezierPSP", gles.Enum(g.pick(int64(gles.TRIANGLES), int64(gles.LINES), int64(gles.POINTS))), u, 4,
			int(g.pick(1, 2, 4, 16)), int(g.pick(1, 2, 4, 16)))
		return
	}
	if g.chance(1, 3) {
		n := g.drawCount()
		ix := g.slice("[]uint16", n)
		if g.arrayLen > 0 && g.chance(3, 4) {
			// Indices inside the arrays.
			if ix.Fill != "" {
				ix.Fill, ix.Mod = FillSeq, g.arrayLen
			}
			for i := range ix.Elems {
				ix.Elems[i] = float64(int(ix.Elems[i]) % g.arrayLen)
			}
		}
		if g.chance(1, 2) {
			g.add("DrawElements", mode, n, gles.UNSIGNED_SHORT, ix)
		} else {
			g.add("DrawElements", mode, n, gles.UNSIGNED_SHORT, int(g.pick(0, 0, 2, 4)))
		}
		return
	}
	n := g.drawCount()
	first := int(g.pick(0, 0, 0, 1, 2))
	if first >= n {
		first = 0
	}
	g.add("DrawArrays", mode, first, n-first)
}

func (g *gen) state() {
	caps := enumHints["cap"]
	g.add("Enable", hintValue(caps[g.src.Intn(len(caps))]))
	switch g.src.Intn(8) {
	case 0:
		g.add("Fogf", gles.FOG_MODE, float64(gles.LINEAR))
		g.add("Enable", gles.FOG)
	case 1:
		g.add("Enable", gles.LIGHTING)
		g.add("Enable", gles.LIGHT0)
	case 2:
		g.add("BlendFunc", gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA)
		g.add("Enable", gles.BLEND)
	case 3:
		g.add("Viewport", int(g.pick(0, -10, 5)), int(g.pick(0, -10, 5)), int(g.sizeInt()), int(g.sizeInt()))
	case 4:
		g.add("Scissor", int(g.pick(0, -10, 5)), int(g.pick(0, -10, 5)), int(g.sizeInt()), int(g.sizeInt()))
		g.add("Enable", gles.SCISSOR_TEST)
	case 5:
		g.add("PointSize", float64(g.pick(1, 4, 64, 1000)))
	case 6:
		g.add("LineWidth", float64(g.pick(1, 2, 8, 100)))
	default:
		g.add("Clear", gles.COLOR_BUFFER_BIT|gles.DEPTH_BUFFER_BIT|gles.STENCIL_BUFFER_BIT)
	}
}

// hostileState sets one piece of numeric state to hostile values (a huge
// viewport, NaN matrices, enormous points and lines, a wild crop
// rectangle) and then draws valid geometry through it.
func (g *gen) hostileState() {
	hf := func() float64 { return float64(float32(g.pick64f(hostileFloats...))) }
	hi := func() int { return int(g.hostileInt()) }
	switch g.src.Intn(12) {
	case 0:
		g.add("Viewport", hi(), hi(), hi(), hi())
	case 1:
		g.add("Scissor", hi(), hi(), hi(), hi())
		g.add("Enable", gles.SCISSOR_TEST)
	case 2:
		g.add("DepthRangef", hf(), hf())
	case 3:
		g.add("PointSize", hf())
		g.add("Enable", gles.POINT_SPRITE_OES)
	case 4:
		g.add("LineWidth", hf())
		g.add("Enable", gles.LINE_SMOOTH)
	case 5:
		g.add("PolygonOffset", hf(), hf())
		g.add("Enable", gles.POLYGON_OFFSET_FILL)
	case 6:
		m := Arg{Type: "[]float32", Elems: make([]float64, 16)}
		for i := range m.Elems {
			m.Elems[i] = hf()
		}
		g.add("MatrixMode", gles.Enum(g.pick(int64(gles.MODELVIEW), int64(gles.PROJECTION), int64(gles.TEXTURE))))
		g.add("LoadMatrixf", m)
	case 7:
		g.add("ClipPlanef", gles.CLIP_PLANE0, Arg{Type: "[]float32", Elems: []float64{hf(), hf(), hf(), hf()}})
		g.add("Enable", gles.CLIP_PLANE0)
	case 8:
		g.add("Fogf", gles.Enum(g.pick(int64(gles.FOG_DENSITY), int64(gles.FOG_START), int64(gles.FOG_END))), hf())
		g.add("Enable", gles.FOG)
	case 9:
		g.add("Lightfv", gles.LIGHT0, gles.Enum(g.pick(int64(gles.POSITION), int64(gles.SPOT_CUTOFF), int64(gles.SPOT_EXPONENT), int64(gles.QUADRATIC_ATTENUATION))),
			Arg{Type: "[]float32", Elems: []float64{hf(), hf(), hf(), hf()}})
		g.add("Enable", gles.LIGHTING)
		g.add("Enable", gles.LIGHT0)
	case 10:
		g.texture()
		g.add("TexParameteriv", gles.TEXTURE_2D, gles.TEXTURE_CROP_RECT_OES, Arg{Type: "[]int", Elems: []float64{
			float64(wrapInt("int", int64(hi()))), float64(wrapInt("int", int64(hi()))), float64(wrapInt("int", int64(hi()))), float64(wrapInt("int", int64(hi())))}})
		g.add("DrawTexiOES", hi(), hi(), hi(), int(g.pick(1, 16, 1<<20)), int(g.pick(1, 16, 1<<20)))
		return
	default:
		g.add("PointParameterfv", gles.POINT_DISTANCE_ATTENUATION, Arg{Type: "[]float32", Elems: []float64{hf(), hf(), hf()}})
	}
	g.clientArrays()
	g.draw()
}

func (g *gen) readBack() {
	w, h := int(g.sizeInt()), int(g.sizeInt())
	switch g.src.Intn(3) {
	case 0:
		g.add("ReadPixels", int(g.pick(0, 0, -5, 10)), int(g.pick(0, 0, -5, 10)), w, h, gles.RGBA, gles.UNSIGNED_BYTE, g.slice("[]uint8", w*h*4))
	case 1:
		g.add("CopyTexImage2D", gles.TEXTURE_2D, 0, gles.Enum(g.pick(int64(gles.RGB), int64(gles.RGBA), int64(gles.LUMINANCE))),
			int(g.pick(0, -4, 8)), int(g.pick(0, -4, 8)), w, h, 0)
	default:
		g.add("Finish")
	}
}

func (g *gen) attribArrays() {
	n := g.vertexCount()
	idx := int(g.pick(0, 0, 1, 2))
	if g.chance(1, 2) {
		g.add("GenBuffers", 1)
		g.add("BindBuffer", gles.ARRAY_BUFFER, 1)
		g.add("BufferData", gles.ARRAY_BUFFER, g.slice("[]float32", n*4), gles.STATIC_DRAW)
		g.add("VertexAttribPointer", idx, int(g.pick(2, 3, 4)), gles.FLOAT, false, 0, int(g.pick(0, 0, 16)))
	} else {
		g.add("BindBuffer", gles.ARRAY_BUFFER, 0)
		g.add("VertexAttribPointer", idx, int(g.pick(2, 3, 4)), gles.FLOAT, g.chance(1, 2), 0, g.slice("[]float32", n*4))
	}
	g.add("EnableVertexAttribArray", idx)
}

func (g *gen) program() {
	vs := []string{shaders[0], shaders[1], shaders[2]}[g.src.Intn(3)]
	fs := []string{shaders[3], shaders[4], shaders[5], shaders[6]}[g.src.Intn(4)]
	if g.chance(1, 8) {
		fs = shaders[g.src.Intn(len(shaders))]
	}
	g.add("CreateShader", gles.VERTEX_SHADER)
	g.add("ShaderSource", int(g.pick(1, 1, 3)), []string{vs})
	g.add("CompileShader", int(g.pick(1, 1, 3)))
	g.add("CreateShader", gles.FRAGMENT_SHADER)
	g.add("ShaderSource", int(g.pick(2, 2, 4)), []string{fs})
	g.add("CompileShader", int(g.pick(2, 2, 4)))
	g.add("CreateProgram")
	p := int(g.pick(3, 3, 5))
	g.add("AttachShader", p, 1)
	g.add("AttachShader", p, 2)
	if g.chance(1, 2) {
		g.add("BindAttribLocation", p, 0, "pos")
	}
	g.add("LinkProgram", p)
	g.add("UseProgram", p)
	if g.chance(1, 2) {
		g.add("Uniform4f", int(g.pick(0, 0, 1)), 1.0, 0.5, 0.0, 1.0)
	}
	g.attribArrays()
	g.draw()
}

func (g *gen) framebuffer() {
	w, h := int(g.sizeInt()), int(g.sizeInt())
	g.add("GenFramebuffers", 1)
	g.add("BindFramebuffer", gles.FRAMEBUFFER, int(g.pick(1, 1, 2)))
	if g.chance(2, 3) {
		g.add("GenTextures", 1)
		g.add("BindTexture", gles.TEXTURE_2D, 1)
		g.add("TexImage2D", gles.TEXTURE_2D, 0, gles.RGBA, w, h, 0, gles.RGBA, gles.UNSIGNED_BYTE, Arg{Type: "nil"})
		g.add("FramebufferTexture2D", gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.TEXTURE_2D, 1, 0)
	} else {
		g.add("GenRenderbuffers", 1)
		g.add("BindRenderbuffer", gles.RENDERBUFFER, 1)
		g.add("RenderbufferStorage", gles.RENDERBUFFER, gles.RGB565, w, h)
		g.add("FramebufferRenderbuffer", gles.FRAMEBUFFER, gles.COLOR_ATTACHMENT0, gles.RENDERBUFFER, 1)
	}
	if g.chance(1, 2) {
		g.add("GenRenderbuffers", 1)
		g.add("BindRenderbuffer", gles.RENDERBUFFER, int(g.pick(1, 2)))
		g.add("RenderbufferStorage", gles.RENDERBUFFER, gles.DEPTH_COMPONENT16, w, h)
		g.add("FramebufferRenderbuffer", gles.FRAMEBUFFER, gles.DEPTH_ATTACHMENT, gles.RENDERBUFFER, int(g.pick(1, 2)))
	}
	switch g.src.Intn(4) {
	case 0:
		g.add("DeleteRenderbuffers", int(g.pick(1, 2)))
	case 1:
		g.add("BindFramebuffer", gles.FRAMEBUFFER, 0)
	case 2:
		g.add("Clear", gles.COLOR_BUFFER_BIT|gles.DEPTH_BUFFER_BIT)
	default:
		g.readBack()
	}
}
