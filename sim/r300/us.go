package r300

import (
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// usLevel is one indirection level: its TEX segment (nil when skipped)
// and its ALU segment (L1661-1690, guide §3.2).
type usLevel struct {
	tex []r3.TexInst
	alu []aluOp
}

// aluOp is an ALU instruction decoded once per draw: every operand
// component becomes an index into the per-pixel operand table (see
// operandTable), so execution does no select decoding.
type aluOp struct {
	a       r3.ALUInst
	rgbIdx  [3][3]uint8 // per argument A, B, C and channel r, g, b
	aIdx    [3]uint8
	srcpRGB bool
	srcpA   bool
}

// Operand table layout: per source slot n, 4n..4n+2 its RGB-slot r, g,
// b and 4n+3 its alpha-slot a; 12-14 srcp.rgb, 15 srcp.a; 16-18 the
// inline 0, 1 and 0.5.
const (
	opSrcp = 12
	opZero = 16
)

func rgbIndex(sel uint8) [3]uint8 {
	n := 4 * (sel / 4)
	switch {
	case sel < 12 && sel%4 == 0:
		return [3]uint8{n, n + 1, n + 2}
	case sel < 12:
		c := n + sel%4 - 1
		return [3]uint8{c, c, c}
	case sel < 15:
		c := 4*(sel-12) + 3
		return [3]uint8{c, c, c}
	case sel == 15:
		return [3]uint8{12, 13, 14}
	case sel < 20:
		c := 12 + sel - 16
		return [3]uint8{c, c, c}
	case sel < 23:
		c := opZero + sel - 20
		return [3]uint8{c, c, c}
	case sel < 26:
		m := 4 * (sel - 23)
		return [3]uint8{m + 1, m + 2, m}
	case sel < 29:
		m := 4 * (sel - 26)
		return [3]uint8{m + 2, m, m + 1}
	}
	m := 4 * (sel - 29)
	return [3]uint8{m + 3, m + 2, m + 1}
}

func alphaIndex(sel uint8) uint8 {
	switch {
	case sel < 9:
		return 4*(sel/3) + sel%3
	case sel < 12:
		return 4*(sel-9) + 3
	case sel < 16:
		return 12 + sel - 12
	}
	return opZero + sel - 16
}

func decodeALU(a r3.ALUInst) aluOp {
	op := aluOp{a: a}
	for k := 0; k < 3; k++ {
		op.rgbIdx[k] = rgbIndex(a.RGB.Args[k].Sel)
		op.aIdx[k] = alphaIndex(a.Alpha.Args[k].Sel)
		for _, i := range op.rgbIdx[k] {
			op.srcpRGB = op.srcpRGB || (i >= 12 && i < 15)
			op.srcpA = op.srcpA || i == 15
		}
		op.srcpRGB = op.srcpRGB || (op.aIdx[k] >= 12 && op.aIdx[k] < 15)
		op.srcpA = op.srcpA || op.aIdx[k] == 15
	}
	return op
}

// usProg is the fragment program decoded once per draw.
type usProg struct {
	levels []usLevel
	consts [32][4]float32
	// depth is set when some instruction writes the depth output; tex
	// when the program samples (so helper pixels matter).
	depth, tex bool
	// ntemps bounds the temps the program reads or writes: the RS clears
	// only those.
	ntemps int
}

func (e *Engine) prepareUS() (*usProg, error) {
	prog := r3.ReadProgram(e.reg)
	if prog.Config&7 > 3 {
		return nil, faultf("US_CONFIG.NLEVEL %d is reserved", prog.Config&7)
	}
	u := &usProg{}
	for _, l := range prog.Levels() {
		if l.ALUEnd >= r3.MaxALU {
			return nil, faultf("US level %d: ALU code %d..%d runs past instruction %d", l.Index, l.ALUStart, l.ALUEnd, r3.MaxALU-1)
		}
		if l.HasTex && l.TexEnd >= r3.MaxTEX {
			return nil, faultf("US level %d: TEX code %d..%d runs past instruction %d", l.Index, l.TexStart, l.TexEnd, r3.MaxTEX-1)
		}
		var lv usLevel
		if l.HasTex {
			for i := l.TexStart; i <= l.TexEnd; i++ {
				t := r3.DecodeTex(prog.Tex[i])
				if t.Op > r3.TexLODBias {
					return nil, faultf("US_TEX_INST_%d: INST %d is reserved", i, t.Op)
				}
				lv.tex = append(lv.tex, t)
				u.ntemps = max(u.ntemps, int(t.Src)+1, int(t.Dst)+1)
				u.tex = u.tex || (t.Op != r3.TexNOP && t.Op != r3.TexKill)
			}
		}
		for i := l.ALUStart; i <= l.ALUEnd; i++ {
			a := prog.ALU(i)
			if err := checkALU(i, &a); err != nil {
				return nil, err
			}
			u.depth = u.depth || a.Alpha.DepthOut
			for _, h := range []*r3.Half{&a.RGB, &a.Alpha} {
				for _, src := range h.Src {
					if src < r3.ConstBase {
						u.ntemps = max(u.ntemps, int(src)+1)
					}
				}
				u.ntemps = max(u.ntemps, int(h.Dst)+1)
			}
			lv.alu = append(lv.alu, decodeALU(a))
		}
		u.levels = append(u.levels, lv)
	}
	u.ntemps = min(u.ntemps, 32)
	for k := range u.consts {
		for c := 0; c < 4; c++ {
			u.consts[k][c] = r3.DecodeFP24(prog.Const[k][c])
		}
	}
	return u, nil
}

func checkALU(i int, a *r3.ALUInst) error {
	if r3.RGBArgs[a.RGB.Op] < 0 {
		return faultf("US_ALU_RGB_INST_%d: OP %d is reserved", i, a.RGB.Op)
	}
	if r3.AlphaArgs[a.Alpha.Op] < 0 {
		return faultf("US_ALU_ALPHA_INST_%d: OP %d is reserved", i, a.Alpha.Op)
	}
	if a.RGB.Omod == 7 || a.Alpha.Omod == 7 {
		return faultf("US_ALU_*_INST_%d: OMOD 7 is reserved", i)
	}
	if a.Alpha.Op == r3.AlphaDP && (a.RGB.Op < r3.RGBDP3 || a.RGB.Op > r3.RGBD2A) {
		return faultf("US_ALU_ALPHA_INST_%d: OP_DP needs a dot product in the RGB half, which has %s", i, r3.EnumRGBOp[a.RGB.Op])
	}
	for k := 0; k < 3; k++ {
		if a.Alpha.Args[k].Sel > r3.SelAHalf {
			return faultf("US_ALU_ALPHA_INST_%d: SEL_%c %d is reserved", i, 'A'+k, a.Alpha.Args[k].Sel)
		}
	}
	return nil
}

// runUS executes the program on a quad: per level, the TEX segment for all
// four pixels (so the LOD can use the quad's coordinates), then the ALU
// segment.
func (e *Engine) runUS(s *drawState, q *quadState) error {
	q.out = [4][4][4]float32{}
	q.depth = [4]float32{}
	u := s.us
	for li := range u.levels {
		lv := &u.levels[li]
		for _, t := range lv.tex {
			switch t.Op {
			case r3.TexNOP:
			case r3.TexKill:
				// L1727: kill if any component is negative.
				for i := 0; i < 4; i++ {
					c := &q.temps[i][t.Src]
					if c[0] < 0 || c[1] < 0 || c[2] < 0 || c[3] < 0 {
						q.killed |= 1 << i
					}
				}
			default:
				var coords [4][4]float32
				for i := 0; i < 4; i++ {
					coords[i] = q.temps[i][t.Src]
				}
				res, err := e.sample(s, q, int(t.Unit), t.Op, &coords)
				if err != nil {
					return err
				}
				for i := 0; i < 4; i++ {
					for c := 0; c < 4; c++ {
						q.temps[i][t.Dst][c] = r3.RoundFP24(float64(res[i][c]))
					}
				}
			}
		}
		for ai := range lv.alu {
			a := &lv.alu[ai]
			for i := 0; i < 4; i++ {
				if q.active>>i&1 != 0 {
					a.exec(&q.temps[i], &u.consts, &q.out[i], &q.depth[i])
				}
			}
		}
	}
	return nil
}

// omodScale is OMOD (L1554): ×1, ×2, ×4, ×8, ÷2, ÷4, ÷8.
var omodScale = [8]float64{1, 2, 4, 8, 0.5, 0.25, 0.125, 1}

func srcp(op uint8, s0, s1 float64) float64 {
	switch op {
	case 0:
		return 1 - 2*s0
	case 1:
		return s1 - s0
	case 2:
		return s1 + s0
	}
	return 1 - s0
}

func mod(x float64, m uint8) float64 {
	switch m {
	case 1:
		return -x
	case 2:
		return math.Abs(x)
	case 3:
		return -math.Abs(x)
	}
	return x
}

// finish applies the output modifier and clamp to a rounded result
// ([PROP] op, then OMOD, then clamp; guide §3.4).
func finish(x float64, omod uint8, clamp bool) float32 {
	r := r3.RoundFP24(x)
	if omod != 0 {
		r = r3.RoundFP24(float64(r) * omodScale[omod])
	}
	if clamp {
		if !(r > 0) {
			r = 0
		} else if r > 1 {
			r = 1
		}
	}
	return r
}

// execALU executes one ALU instruction for one pixel (tests use it on
// undecoded instructions).
func execALU(a *r3.ALUInst, t *[32][4]float32, k *[32][4]float32, out *[4][4]float32, depth *float32) {
	op := decodeALU(*a)
	op.exec(t, k, out, depth)
}

// exec executes the instruction for one pixel. Every source is read
// before any result is written ([PROP] guide §3.5.8).
func (op *aluOp) exec(t *[32][4]float32, k *[32][4]float32, out *[4][4]float32, depth *float32) {
	a := &op.a
	var v [19]float64
	for n := 0; n < 3; n++ {
		ra, aa := a.RGB.Src[n], a.Alpha.Src[n]
		var rgb, al *[4]float32
		if ra >= r3.ConstBase {
			rgb = &k[ra-r3.ConstBase]
		} else {
			rgb = &t[ra]
		}
		if aa >= r3.ConstBase {
			al = &k[aa-r3.ConstBase]
		} else {
			al = &t[aa]
		}
		v[4*n], v[4*n+1], v[4*n+2], v[4*n+3] = float64(rgb[0]), float64(rgb[1]), float64(rgb[2]), float64(al[3])
	}
	// Pre-subtract from raw slots 0 and 1 of each half (L1542-1547).
	if op.srcpRGB {
		for c := 0; c < 3; c++ {
			v[opSrcp+c] = float64(r3.RoundFP24(srcp(a.RGB.Srcp, v[c], v[4+c])))
		}
	}
	if op.srcpA {
		v[opSrcp+3] = float64(r3.RoundFP24(srcp(a.Alpha.Srcp, v[3], v[7])))
	}
	v[opZero+1], v[opZero+2] = 1, 0.5
	var A, B, C [3]float64
	for c := 0; c < 3; c++ {
		A[c] = mod(v[op.rgbIdx[0][c]], a.RGB.Args[0].Mod)
		B[c] = mod(v[op.rgbIdx[1][c]], a.RGB.Args[1].Mod)
		C[c] = mod(v[op.rgbIdx[2][c]], a.RGB.Args[2].Mod)
	}
	aA := mod(v[op.aIdx[0]], a.Alpha.Args[0].Mod)
	aB := mod(v[op.aIdx[1]], a.Alpha.Args[1].Mod)
	aC := mod(v[op.aIdx[2]], a.Alpha.Args[2].Mod)

	// The alpha unit (L1552).
	var ar float64
	var dot float64
	switch a.RGB.Op {
	case r3.RGBDP3:
		dot = float64(A[0]*B[0]) + float64(A[1]*B[1]) + float64(A[2]*B[2])
	case r3.RGBDP4:
		// L1650, guide §3.4: the .a terms come from the alpha half's A, B.
		dot = float64(A[0]*B[0]) + float64(A[1]*B[1]) + float64(A[2]*B[2]) + float64(aA*aB)
	case r3.RGBD2A:
		dot = float64(A[0]*B[0]) + float64(A[1]*B[1]) + C[2]
	}
	switch a.Alpha.Op {
	case r3.AlphaMAD:
		ar = float64(aA*aB) + aC
	case r3.AlphaDP:
		ar = dot
	case r3.AlphaMIN:
		ar = min(aA, aB)
	case r3.AlphaMAX:
		ar = max(aA, aB)
	case r3.AlphaCND:
		ar = sel(aC > 0.5, aA, aB)
	case r3.AlphaCMP:
		ar = sel(aC >= 0, aA, aB)
	case r3.AlphaFRC:
		ar = aA - math.Floor(aA)
	case r3.AlphaEX2:
		ar = exp2(aA)
	case r3.AlphaLN2:
		ar = log2(aA)
	case r3.AlphaRCP:
		ar = 1 / aA
	case r3.AlphaRSQ:
		ar = 1 / math.Sqrt(aA)
	}
	alpha := finish(ar, a.Alpha.Omod, a.Alpha.Clamp)
	// The transcendental result SOP replicates is the unit's result
	// before the alpha half's own output modifier.
	sop := float64(r3.RoundFP24(ar))

	var res [3]float32
	for c := 0; c < 3; c++ {
		var x float64
		switch a.RGB.Op {
		case r3.RGBMAD:
			x = float64(A[c]*B[c]) + C[c]
		case r3.RGBDP3, r3.RGBDP4, r3.RGBD2A:
			x = dot
		case r3.RGBMIN:
			x = min(A[c], B[c])
		case r3.RGBMAX:
			x = max(A[c], B[c])
		case r3.RGBCND:
			x = sel(C[c] > 0.5, A[c], B[c])
		case r3.RGBCMP:
			x = sel(C[c] >= 0, A[c], B[c])
		case r3.RGBFRC:
			x = A[c] - math.Floor(A[c])
		case r3.RGBSOP:
			x = sop
		}
		res[c] = finish(x, a.RGB.Omod, a.RGB.Clamp)
	}

	// Writes (L1556-1569, L1464-1479).
	h := &a.RGB
	for c := 0; c < 3; c++ {
		if h.WMask>>c&1 != 0 {
			t[h.Dst][c] = res[c]
		}
		if h.OMask>>c&1 != 0 {
			out[h.Target][c] = res[c]
		}
	}
	if a.Alpha.WMask != 0 {
		t[a.Alpha.Dst][3] = alpha
	}
	if a.Alpha.OMask != 0 {
		out[a.Alpha.Target][3] = alpha
	}
	if a.Alpha.DepthOut {
		*depth = alpha
	}
}

func sel(c bool, a, b float64) float64 {
	if c {
		return a
	}
	return b
}

// exp2 and log2 are evaluated with fixed series in float64 (no library
// calls, whose last bits differ between architectures), so the FP24
// result is the same on every machine.
func exp2(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > 1024:
		return math.Inf(1)
	case x < -1100:
		return 0
	}
	i := math.Floor(x)
	f := float64((x - i) * math.Ln2)
	// e^f for f in [0, ln 2): Taylor series to f^18/18!.
	r := 1.0
	for n := 18; n >= 1; n-- {
		r = 1 + float64(r*f)/float64(n)
	}
	return math.Ldexp(r, int(i))
}

func log2(x float64) float64 {
	switch {
	case x == 0:
		return math.Inf(-1)
	case !(x > 0):
		return math.NaN()
	case math.IsInf(x, 1):
		return x
	}
	m, ex := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		ex--
	}
	// ln m = 2 atanh z with z = (m-1)/(m+1), |z| < 0.1716.
	z := (m - 1) / (m + 1)
	z2 := float64(z * z)
	sum := 0.0
	for n := 25; n >= 1; n -= 2 {
		sum = 1/float64(n) + float64(z2*sum)
	}
	return float64(ex) + float64(2*float64(z*sum))*(1/math.Ln2)
}
