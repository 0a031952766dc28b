//go:build amd64 && !purego

#include "textflag.h"

// func cpuid(op, op2 uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL op+0(FP), AX
	MOVL op2+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv0() (eax, edx uint32)
TEXT ·xgetbv0(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// 1.5·2^52 + 2^31: added to S·c·2^32 it leaves round(S·c·2^32 + 2^31) in
// the low bits of the mantissa.
DATA marginMagic<>+0(SB)/8, $0x4338000080000000
GLOBL marginMagic<>(SB), RODATA|NOPTR, $8

// 1.5·2^52's bits in each lane, subtracted to leave that integer.
DATA marginMagicBits<>+0(SB)/8, $0x4338000000000000
DATA marginMagicBits<>+8(SB)/8, $0x4338000000000000
DATA marginMagicBits<>+16(SB)/8, $0x4338000000000000
DATA marginMagicBits<>+24(SB)/8, $0x4338000000000000
GLOBL marginMagicBits<>(SB), RODATA|NOPTR, $32

DATA margin255<>+0(SB)/8, $255
DATA margin255<>+8(SB)/8, $255
DATA margin255<>+16(SB)/8, $255
DATA margin255<>+24(SB)/8, $255
GLOBL margin255<>(SB), RODATA|NOPTR, $32

DATA marginLow32<>+0(SB)/8, $0xFFFFFFFF
DATA marginLow32<>+8(SB)/8, $0xFFFFFFFF
DATA marginLow32<>+16(SB)/8, $0xFFFFFFFF
DATA marginLow32<>+24(SB)/8, $0xFFFFFFFF
GLOBL marginLow32<>(SB), RODATA|NOPTR, $32

// Byte 4 of lanes 0 (R) and 1 (G, byte 12) to bytes 2 and 1 of a word.
DATA marginShufRG<>+0(SB)/8, $0x8080808080040c80
DATA marginShufRG<>+8(SB)/8, $0x8080808080808080
GLOBL marginShufRG<>(SB), RODATA|NOPTR, $16

// Byte 4 of lanes 2 (B) and 3 (A, byte 12) to bytes 0 and 3.
DATA marginShufBA<>+0(SB)/8, $0x808080800c808004
DATA marginShufBA<>+8(SB)/8, $0x8080808080808080
GLOBL marginShufBA<>(SB), RODATA|NOPTR, $16

// 255 and 1 in each 16-bit lane, for the over blend.
DATA margin255w<>+0(SB)/8, $0x00ff00ff00ff00ff
DATA margin255w<>+8(SB)/8, $0x00ff00ff00ff00ff
GLOBL margin255w<>(SB), RODATA|NOPTR, $16

DATA marginOne16<>+0(SB)/8, $0x0001000100010001
DATA marginOne16<>+8(SB)/8, $0x0001000100010001
GLOBL marginOne16<>(SB), RODATA|NOPTR, $16

// func marginBytesVec(cols *fusedCol, ma *float64, mi *uint32, words *uint32, n int, cd *[8]float64, lo, hm1, slope uint64, chk *[4]uint64, amask, aor uint32, fix *uint16, dst *byte, k *[4]uint64) int
TEXT ·marginBytesVec(SB), NOSPLIT, $0-120
	MOVQ cols+0(FP), AX
	MOVQ ma+8(FP), BX
	MOVQ mi+16(FP), CX
	MOVQ words+24(FP), DX
	MOVQ n+32(FP), SI
	MOVQ cd+40(FP), R10
	VMOVUPD 0(R10), Y0            // c, 4 channels
	VMOVUPD 32(R10), Y1           // d
	VBROADCASTSD marginMagic<>(SB), Y8
	VPBROADCASTQ lo+48(FP), Y10
	VPBROADCASTQ hm1+56(FP), Y11
	MOVQ slope+64(FP), X9         // the slope's shift
	MOVQ chk+72(FP), R10
	VMOVDQU (R10), Y12            // the lanes whose bytes are checked
	MOVL amask+80(FP), R10
	VMOVD R10, X13
	MOVL aor+84(FP), R10
	VMOVD R10, X14
	VMOVDQU margin255w<>(SB), X15
	MOVQ fix+88(FP), DI
	MOVQ dst+96(FP), R11          // nil: no blend
	MOVQ k+104(FP), R12
	XORQ R8, R8                   // i
	XORQ R9, R9                   // nf
	TESTQ SI, SI
	JLE done

loop:
	MOVL (CX)(R8*4), R10          // the column pair
	MOVL R10, R14
	ANDL $0xFFFF, R10
	SHRL $16, R14
	SHLQ $5, R10
	SHLQ $5, R14
	VMOVUPD (AX)(R10*1), Y2       // e0
	VMOVUPD (AX)(R14*1), Y3       // e1
	VBROADCASTSD (BX)(R8*8), Y4   // a
	VSUBPD Y2, Y3, Y3
	VMULPD Y4, Y3, Y3
	VADDPD Y2, Y3, Y3             // S
	VMULPD Y0, Y3, Y3             // S·c·2^32
	VADDPD Y8, Y3, Y3
	VPSUBQ marginMagicBits<>(SB), Y3, Y3 // z = round(S·c·2^32 + 2^31)
	VADDPD Y1, Y0, Y0             // c += d
	VPSRLQ $32, Y3, Y4            // the bytes
	VPCMPGTQ margin255<>(SB), Y4, Y5 // a byte beyond 255 (or z < 0)
	VPSLLQ X9, Y4, Y7
	VPADDQ Y10, Y7, Y7            // the window's low edge, lo + k<<17
	VPSUBQ Y7, Y3, Y6
	VPAND marginLow32<>(SB), Y6, Y6 // the fraction above it, mod 2^32
	VPSUBQ Y7, Y11, Y7            // the window's width less one
	VPCMPGTQ Y7, Y6, Y6           // a fraction outside the window
	VPOR Y6, Y5, Y5
	VPAND Y12, Y5, Y5
	VMOVMSKPD Y5, R10
	VEXTRACTI128 $1, Y3, X7
	VPSHUFB marginShufRG<>(SB), X3, X3
	VPSHUFB marginShufBA<>(SB), X7, X7
	VPOR X7, X3, X3
	VPAND X13, X3, X3
	VPOR X14, X3, X3              // the word, bytes B, G, R, A
	MOVQ R9, R13
	ANDQ $1023, R13
	MOVW R8, (DI)(R13*2)          // listed when a channel is outside
	NEGQ R10                      // CF: a lane is outside
	SBBQ R10, R10
	SUBQ R10, R9
	TESTQ R11, R11
	JZ direct
	// The over blend in 16-bit lanes (fusedOverWords).
	VPMOVZXBW X3, X4
	MOVL (R11)(R8*4), R10
	VMOVD R10, X5
	VPMOVZXBW X5, X5
	VPSHUFLW $0xFF, X4, X6        // alpha
	VPSUBW X6, X15, X7            // 255 - alpha
	VPMULLW X6, X4, X4
	VPMULLW X7, X5, X5
	VPADDW X5, X4, X4
	MOVQ R8, R10
	ANDQ $3, R10
	VMOVQ (R12)(R10*8), X5
	VPADDW X5, X4, X4             // V
	VPSRLW $8, X4, X5
	VPADDW X5, X4, X4
	VPADDW marginOne16<>(SB), X4, X4
	VPSRLW $8, X4, X4
	VPACKUSWB X4, X4, X3

direct:
	VMOVD X3, R14
	MOVL R14, (DX)(R8*4)
	INCQ R8
	CMPQ R8, SI
	JLT loop

done:
	VZEROUPPER
	MOVQ R9, ret+112(FP)
	RET
