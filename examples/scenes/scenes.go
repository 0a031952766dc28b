// Package scenes holds the example programs' drawing code as values, so
// that each example command, the gallery, the tests and the benchmarks run
// the very same GL calls.
package scenes

import (
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
)

// Scene is one example: a surface configuration and the GL calls that draw
// one frame.
type Scene struct {
	// Name is the example's name ("triangle").
	Name string
	// Config is the surface the scene asks for.
	Config gles.Config
	// Draw issues the GL calls of one frame.
	Draw func(ctx *gles.Context) error
	// Needs lists the features the scene uses; a backend that lacks one
	// renders what it can and the gallery marks the image.
	Needs []driver.Feature
}

// All returns every scene in gallery order.
func All() []Scene {
	return []Scene{Triangle()}
}

// Lookup returns the scene with the given name.
func Lookup(name string) (Scene, bool) {
	for _, s := range All() {
		if s.Name == name {
			return s, true
		}
	}
	return Scene{}, false
}
