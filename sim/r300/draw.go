package r300

import (
	"encoding/binary"
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// draw executes a draw packet: it gathers the vertices the PRIM_WALK
// names, assembles primitives and rasterises them. next is the index of
// the word after the packet; draw returns how many words after it it
// consumed (an INDX_BUFFER packet).
func (e *Engine) draw(op r3.Opcode, vf uint32, data, words []uint32, next int) (int, error) {
	prim := r3.PrimType(vf & 15)
	walk := r3.PrimWalk(vf >> 4 & 3)
	idx32 := vf>>11&1 != 0
	n := int(vf >> 16)
	want := map[r3.Opcode]r3.PrimWalk{
		r3.OpDrawVbuf2: r3.WalkList, r3.OpDrawVbuf: r3.WalkList,
		r3.OpDrawImmd2: r3.WalkData, r3.OpDrawImmd: r3.WalkData,
		r3.OpDrawIndx2: r3.WalkIndices, r3.OpDrawIndx: r3.WalkIndices,
	}[op]
	if walk != want {
		return 0, faultf("%s needs PRIM_WALK %s, VF_CNTL has %s", op, r3.EnumPrimWalk[want], r3.EnumPrimWalk[walk])
	}
	if vf>>13&1 != 0 {
		return 0, faultf("VF_CNTL.DUAL_INDEX_MODE is not simulated")
	}
	switch {
	case prim == r3.PrimTriWFlags:
		return 0, faultf("PRIM_TYPE 7 (triangles with wFlags) is not simulated")
	case prim >= 8 && prim <= 11:
		return 0, faultf("PRIM_TYPE %d is reserved", prim)
	}
	extra := 0
	var indices []uint32
	switch walk {
	case r3.WalkList:
		if len(data) != 0 {
			return 0, faultf("%s carries %d unexpected dwords", op, len(data))
		}
	case r3.WalkData:
		size := int(e.reg(r3.VAP_VTX_SIZE) & 0x7F)
		if size == 0 || len(data) != n*size {
			return 0, faultf("%s: %d vertices of VAP_VTX_SIZE %d need %d dwords, packet has %d", op, n, size, n*size, len(data))
		}
	case r3.WalkIndices:
		src := data
		if len(data) == 0 && n > 0 {
			var err error
			src, extra, err = e.indexBuffer(words, next)
			if err != nil {
				return 0, err
			}
		}
		per := 2
		if idx32 {
			per = 1
		}
		if len(src)*per < n {
			return 0, faultf("%d indices need %d dwords, have %d", n, (n+per-1)/per, len(src))
		}
		if len(data) > 0 && len(data) != (n+per-1)/per {
			return 0, faultf("%d inline indices need %d dwords, packet has %d", n, (n+per-1)/per, len(data))
		}
		indices = make([]uint32, n)
		for i := range indices {
			if idx32 {
				indices[i] = src[i]
			} else {
				indices[i] = src[i/2] >> (16 * uint(i%2)) & 0xFFFF
			}
		}
	default:
		return 0, faultf("PRIM_WALK STATE (the VAP_PORT immediate-mode ports) is not simulated")
	}
	e.Stats.Draws++
	if prim == r3.PrimNone || n == 0 {
		return extra, nil
	}
	s, err := e.prepare(prim)
	if err != nil {
		return 0, err
	}
	if s.lineStuff && s.stippleReset == 2 {
		e.regs[r3.GA_LINE_STIPPLE_VALUE>>2] = 0
	}
	s.prepared = e.prepares(s, prim)
	if err := e.fetch(s, walk, n, data, indices); err != nil {
		return 0, err
	}
	return extra, e.endDraw(e.assemblePrims(s, prim, n))
}

// indexBuffer reads the INDX_BUFFER packet at words[next] ([OUT] Mesa
// r300_emit_draw_elements: `1<<31 | VAP_PORT_IDX0>>2`, address, dwords).
func (e *Engine) indexBuffer(words []uint32, next int) ([]uint32, int, error) {
	if next >= len(words) {
		return nil, 0, faultf("3D_DRAW_INDX_2 without inline indices must be followed by INDX_BUFFER")
	}
	h := r3.ParseHeader(words[next])
	if h.Type != 3 || h.Op != r3.OpIndxBuffer {
		return nil, 0, faultf("3D_DRAW_INDX_2 without inline indices is followed by %s, not INDX_BUFFER", r3.DecodeHeader(words[next]))
	}
	p, err := payload(h, words, next)
	if err != nil {
		return nil, 0, err
	}
	if len(p) != 3 {
		return nil, 0, faultf("INDX_BUFFER needs 3 dwords, has %d", len(p))
	}
	if p[0] != 1<<31|r3.VAP_PORT_IDX0>>2 {
		return nil, 0, faultf("INDX_BUFFER first dword %#x: only ONE_REG_WR to VAP_PORT_IDX0 without skip is simulated", p[0])
	}
	ndw := p[2]
	if ndw > 1<<16 {
		return nil, 0, faultf("INDX_BUFFER of %d dwords exceeds the 65536 indices a draw can use", ndw)
	}
	b, ok := e.mem.Slice(p[1]&^3, 4*ndw)
	if !ok {
		return nil, 0, faultf("INDX_BUFFER %#x+%d dwords lies outside memory", p[1], ndw)
	}
	out := make([]uint32, ndw)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out, 1 + h.Count, nil
}

// fetch builds the draw's vertices in order of use.
func (e *Engine) fetch(s *drawState, walk r3.PrimWalk, n int, data []uint32, indices []uint32) error {
	if cap(e.verts) < n {
		e.verts = make([]vertex, n)
	}
	e.verts = e.verts[:n]
	if !e.reference {
		if s.pvs != nil {
			return e.fetchPVS(s, walk, n, data, indices)
		}
		return e.fetchBypass(s, walk, n, data, indices)
	}
	minI, maxI := e.reg(r3.VAP_VF_MIN_VTX_INDX)&0xFFFFFF, e.reg(r3.VAP_VF_MAX_VTX_INDX)&0xFFFFFF
	var buf []uint32
	size := int(e.reg(r3.VAP_VTX_SIZE) & 0x7F)
	// An indexed draw shades each index once (the vertex cache, L1785's
	// VF_MAX_VTX_NUM, without its size limit: the result is the same).
	var seen *vertexCache
	if indices != nil && s.pvs != nil {
		seen = &e.vcache
		seen.reset(minI, maxI)
	}
	regs := &e.pvsRegs
	if s.pvs != nil {
		s.pvs.clearAll(regs)
	}
	for i := 0; i < n; i++ {
		v := &e.verts[i]
		*v = vertex{}
		var d []uint32
		if walk == r3.WalkData {
			d = data[i*size : (i+1)*size]
		} else {
			idx := uint32(i)
			if indices != nil {
				idx = indices[i]
			}
			// L2066-2075: indices outside [MIN, MAX] are clamped.
			idx = max(minI, min(maxI, idx))
			if seen != nil {
				if j, ok := seen.lookup(idx); ok {
					*v = e.verts[j]
					continue
				}
				seen.add(idx, i)
			}
			var err error
			if buf, err = e.vertexDwords(idx, buf); err != nil {
				return err
			}
			d = buf
		}
		if s.pvs != nil {
			if err := s.pvs.shade(s.els, &s.out, d, v, regs); err != nil {
				return err
			}
		} else if err := assemble(s.els, &s.out, d, v); err != nil {
			return err
		}
		if !s.clip {
			s.viewport(v)
		}
		if s.prepared {
			s.prepVertex(v)
		}
	}
	if s.pvs != nil {
		// One watchdog step per 64 PVS instructions (pvs.go).
		n += s.pvs.steps / 64
		s.pvs.steps %= 64
	}
	return e.x.Step(n)
}

// fetchPVS is fetch for a vertex program, shading the vertices in
// batches (pvsbatch.go): the same vertices, registers, faults and
// watchdog steps as fetch's vertex-by-vertex path (Engine.reference).
// A vertex whose fetch faults ends the draw after the vertices before it
// are shaded, as there.
func (e *Engine) fetchPVS(s *drawState, walk r3.PrimWalk, n int, data []uint32, indices []uint32) error {
	minI, maxI := e.reg(r3.VAP_VF_MIN_VTX_INDX)&0xFFFFFF, e.reg(r3.VAP_VF_MAX_VTX_INDX)&0xFFFFFF
	size := int(e.reg(r3.VAP_VTX_SIZE) & 0x7F)
	var seen *vertexCache
	if indices != nil {
		seen = &e.vcache
		seen.reset(minI, maxI)
	}
	st := s.pvs
	rs := &e.pvsBatch
	for i := range rs {
		st.clearAll(&rs[i])
	}
	// slot[b] is the vertex lane b shades; dups are vertices to copy
	// from a vertex of the pending batch once it is shaded.
	var slot [pvsBatchSize]int
	nb := 0
	dups := e.pvsDups[:0]
	oc := makeOutCopy(&s.out, false)
	flush := func() error {
		if nb == 0 {
			return nil
		}
		if err := st.runBatch(rs[:nb]); err != nil {
			return err
		}
		for b := 0; b < nb; b++ {
			v := &e.verts[slot[b]]
			oc.apply(&rs[b].out, v)
			if !s.clip {
				s.viewport(v)
			}
			if s.prepared {
				s.prepVertex(v)
			}
			st.resetVertex(&rs[b])
		}
		nb = 0
		for _, d := range dups {
			e.verts[d[0]] = e.verts[d[1]]
		}
		dups = dups[:0]
		return nil
	}
	// fault shades the pending batch (whose vertices came first), then
	// returns err.
	fault := func(err error) error {
		if ferr := flush(); ferr != nil {
			return ferr
		}
		return err
	}
	vf := e.newVFetch(s, minI, maxI)
	buf := e.vfBuf[:0]
	defer func() { e.vfBuf = buf[:0] }()
	for i := 0; i < n; i++ {
		v := &e.verts[i]
		*v = vertex{}
		if walk != r3.WalkData {
			idx := uint32(i)
			if indices != nil {
				idx = indices[i]
			}
			// L2066-2075: indices outside [MIN, MAX] are clamped.
			idx = max(minI, min(maxI, idx))
			if seen != nil {
				if j, ok := seen.lookup(idx); ok {
					if nb > 0 && j >= slot[0] {
						dups = append(dups, [2]int{i, j})
					} else {
						*v = e.verts[j]
					}
					continue
				}
				seen.add(idx, i)
			}
			var err error
			if buf, err = vf.fetch(e, s.els, idx, buf, &rs[nb].in); err != nil {
				return fault(err)
			}
		} else if err := vf.inputs(s.els, data[i*size:(i+1)*size], &rs[nb].in); err != nil {
			return fault(err)
		}
		slot[nb] = i
		nb++
		if nb == pvsBatchSize {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	e.pvsDups = dups
	// One watchdog step per 64 PVS instructions (pvs.go).
	n += st.steps / 64
	st.steps %= 64
	return e.x.Step(n)
}

// vertexCache remembers which vertex of a draw shaded each index. Index
// ranges up to vcacheDirect use a table stamped per draw (reused between
// draws: a map per draw dominated small draws); wider ranges a map.
type vertexCache struct {
	base  uint32
	gen   uint32
	stamp []uint32
	at    []int32
	wide  map[uint32]int
}

const vcacheDirect = 1 << 17

func (c *vertexCache) reset(lo, hi uint32) {
	c.wide = nil
	if hi < lo || hi-lo >= vcacheDirect {
		c.wide = map[uint32]int{}
		return
	}
	c.base = lo
	if m := int(hi-lo) + 1; len(c.stamp) < m {
		c.stamp = make([]uint32, m)
		c.at = make([]int32, m)
		c.gen = 0
	}
	c.gen++
	if c.gen == 0 {
		clear(c.stamp)
		c.gen = 1
	}
}

func (c *vertexCache) lookup(idx uint32) (int, bool) {
	if c.wide != nil {
		j, ok := c.wide[idx]
		return j, ok
	}
	k := idx - c.base
	if c.stamp[k] == c.gen {
		return int(c.at[k]), true
	}
	return 0, false
}

func (c *vertexCache) add(idx uint32, i int) {
	if c.wide != nil {
		c.wide[idx] = i
		return
	}
	k := idx - c.base
	c.stamp[k] = c.gen
	c.at[k] = int32(i)
}

// viewport applies VAP_VTE_CNTL (L2108-2121) and converts to subpixels.
func (s *drawState) viewport(v *vertex) {
	x, y, z, w := float64(v.pos[0]), float64(v.pos[1]), float64(v.pos[2]), float64(v.pos[3])
	q := w // VTX_W0_FMT clear: the incoming W0 is already 1/W
	if s.vte>>10&1 != 0 {
		q = 1 / w
	}
	if s.vte>>8&1 == 0 {
		x, y = x*q, y*q
	}
	if s.vte>>9&1 == 0 {
		z *= q
	}
	if s.vte&1 != 0 {
		x *= s.vp[0]
	}
	if s.vte&2 != 0 {
		x += s.vp[1]
	}
	if s.vte&4 != 0 {
		y *= s.vp[2]
	}
	if s.vte&8 != 0 {
		y += s.vp[3]
	}
	if s.vte&16 != 0 {
		z *= s.vp[4]
	}
	if s.vte&32 != 0 {
		z += s.vp[5]
	}
	v.wx, v.wy, v.wz = x, y, z
	v.w = 1 / q
	v.q = q
	if s.wOne {
		v.q = 1
	}
	v.sx = s.toSub(x) + s.gaOffX
	v.sy = s.toSub(y) + s.gaOffY
}

// subLimit bounds subpixel positions so that edge products fit in int64.
const subLimit = 1 << 26

func (s *drawState) toSub(x float64) int64 {
	f := x * float64(s.sub)
	if s.roundNearest {
		f = math.Floor(f + 0.5)
	} else {
		f = math.Trunc(f)
	}
	switch {
	case f != f:
		return 0
	case f > subLimit:
		return subLimit
	case f < -subLimit:
		return -subLimit
	}
	return int64(f)
}

// shade applies GA_COLOR_CONTROL (solid, flat from the provoking vertex,
// or Gouraud) and the GA_ROUND_MODE clamps to a primitive's vertices.
func (s *drawState) shade(vs []vertex, prov int) {
	for k := 0; k < 4; k++ {
		if !s.out.col[k] && s.shadeRGB[k] != 0 && s.shadeA[k] != 0 {
			continue
		}
		pc := vs[prov].col[k]
		for i := range vs {
			c := &vs[i].col[k]
			switch s.shadeRGB[k] {
			case 0:
				c[0], c[1], c[2] = s.solid[0], s.solid[1], s.solid[2]
			case 1:
				c[0], c[1], c[2] = pc[0], pc[1], pc[2]
			}
			switch s.shadeA[k] {
			case 0:
				c[3] = s.solid[3]
			case 1:
				c[3] = pc[3]
			}
			for j := 0; j < 3; j++ {
				c[j] = clampColor(c[j], s.rgbClamp8)
			}
			c[3] = clampColor(c[3], s.alphaClamp8)
		}
	}
}

// clampColor is GA_ROUND_MODE.RGB_CLAMP / ALPHA_CLAMP (L686-693).
func clampColor(x float32, wide bool) float32 {
	lo, hi := float32(0), float32(1)
	if wide {
		lo, hi = -7.9999, 7.9999
	}
	if !(x > lo) {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// assemblePrims walks the primitive type over the draw's vertices.
func (e *Engine) assemblePrims(s *drawState, prim r3.PrimType, n int) error {
	if s.prepared {
		return e.assembleTris(s, prim, n)
	}
	vs := e.verts
	// provoking returns which vertex of an assembled primitive of m
	// vertices carries the flat colour (GA_COLOR_CONTROL.PROVOKING_VERTEX).
	provoking := func(m int) int { return min(int(s.provoking), m-1) }
	tri := func(a, b, c int, prov int) error {
		t := [3]vertex{vs[a], vs[b], vs[c]}
		s.shade(t[:], prov)
		return e.triangle(s, &t)
	}
	line := func(a, b int) error {
		l := [2]vertex{vs[a], vs[b]}
		s.shade(l[:], provoking(2))
		return e.clipLine(s, l)
	}
	switch prim {
	case r3.PrimPoints:
		for i := 0; i < n; i++ {
			p := [1]vertex{vs[i]}
			s.shade(p[:], 0)
			if err := e.clipPoint(s, &p[0]); err != nil {
				return err
			}
		}
	case r3.PrimLines:
		for i := 0; i+1 < n; i += 2 {
			if err := line(i, i+1); err != nil {
				return err
			}
		}
	case r3.PrimLineStrip, r3.PrimLineLoop:
		for i := 0; i+1 < n; i++ {
			if err := line(i, i+1); err != nil {
				return err
			}
		}
		if prim == r3.PrimLineLoop && n > 2 {
			if err := line(n-1, 0); err != nil {
				return err
			}
		}
	case r3.PrimTriangles, r3.PrimTriangleFan, r3.PrimPolygon, r3.PrimTriangleStrip:
		if _, err := eachTri(prim, n, func(a, b, c int) error { return tri(a, b, c, provoking(3)) }); err != nil {
			return err
		}
	case r3.PrimQuads, r3.PrimQuadStrip:
		step := 4
		if prim == r3.PrimQuadStrip {
			step = 2
		}
		for i := 0; i+3 < n; i += step {
			q := [4]int{i, i + 1, i + 2, i + 3}
			if prim == r3.PrimQuadStrip {
				q = [4]int{i, i + 1, i + 3, i + 2}
			}
			// Both triangles take the quad's provoking vertex.
			pv := q[min(int(s.provoking), 3)]
			for _, t := range [2][3]int{{q[0], q[1], q[2]}, {q[0], q[2], q[3]}} {
				p := 0
				for k := range t {
					if t[k] == pv {
						p = k
					}
				}
				tv := [3]vertex{vs[t[0]], vs[t[1]], vs[t[2]]}
				if t[p] != pv {
					// The provoking vertex is not in this half: copy its
					// colours as flat shading would.
					tmp := [4]vertex{vs[t[0]], vs[t[1]], vs[t[2]], vs[pv]}
					s.shade(tmp[:], 3)
					tv = [3]vertex{tmp[0], tmp[1], tmp[2]}
				} else {
					s.shade(tv[:], p)
				}
				if err := e.triangle(s, &tv); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// lerp interpolates every VAP output linearly in clip space.
func lerp(a, b *vertex, t float32) vertex {
	var v vertex
	l := func(x, y float32) float32 { return x + float32(t*(y-x)) }
	for k := 0; k < 4; k++ {
		v.pos[k] = l(a.pos[k], b.pos[k])
		for c := 0; c < 4; c++ {
			v.col[c][k] = l(a.col[c][k], b.col[c][k])
		}
	}
	for u := range v.tex {
		for k := 0; k < 4; k++ {
			v.tex[u][k] = l(a.tex[u][k], b.tex[u][k])
		}
	}
	v.psize = l(a.psize, b.psize)
	return v
}

func (e *Engine) clipPoint(s *drawState, v *vertex) error {
	if s.clip {
		d, n := s.clipDist(v)
		for _, x := range d[:n] {
			if !(x >= 0) {
				return nil
			}
		}
		if s.ucpCulled(v) {
			return nil
		}
		s.viewport(v)
	}
	return e.point(s, v, true)
}

func (e *Engine) clipLine(s *drawState, l [2]vertex) error {
	if s.clip {
		if s.ucpCulled(&l[0], &l[1]) {
			return nil
		}
		da, n := s.clipDist(&l[0])
		db, _ := s.clipDist(&l[1])
		t0, t1 := float32(0), float32(1)
		for k := 0; k < n; k++ {
			a, b := da[k], db[k]
			switch {
			case a >= 0 && b >= 0:
			case !(a >= 0) && !(b >= 0):
				return nil
			case !(a >= 0):
				t0 = max(t0, a/(a-b))
			default:
				t1 = min(t1, a/(a-b))
			}
		}
		if t0 > t1 {
			return nil
		}
		a, b := lerp(&l[0], &l[1], t0), lerp(&l[0], &l[1], t1)
		l = [2]vertex{a, b}
		s.viewport(&l[0])
		s.viewport(&l[1])
	}
	return e.line(s, &l[0], &l[1], true)
}

// triangle clips, culls and rasterises one triangle.
func (e *Engine) triangle(s *drawState, t *[3]vertex) error {
	e.Stats.Prims++
	if !s.clip {
		return e.setupTri(s, &t[0], &t[1], &t[2])
	}
	if s.ucpCulled(&t[0], &t[1], &t[2]) {
		return nil
	}
	// Trivial accept: when every plane keeps all three vertices (NaN
	// distances do not), the clipper below returns the triangle as it is,
	// no vertex dropped and none made, so it is set up directly (without
	// the clipper's allocations, which dominated small triangles).
	da, n := s.clipDist(&t[0])
	db, _ := s.clipDist(&t[1])
	dc, _ := s.clipDist(&t[2])
	inside := true
	for k := 0; k < n && inside; k++ {
		inside = da[k] >= 0 && db[k] >= 0 && dc[k] >= 0
	}
	if inside {
		for i := range t {
			s.viewport(&t[i])
		}
		return e.setupTri(s, &t[0], &t[1], &t[2])
	}
	in := make([]vertex, 0, 9)
	in = append(in, t[:]...)

	for k := 0; k < n; k++ {
		if len(in) == 0 {
			return nil
		}
		var out []vertex
		for i := range in {
			a, b := &in[i], &in[(i+1)%len(in)]
			dA, _ := s.clipDist(a)
			dB, _ := s.clipDist(b)
			da, db := dA[k], dB[k]
			if da >= 0 {
				out = append(out, *a)
			}
			if (da >= 0) != (db >= 0) {
				out = append(out, lerp(a, b, da/(da-db)))
			}
		}
		in = out
	}
	if len(in) < 3 {
		return nil
	}
	for i := range in {
		s.viewport(&in[i])
	}
	for i := 1; i+1 < len(in); i++ {
		if err := e.setupTri(s, &in[0], &in[i], &in[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// setupTri is the SU: facing, culling, polygon mode, then the scan
// converter.
func (e *Engine) setupTri(s *drawState, a, b, c *vertex) error {
	area := (b.sx-a.sx)*(c.sy-a.sy) - (c.sx-a.sx)*(b.sy-a.sy)
	if area == 0 {
		return nil
	}
	// [PROP] On the y-down screen a negative cross product runs
	// counter-clockwise as seen; SU_CULL_MODE.FACE=0 makes that front
	// (L1180: "Positive cross product is front (CCW)").
	ccw := area < 0
	front := ccw != s.faceCW
	if (front && s.cullFront) || (!front && s.cullBack) {
		return nil
	}
	if s.polyMode == 1 {
		pt := s.backPT
		if front {
			pt = s.frontPT
		}
		switch pt {
		case 0:
			for _, v := range []*vertex{a, b, c} {
				if err := e.point(s, v, front); err != nil {
					return err
				}
			}
			return nil
		case 1:
			for _, p := range [][2]*vertex{{a, b}, {b, c}, {c, a}} {
				if err := e.line(s, p[0], p[1], front); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return e.rasterTri(s, a, b, c, front)
}
