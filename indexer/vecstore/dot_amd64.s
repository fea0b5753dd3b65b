#include "textflag.h"

// func dotsInt8AVX2(q *int16, rows *int8, n, count int, out *int32)
// Requires AVX2; n is a multiple of 16. out[r] is the inner product of
// the query q (n int16, widened once by the caller) and row r of rows
// (count rows of n int8, one after the other). Each step widens sixteen
// codes of the row and multiply-adds them with the query's into eight
// int32 lanes; one call does a whole block of rows.
TEXT ·dotsInt8AVX2(SB), NOSPLIT, $0-40
	MOVQ q+0(FP), SI
	MOVQ rows+8(FP), DI
	MOVQ n+16(FP), DX
	MOVQ count+24(FP), R8
	MOVQ out+32(FP), R9

drow:
	CMPQ R8, $0
	JE   ddone
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	MOVQ SI, R10
	MOVQ DX, CX

dloop32:
	CMPQ CX, $32
	JL   dloop16
	VPMOVSXBW (DI), Y2
	VPMADDWD (R10), Y2, Y2
	VPADDD Y2, Y0, Y0
	VPMOVSXBW 16(DI), Y3
	VPMADDWD 32(R10), Y3, Y3
	VPADDD Y3, Y1, Y1
	ADDQ $32, DI
	ADDQ $64, R10
	SUBQ $32, CX
	JMP  dloop32

dloop16:
	CMPQ CX, $16
	JL   dreduce
	VPMOVSXBW (DI), Y2
	VPMADDWD (R10), Y2, Y2
	VPADDD Y2, Y0, Y0
	ADDQ $16, DI
	ADDQ $32, R10
	SUBQ $16, CX
	JMP  dloop16

dreduce:
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPHADDD X0, X0, X0
	VPHADDD X0, X0, X0
	MOVQ X0, AX
	MOVL AX, (R9)
	ADDQ $4, R9
	DECQ R8
	JMP  drow

ddone:
	VZEROUPPER
	RET
