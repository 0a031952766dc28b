package r300

import (
	"fmt"
	"strings"

	"github.com/retrogl/retrogl/compiler/ir"
	rc "github.com/retrogl/retrogl/compiler/r300"
	"github.com/retrogl/retrogl/driver"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// GL ES 2.0 vertex shaders on the PVS. At link time the lowered vertex
// program is compiled by compiler/r300's vertex back end with the outputs
// in the order the VAP hands them on (position, the point size when the
// shader writes it, a colour 0 the RS requires, then one texture
// coordinate set per fragment-program input, the order es2Fragment's RS
// loads them in). The fragment inputs that are not varyings come from the
// vertex program too:
//
//   - gl_FragCoord: the program keeps the clip position in a temporary and
//     adds (x/w·w_vp/2 + x_vp + w_vp/2, y/w·h_vp/2 + y_vp + h_vp/2,
//     z/w·(f-n)/2 + (n+f)/2, 1/w) from the uniforms "$vpscale" and
//     "$vpoffset", the window coordinates the CPU path passes (interpolated
//     as a texture coordinate, so exact where w is constant);
//   - gl_FrontFacing: the uniform "$facing", 1 or 0. The seed gives the US
//     no facing input ([PROP] guide §5), so a triangle draw whose fragment
//     shader reads it runs on the PVS only when culling leaves one face:
//     the draw is then one pass with the uniform set to that face. With
//     both faces drawn, two passes each culling one face would draw every
//     back face after every front face, and GL draws primitives in order
//     (ES 2.0 §2.1: overlapping faces with blending or an equal depth
//     would come out in the wrong order), so such a draw goes to the CPU
//     path, which computes the facing per triangle and draws in order
//     (as Mesa's r300 computes FACE in its draw module on R300-class
//     chips, [OUT] r300_state_derived.c "frontface_via_draw");
//   - gl_PointCoord: stuffed by GB for points (the output is a dummy).

// Names of the driver's outputs and uniforms (not GL names: "$" cannot
// start a GLSL identifier).
const (
	outColor0     = "$color0"
	outFragCoord  = "$fragcoord"
	outFacing     = "$facing"
	outPointCoord = "$pointcoord"
	uniVPScale    = "$vpscale"
	uniVPOffset   = "$vpoffset"
	uniFacing     = "$facing"
)

// es2SlotsOf returns the fragment-program inputs the RS loads, in order.
func es2SlotsOf(lp *linkedProgram) []es2Slot {
	var slots []es2Slot
	for i, in := range lp.fp.Inputs {
		if lp.fp.InputTemp[i] < 0 {
			continue
		}
		s := es2Slot{input: i, vary: -1, kind: in}
		if strings.HasPrefix(in, "var:") {
			s.kind = "var"
			for j, name := range lp.res.Varyings {
				if name == in {
					s.vary = j
				}
			}
		}
		slots = append(slots, s)
	}
	return slots
}

// buildVertex compiles a linked program's vertex shader for the PVS.
func buildVertex(lp *linkedProgram) (*rc.VertexProgram, error) {
	p := lp.res.Vertex.Clone()
	pos := p.OutputIndex("position")
	outs := []string{"position"}
	if p.OutputIndex("psize") >= 0 {
		outs = append(outs, "psize")
		lp.vpsize = true
	}
	slots := es2SlotsOf(lp)
	if len(slots) == 0 {
		// The RS needs something to interpolate: a colour, as Mesa's
		// r300 rasterises one when there is nothing else ([OUT]
		// r300_state_derived.c "Rasterize at least one color").
		outs = append(outs, outColor0)
	}
	for _, s := range slots {
		switch s.kind {
		case "var":
			outs = append(outs, lp.fp.Inputs[s.input])
		case "fragcoord":
			outs = append(outs, outFragCoord)
			if pos >= 0 && p.OutputIndex(outFragCoord) < 0 {
				addFragCoord(p, pos)
			}
		case "facing":
			outs = append(outs, outFacing)
			if p.OutputIndex(outFacing) < 0 {
				o := len(p.Outputs)
				p.Outputs = append(p.Outputs, ir.Var{Name: outFacing})
				p.Consts = append(p.Consts, ir.ConstVal{Uniform: uniFacing})
				p.Insts = append(p.Insts, ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: ir.Reg{File: ir.Output, Index: o}, Mask: ir.MaskXYZW},
					Src: [3]ir.Src{ir.S(ir.Reg{File: ir.Const, Index: len(p.Consts) - 1})}})
			}
		default:
			outs = append(outs, outPointCoord)
		}
	}
	vp, err := rc.CompileVertex(p, rc.VertexOptions{Outputs: outs})
	return vp, err
}

// addFragCoord makes a vertex program also write the window coordinates
// to the output "$fragcoord": position writes go to a temporary, copied to
// the position at the end.
func addFragCoord(p *ir.Program, pos int) {
	t := p.NumTemps()
	r := func(k int) ir.Reg { return ir.Reg{File: ir.Temp, Index: t + k} }
	for i := range p.Insts {
		d := &p.Insts[i].Dst
		if d.File == ir.Output && d.Index == pos {
			d.Reg = r(0)
		}
	}
	fc := len(p.Outputs)
	p.Outputs = append(p.Outputs, ir.Var{Name: outFragCoord})
	sc := len(p.Consts)
	p.Consts = append(p.Consts, ir.ConstVal{Uniform: uniVPScale}, ir.ConstVal{Uniform: uniVPOffset})
	out := func(k int) ir.Reg { return ir.Reg{File: ir.Output, Index: k} }
	cst := func(k int) ir.Src { return ir.S(ir.Reg{File: ir.Const, Index: sc + k}) }
	w := ir.Src{Reg: r(1), Swz: ir.Splat(3)}
	p.Insts = append(p.Insts,
		ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: out(pos), Mask: ir.MaskXYZW}, Src: [3]ir.Src{ir.S(r(0))}},
		ir.Inst{Op: ir.RCP, Dst: ir.Dst{Reg: r(1), Mask: 8}, Src: [3]ir.Src{{Reg: r(0), Swz: ir.Splat(3)}}},
		ir.Inst{Op: ir.MUL, Dst: ir.Dst{Reg: r(2), Mask: 7}, Src: [3]ir.Src{ir.S(r(0)), w}},
		ir.Inst{Op: ir.MAD, Dst: ir.Dst{Reg: out(fc), Mask: 7}, Src: [3]ir.Src{ir.S(r(2)), cst(0), cst(1)}},
		ir.Inst{Op: ir.MOV, Dst: ir.Dst{Reg: out(fc), Mask: 8}, Src: [3]ir.Src{w}},
	)
}

// drawES2TCL draws with the vertex shader on the PVS.
// A loop the PVS cannot run for this draw's uniforms (more than 510
// iterations) sends the draw to the CPU path (ok false).
func (c *Context) drawES2TCL(st *driver.State, dc *driver.DrawCall, d *es2Draw, uniforms map[string][4]float32) (ok bool, err error) {
	if readsFacing(d) && primClass(dc.Prim) == r3.PrimTriangles && !st.CullEnabled {
		return false, nil
	}
	td := &tclDraw{vp: d.lp.vp}
	counts, err := td.vp.LoopCounts(uniforms)
	if err != nil {
		return false, nil
	}
	if td.flowOpc, td.flowAddrs, td.flowIndex, err = td.vp.Flow(counts); err != nil {
		return false, nil
	}
	return true, c.drawES2Program(st, dc, d, td, uniforms)
}

// readsFacing reports whether the draw's fragment shader reads
// gl_FrontFacing.
func readsFacing(d *es2Draw) bool {
	for _, s := range d.slots {
		if s.kind == "facing" {
			return true
		}
	}
	return false
}

// drawES2Program draws with the vertex program td.vp.
func (c *Context) drawES2Program(st *driver.State, dc *driver.DrawCall, d *es2Draw, td *tclDraw, uniforms map[string][4]float32) error {
	lp := d.lp
	if dc.Count == 0 || dc.MaxIndex < dc.MinIndex {
		return nil
	}
	class := primClass(dc.Prim)
	if class == r3.PrimTriangles && st.CullEnabled && st.CullFace == driver.FaceFrontAndBack {
		return nil
	}
	if !c.scissor(st) {
		return nil
	}
	for _, loc := range lp.res.AttribLocs {
		a := &dc.Arrays.Generic[loc]
		if a.Enabled {
			td.inputs = append(td.inputs, tclInput{arr: a})
		} else {
			td.inputs = append(td.inputs, tclInput{val: st.CurrentAttrib[loc]})
		}
	}
	colors := 0
	if len(d.slots) == 0 {
		colors = 1
	}
	td.fmt0, td.fmt1 = outFormat(lp.vpsize, colors, len(d.slots))
	d.colors = colors
	gb := uint32(0)
	if class == r3.PrimPoints {
		for k, s := range d.slots {
			if s.kind == "pointcoord" {
				gb |= 1 | 1<<(16+2*uint(k))
			}
		}
	}
	vp := st.Viewport
	n, f := st.DepthRange[0], st.DepthRange[1]
	hw, hh := float32(vp.W)/2, float32(vp.H)/2
	u := make(map[string][4]float32, len(uniforms)+3)
	for k, v := range uniforms {
		u[k] = v
	}
	u[uniVPScale] = [4]float32{hw, hh, (f - n) / 2, 0}
	u[uniVPOffset] = [4]float32{float32(vp.X) + hw, float32(vp.Y) + hh, (n + f) / 2, 0}
	face := float32(1)
	if readsFacing(d) && class == r3.PrimTriangles && st.CullEnabled && st.CullFace == driver.FaceFront {
		// Only back faces are drawn (drawES2TCL sent the draws that keep
		// both faces to the CPU path; FRONT_AND_BACK returned above).
		face = 0
	}
	u[uniFacing] = [4]float32{face, 0, 0, 1}
	c.tclActive = true
	defer func() { c.tclActive = false }()
	var err error
	if td.consts, err = lp.vp.ConstValues(u); err != nil {
		return fmt.Errorf("r300: vertex shader: %w", err)
	}
	frag := func() error { return c.es2Fragment(st, d, uniforms) }
	if err := c.emitState(st, class, gb, frag, func() { c.tclVAP(st, td) }); err != nil {
		return err
	}
	if err := c.tclDrawPackets(td, dc); err != nil {
		return err
	}
	return nil
}
