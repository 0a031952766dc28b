package r300

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// gourTri returns a primitive whose reference triangle has the given
// vertices in subpixels (sub 16): the edge functions, and the area as
// their sum.
func gourTri(v [3][2]int64) *prim {
	p := &prim{}
	for k := 0; k < 3; k++ {
		a, b := v[(k+1)%3], v[(k+2)%3]
		p.rf[k] = edgeFn{a: a[1] - b[1], b: b[0] - a[0], c: a[0]*b[1] - b[0]*a[1]}
		p.area += p.rf[k].c
	}
	return p
}

// gourCase runs gourRun over random rows of random triangles, with
// vertex values chosen so that some pixel's reference value lies at a
// threshold of outByte∘fp24, and counts the bytes that differ from the
// reference's (outByte(fp24(spanLoad's value))) per pixel.
func gourCase(t *testing.T, scale int64) (pixels, differ, runs, direct int) {
	t.Helper()
	old := gourMarginScale
	gourMarginScale = scale
	gourDirectHook = func() { direct++ }
	defer func() { gourMarginScale, gourDirectHook = old, nil }()
	r := rand.New(rand.NewPCG(5, 9))
	s := &drawState{sub: 16}
	gw := &gourWork{}
	tab := gourThresholds()
	for it := 0; it < 3000; it++ {
		var v [3][2]int64
		for k := range v {
			v[k] = [2]int64{r.Int64N(700 * 16), r.Int64N(500 * 16)}
		}
		p := gourTri(v)
		if p.area == 0 {
			continue
		}
		ar := float64(p.area)
		y := r.IntN(500)
		x0 := r.IntN(640)
		n := 1 + r.IntN(gourChunk)
		ch := &gourChan{}
		for k := range ch.v {
			ch.v[k] = r.Float64()*1.6 - 0.3
		}
		if r.IntN(4) != 0 {
			// Put the value of a pixel of the run on a threshold: solve
			// for the vertex whose weight there is largest.
			i := r.IntN(n)
			half := s.sub / 2
			px, py := int64(x0+i)*s.sub+half, int64(y)*s.sub+half
			var wt [3]float64
			big := 0
			for k := range wt {
				wt[k] = float64(p.rf[k].eval(px, py)) / ar
				if math.Abs(wt[k]) > math.Abs(wt[big]) {
					big = k
				}
			}
			target := float64(tab[1+r.IntN(255)]) * 0x1p-32
			target += float64(r.IntN(5)-2) * 0x1p-40
			rest := 0.0
			for k := range wt {
				if k != big {
					rest += wt[k] * ch.v[k]
				}
			}
			ch.v[big] = (target - rest) / wt[big]
		}
		ok := true
		var sum, mag float64
		for k := range ch.v {
			if !(math.Abs(ch.v[k]) <= 256) {
				ok = false
			}
			ch.vmax = max(ch.vmax, math.Abs(ch.v[k]))
			as := float64(p.rf[k].a * s.sub)
			sum += float64(as * ch.v[k])
			mag += math.Abs(as * ch.v[k])
		}
		ch.d = sum / ar
		ch.errD = (mag/math.Abs(ar) + math.Abs(ch.d)) * 0x1p-50
		if !ok || !(math.Abs(ch.d) < 1) {
			continue
		}
		sh := uint(8 * r.IntN(4))
		clear(gw.word[:n])
		s.gourRun(p, ch, ar, x0, y, sh, gw, n)
		runs++
		for i := 0; i < n; i++ {
			want := outByte(fp24(s.gourRef(p, ch, ar, x0+i, y)))
			got := byte(gw.word[i] >> sh)
			require.Zero(t, gw.word[i]&^(255<<sh), "bits outside the channel's byte")
			pixels++
			if got != want {
				differ++
			}
		}
		// The same channel with two others through gourRun3, in a
		// shuffled byte order over a constant fourth byte.
		var chans [4]gourChan
		pos := r.IntN(3)
		for c := 0; c < 3; c++ {
			chans[c] = *ch
			if c != pos {
				for k := range chans[c].v {
					chans[c].v[k] = r.Float64()*1.6 - 0.3
				}
				o := &chans[c]
				o.vmax, o.d, o.errD = 0, 0, 0
				var sum, mag float64
				for k := range o.v {
					o.vmax = max(o.vmax, math.Abs(o.v[k]))
					as := float64(p.rf[k].a * s.sub)
					sum += float64(as * o.v[k])
					mag += math.Abs(as * o.v[k])
				}
				o.d = sum / ar
				o.errD = (mag/math.Abs(ar) + math.Abs(o.d)) * 0x1p-50
			}
		}
		// The common layout (B, G, R under a constant alpha: gourDirect3's
		// fixed shifts) and a shuffled one.
		shifts := [4]uint{8, 24, 0, 16}
		if it%2 == 0 {
			shifts = [4]uint{0, 8, 16, 24}
		}
		if !s.gourRun3(p, &chans, ar, x0, y, &shifts, 0xA5<<shifts[3], gw, n) {
			continue
		}
		runs++
		for i := 0; i < n; i++ {
			require.Equal(t, uint32(0xA5), gw.word[i]>>shifts[3]&255, "the constant byte")
			for c := 0; c < 3; c++ {
				want := outByte(fp24(s.gourRef(p, &chans[c], ar, x0+i, y)))
				pixels++
				if byte(gw.word[i]>>shifts[c]) != want {
					differ++
				}
			}
		}
	}
	return pixels, differ, runs, direct
}

// TestGourRowMatchesReference: the Gouraud row path's stepped bytes are
// the reference's at every pixel, values on the thresholds included; with
// a zero margin some differ, so the test can fail.
func TestGourRowMatchesReference(t *testing.T) {
	pixels, differ, runs, direct := gourCase(t, 1)
	require.Greater(t, pixels, 100000)
	require.Zero(t, differ, "pixels differing from the reference")
	// Both the direct byte stepping (values in [0, 1]) and the
	// thresholds' lookup (values beyond) must be exercised.
	require.Greater(t, direct, runs/10, "runs on the direct byte stepping")
	require.Less(t, direct, runs-runs/10, "runs off the direct byte stepping")
	_, differ0, _, _ := gourCase(t, 0)
	require.Positive(t, differ0, "with a zero margin the stepped bytes must differ somewhere")
}

// TestGourThresholds checks the thresholds against outByte∘fp24 on both
// sides of each.
func TestGourThresholds(t *testing.T) {
	tab := gourThresholds()
	g := func(x float64) int { return int(outByte(fp24(x))) }
	for k := 1; k < 256; k++ {
		x := float64(tab[k]) * 0x1p-32
		require.Equal(t, k, g(x), "at threshold %d", k)
		require.Equal(t, k-1, g(math.Nextafter(x, -1)), "below threshold %d", k)
	}
	require.Equal(t, 0, g(-1))
	require.Equal(t, 255, g(2))
}

// TestOverByteMatchesFloat compares the integer over blend with the
// float64 one on every source, alpha and destination byte, for every
// toUnorm offset (truncation, rounding, and the 16 dither thresholds).
func TestOverByteMatchesFloat(t *testing.T) {
	type mode struct {
		m uint32
		d int
	}
	modes := []mode{{0, 0}, {1, 0}}
	for d := 0; d < 16; d++ {
		if !testing.Short() || d == 0 || d == 15 {
			modes = append(modes, mode{2, d})
		}
	}
	for _, md := range modes {
		off := [2]float64{1.0 / 4096, 0.5}[min(md.m, 1)]
		if md.m == 2 {
			off = ditherOffset[md.d>>2][md.d&3]
		}
		o255 := overOffset(md.m, md.d)
		for a := 0; a < 256; a++ {
			for s := 0; s < 256; s++ {
				for d := 0; d < 256; d++ {
					got := overByte(uint32(s), uint32(a), uint32(d), o255)
					if want := overFloat(byte(s), byte(a), byte(d), off); got != want {
						t.Fatalf("mode %d dither %d: src %d alpha %d dst %d: %d, float %d", md.m, md.d, s, a, d, got, want)
					}
				}
			}
		}
	}
}

// TestFP24F compares fp24f with fp24 on every exponent and sign of
// float32, each with the extreme and random mantissas, and NaNs and
// infinities.
func TestFP24F(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for e := uint32(0); e < 256; e++ {
		for _, sign := range []uint32{0, 1 << 31} {
			ms := []uint32{0, 1, 0x7F, 0x80, 0x7FFFFF}
			for i := 0; i < 200; i++ {
				ms = append(ms, r.Uint32()&0x7FFFFF)
			}
			for _, m := range ms {
				f := math.Float32frombits(sign | e<<23 | m)
				got, want := math.Float32bits(fp24f(f)), math.Float32bits(fp24(float64(f)))
				require.Equal(t, want, got, "fp24f(%#08x)", sign|e<<23|m)
			}
		}
	}
}

// TestGourBuckets checks every safe bucket against the thresholds: no
// threshold within gourBucketMargin of it, and its byte the byte of its
// values.
func TestGourBuckets(t *testing.T) {
	bt, th := gourBuckets(), gourThresholds()
	safe := 0
	for b := int64(0); b < 4096; b++ {
		e := bt[b+1]
		if e&gourUnsafe != 0 {
			continue
		}
		safe++
		lo, hi := b<<20, (b+1)<<20-1
		for j := 1; j < 256; j++ {
			require.False(t, th[j] > lo-gourBucketMargin && th[j] < hi+gourBucketMargin, "bucket %d: threshold %d near", b, j)
		}
		for _, v := range []int64{lo, hi, lo + 12345} {
			require.Equal(t, int(outByte(fp24(float64(v)*0x1p-32))), int(e), "bucket %d value %d", b, v)
		}
	}
	require.Greater(t, safe, 3000)
	require.Equal(t, int64(0), gourBucket(-5))
	require.Equal(t, int64(4097), gourBucket(1<<33))
}

// TestGourWriteZ16LE checks the 16-bit LEQUAL-with-writes loop against
// cmp per pixel, with depth values on both sides of zv, runs whose
// groups of four all pass, all fail or mix, and run lengths not a
// multiple of four.
func TestGourWriteZ16LE(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 12))
	for it := 0; it < 2000; it++ {
		n := 1 + r.IntN(40)
		zv := uint32(r.IntN(1 << 24))
		switch it % 4 {
		case 0:
			zv &^= 255 // on a multiple of 256: old == zv>>8 passes
		case 1:
			zv = 0xFFFFFF
		}
		zm := make([]byte, 2*n)
		for i := 0; i < n; i++ {
			old := uint16(r.IntN(1 << 16))
			switch r.IntN(4) {
			case 0:
				old = uint16(zv >> 8)
			case 1:
				old = uint16(zv>>8) + 1
			case 2:
				if it%3 == 0 {
					old = 0xFFFF
				}
			}
			binary.LittleEndian.PutUint16(zm[2*i:], old)
		}
		words := make([]uint32, n)
		for i := range words {
			words[i] = r.Uint32()
		}
		dst := make([]byte, 4*n)
		wantZ, wantDst := append([]byte(nil), zm...), make([]byte, 4*n)
		wantN := uint32(0)
		for i := 0; i < n; i++ {
			old := uint32(binary.LittleEndian.Uint16(wantZ[2*i:]))
			if cmp(cmpLE, zv, old<<8) {
				binary.LittleEndian.PutUint16(wantZ[2*i:], uint16(zv>>8))
				binary.LittleEndian.PutUint32(wantDst[4*i:], words[i])
				wantN++
			}
		}
		got := gourWriteZ16LE(dst, zm, words, zv)
		require.Equal(t, wantN, got, "iteration %d: passing pixels", it)
		require.Equal(t, wantZ, zm, "iteration %d: depth", it)
		require.Equal(t, wantDst, dst, "iteration %d: colour", it)
	}
}
