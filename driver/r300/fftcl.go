package r300

import rc "github.com/retrogl/retrogl/compiler/r300"

// ffKey is the fixed-function vertex state a generated PVS program
// depends on.
type ffKey struct{}

// vcompiled is a cached generated vertex program.
type vcompiled struct {
	vp  *rc.VertexProgram
	err error
}
