package picasso

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	p "github.com/retrogl/retrogl/hal/pica"
)

const sample = `; vertex shader in picasso syntax
.fvec projection[4], modelView[4]
.constf myconst(0.0, 1.0, -1.0, 0.5)
.alias zeros myconst.xxxx
.alias ones myconst.yyyy
.out outpos position
.out outtc0 texcoord0.xy
.out outclr color
.alias inpos v0
.alias inclr v1
.bool useTex
.ivec count
.proc main
    mov r0.xyz, inpos
    mov r0.w, ones
    dp4 r1.x, modelView[0], r0
    dp4 r1.y, modelView[1], r0
    dp4 r1.z, modelView[2], r0
    dp4 r1.w, modelView[3], r0
    dp4 outpos.x, projection[0], r1
    dp4 outpos.y, projection[1], r1
    dp4 outpos.z, projection[2], r1
    dp4 outpos.w, projection[3], r1
    ifu useTex
        mov outtc0, v2
    .else
        mov outtc0, zeros
    .end
    mov r2, zeros
    loop count
        add r2, ones, r2
        cmp r2, ge, ge, myconst.wwww
        breakc cmp.x && cmp.y
    .end
    mad r3, r2, projection[a0.x], r1
    mova a0.xy, r2
    mov outclr, inclr
    call helper
    end
.end
.proc helper
    rcp r4, -r2.x
    rsq r5, r2.y
    slt r6, myconst, r2
.end
`

func TestAssembleSample(t *testing.T) {
	sb, err := Assemble(sample)
	require.NoError(t, err)
	x := sb.Executables[0]
	assert.Equal(t, uint32(0), x.Main)
	assert.Equal(t, []p.ShaderOutput{{Type: 0, Reg: 0, Mask: 0xF}, {Type: 3, Reg: 1, Mask: 0x3}, {Type: 2, Reg: 2, Mask: 0xF}}, x.Outputs)
	assert.Equal(t, []p.ShaderUniform{{Name: "projection", First: 0x10, Last: 0x13}, {Name: "modelView", First: 0x14, Last: 0x17},
		{Name: "useTex", First: 0x78, Last: 0x78}, {Name: "count", First: 0x70, Last: 0x70}}, x.Uniforms)
	assert.Equal(t, []p.ShaderConst{{Type: 2, ID: 8, Data: [4]uint32{0, 0x3F0000, 0xBF0000, 0x3E0000}}}, x.Consts)
	// Literal words: mov r0.xyz, v0 with descriptor 0 (mask xyz, identity).
	assert.Equal(t, uint32(0x4E000000), sb.Code[0])
	assert.Equal(t, uint32(0xE|0x1B<<5|0x1B<<14|0x1B<<23), sb.Opdescs[0])
	// dp4 r1.x, c4, r0: src1 = c4 (0x24), src2 = r0 (0x10).
	assert.Equal(t, uint32(0x08000000|0x11<<21|0x24<<12|0x10<<7|2), sb.Code[2])
	// ifu b0: else block at its .else, one instruction long.
	in := p.DecodeInsn(sb.Code[10])
	assert.Equal(t, p.OpIFU, in.Op)
	assert.Equal(t, uint16(12), in.Dest)
	assert.Equal(t, uint8(1), in.Num)
	// call helper resolves to the procedure's start and length.
	var call p.Insn
	for _, w := range sb.Code {
		if d := p.DecodeInsn(w); d.Op == p.OpCALL {
			call = d
		}
	}
	assert.Equal(t, uint8(3), call.Num)
	assert.Equal(t, uint16(len(sb.Code)-3), call.Dest)
}

// TestRoundTrip: source -> binary -> disassembly -> the same binary.
func TestRoundTrip(t *testing.T) {
	sb, err := Assemble(sample)
	require.NoError(t, err)
	text := Disassemble(sb)
	sb2, err := Assemble(text)
	require.NoError(t, err, text)
	assert.Equal(t, sb.Code, sb2.Code)
	assert.Equal(t, sb.Opdescs, sb2.Opdescs)
	assert.Equal(t, sb.Executables, sb2.Executables)
	assert.Equal(t, sb.Bytes(), sb2.Bytes())
}

func TestAssembleErrors(t *testing.T) {
	for src, msg := range map[string]string{
		"add r0, c0, c1":           "second source",
		"mov r0, q7":               "unknown register",
		".proc main\nmov r0, v0\n": ".proc main without .end",
		"ifu b0\nnop\n":            "block without .end",
		"call nowhere":             "unknown procedure",
		"mad r0, c0, c1, r0":       "at most one uniform",
		"mov o0.xx, v0":            "bad write mask",
		".out x nothing":           "unknown output property",
		"mov r0, c0[a0.x+200]":     "out of range",
		"cmp r0, lt, zz, r1":       "bad comparison",
	} {
		_, err := Assemble(src)
		require.Error(t, err, src)
		assert.Contains(t, err.Error(), msg, src)
	}
}

func FuzzAssemble(f *testing.F) {
	f.Add(sample)
	f.Add("mov o0, v0\nend\n")
	f.Add(".proc main\nloop i0\nbreakc !cmp.x\n.end\n.end")
	f.Fuzz(func(t *testing.T, src string) {
		sb, err := Assemble(src)
		if err != nil {
			return
		}
		// Whatever assembles disassembles and reassembles identically.
		sb2, err := Assemble(Disassemble(sb))
		if err != nil {
			t.Fatalf("disassembly does not assemble: %v\n%s", err, Disassemble(sb))
		}
		if string(sb.Bytes()) != string(sb2.Bytes()) {
			t.Fatalf("round trip changed the binary:\n%s", Disassemble(sb))
		}
	})
}
