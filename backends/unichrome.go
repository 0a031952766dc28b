package backends

import (
	"github.com/retrogl/retrogl/driver"
	unichromedrv "github.com/retrogl/retrogl/driver/unichrome"
	"github.com/retrogl/retrogl/hal"
	unichromesim "github.com/retrogl/retrogl/sim/unichrome"
)

func init() {
	driver.Register(driver.Backend{
		Name:      "unichrome",
		NewDevice: func() (hal.Device, error) { return unichromesim.New(), nil },
		NewDriver: unichromedrv.New,
	})
}
