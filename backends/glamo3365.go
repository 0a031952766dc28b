package backends

import (
	"github.com/retrogl/retrogl/driver"
	glamodrv "github.com/retrogl/retrogl/driver/glamo"
	"github.com/retrogl/retrogl/hal"
	glamosim "github.com/retrogl/retrogl/sim/glamo"
)

func init() {
	driver.Register(driver.Backend{
		Name:      "glamo3365",
		NewDevice: func() (hal.Device, error) { return glamosim.New(), nil },
		NewDriver: glamodrv.New,
	})
}
