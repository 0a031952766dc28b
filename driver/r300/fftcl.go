package r300

import (
	"errors"
	"fmt"
	"sort"

	rc "github.com/retrogl/retrogl/compiler/r300"
	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/driver/ffvs"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// GL ES 1.1 vertex processing on the PVS: each draw's fixed-function state
// becomes a driver/ffvs key, whose generated IR program compiler/r300
// compiles for the PVS; programs are cached by key, and the state's
// matrices, lights, fog and point parameters are their uniforms. The
// outputs follow the layout of the bypass path (position, the point size
// for points, colour 0, colour 1 with the fog factor in alpha when FG
// fogs from it, then one texture coordinate set per unit the texture
// environment samples, in set number = unit number), so the fragment side
// is shared. Differences from the CPU path:
//
//   - Two-sided lighting (the chip has no facing colour select) runs on
//     the PVS when culling leaves one face: the program lights that face
//     (the negated normal for back faces). With both faces drawn it goes
//     through driver/swtnl, which picks the colour per triangle in order.
//   - User clip planes run on the chip: each enabled eye-space plane p is
//     uploaded in clip space, p·P⁻¹, to PVS memory (R300_PVS_UCP_START)
//     with its VAP_CLIP_CNTL.UCP_ENA bit.
//   - OES_matrix_palette blends the palette matrices the draw's indices
//     reach with relative constant addressing (A0).
//   - A state whose program does not fit the PVS (a palette of many
//     matrices with many lights) is drawn with driver/swtnl through the
//     bypass, as on the chip without TCL.

// vcompiled is a cached generated vertex program.
type vcompiled struct {
	vp  *rc.VertexProgram
	err error
}

// ffKey is the generated vertex program's key.
type ffKey = ffvs.Key

// vprogram returns the compiled program of a key.
func (c *Context) vprogram(k ffKey) (*rc.VertexProgram, error) {
	if p, ok := c.vprogs[k]; ok {
		return p.vp, p.err
	}
	outs := []string{"position"}
	if k.Points {
		outs = append(outs, "psize")
	}
	outs = append(outs, "color0")
	if k.Fog != 0 {
		outs = append(outs, "color1")
	}
	for u, t := range k.Tex {
		if t != 0 {
			outs = append(outs, fmt.Sprintf("tex%d", u))
		}
	}
	vp, err := rc.CompileVertex(ffvs.Build(k), rc.VertexOptions{Outputs: outs})
	if err != nil {
		err = fmt.Errorf("r300: fixed-function vertex program %s: %w", k, err)
	}
	c.vprogs[k] = &vcompiled{vp, err}
	return vp, err
}

// ffInput returns the source of a generated program's input.
func ffInput(st *driver.State, dc *driver.DrawCall, name string) tclInput {
	a := dc.Arrays
	pick := func(arr *driver.Attrib, cur [4]float32) tclInput {
		if arr.Enabled {
			return tclInput{arr: arr}
		}
		return tclInput{val: cur}
	}
	switch name {
	case "position":
		return pick(&a.Position, [4]float32{0, 0, 0, 1})
	case "color":
		return pick(&a.Color, st.CurrentColor)
	case "normal":
		n := st.CurrentNormal
		return pick(&a.Normal, [4]float32{n[0], n[1], n[2], 0})
	case "psize":
		return pick(&a.PointSize, [4]float32{st.Point.Size, 0, 0, 1})
	case "weight":
		return pick(&a.Weight, [4]float32{})
	case "index":
		return pick(&a.MatrixIndex, [4]float32{})
	}
	var u int
	if _, err := fmt.Sscanf(name, "tex%d", &u); err == nil && u >= 0 && u < driver.MaxTextureUnits {
		return pick(&a.TexCoord[u], st.CurrentTexCoord[u])
	}
	return tclInput{}
}

// paletteReach returns one more than the largest matrix index the draw's
// vertices name.
func paletteReach(dc *driver.DrawCall) int {
	a := &dc.Arrays.MatrixIndex
	if !a.Enabled {
		return 1
	}
	n := 1
	var v [4]float32
	for i := dc.MinIndex; i <= dc.MaxIndex; i++ {
		a.Fetch(i, [4]float32{}, &v)
		for k := 0; k < a.Size; k++ {
			n = max(n, int(v[k])+1)
		}
	}
	return n
}

// userClipPlanes returns VAP_CLIP_CNTL's enable bits and the clip-space
// planes of the enabled eye-space user clip planes.
func userClipPlanes(st *driver.State) (uint32, [][4]float32) {
	var bits uint32
	planes := make([][4]float32, r3.PVSMaxUCP)
	inv := st.Projection.Inv()
	for i, p := range st.ClipPlanes {
		if !p.Enabled || i >= r3.PVSMaxUCP {
			continue
		}
		bits |= 1 << i
		for j := 0; j < 4; j++ {
			var s float32
			for k := 0; k < 4; k++ {
				s += p.Eq[k] * inv[j*4+k]
			}
			planes[i][j] = s
		}
	}
	if bits == 0 {
		return 0, nil
	}
	return bits, planes
}

// drawFF draws an ES 1.1 draw with a generated program on the PVS. It
// reports false, having drawn nothing, when the program does not fit.
func (c *Context) drawFF(st *driver.State, dc *driver.DrawCall) (bool, error) {
	fk := makeKey(st)
	fk.markProjectiveTCL(st, dc)
	prog, err := c.program(fk)
	if err != nil {
		return true, &driver.Unsupported{Backend: "r300", Feature: driver.FeatureTexEnvCombine, Why: err.Error()}
	}
	class := primClass(dc.Prim)
	var l layout
	l.fog = st.Fog.Enabled && !fogFromW(st)
	l.psize = class == r3.PrimPoints
	for i, name := range prog.Inputs {
		var u int
		if prog.InputTemp[i] >= 0 && name != "color0" {
			if _, err := fmt.Sscanf(name, "tex%d", &u); err == nil {
				l.units = append(l.units, u)
			}
		}
	}
	sort.Ints(l.units)
	pal := 0
	if st.MatrixPalette.Enabled {
		pal = paletteReach(dc)
	}
	key := ffvs.MakeKey(st, dc, l.units, l.fog, pal)
	type pass struct {
		st  driver.State
		key ffKey
	}
	passes := []pass{{*st, key}}
	if key.Lighting && st.Lighting.TwoSide && class == r3.PrimTriangles {
		if !st.CullEnabled {
			// Both faces are drawn, and which colour a triangle takes
			// is known only after the transform: two culled PVS passes
			// (one per face) would draw every back face after every
			// front face, where GL draws the triangles in order (ES 1.1
			// section 2.0). driver/swtnl picks the colour per triangle.
			return false, nil
		}
		front, back := *st, *st
		front.CullEnabled, front.CullFace = true, driver.FaceBack
		back.CullEnabled, back.CullFace = true, driver.FaceFront
		bk := key
		bk.Back = true
		passes = passes[:0]
		if !st.CullEnabled || st.CullFace != driver.FaceFront {
			passes = append(passes, pass{front, key})
		}
		if !st.CullEnabled || st.CullFace != driver.FaceBack {
			passes = append(passes, pass{back, bk})
		}
	}
	vps := make([]*rc.VertexProgram, len(passes))
	for i, ps := range passes {
		vp, err := c.vprogram(ps.key)
		if err != nil {
			var le *rc.VertexLimitError
			if errors.As(err, &le) {
				return false, nil
			}
			return true, err
		}
		vps[i] = vp
	}
	if !c.scissor(st) {
		return true, nil
	}
	gb := uint32(0)
	if class == r3.PrimPoints && st.Point.Sprite {
		for _, u := range l.units {
			if st.Units[u].CoordReplace {
				gb |= 1 | 1<<(16+2*uint(u))
			}
		}
	}
	clip, ucp := userClipPlanes(st)
	c.tclActive = true
	defer func() { c.tclActive = false }()
	for i, ps := range passes {
		ps := ps
		vp := vps[i]
		td := &tclDraw{vp: vp, clip: clip, ucp: ucp}
		for _, name := range vp.Inputs {
			td.inputs = append(td.inputs, ffInput(&ps.st, dc, name))
		}
		if td.consts, err = vp.ConstValues(ffvs.Uniforms(ps.key, &ps.st)); err != nil {
			return true, err
		}
		td.fmt0 = 3
		if l.psize {
			td.fmt0 |= 1 << 16
		}
		if l.fog {
			td.fmt0 |= 1 << 2
		}
		for _, u := range l.units {
			td.fmt1 |= 4 << (3 * uint(u))
		}
		frag := func() error { return c.emitFragment(&ps.st, prog, &l, fk) }
		if err := c.emitState(&ps.st, class, gb, frag, func() { c.tclVAP(&ps.st, td) }); err != nil {
			return true, err
		}
		if err := c.tclDrawPackets(td, dc); err != nil {
			return true, err
		}
	}
	return true, nil
}
