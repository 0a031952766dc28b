package r300

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

var (
	xyzw  = [4]uint8{0, 1, 2, 3}
	zeros = [4]uint8{4, 4, 4, 4}
)

func op(x r3.PVSSrcType, k uint8) r3.PVSSrc { return r3.PVSSrc{Type: x, Offset: k, Swz: xyzw} }
func tmp(k uint8) r3.PVSSrc                 { return op(r3.PVSSrcTemp, k) }
func inp(k uint8) r3.PVSSrc                 { return op(r3.PVSSrcInput, k) }
func cst(k uint8) r3.PVSSrc                 { return op(r3.PVSSrcConst, k) }

func swz(s r3.PVSSrc, x ...uint8) r3.PVSSrc { copy(s.Swz[:], x); return s }

// vec is a vector-engine instruction writing temp dst (all components).
func vec(opc uint8, dst uint8, a, b, c r3.PVSSrc) r3.PVSInst {
	return r3.PVSInst{Dst: r3.PVSDst{Op: opc, Offset: dst, WE: 15}, Src: [3]r3.PVSSrc{a, b, c}}
}

// mth is a math-engine instruction writing temp dst.
func mth(opc uint8, dst uint8, a, b, c r3.PVSSrc) r3.PVSInst {
	return r3.PVSInst{Dst: r3.PVSDst{Op: opc, Math: true, Offset: dst, WE: 15}, Src: [3]r3.PVSSrc{a, b, c}}
}

// pvsSetup uploads a program and constants into an engine through its
// registers and sets the code controls to run all of it.
type pvsSetup struct {
	code   []r3.PVSInst
	consts [][4]float32
	flow   []r3.PVSFlow
	maxC   int
}

func (ps pvsSetup) engine(t *testing.T) *Engine {
	t.Helper()
	e := New().Engine
	w := func(a, v uint32) { require.NoError(t, e.SetReg(a, v)) }
	w(r3.VAP_PVS_VECTOR_INDX_REG, r3.PVSCodeStart)
	for _, in := range ps.code {
		for _, x := range in.Encode() {
			w(r3.VAP_PVS_VECTOR_DATA_REG, x)
		}
	}
	w(r3.VAP_PVS_VECTOR_INDX_REG, r3.PVSConstStart)
	for _, c := range ps.consts {
		for _, x := range c {
			w(r3.VAP_PVS_VECTOR_DATA_REG, math.Float32bits(x))
		}
	}
	last := uint32(len(ps.code) - 1)
	w(r3.VAP_PVS_CODE_CNTL_0, last<<20|last<<10)
	w(r3.VAP_PVS_CODE_CNTL_1, last)
	maxC := ps.maxC
	if maxC == 0 {
		maxC = 255
	}
	w(r3.VAP_PVS_CONST_CNTL, uint32(maxC)<<16)
	var opc uint32
	for k, f := range ps.flow {
		opc |= uint32(f.Op) << (2 * uint(k))
		w(r3.VAP_PVS_FLOW_CNTL_ADDRS_0+4*uint32(k), f.Addrs())
		w(r3.VAP_PVS_FLOW_CNTL_LOOP_INDEX_0+4*uint32(k), f.LoopIndex())
	}
	w(r3.VAP_PVS_FLOW_CNTL_OPC, opc)
	return e
}

// run executes the program once on inputs and returns the registers.
func (ps pvsSetup) run(t *testing.T, inputs ...[4]float32) (*pvsRegs, error) {
	t.Helper()
	st, err := ps.engine(t).preparePVS()
	if err != nil {
		return nil, err
	}
	r := &pvsRegs{}
	copy(r.in[:], inputs)
	return r, st.run(r)
}

func bits(x float32) uint32 { return math.Float32bits(x) }

// TestPVSOpcodes checks every simulated opcode's result bit for bit.
func TestPVSOpcodes(t *testing.T) {
	inf := float32(math.Inf(1))
	// 1 + 2^-12 squared minus one: fused, the 2^-24 term survives.
	e12 := math.Float32frombits(0x3F800800)
	tests := []struct {
		name   string
		code   []r3.PVSInst
		in     [4]float32
		consts [][4]float32
		want   [4]float32
	}{
		{"dp4", []r3.PVSInst{vec(r3.VEDot4, 0, inp(0), cst(0), cst(0))}, [4]float32{1, 2, 3, 4}, [][4]float32{{5, 6, 7, 8}}, [4]float32{70, 70, 70, 70}},
		{"dp3 as dp4 with a zero w select", []r3.PVSInst{vec(r3.VEDot4, 0, swz(inp(0), 0, 1, 2, 4), cst(0), cst(0))}, [4]float32{1, 2, 3, 4}, [][4]float32{{5, 6, 7, 8}}, [4]float32{38, 38, 38, 38}},
		{"mul with swizzle, abs and negation", []r3.PVSInst{vec(r3.VEMul, 0, swz(inp(0), 3, 2, 1, 0), r3.PVSSrc{Type: r3.PVSSrcConst, Swz: xyzw, Abs: true, Neg: 5}, cst(0))},
			[4]float32{1, 2, 3, 4}, [][4]float32{{-1.5, 2, -0.5, 4}}, [4]float32{-6, 6, -1, 4}},
		{"add; MOV is ADD with zero", []r3.PVSInst{vec(r3.VEAdd, 0, inp(0), swz(inp(0), 4, 5, 4, 5), inp(0))}, [4]float32{1, 2, 3, 4}, nil, [4]float32{1, 3, 3, 5}},
		{"mad rounds once", []r3.PVSInst{vec(r3.VEMad, 0, inp(0), inp(0), cst(0))}, [4]float32{e12, 2, 0.5, 3}, [][4]float32{{-1, 1, 0.25, -9}},
			[4]float32{math.Float32frombits(0x3A000400), 5, 0.5, 0}},
		{"m2xad", []r3.PVSInst{vec(r3.VEM2xAdd, 0, inp(0), cst(0), inp(0))}, [4]float32{1.5, 1, 0, -1}, [][4]float32{{2, 3, 4, 5}}, [4]float32{7.5, 7, 0, -11}},
		{"dst", []r3.PVSInst{vec(r3.VEDst, 0, inp(0), cst(0), cst(0))}, [4]float32{9, 2, 3, 9}, [][4]float32{{9, 5, 9, 7}}, [4]float32{1, 10, 3, 7}},
		{"frc", []r3.PVSInst{vec(r3.VEFrc, 0, inp(0), inp(0), inp(0))}, [4]float32{2.75, -0.25, -3, 0}, nil, [4]float32{0.75, 0.75, 0, 0}},
		{"max", []r3.PVSInst{vec(r3.VEMax, 0, inp(0), cst(0), cst(0))}, [4]float32{1, -2, 3, -4}, [][4]float32{{0, 0, 5, -5}}, [4]float32{1, 0, 5, -4}},
		{"min", []r3.PVSInst{vec(r3.VEMin, 0, inp(0), cst(0), cst(0))}, [4]float32{1, -2, 3, -4}, [][4]float32{{0, 0, 5, -5}}, [4]float32{0, -2, 3, -5}},
		{"sge", []r3.PVSInst{vec(r3.VESge, 0, inp(0), cst(0), cst(0))}, [4]float32{1, 2, 3, 4}, [][4]float32{{1, 3, 2, 4}}, [4]float32{1, 0, 1, 1}},
		{"slt", []r3.PVSInst{vec(r3.VESlt, 0, inp(0), cst(0), cst(0))}, [4]float32{1, 2, 3, 4}, [][4]float32{{1, 3, 2, 4}}, [4]float32{0, 1, 0, 0}},
		{"ex2 reads w", []r3.PVSInst{mth(r3.MEEx2, 0, inp(0), inp(0), inp(0))}, [4]float32{99, 99, 99, 0.5}, nil, splat(float32(math.Sqrt2))},
		{"lg2 of |a|", []r3.PVSInst{mth(r3.MELg2, 0, swz(inp(0), 0, 0, 0, 0), inp(0), inp(0))}, [4]float32{-8, 0, 0, 0}, nil, splat(3)},
		{"lg2(0)", []r3.PVSInst{mth(r3.MELg2, 0, inp(0), inp(0), inp(0))}, [4]float32{}, nil, splat(float32(math.Inf(-1)))},
		{"rcp", []r3.PVSInst{mth(r3.MERcpDX, 0, inp(0), inp(0), inp(0))}, [4]float32{0, 0, 0, 4}, nil, splat(0.25)},
		{"rcp(0) DX", []r3.PVSInst{mth(r3.MERcpDX, 0, inp(0), inp(0), inp(0))}, [4]float32{}, nil, splat(inf)},
		{"rcp(-0) FF", []r3.PVSInst{mth(r3.MERcpFF, 0, r3.PVSSrc{Type: r3.PVSSrcInput, Swz: xyzw, Neg: 15}, inp(0), inp(0))}, [4]float32{}, nil, splat(-math.MaxFloat32)},
		{"rsq", []r3.PVSInst{mth(r3.MERsqDX, 0, inp(0), inp(0), inp(0))}, [4]float32{0, 0, 0, -16}, nil, splat(0.25)},
		{"rsq(0) DX", []r3.PVSInst{mth(r3.MERsqDX, 0, inp(0), inp(0), inp(0))}, [4]float32{}, nil, splat(inf)},
		{"rsq(0) FF", []r3.PVSInst{mth(r3.MERsqFF, 0, inp(0), inp(0), inp(0))}, [4]float32{}, nil, splat(math.MaxFloat32)},
		{"pow: base in A, exponent in C", []r3.PVSInst{mth(r3.MEPow, 0, swz(inp(0), 0, 0, 0, 0), swz(inp(0), 4, 4, 4, 4), swz(inp(0), 1, 1, 1, 1))}, [4]float32{2, 10}, nil, splat(1024)},
		{"pow 0^0 = 1", []r3.PVSInst{mth(r3.MEPow, 0, inp(0), inp(0), inp(0))}, [4]float32{}, nil, splat(1)},
		{"pow 0^2 = 0", []r3.PVSInst{mth(r3.MEPow, 0, swz(inp(0), 0, 0, 0, 0), inp(0), swz(inp(0), 1, 1, 1, 1))}, [4]float32{0, 2}, nil, splat(0)},
		{"lit in Mesa's operand layout", []r3.PVSInst{mth(r3.MELit, 0, swz(inp(0), 0, 3, 4, 1), swz(inp(0), 1, 3, 4, 0), swz(inp(0), 1, 0, 4, 3))},
			[4]float32{0.5, 0.5, 9, 2}, nil, [4]float32{1, 0.5, 0.25, 1}},
		{"lit facing away", []r3.PVSInst{mth(r3.MELit, 0, swz(inp(0), 0, 3, 4, 1), swz(inp(0), 1, 3, 4, 0), swz(inp(0), 1, 0, 4, 3))},
			[4]float32{-1, 0.5, 9, 2}, nil, [4]float32{1, 0, 0, 1}},
		{"expp", []r3.PVSInst{mth(r3.MEExpDX, 0, inp(0), inp(0), inp(0))}, [4]float32{0, 0, 0, 2.5}, nil, [4]float32{4, 0.5, float32(math.Exp2(2.5)), 1}},
		{"logp", []r3.PVSInst{mth(r3.MELogDX, 0, inp(0), inp(0), inp(0))}, [4]float32{0, 0, 0, 10}, nil, [4]float32{3, 1.25, float32(math.Log2(10)), 1}},
		{"exe", []r3.PVSInst{mth(r3.MEExpE, 0, inp(0), inp(0), inp(0))}, [4]float32{0, 0, 0, 1}, nil, splat(float32(math.E))},
		{"mmul of w lanes", []r3.PVSInst{mth(r3.MEMul, 0, inp(0), cst(0), inp(0))}, [4]float32{0, 0, 0, 3}, [][4]float32{{9, 9, 9, 4}}, splat(12)},
		{"sin", []r3.PVSInst{mth(r3.MESin, 0, inp(0), inp(0), inp(0))}, [4]float32{0, 0, 0, 1}, nil, splat(float32(math.Sin(1)))},
		{"cos", []r3.PVSInst{mth(r3.MECos, 0, inp(0), inp(0), inp(0))}, [4]float32{0, 0, 0, 1}, nil, splat(float32(math.Cos(1)))},
		{"macro mad with three temporaries", []r3.PVSInst{
			vec(r3.VEAdd, 1, inp(0), swz(inp(0), zeros[:]...), inp(0)),
			vec(r3.VEMul, 2, inp(0), inp(0), inp(0)),
			vec(r3.VEAdd, 3, cst(0), swz(cst(0), zeros[:]...), cst(0)),
			{Dst: r3.PVSDst{Op: r3.MacroMad, Macro: true, WE: 15}, Src: [3]r3.PVSSrc{tmp(1), tmp(2), tmp(3)}},
		}, [4]float32{1, 2, 3, 4}, [][4]float32{{1, 1, 1, 1}}, [4]float32{2, 9, 28, 65}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := pvsSetup{code: tc.code, consts: tc.consts}.run(t, tc.in)
			require.NoError(t, err)
			got := r.temp[0]
			for c := range got {
				assert.Equal(t, bits(tc.want[c]), bits(got[c]), "component %c: %v, want %v", "xyzw"[c], got[c], tc.want[c])
			}
		})
	}
}

func splat(x float32) [4]float32 { return [4]float32{x, x, x, x} }

// TestPVSAddressing checks ARL/ARR, relative constants with the
// out-of-range rule, the constant base offset and relative temporaries.
func TestPVSAddressing(t *testing.T) {
	arl := func(opc uint8, c uint8) r3.PVSInst {
		return r3.PVSInst{Dst: r3.PVSDst{Op: opc, Type: r3.PVSDstA0, WE: 15}, Src: [3]r3.PVSSrc{inp(0), inp(0), inp(0)}}
	}
	rel := func(off uint8, sel uint8) r3.PVSSrc {
		return r3.PVSSrc{Type: r3.PVSSrcConst, AddrMode: r3.PVSAddrA0, AddrSel: sel, Offset: off, Swz: xyzw}
	}
	consts := [][4]float32{{0, 0, 0, 1}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}, {4, 4, 4, 4}}
	code := []r3.PVSInst{
		arl(r3.VEFlt2Fix, 0),
		vec(r3.VEAdd, 0, rel(1, 0), swz(rel(1, 0), zeros[:]...), rel(1, 0)), // c[a0.x+1]
		vec(r3.VEAdd, 1, rel(1, 1), swz(rel(1, 1), zeros[:]...), rel(1, 1)), // c[a0.y+1]
		vec(r3.VEAdd, 2, rel(0, 2), swz(rel(0, 2), zeros[:]...), rel(0, 2)), // c[a0.z]
		vec(r3.VEAdd, 3, rel(9, 3), swz(rel(9, 3), zeros[:]...), rel(9, 3)), // c[a0.w+9]
	}
	r, err := pvsSetup{code: code, consts: consts, maxC: 4}.run(t, [4]float32{2.7, -0.5, -1, 1e9})
	require.NoError(t, err)
	assert.Equal(t, [4]int32{2, -1, -1, 32767}, r.a0)
	assert.Equal(t, splat(3), r.temp[0], "c[2+1]")
	assert.Equal(t, [4]float32{0, 0, 0, 1}, r.temp[1], "c[-1+1]")
	assert.Equal(t, [4]float32{}, r.temp[2], "c[-1] is out of range: (0, 0, 0, 0)")
	assert.Equal(t, [4]float32{}, r.temp[3], "beyond PVS_MAX_CONST_ADDR")

	code[0] = arl(r3.VEFlt2FixR, 0)
	r, err = pvsSetup{code: code, consts: consts, maxC: 4}.run(t, [4]float32{2.5, -0.5, -1.5, float32(math.NaN())})
	require.NoError(t, err)
	assert.Equal(t, [4]int32{3, -1, -2, 0}, r.a0, "ARR rounds half away from zero")

	// An absolute constant beyond PVS_MAX_CONST_ADDR reads zero too.
	r, err = pvsSetup{code: []r3.PVSInst{vec(r3.VEAdd, 0, cst(4), swz(cst(4), zeros[:]...), cst(4))}, consts: consts, maxC: 3}.run(t)
	require.NoError(t, err)
	assert.Equal(t, [4]float32{}, r.temp[0])

	// PVS_CONST_BASE_OFFSET moves constant 0.
	ps := pvsSetup{code: []r3.PVSInst{vec(r3.VEAdd, 0, cst(0), swz(cst(0), zeros[:]...), cst(0))}, consts: consts}
	e := ps.engine(t)
	require.NoError(t, e.SetReg(r3.VAP_PVS_CONST_CNTL, 3|255<<16))
	st, err := e.preparePVS()
	require.NoError(t, err)
	var regs pvsRegs
	require.NoError(t, st.run(&regs))
	assert.Equal(t, splat(3), regs.temp[0])
}

// TestPVSFlowControl runs a LOOP with the loop index addressing
// constants, a JUMP over an instruction and a JSR called from the loop.
func TestPVSFlowControl(t *testing.T) {
	consts := [][4]float32{{0, 0, 0, 0}, {1, 1, 1, 1}, {10, 10, 10, 10}, {100, 100, 100, 100}, {1000, 1000, 1000, 1000}}
	loopRel := r3.PVSSrc{Type: r3.PVSSrcConst, AddrMode: r3.PVSAddrLoop, Offset: 1, Swz: xyzw}
	code := []r3.PVSInst{
		/* 0 */ vec(r3.VEAdd, 0, cst(0), swz(cst(0), zeros[:]...), cst(0)), // r0 = 0
		/* 1 */ vec(r3.VEAdd, 0, tmp(0), loopRel, tmp(0)), // r0 += c[aL+1]   (loop body 1-2)
		/* 2 */ vec(r3.VEAdd, 1, tmp(1), cst(1), tmp(1)), // r1 += 1
		/* 3 */ vec(r3.VEAdd, 2, cst(4), swz(cst(4), zeros[:]...), cst(4)), // skipped by the jump
		/* 4 */ vec(r3.VEAdd, 3, tmp(3), cst(2), tmp(3)), // r3 += 10 (subroutine 4-4)
	}
	flow := []r3.PVSFlow{
		{Op: r3.PVSFlowLoop, Act: 0, TargetOrCnt: 3, Rtn: 1, Last: 2, Init: 0, Step: 1},
		{Op: r3.PVSFlowJSR, Act: 1, TargetOrCnt: 4, Last: 4, Rtn: 2},
		{Op: r3.PVSFlowJump, Act: 2, TargetOrCnt: 5},
	}
	r, err := pvsSetup{code: code, consts: consts, flow: flow}.run(t)
	require.NoError(t, err)
	assert.Equal(t, splat(111), r.temp[0], "c[1] + c[2] + c[3]")
	assert.Equal(t, splat(3), r.temp[1], "three iterations")
	assert.Equal(t, [4]float32{}, r.temp[2], "the last iteration jumps over instruction 3")
	assert.Equal(t, splat(30), r.temp[3], "the subroutine runs once per iteration")
	assert.Equal(t, int32(2), r.aL)

	// The JUMP only acts once the loop is done: instruction 2 ends the
	// loop body first, so it is the last iteration that jumps.
	flow[0].TargetOrCnt, flow[0].Init, flow[0].Step = 2, 2, -1
	r, err = pvsSetup{code: code, consts: consts, flow: flow}.run(t)
	require.NoError(t, err)
	assert.Equal(t, splat(110), r.temp[0], "c[3] + c[2]: aL counts down")
}

// TestPVSFaults checks the programs the PVS cannot run.
func TestPVSFaults(t *testing.T) {
	nop := vec(0, 0, tmp(0), tmp(0), tmp(0))
	add := vec(r3.VEAdd, 0, tmp(0), tmp(0), tmp(0))
	tests := []struct {
		name   string
		ps     pvsSetup
		reason string
	}{
		{"loop count 0", pvsSetup{code: []r3.PVSInst{nop, nop}, flow: []r3.PVSFlow{{Op: r3.PVSFlowLoop, Act: 0, Rtn: 1, Last: 1}}}, "a loop count of 0 must be replaced by a jump"},
		{"nested loop", pvsSetup{code: []r3.PVSInst{nop, nop, nop}, flow: []r3.PVSFlow{
			{Op: r3.PVSFlowLoop, Act: 0, TargetOrCnt: 2, Rtn: 1, Last: 2},
			{Op: r3.PVSFlowLoop, Act: 1, TargetOrCnt: 2, Rtn: 2, Last: 2}}}, "starts inside another loop"},
		{"subroutine from a subroutine", pvsSetup{code: []r3.PVSInst{nop, nop, nop, nop}, flow: []r3.PVSFlow{
			{Op: r3.PVSFlowJSR, Act: 0, TargetOrCnt: 2, Last: 3, Rtn: 1},
			{Op: r3.PVSFlowJSR, Act: 2, TargetOrCnt: 3, Last: 3, Rtn: 3}}}, "calls a subroutine from a subroutine"},
		{"two slots after one instruction", pvsSetup{code: []r3.PVSInst{nop, nop}, flow: []r3.PVSFlow{
			{Op: r3.PVSFlowJump, Act: 0, TargetOrCnt: 1}, {Op: r3.PVSFlowJump, Act: 0, TargetOrCnt: 1}}}, "both act after instruction 0"},
		{"jump outside the program", pvsSetup{code: []r3.PVSInst{nop, nop}, flow: []r3.PVSFlow{{Op: r3.PVSFlowJump, Act: 0, TargetOrCnt: 9}}}, "jumps to 9"},
		{"runaway jump", pvsSetup{code: []r3.PVSInst{nop, nop}, flow: []r3.PVSFlow{{Op: r3.PVSFlowJump, Act: 1, TargetOrCnt: 0}}}, "more than 131072 instructions"},
		{"R500 opcode", pvsSetup{code: []r3.PVSInst{vec(27, 0, tmp(0), tmp(0), tmp(0))}}, "VE_SET_EQUAL is an R500 opcode"},
		{"no public description", pvsSetup{code: []r3.PVSInst{vec(12, 0, tmp(0), tmp(0), tmp(0))}}, "VE_MULTIPLY_CLAMP has no public description"},
		{"saturate", pvsSetup{code: []r3.PVSInst{{Dst: r3.PVSDst{Op: r3.VEAdd, WE: 15, VESat: true}}}}, "saturate bits"},
		{"predication", pvsSetup{code: []r3.PVSInst{{Dst: r3.PVSDst{Op: r3.VEAdd, WE: 15, PredEnable: true}}}}, "predication is an R500 feature"},
		{"two inputs", pvsSetup{code: []r3.PVSInst{vec(r3.VEAdd, 0, inp(0), inp(1), inp(0))}}, "two different input registers"},
		{"two constants", pvsSetup{code: []r3.PVSInst{vec(r3.VEMul, 0, cst(0), cst(1), cst(0))}}, "two different constant registers"},
		{"relative and absolute constant", pvsSetup{code: []r3.PVSInst{vec(r3.VEMul, 0, cst(0), r3.PVSSrc{Type: r3.PVSSrcConst, AddrMode: r3.PVSAddrA0, Swz: xyzw}, cst(0))}}, "two different constant registers"},
		{"MAD with three temporaries", pvsSetup{code: []r3.PVSInst{vec(r3.VEMad, 0, tmp(1), tmp(2), tmp(3))}}, "needs the macro form"},
		{"spare bit", pvsSetup{code: []r3.PVSInst{vec(r3.VEAdd, 0, r3.PVSSrc{Spare: true}, tmp(0), tmp(0))}}, "spare bit"},
		{"address mode 3", pvsSetup{code: []r3.PVSInst{vec(r3.VEAdd, 0, r3.PVSSrc{AddrMode: 3}, tmp(0), tmp(0))}}, "address mode 3 is reserved"},
		{"reserved swizzle", pvsSetup{code: []r3.PVSInst{vec(r3.VEAdd, 0, r3.PVSSrc{Swz: [4]uint8{0, 6, 0, 0}}, tmp(0), tmp(0))}}, "swizzle 6 of component y is reserved"},
		{"ARL into a temporary", pvsSetup{code: []r3.PVSInst{vec(r3.VEFlt2Fix, 0, tmp(0), tmp(0), tmp(0))}}, "writes A0 only"},
		{"ADD into A0", pvsSetup{code: []r3.PVSInst{{Dst: r3.PVSDst{Op: r3.VEAdd, Type: r3.PVSDstA0, WE: 1}}}}, "only ARL/ARR"},
		{"alternate temporary", pvsSetup{code: []r3.PVSInst{{Dst: r3.PVSDst{Op: r3.VEAdd, Type: r3.PVSDstAltTemp, WE: 1}}}}, "destination type 4 is not simulated"},
		{"program beyond the code store", pvsSetup{code: []r3.PVSInst{add}}, ""},
	}
	for _, tc := range tests[:len(tests)-1] {
		_, err := tc.ps.run(t)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.reason, tc.name)
	}
	e := tests[len(tests)-1].ps.engine(t)
	require.NoError(t, e.SetReg(r3.VAP_PVS_CODE_CNTL_0, 300<<20|3<<10))
	_, err := e.preparePVS()
	assert.ErrorContains(t, err, "instructions 0-300 do not lie in the 256-instruction code store")
}

// pvsStream programs a device draw whose positions and colours come from a
// vertex program: o0 = c0..c3 · v0 (one DP4 per row), o1 = v1, with
// clipping and the viewport on the chip (VTE_CNTL 0x43F) for a w x h
// target.
func pvsStream(s *r3.Stream, w, h int, mvp [4][4]float32, clip uint32) {
	baseline(s, w, h)
	s.Reg(r3.VAP_CNTL_STATUS, 0)
	s.Reg(r3.VAP_CLIP_CNTL, clip)
	s.Reg(r3.VAP_VTE_CNTL, 0x43F)
	s.Reg(r3.VAP_VPORT_XSCALE, f(float32(w)/2), f(float32(w)/2), f(-float32(h)/2), f(float32(h)/2), f(0.5), f(0.5))
	s.Reg(r3.VAP_GB_VERT_CLIP_ADJ, f(1), f(1), f(1), f(1))
	var code []uint32
	for row := uint8(0); row < 4; row++ {
		in := r3.PVSInst{Dst: r3.PVSDst{Op: r3.VEDot4, Type: r3.PVSDstOut, WE: 1 << row}, Src: [3]r3.PVSSrc{cst(row), inp(0), inp(0)}}.Encode()
		code = append(code, in[:]...)
	}
	mov := r3.PVSInst{Dst: r3.PVSDst{Op: r3.VEAdd, Type: r3.PVSDstOut, Offset: 1, WE: 15}, Src: [3]r3.PVSSrc{inp(1), swz(inp(1), zeros[:]...), inp(1)}}.Encode()
	code = append(code, mov[:]...)
	s.Reg(r3.VAP_PVS_STATE_FLUSH_REG, 0)
	s.PVSUpload(r3.PVSCodeStart, code)
	s.Reg(r3.VAP_PVS_CODE_CNTL_0, 4<<20|3<<10, 3<<16, 4)
	var cw []uint32
	for _, r := range mvp {
		for _, x := range r {
			cw = append(cw, f(x))
		}
	}
	s.PVSUpload(r3.PVSConstStart, cw)
}

// TestPVSDraw draws a triangle whose vertices the PVS transforms (a scale
// by 0.5 in x and y), clipped against w on the chip: the pixels are those
// of the same triangle drawn pre-transformed through the bypass.
func TestPVSDraw(t *testing.T) {
	const w, h = 16, 16
	mvp := [4][4]float32{{0.5, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	d := newDev(t)
	var s r3.Stream
	pvsStream(&s, w, h, mvp, 0)
	// Clip-space vertices; the third lies outside x = w.
	immd(&s, r3.PrimTriangles, vtx{-1, -1, 0, 1, 0, 0, 1}, vtx{3, -1, 0, 0, 1, 0, 1}, vtx{-1, 1, 0, 0, 0, 1, 1})
	require.NoError(t, run(t, d, &s))

	ref := newDev(t)
	s.Reset()
	baseline(&s, w, h)
	// The same triangle after the transform and the viewport: clip x*0.5,
	// window x = (x+1)*8, y = (1-y)*8, clipped at x = 16 by the scissor.
	immd(&s, r3.PrimTriangles, vtx{4, 12, 0.5, 1, 0, 0, 1}, vtx{20, 12, 0.5, 0, 1, 0, 1}, vtx{4, 4, 0.5, 0, 0, 1, 1})
	require.NoError(t, run(t, ref, &s))
	covered := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p, q := pixel(t, d, w, x, y), pixel(t, ref, w, x, y)
			assert.Equal(t, q[3], p[3], "coverage at %d,%d", x, y)
			for c := 0; c < 3; c++ {
				assert.InDelta(t, int(q[c]), int(p[c]), 1, "colour at %d,%d", x, y)
			}
			if p[3] != 0 {
				covered++
			}
		}
	}
	assert.Greater(t, covered, 20)
}

// TestUserClipPlanes clips a full-screen quad with user plane x >= 0 from
// PVS memory (R300_PVS_UCP_START): only the right half is drawn; with
// UCP_CULL_ONLY_ENA the quad straddles the plane and is drawn whole.
func TestUserClipPlanes(t *testing.T) {
	const w, h = 8, 8
	ident := [4][4]float32{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	for _, cullOnly := range []bool{false, true} {
		d := newDev(t)
		var s r3.Stream
		clip := uint32(1 << 2) // UCP_ENA_2
		if cullOnly {
			clip |= 1 << 17
		}
		pvsStream(&s, w, h, ident, clip)
		s.PVSUpload(r3.PVSUCPStart+2, []uint32{f(1), 0, 0, 0})
		c := func(x, y float32) vtx { return vtx{x, y, 0, 1, 1, 1, 1} }
		immd(&s, r3.PrimTriangles, c(-1, -1), c(1, -1), c(1, 1), c(-1, -1), c(1, 1), c(-1, 1))
		require.NoError(t, run(t, d, &s))
		for x := 0; x < w; x++ {
			want := uint8(255)
			if x < w/2 && !cullOnly {
				want = 0
			}
			assert.Equal(t, want, pixel(t, d, w, x, 4)[3], "x=%d cull only %v", x, cullOnly)
		}
	}
}

// TestNoTCLBoard checks the RS400-class board: its revision, and a fault
// when a draw asks for the PVS.
func TestNoTCLBoard(t *testing.T) {
	d := NewWith(Config{NoTCL: true})
	defer d.Close()
	assert.Equal(t, r3.RevisionNoTCL, d.Info().Revision)
	assert.False(t, r3.HasTCL(d.Info()))
	assert.True(t, r3.HasTCL(New().Info()))
	var s r3.Stream
	pvsStream(&s, 4, 4, [4][4]float32{}, 0)
	immd(&s, r3.PrimTriangles, vtx{}, vtx{}, vtx{})
	err := run(t, d, &s)
	f, ok := hal.AsFault(err)
	require.True(t, ok, "%v", err)
	assert.Contains(t, f.Reason, "has no TCL engine")
}
