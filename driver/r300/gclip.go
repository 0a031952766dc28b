package r300

// Clipping of vertex-shader output against the view volume
// (-w <= x, y, z <= w), with every varying interpolated linearly in clip
// space, as GL ES 2.0 §2.13 has it. driver/swtnl clips its own vertex
// type, which carries the fixed-function attributes only; this small
// clipper carries any number of varyings instead of widening the shared
// struct.

// planeDist returns the signed distance of v to clip plane p (inside when
// >= 0): w+x, w-x, w+y, w-y, w+z, w-z.
func planeDist(v *gvert, p int) float32 {
	c := v.clip[p/2]
	if p%2 == 1 {
		c = -c
	}
	return v.clip[3] + c
}

func insideAll(v *gvert) bool {
	for p := 0; p < 6; p++ {
		if !(planeDist(v, p) >= 0) {
			return false
		}
	}
	return true
}

// lerpG interpolates a + s(b - a) in every component.
func lerpG(a, b *gvert, s float32) gvert {
	var v gvert
	for k := 0; k < 4; k++ {
		v.clip[k] = a.clip[k] + s*(b.clip[k]-a.clip[k])
	}
	v.psize = a.psize + s*(b.psize-a.psize)
	v.v = make([]float32, len(a.v))
	for k := range v.v {
		v.v[k] = a.v[k] + s*(b.v[k]-a.v[k])
	}
	return v
}

// clipPolygon clips a convex polygon against the six planes
// (Sutherland-Hodgman); the result may be empty.
func clipPolygon(poly []gvert) []gvert {
	for p := 0; p < 6 && len(poly) > 0; p++ {
		all := true
		for i := range poly {
			if !(planeDist(&poly[i], p) >= 0) {
				all = false
				break
			}
		}
		if all {
			continue
		}
		var out []gvert
		for i := range poly {
			a, b := &poly[i], &poly[(i+1)%len(poly)]
			da, db := planeDist(a, p), planeDist(b, p)
			if da >= 0 {
				out = append(out, *a)
			}
			if (da >= 0) != (db >= 0) {
				out = append(out, lerpG(a, b, da/(da-db)))
			}
		}
		poly = out
	}
	return poly
}

// clipLine clips a segment parametrically.
func clipLine(a, b gvert) (gvert, gvert, bool) {
	t0, t1 := float32(0), float32(1)
	for p := 0; p < 6; p++ {
		da, db := planeDist(&a, p), planeDist(&b, p)
		switch {
		case da >= 0 && db >= 0:
			continue
		case !(da >= 0) && !(db >= 0):
			return a, b, false
		case !(da >= 0):
			t0 = max(t0, da/(da-db))
		default:
			t1 = min(t1, da/(da-db))
		}
		if t0 > t1 {
			return a, b, false
		}
	}
	va, vb := a, b
	if t0 > 0 {
		va = lerpG(&a, &b, t0)
	}
	if t1 < 1 {
		vb = lerpG(&a, &b, t1)
	}
	return va, vb, true
}
