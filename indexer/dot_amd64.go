package indexer

import "golang.org/x/sys/cpu"

// useAVX2 is whether this processor can run the assembly; decided once.
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func dotInt8AVX2(a, b *int8, n int) int32

// dotInt8 is the inner product of two int8 vectors of the same length, a
// multiple of 16.
func dotInt8(a, b []int8) int32 {
	if len(a) == 0 {
		return 0
	}
	if useAVX2 {
		b = b[:len(a)]
		return dotInt8AVX2(&a[0], &b[0], len(a))
	}
	return dotInt8Go(a, b)
}
