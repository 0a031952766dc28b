package pica

// Drain implements device.Drainer: it shades the triangles set up but not
// yet shaded (the batch flush hands to sim/raster's Scheduler), so that a
// watch function (hal.Watcher) pausing between commands sees every pixel
// of the commands before it.
func (g *GPU) Drain() error {
	g.flush()
	return nil
}
