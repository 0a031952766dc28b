// Package scenes holds the example programs' drawing code as values, so
// that each example command, the gallery, the tests and the benchmarks run
// the very same GL calls.
//
// A scene draws through trace.GL, the entry points of *gles.Context, so it
// runs on a context directly or through a trace.Recorder. Scenes never ask
// the backend what it can do: they make the same calls everywhere (a
// backend that lacks a feature records a GL error and draws what it can),
// so one trace of a scene stands for every backend.
package scenes

import (
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// Scene is one example image: a surface configuration and the GL calls that
// draw it.
type Scene struct {
	// Name is the image's name ("triangle", "gears-1").
	Name string
	// Example is the example command that draws it ("gears"); empty means
	// Name.
	Example string
	// Config is the surface the scene asks for.
	Config gles.Config
	// Draw issues the GL calls of one frame.
	Draw func(ctx trace.GL) error
	// Needs lists the features the scene uses; a backend that lacks one
	// renders what it can and the gallery marks the image.
	Needs []driver.Feature
}

// Command returns the name of the example command that draws s.
func (s Scene) Command() string {
	if s.Example != "" {
		return s.Example
	}
	return s.Name
}

// Missing returns the features s needs that caps lacks, in Needs order.
func (s Scene) Missing(caps *driver.Caps) []driver.Feature {
	var out []driver.Feature
	for _, f := range s.Needs {
		if !caps.Has(f) {
			out = append(out, f)
		}
	}
	return out
}

// All returns every scene in gallery order.
func All() []Scene {
	out := []Scene{Triangle(), Cube()}
	out = append(out, Gears()...)
	return append(out, Fog(), Stencil(), Multitexture(), Sprites(), Paletted())
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

// ForCommand returns the scenes an example command draws.
func ForCommand(cmd string) []Scene {
	var out []Scene
	for _, s := range All() {
		if s.Command() == cmd {
			out = append(out, s)
		}
	}
	return out
}

// size is the surface every example draws on.
const width, height = 320, 240
