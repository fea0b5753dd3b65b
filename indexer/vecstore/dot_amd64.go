package vecstore

import "golang.org/x/sys/cpu"

// useAVX2 is whether this processor can run the assembly; decided once.
var useAVX2 = cpu.X86.HasAVX2

//go:noescape
func dotsInt8AVX2(q *int16, rows *int8, n, count int, out *int32)

// dotsInt8 sets out[r] to the inner product of q and the r-th row of
// rows (len(out) rows of len(q) codes, len(q) a multiple of 16).
func dotsInt8(q []int16, rows []int8, out []int32) {
	if len(out) == 0 || len(q) == 0 {
		clear(out)
		return
	}
	if useAVX2 {
		rows = rows[:len(q)*len(out)]
		dotsInt8AVX2(&q[0], &rows[0], len(q), len(out), &out[0])
		return
	}
	dotsInt8Go(q, rows, out)
}
