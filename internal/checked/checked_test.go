package checked

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAddMul(t *testing.T) {
	for _, tc := range []struct {
		name      string
		f         func(a, b int) (int, bool)
		a, b, out int
		ok        bool
	}{
		{"add", Add, 2, 3, 5, true},
		{"add max", Add, math.MaxInt - 1, 1, math.MaxInt, true},
		{"add wraps", Add, math.MaxInt - 1, 2, 0, false},
		{"add negative", Add, -1, 2, 0, false},
		{"mul", Mul, 6, 7, 42, true},
		{"mul zero", Mul, 0, math.MaxInt, 0, true},
		{"mul max", Mul, math.MaxInt, 1, math.MaxInt, true},
		{"mul wraps", Mul, 1 << 32, 1 << 31, 0, false},
		{"mul wraps to positive", Mul, math.MaxInt/3 + 1, 3, 0, false},
		{"mul negative", Mul, -2, -3, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, ok := tc.f(tc.a, tc.b)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.out, out)
		})
	}
}

func TestRanges(t *testing.T) {
	assert.True(t, InRange(0, 0, 0))
	assert.True(t, InRange(4, 4, 8))
	assert.False(t, InRange(5, 4, 8))
	assert.False(t, InRange(math.MaxInt-1, 2, 8), "first+count wraps")
	assert.False(t, InRange(-1, 1, 8))
	assert.False(t, InRange(0, -1, 8))

	n, ok := Span(3, 12, 8)
	assert.True(t, ok)
	assert.Equal(t, 32, n)
	n, ok = Span(0, 12, 8)
	assert.True(t, ok)
	assert.Equal(t, 0, n)
	_, ok = Span(math.MaxInt/4+2, 4, 4)
	assert.False(t, ok, "maxIndex*stride wraps")

	p, ok := Product(480, 272, 4)
	assert.True(t, ok)
	assert.Equal(t, 522240, p)
	_, ok = Product(1<<31, 1<<31, 4)
	assert.False(t, ok)
}

func TestImage(t *testing.T) {
	for _, tc := range []struct {
		w, h, bpp, align int
		stride, size     int
		ok               bool
	}{
		{3, 2, 3, 4, 12, 21, true},
		{3, 2, 3, 1, 9, 18, true},
		{0, 5, 4, 4, 0, 0, true},
		{4, 0, 4, 4, 16, 0, true},
		{math.MaxInt / 4, 2, 4, 4, 0, 0, false},
		{1 << 31, 1 << 31, 4, 4, 0, 0, false},
		{2, 2, 4, 0, 0, 0, false},
	} {
		stride, size, ok := Image(tc.w, tc.h, tc.bpp, tc.align)
		assert.Equal(t, tc.ok, ok, "%+v", tc)
		if ok {
			assert.Equal(t, tc.stride, stride, "%+v", tc)
			assert.Equal(t, tc.size, size, "%+v", tc)
		}
	}
}
