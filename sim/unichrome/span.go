package unichrome

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/retrogl/retrogl/sim/raster"
)

// The span pipeline: a triangle's row is shaded a chunk of up to spanN
// pixels at a time, one stage after the other (interpolation, stipple,
// texture units, blending stages, specular, fog, alpha test, stencil and
// Z, colour), instead of one pixel at a time through every stage. Which
// stages run, and the specialised form of each (the ABGR8888 repeat
// bilinear fetch, the MODULATE stage, SRC_ALPHA blending into a 32-bit
// target), is decided once when the pipeline is compiled (spanPlan); what
// no specialised form covers runs the reference's own per-pixel function
// inside the stage's loop.
//
// The result is the reference's (shadeRef, fragment), bit for bit: the
// colours, Z16 and a fast unit's texel coordinates step along the row in
// fixed point from the same row start (rowStep, step.go), a pixel near a
// rounding edge taking the reference's own float64 sum; the other
// attributes step with the reference's float64 additions; the stages
// before Z and colour have no side effect, and the stages with side
// effects run the pixels in x order. Stencil and Z run before texturing
// when the alpha test is off (their result cannot depend on the colour),
// so hidden pixels are not textured. Two common shapes run fused, one loop
// from Z to the write: a colour written as it is (plainChunk: fill-flat,
// fill-gouraud) and one bilinear unit MODULATE into a 32-bit target
// (texModChunk: fill-tex-blend). The colour channels that vary along a
// row step in one loop into a word (packRun, gouraud.go), those that vary
// only from row to row are in the row's word; a Z that does not vary
// along the row is tested four pixels at a time as a bound on the stored
// values (constZChunk, constZDepth); fill-gouraud's shape runs colour and
// Z in one loop (gouraud2); a T that does not vary along the row sets the
// bilinear fetch's texel rows once (bilinearRow). A pipeline whose buffers
// overlap takes the reference path (pipeline.aliased).
// TestSpanPathMatchesReference compares the two over random states,
// primitives and memory, a third of the states in the fused shapes, with
// lists whose rows share colour channels, Z or T;
// TestShapePathsMatchReference/plain does the same for fill-gouraud's shape
// alone.
const spanN = 64

// spanBuf carries one chunk's fragments between the stages; each worker
// owns one.
type spanBuf struct {
	live  [spanN]bool
	col   [spanN][4]int // diffuse, then the stages' output
	spec  [spanN][3]int
	fog   [spanN]int
	z, zw [spanN]float64
	w     [spanN]float64
	st    [2][spanN][2]float64
	lod   [2][spanN]int
	tex   [2][spanN][4]int
	// fix holds a fast unit's fixCoord values when rowStep filled them
	// (fixed).
	fix   [2][spanN][2]int64
	fixed [2]bool
	// tConst says fix[n] holds T in its first pixel alone: T does not
	// vary along the row.
	tConst [2]bool
	out    [2][spanN][4]int // the blending stages' outputs
	word   [spanN]uint32    // the colour in the target's layout (packCol), in the texel's (texMod)
	tmp    [4][spanN]int32  // rowStep's runs
	texw   [spanN]uint32    // bilinearSpan's texels
	zi     [spanN]uint32    // the Z test's value (zInt)
	zInt   bool             // zi holds Z, z and zw do not
}

// spanPlan is the compiled choice of stages.
type spanPlan struct {
	needZ    bool    // Z is read: the Z test or write, fog from Z
	needW    bool    // W is read: the W buffer, fog from W, perspective
	needSpec bool    // the specular colour or the fog factor is read
	early    bool    // stencil and Z before texturing (no alpha test)
	zFast    bool    // Z test and write without stencil or W buffer
	zInt     bool    // Z16 zFast and Z read by nothing else: integer Z when unbiased
	texFast  [2]bool // bilinear ABGR8888 repeat on one level whatever the LOD
	modulate [2]bool // stage n is Ctex*Ccur, Atex*Acur
	store32  bool    // 32-bit target, ROP COPY, no blending or SRC_ALPHA blending
	packCol  bool    // store32, no blending, and the diffuse colour goes unchanged (word)
	shifts   [4]uint // the target's channel shifts (alpha 32 when absent)
	srcAlpha bool    // blending is SRC_ALPHA, ONE_MINUS_SRC_ALPHA with both clamps
	texMod   bool    // one fast texture, MODULATE, store32, nothing between: texModChunk
	// texBlendABGR: texMod with blending into an ABGR8888 target
	// (texModBlendABGR, texRowModBlendABGR).
	texBlendABGR bool
	zLanes       zLanes // the Z function's outcomes (ALWAYS when the test is off) for constZChunk
}

// plan decides the span pipeline's stages for p.
func (p *pipeline) plan() {
	pl := &p.span
	pl.early = !p.at
	d := &p.depth
	zs := p.zt || p.zw || p.st
	fogCoord := p.fog && p.fogSt.mode != 0
	pl.needZ = zs && !d.wbuf || fogCoord && p.fogSt.useZ
	pl.needW = zs && d.wbuf || fogCoord && !p.fogSt.useZ || p.txmp && p.persp
	pl.needSpec = p.cs || p.fog
	for n := 0; n < p.ntex && p.txmp; n++ {
		st := &p.stage[n]
		for _, o := range []bop{st.ca, st.cb, st.cc, {st.cbias, 0}} {
			pl.needSpec = pl.needSpec || o.sel == 2 || o.sel == 6 // specular, fog factor
		}
		for _, o := range []bop{st.aa, st.ab, st.ac, {st.abias, 0}} {
			pl.needSpec = pl.needSpec || o.sel == 1 // fog factor
		}
	}
	pl.zFast = !p.st && !d.wbuf && d.mem != nil
	pl.zInt = pl.zFast && d.bytes == 2 && !(fogCoord && p.fogSt.useZ)
	for n := 0; n < p.ntex && p.txmp; n++ {
		u := &p.units[n]
		pl.texFast[n] = u.fastRepeat && u.mip == mipLevel0 && u.magS == filtLinear && u.magT == filtLinear &&
			u.minS == filtLinear && u.minT == filtLinear
		s := &p.stage[n]
		// Ca = current (diffuse for stage 0), Cb = texture, Cc = 0, ADD,
		// no bias, x1, clamped; the same for alpha with Ac the constant
		// 0 and the constant bias 0.
		pl.modulate[n] = s.csat && s.asat && s.ca == bop{4, 0} && s.cb == bop{3, 0} && s.cc == bop{0, 0} &&
			s.cop == 0 && s.cbias == 0 && !s.cbiasInv && s.cshift == 0 &&
			s.aa == bop{2, 0} && s.ab == bop{4, 0} && s.ac == bop{3, 0} && s.rac == 0 &&
			s.aop == 0 && (s.abias == 0 || s.abias == 3 && s.rabias == 0) && !s.abiasInv && s.ashift == 0
	}
	b := &p.blend
	pl.srcAlpha = p.abl && b.ca == bop{0, 0} && b.fca == bop{2, 0} && b.cb == bop{1, 0} && b.fcb == bop{2, 1} &&
		b.aa == bop{1, 0} && b.faa == bop{1, 0} && b.ab == bop{2, 0} && b.fab == bop{1, 1} &&
		!b.csub && !b.asub && b.cclamp && b.aclamp
	f := &p.dst.fmt
	pl.store32 = !p.dst.yuy2 && f.Bytes == 4 && !p.dither && p.rop == 12 && (!p.abl || pl.srcAlpha) &&
		f.R.Bits == 8 && f.G.Bits == 8 && f.B.Bits == 8 && (f.A.Bits == 8 || f.A.Bits == 0)
	pl.packCol = pl.store32 && !p.abl && !p.txmp && !p.cs && !p.fog && !p.at && p.cw
	zfn := p.zfunc
	if !p.zt {
		zfn = 7
	}
	pl.zLanes = lanesOf(zfn)
	pl.shifts = [4]uint{uint(f.R.Shift), uint(f.G.Shift), uint(f.B.Shift), uint(f.A.Shift)}
	if f.A.Bits == 0 {
		pl.shifts[3] = 32 // the x byte: masked off by the plane mask
	}
	pl.texMod = p.txmp && p.ntex == 1 && pl.texFast[0] && pl.modulate[0] && pl.store32 &&
		!p.cs && !p.fog && !p.at && p.cw
	sh := &pl.shifts
	pl.texBlendABGR = pl.texMod && p.abl && sh[0] == 0 && sh[1] == 8 && sh[2] == 16 && sh[3] == 24
}

// shadeSpans is the fast path: the triangle's pixels inside clip through
// the span pipeline.
func (w *worker) shadeSpans(p *pipeline, pr *prim, clip raster.Rect) {
	if clip = pr.bounds.Intersect(clip); w.tiny(p, pr, clip) {
		w.shadeTiny(p, pr, clip)
		return
	}
	sb := &w.sb
	cur := pr.a0
	step := pr.act[:pr.nact]
	gx, gy := &pr.gx, &pr.gy
	lod := pr.lod // carried from pixel to pixel, as the reference's frag
	// The diffuse colour's values where it does not vary (k[c] for
	// channel c); vm has bit i for an attribute i that varies.
	var k [4]int
	for c := range k {
		k[c] = clamp8(pr.a0[atR+c])
	}
	var vm uint32
	for _, i := range step {
		vm |= 1 << i
	}
	const rgba = 1<<atR | 1<<atG | 1<<atB | 1<<atA
	w.wOne = vm&(1<<atW) == 0 && pr.a0[atW] == 1
	w.constCol = vm&rgba == 0
	// Z goes to the Z16 test and write as integers when nothing else
	// reads it and no bias is added: rowStep's zValue.
	zInt := p.span.zInt && pr.zbias == 0
	zs := p.zt || p.zw || p.st
	// A fast unit whose coordinates are the attributes takes its
	// fixCoord values from rowStep.
	for t := range w.texRow {
		u := &p.units[t]
		w.texRow[t] = p.txmp && t < p.ntex && p.span.texFast[t] && (!p.persp || !(u.needLOD || u.mip == mipConstant) && w.wOne)
	}
	sb.zInt = zInt
	// Integer Z that does not vary along a row is one value a chunk
	// (runZ): constZChunk.
	w.zConst = zInt && gx[atZ] == 0
	// constZChunk or constZDepth takes the chunks and reads sb.zi[0]
	// alone (plainChunk's other loops read every pixel's).
	zOne := w.zConst && !p.sp && (p.span.packCol && !w.constCol && p.pmask == ^uint32(0) || !p.span.packCol && p.span.early)
	// The colour word's channels that do not vary: packCol's word is in
	// the target's layout, texMod's in the texel's (R from the low byte).
	csh := p.span.shifts
	if p.span.texMod {
		csh = [4]uint{0, 8, 16, 24}
	}
	var kword uint32
	for c := 0; c < 4; c++ {
		if vm&(1<<(atR+c)) == 0 {
			kword |= uint32(k[c]) << csh[c]
		}
	}
	// The attributes stepped by rowStep: the colours that vary, the
	// specular colour and fog factor when read (one that does not vary
	// steps by 0 from its value), Z when integer.
	rsm := vm & rgba
	if p.span.needSpec {
		rsm |= 1<<atSR | 1<<atSG | 1<<atSB | 1<<atFog
	}
	if zInt {
		rsm |= 1 << atZ
	}
	var rsAttr [numAttrs]uint8
	nrs := 0
	for ; rsm != 0; rsm &= rsm - 1 {
		rsAttr[nrs] = uint8(bits.TrailingZeros32(rsm)) // slot order
		nrs++
	}
	// packCol and texMod: the colour channels that vary along a row (xrs,
	// xsh) and those that vary only from row to row (yc: the reference
	// adds 0 along the row, the value stays; each row's word has them,
	// rowWord).
	var xrs [4]*rowStep
	var xsh [4]uint
	var yc [4]int
	nx, ny := 0, 0
	for c := 0; c < 4 && (p.span.packCol || p.span.texMod); c++ {
		switch {
		case vm&(1<<(atR+c)) == 0 || csh[c] >= 32: // the x byte of a target without alpha is 0
		case gx[atR+c] != 0:
			xrs[nx], xsh[nx] = &w.rs[atR+c], csh[c]
			nx++
		default:
			yc[ny] = c
			ny++
		}
	}
	// fill-gouraud's shape: two channels along the row into a 32-bit
	// target through every plane, a Z16 test or write of one value a row,
	// no stipple (gouraud2).
	fuse2 := zOne && p.span.packCol && (p.zt || p.zw) && nx == 2
	if cap(w.spans) == 0 {
		w.spans = make([]raster.Span, 0, 64)
	}
	// The scheduler's clip lies inside the prim's bounds (the triangle's
	// inside the pipeline's clip); intersected again it stays the same,
	// and SpansIn gives Spans' rows without computing the bounds.
	clip = pr.bounds.Intersect(clip)
	for {
		spans := pr.tri.SpansIn(clip, w.spans[:0])
		for si := range spans {
			s := &spans[si]
			pr.attrsAt(&cur, s.X0, s.Y)
			for _, a := range rsAttr[:nrs] {
				if a == atZ {
					w.rs[a].start(cur[a], gx[a], p.depth.scale, 0, s.X1-s.X0)
				} else {
					w.rs[a].start(cur[a], gx[a], 1, 0.5, s.X1-s.X0)
				}
			}
			rowWord := kword
			for _, c := range yc[:ny] {
				rowWord |= uint32(clamp8(cur[atR+c])) << csh[c]
			}
			for t := 0; t < p.ntex; t++ {
				if w.texRow[t] {
					lv := &p.units[t].lv[p.units[t].lvmin]
					as, at := atS0+2*t, atT0+2*t
					w.rs[as].start(cur[as], gx[as], float64(256*lv.w), -128, s.X1-s.X0)
					w.rs[at].start(cur[at], gx[at], float64(256*lv.h), -128, s.X1-s.X0)
				}
			}
			var zRow uint32 // fuse2's Z: one value a row
			if fuse2 {
				zRow = p.depth.zValue(w.rs[atZ].f)
			}
			for x0 := s.X0; x0 < s.X1; x0 += spanN {
				n := min(spanN, s.X1-x0)
				if fuse2 {
					// fill-gouraud's shape in one loop (gouraud2).
					d, c := &p.depth, &p.dst
					zrow, crow := d.mem[s.Y*d.pitch+2*x0:], c.mem[s.Y*c.pitch+4*x0:]
					if wr, ok := gouraud2(zrow, crow, xrs[0], xrs[1], xsh[0], xsh[1], rowWord, zRow, p.span.zLanes, p.zw, n, &sb.tmp); ok {
						w.stats.Fragments += n
						w.stats.Written += wr
						continue
					}
				}
				// Interpolation: each attribute's run of values, stepped as
				// the reference steps them (rowStep).
				if p.span.packCol && !w.constCol || p.span.texMod {
					// The colour goes to the target as it is (packCol) or
					// to texModChunk: the channels that vary along the row
					// into the row's word, in one loop when they can
					// (packRun).
					word := &sb.word
					if nx == 0 || !packRun(&xrs, &xsh, nx, rowWord, n, word) {
						for i := 0; i < n; i++ {
							word[i] = rowWord
						}
						for j, r := range xrs[:nx] {
							tmp := &sb.tmp[j]
							r.run8(n, tmp)
							sh := xsh[j]
							for i := 0; i < n; i++ {
								word[i] |= uint32(tmp[i]) << sh
							}
						}
					}
				}
				if p.span.packCol && w.constCol {
					// Only the first pixel's colour is read (colorStage).
					sb.col[0] = k
				}
				for c := 0; c < 4 && !p.span.packCol && !p.span.texMod; c++ {
					a := atR + c
					if vm&(1<<a) == 0 {
						for i := 0; i < n; i++ {
							sb.col[i][c] = k[c]
						}
						continue
					}
					tmp := &sb.tmp[c]
					w.rs[a].run8(n, tmp)
					for i := 0; i < n; i++ {
						sb.col[i][c] = int(tmp[i])
					}
				}
				if p.span.needSpec {
					for c := 0; c < 3; c++ {
						a := atSR + c
						tmp := &sb.tmp[c]
						w.rs[a].run8(n, tmp)
						for i := 0; i < n; i++ {
							sb.spec[i][c] = int(tmp[i])
						}
					}
					tmp := &sb.tmp[3]
					w.rs[atFog].run8(n, tmp)
					for i := 0; i < n; i++ {
						sb.fog[i] = int(tmp[i])
					}
				}
				if zInt {
					if zOne {
						sb.zi[0] = p.depth.zValue(w.rs[atZ].f) // constZChunk reads the one value
					} else {
						w.rs[atZ].runZ(&p.depth, n, &sb.zi)
					}
				} else if p.span.needZ {
					v, d := cur[atZ], gx[atZ]
					for i := 0; i < n; i++ {
						sb.z[i] = v + pr.zbias
						sb.zw[i] = sb.z[i]
						if !p.biasWB {
							sb.zw[i] = v
						}
						v += d
					}
					cur[atZ] = v
				}
				if p.span.needW {
					v, d := cur[atW], gx[atW]
					for i := 0; i < n; i++ {
						sb.w[i] = v
						v += d
					}
					if p.txmp {
						w.texCoordSpan(p, &cur, gx, gy, &lod, n)
					}
					cur[atW] = v
				} else if p.txmp {
					w.texCoordSpan(p, &cur, gx, gy, &lod, n)
				}
				if p.span.packCol && (zInt || !zs) {
					w.plainChunk(p, n, x0, s.Y, kword)
				} else {
					w.shadeChunk(p, n, x0, s.Y)
				}
			}
		}
		if len(spans) < cap(spans) {
			return
		}
		clip.Y0 = spans[len(spans)-1].Y + 1
	}
}

// texCoordSpan fills the chunk's texture coordinates and per-pixel LODs
// (texCoords' arithmetic), stepping the S and T attributes of cur past
// the chunk. W is read from the chunk's run (sb.w).
func (w *worker) texCoordSpan(p *pipeline, cur, gx, gy *[numAttrs]float64, lod *[2]int, n int) {
	sb := &w.sb
	for t := 0; t < p.ntex; t++ {
		as, at := atS0+2*t, atT0+2*t
		s0, t0, ds, dt := cur[as], cur[at], gx[as], gx[at]
		st, lv := &sb.st[t], &sb.lod[t]
		u := &p.units[t]
		sb.fixed[t], sb.tConst[t] = false, false
		switch {
		case w.texRow[t]:
			// The fixCoord values stepped along the row (rowStep).
			lv := &u.lv[u.lvmin]
			w.rs[as].runFix(n, lv.w, &sb.fix[t], 0)
			if w.rs[at].fd == 0 {
				// T does not vary along the row: one value (runFix's),
				// in the chunk's first pixel (bilinearRow).
				sb.fix[t][0][1] = fixCoord(w.rs[at].f, lv.h, true)
				sb.tConst[t] = true
			} else {
				w.rs[at].runFix(n, lv.h, &sb.fix[t], 1)
			}
			sb.fixed[t] = true
			continue
		case !p.persp || !(u.needLOD || u.mip == mipConstant) && w.wOne:
			// Without perspective, or with W 1 at every pixel (s/1 is
			// s), the coordinates are the attributes.
			for i := 0; i < n; i++ {
				st[i] = [2]float64{s0, t0}
				lv[i] = lod[t]
				s0 += ds
				t0 += dt
			}
		case !(u.needLOD || u.mip == mipConstant):
			for i := 0; i < n; i++ {
				if w := sb.w[i]; w == 0 {
					st[i] = [2]float64{0, 0}
				} else {
					st[i] = [2]float64{s0 / w, t0 / w}
				}
				lv[i] = lod[t]
				s0 += ds
				t0 += dt
			}
		default:
			var f frag
			var c [numAttrs]float64
			for i := 0; i < n; i++ {
				c[as], c[at], c[atW] = s0, t0, sb.w[i]
				f.lod = *lod
				texCoord(p, &f, &c, gx, gy, t)
				*lod = f.lod
				st[i], lv[i] = f.st[t], f.lod[t]
				s0 += ds
				t0 += dt
			}
		}
		cur[as], cur[at] = s0, t0
	}
}

// fixForce, when non-zero, widens rowStep's margin (tests, through setFixForce: it sends
// pixels through the exact fallback).
var fixForce uint32

// shadeChunk runs the fragment stages over the chunk's n pixels, which
// start at (x0, y).
func (w *worker) shadeChunk(p *pipeline, n, x0, y int) {
	sb := &w.sb
	pl := &p.span
	live := &sb.live
	w.stats.Fragments += n
	for i := 0; i < n; i++ {
		live[i] = true
	}
	if p.sp {
		row := w.e.stipple[(y+p.spYOS)&31]
		for i := 0; i < n; i++ {
			live[i] = row>>uint((x0+i+p.spXOS)&31)&1 != 0
		}
	}
	zs := p.zt || p.zw || p.st
	if zs && pl.early {
		if !w.depthStage(p, n, x0, y) || !p.cw {
			return
		}
	}
	if !p.cw && !zs {
		return // nothing the stages compute is written
	}
	c := &sb.col // the diffuse colour, then each stage's output
	if p.txmp {
		if p.ntex < 2 {
			sb.tex[1] = [spanN][4]int{} // stage 0's TEX_NEXT reads 0
		}
		for t := 0; t < p.ntex; t++ {
			u := &p.units[t]
			st, lv, out := &sb.st[t], &sb.lod[t], &sb.tex[t]
			if pl.texFast[t] {
				var fix *[spanN][2]int64
				if sb.fixed[t] {
					fix = &sb.fix[t]
				}
				tw := &sb.texw
				if sb.tConst[t] && pl.texMod && pl.texBlendABGR {
					w.stats.Written += u.texRowModBlendABGR(fix, &sb.word, live, w.texModRow(p, n, x0, y), p.pmask, n)
					return
				}
				if sb.tConst[t] {
					u.bilinearRow(fix, tw, live, n)
				} else {
					u.bilinearSpan(st, fix, tw, live, n)
				}
				if pl.texMod {
					w.texModChunk(p, n, x0, y)
					return
				}
				for i := 0; i < n; i++ {
					v := tw[i]
					out[i] = [4]int{int(v & 0xFF), int(v >> 8 & 0xFF), int(v >> 16 & 0xFF), int(v >> 24)}
				}
				continue
			}
			for i := 0; i < n; i++ {
				if live[i] {
					out[i] = u.sample(st[i][0], st[i][1], lv[i])
				}
			}
		}
		for t := 0; t < p.ntex; t++ {
			out := &sb.out[t]
			if pl.modulate[t] {
				tex := &sb.tex[t]
				for i := 0; i < n; i++ {
					a, b := &c[i], &tex[i]
					out[i] = [4]int{mul8u(a[0], b[0]), mul8u(a[1], b[1]), mul8u(a[2], b[2]), mul8u(a[3], b[3])}
				}
			} else {
				for i := 0; i < n; i++ {
					if live[i] {
						in := stageIn{dif: sb.col[i], spec: sb.spec[i], fog: sb.fog[i], tex: sb.tex[t][i], next: sb.tex[1][i], cur: c[i]}
						out[i] = p.stage[t].eval(&in)
					}
				}
			}
			c = out
		}
	}
	if p.cs {
		for i := 0; i < n; i++ {
			for k := 0; k < 3; k++ {
				c[i][k] = min(255, c[i][k]+sb.spec[i][k])
			}
		}
	}
	if p.fog {
		for i := 0; i < n; i++ {
			if live[i] {
				p.fogSt.apply(&c[i], p.fogSt.factor(sb.fog[i], sb.z[i], sb.w[i]))
			}
		}
	}
	if p.at {
		for i := 0; i < n; i++ {
			if live[i] && !compare(p.afunc, uint32(c[i][3]), uint32(p.aref)) {
				live[i] = false
			}
		}
	}
	if zs && !pl.early {
		if !w.depthStage(p, n, x0, y) {
			return
		}
	}
	if p.cw {
		w.colorStage(p, c, n, x0, y)
	}
}

// texModChunk finishes shadeChunk for a pipeline with one fast texture
// unit (bilinearSpan's texels in sb.texw, the diffuse colour in sb.word,
// R from the low byte), MODULATE and a 32-bit target
// (spanPlan.texMod): the stage, blending and the write in one loop, the
// blend in 16-bit lanes as colorStage's.
func (w *worker) texModChunk(p *pipeline, n, x0, y int) {
	sb := &w.sb
	live := &sb.live
	s := &p.dst
	crow := s.mem[y*s.pitch+4*x0:]
	crow = crow[:4*n]
	pm := p.pmask
	sh := &p.span.shifts
	rs, gs, bs, as := sh[0], sh[1], sh[2], sh[3]
	abl := p.abl
	tw := &sb.texw
	words := &sb.word
	if p.span.texBlendABGR {
		w.stats.Written += texModBlendABGR(crow, tw, words, live, pm, n)
		return
	}
	written := 0
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		t, c := tw[i], words[i]
		r := mul8u(int(c&0xFF), int(t&0xFF))
		g := mul8u(int(c>>8&0xFF), int(t>>8&0xFF))
		b := mul8u(int(c>>16&0xFF), int(t>>16&0xFF))
		a := mul8u(int(c>>24), int(t>>24))
		out := uint32(r)<<rs | uint32(g)<<gs | uint32(b)<<bs | uint32(a)<<as
		cb := crow[4*i : 4*i+4]
		dv := binary.LittleEndian.Uint32(cb)
		if abl {
			out = blendSrcAlpha(out, dv, uint64(a))
		}
		binary.LittleEndian.PutUint32(cb, out&pm|dv&^pm)
		written++
	}
	w.stats.Written += written
}

// texModBlendABGR is texModChunk's loop for an ABGR8888 target with
// blending (the channels in the texel's byte order): the MODULATE
// products go to blendSrcAlpha's 16-bit lanes as they are computed,
// without the word between. It returns the pixels written.
func texModBlendABGR(crow []byte, tw, words *[spanN]uint32, live *[spanN]bool, pm uint32, n int) int {
	const ones, m = 0x0001000100010001, 0x00FF00FF00FF00FF
	written := 0
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		t, c := tw[i], words[i]
		r := mul8u32(c&0xFF, t&0xFF)
		g := mul8u32(c>>8&0xFF, t>>8&0xFF)
		b := mul8u32(c>>16&0xFF, t>>16&0xFF)
		a := mul8u32(c>>24, t>>24)
		cb := crow[4*i : 4*i+4]
		dv := binary.LittleEndian.Uint32(cb)
		// blendSrcAlpha with the source already in lanes.
		x := (uint64(r)|uint64(g)<<16|uint64(b)<<32|uint64(a)<<48)*uint64(a) + 127*ones
		y := spread16(dv)*uint64(255-a) + 127*ones
		x = (x + ones + x>>8&m) >> 8 & m
		y = (y + ones + y>>8&m) >> 8 & m
		sum := x + y // at most 255 a lane
		sum = (sum | sum>>8) & 0x0000FFFF0000FFFF
		out := uint32(sum | sum>>16)
		binary.LittleEndian.PutUint32(cb, out&pm|dv&^pm)
		written++
	}
	return written
}

// texModRow is the colour row of texModChunk's chunk: n pixels from
// (x0, y).
func (w *worker) texModRow(p *pipeline, n, x0, y int) []byte {
	s := &p.dst
	crow := s.mem[y*s.pitch+4*x0:]
	return crow[:4*n]
}

// texRowModBlendABGR is bilinearRow and texModBlendABGR in one loop, for
// a chunk whose T does not vary (fix's first pixel holds it; S in every
// pixel's): the filtered texel's channels go from the x blend's 32-bit
// lanes (R | B<<32, G | A<<32) to the MODULATE products without the
// texel word between. The arithmetic is bilinearRow's and
// texModBlendABGR's (TestTexRowModBlendMatches). It returns the pixels
// written.
func (u *texUnit) texRowModBlendABGR(fix *[spanN][2]int64, words *[spanN]uint32, live *[spanN]bool, crow []byte, pm uint32, n int) int {
	lv := &u.lv[u.lvmin]
	mx := lv.w - 1
	mem := lv.mem
	const m32 = 0x0000FFFF0000FFFF
	const half = 32768 | 32768<<32
	const ones, m = 0x0001000100010001, 0x00FF00FF00FF00FF
	vt := fix[0][1]
	y0 := int(vt>>8) & (lv.h - 1)
	r0, r1 := y0*lv.pitch, ((y0+1)&(lv.h-1))*lv.pitch
	ay := uint64(uint8(vt))
	iy := 256 - ay
	lastX0, lastX1 := -1, -1
	var c0, c1 uint64
	crow = crow[:4*n]
	written := 0
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		us := fix[i][0]
		x0 := int(us>>8) & mx
		switch x0 {
		case lastX0:
		case lastX1:
			x1 := (x0 + 1) & mx
			c0 = c1
			c1 = spread16(ld32(mem, r0+4*x1))*iy + spread16(ld32(mem, r1+4*x1))*ay
			lastX0, lastX1 = x0, x1
		default:
			x1 := (x0 + 1) & mx
			c0 = spread16(ld32(mem, r0+4*x0))*iy + spread16(ld32(mem, r1+4*x0))*ay
			c1 = spread16(ld32(mem, r0+4*x1))*iy + spread16(ld32(mem, r1+4*x1))*ay
			lastX0, lastX1 = x0, x1
		}
		ax := uint64(uint8(us))
		ix := 256 - ax
		rb := ((c0&m32)*ix + (c1&m32)*ax + half) >> 16 // R | B<<32, each lane's low byte
		ga := ((c0>>16&m32)*ix + (c1>>16&m32)*ax + half) >> 16
		c := uint64(words[i])
		// MODULATE: the four products (at most 255*255) in 16-bit
		// lanes, then mul8u's rounding in every lane at once (x + 127
		// + 1 + (x+127)>>8 is at most 65407: no carry out of a lane).
		pr := (c&0xFF)*(rb&0xFF) | (c>>8&0xFF)*(ga&0xFF)<<16 | (c>>16&0xFF)*(rb>>32&0xFF)<<32 | (c>>24)*(ga>>32&0xFF)<<48
		pr += 127 * ones
		src := (pr + ones + pr>>8&m) >> 8 & m // R, G, B, A lanes
		a := src >> 48
		cb := crow[4*i : 4*i+4]
		dv := binary.LittleEndian.Uint32(cb)
		x := src*a + 127*ones
		y := spread16(dv)*(255-a) + 127*ones
		x = (x + ones + x>>8&m) >> 8 & m
		y = (y + ones + y>>8&m) >> 8 & m
		sum := x + y // at most 255 a lane
		sum = (sum | sum>>8) & 0x0000FFFF0000FFFF
		out := uint32(sum | sum>>16)
		binary.LittleEndian.PutUint32(cb, out&pm|dv&^pm)
		written++
	}
	return written
}

// fill32 stores the little-endian word v at every 4 bytes of b (whose
// length is a multiple of 4), two at a time.
func fill32(b []byte, v uint32) {
	vv := uint64(v) | uint64(v)<<32
	i := 0
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:i+8:i+8], vv)
	}
	if i+4 <= len(b) {
		binary.LittleEndian.PutUint32(b[i:i+4:i+4], v)
	}
}

// ld32 is the little-endian word at b[o:o+4], sliced with its length and
// capacity (no pointer mask for an empty slice, as binary's b[o:] needs).
func ld32(b []byte, o int) uint32 {
	w := b[o : o+4 : o+4]
	return uint32(w[0]) | uint32(w[1])<<8 | uint32(w[2])<<16 | uint32(w[3])<<24
}

// mul8u32 is mul8u in uint32.
func mul8u32(a, b uint32) uint32 {
	x := a*b + 127
	return (x + 1 + x>>8) >> 8
}

// blendSrcAlpha is mul8(s, a) + mul8(d, 255 - a) per byte lane of the
// words s and d, clamped to 255 (a at most 255). The clamp never acts:
// mul8 grows with its operands and mul8(255, a) is a, so the sum is at
// most a + (255 - a) (TestBlendSrcAlphaExhaustive).
func blendSrcAlpha(s, d uint32, a uint64) uint32 {
	const ones, m = 0x0001000100010001, 0x00FF00FF00FF00FF
	x := spread16(s)*a + 127*ones
	y := spread16(d)*(255-a) + 127*ones
	x = (x + ones + x>>8&m) >> 8 & m
	y = (y + ones + y>>8&m) >> 8 & m
	sum := x + y // at most 255 a lane
	sum = (sum | sum>>8) & 0x0000FFFF0000FFFF
	return uint32(sum | sum>>16)
}

// plainChunk is shadeChunk for a pipeline that writes its diffuse colour
// as it is (spanPlan.packCol) with no Z work or the integer Z16 test and
// write (zInt): stipple, Z and colour in one loop over the chunk's
// pixels. kword is the colour's word when the colour does not vary
// (constCol); otherwise sb.word holds the chunk's words.
func (w *worker) plainChunk(p *pipeline, n, x0, y int, kword uint32) {
	sb := &w.sb
	w.stats.Fragments += n
	stip := uint32(0xFFFFFFFF)
	if p.sp {
		// The row's stipple, rotated so that bit i is pixel x0+i's (the
		// chunk is at most 64 pixels: two rounds of the 32-bit row).
		row := w.e.stipple[(y+p.spYOS)&31]
		stip = bits.RotateLeft32(row, -((x0 + p.spXOS) & 31))
	}
	s := &p.dst
	crow := s.mem[y*s.pitch+4*x0:]
	crow = crow[:4*n]
	pm := p.pmask
	full := pm == ^uint32(0)
	words := &sb.word
	constCol := w.constCol
	written := 0
	if !(p.zt || p.zw) {
		if constCol && full && !p.sp {
			// Every pixel is written, every bit, with one word: the
			// clear and fill-flat.
			fill32(crow, kword)
			w.stats.Written += n
			return
		}
		for i := 0; i < n; i++ {
			if stip>>(uint(i)&31)&1 == 0 {
				continue
			}
			col := kword
			if !constCol {
				col = words[i]
			}
			b := crow[4*i : 4*i+4]
			if full {
				binary.LittleEndian.PutUint32(b, col) // every bit: nothing to keep
			} else {
				binary.LittleEndian.PutUint32(b, col&pm|binary.LittleEndian.Uint32(b)&^pm)
			}
			written++
		}
		w.stats.Written += written
		return
	}
	d := &p.depth
	zrow := d.mem[y*d.pitch+2*x0:]
	zrow = zrow[:2*n]
	zi := &sb.zi
	// The Z function's bits are its outcomes: 1 less, 2 equal, 4
	// greater (compare); ALWAYS when the test is off.
	zfn := p.zfunc
	if !p.zt {
		zfn = 7
	}
	zw := p.zw
	if w.zConst && !p.sp && full && !constCol {
		w.stats.Written += constZChunk(zrow, crow, zi[0], p.span.zLanes, zw, words, n)
		return
	}
	for i := 0; i < n; i++ {
		if stip>>(uint(i)&31)&1 == 0 {
			continue
		}
		zb := zrow[2*i : 2*i+2]
		stored := uint32(binary.LittleEndian.Uint16(zb))
		z := zi[i]
		if zfn>>(b2u(z >= stored)+b2u(z > stored))&1 == 0 {
			continue
		}
		if zw && z != stored {
			binary.LittleEndian.PutUint16(zb, uint16(z))
		}
		col := kword
		if !constCol {
			col = words[i]
		}
		b := crow[4*i : 4*i+4]
		if full {
			binary.LittleEndian.PutUint32(b, col)
		} else {
			binary.LittleEndian.PutUint32(b, col&pm|binary.LittleEndian.Uint32(b)&^pm)
		}
		written++
	}
	w.stats.Written += written
}

// b2u is 1 for true and 0 for false.
func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// mul8u is mul8 for non-negative operands: (a*b + 127)/255, the division
// as adds and shifts (exact below 255*256).
func mul8u(a, b int) int {
	x := uint32(a*b) + 127
	return int((x + 1 + x>>8) >> 8)
}

// depthStage runs the stencil and Z tests and writes over the chunk; it
// reports whether any pixel is left.
func (w *worker) depthStage(p *pipeline, n, x0, y int) bool {
	sb := &w.sb
	live := &sb.live
	any := false
	d := &p.depth
	if !p.span.zFast || d.bytes != 2 {
		var f frag
		for i := 0; i < n; i++ {
			if live[i] {
				f.z, f.zw, f.w = sb.z[i], sb.zw[i], sb.w[i]
				live[i] = w.depthStencil(p, x0+i, y, &f)
				any = any || live[i]
			}
		}
		return any
	}
	// Z16 without stencil or W buffer.
	row := d.mem[y*d.pitch:]
	if sb.zInt {
		// Integer Z (zInt): the Z function's bits are its outcomes (1
		// less, 2 equal, 4 greater; ALWAYS when the test is off).
		zfn := p.zfunc
		if !p.zt {
			zfn = 7
		}
		zrow := row[2*x0:]
		zrow = zrow[:2*n]
		zi := &sb.zi
		if w.zConst && !p.sp && p.span.early {
			// One Z value, every pixel live (no stipple, before the
			// alpha test).
			return constZDepth(zrow, zi[0], p.span.zLanes, p.zw, live, n)
		}
		for i := 0; i < n; i++ {
			if !live[i] {
				continue
			}
			zb := zrow[2*i : 2*i+2]
			stored := uint32(binary.LittleEndian.Uint16(zb))
			z := zi[i]
			if zfn>>(b2u(z >= stored)+b2u(z > stored))&1 == 0 {
				live[i] = false
				continue
			}
			if p.zw && z != stored {
				binary.LittleEndian.PutUint16(zb, uint16(z))
			}
			any = true
		}
		return any
	}
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		off := 2 * (x0 + i)
		b := row[off : off+2]
		stored := uint32(binary.LittleEndian.Uint16(b))
		z := d.zValue(sb.z[i])
		if p.zt && !compare(p.zfunc, z, stored) {
			live[i] = false
			continue
		}
		if p.zw {
			if sb.zw[i] != sb.z[i] { // a bias the write leaves out
				z = d.zValue(sb.zw[i])
			}
			if z != stored {
				binary.LittleEndian.PutUint16(b, uint16(z))
			}
		}
		any = true
	}
	return any
}

// colorStage blends and writes the chunk's colours.
func (w *worker) colorStage(p *pipeline, c *[spanN][4]int, n, x0, y int) {
	live := &w.sb.live
	if !p.span.store32 {
		for i := 0; i < n; i++ {
			if live[i] {
				w.writeColor(p, x0+i, y, &c[i])
			}
		}
		return
	}
	// A 32-bit target with 8-bit channels, ROP COPY: the channels go to
	// their byte lanes; blending (weigh is mul8 for operands in [0, 255])
	// runs on the four lanes at once, 16 bits each.
	s := &p.dst
	f := &s.fmt
	row := s.mem[y*s.pitch:]
	pm := p.pmask
	rs, gs, bs, as := f.R.Shift, f.G.Shift, f.B.Shift, f.A.Shift
	if f.A.Bits == 0 {
		as = 32 // the x byte: the lane is blended and masked off
	}
	if p.span.packCol && !w.constCol {
		for i := 0; i < n; i++ {
			if live[i] {
				b := row[4*(x0+i) : 4*(x0+i)+4]
				dv := binary.LittleEndian.Uint32(b)
				binary.LittleEndian.PutUint32(b, w.sb.word[i]&pm|dv&^pm)
				w.stats.Written++
			}
		}
		return
	}
	if w.constCol && !p.txmp && !p.cs && !p.fog && !p.abl {
		// One colour for every pixel: one word, written through the
		// plane mask.
		v := &c[0]
		out := (uint32(v[0])<<rs | uint32(v[1])<<gs | uint32(v[2])<<bs | uint32(v[3])<<as) & pm
		for i := 0; i < n; i++ {
			if live[i] {
				b := row[4*(x0+i) : 4*(x0+i)+4]
				dv := binary.LittleEndian.Uint32(b)
				binary.LittleEndian.PutUint32(b, out|dv&^pm)
				w.stats.Written++
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		off := 4 * (x0 + i)
		b := row[off : off+4]
		dv := binary.LittleEndian.Uint32(b)
		v := &c[i]
		out := uint32(v[0])<<rs | uint32(v[1])<<gs | uint32(v[2])<<bs | uint32(v[3])<<as
		if p.abl {
			out = blendSrcAlpha(out, dv, uint64(v[3]))
		}
		w.stats.Written++
		binary.LittleEndian.PutUint32(b, out&pm|dv&^pm)
	}
}

// bilinearSpan is bilinearRepeat over the chunk: the same coordinates,
// weights and rounding, the four texels blended in x with the channels in
// 16-bit lanes and in y two channels a word in 32-bit lanes. out[i] holds
// the filtered texel's channels in the texel's byte order (R, G, B, A from
// the low byte).
func (u *texUnit) bilinearSpan(st *[spanN][2]float64, fix *[spanN][2]int64, out *[spanN]uint32, live *[spanN]bool, n int) {
	lv := &u.lv[u.lvmin]
	mx, my := lv.w-1, lv.h-1
	mem, pitch := lv.mem, lv.pitch
	// Each pixel blends two texel columns, each column first in y:
	// top*iy + bot*ay = ix*(t00*iy + t01*ay) + ax*(t10*iy + t11*ay) in
	// integers, so the columns' sums (col, in 16-bit lanes: at most
	// 255*256) can be kept from pixel to pixel while the row and y weight
	// (vt) stay and the pixel is on the same or the next column.
	const m32 = 0x0000FFFF0000FFFF
	const half = 32768 | 32768<<32
	const m8 = 0x000000FF000000FF
	lastVt, lastX0, lastX1 := int64(math.MinInt64), -1, -1 // no fixCoord value is MinInt64
	var c0, c1 uint64
	var r0, r1 int
	var ay, iy uint64
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		var us, vt int64
		if fix != nil {
			us, vt = fix[i][0], fix[i][1]
		} else {
			us, vt = fixCoord(st[i][0], lv.w, true), fixCoord(st[i][1], lv.h, true)
		}
		x0 := int(us>>8) & mx
		if vt != lastVt {
			y0 := int(vt>>8) & my
			r0, r1 = y0*pitch, ((y0+1)&my)*pitch
			ay = uint64(uint8(vt))
			iy = 256 - ay
			lastVt, lastX0, lastX1 = vt, -1, -1
		}
		switch x0 {
		case lastX0:
		case lastX1:
			x1 := (x0 + 1) & mx
			c0 = c1
			c1 = spread16(ld32(mem, r0+4*x1))*iy + spread16(ld32(mem, r1+4*x1))*ay
			lastX0, lastX1 = x0, x1
		default:
			x1 := (x0 + 1) & mx
			c0 = spread16(ld32(mem, r0+4*x0))*iy + spread16(ld32(mem, r1+4*x0))*ay
			c1 = spread16(ld32(mem, r0+4*x1))*iy + spread16(ld32(mem, r1+4*x1))*ay
			lastX0, lastX1 = x0, x1
		}
		ax := uint64(uint8(us))
		ix := 256 - ax
		rb := ((c0&m32)*ix + (c1&m32)*ax + half) >> 16 & m8 // R | B<<32
		ga := ((c0>>16&m32)*ix + (c1>>16&m32)*ax + half) >> 16 & m8
		x := rb | ga<<8
		out[i] = uint32(x) | uint32(x>>32)<<16
	}
}

// bilinearRow is bilinearSpan for a chunk whose T does not vary (fix's
// first pixel holds it; S in every pixel's): the two texel rows and the
// y weight are set once.
func (u *texUnit) bilinearRow(fix *[spanN][2]int64, out *[spanN]uint32, live *[spanN]bool, n int) {
	lv := &u.lv[u.lvmin]
	mx := lv.w - 1
	mem := lv.mem
	const m32 = 0x0000FFFF0000FFFF
	const half = 32768 | 32768<<32
	const m8 = 0x000000FF000000FF
	vt := fix[0][1]
	y0 := int(vt>>8) & (lv.h - 1)
	row0, row1 := mem[y0*lv.pitch:], mem[((y0+1)&(lv.h-1))*lv.pitch:]
	ay := uint64(uint8(vt))
	iy := 256 - ay
	lastX0, lastX1 := -1, -1
	var c0, c1 uint64
	for i := 0; i < n; i++ {
		if !live[i] {
			continue
		}
		us := fix[i][0]
		x0 := int(us>>8) & mx
		switch x0 {
		case lastX0:
		case lastX1:
			x1 := (x0 + 1) & mx
			c0 = c1
			c1 = spread16(ld32(row0, 4*x1))*iy + spread16(ld32(row1, 4*x1))*ay
			lastX0, lastX1 = x0, x1
		default:
			x1 := (x0 + 1) & mx
			c0 = spread16(ld32(row0, 4*x0))*iy + spread16(ld32(row1, 4*x0))*ay
			c1 = spread16(ld32(row0, 4*x1))*iy + spread16(ld32(row1, 4*x1))*ay
			lastX0, lastX1 = x0, x1
		}
		ax := uint64(uint8(us))
		ix := 256 - ax
		rb := ((c0&m32)*ix + (c1&m32)*ax + half) >> 16 & m8 // R | B<<32
		ga := ((c0>>16&m32)*ix + (c1>>16&m32)*ax + half) >> 16 & m8
		x := rb | ga<<8
		out[i] = uint32(x) | uint32(x>>32)<<16
	}
}

// spread16 spreads the four bytes of v into 16-bit lanes.
func spread16(v uint32) uint64 {
	x := uint64(v)
	x = (x | x<<16) & 0x0000FFFF0000FFFF
	return (x | x<<8) & 0x00FF00FF00FF00FF
}
