package backends

import (
	"github.com/retrogl/retrogl/driver"
	pspgedrv "github.com/retrogl/retrogl/driver/pspge"
	"github.com/retrogl/retrogl/hal"
	pspgesim "github.com/retrogl/retrogl/sim/pspge"
)

func init() {
	driver.Register(driver.Backend{
		Name:      "pspge",
		NewDevice: func() (hal.Device, error) { return pspgesim.New(), nil },
		NewDriver: pspgedrv.New,
	})
}
