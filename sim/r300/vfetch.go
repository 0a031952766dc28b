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
	plan    bool
	planLen int
	writes  []inWrite
}

// aosArray is one vertex array: COUNT dwords at ADDR + idx*STRIDE dwords.
type aosArray struct {
	count, stride, addr uint32
}

// inWrite is one step of the element list: a component of an input
// vector taken from a vertex dword (src >= 0), set to val (src < 0), or,
// for an element that is not FLOAT_1-4 (el != nil), the element decoded
// as fetchInputs does from the dwords at src.
type inWrite struct {
	reg, c uint8
	src    int
	val    float32
	el     *element
}

// newVFetch decodes the arrays and the stream elements of a draw.
func (e *Engine) newVFetch(s *drawState) *vfetch {
	vf := &e.vf
	vf.aos, vf.plan, vf.writes = false, false, vf.writes[:0]
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
	}
	return vf
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

// makePlan builds the element list for vertices of n dwords; it leaves
// plan false when an element reads past them (fetchInputs faults).
func (vf *vfetch) makePlan(els []element, n int) {
	vf.plan, vf.planLen, vf.writes = false, n, vf.writes[:0]
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
		for c := 0; c < 4; c++ {
			if el.wmask>>c&1 == 0 {
				continue
			}
			w := inWrite{reg: uint8(el.dst), c: uint8(c), src: -1}
			switch s := el.swz[c]; {
			case s < 4 && s <= el.dataType:
				w.src = p + int(s)
			case s == 3, s == 5: // convert's default w, or the 1 select
				w.val = 1
			}
			vf.writes = append(vf.writes, w)
		}
		p += nd + int(el.skip)
	}
	vf.plan = true
}

// inputs is fetchInputs for vertex dwords d.
func (vf *vfetch) inputs(els []element, d []uint32, in *[32][4]float32) error {
	if !vf.plan || len(d) != vf.planLen {
		if vf.makePlan(els, len(d)); !vf.plan {
			return fetchInputs(els, d, in)
		}
	}
	for i := range vf.writes {
		w := &vf.writes[i]
		switch {
		case w.el != nil:
			el := w.el
			val := el.convert(d[w.src : w.src+dwordsOf(el.dataType)])
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
		case w.src >= 0:
			in[w.reg][w.c] = math.Float32frombits(d[w.src])
		default:
			in[w.reg][w.c] = w.val
		}
	}
	return nil
}
