package r300

import (
	"math"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// Clipping against the view volume and the user clip planes, in clip space
// before the viewport transform. A vertex is inside a plane when its
// signed distance is >= 0: x and y against ±w widened by the guard-band
// clip adjust (L1807-1828), z per VAP_CNTL.DX_CLIP_SPACE_DEF (L1788), and
// user plane i (UCP_ENA_i, L1766-1771) as p·(x, y, z, w) with p the
// vector at PVS memory octword 1024+i ([OUT] Mesa R300_PVS_UCP_START),
// the dot product rounded once to float32 ([PROP], the DP4 of pvs.go).
// UCP_CULL_ONLY_ENA (L1775) drops a primitive whose vertices are all
// outside one user plane and clips it against the view volume only.

// prepareUCP loads the enabled user clip planes.
func (e *Engine) prepareUCP(s *drawState, cc uint32, prim r3.PrimType) error {
	if mode := cc >> 14 & 3; mode != 0 && prim == r3.PrimPoints {
		return faultf("VAP_CLIP_CNTL.PS_UCP_MODE %d (point radius against user clip planes) is not simulated", mode)
	}
	for i := 0; i < r3.PVSMaxUCP; i++ {
		if cc>>i&1 == 0 {
			continue
		}
		var p [4]float32
		o := 4 * (r3.PVSUCPStart + i)
		for c := range p {
			p[c] = math.Float32frombits(e.pvs[o+c])
		}
		s.ucp = append(s.ucp, p)
	}
	s.ucpCull = cc>>17&1 != 0
	return nil
}

// planeDist is p·v rounded once.
func planeDist(p, v [4]float32) float32 {
	d := float64(p[0]) * float64(v[0])
	for k := 1; k < 4; k++ {
		d += float64(p[k]) * float64(v[k])
	}
	return float32(d)
}

// clipDist returns the signed distances of a vertex to the planes it is
// clipped against and their number: the six view-volume planes, then the
// user clip planes unless they only cull.
func (s *drawState) clipDist(v *vertex) ([6 + r3.PVSMaxUCP]float32, int) {
	x, y, z, w := v.pos[0], v.pos[1], v.pos[2], v.pos[3]
	gx, gy := float32(s.gbHorz), float32(s.gbVert)
	near := w + z
	if s.dxClip {
		near = z
	}
	d := [6 + r3.PVSMaxUCP]float32{float32(gx*w) + x, float32(gx*w) - x, float32(gy*w) + y, float32(gy*w) - y, near, w - z}
	n := 6
	if !s.ucpCull {
		for _, p := range s.ucp {
			d[n] = planeDist(p, v.pos)
			n++
		}
	}
	return d, n
}

// ucpCulled reports whether UCP_CULL_ONLY_ENA drops a primitive.
func (s *drawState) ucpCulled(vs ...*vertex) bool {
	if !s.ucpCull {
		return false
	}
	for _, p := range s.ucp {
		out := true
		for _, v := range vs {
			if planeDist(p, v.pos) >= 0 {
				out = false
			}
		}
		if out {
			return true
		}
	}
	return false
}
