package difftest

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// Scene is one generated trace.
type Scene struct {
	// Seed made the scene: Generate(Seed) gives it again, byte for byte.
	Seed uint64
	// Trace is the scene as a parsed trace; Text is its text.
	Trace *trace.Trace
	Text  []byte
	// Families are the state groups in effect at one or more draws.
	Families Families
	// Needs are the extensions the scene uses beyond those every backend
	// has (see Common); a backend without one is not judged on the scene.
	Needs []string
}

// Common are the extensions the generator uses freely: every backend
// offers them (glinfo). The others it uses are listed in a Scene's Needs.
var Common = []string{
	"GL_OES_blend_subtract", "GL_EXT_blend_minmax", "GL_OES_byte_coordinates",
	"GL_OES_compressed_paletted_texture", "GL_OES_fixed_point",
	"GL_OES_point_size_array", "GL_OES_point_sprite",
}

// The extensions a scene may need (see Scene.Needs).
const (
	extFuncSeparate     = "GL_OES_blend_func_separate"
	extEquationSeparate = "GL_OES_blend_equation_separate"
	extStencilWrap      = "GL_OES_stencil_wrap"
	extMirroredRepeat   = "GL_OES_texture_mirrored_repeat"
	extETC1             = "GL_OES_compressed_ETC1_RGB8_texture"
)

// clearAll is the mask of the first Clear of every scene.
const clearAll = "COLOR_BUFFER_BIT|DEPTH_BUFFER_BIT|STENCIL_BUFFER_BIT"

// Size limits every backend meets (glinfo): the largest point size and line
// width a scene asks for, so that no implementation clamps them.
const (
	maxPointSize = 24
	maxLineWidth = 6
)

// Generate makes the scene of a seed: a random but valid GL ES 1.1 trace
// covering every state group of the specification (see Family), with
// scenes small enough to replay on every backend and on Mesa in
// milliseconds.
func Generate(seed uint64) *Scene {
	g := newGen(seed)
	g.scene()
	tr := &trace.Trace{Width: g.w, Height: g.h, DepthBits: g.depth, StencilBits: g.stencil, Calls: g.calls}
	var b bytes.Buffer
	tr.WriteTo(&b) // a bytes.Buffer does not fail
	needs := make([]string, 0, len(g.needs))
	for n := range g.needs {
		needs = append(needs, n)
	}
	slices.Sort(needs)
	return &Scene{Seed: seed, Trace: tr, Text: b.Bytes(), Families: g.fam, Needs: needs}
}

// SceneOf makes a Scene of a trace's text (a reproducer, a recorded
// program) so that a Tester can judge it: seed 0, the families its calls
// touch (TraceFamilies) and the extensions it uses beyond Common.
func SceneOf(text []byte) (*Scene, error) {
	tr, err := trace.Parse(bytes.NewReader(text))
	if err != nil {
		return nil, err
	}
	s := &Scene{Trace: tr, Text: text, Families: TraceFamilies(tr)}
	needs := map[string]bool{}
	for _, c := range tr.Calls {
		for _, a := range c.Args {
			switch a.Text {
			case "INCR_WRAP", "DECR_WRAP":
				needs[extStencilWrap] = true
			case "MIRRORED_REPEAT":
				needs[extMirroredRepeat] = true
			case "ETC1_RGB8_OES":
				needs[extETC1] = true
			}
		}
		switch c.Name {
		case "BlendFuncSeparateOES":
			needs[extFuncSeparate] = true
		case "BlendEquationSeparateOES":
			needs[extEquationSeparate] = true
		}
	}
	for n := range needs {
		s.Needs = append(s.Needs, n)
	}
	slices.Sort(s.Needs)
	return s, nil
}

// texInfo is what the generator knows of a texture object.
type texInfo struct {
	name     uint32
	fam      Family // FamTexRGBA8, FamTex16, FamTexLumAlpha, FamTexPaletted, FamTexETC1
	rgb      bool   // RGB or RGBA base format (DECAL is defined)
	small    bool
	mipmaps  bool // a complete mipmap chain (explicit or generated)
	gen      bool // GENERATE_MIPMAP
	mipmin   bool // the minification filter uses mipmaps
	linear   bool
	clamp    bool
	sub      bool // changed by TexSubImage2D or copied from the framebuffer
	w, h     int
	format   texFormat
	plain    bool // TexImage2D, so TexSubImage2D may change it
	complete bool
}

type unitState struct {
	enabled bool
	tex     int // index into textures, -1: none bound
	mode    gles.Enum
	dot3    bool
	sprite  bool // COORD_REPLACE
	matrix  bool // texture matrix not identity
}

type gen struct {
	r     *rand.Rand
	calls []trace.Call
	fam   Families
	needs map[string]bool

	w, h, depth, stencil int

	// world is the scale of eye space: positions, light positions, fog
	// distances and clip planes are in units of world, so that BYTE and
	// SHORT positions have a useful range.
	world float32
	// persp is true for a frustum projection; eyeNear and eyeFar bound the
	// eye distance of the geometry (fog ranges are chosen inside them).
	persp           bool
	eyeNear, eyeFar float32
	centre          float32 // eye z of the scene's centre

	enabled  map[gles.Enum]bool
	active   int
	client   int
	units    [2]unitState
	textures []*texInfo
	nbufs    uint32
	array    uint32 // ARRAY_BUFFER binding
	element  uint32 // ELEMENT_ARRAY_BUFFER binding
	clientOn map[gles.Enum]bool
	texOn    [2]bool // TEXTURE_COORD_ARRAY per unit
	draws    int

	lights      int
	spot        bool
	twoSide     bool
	shade       gles.Enum
	colorMask   bool // ColorMask other than all true
	depthMask   bool // DepthMask false
	stencilMask bool // StencilMask other than 255
	pendingPop  bool // a PushMatrix to pop after the draw
	// curColor, curNormal and curTex say whether the current values are
	// defined (they are not after a draw that read the array).
	curColor, curNormal bool
	curTex              [2]bool
	interleaved         []*attrib
	offset              bool
	blendExt            bool
	viewport            bool
	pointPar            bool
	lineWidth           float32
	lastDraw            *drawSpec
}

func newGen(seed uint64) *gen {
	return &gen{
		r:        rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)),
		needs:    map[string]bool{},
		enabled:  map[gles.Enum]bool{gles.DITHER: true},
		clientOn: map[gles.Enum]bool{},
		units:    [2]unitState{{tex: -1, mode: gles.MODULATE}, {tex: -1, mode: gles.MODULATE}},
		shade:    gles.SMOOTH,
		curColor: true, curNormal: true, curTex: [2]bool{true, true},
	}
}

// ---- emitting calls ----

func ev(e gles.Enum) trace.Value { return trace.EnumValue(e) }
func iv(n int) trace.Value       { return trace.IntValue(int64(n)) }
func fv(f float32) trace.Value   { return trace.FloatValue(f) }
func bv(b bool) trace.Value      { return trace.BoolValue(b) }
func vv(f ...float32) trace.Value {
	return trace.FloatsValue(f...)
}
func dv(p []byte) trace.Value { return trace.DataValue(p) }

func (g *gen) call(name string, args ...trace.Value) {
	g.calls = append(g.calls, trace.Call{Name: name, Args: args})
}

func (g *gen) callResult(name string, res trace.Value, args ...trace.Value) {
	g.calls = append(g.calls, trace.Call{Name: name, Args: args, Result: &res})
}

func (g *gen) enable(c gles.Enum, on bool) {
	if g.enabled[c] == on {
		return
	}
	g.enabled[c] = on
	if on {
		g.call("Enable", ev(c))
	} else {
		g.call("Disable", ev(c))
	}
}

func (g *gen) clientState(a gles.Enum, on bool) {
	cur := g.clientOn[a]
	if a == gles.TEXTURE_COORD_ARRAY {
		cur = g.texOn[g.client]
	}
	if cur == on {
		return
	}
	if a == gles.TEXTURE_COORD_ARRAY {
		g.texOn[g.client] = on
	} else {
		g.clientOn[a] = on
	}
	if on {
		g.call("EnableClientState", ev(a))
	} else {
		g.call("DisableClientState", ev(a))
	}
}

func (g *gen) activeTexture(u int) {
	if g.active != u {
		g.active = u
		g.call("ActiveTexture", ev(gles.TEXTURE0+gles.Enum(u)))
	}
}

func (g *gen) clientActive(u int) {
	if g.client != u {
		g.client = u
		g.call("ClientActiveTexture", ev(gles.TEXTURE0+gles.Enum(u)))
	}
}

func (g *gen) bindBuffer(target gles.Enum, name uint32) {
	cur := &g.array
	if target == gles.ELEMENT_ARRAY_BUFFER {
		cur = &g.element
	}
	if *cur != name {
		*cur = name
		g.call("BindBuffer", ev(target), iv(int(name)))
	}
}

func (g *gen) genBuffer() uint32 {
	g.nbufs++
	g.callResult("GenBuffers", trace.IntsValue(int64(g.nbufs)), iv(1))
	return g.nbufs
}

// ---- random helpers ----

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) rng(lo, hi float32) float32 { return lo + (hi-lo)*g.r.Float32() }

func pick[T any](g *gen, xs ...T) T { return xs[g.r.IntN(len(xs))] }

// weighted picks index i with weight w[i].
func (g *gen) weighted(w ...int) int {
	sum := 0
	for _, x := range w {
		sum += x
	}
	n := g.r.IntN(sum)
	for i, x := range w {
		if n < x {
			return i
		}
		n -= x
	}
	return len(w) - 1
}

func (g *gen) color(minA float32) [4]float32 {
	return [4]float32{g.r.Float32(), g.r.Float32(), g.r.Float32(), minA + (1-minA)*g.r.Float32()}
}

// round2 rounds to 1/256: traces stay short and exact in every format.
func round2(f float32) float32 { return float32(math.Round(float64(f)*256) / 256) }

func (g *gen) unitVec() [3]float32 {
	for {
		v := [3]float32{g.rng(-1, 1), g.rng(-1, 1), g.rng(-1, 1)}
		n := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
		if n > 0.2 && n <= 1 {
			return [3]float32{v[0] / n, v[1] / n, v[2] / n}
		}
	}
}

// ---- the scene ----

func (g *gen) scene() {
	g.w = pick(g, 48, 64, 80)
	g.h = pick(g, 48, 64)
	g.depth = pick(g, 0, 16, 16, 16, 16)
	g.stencil = pick(g, 0, 0, 8)
	g.world = pick[float32](g, 1, 1, 64, 2000)

	// Every buffer is cleared first: the contents of a new surface are
	// undefined. The reducer keeps these calls (see Pinned).
	g.call("ClearColor", fv(round2(g.rng(0, 1))), fv(round2(g.rng(0, 1))), fv(round2(g.rng(0, 1))), fv(round2(g.rng(0, 1))))
	if g.chance(0.3) {
		g.call("ClearDepthf", fv(round2(g.rng(0.5, 1))))
	}
	if g.stencil > 0 && g.chance(0.5) {
		g.call("ClearStencil", iv(g.r.IntN(256)))
	}
	g.call("Clear", trace.Value{Kind: trace.Name, Text: clearAll})
	g.projection()
	if g.chance(0.2) {
		g.setViewport()
	}

	ntex := g.weighted(3, 4, 3, 1)
	if ntex > 0 {
		names := make([]int64, ntex)
		for i := range names {
			names[i] = int64(i + 1)
		}
		g.callResult("GenTextures", trace.IntsValue(names...), iv(ntex))
		for i := 0; i < ntex; i++ {
			g.textures = append(g.textures, &texInfo{name: uint32(i + 1)})
		}
		for _, t := range g.textures {
			g.activeTexture(g.r.IntN(2))
			g.call("BindTexture", ev(gles.TEXTURE_2D), iv(int(t.name)))
			g.units[g.active].tex = slices.Index(g.textures, t)
			g.specifyTexture(t)
		}
	}

	g.modelview()
	ndraw := 1 + g.r.IntN(4)
	for i := 0; i < ndraw; i++ {
		g.changeState(i == 0)
		if i > 0 && g.chance(0.12) {
			g.midClear()
		}
		if i > 0 && g.chance(0.05) && len(g.textures) > 0 {
			g.copyTexture()
		}
		g.draw(i > 0 && g.lastDraw != nil && g.chance(0.25))
	}
}

// projection sets the projection matrix: the world scale is folded in, so
// eye space is in world units. The scene sits in front of the eye (eye z
// around centre, never 0): GL lets fog use the eye distance per vertex or
// per fragment (ES 1.1 section 3.8), and the two differ wildly on a
// primitive that crosses the plane of the eye, which an orthographic
// projection would otherwise show.
func (g *gen) projection() {
	W := g.world
	g.call("MatrixMode", ev(gles.PROJECTION))
	switch g.weighted(2, 3, 5) {
	case 0: // clip space is eye space shifted by 1.5 and divided by world
		g.call("Scalef", fv(1/W), fv(1/W), fv(1/W))
		g.call("Translatef", fv(0), fv(0), fv(1.5*W))
		g.centre = -1.5 * W
		g.eyeNear, g.eyeFar = 0.5*W, 2.5*W
	case 1:
		a, b := g.rng(1, 1.5), g.rng(1, 1.5)
		g.call("Orthof", fv(round2(-a)*W), fv(round2(a)*W), fv(round2(-b)*W), fv(round2(b)*W), fv(0.05*W), fv(3*W))
		g.centre = -1.5 * W
		g.eyeNear, g.eyeFar = 0.3*W, 2.7*W
	default:
		g.persp = true
		a := round2(g.rng(0.35, 0.6))
		g.call("Frustumf", fv(-a*W), fv(a*W), fv(-a*W), fv(a*W), fv(W), fv(8*W))
		g.centre = -3 * W
		g.eyeNear, g.eyeFar = 1.5*W, 4.8*W
	}
	g.call("MatrixMode", ev(gles.MODELVIEW))
}

// modelview sets the scene's model-view matrix.
func (g *gen) modelview() {
	g.call("Translatef", fv(0), fv(0), fv(g.centre))
	switch g.weighted(3, 4, 2, 1) {
	case 0:
	case 1:
		ax := g.unitVec()
		g.call("Rotatef", fv(round2(g.rng(-60, 60))), fv(round2(ax[0])), fv(round2(ax[1])), fv(round2(ax[2])))
	case 2:
		s := round2(g.rng(0.7, 1.2))
		g.call("Scalef", fv(s), fv(s), fv(s))
		ax := g.unitVec()
		g.call("Rotatef", fv(round2(g.rng(-45, 45))), fv(round2(ax[0])), fv(round2(ax[1])), fv(round2(ax[2])))
	default:
		m := rotation(g.unitVec(), g.rng(-0.8, 0.8))
		g.call("MultMatrixf", vv(m[:]...))
	}
}

// rotation is a column-major rotation matrix about unit axis a.
func rotation(a [3]float32, angle float32) [16]float32 {
	c, s := float32(math.Cos(float64(angle))), float32(math.Sin(float64(angle)))
	t := 1 - c
	x, y, z := a[0], a[1], a[2]
	m := [16]float32{
		t*x*x + c, t*x*y + s*z, t*x*z - s*y, 0,
		t*x*y - s*z, t*y*y + c, t*y*z + s*x, 0,
		t*x*z + s*y, t*y*z - s*x, t*z*z + c, 0,
		0, 0, 0, 1,
	}
	for i := range m {
		m[i] = round2(m[i])
	}
	return m
}

// setViewport sets a viewport inside the surface. Mesa clips wide points
// and lines at the viewport's edge, which GL ES 1.1 does not (a point is
// clipped by its centre, section 2.11; docs/differential.md): a scene
// with such a viewport draws points and lines one pixel wide from then on.
func (g *gen) setViewport() {
	if !g.viewport {
		g.call("PointSize", fv(1))
		g.call("PointParameterfv", ev(gles.POINT_DISTANCE_ATTENUATION), vv(1, 0, 0))
		g.call("PointParameterf", ev(gles.POINT_SIZE_MIN), fv(0))
		g.call("LineWidth", fv(1))
		g.lineWidth = 1
	}
	x, y := g.r.IntN(g.w/4), g.r.IntN(g.h/4)
	w, h := g.w/2+g.r.IntN(g.w/2-x+1), g.h/2+g.r.IntN(g.h/2-y+1)
	g.call("Viewport", iv(x), iv(y), iv(w), iv(h))
	g.viewport = true
	if g.chance(0.4) {
		n, f := round2(g.rng(0, 0.4)), round2(g.rng(0.6, 1))
		if g.chance(0.2) {
			n, f = f, n
		}
		g.call("DepthRangef", fv(n), fv(f))
	}
}

// ---- textures ----

func (g *gen) texSize() (int, int) {
	sizes := []int{1, 2, 4, 8, 16, 32, 64}
	w := sizes[g.weighted(1, 2, 3, 4, 5, 4, 2)]
	h := sizes[g.weighted(1, 2, 3, 4, 5, 4, 2)]
	return w, h
}

func levelsOf(w, h int) int {
	n := 1
	for w > 1 || h > 1 {
		w, h = max(w/2, 1), max(h/2, 1)
		n++
	}
	return n
}

// specifyTexture gives the texture bound to the active unit its images
// and parameters.
func (g *gen) specifyTexture(t *texInfo) {
	w, h := g.texSize()
	t.w, t.h = w, h
	t.small = w < 8 || h < 8
	im := pattern(g.r, w, h)
	levels := levelsOf(w, h)
	wantMips := g.chance(0.5)
	switch g.weighted(12, 3, 1) {
	case 0: // TexImage2D
		t.plain = true
		t.format = texFormats[g.r.IntN(len(texFormats))]
		t.fam = t.format.family()
		t.rgb = t.format.format == gles.RGB || t.format.format == gles.RGBA
		align := 4
		if bpr := w * t.format.bytesPerPixel(); bpr%4 != 0 || g.chance(0.2) {
			align = pick(g, 1, 2, 4, 8)
			g.call("PixelStorei", ev(gles.UNPACK_ALIGNMENT), iv(align))
		}
		if wantMips && g.chance(0.4) {
			t.gen = true
			g.call("TexParameteri", ev(gles.TEXTURE_2D), ev(gles.GENERATE_MIPMAP), iv(1))
			if g.chance(0.3) {
				g.call("Hint", ev(gles.GENERATE_MIPMAP_HINT), ev(pick(g, gles.FASTEST, gles.NICEST, gles.DONT_CARE)))
			}
			levels = 1
			t.mipmaps = true
		} else if !wantMips {
			levels = 1
		} else {
			t.mipmaps = true
		}
		lv := im
		for l := 0; l < levels; l++ {
			if l > 0 {
				lv = lv.half()
			}
			f := t.format
			g.call("TexImage2D", ev(gles.TEXTURE_2D), iv(l), ev(f.format), iv(lv.w), iv(lv.h), iv(0),
				ev(f.format), ev(f.typ), dv(f.encode(lv, align)))
		}
		if g.chance(0.2) {
			g.subImage(t, align)
		}
		if align != 4 {
			g.call("PixelStorei", ev(gles.UNPACK_ALIGNMENT), iv(4))
		}
	case 1: // paletted
		p := palFormats[g.r.IntN(len(palFormats))]
		t.fam = FamTexPaletted
		t.rgb = true
		if !wantMips {
			levels = 1
		} else {
			t.mipmaps = true
		}
		g.call("CompressedTexImage2D", ev(gles.TEXTURE_2D), iv(1-levels), ev(p.format), iv(w), iv(h), iv(0), dv(p.data(g.r, im, levels)))
	default: // ETC1
		g.needs[extETC1] = true
		t.fam = FamTexETC1
		t.rgb = true
		if !wantMips {
			levels = 1
		} else {
			t.mipmaps = true
		}
		lv := im
		for l := 0; l < levels; l++ {
			if l > 0 {
				lv = lv.half()
			}
			g.call("CompressedTexImage2D", ev(gles.TEXTURE_2D), iv(l), ev(gles.ETC1_RGB8_OES), iv(lv.w), iv(lv.h), iv(0), dv(etc1(g.r, lv)))
		}
	}
	g.texParams(t)
}

// texParams sets filters and wrap modes. A mipmapped filter on a texture
// without mipmaps leaves it incomplete (the unit then does nothing, as GL
// specifies); the generator does that rarely.
func (g *gen) texParams(t *texInfo) {
	minf := pick(g, gles.NEAREST, gles.LINEAR, gles.NEAREST_MIPMAP_NEAREST, gles.LINEAR_MIPMAP_NEAREST,
		gles.NEAREST_MIPMAP_LINEAR, gles.LINEAR_MIPMAP_LINEAR)
	mip := minf != gles.NEAREST && minf != gles.LINEAR
	if mip && !t.mipmaps && !g.chance(0.05) {
		minf = pick(g, gles.NEAREST, gles.LINEAR)
		mip = false
	}
	t.mipmin = mip
	t.complete = !mip || t.mipmaps
	if minf != gles.NEAREST_MIPMAP_LINEAR { // the initial value
		g.call("TexParameteri", ev(gles.TEXTURE_2D), ev(gles.TEXTURE_MIN_FILTER), ev(minf))
	}
	magf := pick(g, gles.NEAREST, gles.LINEAR)
	if magf != gles.LINEAR {
		g.call("TexParameteri", ev(gles.TEXTURE_2D), ev(gles.TEXTURE_MAG_FILTER), ev(magf))
	}
	t.linear = magf == gles.LINEAR || minf == gles.LINEAR || minf == gles.LINEAR_MIPMAP_NEAREST ||
		minf == gles.NEAREST_MIPMAP_LINEAR || minf == gles.LINEAR_MIPMAP_LINEAR
	for _, pname := range []gles.Enum{gles.TEXTURE_WRAP_S, gles.TEXTURE_WRAP_T} {
		wrap := []gles.Enum{gles.REPEAT, gles.CLAMP_TO_EDGE, gles.MIRRORED_REPEAT}[g.weighted(6, 4, 1)]
		if wrap == gles.MIRRORED_REPEAT {
			g.needs[extMirroredRepeat] = true
		}
		if wrap != gles.REPEAT {
			t.clamp = true
			g.call("TexParameteri", ev(gles.TEXTURE_2D), ev(pname), ev(wrap))
		}
	}
}

// subImage replaces a rectangle of level 0 with another pattern.
func (g *gen) subImage(t *texInfo, align int) {
	x, y := g.r.IntN(t.w), g.r.IntN(t.h)
	w, h := 1+g.r.IntN(t.w-x), 1+g.r.IntN(t.h-y)
	im := pattern(g.r, w, h)
	g.call("TexSubImage2D", ev(gles.TEXTURE_2D), iv(0), iv(x), iv(y), iv(w), iv(h), ev(t.format.format), ev(t.format.typ),
		dv(t.format.encode(im, align)))
	t.sub = true
}

// copyTexture copies part of the colour buffer into a texture (RGB or
// LUMINANCE: every surface has those components).
func (g *gen) copyTexture() {
	t := g.textures[g.r.IntN(len(g.textures))]
	g.activeTexture(g.r.IntN(2))
	g.call("BindTexture", ev(gles.TEXTURE_2D), iv(int(t.name)))
	g.units[g.active].tex = slices.Index(g.textures, t)
	if t.plain && g.chance(0.5) && (t.format.format == gles.RGB || t.format.format == gles.LUMINANCE) {
		w, h := 1+g.r.IntN(t.w), 1+g.r.IntN(t.h)
		w, h = min(w, g.w), min(h, g.h)
		x, y := g.r.IntN(t.w-w+1), g.r.IntN(t.h-h+1)
		g.call("CopyTexSubImage2D", ev(gles.TEXTURE_2D), iv(0), iv(x), iv(y), iv(g.r.IntN(g.w-w+1)), iv(g.r.IntN(g.h-h+1)), iv(w), iv(h))
		t.sub = true
		return
	}
	w, h := pick(g, 8, 16, 32), pick(g, 8, 16, 32)
	f := pick(g, gles.RGB, gles.LUMINANCE)
	g.call("CopyTexImage2D", ev(gles.TEXTURE_2D), iv(0), ev(f), iv(g.r.IntN(g.w-w+1)), iv(g.r.IntN(g.h-h+1)), iv(w), iv(h), iv(0))
	*t = texInfo{name: t.name, fam: FamTexRGBA8, rgb: f == gles.RGB, w: w, h: h, plain: true, sub: true,
		format: texFormat{f, gles.UNSIGNED_BYTE}, gen: t.gen, mipmaps: t.gen, linear: t.linear, clamp: t.clamp, mipmin: t.mipmin}
	if f == gles.LUMINANCE {
		t.fam = FamTexLumAlpha
	}
	t.complete = !t.mipmin || t.mipmaps
}
