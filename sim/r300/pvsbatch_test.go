package r300

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// randomPVS returns a random vertex program of up to 12 instructions:
// every vector and math opcode, swizzles with 0 and 1, negation and
// absolute values, relative addressing through A0 and aL (ARL/ARR
// writing A0), partial write masks, outputs and temporaries past their
// files, and now and then a loop or a jump.
func randomPVS(r *rand.Rand) pvsSetup {
	vecOps := []uint8{r3.VEDot4, r3.VEMul, r3.VEAdd, r3.VEMad, r3.VEDst, r3.VEFrc, r3.VEMax, r3.VEMin, r3.VESge, r3.VESlt, r3.VEM2xAdd}
	mathOps := []uint8{r3.MEExpDX, r3.MELogDX, r3.MEExpE, r3.MELit, r3.MEPow, r3.MERcpDX, r3.MERcpFF, r3.MERsqDX, r3.MERsqFF, r3.MEMul, r3.MEEx2, r3.MELg2, r3.MESin, r3.MECos}
	n := 1 + r.IntN(12)
	// One input and one constant register per program keep the operand
	// rules (two different inputs or constants in one instruction fault).
	inReg, cReg := uint8(r.IntN(3)), uint8(r.IntN(6))
	src := func() r3.PVSSrc {
		s := r3.PVSSrc{Swz: xyzw}
		switch r.IntN(3) {
		case 0:
			s.Type, s.Offset = r3.PVSSrcTemp, uint8(r.IntN(4))
			if r.IntN(20) == 0 {
				s.Offset = 40 // past the 32 temporaries: reads 0
			}
		case 1:
			s.Type, s.Offset = r3.PVSSrcInput, inReg
		default:
			s.Type, s.Offset = r3.PVSSrcConst, cReg
			if r.IntN(4) == 0 {
				s.AddrMode = uint8(1 + r.IntN(2)) // A0 or aL relative
				s.AddrSel = uint8(r.IntN(4))
			}
		}
		if r.IntN(3) == 0 {
			for c := range s.Swz {
				s.Swz[c] = uint8(r.IntN(6))
			}
		}
		if r.IntN(4) == 0 {
			s.Neg = uint8(r.IntN(16))
		}
		s.Abs = r.IntN(6) == 0
		return s
	}
	var ps pvsSetup
	for i := 0; i < n; i++ {
		var in r3.PVSInst
		d := r3.PVSDst{Type: r3.PVSDstTemp, Offset: uint8(r.IntN(4)), WE: 15}
		if r.IntN(3) == 0 {
			d.Type, d.Offset = r3.PVSDstOut, uint8(r.IntN(3))
		}
		if r.IntN(3) == 0 {
			d.WE = uint8(r.IntN(16))
		}
		if r.IntN(10) == 0 {
			d.AddrMode = 1 // relative write
			d.AddrSel = uint8(r.IntN(4))
		}
		if r.IntN(30) == 0 {
			d.Offset = 50 // past the file: dropped
		}
		switch k := r.IntN(10); {
		case k == 0:
			d = r3.PVSDst{Op: r3.VEFlt2Fix, Type: r3.PVSDstA0, WE: uint8(1 + r.IntN(15))}
			if r.IntN(2) == 0 {
				d.Op = r3.VEFlt2FixR
			}
		case k < 3:
			d.Math, d.Op = true, mathOps[r.IntN(len(mathOps))]
		default:
			d.Op = vecOps[r.IntN(len(vecOps))]
		}
		in.Dst = d
		for k := range in.Src {
			in.Src[k] = src()
		}
		// A non-macro MAD may not read three different temporaries.
		if !d.Math && d.Op == r3.VEMad {
			in.Src[2] = src()
			if in.Src[2].Type == r3.PVSSrcTemp {
				in.Src[2].Type, in.Src[2].Offset, in.Src[2].AddrMode = r3.PVSSrcInput, inReg, 0
			}
		}
		ps.code = append(ps.code, in)
	}
	for k := 0; k < 8; k++ {
		var c [4]float32
		for j := range c {
			c[j] = randomValue(r)
		}
		ps.consts = append(ps.consts, c)
	}
	if n >= 3 && r.IntN(3) == 0 {
		// A loop over instructions 1..last, acting after instruction 0.
		ps.flow = []r3.PVSFlow{{Op: r3.PVSFlowLoop, Act: 0, TargetOrCnt: uint8(1 + r.IntN(3)), Rtn: 1, Last: uint8(n - 1), Init: uint8(r.IntN(3)), Step: int8(r.IntN(2))}}
	} else if n >= 3 && r.IntN(4) == 0 {
		ps.flow = []r3.PVSFlow{{Op: r3.PVSFlowJump, Act: 0, TargetOrCnt: uint8(2 + r.IntN(n-2))}}
	}
	return ps
}

// TestPVSBatchMatchesRun runs random vertex programs over batches of
// random vertices with runBatch and, vertex by vertex, with run (the
// reference): every register of every vertex, the error and the watchdog
// steps must be the same, bit for bit.
func TestPVSBatchMatchesRun(t *testing.T) {
	valid, fastOps, uniformRegs := 0, 0, 0
	for seed := 0; seed < 3000; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 99))
		ps := randomPVS(r)
		st, err := ps.engine(t).preparePVS()
		if err != nil {
			continue
		}
		valid++
		for i := st.first; i <= st.last; i++ {
			if o := &st.ops[i]; o.fast {
				fastOps++
				for k := range o.src {
					if o.srcs>>k&1 != 0 && o.src[k].file != r3.PVSSrcConst && o.src[k].uniform() {
						uniformRegs++
					}
				}
			}
		}
		nv := 1 + r.IntN(pvsBatchSize)
		batch := make([]pvsRegs, nv)
		for v := range batch {
			for k := 0; k < 3; k++ {
				for c := range batch[v].in[k] {
					batch[v].in[k][c] = pvsValue(r)
				}
			}
		}
		want := make([]pvsRegs, nv)
		copy(want, batch)
		var wantErr error
		for v := range want {
			if wantErr = st.run(&want[v]); wantErr != nil {
				break
			}
		}
		wantSteps := st.steps
		st.steps = 0
		gotErr := st.runBatch(batch)
		require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr), "seed %d: error", seed)
		if wantErr != nil {
			continue
		}
		require.Equal(t, wantSteps, st.steps, "seed %d: steps", seed)
		for v := range want {
			w, g := &want[v], &batch[v]
			require.Equal(t, w.a0, g.a0, "seed %d vertex %d: A0", seed, v)
			require.Equal(t, w.aL, g.aL, "seed %d vertex %d: aL", seed, v)
			for k := range w.temp {
				require.Equal(t, pvsBits(w.temp[k]), pvsBits(g.temp[k]), "seed %d vertex %d: temp %d", seed, v, k)
			}
			for k := range w.out {
				require.Equal(t, pvsBits(w.out[k]), pvsBits(g.out[k]), "seed %d vertex %d: out %d", seed, v, k)
			}
		}
	}
	require.Greater(t, valid, 1000, "most random programs must be valid")
	require.Greater(t, fastOps, 2000, "the batch loops must be taken")
	require.Greater(t, uniformRegs, 50, "batched operands reading a register the same for every vertex")
	t.Logf("%d valid programs, %d batched instructions, %d uniform register operands", valid, fastOps, uniformRegs)
}

// pvsBits is f32bits with every NaN as 0x7FC00000. Which NaN an
// operation on two NaNs gives is not a property of exec: x86 returns the
// first operand's, and the Go compiler may put either operand of a
// commutative operation first, so exec and execBatch (and exec built by
// another compiler, or on arm64, whose default NaN is positive) can give
// NaNs of different signs from the same inputs; every other bit is
// compared.
func pvsBits(v [4]float32) [4]uint32 {
	b := f32bits(v)
	for i, x := range v {
		if x != x {
			b[i] = 0x7FC00000
		}
	}
	return b
}

// pvsValue is randomValue with now and then a value the chip's float32
// arithmetic treats specially: signed zeros, infinities, NaN, a denormal,
// or a value equal in another input.
func pvsValue(r *rand.Rand) float32 {
	if r.IntN(8) == 0 {
		return []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
			float32(math.NaN()), math.Float32frombits(0x7FC01234), math.SmallestNonzeroFloat32, 1}[r.IntN(8)]
	}
	return randomValue(r)
}

func f32bits(v [4]float32) [4]uint32 {
	return [4]uint32{math.Float32bits(v[0]), math.Float32bits(v[1]), math.Float32bits(v[2]), math.Float32bits(v[3])}
}

// TestPVSDrawBatchMatchesReference draws random indexed primitives whose
// vertices a vertex program transforms, on the batched path and on the
// reference (Engine.reference, vertex by vertex): the same pixels,
// counters and errors. The draws are long enough for several batches,
// repeat indices within a batch and across batches (the vertex cache's
// copies), and now and then name a vertex outside memory (a fault after
// the vertices before it).
func TestPVSDrawBatchMatchesReference(t *testing.T) {
	const w, h = 24, 24
	faults, drawn, fetchDrawn, immdDrawn, bypassDrawn := 0, 0, 0, 0, 0
	for seed := 0; seed < 240; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 5))
		var mvp [4][4]float32
		for i := range mvp {
			for j := range mvp[i] {
				mvp[i][j] = r.Float32()*1.6 - 0.8
			}
			mvp[i][i] += 1
		}
		nv := 1 + r.IntN(100)
		vb := make([]byte, 0, 32*nv)
		for i := 0; i < nv; i++ {
			for k := 0; k < 8; k++ {
				vb = binary.LittleEndian.AppendUint32(vb, f(r.Float32()*2.4-1.2))
			}
		}
		prim := []r3.PrimType{r3.PrimTriangles, r3.PrimTriangleStrip, r3.PrimTriangleFan, r3.PrimPoints, r3.PrimLines}[r.IntN(5)]
		n := 3 + r.IntN(120)
		idx := make([]uint32, 0, (n+1)/2)
		var pair uint32
		for i := 0; i < n; i++ {
			x := uint32(r.IntN(nv))
			if i > 0 && r.IntN(4) == 0 {
				x = pair >> (16 * uint((i-1)%2)) & 0xFFFF // repeat the one before
			}
			if r.IntN(400) == 0 {
				x = 0xF000 // outside the vertex buffer's memory
			}
			if i%2 == 0 {
				pair = x
			} else {
				pair |= x << 16
				idx = append(idx, pair)
			}
		}
		if n%2 == 1 {
			idx = append(idx, pair)
		}
		// Half the draws fetch through random stream elements (every
		// data type, swizzles with 0 and 1, partial masks, skips, the
		// signed normalisation methods) from one to three arrays of
		// random layout, or, now and then, take their vertices inline
		// (3D_DRAW_IMMD_2); some element lists read past the vertex.
		aos := []r3.AOS{{Count: 8, Stride: 8, Addr: vbAddr}}
		var els, immd []uint32
		immdSize := 0
		if seed%2 == 1 {
			var need int
			aos, els, need = randomFetch(r)
			if r.IntN(4) == 0 {
				immdSize = max(1, need+r.IntN(2))
				if r.IntN(8) == 0 {
					immdSize = 1 + r.IntN(8)
				}
				for i := 0; i < n*immdSize; i++ {
					immd = append(immd, binary.LittleEndian.Uint32(vb[4*r.IntN(len(vb)/4):]))
				}
			}
		}
		// Random shading (flat channels make the draw take the
		// per-triangle path, the others prepare their vertices), colour
		// clamps, and now and then a user clip plane, clipping or
		// culling only.
		var cc uint32
		for k := 0; k < 4; k++ {
			pick := []uint32{2, 2, 2, 1, 0}
			cc |= pick[r.IntN(5)]<<(4*k) | pick[r.IntN(5)]<<(4*k+2)
		}
		cc |= uint32(r.IntN(4)) << 16
		round := uint32(r.IntN(2)) | uint32(r.IntN(2))<<4 | uint32(r.IntN(2))<<5
		solid := [2]uint32{r.Uint32() & 0x0FFF0FFF, r.Uint32() & 0x0FFF0FFF}
		var clip uint32
		var ucp [4]uint32
		if r.IntN(4) == 0 {
			clip = 1 | uint32(r.IntN(2))<<17
			for k := range ucp {
				ucp[k] = f(r.Float32()*2 - 1)
			}
		}
		// Random output formats (the program writes o0 and o1, the
		// others read as 0): which vertex field each output vector
		// fills.
		outFmt := [2]uint32{3, 0}
		if r.IntN(2) == 0 {
			outFmt[0] = 1 | uint32(r.IntN(16))<<1
			if r.IntN(3) == 0 {
				outFmt[0] |= 1 << 16
			}
			for t := 0; t < 8; t++ {
				if r.IntN(4) == 0 {
					outFmt[1] |= uint32(r.IntN(5)) << (3 * uint(t))
				}
			}
		}
		// A quarter of the draws skip the program (PVS_BYPASS): the
		// fetched inputs are the vertex, position first.
		bypass := r.IntN(4) == 0
		// The index range: the whole 16 bits (the arrays' memory for it
		// passes the end of memory: each vertex is checked), or about
		// the vertices' (the fetch takes each array's memory once).
		maxIdx, minIdx := uint32(0xFFFF), uint32(0)
		if r.IntN(2) == 0 {
			maxIdx, minIdx = uint32(nv-1+r.IntN(3)), uint32(r.IntN(3))
		}
		var verts [2][]vertex
		render := func(reference bool) ([]byte, Stats, error) {
			d := NewWith(Config{VRAMSize: 4 << 20, GARTSize: 2 << 20})
			defer d.Close()
			d.Engine.reference = reference
			require.NoError(t, d.Write(vbAddr, vb))
			var s r3.Stream
			pvsStream(&s, w, h, mvp, 0)
			s.Reg(r3.VAP_VF_MAX_VTX_INDX, maxIdx, minIdx)
			s.Reg(r3.GA_POINT_SIZE, 6|6<<16)
			s.Reg(r3.GA_LINE_CNTL, 4)
			if bypass {
				s.Reg(r3.VAP_CNTL_STATUS, 1<<8)
			}
			s.Reg(r3.VAP_OUT_VTX_FMT_0, outFmt[0], outFmt[1])
			if outFmt != [2]uint32{3, 0} {
				// Outputs 2-6 get values of their own (the
				// instructions after pvsStream's five).
				var code []uint32
				for k := uint8(2); k < 7; k++ {
					in := r3.PVSInst{Dst: r3.PVSDst{Op: r3.VEMad, Type: r3.PVSDstOut, Offset: k, WE: 15},
						Src: [3]r3.PVSSrc{swz(inp(1), k%4, (k+1)%4, (k+2)%4, 3), cst(k % 4), cst(k % 4)}}.Encode()
					code = append(code, in[:]...)
				}
				s.PVSUpload(r3.PVSCodeStart+5, code)
				s.Reg(r3.VAP_PVS_CODE_CNTL_0, 9<<20|3<<10, 9<<16, 9)
			}
			s.Reg(r3.GA_COLOR_CONTROL, cc)
			s.Reg(r3.GA_ROUND_MODE, round)
			s.Reg(r3.GA_SOLID_RG, solid[0], solid[1])
			if clip != 0 {
				s.Reg(r3.VAP_CLIP_CNTL, clip)
				s.PVSUpload(r3.PVSUCPStart, ucp[:])
			}
			if els != nil {
				for i := 0; i < 8; i++ {
					s.Reg(r3.VAP_PROG_STREAM_CNTL_0+4*uint32(i), els[2*i])
					s.Reg(r3.VAP_PROG_STREAM_CNTL_EXT+4*uint32(i), els[2*i+1])
				}
				s.Reg(r3.VAP_PSC_SGN_NORM_CNTL, els[16])
			}
			s.Packet3(r3.OpLoadVbpntr, r3.LoadVbpntr(aos)...)
			if immd != nil {
				s.Reg(r3.VAP_VTX_SIZE, uint32(immdSize))
				s.Packet3(r3.OpDrawImmd2, append([]uint32{r3.VFCntl(prim, r3.WalkData, n, false)}, immd...)...)
			} else {
				s.Packet3(r3.OpDrawIndx2, append([]uint32{r3.VFCntl(prim, r3.WalkIndices, n, false)}, idx...)...)
			}
			err := run(t, d, &s)
			out := make([]byte, w*h*4)
			require.NoError(t, d.Read(fbAddr, out))
			k := 0
			if reference {
				k = 1
			}
			verts[k] = append([]vertex(nil), d.Engine.verts...)
			return out, d.Engine.Stats, err
		}
		want, wStats, wErr := render(true)
		got, gStats, gErr := render(false)
		if wErr == nil {
			// The vertices' outputs (the colours the fast path has
			// shaded already), output vector by vector.
			require.Equal(t, len(verts[1]), len(verts[0]), "seed %d: vertices", seed)
			for i := range verts[0] {
				g, w := &verts[0][i], &verts[1][i]
				require.Equal(t, pvsBits(w.pos), pvsBits(g.pos), "seed %d vertex %d: position", seed, i)
				require.Equal(t, math.Float32bits(w.psize), math.Float32bits(g.psize), "seed %d vertex %d: point size", seed, i)
				for u := range w.tex {
					require.Equal(t, pvsBits(w.tex[u]), pvsBits(g.tex[u]), "seed %d vertex %d: texture coordinates %d", seed, i, u)
				}
			}
		}
		require.Equal(t, fmt.Sprint(wErr), fmt.Sprint(gErr), "seed %d: errors", seed)
		require.Equal(t, want, got, "seed %d: pixels", seed)
		require.Equal(t, wStats, gStats, "seed %d: counters", seed)
		if wErr != nil {
			faults++
		} else if wStats.Pixels > 0 {
			drawn++
			if els != nil {
				fetchDrawn++
			}
			if immd != nil {
				immdDrawn++
			}
			if bypass {
				bypassDrawn++
			}
		}
	}
	require.Greater(t, drawn, 80, "draws that drew pixels")
	require.Greater(t, fetchDrawn, 20, "draws through random elements that drew pixels")
	require.Greater(t, immdDrawn, 4, "inline draws that drew pixels")
	require.Greater(t, bypassDrawn, 20, "draws in PVS bypass that drew pixels")
	require.Greater(t, faults, 5, "draws that faulted")
	t.Logf("%d draws drew pixels (%d through random elements, %d inline, %d in PVS bypass), %d faulted", drawn, fetchDrawn, immdDrawn, bypassDrawn, faults)
}

// TestMax32Min32 compares max32 and min32 with exec's VE_MAX and VE_MIN
// (math.Max and math.Min in float64, rounded to float32) bit for bit over
// special values (signed zeros, infinities, NaNs with several payloads,
// denormals) and random pairs.
func TestMax32Min32(t *testing.T) {
	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.Float32frombits(0x7F800123), math.Float32frombits(0xFFC00000), math.Float32frombits(0x7FC01234),
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32}
	r := rand.New(rand.NewPCG(1, 2))
	vals := append([]float32{}, special...)
	for i := 0; i < 200; i++ {
		vals = append(vals, randomValue(r))
	}
	for _, x := range vals {
		for _, y := range vals {
			a, b := [4]float32{x}, [4]float32{y}
			require.Equal(t, math.Float32bits(vectorOp(r3.VEMax, a, b, a)[0]), math.Float32bits(max32(x, y)), "max(%v, %v)", x, y)
			require.Equal(t, math.Float32bits(vectorOp(r3.VEMin, a, b, a)[0]), math.Float32bits(min32(x, y)), "min(%v, %v)", x, y)
		}
	}
}

// randomFetch returns one to three random vertex arrays in the vertex
// buffer, a random stream element list for them (VAP_PROG_STREAM_CNTL and
// _EXT 0-7 interleaved, then VAP_PSC_SGN_NORM_CNTL), and the dwords the
// list reads. The first element (the position) is most often FLOAT_2-4
// read as it is; the list fits the arrays' dwords but now and then.
func randomFetch(r *rand.Rand) ([]r3.AOS, []uint32, int) {
	var aos []r3.AOS
	total := 0
	for k := 1 + r.IntN(3); k > 0; k-- {
		count := 1 + r.IntN(5)
		total += count
		aos = append(aos, r3.AOS{Count: count, Stride: count + r.IntN(4), Addr: vbAddr + 4*uint32(r.IntN(8))})
	}
	types := []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12}
	out := make([]uint32, 17)
	need := 0
	for i := 0; i < 8; i++ {
		dt := types[r.IntN(len(types))]
		if r.IntN(2) == 0 {
			dt = uint32(r.IntN(4)) // floats most often
		}
		plain := i == 0 && r.IntN(4) != 0
		if plain {
			dt = uint32(1 + r.IntN(3))
		}
		skip := uint32(r.IntN(3))
		if plain || r.IntN(2) == 0 {
			skip = 0
		}
		nd := dwordsOf(dt)
		if i > 0 && need+nd > total && r.IntN(10) != 0 {
			break
		}
		el := dt | skip<<4 | uint32(r.IntN(3))<<8 | uint32(r.IntN(4))<<14
		if plain {
			el &^= 31 << 8 // DST_VEC_LOC 0
		}
		var ext uint32
		for c := 0; c < 4; c++ {
			sel := uint32(c)
			if !plain && r.IntN(3) == 0 {
				sel = uint32(r.IntN(6))
			}
			ext |= sel << (3 * uint(c))
		}
		ext |= 15 << 12
		if !plain && r.IntN(3) == 0 {
			ext = ext&^(15<<12) | uint32(r.IntN(16))<<12
		}
		out[2*(i/2)] |= el << (16 * uint(i%2))
		out[2*(i/2)+1] |= ext << (16 * uint(i%2))
		need += nd + int(skip)
		if need >= total || r.IntN(3) == 0 {
			break
		}
	}
	// LAST_VEC on the last element written.
	for i := 7; i >= 0; i-- {
		if w := out[2*(i/2)] >> (16 * uint(i%2)) & 0xFFFF; w != 0 || i == 0 {
			out[2*(i/2)] |= 1 << 13 << (16 * uint(i%2))
			break
		}
	}
	out[16] = r.Uint32()
	return aos, out, need
}
