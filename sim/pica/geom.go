package pica

import (
	"encoding/binary"
	"fmt"
	"math"

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
func (a *assembler) add(v vertex, mode uint32) {
	switch mode {
	case 0:
		if a.n < 2 {
			a.buf[a.n] = v
			a.n++
			return
		}
		a.tris = append(a.tris, a.buf[0], a.buf[1], v)
		a.n = 0
	case 1:
		if a.n < 2 {
			a.buf[a.n] = v
			a.n++
			return
		}
		if a.odd {
			a.tris = append(a.tris, a.buf[1], a.buf[0], v)
		} else {
			a.tris = append(a.tris, a.buf[0], a.buf[1], v)
		}
		a.odd = !a.odd
		a.buf[0], a.buf[1] = a.buf[1], v
	case 2:
		if a.n < 2 {
			a.buf[a.n] = v
			a.n++
			return
		}
		a.tris = append(a.tris, a.buf[0], a.buf[1], v)
		a.buf[1] = v
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
	ibAddr := base + ib&0x0FFFFFFF
	u16 := ib>>31 != 0
	// Only an indexed draw reads a vertex twice, and its indices are 8 or
	// 16 bits: the cache holds at most 65536 vertices.
	var cache map[uint32]vertex
	if indexed {
		cache = map[uint32]vertex{}
	}
	g.asm.tris = g.asm.tris[:0]
	g.asm.reset()
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
		idx := first + uint32(i)
		if indexed {
			size := uint64(1)
			if u16 {
				size = 2
			}
			// In 64 bits, so that the index address cannot wrap around.
			at := uint64(ibAddr) + size*uint64(i)
			b, ok := g.mem.Slice(uint32(at), uint32(size))
			if !ok || at > 0xFFFFFFFF {
				return fmt.Errorf("index %d at %#x outside device memory", i, at)
			}
			if u16 {
				idx = uint32(binary.LittleEndian.Uint16(b))
			} else {
				idx = uint32(b[0])
			}
		}
		v, ok := cache[idx]
		if !ok {
			var in [16]vec4
			for a := 0; a < nattr && a < 12; a++ {
				var val vec4
				if fixedMask>>uint(a)&1 != 0 {
					val = g.fixed[a]
				} else {
					var err error
					if val, err = g.load(loads[a], idx); err != nil {
						return err
					}
				}
				in[perm>>(4*uint(a))&0xF] = val
			}
			var err error
			if v, err = g.runVS(in); err != nil {
				return err
			}
			if indexed {
				cache[idx] = v
			}
		}
		g.asm.add(v, mode)
	}
	return g.rasterize(g.asm.tris)
}

// load reads attribute a of vertex idx.
func (g *GPU) load(a attrLoad, idx uint32) (vec4, error) {
	v := vec4{0, 0, 0, 1}
	if a.comps == 0 {
		return v, nil
	}
	esz := [4]uint32{1, 1, 2, 4}[a.typ]
	// In 64 bits: a large index times the stride must not wrap around
	// into memory.
	addr := uint64(a.addr) + uint64(idx)*uint64(a.stride)
	b, ok := g.mem.Slice(uint32(addr), esz*uint32(a.comps))
	if !ok || addr > 0xFFFFFFFF {
		return v, fmt.Errorf("vertex %d attribute data at %#x outside device memory", idx, addr)
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
		v[c] = p.F24ToFloat(p.ToF24(f))
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
	v, err := g.runVS(in)
	if err != nil {
		return err
	}
	mode := g.regs[p.PRIMITIVE_CONFIG] >> 8 & 3
	if mode == 3 {
		return fmt.Errorf("geometry-shader primitive mode is not simulated")
	}
	g.asm.tris = g.asm.tris[:0]
	g.asm.add(v, mode)
	return g.rasterize(g.asm.tris)
}

// runVS runs the vertex shader and applies the output map.
func (g *GPU) runVS(in [16]vec4) (vertex, error) {
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
	// Semantics no output feeds read 1 (L1034).
	var sem [32]float32
	for i := range sem {
		sem[i] = 1
	}
	mask := g.regs[p.VSH_OUTMAP_MASK] & 0xFFFF
	total := int(g.regs[p.SH_OUTMAP_TOTAL] & 7)
	k := 0
	for o := 0; o < 16 && k < total; o++ {
		if mask>>uint(o)&1 == 0 {
			continue
		}
		m := g.regs[p.SH_OUTMAP_O0+p.Reg(k)]
		for c := 0; c < 4; c++ {
			s := m >> (8 * uint(c)) & 0x1F
			if s < 0x18 {
				sem[s] = u.Out[o][c]
			}
		}
		k++
	}
	var v vertex
	copy(v.pos[:], sem[0:4])
	copy(v.quat[:], sem[4:8])
	for c := 0; c < 4; c++ {
		// [OUT] citra: colours take abs() and saturate per vertex.
		v.color[c] = float32(math.Min(math.Abs(float64(sem[8+c])), 1))
	}
	v.tc0 = [2]float32{sem[12], sem[13]}
	v.tc1 = [2]float32{sem[14], sem[15]}
	v.tc0w = sem[16]
	v.view = [3]float32{sem[18], sem[19], sem[20]}
	v.tc2 = [2]float32{sem[22], sem[23]}
	return v, nil
}
