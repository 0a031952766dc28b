package r300

import (
	"testing"

	"github.com/retrogl/retrogl/compiler/ir"
)

// benchPrograms are representative programs: a modulated texture (the
// fixed-function common case), a two-unit combine, and an arithmetic-heavy
// program with transcendentals.
var benchPrograms = map[string]string{
	"modulate": "fragment\nin v0 color0\nin v1 tex0\nout o0 color\ntex r0, v1, s0\nmul_sat o0, r0, v0\n",
	"combine2": `fragment
in v0 color0
in v1 tex0
in v2 tex1
out o0 color
uniform c0 env0
uniform c1 env1
const c2 1 1 1 1
tex r0, v1, s0
tex r1, v2, s1
lrp_sat r2.xyz, r0.w, r0, v0
mul_sat r2.w, r0, v0
add r3, c2, -r1
mad_sat r4, r2, r3, c1
dp3_sat r4.w, r4, c0
mov o0, r4
`,
	"math": `fragment
in v0 tex0
out o0 color
const c0 0.5 2 3 4
dp3 r0.x, v0, v0
rsq r0.y, r0.x
mul r1.xyz, v0, r0.y
pow r2.x, r1.z, c0.w
sin r2.y, v0.w
cos r2.z, v0.w
lrp r3, r2.x, r1, c0
mad_sat o0, r3, r2.yzwx, c0.x
`,
}

func BenchmarkCompile(b *testing.B) {
	for name, src := range benchPrograms {
		p, err := ir.Parse(src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Compile(p, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
