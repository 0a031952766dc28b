package raster

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// triBatch shades real triangles into a framebuffer with an operation that
// depends on the order fragments arrive in (h = h*31 + i), so any change
// of order within a pixel shows.
type triBatch struct {
	tris   []Triangle
	fb     []uint32
	stride int
	calls  []int // per worker: Shade calls, to check w stays in range
	failAt int   // primitive whose Shade fails on its first pixel row at y >= failY
	failY  int
	panicI int
}

func (b *triBatch) Len() int          { return len(b.tris) }
func (b *triBatch) Bounds(i int) Rect { return b.tris[i].Bounds() }
func (b *triBatch) Shade(w, i int, clip Rect) error {
	b.calls[w]++
	if i == b.panicI {
		panic(fmt.Sprintf("boom in %d", i))
	}
	var err error
	b.tris[i].Walk(clip, func(s *Span) {
		if err != nil {
			return
		}
		if i == b.failAt && s.Y >= b.failY {
			err = fmt.Errorf("prim %d row %d: %w", i, s.Y, errBoom)
			return
		}
		for x := s.X0; x < s.X1; x++ {
			p := &b.fb[s.Y*b.stride+x]
			*p = *p*31 + uint32(i) + 1
		}
	})
	return err
}

var errBoom = errors.New("boom")

func randomTris(r *rand.Rand, n, w, h int, big bool) []Triangle {
	var out []Triangle
	for len(out) < n {
		var p [3]Point
		cx, cy := r.IntN(w), r.IntN(h)
		size := 3
		if big || r.IntN(8) == 0 {
			size = max(w, h)
		}
		for k := range p {
			p[k] = Point{X: int64((cx + r.IntN(2*size) - size) << 4), Y: int64((cy + r.IntN(2*size) - size) << 4)}
		}
		if t, ok := Setup(p[0], p[1], p[2], 4); ok {
			out = append(out, t)
		}
	}
	return out
}

func render(t *testing.T, tris []Triangle, clip Rect, workers int, serial bool) ([]uint32, error) {
	t.Helper()
	b := &triBatch{tris: tris, stride: 200, fb: make([]uint32, 200*150), failAt: -1, panicI: -1}
	var s Scheduler
	s.SetWorkers(workers)
	b.calls = make([]int, s.Workers())
	var err error
	if serial {
		err = s.RunSerial(clip, b)
	} else {
		err = s.Run(clip, b)
	}
	return b.fb, err
}

func TestSchedulerSameBytesAnyWorkers(t *testing.T) {
	clips := []Rect{{0, 0, 200, 150}, {13, 7, 190, 141}, {0, 5, 200, 6}}
	for seed := range 20 {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		tris := randomTris(r, 50+r.IntN(400), 200, 150, seed%3 == 0)
		for _, clip := range clips {
			want, err := render(t, tris, clip, 1, true)
			require.NoError(t, err)
			for _, w := range []int{1, 2, 3, 4, 8, 13} {
				got, err := render(t, tris, clip, w, false)
				require.NoError(t, err)
				require.Equal(t, want, got, "seed %d clip %v workers %d", seed, clip, w)
			}
		}
	}
}

func TestSchedulerCoversEachPixelOncePerPrimitive(t *testing.T) {
	// One full-screen triangle pair drawn 4 times: every pixel gets
	// exactly four fragments, from primitives 0..7 in order.
	q := func(a, b, c Point) Triangle { tr, _ := Setup(a, b, c, 4); return tr }
	var tris []Triangle
	for range 4 {
		tris = append(tris, q(Point{0, 0}, Point{200 << 4, 0}, Point{0, 150 << 4}),
			q(Point{200 << 4, 0}, Point{200 << 4, 150 << 4}, Point{0, 150 << 4}))
	}
	fb, err := render(t, tris, Rect{0, 0, 200, 150}, 4, false)
	require.NoError(t, err)
	for y := 0; y < 150; y++ {
		for x := 0; x < 200; x++ {
			// Pixel in the first triangle of each pair gets ids 1,3,5,7;
			// in the second 2,4,6,8.
			first := tris[0].Covers(x, y)
			var h uint32
			for k := range 4 {
				id := uint32(2*k + 1)
				if !first {
					id++
				}
				h = h*31 + id
			}
			require.Equal(t, h, fb[y*200+x], "pixel %d,%d", x, y)
		}
	}
}

func TestSchedulerErrorIsDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tris := randomTris(r, 300, 200, 150, true)
	clip := Rect{0, 0, 200, 150}
	var msgs []string
	for _, w := range []int{1, 2, 4, 8} {
		b := &triBatch{tris: tris, stride: 200, fb: make([]uint32, 200*150), failAt: 120, failY: 100, panicI: -1}
		var s Scheduler
		s.SetWorkers(w)
		b.calls = make([]int, s.Workers())
		err := s.Run(clip, b)
		require.ErrorIs(t, err, errBoom)
		msgs = append(msgs, err.Error())
	}
	for _, m := range msgs[1:] {
		assert.Equal(t, msgs[0], m)
	}
}

func TestSchedulerPanicReachesCaller(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tris := randomTris(r, 100, 200, 150, true)
	b := &triBatch{tris: tris, stride: 200, fb: make([]uint32, 200*150), failAt: -1, panicI: 57}
	var s Scheduler
	s.SetWorkers(4)
	b.calls = make([]int, s.Workers())
	assert.PanicsWithValue(t, "boom in 57", func() { _ = s.Run(Rect{0, 0, 200, 150}, b) })
}

func TestSchedulerSmallBatchStaysOnCaller(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	tris := randomTris(r, 20, 200, 150, false)
	b := &triBatch{tris: tris[:3], stride: 200, fb: make([]uint32, 200*150), failAt: -1, panicI: -1}
	var s Scheduler
	s.SetWorkers(4)
	b.calls = make([]int, 4)
	require.NoError(t, s.Run(Rect{0, 0, 200, 150}, b))
	assert.Zero(t, b.calls[1]+b.calls[2]+b.calls[3], "a small batch ran on other workers")
}

func BenchmarkSchedulerTinyTris(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 9))
	tris := randomTris(r, 10000, 640, 480, false)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			tb := &triBatch{tris: tris, stride: 640, fb: make([]uint32, 640*480), failAt: -1, panicI: -1}
			var s Scheduler
			s.SetWorkers(w)
			tb.calls = make([]int, s.Workers())
			for b.Loop() {
				_ = s.Run(Rect{0, 0, 640, 480}, tb)
			}
		})
	}
}
