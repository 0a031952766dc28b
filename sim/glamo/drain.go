package glamo

// Drain implements device.Drainer: it shades the triangles set up but not
// yet walked (flushJobs), so that a watch function (hal.Watcher) pausing
// between commands sees every pixel of the commands before it.
func (e *Engine) Drain() error {
	e.flushJobs()
	return nil
}
