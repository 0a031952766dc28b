package r300

import (
	"github.com/retrogl/retrogl/compiler/glsl"
	rc "github.com/retrogl/retrogl/compiler/r300"
)

// Programs compiles a linked GLSL program as Link does on a board with
// TCL (tcl true) or without one, and returns its fragment program, its
// vertex program for the PVS (nil without TCL, or when the vertex shader
// runs on the CPU) and the link's info log. cmd/r300fp reports their
// statistics.
func Programs(prog *glsl.Program, tcl bool) (*rc.Program, *rc.VertexProgram, string, error) {
	lp, err := buildProgram(prog, tcl)
	if err != nil {
		return nil, nil, "", err
	}
	return lp.fp, lp.vp, lp.log, nil
}
