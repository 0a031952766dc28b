package backends

import (
	"github.com/retrogl/retrogl/driver"
	picadrv "github.com/retrogl/retrogl/driver/pica"
	"github.com/retrogl/retrogl/hal"
	picasim "github.com/retrogl/retrogl/sim/pica"
)

func init() {
	driver.Register(driver.Backend{
		Name:      "pica200",
		NewDevice: func() (hal.Device, error) { return picasim.New(), nil },
		NewDriver: picadrv.New,
	})
}
