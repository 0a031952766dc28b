package unichrome

// Drain implements device.Drainer: it shades the triangles set up but not
// yet shaded (the batch flush hands to sim/raster's Scheduler), so that a
// watch function (hal.Watcher) pausing between commands sees every pixel
// of the commands before it.
func (e *Engine) Drain() error {
	e.flush()
	return nil
}
