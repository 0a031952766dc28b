package pica

import (
	"math"

	p "github.com/retrogl/retrogl/hal/pica"
)

// Vertex batches. A vertex shader with no flow control, no MOVA and no
// geometry instructions (the driver's generated shaders) runs the same
// instructions for every vertex, and its address registers stay 0: such a
// program is decoded once (straightLine) and run over up to vsBatch
// vertices an instruction at a time, each instruction's operands fetched
// from pre-decoded selectors and its arithmetic the interpreter's own
// (compute). The vertices are independent, so the bytes are the
// interpreter's; the loops over the batch let the processor overlap the
// vertices' long rounding chains. Any other program runs on the
// interpreter (Unit.Run).
const vsBatch = 16

// vsSrc is a pre-decoded source operand.
type vsSrc struct {
	file uint8 // 0 input, 1 temporary, 2 float uniform
	idx  uint8
	sel  [4]uint8
	neg  bool
}

// vsOp is one pre-decoded arithmetic instruction.
type vsOp struct {
	in   p.Insn
	src  [3]vsSrc
	nsrc int
	mask [4]bool
	out  bool // the destination is an output register (else a temporary)
	dst  uint8
}

// vsProg is a straight-line program: its arithmetic instructions and the
// instructions one run executes, END included.
type vsProg struct {
	ops   []vsOp
	steps int
	// early lists the temporary components (register 16-31, component)
	// an instruction may read before the program writes them: run
	// clears them for every batch. The others the program writes before
	// reading, or never writes; begin clears those once per draw.
	early [][2]uint8
}

// straightLine decodes the program from the entry point to its first END
// when it qualifies for batches (at most MaxSteps instructions).
func straightLine(s *Shader) (*vsProg, bool) {
	prog := s.program()
	pr := &vsProg{}
	pc := s.Entry & (CodeWords - 1)
	for pr.steps < MaxSteps {
		pr.steps++
		in := &prog[pc]
		pc = (pc + 1) & (CodeWords - 1)
		f := in.Op.Info().Format
		switch {
		case f == p.Fmt0 && in.Op == p.OpEND:
			pr.findEarly()
			return pr, true
		case f == p.Fmt0 && in.Op == p.OpNOP, in.Op == p.OpCMP:
			continue // no register written; the flags are never read
		case f == p.FmtInvalid || f == p.Fmt0 || f == p.Fmt2 || f == p.Fmt3 || f == p.Fmt4 || in.Op == p.OpMOVA:
			return nil, false
		}
		d := p.OpDesc(s.Opdesc[in.Desc&(NumOpdescs-1)])
		op := vsOp{in: *in, out: in.Dst < 0x10, dst: in.Dst}
		if !op.out {
			op.dst = in.Dst - 0x10
		}
		for c := 0; c < 4; c++ {
			op.mask[c] = d.WritesComp(c)
		}
		var regs []uint8
		switch f {
		case p.Fmt1u:
			regs = []uint8{in.Src1}
		case p.Fmt1, p.Fmt1c, p.Fmt1i:
			regs = []uint8{in.Src1, in.Src2}
		case p.Fmt5, p.Fmt5i:
			regs = []uint8{in.Src1, in.Src2, in.Src3}
		}
		for k, r := range regs {
			// Unit.src with the address registers at 0: an indexed
			// uniform reads its own register.
			sr := &op.src[k]
			switch {
			case r < 0x10:
				sr.file, sr.idx = 0, r
			case r < 0x20:
				sr.file, sr.idx = 1, r-0x10
			default:
				sr.file, sr.idx = 2, r-0x20
			}
			sh := 5 + 9*uint(k)
			sel := uint32(d) >> sh
			sr.sel = [4]uint8{uint8(sel >> 6 & 3), uint8(sel >> 4 & 3), uint8(sel >> 2 & 3), uint8(sel & 3)}
			sr.neg = uint32(d)>>(sh-1)&1 != 0
		}
		op.nsrc = len(regs)
		pr.ops = append(pr.ops, op)
	}
	return nil, false
}

// findEarly fills pr.early: the operands' temporary components (every
// swizzle selector, as fetch reads all four) not written by an earlier
// instruction.
func (pr *vsProg) findEarly() {
	var written, listed [16][4]bool
	for i := range pr.ops {
		op := &pr.ops[i]
		for k := 0; k < op.nsrc; k++ {
			sr := &op.src[k]
			if sr.file != 1 {
				continue
			}
			for _, c := range sr.sel {
				if r := sr.idx & 15; !written[r][c] && !listed[r][c] {
					listed[r][c] = true
					pr.early = append(pr.early, [2]uint8{16 + r, c})
				}
			}
		}
		if !op.out {
			for c := 0; c < 4; c++ {
				if op.mask[c] {
					written[op.dst&15][c] = true
				}
			}
		}
	}
}

// begin clears the temporaries and outputs (register 16-47) for a draw:
// a component the program never writes reads 0 in every batch.
func (r *vsRegs) begin() {
	clear(r.reg[16:48])
}

// vsRegs is a batch's register file, component-major: component c of
// register r of vertex v is reg[r][c][v], with the inputs at 0-15, the
// temporaries at 16-31 and the outputs at 32-47.
type vsRegs struct {
	reg [48][4][vsBatch]float32
}

// row returns the register a source or destination names.
func (r *vsRegs) row(file, idx uint8) *[4][vsBatch]float32 {
	return &r.reg[16*int(file)+int(idx)]
}

// fetch fills x with source operand sr of the first n vertices,
// swizzled and negated, component-major.
func (r *vsRegs) fetch(s *Shader, sr *vsSrc, n int, x *[4][vsBatch]float32) {
	if sr.file == 2 { // a uniform: the same for every vertex
		u := &s.Float[sr.idx]
		for c := 0; c < 4; c++ {
			v := u[sr.sel[c]]
			if sr.neg {
				v = -v
			}
			for i := 0; i < n; i++ {
				x[c][i] = v
			}
		}
		return
	}
	reg := r.row(sr.file, sr.idx)
	for c := 0; c < 4; c++ {
		src := &reg[sr.sel[c]]
		if sr.neg {
			for i := 0; i < n; i++ {
				x[c][i] = -src[i]
			}
		} else {
			copy(x[c][:n], src[:n])
		}
	}
}

// run executes the program on the first n vertices' inputs (reg 0-15),
// leaving their outputs in reg 32-47 (registers not written read 0, as in
// Unit.Run). Each instruction reads its operands for the whole batch, then
// computes and writes vertex by vertex.
//
// The registers hold what begin and the draw's earlier batches left: a
// component written before it is read is fresh for the first n
// vertices, one never written is 0 from begin, and those listed in early
// are cleared here.
func (pr *vsProg) run(s *Shader, r *vsRegs, n int) {
	for _, e := range pr.early {
		clear(r.reg[e[0]][e[1]][:n])
	}
	var src [3][4][vsBatch]float32
	for oi := range pr.ops {
		op := &pr.ops[oi]
		// A DP3/DP4 with a uniform operand reads it as one vector (the
		// products commute: x*y is y*x, and both are flushed alike).
		dpU := -1
		if (op.in.Op == p.OpDP3 || op.in.Op == p.OpDP4) && op.nsrc >= 2 {
			switch {
			case op.src[0].file == 2:
				dpU = 0
			case op.src[1].file == 2:
				dpU = 1
			}
		}
		for k := 0; k < op.nsrc; k++ {
			if k == dpU {
				continue
			}
			r.fetch(s, &op.src[k], n, &src[k])
		}
		dst := &r.reg[16+int(op.dst)]
		if op.out {
			dst = &r.reg[32+int(op.dst)]
		}
		a, b := &src[0], &src[1]
		switch op.in.Op {
		case p.OpDP3, p.OpDP4:
			m := 4
			if op.in.Op == p.OpDP3 {
				m = 3
			}
			var sum [vsBatch]float32
			if dpU >= 0 {
				dotBatchU(&src[1-dpU], uniform(s, &op.src[dpU]), m, n, &sum)
			} else {
				dotBatch(a, b, m, n, &sum)
			}
			for c := 0; c < 4; c++ {
				if op.mask[c] {
					copy(dst[c][:n], sum[:n])
				}
			}
		case p.OpMOV:
			for c := 0; c < 4; c++ {
				if op.mask[c] {
					copy(dst[c][:n], a[c][:n])
				}
			}
		default:
			var va, vb, vc vec4
			for i := 0; i < n; i++ {
				for c := 0; c < 4; c++ {
					va[c], vb[c], vc[c] = a[c][i], b[c][i], src[2][c][i]
				}
				res := compute(&op.in, va, vb, vc)
				for c := 0; c < 4; c++ {
					if op.mask[c] {
						dst[c][i] = res[c]
					}
				}
			}
		}
	}
}

// dotBatch is dot(a_i, b_i, m) for the first n vertices, component by
// component: each vertex's products and sums in dot's order, with dot's
// arithmetic.
func dotBatch(a, b *[4][vsBatch]float32, m, n int, sum *[vsBatch]float32) {
	n = min(n, vsBatch)
	for c := 0; c < m; c++ {
		ac, bc := &a[c], &b[c]
		for i := 0; i < n; i++ {
			var p float32
			if x, y := flush(ac[i]), flush(bc[i]); x != 0 && y != 0 {
				mm := float64(x) * float64(y)
				var ok bool
				if p, ok = round24Short(mm); !ok {
					p = round24Full(mm)
				}
			}
			switch {
			case c == 0:
				sum[i] = p
			case p == 0:
				// fadd(sum, 0) is sum (see dot).
			default:
				t := float64(sum[i]) + float64(p)
				if t == 0 {
					sum[i] = 0
				} else if r, ok := round24Short(t); ok {
					sum[i] = r
				} else {
					sum[i] = round24Full(t)
				}
			}
		}
	}
}

// uniform returns a uniform source operand swizzled, negated and flushed
// (fmul's flush, done once for the batch).
func uniform(s *Shader, sr *vsSrc) vec4 {
	u := &s.Float[sr.idx]
	var v vec4
	for c := 0; c < 4; c++ {
		x := u[sr.sel[c]&3]
		if sr.neg {
			x = -x
		}
		v[c] = flush(x)
	}
	return v
}

// dotBatchU is dotBatch with the same second operand b (flushed) for
// every vertex.
func dotBatchU(a *[4][vsBatch]float32, b vec4, m, n int, sum *[vsBatch]float32) {
	n = min(n, vsBatch)
	for c := 0; c < m; c++ {
		ac, y := &a[c], b[c]
		if y == 0 {
			// Every product is 0: the first component's sum is 0, a
			// later one's is unchanged.
			if c == 0 {
				clear(sum[:n])
			}
			continue
		}
		for i := 0; i < n; i++ {
			var p float32
			if x := flush(ac[i]); x != 0 {
				mm := float64(x) * float64(y)
				var ok bool
				if p, ok = round24Short(mm); !ok {
					p = round24Full(mm)
				}
			}
			switch {
			case c == 0:
				sum[i] = p
			case p == 0:
			default:
				t := float64(sum[i]) + float64(p)
				if t == 0 {
					sum[i] = 0
				} else if r, ok := round24Short(t); ok {
					sum[i] = r
				} else {
					sum[i] = round24Full(t)
				}
			}
		}
	}
}

// outMap is the output map decoded for a draw: for each output register
// component, the semantic it feeds.
type outMap struct {
	n   int
	ent [16 * 4]struct{ o, c, sem uint8 }
}

// decodeOutMap reads VSH_OUTMAP_MASK, SH_OUTMAP_TOTAL and SH_OUTMAP_On.
func (g *GPU) decodeOutMap() outMap {
	var m outMap
	mask := g.regs[p.VSH_OUTMAP_MASK] & 0xFFFF
	total := int(g.regs[p.SH_OUTMAP_TOTAL] & 7)
	k := 0
	for o := 0; o < 16 && k < total; o++ {
		if mask>>uint(o)&1 == 0 {
			continue
		}
		w := g.regs[p.SH_OUTMAP_O0+p.Reg(k)]
		for c := 0; c < 4; c++ {
			if s := w >> (8 * uint(c)) & 0x1F; s < 0x18 {
				m.ent[m.n] = struct{ o, c, sem uint8 }{uint8(o), uint8(c), uint8(s)}
				m.n++
			}
		}
		k++
	}
	return m
}

// vertex builds the vertex the output registers out feed.
func (m *outMap) vertex(out *[16]vec4) vertex {
	// Semantics no output feeds read 1 (L1034).
	var sem [32]float32
	for i := range sem {
		sem[i] = 1
	}
	for _, e := range m.ent[:m.n] {
		sem[e.sem] = out[e.o][e.c]
	}
	return fromSem(&sem)
}

// vertexAt is vertex for vertex k of a batch, read from the batch's
// output registers (reg 32-47) where the map points.
func (m *outMap) vertexAt(r *vsRegs, k int) vertex {
	sem := onesSem
	for _, e := range m.ent[:m.n] {
		sem[e.sem] = r.reg[32+int(e.o&15)][e.c&3][k]
	}
	return fromSem(&sem)
}

// onesSem is the semantics of a vertex no output feeds.
var onesSem = func() (s [32]float32) {
	for i := range s {
		s[i] = 1
	}
	return s
}()

// fromSem builds a vertex from its semantics' values.
func fromSem(sem *[32]float32) vertex {
	var v vertex
	copy(v.pos[:], sem[0:4])
	copy(v.quat[:], sem[4:8])
	for c := 0; c < 4; c++ {
		// [OUT] citra: colours take abs() and saturate per vertex.
		// math.Min(|x|, 1) written out: 1 above, NaN as math.NaN().
		a := float32(math.Abs(float64(sem[8+c])))
		if !(a <= 1) {
			if a > 1 {
				a = 1
			} else {
				a = float32(math.NaN())
			}
		}
		v.color[c] = a
	}
	v.tc0 = [2]float32{sem[12], sem[13]}
	v.tc1 = [2]float32{sem[14], sem[15]}
	v.tc0w = sem[16]
	v.view = [3]float32{sem[18], sem[19], sem[20]}
	v.tc2 = [2]float32{sem[22], sem[23]}
	return v
}

// truncF24 rounds a float32 to float24 and back (hal/pica F24ToFloat(ToF24(f)))
// with bit operations: the mantissa truncated to 16 bits, exponents below
// the range (and float32 subnormals) flushed to a signed zero, above it
// saturated to a signed infinity, every NaN the canonical float32 NaN.
func truncF24(f float32) float32 {
	b := math.Float32bits(f)
	e := b >> 23 & 0xFF
	switch {
	case e == 0xFF:
		if b&0x7FFFFF != 0 {
			return float32(math.NaN())
		}
		return f
	case e <= 127-63:
		return math.Float32frombits(b & 0x80000000)
	case e >= 127+64:
		return math.Float32frombits(b&0x80000000 | 0x7F800000)
	}
	return math.Float32frombits(b &^ 0x7F)
}
