//go:build amd64 && !purego

#include "textflag.h"

// func sweepFwd(kv, kb unsafe.Pointer, dmax, dmin, lo, span int, a1 unsafe.Pointer, n1 int, a2 unsafe.Pointer, n2 int) (i1, d, flags int)
//
// sweepForwardGo's loop: for d = dmax, dmax-2, ... >= dmin (kv and kb
// point at diagonal 0 of the forward and backward vectors):
//	i1 = max(kv[d-1]+1, kv[d+1]); i2 = i1-d
//	while uint(i1) < n1 && uint(i2) < n2 && a1[i1] == a2[i2]: i1++, i2++
//	snake |= i1-prev > 20 (snakeCnt); kv[d] = i1
//	if uint(d-lo) <= uint(span) && kb[d] <= i1: met at (i1, d)
TEXT ·sweepFwd(SB), NOSPLIT, $0-104
	MOVQ kv+0(FP), R8
	MOVQ kb+8(FP), R9
	MOVQ dmax+16(FP), R10
	MOVQ a1+48(FP), R11
	MOVQ a2+64(FP), R12
	XORQ R13, R13

fwdLoop:
	CMPQ R10, dmin+24(FP)
	JLT  fwdDone
	MOVLQSX -4(R8)(R10*4), AX
	INCQ AX
	MOVLQSX 4(R8)(R10*4), BX
	CMPQ BX, AX
	CMOVQGT BX, AX
	MOVQ AX, CX
	MOVQ AX, BX
	SUBQ R10, BX

fwdSnake:
	CMPQ AX, n1+56(FP)
	JCC  fwdSnakeEnd
	CMPQ BX, n2+72(FP)
	JCC  fwdSnakeEnd
	MOVL (R11)(AX*4), DX
	CMPL DX, (R12)(BX*4)
	JNE  fwdSnakeEnd
	INCQ AX
	INCQ BX
	JMP  fwdSnake

fwdSnakeEnd:
	MOVQ AX, DX
	SUBQ CX, DX
	CMPQ DX, $20
	JLE  fwdStore
	MOVQ $1, R13

fwdStore:
	MOVL AX, (R8)(R10*4)
	MOVQ R10, DX
	SUBQ lo+32(FP), DX
	CMPQ DX, span+40(FP)
	JHI  fwdNext
	MOVLQSX (R9)(R10*4), DX
	CMPQ DX, AX
	JGT  fwdNext
	MOVQ AX, i1+80(FP)
	MOVQ R10, d+88(FP)
	ORQ  $2, R13
	MOVQ R13, flags+96(FP)
	RET

fwdNext:
	SUBQ $2, R10
	JMP  fwdLoop

fwdDone:
	MOVQ $0, i1+80(FP)
	MOVQ $0, d+88(FP)
	MOVQ R13, flags+96(FP)
	RET

// func sweepBwd(kb, kv unsafe.Pointer, dmax, dmin, lo, span int, b1 unsafe.Pointer, n1 int, b2 unsafe.Pointer, n2 int, off1, off2 int) (i1, d, flags int)
//
// sweepBackwardGo's loop: for d = dmax, dmax-2, ... >= dmin (kb and kv
// point at diagonal 0 of the backward and forward vectors; b1 and b2 are
// A and B from off1 and off2 on):
//	i1 = min(kb[d-1], kb[d+1]-1); j1 = i1-off1-1; j2 = i1-d-off2-1
//	while uint(j1) < n1 && uint(j2) < n2 && b1[j1] == b2[j2]: j1--, j2--
//	i1 = j1+off1+1; snake |= prev-i1 > 20; kb[d] = i1
//	if uint(d-lo) <= uint(span) && i1 <= kv[d]: met at (i1, d)
TEXT ·sweepBwd(SB), NOSPLIT, $0-120
	MOVQ kb+0(FP), R8
	MOVQ kv+8(FP), R9
	MOVQ dmax+16(FP), R10
	MOVQ b1+48(FP), R11
	MOVQ b2+64(FP), R12
	XORQ R13, R13

bwdLoop:
	CMPQ R10, dmin+24(FP)
	JLT  bwdDone
	MOVLQSX -4(R8)(R10*4), AX
	MOVLQSX 4(R8)(R10*4), BX
	DECQ BX
	CMPQ BX, AX
	CMOVQLT BX, AX
	MOVQ AX, CX
	MOVQ AX, SI
	SUBQ off1+80(FP), SI
	DECQ SI
	MOVQ AX, DI
	SUBQ R10, DI
	SUBQ off2+88(FP), DI
	DECQ DI

bwdSnake:
	CMPQ SI, n1+56(FP)
	JCC  bwdSnakeEnd
	CMPQ DI, n2+72(FP)
	JCC  bwdSnakeEnd
	MOVL (R11)(SI*4), DX
	CMPL DX, (R12)(DI*4)
	JNE  bwdSnakeEnd
	DECQ SI
	DECQ DI
	JMP  bwdSnake

bwdSnakeEnd:
	MOVQ SI, AX
	ADDQ off1+80(FP), AX
	INCQ AX
	MOVQ CX, DX
	SUBQ AX, DX
	CMPQ DX, $20
	JLE  bwdStore
	MOVQ $1, R13

bwdStore:
	MOVL AX, (R8)(R10*4)
	MOVQ R10, DX
	SUBQ lo+32(FP), DX
	CMPQ DX, span+40(FP)
	JHI  bwdNext
	MOVLQSX (R9)(R10*4), DX
	CMPQ AX, DX
	JGT  bwdNext
	MOVQ AX, i1+96(FP)
	MOVQ R10, d+104(FP)
	ORQ  $2, R13
	MOVQ R13, flags+112(FP)
	RET

bwdNext:
	SUBQ $2, R10
	JMP  bwdLoop

bwdDone:
	MOVQ $0, i1+96(FP)
	MOVQ $0, d+104(FP)
	MOVQ R13, flags+112(FP)
	RET
