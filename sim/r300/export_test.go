package r300

// SetReference selects the per-quad reference path (on) or the span
// pipeline for the device, for tests outside the package.
func SetReference(d *Device, on bool) { d.Engine.reference = on }

// CountMargin counts the runs the fused path's margin loop shades and
// the pixels it hands to the reference's arithmetic until the returned
// function is called, which reports them.
func CountMargin() func() (runs, exact int) {
	var runs, exact int
	fusedMarginHook = func() { runs++ }
	fusedExactHook = func() { exact++ }
	return func() (int, int) {
		fusedMarginHook, fusedExactHook = nil, nil
		return runs, exact
	}
}
