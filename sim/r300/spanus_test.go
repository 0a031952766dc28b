package r300

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	r3 "github.com/retrogl/retrogl/hal/r300"
)

// randomALU returns a random ALU instruction the US accepts.
func randomALU(r *rand.Rand) r3.ALUInst {
	for {
		var a r3.ALUInst
		for _, h := range []*r3.Half{&a.RGB, &a.Alpha} {
			for k := range h.Src {
				h.Src[k] = uint8(r.IntN(64))
				if r.IntN(2) == 0 {
					h.Src[k] = uint8(r.IntN(6))
				}
				h.Args[k] = r3.Arg{Sel: uint8(r.IntN(32)), Mod: uint8(r.IntN(4))}
				if r.IntN(3) == 0 {
					h.Args[k].Mod = 0
				}
			}
			h.Dst = uint8(r.IntN(6))
			h.WMask, h.OMask = uint8(r.IntN(8)), uint8(r.IntN(8))
			h.Target = uint8(r.IntN(4))
			h.Srcp = uint8(r.IntN(4))
			h.Op = uint8(r.IntN(16))
			h.Omod = uint8(r.IntN(7))
			if r.IntN(2) == 0 {
				h.Omod = 0
			}
			h.Clamp = r.IntN(2) == 0
		}
		a.Alpha.WMask &= 1
		a.Alpha.OMask &= 1
		a.Alpha.DepthOut = r.IntN(4) == 0
		if r.IntN(3) == 0 {
			a.RGB.Op = 0
		}
		if r.IntN(3) == 0 {
			a.Alpha.Op = 0
		}
		if checkALU(0, &a) == nil {
			return a
		}
	}
}

// randomValue returns an FP24 value: ordinary, special or extreme.
func randomValue(r *rand.Rand) float32 {
	switch r.IntN(10) {
	case 0:
		return []float32{0, 1, -1, 0.5, r3.FP24Max, -r3.FP24Max, r3.FP24MinNormal}[r.IntN(7)]
	case 1:
		return r3.RoundFP24(math.Ldexp(r.Float64()*2-1, r.IntN(120)-60))
	}
	return r3.RoundFP24(r.Float64()*4 - 2)
}

// TestALUSpanMatchesExec runs random instructions over random registers
// through the span form and, pixel by pixel, through aluOp.exec: every
// temp, output and depth value must be the same bits.
func TestALUSpanMatchesExec(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	sw := newSpanWork()
	const n = 12
	for iter := 0; iter < 20000; iter++ {
		a := randomALU(r)
		op := decodeALU(a)
		as := newALUSpan(&op)
		sw.resolve(&fastPipe{stages: []spanStage{{alu: as}}})
		var consts [32][4]float32
		for k := range consts {
			for c := range consts[k] {
				consts[k][c] = randomValue(r)
				for p := range sw.konst[k][c] {
					sw.konst[k][c][p] = consts[k][c]
				}
			}
		}
		var temps [n][32][4]float32
		var outs [n][4][4]float32
		var depth [n]float32
		for p := 0; p < n; p++ {
			for k := 0; k < 8; k++ {
				for c := 0; c < 4; c++ {
					temps[p][k][c] = randomValue(r)
					sw.temps[k][c][p] = temps[p][k][c]
				}
			}
			for tg := 0; tg < 4; tg++ {
				for c := 0; c < 4; c++ {
					outs[p][tg][c] = float32(p)
					sw.out[tg][c][p] = float32(p)
				}
			}
			depth[p] = -1
			sw.depth[p] = -1
		}
		as.run(sw, n)
		for p := 0; p < n; p++ {
			op.exec(&temps[p], &consts, &outs[p], &depth[p])
			for k := 0; k < 8; k++ {
				for c := 0; c < 4; c++ {
					if math.Float32bits(temps[p][k][c]) != math.Float32bits(sw.temps[k][c][p]) {
						t.Fatalf("iteration %d %v: pixel %d temp r%d.%d = %v, want %v", iter, a, p, k, c, sw.temps[k][c][p], temps[p][k][c])
					}
				}
			}
			for tg := 0; tg < 4; tg++ {
				for c := 0; c < 4; c++ {
					if math.Float32bits(outs[p][tg][c]) != math.Float32bits(sw.out[tg][c][p]) {
						t.Fatalf("iteration %d %v: pixel %d out %d.%d = %v, want %v", iter, a, p, tg, c, sw.out[tg][c][p], outs[p][tg][c])
					}
				}
			}
			if math.Float32bits(depth[p]) != math.Float32bits(sw.depth[p]) {
				t.Fatalf("iteration %d: pixel %d depth %v, want %v", iter, p, sw.depth[p], depth[p])
			}
		}
	}
}

// TestFP24MatchesRoundFP24 checks the span form of the FP24 rounding
// against hal/r300's on every binade's edges, the specials and random
// bits.
func TestFP24MatchesRoundFP24(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	var xs []float64
	for e := -1100; e <= 1100; e++ {
		v := math.Ldexp(1, e)
		xs = append(xs, v, -v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1)), -math.Nextafter(v, 0))
	}
	xs = append(xs, 0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), float64(r3.FP24Max), float64(r3.FP24MinNormal),
		math.Float64frombits(0x7FF0000000000001), math.Float64frombits(0xFFF0000000000010), math.MaxFloat64, math.SmallestNonzeroFloat64)
	for i := 0; i < 200000; i++ {
		xs = append(xs, math.Float64frombits(r.Uint64()), r.Float64()*4-2)
	}
	for _, x := range xs {
		if got, want := fp24(x), r3.RoundFP24(x); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("fp24(%v = %#x) = %v, want %v", x, math.Float64bits(x), got, want)
		}
	}
}

// TestLoadSpanSkipsZeros holds loadSpan's shortened sums to the full sum
// over random finite weights and vertex values with zeros of both signs,
// huge values whose products overflow, infinities and NaNs; with weights
// that are not finite it must take the full sum.
func TestLoadSpanSkipsZeros(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	val := func() float64 {
		switch r.IntN(8) {
		case 0, 1:
			return 0
		case 2:
			return math.Copysign(0, -1)
		case 3:
			return (r.Float64() - 0.5) * 1e308
		case 4:
			return []float64{math.Inf(1), math.Inf(-1), math.NaN()}[r.IntN(3)]
		}
		return (r.Float64() - 0.5) * 8
	}
	weight := func(finite bool) float64 {
		switch r.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			if !finite {
				return []float64{math.Inf(1), math.Inf(-1), math.NaN()}[r.IntN(3)]
			}
			return (r.Float64() - 0.5) * 1e300
		}
		return r.Float64()*2 - 0.5
	}
	for n := 0; n < 3000; n++ {
		finite := n%4 != 0
		var wp [3]spanArr64
		for k := range wp {
			for i := range wp[k] {
				wp[k][i] = weight(finite)
			}
		}
		v := []float64{val(), val(), val()}
		var got spanArr
		loadSpan(got[:], &wp, v, finite)
		for i := range got {
			want := fp24(float64(wp[0][i]*v[0]) + float64(wp[1][i]*v[1]) + float64(wp[2][i]*v[2]))
			require.Equal(t, math.Float32bits(want), math.Float32bits(got[i]),
				"case %d pixel %d: weights (%v, %v, %v), values %v", n, i, wp[0][i], wp[1][i], wp[2][i], v)
		}
	}
}
