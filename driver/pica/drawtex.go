package pica

import (
	"encoding/binary"
	"math"

	"github.com/retrogl/retrogl/driver"
	p "github.com/retrogl/retrogl/hal/pica"
)

// drawTexVS passes window-space rectangles through (OES_draw_texture).
const drawTexVS = `; OES_draw_texture: clip-space rectangle, colour and crop coordinates pass through
.out opos position
.out oclr color
.out otc0 texcoord0.xy
.out otc1 texcoord1.xy
.out otc2 texcoord2.xy
.proc main
    mov opos, v0
    mov oclr, v1
    mov otc0, v3
    mov otc1, v4
    mov otc2, v5
    end
.end
`

// drawTexture draws an OES_draw_texture rectangle: window coordinates
// (X, Y)-(X+W, Y+H) at depth Zw = n + clamp(Z)*(f - n), texture
// coordinates from each unit's crop rectangle, the current colour; no
// transform, lighting, culling, clip plane or fog (OES_draw_texture).
func (c *Context) drawTexture(st *driver.State, r *driver.DrawTexRect) error {
	w, h := float32(c.w8), float32(c.h8)
	c.set(p.VIEWPORT_WIDTH, p.ToF24(w/2))
	c.set(p.VIEWPORT_INVW, p.ToF31(2/w)<<1)
	c.set(p.VIEWPORT_HEIGHT, p.ToF24(h/2))
	c.set(p.VIEWPORT_INVH, p.ToF31(2/h)<<1)
	c.set(p.VIEWPORT_XY, 0)
	c.set(p.DEPTHMAP_SCALE, p.ToF24(-1))
	c.set(p.DEPTHMAP_OFFSET, 0)
	c.set(p.FACECULLING_CONFIG, 0)
	c.set(p.FRAGOP_CLIP, 0)
	if st.ScissorTest {
		s := st.Scissor
		x0, y0 := max(0, s.X), max(0, s.Y)
		x1, y1 := min(c.cfg.Width, s.X+s.W), min(c.cfg.Height, s.Y+s.H)
		if x0 >= x1 || y0 >= y1 {
			return nil
		}
		c.set(p.SCISSORTEST_MODE, 3)
		c.set(p.SCISSORTEST_POS, uint32(x0)|uint32(y0)<<16)
		c.set(p.SCISSORTEST_DIM, uint32(x1-1)|uint32(y1-1)<<16)
	} else {
		c.set(p.SCISSORTEST_MODE, 0)
	}
	units := c.drv.caps.Limits.MaxTextureUnits
	cfg := uint32(1 << 12)
	var crop [3][4]float32 // s0, t0, s1, t1
	for u := 0; u < units; u++ {
		t := st.Units[u].Texture
		if t == nil {
			continue
		}
		if err := c.bindTexture(u, t, false); err != nil {
			return err
		}
		cfg |= 1 << uint(u)
		tw, th := float32(t.Levels[0].Width), float32(t.Levels[0].Height)
		cr := t.Crop
		sc := c.texScale[u] // a texture under 8 texels: see smallAxis
		crop[u] = [4]float32{sc[0] * float32(cr[0]) / tw, sc[1] * float32(cr[1]) / th, sc[0] * float32(cr[0]+cr[2]) / tw, sc[1] * float32(cr[1]+cr[3]) / th}
	}
	c.set(p.TEXUNIT_CONFIG, cfg)
	c.combiners(st, units)
	c.fragmentOps(st)
	c.setFogOff()
	n, f := st.DepthRange[0], st.DepthRange[1]
	z := n + float32(math.Max(0, math.Min(1, float64(r.Z))))*(f-n)
	cx := func(x float32) float32 { return 2*x/w - 1 }
	cy := func(y float32) float32 { return 2*y/h - 1 }
	const stride = 4*4 + 4*4 + 3*2*4
	buf := make([]byte, 4*stride)
	corners := [4][2]int{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
	for i, k := range corners {
		v := []float32{cx(r.X + float32(k[0])*r.W), cy(r.Y + float32(k[1])*r.H), -z, 1}
		v = append(v, st.CurrentColor[:]...)
		for u := 0; u < 3; u++ {
			v = append(v, crop[u][2*k[0]], crop[u][1+2*k[1]])
		}
		for j, f := range v {
			binary.LittleEndian.PutUint32(buf[i*stride+4*j:], math.Float32bits(f))
		}
	}
	base, err := c.up.Upload(buf, 16)
	if err != nil {
		return err
	}
	pr := c.programs["drawtex"]
	if pr == nil {
		if pr, err = assemble("drawtex", drawTexVS); err != nil {
			return err
		}
		c.programs["drawtex"] = pr
	}
	c.useProgram(pr, 5)
	c.set(p.VSH_ATTR_PERM_LOW, 0x54310)
	c.set(p.VSH_ATTR_PERM_HIGH, 0)
	c.set(p.ATTRIBBUFFERS_LOC, base>>3)
	c.set(p.ATTRIBBUFFERS_FMT_LOW, 0xF|0xF<<4|0x7<<8|0x7<<12|0x7<<16)
	c.set(p.ATTRIBBUFFERS_FMT_HIGH, 4<<28)
	c.set(p.AttribBuffer(0, 0), 0)
	c.set(p.AttribBuffer(0, 1), 0x43210)
	c.set(p.AttribBuffer(0, 2), stride<<16|5<<28)
	for i := 1; i < 12; i++ {
		c.set(p.AttribBuffer(i, 2), 0)
	}
	c.set(p.PRIMITIVE_CONFIG, 2<<8|uint32(len(pr.outmap)-1))
	c.kick(p.RESTART_PRIMITIVE, 1)
	c.drawArrays(4, 0)
	return nil
}
