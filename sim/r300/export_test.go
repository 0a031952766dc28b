package r300

// SetReference selects the per-quad reference path (on) or the span
// pipeline for the device, for tests outside the package.
func SetReference(d *Device, on bool) { d.Engine.reference = on }

// MarginCounts counts what the fused path's margin loop did.
type MarginCounts struct {
	// Runs it shaded, of them with a constant alpha byte, and pixels it
	// handed to the reference's arithmetic.
	Runs, Alpha, Exact int
}

// CountMargin counts the margin loop's work into the returned counts
// until stop is called.
func CountMargin() (c *MarginCounts, stop func()) {
	c = new(MarginCounts)
	fusedMarginHook = func() { c.Runs++ }
	fusedAlphaHook = func() { c.Alpha++ }
	fusedExactHook = func() { c.Exact++ }
	return c, func() { fusedMarginHook, fusedAlphaHook, fusedExactHook = nil, nil, nil }
}

// SetVec selects the margin loop's AVX2 bytes pass (where the CPU has
// it) or its Go passes until the returned function is called.
func SetVec(on bool) (restore func()) {
	old := fusedVec
	fusedVec = on
	return func() { fusedVec = old }
}
