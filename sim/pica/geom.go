package pica

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	p "github.com/retrogl/retrogl/hal/pica"
)

// The geometry pipeline: vertex loading (attribute buffers, formats, fixed
// attributes, index buffer), the vertex shader, the output map and
// primitive assembly. Decisions ([OUT] citra's vertex loader and
// primitive assembler, guide §2.5 and §4):
//   - ATTRIBBUFFERS_LOC gives PA = (value & 0x1FFFFFFE) << 3; buffer and
//     index offsets are bytes from it.
//   - An attribute's "size" field is its component count - 1; inside a
//     buffer each attribute starts at a multiple of its element size, and
//     component codes 12-15 skip 4, 8, 12 or 16 bytes.
//   - Integer attributes convert to float unchanged (no normalisation);
//     every value is rounded to float24 by truncation; missing components
//     read (0, 0, 0, 1).
//   - Attribute k feeds the input register of nibble k of the permutation.
//   - Strips alternate winding as GL strips do; fans share vertex 0.
//   - The post-vertex cache is transparent: each vertex index runs the
//     shader once per draw.
//   - Geometry shaders (PRIMITIVE_CONFIG mode 3) are not simulated: such a
//     draw faults.

// vertex is a shader output vertex after the output map.
type vertex struct {
	pos   vec4
	color vec4
	tc0   [2]float32
	tc1   [2]float32
	tc2   [2]float32
	tc0w  float32
	quat  vec4
	view  [3]float32
}

type assembler struct {
	buf  [2]vertex
	n    int
	odd  bool
	tris []vertex
}

func (a *assembler) reset() { a.n, a.odd = 0, false }

// add feeds one vertex in the given topology (0 list, 1 strip, 2 fan) and
// appends completed triangles to a.tris.
func (a *assembler) add(v *vertex, mode uint32) {
	switch mode {
	case 0:
		if a.n < 2 {
			a.buf[a.n] = *v
			a.n++
			return
		}
		a.tris = append(a.tris, a.buf[0], a.buf[1], *v)
		a.n = 0
	case 1:
		if a.n < 2 {
			a.buf[a.n] = *v
			a.n++
			return
		}
		if a.odd {
			a.tris = append(a.tris, a.buf[1], a.buf[0], *v)
		} else {
			a.tris = append(a.tris, a.buf[0], a.buf[1], *v)
		}
		a.odd = !a.odd
		a.buf[0], a.buf[1] = a.buf[1], *v
	case 2:
		if a.n < 2 {
			a.buf[a.n] = *v
			a.n++
			return
		}
		a.tris = append(a.tris, a.buf[0], a.buf[1], *v)
		a.buf[1] = *v
	}
}

// triBatch is how many assembled triangles a draw holds before they go to
// the rasteriser.
const triBatch = 1 << 14

type attrLoad struct {
	addr   uint32 // address of vertex 0
	stride uint32
	typ    uint32
	comps  int
	// buf, when not nil, is device memory from addr on, covering every
	// vertex the draw may read: load slices it instead of looking the
	// address up (the same bytes; an index past it takes the lookup, and
	// its error).
	buf []byte
}

// draw runs DRAWARRAYS or DRAWELEMENTS.
func (g *GPU) draw(indexed bool) error {
	mode := g.regs[p.PRIMITIVE_CONFIG] >> 8 & 3
	if mode == 3 {
		return fmt.Errorf("geometry-shader primitive mode is not simulated")
	}
	base := (g.regs[p.ATTRIBBUFFERS_LOC] & 0x1FFFFFFE) << 3
	fmtLow, fmtHigh := g.regs[p.ATTRIBBUFFERS_FMT_LOW], g.regs[p.ATTRIBBUFFERS_FMT_HIGH]
	nattr := int(fmtHigh>>28) + 1
	fixedMask := fmtHigh >> 16 & 0xFFF
	var loads [12]attrLoad
	for i := 0; i < 12; i++ {
		c1, c2 := g.regs[p.AttribBuffer(i, 1)], g.regs[p.AttribBuffer(i, 2)]
		count := int(c2 >> 28)
		stride := c2 >> 16 & 0xFF
		bufAddr := base + g.regs[p.AttribBuffer(i, 0)]&0x0FFFFFFF
		off := uint32(0)
		for k := 0; k < count; k++ {
			var code uint32
			if k < 8 {
				code = c1 >> (4 * uint(k)) & 0xF
			} else {
				code = c2 >> (4 * uint(k-8)) & 0xF
			}
			if code >= 12 {
				off += 4 * (code - 11)
				continue
			}
			f := fmtLow
			sh := 4 * code
			if code >= 8 {
				f, sh = fmtHigh, 4*(code-8)
			}
			typ := f >> sh & 3
			comps := int(f>>(sh+2)&3) + 1
			esz := [4]uint32{1, 1, 2, 4}[typ]
			off = (off + esz - 1) / esz * esz
			loads[code] = attrLoad{addr: bufAddr + off, stride: stride, typ: typ, comps: comps}
			off += esz * uint32(comps)
		}
	}
	perm := uint64(g.regs[p.VSH_ATTR_PERM_LOW]) | uint64(g.regs[p.VSH_ATTR_PERM_HIGH])<<32
	count := int(g.regs[p.NUMVERTICES])
	// Every vertex costs a watchdog step: a count the budget left cannot
	// pay for faults now, before any vertex is held, rather than at the
	// watchdog after gigabytes (NUMVERTICES = 0xFFFFFFFF took 41 s and 9
	// GB to get there).
	if rem := g.x.Remaining(); int64(count) > rem {
		return fmt.Errorf("NUMVERTICES %d exceeds the %d commands left in the watchdog budget", count, rem)
	}
	first := g.regs[p.VERTEX_OFFSET]
	ib := g.regs[p.INDEXBUFFER_CONFIG]
	// The highest index the draw can read: each attribute's memory up to
	// it is looked up once.
	last := uint64(first) + uint64(count) - 1
	if indexed {
		last = 0xFF
		if ib>>31 != 0 {
			last = 0xFFFF
		}
	}
	if count > 0 {
		for i := range loads {
			a := &loads[i]
			if a.comps == 0 {
				continue
			}
			size := last*uint64(a.stride) + uint64([4]uint32{1, 1, 2, 4}[a.typ])*uint64(a.comps)
			if size <= 1<<32-1-uint64(a.addr) {
				a.buf, _ = g.mem.Slice(a.addr, uint32(size))
			}
		}
	}
	ibAddr := base + ib&0x0FFFFFFF
	u16 := ib>>31 != 0
	// The post-transform cache: an index runs the shader once per draw.
	// A non-indexed draw's indices are all different; an indexed draw's
	// are 8 or 16 bits, looked up in a table stamped with the draw.
	var cache *vertexCache
	if indexed {
		cache = &g.vcache
		cache.begin(u16)
	}
	g.asm.tris = g.asm.tris[:0]
	g.asm.reset()
	om := g.decodeOutMap()
	prog := g.vs.straight()
	limit := g.ShaderLimit
	if limit <= 0 || limit > MaxSteps {
		limit = MaxSteps
	}
	if prog != nil && prog.steps > limit || g.reference {
		// The interpreter faults where the hardware hangs; the reference
		// path runs every vertex through the interpreter.
		prog = nil
	}
	index := func(i int) (uint32, error) {
		if !indexed {
			return first + uint32(i), nil
		}
		size := uint64(1)
		if u16 {
			size = 2
		}
		// In 64 bits, so that the index address cannot wrap around.
		at := uint64(ibAddr) + size*uint64(i)
		b, ok := g.mem.Slice(uint32(at), uint32(size))
		if !ok || at > 0xFFFFFFFF {
			return 0, fmt.Errorf("index %d at %#x outside device memory", i, at)
		}
		if u16 {
			return uint32(binary.LittleEndian.Uint16(b)), nil
		}
		return uint32(b[0]), nil
	}
	inputs := func(idx uint32, in *[16]vec4) error {
		for a := 0; a < nattr && a < 12; a++ {
			var val vec4
			if fixedMask>>uint(a)&1 != 0 {
				val = g.fixed[a]
			} else {
				var err error
				if val, err = g.load(&loads[a], idx); err != nil {
					return err
				}
			}
			in[perm>>(4*uint(a))&0xF] = val
		}
		return nil
	}
	if prog != nil {
		// The input registers the attributes write; the others read 0.
		var targets uint16
		for a := 0; a < nattr && a < 12; a++ {
			targets |= 1 << (perm >> (4 * uint(a)) & 0xF)
		}
		if err := g.drawBatched(prog, &om, count, mode, cache, targets, index, inputs); err != nil {
			return err
		}
		return g.rasterize(g.asm.tris)
	}
	for i := 0; i < count; i++ {
		if err := g.x.Step(1); err != nil {
			return err
		}
		// Triangles go to the rasteriser in batches, in order, so that a
		// long draw holds a bounded number of them.
		if len(g.asm.tris) >= 3*triBatch {
			if err := g.rasterize(g.asm.tris); err != nil {
				return err
			}
			g.asm.tris = g.asm.tris[:0]
		}
		idx, err := index(i)
		if err != nil {
			return err
		}
		var v vertex
		ok := false
		if cache != nil {
			v, ok = cache.get(idx)
		}
		if !ok {
			var in [16]vec4
			if err := inputs(idx, &in); err != nil {
				return err
			}
			if v, err = g.runVS(in, &om); err != nil {
				return err
			}
			if cache != nil {
				cache.put(idx, &v)
			}
		}
		g.asm.add(&v, mode)
	}
	return g.rasterize(g.asm.tris)
}

// vertexCache holds the shaded vertices of one indexed draw, by index:
// an entry is valid when its stamp is the draw's.
type vertexCache struct {
	stamp []uint32
	vert  []vertex
	slot  []int8 // the batch slot of a vertex not shaded yet, or -1
	draw  uint32
}

// begin starts a draw with 8-bit or 16-bit indices.
func (c *vertexCache) begin(u16 bool) {
	n := 256
	if u16 {
		n = 1 << 16
	}
	if len(c.stamp) < n {
		c.stamp = append(c.stamp, make([]uint32, n-len(c.stamp))...)
		c.vert = append(c.vert, make([]vertex, n-len(c.vert))...)
		c.slot = append(c.slot, make([]int8, n-len(c.slot))...)
	}
	c.draw++
	if c.draw == 0 { // the stamps wrapped: forget them all
		clear(c.stamp)
		c.draw = 1
	}
}

func (c *vertexCache) get(idx uint32) (vertex, bool) {
	if c.stamp[idx] != c.draw {
		return vertex{}, false
	}
	return c.vert[idx], true
}

func (c *vertexCache) put(idx uint32, v *vertex) {
	c.stamp[idx] = c.draw
	c.vert[idx] = *v
	c.slot[idx] = -1
}

// drawBatched is the draw loop of a straight-line vertex shader: the
// watchdog charges, attribute loads, counters and faults come in the
// interpreter loop's order, vertex by vertex; the shader runs on batches
// of vsBatch new vertices, and the primitives are assembled in index order
// after each batch.
func (g *GPU) drawBatched(prog *vsProg, om *outMap, count int, mode uint32, cache *vertexCache, targets uint16,
	index func(int) (uint32, error), inputs func(uint32, *[16]vec4) error) error {
	r := &g.vsRegs
	r.begin()
	for a := range 16 {
		if targets>>a&1 == 0 {
			r.reg[a] = [4][vsBatch]float32{} // never written: 0 for every vertex
		}
	}
	seq := g.vseq[:0] // per vertex of the draw since the last batch: batch slot, or -1 - cache index
	defer func() { g.vseq = seq[:0] }()
	var slotIdx [vsBatch]uint32
	n := 0
	var in [16]vec4
	assemble := func() {
		prog.run(&g.vs, r, n)
		for k := 0; k < n; k++ {
			if cache != nil {
				v := om.vertexAt(r, k)
				cache.put(slotIdx[k], &v)
			} else {
				g.vbatch[k] = om.vertexAt(r, k)
			}
		}
		for _, e := range seq {
			if cache != nil {
				g.asm.add(&cache.vert[-1-e], mode)
			} else {
				g.asm.add(&g.vbatch[e], mode)
			}
		}
		seq, n = seq[:0], 0
	}
	// Triangles go to the rasteriser in batches, in order, so that a long
	// draw holds a bounded number of them (as in the interpreter's loop).
	rasterize := func() error {
		if len(g.asm.tris) < 3*triBatch {
			return nil
		}
		err := g.rasterize(g.asm.tris)
		g.asm.tris = g.asm.tris[:0]
		return err
	}
	for i := 0; i < count; i++ {
		if err := g.x.Step(1); err != nil {
			return err
		}
		idx, err := index(i)
		if err != nil {
			return err
		}
		if cache != nil && cache.stamp[idx] == cache.draw {
			seq = append(seq, -1-int32(idx)) // shaded, or waiting in this batch
			continue
		}
		in = [16]vec4{}
		if err := inputs(idx, &in); err != nil {
			return err
		}
		for t := targets; t != 0; t &= t - 1 {
			a := bits.TrailingZeros16(t)
			reg := &r.reg[a]
			reg[0][n], reg[1][n], reg[2][n], reg[3][n] = in[a][0], in[a][1], in[a][2], in[a][3]
		}
		g.Vertices++
		if err := g.x.Step(prog.steps / 16); err != nil {
			return err
		}
		if cache != nil {
			cache.stamp[idx], cache.slot[idx] = cache.draw, int8(n)
			seq = append(seq, -1-int32(idx))
		} else {
			seq = append(seq, int32(n))
		}
		slotIdx[n] = idx
		n++
		if n == vsBatch {
			assemble()
			if err := rasterize(); err != nil {
				return err
			}
		}
	}
	if n > 0 || len(seq) > 0 {
		assemble()
	}
	return nil
}

// load reads attribute a of vertex idx.
func (g *GPU) load(a *attrLoad, idx uint32) (vec4, error) {
	v := vec4{0, 0, 0, 1}
	if a.comps == 0 {
		return v, nil
	}
	esz := [4]uint32{1, 1, 2, 4}[a.typ]
	n := uint64(esz) * uint64(a.comps)
	var b []byte
	if off := uint64(idx) * uint64(a.stride); off+n <= uint64(len(a.buf)) {
		b = a.buf[off : off+n]
	} else {
		// In 64 bits: a large index times the stride must not wrap
		// around into memory.
		addr := uint64(a.addr) + uint64(idx)*uint64(a.stride)
		var ok bool
		b, ok = g.mem.Slice(uint32(addr), uint32(n))
		if !ok || addr > 0xFFFFFFFF {
			return v, fmt.Errorf("vertex %d attribute data at %#x outside device memory", idx, addr)
		}
	}
	if a.typ == 3 {
		f := func(k int) float32 { return truncF24(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:]))) }
		switch a.comps {
		case 4:
			v = vec4{f(0), f(1), f(2), f(3)}
		case 3:
			v = vec4{f(0), f(1), f(2), 1}
		case 2:
			v = vec4{f(0), f(1), 0, 1}
		default:
			v = vec4{f(0), 0, 0, 1}
		}
		return v, nil
	}
	for c := 0; c < a.comps; c++ {
		var f float32
		switch a.typ {
		case 0:
			f = float32(int8(b[c]))
		case 1:
			f = float32(b[c])
		case 2:
			f = float32(int16(binary.LittleEndian.Uint16(b[2*c:])))
		case 3:
			f = math.Float32frombits(binary.LittleEndian.Uint32(b[4*c:]))
		}
		v[c] = truncF24(f) // p.F24ToFloat(p.ToF24(f))
	}
	return v, nil
}

// immediateAttr takes one immediate-mode attribute (FIXEDATTRIB_INDEX =
// 0xF); a vertex is complete when every attribute has arrived.
func (g *GPU) immediateAttr(val vec4) error {
	g.immediate = append(g.immediate, val)
	nattr := int(g.regs[p.VSH_INPUTBUFFER_CONFIG]&0xF) + 1
	if len(g.immediate) < nattr {
		return nil
	}
	perm := uint64(g.regs[p.VSH_ATTR_PERM_LOW]) | uint64(g.regs[p.VSH_ATTR_PERM_HIGH])<<32
	var in [16]vec4
	for a, v := range g.immediate {
		in[perm>>(4*uint(a))&0xF] = v
	}
	g.immediate = g.immediate[:0]
	om := g.decodeOutMap()
	v, err := g.runVS(in, &om)
	if err != nil {
		return err
	}
	mode := g.regs[p.PRIMITIVE_CONFIG] >> 8 & 3
	if mode == 3 {
		return fmt.Errorf("geometry-shader primitive mode is not simulated")
	}
	g.asm.tris = g.asm.tris[:0]
	g.asm.add(&v, mode)
	return g.rasterize(g.asm.tris)
}

// runVS runs the vertex shader and applies the output map.
func (g *GPU) runVS(in [16]vec4, om *outMap) (vertex, error) {
	g.Vertices++
	u := &g.unit
	u.In = in
	u.Limit = g.ShaderLimit
	if err := u.Run(&g.vs); err != nil {
		return vertex{}, err
	}

	if err := g.x.Step(u.Steps / 16); err != nil {
		return vertex{}, err
	}
	return om.vertex(&u.Out), nil
}
