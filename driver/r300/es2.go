package r300

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/retrogl/retrogl/compiler/ir"
	"github.com/retrogl/retrogl/driver"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// GL ES 2.0 draws on a chip without the PVS (hal/r300 RevisionNoTCL; the
// chip with it runs the vertex shader there, es2tcl.go): the vertex shader
// runs on the CPU: its lowered IR program goes through
// ir.Run once per vertex with float32 rounding (every operation rounded
// once to float32; SIN, COS, EX2, LG2 and POW from Go's float64 math, so
// the CPU path is more precise than the chip's vertex unit would be).
// Primitives are assembled, clipped against the view volume in clip
// space with every varying interpolated linearly (gclip.go), mapped to
// the window and sent through the PVS bypass: position, a dummy colour
// 0, the point size for points, then one texture coordinate set per
// fragment-program input (varying slots, gl_FragCoord as window x, y, z
// and 1/w, gl_FrontFacing as 1 or 0 per triangle, gl_PointCoord stuffed
// by GB for points), each loaded by its own RS interpolator into the temp
// compiler/r300 chose.

// gvert is a vertex after the vertex shader.
type gvert struct {
	clip  [4]float32
	win   [4]float32
	psize float32
	v     []float32 // 4 per varying slot
}

// es2Draw is the per-draw state of an ES 2.0 draw.
type es2Draw struct {
	lp    *linkedProgram
	nvary int
	slots []es2Slot // fragment-program inputs the RS loads
	// colors is how many colours the VAP outputs: 1 on the CPU path, on
	// the PVS only when there are no slots (es2tcl.go).
	colors int
}

// es2Slot is one fragment-program input: a varying slot (vary >= 0) or
// a special input.
type es2Slot struct {
	input int
	vary  int
	kind  string // "var", "fragcoord", "facing", "pointcoord"
}

func (c *Context) drawES2(st *driver.State, dc *driver.DrawCall) error {
	ps, ok := st.Program.(driver.ProgramState)
	if !ok {
		return fmt.Errorf("r300: draw: the program is not a GL ES 2.0 program state")
	}
	lp, ok := ps.Linked().(*linkedProgram)
	if !ok || lp == nil {
		return fmt.Errorf("r300: draw: the program was not linked by the r300 compiler")
	}
	res := lp.res
	uniforms := res.UniformValues(func(loc int) []float32 {
		u := ps.Uniform(loc)
		if u == nil {
			return nil
		}
		if u.Float != nil {
			return u.Float
		}
		f := make([]float32, len(u.Int))
		for i, x := range u.Int {
			f[i] = float32(x)
		}
		return f
	})
	if lp.pre != nil {
		r, err := ir.Run(lp.pre, &ir.Env{Uniforms: uniforms})
		if err != nil {
			return fmt.Errorf("r300: preshader: %w", err)
		}
		for k, o := range lp.pre.Outputs {
			uniforms[o.Name] = r.Outputs[k]
		}
	}
	d := &es2Draw{lp: lp, nvary: len(res.Varyings), colors: 1}
	for i, in := range lp.fp.Inputs {
		if lp.fp.InputTemp[i] < 0 {
			continue
		}
		s := es2Slot{input: i, vary: -1, kind: in}
		if strings.HasPrefix(in, "var:") {
			s.kind = "var"
			for j, name := range res.Varyings {
				if name == in {
					s.vary = j
				}
			}
		}
		d.slots = append(d.slots, s)
	}

	if c.tcl && lp.vp != nil {
		if ok, err := c.drawES2TCL(st, dc, d, uniforms); ok || err != nil {
			return err
		}
	}
	// The vertex shader, once per vertex the draw reads.
	nv := dc.MaxIndex - dc.MinIndex + 1
	if dc.Count == 0 || nv <= 0 {
		return nil
	}
	verts := make([]gvert, nv)
	env := &ir.Env{Inputs: make([][4]float32, len(res.Vertex.Inputs)), Uniforms: uniforms}
	pos := res.Vertex.OutputIndex("position")
	psz := res.Vertex.OutputIndex("psize")
	vary := make([]int, d.nvary)
	for j, name := range res.Varyings {
		vary[j] = res.Vertex.OutputIndex(name)
	}
	used := make([]bool, nv)
	for i := 0; i < dc.Count; i++ {
		used[dc.VertexIndex(i)-dc.MinIndex] = true
	}
	for i := range verts {
		if !used[i] {
			continue
		}
		vi := dc.MinIndex + i
		for k, loc := range res.AttribLocs {
			a := &dc.Arrays.Generic[loc]
			if a.Enabled {
				a.Fetch(vi, [4]float32{0, 0, 0, 1}, &env.Inputs[k])
			} else {
				env.Inputs[k] = st.CurrentAttrib[loc]
			}
		}
		r, err := ir.Run(res.Vertex, env)
		if err != nil {
			return fmt.Errorf("r300: vertex shader: %w", err)
		}
		g := &verts[i]
		g.clip = r.Outputs[pos]
		g.psize = 1
		if psz >= 0 {
			g.psize = r.Outputs[psz][0]
		}
		g.v = make([]float32, 4*d.nvary)
		for j, o := range vary {
			copy(g.v[4*j:], r.Outputs[o][:])
		}
	}
	at := func(i int) *gvert { return &verts[dc.VertexIndex(i)-dc.MinIndex] }
	n := dc.Count
	var tris, lines, points []gvert
	var facing []float32
	emitTri := func(a, b, cc *gvert) {
		poly := clipPolygon([]gvert{*a, *b, *cc})
		if len(poly) < 3 {
			return
		}
		for k := range poly {
			c.window(st, &poly[k])
		}
		// Signed area in GL window coordinates: positive is
		// counter-clockwise.
		area := float32(0)
		for k := range poly {
			p, q := &poly[k], &poly[(k+1)%len(poly)]
			area += p.win[0]*q.win[1] - q.win[0]*p.win[1]
		}
		front := area > 0
		if st.FrontFace == driver.WindingCW {
			front = !front
		}
		if st.CullEnabled {
			if st.CullFace == driver.FaceFrontAndBack || (st.CullFace == driver.FaceFront) == front {
				return
			}
		}
		f := float32(0)
		if front {
			f = 1
		}
		for k := 1; k+1 < len(poly); k++ {
			tris = append(tris, poly[0], poly[k], poly[k+1])
			facing = append(facing, f, f, f)
		}
	}
	emitLine := func(a, b *gvert) {
		p, q, ok := clipLine(*a, *b)
		if !ok {
			return
		}
		c.window(st, &p)
		c.window(st, &q)
		lines = append(lines, p, q)
	}
	switch dc.Prim {
	case driver.PrimPoints:
		for i := 0; i < n; i++ {
			v := *at(i)
			if insideAll(&v) {
				c.window(st, &v)
				points = append(points, v)
			}
		}
	case driver.PrimLines:
		for i := 0; i+1 < n; i += 2 {
			emitLine(at(i), at(i+1))
		}
	case driver.PrimLineStrip, driver.PrimLineLoop:
		for i := 0; i+1 < n; i++ {
			emitLine(at(i), at(i+1))
		}
		if dc.Prim == driver.PrimLineLoop && n > 1 {
			emitLine(at(n-1), at(0))
		}
	case driver.PrimTriangles:
		for i := 0; i+2 < n; i += 3 {
			emitTri(at(i), at(i+1), at(i+2))
		}
	case driver.PrimTriangleStrip:
		for i := 0; i+2 < n; i++ {
			if i%2 == 0 {
				emitTri(at(i), at(i+1), at(i+2))
			} else {
				emitTri(at(i+1), at(i), at(i+2))
			}
		}
	case driver.PrimTriangleFan:
		for i := 1; i+1 < n; i++ {
			emitTri(at(0), at(i), at(i+1))
		}
	}
	if !c.scissor(st) {
		return nil
	}
	for _, pr := range []struct {
		prim r3.PrimType
		vs   []gvert
		f    []float32
	}{{r3.PrimTriangles, tris, facing}, {r3.PrimLines, lines, nil}, {r3.PrimPoints, points, nil}} {
		if len(pr.vs) == 0 {
			continue
		}
		if err := c.es2Prims(st, d, pr.prim, pr.vs, pr.f, uniforms); err != nil {
			return err
		}
	}
	return nil
}

// window applies the perspective division and the viewport transform
// (as driver/swtnl does).
func (c *Context) window(st *driver.State, v *gvert) {
	inv := 1 / v.clip[3]
	vp := st.Viewport
	n, f := st.DepthRange[0], st.DepthRange[1]
	hw, hh := float32(vp.W)/2, float32(vp.H)/2
	v.win[0] = float32(float32(v.clip[0]*inv)+1)*hw + float32(vp.X)
	v.win[1] = float32(float32(v.clip[1]*inv)+1)*hh + float32(vp.Y)
	v.win[2] = n + float32(float32(float32(v.clip[2]*inv)+1)*0.5)*(f-n)
	v.win[3] = inv
}

func (d *es2Draw) dwords(points bool) int {
	n := 8 + 4*len(d.slots)
	if points {
		n++
	}
	return n
}

// es2Prims emits the state and vertices of one primitive list.
func (c *Context) es2Prims(st *driver.State, d *es2Draw, prim r3.PrimType, vs []gvert, facing []float32, uniforms map[string][4]float32) error {
	points := prim == r3.PrimPoints
	gb := uint32(0)
	if points {
		for k, s := range d.slots {
			if s.kind == "pointcoord" {
				gb |= 1 | 1<<(16+2*uint(k))
			}
		}
	}
	frag := func() error { return c.es2Fragment(st, d, uniforms) }
	if err := c.emitState(st, prim, gb, frag, func() { c.es2VAP(d, points) }); err != nil {
		return err
	}
	per := map[r3.PrimType]int{r3.PrimTriangles: 3, r3.PrimLines: 2, r3.PrimPoints: 1}[prim]
	// Packets of at most 65535 vertices, fewer when their estimated work
	// would pass workShare.
	maxV := splitCount(per, c.quads, 65535)
	nd := d.dwords(points)
	for start := 0; start < len(vs); start += maxV {
		end := min(len(vs), start+maxV)
		data := make([]float32, 0, nd*(end-start))
		for i := start; i < end; i++ {
			v := &vs[i]
			data = append(data, v.win[0], c.winY(v.win[1]), v.win[2], v.win[3], 0, 0, 0, 1)
			if points {
				s := float32(math.Round(float64(v.psize)))
				data = append(data, max(1, min(maxPointSize, s)))
			}
			for _, s := range d.slots {
				switch s.kind {
				case "var":
					if s.vary >= 0 {
						data = append(data, v.v[4*s.vary:4*s.vary+4]...)
					} else {
						data = append(data, 0, 0, 0, 0)
					}
				case "fragcoord":
					data = append(data, v.win[0], v.win[1], v.win[2], v.win[3])
				case "facing":
					f := float32(1)
					if facing != nil {
						f = facing[i]
					}
					data = append(data, f, 0, 0, 1)
				default:
					data = append(data, 0, 0, 0, 1)
				}
			}
		}
		if err := c.emitRaw(prim, data, end-start, nd); err != nil {
			return err
		}
	}
	return nil
}

// emitRaw uploads vertex data of n vertices of nd dwords and draws it.
func (c *Context) emitRaw(prim r3.PrimType, data []float32, n, nd int) error {
	if _, err := c.reserve(drawWork(listPrim[prim], n, c.quads)); err != nil {
		return err
	}
	buf := make([]byte, 4*len(data))
	for i, f := range data {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(f))
	}
	addr, err := c.up.Upload(buf, 32)
	if err != nil {
		return err
	}
	c.set(r3.VAP_VF_MAX_VTX_INDX, uint32(n-1))
	c.set(r3.VAP_VF_MIN_VTX_INDX, 0)
	c.packRegs()
	c.s.Packet3(r3.OpLoadVbpntr, r3.LoadVbpntr([]r3.AOS{{Count: nd, Stride: nd, Addr: addr}})...)
	c.s.Packet3(r3.OpDrawVbuf2, r3.VFCntl(prim, r3.WalkList, n, false))
	c.shadow[r3.VAP_VTX_NUM_ARRAYS] = 1
	delete(c.shadow, r3.VAP_VTX_AOS_ATTR01)
	delete(c.shadow, r3.VAP_VTX_AOS_ADDR0)
	if c.s.Len() > 64<<10 {
		return c.Flush()
	}
	return nil
}

// es2VAP programs the vertex fetch: position, colour 0, the point size,
// then one 4-component texture coordinate set per slot.
func (c *Context) es2VAP(d *es2Draw, points bool) {
	c.bypassVAP()
	var els []uint32
	add := func(dtype uint32) { els = append(els, dtype|uint32(len(els))<<8) }
	add(3)
	add(3)
	fmt0 := uint32(3)
	if points {
		add(0)
		fmt0 |= 1 << 16
	}
	fmt1 := uint32(0)
	for k := range d.slots {
		add(3)
		fmt1 |= 4 << (3 * uint(k))
	}
	els[len(els)-1] |= 1 << 13
	for i := 0; i < 8; i++ {
		var w, x uint32
		for k := 0; k < 2; k++ {
			if j := 2*i + k; j < len(els) {
				w |= els[j] << (16 * uint(k))
				x |= 0xF688 << (16 * uint(k))
			}
		}
		c.set(r3.VAP_PROG_STREAM_CNTL_0+4*uint32(i), w)
		c.set(r3.VAP_PROG_STREAM_CNTL_EXT+4*uint32(i), x)
	}
	c.set(r3.VAP_OUT_VTX_FMT_0, fmt0)
	c.set(r3.VAP_OUT_VTX_FMT_1, fmt1)
	c.set(r3.VAP_VTX_SIZE, uint32(d.dwords(points)))
}

// es2Fragment programs the RS (one interpolator per slot), the US
// program and its constants, the depth source and the texture units.
func (c *Context) es2Fragment(st *driver.State, d *es2Draw, uniforms map[string][4]float32) error {
	fp := d.lp.fp
	c.set(r3.RS_COUNT, uint32(4*len(d.slots))|uint32(d.colors)<<7)
	var ips [8]uint32
	var insts [16]uint32
	for k, s := range d.slots {
		ips[k] = 0x00D10000 | uint32(4*k)
		insts[k] = uint32(k) | 1<<3 | uint32(fp.InputTemp[s.input])<<6
	}
	n := max(len(d.slots), 1)
	for i := 0; i < n; i++ {
		c.set(r3.RS_IP_0+4*uint32(i), ips[i])
		c.set(r3.RS_INST_0+4*uint32(i), insts[i])
	}
	c.set(r3.RS_INST_COUNT, uint32(n-1))
	for _, w := range fp.Words() {
		c.set(w[0], w[1])
	}
	vals, err := fp.ConstValues(uniforms)
	if err != nil {
		return err
	}
	c.setConsts(vals)
	if fp.Depth {
		c.set(r3.US_W_FMT, 1)
		c.set(r3.FG_DEPTH_SRC, 1)
	}
	ps := st.Program.(driver.ProgramState)
	enable := uint32(0)
	for k, loc := range d.lp.samplerLocs {
		if fp.Units>>k&1 == 0 {
			continue
		}
		u := ps.Uniform(loc)
		if u == nil || len(u.Int) == 0 || int(u.Int[0]) >= len(st.Units) {
			continue
		}
		t := st.Units[u.Int[0]].Texture
		if t == nil {
			continue // incomplete: a disabled unit samples (0, 0, 0, 1)
		}
		if err := c.bindUnit(k, t); err != nil {
			return err
		}
		enable |= 1 << k
	}
	c.enableUnits(enable)
	return nil
}
