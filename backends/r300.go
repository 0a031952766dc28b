package backends

import (
	"github.com/retrogl/retrogl/driver"
	r300drv "github.com/retrogl/retrogl/driver/r300"
	"github.com/retrogl/retrogl/hal"
	r300sim "github.com/retrogl/retrogl/sim/r300"
)

func init() {
	driver.Register(driver.Backend{
		Name:      "r300",
		NewDevice: func() (hal.Device, error) { return r300sim.New(), nil },
		NewDriver: r300drv.New,
	})
	// The same chip family without the TCL engine (an RS400-class IGP):
	// vertices are transformed on the CPU and sent through PVS_BYPASS.
	driver.Register(driver.Backend{
		Name:      "r300-notcl",
		NewDevice: func() (hal.Device, error) { return r300sim.NewWith(r300sim.Config{NoTCL: true}), nil },
		NewDriver: r300drv.New,
	})
}
