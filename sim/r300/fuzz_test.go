package r300

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/retrogl/retrogl/hal"
	r3 "github.com/retrogl/retrogl/hal/r300"
)

// fuzzDevice is a small device with a small watchdog budget, so that any
// stream finishes quickly.
func fuzzDevice() *Device {
	return NewWith(Config{Budget: 20000, VRAMSize: 1 << 20, GARTSize: 1 << 20})
}

func runFuzz(t *testing.T, d *Device, words []uint32) {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	if err := d.Write(GARTBase, b); err != nil {
		return
	}
	f, err := d.Submit(hal.Buffer{Addr: GARTBase, Size: uint32(len(b))})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Wait(f); err != nil {
		if fl, ok := hal.AsFault(err); ok && strings.Contains(fl.Reason, "internal simulator error") {
			t.Fatalf("panic: %v", err)
		}
	}
}

// FuzzPackets feeds arbitrary dwords to the command processor after a
// valid baseline: faults are fine, panics and hangs are not.
func FuzzPackets(f *testing.F) {
	var s r3.Stream
	baseline(&s, 8, 8)
	full(&s, 8, 8, 0, [4]float32{1, 0, 0, 1})
	seed := s.Bytes()
	f.Add(seed)
	f.Add([]byte{0, 0, 0, 0xC0, 1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := fuzzDevice()
		defer d.Close()
		var pre r3.Stream
		baseline(&pre, 8, 8)
		words := append(pre.Words, r3.Words(b)...)
		runFuzz(t, d, words)
	})
}

// FuzzMicrocode runs random US microcode (and US configuration) on a
// small draw.
func FuzzMicrocode(f *testing.F) {
	f.Add(uint32(9), uint32(0x00401002), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add(uint32(3), uint32(0xFFFFFFFF), []byte{0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, config, codeAddr uint32, code []byte) {
		d := fuzzDevice()
		defer d.Close()
		var s r3.Stream
		baseline(&s, 8, 8)
		texture4Words(&s)
		s.Reg(r3.US_CONFIG, config&15, 31, codeAddr&0xFFFFFF)
		s.Reg(r3.US_CODE_ADDR_0, codeAddr, codeAddr>>3, codeAddr>>7, codeAddr)
		w := r3.Words(code)
		for i := 0; i+4 <= len(w) && i/4 < r3.MaxALU; i += 4 {
			k := uint32(i / 4 * 4)
			s.Reg(r3.US_ALU_RGB_ADDR_0+k, w[i])
			s.Reg(r3.US_ALU_ALPHA_ADDR_0+k, w[i+1])
			s.Reg(r3.US_ALU_RGB_INST_0+k, w[i+2])
			s.Reg(r3.US_ALU_ALPHA_INST_0+k, w[i+3])
			s.Reg(r3.US_TEX_INST_0+uint32(i/4%32*4), w[i]^w[i+3])
		}
		s.Reg(r3.US_W_FMT, config>>4&3)
		s.Reg(r3.FG_DEPTH_SRC, config>>6&1)
		full(&s, 8, 8, 0, [4]float32{0.5, -1, 2, 1})
		runFuzz(t, d, s.Words)
	})
}

// texture4Words programs texture unit 0 over VRAM without writing texels.
func texture4Words(s *r3.Stream) {
	s.Reg(r3.TX_ENABLE, 0xFFFF)
	for u := uint32(0); u < 16; u++ {
		s.Reg(r3.TX_FILTER0_0+4*u, r3.Fields(r3.TX_FILTER0_0, "MAG_FILTER", 2, "MIN_FILTER", 2, "MIP_FILTER", 2))
		s.Reg(r3.TX_FORMAT0_0+4*u, r3.Fields(r3.TX_FORMAT0_0, "TXWIDTH", 7, "TXHEIGHT", 7, "NUM_LEVELS", 3))
		s.Reg(r3.TX_FORMAT1_0+4*u, 0x0008860C+u%3*3)
		s.Reg(r3.TX_OFFSET_0+4*u, VRAMBase)
	}
}
