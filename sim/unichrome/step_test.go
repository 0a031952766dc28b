package unichrome

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRowStepMatchesFloat steps random attributes (in range, past both
// clamps, on exact rounding boundaries) through rowStep and through the
// reference's float64 accumulation and compares every value.
func TestRowStepMatchesFloat(t *testing.T) {
	d := &depthBuf{scale: 1 << 16}
	r := rand.New(rand.NewPCG(7, 7))
	for it := 0; it < 4000; it++ {
		n := 1 + r.IntN(700)
		var f, fd float64
		switch it % 8 {
		case 0: // anywhere, clamps included
			f, fd = r.Float64()*600-300, (r.Float64()*2-1)*float64(r.IntN(4))
		case 1: // on multiples of 1/128: many exact halves
			f, fd = float64(r.IntN(256*128))/128, float64(r.IntN(257)-128)/128
		case 2: // Z
			f, fd = r.Float64()*1.2-0.1, (r.Float64()*2-1)/float64(1+r.IntN(4096))
		case 3: // Z on exact boundaries
			f, fd = float64(r.IntN(1<<16))/(1<<16), float64(r.IntN(33)-16)/(1<<20)
		case 4: // decimal steps: the float64 sums land beside the halves
			f, fd = float64(r.IntN(2560))/10+0.05, float64(r.IntN(21)-10)/10
		case 5: // Z in decimal steps beside the exact quarters
			f, fd = float64(r.IntN(100))/100, float64(r.IntN(21)-10)/1000
		case 6: // texture coordinates
			f, fd = r.Float64()*8-4, (r.Float64()*2-1)/float64(1+r.IntN(512))
		default: // texture coordinates in decimal steps
			f, fd = float64(r.IntN(400)-200)/100, float64(r.IntN(21)-10)/1000
			if r.IntN(8) == 0 {
				fd = 0
			}
		}
		const size = 256
		kind := it % 8
		z := kind == 2 || kind == 3 || kind == 5
		tex := kind >= 6
		var rs rowStep
		switch {
		case tex:
			rs.start(f, fd, 256*size, -128, n)
		case z:
			rs.start(f, fd, d.scale, 0, n)
		default:
			rs.start(f, fd, 1, 0.5, n)
		}
		v := f
		for x := 0; x < n; x += spanN {
			m := min(spanN, n-x)
			var got8 [spanN]int32
			var gotZ [spanN]uint32
			var gotFix [spanN][2]int64
			switch {
			case tex:
				rs.runFix(m, size, &gotFix, 1)
			case z:
				rs.runZ(d, m, &gotZ)
			default:
				rs.run8(m, &got8)
			}
			for i := 0; i < m; i++ {
				if tex {
					require.Equal(t, fixCoord(v, size, true), gotFix[i][1], "it %d: f %v fd %v pixel %d", it, f, fd, x+i)
				} else if z {
					require.Equal(t, d.zValue(v), gotZ[i], "it %d: f %v fd %v pixel %d", it, f, fd, x+i)
				} else {
					require.Equal(t, int32(clamp8(v)), got8[i], "it %d: f %v fd %v pixel %d", it, f, fd, x+i)
				}
				v += fd
			}
		}
	}
}

// TestBlendSrcAlphaExhaustive compares blendSrcAlpha with the blending
// unit's SRC_ALPHA, ONE_MINUS_SRC_ALPHA arithmetic (weigh, then the
// clamped sum) for every source, destination and alpha byte: each call
// carries four destinations, one a lane.
func TestBlendSrcAlphaExhaustive(t *testing.T) {
	for a := 0; a < 256; a++ {
		for s := 0; s < 256; s++ {
			sw := uint32(s) * 0x01010101
			for d := 0; d < 256; d += 4 {
				dw := uint32(d) | uint32(d+1)<<8 | uint32(d+2)<<16 | uint32(d+3)<<24
				got := blendSrcAlpha(sw, dw, uint64(a))
				for l := 0; l < 4; l++ {
					want := sat(weigh(s, a)+weigh(d+l, 255-a), true)
					if int(got>>(8*l)&0xFF) != want {
						require.Equal(t, want, int(got>>(8*l)&0xFF), "a %d s %d d %d", a, s, d+l)
					}
				}
			}
		}
	}
}

// TestTexRowModBlendMatches compares texRowModBlendABGR with the two
// loops it fuses (bilinearRow, then texModBlendABGR) on random textures
// of several sizes, rows of S stepping by less and more than a texel,
// random live masks, colours, destinations and plane masks.
func TestTexRowModBlendMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 12))
	for iter := 0; iter < 2000; iter++ {
		w, h := 1<<r.IntN(7), 1<<r.IntN(7)
		mem := make([]byte, 4*w*h)
		for i := range mem {
			mem[i] = byte(r.Uint32())
		}
		var u texUnit
		u.lv[0] = texLevel{mem: mem, pitch: 4 * w, w: w, h: h}
		n := 1 + r.IntN(spanN)
		var fix [spanN][2]int64
		var words [spanN]uint32
		var live [spanN]bool
		us := r.Int64N(1<<20) - 1<<19
		step := r.Int64N(1 << (4 + r.IntN(8)))
		fix[0][1] = r.Int64N(1<<20) - 1<<19
		for i := 0; i < n; i++ {
			fix[i][0] = us
			us += step
			words[i] = r.Uint32()
			live[i] = r.IntN(8) != 0
		}
		pm := ^uint32(0)
		if r.IntN(4) == 0 {
			pm = r.Uint32()
		}
		dst := make([]byte, 4*n)
		for i := range dst {
			dst[i] = byte(r.Uint32())
		}
		want := append([]byte(nil), dst...)
		var tw [spanN]uint32
		u.bilinearRow(&fix, &tw, &live, n)
		wn := texModBlendABGR(want, &tw, &words, &live, pm, n)
		got := u.texRowModBlendABGR(&fix, &words, &live, dst, pm, n)
		require.Equal(t, wn, got, "iter %d: written", iter)
		require.Equal(t, want, dst, "iter %d", iter)
	}
}
