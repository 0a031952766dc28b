package r300

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
	r3 "github.com/retrogl/retrogl/hal/r300"
	sim "github.com/retrogl/retrogl/sim/r300"
)

// loadVertex uploads a compiled vertex program and its constants into a
// simulated engine through the PVS registers, as a driver's stream would.
func loadVertex(t *testing.T, e *sim.Engine, v *VertexProgram, uniforms map[string][4]float32) {
	t.Helper()
	set := func(a, x uint32) { require.NoError(t, e.SetReg(a, x)) }
	set(r3.VAP_PVS_VECTOR_INDX_REG, r3.PVSCodeStart)
	for _, w := range v.Words() {
		set(r3.VAP_PVS_VECTOR_DATA_REG, w)
	}
	vals, err := v.ConstValues(uniforms)
	require.NoError(t, err)
	set(r3.VAP_PVS_VECTOR_INDX_REG, r3.PVSConstStart)
	for _, c := range vals {
		for _, x := range c {
			set(r3.VAP_PVS_VECTOR_DATA_REG, math.Float32bits(x))
		}
	}
	c0, c1 := v.CodeCntl()
	set(r3.VAP_PVS_CODE_CNTL_0, c0)
	set(r3.VAP_PVS_CODE_CNTL_1, c1)
	set(r3.VAP_PVS_CONST_CNTL, uint32(max(len(vals), 1)-1)<<16)
	counts, err := v.LoopCounts(uniforms)
	require.NoError(t, err)
	opc, addrs, index, err := v.Flow(counts)
	require.NoError(t, err)
	for i := range addrs {
		set(r3.VAP_PVS_FLOW_CNTL_ADDRS_0+4*uint32(i), addrs[i])
		set(r3.VAP_PVS_FLOW_CNTL_LOOP_INDEX_0+4*uint32(i), index[i])
	}
	set(r3.VAP_PVS_FLOW_CNTL_OPC, opc)
}

// outputNames lists a program's outputs in order.
func outputNames(p *ir.Program) []string {
	var out []string
	for _, o := range p.Outputs {
		out = append(out, o.Name)
	}
	return out
}

// vcompare compiles an IR vertex program, runs it on the simulated PVS
// for every input set and checks each output against ir.Run in float32,
// bit for bit, with two allowances the back end documents: where the
// interpreter gives NaN (an undefined operation: log2 or pow of a negative
// or zero base, 0·inf) the PVS may give any value, and +0 matches -0 (a
// CMP/CND select is computed as f·c + t·b).
func vcompare(t *testing.T, p *ir.Program, uniforms map[string][4]float32, inputs ...[][4]float32) *VertexProgram {
	t.Helper()
	v, err := CompileVertex(p, VertexOptions{Outputs: outputNames(p)})
	require.NoError(t, err, "%s", p)
	e := sim.New().Engine
	loadVertex(t, e, v, uniforms)
	for n, in := range inputs {
		got, err := e.ShadeVertex(in)
		require.NoError(t, err)
		want, err := ir.Run(p, &ir.Env{Inputs: in, Uniforms: uniforms})
		require.NoError(t, err)
		for k := range p.Outputs {
			for c := 0; c < 4; c++ {
				g, w := got[k][c], want.Outputs[k][c]
				if w != w || (g == 0 && w == 0) {
					continue
				}
				if math.Float32bits(g) != math.Float32bits(w) {
					t.Errorf("input set %d, output %s.%c: PVS %v, interpreter %v\nIR:\n%s\nPVS:\n%s", n, p.Outputs[k].Name, "xyzw"[c], g, w, p, strings.Join(v.Disassemble(), "\n"))
					return v
				}
			}
		}
	}
	return v
}

func parseVertex(t *testing.T, text string) *ir.Program {
	t.Helper()
	p, err := ir.Parse(text)
	require.NoError(t, err)
	return p
}

var (
	vinA = [4]float32{0.5, -1.25, 2, 1}
	vinB = [4]float32{-0.75, 3, 0.125, -2}
	vinC = [4]float32{1.5, 0.25, -4, 0.5}
)

// TestVertexOps compiles one program per IR opcode (and the saturate,
// swizzle and modifier paths) and runs it on the PVS against the
// interpreter.
func TestVertexOps(t *testing.T) {
	head := "vertex\nin v0 attr0\nin v1 attr1\nin v2 attr2\nout o0 position\nout o1 var:a@0\nconst c0 0.5 -2 3 0.25\nuniform c1 u\nuniform c2 w\n"
	body := []string{
		"mov o0, v0\nmov o1, v1.wzyx\n",
		"add o0, v0, -v1\nadd o1.xy, |v2|, c0\n",
		"mul o0, v0, c1\nmul o1, -|v1|, v2.x\n",
		"mad o0, v0, v1, v2\nmad o1, v0.x, c0, c1\n",
		"dp2 o0.x, v0, v1\ndp3 o0.y, v0, v1\ndp4 o0.z, v0, v1\ndph o0.w, v0, v1\nmov o1, c0\n",
		"min o0, v0, v1\nmax o1, v0, c1\n",
		"slt o0, v0, v1\nsge o1, v0, c0\n",
		"seq o0, v0, v0.xxzz\nsne o1, v0, v0.xxzz\n",
		"cmp o0, v0, v1, v2\ncnd o1, v2, v0, c0\n",
		"cmp o0, v1, v0, c0.0000\ncnd o1, c1.x, c0.0000, v0\n",
		"lrp o0, v0.w, v1, v2\nlrp o1, c0.w, v0, c1\n",
		"frc o0, v1\nflr o1, v1\n",
		"rcp o0.x, v0.x\nrsq o0.y, v0.y\nex2 o0.z, v0.z\nlg2 o0.w, |v0.z|\nrcp o1, c1.y\n",
		"pow o0, |v0.x|, v1.z\nsin o1.x, v0.y\ncos o1.y, v0.z\nmov o1.zw, v0\n",
		"add_sat o0, v0, v1\nmul_sat r0, v1, v2\nmov o1, r0\n",
		"mov o0, c0.1100\nadd o1, v0, c0.0101\n",
		"mul r0, c1, c2\nmul r1, c1.x, c0\nadd o0, r0, r1\nmad o1, c2, c1, c0\n",
		"mad o0, v0, v1, c1\nmad o1, v0, c1, v0.yxzw\n",
	}
	u := map[string][4]float32{"u": {0.25, -4, 1.5, 8}, "w": {2, 0.5, -1, 3}}
	for i, b := range body {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			p := parseVertex(t, head+b)
			vcompare(t, p, u, [][4]float32{vinA, vinB, vinC}, [][4]float32{vinC, vinA, vinB}, [][4]float32{vinB, vinC, vinA})
		})
	}
}

// TestVertexConflicts checks the operand rules: two inputs or two
// constants in one instruction cost a move; three temporaries take the
// macro MAD; literals 0 and 1 take no constant register.
func TestVertexConflicts(t *testing.T) {
	p := parseVertex(t, "vertex\nin v0 attr0\nin v1 attr1\nout o0 position\nuniform c0 a\nuniform c1 b\nconst c2 0 1 0 1\n"+
		"add r0, v0, v1\nmul r1, c0, c1\nmad r2, r0, r1, v0\nmad r3, r0, r1, r2\nadd o0, r3, c2\n")
	v := vcompare(t, p, map[string][4]float32{"a": {1, 2, 3, 4}, "b": {-1, 0.5, 2, 8}}, [][4]float32{vinA, vinB})
	assert.Equal(t, 2, v.Stats.Movs, "one move for v1, one for c1")
	assert.Equal(t, 2, v.Stats.Consts, "the literal (0, 1, 0, 1) is selects")
	text := strings.Join(v.Disassemble(), "\n")
	assert.Contains(t, text, "mad2 ", "three temporaries")
	assert.Contains(t, text, ".0101", "0/1 selects")
}

// TestVertexLiteralPacking packs literal magnitudes four to a register.
func TestVertexLiteralPacking(t *testing.T) {
	p := parseVertex(t, "vertex\nin v0 attr0\nout o0 position\nout o1 var:a@0\nconst c0 0.5 0.5 0.5 0.5\nconst c1 -0.5 2 -3 0.25\nconst c2 3 3 3 3\n"+
		"mul r0, v0, c0\nmad r1, v0, c1, r0\nmul o0, r1, c2\nmul o1, v0, -c2\n")
	v := vcompare(t, p, nil, [][4]float32{vinA}, [][4]float32{vinB})
	assert.Equal(t, 1, v.Stats.Consts, "0.5, 2, 3 and 0.25 fit one register")
}

// TestVertexLimits checks the compile errors naming each limit.
func TestVertexLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("vertex\nin v0 attr0\nout o0 position\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "add r%d, v0, v0.%c\n", i%2, "xyzw"[i%4])
	}
	b.WriteString("add o0, r0, r1\n")
	_, err := CompileVertex(parseVertex(t, b.String()), VertexOptions{Outputs: []string{"position"}, NoOpt: true})
	var le *VertexLimitError
	require.True(t, errors.As(err, &le), "%v", err)
	assert.Equal(t, "instructions", le.Limit)
	assert.Equal(t, 256, le.Max)
	assert.Contains(t, err.Error(), "the PVS has 256")

	// 40 vectors live at once.
	b.Reset()
	b.WriteString("vertex\nin v0 attr0\nout o0 position\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "mul r%d, v0, v0.%c\n", i, "xyzw"[i%4])
	}
	b.WriteString("mov r100, v0\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "add r100, r100, r%d\n", i)
	}
	b.WriteString("mov o0, r100\n")
	_, err = CompileVertex(parseVertex(t, b.String()), VertexOptions{Outputs: []string{"position"}})
	require.True(t, errors.As(err, &le), "%v", err)
	assert.Equal(t, "temporaries", le.Limit)
	assert.Equal(t, 32, le.Max)
	assert.Greater(t, le.Need, 32)

	// 300 uniforms.
	b.Reset()
	b.WriteString("vertex\nin v0 attr0\nout o0 position\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "uniform c%d u%d\n", i, i)
	}
	b.WriteString("mov r0, v0\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "add r0, r0, c%d\n", i)
	}
	b.WriteString("mov o0, r0\n")
	_, err = CompileVertex(parseVertex(t, b.String()), VertexOptions{Outputs: []string{"position"}})
	require.True(t, errors.As(err, &le), "%v", err)
	assert.Equal(t, "constants", le.Limit)

	_, err = CompileVertex(parseVertex(t, "vertex\nin v0 attr0\nout o0 position\ntex o0, v0, s0\n"), VertexOptions{Outputs: []string{"position"}})
	assert.ErrorContains(t, err, "no texture fetch")
}

// TestVertexOutputs checks the output map: outputs land in the listed
// registers, an unlisted one is dropped, a listed one never written is
// zero, and the code controls point at the last position write and the
// last input read.
func TestVertexOutputs(t *testing.T) {
	p := parseVertex(t, "vertex\nin v0 attr0\nin v1 attr1\nout o0 var:b@0\nout o1 position\nout o2 var:unused@0\n"+
		"mul o1, v0, v1\nadd o0, v1, v1\nmov o2, v0\nmov r0, v0.x\nmul o0.x, r0.x, r0.x\n")
	v, err := CompileVertex(p, VertexOptions{Outputs: []string{"position", "psize", "var:b@0"}})
	require.NoError(t, err)
	e := sim.New().Engine
	loadVertex(t, e, v, nil)
	out, err := e.ShadeVertex([][4]float32{vinA, vinB})
	require.NoError(t, err)
	assert.Equal(t, [4]float32{-0.375, -3.75, 0.25, -2}, out[0])
	assert.Equal(t, [4]float32{}, out[1], "psize is never written")
	assert.Equal(t, [4]float32{0.25, 6, 0.25, -4}, out[2])
	in := r3.DecodePVS(v.Code[v.PosValid])
	assert.Equal(t, r3.PVSDstOut, in.Dst.Type)
	assert.Equal(t, uint8(0), in.Dst.Offset)
	for i := v.LastInput + 1; i < len(v.Code); i++ {
		for _, s := range r3.DecodePVS(v.Code[i]).Src {
			assert.NotEqual(t, r3.PVSSrcInput, s.Type, "instruction %d reads an input after LastInput %d", i, v.LastInput)
		}
	}
}

// TestVertexRandomPrograms runs random programs shaped like the front
// end's output on the PVS and in the interpreter: bit for bit.
func TestVertexRandomPrograms(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	n := 150
	if testing.Short() {
		n = 30
	}
	ops2 := []string{"add", "mul", "min", "max", "slt", "sge", "seq", "sne", "dp3", "dp4", "dp2", "dph"}
	ops3 := []string{"mad", "cmp", "cnd", "lrp"}
	ops1 := []string{"mov", "frc", "flr"}
	scal := []string{"rcp", "rsq", "ex2", "sin", "cos"}
	for prog := 0; prog < n; prog++ {
		var b strings.Builder
		b.WriteString("vertex\nin v0 attr0\nin v1 attr1\nin v2 attr3\nout o0 position\nout o1 var:a@0\nout o2 var:b@0\n")
		b.WriteString("const c0 1 1 1 1\nconst c1 0 1 0 1\nconst c2 0.5 -2 3 0.25\nconst c3 -1.5 -1.5 -1.5 -1.5\nuniform c4 ua\nuniform c5 ub\n")
		plain := func() string {
			return []string{"c0", "c2", "c4", "c5", "r0", "r1", "r2", "v0", "v1", "v2"}[rng.Intn(10)] + "." + string("xyzw"[rng.Intn(4)])
		}
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
		for i := 0; i < 6+rng.Intn(14); i++ {
			dst := fmt.Sprintf("r%d%s", rng.Intn(6), mask())
			switch rng.Intn(10) {
			case 0, 1, 2, 3:
				fmt.Fprintf(&b, "%s%s %s, %s, %s\n", ops2[rng.Intn(len(ops2))], sat(), dst, operand(), operand())
			case 4, 5:
				fmt.Fprintf(&b, "%s%s %s, %s, %s, %s\n", ops3[rng.Intn(len(ops3))], sat(), dst, operand(), operand(), operand())
			case 6:
				fmt.Fprintf(&b, "%s %s, %s\n", ops1[rng.Intn(len(ops1))], dst, operand())
			case 7:
				// Positive arguments: the PVS takes log2|x| where the
				// interpreter gives NaN (pvs.go, hal/r300 PVSMathOps).
				fmt.Fprintf(&b, "lg2 %s, |%s|\n", dst, plain())
			case 8:
				fmt.Fprintf(&b, "pow %s, |%s|, %s\n", dst, plain(), operand())
			default:
				fmt.Fprintf(&b, "%s %s, %s\n", scal[rng.Intn(len(scal))], dst, operand())
			}
		}
		fmt.Fprintf(&b, "mov o0, r%d\nmad o1, r%d, v0, c2\nmov%s o2.xzw, r%d.yxzw\n", rng.Intn(6), rng.Intn(6), sat(), rng.Intn(6))
		text := b.String()
		u := map[string][4]float32{"ua": {0.5, -1, 2, 0.75}, "ub": {0.75, 0.5, -3, 1}}
		t.Run(fmt.Sprint(prog), func(t *testing.T) {
			vcompare(t, parseVertex(t, text), u, [][4]float32{vinA, vinB, vinC}, [][4]float32{vinC, vinA, vinB}, [][4]float32{vinB, vinB, vinA})
		})
	}
}

// TestVertexRelative runs ARL and relative constants (in range, out of
// range, two address components in one instruction) on the PVS against
// the interpreter.
func TestVertexRelative(t *testing.T) {
	p := parseVertex(t, "vertex\nin v0 attr0\nin v1 attr1\nout o0 position\nout o1 var:a@0\n"+
		"uniform c0 a\nuniform c1 b\nuniform c2 c\nconst c3 2 0.5 1 3\n"+
		"arl a0.x, v1.x\nmov o0, c[a0.x+1]\narl a0.xy, v1.yzxx\nadd o1, c[a0.y+0], c[a0.x+0].wzyx\nmul o0.w, c[a0.x+2].x, v0.y\n")
	u := map[string][4]float32{"a": {1, 2, 3, 4}, "b": {5, 6, 7, 8}, "c": {-1, -2, -3, -4}}
	v := vcompare(t, p, u,
		[][4]float32{vinA, {1.5, 0, 2.25, 0}},
		[][4]float32{vinB, {-0.5, 1, 3.75, 0}},
		[][4]float32{vinC, {7, -3, 0, 0}},
		[][4]float32{vinC, {2, 3, 1, 0}})
	assert.Equal(t, 4, v.Stats.Consts, "the IR's constants keep their indices")
	assert.Contains(t, strings.Join(v.Disassemble(), "\n"), "c[a0.y+0]")
}
