package pica

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/hal/pica/picasso"
)

// layout is the memory map of a random scene: the target's size, its
// colour and depth buffers, three texture units' data (unit u at tex +
// u*0x10000) and the vertex and index buffers.
type layout struct {
	w, h               int
	fb, z, tex, vb, ib uint32
}

// bytes is the size of a colour or depth buffer (4 bytes a pixel at most).
func (l *layout) bytes() int { return l.w * l.h * 4 }

var (
	// small is the span test's 64x48 target.
	small = layout{w: 64, h: 48, fb: VRAMBase, z: VRAMBase + 0x10000, tex: VRAMBase + 0x20000,
		vb: FCRAMBase + 0x100000, ib: FCRAMBase + 0x180000}
	// wide is a 200x24 target: rows longer than a chunk.
	wide = layout{w: 200, h: 24, fb: VRAMBase, z: VRAMBase + 0x10000, tex: VRAMBase + 0x20000,
		vb: FCRAMBase + 0x100000, ib: FCRAMBase + 0x180000}
	// big is the worker test's 256x160 target: batches large enough to
	// be shared out.
	big = layout{w: 256, h: 160, fb: VRAMBase, z: VRAMBase + 0x40000, tex: VRAMBase + 0x80000,
		vb: FCRAMBase + 0x100000, ib: FCRAMBase + 0x180000}
)

// The random scenes' vertex shader: o0..o4 = v0..v4 (position, colour,
// texture coordinates 0, 1 and 2), written as MOV oK, vK; END.
var passVS = []uint32{0x4C000000, 0x4C201000, 0x4C402000, 0x4C603000, 0x4C804000, 0x88000000}

// Output map of passVS: o2 = tc0 (u, v), o3 = tc1, o4 = tc2.
var passOutmap = []uint32{0x03020100, 0x0B0A0908, 0x1F1F0D0C, 0x1F1F0F0E, 0x1F1F1716}

// sceneVertex is one vertex of a random scene: the five attributes.
type sceneVertex [5][4]float32

// sceneMemory returns random colour, Z and texture memory for a scene on
// l, units texture units of 64 KiB: the buffers' memory up to the next
// buffer (a texture may read past a buffer, and scenes of different
// layouts share devices), the Z buffer half the time cleared to the far
// plane (whole tiles pass).
func sceneMemory(r *rand.Rand, l *layout, units uint32) map[uint32][]byte {
	mem := map[uint32][]byte{}
	rnd := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	mem[l.fb] = rnd(int(l.z - l.fb))
	mem[l.z] = rnd(int(l.tex - l.z))
	if r.IntN(2) == 0 {
		for i := range l.bytes() {
			mem[l.z][i] = 0xFF
		}
	}
	for u := uint32(0); u < units; u++ {
		mem[l.tex+u*0x10000] = rnd(0x10000)
	}
	return mem
}

// passShader writes the pass-through vertex shader (passVS, its entry
// point 0) and its input and output maps (passOutputs).
func passShader(w *p.Writer) {
	w.Write(p.VSH_CODETRANSFER_INDEX, 0)
	w.Rep(p.VSH_CODETRANSFER_DATA0, passVS...)
	w.Write(p.VSH_OPDESCS_INDEX, 0)
	w.Rep(p.VSH_OPDESCS_DATA0, uint32(p.DescIdentity))
	w.Write(p.VSH_ENTRYPOINT, 0)
	passOutputs(w)
}

// passOutputs writes the scenes' vertex input map (four attributes) and
// output map (passOutmap's five outputs).
func passOutputs(w *p.Writer) {
	w.Write(p.VSH_INPUTBUFFER_CONFIG, 0xA0000004)
	w.Write(p.VSH_ATTR_PERM_LOW, 0x43210)
	w.Write(p.VSH_OUTMAP_MASK, 0x1F)
	w.Write(p.SH_OUTMAP_TOTAL, 5)
	w.Seq(p.SH_OUTMAP_O0, passOutmap...)
}

// randomScene builds a command buffer of several draw groups, each with a
// random pixel state (register values the simulator accepts) and a few
// triangles drawn in immediate mode or from vertex arrays. It returns the
// buffer and the memory it expects: random colour, depth and texture data
// and the vertex and index buffers.
func randomScene(r *rand.Rand, l *layout, groups int) (cmd []byte, mem map[uint32][]byte) {
	mem = sceneMemory(r, l, 3)
	var w p.Writer
	randomVS(r, &w)
	passOutputs(&w)
	w.Write(p.FRAMEBUFFER_DIM, uint32(l.w)|uint32(l.h-1)<<12|1<<24)
	var vb []byte
	var ib []byte
	for g := 0; g < groups; g++ {
		randomPixelState(r, l, &w)
		n := 1 + r.IntN(6)
		var verts []sceneVertex
		fz := -r.Float32()*1.1 + 0.05 // the group's one depth
		flatZ := r.IntN(4) == 0       // every triangle at depth fz
		grid := false
		if r.IntN(4) == 0 {
			// Depth 1.0, on a quantisation step (the driver's clears and
			// quads at the far plane): zStep's exact weights at every
			// pixel.
			fz, flatZ = -1, r.IntN(2) == 0
			w.Write(p.DEPTHMAP_SCALE, p.ToF24(-1))
			w.Write(p.DEPTHMAP_OFFSET, 0)
			grid = r.IntN(2) == 0
		} else {
			grid = r.IntN(8) == 0
		}
		if grid {
			// The identity for the shader's matrix (c0-c3), so the
			// snapped positions reach the rasteriser as they are.
			w.Write(p.VSH_FLOATUNIFORM_INDEX, 0)
			for i := 0; i < 4; i++ {
				var v [4]float32
				v[i] = 1
				d := p.PackF24x4(p.ToF24(v[0]), p.ToF24(v[1]), p.ToF24(v[2]), p.ToF24(v[3]))
				w.Rep(p.VSH_FLOATUNIFORM_DATA0, d[0], d[1], d[2])
			}
		}
		for i := 0; i < n; i++ {
			tri := randomTriangle(r, fz, flatZ)
			if grid {
				snapGrid(tri)
			}
			verts = append(verts, tri...)
		}
		mode := uint32(r.IntN(3)) // list, strip, fan
		switch r.IntN(3) {
		case 0: // immediate mode
			w.Write(p.PRIMITIVE_CONFIG, mode<<8|4)
			w.Write(p.RESTART_PRIMITIVE, 1)
			w.Write(p.FIXEDATTRIB_INDEX, 0xF)
			for _, v := range verts {
				for _, a := range v {
					d := p.PackF24x4(p.ToF24(a[0]), p.ToF24(a[1]), p.ToF24(a[2]), p.ToF24(a[3]))
					w.Seq(p.FIXEDATTRIB_DATA0, d[0], d[1], d[2])
				}
			}
		default: // DRAWARRAYS or DRAWELEMENTS from a float vertex buffer
			first := len(vb) / 80
			for _, v := range verts {
				for _, a := range v {
					for _, f := range a {
						vb = binary.LittleEndian.AppendUint32(vb, math.Float32bits(f))
					}
				}
			}
			w.Write(p.ATTRIBBUFFERS_LOC, l.vb>>3)
			w.Write(p.ATTRIBBUFFERS_FMT_LOW, 0xFFFFF)
			w.Write(p.ATTRIBBUFFERS_FMT_HIGH, 4<<28)
			w.Write(p.AttribBuffer(0, 0), 0)
			w.Write(p.AttribBuffer(0, 1), 0x43210)
			w.Write(p.AttribBuffer(0, 2), 80<<16|5<<28)
			for i := 1; i < 12; i++ {
				w.Write(p.AttribBuffer(i, 2), 0)
			}
			w.Write(p.PRIMITIVE_CONFIG, mode<<8|4)
			w.Write(p.RESTART_PRIMITIVE, 1)
			w.Write(p.NUMVERTICES, uint32(len(verts)))
			if r.IntN(2) == 0 {
				w.Write(p.VERTEX_OFFSET, uint32(first))
				w.Write(p.INDEXBUFFER_CONFIG, 0x80000000)
				w.Write(p.DRAWARRAYS, 1)
			} else {
				// 16-bit indices in reverse order, or at random with
				// repeats, through the index buffer's offset from the
				// attribute base.
				off := l.ib - l.vb + uint32(len(ib))
				repeat := r.IntN(2) == 0
				for j := range verts {
					k := len(verts) - 1 - j
					if repeat {
						k = r.IntN(len(verts))
					}
					ib = binary.LittleEndian.AppendUint16(ib, uint16(first+k))
				}
				if len(ib)%4 != 0 {
					ib = append(ib, 0, 0)
				}
				w.Write(p.VERTEX_OFFSET, 0)
				w.Write(p.INDEXBUFFER_CONFIG, 0x80000000|off)
				w.Write(p.DRAWELEMENTS, 1)
			}
		}
	}
	w.Finalize()
	mem[l.vb] = vb
	mem[l.ib] = ib
	return w.Bytes(), mem
}

// The random scenes' other vertex shaders: arithmetic without flow
// control (the vertex batches run it), and the same with an IFU (the
// interpreter runs it). Outputs as passVS's.
const (
	arithVS = `
.proc main
    dp4 o0.x, c0, v0
    dp4 o0.y, c1, v0
    dp4 o0.z, c2, v0
    dp4 o0.w, c3, v0
    mul r0, c4, v1
    mad o1, r0, v1, v1
    max o1.w, v1, r0
    mov o2, v2
    add o3, c5, v3
    mov o4, -v4.yxwz
    end
.end
`
	// earlyVS reads temporaries before writing them (they read 0 in
	// every vertex) and writes some components only (o1.w, which
	// arithVS writes, must read 0 here).
	earlyVS = `
.proc main
    dp4 o0.x, c0, v0
    dp4 o0.y, c1, v0
    dp4 o0.z, c2, v0
    dp4 o0.w, c3, v0
    add o1.xyz, r1, v1
    mov r1, c5
    mov r0.x, v2
    add o2, r0, v2
    mul r3.yz, c4, v3
    add o3, r3.zyxw, v3
    mov o4.xy, r1
    end
.end
`
	flowVS = `
.proc main
    dp4 o0.x, c0, v0
    dp4 o0.y, c1, v0
    dp4 o0.z, c2, v0
    dp4 o0.w, c3, v0
    mul r0, c4, v1
    ifu b1
        mad o1, r0, v1, v1
    .else
        mov o1, v1
    .end
    mov o2, v2
    add o3, c5, v3
    mov o4, -v4.yxwz
    end
.end
`
)

// randomVS uploads one of the vertex shaders and its uniforms: c0-c3 a
// matrix near the identity, c4 a scale, c5 an offset, b1 a flag.
func randomVS(r *rand.Rand, w *p.Writer) {
	code, descs := passVS, []uint32{uint32(p.DescIdentity)}
	if k := r.IntN(4); k > 0 {
		src := arithVS
		switch k {
		case 2:
			src = flowVS
		case 3:
			src = earlyVS
		}
		sb, err := picasso.Assemble(src)
		if err != nil {
			panic(err)
		}
		code, descs = sb.Code, sb.Opdescs
	}
	w.Write(p.VSH_CODETRANSFER_INDEX, 0)
	w.Rep(p.VSH_CODETRANSFER_DATA0, code...)
	w.Write(p.VSH_OPDESCS_INDEX, 0)
	w.Rep(p.VSH_OPDESCS_DATA0, descs...)
	w.Write(p.VSH_ENTRYPOINT, 0)
	w.Write(p.VSH_BOOLUNIFORM, uint32(r.IntN(2))<<1)
	w.Write(p.VSH_FLOATUNIFORM_INDEX, 0)
	var f []uint32
	for i := 0; i < 6; i++ {
		var v [4]float32
		for c := range v {
			switch {
			case i < 4 && c == i:
				v[c] = 1 + (r.Float32()-0.5)*0.1
			case i < 4:
				v[c] = (r.Float32() - 0.5) * 0.1
			case i == 4:
				v[c] = 0.5 + r.Float32()
			default:
				v[c] = r.Float32() - 0.5
			}
		}
		d := p.PackF24x4(p.ToF24(v[0]), p.ToF24(v[1]), p.ToF24(v[2]), p.ToF24(v[3]))
		f = append(f, d[0], d[1], d[2])
	}
	w.Rep(p.VSH_FLOATUNIFORM_DATA0, f...)
}

// randomTriangle returns three vertices in clip space: mostly inside the
// view volume, some crossing it (clipping), some with perspective w, some
// small. A triangle of one depth (some, or all when flatZ) has depth fz
// (the group's: overlapping triangles then meet the depths they wrote,
// the edge of every depth test).
func randomTriangle(r *rand.Rand, fz float32, flatZ bool) []sceneVertex {
	out := make([]sceneVertex, 3)
	cx, cy := r.Float32()*2.4-1.2, r.Float32()*2.4-1.2
	size := float32(2.5)
	if r.IntN(3) == 0 {
		size = 0.1
	}
	persp := r.IntN(3) == 0
	// Some triangles have one depth (a flat colour too makes every
	// pixel's inputs constant: shadeRow's constant path).
	flatZ = flatZ || r.IntN(4) == 0
	for i := range out {
		w := float32(1)
		if persp {
			w = 0.4 + 2.5*r.Float32()
		}
		x := cx + size*(r.Float32()-0.5)
		y := cy + size*(r.Float32()-0.5)
		z := -r.Float32()*1.1 + 0.05
		if flatZ {
			z = fz
		}
		out[i][0] = [4]float32{x * w, y * w, z * w, w}
		out[i][1] = [4]float32{r.Float32()*1.4 - 0.2, r.Float32()*1.4 - 0.2, r.Float32()*1.4 - 0.2, r.Float32()*1.4 - 0.2}
		for k := 2; k < 5; k++ {
			out[i][k] = [4]float32{r.Float32()*5 - 2, r.Float32()*5 - 2, 0, 1}
		}
	}
	if r.IntN(4) == 0 { // one flat colour
		out[1][1], out[2][1] = out[0][1], out[0][1]
	}
	if !persp && r.IntN(3) == 0 {
		// Half a screen-aligned quad: a vertical edge (its value at a
		// column is the same in every row: zStep's weight cache hits) and
		// a horizontal one (constant along a row).
		out[1][0][0], out[2][0][1] = out[0][0][0], out[0][0][1]
		switch r.IntN(4) {
		case 0, 1: // one t along a row (the fused textured chunk)
			for k := 2; k < 5; k++ {
				out[2][k][1] = out[0][k][1]
			}
		case 2:
			// One t in the triangle, at the middle of a texel row of a
			// texture up to 64 high: the bilinear row coordinate
			// t*h*256 - 128 is an integer, the fused textured chunk's
			// exact fallback for t.
			tc := (float32(r.IntN(64)) + 0.5) / 64
			for i := range out {
				out[i][2][1] = tc
			}
		}
	}
	return out
}

// snapGrid moves the triangle's vertices of w 1 to multiples of 1/4 in
// clip space inside the view (8 pixels on the small target, no
// clipping), as a full-screen quad's are: the exact depth's weight
// tables (wtab.go) then serve its edges. Its colours become 0, 1/2 or 1,
// as fill-gouraud's are: their interpolation meets rounding steps
// exactly (the exact colour's pixels).
func snapGrid(tri []sceneVertex) {
	for i := range tri {
		if p := &tri[i][0]; p[3] == 1 {
			p[0] = float32(max(-4, min(4, math.Round(float64(p[0])*4)))) / 4
			p[1] = float32(max(-4, min(4, math.Round(float64(p[1])*4)))) / 4
		}
		for k, c := range tri[i][1] {
			tri[i][1][k] = float32(max(0, min(2, math.Round(float64(c)*2)))) / 2
		}
	}
}

// randomPixelState writes a random pixel pipeline: every register the
// rasteriser, texture units, combiners, fog and fragment operations read,
// each drawn from the values the simulator accepts, with the common
// shapes (MODULATE, SRC_ALPHA blending, RGBA8 repeat bilinear textures)
// made likely.
func randomPixelState(r *rand.Rand, l *layout, w *p.Writer) {
	pick := func(vs ...uint32) uint32 { return vs[r.IntN(len(vs))] }
	bit := func(pct int) uint32 {
		if r.IntN(100) < pct {
			return 1
		}
		return 0
	}
	w.Write(p.COLORBUFFER_FORMAT, pick(0, 0, 0, 1, 2, 3, 4)<<16)
	w.Write(p.DEPTHBUFFER_FORMAT, pick(0, 2, 3, 3))
	w.Write(p.COLORBUFFER_READ, pick(0, 0xF, 0xF))
	w.Write(p.COLORBUFFER_WRITE, pick(0, 0xF, 0xF, 0xF))
	w.Write(p.DEPTHBUFFER_READ, uint32(r.IntN(4)))
	w.Write(p.DEPTHBUFFER_WRITE, uint32(r.IntN(4)))
	w.Write(p.COLORBUFFER_LOC, l.fb>>3)
	zloc := l.z
	if bit(5) == 1 { // the depth buffer overlaps the colour buffer
		zloc = l.fb + 8*uint32(r.IntN(64))
	}
	w.Write(p.DEPTHBUFFER_LOC, zloc>>3)
	w.Write(p.VIEWPORT_WIDTH, p.ToF24(float32(l.w)/2))
	w.Write(p.VIEWPORT_HEIGHT, p.ToF24(float32(l.h)/2))
	vx, vy := 0, 0
	if bit(20) == 1 {
		vx, vy = r.IntN(9)-4, r.IntN(9)-4
	}
	w.Write(p.VIEWPORT_XY, uint32(vx)&0x3FF|(uint32(vy)&0x3FF)<<16)
	w.Write(p.DEPTHMAP_ENABLE, pick(1, 1, 1, 0))
	w.Write(p.DEPTHMAP_SCALE, p.ToF24(float32(pick(0, 1, 2, 3))*0.5-1+float32(bit(20))*r.Float32()))
	w.Write(p.DEPTHMAP_OFFSET, p.ToF24(float32(bit(30))*r.Float32()))
	w.Write(p.FACECULLING_CONFIG, pick(0, 0, 0, 1, 2))
	w.Write(p.SCISSORTEST_MODE, pick(0, 0, 0, 1, 3))
	w.Write(p.SCISSORTEST_POS, uint32(r.IntN(l.w))|uint32(r.IntN(l.h))<<16)
	w.Write(p.SCISSORTEST_DIM, uint32(r.IntN(l.w+8))|uint32(r.IntN(l.h+8))<<16)
	w.Write(p.FRAGOP_CLIP, bit(10))
	for i := 0; i < 4; i++ {
		w.Write(p.FRAGOP_CLIP_DATA0+p.Reg(i), p.ToF24(r.Float32()*2-1))
	}

	cfg := uint32(r.IntN(8)) | bit(30)<<13 | 1<<12
	if bit(40) == 1 {
		cfg = cfg&^7 | 1
	}
	w.Write(p.TEXUNIT_CONFIG, cfg)
	regs := [3][6]p.Reg{
		{p.TEXUNIT0_DIM, p.TEXUNIT0_PARAM, p.TEXUNIT0_LOD, p.TEXUNIT0_ADDR1, p.TEXUNIT0_TYPE, p.TEXUNIT0_BORDER},
		{p.TEXUNIT1_DIM, p.TEXUNIT1_PARAM, p.TEXUNIT1_LOD, p.TEXUNIT1_ADDR, p.TEXUNIT1_TYPE, p.TEXUNIT1_BORDER},
		{p.TEXUNIT2_DIM, p.TEXUNIT2_PARAM, p.TEXUNIT2_LOD, p.TEXUNIT2_ADDR, p.TEXUNIT2_TYPE, p.TEXUNIT2_BORDER},
	}
	for u := 0; u < 3; u++ {
		sizes := []uint32{8, 16, 32, 64, 24, 40}
		tw, th := sizes[r.IntN(len(sizes))], sizes[r.IntN(len(sizes))]
		param := bit(70)<<1 | bit(70)<<2 | uint32(r.IntN(8))<<8 | uint32(r.IntN(8))<<12 | bit(30)<<24
		format := uint32(r.IntN(14))
		lod := uint32(0)
		if bit(30) == 1 {
			lod = r.Uint32()&0x1FFF | uint32(r.IntN(5))<<16 | uint32(r.IntN(3))<<24
		}
		if bit(50) == 1 { // the fast shape: RGBA8, bilinear, repeat, one level
			f := pick(0, 1, 1) // nearest or bilinear
			format, param, lod = 0, f<<1|f<<2|2<<8|2<<12, 0
			tw, th = pick(8, 16, 32, 64), pick(8, 16, 32, 64)
		}
		w.Write(regs[u][0], th|tw<<16)
		w.Write(regs[u][1], param)
		w.Write(regs[u][2], lod)
		addr := l.tex + uint32(u)*0x10000
		if bit(3) == 1 { // the texture is the colour buffer
			addr = l.fb
		}
		w.Write(regs[u][3], addr>>3)
		w.Write(regs[u][4], format)
		w.Write(regs[u][5], r.Uint32())
	}

	srcs := []uint32{0, 3, 4, 5, 13, 14, 15, 1, 2, 0, 3, 15}
	rgbOps := []uint32{0, 1, 2, 3, 4, 5, 8, 9, 12, 13, 0, 0, 6}
	shape := r.IntN(4)
	for s := 0; s < 6; s++ {
		var src, op, fn, scale uint32
		switch {
		case shape == 0 && s == 0: // MODULATE texture 0 and the primary colour
			src, fn = pick(3|0<<4, 0|3<<4, 15|3<<4)|pick(3|0<<4, 15|3<<4)<<16, 1|1<<16
		case shape == 1 && s == 0: // REPLACE with the primary colour, a texture or the constant
			src = pick(0, 15, 14, 3, 4, 5) | pick(0, 15, 14, 3, 4, 5)<<16
		case shape <= 1: // pass
			src = 0x000F000F
		default:
			for k := 0; k < 3; k++ {
				src |= srcs[r.IntN(len(srcs))]<<(4*k) | srcs[r.IntN(len(srcs))]<<(16+4*k)
				op |= rgbOps[r.IntN(len(rgbOps))]<<(4*k) | uint32(r.IntN(8))<<(12+4*k)
			}
			fn = uint32(r.IntN(11)) | uint32(r.IntN(11))<<16
			scale = uint32(r.IntN(4)) | uint32(r.IntN(4))<<16
			if bit(40) == 1 {
				src, op, fn, scale = 0x000F000F, 0, 0, 0
			}
		}
		w.Write(p.TexEnv(s, 0), src)
		w.Write(p.TexEnv(s, 1), op)
		w.Write(p.TexEnv(s, 2), fn)
		w.Write(p.TexEnv(s, 3), r.Uint32())
		w.Write(p.TexEnv(s, 4), scale)
	}
	w.Write(p.TEXENV_UPDATE_BUFFER, pick(0, 0, 5, 5, 7)|uint32(r.IntN(256))<<8|bit(50)<<16)
	w.Write(p.TEXENV_BUFFER_COLOR, r.Uint32())
	w.Write(p.FOG_COLOR, r.Uint32())
	w.Write(p.FOG_LUT_INDEX, 0)
	lut := make([]uint32, 128)
	for i := range lut {
		lut[i] = r.Uint32() & 0xFFFFFF
	}
	w.Rep(p.FOG_LUT_DATA0, lut...)

	at := uint32(0)
	if bit(30) == 1 {
		at = 1 | uint32(r.IntN(8))<<4 | uint32(r.IntN(256))<<8
	}
	w.Write(p.FRAGOP_ALPHA_TEST, at)
	st := uint32(0)
	if bit(30) == 1 {
		st = 1 | uint32(r.IntN(8))<<4 | uint32(r.IntN(256))<<8 | uint32(r.IntN(256))<<16 | uint32(r.IntN(256))<<24
	}
	w.Write(p.STENCIL_TEST, st)
	w.Write(p.STENCIL_OP, r.Uint32()&0xFFF)
	dcm := bit(60) | uint32(r.IntN(8))<<4 | pick(0xF, 0xF, 0xF, 0, uint32(r.IntN(16)))<<8 | bit(60)<<12
	if bit(30) == 1 {
		dcm = 1 | 5<<4 | 0xF<<8 | 1<<12 // LEQUAL, write, full mask
	}
	w.Write(p.DEPTH_COLOR_MASK, dcm)
	w.Write(p.COLOR_OPERATION, 0x00E40000|bit(80)<<8)
	bf := r.Uint32()&0xFFFF0000 | uint32(r.IntN(8)) | uint32(r.IntN(8))<<8
	switch r.IntN(5) {
	case 0, 1:
		bf = 0x76760000 // SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD
	case 2:
		bf = 0x01010000 // ONE, ZERO, ADD
	}
	w.Write(p.BLEND_FUNC, bf)
	w.Write(p.BLEND_COLOR, r.Uint32())
	w.Write(p.LOGIC_OP, uint32(r.IntN(16)))
	if bit(40) == 1 {
		fusedShape(r, w, dcm)
	} else if bit(40) == 1 {
		texShape(r, l, w, dcm)
	}
}

// fusedShape rewrites the registers of a random pixel state so that it
// takes the fused Gouraud path (fused.go), but for the depth and stencil
// state, which stay random: the primary colour unchanged through the
// combiners (every stage passing, or stage 0 the primary colour) or
// stage 0 the constant colour, no
// alpha test, no fog, copied into RGBA8 under a full mask. dcm is the
// state's DEPTH_COLOR_MASK (its depth function is drawn again half the
// time: the state's is LEQUAL a third of the time).
func fusedShape(r *rand.Rand, w *p.Writer, dcm uint32) {
	w.Write(p.COLORBUFFER_FORMAT, 0)
	w.Write(p.COLORBUFFER_WRITE, 0xF)
	w.Write(p.FRAGOP_ALPHA_TEST, 0)
	w.Write(p.TEXENV_UPDATE_BUFFER, uint32(r.IntN(256))<<8)
	for s := 0; s < 6; s++ {
		src := uint32(0x000F000F)
		if s == 0 {
			src = []uint32{src, 0, 0x000E000E}[r.IntN(3)] // pass, primary, constant
		}
		w.Write(p.TexEnv(s, 0), src)
		w.Write(p.TexEnv(s, 1), 0)
		w.Write(p.TexEnv(s, 2), 0)
		w.Write(p.TexEnv(s, 4), 0)
	}
	fusedDepth(r, w, dcm)
	w.Write(p.COLOR_OPERATION, 0x00E40100)
	w.Write(p.BLEND_FUNC, 0x01010000)
}

// fusedDepth writes the fused shapes' depth state: the state's
// DEPTH_COLOR_MASK dcm with, half the time, a depth test of any function
// and writes, and half the time a D16 or D24S8 buffer with no stencil
// test.
func fusedDepth(r *rand.Rand, w *p.Writer, dcm uint32) {
	if r.IntN(2) == 0 { // a depth test of any function, and writes
		dcm = dcm&^0x70 | uint32(r.IntN(8))<<4 | 1 | 1<<12
		w.Write(p.DEPTHBUFFER_WRITE, 3)
	}
	w.Write(p.DEPTH_COLOR_MASK, dcm|0xF<<8)
	if r.IntN(2) == 0 { // D16 or D24S8, no stencil test
		w.Write(p.DEPTHBUFFER_FORMAT, uint32(r.IntN(2))*3)
		w.Write(p.STENCIL_TEST, 0)
	}
}

// sceneDevice returns a device for random scenes, with the reference
// per-pixel path or the fast one and the given worker count. Devices are
// reused from scene to scene: every scene writes all the state it reads.
func sceneDevice(t testing.TB, reference bool, workers int) *Device {
	d := New()
	t.Cleanup(func() { d.Close() })
	setReference(d, reference)
	d.SetWorkers(workers)
	return d
}

// requireSameScene renders cmd over mem on ref and on fast and requires
// the same fault, counters, colour bytes and depth bytes; what names the
// case in a failure.
func requireSameScene(t *testing.T, ref, fast *Device, l *layout, cmd []byte, mem map[uint32][]byte, what string) {
	t.Helper()
	fbRef, zRef, cRef, errRef := renderRandomScene(t, ref, l, cmd, mem)
	fb, z, c, err := renderRandomScene(t, fast, l, cmd, mem)
	require.Equal(t, errRef, err, what)
	require.Equal(t, cRef, c, "%s: pixels and triangles", what)
	require.True(t, bytes.Equal(fbRef, fb), "%s: colour buffer differs at byte %d", what, firstDiff(fbRef, fb))
	require.True(t, bytes.Equal(zRef, z), "%s: depth buffer differs at byte %d", what, firstDiff(zRef, z))
}

// renderRandomScene runs a scene on d and returns the colour and depth
// buffers, the pixels and triangles it drew and the submission's error.
func renderRandomScene(t testing.TB, d *Device, l *layout, cmd []byte, mem map[uint32][]byte) ([]byte, []byte, [2]int64, error) {
	for addr, b := range mem {
		require.NoError(t, d.Write(addr, b))
	}
	a, err := d.Alloc(uint32(len(cmd)), 16, "fcram")
	require.NoError(t, err)
	defer d.Free(a)
	require.NoError(t, d.Write(a.Addr, cmd))
	px, tris := d.GPU.Pixels, d.GPU.Triangles
	f, err := d.Submit(hal.Buffer{Addr: a.Addr, Size: uint32(len(cmd))})
	require.NoError(t, err)
	runErr := d.Wait(f)
	fb := make([]byte, l.bytes())
	z := make([]byte, l.bytes())
	require.NoError(t, d.Read(l.fb, fb))
	require.NoError(t, d.Read(l.z, z))
	return fb, z, [2]int64{d.GPU.Pixels - px, d.GPU.Triangles - tris}, runErr
}

// TestSpanPathMatchesReference renders random scenes through the fast
// span pipeline and through the per-pixel reference path and compares
// every byte of the colour and depth buffers and the counters (a quarter
// of them on the wide target).
func TestSpanPathMatchesReference(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	seedsMatchReference(t, n, 1, 4, 6, randomScene)
}

// seedsMatchReference renders n scenes of gen (seeds 0..n-1 of PCG
// stream, up to groups groups each, every wideEvery-th on the wide
// target) through the per-pixel reference and, alternately, the span
// pipeline with one and three workers, and compares every byte
// (requireSameScene).
func seedsMatchReference(t *testing.T, n int, stream, wideEvery uint64, groups int, gen func(*rand.Rand, *layout, int) ([]byte, map[uint32][]byte)) {
	t.Helper()
	ref := sceneDevice(t, true, 1)
	fast := []*Device{sceneDevice(t, false, 1), sceneDevice(t, false, 3)}
	for seed := uint64(0); seed < uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, stream))
		l := &small
		if seed%wideEvery == wideEvery-1 {
			l = &wide
		}
		cmd, mem := gen(r, l, 1+r.IntN(groups))
		requireSameScene(t, ref, fast[seed%2], l, cmd, mem, fmt.Sprintf("seed %d", seed))
	}
}

// TestSpanPathMatchesReferenceWideMargins is TestSpanPathMatchesReference
// with the stepper's margins widened (stepForce), so that many stepped
// pixels take the exact fallback.
func TestSpanPathMatchesReferenceWideMargins(t *testing.T) {
	t.Cleanup(func() { stepForce = 0 })
	for _, force := range []uint32{1 << 12, 1 << 18, 1 << 29} {
		stepForce = force
		ref := sceneDevice(t, true, 1)
		fast := sceneDevice(t, false, 2)
		for seed := uint64(0); seed < 20; seed++ {
			r := rand.New(rand.NewPCG(seed, 3))
			cmd, mem := randomScene(r, &small, 1+r.IntN(6))
			requireSameScene(t, ref, fast, &small, cmd, mem, fmt.Sprintf("force %#x seed %d", force, seed))
		}
	}
}

// TestWorkersSameBytes renders random scenes on a 256x160 target with 1,
// 2, 3 and 8 workers, through both paths, and compares every byte.
func TestWorkersSameBytes(t *testing.T) {
	devs := map[bool][]*Device{}
	for _, ref := range []bool{false, true} {
		for _, n := range []int{1, 2, 3, 8} {
			devs[ref] = append(devs[ref], sceneDevice(t, ref, n))
		}
	}
	for seed := uint64(0); seed < 12; seed++ {
		r := rand.New(rand.NewPCG(seed, 2))
		cmd, mem := randomScene(r, &big, 2+r.IntN(4))
		for _, ref := range []bool{false, true} {
			fb1, z1, c1, err1 := renderRandomScene(t, devs[ref][0], &big, cmd, mem)
			for i, n := range []int{2, 3, 8} {
				fb, z, c, err := renderRandomScene(t, devs[ref][i+1], &big, cmd, mem)
				require.Equal(t, err1, err, "seed %d, %d workers", seed, n)
				require.Equal(t, c1, c, "seed %d, %d workers", seed, n)
				require.True(t, bytes.Equal(fb1, fb), "seed %d, %d workers: colour differs at byte %d", seed, n, firstDiff(fb1, fb))
				require.True(t, bytes.Equal(z1, z), "seed %d, %d workers: depth differs at byte %d", seed, n, firstDiff(z1, z))
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// setReference selects the per-pixel reference path on d.
func setReference(d *Device, on bool) { d.GPU.reference = on }

// TestFastRounding checks q8Fast against q8 and floorFast against
// floorInt on the values where they could part: every rounding boundary
// of q8 and its float64 neighbours, integers and halves with theirs, the
// clamps, infinities and NaN, and random values.
func TestFastRounding(t *testing.T) {
	var vals []float64
	near := func(x float64) {
		vals = append(vals, x, math.Nextafter(x, math.Inf(1)), math.Nextafter(x, math.Inf(-1)))
	}
	for k := 0; k <= 256; k++ {
		near((float64(k) + 0.5) / 255)
		near(float64(k) / 255)
	}
	for k := -2000; k <= 2000; k++ {
		near(float64(k))
		near(float64(k) + 0.5)
	}
	for _, x := range []float64{0, 1, 0.49999999999999994, 1 << 30, -1 << 30, 1<<30 + 0.5, -1<<30 - 0.5, 1e300, -1e300,
		math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64} {
		near(x)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		vals = append(vals, r.Float64(), (r.Float64()-0.5)*1e4, (r.Float64()-0.5)*3e9)
	}
	for _, v := range vals {
		require.Equal(t, q8(v), q8Fast(v), "q8(%v)", v)
		require.Equal(t, floorInt(v), floorFast(v), "floor(%v)", v)
	}
}

// benchScene is the standard fill-tex-blend scene (DESIGN.md) as one
// command buffer at 400x240: 8 full-screen quads with per-vertex colours
// of alpha 0.8, texture coordinates 0..2 on a 256x256 RGBA8 texture
// (bilinear, repeat), MODULATE, SRC_ALPHA blending and LEQUAL depth. tex
// false draws the fill-gouraud variant.
func benchScene(b testing.TB, tex bool) (*Device, []byte) {
	const w, h = 400, 240
	d := New()
	b.Cleanup(func() { d.Close() })
	l := layout{w: w, h: h, fb: VRAMBase, z: VRAMBase + 0x80000, tex: VRAMBase + 0x100000}
	texels := make([]byte, 256*256*4)
	for y := 0; y < 256; y++ {
		for x := 0; x < 256; x++ {
			c := [4]byte{200, 0, byte(y), byte(x)} // A, B, G, R
			if (x>>4^y>>4)&1 != 0 {
				c[1] = 255
			}
			copy(texels[4*p.TileOffset(x, 255-y, 256):], c[:])
		}
	}
	require.NoError(b, d.Write(l.tex, texels))
	var wr p.Writer
	passShader(&wr)
	wr.Write(p.FRAMEBUFFER_DIM, w|(h-1)<<12|1<<24)
	wr.Write(p.COLORBUFFER_FORMAT, 0)
	wr.Write(p.DEPTHBUFFER_FORMAT, 0)
	wr.Write(p.COLORBUFFER_READ, 0xF)
	wr.Write(p.COLORBUFFER_WRITE, 0xF)
	wr.Write(p.DEPTHBUFFER_READ, 3)
	wr.Write(p.DEPTHBUFFER_WRITE, 3)
	wr.Write(p.COLORBUFFER_LOC, l.fb>>3)
	wr.Write(p.DEPTHBUFFER_LOC, l.z>>3)
	wr.Write(p.VIEWPORT_WIDTH, p.ToF24(w/2))
	wr.Write(p.VIEWPORT_HEIGHT, p.ToF24(h/2))
	wr.Write(p.DEPTHMAP_ENABLE, 1)
	wr.Write(p.DEPTHMAP_SCALE, p.ToF24(-1))
	if tex {
		wr.Write(p.TEXUNIT_CONFIG, 1<<12|1)
	} else {
		wr.Write(p.TEXUNIT_CONFIG, 1<<12)
	}
	wr.Write(p.TEXUNIT0_DIM, 256|256<<16)
	wr.Write(p.TEXUNIT0_PARAM, 1<<1|1<<2|2<<8|2<<12)
	wr.Write(p.TEXUNIT0_ADDR1, l.tex>>3)
	wr.Write(p.TEXUNIT0_TYPE, 0)
	env := uint32(15 | 3<<4 | 15<<16 | 3<<20) // previous x texture 0
	fn := uint32(1 | 1<<16)
	if !tex {
		env, fn = 15|15<<16, 0
	}
	wr.Write(p.TexEnv(0, 0), env)
	wr.Write(p.TexEnv(0, 2), fn)
	for s := 1; s < 6; s++ {
		wr.Write(p.TexEnv(s, 0), 0x000F000F)
	}
	wr.Write(p.DEPTH_COLOR_MASK, 1|5<<4|0xF<<8|1<<12)
	wr.Write(p.COLOR_OPERATION, 0x00E40100)
	if tex {
		wr.Write(p.BLEND_FUNC, 0x76760000)
	} else {
		wr.Write(p.BLEND_FUNC, 0x01010000)
	}
	wr.Write(p.PRIMITIVE_CONFIG, 0<<8|4)
	colors := [4][4]float32{{1, 0, 0, 0.8}, {0, 1, 0, 0.8}, {0, 0, 1, 0.8}, {1, 1, 1, 0.8}}
	corners := [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
	for q := 0; q < 8; q++ {
		z := 1 - 1.8*float32(q)/8
		wr.Write(p.RESTART_PRIMITIVE, 1)
		wr.Write(p.FIXEDATTRIB_INDEX, 0xF)
		for _, k := range []int{0, 1, 2, 0, 2, 3} {
			c := corners[k]
			attrs := [5][4]float32{{c[0], c[1], -(z + 1) / 2, 1}, colors[k], {c[0] + 1, c[1] + 1, 0, 1}, {}, {}}
			for _, a := range attrs {
				pk := p.PackF24x4(p.ToF24(a[0]), p.ToF24(a[1]), p.ToF24(a[2]), p.ToF24(a[3]))
				wr.Seq(p.FIXEDATTRIB_DATA0, pk[0], pk[1], pk[2])
			}
		}
	}
	wr.Finalize()
	return d, wr.Bytes()
}

func benchFill(b *testing.B, tex bool) {
	d, cmd := benchScene(b, tex)
	a, err := d.Alloc(uint32(len(cmd)), 16, "fcram")
	require.NoError(b, err)
	require.NoError(b, d.Write(a.Addr, cmd))
	clear := make([]byte, 400*240*2)
	for i := range clear {
		clear[i] = 0xFF
	}
	run := func() {
		require.NoError(b, d.Write(VRAMBase+0x80000, clear)) // depth 1.0
		f, err := d.Submit(hal.Buffer{Addr: a.Addr, Size: uint32(len(cmd))})
		require.NoError(b, err)
		require.NoError(b, d.Wait(f))
	}
	d.SetWorkers(1)
	run()
	b.ResetTimer()
	c0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		run()
	}
	cpu := cpuSeconds() - c0
	b.ReportMetric(float64(8*400*240*b.N)/b.Elapsed().Seconds()/1e6, "Mpix/s")
	b.ReportMetric(1000*cpu/float64(b.N), "cpu-ms/op")
}

// cpuSeconds is the process's CPU time: on a loaded machine a steadier
// measure than the wall clock.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// BenchmarkFillTexBlend shades the fill-tex-blend scene's 8 quads on one
// worker, the simulator alone.
func BenchmarkFillTexBlend(b *testing.B) { benchFill(b, true) }

// BenchmarkFillGouraud shades the fill-gouraud scene's 8 quads.
func BenchmarkFillGouraud(b *testing.B) { benchFill(b, false) }

// TestDepthRange checks the fused path's depth test as an interval
// against cmpFunc for every function, at depths and stored values around
// 0, the middle and the top of 4-, 16- and 24-bit ranges.
func TestDepthRange(t *testing.T) {
	for _, top := range []uint32{15, 0xFFFF, 0xFFFFFF} {
		var vals []uint32
		for _, c := range []uint32{0, top / 2, top} {
			for d := uint32(0); d < 5; d++ {
				vals = append(vals, min(top, max(c, 2)-2+d))
			}
		}
		for fn := uint32(0); fn < 8; fn++ {
			for _, z := range vals {
				lo, span, ok := depthRange(fn, z, top)
				for _, d := range vals {
					got := ok && (d-lo)&top <= span
					require.Equal(t, cmpFunc(fn, z, d), got, "top %#x fn %d z %d d %d", top, fn, z, d)
				}
			}
		}
	}
}

// TestCmpMask checks the fused path's compare as a mask against cmpFunc.
func TestCmpMask(t *testing.T) {
	for f := uint32(0); f < 8; f++ {
		for _, a := range []uint32{0, 1, 2, 0xFFFFFF} {
			for _, b := range []uint32{0, 1, 2, 0xFFFFFF} {
				require.Equal(t, cmpFunc(f, a, b), cmpMask[f]>>cmpIndex(a, b)&1 != 0, "f %d a %d b %d", f, a, b)
			}
		}
	}
}

// TestDepthTiles checks the fused path's whole-tile depth runs (tiles16,
// tiles32) against its pixel-at-a-time run: two random tile rows of
// stored values at and around the depth, every function, with and
// without the write; a tile row where some pixel fails runs pixel by
// pixel, and must not have written first.
func TestDepthTiles(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	offs := []int32{0, 1, 4, 5, 16, 17, 20, 21, 64, 65, 68, 69, 80, 81, 84, 85}
	fell := 0
	for _, kind := range []int{zD16, zD24S8} {
		top, bpp := uint32(0xFFFF), 2
		if kind == zD24S8 {
			top, bpp = 0xFFFFFF, 4
		}
		for k := 0; k < 4000; k++ {
			z := []uint32{0, 1, top / 2, top - 1, top, r.Uint32() & top}[r.IntN(6)]
			lo, span, ok := depthRange(uint32(r.IntN(8)), z, top)
			if !ok {
				continue
			}
			buf := make([]byte, 88*bpp)
			for i := range buf {
				buf[i] = byte(r.Uint32())
			}
			// A quarter of the tests store one value in each tile row
			// (tiles16's row of one value, tested once and remembered
			// for the next row when it passes).
			var one [2]uint32
			uniform := r.IntN(4) == 0
			for j := range one {
				one[j] = []uint32{z - 1, z, z + 1, 0, top, r.Uint32()}[r.IntN(6)] & top
			}
			for i, o := range offs {
				v := []uint32{z - 1, z, z + 1, 0, top, r.Uint32()}[r.IntN(6)] & top
				if r.IntN(8) > 0 { // mostly one value: whole tiles pass
					v = []uint32{z, top}[r.IntN(2)]
				}
				if uniform {
					v = one[i/8]
				}
				if kind == zD16 {
					binary.LittleEndian.PutUint16(buf[2*o:], uint16(v))
				} else {
					binary.LittleEndian.PutUint32(buf[4*o:], binary.LittleEndian.Uint32(buf[4*o:])&^top|v)
				}
			}
			want := bytes.Clone(buf)
			zr := depthRun{lo: lo, span: span, top: top, z: z, write: r.IntN(4) > 0, zb: want}
			wantPass := zr.pixels(offs, kind)
			zr.zb = buf
			var got uint64
			if kind == zD16 {
				got = zr.tiles16(offs)
			} else {
				got = zr.tiles32(offs)
			}
			require.Equal(t, wantPass, got, "kind %d z %d lo %d span %d", kind, z, lo, span)
			require.Equal(t, want, buf, "kind %d z %d lo %d span %d", kind, z, lo, span)
			if wantPass&0xFF != 0xFF || wantPass>>8 != 0xFF {
				fell++
			}
		}
	}
	// Both forms were taken.
	require.Greater(t, fell, 1000)
	require.Less(t, fell, 7000)
}

// TestTruncF24 checks truncF24 against hal/pica's encoder and decoder at
// every exponent (random mantissas and both ends) and on the special
// values. (It was also checked on all 2^32 inputs once.)
func TestTruncF24(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for e := uint32(0); e < 256; e++ {
		for k := 0; k < 200; k++ {
			m := r.Uint32() & 0x7FFFFF
			switch k {
			case 0:
				m = 0
			case 1:
				m = 0x7FFFFF
			}
			for _, s := range []uint32{0, 1} {
				f := math.Float32frombits(s<<31 | e<<23 | m)
				require.Equal(t, math.Float32bits(p.F24ToFloat(p.ToF24(f))), math.Float32bits(truncF24(f)), "%08x", math.Float32bits(f))
			}
		}
	}
}
