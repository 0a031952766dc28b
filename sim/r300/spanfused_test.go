package r300

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// fusedTri returns a primitive of positive area whose reference triangle
// has the given vertices in subpixels: the edge functions, and the area
// as their sum.
func fusedTri(v [3][2]int64) *prim {
	p := &prim{}
	for k := 0; k < 3; k++ {
		a, b := v[(k+1)%3], v[(k+2)%3]
		p.rf[k] = edgeFn{a: a[1] - b[1], b: b[0] - a[0], c: a[0]*b[1] - b[0]*a[1]}
		p.area += p.rf[k].c
	}
	if p.area < 0 {
		return fusedTri([3][2]int64{v[1], v[0], v[2]})
	}
	return p
}

// fusedLoadCase runs fusedLoads over random rows of random triangles with
// the given margin scale, six loads a run (one or two every other run),
// vertex values chosen so that
// some pixel's reference value lies on (or within a few units of 2^-60
// of) an FP24 rounding edge, and counts the loaded values that differ
// from the reference's (fp24 of spanLoad's sum) and the pixels that took
// the reference's formula.
func fusedLoadCase(t *testing.T, scale float64) (values, differ, near, stepped int) {
	t.Helper()
	old := fusedMarginScale
	fusedMarginScale = scale
	fusedNearHook = func() { near++ }
	defer func() { fusedMarginScale, fusedNearHook = old, nil }()
	r := rand.New(rand.NewPCG(3, 11))
	s := &drawState{sub: 16}
	fw := &fusedWork{}
	for it := 0; it < 1500; it++ {
		var v [3][2]int64
		for k := range v {
			v[k] = [2]int64{r.Int64N(700 * 16), r.Int64N(500 * 16)}
			if r.IntN(3) == 0 {
				// On the pixel grid: centres land on simple fractions.
				v[k] = [2]int64{16 * r.Int64N(700), 16 * r.Int64N(500)}
			}
		}
		if r.IntN(4) == 0 {
			// A horizontal edge: a load along it is constant by rows.
			v[1][1] = v[0][1]
		}
		p := fusedTri(v)
		if p.area == 0 {
			continue
		}
		ar := float64(p.area)
		y := r.IntN(500)
		x0 := r.IntN(640)
		n := 1 + r.IntN(fusedChunk)
		var chans [6]fusedChan
		for c := range chans {
			var vv [3]float64
			for k := range vv {
				switch r.IntN(5) {
				case 0:
					vv[k] = float64(r.IntN(3))
				case 1:
					vv[k] = float64(r.IntN(9)) / 4
				default:
					vv[k] = r.Float64()*4 - 1
				}
			}
			if r.IntN(6) == 0 {
				// Affine in y alone (exact dyadic values): constant
				// along rows with a slope of exactly zero, sometimes
				// on an FP24 edge at every pixel of a row.
				for k := range vv {
					vv[k] = float64(v[k][1])/8192 + float64(r.IntN(2))*0x1p-30
				}
			} else if r.IntN(3) != 0 {
				// Put the value of a pixel of the run on an FP24 edge:
				// solve for the vertex whose weight there is largest.
				i := r.IntN(n)
				target := float64(fp24(r.Float64()*3 - 0.5))
				target += float64(r.IntN(5)-2) * 0x1p-60
				s.solveAt(p, ar, &vv, x0+i, y, target)
			}
			ch, ok := s.fusedChanOf(p, vv[:])
			require.True(t, ok)
			chans[c] = ch
			if ch.kind == 0 {
				stepped++
			}
		}
		at := s.gourAt(p, ar, x0, y, n)
		// All six loads (near pixels' weights shared), or one or two
		// (each load fixing its own).
		mask := fusedCoords | fusedColours
		if it%2 == 1 {
			a, b := r.IntN(6), r.IntN(6)
			mask = uint8(1)<<a | uint8(1)<<b
		}
		s.fusedLoads(p, &chans, &at, ar, x0, y, n, fw, mask, 0)
		for c := range chans {
			if mask>>c&1 == 0 {
				continue
			}
			ch := &chans[c]
			for i := 0; i < n; i++ {
				want := fp24(s.loadRef(p, &ch.v, ar, x0+i, y))
				if ch.kind == 1 {
					want = ch.k
				}
				values++
				if math.Float32bits(fw.v[c][i]) != math.Float32bits(want) {
					differ++
				}
			}
		}
	}
	return values, differ, near, stepped
}

// TestFusedLoadsMatchReference: the fused path's stepped loads are the
// reference's FP24 values at every pixel, values on FP24's rounding
// edges included; with a zero margin some differ, so the test can fail.
func TestFusedLoadsMatchReference(t *testing.T) {
	values, differ, near, stepped := fusedLoadCase(t, 1)
	require.Greater(t, values, 1000000)
	require.Zero(t, differ, "values differing from the reference")
	require.Greater(t, stepped, 1000, "stepped loads")
	require.Positive(t, near, "pixels taking the reference's formula")
	require.Less(t, near, values/20, "pixels taking the reference's formula")
	_, differ0, _, _ := fusedLoadCase(t, 0)
	require.Positive(t, differ0, "with a zero margin the stepped values must differ somewhere")
	t.Logf("%d values, %d stepped loads, %d near an edge", values, stepped, near)
}

// TestFusedByte compares fusedByte with outByte∘fp24 at every threshold
// and the value below it, and on random products of FP24 values in and
// around [0, 1], huge, tiny and negative.
func TestFusedByte(t *testing.T) {
	tab := fusedByteTab()
	want := func(p float64) uint32 { return uint32(outByte(fp24(p))) }
	for k := 1; k < 256; k++ {
		x := tab[k]
		require.Equal(t, uint32(k), want(x), "threshold %d", k)
		require.Equal(t, uint32(k-1), want(math.Nextafter(x, -1)), "below threshold %d", k)
		for _, p := range []float64{x, math.Nextafter(x, -1), math.Nextafter(x, 2), float64(k) / 255, (float64(k) - 0.5) / 255} {
			require.Equal(t, want(p), fusedByte(tab, p), "p %v near threshold %d", p, k)
		}
	}
	r := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 2000000; i++ {
		a := fp24(r.Float64()*1.4 - 0.2)
		b := fp24(r.Float64()*1.4 - 0.2)
		switch r.IntN(8) {
		case 0:
			b = fp24(math.Ldexp(r.Float64(), r.IntN(140)-70))
		case 1:
			a = float32(r.IntN(256)) / 255
			a = fp24(float64(a))
		}
		p := float64(a) * float64(b)
		require.Equal(t, want(p), fusedByte(tab, p), "%v·%v", a, b)
	}
	for _, p := range []float64{0, math.Copysign(0, -1), -1, 1, 2, 1e300, -1e300, float64(r3.FP24Max) * float64(r3.FP24Max)} {
		require.Equal(t, want(p), fusedByte(tab, p), "%v", p)
	}
}

// TestFusedFracMin: every threshold of fusedByteTab lies within
// fusedFracMin of a byte above its half-byte point, as fusedByte's fast
// path assumes.
func TestFusedFracMin(t *testing.T) {
	tab := fusedByteTab()
	for k := 1; k < 256; k++ {
		o := tab[k]*255 + 0.5 - float64(k)
		require.GreaterOrEqual(t, o, -1e-12, "threshold %d", k)
		require.Less(t, o, fusedFracMin/2, "threshold %d", k)
	}
}

// TestFusedOverLanes compares fusedOverLane (fusedOverWords' arithmetic
// per lane) with overByte on every source, alpha and destination byte
// for every toUnorm offset, and fusedOverWords' words with overByte per
// channel on random pixels.
func TestFusedOverLanes(t *testing.T) {
	var offs []uint32
	for _, m := range []uint32{0, 1} {
		offs = append(offs, overOffset(m, 0))
	}
	for d := 0; d < 16; d++ {
		offs = append(offs, overOffset(2, d))
	}
	if testing.Short() {
		offs = offs[:4]
	}
	for _, off := range offs {
		for a := uint32(0); a < 256; a++ {
			for s := uint32(0); s < 256; s++ {
				for d := uint32(0); d < 256; d++ {
					if got, want := fusedOverLane(s, a, d, off), uint32(overByte(s, a, d, off)); got != want {
						t.Fatalf("offset %d: src %d alpha %d dst %d: %d, overByte %d", off, s, a, d, got, want)
					}
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(4, 4))
	var of [4][4]uint32
	var k [4]uint64
	for xi := range of {
		for c := range of[xi] {
			of[xi][c] = offs[r.IntN(len(offs))]
			k[xi] |= uint64(of[xi][c]/8192) << (16 * c)
		}
	}
	words := make([]uint32, fusedChunk)
	dst := make([]byte, 4*len(words))
	for i := range words {
		words[i] = r.Uint32()
		switch i % 8 {
		case 1:
			words[i] |= 0xFF000000 // opaque
		case 3:
			words[i] = 0xFFFFFFFF
		case 5:
			words[i] &= 0x00FFFFFF // transparent
		}
	}
	for i := range dst {
		dst[i] = byte(r.Uint32())
	}
	src := append([]uint32(nil), words...)
	fusedOverWords(words, dst, &k)
	for i, w := range src {
		a := w >> 24
		var want uint32
		for c := range 4 {
			want |= uint32(overByte(w>>(8*c)&255, a, uint32(dst[4*i+c]), of[i&3][c])) << (8 * c)
		}
		require.Equal(t, want, words[i], "pixel %d", i)
	}
}

// TestFusedMarginBounds checks the margin loop's window against its
// error analysis (spanmargin.go): fusedMarginLo above the largest
// threshold offset θmax plus the loop's lower slack for byte 0
// (fusedMarginLo + k·2^-15 then covers byte k's), fusedMarginHi below
// one minus its upper slack, for colour and sum errors up to
// fusedMarginA.
func TestFusedMarginBounds(t *testing.T) {
	tab := fusedByteTab()
	theta := 0.0
	for k := 1; k < 256; k++ {
		theta = max(theta, tab[k]*255+0.5-float64(k))
	}
	lower := theta + 0x1p-16 + 255.5*0x1p-21 + fusedMarginA
	upper := 255.5*0x1p-21 + fusedMarginA
	require.Less(t, lower, float64(fusedMarginLo), "θmax %v", theta)
	require.Less(t, upper, 1-float64(fusedMarginHi))
	t.Logf("θmax %.6f: the window needs [%.6f, %.6f), has [%.6f, %.6f)", theta, lower, 1-upper, fusedMarginLo, fusedMarginHi)
}
