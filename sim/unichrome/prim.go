package unichrome

import (
	"math"

	uc "github.com/retrogl/retrogl/hal/unichrome"
)

func floorDiv16(v int64) int64 { return v >> 4 }

// line draws a line along its major axis: for each pixel column (x-major)
// or row (y-major) from the pixel that holds the first vertex up to, not
// including, the pixel that holds the second (including it with HLLastP),
// the pixel whose centre row (column) the line crosses at that column's
// centre. Attributes interpolate linearly in the parameter along the major
// axis; texture coordinates through W under HenTXPP. The line pattern
// (HenLP) advances one bit per pixel, each bit used HLPRF times, and
// restarts at every line with HLPrst.
func (e *Engine) line(p *pipeline, v0, v1 *vertex) {
	e.flush() // lines are drawn at once, after the triangles before them
	a, b := p.position(v0), p.position(v1)
	var va, vb [numAttrs]float64
	p.vals(v0, &va)
	p.vals(v1, &vb)
	dx, dy := b.X-a.X, b.Y-a.Y
	xMajor := abs64(dx) >= abs64(dy)
	ma, mb, na, dm, dn := a.X, b.X, a.Y, dx, dy
	if !xMajor {
		ma, mb, na, dm, dn = a.Y, b.Y, a.X, dy, dx
	}
	first, last := floorDiv16(ma), floorDiv16(mb)
	step := int64(1)
	if mb < ma {
		step = -1
	}
	if e.cmdB&uc.CmdBLinePatReset != 0 {
		e.asm.lpCount = 0
	}
	lastP := e.cmdB&uc.CmdBLastPixel != 0
	w := &worker{e: e}
	defer e.Stats.add(&w.stats)
	var f frag
	var cur [numAttrs]float64
	for c := first; ; c += step {
		if c == last && !lastP {
			break
		}
		centre := c*16 + 8
		var t float64
		if dm != 0 {
			t = float64(centre-ma) / float64(dm)
			t = min(1, max(0, t))
		}
		n := na + int64(math.Floor(float64(t*float64(dn))+0.5))
		x, y := int(c), int(floorDiv16(n))
		if !xMajor {
			x, y = int(floorDiv16(n)), int(c)
		}
		for i := range cur {
			cur[i] = va[i] + float64(t*(vb[i]-va[i]))
		}
		draw := true
		if p.lp {
			bit := e.asm.lpCount / p.lpRF % 16
			draw = p.lpBits>>uint(bit)&1 != 0
			e.asm.lpCount++
		}
		if draw && x >= p.clip.X0 && x < p.clip.X1 && y >= p.clip.Y0 && y < p.clip.Y1 {
			e.fill(p, &f, &cur)
			w.fragment(p, x, y, &f)
		}
		if c == last {
			break
		}
	}
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// point draws the pixel that holds the vertex.
func (e *Engine) point(p *pipeline, v *vertex) {
	e.flush() // points are drawn at once, after the triangles before them
	q := p.position(v)
	x, y := int(floorDiv16(q.X)), int(floorDiv16(q.Y))
	if x < p.clip.X0 || x >= p.clip.X1 || y < p.clip.Y0 || y >= p.clip.Y1 {
		return
	}
	var cur [numAttrs]float64
	p.vals(v, &cur)
	var f frag
	e.fill(p, &f, &cur)
	w := &worker{e: e}
	w.fragment(p, x, y, &f)
	e.Stats.add(&w.stats)
}

// fill converts interpolated attributes of a line or point fragment (no
// LOD: lines and points sample the base level's magnification filter).
func (e *Engine) fill(p *pipeline, f *frag, cur *[numAttrs]float64) {
	f.c = [4]int{clamp8(cur[atR]), clamp8(cur[atG]), clamp8(cur[atB]), clamp8(cur[atA])}
	f.s = [3]int{clamp8(cur[atSR]), clamp8(cur[atSG]), clamp8(cur[atSB])}
	f.fog = clamp8(cur[atFog])
	f.z, f.zw, f.w = cur[atZ], cur[atZ], cur[atW]
	f.lod = [2]int{}
	if p.txmp {
		e.texCoords(p, f, cur, nil, nil)
	}
}
