package r300

import (
	"encoding/binary"
	"math"
	"testing"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// FuzzPVSProgram runs arbitrary vertex programs: the bytes give up to 16
// instructions, the code controls, the constant controls, four
// flow-control slots, constants and two input vectors, and the program
// runs for three vertices. Faults are fine; panics and hangs are not (the
// per-vertex budget bounds every loop and jump).
func FuzzPVSProgram(f *testing.F) {
	var seed []byte
	put := func(w uint32) { seed = binary.LittleEndian.AppendUint32(seed, w) }
	// A DP4 then a loop of two ADDs reading c[aL+0].
	put(2<<20 | 0<<10) // CODE_CNTL_0: 0-2
	put(2)             // CODE_CNTL_1
	put(255 << 16)     // CONST_CNTL
	put(2)             // FLOW_CNTL_OPC: slot 0 loop
	put(r3.PVSFlow{Act: 0, TargetOrCnt: 4, Rtn: 1, Last: 2}.Addrs())
	put(0x0100)
	for _, in := range []r3.PVSInst{
		vec(r3.VEDot4, 0, inp(0), cst(0), cst(0)),
		vec(r3.VEAdd, 1, tmp(1), r3.PVSSrc{Type: r3.PVSSrcConst, AddrMode: r3.PVSAddrLoop, Swz: xyzw}, tmp(1)),
		mth(r3.MERsqDX, 2, tmp(1), tmp(1), tmp(1)),
	} {
		for _, w := range in.Encode() {
			put(w)
		}
	}
	f.Add(seed)
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, b []byte) {
		words := make([]uint32, (len(b)+3)/4)
		for i := range b {
			words[i/4] |= uint32(b[i]) << (8 * uint(i%4))
		}
		next := func() uint32 {
			if len(words) == 0 {
				return 0
			}
			w := words[0]
			words = words[1:]
			return w
		}
		e := &Engine{} // no memory: PVS registers only
		set := func(a, v uint32) { _ = e.SetReg(a, v) }
		set(r3.VAP_PVS_CODE_CNTL_0, next())
		set(r3.VAP_PVS_CODE_CNTL_1, next())
		set(r3.VAP_PVS_CONST_CNTL, next())
		set(r3.VAP_PVS_FLOW_CNTL_OPC, next())
		for k := uint32(0); k < 4; k++ {
			set(r3.VAP_PVS_FLOW_CNTL_ADDRS_0+4*k, next())
			set(r3.VAP_PVS_FLOW_CNTL_LOOP_INDEX_0+4*k, next())
		}
		set(r3.VAP_PVS_VECTOR_INDX_REG, r3.PVSCodeStart)
		for i := 0; i < 64 && len(words) > 0; i++ {
			set(r3.VAP_PVS_VECTOR_DATA_REG, next())
		}
		set(r3.VAP_PVS_VECTOR_INDX_REG, r3.PVSConstStart)
		for len(words) > 8 {
			set(r3.VAP_PVS_VECTOR_DATA_REG, next())
		}
		st, err := e.preparePVS()
		if err != nil {
			return
		}
		for v := 0; v < 3; v++ {
			var r pvsRegs
			for c := 0; c < 4; c++ {
				r.in[0][c] = math.Float32frombits(next())
				r.in[1][c] = float32(v) - 1.5
			}
			if err := st.run(&r); err != nil {
				return
			}
		}
	})
}
