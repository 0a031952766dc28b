package pica

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/retrogl/retrogl/hal"
	p "github.com/retrogl/retrogl/hal/pica"
)

var fuzzDev *Device

// FuzzCommandProcessor submits arbitrary command buffers (with a small
// drawing setup in the seeds): every outcome is a clean completion or a
// fault naming a reason, never a panic or a hang.
func FuzzCommandProcessor(f *testing.F) {
	var w p.Writer
	w.Write(p.COLORBUFFER_LOC, VRAMBase>>3)
	w.Write(p.FRAMEBUFFER_DIM, 16|15<<12|1<<24)
	w.Write(p.COLORBUFFER_WRITE, 0xF)
	w.Write(p.VSH_OUTMAP_MASK, 3)
	w.Write(p.SH_OUTMAP_TOTAL, 2)
	w.Write(p.SH_OUTMAP_O0, 0x03020100)
	w.Write(p.SH_OUTMAP_O0+1, 0x0B0A0908)
	w.Rep(p.VSH_CODETRANSFER_DATA0, 0x4C000000, 0x4C201000, 0x88000000)
	w.Rep(p.VSH_OPDESCS_DATA0, uint32(p.DescIdentity))
	w.Write(p.VIEWPORT_WIDTH, p.ToF24(8))
	w.Write(p.VIEWPORT_HEIGHT, p.ToF24(8))
	w.Write(p.FIXEDATTRIB_INDEX, 0xF)
	w.Write(p.VSH_INPUTBUFFER_CONFIG, 0xA0000001)
	for _, v := range [][4]float32{{-1, -1, 0, 1}, {1, 0, 0, 1}, {1, -1, 0, 1}, {0, 1, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}} {
		d := p.PackF24x4(p.ToF24(v[0]), p.ToF24(v[1]), p.ToF24(v[2]), p.ToF24(v[3]))
		w.Seq(p.FIXEDATTRIB_DATA0, d[0], d[1], d[2])
	}
	w.Write(p.NUMVERTICES, 3)
	w.Write(p.DRAWARRAYS, 1)
	w.Finalize()
	f.Add(w.Bytes())
	f.Add([]byte{1, 0, 0, 0, 0x11, 0x01, 0x0F, 0x00, 0x78, 0x56, 0x34, 0x12, 0x10, 0, 0x0F, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		if fuzzDev == nil {
			fuzzDev = NewWithBudget(1 << 14)
			fuzzDev.GPU.ShaderLimit = 1 << 12
		}
		d := fuzzDev
		if len(b) > 1<<16 {
			return
		}
		a, err := d.Alloc(uint32(len(b))+16, 16, "fcram")
		if err != nil {
			t.Fatal(err)
		}
		defer d.Free(a)
		if err := d.Write(a.Addr, b); err != nil {
			t.Fatal(err)
		}
		fence, err := d.Submit(hal.Buffer{Addr: a.Addr, Size: uint32(len(b))})
		if err != nil {
			t.Fatal(err)
		}
		err = d.Wait(fence)
		if err == nil {
			return
		}
		fl, ok := hal.AsFault(err)
		if !ok {
			t.Fatalf("not a fault: %v", err)
		}
		if strings.Contains(fl.Reason, "internal simulator error") {
			t.Fatalf("panic inside the simulator: %v", fl)
		}
	})
}

// FuzzShader runs random programs with random descriptors and uniforms:
// the unit returns (END, a fault, or the step bound), never panics.
func FuzzShader(f *testing.F) {
	f.Add([]byte{0x00, 0x00, 0x00, 0x4C, 0x00, 0x00, 0x00, 0x88})
	f.Add([]byte{0x00, 0x04, 0x00, 0xA4, 0x00, 0x00, 0x00, 0xB4, 0x00, 0x00, 0x00, 0x88})
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Shader
		for i := 0; i+4 <= len(b) && i/4 < 64; i += 4 {
			w := binary.LittleEndian.Uint32(b[i:])
			s.Code[i/4] = w
			s.Opdesc[(i/4)%NumOpdescs] = w ^ 0x5A5A5A5A
			s.Float[(i/4)%NumUniforms] = vec4{float32(int32(w)) / 256, f24(w & 0xFFFFFF), 0, 1}
		}
		if len(b) > 0 {
			s.Int[0] = [4]uint8{b[0], b[len(b)-1], 1, 0}
			s.Bool = uint16(b[0])
		}
		u := Unit{Limit: 1 << 14}
		_ = u.Run(&s)
		if u.Steps > u.Limit {
			t.Fatalf("ran %d steps", u.Steps)
		}
	})
}
