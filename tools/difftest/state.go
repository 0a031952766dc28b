package difftest

import (
	"math"

	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// changeState changes random state groups before a draw; the first draw
// sets more of them.
func (g *gen) changeState(first bool) {
	p := 0.2
	if first {
		p = 0.6
	}
	for u := 0; u < 2; u++ {
		if len(g.textures) > 0 && g.chance(p) {
			g.textureUnit(u, first)
		}
	}
	if g.chance(p * 0.6) {
		g.lighting()
	}
	if g.chance(p * 0.4) {
		g.fog()
	}
	if g.chance(p * 0.4) {
		g.shade = pick(g, gles.FLAT, gles.SMOOTH)
		g.call("ShadeModel", ev(g.shade))
	}
	if g.chance(p * 0.35) {
		g.cull()
	}
	if g.chance(p * 0.15) {
		g.clipPlane()
	}
	if g.chance(p * 0.2) {
		g.polygonOffset()
	}
	if g.chance(p * 0.25) {
		g.scissor()
	}
	if g.chance(p * 0.35) {
		g.alphaTest()
	}
	if g.chance(p * 0.35) {
		g.stencilTest()
	}
	if g.chance(p * 0.9) {
		g.depthTest()
	}
	if g.chance(p * 0.5) {
		g.blend()
	}
	if g.chance(p * 0.12) {
		g.logicOp()
	}
	if g.chance(p * 0.2) {
		g.masks()
	}
	if g.chance(p * 0.15) {
		g.enable(gles.DITHER, !g.enabled[gles.DITHER])
	}
	if g.chance(p*0.4) && !g.viewport {
		g.points()
	}
	if g.chance(p*0.25) && !g.viewport {
		g.lineWidth = pick[float32](g, 1, 1.5, 2, 3, 4, maxLineWidth)
		g.call("LineWidth", fv(g.lineWidth))
	}
	if g.chance(p * 0.15) {
		g.call("Hint", ev(pick(g, gles.PERSPECTIVE_CORRECTION_HINT, gles.FOG_HINT, gles.POINT_SMOOTH_HINT, gles.LINE_SMOOTH_HINT)),
			ev(pick(g, gles.FASTEST, gles.NICEST, gles.DONT_CARE)))
	}
	if !first && g.chance(0.1) {
		g.setViewport()
	}
	if !first && g.chance(0.15) {
		g.call("PushMatrix")
		ax := g.unitVec()
		g.call("Rotatef", fv(round2(g.rng(-30, 30))), fv(round2(ax[0])), fv(round2(ax[1])), fv(round2(ax[2])))
		g.pendingPop = true
	}
}

// ---- texturing ----

var combineRGB = []gles.Enum{gles.REPLACE, gles.MODULATE, gles.ADD, gles.ADD_SIGNED, gles.INTERPOLATE, gles.SUBTRACT, gles.DOT3_RGB, gles.DOT3_RGBA}
var combineAlpha = []gles.Enum{gles.REPLACE, gles.MODULATE, gles.ADD, gles.ADD_SIGNED, gles.INTERPOLATE, gles.SUBTRACT}
var combineSources = []gles.Enum{gles.TEXTURE, gles.CONSTANT, gles.PRIMARY_COLOR, gles.PREVIOUS}
var operandsRGB = []gles.Enum{gles.SRC_COLOR, gles.ONE_MINUS_SRC_COLOR, gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA}
var operandsAlpha = []gles.Enum{gles.SRC_ALPHA, gles.ONE_MINUS_SRC_ALPHA}

func (g *gen) texEnv(pname gles.Enum, v trace.Value) {
	g.call("TexEnvi", ev(gles.TEXTURE_ENV), ev(pname), v)
}

// textureUnit changes unit u: enable, binding, environment, matrix.
func (g *gen) textureUnit(u int, first bool) {
	us := &g.units[u]
	g.activeTexture(u)
	on := g.chance([]float64{0.75, 0.45}[u])
	if on != us.enabled {
		us.enabled = on
		if on {
			g.call("Enable", ev(gles.TEXTURE_2D))
		} else {
			g.call("Disable", ev(gles.TEXTURE_2D))
		}
	}
	if !on {
		return
	}
	if us.tex < 0 || g.chance(0.3) {
		us.tex = g.r.IntN(len(g.textures))
		g.call("BindTexture", ev(gles.TEXTURE_2D), iv(int(g.textures[us.tex].name)))
	}
	t := g.textures[us.tex]
	modes := []gles.Enum{gles.MODULATE, gles.REPLACE, gles.DECAL, gles.BLEND, gles.ADD, gles.COMBINE}
	mode := modes[g.weighted(20, 8, 8, 8, 8, 40)]
	if mode == gles.DECAL && !t.rgb { // DECAL is undefined for other base formats (table 3.15)
		mode = gles.MODULATE
	}
	us.dot3 = false
	if mode != us.mode || g.chance(0.2) {
		g.texEnv(gles.TEXTURE_ENV_MODE, ev(mode))
		us.mode = mode
	}
	if mode == gles.BLEND || mode == gles.COMBINE || g.chance(0.1) {
		c := g.color(0)
		g.call("TexEnvfv", ev(gles.TEXTURE_ENV), ev(gles.TEXTURE_ENV_COLOR), vv(round2(c[0]), round2(c[1]), round2(c[2]), round2(c[3])))
	}
	if mode == gles.COMBINE {
		crgb := combineRGB[g.weighted(10, 14, 8, 6, 8, 6, 5, 3)]
		calpha := combineAlpha[g.weighted(10, 12, 6, 5, 6, 5)]
		us.dot3 = crgb == gles.DOT3_RGB || crgb == gles.DOT3_RGBA
		g.texEnv(gles.COMBINE_RGB, ev(crgb))
		g.texEnv(gles.COMBINE_ALPHA, ev(calpha))
		for i := 0; i < 3; i++ {
			if g.chance(0.8) {
				src := combineSources[g.weighted(4, 2, 3, 3)]
				if u == 0 && src == gles.PREVIOUS && g.chance(0.5) {
					src = gles.TEXTURE
				}
				g.texEnv(gles.SRC0_RGB+gles.Enum(i), ev(src))
			}
			if g.chance(0.6) {
				g.texEnv(gles.SRC0_ALPHA+gles.Enum(i), ev(combineSources[g.weighted(4, 2, 3, 3)]))
			}
			if g.chance(0.5) {
				g.texEnv(gles.OPERAND0_RGB+gles.Enum(i), ev(operandsRGB[g.weighted(6, 2, 2, 1)]))
			}
			if g.chance(0.4) {
				g.texEnv(gles.OPERAND0_ALPHA+gles.Enum(i), ev(operandsAlpha[g.weighted(3, 1)]))
			}
		}
		if g.chance(0.3) {
			g.call("TexEnvf", ev(gles.TEXTURE_ENV), ev(gles.RGB_SCALE), fv(pick[float32](g, 1, 2, 4)))
		}
		if g.chance(0.25) {
			g.call("TexEnvf", ev(gles.TEXTURE_ENV), ev(gles.ALPHA_SCALE), fv(pick[float32](g, 1, 2, 4)))
		}
	}
	if g.chance(0.25) || (first && g.chance(0.1)) {
		g.texMatrix(u)
	}
}

// texMatrix sets unit u's texture matrix to a random transform or back to
// identity.
func (g *gen) texMatrix(u int) {
	g.activeTexture(u)
	g.call("MatrixMode", ev(gles.TEXTURE))
	g.call("LoadIdentity")
	g.units[u].matrix = false
	if g.chance(0.75) {
		g.units[u].matrix = true
		switch g.r.IntN(3) {
		case 0:
			g.call("Translatef", fv(round2(g.rng(-1, 1))), fv(round2(g.rng(-1, 1))), fv(0))
		case 1:
			g.call("Rotatef", fv(round2(g.rng(-90, 90))), fv(0), fv(0), fv(1))
		default:
			g.call("Scalef", fv(round2(g.rng(0.5, 3))), fv(round2(g.rng(0.5, 3))), fv(1))
		}
	}
	g.call("MatrixMode", ev(gles.MODELVIEW))
}

// ---- lighting ----

func (g *gen) lighting() {
	on := g.chance(0.7)
	g.enable(gles.LIGHTING, on)
	if !on {
		return
	}
	W := g.world
	n := 1 + g.weighted(6, 4, 3, 2, 1, 1, 1, 1)
	for i := 0; i < 8; i++ {
		g.enable(gles.LIGHT0+gles.Enum(i), i < n)
	}
	g.lights = n
	g.spot = false
	scale := 1 / float32(math.Sqrt(float64(n)))
	for i := 0; i < n; i++ {
		l := ev(gles.LIGHT0 + gles.Enum(i))
		if g.chance(0.6) {
			c := g.color(1)
			g.call("Lightfv", l, ev(gles.DIFFUSE), vv(round2(c[0]*scale), round2(c[1]*scale), round2(c[2]*scale), 1))
		}
		if g.chance(0.4) {
			c := g.color(1)
			g.call("Lightfv", l, ev(gles.AMBIENT), vv(round2(c[0]*0.3), round2(c[1]*0.3), round2(c[2]*0.3), 1))
		}
		if g.chance(0.4) {
			c := g.color(1)
			g.call("Lightfv", l, ev(gles.SPECULAR), vv(round2(c[0]*scale), round2(c[1]*scale), round2(c[2]*scale), 1))
		}
		// Positions are given in eye space (identity model-view) or in
		// the scene's object space.
		eye := g.chance(0.6)
		if eye {
			g.call("PushMatrix")
			g.call("LoadIdentity")
		}
		centre := [3]float32{0, 0, 0}
		if eye {
			centre[2] = g.centre
		}
		if g.chance(0.5) { // directional
			d := g.unitVec()
			d[2] = float32(math.Abs(float64(d[2]))) + 0.3
			g.call("Lightfv", l, ev(gles.POSITION), vv(round2(d[0]), round2(d[1]), round2(d[2]), 0))
		} else {
			g.spot = true
			p := [3]float32{centre[0] + g.rng(-2, 2)*W, centre[1] + g.rng(-2, 2)*W, centre[2] + g.rng(0.5, 2.5)*W}
			g.call("Lightfv", l, ev(gles.POSITION), vv(round2(p[0]), round2(p[1]), round2(p[2]), 1))
			if g.chance(0.4) {
				d := [3]float32{centre[0] - p[0] + g.rng(-0.5, 0.5)*W, centre[1] - p[1] + g.rng(-0.5, 0.5)*W, centre[2] - p[2]}
				g.call("Lightfv", l, ev(gles.SPOT_DIRECTION), vv(round2(d[0]/W), round2(d[1]/W), round2(d[2]/W)))
				g.call("Lightf", l, ev(gles.SPOT_CUTOFF), fv(float32(15+g.r.IntN(76))))
				if g.chance(0.6) {
					g.call("Lightf", l, ev(gles.SPOT_EXPONENT), fv(float32(g.r.IntN(33))))
				}
			}
			if g.chance(0.5) {
				g.call("Lightf", l, ev(gles.CONSTANT_ATTENUATION), fv(round2(g.rng(0.5, 1.5))))
				g.call("Lightf", l, ev(gles.LINEAR_ATTENUATION), fv(g.rng(0, 0.4)/W))
				if g.chance(0.5) {
					g.call("Lightf", l, ev(gles.QUADRATIC_ATTENUATION), fv(g.rng(0, 0.1)/(W*W)))
				}
			}
		}
		if eye {
			g.call("PopMatrix")
		}
	}
	if g.chance(0.4) {
		c := g.color(1)
		g.call("LightModelfv", ev(gles.LIGHT_MODEL_AMBIENT), vv(round2(c[0]*0.4), round2(c[1]*0.4), round2(c[2]*0.4), 1))
	}
	if g.chance(0.3) {
		g.twoSide = !g.twoSide
		g.call("LightModelf", ev(gles.LIGHT_MODEL_TWO_SIDE), fv(map[bool]float32{true: 1, false: 0}[g.twoSide]))
	}
	for _, pn := range []gles.Enum{gles.AMBIENT, gles.DIFFUSE, gles.SPECULAR, gles.EMISSION, gles.AMBIENT_AND_DIFFUSE} {
		if g.chance(0.35) {
			c := g.color(0)
			k := float32(1)
			if pn == gles.EMISSION {
				k = 0.3
			}
			g.call("Materialfv", ev(gles.FRONT_AND_BACK), ev(pn), vv(round2(c[0]*k), round2(c[1]*k), round2(c[2]*k), round2(c[3])))
		}
	}
	if g.chance(0.4) {
		g.call("Materialf", ev(gles.FRONT_AND_BACK), ev(gles.SHININESS), fv(float32(g.r.IntN(129))))
	}
	if g.chance(0.3) {
		g.enable(gles.COLOR_MATERIAL, !g.enabled[gles.COLOR_MATERIAL])
	}
	if g.chance(0.4) {
		switch g.r.IntN(3) {
		case 0:
			g.enable(gles.NORMALIZE, true)
			g.enable(gles.RESCALE_NORMAL, false)
		case 1:
			g.enable(gles.NORMALIZE, false)
			g.enable(gles.RESCALE_NORMAL, true)
		default:
			g.enable(gles.NORMALIZE, false)
			g.enable(gles.RESCALE_NORMAL, false)
		}
	}
}

// ---- fog ----

func (g *gen) fog() {
	on := g.chance(0.75)
	g.enable(gles.FOG, on)
	if !on {
		return
	}
	mode := pick(g, gles.LINEAR, gles.EXP, gles.EXP2)
	if mode != gles.EXP || g.chance(0.3) {
		g.call("Fogf", ev(gles.FOG_MODE), fv(float32(mode)))
	}
	span := g.eyeFar - g.eyeNear
	switch mode {
	case gles.LINEAR:
		start := g.eyeNear + g.rng(-0.3, 0.5)*span
		end := start + g.rng(0.3, 1.2)*span
		g.call("Fogf", ev(gles.FOG_START), fv(start))
		g.call("Fogf", ev(gles.FOG_END), fv(end))
	default:
		mid := (g.eyeNear + g.eyeFar) / 2
		g.call("Fogf", ev(gles.FOG_DENSITY), fv(g.rng(0.15, 1.5)/mid))
	}
	c := g.color(0)
	g.call("Fogfv", ev(gles.FOG_COLOR), vv(round2(c[0]), round2(c[1]), round2(c[2]), round2(c[3])))
}

// ---- rasterisation ----

func (g *gen) cull() {
	on := g.chance(0.75)
	g.enable(gles.CULL_FACE, on)
	if on {
		g.call("CullFace", ev([]gles.Enum{gles.BACK, gles.FRONT, gles.FRONT_AND_BACK}[g.weighted(5, 4, 1)]))
	}
	if g.chance(0.4) {
		g.call("FrontFace", ev(pick(g, gles.CW, gles.CCW)))
	}
}

func (g *gen) clipPlane() {
	on := g.chance(0.75)
	g.enable(gles.CLIP_PLANE0, on)
	if !on {
		return
	}
	// A plane through a point near the geometry, given in eye space or in
	// object space.
	W := g.world
	n := g.unitVec()
	p := [3]float32{g.rng(-0.5, 0.5) * W, g.rng(-0.5, 0.5) * W, g.rng(-0.5, 0.5) * W}
	eye := g.chance(0.5)
	if eye {
		g.call("PushMatrix")
		g.call("LoadIdentity")
		p[2] += g.centre
	}
	d := -(n[0]*p[0] + n[1]*p[1] + n[2]*p[2])
	g.call("ClipPlanef", ev(gles.CLIP_PLANE0), vv(round2(n[0]), round2(n[1]), round2(n[2]), d))
	if eye {
		g.call("PopMatrix")
	}
}

func (g *gen) polygonOffset() {
	on := g.chance(0.75)
	g.enable(gles.POLYGON_OFFSET_FILL, on)
	g.offset = on
	if on {
		g.call("PolygonOffset", fv(pick[float32](g, 0, 1, -1, 2, -2)), fv(pick[float32](g, 0, 1, -1, 4, -4)))
	}
}

func (g *gen) scissor() {
	on := g.chance(0.75)
	g.enable(gles.SCISSOR_TEST, on)
	if on {
		x, y := g.r.IntN(g.w/2), g.r.IntN(g.h/2)
		g.call("Scissor", iv(x), iv(y), iv(g.w/4+g.r.IntN(g.w-x-g.w/4+1)), iv(g.h/4+g.r.IntN(g.h-y-g.h/4+1)))
	}
}

var compareFuncs = []gles.Enum{gles.NEVER, gles.LESS, gles.EQUAL, gles.LEQUAL, gles.GREATER, gles.NOTEQUAL, gles.GEQUAL, gles.ALWAYS}

func (g *gen) alphaTest() {
	on := g.chance(0.75)
	g.enable(gles.ALPHA_TEST, on)
	if on {
		f := compareFuncs[g.weighted(1, 3, 1, 3, 4, 2, 4, 1)]
		g.call("AlphaFunc", ev(f), fv(round2(g.rng(0.1, 0.9))))
	}
}

var stencilOps = []gles.Enum{gles.KEEP, gles.ZERO, gles.REPLACE, gles.INCR, gles.DECR, gles.INVERT, gles.INCR_WRAP, gles.DECR_WRAP}

func (g *gen) stencilTest() {
	on := g.chance(0.75)
	g.enable(gles.STENCIL_TEST, on)
	if !on {
		return
	}
	f := compareFuncs[g.weighted(1, 2, 3, 2, 2, 3, 2, 4)]
	g.call("StencilFunc", ev(f), iv(g.r.IntN(256)), iv(pick(g, 255, 255, 15, 0xF0, 1)))
	var ops [3]gles.Enum
	for i := range ops {
		ops[i] = stencilOps[g.weighted(4, 1, 4, 2, 2, 2, 1, 1)]
		if ops[i] == gles.INCR_WRAP || ops[i] == gles.DECR_WRAP {
			g.needs[extStencilWrap] = true
		}
	}
	g.call("StencilOp", ev(ops[0]), ev(ops[1]), ev(ops[2]))
}

func (g *gen) depthTest() {
	on := g.chance(0.8)
	if g.depth == 0 {
		on = g.chance(0.4)
	}
	g.enable(gles.DEPTH_TEST, on)
	if on && g.chance(0.6) {
		g.call("DepthFunc", ev(compareFuncs[g.weighted(1, 6, 1, 4, 2, 1, 2, 2)]))
	}
}

var srcFactors = []gles.Enum{gles.ZERO, gles.ONE, gles.DST_COLOR, gles.ONE_MINUS_DST_COLOR, gles.SRC_ALPHA,
	gles.ONE_MINUS_SRC_ALPHA, gles.DST_ALPHA, gles.ONE_MINUS_DST_ALPHA, gles.SRC_ALPHA_SATURATE}
var dstFactors = []gles.Enum{gles.ZERO, gles.ONE, gles.SRC_COLOR, gles.ONE_MINUS_SRC_COLOR, gles.SRC_ALPHA,
	gles.ONE_MINUS_SRC_ALPHA, gles.DST_ALPHA, gles.ONE_MINUS_DST_ALPHA}

func (g *gen) blend() {
	on := g.chance(0.8)
	g.enable(gles.BLEND, on)
	if !on {
		return
	}
	src := srcFactors[g.weighted(1, 3, 1, 1, 6, 1, 1, 1, 1)]
	dst := dstFactors[g.weighted(1, 3, 1, 1, 1, 6, 1, 1)]
	switch g.weighted(10, 2, 1, 1) {
	case 0:
		g.call("BlendFunc", ev(src), ev(dst))
	case 1:
		g.blendExt = true
		g.call("BlendFunc", ev(src), ev(dst))
		g.call("BlendEquationOES", ev(pick(g, gles.FUNC_ADD_OES, gles.FUNC_SUBTRACT_OES, gles.FUNC_REVERSE_SUBTRACT_OES, gles.MIN_EXT, gles.MAX_EXT)))
	case 2:
		g.blendExt = true
		g.needs[extFuncSeparate] = true
		g.call("BlendFuncSeparateOES", ev(src), ev(dst), ev(srcFactors[g.r.IntN(len(srcFactors))]), ev(dstFactors[g.r.IntN(len(dstFactors))]))
	default:
		g.blendExt = true
		g.needs[extEquationSeparate] = true
		g.call("BlendFunc", ev(src), ev(dst))
		eqs := []gles.Enum{gles.FUNC_ADD_OES, gles.FUNC_SUBTRACT_OES, gles.FUNC_REVERSE_SUBTRACT_OES, gles.MIN_EXT, gles.MAX_EXT}
		g.call("BlendEquationSeparateOES", ev(pick(g, eqs...)), ev(pick(g, eqs...)))
	}
}

var logicOps = []gles.Enum{gles.CLEAR, gles.AND, gles.AND_REVERSE, gles.COPY, gles.AND_INVERTED, gles.NOOP, gles.XOR, gles.OR,
	gles.NOR, gles.EQUIV, gles.INVERT, gles.OR_REVERSE, gles.COPY_INVERTED, gles.OR_INVERTED, gles.NAND, gles.SET}

func (g *gen) logicOp() {
	on := g.chance(0.75)
	g.enable(gles.COLOR_LOGIC_OP, on)
	if on {
		g.call("LogicOp", ev(logicOps[g.r.IntN(len(logicOps))]))
	}
}

func (g *gen) masks() {
	switch g.r.IntN(4) {
	case 0:
		m := [4]bool{g.chance(0.7), g.chance(0.7), g.chance(0.7), g.chance(0.7)}
		g.call("ColorMask", bv(m[0]), bv(m[1]), bv(m[2]), bv(m[3]))
		g.colorMask = !(m[0] && m[1] && m[2] && m[3])
	case 1:
		g.depthMask = g.chance(0.5)
		g.call("DepthMask", bv(!g.depthMask))
	case 2:
		m := pick(g, 0, 1, 0xF0, 0x0F, 255)
		g.stencilMask = m != 255
		g.call("StencilMask", iv(m))
	default:
		g.call("ColorMask", bv(true), bv(true), bv(true), bv(true))
		g.call("DepthMask", bv(true))
		g.colorMask, g.depthMask = false, false
	}
}

// points sets the point size, its parameters and point sprites.
func (g *gen) points() {
	if g.chance(0.7) {
		g.call("PointSize", fv(pick[float32](g, 1, 2, 3, 4.5, 6, 8, 12, 16, maxPointSize)))
	}
	if g.chance(0.3) {
		g.pointPar = true
		W := g.world
		g.call("PointParameterfv", ev(gles.POINT_DISTANCE_ATTENUATION), vv(round2(g.rng(0.2, 1.5)), g.rng(0, 0.5)/W, g.rng(0, 0.1)/(W*W)))
	}
	if g.chance(0.2) {
		g.pointPar = true
		g.call("PointParameterf", ev(gles.POINT_SIZE_MIN), fv(pick[float32](g, 0, 1, 2, 4)))
	}
	if g.chance(0.2) {
		g.pointPar = true
		g.call("PointParameterf", ev(gles.POINT_SIZE_MAX), fv(pick[float32](g, 4, 8, 16, maxPointSize)))
	}
	if g.chance(0.1) {
		g.call("PointParameterf", ev(gles.POINT_FADE_THRESHOLD_SIZE), fv(pick[float32](g, 0, 1, 4)))
	}
	if g.chance(0.5) {
		on := g.chance(0.7)
		g.enable(gles.POINT_SPRITE_OES, on)
		for u := 0; u < 2; u++ {
			if g.chance(0.6) {
				g.activeTexture(u)
				g.units[u].sprite = g.chance(0.75)
				g.call("TexEnvi", ev(gles.POINT_SPRITE_OES), ev(gles.COORD_REPLACE_OES), iv(map[bool]int{true: 1, false: 0}[g.units[u].sprite]))
			}
		}
	}
}

// midClear clears some buffers between draws, under the scissor and the
// write masks in effect.
func (g *gen) midClear() {
	if g.chance(0.5) {
		g.call("ClearColor", fv(round2(g.rng(0, 1))), fv(round2(g.rng(0, 1))), fv(round2(g.rng(0, 1))), fv(round2(g.rng(0, 1))))
	}
	names := []string{"COLOR_BUFFER_BIT", "DEPTH_BUFFER_BIT", "STENCIL_BUFFER_BIT"}
	var mask string
	for _, n := range names {
		if g.chance(0.5) {
			if mask != "" {
				mask += "|"
			}
			mask += n
		}
	}
	if mask == "" {
		mask = names[0]
	}
	g.call("Clear", trace.Value{Kind: trace.Name, Text: mask})
	g.fam = g.fam.With(FamClear)
}
