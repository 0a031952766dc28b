package unichrome

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/retrogl/retrogl/hal"
	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// fuzzRun submits b (padded to 8 bytes) to a device with a small watchdog
// budget and fails on anything but a clean end or a device fault: a panic
// inside the simulator comes back as an "internal simulator error" fault.
func fuzzRun(t *testing.T, d *Device, b []byte) {
	for len(b)%8 != 0 {
		b = append(b, 0xCC)
	}
	if len(b) == 0 || len(b) > 1<<16 {
		return
	}
	al, err := d.Alloc(uint32(len(b)), 64, "sys")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free(al)
	if err := d.Write(al.Addr, b); err != nil {
		t.Fatal(err)
	}
	f, err := d.Submit(hal.Buffer{Addr: al.Addr, Size: uint32(len(b))})
	if err != nil {
		t.Fatal(err)
	}
	err = d.Wait(f)
	if err == nil {
		return
	}
	fl, ok := hal.AsFault(err)
	if !ok {
		t.Fatalf("error is not a fault: %v", err)
	}
	if strings.Contains(fl.Reason, "internal simulator error") {
		t.Fatalf("simulator panic: %s", fl.Reason)
	}
}

// FuzzCommandRegulator feeds arbitrary command lists to the CR after a
// valid surface set-up: no panic, no hang (the watchdog bounds the work).
func FuzzCommandRegulator(f *testing.F) {
	f.Add(full(surfaceSetup(), 0.5, 0xFF00FF00).bytes())
	f.Add((&sb{}).put(uc.Header2, uc.TransSet(uc.TypePalette, uc.SubStipple, 0, 30), 1, 2, 3).bytes())
	f.Add((&sb{}).put(uc.H1(uc.RegTransSet), 0, uc.H1(uc.RegPara0), cmdB(), uc.H1(uc.RegPara0), triA()).bytes())
	f.Add(surfaceSetup("txmp", true).texGen(uc.Named(uc.SpaceTexGen, "HTXSMD").Word("txnum", "TWO")).
		tex(0, texReplace(uc.TexDXT5, 3, 3, 5)...).tex(1, texReplace(uc.TexI4, 2, 2, 1)...).
		list(uc.CmdBWord(maskTex|uc.MaskW|uc.MaskCs, 0, 0), triA(), make([]uint32, 30)...).bytes())
	d := NewBudget(1 << 16)
	f.Cleanup(func() { d.Close() })
	pre := surfaceSetup("zt", true, "zw", true, "st", true).bytes()
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzRun(t, d, append(append([]byte{}, pre...), b...))
	})
}

// FuzzVertexStream fuzzes Command A, Command B and the vertex dwords of
// one list under a fuzzed enable register.
func FuzzVertexStream(f *testing.F) {
	f.Add(uint32(cmdB()), uint32(triA()), uint32(0x10000), []byte{0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
	f.Add(uint32(uc.CmdBWord(maskXYZC, 0, uc.StripEven)), uint32(uc.CmdAWord(uc.PrimTri, 4, uc.StripOdd)), uint32(0x32000), make([]byte, 96))
	f.Add(uint32(uc.CmdBWord(maskXYZC|uc.MaskW, uc.CmdBLastPixel, uc.LineStripEven)), uint32(uc.CmdAWord(uc.PrimLine, 2, uc.LineStripOdd)), uint32(0x10300), make([]byte, 64))
	d := NewBudget(1 << 16)
	f.Cleanup(func() { d.Close() })
	f.Fuzz(func(t *testing.T, cmdb, cmda, en uint32, verts []byte) {
		s := surfaceSetup().attr(uc.Param(uc.AttrEnable, en&^(1<<15|1<<4|1<<21)), a("HZWTMD", "func", "LESS"),
			a("HSTMD", "func", "EQUAL", "zpass", "INCR"), 0x34000000, 0x35000000)
		s.put(uc.Header2, uc.TransSet(uc.TypeCmd, 0, 0, 0), uc.CmdBBase|cmdb&0x1FFFFFF, uc.CmdABase|cmda&0x1FFFFFF&^uc.CmdAPLEnd)
		for i := 0; i+4 <= len(verts) && i < 4096; i += 4 {
			s.put(binary.LittleEndian.Uint32(verts[i:]))
		}
		s.put(uc.CmdABase | cmda&0x1FFFFFF | uc.CmdAEnd)
		fuzzRun(t, d, s.bytes())
	})
}
