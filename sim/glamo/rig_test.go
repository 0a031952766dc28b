package glamo

import (
	"encoding/binary"
	"flag"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	hg "github.com/retrogl/retrogl/hal/glamo"
)

var update = flag.Bool("update", false, "rewrite golden files")

// rig drives a simulated device with hand-built command buffers, as a
// driver would, without the driver: every expectation below is about the
// chip.
type rig struct {
	t    testing.TB
	d    *Device
	w, h int
}

// Fixed VRAM layout of the rig.
const (
	rigFB      = 0x100000 // colour buffer
	rigZ       = 0x200000 // Z buffer
	rigSt      = 0x300000 // stencil buffer
	rigData    = 0x400000 // vertex and texture data
	rigCmd     = 0x600000 // command buffers
	rigMaxSize = 128
)

func newRig(t testing.TB, w, h int) *rig {
	r := &rig{t: t, d: New(), w: w, h: h}
	t.Cleanup(func() { r.d.Close() })
	return r
}

// run submits a buffer and returns the device's verdict.
func (r *rig) run(b *hg.Builder) error {
	buf := b.Bytes()
	require.NoError(r.t, r.d.Write(rigCmd, buf))
	f, err := r.d.Submit(hal.Buffer{Addr: rigCmd, Size: uint32(len(buf))})
	require.NoError(r.t, err)
	return r.d.Wait(f)
}

func (r *rig) mustRun(b *hg.Builder) {
	r.t.Helper()
	require.NoError(r.t, r.run(b))
}

// base emits a complete baseline state: an RGB565 target, Z16 and S8
// buffers, full scissor, screen-space immediate vertices, flat shading
// from vertex c, solid fill, no tests, no blending.
func (r *rig) base(b *hg.Builder, fmt string) {
	b.Set("EGDst0Cfg", "ROP", "COPY_PEN", "FMT", fmt, "PITCH", r.w)
	b.Set("EGDST0BAS", "BASE", rigFB)
	b.Set("EGZCfg", "FMT", "Z16", "TEST", "ALWAYS", "PITCH", r.w)
	b.Set("EGZBAS", "BASE", rigZ)
	b.Set("EGStCfg", "FMT", "S8", "TEST", "ALWAYS", "MASK", 0xFF)
	b.Set("EGStOps", "WRMASK", 0xFF, "PITCH", (r.w+1)/2)
	b.Set("EGStBAS", "BASE", rigSt)
	b.Set("EGCLTB", "TOP", 0, "BOT", r.h-1)
	b.Set("EGCLLR", "LEFT", 0, "RIGHT", r.w-1)
	b.Set("RGXFront", "SCRCOOR", true)
	b.Set("RGXLight")
	b.Set("RGXClip", "USEDEFSEL", false)
	b.Set("RGPSetup", "SHADE", "GOURAUD")
	b.Set("EGPrimSet", "FILL", "SOLID", "CCWFILL", "SOLID", "PARMODE", "STRIP_NEW_FAN_NEW")
	b.Set("EGEn0")
	b.Set("EGEn1")
	b.Set("MGVStrmCfg")
	b.Set("RGXPtSize", "SIZE", hg.F24(1))
}

// vtx writes the immediate vertex a and fires it.
func vtx(b *hg.Builder, x, y, z float32, argb uint32) {
	b.Burst32(0x1B00, hg.F32(x), hg.F32(y), hg.F32(z), hg.F32(1))
	b.Write32(0x1B20, argb)
	b.Write16(0x2058, 0)
}

// tri fires a screen-space triangle.
func tri(b *hg.Builder, p [3][2]float32, argb [3]uint32) {
	b.Set("EGPDTYPE", "TYPE", "TRIANGLES")
	for i := range p {
		vtx(b, p[i][0], p[i][1], 0.5, argb[i])
	}
	b.Set("EGEND", "MODE", "WAIT_ALL")
}

// rect fires a screen-space rectangle as a strip.
func rect(b *hg.Builder, x0, y0, x1, y1, z float32, argb uint32) {
	b.Set("EGPDTYPE", "TYPE", "TRIANGLE_STRIP")
	vtx(b, x0, y0, z, argb)
	vtx(b, x1, y0, z, argb)
	vtx(b, x0, y1, z, argb)
	vtx(b, x1, y1, z, argb)
	b.Set("EGEND", "MODE", "WAIT_ALL")
}

func (r *rig) px(x, y int) uint16 {
	var b [2]byte
	require.NoError(r.t, r.d.Read(rigFB+uint32(2*(y*r.w+x)), b[:]))
	return binary.LittleEndian.Uint16(b[:])
}

func (r *rig) z(x, y int) uint16 {
	var b [2]byte
	require.NoError(r.t, r.d.Read(rigZ+uint32(2*(y*r.w+x)), b[:]))
	return binary.LittleEndian.Uint16(b[:])
}

func (r *rig) st(x, y int) uint8 {
	var b [1]byte
	require.NoError(r.t, r.d.Read(rigSt+uint32(y*((r.w+1)/2*2)+x), b[:]))
	return b[0]
}

func (r *rig) fill(addr uint32, n int, v byte) {
	b := make([]byte, n)
	for i := range b {
		b[i] = v
	}
	require.NoError(r.t, r.d.Write(addr, b))
}

// clearAll fills colour, Z and stencil with fixed patterns.
func (r *rig) clearAll(c uint16, z uint16, s uint8) {
	b := make([]byte, 2*r.w*r.h)
	for i := 0; i < r.w*r.h; i++ {
		binary.LittleEndian.PutUint16(b[2*i:], c)
	}
	require.NoError(r.t, r.d.Write(rigFB, b))
	for i := 0; i < r.w*r.h; i++ {
		binary.LittleEndian.PutUint16(b[2*i:], z)
	}
	require.NoError(r.t, r.d.Write(rigZ, b))
	r.fill(rigSt, r.w*r.h+r.w, s)
}

func f32s(v ...float32) []byte {
	out := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(x))
	}
	return out
}
