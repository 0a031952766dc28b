package unichrome

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrogl/retrogl/hal"
	uc "github.com/retrogl/retrogl/hal/unichrome"
)

func TestFaults(t *testing.T) {
	okSurface := func() *sb { return surfaceSetup() }
	tri := cat(vtx(0, 0, 0, 0xFFFFFFFF), vtx(8, 0, 0, 0xFFFFFFFF), vtx(0, 8, 0, 0xFFFFFFFF))
	for _, tc := range []struct {
		name   string
		s      *sb
		reason string
		errBit uint32
	}{
		{"no header", (&sb{}).put(0x12345678, 0), "header was expected", uc.ErrUnexpectedHdr},
		{"H1 overflow", (&sb{}).put(uc.H1(uc.RegTransSet), 0x00010000, 0x15000000, 0), "more than one data dword", uc.ErrH1Overflow},
		{"reserved type", (&sb{}).put(uc.Header2, 0x00050000), "reserved transmission setting", uc.ErrIllegalCommand},
		{"undefined sub-address", okSurface().attr(0x72000000), "undefined sub-address 72h", uc.ErrIllegalCommand},
		{"open list at end", (&sb{}).put(uc.Header2, 0, cmdB(), triA(), fl(1)), "open vertex list", uc.ErrIllegalCommand},
		{"reserved dst format", okSurface().attr(a("HDBFM", "fmt", "RSV12")).list(cmdB(), triA(), tri...), "reserved destination format", 0},
		{"dst outside memory", okSurface().attr(a("HDBBasH", "addr", 0x7F)).list(cmdB(), triA(), tri...), "outside device memory", 0},
		{"AA", okSurface().attr(a("HEnable", "cw", true, "aa", true)).list(cmdB(), triA(), tri...), "anti-aliasing", 0},
		{"rectangle prim", okSurface().list(cmdB(), uc.CmdAWord(3, 4, 0), tri...), "not simulated", 0},
		{"reserved cycle", okSurface().list(cmdB(), uc.CmdAWord(uc.PrimTri, 4, 0x80), tri...), "reserved vertex cycle", 0},
		{"cycle without new vertex", okSurface().list(cmdB(), uc.CmdAWord(uc.PrimTri, 4, uc.CycleOne|0x15), tri...), "takes no new vertex", 0},
		{"YUV texture", okSurface().attr(a("HEnable", "cw", true, "txmp", true)).tex(0, tx("HTXnFM", "fmt", uc.TexCode(uc.GroupYUV, 0))).
			list(cmdB(), triA(), tri...), "YUV texture", 0},
		{"texture outside memory", okSurface().attr(a("HEnable", "cw", true, "txmp", true)).
			tex(0, texReplace(uc.TexABGR8888, 11, 11, 13, tx("HTXnL012BasH", "l0", 0xF0))...).list(cmdB(), triA(), tri...), "outside device memory", 0},
		{"reserved blend select", okSurface().attr(a("HEnable", "cw", true, "abl", true), a("HABLCsat", "ca", "RSV2")).
			list(cmdB(), triA(), tri...), "reserved blend Ca", 0},
		{"reserved blend bits", okSurface().attr(a("HEnable", "cw", true, "abl", true), 0x34000001).
			list(cmdB(), triA(), tri...), "reserved blend bits", 0},
	} {
		d := newDev(t)
		err := run(t, d, tc.s)
		require.Error(t, err, tc.name)
		f, ok := hal.AsFault(err)
		require.True(t, ok, tc.name)
		assert.Contains(t, f.Reason, tc.reason, tc.name)
		assert.Equal(t, "unichrome", f.Chip)
		assert.NotContains(t, f.Reason, "internal simulator error", tc.name)
		if tc.errBit != 0 {
			assert.Equal(t, tc.errBit, d.Engine.ReadReg(uc.ReadErr)&tc.errBit, tc.name)
		}
		// The device stays usable after a fault.
		clear(t, d, [4]uint8{}, 0, 0)
		require.NoError(t, run(t, d, full(surfaceSetup(), 0, 0xFF00FF00)), tc.name)
		assert.Equal(t, [4]uint8{0, 255, 0, 255}, pixel(t, d, 5, 5), tc.name)
	}
}

func TestFaultNamesWordAndOffset(t *testing.T) {
	d := newDev(t)
	s := surfaceSetup()
	n := len(s.w)
	s.attr(0xFF000000)
	err := run(t, d, s)
	f, ok := hal.AsFault(err)
	require.True(t, ok)
	assert.Equal(t, uint32(4*(n+2)), f.Offset, "header 2 and the transmission setting come first")
	assert.Equal(t, uint64(0xFF000000), f.Word)
	assert.Contains(t, f.Error(), "sub-address FFh is prohibited")

	// A buffer whose size is not a multiple of 8 faults before running.
	b := make([]byte, 12)
	binary.LittleEndian.PutUint32(b, uc.PadCC)
	al, err := d.Alloc(16, 64, "sys")
	require.NoError(t, err)
	require.NoError(t, d.Write(al.Addr, b))
	fe, err := d.Submit(hal.Buffer{Addr: al.Addr, Size: 12})
	require.NoError(t, err)
	err = d.Wait(fe)
	assert.ErrorContains(t, err, "not a multiple of 8")
}

func TestStatusRegisters(t *testing.T) {
	d := newDev(t)
	s := surfaceSetup().attr(a("HCRFlagNum", "flag", 0x1234))
	s.put(uc.Header2, uc.TransSet(uc.TypePreCR, 0, 0, 0), 0x10ABCDEF)
	s.put(uc.Header2, uc.TransSet(uc.TypeAuto, 0, 0, 0), 0x20123456)
	full(s, 0, 0xFFFFFFFF)
	mustRun(t, d, s)
	e := d.Engine
	assert.Equal(t, uint32(uc.EngStCmdQEmpty), e.ReadReg(uc.ReadEngSt), "idle, queue empty (fact 11)")
	assert.Equal(t, uint32(0x1234), e.ReadReg(uc.ReadFlagNum))
	assert.Equal(t, triA()|uc.CmdAEnd, e.ReadReg(uc.ReadCmdA))
	assert.Equal(t, cmdB(), e.ReadReg(uc.ReadCmdB))
	assert.Equal(t, uint32(0x010400|0x10000), e.ReadReg(uc.ReadEnable)&0x11FFFF|0x10000, "enable mirror")
	assert.Equal(t, uint32(0xABCDEF), e.ReadReg(uc.ReadPType10+4), "type 10h sub 10h shadow")
	assert.Equal(t, uint32(0x123456), e.ReadReg(uc.ReadPTypeFE+0x2C), "type FEh sub 20h shadow")
	assert.Equal(t, uint32(0), e.ReadReg(uc.ReadErr))

	// The enable register's seed sub-address 01h aliases 00h.
	s = (&sb{}).attr(0x01003000)
	mustRun(t, d, s)
	assert.Equal(t, uint32(0x3000), e.Attr(uc.AttrEnable))

	// An error sets HRErr; 62h bit 22 clears it.
	_ = run(t, d, (&sb{}).put(0x12345678, 0))
	assert.Equal(t, uint32(uc.ErrUnexpectedHdr), e.ReadReg(uc.ReadErr))
	mustRun(t, d, (&sb{}).attr(a("HAGPCMNT", "errclr", true)))
	assert.Equal(t, uint32(0), e.ReadReg(uc.ReadErr))
}

// TestHeader1Path programs and draws through the MMIO window: header 1 to
// 0x43C sets the transmission setting, to 0x440+ pushes parameters (any
// address in the window is the same FIFO).
func TestHeader1Path(t *testing.T) {
	d := newDev(t)
	clear(t, d, [4]uint8{}, 0, 0)
	s := &sb{}
	h1 := func(off, v uint32) { s.put(uc.H1(off), v) }
	h1(uc.RegTransSet, uc.TransSet(uc.TypeAttr, 0, 0, 0))
	for i, w := range surfaceSetup().w[2:] {
		h1(uc.RegPara0+uint32(4*(i%uc.NumParams)), w)
	}
	h1(uc.RegTransSet, uc.TransSet(uc.TypeCmd, 0, 0, 0))
	h1(uc.RegPara0, cmdB())
	h1(uc.RegPara0+0x100, triA())
	for _, w := range cat(vtx(0, 0, 0, 0xFF00FF00), vtx(64, 0, 0, 0xFF00FF00), vtx(0, 64, 0, 0xFF00FF00)) {
		h1(uc.RegParaLast, w)
	}
	h1(uc.RegPara0, triA()|uc.CmdAEnd)
	h1(uc.RegFire, 0)
	mustRun(t, d, s)
	assert.Equal(t, [4]uint8{0, 255, 0, 255}, pixel(t, d, 5, 5))
}

func TestDisassembleMatchesExecution(t *testing.T) {
	s := full(surfaceSetup(), 0, 0xFFFFFFFF)
	lines := uc.Disassemble(s.bytes(), 0)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	assert.NotContains(t, b.String(), "??")
	assert.Contains(t, b.String(), "(list end)")
}
