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
func gourCase(t *testing.T, scale int64) (pixels, differ, runs, direct, outRuns int) {
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
			if it%4 == 0 {
				ch.v[k] = 0.05 + 0.9*r.Float64() // more direct stepping
			}
		}
		if r.IntN(4) != 0 {
			// Put the value of a pixel of the run on a threshold: solve
			// for the vertex whose weight there is largest.
			i := r.IntN(n)
			target := float64(tab[1+r.IntN(255)]) * 0x1p-32
			target += float64(r.IntN(5)-2) * 0x1p-40
			s.solveAt(p, ar, &ch.v, x0+i, y, target)
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
			want := outByte(fp24(s.loadRef(p, &ch.v, ar, x0+i, y)))
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
					if it%2 == 0 {
						// Inside [0, 1], so that more runs take the
						// direct stepping.
						chans[c].v[k] = 0.05 + 0.9*r.Float64()
					}
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
		// fixed shifts) and a shuffled one, into the scratch pairs or
		// (every other common-layout run) straight into a colour buffer
		// (gourDirect3Out).
		shifts := [4]uint{8, 24, 0, 16}
		if it%2 == 0 {
			shifts = [4]uint{0, 8, 16, 24}
		}
		var out []byte
		if it%4 == 0 {
			out = make([]byte, 4*n)
		}
		ok, wrote := s.gourRun3(p, &chans, ar, x0, y, &shifts, 0xA5<<shifts[3], gw, n, out)
		if !ok {
			continue
		}
		runs++
		if wrote {
			outRuns++
		}
		for i := 0; i < n; i++ {
			word := uint32(gw.pair[i/2] >> (32 * (i % 2)))
			if wrote {
				word = binary.LittleEndian.Uint32(out[4*i:])
			}
			require.Equal(t, uint32(0xA5), word>>shifts[3]&255, "the constant byte")
			for c := 0; c < 3; c++ {
				want := outByte(fp24(s.loadRef(p, &chans[c].v, ar, x0+i, y)))
				pixels++
				if byte(word>>shifts[c]) != want {
					differ++
				}
			}
		}
	}
	return pixels, differ, runs, direct, outRuns
}

// TestGourRowMatchesReference: the Gouraud row path's stepped bytes are
// the reference's at every pixel, values on the thresholds included; with
// a zero margin some differ, so the test can fail.
func TestGourRowMatchesReference(t *testing.T) {
	pixels, differ, runs, direct, outRuns := gourCase(t, 1)
	require.Greater(t, pixels, 100000)
	require.Zero(t, differ, "pixels differing from the reference")
	// Both the direct byte stepping (values in [0, 1]) and the
	// thresholds' lookup (values beyond) must be exercised.
	require.Greater(t, direct, runs/10, "runs on the direct byte stepping")
	require.Less(t, direct, runs-runs/10, "runs off the direct byte stepping")
	require.Greater(t, outRuns, 100, "runs written straight into the colour buffer")
	t.Logf("%d runs, %d on the direct stepping, %d of them straight into the colour buffer", runs, direct, outRuns)
	_, differ0, _, _, _ := gourCase(t, 0)
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

// TestGourWriteZ16LE checks the 16-bit LEQUAL-with-writes loop, and
// gourZ16Pass's verdict on the whole run, against cmp per pixel, with depth values on both sides of zv and of the lanes'
// top bit, runs whose groups of four all pass (long stretches of them),
// all fail or mix, and run lengths not a multiple of four.
func TestGourWriteZ16LE(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 12))
	allPass := 0
	for it := 0; it < 4000; it++ {
		n := 1 + r.IntN(80)
		zv := uint32(r.IntN(1 << 24))
		switch it % 6 {
		case 0:
			zv &^= 255 // on a multiple of 256: old == zv>>8 passes
		case 1:
			zv = 0xFFFFFF
		case 2:
			zv = uint32(0x7FFF00 + r.IntN(0x200)) // either side of the lanes' top bit
		case 3:
			zv = uint32(r.IntN(0x200))
		}
		zt := (zv + 255) >> 8
		zm := make([]byte, 2*n)
		for i := 0; i < n; i++ {
			old := uint16(r.IntN(1 << 16))
			switch {
			case it%3 == 0 && r.IntN(20) != 0:
				// Mostly passing: long stretches of groups that all pass.
				old = uint16(min(0xFFFF, int(zt)+r.IntN(3)*r.IntN(1<<16)))
			case r.IntN(3) == 0:
				old = []uint16{uint16(zv >> 8), uint16(zv>>8) + 1, uint16(zt), uint16(zt) - 1, 0x7FFF, 0x8000, 0xFFFF, 0}[r.IntN(8)]
			}
			binary.LittleEndian.PutUint16(zm[2*i:], old)
		}
		src := make([]byte, 4*n)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		dst := make([]byte, 4*n)
		wantZ, wantDst := append([]byte(nil), zm...), make([]byte, 4*n)
		wantN := uint32(0)
		for i := 0; i < n; i++ {
			old := uint32(binary.LittleEndian.Uint16(wantZ[2*i:]))
			if cmp(cmpLE, zv, old<<8) {
				binary.LittleEndian.PutUint16(wantZ[2*i:], uint16(zv>>8))
				copy(wantDst[4*i:4*i+4], src[4*i:])
				wantN++
			}
		}
		require.Equal(t, wantN == uint32(n), gourZ16Pass(zm, zv), "iteration %d: gourZ16Pass", it)
		if wantN == uint32(n) {
			allPass++
		}
		got := gourWriteZ16LE(dst, zm, testPairs(src), zv)
		require.Equal(t, wantN, got, "iteration %d: passing pixels", it)
		require.Equal(t, wantZ, zm, "iteration %d: depth", it)
		require.Equal(t, wantDst, dst, "iteration %d: colour", it)
	}
	require.Greater(t, allPass, 200, "runs whose every pixel passes")
}

// TestGourWriteMatchesCmp checks gourWrite against cmp per pixel for
// every depth function, Z16 and Z24, with and without the test and the
// writes, and with Z inactive.
func TestGourWriteMatchesCmp(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 21))
	type state struct {
		active, z24, test, write bool
	}
	var states []state
	for _, z24 := range []bool{false, true} {
		for _, test := range []bool{false, true} {
			for _, write := range []bool{false, true} {
				states = append(states, state{true, z24, test, write})
			}
		}
	}
	states = append(states, state{})
	for _, st := range states {
		for op := uint8(cmpNever); op <= cmpAlways; op++ {
			for it := 0; it < 60; it++ {
				const pitch = 100
				n := 1 + r.IntN(90)
				x0, y := r.IntN(pitch-n+1), r.IntN(3)
				zv := uint32(r.IntN(1 << 24))
				bpz := 2
				if st.z24 {
					bpz = 4
				} else {
					zv &^= 0xFF
				}
				s := &drawState{}
				z := &s.zb
				z.active, z.z24, z.zTest, z.zWrite, z.pitch = st.active, st.z24, st.test, st.write, pitch
				z.mem = make([]byte, 3*pitch*bpz)
				for i := 0; i < len(z.mem); i += bpz {
					old := uint32(r.IntN(1 << 24))
					if r.IntN(3) == 0 {
						old = zv + uint32(r.IntN(3)) - 1
					}
					if st.z24 {
						binary.LittleEndian.PutUint32(z.mem[i:], old<<8|uint32(r.IntN(256)))
					} else {
						binary.LittleEndian.PutUint16(z.mem[i:], uint16(old>>8))
					}
				}
				buf := &cbBuffer{mem: make([]byte, 3*pitch*4), pitch: pitch}
				for i := range buf.mem {
					buf.mem[i] = byte(r.Uint32())
				}
				src := make([]byte, 4*n)
				for i := range src {
					src[i] = byte(r.Uint32())
				}
				wantZ, wantC := append([]byte(nil), z.mem...), append([]byte(nil), buf.mem...)
				wantN := uint32(0)
				for i := 0; i < n; i++ {
					p := y*pitch + x0 + i
					if st.active {
						zb := wantZ[bpz*p:]
						var old uint32
						if st.z24 {
							old = binary.LittleEndian.Uint32(zb) >> 8
						} else {
							old = uint32(binary.LittleEndian.Uint16(zb)) << 8
						}
						if st.test && !cmp(op, zv, old) {
							continue
						}
						// gouraudRows writes only with the test on.
						write := st.test && st.write
						if write && st.z24 {
							binary.LittleEndian.PutUint32(zb, zv<<8|binary.LittleEndian.Uint32(zb)&0xFF)
						} else if write {
							binary.LittleEndian.PutUint16(zb, uint16(zv>>8))
						}
					}
					copy(wantC[4*p:4*p+4], src[4*i:])
					wantN++
				}
				got := s.gourWrite(buf, testPairs(src), n, x0, y, zv, op, st.test, st.test && st.write)
				require.Equal(t, wantN, got, "%+v op %d iteration %d: passing pixels", st, op, it)
				require.Equal(t, wantZ, z.mem, "%+v op %d iteration %d: depth", st, op, it)
				require.Equal(t, wantC, buf.mem, "%+v op %d iteration %d: colour", st, op, it)
			}
		}
	}
}

// testPairs returns src's pixels (4 bytes each) as gourWork's pairs, an
// odd count's last pair with a high half of garbage.
func testPairs(src []byte) []uint64 {
	b := append(append([]byte(nil), src...), 0xDE, 0xAD, 0xBE, 0xEF)
	pairs := make([]uint64, (len(src)/4+1)/2)
	for k := range pairs {
		pairs[k] = binary.LittleEndian.Uint64(b[8*k:])
	}
	return pairs
}

// BenchmarkGourWriteZ16LE is fill-gouraud's depth and colour loop: a
// 640-pixel run of a nearer constant depth over a farther one.
func BenchmarkGourWriteZ16LE(b *testing.B) {
	const n = 640
	zm, dst := make([]byte, 2*n), make([]byte, 4*n)
	pairs := make([]uint64, n/2)
	for b.Loop() {
		gourFillZ16(zm, 0xC000)
		gourWriteZ16LE(dst, zm, pairs, 0x900000)
	}
}

// solveAt sets the vertex value of v whose linear weight at pixel (x, y)
// of p is largest so that the attribute's value there is target (up to
// the division's rounding): the tests' way to put a pixel on a rounding
// edge.
func (s *drawState) solveAt(p *prim, ar float64, v *[3]float64, x, y int, target float64) {
	wt := s.linearWeights(p, ar, x, y)
	big := 0
	for k := range wt {
		if math.Abs(wt[k]) > math.Abs(wt[big]) {
			big = k
		}
	}
	rest := 0.0
	for k := range wt {
		if k != big {
			rest += wt[k] * v[k]
		}
	}
	v[big] = (target - rest) / wt[big]
}
