package difftest

import (
	"encoding/binary"
	"math"

	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// drawSpec is a draw as issued, kept so a later draw can repeat it (a
// second pass over the same geometry, as multi-pass programs do).
type drawSpec struct {
	call trace.Call
	mode gles.Enum
	// The arrays it read: position type, colour/normal/texcoord/size
	// sources.
	types     Families
	buffers   bool
	client    bool
	elements  bool
	colorArr  bool
	normalArr bool
	texArr    [2]bool
	sizeArr   bool
}

// attrib is one vertex array of a draw.
type attrib struct {
	array gles.Enum // VERTEX_ARRAY, ...
	unit  int       // texture unit of a TEXTURE_COORD_ARRAY
	size  int
	typ   gles.Enum
	data  [][]float32 // per vertex, already scaled to the type's units
	// where it lives
	vbo    bool
	buffer uint32
	offset int
	stride int
	packed []byte // client bytes
}

func typeSize(t gles.Enum) int {
	switch t {
	case gles.BYTE, gles.UNSIGNED_BYTE:
		return 1
	case gles.SHORT:
		return 2
	}
	return 4
}

func typeFamily(t gles.Enum) Family {
	switch t {
	case gles.BYTE:
		return FamByte
	case gles.SHORT:
		return FamShort
	case gles.FIXED:
		return FamFixed
	}
	return FamFloat
}

// put writes one component.
func put(b []byte, t gles.Enum, v float32) {
	switch t {
	case gles.BYTE:
		b[0] = byte(int8(max(min(math.Round(float64(v)), 127), -128)))
	case gles.UNSIGNED_BYTE:
		b[0] = byte(max(min(math.Round(float64(v)), 255), 0))
	case gles.SHORT:
		binary.LittleEndian.PutUint16(b, uint16(int16(max(min(math.Round(float64(v)), 32767), -32768))))
	case gles.FIXED:
		binary.LittleEndian.PutUint32(b, uint32(int32(max(min(math.Round(float64(v)*65536), math.MaxInt32), math.MinInt32))))
	default:
		binary.LittleEndian.PutUint32(b, math.Float32bits(v))
	}
}

func (a *attrib) elemSize() int { return a.size * typeSize(a.typ) }

// pack writes the attribute's vertices into buf at offset with stride.
func (a *attrib) pack(buf []byte, offset, stride int) {
	ts := typeSize(a.typ)
	for v, comps := range a.data {
		for c, x := range comps {
			put(buf[offset+v*stride+c*ts:], a.typ, x)
		}
	}
}

// geometry makes n canonical vertex positions (object units, before the
// world scale) for mode.
func (g *gen) geometry(mode gles.Enum, n int) [][3]float32 {
	out := make([][3]float32, 0, n)
	switch mode {
	case gles.TRIANGLES:
		for len(out) < n {
			c := [3]float32{g.rng(-0.7, 0.7), g.rng(-0.7, 0.7), g.rng(-0.7, 0.7)}
			r := g.rng(0.3, 1)
			for k := 0; k < 3; k++ {
				out = append(out, [3]float32{c[0] + r*g.rng(-1, 1), c[1] + r*g.rng(-1, 1), c[2] + g.rng(-0.3, 0.3)})
			}
		}
	case gles.TRIANGLE_STRIP:
		a := g.rng(0, 2*math.Pi)
		dx, dy := float32(math.Cos(float64(a))), float32(math.Sin(float64(a)))
		wdt := g.rng(0.3, 0.8)
		start := g.rng(-1, -0.5)
		step := g.rng(1.2, 2.2) / float32(n)
		z := g.rng(-0.5, 0.5)
		dz := g.rng(-0.4, 0.4) / float32(n)
		for i := 0; i < n; i++ {
			along := start + float32(i)*step
			side := wdt * (float32(i%2) - 0.5)
			out = append(out, [3]float32{along*dx - side*dy + g.rng(-0.1, 0.1), along*dy + side*dx + g.rng(-0.1, 0.1), z + float32(i)*dz})
		}
	case gles.TRIANGLE_FAN:
		c := [3]float32{g.rng(-0.4, 0.4), g.rng(-0.4, 0.4), g.rng(-0.5, 0.5)}
		out = append(out, c)
		a0 := g.rng(0, 2*math.Pi)
		sweep := g.rng(1.5, 2*math.Pi)
		if g.chance(0.3) {
			sweep = -sweep
		}
		for i := 1; i < n; i++ {
			a := a0 + sweep*float32(i-1)/float32(n-1)
			r := g.rng(0.4, 1)
			out = append(out, [3]float32{c[0] + r*float32(math.Cos(float64(a))), c[1] + r*float32(math.Sin(float64(a))), c[2] + g.rng(-0.3, 0.3)})
		}
	default: // points and lines
		for i := 0; i < n; i++ {
			out = append(out, [3]float32{g.rng(-0.9, 0.9), g.rng(-0.9, 0.9), g.rng(-0.8, 0.8)})
		}
	}
	return out
}

var modes = []gles.Enum{gles.POINTS, gles.LINES, gles.LINE_STRIP, gles.LINE_LOOP, gles.TRIANGLES, gles.TRIANGLE_STRIP, gles.TRIANGLE_FAN}

// draw issues one draw: a new one, or the previous one again.
func (g *gen) draw(repeat bool) {
	defer func() {
		if g.pendingPop {
			g.call("PopMatrix")
			g.pendingPop = false
		}
		g.draws++
	}()
	if repeat {
		d := g.lastDraw
		g.calls = append(g.calls, d.call)
		g.noteDraw(d)
		return
	}
	mode := modes[g.weighted(14, 7, 6, 5, 30, 16, 12)]
	var n int
	switch mode {
	case gles.POINTS:
		n = 1 + g.r.IntN(16)
	case gles.LINES:
		n = 2 * (1 + g.r.IntN(6))
	case gles.LINE_STRIP, gles.LINE_LOOP:
		n = 2 + g.r.IntN(7)
	case gles.TRIANGLES:
		n = 3 * (1 + g.r.IntN(4))
	default:
		n = 3 + g.r.IntN(6)
	}
	if mode == gles.POINTS && (g.units[0].enabled || g.units[1].enabled) && g.chance(0.4) {
		// Point sprites need points and a texture: set them up here, as
		// the random state changes rarely meet.
		g.enable(gles.POINT_SPRITE_OES, true)
		for u := 0; u < 2; u++ {
			if g.units[u].enabled && g.chance(0.8) != g.units[u].sprite {
				g.activeTexture(u)
				g.units[u].sprite = !g.units[u].sprite
				g.call("TexEnvi", ev(gles.POINT_SPRITE_OES), ev(gles.COORD_REPLACE_OES), iv(map[bool]int{true: 1, false: 0}[g.units[u].sprite]))
			}
		}
		if g.chance(0.5) && !g.viewport {
			g.call("PointSize", fv(pick[float32](g, 4, 6, 8, 12, 16, maxPointSize)))
		}
	}
	pos := g.geometry(mode, n)
	d := &drawSpec{mode: mode}
	W := g.world

	// Position.
	var posTypes []gles.Enum
	switch W {
	case 1:
		posTypes = []gles.Enum{gles.FIXED, gles.FLOAT}
	case 64:
		posTypes = []gles.Enum{gles.BYTE, gles.SHORT, gles.FIXED, gles.FLOAT}
	default:
		posTypes = []gles.Enum{gles.SHORT, gles.FIXED, gles.FLOAT}
	}
	pa := &attrib{array: gles.VERTEX_ARRAY, typ: pick(g, posTypes...), size: []int{2, 3, 4}[g.weighted(2, 6, 2)]}
	for _, p := range pos {
		v := []float32{p[0] * W, p[1] * W, p[2] * W}
		switch pa.size {
		case 2:
			v = v[:2]
		case 4:
			// w != 1 only where no eye distance is used: fog, lighting and
			// point attenuation may take |z_e| or the distance of the
			// divided position (GL leaves it to approximation, ES 1.1
			// sections 2.12.1, 3.3, 3.8), and implementations differ.
			w := float32(1)
			eyeDist := g.enabled[gles.FOG] || g.enabled[gles.LIGHTING] || (mode == gles.POINTS && g.pointPar)
			switch {
			case eyeDist:
			case pa.typ == gles.FLOAT || pa.typ == gles.FIXED:
				w = pick[float32](g, 0.5, 1, 1.5, 2)
			case pa.typ == gles.SHORT && W == 64:
				w = pick[float32](g, 1, 2, 4)
			}
			v = []float32{v[0] * w, v[1] * w, v[2] * w, w}
		}
		pa.data = append(pa.data, v)
	}
	attrs := []*attrib{pa}

	// Colour.
	if g.chance(0.6) {
		a := &attrib{array: gles.COLOR_ARRAY, size: 4, typ: pick(g, gles.UNSIGNED_BYTE, gles.UNSIGNED_BYTE, gles.FIXED, gles.FLOAT)}
		k := float32(1)
		if a.typ == gles.UNSIGNED_BYTE {
			k = 255
		}
		for range pos {
			c := g.color(0.2)
			a.data = append(a.data, []float32{c[0] * k, c[1] * k, c[2] * k, c[3] * k})
		}
		attrs = append(attrs, a)
		d.colorArr = true
	} else if !g.curColor || g.chance(0.5) {
		// After a draw from a colour array the current colour is
		// undefined (ES 1.1 section 2.8): it is given again.
		g.curColor = true
		c := g.color(0.2)
		if g.chance(0.3) {
			g.call("Color4ub", iv(int(c[0]*255)), iv(int(c[1]*255)), iv(int(c[2]*255)), iv(int(c[3]*255)))
		} else {
			g.call("Color4f", fv(round2(c[0])), fv(round2(c[1])), fv(round2(c[2])), fv(round2(c[3])))
		}
	}

	// Normal.
	if g.chance(map[bool]float64{true: 0.75, false: 0.2}[g.enabled[gles.LIGHTING]]) {
		a := &attrib{array: gles.NORMAL_ARRAY, size: 3, typ: pick(g, gles.BYTE, gles.SHORT, gles.FIXED, gles.FLOAT)}
		unnorm := g.enabled[gles.NORMALIZE] && g.chance(0.5)
		for range pos {
			n := g.unitVec()
			n[2] = float32(math.Abs(float64(n[2]))) + 0.8
			l := float32(math.Sqrt(float64(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])))
			if unnorm {
				l /= g.rng(0.5, 2)
			}
			v := []float32{n[0] / l, n[1] / l, n[2] / l}
			switch a.typ {
			case gles.BYTE: // c = ((2^8-1) f - 1) / 2, the inverse of table 2.7
				for i := range v {
					v[i] = (v[i]*255 - 1) / 2
				}
			case gles.SHORT:
				for i := range v {
					v[i] = (v[i]*65535 - 1) / 2
				}
			}
			a.data = append(a.data, v)
		}
		attrs = append(attrs, a)
		d.normalArr = true
	} else if !g.curNormal || (g.enabled[gles.LIGHTING] && g.chance(0.6)) {
		g.curNormal = true
		n := g.unitVec()
		n[2] = float32(math.Abs(float64(n[2]))) + 0.5
		l := float32(math.Sqrt(float64(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])))
		g.call("Normal3f", fv(round2(n[0]/l)), fv(round2(n[1]/l)), fv(round2(n[2]/l)))
	}

	// Texture coordinates: an affine function of the position, so the
	// texture varies smoothly over the primitive.
	for u := 0; u < 2; u++ {
		if !g.units[u].enabled {
			continue
		}
		if g.chance(0.8) {
			a := &attrib{array: gles.TEXTURE_COORD_ARRAY, unit: u, typ: pick(g, gles.BYTE, gles.SHORT, gles.FIXED, gles.FLOAT, gles.FLOAT),
				size: []int{2, 3, 4}[g.weighted(7, 1, 2)]}
			ms, mt := [3]float32{g.rng(-1.5, 1.5), g.rng(-1.5, 1.5), 0}, [3]float32{g.rng(-1.5, 1.5), g.rng(-1.5, 1.5), 0}
			bs, bt := g.rng(-0.5, 1), g.rng(-0.5, 1)
			scale := float32(1)
			if a.typ == gles.BYTE || a.typ == gles.SHORT {
				if g.chance(0.5) { // integer coordinates scaled back by the texture matrix
					scale = map[gles.Enum]float32{gles.BYTE: 16, gles.SHORT: 1024}[a.typ]
					g.activeTexture(u)
					g.call("MatrixMode", ev(gles.TEXTURE))
					g.call("LoadIdentity")
					g.call("Scalef", fv(1/scale), fv(1/scale), fv(1))
					g.call("MatrixMode", ev(gles.MODELVIEW))
					g.units[u].matrix = true
				} else {
					ms, mt = [3]float32{g.rng(-2, 2), g.rng(-2, 2), 0}, [3]float32{g.rng(-2, 2), g.rng(-2, 2), 0}
				}
			}
			for _, p := range pos {
				s := (ms[0]*p[0] + ms[1]*p[1] + bs) * scale
				t := (mt[0]*p[0] + mt[1]*p[1] + bt) * scale
				v := []float32{s, t, 0, 1}
				if a.size == 4 && (a.typ == gles.FLOAT || a.typ == gles.FIXED) && g.chance(0.5) {
					q := pick[float32](g, 0.5, 2)
					v = []float32{s * q, t * q, 0, q}
				}
				a.data = append(a.data, v[:a.size])
			}
			attrs = append(attrs, a)
			d.texArr[u] = true
		} else if !g.curTex[u] || g.chance(0.7) {
			g.curTex[u] = true
			g.call("MultiTexCoord4f", ev(gles.TEXTURE0+gles.Enum(u)), fv(round2(g.rng(0, 1))), fv(round2(g.rng(0, 1))), fv(0), fv(1))
		}
	}

	// Point sizes.
	if mode == gles.POINTS && g.chance(0.3) && !g.viewport {
		a := &attrib{array: gles.POINT_SIZE_ARRAY_OES, size: 1, typ: pick(g, gles.FIXED, gles.FLOAT)}
		for range pos {
			a.data = append(a.data, []float32{float32(1+g.r.IntN(4*(maxPointSize-1))) / 4})
		}
		attrs = append(attrs, a)
		d.sizeArr = true
	}

	g.storeArrays(attrs, d)
	// The arrays this draw reads leave their current values undefined.
	if d.colorArr {
		g.curColor = false
	}
	if d.normalArr {
		g.curNormal = false
	}
	for u := range d.texArr {
		if d.texArr[u] {
			g.curTex[u] = false
		}
	}

	// Indices or a first vertex.
	if g.chance(0.35) {
		d.elements = true
		perm := g.r.Perm(n)
		pool := len(perm)
		idx := make([]int, n)
		// Vertex i of the primitive sits at pool slot perm[i]: reorder
		// the arrays accordingly.
		for _, a := range attrs {
			data := make([][]float32, pool)
			for i, v := range a.data {
				data[perm[i]] = v
			}
			a.data = data
		}
		for i := range idx {
			idx[i] = perm[i]
		}
		typ := pick(g, gles.UNSIGNED_BYTE, gles.UNSIGNED_SHORT)
		ib := make([]byte, n*typeSize(typ))
		for i, x := range idx {
			if typ == gles.UNSIGNED_BYTE {
				ib[i] = byte(x)
			} else {
				binary.LittleEndian.PutUint16(ib[2*i:], uint16(x))
			}
		}
		g.emitArrays(attrs, d, 0)
		if g.chance(0.4) {
			b := g.genBuffer()
			g.bindBuffer(gles.ELEMENT_ARRAY_BUFFER, b)
			g.call("BufferData", ev(gles.ELEMENT_ARRAY_BUFFER), dv(ib), ev(gles.STATIC_DRAW))
			d.buffers = true
			d.call = trace.Call{Name: "DrawElements", Args: []trace.Value{ev(mode), iv(n), ev(typ), iv(0)}}
		} else {
			g.bindBuffer(gles.ELEMENT_ARRAY_BUFFER, 0)
			d.call = trace.Call{Name: "DrawElements", Args: []trace.Value{ev(mode), iv(n), ev(typ), dv(ib)}}
		}
	} else {
		first := 0
		if g.chance(0.2) {
			first = 1 + g.r.IntN(3)
		}
		g.emitArrays(attrs, d, first)
		d.call = trace.Call{Name: "DrawArrays", Args: []trace.Value{ev(mode), iv(first), iv(n)}}
	}
	d.call.Args[0] = primValue(mode)
	g.calls = append(g.calls, d.call)
	g.lastDraw = d
	g.noteDraw(d)
}

var primNames = map[gles.Enum]string{gles.POINTS: "POINTS", gles.LINES: "LINES", gles.LINE_LOOP: "LINE_LOOP",
	gles.LINE_STRIP: "LINE_STRIP", gles.TRIANGLES: "TRIANGLES", gles.TRIANGLE_STRIP: "TRIANGLE_STRIP", gles.TRIANGLE_FAN: "TRIANGLE_FAN"}

// primValue names a primitive mode (POINTS shares 0 with ZERO).
func primValue(m gles.Enum) trace.Value { return trace.Value{Kind: trace.Name, Text: primNames[m]} }

// storeArrays decides where each attribute lives: client memory, its own
// buffer object, or one interleaved buffer object.
func (g *gen) storeArrays(attrs []*attrib, d *drawSpec) {
	interleave := g.chance(0.4)
	var shared []*attrib
	for _, a := range attrs {
		if g.chance(0.45) {
			a.vbo = true
			d.buffers = true
			if interleave {
				shared = append(shared, a)
			}
		} else {
			d.client = true
		}
		d.types = d.types.With(typeFamily(a.typ))
	}
	g.interleaved = shared
}

// emitArrays writes the buffer objects and the client-state and Pointer
// calls; first leading vertices are padding (DrawArrays first > 0).
func (g *gen) emitArrays(attrs []*attrib, d *drawSpec, first int) {
	for _, a := range attrs {
		if first > 0 {
			pad := make([][]float32, first)
			for i := range pad {
				pad[i] = make([]float32, a.size)
			}
			a.data = append(pad, a.data...)
		}
	}
	nv := len(attrs[0].data)
	// One interleaved buffer for the shared attributes.
	if len(g.interleaved) > 0 {
		stride := 0
		for _, a := range g.interleaved {
			a.offset = stride
			stride += (a.elemSize() + 3) &^ 3
		}
		if g.chance(0.3) {
			stride += 4
		}
		buf := make([]byte, stride*nv)
		for _, a := range g.interleaved {
			a.stride = stride
			a.pack(buf, a.offset, stride)
		}
		b := g.genBuffer()
		for _, a := range g.interleaved {
			a.buffer = b
		}
		g.bindBuffer(gles.ARRAY_BUFFER, b)
		g.call("BufferData", ev(gles.ARRAY_BUFFER), dv(buf), ev(pick(g, gles.STATIC_DRAW, gles.DYNAMIC_DRAW)))
	}
	// The others: their own buffer, or client memory.
	for _, a := range attrs {
		if a.buffer != 0 {
			continue
		}
		es := a.elemSize()
		stride := 0
		if g.chance(0.25) {
			stride = ((es + 3) &^ 3) + pick(g, 0, 4, 8)
		}
		step := stride
		if step == 0 {
			step = es
		}
		buf := make([]byte, step*(nv-1)+es)
		a.pack(buf, 0, step)
		a.stride = stride
		if a.vbo {
			b := g.genBuffer()
			a.buffer = b
			g.bindBuffer(gles.ARRAY_BUFFER, b)
			if g.chance(0.2) {
				g.call("BufferData", ev(gles.ARRAY_BUFFER), iv(len(buf)), ev(gles.DYNAMIC_DRAW))
				g.call("BufferSubData", ev(gles.ARRAY_BUFFER), iv(0), dv(buf))
			} else {
				g.call("BufferData", ev(gles.ARRAY_BUFFER), dv(buf), ev(gles.STATIC_DRAW))
			}
		} else {
			a.data = nil
			a.packed = buf
		}
	}
	// Client state and pointers.
	used := map[gles.Enum]bool{}
	usedTex := [2]bool{}
	for _, a := range attrs {
		var ptr trace.Value
		if a.buffer != 0 {
			g.bindBuffer(gles.ARRAY_BUFFER, a.buffer)
			ptr = iv(a.offset)
		} else {
			g.bindBuffer(gles.ARRAY_BUFFER, 0)
			ptr = dv(a.packed)
		}
		switch a.array {
		case gles.VERTEX_ARRAY:
			g.call("VertexPointer", iv(a.size), ev(a.typ), iv(a.stride), ptr)
		case gles.COLOR_ARRAY:
			g.call("ColorPointer", iv(a.size), ev(a.typ), iv(a.stride), ptr)
		case gles.NORMAL_ARRAY:
			g.call("NormalPointer", ev(a.typ), iv(a.stride), ptr)
		case gles.POINT_SIZE_ARRAY_OES:
			g.call("PointSizePointerOES", ev(a.typ), iv(a.stride), ptr)
		case gles.TEXTURE_COORD_ARRAY:
			g.clientActive(a.unit)
			g.call("TexCoordPointer", iv(a.size), ev(a.typ), iv(a.stride), ptr)
			g.clientState(gles.TEXTURE_COORD_ARRAY, true)
			usedTex[a.unit] = true
			continue
		}
		g.clientState(a.array, true)
		used[a.array] = true
	}
	for _, arr := range []gles.Enum{gles.COLOR_ARRAY, gles.NORMAL_ARRAY, gles.POINT_SIZE_ARRAY_OES} {
		if !used[arr] && g.clientOn[arr] {
			g.clientState(arr, false)
		}
	}
	for u := 0; u < 2; u++ {
		if !usedTex[u] && g.texOn[u] {
			g.clientActive(u)
			g.clientState(gles.TEXTURE_COORD_ARRAY, false)
		}
	}
	if g.chance(0.3) {
		g.bindBuffer(gles.ARRAY_BUFFER, 0)
	}
	g.interleaved = nil
}

// noteDraw adds the families in effect at a draw.
func (g *gen) noteDraw(d *drawSpec) {
	f := g.fam | d.types
	switch d.mode {
	case gles.POINTS:
		f = f.With(FamPoints)
	case gles.LINES, gles.LINE_STRIP, gles.LINE_LOOP:
		f = f.With(FamLines)
	default:
		f = f.With(FamTriangles)
	}
	tri := d.mode >= gles.TRIANGLES
	if d.elements {
		f = f.With(FamDrawElements)
	}
	if d.buffers {
		f = f.With(FamBufferObjects)
	}
	if d.client {
		f = f.With(FamClientArrays)
	}
	lit := g.enabled[gles.LIGHTING]
	if !d.colorArr && !lit || lit && !d.normalArr {
		f = f.With(FamCurrentAttrib)
	}
	ntex := 0
	for u := 0; u < 2; u++ {
		us := g.units[u]
		if !us.enabled || us.tex < 0 {
			continue
		}
		t := g.textures[us.tex]
		if !t.complete {
			continue
		}
		ntex++
		f = f.With(t.fam)
		if !d.texArr[u] {
			f = f.With(FamCurrentAttrib)
		}
		if t.small {
			f = f.With(FamTexSmall)
		}
		if t.mipmin {
			f = f.With(FamMipmap)
		}
		if t.gen {
			f = f.With(FamGenerateMipmap)
		}
		if t.linear {
			f = f.With(FamTexLinear)
		}
		if t.clamp {
			f = f.With(FamTexClamp)
		}
		if t.sub {
			f = f.With(FamTexSubImage)
		}
		if us.matrix {
			f = f.With(FamTexMatrix)
		}
		if us.mode == gles.COMBINE {
			f = f.With(FamCombine)
			if us.dot3 {
				f = f.With(FamCombineDot3)
			}
		} else {
			f = f.With(FamTexEnv)
		}
		if d.mode == gles.POINTS && us.sprite && g.enabled[gles.POINT_SPRITE_OES] {
			f = f.With(FamPointSprite)
		}
	}
	if ntex > 0 {
		f = f.With(FamTexture)
	}
	if ntex > 1 {
		f = f.With(FamMultitexture)
	}
	if d.mode == gles.POINTS {
		if d.sizeArr {
			f = f.With(FamPointSizeArray)
		}
		if g.pointPar {
			f = f.With(FamPointParams)
		}
	}
	if !tri && d.mode != gles.POINTS && g.lineWidth > 1 {
		f = f.With(FamWideLines)
	}
	if lit {
		f = f.With(FamLighting)
		if g.lights > 4 {
			f = f.With(FamManyLights)
		}
		if g.spot {
			f = f.With(FamSpotLights)
		}
		if g.enabled[gles.COLOR_MATERIAL] {
			f = f.With(FamColorMaterial)
		}
		if g.twoSide {
			f = f.With(FamTwoSide)
		}
		if g.enabled[gles.NORMALIZE] || g.enabled[gles.RESCALE_NORMAL] {
			f = f.With(FamNormalize)
		}
	}
	on := func(c gles.Enum, fam Family) {
		if g.enabled[c] {
			f = f.With(fam)
		}
	}
	on(gles.FOG, FamFog)
	if g.shade == gles.FLAT {
		f = f.With(FamFlatShading)
	}
	if tri {
		on(gles.CULL_FACE, FamCull)
		on(gles.POLYGON_OFFSET_FILL, FamPolygonOffset)
	}
	on(gles.CLIP_PLANE0, FamClipPlanes)
	if g.viewport {
		f = f.With(FamViewport)
	}
	on(gles.SCISSOR_TEST, FamScissor)
	on(gles.ALPHA_TEST, FamAlphaTest)
	on(gles.STENCIL_TEST, FamStencil)
	if g.enabled[gles.DEPTH_TEST] {
		if g.depth > 0 {
			f = f.With(FamDepthTest)
		} else {
			f = f.With(FamNoDepthBuffer)
		}
	}
	on(gles.BLEND, FamBlend)
	if g.enabled[gles.BLEND] && g.blendExt {
		f = f.With(FamBlendExt)
	}
	on(gles.COLOR_LOGIC_OP, FamLogicOp)
	if g.colorMask || g.depthMask || g.stencilMask {
		f = f.With(FamMasks)
	}
	g.fam = f
}
