package r300

import (
	"encoding/binary"
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// vertex is one vertex after the VAP: the PVS-bypass outputs, then the
// viewport transform's window position.
type vertex struct {
	pos   [4]float32
	col   [4][4]float32
	tex   [8][4]float32
	psize float32

	// Window position (pixels, y down) and depth after VTE, 1/W for
	// perspective-correct interpolation and W itself.
	wx, wy, wz float64
	q, w       float64
	// Position in subpixels after GA_OFFSET and rounding.
	sx, sy int64
	// accept is set by prepVertex when every clip plane keeps the vertex
	// (assemble.go).
	accept bool
}

// element is one VAP_PROG_STREAM_CNTL element (L1911-1946).
type element struct {
	dataType, skip, dst uint32
	signed, normalize   bool
	sgnNorm             uint32
	swz                 [4]uint32
	wmask               uint32
}

// outputs lists which VAP outputs are present (L1829-1888).
type outputs struct {
	pos     bool
	col     [4]bool
	psize   bool
	texComp [8]int
	count   int
}

func (e *Engine) streamElements() ([]element, error) {
	var els []element
	sgn := e.reg(r3.VAP_PSC_SGN_NORM_CNTL)
	for i := 0; i < 16; i++ {
		w := e.reg(r3.VAP_PROG_STREAM_CNTL_0 + 4*uint32(i/2))
		x := e.reg(r3.VAP_PROG_STREAM_CNTL_EXT + 4*uint32(i/2))
		if i%2 == 1 {
			w >>= 16
			x >>= 16
		}
		el := element{
			dataType: w & 15, skip: w >> 4 & 15, dst: w >> 8 & 31,
			signed: w>>14&1 != 0, normalize: w>>15&1 != 0,
			sgnNorm: sgn >> (2 * uint(i)) & 3,
			swz:     [4]uint32{x & 7, x >> 3 & 7, x >> 6 & 7, x >> 9 & 7},
			wmask:   x >> 12 & 15,
		}
		if el.dataType == 10 || el.dataType > 12 {
			return nil, faultf("VAP_PROG_STREAM_CNTL element %d: DATA_TYPE %d is not simulated", i, el.dataType)
		}
		for c, s := range el.swz {
			if s > 5 {
				return nil, faultf("VAP_PROG_STREAM_CNTL_EXT element %d: swizzle %d of component %d is reserved", i, s, c)
			}
		}
		els = append(els, el)
		if w>>13&1 != 0 {
			return els, nil
		}
	}
	return nil, faultf("VAP_PROG_STREAM_CNTL: no element has LAST_VEC set")
}

func (e *Engine) outputFormat() (outputs, error) {
	var o outputs
	f0, f1 := e.reg(r3.VAP_OUT_VTX_FMT_0), e.reg(r3.VAP_OUT_VTX_FMT_1)
	o.pos = f0&1 != 0
	if !o.pos {
		return o, faultf("VAP_OUT_VTX_FMT_0: no position output")
	}
	o.count = 1
	for c := 0; c < 4; c++ {
		o.col[c] = f0>>(1+c)&1 != 0
		if o.col[c] {
			o.count++
		}
	}
	o.psize = f0>>16&1 != 0
	if o.psize {
		o.count++
	}
	for t := 0; t < 8; t++ {
		n := int(f1 >> (3 * uint(t)) & 7)
		if n > 4 {
			return o, faultf("VAP_OUT_VTX_FMT_1: TEX_%d_COMP_CNT %d is reserved", t, n)
		}
		o.texComp[t] = n
		if n > 0 {
			o.count++
		}
	}
	return o, nil
}

// dwordsOf is the number of vertex dwords a DATA_TYPE consumes.
func dwordsOf(t uint32) int {
	switch t {
	case 0, 1, 2, 3:
		return int(t) + 1
	case 7, 12:
		return 2
	}
	return 1
}

func half(h uint32) float32 {
	s := h >> 15 & 1
	ex := h >> 10 & 31
	m := h & 0x3FF
	var f float64
	switch ex {
	case 0:
		f = math.Ldexp(float64(m), -24)
	case 31:
		if m == 0 {
			f = math.Inf(1)
		} else {
			f = math.NaN()
		}
	default:
		f = math.Ldexp(float64(m|0x400), int(ex)-25)
	}
	if s != 0 {
		f = -f
	}
	return float32(f)
}

// fixed converts an n-bit fixed-point value per SIGNED/NORMALIZE and the
// signed normalisation method (L1921-1929, L1947-1965).
func (el *element) fixed(v uint32, n uint) float32 {
	if !el.signed {
		if el.normalize {
			return float32(float64(v) / float64(uint32(1)<<n-1))
		}
		return float32(v)
	}
	s := int32(v<<(32-n)) >> (32 - n)
	if !el.normalize {
		return float32(s)
	}
	switch el.sgnNorm {
	case 0:
		return float32(float64(s) / float64(int32(1)<<(n-1)-1))
	case 1:
		return float32(math.Max(float64(s)/float64(int32(1)<<(n-1)-1), -1))
	}
	return float32((2*float64(s) + 1) / float64(uint32(1)<<n-1))
}

// convert decodes one element from d into its value (x, y, z, w).
func (el *element) convert(d []uint32) [4]float32 {
	v := [4]float32{0, 0, 0, 1}
	switch el.dataType {
	case 0, 1, 2, 3:
		for k := 0; k <= int(el.dataType); k++ {
			v[k] = math.Float32frombits(d[k])
		}
	case 4, 5:
		for k := 0; k < 4; k++ {
			v[k] = el.fixed(d[0]>>(8*uint(k))&0xFF, 8)
		}
		if el.dataType == 5 {
			v[0], v[2] = v[2], v[0]
		}
	case 6:
		v[0], v[1] = el.fixed(d[0]&0xFFFF, 16), el.fixed(d[0]>>16, 16)
	case 7:
		v = [4]float32{el.fixed(d[0]&0xFFFF, 16), el.fixed(d[0]>>16, 16), el.fixed(d[1]&0xFFFF, 16), el.fixed(d[1]>>16, 16)}
	case 8:
		v[0], v[1], v[2] = el.fixed(d[0]&0x3FF, 10), el.fixed(d[0]>>10&0x3FF, 10), el.fixed(d[0]>>20&0x3FF, 10)
	case 9:
		v[0], v[1], v[2] = el.fixed(d[0]&0x7FF, 11), el.fixed(d[0]>>11&0x7FF, 11), el.fixed(d[0]>>22&0x3FF, 10)
	case 11:
		v[0], v[1] = half(d[0]&0xFFFF), half(d[0]>>16)
	case 12:
		v = [4]float32{half(d[0] & 0xFFFF), half(d[0] >> 16), half(d[1] & 0xFFFF), half(d[1] >> 16)}
	}
	return v
}

// fetchInputs runs the stream elements over a vertex's dwords into the
// input vectors (L1911-1946).
func fetchInputs(els []element, d []uint32, in *[32][4]float32) error {
	p := 0
	for i := range els {
		el := &els[i]
		n := dwordsOf(el.dataType)
		if p+n > len(d) {
			return faultf("vertex element %d reads dword %d of a %d-dword vertex", i, p+n-1, len(d))
		}
		val := el.convert(d[p : p+n])
		p += n + int(el.skip)
		writeElement(el, val, in)
	}
	return nil
}

// assemble runs the stream elements over a vertex's dwords and the PVS
// bypass into v.
func assemble(els []element, out *outputs, d []uint32, v *vertex) error {
	var in [32][4]float32
	if err := fetchInputs(els, d, &in); err != nil {
		return err
	}
	// PVS bypass: output k is input vector k ([PROP], see the package doc).
	k := 0
	v.pos = in[k]
	k++
	for c := 0; c < 4; c++ {
		if out.col[c] {
			v.col[c] = in[k]
			k++
		}
	}
	if out.psize {
		v.psize = in[k][0]
		k++
	}
	for t := 0; t < 8; t++ {
		if out.texComp[t] > 0 {
			v.tex[t] = in[k]
			k++
		}
	}
	return nil
}

// shade runs the vertex program over a vertex's dwords into v: output
// vector k is the k-th output enabled in the order position, point size,
// colours 0-3, texture coordinates 0-7 ([OUT] Mesa r300_vs.c).
func (st *pvsState) shade(els []element, out *outputs, d []uint32, v *vertex, r *pvsRegs) error {
	st.resetVertex(r)
	if err := fetchInputs(els, d, &r.in); err != nil {
		return err
	}
	if err := st.run(r); err != nil {
		return err
	}
	st.output(out, r, v)
	return nil
}

// output copies a shaded vertex's output vectors into v.
func (st *pvsState) output(out *outputs, r *pvsRegs, v *vertex) {
	k := 0
	v.pos = r.out[k]
	k++
	if out.psize {
		v.psize = r.out[k][0]
		k++
	}
	for c := 0; c < 4; c++ {
		if out.col[c] {
			v.col[c] = r.out[k]
			k++
		}
	}
	for t := 0; t < 8; t++ {
		if out.texComp[t] > 0 {
			v.tex[t] = r.out[k]
			k++
		}
	}
}

// vertexDwords returns the dwords of vertex idx from the AOS arrays
// (L2122-2162): each array contributes COUNT dwords at ADDR + idx*STRIDE.
func (e *Engine) vertexDwords(idx uint32, buf []uint32) ([]uint32, error) {
	buf = buf[:0]
	n := int(e.reg(r3.VAP_VTX_NUM_ARRAYS) & 31)
	if n > 16 {
		return nil, faultf("VAP_VTX_NUM_ARRAYS %d exceeds 16", n)
	}
	for k := 0; k < n; k++ {
		attr := e.reg(r3.VAP_VTX_AOS_ATTR01 + 12*uint32(k/2))
		if k%2 == 1 {
			attr >>= 16
		}
		count, stride := attr&0x7F, attr>>8&0x7F
		addr := e.reg(r3.VAP_VTX_AOS_ADDR0+12*uint32(k/2)+4*uint32(k%2)) &^ 3
		a := uint64(addr) + 4*uint64(idx)*uint64(stride)
		if a > math.MaxUint32 {
			return nil, faultf("vertex %d of array %d lies beyond 4 GB", idx, k)
		}
		b, ok := e.mem.Slice(uint32(a), 4*count)
		if !ok {
			return nil, faultf("vertex %d of array %d (%#x+%d dwords) lies outside memory", idx, k, a, count)
		}
		for j := uint32(0); j < count; j++ {
			buf = append(buf, binary.LittleEndian.Uint32(b[4*j:]))
		}
	}
	return buf, nil
}
