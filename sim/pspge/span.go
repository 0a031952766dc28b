package pspge

import (
	"encoding/binary"

	"github.com/retrogl/retrogl/sim/raster"
)

// The span pipeline: the pixels of a row are shaded a chunk of up to
// spanChunk at a time, one stage after the other (interpolation, texture
// coordinates, texel fetch, texture function, specular, output), each a
// loop the compiler sees whole, with the stages chosen once per draw
// (choosePipe) instead of tested per pixel.
//
// The result is the per-pixel path's (draw.raster, draw.sprite,
// target.pixel), bit for bit: the interpolators step with the same
// integer arithmetic, texture coordinates are the same float64 and
// float32 expressions evaluated at each pixel, and every stage before the
// output only reads memory (textures) that no pixel of the draw writes
// (draw.spanOK), so running them over the chunk before the output stage
// writes anything changes nothing. The output stage runs the pixels in x
// order. TestSpanPathMatchesReference compares the two paths over random
// states, primitives and memory.
const spanChunk = 64

// spanBuf carries one chunk's fragments between the stages; each worker
// owns one, so shading allocates nothing.
type spanBuf struct {
	col    [spanChunk][4]int32 // colour, 0..255 per channel until texturing
	z      [spanChunk]int32
	fog    [spanChunk]int32 // fog factor, 255 = no fog
	st, tt [spanChunk]float32
	grad   [spanChunk]float32
	q      [spanChunk]float32
	tex    [spanChunk]uint32
	tex64  [spanChunk]uint64 // texels in spread's lanes, times 16 (spreadTexels)
	// tvConst is set when every tv of the chunk is tv[0].
	tvConst bool
	tu, tv  [spanChunk]int32    // coord's fixed-point texel coordinates (pipe.fixed)
	pc      [spanChunk][4]uint8 // packed colour (packed.go): R, G, B, A, clamped
	qc      [spanChunk]uint64   // the colours in swar lanes (pipe.lanes)
	idx     [spanChunk]uint8    // the chunk's pixels still alive (packed path)
	flat    bool                // every colour of the chunk is col[0] (or pc[0])
	pixels  int                 // pixels rasterised, for the watchdog
	spans   [8]raster.Span      // walk's buffer
	// tabs are the step tables of the triangles of a band (by index in
	// the batch, modulo their number), cur the one of the triangle shaded.
	tabs [16]stepTab
	cur  *stepTab
}

// walk is raster.Triangle.Walk through the worker's span buffer: Walk
// allocates its span on every call, which a draw of many small triangles
// pays for once per triangle.
func (sb *spanBuf) walk(tri *raster.Triangle, clip raster.Rect, fn func(s *raster.Span)) {
	for {
		spans := tri.Spans(clip, sb.spans[:0])
		for i := range spans {
			fn(&spans[i])
		}
		if len(spans) < len(sb.spans) {
			return
		}
		clip.Y0 = spans[len(spans)-1].Y + 1
	}
}

// identity lists every pixel of a chunk.
var identity = func() (a [spanChunk]uint8) {
	for i := range a {
		a[i] = uint8(i)
	}
	return a
}()

// texPath is how the texture stage fetches texels.
type texPath uint8

const (
	texAny          texPath = iota // sampler.sample per pixel
	texBilinear8888                // level 0 of an unswizzled 8888 texture, bilinear
	texNearest8888                 // level 0 of an unswizzled 8888 texture, nearest
)

// outPath is the output stage: the per-fragment operations and the write.
type outPath uint8

const (
	outPixel  outPath = iota // target.pixel per fragment: any state
	outSimple                // target.simple: depth, then a plain colour write
	outBlend                 // depth test, blend and dither; no other test, no stencil
	outClear                 // clear mode
)

// pipe is the span pipeline of one draw.
type pipe struct {
	tex     texPath
	out     outPath
	modul   bool // the texture function is MODULATE without doubling
	grads   bool // texture LOD from per-pixel gradients
	zcmp    uint32
	amask   uint32 // the framebuffer format's alpha (stencil) bits
	aconst  uint32 // target.simple's constant stencil bits, packed
	fillOK  bool   // clear-mode sprites may fill rows (clearRect)
	clearV  uint32 // clear mode: the bits kept from the old pixel
	clearFl uint32 // clear mode: all bits of a pixel
	// packed is set for outSimple and outBlend, whose only kills are the
	// depth range and depth tests: the packed path (shadeTriPacked) runs
	// them first and shades only the pixels that pass.
	packed bool
	ztest  bool // a depth test that can fail
	over   bool // 8888, SRC_ALPHA/ONE_MINUS_SRC_ALPHA, no dither
	repeat bool // texBilinear8888 wraps on both axes
	// lanes is set when the packed path's texture stage is
	// bilinearRepeatModulate, which reads the colours from spanBuf.qc in
	// swarLerp's lanes.
	lanes bool
	fixed bool // the packed path fetches level 0 from tu, tv
	// direct is set for outSimple into 8888 with smooth colours and no
	// texture or specular colour: colorWrite8888.
	direct bool
}

// zcmpMask turns a GE comparison (a OP b) into a 3-bit mask of the
// outcomes it accepts: bit 0 a < b, bit 1 a == b, bit 2 a > b.
var zcmpMask = [8]uint32{0, 7, 2, 5, 1, 3, 4, 6}

// cmpOK reports whether a OP b holds for mask m = zcmpMask[OP]; a and b
// lie in 0..65535.
func cmpOK(m uint32, a, b int32) bool {
	s := (a-b)>>31 | int32(uint32(b-a)>>31) // -1, 0 or 1
	return m>>uint32(s+1)&1 != 0
}

// alphaBits returns the bits of a stored pixel that hold alpha (stencil).
func alphaBits(psm int) uint32 {
	switch psm {
	case psm5551:
		return 0x8000
	case psm4444:
		return 0xF000
	case psm8888:
		return 0xFF000000
	}
	return 0
}

// choosePipe picks the stages of a draw whose state allows the span
// pipeline.
func (d *draw) choosePipe() {
	t := d.t
	p := &d.pipe
	*p = pipe{zcmp: zcmpMask[t.zfunc&7], amask: alphaBits(t.psm)}
	switch {
	case t.clear:
		p.out = outClear
		p.clearFl = 0xFFFFFFFF
		if t.bpp == 2 {
			p.clearFl = 0xFFFF
		}
		alpha := pack(t.psm, 0xFF000000)
		if !t.clearColor {
			p.clearV |= p.clearFl &^ alpha
		}
		if !t.clearStencil {
			p.clearV |= alpha
		}
		p.fillOK = true
	case t.simple:
		p.out = outSimple
		if t.stencil {
			p.aconst = pack(t.psm, t.stencilConst) & p.amask
		}
	case !t.alphaTest && !t.fog && !t.colorTest && !t.stencil && !t.logic && t.writeMask == 0:
		p.out = outBlend
	}
	p.packed = p.out == outSimple || p.out == outBlend
	p.ztest = t.ztest && t.zfunc != 1
	p.over = p.out == outBlend && t.psm == psm8888 && t.srcOver && !t.dither
	p.direct = p.out == outSimple && t.psm == psm8888 && d.tex == nil && !d.specular && d.smooth
	if s := d.tex; s != nil {
		p.repeat = !s.clampS && !s.clampT
		p.modul = s.fn == 0 && !s.double
		p.grads = s.needLOD && s.lodMode == 0
		if !s.needLOD && s.linear8888 {
			p.tex = texNearest8888
			if s.magLinear {
				p.tex = texBilinear8888
			}
			p.fixed = p.packed
		}
		p.lanes = p.packed && p.tex == texBilinear8888 && p.repeat && p.modul
	}
}

// shadeTri shades the pixels of a batched triangle inside clip: raster's
// pixel loop, a chunk at a time.
func (d *draw) shadeTri(sb *spanBuf, r *triRec, clip raster.Rect) {
	if d.pipe.packed {
		d.shadeTriPacked(sb, r, clip)
		return
	}
	t := d.t
	var ax *triAux
	if r.aux >= 0 {
		ax = &d.g.bat.aux[r.aux]
	}
	area := r.tri.Area
	half := area / 2
	fa := float64(area)
	needZ, smooth, spec, fog, tex := t.needZ, d.smooth, d.specular, d.fog, d.tex
	sb.walk(&r.tri, clip, func(s *raster.Span) {
		e0, e1, e2 := s.E[0], s.E[1], s.E[2]
		dx0, dx1, dx2 := s.DX[0], s.DX[1], s.DX[2]
		var zl ilerp
		if needZ {
			zl = newIlerp(e0*r.z[0]+e1*r.z[1]+e2*r.z[2]+half, dx0*r.z[0]+dx1*r.z[1]+dx2*r.z[2], area)
		}
		var cl [4]ilerp
		rowFlat := !smooth
		if smooth {
			rowFlat = true
			for k := 0; k < 4; k++ {
				cl[k] = newIlerp(e0*r.c[0][k]+e1*r.c[1][k]+e2*r.c[2][k]+half, dx0*r.c[0][k]+dx1*r.c[1][k]+dx2*r.c[2][k], area)
				if cl[k].dq != 0 || cl[k].dr != 0 {
					rowFlat = false
				}
			}
		}
		var sl [3]ilerp
		if spec && smooth {
			for k := 0; k < 3; k++ {
				sl[k] = newIlerp(e0*ax.c2[0][k]+e1*ax.c2[1][k]+e2*ax.c2[2][k]+half, dx0*ax.c2[0][k]+dx1*ax.c2[1][k]+dx2*ax.c2[2][k], area)
			}
		}
		py := float64(s.Y) + 0.5
		for x0 := s.X0; x0 < s.X1; x0 += spanChunk {
			n := min(spanChunk, s.X1-x0)
			switch {
			case !smooth:
				c := r.flat
				for i := 0; i < n; i++ {
					sb.col[i] = c
				}
			case rowFlat:
				c := [4]int32{int32(cl[0].q), int32(cl[1].q), int32(cl[2].q), int32(cl[3].q)}
				for i := 0; i < n; i++ {
					sb.col[i] = c
				}
			default:
				interpColor(sb, n, &cl)
			}
			sb.flat = rowFlat && tex == nil && !spec
			if needZ {
				for i := 0; i < n; i++ {
					sb.z[i] = int32(zl.q)
					zl.step()
				}
			} else {
				clear(sb.z[:n])
			}
			if fog {
				for i := 0; i < n; i++ {
					fd := (float64(float64(e0)*ax.fog[0]) + float64(float64(e1)*ax.fog[1]) + float64(float64(e2)*ax.fog[2])) / fa
					sb.fog[i] = fogFactor(fd)
					e0 += dx0
					e1 += dx1
					e2 += dx2
				}
			}
			if tex != nil {
				d.triTexCoords(sb, ax, n, x0, py)
				d.texture(sb, n)
			}
			if spec {
				if smooth {
					for i := 0; i < n; i++ {
						c := &sb.col[i]
						c[0] += int32(sl[0].q)
						c[1] += int32(sl[1].q)
						c[2] += int32(sl[2].q)
						sl[0].step()
						sl[1].step()
						sl[2].step()
					}
				} else {
					d.addSpec(sb, n, ax.flat2)
				}
			}
			d.output(sb, n, x0, s.Y)
		}
		sb.pixels += s.X1 - s.X0
	})
}

// interpColor steps four colour interpolators over n pixels.
func interpColor(sb *spanBuf, n int, cl *[4]ilerp) {
	q0, q1, q2, q3 := cl[0].q, cl[1].q, cl[2].q, cl[3].q
	r0, r1, r2, r3 := cl[0].r, cl[1].r, cl[2].r, cl[3].r
	a := cl[0].area
	for i := 0; i < n; i++ {
		sb.col[i] = [4]int32{int32(q0), int32(q1), int32(q2), int32(q3)}
		q0 += cl[0].dq
		r0 += cl[0].dr
		if r0 >= a {
			r0 -= a
			q0++
		}
		q1 += cl[1].dq
		r1 += cl[1].dr
		if r1 >= a {
			r1 -= a
			q1++
		}
		q2 += cl[2].dq
		r2 += cl[2].dr
		if r2 >= a {
			r2 -= a
			q2++
		}
		q3 += cl[3].dq
		r3 += cl[3].dr
		if r3 >= a {
			r3 -= a
			q3++
		}
	}
	cl[0].q, cl[1].q, cl[2].q, cl[3].q = q0, q1, q2, q3
	cl[0].r, cl[1].r, cl[2].r, cl[3].r = r0, r1, r2, r3
}

func (d *draw) addSpec(sb *spanBuf, n int, s [3]int32) {
	for i := 0; i < n; i++ {
		c := &sb.col[i]
		c[0] += s[0]
		c[1] += s[1]
		c[2] += s[2]
	}
}

// triTexCoords computes the chunk's texture coordinates as raster does:
// the s/w, t/w, q/w planes at each pixel centre, divided by q.
func (d *draw) triTexCoords(sb *spanBuf, ax *triAux, n, x0 int, py float64) {
	sP, tP, qP := &ax.sP, &ax.tP, &ax.qP
	sRow, tRow, qRow := float64(sP.b*py)+sP.c, float64(tP.b*py)+tP.c, float64(qP.b*py)+qP.c
	if !d.pipe.grads && qP.a == 0 {
		// q/w is the same at every pixel of the row (qP.a*px is a zero,
		// and adding a zero to qRow gives qRow or, when qRow is a zero,
		// a zero): one reciprocal serves the row; for q = 1 the product
		// by it is the identity.
		q := float32(qRow)
		switch {
		case qRow == 1:
			for i := 0; i < n; i++ {
				px := float64(x0+i) + 0.5
				sb.st[i] = float32(float64(sP.a*px) + sRow)
				sb.tt[i] = float32(float64(tP.a*px) + tRow)
				sb.q[i] = q
			}
		case qRow != 0:
			rq := 1 / qRow
			for i := 0; i < n; i++ {
				px := float64(x0+i) + 0.5
				S, T := float64(sP.a*px)+sRow, float64(tP.a*px)+tRow
				sb.st[i], sb.tt[i] = float32(S*rq), float32(T*rq)
				sb.q[i] = q
			}
		default:
			for i := 0; i < n; i++ {
				sb.st[i], sb.tt[i], sb.q[i] = 0, 0, q
			}
		}
		clear(sb.grad[:n])
		return
	}
	var w0, h0 float64
	if d.pipe.grads {
		w0, h0 = float64(d.tex.levels[0].w), float64(d.tex.levels[0].h)
	}
	for i := 0; i < n; i++ {
		px := float64(x0+i) + 0.5
		S, T, Q := float64(sP.a*px)+sRow, float64(tP.a*px)+tRow, float64(qP.a*px)+qRow
		var st, tt float32
		if Q != 0 {
			rq := 1 / Q
			st, tt = float32(S*rq), float32(T*rq)
		}
		var grad float32
		if d.pipe.grads && Q != 0 {
			grad = texGrad(sP, tP, qP, S, T, Q, w0, h0)
		}
		sb.st[i], sb.tt[i], sb.grad[i], sb.q[i] = st, tt, grad, float32(Q)
	}
}

// texture samples the chunk's texels and applies the texture function to
// its colours.
func (d *draw) texture(sb *spanBuf, n int) {
	s := d.tex
	switch d.pipe.tex {
	case texBilinear8888:
		s.bilinear8888Span(sb, n)
	case texNearest8888:
		l := &s.levels[0]
		for i := 0; i < n; i++ {
			u := s.wrapU(l, coord(sb.st[i], l.w)>>4)
			v := s.wrapV(l, coord(sb.tt[i], l.h)>>4)
			sb.tex[i] = binary.LittleEndian.Uint32(l.data[v*l.pitch+u*4:])
		}
	default:
		for i := 0; i < n; i++ {
			sb.tex[i] = s.sample(sb.st[i], sb.tt[i], sb.grad[i], sb.q[i])
		}
	}
	if !d.pipe.modul {
		for i := 0; i < n; i++ {
			sb.col[i] = s.texFunc(sb.col[i], sb.tex[i])
		}
		return
	}
	// texFunc's MODULATE without doubling.
	if s.rgba {
		for i := 0; i < n; i++ {
			c, x := &sb.col[i], sb.tex[i]
			c[0] = int32(uint32(c[0]+1) * (x & 0xFF) >> 8)
			c[1] = int32(uint32(c[1]+1) * (x >> 8 & 0xFF) >> 8)
			c[2] = int32(uint32(c[2]+1) * (x >> 16 & 0xFF) >> 8)
			c[3] = int32(uint32(c[3]+1) * (x >> 24) >> 8)
		}
		return
	}
	for i := 0; i < n; i++ {
		c, x := &sb.col[i], sb.tex[i]
		c[0] = int32(uint32(c[0]+1) * (x & 0xFF) >> 8)
		c[1] = int32(uint32(c[1]+1) * (x >> 8 & 0xFF) >> 8)
		c[2] = int32(uint32(c[2]+1) * (x >> 16 & 0xFF) >> 8)
	}
}

// bilinear8888Span is sampler.bilinear of level 0 of an unswizzled 8888
// texture over a chunk.
func (s *sampler) bilinear8888Span(sb *spanBuf, n int) {
	l := &s.levels[0]
	data, pitch := l.data, l.pitch
	for i := 0; i < n; i++ {
		bu := coord(sb.st[i], l.w) - 8
		bv := coord(sb.tt[i], l.h) - 8
		fu, fv := uint32(bu&15), uint32(bv&15)
		u0, u1 := s.wrapU(l, bu>>4)*4, s.wrapU(l, bu>>4+1)*4
		v0, v1 := s.wrapV(l, bv>>4)*pitch, s.wrapV(l, bv>>4+1)*pitch
		tl := binary.LittleEndian.Uint32(data[v0+u0:])
		tr := binary.LittleEndian.Uint32(data[v0+u1:])
		bl := binary.LittleEndian.Uint32(data[v1+u0:])
		br := binary.LittleEndian.Uint32(data[v1+u1:])
		sb.tex[i] = lerp4(lerp4(tl, tr, fu), lerp4(bl, br, fu), fv)
	}
}

// output runs the chunk's fragments through the output stage.
func (d *draw) output(sb *spanBuf, n, x0, y int) {
	t := d.t
	switch d.pipe.out {
	case outSimple:
		t.outSimple(&d.pipe, sb, n, x0, y)
	case outBlend:
		t.outBlend(&d.pipe, sb, n, x0, y)
	case outClear:
		row := y - t.clip.Y0
		for i := 0; i < n; i++ {
			c := clamp4(sb.col[i])
			z := sb.z[i]
			if t.depthRange && (z < t.zmin || z > t.zmax) {
				continue
			}
			t.clearPixel(row, x0+i, z, c)
		}
	default:
		for i := 0; i < n; i++ {
			t.pixel(x0+i, y, sb.z[i], sb.fog[i], sb.col[i])
		}
	}
}

func clamp4(c [4]int32) [4]int32 {
	return [4]int32{min(max(c[0], 0), 255), min(max(c[1], 0), 255), min(max(c[2], 0), 255), min(max(c[3], 0), 255)}
}

// rgbWord packs a clamped colour's RGB as an RGBA8 word (alpha 0).
func rgbWord(c *[4]int32) uint32 {
	return uint32(min(max(c[0], 0), 255)) | uint32(min(max(c[1], 0), 255))<<8 | uint32(min(max(c[2], 0), 255))<<16
}

// depthRow returns the depth buffer's bytes for the chunk, or nil.
func (t *target) depthRow(row, x0, n int) []byte {
	if t.zb == nil {
		return nil
	}
	o := (row*t.zStride + x0) * 2
	return t.zb[o : o+2*n]
}

// outSimple is target.pixel's simple path over a chunk: the depth test
// and write, then the colour with the old stencil or the constant one.
func (t *target) outSimple(p *pipe, sb *spanBuf, n, x0, y int) {
	row := y - t.clip.Y0
	zr := t.depthRow(row, x0, n)
	ztest, zwrite, zm := t.ztest, t.zwrite, p.zcmp
	o := (row*t.stride + x0) * t.bpp
	fb := t.fb[o : o+n*t.bpp]
	if t.psm == psm8888 {
		if sb.flat && zr == nil && !t.depthRange {
			v := rgbWord(&sb.col[0])
			if t.stencil {
				fill32(fb, v|p.aconst)
				return
			}
			for i := 0; i < n; i++ {
				q := fb[4*i : 4*i+4]
				binary.LittleEndian.PutUint32(q, v|binary.LittleEndian.Uint32(q)&0xFF000000)
			}
			return
		}
		for i := 0; i < n; i++ {
			z := sb.z[i]
			if t.depthRange && (z < t.zmin || z > t.zmax) {
				continue
			}
			if zr != nil {
				zp := zr[2*i : 2*i+2]
				if ztest && !cmpOK(zm, z, int32(binary.LittleEndian.Uint16(zp))) {
					continue
				}
				if zwrite {
					binary.LittleEndian.PutUint16(zp, uint16(z))
				}
			}
			q := fb[4*i : 4*i+4]
			a := p.aconst
			if !t.stencil {
				a = binary.LittleEndian.Uint32(q) & 0xFF000000
			}
			binary.LittleEndian.PutUint32(q, rgbWord(&sb.col[i])|a)
		}
		return
	}
	for i := 0; i < n; i++ {
		z := sb.z[i]
		if t.depthRange && (z < t.zmin || z > t.zmax) {
			continue
		}
		if zr != nil {
			zp := zr[2*i : 2*i+2]
			if ztest && !cmpOK(zm, z, int32(binary.LittleEndian.Uint16(zp))) {
				continue
			}
			if zwrite {
				binary.LittleEndian.PutUint16(zp, uint16(z))
			}
		}
		q := fb[2*i : 2*i+2]
		a := p.aconst
		if !t.stencil {
			a = uint32(binary.LittleEndian.Uint16(q)) & p.amask
		}
		binary.LittleEndian.PutUint16(q, uint16(pack(t.psm, rgbWord(&sb.col[i]))|a))
	}
}

// outBlend is target.pixel for the states without alpha, colour or
// stencil test, fog, logic op or write mask: the depth test and write,
// the blend, dither, and the colour written over the old stencil.
func (t *target) outBlend(p *pipe, sb *spanBuf, n, x0, y int) {
	row := y - t.clip.Y0
	zr := t.depthRow(row, x0, n)
	zfunc, zwrite, zm := t.zfunc, t.zwrite, p.zcmp
	o := (row*t.stride + x0) * t.bpp
	fb := t.fb[o : o+n*t.bpp]
	dith := &t.dith
	dy := (y & 3) * 4
	for i := 0; i < n; i++ {
		z := sb.z[i]
		if t.depthRange && (z < t.zmin || z > t.zmax) {
			continue
		}
		if zr != nil {
			zp := zr[2*i : 2*i+2]
			if zfunc != 1 && !cmpOK(zm, z, int32(binary.LittleEndian.Uint16(zp))) {
				continue
			}
			if zwrite {
				binary.LittleEndian.PutUint16(zp, uint16(z))
			}
		}
		var oldRaw uint32
		if t.bpp == 4 {
			oldRaw = binary.LittleEndian.Uint32(fb[4*i:])
		} else {
			oldRaw = uint32(binary.LittleEndian.Uint16(fb[2*i:]))
		}
		c := clamp4(sb.col[i])
		var r, g, b int32
		switch {
		case t.srcOver:
			old := unpack(t.psm, oldRaw)
			fa, fd := 2*c[3]+1, 2*(255-c[3])+1
			r = (2*c[0]+1)*fa>>10 + (2*int32(old&0xFF)+1)*fd>>10
			g = (2*c[1]+1)*fa>>10 + (2*int32(old>>8&0xFF)+1)*fd>>10
			b = (2*c[2]+1)*fa>>10 + (2*int32(old>>16&0xFF)+1)*fd>>10
		case t.blend:
			rgb := t.blendColor(c, unpack(t.psm, oldRaw))
			r, g, b = rgb[0], rgb[1], rgb[2]
		default:
			r, g, b = c[0], c[1], c[2]
		}
		if t.dither {
			dd := dith[dy+(x0+i)&3]
			r, g, b = r+dd, g+dd, b+dd
		}
		v := pack(t.psm, clamp255(r)|clamp255(g)<<8|clamp255(b)<<16) | oldRaw&p.amask
		if t.bpp == 4 {
			binary.LittleEndian.PutUint32(fb[4*i:], v)
		} else {
			binary.LittleEndian.PutUint16(fb[2*i:], uint16(v))
		}
	}
}

// shadeSprite shades the pixels of a batched sprite inside clip as sprite
// does.
func (d *draw) shadeSprite(sb *spanBuf, r *spriteRec, clip raster.Rect) {
	box := r.box.Intersect(clip)
	if box.Empty() {
		return
	}
	sb.pixels += (box.X1 - box.X0) * (box.Y1 - box.Y0)
	if d.pipe.out == outClear && d.pipe.fillOK {
		d.t.clearRect(&d.pipe, box, r.z, clamp4(r.col))
		return
	}
	if d.pipe.packed {
		d.shadeSpritePacked(sb, r, box)
		return
	}
	tex, spec := d.tex, d.specular
	for y := box.Y0; y < box.Y1; y++ {
		tt := float32(float64(r.ta) + float64((float64(y)+0.5-r.ay)*r.dty))
		for x0 := box.X0; x0 < box.X1; x0 += spanChunk {
			n := min(spanChunk, box.X1-x0)
			for i := 0; i < n; i++ {
				sb.col[i], sb.z[i], sb.fog[i] = r.col, r.z, r.fog
			}
			sb.flat = tex == nil && !spec
			if tex != nil {
				for i := 0; i < n; i++ {
					sb.st[i] = float32(float64(r.sa) + float64((float64(x0+i)+0.5-r.ax)*r.dsx))
					sb.tt[i], sb.grad[i], sb.q[i] = tt, r.grad, 1
				}
				d.texture(sb, n)
			}
			if spec {
				d.addSpec(sb, n, r.spec)
			}
			d.output(sb, n, x0, y)
		}
	}
}

// clearRect is clearPixel over a rectangle of one colour and depth: each
// row holds at most four different pixels (the dither columns).
func (t *target) clearRect(p *pipe, box raster.Rect, z int32, c [4]int32) {
	if t.depthRange && (z < t.zmin || z > t.zmax) {
		return
	}
	w := box.X1 - box.X0
	for y := box.Y0; y < box.Y1; y++ {
		row := y - t.clip.Y0
		if t.clearZ {
			o := (row*t.zStride + box.X0) * 2
			fill16(t.zb[o:o+2*w], uint16(z))
		}
		if !t.clearColor && !t.clearStencil {
			continue
		}
		var vals [4]uint32
		for k := range vals {
			rgb := [3]int32{c[0], c[1], c[2]}
			if t.dither {
				dd := t.dith[(y&3)*4+k]
				for j := range rgb {
					rgb[j] += dd
				}
			}
			vals[k] = pack(t.psm, clamp255(rgb[0])|clamp255(rgb[1])<<8|clamp255(rgb[2])<<16|uint32(c[3])<<24)
		}
		o := (row*t.stride + box.X0) * t.bpp
		fb := t.fb[o : o+w*t.bpp]
		keep := p.clearV
		if keep == 0 {
			if t.dither {
				fillPattern(fb, t.bpp, box.X0, &vals)
			} else if t.bpp == 4 {
				fill32(fb, vals[0])
			} else {
				fill16(fb, uint16(vals[0]))
			}
			continue
		}
		for i := 0; i < w; i++ {
			v := vals[(box.X0+i)&3] &^ keep
			if t.bpp == 4 {
				q := fb[4*i : 4*i+4]
				binary.LittleEndian.PutUint32(q, v|binary.LittleEndian.Uint32(q)&keep)
			} else {
				q := fb[2*i : 2*i+2]
				binary.LittleEndian.PutUint16(q, uint16(v|uint32(binary.LittleEndian.Uint16(q))&keep))
			}
		}
	}
}

// fill32 and fill16 fill b with one 32- or 16-bit little-endian value;
// fillPattern with the pixels vals[x&3] of a row starting at pixel x0.
// Each writes a few pixels, then doubles them with copy.
func fill32(b []byte, v uint32) {
	if len(b) == 0 {
		return
	}
	k := min(len(b), 16)
	for i := 0; i+4 <= k; i += 4 {
		binary.LittleEndian.PutUint32(b[i:], v)
	}
	double(b, k)
}

func fill16(b []byte, v uint16) {
	if len(b) == 0 {
		return
	}
	k := min(len(b), 16)
	for i := 0; i+2 <= k; i += 2 {
		binary.LittleEndian.PutUint16(b[i:], v)
	}
	double(b, k)
}

func fillPattern(b []byte, bpp, x0 int, vals *[4]uint32) {
	k := min(len(b), 4*bpp)
	for i := 0; i*bpp < k; i++ {
		v := vals[(x0+i)&3]
		if bpp == 4 {
			binary.LittleEndian.PutUint32(b[4*i:], v)
		} else {
			binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
		}
	}
	double(b, k)
}

// double copies b[:k] over the rest of b, doubling the copied length each
// time (k is a whole number of repeats of the pattern).
func double(b []byte, k int) {
	for k < len(b) {
		k += copy(b[k:], b[:k])
	}
}
