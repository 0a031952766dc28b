package r300

import (
	"testing"

	"github.com/retrogl/retrogl/compiler/ir"
)

// FuzzCompile compiles any program the IR parser accepts: errors are
// fine, panics are not.
func FuzzCompile(f *testing.F) {
	for _, src := range benchPrograms {
		f.Add(src)
	}
	f.Add(texChain(5))
	f.Fuzz(func(t *testing.T, src string) {
		p, err := ir.Parse(src)
		if err != nil || p.Stage != ir.Fragment || len(p.Insts) > 400 {
			return
		}
		prog, err := Compile(p, Options{})
		if err == nil && prog.Stats.ALU > 64 {
			t.Fatalf("program with %d ALU instructions compiled", prog.Stats.ALU)
		}
	})
}
