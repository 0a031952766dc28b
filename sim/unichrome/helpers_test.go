package unichrome

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	uc "github.com/retrogl/retrogl/hal/unichrome"
)

// Test surface: 64x64 ABGR8888 colour at the start of VRAM, Z24S8 after it.
const (
	tW, tH   = 64, 64
	colBase  = VRAMBase
	colPitch = tW * 4
	zBase    = VRAMBase + 0x10000
	zPitch   = tW * 4
	texBase  = VRAMBase + 0x20000
)

// sb builds command streams.
type sb struct{ w []uint32 }

func (s *sb) put(ws ...uint32) *sb { s.w = append(s.w, ws...); return s }

func (s *sb) attr(ws ...uint32) *sb {
	return s.put(uc.Header2, uc.TransSet(uc.TypeAttr, 0, 0, 0)).put(ws...)
}

func (s *sb) tex(n uint8, ws ...uint32) *sb {
	return s.put(uc.Header2, uc.TransSet(uc.TypeTex, n, 0, 0)).put(ws...)
}

func (s *sb) texGen(ws ...uint32) *sb {
	return s.put(uc.Header2, uc.TransSet(uc.TypeTex, uc.SubTexGeneral, 0, 0)).put(ws...)
}

// list streams one vertex list.
func (s *sb) list(cmdB, cmdA uint32, verts ...uint32) *sb {
	s.put(uc.Header2, uc.TransSet(uc.TypeCmd, 0, 0, 0), cmdB, cmdA)
	s.put(verts...)
	return s.put(cmdA | uc.CmdAEnd)
}

func (s *sb) bytes() []byte {
	w := s.w
	if len(w)%2 == 1 {
		// Pad to 64 bits: a repeated list end, or a pad dword.
		last := w[len(w)-1]
		if last>>25 == uc.CmdAHeader && last&uc.CmdAPLEnd != 0 {
			w = append(w, last)
		} else {
			w = append(w, uc.PadCC)
		}
	}
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func a(name string, kv ...any) uint32  { return uc.Named(uc.SpaceAttr, name).Word(kv...) }
func tx(name string, kv ...any) uint32 { return uc.Named(uc.SpaceTex, name).Word(kv...) }
func fl(f float32) uint32              { return math.Float32bits(f) }

// surfaceSetup programs the test surface: ABGR8888 colour, Z24S8, clip to
// the whole surface, colour write on.
func surfaceSetup(en ...any) *sb {
	s := &sb{}
	kv := append([]any{"cw", true, "aw", true}, en...)
	return s.attr(
		a("HEnable", kv...),
		a("HDBBasL", "addr", colBase&0xFFFFFF), a("HDBBasH", "addr", colBase>>24),
		a("HDBFM", "fmt", "ABGR8888", "pitch", colPitch),
		a("HFBBMSKL", "r", 0xFF, "g", 0xFF, "b", 0xFF), a("HROP", "rop", 12, "amask", 0xFF),
		a("HZWBBasL", "addr", zBase&0xFFFFFF), a("HZWBBasH", "addr", zBase>>24),
		a("HZWBType", "fmt", "Z24S8", "pitch", zPitch),
		a("HClipTB", "top", 0, "bottom", tH), a("HClipLR", "left", 0, "right", tW),
	)
}

func newDev(t testing.TB) *Device {
	d := New()
	t.Cleanup(func() { d.Close() })
	return d
}

// run submits a stream and waits.
func run(t testing.TB, d *Device, s *sb) error {
	b := s.bytes()
	al, err := d.Alloc(uint32(len(b)), 64, "sys")
	require.NoError(t, err)
	defer d.Free(al)
	require.NoError(t, d.Write(al.Addr, b))
	f, err := d.Submit(hal.Buffer{Addr: al.Addr, Size: uint32(len(b))})
	require.NoError(t, err)
	return d.Wait(f)
}

func mustRun(t testing.TB, d *Device, s *sb) {
	t.Helper()
	require.NoError(t, run(t, d, s))
}

// pixel reads the ABGR8888 test surface as RGBA.
func pixel(t testing.TB, d *Device, x, y int) [4]uint8 {
	var b [4]byte
	require.NoError(t, d.Read(colBase+uint32(y*colPitch+x*4), b[:]))
	return [4]uint8{b[0], b[1], b[2], b[3]}
}

func zs(t testing.TB, d *Device, x, y int) (uint32, uint8) {
	var b [4]byte
	require.NoError(t, d.Read(zBase+uint32(y*zPitch+x*4), b[:]))
	v := binary.LittleEndian.Uint32(b[:])
	return v >> 8, uint8(v)
}

// clear fills the colour (RGBA) and Z24S8 buffers directly.
func clear(t testing.TB, d *Device, c [4]uint8, z uint32, s uint8) {
	cb := make([]byte, colPitch*tH)
	zb := make([]byte, zPitch*tH)
	for i := 0; i < tW*tH; i++ {
		copy(cb[4*i:], c[:])
		binary.LittleEndian.PutUint32(zb[4*i:], z<<8|uint32(s))
	}
	require.NoError(t, d.Write(colBase, cb))
	require.NoError(t, d.Write(zBase, zb))
}

// Vertex helpers: X, Y, Z, Cd.
const maskXYZC = uc.MaskX | uc.MaskY | uc.MaskZ | uc.MaskCd

func vtx(x, y, z float32, argb uint32) []uint32 { return []uint32{fl(x), fl(y), fl(z), argb} }

func cat(vs ...[]uint32) []uint32 {
	var out []uint32
	for _, v := range vs {
		out = append(out, v...)
	}
	return out
}

func triA() uint32 { return uc.CmdAWord(uc.PrimTri, uc.ShadeGouraud, uc.CycleFull) }
func cmdB() uint32 { return uc.CmdBWord(maskXYZC, 0, 0) }
