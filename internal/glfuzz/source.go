package glfuzz

import (
	"encoding/binary"
	"math/rand/v2"
)

// Source supplies the generator's choices.
type Source interface {
	// Intn returns a number in [0, n); n > 0.
	Intn(n int) int
	// Uint64 returns 64 bits.
	Uint64() uint64
	// Exhausted reports whether the source has run out of choices (a
	// byte source at its end); a PRNG never does.
	Exhausted() bool
}

// RandSource returns a Source drawing from a PCG generator seeded with
// seed: the same seed gives the same program.
func RandSource(seed uint64) Source {
	return randSource{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

type randSource struct{ r *rand.Rand }

func (s randSource) Intn(n int) int  { return s.r.IntN(n) }
func (s randSource) Uint64() uint64  { return s.r.Uint64() }
func (s randSource) Exhausted() bool { return false }

// ByteSource returns a Source that takes its choices from data, as a Go
// fuzz target receives it; past the end every choice is 0.
func ByteSource(data []byte) Source { return &byteSource{data: data} }

type byteSource struct {
	data []byte
	i    int
}

func (s *byteSource) take(n int) []byte {
	var b [8]byte
	k := copy(b[:n], s.data[min(s.i, len(s.data)):])
	s.i += k
	return b[:]
}

func (s *byteSource) Intn(n int) int {
	switch {
	case n <= 1:
		return 0
	case n <= 1<<8:
		return int(s.take(1)[0]) % n
	case n <= 1<<16:
		return int(binary.LittleEndian.Uint16(s.take(2))) % n
	}
	return int(binary.LittleEndian.Uint64(s.take(8)) % uint64(n))
}

func (s *byteSource) Uint64() uint64  { return binary.LittleEndian.Uint64(s.take(8)) }
func (s *byteSource) Exhausted() bool { return s.i >= len(s.data) }

// Recorder is a Source that passes another's choices on and keeps them as
// the bytes that make ByteSource choose the same: a program generated
// from a seed becomes an input for the Go fuzz target.
type Recorder struct {
	src Source
	buf []byte
}

// RecordSource returns a Recorder over src.
func RecordSource(src Source) *Recorder { return &Recorder{src: src} }

// Intn implements Source.
func (r *Recorder) Intn(n int) int {
	v := r.src.Intn(n)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	switch {
	case n <= 1:
	case n <= 1<<8:
		r.buf = append(r.buf, b[0])
	case n <= 1<<16:
		r.buf = append(r.buf, b[:2]...)
	default:
		r.buf = append(r.buf, b[:]...)
	}
	return v
}

// Uint64 implements Source.
func (r *Recorder) Uint64() uint64 {
	v := r.src.Uint64()
	r.buf = binary.LittleEndian.AppendUint64(r.buf, v)
	return v
}

// Exhausted implements Source.
func (r *Recorder) Exhausted() bool { return r.src.Exhausted() }

// Bytes returns the choices made so far.
func (r *Recorder) Bytes() []byte { return r.buf }
