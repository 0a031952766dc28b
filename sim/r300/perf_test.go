package r300

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// The pixel helpers as they were before they were rewritten for speed: the
// references the tests below hold the fast forms to.

func compareRef(names []string, fn, a, b uint32) bool {
	switch names[fn] {
	case "NEVER":
		return false
	case "LESS":
		return a < b
	case "EQUAL":
		return a == b
	case "LE", "LEQUAL":
		return a <= b
	case "GREATER":
		return a > b
	case "NOTEQUAL":
		return a != b
	case "GE", "GEQUAL":
		return a >= b
	}
	return true
}

func quantOutRef(f uint32, v float32) float64 {
	switch f {
	case 0:
		return math.Floor(clamp01(float64(v))*255+0.5) / 255
	case 1:
		return math.Floor(clamp01(float64(v))*1023+0.5) / 1023
	case 5:
		return math.Floor(clamp01(float64(v))*65535+0.5) / 65535
	case 18:
		return float64(half(toHalf(v)))
	}
	return float64(v)
}

func toUnormRef(v float64, n uint, mode uint32, x, y int) uint32 {
	m := float64(uint32(1)<<n - 1)
	f := clamp01(v) * m
	switch mode {
	case 0:
		f = math.Floor(f + 1.0/4096)
	case 1:
		f = math.Floor(f + 0.5)
	default:
		f = math.Floor(f + (bayer[y&3][x&3]+0.5)/16)
	}
	return uint32(math.Min(f, m))
}

// testValues returns channel values around every quantisation step of 8,
// 10 and 16 bits, the specials and random values.
func testValues(r *rand.Rand) []float32 {
	vs := []float32{0, 1, -1, 2, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0.5, float32(math.Copysign(0, -1)),
		math.SmallestNonzeroFloat32, math.MaxFloat32}
	for _, m := range []float64{255, 1023, 65535} {
		for k := 0.0; k <= m; k += max(1, m/1023) {
			for _, d := range []float64{-0.5, 0, 0.5, 1.0 / 4096} {
				x := float32((k + d) / m)
				vs = append(vs, x, math.Nextafter32(x, 2), math.Nextafter32(x, -1))
			}
		}
	}
	for i := 0; i < 5000; i++ {
		vs = append(vs, float32(r.Float64()*1.2-0.1))
	}
	return vs
}

func TestPixelHelpersMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for _, names := range [][]string{r3.EnumZFunc, r3.EnumAlphaFunc} {
		ops := cmpOps(names)
		for fn := range names {
			for _, ab := range [][2]uint32{{0, 0}, {1, 2}, {2, 1}, {0xFFFFFF, 0}, {5, 5}} {
				require.Equal(t, compareRef(names, uint32(fn), ab[0], ab[1]), cmp(ops[fn], ab[0], ab[1]), "%s %v", names[fn], ab)
			}
		}
	}
	for _, v := range testValues(r) {
		for _, f := range []uint32{0, 1, 5, 18, 21} {
			if want, got := quantOutRef(f, v), quantOut(f, v); want != got && !(want != want && got != got) {
				t.Fatalf("quantOut(%d, %v) = %v, want %v", f, v, got, want)
			}
		}
		if want, got := quantOutRef(0, v), unorm8Out(v); want != got {
			t.Fatalf("unorm8Out(%v) = %v, want %v", v, got, want)
		}
		for _, n := range []uint{1, 4, 5, 6, 8, 10, 16} {
			for mode := uint32(0); mode < 3; mode++ {
				x, y := r.IntN(8), r.IntN(8)
				if want, got := toUnormRef(float64(v), n, mode, x, y), toUnorm(float64(v), n, mode, x, y); want != got {
					t.Fatalf("toUnorm(%v, %d, %d, %d, %d) = %d, want %d", v, n, mode, x, y, got, want)
				}
			}
		}
	}
}

// TestRowSpanMatchesInside checks the row spans of random triangles,
// parallelograms and rectangles, with every edge rule, against the
// per-sample edge test.
func TestRowSpanMatchesInside(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	skipped := 0
	for n := 0; n < 1500; n++ {
		sub := int64(12)
		if r.IntN(2) == 0 {
			sub = 16
		}
		pt := func() (int64, int64) { return r.Int64N(70*sub) - 5*sub, r.Int64N(50*sub) - 5*sub }
		if r.IntN(3) == 0 { // on the sample grid, so that samples fall on edges
			pt = func() (int64, int64) { return (r.Int64N(70)-5)*sub + sub/2, (r.Int64N(50)-5)*sub + sub/2 }
		}
		k := 3 + r.IntN(2)
		xs, ys := make([]int64, k), make([]int64, k)
		for i := 0; i < 3; i++ {
			xs[i], ys[i] = pt()
		}
		if k == 4 { // a parallelogram
			xs[3], ys[3] = xs[0]+xs[2]-xs[1], ys[0]+ys[2]-ys[1]
		}
		area := (xs[1]-xs[0])*(ys[2]-ys[0]) - (xs[2]-xs[0])*(ys[1]-ys[0])
		sign := int64(1)
		if area < 0 {
			sign = -1
		}
		rule := uint32(r.IntN(32))
		p := &prim{ne: k}
		for i := 0; i < k; i++ {
			p.edges[i] = edgeThrough(xs[i], ys[i], xs[(i+1)%k], ys[(i+1)%k], sign, rule)
		}
		s := &drawState{sub: sub, sx0: r.IntN(10), sy0: r.IntN(10), sx1: 50 + r.IntN(20), sy1: 35 + r.IntN(20)}
		if !s.bbox(p, xs, ys) || !smallEdges(p, sub) {
			skipped++
			continue
		}
		for y := p.y0 - 1; y <= p.y1+1; y++ {
			lo, hi := rowSpan(p, sub, y)
			for x := p.x0; x <= p.x1; x++ {
				if want := y >= p.y0 && y <= p.y1 && p.inside(x, y, sub); want != (x >= lo && x <= hi) {
					t.Fatalf("primitive %d row %d pixel %d: span [%d, %d], inside %v", n, y, x, lo, hi, want)
				}
			}
		}
	}
	require.Less(t, skipped, 750, "most primitives must cover pixels")
}

// TestUnorm8RoundTrip proves pixelDirect8's shortcut: for every 8-bit k,
// toUnorm of quantOut's k/255 is k in every dither mode and position.
func TestUnorm8RoundTrip(t *testing.T) {
	for k := 0; k < 256; k++ {
		v := float32(k) / 255
		require.Equal(t, byte(k), outByte(v))
		q := quantOut(0, v)
		for mode := uint32(0); mode < 3; mode++ {
			for pos := 0; pos < 16; pos++ {
				require.Equal(t, uint32(k), toUnorm(q, 8, mode, pos&3, pos>>2), "k %d mode %d", k, mode)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 1))
	for _, v := range testValues(r) {
		q := quantOut(0, v)
		for mode := uint32(0); mode < 3; mode++ {
			if got, want := uint32(outByte(v)), toUnorm(q, 8, mode, int(mode), 3); got != want {
				t.Fatalf("outByte(%v) = %d, toUnorm(quantOut) %d", v, got, want)
			}
		}
	}
}

// TestColorOutFastPath compares colorOut's ARGB8888 path with its general
// path (the same buffer not marked simple) over random blend states,
// sources, destinations and positions.
func TestColorOutFastPath(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 4))
	codes := []uint32{}
	for c := uint32(0); c < 64; c++ {
		if blendFactor(c) >= 0 {
			codes = append(codes, c)
		}
	}
	e := &Engine{}
	for n := 0; n < 20000; n++ {
		s := &drawState{}
		cb := &s.cb
		cb.blend, cb.read = r.IntN(4) != 0, r.IntN(4) != 0
		cb.comb, cb.acomb = uint32(r.IntN(8)), uint32(r.IntN(8))
		cb.src, cb.dst, cb.asrc, cb.adst = codes[r.IntN(len(codes))], codes[r.IntN(len(codes))], codes[r.IntN(len(codes))], codes[r.IntN(len(codes))]
		cb.kinds[0], cb.kinds[1] = blendKindsOf(cb.comb, cb.src, cb.dst)
		cb.kinds[2], cb.kinds[3] = blendKindsOf(cb.acomb, cb.asrc, cb.adst)
		cb.constant = [4]float64{r.Float64(), r.Float64(), r.Float64(), r.Float64()}
		cb.mask, cb.allMask = [4]bool{true, true, true, true}, true
		cb.ditherRGB, cb.ditherA = uint32(r.IntN(3)), uint32(r.IntN(3))
		perm := r.Perm(4)
		buf := cbBuffer{bpp: 4, bits: [4]uint{8, 8, 8, 8}, pitch: 8, mem: make([]byte, 4*8*8)}
		for k := range buf.slots {
			buf.slots[k] = perm[k]
			buf.modes[k] = cb.ditherRGB
			if perm[k] == 3 {
				buf.modes[k] = cb.ditherA
			}
		}
		for i := range buf.mem {
			buf.mem[i] = byte(r.UintN(256))
		}
		var src [4]float64
		for c := range src {
			src[c] = float64(r.IntN(256)) / 255
			if r.IntN(4) == 0 {
				src[c] = r.Float64()*1.2 - 0.1
			}
		}
		x, y := r.IntN(8), r.IntN(8)
		slow := buf
		slow.mem = append([]byte(nil), buf.mem...)
		buf.simple = true
		require.NoError(t, e.colorOut(s, &buf, &src, x, y))
		require.NoError(t, e.colorOut(s, &slow, &src, x, y))
		if string(buf.mem) != string(slow.mem) {
			t.Fatalf("state %d: fast path wrote %v, general path %v", n, buf.mem[4*(8*y+x):][:4], slow.mem[4*(8*y+x):][:4])
		}
	}
}

// TestBilinear8MatchesFilter compares filter's 8_8_8_8 path with its
// general path (the same unit without wrapFast) over random textures,
// swizzles, wrap modes and coordinates.
func TestBilinear8MatchesFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	f := &r3.TexFormats[r3.TxFmt8_8_8_8]
	for n := 0; n < 200; n++ {
		w, h := 1<<r.IntN(7), 1<<r.IntN(7)
		u := &texUnit{f: f, fast8: true, wrapFast: true, levels: r3.TexLayout(f, w, h, 1, 0)}
		u.mem = make([]byte, u.levels[0].Offset+u.levels[0].Size)
		for i := range u.mem {
			u.mem[i] = byte(r.UintN(256))
		}
		modes := []uint32{0, 2, 3}
		u.wrap = [2]uint32{modes[r.IntN(3)], modes[r.IntN(3)]}
		for c := range u.sel {
			u.sel[c] = uint32(r.IntN(6))
		}
		slow := *u
		slow.wrapFast = false
		for i := 0; i < 200; i++ {
			s, tt := r.Float64()*6-3, r.Float64()*6-3
			if i%10 == 0 {
				s, tt = (float64(r.IntN(4*w))+0.5)/float64(w), float64(r.IntN(4*h))/float64(h)
			}
			got, _ := u.filter(0, s, tt, true)
			want, _ := slow.filter(0, s, tt, true)
			if got != want {
				t.Fatalf("texture %d (%dx%d, wrap %v) at (%v, %v): %v, want %v", n, w, h, u.wrap, s, tt, got, want)
			}
		}
	}
}

// TestSpanSamplersMatchFilter compares the span pipeline's straight-line
// samplers with filter over random 8_8_8_8 textures, swizzles, wrap modes
// and coordinates.
func TestSpanSamplersMatchFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	f := &r3.TexFormats[r3.TxFmt8_8_8_8]
	for n := 0; n < 300; n++ {
		w, h := 1<<r.IntN(7), 1<<r.IntN(7)
		u := &texUnit{f: f, fast8: true, wrapFast: true, levels: r3.TexLayout(f, w, h, 1, 0)}
		u.mem = make([]byte, u.levels[0].Offset+u.levels[0].Size)
		for i := range u.mem {
			u.mem[i] = byte(r.UintN(256))
		}
		modes := []uint32{0, 2, 3}
		u.wrap = [2]uint32{modes[r.IntN(3)], modes[r.IntN(3)]}
		for c := range u.sel {
			u.sel[c] = uint32(r.IntN(6))
		}
		if n%2 == 0 {
			u.sel = [4]uint32{0, 1, 2, 3}
		}
		u.selID = u.sel == [4]uint32{0, 1, 2, 3}
		lv := &u.levels[0]
		for i := 0; i < 300; i++ {
			s, tt := r.Float64()*6-3, r.Float64()*6-3
			if i%10 == 0 {
				s, tt = (float64(r.IntN(4*w))+0.5)/float64(w), float64(r.IntN(4*h))/float64(h)
			}
			for _, linear := range []bool{false, true} {
				want, _ := u.filter(0, s, tt, linear)
				ws, wt := wrapCoord(u.wrap[0], s), wrapCoord(u.wrap[1], tt)
				x, y := float64(ws*float64(w)), float64(wt*float64(h))
				got := u.nearest8(lv, x, y)
				if linear {
					got = u.bilinear8Fast(lv, x, y)
				}
				if got != want {
					t.Fatalf("texture %d (%dx%d, wrap %v, sel %v) at (%v, %v), linear %v: %v, want %v", n, w, h, u.wrap, u.sel, s, tt, linear, got, want)
				}
			}
		}
	}
}

// TestBilinearRepeatMatchesFast compares bilinearRepeat's cached column
// and row parts with bilinear8Fast pixel by pixel over spans whose
// coordinates repeat the way a screen-aligned draw's do (s equal down a
// quad column, t equal along a row), repeat only sometimes, or not at
// all, including NaN and out-of-range coordinates.
func TestBilinearRepeatMatchesFast(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	f := &r3.TexFormats[r3.TxFmt8_8_8_8]
	nan := float32(math.NaN())
	for n := 0; n < 200; n++ {
		w, h := 1<<r.IntN(9), 1<<r.IntN(9)
		u := &texUnit{f: f, fast8: true, wrapFast: true, levels: r3.TexLayout(f, w, h, 1, 0)}
		u.mem = make([]byte, u.levels[0].Offset+u.levels[0].Size)
		for i := range u.mem {
			u.mem[i] = byte(r.UintN(256))
		}
		u.sel, u.selID = [4]uint32{0, 1, 2, 3}, true
		lv := &u.levels[0]
		var src, dst [4]spanArr
		np := 4 * (1 + r.IntN(spanQuads))
		coord := func() float32 {
			switch r.IntN(40) {
			case 0:
				return nan
			case 1:
				return float32(r.Float64()*1e12 - 5e11)
			case 2:
				return float32(math.Inf(1 - 2*r.IntN(2)))
			}
			return float32(r.Float64()*6 - 3)
		}
		t0, t1 := coord(), coord()
		for q := 0; q < np/4; q++ {
			s0, s1 := coord(), coord()
			for i := 0; i < 4; i++ {
				p := 4*q + i
				switch n % 3 {
				case 0: // screen-aligned
					src[0][p] = [2]float32{s0, s1}[i&1]
					src[1][p] = [2]float32{t0, t1}[i>>1]
				case 1: // sometimes
					src[0][p], src[1][p] = [2]float32{s0, s1}[i&1], [2]float32{t0, t1}[i>>1]
					if r.IntN(3) == 0 {
						src[0][p] = coord()
					}
					if r.IntN(3) == 0 {
						src[1][p] = coord()
					}
				default:
					src[0][p], src[1][p] = coord(), coord()
				}
			}
		}
		u.bilinearRepeat(lv, &src, &dst, np)
		for p := 0; p < np; p++ {
			x, y := float64(float64(src[0][p])*float64(w)), float64(float64(src[1][p])*float64(h))
			c := u.bilinear8Fast(lv, x, y)
			for ch := 0; ch < 4; ch++ {
				want := fp24(float64(c[ch]))
				require.Equal(t, math.Float32bits(want), math.Float32bits(dst[ch][p]),
					"span %d (%dx%d) pixel %d channel %d at (%v, %v)", n, w, h, p, ch, src[0][p], src[1][p])
			}
		}
	}
}
