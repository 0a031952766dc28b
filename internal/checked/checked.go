// Package checked is overflow-checked arithmetic for the sizes, counts and
// offsets an application passes: every function takes non-negative
// operands and reports false, instead of wrapping, when an operand is
// negative or the result does not fit in an int. The state tracker (package
// gles) checks every range with it before a draw, upload or read-back
// reaches a driver, so drivers only see ranges that fit; drivers and
// simulators use it where they size memory from those ranges.
package checked

import "math/bits"

// Add returns a + b.
func Add(a, b int) (int, bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	if a > maxInt-b {
		return 0, false
	}
	return a + b, true
}

// Mul returns a * b.
func Mul(a, b int) (int, bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > uint64(maxInt) {
		return 0, false
	}
	return int(lo), true
}

// MulAdd returns a * b + c.
func MulAdd(a, b, c int) (int, bool) {
	p, ok := Mul(a, b)
	if !ok {
		return 0, false
	}
	return Add(p, c)
}

// Product returns the product of its factors (1 for none), as for
// width * height * bytes per pixel.
func Product(factors ...int) (int, bool) {
	p := 1
	for _, f := range factors {
		var ok bool
		if p, ok = Mul(p, f); !ok {
			return 0, false
		}
	}
	return p, true
}

// InRange reports whether the n units starting at off lie inside [0,
// size): off >= 0, n >= 0 and off + n <= size, without overflow.
func InRange(off, n, size int) bool {
	end, ok := Add(off, n)
	return ok && end <= size
}

// Span returns the bytes count elements of elem bytes take when element i
// starts at byte i*stride: (count-1)*stride + elem, and 0 for no
// elements. A stride below elem is taken as given (elements overlap).
func Span(count, stride, elem int) (int, bool) {
	if count < 0 || stride < 0 || elem < 0 {
		return 0, false
	}
	if count == 0 {
		return 0, true
	}
	return MulAdd(count-1, stride, elem)
}

// Image returns the row stride and the size in bytes of a w x h image of
// bpp bytes per pixel whose rows start on multiples of align (a power of
// two; 1 for tight rows): the last row takes only w * bpp bytes, as GL's
// pixel-store rules say.
func Image(w, h, bpp, align int) (stride, size int, ok bool) {
	row, ok := Product(w, bpp)
	if !ok || align <= 0 {
		return 0, 0, false
	}
	if stride, ok = Add(row, align-1); !ok {
		return 0, 0, false
	}
	stride -= stride % align
	size, ok = Span(h, stride, row)
	return stride, size, ok
}

const maxInt = int(^uint(0) >> 1)
