//go:build !amd64

package indexer

// dotInt8 is the inner product of two int8 vectors of the same length.
func dotInt8(a, b []int8) int32 { return dotInt8Go(a, b) }
