package glamo

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	hg "github.com/retrogl/retrogl/hal/glamo"
	"github.com/retrogl/retrogl/sim/device"
)

// TestQMatchesTable checks the inlined s[7].16 rounding against
// hal/glamo's (the format's single definition).
func TestQMatchesTable(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	vals := []float64{0, 1, -1, 0x1p-62, 0x1p-63, 1e30, -1e30, 1 + 0x1p-17, 1 + 3*0x1p-17, 2 - 0x1p-18,
		math.Inf(1), math.Inf(-1), math.NaN(), 0x1.fffep64, 0x1.ffffp64}
	for i := 0; i < 20000; i++ {
		vals = append(vals, math.Ldexp(r.Float64()*2-1, r.Intn(140)-70))
	}
	for _, v := range vals {
		want := hg.RoundF24(v)
		got := q(v)
		if !(got == want || (got != got && want != want)) {
			t.Fatalf("q(%g) = %g, RoundF24 = %g", v, got, want)
		}
	}
}

// TestEffectsTable is the dispatch table's self-check: every register
// whose write acts in hal/glamo's table has a handler, and every handler
// belongs to such a register.
func TestEffectsTable(t *testing.T) {
	acting := map[uint16]bool{}
	for _, r := range hg.Registers() {
		switch r.Effect {
		case hg.EffFire, hg.EffPreFire, hg.EffModeFire, hg.EffEnd, hg.EffParserEnd, hg.EffPalette0, hg.EffPalette1:
			acting[r.Addr] = true
			assert.Containsf(t, effects, r.Addr, "%s (%04Xh) has an effect but no handler", r.Name, r.Addr)
		}
	}
	for a := range effects {
		assert.Truef(t, acting[a], "handler at %04Xh for a register without an effect", a)
	}
	assert.Len(t, effects, 5+512)
}

// TestLatchOnHighHalf: a 32-bit field takes effect when its high half is
// written (hal/glamo doc); the low half alone changes nothing.
func TestLatchOnHighHalf(t *testing.T) {
	e := NewEngine()
	require.NoError(t, e.write(0x2100, 0x0605))
	assert.Equal(t, uint32(0), e.reg(0x2100), "low half only stores")
	require.NoError(t, e.write(0x2102, 0x0008))
	assert.Equal(t, uint32(0x00080605), e.reg(0x2100))
	require.NoError(t, e.write(0x2102, 0x0018))
	assert.Equal(t, uint32(0x00180605), e.reg(0x2100), "the stored low half is reused")
	require.NoError(t, e.write(0x210C, 0x1234), "16-bit registers act at once")
	assert.Equal(t, uint32(0x1234), e.reg(0x210C))
	require.NoError(t, e.write(0x2054, 0xFFFF), "status writes are ignored")
	assert.Equal(t, uint16(0x02FF), e.ReadReg(0x2054))
}

func TestFaults(t *testing.T) {
	tests := []struct {
		name   string
		build  func(b *hg.Builder)
		offset uint32
		word   uint64
		reason string
	}{
		{"reserved register", func(b *hg.Builder) { b.Nop(); b.Write16(0x23E2, 1) }, 6, 1,
			"write to reserved register 23E2h"},
		{"odd address", func(b *hg.Builder) { b.Write16(0x2101, 1) }, 0, 0x2101, "register address 0x2101 is odd"},
		{"outside block", func(b *hg.Builder) { b.Write16(0x3000, 1) }, 0, 0x3000, "outside the 3D block"},
		{"packet mode", func(b *hg.Builder) { b.Set("EGPDTYPE", "TYPE", "POINTS"); b.Set("MGBufCMSFire", "MODE", "PACKET") }, 6, 2,
			"packet mode"},
		{"reserved primitive", func(b *hg.Builder) { b.Write16(0x2052, 0x0B); b.Write16(0x2058, 0) }, 6, 0,
			"EGPDTYPE 01011 is reserved"},
		{"reserved colour format", func(b *hg.Builder) {
			b.Set("EGDst0Cfg", "FMT", 0x33)
			b.Set("RGPSetup", "SHADE", "GOURAUD")
			b.Set("EGPrimSet", "FILL", "SOLID")
			b.Write16(0x2058, 0)
		}, 22, 0, "EGDST0CFM 0x33 is reserved"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, 16, 16)
			var b hg.Builder
			tt.build(&b)
			err := r.run(&b)
			f, ok := hal.AsFault(err)
			require.Truef(t, ok, "want a fault, got %v", err)
			assert.Equal(t, tt.offset, f.Offset)
			assert.Equal(t, rigCmd+tt.offset, f.Addr)
			assert.Equal(t, tt.word, f.Word)
			assert.Equal(t, 2, f.WordSize)
			assert.Contains(t, f.Reason, tt.reason)
			// The device stays usable.
			var ok2 hg.Builder
			ok2.Set("EGSRegA", "VALUE", 9)
			require.NoError(t, r.run(&ok2))
			assert.Equal(t, uint16(9), r.d.ReadReg(0x2170))
		})
	}
}

func TestFaultDecodedAndOddBuffer(t *testing.T) {
	r := newRig(t, 16, 16)
	var b hg.Builder
	b.Write16(0x23E2, 5)
	f, _ := hal.AsFault(r.run(&b))
	require.NotNil(t, f)
	assert.Equal(t, "23E2H = 0x0005 (reserved register)", f.Decoded)
	require.NoError(t, r.d.Write(rigCmd, []byte{0x58, 0x20, 0}))
	fe, err := r.d.Submit(hal.Buffer{Addr: rigCmd, Size: 3})
	require.NoError(t, err)
	f, _ = hal.AsFault(r.d.Wait(fe))
	require.NotNil(t, f)
	assert.Contains(t, f.Reason, "odd")
}

// TestWatchdog: a list of 2^20-1 full-screen triangles stops at the same
// word on every run.
func TestWatchdog(t *testing.T) {
	e := NewEngine()
	d := device.New(device.Config{Info: hal.Info{Chip: hg.Chip, WordSize: 2,
		Regions: []hal.Region{{Name: "vram", Base: 0, Size: 1 << 20}}}, Budget: 5000}, e)
	e.mem = d.Memory()
	defer d.Close()
	var b hg.Builder
	b.Set("EGDst0Cfg", "ROP", "COPY_PEN", "FMT", "RGB565", "PITCH", 64)
	b.Set("EGCLTB", "TOP", 0, "BOT", 63)
	b.Set("EGCLLR", "LEFT", 0, "RIGHT", 63)
	b.Set("RGXFront", "SCRCOOR", true)
	b.Set("RGPSetup", "SHADE", "GOURAUD")
	b.Set("EGPrimSet", "FILL", "SOLID")
	b.Set("MGVStreamActive", "ACTIVE", 1)
	b.Set("MGVStrm0Ctl", "STRIDE", 0, "DIM", "2D", "TYPE", "FLOAT")
	b.Set("MGVStrm0BAS", "BASE", 0x1000)
	b.Set("RGPVDNum", "COUNT", 1<<20-1)
	b.Set("EGPDTYPE", "TYPE", "TRIANGLE_FAN")
	b.Set("MGBufCMSFire", "MODE", "BUFFER")
	buf := b.Bytes()
	require.NoError(t, d.Write(0x8000, buf))
	var offs []uint32
	for i := 0; i < 2; i++ {
		f, _ := d.Submit(hal.Buffer{Addr: 0x8000, Size: uint32(len(buf))})
		fl, ok := hal.AsFault(d.Wait(f))
		require.True(t, ok)
		assert.Contains(t, fl.Reason, "watchdog")
		offs = append(offs, fl.Offset)
	}
	assert.Equal(t, offs[0], offs[1])
}
