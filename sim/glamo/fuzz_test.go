package glamo

import (
	"encoding/binary"
	"sync"
	"testing"

	"github.com/retrogl/retrogl/hal"
	hg "github.com/retrogl/retrogl/hal/glamo"
	"github.com/retrogl/retrogl/sim/device"
)

// fuzzDevice is a device with a small watchdog budget, so every input ends
// quickly; one per fuzzing process, its registers carrying over from input
// to input.
var fuzzDevice = sync.OnceValue(func() *device.Device {
	e := NewEngine()
	d := device.New(device.Config{Info: hal.Info{Chip: hg.Chip, WordSize: 2,
		Regions: []hal.Region{{Name: "vram", Base: 0, Size: 2 << 20}}}, Budget: 1 << 12}, e)
	e.mem = d.Memory()
	var pts []float32
	for i := 0; i < 64; i++ {
		pts = append(pts, float32(i%7)*5, float32(i%5)*7)
	}
	if err := d.Write(0x30000, f32s(pts...)); err != nil {
		panic(err)
	}
	return d
})

// seedDraw is a valid buffer: state, a stream list and an immediate strip.
func seedDraw() []byte {
	var b hg.Builder
	b.Set("EGDst0Cfg", "ROP", "COPY_PEN", "FMT", "RGB565", "PITCH", 32)
	b.Set("EGDST0BAS", "BASE", 0x10000)
	b.Set("EGZCfg", "FMT", "Z16", "TEST", "LESS", "PITCH", 32)
	b.Set("EGZBAS", "BASE", 0x20000)
	b.Set("EGCLTB", "TOP", 0, "BOT", 31)
	b.Set("EGCLLR", "LEFT", 0, "RIGHT", 31)
	b.Set("RGXFront", "SCRCOOR", true)
	b.Set("RGPSetup", "SHADE", "GOURAUD")
	b.Set("EGPrimSet", "FILL", "SOLID", "CCWFILL", "SOLID", "PARMODE", "STRIP_NEW_FAN_NEW")
	b.Set("EGEn0", "ZT", true, "ZW", true, "DITH", true)
	b.Set("MGVStreamActive", "ACTIVE", 1)
	b.Set("MGVStrm0Ctl", "STRIDE", 8, "DIM", "2D", "TYPE", "FLOAT")
	b.Set("MGVStrm0BAS", "BASE", 0x30000)
	b.Set("RGPVDNum", "COUNT", 6)
	b.Set("EGPDTYPE", "TYPE", "TRIANGLES")
	b.Set("MGBufCMSFire", "MODE", "BUFFER")
	b.Set("EGPDTYPE", "TYPE", "TRIANGLE_STRIP")
	for i := 0; i < 4; i++ {
		b.Burst32(0x1B00, hg.F32(float32(i%2)*30), hg.F32(float32(i/2)*30), hg.F32(0.5), hg.F32(1))
		b.Write32(0x1B20, 0xFF808080)
		b.Write16(0x2058, 0)
	}
	b.Set("EGEND", "MODE", "WAIT_ALL")
	b.Set("EGSRegA", "VALUE", 1)
	return b.Bytes()
}

// FuzzRun executes arbitrary command buffers: the engine must never panic
// (a panic would come back as an "internal simulator error" fault) and
// never hang (the watchdog bounds the work).
func FuzzRun(f *testing.F) {
	f.Add(seedDraw())
	f.Add([]byte{0x58, 0x20, 0, 0})
	f.Add([]byte{0x3E, 0x20, 3, 0})
	f.Fuzz(func(t *testing.T, buf []byte) {
		if len(buf) > 1<<16 {
			buf = buf[:1<<16]
		}
		d := fuzzDevice()
		if err := d.Write(0x100000, buf); err != nil {
			t.Fatal(err)
		}
		fe, err := d.Submit(hal.Buffer{Addr: 0x100000, Size: uint32(len(buf))})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Wait(fe); err != nil {
			fl, ok := hal.AsFault(err)
			if !ok {
				t.Fatalf("not a fault: %v", err)
			}
			if len(fl.Reason) > 25 && fl.Reason[:25] == "internal simulator error:" {
				t.Fatalf("panic: %s", fl.Reason)
			}
		}
	})
}

// FuzzFetch reads vertices through an arbitrary stream table from
// arbitrary memory: no panic, and every read inside VRAM or an error.
func FuzzFetch(f *testing.F) {
	f.Add([]byte{0x00, 0x0C, 0x02, 0x00, 0, 0, 0, 0}, uint32(3), uint8(0))
	f.Add([]byte{0x43, 0x04, 0x03, 0xFF, 0xFF, 0xFF, 0x7F, 0}, uint32(0xFFFF), uint8(3))
	f.Fuzz(func(t *testing.T, table []byte, index uint32, mode uint8) {
		m := device.NewMemory([]hal.Region{{Name: "vram", Base: 0, Size: 1 << 16}})
		for i := 0; i < 1<<16; i += 4 {
			binary.LittleEndian.PutUint32(mustSlice(m, uint32(i), 4), uint32(i)*2654435761)
		}
		e := NewEngine()
		e.SetMemory(m)
		for n := 0; n < 8 && 8*n+8 <= len(table); n++ {
			ctl := binary.LittleEndian.Uint32(table[8*n:])
			bas := binary.LittleEndian.Uint32(table[8*n+4:])
			_ = e.write(0x1F10+8*uint16(n), uint16(ctl))
			_ = e.write(0x1F12+8*uint16(n), uint16(ctl>>16))
			_ = e.write(0x1F14+8*uint16(n), uint16(bas))
			_ = e.write(0x1F16+8*uint16(n), uint16(bas>>16))
		}
		_ = e.write(0x1F00, 0xFF)
		_ = e.write(0x1F0C, 0x0700|uint16(mode&7))
		_ = e.write(0x2600, uint16(index))
		e.buildGL()
		ss, err := e.streams()
		if err != nil {
			return
		}
		var in input
		var out vertex
		if e.fetch(ss, uint32(mode&3), index, uint32(mode), mode&4 != 0, &in) == nil {
			e.transform(&in, &out)
		}
	})
}

func mustSlice(m *device.Memory, a, n uint32) []byte {
	b, ok := m.Slice(a, n)
	if !ok {
		panic("slice")
	}
	return b
}
