// Package backends registers every retrogl backend: each chip's driver
// paired with its simulated device, one file per backend. Import it for its
// side effect:
//
//	import _ "github.com/retrogl/retrogl/backends"
//
// A driver for real hardware would be registered the same way, paired with
// a device that talks to the chip.
package backends

import "github.com/retrogl/retrogl/driver"

// Names returns the registered backend names in their standard order.
func Names() []string { return driver.Names() }
