package r300

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMarginVecMatchesGo runs the margin loop's bytes pass through
// marginBytesVec and through the Go pass (fusedBytesGo, then
// fusedOverWords for half the runs) on random
// columns, s values (cached columns or not, out of range, NaN), colours
// and destination pixels,
// near-threshold values, NaNs and out-of-range colours among them: a
// pixel neither lists has the same word from both, and the two list the
// same pixels but for those whose fraction lies within 2^-32 of the
// window's edge (the kernel rounds where the Go passes truncate), none
// in practice.
func TestMarginVecMatchesGo(t *testing.T) {
	if !haveVec {
		t.Skip("no AVX2: the Go passes are the only ones")
	}
	r := rand.New(rand.NewPCG(5, 9))
	var goW, vecW [fusedChunk]uint32
	same, listed, differ := 0, 0, 0
	for it := 0; it < 3000; it++ {
		fw := new(fusedWork)
		fw.cols = make([]fusedCol, 1<<(1+r.IntN(8)))
		for j := range fw.cols {
			for c := range 4 {
				fw.cols[j][c] = float64(r.IntN(256)) + float64(r.IntN(2))*r.Float64()
			}
		}
		n := 1 + r.IntN(fusedChunk)
		// s values whose columns are mostly cached: all of them, or the
		// unwrapped range ja .. ja+cnt-1.
		w := float64(len(fw.cols))
		ja, cnt := math.MinInt32, math.MaxInt
		if r.IntN(2) == 0 {
			ja, cnt = r.IntN(3*len(fw.cols))-len(fw.cols), 1+r.IntN(len(fw.cols))
		}
		sv := make([]float32, n)
		for i := range sv {
			sv[i] = float32((r.Float64()*4 - 1) * 2)
			switch r.IntN(40) {
			case 0:
				sv[i] = float32(math.NaN())
			case 1:
				sv[i] = float32(r.NormFloat64() * 1e10)
			case 2:
				sv[i] = -64 / float32(w)
			}
		}
		var cl [4]fusedColour
		for c := range cl {
			cl[c] = fusedColour{c: r.Float64() * 0x1p32, d: (r.Float64() - 0.5) * 0x1p32 / float64(n)}
			switch r.IntN(6) {
			case 0:
				cl[c].c = float64(r.IntN(3)) * 0x1p32
			case 1:
				cl[c].c = (r.Float64()*4 - 2) * 0x1p32
			}
		}
		alpha := -1
		if r.IntN(2) == 0 {
			alpha = r.IntN(256)
		}
		// Half the runs blend over random pixels, with random K.
		var dst []byte
		var k [4]uint64
		if r.IntN(2) == 0 {
			dst = make([]byte, 4*n)
			for i := range dst {
				dst[i] = byte(r.Uint32())
			}
			for xi := range k {
				for c := range 4 {
					k[xi] |= uint64(r.IntN(248)) << (16 * c)
				}
			}
		}
		fusedColsOf(fw, fw.cols, sv, w*0x1p24, ja, cnt)
		nfGo := fusedBytesGo(fw, fw.cols, goW[:n], &cl, alpha)
		if dst != nil {
			fusedOverWords(goW[:n], dst, &k)
		}
		listGo := map[uint16]bool{}
		for _, i := range fw.fix[:nfGo] {
			listGo[i] = true
		}
		nfVec := fusedBytesVec(fw, fw.cols, vecW[:n], &cl, alpha, dst, &k)
		listVec := map[uint16]bool{}
		for _, i := range fw.fix[:nfVec] {
			listVec[i] = true
		}
		for i := 0; i < n; i++ {
			g, v := listGo[uint16(i)], listVec[uint16(i)]
			switch {
			case g != v:
				differ++
			case g:
				listed++
			default:
				same++
				require.Equal(t, goW[i], vecW[i], "iteration %d pixel %d", it, i)
			}
		}
	}
	require.Greater(t, same, 200000)
	require.Greater(t, listed, 10000)
	require.Less(t, differ, 10, "pixels one pass lists and the other not")
	t.Logf("%d pixels with the same word, %d listed by both, %d by one", same, listed, differ)
}
