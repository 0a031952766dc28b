//go:build !amd64 || purego

package r300

// haveVec is false off amd64 (or with the purego tag): the margin loop
// runs its Go passes.
const haveVec = false

// marginBytesVec is never called where haveVec is false.
func marginBytesVec(cols *fusedCol, ma *float64, mi *uint32, words *uint32, n int, cd *[8]float64, lo, hm1, slope uint64, chk *[4]uint64, amask, aor uint32, fix *uint16, dst *byte, k *[4]uint64) int {
	panic("r300: marginBytesVec without AVX2")
}
