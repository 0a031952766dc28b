package pica

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/compiler/ir"
	hp "github.com/retrogl/retrogl/hal/pica"
	sim "github.com/retrogl/retrogl/sim/pica"
)

// load puts a compiled program, its constants (converted to float24 as
// the driver uploads them) and its loop uniforms into a simulated shader
// unit.
func load(t testing.TB, p *Program, uniforms map[string][4]float32) *sim.Shader {
	t.Helper()
	s := &sim.Shader{}
	copy(s.Code[:], p.Code)
	copy(s.Opdesc[:], p.Descs)
	vals, err := p.ConstValues(uniforms)
	require.NoError(t, err)
	for i, v := range vals {
		s.Float[i] = [4]float32{t24(v[0]), t24(v[1]), t24(v[2]), t24(v[3])}
	}
	ints, bools, err := p.LoopUniforms(uniforms)
	require.NoError(t, err)
	s.Int, s.Bool = ints, bools
	return s
}

// shade runs the shader unit for one vertex.
func shade(t testing.TB, s *sim.Shader, p *Program, in [][4]float32) [][4]float32 {
	t.Helper()
	var u sim.Unit
	for i, v := range in {
		u.In[i] = [4]float32{t24(v[0]), t24(v[1]), t24(v[2]), t24(v[3])}
	}
	require.NoError(t, u.Run(s))
	out := make([][4]float32, len(p.Outputs))
	for k := range out {
		out[k] = u.Out[k]
	}
	return out
}

func same(g, w float32) bool {
	return math.Float32bits(g) == math.Float32bits(w) || (g == 0 && w == 0) || (g != g && w != w)
}

// compare compiles an IR program, runs it on the simulated shader unit
// for every input set and checks each output against the float24 model
// bit for bit. With tol > 0 the model is also checked against the
// interpreter: relative error tol (absolute below 1).
func compare(t *testing.T, p *ir.Program, uniforms map[string][4]float32, tol float64, inputs ...[][4]float32) *Program {
	t.Helper()
	return compareWith(t, p, Options{}, uniforms, tol, inputs...)
}

func compareWith(t *testing.T, p *ir.Program, opts Options, uniforms map[string][4]float32, tol float64, inputs ...[][4]float32) *Program {
	t.Helper()
	prog, err := Compile(p, opts)
	require.NoError(t, err, "%s", p)
	s := load(t, prog, uniforms)
	// The model runs what the back end selects from: the program after
	// compiler/ir's optimisation (constant folding is in float32).
	opt := p.Clone()
	if !opts.NoOpt {
		ir.Optimize(opt, nil)
	}
	for n, in := range inputs {
		got := shade(t, s, prog, in)
		want, err := refRun(opt, in, uniforms)
		require.NoError(t, err)
		for k := range p.Outputs {
			for c := 0; c < 4; c++ {
				if g, w := got[k][c], want[k][c]; !same(g, w) {
					t.Errorf("input set %d, output %s.%c: shader unit %v, model %v\nIR:\n%s\nPICA:\n%s", n, p.Outputs[k].Name, "xyzw"[c], g, w, p, strings.Join(prog.Disassemble(), "\n"))
					return prog
				}
			}
		}
		if tol == 0 {
			continue
		}
		exact, err := ir.Run(p, &ir.Env{Inputs: in, Uniforms: uniforms})
		require.NoError(t, err)
		for k := range p.Outputs {
			for c := 0; c < 4; c++ {
				g, w := float64(want[k][c]), float64(exact.Outputs[k][c])
				if w != w || math.IsInf(w, 0) {
					continue
				}
				if math.Abs(g-w) > tol*math.Max(1, math.Abs(w)) {
					t.Errorf("input set %d, output %s.%c: model %v, interpreter %v (tolerance %g)\nIR:\n%s", n, p.Outputs[k].Name, "xyzw"[c], g, w, tol, p)
					return prog
				}
			}
		}
	}
	return prog
}

func parse(t *testing.T, text string) *ir.Program {
	t.Helper()
	p, err := ir.Parse(text)
	require.NoError(t, err)
	return p
}

var (
	inA = [4]float32{0.5, -1.25, 2, 1}
	inB = [4]float32{-0.75, 3, 0.125, -2}
	inC = [4]float32{1.5, 0.25, -4, 0.5}
)

const f24eps = 1.0 / (1 << 15)

// TestOps compiles one program per IR opcode (and the saturate, swizzle,
// select and modifier paths) and checks it on the shader unit against the
// model bit for bit and the model against the interpreter.
func TestOps(t *testing.T) {
	head := "vertex\nin v0 attr0\nin v1 attr1\nin v2 attr2\nout o0 position\nuniform c0 u\nconst c1 0.5 -2 3 0.25\n"
	u := map[string][4]float32{"u": {0.75, -0.5, 1.5, 2}}
	tests := []struct {
		body string
		tol  float64
	}{
		{"mov o0, v0", f24eps},
		{"mov o0, -v1.wzyx", f24eps},
		{"mov o0, |v1|", f24eps},
		{"mov o0, v0.x01y", f24eps},
		{"mov o0, c1", f24eps},
		{"mov o0, -|c0|", f24eps},
		{"add o0, v0, v1", 2 * f24eps},
		{"add o0, c0, c1", 2 * f24eps},
		{"add o0, v0, c0.yxwz", 2 * f24eps},
		{"mul o0, v0, v1", 2 * f24eps},
		{"mul o0, c1, v2", 2 * f24eps},
		{"mad o0, v0, v1, v2", 4 * f24eps},
		{"mad o0, c0, v1, c1", 4 * f24eps},
		{"mad o0, v0, c1, c0", 4 * f24eps},
		{"mad o0, c0, c1, c0.x", 4 * f24eps},
		{"dp2 o0, v0, v1", 4 * f24eps},
		{"dp3 o0, v0, v1", 4 * f24eps},
		{"dp4 o0, v0, c0", 8 * f24eps},
		{"dph o0, v0, v1", 8 * f24eps},
		{"dph o0, v0, c0", 8 * f24eps},
		{"min o0, v0, v1", f24eps},
		{"max o0, v0, c1", f24eps},
		{"slt o0, v0, v1", 0},
		{"sge o0, v0, c0", 0},
		{"sge o0, c0, v0", 0},
		{"seq o0, v0, v0.xxzw", 0},
		{"sne o0, v0, v1.xyxy", 0},
		{"cmp o0, v1, v0, v2", f24eps},
		{"cnd o0, v0, c1, v2", f24eps},
		{"lrp o0, v0, v1, v2", 8 * f24eps},
		{"frc o0, v1", 4 * f24eps},
		{"flr o0, v1", 0},
		{"rcp o0, v1.y", 2 * f24eps},
		{"rsq o0, v1.x", 2 * f24eps},
		{"ex2 o0, v0.z", 2 * f24eps},
		{"lg2 o0, v2.x", 2 * f24eps},
		{"pow o0, v2.x, v0.z", 16 * f24eps},
		{"sin o0, v1.x", 1.0 / 4096},
		{"cos o0, v2.z", 1.0 / 4096},
		{"add_sat o0, v0, v1", f24eps},
		{"mov_sat o0, v1", f24eps},
		{"mul r1.xz, v0, v1\nadd r1.yw, r1.xxzz, c0\nmov o0, r1", 4 * f24eps},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			compare(t, parse(t, head+tc.body+"\n"), u, tc.tol, [][4]float32{inA, inB, inC}, [][4]float32{inC, inA, inB}, [][4]float32{inB, inC, inA})
		})
	}
}

// TestSinCos checks the approximation over a range of angles against the
// interpreter's sin and cos.
func TestSinCos(t *testing.T) {
	p := parse(t, "vertex\nin v0 attr0\nout o0 position\nsin r0.x, v0.x\ncos r0.y, v0.x\nmov o0, r0\n")
	prog, err := Compile(p, Options{})
	require.NoError(t, err)
	s := load(t, prog, nil)
	for _, r := range []struct{ lim, bound float64 }{{math.Pi, 1.0 / 8192}, {64, 1.0 / 1024}, {1024, 1.0 / 128}} {
		worst := 0.0
		for x := -r.lim; x <= r.lim; x += r.lim / 3000 {
			got := shade(t, s, prog, [][4]float32{{float32(x)}})
			want, err := refRun(p, [][4]float32{{float32(x)}}, nil)
			require.NoError(t, err)
			xf := float64(t24(float32(x)))
			for c, f := range []func(float64) float64{math.Sin, math.Cos} {
				require.True(t, same(got[0][c], want[0][c]), "x = %v", x)
				worst = math.Max(worst, math.Abs(float64(got[0][c])-f(xf)))
			}
		}
		assert.Less(t, worst, r.bound, "|x| <= %g", r.lim)
		t.Logf("sin/cos for |x| <= %g: largest error %.3g", r.lim, worst)
	}
}

// TestRelative reads constants at a0-relative addresses, in and out of
// range (outside c0-c95 the unit reads (1, 1, 1, 1)).
func TestRelative(t *testing.T) {
	p := parse(t, "vertex\nin v0 attr0\nout o0 position\nout o1 color0\nuniform c0 m0\nuniform c1 m1\nuniform c2 m2\nconst c3 2 0 0 0\n"+
		"arl a0.x, v0.x\nmov r0, c[a0.x+0]\nadd r0, r0, c[a0.x+1]\nmov o0, r0\nmad o1, c[a0.x+0], v0, c3.x\n")
	u := map[string][4]float32{"m0": {1, 2, 3, 4}, "m1": {-1, 0.5, 0, 2}, "m2": {0.25, 0.25, 8, -3}}
	for _, x := range []float32{0, 1, 1.5, 2.9, -0.5, -1, 95, 200, -200} {
		compare(t, p, u, 0, [][4]float32{{x, 1, 2, 3}})
	}
}

// TestLoops runs IR loops as LOOP on an integer uniform guarded by JMPU
// on a bool uniform: counts 0 (skipped), 1, 3, 256, nested loops, a
// computed count.
func TestLoops(t *testing.T) {
	progs := []string{
		"vertex\nin v0 attr0\nout o0 position\nout o1 color0\nuniform c0 n\nconst c1 1 0.5 0.25 0\n" +
			"mov r2, v0\nbgnloop c0.x\nadd r1, r1, r2\nmul r2, r2, c1.y\nadd r2, r2, c1.z\nendloop\nmov o0, r1\nmov o1, r2\n",
		"vertex\nin v0 attr0\nout o0 position\nuniform c0 n\nconst c1 2 0.5 0 0\n" +
			"mul r3.x, c0.x, c1.y\nadd r3.x, r3.x, c1.x\nmov r1, v0\nbgnloop r3.x\nmad r1, r1, c1.y, v0\nendloop\nmov o0, r1\n",
		"vertex\nin v0 attr0\nout o0 position\nuniform c0 n\nconst c1 1 0.5 0.25 0\n" +
			"bgnloop c0.y\nadd r1.x, r1.x, c1.x\nbgnloop c0.z\nadd r1.y, r1.y, c1.y\nendloop\nendloop\nbgnloop c0.x\nendloop\nmov o0, r1\n",
	}
	for i, text := range progs {
		for _, n := range [][4]float32{{0, 0, 0}, {1, 2, 3}, {3, 0, 5}, {256, 7, 1}, {7, 256, 0}} {
			p := parse(t, text)
			if i == 1 {
				n[0] = min(n[0], 250)
			}
			compare(t, p, map[string][4]float32{"n": n}, 0, [][4]float32{inA}, [][4]float32{inC})
			if t.Failed() {
				t.Fatalf("program %d, n = %v", i, n)
			}
		}
	}
	p := parse(t, progs[0])
	prog, err := Compile(p, Options{})
	require.NoError(t, err)
	_, _, err = prog.LoopUniforms(map[string][4]float32{"n": {257}})
	assert.ErrorContains(t, err, "256")
}

// TestLimits checks the limit errors.
func TestLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("vertex\nin v0 attr0\nout o0 position\n")
	for i := 0; i < 17; i++ {
		fmt.Fprintf(&b, "add r%d, v0, v0.yzwx\n", i)
	}
	b.WriteString("mov r20, v0\n")
	for i := 0; i < 17; i++ {
		fmt.Fprintf(&b, "add r20, r20, r%d\n", i)
	}
	b.WriteString("mov o0, r20\n")
	_, err := Compile(parse(t, b.String()), Options{})
	var le *LimitError
	require.True(t, errors.As(err, &le), "%v", err)
	assert.Equal(t, "temporaries", le.Limit)

	b.Reset()
	b.WriteString("vertex\nin v0 attr0\nout o0 position\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "uniform c%d u%d\n", i, i)
	}
	b.WriteString("mov r0, v0\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "add r0, r0, c%d\n", i)
	}
	b.WriteString("mov o0, r0\n")
	_, err = Compile(parse(t, b.String()), Options{})
	require.True(t, errors.As(err, &le), "%v", err)
	assert.Equal(t, "float uniforms", le.Limit)

	b.Reset()
	b.WriteString("vertex\nin v0 attr0\nout o0 position\nmov r0, v0\n")
	for i := 0; i < 600; i++ {
		b.WriteString("mul r0, r0, v0.yzwx\n")
	}
	b.WriteString("mov o0, r0\n")
	_, err = Compile(parse(t, b.String()), Options{})
	require.True(t, errors.As(err, &le), "%v", err)
	assert.Equal(t, "instructions", le.Limit)

	_, err = Compile(parse(t, "fragment\nin v0 color0\nout o0 color\nmov o0, v0\n"), Options{})
	assert.ErrorContains(t, err, "fragment program")
}

// TestOutputs checks the output order option: unlisted outputs are not
// written, listed ones the program does not write are 0.
func TestOutputs(t *testing.T) {
	p := parse(t, "vertex\nin v0 attr0\nout o0 position\nout o1 color0\nmov o0, v0\nmov o1, v0.wzyx\n")
	prog, err := Compile(p, Options{Outputs: []string{"color0", "tex0", "position"}})
	require.NoError(t, err)
	s := load(t, prog, nil)
	got := shade(t, s, prog, [][4]float32{inA})
	assert.Equal(t, [4]float32{1, 2, -1.25, 0.5}, got[0])
	assert.Equal(t, [4]float32{}, got[1])
	assert.Equal(t, inA, got[2])
}

// TestDisassemble checks the listing reassembles the program's shape.
func TestDisassemble(t *testing.T) {
	p := parse(t, "vertex\nin v0 attr0\nout o0 position\nuniform c0 n\nbgnloop c0.x\nadd r1, r1, v0\nendloop\nmov o0, r1\n")
	prog, err := Compile(p, Options{})
	require.NoError(t, err)
	text := strings.Join(prog.Disassemble(), "\n")
	assert.Contains(t, text, "loop i0")
	assert.Contains(t, text, "jmpu !b0")
	assert.Contains(t, text, "end")
	assert.Contains(t, text, "; loop 0: count in i0.x + 1, runs when b0")
	// The code words decode to the opcodes the listing names.
	last := hp.DecodeInsn(prog.Code[len(prog.Code)-1])
	assert.Equal(t, hp.OpEND, last.Op)
}

// TestRandomPrograms runs random programs shaped like the front end's
// output on the shader unit and in the model: bit for bit.
func TestRandomPrograms(t *testing.T) {
	rng := rand.New(rand.NewSource(24))
	n := 300
	if testing.Short() {
		n = 50
	}
	ops2 := []string{"add", "mul", "min", "max", "slt", "sge", "seq", "sne", "dp3", "dp4", "dp2", "dph"}
	ops3 := []string{"mad", "cmp", "cnd", "lrp"}
	ops1 := []string{"mov", "frc", "flr"}
	scal := []string{"rcp", "rsq", "ex2", "lg2", "sin", "cos"}
	for prog := 0; prog < n; prog++ {
		var b strings.Builder
		b.WriteString("vertex\nin v0 attr0\nin v1 attr1\nin v2 attr3\nout o0 position\nout o1 var:a@0\nout o2 var:b@0\n")
		b.WriteString("const c0 1 1 1 1\nconst c1 0 1 0 1\nconst c2 0.5 -2 3 0.25\nconst c3 -1.5 -1.5 -1.5 -1.5\nuniform c4 ua\nuniform c5 ub\n")
		operand := func() string {
			var s string
			switch rng.Intn(7) {
			case 0:
				s = fmt.Sprintf("c%d", rng.Intn(4))
			case 1:
				s = fmt.Sprintf("c%d", 4+rng.Intn(2))
			case 2, 3:
				s = fmt.Sprintf("r%d", rng.Intn(6))
			default:
				s = fmt.Sprintf("v%d", rng.Intn(3))
			}
			if rng.Intn(3) == 0 {
				s += "." + string([]byte{"xyzw01"[rng.Intn(6)], "xyzw"[rng.Intn(4)], "xyzw"[rng.Intn(4)], "xyzw01"[rng.Intn(6)]})
			}
			switch rng.Intn(6) {
			case 0:
				s = "-" + s
			case 1:
				s = "|" + s + "|"
			}
			return s
		}
		mask := func() string {
			if rng.Intn(2) == 0 {
				return ""
			}
			return []string{".x", ".xy", ".yz", ".w", ".xzw"}[rng.Intn(5)]
		}
		sat := func() string {
			if rng.Intn(8) == 0 {
				return "_sat"
			}
			return ""
		}
		for i := 0; i < 6+rng.Intn(20); i++ {
			dst := fmt.Sprintf("r%d%s", rng.Intn(6), mask())
			switch rng.Intn(10) {
			case 0, 1, 2, 3:
				fmt.Fprintf(&b, "%s%s %s, %s, %s\n", ops2[rng.Intn(len(ops2))], sat(), dst, operand(), operand())
			case 4, 5:
				fmt.Fprintf(&b, "%s%s %s, %s, %s, %s\n", ops3[rng.Intn(len(ops3))], sat(), dst, operand(), operand(), operand())
			case 6:
				fmt.Fprintf(&b, "%s %s, %s\n", ops1[rng.Intn(len(ops1))], dst, operand())
			case 7:
				fmt.Fprintf(&b, "pow %s, %s, %s\n", dst, operand(), operand())
			default:
				fmt.Fprintf(&b, "%s %s, %s\n", scal[rng.Intn(len(scal))], dst, operand())
			}
		}
		fmt.Fprintf(&b, "mov o0, r%d\nmad o1, r%d, v0, c2\nmov%s o2.xzw, r%d.yxzw\n", rng.Intn(6), rng.Intn(6), sat(), rng.Intn(6))
		text := b.String()
		u := map[string][4]float32{"ua": {0.5, -1, 2, 0.75}, "ub": {0.75, 0.5, -3, 1}}
		t.Run(fmt.Sprint(prog), func(t *testing.T) {
			compareWith(t, parse(t, text), Options{NoOpt: prog%4 == 0}, u, 0, [][4]float32{inA, inB, inC}, [][4]float32{inC, inA, inB}, [][4]float32{inB, inB, inA})
		})
	}
}

// TestInputRegs reads IR inputs from the registers the option names.
func TestInputRegs(t *testing.T) {
	p := parse(t, "vertex\nin v0 attr0\nin v1 attr1\nout o0 position\nadd o0, v0, v1.wzyx\n")
	prog, err := Compile(p, Options{InputRegs: []int{3, 0}})
	require.NoError(t, err)
	assert.Equal(t, []string{"attr1", "", "", "attr0"}, prog.Inputs)
	s := load(t, prog, nil)
	got := shade(t, s, prog, [][4]float32{inB, {}, {}, inA})
	want, err := refRun(p, [][4]float32{inA, inB}, nil)
	require.NoError(t, err)
	assert.Equal(t, want[0], got[0])
	_, err = Compile(p, Options{InputRegs: []int{16}})
	assert.Error(t, err)
}
