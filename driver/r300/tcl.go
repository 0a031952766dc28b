package r300

import (
	"encoding/binary"
	"fmt"
	"math"

	rc "github.com/retrogl/retrogl/compiler/r300"
	"github.com/retrogl/retrogl/driver"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// Draws through the TCL engine: the PVS runs a compiled vertex program
// (an ES 2.0 vertex shader, es2tcl.go, or a generated fixed-function
// program, fftcl.go), and the VAP assembles, clips and maps the
// primitives. Driver decisions:
//
//   - Vertex data: every program input is one array (one AOS, one stream
//     element, DST_VEC_LOC = the input's index) over the draw's vertex
//     range. The VAP fetches the GL formats it reads natively (FLOAT 1-4,
//     UNSIGNED_BYTE and BYTE 4, SHORT and UNSIGNED_SHORT 2 and 4, with
//     SIGNED, NORMALIZE and VAP_PSC_SGN_NORM_CNTL's (2c+1)/(2^n-1), which
//     is GL ES's rule, L1921-1965); the missing components come from the
//     EXT swizzle's 0 and 1 selects (GL's (0, 0, 0, 1)). FIXED, BYTE and
//     SHORT with 1-3 components and arrays whose start or stride is not a
//     whole number of dwords are converted to FLOAT_4 on the CPU. A disabled
//     array is a FLOAT_4 array of stride 0 holding the current value.
//   - Primitives reach the chip as GL has them (points, lines, strips,
//     loops, fans) through 3D_DRAW_VBUF_2, or 3D_DRAW_INDX_2 with an
//     INDX_BUFFER of rebased 16- or 32-bit indices. A draw of more than
//     65535 vertices (NUM_VERTICES is 16 bits, L2064) is split, strips,
//     fans and loops first expanded to lists.
//   - Clipping against the view volume runs on the chip (VAP_CLIP_CNTL
//     without CLIP_DISABLE, no guard band), then the viewport transform
//     (VAP_VTE_CNTL 0x43F, fact 15): x·w/2 + x0 + w/2, y flipped to the
//     chip's y-down screen for the window, z·(f-n)/2 + (n+f)/2.
//   - VAP_CNTL: PVS_NUM_SLOTS 10, PVS_NUM_CNTLRS 5, PVS_NUM_FPUS 4,
//     VF_MAX_VTX_NUM 12 ([OUT, believed] Mesa's values for an R300; the
//     simulator ignores these performance fields).
//   - The PVS memory has a shadow like the registers: code and constants
//     are uploaded only where they changed, after a write to
//     VAP_PVS_STATE_FLUSH_REG (L2031).

// vapCntl is VAP_CNTL for the PVS ([OUT] Mesa r300_context.c).
const vapCntl = 10 | 5<<4 | 4<<8 | 12<<18

// tclInput is one program input: an array, or a constant value when the
// array is off.
type tclInput struct {
	arr *driver.Attrib
	val [4]float32
}

// tclDraw is the vertex side of one TCL draw.
type tclDraw struct {
	vp     *rc.VertexProgram
	consts [][4]float32
	inputs []tclInput
	// fmt0 and fmt1 are VAP_OUT_VTX_FMT_0/1 for the program's outputs.
	fmt0, fmt1 uint32
	// clip is VAP_CLIP_CNTL (user clip planes); ucp the planes in clip
	// space.
	clip uint32
	ucp  [][4]float32
	// flowOpc, flowAddrs and flowIndex are the flow-control registers
	// for the program's loops (compiler/r300 VertexProgram.Flow).
	flowOpc              uint32
	flowAddrs, flowIndex [r3.PVSMaxFlow]uint32
	// win holds the chip-screen positions of the draw's vertices
	// MinIndex..MaxIndex when the driver knows them (ffWindow), so that
	// the work estimate charges each triangle its own bounding box.
	win [][2]float64
}

// claim forgets the register and PVS shadows when another context drove
// the chip.
func (c *Context) claim() {
	if c.drv.owner != c {
		c.shadow = map[uint32]uint32{}
		c.pvsShadow = map[int][4]uint32{}
		c.drv.owner = c
	}
}

// pvsWrite uploads octwords from first on where they differ from the
// shadow, in runs.
func (c *Context) pvsWrite(first int, vals [][4]uint32) {
	c.claim()
	flushed := false
	for i := 0; i < len(vals); {
		if old, ok := c.pvsShadow[first+i]; ok && old == vals[i] {
			i++
			continue
		}
		j := i
		var data []uint32
		for j < len(vals) {
			if old, ok := c.pvsShadow[first+j]; ok && old == vals[j] {
				break
			}
			c.pvsShadow[first+j] = vals[j]
			data = append(data, vals[j][:]...)
			j++
		}
		if !flushed {
			c.packRegs()
			c.s.Reg(r3.VAP_PVS_STATE_FLUSH_REG, 0)
			flushed = true
		}
		c.s.PVSUpload(first+i, data)
		i = j
	}
}

// viewport programs the viewport transform for the GL viewport and depth
// range on the current target.
func (c *Context) viewport(st *driver.State) {
	vp := st.Viewport
	n, f := st.DepthRange[0], st.DepthRange[1]
	hw, hh := float32(vp.W)/2, float32(vp.H)/2
	ys, yo := hh, float32(vp.Y)+hh
	if c.tgt.flip {
		ys, yo = -hh, float32(c.tgt.h)-(float32(vp.Y)+hh)
	}
	c.set(r3.VAP_VPORT_XSCALE, f32(hw))
	c.set(r3.VAP_VPORT_XOFFSET, f32(float32(vp.X)+hw))
	c.set(r3.VAP_VPORT_YSCALE, f32(ys))
	c.set(r3.VAP_VPORT_YOFFSET, f32(yo))
	c.set(r3.VAP_VPORT_ZSCALE, f32((f-n)/2))
	c.set(r3.VAP_VPORT_ZOFFSET, f32((f+n)/2))
}

// tclVAP programs the PVS, its constants, the clipper and the viewport
// for a draw (the vap step of emitState).
func (c *Context) tclVAP(st *driver.State, d *tclDraw) {
	c.set(r3.VAP_CNTL, vapCntl)
	c.set(r3.VAP_CNTL_STATUS, 0)
	c.set(r3.VAP_CLIP_CNTL, d.clip)
	c.set(r3.VAP_VTE_CNTL, 0x43F)
	c.viewport(st)
	c0, c1 := d.vp.CodeCntl()
	c.set(r3.VAP_PVS_CODE_CNTL_0, c0)
	c.set(r3.VAP_PVS_CODE_CNTL_1, c1)
	c.set(r3.VAP_PVS_CONST_CNTL, uint32(max(len(d.consts), 1)-1)<<16)
	for i := range d.flowAddrs {
		if d.flowOpc>>(2*uint(i))&3 != 0 {
			c.set(r3.VAP_PVS_FLOW_CNTL_ADDRS_0+4*uint32(i), d.flowAddrs[i])
			c.set(r3.VAP_PVS_FLOW_CNTL_LOOP_INDEX_0+4*uint32(i), d.flowIndex[i])
		}
	}
	c.set(r3.VAP_PVS_FLOW_CNTL_OPC, d.flowOpc)
	c.set(r3.VAP_OUT_VTX_FMT_0, d.fmt0)
	c.set(r3.VAP_OUT_VTX_FMT_1, d.fmt1)
	if d.fmt0>>16&1 == 0 {
		// No per-vertex size: 1-pixel points (half sizes, L652-657).
		c.set(r3.GA_POINT_SIZE, subpixels/2|subpixels/2<<16)
	}
	code := make([][4]uint32, len(d.vp.Code))
	copy(code, d.vp.Code)
	c.pvsWrite(r3.PVSCodeStart, code)
	cw := make([][4]uint32, len(d.consts))
	for k, v := range d.consts {
		for j := range v {
			cw[k][j] = math.Float32bits(v[j])
		}
	}
	c.pvsWrite(r3.PVSConstStart, cw)
	if len(d.ucp) > 0 {
		uw := make([][4]uint32, len(d.ucp))
		for k, p := range d.ucp {
			for j := range p {
				uw[k][j] = math.Float32bits(p[j])
			}
		}
		c.pvsWrite(r3.PVSUCPStart, uw)
	}
}

// native returns the stream element data type of an array the VAP reads
// as it is (DATA_TYPE, SIGNED, NORMALIZE, dwords per vertex), or ok false.
func native(a *driver.Attrib) (dtype uint32, signed, norm bool, dwords int, ok bool) {
	if a.Stride%4 != 0 || a.Stride/4 > 127 {
		// AOS strides are whole dwords, 7 bits (L2129-2135).
		return 0, false, false, 0, false
	}
	switch a.Type {
	case driver.TypeFloat:
		return uint32(a.Size - 1), false, false, a.Size, true
	case driver.TypeUByte, driver.TypeByte:
		if a.Size == 4 {
			return 4, a.Type == driver.TypeByte, a.Normalized, 1, true
		}
	case driver.TypeUShort, driver.TypeShort:
		switch a.Size {
		case 2:
			return 6, a.Type == driver.TypeShort, a.Normalized, 1, true
		case 4:
			return 7, a.Type == driver.TypeShort, a.Normalized, 2, true
		}
	}
	return 0, false, false, 0, false
}

// extSwizzle is a PROG_STREAM_CNTL_EXT half for an element of n
// components: the components read, then 0 for y and z and 1 for w.
func extSwizzle(n int) uint32 {
	sel := [4]uint32{0, 1, 2, 3}
	for k := n; k < 4; k++ {
		sel[k] = 4
		if k == 3 {
			sel[k] = 5
		}
	}
	return sel[0] | sel[1]<<3 | sel[2]<<6 | sel[3]<<9 | 15<<12
}

// tclVertices uploads the inputs of vertices lo..hi and programs the
// stream elements; it returns the 3D_LOAD_VBPNTR payload.
func (c *Context) tclVertices(d *tclDraw, lo, hi int) ([]uint32, error) {
	n := hi - lo + 1
	var els, exts []uint32
	var aos []r3.AOS
	for i, in := range d.inputs {
		var el, ext uint32
		var buf []byte
		var dwords, stride int
		a := in.arr
		if dtype, signed, norm, dw, ok := func() (uint32, bool, bool, int, bool) {
			if a == nil || !a.Enabled {
				return 0, false, false, 0, false
			}
			return native(a)
		}(); ok {
			el = dtype
			if signed {
				el |= 1 << 14
			}
			if norm {
				el |= 1 << 15
			}
			size := a.Size * a.Type.Size()
			buf = a.Data[lo*a.Stride : hi*a.Stride+size]
			dwords, stride = dw, a.Stride/4
			ext = extSwizzle(a.Size)
		} else {
			el, dwords, ext = 3, 4, extSwizzle(4)
			if a == nil || !a.Enabled {
				buf = make([]byte, 16)
				for k, x := range in.val {
					binary.LittleEndian.PutUint32(buf[4*k:], math.Float32bits(x))
				}
			} else {
				stride = 4
				buf = make([]byte, 16*n)
				var v [4]float32
				for j := 0; j < n; j++ {
					a.Fetch(lo+j, [4]float32{0, 0, 0, 1}, &v)
					for k, x := range v {
						binary.LittleEndian.PutUint32(buf[16*j+4*k:], math.Float32bits(x))
					}
				}
			}
		}
		addr, err := c.up.Upload(buf, 32)
		if err != nil {
			return nil, err
		}
		els = append(els, el|uint32(i)<<8)
		exts = append(exts, ext)
		aos = append(aos, r3.AOS{Count: dwords, Stride: stride, Addr: addr})
	}
	if len(els) == 0 {
		// A program without inputs still fetches one element.
		addr, err := c.up.Upload(make([]byte, 16), 32)
		if err != nil {
			return nil, err
		}
		els, exts = []uint32{3}, []uint32{extSwizzle(4)}
		aos = []r3.AOS{{Count: 4, Stride: 0, Addr: addr}}
	}
	els[len(els)-1] |= 1 << 13 // LAST_VEC
	for i := 0; i < 8; i++ {
		var w, x uint32
		for k := 0; k < 2; k++ {
			if j := 2*i + k; j < len(els) {
				w |= els[j] << (16 * uint(k))
				x |= exts[j] << (16 * uint(k))
			}
		}
		c.set(r3.VAP_PROG_STREAM_CNTL_0+4*uint32(i), w)
		c.set(r3.VAP_PROG_STREAM_CNTL_EXT+4*uint32(i), x)
	}
	c.set(r3.VAP_PSC_SGN_NORM_CNTL, 0xAAAAAAAA) // NO_ZERO: (2c+1)/(2^n-1), fact 18
	c.set(r3.VAP_VF_MAX_VTX_INDX, uint32(n-1))
	c.set(r3.VAP_VF_MIN_VTX_INDX, 0)
	return r3.LoadVbpntr(aos), nil
}

// chipPrim maps a GL primitive to VAP_VF_CNTL.PRIM_TYPE (L2053).
var chipPrim = map[driver.Prim]r3.PrimType{
	driver.PrimPoints: r3.PrimPoints, driver.PrimLines: r3.PrimLines, driver.PrimLineStrip: r3.PrimLineStrip,
	driver.PrimLineLoop: r3.PrimLineLoop, driver.PrimTriangles: r3.PrimTriangles,
	driver.PrimTriangleStrip: r3.PrimTriangleStrip, driver.PrimTriangleFan: r3.PrimTriangleFan,
}

// primClass is the kind of primitive emitState sets raster state for.
func primClass(p driver.Prim) r3.PrimType {
	switch p {
	case driver.PrimPoints:
		return r3.PrimPoints
	case driver.PrimLines, driver.PrimLineStrip, driver.PrimLineLoop:
		return r3.PrimLines
	}
	return r3.PrimTriangles
}

// maxDrawVerts is the most vertices one draw packet takes (NUM_VERTICES,
// 16 bits).
const maxDrawVerts = 65535

// listIndices expands a primitive of n vertices into a list primitive's
// vertex order (strips alternate, fans pivot on 0, loops close).
func listIndices(p driver.Prim, n int) (driver.Prim, []int) {
	out := make([]int, 0, max(0, 3*n))
	switch p {
	case driver.PrimLineStrip, driver.PrimLineLoop:
		for i := 0; i+1 < n; i++ {
			out = append(out, i, i+1)
		}
		if p == driver.PrimLineLoop && n > 1 {
			out = append(out, n-1, 0)
		}
		return driver.PrimLines, out
	case driver.PrimTriangleStrip:
		for i := 0; i+2 < n; i++ {
			if i%2 == 0 {
				out = append(out, i, i+1, i+2)
			} else {
				out = append(out, i+1, i, i+2)
			}
		}
		return driver.PrimTriangles, out
	case driver.PrimTriangleFan:
		for i := 1; i+1 < n; i++ {
			out = append(out, 0, i, i+1)
		}
		return driver.PrimTriangles, out
	}
	for i := 0; i < n; i++ {
		out = append(out, i)
	}
	return p, out
}

// tclDrawPackets emits the vertex arrays and the draw packets of a draw
// whose state emitState has set.
//
// A draw whose estimated work (drawWork) passes workShare goes in several
// submissions of whole primitives: strips, fans and loops become the
// equivalent list first (listIndices keeps each primitive's last vertex,
// the one flat shading takes, and the strips' winding), and the vertex
// arrays are uploaded again in each submission, whose memory they share.
func (c *Context) tclDrawPackets(d *tclDraw, dc *driver.DrawCall) error {
	lo, hi := dc.MinIndex, dc.MaxIndex
	total := drawWork(dc.Prim, dc.Count, c.quads)
	quads := c.tclQuads(d, dc)
	if quads != nil {
		total = int64(dc.Count) * vertexWork
		for k := range primCount(dc.Prim, dc.Count) {
			total += quads(int(k))
		}
	}
	if total > workShare {
		return c.tclSplit(d, dc, quads)
	} else if _, err := c.reserve(total); err != nil {
		return err
	}
	vb, err := c.tclVertices(d, lo, hi)
	if err != nil {
		return err
	}
	prim := dc.Prim
	n := dc.Count
	var idx []int
	if dc.Indices != nil {
		idx = make([]int, n)
		for i := range idx {
			idx[i] = dc.VertexIndex(i) - lo
		}
	} else if dc.First != lo {
		return fmt.Errorf("r300: draw: first vertex %d is not the range's %d", dc.First, lo)
	}
	if n > maxDrawVerts && prim != driver.PrimPoints && prim != driver.PrimLines && prim != driver.PrimTriangles {
		var order []int
		prim, order = listIndices(prim, n)
		if idx == nil {
			idx = order
		} else {
			exp := make([]int, len(order))
			for i, o := range order {
				exp[i] = idx[o]
			}
			idx = exp
		}
		n = len(idx)
	}
	per := map[driver.Prim]int{driver.PrimPoints: 1, driver.PrimLines: 2, driver.PrimTriangles: 3}[prim]
	chunk := n
	if n > maxDrawVerts {
		chunk = maxDrawVerts / per * per
	}
	cp := chipPrim[prim]
	for start := 0; start < n; start += chunk {
		end := min(n, start+chunk)
		c.packRegs()
		c.s.Packet3(r3.OpLoadVbpntr, vb...)
		// The packet wrote the register image from VAP_VTX_NUM_ARRAYS on.
		for k, v := range vb {
			c.shadow[r3.VAP_VTX_NUM_ARRAYS+4*uint32(k)] = v
		}
		if idx == nil {
			if start != 0 {
				return fmt.Errorf("r300: draw of %d vertices without indices cannot be split", n)
			}
			c.s.Packet3(r3.OpDrawVbuf2, r3.VFCntl(cp, r3.WalkList, end-start, false))
		} else if err := c.drawIndexed(cp, idx[start:end]); err != nil {
			return err
		}
	}
	if c.s.Len() > 64<<10 {
		return c.Flush()
	}
	return nil
}

// drawIndexed uploads the indices part and draws them (3D_DRAW_INDX_2 and
// INDX_BUFFER, 32-bit indices when one passes 0xFFFF).
func (c *Context) drawIndexed(cp r3.PrimType, part []int) error {
	big := false
	for _, x := range part {
		if x > 0xFFFF {
			big = true
		}
	}
	var buf []byte
	if big {
		buf = make([]byte, 4*len(part))
		for i, x := range part {
			binary.LittleEndian.PutUint32(buf[4*i:], uint32(x))
		}
	} else {
		buf = make([]byte, 4*((len(part)+1)/2))
		for i, x := range part {
			binary.LittleEndian.PutUint16(buf[2*i:], uint16(x))
		}
	}
	addr, err := c.up.Upload(buf, 32)
	if err != nil {
		return err
	}
	c.s.Packet3(r3.OpDrawIndx2, r3.VFCntl(cp, r3.WalkIndices, len(part), big))
	c.s.Packet3(r3.OpIndxBuffer, r3.IndxBuffer(addr, len(buf)/4)...)
	return nil
}

// tclSplit draws a draw whose estimated work passes workShare as the
// equivalent list, in packets of whole primitives whose estimates each
// stay under workShare, flushing between them as reserve decides and
// uploading the vertex arrays again after each flush.
//
// quads, when not nil, is the estimate's charge of each list primitive
// (tclQuads); nil charges each the whole scissor rectangle.
func (c *Context) tclSplit(d *tclDraw, dc *driver.DrawCall, quads func(int) int64) error {
	lo, hi := dc.MinIndex, dc.MaxIndex
	if dc.Indices == nil && dc.First != lo {
		return fmt.Errorf("r300: draw: first vertex %d is not the range's %d", dc.First, lo)
	}
	prim, order := listIndices(dc.Prim, dc.Count)
	idx := make([]int, len(order))
	for i, o := range order {
		idx[i] = dc.VertexIndex(o) - lo
	}
	per := map[driver.Prim]int{driver.PrimPoints: 1, driver.PrimLines: 2, driver.PrimTriangles: 3}[prim]
	idx = idx[:len(idx)/per*per]
	if quads == nil {
		quads = func(int) int64 { return c.quads }
	}
	cp := chipPrim[prim]
	var vb []uint32
	for k := 0; k < len(idx)/per; {
		next, work := packetEnd(k, len(idx)/per, per, maxDrawVerts, quads)
		start, end := k*per, next*per
		k = next
		flushed, err := c.reserve(work)
		if err != nil {
			return err
		}
		if vb == nil || flushed {
			if vb, err = c.tclVertices(d, lo, hi); err != nil {
				return err
			}
		}
		c.packRegs()
		c.s.Packet3(r3.OpLoadVbpntr, vb...)
		for k, v := range vb {
			c.shadow[r3.VAP_VTX_NUM_ARRAYS+4*uint32(k)] = v
		}
		if err := c.drawIndexed(cp, idx[start:end]); err != nil {
			return err
		}
	}
	if c.s.Len() > 64<<10 {
		return c.Flush()
	}
	return nil
}

// outFormat returns VAP_OUT_VTX_FMT_0/1 for a program whose outputs are
// position, an optional point size, n colours and t four-component
// texture coordinate sets, the PVS's output order.
func outFormat(psize bool, colors, texs int) (fmt0, fmt1 uint32) {
	fmt0 = 1
	for k := 0; k < colors; k++ {
		fmt0 |= 2 << k
	}
	if psize {
		fmt0 |= 1 << 16
	}
	for k := 0; k < texs; k++ {
		fmt1 |= 4 << (3 * uint(k))
	}
	return
}
