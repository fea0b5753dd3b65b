package indexer

import "golang.org/x/sys/cpu"

// useAVX2 is whether this processor can run dotAVX2; decided once.
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func dotAVX2(a, b *float32, n int) float32

// dot is the inner product of two vectors of the same length.
func dot(a, b []float32) float32 {
	if len(a) == 0 {
		return 0
	}
	if useAVX2 {
		b = b[:len(a)]
		return dotAVX2(&a[0], &b[0], len(a))
	}
	return dotGo(a, b)
}
