package unichrome

import (
	"math"
	"math/bits"
)

// rowStep steps one attribute along a span's row for the span pipeline.
// The reference accumulates each attribute in float64 from its value at
// the row's first pixel (v, v+d, (v+d)+d, ...) and rounds it per pixel
// (clamp8, depthBuf.zValue); rowStep instead steps the scaled value in
// 32.32 fixed point, from the exact row start, and takes the integer part.
// Over a row of at most 2^13 pixels whose scaled values stay below 2^20 in
// magnitude the two differ by less than 2 + 1.5k units of 2^-32 after k
// steps (the fixed point's truncation of the start and the step: under a
// unit each; the float64 additions' rounding: under half a unit a step),
// so a pixel whose fixed-point value lies further than stepMargin from an
// integer rounds the same. A pixel closer than that takes the reference's
// own float64 accumulation, replayed from the row start: the result is the
// reference's bit for bit.
type rowStep struct {
	v, d  int64   // the scaled value at step k, in 32.32, and its step
	k     int     // pixels stepped from the row start
	f, fd float64 // the reference's float64 value at step fk, its step
	fk    int
	fixed bool // the fixed-point form is in range
}

// stepMargin is rowStep's margin in units of 2^-32 (above the 1.5 * 2^13
// + 2 the error can reach).
const stepMargin = 1 << 14

// minFixedRow is the shortest row rowStep steps in fixed point: on shorter
// rows the set-up costs more than the float64 steps.
const minFixedRow = 8

// start sets the stepper at a row of n pixels whose attribute is f at
// the first pixel and steps by fd; the fixed point steps (value*scale +
// off) * 2^32 (scale a power of two).
func (r *rowStep) start(f, fd, scale, off float64, n int) {
	r.f, r.fd, r.fk, r.k = f, fd, 0, 0
	m := (math.Abs(f) + float64(n)*math.Abs(fd)) * scale
	r.fixed = fd != 0 && n >= minFixedRow && n <= 1<<13 && m < 1<<20
	if r.fixed {
		r.v = int64((f*scale + off) * (1 << 32))
		r.d = int64(fd * scale * (1 << 32))
	}
}

// replay brings the float64 accumulation to the current pixel.
func (r *rowStep) replay() float64 {
	f := r.f
	for ; r.fk < r.k; r.fk++ {
		f += r.fd
	}
	r.f = f
	return f
}

// run8 fills out[:n] with clamp8 of the attribute at the next n pixels
// (started with scale 1, off 0.5) and steps past them.
func (r *rowStep) run8(n int, out *[spanN]int32) {
	if r.fd == 0 {
		// The reference adds 0: the value stays.
		x := int32(clamp8(r.f))
		for i := range out[:n] {
			out[i] = x
		}
		return
	}
	if r.fixed {
		v, d := r.v, r.d
		m := uint32(stepMargin) + fixForce
		near := uint64(0) // the pixels within the margin
		for i := range out[:n] {
			if uint32(v)+m < 2*m {
				near |= 1 << uint(i)
			}
			x := v >> 32
			if uint64(x) > 255 {
				x = 255 &^ (x >> 63) // below 0: 0; above 255: 255
			}
			out[i] = int32(x)
			v += d
		}
		r.v = v
		if near == 0 {
			r.k += n
			return
		}
		// The pixels near an edge take the reference's float64 value.
		f := r.replay()
		for i := 0; i < n; i++ {
			if near>>uint(i)&1 != 0 {
				out[i] = int32(clamp8(f))
			}
			f += r.fd
		}
		r.k += n
		r.f, r.fk = f, r.k
		return
	}
	f := r.replay()
	for i := 0; i < n; i++ {
		out[i] = int32(clamp8(f))
		f += r.fd
	}
	r.k += n
	r.f, r.fk = f, r.k
}

// runZ fills out[:n] with d.zValue of the attribute at the next n pixels
// (started with scale d.scale, off 0) and steps past them.
func (r *rowStep) runZ(d *depthBuf, n int, out *[spanN]uint32) {
	if r.fd == 0 {
		x := d.zValue(r.f)
		for i := range out[:n] {
			out[i] = x
		}
		return
	}
	if r.fixed {
		v, dv := r.v, r.d
		m := uint32(stepMargin) + fixForce
		top := int64(d.scale) - 1
		near := uint64(0) // the pixels within the margin
		for i := range out[:n] {
			if uint32(v)+m < 2*m {
				near |= 1 << uint(i)
			}
			x := v >> 32
			if uint64(x) > uint64(top) {
				x = top &^ (x >> 63) // below 0: 0; above the top: the top
			}
			out[i] = uint32(x)
			v += dv
		}
		r.v = v
		if near == 0 {
			r.k += n
			return
		}
		// The pixels near an edge take the reference's float64 value.
		f := r.replay()
		for i := 0; i < n; i++ {
			if near>>uint(i)&1 != 0 {
				out[i] = d.zValue(f)
			}
			f += r.fd
		}
		r.k += n
		r.f, r.fk = f, r.k
		return
	}
	f := r.replay()
	for i := 0; i < n; i++ {
		out[i] = d.zValue(f)
		f += r.fd
	}
	r.k += n
	r.f, r.fk = f, r.k
}

// runFix fills component c of out[:n] with fixCoord(s, size, true) of the
// attribute at the next n pixels (started with scale 256*size, off -128)
// and steps past them.
func (r *rowStep) runFix(n, size int, out *[spanN][2]int64, c int) {
	if r.fd == 0 {
		x := fixCoord(r.f, size, true)
		for i := range out[:n] {
			out[i][c] = x
		}
		return
	}
	if r.fixed {
		v, d := r.v, r.d
		m := uint32(stepMargin) + fixForce
		near := uint64(0) // the pixels within the margin
		for i := range out[:n] {
			if uint32(v)+m < 2*m {
				near |= 1 << uint(i)
			}
			out[i][c] = v >> 32
			v += d
		}
		r.v = v
		if near == 0 {
			r.k += n
			return
		}
		// The pixels near an edge take the reference's float64 value:
		// the float64 sum is stepped pixel by pixel (as the reference
		// does), fixCoord taken only at the near pixels.
		f, fd := r.replay(), r.fd
		k := 0
		for near != 0 {
			j := bits.TrailingZeros64(near)
			for ; k < j; k++ {
				f += fd
			}
			out[j][c] = fixCoord(f, size, true)
			near &= near - 1
		}
		for ; k < n; k++ {
			f += fd
		}
		r.k += n
		r.f, r.fk = f, r.k
		return
	}
	f := r.replay()
	for i := 0; i < n; i++ {
		out[i][c] = fixCoord(f, size, true)
		f += r.fd
	}
	r.k += n
	r.f, r.fk = f, r.k
}
