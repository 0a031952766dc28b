package pspge

import (
	"encoding/binary"
	"fmt"
	"math"

	ge "github.com/retrogl/retrogl/hal/pspge"
	"github.com/retrogl/retrogl/sim/device"
	"github.com/retrogl/retrogl/sim/raster"
)

// subBits is the GE's sub-pixel precision: screen positions are 12.4 fixed
// point (OFFSETX/OFFSETY, seed L289-293).
const subBits = 4

// vertex is one decoded and transformed vertex.
type vertex struct {
	pos   [3]float32
	color [4]float32 // 0..255
	uv    [2]float32
	nrm   [3]float32
	clip  [4]float32
	// Screen position in 12.4 fixed point relative to the drawing origin,
	// depth in 0..65535, colour rounded to 0..255.
	sx, sy int64
	sz     int64
	c      [4]int64
}

func expand5(v uint32) float32 { return float32(v<<3 | v>>2) }
func expand6(v uint32) float32 { return float32(v<<2 | v>>4) }
func expand4(v uint32) float32 { return float32(v * 17) }

// decodeVertex reads vertex data at b (one vertex, all morph targets).
func (g *GE) decodeVertex(vt ge.VType, l *ge.Layout, b []byte, v *vertex) {
	morphs := max(vt.Morphs, 1)
	var mw [8]float32
	if morphs == 1 {
		mw[0] = 1
	} else {
		for i := 0; i < morphs; i++ {
			mw[i] = ge.FromF24(g.regs[ge.MW0+ge.Op(i)])
		}
	}
	through := vt.Through
	*v = vertex{}
	for m := 0; m < morphs; m++ {
		mb := b[m*l.MorphSize:]
		w := mw[m]
		if vt.TexCoord != ge.FmtNone {
			for k := 0; k < 2; k++ {
				v.uv[k] += w * readNum(mb[l.TexOff+k*l.TexSize:], vt.TexCoord, true, through)
			}
		}
		if vt.Color != ge.FmtNone {
			c := readColor(mb[l.ColorOff:], vt.Color)
			for k := 0; k < 4; k++ {
				v.color[k] += w * c[k]
			}
		}
		if vt.Normal != ge.FmtNone {
			for k := 0; k < 3; k++ {
				v.nrm[k] += w * readNum(mb[l.NormalOff+k*l.NrmSize:], vt.Normal, false, through)
			}
		}
		if vt.Pos != ge.FmtNone {
			for k := 0; k < 3; k++ {
				p := readNum(mb[l.PosOff+k*l.PosSize:], vt.Pos, false, through)
				if through && k == 2 && vt.Pos == ge.Fmt16 {
					// Through-mode depth is an unsigned 16-bit value.
					p = float32(binary.LittleEndian.Uint16(mb[l.PosOff+4:]))
				}
				v.pos[k] += w * p
			}
		}
	}
	if vt.Color == ge.FmtNone {
		// [OUT] Without a vertex colour the GE uses the material ambient
		// colour and alpha (pspsdk sceGuColor writes AMC/AMA).
		amc, ama := g.regs[ge.AMC], g.regs[ge.AMA]
		v.color = [4]float32{float32(amc & 0xFF), float32(amc >> 8 & 0xFF), float32(amc >> 16 & 0xFF), float32(ama & 0xFF)}
	}
}

// readNum reads one component. In transform mode 8- and 16-bit values are
// fixed point (positions and normals signed, /128 and /32768; texture
// coordinates and weights unsigned, 0x80 = 1.0 and 0x8000 = 1.0); in
// through mode they are raw integers (guide §2.2 [OUT]).
func readNum(b []byte, format int, unsigned, through bool) float32 {
	switch format {
	case ge.Fmt8:
		if unsigned {
			if through {
				return float32(b[0])
			}
			return float32(b[0]) / 128
		}
		if through {
			return float32(int8(b[0]))
		}
		return float32(int8(b[0])) / 128
	case ge.Fmt16:
		v := binary.LittleEndian.Uint16(b)
		if unsigned {
			if through {
				return float32(v)
			}
			return float32(v) / 32768
		}
		if through {
			return float32(int16(v))
		}
		return float32(int16(v)) / 32768
	case ge.FmtFloat:
		return math.Float32frombits(binary.LittleEndian.Uint32(b))
	}
	return 0
}

// readColor decodes a vertex colour; 16-bit formats have red in the low
// bits and widen by bit replication.
func readColor(b []byte, format int) [4]float32 {
	switch format {
	case ge.Color8888:
		return [4]float32{float32(b[0]), float32(b[1]), float32(b[2]), float32(b[3])}
	case ge.Color5650:
		v := uint32(binary.LittleEndian.Uint16(b))
		return [4]float32{expand5(v & 31), expand6(v >> 5 & 63), expand5(v >> 11 & 31), 255}
	case ge.Color5551:
		v := uint32(binary.LittleEndian.Uint16(b))
		return [4]float32{expand5(v & 31), expand5(v >> 5 & 31), expand5(v >> 10 & 31), float32(v>>15) * 255}
	case ge.Color4444:
		v := uint32(binary.LittleEndian.Uint16(b))
		return [4]float32{expand4(v & 15), expand4(v >> 4 & 15), expand4(v >> 8 & 15), expand4(v >> 12 & 15)}
	}
	return [4]float32{}
}

// mul43 multiplies a 4x3 column-major GE matrix by (p, 1). Each product is
// rounded to float32 explicitly so no fused multiply-add changes the bits on
// any architecture.
func mul43(m *[12]float32, p [3]float32) [3]float32 {
	var out [3]float32
	for r := 0; r < 3; r++ {
		out[r] = float32(float32(float32(m[r]*p[0])+float32(m[3+r]*p[1]))+float32(m[6+r]*p[2])) + m[9+r]
	}
	return out
}

func mul44(m *[16]float32, p [3]float32) [4]float32 {
	var out [4]float32
	for r := 0; r < 4; r++ {
		out[r] = float32(float32(float32(m[r]*p[0])+float32(m[4+r]*p[1]))+float32(m[8+r]*p[2])) + m[12+r]
	}
	return out
}

// transform computes the clip-space position of a vertex (transform mode).
func (g *GE) transform(vt ge.VType, v *vertex) {
	p := mul43(&g.world, v.pos)
	p = mul43(&g.view, p)
	v.clip = mul44(&g.proj, p)
}

// toScreen maps a clip-space vertex through the viewport into 12.4 fixed
// point relative to OFFSETX/OFFSETY. Positions are clamped to ±32768
// pixels so that absurd inputs cannot overflow the rasteriser.
func (g *GE) toScreen(v *vertex) {
	w := v.clip[3]
	inv := 1 / w
	nx, ny, nz := v.clip[0]*inv, v.clip[1]*inv, v.clip[2]*inv
	sx := float32(nx*ge.FromF24(g.regs[ge.XSCALE])) + ge.FromF24(g.regs[ge.XPOS])
	sy := float32(ny*ge.FromF24(g.regs[ge.YSCALE])) + ge.FromF24(g.regs[ge.YPOS])
	sz := float32(nz*ge.FromF24(g.regs[ge.ZSCALE])) + ge.FromF24(g.regs[ge.ZPOS])
	v.sx = fixed(sx) - int64(g.regs[ge.OFFSETX]&0xFFFF)
	v.sy = fixed(sy) - int64(g.regs[ge.OFFSETY]&0xFFFF)
	v.sz = int64(clampF(float64(sz), 0, 65535) + 0.5)
	g.roundColor(v)
}

func (g *GE) throughScreen(v *vertex) {
	v.sx = fixed(v.pos[0])
	v.sy = fixed(v.pos[1])
	v.sz = int64(clampF(float64(v.pos[2]), 0, 65535) + 0.5)
	g.roundColor(v)
}

func (g *GE) roundColor(v *vertex) {
	for k := 0; k < 4; k++ {
		v.c[k] = int64(clampF(float64(v.color[k]), 0, 255) + 0.5)
	}
}

func clampF(v, lo, hi float64) float64 {
	if v != v {
		return lo
	}
	return math.Max(lo, math.Min(hi, v))
}

// fixed converts screen pixels to 12.4 fixed point, rounding to nearest.
func fixed(f float32) int64 {
	return int64(math.Floor(clampF(float64(f), -32768, 32767)*16 + 0.5))
}

// prim executes PRIM: fetch, transform and draw count vertices, then
// advance VADDR or IADDR past the data used (guide §2.1 [OUT]).
func (g *GE) prim(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	count := int(w & 0xFFFF)
	ptype := int(w >> 16 & 7)
	vt := ge.ParseVType(g.regs[ge.VTYPE])
	if vt.Pos == ge.FmtNone {
		return 0, false, x.Fault(pc, uint64(w), "VTYPE has no position")
	}
	if vt.Index == 3 {
		return 0, false, x.Fault(pc, uint64(w), "VTYPE index format 3 is reserved")
	}
	if vt.Color >= 1 && vt.Color <= 3 {
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("VTYPE colour format %d is reserved", vt.Color))
	}
	if count == 0 {
		return pc + 4, false, nil
	}
	l := vt.Layout()
	idx := make([]int, count)
	if vt.Index == ge.FmtNone {
		for i := range idx {
			idx[i] = i
		}
	} else {
		isz := 1 << (vt.Index - 1)
		b, ok := g.mem.Slice(g.iaddr, uint32(count*isz))
		if !ok {
			return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("index buffer %#08x+%d outside memory", g.iaddr, count*isz))
		}
		for i := range idx {
			if isz == 1 {
				idx[i] = int(b[i])
			} else {
				idx[i] = int(binary.LittleEndian.Uint16(b[2*i:]))
			}
		}
	}
	maxI := 0
	for _, i := range idx {
		maxI = max(maxI, i)
	}
	vb, ok := g.mem.Slice(g.vaddr, uint32((maxI+1)*l.Size))
	if !ok {
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("vertex data %#08x+%d outside memory", g.vaddr, (maxI+1)*l.Size))
	}
	verts := make([]vertex, count)
	for i, vi := range idx {
		v := &verts[i]
		g.decodeVertex(vt, &l, vb[vi*l.Size:], v)
		if !vt.Through {
			g.transform(vt, v)
		}
	}
	if vt.Index == ge.FmtNone {
		g.vaddr += uint32(count * l.Size)
	} else {
		g.iaddr += uint32(count << (vt.Index - 1))
	}
	t, err := g.target(x, pc, w)
	if err != nil {
		return 0, false, err
	}
	switch ptype {
	case 3, 4, 5: // triangles, strip, fan
		g.triangles(t, vt, ptype, verts)
	case 6:
		g.sprites(t, vt, verts)
	default:
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("primitive %s is not implemented in the simulator", ge.EnumPrim[ptype]))
	}
	return pc + 4, false, nil
}

// triangles assembles and draws triangles, strips and fans.
func (g *GE) triangles(t *target, vt ge.VType, ptype int, verts []vertex) {
	n := len(verts)
	emit := func(a, b, c *vertex) {
		g.Prims++
		if vt.Through {
			g.drawTriangle(t, a, b, c, c)
			return
		}
		g.clipTriangle(t, a, b, c)
	}
	switch ptype {
	case 3:
		for i := 0; i+2 < n; i += 3 {
			emit(&verts[i], &verts[i+1], &verts[i+2])
		}
	case 4:
		for i := 0; i+2 < n; i++ {
			if i%2 == 0 {
				emit(&verts[i], &verts[i+1], &verts[i+2])
			} else {
				emit(&verts[i+1], &verts[i], &verts[i+2])
			}
		}
	case 5:
		for i := 1; i+1 < n; i++ {
			emit(&verts[0], &verts[i], &verts[i+1])
		}
	}
}

// clipTriangle clips against the near plane (z >= -w) and w > 0 in clip
// space, interpolating every attribute linearly, then draws the resulting
// fan. The provoking (last) vertex keeps the flat colour.
func (g *GE) clipTriangle(t *target, a, b, c *vertex) {
	flat := *c
	in := []vertex{*a, *b, *c}
	planes := []func(v *vertex) float32{
		func(v *vertex) float32 { return v.clip[2] + v.clip[3] },
		func(v *vertex) float32 { return v.clip[3] - 1.0/(1<<20) },
	}
	for _, d := range planes {
		allIn := true
		for i := range in {
			if !(d(&in[i]) >= 0) {
				allIn = false
			}
		}
		if allIn {
			continue
		}
		var out []vertex
		for i := range in {
			p, q := &in[i], &in[(i+1)%len(in)]
			dp, dq := d(p), d(q)
			if dp >= 0 {
				out = append(out, *p)
			}
			if (dp >= 0) != (dq >= 0) {
				s := dp / (dp - dq)
				out = append(out, lerpVertex(p, q, s))
			}
		}
		in = out
		if len(in) < 3 {
			return
		}
	}
	for i := range in {
		g.toScreen(&in[i])
	}
	g.toScreen(&flat)
	for i := 1; i+1 < len(in); i++ {
		g.drawTriangle(t, &in[0], &in[i], &in[i+1], &flat)
	}
}

func lerpVertex(p, q *vertex, s float32) vertex {
	var v vertex
	for k := 0; k < 4; k++ {
		v.clip[k] = p.clip[k] + float32(s*(q.clip[k]-p.clip[k]))
		v.color[k] = p.color[k] + float32(s*(q.color[k]-p.color[k]))
	}
	for k := 0; k < 2; k++ {
		v.uv[k] = p.uv[k] + float32(s*(q.uv[k]-p.uv[k]))
	}
	for k := 0; k < 3; k++ {
		v.nrm[k] = p.nrm[k] + float32(s*(q.nrm[k]-p.nrm[k]))
	}
	return v
}

// sprites draws axis-aligned rectangles from vertex pairs; colour and depth
// come from the second vertex, and a pixel is covered when its centre lies
// in [min, max) on both axes (guide §6 fact 18).
func (g *GE) sprites(t *target, vt ge.VType, verts []vertex) {
	for i := 0; i+1 < len(verts); i += 2 {
		a, b := &verts[i], &verts[i+1]
		if vt.Through {
			g.throughScreen(a)
			g.throughScreen(b)
		} else {
			if a.clip[3] <= 0 || b.clip[3] <= 0 {
				continue
			}
			g.toScreen(a)
			g.toScreen(b)
		}
		g.Prims++
		x0, x1 := min(a.sx, b.sx), max(a.sx, b.sx)
		y0, y1 := min(a.sy, b.sy), max(a.sy, b.sy)
		// Pixel p is covered when x0 <= p*16+8 < x1.
		px0 := int((x0 - 8 + 15) >> subBits)
		px1 := int((x1 - 8 + 15) >> subBits)
		py0 := int((y0 - 8 + 15) >> subBits)
		py1 := int((y1 - 8 + 15) >> subBits)
		r := raster.Rect{X0: px0, Y0: py0, X1: px1, Y1: py1}.Intersect(t.clip)
		for y := r.Y0; y < r.Y1; y++ {
			for xx := r.X0; xx < r.X1; xx++ {
				t.pixel(xx, y, b.sz, b.c)
			}
		}
	}
}

// drawTriangle rasterises one screen-space triangle; flat supplies the
// colour when SHADE is flat.
func (g *GE) drawTriangle(t *target, a, b, c, flat *vertex) {
	tri, ok := raster.Setup(raster.Point{X: a.sx, Y: a.sy}, raster.Point{X: b.sx, Y: b.sy}, raster.Point{X: c.sx, Y: c.sy}, subBits)
	if !ok {
		return
	}
	if g.regs[ge.BCE]&1 != 0 && !t.clear {
		// FFACE 0: clockwise triangles (on the y-down screen) are visible.
		ccwVisible := g.regs[ge.FFACE]&1 != 0
		if tri.CW == ccwVisible {
			return
		}
	}
	smooth := g.regs[ge.SHADE]&1 != 0
	area := tri.Area
	half := area / 2
	tri.Walk(t.clip, func(s *raster.Span) {
		e0, e1, e2 := s.E[0], s.E[1], s.E[2]
		for xx := s.X0; xx < s.X1; xx++ {
			z := (e0*a.sz + e1*b.sz + e2*c.sz + half) / area
			var col [4]int64
			if smooth {
				for k := 0; k < 4; k++ {
					col[k] = (e0*a.c[k] + e1*b.c[k] + e2*c.c[k] + half) / area
				}
			} else {
				col = flat.c
			}
			t.pixel(xx, s.Y, z, col)
			e0 += s.DX[0]
			e1 += s.DX[1]
			e2 += s.DX[2]
		}
	})
}

// bbox executes BBOX: the box is visible when any of its vertices, after
// transform, lies inside the scissor rectangle (guide §5.11 proposal).
func (g *GE) bbox(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	count := int(w & 0xFFFF)
	vt := ge.ParseVType(g.regs[ge.VTYPE])
	l := vt.Layout()
	g.bboxVisible = true
	if count == 0 || vt.Pos == ge.FmtNone || vt.Through {
		return pc + 4, false, nil
	}
	vb, ok := g.mem.Slice(g.vaddr, uint32(count*l.Size))
	if !ok {
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("bounding box %#08x+%d outside memory", g.vaddr, count*l.Size))
	}
	clip := g.scissor()
	visible := false
	for i := 0; i < count; i++ {
		var v vertex
		g.decodeVertex(vt, &l, vb[i*l.Size:], &v)
		g.transform(vt, &v)
		if v.clip[3] <= 0 {
			continue
		}
		g.toScreen(&v)
		px, py := int(v.sx>>subBits), int(v.sy>>subBits)
		if px >= clip.X0 && px < clip.X1 && py >= clip.Y0 && py < clip.Y1 {
			visible = true
		}
	}
	g.bboxVisible = visible
	return pc + 4, false, nil
}

// cload copies the CLUT from CBP into the on-chip CLUT: the argument counts
// 32-byte blocks (guide §2.8 [OUT]; the seed's "colors/8" is wrong for
// 16-bit CLUTs).
func (g *GE) cload(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	n := (w & 0x3F) * 32
	src := (g.regs[ge.CBPH]&0x0F0000)<<8 | g.regs[ge.CBP]&0xFFFFF0
	b, ok := g.mem.Slice(src, n)
	if !ok {
		return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("CLUT %#08x+%d outside memory", src, n))
	}
	copy(g.clut[:], b)
	return pc + 4, false, nil
}

// transfer executes TRXKICK: a raw rectangle copy, 2 or 4 bytes per texel,
// row by row (guide §2.15 [OUT]).
func (g *GE) transfer(x *device.Exec, pc, w uint32) (uint32, bool, error) {
	bpp := uint32(2)
	if w&1 != 0 {
		bpp = 4
	}
	src := g.regs[ge.TRXSBP]&0xFFFFF0 | (g.regs[ge.TRXSBW]&0xFF0000)<<8
	dst := g.regs[ge.TRXDBP]&0xFFFFF0 | (g.regs[ge.TRXDBW]&0xFF0000)<<8
	sw, dw := g.regs[ge.TRXSBW]&0x7F8, g.regs[ge.TRXDBW]&0x7F8
	sx, sy := g.regs[ge.TRXSPOS]&0x3FF, g.regs[ge.TRXSPOS]>>10&0x3FF
	dx, dy := g.regs[ge.TRXDPOS]&0x3FF, g.regs[ge.TRXDPOS]>>10&0x3FF
	tw, th := g.regs[ge.TRXSIZE]&0x3FF+1, g.regs[ge.TRXSIZE]>>10&0x3FF+1
	row := make([]byte, tw*bpp)
	for j := uint32(0); j < th; j++ {
		s, ok := g.mem.Slice(src+((sy+j)*sw+sx)*bpp, tw*bpp)
		if !ok {
			return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("transfer source row %d outside memory", j))
		}
		copy(row, s)
		d, ok := g.mem.Slice(dst+((dy+j)*dw+dx)*bpp, tw*bpp)
		if !ok {
			return 0, false, x.Fault(pc, uint64(w), fmt.Sprintf("transfer destination row %d outside memory", j))
		}
		copy(d, row)
	}
	return pc + 4, false, nil
}
