package r300

import (
	"encoding/binary"
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// vfetch is a draw's vertex fetch decoded once for the batched PVS path
// (fetchPVS): the AOS arrays vertexDwords reads from the registers at
// every vertex, and the stream elements as a list of component writes,
// so that a vertex costs its dwords and its writes, not the decoding.
// The reference path (Engine.reference) keeps vertexDwords and
// fetchInputs, and TestPVSDrawBatchMatchesReference compares the two over
// random element formats, swizzles, masks and array layouts.
type vfetch struct {
	// aos is set when the arrays are decoded (VAP_VTX_NUM_ARRAYS is at
	// most 16); otherwise dwords leaves the fault to vertexDwords.
	aos  bool
	narr int
	arr  [16]aosArray
	// plan is set when the element list fits vertices of planLen dwords
	// (every vertex of a draw has the same number); otherwise inputs
	// leaves the fault to fetchInputs.
	plan, planAOS bool
	planLen       int
	writes        []inWrite
	// bytes holds the arrays' bytes of the vertex being fetched.
	bytes [16][]byte
	// whole[k], when not nil, is array k's memory for every index
	// minIdx..maxIdx (the draw's clamp range), all inside one region.
	whole  [16][]byte
	minIdx uint32
}

// aosArray is one vertex array: COUNT dwords at ADDR + idx*STRIDE dwords.
type aosArray struct {
	count, stride, addr uint32
}

// inWrite is one step of the element list: a component of an input
// vector taken from a vertex dword (src >= 0), set to val (src < 0), or,
// for an element that is not FLOAT_1-4 (el != nil), the element decoded
// as fetchInputs does from the dwords at src.
//
// In a plan for the arrays (planAOS), arr and off locate dword src: byte
// off of the vertex's slice of array arr; and a FLOAT_1-4 element that
// writes every component from one array is one step (vec): component c
// is the dword at byte offs[c] of that slice, or vals[c] where offs[c] is
// negative.
type inWrite struct {
	reg, c uint8
	arr    uint8
	vec    bool
	src    int
	off    uint32
	val    float32
	el     *element
	offs   [4]int32
	vals   [4]float32
	run    int32
}

// newVFetch decodes the arrays and the stream elements of a draw whose
// indices are clamped to minI..maxI.
func (e *Engine) newVFetch(s *drawState, minI, maxI uint32) *vfetch {
	vf := &e.vf
	vf.aos, vf.plan, vf.writes = false, false, vf.writes[:0]
	vf.minIdx = minI
	n := int(e.reg(r3.VAP_VTX_NUM_ARRAYS) & 31)
	if n <= 16 {
		vf.aos, vf.narr = true, n
		for k := 0; k < n; k++ {
			attr := e.reg(r3.VAP_VTX_AOS_ATTR01 + 12*uint32(k/2))
			if k%2 == 1 {
				attr >>= 16
			}
			addr := e.reg(r3.VAP_VTX_AOS_ADDR0+12*uint32(k/2)+4*uint32(k%2)) &^ 3
			vf.arr[k] = aosArray{count: attr & 0x7F, stride: attr >> 8 & 0x7F, addr: addr}
		}
		total := 0
		for k := 0; k < n; k++ {
			total += int(vf.arr[k].count)
		}
		vf.makePlan(s.els, total, true)
		disjoint := e.disjointRegions()
		for k := 0; k < n; k++ {
			vf.whole[k] = nil
			ar := &vf.arr[k]
			lo := uint64(ar.addr) + 4*uint64(minI)*uint64(ar.stride)
			hi := uint64(ar.addr) + 4*uint64(maxI)*uint64(ar.stride) + 4*uint64(ar.count)
			if !disjoint || maxI < minI || hi > math.MaxUint32 {
				continue
			}
			// Every vertex's dwords lie in this one region, the only
			// one that holds them: Slice would return them from it.
			if b, ok := e.mem.Slice(uint32(lo), uint32(hi-lo)); ok {
				vf.whole[k] = b
			}
		}
	}
	return vf
}

// disjointRegions reports whether no two memory regions overlap.
func (e *Engine) disjointRegions() bool {
	rs := e.mem.Regions()
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			a, b := rs[i], rs[j]
			if uint64(a.Base) < uint64(b.Base)+uint64(b.Size) && uint64(b.Base) < uint64(a.Base)+uint64(a.Size) {
				return false
			}
		}
	}
	return true
}

// fetch is vertexDwords then fetchInputs for vertex idx of the arrays,
// reading the element list's dwords straight from memory: the same
// faults in the same order (every array's memory is checked before any
// element is read).
func (vf *vfetch) fetch(e *Engine, els []element, idx uint32, buf []uint32, in *[32][4]float32) ([]uint32, error) {
	if !vf.aos || !vf.plan || !vf.planAOS {
		var err error
		if buf, err = vf.dwords(e, idx, buf); err != nil {
			return buf, err
		}
		return buf, vf.inputs(els, buf, in)
	}
	for k := 0; k < vf.narr; k++ {
		ar := &vf.arr[k]
		if w := vf.whole[k]; w != nil {
			off := 4 * (idx - vf.minIdx) * ar.stride
			vf.bytes[k] = w[off : off+4*ar.count : off+4*ar.count]
			continue
		}
		a := uint64(ar.addr) + 4*uint64(idx)*uint64(ar.stride)
		if a > math.MaxUint32 {
			return buf, faultf("vertex %d of array %d lies beyond 4 GB", idx, k)
		}
		b, ok := e.mem.Slice(uint32(a), 4*ar.count)
		if !ok {
			return buf, faultf("vertex %d of array %d (%#x+%d dwords) lies outside memory", idx, k, a, ar.count)
		}
		vf.bytes[k] = b
	}
	for i := range vf.writes {
		w := &vf.writes[i]
		switch {
		case w.vec:
			b := vf.bytes[w.arr]
			v := w.vals
			switch o := w.offs[0]; w.run {
			case 4:
				b = b[o : o+16]
				v[0], v[1], v[2], v[3] = le32f(b), le32f(b[4:]), le32f(b[8:]), le32f(b[12:])
			case 3:
				b = b[o : o+12]
				v[0], v[1], v[2] = le32f(b), le32f(b[4:]), le32f(b[8:])
			default:
				for c, o := range w.offs {
					if o >= 0 {
						v[c] = le32f(b[o:])
					}
				}
			}
			in[w.reg] = v
		case w.el != nil:
			var d [4]uint32
			el := w.el
			nd := dwordsOf(el.dataType)
			for j := 0; j < nd; j++ {
				a, off := vf.locate(w.src + j)
				d[j] = binary.LittleEndian.Uint32(vf.bytes[a][off:])
			}
			writeElement(el, el.convert(d[:nd]), in)
		case w.src >= 0:
			in[w.reg][w.c] = math.Float32frombits(binary.LittleEndian.Uint32(vf.bytes[w.arr][w.off:]))
		default:
			in[w.reg][w.c] = w.val
		}
	}
	return buf, nil
}

// locate returns the array and the byte offset in its vertex slice of
// vertex dword j.
func (vf *vfetch) locate(j int) (uint8, uint32) {
	for k := 0; k < vf.narr; k++ {
		if c := int(vf.arr[k].count); j >= c {
			j -= c
		} else {
			return uint8(k), 4 * uint32(j)
		}
	}
	return 0, 0 // past the arrays: makePlan leaves plan false
}

// writeElement writes an element's value into its input vector through
// its swizzle and mask (fetchInputs).
func writeElement(el *element, val [4]float32, in *[32][4]float32) {
	for c := 0; c < 4; c++ {
		if el.wmask>>c&1 == 0 {
			continue
		}
		switch s := el.swz[c]; {
		case s < 4:
			in[el.dst][c] = val[s]
		case s == 4:
			in[el.dst][c] = 0
		default:
			in[el.dst][c] = 1
		}
	}
}

// dwords is vertexDwords with the arrays decoded.
func (vf *vfetch) dwords(e *Engine, idx uint32, buf []uint32) ([]uint32, error) {
	if !vf.aos {
		return e.vertexDwords(idx, buf)
	}
	buf = buf[:0]
	for k := 0; k < vf.narr; k++ {
		ar := &vf.arr[k]
		a := uint64(ar.addr) + 4*uint64(idx)*uint64(ar.stride)
		if a > math.MaxUint32 {
			return nil, faultf("vertex %d of array %d lies beyond 4 GB", idx, k)
		}
		b, ok := e.mem.Slice(uint32(a), 4*ar.count)
		if !ok {
			return nil, faultf("vertex %d of array %d (%#x+%d dwords) lies outside memory", idx, k, a, ar.count)
		}
		for j := 0; j+4 <= len(b); j += 4 {
			buf = append(buf, binary.LittleEndian.Uint32(b[j:]))
		}
	}
	return buf, nil
}

// makePlan builds the element list for vertices of n dwords, for the
// arrays (aos) or for inline vertices; it leaves plan false when an
// element reads past the vertex (fetchInputs faults).
func (vf *vfetch) makePlan(els []element, n int, aos bool) {
	vf.plan, vf.planAOS, vf.planLen, vf.writes = false, aos, n, vf.writes[:0]
	p := 0
	for i := range els {
		el := &els[i]
		nd := dwordsOf(el.dataType)
		if p+nd > n {
			return
		}
		if el.dataType > 3 {
			vf.writes = append(vf.writes, inWrite{src: p, el: el})
			p += nd + int(el.skip)
			continue
		}
		first := len(vf.writes)
		for c := 0; c < 4; c++ {
			if el.wmask>>c&1 == 0 {
				continue
			}
			w := inWrite{reg: uint8(el.dst), c: uint8(c), src: -1}
			switch s := el.swz[c]; {
			case s < 4 && s <= el.dataType:
				w.src = p + int(s)
				if aos {
					w.arr, w.off = vf.locate(w.src)
				}
			case s == 3, s == 5: // convert's default w, or the 1 select
				w.val = 1
			}
			vf.writes = append(vf.writes, w)
		}
		if aos && el.wmask == 15 {
			vf.vectorize(first)
		}
		p += nd + int(el.skip)
	}
	vf.plan = true
}

// vectorize replaces the four component steps from first on, one
// element's, with one vec step when their dwords lie in one array.
func (vf *vfetch) vectorize(first int) {
	cs := vf.writes[first:]
	v := inWrite{reg: cs[0].reg, vec: true}
	arr := -1
	for c := range cs {
		w := &cs[c]
		if w.src < 0 {
			v.offs[c], v.vals[c] = -1, w.val
			continue
		}
		if arr >= 0 && int(w.arr) != arr {
			return
		}
		arr = int(w.arr)
		v.offs[c] = int32(w.off)
	}
	v.arr = uint8(max(arr, 0))
	// run: the leading components read consecutive dwords, the others
	// are constants.
	for v.run < 4 && v.offs[v.run] >= 0 && v.offs[v.run] == v.offs[0]+4*int32(v.run) {
		v.run++
	}
	for c := v.run; c < 4; c++ {
		if v.offs[c] >= 0 {
			v.run = 0
		}
	}
	vf.writes = append(vf.writes[:first], v)
}

// le32f is the float32 in the first four bytes of b, little-endian.
func le32f(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) }

// inputs is fetchInputs for vertex dwords d.
func (vf *vfetch) inputs(els []element, d []uint32, in *[32][4]float32) error {
	if !vf.plan || vf.planAOS || len(d) != vf.planLen {
		if vf.makePlan(els, len(d), false); !vf.plan {
			return fetchInputs(els, d, in)
		}
	}
	for i := range vf.writes {
		w := &vf.writes[i]
		switch {
		case w.el != nil:
			el := w.el
			writeElement(el, el.convert(d[w.src:w.src+dwordsOf(el.dataType)]), in)
		case w.src >= 0:
			in[w.reg][w.c] = math.Float32frombits(d[w.src])
		default:
			in[w.reg][w.c] = w.val
		}
	}
	return nil
}

// outCopy is output (or, for the PVS bypass, assemble's copy of the
// inputs) decoded once per draw: vector k goes to the vertex's position
// (kind 0), colour slot (1), texture coordinate set slot (2) or point
// size (3).
type outCopy struct {
	n   int
	dst [14]struct{ k, kind, slot uint8 }
}

// makeOutCopy lists output's copies in its order (position, point size,
// colours, texture coordinates), or with bypass assemble's (position,
// colours, point size, texture coordinates).
func makeOutCopy(out *outputs, bypass bool) outCopy {
	var oc outCopy
	add := func(kind, slot int) {
		oc.dst[oc.n].k, oc.dst[oc.n].kind, oc.dst[oc.n].slot = uint8(oc.n), uint8(kind), uint8(slot)
		oc.n++
	}
	add(0, 0)
	if out.psize && !bypass {
		add(3, 0)
	}
	for c := 0; c < 4; c++ {
		if out.col[c] {
			add(1, c)
		}
	}
	if out.psize && bypass {
		add(3, 0)
	}
	for t := 0; t < 8; t++ {
		if out.texComp[t] > 0 {
			add(2, t)
		}
	}
	return oc
}

// apply copies the vectors vs (output or input registers) into v.
func (oc *outCopy) apply(vs *[32][4]float32, v *vertex) {
	for i := 0; i < oc.n; i++ {
		d := &oc.dst[i]
		o := &vs[d.k&31]
		switch d.kind {
		case 0:
			v.pos = *o
		case 1:
			v.col[d.slot&3] = *o
		case 2:
			v.tex[d.slot&7] = *o
		default:
			v.psize = o[0]
		}
	}
}

// fetchBypass is fetch for a draw in PVS bypass through vfetch and
// outCopy: the same vertices, faults and watchdog steps as fetch's
// vertex-by-vertex path (Engine.reference), which fetchInputs fills into
// cleared input registers for every vertex. Here one register file serves
// the draw: every vertex writes the same components (the element list),
// so the others stay as clear as they started.
func (e *Engine) fetchBypass(s *drawState, walk r3.PrimWalk, n int, data []uint32, indices []uint32) error {
	minI, maxI := e.reg(r3.VAP_VF_MIN_VTX_INDX)&0xFFFFFF, e.reg(r3.VAP_VF_MAX_VTX_INDX)&0xFFFFFF
	size := int(e.reg(r3.VAP_VTX_SIZE) & 0x7F)
	vf := e.newVFetch(s, minI, maxI)
	oc := makeOutCopy(&s.out, true)
	in := &e.pvsRegs.in
	clear(in[:])
	buf := e.vfBuf[:0]
	defer func() { e.vfBuf = buf[:0] }()
	for i := 0; i < n; i++ {
		v := &e.verts[i]
		*v = vertex{}
		if walk == r3.WalkData {
			if err := vf.inputs(s.els, data[i*size:(i+1)*size], in); err != nil {
				return err
			}
		} else {
			idx := uint32(i)
			if indices != nil {
				idx = indices[i]
			}
			// L2066-2075: indices outside [MIN, MAX] are clamped.
			idx = max(minI, min(maxI, idx))
			var err error
			if buf, err = vf.fetch(e, s.els, idx, buf, in); err != nil {
				return err
			}
		}
		oc.apply(in, v)
		if !s.clip {
			s.viewport(v)
		}
		if s.prepared {
			s.prepVertex(v)
		}
	}
	return e.x.Step(n)
}
