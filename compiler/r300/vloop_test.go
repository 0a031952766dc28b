package r300

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVertexLoops compiles IR loops onto the PVS's flow control and runs
// them against the interpreter for counts around the stubs' 255 limit:
// 0 (both stubs jump), 1, 255 (one stub), 256 and 510 (both).
func TestVertexLoops(t *testing.T) {
	progs := map[string]string{
		"accumulate": "vertex\nin v0 attr0\nout o0 position\nout o1 color0\nuniform c0 n\nconst c1 1 0.5 0.25 0\n" +
			"mov r1, c1.w\nmov r2, v0\nbgnloop c0.x\nadd r1, r1, r2\nmul r2, r2, c1.y\nadd r2, r2, c1.z\nendloop\nmov o0, r1\nmov o1, r2\n",
		"computed count": "vertex\nin v0 attr0\nout o0 position\nuniform c0 n\nconst c1 2 0.5 0 0\n" +
			"mul r3.x, c0.x, c1.y\nadd r3.x, r3.x, c1.x\nmov r1, v0\nbgnloop r3.x\nmad r1, r1, c1.y, v0\nendloop\nmov o0, r1\n",
		"three loops": "vertex\nin v0 attr0\nin v1 attr1\nout o0 position\nout o1 color0\nuniform c0 n\nconst c1 1 0.5 0.25 0\n" +
			"mov r1, v0\nbgnloop c0.x\nadd r1.x, r1.x, c1.x\nendloop\nmov r2, v1\nbgnloop c0.y\nmad r2, r2, c1.y, r1\nendloop\nbgnloop c0.z\nmax r1, r1, r2\nadd r2, r2, c1.z\nendloop\nmov o0, r1\nmov o1, r2\n",
		"indexed": "vertex\nin v0 attr0\nout o0 position\nuniform c0 n\nuniform c1 m0\nuniform c2 m1\nuniform c3 m2\nconst c4 1 0 0 0\n" +
			"mov r1, c4.y\nmov r2, c4.y\nbgnloop c0.x\narl a0.x, r2.x\nadd r1, r1, c[a0.x+1]\nadd r2.x, r2.x, c4.x\nendloop\nmul o0, r1, v0\n",
	}
	for name, text := range progs {
		for _, n := range [][4]float32{{0, 0, 0}, {1, 2, 3}, {2.5, 0, 1}, {255, 1, 0}, {256, 255, 2}, {510, 300, 7}, {3, 510, 510}} {
			if name == "indexed" && n[0] > 3 {
				n[0] = 3
			}
			u := map[string][4]float32{"n": n, "m0": {1, 2, 3, 4}, "m1": {-1, 0.5, 0, 2}, "m2": {0.25, 0.25, 8, -3}}
			p := parseVertex(t, text)
			v := vcompare(t, p, u, [][4]float32{vinA, vinB}, [][4]float32{vinC, vinA})
			if t.Failed() {
				t.Fatalf("%s, n = %v", name, n)
			}
			_ = v
		}
	}
}

// TestVertexLoopErrors checks the loop limits: nesting, more than three
// loops, a count from vertex data, a count over 510.
func TestVertexLoopErrors(t *testing.T) {
	for text, want := range map[string]string{
		"vertex\nin v0 attr0\nout o0 position\nuniform c0 n\nbgnloop c0.x\nbgnloop c0.y\nadd r1, r1, v0\nendloop\nendloop\nmov o0, r1\n":                                                                                               "loop nesting",
		"vertex\nin v0 attr0\nout o0 position\nuniform c0 n\nbgnloop c0.x\nadd r1, r1, v0\nendloop\nbgnloop c0.x\nadd r1, r1, v0\nendloop\nbgnloop c0.x\nadd r1, r1, v0\nendloop\nbgnloop c0.x\nadd r1, r1, v0\nendloop\nmov o0, r1\n": "loops",
		"vertex\nin v0 attr0\nout o0 position\nmov r2, v0\nbgnloop r2.x\nadd r1, r1, v0\nendloop\nmov o0, r1\n":                                                                                                                        "vertex data",
	} {
		_, err := CompileVertex(parseVertex(t, text), VertexOptions{Outputs: []string{"position"}})
		assert.ErrorContains(t, err, want, text)
	}
	p := parseVertex(t, "vertex\nin v0 attr0\nout o0 position\nuniform c0 n\nbgnloop c0.x\nadd r1, r1, v0\nendloop\nmov o0, r1\n")
	v, err := CompileVertex(p, VertexOptions{Outputs: []string{"position"}})
	require.NoError(t, err)
	counts, err := v.LoopCounts(map[string][4]float32{"n": {511}})
	require.NoError(t, err)
	_, _, _, err = v.Flow(counts)
	assert.ErrorContains(t, err, "511")
}
