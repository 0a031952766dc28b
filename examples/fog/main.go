// Command fog draws the fog example (see scenes.Fog) on every backend, or the one
// -backend names, and prints the PNG files it wrote; -trace FILE records
// its GL calls.
package main

import (
	"github.com/retrogl/retrogl/examples/internal/app"
	"github.com/retrogl/retrogl/examples/scenes"
)

func main() { app.Main(scenes.ForCommand("fog")...) }
