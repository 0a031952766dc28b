//go:build amd64 && !purego

package r300

// The margin loop's bytes pass in AVX2 (margin_amd64.s): a pixel's four
// channels in the four float64 lanes of a register, one fusedCol being
// one 256-bit load. The Go passes (fusedBytesGo) stay the
// reference for it: TestMarginVecMatchesGo compares their words and
// TestBenchScenesMatchReference renders with and without it.

// cpuid returns the CPUID leaf op (sub-leaf op2).
func cpuid(op, op2 uint32) (eax, ebx, ecx, edx uint32)

// xgetbv0 returns XCR0, the register states the OS saves.
func xgetbv0() (eax, edx uint32)

// marginBytesVec is fusedBytesGo over n pixels in AVX2, with the over
// blend of fusedOverWords when dst is not nil (see fusedBytesVec for its
// arguments), returning the count of pixels it listed in fix (their
// words are to be replaced).
//
//go:noescape
func marginBytesVec(cols *fusedCol, ma *float64, mi *uint32, words *uint32, n int, cd *[8]float64, lo, hm1, slope uint64, chk *[4]uint64, amask, aor uint32, fix *uint16, dst *byte, k *[4]uint64) int

// haveVec reports whether the CPU and the OS run AVX2: CPUID's AVX,
// OSXSAVE and AVX2 bits, and XCR0's SSE and AVX states.
var haveVec = func() bool {
	max, _, _, _ := cpuid(0, 0)
	if max < 7 {
		return false
	}
	_, _, ecx, _ := cpuid(1, 0)
	if ecx&(1<<27) == 0 || ecx&(1<<28) == 0 {
		return false
	}
	if xcr0, _ := xgetbv0(); xcr0&6 != 6 {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&(1<<5) != 0
}()
